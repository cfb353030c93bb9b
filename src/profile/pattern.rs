//! The names of a print shop's per-face files: a profile's `path`, such as
//! `{component}/{number}-{side}.png` or `{component}/{id}-{side}.png`, is text
//! with placeholders that each face fills in. A placeholder is one of
//! [`BUILT_IN`] or a field of the face's row (`{name}`, `{suit}`), so files can be
//! named from the data. What a placeholder may be is only known with the game's
//! tables: the pattern is parsed when the profile loads, and checked against a
//! component set when its files are named (`deliver::faces`).

use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::diag::Diagnostic;

/// The placeholders every face has, with what they give.
pub const BUILT_IN: [(&str, &str); 4] = [
    ("component", "the component set's id: `cards`"),
    (
        "number",
        "the face's number in its set, three digits: `001`",
    ),
    ("side", "`front` or `back`"),
    ("id", "the `id` of the face's row: `red-1`"),
];

/// The default pattern of per-face files.
pub const DEFAULT: &str = "{component}/{number}-{side}.png";

/// A file name pattern: literal text and placeholders.
#[derive(Debug, Clone, PartialEq)]
pub struct FilePattern {
    /// As written in the profile.
    pub text: String,
    /// Where it is written: the profile file and the byte range of the whole
    /// value (`None` for the built-in default).
    pub at: Option<(PathBuf, Range<usize>)>,
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq)]
enum Part {
    Text(String),
    /// `{name}`, at `span` (the braces included) in the pattern's text.
    Slot {
        name: String,
        span: Range<usize>,
    },
}

/// A placeholder a face cannot fill.
#[derive(Debug, Clone, PartialEq)]
pub enum Unfilled {
    /// The face has no value for it (a row without that field, a set without a
    /// table).
    Missing(String),
    /// The value is a list or a table, not text or a number.
    NotText(String),
    /// The value gives nothing a file name can hold (only punctuation).
    Empty(String),
}

impl FilePattern {
    /// The built-in default, `{component}/{number}-{side}.png`.
    pub fn default_pattern() -> FilePattern {
        FilePattern::parse(DEFAULT, None).expect("the default pattern parses")
    }

    /// Reads `text`; `at` is where it is written (`value` the span of the TOML
    /// string, quotes included). An unclosed or empty placeholder, a path that
    /// leaves its folder or does not end in `.png` is an error there.
    pub fn parse(
        text: &str,
        at: Option<(PathBuf, Range<usize>)>,
    ) -> Result<FilePattern, Diagnostic> {
        let pattern = FilePattern {
            text: text.to_string(),
            at,
            parts: Vec::new(),
        };
        let mut parts = Vec::new();
        let mut rest = 0;
        while let Some(open) = text[rest..].find('{').map(|i| rest + i) {
            let close = text[open..].find('}').map(|i| open + i);
            // `{id-{side}`: the first brace closes nowhere.
            let next_open = text[open + 1..].find('{').map(|i| open + 1 + i);
            let Some(close) = close.filter(|c| next_open.is_none_or(|n| n > *c)) else {
                return Err(pattern.error(
                    format!("the profile path `{text}` has a `{{` that is never closed"),
                    Some(open..next_open.unwrap_or(text.len())),
                    "write placeholders as `{component}`, `{number}`, `{side}`, `{id}` or `{<field of the row>}`",
                ));
            };
            let name = text[open + 1..close].trim();
            if name.is_empty() {
                return Err(pattern.error(
                    format!("the profile path `{text}` has an empty placeholder"),
                    Some(open..close + 1),
                    "put a name between the braces: `{component}`, `{number}`, `{side}`, `{id}` or a field of the row",
                ));
            }
            if open > rest {
                parts.push(Part::Text(text[rest..open].to_string()));
            }
            parts.push(Part::Slot {
                name: name.to_string(),
                span: open..close + 1,
            });
            rest = close + 1;
        }
        if rest < text.len() {
            parts.push(Part::Text(text[rest..].to_string()));
        }
        let literal: String = parts
            .iter()
            .map(|p| match p {
                Part::Text(t) => t.as_str(),
                Part::Slot { .. } => "x",
            })
            .collect();
        let leaves = literal.starts_with('/')
            || literal.contains('\\')
            || literal
                .split('/')
                .any(|c| c.is_empty() || c == "." || c == "..");
        if leaves {
            return Err(pattern.error(
                format!("the profile path `{text}` is not a path inside the profile's folder"),
                None,
                "write a relative path with `/` between folders and no `..`, e.g. `{component}/{id}-{side}.png`",
            ));
        }
        if !literal.to_ascii_lowercase().ends_with(".png") {
            return Err(pattern.error(
                format!("the profile path `{text}` does not end in `.png`"),
                None,
                "the files are PNG images: end the path with `.png`, e.g. `{component}/{number}-{side}.png`",
            ));
        }
        Ok(FilePattern { parts, ..pattern })
    }

