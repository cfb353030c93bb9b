//! Truck Off (roll and write): build the game pad from the real data, read the PDF and
//! SVG back, and break each rule the checks guard in a copy of the data.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::pdf::Document;
use crate::common::*;

const SHEETS: usize = 4;

/// A table of the real data, parsed.
fn data(file: &str) -> toml::Table {
    let s = std::fs::read_to_string(repo().join("data/truck-off").join(file)).unwrap();
    toml::from_str(&s).unwrap()
}

fn rules() -> toml::Table {
    data("game.toml")["rules"].as_table().unwrap().clone()
}

/// How often each space code is on the (unshuffled) map.
fn map_counts() -> BTreeMap<String, usize> {
    let mut n = BTreeMap::new();
    for row in data("map.toml")["map_row"].as_array().unwrap() {
        for c in row["cells"].as_array().unwrap() {
            *n.entry(c.as_str().unwrap().to_string()).or_insert(0) += 1;
        }
    }
    n
}

fn tracker_rows() -> usize {
    data("tracker.toml")["tracker_row"]
        .as_array()
        .unwrap()
        .len()
}

/// The real game built once per test binary: 4 sheets, PDF and SVG.
fn built() -> &'static Path {
    static OUT: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    let copies = SHEETS.to_string();
    build_once(
        &OUT,
        &[
            "build",
            "truck-off",
            "--copies",
            &copies,
            "--format",
            "pdf,svg",
            "--deny-warnings",
        ],
        "truck-off: 1 component set, 4 parts, 2 pages",
    )
}

/// Runs `cardstock check truck-off` on a copy of the data changed by `change`, and
/// returns its output; the check must fail.
fn broken(change: impl FnOnce(&Path)) -> String {
    let tmp = project_copy(&["truck-off"]);
    change(&tmp.path().join("data/truck-off"));
    let o = run(tmp.path(), &["check", "truck-off"]);
    let (stdout, stderr) = texts(&o);
    assert!(!o.status.success(), "check passed:\n{stdout}\n{stderr}");
    format!("{stdout}\n{stderr}")
}

/// Replaces every `from` with `to` in a file.
fn replace_all(path: &Path, from: &str, to: &str) {
    let s = std::fs::read_to_string(path).unwrap();
    assert!(s.contains(from), "{} has no {from:?}", path.display());
    std::fs::write(path, s.replace(from, to)).unwrap();
}

/// The first page's words in pdftotext's reading order (columns one after the
/// other, not side by side as `-layout` puts them), joined by single spaces.
fn reading_order(pdf: &Path) -> String {
    let o = std::process::Command::new("pdftotext")
        .args(["-f", "1", "-l", "1"])
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) is installed");
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Labels printed on the map's venues (`class="venue"`) in a sheet's SVG, counted.
fn map_labels(svg: &str) -> BTreeMap<String, usize> {
    let wanted = ["D4", "D6", "D8", "D10", "D12", "D20", "WILD"];
    let mut n = BTreeMap::new();
    for (i, _) in svg.match_indices("<text class=\"venue\"") {
        let rest = &svg[i..];
        let open = rest.find('>').unwrap();
        let close = rest.find("</text>").unwrap();
        let label = &rest[open + 1..close];
        if wanted.contains(&label) {
            *n.entry(label.to_lowercase()).or_insert(0) += 1;
        }
    }
    n
}

#[test]
fn the_real_data_passes_every_check() {
    let o = run(&repo(), &["check", "truck-off"]);
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    // Without --copies the pad has rules.pad_sheets sheets.
    let sheets = rules()["pad_sheets"].as_integer().unwrap().to_string();
    let line = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("pad "))
        .unwrap_or_else(|| panic!("{stdout}"));
    let cols: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        cols[..4],
        ["pad", "pad", sheets.as_str(), sheets.as_str()],
        "{line}"
    );
}

