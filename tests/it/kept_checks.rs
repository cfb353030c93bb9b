//! The live preview runs again only the `[[assert]]`s and typesets again only the
//! rulebook whose inputs changed (`check::AssertCache`, `rulebook::RulebookCache`,
//! with the render cache), and compiles the templates and looks through a data
//! file for typed numbers again only when their files changed
//! (`template::TemplateCache`, `check::typed_twice::DataStrings`), and parses
//! `game.toml` again only when its text changed (`model::GameFileCache`), and
//! runs a `[[derive]]`'s formula again only for the rows whose inputs changed
//! (`check::DeriveCache`): each build here runs the real pipeline on a copy of
//! Interstate Trucking with the stores the preview keeps, and is compared with a
//! build from scratch of the same files: the same problems, the same faces, the
//! same rulebook pages.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex, OnceLock};

use cardstock::output::Sink;
use cardstock::pipeline::{
    build_choosing, AssertCache, DataStrings, DeriveCache, GameFileCache, Incremental, RenderCache,
    RulebookCache, TemplateCache,
};
use cardstock::project::Project;

use crate::common::*;
use crate::hostile::files_under;

const GAME: &str = "interstate-trucking";

/// What the preview keeps between builds.
#[derive(Default)]
struct Kept {
    rendered: RenderCache,
    asserts: AssertCache,
    rulebook: RulebookCache,
    templates: TemplateCache,
    strings: DataStrings,
    game_file: GameFileCache,
    derives: DeriveCache,
}

/// One build: its problems, faces and rulebook pages, and what it did again.
#[derive(Debug)]
struct Build {
    problems: String,
    faces: Vec<String>,
    pages: Vec<String>,
    asserts: usize,
    /// Assertions run and kept; rulebooks typeset and kept (0 or 1 each).
    ran: (usize, usize),
    typeset: (usize, usize),
    /// Rulebooks laid out and drawn, and those whose pages were kept.
    drawn: (usize, usize),
    /// Whether the templates compiled by the build before were taken.
    templates_kept: bool,
    /// Data files looked through again for typed numbers.
    strings_parsed: usize,
    /// Whether `game.toml`'s definitions parsed by the build before were taken.
    game_file_kept: bool,
    /// `[[derive]]` rows whose formula ran, and those whose value was kept.
    derived: (usize, usize),
}

/// Builds the game at `root` up to its faces and rulebook (nothing delivered),
/// with `kept` if given.
fn build(root: &Path, kept: Option<&Kept>) -> Build {
    let project = Project::disk(root).unwrap();
    let incremental = Incremental {
        rendered: kept.map(|k| &k.rendered),
        asserts: kept.map(|k| &k.asserts),
        rulebook: kept.map(|k| &k.rulebook),
        templates: kept.map(|k| &k.templates),
        strings: kept.map(|k| &k.strings),
        game_file: kept.map(|k| &k.game_file),
        derives: kept.map(|k| &k.derives),
        ..Incremental::default()
    };
    // Encoding nothing, as the live preview: the pages are written as SVG.
    let opts = cardstock::options::Options {
        encode: false,
        ..Default::default()
    };
    let (built, finished) =
        build_choosing(&project, GAME, &opts, incremental, Sink::Memory, |_, _| {
            false.into()
        });
    let faces = finished.map_or_else(Vec::new, |f| {
        let store = &f.rendered.store;
        (0..store.len())
            .map(|i| store.svg(i).into_owned())
            .collect()
    });
    let pages = built.rulebook.as_ref().map_or_else(Vec::new, |b| {
        b.pages.iter().filter_map(|p| p.svg.clone()).collect()
    });
    Build {
        problems: built.diags.render(&project),
        faces,
        pages,
        asserts: built.asserts.asserts,
        ran: kept.map_or((0, 0), |k| {
            (k.asserts.made.load(Relaxed), k.asserts.reused.load(Relaxed))
        }),
        typeset: kept.map_or((0, 0), |k| {
            (
                k.rulebook.made.load(Relaxed),
                k.rulebook.reused.load(Relaxed),
            )
        }),
        drawn: kept.map_or((0, 0), |k| k.rulebook.drawn()),
        templates_kept: kept.is_some_and(|k| k.templates.was_kept()),
        strings_parsed: kept.map_or(0, |k| k.strings.parsed.load(Relaxed)),
        game_file_kept: kept.is_some_and(|k| k.game_file.was_kept()),
        derived: kept.map_or((0, 0), |k| {
            (k.derives.made.load(Relaxed), k.derives.reused.load(Relaxed))
        }),
    }
}

