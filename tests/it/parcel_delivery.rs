//! Special Delivery (the parcel-delivery game): build the real data, read the PDF
//! back, and break the rules the checks guard in copies of the data.

use std::path::{Path, PathBuf};

use crate::common::pdf::Document;
use crate::common::*;

const GAME: &str = "parcel-delivery";

/// A data file of the real game, parsed.
fn data(file: &str) -> toml::Table {
    let s = std::fs::read_to_string(repo().join("data").join(GAME).join(file)).unwrap();
    toml::from_str(&s).unwrap()
}

fn rule(name: &str) -> i64 {
    data("game.toml")["rules"][name].as_integer().unwrap()
}

fn rows(file: &str, table: &str) -> Vec<toml::Table> {
    data(file)[table]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_table().unwrap().clone())
        .collect()
}

/// Text with every run of white space made one space (pdftotext -layout pads columns).
fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// How often `needle` occurs in `hay` as whole words ("4 ELM" is not in "14 ELM").
fn count_words(hay: &str, needle: &str) -> usize {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric());
    hay.match_indices(needle)
        .filter(|(i, _)| {
            !word(hay[..*i].chars().next_back()) && !word(hay[i + needle.len()..].chars().next())
        })
        .count()
}

/// The addresses printed on the cards: "<number> <STREET NAME>".
fn addresses() -> Vec<String> {
    let streets = rows("streets.toml", "street");
    rows("houses.toml", "house")
        .iter()
        .map(|h| {
            let street = streets
                .iter()
                .find(|s| s["id"].as_str() == h["street"].as_str())
                .unwrap();
            format!(
                "{} {}",
                h["number"].as_integer().unwrap(),
                street["name"].as_str().unwrap().to_uppercase()
            )
        })
        .collect()
}

/// The real game built once per test binary (PDF only), in the build at home on
/// Letter that the print tests read.
fn built() -> &'static Path {
    let shared = crate::print::home_letter();
    let said = "parcel-delivery: 7 component sets, 139 parts, 36 pages";
    assert!(shared.stdout.contains(said), "{}", shared.stdout);
    shared.dir.path()
}

/// A file the build wrote for the game under `out` (the print profile's folder, e.g.
/// `<out>/parcel-delivery/home/`, or the game's folder itself).
fn output(out: &Path, name: &str) -> PathBuf {
    fn find(dir: &Path, name: &str) -> Option<PathBuf> {
        let mut dirs = Vec::new();
        for e in std::fs::read_dir(dir).ok()?.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.file_name().is_some_and(|n| n == name) {
                return Some(p);
            }
        }
        dirs.sort();
        dirs.iter().find_map(|d| find(d, name))
    }
    find(&out.join(GAME), name).unwrap_or_else(|| panic!("{name} under {}", out.display()))
}

/// The double-sided sets: destination and bonus cards, fronts and backs.
fn pnp() -> PathBuf {
    output(built(), "parcel-delivery.pdf")
}

/// The one-sided parts: the chit sheet, the player aids, the board's tiles.
fn one_sided() -> PathBuf {
    output(built(), "parcel-delivery-one-sided.pdf")
}

/// The text of every page of a PDF, in order.
fn pages_text(pdf: &Path) -> Vec<String> {
    let n = Document::load(pdf).unwrap().get_pages().len();
    (1..=n).map(|p| pdftotext(pdf, p)).collect()
}

/// Runs `cardstock check` on a project folder; the exit status and all it printed.
fn check(dir: &Path) -> (bool, String) {
    let o = run(dir, &["check", GAME]);
    let (out, err) = texts(&o);
    (o.status.success(), format!("{out}\n{err}"))
}

/// A copy of the game with one edit in one data file; `check` must fail saying `needle`.
fn broken(file: &str, from: &str, to: &str, needle: &str) {
    let tmp = project_copy(&[GAME]);
    edit(&tmp.path().join("data").join(GAME).join(file), from, to);
    let (ok, all) = check(tmp.path());
    assert!(
        !ok,
        "check passed after editing {file}: {from:?} -> {to:?}\n{all}"
    );
    assert!(all.contains(needle), "expected {needle:?} in:\n{all}");
}

