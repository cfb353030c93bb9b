//! A line cut at its spaces into pieces (each word with the spaces next to
//! it), whose kept shapings give the line's advance and glyphs where that is
//! provably what shaping the whole line gives: no lookup of the face can
//! see its space glyph (so nothing is substituted or positioned across a
//! space), and every character of the line is one that shapes alone (no marks,
//! no joiners or other format characters, no script that needs a complex
//! shaper), so the words shaped one by one in the line's script give the glyphs
//! the line gives. A wrap measures each line again with every word it tries,
//! so summing kept words instead of shaping each new line saves most of the
//! measuring. Anything else is shaped whole, as before.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rustybuzz::ttf_parser::{
    self,
    gpos::{PairAdjustment, PositioningSubtable, ValueRecord},
    gsub::SubstitutionSubtable,
    opentype_layout::{
        ChainedContextLookup, ContextLookup, Coverage, LayoutTable, SequenceRuleSets,
    },
    GlyphId,
};

/// Whether `ok` holds for every entry `0..len` of a lazy list, a null or
/// unparsable entry counting as `null`.
fn every<T>(len: u16, get: impl Fn(u16) -> Option<T>, null: bool, ok: impl Fn(T) -> bool) -> bool {
    (0..len).all(|i| get(i).map_or(null, &ok))
}

/// Whether no coverage of a rule's positions has `g`; an entry that does not
/// parse counts as having it.
macro_rules! coverages_clear {
    ($list:expr, $g:expr) => {{
        let list = $list;
        every(list.len(), |i| list.get(i), false, |c| !covers(&c, $g))
    }};
}

fn covers(c: &Coverage<'_>, g: GlyphId) -> bool {
    c.contains(g)
}

/// One piece of a line cut at its spaces: a word with the spaces next to it.
pub(crate) struct Piece {
    pub(crate) text: String,
    /// Where the piece starts in the line, in bytes.
    pub(crate) start: usize,
    /// Whether the piece ends with a space the next piece starts with.
    pub(crate) shares_end: bool,
}

/// `text` cut into [`Piece`]s, each with what `kept` gives for it when its
/// script is the line's, or `in_script` in the line's script when it has
/// none (a number, a space); and the line's script (the first script a
/// piece's letters have). Each piece shaped alone gives the glyphs it has in
/// the line, and a space two pieces share takes its position from the piece
/// it starts. `None` when that might not hold: no space, two spaces in a row,
/// a character that does not shape alone or that `face` has no glyph for, a
/// face whose lookups reach further across a space ([`words_add_up`]), pieces
/// in two scripts.
pub(crate) fn pieces<V>(
    face: &'static rustybuzz::Face<'static>,
    text: &str,
    kept: impl Fn(&str) -> (V, rustybuzz::Script),
    in_script: impl Fn(&str, rustybuzz::Script) -> V,
) -> Option<(Vec<(Piece, V)>, rustybuzz::Script)> {
    if !text.contains(' ') || text.contains("  ") || text.trim_matches(' ').is_empty() {
        return None;
    }
    let chars = summable_chars(face)?;
    if !text
        .chars()
        .all(|c| chars.get(c as usize).copied().unwrap_or(false))
    {
        return None;
    }
    let unknown = rustybuzz::script::UNKNOWN;
    let words: Vec<&str> = text.split(' ').collect();
    let last = words.len() - 1;
    let mut line = unknown;
    let mut pieces = Vec::with_capacity(words.len());
    let mut at = 0;
    for (i, word) in words.iter().enumerate() {
        let word_at = at;
        at += word.len() + 1;
        if word.is_empty() {
            continue;
        }
        let lead = i > 0;
        let piece = Piece {
            text: format!(
                "{}{word}{}",
                if lead { " " } else { "" },
                if i < last { " " } else { "" }
            ),
            start: word_at - usize::from(lead),
            shares_end: i < last && !words[i + 1].is_empty(),
        };
        let (value, script) = kept(&piece.text);
        if line == unknown {
            line = script;
        } else if script != line && script != unknown {
            return None;
        }
        pieces.push((piece, value, script));
    }
    let pieces = pieces
        .into_iter()
        .map(|(piece, value, script)| {
            if script == line {
                (piece, value)
            } else {
                let value = in_script(&piece.text, line);
                (piece, value)
            }
        })
        .collect();
    Some((pieces, line))
}

/// The characters that shape alone: a line of them, cut at its spaces, gives
/// the same glyphs word by word. Latin letters, digits, punctuation and
/// symbols; not marks, format characters (joiners, soft hyphens, tags),
/// variation selectors, emoji modifiers, the fraction slash or other scripts,
/// which attach to or change what is next to them.
const SHAPE_ALONE: [std::ops::RangeInclusive<u32>; 8] = [
    0x20..=0x7e,
    0xa0..=0xac,
    0xae..=0x24f,
    0x2010..=0x2027,
    0x2030..=0x2043,
    0x2045..=0x205e,
    0x20a0..=0x20c0,
    0x2100..=0x2bff,
];