/// Every file under `root` (the game's copy) with its bytes, by its path under
/// `root`.
type Files = BTreeMap<PathBuf, Vec<u8>>;

/// A build from scratch of the files at `root`. A build from scratch depends on
/// those files only, so it is made once for each state the tests here reach (the
/// game as it is, which every test starts from; an edit taken back; a build
/// repeated with nothing changed) and shared, by the files' bytes, between builds
/// and tests; a test waits for a build another test is making of the same files.
fn fresh(root: &Path) -> Arc<Build> {
    type Made = Arc<OnceLock<Arc<Build>>>;
    static MADE: Mutex<Vec<(Files, Made)>> = Mutex::new(Vec::new());
    let key = files_under(root);
    let cell = {
        let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
        match made.iter().find(|(k, _)| *k == key) {
            Some((_, cell)) => Arc::clone(cell),
            None => {
                let cell = Made::default();
                made.push((key, Arc::clone(&cell)));
                cell
            }
        }
    };
    Arc::clone(cell.get_or_init(|| Arc::new(build(root, None))))
}

/// Builds with `kept` and checks it against a build from scratch.
fn same_as_fresh(root: &Path, kept: &Kept) -> Build {
    let k = build(root, Some(kept));
    let fresh = fresh(root);
    assert_eq!(k.problems, fresh.problems, "the same problems");
    assert_eq!(k.asserts, fresh.asserts, "as many assertions counted");
    assert!(
        k.faces == fresh.faces,
        "a kept face differs from a fresh one"
    );
    assert!(
        k.pages == fresh.pages,
        "a kept page differs from a fresh one"
    );
    k
}

/// The text of every page, words only (a page draws its text in runs).
fn words(pages: &[String]) -> String {
    pages.join(" ")
}

#[test]
fn an_edit_that_breaks_an_assert_is_reported_while_the_others_are_kept() {
    let tmp = project_copy(&[GAME]);
    let game_toml = tmp.path().join("data").join(GAME).join("game.toml");
    let kept = Kept::default();
    let first = same_as_fresh(tmp.path(), &kept);
    assert!(first.problems.is_empty(), "{}", first.problems);
    let all = first.asserts;
    assert!(all > 20, "{all}");
    assert_eq!(first.ran, (all, 0), "every assertion runs the first time");

    // Nothing changed: no assertion runs again.
    let again = same_as_fresh(tmp.path(), &kept);
    assert_eq!(again.ran, (0, all));

    // A cost the rules' example names: its assertion fails, now and on the
    // build after (a failing assertion is not kept), with a plain run's message.
    edit(&game_toml, "money = 1000", "money = 1200");
    for _ in 0..2 {
        let broken = same_as_fresh(tmp.path(), &kept);
        assert!(
            broken
                .problems
                .contains("the rule text prices a trailer at $1,000"),
            "{}",
            broken.problems
        );
        let (ran, held) = broken.ran;
        assert!(ran >= 1 && ran < all && held == all - ran, "{ran} {held}");
    }
    edit(&game_toml, "money = 1200", "money = 1000");
    let fixed = same_as_fresh(tmp.path(), &kept);
    assert!(fixed.problems.is_empty(), "{}", fixed.problems);
}

#[test]
fn an_edit_nothing_reads_runs_no_assert_and_keeps_the_rulebook() {
    let tmp = project_copy(&[GAME]);
    let data = tmp.path().join("data").join(GAME);
    let kept = Kept::default();
    let all = same_as_fresh(tmp.path(), &kept).asserts;

    // A player colour: no assertion and no line of the rulebook reads colors.toml.
    edit(
        &data.join("colors.toml"),
        "fill = \"#c62828\"",
        "fill = \"#c62829\"",
    );
    let b = same_as_fresh(tmp.path(), &kept);
    assert_eq!(b.ran, (0, all), "no assertion read it");
    assert_eq!(b.typeset, (0, 1), "the rulebook did not read it");

    // A `[rules]` key that nothing names: only the check that goes through every
    // key (every amount in `[rules]` payable in bills) runs again.
    edit(
        &data.join("game.toml"),
        "perishable_loss = 100",
        "perishable_loss = 100\nread_by_nothing = \"a note\"",
    );
    let b = same_as_fresh(tmp.path(), &kept);
    assert_eq!(b.ran, (1, all - 1));

    // One contract's city: only the assertions over the contracts run again.
    let contracts = data.join("contracts.toml");
    let text = std::fs::read_to_string(&contracts).unwrap();
    let moved = set_field(&text, "contract", 12, "city", "\"denver\"");
    assert_ne!(moved, text);
    std::fs::write(&contracts, moved).unwrap();
    let b = same_as_fresh(tmp.path(), &kept);
    let (ran, held) = b.ran;
    assert!(
        ran > 0 && ran < all / 2 && held == all - ran,
        "{ran} {held}"
    );
}

