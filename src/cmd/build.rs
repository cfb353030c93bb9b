//! `cardstock build`: every game (or those named) into `output/<game>/`.

use std::path::PathBuf;

use crate::diag::{Diagnostic, Diagnostics};
use crate::faces::ParseCache;
use crate::layout::{Paper, PAPERS};
use crate::output::check_out_dir;
use crate::pipeline::{build_with, Built, Options};
use crate::project::Project;

/// Arguments of `build`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Games to build (folder names under data/); default: all of them.
    pub games: Vec<String>,
    /// Paper for the print-and-play sheets: letter or a4.
    #[arg(long, default_value = "letter", value_name = "PAPER")]
    pub paper: String,
    /// Formats to write, comma-separated: pdf (print-and-play sheets and real-size
    /// boards), svg and png (one file per distinct face).
    #[arg(
        long,
        default_value = "pdf",
        value_delimiter = ',',
        value_name = "FORMATS"
    )]
    pub format: Vec<String>,
    /// Output folder; each game goes to <DIR>/<game>/.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print profile (a file in profiles/): home, gutterfold, thegamecrafter,
    /// drivethrucards, makeplayingcards, tts. Default: the game's `[game] profile`,
    /// else home. Files go to <DIR>/<game>/<profile>/.
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<String>,
    /// Shift of every duplex back sheet, in mm, as X,Y (measure it with
    /// duplex-calibration.pdf).
    #[arg(long, value_name = "X,Y", allow_hyphen_values = true)]
    pub back_offset: Option<String>,
    /// Number of sheets for components that use `settings.copies` (score pads).
    #[arg(long, value_name = "N")]
    pub copies: Option<u32>,
    /// Resolution of PNG output, in dots per inch.
    #[arg(long, default_value_t = 300.0, value_name = "DPI")]
    pub dpi: f64,
    /// Print the wall time of each stage (load, check, render, parse, layout + pdf,
    /// png, preflight) for every game. For a PDF, faces are parsed beside the
    /// writer (the two times overlap); for PNGs, inside the png stage.
    #[arg(long)]
    pub timings: bool,
    #[command(flatten)]
    pub common: super::Common,
}

/// Everything a build needs, checked once: the project, options, output folder and
/// games (shared with `watch`).
pub struct Plan {
    pub project: Project,
    pub opts: Options,
    pub out: PathBuf,
    pub games: Vec<String>,
}

/// Checks the arguments; on a problem returns the diagnostics to print.
pub fn prepare(args: &Args) -> Result<Plan, Diagnostics> {
    let fail = |d: Diagnostic| {
        let mut ds = Diagnostics::default();
        ds.push(d);
        ds
    };
    let project = args
        .common
        .project()
        .map_err(|e| fail(Diagnostic::error(e)))?;
    let root = project.root.clone();
    let paper = Paper::named(&args.paper).ok_or_else(|| {
        let names: Vec<&str> = PAPERS.iter().map(|p| p.name).collect();
        fail(
            Diagnostic::error(format!("unknown paper `{}`", args.paper))
                .hint(format!("use one of: {}", names.join(", "))),
        )
    })?;
    let mut opts = Options {
        paper,
        pdf: false,
        svg: false,
        png: false,
        dpi: args.dpi,
        copies: args.copies,
        ..Options::default()
    };
    for f in &args.format {
        match f.trim() {
            "pdf" => opts.pdf = true,
            "svg" => opts.svg = true,
            "png" => opts.png = true,
            other => {
                return Err(fail(
                    Diagnostic::error(format!("unknown format `{other}`"))
                        .hint("use pdf, svg or png, comma-separated"),
                ))
            }
        }
    }
    if !(10.0..=2400.0).contains(&args.dpi) {
        return Err(fail(
            Diagnostic::error(format!("--dpi {} is outside 10..2400", args.dpi))
                .hint("300 is what print shops ask for"),
        ));
    }
    if args.copies.is_some_and(|c| !(1..=10_000).contains(&c)) {
        return Err(fail(
            Diagnostic::error("--copies must be between 1 and 10000")
                .hint("a pad of 40 sheets is typical"),
        ));
    }
    if let Some(o) = &args.back_offset {
        let parts: Vec<Option<f64>> = o
            .split(',')
            .map(|p| p.trim().parse::<f64>().ok().filter(|v| v.abs() <= 20.0))
            .collect();
        match parts[..] {
            [Some(x), Some(y)] => opts.back_offset = (x, y),
            _ => {
                return Err(fail(
                    Diagnostic::error(format!(
                        "--back-offset `{o}` is not two numbers of mm within ±20"
                    ))
                    .hint("write it as X,Y in mm, e.g. --back-offset 1.5,-0.5"),
                ))
            }
        }
    }
    let out = args.out.clone().unwrap_or_else(|| root.join("output"));
    if let Err(e) = check_out_dir(&root, &out) {
        return Err(fail(
            Diagnostic::error(e).hint("choose an output folder of its own, e.g. --out output"),
        ));
    }
    let games = super::select_games(&project, &args.games).map_err(fail)?;
    Ok(Plan {
        project,
        opts,
        out,
        games,
    })
}

