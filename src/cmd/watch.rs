//! `cardstock watch`: rebuild on every save of data, templates or profiles; print
//! the diagnostics; keep the last good output when the new one has errors. Parsed
//! faces are cached between builds, so editing one card re-parses that card only.

use super::changes::{art_changed, fingerprint, Changes};
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

/// Runs `watch`; returns the exit status of the last build.
pub fn run(args: &WatchArgs) -> i32 {
    let prepared = super::build::prepare(&args.build);
    let Some(mut plan) = prepared.value else {
        return super::finish(prepared.diags, &(), false);
    };
    // Uncompressed PDFs: about 7x larger, written in 60 % of the time.
    plan.resolved.options.compress = false;
    let root = plan.root.clone();
    let mut caches: Vec<ParseCache> = plan.games.iter().map(|_| ParseCache::default()).collect();
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
            if art_changed(&last, &now) {
                caches.iter_mut().for_each(|c| *c = ParseCache::default());
            }
            last = now;
            // Every build reads the files afresh.
            let project = plan.project.fresh();
            let mut diags = Diagnostics::default();
            let writer = super::build::Writer::new(&plan.out);
            for (id, cache) in plan.games.iter().zip(&caches) {
                let start = std::time::Instant::now();
                let built = super::build::build_game(
                    &plan,
                    &args.build,
                    &project,
                    id,
                    Some(cache),
                    &writer,
                )
                .print();
                let took = start.elapsed();
                if !built.diags.has_errors() {
                    // A failed build may not have used every face: keep them for
                    // the next one.
                    cache.keep_used();
                }
                use std::sync::atomic::Ordering::Relaxed;
                let parsed = cache.made.swap(0, Relaxed);
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
