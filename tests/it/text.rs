//! Rich text and money on a real build: "Gain 2 :coin: and **draw** a card" wraps,
//! fits and prints with the icon in the line (read back with `pdftotext -bbox` and
//! found in the raster), bold in the bold face; a huge text runs out of fuel instead
//! of running for minutes; `money` writes the game's currency.

use std::path::Path;
use std::process::Command;

use resvg::tiny_skia::Pixmap;

use crate::common::*;

/// A word `pdftotext -bbox` found, in points from the page's top left.
#[derive(Debug, Clone)]
struct Word {
    text: String,
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

fn words(pdf: &Path, page: usize) -> Vec<Word> {
    let o = Command::new("pdftotext")
        .args(["-bbox", "-f", &page.to_string(), "-l", &page.to_string()])
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) is installed");
    assert!(o.status.success());
    let html = String::from_utf8_lossy(&o.stdout).into_owned();
    let attr = |tag: &str, name: &str| -> f64 {
        let at = tag.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        tag[at..tag[at..].find('"').unwrap() + at].parse().unwrap()
    };
    html.split("<word ")
        .skip(1)
        .map(|w| {
            let (tag, rest) = w.split_once('>').unwrap();
            Word {
                text: rest.split("</word>").next().unwrap().to_string(),
                x0: attr(tag, "xMin"),
                y0: attr(tag, "yMin"),
                x1: attr(tag, "xMax"),
                y1: attr(tag, "yMax"),
            }
        })
        .collect()
}

/// The mini game with a card face of `body` (template code) and a game icon
/// `coin.svg`: a solid red square, easy to find in the raster.
fn project(body: &str) -> tempfile::TempDir {
    let tmp = base_copy();
    std::fs::create_dir_all(tmp.path().join("templates/mini/icons")).unwrap();
    std::fs::write(
        tmp.path().join("templates/mini/icons/coin.svg"),
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#ff0000"/></svg>"##,
    )
    .unwrap();
    std::fs::write(
        tmp.path().join("templates/mini/card.svg"),
        format!(
            "{{% extends \"common/face.svg\" %}}\n{{% import \"common/text.svg\" as text %}}\n{{% block body %}}\n<rect x=\"-3\" y=\"-3\" width=\"{{{{ face.full_width }}}}\" height=\"{{{{ face.full_height }}}}\" fill=\"#ffffff\"/>\n{body}\n{{% endblock %}}\n"
        ),
    )
    .unwrap();
    tmp
}

/// Builds on A4, where poker cards stand upright 3 x 3 (on Letter they lie
/// sideways, 8 up), so the words read back left to right.
fn build(dir: &Path) -> (bool, String) {
    let o = run(dir, &["build", "--paper", "a4"]);
    let (stdout, stderr) = texts(&o);
    (o.status.success(), format!("{stdout}\n{stderr}"))
}

