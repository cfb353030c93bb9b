//! The game as it is now against a print record: which parts to print again (their
//! front or back changed), which are new, which need more copies, which to take out
//! of the printed game, and why, in the designer's terms: the data values that
//! changed (`fee: 1900 -> 1800`), the `[rules]` key or data row behind a derived
//! value, or the template that changed.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;

use super::current::{Current, CurrentPart};
use super::key::{describe, numbered, row_fields, row_key, row_name, row_of, table_of, Matcher};
use super::record::{inline, PartRecord, Record, RowRecord};
use crate::diag::Diagnostic;
use crate::model::{Component, Game, Table};
use crate::project::Project;
use crate::template::Templates;

/// What changed between a record and the game.
#[derive(Debug)]
pub struct Changes {
    /// The record compared with: its number, date, note and file.
    pub number: u32,
    pub date: String,
    pub note: String,
    pub file: PathBuf,
    /// Every set the build prints, in the game's order.
    pub sets: Vec<SetChanges>,
}

/// What changed in one set.
#[derive(Debug)]
pub struct SetChanges {
    /// Its index in `game.components`.
    pub component: usize,
    pub id: String,
    pub name: String,
    /// Copies the set prints now.
    pub copies: u64,
    /// Whether the record has the set (a set it does not have is all new).
    pub in_record: bool,
    /// Whether its parts are matched by their place in a table without ids.
    pub by_place: bool,
    /// What to print: changed parts, new parts, more copies.
    pub print: Vec<Reprint>,
    /// Parts of the print to take out of the game.
    pub take_out: Vec<TakeOut>,
}

/// A part to print.
#[derive(Debug, Clone)]
pub struct Reprint {
    /// Its index in the set's slots.
    pub slot: usize,
    /// Copies to print.
    pub copies: u32,
    pub name: String,
    /// Its revision now.
    pub revision: u32,
    pub status: Status,
    /// Whether its back is to be printed too: it changed, or the part is new or
    /// needs more copies (a shop's files of a changed front leave the back out).
    pub back: bool,
    /// Why, one reason an entry (see [`Reason`]).
    pub why: Vec<Reason>,
}

/// Why a part is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Its front or back changed: print every copy, take the old ones out.
    Changed,
    /// Not in the record.
    New,
    /// The same face, more copies than were printed: print the difference.
    More { printed: u32 },
}

/// One reason a part changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// Its own data: `place`, and each field `field: old -> new`.
    Data { place: String, fields: Vec<String> },
    /// A field derived from other data, and what it is derived from that changed.
    Derived {
        fields: Vec<String>,
        from: Vec<String>,
    },
    /// What it draws changed without its data changing: a template, a `[rules]`
    /// value or rows it shows, an image.
    Picture(String),
}

impl Reason {
    /// The reason as a line of text.
    pub fn text(&self) -> String {
        match self {
            Reason::Data { place, fields } => format!("{} ({place})", fields.join(", ")),
            Reason::Derived { fields, from } if from.is_empty() => fields.join(", "),
            Reason::Derived { fields, from } => {
                format!("{} (from {})", fields.join(", "), from.join("; "))
            }
            Reason::Picture(why) => why.clone(),
        }
    }
}

/// Copies of a printed part to take out.
#[derive(Debug, Clone)]
pub struct TakeOut {
    pub name: String,
    pub copies: u32,
    pub why: String,
}

impl Reprint {
    /// What changed, on one line: `new`, `5 more copies`, or the reasons.
    pub fn summary(&self) -> String {
        match self.status {
            Status::New => "new".into(),
            Status::More { printed } => {
                format!("{} more copies ({printed} printed)", self.copies)
            }
            Status::Changed => {
                let why: Vec<String> = self.why.iter().map(Reason::text).collect();
                why.join("; ")
            }
        }
    }
}

impl SetChanges {
    /// Copies to print.
    pub fn printed(&self) -> u64 {
        self.print.iter().map(|p| u64::from(p.copies)).sum()
    }

    /// Copies to take out.
    pub fn taken_out(&self) -> u64 {
        self.take_out.iter().map(|t| u64::from(t.copies)).sum()
    }
}

impl Changes {
    /// Whether anything is to be printed or taken out.
    pub fn is_empty(&self) -> bool {
        self.sets
            .iter()
            .all(|s| s.print.is_empty() && s.take_out.is_empty())
    }

    /// The status and reasons of slot `slot` of component `component`, if it is
    /// to be printed.
    pub fn of(&self, component: usize, slot: usize) -> Option<&Reprint> {
        self.sets
            .iter()
            .find(|s| s.component == component)?
            .print
            .iter()
            .find(|p| p.slot == slot)
    }
}

