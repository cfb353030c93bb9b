//! The krilla patch `vendor/patches/krilla-compact-streams.diff` writes content
//! streams shorter: a text's glyph adjustments (`TJ`) to a hundredth of a unit,
//! the rounding carried into the next adjustment so that no glyph drifts; colour
//! components as the smallest decimal of at most four places not below `n` / 255;
//! and a content stream under 128 bytes as it is, not deflated. This checks each
//! on krilla's own output and on every content stream of a real build.

use krilla::geom::Point;
use krilla::page::PageSettings;
use krilla::text::{Font, GlyphId, KrillaGlyph};
use krilla::Document;

use crate::common::pdf::{self, Content, Object};
use crate::print::{built, HOME_LETTER};
use crate::print_color::pdfs;

/// Whether `v` is a decimal of at most `places` places (as an `f32` reads it).
fn places(v: f32, places: i32) -> bool {
    let scale = 10f32.powi(places);
    (v * scale).round() / scale == v
}

/// A number operand as an `f32`.
fn number(o: &Object) -> Option<f32> {
    match o {
        Object::Integer(i) => Some(*i as f32),
        Object::Real(r) => Some(*r),
        _ => None,
    }
}

/// A line of `n` glyphs, each advancing its font advance (`advance` ems) plus a
/// little float noise (what glyph positions read back from a layout carry), and
/// every seventh kerned by -0.05 em.
fn noisy_line(advance: f32, n: usize) -> Vec<KrillaGlyph> {
    let mut seed = 0x2545_f491_u32;
    (0..n)
        .map(|i| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            // -0.000004 to 0.000004 em (0.004 units of 1/1000 em, as in the
            // seed games' PDFs): each alone rounds to nothing.
            let noise = (seed % 8001) as f32 / 1e9 - 0.000004;
            let extra = noise - if i % 7 == 6 { 0.05 } else { 0.0 };
            KrillaGlyph::new(
                GlyphId::new(0),
                advance + extra,
                0.0,
                0.0,
                0.0,
                i..i + 1,
                None,
            )
        })
        .collect()
}

#[test]
fn glyph_adjustments_are_hundredths_and_no_glyph_drifts() {
    let data = std::fs::read("assets/fonts/Lato-Regular.ttf").unwrap();
    let face = rustybuzz::ttf_parser::Face::parse(&data, 0).unwrap();
    let id = face.glyph_index('n').unwrap();
    let upem = f32::from(face.units_per_em());
    let advance = f32::from(face.glyph_hor_advance(id).unwrap()) / upem;
    let font = Font::new(data.clone().into(), 0).unwrap();
    let n = 400;
    let mut glyphs = noisy_line(advance, n);
    for g in &mut glyphs {
        g.glyph_id = GlyphId::new(u32::from(id.0));
    }
    // Each glyph's adjustment as unpatched krilla writes it (its own f32
    // arithmetic, in units of 1/1000 em; its sign as `TJ` takes it).
    let width = f32::from(face.glyph_hor_advance(id).unwrap());
    let font_advance = width / upem * upem;
    let wanted_each: Vec<f64> = glyphs
        .iter()
        .map(|g| -f64::from((g.x_advance * upem - font_advance) / upem * 1000.0))
        .collect();
    let text = "n".repeat(n);

    let mut doc = Document::new();
    let mut page = doc.start_page_with(PageSettings::from_wh(600.0, 100.0).unwrap());
    let mut surface = page.surface();
    surface.draw_glyphs(Point::from_xy(10.0, 50.0), &glyphs, font, &text, 1.0, false);
    surface.finish();
    page.finish();
    let bytes = doc.finish().unwrap();

    let doc = pdf::Document::load_mem(&bytes).unwrap();
    let page = *doc.get_pages().values().next().unwrap();
    let content = Content::decode(&doc.get_page_content(page).unwrap()).unwrap();
    let items = content
        .operations
        .iter()
        .find(|op| op.operator == "TJ")
        .map(|op| op.operands[0].as_array().unwrap().clone())
        .expect("one TJ");

    // Walk the array: after each glyph, the pen is where the written adjustments
    // put it; it must be where the glyphs' own advances put it, to within half a
    // hundredth of a unit (1/1000 em) and the epsilon krilla leaves unwritten.
    let (mut written, mut wanted, mut seen, mut numbers) = (0f64, 0f64, 0, 0);
    let mut worst = 0f64;
    for item in &items {
        match item {
            Object::String(s) => {
                for _ in 0..s.len() / 2 {
                    worst = worst.max((written - wanted).abs());
                    wanted += wanted_each[seen];
                    seen += 1;
                }
            }
            other => {
                let v = number(other).expect("a number in TJ");
                assert!(places(v, 2), "adjustment {v} has more than two places");
                written += f64::from(v);
                numbers += 1;
            }
        }
    }
    assert_eq!(seen, n, "every glyph shown");
    assert!(
        worst <= 0.0051,
        "a glyph {worst} units from where it belongs"
    );
    // Noise alone rounds to nothing for most glyphs; the kerned ones are written.
    assert!(
        numbers >= n / 7 && numbers < n / 2,
        "{numbers} adjustments for {n} glyphs"
    );
}

