//! The minijinja environment: every template under `templates/`, SVG auto-escaping,
//! strict undefined values, limits against runaway templates, and the filters and
//! functions templates and data expressions use.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use minijinja::value::{Kwargs, Value, ValueKind};
use minijinja::{AutoEscape, Environment, Error, ErrorKind, State, UndefinedBehavior};

use crate::diag::{Diagnostic, Reported};
use crate::fonts::FontBook;
use crate::network::Network;
use crate::project::{Project, MAX_TEMPLATE_BYTES};
use crate::text::icons::IconSource;
use crate::text::layout::Setter;
use crate::text::{FontSpec, Icons, Line, RunKind, TextError};
use crate::units::fmt_num;

pub use crate::fuel::FUEL;
/// Deepest nesting of includes, macros and recursion.
pub const RECURSION_LIMIT: usize = 64;
/// The variable under which a render's [`RenderLog`] is passed to the functions.
pub const LOG: &str = "__cardstock_log";

pub mod errors;
mod icon;
pub mod maths;
pub mod overlap;

/// The filters cardstock adds to minijinja's own: `environment` registers exactly
/// these (a unit test reads the registrations), and `docs/reference.md` documents
/// each (a test checks).
pub const FILTERS: &[&str] = &["money", "num"];

/// All templates of the project plus the engine's functions.
pub struct Templates {
    pub env: Environment<'static>,
    /// The network `distance()` uses; set once the game's network is built.
    pub network: Arc<OnceLock<Network>>,
    /// The environment of expressions and check templates (`crate::fuel`).
    pub check_env: Environment<'static>,
    /// The fuel the game's expressions and check templates share.
    pub budget: Arc<crate::fuel::Budget>,
    /// The fuel the game's face renders share.
    pub faces_budget: Arc<crate::fuel::Budget>,
    /// The fonts and icons the text functions set text with.
    pub text: Arc<Typesetting>,
}

/// What the text functions (`wrap`, `fit`, `shrink`, `text_width`) set text with:
/// the game's fonts and its icons.
pub struct Typesetting {
    pub fonts: Arc<FontBook>,
    pub icons: Icons,
}

impl Typesetting {
    /// The fonts and icons of `game`.
    pub fn new(project: &Project, game: &str, fonts: Arc<FontBook>) -> Typesetting {
        Typesetting {
            icons: Icons::new(project, game, fonts.clone()),
            fonts,
        }
    }
}

/// Rendering and evaluating on the game's fuel budgets (`crate::fuel`).
impl Templates {
    /// Renders face template `name` (charging the game's faces budget).
    pub fn render(&self, name: &str, ctx: impl Into<Value>) -> Result<String, Error> {
        crate::fuel::render(&self.env, &self.faces_budget, name, ctx)
    }

    /// Renders a check-stage template given as text (charging the game's budget).
    pub fn render_str(&self, source: &str, ctx: impl Into<Value>) -> Result<String, Error> {
        crate::fuel::render_str(&self.check_env, &self.budget, source, ctx)
    }

    /// Evaluates an expression (charging the game's budget).
    pub fn eval(&self, source: &str, ctx: impl Into<Value>) -> Result<Value, Error> {
        crate::fuel::eval(&self.check_env, source, ctx)
    }
}

/// Warnings the template functions raise during one render (text that overflows
/// its box), collected for the caller to report with the face's context. It is
/// passed in the render's context under [`LOG`].
#[derive(Debug, Default)]
pub struct RenderLog {
    warnings: std::sync::Mutex<Vec<String>>,
    /// The line of the face's template that ran last, in a render of the template
    /// with line markers ([`errors::instrument`]).
    last_line: std::sync::atomic::AtomicUsize,
}

impl minijinja::value::Object for RenderLog {}

impl RenderLog {
    /// A new log and the value that carries it into a render's context.
    pub fn new() -> (Arc<RenderLog>, Value) {
        let log = Arc::new(RenderLog::default());
        let value = Value::from_dyn_object(log.clone());
        (log, value)
    }

    /// The warnings raised so far.
    pub fn take(&self) -> Vec<String> {
        self.warnings
            .lock()
            .map(|mut w| std::mem::take(&mut *w))
            .unwrap_or_default()
    }
}

/// Records a warning in the render's log (if the render has one).
fn warn(state: &State, msg: String) {
    if let Some(log) = state
        .lookup(LOG)
        .and_then(|v| v.downcast_object::<RenderLog>())
    {
        if let Ok(mut w) = log.warnings.lock() {
            w.push(msg);
        }
    }
}

/// The project file of template `name` (`interstate-trucking/contract.svg`).
pub fn template_file(name: &str) -> PathBuf {
    PathBuf::from("templates").join(name)
}

impl Templates {
    /// Gives the templates' `distance()` the game's `[network]`, once it is built
    /// from the evaluated data (after the templates were loaded).
    pub fn set_network(&self, network: Network) {
        let _ = self.network.set(network);
    }

