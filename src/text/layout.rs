//! Setting marked-up text ([`super::markup`]) into lines of runs: greedy word wrap
//! (`wrap`), the largest size that fits a box (`fit`), one line shrunk to a width
//! (`shrink`). Every run has its place on the line, so a template draws text runs
//! as `<tspan>`s and icons as `<image>`s where they were measured.

use std::cell::OnceCell;
use std::sync::Arc;

use super::icons::{Icon, IconSource};
use super::markup::{self, Atom, Paragraph};
use super::{face_for, face_width, FontSpec, TextError};
use crate::fonts::FontBook;

/// An icon's height, in font sizes.
pub const ICON_HEIGHT: f64 = 0.9;
/// How far an icon's bottom edge is below the baseline, in font sizes.
pub const ICON_DROP: f64 = 0.15;
/// Space on each side of an icon, in font sizes (as a glyph's side bearings).
pub const ICON_PAD: f64 = 0.08;
/// Fuel charged per character measured and per measurement. Shaping takes about
/// 0.5 µs a character (20 µs for a 35-character line), so a face's fuel
/// (`fuel::FUEL`, 500,000) measures at most about 250,000 characters, a
/// tenth of a second: a huge text stops like any other runaway template, while
/// the seed games' heaviest face (Black Pawn Trucking's playmat, which measures
/// its phases repeatedly to size its boxes) stays well inside.
const FUEL_PER_CHAR: u64 = 2;
const FUEL_PER_MEASURE: u64 = 4;

/// What a run is.
#[derive(Debug, Clone, PartialEq)]
pub enum RunKind {
    /// Text in one style; spaces at its ends are left out (its `x` is where its
    /// first glyph starts).
    Text {
        text: String,
        bold: bool,
        italic: bool,
    },
    /// An inline icon.
    Icon(Arc<Icon>),
}

/// A piece of a line, placed.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub kind: RunKind,
    /// Distance from the start of the line, in mm.
    pub x: f64,
    /// Width in mm (an icon's picture, without its side space).
    pub width: f64,
}

/// One line of set text.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub runs: Vec<Run>,
    /// Width of the whole line in mm.
    pub width: f64,
    /// The font size it was set at, in mm.
    pub size: f64,
}

impl Line {
    /// The line's text without markup (icons left out).
    pub fn text(&self) -> String {
        let mut out = String::new();
        let mut end: Option<f64> = None;
        let pad = ICON_PAD * self.size;
        for r in &self.runs {
            let (start, stop) = match &r.kind {
                RunKind::Text { .. } => (r.x, r.x + r.width),
                RunKind::Icon(_) => (r.x - pad, r.x + r.width + pad),
            };
            if let RunKind::Text { text, .. } = &r.kind {
                // Runs that are apart on the line were apart in the text.
                if !out.is_empty() && end.is_some_and(|e| start > e + 0.05 * self.size) {
                    out.push(' ');
                }
                out.push_str(text);
            }
            end = Some(stop);
        }
        out
    }

    /// Whether the line is one run of text in the base style (what plain text gives).
    pub fn is_plain(&self) -> bool {
        match &self.runs[..] {
            [] => true,
            [Run {
                kind: RunKind::Text { bold, italic, .. },
                ..
            }] => !bold && !italic,
            _ => false,
        }
    }

    /// An icon's height at this line's size, and the distance from the baseline
    /// down to its top (negative: above).
    pub fn icon_box(&self) -> (f64, f64) {
        (
            ICON_HEIGHT * self.size,
            (ICON_DROP - ICON_HEIGHT) * self.size,
        )
    }
}

/// One item of a line being built.
#[derive(Debug, Clone)]
enum Item {
    Text {
        text: String,
        bold: bool,
        italic: bool,
    },
    Icon(Arc<Icon>),
}

/// A line's items and, when known, its width.
type SetLine = (Vec<Item>, Option<f64>);

/// What setting text needs: the fonts, the base font, the icons and the budget.
pub struct Setter<'a> {
    pub book: &'a FontBook,
    pub font: &'a FontSpec,
    pub icons: &'a dyn IconSource,
    /// Takes the work done (characters measured); `false` stops with
    /// [`TextError::OutOfFuel`].
    pub fuel: &'a dyn Fn(u64) -> bool,
    /// The faces for (bold, italic), found when first needed.
    faces: [OnceCell<Result<&'static rustybuzz::Face<'static>, TextError>>; 4],
}

