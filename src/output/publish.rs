//! Publishing a build's folder (`output/<game>/<profile>/`) whole: the new
//! folder is made beside the old one in a staging folder, then one system call
//! swaps the two (`renameat2` with `RENAME_EXCHANGE`), so a reader sees the old
//! build or the new one, never a mix, and a build killed at any moment leaves one
//! of them. The new folder holds:
//!
//! - the build's files: the changed ones written (synced to disk), the unchanged
//!   ones linked to the old file (a hard link: the same file, time stamps too);
//! - every file of the old folder that no earlier build of this game and profile
//!   wrote, linked too: a designer's notes, a file an earlier build wrote and
//!   someone changed since (its size is not the one the manifest lists);
//! - and nothing else: a file the earlier build wrote (its `manifest.json` lists it,
//!   with its size) that this build does not write is left behind, so stale files
//!   (a `png/` folder of an earlier `--format pdf,png`) go.
//!
//! Where the system cannot swap two folders, the old folder is renamed into the
//! staging folder and the new one into place; the staging folder's `target` file
//! (the journal) names the folder, so a build killed between the two renames is
//! rolled back by the next one ([`recover`]).

use std::collections::{BTreeSet, HashMap};
use std::fs::{self, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::{io, real_folders, real_folders_exist, stage, unchanged, Body, WriteError};

/// The prefix of a staging folder's name.
pub(super) const STAGING: &str = ".cardstock-staging-";

/// The journal in a staging folder: the published folder it is for, relative to
/// the output folder.
const JOURNAL: &str = "target";

/// Largest `manifest.json` read back (one for 20,000 parts is about 2 MB).
const MAX_MANIFEST: u64 = 64 << 20;

/// Publishes `files` (relative to the folder `folder` of the output folder `out`)
/// as the whole content of `folder`, with the files of the old folder that no
/// build wrote (see the module's documentation). Does nothing when every file is
/// unchanged and no stale file is there. The caller holds the output lock.
pub(super) fn publish(
    out: &Path,
    folder: &Path,
    files: &[(PathBuf, &Body)],
) -> Result<(), WriteError> {
    let old = out.join(folder);
    real_folders_exist(out, folder)?;
    for (rel, _) in files {
        real_folders_exist(&old, rel.parent().unwrap_or(Path::new("")))?;
        if fs::symlink_metadata(old.join(rel)).is_ok_and(|m| m.is_dir()) {
            return Err(WriteError::NotAFolder(old.join(rel)));
        }
    }
    let new: BTreeSet<&Path> = files.iter().map(|(p, _)| p.as_path()).collect();
    let written = earlier_build(&old, folder);
    let stale: Vec<&PathBuf> = written
        .keys()
        .filter(|p| !new.contains(p.as_path()) && is_written(&old.join(p), &written, p))
        .collect();
    let same: Vec<bool> = files
        .iter()
        .map(|(rel, body)| unchanged(&old.join(rel), body))
        .collect();
    if stale.is_empty() && same.iter().all(|s| *s) {
        return Ok(());
    }
    // A file found holding the new bytes has changed since: those bytes are gone.
    if let Some(((rel, _), _)) = files
        .iter()
        .zip(&same)
        .find(|((_, body), same)| !**same && matches!(body, Body::Written { .. }))
    {
        return Err(WriteError::ChangedMeanwhile(old.join(rel)));
    }
    let staging = tempfile::Builder::new()
        .prefix(STAGING)
        .tempdir_in(out)
        .map_err(io(out))?;
    journal(staging.path(), folder)?;
    let tree = staging.path().join("tree");
    fs::create_dir(&tree).map_err(io(&tree))?;
    for ((rel, body), same) in files.iter().zip(same) {
        let at = tree.join(rel);
        made_folders(&tree, rel)?;
        // An error names the file being written, not its staging copy.
        let result = if same {
            keep(&old.join(rel), &at)
        } else {
            stage(&at, body)
        };
        result.map_err(io(&old.join(rel)))?;
    }
    carry(&old, &tree, &new, &written)?;
    real_folders(out, folder.parent().unwrap_or(Path::new("")))?;
    swap(&tree, &old, staging.path())?;
    // The old folder (now in the staging folder) goes with it; what fails to go is
    // removed by the next build.
    drop(staging);
    Ok(())
}

/// Writes the journal: the folder `folder` is being replaced.
fn journal(staging: &Path, folder: &Path) -> Result<(), WriteError> {
    let path = staging.join(JOURNAL);
    let mut f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(io(&path))?;
    f.write_all(folder.as_os_str().as_encoded_bytes())
        .and_then(|()| f.sync_all())
        .map_err(io(&path))
}

/// The folder a journal names (read without following a link, at most 4 KB).
fn read_journal(path: &Path) -> Option<PathBuf> {
    let mut options = OpenOptions::new();
    options.read(true);
    super::no_follow(&mut options);
    let mut bytes = Vec::new();
    options
        .open(path)
        .and_then(|f| f.take(4096).read_to_end(&mut bytes))
        .ok()?;
    Some(PathBuf::from(String::from_utf8(bytes).ok()?))
}

/// Makes the folders of `rel` in `tree`.
fn made_folders(tree: &Path, rel: &Path) -> Result<(), WriteError> {
    match rel.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => {
            fs::create_dir_all(tree.join(dir)).map_err(io(&tree.join(dir)))
        }
        _ => Ok(()),
    }
}

