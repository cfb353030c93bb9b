//! Maps and sets kept as one vector sorted by key: the same iteration order as
//! `BTreeMap` and `BTreeSet` (ascending by `Ord`), with far less code compiled for
//! each key and value type.
//!
//! A `BTreeMap<K, V>` brings its node code (search, insert with splits, remove
//! with merges, clone, drop, the iterators) for every `K, V` it is used with, and
//! cardstock's library used it with about 80 pairs: 22 % of the library's LLVM IR
//! (docs/performance.md, "First build"). Here the searching and the sorting are
//! written once, on positions, without generics ([`search`], [`sorted_order`]);
//! what stays generic is a `Vec` of pairs. A map made at once (`collect`,
//! deserialising) is sorted once; an insert moves the entries after it, so a map
//! that a user's input can grow to many thousands of entries inserted in any order
//! stays a `BTreeMap` (a table's row ids, a CSV header's columns).

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

/// A map sorted by key (see the module's documentation): what `BTreeMap` gives,
/// for the operations cardstock uses.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SortedMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        SortedMap {
            entries: Vec::new(),
        }
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for SortedMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

impl<K, V> SortedMap<K, V> {
    /// An empty map.
    pub const fn new() -> Self {
        SortedMap {
            entries: Vec::new(),
        }
    }

    /// How many entries it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// The entries in key order, the values mutable.
    pub fn iter_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = (&K, &mut V)> + ExactSizeIterator {
        self.entries.iter_mut().map(|(k, v)| (&*k, v))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values in key order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The values in key order, mutable.
    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    /// The values in key order, the map consumed.
    pub fn into_values(self) -> impl DoubleEndedIterator<Item = V> + ExactSizeIterator {
        self.entries.into_iter().map(|(_, v)| v)
    }

    /// The keys in order, the map consumed.
    pub fn into_keys(self) -> impl DoubleEndedIterator<Item = K> + ExactSizeIterator {
        self.entries.into_iter().map(|(k, _)| k)
    }

    /// The first entry (the smallest key).
    pub fn first_key_value(&self) -> Option<(&K, &V)> {
        self.entries.first().map(|(k, v)| (k, v))
    }

    /// The last entry (the largest key).
    pub fn last_key_value(&self) -> Option<(&K, &V)> {
        self.entries.last().map(|(k, v)| (k, v))
    }

    /// Keeps only the entries `keep` says yes to, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    /// Where `key` is (`Ok`), or where it would go (`Err`).
    fn find<Q>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        search(self.entries.len(), &|i| self.entries[i].0.borrow().cmp(key))
    }

    /// The value of `key`.
    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    /// The entry of `key`, with the key as stored.
    pub fn get_key_value<Q>(&self, key: &Q) -> Option<(&K, &V)>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).ok().map(|i| {
            let (k, v) = &self.entries[i];
            (k, v)
        })
    }

    /// The value of `key`, mutable.
    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).ok().map(|i| &mut self.entries[i].1)
    }

    /// Whether `key` has a value.
    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).is_ok()
    }

    /// Sets `key`'s value, giving back the old one. As `BTreeMap::insert`, a key
    /// already there is kept (not replaced by the equal one given).
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    /// Takes `key`'s value out.
    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }

    /// The place of `key`, to read or fill.
    pub fn entry(&mut self, key: K) -> Entry<'_, K, V> {
        let at = self.find(&key);
        Entry { map: self, key, at }
    }

    /// The entries whose keys are `from` or after it, in order.
    pub fn range_from<Q>(&self, from: &Q) -> impl DoubleEndedIterator<Item = (&K, &V)>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let start = self.find(from).unwrap_or_else(|i| i);
        self.entries[start..].iter().map(|(k, v)| (k, v))
    }
}

/// The place of one key in a [`SortedMap`] (`SortedMap::entry`).
pub struct Entry<'a, K, V> {
    map: &'a mut SortedMap<K, V>,
    key: K,
    at: Result<usize, usize>,
}

