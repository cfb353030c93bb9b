//! Measuring and laying out text with a game's fonts (rustybuzz shaping, the same
//! engine usvg lays text out with): widths, glyph outlines for sheet labels, and the
//! rich text that `wrap`, `fit` and `shrink` set (`**bold**`, `*italic*`, line
//! breaks and `:icon:`s, [`markup`]) into lines of runs ([`layout`]).

pub mod glyphs;
pub mod icons;
pub mod layout;
pub mod markup;

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use crate::fonts::{self, FontBook};
use crate::shaping::{
    glyphs_from_pieces, in_script_shaping, kept, piece_shaping, script_keyed, shape, shape_with,
    words, ShapedGlyph,
};
use crate::units::fmt_num;

pub use icons::Icons;
pub use layout::{fit, shrink, Line, Run, RunKind};

/// A font request: family, weight (400 regular, 700 bold, 900 black), italic.
#[derive(Debug, Clone, PartialEq)]
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

impl FontSpec {
    /// This font with a run's style laid over it: bold is at least 700, italic
    /// stays italic.
    pub fn styled(&self, bold: bool, italic: bool) -> FontSpec {
        FontSpec {
            family: self.family.clone(),
            weight: if bold {
                self.weight.max(700)
            } else {
                self.weight
            },
            italic: self.italic || italic,
        }
    }
}

/// Why text cannot be measured or laid out.
#[derive(Debug, Clone, PartialEq)]
pub enum TextError {
    /// A family none of the game's fonts has.
    UnknownFont {
        family: String,
        families: Vec<String>,
    },
    /// `fit()` asked for an empty box or sizes the wrong way round.
    BadFit { min: f64, max: f64, w: f64, h: f64 },
    /// The text does not fit its box even at the smallest size.
    DoesNotFit {
        /// The start of the text.
        text: String,
        w: f64,
        h: f64,
        min: f64,
        lines: usize,
        needed: f64,
    },
    /// `:name:` names no icon file and no built-in icon.
    UnknownIcon {
        name: String,
        looked: Vec<PathBuf>,
        /// The icon with the nearest name, if one is near.
        near: Option<String>,
    },
    /// An icon file that cannot be used.
    BadIcon {
        name: String,
        path: PathBuf,
        reason: String,
    },
    /// The template's fuel ran out while laying text out.
    OutOfFuel,
}

impl std::fmt::Display for TextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TextError::UnknownFont { family, families } => write!(
                f,
                "font `{family}` is not among the game's fonts ({}); put its .ttf, .otf or .ttc file in fonts/ (every game) or data/<game>/fonts/ (this game)",
                families.join(", ")
            ),
            TextError::BadFit { min, max, w, h } => write!(
                f,
                "fit(): needs 0 < min <= max and a box larger than zero (got min {min}, max {max}, box {w} x {h})"
            ),
            TextError::DoesNotFit {
                text,
                w,
                h,
                min,
                lines,
                needed,
            } => write!(
                f,
                "text \"{text}\" does not fit its {} x {} mm box even at the minimum size {} mm (needs {lines} lines, {needed:.1} mm high)",
                fmt_num(*w),
                fmt_num(*h),
                fmt_num(*min),
            ),
            TextError::UnknownIcon { name, looked, near } => {
                write!(f, "there is no icon `{name}`")?;
                if let Some(m) = near {
                    write!(f, "; did you mean `{m}`?")?;
                }
                write!(
                    f,
                    " (looked for {} and the built-in icons); write \\: for a colon that starts no icon",
                    looked
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
            TextError::BadIcon { name, path, reason } => {
                write!(f, "icon `{name}` ({}): {reason}", path.display())
            }
            TextError::OutOfFuel => write!(f, "laying out the text ran out of fuel"),
        }
    }
}

impl std::error::Error for TextError {}

/// The shaping face the book picks for `font`, or an error naming the families.
pub(crate) fn face_for(
    font: &FontSpec,
    book: &FontBook,
) -> Result<&'static rustybuzz::Face<'static>, TextError> {
    book.query(&font.family, font.weight, font.italic)
        .ok_or_else(|| unknown_font(font, book))
}

