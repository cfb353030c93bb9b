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

/// Page `page` (from 1) of `pdf` rasterised at `dpi`: its width, height and RGB
/// pixels.
fn raster(pdf: &Path, page: usize, dpi: u32) -> (usize, usize, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let stem = dir.path().join("page");
    let p = page.to_string();
    let o = std::process::Command::new("pdftoppm")
        .args([
            "-r",
            &dpi.to_string(),
            "-f",
            &p,
            "-l",
            &p,
            "-png",
            "-singlefile",
        ])
        .arg(pdf)
        .arg(&stem)
        .output()
        .expect("pdftoppm (poppler-utils) is installed");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (info, px) = decode_png(&std::fs::read(stem.with_extension("png")).unwrap());
    let rgb = match info.color_type {
        png::ColorType::Rgb => px,
        png::ColorType::Rgba => px.chunks(4).flat_map(|c| [c[0], c[1], c[2]]).collect(),
        other => panic!("{other:?}"),
    };
    (info.width as usize, info.height as usize, rgb)
}

#[test]
fn a_chits_cut_line_shows_on_a_dark_fill_and_on_a_light_one() {
    let tmp = base_copy();
    // The sun chits white, the moon chits near black, out to the bleed edge.
    std::fs::write(
        tmp.path().join("templates/mini/token.svg"),
        r##"{% extends "common/face.svg" %}
{% block body %}
<rect x="-1.5" y="-1.5" width="{{ face.full_width }}" height="{{ face.full_height }}" fill="{{ '#ffffff' if row.id == 'sun' else '#101820' }}"/>
{% endblock %}
"##,
    )
    .unwrap();
    build(tmp.path(), &["build"]);
    let pdf = tmp.path().join("output/mini/home/mini-one-sided.pdf");
    let read = crate::print::read_pdf(&pdf);
    let (k, page) = read
        .pages
        .iter()
        .enumerate()
        .find(|(_, p)| !p.faces.is_empty())
        .expect("a chit sheet");
    assert_eq!(page.faces.len(), 4, "two chits of each suit");
    let dpi = 300;
    let (w, _, rgb) = raster(&pdf, k + 1, dpi);
    let px_per_mm = dpi as f64 / 25.4;
    let light = |x: f64, y: f64| {
        let (i, j) = ((x * px_per_mm) as usize, (y * px_per_mm) as usize);
        let p = &rgb[(j * w + i) * 3..][..3];
        (p[0] as u32 + p[1] as u32 + p[2] as u32) / 3
    };
    let (mut dark, mut white) = (0, 0);
    for f in &page.faces {
        let (cx, cy) = ((f.bbox.x0 + f.bbox.x1) / 2.0, (f.bbox.y0 + f.bbox.y1) / 2.0);
        let r = (f.bbox.x1 - f.bbox.x0) / 2.0 - 1.5; // the trim: 3/4 in round
        let inside = light(cx, cy);
        for a in 0..12 {
            let (dy, dx) = (a as f64 * std::f64::consts::FRAC_PI_6).sin_cos();
            // Across the cut line, from 0.6 mm inside to 0.6 mm outside.
            let across: Vec<u32> = (0..=60)
                .map(|s| r - 0.6 + s as f64 * 0.02)
                .map(|d| light(cx + d * dx, cy + d * dy))
                .collect();
            let (lo, hi) = (*across.iter().min().unwrap(), *across.iter().max().unwrap());
            if inside < 60 {
                dark += 1;
                // The white under the grey line shows on the dark chit.
                assert!(hi > 170, "dark chit at {a}: {across:?}");
                // The chit's own dark bleed either side of it.
                assert!(across[0] < 60 && across[60] < 60, "{across:?}");
            } else {
                white += 1;
                // The grey line shows on the white chit.
                assert!(lo < 190, "white chit at {a}: {across:?}");
            }
        }
    }
    assert_eq!((dark, white), (24, 24));
}
