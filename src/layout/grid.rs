//! n-up grids: cards butted together with crop marks (bleed only on the grid's outer
//! edges), chits spaced by their bleed with a cut line around each shape, pads edge
//! to edge, and back sheets mirrored for a long-edge duplex flip.
//!
//! Duplex sheets are always portrait, like the calibration page, so that a
//! long-edge flip mirrors them left to right and `--back-offset` means the same on
//! every page; parts are laid sideways when more fit that way. One-sided sheets
//! take whichever orientation holds more.

use super::label;
use super::marks::Marks;
use super::{LayoutError, Media, Placement, Rect, Sheet};
use crate::model::{Shape, Size};

/// How a kind of part is laid out on a sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GridStyle {
    /// Cards, money, aids, screens: butted together, bleed around the grid, crop
    /// marks at both ends of every cut, inside the printable area.
    Butted,
    /// Chits and tokens: spaced by twice their bleed, a cut line around each shape.
    Spaced,
    /// Pads: edge to edge (A5 2-up on A4, half-letter 2-up on Letter), a dashed
    /// cut guide between them.
    EdgeToEdge,
}

/// One printed part: its front picture, back picture and cut shape.
#[derive(Debug, Clone, Copy)]
pub struct GridItem {
    pub front: usize,
    pub back: Option<usize>,
    pub shape: Shape,
}

/// A component set to lay out.
#[derive(Debug, Clone, Copy)]
pub struct Parts<'a> {
    pub items: &'a [GridItem],
    pub size: Size,
    pub bleed: f64,
    pub style: GridStyle,
    /// Panels side by side along the part's width, with a fold between each two
    /// (a standing screen); 1 for flat parts.
    pub panels: usize,
    /// The set's name for sheet labels.
    pub title: &'a str,
    /// Backs go on one-sided sheets of their own, to be glued behind their fronts
    /// (a one-sided build of parts too big to fold); otherwise backs are printed
    /// duplex.
    pub glued: bool,
}

impl Parts<'_> {
    /// Whether the parts have backs.
    pub fn two_sided(&self) -> bool {
        self.items.iter().any(|i| i.back.is_some())
    }

    /// Whether the parts are printed on duplex sheets.
    pub fn duplex(&self) -> bool {
        self.two_sided() && !self.glued
    }
}

/// Longest crop mark.
pub(super) const MARK_LEN: f64 = 5.0;
/// Shortest crop mark a layout accepts: shorter ones are hard to see.
pub(super) const MIN_MARK: f64 = 2.0;
/// Gap between the bleed edge and the start of a crop mark.
pub(super) const MARK_GAP: f64 = 0.5;
/// Room a label needs below the bottom marks (2.4 mm text and clearance).
const LABEL_BAND: f64 = 3.6;

/// Where the parts of a grid go on a sheet.
#[derive(Debug, Clone, Copy)]
struct Arrangement {
    media: Media,
    /// Parts laid sideways (a quarter turn).
    turned: bool,
    cols: usize,
    rows: usize,
    /// A part's trim on the page (after any turn).
    cell_w: f64,
    cell_h: f64,
    /// Space between neighbouring trims.
    gap: f64,
    /// Trim top-left corner of cell (0, 0).
    x0: f64,
    y0: f64,
}

impl Arrangement {
    fn per_sheet(&self) -> usize {
        self.cols * self.rows
    }

    fn trim(&self, r: usize, c: usize) -> Rect {
        Rect {
            x: self.x0 + c as f64 * (self.cell_w + self.gap),
            y: self.y0 + r as f64 * (self.cell_h + self.gap),
            w: self.cell_w,
            h: self.cell_h,
        }
    }
}

/// Paper kept free between the page edge and the grid's bleed edge.
fn edge(style: GridStyle, media: &Media) -> f64 {
    match style {
        GridStyle::Butted => media.margin + MIN_MARK + MARK_GAP,
        GridStyle::Spaced => media.margin,
        GridStyle::EdgeToEdge => 0.0,
    }
}

/// How many parts of `w` mm (with `gap` between, `bleed` around) fit in `avail`.
fn count(avail: f64, w: f64, gap: f64, bleed: f64) -> usize {
    let k = ((avail - 2.0 * bleed + gap) / (w + gap) + 1e-9).floor();
    if k.is_finite() && k > 0.0 {
        k as usize
    } else {
        0
    }
}

