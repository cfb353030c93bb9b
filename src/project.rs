//! The project: a [`Files`] source (the folder holding `data/`, `templates/`,
//! `profiles/`...) and every text read from it during a run, so diagnostics render
//! from the sources already loaded. Also the rules for names that become file names.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::source::{DiskFiles, Entry, EntryKind, FileError, Files};

/// Largest data file (`game.toml`, a table) accepted: a real game's are a few KB.
pub const MAX_DATA_BYTES: u64 = 8 * 1024 * 1024;
/// Largest total of one game's data files (`game.toml` and its tables): a byte of
/// data takes about a hundred in memory once read and checked.
pub const MAX_GAME_DATA: u64 = 16 * 1024 * 1024;
/// Largest template accepted.
pub const MAX_TEMPLATE_BYTES: u64 = 2 * 1024 * 1024;
/// Largest image or art file accepted.
pub const MAX_IMAGE_BYTES: u64 = 50 * 1024 * 1024;
/// Largest print profile accepted.
pub const MAX_PROFILE_BYTES: u64 = 256 * 1024;

/// A project and the texts read from it. Cloning is cheap and shares both.
#[derive(Clone)]
pub struct Project {
    files: Arc<dyn Files>,
    texts: Arc<Mutex<BTreeMap<PathBuf, Arc<str>>>>,
}

impl std::fmt::Debug for Project {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Project").finish_non_exhaustive()
    }
}

impl Project {
    /// A project over any file source.
    pub fn new(files: impl Files + 'static) -> Project {
        Project {
            files: Arc::new(files),
            texts: Arc::default(),
        }
    }

    /// The project in the folder `root`.
    pub fn disk(root: &Path) -> std::io::Result<Project> {
        Ok(Project::new(DiskFiles::new(root)?))
    }

    /// The same files with nothing read yet (watch mode starts every build afresh).
    pub fn fresh(&self) -> Project {
        Project {
            files: self.files.clone(),
            texts: Arc::default(),
        }
    }

    /// The bytes of a file (images, art, fonts), at most `limit` bytes.
    pub fn read(&self, path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
        self.files.read(path, limit)
    }

    /// A UTF-8 text file, at most `limit` bytes. The text is kept for diagnostics,
    /// and reading the same file again in this run gives the same text.
    pub fn read_text(&self, path: &Path, limit: u64) -> Result<Arc<str>, FileError> {
        if let Some(t) = self.source(path) {
            if t.len() as u64 <= limit {
                return Ok(t);
            }
        }
        let bytes = self.files.read(path, limit)?;
        let text: Arc<str> = String::from_utf8(bytes)
            .map_err(|_| FileError::NotUtf8 {
                path: path.to_path_buf(),
            })?
            .into();
        if let Ok(mut m) = self.texts.lock() {
            m.insert(path.to_path_buf(), text.clone());
        }
        Ok(text)
    }

    /// Keeps `text`, read as bytes from `path`, as that file's source for
    /// diagnostics (the first text kept for a path stays), and gives it back.
    pub fn keep_text(&self, path: &Path, text: String) -> Arc<str> {
        let text: Arc<str> = text.into();
        match self.texts.lock() {
            Ok(mut m) => m.entry(path.to_path_buf()).or_insert(text).clone(),
            Err(_) => text,
        }
    }

    /// A text already read in this run.
    pub fn source(&self, path: &Path) -> Option<Arc<str>> {
        self.texts.lock().ok()?.get(path).cloned()
    }

    /// The entries of a folder, sorted by name.
    pub fn list(&self, dir: &Path) -> Result<Vec<Entry>, FileError> {
        self.files.list(dir)
    }

    /// What is at `path`, if anything.
    pub fn kind(&self, path: &Path) -> Option<EntryKind> {
        self.files.kind(path)
    }

    /// Every game id: folders under `data/` holding a `game.toml`, and links there
    /// to outside the project (so that building one says why it cannot be read),
    /// sorted.
    pub fn games(&self) -> Vec<String> {
        self.list(Path::new("data"))
            .unwrap_or_default()
            .into_iter()
            .filter(|e| {
                e.kind == EntryKind::Outside
                    || e.kind == EntryKind::Folder
                        && self
                            .kind(&Path::new("data").join(&e.name).join("game.toml"))
                            .is_some()
            })
            .map(|e| e.name)
            .collect()
    }

    /// Files under `dir` (recursively, at most `depth` folders deep) whose name ends
    /// with one of `extensions`, as project paths, sorted. A file that cannot be
    /// read is listed (reading it says why); a link to outside the project that is
    /// not such a file is an error (it may be a folder the walk would go into).
    pub fn walk(
        &self,
        dir: &Path,
        extensions: &[&str],
        depth: usize,
    ) -> Result<Vec<PathBuf>, FileError> {
        let mut out = Vec::new();
        for e in self.list(dir)? {
            let path = dir.join(&e.name);
            match e.kind {
                EntryKind::Folder if depth > 0 => {
                    out.extend(self.walk(&path, extensions, depth - 1)?)
                }
                EntryKind::Folder => {}
                _ if extensions.iter().any(|x| e.name.ends_with(x)) => out.push(path),
                EntryKind::Outside if depth > 0 => {
                    return Err(self
                        .files
                        .read(&path, 0)
                        .err()
                        .unwrap_or(FileError::NotInProject { path: path.clone() }))
                }
                _ => {}
            }
        }
        out.sort();
        Ok(out)
    }
}

impl crate::diag::Sources for Project {
    fn source(&self, file: &Path) -> Option<Arc<str>> {
        Project::source(self, file)
    }
}

/// Why a name cannot be a file name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameError {
    Empty,
    TooLong,
    Dots,
    Character(char),
}

impl std::fmt::Display for NameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NameError::Empty => write!(f, "is empty"),
            NameError::TooLong => write!(f, "is longer than 64 characters"),
            NameError::Dots => write!(f, "must not start with `.` or contain `..`"),
            NameError::Character(c) => write!(
                f,
                "contains {c:?}; only lowercase letters, digits, `-`, `_` and `.` may be used in a name that becomes a file name"
            ),
        }
    }
}

/// Checks a name that becomes part of a file name (game and component ids): no path
/// separators, no `..`, no control characters, nothing but `a-z 0-9 - _ .`.
pub fn check_name(name: &str) -> Result<(), NameError> {
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    if name.len() > 64 {
        return Err(NameError::TooLong);
    }
    if name.contains("..") || name.starts_with('.') {
        return Err(NameError::Dots);
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_' | '.')))
    {
        return Err(NameError::Character(c));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::MemoryFiles;

    #[test]
    fn names() {
        assert!(check_name("interstate-trucking").is_ok());
        assert!(check_name("../etc").is_err());
        assert!(check_name("a/b").is_err());
        assert!(check_name("a\u{7}").is_err());
        assert!(check_name("").is_err());
    }

    #[test]
    fn games_and_texts_from_memory() {
        let mut m = MemoryFiles::new();
        m.insert("data/b/game.toml", "[game]\nname = \"B\"\n");
        m.insert("data/a/game.toml", "[game]\nname = \"A\"\n");
        m.insert("data/c/cards.toml", "");
        let p = Project::new(m);
        assert_eq!(p.games(), vec!["a", "b"]);
        let t = p.read_text(Path::new("data/a/game.toml"), 100).unwrap();
        assert_eq!(
            crate::diag::Sources::source(&p, Path::new("data/a/game.toml")).as_deref(),
            Some(&*t)
        );
    }
}
