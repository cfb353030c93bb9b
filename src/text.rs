//! Measuring text with the embedded fonts (rustybuzz shaping, the same engine usvg
//! lays text out with), and the wrap / fit / shrink logic templates use.

use usvg::fontdb::{Family, Query, Stretch, Style, Weight};

use crate::fonts;

/// A font request: family, weight (400 regular, 700 bold, 900 black), italic.
#[derive(Debug, Clone)]
pub struct FontSpec {
    pub family: String,
    pub weight: u16,
    pub italic: bool,
}

impl Default for FontSpec {
    fn default() -> Self {
        FontSpec {
            family: fonts::DEFAULT_FAMILY.into(),
            weight: 400,
            italic: false,
        }
    }
}

/// A face parsed for shaping: its font-database id, which bytes and face index it
/// was parsed from, and the face.
pub(crate) type ShapingFace = (usvg::fontdb::ID, (usize, u32), rustybuzz::Face<'static>);

/// The embedded fonts parsed for shaping once per process (fitting one card text
/// measures hundreds of candidate lines, and usvg shapes every text run).
pub(crate) fn shaping_faces() -> &'static [ShapingFace] {
    static FACES: std::sync::OnceLock<Vec<ShapingFace>> = std::sync::OnceLock::new();
    FACES.get_or_init(|| {
        let db = fonts::database();
        db.faces()
            .filter_map(|info| {
                // Every face comes from one of the embedded files: find which.
                let usvg::fontdb::Source::Binary(src) = &info.source else {
                    return None;
                };
                let bytes: &[u8] = (**src).as_ref();
                let (_, data) = fonts::FONTS
                    .iter()
                    .find(|(_, d)| d.as_ptr() == bytes.as_ptr())?;
                let face = rustybuzz::Face::from_slice(data, info.index)?;
                Some((info.id, (data.as_ptr() as usize, info.index), face))
            })
            .collect()
    })
}

/// The shaping face for a font request, or an error naming a missing font.
fn face_for(font: &FontSpec) -> Result<&'static rustybuzz::Face<'static>, String> {
    let db = fonts::database();
    let families = [Family::Name(&font.family)];
    let id = db
        .query(&Query {
            families: &families,
            weight: Weight(font.weight),
            stretch: Stretch::Normal,
            style: if font.italic {
                Style::Italic
            } else {
                Style::Normal
            },
        })
        .ok_or_else(|| {
            format!(
                "font `{}` is not compiled in; use one of: {}",
                font.family,
                fonts::families().join(", ")
            )
        })?;
    shaping_faces()
        .iter()
        .find(|(i, _, _)| *i == id)
        .map(|(_, _, f)| f)
        .ok_or_else(|| format!("font `{}` cannot be read", font.family))
}

/// Width of `text` in millimetres at `size` mm, or an error naming a missing font.
pub fn width(text: &str, size: f64, font: &FontSpec) -> Result<f64, String> {
    let face = face_for(font)?;
    let mut buf = rustybuzz::UnicodeBuffer::new();
    buf.push_str(text);
    let shaped = rustybuzz::shape(face, &[], buf);
    let advance: i64 = shaped
        .glyph_positions()
        .iter()
        .map(|p| p.x_advance as i64)
        .sum();
    Ok(advance as f64 / face.units_per_em() as f64 * size)
}

/// The glyph outlines of `text` set at `size` mm, its baseline starting at
/// (`x`, `y`) mm, as path segments in mm (y down): how the PNG exporter draws
/// sheet labels.
pub fn outline(
    text: &str,
    size: f64,
    font: &FontSpec,
    x: f64,
    y: f64,
) -> Result<Vec<crate::geom::Segment>, String> {
    use crate::geom::Segment;
    struct Builder {
        segs: Vec<Segment>,
        scale: f64,
        x: f64,
        y: f64,
        last: (f64, f64),
    }
    impl Builder {
        fn p(&self, px: f32, py: f32) -> (f64, f64) {
            (
                self.x + px as f64 * self.scale,
                self.y - py as f64 * self.scale,
            )
        }
    }
    impl ttf_parser::OutlineBuilder for Builder {
        fn move_to(&mut self, x: f32, y: f32) {
            let p = self.p(x, y);
            self.last = p;
            self.segs.push(Segment::Move(p.0, p.1));
        }
        fn line_to(&mut self, x: f32, y: f32) {
            let p = self.p(x, y);
            self.last = p;
            self.segs.push(Segment::Line(p.0, p.1));
        }
        fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
            // The cubic that draws the same quadratic curve.
            let (c, p, l) = (self.p(x1, y1), self.p(x, y), self.last);
            let c1 = (l.0 + 2.0 / 3.0 * (c.0 - l.0), l.1 + 2.0 / 3.0 * (c.1 - l.1));
            let c2 = (p.0 + 2.0 / 3.0 * (c.0 - p.0), p.1 + 2.0 / 3.0 * (c.1 - p.1));
            self.last = p;
            self.segs
                .push(Segment::Cubic(c1.0, c1.1, c2.0, c2.1, p.0, p.1));
        }
        fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
            let (a, b, p) = (self.p(x1, y1), self.p(x2, y2), self.p(x, y));
            self.last = p;
            self.segs.push(Segment::Cubic(a.0, a.1, b.0, b.1, p.0, p.1));
        }
        fn close(&mut self) {
            self.segs.push(Segment::Close);
        }
    }
    let face = face_for(font)?;
    let mut buf = rustybuzz::UnicodeBuffer::new();
    buf.push_str(text);
    let shaped = rustybuzz::shape(face, &[], buf);
    let scale = size / face.units_per_em() as f64;
    let mut b = Builder {
        segs: Vec::new(),
        scale,
        x,
        y,
        last: (x, y),
    };
    let mut pen = x;
    for (info, pos) in shaped.glyph_infos().iter().zip(shaped.glyph_positions()) {
        b.x = pen + pos.x_offset as f64 * scale;
        b.y = y - pos.y_offset as f64 * scale;
        face.outline_glyph(ttf_parser::GlyphId(info.glyph_id as u16), &mut b);
        pen += pos.x_advance as f64 * scale;
    }
    Ok(b.segs)
}

