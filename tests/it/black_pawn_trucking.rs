//! Black Pawn Trucking end to end: build the real data, read the playmat, the map
//! and the paper piecepack back from the PDF, and break the map's rules on purpose.

use std::path::{Path, PathBuf};

use crate::common::pdf::Document;
use crate::common::*;

const GAME: &str = "black-pawn-trucking";

/// Builds the real game once per test binary (PDF and SVG) into a temporary folder.
fn built() -> &'static Path {
    static OUT: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    build_once(
        &OUT,
        &["build", GAME, "--format", "pdf,svg"],
        "black-pawn-trucking: 7 component sets, 59 parts, 11 pages",
    )
}

/// The one-sided parts: the playmat, the map's tiles, the diagram, the dice and
/// pawn sheet.
fn pdf() -> PathBuf {
    built()
        .join(GAME)
        .join("home")
        .join(format!("{GAME}-one-sided.pdf"))
}

/// The double-sided parts: the piecepack tiles and coins, fronts and backs.
fn duplex() -> PathBuf {
    built().join(GAME).join("home").join(format!("{GAME}.pdf"))
}

/// The game's `[rules]`, read from the data the way the engine reads it.
fn rules() -> toml::Table {
    let text = std::fs::read_to_string(repo().join("data").join(GAME).join("game.toml")).unwrap();
    let doc: toml::Table = toml::from_str(&text).unwrap();
    doc["rules"].as_table().unwrap().clone()
}

fn int(rules: &toml::Table, key: &str) -> i64 {
    rules[key]
        .as_integer()
        .unwrap_or_else(|| panic!("[rules] {key} is a number"))
}

/// Text with all runs of whitespace made single spaces.
fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The cells of a track as read back from the playmat page: the words on the line
/// that starts with the track's label, after the label.
fn track_cells(page: &str, label: &str) -> Vec<String> {
    let line = page
        .lines()
        .find(|l| l.trim_start().starts_with(label))
        .unwrap_or_else(|| panic!("no line starts with {label:?} in:\n{page}"));
    line.trim_start()[label.len()..]
        .split_whitespace()
        .map(String::from)
        .collect()
}

fn strings(v: impl IntoIterator<Item = String>) -> Vec<String> {
    v.into_iter().collect()
}

/// Width and height of a box in millimetres.
fn size_mm(b: &[f64]) -> (f64, f64) {
    ((b[2] - b[0]) * 25.4 / 72.0, (b[3] - b[1]) * 25.4 / 72.0)
}

#[test]
fn playmat_tracks_read_back() {
    let r = rules();
    let page = pdftotext(&pdf(), 1);
    let limit = int(&r, "loan_limit");
    assert_eq!(
        track_cells(&page, "Loans"),
        strings((1..=limit).map(|n| n.to_string())),
        "the Loans track runs 1..loan_limit"
    );
    assert_eq!(
        track_cells(&page, "Money: £1s"),
        strings((0..=9).map(|n| format!("£{n}")))
    );
    assert_eq!(
        track_cells(&page, "Money: £10s"),
        strings((0..=9).map(|n| format!("£{}", n * 10)))
    );
    // The Goods in Transit box: 10 numbered slots in two rows of 5.
    let text = flat(&page);
    assert!(text.contains("Goods in transit"), "{text}");
    assert!(text.contains("1 2 3 4 5"), "{text}");
    assert!(text.contains("6 7 8 9 10"), "{text}");
}

#[test]
fn playmat_tracks_in_svg() {
    // The common track macro draws one rect per cell inside a <g class="track">.
    let svg =
        std::fs::read_to_string(built().join(GAME).join("home/svg/playmat/001-front.svg")).unwrap();
    let groups: Vec<&str> = svg.split("<g class=\"track\">").skip(1).collect();
    assert_eq!(groups.len(), 4, "loans, two money tracks, goods in transit");
    let cells: Vec<usize> = groups
        .iter()
        .map(|g| g.split("</g>").next().unwrap().matches("<rect").count())
        .collect();
    assert_eq!(cells, vec![10, 10, 10, 10]);
    // The starting spaces are highlighted: 1 loan, £0 + £10.
    assert_eq!(svg.matches("fill=\"#f6d55c\"").count(), 3);
}

