//! Inside Track end to end: build the real data, read the PDFs back, and break the
//! rules in copies of the data to see the checks catch it.

use std::path::Path;

use crate::common::pdf::Document;
use crate::common::*;

const GAME: &str = "inside-track";

/// Builds the real game once per test binary (PDF and SVG; no PNG, to stay fast).
fn built() -> &'static Path {
    static OUT: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    build_once(
        &OUT,
        &["build", GAME, "--format", "pdf,svg", "--deny-warnings"],
        "inside-track: 10 component sets, 431 parts, 27 pages",
    )
}

/// The double-sided sets: Partnership and Sidetracked! cards, fronts and backs.
fn pnp() -> std::path::PathBuf {
    built().join("inside-track/home/inside-track.pdf")
}

/// The one-sided parts: board tiles, chit sheets, player aids.
fn one_sided() -> std::path::PathBuf {
    built().join("inside-track/home/inside-track-one-sided.pdf")
}

/// The page whose label names this component set and sheet.
fn page_of(pdf: &Path, label: &str) -> usize {
    let pages = Document::load(pdf).unwrap().get_pages().len();
    (1..=pages)
        .find(|&p| pdftotext(pdf, p).contains(label))
        .unwrap_or_else(|| panic!("no page labelled {label:?}"))
}

#[test]
fn print_and_play_pages() {
    // Double-sided: 2 + 2 Partnership sheets (fronts, backs), 4 + 4 Sidetracked!
    // sheets (8 poker cards a Letter sheet). One-sided: 8 board tiles, 3 shared chit
    // sheets (REV tokens, hubs, Metrodollars, debt tokens, stations, tracks), 4 aids.
    for (pdf, count) in [(pnp(), 12), (one_sided(), 15)] {
        let doc = Document::load(&pdf).unwrap();
        let pages = doc.get_pages();
        assert_eq!(pages.len(), count, "{}", pdf.display());
        check_letter_pages(&doc, pages);
    }
    let text = pdftotext(&one_sided(), 9);
    assert!(
        text.contains("Real Estate Value tokens") && text.contains("chit sheet 1/3"),
        "{text}"
    );
}

/// Every page Letter (either way round), its bleed around its trim.
fn check_letter_pages(
    doc: &Document,
    pages: std::collections::BTreeMap<u32, crate::common::pdf::ObjectId>,
) {
    for (_, id) in pages {
        let media = rect(doc, id, b"MediaBox");
        // Letter, portrait or (board tiles) landscape.
        let (w, h) = (media[2] - media[0], media[3] - media[1]);
        assert!(
            (w.min(h) - 612.0).abs() < 0.01 && (w.max(h) - 792.0).abs() < 0.01,
            "{media:?}"
        );
        let trim = rect(doc, id, b"TrimBox");
        let bleed = rect(doc, id, b"BleedBox");
        assert!(bleed[0] <= trim[0] && bleed[2] >= trim[2]);
    }
}

#[test]
fn board_real_size_with_zones_revs_and_hubs() {
    let pdf = built().join("inside-track/home/inside-track-board-real-size.pdf");
    assert_one_page_trimmed(&pdf, 18.0, 24.0);
    let text = pdftotext(&pdf, 1);
    for zone in [
        "INWOOD",
        "WASHINGTON HEIGHTS",
        "HARLEM",
        "EAST HARLEM",
        "UPPER WEST SIDE",
        "UPPER EAST SIDE",
        "MIDTOWN WEST",
        "MIDTOWN EAST",
        "GREENWICH VILLAGE",
        "LOWER MANHATTAN",
        "CENTRAL PARK",
    ] {
        assert!(text.contains(zone), "{zone}: {text}");
    }
    // The beginners' REV circles: 2 x $6|$3, 4 x $4|$2, 4 x $2|$1 (plus one of
    // each in the legend).
    assert_eq!(text.matches("$6 | $3").count(), 3, "{text}");
    assert_eq!(text.matches("$4 | $2").count(), 5, "{text}");
    assert_eq!(text.matches("$2 | $1").count(), 5, "{text}");
    assert!(text.contains("Times Square") && text.contains("125th Street"));
    assert!(text.contains("NO STATIONS · NO TRACKS"));
    // Inwood is both a $2|$1 start zone and an end zone of the island.
    assert!(
        text.contains("start zone · end zone: a line ends here"),
        "{text}"
    );
    assert_eq!(text.matches("start zone").count(), 4, "{text}");
    // Tiled over Letter: the first tile page says where it goes.
    let tile = pdftotext(&one_sided(), 1);
    assert!(tile.contains("Board — tile A1"), "{tile}");
}

