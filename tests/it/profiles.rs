//! Print profiles on the real Interstate Trucking data: each profile's sizes on the
//! real output (PNG pixels, PDF page boxes; Tabletop Simulator is in `tts.rs`),
//! gutterfold and duplex positions, the back offset and the manifest.

use std::path::{Path, PathBuf};

use crate::common::pdf::Document;
use crate::common::*;

fn build(profile: &str, extra: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let out = tempfile::tempdir().unwrap();
    let mut args = vec![
        "build",
        "interstate-trucking",
        "--profile",
        profile,
        "--out",
        out.path().to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = run(&repo(), &args);
    assert!(o.status.success(), "{:?}", texts(&o));
    let dir = out.path().join("interstate-trucking").join(profile);
    (out, dir)
}

fn png_size(path: &Path) -> (u32, u32) {
    let b = std::fs::read(path).unwrap_or_else(|_| panic!("{} exists", path.display()));
    (
        u32::from_be_bytes(b[16..20].try_into().unwrap()),
        u32::from_be_bytes(b[20..24].try_into().unwrap()),
    )
}

fn manifest(dir: &Path) -> serde_json::Value {
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    // Every file listed exists, and every file written is listed.
    let listed: Vec<String> = m["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect();
    for p in &listed {
        assert!(dir.parent().unwrap().join(p).is_file(), "{p}");
    }
    m
}

#[test]
fn the_game_crafter_pngs_at_the_shops_pixel_sizes() {
    let dir = interstate_with("thegamecrafter");
    assert_eq!(png_size(&dir.join("contracts/001-front.png")), (825, 1125));
    assert_eq!(png_size(&dir.join("contracts/001-back.png")), (825, 1125));
    assert_eq!(
        png_size(&dir.join("rest-markers/001-front.png")),
        (300, 300),
        "3/4 in chit with bleed"
    );
    // The 8 mm goods chits are no product of the shop: left out, not failed.
    assert!(!dir.join("goods-chits").exists());
    assert_eq!(
        png_size(&dir.join("color-markers/001-front.png")),
        (375, 375),
        "1 in chit with bleed"
    );
    // One common back, written once.
    assert_eq!(
        std::fs::read_dir(dir.join("contracts")).unwrap().count(),
        89
    );
    let m = manifest(&dir);
    assert!(m["files"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["what"].as_str().unwrap().contains("print 1 (300 dpi")));
    // The board is not a product of the shop: left out, not failed.
    assert!(!dir.join("board").exists());
}

#[test]
fn makeplayingcards_fronts_and_backs_in_folders() {
    let dir = interstate_with("makeplayingcards");
    assert_eq!(png_size(&dir.join("contracts/fronts/001.png")), (822, 1122));
    assert_eq!(png_size(&dir.join("contracts/backs/001.png")), (822, 1122));
    assert_eq!(
        std::fs::read_dir(dir.join("contracts/fronts"))
            .unwrap()
            .count(),
        88
    );
}

#[test]
fn drivethrucards_one_face_per_page_back_first() {
    // Every game built for DriveThruCards, shared with print_color.rs.
    let dir = crate::print_color::drivethrucards().join("interstate-trucking/drivethrucards");
    let pdf = dir.join("contracts.pdf");
    let doc = Document::load(&pdf).unwrap();
    let pages = doc.get_pages();
    assert_eq!(pages.len(), 176, "88 backs + 88 fronts");
    let first = pages[&1];
    let media = rect(&doc, first, b"MediaBox");
    assert!(
        (media[2] - 198.0).abs() < 0.01 && (media[3] - 270.0).abs() < 0.01,
        "2.75 x 3.75 in: {media:?}"
    );
    let trim = rect(&doc, first, b"TrimBox");
    assert!(
        (trim[0] - 9.0).abs() < 0.01 && (trim[2] - 189.0).abs() < 0.01,
        "1/8 in bleed: {trim:?}"
    );
    assert!(pdftotext(&pdf, 1).contains("TRUCKING"), "a back first");
    assert!(pdftotext(&pdf, 2).contains("CONTRACT"), "then its front");
}

#[test]
fn gutterfold_puts_each_back_below_its_front() {
    // Every game on Letter, shared with print.rs and golden.rs.
    let dir = crate::print::built(&crate::print::FOLD_LETTER, "gutterfold", "letter")
        .join("interstate-trucking/gutterfold");
    let pdf = dir.join("interstate-trucking.pdf");
    let doc = Document::load(&pdf).unwrap();
    let first = doc.get_pages()[&1];
    let media = rect(&doc, first, b"MediaBox");
    assert!(
        (media[2] - 792.0).abs() < 0.01,
        "Letter landscape: {media:?}"
    );
    let text = pdftotext(&pdf, 1);
    assert!(text.contains("gutterfold 1/22"), "{text}");
    assert_eq!(text.matches("CONTRACT").count(), 4);
}

#[test]
fn back_offset_moves_only_the_back_sheets() {
    // Every game on Letter (the default paper), shared with print.rs and golden.rs.
    let plain = crate::print::built(&crate::print::HOME_LETTER, "home", "letter")
        .join("interstate-trucking/home");
    let (_b, shifted) = build("home", &["--back-offset", "2,-1"]);
    let a = Document::load(plain.join("interstate-trucking.pdf")).unwrap();
    let b = Document::load(shifted.join("interstate-trucking.pdf")).unwrap();
    let (pa, pb) = (a.get_pages(), b.get_pages());
    assert_eq!(
        rect(&a, pa[&1], b"TrimBox"),
        rect(&b, pb[&1], b"TrimBox"),
        "fronts do not move"
    );
    let (ta, tb) = (rect(&a, pa[&2], b"TrimBox"), rect(&b, pb[&2], b"TrimBox"));
    let mm = 72.0 / 25.4;
    assert!((tb[0] - ta[0] - 2.0 * mm).abs() < 0.01, "{ta:?} {tb:?}");
    // +1 mm down the page is -1 mm in PDF's upward y.
    assert!((tb[1] - ta[1] - 1.0 * mm).abs() < 0.01, "{ta:?} {tb:?}");
    let cal = shifted.join("duplex-calibration.pdf");
    assert!(pdftotext(&cal, 1).contains("--back-offset 2+X,-1+Y"));
}
