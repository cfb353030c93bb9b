//! Shared chit sheets: chits and tokens of several component sets flow onto the
//! same sheets, each set starting on a new row, so 18 rest markers do not take a
//! page of their own. Every part keeps its own bleed and a cut line around its
//! shape. Two-sided sets share duplex sheets the same way: each sheet of fronts is
//! followed by its backs, mirrored for a long-edge flip.

use super::label;
use super::marks::LabelText;
use super::marks::Marks;
use super::{GridItem, LayoutError, Media, Placement, Rect, Sheet};
use crate::model::layout::{Orientation, Request};
use crate::model::{Shape, Size};

/// One component set's parts for a shared sheet.
pub struct ChitGroup<'a> {
    pub items: &'a [GridItem],
    pub size: Size,
    pub bleed: f64,
    pub name: String,
    /// Its gutter and orientation (a grid is not asked of chits).
    pub request: Request,
}

impl ChitGroup<'_> {
    /// Whether the set's parts lie sideways: as asked (never triangles).
    fn turned(&self) -> Result<bool, LayoutError> {
        match self.request.orientation {
            Some(Orientation::Sideways) => {
                if self.items.iter().any(|i| i.shape == Shape::Triangle) {
                    return Err(LayoutError::TriangleSideways);
                }
                Ok(true)
            }
            _ => Ok(false),
        }
    }
}

/// Gap between two sets on a sheet.
const SET_GAP: f64 = 2.0;
/// Room kept at the bottom of the printable area for the sheet's label.
const LABEL_ROOM: f64 = 3.6;

/// A sheet being filled: its parts (with their backs), cut lines and the names of
/// the sets on it.
#[derive(Default)]
struct Page {
    placements: Vec<(Placement, Option<usize>)>,
    marks: Marks,
    names: Vec<String>,
}

/// Lays out the groups in order on `media` (portrait), inside its printable area;
/// with `duplex`, each sheet of fronts is followed by its sheet of backs. Returns
/// the sheets and, for each group, the index of the sheet its first row is on.
///
/// Rows fill the printable area when every sheet's label then finds a strip
/// beside the parts; otherwise a band at the bottom is kept for the labels.
pub fn chit_sheets(
    groups: &[ChitGroup],
    media: Media,
    title: &str,
    duplex: bool,
) -> Result<(Vec<Sheet>, Vec<usize>), LayoutError> {
    let full = flow(groups, media, 0.0)?;
    if let Some(done) = sheets(full, media, title, duplex, false) {
        return Ok(done);
    }
    let banded = flow(groups, media, LABEL_ROOM)?;
    Ok(sheets(banded, media, title, duplex, true).expect("labels are put, shortened if need be"))
}

/// The pages of parts, and the page each group starts on, with `keep` mm kept
/// free at the bottom of the printable area.
fn flow(
    groups: &[ChitGroup],
    media: Media,
    keep: f64,
) -> Result<(Vec<Page>, Vec<usize>), LayoutError> {
    let area = media.printable();
    let bottom = area.bottom() - keep;
    let mut pages: Vec<Page> = Vec::new();
    let mut first = Vec::new();
    let mut y = bottom; // forces a new page for the first row
    for g in groups {
        let turned = g.turned()?;
        let (w, h) = if turned {
            (g.size.height, g.size.width)
        } else {
            (g.size.width, g.size.height)
        };
        let gap = g.request.gutter.unwrap_or(2.0 * g.bleed);
        // What each part shows of its bleed: all of it, or half the gutter.
        let shown = g.bleed.min(gap / 2.0);
        let cols = ((area.w - 2.0 * shown + gap) / (w + gap) + 1e-9).floor() as usize;
        if cols == 0 || h + 2.0 * shown > bottom - area.y {
            return Err(LayoutError::DoesNotFit {
                width: g.size.width,
                height: g.size.height,
                bleed: g.bleed,
                paper: media.paper.name,
                margin: media.margin,
            });
        }
        let x0 = (media.paper.width - (cols as f64 * (w + gap) - gap)) / 2.0;
        let mut started = false;
        for row in g.items.chunks(cols) {
            if y + h + 2.0 * shown > bottom || pages.is_empty() {
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
                    x: x0 + c as f64 * (w + gap),
                    y: y + shown,
                    w,
                    h,
                };
                page.marks.cut(item.shape, trim);
                let placement = Placement {
                    face: item.front,
                    x: trim.x - g.bleed,
                    y: trim.y - g.bleed,
                    w: g.size.width + 2.0 * g.bleed,
                    h: g.size.height + 2.0 * g.bleed,
                    clip: trim.grow(shown),
                    trim,
                    quarter_turn: turned,
                    rotate180: false,
                };
                page.placements.push((placement, item.back));
            }
            y += h + gap;
        }
        if !started {
            first.push(pages.len().saturating_sub(1));
        }
        y += SET_GAP;
    }
    Ok((pages, first))
}

