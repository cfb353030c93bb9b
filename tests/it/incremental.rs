//! The speed features work: finished art is imposed like any other set, `--timings`
//! reports every stage, and `watch` rebuilds on a save, re-parsing only the edited
//! face and keeping the last good output when the edit has an error. (Timing itself
//! is measured by `cardstock bench`, never asserted in a test.)

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

#[test]
fn bench_deck_of_finished_art_is_imposed_with_backs() {
    let tmp = tempfile::tempdir().unwrap();
    let deck = tmp.path().join("deck");
    let o = run(
        &repo(),
        &[
            "bench",
            "--deck-only",
            "--runs",
            "1",
            "--keep-deck",
            deck.to_str().unwrap(),
        ],
    );
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("88-card deck, PDF"), "{stdout}");
    assert!(
        stdout.contains("22 pages"),
        "11 sheets of fronts (8 up), 11 of backs: {stdout}"
    );
    assert!(stdout.contains("peak memory"), "{stdout}");
    // The kept project builds on its own: 88 SVG files as faces, one back file.
    let o = run(&deck, &["build", "--timings"]);
    let (stdout, _) = texts(&o);
    assert!(o.status.success());
    assert!(
        stdout.contains("deck: 1 component set, 88 parts, 22 pages"),
        "{stdout}"
    );
    for stage in [
        "load",
        "check",
        "render",
        "parse",
        "preflight",
        "layout + pdf",
        "write",
    ] {
        assert!(
            stdout.contains(stage),
            "--timings reports {stage}: {stdout}"
        );
    }
    let pdf = deck.join("output/deck/home/deck.pdf");
    assert!(
        pdftotext(&pdf, 1).contains("Card 1 of 88"),
        "art text stays text"
    );
    assert!(pdftotext(&pdf, 2).contains("MINI"), "the art back");
}

#[test]
fn art_must_exist_inside_the_game() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("data/deck")).unwrap();
    std::fs::write(
        tmp.path().join("data/deck/game.toml"),
        "[game]\nname = \"Deck\"\n[[component]]\nid = \"cards\"\nkind = \"card\"\nsize = \"poker\"\nart = \"../art/*.svg\"\n",
    )
    .unwrap();
    let o = run(tmp.path(), &["check"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        texts(&o)
            .1
            .contains("art path `../art/*.svg` must be relative to the game folder, without `..`"),
        "{:?}",
        texts(&o)
    );
}

#[test]
fn watch_rebuilds_the_edited_face_and_keeps_good_output() {
    let tmp = base_copy();
    let mut child = Command::new(env!("CARGO_BIN_EXE_cardstock"))
        .args(["watch", "--max-builds", "3"])
        .current_dir(tmp.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut next = |want: &str| -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            let line = lines.next().expect("watch is running").unwrap();
            if line.contains(want) {
                return line;
            }
        }
        panic!("no line with {want}");
    };
    let first = next("rebuilt in");
    assert!(first.contains("from the cache"), "{first}");
    let kept = |line: &str| -> usize {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words
            .iter()
            .position(|w| *w == "kept")
            .expect("a kept count");
        words[at - 1].parse().unwrap()
    };
    let faces = kept(&first);
    let pdf = tmp.path().join("output/mini/home/mini.pdf");
    let good = std::fs::read(&pdf).unwrap();

    // Edit one card: only its face is parsed again.
    std::thread::sleep(Duration::from_millis(1100));
    edit(
        &tmp.path().join("data/mini/cards.toml"),
        "name = \"Ace\"",
        "name = \"Ace of Suns\"",
    );
    let second = next("rebuilt in");
    assert!(second.contains("(1 face parsed"), "{second}");
    // The edited card's old tree is dropped: memory holds the current faces only.
    assert_eq!(kept(&second), faces, "{second}");
    assert!(pdftotext(&pdf, 1).contains("Ace of Suns"));

    // A broken edit: errors are printed, the last good PDF stays.
    let now = std::fs::read(&pdf).unwrap();
    assert_ne!(now, good);
    std::thread::sleep(Duration::from_millis(1100));
    edit(
        &tmp.path().join("templates/mini/card.svg"),
        "{{ row.name }}",
        "{{ row.name }",
    );
    next("rebuilt in");
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1), "the last build had errors");
    assert_eq!(
        std::fs::read(&pdf).unwrap(),
        now,
        "the last good output is kept"
    );
}

