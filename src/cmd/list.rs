//! `cardstock list`: games, their component sets and counts.

use crate::diag::Diagnostics;
use crate::pipeline::{load_and_check, Built, Count};

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
            c.id, c.kind, c.faces, c.parts, rules
        ));
    }
    s
}

/// Runs `list`; returns the exit status.
pub fn run(args: &Args) -> i32 {
    let Some(project) = args.common.project_or_report() else {
        return 1;
    };
    let mut diags = Diagnostics::default();
    for id in project.games() {
        let mut built = Built::default();
        let _ = load_and_check(
            &project.root,
            &id,
            &crate::pipeline::Options::default(),
            &mut built,
        );
        let name = built.name.clone().unwrap_or_default();
        super::say(&format!("{id} ({name})\n"));
        super::say(&count_table(&built.counts));
        diags.extend(built.diags.items);
    }
    super::finish(diags, &project.root, args.common.deny_warnings)
}
