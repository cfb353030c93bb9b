//! `cardstock check`: every check, and the component counts, without writing anything.

use cardstock::diag::Diagnostics;
use cardstock::options::Options;
use cardstock::output::Sink;
use cardstock::pipeline::{build, Incremental};

/// Arguments of `check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Games to check; default: all of them.
    pub games: Vec<String>,
    #[command(flatten)]
    pub common: super::Common,
}

/// Runs `check`; returns the exit status.
pub fn run(args: &Args) -> i32 {
    let Some(found) = args.common.project_or_report() else {
        return 1;
    };
    let project = &found.project;
    let mut diags = Diagnostics::default();
    let games = match super::select_games(project, &args.games) {
        Ok(g) => g,
        Err(d) => {
            diags.push(d);
            return super::finish(diags, project, false);
        }
    };
    // Everything a build checks, including rendering every face (missing fields,
    // text that does not fit, fonts, colours) and the home profile's preflight;
    // nothing is written.
    let opts = Options {
        pdf: false,
        ..Options::default()
    };
    for id in &games {
        let built = build(project, id, &opts, Incremental::default(), Sink::Memory);
        let ok = !built.diags.has_errors();
        let ran = built.asserts;
        let asserts = match (ran.asserts, ran.checks) {
            (0, _) if ok => "no assertions".to_string(),
            (0, _) => "assertions not run: errors before them".to_string(),
            (a, c) => format!(
                "{a} assertion{} ran, {c} check{}",
                if a == 1 { "" } else { "s" },
                if c == 1 { "" } else { "s" }
            ),
        };
        super::say(&format!(
            "{id}: {} ({asserts})\n",
            if ok { "ok" } else { "FAILED" }
        ));
        super::say(&super::list::count_table(&built.counts));
        if let Some(book) = &built.rulebook {
            let n = book.pages.len();
            let sheets = n.div_ceil(4);
            super::say(&format!(
                "rulebook: {n} page{} (a booklet of {sheets} sheet{})\n",
                if n == 1 { "" } else { "s" },
                if sheets == 1 { "" } else { "s" }
            ));
        }
        diags.extend(built.diags.items);
    }
    super::finish(diags, project, args.common.deny_warnings)
}
