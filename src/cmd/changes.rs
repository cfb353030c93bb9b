//! Noticing saves, for `watch` and `serve`: the folders a build reads, a fingerprint
//! of their files, and a wait for the next file-system event.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, SystemTime};

/// The folders whose files a build reads.
pub const WATCHED: [&str; 4] = ["data", "templates", "profiles", "fonts"];

/// Every file a build reads: path, size and modification time, sorted.
pub type Fingerprint = Vec<(PathBuf, u64, SystemTime)>;

/// A fingerprint of every file under the watched folders but editors' leftovers
/// (a backup `x~` that vim removes after its save must not start a second build).
pub fn fingerprint(root: &Path) -> Fingerprint {
    let mut out = Vec::new();
    for dir in WATCHED {
        walk(&root.join(dir), &mut out, 0);
    }
    out.sort();
    out
}

fn walk(dir: &Path, out: &mut Fingerprint, depth: usize) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let Ok(meta) = e.metadata() else { continue };
        if meta.is_dir() && depth < 8 {
            walk(&e.path(), out, depth + 1);
        } else if meta.is_file() && !leftover(&e.path()) {
            out.push((
                e.path(),
                meta.len(),
                meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
            ));
        }
    }
}

/// Whether a file other than data (TOML or a spreadsheet), a template (`.svg`) or
/// an editor's leftover (`x~`, `.x.swp`, `.#x`, vim's `4913`) was added, removed or
/// changed between two fingerprints: an image a face links to, or a font. Parsed
/// faces are cached by their SVG text and the fonts' names, which do not change
/// with the image, so the cache must then be dropped.
pub fn art_changed(old: &Fingerprint, new: &Fingerprint) -> bool {
    const NOT_ART: [&str; 7] = ["toml", "svg", "csv", "tsv", "xlsx", "xlsm", "ods"];
    let not_art = |p: &Path| {
        let ext = p
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        ext.is_some_and(|e| NOT_ART.contains(&e.as_str())) || leftover(p)
    };
    let (a, b): (std::collections::BTreeSet<_>, std::collections::BTreeSet<_>) =
        (old.iter().collect(), new.iter().collect());
    a.symmetric_difference(&b).any(|(p, ..)| !not_art(p))
}

/// How long no file-system event must come before a save counts as finished,
/// unless the save's own events already say it is (see [`Changes::wait`]).
///
/// A save is finished early, at the event that completes it, only when that is
/// sound: a file the project reads ([`reads`]) was closed after writing
/// (inotify's `IN_CLOSE_WRITE`) or renamed into place, and every file the project
/// reads that this burst of events removed, renamed away, created or opened for
/// writing has since been closed or put back. That covers the ways editors save:
/// vim (probe file `4913`, the file renamed to `x~`, a new one written and
/// closed; or with `backupcopy=yes`, a copy to `x~` and the file rewritten in
/// place), an atomic save (a temporary file renamed over the old one: `sed -i`,
/// JetBrains' "safe write", editors set to save atomically), and a plain
/// truncate-and-write (most editors, VS Code's default); each is
/// replayed against the real watcher in this module's tests, which read the file
/// at the moment the wait ends and find the saved text. Ending at any file's close
/// was not sound: vim's probe `4913` closes before the file is renamed away, and
/// a build started there found a table missing (2026-11-25). The window stays
/// for every other burst: a removal or rename that nothing put back, a folder,
/// an overflow of the event queue, a change of a file's time or mode only, or a
/// file the project does not name by kind (the 10 ms are a fifth of the preview's
/// 50 ms budget, spent only where the events do not say the save is over).
///
/// What no rule can see: a tool that saves several files one after another
/// (a `git checkout`) ends the wait at the first file's close if nothing else is
/// open yet; that build may see the next file old, missing or half-written. The
/// next file's events start another build at once, and `serve` does not show a
/// build that failed while more events came ([`Changes::came`]): the page keeps
/// the last good build until the build of the final state (the 10 ms window had
/// the same limit for steps further apart, and showed such a failure).
pub const QUIET: Duration = Duration::from_millis(10);

/// The kinds of file a build reads, by extension: data, templates, the
/// rulebook, pictures and fonts. Only a save of one of these can end a wait
/// early ([`QUIET`]).
const READ_KINDS: [&str; 19] = [
    "toml", "md", "svg", "csv", "tsv", "xlsx", "xlsm", "xls", "ods", "png", "jpg", "jpeg", "gif",
    "webp", "ttf", "otf", "ttc", "woff", "woff2",
];

