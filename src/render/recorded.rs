//! Faces rendered again only when what their template read changed (the live
//! preview, through `pipeline::Incremental::rendered`).
//!
//! A render with a [`RenderCache`] wraps the game's values (`game`, `rules`,
//! `tables`, `settings`, `components`) in objects that note each entry the
//! template reads ([`Read`]); `lookup` and `select` note the tables they search.
//! Anything read whole (iterated, printed, counted, serialised) is noted whole.
//! The template is noted with every template it includes or imports (read from
//! their sources: a name that is not a string literal leaves the face uncached),
//! and every face reads [`Read::Shared`]: the fonts, the icons and the
//! `[network]`. A face's SVG text is kept under what identifies the render (the
//! game, the set, the template, the face's own values: `row`, `item`, `face` ...)
//! with a fingerprint ([`Print`]) of each thing it read; the next build reuses the
//! text when every fingerprint is the same, and renders it again otherwise.
//! Failed renders are not kept (their messages are made again by a plain render).
//! Kept renders do not charge the faces' fuel budget again.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use minijinja::value::{Enumerator, Object, ObjectRepr, Value};
use siphasher::sip128::{Hasher128 as _, SipHasher13};

use super::{FacePlan, Renderer};
use crate::diag::{Diagnostic, Reported, Severity};
use crate::eval::Context;
use crate::model::Component;
use crate::template::reads::{NotedIndex, Read, Reads};

/// The context values whose reads are noted (`counts`: the `[[assert]]`s' own).
const RECORDED: [&str; 6] = [
    "game",
    "rules",
    "tables",
    "settings",
    "components",
    "counts",
];

/// Bytes of SVG text the cache keeps at most (past it, new renders are not kept).
pub const RENDER_CACHE_BYTES: usize = 32 << 20;

/// A fingerprint of what was read: 128 bits of SipHash-1-3. Nothing is at stake
/// but a stale preview, and only by chance (one in 2^64 among billions of
/// values), not by anyone's design: the preview reads the designer's own files.
/// SHA-256 took about three times as long over the same text.
pub(crate) type Print = [u8; 16];

/// What fingerprints read: the project (the icon files), the game, its
/// templates and fonts, and the context the reads were made in.
#[derive(Clone, Copy)]
pub(crate) struct Sources<'a> {
    pub project: &'a crate::project::Project,
    pub game: &'a crate::model::Game,
    pub tpl: &'a crate::template::Templates,
    pub base: &'a Context,
}

/// The fingerprint of each thing read in the build under way (made once per
/// build; `None`: cannot be known, what read it is not kept).
#[derive(Default)]
pub(crate) struct Prints {
    now: Mutex<HashMap<Read, Option<Print>>>,
}

impl Prints {
    /// A build starts: every fingerprint is made anew.
    pub fn clear(&self) {
        if let Ok(mut now) = self.now.lock() {
            now.clear();
        }
    }

    /// The context changed (the next `[[derive]]`'s has one more field): the
    /// fingerprints of its values are made anew, those of templates and of
    /// what every render shares are kept.
    pub fn clear_values(&self) {
        if let Ok(mut now) = self.now.lock() {
            now.retain(|read, _| !matches!(read, Read::Value(..)));
        }
    }

    /// The fingerprint of `read` in this build (made once).
    pub fn of(&self, s: &Sources, read: &Read) -> Option<Print> {
        if let Some(p) = self.now.lock().ok()?.get(read) {
            return *p;
        }
        let p = match read {
            Read::Value(name, Some(t)) if name == "tables" && s.game.tables.contains_key(t) => {
                s.game.tables.get(t).map(table_print)
            }
            Read::Value(name, key) => Some(value_print(s.base, name, key.as_deref())),
            Read::Template(name) => template_print(s, name),
            Read::Shared => Some(shared_print(s)),
        };
        self.now.lock().ok()?.insert(read.clone(), p);
        p
    }

    /// The fingerprint of each of `reads`; `None` when one cannot be known.
    pub fn all(&self, s: &Sources, reads: Vec<Read>) -> Option<Vec<(Read, Print)>> {
        reads
            .into_iter()
            .map(|read| Some((read.clone(), self.of(s, &read)?)))
            .collect()
    }