#[test]
fn print_and_play_pages() {
    // Double-sided, 8 poker cards a Letter sheet: 36 destination cards, 5 sheets + 5
    // back sheets; 54 bonus cards, 7 + 7. One-sided: vans, parcel counters and trap
    // counters share one chit sheet; 6 aids 2 to a sheet: 3; the 24 x 18 in board in
    // 8 Letter tiles.
    let one = Document::load(one_sided()).unwrap();
    assert_eq!(one.get_pages().len(), 12);
    let doc = Document::load(pnp()).unwrap();
    let pages = doc.get_pages();
    assert_eq!(pages.len(), 24);
    assert_eq!(rows("houses.toml", "house").len(), 36);
    let bonus: i64 = rows("bonus.toml", "bonus")
        .iter()
        .map(|b| b["qty"].as_integer().unwrap())
        .sum();
    // 6 players x 3 at the start plus one for each of the 36 deliveries.
    assert_eq!(bonus, 54);
    let letter = rect(&doc, pages[&1], b"MediaBox");
    assert!((letter[2] - 612.0).abs() < 0.01 && (letter[3] - 792.0).abs() < 0.01);
}

#[test]
fn one_destination_card_per_house() {
    let texts = pages_text(&pnp());
    let fronts: String = texts
        .iter()
        .filter(|t| t.contains("Destination cards — fronts"))
        .map(|t| squash(t))
        .collect::<Vec<_>>()
        .join(" ");
    let houses = rows("houses.toml", "house");
    assert_eq!(
        fronts.matches("DELIVER TO").count(),
        houses.len(),
        "{fronts}"
    );
    for a in addresses() {
        assert_eq!(count_words(&fronts, &a), 1, "{a} once on the cards");
    }
    // The first house in houses.toml is the first card: address, resident, grid
    // reference of its entrance and its distance from the warehouse.
    let first = squash(&texts[0]);
    assert!(first.contains("3 MEADOW LANE"), "{first}");
    assert!(first.contains("the Okafor family"), "{first}");
    assert!(first.contains("ENTRANCE B3"), "{first}");
    assert!(first.contains("16 spaces from the warehouse"), "{first}");
    assert!(first.contains("RED HOUSE"), "{first}");
    // The back sheet follows.
    assert_eq!(texts[1].matches("DESTINATION").count(), 8, "{}", texts[1]);
}

#[test]
fn bonus_cards_read_back() {
    let texts = pages_text(&pnp());
    let fronts: String = texts
        .iter()
        .filter(|t| t.contains("Bonus cards — fronts"))
        .map(|t| squash(t))
        .collect::<Vec<_>>()
        .join(" ");
    let bonus = rows("bonus.toml", "bonus");
    for b in &bonus {
        let qty = b["qty"].as_integer().unwrap() as usize;
        match b["kind"].as_str().unwrap() {
            "blue" => {
                let a = b["amount"].as_integer().unwrap();
                assert_eq!(fronts.matches(&format!("Add {a} to one roll")).count(), qty);
            }
            _ => assert_eq!(fronts.matches("Set your trap").count(), qty),
        }
    }
    let trap = rule("trap_test");
    assert!(fronts.contains(&format!("rolls {trap}+")), "{fronts}");
    assert!(fronts.contains(&format!("Hold up to {} bonus cards", rule("bonus_hand"))));
}

#[test]
fn player_aid_shows_the_rules() {
    let texts = pages_text(&one_sided());
    let aid = texts
        .iter()
        .find(|t| t.contains("Player aids — 1/3"))
        .map(|t| squash(t))
        .expect("an aid page");
    assert!(
        aid.contains(&format!("{} destination cards", rule("delivery_hand"))),
        "{aid}"
    );
    assert!(
        aid.contains(&format!("{} bonus cards", rule("bonus_hand"))),
        "{aid}"
    );
    assert!(
        aid.contains(&format!("Roll {}+", rule("trap_test"))),
        "{aid}"
    );
    for c in rows("colours.toml", "colour") {
        let label = format!(
            "{} {}",
            c["name"].as_str().unwrap().to_uppercase(),
            c["points"].as_integer().unwrap()
        );
        assert_eq!(
            aid.matches(&label).count(),
            2,
            "two aids a page show {label}"
        );
    }
    assert!(aid.contains("BLUE 1") && aid.contains("RED 6"), "{aid}");
    for action in ["Move", "Claim cards", "Deliver", "Set or remove trap"] {
        assert!(aid.contains(action), "{action}: {aid}");
    }
}