    /// The templates of `game` (`templates/<game>/`) and the shared ones
    /// (`templates/common/`), read through the project, with their syntax errors.
    /// Other templates an `import` names are read when first used. Text is set
    /// with `fonts` (the game's [`FontBook`]).
    pub fn load(project: &Project, game: &str, fonts: Arc<FontBook>) -> Reported<Templates> {
        let mut diags = Vec::new();
        let network: Arc<OnceLock<Network>> = Arc::new(OnceLock::new());
        let text = Arc::new(Typesetting::new(project, game, fonts));
        let mut env = environment(network.clone(), text.clone());
        let loader = project.clone();
        env.set_loader(move |name| {
            let rel = Path::new(name);
            if crate::source::check_relative(rel).is_err() {
                return Ok(None);
            }
            match loader.read_text(&template_file(name), MAX_TEMPLATE_BYTES) {
                Ok(text) => Ok(Some(text.to_string())),
                Err(crate::source::FileError::NotFound { .. }) => Ok(None),
                Err(e) => Err(Error::new(ErrorKind::InvalidOperation, e.to_string())),
            }
        });
        for folder in [game, "common"] {
            let dir = template_file(folder);
            if project.kind(&dir).is_none() {
                continue;
            }
            let files = match project.walk(&dir, &[".svg"], 8) {
                Ok(f) => f,
                Err(e) => {
                    diags.push(crate::model::load::file_error(&e));
                    continue;
                }
            };
            for file in files {
                // Icons (`icons/*.svg`) are pictures for rich text, not templates.
                if file
                    .strip_prefix(&dir)
                    .is_ok_and(|r| r.starts_with("icons"))
                {
                    continue;
                }
                let source = match project.read_text(&file, MAX_TEMPLATE_BYTES) {
                    Ok(s) => s,
                    Err(e) => {
                        diags.push(crate::model::load::file_error(&e));
                        continue;
                    }
                };
                let Ok(name) = file.strip_prefix("templates") else {
                    continue;
                };
                let name = name.to_string_lossy().replace('\\', "/");
                if let Err(e) = env.add_template_owned(name, source.to_string()) {
                    diags.push(template_error(&e, &file, &source));
                }
            }
        }
        let budget = Arc::new(crate::fuel::Budget::new(crate::fuel::GAME_FUEL));
        let faces_budget = Arc::new(crate::fuel::Budget::new(crate::fuel::FACES_FUEL));
        let check_env = crate::fuel::check_environment(&env, budget.clone());
        Reported::new(
            Templates {
                env,
                network,
                check_env,
                budget,
                faces_budget,
                text,
            },
            diags,
        )
    }

    /// The game's fonts.
    pub fn fonts(&self) -> &Arc<FontBook> {
        &self.text.fonts
    }

    /// Resolves a component's template reference: `contract.svg` means
    /// `templates/<game>/contract.svg`; `common/x.svg` is taken from the templates root.
    pub fn resolve(&self, game: &str, reference: &str) -> Result<String, ResolveError> {
        if reference.starts_with('/')
            || reference.contains("..")
            || reference.contains(':')
            || reference.contains('\\')
        {
            return Err(ResolveError::NotRelative(reference.to_string()));
        }
        let name = if reference.contains('/') {
            reference.to_string()
        } else {
            format!("{game}/{reference}")
        };
        if self.env.get_template(&name).is_ok() {
            return Ok(name);
        }
        let known: Vec<String> = self
            .env
            .templates()
            .map(|(k, _)| k.to_string())
            .filter(|k| k.starts_with(&format!("{game}/")))
            .collect();
        let near = crate::diag::did_you_mean(&name, known.iter().map(String::as_str))
            .map(|m| m.trim_start_matches(&format!("{game}/")).to_string());
        Err(ResolveError::Missing { name, near })
    }
}

/// Why a component's template reference names no template.
#[derive(Debug, Clone, PartialEq)]
pub enum ResolveError {
    /// An absolute path, `..`, a drive or a backslash.
    NotRelative(String),
    /// No such template; the nearest name the game has, if any.
    Missing { name: String, near: Option<String> },
}

impl std::fmt::Display for ResolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResolveError::NotRelative(r) => write!(
                f,
                "template `{r}` must be a relative path inside templates/ (no `..`, no absolute path)"
            ),
            ResolveError::Missing { name, near: Some(m) } => write!(
                f,
                "template `templates/{name}` does not exist; did you mean `{m}`?"
            ),
            ResolveError::Missing { name, near: None } => {
                write!(f, "template `templates/{name}` does not exist")
            }
        }
    }
}

/// Turns a minijinja error into a diagnostic pointing at the template line.
pub fn template_error(e: &Error, file: &Path, source: &str) -> Diagnostic {
    let x = errors::explain(e, source, errors::Known::default(), false);
    Diagnostic::error(x.message).at(file, x.span).hint(x.hint)
}

/// A face's render error as a diagnostic. Beyond [`template_error`]: for a missing
/// value, the names near it in the face's data (`row.titel` → `row.title`) and,
/// for a `rules.` value that a `[[...]]` array of tables captured in `game.toml`,
/// where it went; for an error inside another template (a shared macro), the line
/// of the face's template `name` that called it.
pub fn render_error(
    tpl: &Templates,
    project: &Project,
    game_file: &Path,
    name: &str,
    ctx: &BTreeMap<String, Value>,
    e: &Error,
) -> Diagnostic {
    let failed = e.name().unwrap_or(name).to_string();
    let file = template_file(&failed);
    let source = project.source(&file).unwrap_or_default();
    let own = failed == name;
    let known = errors::Known {
        env: Some(&tpl.env),
        ctx: own.then_some(ctx),
    };
    let mut x = errors::explain(e, &source, known, false);
    // minijinja names some missing values by where they went (`row[...]` for
    // `{...}[row.colour]`, the variable set from it): name the value the data
    // lacks, where the template reads it.
    let vague = x.missing.as_ref().is_some_and(|m| m.contains(['[', '(']));
    if vague && own {
        if let Some((name, span)) = undefined_in(tpl, &source, ctx) {
            x = errors::missing(&name, span, known, false);
        }
    }
    let mut d = Diagnostic::error(x.message).at(&file, x.span).hint(x.hint);
    if let Some(expr) = &x.missing {
        let text = project.source(game_file).unwrap_or_default();
        if let Some(h) = captured_hint(game_file, &text, expr) {
            d = d.hint(h);
        }
    }
    if !own {
        if let Some((line, text)) = tpl.calling_line(project, name, ctx) {
            d = d.with(
                "called from",
                format!("templates/{name}:{line}: {}", text.trim()),
            );
        }
    }
    d
}

/// The first name template `source` reads that `ctx` lacks (a function or a
/// variable the template sets is no such name), with where it is read.
fn undefined_in(
    tpl: &Templates,
    source: &str,
    ctx: &BTreeMap<String, Value>,
) -> Option<(String, Option<std::ops::Range<usize>>)> {
    let names = tpl
        .env
        .template_from_str(source)
        .ok()?
        .undeclared_variables(true);
    let globals: Vec<String> = tpl.env.globals().map(|(n, _)| n.to_string()).collect();
    let read = names.into_iter().filter(|n| {
        let first = n.split('.').next().unwrap_or("");
        !globals.iter().any(|g| g == first)
            && !matches!(
                first,
                "loop" | "caller" | "self" | "super" | "varargs" | "kwargs"
            )
    });
    errors::first_undefined(source, read, ctx)
}

