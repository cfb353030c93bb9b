//! Every file cardstock reads comes through one [`Files`] source: the project's data,
//! templates, art, images, fonts and profiles. The command line gives a
//! [`DiskFiles`] source, which keeps every read inside the project folder after links
//! are followed, reads regular files only and applies each size limit before reading;
//! tests and the live preview may give a [`MemoryFiles`] source. Nothing else in the
//! library touches the file system (`output` writes, at the edge).

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// The most entries one folder listing returns (a folder with more is an error).
pub const MAX_FOLDER_ENTRIES: usize = 10_000;

/// What a folder entry is, after links are followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    File,
    Folder,
    /// A FIFO, socket or device: listed so that reading it is a clear error.
    Special,
    /// A link to somewhere outside the project: listed so that reading it is a
    /// clear error.
    Outside,
}

/// One entry of a folder listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub kind: EntryKind,
}

/// Why a file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileError {
    /// The path is absolute, has `..`, or is not a plain relative path.
    NotInProject { path: PathBuf },
    /// Nothing is there.
    NotFound { path: PathBuf },
    /// The path is (or goes through) a link to somewhere outside the project.
    LinkOutside { path: PathBuf, target: PathBuf },
    /// The path is a link that leads (through other links) back to itself.
    LinkLoop { path: PathBuf },
    /// Not a regular file (a folder where a file was expected, a FIFO, a device...).
    NotRegular { path: PathBuf, what: &'static str },
    /// Larger than the limit for this kind of file.
    TooLarge {
        path: PathBuf,
        size: u64,
        limit: u64,
    },
    /// A folder with too many entries.
    TooManyEntries { path: PathBuf, limit: usize },
    /// A text file that is not UTF-8.
    NotUtf8 { path: PathBuf },
    /// A file or folder whose name is not UTF-8 (no data or template can name it,
    /// and leaving it out silently would drop an art file from a set).
    NameNotUtf8 { path: PathBuf },
    /// Any other error the operating system reported.
    Io { path: PathBuf, message: String },
}

impl FileError {
    /// The project-relative path the error is about.
    pub fn path(&self) -> &Path {
        match self {
            FileError::NotInProject { path }
            | FileError::NotFound { path }
            | FileError::LinkOutside { path, .. }
            | FileError::LinkLoop { path }
            | FileError::NotRegular { path, .. }
            | FileError::TooLarge { path, .. }
            | FileError::TooManyEntries { path, .. }
            | FileError::NotUtf8 { path }
            | FileError::NameNotUtf8 { path }
            | FileError::Io { path, .. } => path,
        }
    }

    /// How to fix it.
    pub fn hint(&self) -> &'static str {
        match self {
            FileError::NotInProject { .. } => {
                "name files by a path relative to the project, without `..`"
            }
            FileError::NotFound { .. } => "create the file, or fix the name that refers to it",
            FileError::LinkOutside { .. } => {
                "cardstock reads only files inside the project: copy the file into the project instead of linking to it"
            }
            FileError::LinkLoop { .. } => {
                "replace the link with the file it should point to, or remove it"
            }
            FileError::NotRegular { .. } => "replace it with an ordinary file",
            FileError::TooLarge { path, .. } => {
                let image = path
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| {
                        ["png", "jpg", "jpeg", "gif", "webp", "svg"]
                            .contains(&e.to_ascii_lowercase().as_str())
                    });
                if image {
                    "make the image smaller: 300 dpi at its printed size is all a printer uses (docs/reference.md lists the limits)"
                } else {
                    "split the data into several files, or shorten it (docs/reference.md lists the limits)"
                }
            }
            FileError::TooManyEntries { .. } => "split the files into several folders",
            FileError::NotUtf8 { .. } => "save the file as UTF-8 text",
            FileError::NameNotUtf8 { .. } => {
                "rename it: cardstock reads files whose names are UTF-8 (as every current system writes them)"
            }
            FileError::Io { .. } => "check the file's permissions",
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::NotInProject { path } => {
                write!(f, "`{}` is not a path inside the project", path.display())
            }
            FileError::NotFound { path } => write!(f, "{} does not exist", path.display()),
            FileError::LinkOutside { path, target } => write!(
                f,
                "{} is a link to {}, outside the project",
                path.display(),
                target.display()
            ),
            FileError::LinkLoop { path } => write!(
                f,
                "{} is a link that leads back to itself (a loop of links)",
                path.display()
            ),
            FileError::NotRegular { path, what } => {
                write!(f, "{} is {what}, not a regular file", path.display())
            }
            FileError::TooLarge { path, size, limit } => write!(
                f,
                "{} is {size} bytes, over the limit of {limit} bytes",
                path.display()
            ),
            FileError::TooManyEntries { path, limit } => write!(
                f,
                "the folder {} has more than {limit} entries",
                path.display()
            ),
            FileError::NotUtf8 { path } => write!(f, "{} is not UTF-8 text", path.display()),
            FileError::NameNotUtf8 { path } => {
                write!(f, "{} has a name that is not UTF-8", escaped_path(path))
            }
            FileError::Io { path, message } => {
                write!(f, "cannot read {}: {message}", path.display())
            }
        }
    }
}

