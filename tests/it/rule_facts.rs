//! Every fact a rulebook states that a game's data holds is guarded: for each game,
//! `tests/rule_facts/<game>.toml` lists the facts (an amount, a cost, a list by
//! player count, a chit shape by goods kind, a text that carries a rule, a minimum
//! the parts must allow) with realistic edits of each (another multiple of the
//! unit, an element dropped, swapped or added, another shape, a text that breaks
//! the rule), and `cardstock check` must refuse every one of them. The edits run in
//! process, on a copy of the game in memory, on all cores; the load-and-check
//! stage refuses almost all of them, and an edit it lets through is built in full
//! (its faces rendered and preflighted) before it counts as not refused.
//!
//! `scripts/mutate_rules.py` runs the same lists through the binary, together with
//! edits it makes up (every number ±1 and other multiples of its unit, every list
//! element dropped or swapped) to measure how much of the data the checks cover.

use std::collections::BTreeMap;
use std::path::Path;

use cardstock::options::Options;
use cardstock::pipeline::{build, load_and_check, Built, Incremental};
use cardstock::project::Project;
use cardstock::source::MemoryFiles;
use rayon::prelude::*;
use serde::Deserialize;

use crate::common::repo;

/// One game's list.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Facts {
    fact: Vec<Fact>,
}

/// A fact the rulebook states and the data holds, and edits that break it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Fact {
    /// The fact, in the rulebook's terms.
    rule: String,
    /// The data file holding it, in `data/<game>/`.
    file: String,
    /// `[from, to]`: `from` must occur exactly once in the file.
    edits: Vec<[String; 2]>,
}

/// Every file of the project a game reads, by its path in the project.
fn game_files(game: &str) -> BTreeMap<String, Vec<u8>> {
    fn walk(from: &Path, prefix: &str, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            let key = format!("{prefix}{}", e.file_name().to_string_lossy());
            if e.path().is_dir() {
                walk(&e.path(), &format!("{key}/"), out);
            } else {
                out.insert(key, std::fs::read(e.path()).unwrap());
            }
        }
    }
    let mut files = BTreeMap::new();
    for dir in [
        format!("data/{game}"),
        format!("templates/{game}"),
        "templates/common".into(),
        "profiles".into(),
    ] {
        walk(&repo().join(&dir), &format!("{dir}/"), &mut files);
    }
    files
}

/// Whether `check` refuses the game with `files`: the errors, rendered, or `None`.
fn refused(game: &str, files: &BTreeMap<String, Vec<u8>>) -> Option<String> {
    let mut memory = MemoryFiles::new();
    for (path, bytes) in files {
        memory.insert(path, bytes.clone());
    }
    let project = Project::new(memory);
    let opts = Options {
        pdf: false,
        ..Options::default()
    };
    let mut built = Built::default();
    if load_and_check(&project, game, &opts, &mut built).is_some() {
        // Not refused by the data's checks: the faces (a template's `fail`,
        // text that cannot fit, preflight errors) may still refuse it.
        built = build(
            &project,
            game,
            &opts,
            Incremental::default(),
            cardstock::output::Sink::Memory,
        );
    }
    built
        .diags
        .has_errors()
        .then(|| built.diags.render(&project))
}

/// A fact's edit applied to the file, or why it cannot be.
fn edited(
    files: &BTreeMap<String, Vec<u8>>,
    path: &str,
    edit: &[String; 2],
) -> Result<BTreeMap<String, Vec<u8>>, String> {
    let text = String::from_utf8(files.get(path).ok_or(format!("no file {path}"))?.clone())
        .map_err(|e| e.to_string())?;
    match text.matches(edit[0].as_str()).count() {
        1 => {}
        n => {
            return Err(format!(
                "{path} has {n} occurrences of {:?}, not one",
                edit[0]
            ))
        }
    }
    let mut out = files.clone();
    out.insert(
        path.into(),
        text.replacen(&edit[0], &edit[1], 1).into_bytes(),
    );
    Ok(out)
}

/// The games with a list of rule facts.
fn games() -> Vec<(String, Facts)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(repo().join("tests/rule_facts")).unwrap() {
        let p = e.unwrap().path();
        let game = p.file_stem().unwrap().to_string_lossy().into_owned();
        let facts: Facts = toml::from_str(&std::fs::read_to_string(&p).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        out.push((game, facts));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn every_game_has_its_rule_facts_listed() {
    let listed: Vec<String> = games().into_iter().map(|(g, _)| g).collect();
    let mut seeded: Vec<String> = std::fs::read_dir(repo().join("data"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    seeded.sort();
    assert_eq!(
        listed, seeded,
        "tests/rule_facts/<game>.toml for every game of data/"
    );
}

#[test]
fn check_refuses_a_realistic_edit_of_every_rule_fact() {
    let mut problems = Vec::new();
    for (game, facts) in games() {
        let files = game_files(&game);
        if let Some(err) = refused(&game, &files) {
            panic!("{game}: the data as it is fails check:\n{err}");
        }
        let mut jobs = Vec::new();
        for f in &facts.fact {
            assert!(!f.edits.is_empty(), "{game}: {:?} has no edit", f.rule);
            for e in &f.edits {
                jobs.push((f, e));
            }
        }
        let found: Vec<Option<String>> = jobs
            .par_iter()
            .map(|(f, e)| {
                let path = format!("data/{game}/{}", f.file);
                match edited(&files, &path, e) {
                    Err(why) => Some(format!("{game}: {:?}: {why}", f.rule)),
                    Ok(changed) => refused(&game, &changed).is_none().then(|| {
                        format!(
                            "{game}: {:?}: check lets {:?} -> {:?} in {} through",
                            f.rule, e[0], e[1], f.file
                        )
                    }),
                }
            })
            .collect();
        let missed: Vec<String> = found.into_iter().flatten().collect();
        eprintln!(
            "{game}: {} rule facts, {} edits, {} refused",
            facts.fact.len(),
            jobs.len(),
            jobs.len() - missed.len()
        );
        problems.extend(missed);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The board's footprint check (game.toml): a route bend moved so that one space
/// comes closer to another space or a city is refused, and the error names the
/// space the truck stands on and what it covers.
#[test]
fn check_refuses_a_space_moved_under_a_truck_naming_both() {
    let game = "interstate-trucking";
    let files = game_files(game);
    // I-5 San Diego - Los Angeles follows the coast west; straightened, its one
    // space comes within a truck's length of the two cities.
    let edit = [
        "via = [[126.9, 379.6], [128.0, 370.3]]".to_string(),
        "via = [[140.0, 375.0]]".to_string(),
    ];
    let changed = edited(&files, &format!("data/{game}/routes.toml"), &edit).unwrap();
    let err = refused(game, &changed).expect("check refuses the moved space");
    assert!(
        err.contains("a truck with all its trailers, standing on a movement space along its road, must not cover another space or a city: a truck (26.5 x 19.5 mm) on space 1 of san-diego - los-angeles covers"),
        "{err}"
    );
    assert!(err.contains("of the city dot of Los Angeles"), "{err}");
}