/// The arrangement holding the most parts: portrait or (one-sided only) landscape
/// paper, parts upright or (not triangles) laid sideways; upright and portrait win
/// ties.
fn arrange(parts: &Parts, media: Media) -> Result<Arrangement, LayoutError> {
    let gap = if parts.style == GridStyle::Spaced {
        2.0 * parts.bleed
    } else {
        0.0
    };
    let mut pages = vec![media];
    if !parts.duplex() {
        pages.push(media.landscape());
    }
    let turnable = parts.items.iter().all(|i| i.shape != Shape::Triangle)
        && (parts.size.width - parts.size.height).abs() > 1e-9;
    let mut best: Option<Arrangement> = None;
    for turned in [false, true] {
        if turned && !turnable {
            continue;
        }
        for &page in &pages {
            let (cw, ch) = if turned {
                (parts.size.height, parts.size.width)
            } else {
                (parts.size.width, parts.size.height)
            };
            let e = edge(parts.style, &page);
            let (pw, ph) = (page.paper.width, page.paper.height);
            let cols = count(pw - 2.0 * e, cw, gap, parts.bleed);
            let rows = count(ph - 2.0 * e, ch, gap, parts.bleed);
            if cols * rows == 0 || best.is_some_and(|b| b.per_sheet() >= cols * rows) {
                continue;
            }
            let gw = cols as f64 * cw + (cols - 1) as f64 * gap;
            let gh = rows as f64 * ch + (rows - 1) as f64 * gap;
            best = Some(Arrangement {
                media: page,
                turned,
                cols,
                rows,
                cell_w: cw,
                cell_h: ch,
                gap,
                x0: (pw - gw) / 2.0,
                y0: (ph - gh) / 2.0,
            });
        }
    }
    best.ok_or(LayoutError::DoesNotFit {
        width: parts.size.width,
        height: parts.size.height,
        bleed: parts.bleed,
        paper: media.paper.name,
        margin: media.margin,
    })
}

/// Lays out `parts` on sheets of `media`. Sheets with backs are followed by their
/// back sheet, mirrored for a long-edge flip.
pub fn grid(parts: &Parts, media: Media) -> Result<Vec<Sheet>, LayoutError> {
    let a = arrange(parts, media)?;
    let pages = parts.items.len().div_ceil(a.per_sheet());
    let mut sheets = Vec::new();
    for (page, chunk) in parts.items.chunks(a.per_sheet()).enumerate() {
        let n = format!("{}/{pages}", page + 1);
        let title = parts.title;
        if !parts.two_sided() {
            sheets.push(sheet(&a, parts, chunk, false, format!("{title} — {n}")));
            continue;
        }
        let (front, back) = if parts.glued {
            (
                format!("{title} — fronts {n}: print one-sided, glue the next page behind this one, crop marks matching"),
                format!("{title} — backs {n}: glue behind the page before, crop marks matching"),
            )
        } else {
            (
                format!("{title} — fronts {n}: print double-sided, flip on the long edge"),
                format!("{title} — backs {n}: the reverse of the page before"),
            )
        };
        sheets.push(sheet(&a, parts, chunk, false, front));
        sheets.push(sheet(&a, parts, chunk, true, back));
    }
    Ok(sheets)
}

/// The cell of each part of a sheet, mirrored on a back sheet.
fn cells(a: &Arrangement, n: usize, back: bool) -> Vec<(usize, usize)> {
    (0..n)
        .map(|k| {
            let (r, c) = (k / a.cols, k % a.cols);
            (r, if back { a.cols - 1 - c } else { c })
        })
        .collect()
}

/// One sheet of a grid: the parts of `chunk` (their backs on a back sheet), their
/// marks and the label.
fn sheet(a: &Arrangement, parts: &Parts, chunk: &[GridItem], back: bool, label: String) -> Sheet {
    let (pw, ph) = (a.media.paper.width, a.media.paper.height);
    let mut s = Sheet::blank(pw, ph, label);
    s.duplex = parts.duplex();
    s.back = back;
    let cells = cells(a, chunk.len(), back);
    let mut occupied = vec![vec![false; a.cols]; a.rows];
    for &(r, c) in &cells {
        occupied[r][c] = true;
    }
    let mut marks = Marks::default();
    for (item, &(r, c)) in chunk.iter().zip(&cells) {
        let face = if back { item.back } else { Some(item.front) };
        let Some(face) = face else { continue };
        let trim = a.trim(r, c);
        let clip = match parts.style {
            GridStyle::Butted | GridStyle::EdgeToEdge => {
                butted_clip(&occupied, r, c, trim, parts.bleed)
            }
            GridStyle::Spaced => {
                marks.cut(item.shape, trim);
                trim.grow(parts.bleed)
            }
        };
        s.placements
            .push(place(face, trim, clip, parts, a.turned, back));
    }
    let cut_lines = marks.0.clone();
    match parts.style {
        GridStyle::Butted => crop_marks(&mut marks, a, parts, &occupied, false),
        GridStyle::EdgeToEdge => cut_guides(&mut marks, a),
        GridStyle::Spaced => {}
    }
    s.marks = marks.0;
    s.fit_boxes(parts.bleed);
    let text = s.label.clone();
    if !label::put(&mut s, a.media.margin, &text) && parts.style == GridStyle::Butted {
        // No strip is free: shorten the bottom marks to make one.
        let mut marks = Marks(cut_lines);
        crop_marks(&mut marks, a, parts, &occupied, true);
        s.marks = marks.0;
        label::put(&mut s, a.media.margin, &text);
    }
    s
}