impl std::error::Error for FileError {}

/// `path` as text, each byte that is not part of UTF-8 written `\xNN`.
pub fn escaped_path(path: &Path) -> String {
    let mut out = String::new();
    for chunk in path.as_os_str().as_encoded_bytes().utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// A source of project files. Paths are relative to the project root.
pub trait Files: Send + Sync {
    /// The bytes of a regular file, refusing it (before reading) when it is larger
    /// than `limit` bytes.
    fn read(&self, path: &Path, limit: u64) -> Result<Vec<u8>, FileError>;

    /// The entries of a folder, sorted by name.
    fn list(&self, dir: &Path) -> Result<Vec<Entry>, FileError>;

    /// What is at `path`, if anything (links followed, inside the project only).
    fn kind(&self, path: &Path) -> Option<EntryKind>;
}

/// Checks that `path` is a plain relative path (normal components only).
pub fn check_relative(path: &Path) -> Result<(), FileError> {
    let plain = !path.as_os_str().is_empty()
        && path.components().all(|c| matches!(c, Component::Normal(_)));
    if plain {
        Ok(())
    } else {
        Err(FileError::NotInProject {
            path: path.to_path_buf(),
        })
    }
}

/// The project folder on disk.
#[derive(Debug, Clone)]
pub struct DiskFiles {
    /// The project root as given.
    root: PathBuf,
    /// The root with every link resolved: every read must resolve inside it.
    canonical: PathBuf,
}

impl DiskFiles {
    /// A source over the folder `root`.
    pub fn new(root: &Path) -> std::io::Result<DiskFiles> {
        Ok(DiskFiles {
            root: root.to_path_buf(),
            canonical: root.canonicalize()?,
        })
    }

    /// The project root as given.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The real location of `rel`, which must be inside the project after every
    /// link is followed.
    fn resolve(&self, rel: &Path) -> Result<PathBuf, FileError> {
        check_relative(rel)?;
        let real = self
            .root
            .join(rel)
            .canonicalize()
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => FileError::NotFound {
                    path: rel.to_path_buf(),
                },
                _ if is_loop(&e) => FileError::LinkLoop {
                    path: rel.to_path_buf(),
                },
                _ => FileError::Io {
                    path: rel.to_path_buf(),
                    message: e.to_string(),
                },
            })?;
        if !real.starts_with(&self.canonical) {
            return Err(FileError::LinkOutside {
                path: rel.to_path_buf(),
                target: real,
            });
        }
        Ok(real)
    }
}

/// Whether the operating system gave up following links (ELOOP).
fn is_loop(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        e.raw_os_error() == Some(libc::ELOOP)
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

fn special_kind(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
    }
    if meta.is_dir() {
        "a folder"
    } else {
        "a special file"
    }
}

impl Files for DiskFiles {
    fn read(&self, rel: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
        use std::io::Read;
        let real = self.resolve(rel)?;
        let io = |e: std::io::Error| FileError::Io {
            path: rel.to_path_buf(),
            message: e.to_string(),
        };
        let meta = std::fs::metadata(&real).map_err(io)?;
        if !meta.is_file() {
            return Err(FileError::NotRegular {
                path: rel.to_path_buf(),
                what: special_kind(&meta),
            });
        }
        let too_large = |size| FileError::TooLarge {
            path: rel.to_path_buf(),
            size,
            limit,
        };
        if meta.len() > limit {
            return Err(too_large(meta.len()));
        }
        let mut options = std::fs::OpenOptions::new();
        options.read(true);
        #[cfg(unix)]
        {
            // A FIFO swapped in after the check must not block the open, and a link
            // swapped in must not be followed out of the project.
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
        }
        let file = options.open(&real).map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        if !meta.is_file() {
            return Err(FileError::NotRegular {
                path: rel.to_path_buf(),
                what: special_kind(&meta),
            });
        }
        let mut bytes = Vec::with_capacity(meta.len().min(limit) as usize);
        file.take(limit + 1).read_to_end(&mut bytes).map_err(io)?;
        if bytes.len() as u64 > limit {
            return Err(too_large(bytes.len() as u64));
        }
        Ok(bytes)
    }