#[test]
fn turn_summary_prints_the_rules_numbers() {
    let r = rules();
    let text = flat(&pdftotext(&pdf(), 1));
    let gbp = |key: &str| format!("£{}", int(&r, key));
    for phase in [
        "Loans (optional)",
        "Load goods",
        "Move the truck",
        "Deliver goods",
        "New contracts",
    ] {
        assert!(text.contains(phase), "phase {phase:?} missing:\n{text}");
    }
    let interest = int(&r, "loan") * int(&r, "interest_percent") / 100;
    for needle in [
        format!("Borrow {} per loan", gbp("loan")),
        format!("needing more than {} loses the game", int(&r, "loan_limit")),
        format!("{} per city entered", gbp("fuel_per_city")),
        format!("{} per good carried", gbp("fuel_per_good")),
        format!("{} per ferry", gbp("fuel_per_ferry")),
        format!("without stopping: {} fine", gbp("breach_fine")),
        format!("fewer than {} goods on the map", int(&r, "contract_below")),
        format!("you may pay {}", gbp("contract_price")),
        "roll the 4 dice".to_string(),
        format!("£{interest} interest per loan"),
        "by ferry (2 & 11, 6 & 17)".to_string(),
        format!("loan number {}", int(&r, "loan_limit") + 1),
        "A = £1".to_string(),
        "n = £6".to_string(),
    ] {
        assert!(
            text.contains(&needle),
            "turn summary lacks {needle:?}:\n{text}"
        );
    }
}

#[test]
fn changing_a_rule_changes_the_playmat() {
    let tmp = project_copy(&[GAME]);
    let game = tmp.path().join("data").join(GAME).join("game.toml");
    edit(&game, "loan_limit = 10 ", "loan_limit = 8 ");
    edit(&game, "contract_price = 4 ", "contract_price = 5 ");
    edit(&game, "breach_fine = 1 ", "breach_fine = 3 ");
    // The rulebook's numbers are pinned by an [[assert]] (a rule changed by mistake
    // stops the build): a designer changing the rule changes the pin with it.
    edit(&game, "'loan_limit': 10", "'loan_limit': 8");
    edit(&game, "'contract_price': 4", "'contract_price': 5");
    edit(&game, "'breach_fine': 1", "'breach_fine': 3");
    let out = tmp.path().join("out");
    let o = run(tmp.path(), &["build", GAME, "--out", out.to_str().unwrap()]);
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    let page = pdftotext(
        &out.join(GAME)
            .join("home")
            .join(format!("{GAME}-one-sided.pdf")),
        1,
    );
    assert_eq!(
        track_cells(&page, "Loans"),
        strings((1..=8).map(|n| n.to_string()))
    );
    let text = flat(&page);
    for needle in [
        "more than 8 loses the game",
        "you may pay £5",
        "without stopping: £3 fine",
        "loan number 9",
        "more than 8: you lose",
    ] {
        assert!(text.contains(needle), "{needle:?} not in:\n{text}");
    }
}

