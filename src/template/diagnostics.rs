//! A template's errors as diagnostics: the file and line of the template, the
//! explanation (`super::errors`), the names near a missing value, where
//! `game.toml` put a key a `[[...]]` entry captured, and the line of the face's
//! template that called a failing macro.

use std::collections::BTreeMap;
use std::path::Path;

use minijinja::value::Value;
use minijinja::Error;

use super::{errors, template_file, RenderLog, Templates, LOG};
use crate::diag::Diagnostic;
use crate::project::Project;

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
