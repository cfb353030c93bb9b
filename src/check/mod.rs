//! Checks run before anything is printed: component counts against `[contents]`,
//! references between tables, duplicate ids, and the assertions the data declares;
//! [`typed_twice`]: numbers of `[rules]` typed into a text instead of taken from it.

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::{did_you_mean, Diagnostic, Reported};
use std::sync::Arc;

use crate::eval::{eval, row_value_in, Context, RowScope, Scope};
use crate::model::{Game, Spanned};
use crate::template::Templates;

pub mod by_reads;
pub mod derived;
pub mod kept;
pub mod typed_twice;

pub use derived::DeriveCache;
pub use kept::AssertCache;

/// Checks that need no evaluation: unique ids and references between tables. Run
/// first: formulas and assertions over dangling references would only repeat them.
pub fn check_structure(game: &Game) -> Reported<()> {
    let mut diags = check_ids(game);
    diags.extend(check_field_typos(game));
    diags.extend(check_references(game));
    Reported::new((), diags)
}

/// Fields the engine itself reads from rows.
const ENGINE_FIELDS: [&str; 2] = ["id", "qty"];

/// A row field that only a few rows have and that looks like a field the others
/// have (or like `qty`/`id`) is probably a typo: `qyt = 2` would silently print one
/// copy. An error for the engine's own fields, a warning otherwise. In a CSV file or
/// a sheet every row has the header's columns: there a column whose name looks
/// like `qty` or `id` (`Qty`, `qyt`) while no column is named so is the typo.
fn check_field_typos(game: &Game) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for t in game.tables.values() {
        if t.rows.iter().any(|r| r.line.is_some()) {
            diags.extend(column_typos(game, t));
            continue;
        }
        let mut uses: BTreeMap<&str, usize> = BTreeMap::new();
        for row in &t.rows {
            for k in row.fields.keys() {
                *uses.entry(k.as_str()).or_default() += 1;
            }
        }
        let common = (t.rows.len() / 2).max(2);
        let mut known: BTreeSet<&str> = uses
            .iter()
            .filter(|(_, &n)| n >= common)
            .map(|(k, _)| *k)
            .collect();
        known.extend(ENGINE_FIELDS);
        for (i, row) in t.rows.iter().enumerate() {
            for (k, f) in &row.fields {
                if known.contains(k.as_str()) {
                    continue;
                }
                let Some(m) = did_you_mean(k, known.iter().copied()) else {
                    continue;
                };
                let label = format!("{} {}", t.name, row.label(i));
                let d = if ENGINE_FIELDS.contains(&m) {
                    Diagnostic::error(format!("{label}: unknown field `{k}`"))
                } else {
                    Diagnostic::warning(format!(
                        "{label}: field `{k}` appears in {} row(s) only",
                        uses[k.as_str()]
                    ))
                };
                diags.push(
                    t.at(d, row, Some(f), true)
                        .with("game", &game.id)
                        .with("row", label)
                        .hint(format!("did you mean `{m}`?")),
                );
            }
        }
    }
    diags
}

/// The columns of a CSV file or sheet named like an engine field that no column
/// has (`Qty`, `qyt`): an error at the header cell.
fn column_typos(game: &Game, t: &crate::model::Table) -> Vec<Diagnostic> {
    let mut first: BTreeMap<&str, (&crate::model::Row, &crate::model::Field)> = BTreeMap::new();
    for row in &t.rows {
        for (k, f) in &row.fields {
            first.entry(k.as_str()).or_insert((row, f));
        }
    }
    let mut diags = Vec::new();
    for (k, (row, f)) in &first {
        let missing = ENGINE_FIELDS
            .iter()
            .copied()
            .filter(|e| !first.contains_key(e));
        let Some(m) = did_you_mean(k, missing).or_else(|| {
            ENGINE_FIELDS
                .iter()
                .copied()
                .find(|e| e.eq_ignore_ascii_case(k) && !first.contains_key(e))
        }) else {
            continue;
        };
        diags.push(
            t.at(
                Diagnostic::error(format!(
                    "table `{}`: unknown column `{k}`, and no column is named `{m}`",
                    t.name
                )),
                row,
                Some(f),
                true,
            )
            .with("game", &game.id)
            .hint(format!(
                "did you mean `{m}`? Field names are case-sensitive: cardstock reads `{m}`"
            )),
        );
    }
    diags
}

