//! The rulebook typeset again only when something it reads changed (the live
//! preview, through `pipeline::Incremental::rulebook`).
//!
//! A typeset rulebook is kept under the fingerprint of everything it reads
//! outside the template's context: `rules.md`, `game.toml` (the `[rulebook]`
//! settings, `[rules]`, the components, the title), each set as loaded (size,
//! bleed, kind), its planned faces (row and shape: the figures) and their row
//! ids, the parts it prints, the paper, and the templates `rules.md` imports (a
//! name that is not a string literal leaves it unkept). What the template reads
//! of the game's values (`rules.x`, `tables.cities`, ...) is noted while it runs,
//! as a face's render notes it (`render::RenderCache`), with the fonts, icons
//! and `[network]`. The next build takes the kept pages when the key is the same
//! and every noted read has the same fingerprint. A rulebook with an error is not
//! kept; its warnings are (they point into `rules.md` and `game.toml`, which the
//! key covers).
//!
//! When something it read changed, its template runs again, and most often
//! prints the same Markdown (an edit of a card the rules do not quote): then the
//! pages are not laid out and drawn again either ([`Drawing`]).

use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use super::{file, typeset, typeset_with, Drawn, Input, Rulebook};
use crate::diag::{Diagnostic, Reported, Severity};
use crate::project::MAX_TEMPLATE_BYTES;
use crate::render::recorded::{noting, references, Digester, Print, Prints, Sources};
use crate::template::reads::{Read, Reads};

/// The last rulebook typeset, with what it read.
#[derive(Default)]
pub struct RulebookCache {
    kept: Mutex<Option<Kept>>,
    /// Fingerprints of the build under way.
    now: Prints,
    /// Rulebooks typeset / taken from the cache (0 or 1 each, the last build).
    pub made: AtomicUsize,
    pub reused: AtomicUsize,
    /// The pages last laid out and drawn.
    drawing: Drawing,
}

/// The pages of the rulebook last laid out and drawn, under the fingerprint of
/// everything that reads: the rendered Markdown (the text and the figures,
/// lists and breaks its functions asked for), the settings (page, fonts,
/// sizes), each set's line of the components list, and the fonts and icons.
/// A rulebook whose template ran again and printed the same Markdown takes
/// them rather than laying out and drawing the same pages (the findings of
/// laying out are kept too, and placed again in `rules.md` through the new
/// render). A layout that failed is not kept.
#[derive(Default)]
pub struct Drawing {
    last: Mutex<Option<(Print, Drawn)>>,
    /// Rulebooks laid out and drawn / whose pages were taken from the last
    /// (0 or 1 each, the last build).
    pub made: AtomicUsize,
    pub reused: AtomicUsize,
}

/// A [`Drawing`] for one build, with the fingerprint of the fonts and icons.
#[derive(Clone, Copy)]
pub(crate) struct Reuse<'a> {
    drawing: &'a Drawing,
    shared: Print,
}

impl Reuse<'_> {
    /// The fingerprint of what laying out and drawing `rendered` reads.
    pub fn key(
        &self,
        rendered: &super::source::Rendered,
        settings: &super::Settings,
        components: &[super::flow::ComponentEntry],
    ) -> Print {
        let mut d = Digester::default();
        d.bytes(&self.shared);
        let _ = write!(
            d,
            "{:?}\0{:?}\0{settings:?}\0{components:?}",
            rendered.text, rendered.specials
        );
        d.print()
    }

    /// The pages drawn last, if under `key`.
    pub fn take(&self, key: &Print) -> Option<Drawn> {
        let last = self.drawing.last.lock().ok()?;
        let drawn = last.as_ref().filter(|(k, _)| k == key)?.1.clone();
        self.drawing.reused.fetch_add(1, Relaxed);
        Some(drawn)
    }

    /// Keeps `drawn`, laid out and drawn under `key`.
    pub fn keep(&self, key: Print, drawn: &Drawn) {
        self.drawing.made.fetch_add(1, Relaxed);
        if let Ok(mut last) = self.drawing.last.lock() {
            *last = Some((key, drawn.clone()));
        }
    }
}

