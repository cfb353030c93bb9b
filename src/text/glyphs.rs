//! Text already placed by cardstock's own typesetting, as glyph runs an exporter
//! draws as they are (the PDF writer with krilla's glyph API): each run is one
//! font at one size from a baseline origin, its glyphs shaped here with the same
//! kept faces and plans the typesetter measured them with, so nothing lays the
//! text out again. The run keeps its text (each glyph's bytes of it): a PDF's
//! text stays real text, searchable, with a space glyph between words.

use std::ops::Range;
use std::sync::{Arc, OnceLock};

use super::{
    cluster_range, face_for, range_of_cluster, sum_advances, to_mm, unknown_font, FontSpec,
    TextError,
};
pub use crate::fonts::FaceData;
use crate::fonts::FontBook;
use crate::shaping::{kept, piece_shaping, shape};

/// One glyph of a run; lengths in ems of the run's size.
#[derive(Debug, Clone, PartialEq)]
pub struct Glyph {
    pub id: u32,
    /// From this glyph's origin to the next one's.
    pub advance: f32,
    pub x_offset: f32,
    pub y_offset: f32,
    /// The bytes of the run's text this glyph sets.
    pub range: Range<usize>,
}

/// Glyphs in one face at one size, from a baseline origin.
#[derive(Debug, Clone, PartialEq)]
pub struct GlyphRun {
    pub face: FaceData,
    /// The font size, in the picture's units (mm for a rulebook page).
    pub size: f64,
    /// The first glyph's origin on the baseline, in the picture's units.
    pub at: (f64, f64),
    pub rgb: [u8; 3],
    pub text: String,
    pub glyphs: Vec<Glyph>,
}

impl GlyphRun {
    /// An empty run in `face` at `size` from `at`.
    pub fn new(face: FaceData, size: f64, at: (f64, f64), rgb: [u8; 3]) -> GlyphRun {
        GlyphRun {
            face,
            size,
            at,
            rgb,
            text: String::new(),
            glyphs: Vec::new(),
        }
    }

    /// Where the pen is after the last glyph, along the baseline from `at`, in
    /// the picture's units.
    pub fn width(&self) -> f64 {
        self.glyphs
            .iter()
            .map(|g| f64::from(g.advance))
            .sum::<f64>()
            * self.size
    }

    /// Appends `shaped` (set from `text`).
    pub fn push(&mut self, text: &str, shaped: &Shaped) {
        let start = self.text.len();
        self.text.push_str(text);
        self.glyphs.extend(shaped.glyphs.iter().map(|g| Glyph {
            range: g.range.start + start..g.range.end + start,
            ..g.clone()
        }));
    }

    /// Widens the last glyph's advance so that the next glyph starts at `x`
    /// (from `at`, in the picture's units).
    pub fn advance_to(&mut self, x: f64) {
        let extra = x - self.width();
        if let Some(last) = self.glyphs.last_mut() {
            last.advance += (extra / self.size) as f32;
        }
    }
}

/// A text shaped in one face: its glyphs, left to right, their ranges in the
/// text.
#[derive(Debug, Clone, PartialEq)]
pub struct Shaped {
    pub face: FaceData,
    pub glyphs: Arc<[Glyph]>,
}

/// `text` shaped in the face `book` picks for `font` (the face usvg would draw
/// it with), with the kept shaping plan: the glyphs whose advances the
/// typesetter's widths sum ([`super::width`]).
pub fn shaped(text: &str, font: &FontSpec, book: &FontBook) -> Result<Shaped, TextError> {
    let (shaping, face) = book
        .query_with_data(&font.family, font.weight, font.italic)
        .ok_or_else(|| unknown_font(font, book))?;
    Ok(Shaped {
        face,
        glyphs: kept_glyphs(shaping, text).glyphs,
    })
}

/// Width of `text` (one line, no markup) in millimetres at `size` mm: what
/// [`super::width`] gives, to the bit, measured from the glyphs [`shaped`]
/// keeps. Text that is measured and then drawn as glyph runs (a rulebook's
/// words) is shaped once for both.
pub fn width(text: &str, size: f64, font: &FontSpec, book: &FontBook) -> Result<f64, TextError> {
    let face = face_for(font, book)?;
    if text.is_empty() {
        return Ok(0.0);
    }
    Ok(to_mm(face, kept_glyphs(face, text).advance, size))
}

/// Texts whose glyphs are kept; past this the kept ones are forgotten and
/// shaped again when asked.
const GLYPHS_KEPT: usize = 50_000;

/// A text's glyphs in one face, and their advance in font units (the sum
/// [`super::width`] measures: the same shaping, so the same integer).
#[derive(Clone)]
struct Kept {
    glyphs: Arc<[Glyph]>,
    advance: i64,
}

/// `text`'s glyphs in `shaping`, kept per face and text for the whole process:
/// a rulebook's words repeat, page after page and game after game, and shaping
/// one costs far more than finding it.
fn kept_glyphs(shaping: &'static rustybuzz::Face<'static>, text: &str) -> Kept {
    static GLYPHS: OnceLock<kept::PerFace<Kept>> = OnceLock::new();
    GLYPHS
        .get_or_init(|| kept::PerFace::new(GLYPHS_KEPT))
        .get_or_make(shaping, text, || shape_glyphs(shaping, text))
}