/// Row ids must be unique within a table, also once accents and other marks are
/// written one way: `é` as one character (U+00E9) and as `e` and a combining accent
/// (U+0065 U+0301) look the same and would be two ids no one can tell apart.
fn check_ids(game: &Game) -> Vec<Diagnostic> {
    use unicode_normalization::UnicodeNormalization;
    let mut diags = Vec::new();
    for t in game.tables.values() {
        let mut seen: BTreeMap<String, (usize, &str)> = BTreeMap::new();
        for (i, row) in t.rows.iter().enumerate() {
            let Some(id) = row.id() else { continue };
            let Some((first, written)) = seen.insert(id.nfc().collect(), (i, id)) else {
                continue;
            };
            let pos = |k: usize| match t.rows[k].line {
                Some(line) => format!("{line}"),
                None => format!("#{}", k + 1),
            };
            let (message, hint) = if written == id {
                (
                    format!(
                        "duplicate id `{id}` in table `{}` (rows {} and {})",
                        t.name,
                        pos(first),
                        pos(i)
                    ),
                    "give every row its own id".to_string(),
                )
            } else {
                (
                    format!(
                        "ids `{written}` (row {}) and `{id}` (row {}) in table `{}` look the same but are written with other characters ({} and {})",
                        pos(first),
                        pos(i),
                        t.name,
                        code_points(written),
                        code_points(id)
                    ),
                    "give every row its own id; to keep this one, type it again (editors type accents as one character)".to_string(),
                )
            };
            diags.push(
                t.at(
                    Diagnostic::error(message),
                    row,
                    Some(&row.fields["id"]),
                    false,
                )
                .with("game", &game.id)
                .hint(hint),
            );
        }
    }
    diags
}

/// The characters of `s` that are not plain ASCII letters as code points, in
/// order: `é` written as `e` and an accent is `e U+0301`.
fn code_points(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_string()
            } else {
                format!(" U+{:04X} ", c as u32)
            }
        })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `[contents]` counts, by component id: each a whole number or an
/// expression over `rules` and `game` (`contracts = "rules.deck_size"`, so a deck
/// size is written once), evaluated with `base`. A count that is not a whole
/// number from 0 up is an error at its value.
pub fn rule_counts(game: &Game, tpl: &Templates, base: &Context) -> Reported<Vec<RuleCount>> {
    let mut counts = Vec::new();
    let mut diags = Vec::new();
    for (name, value) in &game.contents {
        let id = name.get_ref();
        let at = |d: Diagnostic| {
            d.at(&game.file, Some(value.span()))
                .with("game", &game.id)
                .with("component", id.clone())
        };
        let count = match value.get_ref() {
            toml::Value::Integer(n) => Ok(*n),
            toml::Value::String(expr) => {
                let spanned = Spanned::new(value.span(), expr.clone());
                eval(tpl, game, &spanned, base).and_then(|v| {
                    v.as_i64().ok_or_else(|| {
                        at(Diagnostic::error(format!(
                            "[contents] `{id}` = \"{expr}\" gives `{v}`, not a whole number"
                        )))
                        .hint("the expression must give the number of parts, e.g. \"rules.deck_size\"")
                    })
                })
            }
            other => Err(at(Diagnostic::error(format!(
                "[contents] `{id}` is {}, not a count",
                crate::model::toml_problems::type_words(other.type_str())
            )))
            .hint("write a whole number (`cards = 12`) or an expression over rules in quotes (`cards = \"rules.deck_size\"`)")),
        };
        match count {
            Ok(n) if n >= 0 => counts.push((name.clone(), Spanned::new(value.span(), n))),
            Ok(n) => diags.push(
                at(Diagnostic::error(format!(
                    "[contents] `{id}` is {n}, less than none"
                )))
                .hint("a count is 0 or more"),
            ),
            Err(d) => diags.push(d.with("component", id.clone())),
        }
    }
    Reported::new(counts, diags)
}

