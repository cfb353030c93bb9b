//! Big parts (boards, mats): one page at real size, and tiles over Letter/A4.
//!
//! Tiles: the fewest pages in either orientation; every tile shows a full page of
//! board (the overlap between neighbours grows instead of leaving a sliver on the
//! last one). The tile to the right of a seam (or below it) lies on top: it is cut
//! along the dashed line in the middle of the shared band and glued over its
//! neighbour. Alignment marks are half targets: the top tile's halves lie in the
//! strip that is cut away, its neighbour's in the strip that the top tile covers,
//! so nothing of them shows on the assembled board.

use super::grid::MARK_GAP;
use super::label;
use super::marks::{Anchor, LabelText, Marks, Toward, SEAM_CLEARANCE};
use super::{Media, Placement, Rect, Sheet};
use crate::model::Size;

/// Least width of the band two neighbouring tiles share: half of it is cut away
/// from the top tile, half is covered on the other, each holding half targets.
pub const MIN_OVERLAP: f64 = 12.0;
/// Paper between the printable area and a tile's art, for the board's crop marks.
const MARK_ROOM: f64 = 3.5;
/// Paper below a tile's art for its label.
const LABEL_ROOM: f64 = 3.6;
/// Radius of an alignment target.
const TARGET_R: f64 = 2.5;
/// Room around a real-size page's bleed for crop marks.
const REAL_MARGIN: f64 = 10.0;

/// One page at the part's own size plus bleed and room for crop marks (for a print
/// shop: home printers take the tiles).
pub fn real_size(face: usize, size: Size, bleed: f64, label: &str) -> Sheet {
    let mut s = single(
        face,
        size,
        bleed,
        REAL_MARGIN,
        format!("{label} — real size"),
    );
    let trim = s.trim;
    let mut chrome = Marks::default();
    let gap = bleed + MARK_GAP;
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
        s.width / 2.0,
        s.height - 3.0,
        2.4,
        Anchor::Middle,
        false,
        &format!(
            "{label} — real size {} x {} mm",
            crate::units::fmt_num(size.width),
            crate::units::fmt_num(size.height)
        ),
    );
    s.marks = chrome.0;
    s
}

/// One page exactly the size of the part plus its bleed, no marks: what a print shop
/// (or a pad printer) takes one face at a time.
pub fn one_up(face: usize, size: Size, bleed: f64, label: &str) -> Sheet {
    single(face, size, bleed, 0.0, label.to_string())
}

/// A sheet holding one part with `margin` of paper around its bleed.
fn single(face: usize, size: Size, bleed: f64, margin: f64, label: String) -> Sheet {
    let trim = Rect {
        x: bleed + margin,
        y: bleed + margin,
        w: size.width,
        h: size.height,
    };
    let mut s = Sheet::blank(
        size.width + 2.0 * (bleed + margin),
        size.height + 2.0 * (bleed + margin),
        label,
    );
    s.placements.push(Placement {
        face,
        x: margin,
        y: margin,
        w: size.width + 2.0 * bleed,
        h: size.height + 2.0 * bleed,
        clip: trim.grow(bleed),
        trim,
        quarter_turn: false,
        rotate180: false,
    });
    s.fit_boxes(bleed);
    s
}

/// How one side of a board is split: the number of tiles, the board shown on
/// each, and the distance from one tile's window to the next.
#[derive(Debug, Clone, Copy)]
struct Axis {
    count: usize,
    window: f64,
    step: f64,
}

impl Axis {
    /// `full` mm of board over pages with `avail` mm for art.
    fn split(full: f64, avail: f64) -> Axis {
        if full <= avail {
            return Axis {
                count: 1,
                window: full,
                step: 0.0,
            };
        }
        let count = ((full - MIN_OVERLAP) / (avail - MIN_OVERLAP))
            .ceil()
            .max(2.0) as usize;
        Axis {
            count,
            window: avail,
            step: (full - avail) / (count - 1) as f64,
        }
    }

    /// Width of the band neighbouring tiles share.
    fn overlap(&self) -> f64 {
        self.window - self.step
    }
}

/// The tiles of a board on one orientation of the paper.
#[derive(Debug, Clone, Copy)]
struct Plan {
    media: Media,
    x: Axis,
    y: Axis,
    /// The art window's top-left corner on every tile page.
    left: f64,
    top: f64,
}

impl Plan {
    fn new(full: Size, media: Media) -> Plan {
        let (pw, ph) = (media.paper.width, media.paper.height);
        let inset = media.margin + MARK_ROOM;
        let (aw, ah) = (pw - 2.0 * inset, ph - 2.0 * inset - LABEL_ROOM);
        let (x, y) = (Axis::split(full.width, aw), Axis::split(full.height, ah));
        Plan {
            media,
            x,
            y,
            left: (pw - x.window) / 2.0,
            top: inset + (ah - y.window) / 2.0,
        }
    }

    fn pages(&self) -> usize {
        self.x.count * self.y.count
    }

