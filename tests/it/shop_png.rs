//! Shop PNGs read back: colour type and resolution from the PNG header, for the
//! profiles that ask for RGB (The Game Crafter, MakePlayingCards) and for the faces
//! `--format png` writes (RGBA at `--dpi`).

use std::path::Path;

use crate::common::*;

/// The header facts of a PNG: size, colour type and pixels per metre (pHYs).
#[derive(Debug)]
struct Header {
    width: u32,
    height: u32,
    color_type: u8,
    per_metre: Option<(u32, u32, u8)>,
}

/// Reads IHDR and pHYs (the chunks before the image data).
fn header(path: &Path) -> Header {
    let b = std::fs::read(path).unwrap_or_else(|_| panic!("{} exists", path.display()));
    assert_eq!(&b[..8], b"\x89PNG\r\n\x1a\n", "{} is a PNG", path.display());
    let mut at = 8;
    let mut h = Header {
        width: 0,
        height: 0,
        color_type: 255,
        per_metre: None,
    };
    while at + 8 <= b.len() {
        let len = u32::from_be_bytes(b[at..at + 4].try_into().unwrap()) as usize;
        let kind = &b[at + 4..at + 8];
        let data = &b[at + 8..at + 8 + len];
        match kind {
            b"IHDR" => {
                h.width = u32::from_be_bytes(data[0..4].try_into().unwrap());
                h.height = u32::from_be_bytes(data[4..8].try_into().unwrap());
                h.color_type = data[9];
            }
            b"pHYs" => {
                h.per_metre = Some((
                    u32::from_be_bytes(data[0..4].try_into().unwrap()),
                    u32::from_be_bytes(data[4..8].try_into().unwrap()),
                    data[8],
                ))
            }
            b"IDAT" => break,
            _ => {}
        }
        at += 12 + len;
    }
    h
}

/// 300 dpi in pixels per metre, unit metre (what the pHYs chunk holds).
const DPI_300: (u32, u32, u8) = (11811, 11811, 1);
/// PNG colour types.
const RGB: u8 = 2;
const RGBA: u8 = 6;

/// The Game Crafter's files, built once for the tests that read them (profiles.rs
/// too).
fn the_game_crafter() -> std::path::PathBuf {
    interstate_with("thegamecrafter")
}

#[test]
fn the_game_crafter_faces_are_rgb_at_300_dpi() {
    let dir = the_game_crafter();
    for file in [
        "contracts/001-front.png",
        "contracts/001-back.png",
        "rest-markers/001-front.png",
        "color-markers/003-front.png",
    ] {
        let h = header(&dir.join(file));
        assert_eq!(h.color_type, RGB, "{file}: RGB, no alpha channel");
        assert_eq!(h.per_metre, Some(DPI_300), "{file}: tagged 300 dpi");
    }
    let poker = header(&dir.join("contracts/001-front.png"));
    assert_eq!((poker.width, poker.height), (825, 1125));
}

#[test]
fn a_round_chit_is_flattened_onto_white_outside_its_cut() {
    let dir = the_game_crafter();
    // ImageMagick reads the corner pixel of the 1 in color marker: white paper, not
    // black (what an alpha channel dropped without compositing shows).
    let o = std::process::Command::new("convert")
        .arg(dir.join("rest-markers/001-front.png"))
        .args(["-format", "%[pixel:p{0,0}] %[pixel:p{150,150}]", "info:"])
        .output()
        .expect("imagemagick is installed");
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        text.starts_with("white ") || text.starts_with("srgb(255,255,255) "),
        "{text}"
    );
    assert!(!text.ends_with("white"), "the centre is the chit: {text}");
}

#[test]
fn makeplayingcards_faces_are_rgb_at_300_dpi() {
    let dir = interstate_with("makeplayingcards");
    for file in ["contracts/fronts/001.png", "contracts/backs/001.png"] {
        let h = header(&dir.join(file));
        assert_eq!((h.width, h.height), (822, 1122), "{file}");
        assert_eq!(h.color_type, RGB, "{file}");
        assert_eq!(h.per_metre, Some(DPI_300), "{file}");
    }
}

#[test]
fn format_png_faces_keep_alpha_and_carry_their_dpi() {
    let out = tempfile::tempdir().unwrap();
    let o = run(
        &repo(),
        &[
            "build",
            "parcel-delivery",
            "--format",
            "png",
            "--dpi",
            "150",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{:?}", texts(&o));
    let h = header(
        &out.path()
            .join("parcel-delivery/home/png/trap-counters/001-front.png"),
    );
    assert_eq!(h.color_type, RGBA, "a triangle's outside stays transparent");
    // 150 dpi = 5905.5 px/m, rounded.
    assert_eq!(h.per_metre, Some((5906, 5906, 1)));
}
