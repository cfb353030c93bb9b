//! Gutterfold sheets: one-sided printing. Each column holds a front with its back
//! directly below, turned 180 degrees; fold along the dashed line between them, glue,
//! and cut. No duplex alignment is needed.

use super::marks::{Anchor, Marks};
use super::{GridItem, Paper, Placement, Rect, Sheet};
use crate::model::Size;

const EDGE: f64 = 3.0;

/// Lays out front/back pairs on `paper` (whichever orientation holds more pairs).
pub fn gutterfold(
    items: &[GridItem],
    size: Size,
    bleed: f64,
    paper: Paper,
    title: &str,
) -> Result<Vec<Sheet>, String> {
    let fit = |p: Paper| {
        let cols = ((p.width - 2.0 * EDGE - 2.0 * bleed) / size.width)
            .floor()
            .max(0.0) as usize;
        let rows = ((p.height - 2.0 * EDGE - 2.0 * bleed) / (2.0 * size.height))
            .floor()
            .max(0.0) as usize;
        (p, cols, rows)
    };
    let (a, b) = (fit(paper.landscape()), fit(paper));
    let (p, cols, rows) = if b.1 * b.2 > a.1 * a.2 { b } else { a };
    if cols * rows == 0 {
        return Err(format!(
            "a front and back of {} x {} mm do not fit on {} paper for gutterfold",
            size.width, size.height, paper.name
        ));
    }
    let (gw, gh) = (cols as f64 * size.width, rows as f64 * 2.0 * size.height);
    let (x0, y0) = ((p.width - gw) / 2.0, (p.height - gh) / 2.0);
    let per = cols * rows;
    let pages = items.len().div_ceil(per);
    let mut sheets = Vec::new();
    for (page, chunk) in items.chunks(per).enumerate() {
        let mut placements = Vec::new();
        let occupied = |k: isize| k >= 0 && (k as usize) < chunk.len();
        for (k, item) in chunk.iter().enumerate() {
            let (r, c) = (k / cols, k % cols);
            let top = y0 + r as f64 * 2.0 * size.height;
            let x = x0 + c as f64 * size.width;
            let k = k as isize;
            let left = if c > 0 && occupied(k - 1) { 0.0 } else { bleed };
            let right = if c + 1 < cols && occupied(k + 1) {
                0.0
            } else {
                bleed
            };
            let above = if r > 0 { 0.0 } else { bleed };
            let below = if occupied(k + cols as isize) {
                0.0
            } else {
                bleed
            };
            let front = Rect {
                x,
                y: top,
                w: size.width,
                h: size.height,
            };
            let back = Rect {
                x,
                y: top + size.height,
                w: size.width,
                h: size.height,
            };
            let full = |t: &Rect| {
                (
                    t.x - bleed,
                    t.y - bleed,
                    size.width + 2.0 * bleed,
                    size.height + 2.0 * bleed,
                )
            };
            let (fx, fy, fw, fh) = full(&front);
            placements.push(Placement {
                face: item.front,
                x: fx,
                y: fy,
                w: fw,
                h: fh,
                clip: Rect {
                    x: x - left,
                    y: top - above,
                    w: size.width + left + right,
                    h: size.height + above,
                },
                trim: front,
                rotate180: false,
            });
            if let Some(b) = item.back {
                let (bx, by, bw, bh) = full(&back);
                placements.push(Placement {
                    face: b,
                    x: bx,
                    y: by,
                    w: bw,
                    h: bh,
                    clip: Rect {
                        x: x - left,
                        y: back.y,
                        w: size.width + left + right,
                        h: size.height + below,
                    },
                    trim: back,
                    rotate180: true,
                });
            }
        }
        let mut chrome = Marks::default();
        let grid = Rect {
            x: x0,
            y: y0,
            w: gw,
            h: gh,
        };
        let start = bleed + 0.5;
        let room_y = (y0 - start - 0.5).min(5.0);
        let room_x = (x0 - start - 0.5).min(5.0);
        for c in 0..=cols {
            let x = x0 + c as f64 * size.width;
            if room_y > 0.5 {
                chrome.line(x, grid.y - start, x, grid.y - start - room_y);
                chrome.line(x, grid.bottom() + start, x, grid.bottom() + start + room_y);
            }
        }
        for r in 0..=(2 * rows) {
            let y = y0 + r as f64 * size.height;
            if room_x > 0.5 {
                chrome.line(grid.x - start, y, grid.x - start - room_x, y);
                chrome.line(grid.right() + start, y, grid.right() + start + room_x, y);
            }
        }
        for r in 0..rows {
            let fold = y0 + (2 * r + 1) as f64 * size.height;
            chrome.dashed(
                grid.x - start - room_x.max(0.0),
                fold,
                grid.right() + start + room_x.max(0.0),
                fold,
            );
        }
        let label = format!("{title} — gutterfold {}/{pages}: print one-sided, fold on the dashed line, glue, then cut", page + 1);
        chrome.text(
            p.width / 2.0,
            p.height - 1.2,
            2.2,
            Anchor::Middle,
            false,
            &label,
        );
        let trim = placements
            .iter()
            .map(|p| p.trim)
            .reduce(|a, b| a.union(&b))
            .unwrap_or(grid);
        sheets.push(Sheet {
            width: p.width,
            height: p.height,
            trim,
            bleed: trim.grow(bleed).intersect(&Rect {
                x: 0.0,
                y: 0.0,
                w: p.width,
                h: p.height,
            }),
            placements,
            marks: chrome.0,
            label,
            back: false,
        });
    }
    Ok(sheets)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Shape;

    #[test]
    fn poker_pairs_on_letter_landscape() {
        let items: Vec<GridItem> = (0..5)
            .map(|i| GridItem {
                front: i,
                back: Some(100 + i),
                shape: Shape::Rect,
            })
            .collect();
        let sheets = gutterfold(
            &items,
            Size::named("poker").unwrap(),
            3.0,
            Paper::named("letter").unwrap(),
            "t",
        )
        .unwrap();
        assert_eq!(sheets.len(), 2, "4 pairs per Letter landscape page");
        assert_eq!((sheets[0].width, sheets[0].height), (279.4, 215.9));
        let p = &sheets[0].placements;
        // Each back sits directly below its front, same column, upside down.
        assert_eq!(p[0].face, 0);
        assert_eq!(p[1].face, 100);
        assert_eq!(p[0].trim.x, p[1].trim.x);
        assert!((p[1].trim.y - p[0].trim.bottom()).abs() < 1e-9);
        assert!(p[1].rotate180 && !p[0].rotate180);
        assert!(
            sheets[0]
                .marks
                .iter()
                .any(|m| m.stroke() == crate::layout::Stroke::Guide),
            "fold line"
        );
    }
}