fn pdffonts(pdf: &Path) -> String {
    let o = Command::new("pdffonts").arg(pdf).output().unwrap();
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Red pixels of the raster (150 dpi) inside a box given in points.
fn red_pixels(p: &Pixmap, (x0, y0, x1, y1): (f64, f64, f64, f64)) -> Vec<(f64, f64)> {
    let k = 150.0 / 72.0;
    let mut out = Vec::new();
    for y in (y0 * k) as u32..=(y1 * k) as u32 {
        for x in (x0 * k) as u32..=(x1 * k) as u32 {
            if let Some(c) = p.pixel(x, y) {
                if c.red() > 200 && c.green() < 60 && c.blue() < 60 {
                    out.push((x as f64 / k, y as f64 / k));
                }
            }
        }
    }
    out
}

#[test]
fn bold_and_an_icon_wrap_fit_and_print_in_the_line() {
    let tmp = project(concat!(
        "{{ text.block(\"Gain 2 :coin: and **draw** a card.\", 5, 20, 55, 10, max=4, min=2) }}\n",
        "{{ text.block(\"Gain 2 :coin: and **draw** a card. Then 5 \\\\* 3 \\\\:coin:.\", 5, 40, 22, 40, max=4, min=2) }}",
    ));
    let (ok, out) = build(tmp.path());
    assert!(ok, "{out}");
    let pdf = tmp.path().join("output/mini/home/mini.pdf");
    // Bold text is set in the bold face, which nothing else on the cards uses.
    assert!(pdffonts(&pdf).contains("Lato-Bold"), "{}", pdffonts(&pdf));
    let all = words(&pdf, 1);
    // The first card, top left: its words are left of 200 pt and above 270 pt
    // (and right of the sheet label in the margin).
    let card: Vec<&Word> = all
        .iter()
        .filter(|w| w.x0 > 30.0 && w.x1 < 200.0 && w.y0 < 270.0)
        .collect();
    let texts: Vec<&str> = card.iter().map(|w| w.text.as_str()).collect();
    let at = texts
        .windows(6)
        .position(|w| w == ["Gain", "2", "and", "draw", "a", "card."])
        .unwrap_or_else(|| panic!("the one-line block reads back as words: {texts:?}"));
    let (two, and) = (card[at + 1], card[at + 2]);
    // One line: the same baseline from "Gain" to "card.".
    for w in &card[at..at + 6] {
        assert!((w.y1 - two.y1).abs() < 0.5, "{w:?} / {two:?}");
    }
    // The icon is in the line, between "2" and "and": red pixels there, in the
    // text's height, about as wide as it is tall (0.9 of the 4 mm size = 10.2 pt).
    let raster = tmp.path().join("page");
    let o = Command::new("pdftoppm")
        .args(["-r", "150", "-f", "1", "-l", "1", "-png", "-singlefile"])
        .arg(&pdf)
        .arg(&raster)
        .output()
        .expect("pdftoppm (poppler-utils) is installed");
    assert!(o.status.success());
    let page = Pixmap::load_png(tmp.path().join("page.png")).unwrap();
    let gap = (two.x1, two.y0 - 6.0, and.x0, two.y1 + 6.0);
    let red = red_pixels(&page, gap);
    assert!(
        red.len() > 300,
        "{} red pixels between 2 and and",
        red.len()
    );
    let (lx, rx) = red
        .iter()
        .fold((f64::MAX, 0.0f64), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (ty, by) = red
        .iter()
        .fold((f64::MAX, 0.0f64), |(a, b), p| (a.min(p.1), b.max(p.1)));
    assert!(
        (rx - lx - 10.2).abs() < 1.5 && (by - ty - 10.2).abs() < 1.5,
        "{lx} {rx} {ty} {by}"
    );
    assert!(
        lx > two.x1 && rx < and.x0,
        "{lx}-{rx} between {two:?} and {and:?}"
    );
    assert!(
        ty < two.y1 && by > two.y0,
        "{ty}-{by} overlaps the line {two:?}"
    );
    // Nothing red left of "2" or right of "and" on that line.
    assert!(red_pixels(&page, (0.0, two.y0, two.x1 - 0.5, two.y1)).is_empty());

    // The narrow block (22 mm = 62.4 pt from x = 5 mm + 3 mm bleed... left edge of
    // its box) wraps; every line fits, and each icon sits in a line of text.
    let left = card[at].x0;
    let narrow: Vec<&&Word> = card.iter().filter(|w| w.y0 > two.y1 + 20.0).collect();
    let read: Vec<&str> = narrow.iter().map(|w| w.text.as_str()).collect();
    assert_eq!(
        read,
        ["Gain", "2", "and", "draw", "a", "card.", "Then", "5", "*", "3", ":coin:."],
        "the escapes print * and :coin: as written"
    );
    let rows: std::collections::BTreeSet<i64> =
        narrow.iter().map(|w| w.y1.round() as i64).collect();
    assert!(rows.len() >= 3, "{rows:?}");
    for w in &narrow {
        assert!(
            w.x1 <= left + 22.0 / 25.4 * 72.0 + 0.5,
            "{w:?} overflows the box"
        );
    }
    let box_px = (
        left,
        narrow[0].y0 - 6.0,
        left + 62.4,
        narrow.last().unwrap().y1 + 6.0,
    );
    let red = red_pixels(&page, box_px);
    assert!(red.len() > 300);
    for (x, y) in red {
        assert!(
            narrow.iter().any(|w| y > w.y0 - 3.0 && y < w.y1 + 3.0),
            "red pixel at {x}, {y} is in no line of text"
        );
    }
}

#[test]
fn a_missing_icon_names_the_files_looked_for() {
    let tmp = project("{{ text.block(\"Pay 2 :gem:\", 5, 20, 55, 10) }}");
    let (ok, out) = build(tmp.path());
    assert!(!ok);
    assert!(
        out.contains("there is no icon `gem` (looked for templates/mini/icons/gem.svg, templates/common/icons/gem.svg and the built-in icons); write \\: for a colon that starts no icon"),
        "{out}"
    );
}

#[test]
fn a_huge_text_runs_out_of_fuel() {
    let tmp = project("{{ text.block(\"word \" * 100000, 5, 20, 55, 10) }}");
    let (ok, out) = build(tmp.path());
    assert!(!ok);
    assert!(out.contains("laying out the text ran out of fuel"), "{out}");
    assert!(out.contains("hint: the template runs too long"), "{out}");
}

#[test]
fn money_writes_the_game_currency() {
    let tmp = project(
        "<text x=\"5\" y=\"20\" font-size=\"4\">{{ 1700|money }} {{ 2.5|money }} {{ 1700|money('€', after=true) }}</text>",
    );
    edit(
        &tmp.path().join("data/mini/game.toml"),
        "players = [2, 4]\n",
        "players = [2, 4]\ncurrency = \"£\"\nthousands_separator = \" \"\n",
    );
    let (ok, out) = build(tmp.path());
    assert!(ok, "{out}");
    let text = pdftotext(&tmp.path().join("output/mini/home/mini.pdf"), 1);
    assert!(text.contains("£1 700 £2.50 1 700€"), "{text}");
    edit(
        &tmp.path().join("data/mini/game.toml"),
        "currency = \"£\"",
        "currency_position = \"behind\"",
    );
    let (ok, out) = build(tmp.path());
    assert!(!ok);
    assert!(
        out.contains("unknown value `behind`: use `before` or `after`"),
        "{out}"
    );
}
