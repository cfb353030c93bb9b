//! A piece of a line (a word with a space before it, after it or both,
//! [`super::words::pieces`]) put together from its word's kept shaping and the
//! spaces' kerning, where the face provably shapes it so
//! ([`super::words::spaces_apart`]): the word's glyphs as they are alone, the
//! space before it moved by the pair it starts with the word's first glyph,
//! the word's last glyph by the pair it starts with the space after it. Those
//! two adjustments depend on the two glyphs alone (and the shaping plan: face
//! and script); each is learned from the first piece shaped whole that has it,
//! so a word met as "word", " word", "word " and " word " is shaped once, and
//! a few pieces per letter are shaped whole.

use std::collections::HashMap;
#[cfg(test)]
use std::sync::Arc;
use std::sync::{Mutex, OnceLock};

use super::ShapedGlyph;

/// What the pieces shaped whole taught about one face and script.
#[derive(Default)]
struct Edges {
    /// The space before a word, by the word's first glyph.
    lead: HashMap<u32, ShapedGlyph>,
    /// How the word's last glyph moves with a space after it (advance, x and
    /// y offset, y advance), by that glyph.
    trail: HashMap<u32, [i32; 4]>,
    /// The space that ends a piece.
    end: Option<ShapedGlyph>,
}

/// Edges per face address and script.
type Learned = HashMap<(usize, rustybuzz::Script), Edges>;

/// The edges learned, and the faces whose pieces are shaped whole from now on:
/// one of their pieces shaped whole did not come out as its word with the
/// spaces next to it (which [`super::words::spaces_apart`] rules out; a check,
/// not a path the built-in fonts take).
fn learned() -> &'static Mutex<(Learned, Vec<usize>)> {
    static LEARNED: OnceLock<Mutex<(Learned, Vec<usize>)>> = OnceLock::new();
    LEARNED.get_or_init(Default::default)
}

/// `piece` cut into its space before, its word and its space after, where the
/// word's characters all shape alone in `face` and the face shapes pieces
/// apart ([`super::words::spaces_apart`]); `None` for anything else (a piece
/// without a space at either end, a word with a space in it).
fn cut<'a>(
    face: &'static rustybuzz::Face<'static>,
    piece: &'a str,
) -> Option<(bool, &'a str, bool)> {
    let lead = piece.starts_with(' ');
    let trail = piece.len() > usize::from(lead) && piece.ends_with(' ');
    let word = &piece[usize::from(lead)..piece.len() - usize::from(trail)];
    if !(lead || trail) || word.is_empty() || word.contains(' ') {
        return None;
    }
    let key = face as *const rustybuzz::Face<'static> as usize;
    if learned().lock().ok()?.1.contains(&key) {
        return None;
    }
    (super::words::shape_alone(face, word) && super::words::spaces_apart(face))
        .then_some((lead, word, trail))
}