#[test]
fn board_real_size_and_tiles() {
    let pdf = output(built(), "parcel-delivery-board-real-size.pdf");
    assert_one_page_trimmed(&pdf, 24.0, 18.0);
    let text = squash(&pdftotext(&pdf, 1));
    assert!(text.contains("WAREHOUSE"), "{text}");
    for s in rows("streets.toml", "street") {
        let name = s["name"].as_str().unwrap().to_uppercase();
        assert!(text.contains(&name), "{name}: {text}");
    }
    for hz in rows("zones.toml", "hazard") {
        let tag = format!(
            "{} · ROLL {}+",
            hz["name"].as_str().unwrap().to_uppercase(),
            hz["value"].as_integer().unwrap()
        );
        assert!(text.contains(&tag), "{tag}: {text}");
    }
    let tiles = pages_text(&one_sided())
        .iter()
        .filter(|t| t.contains("Town board") && t.contains("tile "))
        .count();
    assert_eq!(tiles, 8, "24 x 18 in over Letter: 4 columns x 2 rows");
}

#[test]
fn check_counts_counters_per_player() {
    let (ok, all) = check(&repo());
    assert!(ok, "{all}");
    let line = |id: &str| -> Vec<String> {
        all.lines()
            .find(|l| l.split_whitespace().next() == Some(id))
            .unwrap_or_else(|| panic!("{id} in {all}"))
            .split_whitespace()
            .map(String::from)
            .collect()
    };
    let players = rows("players.toml", "player").len() as i64;
    assert_eq!(players, 6);
    let parcels = (players * rule("parcels_per_player")).to_string();
    assert_eq!(
        line("parcel-counters")[3..],
        [parcels.clone(), parcels, "ok".into()]
    );
    let traps = (players * rule("traps_per_player")).to_string();
    assert_eq!(
        line("trap-counters")[3..],
        [traps.clone(), traps, "ok".into()]
    );
    assert_eq!(line("vans")[3..], ["6", "6", "ok"]);
    assert_eq!(line("destinations")[2..4], ["36", "36"]);
}

// ---- Rules the checks guard ----

#[test]
fn entrance_off_the_road_network_is_caught() {
    // A plot cell, not a road space.
    broken(
        "houses.toml",
        "entrance = \"B3\"",
        "entrance = \"C3\"",
        "`entrance` refers to `C3`, which is not a `space` id",
    );
    // A road space, but not at the house's door.
    broken(
        "houses.toml",
        "entrance = \"B3\"",
        "entrance = \"B5\"",
        "3 Meadow Lane: its entrance B5 is not a road space next to the house's plot",
    );
}

#[test]
fn cut_road_is_caught() {
    // Bell Close is a dead end: cutting it off strands 10 Bell Close.
    broken(
        "town.toml",
        "{ from = \"N2\", to = \"N3\" },",
        "",
        "the network is not connected",
    );
}

#[test]
fn road_jumping_across_town_is_caught() {
    broken(
        "town.toml",
        "{ from = \"N2\", to = \"N3\" },",
        "{ from = \"N2\", to = \"N4\" },",
        "the road N2 - N4 jumps across the town",
    );
}

#[test]
fn hazard_on_an_entrance_is_caught() {
    broken(
        "zones.toml",
        "spaces = [\"F2\", \"G2\", \"H2\"]",
        "spaces = [\"E2\", \"F2\", \"G2\"]",
        "hazard Roadworks covers a house entrance (E2)",
    );
    broken(
        "zones.toml",
        "spaces = [\"F2\", \"G2\", \"H2\"]",
        "spaces = [\"F2\", \"G2\", \"J2\"]",
        "Roadworks falls apart into F2-G2 and J2",
    );
    // A later row of the same check (its template is compiled once for all).
    broken(
        "zones.toml",
        "spaces = [\"T10\", \"T11\", \"T12\"]",
        "spaces = [\"T10\", \"T11\", \"T13\"]",
        "Low Bridge falls apart into T10-T11 and T13",
    );
}