/// The error for a font `book` has no face of.
fn unknown_font(font: &FontSpec, book: &FontBook) -> TextError {
    TextError::UnknownFont {
        family: font.family.clone(),
        families: book.families().to_vec(),
    }
}

/// One glyph of a label, as [`shape_label`] shapes it; lengths in font units.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelGlyph {
    pub id: u32,
    pub x_advance: i32,
    pub x_offset: i32,
    pub y_offset: i32,
    pub y_advance: i32,
    /// The bytes of the label this glyph sets.
    pub range: std::ops::Range<usize>,
}

/// A sheet label shaped once: its glyphs left to right, as krilla's
/// `Surface::draw_text` would shape them (its `naive_shape`), and its width as
/// [`width`] measures it. Placing a label and drawing it read this one shaping.
#[derive(Debug, Clone, PartialEq)]
pub struct ShapedLabel {
    /// The glyphs, left to right.
    pub glyphs: Vec<LabelGlyph>,
    /// The font's units per em.
    pub upem: u16,
    /// The advance [`width`] measures, in font units.
    advance: i64,
}

impl ShapedLabel {
    /// The label's width in mm at `size` mm: what [`width`] gives for its text.
    pub fn width(&self, size: f64) -> f64 {
        if self.glyphs.is_empty() && self.advance == 0 {
            return 0.0;
        }
        self.advance as f64 / self.upem as f64 * size
    }
}

/// The bytes of the shaped text that glyph `i` of `infos` draws: its cluster, to
/// the next glyph of another cluster (or the text's end), in either direction.
fn cluster_range(infos: &[rustybuzz::GlyphInfo], i: usize, len: usize) -> std::ops::Range<usize> {
    range_of_cluster(|j| infos[j].cluster, infos.len(), i, len)
}

/// [`cluster_range`] for glyph `i` of `count` whose clusters `cluster` gives.
fn range_of_cluster(
    cluster: impl Fn(usize) -> u32,
    count: usize,
    i: usize,
    len: usize,
) -> std::ops::Range<usize> {
    let start = cluster(i) as usize;
    let end = (i + 1..count)
        .map(&cluster)
        .find(|next| *next != cluster(i))
        .map_or(len, |next| next as usize);
    start.min(end)..start.max(end)
}

/// `text` shaped once in `font` (the caller's label font) as a sheet label: the
/// glyphs from the kept shaping face and plan (krilla parses the font's layout
/// tables again for every label), and the width from the same glyphs when the
/// text's script runs left to right (else [`width`]'s own shaping, in the
/// script's direction).
pub fn shape_label(text: &str, font: &FontSpec) -> Result<ShapedLabel, TextError> {
    let face = face_for(font, &FontBook::builtin())?;
    // A label of words that add up runs left to right (its letters are Latin);
    // any other is shaped whole, left to right, and kept (a sheet's numbers
    // repeat from sheet to sheet).
    let (shaped, guessed): (Arc<[ShapedGlyph]>, _) = match glyphs_from_pieces(face, text) {
        Some(glyphs) => (glyphs.into(), rustybuzz::Direction::LeftToRight),
        None => {
            let (glyphs, _, guessed) = piece_shaping(face, text);
            (glyphs, guessed)
        }
    };
    let glyphs: Vec<LabelGlyph> = shaped
        .iter()
        .enumerate()
        .map(|(i, g)| LabelGlyph {
            id: g.id,
            x_advance: g.x_advance,
            x_offset: g.x_offset,
            y_offset: g.y_offset,
            y_advance: g.y_advance,
            range: range_of_cluster(|j| shaped[j].cluster, shaped.len(), i, text.len()),
        })
        .collect();
    let advance = if text.is_empty() {
        0
    } else if guessed == rustybuzz::Direction::LeftToRight {
        glyphs.iter().map(|g| g.x_advance as i64).sum()
    } else {
        advance(face, text)
    };
    Ok(ShapedLabel {
        glyphs,
        upem: face.units_per_em() as u16,
        advance,
    })
}

/// Width of `text` (one line, no markup) in millimetres at `size` mm, from the
/// kept advances the templates' text layout measures with (the build measures
/// a rulebook's words with [`glyphs::width`], which keeps their glyphs too; the
/// tests hold other measures to this one).
#[cfg(test)]
pub fn width(text: &str, size: f64, font: &FontSpec, book: &FontBook) -> Result<f64, TextError> {
    let face = face_for(font, book)?;
    Ok(face_width(face, text, size))
}

