//! n-up grids: cards butted together with crop marks (bleed only on the grid's outer
//! edges), chits spaced by their bleed with a cut line around each shape, and back
//! sheets mirrored for a long-edge duplex flip.

use super::marks::{Anchor, Marks};
use super::{Paper, Placement, Rect, Sheet, PRINTER_MARGIN};
use crate::model::{Shape, Size};

/// How a kind of part is laid out on a sheet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridStyle {
    /// Space the parts apart by twice their bleed and draw a cut line around each
    /// shape (chits); otherwise butt them together with crop marks (cards).
    pub cut_lines: bool,
    /// Paper kept free at each edge, in mm.
    pub edge: f64,
    /// Draw thin cut lines along the inner column/row boundaries across the sheet
    /// (pads printed 2-up edge to edge have no room for crop marks outside).
    pub inner_lines: bool,
}

impl GridStyle {
    /// Cards, money, aids: butted, crop marks, 3 mm of paper edge (Letter is only
    /// just tall enough for 3 poker cards with bleed).
    pub const BUTTED: GridStyle = GridStyle {
        cut_lines: false,
        edge: 3.0,
        inner_lines: false,
    };
    /// Chits and tokens: spaced, cut lines, inside the printable area.
    pub const SPACED: GridStyle = GridStyle {
        cut_lines: true,
        edge: PRINTER_MARGIN,
        inner_lines: false,
    };
    /// Pads: butted edge to edge (A5 2-up on A4, half-letter 2-up on Letter).
    pub const EDGE_TO_EDGE: GridStyle = GridStyle {
        cut_lines: false,
        edge: 0.0,
        inner_lines: true,
    };
}

/// One printed part: its front picture, back picture and cut shape.
#[derive(Debug, Clone, Copy)]
pub struct GridItem {
    pub front: usize,
    pub back: Option<usize>,
    pub shape: Shape,
}

struct Geometry {
    paper: Paper,
    cols: usize,
    rows: usize,
    /// Trim top-left of cell (0, 0).
    x0: f64,
    y0: f64,
    pitch_x: f64,
    pitch_y: f64,
}

/// Length of a crop mark when there is room for it.
const MARK_LEN: f64 = 5.0;
/// Gap between the bleed edge and the start of a crop mark.
const MARK_GAP: f64 = 0.5;

fn fit(paper: Paper, size: Size, bleed: f64, gap: f64, edge: f64) -> (usize, usize) {
    let n = |avail: f64, w: f64| -> usize {
        // cols*w + (cols-1)*gap + 2*bleed <= avail
        let k = ((avail - 2.0 * bleed + gap) / (w + gap)).floor();
        if k.is_finite() && k > 0.0 {
            k as usize
        } else {
            0
        }
    };
    (
        n(paper.width - 2.0 * edge, size.width),
        n(paper.height - 2.0 * edge, size.height),
    )
}

/// Lays out `items` on sheets of `paper`. Cards (`cut_lines == false`) are butted
/// together with crop marks; chits are spaced `2 * bleed` apart with cut lines.
/// Sheets with backs are followed by their back sheet, mirrored for a long-edge flip.
pub fn grid(
    items: &[GridItem],
    size: Size,
    bleed: f64,
    style: GridStyle,
    paper: Paper,
    title: &str,
) -> Result<Vec<Sheet>, String> {
    let gap = if style.cut_lines { 2.0 * bleed } else { 0.0 };
    let edge = style.edge;
    let mut best: Option<Geometry> = None;
    for p in [paper, paper.landscape()] {
        let (cols, rows) = fit(p, size, bleed, gap, edge);
        if cols * rows == 0 {
            continue;
        }
        if best.as_ref().is_none_or(|b| cols * rows > b.cols * b.rows) {
            let (pitch_x, pitch_y) = (size.width + gap, size.height + gap);
            let gw = cols as f64 * size.width + (cols - 1) as f64 * gap;
            let gh = rows as f64 * size.height + (rows - 1) as f64 * gap;
            best = Some(Geometry {
                paper: p,
                cols,
                rows,
                x0: (p.width - gw) / 2.0,
                y0: (p.height - gh) / 2.0,
                pitch_x,
                pitch_y,
            });
        }
    }
    let g = best.ok_or_else(|| {
        format!(
            "a {} x {} mm part with {} mm bleed does not fit on {} paper",
            size.width, size.height, bleed, paper.name
        )
    })?;
    let per = g.cols * g.rows;
    let pages = items.len().div_ceil(per);
    let has_backs = items.iter().any(|i| i.back.is_some());
    let mut sheets = Vec::new();
    for (page, chunk) in items.chunks(per).enumerate() {
        let n = format!("{}/{}", page + 1, pages);
        sheets.push(sheet(
            &g,
            chunk,
            size,
            bleed,
            style,
            false,
            &format!("{title} — fronts {n}"),
            has_backs,
        ));
        if has_backs {
            sheets.push(sheet(
                &g,
                chunk,
                size,
                bleed,
                style,
                true,
                &format!("{title} — backs {n} (reverse of the page before; flip on the long edge)"),
                true,
            ));
        }
    }
    Ok(sheets)
}

