//! Golden images: one page of each layout, rendered in colour at 100 dpi
//! (`pdftoppm -r 100`: a Letter page is 850 x 1100 pixels, and a 0.25 pt crop mark
//! is a line of pixels a third to a half dark) and compared with a stored
//! reference in `tests/golden/`, so a change in what prints shows up even when
//! every geometric check still passes. The layouts: a card sheet and its back, a
//! chit sheet, a board tile, a gutterfold sheet, a pad sheet, the duplex
//! calibration page, a shop's face PNG, a rulebook page and a booklet sheet, for
//! the fixture game and each seed game.
//!
//! A page fails when more than [`FAR_PIXELS`] pixels differ by more than [`FAR`]
//! in a channel (a 5 mm mark moved by 1 mm is some 40), or the mean difference
//! passes [`MEAN`]. On a failure the actual image, the reference and a diff
//! (the reference faded, pixels far off in red) are written to
//! `target/golden-diff/<name>-{actual,expected,diff}.png`.
//! `CARDSTOCK_BLESS=1 cargo test --test it golden` rewrites the references after a
//! deliberate change (look at every one before committing); a missing reference is
//! written when `CI` is not set. tests/README.md says more.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;
use crate::print::{built, fixture_project, FOLD_LETTER, HOME_LETTER};

/// Resolution of the comparison, in dpi.
const DPI: &str = "100";
/// A pixel is far off when a channel differs by more than this (0..255): a
/// 0.25 pt black line split over two pixels still darkens each by about 44.
const FAR: u8 = 32;
/// Most pixels that may be far off (anti-aliasing of another poppler version).
const FAR_PIXELS: usize = 12;
/// Largest mean difference per channel (0..255).
const MEAN: f64 = 1.5;

/// An RGB picture, transparent pixels flattened onto white: 3 bytes a pixel, row
/// by row. (Kept as bytes and compared with plain loops: the tests run at
/// opt-level 0, where a pixel's iterator chain cost more than rendering the page.)
#[derive(Clone)]
struct Rgb {
    w: u32,
    h: u32,
    px: Vec<u8>,
}

fn decode(png_bytes: &[u8]) -> Rgb {
    let (info, buf) = decode_png(png_bytes);
    let n = info.color_type.samples();
    let px = if n == 3 {
        buf
    } else {
        let mut px = Vec::with_capacity(buf.len() / n * 3);
        for c in buf.chunks(n) {
            let (rgb, a) = match n {
                1 => ([c[0]; 3], 255),
                2 => ([c[0]; 3], c[1]),
                _ => ([c[0], c[1], c[2]], c[3]),
            };
            let a = a as f64 / 255.0;
            px.extend(rgb.map(|v| (v as f64 * a + 255.0 * (1.0 - a)).round() as u8));
        }
        px
    };
    Rgb {
        w: info.width,
        h: info.height,
        px,
    }
}

fn encode(img: &Rgb) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, img.w, img.h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::High);
    enc.write_header()
        .unwrap()
        .write_image_data(&img.px)
        .unwrap();
    out
}

/// Page `page` of `pdf` as a colour PNG at [`DPI`].
fn render(pdf: &Path, page: usize) -> Vec<u8> {
    let p = page.to_string();
    let tmp = tempfile::tempdir().unwrap();
    let prefix = tmp.path().join("page");
    let o = Command::new("pdftoppm")
        .args(["-r", DPI, "-png", "-f", &p, "-l", &p, "-singlefile"])
        .arg(pdf)
        .arg(&prefix)
        .output()
        .expect("pdftoppm (poppler-utils) is installed");
    assert!(o.status.success(), "pdftoppm {} page {page}", pdf.display());
    let png = std::fs::read(prefix.with_extension("png")).unwrap();
    assert!(!png.is_empty());
    png
}

/// A 300 dpi PNG file at 100 dpi (each pixel the mean of 3 x 3), as an RGB PNG.
fn shrink_png(path: &Path) -> Vec<u8> {
    let g = decode(&std::fs::read(path).unwrap());
    let (w, h) = (g.w / 3, g.h / 3);
    let mut px = Vec::with_capacity((3 * w * h) as usize);
    for y in 0..h {
        for x in 0..w {
            for c in 0..3 {
                let mut sum = 0u32;
                for dy in 0..3 {
                    let row = ((3 * y + dy) * g.w + 3 * x) as usize;
                    for dx in 0..3 {
                        sum += g.px[3 * (row + dx) + c] as u32;
                    }
                }
                px.push(((sum + 4) / 9) as u8);
            }
        }
    }
    encode(&Rgb { w, h, px })
}