#[test]
fn sidetracked_card_text_reads_back() {
    let page = page_of(&pnp(), "Sidetracked! cards — fronts 1/4");
    let text = pdftotext(&pnp(), page);
    assert!(text.contains("RIBBON CUTTING"), "{text}");
    // {amount} is filled in from the card's `amount`...
    assert!(text.contains("partners collect $2 from the"), "{text}");
    // ...and {high} from the $6|$3 REV token.
    assert!(text.contains("$6|$3"), "{text}");
    assert!(text.contains("PLAY NOW · THEN DISCARD"), "{text}");
    assert!(text.contains("KEEP FACE DOWN · HOLD AT MOST 3"), "{text}");
    for p in page..page + 8 {
        let t = pdftotext(&pnp(), p);
        assert!(!t.contains('{'), "unfilled placeholder on page {p}: {t}");
    }
    let back = pdftotext(&pnp(), page + 1);
    assert_eq!(
        back.matches("SIDETRACKED!").count(),
        8,
        "8 cards a sheet: {back}"
    );
    // One SVG per distinct card, plus the common back.
    let svgs = std::fs::read_dir(built().join("inside-track/home/svg/sidetracked"))
        .unwrap()
        .count();
    assert_eq!(svgs, 24);
}

/// The text of the Sidetracked! card titled `title` (from its SVG, lines joined).
fn card_text(title: &str) -> String {
    let dir = built().join("inside-track/home/svg/sidetracked");
    for e in std::fs::read_dir(dir).unwrap() {
        let svg = std::fs::read_to_string(e.unwrap().path()).unwrap();
        if svg.contains(&format!(">{}<", title.to_uppercase())) {
            let mut words = Vec::new();
            for part in svg.split('>').skip(1) {
                let t = &part[..part.find('<').unwrap_or(part.len())];
                if !t.trim().is_empty() {
                    words.push(t.trim().to_string());
                }
            }
            return words.join(" ").replace("&#x27;", "'");
        }
    }
    panic!("no Sidetracked! card {title}");
}

#[test]
fn sidetracked_cards_keep_the_rulebooks_rules() {
    // Debts must be paid before a Sidetracked! card is played.
    let bond = card_text("Bond Issue");
    assert!(
        bond.contains("once your debt tokens are paid back"),
        "{bond}"
    );
    assert!(!bond.contains("pays off your debt"), "{bond}");
    // An alliance is shown by a Partnership card kept face up.
    let deal = card_text("Backroom Deal");
    assert!(
        !deal.contains("without giving up a Partnership card"),
        "{deal}"
    );
    assert!(
        deal.contains("hand them one of your Partnership cards (they keep it face up)"),
        "{deal}"
    );
    assert!(
        deal.contains("take back a Partnership card of yours that they hold; that alliance ends"),
        "{deal}"
    );
    let charter = card_text("Renewed Charter");
    assert!(!charter.contains("the alliance goes on"), "{charter}");
    assert!(
        charter.contains("They keep it face up while the alliance lasts"),
        "{charter}"
    );
    // Emergency repairs only when track is cut off from every station.
    let flood = card_text("Tunnel Flood");
    assert!(!flood.contains("cut in two"), "{flood}");
    assert!(
        flood.contains("cut off from every one of your stations"),
        "{flood}"
    );
}

#[test]
fn pieces_must_allow_a_win() {
    // 10 zones, 2 hubs in two different zones: a winner needs 8 stations of a colour.
    let err = broken(
        "game.toml",
        "stations_per_color = 20",
        "stations_per_color = 7",
    );
    assert!(
        err.contains(
            "7 stations per colour cannot cover the 10 zones: even with both hubs a winner needs 8"
        ),
        "{err}"
    );
    // Inwood's southern row is row 2 and Lower Manhattan's northern row is 21; a
    // line straight down column 5 (Inwood, Washington Heights, East Harlem, Upper
    // East Side, Midtown East, Greenwich Village) crosses 19 blocks.
    let err = broken(
        "game.toml",
        "tracks_per_color = 50",
        "tracks_per_color = 18",
    );
    assert!(
        err.contains("18 track pieces per colour cannot reach from inwood to lower-manhattan: the shortest line crosses 19 blocks"),
        "{err}"
    );
}

#[test]
fn partnership_cards_four_per_colour() {
    let page = page_of(&pnp(), "Partnership cards — fronts 1/2");
    let mut all = pdftotext(&pnp(), page);
    all.push_str(&pdftotext(&pnp(), page + 2));
    for colour in ["Blue line", "Red line", "Green line", "Yellow line"] {
        assert_eq!(all.matches(colour).count(), 4, "{colour}: {all}");
    }
}

#[test]
fn player_aid_shows_the_rules_numbers() {
    let page = page_of(&one_sided(), "Player aids — 1/4");
    let text = pdftotext(&one_sided(), page);
    // Hub pay by players connected, from rules.hub_pay.
    assert!(text.contains("HUB PAY EACH TURN"), "{text}");
    assert!(
        text.contains("$4   $3   $2   $1") || text.contains("$4 $3 $2 $1"),
        "{text}"
    );
    assert!(
        text.contains("15 Metrodollars (1 x $10 + 5 x $1)"),
        "{text}"
    );
    assert!(text.contains("Collect 50% of your pay"), "{text}");
    assert!(text.contains("in a $2|$1"), "{text}");
    // The three winning conditions.
    assert!(text.contains("TO WIN"), "{text}");
    assert!(text.contains("all 10 zones"), "{text}");
    assert!(text.contains("Two separate"), "{text}");
    assert!(text.contains("except Inwood and Lower Manhattan"), "{text}");
    assert!(!text.contains('{'), "{text}");
}