/// Whether `path` is an editor's leftover rather than a file of the project:
/// a backup (`x~`), a swap file (`.x.swp`), a lock (`.#x`), vim's probe `4913`,
/// JetBrains' `x___jb_tmp___` and `x___jb_old___`, or a `.tmp` file.
fn leftover(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    ext.is_some_and(|e| ["swp", "swo", "swx", "tmp"].contains(&e.as_str()))
        || name.ends_with('~')
        || name.starts_with(".#")
        || name.contains("___jb_")
        || name == "4913"
}

/// Whether a build reads a file at `path`, by its kind (see [`READ_KINDS`]).
fn reads(path: &Path) -> bool {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    !leftover(path) && ext.is_some_and(|e| READ_KINDS.contains(&e.as_str()))
}

/// One file-system event, as far as the end of a save is concerned.
#[derive(Debug)]
enum Step {
    /// A file was created, or its content changed: it may be half-written.
    Writing(PathBuf),
    /// A file was closed after writing.
    Written(PathBuf),
    /// A file was renamed to this path (a whole file put in place).
    Placed(PathBuf),
    /// A file was removed or renamed away from this path.
    Gone(PathBuf),
    /// Anything else that changed something (a time, a mode, a folder).
    Other,
    /// The events are not complete (the queue overflowed) or not understood.
    Unsure,
}

impl Step {
    /// The step an event is, or `None` for one that changes nothing (opening or
    /// reading a file: a build's own reads).
    fn of(e: &notify::Event) -> Option<Step> {
        use notify::event::{AccessKind, AccessMode, CreateKind, EventKind, ModifyKind};
        use notify::event::{RemoveKind, RenameMode};
        let path = || e.paths.first().cloned();
        if e.need_rescan() {
            return Some(Step::Unsure);
        }
        Some(match e.kind {
            EventKind::Access(AccessKind::Close(AccessMode::Write)) => Step::Written(path()?),
            EventKind::Access(_) => return None,
            // The `To` event of the pair already said it.
            EventKind::Modify(ModifyKind::Name(RenameMode::Both)) => return None,
            EventKind::Modify(ModifyKind::Name(RenameMode::To)) => Step::Placed(path()?),
            EventKind::Modify(ModifyKind::Name(RenameMode::From))
            | EventKind::Remove(RemoveKind::File) => Step::Gone(path()?),
            EventKind::Modify(ModifyKind::Data(_)) | EventKind::Create(CreateKind::File) => {
                Step::Writing(path()?)
            }
            EventKind::Modify(ModifyKind::Metadata(_)) => Step::Other,
            _ => Step::Unsure,
        })
    }
}

/// The events of one save so far: whether they say it is finished.
#[derive(Default)]
struct Save {
    /// Files the build reads that are being written, or are missing, until
    /// closed or put back.
    unfinished: std::collections::BTreeSet<PathBuf>,
    unsure: bool,
}

impl Save {
    /// Notes one step; true when it finished the save (see [`QUIET`]).
    fn finished_by(&mut self, step: Step) -> bool {
        match step {
            Step::Writing(p) | Step::Gone(p) if reads(&p) => {
                self.unfinished.insert(p);
            }
            Step::Written(p) | Step::Placed(p) if reads(&p) => {
                self.unfinished.remove(&p);
                return !self.unsure && self.unfinished.is_empty();
            }
            Step::Unsure => self.unsure = true,
            _ => {}
        }
        false
    }
}

/// How a wait for a change ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Ended {
    /// At the event that finished a save (see [`QUIET`]).
    Saved,
    /// After the events stopped for [`QUIET`].
    Quiet,
    /// With no change (a second passed, or there are no file-system events).
    Idle,
}

/// Waits for the next change under the watched folders: file-system events where
/// the OS gives them (inotify and the like), so a save starts a build at once; else,
/// and once a second in any case, a look at the fingerprint.
pub struct Changes {
    events: Option<(notify::RecommendedWatcher, mpsc::Receiver<Step>)>,
    /// An event [`Changes::came`] took, for the next wait.
    early: std::cell::Cell<Option<Step>>,
}

impl Changes {
    /// Starts watching the project at `root`.
    pub fn new(root: &Path) -> Self {
        let (tx, rx) = mpsc::channel();
        let watcher = notify::recommended_watcher(move |e: notify::Result<notify::Event>| {
            // Reading a file or listing a folder is an event too (inotify reports
            // opens and reads): only a change counts, or every build and every
            // fingerprint would wake the next one.
            let step = match e {
                Ok(e) => Step::of(&e),
                Err(_) => Some(Step::Unsure),
            };
            if let Some(step) = step {
                let _ = tx.send(step);
            }
        });
        let events = watcher.ok().and_then(|mut w| {
            use notify::Watcher;
            let mut any = false;
            for dir in WATCHED {
                let dir = root.join(dir);
                if dir.is_dir() {
                    any |= w.watch(&dir, notify::RecursiveMode::Recursive).is_ok();
                }
            }
            any.then_some((w, rx))
        });
        Changes {
            events,
            early: std::cell::Cell::new(None),
        }
    }

