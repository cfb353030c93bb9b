//! Interstate Trucking end to end: build the real data and read the output back.

use std::path::Path;

use crate::common::pdf::Document;
use crate::common::*;

/// The real game built once per test binary: the print tests' build of every game
/// at home on Letter (`print::home_letter`), which writes its SVG and PNG faces
/// beside the PDFs (PNGs at 60 dpi). Interstate Trucking's files there are those
/// of `build interstate-trucking --format pdf,svg,png --dpi 60` (the game's own
/// profile is home on Letter), and its own build at 300 dpi took 6.0 s of CPU
/// against 0.8 s without the PNGs (docs/performance.md, "Compiling and testing").
fn built() -> &'static Path {
    crate::print::home_letter_saying("interstate-trucking: 10 component sets, 325 parts, 60 pages")
}

#[test]
fn print_and_play_pdf_pages_and_boxes() {
    // Double-sided: 11 contract fronts + 11 backs (8 cards a sheet), 6 + 6 player
    // screens. One-sided: 1 chit sheet shared by the five small sets (88 goods chits
    // of 8 mm, 18 rest markers, 12 trailers, 6 cabs, 6 colour markers), 7 money,
    // 3 aids, 15 board tiles (the 36 x 24 in board, 3 rows of 5).
    let one = built().join("interstate-trucking/home/interstate-trucking-one-sided.pdf");
    assert_eq!(Document::load(&one).unwrap().get_pages().len(), 26);
    let pdf = built().join("interstate-trucking/home/interstate-trucking.pdf");
    let doc = Document::load(&pdf).unwrap();
    let pages = doc.get_pages();
    assert_eq!(pages.len(), 34);
    let first = pages[&1];
    assert!(
        close(&rect(&doc, first, b"MediaBox"), &[0.0, 0.0, 612.0, 792.0]),
        "Letter"
    );
    // 2 x 4 poker cards lying sideways = 177.8 x 254 mm = 504 x 720 pt, centred.
    assert!(close(
        &rect(&doc, first, b"TrimBox"),
        &[54.0, 36.0, 558.0, 756.0]
    ));
    // Bleed 3 mm = 8.504 pt around the trim.
    assert!(close(
        &rect(&doc, first, b"BleedBox"),
        &[45.496, 27.496, 566.504, 764.504]
    ));
    for (_, id) in pages {
        let media = rect(&doc, id, b"MediaBox");
        let trim = rect(&doc, id, b"TrimBox");
        let bleed = rect(&doc, id, b"BleedBox");
        assert!(
            bleed[0] <= trim[0]
                && bleed[1] <= trim[1]
                && bleed[2] >= trim[2]
                && bleed[3] >= trim[3]
        );
        assert!(media[0] <= bleed[0] && media[2] >= bleed[2]);
    }
}

#[test]
fn fonts_are_embedded_subsets() {
    let pdf = built().join("interstate-trucking/home/interstate-trucking.pdf");
    let doc = Document::load(&pdf).unwrap();
    let mut names = Vec::new();
    let mut embedded = 0;
    for (_, obj) in doc.objects.iter() {
        if let Ok(d) = obj.as_dict() {
            if d.get(b"Type").ok().and_then(|t| t.as_name().ok()) == Some(b"FontDescriptor") {
                names.push(
                    String::from_utf8_lossy(d.get(b"FontName").unwrap().as_name().unwrap())
                        .into_owned(),
                );
                if d.has(b"FontFile2") || d.has(b"FontFile3") || d.has(b"FontFile") {
                    embedded += 1;
                }
            }
        }
    }
    names.sort();
    assert_eq!(embedded, names.len(), "every font is embedded: {names:?}");
    assert!(
        names.iter().any(|n| n.ends_with("+Lato-Regular")),
        "{names:?}"
    );
    assert!(names.iter().any(|n| n.contains("+BebasNeue")), "{names:?}");
    assert!(
        names.iter().all(|n| n.as_bytes()[6] == b'+'),
        "subset tags: {names:?}"
    );
}