/// One `[contents]` count, evaluated: the component id (at its key) and the
/// count (at its value).
pub type RuleCount = (Spanned<String>, Spanned<i64>);

/// `[contents]` counts (the rulebook's, from [`rule_counts`]) against what the
/// build would print; `counts` maps component id to printed parts.
pub fn check_contents(
    game: &Game,
    expected: &[RuleCount],
    counts: &BTreeMap<String, u64>,
) -> Reported<()> {
    let mut diags = Vec::new();
    for (name, expected) in expected {
        let id = name.get_ref();
        if game.rejected.contains(id) {
            continue;
        }
        let Some(comp) = game.component(id) else {
            let hint = match did_you_mean(id, game.components.iter().map(|c| c.id())) {
                Some(m) => format!("did you mean `{m}`?"),
                None => "name a [[component]] id, or remove the line".to_string(),
            };
            diags.push(
                Diagnostic::error(format!(
                    "[contents] lists `{id}`, but no [[component]] has that id"
                ))
                .at(&game.file, Some(name.span()))
                .with("game", &game.id)
                .hint(hint),
            );
            continue;
        };
        let Some(&actual) = counts.get(id) else {
            continue;
        };
        let want = *expected.get_ref();
        if want != actual as i64 {
            let source = comp
                .def
                .table
                .as_ref()
                .and_then(|t| game.tables.get(t.get_ref()))
                .map(|t| t.file.display().to_string())
                .unwrap_or_else(|| game.file.display().to_string());
            diags.push(
                Diagnostic::error(format!(
                    "component set `{id}`: the rules have {want}, but the data would print {actual}"
                ))
                .at(&game.file, Some(expected.span()))
                .label(format!("the rules' count for `{id}`"))
                .with("game", &game.id)
                .with("component", id.clone())
                .with("data", source.clone())
                .hint(if (actual as i64) < want {
                    format!("add {} part(s) to {source}, or correct [contents] if the rules changed", want - actual as i64)
                } else {
                    format!("remove {} part(s) from {source}, or correct [contents] if the rules changed", actual as i64 - want)
                }),
            );
        }
    }
    Reported::new((), diags)
}

/// `[[reference]]`: `table.field` values must be ids of the target table.
fn check_references(game: &Game) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for r in &game.references {
        let def = r.get_ref();
        let Some((tname, field)) = def.from.get_ref().split_once('.') else {
            diags.push(
                Diagnostic::error(format!(
                    "reference `from = \"{}\"` must be `table.field`",
                    def.from.get_ref()
                ))
                .at(&game.file, Some(def.from.span()))
                .with("game", &game.id)
                .hint("for example `from = \"contract.good\"`"),
            );
            continue;
        };
        let (Some(src), Some(dst)) = (game.tables.get(tname), game.tables.get(def.to.get_ref()))
        else {
            if !game.unparsed_data {
                // (else the table is probably in the file that did not parse)
                diags.extend(unknown_tables(game, def, tname));
            }
            continue;
        };
        let reader = format!("[[reference]] `{}`", def.from.get_ref());
        if let Some(d) = src.lacks(field, &reader).filter(|_| def.required) {
            // A column renamed in the spreadsheet: once, at its header, not per row.
            let d = match &src.header {
                Some(_) => d,
                None => d.at(&game.file, Some(def.from.span())),
            };
            diags.push(d.with("game", &game.id));
            continue;
        }
        let refs = Refs {
            game,
            src,
            dst,
            tname,
            field,
            required: def.required,
        };
        diags.extend(refs.check_rows());
    }
    diags
}

/// The tables a `[[reference]]` names (`from`'s table `tname`, `to`) that no data
/// file defines.
fn unknown_tables(game: &Game, def: &crate::model::ReferenceDef, tname: &str) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for (name, span) in [
        (tname, def.from.span()),
        (def.to.get_ref().as_str(), def.to.span()),
    ] {
        if !game.tables.contains_key(name) {
            diags.push(game.unknown_table("reference names", name, span));
        }
    }
    diags
}