/// The files the earlier build wrote into `old` (the published folder `folder`),
/// relative to it, with their sizes, from its `manifest.json`; none when there is
/// no manifest or it cannot be read (then every old file is kept).
fn earlier_build(old: &Path, folder: &Path) -> HashMap<PathBuf, u64> {
    let mut options = OpenOptions::new();
    options.read(true);
    super::no_follow(&mut options);
    let mut text = Vec::new();
    let read = options
        .open(old.join("manifest.json"))
        .and_then(|f| f.take(MAX_MANIFEST + 1).read_to_end(&mut text));
    if read.is_err() || text.len() as u64 > MAX_MANIFEST {
        return HashMap::new();
    }
    let Ok(manifest) = serde_json::from_slice::<serde_json::Value>(&text) else {
        return HashMap::new();
    };
    // Manifest paths are relative to the game's folder (the first part of
    // `folder`): `home/x.pdf`, a reprint's `home/reprint/x.pdf`.
    let top: PathBuf = folder.components().skip(1).collect();
    let files = manifest["files"].as_array().cloned().unwrap_or_default();
    files
        .iter()
        .filter_map(|f| {
            let path = Path::new(f["path"].as_str()?).strip_prefix(&top).ok()?;
            let plain = path
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)));
            (plain && !path.as_os_str().is_empty())
                .then(|| (path.to_path_buf(), f["bytes"].as_u64()))
        })
        .filter_map(|(p, bytes)| Some((p, bytes?)))
        .collect()
}

/// Whether `path` (relative `rel`) is a regular file of the size the earlier
/// build's manifest lists for it: a file that build wrote.
fn is_written(path: &Path, written: &HashMap<PathBuf, u64>, rel: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.is_file() && Some(&m.len()) == written.get(rel))
}

/// Links the file `old` at `at` (copies it, time stamp kept, where the file system
/// cannot link): the same file, untouched.
fn keep(old: &Path, at: &Path) -> std::io::Result<()> {
    if fs::hard_link(old, at).is_ok() {
        return Ok(());
    }
    let meta = fs::symlink_metadata(old)?;
    if meta.file_type().is_symlink() {
        let target = fs::read_link(old)?;
        #[cfg(unix)]
        return std::os::unix::fs::symlink(target, at);
        #[cfg(not(unix))]
        return Err(std::io::Error::other(format!(
            "cannot keep the link to {}",
            target.display()
        )));
    }
    fs::copy(old, at)?;
    let f = OpenOptions::new().write(true).open(at)?;
    if let Ok(t) = meta.modified() {
        f.set_modified(t)?;
    }
    f.sync_all()
}

