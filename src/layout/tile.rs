//! Big parts (boards, mats): one page at real size, and tiles over Letter/A4 with an
//! overlap band, registration targets in the band and a dashed cut guide.

use super::marks::{Anchor, Marks};
use super::{Paper, Placement, Rect, Sheet};
use crate::model::Size;

/// Width of the band two neighbouring tiles share.
pub const OVERLAP: f64 = 12.0;
/// Margin kept free on a tile page (marks and labels live in it).
pub const TILE_MARGIN: f64 = 8.0;
/// Room around a real-size page's bleed for crop marks.
const REAL_MARGIN: f64 = 10.0;

/// One page at the part's own size plus bleed and room for crop marks.
pub fn real_size(face: usize, size: Size, bleed: f64, label: &str) -> Sheet {
    let (w, h, trim) = frame(size, bleed, REAL_MARGIN);
    let mut chrome = Marks::default();
    let gap = bleed + 0.5;
    let len = REAL_MARGIN - 1.5;
    for &x in &[trim.x, trim.right()] {
        chrome.line(x, trim.y - gap, x, trim.y - gap - len);
        chrome.line(x, trim.bottom() + gap, x, trim.bottom() + gap + len);
    }
    for &y in &[trim.y, trim.bottom()] {
        chrome.line(trim.x - gap, y, trim.x - gap - len, y);
        chrome.line(trim.right() + gap, y, trim.right() + gap + len, y);
    }
    chrome.text(
        w / 2.0,
        h - 3.0,
        2.4,
        Anchor::Middle,
        false,
        &format!(
            "{label} — real size {} x {} mm",
            crate::units::fmt_num(size.width),
            crate::units::fmt_num(size.height)
        ),
    );
    single(
        face,
        size,
        bleed,
        REAL_MARGIN,
        chrome,
        format!("{label} — real size"),
    )
}

/// One page exactly the size of the part plus its bleed, no marks: what a print shop
/// (or a pad printer) takes one face at a time.
pub fn one_up(face: usize, size: Size, bleed: f64, label: &str) -> Sheet {
    single(face, size, bleed, 0.0, Marks::default(), label.to_string())
}

/// The page size and the part's trim for one part with `margin` of paper around
/// its bleed.
fn frame(size: Size, bleed: f64, margin: f64) -> (f64, f64, Rect) {
    let trim = Rect {
        x: bleed + margin,
        y: bleed + margin,
        w: size.width,
        h: size.height,
    };
    (
        size.width + 2.0 * (bleed + margin),
        size.height + 2.0 * (bleed + margin),
        trim,
    )
}

/// A sheet holding one part with `margin` of paper around its bleed.
fn single(face: usize, size: Size, bleed: f64, margin: f64, marks: Marks, label: String) -> Sheet {
    let (w, h, trim) = frame(size, bleed, margin);
    Sheet {
        width: w,
        height: h,
        trim,
        bleed: trim.grow(bleed),
        placements: vec![Placement {
            face,
            x: margin,
            y: margin,
            w: size.width + 2.0 * bleed,
            h: size.height + 2.0 * bleed,
            clip: trim.grow(bleed),
            trim,
            rotate180: false,
        }],
        marks: marks.0,
        label,
        back: false,
    }
}

fn count(total: f64, avail: f64) -> usize {
    if total <= avail {
        1
    } else {
        ((total - OVERLAP) / (avail - OVERLAP)).ceil().max(1.0) as usize
    }
}