/// What differs between two pictures of the same size: the number of pixels far
/// off and the mean difference per channel.
fn difference(a: &Rgb, e: &Rgb) -> (usize, f64) {
    if a.px == e.px {
        return (0, 0.0);
    }
    let mut far = 0;
    let mut sum = 0u64;
    for i in (0..a.px.len()).step_by(3) {
        let mut d = 0;
        for c in i..i + 3 {
            let dc = a.px[c].abs_diff(e.px[c]);
            d = d.max(dc);
            sum += dc as u64;
        }
        far += (d > FAR) as usize;
    }
    (far, sum as f64 / a.px.len().max(1) as f64)
}

/// The reference faded to a third of its contrast, each far-off pixel red.
fn diff_image(a: &Rgb, e: &Rgb) -> Rgb {
    let mut px = Vec::with_capacity(e.px.len());
    for i in (0..e.px.len()).step_by(3) {
        let d = (i..i + 3).map(|c| a.px[c].abs_diff(e.px[c])).max().unwrap();
        if d > FAR {
            px.extend([255, 0, 0]);
        } else {
            px.extend((i..i + 3).map(|c| 170 + e.px[c] / 3));
        }
    }
    Rgb { px, ..*e }
}

/// Writes the actual image, the reference and their diff to
/// `target/golden-diff/`; returns where.
fn keep(name: &str, actual: &[u8], expected: &Rgb, diff: Option<&Rgb>) -> String {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("golden-diff");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{name}-actual.png")), actual).unwrap();
    std::fs::write(dir.join(format!("{name}-expected.png")), encode(expected)).unwrap();
    if let Some(d) = diff {
        std::fs::write(dir.join(format!("{name}-diff.png")), encode(d)).unwrap();
    }
    dir.join(format!("{name}-*.png")).display().to_string()
}

/// Compares `actual` (a PNG) with `tests/golden/<name>.png`; returns the problem.
fn compare(name: &str, actual: &[u8]) -> Option<String> {
    let path = repo().join("tests/golden").join(format!("{name}.png"));
    if std::env::var_os("CARDSTOCK_BLESS").is_some()
        || !path.exists() && std::env::var_os("CI").is_none()
    {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        // Stored as RGB whatever pdftoppm wrote, so the reference is what was compared.
        std::fs::write(&path, encode(&decode(actual))).unwrap();
        return None;
    }
    let Ok(expected) = std::fs::read(&path) else {
        return Some(format!(
            "{name}: tests/golden/{name}.png is missing (CI is set): run the test locally or with CARDSTOCK_BLESS=1, look at the image and commit it"
        ));
    };
    let (a, e) = (decode(actual), decode(&expected));
    if (a.w, a.h) != (e.w, e.h) {
        let kept = keep(name, actual, &e, None);
        return Some(format!(
            "{name}: {}x{} pixels, the reference {}x{} (images in {kept})",
            a.w, a.h, e.w, e.h
        ));
    }
    let (far, mean) = difference(&a, &e);
    if far > FAR_PIXELS || mean > MEAN {
        let kept = keep(name, actual, &e, Some(&diff_image(&a, &e)));
        return Some(format!(
            "{name}: differs from tests/golden/{name}.png ({far} pixels far off, at most {FAR_PIXELS}; mean {mean:.2}, at most {MEAN}); images in {kept} (CARDSTOCK_BLESS=1 to accept a deliberate change)"
        ));
    }
    None
}

/// The first page of `pdf` whose text contains `label`.
fn page_with(pdf: &Path, label: &str) -> usize {
    let doc = crate::common::pdf::Document::load(pdf).unwrap();
    (1..=doc.get_pages().len())
        .find(|&p| pdftotext(pdf, p).contains(label))
        .unwrap_or_else(|| panic!("no page of {} says {label:?}", pdf.display()))
}