/// A value as a designer reads it: text without quotes.
fn show(v: Option<&toml::Value>) -> String {
    match v {
        None => "(none)".into(),
        Some(toml::Value::String(s)) => s.clone(),
        Some(v) => inline(v),
    }
}

/// `field: old -> new` for each field whose value differs, own fields first.
fn field_changes(
    old: &toml::Table,
    new: &toml::Table,
    derived: &[&str],
) -> (Vec<String>, Vec<String>) {
    let names: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    let (mut own, mut der) = (Vec::new(), Vec::new());
    for k in names {
        let (a, b) = (old.get(k), new.get(k));
        if a.map(inline) == b.map(inline) {
            continue;
        }
        let line = format!("{k}: {} -> {}", show(a), show(b));
        if derived.contains(&k.as_str()) {
            der.push(line);
        } else {
            own.push(line);
        }
    }
    (own, der)
}

/// A row's fields as a record writes them (derived fields included).
fn fields_of(table: &Table, i: usize) -> toml::Table {
    table.rows.get(i).map(row_fields).unwrap_or_default()
}

/// Where row `i` of `table` is: `data/g/routes.toml:57`, or a workbook's sheet and
/// row.
fn place(project: &Project, table: &Table, i: usize) -> String {
    let file = table.file.to_string_lossy().replace('\\', "/");
    let Some(row) = table.rows.get(i) else {
        return file;
    };
    if let Some((sheet, _)) = &table.sheet {
        return match row.line {
            Some(l) => format!("{file}, sheet {sheet}, row {l}"),
            None => format!("{file}, sheet {sheet}"),
        };
    }
    match (project.source(&table.file), row.line) {
        (_, Some(l)) => format!("{file}:{l}"),
        (Some(text), None) => {
            let at = row.span.start.min(text.len());
            format!("{file}:{}", text[..at].matches('\n').count() + 1)
        }
        (None, None) => file,
    }
}

/// Every change to the data and templates since a record, for the reasons.
struct Inputs {
    /// `[rules]` values: (path, `[rules] fee.base: 700 -> 800`).
    rules: Vec<(String, String)>,
    /// Templates changed, added or removed.
    templates: BTreeSet<String>,
    /// Per table: the rows changed, added or removed, as text.
    rows: BTreeMap<String, Vec<String>>,
    /// Per table: each changed row (current index) and its changed fields.
    row_changes: BTreeMap<String, BTreeMap<usize, RowChange>>,
}

/// The fields of a row that changed: `field: old -> new`, its own and its derived.
#[derive(Debug, Default)]
struct RowChange {
    own: Vec<String>,
    derived: Vec<String>,
}

/// `[rules]` flattened to `path -> value`.
fn flatten(prefix: &str, t: &toml::Table, out: &mut BTreeMap<String, String>) {
    for (k, v) in t {
        let path = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            toml::Value::Table(inner) if !inner.is_empty() => flatten(&path, inner, out),
            _ => {
                out.insert(path, show(Some(v)));
            }
        }
    }
}

/// The derived fields of `table`.
fn derived_of<'g>(game: &'g Game, table: &str) -> Vec<&'g str> {
    game.derives
        .iter()
        .filter(|d| d.get_ref().table.get_ref() == table)
        .map(|d| d.get_ref().field.get_ref().as_str())
        .collect()
}

/// The `[rules]` values that changed: (path, `[rules] path: old -> new`).
fn rules_changes(then: &toml::Table, now: &toml::Table) -> Vec<(String, String)> {
    let (mut a, mut b) = (BTreeMap::new(), BTreeMap::new());
    flatten("", then, &mut a);
    flatten("", now, &mut b);
    let paths: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    let value = |m: &BTreeMap<String, String>, p: &str| {
        m.get(p).cloned().unwrap_or_else(|| "(none)".into())
    };
    paths
        .into_iter()
        .filter(|p| a.get(*p) != b.get(*p))
        .map(|p| {
            let line = format!("[rules] {p}: {} -> {}", value(&a, p), value(&b, p));
            (p.clone(), line)
        })
        .collect()
}

/// The templates whose text changed since the record, or that one of the two lacks.
fn template_changes(tpl: &Templates, record: &Record) -> BTreeSet<String> {
    let current: BTreeMap<String, String> = tpl
        .env
        .templates()
        .map(|(n, t)| (n.to_string(), super::hash::short(t.source())))
        .collect();
    let names: BTreeSet<&String> = current.keys().chain(record.templates.keys()).collect();
    names
        .into_iter()
        .filter(|n| current.get(*n) != record.templates.get(*n))
        .cloned()
        .collect()
}

