//! What counts as the same part from one print to the next, and what a designer
//! calls it.
//!
//! A part is one planned face of a set (a row, an element of an `expand` list, a
//! `repeat` copy, an art file) with its copies. Its key in a record:
//!
//! - the row: its `id`; a row without one is `#n`, its place in its table (1 for
//!   the first row); an art file is its path; a set without a table is `*`;
//! - then `/item` for an `expand` element (the element when it is text, else
//!   `@k`, its place in the list; the same text twice in one list is `text@2`);
//! - then ` copy n` for a `repeat` copy.
//!
//! Rows with an `id` are the same part when their ids are. Rows without one are
//! matched by place and data, the way `diff` matches lines: the rows of the two
//! prints whose own fields (derived fields left out) are equal are paired in
//! order, and between two such pairs the remaining rows are paired in order (a
//! changed row). Adding or removing a row then shifts nothing; moving rows around
//! looks like changes, and such a set gets a warning.

use std::collections::BTreeMap;

use crate::model::{Component, Field, Game, Row, Table};
use crate::render::FacePlan;

use super::record::Record;

/// The key of row `i` of `table`: its id, else `#n` (1-based).
pub fn row_key(table: &Table, i: usize) -> String {
    match table.rows.get(i).and_then(|r| r.id()) {
        Some(id) => id.to_string(),
        None => format!("#{}", i + 1),
    }
}

/// Whether `table` has rows without an id (matched by place and data).
pub fn numbered(table: &Table) -> bool {
    table.rows.iter().any(|r| r.id().is_none())
}

/// The table `comp` prints a face per row of, if any.
pub fn table_of<'g>(game: &'g Game, comp: &Component) -> Option<&'g Table> {
    comp.def
        .table
        .as_ref()
        .and_then(|t| game.tables.get(t.get_ref()))
}

/// The key of each planned face of `comp`, in the plans' order.
pub fn part_keys(game: &Game, comp: &Component, plans: &[FacePlan]) -> Vec<String> {
    let table = table_of(game, comp);
    let art = !comp.art.is_empty();
    // Per row: the elements met so far, and how often each text was.
    let mut units: BTreeMap<Option<usize>, usize> = BTreeMap::new();
    let mut texts: BTreeMap<(Option<usize>, String), usize> = BTreeMap::new();
    let mut item = String::new();
    plans
        .iter()
        .map(|p| {
            let mut key = match (art, table, p.row) {
                (true, ..) => p
                    .item
                    .as_ref()
                    .and_then(|i| i.as_str())
                    .map(|f| art_name(game, f))
                    .unwrap_or_else(|| "*".into()),
                (false, Some(t), Some(i)) => row_key(t, i),
                _ => "*".into(),
            };
            // A `repeat` row's copies are one element's faces: numbered at the first.
            if let (Some(value), false, true) = (&p.item, art, p.copy.is_none_or(|c| c == 1)) {
                let k = units.entry(p.row).or_default();
                *k += 1;
                item = match value.as_str() {
                    Some(text) => {
                        let n = texts.entry((p.row, text.to_string())).or_default();
                        *n += 1;
                        if *n > 1 {
                            format!("{text}@{n}")
                        } else {
                            text.to_string()
                        }
                    }
                    None => format!("@{k}"),
                };
            }
            if p.item.is_some() && !art {
                key.push('/');
                key.push_str(&item);
            }
            if let Some(c) = p.copy {
                key.push_str(&format!(" copy {c}"));
            }
            key
        })
        .collect()
}

/// An art file's key: its path inside the game's data folder.
fn art_name(game: &Game, file: &str) -> String {
    let prefix = format!("data/{}/", game.id);
    file.replace('\\', "/")
        .strip_prefix(&prefix)
        .map(str::to_string)
        .unwrap_or_else(|| file.to_string())
}

/// What a designer calls a planned face of `comp`: the row's id (with its `name`),
/// or for a row without an id its place and the fields that tell it apart; the
/// `expand` element; the `repeat` copy.
pub fn part_name(game: &Game, comp: &Component, p: &FacePlan) -> String {
    let mut name = if !comp.art.is_empty() {
        p.item
            .as_ref()
            .and_then(|i| i.as_str())
            .map(|f| art_name(game, f))
            .unwrap_or_default()
    } else {
        match (table_of(game, comp), p.row) {
            (Some(t), Some(i)) => row_name(t, i),
            _ => comp.name(),
        }
    };
    if let (Some(item), true) = (&p.item, comp.art.is_empty()) {
        let text = item
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| item.to_string());
        name.push_str(&format!(" · {text}"));
    }
    if let Some(c) = p.copy {
        name.push_str(&format!(" · copy {c}"));
    }
    name
}

