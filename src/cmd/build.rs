//! `cardstock build`: every game (or those named) into `output/<game>/`.

use std::path::{Path, PathBuf};

use cardstock::diag::{Diagnostic, Diagnostics, Reported};
use cardstock::faces::ParseCache;
use cardstock::options::{Asked, Options, Pictures, Resolved};
use cardstock::output::{self, check_out_dir, DiskPngCache, Sink};
use cardstock::pipeline::{build, Built, Incremental};
use cardstock::project::Project;

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
    /// The edge of the paper your printer leaves blank, e.g. 3mm for an inkjet
    /// (default: the profile's `printer_margin`, 4.2mm). Marks and labels stay
    /// inside it.
    #[arg(long, value_name = "LENGTH")]
    pub printer_margin: Option<String>,
    /// Number of sheets for components that use `settings.copies` (score pads).
    #[arg(long, value_name = "N")]
    pub copies: Option<u32>,
    /// Resolution of PNG output, in dots per inch.
    #[arg(long, default_value_t = 300.0, value_name = "DPI")]
    pub dpi: f64,
    /// Address the output folder is served at, for the image links of Tabletop
    /// Simulator's saved object (http, https or file): an image written to
    /// <DIR>/<game>/tts/decks/x.png is linked as URL/<game>/tts/decks/x.png.
    /// Default: file:// links to the output folder on this computer.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// Print the wall time of each stage (load, evaluate, check, asserts,
    /// rulebook, render, parse + preflight, layout + pdf, rulebook pdf, png,
    /// write) for every game. A home or gutterfold print draws the rulebook's PDFs
    /// with its own, in "layout + pdf".
    #[arg(long)]
    pub timings: bool,
    /// Also write a soft proof: every face as a PNG as it will print in the
    /// profile's CMYK (a profile with color = "cmyk"), in <profile>/proof/.
    #[arg(long)]
    pub proof: bool,
    #[command(flatten)]
    pub common: super::Common,
}

/// Everything a build needs, checked once: the project, the options every game
/// shares, output folder and games (shared with `watch`, `printed` and `reprint`).
pub struct Plan {
    pub root: PathBuf,
    pub project: Project,
    pub resolved: Resolved,
    pub out: PathBuf,
    pub games: Vec<String>,
}

impl Args {
    /// The build options as the command line gives them.
    pub fn asked(&self) -> Asked {
        Asked {
            paper: self.paper.clone(),
            formats: self.format.clone(),
            dpi: self.dpi,
            copies: self.copies,
            profile: self.profile.clone(),
            back_offset: self.back_offset.clone(),
            printer_margin: self.printer_margin.clone(),
            base_url: self.base_url.clone(),
            proof: self.proof,
        }
    }
}

/// Checks the arguments: the options ([`Asked::resolve`]), the output folder and
/// the games, every problem of them; `None` when there is one.
pub fn prepare(args: &Args) -> Reported<Option<Plan>> {
    let found = match args.common.project() {
        Ok(found) => found,
        Err(e) => return Reported::new(None, [Diagnostic::error(e)]),
    };
    let mut problems = Diagnostics::default();
    let resolved = args
        .asked()
        .resolve(Pictures::Files)
        .into_value(&mut problems);
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| found.root.join("output"));
    if let Err(e) = check_out_dir(&found.root, &out) {
        problems.push(Diagnostic::error(e.to_string()).hint(e.hint()));
    }
    let games = super::select_games(&found.project, &args.games)
        .map_err(|d| problems.push(d))
        .ok();
    let (Some(mut resolved), Some(games), false) = (resolved, games, problems.has_errors()) else {
        return Reported::new(None, problems.items);
    };
    resolved.files_at = Some(std::path::absolute(&out).unwrap_or_else(|_| out.clone()));
    Some(Plan {
        root: found.root,
        project: found.project,
        resolved,
        out,
        games,
    })
    .into()
}

