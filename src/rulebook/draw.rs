//! A laid-out page as SVG text: its lines of text (each word placed where the
//! line breaking put it, in the game's fonts: real text in the PDF), rules,
//! fills, the page number, and over each figure a frame in the part's cut shape
//! (the figure itself is the face's own parsed tree, drawn under the page by the
//! exporter, as on the print sheets).

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write;

use super::flow::{Draw, Heading, Laid};
use super::settings::Settings;
use super::{Figure, Page};
use crate::geom::{Rect, Segment};
use crate::layout::Mark;
use crate::text::glyphs::{GlyphRun, Shaped};
use crate::text::layout::{ICON_DROP, ICON_HEIGHT};
use crate::text::{FontSpec, Line, RunKind};
use crate::units::fmt_num as n;

/// Colour of a figure's cut line.
const CUT_RGB: &str = "#8a8478";

/// Page `laid` (0-based `index`) as SVG text and glyph runs, and the figures
/// drawn under it; with `whole`, also the whole page as SVG with its text as SVG
/// text ([`Page::svg`]). `measure` gives the width of a text: of the spaces
/// between words, and whether they are kerned.
pub fn page(
    laid: &Laid,
    index: usize,
    settings: &Settings,
    headings: &[Heading],
    (measure, shape): (&Measure, &Shape),
    whole: bool,
) -> Page {
    let (w, h) = (settings.page.width, settings.page.height);
    let mut out = Out {
        svg: whole.then(|| String::with_capacity(16 * 1024)),
        body: String::with_capacity(8 * 1024),
        texts: Vec::new(),
        shape,
    };
    out.both(&format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}mm" height="{}mm" viewBox="0 0 {} {}">"#,
        n(w),
        n(h),
        n(w),
        n(h)
    ));
    let mut figures = Vec::new();
    let measure = &Widths::new(measure);
    for d in &laid.items {
        item(&mut out, d, headings, &mut figures, measure);
    }
    // The page number, in the bottom margin.
    let size = settings.size * 0.9;
    out.label(
        (w / 2.0, h - settings.margin() * 0.55),
        Anchor::Middle,
        &settings.font,
        size,
        &(index + 1).to_string(),
    );
    out.both("</svg>");
    Page {
        svg: out.svg,
        body: out.body,
        texts: out.texts,
        figures,
        number: index + 1,
    }
}

/// A text shaped in a font as glyphs to draw as they are, if the font can set it.
pub type Shape<'a> = dyn Fn(&str, &FontSpec) -> Option<Shaped> + 'a;

/// What a page is drawn into: the page as SVG without its text (`body`) plus
/// that text as glyph runs (`texts`), drawn over the body, and if asked for, its
/// whole SVG (the text in it as SVG text). A text that cannot be given as glyphs
/// stays SVG text in the body.
struct Out<'a> {
    svg: Option<String>,
    body: String,
    texts: Vec<GlyphRun>,
    shape: &'a Shape<'a>,
}

/// Where a label's point is: its end or its middle.
#[derive(Clone, Copy)]
enum Anchor {
    Middle,
    End,
}