/// Greedy word wrap: the lines of `text` that fit `max_width` mm at `size` mm.
/// Newlines in the text are kept as line breaks; a single word wider than the line
/// stays on a line of its own.
pub fn wrap(text: &str, max_width: f64, size: f64, font: &FontSpec) -> Result<Vec<String>, String> {
    let mut lines = Vec::new();
    for para in text.split('\n') {
        let mut line = String::new();
        for word in para.split_whitespace() {
            let candidate = if line.is_empty() {
                word.to_string()
            } else {
                format!("{line} {word}")
            };
            if line.is_empty() || width(&candidate, size, font)? <= max_width {
                line = candidate;
            } else {
                lines.push(std::mem::take(&mut line));
                line = word.to_string();
            }
        }
        lines.push(line);
    }
    Ok(lines)
}

/// The result of fitting text into a box.
#[derive(Debug, Clone, PartialEq)]
pub struct Fitted {
    /// Font size in mm.
    pub size: f64,
    pub lines: Vec<String>,
    /// Distance between baselines in mm.
    pub line_height: f64,
}

/// Height of `n` lines at `size` with `leading`: the first line's size plus the
/// baseline-to-baseline steps of the others.
fn block_height(n: usize, size: f64, leading: f64) -> f64 {
    if n == 0 {
        0.0
    } else {
        size + (n - 1) as f64 * size * leading
    }
}

/// The largest size from `max` down to `min` (in 0.1 mm steps) at which `text`
/// wraps into `w` x `h` mm; an error when it does not fit even at `min`.
pub fn fit(
    text: &str,
    w: f64,
    h: f64,
    max: f64,
    min: f64,
    leading: f64,
    font: &FontSpec,
) -> Result<Fitted, String> {
    if !(min > 0.0 && max >= min && w > 0.0 && h > 0.0) {
        return Err(format!("fit(): needs 0 < min <= max and a box larger than zero (got min {min}, max {max}, box {w} x {h})"));
    }
    let steps = ((max - min) / 0.1).round() as i64;
    for k in 0..=steps {
        let size = ((max - k as f64 * 0.1) * 100.0).round() / 100.0;
        let lines = wrap(text, w, size, font)?;
        let widest = lines
            .iter()
            .map(|l| width(l, size, font))
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .fold(0.0, f64::max);
        if widest <= w + 1e-9 && block_height(lines.len(), size, leading) <= h + 1e-9 {
            return Ok(Fitted {
                size,
                lines,
                line_height: size * leading,
            });
        }
    }
    let lines = wrap(text, w, min, font)?;
    let needed = block_height(lines.len(), min, leading);
    let short: String = text.chars().take(48).collect();
    Err(format!(
        "text \"{short}{}\" does not fit its {} x {} mm box even at the minimum size {} mm (needs {} lines, {:.1} mm high)",
        if text.chars().count() > 48 { "…" } else { "" },
        crate::units::fmt_num(w),
        crate::units::fmt_num(h),
        crate::units::fmt_num(min),
        lines.len(),
        needed
    ))
}

/// The size (at most `size`, at least `min`) at which `text` fits on one line of
/// `w` mm. `Err((measured, min))` when it is still wider than `w` at `min`.
pub fn shrink(
    text: &str,
    w: f64,
    size: f64,
    min: f64,
    font: &FontSpec,
) -> Result<Result<f64, (f64, f64)>, String> {
    let measured = width(text, size, font)?;
    if measured <= w {
        return Ok(Ok(size));
    }
    let s = (size * w / measured * 20.0).floor() / 20.0;
    if s >= min {
        Ok(Ok(s))
    } else {
        Ok(Err((width(text, min, font)?, min)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_and_wraps() {
        let f = FontSpec::default();
        let w1 = width("Memphis", 4.0, &f).unwrap();
        let w2 = width("Memphis", 8.0, &f).unwrap();
        assert!(w1 > 10.0 && w1 < 20.0, "{w1}");
        assert!((w2 - 2.0 * w1).abs() < 1e-9);
        let bold = width(
            "Memphis",
            4.0,
            &FontSpec {
                weight: 700,
                ..FontSpec::default()
            },
        )
        .unwrap();
        assert!(bold > w1);
        let lines = wrap("one two three four five six seven", 20.0, 4.0, &f).unwrap();
        assert!(lines.len() > 1);
        assert_eq!(lines.join(" "), "one two three four five six seven");
        assert!(width(
            "x",
            4.0,
            &FontSpec {
                family: "Comic Sans".into(),
                ..f
            }
        )
        .unwrap_err()
        .contains("not compiled in"));
    }

    #[test]
    fn fits_or_fails() {
        let f = FontSpec::default();
        let text =
            "Pay the Federal Reserve 3 Metrodollars for every station you own in a $2|$1 zone.";
        let big = fit(text, 50.0, 30.0, 5.0, 2.0, 1.2, &f).unwrap();
        let small = fit(text, 50.0, 12.0, 5.0, 2.0, 1.2, &f).unwrap();
        assert!(small.size < big.size);
        let e = fit(text, 10.0, 5.0, 5.0, 3.0, 1.2, &f).unwrap_err();
        assert!(
            e.contains("does not fit its 10 x 5 mm box even at the minimum size 3 mm"),
            "{e}"
        );
    }
}