#[test]
fn pad_pages_two_up_on_letter_and_pad_size() {
    let pdf = built().join("truck-off/home/truck-off.pdf");
    let doc = Document::load(&pdf).unwrap();
    let pages = doc.get_pages();
    assert_eq!(pages.len(), SHEETS / 2, "two half-letter sheets a page");
    for id in pages.values() {
        assert!(
            close(&rect(&doc, *id, b"MediaBox"), &[0.0, 0.0, 792.0, 612.0]),
            "Letter landscape"
        );
    }
    let pad = Document::load(built().join("truck-off/home/truck-off-pad-pad-size.pdf")).unwrap();
    let pad_pages = pad.get_pages();
    assert_eq!(pad_pages.len(), SHEETS);
    let trim = rect(&pad, pad_pages[&1], b"TrimBox");
    assert!(
        ((trim[2] - trim[0]) - 5.5 * 72.0).abs() < 0.01
            && ((trim[3] - trim[1]) - 8.5 * 72.0).abs() < 0.01,
        "half-letter: {trim:?}"
    );
}

#[test]
fn sheets_are_numbered_and_name_the_dice() {
    let pdf = built().join("truck-off/home/truck-off.pdf");
    for page in 1..=SHEETS / 2 {
        let text = pdftotext(&pdf, page);
        for sheet in [2 * page - 1, 2 * page] {
            assert!(text.contains(&format!("SHEET {sheet}")), "{text}");
        }
        // Nothing is shuffled (shuffle = false): the header names no seed.
        assert_eq!(text.matches("standard map").count(), 2, "{text}");
        assert!(!text.contains("seed"), "{text}");
        // The six dice of the rulebook's contents, on every sheet.
        assert_eq!(
            text.matches("6 DICE: D4 · D6 · D8 · D10 · D12 · D20")
                .count(),
            2,
            "{text}"
        );
    }
}

#[test]
fn map_tracker_and_scoring_read_back() {
    let pdf = built().join("truck-off/home/truck-off.pdf");
    let text = pdftotext(&pdf, 1);
    let counts = map_counts();
    let rows = tracker_rows();
    // Two sheets on the page. The START locations, numbered.
    for n in 1..=rules()["start_locations"].as_integer().unwrap() {
        assert_eq!(text.matches(&format!("START {n}")).count(), 2, "{text}");
    }
    assert_eq!(text.matches("START 4").count(), 0);
    assert_eq!(text.matches("WILD").count(), 2 * counts["wild"], "{text}");
    // A die's label: on its map venues, above its tracker column (whose cells
    // carry its colour, not its label), in the promotion scoring and in the
    // header's list of dice.
    for die in ["d8", "d10", "d12", "d20"] {
        let label = die.to_uppercase();
        assert_eq!(
            text.matches(label.as_str()).count(),
            2 * (counts[die] + 3),
            "{label} in\n{text}"
        );
    }
    assert!(rows >= 8, "the tracker's rows: {rows}");
    assert_eq!(text.matches("FINISH").count(), 2);
    assert_eq!(text.matches("TOTAL").count(), 2);
    assert_eq!(text.matches("Promotions").count(), 2);
    // The $ bonuses the scoring names: the last row, the D4 and the D6 columns.
    let cash = rules()["cash_bonus"].as_integer().unwrap();
    assert!(text.contains(&format!("${cash} bonuses")), "{text}");
    assert!(text.contains("last row") && text.contains("D4 column") && text.contains("D6 column"));
    // The bonus menu legend, with the numbers of [rules]: its two columns wrap, so
    // it is read from the pad-size file (one sheet a page) in reading order.
    let text = reading_order(&built().join("truck-off/home/truck-off-pad-pad-size.pdf"));
    for name in [
        "Bridge",
        "Gas station",
        "2x venue",
        "Promote",
        "+1 movement",
        "Reroll two",
        "Move truck",
    ] {
        assert_eq!(text.matches(name).count(), 1, "{name} in\n{text}");
    }
    let r = rules();
    assert!(text.contains(&format!(
        "+{} movement through it",
        r["gas_station_moves"].as_integer().unwrap()
    )));
    assert!(text.contains(&format!(
        "reroll up to {} dice",
        r["bonus_rerolls"].as_integer().unwrap()
    )));
    assert!(text.contains(&format!(
        "mark {} circles above it, others mark {}",
        r["promote_self"].as_integer().unwrap(),
        r["promote_others"].as_integer().unwrap()
    )));
    assert!(text.contains(&format!(
        "Drive up to {} spaces",
        r["moves"].as_integer().unwrap()
    )));
}