impl<'a> Setter<'a> {
    /// A setter; checks that the base font exists.
    pub fn new(
        book: &'a FontBook,
        font: &'a FontSpec,
        icons: &'a dyn IconSource,
        fuel: &'a dyn Fn(u64) -> bool,
    ) -> Result<Setter<'a>, TextError> {
        face_for(font, book)?;
        Ok(Setter {
            book,
            font,
            icons,
            fuel,
            faces: Default::default(),
        })
    }

    fn face(
        &self,
        bold: bool,
        italic: bool,
    ) -> Result<&'static rustybuzz::Face<'static>, TextError> {
        let slot = &self.faces[usize::from(bold) * 2 + usize::from(italic)];
        slot.get_or_init(|| face_for(&self.font.styled(bold, italic), self.book))
            .clone()
    }

    fn text_width(
        &self,
        text: &str,
        bold: bool,
        italic: bool,
        size: f64,
    ) -> Result<f64, TextError> {
        if !(self.fuel)(FUEL_PER_MEASURE + FUEL_PER_CHAR * text.len() as u64) {
            return Err(TextError::OutOfFuel);
        }
        Ok(face_width(self.face(bold, italic)?, text, size))
    }

    fn item_width(&self, item: &Item, size: f64) -> Result<f64, TextError> {
        match item {
            Item::Text { text, bold, italic } => self.text_width(text, *bold, *italic, size),
            Item::Icon(icon) => Ok((icon.aspect * ICON_HEIGHT + 2.0 * ICON_PAD) * size),
        }
    }

    fn width(&self, items: &[Item], size: f64) -> Result<f64, TextError> {
        items.iter().map(|i| self.item_width(i, size)).sum()
    }

    /// Adds a word to a line's items, after a space if the line has any.
    fn append(&self, items: &mut Vec<Item>, word: &[Atom]) -> Result<(), TextError> {
        let mut pending_space = !items.is_empty();
        if pending_space {
            if let Some(Item::Text { text, .. }) = items.last_mut() {
                text.push(' ');
                pending_space = false;
            }
        }
        for atom in word {
            match atom {
                Atom::Text { text, bold, italic } => {
                    let lead = if std::mem::take(&mut pending_space) {
                        " "
                    } else {
                        ""
                    };
                    match items.last_mut() {
                        Some(Item::Text {
                            text: t,
                            bold: b,
                            italic: i,
                        }) if b == bold && i == italic => {
                            t.push_str(lead);
                            t.push_str(text);
                        }
                        _ => items.push(Item::Text {
                            text: format!("{lead}{text}"),
                            bold: *bold,
                            italic: *italic,
                        }),
                    }
                }
                Atom::Icon(name) => {
                    if std::mem::take(&mut pending_space) {
                        items.push(Item::Text {
                            text: " ".into(),
                            bold: false,
                            italic: false,
                        });
                    }
                    items.push(Item::Icon(self.icons.icon(name)?));
                }
            }
        }
        Ok(())
    }

    /// Places a line's items.
    fn line(&self, items: Vec<Item>, size: f64) -> Result<Line, TextError> {
        let mut runs = Vec::with_capacity(items.len());
        let mut x = 0.0;
        for item in items {
            let w = self.item_width(&item, size)?;
            match item {
                Item::Text { text, bold, italic } => {
                    let trimmed = text.trim_end_matches(' ');
                    let visible = trimmed.trim_start_matches(' ');
                    if !visible.is_empty() {
                        let lead = if visible.len() == trimmed.len() {
                            0.0
                        } else {
                            self.text_width(
                                &trimmed[..trimmed.len() - visible.len()],
                                bold,
                                italic,
                                size,
                            )?
                        };
                        let width = if visible.len() == text.len() {
                            w
                        } else {
                            self.text_width(visible, bold, italic, size)?
                        };
                        runs.push(Run {
                            kind: RunKind::Text {
                                text: visible.to_string(),
                                bold,
                                italic,
                            },
                            x: x + lead,
                            width,
                        });
                    }
                }
                Item::Icon(icon) => {
                    let pad = ICON_PAD * size;
                    runs.push(Run {
                        x: x + pad,
                        width: w - 2.0 * pad,
                        kind: RunKind::Icon(icon),
                    });
                }
            }
            x += w;
        }
        Ok(Line {
            runs,
            width: x,
            size,
        })
    }

    /// Greedy word wrap of `paragraphs` into lines at most `max` mm wide (no limit
    /// for `None`); a single word wider than the line stays on a line of its own.
    /// Each line comes with its width (measured when it has more than one word).
    ///
    /// A line takes words while the line with the next word still fits. Measuring
    /// every such candidate shapes each line once per word, so the words are first
    /// counted from their own widths (kept per text, so each word is shaped about
    /// once a build) and only the guess is measured: the line found must fit and the
    /// line with one more word must not, stepping a word at a time until both hold.
    /// Adding a word adds a space's and the word's advance, far more than any
    /// kerning takes back, so a line with more words is wider and this gives the
    /// lines that measuring every candidate gives; either way, every line is
    /// measured to fit.
    fn wrap_items(
        &self,
        paragraphs: &[Paragraph],
        max: Option<f64>,
        size: f64,
    ) -> Result<Vec<SetLine>, TextError> {
        let mut lines = Vec::new();
        for para in paragraphs {
            let Some(max) = max else {
                let mut line = Vec::new();
                for word in para {
                    self.append(&mut line, word)?;
                }
                lines.push((line, None));
                continue;
            };
            if para.is_empty() {
                lines.push((Vec::new(), None));
                continue;
            }
            let guess = self.word_widths(para, size)?;
            let space = self.text_width(" ", false, false, size)?;
            let mut first = 0;
            while first < para.len() {
                let words = &para[first..];
                let line = |last: usize| -> Result<Vec<Item>, TextError> {
                    let mut items = Vec::new();
                    for word in &words[..=last] {
                        self.append(&mut items, word)?;
                    }
                    Ok(items)
                };
                // The guess: as many words as their widths say fit.
                let mut last = 0;
                let mut width = guess[first];
                while last + 1 < words.len() && width + space + guess[first + last + 1] <= max {
                    last += 1;
                    width += space + guess[first + last];
                }
                // Fewer words while the guess is too wide ...
                let mut measured = None;
                while last > 0 {
                    let w = self.width(&line(last)?, size)?;
                    if w <= max {
                        measured = Some(w);
                        break;
                    }
                    last -= 1;
                }
                // ... more while the next word still fits.
                while last + 1 < words.len() {
                    let w = self.width(&line(last + 1)?, size)?;
                    if w > max {
                        break;
                    }
                    last += 1;
                    measured = Some(w);
                }
                lines.push((line(last)?, measured));
                first += last + 1;
            }
        }
        Ok(lines)
    }

    /// Each word's width set alone, for [`Setter::wrap_items`]'s guess.
    fn word_widths(&self, para: &[markup::Word], size: f64) -> Result<Vec<f64>, TextError> {
        para.iter()
            .map(|word| {
                let mut items = Vec::new();
                self.append(&mut items, word)?;
                self.width(&items, size)
            })
            .collect()
    }

    /// The lines of `text` that fit `max` mm (no limit for `None`) at `size` mm.
    pub fn wrap(&self, text: &str, max: Option<f64>, size: f64) -> Result<Vec<Line>, TextError> {
        let paragraphs = markup::parse(text);
        self.wrap_items(&paragraphs, max, size)?
            .into_iter()
            .map(|(items, _)| self.line(items, size))
            .collect()
    }

    /// Width of the widest line of `text` set without wrapping.
    pub fn widest(&self, text: &str, size: f64) -> Result<f64, TextError> {
        let paragraphs = markup::parse(text);
        let mut widest: f64 = 0.0;
        for (items, _) in self.wrap_items(&paragraphs, None, size)? {
            widest = widest.max(self.width(&items, size)?);
        }
        Ok(widest)
    }
}

