//! Same input, same bytes, whatever the number of threads: every game built on one
//! thread and on three (games side by side, faces parsed on the pool, the PDF
//! writer's parse-ahead), as PDF, SVG and PNG (at 60 dpi: the resolution is not
//! what is tested, and the PNGs of two builds at 300 dpi took most of a build; the
//! build on one thread is the print tests' build at home on Letter), and
//! Truck Off with more pad sheets than the face store keeps parsed (trees dropped
//! and parsed again).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use crate::common::{repo, texts};
use crate::hostile::files_under;

/// A build's files by path (the PNG cache aside).
type Files = BTreeMap<PathBuf, Vec<u8>>;

/// Builds with `args` on `threads` threads into a new folder; its files.
fn build(args: &[&str], threads: &str) -> Files {
    let out = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_cardstock"))
        .args(args)
        .args(["--out", out.path().to_str().unwrap()])
        .env("RAYON_NUM_THREADS", threads)
        .current_dir(repo())
        .output()
        .unwrap();
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    files_under(out.path())
}

fn assert_same(a: &Files, b: &Files) {
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "the same files"
    );
    for (path, bytes) in a {
        assert!(
            bytes == &b[path],
            "{} differs between 1 and 3 threads",
            path.display()
        );
    }
}

#[test]
fn every_game_is_the_same_bytes_on_one_thread_and_on_three() {
    // The build on one thread is the one the print tests read (every game at home
    // on Letter, `print::ONE_THREAD_FACES`); the fixture game built beside it is
    // not one of the games built here (the output folder's own files are).
    let shared = crate::print::home_letter();
    let games = repo().join("data");
    let one: Files = files_under(shared.dir.path())
        .into_iter()
        .filter(|(path, _)| {
            let first = path.components().next().unwrap().as_os_str();
            path.components().count() == 1 || games.join(first).join("game.toml").is_file()
        })
        .collect();
    let mut args = vec!["build", "--profile", "home", "--paper", "letter"];
    args.extend(crate::print::ONE_THREAD_FACES);
    for kind in ["pdf", "svg", "png"] {
        let n = one
            .keys()
            .filter(|p| p.extension().is_some_and(|e| e == kind))
            .count();
        assert!(n > 15, "{n} {kind} files: {:?}", one.keys());
    }
    assert_same(&one, &build(&args, "3"));
}

#[test]
fn pads_parsed_again_are_the_same_bytes() {
    // 60 sheets of about 2.5 MB parsed: over the face store's budget, so trees are
    // dropped and parsed again while the two PDFs are written.
    let args = ["build", "truck-off", "--copies", "60"];
    assert_same(&build(&args, "1"), &build(&args, "3"));
}
