//! Bad input on the real game: each mistake gives its exact error and writes nothing.

use crate::common::*;

fn build_error(name: &str, file: &str, from: &str, to: &str) {
    let tmp = project_copy(&["interstate-trucking"]);
    edit(&tmp.path().join(file), from, to);
    let o = run(tmp.path(), &["build"]);
    let (stdout, stderr) = texts(&o);
    assert_eq!(o.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        !tmp.path().join("output/interstate-trucking").exists(),
        "a build with errors writes nothing"
    );
    snapshot(name, &stderr);
}

#[test]
fn wrong_count() {
    // Drop the last contract: 87 printed where the rules have 88.
    let tmp = project_copy(&["interstate-trucking"]);
    let path = tmp.path().join("data/interstate-trucking/contracts.toml");
    let s = std::fs::read_to_string(&path).unwrap();
    let cut = s.rfind("[[contract]]").unwrap();
    std::fs::write(&path, &s[..cut]).unwrap();
    let o = run(tmp.path(), &["build"]);
    let (_, stderr) = texts(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr.contains(
            "error: component set `contracts`: the rules have 88, but the data would print 87"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("data: data/interstate-trucking/contracts.toml"),
        "{stderr}"
    );
    snapshot("it-wrong-count", &stderr);
}

#[test]
fn dangling_reference() {
    build_error(
        "it-dangling-reference",
        "data/interstate-trucking/contracts.toml",
        "good = \"coffee\"",
        "good = \"cofee\"",
    );
}

#[test]
fn template_uses_missing_field() {
    build_error(
        "it-template-missing-field",
        "templates/interstate-trucking/contract.svg",
        "{{ good.name }}</text>",
        "{{ good.title }}</text>",
    );
}

#[test]
fn template_font_missing() {
    build_error(
        "it-missing-font",
        "templates/interstate-trucking/rest-marker.svg",
        "font-family=\"Bebas Neue\"",
        "font-family=\"Helvetica Neue\"",
    );
}

#[test]
fn rules_example_broken() {
    // Make the fee formula pay more per move: the rulebook's $1,700 example fails.
    build_error(
        "it-rules-example",
        "data/interstate-trucking/game.toml",
        "\nper_move = 100",
        "\nper_move = 110",
    );
}

#[test]
fn contract_to_a_supplier() {
    // Atlanta supplies cars: a contract asking Atlanta for cars breaks the rules.
    let tmp = project_copy(&["interstate-trucking"]);
    let path = tmp.path().join("data/interstate-trucking/contracts.toml");
    let s = std::fs::read_to_string(&path).unwrap();
    let cut = s.rfind("[[contract]]").unwrap();
    std::fs::write(
        &path,
        format!(
            "{}[[contract]]\ngood = \"cars\"\ncity = \"atlanta\"\n",
            &s[..cut]
        ),
    )
    .unwrap();
    let o = run(tmp.path(), &["check"]);
    let (_, stderr) = texts(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr.contains("a contract asks atlanta for cars, which atlanta supplies itself"),
        "{stderr}"
    );
}
