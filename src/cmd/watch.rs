//! `cardstock watch`: rebuild on every save of data, templates or profiles; print
//! the diagnostics; keep the last good output when the new one has errors. Parsed
//! faces are cached between builds, so editing one card re-parses that card only.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, SystemTime};

use cardstock::diag::Diagnostics;
use cardstock::faces::ParseCache;

/// Arguments of `watch` (those of `build`, plus how long to run).
#[derive(Debug, clap::Args)]
pub struct WatchArgs {
    #[command(flatten)]
    pub build: super::build::Args,
    /// Stop after this many builds (for scripts and tests; default: run until Ctrl-C).
    #[arg(long, value_name = "N")]
    pub max_builds: Option<u32>,
}

/// The folders whose files a build reads.
const WATCHED: [&str; 4] = ["data", "templates", "profiles", "fonts"];

/// A fingerprint of every file a build reads: paths, sizes and modification times.
fn fingerprint(root: &Path) -> Vec<(PathBuf, u64, SystemTime)> {
    let mut out = Vec::new();
    for dir in WATCHED {
        walk(&root.join(dir), &mut out, 0);
    }
    out.sort();
    out
}

fn walk(dir: &Path, out: &mut Vec<(PathBuf, u64, SystemTime)>, depth: usize) {
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

/// Runs `watch`; returns the exit status of the last build.
pub fn run(args: &WatchArgs) -> i32 {
    let plan = match super::build::prepare(&args.build) {
        // Uncompressed PDFs: about 7x larger, written in 60 % of the time.
        Ok(mut p) => {
            p.opts.compress = false;
            p
        }
        Err(d) => return super::finish(d, &(), false),
    };
    let root = plan.root.clone();
    let caches: Vec<ParseCache> = plan.games.iter().map(|_| ParseCache::default()).collect();
    let mut last = Vec::new();
    let mut builds = 0;
    let changes = Changes::new(&root);
    super::say(&format!(
        "watching {} for changes (Ctrl-C to stop)\n",
        root.display()
    ));
    loop {
        let now = fingerprint(&root);
        if now != last {
            last = now;
            // Every build reads the files afresh.
            let project = plan.project.fresh();
            let mut diags = Diagnostics::default();
            for (id, cache) in plan.games.iter().zip(&caches) {
                let start = std::time::Instant::now();
                let built = super::build::build_game(&plan, &args.build, &project, id, Some(cache));
                let took = start.elapsed();
                if !built.diags.has_errors() {
                    // A failed build may not have used every face: keep them for
                    // the next one.
                    cache.keep_used();
                }
                use std::sync::atomic::Ordering::Relaxed;
                let parsed = cache.parsed.swap(0, Relaxed);
                super::say(&format!(
                    "{id}: rebuilt in {:.0} ms ({parsed} {} parsed, {} from the cache, {} kept in memory)\n",
                    took.as_secs_f64() * 1000.0,
                    if parsed == 1 { "face" } else { "faces" },
                    cache.reused.swap(0, Relaxed),
                    cache.len()
                ));
                diags.extend(built.diags.items);
            }
            let status = super::finish(diags, &project, args.build.common.deny_warnings);
            builds += 1;
            if args.max_builds.is_some_and(|m| builds >= m) {
                return status;
            }
        }
        changes.wait();
    }
}

/// Waits for the next change under the watched folders: file-system events where
/// the OS gives them (inotify and the like), so a save starts a build at once; else,
/// and once a second in any case, a look at the fingerprint.
struct Changes {
    events: Option<(notify::RecommendedWatcher, mpsc::Receiver<()>)>,
}

impl Changes {
    fn new(root: &Path) -> Self {
        let (tx, rx) = mpsc::channel();
        let watcher = notify::recommended_watcher(move |e: notify::Result<notify::Event>| {
            if e.is_ok() {
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

    fn wait(&self) {
        let Some((_, rx)) = &self.events else {
            std::thread::sleep(Duration::from_millis(100));
            return;
        };
        if rx.recv_timeout(Duration::from_secs(1)).is_ok() {
            // An editor's save is often several events (write, rename, chmod):
            // wait until they stop for a moment.
            while rx.recv_timeout(Duration::from_millis(10)).is_ok() {}
        }
    }
}