#[test]
fn the_rulebook_is_typeset_again_when_its_text_or_a_fact_it_prints_changes() {
    let tmp = project_copy(&[GAME]);
    let data = tmp.path().join("data").join(GAME);
    let kept = Kept::default();
    let first = same_as_fresh(tmp.path(), &kept);
    assert_eq!(first.typeset, (1, 0));
    assert!(!first.pages.is_empty());
    assert_eq!(same_as_fresh(tmp.path(), &kept).typeset, (0, 1), "kept");

    // Its own text.
    let rules = data.join("rules.md");
    let text = std::fs::read_to_string(&rules).unwrap();
    std::fs::write(&rules, format!("{text}\nThe zebu drives last.\n")).unwrap();
    let b = same_as_fresh(tmp.path(), &kept);
    assert_eq!(b.typeset, (1, 0));
    assert!(
        words(&b.pages).contains("zebu"),
        "the new line is on a page"
    );

    // A city the setup names (through `lookup`): its new name is printed.
    assert!(words(&b.pages).contains("Portland"));
    edit(
        &data.join("cities.toml"),
        "name = \"Portland\"",
        "name = \"Yuma\"",
    );
    let b = same_as_fresh(tmp.path(), &kept);
    assert_eq!(b.typeset, (1, 0));
    assert_eq!(b.drawn, (1, 0), "its Markdown changed: drawn again");
    assert!(words(&b.pages).contains("Yuma"));
    assert!(!words(&b.pages).contains("Portland"));
    assert_eq!(same_as_fresh(tmp.path(), &kept).typeset, (0, 1));
}

#[test]
fn a_rulebook_whose_template_prints_the_same_markdown_is_not_drawn_again() {
    let tmp = project_copy(&[GAME]);
    let data = tmp.path().join("data").join(GAME);
    let kept = Kept::default();
    assert_eq!(same_as_fresh(tmp.path(), &kept).drawn, (1, 0));

    // A contract the rules do not quote: the template reads the contracts
    // table (its example looks for bread to Memphis), so it runs again, and
    // prints the same Markdown: the pages are the last ones.
    contract_12_to_denver(&data);
    let b = same_as_fresh(tmp.path(), &kept);
    assert_eq!(b.typeset, (1, 0), "the template ran again");
    assert_eq!(b.drawn, (0, 1), "the same Markdown: the pages are kept");

    // Words the rules print (the credits): new Markdown, new pages.
    edit(
        &data.join("game.toml"),
        "credits = \"Game design: Candace Weber\"",
        "credits = \"Game design: Candace Weber and Zora Quill\"",
    );
    let b = same_as_fresh(tmp.path(), &kept);
    assert!(b.problems.is_empty(), "{}", b.problems);
    assert_eq!(b.drawn, (1, 0), "the Markdown changed: drawn again");
    assert!(words(&b.pages).contains("Zora"));
}