/// The sheets of `pages` with their labels (fronts and backs with `duplex`):
/// `None` when a label finds no strip to fit whole (unless `shorten`).
fn sheets(
    (pages, mut first): (Vec<Page>, Vec<usize>),
    media: Media,
    title: &str,
    duplex: bool,
    shorten: bool,
) -> Option<(Vec<Sheet>, Vec<usize>)> {
    let n = pages.len();
    let mut sheets = Vec::new();
    for (i, page) in pages.into_iter().enumerate() {
        let names = page.names.join(", ");
        let k = format!("{}/{n}", i + 1);
        let (front, back) = if duplex {
            (
                format!(
                    "{title} · {names} — fronts {k}: print double-sided, flip on the long edge"
                ),
                format!("{title} · {names} — backs {k}: the reverse of the page before"),
            )
        } else {
            (format!("{title} · {names} — chit sheet {k}"), String::new())
        };
        let mut s = Sheet::blank(media.paper.width, media.paper.height, front);
        s.duplex = duplex;
        s.placements = page.placements.iter().map(|(p, _)| p.clone()).collect();
        s.marks = page.marks.0.clone();
        if !finish(&mut s, media, shorten) {
            return None;
        }
        sheets.push(s);
        if duplex {
            let mut b = backs(&page, media, back);
            if !finish(&mut b, media, shorten) {
                return None;
            }
            sheets.push(b);
        }
    }
    if duplex {
        first.iter_mut().for_each(|f| *f *= 2);
    }
    Some((sheets, first))
}

/// The back sheet of a page of fronts: each back where a long-edge flip puts it
/// (mirrored left to right), turned the other way for parts laid sideways.
fn backs(page: &Page, media: Media, label: String) -> Sheet {
    let width = media.paper.width;
    let mirror = |r: Rect| Rect {
        x: width - r.right(),
        ..r
    };
    let mut s = Sheet::blank(width, media.paper.height, label);
    s.duplex = true;
    s.back = true;
    let mut marks = Marks::default();
    for (p, back) in &page.placements {
        let Some(face) = back else { continue };
        let trim = mirror(p.trim);
        let box_ = mirror(p.page_box());
        if let Some(super::Mark::Outline { shape, .. }) = page
            .marks
            .0
            .iter()
            .find(|m| matches!(m, super::Mark::Outline { rect, .. } if *rect == p.trim))
        {
            marks.cut(*shape, trim);
        }
        s.placements.push(Placement {
            face: *face,
            x: box_.x,
            y: box_.y,
            clip: mirror(p.clip),
            trim,
            rotate180: p.quarter_turn,
            ..p.clone()
        });
    }
    s.marks = marks.0;
    s
}