    /// Whether everything in `reads` has the same fingerprint now.
    pub fn unchanged(&self, s: &Sources, reads: &[(Read, Print)]) -> bool {
        reads
            .iter()
            .all(|(read, print)| self.of(s, read).as_ref() == Some(print))
    }
}

/// Rendered sides kept between builds, each with what it read; and, for the build
/// under way, the fingerprint of each thing read (made once per build).
#[derive(Default)]
pub struct RenderCache {
    kept: Mutex<HashMap<Print, Kept>>,
    /// Bytes of SVG text in `kept` (a running total, made again after each build).
    bytes: AtomicUsize,
    /// Fingerprints of this build.
    now: Prints,
    /// Renders made (not kept or changed) / taken from the cache in the last build.
    pub made: AtomicUsize,
    pub reused: AtomicUsize,
}

/// One kept render.
struct Kept {
    /// Shared, so that a build checks them without copying them.
    reads: Arc<[(Read, Print)]>,
    text: String,
    warnings: Vec<Diagnostic>,
    used: bool,
}

impl RenderCache {
    /// A build starts: fingerprints are made anew, the counts start at zero.
    pub fn begin(&self) {
        self.now.clear();
        self.made.store(0, Relaxed);
        self.reused.store(0, Relaxed);
    }

    /// The build rendered its faces: renders it did not use are forgotten (faces
    /// edited away), so the cache holds one build's faces at most.
    pub fn finish(&self) {
        if let Ok(mut kept) = self.kept.lock() {
            kept.retain(|_, k| std::mem::replace(&mut k.used, false));
            let bytes = kept.values().map(|k| k.text.len()).sum();
            self.bytes.store(bytes, Relaxed);
        }
    }

    /// Number of renders kept.
    pub fn len(&self) -> usize {
        self.kept.lock().map(|k| k.len()).unwrap_or(0)
    }

    /// Whether nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The kept render under `key`, if everything it read is as it was.
    fn reuse(&self, r: &Renderer, key: &Print) -> Option<Reported<Option<String>>> {
        let reads = Arc::clone(&self.kept.lock().ok()?.get(key)?.reads);
        if !self.now.unchanged(&r.sources(), &reads) {
            return None;
        }
        let mut kept = self.kept.lock().ok()?;
        let k = kept.get_mut(key)?;
        k.used = true;
        self.reused.fetch_add(1, Relaxed);
        Some(Reported::new(Some(k.text.clone()), k.warnings.clone()))
    }

    /// Keeps a render that succeeded, with the fingerprints of what it read.
    fn keep(&self, r: &Renderer, key: Print, reads: Vec<Read>, done: &Reported<Option<String>>) {
        let Some(text) = &done.value else { return };
        if done
            .diags
            .items
            .iter()
            .any(|d| d.severity == Severity::Error)
        {
            return;
        }
        let Some(prints) = self.now.all(&r.sources(), reads) else {
            return;
        };
        let Ok(mut kept) = self.kept.lock() else {
            return;
        };
        if self.bytes.load(Relaxed) + text.len() > RENDER_CACHE_BYTES {
            return;
        }
        self.bytes.fetch_add(text.len(), Relaxed);
        let replaced = kept.insert(
            key,
            Kept {
                reads: prints.into(),
                text: text.clone(),
                warnings: done.diags.items.clone(),
                used: true,
            },
        );
        if let Some(old) = replaced {
            self.bytes.fetch_sub(old.text.len(), Relaxed);
        }
    }
}

/// The fingerprint of template `name` and of every template it includes or
/// imports; `None` when one names another with an expression.
fn template_print(s: &Sources, name: &str) -> Option<Print> {
    let mut h = Digester::default();
    let mut seen = BTreeSet::new();
    let mut todo = vec![name.to_string()];
    while let Some(n) = todo.pop() {
        if !seen.insert(n.clone()) {
            continue;
        }
        h.bytes(n.as_bytes());
        h.bytes(&[0]);
        match s.tpl.env.get_template(&n) {
            Ok(t) => {
                h.bytes(t.source().as_bytes());
                todo.extend(references(t.source())?);
            }
            Err(e) => h.bytes(format!("missing: {e}").as_bytes()),
        }
        h.bytes(&[0xff]);
    }
    Some(h.print())
}

