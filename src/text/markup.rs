//! The markup of text set by `wrap`, `fit` and `shrink`:
//!
//! - `**bold**` and `*italic*` (`***both***`). A `*` opens only before a
//!   character that is not a space and closes only after one, so `5 * 3` stays as
//!   written; markers that find no partner in their line are printed as they are.
//! - `:name:` is an inline icon (a name starts with a lowercase letter, then
//!   lowercase letters, digits, `-` or `_`): `Gain 2 :coin:`.
//! - A line break (a newline in the text) starts a new line.
//! - `\*`, `\:` and `\\` are a literal `*`, `:` and `\`.
//! - A no-break space (U+00A0, U+2007, U+202F) joins two words on one line.

/// A piece of a word: text in one style, or an icon.
#[derive(Debug, Clone, PartialEq)]
pub enum Atom {
    Text {
        text: String,
        bold: bool,
        italic: bool,
    },
    Icon(String),
}

/// What lines may break between: atoms with no breakable space inside.
pub type Word = Vec<Atom>;

/// The words of one line of the source text (between line breaks).
pub type Paragraph = Vec<Word>;

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Char(char),
    Delim { bold: bool, open: bool, close: bool },
    Icon(String),
    Break,
}

/// Whether `c` separates words (spaces that may break; not the no-break ones).
fn breaks(c: char) -> bool {
    c.is_whitespace() && !matches!(c, '\u{a0}' | '\u{2007}' | '\u{202f}')
}

/// The index of the `:` that closes an icon name starting after `chars[at]`.
pub(crate) fn icon_end(chars: &[char], at: usize) -> Option<usize> {
    let first = *chars.get(at + 1)?;
    if !first.is_ascii_lowercase() {
        return None;
    }
    let mut i = at + 2;
    while let Some(&c) = chars.get(i) {
        match c {
            ':' => return Some(i),
            'a'..='z' | '0'..='9' | '-' | '_' => i += 1,
            _ => return None,
        }
    }
    None
}

fn tokens(text: &str) -> Vec<Tok> {
    let chars: Vec<char> = text.chars().collect();
    let mut toks = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if matches!(chars.get(i + 1), Some('*' | ':' | '\\')) => {
                toks.push(Tok::Char(chars[i + 1]));
                i += 2;
            }
            '\n' => {
                toks.push(Tok::Break);
                i += 1;
            }
            ':' => match icon_end(&chars, i) {
                Some(end) => {
                    toks.push(Tok::Icon(chars[i + 1..end].iter().collect()));
                    i = end + 1;
                }
                None => {
                    toks.push(Tok::Char(':'));
                    i += 1;
                }
            },
            '*' => {
                let n = chars[i..].iter().take_while(|&&c| c == '*').count();
                let prev = i.checked_sub(1).map(|p| chars[p]);
                let next = chars.get(i + n).copied();
                let open = next.is_some_and(|c| !c.is_whitespace());
                let close = prev.is_some_and(|c| !c.is_whitespace());
                match n {
                    1 | 2 => toks.push(Tok::Delim {
                        bold: n == 2,
                        open,
                        close,
                    }),
                    3 => {
                        for bold in [true, false] {
                            toks.push(Tok::Delim { bold, open, close });
                        }
                    }
                    _ => toks.extend(std::iter::repeat_n(Tok::Char('*'), n)),
                }
                i += n;
            }
            _ => {
                toks.push(Tok::Char(c));
                i += 1;
            }
        }
    }
    toks
}

/// For each token of one paragraph: `Some(true)` for a delimiter that opens a
/// matched pair, `Some(false)` for one that closes it, `None` otherwise.
fn matches(toks: &[Tok]) -> Vec<Option<bool>> {
    let mut role = vec![None; toks.len()];
    let mut open: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
    for (k, t) in toks.iter().enumerate() {
        if let Tok::Delim {
            bold,
            open: can_open,
            close: can_close,
        } = t
        {
            let stack = &mut open[usize::from(*bold)];
            if *can_close && !stack.is_empty() {
                if let Some(o) = stack.pop() {
                    role[o] = Some(true);
                    role[k] = Some(false);
                }
            } else if *can_open {
                stack.push(k);
            }
        }
    }
    role
}