#[test]
fn contract_text_reads_back() {
    let pdf = built().join("interstate-trucking/home/interstate-trucking.pdf");
    let text = pdftotext(&pdf, 2 - 1);
    // The rulebook's example contract (Minneapolis bread to Memphis, $1,700) is a
    // starting contract on the first sheet, with its start city and player counts.
    assert!(text.contains("Memphis, TN"), "{text}");
    assert!(text.contains("$1,700"), "{text}");
    assert!(text.contains("* START: Minneapolis"), "{text}");
    assert!(text.contains("players: 3, 6"), "{text}");
    let back = pdftotext(&pdf, 2);
    let one = built().join("interstate-trucking/home/interstate-trucking-one-sided.pdf");
    let chits = pdftotext(&one, 1);
    assert!(
        chits
            .contains("Goods chits, Rest markers, Trailers, Cabs, Colour markers — chit sheet 1/1"),
        "small sets share chit sheets: {chits}"
    );
    assert_eq!(back.matches("TRUCKING").count(), 8, "eight backs: {back}");
}

/// The contract card showing `good` for `city` (its SVG text), from the SVG output.
fn contract_svg(good: &str, city: &str) -> String {
    let dir = built().join("interstate-trucking/home/svg/contracts");
    let mut found = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let svg = std::fs::read_to_string(e.unwrap().path()).unwrap();
        if svg.contains(&format!(">{good}</text>")) && svg.contains(&format!(">{city}</text>")) {
            found.push(svg);
        }
    }
    assert_eq!(found.len(), 1, "one {good} contract to {city}");
    found.pop().unwrap()
}

#[test]
fn moves_and_fees_follow_the_rulebook_count() {
    // The rulebook counts 1 move out of a city, 1 per space, 1 into a city and
    // nothing for a city passed through; the fee is $700 + $100 a move ([rules.fee]).
    // Worked by hand from routes.toml:
    // Kansas City (supplies beef) - St. Louis, I-70, 2 spaces: 2 + 1 = 3 moves, $1,000.
    let beef = contract_svg("Beef", "St. Louis, MO");
    assert!(
        beef.contains("3 moves from the nearest beef supplier"),
        "{beef}"
    );
    assert!(beef.contains(">$1,000<"), "{beef}");
    // Minneapolis (bread) - Chicago, I-94, 4 spaces - Detroit, I-94, 3 spaces: passing
    // through Chicago costs nothing, 4 + 3 + 1 = 8 moves (not 9), $1,500.
    let detroit = contract_svg("Bread", "Detroit, MI");
    assert!(
        detroit.contains("8 moves from the nearest bread supplier"),
        "{detroit}"
    );
    assert!(detroit.contains(">$1,500<"), "{detroit}");
    // ... and on to New York, I-75/I-80, 6 spaces: 4 + 3 + 6 + 1 = 14 moves, $2,100.
    let ny = contract_svg("Bread", "New York, NY");
    assert!(
        ny.contains("14 moves from the nearest bread supplier"),
        "{ny}"
    );
    assert!(ny.contains(">$2,100<"), "{ny}");
    // The rulebook's example: Minneapolis - Kansas City 4, - St. Louis 2, - Memphis 3:
    // 4 + 2 + 3 + 1 = 10 moves, $1,700 (a starting contract: it names its start city).
    let memphis = contract_svg("Bread", "Memphis, TN");
    assert!(memphis.contains(">$1,700<"), "{memphis}");
}

