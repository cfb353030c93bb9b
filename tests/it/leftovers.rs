//! The tests leave nothing in the temporary folder: a build the tests share lives
//! in a `static` (never dropped), so its folder is removed when the binary exits.

use std::process::Command;
use std::sync::OnceLock;

use crate::common::{shared_tempdir, texts};

/// What the test below runs in a child test binary: a shared folder kept in a
/// `static`, with a file in it, as a shared build's output is.
#[test]
fn a_shared_folder_in_a_static() {
    static KEPT: OnceLock<tempfile::TempDir> = OnceLock::new();
    let dir = KEPT.get_or_init(shared_tempdir).path();
    std::fs::write(dir.join("sheet.pdf"), "kept until the binary exits").unwrap();
    println!("shared folder: {}", dir.display());
}

#[test]
fn a_shared_folder_is_removed_when_the_tests_end() {
    let tmp = tempfile::tempdir().unwrap();
    let o = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "leftovers::a_shared_folder_in_a_static"])
        .args(["--test-threads", "1", "--nocapture"])
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("1 passed"), "{stdout}");
    let made = stdout
        .lines()
        .find_map(|l| Some(l.split_once("shared folder: ")?.1))
        .unwrap_or_else(|| panic!("no folder named:\n{stdout}"));
    assert!(
        std::path::Path::new(made).starts_with(tmp.path()),
        "{made} is not in the child's temporary folder"
    );
    let left: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "left in the temporary folder: {left:?}");
}
