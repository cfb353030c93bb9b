//! The project folder: `data/<game>/` and `templates/`, and the rules for names that
//! become file names.

use std::path::{Path, PathBuf};

/// A project root: the folder holding `data/` and `templates/`.
#[derive(Debug, Clone)]
pub struct Project {
    pub root: PathBuf,
}

impl Project {
    /// Finds the project root: `start` or its nearest ancestor holding a `data/` folder.
    pub fn discover(start: &Path) -> Result<Project, String> {
        let mut dir = Some(start);
        while let Some(d) = dir {
            if d.join("data").is_dir() {
                return Ok(Project {
                    root: d.to_path_buf(),
                });
            }
            dir = d.parent();
        }
        Err(format!(
            "no `data/` folder in {} or above it: run cardstock inside a project (a folder with data/<game>/game.toml and templates/)",
            start.display()
        ))
    }

    /// Every game id under `data/` (folders holding a `game.toml`), sorted.
    pub fn games(&self) -> Vec<String> {
        let mut games: Vec<String> = std::fs::read_dir(self.root.join("data"))
            .map(|rd| {
                rd.filter_map(|e| e.ok())
                    .filter(|e| e.path().join("game.toml").is_file())
                    .filter_map(|e| e.file_name().to_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        games.sort();
        games
    }
}

/// Checks a name that becomes part of a file name (game and component ids): no path
/// separators, no `..`, no control characters, nothing but `a-z 0-9 - _ .`.
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("is empty".into());
    }
    if name.len() > 64 {
        return Err("is longer than 64 characters".into());
    }
    if name.contains("..") || name.starts_with('.') {
        return Err("must not start with `.` or contain `..`".into());
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_' | '.')))
    {
        return Err(format!(
            "contains {:?}; only lowercase letters, digits, `-`, `_` and `.` may be used in a name that becomes a file name",
            c
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_name;

    #[test]
    fn names() {
        assert!(check_name("interstate-trucking").is_ok());
        assert!(check_name("../etc").is_err());
        assert!(check_name("a/b").is_err());
        assert!(check_name("a\u{7}").is_err());
        assert!(check_name("").is_err());
    }
}