impl Anchor {
    fn name(self) -> &'static str {
        match self {
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

impl Out<'_> {
    /// Writes `s` into both SVGs.
    fn both(&mut self, s: &str) {
        if let Some(svg) = &mut self.svg {
            svg.push_str(s);
        }
        self.body.push_str(s);
    }

    /// A label: a glyph run anchored at `at`, and SVG text.
    fn label(&mut self, at: (f64, f64), anchor: Anchor, font: &FontSpec, size: f64, text: &str) {
        let glyphs = (self.shape)(text, font).map(|s| {
            let mut run = GlyphRun::new(s.face, size, at, LABEL_RGB);
            run.push(text, &s);
            let w = run.width();
            run.at.0 -= match anchor {
                Anchor::Middle => w / 2.0,
                Anchor::End => w,
            };
            run
        });
        let body = match glyphs {
            Some(run) => {
                self.texts.push(run);
                None
            }
            None => Some(&mut self.body),
        };
        for svg in self.svg.iter_mut().chain(body) {
            label(svg, at, anchor.name(), font, size, text);
        }
    }

    /// A line of text at (`x`, baseline `y`): SVG text, and glyph runs.
    #[allow(clippy::too_many_arguments)]
    fn line(
        &mut self,
        (x, y): (f64, f64),
        line: &Line,
        font: &FontSpec,
        size: f64,
        color: &str,
        measure: &Widths,
    ) {
        let body = match glyph_line((x, y), line, font, size, color, self.shape) {
            Some(runs) => {
                self.texts.extend(runs);
                None
            }
            None => Some(&mut self.body),
        };
        for svg in self.svg.iter_mut().chain(body) {
            text(svg, x, y, line, font, size, color, measure);
        }
        self.both(&icons(x, y, line, size));
    }
}

/// Colour of labels (page numbers, a heading's page in the contents).
const LABEL_RGB: [u8; 3] = [0x33, 0x33, 0x33];

/// An opaque SVG colour as its three bytes (read as usvg reads it).
fn opaque_rgb(color: &str) -> Option<[u8; 3]> {
    let c: svgtypes::Color = color.trim().parse().ok()?;
    (c.alpha == 255).then_some([c.red, c.green, c.blue])
}

/// A line's text runs (in `font` at `size`, from (`x`, baseline `y`)) as glyph
/// runs: each word's glyphs where the line breaking put it, the words of one
/// style in one run with a space glyph widened to each gap between them (so the
/// text keeps its spaces), a new run at a change of style or after an icon.
/// `None` if a word's font cannot set it or the colour is not opaque.
fn glyph_line(
    (x, y): (f64, f64),
    line: &Line,
    font: &FontSpec,
    size: f64,
    color: &str,
    shape: &Shape,
) -> Option<Vec<GlyphRun>> {
    let rgb = opaque_rgb(color)?;
    let mut out: Vec<GlyphRun> = Vec::new();
    // The style of the last run, if the next word may follow it in the text.
    let mut open: Option<(bool, bool)> = None;
    for p in &line.runs {
        let (text, bold, italic) = match &p.kind {
            RunKind::Text { text, bold, italic } => (text, *bold, *italic),
            RunKind::Icon(_) => {
                open = None;
                continue;
            }
        };
        let text: String = text.chars().filter(|c| !is_marker(*c)).collect();
        if text.is_empty() {
            continue;
        }
        let f = font.styled(bold, italic);
        let shaped = shape(&text, &f)?;
        if let (Some(style), Some(run)) = (open, out.last_mut()) {
            let gap = x + p.x - run.at.0 - run.width() > SAME_GAP;
            if gap {
                // The space goes in the run before, in its own font.
                let (b, i) = style;
                let space = shape(" ", &font.styled(b, i))?;
                run.push(" ", &space);
            }
            if style == (bold, italic) {
                run.advance_to(x + p.x - run.at.0);
                run.push(&text, &shaped);
                continue;
            }
            if gap {
                run.advance_to(x + p.x - run.at.0);
            }
        }
        let mut run = GlyphRun::new(shaped.face, size, (x + p.x, y), rgb);
        run.push(&text, &shaped);
        out.push(run);
        open = Some((bold, italic));
    }
    Some(out)
}

/// The typesetter's markers, which never reach a page.
fn is_marker(c: char) -> bool {
    matches!(c, '\u{E000}' | '\u{E001}')
}

/// Writes one drawing of a page; a figure goes to `figures` (drawn under the page)
/// and its frame into the page.
fn item(
    out: &mut Out,
    d: &Draw,
    headings: &[Heading],
    figures: &mut Vec<Figure>,
    measure: &Widths,
) {
    match d {
        Draw::Text {
            x,
            y,
            line,
            font,
            size,
            color,
        } => out.line((*x, *y), line, font, *size, color, measure),
        Draw::Stroke {
            from,
            to,
            width,
            color,
        } => {
            out.both(&format!(
                r#"<path d="M{} {}L{} {}" stroke="{color}" stroke-width="{}" fill="none"/>"#,
                n(from.0),
                n(from.1),
                n(to.0),
                n(to.1),
                n(*width)
            ));
        }
        Draw::Leader { from, to } => {
            out.both(&format!(
                r##"<path d="M{} {}L{} {}" stroke="#8a8478" stroke-width="0.3" stroke-linecap="round" stroke-dasharray="0 1.1" fill="none"/>"##,
                n(from.0),
                n(from.1),
                n(to.0),
                n(to.1)
            ));
        }
        Draw::Fill { rect, color } => {
            out.both(&format!(
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{color}"/>"#,
                n(rect.x),
                n(rect.y),
                n(rect.w),
                n(rect.h)
            ));
        }
        Draw::Figure {
            face,
            picture,
            trim,
            shape,
        } => {
            let mut f = String::new();
            frame(&mut f, *picture, *trim, *shape);
            out.both(&f);
            figures.push(Figure {
                face: *face,
                picture: *picture,
                clip: *trim,
            });
        }
        Draw::PageOf {
            heading,
            x,
            y,
            font,
            size,
        } => {
            let number = headings.get(*heading).map_or(0, |h| h.page + 1);
            out.label((*x, *y), Anchor::End, font, *size, &number.to_string());
        }
    }
}

/// The width in mm of a text set alone in a font at a size, if the font can set
/// it.
pub type Measure<'a> = dyn Fn(&str, &FontSpec, f64) -> Option<f64> + 'a;

/// Two gaps closer than this (mm) are the same gap.
const SAME_GAP: f64 = 1e-6;

/// One line of text at (`x`, baseline `y`) as SVG text (without its icons: see
/// [`icons`]), in as few text chunks (runs of text
/// from an absolute `x`, which usvg lays out one by one) as keep every word where
/// the line breaking put it: fewer objects per page than a chunk a word.
///
/// The words of a chunk follow each other with a space between them, stretched
/// by `word-spacing` to the gap the line breaking put between them (the same on
/// the whole line: justification stretches every space alike). A new chunk, at
/// its absolute `x`, starts after an icon (drawn beside the text, not in it), at a
/// piece of a word in another style (no space between), where a gap differs from
/// the chunk's, and where a space is kerned against the letter before or after it
/// (usvg shapes a chunk as one text; the line breaking measured each word alone).
#[allow(clippy::too_many_arguments)]
fn text(
    svg: &mut String,
    x: f64,
    y: f64,
    line: &Line,
    font: &FontSpec,
    size: f64,
    color: &str,
    measure: &Widths,
) {
    let base = font.styled(false, false);
    let _ = write!(
        svg,
        r#"<text y="{}" font-family="{}" font-size="{}" font-weight="{}" font-style="{}" fill="{color}">"#,
        n(y),
        escape(&font.family),
        n(size),
        base.weight,
        style_name(base.italic)
    );
    for chunk in chunks(line, font, size, measure) {
        match chunk {
            Chunk::Icon => {}
            Chunk::Text { at, spacing, runs } => {
                let _ = write!(svg, r#"<tspan x="{}""#, n(x + at));
                if let Some(s) = spacing.map(n).filter(|s| s != "0") {
                    let _ = write!(svg, r#" word-spacing="{s}""#);
                }
                svg.push('>');
                for (spaced, text, bold, italic) in runs {
                    if spaced {
                        svg.push(' ');
                    }
                    run(svg, text, &font.styled(bold, italic), &base);
                }
                svg.push_str("</tspan>");
            }
        }
    }
    svg.push_str("</text>");
}

/// The icons of a line at (`x`, baseline `y`) in text at `size`, as SVG drawn
/// beside its text: where the line breaking put them.
fn icons(x: f64, y: f64, line: &Line, size: f64) -> String {
    let mut icons = String::new();
    for p in &line.runs {
        if let RunKind::Icon(icon) = &p.kind {
            let height = ICON_HEIGHT * size;
            let _ = write!(
                icons,
                r#"<svg x="{}" y="{}" width="{}" height="{}" viewBox="{}">{}</svg>"#,
                n(x + p.x),
                n(y + (ICON_DROP - ICON_HEIGHT) * size),
                n(p.width),
                n(height),
                escape(&icon.view_box),
                icon.markup
            );
        }
    }
    icons
}

/// A piece of a line: an icon (drawn beside the text: [`icons`]), or a text
/// chunk from `at` (mm from the line's start) whose words (each after a space,
/// else joined to the piece before) are set apart by a space widened by
/// `spacing` mm.
enum Chunk<'a> {
    Icon,
    Text {
        at: f64,
        spacing: Option<f64>,
        runs: Vec<(bool, &'a str, bool, bool)>,
    },
}

/// `line`'s runs (in `font` at `size`) as chunks.
fn chunks<'a>(line: &'a Line, font: &FontSpec, size: f64, measure: &Widths) -> Vec<Chunk<'a>> {
    let base = font.styled(false, false);
    let space = measure.width(" ", &base, size);
    let mut out: Vec<Chunk> = Vec::new();
    // Where the last text run ends and its last letter in its font, if it is the
    // last chunk's.
    let mut last: Option<(f64, char, FontSpec)> = None;
    for p in &line.runs {
        let (text, bold, italic) = match &p.kind {
            RunKind::Text { text, bold, italic } => (text.as_str(), *bold, *italic),
            RunKind::Icon(_) => {
                out.push(Chunk::Icon);
                last = None;
                continue;
            }
        };
        let f = font.styled(bold, italic);
        let before = last.replace((p.x + p.width, text.chars().last().unwrap_or(' '), f));
        if let (Some((end, c, f)), Some(space), Some(Chunk::Text { spacing, runs, .. })) =
            (before, space, out.last_mut())
        {
            let extra = p.x - end - space;
            let next = text.chars().next().unwrap_or(' ');
            let same = spacing.is_none_or(|s| (s - extra).abs() < SAME_GAP);
            if p.x - end > SAME_GAP
                && same
                && measure.unkerned(c, ' ', &f, size)
                && measure.unkerned(' ', next, &base, size)
            {
                *spacing = Some(extra);
                runs.push((true, text, bold, italic));
                continue;
            }
        }
        out.push(Chunk::Text {
            at: p.x,
            spacing: None,
            runs: vec![(false, text, bold, italic)],
        });
    }
    out
}

/// The widths a page asks for, each measured once: every line asks its font's
/// space and the same few letters beside a space again (the measure shapes a
/// text, or finds it kept under a lock, for each of the three widths of a pair).
struct Widths<'a> {
    measure: &'a Measure<'a>,
    /// Per font and size (its bits): widths by text, and whether a pair of
    /// letters is unkerned.
    kept: RefCell<Vec<Kept>>,
}

