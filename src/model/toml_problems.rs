//! Every problem of a TOML file against its schema, in a designer's words. serde
//! stops at the first problem of a file; a run must report them all (`shpae` must
//! not hide `chit-1inch`). So when a file does not fit its schema, its unknown
//! keys are found first (all of them, against the schema's field names), then the
//! file is read again and again, each time without the entry the last problem was
//! in, until it reads (bounded). And serde's Rust words (`invalid type: string
//! "x", expected i64`) become plain ones ("a whole number is expected here, not
//! the text "x"").

use std::ops::Range;
use std::path::Path;

use serde::de::DeserializeOwned;
use toml::de::{DeArray, DeTable, DeValue};
use toml::Spanned;

use crate::diag::upstream::{self, Expected, Found, SerdeKind};
use crate::diag::{did_you_mean, Diagnostic};

/// Most problems read from one file (each costs a read of the file).
const MAX_PROBLEMS: usize = 64;

/// One problem of a file: serde's message and where it is.
#[derive(Debug, Clone)]
pub(crate) struct Problem {
    pub message: String,
    pub span: Option<Range<usize>>,
}

impl From<&toml::de::Error> for Problem {
    fn from(e: &toml::de::Error) -> Self {
        Problem {
            message: e.message().trim().to_string(),
            span: e.span(),
        }
    }
}

