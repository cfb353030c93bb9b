//! Breaking a paragraph into lines: words measured with the game's fonts (the
//! same shaping the faces use), hyphenation points from hypher in the game's
//! language, and the breaks chosen for the whole paragraph at once (the least sum
//! of squared badness, as TeX does, in a simple form) so that justified lines
//! stretch their spaces evenly and hyphens are used only where they help.

use super::blocks::Inline;
use crate::fonts::FontBook;
use crate::text::icons::IconSource;
use crate::text::layout::{ICON_HEIGHT, ICON_PAD};
use crate::text::{FontSpec, Line, Run, RunKind, TextError};

/// Shortest word hyphenated, in characters.
const MIN_HYPHENATED: usize = 6;
/// How far a justified line's spaces stretch at a badness of 100, in spaces.
const STRETCH: f64 = 0.6;
/// How far a justified line's spaces may shrink, in spaces.
const SHRINK: f64 = 0.2;
/// How much wider than its line a piece of text may be and still count as
/// fitting it, in mm: what adding and taking away the same widths loses.
const FITS: f64 = 1e-6;
/// Demerits of a line that ends with a hyphen.
const HYPHEN_DEMERITS: f64 = 3_000.0;
/// Demerits of a line that ends between two letters of a word no line can hold
/// (more than a hyphen: such a word is broken on as few lines as it can be).
const LETTER_DEMERITS: f64 = 10_000.0;

/// How a block of text is set.
#[derive(Debug, Clone)]
pub struct Style {
    pub font: FontSpec,
    /// Font size in mm.
    pub size: f64,
    /// Justified (else ragged right).
    pub justify: bool,
    /// Words are hyphenated in this language: in justified text every word long
    /// enough, in ragged text only a word wider than its line.
    pub hyphenate: Option<hypher::Lang>,
}

/// A piece of a word, measured.
#[derive(Debug, Clone)]
struct Part {
    piece: RunKind,
    width: f64,
}

/// What lines may break between.
#[derive(Debug, Clone, Default)]
struct Word {
    parts: Vec<Part>,
    /// A hard line break follows it.
    forced: bool,
}

impl Part {
    /// Where it ends: its text's bytes, or 1 for an icon.
    fn len(&self) -> usize {
        match &self.piece {
            RunKind::Text { text, .. } => text.len(),
            RunKind::Icon(_) => 1,
        }
    }
}

impl Word {
    /// Its letters from `from` to `to` (see [`Frag`]), each from where it starts
    /// to where it ends; an icon is one.
    fn letters(
        &self,
        from: (usize, usize),
        to: (usize, usize),
    ) -> Vec<((usize, usize), (usize, usize))> {
        let mut out = Vec::new();
        for p in from.0..=to.0 {
            let part = &self.parts[p];
            let start = if p == from.0 { from.1 } else { 0 };
            let end = if p == to.0 { to.1 } else { part.len() };
            if start >= end {
                continue;
            }
            match &part.piece {
                RunKind::Text { text, .. } => {
                    let starts = letter_starts(&text[start..end]);
                    for (k, &s) in starts.iter().enumerate() {
                        let e = starts.get(k + 1).copied().unwrap_or(end - start);
                        out.push(((p, start + s), (p, start + e)));
                    }
                }
                RunKind::Icon(_) => out.push(((p, 0), (p, 1))),
            }
        }
        out
    }

    /// Its text, icons left out.
    fn text(&self) -> String {
        self.parts
            .iter()
            .filter_map(|p| match &p.piece {
                RunKind::Text { text, .. } => Some(text.as_str()),
                RunKind::Icon(_) => None,
            })
            .collect()
    }
}

/// Where each letter of `text` starts, in bytes: Unicode's extended grapheme
/// clusters (a character with its accents, an emoji with its modifiers and
/// joined parts, a flag's two regional indicators), so an emergency break never
/// cuts a letter from its accent.
pub fn letter_starts(text: &str) -> Vec<usize> {
    use unicode_segmentation::UnicodeSegmentation;
    text.grapheme_indices(true).map(|(i, _)| i).collect()
}