/// Builds one game and writes its files (nothing when it has errors, or warnings
/// with `--deny-warnings`). Prints the summary line; returns what happened.
pub fn build_game(plan: &Plan, args: &Args, id: &str, cache: Option<&ParseCache>) -> Built {
    let root = &plan.project.root;
    let mut opts = plan.opts.clone();
    // The game's own default profile: read `[game] profile` only, not the whole game.
    let profile_id = args
        .profile
        .clone()
        .or_else(|| {
            let text =
                std::fs::read_to_string(root.join("data").join(id).join("game.toml")).ok()?;
            let table: toml::Table = toml::from_str(&text).ok()?;
            table
                .get("game")?
                .get("profile")?
                .as_str()
                .map(String::from)
        })
        .unwrap_or_else(|| "home".into());
    opts.profile = match crate::profile::load(root, &profile_id) {
        Ok(p) => p,
        Err(d) => {
            let mut built = Built::default();
            built.diags.push(d.with("game", id));
            return built;
        }
    };
    let abs_out = std::path::absolute(&plan.out).unwrap_or_else(|_| plan.out.clone());
    opts.cache_dir = Some(plan.out.join(id).join(".cache"));
    opts.url_base = format!(
        "file://{}",
        abs_out.join(id).to_string_lossy().replace('\\', "/")
    );
    let start = std::time::Instant::now();
    let mut built = build_with(root, id, &opts, cache);
    let failed =
        built.diags.has_errors() || (args.common.deny_warnings && built.diags.warnings() > 0);
    if failed {
        eprintln!("{id}: not built (nothing written)");
    } else {
        let dir = plan.out.join(id);
        let write = std::time::Instant::now();
        match built.outputs.write_all(&dir) {
            Ok(()) => {
                built.time("write", write);
                let parts: u64 = built.counts.iter().map(|c| c.parts).sum();
                super::say(&format!(
                    "{id}: {} component sets, {parts} parts, {} pages -> {} ({} files)\n",
                    built.counts.len(),
                    built.pages,
                    dir.join(&opts.profile.id).display(),
                    built.outputs.files.len()
                ));
            }
            Err(e) => built.diags.push(Diagnostic::error(e).with("game", id)),
        }
    }
    if args.timings {
        let stages: Vec<String> = built
            .timings
            .iter()
            .map(|(n, d)| format!("{n} {:.1} ms", d.as_secs_f64() * 1000.0))
            .collect();
        super::say(&format!(
            "  timings: {} · total {:.1} ms\n",
            stages.join(" · "),
            start.elapsed().as_secs_f64() * 1000.0
        ));
    }
    built
}

/// Runs `build`; returns the exit status.
pub fn run(args: &Args) -> i32 {
    let plan = match prepare(args) {
        Ok(p) => p,
        Err(d) => {
            let root = args.common.project().map(|p| p.root).unwrap_or_default();
            return super::finish(d, &root, false);
        }
    };
    let mut diags = Diagnostics::default();
    let bar = super::progress(plan.games.len() as u64);
    for id in &plan.games {
        bar.set_message(id.clone());
        let built = build_game(&plan, args, id, None);
        diags.extend(built.diags.items);
        bar.inc(1);
    }
    bar.finish_and_clear();
    super::finish(diags, &plan.project.root, args.common.deny_warnings)
}