/// The rows of table `name` that changed since the record (as lines of text), and
/// each changed row's fields.
fn row_changes(
    project: &Project,
    game: &Game,
    table: &Table,
    old: Option<&Vec<RowRecord>>,
    m: &Matcher,
) -> (Vec<String>, BTreeMap<usize, RowChange>) {
    let name = &table.name;
    let by_key: HashMap<&str, &RowRecord> = old
        .into_iter()
        .flatten()
        .map(|r| (r.key.as_str(), r))
        .collect();
    let derived = derived_of(game, name);
    let (mut lines, mut changes) = (Vec::new(), BTreeMap::new());
    let mut matched = BTreeSet::new();
    for i in 0..table.rows.len() {
        let what = format!("{name} {}", row_name(table, i));
        let at = place(project, table, i);
        let before = m
            .row(name, &row_key(table, i))
            .and_then(|k| by_key.get(k.as_str()));
        let Some(before) = before else {
            lines.push(format!("{what} added ({at})"));
            continue;
        };
        matched.insert(before.key.as_str());
        let (own, der) = field_changes(&before.fields, &fields_of(table, i), &derived);
        if !own.is_empty() {
            lines.push(format!("{what}: {} ({at})", own.join(", ")));
        }
        if !own.is_empty() || !der.is_empty() {
            changes.insert(i, RowChange { own, derived: der });
        }
    }
    for r in old.into_iter().flatten() {
        if !matched.contains(r.key.as_str()) {
            lines.push(format!(
                "{name} {} removed",
                describe(&r.key, &r.fields, &derived)
            ));
        }
    }
    (lines, changes)
}

impl Inputs {
    fn new(
        project: &Project,
        game: &Game,
        tpl: &Templates,
        record: &Record,
        m: &Matcher,
    ) -> Inputs {
        let mut rows = BTreeMap::new();
        let mut changes = BTreeMap::new();
        for (name, table) in &game.tables {
            let (lines, changed) = row_changes(project, game, table, record.tables.get(name), m);
            rows.insert(name.clone(), lines);
            changes.insert(name.clone(), changed);
        }
        Inputs {
            rules: rules_changes(&record.rules, &game.rules),
            templates: template_changes(tpl, record),
            rows,
            row_changes: changes,
        }
    }

    /// The changed `[rules]` values and rows among what `texts` (expressions or
    /// templates) refer to: `rules.x.y`, a table's name in quotes or `tables.x`.
    fn behind(&self, game: &Game, texts: &[&str]) -> Vec<String> {
        let mut out = Vec::new();
        for (path, line) in &self.rules {
            let used = texts.iter().any(|t| {
                rules_paths(t).iter().any(|r| {
                    path == r
                        || path.starts_with(&format!("{r}."))
                        || r.starts_with(&format!("{path}."))
                })
            });
            if used {
                out.push(line.clone());
            }
        }
        let network: Vec<&str> = game
            .network
            .as_ref()
            .filter(|_| texts.contains(&NETWORK))
            .map(|n| {
                vec![
                    n.get_ref().nodes.get_ref().as_str(),
                    n.get_ref().edges.get_ref().as_str(),
                ]
            })
            .unwrap_or_default();
        for (name, lines) in &self.rows {
            let named =
                network.contains(&name.as_str()) || texts.iter().any(|t| names_table(t, name));
            if lines.is_empty() || !named {
                continue;
            }
            out.extend(lines.iter().take(3).cloned());
            if lines.len() > 3 {
                out.push(format!("{} more rows of `{name}`", lines.len() - 3));
            }
        }
        out
    }
}

/// The `rules.a.b` paths `text` names.
fn rules_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("rules.") {
        let before = rest[..at].chars().next_back();
        let tail = &rest[at + "rules.".len()..];
        let end = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(tail.len());
        let path = tail[..end].trim_end_matches('.');
        if !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') && !path.is_empty() {
            out.push(path.to_string());
        }
        rest = &tail[end..];
    }
    out
}

/// Whether `text` names table `name`: `'name'`, `"name"` or `tables.name`.
fn names_table(text: &str, name: &str) -> bool {
    text.contains(&format!("'{name}'"))
        || text.contains(&format!("\"{name}\""))
        || text.contains(&format!("tables.{name}"))
}