/// The options of game `id` ([`Resolved::for_game`]) for a command that goes on
/// with its other games: the problems go into `diags` and `None` is returned.
pub fn game_options_or_report(plan: &Plan, id: &str, diags: &mut Diagnostics) -> Option<Options> {
    plan.resolved.for_game(&plan.project, id).into_value(diags)
}

/// Writes built games into the output folder, one at a time, holding the folder's
/// lock (taken when the first game is ready to write) until it is dropped.
pub struct Writer<'a> {
    out: &'a Path,
    lock: std::sync::Mutex<Option<output::Lock>>,
    /// The progress bar on the terminal, cleared while a note is printed.
    bar: Option<indicatif::ProgressBar>,
}

impl<'a> Writer<'a> {
    /// A writer into `out`; nothing is locked or created yet.
    pub fn new(out: &'a Path) -> Self {
        Writer {
            out,
            lock: std::sync::Mutex::new(None),
            bar: None,
        }
    }

    /// The same, printing its notes around `bar` rather than through it.
    pub fn with_bar(out: &'a Path, bar: &indicatif::ProgressBar) -> Self {
        Writer {
            bar: Some(bar.clone()),
            ..Writer::new(out)
        }
    }

    /// Writes a built game's files into `<out>/<id>/`, all or nothing.
    pub fn write(&self, built: &Built, id: &str) -> Result<(), Diagnostic> {
        self.locked(|| output::write_all(&built.outputs, self.out, Path::new(id)))
    }

    /// Writes a built game's files, all in its output's folder `folder` (a
    /// reprint's `home/reprint`), publishing that folder alone (the rest of the
    /// game's output stays as it is).
    pub fn write_folder(&self, built: &Built, id: &str, folder: &str) -> Result<(), Diagnostic> {
        self.locked(|| {
            output::write_folder(&built.outputs, self.out, Path::new(id), Path::new(folder))
        })
    }

    /// Runs `write` holding the output folder's lock (taken the first time).
    fn locked(
        &self,
        write: impl FnOnce() -> Result<(), output::WriteError>,
    ) -> Result<(), Diagnostic> {
        let fail = |e: output::WriteError| Diagnostic::error(e.to_string()).hint(e.hint());
        let mut held = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        if held.is_none() {
            let out = self.out;
            *held = Some(
                output::lock(out, || {
                    let note = format!(
                        "waiting for another cardstock build writing into {}\n",
                        out.display()
                    );
                    match &self.bar {
                        Some(bar) => bar.suspend(|| super::tell(&note)),
                        None => super::tell(&note),
                    }
                })
                .map_err(fail)?,
            );
        }
        write().map_err(fail)
    }
}

/// A built game and what to print about it (printed by the caller, in game order).
pub struct Report {
    pub built: Built,
    /// For stdout: the summary line, and the timings when asked for.
    pub out: String,
    /// For stderr: why nothing was written.
    pub err: String,
}

impl Report {
    /// Prints the report and returns the build.
    pub fn print(self) -> Built {
        super::tell(&self.err);
        super::say(&self.out);
        self.built
    }
}