/// A stretch of a word between two break opportunities.
#[derive(Debug, Clone)]
struct Frag {
    word: usize,
    /// Where it starts and ends in its word: (part, byte of that part's text;
    /// an icon part runs from 0 to 1).
    from: (usize, usize),
    to: (usize, usize),
    width: f64,
    /// The word ends here.
    word_end: bool,
    /// A line that ends here ends with a hyphen: a hyphenation point, not an
    /// emergency break inside a word wider than the line.
    hyphen: bool,
}

/// A word wider than the line, broken across lines between its letters.
#[derive(Debug, Clone, PartialEq)]
pub struct Overfull {
    /// The word's text (its icons left out).
    pub word: String,
    /// Its letters (a letter with its accents is one).
    pub letters: usize,
    /// The lines it is set on.
    pub lines: usize,
}

/// A text set in lines, and the words that had to be broken to fit them.
#[derive(Debug, Clone, Default)]
pub struct Set {
    pub lines: Vec<Line>,
    pub overfull: Vec<Overfull>,
}

/// Sets text with the game's fonts and icons.
pub struct Setter<'a> {
    pub book: &'a FontBook,
    pub icons: &'a dyn IconSource,
}

impl Setter<'_> {
    /// The width of `text` in `style`'s font, bold or italic as asked (from
    /// the glyphs the page's drawing takes again: each word shaped once).
    pub fn measure(
        &self,
        text: &str,
        bold: bool,
        italic: bool,
        style: &Style,
    ) -> Result<f64, TextError> {
        crate::text::glyphs::width(
            text,
            style.size,
            &style.font.styled(bold, italic),
            self.book,
        )
    }

    /// The words of `text`, measured.
    fn words(&self, text: &[Inline], style: &Style) -> Result<Vec<Word>, TextError> {
        let mut words: Vec<Word> = Vec::new();
        let mut current = Word::default();
        let end_word = |current: &mut Word, words: &mut Vec<Word>| {
            if !current.parts.is_empty() {
                words.push(std::mem::take(current));
            }
        };
        for inline in text {
            match inline {
                Inline::Break => {
                    end_word(&mut current, &mut words);
                    if let Some(w) = words.last_mut() {
                        w.forced = true;
                    }
                }
                Inline::Icon(name) => {
                    let icon = self.icons.icon(name)?;
                    let width = (icon.aspect * ICON_HEIGHT + 2.0 * ICON_PAD) * style.size;
                    current.parts.push(Part {
                        piece: RunKind::Icon(icon),
                        width,
                    });
                }
                Inline::Text { text, bold, italic } => {
                    let mut rest = text.as_str();
                    while !rest.is_empty() {
                        let split = rest.find(breaks).unwrap_or(rest.len());
                        if split > 0 {
                            let t = &rest[..split];
                            current.parts.push(Part {
                                width: self.measure(t, *bold, *italic, style)?,
                                piece: RunKind::Text {
                                    text: t.to_string(),
                                    bold: *bold,
                                    italic: *italic,
                                },
                            });
                        }
                        rest = &rest[split..];
                        let spaces = rest.len() - rest.trim_start_matches(breaks).len();
                        if spaces > 0 {
                            end_word(&mut current, &mut words);
                            rest = &rest[spaces..];
                        }
                    }
                }
            }
        }
        end_word(&mut current, &mut words);
        Ok(words)
    }

    /// Each word cut where it may break: at hyphenation points of plain words (in
    /// ragged text, only of a word wider than `width`: such a word is hyphenated
    /// where its language allows before it is broken between letters).
    fn frags(&self, words: &[Word], width: f64, style: &Style) -> Result<Vec<Frag>, TextError> {
        let mut out = Vec::new();
        for (w, word) in words.iter().enumerate() {
            let whole_width: f64 = word.parts.iter().map(|p| p.width).sum();
            let whole = |out: &mut Vec<Frag>| {
                let last = word.parts.len() - 1;
                out.push(Frag {
                    word: w,
                    from: (0, 0),
                    to: (last, word.parts[last].len()),
                    width: whole_width,
                    word_end: true,
                    hyphen: false,
                })
            };
            if !style.justify && whole_width <= width + FITS {
                whole(&mut out);
                continue;
            }
            let (
                Some(lang),
                [Part {
                    piece: RunKind::Text { text, bold, italic },
                    ..
                }],
            ) = (style.hyphenate, word.parts.as_slice())
            else {
                whole(&mut out);
                continue;
            };
            let lead = text.len() - text.trim_start_matches(|c: char| !c.is_alphabetic()).len();
            let core = text[lead..].trim_end_matches(|c: char| !c.is_alphabetic());
            if core.chars().count() < MIN_HYPHENATED || !core.chars().all(char::is_alphabetic) {
                whole(&mut out);
                continue;
            }
            let mut cuts: Vec<usize> = Vec::new();
            let mut at = lead;
            for s in hypher::hyphenate(core, lang) {
                at += s.len();
                cuts.push(at);
            }
            cuts.pop();
            cuts.push(text.len());
            let mut start = 0;
            for (k, &end) in cuts.iter().enumerate() {
                let last = k + 1 == cuts.len();
                out.push(Frag {
                    word: w,
                    from: (0, start),
                    to: (0, end),
                    width: self.measure(&text[start..end], *bold, *italic, style)?,
                    word_end: last,
                    hyphen: !last,
                });
                start = end;
            }
        }
        Ok(out)
    }

    /// The parts of `word` from `from` to `to`, measured, with a hyphen after
    /// them if `hyphen`.
    fn slice(
        &self,
        word: &Word,
        from: (usize, usize),
        to: (usize, usize),
        hyphen: bool,
        style: &Style,
    ) -> Result<Vec<Part>, TextError> {
        let mut out = Vec::new();
        for p in from.0..=to.0 {
            let start = if p == from.0 { from.1 } else { 0 };
            let part = &word.parts[p];
            let end = if p == to.0 { to.1 } else { part.len() };
            if start >= end {
                continue;
            }
            match &part.piece {
                RunKind::Text { text, bold, italic } => {
                    let mut t = text[start..end].to_string();
                    if hyphen && p == to.0 {
                        t.push('-');
                    }
                    out.push(Part {
                        width: self.measure(&t, *bold, *italic, style)?,
                        piece: RunKind::Text {
                            text: t,
                            bold: *bold,
                            italic: *italic,
                        },
                    });
                }
                RunKind::Icon(_) => out.push(part.clone()),
            }
        }
        Ok(out)
    }

    /// `frags` with each one wider than `width` (and its hyphen, if a line may
    /// end with it) cut between letters: the emergency break of a word no line
    /// can hold. With `greedy`, into pieces each as wide as fits, measured whole;
    /// else into its letters, measured one by one, so that the breaks chosen for
    /// the paragraph may put the word's first piece at the end of the line
    /// before it. With the words so broken.
    fn emergency(
        &self,
        frags: Vec<Frag>,
        words: &[Word],
        width: f64,
        hyphen: f64,
        style: &Style,
        greedy: bool,
    ) -> Result<(Vec<Frag>, Vec<usize>), TextError> {
        let mut out = Vec::with_capacity(frags.len());
        let mut broken = Vec::new();
        // A letter's width, by its text and style (a broken word repeats them).
        let mut letter_widths: std::collections::HashMap<(String, bool, bool), f64> =
            std::collections::HashMap::new();
        for f in frags {
            let tail = if f.hyphen { hyphen } else { 0.0 };
            if f.width + tail <= width + FITS {
                out.push(f);
                continue;
            }
            let word = &words[f.word];
            let units = word.letters(f.from, f.to);
            if units.len() < 2 {
                out.push(f);
                continue;
            }
            let span_width = |from, to| -> Result<f64, TextError> {
                let parts = self.slice(word, from, to, false, style)?;
                Ok(parts.iter().map(|p| p.width).sum())
            };
            let mut piece = |from, to, w, last: bool| {
                out.push(Frag {
                    word: f.word,
                    from,
                    to,
                    width: w,
                    word_end: last && f.word_end,
                    hyphen: last && f.hyphen,
                })
            };
            if !greedy {
                for (k, &(from, to)) in units.iter().enumerate() {
                    let w = match &word.parts[from.0].piece {
                        RunKind::Text { text, bold, italic } => {
                            let key = (text[from.1..to.1].to_string(), *bold, *italic);
                            match letter_widths.get(&key) {
                                Some(&w) => w,
                                None => {
                                    let w = span_width(from, to)?;
                                    letter_widths.insert(key, w);
                                    w
                                }
                            }
                        }
                        RunKind::Icon(_) => word.parts[from.0].width,
                    };
                    piece(from, to, w, k + 1 == units.len());
                }
            }
            let mut i = 0;
            while greedy && i < units.len() {
                // The piece is letters i..j; at least one, however wide.
                let mut j = i + 1;
                let mut w = span_width(units[i].0, units[i].1)?;
                while j < units.len() {
                    let wider = span_width(units[i].0, units[j].1)?;
                    let end = if j + 1 == units.len() { tail } else { 0.0 };
                    if wider + end > width + FITS {
                        break;
                    }
                    w = wider;
                    j += 1;
                }
                piece(units[i].0, units[j - 1].1, w, j == units.len());
                i = j;
            }
            if broken.last() != Some(&f.word) {
                broken.push(f.word);
            }
        }
        Ok((out, broken))
    }

    /// `text` set in lines of at most `width` mm: a word wider than that is
    /// hyphenated where its language's patterns allow; what still does not fit
    /// is broken between its letters (no hyphen added), its first piece at the
    /// end of the line before when it fits there, and reported.
    pub fn set(&self, text: &[Inline], width: f64, style: &Style) -> Result<Set, TextError> {
        let words = self.words(text, style)?;
        if words.is_empty() {
            return Ok(Set::default());
        }
        let frags = self.frags(&words, width, style)?;
        let space = self.measure(" ", false, false, style)?;
        let hyphen = self.measure("-", false, false, style)?;
        let set = |greedy: bool| -> Result<(Set, bool), TextError> {
            let (frags, broken) =
                self.emergency(frags.clone(), &words, width, hyphen, style, greedy)?;
            let breaks = choose(&frags, &words, width, space, hyphen, style.justify);
            let mut lines = Vec::new();
            let mut overfull: Vec<Overfull> = broken
                .iter()
                .map(|&w| {
                    let word = words[w].text();
                    Overfull {
                        letters: letter_starts(&word).len(),
                        word,
                        lines: 0,
                    }
                })
                .collect();
            // A line of several pieces wider than `width`: the letters measured
            // one by one were narrower than set together (a font's kerning).
            let mut over = false;
            let mut start = 0;
            for end in breaks {
                let last = end + 1 == frags.len() || words[frags[end].word].forced;
                let on_line = &frags[start..=end];
                for (o, &w) in overfull.iter_mut().zip(&broken) {
                    o.lines += usize::from(on_line.iter().any(|f| f.word == w));
                }
                let line = self.place(on_line, &words, width, space, style, last)?;
                over |= on_line.len() > 1 && line.width > width + FITS;
                lines.push(line);
                start = end + 1;
            }
            Ok((Set { lines, overfull }, over && !broken.is_empty()))
        };
        match set(false)? {
            (_, true) => Ok(set(true)?.0),
            (set, false) => Ok(set),
        }
    }

    /// One line of `frags`, its spaces stretched to fill `width` when justified.
    fn place(
        &self,
        frags: &[Frag],
        words: &[Word],
        width: f64,
        space: f64,
        style: &Style,
        last: bool,
    ) -> Result<Line, TextError> {
        // The line's words: whole, or the part of a broken word on this line.
        let mut groups: Vec<Vec<Part>> = Vec::new();
        let mut k = 0;
        while k < frags.len() {
            let w = frags[k].word;
            let mut j = k;
            while j + 1 < frags.len() && frags[j + 1].word == w {
                j += 1;
            }
            let word = &words[w];
            let whole = frags[k].from == (0, 0) && frags[j].word_end;
            if whole {
                groups.push(word.parts.clone());
            } else {
                groups.push(self.slice(
                    word,
                    frags[k].from,
                    frags[j].to,
                    frags[j].hyphen,
                    style,
                )?);
            }
            k = j + 1;
        }
        let content: f64 = groups.iter().flatten().map(|p| p.width).sum();
        let gaps = groups.len().saturating_sub(1);
        let gap = if style.justify && !last && gaps > 0 {
            ((width - content) / gaps as f64).max(space * (1.0 - SHRINK))
        } else {
            space
        };
        let mut runs = Vec::new();
        let mut x = 0.0;
        for (g, group) in groups.into_iter().enumerate() {
            if g > 0 {
                x += gap;
            }
            for part in group {
                let (pad, w) = match &part.piece {
                    RunKind::Icon(_) => (
                        ICON_PAD * style.size,
                        part.width - 2.0 * ICON_PAD * style.size,
                    ),
                    RunKind::Text { .. } => (0.0, part.width),
                };
                runs.push(Run {
                    x: x + pad,
                    width: w,
                    kind: part.piece,
                });
                x += part.width;
            }
        }
        Ok(Line {
            runs,
            width: x,
            size: style.size,
        })
    }
}