/// One `[[reference]]` between two tables that exist: the rows of `src`
/// (table `tname`) whose `field` names ids of `dst`.
struct Refs<'a> {
    game: &'a Game,
    src: &'a crate::model::Table,
    dst: &'a crate::model::Table,
    tname: &'a str,
    field: &'a str,
    required: bool,
}

impl Refs<'_> {
    /// Every row's ids in `field` checked against `dst`'s ids.
    fn check_rows(&self) -> Vec<Diagnostic> {
        let (game, src, dst, field) = (self.game, self.src, self.dst, self.field);
        let mut diags = Vec::new();
        let ids: BTreeSet<&str> = dst.rows.iter().filter_map(|r| r.id()).collect();
        for (i, row) in src.rows.iter().enumerate() {
            let label = format!("{} {}", self.tname, row.label(i));
            let Some(f) = row.fields.get(field) else {
                if self.required {
                    let d = Diagnostic::error(format!("{label} has no `{field}` field"));
                    diags.push(
                        src.at(d, row, None, false)
                            .with("game", &game.id)
                            .with("row", label.clone())
                            .hint(match src.header {
                                Some(_) => format!(
                                    "fill in the row's `{field}` cell with a `{}` id",
                                    dst.name
                                ),
                                None => format!("add `{field} = \"<{} id>\"`", dst.name),
                            }),
                    );
                }
                continue;
            };
            let values: Vec<&toml::Value> = match &f.value {
                toml::Value::Array(a) => a.iter().collect(),
                v => vec![v],
            };
            for v in values {
                let d = match v.as_str() {
                    Some(s) if ids.contains(s) => continue,
                    Some(s) => src
                        .at(
                            Diagnostic::error(format!(
                                "{label}: `{field}` refers to `{s}`, which is not a `{}` id",
                                dst.name
                            )),
                            row,
                            Some(f),
                            false,
                        )
                        .with("game", &game.id)
                        .with("row", label.clone())
                        .with("field", field)
                        .hint(unknown_id_hint(s, &ids, &dst.name)),
                    None => src
                        .at(
                            Diagnostic::error(format!(
                                "{label}: `{field}` must be a string id (or a list of them)"
                            )),
                            row,
                            Some(f),
                            false,
                        )
                        .with("game", &game.id)
                        .with("row", label.clone()),
                };
                diags.push(d);
            }
        }
        diags
    }
}

/// How to fix a reference to `s`, which is not one of `ids` (of table `table`):
/// the id that looks the same in other characters, the nearest id, or add it.
fn unknown_id_hint(s: &str, ids: &BTreeSet<&str>, table: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let same = |a: &str, b: &str| a.nfc().eq(b.nfc());
    match ids.iter().find(|id| same(id, s)) {
        Some(m) => format!(
            "the id `{m}` looks the same but is written with other characters ({} here, {} there): type it again",
            code_points(s),
            code_points(m)
        ),
        None => match did_you_mean(s, ids.iter().copied()) {
            Some(m) => format!("did you mean `{m}`?"),
            None => format!("add a `{table}` row with id `{s}` or use an existing id"),
        },
    }
}

/// Longest message an `[[assert]]` may print (a message that grows with the data
/// is a mistake, and could fill the terminal or memory).
pub const MAX_MESSAGE_BYTES: usize = 4096;
/// Most problems one `[[assert]]` reports; the rest are counted.
pub const MAX_PROBLEMS_PER_CHECK: usize = 100;

/// How many assertions ran: `[[assert]]` entries, and checks (an entry with
/// `each` is checked once per row).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Ran {
    pub asserts: usize,
    pub checks: usize,
}

