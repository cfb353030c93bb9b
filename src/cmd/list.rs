//! `cardstock list`: games (name and `[game] description`), their component sets
//! and counts.

use cardstock::diag::Diagnostics;
use cardstock::options::Options;
use cardstock::pipeline::{load_and_check, Built, Count};

/// Arguments of `list`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub common: super::Common,
}

/// A table of component counts, with the rules' count where `[contents]` has one.
pub fn count_table(counts: &[Count]) -> String {
    let mut s = String::new();
    if counts.is_empty() {
        return s;
    }
    let w = counts.iter().map(|c| c.id.len()).max().unwrap_or(0).max(9);
    s.push_str(&format!(
        "  {:<w$}  {:<6}  {:>5}  {:>5}  {}\n",
        "component", "kind", "faces", "parts", "rules"
    ));
    for c in counts {
        let rules = match c.expected {
            Some(e) if e == c.parts as i64 => format!("{e} ok"),
            Some(e) => format!("{e} MISMATCH"),
            None => "-".into(),
        };
        s.push_str(&format!(
            "  {:<w$}  {:<6}  {:>5}  {:>5}  {}\n",
            c.id,
            c.kind.name(),
            c.faces,
            c.parts,
            rules
        ));
    }
    s
}

/// Runs `list`; returns the exit status.
pub fn run(args: &Args) -> i32 {
    let Some(found) = args.common.project_or_report() else {
        return 1;
    };
    let project = &found.project;
    let mut diags = Diagnostics::default();
    for id in project.games() {
        let mut built = Built::default();
        let _ = load_and_check(project, &id, &Options::default(), &mut built);
        let name = built.name.clone().unwrap_or_default();
        let mut head = format!("{id} ({name})\n");
        if let Some(d) = built
            .description
            .as_deref()
            .filter(|d| !d.trim().is_empty())
        {
            head.push_str(&format!("  {}\n", d.trim()));
        }
        super::say(&head);
        super::say(&count_table(&built.counts));
        diags.extend(built.diags.items);
    }
    super::finish(diags, project, args.common.deny_warnings)
}