#[allow(clippy::too_many_arguments)]
fn sheet(
    g: &Geometry,
    chunk: &[GridItem],
    size: Size,
    bleed: f64,
    style: GridStyle,
    back: bool,
    label: &str,
    duplex: bool,
) -> Sheet {
    let cut_lines = style.cut_lines;
    // Occupied cells, after mirroring for the back.
    let cell = |k: usize| -> (usize, usize) {
        let (r, c) = (k / g.cols, k % g.cols);
        (r, if back { g.cols - 1 - c } else { c })
    };
    let mut occupied = vec![vec![false; g.cols]; g.rows];
    for k in 0..chunk.len() {
        let (r, c) = cell(k);
        occupied[r][c] = true;
    }
    let occ = |r: isize, c: isize| -> bool {
        r >= 0
            && c >= 0
            && (r as usize) < g.rows
            && (c as usize) < g.cols
            && occupied[r as usize][c as usize]
    };
    let mut chrome = Marks::default();
    let mut placements = Vec::new();
    let mut trim_all: Option<Rect> = None;
    for (k, item) in chunk.iter().enumerate() {
        let face = if back { item.back } else { Some(item.front) };
        let Some(face) = face else { continue };
        let (r, c) = cell(k);
        let trim = Rect {
            x: g.x0 + c as f64 * g.pitch_x,
            y: g.y0 + r as f64 * g.pitch_y,
            w: size.width,
            h: size.height,
        };
        let clip = if cut_lines {
            trim.grow(bleed)
        } else {
            // Butted: bleed only where no neighbour is.
            let (ri, ci) = (r as isize, c as isize);
            let l = if occ(ri, ci - 1) { 0.0 } else { bleed };
            let rt = if occ(ri, ci + 1) { 0.0 } else { bleed };
            let t = if occ(ri - 1, ci) { 0.0 } else { bleed };
            let b = if occ(ri + 1, ci) { 0.0 } else { bleed };
            Rect {
                x: trim.x - l,
                y: trim.y - t,
                w: trim.w + l + rt,
                h: trim.h + t + b,
            }
        };
        if cut_lines {
            chrome.cut(item.shape, trim);
        }
        trim_all = Some(trim_all.map_or(trim, |a| a.union(&trim)));
        placements.push(Placement {
            face,
            x: trim.x - bleed,
            y: trim.y - bleed,
            w: size.width + 2.0 * bleed,
            h: size.height + 2.0 * bleed,
            clip,
            trim,
            rotate180: false,
        });
    }
    let gw = g.cols as f64 * size.width + (g.cols - 1) as f64 * (g.pitch_x - size.width);
    let gh = g.rows as f64 * size.height + (g.rows - 1) as f64 * (g.pitch_y - size.height);
    let grid_rect = Rect {
        x: g.x0,
        y: g.y0,
        w: gw,
        h: gh,
    };
    if !cut_lines {
        crop_marks(&mut chrome, g, size, bleed, &grid_rect);
    }
    if style.inner_lines {
        for c in 1..g.cols {
            let x = grid_rect.x + c as f64 * size.width;
            chrome.dashed(x, 0.0, x, g.paper.height);
        }
        for r in 1..g.rows {
            let y = grid_rect.y + r as f64 * size.height;
            chrome.dashed(0.0, y, g.paper.width, y);
        }
    }
    label_sheet(&mut chrome, g, bleed, &grid_rect, label, duplex && !back);
    let trim = trim_all.unwrap_or(grid_rect);
    let bleed_box = trim.grow(bleed).intersect(&Rect {
        x: 0.0,
        y: 0.0,
        w: g.paper.width,
        h: g.paper.height,
    });
    Sheet {
        width: g.paper.width,
        height: g.paper.height,
        trim,
        bleed: bleed_box,
        placements,
        marks: chrome.0,
        label: label.to_string(),
        back,
    }
}

/// Crop marks at every column and row line, outside the grid's bleed, cut short so
/// they stay on the paper.
fn crop_marks(chrome: &mut Marks, g: &Geometry, size: Size, bleed: f64, grid: &Rect) {
    let (pw, ph) = (g.paper.width, g.paper.height);
    let start = bleed + MARK_GAP;
    let top_room = (grid.y - start - 0.5).min(MARK_LEN);
    let side_room = (grid.x - start - 0.5).min(MARK_LEN);
    for c in 0..=g.cols {
        let x = grid.x + c as f64 * size.width;
        if top_room > 0.5 {
            chrome.line(x, grid.y - start, x, grid.y - start - top_room);
            chrome.line(
                x,
                grid.bottom() + start,
                x,
                (grid.bottom() + start + top_room).min(ph),
            );
        }
    }
    for r in 0..=g.rows {
        let y = grid.y + r as f64 * size.height;
        if side_room > 0.5 {
            chrome.line(grid.x - start, y, grid.x - start - side_room, y);
            chrome.line(
                grid.right() + start,
                y,
                (grid.right() + start + side_room).min(pw),
                y,
            );
        }
    }
}