/// `[[assert]]`: expressions that must be true, once or for each row of a table;
/// gives how many ran, with the problems. `counts` (component id -> printed
/// parts) is visible to the expressions as `counts`, e.g.
/// `counts.destinations == tables.house | length`. With `kept` (the live
/// preview), an assertion that held is not run again while nothing it read
/// changed ([`kept`]).
pub fn check_asserts(
    game: &Game,
    tpl: &Templates,
    base: &Context,
    counts: &BTreeMap<String, u64>,
    kept: Option<(&AssertCache, &crate::project::Project)>,
) -> Reported<Ran> {
    let mut base = base.clone();
    base.insert("counts".into(), crate::template::to_value(counts));
    if let Some((cache, _)) = kept {
        cache.begin();
    }
    // Each assertion on its own core (the live preview runs them on every save);
    // the problems in the order of the assertions.
    use rayon::prelude::*;
    let each: Vec<(Vec<Diagnostic>, Option<usize>)> = game
        .asserts
        .par_iter()
        .map(|a| match Assert::new(game, tpl, a) {
            Ok(check) => {
                let run = |ctx: &Context, rows: Option<&kept::Rows>| {
                    check.ran.set(0);
                    let diags = crate::diag::once_for_rows(check.each(ctx, rows));
                    (diags, check.ran.get())
                };
                let (diags, n) = match kept {
                    Some((cache, project)) => {
                        let s = crate::render::recorded::Sources {
                            project,
                            game,
                            tpl,
                            base: &base,
                        };
                        let def = a.get_ref();
                        if kept::by_row(game, def) {
                            let rows = kept::Rows::new(cache, &s, def);
                            let done = run(&base, Some(&rows));
                            rows.count();
                            done
                        } else {
                            kept::checked(cache, &s, def, |ctx| run(ctx, None))
                        }
                    }
                    None => run(&base, None),
                };
                (diags, Some(n))
            }
            Err(d) => (vec![d], None),
        })
        .collect();
    if let Some((cache, _)) = kept {
        cache.finish();
    }
    let mut diags = Vec::new();
    let mut ran = Ran::default();
    for (d, checks) in each {
        diags.extend(d);
        if let Some(n) = checks {
            ran.asserts += 1;
            ran.checks += n;
        }
    }
    Reported::new(ran, diags)
}

/// Where an assertion about one row points: a row of a data table (with its
/// position), or an element of a `rules.` list (the `each`, the element's
/// position, and the span of the `each`). Its label is made only for a problem.
#[derive(Clone)]
enum RowPlace<'a> {
    Data(&'a crate::model::Table, &'a crate::model::Row, usize),
    Rules(&'a str, usize, std::ops::Range<usize>),
}

impl RowPlace<'_> {
    /// How problems name the row: `house #3`, `rules.setup #2`.
    fn label(&self) -> String {
        match self {
            RowPlace::Data(table, row, i) => format!("{} {}", table.name, row.label(*i)),
            RowPlace::Rules(each, i, _) => format!("{each} #{}", i + 1),
        }
    }
}

/// One `[[assert]]`, checked.
struct Assert<'a> {
    game: &'a Game,
    tpl: &'a Templates,
    def: &'a crate::model::AssertDef,
    /// `that` (an expression) or `template` (a check that prints problems).
    that: Option<&'a Spanned<String>>,
    template: Option<&'a Spanned<String>>,
    /// `that`, compiled when it first runs, once for every row it runs on.
    compiled: std::cell::OnceCell<Option<crate::eval::Compiled<'a>>>,
    /// `template`, compiled the same way.
    compiled_template: std::cell::OnceCell<Option<minijinja::Template<'a, 'a>>>,
    hint: String,
    /// How many times the check ran.
    ran: std::cell::Cell<usize>,
}