    fn list(&self, rel: &Path) -> Result<Vec<Entry>, FileError> {
        let real = self.resolve(rel)?;
        let io = |e: std::io::Error| FileError::Io {
            path: rel.to_path_buf(),
            message: e.to_string(),
        };
        let meta = std::fs::metadata(&real).map_err(io)?;
        if !meta.is_dir() {
            return Err(FileError::NotRegular {
                path: rel.to_path_buf(),
                what: "not a folder",
            });
        }
        let mut out = Vec::new();
        for e in std::fs::read_dir(&real).map_err(io)? {
            let e = e.map_err(io)?;
            if out.len() >= MAX_FOLDER_ENTRIES {
                return Err(FileError::TooManyEntries {
                    path: rel.to_path_buf(),
                    limit: MAX_FOLDER_ENTRIES,
                });
            }
            let name = e
                .file_name()
                .into_string()
                .map_err(|raw| FileError::NameNotUtf8 {
                    path: rel.join(raw),
                })?;
            // An entry that is no link is where the (real) folder is, and the
            // folder's listing says what it is: no system call. Links are followed
            // (inside the project only); a dangling link is listed as a file, so
            // reading it gives a clear "does not exist".
            let kind = match e.file_type() {
                Ok(t) if t.is_dir() => EntryKind::Folder,
                Ok(t) if t.is_file() => EntryKind::File,
                Ok(t) if !t.is_symlink() => EntryKind::Special,
                _ => {
                    let inside = e
                        .path()
                        .canonicalize()
                        .map_or(true, |real| real.starts_with(&self.canonical));
                    match std::fs::metadata(e.path()) {
                        _ if !inside => EntryKind::Outside,
                        Ok(m) if m.is_dir() => EntryKind::Folder,
                        Ok(m) if m.is_file() => EntryKind::File,
                        Ok(_) => EntryKind::Special,
                        Err(_) => EntryKind::File,
                    }
                }
            };
            out.push(Entry { name, kind });
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    fn kind(&self, rel: &Path) -> Option<EntryKind> {
        let real = self.resolve(rel).ok()?;
        let meta = std::fs::metadata(real).ok()?;
        Some(if meta.is_dir() {
            EntryKind::Folder
        } else if meta.is_file() {
            EntryKind::File
        } else {
            EntryKind::Special
        })
    }
}

/// Project files held in memory: for tests, the live preview and programs that
/// embed cardstock. Keys are `/`-separated relative paths.
#[derive(Debug, Clone, Default)]
pub struct MemoryFiles {
    files: BTreeMap<String, Arc<Vec<u8>>>,
}

impl MemoryFiles {
    /// An empty project.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) a file.
    pub fn insert(&mut self, path: &str, bytes: impl Into<Vec<u8>>) {
        self.files
            .insert(path.trim_matches('/').to_string(), Arc::new(bytes.into()));
    }

    /// Removes a file.
    pub fn remove(&mut self, path: &str) {
        self.files.remove(path.trim_matches('/'));
    }

    fn key(path: &Path) -> Result<String, FileError> {
        check_relative(path)?;
        Ok(path
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"))
    }
}

impl Files for MemoryFiles {
    fn read(&self, path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
        let key = Self::key(path)?;
        match self.files.get(&key) {
            Some(b) if b.len() as u64 > limit => Err(FileError::TooLarge {
                path: path.to_path_buf(),
                size: b.len() as u64,
                limit,
            }),
            Some(b) => Ok(b.to_vec()),
            None if self.kind(path) == Some(EntryKind::Folder) => Err(FileError::NotRegular {
                path: path.to_path_buf(),
                what: "a folder",
            }),
            None => Err(FileError::NotFound {
                path: path.to_path_buf(),
            }),
        }
    }

    fn list(&self, dir: &Path) -> Result<Vec<Entry>, FileError> {
        let prefix = format!("{}/", Self::key(dir)?);
        let mut out: BTreeMap<String, EntryKind> = BTreeMap::new();
        for key in self.files.keys().filter(|k| k.starts_with(&prefix)) {
            let rest = &key[prefix.len()..];
            match rest.split_once('/') {
                Some((folder, _)) => out.insert(folder.to_string(), EntryKind::Folder),
                None => out.insert(rest.to_string(), EntryKind::File),
            };
        }
        if out.is_empty() {
            return Err(FileError::NotFound {
                path: dir.to_path_buf(),
            });
        }
        Ok(out
            .into_iter()
            .map(|(name, kind)| Entry { name, kind })
            .collect())
    }

    fn kind(&self, path: &Path) -> Option<EntryKind> {
        let key = Self::key(path).ok()?;
        if self.files.contains_key(&key) {
            return Some(EntryKind::File);
        }
        let prefix = format!("{key}/");
        self.files
            .keys()
            .any(|k| k.starts_with(&prefix))
            .then_some(EntryKind::Folder)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_files_list_and_read() {
        let mut m = MemoryFiles::new();
        m.insert("data/mini/game.toml", "[game]");
        m.insert("data/mini/art/a.svg", "<svg/>");
        let names: Vec<_> = m
            .list(Path::new("data/mini"))
            .unwrap()
            .into_iter()
            .map(|e| (e.name, e.kind))
            .collect();
        assert_eq!(
            names,
            vec![
                ("art".to_string(), EntryKind::Folder),
                ("game.toml".to_string(), EntryKind::File)
            ]
        );
        assert_eq!(
            m.read(Path::new("data/mini/game.toml"), 100).unwrap(),
            b"[game]"
        );
        assert!(matches!(
            m.read(Path::new("data/mini/game.toml"), 3),
            Err(FileError::TooLarge { size: 6, .. })
        ));
        assert!(matches!(
            m.read(Path::new("../x"), 3),
            Err(FileError::NotInProject { .. })
        ));
    }
}
