//! Evaluating data expressions: the network's edge costs, `[[derive]]` fields, and
//! the context every template and expression sees.

use std::collections::BTreeMap;
use std::sync::Arc;

use minijinja::Value;

use crate::diag::{Diagnostic, Reported};
use crate::model::{DeriveDef, Game, Row, Spanned, Table};
use crate::network::Network;
use crate::template::Templates;

/// The run settings templates and expressions see as `settings`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// The paper's name (`letter`, `a4`).
    pub paper: &'static str,
    /// `--copies N`, if given.
    pub copies: Option<u32>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            paper: "letter",
            copies: None,
        }
    }
}

/// The variables every template and expression of a game sees.
pub type Context = BTreeMap<String, Value>;

/// The context shared by every template and expression of a game: `game` (its
/// `[game]` table plus `id`), `rules`, `tables`, `components` and `settings`, and
/// the game's `network` for `distance()` once it is built (a game without one, or
/// the network's own cost expressions, see none).
pub fn base_context(game: &Game, network: Option<&Arc<Network>>, settings: &Settings) -> Context {
    context_with(game, network, settings, &table_rows(game))
}

/// Every table's rows as template values ([`row_value`]), by table name: made
/// once a build, for the network's costs and the `[[derive]]`s; a derive adds
/// its field to the rows of its table ([`with_derived`]).
pub type TableRows = BTreeMap<String, Vec<Value>>;

/// Every table's rows of `game` as template values.
pub fn table_rows(game: &Game) -> TableRows {
    game.tables
        .iter()
        .map(|(name, t)| (name.clone(), t.rows.iter().map(row_value).collect()))
        .collect()
}

/// [`base_context`] with the tables' rows already made.
fn context_with(
    game: &Game,
    network: Option<&Arc<Network>>,
    settings: &Settings,
    rows: &TableRows,
) -> Context {
    let mut meta: BTreeMap<String, Value> = BTreeMap::new();
    meta.insert("id".into(), Value::from(game.id.clone()));
    meta.insert("name".into(), Value::from(game.meta.name.clone()));
    meta.insert(
        "players".into(),
        crate::template::to_value(&game.meta.players),
    );
    if let Some(v) = &game.meta.version {
        meta.insert("version".into(), Value::from(v.clone()));
    }
    if let Some(c) = &game.meta.credits {
        meta.insert("credits".into(), Value::from(c.clone()));
    }
    // How the `money` filter writes amounts.
    let m = &game.meta;
    for (key, value) in [
        ("currency", m.currency.clone()),
        (
            "currency_position",
            m.currency_position.map(|p| p.name().to_string()),
        ),
        ("thousands_separator", m.thousands_separator.clone()),
        ("decimal_separator", m.decimal_separator.clone()),
    ] {
        if let Some(v) = value {
            meta.insert(key.into(), Value::from(v));
        }
    }
    let run = SettingsValue {
        settings: *settings,
        copies_read: std::sync::atomic::AtomicBool::new(false),
    };
    let mut ctx = BTreeMap::new();
    ctx.insert("game".into(), Value::from(meta));
    ctx.insert("rules".into(), crate::template::to_value(&game.rules));
    let (tables, index) = tables_value(rows);
    ctx.insert("tables".into(), tables);
    ctx.insert(crate::index::INDEX.into(), index);
    ctx.insert("settings".into(), Value::from_object(run));
    ctx.insert("components".into(), components_value(game));
    if let Some(n) = network {
        ctx.insert(
            crate::template::NETWORK.into(),
            crate::template::network_value(n.clone()),
        );
    }
    ctx
}

/// `settings` as templates and expressions see it (`paper`, `copies`), noting
/// whether anything read `copies`.
#[derive(Debug)]
struct SettingsValue {
    settings: Settings,
    copies_read: std::sync::atomic::AtomicBool,
}

