//! `cardstock new <game>`: a small working game to start from: a table of cards
//! with a front and a back template, a player aid, one `[[assert]]` and a
//! `[contents]` count, every file commented. It checks and builds as written. In a
//! folder that is no project yet, the shared templates (`templates/common/`) and
//! the print profiles (`profiles/`) are written too. Nothing is overwritten.

use std::path::{Path, PathBuf};

/// Arguments of `new`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The new game's id: its folder under data/ and templates/ (lowercase letters,
    /// digits and hyphens, e.g. for-sale).
    pub game: String,
    /// Project folder; default: the current folder's project (the nearest folder
    /// with data/ at or above it), else the current folder, which becomes one.
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
}

/// The shared templates every game's faces extend or import, as shipped.
const COMMON: &[(&str, &str)] = &[
    (
        "arrows.svg",
        include_str!("../../templates/common/arrows.svg"),
    ),
    (
        "checkbox.svg",
        include_str!("../../templates/common/checkbox.svg"),
    ),
    ("face.svg", include_str!("../../templates/common/face.svg")),
    ("grid.svg", include_str!("../../templates/common/grid.svg")),
    (
        "icons.svg",
        include_str!("../../templates/common/icons.svg"),
    ),
    (
        "shapes.svg",
        include_str!("../../templates/common/shapes.svg"),
    ),
    (
        "snake.svg",
        include_str!("../../templates/common/snake.svg"),
    ),
    ("text.svg", include_str!("../../templates/common/text.svg")),
    (
        "track.svg",
        include_str!("../../templates/common/track.svg"),
    ),
];

/// The print profiles, as shipped.
const PROFILES: &[(&str, &str)] = &[
    (
        "drivethrucards.toml",
        include_str!("../../profiles/drivethrucards.toml"),
    ),
    (
        "gutterfold.toml",
        include_str!("../../profiles/gutterfold.toml"),
    ),
    ("home.toml", include_str!("../../profiles/home.toml")),
    ("offset.toml", include_str!("../../profiles/offset.toml")),
    (
        "makeplayingcards.toml",
        include_str!("../../profiles/makeplayingcards.toml"),
    ),
    (
        "thegamecrafter.toml",
        include_str!("../../profiles/thegamecrafter.toml"),
    ),
    ("tts.toml", include_str!("../../profiles/tts.toml")),
];

/// The starter game's files: path under the project (with `{id}` for the game's
/// id) and text (with `{id}` and `{name}`).
const STARTER: &[(&str, &str)] = &[
    ("data/{id}/game.toml", include_str!("new/game.toml")),
    ("data/{id}/cards.toml", include_str!("new/cards.toml")),
    ("data/{id}/rules.md", include_str!("new/rules.md")),
    ("templates/{id}/card.svg", include_str!("new/card.svg")),
    ("templates/{id}/back.svg", include_str!("new/back.svg")),
    ("templates/{id}/aid.svg", include_str!("new/aid.svg")),
];

/// The game's display name from its id: `for-sale` → `For Sale`.
fn display_name(id: &str) -> String {
    id.split(['-', '_', '.'])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect::<String>(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The project folder `new` writes into.
fn root(args: &Args) -> Result<PathBuf, String> {
    if let Some(p) = &args.project {
        return Ok(p.clone());
    }
    let here = std::env::current_dir().map_err(|e| e.to_string())?;
    let mut dir = Some(here.as_path());
    while let Some(d) = dir {
        if d.join("data").is_dir() {
            return Ok(d.to_path_buf());
        }
        dir = d.parent();
    }
    Ok(here)
}

/// Checks that the file `rel` of the project `root` would be inside the project
/// once every link on its way is followed.
fn inside(root: &Path, rel: &str) -> Result<(), String> {
    let real_root = root
        .canonicalize()
        .map_err(|e| format!("cannot read {}: {e}", root.display()))?;
    // The nearest folder on the way that exists decides where the file lands.
    let mut at = root.join(rel);
    while !at.exists() && at.symlink_metadata().is_err() {
        if !at.pop() {
            break;
        }
    }
    let real = at.canonicalize().unwrap_or_else(|_| at.clone());
    if real.starts_with(&real_root) {
        return Ok(());
    }
    let shown = at.strip_prefix(root).unwrap_or(&at);
    Err(format!(
        "{} is a link to {}, outside the project: `new` writes only inside the project, as builds read only there\n  = hint: replace the link with a folder, or make the game in the project the link points into",
        shown.display(),
        real.display()
    ))
}

/// Writes `text` to a new file `path` (never over an existing one).
fn write_new(path: &Path, text: &str) -> Result<(), String> {
    use std::io::Write;
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    f.write_all(text.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Runs `new`; returns the exit status.
pub fn run(args: &Args) -> i32 {
    match make(args) {
        Ok(msg) => {
            super::say(&msg);
            0
        }
        Err(e) => {
            super::tell(&format!("error: {e}\n"));
            1
        }
    }
}

fn make(args: &Args) -> Result<String, String> {
    let id = &args.game;
    cardstock::project::check_name(id).map_err(|why| {
        format!("game name `{id}` {why}\n  = hint: use lowercase letters, digits and hyphens, e.g. `cardstock new for-sale`")
    })?;
    let root = root(args)?;
    for dir in ["data", "templates"] {
        let p = root.join(dir).join(id);
        if p.exists() {
            return Err(format!(
                "{} already exists: `new` never overwrites a game\n  = hint: choose another name, or remove the folder if you meant to start over",
                p.display()
            ));
        }
    }
    let name = display_name(id);
    let mut files: Vec<(String, String)> = Vec::new();
    for (path, text) in STARTER {
        let rel = path.replace("{id}", id);
        files.push((rel, text.replace("{id}", id).replace("{name}", &name)));
    }
    // A folder that is no project yet gets the shared templates and the profiles.
    if !root.join("templates/common/face.svg").exists() {
        for (file, text) in COMMON {
            let rel = format!("templates/common/{file}");
            if !root.join(&rel).exists() {
                files.push((rel, text.to_string()));
            }
        }
    }
    if !root.join("profiles").exists() {
        for (file, text) in PROFILES {
            files.push((format!("profiles/{file}"), text.to_string()));
        }
    }
    // Builds read nothing through a link out of the project: `new` writes nothing
    // through one either, and checks every file before it writes the first.
    for (rel, _) in &files {
        inside(&root, rel)?;
    }
    let mut written = Vec::new();
    for (rel, text) in files {
        write_new(&root.join(&rel), &text)?;
        written.push(rel);
    }
    let mut msg = format!("made the game `{id}` ({name}) in {}:\n", root.display());
    for w in &written {
        msg.push_str(&format!("  {w}\n"));
    }
    msg.push_str(&format!(
        "next: `cardstock check {id}`, then `cardstock build {id}` (output in output/{id}/home/); the reference (docs/reference.md in cardstock's repository) describes every key\n"
    ));
    Ok(msg)
}

#[cfg(test)]
mod tests {
    #[test]
    fn names() {
        assert_eq!(super::display_name("for-sale"), "For Sale");
        assert_eq!(super::display_name("x"), "X");
    }
}
