//! Diagnostics: every problem names its file, line and column, what it is about
//! (game, component, row, field) and how to fix it. Rendered like rustc does, with
//! the source line and a caret (codespan-reporting).

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term;

mod cut;
pub mod upstream;
pub use cut::SHOWN_LINE;

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Stops the build: nothing is written.
    Error,
    /// Reported; the build goes on (unless `--deny-warnings`).
    Warning,
}

/// One problem found in a game's data or templates.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    /// File the problem is in (relative to the project root when possible).
    pub file: Option<PathBuf>,
    /// Byte range in `file`.
    pub span: Option<Range<usize>>,
    /// Short text under the caret.
    pub label: Option<String>,
    /// What the problem is about: `game`, `component`, `row`, `field`...
    pub context: Vec<(&'static str, String)>,
    /// How to fix it.
    pub hint: Option<String>,
}

impl Diagnostic {
    /// A new error.
    pub fn error(message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Error,
            message: message.into(),
            file: None,
            span: None,
            label: None,
            context: Vec::new(),
            hint: None,
        }
    }

    /// A new warning.
    pub fn warning(message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Warning,
            ..Self::error(message)
        }
    }

    /// Points the diagnostic at a file and byte span.
    pub fn at(mut self, file: impl AsRef<Path>, span: Option<Range<usize>>) -> Self {
        self.file = Some(file.as_ref().to_path_buf());
        self.span = span;
        self
    }

    /// Adds a label under the caret.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// Adds a context line such as `("component", "contracts")` (once: a stage
    /// that adds what an earlier one did changes nothing).
    pub fn with(mut self, key: &'static str, value: impl Into<String>) -> Self {
        let value = value.into();
        if !self.context.iter().any(|(k, v)| *k == key && *v == value) {
            self.context.push((key, value));
        }
        self
    }

    /// Adds the one-line hint on how to fix it.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Whether this stops the build.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// All problems of a run, reported together.
#[derive(Debug, Default, Clone)]
pub struct Diagnostics {
    pub items: Vec<Diagnostic>,
}

/// The texts diagnostics point into: every file read during the run, so a
/// diagnostic renders its source line without reading the disk again.
pub trait Sources {
    /// The text of `file`, if it was read.
    fn source(&self, file: &Path) -> Option<Arc<str>>;
}

/// No sources: diagnostics name their files without source lines.
impl Sources for () {
    fn source(&self, _: &Path) -> Option<Arc<str>> {
        None
    }
}

/// What every stage returns: its value and the problems it found on the way.
#[derive(Debug)]
pub struct Reported<T> {
    pub value: T,
    pub diags: Diagnostics,
}

impl<T> Reported<T> {
    /// A value and its problems.
    pub fn new(value: T, diags: impl IntoIterator<Item = Diagnostic>) -> Self {
        Reported {
            value,
            diags: Diagnostics {
                items: diags.into_iter().collect(),
            },
        }
    }

    /// Moves the problems into `sink` (the caller's [`Diagnostics`] or, inside a
    /// stage, its list) and returns the value.
    pub fn into_value(self, sink: &mut impl Extend<Diagnostic>) -> T {
        sink.extend(self.diags.items);
        self.value
    }

    /// The same problems with the value changed by `f`.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Reported<U> {
        Reported {
            value: f(self.value),
            diags: self.diags,
        }
    }
}

impl Extend<Diagnostic> for Diagnostics {
    fn extend<I: IntoIterator<Item = Diagnostic>>(&mut self, ds: I) {
        self.items.extend(ds);
    }
}

impl<T> From<T> for Reported<T> {
    fn from(value: T) -> Self {
        Reported {
            value,
            diags: Diagnostics::default(),
        }
    }
}