#[test]
fn check_prints_counts_and_writes_nothing() {
    let tmp = project_copy(&[GAME]);
    let o = run(tmp.path(), &["check"]);
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("inside-track: ok"), "{stdout}");
    for line in [
        "rev-tokens         chit        3     10  10 ok",
        "hubs               chit        2      2  2 ok",
        "partnership-cards  card        4     16  16 ok",
        "sidetracked        card       23     27  -",
    ] {
        assert!(stdout.contains(line), "{line}\n{stdout}");
    }
    assert!(!tmp.path().join("output").exists());
}

/// Applies `from -> to` in a copy of the data, runs `check`, and returns stderr
/// after asserting that the check failed.
fn broken(file: &str, from: &str, to: &str) -> String {
    let tmp = project_copy(&[GAME]);
    edit(&tmp.path().join("data").join(GAME).join(file), from, to);
    let o = run(tmp.path(), &["check", GAME]);
    let (stdout, stderr) = texts(&o);
    assert!(!o.status.success(), "check passed:\n{stdout}");
    stderr
}

#[test]
fn hub_without_four_buildable_neighbours_is_caught() {
    // Times Square moved next to the Hudson: its western neighbour is water.
    let err = broken("board.toml", "row = 17\ncol = 3", "row = 17\ncol = 1");
    assert!(
        err.contains("hub Times Square (row 17, column 1) must stand on a buildable block whose four neighbours north, south, east and west are buildable"),
        "{err}"
    );
    let err = broken("board.toml", "row = 8\ncol = 3", "row = 0\ncol = 4");
    assert!(
        err.contains("hub 125th Street at row 0, column 4 is on the edge of the board"),
        "{err}"
    );
}

#[test]
fn central_park_must_stay_unbuildable() {
    let err = broken(
        "board.toml",
        "code = \"P\"\nbuildable = false",
        "code = \"P\"\nbuildable = true",
    );
    assert!(
        err.contains("Central Park is the board's one no-build zone"),
        "{err}"
    );
    assert!(
        err.contains("Central Park: every buildable zone has exactly one REV circle"),
        "{err}"
    );
}

#[test]
fn beginners_rev_layout_must_use_the_tokens() {
    // Midtown East gets a $4|$2 circle: five $4|$2 zones, one $6|$3.
    let err = broken(
        "board.toml",
        "code = \"T\"\nbuildable = true\nrev = \"high\"",
        "code = \"T\"\nbuildable = true\nrev = \"mid\"",
    );
    assert!(
        err.contains("the beginners' REV layout must use the $6|$3 token exactly 2 times"),
        "{err}"
    );
    assert!(err.contains("(board.toml uses it 5 times)"), "{err}");
    // A REV token price that is not the rulebook's.
    let err = broken(
        "tokens.toml",
        "station = 6\ntrack = 3",
        "station = 6\ntrack = 2",
    );
    assert!(
        err.contains("the rulebook's REV tokens are $6|$3 (2 tokens)"),
        "{err}"
    );
}

#[test]
fn end_zones_and_zone_shapes_are_walked_on_the_grid() {
    // Harlem reaches up beside Inwood: Inwood now touches two zones and could be
    // passed through, and Harlem falls into two pieces.
    let err = broken(
        "board.toml",
        "cells = \"..WWWWW..\"   #  3",
        "cells = \"..WWWHH..\"   #  3",
    );
    assert!(
        err.contains("the board's zones: Inwood is an end zone of the island and must touch exactly one other zone, but touches 2"),
        "{err}"
    );
    assert!(
        err.contains("the board's grid: Harlem is split into 2 separate areas"),
        "{err}"
    );
}

#[test]
fn partnership_cards_are_four_per_colour() {
    let err = broken(
        "game.toml",
        "partnership_per_color = 4",
        "partnership_per_color = 3",
    );
    assert!(
        err.contains("there are 4 Partnership cards of each colour"),
        "{err}"
    );
    assert!(err.contains("partnership-cards"), "{err}");
}

#[test]
fn a_card_text_that_cannot_fit_names_the_card() {
    let tmp = project_copy(&[GAME]);
    let long = " Every word of the grant needs hearings, audits, signatures and a ribbon cutting."
        .repeat(6);
    edit(
        &tmp.path().join("data").join(GAME).join("cards.toml"),
        "Collect {amount} from the Federal Reserve.\"",
        &format!("Collect {{amount}} from the Federal Reserve.{long}\""),
    );
    let out = tmp.path().join("out");
    let o = run(tmp.path(), &["build", GAME, "--out", out.to_str().unwrap()]);
    let (stdout, stderr) = texts(&o);
    assert!(!o.status.success(), "{stdout}");
    assert!(
        stderr.contains("does not fit its 53.5 x 33.5 mm box"),
        "{stderr}"
    );
    assert!(stderr.contains("sidetracked `federal-grant`"), "{stderr}");
    assert!(!out.join(GAME).exists(), "nothing written");
}