impl<'a, K, V> Entry<'a, K, V> {
    /// The value, made by `make` if the key had none.
    pub fn or_insert_with(self, make: impl FnOnce() -> V) -> &'a mut V {
        let i = match self.at {
            Ok(i) => i,
            Err(i) => {
                self.map.entries.insert(i, (self.key, make()));
                i
            }
        };
        &mut self.map.entries[i].1
    }

    /// The value, `value` if the key had none.
    pub fn or_insert(self, value: V) -> &'a mut V {
        self.or_insert_with(|| value)
    }

    /// The value, the default if the key had none.
    pub fn or_default(self) -> &'a mut V
    where
        V: Default,
    {
        self.or_insert_with(V::default)
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for SortedMap<K, V> {
    /// As `BTreeMap`'s: of equal keys, the last pair is kept.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        SortedMap::from_pairs(iter.into_iter().collect(), false)
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    /// The map of `pairs`, sorted once (not inserted one by one, which moves
    /// entries). Of equal keys the last value is kept, with the first key if
    /// `first_key` (as `BTreeMap::insert` does) or else the last (as
    /// `BTreeMap::from_iter` does).
    fn from_pairs(pairs: Vec<(K, V)>, first_key: bool) -> Self {
        let mut items: Vec<Option<(K, V)>> = pairs.into_iter().map(Some).collect();
        let order = sorted_order(items.len(), &|a, b| {
            let key = |i: usize| &items[i].as_ref().expect("not taken yet").0;
            key(a).cmp(key(b))
        });
        let mut entries: Vec<(K, V)> = Vec::with_capacity(order.len());
        for i in order {
            let (key, value) = items[i].take().expect("each position once");
            match entries.last_mut() {
                Some(last) if last.0 == key && first_key => last.1 = value,
                Some(last) if last.0 == key => *last = (key, value),
                _ => entries.push((key, value)),
            }
        }
        SortedMap { entries }
    }
}

impl<K: Ord, V> Extend<(K, V)> for SortedMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl<K: Ord, V, const N: usize> From<[(K, V); N]> for SortedMap<K, V> {
    fn from(pairs: [(K, V); N]) -> Self {
        pairs.into_iter().collect()
    }
}

impl<K, V> IntoIterator for SortedMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<'a, K, V> IntoIterator for &'a SortedMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

impl<K, Q, V> std::ops::Index<&Q> for SortedMap<K, V>
where
    K: Ord + Borrow<Q>,
    Q: Ord + ?Sized,
{
    type Output = V;

    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry for the key")
    }
}

/// A set sorted by value: a [`SortedMap`] without values, what `BTreeSet` gives
/// for the operations cardstock uses.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SortedSet<T> {
    map: SortedMap<T, ()>,
}

impl<T> Default for SortedSet<T> {
    fn default() -> Self {
        SortedSet {
            map: SortedMap::new(),
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for SortedSet<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<T> SortedSet<T> {
    /// An empty set.
    pub const fn new() -> Self {
        SortedSet {
            map: SortedMap::new(),
        }
    }

    /// How many values it holds.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The values in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + ExactSizeIterator + Clone {
        self.map.keys()
    }

    /// The smallest value.
    pub fn first(&self) -> Option<&T> {
        self.map.first_key_value().map(|(k, _)| k)
    }

    /// The largest value.
    pub fn last(&self) -> Option<&T> {
        self.map.last_key_value().map(|(k, _)| k)
    }
}

impl<T: Ord> SortedSet<T> {
    /// Adds `value`: whether it was new (a value already there is kept).
    pub fn insert(&mut self, value: T) -> bool {
        self.map.insert(value, ()).is_none()
    }

    /// Whether it holds `value`.
    pub fn contains<Q>(&self, value: &Q) -> bool
    where
        T: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.map.contains_key(value)
    }

    /// Takes `value` out: whether it was there.
    pub fn remove<Q>(&mut self, value: &Q) -> bool
    where
        T: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.map.remove(value).is_some()
    }

    /// The values in one set or the other but not both, in order.
    pub fn symmetric_difference<'a>(
        &'a self,
        other: &'a SortedSet<T>,
    ) -> impl Iterator<Item = &'a T> {
        let mine = self.iter().filter(|v| !other.contains(*v));
        let theirs = other.iter().filter(|v| !self.contains(*v));
        let mut all: Vec<&T> = mine.chain(theirs).collect();
        all.sort();
        all.into_iter()
    }
}

