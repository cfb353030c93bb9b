//! Drawing tools on the fixture game, read back from real output: maths in
//! templates and expressions (symbols placed on a circle with `cos` and `sin`).

use std::path::Path;

use crate::common::*;

/// Builds the project in `dir` with `args`, which must succeed.
fn build(dir: &Path, args: &[&str]) -> (String, String) {
    let o = run(dir, args);
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    (stdout, stderr)
}

/// The centres of the circles of an SVG face whose class is `class`.
fn circles(svg: &str, class: &str) -> Vec<(f64, f64)> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("circle") && n.attribute("class") == Some(class))
        .map(|n| {
            let f = |a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
            (f("cx"), f("cy"))
        })
        .collect()
}

#[test]
fn cos_and_sin_place_symbols_on_a_circle() {
    let tmp = base_copy();
    std::fs::write(
        tmp.path().join("templates/mini/token.svg"),
        r##"{% extends "common/face.svg" %}
{% block body %}
<circle cx="9.525" cy="9.525" r="11" fill="{{ row.color }}"/>
{% for k in range(row.points) %}{% set a = 2 * pi * k / row.points %}
<circle class="dot" cx="{{ (9.525 + 6 * cos(a))|num }}" cy="{{ (9.525 + 6 * sin(a))|num }}" r="{{ min(1.2, 6 / row.points) }}"/>
{% endfor %}
<text x="9.525" y="10.5" font-size="2.5" text-anchor="middle">{{ row.diagonal }}</text>
{% endblock %}
"##,
    )
    .unwrap();
    // Expressions have the functions too: a derive with sqrt and round, a qty with max.
    let game = tmp.path().join("data/mini/game.toml");
    edit(&game, "qty = 2\n", "qty = \"max(1, 2)\"\n");
    let mut text = std::fs::read_to_string(&game).unwrap();
    text.push_str(
        "\n[[derive]]\ntable = \"suit\"\nfield = \"points\"\nvalue = \"5 + round(atan2(1, 0) / pi * 2)\"\n\n[[derive]]\ntable = \"suit\"\nfield = \"diagonal\"\nvalue = \"round(sqrt(2) * 19.05, 2)\"\n",
    );
    std::fs::write(&game, text).unwrap();
    let (stdout, _) = build(tmp.path(), &["build", "--format", "svg"]);
    // Four cards and two tokens for each of the two suits (`qty = max(1, 2)`).
    assert!(stdout.contains("8 parts"), "{stdout}");
    let svg = std::fs::read_to_string(tmp.path().join("output/mini/home/svg/tokens/001-front.svg"))
        .unwrap();
    let dots = circles(&svg, "dot");
    // atan2(1, 0) is a quarter turn: 5 + 1 = 6 points, 60 degrees apart.
    assert_eq!(dots.len(), 6, "{svg}");
    let (cx, cy) = (9.525, 9.525);
    for (k, (x, y)) in dots.iter().enumerate() {
        let r = ((x - cx).powi(2) + (y - cy).powi(2)).sqrt();
        assert!((r - 6.0).abs() < 0.002, "dot {k} at ({x}, {y}): r = {r}");
        let angle = (y - cy).atan2(x - cx).to_degrees().rem_euclid(360.0);
        assert!(
            (angle - 60.0 * k as f64).abs() < 0.05,
            "dot {k} at {angle} degrees"
        );
    }
    // min(1.2, 6 / 6) = 1: the dots' radius.
    assert_eq!(svg.matches("r=\"1.0\"").count(), 6, "{svg}");
    // sqrt(2) * 19.05 = 26.940... rounded to two decimals.
    assert!(svg.contains(">26.94</text>"), "{svg}");
}
