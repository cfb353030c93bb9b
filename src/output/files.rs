//! A build's files before they are written: each held in memory while a game's
//! files are within [`MEMORY_BUDGET`], past it waiting on disk in the build's spill
//! folder ([`super::spill`]), or found already written (a rebuild), as the
//! [`Sink`] the command chose says.

use std::borrow::Cow;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use super::{check_plain, holds, real_folders_exist, spill};

/// Bytes of a game's files held in memory until they are written. Past it, each
/// new file waits on disk in a private folder of the output folder
/// ([`spill`]), so a build of a thousand face PNGs or SVGs holds no more of them
/// than this: memory stays flat in the number of faces. Every seed game's PDFs
/// fit (the largest game's are 2 MB).
pub const MEMORY_BUDGET: usize = 16 << 20;

/// Where a build's files wait until the command writes them: chosen by the
/// command and passed into the build (`pipeline::build`), so that no stage decides
/// to touch the disk. The stages only hand each file to [`Outputs::body`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Sink<'a> {
    /// Every file in memory: the command writes nothing, or little (`check`,
    /// `printed`, `bench`, the live preview, tests).
    #[default]
    Memory,
    /// In memory up to [`MEMORY_BUDGET`] bytes a game; past it each new file
    /// waits on disk in a private folder of this output folder ([`spill`]), or is
    /// left where it is when the file already written there holds the same bytes:
    /// the commands that write into an output folder (`build`, `watch`,
    /// `reprint`).
    Spill(&'a Path),
}

/// Files a build produced, relative to the output folder, not yet written.
#[derive(Debug, Default)]
pub struct Outputs {
    files: Vec<OutputFile>,
    /// Where files past the memory budget wait; `None`: all are held in memory.
    spill: Option<SpillTo>,
}

/// One file of a build, not yet written.
#[derive(Debug)]
pub struct OutputFile {
    /// Relative to the output folder.
    pub path: PathBuf,
    /// What it is, for the manifest.
    pub what: String,
    pub body: Body,
}

/// A file's bytes: in memory, or, past the memory budget, waiting on disk or
/// found already written.
#[derive(Debug)]
pub enum Body {
    Memory(Vec<u8>),
    /// In the build's spill folder.
    Disk {
        path: PathBuf,
        len: u64,
    },
    /// The very bytes the file in the output folder already holds: left as it is
    /// when written, unless the file changed meanwhile (then the write fails and
    /// leaves every old file).
    Written {
        path: PathBuf,
        stamp: Stamp,
    },
}

/// What a file looked like when its bytes were compared: if any of it changed,
/// so may have the bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
    /// The file itself (device and inode), on Unix.
    id: (u64, u64),
}

impl Stamp {
    /// The stamp of the regular file (not a link) at `path`.
    pub(super) fn of(path: &Path) -> Option<Stamp> {
        let m = fs::symlink_metadata(path).ok()?;
        #[cfg(unix)]
        let id = {
            use std::os::unix::fs::MetadataExt;
            (m.dev(), m.ino())
        };
        #[cfg(not(unix))]
        let id = (0, 0);
        m.is_file().then(|| Stamp {
            len: m.len(),
            modified: m.modified().ok(),
            id,
        })
    }
}

impl Body {
    /// Its length in bytes.
    pub fn len(&self) -> u64 {
        match self {
            Body::Memory(b) => b.len() as u64,
            Body::Disk { len, .. } => *len,
            Body::Written { stamp, .. } => stamp.len,
        }
    }

    /// Whether it has no bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Its bytes (read back from disk if they are there).
    pub fn bytes(&self) -> std::io::Result<Cow<'_, [u8]>> {
        match self {
            Body::Memory(b) => Ok(Cow::Borrowed(b)),
            Body::Disk { path, .. } | Body::Written { path, .. } => fs::read(path).map(Cow::Owned),
        }
    }
}

/// The output folder a build's files spill into past [`MEMORY_BUDGET`], and the
/// bytes held in memory so far.
#[derive(Debug)]
struct SpillTo {
    out: PathBuf,
    /// The game's folder in it, which the files' paths are relative to.
    under: PathBuf,
    budget: usize,
    held: AtomicUsize,
    /// Made when the first file spills; `None` if it could not be made (the files
    /// are then held in memory, and writing them reports what is wrong).
    folder: OnceLock<Option<spill::Spill>>,
}

