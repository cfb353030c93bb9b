//! What one render of a face read of the game's data, noted while it runs: the
//! live preview renders a face again only when one of those changed (the render
//! cache of `render`). The render's context carries a [`Reads`] under
//! [`READS`]; the values it wraps and the functions that reach the tables
//! (`lookup`, `select` through the table index) note each access in it.

use std::collections::BTreeSet;
use std::sync::Mutex;

use minijinja::State;

/// The variable under which a render's [`Reads`] is passed to the functions.
pub const READS: &str = "__cardstock_reads";

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

/// Notes that the render read table `table` (all its rows), when it records reads.
pub(super) fn note_table(state: &State, table: &str) {
    if let Some(reads) = state
        .lookup(READS)
        .and_then(|v| v.downcast_object::<Reads>())
    {
        reads.note(Read::Value("tables".into(), Some(table.to_string())));
    }
}