/// The fingerprint of table `t` as `tables.<name>` shows it (the list of its
/// rows' values, made from their fields and derived fields): hashed from the
/// rows' TOML values, without going through the template values made of them.
fn table_print(t: &crate::model::Table) -> Print {
    let mut d = Digester::default();
    d.bytes(&[30]);
    for row in &t.rows {
        d.row(row);
    }
    d.bytes(&[31]);
    d.print()
}

/// The fingerprint of entry `key` of context value `name` (all of it for `None`).
fn value_print(base: &Context, name: &str, key: Option<&str>) -> Print {
    let mut d = Digester::default();
    let value = base.get(name).cloned().unwrap_or(Value::UNDEFINED);
    match (name, key) {
        // `settings` notes whether `copies` was read: its two entries, by name.
        ("settings", None) => {
            d.value(&entry(&value, "paper"));
            d.value(&entry(&value, "copies"));
        }
        (_, None) => d.value(&value),
        (_, Some(k)) => d.value(&entry(&value, k)),
    }
    d.print()
}

/// Entry `key` of `value` (undefined if it has none).
fn entry(value: &Value, key: &str) -> Value {
    value
        .get_item(&Value::from(key))
        .unwrap_or(Value::UNDEFINED)
}

/// The fingerprint of what every face may read unnoted: the fonts, every icon file
/// of the game and of `templates/common/`, the `[network]`.
fn shared_print(s: &Sources) -> Print {
    let mut d = Digester::default();
    d.bytes(&s.tpl.fonts().fingerprint().to_le_bytes());
    for dir in [s.game.id.as_str(), "common"] {
        let folder = crate::template::template_file(dir).join("icons");
        let mut names: Vec<String> = s
            .project
            .list(&folder)
            .unwrap_or_default()
            .into_iter()
            .map(|e| e.name)
            .collect();
        names.sort();
        for n in names {
            let text = s
                .project
                .read_text(&folder.join(&n), crate::project::MAX_TEMPLATE_BYTES);
            let _ = write!(d, "{n}\0{:?}\0", text.as_deref().map_err(|e| e.to_string()));
        }
    }
    let network = s
        .base
        .get(crate::template::NETWORK)
        .and_then(|v| v.downcast_object::<crate::network::Network>());
    let _ = write!(d, "{:?}", network.as_deref());
    d.print()
}

/// Formatted text and bytes hashed into a [`Print`]. Small writes (a value's
/// tag, a number) are gathered and hashed a few kilobytes at a time: SipHash
/// costs about as much per call as per kilobyte.
pub(crate) struct Digester {
    hasher: SipHasher13,
    pending: Vec<u8>,
}

/// Bytes gathered before they are hashed.
const PENDING: usize = 4096;

impl Default for Digester {
    fn default() -> Self {
        Digester {
            hasher: SipHasher13::new(),
            pending: Vec::with_capacity(PENDING),
        }
    }
}

impl Digester {
    /// Hashes `b`.
    pub fn bytes(&mut self, b: &[u8]) {
        if self.pending.len() + b.len() > PENDING {
            std::hash::Hasher::write(&mut self.hasher, &self.pending);
            self.pending.clear();
            if b.len() > PENDING {
                return std::hash::Hasher::write(&mut self.hasher, b);
            }
        }
        self.pending.extend_from_slice(b);
    }

    /// Hashes a TOML value (a row's field) by its kind and content, as
    /// [`Digester::value`] hashes a template value; a date by its text.
    pub fn toml(&mut self, v: &toml::Value) {
        use toml::Value as T;
        match v {
            T::String(s) => {
                self.bytes(&[20]);
                self.text(s.as_bytes());
            }
            T::Integer(n) => {
                self.bytes(&[21]);
                self.bytes(&n.to_le_bytes());
            }
            T::Float(x) => {
                self.bytes(&[22]);
                self.bytes(&x.to_bits().to_le_bytes());
            }
            T::Boolean(b) => self.bytes(&[23, u8::from(*b)]),
            T::Datetime(d) => {
                self.bytes(&[24]);
                self.text(d.to_string().as_bytes());
            }
            T::Array(items) => {
                self.bytes(&[25]);
                items.iter().for_each(|i| self.toml(i));
                self.bytes(&[26]);
            }
            T::Table(t) => {
                self.bytes(&[27]);
                for (k, i) in t {
                    self.text(k.as_bytes());
                    self.toml(i);
                }
                self.bytes(&[28]);
            }
        }
    }