/// Whether `c` separates words (a breakable space; not a no-break one).
fn breaks(c: char) -> bool {
    c.is_whitespace() && !matches!(c, '\u{a0}' | '\u{2007}' | '\u{202f}')
}

/// The last fragment of each line: the breaks with the least demerits over the
/// whole paragraph (a line from fragment `a + 1` to `b` costs the square of its
/// badness, more when it ends with a hyphen; a word longer than the line stands
/// alone on it).
fn choose(
    frags: &[Frag],
    words: &[Word],
    width: f64,
    space: f64,
    hyphen: f64,
    justify: bool,
) -> Vec<usize> {
    let n = frags.len();
    // best[b + 1]: least demerits of lines ending after fragment b, and the break before.
    let mut best: Vec<(f64, usize)> = vec![(f64::INFINITY, 0); n + 1];
    best[0] = (0.0, 0);
    for b in 0..n {
        let forced_end = b + 1 == n || (frags[b].word_end && words[frags[b].word].forced);
        let ends_hyphen = frags[b].hyphen;
        // The line ends between two letters of a word no line can hold: it is
        // judged by how full it is, as a ragged line (it has no spaces to
        // stretch), so the word's first piece fills the line before it.
        let ends_letter = !frags[b].word_end && !frags[b].hyphen;
        let mut natural = if ends_hyphen { hyphen } else { 0.0 };
        let mut spaces = 0usize;
        for a in (0..=b).rev() {
            // The line is fragments a..=b.
            natural += frags[a].width;
            if a < b && frags[a].word_end {
                natural += space;
                spaces += 1;
            }
            if a < b && frags[a].word_end && words[frags[a].word].forced {
                break;
            }
            let cost = line_cost(
                natural,
                width,
                spaces,
                space,
                justify && !ends_letter,
                forced_end,
                a == b,
            );
            let Some(cost) = cost else {
                if natural - spaces as f64 * space * SHRINK > width {
                    break;
                }
                continue;
            };
            let demerits = cost
                + if ends_hyphen {
                    HYPHEN_DEMERITS
                } else if ends_letter {
                    LETTER_DEMERITS
                } else {
                    0.0
                };
            let total = best[a].0 + demerits;
            if total < best[b + 1].0 {
                best[b + 1] = (total, a);
            }
        }
    }
    let mut ends = Vec::new();
    let mut b = n;
    while b > 0 {
        ends.push(b - 1);
        b = best[b].1;
    }
    ends.reverse();
    ends
}