impl minijinja::value::Object for SettingsValue {
    fn get_value(self: &std::sync::Arc<Self>, key: &Value) -> Option<Value> {
        match key.as_str()? {
            "paper" => Some(Value::from(self.settings.paper)),
            "copies" => {
                self.copies_read
                    .store(true, std::sync::atomic::Ordering::Relaxed);
                Some(
                    self.settings
                        .copies
                        .map(Value::from)
                        .unwrap_or(Value::from(())),
                )
            }
            _ => None,
        }
    }

    fn enumerate(self: &std::sync::Arc<Self>) -> minijinja::value::Enumerator {
        minijinja::value::Enumerator::Str(&["paper", "copies"])
    }
}

/// A warning when `--copies` was given and nothing of the game read
/// `settings.copies` (through `base`, the context its faces were planned, checked
/// and rendered with; or in a `[[derive]]`): the option changed nothing.
pub fn unused_copies(game: &Game, base: &Context, settings: &Settings) -> Reported<()> {
    Reported::new((), copies_unread(game, base, settings))
}

/// The warning of [`unused_copies`], if it applies.
fn copies_unread(game: &Game, base: &Context, settings: &Settings) -> Option<Diagnostic> {
    let n = settings.copies?;
    let read = base
        .get("settings")
        .and_then(|v| v.downcast_object_ref::<SettingsValue>())
        .is_some_and(|s| s.copies_read.load(std::sync::atomic::Ordering::Relaxed));
    let in_derive = game
        .derives
        .iter()
        .any(|d| d.get_ref().value.get_ref().contains("settings"));
    if read || in_derive {
        return None;
    }
    Some(
        Diagnostic::warning(format!(
            "--copies {n} changes nothing: no part of `{}` uses `settings.copies`",
            game.id
        ))
        .at(&game.file, None)
        .with("game", &game.id)
        .hint("--copies is for parts that print a number of sheets, e.g. `repeat = \"settings.copies or 10\"` on a score pad; leave it out for this game"),
    )
}

/// Row `i` of table `table` as a template value, as [`row_value`] makes it of
/// `row`: the value `base`'s table index holds (made once a build from the same
/// rows, [`table_rows`]), or made from `row` when the index has no such row.
pub fn row_value_in(base: &Context, table: &str, i: usize, row: &Row) -> Value {
    base.get(crate::index::INDEX)
        .and_then(|v| v.downcast_object_ref::<crate::index::TableIndex>())
        .and_then(|index| index.row(table, i))
        .unwrap_or_else(|| row_value(row))
}

/// The value [`row_value`] makes of `row`, whose derived field `field` was just
/// set, made from `before` (the row's value without it) without converting its
/// other fields again.
fn with_derived(before: &Value, row: &Row, field: &str) -> Value {
    match (
        before.downcast_object_ref::<BTreeMap<Arc<str>, Value>>(),
        row.derived.get(field),
    ) {
        (Some(map), Some(v)) => {
            let mut map = map.clone();
            map.insert(Arc::from(field), crate::template::to_value(v));
            Value::from(map)
        }
        _ => row_value(row),
    }
}

/// A row as a template value: its fields and derived fields.
pub fn row_value(row: &Row) -> Value {
    let mut map: BTreeMap<&str, Value> = row
        .fields
        .iter()
        .map(|(k, f)| (k.as_str(), crate::template::to_value(&f.value)))
        .collect();
    for (k, v) in &row.derived {
        map.insert(k.as_str(), crate::template::to_value(v));
    }
    Value::from(map)
}

/// All tables as one value (`tables.city` is the list of city rows), and the
/// index of their rows for `lookup()` and `select()`.
fn tables_value(rows: &TableRows) -> (Value, Value) {
    let index = crate::index::TableIndex::new(rows.iter().map(|(n, r)| (n.as_str(), r.as_slice())));
    let map: BTreeMap<&str, Value> = rows
        .iter()
        .map(|(name, rows)| (name.as_str(), Value::from(rows.clone())))
        .collect();
    (Value::from(map), index.into_value())
}