/// One past the last code point of [`SHAPE_ALONE`].
const SHAPE_ALONE_END: u32 = 0x2c00;

/// Whether every character of `text` shapes alone and has a glyph in `face`,
/// a face whose words add up ([`summable_chars`]).
pub(crate) fn shape_alone(face: &'static rustybuzz::Face<'static>, text: &str) -> bool {
    summable_chars(face).is_some_and(|chars| {
        text.chars()
            .all(|c| chars.get(c as usize).copied().unwrap_or(false))
    })
}

/// Whether `c` is one of the characters that shape alone ([`SHAPE_ALONE`]).
#[cfg(test)]
fn shapes_alone(c: char) -> bool {
    SHAPE_ALONE.iter().any(|r| r.contains(&(c as u32)))
}

/// Whether a line's advance in `face` is the sum of its words' advances, each
/// shaped with the spaces next to it, less the spaces two words share: no
/// substitution sees the space glyph (it is in no coverage table, no rule's
/// sequence or class, no ligature), no positioning but single adjustments and
/// kerning pairs sees it, and no pair ending in a space moves the space (which
/// would keep the pair the space starts from being applied), no lookup skips
/// it (base glyphs ignored), no lookup picks glyphs at random (`rand`, whose
/// choices run on through the buffer), the `kern` table holds pairs only, and
/// no AAT table shapes instead. A pair that a space starts or ends is then
/// positioned from those two glyphs alone, in the line as in the word with its
/// spaces; a contextual substitution may look at a space before or after the
/// glyph it changes, but no further (a word's first or last glyph is shaped
/// with the space next to it). Only the lookups of the features rustybuzz
/// applies to horizontal text by default are looked at (and those they call):
/// fractions (`frac`, `numr`, `dnom`) apply only around a fraction slash,
/// which does not shape alone. Worked out once per face.
#[cfg(test)]
pub(super) fn words_add_up(face: &'static rustybuzz::Face<'static>) -> bool {
    summable_chars(face).is_some()
}

/// For a face whose words add up ([`words_add_up`]), which characters shape
/// alone and have a glyph in it, by code point (a line of other characters
/// might not add up: a missing one is decomposed or replaced); `None` for
/// another face. Worked out once per face.
fn summable_chars(face: &'static rustybuzz::Face<'static>) -> Option<Arc<[bool]>> {
    type Known = HashMap<usize, Option<Arc<[bool]>>>;
    static KNOWN: OnceLock<Mutex<Known>> = OnceLock::new();
    let key = face as *const rustybuzz::Face<'static> as usize;
    let known = KNOWN.get_or_init(Default::default);
    if let Some(k) = known.lock().ok().and_then(|m| m.get(&key).cloned()) {
        return k;
    }
    let mapped = mapped(face);
    let chars = adds_up(face, &mapped).then(|| {
        let mut chars = vec![false; SHAPE_ALONE_END as usize];
        for (c, _) in &mapped {
            chars[*c as usize] = true;
        }
        chars.into()
    });
    if let Ok(mut m) = known.lock() {
        m.insert(key, chars.clone());
    }
    chars
}

/// The characters that shape alone that `face` has a glyph for, with their
/// glyphs (the character map's own list of characters, looked up in the map as
/// shaping looks them up).
fn mapped(face: &ttf_parser::Face<'_>) -> Vec<(char, GlyphId)> {
    let mut listed = std::collections::BTreeSet::new();
    if let Some(cmap) = face.tables().cmap {
        for sub in cmap.subtables {
            if sub.is_unicode() {
                sub.codepoints(|c| {
                    if c < SHAPE_ALONE_END && SHAPE_ALONE.iter().any(|r| r.contains(&c)) {
                        listed.insert(c);
                    }
                });
            }
        }
    }
    listed
        .into_iter()
        .filter_map(char::from_u32)
        .filter_map(|c| Some((c, face.glyph_index(c)?)))
        .collect()
}

/// Whether `face` adds words up ([`words_add_up`]) for lines of the
/// characters `mapped` (those that shape alone, with their glyphs).
fn adds_up(face: &ttf_parser::Face<'_>, mapped: &[(char, GlyphId)]) -> bool {
    let Some(space) = face.glyph_index(' ') else {
        return false;
    };
    let tables = face.tables();
    if tables.morx.is_some() || tables.kerx.is_some() || tables.trak.is_some() {
        return false;
    }
    if let Some(gdef) = tables.gdef {
        if gdef.glyph_class(space) == Some(ttf_parser::gdef::GlyphClass::Mark) {
            return false;
        }
    }
    if let Some(kern) = tables.kern {
        for sub in kern.subtables {
            if sub.has_state_machine || sub.variable || sub.has_cross_stream {
                return false;
            }
        }
    }
    let Some(substitutions) = substitutions_in_use(face) else {
        return false;
    };
    let reachable = reachable(face, mapped, &substitutions);
    let seen = |c: &Coverage<'_>| covered(c).any(|(g, _)| reachable[usize::from(g.0)]);
    if !substitutions
        .iter()
        .all(|s| !seen(&s.coverage()) || substitution_local(s, space))
    {
        return false;
    }
    tables.gpos.is_none_or(|t| {
        layout_clear(&t)
            && positionings_all(&t, |s| !seen(&s.coverage()) || positioning_local(s, space))
    })
}

