//! The rulebook's two PDFs: `<game>-rules.pdf` (the pages in reading order, with a
//! bookmark per heading) and `<game>-rules-booklet.pdf` (two pages a side on the
//! build's paper turned landscape, in saddle-stitch order, for a short-edge
//! duplex flip, with a fold mark at the middle of each edge inside the printer
//! margin). Each page is its own parsed SVG (text, lines, the figures' frames)
//! drawn over the faces it shows: the faces' own parsed trees, placed as on the
//! print sheets, so the figures are the vector drawings that print.

use std::collections::HashMap;
use std::sync::Arc;

use crate::diag::Diagnostic;
use crate::export::impose;
use crate::export::pdf::{self, Bookmark, Printing};
use crate::export::Stack;
use crate::faces::Rendered;
use crate::geom::Rect;
use crate::layout::{Mark, Placement, Sheet, Stroke};
use crate::model::Game;
use crate::options::Options;
use crate::rulebook::{booklet, FaceRef, Rulebook};

/// Length of the fold mark at each end of the fold, in mm.
const FOLD_MARK: f64 = 4.0;

/// What a placement on a rulebook sheet draws: a page's own tree or a face.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Source {
    Page(usize),
    Face(usize),
}

/// The pictures a rulebook's sheets place, each at one size (krilla draws a
/// picture once for all its placements, at the size of the first).
struct Pictures<'a> {
    pages: Vec<Stack>,
    r: &'a Rendered<'a>,
    index: HashMap<(Source, i64, i64), usize>,
    sources: Vec<Source>,
}

impl Pictures<'_> {
    /// The picture index of `source` drawn `w` x `h` mm.
    fn of(&mut self, source: Source, w: f64, h: f64) -> usize {
        let key = (
            source,
            (w * 1000.0).round() as i64,
            (h * 1000.0).round() as i64,
        );
        let next = self.sources.len();
        let i = *self.index.entry(key).or_insert(next);
        if i == next {
            self.sources.push(source);
        }
        i
    }

    fn picture(&self, i: usize) -> Option<Stack> {
        match *self.sources.get(i)? {
            Source::Page(k) => self.pages.get(k).cloned(),
            Source::Face(f) => self.r.store.picture(f),
        }
    }
}

/// A placement of picture `face` (unturned) in `picture`, shown inside `clip`.
fn placed(face: usize, picture: Rect, clip: Rect) -> Placement {
    Placement {
        face,
        x: picture.x,
        y: picture.y,
        w: picture.w,
        h: picture.h,
        clip,
        trim: clip,
        quarter_turn: false,
        rotate180: false,
    }
}

/// A rect moved by (`dx`, `dy`) and scaled by `s` about the origin first.
fn scaled(r: Rect, s: f64, dx: f64, dy: f64) -> Rect {
    Rect {
        x: r.x * s + dx,
        y: r.y * s + dy,
        w: r.w * s,
        h: r.h * s,
    }
}

/// The store index of a figure's face, if this build exports its set.
pub fn face_index(r: &Rendered, f: FaceRef) -> Option<usize> {
    let slot = r.slots.get(f.component)?.get(f.face)?;
    if f.back {
        slot.back
    } else {
        Some(slot.front)
    }
}

/// The sets whose faces the rulebook's figures show and this build does not
/// make (a shop profile leaves out what the shop does not print), by name.
pub(super) fn missing_sets(game: &Game, r: &Rendered, book: &Rulebook) -> Vec<String> {
    let mut sets: Vec<usize> = book
        .pages
        .iter()
        .flat_map(|p| &p.figures)
        .filter(|f| face_index(r, f.face).is_none())
        .map(|f| f.face.component)
        .collect();
    sets.sort_unstable();
    sets.dedup();
    sets.into_iter()
        .map(|c| game.components[c].name())
        .collect()
}

