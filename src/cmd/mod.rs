//! The subcommands. Each is a thin layer: find the project, pick games, run the
//! library's pipeline, print, and return the exit status. This is the only place
//! (with `cardstock::source` and `cardstock::output`) that knows about the disk.

pub mod bench;
pub mod build;
pub mod changes;
pub mod check;
pub mod fonts;
pub mod list;
pub mod new;
pub mod printed;
pub mod reprint;
pub mod serve;
pub mod watch;

use std::path::PathBuf;

use cardstock::diag::{did_you_mean, Diagnostic, Diagnostics};
use cardstock::project::Project;

/// A project found on disk: its folder and its file source.
pub struct Found {
    pub root: PathBuf,
    pub project: Project,
}

/// Finds the project root: `start` or its nearest ancestor holding a `data/` folder.
fn discover(start: &std::path::Path) -> Result<PathBuf, String> {
    let mut dir = Some(start);
    while let Some(d) = dir {
        if d.join("data").is_dir() {
            return Ok(d.to_path_buf());
        }
        dir = d.parent();
    }
    Err(format!(
        "no `data/` folder in {} or above it: run cardstock inside a project (a folder with data/<game>/game.toml and templates/)",
        start.display()
    ))
}

/// Options every subcommand shares.
#[derive(Debug, Clone, clap::Args)]
pub struct Common {
    /// Project folder (holding data/ and templates/); default: the current folder or
    /// the nearest one above it with a data/ folder.
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// Treat warnings as errors (exit status 1 if there is any).
    #[arg(long)]
    pub deny_warnings: bool,
}

impl Common {
    /// Finds the project, or prints why not (the caller exits with status 1).
    pub fn project_or_report(&self) -> Option<Found> {
        self.project()
            .map_err(|e| tell(&format!("error: {e}\n")))
            .ok()
    }

    /// Finds the project.
    pub fn project(&self) -> Result<Found, String> {
        let root = match &self.project {
            Some(p) if p.join("data").is_dir() => p.clone(),
            Some(p) => return Err(format!("{} has no data/ folder", p.display())),
            None => discover(&std::env::current_dir().map_err(|e| e.to_string())?)?,
        };
        let project = Project::disk(&root)
            .map_err(|e| format!("cannot open the project {}: {e}", root.display()))?;
        Ok(Found { root, project })
    }
}

/// The games to work on: those named (checked to exist), or all of them.
pub fn select_games(project: &Project, named: &[String]) -> Result<Vec<String>, Diagnostic> {
    let all = project.games();
    if named.is_empty() {
        if all.is_empty() {
            return Err(
                Diagnostic::error("no games found: data/ has no folder with a game.toml").hint(
                    "run cardstock new GAME, or create data/<game>/game.toml (docs/games.md)",
                ),
            );
        }
        return Ok(all);
    }
    for n in named {
        if let Err(why) = cardstock::project::check_name(n) {
            return Err(Diagnostic::error(format!("game name `{n}` {why}"))
                .hint("name a folder under data/"));
        }
        if !all.contains(n) {
            let hint = match did_you_mean(n, all.iter().map(String::as_str)) {
                Some(m) => format!("did you mean `{m}`?"),
                None => format!("games in data/: {}", all.join(", ")),
            };
            return Err(Diagnostic::error(format!("there is no game `{n}` in data/")).hint(hint));
        }
    }
    Ok(named.to_vec())
}

/// A progress bar over `n` games on stderr; drawn only on a terminal, and only
/// a few times a second, so quick builds and piped output show nothing.
pub fn progress(n: u64) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    let bar = ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr_with_hz(2));
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} {msg} ({elapsed})") {
        bar.set_style(style);
    }
    bar
}

/// Held while anything is printed: a text for stdout and one for stderr never
/// mix, even from two threads into one pipe (`2>&1`). Each text is written whole
/// and flushed before the next starts, so the two streams keep their order.
static PRINTING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Writes `text` whole to stdout or stderr under [`PRINTING`], ignoring a closed
/// pipe (`cardstock check | head` must not panic), with terminal controls written
/// out ([`cardstock::diag::printable`]: data or a font's name could hold them).
fn print(text: &str, to_stderr: bool) {
    use std::io::Write;
    let text = cardstock::diag::printable(text);
    let _held = PRINTING.lock().unwrap_or_else(|p| p.into_inner());
    if to_stderr {
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(text.as_bytes());
        let _ = err.flush();
    } else {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
    }
}

/// Writes to stdout (what a command made: summaries, tables).
pub fn say(text: &str) {
    print(text, false);
}

/// Writes to stderr (problems, warnings, waiting notes).
pub fn tell(text: &str) {
    print(text, true);
}

/// Prints diagnostics to stderr (with the source lines of the files read from
/// `sources`) and returns the exit status (1 if any error).
pub fn finish(
    mut diags: Diagnostics,
    sources: &dyn cardstock::diag::Sources,
    deny_warnings: bool,
) -> i32 {
    if deny_warnings {
        diags.deny_warnings();
    }
    diags.sort();
    if !diags.items.is_empty() {
        tell(&diags.render(sources));
    }
    if diags.has_errors() {
        1
    } else {
        0
    }
}
