//! `docs/reference.md` documents every key of `game.toml`, every kind, size,
//! template variable, function and filter: the lists come from the engine (the
//! serde schema, `Kind::NAMES`, `size::NAMED`, the minijinja environment), so a new
//! one fails here until it is documented.

use std::sync::Arc;

use crate::common::*;

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
    let env = cardstock::template::environment(text);
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

#[test]
fn every_key_of_a_profile_and_every_placeholder() {
    let doc = reference();
    let keys = section(&doc, "### Profile keys");
    let mut gaps = Vec::new();
    for (table, names) in cardstock::profile::keys() {
        for k in missing(&keys, names.iter().copied(), false) {
            gaps.push(format!("[{table}] {k}"));
        }
    }
    assert!(
        gaps.is_empty(),
        "profile keys missing from docs/reference.md: {gaps:?}"
    );
    let names = section(&doc, "### File names from the data");
    for (p, _) in cardstock::profile::pattern::BUILT_IN {
        assert!(
            names.contains(&format!("| `{{{p}}}` |")),
            "placeholder {{{p}}} is not documented"
        );
    }
}

/// Every `{% macro name(params) %}` of a template: its name and parameter names.
fn macros(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("macro ") {
        let before = text[..at].trim_end();
        if !before.ends_with("{%") && !before.ends_with("{%-") {
            continue;
        }
        let Some((name, rest)) = text[at + "macro ".len()..].split_once('(') else {
            continue;
        };
        let params = rest.split(')').next().unwrap_or("");
        let names = params
            .split(',')
            .map(|p| p.split('=').next().unwrap().trim().to_string())
            .filter(|p| !p.is_empty())
            .collect();
        out.push((name.trim().to_string(), names));
    }
    out
}

/// The macro tables of "### Shared macros": `(file section, row)` for each row.
fn macro_rows(doc: &str) -> Vec<String> {
    section(doc, "### Shared macros")
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(String::from)
        .collect()
}

#[test]
fn every_macro_of_templates_common_with_its_parameters_and_an_example() {
    let doc = reference();
    let dir = repo().join("templates/common");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "svg"))
        .collect();
    files.sort();
    let mut gaps = Vec::new();
    let mut seen = 0;
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(file).unwrap();
        let found = macros(&text);
        if found.is_empty() {
            continue;
        }
        let heading = format!("#### common/{name}");
        let rows: Vec<String> = section(&doc, &heading)
            .lines()
            .filter(|l| l.starts_with("| `"))
            .map(String::from)
            .collect();
        for (m, params) in found {
            seen += 1;
            let Some(row) = rows.iter().find(|r| r.starts_with(&format!("| `{m}("))) else {
                gaps.push(format!("{name}: {m} is not documented under {heading}"));
                continue;
            };
            let signature = row.split("` |").next().unwrap();
            for p in params {
                if !signature.contains(&p) {
                    gaps.push(format!("{name}: {m}'s parameter `{p}` is not documented"));
                }
            }
            let example = row.rsplit_once("| `").map(|(_, e)| e).unwrap_or("");
            if !(example.contains("{{") || example.contains("{%")) {
                gaps.push(format!("{name}: {m} has no example"));
            }
        }
    }
    assert!(seen >= 25, "found only {seen} macros in templates/common");
    assert!(
        gaps.is_empty(),
        "macros of templates/common missing from docs/reference.md: {gaps:#?}"
    );
}

#[test]
fn the_macro_examples_build() {
    // Every example of the macro tables, in one card template of the fixture game
    // (imported under the names the reference uses), builds and draws.
    let doc = reference();
    let examples: Vec<String> = macro_rows(&doc)
        .iter()
        .map(|r| {
            let (_, e) = r.rsplit_once("| `").unwrap();
            e.trim_end()
                .trim_end_matches('|')
                .trim_end()
                .trim_end_matches('`')
                .to_string()
        })
        .collect();
    assert!(examples.len() >= 25, "{examples:?}");
    let tmp = base_copy();
    let imports = [
        ("text", "text"),
        ("shapes", "shapes"),
        ("arrows", "arrows"),
        ("checkbox", "check"),
        ("grid", "grid"),
        ("snake", "snake"),
        ("track", "tracks"),
        ("icons", "icons"),
    ];
    let mut template = String::from("{% extends \"common/face.svg\" %}\n");
    for (file, alias) in imports {
        template.push_str(&format!(
            "{{% import \"common/{file}.svg\" as {alias} %}}\n"
        ));
    }
    template.push_str("{% block body %}\n");
    for e in &examples {
        template.push_str(e);
        template.push('\n');
    }
    template.push_str("{% endblock %}\n");
    std::fs::write(tmp.path().join("templates/mini/card.svg"), &template).unwrap();
    edit(
        &tmp.path().join("data/mini/game.toml"),
        "cost = 3\n",
        "cost = 3\nscore_track = { cells = [0, 5, 10, 15, 20], size = 6 }\n",
    );
    let cards = tmp.path().join("data/mini/cards.toml");
    let rows = std::fs::read_to_string(&cards).unwrap();
    std::fs::write(
        &cards,
        rows.replace(
            "value = ",
            "text = \"Gain a :star: and **draw** a card.\"\nvalue = ",
        ),
    )
    .unwrap();
    let o = run(tmp.path(), &["build", "--format", "pdf,svg"]);
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}\n{template}");
    let svg = std::fs::read_to_string(tmp.path().join("output/mini/home/svg/cards/001-front.svg"))
        .unwrap();
    for drawn in ["<tspan", "<circle", "<path", "<rect", "viewBox"] {
        assert!(svg.contains(drawn), "{drawn} in the card:\n{svg}");
    }
}