/// A row's fields in the order its file has them (a CSV's columns, a TOML row's
/// keys), then its derived fields: the fields a record writes.
pub fn row_fields(row: &Row) -> toml::Table {
    let mut own: Vec<(&String, &Field)> = row.fields.iter().collect();
    own.sort_by_key(|(_, f)| (f.column, f.key_span.start));
    let mut t = toml::Table::new();
    for (k, f) in own {
        t.insert(k.clone(), f.value.clone());
    }
    for (k, v) in &row.derived {
        t.insert(k.clone(), v.clone());
    }
    t
}

/// A row as a designer knows it: `seattle`, `Seattle (seattle)`, or `#12 (good
/// coffee, city chicago)`: up to three of its own text or number fields.
pub fn row_name(table: &Table, i: usize) -> String {
    match table.rows.get(i) {
        Some(row) => {
            // A row with a text `id` is named by it (and its `name`), as
            // `describe` names it, without making the table of its fields.
            let text = |k: &str| match row.derived.get(k) {
                Some(v) => v.as_str(),
                None => row.fields.get(k).and_then(|f| f.value.as_str()),
            };
            if let Some(id) = text("id") {
                return by_id(id, text("name"));
            }
            let derived: Vec<&str> = row.derived.keys().map(String::as_str).collect();
            describe(&row_key(table, i), &row_fields(row), &derived)
        }
        None => format!("#{}", i + 1),
    }
}

/// A row with an `id` named by it and its `name`: `Seattle (seattle)`, or
/// `seattle` when it has no other name.
fn by_id(id: &str, name: Option<&str>) -> String {
    match name {
        Some(n) if n != id => format!("{n} ({id})"),
        _ => id.to_string(),
    }
}

/// A row named by its key (`key`) and its fields (`derived` among them left out),
/// as [`row_name`] names it: also a row a record has and the game no longer does.
pub fn describe(key: &str, fields: &toml::Table, derived: &[&str]) -> String {
    let text = |k: &str| fields.get(k).and_then(|v| v.as_str());
    match text("id") {
        Some(id) => by_id(id, text("name")),
        None => {
            let shown: Vec<String> = fields
                .iter()
                .filter(|(k, _)| *k != "qty" && !derived.contains(&k.as_str()))
                .filter_map(|(k, v)| match v {
                    toml::Value::String(s) if s.chars().count() <= 24 => Some(format!("{k} {s}")),
                    toml::Value::Integer(n) => Some(format!("{k} {n}")),
                    _ => None,
                })
                .take(3)
                .collect();
            if shown.is_empty() {
                key.to_string()
            } else {
                format!("{key} ({})", shown.join(", "))
            }
        }
    }
}

/// The row of a record's table `rows` a part key (`#12/fish copy 2`) is of.
pub fn row_of<'r>(
    rows: &'r [super::record::RowRecord],
    part: &str,
) -> Option<&'r super::record::RowRecord> {
    rows.iter().find(|r| {
        part == r.key
            || part
                .strip_prefix(r.key.as_str())
                .is_some_and(|rest| rest.starts_with('/') || rest.starts_with(" copy "))
    })
}

/// A warning for each set whose table has rows without an id: its parts are
/// matched to a record's by their place and data, so moving rows around makes them
/// look changed.
pub fn by_place(game: &Game) -> Vec<crate::diag::Diagnostic> {
    game.components
        .iter()
        .filter(|c| c.exported && c.art.is_empty())
        .filter_map(|c| Some((c, table_of(game, c).filter(|t| numbered(t))?)))
        .map(|(c, t)| {
            crate::diag::Diagnostic::warning(format!(
                "set `{}`: the rows of table `{}` have no `id`, so its parts are matched to the last print by their place and data; moving rows around makes them look changed",
                c.id(),
                t.name
            ))
            .at(&t.file, None)
            .with("game", &game.id)
            .with("component", c.id())
            .hint("give every row an `id` to match its part by id")
        })
        .collect()
}

/// Splits a part key at the end of its row: (`#12`, `/fish copy 2`). Only keys of
/// numbered rows are split; an id is the whole key's row only when it is.
fn numbered_row(key: &str) -> Option<(usize, &str)> {
    let digits = key.strip_prefix('#')?;
    let end = digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    let n = digits[..end].parse().ok()?;
    Some((n, &digits[end..]))
}

/// How the rows of one table of the game line up with the rows a record has of it:
/// current row number → the record's (for rows without an id).
#[derive(Debug, Default)]
struct Aligned {
    rows: BTreeMap<usize, usize>,
}

/// What each part and row of the game is in a record.
#[derive(Debug, Default)]
pub struct Matcher {
    tables: BTreeMap<String, Aligned>,
}