/// `components.<id>`: each component set's printed size in mm (`width`, `height`,
/// `bleed`), `kind` and `panels` (a screen's; 1 for flat parts), so data can check that pieces fit the spaces drawn for them
/// (`components.cabs.width <= rules.board.space_length`).
fn components_value(game: &Game) -> Value {
    let map: BTreeMap<&str, Value> = game
        .components
        .iter()
        .map(|c| {
            let mut m: BTreeMap<&str, Value> = BTreeMap::new();
            m.insert("width", Value::from(c.size.width));
            m.insert("height", Value::from(c.size.height));
            m.insert("bleed", Value::from(c.bleed));
            m.insert("kind", Value::from(c.kind.name()));
            m.insert("panels", Value::from(c.panels));
            (c.id(), Value::from(m))
        })
        .collect();
    Value::from(map)
}

/// Evaluates one expression written in `game.toml` against `ctx`.
pub fn eval(
    tpl: &Templates,
    game: &Game,
    expr: &Spanned<String>,
    ctx: &BTreeMap<String, Value>,
) -> Result<Value, Diagnostic> {
    eval_compiled(tpl, game, (expr, None), ctx)
}

/// An expression of `game.toml` compiled once, for [`eval_compiled`] to evaluate
/// against many contexts (a `[[derive]]` or an `[[assert]]` over every row);
/// `None` when it does not compile (each evaluation then reports why, as
/// [`eval`] does).
pub fn compile<'t>(tpl: &'t Templates, expr: &Spanned<String>) -> Option<Compiled<'t>> {
    tpl.env
        .compile_expression_owned(expr.get_ref().clone())
        .ok()
}

/// An expression compiled by [`compile`].
pub type Compiled<'t> = minijinja::Expression<'t, 'static>;

/// What an expression or a check's template is evaluated in: a whole context,
/// or a context shared by every row of a table (or list) with one row as `row`
/// ([`RowScope`]), which is not copied for each row.
#[derive(Clone, Copy)]
pub enum Scope<'a> {
    /// A context of its own.
    Whole(&'a Context),
    /// One row over a shared context.
    Row(&'a Arc<RowScope>),
}

impl<'a> From<&'a Context> for Scope<'a> {
    fn from(ctx: &'a Context) -> Self {
        Scope::Whole(ctx)
    }
}

impl<'a> From<&'a Arc<RowScope>> for Scope<'a> {
    fn from(row: &'a Arc<RowScope>) -> Self {
        Scope::Row(row)
    }
}

impl<'a> Scope<'a> {
    /// The scope as the root value of a render or an evaluation: the same
    /// names with the same values.
    pub fn value(self) -> Value {
        match self {
            Scope::Whole(ctx) => Value::from(ctx.clone()),
            Scope::Row(row) => Value::from_dyn_object(row.clone()),
        }
    }

    /// The scope as one context, to explain a problem with (a row's is made
    /// then: `base` with `row` inserted).
    pub fn context(self) -> std::borrow::Cow<'a, Context> {
        match self {
            Scope::Whole(ctx) => std::borrow::Cow::Borrowed(ctx),
            Scope::Row(row) => std::borrow::Cow::Owned(row.context()),
        }
    }
}

/// The context of one row's check or formula: `base` (shared by all the rows,
/// made once) with the row as `row`. As a template's root it answers every
/// name as `base` with `row` inserted would, without copying `base`.
#[derive(Debug)]
pub struct RowScope {
    base: Arc<Context>,
    row: Value,
}

/// The name a row's value has in its scope.
const ROW: &str = "row";

impl RowScope {
    /// `row` over `base`.
    pub fn new(base: &Arc<Context>, row: Value) -> Arc<RowScope> {
        Arc::new(RowScope {
            base: base.clone(),
            row,
        })
    }

    /// The scope as one context: `base` with `row` inserted.
    pub fn context(&self) -> Context {
        let mut ctx = (*self.base).clone();
        ctx.insert(ROW.into(), self.row.clone());
        ctx
    }
}