/// The expressions a derived field of `table` is computed from: its own, those of
/// the fields it reads that are derived too, and the network's when it uses
/// `distance`.
fn derive_sources<'g>(game: &'g Game, table: &str, field: &str, out: &mut Vec<&'g str>) {
    let Some(d) = game
        .derives
        .iter()
        .map(|d| d.get_ref())
        .find(|d| d.table.get_ref() == table && d.field.get_ref() == field)
    else {
        return;
    };
    let expr = d.value.get_ref().as_str();
    if out.contains(&expr) {
        return;
    }
    out.push(expr);
    for other in derived_of(game, table) {
        if other != field && expr.contains(&format!("row.{other}")) {
            derive_sources(game, table, other, out);
        }
    }
    if let (true, Some(n)) = (expr.contains("distance("), &game.network) {
        let n = n.get_ref();
        out.push(NETWORK);
        out.extend(n.cost.as_ref().map(|c| c.get_ref().as_str()));
        out.extend(n.trip.as_ref().map(|c| c.get_ref().as_str()));
    }
}

/// Stands for the network's tables among the texts of [`derive_sources`].
const NETWORK: &str = "distance()";

/// The texts a set's faces are drawn from: its templates' sources.
fn set_texts(game: &Game, tpl: &Templates, comp: &Component) -> Vec<String> {
    [&comp.def.front, &comp.def.back, &comp.def.layer]
        .into_iter()
        .flatten()
        .filter_map(|r| tpl.resolve(&game.id, r.get_ref()).ok())
        .filter_map(|name| {
            tpl.env
                .get_template(&name)
                .ok()
                .map(|t| t.source().to_string())
        })
        .collect()
}

/// Why a part whose face changed did: its data, else what it draws.
fn reasons(cx: &Context, comp: &Component, part: &CurrentPart) -> Vec<Reason> {
    let game = cx.game;
    let table = table_of(game, comp);
    let change = table.zip(part.row).and_then(|(t, i)| {
        cx.inputs
            .row_changes
            .get(&t.name)?
            .get(&i)
            .map(|c| (t, i, c))
    });
    match change {
        Some((table, i, c)) if !c.own.is_empty() => {
            let mut fields = c.own.clone();
            fields.extend(c.derived.iter().cloned());
            vec![Reason::Data {
                place: place(cx.project, table, i),
                fields,
            }]
        }
        Some((table, _, c)) if !c.derived.is_empty() => {
            let mut from = Vec::new();
            for line in &c.derived {
                let field = line.split(':').next().unwrap_or("");
                let mut exprs = Vec::new();
                derive_sources(game, &table.name, field, &mut exprs);
                for b in cx.inputs.behind(game, &exprs) {
                    if !from.contains(&b) {
                        from.push(b);
                    }
                }
            }
            vec![Reason::Derived {
                fields: c.derived.clone(),
                from,
            }]
        }
        _ => vec![Reason::Picture(picture_reason(cx, comp))],
    }
}

/// Why a set's faces draw something else although their data did not change.
fn picture_reason(cx: &Context, comp: &Component) -> String {
    let (game, tpl) = (cx.game, cx.tpl);
    let own: Vec<String> = [&comp.def.front, &comp.def.back, &comp.def.layer]
        .into_iter()
        .flatten()
        .filter_map(|r| tpl.resolve(&game.id, r.get_ref()).ok())
        .filter(|n| cx.inputs.templates.contains(n))
        .collect();
    if !own.is_empty() {
        let names: Vec<String> = own.iter().map(|n| format!("`{n}`")).collect();
        let s = if own.len() > 1 { "s" } else { "" };
        return format!("template{s} {} changed", names.join(" and "));
    }
    let texts = set_texts(game, tpl, comp);
    let behind = cx
        .inputs
        .behind(game, &texts.iter().map(String::as_str).collect::<Vec<_>>());
    if !behind.is_empty() {
        return format!("it shows {}", behind.join("; "));
    }
    if !cx.inputs.templates.is_empty() {
        let names: Vec<String> = cx
            .inputs
            .templates
            .iter()
            .take(3)
            .map(|n| format!("`{n}`"))
            .collect();
        return format!("a template it may use changed: {}", names.join(", "));
    }
    "its picture changed (an image or font it uses, or the cardstock version)".into()
}

/// What the reasons are worked out from.
struct Context<'a> {
    project: &'a Project,
    game: &'a Game,
    tpl: &'a Templates,
    inputs: Inputs,
}