/// A part whose trim on the page is `trim`: the face picture's box around it.
fn place(
    face: usize,
    trim: Rect,
    clip: Rect,
    parts: &Parts,
    turned: bool,
    back: bool,
) -> Placement {
    let b = parts.bleed;
    Placement {
        face,
        x: trim.x - b,
        y: trim.y - b,
        w: parts.size.width + 2.0 * b,
        h: parts.size.height + 2.0 * b,
        clip,
        trim,
        quarter_turn: turned,
        // The back of a part laid sideways turns the other way: a long-edge flip
        // turns the sheet over its vertical axis.
        rotate180: turned && back,
    }
}

/// Butted parts show their bleed only where no neighbour is.
fn butted_clip(occupied: &[Vec<bool>], r: usize, c: usize, trim: Rect, bleed: f64) -> Rect {
    let occ = |r: isize, c: isize| -> bool {
        r >= 0
            && c >= 0
            && occupied
                .get(r as usize)
                .and_then(|row| row.get(c as usize))
                .copied()
                .unwrap_or(false)
    };
    let (ri, ci) = (r as isize, c as isize);
    let side = |taken: bool| if taken { 0.0 } else { bleed };
    let (l, rt) = (side(occ(ri, ci - 1)), side(occ(ri, ci + 1)));
    let (t, b) = (side(occ(ri - 1, ci)), side(occ(ri + 1, ci)));
    Rect {
        x: trim.x - l,
        y: trim.y - t,
        w: trim.w + l + rt,
        h: trim.h + t + b,
    }
}

/// The cells in use: first and last row, first and last column.
fn used(occupied: &[Vec<bool>]) -> Option<(usize, usize, usize, usize)> {
    let rows: Vec<usize> = (0..occupied.len())
        .filter(|&r| occupied[r].iter().any(|&o| o))
        .collect();
    let cols: Vec<usize> = (0..occupied.first().map_or(0, Vec::len))
        .filter(|&c| occupied.iter().any(|row| row[c]))
        .collect();
    Some((*rows.first()?, *rows.last()?, *cols.first()?, *cols.last()?))
}

/// Crop marks at both ends of every cut through the parts in use, and dashed
/// fold ticks at both ends of every fold of a screen; outside the bleed, as long
/// as the printable area allows (with `short_bottom`, the bottom ones leave room
/// for a label when they can).
fn crop_marks(
    marks: &mut Marks,
    a: &Arrangement,
    parts: &Parts,
    occupied: &[Vec<bool>],
    short_bottom: bool,
) {
    let Some((r0, r1, c0, c1)) = used(occupied) else {
        return;
    };
    let area = a.media.printable();
    let top_left = a.trim(r0, c0);
    let bottom_right = a.trim(r1, c1);
    let grid = top_left.union(&bottom_right);
    let start = parts.bleed + MARK_GAP;
    let room_top = grid.y - start - area.y;
    let room_bottom = area.bottom() - grid.bottom() - start;
    let room_left = grid.x - start - area.x;
    let room_right = area.right() - grid.right() - start;
    let len = |room: f64| room.min(MARK_LEN);
    let bottom = if short_bottom {
        (room_bottom - LABEL_BAND)
            .clamp(MIN_MARK, MARK_LEN)
            .min(room_bottom)
    } else {
        len(room_bottom)
    };
    let (top, left, right) = (len(room_top), len(room_left), len(room_right));
    let mut xs: Vec<(f64, bool)> = (c0..=c1 + 1)
        .map(|c| (a.x0 + c as f64 * a.cell_w, false))
        .collect();
    let mut ys: Vec<(f64, bool)> = (r0..=r1 + 1)
        .map(|r| (a.y0 + r as f64 * a.cell_h, false))
        .collect();
    for k in 1..parts.panels {
        let f = k as f64 / parts.panels as f64;
        if a.turned {
            ys.extend((r0..=r1).map(|r| (a.trim(r, 0).y + f * a.cell_h, true)));
        } else {
            xs.extend((c0..=c1).map(|c| (a.trim(0, c).x + f * a.cell_w, true)));
        }
    }
    let draw = |marks: &mut Marks, x1: f64, y1: f64, x2: f64, y2: f64, fold: bool| {
        if fold {
            marks.dashed(x1, y1, x2, y2);
        } else {
            marks.line(x1, y1, x2, y2);
        }
    };
    for (x, fold) in xs {
        draw(marks, x, grid.y - start, x, grid.y - start - top, fold);
        let y = grid.bottom() + start;
        draw(marks, x, y, x, y + bottom, fold);
    }
    for (y, fold) in ys {
        draw(marks, grid.x - start, y, grid.x - start - left, y, fold);
        let x = grid.right() + start;
        draw(marks, x, y, x + right, y, fold);
    }
}