impl minijinja::value::Object for RowScope {
    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        self.get_value_by_str(key.as_str()?)
    }

    fn get_value_by_str(self: &Arc<Self>, key: &str) -> Option<Value> {
        match key {
            ROW => Some(self.row.clone()),
            _ => self.base.get(key).cloned(),
        }
    }

    fn enumerate(self: &Arc<Self>) -> minijinja::value::Enumerator {
        let keys = self.base.keys().map(String::as_str);
        let mut keys: Vec<&str> = keys.chain([ROW]).collect();
        keys.sort_unstable();
        keys.dedup();
        minijinja::value::Enumerator::Values(keys.into_iter().map(Value::from).collect())
    }

    fn enumerator_len(self: &Arc<Self>) -> Option<usize> {
        Some(self.base.len() + usize::from(!self.base.contains_key(ROW)))
    }
}

/// [`eval`] of `expr`, with its compiled form if [`compile`] made it, in `scope`
/// (a context, or a row over a shared one): the same value and the same
/// problems, without compiling it again.
pub fn eval_compiled<'s>(
    tpl: &Templates,
    game: &Game,
    (expr, compiled): (&Spanned<String>, Option<&Compiled>),
    scope: impl Into<Scope<'s>>,
) -> Result<Value, Diagnostic> {
    let scope = scope.into();
    let source = expr.get_ref().as_str();
    // The whole context, for the problems only (a row's is made then).
    let whole = std::cell::OnceCell::new();
    let whole = || -> &Context { whole.get_or_init(|| scope.context()) };
    let known = || crate::template::errors::Known {
        env: Some(&tpl.env),
        ctx: Some(whole()),
    };
    let problem = |e: minijinja::Error| {
        let x = crate::template::errors::explain(&e, source, known(), true);
        let mut d = Diagnostic::error(x.message)
            .at(&game.file, Some(sub_span(expr, x.span)))
            .with("game", &game.id)
            .hint(x.hint);
        if let Some(h) = x
            .missing
            .and_then(|m| crate::template::captured_hint(&game.file, &game.text, &m))
        {
            d = d.hint(h);
        }
        d
    };
    let fresh;
    let compiled = match compiled {
        Some(c) => c,
        None => {
            fresh = tpl.env.compile_expression(source).map_err(problem)?;
            &fresh
        }
    };
    let value = compiled.eval(scope.value()).map_err(problem)?;
    if !value.is_undefined() {
        return Ok(value);
    }
    // No value at all: a name the data does not have (`rules.clue_token`), which
    // minijinja lets through when nothing is done with it.
    let names = compiled.undeclared_variables(true);
    let Some((name, at)) = crate::template::errors::first_undefined(source, names, whole()) else {
        return Err(
            Diagnostic::error(format!("the expression `{source}` gives no value"))
                .at(&game.file, Some(expr.span()))
                .with("game", &game.id)
                .hint("check the names it uses against the data"),
        );
    };
    let x = crate::template::errors::missing(&name, at, known(), true);
    let mut d = Diagnostic::error(x.message)
        .at(&game.file, Some(sub_span(expr, x.span)))
        .with("game", &game.id)
        .hint(x.hint);
    if let Some(h) = crate::template::captured_hint(&game.file, &game.text, &name) {
        d = d.hint(h);
    }
    Err(d)
}

/// The span in `game.toml` of `part` of an expression (a byte range of its text):
/// inside the quotes of a plain one-line string, else the whole value.
pub(crate) fn sub_span(
    expr: &Spanned<String>,
    part: Option<std::ops::Range<usize>>,
) -> std::ops::Range<usize> {
    let whole = expr.span();
    let Some(part) = part else { return whole };
    // `"..."` with no escapes: the text starts one byte after the span.
    let plain =
        whole.len() == expr.get_ref().len() + 2 && !expr.get_ref().contains(['\\', '"', '\n']);
    if plain && part.end <= expr.get_ref().len() {
        whole.start + 1 + part.start..whole.start + 1 + part.end
    } else {
        whole
    }
}