fn face_width(face: &'static rustybuzz::Face<'static>, text: &str, size: f64) -> f64 {
    if text.is_empty() {
        return 0.0;
    }
    to_mm(face, advance(face, text), size)
}

/// An advance in `face`'s font units, in mm at `size` mm.
fn to_mm(face: &rustybuzz::Face<'_>, advance: i64, size: f64) -> f64 {
    advance as f64 / face.units_per_em() as f64 * size
}

/// Texts whose advance is kept (about 100 bytes each); past this the kept ones
/// are forgotten and measured again when asked.
const ADVANCES_KEPT: usize = 100_000;

/// The advance of `text` shaped with `face`, in font units. Kept per face and text
/// for the whole process: wrapping measures each line again with every word added,
/// and `fit` wraps the same text at several sizes (the advance does not depend on
/// the size), so most measurements repeat.
fn advance(face: &'static rustybuzz::Face<'static>, text: &str) -> i64 {
    advance_and_script(face, text).0
}

/// [`advance`], and the script `text` is shaped in (the one its letters have).
/// A text of words whose sum is the advance of the whole (see [`words`]) is
/// summed from its words' kept advances, without shaping it; any other (a
/// word, a number) is measured from its kept shaping ([`shaped_and_script`]).
pub(crate) fn advance_and_script(
    face: &'static rustybuzz::Face<'static>,
    text: &str,
) -> (i64, rustybuzz::Script) {
    advances().get_or_make(face, text, || {
        summed(face, text).unwrap_or_else(|| shaping_advance(face, text))
    })
}

/// The advance of `text` in `face` and the script it is shaped in, summed from
/// its [`words::pieces`]' kept advances less a space's for each space two pieces
/// share; `None` where [`words::pieces`] gives none.
pub(crate) fn summed(
    face: &'static rustybuzz::Face<'static>,
    text: &str,
) -> Option<(i64, rustybuzz::Script)> {
    let advance_in = |piece: &str, script| advance_in(face, piece, script);
    let (pieces, line) = words::pieces(face, text, |p| shaped_and_script(face, p), advance_in)?;
    let space = match shaped_and_script(face, " ") {
        (advance, script) if script == line => advance,
        _ => advance_in(" ", line),
    };
    let shared = pieces.iter().filter(|(p, _)| p.shares_end).count() as i64;
    Some((
        pieces.iter().map(|(_, a)| a).sum::<i64>() - shared * space,
        line,
    ))
}

/// [`advance_and_script`] from shaping `text` whole (a word with the spaces
/// next to it, which [`words::summed`] sums), kept per face and text
/// ([`shaping_advance`]).
fn shaped_and_script(
    face: &'static rustybuzz::Face<'static>,
    text: &str,
) -> (i64, rustybuzz::Script) {
    advances().get_or_make(face, text, || shaping_advance(face, text))
}

/// [`shaped_advance`] of `text` in its own script: the sum of its kept
/// [`piece_shaping`]'s advances where its script runs left to right (the
/// shaping in its own direction is then the same), else shaped in its own
/// direction.
fn shaping_advance(
    face: &'static rustybuzz::Face<'static>,
    text: &str,
) -> (i64, rustybuzz::Script) {
    let (glyphs, script, direction) = piece_shaping(face, text);
    if direction == rustybuzz::Direction::LeftToRight {
        (sum_advances(&glyphs), script)
    } else {
        shaped_advance(face, text, None)
    }
}

/// The sum of `glyphs`' advances.
fn sum_advances(glyphs: &[ShapedGlyph]) -> i64 {
    glyphs.iter().map(|g| i64::from(g.x_advance)).sum()
}

/// The kept advances and scripts, per face and text.
fn advances() -> &'static kept::PerFace<(i64, rustybuzz::Script)> {
    static ADVANCES: OnceLock<kept::PerFace<(i64, rustybuzz::Script)>> = OnceLock::new();
    ADVANCES.get_or_init(|| kept::PerFace::new(ADVANCES_KEPT))
}

