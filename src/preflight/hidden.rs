//! Text and icons hidden by what is drawn after them: a panel, a banner or a
//! picture whose opaque fill covers most of a text or an icon (`class="icon"`,
//! what `icon()` and rich text draw) that the template drew first. A frame drawn
//! over a background, an outline around a word or a translucent tint is not: only
//! an opaque fill counts, and only when it covers at least half of what the text
//! or icon paints. Text over text is [`super::checks`]' overlap check; anything
//! over a keep-visible element its covered check.

use std::collections::BTreeMap;

use super::checks::{bounds, boxes_meet, Check, Face, Finding};
use super::cover::{bbox, common_area, own_area};
use super::elements::{Leaf, What};
use crate::box_grid::{BoxGrid, Near};
use crate::units::fmt_num;

/// The share of a text or icon an opaque fill must cover to hide it.
const MOST: f64 = 0.5;

/// What may be hidden: each text, and each icon as a whole, with the place of its
/// last leaf; only those whose last leaf is drawn before leaf `before` (what is
/// drawn later has nothing after it to hide it).
fn targets<'l, 'a>(leaves: &'l [Leaf<'a>], before: usize) -> Vec<(usize, Vec<&'l Leaf<'a>>)> {
    let mut icons: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let mut out = Vec::new();
    for (i, leaf) in leaves.iter().enumerate() {
        match (&leaf.what, leaf.icon) {
            (What::Text(t), None) if i < before && !t.trim().is_empty() => {
                out.push((i, vec![leaf]))
            }
            (_, Some(icon)) => icons.entry(icon).or_default().push(i),
            _ => {}
        }
    }
    for group in icons.into_values() {
        let last = group.iter().copied().max().unwrap_or(0);
        if last < before {
            out.push((last, group.iter().map(|&i| &leaves[i]).collect()));
        }
    }
    out
}

/// The fill of a leaf alone (its strokes left out): what hides what lies under it.
fn fill_of<'a>(leaf: &Leaf<'a>) -> Leaf<'a> {
    Leaf {
        what: leaf.what.clone(),
        outlines: leaf
            .outlines
            .iter()
            .filter(|o| o.fill.is_some())
            .map(|o| super::elements::Outline {
                stroke: None,
                ..o.clone()
            })
            .collect(),
        image_rect: leaf.image_rect,
        bbox: leaf.bbox,
        element: leaf.element,
        keep: leaf.keep,
        icon: leaf.icon,
        opaque: leaf.opaque,
        text_sizes: leaf.text_sizes,
    }
}

/// A leaf that can hide what was drawn before it ([`BoxGrid`] finds those near
/// a text).
struct Cover {
    /// Its place in the face's leaves (in drawing order).
    leaf: usize,
    bbox: usvg::Rect,
    icon: Option<usize>,
}

/// Opaque shapes and pictures drawn after a text or an icon that cover most of it.
pub fn hidden(face: &Face, leaves: &[Leaf], out: &mut Vec<Finding>) {
    // What can hide anything, in drawing order.
    let covers: Vec<Cover> = (leaves.iter().enumerate())
        .filter(|(_, l)| l.opaque && !matches!(l.what, What::Text(_)))
        .map(|(leaf, l)| Cover {
            leaf,
            bbox: l.bbox,
            icon: l.icon,
        })
        .collect();
    // Only a cover drawn after a text or icon hides it: those drawn after the
    // last cover are left out.
    let Some(last_cover) = covers.last().map(|c| c.leaf) else {
        return;
    };
    let targets = targets(leaves, last_cover);
    if targets.is_empty() {
        return;
    }
    let grid = BoxGrid::new(&covers.iter().map(|c| bounds(&c.bbox)).collect::<Vec<_>>());
    let mut near = Near::default();
    for (last, group) in targets {
        let Some(b) = bbox(&group) else { continue };
        let mut own: Option<f64> = None;
        // The covers near it drawn after its last leaf, in drawing order.
        grid.near(&bounds(&b), &mut near);
        for cover in near.places().map(|k| &covers[k]) {
            if cover.leaf <= last {
                continue;
            }
            let same_icon = cover.icon.is_some() && cover.icon == group[0].icon;
            if same_icon || !boxes_meet(&b, &cover.bbox, 0.0) {
                continue;
            }
            let later = &leaves[cover.leaf];
            let own = *own
                .get_or_insert_with(|| own_area(&group, face.mm_per_unit).max(f64::MIN_POSITIVE));
            let area = common_area(&group, &[&fill_of(later)], face.mm_per_unit);
            let share = area / own;
            if share < MOST {
                continue;
            }
            let what = match (&group[0].what, group[0].icon) {
                (_, Some(_)) => "an icon".to_string(),
                (w, None) => w.describe(),
            };
            out.push(Finding {
                check: Check::Hidden,
                message: format!(
                    "{} drawn after {what} covers {:.0} % of it ({} mm²)",
                    later.what.describe(),
                    (share * 100.0).min(100.0),
                    fmt_num(area)
                ),
                element: later.element,
                other: group[0].icon.or(group[0].element),
                worst: share,
            });
        }
    }
}