    /// Hashes a row by its fields and derived fields (names and values), as
    /// its template value is made of them.
    pub fn row(&mut self, row: &crate::model::Row) {
        self.bytes(&[1]);
        for (k, f) in &row.fields {
            self.text(k.as_bytes());
            self.toml(&f.value);
        }
        self.bytes(&[2]);
        for (k, v) in &row.derived {
            self.text(k.as_bytes());
            self.toml(v);
        }
    }

    /// Hashes `v` by everything a template can see of it, without writing it
    /// out as text: its kind, then a number's value (an integer apart from the
    /// float of the same value: `1` and `1.0` print differently), a string's
    /// bytes and whether it is safe (marked not to be escaped), a list's items
    /// and a map's keys and values, each in order. Anything else (an iterable
    /// without a length, an opaque object, an invalid value) is hashed by its
    /// `Debug` text, as a whole value was before.
    pub fn value(&mut self, v: &Value) {
        use minijinja::value::ValueKind as K;
        let kind = v.kind();
        let tag = |k: u8, d: &mut Self| d.bytes(&[k]);
        match kind {
            K::Undefined => tag(0, self),
            K::None => tag(1, self),
            K::Bool => self.bytes(&[2, u8::from(v.is_true())]),
            K::Number if v.is_integer() => match i128::try_from(v.clone()) {
                Ok(n) => {
                    tag(3, self);
                    self.bytes(&n.to_le_bytes());
                }
                Err(_) => self.debug(v),
            },
            K::Number => match f64::try_from(v.clone()) {
                Ok(x) => {
                    tag(4, self);
                    self.bytes(&x.to_bits().to_le_bytes());
                }
                Err(_) => self.debug(v),
            },
            K::String => {
                tag(if v.is_safe() { 6 } else { 5 }, self);
                self.text(v.as_str().unwrap_or_default().as_bytes());
            }
            K::Bytes => {
                tag(7, self);
                self.text(v.as_bytes().unwrap_or_default());
            }
            K::Seq => {
                tag(8, self);
                for item in v.try_iter().into_iter().flatten() {
                    self.value(&item);
                }
                tag(9, self);
            }
            K::Map => {
                tag(10, self);
                let pairs = v.as_object().and_then(|o| o.try_iter_pairs());
                for (key, item) in pairs.into_iter().flatten() {
                    self.value(&key);
                    self.value(&item);
                }
                tag(11, self);
            }
            _ => self.debug(v),
        }
    }

    /// Hashes `b` with its length before it (so that the next bytes cannot be
    /// taken for part of it).
    pub fn text(&mut self, b: &[u8]) {
        self.bytes(&(b.len() as u64).to_le_bytes());
        self.bytes(b);
    }

    /// Hashes `v`'s `Debug` text, marked as such.
    fn debug(&mut self, v: &Value) {
        self.bytes(&[12]);
        self.text(format!("{v:?}").as_bytes());
    }

    /// The fingerprint of everything hashed.
    pub fn print(&self) -> Print {
        let mut h = self.hasher;
        std::hash::Hasher::write(&mut h, &self.pending);
        h.finish128().as_bytes()
    }
}

impl std::fmt::Write for Digester {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.bytes(s.as_bytes());
        Ok(())
    }
}

/// The templates `source` includes, imports or extends; `None` when one is named
/// by an expression rather than a string. Comments and raw blocks may add names
/// that are not used: a face is then rendered again more often, never less.
pub(crate) fn references(source: &str) -> Option<Vec<String>> {
    let mut names = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find("{%") {
        let tag = &rest[at + 2..];
        let end = tag.find("%}").unwrap_or(tag.len());
        let body = tag[..end].trim_start_matches(['-', '+']).trim_start();
        rest = &tag[end..];
        let word_end = body
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .unwrap_or(body.len());
        if !matches!(&body[..word_end], "include" | "import" | "from" | "extends") {
            continue;
        }
        let arg = body[word_end..].trim_start();
        let quote = arg.chars().next().filter(|c| *c == '"' || *c == '\'')?;
        let close = arg[1..].find(quote)?;
        let name = &arg[1..1 + close];
        if name.contains('\\') {
            return None;
        }
        names.push(name.to_string());
    }
    Some(names)
}