#[test]
fn svg_per_sheet_and_png_on_request() {
    let dir = built().join("truck-off/home/svg/pad");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), SHEETS);
    let svg = std::fs::read_to_string(dir.join("001-front.svg")).unwrap();
    let labels = map_labels(&svg);
    for (code, n) in map_counts() {
        if code != "start" && code != "lot" {
            assert_eq!(labels.get(&code), Some(&n), "{code}: {labels:?}");
        }
    }
    // Promotion circles above each of the six columns, enough for a six-player game:
    // Promote is the bonus of row 4 and of the D20 column, so a player promotes at
    // most twice; your own 2 x 2 marks plus 5 other players x 2 x 1 = 14 a column.
    let circles = svg.matches("r=\"0.75\"").count();
    assert_eq!(circles, 6 * 14, "{circles} promotion circles");
    assert_eq!(rules()["promotion_circles"].as_integer(), Some(14));

    let out = tempfile::tempdir().unwrap();
    let o = run(
        &repo(),
        &[
            "build",
            "truck-off",
            "--copies",
            "1",
            "--format",
            "png",
            "--dpi",
            "100",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{:?}", texts(&o));
    let png = std::fs::read(out.path().join("truck-off/home/png/pad/001-front.png")).unwrap();
    let w = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!((w, h), (550, 850), "half-letter at 100 dpi, no bleed");
}

#[test]
fn seeded_variants_shuffle_reproducibly_and_keep_the_counts() {
    let tmp = project_copy(&["truck-off"]);
    let game = tmp.path().join("data/truck-off/game.toml");
    edit(&game, "shuffle = false", "shuffle = true");
    let o = run(tmp.path(), &["check", "truck-off"]);
    assert!(o.status.success(), "{:?}", texts(&o));
    let build = |name: &str| {
        let out = tmp.path().join(name);
        let o = run(
            tmp.path(),
            &[
                "build",
                "truck-off",
                "--copies",
                "3",
                "--format",
                "svg",
                "--out",
                out.to_str().unwrap(),
            ],
        );
        assert!(o.status.success(), "{:?}", texts(&o));
        (1..=3)
            .map(|i| {
                std::fs::read_to_string(
                    out.join(format!("truck-off/home/svg/pad/{i:03}-front.svg")),
                )
                .unwrap()
            })
            .collect::<Vec<_>>()
    };
    let a = build("a");
    let b = build("b");
    assert_eq!(a, b, "the same seed gives the same sheets");
    assert_ne!(map_labels(&a[0]), BTreeMap::new());
    assert_ne!(a[0], a[1]);
    assert_ne!(a[1], a[2]);
    let seed = rules()["seed"].as_integer().unwrap();
    let mut expected = map_counts();
    expected.remove("start");
    expected.remove("lot");
    for (i, svg) in a.iter().enumerate() {
        assert!(svg.contains(&format!(
            "map seed {} (venues shuffled)",
            seed + 1 + i as i64
        )));
        assert_eq!(
            map_labels(svg),
            expected,
            "sheet {} keeps the venue counts",
            i + 1
        );
        assert_eq!(
            svg.matches(">START ").count(),
            3,
            "three numbered START locations"
        );
    }
    // The venue layout differs from the standard map.
    let standard =
        std::fs::read_to_string(built().join("truck-off/home/svg/pad/001-front.svg")).unwrap();
    assert_ne!(standard, a[0]);
}

#[test]
fn rule_numbers_come_from_one_place() {
    let tmp = project_copy(&["truck-off"]);
    let game = tmp.path().join("data/truck-off/game.toml");
    edit(&game, "gas_station_moves = 3", "gas_station_moves = 4");
    edit(&game, "cash_bonus = 5", "cash_bonus = 10");
    // The rulebook's numbers are checked: a changed number is a house rule, refused
    // until the check of the rulebook's numbers says so too.
    let o = run(tmp.path(), &["check", "truck-off"]);
    let (_, stderr) = texts(&o);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("the rulebook's numbers: 6 dice"),
        "{stderr}"
    );
    edit(
        &game,
        "rules.gas_station_moves == 3 and rules.cash_bonus == 5",
        "rules.gas_station_moves == 4 and rules.cash_bonus == 10",
    );
    let out = tmp.path().join("out");
    let o = run(
        tmp.path(),
        &[
            "build",
            "truck-off",
            "--copies",
            "2",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{:?}", texts(&o));
    let text = reading_order(&out.join("truck-off/home/truck-off-pad-pad-size.pdf"));
    assert!(text.contains("+4 movement through it"), "{text}");
    assert!(
        text.contains("$10 bonuses") && text.contains("+$10 in the final scoring"),
        "{text}"
    );
    assert!(!text.contains("$5"), "{text}");
}

#[test]
fn four_start_locations_are_refused() {
    let out = broken(|d| {
        edit(
            &d.join("map.toml"),
            "cells = [\"d4\", \"d20\", \"d10\", \"d8\",",
            "cells = [\"d4\", \"d20\", \"d10\", \"start\",",
        )
    });
    assert!(
        out.contains("the map has 4 START locations, the rules 3"),
        "{out}"
    );
}

#[test]
fn a_tracker_not_ending_on_d4_is_refused() {
    // The last row runs left to right: it ends on the D20.
    let out = broken(|d| {
        let f = d.join("tracker.toml");
        edit(
            &f,
            "id = \"row-8\"\ndirection = \"left\"",
            "id = \"row-8\"\ndirection = \"right\"",
        );
    });
    assert!(out.contains("the route tracker must end on a D4"), "{out}");
    assert!(
        out.contains("the FINISH (last cell of row-8, in col-6) is a D20"),
        "{out}"
    );
    assert!(out.contains("tracker row-8 runs right, not left"), "{out}");
}

#[test]
fn a_row_without_bonus_is_refused() {
    let out = broken(|d| edit(&d.join("tracker.toml"), "bonus = \"relocate\"\n", ""));
    assert!(out.contains("tracker row-7 has no bonus"), "{out}");
    // ... and the menu's Move truck action is then on no row or column.
    assert!(out.contains("Move truck is on no row or column"), "{out}");
}

#[test]
fn a_column_without_bonus_is_refused() {
    let out = broken(|d| {
        edit(
            &d.join("tracker.toml"),
            "space = \"d12\"\nbonus = \"gas\"",
            "space = \"d12\"",
        )
    });
    assert!(out.contains("tracker col-5 (d12) has no bonus"), "{out}");
}

#[test]
fn a_die_missing_from_the_map_is_refused() {
    let out = broken(|d| replace_all(&d.join("map.toml"), "\"d12\"", "\"d10\""));
    assert!(
        out.contains(
            "every venue die (and the Wild venue) must appear on the map: the map has no D12 venue"
        ),
        "{out}"
    );
}

#[test]
fn a_disconnected_map_is_refused() {
    // A river that closes off the top-left corner (2 x 2 spaces).
    let out = broken(|d| {
        let f = d.join("map.toml");
        let s = std::fs::read_to_string(&f).unwrap();
        std::fs::write(
            &f,
            s + "\n[[river]]\nid = \"moat\"\npath = [[0, 2], [1, 2], [2, 2], [2, 1], [2, 0]]\n",
        )
        .unwrap();
    });
    assert!(
        out.contains("the map falls apart into 2 parts: rivers cut off c1r1, c1r2, c2r1, c2r2"),
        "{out}"
    );
}

#[test]
fn a_river_off_the_grid_lines_is_refused() {
    let out = broken(|d| {
        edit(
            &d.join("map.toml"),
            "path = [[10, 3], [9, 3], [8, 3]]",
            "path = [[10, 3], [8, 3]]",
        )
    });
    assert!(
        out.contains("river east-canal jumps from [10, 3] to [8, 3]"),
        "{out}"
    );
}

#[test]
fn misplaced_cash_bonuses_are_refused() {
    let out = broken(|d| {
        let f = d.join("tracker.toml");
        edit(
            &f,
            "space = \"d6\"\nbonus = \"cash\"",
            "space = \"d6\"\nbonus = \"reroll\"",
        );
        edit(
            &f,
            "id = \"row-1\"\ndirection = \"right\"\nbonus = \"bridge\"",
            "id = \"row-1\"\ndirection = \"right\"\nbonus = \"cash\"",
        );
    });
    assert!(
        out.contains("tracker col-2 does not carry the $5 bonus"),
        "{out}"
    );
    assert!(
        out.contains("tracker row-1 carries a $ bonus the scoring does not name"),
        "{out}"
    );
}

#[test]
fn the_promotion_circles_hold_a_six_player_game() {
    let out = broken(|d| {
        edit(
            &d.join("game.toml"),
            "promotion_circles = 14",
            "promotion_circles = 13",
        )
    });
    assert!(
        out.contains("13 circles, but a column can get 14 marks: your 2 promotions x 2 plus 5 other players x 2 x 1"),
        "{out}"
    );
}

#[test]
fn the_promotion_example_must_fit_the_pad() {
    let out = broken(|d| {
        edit(
            &d.join("game.toml"),
            "promotion_circles = 14",
            "promotion_circles = 2",
        )
    });
    assert!(
        out.contains("rules example: the D6 line (3 promotions x 2 results) cannot be filled in: the pad has 2 promotion circles"),
        "{out}"
    );
    let out = broken(|d| {
        edit(
            &d.join("game.toml"),
            "promotions = 3\nresults = 2\nscore = 6",
            "promotions = 3\nresults = 2\nscore = 5",
        )
    });
    assert!(out.contains("rules example: D6: 3 x 2 must be $5"), "{out}");
}

#[test]
fn a4_paper_prints_a5_sheets_two_up() {
    let out = tempfile::tempdir().unwrap();
    let o = run(
        &repo(),
        &[
            "build",
            "truck-off",
            "--paper",
            "a4",
            "--copies",
            "4",
            "--deny-warnings",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{:?}", texts(&o));
    let doc = Document::load(out.path().join("truck-off/home/truck-off.pdf")).unwrap();
    let pages = doc.get_pages();
    assert_eq!(pages.len(), 2, "two A5 sheets to an A4 landscape page");
    assert!(close(
        &rect(&doc, pages[&1], b"MediaBox"),
        &[0.0, 0.0, 841.89, 595.276]
    ));
    let pad = Document::load(out.path().join("truck-off/home/truck-off-pad-pad-size.pdf")).unwrap();
    let first = pad.get_pages()[&1];
    assert!(
        close(
            &rect(&pad, first, b"MediaBox"),
            &[0.0, 0.0, 419.528, 595.276]
        ),
        "A5"
    );
}

// ---- The pad's layer: what every sheet shows, rendered once ----

/// The templates folder of a data folder's copy.
fn templates_of(data: &Path) -> std::path::PathBuf {
    data.join("../../templates/truck-off")
}

/// Adds `line` to the pad's layer in the templates folder `templates`, as line 17
/// (right after the sheet's background).
fn add_to_layer(templates: &Path, line: &str) {
    let background = "{{ shapes.background(face, \"#ffffff\") }}";
    edit(
        &templates.join("sheet-layer.svg"),
        background,
        &format!("{background}\n{line}"),
    );
}

/// Runs the check with `line` added to the pad's layer ([`add_to_layer`]), which
/// must fail; returns its output.
fn broken_layer(line: &str) -> String {
    broken(|d| add_to_layer(&templates_of(d), line))
}

/// Checks that `out` shows every one of `parts`.
fn shows(out: &str, parts: &[&str]) {
    for part in parts {
        assert!(out.contains(part), "no {part:?} in:\n{out}");
    }
}

#[test]
fn each_sheet_is_its_layer_and_its_own_front() {
    let dir = built().join("truck-off/home/svg/pad");
    let one = std::fs::read_to_string(dir.join("001-front.svg")).unwrap();
    let two = std::fs::read_to_string(dir.join("002-front.svg")).unwrap();
    // The layer's content comes first, once, inside the front's root element.
    let root_end = one.find('>').unwrap() + 1;
    assert!(
        one[root_end..].starts_with("<g "),
        "{}",
        &one[..root_end + 40]
    );
    assert_eq!(one.matches("SCORE</text>").count(), 1);
    assert!(one.find("SCORE</text>").unwrap() < one.find("SHEET 1</text>").unwrap());
    // Sheets differ only in what the front draws.
    assert_eq!(one.replace("SHEET 1<", "SHEET 2<"), two);
    roxmltree::Document::parse(&one).unwrap();
}

#[test]
fn a_layer_cannot_use_what_differs_between_sheets() {
    let out = broken_layer("<text x=\"9\" y=\"9\">{{ copy }}</text>");
    shows(
        &out,
        &[
            "error: template uses `copy`, which a layer does not see",
            "templates/truck-off/sheet-layer.svg:17:22",
            "draw what differs from face to face in the front template",
        ],
    );
}

#[test]
fn a_layer_of_another_size_or_with_the_fronts_ids_is_refused() {
    let out = broken(|d| {
        std::fs::write(
            templates_of(d).join("sheet-layer.svg"),
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="139.7mm" height="215.9mm" viewBox="0 0 100 100"><rect width="9" height="9"/></svg>"#,
        )
        .unwrap()
    });
    shows(
        &out,
        &[
            "error: the layer's root <svg> has viewBox `0 0 100 100` but the front's has `0 0 139.7 215.9`",
            "data/truck-off/game.toml:90",
            "extend common/face.svg in both",
        ],
    );
    let out = broken(|d| {
        for f in ["sheet-layer.svg", "sheet.svg"] {
            edit(
                &templates_of(d).join(f),
                "{% call pad.space(face) %}",
                "{% call pad.space(face) %}<rect id=\"twice\" width=\"1\" height=\"1\"/>",
            );
        }
    });
    shows(
        &out,
        &[
            "error: the layer and the front both define id `twice`",
            "ids must be unique in the face the two make",
        ],
    );
}

#[test]
fn a_layer_needs_a_front_template() {
    let out = broken(|d| {
        std::fs::create_dir_all(d.join("art")).unwrap();
        std::fs::write(d.join("art/sheet.svg"), r#"<svg xmlns="http://www.w3.org/2000/svg" width="139.7mm" height="215.9mm" viewBox="0 0 139.7 215.9"/>"#).unwrap();
        edit(
            &d.join("game.toml"),
            "front = \"sheet.svg\"",
            "art = \"art/*.svg\"",
        );
    });
    assert!(
        out.contains("error: `layer` is drawn under a front template, and this component has none"),
        "{out}"
    );
}

#[test]
fn what_preflight_finds_in_the_layer_points_at_the_layer() {
    let tmp = project_copy(&["truck-off"]);
    add_to_layer(
        &tmp.path().join("templates/truck-off"),
        "<text x=\"-2\" y=\"3\" font-size=\"4\">EDGE</text>",
    );
    let o = run(tmp.path(), &["build", "truck-off", "--copies", "3"]);
    let (stdout, stderr) = texts(&o);
    let out = format!("{stdout}\n{stderr}");
    shows(
        &out,
        &["text \"EDGE\"", "templates/truck-off/sheet-layer.svg:17:1"],
    );
    // One warning for the three sheets that show it.
    assert_eq!(out.matches("text \"EDGE\"").count(), 1, "{out}");
}

#[test]
fn a_layer_that_is_not_well_formed_is_shown_in_its_template() {
    let out = broken_layer("<rect x=\"1\" y=\"1\" width=\"3\" height=\"3\"");
    shows(
        &out,
        &[
            "error: the rendered SVG does not parse: invalid name token at 4:1",
            "templates/truck-off/sheet-layer.svg:18:9",
        ],
    );
    // Reported once, for the layer, not for each of the 40 sheets.
    assert_eq!(out.matches("does not parse").count(), 1, "{out}");
}

#[test]
fn a_front_may_use_what_its_layer_defines() {
    let tmp = project_copy(&["truck-off"]);
    let t = tmp.path().join("templates/truck-off");
    edit(
        &t.join("sheet-layer.svg"),
        "{% call pad.space(face) %}",
        "{% call pad.space(face) %}<linearGradient id=\"sheet-red\"><stop offset=\"0\" stop-color=\"#ff0000\"/><stop offset=\"1\" stop-color=\"#ff0000\"/></linearGradient>",
    );
    edit(
        &t.join("sheet.svg"),
        "{% call pad.space(face) %}",
        "{% call pad.space(face) %}<rect x=\"60\" y=\"150\" width=\"10\" height=\"10\" fill=\"url(#sheet-red)\"/>",
    );
    let o = run(
        tmp.path(),
        &[
            "build",
            "truck-off",
            "--copies",
            "1",
            "--format",
            "png",
            "--dpi",
            "100",
        ],
    );
    assert!(o.status.success(), "{:?}", texts(&o));
    let png = std::fs::read(
        tmp.path()
            .join("output/truck-off/home/png/pad/001-front.png"),
    )
    .unwrap();
    let (info, buf) = decode_png(&png);
    let red = buf
        .chunks(info.color_type.samples())
        .filter(|c| c[0] > 220 && c[1] < 40 && c[2] < 40)
        .count();
    // 10 mm square at 0.934 scale and 100 dpi: about 37 x 37 pixels.
    assert!(
        red > 1000,
        "the front's rect is filled with the layer's gradient: {red} red pixels"
    );
}

#[test]
fn a_problem_in_the_layers_svg_is_shown_at_its_line_once() {
    let out = broken_layer("<text x=\"9\" y=\"9\" font-family=\"Nosuchfont\">X</text>");
    shows(
        &out,
        &[
            "error: text uses font-family `Nosuchfont`, which none of the game's fonts has",
            "templates/truck-off/sheet-layer.svg:17:32",
        ],
    );
    assert_eq!(out.matches("Nosuchfont`, which").count(), 1, "{out}");
}

#[test]
fn each_sheets_tree_is_dropped_once_the_last_file_has_drawn_it() {
    // The 40 sheets are parsed (and preflighted) first, then drawn by both PDFs,
    // then, with PNGs asked for, rasterised: each tree is dropped after its last
    // use, not kept to the face store's budget, so the trees of a thousand sheets
    // are never all held while the PDFs grow.
    use cardstock::options::Options;
    use cardstock::pipeline::{build_choosing, Incremental};
    let tmp = project_copy(&["truck-off"]);
    let project = cardstock::project::Project::disk(tmp.path()).unwrap();
    for png in [false, true] {
        let opts = Options {
            png,
            dpi: 20.0,
            ..Options::default()
        };
        let (built, finished) = build_choosing(
            &project,
            "truck-off",
            &opts,
            Incremental::default(),
            cardstock::output::Sink::Memory,
            |_, _| true.into(),
        );
        let finished = finished.expect("truck-off builds");
        let store = &finished.rendered.store;
        let kept = (store.len(), store.trees_kept());
        assert!(!built.diags.has_errors(), "{}", built.diags.render(&()));
        assert_eq!(
            kept,
            (40, 0),
            "faces, trees kept after delivery (PNGs: {png})"
        );
        // A read after a face's last planned use (a PDF's prefetch that lost the
        // race with the writer's last draw) parses it, and keeps nothing.
        assert!(store.picture(7).is_some());
        assert_eq!(
            store.trees_kept(),
            0,
            "a late read kept its tree (PNGs: {png})"
        );
    }
    // The live preview draws nothing: it keeps the trees for the page.
    let opts = Options {
        encode: false,
        ..Options::default()
    };
    let (_, finished) = build_choosing(
        &project,
        "truck-off",
        &opts,
        Incremental::default(),
        cardstock::output::Sink::Memory,
        |_, _| true.into(),
    );
    let kept = finished.map(|f| f.rendered.store.trees_kept());
    assert_eq!(kept, Some(40));
}
