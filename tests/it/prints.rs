//! Print records and reprints, through the real binary on a copy of Interstate
//! Trucking: `printed` records the print; after a change to one contract, to one
//! route's length (which moves several contracts' fees and the board) and to the
//! money's template, `reprint` prints exactly those parts (read back from the
//! PDFs), fronts with their backs in duplex order, and `changes.md` names each with
//! its old and new values. Recording again leaves nothing to reprint; a removed row
//! is listed to take out; a grown `qty` prints only the extra copies; revision
//! marks count over three records while unchanged faces stay byte-identical.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::*;
use crate::print::{assert_clean, check_files, read_pdf};

const GAME: &str = "interstate-trucking";

/// Runs cardstock in `dir` on a fixed day (records are dated).
fn cs(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardstock"))
        .args(args)
        .current_dir(dir)
        .env("SOURCE_DATE_EPOCH", "1748736000") // 2025-06-01
        .output()
        .expect("cardstock runs")
}

/// Runs cardstock and asserts it succeeded; its stdout.
fn ok(dir: &Path, args: &[&str]) -> String {
    let o = cs(dir, args);
    let (out, err) = texts(&o);
    assert!(o.status.success(), "{args:?} failed:\n{out}\n{err}");
    out
}

fn data(dir: &Path, file: &str) -> PathBuf {
    dir.join("data").join(GAME).join(file)
}