    fn window(&self) -> Rect {
        Rect {
            x: self.left,
            y: self.top,
            w: self.x.window,
            h: self.y.window,
        }
    }
}

/// The name of tile row `r`, column `c`: A1, A2, ..., B1, ...
fn tile_name(r: usize, c: usize) -> String {
    format!("{}{}", (b'A' + (r % 26) as u8) as char, c + 1)
}

/// Tiles a big part over `media` (whichever orientation needs fewer pages; the
/// paper as given on ties).
pub fn tiles(face: usize, size: Size, bleed: f64, media: Media, label: &str) -> Vec<Sheet> {
    let full = Size {
        width: size.width + 2.0 * bleed,
        height: size.height + 2.0 * bleed,
    };
    let (a, b) = (Plan::new(full, media), Plan::new(full, media.landscape()));
    let plan = if b.pages() < a.pages() { b } else { a };
    let mut sheets = Vec::new();
    for r in 0..plan.y.count {
        for c in 0..plan.x.count {
            sheets.push(tile(&plan, face, size, bleed, (r, c), label));
        }
    }
    sheets
}

/// Tile (`r`, `c`) of the plan.
fn tile(
    plan: &Plan,
    face: usize,
    size: Size,
    bleed: f64,
    (r, c): (usize, usize),
    label: &str,
) -> Sheet {
    let win = plan.window();
    // Page position of the board's bleed corner.
    let ox = win.x - c as f64 * plan.x.step;
    let oy = win.y - r as f64 * plan.y.step;
    let trim = Rect {
        x: ox + bleed,
        y: oy + bleed,
        w: size.width,
        h: size.height,
    };
    let name = tile_name(r, c);
    let mut s = Sheet::blank(
        plan.media.paper.width,
        plan.media.paper.height,
        format!("{label} — tile {name}"),
    );
    s.placements.push(Placement {
        face,
        x: ox,
        y: oy,
        w: size.width + 2.0 * bleed,
        h: size.height + 2.0 * bleed,
        clip: win,
        trim,
        quarter_turn: false,
        rotate180: false,
    });
    s.trim = trim.intersect(&win);
    s.bleed = trim.grow(bleed).intersect(&win);
    let mut marks = Marks::default();
    seam_marks(&mut marks, plan, (r, c));
    corner_marks(&mut marks, plan, (r, c), trim);
    s.marks = marks.0;
    let text = if plan.x.count * plan.y.count == 1 {
        // The whole part on one page: nothing to assemble.
        s.label = format!("{label} — real size on one page");
        format!("{}: cut along the crop marks", s.label)
    } else {
        format!("{} {}", s.label, instructions(plan, (r, c)))
    };
    label::put(&mut s, plan.media.margin, &LabelText::new(&text));
    s
}

/// What to do with tile (`r`, `c`).
fn instructions(plan: &Plan, (r, c): (usize, usize)) -> String {
    let place = format!(
        "(row {} of {}, column {} of {})",
        r + 1,
        plan.y.count,
        c + 1,
        plan.x.count
    );
    let mut under = Vec::new();
    if c > 0 {
        under.push(tile_name(r, c - 1));
    }
    if r > 0 {
        under.push(tile_name(r - 1, c));
    }
    if under.is_empty() {
        return format!("{place}: the tiles after it are glued over it");
    }
    let lines = if under.len() > 1 { "lines" } else { "line" };
    format!(
        "{place}: cut on the dashed {lines}, glue over {} with the cut edge on the flat side of the half targets",
        under.join(" and ")
    )
}

/// The seams of tile (`r`, `c`): on a seam it lies on top of, the dashed cut line
/// and half targets in the strip cut away; on a seam its neighbour lies on, half
/// targets in the strip that neighbour covers.
fn seam_marks(marks: &mut Marks, plan: &Plan, (r, c): (usize, usize)) {
    let win = plan.window();
    let area = plan.media.printable();
    let (ovx, ovy) = (plan.x.overlap(), plan.y.overlap());
    let r_of = |ov: f64| TARGET_R.min((ov / 2.0 - SEAM_CLEARANCE) / 1.6);
    let at = |len: f64| [0.25 * len, 0.75 * len];
    if c > 0 {
        let x = win.x + ovx / 2.0;
        marks.dashed(x, area.y, x, win.bottom() + MARK_ROOM);
        for y in at(win.h) {
            marks.half_target(x, win.y + y, r_of(ovx), Toward::Left);
        }
    }
    if c + 1 < plan.x.count {
        let x = win.right() - ovx / 2.0;
        for y in at(win.h) {
            marks.half_target(x, win.y + y, r_of(ovx), Toward::Right);
        }
    }
    if r > 0 {
        let y = win.y + ovy / 2.0;
        marks.dashed(area.x, y, area.right(), y);
        for x in at(win.w) {
            marks.half_target(win.x + x, y, r_of(ovy), Toward::Up);
        }
    }
    if r + 1 < plan.y.count {
        let y = win.bottom() - ovy / 2.0;
        for x in at(win.w) {
            marks.half_target(win.x + x, y, r_of(ovy), Toward::Down);
        }
    }
}

