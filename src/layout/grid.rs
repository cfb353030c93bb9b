//! n-up grids: cards butted together with crop marks (bleed only on the grid's outer
//! edges), chits spaced by their bleed with a cut line around each shape, pads edge
//! to edge, and back sheets mirrored for a long-edge duplex flip.
//!
//! Duplex sheets are always portrait, like the calibration page, so that a
//! long-edge flip mirrors them left to right and `--back-offset` means the same on
//! every page; parts are laid sideways when more fit that way. One-sided sheets
//! take whichever orientation holds more.

use super::label;
use super::marks::{LabelText, Marks};
use super::{LayoutError, Media, Placement, Rect, Sheet};
use crate::model::layout::{Orientation, Request};
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
    /// Parts per sheet, orientation and gutter as the designer asked
    /// ([`Request`]); what it leaves open is chosen here.
    pub request: Request,
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
    /// The bleed shown beyond the grid's outer trims, left and right and above
    /// and below: the parts' bleed, unless a grid asked for leaves less room for
    /// the crop marks.
    outer: (f64, f64),
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

/// The space between parts when the designer gives no gutter: none between cards
/// (butted, cut once), twice the bleed between chits (each shows all its bleed).
fn default_gap(parts: &Parts) -> f64 {
    if parts.style == GridStyle::Spaced {
        2.0 * parts.bleed
    } else {
        0.0
    }
}

/// Whether parts may lie upright, and whether sideways (a quarter turn): as asked,
/// and by default either way; triangles only upright, and squares gain nothing
/// from a turn.
fn ways(parts: &Parts) -> Result<(bool, bool), LayoutError> {
    let triangle = parts.items.iter().any(|i| i.shape == Shape::Triangle);
    let square = (parts.size.width - parts.size.height).abs() <= 1e-9;
    match parts.request.orientation.unwrap_or(Orientation::Auto) {
        Orientation::Sideways if triangle => Err(LayoutError::TriangleSideways),
        Orientation::Auto => Ok((true, !triangle && !square)),
        o => Ok(o.allows()),
    }
}

/// One way to lay parts out: the paper, and whether they are turned.
#[derive(Clone, Copy)]
struct Way {
    page: Media,
    turned: bool,
    /// A part's trim as it lies on the page.
    cw: f64,
    ch: f64,
}

impl Way {
    /// The paper's length kept for the grid along each axis (marks' room aside).
    fn avail(&self, style: GridStyle) -> (f64, f64) {
        let e = edge(style, &self.page);
        (
            self.page.paper.width - 2.0 * e,
            self.page.paper.height - 2.0 * e,
        )
    }

    /// The arrangement of `cols` x `rows` parts with `outer` bleed, centred.
    fn arrangement(&self, cols: usize, rows: usize, gap: f64, outer: (f64, f64)) -> Arrangement {
        let gw = cols as f64 * self.cw + (cols - 1) as f64 * gap;
        let gh = rows as f64 * self.ch + (rows - 1) as f64 * gap;
        Arrangement {
            media: self.page,
            turned: self.turned,
            cols,
            rows,
            cell_w: self.cw,
            cell_h: self.ch,
            gap,
            outer,
            x0: (self.page.paper.width - gw) / 2.0,
            y0: (self.page.paper.height - gh) / 2.0,
        }
    }
}

/// Every way to lay parts out, in order of preference: upright before sideways,
/// portrait paper before landscape (landscape only for one-sided sheets).
fn candidates(parts: &Parts, media: Media) -> Result<Vec<Way>, LayoutError> {
    let (upright, sideways) = ways(parts)?;
    let mut pages = vec![media];
    if !parts.duplex() {
        pages.push(media.landscape());
    }
    let (w, h) = (parts.size.width, parts.size.height);
    let mut out = Vec::new();
    for (turned, allowed) in [(false, upright), (true, sideways)] {
        for &page in pages.iter().filter(|_| allowed) {
            let (cw, ch) = if turned { (h, w) } else { (w, h) };
            out.push(Way {
                page,
                turned,
                cw,
                ch,
            });
        }
    }
    Ok(out)
}

/// The arrangement holding the most parts (the first way on a tie); or, for a
/// grid asked for, the first way that holds it.
fn arrange(parts: &Parts, media: Media) -> Result<Arrangement, LayoutError> {
    let gap = parts.request.gutter.unwrap_or_else(|| default_gap(parts));
    let ways = candidates(parts, media)?;
    if let Some(grid) = parts.request.grid {
        return arrange_grid(parts, media, &ways, grid, gap);
    }
    let b = parts.bleed;
    let mut best: Option<Arrangement> = None;
    for way in ways {
        let (aw, ah) = way.avail(parts.style);
        let cols = count(aw, way.cw, gap, b);
        let rows = count(ah, way.ch, gap, b);
        if cols * rows == 0 || best.is_some_and(|a| a.per_sheet() >= cols * rows) {
            continue;
        }
        best = Some(way.arrangement(cols, rows, gap, (b, b)));
    }
    best.ok_or(LayoutError::DoesNotFit {
        width: parts.size.width,
        height: parts.size.height,
        bleed: parts.bleed,
        paper: media.paper.name,
        margin: media.margin,
    })
}

