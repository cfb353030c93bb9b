//! Shaping with the faces a font book keeps for the whole process: shaping plans
//! kept per face, direction, script and language; results kept per face and text
//! ([`kept`]); and a line's glyphs put together from its words' kept shapings
//! where the face provably shapes it so ([`words`]). The text engine measures
//! and labels with these, and usvg gets a face's lines from them (`usvg_patch`).

pub(crate) mod kept;
mod spaced;
pub(crate) mod words;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Shapes `text` with `face`, keeping the shaping plan per face, direction,
/// script and language (building one walks the font's feature lists); the same
/// glyphs as `rustybuzz::shape`.
pub(crate) fn shape(face: &'static rustybuzz::Face<'static>, text: &str) -> rustybuzz::GlyphBuffer {
    shape_with(face, text, None, None).0
}

/// [`shape`] in `direction` and `script` (for `None`, the ones the text's
/// letters have), with the direction and script the text's letters have (what
/// [`shape`] shapes in).
pub(crate) fn shape_with(
    face: &'static rustybuzz::Face<'static>,
    text: &str,
    direction: Option<rustybuzz::Direction>,
    script: Option<rustybuzz::Script>,
) -> (
    rustybuzz::GlyphBuffer,
    rustybuzz::Direction,
    rustybuzz::Script,
) {
    type Key = (
        usize,
        rustybuzz::Direction,
        rustybuzz::Script,
        Option<rustybuzz::Language>,
    );
    static PLANS: OnceLock<Mutex<HashMap<Key, Arc<rustybuzz::ShapePlan>>>> = OnceLock::new();
    let mut buf = rustybuzz::UnicodeBuffer::new();
    buf.push_str(text);
    if let Some(s) = script {
        buf.set_script(s);
    }
    buf.guess_segment_properties();
    let guessed = buf.direction();
    if let Some(d) = direction {
        buf.set_direction(d);
    }
    let script = buf.script();
    if script == rustybuzz::script::UNKNOWN {
        return (rustybuzz::shape(face, &[], buf), guessed, script);
    }
    let key = (
        face as *const rustybuzz::Face<'static> as usize,
        buf.direction(),
        script,
        buf.language(),
    );
    let plans = PLANS.get_or_init(Default::default);
    let kept = plans.lock().ok().and_then(|m| m.get(&key).cloned());
    let plan = match kept {
        Some(p) => p,
        None => {
            let p = Arc::new(rustybuzz::ShapePlan::new(
                face,
                key.1,
                Some(script),
                key.3.as_ref(),
                &[],
            ));
            if let Ok(mut m) = plans.lock() {
                m.insert(key, p.clone());
            }
            p
        }
    };
    (
        rustybuzz::shape_with_plan(face, &plan, buf),
        guessed,
        script,
    )
}

/// A glyph of a text shaped left to right (a label, or a line usvg lays out),
/// before its bytes are known: its cluster (the byte it starts at) instead;
/// lengths in font units.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ShapedGlyph {
    pub(crate) id: u32,
    pub(crate) x_advance: i32,
    pub(crate) x_offset: i32,
    pub(crate) y_offset: i32,
    pub(crate) y_advance: i32,
    pub(crate) cluster: u32,
}

/// `text` shaped left to right as a label (in `script`; for `None`, the
/// text's own), the script it was shaped in, and the direction its script has.
pub(crate) fn label_shaping(
    face: &'static rustybuzz::Face<'static>,
    text: &str,
    script: Option<rustybuzz::Script>,
) -> (Vec<ShapedGlyph>, rustybuzz::Script, rustybuzz::Direction) {
    let (out, guessed, script) =
        shape_with(face, text, Some(rustybuzz::Direction::LeftToRight), script);
    let glyphs = out
        .glyph_infos()
        .iter()
        .zip(out.glyph_positions())
        .map(|(info, pos)| ShapedGlyph {
            id: info.glyph_id,
            x_advance: pos.x_advance,
            x_offset: pos.x_offset,
            y_offset: pos.y_offset,
            y_advance: pos.y_advance,
            cluster: info.cluster,
        })
        .collect();
    (glyphs, script, guessed)
}

/// The key a text shaped in `script` (not its own) is kept under: the script's
/// four-letter tag, then the text.
pub(crate) fn script_keyed(script: rustybuzz::Script, text: &str) -> String {
    format!("{}{text}", script.tag())
}

