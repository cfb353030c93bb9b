//! Noticing saves, for `watch` and `serve`: the folders a build reads, a fingerprint
//! of their files, and a wait for the next file-system event.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, SystemTime};

/// The folders whose files a build reads.
pub const WATCHED: [&str; 4] = ["data", "templates", "profiles", "fonts"];

/// Every file a build reads: path, size and modification time, sorted.
pub type Fingerprint = Vec<(PathBuf, u64, SystemTime)>;

/// A fingerprint of every file under the watched folders.
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
        } else if meta.is_file() {
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
    const NOT_ART: [&str; 11] = [
        "toml", "svg", "csv", "tsv", "xlsx", "xlsm", "ods", "swp", "swo", "swx", "tmp",
    ];
    let not_art = |p: &Path| {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        let ext = p
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        ext.is_some_and(|e| NOT_ART.contains(&e.as_str()))
            || name.ends_with('~')
            || name.starts_with(".#")
            || name == "4913"
    };
    let (a, b): (std::collections::BTreeSet<_>, std::collections::BTreeSet<_>) =
        (old.iter().collect(), new.iter().collect());
    a.symmetric_difference(&b).any(|(p, ..)| !not_art(p))
}

/// How long no file-system event must come before a save counts as finished
/// (see [`Changes::wait`]).
pub const QUIET: Duration = Duration::from_millis(10);

/// Waits for the next change under the watched folders: file-system events where
/// the OS gives them (inotify and the like), so a save starts a build at once; else,
/// and once a second in any case, a look at the fingerprint.
pub struct Changes {
    events: Option<(notify::RecommendedWatcher, mpsc::Receiver<()>)>,
}

impl Changes {
    /// Starts watching the project at `root`.
    pub fn new(root: &Path) -> Self {
        let (tx, rx) = mpsc::channel();
        let watcher = notify::recommended_watcher(move |e: notify::Result<notify::Event>| {
            // Reading a file or listing a folder is an event too (inotify reports
            // opens and reads): only a change counts, or every build and every
            // fingerprint would wake the next one.
            if e.is_ok_and(|e| !matches!(e.kind, notify::EventKind::Access(_))) {
                let _ = tx.send(());
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
        Changes { events }
    }

    /// Returns after the next change (and the events right after it), or after a
    /// second without one.
    ///
    /// The events of one save are gathered until [`QUIET`] passes without one.
    /// The window stays at 10 ms although it is a fifth of the preview's 50 ms:
    /// editors save in several steps (vim renames the file away and writes a
    /// new one; others truncate, write, then set the time), and a build started
    /// at the first event read a missing or half-written file and showed the page
    /// an error for a moment (measured on 2026-11-25: ending the wait at the
    /// written file's close saved about 10 ms and did exactly that with vim).
    /// A build that is later than 10 ms shows the right faces; one that is early
    /// shows a false error.
    pub fn wait(&self) {
        let Some((_, rx)) = &self.events else {
            std::thread::sleep(Duration::from_millis(100));
            return;
        };
        if rx.recv_timeout(Duration::from_secs(1)).is_ok() {
            // An editor's save is often several events (write, rename, chmod):
            // wait until they stop for a moment.
            while rx.recv_timeout(QUIET).is_ok() {}
        }
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
}
