//! `cardstock build`: every game (or those named) into `output/<game>/`.

use std::path::{Path, PathBuf};

use cardstock::diag::{Diagnostic, Diagnostics, Reported};
use cardstock::faces::ParseCache;
use cardstock::options::Options;
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
    /// Print the wall time of each stage (load, check, render, parse, preflight,
    /// layout + pdf, png, write) for every game.
    #[arg(long)]
    pub timings: bool,
    /// Also write a soft proof: every face as a PNG as it will print in the
    /// profile's CMYK (a profile with color = "cmyk"), in <profile>/proof/.
    #[arg(long)]
    pub proof: bool,
    #[command(flatten)]
    pub common: super::Common,
}

/// Everything a build needs, checked once: the project, options, output folder and
/// games (shared with `watch`).
pub struct Plan {
    pub root: PathBuf,
    pub project: Project,
    pub opts: Options,
    pub out: PathBuf,
    pub games: Vec<String>,
}

fn fail(d: Diagnostic) -> Diagnostics {
    let mut ds = Diagnostics::default();
    ds.push(d);
    ds
}

/// Reads `--back-offset X,Y` (mm, within ±20).
fn back_offset(o: &str) -> Result<(f64, f64), Diagnostic> {
    let parts: Vec<Option<f64>> = o
        .split(',')
        .map(|p| {
            p.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && v.abs() <= 20.0)
        })
        .collect();
    match parts[..] {
        [Some(x), Some(y)] => Ok((x, y)),
        _ => Err(Diagnostic::error(format!(
            "--back-offset `{o}` is not two numbers of mm within ±20"
        ))
        .hint("write it as X,Y in mm, e.g. --back-offset 1.5,-0.5")),
    }
}

/// Reads `--base-url URL`: an absolute http(s) or file URL, without a trailing `/`.
fn base_url(url: &str) -> Result<String, Diagnostic> {
    let lower = url.to_ascii_lowercase();
    let scheme = ["http://", "https://", "file://"]
        .iter()
        .any(|s| lower.starts_with(s) && lower.len() > s.len());
    if !scheme || url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(Diagnostic::error(format!(
            "--base-url `{url}` is not an absolute http, https or file URL"
        ))
        .hint("give the address the output folder is served at, e.g. --base-url https://example.org/games (spaces written as %20)"));
    }
    Ok(url.trim_end_matches('/').to_string())
}

/// A `file://` URL for a local folder, with the characters a URL cannot hold
/// percent-encoded.
fn file_url(dir: &Path) -> String {
    let path = dir.to_string_lossy().replace('\\', "/");
    let root = if path.starts_with('/') { "" } else { "/" }; // C:/... on Windows
    format!("file://{root}{}", cardstock::options::url_path(&path))
}

/// Reads `--printer-margin LENGTH` (0 to 15 mm).
fn printer_margin(m: &str) -> Result<f64, Diagnostic> {
    let max = cardstock::profile::MAX_PRINTER_MARGIN;
    match cardstock::units::parse_length(m) {
        Ok(v) if (0.0..=max).contains(&v) => Ok(v),
        Ok(v) => Err(Diagnostic::error(format!(
            "--printer-margin {} mm is outside 0..{max} mm",
            cardstock::units::fmt_num(v)
        ))
        .hint("laser printers leave about 4.2mm blank at each edge, inkjets about 3mm")),
        Err(e) => Err(Diagnostic::error(format!("--printer-margin `{m}`: {e}"))
            .hint("write a length with its unit, e.g. --printer-margin 3mm")),
    }
}

