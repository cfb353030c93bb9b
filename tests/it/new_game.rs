//! End to end, as a designer starts a game: `cardstock new` in an empty folder, the
//! card table moved to a CSV file, a second table from an XLSX workbook, and the
//! game builds and its text reads back from the PDF.

use std::path::Path;

use crate::common::*;

/// `cardstock new <game>` in `dir`.
fn new_game(dir: &Path, game: &str) -> std::process::Output {
    run(dir, &["new", game])
}

#[test]
fn a_new_game_checks_and_builds_first_time() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let o = new_game(dir, "for-sale");
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    for f in [
        "data/for-sale/game.toml",
        "data/for-sale/cards.toml",
        "data/for-sale/rules.md",
        "templates/for-sale/card.svg",
        "templates/for-sale/back.svg",
        "templates/for-sale/aid.svg",
        "templates/common/face.svg",
        "templates/common/text.svg",
        "profiles/home.toml",
    ] {
        assert!(dir.join(f).is_file(), "{f} was written:\n{stdout}");
    }
    // Every profile cardstock ships, the print shops' CMYK ones too.
    for shipped in std::fs::read_dir(repo().join("profiles")).unwrap() {
        let name = shipped.unwrap().file_name();
        assert!(
            dir.join("profiles").join(&name).is_file(),
            "profiles/{} was not written",
            name.to_string_lossy()
        );
    }
    let game = std::fs::read_to_string(dir.join("data/for-sale/game.toml")).unwrap();
    assert!(game.contains("name = \"For Sale\""), "{game}");
    assert!(game.contains("[[assert]]") && game.contains("[contents]"));

    // It checks clean: every assertion ran, no warning.
    let o = run(dir, &["check", "for-sale"]);
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    assert_eq!(stderr, "", "a new game has no warnings");
    assert!(
        stdout.contains("for-sale: ok (1 assertion ran, 4 checks)"),
        "{stdout}"
    );
    assert_eq!(count(&stdout, "cards"), "cards card 4 12 12 ok", "{stdout}");
    assert_eq!(count(&stdout, "aids"), "aids aid 1 4 4 ok", "{stdout}");

    // And builds: the cards and the aid with the numbers of [rules].
    let o = run(dir, &["build", "--deny-warnings"]);
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    // The cards print double-sided; the aid, one-sided, has its own file.
    let mut all = String::new();
    for file in ["for-sale.pdf", "for-sale-one-sided.pdf"] {
        let pdf = dir.join("output/for-sale/home").join(file);
        all.extend((1..=pages(&pdf)).map(|p| pdftotext(&pdf, p)));
    }
    for text in [
        "Seed",
        "Give a card to the player",
        "FOR SALE",
        "deal 3 cards",
    ] {
        assert!(all.contains(text), "{text:?} in the PDF:\n{all}");
    }

    // And its rulebook, every number from [rules] and the card table.
    let rules = dir.join("output/for-sale/home/for-sale-rules.pdf");
    let text: String = (1..=pages(&rules)).map(|p| pdftotext(&rules, p)).collect();
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for said in [
        "deal 3 to each player",
        "has 10 points",
        "Seed 1 Draw a card.",
    ] {
        assert!(text.contains(said), "{said:?} in the rulebook:\n{text}");
    }
    assert!(
        stdout.contains("for-sale: ")
            && dir
                .join("output/for-sale/home/for-sale-rules-booklet.pdf")
                .is_file()
    );

    // `new` never overwrites, and checks the name.
    let o = new_game(dir, "for-sale");
    let (_, stderr) = texts(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr.contains("already exists: `new` never overwrites a game"),
        "{stderr}"
    );
    let o = new_game(dir, "../outside");
    let (_, stderr) = texts(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr.contains("error: game name `../outside`"), "{stderr}");
    assert!(!tmp.path().parent().unwrap().join("outside").exists());
}

/// The row of component `id` in the counts table `check` prints, its columns
/// joined by single spaces.
fn count(stdout: &str, id: &str) -> String {
    stdout
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .find(|l| l.starts_with(&format!("{id} ")))
        .unwrap_or_default()
}

/// Pages of a PDF.
fn pages(pdf: &Path) -> usize {
    crate::common::pdf::Document::load(pdf)
        .unwrap()
        .get_pages()
        .len()
}

/// A workbook with the sheet `bonus`: id, name, points (a formula), qty.
fn bonus_xlsx(path: &Path) {
    use rust_xlsxwriter::{Formula, Workbook};
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    sheet.set_name("bonus").unwrap();
    for (c, h) in ["id", "name", "points", "qty"].iter().enumerate() {
        sheet.write(0, c as u16, *h).unwrap();
    }
    sheet.write(1, 0, "market").unwrap();
    sheet.write(1, 1, "Market Day").unwrap();
    sheet.write(1, 2, 2).unwrap();
    sheet.write(1, 3, 2).unwrap();
    sheet.write(2, 0, "fair").unwrap();
    sheet.write(2, 1, "County Fair").unwrap();
    sheet
        .write_formula(2, 2, Formula::new("=C2+1").set_result("3"))
        .unwrap();
    book.save(path).unwrap();
}