#[test]
fn editing_one_card_rewrites_only_its_files() {
    let tmp = base_copy();
    let o = run(tmp.path(), &["build", "--format", "pdf,png"]);
    assert!(o.status.success(), "{:?}", texts(&o));
    let png = tmp.path().join("output/mini/home/png/cards");
    let stamp = |name: &str| {
        std::fs::metadata(png.join(name))
            .unwrap()
            .modified()
            .unwrap()
    };
    let (ace, two) = (stamp("001-front.png"), stamp("002-front.png"));
    let cached = std::fs::read_dir(tmp.path().join("output/mini/.cache"))
        .unwrap()
        .count();
    assert!(cached >= 4, "rasterised faces are cached: {cached}");
    std::thread::sleep(Duration::from_millis(1100));
    edit(
        &tmp.path().join("data/mini/cards.toml"),
        "name = \"Ace\"",
        "name = \"Ace of Suns\"",
    );
    let o = run(tmp.path(), &["build", "--format", "pdf,png"]);
    assert!(o.status.success());
    assert_ne!(stamp("001-front.png"), ace, "the edited card is rewritten");
    assert_eq!(stamp("002-front.png"), two, "the others are left alone");
    assert_eq!(
        std::fs::read_dir(tmp.path().join("output/mini/.cache"))
            .unwrap()
            .count(),
        cached + 1
    );
}

/// Builds Interstate Trucking at `root` up to its faces (nothing delivered) with
/// the stores of the live preview in `kept` and from scratch, checks that the two
/// give the same problems and faces, and gives them.
fn same_as_fresh(
    root: &std::path::Path,
    kept: cardstock::pipeline::Incremental,
) -> (String, Vec<String>) {
    use cardstock::pipeline::{build_choosing, Incremental};
    let project = cardstock::project::Project::disk(root).unwrap();
    let opts = cardstock::options::Options::default();
    let one = |incremental| {
        let (built, finished) = build_choosing(
            &project,
            "interstate-trucking",
            &opts,
            incremental,
            cardstock::output::Sink::Memory,
            |_, _| false.into(),
        );
        let faces = finished.map_or_else(Vec::new, |f| {
            let store = &f.rendered.store;
            (0..store.len())
                .map(|i| store.svg(i).into_owned())
                .collect::<Vec<_>>()
        });
        (built.diags.render(&project), faces)
    };
    let (problems, faces) = one(kept);
    let fresh = one(Incremental::default());
    assert_eq!(
        problems, fresh.0,
        "the same problems as a build from scratch"
    );
    assert!(faces == fresh.1, "a face differs from a build from scratch");
    (problems, faces)
}

/// [`same_as_fresh`] with the live preview's parsed files (`kept`), and how many
/// data files the kept build took from the build before.
fn data_files_build(
    root: &std::path::Path,
    kept: &cardstock::pipeline::GameFileCache,
) -> (String, Vec<String>, usize) {
    let incremental = cardstock::pipeline::Incremental {
        game_file: Some(kept),
        ..Default::default()
    };
    let (problems, faces) = same_as_fresh(root, incremental);
    (problems, faces, kept.data_files_kept())
}