/// A page of each layout: (reference name, file, page number).
fn pages(out: &Path) -> Vec<(String, PathBuf, usize)> {
    let home = |game: &str, file: &str| out.join(game).join("home").join(file);
    let mut list = Vec::new();
    let add = |list: &mut Vec<(String, PathBuf, usize)>, name: &str, pdf: PathBuf, label: &str| {
        let p = page_with(&pdf, label);
        list.push((name.to_string(), pdf, p));
    };
    for (game, cards, chits, tile) in [
        (
            "interstate-trucking",
            "Contract cards — fronts 1/",
            "— chit sheet 1/",
            "tile A1",
        ),
        (
            "inside-track",
            "— fronts 1/",
            "— chit sheet 1/",
            "— tile A1 ",
        ),
        (
            "parcel-delivery",
            "— fronts 1/",
            "— chit sheet 1/",
            "tile A1",
        ),
        (
            "black-pawn-trucking",
            "— fronts 1/",
            "— chit sheet 1/",
            "tile A1",
        ),
    ] {
        let sheets = home(game, &format!("{game}.pdf"));
        let one = home(game, &format!("{game}-one-sided.pdf"));
        let front = page_with(&sheets, cards);
        list.push((format!("{game}-front"), sheets.clone(), front));
        list.push((format!("{game}-back"), sheets, front + 1));
        add(&mut list, &format!("{game}-chits"), one.clone(), chits);
        add(&mut list, &format!("{game}-tile"), one, tile);
    }
    add(
        &mut list,
        "interstate-trucking-screen",
        home("interstate-trucking", "interstate-trucking.pdf"),
        "Player screens — fronts 1/",
    );
    add(
        &mut list,
        "interstate-trucking-money",
        home("interstate-trucking", "interstate-trucking-one-sided.pdf"),
        "Money — 1/",
    );
    add(
        &mut list,
        "truck-off-pad",
        home("truck-off", "truck-off.pdf"),
        "SHEET 1",
    );
    add(
        &mut list,
        "calibration",
        home("interstate-trucking", "duplex-calibration.pdf"),
        "",
    );
    // The rulebook: its first page (title, contents, the components list with
    // pictures of the faces) and the booklet's first sheet side.
    list.push((
        "interstate-trucking-rules".into(),
        home("interstate-trucking", "interstate-trucking-rules.pdf"),
        1,
    ));
    list.push((
        "interstate-trucking-rules-booklet".into(),
        home(
            "interstate-trucking",
            "interstate-trucking-rules-booklet.pdf",
        ),
        2,
    ));
    add(
        &mut list,
        "mini-front",
        home("mini", "mini.pdf"),
        "— fronts 1/",
    );
    add(
        &mut list,
        "mini-back",
        home("mini", "mini.pdf"),
        "— backs 1/",
    );
    list
}

#[test]
fn one_page_of_each_layout_matches_its_reference() {
    let out = built(&HOME_LETTER, "home", "letter");
    // pdftoppm runs side by side, two pages at a time per core.
    let list = pages(out);
    let chunk = list.len().div_ceil(4);
    let mut problems: Vec<String> = std::thread::scope(|s| {
        let runs: Vec<_> = list
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .filter_map(|(name, pdf, page)| compare(name, &render(pdf, *page)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        runs.into_iter().flat_map(|r| r.join().unwrap()).collect()
    });
    // Gutterfold: the fixture's cards, each front above its back.
    let fold = built(&FOLD_LETTER, "gutterfold", "letter");
    let pdf = fold.join("mini/gutterfold/mini.pdf");
    problems.extend(compare("mini-gutterfold", &render(&pdf, 1)));
    // A shop's face: The Game Crafter's PNG of the fixture's first card.
    let shop = fixture_project();
    let o = run(shop.path(), &["build", "--profile", "thegamecrafter"]);
    assert!(o.status.success(), "{:?}", texts(&o));
    let mut pngs: Vec<PathBuf> = walk(&shop.path().join("output/mini/thegamecrafter"))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .collect();
    pngs.sort();
    let first = pngs.first().expect("The Game Crafter PNGs");
    problems.extend(compare("mini-thegamecrafter", &shrink_png(first)));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// The tolerance sees a 0.25 pt crop mark moved by 1 mm at 100 dpi, and lets pass
/// a page whose every pixel is off by one level.
#[test]
fn a_moved_hairline_fails_and_noise_passes() {
    let (w, h) = (850u32, 1100u32);
    let white = Rgb {
        w,
        h,
        px: vec![255; (3 * w * h) as usize],
    };
    // A 5 mm mark (20 pixels) of a 0.25 pt line split over two columns: each
    // pixel 17 % dark.
    let mark = |x: u32| {
        let mut img = white.clone();
        for y in 500..520 {
            for col in [x, x + 1] {
                let i = 3 * (y * w + col) as usize;
                img.px[i..i + 3].fill(211);
            }
        }
        img
    };
    let (before, after) = (mark(100), mark(104));
    let (far, _) = difference(&after, &before);
    assert!(far > FAR_PIXELS, "a moved mark: {far} pixels far off");
    let noisy = Rgb {
        px: before.px.iter().map(|v| v.saturating_sub(1)).collect(),
        ..before.clone()
    };
    let (far, mean) = difference(&noisy, &before);
    assert!(far <= FAR_PIXELS && mean <= MEAN, "noise: {far}, {mean}");
}
