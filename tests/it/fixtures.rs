//! The fixture corpus: every `tests/fixtures/<case>/` is the small game in
//! `tests/fixtures/base/` with the case's files laid over it (a file `X.delete`
//! removes `X`). The case runs `cardstock` with the arguments in `args.txt` (default
//! `build`) and its exit status, stdout and stderr must equal `expected.txt`.
//! `CARDSTOCK_BLESS=1 cargo test --test fixtures` rewrites the expected files.

use std::path::Path;

use crate::common::*;

fn overlay(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if name == "expected.txt" || name == "args.txt" {
            continue;
        }
        let t = to.join(&name);
        if p.is_dir() {
            std::fs::create_dir_all(&t).unwrap();
            overlay(&p, &t);
        } else if let Some(target) = name.strip_suffix(".delete") {
            let _ = std::fs::remove_file(to.join(target));
        } else {
            std::fs::copy(&p, &t).unwrap();
        }
    }
}

fn run_case(case: &Path) -> String {
    let tmp = base_copy();
    overlay(case, tmp.path());
    let args = std::fs::read_to_string(case.join("args.txt")).unwrap_or_else(|_| "build".into());
    let args: Vec<&str> = args.split_whitespace().collect();
    let o = run(tmp.path(), &args);
    let (stdout, stderr) = texts(&o);
    let root = tmp.path().to_string_lossy().into_owned();
    let clean = |s: &str| s.replace(&root, "<project>");
    format!(
        "args: {}\nexit: {}\n--- stdout\n{}--- stderr\n{}",
        args.join(" "),
        o.status
            .code()
            .map(|c| c.to_string())
            .unwrap_or_else(|| "killed".into()),
        clean(&stdout),
        clean(&stderr)
    )
}

#[test]
fn fixture_corpus() {
    let dir = repo().join("tests/fixtures");
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() && p.file_name().unwrap() != "base")
        .collect();
    cases.sort();
    let invalid = cases
        .iter()
        .filter(|c| {
            c.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("invalid-")
        })
        .count();
    assert!(invalid >= 25, "the corpus has {invalid} invalid cases");
    let bless = std::env::var_os("CARDSTOCK_BLESS").is_some();
    let mut failures = Vec::new();
    for case in &cases {
        let actual = run_case(case);
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("invalid-") {
            assert!(
                actual.contains("\nexit: 1\n") || actual.contains("\nexit: 2\n"),
                "{name} must fail:\n{actual}"
            );
        }
        let path = case.join("expected.txt");
        if bless {
            std::fs::write(&path, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        if expected != actual {
            failures.push(format!(
                "== {name}\n--- expected\n{expected}\n--- actual\n{actual}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} fixture(s) differ (CARDSTOCK_BLESS=1 to accept):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn base_fixture_builds() {
    let tmp = base_copy();
    let o = run(tmp.path(), &["build"]);
    assert!(o.status.success(), "{:?}", texts(&o));
    assert!(tmp.path().join("output/mini/home/mini.pdf").is_file());
}