/// What [`Widths`] keeps of one font at one size.
struct Kept {
    font: FontSpec,
    size: u64,
    widths: HashMap<String, Option<f64>>,
    pairs: HashMap<(char, char), bool>,
}

impl<'a> Widths<'a> {
    /// Widths from `measure`, none kept yet.
    fn new(measure: &'a Measure<'a>) -> Self {
        Widths {
            measure,
            kept: RefCell::new(Vec::new()),
        }
    }

    /// Index of `font` at `size` in `kept` (added if new).
    fn slot(kept: &mut Vec<Kept>, font: &FontSpec, size: f64) -> usize {
        let bits = size.to_bits();
        if let Some(i) = kept.iter().position(|k| k.size == bits && k.font == *font) {
            return i;
        }
        kept.push(Kept {
            font: font.clone(),
            size: bits,
            widths: HashMap::new(),
            pairs: HashMap::new(),
        });
        kept.len() - 1
    }

    /// The width of `text` in `font` at `size` (as `measure` says).
    fn width(&self, text: &str, font: &FontSpec, size: f64) -> Option<f64> {
        let mut kept = self.kept.borrow_mut();
        let i = Self::slot(&mut kept, font, size);
        if let Some(w) = kept[i].widths.get(text) {
            return *w;
        }
        let w = (self.measure)(text, font, size);
        kept[i].widths.insert(text.to_string(), w);
        w
    }