/// The result of fitting text into a box.
#[derive(Debug, Clone, PartialEq)]
pub struct Fitted {
    /// Font size in mm.
    pub size: f64,
    pub lines: Vec<Line>,
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
    setter: &Setter,
    text: &str,
    (w, h): (f64, f64),
    (max, min): (f64, f64),
    leading: f64,
) -> Result<Fitted, TextError> {
    if !(min > 0.0 && max >= min && w > 0.0 && h > 0.0) {
        return Err(TextError::BadFit { min, max, w, h });
    }
    let paragraphs = markup::parse(text);
    let steps = ((max - min) / 0.1).round() as i64;
    for k in 0..=steps {
        let size = ((max - k as f64 * 0.1) * 100.0).round() / 100.0;
        let lines = setter.wrap_items(&paragraphs, Some(w), size)?;
        if block_height(lines.len(), size, leading) > h + 1e-9 {
            continue;
        }
        let mut widest: f64 = 0.0;
        for (items, measured) in &lines {
            let width = match measured {
                Some(m) => *m,
                None => setter.width(items, size)?,
            };
            widest = widest.max(width);
        }
        if widest <= w + 1e-9 {
            return Ok(Fitted {
                size,
                lines: lines
                    .into_iter()
                    .map(|(items, _)| setter.line(items, size))
                    .collect::<Result<_, _>>()?,
                line_height: size * leading,
            });
        }
    }
    let lines = setter.wrap_items(&paragraphs, Some(w), min)?;
    let short: String = text.chars().take(48).collect();
    Err(TextError::DoesNotFit {
        text: format!(
            "{short}{}",
            if text.chars().count() > 48 { "…" } else { "" }
        ),
        w,
        h,
        min,
        lines: lines.len(),
        needed: block_height(lines.len(), min, leading),
    })
}