#[test]
fn a_builds_content_streams_are_compact() {
    let out = built(&HOME_LETTER, "home", "letter");
    let files = pdfs(out);
    let (mut colours, mut adjustments, mut plain, mut deflated) = (0, 0, 0, 0);
    for file in &files {
        let doc = pdf::Document::load(file).unwrap();
        // The content streams: the pages', the forms' and the tiling patterns'.
        let mut ids = Vec::new();
        for page in doc.get_pages().values() {
            match doc.get_dictionary(*page).unwrap().get(b"Contents") {
                Ok(Object::Reference(r)) => ids.push(*r),
                Ok(Object::Array(a)) => ids.extend(a.iter().filter_map(|o| o.as_reference().ok())),
                _ => {}
            }
        }
        for (id, obj) in &doc.objects {
            if let Object::Stream(s) = obj {
                let form = matches!(s.dict.get(b"Subtype"), Ok(Object::Name(n)) if n == b"Form");
                if form || s.dict.has(b"PatternType") {
                    ids.push(*id);
                }
            }
        }
        for id in &ids {
            let Ok(Object::Stream(s)) = doc.get_object(*id) else {
                panic!("{}, {id:?}: not a stream", file.display())
            };
            let flate = s.dict.has(b"Filter");
            let bytes = s.decompressed_content().unwrap();
            // cardstock's own streams (the booklet's pages) are deflated whole.
            if !flate {
                assert!(
                    bytes.len() < 128,
                    "{}, {id:?}: {} bytes not deflated",
                    file.display(),
                    bytes.len()
                );
                plain += 1;
            } else {
                deflated += 1;
            }
            let Ok(ops) = Content::decode(&bytes) else {
                continue;
            };
            for op in &ops.operations {
                match op.operator.as_str() {
                    "rg" | "RG" | "g" | "G" | "k" | "K" => {
                        for v in op.operands.iter().filter_map(number) {
                            let n = (v * 255.0).floor();
                            assert!(
                                places(v, 4) && v * 255.0 - n < 0.03,
                                "{}, {id:?}: colour {v} ({})",
                                file.display(),
                                op.operator
                            );
                            colours += 1;
                        }
                    }
                    "TJ" => {
                        for v in op.operands[0].as_array().unwrap().iter().filter_map(number) {
                            assert!(places(v, 2), "{}, {id:?}: adjustment {v}", file.display());
                            adjustments += 1;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(
        colours > 1000 && adjustments > 1000,
        "{colours} colours, {adjustments} adjustments"
    );
    assert!(
        plain > 20 && deflated > 200,
        "{plain} plain, {deflated} deflated"
    );
}