/// Crop marks at the corners of the board's trim that lie on tile (`r`, `c`), in
/// the paper around the art.
fn corner_marks(marks: &mut Marks, plan: &Plan, (r, c): (usize, usize), trim: Rect) {
    let win = plan.window();
    let area = plan.media.printable();
    let (first_c, last_c) = (c == 0, c + 1 == plan.x.count);
    let (first_r, last_r) = (r == 0, r + 1 == plan.y.count);
    let up = (win.y - MARK_GAP, area.y);
    let down = (
        win.bottom() + MARK_GAP,
        (win.bottom() + MARK_ROOM).min(area.bottom()),
    );
    let left = (win.x - MARK_GAP, area.x);
    let right = (win.right() + MARK_GAP, area.right());
    let mut corner = |x: f64, y: f64, v: (f64, f64), h: (f64, f64)| {
        marks.line(x, v.0, x, v.1);
        marks.line(h.0, y, h.1, y);
    };
    if first_r && first_c {
        corner(trim.x, trim.y, up, left);
    }
    if first_r && last_c {
        corner(trim.right(), trim.y, up, right);
    }
    if last_r && first_c {
        corner(trim.x, trim.bottom(), down, left);
    }
    if last_r && last_c {
        corner(trim.right(), trim.bottom(), down, right);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{Mark, Paper};

    fn letter() -> Media {
        Media::new(Paper::named("letter").unwrap(), 4.2)
    }

    #[test]
    fn tiles_cover_the_board_with_overlap_and_no_slivers() {
        let size = Size {
            width: 609.6,
            height: 406.4,
        };
        let sheets = tiles(0, size, 3.0, letter(), "board");
        // 615.6 x 412.4 mm with bleed: 4 x 2 portrait pages (3 x 3 landscape).
        assert_eq!(sheets.len(), 8);
        assert_eq!(sheets[0].height, 279.4);
        let a = &sheets[0].placements[0];
        let b = &sheets[1].placements[0];
        // Neighbouring windows overlap by at least MIN_OVERLAP (in part coordinates).
        let a_right = a.clip.right() - a.x;
        let b_left = b.clip.x - b.x;
        assert!(a_right - b_left >= MIN_OVERLAP - 1e-9);
        // Every tile shows a whole window of board, inside the printable area.
        for s in &sheets {
            let c = s.placements[0].clip;
            assert!((c.w - a.clip.w).abs() < 1e-9 && (c.h - a.clip.h).abs() < 1e-9);
            assert!(c.x >= 4.2 && c.right() <= s.width - 4.2 && c.bottom() <= s.height - 4.2);
            for m in &s.marks {
                let r = m.bounds();
                assert!(
                    r.x >= 4.2 - 1e-9
                        && r.y >= 4.2 - 1e-9
                        && r.right() <= s.width - 4.2 + 1e-9
                        && r.bottom() <= s.height - 4.2 + 1e-9,
                    "{m:?}"
                );
            }
        }
        // The last tile covers the board's far corner.
        let last = &sheets[7].placements[0];
        assert!((last.clip.right() - (last.x + 615.6)).abs() < 1e-9);
        assert!((last.clip.bottom() - (last.y + 412.4)).abs() < 1e-9);
    }

    #[test]
    fn half_targets_stay_off_the_assembled_art() {
        let size = Size {
            width: 400.0,
            height: 250.0,
        };
        let sheets = tiles(0, size, 3.0, letter(), "board");
        let (a, b) = (&sheets[0], &sheets[1]);
        let (pa, pb) = (&a.placements[0], &b.placements[0]);
        // The seam in board coordinates: the dashed line on the top tile (b).
        let seam = b
            .marks
            .iter()
            .find_map(|m| match m {
                Mark::Line { from, to, .. }
                    if from.0 == to.0 && m.stroke() == crate::layout::Stroke::Guide =>
                {
                    Some(from.0 - pb.x)
                }
                _ => None,
            })
            .expect("a cut line on the second tile");
        // The targets on this seam (a third column has its own seam).
        for m in &a.marks {
            if let Mark::Target {
                half: Some(Toward::Right),
                ..
            } = m
            {
                assert!(m.bounds().x - pa.x > seam, "covered by the top tile: {m:?}");
            }
        }
        for m in &b.marks {
            if let Mark::Target {
                half: Some(Toward::Left),
                ..
            } = m
            {
                assert!(m.bounds().right() - pb.x < seam, "cut away: {m:?}");
            }
        }
    }

    #[test]
    fn a_board_that_fits_is_one_page() {
        let size = Size {
            width: 254.0,
            height: 184.15,
        };
        let sheets = tiles(0, size, 3.0, letter(), "mat");
        assert_eq!(sheets.len(), 1);
        let corners = sheets[0]
            .marks
            .iter()
            .filter(|m| m.stroke() == crate::layout::Stroke::Crop && matches!(m, Mark::Line { .. }))
            .count();
        assert_eq!(corners, 8, "two crop marks at each corner of the trim");
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