/// The demerits of a line of `natural` width with `spaces` spaces in a line of
/// `width`; `None` when it cannot be set so (too wide even with its spaces
/// shrunk). A single fragment wider than the line is allowed, at a high cost.
fn line_cost(
    natural: f64,
    width: f64,
    spaces: usize,
    space: f64,
    justify: bool,
    last: bool,
    alone: bool,
) -> Option<f64> {
    let spaces = spaces as f64;
    let ratio = if natural > width {
        // Only a justified line that is not its paragraph's last is set with
        // its spaces shrunk (`Setter::place`); any other is as wide as it is.
        let shrink = if justify && !last {
            spaces * space * SHRINK
        } else {
            0.0
        };
        if shrink <= 0.0 || natural - width > shrink {
            return alone.then_some(1e9);
        }
        (natural - width) / shrink
    } else if last {
        0.0
    } else if !justify {
        (width - natural) / (width * 0.25)
    } else if spaces == 0.0 {
        10.0
    } else {
        (width - natural) / (spaces * space * STRETCH)
    };
    let badness = (100.0 * ratio.powi(3)).min(10_000.0);
    Some((10.0 + badness).powi(2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fonts::FontBook;
    use crate::text::icons::NoIcons;

    fn style(justify: bool) -> Style {
        Style {
            font: FontSpec::default(),
            size: 3.4,
            justify,
            hyphenate: Some(hypher::Lang::English),
        }
    }

    fn text(s: &str) -> Vec<Inline> {
        vec![Inline::Text {
            text: s.into(),
            bold: false,
            italic: false,
        }]
    }

    const PARAGRAPH: &str = "Each delivery pays a fee. When one of you has banked enough money, everyone plays one last turn, open contracts are settled, bonuses are paid, and the richest driver wins the game of interstate transportation.";

    #[test]
    fn justified_lines_fill_the_measure_and_the_last_is_ragged() {
        let book = FontBook::builtin();
        let setter = Setter {
            book: &book,
            icons: &NoIcons,
        };
        let lines = setter
            .set(&text(PARAGRAPH), 60.0, &style(true))
            .unwrap()
            .lines;
        assert!(lines.len() >= 4, "{lines:?}");
        let (last, full) = lines.split_last().unwrap();
        for l in full {
            assert!((l.width - 60.0).abs() < 0.01, "{}: {}", l.text(), l.width);
        }
        assert!(last.width < 60.0);
        // Every word is there once, in order (hyphens aside).
        let joined: String = lines
            .iter()
            .map(|l| l.text())
            .collect::<Vec<_>>()
            .join(" ")
            .replace("- ", "");
        assert_eq!(joined, PARAGRAPH);
        // Ragged lines keep their natural spaces.
        let ragged = setter
            .set(&text(PARAGRAPH), 60.0, &style(false))
            .unwrap()
            .lines;
        assert!(ragged.iter().all(|l| l.width <= 60.0 + 1e-9));
    }

    #[test]
    fn a_narrow_measure_hyphenates_long_words_and_breaks_where_told() {
        let book = FontBook::builtin();
        let setter = Setter {
            book: &book,
            icons: &NoIcons,
        };
        let lines = setter
            .set(
                &text("transportation infrastructure considerations"),
                18.0,
                &style(true),
            )
            .unwrap()
            .lines;
        assert!(
            lines.iter().any(|l| l.text().ends_with('-')),
            "{:?}",
            lines.iter().map(Line::text).collect::<Vec<_>>()
        );
        assert!(lines.iter().all(|l| l.width <= 18.0 + 0.01));
        let mut broken = text("one two");
        broken.push(Inline::Break);
        broken.extend(text("three"));
        let lines = setter.set(&broken, 100.0, &style(true)).unwrap().lines;
        let said: Vec<String> = lines.iter().map(Line::text).collect();
        assert_eq!(said, ["one two", "three"]);
    }

    #[test]
    fn a_word_wider_than_the_line_is_broken_between_its_letters_and_reported() {
        let book = FontBook::builtin();
        let setter = Setter {
            book: &book,
            icons: &NoIcons,
        };
        let word = "x".repeat(400);
        for justify in [true, false] {
            let set = setter
                .set(&text(&format!("Start {word} here.")), 40.0, &style(justify))
                .unwrap();
            let said: Vec<String> = set.lines.iter().map(Line::text).collect();
            assert!(set.lines.iter().all(|l| l.width <= 40.0 + 1e-6), "{said:?}");
            // The word's first piece fills the line after "Start", and no hyphen
            // is added: the lines joined are the text as written.
            assert!(said[0].starts_with("Start xx"), "{said:?}");
            assert_eq!(said.concat(), format!("Start {word} here."), "{said:?}");
            let lines = said.iter().filter(|l| l.contains('x')).count();
            assert!(lines >= 10, "{said:?}");
            assert_eq!(
                set.overfull,
                [Overfull {
                    word: word.clone(),
                    letters: 400,
                    lines
                }]
            );
        }
        // Letters measured one by one are narrower than set together where the
        // font kerns them apart ("ti" in Lato): the line would be too wide, so
        // the word is broken into pieces measured whole, from a line of its own.
        let kerned = "ti".repeat(200);
        for justify in [true, false] {
            let set = setter
                .set(
                    &text(&format!("Start {kerned} here.")),
                    40.0,
                    &Style {
                        hyphenate: None,
                        ..style(justify)
                    },
                )
                .unwrap();
            let said: Vec<String> = set.lines.iter().map(Line::text).collect();
            assert!(set.lines.iter().all(|l| l.width <= 40.0 + 1e-6), "{said:?}");
            assert_eq!(said[0], "Start", "{said:?}");
            assert_eq!(said.concat(), format!("Start{kerned} here."), "{said:?}");
            assert_eq!(set.overfull[0].letters, 400);
        }
        // A hyphenation point keeps its hyphen; a word that fits is not reported.
        let set = setter
            .set(&text("transportation"), 18.0, &style(true))
            .unwrap();
        assert!(set.overfull.is_empty());
        // A letter keeps its accents.
        let accented = "e\u{301}".repeat(200);
        let set = setter.set(&text(&accented), 20.0, &style(false)).unwrap();
        assert_eq!(set.overfull[0].letters, 200);
        for line in &set.lines {
            assert!(line.text().starts_with('e'), "{:?}", line.text());
        }
        assert_eq!(
            letter_starts("ae\u{301}b\u{1f1eb}\u{1f1f7}c"),
            [0, 1, 4, 5, 13]
        );
    }

    #[test]
    fn no_line_is_wider_than_its_measure() {
        let book = FontBook::builtin();
        let setter = Setter {
            book: &book,
            icons: &NoIcons,
        };
        // A ragged line, and a justified paragraph's last, are set with their
        // spaces as they are: only the other justified lines shrink theirs.
        for justify in [false, true] {
            for tenths in 200..800 {
                let width = f64::from(tenths) / 10.0;
                let set = setter
                    .set(&text(PARAGRAPH), width, &style(justify))
                    .unwrap();
                for line in &set.lines {
                    assert!(
                        line.width <= width + FITS,
                        "{justify} {width}: {:?} is {} mm",
                        line.text(),
                        line.width
                    );
                }
            }
        }
    }
}
