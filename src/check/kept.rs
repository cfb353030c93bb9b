//! `[[assert]]`s run again only when what they read changed (the live preview,
//! through `pipeline::Incremental::asserts`), the way the render cache keeps
//! faces (`render::RenderCache`).
//!
//! An assertion is run with the game's values wrapped so that each entry it
//! reads is noted (`rules.x`, `tables.contracts`, `counts.y`, what `lookup` and
//! `select` search; anything read whole is noted whole), and with the table its
//! `each` walks, every template its text imports (a name that is not a string
//! literal leaves it unkept) and what every check may read unnoted: the fonts,
//! icons and `[network]`. Only an assertion that held is kept, with how many
//! checks it made: a failing one runs again on every build, so its problems are
//! always made from the data as it is now (lines and columns included). It is
//! run again when its own text changed or when anything it read did.

use std::fmt::Write as _;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;

use crate::diag::Diagnostic;
use crate::eval::Context;
use crate::model::{AssertDef, Game, Row};
use crate::render::recorded::{noting, references, Digester, Print, Sources};
use crate::template::reads::{Read, Reads};

/// Assertions that held, kept between builds with what they read: each with
/// how many checks it made (one, or one per row).
pub type AssertCache = super::by_reads::KeptByReads<usize>;

/// What identifies an assertion: its game and everything written in it, but not
/// where (only one that held is kept, and it says nothing: a line added above it
/// in `game.toml` need not run it again).
fn key(game: &Game, def: &AssertDef) -> Print {
    let text = |t: &Option<crate::model::Spanned<String>>| t.as_ref().map(|t| t.get_ref().clone());
    let mut d = Digester::default();
    let _ = write!(
        d,
        "{}\0{:?}\0{:?}\0{:?}\0{:?}\0{:?}",
        game.id,
        text(&def.that),
        text(&def.template),
        def.message,
        text(&def.each),
        def.hint
    );
    d.print()
}

/// What an assertion reads besides the values it names: the table its `each`
/// walks (unless `walked` is false: a row's check, kept under its row), the
/// templates its texts import, the fonts, icons and network; `None` when a text
/// imports a template named by an expression.
fn also_read(def: &AssertDef, walked: bool) -> Option<Vec<Read>> {
    let mut reads = vec![Read::Shared];
    if let Some(each) = def.each.as_ref().map(|e| e.get_ref()) {
        if walked && !each.starts_with("rules.") {
            reads.push(Read::Value("tables".into(), Some(each.clone())));
        }
    }
    let texts = [
        def.that.as_ref().map(|t| t.get_ref().as_str()),
        def.template.as_ref().map(|t| t.get_ref().as_str()),
        def.message.as_deref(),
    ];
    for text in texts.into_iter().flatten() {
        reads.extend(references(text)?.into_iter().map(Read::Template));
    }
    Some(reads)
}

/// Runs one assertion through `cache`: nothing when it held and nothing it read
/// changed, else a run that notes what it reads (a failing run is made again
/// plainly, so that its messages are exactly a plain run's). `run` checks it in
/// a context and gives its problems and how many checks it made.
pub(super) fn checked(
    cache: &AssertCache,
    s: &Sources,
    def: &AssertDef,
    run: impl Fn(&Context) -> (Vec<Diagnostic>, usize),
) -> (Vec<Diagnostic>, usize) {
    let key = key(s.game, def);
    if let Some(checks) = cache.reuse(s, &key) {
        return (Vec::new(), checks);
    }
    cache.made.fetch_add(1, Relaxed);
    let reads = Arc::new(Reads::default());
    let (diags, checks) = run(&noting(s.base, &reads));
    if !diags.is_empty() {
        return run(s.base);
    }
    if let Some(more) = also_read(def, true) {
        more.into_iter().for_each(|r| reads.note(r));
        cache.keep(s, key, reads.take(), checks);
    }
    (diags, checks)
}

/// Whether `def` is kept row by row ([`Rows`]): its `each` names a table of
/// `game`.
pub(super) fn by_row(game: &Game, def: &AssertDef) -> bool {
    def.each
        .as_ref()
        .is_some_and(|e| game.tables.contains_key(e.get_ref()))
}

/// The rows of one assertion whose `each` walks a data table, each checked
/// through `cache`: a row's check that held is kept under the assertion and the
/// row, with what it read (the row itself is not noted: the key holds it), and
/// not run again while those are the same. The assertion as a whole is not
/// kept: it holds when each of its rows does.
pub(super) struct Rows<'a> {
    cache: &'a AssertCache,
    s: &'a Sources<'a>,
    def: &'a AssertDef,
    /// Whether a row's check ran (was not kept).
    ran: std::cell::Cell<bool>,
}

impl<'a> Rows<'a> {
    /// The rows of `def`, checked through `cache`.
    pub(super) fn new(cache: &'a AssertCache, s: &'a Sources<'a>, def: &'a AssertDef) -> Self {
        let ran = Default::default();
        Self { cache, s, def, ran }
    }

    /// Counts the assertion as run again when one of its rows was, else as kept.
    pub(super) fn count(&self) {
        let count = match self.ran.get() {
            true => &self.cache.made,
            false => &self.cache.reused,
        };
        count.fetch_add(1, Relaxed);
    }

    /// Checks `row`: `None` when its check held last time and nothing it read
    /// changed, else the problems of `run` (given the game's context, it checks
    /// the row in it). A check that failed is run again plainly, so that its
    /// messages are exactly a plain run's, and is not kept.
    pub(super) fn check(
        &self,
        row: &Row,
        run: impl Fn(&Context) -> Vec<Diagnostic>,
    ) -> Option<Vec<Diagnostic>> {
        let (cache, s) = (self.cache, self.s);
        let mut d = Digester::default();
        d.bytes(&key(s.game, self.def));
        d.row(row);
        let key = d.print();
        if cache.take(s, &key).is_some() {
            cache.parts_reused.fetch_add(1, Relaxed);
            return None;
        }
        cache.parts_made.fetch_add(1, Relaxed);
        self.ran.set(true);
        let reads = Arc::new(Reads::default());
        let diags = run(&noting(s.base, &reads));
        if !diags.is_empty() {
            return Some(run(s.base));
        }
        if let Some(more) = also_read(self.def, false) {
            more.into_iter().for_each(|r| reads.note(r));
            cache.keep(s, key, reads.take(), 1);
        }
        Some(diags)
    }
}