/// Builds the game's `[network]` (none without one, or when its tables or edges
/// have errors), with its problems.
pub fn build_network(
    game: &Game,
    tpl: &Templates,
    settings: &Settings,
    rows: &TableRows,
) -> Reported<Option<Network>> {
    let Some(net) = game.network.as_ref().filter(|_| !game.unparsed_data) else {
        return None.into();
    };
    let mut diags = Vec::new();
    let Some((nodes, edges)) = network_tables(game, net).into_value(&mut diags) else {
        return Reported::new(None, diags);
    };
    let def = net.get_ref();
    let mut network = Network::new(nodes.rows.iter().filter_map(|r| r.id().map(String::from)));
    let reader = EdgeReader {
        game,
        tpl,
        nodes,
        edges,
        edge_rows: rows
            .get(def.edges.get_ref())
            .map(Vec::as_slice)
            .unwrap_or_default(),
        base: Arc::new(context_with(game, None, settings, rows)),
    };
    // The cost expression, compiled once for every edge.
    let cost = def.cost.as_ref().and_then(|e| compile(tpl, e));
    for (i, row) in edges.rows.iter().enumerate() {
        let label = row.label(i);
        let end = |field: &str| reader.end(&network, row, &label, field);
        let (a, b) = match (end(&def.from), end(&def.to)) {
            (Ok(a), Ok(b)) => (a, b),
            (ra, rb) => {
                diags.extend(
                    ra.err()
                        .into_iter()
                        .chain(rb.err())
                        .map(|d| d.with("game", &game.id)),
                );
                continue;
            }
        };
        match def.cost.as_ref().map_or(Ok(1.0), |e| {
            reader.cost((i, row), &label, (e, cost.as_ref()))
        }) {
            Ok(cost) => {
                network.add_edge(&a, &b, cost);
            }
            Err(d) => diags.push(d),
        }
    }
    if let Some(expr) = &def.trip {
        match trip_cost(tpl, game, expr, &reader.base) {
            Ok(c) => network.set_trip_cost(c),
            Err(d) => diags.push(d),
        }
    }
    diags.extend(disconnected(game, &network, edges));
    Reported::new(Some(network), crate::diag::once_for_rows(diags))
}

/// The `[network]`'s node and edge tables, or none when a table is missing or the
/// edges lack their `from` or `to` field (one error for the table, not one per
/// edge).
fn network_tables<'g>(
    game: &'g Game,
    net: &Spanned<crate::model::NetworkDef>,
) -> Reported<Option<(&'g Table, &'g Table)>> {
    let def = net.get_ref();
    let (Some(nodes), Some(edges)) = (
        game.tables.get(def.nodes.get_ref()),
        game.tables.get(def.edges.get_ref()),
    ) else {
        let diags = [&def.nodes, &def.edges]
            .into_iter()
            .filter(|t| !game.tables.contains_key(t.get_ref()))
            .map(|t| game.unknown_table("[network] names", t.get_ref(), t.span()));
        return Reported::new(None, diags.collect::<Vec<_>>());
    };
    let lacking: Vec<Diagnostic> = [&def.from, &def.to]
        .into_iter()
        .filter_map(|f| edges.lacks(f, "[network]"))
        .map(|d| match &edges.header {
            Some(_) => d.with("game", &game.id),
            None => d.at(&game.file, Some(net.span())).with("game", &game.id),
        })
        .collect();
    if !lacking.is_empty() {
        return Reported::new(None, lacking);
    }
    Some((nodes, edges)).into()
}

/// Reads the `[network]`'s edges: their ends and costs.
struct EdgeReader<'a> {
    game: &'a Game,
    tpl: &'a Templates,
    nodes: &'a Table,
    edges: &'a Table,
    /// The edges' rows as template values ([`table_rows`]).
    edge_rows: &'a [Value],
    /// The context of the cost expressions (no network yet).
    base: Arc<Context>,
}