impl Outputs {
    /// No files yet, for the folder `under` of the output folder (the game's),
    /// waiting where `sink` says.
    pub fn new(sink: Sink, under: &Path) -> Outputs {
        match sink {
            Sink::Memory => Outputs::default(),
            Sink::Spill(out) => Outputs::spilling_into(out, under, MEMORY_BUDGET),
        }
    }

    /// Files for the folder `under` of the output folder `out` ([`write_all`]'s
    /// arguments), that spill to disk, into a private folder of `out`, once
    /// `budget` bytes of them are held in memory.
    pub(crate) fn spilling_into(out: &Path, under: &Path, budget: usize) -> Outputs {
        Outputs {
            files: Vec::new(),
            spill: Some(SpillTo {
                out: out.to_path_buf(),
                under: under.to_path_buf(),
                budget,
                held: AtomicUsize::new(0),
                folder: OnceLock::new(),
            }),
        }
    }

    /// The body of the file `rel` holding `bytes`: in memory while within the
    /// budget; past it, the file already written if it holds these bytes (a
    /// rebuild), else a copy in the spill folder. Safe to call from many threads
    /// (faces rasterised in parallel each spill as soon as they are encoded).
    pub fn body(&self, rel: &Path, bytes: Vec<u8>) -> Body {
        let Some(to) = &self.spill else {
            return Body::Memory(bytes);
        };
        let len = bytes.len();
        if to
            .held
            .fetch_add(len, Ordering::Relaxed)
            .saturating_add(len)
            <= to.budget
        {
            // An encoder's buffer may have twice the room it filled.
            let mut bytes = bytes;
            bytes.shrink_to_fit();
            return Body::Memory(bytes);
        }
        to.held.fetch_sub(len, Ordering::Relaxed);
        let rel = to.under.join(rel);
        let path = to.out.join(&rel);
        let folders_real = check_plain(&rel).is_ok()
            && real_folders_exist(&to.out, rel.parent().unwrap_or(Path::new(""))).is_ok();
        if folders_real {
            let before = Stamp::of(&path);
            if let (true, Some(stamp)) = (holds(&path, &bytes), before) {
                if Stamp::of(&path).as_ref() == Some(&stamp) {
                    return Body::Written { path, stamp };
                }
            }
        }
        let folder = to.folder.get_or_init(|| spill::Spill::new(&to.out).ok());
        match folder.as_ref().map(|f| f.keep(&bytes)) {
            Some(Ok(path)) => Body::Disk {
                path,
                len: len as u64,
            },
            _ => {
                to.held.fetch_add(len, Ordering::Relaxed);
                Body::Memory(bytes)
            }
        }
    }

    /// Adds a file and a short description of it. `rel` must be a plain relative path.
    pub fn add(&mut self, rel: impl Into<PathBuf>, what: impl Into<String>, bytes: Vec<u8>) {
        let rel = rel.into();
        let body = self.body(&rel, bytes);
        self.push(rel, what, body);
    }

    /// Adds a file whose body was made by [`Outputs::body`].
    pub fn push(&mut self, rel: impl Into<PathBuf>, what: impl Into<String>, body: Body) {
        self.files.push(OutputFile {
            path: rel.into(),
            what: what.into(),
            body,
        });
    }

    /// The files, in the order they were added.
    pub fn files(&self) -> &[OutputFile] {
        &self.files
    }

    /// `manifest.json`: every file, its size and what it is.
    pub fn manifest(&self, game: &str, profile: &str) -> Vec<u8> {
        let files: Vec<serde_json::Value> = self
            .files
            .iter()
            .map(|f| serde_json::json!({ "path": f.path.to_string_lossy().replace('\\', "/"), "bytes": f.body.len(), "what": f.what }))
            .collect();
        let v = serde_json::json!({ "game": game, "profile": profile, "files": files });
        let mut out = serde_json::to_vec_pretty(&v).unwrap_or_default();
        out.push(b'\n');
        out
    }
}
