//! The rulebook: `data/<game>/rules.md`, Markdown written in the faces' template
//! language, typeset into pages with the game's fonts.
//!
//! The stages, in one direction: [`source`] renders the template (`rules.x`,
//! filters, loops, and the rulebook's functions: figures of the game's faces, the
//! components list, the table of contents, page and column breaks); [`blocks`]
//! reads the Markdown; [`lines`] breaks paragraphs into justified, hyphenated
//! lines; [`flow`] fills pages (headings kept with what follows, no widows or
//! orphans, tables split with their header repeated); [`draw`] writes each page
//! as SVG text. The figures are not in that text: each page lists them, and the
//! exporters draw the faces' own parsed trees under the page
//! (`deliver::rulebook`), as on the print sheets. [`booklet`] says which pages go
//! on each side of a saddle-stitched booklet's sheets.
//!
//! Reads only `rules.md` through the project; writes nothing.

pub mod blocks;
pub mod booklet;
mod draw;
pub mod flow;
pub mod kept;
pub mod lines;
pub mod settings;
pub mod source;

use std::path::PathBuf;

use crate::diag::{Diagnostic, Reported};
use crate::eval::Context;
use crate::geom::Rect;
use crate::model::{Game, Paper};
use crate::project::{Project, MAX_TEMPLATE_BYTES};
use crate::render::FacePlan;
use crate::template::Templates;

pub use flow::Heading;
pub use kept::RulebookCache;
pub use settings::Settings;

/// The rulebook's file in a game's folder.
pub fn file(game: &str) -> PathBuf {
    PathBuf::from("data").join(game).join("rules.md")
}

/// One face of the game: component (index in `game.components`), face (index
/// among its planned faces) and side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FaceRef {
    pub component: usize,
    pub face: usize,
    pub back: bool,
}

/// A face drawn on a page: its picture (trim and bleed) at `picture`, shown
/// inside `clip` (its trim), in mm from the page's top-left corner.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub face: FaceRef,
    pub picture: Rect,
    pub clip: Rect,
}

/// One typeset page.
#[derive(Debug, Clone)]
pub struct Page {
    /// Everything but the figures, as SVG text the page's size (its text as SVG
    /// text: the live preview's page images), when typesetting was asked for
    /// it ([`Input::page_svg`]).
    pub svg: Option<String>,
    /// The same without the text that `texts` holds (the PDF draws `texts`
    /// over it, as the typesetter placed them, and usvg lays no text out).
    pub body: String,
    /// The page's text as glyph runs, in mm from the page's top-left corner.
    pub texts: Vec<crate::text::glyphs::GlyphRun>,
    /// The faces drawn under it.
    pub figures: Vec<Figure>,
    /// 1-based.
    pub number: usize,
}

/// A game's rulebook, typeset.
#[derive(Debug, Clone)]
pub struct Rulebook {
    pub settings: Settings,
    pub pages: Vec<Page>,
    /// Every heading, in order, with its page: the PDF's bookmarks.
    pub headings: Vec<Heading>,
    /// The game's name: the PDF's title.
    pub title: String,
}

/// What typesetting a game's rulebook reads.
pub struct Input<'a> {
    pub project: &'a Project,
    pub game: &'a Game,
    pub tpl: &'a Templates,
    /// The context the faces' templates see.
    pub base: &'a Context,
    /// Each component's planned faces.
    pub plans: &'a [Vec<FacePlan>],
    /// The parts each component prints (same order as `game.components`): what
    /// `[contents]` says, which the build has checked.
    pub counts: &'a [u64],
    /// The build's paper (the default page is half of it).
    pub paper: Paper,
    /// Whether each page is also written whole as SVG, its text as SVG text
    /// ([`Page::svg`]): the live preview draws its page images from it. The
    /// PDFs draw [`Page::body`] and [`Page::texts`].
    pub page_svg: bool,
}

/// Typesets `data/<game>/rules.md`, if the game has one: every problem at its
/// line and column of `rules.md` (or of `game.toml` for `[rulebook]`).
pub fn typeset(input: &Input) -> Reported<Option<Rulebook>> {
    typeset_with(input, None)
}