impl EdgeReader<'_> {
    /// The node at field `field` of edge `row` (its `label`), which must be an id
    /// of a node already in `network`.
    fn end(
        &self,
        network: &Network,
        row: &Row,
        label: &str,
        field: &str,
    ) -> Result<String, Diagnostic> {
        let (nodes, edges) = (self.nodes, self.edges);
        let Some(f) = row.fields.get(field) else {
            let d = Diagnostic::error(format!("{} {label} has no `{field}` field", edges.name));
            return Err(edges
                .at(d, row, None, false)
                .hint(format!("add `{field} = \"<{} id>\"`", nodes.name)));
        };
        let Some(s) = f.value.as_str() else {
            let d = Diagnostic::error(format!(
                "{} {label}: `{field}` must be a string id",
                edges.name
            ));
            return Err(edges.at(d, row, Some(f), false));
        };
        if network.has(s) {
            return Ok(s.to_string());
        }
        let d = Diagnostic::error(format!(
            "{} {label}: `{field} = \"{s}\"` is not a `{}` id",
            edges.name, nodes.name
        ));
        let hint = match crate::diag::did_you_mean(s, nodes.rows.iter().filter_map(|r| r.id())) {
            Some(m) => format!("did you mean `{m}`?"),
            None => format!("use the id of a row in table `{}`", nodes.name),
        };
        Err(edges.at(d, row, Some(f), false).hint(hint))
    }

    /// The cost of edge `row` (its `label`) by the `[network] cost` expression:
    /// a number, 0 or more.
    fn cost(
        &self,
        (i, row): (usize, &Row),
        label: &str,
        (expr, compiled): (&Spanned<String>, Option<&Compiled>),
    ) -> Result<f64, Diagnostic> {
        let (game, edges) = (self.game, self.edges);
        let value = self.edge_rows.get(i).cloned();
        let scope = RowScope::new(&self.base, value.unwrap_or_else(|| row_value(row)));
        let value = eval_compiled(self.tpl, game, (expr, compiled), &scope)
            .map_err(|d| d.with("row", format!("{} {label}", edges.name)))?;
        match f64::try_from(value.clone()) {
            Ok(c) if c >= 0.0 && c.is_finite() => Ok(c),
            Ok(c) => {
                let d =
                    Diagnostic::error(format!("{} {label}: edge cost {c} is negative", edges.name));
                Err(edges.at(d, row, None, false).with("game", &game.id))
            }
            Err(_) => Err(Diagnostic::error(format!(
                "[network] cost gives `{value}` for {} {label}, not a number",
                edges.name
            ))
            .at(&game.file, Some(expr.span()))
            .with("game", &game.id)),
        }
    }
}

/// The `[network] trip` cost, added once to every trip: a number, 0 or more.
fn trip_cost(
    tpl: &Templates,
    game: &Game,
    expr: &Spanned<String>,
    base: &Context,
) -> Result<f64, Diagnostic> {
    let value = eval(tpl, game, expr, base)?;
    let problem = |message: String, hint: &str| {
        Diagnostic::error(message)
            .at(&game.file, Some(expr.span()))
            .with("game", &game.id)
            .hint(hint)
    };
    match f64::try_from(value.clone()) {
        Ok(c) if c >= 0.0 && c.is_finite() => Ok(c),
        Ok(c) => Err(problem(
            format!("[network] trip cost {c} is negative"),
            "the trip cost is added once to every trip: 0 or more",
        )),
        Err(_) => Err(problem(
            format!("[network] trip gives `{value}`, not a number"),
            "write a number or an expression over rules, e.g. trip = \"1\"",
        )),
    }
}

/// An error when the network falls into separate parts, naming them.
fn disconnected(game: &Game, network: &Network, edges: &Table) -> Option<Diagnostic> {
    let groups = network.components();
    if groups.len() <= 1 {
        return None;
    }
    let list: Vec<String> = groups.iter().map(|g| g.join(", ")).collect();
    Some(
        Diagnostic::error(format!(
            "the network is not connected: {} separate parts",
            groups.len()
        ))
        .at(&edges.file, None)
        .with("game", &game.id)
        .hint(format!(
            "add {} rows joining these groups: [{}]",
            edges.name,
            list.join("] [")
        )),
    )
}