/// A grid of `cols` x `rows` as asked: the first way it fits with the parts' whole
/// bleed around it, else the first way it fits with less bleed beyond its outer
/// trims (as much as leaves room for the crop marks), else an error saying what
/// it needs.
fn arrange_grid(
    parts: &Parts,
    media: Media,
    ways: &[Way],
    (cols, rows): (usize, usize),
    gap: f64,
) -> Result<Arrangement, LayoutError> {
    let b = parts.bleed;
    // The bleed that fits beyond the grid along an axis of `avail` mm.
    let outer = |avail: f64, n: usize, len: f64| {
        let grid = n as f64 * len + (n - 1) as f64 * gap;
        ((avail - grid) / 2.0 + 1e-9).min(b)
    };
    let fits = |way: &Way| {
        let (aw, ah) = way.avail(parts.style);
        (outer(aw, cols, way.cw), outer(ah, rows, way.ch))
    };
    if let Some(way) = ways.iter().find(|w| {
        let (x, y) = fits(w);
        x >= b && y >= b
    }) {
        return Ok(way.arrangement(cols, rows, gap, (b, b)));
    }
    let shorter = ways
        .iter()
        .map(|w| (w, fits(w)))
        .filter(|(_, (x, y))| *x >= 0.0 && *y >= 0.0)
        .max_by(|a, b| a.1 .0.min(a.1 .1).total_cmp(&b.1 .0.min(b.1 .1)));
    if let Some((way, (x, y))) = shorter {
        return Ok(way.arrangement(cols, rows, gap, (x.max(0.0), y.max(0.0))));
    }
    // How much room is missing along the tighter axis, for the way that comes
    // closest.
    let (turned, short) = ways
        .iter()
        .map(|w| {
            let (x, y) = fits(w);
            (w.turned, -2.0 * x.min(y).min(0.0))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap_or((false, 0.0));
    Err(LayoutError::GridDoesNotFit {
        cols,
        rows,
        width: parts.size.width,
        height: parts.size.height,
        turned,
        short,
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
                butted_clip(&occupied, r, c, trim, a, parts.bleed)
            }
            GridStyle::Spaced => {
                marks.cut(item.shape, trim);
                trim.grow(parts.bleed.min(a.gap / 2.0))
            }
        };
        s.placements
            .push(place(face, trim, clip, parts, a.turned, back));
    }
    let cut_lines = marks.0.clone();
    match parts.style {
        GridStyle::Butted => crop_marks(&mut marks, a, parts, &occupied, Short::None),
        GridStyle::EdgeToEdge => cut_guides(&mut marks, a),
        GridStyle::Spaced => {}
    }
    s.marks = marks.0;
    s.fit_boxes(parts.bleed);
    if a.outer != (parts.bleed, parts.bleed) || a.gap > 0.0 {
        // The bleed printed: what the parts show beyond their trims.
        s.bleed = s
            .placements
            .iter()
            .map(|p| p.clip)
            .reduce(|a, b| a.union(&b))
            .unwrap_or(s.trim);
    }
    let text = LabelText::new(&s.label);
    if parts.style != GridStyle::Butted {
        label::put(&mut s, a.media.margin, &text);
        return s;
    }
    // No strip is free: shorten the bottom marks to make one, then the left ones
    // too (for a label reading upwards).
    for short in [Short::None, Short::Bottom, Short::BottomAndLeft] {
        let mut marks = Marks(cut_lines.clone());
        crop_marks(&mut marks, a, parts, &occupied, short);
        s.marks = marks.0;
        if label::put_whole(&mut s, a.media.margin, &text) {
            return s;
        }
    }
    label::put(&mut s, a.media.margin, &text);
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

/// Where a neighbour is, a part shows its bleed into the gutter between them (up
/// to half of it: none when butted); elsewhere it shows the grid's outer bleed.
fn butted_clip(
    occupied: &[Vec<bool>],
    r: usize,
    c: usize,
    trim: Rect,
    a: &Arrangement,
    bleed: f64,
) -> Rect {
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
    let inner = bleed.min(a.gap / 2.0);
    let side = |taken: bool, outer: f64| if taken { inner } else { outer };
    let (l, rt) = (
        side(occ(ri, ci - 1), a.outer.0),
        side(occ(ri, ci + 1), a.outer.0),
    );
    let (t, b) = (
        side(occ(ri - 1, ci), a.outer.1),
        side(occ(ri + 1, ci), a.outer.1),
    );
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

/// Which crop marks give way to a sheet's label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Short {
    None,
    Bottom,
    BottomAndLeft,
}

/// Crop marks at both ends of every cut through the parts in use, and dashed
/// fold ticks at both ends of every fold of a screen; outside the bleed, as long
/// as the printable area allows (`short`: the bottom ones, or the bottom and left
/// ones, leave room for a label when they can).
fn crop_marks(
    marks: &mut Marks,
    a: &Arrangement,
    parts: &Parts,
    occupied: &[Vec<bool>],
    short: Short,
) {
    let Some((r0, r1, c0, c1)) = used(occupied) else {
        return;
    };
    let area = a.media.printable();
    let top_left = a.trim(r0, c0);
    let bottom_right = a.trim(r1, c1);
    let grid = top_left.union(&bottom_right);
    // Marks start past the bleed the grid shows beyond its outer trims.
    let (start_x, start_y) = (a.outer.0 + MARK_GAP, a.outer.1 + MARK_GAP);
    let room_top = grid.y - start_y - area.y;
    let room_bottom = area.bottom() - grid.bottom() - start_y;
    let room_left = grid.x - start_x - area.x;
    let room_right = area.right() - grid.right() - start_x;
    let len = |room: f64| room.min(MARK_LEN);
    let shortened = |room: f64| (room - LABEL_BAND).clamp(MIN_MARK, MARK_LEN).min(room);
    let bottom = match short {
        Short::None => len(room_bottom),
        _ => shortened(room_bottom),
    };
    let left = match short {
        Short::BottomAndLeft => shortened(room_left),
        _ => len(room_left),
    };
    let (top, right) = (len(room_top), len(room_right));
    // Every trim edge is a cut: one between butted parts, two across a gutter.
    let mut xs: Vec<(f64, bool)> = Vec::new();
    for c in c0..=c1 {
        let t = a.trim(r0, c);
        edges(&mut xs, [t.x, t.right()]);
    }
    let mut ys: Vec<(f64, bool)> = Vec::new();
    for r in r0..=r1 {
        let t = a.trim(r, c0);
        edges(&mut ys, [t.y, t.bottom()]);
    }
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
        draw(marks, x, grid.y - start_y, x, grid.y - start_y - top, fold);
        let y = grid.bottom() + start_y;
        draw(marks, x, y, x, y + bottom, fold);
    }
    for (y, fold) in ys {
        draw(marks, grid.x - start_x, y, grid.x - start_x - left, y, fold);
        let x = grid.right() + start_x;
        draw(marks, x, y, x + right, y, fold);
    }
}

/// Adds cut positions to `cuts`, each once (two butted parts share an edge).
fn edges(cuts: &mut Vec<(f64, bool)>, at: [f64; 2]) {
    for v in at {
        if !cuts.iter().any(|(q, _)| (q - v).abs() < 1e-9) {
            cuts.push((v, false));
        }
    }
}

/// Dashed cut guides between pads printed edge to edge (along both trims across a
/// gutter), inside the printable area.
fn cut_guides(marks: &mut Marks, a: &Arrangement) {
    let area = a.media.printable();
    let mut xs = Vec::new();
    for c in 1..a.cols {
        edges(&mut xs, [a.trim(0, c - 1).right(), a.trim(0, c).x]);
    }
    let mut ys = Vec::new();
    for r in 1..a.rows {
        edges(&mut ys, [a.trim(r - 1, 0).bottom(), a.trim(r, 0).y]);
    }
    for (x, _) in xs {
        marks.dashed(x, area.y, x, area.bottom());
    }
    for (y, _) in ys {
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
            request: Default::default(),
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
            request: Default::default(),
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
            request: Default::default(),
        };
        let e = grid(&parts, Media::new(Paper::named("letter").unwrap(), 4.2)).unwrap_err();
        assert!(matches!(e, LayoutError::DoesNotFit { .. }));
        assert!(e.to_string().contains("does not fit"));
    }

    /// `n` cards of `size` laid out with `request` on `paper` (`margin` mm).
    fn asked(
        n: usize,
        backs: bool,
        request: Request,
        paper: &str,
        margin: f64,
    ) -> Result<Vec<Sheet>, LayoutError> {
        let items = items(n, backs);
        let parts = Parts {
            items: &items,
            size: Size::named("poker").unwrap(),
            bleed: 3.0,
            style: GridStyle::Butted,
            panels: 1,
            title: "t",
            glued: false,
            request,
        };
        grid(&parts, Media::new(Paper::named(paper).unwrap(), margin))
    }

    fn three_by_three() -> Request {
        Request {
            grid: Some((3, 3)),
            orientation: Some(Orientation::Upright),
            gutter: None,
        }
    }

    #[test]
    fn three_by_three_upright_poker_where_the_marks_fit() {
        // A4: 9 up with the whole bleed.
        let a4 = asked(9, true, three_by_three(), "a4", 4.2).unwrap();
        assert_eq!(a4[0].placements.len(), 9);
        assert!(a4[0].placements.iter().all(|p| !p.quarter_turn));
        assert!((a4[0].trim.y - a4[0].bleed.y - 3.0).abs() < 1e-9);
        // Letter on an inkjet (3 mm margin): 9 up, 0.85 mm of bleed above and
        // below the grid, the crop marks in the rest, every mark printable.
        let letter = asked(9, true, three_by_three(), "letter", 3.0).unwrap();
        let s = &letter[0];
        assert_eq!(s.placements.len(), 9);
        assert!(
            (s.trim.y - s.bleed.y - 0.85).abs() < 1e-6,
            "{:?} {:?}",
            s.trim,
            s.bleed
        );
        assert!(
            (s.trim.x - s.bleed.x - 3.0).abs() < 1e-9,
            "the sides keep theirs"
        );
        for sheet in &letter {
            inside(sheet, 3.0);
        }
        let crop = s
            .marks
            .iter()
            .filter(|m| matches!(m, Mark::Line { .. }))
            .count();
        assert_eq!(
            crop, 16,
            "4 vertical and 4 horizontal cuts, a mark at each end"
        );
        // The back sheet mirrors it.
        assert!(letter[1].back && (letter[1].bleed.y - s.bleed.y).abs() < 1e-9);
        // A laser printer's 4.2 mm leaves no room for the marks at all.
        let e = asked(9, true, three_by_three(), "letter", 4.2).unwrap_err();
        assert!(
            matches!(
                e,
                LayoutError::GridDoesNotFit {
                    cols: 3,
                    rows: 3,
                    ..
                }
            ),
            "{e:?}"
        );
        assert!(
            e.to_string().contains("3 x 3 parts of 63.5 x 88.9 mm do not fit on letter paper with their crop marks: 0.7 mm short"),
            "{e}"
        );
    }

    #[test]
    fn a_gutter_holds_each_parts_own_bleed_and_both_cuts_get_marks() {
        let request = Request {
            gutter: Some(6.0),
            ..Request::default()
        };
        let sheets = asked(4, false, request, "a4", 4.2).unwrap();
        let s = &sheets[0];
        let p = &s.placements;
        // Upright on portrait A4 as before: 2 columns x 2 rows fit with gutters.
        assert_eq!(p.len(), 4);
        let (a, b) = (&p[0], &p[1]);
        assert!((b.trim.x - a.trim.right() - 6.0).abs() < 1e-9);
        // Each shows its whole 3 mm bleed into the gutter, and no more.
        assert!((a.clip.right() - a.trim.right() - 3.0).abs() < 1e-9);
        assert!((b.trim.x - b.clip.x - 3.0).abs() < 1e-9);
        assert!(a.clip.right() <= b.clip.x + 1e-9);
        // Both edges of the gutter are cuts, each with its marks.
        let verticals: Vec<f64> = s
            .marks
            .iter()
            .filter_map(|m| match m {
                Mark::Line { from, to, .. } if from.0 == to.0 => Some(from.0),
                _ => None,
            })
            .collect();
        for x in [a.trim.x, a.trim.right(), b.trim.x, b.trim.right()] {
            assert_eq!(
                verticals.iter().filter(|v| (*v - x).abs() < 1e-9).count(),
                2,
                "{x}"
            );
        }
        inside(s, 4.2);
        // A narrower gutter: half of it each.
        let narrow = Request {
            gutter: Some(2.0),
            ..Request::default()
        };
        let s = &asked(4, false, narrow, "a4", 4.2).unwrap()[0];
        let (a, b) = (&s.placements[0], &s.placements[1]);
        assert!((a.clip.right() - a.trim.right() - 1.0).abs() < 1e-9);
        assert!((a.clip.right() - b.clip.x).abs() < 1e-9);
    }

    #[test]
    fn orientation_is_as_asked() {
        let upright = Request {
            orientation: Some(Orientation::Upright),
            ..Request::default()
        };
        let s = asked(9, true, upright, "letter", 4.2).unwrap();
        // Upright poker on portrait Letter with backs: 3 x 2.
        assert_eq!(s[0].placements.len(), 6);
        assert!(s[0].placements.iter().all(|p| !p.quarter_turn));
        let sideways = Request {
            orientation: Some(Orientation::Sideways),
            ..Request::default()
        };
        let s = asked(9, false, sideways, "a4", 4.2).unwrap();
        assert!(s[0].placements.iter().all(|p| p.quarter_turn));
    }
}
