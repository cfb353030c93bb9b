//! What one render of a face read of the game's data, noted while it runs: the
//! live preview renders a face again only when one of those changed (the render
//! cache of `render`). The values the render's context wraps note each access in
//! its [`Reads`]; the functions that reach the tables (`lookup`, `select` through
//! the table index) note theirs in the [`NotedIndex`] the context carries instead
//! of the index.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use crate::index::TableIndex;

/// One thing a render read.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Read {
    /// Entry `key` of the context's value `name` (`rules.cost` is `("rules",
    /// Some("cost"))`), or all of it (`None`: iterated, printed, counted).
    Value(String, Option<String>),
    /// A template, with every template it includes or imports.
    Template(String),
    /// What every render may read and no render notes: the game's fonts and
    /// icons, and its `[network]` (`distance()`).
    Shared,
}

/// The reads of one render.
#[derive(Debug, Default)]
pub struct Reads {
    seen: Mutex<BTreeSet<Read>>,
}

impl minijinja::value::Object for Reads {}

impl Reads {
    /// Notes that the render read `read`.
    pub fn note(&self, read: Read) {
        if let Ok(mut s) = self.seen.lock() {
            s.insert(read);
        }
    }

    /// Everything noted, in order.
    pub fn take(&self) -> Vec<Read> {
        self.seen
            .lock()
            .map(|mut s| std::mem::take(&mut *s).into_iter().collect())
            .unwrap_or_default()
    }
}

/// The table index of a render that notes its reads, with its [`Reads`], under
/// [`INDEX`](crate::index::INDEX) in place of the index: `lookup` and `select`
/// find both with one lookup. (A name the context lacks costs a walk of every
/// scope of the render and of the globals, once a call, in every build.)
#[derive(Debug)]
pub struct NotedIndex {
    pub index: Arc<TableIndex>,
    pub reads: Arc<Reads>,
}

impl minijinja::value::Object for NotedIndex {}

/// Notes that the render read table `table` (all its rows), when it records reads.
pub(super) fn note_table(reads: Option<&Reads>, table: &str) {
    if let Some(reads) = reads {
        reads.note(Read::Value("tables".into(), Some(table.to_string())));
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use minijinja::value::Value;

    use super::*;

    /// A context whose index has table `t` with one row `a`: the plain index, or
    /// the index of a render noting its reads in `reads`.
    fn context(reads: Option<&Arc<Reads>>) -> BTreeMap<String, Value> {
        let mut row = BTreeMap::new();
        row.insert("id", Value::from("a"));
        row.insert("k", Value::from(1));
        let index = Arc::new(TableIndex::new([("t", [Value::from(row)].as_slice())]));
        let value = match reads {
            Some(reads) => Value::from_object(NotedIndex {
                index,
                reads: reads.clone(),
            }),
            None => Value::from_dyn_object(index),
        };
        BTreeMap::from([(crate::index::INDEX.to_string(), value)])
    }

    #[test]
    fn lookup_and_select_note_the_table_through_the_noted_index() {
        let env = super::super::environment::test_env();
        for (template, out) in [
            ("{{ lookup('t', 'a').k }}", "1"),
            ("{{ select('t', 'k', 1) | length }}", "1"),
        ] {
            assert_eq!(env.render_str(template, context(None)).unwrap(), out);
            let reads = Arc::new(Reads::default());
            let noted = env.render_str(template, context(Some(&reads))).unwrap();
            assert_eq!(noted, out);
            assert_eq!(
                reads.take(),
                vec![Read::Value("tables".into(), Some("t".into()))],
                "{template}"
            );
        }
        let reads = Arc::new(Reads::default());
        env.render_str("{{ 1 }}", context(Some(&reads))).unwrap();
        assert_eq!(reads.take(), vec![], "nothing read, nothing noted");
    }

    /// `lookup` and `select` read a table's, a field's and an id's name as
    /// text: a string as it is, any other value as its text (a bool as `True`,
    /// a number as its digits), a missing or extra argument or keyword
    /// arguments as errors.
    #[test]
    fn lookup_and_select_read_names_as_text() {
        let env = super::super::environment::test_env();
        let mut row = BTreeMap::new();
        row.insert("id", Value::from("3"));
        row.insert("k", Value::from(1));
        let mut other = BTreeMap::new();
        other.insert("id", Value::from("True"));
        other.insert("k", Value::from(2));
        let rows = [Value::from(row), Value::from(other)];
        let index = Arc::new(TableIndex::new([("t", rows.as_slice())]));
        let ctx = BTreeMap::from([(
            crate::index::INDEX.to_string(),
            Value::from_dyn_object(index),
        )]);
        let render = |t: &str| {
            env.render_str(t, ctx.clone())
                .map_err(|e| e.detail().unwrap_or_default().to_string())
        };
        assert_eq!(render("{{ lookup('t', '3').k }}").unwrap(), "1");
        assert_eq!(render("{{ lookup('t', 3).k }}").unwrap(), "1");
        assert_eq!(render("{{ lookup('t', true).k }}").unwrap(), "2");
        assert_eq!(render("{{ select('t', 'k', 2) | length }}").unwrap(), "1");
        let err = render("{{ lookup('t', 4) }}").unwrap_err();
        assert_eq!(err, "lookup(): table `t` has no row with id `4`");
        assert!(render("{{ lookup('t') }}").is_err());
        assert!(render("{{ lookup('t', '3', 1) }}").is_err());
        let kwargs = render("{{ lookup('t', id='3') }}").unwrap_err();
        assert_eq!(kwargs, "cannot convert kwargs to string");
    }
}