impl<'a> Assert<'a> {
    fn new(
        game: &'a Game,
        tpl: &'a Templates,
        a: &'a Spanned<crate::model::AssertDef>,
    ) -> Result<Self, Diagnostic> {
        let def = a.get_ref();
        let (that, template) = match (&def.that, &def.template) {
            (Some(t), None) if def.message.is_some() => (Some(t), None),
            (None, Some(t)) => (None, Some(t)),
            (Some(_), None) => {
                return Err(Diagnostic::error("[[assert]] with `that` needs a `message`")
                    .at(&game.file, Some(a.span()))
                    .with("game", &game.id)
                    .hint("say which rule is broken when the expression is false"))
            }
            _ => {
                return Err(Diagnostic::error("[[assert]] needs exactly one of `that` (an expression) or `template` (a check that prints problems)")
                    .at(&game.file, Some(a.span()))
                    .with("game", &game.id)
                    .hint("write `that = \"...\"` with a `message`, or `template = \"\"\"...\"\"\"`"))
            }
        };
        let hint = def.hint.clone().unwrap_or_else(|| {
            "fix the data so the check holds, or the check if the rules changed".into()
        });
        Ok(Assert {
            game,
            tpl,
            def,
            that,
            template,
            compiled: std::cell::OnceCell::new(),
            compiled_template: std::cell::OnceCell::new(),
            hint,
            ran: std::cell::Cell::new(0),
        })
    }

    /// Runs the check once, or for each row of `each` (a table or a `rules.` list);
    /// a table's rows through `rows` when it is given (the live preview). The
    /// rows share one copy of `base`, each with its row as `row`.
    fn each(&self, base: &Context, rows: Option<&kept::Rows>) -> Vec<Diagnostic> {
        let (game, tpl) = (self.game, self.tpl);
        let mut diags = Vec::new();
        let Some(t) = &self.def.each else {
            self.run(Scope::Whole(base), None, &mut diags);
            return diags;
        };
        if t.get_ref().starts_with("rules.") {
            match eval(tpl, game, t, base) {
                Ok(list) if list.kind() == minijinja::value::ValueKind::Seq => {
                    let shared = Arc::new(base.clone());
                    for (i, item) in list.try_iter().into_iter().flatten().enumerate() {
                        let scope = RowScope::new(&shared, item);
                        let place = RowPlace::Rules(t.get_ref(), i, t.span());
                        self.run(Scope::Row(&scope), Some(place), &mut diags);
                    }
                }
                Ok(v) => diags.push(
                    Diagnostic::error(format!(
                        "[[assert]] `each = \"{}\"` is {}, not a list",
                        t.get_ref(),
                        v.kind()
                    ))
                    .at(&game.file, Some(t.span()))
                    .with("game", &game.id)
                    .hint("`each` names a table, or a list in [rules] such as `rules.setup`"),
                ),
                Err(d) => diags.push(d),
            }
            return diags;
        }
        let Some(table) = game.tables.get(t.get_ref()) else {
            diags.push(game.unknown_table("[[assert]] `each` names", t.get_ref(), t.span()));
            return diags;
        };
        // `base`, copied once for all the rows (the live preview gives each
        // row's check its own context).
        let shared = std::cell::OnceCell::new();
        for (i, row) in table.rows.iter().enumerate() {
            let check = |base: &Arc<Context>, diags: &mut Vec<Diagnostic>| {
                let scope = RowScope::new(base, row_value_in(base, t.get_ref(), i, row));
                self.run(
                    Scope::Row(&scope),
                    Some(RowPlace::Data(table, row, i)),
                    diags,
                );
            };
            match rows {
                None => check(shared.get_or_init(|| Arc::new(base.clone())), &mut diags),
                Some(rows) => {
                    // One check for the row, kept or run (a failing one runs twice).
                    let ran = self.ran.get() + 1;
                    let checked = rows.check(row, |base| {
                        let mut d = Vec::new();
                        check(&Arc::new(base.clone()), &mut d);
                        d
                    });
                    diags.extend(checked.into_iter().flatten());
                    self.ran.set(ran);
                }
            }
            if diags.len() > MAX_PROBLEMS_PER_CHECK {
                break;
            }
        }
        diags
    }

    /// A problem found by this check: at the row when there is one, else at `span`
    /// of `game.toml`.
    fn problem(
        &self,
        msg: String,
        span: std::ops::Range<usize>,
        row: &Option<RowPlace>,
    ) -> Diagnostic {
        let d = Diagnostic::error(msg).with("game", &self.game.id);
        let d = match row {
            Some(place @ RowPlace::Data(table, r, _)) => {
                table.at(d, r, None, false).with("row", place.label())
            }
            Some(place @ RowPlace::Rules(_, _, rspan)) => d
                .at(&self.game.file, Some(rspan.clone()))
                .with("row", place.label()),
            None => d.at(&self.game.file, Some(span)),
        };
        d.hint(self.hint.clone())
    }