/// `piece` from its word's kept shaping ([`super::piece_shaping`]) and the
/// edges learned so far; `None` where it is not cut so ([`cut`]) or an edge
/// is not known yet.
pub(super) fn from_word(
    face: &'static rustybuzz::Face<'static>,
    piece: &str,
) -> Option<super::PieceShaping> {
    let (lead, word, trail) = cut(face, piece)?;
    let (glyphs, script, direction) = super::piece_shaping(face, word);
    let (first, last) = (glyphs.first()?.id, glyphs.last()?.id);
    let key = (face as *const rustybuzz::Face<'static> as usize, script);
    let (before, moved, end) = {
        let m = learned().lock().ok()?;
        let edges = m.0.get(&key)?;
        (
            if lead {
                Some(*edges.lead.get(&first)?)
            } else {
                None
            },
            if trail {
                Some(*edges.trail.get(&last)?)
            } else {
                None
            },
            if trail { Some(edges.end?) } else { None },
        )
    };
    let shift = u32::from(lead);
    let mut out = Vec::with_capacity(glyphs.len() + 2);
    out.extend(before);
    out.extend(glyphs.iter().map(|g| ShapedGlyph {
        cluster: g.cluster + shift,
        ..*g
    }));
    if let (Some(d), Some(end)) = (moved, end) {
        let g = out.last_mut()?;
        g.x_advance += d[0];
        g.x_offset += d[1];
        g.y_offset += d[2];
        g.y_advance += d[3];
        out.push(ShapedGlyph {
            cluster: (usize::from(lead) + word.len()) as u32,
            ..end
        });
    }
    Some((out.into(), script, direction))
}

/// Learns the edges of `piece` from its shaping whole, `shaped`, and its
/// word's kept shaping, where it is cut so ([`cut`]); a piece that does not
/// come out as its word with the spaces next to it turns the face's pieces
/// off.
pub(super) fn learn(
    face: &'static rustybuzz::Face<'static>,
    piece: &str,
    shaped: &super::PieceShaping,
) {
    let Some((lead, word, trail)) = cut(face, piece) else {
        return;
    };
    let (glyphs, script, _) = super::piece_shaping(face, word);
    let (whole, whole_script, _) = shaped;
    let lead_n = usize::from(lead);
    let inner = whole.get(lead_n..whole.len().saturating_sub(usize::from(trail)));
    let space = face.glyph_index(' ').map(|g| u32::from(g.0));
    let n = glyphs.len();
    let apart = *whole_script == script
        && n > 0
        && inner.is_some_and(|inner| {
            inner.len() == n
                && inner
                    .iter()
                    .zip(glyphs.iter())
                    .enumerate()
                    .all(|(i, (a, b))| {
                        let position =
                            |g: &ShapedGlyph| (g.x_advance, g.x_offset, g.y_offset, g.y_advance);
                        a.id == b.id
                            && a.cluster == b.cluster + lead_n as u32
                            && (trail && i + 1 == n || position(a) == position(b))
                    })
        })
        && (!lead || Some(whole[0].id) == space && whole[0].cluster == 0)
        && (!trail
            || Some(whole[whole.len() - 1].id) == space
                && whole[whole.len() - 1].cluster as usize == lead_n + word.len());
    let key = face as *const rustybuzz::Face<'static> as usize;
    let Ok(mut m) = learned().lock() else {
        return;
    };
    // The space after a word is the same after every word.
    let end = m.0.get(&(key, script)).and_then(|e| e.end);
    let placed = |g: &ShapedGlyph| (g.id, g.x_advance, g.x_offset, g.y_offset, g.y_advance);
    let same_end = !trail || end.is_none_or(|e| whole.last().map(placed) == Some(placed(&e)));
    if !apart || !same_end {
        m.1.push(key);
        return;
    }
    let edges = m.0.entry((key, script)).or_default();
    if lead {
        edges.lead.insert(glyphs[0].id, whole[0]);
    }
    if trail {
        let (a, b) = (whole[whole.len() - 2], glyphs[n - 1]);
        edges.trail.insert(
            b.id,
            [
                a.x_advance - b.x_advance,
                a.x_offset - b.x_offset,
                a.y_offset - b.y_offset,
                a.y_advance - b.y_advance,
            ],
        );
        edges.end = Some(whole[whole.len() - 1]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shaping::label_shaping;
    use crate::shaping::words::spaces_apart;
    use crate::shaping::words::tests::{faces, words};

    #[test]
    fn a_piece_from_its_word_and_the_spaces_is_the_piece_shaped_whole() {
        // Every word of every seed game as a piece with a space before it,
        // after it and both, in every built-in face: the edges are learned from
        // all of them shaped whole, then every piece is put together from its
        // word and the edges its glyphs have (learned from whichever piece had
        // them last), and compared with it shaped whole, glyph by glyph.
        let words = words();
        for face in faces() {
            assert!(spaces_apart(face));
            let pieces: Vec<String> = words
                .iter()
                .filter(|w| !w.is_empty() && !w.contains(' '))
                .flat_map(|w| [format!(" {w} "), format!(" {w}"), format!("{w} ")])
                .collect();
            let whole = |p: &str| {
                let (glyphs, script, direction) = label_shaping(face, p, None);
                (Arc::<[ShapedGlyph]>::from(glyphs), script, direction)
            };
            for p in &pieces {
                learn(face, p, &whole(p));
            }
            let mut put_together = 0;
            for p in &pieces {
                let Some((glyphs, script, direction)) = from_word(face, p) else {
                    continue;
                };
                put_together += 1;
                let (want, want_script, want_direction) = whole(p);
                assert_eq!(format!("{glyphs:?}"), format!("{want:?}"), "{p:?}");
                assert_eq!((script, direction), (want_script, want_direction), "{p:?}");
            }
            assert!(
                put_together * 10 > pieces.len() * 9,
                "{put_together} of {}",
                pieces.len()
            );
            assert!(cut(face, " a ").is_some(), "the face's pieces stay on");
        }
    }

    #[test]
    fn a_pair_that_moves_its_second_glyph_keeps_pieces_whole() {
        // A GPOS table with one pair lookup, its subtable's second value format
        // 0 (nothing moves the second glyph) or 4 (its advance), directly and
        // through an extension lookup.
        let gpos = |extension: bool, format2: u16| {
            let mut t = vec![0, 1, 0, 0, 0, 0, 0, 0, 0, 10];
            // Lookup list at 10: one lookup at +4.
            t.extend([0, 1, 0, 4]);
            // The lookup at 14: type, flags, one subtable at +8.
            t.extend([0, if extension { 9 } else { 2 }, 0, 0, 0, 1, 0, 8]);
            if extension {
                // Extension at 22: format 1, type 2, the subtable at +8.
                t.extend([0, 1, 0, 2, 0, 0, 0, 8]);
            }
            // PairPos format 1: coverage offset, value formats.
            t.extend([0, 1, 0, 0, 0, 4]);
            t.extend(format2.to_be_bytes());
            t
        };
        for extension in [false, true] {
            assert_eq!(
                super::super::words::no_second_value_records(&gpos(extension, 0)),
                Some(true)
            );
            assert_eq!(
                super::super::words::no_second_value_records(&gpos(extension, 4)),
                Some(false)
            );
        }
        assert_eq!(super::super::words::no_second_value_records(&[0, 1]), None);
    }
}