/// [`typeset`], taking the pages from `kept` (the live preview) when the
/// rendered Markdown and everything laying it out reads are as when it drew
/// them: see [`kept::Drawing`].
pub(crate) fn typeset_with(input: &Input, kept: Option<kept::Reuse>) -> Reported<Option<Rulebook>> {
    let game = input.game;
    let path = file(&game.id);
    if input.project.kind(&path).is_none() {
        return Reported::new(None, []);
    }
    let text = match input.project.read_text(&path, MAX_TEMPLATE_BYTES) {
        Ok(t) => t,
        Err(e) => {
            let d = crate::model::load::file_error(&e).with("game", &game.id);
            return Reported::new(None, [d]);
        }
    };
    let settings = settings::read(game, input.paper, input.tpl.fonts());
    let Some(settings) = settings.value else {
        return Reported::new(None, settings.diags.items);
    };
    let mut diags = crate::check::typed_twice::in_markdown(game, &path, &text)
        .diags
        .items;
    let rendered = match source::render(input, &path, text) {
        Ok(r) => r,
        Err(d) => {
            diags.push(d);
            return Reported::new(None, diags);
        }
    };
    let at = |range: Option<std::ops::Range<usize>>| range.and_then(|r| rendered.span(r));
    let key = kept.map(|k| (k, k.key(&rendered, &settings, &components(input))));
    let drawn = match key.as_ref().and_then(|(k, key)| k.take(key)) {
        Some(drawn) => drawn,
        None => match draw(input, &settings, &rendered, &path) {
            Ok(drawn) => {
                if let Some((k, key)) = key {
                    k.keep(key, &drawn);
                }
                drawn
            }
            Err(d) => {
                diags.push(d);
                return Reported::new(None, diags);
            }
        },
    };
    diags.extend(drawn.findings.iter().map(|f| {
        let d = if f.error {
            Diagnostic::error(f.message.clone())
        } else {
            Diagnostic::warning(f.message.clone())
        };
        d.at(&path, at(f.at.clone()))
            .with("game", &game.id)
            .hint(f.hint.clone())
    }));
    let book = Rulebook {
        settings,
        pages: drawn.pages,
        headings: drawn.headings,
        title: game.meta.name.clone(),
    };
    Reported::new(Some(book), diags)
}

/// A rulebook's pages laid out and drawn, with what laying them out found.
#[derive(Clone)]
pub(crate) struct Drawn {
    pages: Vec<Page>,
    headings: Vec<Heading>,
    findings: Vec<flow::Finding>,
}

/// The Markdown of `rendered` read into blocks, laid out in pages and drawn
/// (the error that stopped it, at its place in `rules.md` at `path`).
fn draw(
    input: &Input,
    settings: &Settings,
    rendered: &source::Rendered,
    path: &std::path::Path,
) -> Result<Drawn, Diagnostic> {
    let blocks = blocks::parse(&rendered.text).map_err(|p| {
        Diagnostic::error(p.message)
            .at(path, Some(p.at).and_then(|r| rendered.span(r)))
            .with("game", &input.game.id)
            .hint(p.hint)
    })?;
    let flowed = lay_out(input, settings, rendered, &blocks)?;
    let measure = |text: &str, font: &crate::text::FontSpec, size: f64| {
        crate::text::glyphs::width(text, size, font, input.tpl.fonts()).ok()
    };
    let shape = |text: &str, font: &crate::text::FontSpec| {
        crate::text::glyphs::shaped(text, font, input.tpl.fonts()).ok()
    };
    let pages = flowed
        .pages
        .iter()
        .enumerate()
        .map(|(k, laid)| {
            let measures = (&measure as &draw::Measure, &shape as &draw::Shape);
            draw::page(
                laid,
                k,
                settings,
                &flowed.headings,
                measures,
                input.page_svg,
            )
        })
        .collect();
    Ok(Drawn {
        pages,
        headings: flowed.headings,
        findings: flowed.findings,
    })
}

/// The blocks laid out in pages.
fn lay_out(
    input: &Input,
    settings: &Settings,
    rendered: &source::Rendered,
    blocks: &[blocks::Block],
) -> Result<flow::Flowed, Diagnostic> {
    let cx = flow::Context {
        settings,
        setter: lines::Setter {
            book: input.tpl.fonts(),
            icons: &input.tpl.text.icons,
        },
        specials: &rendered.specials,
        source: &rendered.text,
        components: components(input),
    };
    flow::flow(blocks, &cx).map_err(|e| {
        Diagnostic::error(format!("the rulebook cannot be typeset: {e}"))
            .at(&rendered.file, None)
            .with("game", &input.game.id)
            .hint("fix the font, the icon or the text it names")
    })
}

/// The components list's lines: every set's name, the parts it prints and its
/// first face.
fn components(input: &Input) -> Vec<flow::ComponentEntry> {
    input
        .game
        .components
        .iter()
        .enumerate()
        .map(|(ci, comp)| {
            let count = input.counts.get(ci).copied().unwrap_or(0);
            let figure = input.plans[ci].first().map(|p| source::FigureSpec {
                face: FaceRef {
                    component: ci,
                    face: 0,
                    back: false,
                },
                width: None,
                caption: None,
                trim: (comp.size.width, comp.size.height),
                bleed: comp.bleed,
                shape: p.shape,
            });
            flow::ComponentEntry {
                name: comp.name(),
                count,
                figure,
            }
        })
        .collect()
}