#[test]
fn counters_per_player_are_checked() {
    broken(
        "game.toml",
        "parcels_per_player = 5",
        "parcels_per_player = 4",
        "component set `parcel-counters`: the rules have 30, but the data would print 24",
    );
    broken(
        "players.toml",
        "[[player]]\nid = \"white\"",
        "[[not_a_player]]\nid = \"white\"",
        "the rules have 6, but the data would print 5",
    );
}

#[test]
fn points_follow_the_colour_table() {
    broken(
        "colours.toml",
        "points = 6",
        "points = 5",
        "blue 1, green 2, yellow 4, red 6 points",
    );
    broken(
        "houses.toml",
        "colour = \"red\"",
        "colour = \"blue\"",
        "3 Meadow Lane is blue but 16 spaces from the warehouse",
    );
}

#[test]
fn duplicate_address_is_caught() {
    broken(
        "houses.toml",
        "number = 3\nstreet = \"meadow\"",
        "number = 35\nstreet = \"meadow\"",
        "two houses share the address 35 Meadow Lane",
    );
}

/// The checks that find a house's plot and entrance, and a road space's street,
/// through `select()` (game.toml).
#[test]
fn plots_entrances_and_streets_are_checked() {
    broken(
        "houses.toml",
        "x = 4\ny = 0\nentrance = \"E2\"",
        "x = 0\ny = 2\nentrance = \"E2\"",
        "7 Hilltop Road shares its plot or its entrance space E2 with another house",
    );
    broken(
        "houses.toml",
        "x = 4\ny = 0\nentrance = \"E2\"",
        "x = 4\ny = 0\nentrance = \"B3\"",
        "7 Hilltop Road shares its plot or its entrance space B3 with another house",
    );
    broken(
        "houses.toml",
        "x = 4\ny = 0\nentrance = \"E2\"",
        "x = 4\ny = 1\nentrance = \"E2\"",
        "7 Hilltop Road is built on a road or on the warehouse (plot x = 4, y = 1)",
    );
    for needle in [
        "road space C2 is on no street in streets.toml",
        "Hilltop Road has a gap: every cell from 1 to 19 along it must be a road space",
    ] {
        broken(
            "town.toml",
            "{ id = \"C2\", x = 2, y = 1 }",
            "{ id = \"C2\", x = 2, y = 2 }",
            needle,
        );
    }
}

