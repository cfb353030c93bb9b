//! Gutterfold sheets: one-sided printing. Each column holds a front with its back
//! below it, turned 180 degrees, and a gutter between them with the fold line in
//! its middle: each face keeps its bleed up to the fold, so a fold a little off
//! still shows the face's own colour at the cut. Fold, glue, and cut; no duplex
//! alignment is needed.

use super::grid::{GridItem, Parts, MARK_GAP, MARK_LEN, MIN_MARK};
use super::label;
use super::marks::LabelText;
use super::marks::Marks;
use super::{LayoutError, Media, Placement, Rect, Sheet};

/// Where the pairs go on a sheet.
#[derive(Debug, Clone, Copy)]
struct Arrangement {
    media: Media,
    cols: usize,
    rows: usize,
    w: f64,
    h: f64,
    bleed: f64,
    /// Trim top-left corner of the first front.
    x0: f64,
    y0: f64,
}

impl Arrangement {
    /// Height of a front, the gutter and its back.
    fn pair_h(&self) -> f64 {
        2.0 * self.h + 2.0 * self.bleed
    }

    fn front(&self, r: usize, c: usize) -> Rect {
        Rect {
            x: self.x0 + c as f64 * self.w,
            y: self.y0 + r as f64 * self.pair_h(),
            w: self.w,
            h: self.h,
        }
    }

    /// The fold line of row `r`, in the middle of the gutter.
    fn fold(&self, r: usize) -> f64 {
        self.front(r, 0).bottom() + self.bleed
    }

    fn back(&self, r: usize, c: usize) -> Rect {
        Rect {
            y: self.fold(r) + self.bleed,
            ..self.front(r, c)
        }
    }
}

/// The orientation holding more pairs (landscape on ties), with room for crop
/// marks inside the printable area.
fn arrange(parts: &Parts, media: Media) -> Result<Arrangement, LayoutError> {
    let (w, h, b) = (parts.size.width, parts.size.height, parts.bleed);
    let edge = media.margin + MIN_MARK + MARK_GAP;
    let fit = |m: Media| {
        let (pw, ph) = (m.paper.width, m.paper.height);
        let cols = ((pw - 2.0 * edge - 2.0 * b) / w + 1e-9).floor().max(0.0) as usize;
        let rows = ((ph - 2.0 * edge - 2.0 * b) / (2.0 * h + 2.0 * b) + 1e-9)
            .floor()
            .max(0.0) as usize;
        (m, cols, rows)
    };
    let (a, p) = (fit(media.landscape()), fit(media));
    let (m, cols, rows) = if p.1 * p.2 > a.1 * a.2 { p } else { a };
    if cols * rows == 0 {
        return Err(LayoutError::PairDoesNotFit {
            width: w,
            height: h,
            bleed: b,
            paper: media.paper.name,
        });
    }
    let gh = rows as f64 * (2.0 * h + 2.0 * b);
    Ok(Arrangement {
        media: m,
        cols,
        rows,
        w,
        h,
        bleed: b,
        x0: (m.paper.width - cols as f64 * w) / 2.0,
        y0: (m.paper.height - gh) / 2.0,
    })
}

/// Lays out front/back pairs on `media` (whichever orientation holds more pairs).
pub fn gutterfold(parts: &Parts, media: Media) -> Result<Vec<Sheet>, LayoutError> {
    let a = arrange(parts, media)?;
    let per = a.cols * a.rows;
    let pages = parts.items.len().div_ceil(per);
    Ok(parts
        .items
        .chunks(per)
        .enumerate()
        .map(|(page, chunk)| {
            let label = format!(
                "{} — gutterfold {}/{pages}: print one-sided, fold on the dashed line, glue, then cut",
                parts.title,
                page + 1
            );
            sheet(&a, chunk, label)
        })
        .collect())
}

/// One gutterfold sheet: the pairs of `chunk`, their marks and the label.
fn sheet(a: &Arrangement, chunk: &[GridItem], label: String) -> Sheet {
    let mut s = Sheet::blank(a.media.paper.width, a.media.paper.height, label);
    for (k, item) in chunk.iter().enumerate() {
        s.placements.extend(pair(a, chunk.len(), k, item));
    }
    let mut marks = Marks::default();
    pair_marks(&mut marks, a, chunk.len());
    s.marks = marks.0;
    s.fit_boxes(a.bleed);
    let text = LabelText::new(&s.label);
    label::put(&mut s, a.media.margin, &text);
    s
}