#[test]
fn playmat_is_one_page_on_letter_and_a4() {
    // Letter (the default build): page 1 is the mat, landscape, trim 10 x 7.25 in.
    let doc = Document::load(pdf()).unwrap();
    let pages = doc.get_pages();
    assert_eq!(pages.len(), 7);
    let (w, h) = size_mm(&rect(&doc, pages[&1], b"MediaBox"));
    assert!(
        (w - 279.4).abs() < 0.1 && (h - 215.9).abs() < 0.1,
        "letter landscape: {w} x {h}"
    );
    let (tw, th) = size_mm(&rect(&doc, pages[&1], b"TrimBox"));
    assert!(
        (tw - 254.0).abs() < 0.1 && (th - 184.15).abs() < 0.1,
        "{tw} x {th}"
    );
    assert!(pdftotext(&pdf(), 2).contains("Map of Britain and Ireland (real size)"));

    // A4: still one page, now A4 landscape.
    let out = tempfile::tempdir().unwrap();
    let o = run(
        &repo(),
        &[
            "build",
            GAME,
            "--paper",
            "a4",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{:?}", texts(&o));
    let a4 = out
        .path()
        .join(GAME)
        .join("home")
        .join(format!("{GAME}-one-sided.pdf"));
    let doc = Document::load(&a4).unwrap();
    let pages = doc.get_pages();
    let (w, h) = size_mm(&rect(&doc, pages[&1], b"MediaBox"));
    assert!(
        (w - 297.0).abs() < 0.1 && (h - 210.0).abs() < 0.1,
        "A4 landscape: {w} x {h}"
    );
    assert!(pdftotext(&a4, 1).contains("Turn summary"));
    assert!(
        !pdftotext(&a4, 2).contains("Turn summary"),
        "the mat takes one page"
    );
}

#[test]
fn map_real_size_and_diagram() {
    // The real-size map: 15 x 15 in with the 2 in tiles; its own PDF page.
    let real = built()
        .join(GAME)
        .join("home")
        .join(format!("{GAME}-map-real-size.pdf"));
    let doc = Document::load(&real).unwrap();
    let pages = doc.get_pages();
    assert_eq!(pages.len(), 1);
    let (tw, th) = size_mm(&rect(&doc, pages[&1], b"TrimBox"));
    assert!(
        (tw - 381.0).abs() < 0.1 && (th - 381.0).abs() < 0.1,
        "{tw} x {th}"
    );
    let text = flat(&pdftotext(&real, 1));
    for n in 1..=24 {
        assert!(
            text.split(' ').any(|w| w == n.to_string()),
            "position {n} missing"
        );
    }
    for city in ["Dublin", "Glasgow", "Waterford", "Cardiff", "Ferry £2"] {
        assert!(text.contains(city), "{city} missing:\n{text}");
    }
    // Tiled for home printing: 2 x 2 Letter pages after the playmat.
    for p in 2..=5 {
        assert!(pdftotext(&pdf(), p).contains("Map of Britain and Ireland (real size) — tile"));
    }
    // The one-page diagram with the adjacency rule and the worked example, both
    // computed from the data.
    let diagram = flat(&pdftotext(&pdf(), 6));
    for needle in [
        "#3 is adjacent to #1, #4 and #5, not to #2 or #6",
        "#2 Dublin – #11 Glasgow and #6 Waterford – #17 Cardiff",
        "#18 to #5 with 2 goods passes through 3 cities (17, 6, 5): £3 + £2 ferry + £2 for the goods = £7",
    ] {
        assert!(diagram.contains(needle), "{needle:?} not in:\n{diagram}");
    }
}

#[test]
fn paper_piecepack() {
    let doc = Document::load(duplex()).unwrap();
    let pages = doc.get_pages();
    let sheets: Vec<String> = (1..=pages.len()).map(|p| pdftotext(&duplex(), p)).collect();
    let chits = pdftotext(&pdf(), 7);
    let text = format!("{}\n{chits}", sheets.join("\n"));
    // 24 tiles: every rank of every suit once.
    for suit in ["suns", "moons", "crowns", "arms"] {
        for rank in ["null", "ace", "2", "3", "4", "5"] {
            assert_eq!(
                text.matches(&format!("{rank} of {suit}")).count(),
                1,
                "{rank} of {suit}"
            );
        }
    }
    // Tile and coin backs follow their fronts, mirrored for a long-edge flip.
    let backs: Vec<usize> = (1..=pages.len())
        .filter(|p| sheets[p - 1].contains("— backs"))
        .collect();
    assert_eq!(
        backs,
        vec![2, 4],
        "2 back sheets (tiles; the last tiles with the coins), each after its fronts"
    );
    // Dice nets and pawn standees share one chit sheet (one-sided).
    assert!(chits.contains("Piecepack dice (fold-up)"));
    assert!(chits.contains("Piecepack pawns (fold-up standees)"));
    // The pawn standees say what the game uses them for (on two lines where the
    // base is too narrow for one).
    for role in ["Loans", "Money: £1s", "Money: £10s", "truck"] {
        for word in role.split(' ') {
            assert!(text.contains(word), "pawn role {role:?}: {word:?} missing");
        }
    }
}

/// Runs `cardstock check` on a copy of the game after `edits` to map.toml and
/// returns the output; the check must fail.
fn broken_check(file: &str, edits: &[(&str, &str)]) -> String {
    let tmp = project_copy(&[GAME]);
    let path = tmp.path().join("data").join(GAME).join(file);
    for (from, to) in edits {
        edit(&path, from, to);
    }
    let o = run(tmp.path(), &["check", GAME]);
    let (stdout, stderr) = texts(&o);
    assert!(
        !o.status.success(),
        "check passed after {edits:?}:\n{stdout}\n{stderr}"
    );
    format!("{stdout}\n{stderr}")
}

#[test]
fn check_catches_a_wrong_ferry() {
    let out = broken_check("map.toml", &[("from = 6\nto = 17", "from = 6\nto = 18")]);
    assert!(
        out.contains(
            "the ferries join Dublin (#2) with Glasgow (#11) and Waterford (#6) with Cardiff (#17)"
        ),
        "{out}"
    );
    assert!(
        out.contains("rules example (#18 to #5 with 2 goods costs £7)"),
        "{out}"
    );
}

#[test]
fn check_catches_a_broken_adjacency() {
    // Move city #4 down to the south coast: #3 loses its neighbour #4.
    let out = broken_check(
        "map.toml",
        &[(
            "id = \"c4\"\nnumber = 4\nrow = 4\ncol = 1",
            "id = \"c4\"\nnumber = 4\nrow = 6\ncol = 1",
        )],
    );
    assert!(
        out.contains("rules example: city #3 is adjacent to #1, #4 and #5 (and not #6), but the map gives it 1, 5"),
        "{out}"
    );
}

#[test]
fn check_catches_a_land_bridge_and_a_broken_island() {
    // Cardiff moved one square west, into the Irish Sea, touches Waterford: the sea
    // no longer separates the islands.
    let out = broken_check(
        "map.toml",
        &[(
            "id = \"c17\"\nnumber = 17\nrow = 5\ncol = 3",
            "id = \"c17\"\nnumber = 17\nrow = 5\ncol = 2",
        )],
    );
    assert!(
        out.contains("city #17 (britain) shares a tile edge with the other island"),
        "{out}"
    );
    assert!(
        out.contains("city #6 (ireland) shares a tile edge with the other island"),
        "{out}"
    );
    // #7 moved to a corner of its own: Britain falls apart.
    let out = broken_check(
        "map.toml",
        &[(
            "id = \"c7\"\nnumber = 7\nrow = 0\ncol = 4",
            "id = \"c7\"\nnumber = 7\nrow = 0\ncol = 6",
        )],
    );
    assert!(
        out.contains("Britain falls apart into 2 pieces of land"),
        "{out}"
    );
}

#[test]
fn check_catches_a_fuel_change_against_the_worked_example() {
    let out = broken_check(
        "game.toml",
        &[("fuel_per_ferry = 2 ", "fuel_per_ferry = 3 ")],
    );
    assert!(out.contains("the fuel comes to £8, not £7"), "{out}");
}

#[test]
fn check_is_clean() {
    let o = run(&repo(), &["check", GAME, "--deny-warnings"]);
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("black-pawn-trucking: ok"), "{stdout}");
}