/// The field names of a schema: `("", top-level keys)`, then `(section, keys)`
/// for a table `[section]` or each table of an array `[[section]]`.
pub(crate) type Keys<'a> = &'a [(&'a str, &'a [&'a str])];

/// Every problem of a file that does not fit its schema (at least one), and
/// the file read without the keys they were in, when no more than keys were left
/// out (not a whole table, which would make more problems than it solves): the
/// caller can go on checking the rest, so a run reports everything.
#[derive(Debug)]
pub(crate) struct Problems<T> {
    pub problems: Vec<Problem>,
    pub rest: Option<T>,
}

/// Reads `text` as `T`, or every problem it has ([`Problems`]).
pub(crate) fn parse<T: DeserializeOwned>(text: &str, keys: Keys) -> Result<T, Problems<T>> {
    let first = match toml::from_str::<T>(text) {
        Ok(v) => return Ok(v),
        Err(e) => Problem::from(&e),
    };
    // A syntax error: the file has no tree to look further into.
    let Ok(root) = DeTable::parse(text) else {
        return Err(Problems {
            problems: vec![first],
            rest: None,
        });
    };
    let mut root = root.into_inner();
    let mut problems = unknown_keys(&mut root, keys);
    let original = root.clone();
    let mut only_keys = true;
    let mut rest = None;
    while problems.len() < MAX_PROBLEMS {
        let de = toml::de::Deserializer::from(Spanned::new(0..text.len(), root.clone()));
        let e = match T::deserialize(de) {
            Ok(v) => {
                rest = Some(v).filter(|_| only_keys);
                break;
            }
            Err(e) => Problem::from(&e),
        };
        // A required key missing because a problem before removed it was said.
        let follows = match (upstream::missing_field(&e.message), &e.span) {
            (Some(k), Some(at)) => had_key(&original, at, k),
            _ => false,
        };
        if !follows {
            problems.push(e.clone());
        }
        match e.span.and_then(|s| remove_at(&mut root, &s)) {
            Some(Removed::Key) => {}
            Some(Removed::Table) => only_keys = false,
            None => break,
        }
    }
    if problems.is_empty() {
        problems.push(first);
    }
    problems.sort_by_key(|p| p.span.as_ref().map(|s| s.start));
    Err(Problems { problems, rest })
}

/// What [`remove_at`] took out of the tree.
enum Removed {
    /// A key with a plain value (or a list of plain values).
    Key,
    /// A table, or a table of an array of tables.
    Table,
}

/// Every key of `root` that its schema does not know, as serde would say it,
/// removed from the tree.
fn unknown_keys(root: &mut DeTable, keys: Keys) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (section, known) in keys {
        if section.is_empty() {
            problems.extend(unknown_in(root, known));
            continue;
        }
        match root.get_mut(*section).map(|v| v.get_mut()) {
            Some(DeValue::Table(t)) => problems.extend(unknown_in(t, known)),
            Some(DeValue::Array(a)) => {
                for item in a.iter_mut() {
                    if let DeValue::Table(t) = item.get_mut() {
                        problems.extend(unknown_in(t, known));
                    }
                }
            }
            _ => {}
        }
    }
    problems
}

fn unknown_in(table: &mut DeTable, known: &[&str]) -> Vec<Problem> {
    let unknown: Vec<Spanned<String>> = table
        .keys()
        .filter(|k| !known.contains(&k.get_ref().as_ref()))
        .map(|k| Spanned::new(k.span(), k.get_ref().to_string()))
        .collect();
    let expected: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
    unknown
        .into_iter()
        .map(|k| {
            table.remove(k.get_ref().as_str());
            Problem {
                message: format!(
                    "unknown field `{}`, expected one of {}",
                    k.get_ref(),
                    expected.join(", ")
                ),
                span: Some(k.span()),
            }
        })
        .collect()
}

/// Whether the innermost table of `t` that holds `span` has `key` (so a
/// "missing field" there follows from removing it).
fn had_key(t: &DeTable, span: &Range<usize>, key: &str) -> bool {
    let holds = |s: Range<usize>| s.start <= span.start && span.end <= s.end;
    for v in t.values() {
        match v.get_ref() {
            DeValue::Table(inner) if holds(v.span()) => return had_key(inner, span, key),
            DeValue::Array(a) => {
                for item in a.iter() {
                    if let DeValue::Table(inner) = item.get_ref() {
                        if holds(item.span()) {
                            return had_key(inner, span, key);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    t.contains_key(key)
}

/// Removes the innermost entry of `root` that holds `span` (a key, its value, or
/// a table of an array of tables); a value inside a list of plain values removes
/// the whole list. `None` when nothing holds `span`.
fn remove_at(root: &mut DeTable, span: &Range<usize>) -> Option<Removed> {
    let holds = |s: Range<usize>| s.start <= span.start && span.end <= s.end;
    // The deepest first: a key or value inside a nested table or array.
    let mut found: Option<(String, Removed)> = None;
    for (k, v) in root.iter_mut() {
        let v_span = v.span();
        let (removed, kind) = match v.get_mut() {
            DeValue::Table(t) => (remove_at(t, span), Removed::Table),
            DeValue::Array(a) => {
                let tables = a.iter().any(|i| i.get_ref().is_table());
                (
                    remove_in_array(a, span),
                    if tables { Removed::Table } else { Removed::Key },
                )
            }
            _ => (None, Removed::Key),
        };
        if removed.is_some() {
            return removed;
        }
        if holds(k.span()) || holds(v_span) {
            found = Some((k.get_ref().to_string(), kind));
            break;
        }
    }
    let (name, kind) = found?;
    root.remove(name.as_str());
    Some(kind)
}

/// [`remove_at`] inside an array: in one of its tables, else the whole table
/// that holds `span` (an array of plain values is removed by its key).
fn remove_in_array(a: &mut DeArray, span: &Range<usize>) -> Option<Removed> {
    let holds = |s: Range<usize>| s.start <= span.start && span.end <= s.end;
    let mut drop = None;
    for (i, item) in a.iter_mut().enumerate() {
        let item_span = item.span();
        if let DeValue::Table(t) = item.get_mut() {
            if let Some(k) = remove_at(t, span) {
                return Some(k);
            }
            if holds(item_span) {
                drop = Some(i);
                break;
            }
        }
    }
    let drop = drop?;
    let mut kept = DeArray::new();
    for (i, item) in a.iter().enumerate() {
        if i != drop {
            kept.push(item.clone());
        }
    }
    *a = kept;
    Some(Removed::Table)
}

/// A TOML problem as a diagnostic in plain words, with "did you mean" for an
/// unknown key.
pub(crate) fn diagnostic(rel: &Path, game: &str, p: &Problem) -> Diagnostic {
    let msg = &p.message;
    let mut d = Diagnostic::error(plain(msg.lines().next().unwrap_or(msg)))
        .at(rel, p.span.clone())
        .with("game", game);
    let kind = upstream::serde_kind(msg);
    if let Some((word, candidates)) = upstream::unknown_field(msg) {
        d = match did_you_mean(word, candidates.iter().copied()) {
            Some(m) => d.hint(format!("did you mean `{m}`?")),
            None if candidates.is_empty() => d.hint("remove it"),
            None => d.hint(format!(
                "remove it; the keys here are: {}",
                candidates.join(", ")
            )),
        };
    } else if kind == SerdeKind::UnknownField {
        // serde's text changed: no hint rather than a wrong one.
    } else if kind == SerdeKind::MissingField {
        d = d.hint("add the key; docs/reference.md lists what each key means");
    } else if too_large(msg).is_some() {
        d = d.hint("write a smaller number");
    } else if matches!(kind, SerdeKind::InvalidType | SerdeKind::InvalidLength) {
        d = d.hint(
            "text needs quotes (`\"poker\"`), numbers and true/false do not, a list is `[...]`",
        );
    } else if kind == SerdeKind::UnknownVariant {
        d = d.hint("use one of the values listed");
    } else {
        d = d.hint("fix the TOML syntax at the caret");
    }
    d
}

/// serde's message in plain words: what was expected and what was found, with
/// no Rust type names.
pub fn plain(msg: &str) -> String {
    if let Some(n) = too_large(msg) {
        return format!(
            "the whole number {n} is too large: a data file holds whole numbers up to {}",
            i64::MAX
        );
    }
    if let Some((found, expected)) = upstream::wrong_value(msg) {
        return format!(
            "{} is expected here, not {}",
            expected_words(expected),
            found_words(found)
        );
    }
    if let Some((n, expected)) = upstream::invalid_length(msg) {
        return format!(
            "{} is expected here, not {n} of them",
            expected_words(expected)
        );
    }
    if let Some((value, expected)) = upstream::unknown_variant(msg) {
        return format!("unknown value {value}: use {expected}");
    }
    if let Some(key) = upstream::unknown_field_quoted(msg) {
        return format!("unknown key {key}");
    }
    if let Some(k) = upstream::missing_field(msg) {
        return format!("the key `{k}` is missing: it is required here");
    }
    if let Some(rest) = upstream::duplicate_field(msg) {
        return format!("the key {rest} is written twice");
    }
    msg.to_string()
}

/// What serde says it expected (a Rust type, a visitor's words), plainly.
fn expected_words(e: &str) -> String {
    match upstream::expected(e) {
        Expected::ListOf(n) => format!("a list of {n} values"),
        Expected::WholeNumber => "a whole number".into(),
        Expected::Number => "a number".into(),
        Expected::Text => "text in quotes".into(),
        Expected::Boolean => "`true` or `false`".into(),
        Expected::List => "a list `[...]`".into(),
        Expected::Table => "a table".into(),
        Expected::Value => "a value".into(),
        Expected::Other(e) => e.to_string(),
    }
}

/// The number serde found, when it is a whole number past what TOML holds (64 bits).
pub(crate) fn too_large(msg: &str) -> Option<&str> {
    match upstream::found(upstream::wrong_value(msg)?.0) {
        Found::TooLarge(n) => Some(n),
        _ => None,
    }
}

/// What serde says it found, plainly: `string "x"` is the text "x".
fn found_words(f: &str) -> String {
    let ticked = |s: &str| s.trim_matches('`').to_string();
    match upstream::found(f) {
        Found::Text(s) => format!("the text {s}"),
        Found::WholeNumber(n) => format!("the whole number {}", ticked(n)),
        Found::TooLarge(n) => format!("the whole number {n}"),
        Found::Number(n) => format!("the number {}", ticked(n)),
        Found::Boolean(b) => format!("`{}`", ticked(b)),
        Found::List => "a list".into(),
        Found::Table => "a table".into(),
        Found::Other(f) => f.to_string(),
    }
}

/// A TOML value's type (`toml::Value::type_str`) in plain words.
pub fn type_words(t: &str) -> &'static str {
    match t {
        "string" => "text",
        "integer" => "a whole number",
        "float" => "a number with decimals",
        "boolean" => "`true` or `false`",
        "datetime" => "a date",
        "array" => "a list",
        "table" => "a table",
        _ => "a value",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_words() {
        assert_eq!(
            plain("invalid type: string \"rules.deck_size\", expected i64"),
            "a whole number is expected here, not the text \"rules.deck_size\""
        );
        assert_eq!(
            plain("invalid type: integer `3`, expected a string"),
            "text in quotes is expected here, not the whole number 3"
        );
        assert_eq!(
            plain("invalid length 3, expected an array of length 2"),
            "a list of 2 values is expected here, not 3 of them"
        );
        assert_eq!(
            plain("unknown variant `middle`, expected `before` or `after`"),
            "unknown value `middle`: use `before` or `after`"
        );
        assert_eq!(
            plain("unknown field `shpae`, expected one of `id`, `shape`"),
            "unknown key `shpae`"
        );
        assert_eq!(
            plain("missing field `kind`"),
            "the key `kind` is missing: it is required here"
        );
        assert_eq!(
            plain("invalid type: sequence, expected struct GameMeta"),
            "a table is expected here, not a list"
        );
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Part {
        id: String,
        size: String,
        #[serde(default)]
        qty: Option<i64>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Doc {
        name: String,
        #[serde(default)]
        part: Vec<Part>,
    }

    const KEYS: Keys = &[("", &["name", "part"]), ("part", &["id", "size", "qty"])];

    #[test]
    fn every_problem_of_a_file() {
        let text = "name = \"x\"\n[[part]]\nid = \"a\"\nshpae = 1\nsize = \"poker\"\n[[part]]\nid = \"b\"\nsize = 3\nqty = \"two\"\n[[part]]\nid = \"c\"\n";
        let problems = parse::<Doc>(text, KEYS).unwrap_err().problems;
        let messages: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(messages.len(), 4, "{messages:?}");
        assert!(messages[0].starts_with("unknown field `shpae`"));
        assert!(messages[1].starts_with("invalid type: integer `3`"));
        assert!(messages[2].starts_with("invalid type: string \"two\""));
        assert_eq!(messages[3], "missing field `size`");
        // Each at its place.
        let at = |p: &Problem| &text[p.span.clone().unwrap()];
        assert_eq!(at(&problems[0]), "shpae");
        assert_eq!(at(&problems[1]), "3");
        assert_eq!(at(&problems[2]), "\"two\"");
    }

    #[test]
    fn a_good_file_and_a_syntax_error() {
        assert!(parse::<Doc>("name = \"x\"\n", KEYS).is_ok());
        let p = parse::<Doc>("name = \n", KEYS).unwrap_err();
        assert_eq!(p.problems.len(), 1);
        assert!(p.rest.is_none());
    }

    #[test]
    fn the_rest_of_a_file_with_wrong_keys() {
        let text =
            "name = \"x\"\n[[part]]\nid = \"a\"\nshpae = 1\nsize = \"poker\"\nqty = \"two\"\n";
        let p = parse::<Doc>(text, KEYS).unwrap_err();
        assert_eq!(p.problems.len(), 2);
        let rest = p.rest.expect("only keys were left out");
        assert_eq!(rest.part[0].size, "poker");
        assert_eq!(rest.part[0].qty, None);
        // A part without its size is left out whole: no rest to go on with.
        let p = parse::<Doc>("name = \"x\"\n[[part]]\nid = \"a\"\nsize = 3\n", KEYS).unwrap_err();
        assert_eq!(p.problems.len(), 1, "{:?}", p.problems);
        assert!(p.rest.is_none());
    }
}
