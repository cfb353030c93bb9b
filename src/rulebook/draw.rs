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
use crate::text::layout::{ICON_DROP, ICON_HEIGHT};
use crate::text::{FontSpec, Icon, Line, Run, RunKind};
use crate::units::fmt_num as n;

/// Colour of a figure's cut line.
const CUT_RGB: &str = "#8a8478";

/// Page `laid` (0-based `index`) as SVG text and the figures drawn under it.
/// `measure` gives the width of a text: of the spaces between words, and whether
/// they are kerned.
pub fn page(
    laid: &Laid,
    index: usize,
    settings: &Settings,
    headings: &[Heading],
    measure: &Measure,
) -> Page {
    let (w, h) = (settings.page.width, settings.page.height);
    let mut svg = String::with_capacity(16 * 1024);
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}mm" height="{}mm" viewBox="0 0 {} {}">"#,
        n(w),
        n(h),
        n(w),
        n(h)
    );
    let mut figures = Vec::new();
    let measure = &Widths::new(measure);
    for d in &laid.items {
        item(&mut svg, d, headings, &mut figures, measure);
    }
    // The page number, in the bottom margin.
    let size = settings.size * 0.9;
    label(
        &mut svg,
        (w / 2.0, h - settings.margin() * 0.55),
        "middle",
        &settings.font,
        size,
        &(index + 1).to_string(),
    );
    svg.push_str("</svg>");
    Page {
        svg,
        figures,
        number: index + 1,
    }
}

/// Writes one drawing of a page; a figure goes to `figures` (drawn under the page)
/// and its frame into the page.
fn item(
    svg: &mut String,
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
        } => text(svg, *x, *y, line, font, *size, color, measure),
        Draw::Stroke {
            from,
            to,
            width,
            color,
        } => {
            let _ = write!(
                svg,
                r#"<path d="M{} {}L{} {}" stroke="{color}" stroke-width="{}" fill="none"/>"#,
                n(from.0),
                n(from.1),
                n(to.0),
                n(to.1),
                n(*width)
            );
        }
        Draw::Leader { from, to } => {
            let _ = write!(
                svg,
                r##"<path d="M{} {}L{} {}" stroke="#8a8478" stroke-width="0.3" stroke-linecap="round" stroke-dasharray="0 1.1" fill="none"/>"##,
                n(from.0),
                n(from.1),
                n(to.0),
                n(to.1)
            );
        }
        Draw::Fill { rect, color } => {
            let _ = write!(
                svg,
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{color}"/>"#,
                n(rect.x),
                n(rect.y),
                n(rect.w),
                n(rect.h)
            );
        }
        Draw::Figure {
            face,
            picture,
            trim,
            shape,
        } => {
            frame(svg, *picture, *trim, *shape);
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
            label(svg, (*x, *y), "end", font, *size, &number.to_string());
        }
    }
}

/// The width in mm of a text set alone in a font at a size, if the font can set
/// it.
pub type Measure<'a> = dyn Fn(&str, &FontSpec, f64) -> Option<f64> + 'a;

/// Two gaps closer than this (mm) are the same gap.
const SAME_GAP: f64 = 1e-6;

/// One line of text at (`x`, baseline `y`), in as few text chunks (runs of text
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
    let mut icons = String::new();
    for chunk in chunks(line, font, size, measure) {
        match chunk {
            Chunk::Icon(p, icon) => {
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
    svg.push_str(&icons);
}

/// A piece of a line: an icon, or a text chunk from `at` (mm from the line's
/// start) whose words (each after a space, else joined to the piece before)
/// are set apart by a space widened by `spacing` mm.
enum Chunk<'a> {
    Icon(&'a Run, &'a Icon),
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
            RunKind::Icon(icon) => {
                out.push(Chunk::Icon(p, icon));
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
                    Chunk::Icon(..) => None,
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
}