/// When `expr` (`rules.buying`) is missing because `game.toml` has the key after a
/// `[[...]]` header, inside that array's entry: where it is and how to fix it.
pub fn captured_hint(game_file: &Path, text: &str, expr: &str) -> Option<String> {
    let (array, key, span) = crate::model::load::captured_key(text, expr)?;
    let line = text[..span.start].matches('\n').count() + 1;
    Some(format!(
        "`{key}` is in {} line {line}, inside a `[[{array}]]` entry: every key after a `[[...]]` header belongs to that entry until the next header. Move `{key}` above the first `[[{array}]]`",
        game_file.display()
    ))
}

impl Templates {
    /// The line of template `name` that ran last before the render with `ctx`
    /// failed: renders a copy of the template with line markers. Its text too.
    pub fn calling_line(
        &self,
        project: &Project,
        name: &str,
        ctx: &BTreeMap<String, Value>,
    ) -> Option<(usize, String)> {
        let source = project.source(&template_file(name))?;
        let marked = errors::instrument(&source);
        let mut c = ctx.clone();
        let (log, value) = RenderLog::new();
        c.insert(LOG.into(), value);
        if self.env.render_named_str(name, &marked, &c).is_ok() {
            return None;
        }
        let line = log.last_line.load(std::sync::atomic::Ordering::Relaxed);
        let text = source.lines().nth(line.checked_sub(1)?)?.to_string();
        Some((line, text))
    }
}

/// The environment with escaping, limits, filters and functions (no templates yet);
/// the text functions set text with `text`.
pub fn environment(
    network: Arc<OnceLock<Network>>,
    text: Arc<Typesetting>,
) -> Environment<'static> {
    let mut env = Environment::new();
    env.set_auto_escape_callback(|name| {
        if name.ends_with(".svg") || name.ends_with(".xml") {
            AutoEscape::Html
        } else {
            AutoEscape::None
        }
    });
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    // Errors name the undefined value (`rules.buying`), whatever the build profile.
    env.set_debug(true);
    env.set_fuel(Some(FUEL));
    env.set_recursion_limit(RECURSION_LIMIT);
    env.add_filter("money", money);
    env.add_filter("num", num);
    env.add_function("lookup", lookup);
    env.add_function("select", select);
    env.add_function("round_to", round_to);
    env.add_function("along", along);
    let t = text.clone();
    env.add_function(
        "text_width",
        move |state: &State, s: String, size: f64, kwargs: Kwargs| {
            text_width(&t, state, &s, size, kwargs)
        },
    );
    let t = text.clone();
    env.add_function(
        "wrap",
        move |state: &State, s: String, width: Value, size: f64, kwargs: Kwargs| {
            wrap(&t, state, &s, width, size, kwargs)
        },
    );
    let t = text.clone();
    env.add_function(
        "fit",
        move |state: &State, s: String, args: minijinja::value::Rest<f64>, kwargs: Kwargs| {
            fit(&t, state, &s, &args.0, kwargs)
        },
    );
    let t = text.clone();
    env.add_function(
        "icon",
        move |state: &State, name: String, place: minijinja::value::Rest<f64>, kwargs: Kwargs| {
            icon::icon(&t, state, &name, &place.0, kwargs)
        },
    );
    env.add_function(
        "shrink",
        move |state: &State, s: String, w: f64, size: f64, kwargs: Kwargs| {
            shrink(&text, state, &s, w, size, kwargs)
        },
    );
    env.add_function("shuffle", shuffle);
    env.add_function("connected", connected);
    env.add_function("steps", steps);
    env.add_function("close_pairs", close_pairs);
    env.add_function("overlaps", overlap::overlaps);
    maths::register(&mut env);
    env.add_function(
        errors::LINE_MARKER,
        |state: &State, line: usize| -> String {
            if let Some(log) = state
                .lookup(LOG)
                .and_then(|v| v.downcast_object::<RenderLog>())
            {
                log.last_line
                    .store(line, std::sync::atomic::Ordering::Relaxed);
            }
            String::new()
        },
    );
    env.add_function("fail", |message: String| -> Result<Value, Error> {
        Err(Error::new(ErrorKind::InvalidOperation, message))
    });
    env.add_function(
        "distance",
        move |state: &State, from: Value, to: Value| -> Result<Value, Error> {
            let net = network.get().ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidOperation,
                    "distance() needs a [network] in game.toml",
                )
            })?;
            // A shortest-path search visits every node and edge at worst.
            state.consume_fuel(net.size() as u64)?;
            let from = names(&from)?;
            let to = names(&to)?;
            let f: Vec<&str> = from.iter().map(String::as_str).collect();
            let t: Vec<&str> = to.iter().map(String::as_str).collect();
            for n in f.iter().chain(t.iter()) {
                if !net.has(n) {
                    return Err(Error::new(
                        ErrorKind::InvalidOperation,
                        format!("distance(): `{n}` is not a node of the network"),
                    ));
                }
            }
            match net.distance(&f, &t) {
                Some(d) => Ok(number(d)),
                None => Err(Error::new(
                    ErrorKind::InvalidOperation,
                    format!(
                        "distance(): no route from {} to {}",
                        f.join("/"),
                        t.join("/")
                    ),
                )),
            }
        },
    );
    env
}

fn number(d: f64) -> Value {
    if d.fract() == 0.0 && d.abs() < 1e15 {
        Value::from(d as i64)
    } else {
        Value::from(d)
    }
}

fn names(v: &Value) -> Result<Vec<String>, Error> {
    if let Some(s) = v.as_str() {
        return Ok(vec![s.to_string()]);
    }
    let mut out = Vec::new();
    for item in v.try_iter()? {
        let s = item.as_str().ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidOperation,
                "expected a name or a list of names",
            )
        })?;
        out.push(s.to_string());
    }
    Ok(out)
}

