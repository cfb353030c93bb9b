//! The build's files, and writing them: all or nothing, inside the output folder
//! only. A build's folder (`<game>/<profile>/`) is made anew in a private staging
//! folder (created with an unpredictable name) inside the output folder, then
//! swapped for the old one in one step ([`publish`]): a reader, or a build killed
//! at any moment, sees the old build or the new one, never a mix; if any step
//! fails, every old file is left byte-identical. Files the earlier build wrote and
//! this one does not are gone with the old folder; files no build wrote stay. A
//! lock on the output folder keeps two builds from writing at once. No write
//! follows a link: a link where a folder of the output should be is refused, and a
//! link where a file should be is replaced, never written through.

mod files;
mod new_file;
mod publish;
mod spill;

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};

pub use files::{Body, OutputFile, Outputs, Sink, Stamp, MEMORY_BUDGET};
pub use new_file::write_new;

/// Why output could not be written.
#[derive(Debug)]
pub enum WriteError {
    /// A path that is not a plain relative path.
    NotPlain(PathBuf),
    /// A link (or a file) where a folder of the output should be.
    NotAFolder(PathBuf),
    /// The output folder is (or resolves into) the project's sources.
    Protected { out: PathBuf, folder: String },
    /// An output file another program changed while the build ran, after the
    /// build found it already held what it would write.
    ChangedMeanwhile(PathBuf),
    /// The operating system refused.
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::NotPlain(p) => write!(
                f,
                "refusing to write {}: not a plain path inside the output folder",
                p.display()
            ),
            WriteError::NotAFolder(p) => write!(
                f,
                "refusing to write through {}: it is a link or a file, not a folder of the output",
                p.display()
            ),
            WriteError::Protected { out, folder } => write!(
                f,
                "refusing to write output into {}: it holds or is inside the project's {folder}/ folder",
                out.display()
            ),
            WriteError::ChangedMeanwhile(p) => write!(
                f,
                "{} changed while this build ran (another program wrote it)",
                p.display()
            ),
            WriteError::Io { path, error } => {
                let why = match error.kind() {
                    std::io::ErrorKind::StorageFull => "the disk is full: ",
                    std::io::ErrorKind::FileTooLarge => {
                        "the file is larger than this system lets a program write: "
                    }
                    _ => "",
                };
                write!(f, "cannot write {}: {why}{error}", path.display())
            }
        }
    }
}

impl std::error::Error for WriteError {}

impl WriteError {
    /// How to fix it.
    pub fn hint(&self) -> &'static str {
        match self {
            WriteError::NotPlain(_) => "this is a bug in cardstock: please report it",
            WriteError::NotAFolder(_) => {
                "remove the link from the output folder: cardstock writes only into folders it owns"
            }
            WriteError::Protected { .. } => "choose an output folder of its own, e.g. --out output",
            WriteError::ChangedMeanwhile(_) => {
                "build again; the previous output was left as it was"
            }
            WriteError::Io { error, .. } if error.kind() == std::io::ErrorKind::FileTooLarge => {
                "check the file size limit (`ulimit -f`) and free disk space; the previous output was left as it was"
            }
            WriteError::Io { .. } => {
                "check free disk space and permissions; the previous output was left as it was"
            }
        }
    }
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> WriteError + '_ {
    move |error| WriteError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// The project's folders that output must never go into (or contain).
pub const PROTECTED: [&str; 7] = [
    "data",
    "templates",
    "profiles",
    "fonts",
    "src",
    "assets",
    "tests",
];

/// `p` with every link resolved, for a path that may not exist yet (its nearest
/// existing ancestor is resolved).
fn resolved(p: &Path) -> PathBuf {
    let mut existing = p.to_path_buf();
    let mut rest = Vec::new();
    while fs::symlink_metadata(&existing).is_err() {
        match (existing.file_name(), existing.parent()) {
            (Some(n), Some(parent)) => {
                rest.push(n.to_os_string());
                existing = parent.to_path_buf();
            }
            _ => break,
        }
    }
    let mut c = existing.canonicalize().unwrap_or(existing);
    for n in rest.into_iter().rev() {
        c.push(n);
    }
    c
}