#[test]
fn player_aid_shows_the_rules_numbers() {
    let pdf = built().join("interstate-trucking/home/interstate-trucking-one-sided.pdf");
    let text = pdftotext(&pdf, 9);
    assert!(text.contains("Player aids — 1/3"), "{text}");
    assert!(text.contains("Buy a Trailer"), "{text}");
    assert!(
        text.contains("1 AP + $1,000"),
        "the rule text's price, not the aid pages' $1,500: {text}"
    );
    assert!(!text.contains("$1,500"));
    assert!(text.contains("1 AP + $100"));
    assert!(text.contains("$800") && text.contains("$600") && text.contains("$400"));
    assert!(text.contains("YOUR TURN: 5 ACTION POINTS"));
    // The notes take their numbers from [rules] (goods_per_trailer = 2,
    // rest_unused_ap = 2, max_rest_markers = 3, push_on_rest = 2, extra_trailers = 1).
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for want in [
        "up to 2 open contracts per trailer",
        "2+ unused AP: take one Rest marker; hold 3",
        "turn in 2 Rest markers for one extra action",
        "1 extra trailer per game",
        "2 Rest",
    ] {
        assert!(flat.contains(want), "{want:?} in {flat}");
    }
    // The rulebook's tie rule, complete: the 3rd amount still goes to the next player.
    assert!(
        flat.contains("the next highest player still gets the 3rd"),
        "{flat}"
    );
    assert!(flat.contains("Three tied add all three bonuses"), "{flat}");
}

#[test]
fn aid_and_rest_markers_follow_max_rest_markers() {
    // Change the rule once: the aid's note and the number of rest markers follow
    // (6 players x 4 = 24 markers, so the rulebook's count must change with it).
    let tmp = project_copy(&["interstate-trucking"]);
    let game = tmp.path().join("data/interstate-trucking/game.toml");
    edit(&game, "max_rest_markers = 3", "max_rest_markers = 4");
    edit(&game, "rest-markers = 18", "rest-markers = 24");
    let o = run(
        tmp.path(),
        &["build", "interstate-trucking", "--format", "svg"],
    );
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    let aid = std::fs::read_to_string(
        tmp.path()
            .join("output/interstate-trucking/home/svg/player-aids/001-front.svg"),
    )
    .unwrap();
    assert!(aid.contains("hold 4"), "{aid}");
    assert!(!aid.contains("hold 3"), "{aid}");
    // Without the new count the rulebook's 18 no longer matches what would print.
    edit(&game, "rest-markers = 24", "rest-markers = 18");
    let o = run(tmp.path(), &["check", "interstate-trucking"]);
    let (_, stderr) = texts(&o);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("the rules have 18, but the data would print 24"),
        "{stderr}"
    );
}

#[test]
fn board_real_size_and_tiles() {
    let pdf = built().join("interstate-trucking/home/interstate-trucking-board-real-size.pdf");
    assert_one_page_trimmed(&pdf, 36.0, 24.0);
    let text = pdftotext(&pdf, 1);
    assert!(
        text.contains("MINNEAPOLIS") && text.contains("SAN DIEGO"),
        "{text}"
    );
    let pnp = built().join("interstate-trucking/home/interstate-trucking-one-sided.pdf");
    let tile = pdftotext(&pnp, 13);
    assert!(
        tile.contains("tile A2 (row 1 of 3, column 2 of 5)"),
        "{tile}"
    );
}

/// A circle: centre x, y and radius, in mm.
type Circle = (f64, f64, f64);

/// Centres of the `<circle ...>` elements carrying `class="keep-visible"`, and the
/// translations of the shields (`<g transform="translate(x y)">`), from the board SVG.
fn board_marks(svg: &str) -> (Vec<Circle>, Vec<(f64, f64)>) {
    let num = |s: &str, key: &str| -> f64 {
        let i = s.find(key).unwrap() + key.len();
        let rest = &s[i..];
        rest[..rest.find('"').unwrap()].parse().unwrap()
    };
    let mut spaces = Vec::new();
    for part in svg.split("<circle class=\"keep-visible\"").skip(1) {
        let tag = &part[..part.find('>').unwrap()];
        spaces.push((num(tag, "cx=\""), num(tag, "cy=\""), num(tag, " r=\"")));
    }
    let mut shields = Vec::new();
    for part in svg.split("<g transform=\"translate(").skip(1) {
        let xy = &part[..part.find(')').unwrap()];
        let mut it = xy.split(' ').map(|v| v.parse::<f64>().unwrap());
        shields.push((it.next().unwrap(), it.next().unwrap()));
    }
    (spaces, shields)
}