#[test]
fn templates_are_compiled_again_only_when_a_template_file_changed() {
    let tmp = project_copy(&[GAME]);
    let data = tmp.path().join("data").join(GAME);
    let back = tmp
        .path()
        .join("templates")
        .join(GAME)
        .join("contract-back.svg");
    let kept = Kept::default();
    assert!(!same_as_fresh(tmp.path(), &kept).templates_kept);
    assert!(
        same_as_fresh(tmp.path(), &kept).templates_kept,
        "nothing changed"
    );

    // Data only: the templates are the same.
    edit(
        &data.join("colors.toml"),
        "fill = \"#c62828\"",
        "fill = \"#c62829\"",
    );
    assert!(same_as_fresh(tmp.path(), &kept).templates_kept);

    // A face template's text: compiled again, and its faces print it.
    edit(&back, ">TRUCKING</text>", ">TRUCKING ZEBU</text>");
    let b = same_as_fresh(tmp.path(), &kept);
    assert!(!b.templates_kept);
    assert!(b.faces.iter().any(|f| f.contains("TRUCKING ZEBU")));
    assert!(same_as_fresh(tmp.path(), &kept).templates_kept);

    // A shared template that no face of this game may import: compiled again.
    let shared = tmp.path().join("templates").join("common").join("grid.svg");
    let text = std::fs::read_to_string(&shared).unwrap();
    std::fs::write(&shared, format!("{text}\n")).unwrap();
    assert!(!same_as_fresh(tmp.path(), &kept).templates_kept);

    // A syntax error: the error of a build from scratch, on every build (a
    // template that does not compile keeps nothing), until it is mended.
    edit(&back, ">TRUCKING ZEBU</text>", ">{{ TRUCKING</text>");
    for _ in 0..2 {
        let b = same_as_fresh(tmp.path(), &kept);
        assert!(b.problems.contains("contract-back.svg"), "{}", b.problems);
        assert!(!b.templates_kept);
    }
    edit(&back, ">{{ TRUCKING</text>", ">TRUCKING</text>");
    let b = same_as_fresh(tmp.path(), &kept);
    assert!(b.problems.is_empty(), "{}", b.problems);
    assert!(!b.faces.iter().any(|f| f.contains("ZEBU")));
}

#[test]
fn a_data_file_is_looked_through_for_typed_numbers_only_when_its_text_changed() {
    let tmp = project_copy(&[GAME]);
    let data = tmp.path().join("data").join(GAME);
    let kept = Kept::default();
    let first = same_as_fresh(tmp.path(), &kept);
    assert!(first.strings_parsed > 4, "{}", first.strings_parsed);
    assert_eq!(same_as_fresh(tmp.path(), &kept).strings_parsed, 0);

    // One file changed: only it is looked through again, and a rule's number
    // typed into it is found (`end_trigger = 10000`).
    let cities = data.join("cities.toml");
    edit(&cities, "name = \"Portland\"", "name = \"Portland 10000\"");
    let b = same_as_fresh(tmp.path(), &kept);
    assert_eq!(b.strings_parsed, 1);
    assert!(
        b.problems.contains("`10000` is typed here"),
        "{}",
        b.problems
    );
    // Kept: still found.
    let b = same_as_fresh(tmp.path(), &kept);
    assert_eq!(b.strings_parsed, 0);
    assert!(b.problems.contains("`10000` is typed here"));
    edit(&cities, "name = \"Portland 10000\"", "name = \"Portland\"");
    let b = same_as_fresh(tmp.path(), &kept);
    assert_eq!(b.strings_parsed, 1);
    assert!(b.problems.is_empty(), "{}", b.problems);
}

#[test]
fn game_toml_is_parsed_again_only_when_its_text_changed() {
    let tmp = project_copy(&[GAME]);
    let data = tmp.path().join("data").join(GAME);
    let game = data.join("game.toml");
    let kept = Kept::default();
    let first = same_as_fresh(tmp.path(), &kept);
    assert!(!first.game_file_kept);
    assert!(
        same_as_fresh(tmp.path(), &kept).game_file_kept,
        "nothing changed"
    );

    // A data file, and game.toml written again with the same text: kept.
    edit(
        &data.join("colors.toml"),
        "fill = \"#c62828\"",
        "fill = \"#c62829\"",
    );
    let coloured = same_as_fresh(tmp.path(), &kept);
    assert!(coloured.game_file_kept);
    let text = std::fs::read_to_string(&game).unwrap();
    std::fs::write(&game, &text).unwrap();
    assert!(same_as_fresh(tmp.path(), &kept).game_file_kept);

    // A `[rules]` number the derives read: parsed again, every fee follows.
    edit(&game, "base = 700", "base = 900");
    let b = same_as_fresh(tmp.path(), &kept);
    assert!(!b.game_file_kept);
    assert!(b.faces != coloured.faces, "the fees changed");
    assert!(same_as_fresh(tmp.path(), &kept).game_file_kept);

    // A syntax error: reported from the text on every build (a file with a
    // problem keeps nothing), until it is mended.
    edit(&game, "base = 900", "base = = 900");
    for _ in 0..2 {
        let b = same_as_fresh(tmp.path(), &kept);
        assert!(b.problems.contains("game.toml"), "{}", b.problems);
        assert!(!b.game_file_kept);
    }
    edit(&game, "base = = 900", "base = 700");
    let b = same_as_fresh(tmp.path(), &kept);
    assert!(!b.game_file_kept);
    assert!(b.faces == coloured.faces, "back to the faces before");
    assert!(same_as_fresh(tmp.path(), &kept).game_file_kept);
}