/// A context value whose reads are noted in a render's [`Reads`].
struct Recorded {
    name: &'static str,
    inner: Value,
    reads: Arc<Reads>,
}

impl Recorded {
    fn whole(&self) {
        self.reads.note(Read::Value(self.name.into(), None));
    }
}

/// Shown as the value it wraps (minijinja's `debug()` prints the context).
impl std::fmt::Debug for Recorded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.whole();
        std::fmt::Debug::fmt(&self.inner, f)
    }
}

impl Object for Recorded {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Map
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        match key.as_str() {
            Some(k) => self
                .reads
                .note(Read::Value(self.name.into(), Some(k.into()))),
            None => self.whole(),
        }
        let v = self.inner.get_item(key).ok()?;
        (!v.is_undefined()).then_some(v)
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        self.whole();
        match self.inner.try_iter() {
            Ok(keys) => Enumerator::Values(keys.collect()),
            Err(_) => Enumerator::NonEnumerable,
        }
    }

    fn enumerator_len(self: &Arc<Self>) -> Option<usize> {
        self.whole();
        self.inner.len()
    }

    fn is_true(self: &Arc<Self>) -> bool {
        self.whole();
        self.inner.is_true()
    }

    fn render(self: &Arc<Self>, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.whole();
        std::fmt::Display::fmt(&self.inner, f)
    }
}

/// `c` with its game values wrapped so that every read of them is noted in
/// `reads` (and `reads` given to the functions that reach the tables).
pub(crate) fn noting(c: &Context, reads: &Arc<Reads>) -> Context {
    let mut noted = c.clone();
    for n in RECORDED {
        if let Some(inner) = c.get(n) {
            let value = Recorded {
                name: n,
                inner: inner.clone(),
                reads: reads.clone(),
            };
            noted.insert(n.into(), Value::from_object(value));
        }
    }
    let index = c
        .get(crate::index::INDEX)
        .and_then(|v| v.downcast_object::<crate::index::TableIndex>());
    if let Some(index) = index {
        let reads = reads.clone();
        let noted_index = Value::from_object(NotedIndex { index, reads });
        noted.insert(crate::index::INDEX.into(), noted_index);
    }
    noted
}

impl Renderer<'_> {
    /// What this renderer's fingerprints read.
    fn sources(&self) -> Sources<'_> {
        Sources {
            project: self.project,
            game: self.game,
            tpl: self.tpl,
            base: self.base,
        }
    }
}

/// What identifies one render: the game, the set, the template, the face's label
/// and every value of the context that is the face's own (not the game's).
fn render_key(
    r: &Renderer,
    comp: &Component,
    name: &str,
    c: &Context,
    plan: Option<&FacePlan>,
) -> Print {
    let mut d = Digester::default();
    let _ = write!(
        d,
        "{}\0{}\0{name}\0{:?}\0",
        r.game.id,
        comp.id(),
        plan.map(|p| &p.label)
    );
    for (k, v) in c.iter().filter(|(k, _)| !r.base.contains_key(*k)) {
        d.text(k.as_bytes());
        d.value(v);
    }
    d.print()
}

/// What identifies the render of one side of a planned face, made from what
/// its context is made of without making it ([`Renderer::face_context`] and
/// `part_face`): the game, the set, the template, the face's label, its row (by
/// its fields and derived fields), item, index, quantity and copy, and what its
/// `face` value is made of (the set's size, bleed, kind and panels, the face's
/// shape, side and revision).
pub(super) fn side_key(
    r: &Renderer,
    comp: &Component,
    name: &str,
    (index, p, side): (usize, &FacePlan, super::Side),
) -> Print {
    let mut d = Digester::default();
    for part in [r.game.id.as_str(), comp.id(), name, &p.label] {
        d.text(part.as_bytes());
    }
    let table = comp.def.table.as_ref();
    match p
        .row
        .zip(table.and_then(|t| r.game.tables.get(t.get_ref())))
    {
        Some((row, t)) => d.row(&t.rows[row]),
        None => d.bytes(&[0]),
    }
    match &p.item {
        Some(item) => {
            d.bytes(&[1]);
            d.value(item);
        }
        None => d.bytes(&[0]),
    }
    d.bytes(&(index as u64).to_le_bytes());
    d.bytes(&p.qty.to_le_bytes());
    d.bytes(&p.copy.map_or([0; 5], |c| {
        let mut b = [1; 5];
        b[1..].copy_from_slice(&c.to_le_bytes());
        b
    }));
    for x in [comp.size.width, comp.size.height, comp.bleed] {
        d.bytes(&x.to_bits().to_le_bytes());
    }
    for part in [p.shape.name(), side.name(), comp.kind.name()] {
        d.text(part.as_bytes());
    }
    d.bytes(&(comp.panels as u64).to_le_bytes());
    d.bytes(&p.revision.to_le_bytes());
    d.print()
}