    /// The placeholders, in order, with their span in [`FilePattern::text`].
    pub fn placeholders(&self) -> impl Iterator<Item = (&str, &Range<usize>)> {
        self.parts.iter().filter_map(|p| match p {
            Part::Slot { name, span } => Some((name.as_str(), span)),
            Part::Text(_) => None,
        })
    }

    /// The file name for one face: each placeholder replaced by `value(name)`,
    /// made safe for a file name ([`file_piece`]).
    pub fn fill(
        &self,
        value: impl Fn(&str) -> Result<String, Unfilled>,
    ) -> Result<String, Unfilled> {
        let mut out = String::new();
        for p in &self.parts {
            match p {
                Part::Text(t) => out.push_str(t),
                Part::Slot { name, .. } => {
                    let piece = file_piece(&value(name)?);
                    if piece.is_empty() {
                        return Err(Unfilled::Empty(name.clone()));
                    }
                    out.push_str(&piece);
                }
            }
        }
        Ok(out)
    }

    /// A diagnostic about the pattern, at `part` of its text (a byte range of
    /// [`FilePattern::text`]) or at the whole value.
    pub fn error(&self, message: String, part: Option<Range<usize>>, hint: &str) -> Diagnostic {
        let d = Diagnostic::error(message).hint(hint);
        match &self.at {
            Some((file, value)) => d.at(file, Some(value_part(&self.text, value, part))),
            None => d,
        }
    }

    /// The profile file the pattern is written in, if any.
    pub fn file(&self) -> Option<&Path> {
        self.at.as_ref().map(|(f, _)| f.as_path())
    }
}

/// The span of `part` of a TOML string `text` whose value spans `value` (quotes
/// included): inside the quotes of a plain one-line string, else the whole value.
fn value_part(text: &str, value: &Range<usize>, part: Option<Range<usize>>) -> Range<usize> {
    let plain = value.len() == text.len() + 2 && !text.contains(['\\', '"', '\'', '\n']);
    match part {
        Some(p) if plain && p.end <= text.len() => {
            value.start + 1 + p.start..value.start + 1 + p.end
        }
        _ => value.clone(),
    }
}

/// A value made safe as a piece of a file name on every system and shop upload:
/// letters and digits (of any script), `-`, `_` and `.` are kept; any other run of
/// characters (spaces, `/`, `&`, `:`) becomes one `-`; leading dots and dashes and
/// trailing dashes are dropped. `Three & Co` gives `Three-Co`.
pub fn file_piece(value: &str) -> String {
    let mut out = String::new();
    for c in value.chars() {
        if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_start_matches(['.', '-']).trim_end_matches('-');
    out.replace("..", ".")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(p: &FilePattern) -> Vec<&str> {
        p.placeholders().map(|(n, _)| n).collect()
    }

    #[test]
    fn parses_and_fills() {
        let p = FilePattern::parse("{component}/{id}-{side}.png", None).unwrap();
        assert_eq!(names(&p), ["component", "id", "side"]);
        let filled = p
            .fill(|n| {
                Ok(match n {
                    "component" => "cards".into(),
                    "id" => "Three & Co".into(),
                    _ => "front".into(),
                })
            })
            .unwrap();
        assert_eq!(filled, "cards/Three-Co-front.png");
        assert_eq!(
            p.fill(|n| Err(Unfilled::Missing(n.into()))),
            Err(Unfilled::Missing("component".into()))
        );
        assert_eq!(
            p.fill(|_| Ok("../..".into())),
            Err(Unfilled::Empty("component".into()))
        );
    }

    #[test]
    fn file_pieces() {
        assert_eq!(file_piece("Fire Ball"), "Fire-Ball");
        assert_eq!(file_piece("a/b\\c"), "a-b-c");
        assert_eq!(file_piece("..secret"), "secret");
        assert_eq!(file_piece("Café №5"), "Café-5");
        assert_eq!(file_piece("x..y"), "x.y");
        assert_eq!(file_piece("  "), "");
    }

    #[test]
    fn bad_patterns() {
        let at = Some((PathBuf::from("profiles/x.toml"), 10..26));
        let e = FilePattern::parse("{id-{side}.png", at.clone()).unwrap_err();
        assert!(e.message.contains("never closed"), "{}", e.message);
        assert_eq!(e.span, Some(11..15), "at `{{id-`");
        let e = FilePattern::parse("{}.png", None).unwrap_err();
        assert!(e.message.contains("empty placeholder"));
        for leaves in ["/{id}.png", "../{id}.png", "a//{id}.png", "a\\{id}.png"] {
            let e = FilePattern::parse(leaves, None).unwrap_err();
            assert!(e.message.contains("not a path inside"), "{leaves}");
        }
        let e = FilePattern::parse("{id}.jpg", None).unwrap_err();
        assert!(e.message.contains("does not end in `.png`"));
        assert!(FilePattern::parse("{id}.PNG", None).is_ok());
    }
}
