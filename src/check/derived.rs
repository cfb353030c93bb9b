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

use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;

use crate::diag::Diagnostic;
use crate::eval::{Context, KeptDerives};
use crate::model::{DeriveDef, Game, Row};
use crate::render::recorded::{noting, Digester, Print, Sources};
use crate::template::reads::{Read, Reads};
use crate::template::Templates;

/// Derived values kept between builds, each with what its formula read.
pub type DeriveCache = super::by_reads::KeptByReads<toml::Value>;

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