/// Shapings of pieces and other texts kept (the words of a sheet's labels
/// repeat from sheet to sheet, a game's words from face to face and in its
/// rulebook; the seed games keep about 4,800); past this many the kept ones
/// are forgotten.
const PIECES_KEPT: usize = 20_000;

/// A piece of a line ([`words::pieces`]), or any text that does not cut into
/// pieces (a word, a number), shaped left to right, as [`label_shaping`] shapes
/// it in the script its letters have: its glyphs, that script, and the
/// direction the script has; kept per face and text. Where that direction is
/// left to right, this is the shaping in the text's own direction too (the
/// same buffer, so the same glyphs), so measuring a text
/// (`text::advance_and_script`, which sums a line's pieces), a rulebook's
/// glyphs (`text::glyphs`), a label and a line or word usvg lays out
/// ([`glyphs_from_pieces`], `usvg_patch`) all take their glyphs from here, and
/// each text is shaped once for all of them.
pub(crate) fn piece_shaping(
    face: &'static rustybuzz::Face<'static>,
    piece: &str,
) -> (Arc<[ShapedGlyph]>, rustybuzz::Script, rustybuzz::Direction) {
    static KEPT: OnceLock<kept::PerFace<PieceShaping>> = OnceLock::new();
    KEPT.get_or_init(|| kept::PerFace::new(PIECES_KEPT))
        .get_or_make(face, piece, || {
            spaced::from_word(face, piece).unwrap_or_else(|| {
                let (glyphs, script, guessed) = label_shaping(face, piece, None);
                let shaped = (glyphs.into(), script, guessed);
                spaced::learn(face, piece, &shaped);
                shaped
            })
        })
}

/// What [`piece_shaping`] keeps of a piece.
pub(crate) type PieceShaping = (Arc<[ShapedGlyph]>, rustybuzz::Script, rustybuzz::Direction);

/// The glyphs of `text` shaped whole, left to right, in the script its letters
/// have (what [`label_shaping`] gives with `None`), from its [`words::pieces`],
/// each shaped once and kept: the pieces' glyphs one after another, the space
/// two pieces share taken from the piece it starts, clusters moved to where
/// each piece starts. `None` where [`words::pieces`] gives none. Sheet labels
/// are shaped so, and usvg gets a face's lines so (`usvg_patch`).
pub(crate) fn glyphs_from_pieces(
    face: &'static rustybuzz::Face<'static>,
    text: &str,
) -> Option<Vec<ShapedGlyph>> {
    let kept = |piece: &str| {
        let (glyphs, script, _) = piece_shaping(face, piece);
        (glyphs, script)
    };
    let in_script = |piece: &str, script| in_script_shaping(face, piece, script).0;
    let (pieces, _) = words::pieces(face, text, kept, in_script)?;
    let mut glyphs = Vec::with_capacity(text.len());
    for (piece, shaped) in pieces {
        let own = &shaped[..shaped.len() - usize::from(piece.shares_end)];
        glyphs.extend(own.iter().map(|g| ShapedGlyph {
            cluster: g.cluster + piece.start as u32,
            ..*g
        }));
    }
    Some(glyphs)
}

/// `piece` (a piece of a line whose letters have no script: a number, a space)
/// shaped left to right in `script`, the line's, as [`label_shaping`] shapes
/// it, and the direction `script` has; kept per face, script and piece. A
/// line's glyphs ([`glyphs_from_pieces`]) and its advance (`text::summed`) take
/// the piece from here.
pub(crate) fn in_script_shaping(
    face: &'static rustybuzz::Face<'static>,
    piece: &str,
    script: rustybuzz::Script,
) -> (Arc<[ShapedGlyph]>, rustybuzz::Direction) {
    static IN_SCRIPT: OnceLock<kept::PerFace<(Arc<[ShapedGlyph]>, rustybuzz::Direction)>> =
        OnceLock::new();
    IN_SCRIPT
        .get_or_init(|| kept::PerFace::new(PIECES_KEPT))
        .get_or_make(face, &script_keyed(script, piece), || {
            let (glyphs, _, direction) = label_shaping(face, piece, Some(script));
            (glyphs.into(), direction)
        })
}