/// Trim and bleed boxes from the parts, and the label: whole, or (with
/// `shorten`) shortened where no strip holds it whole. Whether it was put.
fn finish(s: &mut Sheet, media: Media, shorten: bool) -> bool {
    s.fit_boxes(0.0);
    s.bleed = s
        .placements
        .iter()
        .map(|p| p.clip)
        .reduce(|a, b| a.union(&b))
        .unwrap_or(s.trim);
    let label = LabelText::new(&s.label);
    if shorten {
        label::put(s, media.margin, &label);
        true
    } else {
        label::put_whole(s, media.margin, &label)
    }
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
                request: Request::default(),
            },
            ChitGroup {
                items: &b,
                size: Size {
                    width: 30.0,
                    height: 15.0,
                },
                bleed: 1.5,
                name: "b".into(),
                request: Request::default(),
            },
        ];
        let media = Media::new(crate::layout::Paper::named("letter").unwrap(), 4.2);
        let (sheets, first) = chit_sheets(&groups, media, "t", false).unwrap();
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

    fn tokens(n: usize, first: usize, backs: bool) -> Vec<GridItem> {
        (0..n)
            .map(|i| GridItem {
                front: first + i,
                back: backs.then_some(1000 + first + i),
                shape: Shape::Rounded,
            })
            .collect()
    }

    #[test]
    fn two_sided_sets_share_duplex_sheets_with_mirrored_backs() {
        let (a, b) = (tokens(11, 0, true), tokens(5, 100, true));
        let size = Size {
            width: 25.0,
            height: 15.0,
        };
        let group = |items, name: &str, request| ChitGroup {
            items,
            size,
            bleed: 1.5,
            name: name.into(),
            request,
        };
        let sideways = Request {
            orientation: Some(Orientation::Sideways),
            gutter: Some(6.0),
            ..Request::default()
        };
        let groups = [group(&a, "a", Request::default()), group(&b, "b", sideways)];
        let media = Media::new(crate::layout::Paper::named("letter").unwrap(), 4.2);
        let (sheets, first) = chit_sheets(&groups, media, "t", true).unwrap();
        // 16 tokens: one sheet of fronts and its backs, not a pair each.
        assert_eq!(sheets.len(), 2);
        assert_eq!(first, vec![0, 0]);
        let (front, back) = (&sheets[0], &sheets[1]);
        assert!(front.duplex && !front.back && back.duplex && back.back);
        assert!(front.label.contains("fronts 1/1") && back.label.contains("backs 1/1"));
        assert_eq!(back.placements.len(), 16);
        for p in &front.placements {
            let q = back
                .placements
                .iter()
                .find(|q| q.face == p.face + 1000)
                .expect("its back");
            // A long-edge flip: the same row, mirrored left to right.
            assert!((q.trim.x - (215.9 - p.trim.right())).abs() < 1e-9);
            assert_eq!(
                (q.trim.y, q.trim.w, q.trim.h),
                (p.trim.y, p.trim.w, p.trim.h)
            );
            assert_eq!(q.quarter_turn, p.quarter_turn);
            assert_eq!(
                q.rotate180, p.quarter_turn,
                "sideways backs turn the other way"
            );
        }
        // The second set lies sideways, 6 mm apart, each showing its 1.5 mm bleed.
        let mut bs: Vec<&Placement> = front.placements.iter().filter(|p| p.face >= 100).collect();
        bs.sort_by(|a, b| a.trim.x.total_cmp(&b.trim.x));
        assert!(bs
            .iter()
            .all(|p| p.quarter_turn && p.trim.w == 15.0 && p.trim.h == 25.0));
        assert!((bs[1].trim.x - bs[0].trim.right() - 6.0).abs() < 1e-9);
        assert!((bs[0].clip.x - (bs[0].trim.x - 1.5)).abs() < 1e-9);
        // Cut lines on both sides, inside the printable area.
        for s in &sheets {
            let cuts = s
                .marks
                .iter()
                .filter(|m| matches!(m, crate::layout::Mark::Outline { .. }));
            assert_eq!(cuts.count(), 16);
            for m in &s.marks {
                let r = m.bounds();
                assert!(
                    r.x >= 4.2 && r.right() <= 215.9 - 4.2 && r.bottom() <= 279.4 - 4.2,
                    "{m:?}"
                );
            }
        }
    }

    #[test]
    fn triangles_do_not_lie_sideways() {
        let t: Vec<GridItem> = (0..2)
            .map(|i| GridItem {
                front: i,
                back: None,
                shape: Shape::Triangle,
            })
            .collect();
        let g = [ChitGroup {
            items: &t,
            size: Size::named("chit-5/8in").unwrap(),
            bleed: 1.5,
            name: "t".into(),
            request: Request {
                orientation: Some(Orientation::Sideways),
                ..Request::default()
            },
        }];
        let media = Media::new(crate::layout::Paper::named("a4").unwrap(), 4.2);
        assert_eq!(
            chit_sheets(&g, media, "t", false).unwrap_err(),
            LayoutError::TriangleSideways
        );
    }
}