/// Compares the parts a build prints (`current`) with `record`. A record naming a
/// set the game does not have is an error at its line.
pub fn compare(
    project: &Project,
    game: &Game,
    tpl: &Templates,
    current: &Current,
    record: &Record,
) -> Result<Changes, Diagnostic> {
    if let Some(s) = record.sets.iter().find(|s| game.component(&s.id).is_none()) {
        return Err(Diagnostic::error(format!(
            "print record {} has the component set `{}`, which the game does not have",
            record.number, s.id
        ))
        .at(&record.file, Some(s.span.clone()))
        .with("game", &game.id)
        .hint(format!(
            "a set renamed or removed since the print cannot be compared: put its id back in {}, or record the game as printed now with `cardstock printed {}`",
            game.file.display(),
            game.id
        )));
    }
    let matcher = Matcher::new(game, record);
    let cx = Context {
        project,
        game,
        tpl,
        inputs: Inputs::new(project, game, tpl, record, &matcher),
    };
    let sets = current
        .sets
        .iter()
        .map(|set| {
            let comp = &game.components[set.component];
            let old = record.sets.iter().find(|s| s.id == comp.id());
            compare_set(&cx, &matcher, comp, set, old.map(|o| &o.parts[..]), record)
                .with_component(set.component)
        })
        .collect();
    Ok(Changes {
        number: record.number,
        date: record.date.clone(),
        note: record.note.clone(),
        file: record.file.clone(),
        sets,
    })
}

impl SetChanges {
    fn with_component(mut self, component: usize) -> SetChanges {
        self.component = component;
        self
    }
}

/// The changes of one set against its parts in the record (`None`: not printed).
fn compare_set(
    cx: &Context,
    matcher: &Matcher,
    comp: &Component,
    set: &super::current::CurrentSet,
    old: Option<&[PartRecord]>,
    record: &Record,
) -> SetChanges {
    let table = table_of(cx.game, comp);
    let by_key: HashMap<&str, &PartRecord> = old
        .unwrap_or_default()
        .iter()
        .map(|p| (p.key.as_str(), p))
        .collect();
    let mut out = SetChanges {
        component: 0,
        id: comp.id().to_string(),
        name: comp.name(),
        copies: set.parts.iter().map(|p| u64::from(p.qty)).sum(),
        in_record: old.is_some(),
        by_place: table.is_some_and(numbered) && comp.art.is_empty(),
        print: Vec::new(),
        take_out: Vec::new(),
    };
    let mut matched = BTreeSet::new();
    for part in &set.parts {
        let before = matcher
            .part(table.map(|t| t.name.as_str()), &part.key)
            .and_then(|k| by_key.get(k.as_str()).copied());
        let reprint = |copies, status, why| Reprint {
            slot: part.slot,
            copies,
            name: part.name.clone(),
            revision: part.revision,
            status,
            back: before.is_none_or(|b| status != Status::Changed || b.back != part.back),
            why,
        };
        let Some(before) = before else {
            out.print.push(reprint(part.qty, Status::New, Vec::new()));
            continue;
        };
        matched.insert(before.key.as_str());
        if before.front != part.front || before.back != part.back {
            out.print
                .push(reprint(part.qty, Status::Changed, reasons(cx, comp, part)));
            if before.qty > part.qty {
                out.take_out.push(TakeOut {
                    name: part.name.clone(),
                    copies: before.qty - part.qty,
                    why: format!("copies: {} -> {}", before.qty, part.qty),
                });
            }
        } else if part.qty > before.qty {
            out.print.push(reprint(
                part.qty - before.qty,
                Status::More {
                    printed: before.qty,
                },
                Vec::new(),
            ));
        } else if part.qty < before.qty {
            out.take_out.push(TakeOut {
                name: part.name.clone(),
                copies: before.qty - part.qty,
                why: format!("copies: {} -> {}", before.qty, part.qty),
            });
        }
    }
    out.take_out.extend(removed(
        cx,
        table,
        record,
        old.unwrap_or_default(),
        &matched,
    ));
    out
}

/// The parts of the record's `old` set that no part of the game matched
/// (`matched`): to take out, each named from its row in the record.
fn removed(
    cx: &Context,
    table: Option<&Table>,
    record: &Record,
    old: &[PartRecord],
    matched: &BTreeSet<&str>,
) -> Vec<TakeOut> {
    let mut taken = Vec::new();
    let rows = table.and_then(|t| Some((t, record.tables.get(&t.name)?)));
    for p in old {
        if !matched.contains(p.key.as_str()) {
            let name = rows
                .and_then(|(t, rows)| {
                    let row = row_of(rows, &p.key)?;
                    let rest = &p.key[row.key.len()..];
                    let derived = derived_of(cx.game, &t.name);
                    let rest = rest
                        .replacen('/', " · ", 1)
                        .replacen(" copy ", " · copy ", 1);
                    Some(describe(&row.key, &row.fields, &derived) + &rest)
                })
                .unwrap_or_else(|| p.key.clone());
            taken.push(TakeOut {
                name,
                copies: p.qty,
                why: "no longer in the game".into(),
            });
        }
    }
    taken
}
