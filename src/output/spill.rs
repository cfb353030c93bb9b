//! A build's files kept on disk until they are written: past the memory budget
//! ([`super::MEMORY_BUDGET`]), each new file waits in a private folder of the
//! output folder (`.cardstock-spill-<random>`) instead of in memory, so a build of a
//! thousand faces as PNG holds no more of them than a build of ten. The folder is
//! removed when the build's files are dropped; one a killed build left behind is
//! removed by the next build that writes there ([`remove_stale`]).
//!
//! While a build uses its folder it holds a lock on the `.lock` file in it: a
//! folder whose `.lock` can be locked belongs to no running build.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The prefix of a spill folder's name.
const PREFIX: &str = ".cardstock-spill-";

/// The lock file in a spill folder.
const LOCK: &str = ".lock";

/// One build's spill folder, locked while it lives and removed when dropped
/// (with the folders made for it, if they are left empty: a build that fails
/// after spilling leaves no output folder it did not have).
pub(super) struct Spill {
    /// `None` once dropped.
    dir: Option<tempfile::TempDir>,
    /// The lock on `dir/.lock`, held until the folder is removed.
    _lock: File,
    /// Files written so far (their names: 0, 1, ...).
    next: AtomicUsize,
    /// The folders made for the spill folder, innermost (the output folder) first.
    made: Vec<PathBuf>,
}

impl Spill {
    /// Makes a new spill folder in the output folder `out` (creating `out`).
    pub(super) fn new(out: &Path) -> io::Result<Spill> {
        let made: Vec<PathBuf> = out
            .ancestors()
            .take_while(|a| !a.as_os_str().is_empty() && fs::symlink_metadata(a).is_err())
            .map(Path::to_path_buf)
            .collect();
        fs::create_dir_all(out)?;
        let dir = tempfile::Builder::new().prefix(PREFIX).tempdir_in(out)?;
        let mut options = OpenOptions::new();
        options.create_new(true).read(true).write(true);
        let lock = options.open(dir.path().join(LOCK))?;
        lock.lock()?;
        Ok(Spill {
            dir: Some(dir),
            _lock: lock,
            next: AtomicUsize::new(0),
            made,
        })
    }

    fn path(&self) -> &Path {
        self.dir.as_ref().map_or(Path::new(""), |d| d.path())
    }

    /// Writes `bytes` to a new file in the folder and returns its path. It is
    /// synced to disk when it is staged, if it changed ([`super::write_all`]).
    pub(super) fn keep(&self, bytes: &[u8]) -> io::Result<PathBuf> {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let path = self.path().join(n.to_string());
        let mut f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)?;
        f.write_all(bytes)?;
        Ok(path)
    }
}

impl Drop for Spill {
    fn drop(&mut self) {
        drop(self.dir.take());
        for folder in &self.made {
            // Only an empty folder is removed: one the build wrote into stays.
            if fs::remove_dir(folder).is_err() {
                break;
            }
        }
    }
}

impl std::fmt::Debug for Spill {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Spill({})", self.path().display())
    }
}

/// Removes the spill folders in `out` that no running build holds (a killed
/// build's). A folder whose `.lock` is missing (a build that is making it right
/// now) is left.
pub(super) fn remove_stale(out: &Path) {
    for path in super::folders_named(out, PREFIX) {
        let mut options = OpenOptions::new();
        options.read(true).write(true);
        super::no_follow(&mut options);
        let Ok(lock) = options.open(path.join(LOCK)) else {
            continue;
        };
        if lock.try_lock().is_ok() {
            let _ = fs::remove_dir_all(&path);
        }
    }
}