/// Sets the `city` of contract number `n` (1-based) to `city`; its city before.
fn move_contract(dir: &Path, n: usize, city: &str) -> String {
    let path = data(dir, "contracts.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut parts: Vec<String> = text.split("[[contract]]").map(String::from).collect();
    let block = &parts[n];
    let at = block.find("city = \"").unwrap() + "city = \"".len();
    let end = at + block[at..].find('"').unwrap();
    let old = block[at..end].to_string();
    assert_ne!(old, city);
    parts[n] = format!("{}{city}{}", &block[..at], &block[end..]);
    std::fs::write(&path, parts.join("[[contract]]")).unwrap();
    old
}

/// The files of a folder and below, relative to it, with their bytes.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push((
                    p.strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

fn reprint_dir(dir: &Path, profile: &str) -> PathBuf {
    dir.join("output").join(GAME).join(profile).join("reprint")
}

/// The words of every page of a PDF, a string a page.
fn page_texts(pdf: &Path) -> Vec<String> {
    read_pdf(pdf).pages.iter().map(|p| p.text()).collect()
}

#[test]
fn reprint_prints_what_changed_and_names_it() {
    let tmp = project_copy(&[GAME]);
    let dir = tmp.path();
    copy_dir(&repo().join("profiles"), &dir.join("profiles"));
    let out = ok(dir, &["printed", GAME, "--note", "first playtest"]);
    assert!(
        out.contains("recorded print 1 (325 parts in 10 sets)"),
        "{out}"
    );
    let record = dir
        .join("prints")
        .join(GAME)
        .join("001-2025-06-01-first-playtest.toml");
    assert!(record.is_file());
    // One contract's data, one route's length, the money's template.
    let old_city = move_contract(dir, 10, "boston");
    edit(
        &data(dir, "routes.toml"),
        "miles = 635\nspaces = 6",
        "miles = 535\nspaces = 5",
    );
    edit(
        &dir.join("templates").join(GAME).join("bill.svg"),
        "stroke-width=\"0.6\"",
        "stroke-width=\"0.7\"",
    );
    let out = ok(dir, &["reprint", GAME]);
    let rp = reprint_dir(dir, "home");
    let changes = std::fs::read_to_string(rp.join("changes.md")).unwrap();
    assert!(
        out.contains(&changes),
        "the terminal shows changes.md:\n{out}"
    );
    assert!(
        changes.contains("Reprint 107 of 325 parts: 12 of 88 Contract cards, 0 of 88 Goods chits, 0 of 18 Rest markers, 0 of 12 Trailers, 0 of 6 Cabs, 0 of 6 Colour markers, 94 of 94 Money, 0 of 6 Player aids, 0 of 6 Player screens, 1 of 1 Board."),
        "{changes}"
    );
    let lines: Vec<&str> = changes.lines().filter(|l| l.starts_with("- ")).collect();
    let moved: Vec<&&str> = lines
        .iter()
        .filter(|l| l.contains("(from route #3 (from san-francisco, to portland, highway I-5): miles: 635 -> 535, spaces: 6 -> 5"))
        .collect();
    assert_eq!(moved.len(), 11, "the route moves 11 fees:\n{changes}");
    for l in &moved {
        // One move fewer, $100 less.
        let fee = l.split("fee: ").nth(1).unwrap();
        let (old, new) = fee.split_once(" -> ").unwrap();
        let new: i64 = new.split(',').next().unwrap().parse().unwrap();
        assert_eq!(old.parse::<i64>().unwrap() - 100, new, "{l}");
        assert!(l.contains("· r2"), "{l}");
    }
    assert!(
        lines.iter().any(
            |l| l.starts_with("- #10 (good citrus, city boston) · r2: city: ")
                && l.contains(&format!("city: {old_city} -> boston, fee: "))
                && l.contains("(data/interstate-trucking/contracts.toml:")
        ),
        "{changes}"
    );
    assert!(
        changes.contains(
            "- every part (3 faces, 94 parts): template `interstate-trucking/bill.svg` changed"
        ),
        "one line for a template change:\n{changes}"
    );
    assert!(
        changes.contains("- Board · r2: it shows route #3 (from san-francisco, to portland, highway I-5): miles: 635 -> 535, spaces: 6 -> 5 (data/interstate-trucking/routes.toml:49)"),
        "{changes}"
    );
    // The PDFs: the 12 contracts, fronts then their mirrored backs, and the money
    // and the board on one-sided sheets; nothing else.
    let duplex = rp.join(format!("{GAME}-reprint.pdf"));
    let one_sided = rp.join(format!("{GAME}-reprint-one-sided.pdf"));
    let report = check_files(&[duplex.clone(), one_sided.clone()], &rp, true);
    assert_clean("reprint", &report);
    let pages = page_texts(&duplex);
    assert_eq!(pages.len(), 4, "8 + 4 contracts, each sheet with its backs");
    let fronts = pages[0].clone() + " " + &pages[2];
    assert_eq!(fronts.matches("CONTRACT").count(), 12, "{fronts}");
    for l in &lines[..12] {
        let fee = l
            .split("fee: ")
            .nth(1)
            .unwrap()
            .split(" -> ")
            .nth(1)
            .unwrap();
        let fee: i64 = fee.split(',').next().unwrap().parse().unwrap();
        let money = format!("${},{:03}", fee / 1000, fee % 1000);
        assert!(fronts.contains(&money), "{money} on the fronts");
    }
    assert!(fronts.contains("Boston, MA"), "{fronts}");
    assert_eq!(
        fronts.split(' ').filter(|w| *w == "r2").count(),
        12,
        "each marked r2"
    );
    assert!(!pages[1].contains("DELIVER") && !pages[3].contains("DELIVER"));
    let sheets = read_pdf(&duplex);
    assert_eq!(
        sheets.pages.iter().map(|p| p.faces.len()).sum::<usize>(),
        24
    );
    let one = page_texts(&one_sided).join(" ");
    assert!(one.contains("$2,500") && one.contains("Board"), "{one}");
    for absent in ["PLAYER AID", "YOUR TURN", "WILD"] {
        assert!(!one.contains(absent), "{absent} was not changed");
    }
    let names: Vec<String> = files(&rp)
        .into_iter()
        .map(|(p, _)| p.display().to_string())
        .collect();
    assert_eq!(
        names,
        [
            "changes.md",
            "interstate-trucking-reprint-board-real-size.pdf",
            "interstate-trucking-reprint-one-sided.pdf",
            "interstate-trucking-reprint.pdf",
            "manifest.json"
        ]
    );
    // Gutterfold: each changed contract above its back, on one-sided sheets.
    ok(dir, &["reprint", GAME, "--profile", "gutterfold"]);
    let fold = reprint_dir(dir, "gutterfold").join(format!("{GAME}-reprint.pdf"));
    let report = check_files(std::slice::from_ref(&fold), dir, false);
    assert_clean("gutterfold reprint", &report);
    assert_eq!(page_texts(&fold).join(" ").matches("CONTRACT").count(), 12);
    // Recorded again: nothing left to reprint, and the last reprint's PDFs go.
    let out = ok(dir, &["printed", GAME, "--note", "second"]);
    assert!(out.contains("recorded print 2"), "{out}");
    let out = ok(dir, &["reprint", GAME]);
    assert!(out.contains("Nothing changed since print 2 (2025-06-01, \"second\"): all 325 parts printed are current."), "{out}");
    let names: Vec<String> = files(&rp)
        .into_iter()
        .map(|(p, _)| p.display().to_string())
        .collect();
    assert_eq!(names, ["changes.md", "manifest.json"]);
}

#[test]
fn a_removed_row_is_taken_out_and_a_grown_qty_prints_the_extra_copies() {
    let tmp = project_copy(&[GAME]);
    let dir = tmp.path();
    ok(dir, &["printed", GAME]);
    let contracts = data(dir, "contracts.toml");
    let text = std::fs::read_to_string(&contracts).unwrap();
    let last = text.rfind("[[contract]]").unwrap();
    std::fs::write(&contracts, &text[..last]).unwrap();
    edit(&data(dir, "game.toml"), "contracts = 88", "contracts = 87");
    edit(&data(dir, "money.toml"), "qty = 40", "qty = 45");
    let out = ok(dir, &["reprint", GAME]);
    assert!(out.contains("Reprint 5 of 329 parts"), "{out}");
    assert!(
        out.contains("Take out of the printed game:\n\n- #88 (good "),
        "{out}"
    );
    assert!(out.contains("no longer in the game"), "{out}");
    assert!(out.contains(": 5 more (copies: 40 -> 45)"), "{out}");
    // No card changed: one PDF, of one-sided sheets, with the 5 bills.
    let rp = reprint_dir(dir, "home");
    let names: Vec<String> = files(&rp)
        .into_iter()
        .map(|(p, _)| p.display().to_string())
        .collect();
    assert_eq!(
        names,
        [
            "changes.md",
            "interstate-trucking-reprint.pdf",
            "manifest.json"
        ]
    );
    let pdf = read_pdf(&rp.join(format!("{GAME}-reprint.pdf")));
    assert_eq!(pdf.duplex.as_deref(), Some("Simplex"));
    assert_eq!(
        pdf.pages.iter().map(|p| p.faces.len()).sum::<usize>(),
        5,
        "only the extra copies"
    );
}

/// `<out>/interstate-trucking/home/<face>` of a build.
fn face(out: &Path, name: &str) -> Vec<u8> {
    std::fs::read(out.join(GAME).join("home").join(name)).unwrap()
}

#[test]
fn revision_marks_count_prints_and_unchanged_faces_stay_byte_identical() {
    let tmp = project_copy(&[GAME]);
    let dir = tmp.path();
    let build = |name: &str| {
        let out = dir.join(name);
        ok(
            dir,
            &[
                "build",
                GAME,
                "--format",
                "svg,png",
                "--dpi",
                "40",
                "--out",
                out.to_str().unwrap(),
            ],
        );
        out
    };
    let svg = |out: &Path, n: usize| {
        String::from_utf8(face(out, &format!("svg/contracts/{n:03}-front.svg"))).unwrap()
    };
    let a = build("a");
    assert!(svg(&a, 10).contains(">r1</text>"));
    ok(dir, &["printed", GAME]);
    move_contract(dir, 10, "boston");
    let b = build("b");
    assert!(svg(&b, 10).contains(">r2</text>"), "changed since print 1");
    assert!(svg(&b, 1).contains(">r1</text>"));
    for f in [
        "svg/contracts/001-front.svg",
        "png/contracts/001-front.png",
        "svg/contracts/001-back.svg",
    ] {
        assert!(face(&a, f) == face(&b, f), "{f} is byte-identical");
    }
    assert!(face(&a, "png/contracts/010-front.png") != face(&b, "png/contracts/010-front.png"));
    ok(dir, &["printed", GAME]);
    move_contract(dir, 10, "atlanta");
    move_contract(dir, 20, "atlanta");
    ok(dir, &["printed", GAME]);
    let c = build("c");
    assert!(
        svg(&c, 10).contains(">r3</text>"),
        "changed in prints 2 and 3"
    );
    assert!(svg(&c, 20).contains(">r2</text>"));
    assert!(svg(&c, 1).contains(">r1</text>"));
    for f in ["svg/contracts/001-front.svg", "png/contracts/001-front.png"] {
        assert!(
            face(&a, f) == face(&c, f),
            "{f} is byte-identical after three prints"
        );
    }
    let record =
        std::fs::read_to_string(dir.join("prints").join(GAME).join("003-2025-06-01.toml")).unwrap();
    assert!(
        record.contains("\"#10\" = { qty = 1, revision = 3, "),
        "{record}"
    );
    assert!(record.contains("\"#20\" = { qty = 1, revision = 2, "));
    assert!(record.contains("\"#1\" = { qty = 1, revision = 1, "));
    // Against print 1, the two contracts changed; nothing since print 3.
    let out = ok(dir, &["reprint", GAME, "--since", "1"]);
    assert!(
        out.contains("Reprint 2 of 325 parts: 2 of 88 Contract cards"),
        "{out}"
    );
    assert!(
        out.contains("- #10 (good citrus, city atlanta) · r3: city: san-francisco -> atlanta"),
        "{out}"
    );
    assert!(ok(dir, &["reprint", GAME]).contains("Nothing changed since print 3"));
}

#[test]
fn a_shop_reprint_writes_only_the_changed_faces() {
    let tmp = project_copy(&[GAME]);
    let dir = tmp.path();
    copy_dir(&repo().join("profiles"), &dir.join("profiles"));
    ok(dir, &["printed", GAME, "--profile", "thegamecrafter"]);
    move_contract(dir, 10, "boston");
    ok(dir, &["reprint", GAME, "--profile", "thegamecrafter"]);
    let names: Vec<String> = files(&reprint_dir(dir, "thegamecrafter"))
        .into_iter()
        .map(|(p, _)| p.display().to_string())
        .collect();
    assert_eq!(
        names,
        ["changes.md", "contracts/010-front.png", "manifest.json"]
    );
}

#[test]
fn a_failed_reprint_leaves_the_last_one_and_records_are_read_inside_the_project_only() {
    let tmp = project_copy(&[GAME]);
    let dir = tmp.path();
    ok(dir, &["build", GAME]);
    let home = dir.join("output").join(GAME).join("home");
    let build = files(&home);
    ok(dir, &["printed", GAME]);
    move_contract(dir, 10, "boston");
    ok(dir, &["reprint", GAME]);
    let rp = reprint_dir(dir, "home");
    let before = files(&rp);
    assert!(before.len() > 2);
    // A reprint leaves the build's files, and a build the reprint.
    for (p, bytes) in &build {
        assert!(
            std::fs::read(home.join(p)).unwrap() == *bytes,
            "{} is as it was",
            p.display()
        );
    }
    ok(dir, &["build", GAME]);
    assert!(files(&rp) == before, "a build keeps the reprint");
    // A change with an error: nothing is written, the last reprint stays.
    edit(
        &dir.join("templates").join(GAME).join("contract.svg"),
        "{% block body %}",
        "{% block body %}{% if %}",
    );
    let o = cs(dir, &["reprint", GAME]);
    let (_, err) = texts(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("interstate-trucking: not reprinted (the previous reprint is as it was)"),
        "{err}"
    );
    assert!(files(&rp) == before, "the last reprint is byte-identical");
    edit(
        &dir.join("templates").join(GAME).join("contract.svg"),
        "{% block body %}{% if %}",
        "{% block body %}",
    );
    // Output into the project's sources is refused.
    let o = cs(dir, &["reprint", GAME, "--out", "data"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(texts(&o).1.contains("refusing to write output into data"));
    // The records' folder linked to outside the project is refused, by every command.
    #[cfg(unix)]
    {
        let outside = tempfile::tempdir().unwrap();
        let prints = dir.join("prints").join(GAME);
        copy_dir(&prints, outside.path());
        std::fs::remove_dir_all(&prints).unwrap();
        std::os::unix::fs::symlink(outside.path(), &prints).unwrap();
        for args in [&["reprint", GAME][..], &["printed", GAME], &["build", GAME]] {
            let o = cs(dir, args);
            let (out, err) = texts(&o);
            assert_eq!(o.status.code(), Some(1), "{args:?}: {out}{err}");
            assert!(
                err.contains("prints/interstate-trucking") && err.contains("outside the project"),
                "{err}"
            );
        }
        assert!(files(&rp) == before);
        assert_eq!(
            std::fs::read_dir(outside.path()).unwrap().count(),
            1,
            "nothing written outside"
        );
    }
}

#[test]
fn the_preview_filters_the_faces_changed_since_the_last_print() {
    let Some(chrome) = crate::cdp::chromium_or_skip("the_preview_filters_the_faces_changed") else {
        return;
    };
    let tmp = project_copy(&[GAME]);
    let dir = tmp.path();
    ok(dir, &["printed", GAME]);
    move_contract(dir, 10, "boston");
    let serve = crate::serve::Serve::start(dir, &[]);
    let mut b = crate::cdp::Browser::open(&chrome, &serve.url, 1400, 1000);
    b.wait_for("document.querySelectorAll('figure.face').length > 100", 60);
    assert_eq!(
        b.eval("document.querySelector('#changed').textContent"),
        "Changed since print 1 (1)"
    );
    b.eval("document.querySelector('#changed').click()");
    let shown = b.wait_for(
        "(() => { const s = [...document.querySelectorAll('figure.face')].filter(f => !f.hidden); return s.length === 1 ? s[0].dataset.id : null; })()",
        10,
    );
    assert_eq!(shown, "contracts/010-front");
    b.eval("document.querySelector('figure[data-id=\"contracts/010-front\"]').click()");
    let facts = b.wait_for("document.querySelector('#detail-facts').textContent", 10);
    let facts = facts.as_str().unwrap();
    assert!(facts.contains("Revisionr2"), "{facts}");
    assert!(
        facts.contains("Since print 1city: san-francisco -> boston, fee: 1300 -> 1900"),
        "{facts}"
    );
    // Off again: every face.
    b.eval("document.querySelector('#changed').click()");
    b.wait_for(
        "[...document.querySelectorAll('figure.face')].every(f => !f.hidden)",
        10,
    );
}