impl Renderer<'_> {
    /// Renders template `name` with context `c` through `cache`: the kept text
    /// when nothing the last render read changed, else a render that notes what
    /// it reads (a failed one is made again plainly, for its messages).
    pub(super) fn render_kept(
        &self,
        cache: &RenderCache,
        comp: &Component,
        name: &str,
        c: Context,
        plan: Option<&FacePlan>,
    ) -> Reported<Option<String>> {
        let key = render_key(self, comp, name, &c, plan);
        self.render_kept_under(cache, (comp, name, plan), key, || c)
    }

    /// [`Renderer::render_kept`] under `key`, the context made by `c` only when
    /// the side is rendered.
    pub(super) fn render_kept_under(
        &self,
        cache: &RenderCache,
        (comp, name, plan): (&Component, &str, Option<&FacePlan>),
        key: Print,
        c: impl FnOnce() -> Context,
    ) -> Reported<Option<String>> {
        if let Some(hit) = cache.reuse(self, &key) {
            return hit;
        }
        cache.made.fetch_add(1, Relaxed);
        let c = c();
        let reads = Arc::new(Reads::default());
        let noted = noting(&c, &reads);
        let done = self.render_plain(comp, name, noted, plan);
        if done.value.is_none() {
            return self.render_plain(comp, name, c, plan);
        }
        reads.note(Read::Template(name.to_string()));
        reads.note(Read::Shared);
        cache.keep(self, key, reads.take(), &done);
        done
    }
}

#[cfg(test)]
mod tests {
    use super::{references, Digester};
    use minijinja::Value;

    fn print(v: &Value) -> super::Print {
        let mut d = Digester::default();
        d.value(v);
        d.print()
    }

    #[test]
    fn values_that_print_differently_have_different_prints() {
        let pairs = [
            (Value::from(1), Value::from(1.0)),
            (Value::from("1"), Value::from(1)),
            (Value::from("<b>"), Value::from_safe_string("<b>".into())),
            (Value::from(()), Value::UNDEFINED),
            (Value::from(true), Value::from(1)),
            (Value::from(0.0), Value::from(-0.0)),
            // Where a list ends is part of it.
            (
                Value::from(vec![Value::from(vec!["a"]), Value::from("b")]),
                Value::from(vec![Value::from(vec!["a", "b"])]),
            ),
            (
                Value::from_iter([("a", "bc")]),
                Value::from_iter([("ab", "c")]),
            ),
            (Value::from(vec!["a", "b"]), Value::from(vec!["b", "a"])),
        ];
        for (a, b) in pairs {
            assert_ne!(print(&a), print(&b), "{a:?} and {b:?}");
        }
        // The same value made twice has the same print; a long text is hashed
        // whole (past the bytes gathered before hashing).
        let long = "x".repeat(10_000);
        let m = |t: &str| Value::from_iter([("id", Value::from(t)), ("n", Value::from(2))]);
        assert_eq!(print(&m(&long)), print(&m(&long)));
        assert_ne!(print(&m(&long)), print(&m(&format!("{long}y"))));
    }

    #[test]
    fn references_are_the_literal_names() {
        let src = r#"{% import "common/text.svg" as t %}{%- from 'a/b.svg' import x %}
            {% include "c.svg" %}{% if x %}{% endif %}"#;
        assert_eq!(
            references(src),
            Some(vec![
                "common/text.svg".to_string(),
                "a/b.svg".into(),
                "c.svg".into()
            ])
        );
        assert_eq!(references("{% include name ~ '.svg' %}"), None);
        assert_eq!(references("{% include ['a.svg', 'b.svg'] %}"), None);
    }
}
