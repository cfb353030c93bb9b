//! Shared chit sheets: one-sided chits and tokens of several component sets flow onto
//! the same sheets, each set starting on a new row, so 18 rest markers do not take a
//! page of their own. Every part keeps its own bleed and a cut line around its shape.

use super::marks::{Anchor, Marks};
use super::{GridItem, Paper, Placement, Rect, Sheet, PRINTER_MARGIN};
use crate::model::Size;

/// One component set's parts for a shared sheet.
pub struct ChitGroup<'a> {
    pub items: &'a [GridItem],
    pub size: Size,
    pub bleed: f64,
    pub name: String,
}

/// Gap between two sets on a sheet.
const SET_GAP: f64 = 2.0;

/// Lays out the groups in order on `paper` (portrait). Returns the sheets and, for
/// each group, the index of the sheet its first row is on.
pub fn chit_sheets(
    groups: &[ChitGroup],
    paper: Paper,
    title: &str,
) -> Result<(Vec<Sheet>, Vec<usize>), String> {
    let (w, h, e) = (paper.width, paper.height, PRINTER_MARGIN);
    let mut pages: Vec<(Vec<Placement>, Marks, Vec<String>)> = Vec::new();
    let mut first = Vec::new();
    let mut y = h; // forces a new page for the first row
    for g in groups {
        let (pw, ph) = (g.size.width + 2.0 * g.bleed, g.size.height + 2.0 * g.bleed);
        let cols = ((w - 2.0 * e) / pw).floor() as usize;
        if cols == 0 || ph > h - 2.0 * e {
            return Err(format!(
                "a {} x {} mm part does not fit on {} paper",
                g.size.width, g.size.height, paper.name
            ));
        }
        let x0 = (w - cols as f64 * pw) / 2.0;
        let mut started = false;
        for row in g.items.chunks(cols) {
            if y + ph > h - e || pages.is_empty() {
                pages.push((Vec::new(), Marks::default(), Vec::new()));
                y = e;
            }
            if !started {
                first.push(pages.len() - 1);
                started = true;
            }
            let page = pages.last_mut().expect("a page was just pushed");
            if !page.2.contains(&g.name) {
                page.2.push(g.name.clone());
            }
            for (c, item) in row.iter().enumerate() {
                let trim = Rect {
                    x: x0 + c as f64 * pw + g.bleed,
                    y: y + g.bleed,
                    w: g.size.width,
                    h: g.size.height,
                };
                page.1.cut(item.shape, trim);
                page.0.push(Placement {
                    face: item.front,
                    x: trim.x - g.bleed,
                    y: trim.y - g.bleed,
                    w: pw,
                    h: ph,
                    clip: trim.grow(g.bleed),
                    trim,
                    rotate180: false,
                });
            }
            y += ph;
        }
        if !started {
            first.push(pages.len().saturating_sub(1));
        }
        y += SET_GAP;
    }
    let n = pages.len();
    let sheets = pages
        .into_iter()
        .enumerate()
        .map(|(i, (placements, mut chrome, names))| {
            let label = format!("{title} · {} — chit sheet {}/{n}", names.join(", "), i + 1);
            chrome.text(w / 2.0, h - 1.6, 2.2, Anchor::Middle, false, &label);
            let trim = placements
                .iter()
                .map(|p| p.trim)
                .reduce(|a, b| a.union(&b))
                .unwrap_or(Rect {
                    x: 0.0,
                    y: 0.0,
                    w,
                    h,
                });
            let bleed = placements
                .iter()
                .map(|p| p.clip)
                .reduce(|a, b| a.union(&b))
                .unwrap_or(trim);
            Sheet {
                width: w,
                height: h,
                trim,
                bleed,
                placements,
                marks: chrome.0,
                label,
                back: false,
            }
        })
        .collect();
    Ok((sheets, first))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Shape;

    #[test]
    fn small_sets_share_a_sheet_each_on_new_rows() {
        let a: Vec<GridItem> = (0..20)
            .map(|i| GridItem {
                front: i,
                back: None,
                shape: Shape::Round,
            })
            .collect();
        let b: Vec<GridItem> = (0..3)
            .map(|i| GridItem {
                front: 100 + i,
                back: None,
                shape: Shape::Rect,
            })
            .collect();
        let chit = Size::named("chit-3/4in").unwrap();
        let groups = [
            ChitGroup {
                items: &a,
                size: chit,
                bleed: 1.5,
                name: "a".into(),
            },
            ChitGroup {
                items: &b,
                size: Size {
                    width: 30.0,
                    height: 15.0,
                },
                bleed: 1.5,
                name: "b".into(),
            },
        ];
        let (sheets, first) = chit_sheets(&groups, Paper::named("letter").unwrap(), "t").unwrap();
        assert_eq!(sheets.len(), 1);
        assert_eq!(first, vec![0, 0]);
        let p = &sheets[0].placements;
        assert_eq!(p.len(), 23);
        // The second set starts on a row below the first set's last row.
        let last_a = p
            .iter()
            .filter(|p| p.face < 100)
            .map(|p| p.clip.bottom())
            .fold(0.0, f64::max);
        let first_b = p
            .iter()
            .filter(|p| p.face >= 100)
            .map(|p| p.clip.y)
            .fold(f64::MAX, f64::min);
        assert!(first_b >= last_a, "{first_b} >= {last_a}");
        assert!(sheets[0].label.contains("a, b"));
    }
}