/// The advance of `text` shaped in `script` (for `None`, its letters' own), and
/// the script it was shaped in: the sum of its glyphs' advances.
pub(crate) fn shaped_advance(
    face: &'static rustybuzz::Face<'static>,
    text: &str,
    script: Option<rustybuzz::Script>,
) -> (i64, rustybuzz::Script) {
    let (out, _, script) = shape_with(face, text, None, script);
    let advance = out
        .glyph_positions()
        .iter()
        .map(|p| p.x_advance as i64)
        .sum();
    (advance, script)
}

/// The advance of `text` (a word or a space without letters of any script)
/// shaped in `script`, the script of the line it is part of; kept per face,
/// script and text. Where `script` runs left to right, the sum of its kept
/// [`in_script_shaping`]'s advances (the same shaping), else shaped in the
/// script's direction.
fn advance_in(
    face: &'static rustybuzz::Face<'static>,
    text: &str,
    script: rustybuzz::Script,
) -> i64 {
    static ADVANCES: OnceLock<kept::PerFace<i64>> = OnceLock::new();
    let key = script_keyed(script, text);
    ADVANCES
        .get_or_init(|| kept::PerFace::new(ADVANCES_KEPT))
        .get_or_make(face, &key, || match in_script_shaping(face, text, script) {
            (glyphs, rustybuzz::Direction::LeftToRight) => sum_advances(&glyphs),
            _ => shaped_advance(face, text, Some(script)).0,
        })
}

