//! `cardstock reprint`: after a change, prints only the parts that changed since
//! the last print record (or record N), imposed as the profile prints, into
//! `output/<game>/<profile>/reprint/`, with `changes.md` saying what changed.

use std::path::{Path, PathBuf};

use cardstock::diag::{Diagnostic, Diagnostics, Reported};
use cardstock::faces::Rendered;
use cardstock::output::{DiskPngCache, Sink};
use cardstock::pipeline::{build_choosing, Checked, Incremental};
use cardstock::prints::{self, Changes, Current};

use super::build;
use super::printed::Print;

/// Arguments of `reprint`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Games to reprint (folder names under data/); default: all of them.
    pub games: Vec<String>,
    /// Compare with print record N (prints/<game>/NNN-...) instead of the last.
    #[arg(long, value_name = "N")]
    pub since: Option<u32>,
    /// Output folder; the reprint goes to <DIR>/<game>/<profile>/reprint/.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub print: Print,
    #[command(flatten)]
    pub common: super::Common,
}

/// Runs `reprint`; returns the exit status.
pub fn run(args: &Args) -> i32 {
    let bargs = args
        .print
        .build_args(&args.games, args.out.clone(), &args.common);
    let prepared = build::prepare(&bargs);
    let Some(plan) = prepared.value else {
        return super::finish(prepared.diags, &(), false);
    };
    let writer = build::Writer::new(&plan.out);
    let mut diags = Diagnostics::default();
    for id in &plan.games {
        if let Err(d) = reprint(&plan, &bargs, args.since, id, &writer, &mut diags) {
            super::tell(&format!(
                "{id}: not reprinted (the previous reprint is as it was)\n"
            ));
            diags.push(d.with("game", id));
        }
    }
    drop(writer);
    super::finish(diags, &plan.project, args.common.deny_warnings)
}

/// The record to compare with: record `since`, else the last one.
fn record_of(
    project: &cardstock::project::Project,
    checked: &Checked,
    since: Option<u32>,
) -> Result<prints::Record, Diagnostic> {
    let id = &checked.game.id;
    match since {
        Some(n) => prints::numbered(project, id, n),
        None => checked.last.clone().ok_or_else(|| {
            Diagnostic::error(format!("`{id}` has no print record to compare with"))
                .with("game", id)
                .hint(format!(
                    "record what you printed with `cardstock printed {id}` (before changing the game), then `cardstock reprint {id}` prints what changed since"
                ))
        }),
    }
}

/// The warning for a reprint made with another profile than the print was.
fn other_profile(record: &prints::Record, profile: &str) -> Diagnostic {
    Diagnostic::warning(format!(
        "print {} was printed with the profile `{}`, this reprint is for `{profile}`: faces made for another profile (a shop's bleed) differ, and look changed",
        record.number, record.profile
    ))
    .at(&record.file, None)
    .hint(format!(
        "reprint with --profile {} to compare like with like",
        record.profile
    ))
}

/// Keeps, of each set's slots, the parts `changes` prints, with the copies it
/// prints of each; with `per_face` (a shop's file per face), a part whose front
/// alone changed without its back. Whether any part is left to print.
fn keep_changed(r: &mut Rendered, changes: &Changes, per_face: bool) -> bool {
    for (ci, slots) in r.slots.iter_mut().enumerate() {
        let set = changes.sets.iter().find(|s| s.component == ci);
        *slots = match set {
            None => Vec::new(),
            Some(set) => set
                .print
                .iter()
                .filter_map(|p| {
                    let mut s = slots.get(p.slot)?.clone();
                    s.plan.qty = p.copies;
                    if per_face && !p.back {
                        s.back = None;
                    }
                    Some(s)
                })
                .collect(),
        };
    }
    r.slots.iter().any(|s| !s.is_empty())
}

/// Builds game `id`, compares it with its record and writes the reprint.
fn reprint(
    plan: &build::Plan,
    bargs: &build::Args,
    since: Option<u32>,
    id: &str,
    writer: &build::Writer,
    diags: &mut Diagnostics,
) -> Result<(), Diagnostic> {
    let project = &plan.project;
    let Some(mut opts) = build::game_options_or_report(plan, id, diags) else {
        return Ok(());
    };
    opts.reprint = true;
    let folder = opts.folder();
    let png = DiskPngCache::new(&plan.out, &Path::new(id).join(".cache"));
    let mut found: Option<(Changes, String, Diagnostics)> = None;
    let (mut built, _) = build_choosing(
        project,
        id,
        &opts,
        Incremental {
            png: Some(&png),
            ..Incremental::default()
        },
        Sink::Spill(&plan.out),
        |checked, r| {
            let mut notes = Vec::new();
            let compared = record_of(project, checked, since).and_then(|record| {
                if record.profile != opts.profile.id {
                    notes.push(other_profile(&record, &opts.profile.id).with("game", id));
                }
                let current = Current::of(project, &checked.game, r, &[], &folder);
                prints::compare(project, &checked.game, &checked.tpl, &current, &record)
            });
            match compared {
                Ok(changes) => {
                    let per_face = opts.profile.output == cardstock::profile::Output::FacePng;
                    let any = keep_changed(r, &changes, per_face);
                    let name = checked.game.meta.name.clone();
                    let by_place = Diagnostics {
                        items: prints::key::by_place(&checked.game),
                    };
                    found = Some((changes, name, by_place));
                    Reported::new(any, notes)
                }
                Err(d) => Reported::new(false, [d]),
            }
        },
    );
    let mut found = found.filter(|_| !built.diags.has_errors());
    if let Some((_, _, by_place)) = &mut found {
        built.diags.extend(std::mem::take(&mut by_place.items));
    }
    let denied = bargs.common.deny_warnings && built.diags.warnings() > 0;
    let (Some((changes, name, _)), false) = (found, denied) else {
        super::tell(&format!(
            "{id}: not reprinted (the previous reprint is as it was)\n"
        ));
        diags.extend(built.diags.items);
        return Ok(());
    };
    publish(
        plan,
        writer,
        (id, &folder, &opts.profile.id),
        built,
        (&name, &changes),
        diags,
    )
}

/// Adds `changes.md` and the manifest (of `profile`'s files) to a reprint's files,
/// writes them into `<game>/<folder>` and says what changed.
fn publish(
    plan: &build::Plan,
    writer: &build::Writer,
    (id, folder, profile): (&str, &str, &str),
    mut built: cardstock::pipeline::Built,
    (name, changes): (&str, &Changes),
    diags: &mut Diagnostics,
) -> Result<(), Diagnostic> {
    let text = prints::report::markdown(name, changes);
    built.outputs.add(
        format!("{folder}/changes.md"),
        format!("what changed since print {}", changes.number),
        text.clone().into_bytes(),
    );
    let manifest = built.outputs.manifest(id, profile);
    built
        .outputs
        .add(format!("{folder}/manifest.json"), "this list", manifest);
    diags.extend(std::mem::take(&mut built.diags).items);
    writer.write_folder(&built, id, folder)?;
    super::say(&text);
    let pdfs = built
        .outputs
        .files()
        .iter()
        .filter(|f| !f.path.ends_with("changes.md") && !f.path.ends_with("manifest.json"))
        .count();
    super::say(&format!(
        "{id}: {} -> {} ({pdfs} files to print)\n",
        prints::report::summary(changes),
        plan.out.join(id).join(folder).display()
    ));
    Ok(())
}