impl Diagnostics {
    /// Adds one problem.
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }

    /// Adds many problems.
    pub fn extend(&mut self, ds: impl IntoIterator<Item = Diagnostic>) {
        self.items.extend(ds);
    }

    /// Number of errors.
    pub fn errors(&self) -> usize {
        self.items
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }

    /// Number of warnings.
    pub fn warnings(&self) -> usize {
        self.items
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count()
    }

    /// True if any error was found.
    pub fn has_errors(&self) -> bool {
        self.errors() > 0
    }

    /// Turns every warning into an error (`--deny-warnings`).
    pub fn deny_warnings(&mut self) {
        for d in &mut self.items {
            d.severity = Severity::Error;
        }
    }

    /// Sorts by file, then position, then message, and drops exact duplicates.
    pub fn sort(&mut self) {
        self.items.sort_by(|a, b| {
            (&a.file, a.span.as_ref().map(|s| s.start), &a.message).cmp(&(
                &b.file,
                b.span.as_ref().map(|s| s.start),
                &b.message,
            ))
        });
        self.items.dedup_by(|a, b| {
            a.file == b.file && a.span == b.span && a.message == b.message && a.context == b.context
        });
    }

    /// Whether any problem is about `file`.
    pub fn mentions(&self, file: &Path) -> bool {
        self.items.iter().any(|d| d.file.as_deref() == Some(file))
    }

    /// Renders every diagnostic and a closing count, with the source lines of the
    /// files read during the run. A diagnostic about a whole file (or a file that was
    /// never read) names the file without pointing at a line.
    pub fn render(&self, sources: &dyn Sources) -> String {
        let mut files = SimpleFiles::new();
        let mut ids: BTreeMap<PathBuf, Option<usize>> = BTreeMap::new();
        let mut out = String::new();
        let config = term::Config::default();
        for d in &self.items {
            let mut notes = Vec::new();
            let mut at = None;
            if let Some(file) = &d.file {
                let id = *ids.entry(file.clone()).or_insert_with(|| {
                    sources
                        .source(file)
                        .map(|text| files.add(file.display().to_string(), text))
                });
                match (id, &d.span) {
                    (Some(id), Some(span)) => {
                        let len = files.get(id).map(|f| f.source().len()).unwrap_or(0);
                        let start = span.start.min(len);
                        at = Some((id, start..span.end.min(len).max(start)));
                    }
                    _ => notes.push(format!("in {}", file.display())),
                }
            }
            if !d.context.is_empty() {
                let ctx: Vec<String> = d.context.iter().map(|(k, v)| format!("{k}: {v}")).collect();
                notes.push(ctx.join(", "));
            }
            if let Some(h) = &d.hint {
                notes.push(format!("hint: {h}"));
            }
            let Some((id, span)) = at else {
                let _ = term::emit_to_string(&mut out, &config, &files, &shown(d, None, notes));
                continue;
            };
            let file = files.get(id).ok();
            match file.and_then(|f| cut::Cut::new(f.name(), f.source(), span.clone())) {
                Some((cut, span)) => {
                    let cs = shown(d, Some(((), span)), notes);
                    let _ = term::emit_to_string(&mut out, &config, &cut, &cs);
                }
                None => {
                    let cs = shown(d, Some((id, span)), notes);
                    let _ = term::emit_to_string(&mut out, &config, &files, &cs);
                }
            }
        }
        let mut out = printable(&out).into_owned();
        let (e, w) = (self.errors(), self.warnings());
        if e + w > 0 {
            out.push_str(&format!(
                "{} error{}, {} warning{}\n",
                e,
                if e == 1 { "" } else { "s" },
                w,
                if w == 1 { "" } else { "s" }
            ));
        }
        out
    }
}

/// `d` as codespan-reporting shows it: its message, a caret at `at` (a file and a
/// byte range in it) and `notes`.
fn shown<F>(d: &Diagnostic, at: Option<(F, Range<usize>)>, notes: Vec<String>) -> CsDiagnostic<F> {
    let labels = at.map(|(file, span)| {
        let label = Label::primary(file, span);
        match &d.label {
            Some(m) => label.with_message(cut::shortened(m)),
            None => label,
        }
    });
    match d.severity {
        Severity::Error => CsDiagnostic::error(),
        Severity::Warning => CsDiagnostic::warning(),
    }
    .with_message(cut::shortened(&d.message))
    .with_labels(labels.into_iter().collect())
    .with_notes(
        notes
            .iter()
            .map(|n| cut::shortened(n).into_owned())
            .collect(),
    )
}