/// Whether every positioning subtable shaping can apply ([`in_use`]) passes `ok`
/// (`false` where the lookups cannot be read).
fn positionings_all(
    table: &LayoutTable<'_>,
    ok: impl Fn(&PositioningSubtable<'_>) -> bool,
) -> bool {
    in_use::<PositioningSubtable>(table, nested_positionings).is_some_and(|used| {
        used.iter().all(|l| {
            let subs = l.subtables;
            every(
                subs.len(),
                |i| subs.get::<PositioningSubtable>(i),
                false,
                |s| ok(&s),
            )
        })
    })
}

/// The subtables of the substitutions shaping can apply ([`in_use`]); `None`
/// where one does not parse, a lookup skips base glyphs or ligatures
/// ([`layout_clear`]) or the face picks glyphs at random (`rand`).
fn substitutions_in_use<'a>(face: &ttf_parser::Face<'a>) -> Option<Vec<SubstitutionSubtable<'a>>> {
    let mut substitutions = Vec::new();
    if let Some(t) = face.tables().gsub {
        let rand = ttf_parser::Tag::from_bytes(b"rand");
        if !layout_clear(&t) || t.features.into_iter().any(|f| f.tag == rand) {
            return None;
        }
        for l in in_use::<SubstitutionSubtable>(&t, nested_substitutions)? {
            let subs = l.subtables;
            for i in 0..subs.len() {
                substitutions.push(subs.get::<SubstitutionSubtable>(i)?);
            }
        }
    }
    Some(substitutions)
}

/// Whether a piece of a line (a word with a space before it, after it or
/// both, [`pieces`]) shapes in `face` as the word alone with the spaces put
/// next to it, where the word's characters are ones that shape alone and
/// have a glyph ([`summable_chars`]): the words add up ([`words_add_up`]); no
/// substitution that can apply sees the space at all (not in a rule's
/// context either, so the word's glyphs are those it has alone); the only
/// positionings that can apply are kerning pairs, none of which moves its
/// second glyph (every `PairPos` subtable of the face has no second value
/// record, so no glyph is skipped as a pair's start; a `kern` table, whose
/// pairs do move it, is never applied: [`kerns_every_script`]); and no glyph the line
/// can hold is a mark (which a lookup could skip to kern across). A pair's
/// adjustment then depends on its two glyphs alone: the space before the word
/// is moved by the pair it starts with the word's first glyph, the word's last
/// glyph by the pair it starts with the space after it, and nothing else
/// differs. Worked out once per face.
pub(crate) fn spaces_apart(face: &'static rustybuzz::Face<'static>) -> bool {
    static KNOWN: OnceLock<Mutex<HashMap<usize, bool>>> = OnceLock::new();
    let key = face as *const rustybuzz::Face<'static> as usize;
    let known = KNOWN.get_or_init(Default::default);
    if let Some(k) = known.lock().ok().and_then(|m| m.get(&key).copied()) {
        return k;
    }
    let apart = summable_chars(face).is_some() && words_apart(face);
    if let Ok(mut m) = known.lock() {
        m.insert(key, apart);
    }
    apart
}

/// [`spaces_apart`] for a face whose words add up.
fn words_apart(face: &ttf_parser::Face<'_>) -> bool {
    let Some(space) = face.glyph_index(' ') else {
        return false;
    };
    let Some(substitutions) = substitutions_in_use(face) else {
        return false;
    };
    let reachable = reachable(face, &mapped(face), &substitutions);
    let seen = |c: &Coverage<'_>| covered(c).any(|(g, _)| reachable[usize::from(g.0)]);
    if !substitutions
        .iter()
        .all(|s| !seen(&s.coverage()) || substitution_clear(s, space))
    {
        return false;
    }
    let tables = face.tables();
    if let Some(gdef) = tables.gdef {
        let mark = Some(ttf_parser::gdef::GlyphClass::Mark);
        let last = reachable.len() - 1;
        if (0..last).any(|g| reachable[g] && gdef.glyph_class(GlyphId(g as u16)) == mark) {
            return false;
        }
    }
    let pairs_only = tables.gpos.is_none_or(|t| {
        positionings_all(&t, |s| {
            !seen(&s.coverage()) || matches!(s, PositioningSubtable::Pair(_))
        })
    });
    pairs_only
        && (tables.kern.is_none() || tables.gpos.is_some_and(|t| kerns_every_script(&t)))
        && face
            .raw_face()
            .table(ttf_parser::Tag::from_bytes(b"GPOS"))
            .is_none_or(|gpos| no_second_value_records(gpos).unwrap_or(false))
}

