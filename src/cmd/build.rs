//! `cardstock build`: every game (or those named) into `output/<game>/`.

use std::path::PathBuf;

use crate::diag::{Diagnostic, Diagnostics};
use crate::layout::{Paper, PAPERS};
use crate::output::check_out_dir;
use crate::pipeline::{build, Options};

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
    #[command(flatten)]
    pub common: super::Common,
}

/// Runs `build`; returns the exit status.
pub fn run(args: &Args) -> i32 {
    let project = match args.common.project() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    let root = project.root.clone();
    let mut diags = Diagnostics::default();
    let paper = match Paper::named(&args.paper) {
        Some(p) => p,
        None => {
            let names: Vec<&str> = PAPERS.iter().map(|p| p.name).collect();
            diags.push(
                Diagnostic::error(format!("unknown paper `{}`", args.paper))
                    .hint(format!("use one of: {}", names.join(", "))),
            );
            return super::finish(diags, &root, false);
        }
    };
    let mut opts = Options {
        paper,
        pdf: false,
        svg: false,
        png: false,
        dpi: args.dpi,
        copies: args.copies,
        profile: crate::profile::Profile::home(),
        back_offset: (0.0, 0.0),
        url_base: String::new(),
    };
    if args.copies.is_some_and(|c| !(1..=10_000).contains(&c)) {
        diags.push(
            Diagnostic::error("--copies must be between 1 and 10000")
                .hint("a pad of 40 sheets is typical"),
        );
        return super::finish(diags, &root, false);
    }
    for f in &args.format {
        match f.trim() {
            "pdf" => opts.pdf = true,
            "svg" => opts.svg = true,
            "png" => opts.png = true,
            other => {
                diags.push(
                    Diagnostic::error(format!("unknown format `{other}`"))
                        .hint("use pdf, svg or png, comma-separated"),
                );
                return super::finish(diags, &root, false);
            }
        }
    }
    if !(10.0..=2400.0).contains(&args.dpi) {
        diags.push(
            Diagnostic::error(format!("--dpi {} is outside 10..2400", args.dpi))
                .hint("300 is what print shops ask for"),
        );
        return super::finish(diags, &root, false);
    }
    let out = args.out.clone().unwrap_or_else(|| root.join("output"));
    if let Err(e) = check_out_dir(&root, &out) {
        diags.push(
            Diagnostic::error(e).hint("choose an output folder of its own, e.g. --out output"),
        );
        return super::finish(diags, &root, false);
    }
    let games = match super::select_games(&project, &args.games) {
        Ok(g) => g,
        Err(d) => {
            diags.push(d);
            return super::finish(diags, &root, false);
        }
    };
    if let Some(o) = &args.back_offset {
        let parts: Vec<Option<f64>> = o
            .split(',')
            .map(|p| p.trim().parse::<f64>().ok().filter(|v| v.abs() <= 20.0))
            .collect();
        match parts[..] {
            [Some(x), Some(y)] => opts.back_offset = (x, y),
            _ => {
                diags.push(
                    Diagnostic::error(format!(
                        "--back-offset `{o}` is not two numbers of mm within ±20"
                    ))
                    .hint("write it as X,Y in mm, e.g. --back-offset 1.5,-0.5"),
                );
                return super::finish(diags, &root, false);
            }
        }
    }
    let abs_out = std::path::absolute(&out).unwrap_or_else(|_| out.clone());
    for id in &games {
        let profile_id = args
            .profile
            .clone()
            .or_else(|| {
                crate::model::load_game(&root, id)
                    .0
                    .and_then(|g| g.meta.profile)
            })
            .unwrap_or_else(|| "home".into());
        opts.profile = match crate::profile::load(&root, &profile_id) {
            Ok(p) => p,
            Err(d) => {
                diags.push(d.with("game", id.clone()));
                continue;
            }
        };
        opts.url_base = format!(
            "file://{}",
            abs_out.join(id).to_string_lossy().replace('\\', "/")
        );
        let mut built = build(&root, id, &opts);
        let failed =
            built.diags.has_errors() || (args.common.deny_warnings && built.diags.warnings() > 0);
        if failed {
            eprintln!("{id}: not built (nothing written)");
        } else {
            let dir = out.join(id);
            match built.outputs.write_all(&dir) {
                Ok(()) => {
                    let parts: u64 = built.counts.iter().map(|c| c.parts).sum();
                    super::say(&format!(
                        "{id}: {} component sets, {parts} parts, {} pages -> {} ({} files)\n",
                        built.counts.len(),
                        built.pages,
                        dir.join(&opts.profile.id).display(),
                        built.outputs.files.len()
                    ));
                }
                Err(e) => built
                    .diags
                    .push(Diagnostic::error(e).with("game", id.clone())),
            }
        }
        diags.extend(built.diags.items);
    }
    super::finish(diags, &root, args.common.deny_warnings)
}