/// `text` with every character that would act on a terminal instead of showing
/// written out: control characters but line breaks and tabs (an escape sequence in
/// a data value or a font's name would retitle the window or clear the screen),
/// and the bidirectional overrides that reorder what a line shows. Each is written
/// as `\u{1b}`. Every message cardstock prints goes through this.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let acts = |c: char| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !text.contains(acts) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if acts(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `diags` with the problems that differ only in their `row` merged into one
/// (an expression of `game.toml` that fails the same way for every row of a
/// table): it names how many rows and the first few, in place of one copy per row.
pub fn once_for_rows(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    const SHOWN: usize = 3;
    let without_row = |d: &Diagnostic| -> Vec<(&'static str, String)> {
        d.context
            .iter()
            .filter(|(k, _)| *k != "row")
            .cloned()
            .collect()
    };
    let mut out: Vec<(Diagnostic, Vec<String>)> = Vec::new();
    for d in diags {
        let row = d
            .context
            .iter()
            .find(|(k, _)| *k == "row")
            .map(|(_, v)| v.clone());
        let same = out.iter_mut().find(|(o, _)| {
            row.is_some()
                && (o.severity, &o.message, &o.file, &o.span, &o.hint)
                    == (d.severity, &d.message, &d.file, &d.span, &d.hint)
                && without_row(o) == without_row(&d)
        });
        match (same, row) {
            (Some((_, rows)), Some(r)) => rows.push(r),
            (_, row) => out.push((d, row.into_iter().collect())),
        }
    }
    out.into_iter()
        .map(|(mut d, rows)| {
            if rows.len() > 1 {
                d.context.retain(|(k, _)| *k != "row");
                let mut shown = rows[..SHOWN.min(rows.len())].join(", ");
                if rows.len() > SHOWN {
                    shown.push_str(&format!(" and {} more", rows.len() - SHOWN));
                }
                d.context.push(("rows", shown));
            }
            d
        })
        .collect()
}

/// The byte range of 1-based `line` in `text` (without its newline).
pub fn line_span(text: &str, line: usize) -> Option<Range<usize>> {
    let mut start = 0;
    for (i, l) in text.split('\n').enumerate() {
        if i + 1 == line {
            return Some(start..start + l.len());
        }
        start += l.len() + 1;
    }
    None
}

/// The closest candidate to `word`, for "did you mean" hints: few edits apart
/// (transpositions like `qyt`/`qty` count as one) or very similar.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let allowed = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != word)
        .map(|c| {
            (
                strsim::damerau_levenshtein(word, c),
                strsim::jaro_winkler(word, c),
                c,
            )
        })
        .filter(|(d, j, _)| *d <= allowed || *j > 0.88)
        .min_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)))
        .map(|(_, _, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        assert_eq!(did_you_mean("qyt", ["id", "qty", "name"]), Some("qty"));
        assert_eq!(did_you_mean("pokr", ["poker", "bridge"]), Some("poker"));
        assert_eq!(
            did_you_mean("crad.svg", ["card.svg", "back.svg"]),
            Some("card.svg")
        );
        assert_eq!(did_you_mean("zebra", ["poker", "bridge"]), None);
    }

    #[test]
    fn terminal_controls_are_written_out() {
        assert_eq!(printable("plain\ttext\n"), "plain\ttext\n");
        assert_eq!(
            printable("a\u{1b}]0;pwned\u{7}b\u{9b}2J\rc\u{202e}d"),
            "a\\u{1b}]0;pwned\\u{7}b\\u{9b}2J\\u{d}c\\u{202e}d"
        );
    }

    #[test]
    fn positions() {
        assert_eq!(line_span("ab\ncd", 2), Some(3..5));
    }
}