impl<T: Ord> FromIterator<T> for SortedSet<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        SortedSet {
            map: iter.into_iter().map(|v| (v, ())).collect(),
        }
    }
}

impl<T: Ord> Extend<T> for SortedSet<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for v in iter {
            self.insert(v);
        }
    }
}

impl<T: Ord, const N: usize> From<[T; N]> for SortedSet<T> {
    fn from(values: [T; N]) -> Self {
        values.into_iter().collect()
    }
}

impl<T> IntoIterator for SortedSet<T> {
    type Item = T;
    type IntoIter = std::iter::Map<std::vec::IntoIter<(T, ())>, fn((T, ())) -> T>;

    fn into_iter(self) -> Self::IntoIter {
        self.map.entries.into_iter().map(|(v, ())| v)
    }
}

impl<'a, T> IntoIterator for &'a SortedSet<T> {
    type Item = &'a T;
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (T, ())>, fn(&'a (T, ())) -> &'a T>;

    fn into_iter(self) -> Self::IntoIter {
        self.map.entries.iter().map(|(v, ())| v)
    }
}

impl<K: serde::Serialize, V: serde::Serialize> serde::Serialize for SortedMap<K, V> {
    /// As a map, in key order (as `BTreeMap` is).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de, K, V> serde::Deserialize<'de> for SortedMap<K, V>
where
    K: serde::Deserialize<'de> + Ord,
    V: serde::Deserialize<'de>,
{
    /// From a map, as `BTreeMap` is (of equal keys, the first key and the last
    /// value).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Pairs<K, V>(std::marker::PhantomData<(K, V)>);

        impl<'de, K, V> serde::de::Visitor<'de> for Pairs<K, V>
        where
            K: serde::Deserialize<'de> + Ord,
            V: serde::Deserialize<'de>,
        {
            type Value = SortedMap<K, V>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut a: A,
            ) -> Result<Self::Value, A::Error> {
                let mut pairs = Vec::with_capacity(a.size_hint().unwrap_or(0).min(4096));
                while let Some(pair) = a.next_entry()? {
                    pairs.push(pair);
                }
                Ok(SortedMap::from_pairs(pairs, true))
            }
        }

        d.deserialize_map(Pairs(std::marker::PhantomData))
    }
}

/// A map with text keys as a template value, as minijinja makes a `BTreeMap`
/// one: `map.key` looks the key up, a loop goes through the entries in order.
impl<K, V> minijinja::value::Object for SortedMap<K, V>
where
    K: Ord + Borrow<str> + Send + Sync + fmt::Debug + 'static,
    V: Into<minijinja::Value> + Clone + Send + Sync + fmt::Debug + 'static,
{
    fn get_value(self: &Arc<Self>, key: &minijinja::Value) -> Option<minijinja::Value> {
        self.get(key.as_str()?).cloned().map(Into::into)
    }

    fn get_value_by_str(self: &Arc<Self>, key: &str) -> Option<minijinja::Value> {
        self.get(key).cloned().map(Into::into)
    }

    fn enumerate(self: &Arc<Self>) -> minijinja::value::Enumerator {
        use minijinja::value::ObjectExt;
        self.mapped_rev_key_value_enumerator(|this| {
            Box::new(
                this.iter()
                    .map(|(k, v)| (minijinja::Value::from(k.borrow()), v.clone().into())),
            )
        })
    }

    fn enumerator_len(self: &Arc<Self>) -> Option<usize> {
        Some(self.len())
    }
}

impl<V> From<SortedMap<String, V>> for minijinja::Value
where
    V: Into<minijinja::Value> + Clone + Send + Sync + fmt::Debug + 'static,
{
    fn from(map: SortedMap<String, V>) -> Self {
        minijinja::Value::from_object(map)
    }
}