    /// A message of at most [`MAX_MESSAGE_BYTES`].
    fn bounded(&self, msg: String, span: std::ops::Range<usize>) -> Result<String, Diagnostic> {
        if msg.len() <= MAX_MESSAGE_BYTES {
            return Ok(msg);
        }
        Err(Diagnostic::error(format!(
            "the message of this [[assert]] is {} bytes, over the limit of {MAX_MESSAGE_BYTES}",
            msg.len()
        ))
        .at(&self.game.file, Some(span))
        .with("game", &self.game.id)
        .hint("keep messages short: name the row and the rule, not the whole data"))
    }

    /// Checks one scope (the whole game, or one row).
    fn run(&self, scope: Scope, row: Option<RowPlace>, diags: &mut Vec<Diagnostic>) {
        self.ran.set(self.ran.get() + 1);
        let (game, tpl, def) = (self.game, self.tpl, self.def);
        if let Some(t) = self.template {
            let root = scope.value();
            let compiled = self
                .compiled_template
                .get_or_init(|| tpl.compile_str(t.get_ref()));
            let rendered = match compiled {
                Some(template) => tpl.render_compiled(template, root.clone()),
                None => tpl.render_str(t.get_ref(), root.clone()),
            };
            match rendered {
                Ok(out) => {
                    let lines: Vec<&str> = out
                        .lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty())
                        .collect();
                    // The message may use the context too (`{{ rules.x }}`);
                    // made only for a check that found problems.
                    let prefix = match lines.is_empty() {
                        true => None,
                        false => def
                            .message
                            .as_ref()
                            .map(|m| tpl.env.render_str(m, root).unwrap_or_else(|_| m.clone())),
                    };
                    for line in lines.iter().take(MAX_PROBLEMS_PER_CHECK) {
                        let msg = match &prefix {
                            Some(m) => format!("{m}: {line}"),
                            None => line.to_string(),
                        };
                        diags.push(match self.bounded(msg, t.span()) {
                            Ok(msg) => self.problem(msg, t.span(), &row),
                            Err(d) => d,
                        });
                    }
                    if lines.len() > MAX_PROBLEMS_PER_CHECK {
                        diags.push(self.problem(
                            format!(
                                "... and {} more problems from this check",
                                lines.len() - MAX_PROBLEMS_PER_CHECK
                            ),
                            t.span(),
                            &row,
                        ));
                    }
                }
                Err(e) => {
                    let ctx = scope.context();
                    let known = crate::template::errors::Known {
                        env: Some(&tpl.env),
                        ctx: Some(&ctx),
                    };
                    let x = crate::template::errors::explain(&e, t.get_ref(), known, false);
                    let mut d = Diagnostic::error(format!("check template failed: {}", x.message))
                        .at(&game.file, Some(t.span()))
                        .with("game", &game.id)
                        .hint(x.hint);
                    if let Some(h) = x
                        .missing
                        .and_then(|m| crate::template::captured_hint(&game.file, &game.text, &m))
                    {
                        d = d.hint(h);
                    }
                    diags.push(d);
                }
            }
            return;
        }
        let Some(that) = self.that else { return };
        let compiled = self
            .compiled
            .get_or_init(|| crate::eval::compile(tpl, that));
        match crate::eval::eval_compiled(tpl, game, (that, compiled.as_ref()), scope) {
            Ok(v) if v.is_true() => {}
            Ok(_) => {
                let message = def.message.clone().unwrap_or_default();
                let msg = tpl.render_str(&message, scope.value()).unwrap_or(message);
                diags.push(match self.bounded(msg, that.span()) {
                    Ok(msg) => self
                        .problem(msg, that.span(), &row)
                        .with("check", that.get_ref().clone()),
                    Err(d) => d,
                });
            }
            Err(d) => diags.push(match &row {
                Some(place) => d.with("row", place.label()),
                None => d,
            }),
        }
    }
}
