//! A designer's first hour (issue 28): shop files named from the data, built-in
//! icons in every project, errors that point at the spreadsheet cell that causes
//! them, `list` with the game's description, names without backticks where people
//! read them, and stdout and stderr in one pipe without mixing.

use std::path::Path;

use crate::common::*;

/// A face-PNG profile `shop` with `path`, at 30 dpi (small files).
fn shop_profile(root: &Path, path: &str) {
    std::fs::create_dir_all(root.join("profiles")).unwrap();
    std::fs::write(
        root.join("profiles/shop.toml"),
        format!(
            "[profile]\nname = \"Shop\"\noutput = \"face-png\"\ndpi = 30\npath = \"{path}\"\n\n[sizes]\npoker = [\"2.75in\", \"3.75in\"]\n\"chit-3/4in\" = [\"1in\", \"1in\"]\n"
        ),
    )
    .unwrap();
}

/// The manifest's files: path and what it is.
fn manifest(dir: &Path) -> Vec<(String, String)> {
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    m["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_string(),
                f["what"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn shop_files_are_named_from_the_data() {
    let tmp = base_copy();
    shop_profile(tmp.path(), "{component}/{name}-{side}.png");
    let o = run(tmp.path(), &["build", "--profile", "shop"]);
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    let dir = tmp.path().join("output/mini/shop");
    let mut files = manifest(&dir);
    files.sort();
    let paths: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        paths,
        [
            "shop/cards/Ace-back.png",
            "shop/cards/Ace-front.png",
            "shop/cards/Three-Co-front.png",
            "shop/cards/Two-front.png",
            "shop/tokens/Moon-front.png",
            "shop/tokens/Sun-front.png",
        ],
        "one file per face, each named once, the common back once"
    );
    for (p, what) in &files {
        let file = tmp.path().join("output/mini").join(p);
        assert!(file.is_file(), "{p}");
        assert!(!what.contains('`'), "no backticks in {what:?}");
        if p.ends_with(".png") {
            let (info, _) = decode_png(&std::fs::read(&file).unwrap());
            // 2.75 in and 1 in at 30 dpi.
            let want = if p.contains("cards/") { 83 } else { 30 };
            assert_eq!(info.width, want, "{p}");
        }
    }
    assert!(
        files
            .iter()
            .any(|(_, w)| w == "card two front, print 2 (30 dpi, bleed included)"),
        "{files:?}"
    );

    // `{id}` with `{component}`: the ids of both sets.
    shop_profile(tmp.path(), "{component}-{id}-{side}.png");
    let o = run(tmp.path(), &["build", "--profile", "shop"]);
    assert!(o.status.success(), "{:?}", texts(&o));
    for f in [
        "cards-ace-front.png",
        "cards-ace-back.png",
        "tokens-sun-front.png",
    ] {
        assert!(dir.join(f).is_file(), "{f}");
    }
}

#[test]
fn two_faces_named_alike_in_letter_case_stop_the_build() {
    let tmp = base_copy();
    // A fourth card whose id differs from `ace` only in case.
    let cards = tmp.path().join("data/mini/cards.toml");
    let rows = std::fs::read_to_string(&cards).unwrap();
    std::fs::write(
        &cards,
        rows + "\n[[card]]\nid = \"Ace\"\nname = \"Big Ace\"\nsuit = \"moon\"\nvalue = 4\n",
    )
    .unwrap();
    edit(
        &tmp.path().join("data/mini/game.toml"),
        "cards = 4",
        "cards = 5",
    );
    shop_profile(tmp.path(), "{component}/{id}-{side}.png");
    let o = run(tmp.path(), &["build", "--profile", "shop"]);
    let (_, stderr) = texts(&o);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error: the profile path `{component}/{id}-{side}.png` gives two faces one file: card `ace` front and card `Ace` front would be `cards/ace-front.png` and `cards/Ace-front.png`, one file where letter case does not count (Windows, macOS)"),
        "{stderr}"
    );
    assert!(
        !tmp.path().join("output/mini/shop").exists(),
        "nothing written"
    );
}

/// A workbook with the sheet `card`: id, name, the suit column headed `suit_header`,
/// value, and a text with icons (`:stra:` on `two`).
fn cards_with_text_xlsx(path: &Path, suit_header: &str) {
    use rust_xlsxwriter::Workbook;
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    sheet.set_name("card").unwrap();
    for (c, h) in ["id", "name", suit_header, "value", "text"]
        .iter()
        .enumerate()
    {
        sheet.write(0, c as u16, *h).unwrap();
    }
    let rows = [
        ("ace", "Ace", "sun", 1, "Gain a :star:."),
        ("two", "Two", "moon", 2, "Gain two :stra:."),
        ("three", "Three", "sun", 3, "Pay a :coin:."),
    ];
    for (r, (id, name, suit, value, text)) in rows.iter().enumerate() {
        let r = r as u32 + 1;
        sheet.write(r, 0, *id).unwrap();
        sheet.write(r, 1, *name).unwrap();
        sheet.write(r, 2, *suit).unwrap();
        sheet.write(r, 3, *value).unwrap();
        sheet.write(r, 4, *text).unwrap();
    }
    book.save(path).unwrap();
}

#[test]
fn a_renamed_column_and_a_missing_icon_in_a_workbook_are_named_at_their_cells() {
    let tmp = base_copy();
    let data = tmp.path().join("data/mini");
    std::fs::remove_file(data.join("cards.toml")).unwrap();
    edit(&data.join("game.toml"), "cards = 4", "cards = 3");
    edit(
        &tmp.path().join("templates/mini/card.svg"),
        "{% endblock %}",
        "{{ text.block(row.text, 5, 40, 50, 20) }}\n{% endblock %}",
    );
    edit(
        &tmp.path().join("templates/mini/card.svg"),
        "{% block body %}",
        "{% import \"common/text.svg\" as text %}\n{% block body %}",
    );

    // The column `suit` renamed `suits`: one error, at the header cell.
    cards_with_text_xlsx(&data.join("cards.xlsx"), "suits");
    let o = run(tmp.path(), &["build"]);
    let (_, stderr) = texts(&o);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(
        "error: table `card` has no column `suit`, which [[reference]] `card.suit` reads (sheet card, row 1, column C)\n = in data/mini/cards.xlsx\n = game: mini\n = hint: did you mean `suits` (column C)? Rename the column's header cell, or use its name\n"
    ), "{stderr}");
    assert!(
        stderr.ends_with("1 error, 0 warnings\n"),
        "once, not per row:\n{stderr}"
    );

    // Fixed: the icon `:stra:` is named at its cell, with the nearest icon.
    cards_with_text_xlsx(&data.join("cards.xlsx"), "suit");
    let o = run(tmp.path(), &["build"]);
    let (_, stderr) = texts(&o);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(
        "error: card `two`: `text` shows the icon `:stra:`, which does not exist; did you mean `:star:`? (sheet card, row 3, column E)\n = in data/mini/cards.xlsx\n"
    ), "{stderr}");
    assert!(
        stderr.contains("hint: fix the icon's name, or add the picture as templates/mini/icons/stra.svg (icons: card, coin, star)"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("text.svg"),
        "not in the shared macro:\n{stderr}"
    );
}

