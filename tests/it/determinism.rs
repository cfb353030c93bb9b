//! Same input, same bytes, whatever the number of threads: every game built on one
//! thread and on three (games side by side, faces parsed on the pool, the PDF
//! writer's parse-ahead), and Truck Off with more pad sheets than the face store
//! keeps parsed (trees dropped and parsed again).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::common::{repo, texts};

/// Every file under `dir` (the PNG cache aside), by path relative to it.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().to_string();
            if rel.contains(".cache") || rel.ends_with(".cardstock.lock") {
                continue;
            }
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Builds with `args` on `threads` threads into a new folder; its files.
fn build(args: &[&str], threads: &str) -> BTreeMap<String, Vec<u8>> {
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
    files(out.path())
}

fn assert_same(a: &BTreeMap<String, Vec<u8>>, b: &BTreeMap<String, Vec<u8>>) {
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "the same files"
    );
    for (path, bytes) in a {
        assert!(bytes == &b[path], "{path} differs between 1 and 3 threads");
    }
}

#[test]
fn every_game_is_the_same_bytes_on_one_thread_and_on_three() {
    let one = build(&["build"], "1");
    assert!(one.len() > 15, "{:?}", one.keys());
    assert_same(&one, &build(&["build"], "3"));
}

#[test]
fn pads_parsed_again_are_the_same_bytes() {
    // 60 sheets of about 2.5 MB parsed: over the face store's budget, so trees are
    // dropped and parsed again while the two PDFs are written.
    let args = ["build", "truck-off", "--copies", "60"];
    assert_same(&build(&args, "1"), &build(&args, "3"));
}