/// Checks that `out` (links resolved) is not one of the project's source folders,
/// inside one, or a parent of one.
pub fn check_out_dir(root: &Path, out: &Path) -> Result<(), WriteError> {
    let out_real = resolved(out);
    let root = resolved(root);
    for protected in PROTECTED {
        let p = root.join(protected);
        if out_real.starts_with(&p) || p.starts_with(&out_real) {
            return Err(WriteError::Protected {
                out: out.to_path_buf(),
                folder: protected.to_string(),
            });
        }
    }
    Ok(())
}

/// A lock on an output folder, held while a build writes into it.
pub struct Lock {
    _file: File,
}

/// Locks `out` (creating it): waits while another cardstock process writes there,
/// calling `waiting` once first.
pub fn lock(out: &Path, waiting: impl FnOnce()) -> Result<Lock, WriteError> {
    fs::create_dir_all(out).map_err(io(out))?;
    let path = out.join(".cardstock.lock");
    let mut options = OpenOptions::new();
    options.create(true).truncate(false).read(true).write(true);
    no_follow(&mut options);
    let file = options.open(&path).map_err(io(&path))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(fs::TryLockError::WouldBlock) => {
            waiting();
            file.lock().map_err(io(&path))?;
        }
        Err(fs::TryLockError::Error(e)) => return Err(io(&path)(e)),
    }
    Ok(Lock { _file: file })
}

/// Opening never follows a link in the last component (Unix).
fn no_follow(options: &mut OpenOptions) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    #[cfg(not(unix))]
    let _ = options;
}

fn check_plain(rel: &Path) -> Result<(), WriteError> {
    if rel.as_os_str().is_empty() || !rel.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err(WriteError::NotPlain(rel.to_path_buf()));
    }
    Ok(())
}

/// Makes sure every folder from `out` down to `dir` is a real folder (creating the
/// missing ones), never a link.
fn real_folders(out: &Path, rel_dir: &Path) -> Result<(), WriteError> {
    let mut dir = out.to_path_buf();
    for c in rel_dir.components() {
        dir.push(c);
        match fs::symlink_metadata(&dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => return Err(WriteError::NotAFolder(dir)),
            Err(_) => match fs::create_dir(&dir) {
                Ok(()) => {}
                // Made meanwhile by another thread (faces are written in parallel):
                // fine if it is a real folder.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    if !fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir()) {
                        return Err(WriteError::NotAFolder(dir));
                    }
                }
                Err(e) => return Err(io(&dir)(e)),
            },
        }
    }
    Ok(())
}

/// Checks that the folders from `out` down to `dir` that exist are real folders,
/// never links (creating none).
fn real_folders_exist(out: &Path, rel_dir: &Path) -> Result<(), WriteError> {
    let mut dir = out.to_path_buf();
    for c in rel_dir.components() {
        dir.push(c);
        match fs::symlink_metadata(&dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => return Err(WriteError::NotAFolder(dir)),
            Err(_) => return Ok(()),
        }
    }
    Ok(())
}

/// Whether `path` is a regular file (not a link) holding exactly `body`.
fn unchanged(path: &Path, body: &Body) -> bool {
    match body {
        Body::Memory(bytes) => holds(path, bytes),
        // It waits on disk because the file did not hold its bytes when they were
        // made (`Outputs::body` compares before spilling): not read again here.
        Body::Disk { .. } => false,
        Body::Written { stamp, .. } => Stamp::of(path).as_ref() == Some(stamp),
    }
}

/// Whether `path` is a regular file (not a link) holding exactly `bytes`.
fn holds(path: &Path, bytes: &[u8]) -> bool {
    let Ok(meta) = fs::symlink_metadata(path) else {
        return false;
    };
    if !meta.is_file() || meta.len() != bytes.len() as u64 {
        return false;
    }
    let mut options = OpenOptions::new();
    options.read(true);
    no_follow(&mut options);
    let mut old = Vec::with_capacity(bytes.len());
    options
        .open(path)
        .and_then(|f| f.take(bytes.len() as u64 + 1).read_to_end(&mut old))
        .is_ok_and(|_| old == bytes)
}