    /// Whether `a` then `b` in `font` are as wide as the two set alone.
    fn unkerned(&self, a: char, b: char, font: &FontSpec, size: f64) -> bool {
        let i = Self::slot(&mut self.kept.borrow_mut(), font, size);
        if let Some(u) = self.kept.borrow()[i].pairs.get(&(a, b)) {
            return *u;
        }
        let (mut sa, mut sb) = ([0; 4], [0; 4]);
        let (sa, sb) = (a.encode_utf8(&mut sa), b.encode_utf8(&mut sb));
        let pair = format!("{sa}{sb}");
        let u = match (
            self.width(&pair, font, size),
            self.width(sa, font, size),
            self.width(sb, font, size),
        ) {
            (Some(p), Some(x), Some(y)) => (p - x - y).abs() < SAME_GAP,
            _ => false,
        };
        self.kept.borrow_mut()[i].pairs.insert((a, b), u);
        u
    }
}

/// One piece of text in a chunk: bare in the line's own style, else in a
/// `<tspan>` of its style. A piece with a character usvg stretches as a space
/// (a no-break space) is kept from the chunk's word spacing.
fn run(svg: &mut String, text: &str, f: &FontSpec, base: &FontSpec) {
    let stretches = text.chars().any(is_word_separator);
    if f == base && !stretches {
        svg.push_str(&escape(text));
        return;
    }
    svg.push_str("<tspan");
    if f.weight != base.weight {
        let _ = write!(svg, r#" font-weight="{}""#, f.weight);
    }
    if f.italic != base.italic {
        let _ = write!(svg, r#" font-style="{}""#, style_name(f.italic));
    }
    if stretches {
        svg.push_str(r#" word-spacing="0""#);
    }
    let _ = write!(svg, ">{}</tspan>", escape(text));
}

/// The characters `word-spacing` widens (CSS Text 3; usvg's list).
fn is_word_separator(c: char) -> bool {
    matches!(
        c as u32,
        0x0020 | 0x00A0 | 0x1361 | 0x010100 | 0x010101 | 0x01039F | 0x01091F
    )
}

/// `font-style` of upright or italic text.
fn style_name(italic: bool) -> &'static str {
    if italic {
        "italic"
    } else {
        "normal"
    }
}

/// One run of plain text anchored at `at` (`start`, `middle` or `end`).
fn label(svg: &mut String, at: (f64, f64), anchor: &str, font: &FontSpec, size: f64, text: &str) {
    let _ = write!(
        svg,
        r##"<text x="{}" y="{}" text-anchor="{anchor}" font-family="{}" font-weight="{}" font-size="{}" fill="#333333">{}</text>"##,
        n(at.0),
        n(at.1),
        escape(&font.family),
        font.weight,
        n(size),
        escape(text)
    );
}

/// Over a figure: white outside its cut shape (the bleed a part loses when cut)
/// and a thin cut line along it.
fn frame(svg: &mut String, picture: Rect, trim: Rect, shape: crate::model::Shape) {
    let outline = path(&Mark::Outline { shape, rect: trim }.segments());
    if shape != crate::model::Shape::Rect {
        let cover = picture;
        let _ = write!(
            svg,
            r##"<path d="M{} {}H{}V{}H{}Z{outline}" fill="#ffffff" fill-rule="evenodd"/>"##,
            n(cover.x),
            n(cover.y),
            n(cover.right()),
            n(cover.bottom()),
            n(cover.x)
        );
    }
    let _ = write!(
        svg,
        r##"<path d="{outline}" fill="none" stroke="{CUT_RGB}" stroke-width="0.2"/>"##
    );
}

/// Path data of `segments`.
fn path(segments: &[Segment]) -> String {
    let mut d = String::new();
    for s in segments {
        let _ = match *s {
            Segment::Move(x, y) => write!(d, "M{} {}", n(x), n(y)),
            Segment::Line(x, y) => write!(d, "L{} {}", n(x), n(y)),
            Segment::Cubic(a, b, c, e, f, g) => {
                write!(d, "C{} {} {} {} {} {}", n(a), n(b), n(c), n(e), n(f), n(g))
            }
            Segment::Close => write!(d, "Z"),
        };
    }
    d
}

/// `text` with XML's special characters escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            // The typesetter's markers never reach a page.
            '\u{E000}' | '\u{E001}' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Run;

    fn word(text: &str, x: f64, width: f64) -> Run {
        Run {
            kind: RunKind::Text {
                text: text.into(),
                bold: false,
                italic: false,
            },
            x,
            width,
        }
    }

    /// Every character 1 mm wide, and "y " kerned 0.2 mm closer.
    fn measure(text: &str, _: &FontSpec, _: f64) -> Option<f64> {
        let kern = if text == "y " { 0.2 } else { 0.0 };
        Some(text.chars().count() as f64 - kern)
    }

    #[test]
    fn a_justified_line_is_one_chunk_up_to_a_kerned_space() {
        // Gaps of 1.5 mm: the 1 mm space widened by 0.5 mm.
        let line = Line {
            runs: vec![
                word("ab", 0.0, 2.0),
                word("cd", 3.5, 2.0),
                word("say", 7.0, 3.0),
                word("ef", 11.5, 2.0),
            ],
            width: 13.5,
            size: 4.0,
        };
        let font = FontSpec::default();
        let found: Vec<(f64, Option<f64>, usize)> =
            chunks(&line, &font, 4.0, &Widths::new(&measure))
                .iter()
                .filter_map(|c| match c {
                    Chunk::Text { at, spacing, runs } => Some((*at, *spacing, runs.len())),
                    Chunk::Icon => None,
                })
                .collect();
        assert_eq!(found, vec![(0.0, Some(0.5), 3), (11.5, None, 1)]);
        let mut svg = String::new();
        let widths = Widths::new(&measure);
        text(&mut svg, 10.0, 20.0, &line, &font, 4.0, "#000", &widths);
        assert!(
            svg.contains(
                r#"<tspan x="10" word-spacing="0.5">ab cd say</tspan><tspan x="21.5">ef</tspan>"#
            ),
            "{svg}"
        );
    }

    #[test]
    fn a_page_measures_each_width_and_pair_once() {
        // Three justified lines: each asks its space and the same letter pairs.
        let asked = std::cell::RefCell::new(Vec::<String>::new());
        let counting = |text: &str, font: &FontSpec, size: f64| {
            asked.borrow_mut().push(text.to_string());
            measure(text, font, size)
        };
        let widths = Widths::new(&counting);
        let font = FontSpec::default();
        let line = Line {
            runs: vec![word("ab", 0.0, 2.0), word("ab", 3.5, 2.0)],
            width: 5.5,
            size: 4.0,
        };
        let mut svg = String::new();
        for _ in 0..3 {
            text(&mut svg, 0.0, 0.0, &line, &font, 4.0, "#000", &widths);
        }
        let mut asked = asked.take();
        let all = asked.len();
        asked.sort();
        asked.dedup();
        assert_eq!(all, asked.len(), "a width measured twice: {asked:?}");
        // The space, "b " and " a" with their letters: the chunks are the same.
        assert_eq!(asked, vec![" ", " a", "a", "b", "b "]);
        assert_eq!(
            svg.matches(r#"word-spacing="0.5">ab ab<"#).count(),
            3,
            "{svg}"
        );
    }

    /// Every character a glyph 1 mm wide at size 1 (so `size` mm at `size`),
    /// its id the character, in a face of its style (bold: index 1).
    fn shape(text: &str, font: &FontSpec) -> Option<Shaped> {
        let face = crate::fonts::FaceData {
            data: b"",
            index: u32::from(font.weight >= 700),
        };
        let glyphs: std::sync::Arc<[crate::text::glyphs::Glyph]> = text
            .char_indices()
            .map(|(k, c)| crate::text::glyphs::Glyph {
                id: c as u32,
                advance: 1.0,
                x_offset: 0.0,
                y_offset: 0.0,
                range: k..k + c.len_utf8(),
            })
            .collect();
        Some(Shaped { face, glyphs })
    }

    fn styled(text: &str, x: f64, width: f64, bold: bool) -> Run {
        Run {
            kind: RunKind::Text {
                text: text.into(),
                bold,
                italic: false,
            },
            x,
            width,
        }
    }

    /// Where each glyph of `run` starts, from the line's start, and its text.
    fn origins(run: &GlyphRun, x: f64) -> Vec<(f64, String)> {
        let mut pen = run.at.0 - x;
        run.glyphs
            .iter()
            .map(|g| {
                let at = (pen * 1000.0).round() / 1000.0;
                pen += f64::from(g.advance) * run.size;
                (at, run.text[g.range.clone()].to_string())
            })
            .collect()
    }

    #[test]
    fn a_lines_glyphs_start_each_word_where_the_line_breaking_put_it() {
        // Justified gaps of 1.5 mm at size 1, then a bold word joined to the
        // last one (no space) and a bold word after a gap.
        let line = Line {
            runs: vec![
                word("ab", 0.0, 2.0),
                word("cd", 3.5, 2.0),
                word("e", 7.25, 1.0),
                styled("fg", 8.25, 2.0, true),
                styled("h", 12.0, 1.0, true),
            ],
            width: 13.0,
            size: 1.0,
        };
        let runs = glyph_line(
            (10.0, 20.0),
            &line,
            &FontSpec::default(),
            1.0,
            "#102030",
            &shape,
        )
        .unwrap();
        assert_eq!(runs.len(), 2, "one run for each style: {runs:?}");
        assert!(runs
            .iter()
            .all(|r| r.at.1 == 20.0 && r.rgb == [0x10, 0x20, 0x30]));
        assert_eq!(runs[0].text, "ab cd e");
        assert_eq!(runs[1].text, "fg h");
        assert_eq!((runs[0].face.index, runs[1].face.index), (0, 1));
        let want = |v: &[(f64, &str)]| -> Vec<(f64, String)> {
            v.iter().map(|(x, t)| (*x, t.to_string())).collect()
        };
        assert_eq!(
            origins(&runs[0], 10.0),
            want(&[
                (0.0, "a"),
                (1.0, "b"),
                (2.0, " "),
                (3.5, "c"),
                (4.5, "d"),
                (5.5, " "),
                (7.25, "e")
            ])
        );
        assert_eq!(
            origins(&runs[1], 10.0),
            want(&[(8.25, "f"), (9.25, "g"), (10.25, " "), (12.0, "h")])
        );
        // A named colour is a colour; one not opaque or not given (currentColor),
        // or a word no font sets: SVG text.
        let red = glyph_line((0.0, 0.0), &line, &FontSpec::default(), 1.0, "red", &shape);
        assert_eq!(red.unwrap()[0].rgb, [255, 0, 0]);
        for other in ["#00000080", "rgba(0, 0, 0, 0.5)", "currentColor"] {
            let runs = glyph_line((0.0, 0.0), &line, &FontSpec::default(), 1.0, other, &shape);
            assert!(runs.is_none(), "{other}");
        }
        let none = |_: &str, _: &FontSpec| None;
        assert!(glyph_line(
            (0.0, 0.0),
            &line,
            &FontSpec::default(),
            1.0,
            "#000000",
            &none
        )
        .is_none());
    }
}
