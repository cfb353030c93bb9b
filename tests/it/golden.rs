//! Golden images: one page of each layout, rendered at low resolution
//! (`pdftoppm -r 20 -gray`) and compared with a stored reference in
//! `tests/golden/` within a tolerance, so a change in what prints shows up even
//! when every geometric check still passes. The layouts: a card sheet and its back,
//! a chit sheet, a board tile, a gutterfold sheet, a pad sheet, the duplex
//! calibration page, a shop's face PNG, a rulebook page and a booklet sheet, for
//! the fixture game and each seed game.
//! `CARDSTOCK_BLESS=1` rewrites the references after a deliberate change (look at
//! them before committing); a missing reference is written when `CI` is not set.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;
use crate::print::{built, fixture_project, FOLD_LETTER, HOME_LETTER};

/// Resolution of the comparison, in dpi: a Letter page is 170 x 220 pixels.
const DPI: &str = "20";
/// Largest mean difference per pixel (0..255).
const MEAN: f64 = 1.5;
/// Largest share of pixels that differ by more than a quarter of the range.
const FAR: f64 = 0.005;

/// A grey picture.
struct Gray {
    w: u32,
    h: u32,
    px: Vec<u8>,
}

fn decode(png_bytes: &[u8]) -> Gray {
    let (info, buf) = decode_png(png_bytes);
    let n = info.color_type.samples();
    let px = buf
        .chunks(n)
        .map(|c| match n {
            1 | 2 => c[0],
            // Luma of RGB(A), onto white where transparent.
            _ => {
                let a = if n == 4 { c[3] as f64 / 255.0 } else { 1.0 };
                let y = 0.299 * c[0] as f64 + 0.587 * c[1] as f64 + 0.114 * c[2] as f64;
                (y * a + 255.0 * (1.0 - a)).round() as u8
            }
        })
        .collect();
    Gray {
        w: info.width,
        h: info.height,
        px,
    }
}

/// Page `page` of `pdf` as a grey PNG at [`DPI`].
fn render(pdf: &Path, page: usize) -> Vec<u8> {
    let p = page.to_string();
    let tmp = tempfile::tempdir().unwrap();
    let prefix = tmp.path().join("page");
    let o = Command::new("pdftoppm")
        .args([
            "-r",
            DPI,
            "-gray",
            "-png",
            "-f",
            &p,
            "-l",
            &p,
            "-singlefile",
        ])
        .arg(pdf)
        .arg(&prefix)
        .output()
        .expect("pdftoppm (poppler-utils) is installed");
    assert!(o.status.success(), "pdftoppm {} page {page}", pdf.display());
    let png = std::fs::read(prefix.with_extension("png")).unwrap();
    assert!(!png.is_empty());
    png
}

/// A PNG file scaled down to a width of 120 pixels (nearest pixel), as grey PNG.
fn shrink_png(path: &Path) -> Vec<u8> {
    let g = decode(&std::fs::read(path).unwrap());
    let w = 120u32;
    let h = (g.h as u64 * w as u64 / g.w as u64).max(1) as u32;
    let mut px = Vec::with_capacity((w * h) as usize);
    for y in 0..h {
        for x in 0..w {
            let sx = (x as u64 * g.w as u64 / w as u64) as u32;
            let sy = (y as u64 * g.h as u64 / h as u64) as u32;
            px.push(g.px[(sy * g.w + sx) as usize]);
        }
    }
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Grayscale);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header().unwrap().write_image_data(&px).unwrap();
    out
}

/// Compares `actual` (a PNG) with `tests/golden/<name>.png`; returns the problem.
fn compare(name: &str, actual: &[u8]) -> Option<String> {
    let path = repo().join("tests/golden").join(format!("{name}.png"));
    if std::env::var_os("CARDSTOCK_BLESS").is_some()
        || !path.exists() && std::env::var_os("CI").is_none()
    {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return None;
    }
    let Ok(expected) = std::fs::read(&path) else {
        return Some(format!(
            "{name}: tests/golden/{name}.png is missing (CI is set): run the test locally or with CARDSTOCK_BLESS=1, look at the image and commit it"
        ));
    };
    let (a, e) = (decode(actual), decode(&expected));
    let kept = std::env::temp_dir().join(format!("cardstock-golden-{name}.png"));
    if (a.w, a.h) != (e.w, e.h) {
        std::fs::write(&kept, actual).unwrap();
        return Some(format!(
            "{name}: {}x{} pixels, the reference {}x{} (actual kept in {})",
            a.w,
            a.h,
            e.w,
            e.h,
            kept.display()
        ));
    }
    let n = a.px.len() as f64;
    let diffs = a.px.iter().zip(&e.px).map(|(x, y)| x.abs_diff(*y));
    let (sum, far) = diffs.fold((0u64, 0usize), |(s, f), d| {
        (s + d as u64, f + (d > 64) as usize)
    });
    let (mean, far) = (sum as f64 / n, far as f64 / n);
    if mean > MEAN || far > FAR {
        std::fs::write(&kept, actual).unwrap();
        return Some(format!(
            "{name}: differs from tests/golden/{name}.png (mean {mean:.2} > {MEAN} or {:.2} % of pixels far off > {:.1} %); actual kept in {} (CARDSTOCK_BLESS=1 to accept a deliberate change)",
            far * 100.0,
            FAR * 100.0,
            kept.display()
        ));
    }
    None
}

/// The first page of `pdf` whose text contains `label`.
fn page_with(pdf: &Path, label: &str) -> usize {
    let doc = lopdf::Document::load(pdf).unwrap();
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
    let mut problems = Vec::new();
    for (name, pdf, page) in pages(out) {
        problems.extend(compare(&name, &render(&pdf, page)));
    }
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