#[test]
fn a_new_game_with_spreadsheet_tables_builds() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    assert!(new_game(dir, "harvest").status.success());
    let data = dir.join("data/harvest");

    // A font file dropped into the project's fonts/ folder; the card title set in it.
    std::fs::create_dir_all(dir.join("fonts")).unwrap();
    std::fs::copy(
        repo().join("tests/fixtures/valid-project-font/fonts/RoutedGothic-Regular.ttf"),
        dir.join("fonts/RoutedGothic-Regular.ttf"),
    )
    .unwrap();
    edit(
        &dir.join("templates/harvest/card.svg"),
        "font-family=\"Bebas Neue\" font-size=\"9\"",
        "font-family=\"Routed Gothic\" font-size=\"9\"",
    );

    // The card table as CSV, from a spreadsheet: the same rows as cards.toml.
    std::fs::remove_file(data.join("cards.toml")).unwrap();
    std::fs::write(
        data.join("card.csv"),
        "id,name,points,text,qty\n\
         seed,Seed,1,\"Draw a card, then discard one.\",4\n\
         sprout,Sprout,2,Give a card to the player on your left.,4\n\
         bloom,Bloom,3,Every other player discards a card.,3\n\
         harvest,Harvest,4,Score this card and end your turn.,1\n",
    )
    .unwrap();

    // Rich text: a card text with a bold word and an icon of the game's own.
    edit(
        &data.join("card.csv"),
        "seed,Seed,1,\"Draw a card, then discard one.\",4",
        "seed,Seed,1,\"Gain 2 :coin: and **draw** a card.\",4",
    );
    std::fs::create_dir_all(dir.join("templates/harvest/icons")).unwrap();
    std::fs::write(
        dir.join("templates/harvest/icons/coin.svg"),
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#ff0000"/></svg>"##,
    )
    .unwrap();

    // A second table from a workbook: bonus cards, with their own component.
    bonus_xlsx(&data.join("bonus.xlsx"));
    edit(
        &data.join("game.toml"),
        "aids = 4\n",
        "aids = 4\nbonuses = 3\n",
    );
    let game = std::fs::read_to_string(data.join("game.toml")).unwrap();
    std::fs::write(
        data.join("game.toml"),
        game + "\n[[component]]\nid = \"bonuses\"\nname = \"Bonus cards\"\nkind = \"card\"\nsize = \"poker\"\ntable = \"bonus\"\nfront = \"bonus.svg\"\nback = \"back.svg\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("templates/harvest/bonus.svg"),
        r##"{% extends "common/face.svg" %}
{% import "common/shapes.svg" as shapes %}
{% block body %}
{{ shapes.background(face, "#fff6d8") }}
<text x="{{ (face.width / 2)|num }}" y="20" font-family="Bebas Neue" font-size="8" text-anchor="middle">{{ row.name }}</text>
<text x="{{ (face.width / 2)|num }}" y="40" font-size="5" text-anchor="middle">Bonus: {{ row.points }} points</text>
{% endblock %}
"##,
    )
    .unwrap();

    let o = run(dir, &["build", "harvest", "--deny-warnings"]);
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    let pdf = dir.join("output/harvest/home/harvest.pdf");
    let all: String = (1..=pages(&pdf)).map(|p| pdftotext(&pdf, p)).collect();
    for text in [
        "Gain 2",
        "draw",
        "Market Day",
        "Bonus: 2 points",
        "County Fair",
        "Bonus: 3 points",
    ] {
        assert!(all.contains(text), "{text:?} in the PDF:\n{all}");
    }
    // The project's font is embedded (as a subset) and so is the bold face the
    // rich text asked for.
    let fonts = std::process::Command::new("pdffonts")
        .arg(&pdf)
        .output()
        .unwrap();
    let fonts = String::from_utf8_lossy(&fonts.stdout);
    assert!(fonts.contains("RoutedGothic"), "{fonts}");
    assert!(fonts.contains("Lato-Bold"), "{fonts}");
    // "Gain 2", the icon and "and draw" on one line: "2" and "and" share a baseline
    // with a gap between them as wide as the icon (about the line's height).
    let bbox = std::process::Command::new("pdftotext")
        .args(["-bbox", "-f", "1", "-l", "1"])
        .arg(&pdf)
        .arg("-")
        .output()
        .unwrap();
    let html = String::from_utf8_lossy(&bbox.stdout);
    let words: Vec<(String, f64, f64, f64, f64)> = html
        .split("<word ")
        .skip(1)
        .map(|w| {
            let (tag, rest) = w.split_once('>').unwrap();
            let num = |k: &str| -> f64 {
                let i = tag.find(&format!("{k}=\"")).unwrap() + k.len() + 2;
                tag[i..].split('"').next().unwrap().parse().unwrap()
            };
            let text = rest.split("</word>").next().unwrap().to_string();
            (text, num("xMin"), num("yMin"), num("xMax"), num("yMax"))
        })
        .collect();
    // Cards lie sideways on Letter: a line runs down the page at one x.
    let after = |w: &(String, f64, f64, f64, f64), text: &str| {
        words
            .iter()
            .filter(|v| v.0 == text && (v.1 - w.1).abs() < 0.5 && v.2 > w.4 - 0.1)
            .min_by(|a, b| a.2.total_cmp(&b.2))
            .cloned()
    };
    let gain = words
        .iter()
        .find(|w| w.0 == "Gain")
        .expect("\"Gain\" reads back");
    let two = after(gain, "2").expect("\"2\" after \"Gain\" on its line");
    let and = after(&two, "and").expect("\"and\" after \"2\" on its line");
    let (gap, height) = (and.2 - two.4, two.3 - two.1);
    assert!(
        gap > 0.6 * height && gap < 3.0 * height,
        "an icon-wide gap between \"2\" and \"and\": gap {gap}, line {height}: {two:?} {and:?}"
    );

    let o = run(dir, &["check", "harvest"]);
    let (stdout, _) = texts(&o);
    assert_eq!(
        count(&stdout, "bonuses"),
        "bonuses card 2 3 3 ok",
        "{stdout}"
    );
}