#[test]
fn every_movement_space_is_visible() {
    let svg =
        std::fs::read_to_string(built().join("interstate-trucking/home/svg/board/001-front.svg"))
            .unwrap();
    let (spaces, shields) = board_marks(&svg);
    // The spaces of routes.toml, added up by hand: 168 movement spaces on 34 routes.
    assert_eq!(spaces.len(), 168);
    // One shield per highway number of a route: 34 routes, ten of them with two or
    // three numbers (I-90/I-94, I-10/I-65/I-85, ...), 12 more: 46 shields.
    assert_eq!(shields.len(), 46);
    // A shield's outline (6.2 x 6.05 mm and its stroke) reaches 4.8 mm from its
    // centre at the corners: none may touch a space.
    for (sx, sy) in &shields {
        for (cx, cy, r) in &spaces {
            let d = ((sx - cx).powi(2) + (sy - cy).powi(2)).sqrt();
            assert!(
                d >= r + 4.8,
                "the shield at ({sx}, {sy}) covers the space at ({cx}, {cy})"
            );
        }
    }
    // Movement spaces stand apart: 14 mm at least ([rules.board] space_apart), so a
    // truck on one does not hide another.
    for (i, a) in spaces.iter().enumerate() {
        for b in &spaces[i + 1..] {
            let d = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
            assert!(
                d >= 14.0,
                "spaces at ({}, {}) and ({}, {}) are {d} mm apart",
                a.0,
                a.1,
                b.0,
                b.1
            );
        }
    }
}

#[test]
fn svg_and_png_per_distinct_face() {
    let dir = built().join("interstate-trucking/home");
    let svgs = std::fs::read_dir(dir.join("svg/contracts"))
        .unwrap()
        .count();
    // 88 distinct fronts and one common back.
    assert_eq!(svgs, 89);
    // 44 goods-chit faces but only 22 goods: identical faces are written once.
    assert_eq!(
        std::fs::read_dir(dir.join("png/goods-chits"))
            .unwrap()
            .count(),
        22
    );
    let png = std::fs::read(dir.join("png/contracts/001-front.png")).unwrap();
    // IHDR width/height: poker + 3 mm bleed = 69.5 x 94.9 mm at the build's 60 dpi
    // (164.2 x 224.2 px; at the default 300 dpi 821 x 1121, which `drawing`'s
    // build at the default resolution checks on its own faces).
    let w = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!((w, h), (164, 224));
    let svg = std::fs::read_to_string(dir.join("svg/contracts/001-front.svg")).unwrap();
    assert!(svg.contains("viewBox=\"-3 -3 69.5 94.9\""), "{svg}");
}

#[test]
fn a4_paper() {
    // The build at home on A4 the print tests read (every game).
    let out = crate::print::built(&crate::print::HOME_A4, "home", "a4");
    let doc = Document::load(out.join("interstate-trucking/home/interstate-trucking.pdf")).unwrap();
    let pages = doc.get_pages();
    assert!(close(
        &rect(&doc, pages[&1], b"MediaBox"),
        &[0.0, 0.0, 595.276, 841.89]
    ));
}

#[test]
fn check_prints_counts_and_writes_nothing() {
    let tmp = project_copy(&["interstate-trucking"]);
    let o = run(tmp.path(), &["check"]);
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stdout.contains("contracts      card       88     88  88 ok"),
        "{stdout}"
    );
    assert!(
        stdout.contains("goods-chits    chit       44     88  88 ok"),
        "{stdout}"
    );
    assert!(!tmp.path().join("output").exists());
}
