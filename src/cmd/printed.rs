//! `cardstock printed`: records that games were printed as they are now, one
//! record a print in `prints/<game>/` (`cardstock::prints`).

use std::path::PathBuf;

use cardstock::diag::{Diagnostic, Diagnostics};
use cardstock::output::Sink;
use cardstock::pipeline::{build_choosing, Finished, Incremental};
use cardstock::prints::{self, Current, Record};

use super::build;

/// What a print is made with: the options of `build` that decide what prints
/// where (shared by `printed` and `reprint`).
#[derive(Debug, Clone, clap::Args)]
pub struct Print {
    /// Print profile (a file in profiles/): home, gutterfold, thegamecrafter,
    /// drivethrucards, makeplayingcards, tts. Default: the game's `[game] profile`,
    /// else home.
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<String>,
    /// Paper for the print-and-play sheets: letter or a4.
    #[arg(long, default_value = "letter", value_name = "PAPER")]
    pub paper: String,
    /// The edge of the paper your printer leaves blank, e.g. 3mm.
    #[arg(long, value_name = "LENGTH")]
    pub printer_margin: Option<String>,
    /// Shift of every duplex back sheet, in mm, as X,Y.
    #[arg(long, value_name = "X,Y", allow_hyphen_values = true)]
    pub back_offset: Option<String>,
    /// Number of sheets for components that use `settings.copies` (score pads).
    #[arg(long, value_name = "N")]
    pub copies: Option<u32>,
}

impl Print {
    /// `build`'s arguments with these options, for `games`, writing into `out`.
    pub fn build_args(
        &self,
        games: &[String],
        out: Option<PathBuf>,
        common: &super::Common,
    ) -> build::Args {
        build::Args {
            games: games.to_vec(),
            paper: self.paper.clone(),
            format: vec!["pdf".into()],
            out,
            profile: self.profile.clone(),
            back_offset: self.back_offset.clone(),
            printer_margin: self.printer_margin.clone(),
            copies: self.copies,
            dpi: 300.0,
            base_url: None,
            timings: false,
            proof: false,
            common: common.clone(),
        }
    }
}

/// Arguments of `printed`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Games printed (folder names under data/); default: all of them.
    pub games: Vec<String>,
    /// What the print was for, kept in the record (e.g. "playtest 3").
    #[arg(long, value_name = "TEXT", default_value = "")]
    pub note: String,
    #[command(flatten)]
    pub print: Print,
    #[command(flatten)]
    pub common: super::Common,
}

/// Today (UTC), or the day `SOURCE_DATE_EPOCH` gives (reproducible records).
pub fn today() -> String {
    let seconds = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        });
    prints::date(seconds)
}

/// Runs `printed`; returns the exit status.
pub fn run(args: &Args) -> i32 {
    let bargs = args.print.build_args(&args.games, None, &args.common);
    let prepared = build::prepare(&bargs);
    let Some(plan) = prepared.value else {
        return super::finish(prepared.diags, &(), false);
    };
    let date = today();
    let mut diags = Diagnostics::default();
    for id in &plan.games {
        if let Err(d) = record(&plan, &bargs, id, &args.note, &date, &mut diags) {
            diags.push(d.with("game", id));
        }
    }
    super::finish(diags, &plan.project, args.common.deny_warnings)
}

/// Builds game `id` in memory and writes its record (nothing when the game has
/// errors, or warnings with `--deny-warnings`).
fn record(
    plan: &build::Plan,
    bargs: &build::Args,
    id: &str,
    note: &str,
    date: &str,
    diags: &mut Diagnostics,
) -> Result<(), Diagnostic> {
    let project = &plan.project;
    let Some(mut opts) = build::game_options_or_report(plan, id, diags) else {
        return Ok(());
    };
    opts.encode = false;
    let listed = prints::list(project, id)?;
    let next = prints::next(id, &listed, date, note);
    let head = Record {
        file: next.file.clone(),
        number: next.number,
        date: date.to_string(),
        note: note.to_string(),
        profile: opts.profile.id.clone(),
        paper: opts.paper.name.to_string(),
        cardstock: env!("CARGO_PKG_VERSION").to_string(),
        ..Record::default()
    };
    let mut written = None;
    let mut by_place = Vec::new();
    let (built, finished) = build_choosing(
        project,
        id,
        &opts,
        Incremental::default(),
        Sink::Memory,
        |_, _| true.into(),
    );
    if let Some(Finished { checked, rendered }) = finished.filter(|_| !built.diags.has_errors()) {
        let current = Current::of(
            project,
            &checked.game,
            &rendered,
            &built.printed,
            &opts.folder(),
        );
        let parts: u64 = current
            .sets
            .iter()
            .flat_map(|s| &s.parts)
            .map(|p| u64::from(p.qty))
            .sum();
        let record = current.record(&checked.game, &checked.tpl, head);
        written = Some((
            record.to_text(&checked.game.meta.name),
            parts,
            current.sets.len(),
        ));
        by_place = prints::key::by_place(&checked.game);
    }
    let mut found = built.diags;
    found.extend(by_place);
    let failed = found.has_errors() || (bargs.common.deny_warnings && found.warnings() > 0);
    diags.extend(found.items);
    let Some((text, parts, sets)) = written.filter(|_| !failed) else {
        super::tell(&format!("{id}: not recorded (nothing written)\n"));
        return Ok(());
    };
    cardstock::output::write_new(&plan.root, &next.file, text.as_bytes()).map_err(|e| {
        Diagnostic::error(e.to_string()).hint(
            "another `cardstock printed` may have written this record meanwhile: run it again",
        )
    })?;
    super::say(&format!(
        "{id}: recorded print {} ({parts} parts in {sets} sets) -> {}\n",
        next.number,
        next.file.display()
    ));
    Ok(())
}
