//! Reading the templates: every `.svg` of `templates/<game>/` and
//! `templates/common/` (icons aside) through the project, with their syntax
//! errors; other templates an `import` names are read when first used.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use minijinja::{Environment, Error, ErrorKind};

use super::environment::add_text_functions;
use super::{environment, template_error, template_file, Templates, Typesetting};
use crate::diag::{Diagnostic, Reported};
use crate::fonts::FontBook;
use crate::project::{Project, MAX_TEMPLATE_BYTES};

impl Templates {
    /// The templates of `game` (`templates/<game>/`) and the shared ones
    /// (`templates/common/`), read through the project, with their syntax errors.
    /// Other templates an `import` names are read when first used. Text is set
    /// with `fonts` (the game's [`FontBook`]).
    ///
    /// With `kept` (the live preview), the templates compiled by the last build
    /// are taken when every file read is the same, name and text
    /// ([`TemplateCache`]).
    pub fn load(
        project: &Project,
        game: &str,
        fonts: Arc<FontBook>,
        kept: Option<&TemplateCache>,
    ) -> Reported<Templates> {
        let mut diags = Vec::new();
        let text = Arc::new(Typesetting::new(project, game, fonts));
        let mut sources = Vec::new();
        for folder in [game, "common"] {
            read_folder(project, folder, &mut sources, &mut diags);
        }
        let mut env = match kept.and_then(|k| k.take(game, &sources)) {
            Some(mut env) => {
                add_text_functions(&mut env, text.clone());
                env
            }
            None => {
                let mut env = environment(text.clone());
                for (file, name, source) in &sources {
                    if let Err(e) = env.add_template_owned(name.clone(), source.to_string()) {
                        diags.push(template_error(&e, file, source));
                    }
                }
                if let (Some(k), true) = (kept, diags.is_empty()) {
                    k.keep(game, &sources, &env);
                }
                env
            }
        };
        set_loader(&mut env, project.clone());
        let budget = Arc::new(crate::fuel::Budget::new(crate::fuel::GAME_FUEL));
        let faces_budget = Arc::new(crate::fuel::Budget::new(crate::fuel::FACES_FUEL));
        let check_env = crate::fuel::check_environment(&env, budget.clone());
        Reported::new(
            Templates {
                env,
                check_env,
                budget,
                faces_budget,
                text,
            },
            diags,
        )
    }
}

/// Reads a template an `import` or `include` names, when first used: a relative
/// name under `templates/`, none when there is no such file.
fn set_loader(env: &mut Environment<'static>, project: Project) {
    env.set_loader(move |name| {
        let rel = Path::new(name);
        if crate::source::check_relative(rel).is_err() {
            return Ok(None);
        }
        match project.read_text(&template_file(name), MAX_TEMPLATE_BYTES) {
            Ok(text) => Ok(Some(text.to_string())),
            Err(crate::source::FileError::NotFound { .. }) => Ok(None),
            Err(e) => Err(Error::new(ErrorKind::InvalidOperation, e.to_string())),
        }
    });
}

/// One template read: its file, its name (relative to `templates/`) and its text.
type Source = (PathBuf, String, Arc<str>);

/// The templates the last build compiled (the live preview), with the files they
/// came from. A build whose game and template files (names and texts, in the
/// order read) are the same takes them, instead of compiling every template
/// again; a build whose templates had any problem keeps nothing. Templates an
/// `import` names outside the game's and the common folder are read when first
/// used, by each build's own loader (they are not kept: the environment is kept
/// as it was before any render).
#[derive(Default)]
pub struct TemplateCache {
    last: Mutex<Option<KeptEnvironment>>,
    /// Whether the last build took them.
    kept: std::sync::atomic::AtomicBool,
}

/// One build's compiled templates and what they were compiled from.
struct KeptEnvironment {
    game: String,
    sources: Vec<(String, Arc<str>)>,
    env: Environment<'static>,
}

impl TemplateCache {
    /// The templates kept for `game`, if compiled from exactly `sources`.
    fn take(&self, game: &str, sources: &[Source]) -> Option<Environment<'static>> {
        self.kept.store(false, std::sync::atomic::Ordering::Relaxed);
        let last = self.last.lock().ok()?;
        let k = last.as_ref()?;
        let same = k.game == game
            && k.sources.len() == sources.len()
            && k.sources
                .iter()
                .zip(sources)
                .all(|((n, t), (_, name, text))| n == name && t == text);
        self.kept.store(same, std::sync::atomic::Ordering::Relaxed);
        same.then(|| k.env.clone())
    }

    /// Keeps `env`, compiled from `sources` for `game`.
    fn keep(&self, game: &str, sources: &[Source], env: &Environment<'static>) {
        if let Ok(mut last) = self.last.lock() {
            *last = Some(KeptEnvironment {
                game: game.to_string(),
                sources: sources
                    .iter()
                    .map(|(_, n, t)| (n.clone(), t.clone()))
                    .collect(),
                env: env.clone(),
            });
        }
    }

    /// Whether the last build took its templates from the cache.
    pub fn was_kept(&self) -> bool {
        self.kept.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// Reads every template of `templates/<folder>/` (icons aside) into `sources`,
/// with the problems of reading them.
fn read_folder(
    project: &Project,
    folder: &str,
    sources: &mut Vec<Source>,
    diags: &mut Vec<Diagnostic>,
) {
    let dir = template_file(folder);
    if project.kind(&dir).is_none() {
        return;
    }
    let files = match project.walk(&dir, &[".svg"], 8) {
        Ok(f) => f,
        Err(e) => {
            diags.push(crate::model::load::file_error(&e));
            return;
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
        sources.push((file.clone(), name, source));
    }
}