impl<V> From<SortedMap<&str, V>> for minijinja::Value
where
    V: Into<minijinja::Value> + Clone + Send + Sync + fmt::Debug + 'static,
{
    /// With the keys copied into `Arc<str>`s (a value outlives the texts).
    fn from(map: SortedMap<&str, V>) -> Self {
        let entries = map
            .entries
            .into_iter()
            .map(|(k, v)| (Arc::<str>::from(k), v));
        minijinja::Value::from_object(SortedMap {
            entries: entries.collect(),
        })
    }
}

impl<K, V> From<&SortedMap<K, V>> for minijinja::Value
where
    SortedMap<K, V>: Clone + Into<minijinja::Value>,
{
    fn from(map: &SortedMap<K, V>) -> Self {
        map.clone().into()
    }
}

/// The first position in `0..len` whose element is not less than the one looked
/// for (`cmp(i)` compares element `i` with it): `Ok` if it is equal, `Err` with
/// where it would go otherwise. Written once for every map.
fn search(len: usize, cmp: &dyn Fn(usize) -> Ordering) -> Result<usize, usize> {
    let (mut lo, mut hi) = (0, len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match cmp(mid) {
            Ordering::Less => lo = mid + 1,
            Ordering::Greater => hi = mid,
            Ordering::Equal => return Ok(mid),
        }
    }
    Err(lo)
}

/// The positions `0..len` in the order `cmp` sorts their elements, equal ones
/// in their first order (a stable sort). Written once for every map.
fn sorted_order(len: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    // Mostly already in order: a map is often made from sorted data.
    if order
        .windows(2)
        .all(|w| cmp(w[0], w[1]) != Ordering::Greater)
    {
        return order;
    }
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

#[cfg(test)]
mod tests {
    use super::SortedMap;
    use std::collections::BTreeMap;

    /// The same operations on a `BTreeMap` and a `SortedMap` give the same
    /// results and the same order.
    #[test]
    fn behaves_as_a_btreemap() {
        let pairs = [(5, "e"), (1, "a"), (3, "c"), (1, "x"), (9, "i"), (3, "y")];
        let b: BTreeMap<i32, &str> = pairs.into_iter().collect();
        let s: SortedMap<i32, &str> = pairs.into_iter().collect();
        assert!(b.iter().eq(s.iter()));
        let (mut b, mut s) = (b, s);
        for (k, v) in [(4, "d"), (1, "z"), (10, "j"), (0, "o")] {
            assert_eq!(b.insert(k, v), s.insert(k, v));
        }
        assert_eq!(b.remove(&3), s.remove(&3));
        assert_eq!(b.remove(&3), s.remove(&3));
        *b.entry(7).or_default() = "g";
        *s.entry(7).or_default() = "g";
        assert!(b.iter().eq(s.iter()));
        assert_eq!(b.get(&4), s.get(&4));
        assert_eq!(b.get(&6), s.get(&6));
        assert!(b.range(4..).eq(s.range_from(&4)));
        assert!(b.into_iter().eq(s));
    }

    /// Of equal keys, the last pair made into a map stays, and an insert keeps
    /// the key there, as in a `BTreeMap`.
    #[test]
    fn keeps_the_keys_a_btreemap_keeps() {
        #[derive(Debug, Eq)]
        struct K(i32, &'static str);
        impl PartialEq for K {
            fn eq(&self, o: &K) -> bool {
                self.0 == o.0
            }
        }
        impl PartialOrd for K {
            fn partial_cmp(&self, o: &K) -> Option<std::cmp::Ordering> {
                Some(self.cmp(o))
            }
        }
        impl Ord for K {
            fn cmp(&self, o: &K) -> std::cmp::Ordering {
                self.0.cmp(&o.0)
            }
        }
        let make = || [(K(2, "first"), 1), (K(1, "one"), 2), (K(2, "second"), 3)];
        let mut b: BTreeMap<K, i32> = make().into_iter().collect();
        let mut s: SortedMap<K, i32> = make().into_iter().collect();
        b.insert(K(1, "inserted"), 4);
        s.insert(K(1, "inserted"), 4);
        let b: Vec<_> = b.iter().map(|(k, v)| (k.1, *v)).collect();
        let s: Vec<_> = s.iter().map(|(k, v)| (k.1, *v)).collect();
        assert_eq!(b, s);
    }
}
