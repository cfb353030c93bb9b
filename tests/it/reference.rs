//! `docs/reference.md` documents every key of `game.toml`, every kind, size,
//! template variable, function and filter: the lists come from the engine (the
//! serde schema, `Kind::NAMES`, `size::NAMED`, the minijinja environment), so a new
//! one fails here until it is documented.

use std::sync::{Arc, OnceLock};

use crate::common::repo;

fn reference() -> String {
    std::fs::read_to_string(repo().join("docs/reference.md")).expect("docs/reference.md exists")
}

/// The text under `heading` (a whole heading line) up to the next heading of the
/// same or a higher level.
fn section(doc: &str, heading: &str) -> String {
    let level = heading.chars().take_while(|c| *c == '#').count();
    let start = doc
        .lines()
        .position(|l| l == heading)
        .unwrap_or_else(|| panic!("docs/reference.md has no heading {heading:?}"));
    doc.lines()
        .skip(start + 1)
        .take_while(|l| {
            let n = l.chars().take_while(|c| *c == '#').count();
            !(n > 0 && n <= level && l[n..].starts_with(' '))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names of `section` missing a table row `| `name` |` (or `| `name(`).
fn missing<'a>(section: &str, names: impl IntoIterator<Item = &'a str>, call: bool) -> Vec<String> {
    names
        .into_iter()
        .filter(|n| {
            let row = if call {
                format!("| `{n}(")
            } else {
                format!("| `{n}` |")
            };
            !section.contains(&row)
        })
        .map(String::from)
        .collect()
}

#[test]
fn every_key_of_game_toml() {
    let doc = reference();
    let mut gaps = Vec::new();
    for (table, keys) in cardstock::model::keys() {
        let heading = match table {
            "" => "### Top-level sections".to_string(),
            "game" | "network" | "rulebook" => format!("### `[{table}]`"),
            "layout" => "### Sheet layout".to_string(),
            t => format!("### `[[{t}]]`"),
        };
        for k in missing(&section(&doc, &heading), keys.iter().copied(), false) {
            gaps.push(format!("{heading}: {k}"));
        }
    }
    assert!(
        gaps.is_empty(),
        "keys missing from docs/reference.md: {gaps:?}"
    );
}

#[test]
fn every_kind_and_size() {
    let doc = reference();
    let kinds = section(&doc, "## Kinds");
    let gaps = missing(&kinds, cardstock::model::Kind::NAMES.iter().copied(), false);
    assert!(
        gaps.is_empty(),
        "kinds missing from docs/reference.md: {gaps:?}"
    );
    let sizes = section(&doc, "## Sizes");
    let fmt = cardstock::units::fmt_num;
    let gaps: Vec<String> = cardstock::model::size::NAMED
        .iter()
        .map(|(n, w, h)| format!("| `{n}` | {} x {} |", fmt(*w), fmt(*h)))
        .filter(|row| !sizes.contains(row.as_str()))
        .collect();
    assert!(
        gaps.is_empty(),
        "sizes missing (or with other millimetres): {gaps:?}"
    );
    assert!(sizes.contains("| `half-paper` |"));
}

#[test]
fn every_function_filter_and_variable() {
    let doc = reference();
    let builtin: Vec<String> = minijinja::Environment::new()
        .globals()
        .map(|(n, _)| n.to_string())
        .collect();
    let project = cardstock::project::Project::new(cardstock::source::MemoryFiles::default());
    let fonts = cardstock::fonts::FontBook::builtin();
    let text = Arc::new(cardstock::template::Typesetting::new(
        &project, "game", fonts,
    ));
    let env = cardstock::template::environment(Arc::new(OnceLock::new()), text);
    let (constants, ours): (Vec<_>, Vec<_>) = env
        .globals()
        .filter(|(n, _)| !builtin.iter().any(|b| b == n) && !n.starts_with("__"))
        .partition(|(_, v)| v.kind() == minijinja::value::ValueKind::Number);
    let ours: Vec<String> = ours.into_iter().map(|(n, _)| n.to_string()).collect();
    let constants: Vec<String> = constants.into_iter().map(|(n, _)| n.to_string()).collect();
    assert!(ours.len() >= 10, "{ours:?}");
    assert_eq!(constants, ["pi"]);
    let functions = section(&doc, "### Functions");
    let mut gaps = missing(&functions, ours.iter().map(String::as_str), true);
    gaps.extend(missing(
        &functions,
        constants.iter().map(String::as_str),
        false,
    ));
    assert!(
        gaps.is_empty(),
        "functions missing from docs/reference.md: {gaps:?}"
    );

    // Each filter exists in the environment and is documented.
    for f in cardstock::template::FILTERS {
        let out = env
            .render_str(&format!("{{% if '{f}' is filter %}}yes{{% endif %}}"), ())
            .unwrap();
        assert_eq!(out, "yes", "`{f}` is not a filter of the environment");
    }
    let filters = section(&doc, "### Filters");
    let gaps = missing(
        &filters,
        cardstock::template::FILTERS.iter().copied(),
        false,
    );
    assert!(
        gaps.is_empty(),
        "filters missing from docs/reference.md: {gaps:?}"
    );

    let variables = section(&doc, "### Template variables");
    let names = [
        "index",
        "copy",
        "qty",
        "face",
        "row",
        "item",
        "rules",
        "tables",
        "components",
        "settings",
        "game",
        "counts",
    ];
    let gaps = missing(&variables, names, false);
    assert!(gaps.is_empty(), "template variables missing: {gaps:?}");
}

#[test]
fn readme_links_the_reference() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    assert!(
        readme.contains("(docs/reference.md)"),
        "the README links docs/reference.md"
    );
    assert!(readme.contains("cargo install --path ."));
    assert!(readme.contains("output/<game>/<profile>/"));
}