/// `text` shaped in `shaping` in its own direction and script, as glyphs in
/// ems, and their advance in font units: from its kept [`piece_shaping`] where
/// its script runs left to right (the same shaping: a rulebook's words are
/// measured and set on faces too), else shaped here with the kept plan.
fn shape_glyphs(shaping: &'static rustybuzz::Face<'static>, text: &str) -> Kept {
    let upem = f32::from(shaping.units_per_em() as u16);
    let em = |v: i32| v as f32 / upem;
    let (kept, _, direction) = piece_shaping(shaping, text);
    if direction == rustybuzz::Direction::LeftToRight {
        let glyphs = kept
            .iter()
            .enumerate()
            .map(|(i, g)| Glyph {
                id: g.id,
                advance: em(g.x_advance),
                x_offset: em(g.x_offset),
                y_offset: em(g.y_offset),
                range: range_of_cluster(|j| kept[j].cluster, kept.len(), i, text.len()),
            })
            .collect();
        return Kept {
            glyphs,
            advance: sum_advances(&kept),
        };
    }
    shaped_whole(shaping, text)
}

/// `text` shaped in `shaping` in its own direction and script with the kept
/// plan, as glyphs in ems, and their advance in font units.
fn shaped_whole(shaping: &'static rustybuzz::Face<'static>, text: &str) -> Kept {
    let upem = f32::from(shaping.units_per_em() as u16);
    let out = shape(shaping, text);
    let (infos, positions) = (out.glyph_infos(), out.glyph_positions());
    let em = |v: i32| v as f32 / upem;
    let glyphs = infos
        .iter()
        .zip(positions)
        .enumerate()
        .map(|(i, (info, pos))| Glyph {
            id: info.glyph_id,
            advance: em(pos.x_advance),
            x_offset: em(pos.x_offset),
            y_offset: em(pos.y_offset),
            range: cluster_range(infos, i, text.len()),
        })
        .collect();
    Kept {
        glyphs,
        advance: positions.iter().map(|p| p.x_advance as i64).sum(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_measured_from_its_kept_glyphs_is_as_wide_as_the_templates_measure_it() {
        // Every word of a real rulebook (with its punctuation, as the line
        // breaking measures it), a few syllables and letters, in each style at
        // two sizes: the same width to the bit, and the glyphs drawn are the
        // ones the measure kept.
        let book = FontBook::builtin();
        let rules = include_str!("../../data/interstate-trucking/rules.md");
        let mut texts: Vec<&str> = rules.split_whitespace().collect();
        texts.extend([
            "",
            " ",
            "-",
            "Wa",
            "ter-",
            "AVATAR",
            "office",
            "Pay $3 — now!",
        ]);
        texts.sort_unstable();
        texts.dedup();
        assert!(texts.len() > 300, "{}", texts.len());
        let plain = FontSpec::default();
        for font in [
            plain.clone(),
            plain.styled(true, false),
            plain.styled(false, true),
            plain.styled(true, true),
        ] {
            for size in [3.5, 4.2333] {
                for text in &texts {
                    let kept = width(text, size, &font, &book).unwrap();
                    let advance = super::super::width(text, size, &font, &book).unwrap();
                    assert_eq!(kept.to_bits(), advance.to_bits(), "{text:?} in {font:?}");
                }
            }
            let a = shaped("Portland", &font, &book).unwrap();
            let b = shaped("Portland", &font, &book).unwrap();
            assert!(Arc::ptr_eq(&a.glyphs, &b.glyphs), "kept");
        }
    }

    #[test]
    fn a_words_kept_glyphs_are_the_glyphs_of_shaping_it_in_its_own_direction() {
        // Every word of every seed game in every built-in face: the glyphs
        // taken from the word's kept left-to-right shaping are, to the bit,
        // those of shaping it in its own direction and script; a word that
        // runs right to left is shaped so (Latin after Hebrew is kerned the
        // other way round).
        let words = crate::shaping::words::tests::words();
        assert!(words.len() > 3_000, "{}", words.len());
        for face in crate::shaping::words::tests::faces() {
            for word in &words {
                let kept = kept_glyphs(face, word);
                let whole = shaped_whole(face, word);
                assert_eq!(kept.glyphs, whole.glyphs, "{word:?}");
                assert_eq!(kept.advance, whole.advance, "{word:?}");
            }
        }
        let lato = crate::shaping::words::tests::faces()[0];
        let (ltr, _, direction) = piece_shaping(lato, "שלום To");
        assert_eq!(direction, rustybuzz::Direction::RightToLeft);
        let ltr: i64 = ltr.iter().map(|g| i64::from(g.x_advance)).sum();
        assert_ne!(ltr, shaped_whole(lato, "שלום To").advance);
    }

    #[test]
    fn a_word_is_as_wide_as_the_typesetter_measures_it() {
        let book = FontBook::builtin();
        for font in [FontSpec::default(), FontSpec::default().styled(true, true)] {
            for text in ["Memphis", "AVATAR Te Yo", "office", "Pay $3 — now!"] {
                let s = shaped(text, &font, &book).unwrap();
                let mut run = GlyphRun::new(s.face, 4.0, (0.0, 0.0), [0, 0, 0]);
                run.push(text, &s);
                let want = super::super::width(text, 4.0, &font, &book).unwrap();
                assert!((run.width() - want).abs() < 1e-4, "{text}");
                assert_eq!(run.text, text);
                let covered: usize = run.glyphs.iter().map(|g| g.range.len()).sum();
                assert!(covered >= text.len(), "{text}: every byte set");
            }
        }
        let mut run = GlyphRun::new(
            shaped("a", &FontSpec::default(), &book).unwrap().face,
            4.0,
            (0.0, 0.0),
            [0; 3],
        );
        run.push("a", &shaped("a", &FontSpec::default(), &book).unwrap());
        run.advance_to(10.0);
        assert!((run.width() - 10.0).abs() < 1e-5);
    }
}