#[test]
fn built_in_icons_work_in_a_new_project_and_a_project_can_replace_them() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    assert!(run(dir, &["new", "demo"]).status.success());
    assert!(
        !dir.join("templates/common/icons").exists(),
        "no icon files to copy: they are built in"
    );
    edit(
        &dir.join("data/demo/cards.toml"),
        "text = \"Draw a card.\"",
        "text = \"Draw a :card:, gain a :coin: and a :star:.\"",
    );
    let o = run(dir, &["build", "--format", "pdf,svg", "--deny-warnings"]);
    assert!(o.status.success(), "{:?}", texts(&o));
    let svg =
        std::fs::read_to_string(dir.join("output/demo/home/svg/cards/001-front.svg")).unwrap();
    // The star's outline and colour, the coin's and the card's, as drawn in
    // templates/common/icons/ of cardstock's repository.
    for drawn in ["M10 0.8l2.7 6", "#f4c430", "#e0a526", "#457b9d"] {
        assert!(svg.contains(drawn), "{drawn} in the face:\n{svg}");
    }
    // A project's own star replaces the built-in one.
    std::fs::create_dir_all(dir.join("templates/common/icons")).unwrap();
    std::fs::write(
        dir.join("templates/common/icons/star.svg"),
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#ab0012"/></svg>"##,
    )
    .unwrap();
    let o = run(dir, &["build", "--format", "pdf,svg", "--deny-warnings"]);
    assert!(o.status.success(), "{:?}", texts(&o));
    let svg =
        std::fs::read_to_string(dir.join("output/demo/home/svg/cards/001-front.svg")).unwrap();
    assert!(svg.contains("#ab0012") && !svg.contains("#f4c430"), "{svg}");
    assert!(svg.contains("#e0a526"), "the other built-in icons stay");
}