/// How `money` writes an amount: `[game] currency`, `currency_position`,
/// `thousands_separator` and `decimal_separator`, each overridable by an argument.
#[derive(Debug, Clone, PartialEq)]
struct MoneyStyle {
    symbol: String,
    after: bool,
    thousands: String,
    decimal: String,
}

impl MoneyStyle {
    /// The style the game sets (the `game` value of the render), else `$1,700.50`.
    fn of_game(state: &State) -> MoneyStyle {
        let game = state.lookup("game");
        let get = |key: &str| {
            game.as_ref()
                .and_then(|g| g.get_attr(key).ok())
                .and_then(|v| v.as_str().map(String::from))
        };
        MoneyStyle {
            symbol: get("currency").unwrap_or_else(|| "$".into()),
            after: get("currency_position").as_deref() == Some("after"),
            thousands: get("thousands_separator").unwrap_or_else(|| ",".into()),
            decimal: get("decimal_separator").unwrap_or_else(|| ".".into()),
        }
    }

    /// `n` in this style: whole amounts without decimals, others with two.
    fn format(&self, n: f64) -> String {
        let whole = (n - n.round()).abs() < 1e-9;
        let digits = if whole {
            format!("{:.0}", n.abs().round())
        } else {
            format!("{:.2}", n.abs())
        };
        let (int, frac) = digits.split_once('.').unwrap_or((&digits, ""));
        let mut out = String::new();
        if n < 0.0 && digits.chars().any(|c| c != '0' && c != '.') {
            out.push('-');
        }
        if !self.after {
            out.push_str(&self.symbol);
        }
        for (i, c) in int.chars().enumerate() {
            if i > 0 && (int.len() - i).is_multiple_of(3) {
                out.push_str(&self.thousands);
            }
            out.push(c);
        }
        if !frac.is_empty() {
            out.push_str(&self.decimal);
            out.push_str(frac);
        }
        if self.after {
            out.push_str(&self.symbol);
        }
        out
    }
}

/// `1700|money` -> `$1,700` (`£1,700`, `1.700 €`... as `[game]` sets it);
/// `1700|money("€", after=true, thousands=".", decimal=",")` overrides the game's
/// style. Amounts that are not whole get two decimals (`$2.50`).
fn money(state: &State, v: Value, symbol: Option<String>, kwargs: Kwargs) -> Result<String, Error> {
    if v.is_undefined() {
        return Err(Error::from(ErrorKind::UndefinedError));
    }
    let n = f64::try_from(v.clone()).map_err(|_| {
        Error::new(
            ErrorKind::InvalidOperation,
            format!("money: `{v}` is not a number"),
        )
    })?;
    let mut style = MoneyStyle::of_game(state);
    if let Some(s) = symbol {
        style.symbol = s;
    }
    if let Some(a) = kwargs.get::<Option<bool>>("after")? {
        style.after = a;
    }
    if let Some(t) = kwargs.get::<Option<String>>("thousands")? {
        style.thousands = t;
    }
    if let Some(d) = kwargs.get::<Option<String>>("decimal")? {
        style.decimal = d;
    }
    kwargs.assert_all_used()?;
    Ok(style.format(n))
}

/// `94.9000015|num` -> `94.9`: a number for an SVG attribute.
fn num(v: Value) -> Result<String, Error> {
    let n = f64::try_from(v.clone()).map_err(|_| {
        Error::new(
            ErrorKind::InvalidOperation,
            format!("num: `{v}` is not a number"),
        )
    })?;
    Ok(fmt_num(n))
}

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

/// The game's table index (see `crate::index`), when the context has one.
fn index(state: &State) -> Option<Arc<crate::index::TableIndex>> {
    state
        .lookup(crate::index::INDEX)?
        .downcast_object::<crate::index::TableIndex>()
}

