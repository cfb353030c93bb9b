//! Rulebook text that does not fit its place is never lost: a word wider than
//! its column is hyphenated where its language allows, else broken across lines
//! between its letters, with a warning at its line and column of `rules.md`; a
//! table row or a figure's caption taller than a page stops the build with an
//! error there. On Truck Off's real rulebook, built by the real binary and read
//! back from the PDF.

use std::path::Path;

use crate::common::*;
use crate::print::read_pdf;

const GAME: &str = "truck-off";
/// Truck Off's rulebook column on the home profile's page (half Letter), in mm.
const COLUMN: f64 = 116.4;

fn rules(dir: &Path) -> std::path::PathBuf {
    dir.join("data").join(GAME).join("rules.md")
}

fn rules_pdf(dir: &Path) -> std::path::PathBuf {
    dir.join("output")
        .join(GAME)
        .join("home")
        .join(format!("{GAME}-rules.pdf"))
}

/// `x` 400 times at the start of the rulebook's first paragraph (line 5,
/// column 7).
fn put_long_word(dir: &Path) -> String {
    let word = "x".repeat(400);
    edit(
        &rules(dir),
        "*A roll-and-write game",
        &format!("Start {word} here. *A roll-and-write game"),
    );
    word
}

/// Every word of `page` inside the text column: none past its edge, where the
/// page (or the page's picture) would cut it off.
fn assert_inside_column(page: &crate::print::Page) {
    let margin = (page.w - COLUMN) / 2.0;
    for w in &page.words {
        assert!(
            w.bbox.x0 >= margin - 0.05 && w.bbox.x1 <= page.w - margin + 0.05,
            "{:?} at {:?} is outside the column from {margin} to {} mm",
            w.text,
            w.bbox,
            page.w - margin
        );
    }
}

const WARNING: &str = "the word `xxxxxxxxxxxxxxxx…` (400 letters) is wider than the column (116.4 mm); it is broken across 6 lines\n  ┌─ data/truck-off/rules.md:5:7";

#[test]
fn a_word_wider_than_the_column_is_broken_across_lines_whole_and_reported() {
    let tmp = project_copy(&[GAME]);
    let dir = tmp.path();
    let word = put_long_word(dir);
    let o = run(dir, &["build", GAME]);
    let (_, err) = texts(&o);
    assert!(o.status.success(), "{err}");
    let pdf = read_pdf(&rules_pdf(dir));
    let page = &pdf.pages[0];
    // The word whole, in order, over lines of its own but the first (shared with
    // "Start") and the last (shared with "here."), joined across them.
    let pieces: Vec<&str> = page
        .words
        .iter()
        .map(|w| w.text.as_str())
        .skip_while(|w| *w != "Start")
        .skip(1)
        .take_while(|w| *w != "here.")
        .collect();
    assert_eq!(pieces.len(), 6, "{pieces:?}");
    assert_eq!(pieces.concat(), word);
    assert_inside_column(page);
    assert!(err.contains(&format!("warning: {WARNING}")), "{err}");
    assert!(
        err.contains("hint: shorten it, put a space where it may break, or set a smaller `size` under `[rulebook]` in game.toml"),
        "{err}"
    );
}

#[test]
fn deny_warnings_fails_on_a_broken_word_and_leaves_the_old_outputs() {
    let tmp = project_copy(&[GAME]);
    let dir = tmp.path();
    let o = run(dir, &["build", GAME, "--deny-warnings"]);
    assert!(o.status.success(), "{:?}", texts(&o));
    let out = dir.join("output").join(GAME).join("home");
    let before: Vec<(String, Vec<u8>)> = files(&out);
    assert!(before.len() >= 4, "{before:?}");
    put_long_word(dir);
    let o = run(dir, &["build", GAME, "--deny-warnings"]);
    let (_, err) = texts(&o);
    assert!(!o.status.success(), "{err}");
    assert!(err.contains(&format!("error: {WARNING}")), "{err}");
    assert_eq!(
        files(&out),
        before,
        "the outputs of the last good build stay"
    );
}