/// Builds one game and writes its files (nothing when it has errors, or warnings
/// with `--deny-warnings`).
pub fn build_game(
    plan: &Plan,
    args: &Args,
    project: &Project,
    id: &str,
    cache: Option<&ParseCache>,
    writer: &Writer,
) -> Report {
    let mut report = Report {
        built: Built::default(),
        out: String::new(),
        err: String::new(),
    };
    let Some(opts) = game_options_or_report(plan, id, &mut report.built.diags) else {
        return report;
    };
    let png = DiskPngCache::new(&plan.out, &Path::new(id).join(".cache"));
    let start = std::time::Instant::now();
    let mut built = build(
        project,
        id,
        &opts,
        Incremental {
            parsed: cache,
            png: Some(&png),
            ..Incremental::default()
        },
        // Past the memory budget the files wait in the output folder.
        Sink::Spill(&plan.out),
    );
    let failed =
        built.diags.has_errors() || (args.common.deny_warnings && built.diags.warnings() > 0);
    if failed {
        report.err = format!("{id}: not built (nothing written)\n");
    } else {
        let start = std::time::Instant::now();
        match writer.write(&built, id) {
            Ok(()) => {
                built.time("write", start);
                let parts: u64 = built.counts.iter().map(|c| c.parts).sum();
                report.out = format!(
                    "{id}: {}, {}, {} -> {} ({})\n",
                    counted(built.counts.len() as u64, "component set"),
                    counted(parts, "part"),
                    counted(built.pages as u64, "page"),
                    plan.out.join(id).join(&opts.profile.id).display(),
                    counted(built.outputs.files().len() as u64, "file")
                );
            }
            Err(d) => {
                report.err = format!("{id}: not built (the previous output is as it was)\n");
                built.diags.push(d.with("game", id));
            }
        }
    }
    if args.timings {
        let stages: Vec<String> = built
            .timings
            .iter()
            .map(|(n, d)| format!("{n} {:.1} ms", d.as_secs_f64() * 1000.0))
            .collect();
        report.out.push_str(&format!(
            "  timings: {} · total {:.1} ms\n",
            stages.join(" · "),
            start.elapsed().as_secs_f64() * 1000.0
        ));
    }
    report.built = built;
    report
}

/// Runs `build`: the games side by side, on as many plain threads as there are
/// cores (each game's stages also use the rayon pool), the largest first
/// ([`largest_first`]), their reports printed in the order the games were named;
/// returns the exit status.
pub fn run(args: &Args) -> i32 {
    let prepared = prepare(args);
    let Some(plan) = prepared.value else {
        return super::finish(prepared.diags, &(), false);
    };
    let bar = super::progress(plan.games.len() as u64);
    let writer = Writer::with_bar(&plan.out, &bar);
    let jobs: Vec<_> = largest_first(&plan)
        .into_iter()
        .map(|k| {
            let (plan, writer, bar) = (&plan, &writer, &bar);
            move || {
                let id = &plan.games[k];
                let mut report = build_game(plan, args, &plan.project, id, None, writer);
                // Written: only the report's words are kept, not the game's files,
                // pages and rulebook, while the other games build.
                report.built = Built {
                    diags: std::mem::take(&mut report.built.diags),
                    ..Built::default()
                };
                bar.inc(1);
                (k, report)
            }
        })
        .collect();
    let mut reports = cardstock::threads::in_parallel(jobs);
    reports.sort_by_key(|(k, _)| *k);
    drop(writer);
    bar.finish_and_clear();
    let mut diags = Diagnostics::default();
    for (_, report) in reports {
        diags.extend(report.print().diags.items);
    }
    super::finish(diags, &plan.project, args.common.deny_warnings)
}

/// The plan's games (their indices) in the order they start: the most bytes of
/// data first (tables, templates and art under `data/<game>/`, an estimate of the
/// work), ties in name order. Longest first: the last games to start are the
/// small ones, so both cores finish nearer together; with the five games the
/// build's peak memory is also lower than in name order (docs/performance.md,
/// "The whole build of every game, 2026-11-27, third session").
fn largest_first(plan: &Plan) -> Vec<usize> {
    let bytes = |id: &String| {
        let dir = plan.root.join("data").join(id);
        // A link to outside the project is not followed (its build says why).
        if !std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir()) {
            return 0;
        }
        let mut files = Vec::new();
        super::changes::walk(&dir, &mut files, 0);
        files.iter().map(|(_, len, _)| len).sum::<u64>()
    };
    let sizes: Vec<u64> = plan.games.iter().map(bytes).collect();
    let mut order: Vec<usize> = (0..plan.games.len()).collect();
    order.sort_by_key(|&k| std::cmp::Reverse(sizes[k]));
    order
}

/// `n` and `noun`, with an "s" unless `n` is 1 ("1 component set", "4 parts").
fn counted(n: u64, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}