/// The front of item `k` of `n` and its back below the fold, each showing its
/// bleed where no neighbour is and up to the fold.
fn pair(a: &Arrangement, n: usize, k: usize, item: &GridItem) -> Vec<Placement> {
    let (r, c) = (k / a.cols, k % a.cols);
    let b = a.bleed;
    let left = if c > 0 { 0.0 } else { b };
    let right = if c + 1 < a.cols && k + 1 < n { 0.0 } else { b };
    let above = if r > 0 { 0.0 } else { b };
    let below = if k + a.cols < n { 0.0 } else { b };
    let (front, back) = (a.front(r, c), a.back(r, c));
    let box_of = |t: Rect, face: usize, clip: Rect, rotate180: bool| Placement {
        face,
        x: t.x - b,
        y: t.y - b,
        w: t.w + 2.0 * b,
        h: t.h + 2.0 * b,
        clip,
        trim: t,
        quarter_turn: false,
        rotate180,
    };
    let side = |t: Rect, top: f64, bottom: f64| Rect {
        x: t.x - left,
        y: t.y - top,
        w: t.w + left + right,
        h: t.h + top + bottom,
    };
    let mut out = vec![box_of(front, item.front, side(front, above, b), false)];
    if let Some(back_face) = item.back {
        out.push(box_of(back, back_face, side(back, b, below), true));
    }
    out
}

/// Crop marks at both ends of every cut through the rows in use, and a dashed
/// fold line across each row in use, all inside the printable area.
fn pair_marks(marks: &mut Marks, a: &Arrangement, n: usize) {
    if n == 0 {
        return;
    }
    let last_row = (n - 1) / a.cols;
    let cols_used = n.min(a.cols);
    let area = a.media.printable();
    let grid = a.front(0, 0).union(&a.back(last_row, cols_used - 1));
    let start = a.bleed + MARK_GAP;
    let len = |room: f64| room.min(MARK_LEN);
    let top = len(grid.y - start - area.y);
    let bottom = len(area.bottom() - grid.bottom() - start);
    let left = len(grid.x - start - area.x);
    let right = len(area.right() - grid.right() - start);
    for c in 0..=cols_used {
        let x = a.x0 + c as f64 * a.w;
        marks.line(x, grid.y - start, x, grid.y - start - top);
        marks.line(x, grid.bottom() + start, x, grid.bottom() + start + bottom);
    }
    let mut ys = Vec::new();
    for r in 0..=last_row {
        let (f, b) = (a.front(r, 0), a.back(r, 0));
        for y in [f.y, f.bottom(), b.y, b.bottom()] {
            if !ys.iter().any(|v: &f64| (v - y).abs() < 1e-6) {
                ys.push(y);
            }
        }
    }
    for y in ys {
        marks.line(grid.x - start, y, grid.x - start - left, y);
        marks.line(grid.right() + start, y, grid.right() + start + right, y);
    }
    for r in 0..=last_row {
        let in_row = (n - r * a.cols).min(a.cols);
        let y = a.fold(r);
        let end = a.x0 + in_row as f64 * a.w + start + right;
        marks.dashed(grid.x - start - left, y, end, y);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{GridStyle, Mark, Paper, Stroke};
    use crate::model::{Shape, Size};

    fn sheets(n: usize) -> Vec<Sheet> {
        let items: Vec<GridItem> = (0..n)
            .map(|i| GridItem {
                front: i,
                back: Some(100 + i),
                shape: Shape::Rect,
            })
            .collect();
        let parts = Parts {
            items: &items,
            size: Size::named("poker").unwrap(),
            bleed: 3.0,
            style: GridStyle::Butted,
            panels: 1,
            title: "t",
            glued: false,
            request: Default::default(),
        };
        gutterfold(&parts, Media::new(Paper::named("letter").unwrap(), 4.2)).unwrap()
    }

    #[test]
    fn poker_pairs_on_letter_landscape_with_a_gutter_at_the_fold() {
        let sheets = sheets(5);
        assert_eq!(sheets.len(), 2, "4 pairs per Letter landscape page");
        assert_eq!((sheets[0].width, sheets[0].height), (279.4, 215.9));
        let p = &sheets[0].placements;
        // Each back sits below its front, same column, upside down, 6 mm apart: each
        // keeps its 3 mm bleed up to the fold.
        assert_eq!(p[0].face, 0);
        assert_eq!(p[1].face, 100);
        assert_eq!(p[0].trim.x, p[1].trim.x);
        assert!((p[1].trim.y - p[0].trim.bottom() - 6.0).abs() < 1e-9);
        assert!(
            (p[0].clip.bottom() - p[1].clip.y).abs() < 1e-9,
            "both bleed to the fold"
        );
        assert!(p[1].rotate180 && !p[0].rotate180);
        let fold = sheets[0]
            .marks
            .iter()
            .find(|m| m.stroke() == Stroke::Guide)
            .expect("a fold line");
        let Mark::Line { from, .. } = fold else {
            panic!("{fold:?}")
        };
        assert!((from.1 - (p[0].trim.bottom() + 3.0)).abs() < 1e-9);
        for s in &sheets {
            for m in &s.marks {
                let b = m.bounds();
                assert!(
                    b.x >= 4.2
                        && b.y >= 4.2
                        && b.right() <= s.width - 4.2
                        && b.bottom() <= s.height - 4.2,
                    "{m:?}"
                );
            }
        }
    }

    #[test]
    fn the_fold_line_stops_where_the_pairs_do() {
        let sheets = sheets(1);
        let s = &sheets[0];
        let trim = s.placements[0].trim;
        for m in s.marks.iter().filter(|m| m.stroke() == Stroke::Guide) {
            assert!(m.bounds().right() < trim.right() + 10.0, "{m:?}");
        }
    }
}
