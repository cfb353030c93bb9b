//! The minijinja environment: every template under `templates/`, SVG auto-escaping,
//! strict undefined values, limits against runaway templates, and the filters and
//! functions templates and data expressions use.
//!
//! [`Templates`] (this file) is what the stages hold; `load` reads the templates,
//! `environment` makes the engine and registers every filter and function, whose
//! code lives by what it does: `numbers` (money, num, round_to), `maths`, `data`
//! (lookup, select, shuffle), `geometry` (along, close_pairs), `overlap`, `graph`
//! (distance, connected, steps), `text` (wrap, fit, shrink, text_width), `icon`.
//! `errors` explains a minijinja error in the designer's words; `diagnostics` turns
//! it into a [`Diagnostic`](crate::diag::Diagnostic) at the template line.

use std::path::PathBuf;
use std::sync::Arc;

use minijinja::value::Value;
use minijinja::{Environment, Error, State};

use crate::fonts::FontBook;
use crate::project::Project;
use crate::text::Icons;

pub use crate::fuel::FUEL;
/// Deepest nesting of includes, macros and recursion.
pub const RECURSION_LIMIT: usize = 64;
/// The variable under which a render's [`RenderLog`] is passed to the functions.
pub const LOG: &str = "__cardstock_log";

mod data;
mod diagnostics;
mod environment;
pub mod errors;
mod geometry;
mod graph;
mod icon;
mod load;
pub mod maths;
mod numbers;
pub mod overlap;
pub mod reads;
mod text;

pub use diagnostics::{captured_hint, render_error, template_error};
pub use environment::environment;
pub use graph::{network_value, NETWORK};
pub use load::TemplateCache;

/// The filters cardstock adds to minijinja's own: `environment` registers exactly
/// these (a unit test reads the registrations), and `docs/reference.md` documents
/// each (a test checks).
pub const FILTERS: &[&str] = &["money", "num"];

/// All templates of the project plus the engine's functions.
pub struct Templates {
    pub env: Environment<'static>,
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

    /// A check-stage template given as text, compiled once for
    /// [`render_compiled`](Self::render_compiled) to render many times (an
    /// `[[assert]]`'s template over every row); `None` when it does not compile
    /// ([`render_str`](Self::render_str) then reports why, each time).
    pub fn compile_str<'s>(&'s self, source: &'s str) -> Option<minijinja::Template<'s, 's>> {
        self.check_env.template_from_str(source).ok()
    }

    /// Renders a template [`compile_str`](Self::compile_str) made, as
    /// [`render_str`](Self::render_str) renders its text (charging the game's
    /// budget).
    pub fn render_compiled(
        &self,
        template: &minijinja::Template,
        ctx: impl Into<Value>,
    ) -> Result<String, Error> {
        crate::fuel::render_compiled(&self.budget, template, ctx)
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

/// Converts any serialisable data (TOML values, the `[game]` table) to a template value.
pub fn to_value<T: serde::Serialize>(x: &T) -> Value {
    Value::from(minijinja::value::Serde(x))
}

#[cfg(test)]
mod tests {
    use super::environment::test_env as env;

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
