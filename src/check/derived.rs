//! `[[derive]]` values kept per row between builds (the live preview, through
//! `pipeline::Incremental::derives`), the way held assertions are kept
//! ([`super::AssertCache`]).
//!
//! A row's formula is run with the game's values wrapped so that each entry it
//! reads is noted (`rules.fee`, what `lookup` and `select` search; anything read
//! whole is noted whole), and with what every formula may read unnoted: the
//! fonts, icons and the `[network]` that `distance()` walks. Its value is kept
//! under the derive (its table, field and formula) and the row (its fields and
//! the fields derived before this one), with a fingerprint of each thing it
//! read, made in the context of that derive. The next build takes the value when
//! the row and every fingerprint are the same, and runs the formula otherwise.
//! A formula that failed is not kept: it runs again on every build, so its
//! problem is always made from the data as it is now.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use crate::diag::Diagnostic;
use crate::eval::{Context, KeptDerives};
use crate::model::{DeriveDef, Game, Row};
use crate::render::recorded::{noting, Digester, Print, Prints, Sources};
use crate::template::reads::{Read, Reads};
use crate::template::Templates;

/// Derived values kept between builds, each with what its formula read.
#[derive(Default)]
pub struct DeriveCache {
    kept: Mutex<HashMap<Print, Derived>>,
    /// Fingerprints of the derive under way.
    now: Prints,
    /// Rows whose formula ran / whose value was kept, in the last build.
    pub made: AtomicUsize,
    pub reused: AtomicUsize,
}

/// One row's derived value.
struct Derived {
    reads: Vec<(Read, Print)>,
    value: toml::Value,
    used: bool,
}

impl DeriveCache {
    /// A build starts: fingerprints are made anew, the counts start at zero.
    pub(crate) fn begin(&self) {
        self.now.clear();
        self.made.store(0, Relaxed);
        self.reused.store(0, Relaxed);
    }

    /// The build derived its fields: values it did not use are forgotten (rows
    /// edited away, formulas changed).
    pub(crate) fn finish(&self) {
        if let Ok(mut kept) = self.kept.lock() {
            kept.retain(|_, d| std::mem::replace(&mut d.used, false));
        }
    }

    /// Number of values kept.
    pub fn len(&self) -> usize {
        self.kept.lock().map(|k| k.len()).unwrap_or(0)
    }

    /// Whether nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value kept under `key`, if nothing it read changed.
    fn reuse(&self, s: &Sources, key: &Print) -> Option<toml::Value> {
        let reads = self.kept.lock().ok()?.get(key)?.reads.clone();
        if !self.now.unchanged(s, &reads) {
            return None;
        }
        let mut kept = self.kept.lock().ok()?;
        let d = kept.get_mut(key)?;
        d.used = true;
        self.reused.fetch_add(1, Relaxed);
        Some(d.value.clone())
    }

    /// Keeps a value, with the fingerprints of what its formula read.
    fn keep(&self, s: &Sources, key: Print, reads: Vec<Read>, value: toml::Value) {
        let Some(reads) = self.now.all(s, reads) else {
            return;
        };
        if let Ok(mut kept) = self.kept.lock() {
            let used = true;
            kept.insert(key, Derived { reads, value, used });
        }
    }
}

/// What identifies one row's value: the game, the derive's table, field and
/// formula, and the row's fields and the fields derived before this one.
fn key(game: &Game, def: &DeriveDef, row: &Row) -> Print {
    let mut d = Digester::default();
    for part in [
        game.id.as_str(),
        def.table.get_ref(),
        def.field.get_ref(),
        def.value.get_ref(),
    ] {
        d.text(part.as_bytes());
    }
    d.row(row);
    d.print()
}

/// A [`DeriveCache`] for one build of a game of `project`.
pub(crate) struct Kept<'a> {
    pub cache: &'a DeriveCache,
    pub project: &'a crate::project::Project,
}

impl KeptDerives for Kept<'_> {
    fn begin(&self) {
        self.cache.now.clear_values();
    }

    fn value(
        &self,
        (game, tpl, base): (&Game, &Templates, &Context),
        (def, row): (&DeriveDef, &Row),
        ctx: &dyn Fn() -> Context,
        eval: &dyn Fn(&Context) -> Result<toml::Value, Diagnostic>,
    ) -> Result<toml::Value, Diagnostic> {
        let s = Sources {
            project: self.project,
            game,
            tpl,
            base,
        };
        let key = key(game, def, row);
        if let Some(v) = self.cache.reuse(&s, &key) {
            return Ok(v);
        }
        self.cache.made.fetch_add(1, Relaxed);
        let ctx = ctx();
        let reads = Arc::new(Reads::default());
        match eval(&noting(&ctx, &reads)) {
            Ok(v) => {
                reads.note(Read::Shared);
                self.cache.keep(&s, key, reads.take(), v.clone());
                Ok(v)
            }
            Err(_) => eval(&ctx),
        }
    }
}
