//! Shared helpers for the integration tests: run the real binary on a project,
//! copy projects into temporary folders, compare output with snapshot files.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root (holds data/ and templates/).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `cardstock` with `args` in `dir`.
pub fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardstock"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("cardstock runs")
}

/// stdout and stderr as text.
pub fn texts(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Copies a folder tree.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let p = e.path();
        let t = to.join(e.file_name());
        if p.is_dir() {
            copy_dir(&p, &t);
        } else {
            std::fs::copy(&p, &t).unwrap();
        }
    }
}

/// A temporary copy of the real project's data/ and templates/ (and only the games
/// named, to keep it fast).
pub fn project_copy(games: &[&str]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for g in games {
        copy_dir(
            &repo().join("data").join(g),
            &tmp.path().join("data").join(g),
        );
        copy_dir(
            &repo().join("templates").join(g),
            &tmp.path().join("templates").join(g),
        );
    }
    copy_dir(
        &repo().join("templates/common"),
        &tmp.path().join("templates/common"),
    );
    tmp
}

/// Replaces `from` with `to` in a file (which must contain `from`).
pub fn edit(path: &Path, from: &str, to: &str) {
    let s = std::fs::read_to_string(path).unwrap();
    assert!(
        s.contains(from),
        "{} does not contain {from:?}",
        path.display()
    );
    std::fs::write(path, s.replacen(from, to, 1)).unwrap();
}

/// Compares `actual` with `tests/snapshots/<name>.txt`. With CARDSTOCK_BLESS=1 the
/// snapshot is (re)written instead.
pub fn snapshot(name: &str, actual: &str) {
    let path = repo().join("tests/snapshots").join(format!("{name}.txt"));
    if std::env::var_os("CARDSTOCK_BLESS").is_some()
        || !path.exists() && std::env::var_os("CI").is_none()
    {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected != actual {
        panic!(
            "snapshot {name} differs (run with CARDSTOCK_BLESS=1 to accept)\n--- expected\n{expected}\n--- actual\n{actual}"
        );
    }
}

/// Runs pdftotext (poppler-utils) on one page of a PDF.
pub fn pdftotext(pdf: &Path, page: usize) -> String {
    let o = Command::new("pdftotext")
        .args(["-f", &page.to_string(), "-l", &page.to_string(), "-layout"])
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) is installed");
    assert!(o.status.success());
    String::from_utf8_lossy(&o.stdout).into_owned()
}