#[test]
fn a_data_file_is_parsed_again_only_when_its_text_changed() {
    let tmp = project_copy(&["interstate-trucking"]);
    let data = tmp.path().join("data/interstate-trucking");
    let files = std::fs::read_dir(&data)
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_str().unwrap().ends_with(".toml") && name != "game.toml"
        })
        .count();
    let kept = cardstock::pipeline::GameFileCache::default();
    let (problems, first, none) = data_files_build(tmp.path(), &kept);
    assert!(problems.is_empty(), "{problems}");
    assert_eq!(none, 0, "nothing kept yet");
    assert_eq!(
        data_files_build(tmp.path(), &kept).2,
        files,
        "nothing changed"
    );

    // Contract 12's city: its file alone is parsed again, and its card follows.
    let contracts = data.join("contracts.toml");
    let text = std::fs::read_to_string(&contracts).unwrap();
    let moved = set_field(&text, "contract", 12, "city", "\"denver\"");
    std::fs::write(&contracts, &moved).unwrap();
    let (problems, edited, kept_files) = data_files_build(tmp.path(), &kept);
    assert!(problems.is_empty(), "{problems}");
    assert_eq!(kept_files, files - 1);
    assert!(edited != first, "contract 12's card changed");

    // A syntax error: reported from the text on every build (a file with a
    // problem keeps nothing), until it is mended; then the faces are as before.
    std::fs::write(&contracts, moved.replacen("city = ", "city = = ", 1)).unwrap();
    for _ in 0..2 {
        let (problems, _, kept_files) = data_files_build(tmp.path(), &kept);
        assert!(problems.contains("contracts.toml"), "{problems}");
        assert_eq!(kept_files, files - 1);
    }
    std::fs::write(&contracts, &text).unwrap();
    let (problems, back, kept_files) = data_files_build(tmp.path(), &kept);
    assert!(problems.is_empty(), "{problems}");
    assert_eq!(kept_files, files - 1);
    assert!(back == first, "back to the first faces");
}

/// [`same_as_fresh`] with the live preview's kept assertions (`kept`), and the
/// row checks of assertions over tables run and kept (`check::kept::Rows`).
fn kept_rows_build(
    root: &std::path::Path,
    kept: &cardstock::pipeline::AssertCache,
) -> (String, Vec<String>, (usize, usize)) {
    use std::sync::atomic::Ordering::Relaxed;
    let incremental = cardstock::pipeline::Incremental {
        asserts: Some(kept),
        ..Default::default()
    };
    let (problems, faces) = same_as_fresh(root, incremental);
    let rows = (
        kept.parts_made.load(Relaxed),
        kept.parts_reused.load(Relaxed),
    );
    (problems, faces, rows)
}

#[test]
fn an_assertion_over_a_table_checks_again_only_the_rows_whose_inputs_changed() {
    let tmp = project_copy(&["interstate-trucking"]);
    let data = tmp.path().join("data/interstate-trucking");
    let kept = cardstock::pipeline::AssertCache::default();
    let (problems, _, (all, none)) = kept_rows_build(tmp.path(), &kept);
    assert!(problems.is_empty(), "{problems}");
    // Each city, each good twice, each contract twice, each route.
    assert!(all > 2 * 88 && none == 0, "{all} {none}");
    let (_, first, rows) = kept_rows_build(tmp.path(), &kept);
    assert_eq!(rows, (0, all), "nothing changed");

    // Contract 12's city: the two checks over the contracts run for it alone.
    let contracts = data.join("contracts.toml");
    let text = std::fs::read_to_string(&contracts).unwrap();
    let moved = set_field(&text, "contract", 12, "city", "\"denver\"");
    std::fs::write(&contracts, &moved).unwrap();
    let (problems, moved_faces, rows) = kept_rows_build(tmp.path(), &kept);
    assert!(problems.is_empty(), "{problems}");
    assert_eq!(rows, (2, all - 2));
    assert!(moved_faces != first, "contract 12's card changed");

    // Denver made to supply citrus, which contract 12 now asks it for: its row
    // did not change, but the city its check looked up did, so it runs again and
    // fails (with every row that looked up a city); on the next build the failing
    // row alone runs again (a check that failed is not kept).
    let cities = data.join("cities.toml");
    let city_text = std::fs::read_to_string(&cities).unwrap();
    let citrus = city_text.replacen(
        "goods = [\"beef\", \"beer\"]",
        "goods = [\"beef\", \"citrus\"]",
        1,
    );
    std::fs::write(&cities, citrus).unwrap();
    for again in [false, true] {
        let (problems, _, (ran, _)) = kept_rows_build(tmp.path(), &kept);
        assert!(problems.contains("asks denver for citrus"), "{problems}");
        assert!(if again { ran == 1 } else { ran > 88 }, "{ran}");
    }

    // Both mended: the faces of the first build, and nothing new fails.
    std::fs::write(&cities, &city_text).unwrap();
    std::fs::write(&contracts, &text).unwrap();
    let (problems, back, _) = kept_rows_build(tmp.path(), &kept);
    assert!(problems.is_empty(), "{problems}");
    assert!(back == first, "back to the first faces");
}
