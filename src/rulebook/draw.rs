//! A laid-out page as SVG text: its lines of text (each word placed where the
//! line breaking put it, in the game's fonts: real text in the PDF), rules,
//! fills, the page number, and over each figure a frame in the part's cut shape
//! (the figure itself is the face's own parsed tree, drawn under the page by the
//! exporter, as on the print sheets).

use std::fmt::Write;

use super::flow::{Draw, Heading, Laid};
use super::settings::Settings;
use super::{Figure, Page};
use crate::geom::{Rect, Segment};
use crate::layout::Mark;
use crate::text::layout::{ICON_DROP, ICON_HEIGHT};
use crate::text::{FontSpec, Line, RunKind};
use crate::units::fmt_num as n;

/// Colour of a figure's cut line.
const CUT_RGB: &str = "#8a8478";

/// Page `laid` (0-based `index`) as SVG text and the figures drawn under it.
pub fn page(laid: &Laid, index: usize, settings: &Settings, headings: &[Heading]) -> Page {
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
    for d in &laid.items {
        item(&mut svg, d, headings, &mut figures);
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
fn item(svg: &mut String, d: &Draw, headings: &[Heading], figures: &mut Vec<Figure>) {
    match d {
        Draw::Text {
            x,
            y,
            line,
            font,
            size,
            color,
        } => text(svg, *x, *y, line, font, *size, color),
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

/// One line of text at (`x`, baseline `y`): a `<tspan>` per piece, at its place.
fn text(svg: &mut String, x: f64, y: f64, line: &Line, font: &FontSpec, size: f64, color: &str) {
    let _ = write!(
        svg,
        r#"<text y="{}" font-family="{}" font-size="{}" fill="{color}">"#,
        n(y),
        escape(&font.family),
        n(size)
    );
    let mut icons = String::new();
    for p in &line.runs {
        match &p.kind {
            RunKind::Text { text, bold, italic } => {
                let f = font.styled(*bold, *italic);
                let _ = write!(
                    svg,
                    r#"<tspan x="{}" font-weight="{}" font-style="{}">{}</tspan>"#,
                    n(x + p.x),
                    f.weight,
                    if f.italic { "italic" } else { "normal" },
                    escape(text)
                );
            }
            RunKind::Icon(icon) => {
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
    }
    svg.push_str("</text>");
    svg.push_str(&icons);
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