/// Tiles a big part over `paper` (whichever orientation needs fewer pages). Each
/// tile shows a window of the part; neighbours share an `OVERLAP` band holding two
/// registration targets, and a dashed guide marks where to cut the overlapping tile.
pub fn tiles(face: usize, size: Size, bleed: f64, paper: Paper, label: &str) -> Vec<Sheet> {
    let full = Size {
        width: size.width + 2.0 * bleed,
        height: size.height + 2.0 * bleed,
    };
    let plan = |p: Paper| {
        let (aw, ah) = (p.width - 2.0 * TILE_MARGIN, p.height - 2.0 * TILE_MARGIN);
        (p, aw, ah, count(full.width, aw), count(full.height, ah))
    };
    let (a, b) = (plan(paper), plan(paper.landscape()));
    let (p, aw, ah, cols, rows) = if b.3 * b.4 < a.3 * a.4 { b } else { a };
    let step_x = aw - OVERLAP;
    let step_y = ah - OVERLAP;
    let letters = |r: usize| -> String { ((b'A' + (r % 26) as u8) as char).to_string() };
    let mut sheets = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            // Window of the part (in part coordinates, origin at the bleed corner).
            let wx = c as f64 * step_x;
            let wy = r as f64 * step_y;
            let win = Rect {
                x: wx,
                y: wy,
                w: aw,
                h: ah,
            }
            .intersect(&Rect {
                x: 0.0,
                y: 0.0,
                w: full.width,
                h: full.height,
            });
            let ox = TILE_MARGIN - wx; // page x of the part's origin
            let oy = TILE_MARGIN - wy;
            let clip = Rect {
                x: win.x + ox,
                y: win.y + oy,
                w: win.w,
                h: win.h,
            };
            let part_trim = Rect {
                x: ox + bleed,
                y: oy + bleed,
                w: size.width,
                h: size.height,
            };
            let mut chrome = Marks::default();
            // Registration targets in the shared bands, at the same part position on
            // both tiles.
            let tr = 2.5;
            if c + 1 < cols {
                let bx = clip.right() - OVERLAP / 2.0;
                for f in [0.25, 0.75] {
                    chrome.target(bx, clip.y + clip.h * f, tr);
                }
            }
            if c > 0 {
                let bx = clip.x + OVERLAP / 2.0;
                for f in [0.25, 0.75] {
                    chrome.target(bx, clip.y + clip.h * f, tr);
                }
                chrome.dashed(
                    clip.x + OVERLAP / 2.0,
                    clip.y,
                    clip.x + OVERLAP / 2.0,
                    clip.bottom(),
                );
            }
            if r + 1 < rows {
                let by = clip.bottom() - OVERLAP / 2.0;
                for f in [0.25, 0.75] {
                    chrome.target(clip.x + clip.w * f, by, tr);
                }
            }
            if r > 0 {
                let by = clip.y + OVERLAP / 2.0;
                for f in [0.25, 0.75] {
                    chrome.target(clip.x + clip.w * f, by, tr);
                }
                chrome.dashed(clip.x, by, clip.right(), by);
            }
            let name = format!("{}{}", letters(r), c + 1);
            let mut how = String::new();
            if c > 0 || r > 0 {
                how = format!("; cut along the dashed line{} and glue over the neighbouring tile, matching the targets", if c > 0 && r > 0 { "s" } else { "" });
            }
            chrome.text(
                p.width / 2.0,
                p.height - (TILE_MARGIN - 2.4) / 2.0 - 0.6,
                2.4,
                Anchor::Middle,
                false,
                &format!(
                    "{label} — tile {name} (row {} of {rows}, column {} of {cols}){how}",
                    r + 1,
                    c + 1
                ),
            );
            let trim = part_trim.intersect(&clip);
            sheets.push(Sheet {
                width: p.width,
                height: p.height,
                trim,
                bleed: part_trim.grow(bleed).intersect(&clip),
                placements: vec![Placement {
                    face,
                    x: ox,
                    y: oy,
                    w: full.width,
                    h: full.height,
                    clip,
                    trim: part_trim,
                    rotate180: false,
                }],
                marks: chrome.0,
                label: format!("{label} — tile {name}"),
                back: false,
            });
        }
    }
    sheets
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_cover_the_board_with_overlap() {
        let size = Size {
            width: 609.6,
            height: 406.4,
        };
        let sheets = tiles(0, size, 3.0, Paper::named("letter").unwrap(), "board");
        assert!(sheets.len() >= 6);
        // Neighbouring windows overlap by exactly OVERLAP (in part coordinates).
        let a = &sheets[0].placements[0];
        let b = &sheets[1].placements[0];
        let a_right = a.clip.right() - a.x;
        let b_left = b.clip.x - b.x;
        assert!((a_right - b_left - OVERLAP).abs() < 1e-9);
        // Every tile fits its page.
        for s in &sheets {
            let c = s.placements[0].clip;
            assert!(c.x >= 0.0 && c.right() <= s.width + 1e-9 && c.bottom() <= s.height + 1e-9);
        }
    }

    #[test]
    fn real_size_page_has_room_for_marks() {
        let s = real_size(
            0,
            Size {
                width: 609.6,
                height: 406.4,
            },
            3.0,
            "board",
        );
        assert!((s.trim.w - 609.6).abs() < 1e-9);
        assert!(s.width > 609.6 + 6.0);
    }
}
