//! Shared chit sheets: one-sided chits and tokens of several component sets flow onto
//! the same sheets, each set starting on a new row, so 18 rest markers do not take a
//! page of their own. Every part keeps its own bleed and a cut line around its shape.

use super::label;
use super::marks::Marks;
use super::{GridItem, LayoutError, Media, Placement, Rect, Sheet};
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
/// Room kept at the bottom of the printable area for the sheet's label.
const LABEL_ROOM: f64 = 3.6;

/// A sheet being filled: its parts, cut lines and the names of the sets on it.
#[derive(Default)]
struct Page {
    placements: Vec<Placement>,
    marks: Marks,
    names: Vec<String>,
}

/// Lays out the groups in order on `media` (portrait), inside its printable area.
/// Returns the sheets and, for each group, the index of the sheet its first row is
/// on.
pub fn chit_sheets(
    groups: &[ChitGroup],
    media: Media,
    title: &str,
) -> Result<(Vec<Sheet>, Vec<usize>), LayoutError> {
    let area = media.printable();
    let bottom = area.bottom() - LABEL_ROOM;
    let mut pages: Vec<Page> = Vec::new();
    let mut first = Vec::new();
    let mut y = bottom; // forces a new page for the first row
    for g in groups {
        let (pw, ph) = (g.size.width + 2.0 * g.bleed, g.size.height + 2.0 * g.bleed);
        let cols = (area.w / pw + 1e-9).floor() as usize;
        if cols == 0 || ph > bottom - area.y {
            return Err(LayoutError::DoesNotFit {
                width: g.size.width,
                height: g.size.height,
                bleed: g.bleed,
                paper: media.paper.name,
                margin: media.margin,
            });
        }
        let x0 = (media.paper.width - cols as f64 * pw) / 2.0;
        let mut started = false;
        for row in g.items.chunks(cols) {
            if y + ph > bottom || pages.is_empty() {
                pages.push(Page::default());
                y = area.y;
            }
            if !started {
                first.push(pages.len() - 1);
                started = true;
            }
            let page = pages.last_mut().expect("a page was just pushed");
            if !page.names.contains(&g.name) {
                page.names.push(g.name.clone());
            }
            for (c, item) in row.iter().enumerate() {
                let trim = Rect {
                    x: x0 + c as f64 * pw + g.bleed,
                    y: y + g.bleed,
                    w: g.size.width,
                    h: g.size.height,
                };
                page.marks.cut(item.shape, trim);
                page.placements.push(Placement {
                    face: item.front,
                    x: trim.x - g.bleed,
                    y: trim.y - g.bleed,
                    w: pw,
                    h: ph,
                    clip: trim.grow(g.bleed),
                    trim,
                    quarter_turn: false,
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
        .map(|(i, page)| {
            let label = format!(
                "{title} · {} — chit sheet {}/{n}",
                page.names.join(", "),
                i + 1
            );
            let mut s = Sheet::blank(media.paper.width, media.paper.height, label.clone());
            s.placements = page.placements;
            s.marks = page.marks.0;
            s.fit_boxes(0.0);
            s.bleed = s
                .placements
                .iter()
                .map(|p| p.clip)
                .reduce(|a, b| a.union(&b))
                .unwrap_or(s.trim);
            label::put(&mut s, media.margin, &label);
            s
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
        let media = Media::new(crate::layout::Paper::named("letter").unwrap(), 4.2);
        let (sheets, first) = chit_sheets(&groups, media, "t").unwrap();
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
        for m in &sheets[0].marks {
            let b = m.bounds();
            assert!(
                b.x >= 4.2 && b.y >= 4.2 && b.right() <= 215.9 - 4.2 && b.bottom() <= 279.4 - 4.2,
                "{m:?}"
            );
        }
    }
}