/// The glyph outlines of `text` set at `size` mm, its baseline starting at
/// (`x`, `y`) mm, as path segments in mm (y down): how the PNG exporter draws
/// sheet labels.
pub fn outline(
    text: &str,
    size: f64,
    font: &FontSpec,
    book: &FontBook,
    x: f64,
    y: f64,
) -> Result<Vec<crate::geom::Segment>, TextError> {
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
    let face = face_for(font, book)?;
    let shaped = shape(face, text);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kerning_pairs_are_kerned_in_every_built_in_style() {
        // Measured widths keep the fonts' kerning (GPOS pair positioning) in
        // every style a template can ask for: a shaper, plan or face that
        // dropped a kerning lookup would widen these pairs. Lato kerns each of
        // them in each of its styles.
        let book = FontBook::builtin();
        for (weight, italic) in [(400, false), (700, false), (400, true), (900, false)] {
            let font = FontSpec {
                weight,
                italic,
                ..FontSpec::default()
            };
            let face = face_for(&font, &book).unwrap();
            for pair in ["AV", "To", "Ty", "LT", "Yo", "P.", "Te", "AY", "r.", "VA"] {
                let alone: i64 = pair.chars().map(|c| advance(face, &c.to_string())).sum();
                assert!(
                    advance(face, pair) < alone,
                    "{pair} is not kerned in weight {weight}, italic {italic}"
                );
            }
        }
    }

    #[test]
    fn a_shaped_label_is_what_a_fresh_face_shapes_left_to_right_and_width_measures() {
        // What krilla's draw_text does: parse the font, shape left to right.
        let data = crate::fonts::FONTS
            .iter()
            .find(|(name, _)| *name == "Lato-Regular.ttf")
            .map(|(_, d)| *d)
            .unwrap();
        let fresh = rustybuzz::Face::from_slice(data, 0).unwrap();
        for text in [
            "Parcel Delivery · sheet 3 of 12 · fronts",
            "office affinity fjord — AVATAR Te Yo",
            "שלום 12",
            "",
        ] {
            let mut buf = rustybuzz::UnicodeBuffer::new();
            buf.push_str(text);
            buf.guess_segment_properties();
            buf.set_direction(rustybuzz::Direction::LeftToRight);
            let want = rustybuzz::shape(&fresh, &[], buf);
            let label = shape_label(text, &FontSpec::default()).unwrap();
            // What `width` measures: shaped in the script's own direction.
            let mut buf = rustybuzz::UnicodeBuffer::new();
            buf.push_str(text);
            buf.guess_segment_properties();
            let advance: i64 = rustybuzz::shape(&fresh, &[], buf)
                .glyph_positions()
                .iter()
                .map(|p| p.x_advance as i64)
                .sum();
            for size in [2.2, 2.4, 4.0] {
                let measured = advance as f64 / fresh.units_per_em() as f64 * size;
                assert_eq!(label.width(size), measured, "{text} at {size}");
            }
            let (got, upem) = (label.glyphs, label.upem);
            assert_eq!(upem, fresh.units_per_em() as u16);
            assert_eq!(got.len(), want.len(), "{text}");
            for ((g, info), pos) in got
                .iter()
                .zip(want.glyph_infos())
                .zip(want.glyph_positions())
            {
                assert_eq!(
                    (
                        g.id,
                        g.x_advance,
                        g.x_offset,
                        g.y_offset,
                        g.y_advance,
                        g.range.start
                    ),
                    (
                        info.glyph_id,
                        pos.x_advance,
                        pos.x_offset,
                        pos.y_offset,
                        pos.y_advance,
                        info.cluster as usize
                    ),
                    "{text}"
                );
                assert!(g.range.end > g.range.start && g.range.end <= text.len());
            }
        }
    }

    #[test]
    fn a_text_that_does_not_cut_into_pieces_is_measured_as_shaped_whole() {
        // Every word of every seed game in every built-in face (a word has no
        // space to cut at): its kept left-to-right shaping's advance where it
        // runs left to right, else its advance shaped right to left.
        let words = crate::shaping::words::tests::words();
        for face in crate::shaping::words::tests::faces() {
            for word in &words {
                assert_eq!(
                    advance_and_script(face, word),
                    shaped_advance(face, word, None),
                    "{word:?}"
                );
            }
        }
    }

    #[test]
    fn a_piece_without_a_script_is_measured_in_its_lines_script() {
        // In a script that runs right to left, "To" is kerned as "oT" (not at
        // all): the left-to-right shaping kept for a line's glyphs is not its
        // advance there.
        let face = crate::shaping::words::tests::faces()[0];
        let hebrew =
            rustybuzz::Script::from_iso15924_tag(ttf_parser::Tag::from_bytes(b"Hebr")).unwrap();
        for script in [rustybuzz::script::LATIN, rustybuzz::script::GREEK, hebrew] {
            for text in [" 12 ", " ", "To", " · ", "2+ "] {
                assert_eq!(
                    advance_in(face, text, script),
                    shaped_advance(face, text, Some(script)).0,
                    "{text:?} in {script:?}"
                );
            }
        }
        let (ltr, direction) = in_script_shaping(face, "To", hebrew);
        assert_eq!(direction, rustybuzz::Direction::RightToLeft);
        assert_ne!(
            sum_advances(&ltr),
            shaped_advance(face, "To", Some(hebrew)).0
        );
    }

    #[test]
    fn measures() {
        let book = FontBook::builtin();
        let f = FontSpec::default();
        let w1 = width("Memphis", 4.0, &f, &book).unwrap();
        let w2 = width("Memphis", 8.0, &f, &book).unwrap();
        assert!(w1 > 10.0 && w1 < 20.0, "{w1}");
        assert!((w2 - 2.0 * w1).abs() < 1e-9);
        let bold = width("Memphis", 4.0, &f.styled(true, false), &book).unwrap();
        assert!(bold > w1);
        // Kept plans measure what rustybuzz::shape measures.
        let face = face_for(&f, &book).unwrap();
        for text in ["Memphis", "1234", "Pay $3 — now!", ""] {
            let mut buf = rustybuzz::UnicodeBuffer::new();
            buf.push_str(text);
            let plain: i64 = rustybuzz::shape(face, &[], buf)
                .glyph_positions()
                .iter()
                .map(|p| p.x_advance as i64)
                .sum();
            let kept = face_width(face, text, face.units_per_em() as f64);
            assert!((kept - plain as f64).abs() < 1e-6, "{text}: {kept} {plain}");
        }
        let e = width(
            "x",
            4.0,
            &FontSpec {
                family: "Comic Sans".into(),
                ..f
            },
            &book,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "font `Comic Sans` is not among the game's fonts (Bebas Neue, Lato); put its .ttf, .otf or .ttc file in fonts/ (every game) or data/<game>/fonts/ (this game)"
        );
    }
}