/// Dashed cut guides between pads printed edge to edge, inside the printable area.
fn cut_guides(marks: &mut Marks, a: &Arrangement) {
    let area = a.media.printable();
    for c in 1..a.cols {
        let x = a.x0 + c as f64 * a.cell_w;
        marks.dashed(x, area.y, x, area.bottom());
    }
    for r in 1..a.rows {
        let y = a.y0 + r as f64 * a.cell_h;
        marks.dashed(area.x, y, area.right(), y);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{Mark, Paper, Stroke};

    fn items(n: usize, backs: bool) -> Vec<GridItem> {
        (0..n)
            .map(|i| GridItem {
                front: i,
                back: backs.then_some(1000),
                shape: Shape::Rect,
            })
            .collect()
    }

    /// `n` parts laid out with `grid` on `paper` (both by name), 4.2 mm margin.
    fn laid(
        n: usize,
        backs: bool,
        size: &str,
        bleed: f64,
        style: GridStyle,
        paper: &str,
    ) -> Vec<Sheet> {
        let items = items(n, backs);
        let parts = Parts {
            items: &items,
            size: Size::named(size).unwrap(),
            bleed,
            style,
            panels: 1,
            title: "t",
            glued: false,
        };
        grid(&parts, Media::new(Paper::named(paper).unwrap(), 4.2)).unwrap()
    }

    /// Every line and label of the sheet lies inside the printable area.
    fn inside(s: &Sheet, m: f64) {
        for mark in &s.marks {
            let b = mark.bounds();
            assert!(
                b.x >= m - 1e-9
                    && b.y >= m - 1e-9
                    && b.right() <= s.width - m + 1e-9
                    && b.bottom() <= s.height - m + 1e-9,
                "{mark:?} outside the printable area of {} x {}",
                s.width,
                s.height
            );
        }
    }

    #[test]
    fn poker_on_letter_with_backs_is_eight_up_sideways_on_portrait_sheets() {
        let sheets = laid(10, true, "poker", 3.0, GridStyle::Butted, "letter");
        assert_eq!(sheets.len(), 4, "2 front sheets + 2 back sheets");
        let front = &sheets[0];
        assert_eq!((front.width, front.height), (215.9, 279.4));
        assert_eq!(front.placements.len(), 8);
        assert!(front
            .placements
            .iter()
            .all(|p| p.quarter_turn && !p.rotate180));
        assert!(sheets[1]
            .placements
            .iter()
            .all(|p| p.quarter_turn && p.rotate180));
        // The back of the first part (top-left) is top-right on the back sheet.
        let f0 = &front.placements[0];
        let b0 = &sheets[1].placements[0];
        assert!(
            (f0.trim.x + f0.trim.w / 2.0 - (215.9 - (b0.trim.x + b0.trim.w / 2.0))).abs() < 1e-9
        );
        assert_eq!(f0.trim.y, b0.trim.y);
        // Inner edges are clipped at the trim; outer edges keep their bleed.
        assert!((f0.clip.x - (f0.trim.x - 3.0)).abs() < 1e-9);
        assert!((f0.clip.right() - f0.trim.right()).abs() < 1e-9);
        for s in &sheets {
            inside(s, 4.2);
        }
        assert!(sheets[1].back && sheets[1].duplex && sheets[0].duplex && !sheets[0].back);
    }

    #[test]
    fn one_sided_poker_on_letter_is_eight_up_on_landscape_sheets() {
        let sheets = laid(8, false, "poker", 3.0, GridStyle::Butted, "letter");
        assert_eq!(sheets.len(), 1);
        assert_eq!((sheets[0].width, sheets[0].height), (279.4, 215.9));
        assert!(sheets[0].placements.iter().all(|p| !p.quarter_turn));
        inside(&sheets[0], 4.2);
    }

    #[test]
    fn poker_on_a4_is_nine_up_with_marks_at_both_ends_of_every_cut() {
        let sheets = laid(9, true, "poker", 3.0, GridStyle::Butted, "a4");
        let s = &sheets[0];
        assert_eq!(s.placements.len(), 9);
        let crop: Vec<&Mark> = s
            .marks
            .iter()
            .filter(|m| m.stroke() == Stroke::Crop && !matches!(m, Mark::Label { .. }))
            .collect();
        // 4 vertical cuts and 4 horizontal cuts, a mark at each end.
        assert_eq!(crop.len(), 16);
        for m in &crop {
            let b = m.bounds();
            assert!(b.w.max(b.h) >= MIN_MARK - 1e-9, "{m:?}");
        }
        inside(s, 4.2);
        assert!(s.marks.iter().any(|m| matches!(m, Mark::Label { .. })));
    }

    #[test]
    fn a_partial_sheet_has_marks_only_around_the_rows_in_use() {
        let sheets = laid(2, false, "poker", 3.0, GridStyle::Butted, "a4");
        let s = &sheets[0];
        let lowest = s
            .placements
            .iter()
            .map(|p| p.trim.bottom())
            .fold(0.0, f64::max);
        for m in s.marks.iter().filter(|m| m.stroke() == Stroke::Crop) {
            if let Mark::Line { from, .. } = m {
                assert!(
                    from.1 <= lowest + 10.0,
                    "no marks below the last row: {m:?}"
                );
            }
        }
    }

    #[test]
    fn chits_are_spaced_by_their_bleed() {
        let sheets = laid(5, false, "chit-3/4in", 1.5, GridStyle::Spaced, "a4");
        let p = &sheets[0].placements;
        assert!((p[1].trim.x - p[0].trim.x - (19.05 + 3.0)).abs() < 1e-9);
        assert!(sheets[0]
            .marks
            .iter()
            .any(|m| matches!(m, Mark::Outline { .. })));
        inside(&sheets[0], 4.2);
    }

    #[test]
    fn a5_pads_print_two_up_on_a4_landscape() {
        let sheets = laid(4, false, "a5", 0.0, GridStyle::EdgeToEdge, "a4");
        assert_eq!(sheets.len(), 2);
        assert_eq!(sheets[0].placements.len(), 2);
        assert_eq!((sheets[0].width, sheets[0].height), (297.0, 210.0));
        assert!(
            sheets[0].marks.iter().any(|m| m.stroke() == Stroke::Guide),
            "a cut line between the two pads"
        );
        inside(&sheets[0], 4.2);
    }

    #[test]
    fn screens_get_fold_ticks() {
        let items = items(1, true);
        let parts = Parts {
            items: &items,
            size: Size {
                width: 255.0,
                height: 120.0,
            },
            bleed: 3.0,
            style: GridStyle::Butted,
            panels: 3,
            title: "screen",
            glued: false,
        };
        let sheets = grid(&parts, Media::new(Paper::named("letter").unwrap(), 4.2)).unwrap();
        assert_eq!(sheets.len(), 2);
        let s = &sheets[0];
        assert!(
            s.placements[0].quarter_turn,
            "laid sideways on a portrait sheet"
        );
        // Two folds, a dashed tick at each end.
        let folds = s
            .marks
            .iter()
            .filter(|m| m.stroke() == Stroke::Guide)
            .count();
        assert_eq!(folds, 4);
        inside(s, 4.2);
    }

    #[test]
    fn too_big_is_an_error() {
        let items = items(1, false);
        let parts = Parts {
            items: &items,
            size: Size {
                width: 400.0,
                height: 400.0,
            },
            bleed: 3.0,
            style: GridStyle::Butted,
            panels: 1,
            title: "t",
            glued: false,
        };
        let e = grid(&parts, Media::new(Paper::named("letter").unwrap(), 4.2)).unwrap_err();
        assert!(matches!(e, LayoutError::DoesNotFit { .. }));
        assert!(e.to_string().contains("does not fit"));
    }
}