/// `[[derive]]` values kept between builds (the live preview's
/// `check::DeriveCache`), asked for one row at a time.
pub(crate) trait KeptDerives {
    /// A derive starts over the rows of its table: what its rows read is
    /// fingerprinted anew (in the context of this derive, which has the
    /// fields of the derives before it).
    fn begin(&self);

    /// The value of `def` for `row` in `base` ([`apply_derives`]'s context):
    /// the kept one when nothing it read changed, else `eval`'s (run on
    /// `ctx()`, noting what it reads; run again plainly when it fails, so its
    /// problems are a plain run's).
    fn value(
        &self,
        sources: (&Game, &Templates, &Context),
        row: (&DeriveDef, &Row),
        ctx: &dyn Fn() -> Context,
        eval: &dyn Fn(&Context) -> Result<toml::Value, Diagnostic>,
    ) -> Result<toml::Value, Diagnostic>;
}

/// Computes every `[[derive]]` field, in order, for every row of its table (with
/// `distance()` over `network`, if the game has one): the game with its derived
/// fields and its [`base_context`] (made from the row values the derives made),
/// and the problems (a failed derive stops the later ones, which may use its
/// field). With `kept` (the live preview), a row whose inputs did not change
/// takes its value from the build before.
pub(crate) fn apply_derives(
    mut game: Game,
    network: Option<&Arc<Network>>,
    (tpl, settings): (&Templates, &Settings),
    mut rows: TableRows,
    kept: Option<&dyn KeptDerives>,
) -> Reported<(Game, Context)> {
    let mut diags = Vec::new();
    let derives = game.derives.clone();
    for d in &derives {
        let def = d.get_ref();
        let tname = def.table.get_ref();
        let Some(table) = game.tables.get(tname) else {
            diags.push(game.unknown_table("[[derive]] names", tname, def.table.span()));
            continue;
        };
        let field = def.field.get_ref().clone();
        if let Some(row) = table.rows.iter().find(|r| r.fields.contains_key(&field)) {
            let d = Diagnostic::error(format!(
                "`{field}` is computed by [[derive]], so the data must not set it"
            ));
            diags.push(
                table
                    .at(d, row, Some(&row.fields[&field]), true)
                    .with("game", &game.id)
                    .hint(format!(
                        "remove `{field}` from the rows: it comes from the formula in game.toml"
                    )),
            );
            continue;
        }
        let base = Arc::new(context_with(&game, network, settings, &rows));
        let compiled = compile(tpl, &def.value);
        let mut values = Vec::new();
        let mut failed = false;
        let row_values = rows.get(tname).map(Vec::as_slice).unwrap_or_default();
        if let Some(k) = kept {
            k.begin();
        }
        for ((i, row), value) in table.rows.iter().enumerate().zip(row_values) {
            let ctx = || RowScope::new(&base, value.clone()).context();
            let eval_row = |scope: Scope| {
                eval_compiled(tpl, &game, (&def.value, compiled.as_ref()), scope).and_then(|v| {
                    toml::Value::try_from(&v).map_err(|_| {
                        Diagnostic::error(format!(
                            "[[derive]] `{field}` gives `{v}`, which is not a value a row can hold"
                        ))
                        .at(&game.file, Some(def.value.span()))
                        .with("game", &game.id)
                        .hint("the formula must give a number, text, true/false, a list or a table")
                    })
                })
            };
            let value = match kept {
                Some(k) => {
                    let eval = |ctx: &Context| eval_row(Scope::Whole(ctx));
                    k.value((&game, tpl, &base), (def, row), &ctx, &eval)
                }
                None => eval_row(Scope::Row(&RowScope::new(&base, value.clone()))),
            };
            match value {
                Ok(v) => values.push(v),
                Err(e) => {
                    diags.push(
                        e.with("row", format!("{tname} {}", row.label(i)))
                            .with("field", field.clone()),
                    );
                    failed = true;
                    break;
                }
            }
        }
        if failed {
            // Later derives may use this field: stop here rather than cascade.
            break;
        }
        if let (Some(table), Some(before)) = (game.tables.get_mut(tname), rows.get_mut(tname)) {
            for ((row, v), value) in table.rows.iter_mut().zip(values).zip(before.iter_mut()) {
                row.derived.insert(field.clone(), v);
                *value = with_derived(value, row, &field);
            }
        }
    }
    let base = context_with(&game, network, settings, &rows);
    Reported::new((game, base), diags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Field;
    use crate::render::recorded::Digester;

    fn field(value: toml::Value) -> Field {
        Field {
            key_span: 0..0,
            span: 0..0,
            value,
            column: None,
        }
    }

    fn print(v: &Value) -> crate::render::recorded::Print {
        let mut d = Digester::default();
        d.value(v);
        d.print()
    }

    /// A row's scope answers every name as its context with the row inserted
    /// does (also over a base that has a `row` of its own), and lists the same
    /// names.
    #[test]
    fn a_row_scope_answers_as_the_context_with_the_row_inserted() {
        let env = minijinja::Environment::new();
        let rules = BTreeMap::from([("a", Value::from(2)), ("b", Value::from("x"))]);
        let row = BTreeMap::from([("x", Value::from(7)), ("id", Value::from("r7"))]);
        for old_row in [None, Some(Value::from("old"))] {
            let mut base = Context::new();
            base.insert("rules".into(), Value::from(rules.clone()));
            base.insert("zeta".into(), Value::from(vec![1, 2, 3]));
            if let Some(v) = old_row.clone() {
                base.insert("row".into(), v);
            }
            let scope = RowScope::new(&Arc::new(base), Value::from(row.clone()));
            let whole = Value::from(scope.context());
            let root = Scope::Row(&scope).value();
            for text in [
                "{{ row.x }} {{ row.id }} {{ rules.a }} {{ rules.b }} {{ zeta | sum }}",
                "{{ row }}|{{ rules }}|{{ nothing is defined }}|{{ row.nothing is defined }}",
                "{% for k in rules %}{{ k }}{% endfor %}",
            ] {
                let a = env.render_str(text, whole.clone()).unwrap();
                let b = env.render_str(text, root.clone()).unwrap();
                assert_eq!(a, b, "{text}");
            }
            let keys = |v: &Value| v.try_iter().unwrap().collect::<Vec<_>>();
            assert_eq!(keys(&root), keys(&whole));
            assert_eq!(root.len(), whole.len());
            assert_eq!(
                root.get_attr("row").unwrap(),
                Value::from(row.clone()),
                "the row over the base's own"
            );
        }
    }

    /// A derive's field added to the row's value before it is the value made of
    /// the row with the field: equal, printed and fingerprinted the same, its
    /// keys in the same order.
    #[test]
    fn a_derived_field_added_to_a_row_value_is_the_row_value_made_with_it() {
        let mut row = Row {
            span: 0..0,
            fields: BTreeMap::from([
                ("id".to_string(), field("denver".into())),
                ("spaces".into(), field(3.into())),
                ("via".into(), field(vec![toml::Value::from(1.5)].into())),
            ]),
            derived: BTreeMap::from([("line".to_string(), toml::Value::from("a"))]),
            line: None,
        };
        let before = row_value(&row);
        let mut spot = toml::map::Map::new();
        spot.insert("x".into(), 2.5.into());
        let v = toml::Value::Array(vec![toml::Value::Table(spot)]);
        row.derived.insert("moves".into(), v);
        let added = with_derived(&before, &row, "moves");
        let other = with_derived(&Value::from(1), &row, "moves");
        let made = row_value(&row);
        for got in [added, other] {
            assert_eq!(got, made);
            assert_eq!(format!("{got:?}"), format!("{made:?}"));
            assert_eq!(print(&got), print(&made));
            let keys = |v: &Value| v.try_iter().unwrap().collect::<Vec<_>>();
            assert_eq!(keys(&got), keys(&made));
        }
    }
}