/// `lookup("city", "memphis")`: the row of `table` whose `id` is `id`.
fn lookup(state: &State, table: String, id: String) -> Result<Value, Error> {
    let found = match index(state).and_then(|ix| ix.lookup(&table, &id)) {
        Some(found) => {
            state.consume_fuel(1)?;
            found
        }
        None => {
            let rows = rows_of(state, &table)?;
            state.consume_fuel(rows.len().unwrap_or(0) as u64)?;
            let mut found = None;
            for row in rows.try_iter()? {
                if row.get_attr("id")?.as_str() == Some(id.as_str()) {
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
fn select(state: &State, table: String, field: String, value: Value) -> Result<Value, Error> {
    if let Some((rows, work)) = index(state).and_then(|ix| ix.select(&table, &field, &value)) {
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

/// `round_to(1649, 100)` -> 1600: rounds half away from zero to a multiple of `step`.
fn round_to(x: Value, step: Value) -> Result<Value, Error> {
    let x = f64::try_from(x)?;
    let step = f64::try_from(step)?;
    if step <= 0.0 {
        return Err(Error::new(
            ErrorKind::InvalidOperation,
            "round_to(): step must be positive",
        ));
    }
    Ok(number((x / step).round() * step))
}

/// `along(points, n, inset=0, between=false)`: `n` points evenly spaced along a
/// polyline `[[x, y], ...]`, each the centre of one of `n` equal slots between
/// `inset` from either end, or (`between=true`) dividing that stretch into `n + 1`
/// equal parts, as far from its ends as from each other (movement spaces between
/// two cities); each point is `{x, y, angle}` (degrees, the direction of the
/// segment it lies on).
fn along(state: &State, points: Value, n: i64, kwargs: Kwargs) -> Result<Value, Error> {
    let inset: f64 = kwargs.get::<Option<f64>>("inset")?.unwrap_or(0.0);
    let between: bool = kwargs.get::<Option<bool>>("between")?.unwrap_or(false);
    kwargs.assert_all_used()?;
    if !(0..=10_000).contains(&n) {
        return Err(Error::new(
            ErrorKind::InvalidOperation,
            "along(): n must be between 0 and 10000",
        ));
    }
    let mut pts = Vec::new();
    for p in points.try_iter()? {
        let x = f64::try_from(p.get_item_by_index(0)?)?;
        let y = f64::try_from(p.get_item_by_index(1)?)?;
        pts.push((x, y));
    }
    if pts.len() < 2 {
        return Err(Error::new(
            ErrorKind::InvalidOperation,
            "along(): needs at least two points",
        ));
    }
    // Each point walks the segments.
    state.consume_fuel((pts.len() as u64).saturating_mul(n as u64 + 1))?;
    let seg: Vec<f64> = pts
        .windows(2)
        .map(|w| ((w[1].0 - w[0].0).powi(2) + (w[1].1 - w[0].1).powi(2)).sqrt())
        .collect();
    let total: f64 = seg.iter().sum();
    let usable = (total - 2.0 * inset).max(0.0);
    let mut out = Vec::new();
    for i in 0..n {
        // Centred in n equal parts, or (`between`) dividing the line into n + 1.
        let target = if between {
            inset + usable * (i as f64 + 1.0) / (n as f64 + 1.0)
        } else {
            inset + usable * (i as f64 + 0.5) / n as f64
        };
        let mut acc = 0.0;
        for (k, len) in seg.iter().enumerate() {
            if acc + len >= target || k == seg.len() - 1 {
                let t = if *len > 0.0 {
                    ((target - acc) / len).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let (a, b) = (pts[k], pts[k + 1]);
                let x = a.0 + (b.0 - a.0) * t;
                let y = a.1 + (b.1 - a.1) * t;
                let angle = (b.1 - a.1).atan2(b.0 - a.0).to_degrees();
                let mut m = BTreeMap::new();
                m.insert("x", Value::from((x * 1000.0).round() / 1000.0));
                m.insert("y", Value::from((y * 1000.0).round() / 1000.0));
                m.insert("angle", Value::from((angle * 100.0).round() / 100.0));
                out.push(Value::from(m));
                break;
            }
            acc += len;
        }
    }
    Ok(Value::from(out))
}

/// Most points `close_pairs` takes.
const MAX_CLOSE_POINTS: usize = 100_000;

/// `close_pairs(points, distance)`: every pair of `points` (`[x, y, ...]` or
/// `{x, y}`) less than `distance` apart, as `[i, j, d]` (0-based positions, `i < j`,
/// `d` their distance), ordered by `i` then `j`. Points are sorted into a grid of
/// `distance`-wide cells, so checking that a board's spaces or tokens keep apart
/// costs about the number of points, not its square.
fn close_pairs(state: &State, points: Value, distance: f64) -> Result<Value, Error> {
    let fail = |m: String| Error::new(ErrorKind::InvalidOperation, format!("close_pairs(): {m}"));
    if !(distance > 0.0 && distance.is_finite()) {
        return Err(fail(format!(
            "distance must be a positive number, not {distance}"
        )));
    }
    let mut pts = Vec::new();
    for p in points.try_iter()? {
        if pts.len() == MAX_CLOSE_POINTS {
            return Err(fail(format!("more than {MAX_CLOSE_POINTS} points")));
        }
        let coord = |i: usize, name: &str| -> Result<f64, Error> {
            let v = match p.kind() {
                ValueKind::Map => p.get_attr(name)?,
                _ => p.get_item_by_index(i)?,
            };
            f64::try_from(v.clone()).map_err(|_| fail(format!("point {p} has no number {name}")))
        };
        pts.push((coord(0, "x")?, coord(1, "y")?));
    }
    state.consume_fuel(pts.len() as u64)?;
    let cell = |v: f64| (v / distance).floor() as i64;
    let mut grid: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    for (i, &(x, y)) in pts.iter().enumerate() {
        grid.entry((cell(x), cell(y))).or_default().push(i);
    }
    let mut pairs = Vec::new();
    for (i, &(x, y)) in pts.iter().enumerate() {
        let (cx, cy) = (cell(x), cell(y));
        for gx in cx - 1..=cx + 1 {
            for gy in cy - 1..=cy + 1 {
                let near = grid.get(&(gx, gy)).map(Vec::as_slice).unwrap_or_default();
                state.consume_fuel(near.len() as u64)?;
                for &j in near.iter().filter(|&&j| j > i) {
                    let d = ((pts[j].0 - x).powi(2) + (pts[j].1 - y).powi(2)).sqrt();
                    if d < distance {
                        pairs.push((i, j, d));
                    }
                }
            }
        }
    }
    pairs.sort_by_key(|&(i, j, _)| (i, j));
    Ok(Value::from(
        pairs
            .into_iter()
            .map(|(i, j, d)| Value::from(vec![Value::from(i), Value::from(j), Value::from(d)]))
            .collect::<Vec<_>>(),
    ))
}

fn font_spec(kwargs: &Kwargs) -> Result<FontSpec, Error> {
    let mut f = FontSpec::default();
    if let Some(family) = kwargs.get::<Option<String>>("font")? {
        f.family = family;
    }
    if let Some(w) = kwargs.get::<Option<Value>>("weight")? {
        f.weight = match w.as_str() {
            Some("bold") => 700,
            Some("normal") => 400,
            Some("black") => 900,
            _ => u16::try_from(w.clone()).map_err(|_| {
                Error::new(
                    ErrorKind::InvalidOperation,
                    format!("weight `{w}` is not a number or bold/normal/black"),
                )
            })?,
        };
    }
    if let Some(style) = kwargs.get::<Option<String>>("style")? {
        f.italic = style == "italic";
    }
    Ok(f)
}

fn text_err(e: TextError) -> Error {
    match e {
        TextError::OutOfFuel => Error::new(ErrorKind::OutOfFuel, e.to_string()),
        // The error itself goes along, for a caller that can point at its cause
        // (an unknown icon at the data cell that names it).
        e => Error::new(ErrorKind::InvalidOperation, e.to_string()).with_source(e),
    }
}

/// Sets text for one call of a text function: the game's fonts and icons, the
/// font from the call's arguments, and the render's fuel.
fn with_setter<T>(
    text: &Typesetting,
    state: &State,
    font: &FontSpec,
    f: impl FnOnce(&Setter) -> Result<T, TextError>,
) -> Result<T, Error> {
    let fuel = |n: u64| state.consume_fuel(n).is_ok();
    let icons: &dyn IconSource = &text.icons;
    let setter = Setter::new(&text.fonts, font, icons, &fuel).map_err(text_err)?;
    f(&setter).map_err(text_err)
}

/// A line of set text as templates see it: printed, its text without markup;
/// `line.runs` the placed runs (see [`run_value`]), `line.width`, `line.size`,
/// `line.plain` (one run of text in the base style).
#[derive(Debug)]
struct LineValue(Line, FontSpec);

impl minijinja::value::Object for LineValue {
    fn repr(self: &Arc<Self>) -> minijinja::value::ObjectRepr {
        minijinja::value::ObjectRepr::Plain
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        let l = &self.0;
        match key.as_str()? {
            "text" => Some(Value::from(l.text())),
            "width" => Some(Value::from(round3(l.width))),
            "size" => Some(Value::from(l.size)),
            "plain" => Some(Value::from(l.is_plain())),
            "runs" => Some(Value::from(
                l.runs
                    .iter()
                    .map(|r| run_value(l, &self.1, r))
                    .collect::<Vec<_>>(),
            )),
            _ => None,
        }
    }

    fn is_true(self: &Arc<Self>) -> bool {
        !self.0.runs.is_empty()
    }

    fn render(self: &Arc<Self>, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.text())
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// One run of a line: `{text, weight, style, bold, italic, icon, x, width}`, where
/// `x` is from the start of the line (mm) and `weight` / `style` are the
/// `font-weight` / `font-style` to draw it with (the call's font with the run's
/// markup); an icon run (`icon` = its name, else none) also has `href` (a `data:`
/// URI), `height` and `dy` (from the baseline down to its top).
fn run_value(line: &Line, font: &FontSpec, run: &crate::text::Run) -> Value {
    let mut m: BTreeMap<&str, Value> = BTreeMap::new();
    m.insert("x", Value::from(round3(run.x)));
    m.insert("width", Value::from(round3(run.width)));
    match &run.kind {
        RunKind::Text { text, bold, italic } => {
            let f = font.styled(*bold, *italic);
            m.insert("text", Value::from(text.clone()));
            m.insert("weight", Value::from(f.weight));
            m.insert(
                "style",
                Value::from(if f.italic { "italic" } else { "normal" }),
            );
            m.insert("bold", Value::from(*bold));
            m.insert("italic", Value::from(*italic));
            m.insert("icon", Value::from(()));
        }
        RunKind::Icon(icon) => {
            let (height, dy) = line.icon_box();
            m.insert("text", Value::from(""));
            m.insert("icon", Value::from(icon.name.clone()));
            m.insert("view_box", Value::from(icon.view_box.clone()));
            m.insert("markup", Value::from_safe_string(icon.markup.clone()));
            m.insert("height", Value::from(round3(height)));
            m.insert("dy", Value::from(round3(dy)));
        }
    }
    Value::from(m)
}

fn lines_value(lines: Vec<Line>, font: &FontSpec) -> Value {
    Value::from(
        lines
            .into_iter()
            .map(|l| Value::from_object(LineValue(l, font.clone())))
            .collect::<Vec<_>>(),
    )
}

/// `text_width(text, size, font=, weight=, style=)`: width in mm at `size` mm of
/// the widest line (markup and icons included).
fn text_width(
    text: &Typesetting,
    state: &State,
    s: &str,
    size: f64,
    kwargs: Kwargs,
) -> Result<Value, Error> {
    let f = font_spec(&kwargs)?;
    kwargs.assert_all_used()?;
    let w = with_setter(text, state, &f, |set| set.widest(s, size))?;
    Ok(Value::from(w))
}

/// `wrap(text, width, size, font=, weight=, style=)`: the lines that fit `width`
/// mm (`none`: only the text's own line breaks).
fn wrap(
    text: &Typesetting,
    state: &State,
    s: &str,
    width: Value,
    size: f64,
    kwargs: Kwargs,
) -> Result<Value, Error> {
    let f = font_spec(&kwargs)?;
    kwargs.assert_all_used()?;
    let width = if width.is_none() {
        None
    } else {
        Some(f64::try_from(width.clone()).map_err(|_| {
            Error::new(
                ErrorKind::InvalidOperation,
                format!("wrap(): the width `{width}` is not a number (or none)"),
            )
        })?)
    };
    let lines = with_setter(text, state, &f, |set| set.wrap(s, width, size))?;
    Ok(lines_value(lines, &f))
}

/// `fit(text, width, height, max, min, leading=1.2, font=, weight=, style=)`:
/// `{size, lines, line_height, rich}` for the largest size that fits the box; an
/// error when the text does not fit even at `min`. `rich` is true when a line is
/// more than one run of plain text (bold, italic or an icon).
fn fit(
    text: &Typesetting,
    state: &State,
    s: &str,
    args: &[f64],
    kwargs: Kwargs,
) -> Result<Value, Error> {
    let f = font_spec(&kwargs)?;
    let (w, h, max) = match args {
        [w, h, max, ..] => (*w, *h, *max),
        _ => {
            return Err(Error::new(
                ErrorKind::MissingArgument,
                "fit(text, width, height, max, min) needs the box and the sizes",
            ))
        }
    };
    let min = match (args.get(3).copied(), kwargs.get::<Option<f64>>("min")?) {
        (Some(m), _) | (None, Some(m)) => m,
        (None, None) => max * 0.6,
    };
    let leading = kwargs.get::<Option<f64>>("leading")?.unwrap_or(1.2);
    kwargs.assert_all_used()?;
    let r = with_setter(text, state, &f, |set| {
        crate::text::fit(set, s, (w, h), (max, min), leading)
    })?;
    let mut m = BTreeMap::new();
    m.insert("size", Value::from(r.size));
    m.insert("rich", Value::from(!r.lines.iter().all(Line::is_plain)));
    m.insert("lines", lines_value(r.lines, &f));
    m.insert("line_height", Value::from(round3(r.line_height)));
    Ok(Value::from(m))
}

/// `shrink(text, width, size, min=size*0.7, font=, weight=, style=)`: the size at
/// which `text` fits one line of `width` mm; warns (and returns `min`) when even
/// `min` is too large.
fn shrink(
    text: &Typesetting,
    state: &State,
    s: &str,
    w: f64,
    size: f64,
    kwargs: Kwargs,
) -> Result<Value, Error> {
    let f = font_spec(&kwargs)?;
    let min = kwargs.get::<Option<f64>>("min")?.unwrap_or(size * 0.7);
    kwargs.assert_all_used()?;
    match with_setter(text, state, &f, |set| {
        crate::text::shrink(set, s, w, size, min)
    })? {
        Ok(size) => Ok(Value::from(size)),
        Err((measured, min)) => {
            warn(
                state,
                format!(
                "text \"{s}\" overflows its box: {} mm wide at the minimum size {} mm, the box allows {} mm",
                fmt_num(measured),
                fmt_num(min),
                fmt_num(w)
            ),
            );
            Ok(Value::from(min))
        }
    }
}

/// `shuffle(list, seed)`: a permutation of `list` that depends only on `seed`.
fn shuffle(state: &State, list: Value, seed: i64) -> Result<Value, Error> {
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

/// A graph given in a template as a list of node ids and a list of `[a, b]` edges,
/// each edge costing 1 (for `connected` and `steps`; `what` names the function in
/// errors). Its size is counted against the template's fuel.
fn graph_of(state: &State, what: &str, nodes: &Value, edges: &Value) -> Result<Network, Error> {
    state.consume_fuel(
        (nodes.len().unwrap_or(0) as u64).saturating_add(edges.len().unwrap_or(0) as u64),
    )?;
    let ids: Vec<String> = nodes.try_iter()?.map(|v| v.to_string()).collect();
    let mut net = Network::new(ids);
    for e in edges.try_iter()? {
        let a = e.get_item_by_index(0)?.to_string();
        let b = e.get_item_by_index(1)?.to_string();
        if !net.add_edge(&a, &b, 1.0) {
            return Err(Error::new(
                ErrorKind::InvalidOperation,
                format!("{what}(): edge [{a}, {b}] names a node that is not in the list"),
            ));
        }
    }
    Ok(net)
}

/// `connected(nodes, edges)`: the connected groups of a graph given as a list of
/// node ids and a list of `[a, b]` edges (one group means connected).
fn connected(state: &State, nodes: Value, edges: Value) -> Result<Value, Error> {
    let net = graph_of(state, "connected", &nodes, &edges)?;
    Ok(Value::from(
        net.components()
            .into_iter()
            .map(Value::from)
            .collect::<Vec<_>>(),
    ))
}

/// `steps(nodes, edges, from, to)`: the fewest edges on a path from a node of
/// `from` to a node of `to` (each a node id or a list of them) in the graph of
/// `nodes` and `[a, b]` edges, 0 when they share a node; none when no path joins
/// them. A breadth-first search in the engine: the same walk written as a template
/// loop over lists is quadratic.
fn steps(
    state: &State,
    nodes: Value,
    edges: Value,
    from: Value,
    to: Value,
) -> Result<Value, Error> {
    let net = graph_of(state, "steps", &nodes, &edges)?;
    let ids = |v: &Value| -> Result<Vec<String>, Error> {
        if v.as_str().is_some() || v.as_i64().is_some() {
            return Ok(vec![v.to_string()]);
        }
        Ok(v.try_iter()?.map(|x| x.to_string()).collect())
    };
    let (from, to) = (ids(&from)?, ids(&to)?);
    for id in from.iter().chain(&to) {
        if !net.has(id) {
            return Err(Error::new(
                ErrorKind::InvalidOperation,
                format!("steps(): `{id}` is not in the list of nodes"),
            ));
        }
    }
    let from: Vec<&str> = from.iter().map(String::as_str).collect();
    let to: Vec<&str> = to.iter().map(String::as_str).collect();
    Ok(match net.distance(&from, &to) {
        Some(d) => Value::from(d as i64),
        None => Value::from(()),
    })
}

/// Converts any serialisable data (TOML values, the `[game]` table) to a template value.
pub fn to_value<T: serde::Serialize>(x: &T) -> Value {
    Value::from(minijinja::value::Serde(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env() -> Environment<'static> {
        let project = Project::new(crate::source::MemoryFiles::new());
        let text = Typesetting::new(&project, "g", FontBook::builtin());
        environment(Arc::new(OnceLock::new()), Arc::new(text))
    }

    #[test]
    fn close_pairs_finds_every_pair_a_scan_finds() {
        let e = env();
        let r = |t: &str| e.render_str(t, ()).unwrap();
        assert_eq!(
            r("{{ close_pairs([[0, 0], [3, 4], [10, 0], {'x': 3, 'y': 4.5}], 5.5) }}"),
            "[[0, 1, 5.0], [0, 3, 5.408326913195984], [1, 3, 0.5]]"
        );
        assert_eq!(r("{{ close_pairs([], 1) }}"), "[]");
        assert!(e
            .render_str("{{ close_pairs([[0, 0]], 0) }}", ())
            .unwrap_err()
            .to_string()
            .contains("close_pairs(): distance must be a positive number"));
        assert!(e
            .render_str("{{ close_pairs([['a', 0]], 1) }}", ())
            .unwrap_err()
            .to_string()
            .contains("has no number x"));
        // Against checking every pair, on a spread of points with many near ones.
        let mut x: u64 = 7;
        let mut pts = Vec::new();
        for _ in 0..400 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pts.push((
                (x >> 40) as f64 % 200.0 / 3.0,
                (x >> 20) as f64 % 150.0 / 3.0,
            ));
        }
        let list: Vec<String> = pts.iter().map(|(a, b)| format!("[{a}, {b}]")).collect();
        let got = r(&format!(
            "{{% for p in close_pairs([{}], 2.5) %}}{{{{ p[0] }}}}-{{{{ p[1] }}}} {{% endfor %}}",
            list.join(", ")
        ));
        let mut want = Vec::new();
        for i in 0..pts.len() {
            for j in i + 1..pts.len() {
                let d = ((pts[j].0 - pts[i].0).powi(2) + (pts[j].1 - pts[i].1).powi(2)).sqrt();
                if d < 2.5 {
                    want.push(format!("{i}-{j} "));
                }
            }
        }
        assert!(want.len() > 50, "{}", want.len());
        assert_eq!(got, want.concat());
    }

    #[test]
    fn steps_counts_the_fewest_edges() {
        let e = env();
        let r = |t: &str| e.render_str(t, ()).unwrap();
        let g = "['a', 'b', 'c', 'd', 'e'], [['a', 'b'], ['b', 'c'], ['c', 'd'], ['a', 'd']]";
        assert_eq!(r(&format!("{{{{ steps({g}, 'a', 'c') }}}}")), "2");
        assert_eq!(r(&format!("{{{{ steps({g}, ['b', 'd'], ['c']) }}}}")), "1");
        assert_eq!(r(&format!("{{{{ steps({g}, 'a', 'a') }}}}")), "0");
        assert_eq!(
            r(&format!("{{{{ steps({g}, 'a', 'e') is none }}}}")),
            "True"
        );
        let err = e
            .render_str(&format!("{{{{ steps({g}, 'a', 'z') }}}}"), ())
            .unwrap_err();
        assert!(
            err.to_string().contains("`z` is not in the list of nodes"),
            "{err}"
        );
    }

    #[test]
    fn money_and_num() {
        let e = env();
        assert_eq!(
            e.render_str(
                "{{ 1700|money }} {{ 250000|money }} {{ 100|money }} {{ -2.5|money }} {{ 1234567.891|money }}",
                ()
            )
            .unwrap(),
            "$1,700 $250,000 $100 -$2.50 $1,234,567.89"
        );
        let game = minijinja::context! { game => minijinja::context! {
            currency => " €", currency_position => "after", thousands_separator => ".", decimal_separator => ","
        } };
        assert_eq!(
            e.render_str("{{ 1700|money }} {{ 0.5|money }} {{ 1700|money('£', after=false, thousands=',') }}", game)
                .unwrap(),
            "1.700 € 0,50 € £1,700"
        );
        assert_eq!(
            e.render_str(
                "{{ 1700|money('€', after=true) }} {{ 5|money('', thousands='') }}",
                ()
            )
            .unwrap(),
            "1,700€ 5"
        );
        assert_eq!(
            e.render_str("{{ 94.9000015258789|num }}", ()).unwrap(),
            "94.9"
        );
    }

    #[test]
    fn along_spaces_points_evenly() {
        let e = env();
        let out = e
            .render_str(
                "{% for p in along([[0,0],[40,0]], 4) %}{{ p.x }} {% endfor %}",
                (),
            )
            .unwrap();
        assert_eq!(out, "5.0 15.0 25.0 35.0 ");
        let out = e
            .render_str(
                "{% for p in along([[0,0],[30,0],[30,30]], 4, inset=5, between=true) %}{{ p.x }},{{ p.y }},{{ p.angle }} {% endfor %}",
                (),
            )
            .unwrap();
        assert_eq!(
            out,
            "15.0,0.0,0.0 25.0,0.0,0.0 30.0,5.0,90.0 30.0,15.0,90.0 "
        );
    }

    #[test]
    fn filters_lists_every_registered_filter() {
        // The names `environment` registers, read from this file's source.
        let source = include_str!("template.rs");
        let mut registered: Vec<&str> = source
            .split("env.add_filter(\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .collect();
        registered.sort();
        let mut listed = FILTERS.to_vec();
        listed.sort();
        assert_eq!(
            registered, listed,
            "FILTERS lists every filter `environment` adds"
        );
        let e = env();
        for f in FILTERS {
            let out = e
                .render_str(&format!("{{% if '{f}' is filter %}}yes{{% endif %}}"), ())
                .unwrap();
            assert_eq!(out, "yes", "`{f}` is a filter");
        }
    }

    #[test]
    fn errors_name_the_value_and_the_fix() {
        let mut e = env();
        e.add_template_owned("t.svg", "<t>{{ rules.buying|money }}</t>\n{{ row.nme }}")
            .unwrap();
        let err = e
            .get_template("t.svg")
            .unwrap()
            .render(minijinja::context! { rules => minijinja::context! { cost => 1 } })
            .unwrap_err();
        let src = "<t>{{ rules.buying|money }}</t>\n{{ row.nme }}";
        let x = errors::explain(&err, src, errors::Known::default(), false);
        assert_eq!(
            x.message,
            "template uses `rules.buying`, which the data does not have"
        );
        assert_eq!(x.span, Some(6..18));
        let err = e.render_str("{{ 1|mony }}", ()).unwrap_err();
        let x = errors::explain(&err, "{{ 1|mony }}", errors::Known::default(), false);
        assert_eq!(x.message, "there is no filter `mony`");
        assert_eq!(x.hint, "did you mean `money`?");
        let err = e.render_str("{{ lokup('a', 'b') }}", ()).unwrap_err();
        let known = errors::Known {
            env: Some(&e),
            ctx: None,
        };
        let x = errors::explain(&err, "{{ lokup('a', 'b') }}", known, false);
        assert_eq!(x.message, "there is no function `lokup`");
        assert_eq!(x.hint, "did you mean `lookup`?");
        let err = e.compile_expression("row.a = 1").unwrap_err();
        let x = errors::explain(&err, "row.a = 1", errors::Known::default(), true);
        assert!(x.hint.starts_with("did you mean `==`?"), "{}", x.hint);
        let src = "a\n{% if x %}\nb\n";
        let err = e.add_template_owned("u.svg", src).unwrap_err();
        let x = errors::explain(&err, src, errors::Known::default(), false);
        assert_eq!(x.message, "`{% if %}` on line 2 is never closed");
    }

    #[test]
    fn escapes_svg() {
        let mut e = env();
        e.add_template_owned("t.svg", "<text>{{ s }}</text>")
            .unwrap();
        let out = e
            .get_template("t.svg")
            .unwrap()
            .render(minijinja::context! { s => "A & B <C>" })
            .unwrap();
        assert_eq!(out, "<text>A &amp; B &lt;C&gt;</text>");
    }
}
