//! An index over a game's tables for `lookup()` and `select()`, so that a derive
//! or template calling them once per row stays linear in the table's size: rows by
//! `id`, built with the context, and rows by the value of a field, built the first
//! time a field is selected on. It travels in the context under [`INDEX`].

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use minijinja::value::{Object, Value, ValueKind};

/// The context variable holding the index.
pub const INDEX: &str = "__cardstock_index";

/// The rows of every table, indexed.
#[derive(Debug, Default)]
pub struct TableIndex {
    tables: BTreeMap<String, Table>,
}

/// Row positions by value of one field.
type FieldIndex = HashMap<Value, Vec<usize>>;

#[derive(Debug, Default)]
struct Table {
    rows: Vec<Value>,
    /// Row position by `id` (the first row with that id).
    ids: HashMap<String, usize>,
    /// Per field: row positions by value (a list field counts each element once).
    fields: Mutex<HashMap<String, Arc<FieldIndex>>>,
}

impl Object for TableIndex {}

/// Whether `v` can be an index key: a value compared by content (text, number,
/// true/false, none), whose hash agrees with minijinja's equality.
fn scalar(v: &Value) -> bool {
    matches!(
        v.kind(),
        ValueKind::String | ValueKind::Number | ValueKind::Bool | ValueKind::None
    )
}

impl TableIndex {
    /// The index of `tables` (name, rows).
    pub fn new<'a>(tables: impl IntoIterator<Item = (&'a str, &'a [Value])>) -> TableIndex {
        let tables = tables
            .into_iter()
            .map(|(name, rows)| {
                let mut ids = HashMap::new();
                for (i, row) in rows.iter().enumerate() {
                    if let Some(id) = row
                        .get_attr("id")
                        .ok()
                        .and_then(|v| v.as_str().map(String::from))
                    {
                        ids.entry(id).or_insert(i);
                    }
                }
                let table = Table {
                    rows: rows.to_vec(),
                    ids,
                    fields: Mutex::default(),
                };
                (name.to_string(), table)
            })
            .collect();
        TableIndex { tables }
    }

    /// The index as a context value.
    pub fn into_value(self) -> Value {
        Value::from_object(self)
    }

    /// Row `i` of `table`; `None` without such a table or row.
    pub fn row(&self, table: &str, i: usize) -> Option<Value> {
        self.tables.get(table)?.rows.get(i).cloned()
    }

    /// The row of `table` whose `id` is `id`; `None` without such a table.
    pub fn lookup(&self, table: &str, id: &str) -> Option<Option<Value>> {
        let t = self.tables.get(table)?;
        Some(t.ids.get(id).map(|&i| t.rows[i].clone()))
    }

    /// The rows of `table` whose `field` equals `value` or, for a list field,
    /// contains it, in row order; `None` without such a table, or for a `value`
    /// that is not text, a number, true/false or none (the caller scans). The
    /// second number is the work done, in rows visited.
    pub fn select(&self, table: &str, field: &str, value: &Value) -> Option<(Vec<Value>, usize)> {
        let t = self.tables.get(table)?;
        if !scalar(value) {
            return None;
        }
        let mut work = 0;
        let by_value = {
            let mut fields = t.fields.lock().ok()?;
            match fields.get(field) {
                Some(m) => m.clone(),
                None => {
                    work = t.rows.len();
                    let m = Arc::new(field_index(&t.rows, field));
                    fields.insert(field.to_string(), m.clone());
                    m
                }
            }
        };
        let rows: Vec<Value> = by_value
            .get(value)
            .map(|is| is.iter().map(|&i| t.rows[i].clone()).collect())
            .unwrap_or_default();
        work += rows.len();
        Some((rows, work))
    }
}

/// Row positions by the value of `field`.
fn field_index(rows: &[Value], field: &str) -> HashMap<Value, Vec<usize>> {
    let mut m: HashMap<Value, Vec<usize>> = HashMap::new();
    let mut add = |key: Value, i: usize| {
        let list = m.entry(key).or_default();
        if list.last() != Some(&i) {
            list.push(i);
        }
    };
    for (i, row) in rows.iter().enumerate() {
        let Ok(v) = row.get_attr(field) else { continue };
        if v.kind() == ValueKind::Seq {
            for x in v.try_iter().into_iter().flatten() {
                if scalar(&x) {
                    add(x, i);
                }
            }
        } else if scalar(&v) {
            add(v, i);
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, k: Value) -> Value {
        let mut m = BTreeMap::new();
        m.insert("id", Value::from(id));
        m.insert("k", k);
        Value::from(m)
    }

    #[test]
    fn select_matches_equality_and_list_membership_in_row_order() {
        let rows = vec![
            row("a", Value::from(1)),
            row(
                "b",
                Value::from(vec![Value::from(1), Value::from(1), Value::from(2)]),
            ),
            row("c", Value::from(1.0)),
            row("d", Value::from("1")),
            row("a", Value::from(3)),
        ];
        let index = TableIndex::new([("t", rows.as_slice())]);
        let ids = |v: Value| -> Vec<String> {
            index
                .select("t", "k", &v)
                .unwrap()
                .0
                .iter()
                .map(|r| r.get_attr("id").unwrap().to_string())
                .collect()
        };
        assert_eq!(ids(Value::from(1)), ["a", "b", "c"]);
        assert_eq!(ids(Value::from("1")), ["d"]);
        assert_eq!(ids(Value::from(2)), ["b"]);
        assert!(ids(Value::from(9)).is_empty());
        assert_eq!(
            index
                .lookup("t", "a")
                .unwrap()
                .unwrap()
                .get_attr("k")
                .unwrap(),
            Value::from(1)
        );
        assert_eq!(index.lookup("t", "z"), Some(None));
        assert!(index.lookup("nope", "a").is_none());
    }
}
