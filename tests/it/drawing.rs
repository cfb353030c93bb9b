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

/// The RGB of the pixel at (`x`, `y`) mm of a face PNG written at 300 dpi.
fn pixel(png: &Path, x: f64, y: f64) -> [u8; 3] {
    let (info, px) = decode_png(&std::fs::read(png).unwrap());
    let n = match info.color_type {
        png::ColorType::Rgba => 4,
        png::ColorType::Rgb => 3,
        other => panic!("{other:?}"),
    };
    let s = 300.0 / 25.4;
    let (i, j) = ((x * s).round() as usize, (y * s).round() as usize);
    let p = &px[(j * info.width as usize + i) * n..][..3];
    [p[0], p[1], p[2]]
}

fn near(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 4)
}

#[test]
fn an_icon_is_drawn_anywhere_recoloured_and_as_an_image() {
    let tmp = base_copy();
    let icons = tmp.path().join("templates/mini/icons");
    std::fs::create_dir_all(&icons).unwrap();
    // As game-icons.net writes them: a 512 unit square, colours as attributes or
    // in a style; a white square in the middle of a black disc.
    std::fs::write(
        icons.join("badge.svg"),
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" style="height: 512px; width: 512px;"><circle cx="256" cy="256" r="200" fill="#000" fill-opacity="1"/><g transform="translate(0,0)"><rect x="200" y="200" width="112" height="112" style="fill: #ffffff; fill-opacity: 1"/></g></svg>"##,
    )
    .unwrap();
    std::fs::write(
        tmp.path().join("templates/mini/token.svg"),
        r##"{% extends "common/face.svg" %}
{% block body %}
<rect x="-1.5" y="-1.5" width="{{ face.full_width }}" height="{{ face.full_height }}" fill="#ffffff"/>
{{ icon('badge', 9.525, 9.525, 12, fill=lookup('suit', row.id).color, rotate=30) }}
{% endblock %}
"##,
    )
    .unwrap();
    std::fs::write(
        tmp.path().join("templates/mini/card.svg"),
        r##"{% extends "common/face.svg" %}
{% block body %}
<rect x="-3" y="-3" width="{{ face.full_width }}" height="{{ face.full_height }}" fill="#ffffff"/>
<image href="icons/badge.svg" x="10" y="30" width="20" height="20"/>
<image href="icons/star.svg" x="40" y="30" width="10" height="10"/>
{{ icon('coin', 31.75, 70, 8) }}
{% endblock %}
"##,
    )
    .unwrap();
    build(tmp.path(), &["build", "--format", "pdf,svg,png"]);
    let out = tmp.path().join("output/mini/home");
    // The token's badge in its suit's colour, the white square too: one colour.
    let svg = std::fs::read_to_string(out.join("svg/tokens/001-front.svg")).unwrap();
    assert!(
        svg.contains(r##"color="#e0a000" fill="currentColor""##),
        "{svg}"
    );
    assert!(
        svg.contains(r#"transform="rotate(30 9.525 9.525)""#),
        "{svg}"
    );
    assert!(
        !svg.contains("#ffffff;"),
        "the style's white is recoloured: {svg}"
    );
    for (face, rgb) in [("001", [0xe0, 0xa0, 0x00]), ("002", [0x30, 0x50, 0xa0])] {
        let png = out.join(format!("png/tokens/{face}-front.png"));
        // Trim coordinates + 1.5 mm of bleed: the centre and a point of the ring.
        for (x, y) in [
            (11.025, 11.025),
            (11.025 + 3.0, 11.025),
            (11.025, 11.025 - 3.5),
        ] {
            assert!(
                near(pixel(&png, x, y), rgb),
                "{face} at ({x}, {y}): {:?}",
                pixel(&png, x, y)
            );
        }
        // Outside the 12 mm badge (r = 4.7 mm): the white background.
        assert!(near(pixel(&png, 11.025 + 5.5, 11.025), [255; 3]));
    }
    // The card draws the SVG file as an image, in its own colours, and the shared
    // star (templates/common/icons/) by the same path.
    let card = out.join("png/cards/001-front.png");
    // Built at the default resolution, 300 dpi: the poker card and its 3 mm of
    // bleed, 69.5 x 94.9 mm, are 821 x 1121 px.
    let (info, _) = decode_png(&std::fs::read(&card).unwrap());
    assert_eq!((info.width, info.height), (821, 1121), "300 dpi");
    let (x, y) = (3.0 + 20.0, 3.0 + 40.0);
    assert!(near(pixel(&card, x, y), [255; 3]), "white square");
    assert!(near(pixel(&card, x + 6.0, y), [0; 3]), "black disc");
    assert!(
        near(pixel(&card, 3.0 + 45.0, 3.0 + 35.5), [0xf4, 0xc4, 0x30]),
        "star"
    );
    // The coin icon as drawn by icon() without a fill: its own gold.
    let gold = pixel(&card, 3.0 + 31.75 - 3.0, 3.0 + 70.0);
    assert!(near(gold, [0xe0, 0xa5, 0x26]), "{gold:?}");
    // In the PDF they are vector art: no raster image on the card sheet.
    let doc = crate::common::pdf::Document::load(out.join("mini.pdf")).unwrap();
    let images = doc
        .objects
        .values()
        .filter_map(|o| o.as_stream().ok())
        .filter(|s| {
            s.dict
                .get(b"Subtype")
                .is_ok_and(|t| t.as_name().ok() == Some(b"Image"))
        })
        .count();
    assert_eq!(images, 0);
}

#[test]
fn icon_errors_name_the_icon_and_the_fix() {
    let tmp = base_copy();
    let token = tmp.path().join("templates/mini/token.svg");
    for (call, expected) in [
        (
            "icon('skul', 5, 5, 4)",
            "icon(): there is no icon `skul` (looked for templates/mini/icons/skul.svg and templates/common/icons/skul.svg)",
        ),
        (
            "icon('star', 5, 5, 4, fill='blu')",
            "icon(): fill `blu` is not a colour",
        ),
        ("icon('star', 5, 5, 0)", "icon(): the size must be more than 0"),
        ("icon('star', 5, 5, 4, colour='red')", "colour"),
    ] {
        std::fs::write(
            &token,
            format!(
                "{{% extends \"common/face.svg\" %}}\n{{% block body %}}\n{{{{ {call} }}}}\n{{% endblock %}}\n"
            ),
        )
        .unwrap();
        let o = run(tmp.path(), &["build"]);
        let (_, stderr) = texts(&o);
        assert!(!o.status.success());
        assert!(stderr.contains(expected), "{call}: {stderr}");
        assert!(stderr.contains("templates/mini/token.svg:3"), "{call}: {stderr}");
    }
}

#[test]
fn an_svg_picture_links_no_files_and_counts_its_elements() {
    let tmp = base_copy();
    let icons = tmp.path().join("templates/mini/icons");
    std::fs::create_dir_all(&icons).unwrap();
    std::fs::write(
        icons.join("nest.svg"),
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><image href="../card.svg" width="10" height="10"/></svg>"##,
    )
    .unwrap();
    let rects: String = (0..5000)
        .map(|i| format!("<rect x=\"{}\" y=\"1\" width=\"1\" height=\"1\"/>", i % 10))
        .collect();
    std::fs::write(
        icons.join("big.svg"),
        format!(r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">{rects}</svg>"##),
    )
    .unwrap();
    let token = tmp.path().join("templates/mini/token.svg");
    let body = |b: &str| {
        format!("{{% extends \"common/face.svg\" %}}\n{{% block body %}}\n{b}\n{{% endblock %}}\n")
    };
    std::fs::write(
        &token,
        body(r#"<image href="icons/nest.svg" width="5" height="5"/>"#),
    )
    .unwrap();
    let o = run(tmp.path(), &["build"]);
    let (_, stderr) = texts(&o);
    assert!(!o.status.success());
    assert!(
        stderr.contains("image `icons/nest.svg`: image `../card.svg` points outside the project"),
        "{stderr}"
    );
    // One drawing of 5,001 elements is fine; drawn 50 times in a face it is
    // 250,000 elements, over the limit.
    std::fs::write(
        &token,
        body(r#"<image href="icons/big.svg" width="5" height="5"/>"#),
    )
    .unwrap();
    build(tmp.path(), &["build"]);
    let many = r#"<image href="icons/big.svg" width="5" height="5"/>"#.repeat(50);
    std::fs::write(&token, body(&many)).unwrap();
    let o = run(tmp.path(), &["build"]);
    let (_, stderr) = texts(&o);
    assert!(!o.status.success());
    assert!(
        stderr.contains("elements, over the limit of 200000"),
        "{stderr}"
    );
}