/// Links into `tree` every entry of the old folder `old` that the new build does
/// not write (`new`) and that the earlier build did not write (`written`, with the
/// size it lists): files no build of cardstock wrote are never lost. A folder the
/// earlier build made is made again only for what it still holds.
fn carry(
    old: &Path,
    tree: &Path,
    new: &BTreeSet<&Path>,
    written: &HashMap<PathBuf, u64>,
) -> Result<(), WriteError> {
    let made: BTreeSet<&Path> = written.keys().flat_map(|p| p.ancestors().skip(1)).collect();
    let mut todo = vec![PathBuf::new()];
    while let Some(dir) = todo.pop() {
        let Ok(entries) = fs::read_dir(old.join(&dir)) else {
            continue;
        };
        if !made.contains(dir.as_path()) {
            fs::create_dir_all(tree.join(&dir)).map_err(io(&old.join(&dir)))?;
        }
        for e in entries {
            let e = e.map_err(io(&old.join(&dir)))?;
            let rel = dir.join(e.file_name());
            let real_dir = e.file_type().is_ok_and(|t| t.is_dir());
            if real_dir {
                todo.push(rel);
            } else if !new.contains(rel.as_path()) && !is_written(&e.path(), written, &rel) {
                made_folders(tree, &rel)?;
                keep(&e.path(), &tree.join(&rel)).map_err(io(&e.path()))?;
            }
        }
    }
    Ok(())
}

/// Puts the folder `tree` in the place of `old`, and `old` (if it exists) in the
/// staging folder, in one step where the system can.
fn swap(tree: &Path, old: &Path, staging: &Path) -> Result<(), WriteError> {
    if fs::symlink_metadata(old).is_err() {
        return fs::rename(tree, old).map_err(io(old));
    }
    match exchange(tree, old) {
        Ok(()) => Ok(()),
        Err(e) if exchange_unsupported(&e) => swap_in_two(tree, old, staging),
        Err(e) => Err(io(old)(e)),
    }
}

/// The two renames where folders cannot be swapped in one: the old folder into
/// the staging folder (as `old`), the new one into place; undone if the second
/// fails, and rolled back by the next build ([`recover`]) if the build dies
/// between them.
pub(super) fn swap_in_two(tree: &Path, old: &Path, staging: &Path) -> Result<(), WriteError> {
    let kept = staging.join("old");
    fs::rename(old, &kept).map_err(io(old))?;
    if let Err(e) = fs::rename(tree, old) {
        let _ = fs::rename(&kept, old);
        return Err(io(old)(e));
    }
    Ok(())
}

/// Swaps two paths in one system call (Linux's `renameat2`).
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let a = CString::new(a.as_os_str().as_bytes())?;
    let b = CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: two valid NUL-terminated paths; renameat2 reads them only.
    let r = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Elsewhere folders are not swapped in one step.
#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}

/// Whether the system (or the file system) cannot swap two folders in one call.
fn exchange_unsupported(e: &std::io::Error) -> bool {
    #[cfg(target_os = "linux")]
    if matches!(
        e.raw_os_error(),
        Some(libc::EINVAL | libc::ENOSYS | libc::EOPNOTSUPP)
    ) {
        return true;
    }
    e.kind() == std::io::ErrorKind::Unsupported
}

/// Cleans up after killed builds in `out` (the caller holds the lock, so no build
/// is using them): a staging folder whose build died between the two renames of
/// [`swap_in_two`] puts the old folder back; every other one is removed. A staging
/// folder without a journal (an older cardstock's) whose `old/` holds a file is
/// kept: that may be the only copy.
pub(super) fn recover(out: &Path) {
    for path in super::folders_named(out, STAGING) {
        let target = read_journal(&path.join(JOURNAL));
        let kept = path.join("old");
        let keeps_something = fs::read_dir(&kept).is_ok_and(|mut d| d.next().is_some());
        match target {
            Some(t) if super::check_plain(&t).is_ok() => {
                let place = out.join(&t);
                let roll_back =
                    fs::symlink_metadata(&kept).is_ok() && fs::symlink_metadata(&place).is_err();
                if roll_back
                    && (real_folders_exist(out, &t).is_err() || fs::rename(&kept, &place).is_err())
                {
                    continue;
                }
            }
            _ if keeps_something => continue,
            _ => {}
        }
        let _ = fs::remove_dir_all(&path);
    }
}
