//! A long source line as a diagnostic shows it: cut to the part around the caret,
//! with its true line and column numbers. A minified SVG file is one line of a
//! megabyte, and a template loop or a TOML value can be one line of thousands of
//! characters: shown whole, one error would fill the terminal.

use std::ops::Range;

use codespan_reporting::files::{Error, Files, SimpleFile};

/// Longest source line shown whole, in characters; a longer one is cut to this
/// many characters around the caret, with `…` where it is cut.
pub const SHOWN_LINE: usize = 400;

/// Most lines of a span over several lines shown whole; a longer span is shown
/// by its first line (a TOML string of a thousand lines, a template).
pub const SHOWN_LINES: usize = 20;

/// Characters of a cut line shown before the caret.
const BEFORE: usize = 150;

/// One line of a file, cut around a span.
pub struct Cut {
    file: SimpleFile<String, String>,
    /// The line's index in the whole file.
    line: usize,
    /// Characters of the line left out before the part shown, less the `…`.
    skipped: usize,
}

impl Cut {
    /// The line of `text` that holds `span`, cut around it, and `span` in what is
    /// shown; `None` when the line is short enough to show whole or `span` runs
    /// past it.
    pub fn new(name: &str, text: &str, mut span: Range<usize>) -> Option<(Cut, Range<usize>)> {
        if !text.is_char_boundary(span.start) || !text.is_char_boundary(span.end) {
            return None;
        }
        let start = text[..span.start].rfind('\n').map_or(0, |i| i + 1);
        let end = text[span.start..]
            .find('\n')
            .map_or(text.len(), |i| span.start + i);
        if span.end > end {
            // A span over several lines is shown whole when they are few and
            // short; else only its first line, underlined to its end.
            let last = text[span.end..]
                .find('\n')
                .map_or(text.len(), |i| span.end + i);
            let mut lines = text[start..last].split('\n');
            let long = |l: &str| l.chars().count() > SHOWN_LINE;
            if text[start..last].split('\n').count() <= SHOWN_LINES && !lines.any(long) {
                return None;
            }
            span.end = end;
        } else if text[start..end].chars().count() <= SHOWN_LINE {
            return None;
        }
        let from = text[start..span.start]
            .char_indices()
            .rev()
            .nth(BEFORE - 1)
            .map_or(start, |(i, _)| start + i);
        let to = text[from..end]
            .char_indices()
            .nth(SHOWN_LINE)
            .map_or(end, |(i, _)| from + i);
        let head = if from > start { "…" } else { "" };
        let tail = if to < end { "…" } else { "" };
        let shown = format!("{head}{}{tail}", &text[from..to]);
        let at = head.len() + span.start - from;
        let until = head.len() + span.end.min(to) - from;
        let cut = Cut {
            file: SimpleFile::new(name.to_string(), shown),
            line: text[..start].matches('\n').count(),
            skipped: text[start..from].chars().count() - head.chars().count(),
        };
        Some((cut, at..until.max(at)))
    }
}

/// `text` with each line longer than `SHOWN_LINE` characters cut in its middle
/// (`…`), keeping both ends: a message or note that quotes a long value.
pub fn shortened(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.split('\n').any(|l| l.chars().count() > SHOWN_LINE) {
        return std::borrow::Cow::Borrowed(text);
    }
    let lines: Vec<String> = text
        .split('\n')
        .map(|l| {
            let n = l.chars().count();
            if n <= SHOWN_LINE {
                return l.to_string();
            }
            let head: String = l.chars().take(SHOWN_LINE - KEPT_END).collect();
            let tail: String = l.chars().skip(n - KEPT_END).collect();
            format!("{head}…{tail}")
        })
        .collect();
    std::borrow::Cow::Owned(lines.join("\n"))
}

/// Characters of a shortened line kept at its end.
const KEPT_END: usize = 100;

impl<'a> Files<'a> for Cut {
    type FileId = ();
    type Name = String;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<String, Error> {
        Ok(self.file.name().clone())
    }

    fn source(&'a self, (): ()) -> Result<&'a str, Error> {
        Ok(self.file.source())
    }

    fn line_index(&'a self, (): (), byte_index: usize) -> Result<usize, Error> {
        self.file.line_index((), byte_index)
    }

    fn line_range(&'a self, (): (), line_index: usize) -> Result<Range<usize>, Error> {
        self.file.line_range((), line_index)
    }

    fn line_number(&'a self, (): (), line_index: usize) -> Result<usize, Error> {
        Ok(self.line + line_index + 1)
    }

    fn column_number(&'a self, (): (), line: usize, byte_index: usize) -> Result<usize, Error> {
        Ok(self.file.column_number((), line, byte_index)? + self.skipped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_cut_around_the_span_keeping_its_numbers() {
        let line = format!("{}é<bad>{}", "x".repeat(1000), "y".repeat(1000));
        let text = format!("first\n{line}\nlast\n");
        let at = text.find("<bad>").unwrap();
        let (cut, span) = Cut::new("f.svg", &text, at..at + 5).unwrap();
        let shown = cut.source(()).unwrap();
        assert_eq!(shown.chars().count(), SHOWN_LINE + 2);
        assert!(shown.starts_with('…') && shown.ends_with('…'));
        assert_eq!(&shown[span.clone()], "<bad>");
        let index = cut.line_index((), span.start).unwrap();
        assert_eq!(cut.line_number((), index).unwrap(), 2);
        // 1,000 x and é before it: column 1,002, as in the whole line.
        assert_eq!(cut.column_number((), index, span.start).unwrap(), 1002);
        // A short line, or a span over a few short lines, is shown whole.
        assert!(Cut::new("f.svg", &text, 0..5).is_none());
        assert!(Cut::new("f.svg", "a\nb\nc\n", 0..5).is_none());
        // A span from the long line onto the next is shown by its first line,
        // cut, underlined to where the line is cut.
        let (cut, span) = Cut::new("f.svg", &text, at..text.len() - 2).unwrap();
        let shown = cut.source(()).unwrap();
        assert_eq!(shown.chars().count(), SHOWN_LINE + 2);
        assert!(!shown.contains('\n') && shown[span.clone()].starts_with("<bad>yyy"));
        assert_eq!(span.end, shown.len() - '…'.len_utf8());
        // So is a span over more lines than are shown, each of them short.
        let many = "line\n".repeat(SHOWN_LINES + 1);
        let (cut, span) = Cut::new("f.toml", &many, 2..many.len() - 1).unwrap();
        assert_eq!(cut.source(()).unwrap(), "line");
        assert_eq!(span, 2..4);
        assert!(Cut::new("f.toml", &many[5..], 2..many.len() - 7).is_none());
    }

    #[test]
    fn a_long_message_line_is_cut_in_its_middle() {
        assert_eq!(shortened("short\nlines"), "short\nlines");
        let quoted = format!("not the text \"{}\" here", "x".repeat(10_000));
        let cut = shortened(&quoted);
        assert_eq!(cut.chars().count(), SHOWN_LINE + 1);
        assert!(cut.starts_with("not the text \"xxx") && cut.ends_with("xxx\" here"));
        assert!(cut.contains('…'));
    }
}