/// The size (at most `size`, at least `min`) at which the widest line of `text`
/// fits `w` mm. `Err((measured, min))` when it is still wider than `w` at `min`.
pub fn shrink(
    setter: &Setter,
    text: &str,
    w: f64,
    size: f64,
    min: f64,
) -> Result<Result<f64, (f64, f64)>, TextError> {
    let measured = setter.widest(text, size)?;
    if measured <= w {
        return Ok(Ok(size));
    }
    let s = (size * w / measured * 20.0).floor() / 20.0;
    if s >= min {
        Ok(Ok(s))
    } else {
        Ok(Err((setter.widest(text, min)?, min)))
    }
}

#[cfg(test)]
mod tests {
    use super::super::icons::NoIcons;
    use super::*;

    struct Square;
    impl IconSource for Square {
        fn icon(&self, name: &str) -> Result<Arc<Icon>, TextError> {
            Ok(Arc::new(Icon {
                name: name.into(),
                path: "icons/x.svg".into(),
                aspect: 1.0,
                view_box: "0 0 1 1".into(),
                markup: String::new(),
                one_colour: String::new(),
            }))
        }
    }

    fn plain(lines: &[Line]) -> Vec<String> {
        lines.iter().map(Line::text).collect()
    }

    #[test]
    fn wraps_plain_text_as_before() {
        let book = FontBook::builtin();
        let f = FontSpec::default();
        let s = Setter::new(&book, &f, &NoIcons, &|_| true).unwrap();
        let lines = s
            .wrap("one two three four five six seven", Some(20.0), 4.0)
            .unwrap();
        assert!(lines.len() > 1);
        assert!(lines.iter().all(Line::is_plain));
        assert_eq!(plain(&lines).join(" "), "one two three four five six seven");
        for l in &lines {
            let w = super::super::width(&l.text(), 4.0, &f, &book).unwrap();
            assert!((l.width - w).abs() < 1e-9 && w <= 20.0, "{l:?}");
        }
        assert_eq!(
            plain(&s.wrap("a\n\nb", Some(20.0), 4.0).unwrap()),
            ["a", "", "b"]
        );
    }

    /// The wrap before [`Setter::wrap_items`] guessed: every candidate measured.
    fn wrap_measuring_every_candidate(
        s: &Setter,
        paragraphs: &[Paragraph],
        max: f64,
        size: f64,
    ) -> Vec<SetLine> {
        let mut lines = Vec::new();
        for para in paragraphs {
            let mut line: Vec<Item> = Vec::new();
            let mut measured = None;
            for word in para {
                if line.is_empty() {
                    s.append(&mut line, word).unwrap();
                    measured = None;
                    continue;
                }
                let mut candidate = line.clone();
                s.append(&mut candidate, word).unwrap();
                let w = s.width(&candidate, size).unwrap();
                if w <= max {
                    line = candidate;
                    measured = Some(w);
                } else {
                    lines.push((std::mem::take(&mut line), measured));
                    s.append(&mut line, word).unwrap();
                    measured = None;
                }
            }
            lines.push((line, measured));
        }
        lines
    }