/// Puts `body` at `path` (a new file in the staging folder), synced to disk. A
/// body waiting on disk is linked there (copied where the file system cannot
/// link), so the build's files stay whole until they are dropped.
fn stage(path: &Path, body: &Body) -> std::io::Result<()> {
    match body {
        Body::Memory(bytes) => {
            let mut f = OpenOptions::new().write(true).create_new(true).open(path)?;
            f.write_all(bytes)?;
            f.sync_all()
        }
        Body::Disk { path: kept, .. } => {
            if fs::hard_link(kept, path).is_err() {
                fs::copy(kept, path)?;
            }
            File::open(path)?.sync_all()
        }
        // Checked unchanged before anything is staged.
        Body::Written { .. } => Ok(()),
    }
}

/// The real folders (no links) in `out` whose names start with `prefix`.
fn folders_named(out: &Path, prefix: &str) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(out) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(prefix))
        .map(|e| e.path())
        .filter(|path| fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()))
        .collect()
}

/// Writes every file of `outputs` into the folder `under` (a plain relative path,
/// e.g. the game's id) of the output folder `out`, all or nothing (see the
/// module's documentation). Every file is in a folder of `under` (the profile's),
/// and each such folder is published whole: it then holds this build's files and
/// those no build wrote. `out` may be a link (it was checked by
/// [`check_out_dir`]); every folder below it must be a real folder. Files whose
/// bytes did not change are left alone, time stamps too. The caller holds the
/// folder's [`lock`].
pub fn write_all(outputs: &Outputs, out: &Path, under: &Path) -> Result<(), WriteError> {
    fs::create_dir_all(out).map_err(io(out))?;
    publish::recover(out);
    spill::remove_stale(out);
    let mut folders: std::collections::BTreeMap<PathBuf, Vec<(PathBuf, &Body)>> =
        Default::default();
    for f in outputs.files() {
        check_plain(&under.join(&f.path))?;
        let mut parts = f.path.components();
        let top = parts.next().map(|c| under.join(c));
        match (top, parts.as_path()) {
            (Some(top), rest) if !rest.as_os_str().is_empty() => folders
                .entry(top)
                .or_default()
                .push((rest.to_path_buf(), &f.body)),
            _ => return Err(WriteError::NotPlain(under.join(&f.path))),
        }
    }
    for (folder, files) in &folders {
        publish::publish(out, folder, files)?;
    }
    Ok(())
}

/// Writes `outputs`, every one of them in the folder `folder` of `under` (a
/// reprint's `home/reprint` of the game's folder), publishing that folder alone,
/// whole ([`publish`]): the files its earlier manifest lists that this write does
/// not have go, and the rest of `under` (the build's files) stays as it is. The
/// caller holds the folder's [`lock`].
pub fn write_folder(
    outputs: &Outputs,
    out: &Path,
    under: &Path,
    folder: &Path,
) -> Result<(), WriteError> {
    fs::create_dir_all(out).map_err(io(out))?;
    publish::recover(out);
    spill::remove_stale(out);
    let mut files = Vec::new();
    for f in outputs.files() {
        check_plain(&under.join(&f.path))?;
        match f.path.strip_prefix(folder) {
            Ok(rest) if !rest.as_os_str().is_empty() => files.push((rest.to_path_buf(), &f.body)),
            _ => return Err(WriteError::NotPlain(under.join(&f.path))),
        }
    }
    publish::publish(out, &under.join(folder), &files)
}

/// Rasterised faces kept in a folder of the output (`output/<game>/.cache/`). Only
/// regular files are read from it, never through a link; a cache that cannot be
/// read or written only costs time.
pub struct DiskPngCache {
    out: PathBuf,
    rel: PathBuf,
}