    /// Whether a change came since the last wait ended (a build may have read a
    /// save half-done); the next wait starts from it.
    pub fn came(&self) -> bool {
        let Some((_, rx)) = &self.events else {
            return false;
        };
        let step = self.early.take().or_else(|| rx.try_recv().ok());
        let came = step.is_some();
        self.early.set(step);
        came
    }

    /// Returns after the next change, once its save is finished: at the event
    /// that finishes it where the events say so, else when [`QUIET`] passed
    /// without one; or after a second without a change.
    pub fn wait(&self) -> Ended {
        self.wait_for(QUIET)
    }

    fn wait_for(&self, quiet: Duration) -> Ended {
        let Some((_, rx)) = &self.events else {
            std::thread::sleep(Duration::from_millis(100));
            return Ended::Idle;
        };
        let first = self.early.take().map(Ok);
        let Ok(first) = first.unwrap_or_else(|| rx.recv_timeout(Duration::from_secs(1))) else {
            return Ended::Idle;
        };
        let mut save = Save::default();
        if save.finished_by(first) {
            return Ended::Saved;
        }
        while let Ok(step) = rx.recv_timeout(quiet) {
            if save.finished_by(step) {
                return Ended::Saved;
            }
        }
        Ended::Quiet
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_changed_image_drops_parsed_faces() {
        let t = SystemTime::UNIX_EPOCH;
        let later = t + Duration::from_secs(1);
        let base: Fingerprint = vec![
            ("data/g/cards.toml".into(), 10, t),
            ("templates/g/card.svg".into(), 20, t),
            ("templates/g/art.png".into(), 30, t),
        ];
        let mut edited = base.clone();
        edited[0].2 = later;
        edited[1].1 = 21;
        assert!(!art_changed(&base, &edited));
        let mut art = base.clone();
        art[2].2 = later;
        assert!(art_changed(&base, &art));
        let mut added = base.clone();
        added.push(("templates/g/new.jpg".into(), 1, t));
        assert!(art_changed(&base, &added));
        for leftover in [
            "data/g/cards.csv",
            "data/g/.cards.toml.swp",
            "data/g/cards.toml~",
        ] {
            let mut more = base.clone();
            more.push((leftover.into(), 1, t));
            assert!(!art_changed(&base, &more), "{leftover}");
        }
        assert!(!art_changed(&base, &base));
    }

    /// A scratch project with `data/g/cards.toml` and `data/g/more.toml`
    /// holding `old`, watched.
    struct Scratch {
        root: tempfile::TempDir,
        changes: Changes,
    }

    impl Scratch {
        fn new() -> Scratch {
            let root = tempfile::tempdir().unwrap();
            std::fs::create_dir_all(root.path().join("data/g")).unwrap();
            std::fs::write(root.path().join("data/g/cards.toml"), "old").unwrap();
            std::fs::write(root.path().join("data/g/more.toml"), "old").unwrap();
            let changes = Changes::new(root.path());
            Scratch { root, changes }
        }

        fn at(&self, rel: &str) -> PathBuf {
            self.root.path().join("data/g").join(rel)
        }

        /// Runs `save` on another thread, a short pause after each step, and
        /// waits the way `serve` does but with a window far longer than the
        /// save (3 s): the wait ends early only by the rule. Returns how it ended
        /// and what a build starting then reads of `cards.toml` and `more.toml`.
        fn replay(
            &self,
            save: impl FnOnce(&dyn Fn(&str) -> PathBuf) + Send,
        ) -> (Ended, [String; 2]) {
            self.replay_in(Duration::from_secs(3), save)
        }

        /// [`Scratch::replay`] with a window of `quiet`: a save that must wait
        /// the whole window takes that long, so those tests use a shorter one
        /// (still a hundred times the few milliseconds of the save).
        fn replay_in(
            &self,
            quiet: Duration,
            save: impl FnOnce(&dyn Fn(&str) -> PathBuf) + Send,
        ) -> (Ended, [String; 2]) {
            let dir = self.at("");
            std::thread::scope(|s| {
                s.spawn(|| {
                    save(&|rel| {
                        std::thread::sleep(Duration::from_millis(2));
                        dir.join(rel)
                    })
                });
                let ended = self.changes.wait_for(quiet);
                let read = |rel| std::fs::read_to_string(self.at(rel)).unwrap_or("missing".into());
                (ended, [read("cards.toml"), read("more.toml")])
            })
        }
    }

    fn write_closed(path: PathBuf, text: &str) {
        use std::io::Write;
        let mut f = std::fs::File::create(path).unwrap();
        f.write_all(text.as_bytes()).unwrap();
    }

    /// vim's probe file, as `:w` writes it before the file itself.
    fn vim_probe(at: &dyn Fn(&str) -> PathBuf) {
        write_closed(at("4913"), "");
        std::fs::remove_file(at("4913")).unwrap();
    }

    /// vim's `:w`: the probe file, the backup made (`keep` renames or copies
    /// `cards.toml` to `cards.toml~`), the file written, the backup removed.
    fn vim_save(at: &dyn Fn(&str) -> PathBuf, keep: fn(&Path, &Path)) {
        vim_probe(at);
        keep(&at("cards.toml"), &at("cards.toml~"));
        write_closed(at("cards.toml"), "new");
        std::fs::remove_file(at("cards.toml~")).unwrap();
    }

    /// Replays `save` in a fresh scratch project: the wait must end at the
    /// save's last event, with `cards.toml` holding `new`.
    #[track_caller]
    fn ends_saved_with_new(save: impl FnOnce(&dyn Fn(&str) -> PathBuf) + Send) {
        let (ended, read) = Scratch::new().replay(save);
        assert_eq!((ended, read[0].as_str()), (Ended::Saved, "new"));
    }

    #[test]
    fn a_save_ends_the_wait_at_its_last_write_and_never_before() {
        // vim, `backupcopy=no` (its default for a file with one link): the file
        // renamed to a backup and a new one written.
        ends_saved_with_new(|at| vim_save(at, |a, b| std::fs::rename(a, b).unwrap()));
        // vim, `backupcopy=yes`: a copy to the backup, the file rewritten in place.
        ends_saved_with_new(|at| {
            vim_save(at, |a, b| {
                std::fs::copy(a, b).unwrap();
            })
        });
        // An atomic save: a temporary file renamed over the old one (`sed -i`).
        ends_saved_with_new(|at| {
            write_closed(at(".cards.toml.tmp"), "new");
            std::fs::rename(at(".cards.toml.tmp"), at("cards.toml")).unwrap();
        });
        // JetBrains' safe write: the old file renamed away before the new one
        // is renamed into place.
        ends_saved_with_new(|at| {
            write_closed(at("cards.toml___jb_tmp___"), "new");
            std::fs::rename(at("cards.toml"), at("cards.toml___jb_old___")).unwrap();
            std::fs::rename(at("cards.toml___jb_tmp___"), at("cards.toml")).unwrap();
            std::fs::remove_file(at("cards.toml___jb_old___")).unwrap();
        });
        // A plain truncate and write, in two writes.
        ends_saved_with_new(|at| {
            use std::io::Write;
            let mut f = std::fs::File::create(at("cards.toml")).unwrap();
            f.write_all(b"ne").unwrap();
            at("cards.toml");
            f.write_all(b"w").unwrap();
        });
        // Two files open for writing at once: the first close does not end it.
        let t = Scratch::new();
        let (ended, read) = t.replay(|at| {
            use std::io::Write;
            let mut a = std::fs::File::create(at("cards.toml")).unwrap();
            let mut b = std::fs::File::create(at("more.toml")).unwrap();
            a.write_all(b"new").unwrap();
            drop(a);
            at("more.toml");
            b.write_all(b"new").unwrap();
        });
        assert_eq!((ended, read), (Ended::Saved, ["new".into(), "new".into()]));
    }

    #[test]
    fn a_removal_or_a_rename_keeps_the_whole_window() {
        const WHOLE: Duration = Duration::from_millis(500);
        let t = Scratch::new();
        let (ended, read) = t.replay_in(WHOLE, |at| std::fs::remove_file(at("more.toml")).unwrap());
        assert_eq!((ended, read[1].as_str()), (Ended::Quiet, "missing"));
        // Renamed: a file put in place, but another gone that nothing put back.
        let t = Scratch::new();
        let (ended, _) = t.replay_in(WHOLE, |at| {
            std::fs::rename(at("more.toml"), at("most.toml")).unwrap();
        });
        assert_eq!(ended, Ended::Quiet);
        // Only a leftover written: not a file the project reads.
        let t = Scratch::new();
        let (ended, _) = t.replay_in(WHOLE, |at| vim_probe(at));
        assert_eq!(ended, Ended::Quiet);
    }

    #[test]
    fn a_change_during_a_build_is_seen_and_starts_the_next_wait() {
        let t = Scratch::new();
        assert!(!t.changes.came());
        std::fs::write(t.at("cards.toml"), "new").unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(2);
        while !t.changes.came() {
            assert!(std::time::Instant::now() < deadline, "no event came");
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(t.changes.came(), "the event is kept for the wait");
        assert_eq!(t.changes.wait_for(Duration::from_secs(3)), Ended::Saved);
        assert!(!t.changes.came());
    }
}