/// Placements of page `k` (0-based) scaled by `s` with its corner at (`dx`, `dy`):
/// its figures, then the page's own tree over them.
fn page_placements(
    book: &Rulebook,
    pics: &mut Pictures,
    k: usize,
    s: f64,
    (dx, dy): (f64, f64),
) -> Vec<Placement> {
    let page = &book.pages[k];
    let size = book.settings.page;
    let mut out = Vec::new();
    for fig in &page.figures {
        let Some(face) = face_index(pics.r, fig.face) else {
            continue;
        };
        let picture = scaled(fig.picture, s, dx, dy);
        let i = pics.of(Source::Face(face), picture.w, picture.h);
        out.push(placed(i, picture, scaled(fig.clip, s, dx, dy)));
    }
    let whole = scaled(
        Rect {
            x: 0.0,
            y: 0.0,
            w: size.width,
            h: size.height,
        },
        s,
        dx,
        dy,
    );
    let i = pics.of(Source::Page(k), whole.w, whole.h);
    out.push(placed(i, whole, whole));
    out
}

/// A sheet of `w` x `h` mm with `placements` and `marks`.
fn sheet(w: f64, h: f64, placements: Vec<Placement>, marks: Vec<Mark>, label: String) -> Sheet {
    Sheet {
        placements,
        marks,
        ..Sheet::blank(w, h, label)
    }
}

/// The reading PDF's pages.
fn reading(book: &Rulebook, pics: &mut Pictures) -> Vec<Sheet> {
    let size = book.settings.page;
    (0..book.pages.len())
        .map(|k| {
            let placements = page_placements(book, pics, k, 1.0, (0.0, 0.0));
            sheet(
                size.width,
                size.height,
                placements,
                Vec::new(),
                format!("rulebook page {}", k + 1),
            )
        })
        .collect()
}

/// The booklet's sheet sides: two pages each on the paper turned landscape,
/// meeting at the fold (scaled down if two do not fit). A placement's `face` is
/// the index of the page it shows (from 0): the booklet places the reading PDF's
/// pages ([`crate::export::impose`]).
fn booklet_sheets(book: &Rulebook, opts: &Options) -> Vec<Sheet> {
    let media = opts.media().landscape();
    let (pw, ph) = (media.paper.width, media.paper.height);
    let size = book.settings.page;
    let s = (pw / 2.0 / size.width).min(ph / size.height).min(1.0);
    let (w, h) = (size.width * s, size.height * s);
    let top = (ph - h) / 2.0;
    let fold = pw / 2.0;
    let inside = media.margin + 0.5;
    let marks = vec![
        Mark::Line {
            from: (fold, inside),
            to: (fold, inside + FOLD_MARK),
            stroke: Stroke::Guide,
        },
        Mark::Line {
            from: (fold, ph - inside - FOLD_MARK),
            to: (fold, ph - inside),
            stroke: Stroke::Guide,
        },
    ];
    booklet::sides(book.pages.len())
        .into_iter()
        .enumerate()
        .map(|(k, side)| {
            let mut placements = Vec::new();
            for (page, x) in [(side.left, fold - w), (side.right, fold)] {
                if let Some(p) = page {
                    let whole = Rect { x, y: top, w, h };
                    placements.push(placed(p - 1, whole, whole));
                }
            }
            let name = |p: Option<usize>| p.map_or("blank".to_string(), |p| p.to_string());
            let mut sh = sheet(
                pw,
                ph,
                placements,
                marks.clone(),
                format!(
                    "booklet sheet {} {}: pages {} and {}",
                    k / 2 + 1,
                    if k % 2 == 0 { "front" } else { "back" },
                    name(side.left),
                    name(side.right)
                ),
            );
            sh.duplex = true;
            sh.back = k % 2 == 1;
            if sh.back {
                crate::layout::offset(&mut sh, opts.back_offset.0, opts.back_offset.1);
            }
            sh
        })
        .collect()
}

/// Bookmarks of the headings (levels 1 to 3).
fn bookmarks(book: &Rulebook) -> Vec<Bookmark> {
    book.headings
        .iter()
        .filter(|h| h.level <= 3)
        .map(|h| Bookmark {
            title: h.title.clone(),
            page: h.page,
            y: h.y,
            depth: usize::from(h.level.saturating_sub(1)),
        })
        .collect()
}