/// Largest cached PNG read back.
const MAX_CACHED_PNG: u64 = 512 * 1024 * 1024;

impl DiskPngCache {
    /// A cache in `out/rel_dir` (created when the first face is stored); not
    /// used where any folder on the way is a link.
    pub fn new(out: &Path, rel_dir: &Path) -> DiskPngCache {
        DiskPngCache {
            out: out.to_path_buf(),
            rel: rel_dir.to_path_buf(),
        }
    }

    /// The cache folder, if it exists and every folder down to it is real.
    fn dir(&self) -> Option<PathBuf> {
        check_plain(&self.rel).ok()?;
        let mut dir = self.out.clone();
        for c in self.rel.components() {
            dir.push(c);
            if !fs::symlink_metadata(&dir).ok()?.is_dir() {
                return None;
            }
        }
        Some(dir)
    }
}

impl crate::export::png::PngCache for DiskPngCache {
    fn get(&self, key: &str) -> Option<Vec<u8>> {
        let path = self.dir()?.join(format!("{key}.png"));
        let mut options = OpenOptions::new();
        options.read(true);
        no_follow(&mut options);
        let f = options.open(path).ok()?;
        let meta = f.metadata().ok()?;
        if !meta.is_file() || meta.len() > MAX_CACHED_PNG {
            return None;
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        f.take(MAX_CACHED_PNG).read_to_end(&mut bytes).ok()?;
        bytes.starts_with(b"\x89PNG").then_some(bytes)
    }

    fn put(&self, key: &str, png: &[u8]) {
        if check_plain(&self.rel).is_err()
            || fs::create_dir_all(&self.out).is_err()
            || real_folders(&self.out, &self.rel).is_err()
        {
            return;
        }
        let Some(dir) = self.dir() else { return };
        if let Ok(mut tmp) = tempfile::NamedTempFile::new_in(&dir) {
            if tmp.write_all(png).is_ok() {
                let _ = tmp.persist(dir.join(format!("{key}.png")));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Files `(path, bytes)`, held in memory, or with `spill: Some((out, under))`
    /// spilling into `out` from the first byte on.
    fn outputs(spill: Option<(&Path, &str)>, files: &[(&str, &[u8])]) -> Outputs {
        let mut o = match spill {
            Some((out, under)) => Outputs::spilling_into(out, Path::new(under), 0),
            None => Outputs::default(),
        };
        for (path, bytes) in files {
            o.add(*path, "", bytes.to_vec());
        }
        o
    }

    #[test]
    fn threads_making_the_same_cache_folder_all_succeed() {
        // Faces are rasterised in parallel and the first ones all make the cache
        // folder: the losers of that race used to skip storing their PNG.
        for round in 0..20 {
            let tmp = tempfile::tempdir().unwrap();
            let rel = Path::new("game").join(".cache");
            let cache = DiskPngCache::new(tmp.path(), &rel);
            std::thread::scope(|s| {
                for t in 0..8 {
                    let cache = &cache;
                    s.spawn(move || {
                        use crate::export::png::PngCache;
                        cache.put(&format!("face{t}"), b"\x89PNG stand-in");
                    });
                }
            });
            let stored = fs::read_dir(tmp.path().join(&rel)).unwrap().count();
            assert_eq!(stored, 8, "round {round}");
        }
    }

    #[test]
    fn a_failed_write_leaves_every_old_file() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path();
        let home = out.join("game/home");
        fs::create_dir_all(home.join("sub")).unwrap();
        fs::write(home.join("a.pdf"), b"old a").unwrap();
        fs::write(home.join("sub/b.png"), b"old b").unwrap();
        // `c/` is a file where a folder is needed: the write fails.
        fs::write(home.join("c"), b"a file").unwrap();
        let o = outputs(
            None,
            &[
                ("home/a.pdf", b"new a"),
                ("home/sub/b.png", b"new b"),
                ("home/c/d.png", b"new d"),
            ],
        );
        let e = write_all(&o, out, Path::new("game")).unwrap_err();
        assert!(matches!(e, WriteError::NotAFolder(_)), "{e}");
        assert_eq!(fs::read(home.join("a.pdf")).unwrap(), b"old a");
        assert_eq!(fs::read(home.join("sub/b.png")).unwrap(), b"old b");
        assert_eq!(named(out, ""), ["game"], "no staging folder left");
    }

    #[test]
    fn a_killed_builds_staging_folder_is_removed_or_rolled_back() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path();
        // Died while staging: a journal and part of the new folder.
        fs::create_dir_all(out.join(".cardstock-staging-a/tree")).unwrap();
        fs::write(out.join(".cardstock-staging-a/target"), b"game/home").unwrap();
        fs::write(out.join(".cardstock-staging-a/tree/x.pdf"), b"half").unwrap();
        // An older cardstock died while moving: an old file kept aside, no journal.
        fs::create_dir_all(out.join(".cardstock-staging-b/old")).unwrap();
        fs::write(out.join(".cardstock-staging-b/old/0"), b"old a").unwrap();
        // Died between the two renames where folders cannot be swapped in one:
        // the old folder is put back.
        fs::create_dir_all(out.join(".cardstock-staging-c/old")).unwrap();
        fs::create_dir(out.join("other")).unwrap();
        fs::write(out.join(".cardstock-staging-c/target"), b"other/home").unwrap();
        fs::write(out.join(".cardstock-staging-c/old/o.pdf"), b"old o").unwrap();
        let o = outputs(None, &[("home/a.pdf", b"new a")]);
        write_all(&o, out, Path::new("game")).unwrap();
        assert_eq!(fs::read(out.join("other/home/o.pdf")).unwrap(), b"old o");
        assert_eq!(
            fs::read(out.join(".cardstock-staging-b/old/0")).unwrap(),
            b"old a"
        );
        assert_eq!(named(out, publish::STAGING), [".cardstock-staging-b"]);
        assert_eq!(fs::read(out.join("game/home/a.pdf")).unwrap(), b"new a");
    }

    #[test]
    fn folders_that_cannot_be_swapped_in_one_step_are_renamed_in_two() {
        let tmp = tempfile::tempdir().unwrap();
        let (tree, old, staging) = (
            tmp.path().join("tree"),
            tmp.path().join("home"),
            tmp.path().join("staging"),
        );
        for (dir, file) in [(&tree, "new.pdf"), (&old, "old.pdf")] {
            fs::create_dir(dir).unwrap();
            fs::write(dir.join(file), b"x").unwrap();
        }
        fs::create_dir(&staging).unwrap();
        publish::swap_in_two(&tree, &old, &staging).unwrap();
        assert!(old.join("new.pdf").exists() && staging.join("old/old.pdf").exists());
        assert!(!tree.exists());
    }

    #[test]
    fn stale_files_of_the_earlier_build_go_and_no_other_file() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path();
        let home = out.join("game/home");
        let build = |files: &[(&str, &[u8])]| {
            let mut o = outputs(None, files);
            let manifest = o.manifest("game", "home");
            o.add("home/manifest.json", "this list", manifest);
            write_all(&o, out, Path::new("game")).unwrap();
        };
        build(&[
            ("home/game.pdf", b"pdf"),
            ("home/png/cards/001.png", b"png 1"),
            ("home/png/cards/002.png", b"png 2"),
        ]);
        // What the designer put there, and a file the build wrote that someone
        // changed since (another size than the manifest's).
        fs::write(home.join("notes.txt"), b"mine").unwrap();
        fs::write(home.join("png/cards/mine.png"), b"mine too").unwrap();
        fs::write(home.join("png/cards/002.png"), b"edited by hand").unwrap();
        fs::create_dir_all(home.join("empty")).unwrap();
        let pdf = Stamp::of(&home.join("game.pdf")).unwrap();
        build(&[("home/game.pdf", b"pdf")]);
        let mut left: Vec<String> = Vec::new();
        let mut todo = vec![home.clone()];
        while let Some(d) = todo.pop() {
            for e in fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    todo.push(p.clone());
                }
                left.push(p.strip_prefix(&home).unwrap().display().to_string());
            }
        }
        left.sort();
        assert_eq!(
            left,
            [
                "empty",
                "game.pdf",
                "manifest.json",
                "notes.txt",
                "png",
                "png/cards",
                "png/cards/002.png",
                "png/cards/mine.png"
            ]
        );
        assert_eq!(Stamp::of(&home.join("game.pdf")), Some(pdf), "left alone");
        assert_eq!(named(out, ""), ["game"]);
    }

    /// The names in `dir` that start with `prefix`.
    fn named(dir: &Path, prefix: &str) -> Vec<String> {
        fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(prefix))
            .collect()
    }

    #[test]
    fn files_past_the_budget_wait_on_disk_and_are_written_whole() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path();
        let mut o = Outputs::spilling_into(out, Path::new("game"), 10);
        o.add("home/a.svg", "", b"small".to_vec());
        o.add("home/sub/b.png", "", vec![7; 100_000]);
        o.add("home/c.svg", "", b"also over".to_vec());
        let kinds: Vec<_> = o.files().iter().map(|f| &f.body).collect();
        assert!(matches!(kinds[0], Body::Memory(_)), "{kinds:?}");
        assert!(
            matches!(kinds[1], Body::Disk { len: 100_000, .. }),
            "{kinds:?}"
        );
        assert!(matches!(kinds[2], Body::Disk { .. }), "{kinds:?}");
        assert_eq!(named(out, ".cardstock-spill-").len(), 1);
        assert!(String::from_utf8(o.manifest("g", "home"))
            .unwrap()
            .contains("\"bytes\": 100000"));
        write_all(&o, out, Path::new("game")).unwrap();
        assert_eq!(fs::read(out.join("game/home/a.svg")).unwrap(), b"small");
        assert_eq!(
            fs::read(out.join("game/home/sub/b.png")).unwrap(),
            vec![7; 100_000]
        );
        assert_eq!(fs::read(out.join("game/home/c.svg")).unwrap(), b"also over");
        drop(o);
        assert_eq!(named(out, ".cardstock-"), Vec::<String>::new());
    }

    #[test]
    fn a_rebuild_leaves_files_it_finds_already_written() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path();
        let build = |bytes: &[u8]| outputs(Some((out, "game")), &[("home/big.png", bytes)]);
        write_all(&build(b"first"), out, Path::new("game")).unwrap();
        let written = Stamp::of(&out.join("game/home/big.png")).unwrap();
        // The same bytes again: found written, neither spilled nor written.
        let again = build(b"first");
        assert!(matches!(again.files()[0].body, Body::Written { .. }));
        assert_eq!(named(out, ".cardstock-spill-"), Vec::<String>::new());
        write_all(&again, out, Path::new("game")).unwrap();
        assert_eq!(Stamp::of(&out.join("game/home/big.png")), Some(written));
        // Changed by another program after the build compared it: nothing is
        // written, and the write says so.
        let again = build(b"first");
        fs::write(out.join("game/home/big.png"), b"other").unwrap();
        let e = write_all(&again, out, Path::new("game")).unwrap_err();
        assert!(matches!(e, WriteError::ChangedMeanwhile(_)), "{e}");
        assert!(
            e.to_string()
                .ends_with("big.png changed while this build ran (another program wrote it)"),
            "{e}"
        );
        assert_eq!(fs::read(out.join("game/home/big.png")).unwrap(), b"other");
    }

    #[test]
    fn a_failed_write_of_spilled_files_leaves_every_old_file() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path();
        fs::create_dir_all(out.join("game/home")).unwrap();
        fs::write(out.join("game/home/a.png"), b"old a").unwrap();
        fs::write(out.join("game/home/c"), b"a file where a folder goes").unwrap();
        let o = outputs(
            Some((out, "game")),
            &[("home/a.png", b"new a"), ("home/c/d.png", b"new d")],
        );
        assert!(matches!(o.files()[0].body, Body::Disk { .. }));
        let e = write_all(&o, out, Path::new("game")).unwrap_err();
        assert!(matches!(e, WriteError::NotAFolder(_)), "{e}");
        assert_eq!(fs::read(out.join("game/home/a.png")).unwrap(), b"old a");
        // No staging folder is left; this build's spill folder goes with its files.
        assert_eq!(named(out, ".cardstock-staging-"), Vec::<String>::new());
        assert_eq!(named(out, ".cardstock-spill-").len(), 1);
        drop(o);
        assert_eq!(named(out, ".cardstock-spill-"), Vec::<String>::new());
    }

    #[test]
    fn a_build_that_spilled_and_failed_leaves_no_output_folder_it_made() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("new/output");
        let o = outputs(Some((&out, "game")), &[("home/a.png", b"spilled")]);
        assert!(matches!(o.files()[0].body, Body::Disk { .. }));
        assert!(out.is_dir());
        drop(o);
        assert!(!tmp.path().join("new").exists());
        // One it wrote into stays.
        let o = outputs(Some((&out, "game")), &[("home/a.png", b"spilled")]);
        write_all(&o, &out, Path::new("game")).unwrap();
        drop(o);
        assert_eq!(fs::read(out.join("game/home/a.png")).unwrap(), b"spilled");
    }

    #[test]
    fn a_killed_builds_spill_folder_is_removed_but_not_a_running_ones() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path();
        // A killed build's: its lock file is there, and nobody holds it.
        fs::create_dir(out.join(".cardstock-spill-dead")).unwrap();
        fs::write(out.join(".cardstock-spill-dead/.lock"), b"").unwrap();
        fs::write(out.join(".cardstock-spill-dead/0"), b"leftover").unwrap();
        // A running build's (another Outputs spilling into the same folder).
        let running = outputs(Some((out, "other")), &[("home/x.png", b"waiting")]);
        let o = outputs(None, &[("home/a.pdf", b"new a")]);
        write_all(&o, out, Path::new("game")).unwrap();
        assert!(!out.join(".cardstock-spill-dead").exists());
        assert_eq!(named(out, ".cardstock-spill-").len(), 1);
        write_all(&running, out, Path::new("other")).unwrap();
        assert_eq!(fs::read(out.join("other/home/x.png")).unwrap(), b"waiting");
    }

    #[cfg(unix)]
    #[test]
    fn links_in_the_output_are_never_written_through() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tmp.path().join("outside");
        fs::create_dir(&outside).unwrap();
        fs::write(outside.join("victim.pdf"), b"precious").unwrap();
        let out = tmp.path().join("out");
        fs::create_dir(&out).unwrap();
        // A link at a file's place is replaced; a link at a folder's place is refused.
        fs::create_dir(out.join("g")).unwrap();
        std::os::unix::fs::symlink(outside.join("victim.pdf"), out.join("g/a.pdf")).unwrap();
        let o = outputs(None, &[("g/a.pdf", b"new")]);
        write_all(&o, &out, Path::new("")).unwrap();
        assert_eq!(fs::read(outside.join("victim.pdf")).unwrap(), b"precious");
        assert_eq!(fs::read(out.join("g/a.pdf")).unwrap(), b"new");
        assert!(!out.join("g/a.pdf").is_symlink());
        std::os::unix::fs::symlink(&outside, out.join("game")).unwrap();
        let o = outputs(None, &[("game/victim.pdf", b"overwritten")]);
        assert!(matches!(
            write_all(&o, &out, Path::new("")),
            Err(WriteError::NotAFolder(_))
        ));
        assert_eq!(fs::read(outside.join("victim.pdf")).unwrap(), b"precious");
        // The game's folder itself a link (say, into the project's data): refused.
        let o = outputs(None, &[("home/a.pdf", b"into the link")]);
        assert!(matches!(
            write_all(&o, &out, Path::new("game")),
            Err(WriteError::NotAFolder(_))
        ));
        assert!(!outside.join("home").exists());
    }
}