    #[test]
    fn the_guessed_wrap_gives_the_lines_of_measuring_every_candidate() {
        let book = FontBook::builtin();
        let texts = [
            "Drive up to 3 spaces a turn, space to space across the roads (never diagonally); rivers block roads.",
            "**Wild**: sales of any die. Grey: empty lot, no sales. Circle your START.",
            "Pay :coin: 2 to the bank, then **draw two** cards; if the deck is empty, shuffle the discards.",
            "AVAVAVAVAVAV To Ty Yo WA Wa LT \"quoted\" supercalifragilisticexpialidocious x",
            "a\n\nshort\nlines and one verylongwordthatneverfits",
        ];
        let font = FontSpec::default();
        let s = Setter::new(&book, &font, &Square, &|_| true).unwrap();
        let mut lines_seen = 0;
        for text in texts {
            let paragraphs = markup::parse(text);
            for size in [1.5, 2.05, 3.0, 4.4] {
                for tenth in (20..=900).step_by(7) {
                    let max = tenth as f64 / 10.0;
                    let guessed = s.wrap_items(&paragraphs, Some(max), size).unwrap();
                    let every = wrap_measuring_every_candidate(&s, &paragraphs, max, size);
                    assert_eq!(
                        format!("{guessed:?}"),
                        format!("{every:?}"),
                        "{text:?} at {size} mm in {max} mm"
                    );
                    lines_seen += guessed.len();
                }
            }
        }
        assert!(lines_seen > 10_000, "{lines_seen}");
    }

    #[test]
    fn rich_lines_place_runs_and_icons() {
        let book = FontBook::builtin();
        let f = FontSpec::default();
        let s = Setter::new(&book, &f, &Square, &|_| true).unwrap();
        let lines = s
            .wrap("Gain 2 :coin: and **draw** a card", None, 4.0)
            .unwrap();
        assert_eq!(lines.len(), 1);
        let l = &lines[0];
        assert!(!l.is_plain());
        assert_eq!(l.text(), "Gain 2 and draw a card");
        let kinds: Vec<String> = l
            .runs
            .iter()
            .map(|r| match &r.kind {
                RunKind::Text { text, bold, .. } => {
                    format!("{text}{}", if *bold { "!" } else { "" })
                }
                RunKind::Icon(i) => format!(":{}:", i.name),
            })
            .collect();
        assert_eq!(kinds, ["Gain 2", ":coin:", "and", "draw!", "a card"]);
        // The icon is a square 0.9 em high, after "Gain 2 " and its side space.
        let icon = &l.runs[1];
        let before = super::super::width("Gain 2 ", 4.0, &f, &book).unwrap();
        assert!((icon.x - before - ICON_PAD * 4.0).abs() < 1e-9, "{icon:?}");
        assert!((icon.width - ICON_HEIGHT * 4.0).abs() < 1e-9);
        // Runs follow each other: each starts after the one before.
        for pair in l.runs.windows(2) {
            assert!(pair[1].x >= pair[0].x + pair[0].width - 1e-9, "{pair:?}");
        }
        let last = l.runs.last().unwrap();
        assert!((last.x + last.width - l.width).abs() < 1e-9);
        // Wrapped narrow, the icon stays with its word's neighbours.
        let narrow = s
            .wrap("Gain 2 :coin: and **draw** a card", Some(14.0), 4.0)
            .unwrap();
        assert!(narrow.len() > 1);
        assert!(narrow.iter().all(|l| l.width <= 14.0));
    }

    #[test]
    fn fits_or_fails_and_counts_fuel() {
        let book = FontBook::builtin();
        let f = FontSpec::default();
        let s = Setter::new(&book, &f, &NoIcons, &|_| true).unwrap();
        let text =
            "Pay the Federal Reserve 3 Metrodollars for every station you own in a $2|$1 zone.";
        let big = fit(&s, text, (50.0, 30.0), (5.0, 2.0), 1.2).unwrap();
        let small = fit(&s, text, (50.0, 12.0), (5.0, 2.0), 1.2).unwrap();
        assert!(small.size < big.size);
        let e = fit(&s, text, (10.0, 5.0), (5.0, 3.0), 1.2).unwrap_err();
        assert!(
            e.to_string()
                .contains("does not fit its 10 x 5 mm box even at the minimum size 3 mm"),
            "{e}"
        );
        let spent = std::cell::Cell::new(0u64);
        let fuel = |n| {
            spent.set(spent.get() + n);
            spent.get() < 10_000
        };
        let s = Setter::new(&book, &f, &NoIcons, &fuel).unwrap();
        let huge = "word ".repeat(5_000);
        assert_eq!(
            fit(&s, &huge, (50.0, 30.0), (5.0, 2.0), 1.2).unwrap_err(),
            TextError::OutOfFuel
        );
    }
}