/// How a page's text reaches its picture.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Text {
    /// In the tree, as SVG text usvg lays out (the live preview's images).
    Parsed,
    /// As the typesetter's glyph runs over the tree of the rest (the PDFs).
    Glyphs,
}

/// The page pictures, each page's SVG parsed with the game's fonts, on all cores
/// (a page that does not parse: the first such page's error).
fn parse_pages(
    game: &Game,
    book: &Rulebook,
    r: &Rendered,
    text: Text,
) -> Result<Vec<Stack>, Diagnostic> {
    use rayon::prelude::*;
    let images = Arc::new(crate::svg::Images::none());
    let parsed: Vec<Result<Stack, Diagnostic>> = book
        .pages
        .par_iter()
        .map(|p| {
            let svg = match text {
                Text::Parsed => p.svg.as_deref().ok_or_else(|| {
                    Diagnostic::error(format!(
                        "rulebook page {}: typeset without its SVG (page images need `page_svg`)",
                        p.number
                    ))
                    .with("game", &game.id)
                })?,
                Text::Glyphs => &p.body,
            };
            crate::svg::parse(svg, &images, r.store.fonts())
                .map(|tree| match text {
                    Text::Parsed => Stack::one(Arc::new(tree)),
                    Text::Glyphs => Stack::with_texts(Arc::new(tree), p.texts.clone().into()),
                })
                .map_err(|problems| {
                    let (what, hint) = problems
                        .first()
                        .map(|p| p.problem.describe())
                        .unwrap_or_default();
                    Diagnostic::error(format!("rulebook page {}: {what}", p.number))
                        .at(crate::rulebook::file(&game.id), None)
                        .with("game", &game.id)
                        .hint(hint)
                })
        })
        .collect();
    parsed.into_iter().collect()
}

/// Each page in reading order as a sheet, with the pictures its placements
/// name (the live preview draws them).
pub fn pages(
    game: &Game,
    r: &Rendered,
    book: &Rulebook,
) -> Result<Vec<(Sheet, Vec<Stack>)>, Diagnostic> {
    let pages = parse_pages(game, book, r, Text::Parsed)?;
    let mut pics = Pictures {
        pages,
        r,
        index: HashMap::new(),
        sources: Vec::new(),
    };
    let sheets = reading(book, &mut pics);
    Ok(sheets
        .into_iter()
        .map(|mut sheet| {
            let mut stacks = Vec::new();
            for p in &mut sheet.placements {
                if let Some(stack) = pics.picture(p.face) {
                    stacks.push(stack);
                    p.face = stacks.len() - 1;
                }
            }
            (sheet, stacks)
        })
        .collect())
}

/// The rulebook's two PDFs laid out, before they are written.
pub(super) struct Planned<'a> {
    pics: Pictures<'a>,
    reading: Vec<Sheet>,
    booklet: Vec<Sheet>,
}

/// Parses the rulebook's pages and lays out both PDFs, and tells the face store
/// each use of a face they will draw (so that drawing them does not parse a face
/// again, and a face's tree is dropped once the last file has drawn it).
pub(super) fn plan<'a>(
    game: &Game,
    r: &'a Rendered<'a>,
    book: &Rulebook,
    opts: &Options,
) -> Result<Planned<'a>, Diagnostic> {
    let pages = parse_pages(game, book, r, Text::Glyphs)?;
    let mut pics = Pictures {
        pages,
        r,
        index: HashMap::new(),
        sources: Vec::new(),
    };
    let reading = reading(book, &mut pics);
    let booklet = booklet_sheets(book, opts);
    let drawn: std::collections::BTreeSet<usize> = reading
        .iter()
        .flat_map(|s| s.placements.iter().map(|p| p.face))
        .collect();
    r.store
        .will_use(drawn.into_iter().filter_map(|i| match pics.sources[i] {
            Source::Face(f) => Some(f),
            Source::Page(_) => None,
        }));
    Ok(Planned {
        pics,
        reading,
        booklet,
    })
}