#[test]
fn list_shows_the_description() {
    let tmp = tempfile::tempdir().unwrap();
    assert!(run(tmp.path(), &["new", "demo"]).status.success());
    let o = run(tmp.path(), &["list"]);
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stdout.starts_with(
            "demo (Demo)\n  A starter game: twelve cards and a player aid.\n  component"
        ),
        "{stdout}"
    );
}

#[test]
fn names_people_read_have_no_backticks() {
    let tmp = base_copy();
    copy_dir(&repo().join("profiles"), &tmp.path().join("profiles"));
    let o = run(tmp.path(), &["build", "--profile", "tts"]);
    assert!(o.status.success(), "{:?}", texts(&o));
    let json = std::fs::read_to_string(tmp.path().join("output/mini/tts/mini.json")).unwrap();
    assert!(json.contains("\"Nickname\": \"card two\""), "{json}");
    assert!(!json.contains('`'), "{json}");
    for (p, what) in manifest(&tmp.path().join("output/mini/tts")) {
        assert!(!what.contains('`'), "{p}: {what}");
    }
    // The live preview's faces.
    let project = cardstock::project::Project::disk(tmp.path()).unwrap();
    let opts = crate::common::screen_options(cardstock::options::Asked {
        dpi: 20.0,
        ..Default::default()
    });
    let p = cardstock::preview::build(&project, "mini", &opts, &Default::default());
    assert!(p.ok, "{:?}", p.diagnostics);
    let labels: Vec<&str> = p.faces.iter().map(|f| f.label.as_str()).collect();
    assert!(labels.contains(&"card two"), "{labels:?}");
    assert!(labels.iter().all(|l| !l.contains('`')), "{labels:?}");
}

#[test]
fn stdout_and_stderr_in_one_pipe_keep_whole_lines_in_order() {
    // Two games: `bad` fails (stderr), `mini` builds (stdout); both streams go to
    // one file, as `2>&1` does.
    let tmp = base_copy();
    copy_dir(&tmp.path().join("data/mini"), &tmp.path().join("data/bad"));
    copy_dir(
        &tmp.path().join("templates/mini"),
        &tmp.path().join("templates/bad"),
    );
    edit(
        &tmp.path().join("data/bad/game.toml"),
        "cards = 4",
        "cards = 5",
    );
    let log = tmp.path().join("log.txt");
    let file = std::fs::File::create(&log).unwrap();
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_cardstock"))
        .args(["build", "bad", "mini"])
        .current_dir(tmp.path())
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
    let both = std::fs::read_to_string(&log).unwrap();
    let root = tmp.path().display().to_string();
    let expected = format!(
        "bad: not built (nothing written)\n\
         mini: 2 component sets, 8 parts, 3 pages -> {root}/output/mini/home (4 files)\n\
         error: component set `cards`: the rules have 5, but the data would print 4\n"
    );
    assert!(both.starts_with(&expected), "{both}");
    assert!(both.ends_with("\n1 error, 0 warnings\n"), "{both}");
}