/// Whether shaping in any script takes its kerning from the GPOS table `table`,
/// never from the `kern` table (whose pairs move their second glyph): the table
/// has a script shaping falls back to (`DFLT`, `dflt` or `latn`), every script
/// has a default language system (what a language it does not list falls back
/// to), and every language system of every script has the `kern` feature.
fn kerns_every_script(table: &LayoutTable<'_>) -> bool {
    let kern = ttf_parser::Tag::from_bytes(b"kern");
    let has_kern = |l: ttf_parser::opentype_layout::LanguageSystem<'_>| {
        l.feature_indices
            .into_iter()
            .any(|i| table.features.get(i).is_some_and(|f| f.tag == kern))
    };
    let fallback = [b"DFLT", b"dflt", b"latn"].map(ttf_parser::Tag::from_bytes);
    table.scripts.into_iter().any(|s| fallback.contains(&s.tag))
        && table.scripts.into_iter().all(|script| {
            let languages = script.languages;
            script.default_language.is_some_and(has_kern)
                && (0..languages.len()).all(|i| languages.get(i).is_some_and(has_kern))
        })
}

/// Whether no `PairPos` subtable of the GPOS table `gpos` (its bytes) has a
/// second value record (its `valueFormat2` is 0), extension subtables
/// followed; `None` where the table does not parse.
pub(super) fn no_second_value_records(gpos: &[u8]) -> Option<bool> {
    let u16_at = |at: usize| -> Option<u16> {
        Some(u16::from_be_bytes([*gpos.get(at)?, *gpos.get(at + 1)?]))
    };
    let u32_at = |at: usize| -> Option<u32> {
        Some(u32::from(u16_at(at)?) << 16 | u32::from(u16_at(at + 2)?))
    };
    let lookups = usize::from(u16_at(8)?);
    for i in 0..usize::from(u16_at(lookups)?) {
        let lookup = lookups + usize::from(u16_at(lookups + 2 + 2 * i)?);
        let kind = u16_at(lookup)?;
        for j in 0..usize::from(u16_at(lookup + 4)?) {
            let mut sub = lookup + usize::from(u16_at(lookup + 6 + 2 * j)?);
            let mut sub_kind = kind;
            if kind == 9 {
                sub_kind = u16_at(sub + 2)?;
                sub += usize::try_from(u32_at(sub + 4)?).ok()?;
            }
            if sub_kind == 2 && u16_at(sub + 6)? != 0 {
                return Some(false);
            }
        }
    }
    Some(true)
}

/// The glyphs `coverage` has, each with its coverage index.
fn covered<'a>(coverage: &Coverage<'a>) -> impl Iterator<Item = (GlyphId, u16)> + 'a {
    let (glyphs, ranges) = match *coverage {
        Coverage::Format1 { glyphs } => (Some(glyphs), None),
        Coverage::Format2 { records } => (None, Some(records)),
    };
    let singles = glyphs
        .into_iter()
        .flat_map(|g| g.into_iter().enumerate())
        .map(|(i, g)| (g, i as u16));
    let ranged = ranges
        .into_iter()
        .flat_map(|r| r.into_iter())
        .flat_map(|r| {
            (r.start.0..=r.end.0).map(move |g| (GlyphId(g), r.value.wrapping_add(g - r.start.0)))
        });
    singles.chain(ranged)
}