/// Appends `c` in a style to `word`, joining the last text atom of that style.
fn push_char(word: &mut Word, c: char, bold: bool, italic: bool) {
    if let Some(Atom::Text {
        text,
        bold: b,
        italic: i,
    }) = word.last_mut()
    {
        if *b == bold && *i == italic {
            text.push(c);
            return;
        }
    }
    word.push(Atom::Text {
        text: c.to_string(),
        bold,
        italic,
    });
}

/// The paragraphs (one per source line) of `text`, each a list of words.
pub fn parse(text: &str) -> Vec<Paragraph> {
    let toks = tokens(text);
    let mut paragraphs = Vec::new();
    for para in toks.split(|t| *t == Tok::Break) {
        let role = matches(para);
        let (mut bold, mut italic) = (0i32, 0i32);
        let mut words: Paragraph = Vec::new();
        let mut word: Word = Vec::new();
        for (t, r) in para.iter().zip(role) {
            match t {
                Tok::Char(c) if breaks(*c) => {
                    if !word.is_empty() {
                        words.push(std::mem::take(&mut word));
                    }
                }
                Tok::Char(c) => push_char(&mut word, *c, bold > 0, italic > 0),
                Tok::Icon(name) => word.push(Atom::Icon(name.clone())),
                Tok::Delim { bold: b, .. } => {
                    let depth = if *b { &mut bold } else { &mut italic };
                    match r {
                        Some(true) => *depth += 1,
                        Some(false) => *depth -= 1,
                        None => {
                            for _ in 0..if *b { 2 } else { 1 } {
                                push_char(&mut word, '*', bold > 0, italic > 0);
                            }
                        }
                    }
                }
                Tok::Break => {}
            }
        }
        if !word.is_empty() {
            words.push(word);
        }
        paragraphs.push(words);
    }
    paragraphs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(text: &str, bold: bool, italic: bool) -> Atom {
        Atom::Text {
            text: text.into(),
            bold,
            italic,
        }
    }

    #[test]
    fn styles_icons_and_breaks() {
        let p = parse("Gain 2 :coin: and **draw** a *card*.\nNext");
        assert_eq!(p.len(), 2);
        assert_eq!(
            p[0],
            vec![
                vec![t("Gain", false, false)],
                vec![t("2", false, false)],
                vec![Atom::Icon("coin".into())],
                vec![t("and", false, false)],
                vec![t("draw", true, false)],
                vec![t("a", false, false)],
                vec![t("card", false, true), t(".", false, false)],
            ]
        );
        assert_eq!(p[1], vec![vec![t("Next", false, false)]]);
        assert_eq!(
            parse("***both*** :coin:,")[0],
            vec![
                vec![t("both", true, true)],
                vec![Atom::Icon("coin".into()), t(",", false, false)]
            ]
        );
    }

    #[test]
    fn literal_stars_and_colons() {
        let words = |s: &str| -> Vec<String> {
            parse(s)[0]
                .iter()
                .map(|w| {
                    w.iter()
                        .map(|a| match a {
                            Atom::Text { text, .. } => text.clone(),
                            Atom::Icon(n) => format!("[{n}]"),
                        })
                        .collect()
                })
                .collect()
        };
        assert_eq!(words("5 * 3"), ["5", "*", "3"]);
        assert_eq!(words("a **b"), ["a", "**b"]);
        assert_eq!(words(r"\*not\* \:coin: \\"), ["*not*", ":coin:", "\\"]);
        assert_eq!(
            words("Cost: 3, at 10:30:45"),
            ["Cost:", "3,", "at", "10:30:45"]
        );
        assert_eq!(words("x:Coin: y"), ["x:Coin:", "y"]);
        assert_eq!(words("a\u{a0}b c"), ["a\u{a0}b", "c"]);
        assert_eq!(words("a ****b"), ["a", "****b"]);
        // An unmatched marker stays, the matched ones style.
        assert_eq!(
            parse("*a **b*")[0],
            vec![vec![t("a", false, true)], vec![t("**b", false, true)]]
        );
    }
}
