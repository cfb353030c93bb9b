//! The game's data from templates: `lookup` and `select` over its tables (through
//! the table index when the context has one), and `shuffle`, a seeded order.

use std::borrow::Cow;
use std::sync::Arc;

use minijinja::value::{ArgType, Value, ValueKind};
use minijinja::{Error, ErrorKind, State};

use super::reads::{note_table, NotedIndex, Reads};
use crate::index::TableIndex;

/// The rows of table `table` of the render's `tables`, or an error naming the
/// nearest table (or all of them).
fn rows_of(state: &State, table: &str) -> Result<Value, Error> {
    let tables = state
        .lookup("tables")
        .ok_or_else(|| Error::new(ErrorKind::InvalidOperation, "no tables in this context"))?;
    let rows = tables.get_attr(table)?;
    if rows.is_undefined() {
        let names: Vec<String> = tables
            .try_iter()
            .map(|keys| keys.filter_map(|k| k.as_str().map(String::from)).collect())
            .unwrap_or_default();
        let near = match crate::diag::did_you_mean(table, names.iter().map(String::as_str)) {
            Some(m) => format!("; did you mean `{m}`?"),
            None => format!("; the tables are: {}", names.join(", ")),
        };
        return Err(Error::new(
            ErrorKind::InvalidOperation,
            format!("there is no table `{table}`{near}"),
        ));
    }
    Ok(rows)
}

/// The game's table index (see `crate::index`), when the context has one, and
/// the render's reads when it notes them ([`NotedIndex`]).
fn index(state: &State) -> Option<(Arc<TableIndex>, Option<Arc<Reads>>)> {
    let value = state.lookup(crate::index::INDEX)?;
    if let Some(noted) = value.downcast_object_ref::<NotedIndex>() {
        return Some((noted.index.clone(), Some(noted.reads.clone())));
    }
    Some((value.downcast_object::<TableIndex>()?, None))
}

/// An argument read as text (a table's, a field's or an id's name): a string as
/// it is, without copying it, and any other value as minijinja makes a `String`
/// argument of it (its text, or the same error).
pub(super) struct Text<'a>(Cow<'a, str>);

impl std::fmt::Display for Text<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::ops::Deref for Text<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl<'a> Text<'a> {
    /// `value` when it is a string (borrowed).
    fn borrowed(value: Option<&'a Value>) -> Option<Text<'a>> {
        let s = value.filter(|v| v.kind() == ValueKind::String)?.as_str()?;
        Some(Text(Cow::Borrowed(s)))
    }
}

impl<'a> ArgType<'a> for Text<'_> {
    type Output = Text<'a>;

    fn from_value(value: Option<&'a Value>) -> Result<Text<'a>, Error> {
        match Text::borrowed(value) {
            Some(t) => Ok(t),
            None => String::from_value(value).map(|s| Text(Cow::Owned(s))),
        }
    }

    fn from_state_and_value(
        state: Option<&'a State>,
        value: Option<&'a Value>,
    ) -> Result<(Text<'a>, usize), Error> {
        Self::from_state_and_value_mut(state, value)
    }

    fn from_state_and_value_mut(
        state: Option<&State>,
        value: Option<&'a Value>,
    ) -> Result<(Text<'a>, usize), Error> {
        match Text::borrowed(value) {
            Some(t) => Ok((t, 1)),
            None => String::from_state_and_value_mut(state, value)
                .map(|(s, n)| (Text(Cow::Owned(s)), n)),
        }
    }

    fn from_state_and_value_owned(
        state: Option<&'a State>,
        value: Value,
    ) -> Result<Text<'a>, Error> {
        String::from_state_and_value_owned(state, value).map(|s| Text(Cow::Owned(s)))
    }

    fn from_state_and_value_owned_mut(
        state: Option<&State>,
        value: Value,
    ) -> Result<Text<'a>, Error> {
        String::from_state_and_value_owned_mut(state, value).map(|s| Text(Cow::Owned(s)))
    }
}

/// `lookup("city", "memphis")`: the row of `table` whose `id` is `id`.
pub(super) fn lookup(state: &State, table: Text, id: Text) -> Result<Value, Error> {
    let indexed = index(state).and_then(|(ix, reads)| Some((ix.lookup(&table, &id)?, reads)));
    let found = match indexed {
        Some((found, reads)) => {
            note_table(reads.as_deref(), &table);
            state.consume_fuel(1)?;
            found
        }
        None => {
            let rows = rows_of(state, &table)?;
            state.consume_fuel(rows.len().unwrap_or(0) as u64)?;
            let mut found = None;
            for row in rows.try_iter()? {
                if row.get_attr("id")?.as_str() == Some(&*id) {
                    found = Some(row);
                    break;
                }
            }
            found
        }
    };
    found.ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidOperation,
            format!("lookup(): table `{table}` has no row with id `{id}`"),
        )
    })
}

/// `select("city", "goods", "books")`: the rows of `table` whose `field` equals
/// `value` or, for a list field, contains it.
pub(super) fn select(
    state: &State,
    table: Text,
    field: Text,
    value: Value,
) -> Result<Value, Error> {
    let indexed =
        index(state).and_then(|(ix, reads)| Some((ix.select(&table, &field, &value)?, reads)));
    if let Some(((rows, work), reads)) = indexed {
        note_table(reads.as_deref(), &table);
        state.consume_fuel(work as u64 + 1)?;
        return Ok(Value::from(rows));
    }
    let rows = rows_of(state, &table)?;
    state.consume_fuel(rows.len().unwrap_or(0) as u64)?;
    let mut out = Vec::new();
    for row in rows.try_iter()? {
        let f = row.get_attr(&field)?;
        let hit = if f.kind() == ValueKind::Seq {
            state.consume_fuel(f.len().unwrap_or(0) as u64)?;
            f.try_iter()?.any(|x| x == value)
        } else {
            f == value
        };
        if hit {
            out.push(row);
        }
    }
    Ok(Value::from(out))
}

/// `shuffle(list, seed)`: a permutation of `list` that depends only on `seed`.
pub(super) fn shuffle(state: &State, list: Value, seed: i64) -> Result<Value, Error> {
    state.consume_fuel(list.len().unwrap_or(0) as u64)?;
    let mut items: Vec<Value> = list.try_iter()?.collect();
    // splitmix64: small, fast, and the same on every machine.
    let mut state = seed as u64 ^ 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    for i in (1..items.len()).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
    Ok(Value::from(items))
}
