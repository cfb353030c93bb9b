//! Numbers typed twice: a number written into a data text or a template's text that
//! equals a `[rules]` value without being taken from there. When the rule changes,
//! such a text silently keeps the old number (an aid saying "hold 3 max" after
//! `max_rest_markers` became 4), so each one is a warning pointing at the number.
//!
//! What counts: whole numbers of 2 or more (0 and 1 are in every sentence) inside a
//! string of a data table, a string under `[rules]`, or the text between tags of the
//! game's own templates (`{{ ... }}` and `{% ... %}` parts excluded). What does not:
//! `id` fields and strings that are only a number (labels such as a rank "2"), and a
//! number followed by a unit (`2 in`, `3 mm`, `50 %`), which is a measurement.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use crate::diag::{Diagnostic, Reported};
use crate::model::Game;
use crate::project::{Project, MAX_DATA_BYTES};
use crate::template::Templates;

/// Units after which a number is a measurement, not a count or cost.
const UNITS: [&str; 8] = ["mm", "cm", "in", "pt", "%", "px", "\"", "°"];

/// Every whole `[rules]` value of 2 or more, with the paths that hold it.
fn rule_values(game: &Game) -> BTreeMap<i64, Vec<String>> {
    fn walk(v: &toml::Value, path: String, out: &mut BTreeMap<i64, Vec<String>>) {
        match v {
            toml::Value::Integer(n) if *n >= 2 => out.entry(*n).or_default().push(path),
            toml::Value::Float(f) if f.fract() == 0.0 && *f >= 2.0 && *f < 1e15 => {
                out.entry(*f as i64).or_default().push(path)
            }
            toml::Value::Table(t) => {
                for (k, x) in t {
                    walk(x, format!("{path}.{k}"), out);
                }
            }
            toml::Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    walk(x, format!("{path}[{i}]"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = BTreeMap::new();
    for (k, v) in &game.rules {
        walk(v, format!("rules.{k}"), &mut out);
    }
    out
}

/// The whole numbers in `text` that are not measurements: (value, byte range).
fn numbers(text: &str) -> Vec<(i64, Range<usize>)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let mut back = text[..start].chars().rev();
        let before = back.next();
        // `I-5`, `A-3`: a name with a number, not a count.
        let hyphenated = before == Some('-') && back.next().is_some_and(|c| c.is_alphanumeric());
        let after = &text[i..];
        // Part of a word, a decimal, a colour or a longer number.
        let glued = before
            .is_some_and(|c| c.is_alphanumeric() || matches!(c, '.' | '#' | '_' | ','))
            || after.starts_with(|c: char| c.is_alphanumeric() || c == '_')
            || (after.starts_with(['.', ','])
                && after[1..].starts_with(|c: char| c.is_ascii_digit()));
        let unit = UNITS
            .iter()
            .any(|u| after.trim_start_matches(' ').starts_with(u));
        if glued || unit || hyphenated {
            continue;
        }
        if let Ok(v) = text[start..i].parse::<i64>() {
            out.push((v, start..i));
        }
    }
    out
}

/// The warning for `value` typed at `span` of `file`.
fn typed_twice(
    game: &Game,
    file: &Path,
    span: Range<usize>,
    value: i64,
    paths: &[String],
) -> Diagnostic {
    let names: Vec<&str> = paths.iter().take(3).map(String::as_str).collect();
    let more = if paths.len() > 3 { ", ..." } else { "" };
    Diagnostic::warning(format!(
        "`{value}` is typed here, and it is the value of {}{more}: when that rule changes, this text will not",
        names.join(", ")
    ))
    .at(file, Some(span))
    .with("game", &game.id)
    .hint(format!(
        "take the number from the rules: `{{{{ {} }}}}` in a template, or a placeholder the template fills in for a data text; a measurement keeps its unit (\"2 in\")",
        names[0]
    ))
}

/// The strings of each data file found by the last build (the live preview),
/// by file with the text they were found in: a file whose text is the same is
/// not parsed again for them. Only the files the last build read are kept.
#[derive(Default)]
pub struct DataStrings {
    last: Mutex<HashMap<PathBuf, FileStrings>>,
    /// Files the last build parsed for their strings (the others were kept).
    pub parsed: AtomicUsize,
}

/// One file's text and its strings ([`data_strings`]).
type FileStrings = (Arc<str>, Arc<Vec<(Range<usize>, String)>>);

impl DataStrings {
    /// [`data_strings`] of `file`'s `text`, kept when the text is the same, noted
    /// in `now` (what this build read).
    fn of(
        &self,
        file: &Path,
        text: &Arc<str>,
        rules_only: bool,
        now: &mut HashMap<PathBuf, FileStrings>,
    ) -> Arc<Vec<(Range<usize>, String)>> {
        let last = self.last.lock().ok();
        let kept = last
            .as_ref()
            .and_then(|l| l.get(file))
            .filter(|(t, _)| t == text)
            .map(|(_, s)| s.clone());
        drop(last);
        let strings = kept.unwrap_or_else(|| {
            self.parsed.fetch_add(1, Relaxed);
            Arc::new(data_strings(text, rules_only))
        });
        now.insert(file.to_path_buf(), (text.clone(), strings.clone()));
        strings
    }
}

/// Numbers typed twice in `game`'s data texts and its templates' text; with
/// `kept`, the strings of a data file whose text did not change are not looked
/// for again.
pub fn check(
    game: &Game,
    project: &Project,
    tpl: &Templates,
    kept: Option<&DataStrings>,
) -> Reported<()> {
    let values = rule_values(game);
    if values.is_empty() {
        return ().into();
    }
    let mut diags = Vec::new();
    let mut flag = |file: &Path, text: &str, offset: usize| {
        for (v, r) in numbers(text) {
            if let Some(paths) = values.get(&v) {
                let span = offset + r.start..offset + r.end;
                diags.push(typed_twice(game, file, span, v, paths));
            }
        }
    };
    // Data texts: strings in the tables and under [rules].
    let mut files: Vec<&Path> = game.tables.values().map(|t| t.file.as_path()).collect();
    files.sort();
    files.dedup();
    files.push(&game.file);
    let mut now = HashMap::new();
    if let Some(k) = kept {
        k.parsed.store(0, Relaxed);
    }
    for file in files {
        let Ok(text) = project.read_text(file, MAX_DATA_BYTES) else {
            continue;
        };
        let rules_only = file == game.file;
        let strings = match kept {
            Some(k) => k.of(file, &text, rules_only, &mut now),
            None => Arc::new(data_strings(&text, rules_only)),
        };
        for (range, s) in strings.iter() {
            let range = range.clone();
            // The string's contents start after its opening quote(s).
            let raw = &text[range.clone()];
            let Some(at) = raw.find(s.as_str()) else {
                continue; // escapes: the positions would not match
            };
            flag(file, s, range.start + at);
        }
    }
    if let Some(mut last) = kept.and_then(|k| k.last.lock().ok()) {
        *last = now;
    }
    // The game's own templates: text between tags.
    let prefix = format!("{}/", game.id);
    for (name, t) in tpl.env.templates() {
        if !name.starts_with(&prefix) {
            continue;
        }
        let file = crate::template::template_file(name);
        let source = t.source();
        for (range, text) in template_text(source) {
            flag(&file, &text, range.start);
        }
    }
    Reported::new((), diags)
}

/// Every string value of a data file worth checking (not `id`, not a bare number),
/// with the byte range of its TOML value. In `game.toml` only `[rules]` counts.
fn data_strings(text: &str, rules_only: bool) -> Vec<(Range<usize>, String)> {
    use toml::de::{DeTable, DeValue};
    fn walk(key: &str, v: &toml::Spanned<DeValue>, out: &mut Vec<(Range<usize>, String)>) {
        match v.get_ref() {
            DeValue::String(s) if key != "id" && s.trim().parse::<f64>().is_err() => {
                out.push((v.span(), s.to_string()))
            }
            DeValue::Array(a) => a.iter().for_each(|x| walk(key, x, out)),
            DeValue::Table(t) => t.iter().for_each(|(k, x)| walk(k.get_ref(), x, out)),
            _ => {}
        }
    }
    let Ok(table) = DeTable::parse(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, v) in table.get_ref() {
        if !rules_only || k.get_ref() == "rules" {
            walk(k.get_ref(), v, &mut out);
        }
    }
    out
}

/// `source` with its template code (`{{ }}`, `{% %}`, `{# #}`) blanked out, lines
/// kept: what is left is the template's own text, at the same byte offsets.
fn blank_code(source: &str) -> String {
    let mut blank = source.as_bytes().to_vec();
    let mut i = 0;
    while i + 1 < blank.len() {
        let close = match &source.as_bytes()[i..i + 2] {
            b"{{" => "}}",
            b"{%" => "%}",
            b"{#" => "#}",
            _ => {
                i += 1;
                continue;
            }
        };
        let end = source[i + 2..]
            .find(close)
            .map_or(blank.len(), |e| i + 2 + e + 2);
        for b in &mut blank[i..end] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
        i = end;
    }
    String::from_utf8_lossy(&blank).into_owned()
}

/// The text between tags of a template, template code blanked out: (range, text).
fn template_text(source: &str) -> Vec<(Range<usize>, String)> {
    let blank = blank_code(source);
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(open) = blank[pos..].find('>') {
        let start = pos + open + 1;
        let Some(len) = blank[start..].find('<') else {
            break;
        };
        let text = &blank[start..start + len];
        if !text.trim().is_empty() {
            out.push((start..start + len, text.to_string()));
        }
        pos = start + len;
    }
    out
}

/// Numbers typed twice in a Markdown template (`rules.md`, the text of `file`):
/// its text outside template code, less the numbers of numbered list items.
pub fn in_markdown(game: &Game, file: &Path, source: &str) -> Reported<()> {
    let values = rule_values(game);
    let blank = blank_code(source);
    let mut diags = Vec::new();
    let mut offset = 0;
    for line in blank.split_inclusive('\n') {
        // `2. Draw a card`: a list item's number is not a count.
        let body = line.trim_start();
        let item = body.len() - body.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let skip = if item > 0 && body[item..].starts_with(['.', ')']) {
            line.len() - body.len() + item + 1
        } else {
            0
        };
        for (v, r) in numbers(&line[skip..]) {
            if let Some(paths) = values.get(&v) {
                let span = offset + skip + r.start..offset + skip + r.end;
                diags.push(typed_twice(game, file, span, v, paths));
            }
        }
        offset += line.len();
    }
    Reported::new((), diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_skip_measurements_and_parts_of_words() {
        let found: Vec<i64> =
            numbers("hold 3 max, 2+ AP, tiles are 2 in, 4mm, x2, 3.5, #222, I-5, 12")
                .into_iter()
                .map(|(v, _)| v)
                .collect();
        assert_eq!(found, vec![3, 2, 12]);
    }

    #[test]
    fn template_code_is_not_text() {
        let t = template_text(
            "<text x=\"3\">{{ rules.max }} max, hold 3</text>{% if a > 2 %}<g>7</g>{% endif %}",
        );
        let texts: Vec<&str> = t.iter().map(|(_, s)| s.as_str()).collect();
        assert_eq!(texts, vec!["                max, hold 3", "7"]);
    }
}
