//! Reading the templates: every `.svg` of `templates/<game>/` and
//! `templates/common/` (icons aside) through the project, with their syntax
//! errors; other templates an `import` names are read when first used.

use std::path::Path;
use std::sync::Arc;

use minijinja::{Environment, Error, ErrorKind};

use super::{environment, template_error, template_file, Templates, Typesetting};
use crate::diag::{Diagnostic, Reported};
use crate::fonts::FontBook;
use crate::project::{Project, MAX_TEMPLATE_BYTES};

impl Templates {
    /// The templates of `game` (`templates/<game>/`) and the shared ones
    /// (`templates/common/`), read through the project, with their syntax errors.
    /// Other templates an `import` names are read when first used. Text is set
    /// with `fonts` (the game's [`FontBook`]).
    pub fn load(project: &Project, game: &str, fonts: Arc<FontBook>) -> Reported<Templates> {
        let mut diags = Vec::new();
        let text = Arc::new(Typesetting::new(project, game, fonts));
        let mut env = environment(text.clone());
        set_loader(&mut env, project.clone());
        for folder in [game, "common"] {
            add_folder(&mut env, project, folder, &mut diags);
        }
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

/// Adds every template of `templates/<folder>/` (icons aside) to `env`, with the
/// problems of reading or parsing them.
fn add_folder(
    env: &mut Environment<'static>,
    project: &Project,
    folder: &str,
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
        if let Err(e) = env.add_template_owned(name, source.to_string()) {
            diags.push(template_error(&e, &file, &source));
        }
    }
}