impl Planned<'_> {
    /// The faces the two PDFs draw (store indices, each once).
    pub(super) fn faces(&self) -> Vec<usize> {
        let faces: std::collections::BTreeSet<usize> = self
            .pics
            .sources
            .iter()
            .filter_map(|s| match s {
                Source::Face(f) => Some(*f),
                Source::Page(_) => None,
            })
            .collect();
        faces.into_iter().collect()
    }
}

/// A file of the rulebook: its path, what it is (for the manifest), its bytes.
pub(super) type RuleFile = (String, &'static str, Vec<u8>);

/// Writes the two rulebook PDFs laid out by [`plan`] as files under
/// the folder `profile`, through `pdfs`: a CMYK profile's rulebook is CMYK too,
/// through the same print shop as its faces (and PDF/X when it asks for it).
/// `draw` writes the reading PDF's job (before [`pdf::finish`]): on its own
/// ([`pdf::write_unfinished`]), or with the profile's other PDFs, so that the faces
/// its figures show are drawn once for all of them.
pub(super) fn write(
    game: &Game,
    planned: &Planned,
    book: &Rulebook,
    pdfs: &super::Pdfs,
    profile: &str,
    draw: impl FnOnce(pdf::Job) -> Result<Vec<u8>, Diagnostic>,
) -> Result<Vec<RuleFile>, Diagnostic> {
    let Planned {
        pics,
        reading,
        booklet,
    } = planned;
    let r = pics.r;
    let faces = |i| pics.picture(i);
    let drawn = |i: usize| {
        if let Some(Source::Face(f)) = pics.sources.get(i) {
            r.store.used(*f);
        }
    };
    let error =
        |e: pdf::PdfError| Diagnostic::error(format!("rulebook: {e}")).with("game", &game.id);
    let given = |i: usize| match pics.sources.get(i) {
        Some(Source::Face(f)) => crate::export::cmyk::given(&r.store.svg(*f)),
        // The body has every element the whole SVG has but the text, which
        // gives itself no CMYK.
        Some(Source::Page(k)) => crate::export::cmyk::given(&book.pages[*k].body),
        None => crate::export::cmyk::given(""),
    };
    let print = pdfs.shop.map(|shop| pdf::Print {
        shop,
        given: &given,
    });
    let store_face = |i: usize| match pics.sources.get(i) {
        Some(Source::Face(f)) => Some(*f),
        _ => None,
    };
    let title = format!("{} — rules", book.title);
    let marks = bookmarks(book);
    let job = pdf::Job {
        title: &title,
        sheets: reading,
        faces: &faces,
        drawn: &drawn,
        digests: &r.digests,
        bookmarks: &marks,
        compress: pdfs.compress,
        print: print.as_ref(),
        store_face: Some(&store_face),
    };
    // The booklet places the reading PDF's pages as krilla wrote them (before a
    // PDF/X shop's finish), without drawing them again.
    let drawn_once = draw(job)?;
    let booklet_title = format!("{title} (booklet)");
    let imposition = impose::Imposition {
        title: &booklet_title,
        sheets: booklet,
        compress: pdfs.compress,
        press: pdfs.shop.map(|shop| &*shop.press),
    };
    let booklet = impose::impose(&drawn_once, &imposition)
        .and_then(|b| pdf::finish(b, &booklet_title, print.as_ref()))
        .and_then(|b| pdf::ask_to_print(b, Printing::ShortEdge))
        .map_err(error)?;
    let reading = pdf::finish(drawn_once, &title, print.as_ref()).map_err(error)?;
    Ok(vec![
        (
            format!("{profile}/{}-rules.pdf", game.id),
            "the rulebook, pages in reading order",
            reading,
        ),
        (
            format!("{profile}/{}-rules-booklet.pdf", game.id),
            "the rulebook as a booklet: print double-sided, flip on the short edge, fold, staple",
            booklet,
        ),
    ])
}