/// The files of a folder, by name, with their bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_table_row_or_a_caption_taller_than_a_page_is_an_error_where_it_is() {
    let tmp = project_copy(&[GAME]);
    let dir = tmp.path();
    let many = |tag: &str, n: usize| {
        (0..n)
            .map(|k| format!("{tag}{k}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    // A table (line 45) whose one row holds 1,500 words; a caption (line 23)
    // of 600.
    edit(
        &rules(dir),
        "| Bonus | What it does |",
        &format!(
            "| Bonus | What it does |\n|:--|:--|\n| Long | {} |\n\n| Bonus | What it does |",
            many("word", 1500)
        ),
    );
    edit(
        &rules(dir),
        "caption=\"A sheet",
        &format!("caption=\"{} A sheet", many("cap", 600)),
    );
    let o = run(dir, &["build", GAME]);
    let (_, err) = texts(&o);
    assert!(!o.status.success(), "{err}");
    for said in [
        "error: a row of this table under its header is 867.4 mm high and a page holds 188.6 mm of text: it does not fit on a page\n   ┌─ data/truck-off/rules.md:45:1",
        "error: the caption of this figure is ",
        "high and a page holds 188.6 mm of text: it does not fit on a page\n   ┌─ data/truck-off/rules.md:23:4",
        "hint: shorten its cells, or give the table fewer columns",
        "hint: shorten the caption",
    ] {
        assert!(err.contains(said), "{said}\n---\n{err}");
    }
    assert!(!rules_pdf(dir).exists(), "nothing written");
}

/// The live preview's page lists the warning as the terminal does, also when
/// the next build takes the rulebook's pages from the one before.
#[test]
fn the_preview_shows_the_broken_word_warning_where_it_is() {
    let tmp = project_copy(&[GAME]);
    let dir = tmp.path();
    put_long_word(dir);
    let project = cardstock::project::Project::disk(dir).unwrap();
    let opts = crate::common::screen_options(cardstock::options::Asked {
        dpi: 20.0,
        ..Default::default()
    });
    let cache = cardstock::preview::Cache::default();
    for kept in [false, true] {
        let p = cardstock::preview::build(&project, GAME, &opts, &cache);
        assert!(p.ok, "{:?}", p.diagnostics);
        assert_eq!(cache.rulebook_kept(), kept);
        let shown: Vec<_> = p
            .diagnostics
            .iter()
            .filter(|d| d.message.starts_with("the word `"))
            .map(|d| {
                (
                    d.severity,
                    d.message.as_str(),
                    d.file.as_deref(),
                    d.line,
                    d.column,
                )
            })
            .collect();
        assert_eq!(
            shown,
            [(
                "warning",
                WARNING.split('\n').next().unwrap(),
                Some("data/truck-off/rules.md"),
                Some(5),
                Some(7)
            )]
        );
    }
}

/// A word too wide for its table cell is hyphenated where English allows (with a
/// hyphen, as in justified text), and is not reported: only a word with no
/// hyphenation point that fits is broken between letters and reported.
#[test]
fn a_word_too_wide_for_a_table_cell_is_hyphenated_before_it_is_broken() {
    let tmp = project_copy(&[GAME]);
    let dir = tmp.path();
    edit(
        &rules(dir),
        "*A roll-and-write game",
        "| Extraordinarily | Incomprehensibilities | Counterrevolutionaries | Internationalisation | Uncharacteristically |\n|--|--|--|--|--|\n| a | b | c | d | e |\n\n*A roll-and-write game",
    );
    let o = run(dir, &["build", GAME]);
    let (_, err) = texts(&o);
    assert!(o.status.success(), "{err}");
    assert!(!err.contains("the word `"), "{err}");
    let pdf = read_pdf(&rules_pdf(dir));
    let page = &pdf.pages[0];
    let words: Vec<&str> = page.words.iter().map(|w| w.text.as_str()).collect();
    for (first, rest) in [
        ("Incomprehen-", "sibilities"),
        ("Counterrevo-", "lutionaries"),
        ("Internationali-", "sation"),
        ("Uncharacteris-", "tically"),
    ] {
        assert!(
            words.contains(&first) && words.contains(&rest),
            "{first} / {rest} not in {words:?}"
        );
    }
    assert_inside_column(page);
}