#[test]
fn a_derived_field_is_computed_again_only_for_the_rows_whose_inputs_changed() {
    let tmp = project_copy(&[GAME]);
    let data = tmp.path().join("data").join(GAME);
    let kept = Kept::default();
    let first = same_as_fresh(tmp.path(), &kept);
    assert!(first.problems.is_empty(), "{}", first.problems);
    // Each route's `line` and `spots`, each contract's `moves` and `fee`.
    let (all, none) = first.derived;
    assert!(all > 2 * 88 && none == 0, "{:?}", first.derived);
    assert_eq!(same_as_fresh(tmp.path(), &kept).derived, (0, all));

    // One contract's city: its `moves` and `fee` alone, and its card follows.
    contract_12_to_denver(&data);
    let moved = same_as_fresh(tmp.path(), &kept);
    assert_eq!(moved.derived, (2, all - 2));
    assert!(moved.faces != first.faces, "contract 12's card changed");

    // A route taken away: `distance()` reads the network, which no formula
    // names, so every row runs again and the fees that crossed it follow.
    let routes = data.join("routes.toml");
    let text = std::fs::read_to_string(&routes).unwrap();
    let la_slc = "[[route]]\nfrom = \"los-angeles\"\nto = \"salt-lake-city\"\n";
    let at = text.find(la_slc).expect("the route is in routes.toml");
    let end = text[at + 1..]
        .find("[[route]]")
        .map_or(text.len(), |e| at + 1 + e);
    std::fs::write(&routes, format!("{}{}", &text[..at], &text[end..])).unwrap();
    let cut = same_as_fresh(tmp.path(), &kept);
    assert!(cut.problems.is_empty(), "{}", cut.problems);
    assert_eq!(cut.derived, (all - 2, 0), "one route's two rows less");
    assert!(cut.faces != moved.faces);

    // A `[rules]` number only `fee` reads: every fee, no `moves`.
    edit(&data.join("game.toml"), "base = 700", "base = 800");
    let dearer = same_as_fresh(tmp.path(), &kept);
    assert_eq!(dearer.derived, (88, all - 2 - 88));
    assert!(dearer.faces != cut.faces, "the fees changed");
}

/// Sends contract 12 of the game in `data` to Denver, in its `contracts.toml`.
fn contract_12_to_denver(data: &std::path::Path) {
    let contracts = data.join("contracts.toml");
    let text = std::fs::read_to_string(&contracts).unwrap();
    let moved = set_field(&text, "contract", 12, "city", "\"denver\"");
    std::fs::write(&contracts, moved).unwrap();
}

#[test]
fn only_the_live_preview_writes_each_rulebook_page_whole_as_svg() {
    // A build that writes files draws each page's body and glyph runs into its
    // PDFs; the live preview (which encodes nothing) draws its page images from
    // the whole SVG, its text as SVG text. The body and runs are the same.
    let tmp = project_copy(&[GAME]);
    let project = Project::disk(tmp.path()).unwrap();
    let typeset = |encode: bool| {
        let opts = cardstock::options::Options {
            encode,
            ..Default::default()
        };
        let (built, _) = build_choosing(
            &project,
            GAME,
            &opts,
            Incremental::default(),
            Sink::Memory,
            |_, _| false.into(),
        );
        built.rulebook.expect("Interstate Trucking has a rulebook")
    };
    let (files, preview) = (typeset(true), typeset(false));
    assert!(files.pages.len() > 2);
    assert_eq!(files.pages.len(), preview.pages.len());
    for (f, p) in files.pages.iter().zip(&preview.pages) {
        assert!(
            f.svg.is_none(),
            "page {}: whole SVG written for the files",
            f.number
        );
        let svg = p.svg.as_deref().expect("the preview's page as SVG");
        assert_eq!(f.body, p.body, "page {}", f.number);
        assert!(f.texts == p.texts, "page {}: the same glyph runs", f.number);
        assert!(!f.texts.is_empty());
        // The whole SVG holds the text the runs draw, as SVG text.
        let words = f.texts.iter().flat_map(|r| r.text.split_whitespace());
        let word = words
            .filter(|w| w.chars().all(char::is_alphanumeric))
            .max_by_key(|w| w.len())
            .unwrap();
        assert!(
            svg.contains("<text") && svg.contains(word),
            "page {}: {word}",
            f.number
        );
        assert!(svg.len() > f.body.len());
    }
}