/// Puts the sheet's label where there is room: the bottom margin, else the left margin.
fn label_sheet(
    chrome: &mut Marks,
    g: &Geometry,
    bleed: f64,
    grid: &Rect,
    label: &str,
    duplex_front: bool,
) {
    let size = 2.4;
    let text = if duplex_front {
        format!("{label} — print double-sided")
    } else {
        label.to_string()
    };
    let bottom_room = g.paper.height - grid.bottom() - bleed - MARK_LEN - MARK_GAP;
    if bottom_room >= size + 1.5 {
        chrome.text(
            g.paper.width / 2.0,
            g.paper.height - (bottom_room - size) / 2.0 - 1.0,
            size,
            Anchor::Middle,
            false,
            &text,
        );
    } else if grid.x - bleed - MARK_LEN - MARK_GAP >= 3.0 || grid.x >= 10.0 {
        // In the left margin, reading upwards, centred on the middle of the first row
        // so it never meets a crop mark.
        let x = (grid.x - bleed - 1.5).min(PRINTER_MARGIN + size);
        let row_h = g.pitch_y;
        chrome.text(x, grid.y + row_h / 2.0, size, Anchor::Middle, true, &text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{Mark, Stroke};

    fn items(n: usize) -> Vec<GridItem> {
        (0..n)
            .map(|i| GridItem {
                front: i,
                back: Some(1000),
                shape: Shape::Rect,
            })
            .collect()
    }

    /// `n` cards with backs, laid out with `grid` on `paper` (both by name).
    fn laid(n: usize, size: &str, bleed: f64, style: GridStyle, paper: &str) -> Vec<Sheet> {
        let paper = Paper::named(paper).unwrap();
        grid(
            &items(n),
            Size::named(size).unwrap(),
            bleed,
            style,
            paper,
            "t",
        )
        .unwrap()
    }

    #[test]
    fn poker_nine_up_on_letter_with_mirrored_backs() {
        let sheets = laid(10, "poker", 3.0, GridStyle::BUTTED, "letter");
        assert_eq!(sheets.len(), 4, "2 front sheets + 2 back sheets");
        let front = &sheets[0];
        assert_eq!(front.placements.len(), 9);
        assert!((front.trim.w - 190.5).abs() < 1e-9 && (front.trim.h - 266.7).abs() < 1e-9);
        // The back of the first card (top-left) is top-right on the back sheet.
        let f0 = &front.placements[0];
        let b0 = &sheets[1].placements[0];
        assert!(
            (f0.trim.x + f0.trim.w / 2.0 - (215.9 - (b0.trim.x + b0.trim.w / 2.0))).abs() < 1e-9
        );
        assert_eq!(f0.trim.y, b0.trim.y);
        // Inner edges are clipped at the trim; outer edges keep their bleed.
        assert!((f0.clip.x - (f0.trim.x - 3.0)).abs() < 1e-9);
        assert!((f0.clip.right() - f0.trim.right()).abs() < 1e-9);
    }

    #[test]
    fn chits_are_spaced_by_their_bleed() {
        let sheets = laid(5, "chit-3/4in", 1.5, GridStyle::SPACED, "a4");
        let p = &sheets[0].placements;
        assert!((p[1].trim.x - p[0].trim.x - (19.05 + 3.0)).abs() < 1e-9);
        assert!(sheets[0]
            .marks
            .iter()
            .any(|m| matches!(m, Mark::Outline { .. })));
    }

    #[test]
    fn a5_pads_print_two_up_on_a4_landscape() {
        let sheets = laid(4, "a5", 0.0, GridStyle::EDGE_TO_EDGE, "a4");
        let fronts: Vec<_> = sheets
            .iter()
            .filter(|s| s.label.contains("fronts"))
            .collect();
        assert_eq!(fronts.len(), 2);
        assert_eq!(fronts[0].placements.len(), 2);
        assert_eq!((fronts[0].width, fronts[0].height), (297.0, 210.0));
        assert!(
            fronts[0].marks.iter().any(|m| m.stroke() == Stroke::Guide),
            "a cut line between the two pads"
        );
    }

    #[test]
    fn too_big_is_an_error() {
        let letter = Paper::named("letter").unwrap();
        let e = grid(
            &items(1),
            Size {
                width: 400.0,
                height: 400.0,
            },
            3.0,
            GridStyle::BUTTED,
            letter,
            "t",
        )
        .unwrap_err();
        assert!(e.contains("does not fit"));
    }
}