/// Checks the arguments; on a problem returns the diagnostics to print.
pub fn prepare(args: &Args) -> Result<Plan, Diagnostics> {
    let found = args
        .common
        .project()
        .map_err(|e| fail(Diagnostic::error(e)))?;
    let paper = cardstock::options::paper_named(&args.paper).map_err(fail)?;
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
    cardstock::options::dpi_within(
        args.dpi,
        cardstock::options::FILE_DPI,
        "--dpi",
        "300 is what print shops ask for",
    )
    .map_err(fail)?;
    if args.copies.is_some_and(|c| !(1..=10_000).contains(&c)) {
        return Err(fail(
            Diagnostic::error("--copies must be between 1 and 10000")
                .hint("a pad of 40 sheets is typical"),
        ));
    }
    if let Some(o) = &args.back_offset {
        opts.back_offset = back_offset(o).map_err(fail)?;
    }
    if let Some(u) = &args.base_url {
        base_url(u).map_err(fail)?;
    }
    if let Some(m) = &args.printer_margin {
        opts.printer_margin = Some(printer_margin(m).map_err(fail)?);
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| found.root.join("output"));
    check_out_dir(&found.root, &out)
        .map_err(|e| fail(Diagnostic::error(e.to_string()).hint(e.hint())))?;
    let games = super::select_games(&found.project, &args.games).map_err(fail)?;
    Ok(Plan {
        root: found.root,
        project: found.project,
        opts,
        out,
        games,
    })
}

/// The options for one game: its own default profile (`[game] profile`) unless
/// `--profile` names one, and the output folder's absolute location; `None` when
/// they had an error.
pub fn game_options(plan: &Plan, args: &Args, id: &str) -> Reported<Option<Options>> {
    let mut opts = plan.opts.clone();
    let profile = cardstock::profile::for_game(&plan.project, id, args.profile.as_deref());
    let Some(chosen) = profile.value else {
        return Reported::new(None, profile.diags.items);
    };
    opts.profile = chosen;
    let fail = |d: Diagnostic| Reported::new(None, [d]);
    if args.proof && opts.profile.print.is_none() {
        return fail(
            Diagnostic::error(format!(
                "--proof shows a print shop's CMYK, and the profile `{}` prints in RGB",
                opts.profile.id
            ))
            .hint("use a CMYK profile: --profile drivethrucards or --profile offset"),
        );
    }
    opts.proof = args.proof;
    let abs_out = std::path::absolute(&plan.out).unwrap_or_else(|_| plan.out.clone());
    opts.url_base = match &args.base_url {
        Some(u) => match base_url(u) {
            Ok(u) => cardstock::options::url_join(&u, id),
            Err(d) => return fail(d),
        },
        None => file_url(&abs_out.join(id)),
    };
    Some(opts).into()
}

/// [`game_options`] for a command that goes on with its other games: the problems
/// go into `diags`, named for the game, and `None` is returned.
pub fn game_options_or_report(
    plan: &Plan,
    args: &Args,
    id: &str,
    diags: &mut Diagnostics,
) -> Option<Options> {
    let options = game_options(plan, args, id);
    diags.extend(options.diags.items.into_iter().map(|d| d.with("game", id)));
    options.value
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
    let Some(opts) = game_options_or_report(plan, args, id, &mut report.built.diags) else {
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
                    "{id}: {} component sets, {parts} parts, {} pages -> {} ({} files)\n",
                    built.counts.len(),
                    built.pages,
                    plan.out.join(id).join(&opts.profile.id).display(),
                    built.outputs.files().len()
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
/// cores (each game's stages also use the rayon pool), their reports printed in the
/// order the games were named; returns the exit status.
pub fn run(args: &Args) -> i32 {
    let plan = match prepare(args) {
        Ok(p) => p,
        Err(d) => return super::finish(d, &(), false),
    };
    let bar = super::progress(plan.games.len() as u64);
    let writer = Writer::with_bar(&plan.out, &bar);
    let jobs: Vec<_> = plan
        .games
        .iter()
        .map(|id| {
            let (plan, writer, bar) = (&plan, &writer, &bar);
            move || {
                let report = build_game(plan, args, &plan.project, id, None, writer);
                bar.inc(1);
                report
            }
        })
        .collect();
    let reports = cardstock::threads::in_parallel(jobs);
    drop(writer);
    bar.finish_and_clear();
    let mut diags = Diagnostics::default();
    for report in reports {
        diags.extend(report.print().diags.items);
    }
    super::finish(diags, &plan.project, args.common.deny_warnings)
}
