//! Every game in `data/` builds, whatever games there are: a game a designer adds
//! is covered by `cargo test` without a test of its own.

use crate::common::*;

#[test]
fn every_game_in_data_builds() {
    let games: Vec<String> = std::fs::read_dir(repo().join("data"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("game.toml").is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(!games.is_empty(), "data/ has no game");
    // The build every home-on-Letter test reads (`build --profile home --paper
    // letter`, home being the default for every game; it must succeed).
    let built = crate::print::home_letter();
    let (out, stdout, stderr) = (&built.dir, &built.stdout, &built.stderr);
    // Preflight raises no false alarm on the real games: nothing drawn there
    // covers a text, an icon or a keep-visible element (a card frame over its
    // background, a tint over a word are fine).
    for alarm in [" drawn after ", "covers a keep-visible element"] {
        assert!(!stderr.contains(alarm), "{stderr}");
    }
    // The games start largest first, and their lines still come in name order.
    let mut sorted = games.clone();
    sorted.sort();
    let said: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.split(": ").next())
        .filter(|g| games.iter().any(|n| n == g))
        .collect();
    assert_eq!(said, sorted, "{stdout}");
    for g in &games {
        // Each game's profile folder holds its manifest and what it printed.
        let game_dir = out.path().join(g);
        let profile = std::fs::read_dir(&game_dir)
            .unwrap_or_else(|_| panic!("{g} wrote nothing"))
            .map(|e| e.unwrap().path())
            .find(|p| p.join("manifest.json").is_file())
            .unwrap_or_else(|| panic!("{g} has no manifest.json"));
        let made = std::fs::read_dir(&profile).unwrap().count();
        assert!(
            made > 1,
            "{g} wrote nothing but its manifest in {}",
            profile.display()
        );
    }
}