#[test]
fn adding_a_house_adds_its_card() {
    let tmp = project_copy(&[GAME]);
    let houses = tmp.path().join("data").join(GAME).join("houses.toml");
    let mut s = std::fs::read_to_string(&houses).unwrap();
    s.push_str(
        "\n[[house]]\nid = \"hilltop-3\"\nnumber = 3\nstreet = \"hilltop\"\nresident = \"Test\"\ncolour = \"red\"\nx = 2\ny = 0\nentrance = \"C2\"\n",
    );
    std::fs::write(&houses, s).unwrap();
    // ...and one more bonus card: every delivery earns one.
    edit(
        &tmp.path().join("data").join(GAME).join("bonus.toml"),
        "amount = 1\nqty = 18",
        "amount = 1\nqty = 19",
    );
    let (ok, all) = check(tmp.path());
    assert!(ok, "{all}");
    let dest = all
        .lines()
        .find(|l| l.trim_start().starts_with("destinations"))
        .unwrap();
    assert_eq!(squash(dest), "destinations card 37 37 -", "{all}");
    let out = tmp.path().join("out");
    let o = run(tmp.path(), &["build", GAME, "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{:?}", texts(&o));
    // 36 cards fill four and a half sheets: the 37th joins the fifth (page 9, after
    // 4 fronts and their 4 back sheets).
    let text = squash(&pdftotext(&output(&out, "parcel-delivery.pdf"), 9));
    assert!(text.contains("3 HILLTOP ROAD"), "{text}");
    assert!(text.contains("ENTRANCE C2"), "{text}");
}

#[test]
fn a_house_printing_two_cards_breaks_one_card_per_house() {
    let tmp = project_copy(&["parcel-delivery"]);
    let path = tmp.path().join("data/parcel-delivery/houses.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let at = text.find("[[house]]").unwrap() + "[[house]]".len();
    std::fs::write(&path, format!("{}\nqty = 2{}", &text[..at], &text[at..])).unwrap();
    let o = run(tmp.path(), &["check", "parcel-delivery"]);
    assert_eq!(o.status.code(), Some(1));
    let (_, stderr) = texts(&o);
    assert!(
        stderr.contains("37 destination cards would print for 36 houses"),
        "{stderr}"
    );
}

#[test]
fn enough_destination_cards_for_six_players() {
    // Setup with six players: each may keep all 5 cards they look at, then 5 go face
    // up: 35 cards. Two more face up would need 37 of the 36.
    broken(
        "game.toml",
        "face_up = 5",
        "face_up = 7",
        "setup can take 6 x 5 destination cards kept plus 7 face up = 37, but there are only 36: add houses",
    );
}

#[test]
fn tests_must_be_passable_and_both_bonus_kinds_present() {
    broken(
        "game.toml",
        "trap_test = 4",
        "trap_test = 7",
        "the trap test (7+) must be passable on one 6-sided die, and a 1 must fail it",
    );
    broken(
        "bonus.toml",
        "kind = \"red\"",
        "kind = \"blue\"\namount = 1",
        "the rulebook's two kinds of bonus card must both be in the deck",
    );
}

#[test]
fn pieces_fit_the_spaces_and_the_van() {
    broken(
        "game.toml",
        "size = { width = \"15mm\", height = \"11mm\" }",
        "size = { width = \"18mm\", height = \"11mm\" }",
        "a van (18 x 11 mm) must fit a road space (16 mm)",
    );
    broken(
        "game.toml",
        "size = \"chit-5/8in\"",
        "size = \"chit-3/4in\"",
        "a trap counter (19.05 mm) must fit the road space it is set on (16 mm)",
    );
    broken(
        "game.toml",
        "size = { width = \"8.5mm\", height = \"8.5mm\" }",
        "size = { width = \"9.5mm\", height = \"9.5mm\" }",
        "the parcel counters (9.5 mm) must fit the van's cargo bay (9 mm)",
    );
}

/// The hazard hatch is drawn as stripes clipped to each space, not as a tiling
/// pattern: a tiling pattern's tiles show hairline seams in some readers and RIPs
/// (looked at in poppler and Ghostscript at 300 dpi). No PDF of the game holds a
/// tiling pattern, and the board's PDF paints the stripes' orange.
#[test]
fn the_hazard_hatch_is_no_tiling_pattern() {
    for name in [
        "parcel-delivery.pdf",
        "parcel-delivery-one-sided.pdf",
        "parcel-delivery-board-real-size.pdf",
    ] {
        let doc = Document::load(output(built(), name)).unwrap();
        let tiling = doc
            .objects
            .values()
            .filter(|o| {
                let dict = match o {
                    crate::common::pdf::Object::Dictionary(d) => d,
                    crate::common::pdf::Object::Stream(s) => &s.dict,
                    _ => return false,
                };
                dict.get(b"PatternType").and_then(|t| t.as_i64()).ok() == Some(1)
            })
            .count();
        assert_eq!(tiling, 0, "{name} holds {tiling} tiling patterns");
    }
    // The stripes (#f0a020) are painted on the board (in its form XObject);
    // colour components are written to four places (240 / 255 as 0.9412).
    let doc = Document::load(output(built(), "parcel-delivery-board-real-size.pdf")).unwrap();
    let painted = doc.objects.values().any(|o| match o {
        crate::common::pdf::Object::Stream(s) => {
            let bytes = s
                .decompressed_content()
                .unwrap_or_else(|_| s.content.clone());
            String::from_utf8_lossy(&bytes).contains("0.9412 0.6275 0.1255 rg")
        }
        _ => false,
    });
    assert!(painted, "no stripe colour on the board");
}