/// Which glyphs a line of characters that shape alone can hold at any point of
/// shaping: theirs in `face`'s character map, and every glyph `substitutions`
/// put in place of such glyphs (a ligature counted from its first glyph alone),
/// until no more come. A lookup whose coverage has none of them never applies.
fn reachable(
    face: &ttf_parser::Face<'_>,
    mapped: &[(char, GlyphId)],
    substitutions: &[SubstitutionSubtable<'_>],
) -> Vec<bool> {
    let mut reachable = vec![false; usize::from(face.number_of_glyphs()).max(1) + 1];
    let last = reachable.len() - 1;
    for (_, g) in mapped {
        reachable[usize::from(g.0).min(last)] = true;
    }
    loop {
        let mut found = Vec::new();
        for s in substitutions {
            for (g, i) in covered(&s.coverage()) {
                if !reachable.get(usize::from(g.0)).copied().unwrap_or(false) {
                    continue;
                }
                match s {
                    SubstitutionSubtable::Single(
                        ttf_parser::gsub::SingleSubstitution::Format1 { delta, .. },
                    ) => found.push(GlyphId(g.0.wrapping_add(*delta as u16))),
                    SubstitutionSubtable::Single(
                        ttf_parser::gsub::SingleSubstitution::Format2 { substitutes, .. },
                    ) => found.extend(substitutes.get(i)),
                    SubstitutionSubtable::Multiple(m) => {
                        found.extend(m.sequences.get(i).into_iter().flat_map(|q| q.substitutes))
                    }
                    SubstitutionSubtable::Alternate(a) => found.extend(
                        a.alternate_sets
                            .get(i)
                            .into_iter()
                            .flat_map(|q| q.alternates),
                    ),
                    SubstitutionSubtable::Ligature(l) => {
                        if let Some(set) = l.ligature_sets.get(i) {
                            found.extend((0..set.len()).filter_map(|j| set.get(j)).map(|g| g.glyph))
                        }
                    }
                    SubstitutionSubtable::ReverseChainSingle(r) => {
                        found.extend(r.substitutes.get(i))
                    }
                    SubstitutionSubtable::Context(_) | SubstitutionSubtable::ChainContext(_) => {}
                }
            }
        }
        let mut grew = false;
        for g in found {
            // A glyph past the font's count stands for all of them.
            let slot = usize::from(g.0).min(last);
            grew |= !std::mem::replace(&mut reachable[slot], true);
        }
        if reachable[last] {
            return vec![true; last + 1];
        }
        if !grew {
            return reachable;
        }
    }
}

/// The features rustybuzz applies to horizontal left-to-right text of the
/// default shaper without being asked (HarfBuzz's common and horizontal
/// features, and the ones it adds for variations, direction, randomness,
/// tracking and its own pauses).
const DEFAULT_FEATURES: [&[u8; 4]; 23] = [
    b"abvm", b"blwm", b"ccmp", b"locl", b"mark", b"mkmk", b"rlig", b"calt", b"clig", b"curs",
    b"dist", b"kern", b"liga", b"rclt", b"rvrn", b"ltra", b"ltrm", b"rand", b"trak", b"Harf",
    b"HARF", b"Buzz", b"BUZZ",
];

/// The lookups of `table` that shaping can apply: those of its default
/// features and of every language system's required feature, in any script
/// and language, and those their rules call. `None` when one of them does not
/// parse or the table varies its features.
fn in_use<'a, T: ttf_parser::opentype_layout::LookupSubtable<'a>>(
    table: &LayoutTable<'a>,
    nested: fn(&T) -> Vec<u16>,
) -> Option<Vec<ttf_parser::opentype_layout::Lookup<'a>>> {
    if table.variations.is_some() {
        return None;
    }
    let mut required = Vec::new();
    for script in table.scripts {
        let languages = script.languages;
        let all = script
            .default_language
            .into_iter()
            .chain((0..languages.len()).filter_map(|i| languages.get(i)));
        required.extend(all.filter_map(|l| l.required_feature));
    }
    let mut todo: Vec<u16> = Vec::new();
    for (i, f) in (0..table.features.len()).filter_map(|i| Some((i, table.features.get(i)?))) {
        if required.contains(&i)
            || DEFAULT_FEATURES
                .iter()
                .any(|t| f.tag == ttf_parser::Tag::from_bytes(t))
        {
            todo.extend(f.lookup_indices);
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut used = Vec::new();
    while let Some(i) = todo.pop() {
        if !seen.insert(i) {
            continue;
        }
        let lookup = table.lookups.get(i)?;
        for j in 0..lookup.subtables.len() {
            todo.extend(nested(&lookup.subtables.get::<T>(j)?));
        }
        used.push(lookup);
    }
    Some(used)
}

/// The lookups a context lookup's rules call.
fn nested_context(c: &ContextLookup<'_>) -> Vec<u16> {
    let rules = |sets: &SequenceRuleSets<'_>| {
        let mut out = Vec::new();
        for set in (0..sets.len()).filter_map(|i| sets.get(i)) {
            for rule in (0..set.len()).filter_map(|j| set.get(j)) {
                out.extend(rule.lookups.into_iter().map(|r| r.lookup_list_index));
            }
        }
        out
    };
    match c {
        ContextLookup::Format1 { sets, .. } | ContextLookup::Format2 { sets, .. } => rules(sets),
        ContextLookup::Format3 { lookups, .. } => {
            lookups.into_iter().map(|r| r.lookup_list_index).collect()
        }
    }
}

/// The lookups a chained context lookup's rules call.
fn nested_chained(c: &ChainedContextLookup<'_>) -> Vec<u16> {
    match c {
        ChainedContextLookup::Format1 { sets, .. } | ChainedContextLookup::Format2 { sets, .. } => {
            let mut out = Vec::new();
            for set in (0..sets.len()).filter_map(|i| sets.get(i)) {
                for rule in (0..set.len()).filter_map(|j| set.get(j)) {
                    out.extend(rule.lookups.into_iter().map(|r| r.lookup_list_index));
                }
            }
            out
        }
        ChainedContextLookup::Format3 { lookups, .. } => {
            lookups.into_iter().map(|r| r.lookup_list_index).collect()
        }
    }
}

fn nested_substitutions(s: &SubstitutionSubtable<'_>) -> Vec<u16> {
    match s {
        SubstitutionSubtable::Context(c) => nested_context(c),
        SubstitutionSubtable::ChainContext(c) => nested_chained(c),
        _ => Vec::new(),
    }
}

fn nested_positionings(s: &PositioningSubtable<'_>) -> Vec<u16> {
    match s {
        PositioningSubtable::Context(c) => nested_context(c),
        PositioningSubtable::ChainContext(c) => nested_chained(c),
        _ => Vec::new(),
    }
}

/// Whether a chained context lookup sees the space only just before or just
/// after the one glyph it changes: never as an input glyph, and in a rule of
/// two glyphs in all where it is the glyph looked back or ahead at.
fn chained_short(c: &ChainedContextLookup<'_>, space: GlyphId) -> bool {
    chained_space_ok(c, space, true)
}

/// Whether a chained context lookup sees no space at all.
fn chained_clear(c: &ChainedContextLookup<'_>, space: GlyphId) -> bool {
    chained_space_ok(c, space, false)
}

/// Whether a chained context lookup never has the space as an input glyph, and
/// looks back or ahead at it only when `next_to` allows it and the rule is of
/// two glyphs in all.
fn chained_space_ok(c: &ChainedContextLookup<'_>, space: GlyphId, next_to: bool) -> bool {
    let rules_short = |sets: &ttf_parser::opentype_layout::ChainedSequenceRuleSets<'_>,
                       values: (u16, u16, u16)| {
        every(
            sets.len(),
            |i| sets.get(i),
            true,
            |set| {
                every(
                    set.len(),
                    |j| set.get(j),
                    false,
                    |rule| {
                        let around = rule.backtrack.into_iter().any(|v| v == values.0)
                            || rule.lookahead.into_iter().any(|v| v == values.2);
                        !rule.input.into_iter().any(|v| v == values.1)
                            && (!around
                                || next_to
                                    && 1 + rule.input.len()
                                        + rule.backtrack.len()
                                        + rule.lookahead.len()
                                        <= 2)
                    },
                )
            },
        )
    };
    match c {
        ChainedContextLookup::Format1 { coverage, sets } => {
            !covers(coverage, space) && rules_short(sets, (space.0, space.0, space.0))
        }
        ChainedContextLookup::Format2 {
            coverage,
            backtrack_classes,
            input_classes,
            lookahead_classes,
            sets,
        } => {
            !covers(coverage, space)
                && rules_short(
                    sets,
                    (
                        backtrack_classes.get(space),
                        input_classes.get(space),
                        lookahead_classes.get(space),
                    ),
                )
        }
        ChainedContextLookup::Format3 {
            coverage,
            backtrack_coverages,
            input_coverages,
            lookahead_coverages,
            ..
        } => {
            let around = !coverages_clear!(*backtrack_coverages, space)
                || !coverages_clear!(*lookahead_coverages, space);
            !covers(coverage, space)
                && coverages_clear!(*input_coverages, space)
                && (!around
                    || next_to
                        && 1 + input_coverages.len()
                            + backtrack_coverages.len()
                            + lookahead_coverages.len()
                            <= 2)
        }
    }
}

/// Whether `s` changes a glyph from its own word and the spaces next to it
/// alone: it sees no space, or looks at one just before or after the glyph it
/// changes ([`chained_short`]).
fn substitution_local(s: &SubstitutionSubtable<'_>, space: GlyphId) -> bool {
    match s {
        SubstitutionSubtable::ChainContext(c) => chained_short(c, space),
        other => substitution_clear(other, space),
    }
}

/// No lookup of `table` skips base glyphs or ligatures (a skipped space would
/// let a lookup match across it), and every lookup parses.
fn layout_clear(table: &LayoutTable<'_>) -> bool {
    let list = table.lookups;
    (0..list.len()).all(|i| {
        list.get(i)
            .is_some_and(|l| !l.flags.ignore_base_glyphs() && !l.flags.ignore_ligatures())
    })
}

/// Whether no rule of `sets` has `value` (a glyph id, or the space's class) in
/// its input sequence.
fn rules_clear(sets: &SequenceRuleSets<'_>, value: u16) -> bool {
    every(
        sets.len(),
        |i| sets.get(i),
        true,
        |set| {
            every(
                set.len(),
                |j| set.get(j),
                false,
                |rule| !rule.input.into_iter().any(|v| v == value),
            )
        },
    )
}

fn context_clear(c: &ContextLookup<'_>, space: GlyphId) -> bool {
    match c {
        ContextLookup::Format1 { coverage, sets } => {
            !covers(coverage, space) && rules_clear(sets, space.0)
        }
        ContextLookup::Format2 {
            coverage,
            classes,
            sets,
        } => !covers(coverage, space) && rules_clear(sets, classes.get(space)),
        ContextLookup::Format3 {
            coverage,
            coverages,
            ..
        } => !covers(coverage, space) && coverages_clear!(*coverages, space),
    }
}

fn substitution_clear(s: &SubstitutionSubtable<'_>, space: GlyphId) -> bool {
    match s {
        SubstitutionSubtable::Ligature(l) => {
            !covers(&l.coverage, space)
                && every(
                    l.ligature_sets.len(),
                    |i| l.ligature_sets.get(i),
                    true,
                    |set| {
                        every(
                            set.len(),
                            |j| set.get(j),
                            false,
                            |lig| !lig.components.into_iter().any(|g| g == space),
                        )
                    },
                )
        }
        SubstitutionSubtable::Context(c) => context_clear(c, space),
        SubstitutionSubtable::ChainContext(c) => chained_clear(c, space),
        SubstitutionSubtable::ReverseChainSingle(r) => {
            !covers(&r.coverage, space)
                && coverages_clear!(r.backtrack_coverages, space)
                && coverages_clear!(r.lookahead_coverages, space)
        }
        other => !covers(&other.coverage(), space),
    }
}

/// Whether a value record moves nothing (rustybuzz's test for a pair's second
/// record, which, when it moves something, skips the second glyph).
fn zero(v: &ValueRecord<'_>) -> bool {
    v.x_placement == 0
        && v.y_placement == 0
        && v.x_advance == 0
        && v.y_advance == 0
        && v.x_placement_device.is_none()
        && v.y_placement_device.is_none()
        && v.x_advance_device.is_none()
        && v.y_advance_device.is_none()
}

/// Whether `s` positions a glyph from the glyphs next to it alone where a
/// space is one of them: it sees no space, adjusts single glyphs, or kerns
/// pairs without moving a space that ends a pair.
fn positioning_local(s: &PositioningSubtable<'_>, space: GlyphId) -> bool {
    match s {
        PositioningSubtable::Single(_) => true,
        PositioningSubtable::Pair(PairAdjustment::Format1 { sets, .. }) => every(
            sets.len(),
            |i| sets.get(i),
            true,
            |set| set.get(space).is_none_or(|(_, b)| zero(&b)),
        ),
        PositioningSubtable::Pair(PairAdjustment::Format2 {
            classes, matrix, ..
        }) => {
            // No first glyph's class against the space's class moves the space
            // (classes past the matrix give `None`, where the rows end).
            let second = classes.1.get(space);
            (0..=u16::MAX)
                .map_while(|first| matrix.get((first, second)))
                .all(|(_, b)| zero(&b))
        }
        PositioningSubtable::MarkToBase(m) => {
            !covers(&m.mark_coverage, space) && !covers(&m.base_coverage, space)
        }
        PositioningSubtable::MarkToLigature(m) => {
            !covers(&m.mark_coverage, space) && !covers(&m.ligature_coverage, space)
        }
        PositioningSubtable::MarkToMark(m) => {
            !covers(&m.mark1_coverage, space) && !covers(&m.mark2_coverage, space)
        }
        PositioningSubtable::Context(c) => context_clear(c, space),
        PositioningSubtable::ChainContext(c) => chained_short(c, space),
        other => !covers(&other.coverage(), space),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::fonts::FontBook;
    use crate::shaping::{glyphs_from_pieces, label_shaping};
    use crate::text::{
        advance_and_script, face_for, shape_label, shaped_advance, summed, FontSpec,
    };

    /// The built-in faces: Lato in the four styles templates ask for, Bebas Neue.
    pub(crate) fn faces() -> Vec<&'static rustybuzz::Face<'static>> {
        let book = FontBook::builtin();
        let mut fonts: Vec<FontSpec> = [(400, false), (700, false), (400, true), (900, false)]
            .map(|(weight, italic)| FontSpec {
                weight,
                italic,
                ..FontSpec::default()
            })
            .into();
        fonts.push(FontSpec {
            family: "Bebas Neue".into(),
            ..FontSpec::default()
        });
        fonts.iter().map(|f| face_for(f, &book).unwrap()).collect()
    }

    /// Every line of every seed game's data and rules, cut at whitespace into
    /// words: the runs of up to 14 words a wrap tries, from every 14th word (so
    /// every word and every two words side by side are in some run), each run
    /// alone, with a space before or with one after (a run next to an icon), in
    /// turn. About 25,000 texts: the tests shape each of them whole too, in every
    /// built-in face, at the tests' opt-level.
    pub(crate) fn texts() -> Vec<String> {
        let mut texts = Vec::new();
        let mut games: Vec<_> = std::fs::read_dir("data").unwrap().flatten().collect();
        games.sort_by_key(|e| e.path());
        for game in games {
            let mut files: Vec<_> = std::fs::read_dir(game.path()).unwrap().flatten().collect();
            files.sort_by_key(|e| e.path());
            for file in files {
                let Ok(text) = std::fs::read_to_string(file.path()) else {
                    continue;
                };
                for line in text.lines() {
                    let words: Vec<&str> = line.split_whitespace().collect();
                    for first in (0..words.len()).step_by(14) {
                        for last in first..words.len().min(first + 14) {
                            let run = words[first..=last].join(" ");
                            texts.push(match last % 3 {
                                0 => run,
                                1 => format!(" {run}"),
                                _ => format!("{run} "),
                            });
                        }
                    }
                }
            }
        }
        texts
    }

    /// Every word of every seed game's data and rules (cut at whitespace, with
    /// its punctuation), once, and a few that are not Latin or run right to
    /// left (a Latin pair kerned one way round and not the other, after Hebrew).
    pub(crate) fn words() -> Vec<String> {
        let mut words: Vec<String> = texts()
            .iter()
            .flat_map(|t| t.split_whitespace())
            .map(str::to_string)
            .collect();
        words.extend(
            [
                "",
                " ",
                "12",
                "Ελλάδα",
                "שלום",
                "שלום To",
                "שלום 12",
                "a\u{301}",
            ]
            .map(String::from),
        );
        words.sort_unstable();
        words.dedup();
        words
    }

    #[test]
    fn a_line_summed_from_its_words_is_the_advance_of_shaping_it_whole() {
        let texts = texts();
        assert!(texts.len() > 20_000, "{}", texts.len());
        for (i, face) in faces().into_iter().enumerate() {
            // The built-in fonts take the sum: Lato kerns the space with other
            // glyphs (pairs such as "T " and " A"), and the sum keeps them.
            assert!(words_add_up(face));
            // Every text in the first face (Lato), every fourth in the others.
            let texts: Vec<&String> = texts.iter().step_by(if i == 0 { 1 } else { 4 }).collect();
            let mut summed_lines = 0;
            for text in texts.iter().copied() {
                let whole = shaped_advance(face, text, None);
                match summed(face, text) {
                    Some(sum) => {
                        summed_lines += 1;
                        assert_eq!(sum, whole, "{text:?}");
                    }
                    // Measured from its own kept shaping.
                    None => assert_eq!(advance_and_script(face, text), whole, "{text:?}"),
                }
            }
            assert!(
                summed_lines * 5 > texts.len() * 4,
                "{summed_lines} of {}",
                texts.len()
            );
        }
    }

    #[test]
    fn kerning_across_a_space_is_kept() {
        // Lato kerns these pairs across the space: words and spaces measured
        // alone are wider or narrower than the line, the sum is the line.
        let face = faces()[0];
        let mut kerned = 0;
        for text in ["AT TA", "Ty Ty", "V. A", "L T", "1 A", "Y, A"] {
            let whole = shaped_advance(face, text, None).0;
            let alone: i64 = text
                .split(' ')
                .map(|w| shaped_advance(face, w, None).0)
                .sum::<i64>()
                + shaped_advance(face, " ", None).0 * (text.matches(' ').count() as i64);
            kerned += usize::from(alone != whole);
            assert_eq!(advance_and_script(face, text).0, whole, "{text}");
            assert_eq!(summed(face, text).map(|s| s.0), Some(whole), "{text}");
        }
        assert!(kerned >= 3, "{kerned}");
    }

    #[test]
    fn what_might_not_add_up_is_shaped_whole() {
        let face = faces()[0];
        for text in [
            "word",
            "two  spaces",
            " ",
            "a \u{301}b",
            "e\u{301} x",
            "x \u{200d}y",
            "soft\u{ad}hyphen x",
            "Ελλάδα x",
            "שלום x",
            "a\u{fe0f} b",
        ] {
            assert_eq!(summed(face, text), None, "{text:?}");
            assert_eq!(
                advance_and_script(face, text).0,
                shaped_advance(face, text, None).0,
                "{text:?}"
            );
        }
    }

    #[test]
    fn a_label_from_its_words_has_the_glyphs_of_shaping_it_whole() {
        let font = crate::layout::marks::label_font();
        let face = face_for(&font, &FontBook::builtin()).unwrap();
        let mut from_pieces = 0;
        for text in &texts() {
            let Some(glyphs) = glyphs_from_pieces(face, text) else {
                continue;
            };
            from_pieces += 1;
            let (whole, _, _) = label_shaping(face, text, None);
            assert_eq!(format!("{glyphs:?}"), format!("{whole:?}"), "{text:?}");
            let label = shape_label(text, &font).unwrap();
            let advance: i64 = whole.iter().map(|g| i64::from(g.x_advance)).sum();
            assert_eq!(
                label.width(3.0),
                advance as f64 / face.units_per_em() as f64 * 3.0
            );
        }
        assert!(from_pieces > 25_000, "{from_pieces}");
    }

    #[test]
    fn rules_that_look_across_a_space_are_found() {
        // Lato's contextual alternates (`calt`) have rules that change a Greek
        // capital with a tonos by the glyph after the space that follows it: a
        // word shaped with its own spaces alone would not see that glyph. The
        // analysis finds them, and lets the sum through only because no
        // character that shapes alone can reach the glyphs they change.
        let face = faces()[0];
        let space = face.glyph_index(' ').unwrap();
        let gsub = face.tables().gsub.unwrap();
        let mut subtables = Vec::new();
        for lookup in in_use::<SubstitutionSubtable>(&gsub, nested_substitutions).unwrap() {
            let subs = lookup.subtables;
            subtables.extend((0..subs.len()).map(|i| subs.get::<SubstitutionSubtable>(i).unwrap()));
        }
        let across: Vec<_> = subtables
            .iter()
            .filter(|s| !substitution_local(s, space))
            .collect();
        assert_eq!(across.len(), 2);
        let tonos = face.glyph_index('Ά').unwrap();
        assert!(across
            .iter()
            .all(|s| covered(&s.coverage()).any(|(g, _)| g == tonos)));
        assert!(!shapes_alone('Ά'));
        let reachable = reachable(face, &mapped(face), &subtables);
        assert!(!reachable[usize::from(tonos.0)]);
        assert!(across
            .iter()
            .all(|s| !covered(&s.coverage()).any(|(g, _)| reachable[usize::from(g.0)])));
        // Text that can reach them is shaped whole.
        let text = "ΑΆ ΑΑ";
        assert_eq!(summed(face, text), None);
        assert_eq!(
            advance_and_script(face, text).0,
            shaped_advance(face, text, None).0
        );
    }
}