impl Matcher {
    /// Lines the game's tables up with `record`'s.
    pub fn new(game: &Game, record: &Record) -> Matcher {
        let mut tables = BTreeMap::new();
        for (name, table) in &game.tables {
            let Some(old) = record.tables.get(name) else {
                continue;
            };
            let derived: Vec<&str> = game
                .derives
                .iter()
                .filter(|d| d.get_ref().table.get_ref() == name)
                .map(|d| d.get_ref().field.get_ref().as_str())
                .collect();
            let own = |fields: &toml::Table| -> String {
                fields
                    .iter()
                    .filter(|(k, _)| !derived.contains(&k.as_str()))
                    .map(|(k, v)| format!("{k}={}", super::record::inline(v)))
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            let now: Vec<(usize, String)> = table
                .rows
                .iter()
                .enumerate()
                .filter(|(_, r)| r.id().is_none())
                .map(|(i, r)| (i + 1, own(&row_fields(r))))
                .collect();
            let then: Vec<(usize, String)> = old
                .iter()
                .filter_map(|r| Some((numbered_row(&r.key)?.0, own(&r.fields))))
                .collect();
            tables.insert(
                name.clone(),
                Aligned {
                    rows: align(&then, &now),
                },
            );
        }
        Matcher { tables }
    }

    /// The key a row of table `table` (its current key) has in the record, if the
    /// record has it.
    pub fn row(&self, table: &str, key: &str) -> Option<String> {
        match numbered_row(key) {
            Some((n, rest)) => {
                let old = self.tables.get(table)?.rows.get(&n)?;
                Some(format!("#{old}{rest}"))
            }
            None => Some(key.to_string()),
        }
    }

    /// The key a part of a set over `table` (its current key) has in the record.
    pub fn part(&self, table: Option<&str>, key: &str) -> Option<String> {
        match table {
            Some(t) => self.row(t, key),
            None => Some(key.to_string()),
        }
    }
}

/// Pairs the rows `then` (a record's: number, own fields) with `now` (the game's)
/// as `diff` pairs lines: equal rows in order, and the rows between two such pairs
/// in order. Current row number → the record's.
fn align(then: &[(usize, String)], now: &[(usize, String)]) -> BTreeMap<usize, usize> {
    use similar::DiffOp;
    let a: Vec<&str> = then.iter().map(|(_, s)| s.as_str()).collect();
    let b: Vec<&str> = now.iter().map(|(_, s)| s.as_str()).collect();
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(500);
    let ops =
        similar::capture_diff_slices_deadline(similar::Algorithm::Myers, &a, &b, Some(deadline));
    let mut out = BTreeMap::new();
    // Rows removed since the record, not yet paired with rows added.
    let mut removed: std::collections::VecDeque<usize> = Default::default();
    for op in ops {
        match op {
            DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => {
                removed.clear();
                for k in 0..len {
                    out.insert(now[new_index + k].0, then[old_index + k].0);
                }
            }
            DiffOp::Delete {
                old_index, old_len, ..
            } => removed.extend((old_index..old_index + old_len).map(|i| then[i].0)),
            DiffOp::Insert {
                new_index, new_len, ..
            } => {
                for k in 0..new_len {
                    match removed.pop_front() {
                        Some(old) => {
                            out.insert(now[new_index + k].0, old);
                        }
                        None => break,
                    }
                }
            }
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                removed.clear();
                for k in 0..old_len.min(new_len) {
                    out.insert(now[new_index + k].0, then[old_index + k].0);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(list: &[&str]) -> Vec<(usize, String)> {
        list.iter()
            .enumerate()
            .map(|(i, s)| (i + 1, s.to_string()))
            .collect()
    }

    #[test]
    fn rows_line_up_as_diff_lines_do() {
        let then = rows(&["a", "b", "c", "d", "e"]);
        // b removed, d changed, f added at the end.
        let now = rows(&["a", "c", "D", "e", "f"]);
        let m = align(&then, &now);
        assert_eq!(m.get(&1), Some(&1));
        assert_eq!(m.get(&2), Some(&3));
        assert_eq!(m.get(&3), Some(&4), "the changed row keeps its place");
        assert_eq!(m.get(&4), Some(&5));
        assert_eq!(m.get(&5), None, "an added row is new");
        assert!(
            !m.values().any(|&v| v == 2),
            "the removed row is paired with none"
        );
        // A row inserted at the top shifts nothing.
        let m = align(&then, &rows(&["z", "a", "b", "c", "d", "e"]));
        assert_eq!(m.get(&1), None);
        assert_eq!((2..=6).map(|i| m[&i]).collect::<Vec<_>>(), [1, 2, 3, 4, 5]);
    }

    #[test]
    fn numbered_keys_split_at_their_row() {
        assert_eq!(numbered_row("#12/fish copy 2"), Some((12, "/fish copy 2")));
        assert_eq!(numbered_row("#3"), Some((3, "")));
        assert_eq!(numbered_row("seattle/fish"), None);
        assert_eq!(numbered_row("#x"), None);
    }
}
