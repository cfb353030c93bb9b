//! `cardstock bench`: per-stage wall times for every game, and for an 88-card deck of
//! finished SVG art (the fixture game's card, `tests/fixtures/base`, with 88 rows,
//! rendered in memory first) imposed 3x3 on Letter with crop marks and mirrored
//! backs, plus its 88 PNGs at 300 dpi.
//! With every game, the longest rulebook typeset with its body three times
//! ([`rulebook`]). Medians over `--runs` builds; peak memory from the kernel.

mod rulebook;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use cardstock::options::Options;
use cardstock::output::Sink;
use cardstock::pipeline::{build, Built, Incremental};
use cardstock::project::Project;

/// Arguments of `bench`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Builds per measurement (the median is reported).
    #[arg(long, default_value_t = 5)]
    pub runs: usize,
    /// Also keep the 88-card deck project (SVG art + game.toml) in this folder, to
    /// compare other tools on the same faces (docs/performance.md).
    #[arg(long, value_name = "DIR")]
    pub keep_deck: Option<PathBuf>,
    /// Measure only the 88-card deck, not every game.
    #[arg(long)]
    pub deck_only: bool,
    #[command(flatten)]
    pub common: super::Common,
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

/// Builds `runs` times; returns the median time of each stage and of the whole build.
fn measure(
    project: &Project,
    id: &str,
    opts: &Options,
    runs: usize,
) -> (Vec<(&'static str, Duration)>, Duration, Built) {
    let mut per: BTreeMap<&'static str, Vec<Duration>> = BTreeMap::new();
    let mut order = Vec::new();
    let mut totals = Vec::new();
    let mut last = Built::default();
    for _ in 0..runs.max(1) {
        let start = std::time::Instant::now();
        last = build(
            &project.fresh(),
            id,
            opts,
            Incremental::default(),
            Sink::Memory,
        );
        totals.push(start.elapsed());
        for (n, d) in &last.timings {
            if !order.contains(n) {
                order.push(*n);
            }
            per.entry(n).or_default().push(*d);
        }
    }
    let stages = order
        .iter()
        .map(|n| (*n, median(per.remove(n).unwrap_or_default())))
        .collect();
    (stages, median(totals), last)
}

fn report(name: &str, stages: &[(&'static str, Duration)], total: Duration) {
    let parts: Vec<String> = stages
        .iter()
        .map(|(n, d)| format!("{n} {}", ms(*d)))
        .collect();
    super::say(&format!(
        "{name:<22} total {:>7} ms  ({})\n",
        ms(total),
        parts.join(" · ")
    ));
}

/// Peak resident memory of this process in MB (Linux), if known.
fn peak_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// The fixture game (`tests/fixtures/base`), compiled in so `bench` works in any
/// project: its card and back templates with 88 generated card rows.
fn fixture_deck() -> cardstock::source::MemoryFiles {
    let mut m = cardstock::source::MemoryFiles::new();
    for (path, text) in [
        (
            "data/mini/game.toml",
            include_str!("../../tests/fixtures/base/data/mini/game.toml"),
        ),
        (
            "data/mini/suits.toml",
            include_str!("../../tests/fixtures/base/data/mini/suits.toml"),
        ),
        (
            "templates/mini/card.svg",
            include_str!("../../tests/fixtures/base/templates/mini/card.svg"),
        ),
        (
            "templates/mini/back.svg",
            include_str!("../../tests/fixtures/base/templates/mini/back.svg"),
        ),
        (
            "templates/mini/token.svg",
            include_str!("../../tests/fixtures/base/templates/mini/token.svg"),
        ),
        (
            "templates/common/face.svg",
            include_str!("../../templates/common/face.svg"),
        ),
    ] {
        m.insert(path, text);
    }
    let mut cards = String::from("# 88 generated cards for the benchmark.\n");
    for i in 1..=DECK {
        let suit = if i % 2 == 0 { "sun" } else { "moon" };
        cards.push_str(&format!(
            "\n[[card]]\nid = \"c{i:03}\"\nname = \"Card {i} of {DECK}\"\nsuit = \"{suit}\"\nvalue = {i}\n"
        ));
    }
    m.insert("data/mini/cards.toml", cards);
    // The fixture's [contents] counts 4 cards: the deck has 88.
    let game = include_str!("../../tests/fixtures/base/data/mini/game.toml")
        .replace("cards = 4", &format!("cards = {DECK}"));
    m.insert("data/mini/game.toml", game);
    m
}

/// Cards in the benchmark deck.
const DECK: usize = 88;

/// Writes the 88-card deck project: the fixture game's card faces, rendered in
/// memory, as finished SVG files with a `game.toml` that imposes them.
fn deck_project(dir: &Path) -> Result<usize, String> {
    let opts = Options {
        pdf: false,
        svg: true,
        ..Options::default()
    };
    let built = build(
        &Project::new(fixture_deck()),
        "mini",
        &opts,
        Incremental::default(),
        Sink::Memory,
    );
    if built.diags.has_errors() {
        return Err(format!(
            "the fixture deck does not build: {}",
            built.diags.render(&())
        ));
    }
    let art = dir.join("data/deck/art");
    std::fs::create_dir_all(&art).map_err(|e| e.to_string())?;
    let mut n = 0;
    for f in built.outputs.files() {
        let p = f.path.to_string_lossy();
        if let Some(name) = p.strip_prefix("home/svg/cards/") {
            let bytes = f.body.bytes().map_err(|e| e.to_string())?;
            std::fs::write(art.join(name), bytes).map_err(|e| e.to_string())?;
            n += name.ends_with("-front.svg") as usize;
        }
    }
    std::fs::create_dir_all(dir.join("templates")).map_err(|e| e.to_string())?;
    std::fs::write(
        dir.join("data/deck/game.toml"),
        "# 88 finished card faces imposed 3x3 on Letter with crop marks and backs.\n[game]\nname = \"Benchmark deck\"\n\n[[component]]\nid = \"cards\"\nkind = \"card\"\nsize = \"poker\"\nart = \"art/*-front.svg\"\nart_back = \"art/001-back.svg\"\n",
    )
    .map_err(|e| e.to_string())?;
    Ok(n)
}

/// Runs `bench`.
pub fn run(args: &Args) -> i32 {
    let Some(found) = args.common.project_or_report() else {
        return 1;
    };
    let project = &found.project;
    super::say(&format!(
        "median of {} builds, {} cores, ms\n",
        args.runs,
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    ));
    if !args.deck_only {
        let longest = each_game(project, args.runs);
        side_by_side(project, args.runs);
        if let Some(id) = longest {
            rulebook::measure(&found.root, &id, args.runs);
        }
    }
    if let Err(status) = the_deck(args) {
        return status;
    }
    if let Some(mb) = peak_mb() {
        super::say(&format!("peak memory {mb:.0} MB\n"));
    }
    0
}

/// Measures every game alone and lists its PDFs; the game whose rulebook has
/// the most pages, if any has one.
fn each_game(project: &Project, runs: usize) -> Option<String> {
    let mut longest: Option<(usize, String)> = None;
    for id in project.games() {
        let (stages, total, built) = measure(project, &id, &Options::default(), runs);
        if built.diags.has_errors() {
            super::say(&format!("{id:<22} has errors; run cardstock check {id}\n"));
            continue;
        }
        report(&id, &stages, total);
        let pages = built.rulebook.as_ref().map_or(0, |b| b.pages.len());
        if pages > longest.as_ref().map_or(0, |(n, _)| *n) {
            longest = Some((pages, id.clone()));
        }
        let pdfs: Vec<String> = built
            .outputs
            .files()
            .iter()
            .filter(|f| f.path.extension().is_some_and(|x| x == "pdf"))
            .map(|f| {
                let name = f.path.file_name().unwrap_or_default().to_string_lossy();
                format!("{name} {} KB", f.body.len() / 1024)
            })
            .collect();
        super::say(&format!("{:<22} {}\n", "", pdfs.join(" · ")));
    }
    longest.map(|(_, id)| id)
}

/// Measures the games side by side, as `cardstock build` runs them (without
/// writing).
fn side_by_side(project: &Project, runs: usize) {
    let ids = project.games();
    let mut walls = Vec::new();
    for _ in 0..runs.max(1) {
        let fresh = project.fresh();
        let start = std::time::Instant::now();
        let jobs: Vec<_> = ids
            .iter()
            .map(|id| {
                let fresh = &fresh;
                move || {
                    build(
                        fresh,
                        id,
                        &Options::default(),
                        Incremental::default(),
                        Sink::Memory,
                    )
                }
            })
            .collect();
        drop(cardstock::threads::in_parallel(jobs));
        walls.push(start.elapsed());
    }
    super::say(&format!(
        "{:<22} total {:>7} ms  (every game, side by side)\n",
        format!("all {} games", ids.len()),
        ms(median(walls))
    ));
}

/// Measures the deck of finished SVG art (PDF, then PNG), made in `--keep-deck`'s
/// folder or a temporary one; the exit status when its project cannot be opened.
fn the_deck(args: &Args) -> Result<(), i32> {
    let tmp = match &args.keep_deck {
        Some(d) => d.clone(),
        None => std::env::temp_dir().join(format!("cardstock-bench-{}", std::process::id())),
    };
    match deck_project(&tmp) {
        Ok(n) => {
            let deck = match Project::disk(&tmp) {
                Ok(p) => p,
                Err(e) => {
                    super::say(&format!("deck: {e}\n"));
                    return Err(1);
                }
            };
            measure_deck(&deck, n, args.runs);
        }
        Err(e) => super::say(&format!("deck: {e}\n")),
    }
    if args.keep_deck.is_none() {
        let _ = std::fs::remove_dir_all(&tmp);
    } else {
        super::say(&format!("deck project kept in {}\n", tmp.display()));
    }
    Ok(())
}

/// Measures the `n`-card deck as a PDF and as PNGs at 300 dpi.
fn measure_deck(deck: &Project, n: usize, runs: usize) {
    let (stages, total, built) = measure(deck, "deck", &Options::default(), runs);
    report(&format!("{n}-card deck, PDF"), &stages, total);
    let bytes = built
        .outputs
        .files()
        .iter()
        .find(|f| f.path.extension().is_some_and(|x| x == "pdf"))
        .map(|f| f.body.len())
        .unwrap_or(0);
    super::say(&format!(
        "{:<22} {} pages, {} KB\n",
        "",
        built.pages,
        bytes / 1024
    ));
    let png = Options {
        pdf: false,
        png: true,
        ..Options::default()
    };
    let (stages, total, _) = measure(deck, "deck", &png, runs.min(3));
    report(&format!("{n}-card deck, PNG 300dpi"), &stages, total);
}