/// One typeset rulebook.
struct Kept {
    key: Print,
    reads: Vec<(Read, Print)>,
    book: Rulebook,
    warnings: Vec<Diagnostic>,
}

/// What the rulebook reads outside its template's context, as one fingerprint;
/// `None` without a `rules.md`, or when it imports a template by an expression.
fn key(input: &Input) -> Option<(Print, Vec<Read>)> {
    let game = input.game;
    let text = input
        .project
        .read_text(&file(&game.id), MAX_TEMPLATE_BYTES)
        .ok()?;
    let mut reads: Vec<Read> = references(&text)?.into_iter().map(Read::Template).collect();
    reads.extend([
        Read::Shared,
        Read::Value("rules".into(), None),
        Read::Value("game".into(), None),
    ]);
    let mut d = Digester::default();
    let _ = write!(
        d,
        "{}\0{text}\0{}\0{:?}\0{:?}\0",
        game.id, game.text, input.paper, input.counts
    );
    for (comp, plans) in game.components.iter().zip(input.plans) {
        let table = comp
            .def
            .table
            .as_ref()
            .and_then(|t| game.tables.get(t.get_ref()));
        let _ = write!(d, "{comp:?}\0");
        for p in plans {
            let id = p.row.and_then(|r| table?.rows.get(r)).and_then(|r| r.id());
            let _ = write!(d, "{:?} {:?} {id:?}\0", p.row, p.shape);
        }
    }
    Some((d.print(), reads))
}

impl RulebookCache {
    /// Rulebooks the last build laid out and drew, and those whose pages it took
    /// from the build before because its template printed the same Markdown
    /// (see [`Drawing`]).
    pub fn drawn(&self) -> (usize, usize) {
        let d = &self.drawing;
        (d.made.load(Relaxed), d.reused.load(Relaxed))
    }

    /// The kept rulebook, if its key is `key` and nothing it read changed.
    fn reuse(&self, s: &Sources, key: &Print) -> Option<Reported<Option<Rulebook>>> {
        let reads = match &*self.kept.lock().ok()? {
            Some(k) if k.key == *key => k.reads.clone(),
            _ => return None,
        };
        if !self.now.unchanged(s, &reads) {
            return None;
        }
        let kept = self.kept.lock().ok()?;
        let k = kept.as_ref()?;
        self.reused.fetch_add(1, Relaxed);
        Some(Reported::new(Some(k.book.clone()), k.warnings.clone()))
    }
}

/// [`typeset`] through `cache`: the kept pages when nothing the rulebook reads
/// changed, else typeset with its reads noted (a rulebook with an error is
/// typeset again plainly, so that its messages are exactly a plain run's).
pub fn typeset_kept(input: &Input, cache: &RulebookCache) -> Reported<Option<Rulebook>> {
    cache.now.clear();
    cache.made.store(0, Relaxed);
    cache.reused.store(0, Relaxed);
    cache.drawing.made.store(0, Relaxed);
    cache.drawing.reused.store(0, Relaxed);
    let s = Sources {
        project: input.project,
        game: input.game,
        tpl: input.tpl,
        base: input.base,
    };
    let Some((key, mut reads)) = key(input) else {
        cache.made.fetch_add(1, Relaxed);
        return typeset(input);
    };
    if let Some(hit) = cache.reuse(&s, &key) {
        return hit;
    }
    cache.made.fetch_add(1, Relaxed);
    let noted = Arc::new(Reads::default());
    let base = noting(input.base, &noted);
    let reuse = cache.now.of(&s, &Read::Shared).map(|shared| Reuse {
        drawing: &cache.drawing,
        shared,
    });
    let done = typeset_with(
        &Input {
            base: &base,
            ..*input
        },
        reuse,
    );
    let failed = done
        .diags
        .items
        .iter()
        .any(|d| d.severity == Severity::Error);
    let (Some(book), false) = (&done.value, failed) else {
        return typeset(input);
    };
    reads.extend(noted.take());
    let kept = cache.now.all(&s, reads).map(|reads| Kept {
        key,
        reads,
        book: book.clone(),
        warnings: done.diags.items.clone(),
    });
    if let Ok(mut k) = cache.kept.lock() {
        *k = kept;
    }
    done
}
