//! The checks of one face: text and keep-visible art inside the cut shape's safe
//! The checks of one face: text and keep-visible art inside the cut shape's safe
//! zone, text over text, text too small to read, later elements over keep-visible
//! ones, opaque fills over text and icons (`hidden.rs`), raster images under
//! 300 dpi, and a background short of the bleed edge.

use std::collections::BTreeMap;

use usvg::{Node, Tree};

use super::cover::{common_area, own_area};
use super::elements::{corners, half_stroke, points, Leaf, What};
use super::shape::Cut;
use super::text_size::too_small;
use super::MIN_DPI;
use crate::box_grid::{BoxGrid, Near};
use crate::profile::SmallText;
use crate::units::{fmt_num, MM_PER_IN};

/// Smallest area (mm²) two things must share to count as overlapping: less is
/// anti-aliasing, a hairline touch.
const MIN_AREA: f64 = 0.02;

/// What a finding is about (and the order findings are reported in).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Check {
    SafeZone,
    Overlap,
    SmallText,
    Covered,
    Hidden,
    Resolution,
    Background,
    /// A print shop's (a CMYK profile): a line under 0.25 pt.
    ThinLine,
    /// A print shop's: a CMYK colour the template gives over the ink limit.
    InkLimit,
    /// A print shop's: text under 12 pt in a rich black (more inks than black).
    RichBlackText,
    /// A print shop's: a raster image in RGB, converted to the shop's CMYK.
    RgbImage,
}

/// A problem of one face.
#[derive(Debug, Clone)]
pub struct Finding {
    pub check: Check,
    pub message: String,
    /// The element it is about, when known.
    pub element: Option<usize>,
    /// The other element involved (the text overlapped, the element covered).
    pub other: Option<usize>,
    /// How bad it is (larger is worse), to report the worst of a group.
    pub worst: f64,
}

/// One face's geometry.
pub struct Face<'a> {
    /// The face's trees, bottom first ([`crate::export::Stack`]).
    pub trees: &'a [std::sync::Arc<Tree>],
    pub cut: Cut,
    pub bleed: f64,
    /// Safe distance inside the cut line, in mm.
    pub safe: f64,
    /// Millimetres per unit of the tree's coordinates.
    pub mm_per_unit: f64,
    /// A print shop's colour, when the profile is CMYK: its checks run too.
    pub print: Option<&'a crate::color::PrintColor>,
    /// The least text sizes.
    pub text: SmallText,
}

impl Face<'_> {
    /// Distance (mm) from a point of the tree to the cut line (positive inside).
    fn margin(&self, x: f32, y: f32) -> f64 {
        let to_mm = |v: f32| v as f64 * self.mm_per_unit - self.bleed;
        self.cut.margin(to_mm(x), to_mm(y))
    }

    /// The smallest margin of anything `leaves` paint (strokes included), exact
    /// when it is under `enough`; otherwise some value of at least `enough`.
    ///
    /// Every cut shape's margin is concave (the distance inside a convex shape),
    /// so over a parallelogram it is least at a corner: an outline whose bounds'
    /// corners are all `enough` inside is not measured point by point (most
    /// text is nowhere near the safe zone).
    fn min_margin(&self, leaves: &[&Leaf], enough: f64) -> Option<f64> {
        let mut m: Option<f64> = None;
        for leaf in leaves {
            for o in &leaf.outlines {
                let half = half_stroke(o) as f64 * self.mm_per_unit;
                let least = corners(o)
                    .iter()
                    .map(|p| self.margin(p.x, p.y))
                    .fold(f64::INFINITY, f64::min)
                    - half;
                // A thousandth of a millimetre for the corners' rounding in f32.
                if least >= enough + 1e-3 {
                    m = Some(m.map_or(least, |m| m.min(least)));
                    continue;
                }
                let (pts, half) = points(o);
                for p in pts {
                    let v = self.margin(p.x, p.y) - half as f64 * self.mm_per_unit;
                    m = Some(m.map_or(v, |m| m.min(v)));
                }
            }
            if let Some(r) = leaf.image_rect {
                for (x, y) in [
                    (r.left(), r.top()),
                    (r.right(), r.bottom()),
                    (r.left(), r.bottom()),
                    (r.right(), r.top()),
                ] {
                    let v = self.margin(x, y);
                    m = Some(m.map_or(v, |m| m.min(v)));
                }
            }
        }
        m
    }
}

/// Every finding of a face whose drawn nodes are `leaves`.
pub fn check(face: &Face, leaves: &[Leaf]) -> Vec<Finding> {
    let mut out = Vec::new();
    safe_zone(face, leaves, &mut out);
    overlaps(face, leaves, &mut out);
    small_text(face, leaves, &mut out);
    covered(face, leaves, &mut out);
    super::hidden::hidden(face, leaves, &mut out);
    resolution(face, leaves, &mut out);
    background(face, &mut out);
    shop(face, leaves, &mut out);
    out
}

/// Thinnest line a press holds, in points.
pub const MIN_LINE_PT: f64 = 0.25;
const MM_PER_PT: f64 = MM_PER_IN / 72.0;

/// What a print shop's press does not hold (a CMYK profile only): lines under
/// 0.25 pt at print size, raster images in RGB. (Text under 6 pt is the general
/// text-size check's.)
fn shop(face: &Face, leaves: &[Leaf], out: &mut Vec<Finding>) {
    if face.print.is_none() {
        return;
    }
    let pt = |units: f64| units * face.mm_per_unit / MM_PER_PT;
    for leaf in leaves {
        match &leaf.what {
            What::Shape => {
                let thinnest = leaf
                    .outlines
                    .iter()
                    .filter_map(|o| {
                        Some(pt(f64::from(
                            o.stroke.as_ref()?.width * super::elements::scale_of(o.ts),
                        )))
                    })
                    .fold(f64::INFINITY, f64::min);
                if thinnest < MIN_LINE_PT {
                    out.push(Finding {
                        check: Check::ThinLine,
                        message: format!(
                            "a line {} pt wide at print size: a press needs {MIN_LINE_PT} pt or more",
                            fmt_num((thinnest * 100.0).round() / 100.0)
                        ),
                        element: leaf.element,
                        other: None,
                        worst: MIN_LINE_PT - thinnest,
                    });
                }
            }
            What::Text(_) => {}
            What::Image(_) => out.push(Finding {
                check: Check::RgbImage,
                message: "an RGB image is converted to the shop's CMYK: its colours may move"
                    .into(),
                element: leaf.element,
                other: None,
                worst: 0.0,
            }),
        }
    }
}

/// What lies closer to the cut line than the safe distance: each text, and each
/// keep-visible element as a whole.
fn safe_zone(face: &Face, leaves: &[Leaf], out: &mut Vec<Finding>) {
    let edge = face.cut.edge();
    // Margins down to this are fine (a twentieth of a millimetre is rounding).
    let fine = face.safe - 0.05;
    // `what` is written out only for a margin reported (most are fine).
    let mut report = |what: &dyn std::fmt::Display, margin: f64, element| {
        if margin >= fine {
            return;
        }
        let message = if margin < 0.0 {
            format!("{what} runs {} mm past {edge}", fmt_num(-margin))
        } else {
            format!(
                "{what} is {} mm from {edge}, inside the {} mm safe zone",
                fmt_num(margin),
                fmt_num(face.safe)
            )
        };
        out.push(Finding {
            check: Check::SafeZone,
            message,
            element,
            other: None,
            worst: face.safe - margin,
        });
    };
    // Texts only: a shape's margin counts in its keep-visible element's, below.
    for leaf in leaves.iter().filter(|l| matches!(l.what, What::Text(_))) {
        if let Some(m) = face.min_margin(&[leaf], fine) {
            report(&Described(&leaf.what), m, leaf.element);
        }
    }
    for (k, group) in keep_groups(leaves) {
        if let Some(m) = face.min_margin(&group, fine) {
            report(&"a keep-visible element", m, Some(k));
        }
    }
}

/// The leaves of every keep-visible element, by element.
fn keep_groups<'l, 'a>(leaves: &'l [Leaf<'a>]) -> BTreeMap<usize, Vec<&'l Leaf<'a>>> {
    let mut groups: BTreeMap<usize, Vec<&Leaf>> = BTreeMap::new();
    for leaf in leaves {
        if let Some(k) = leaf.keep {
            groups.entry(k).or_default().push(leaf);
        }
    }
    groups
}

/// A box as [`BoxGrid`] takes it.
pub(super) fn bounds(r: &usvg::Rect) -> crate::box_grid::Bounds {
    [r.left(), r.top(), r.right(), r.bottom()].map(f64::from)
}

/// Whether two boxes share more than `d` units each way.
pub(super) fn boxes_meet(a: &usvg::Rect, b: &usvg::Rect, d: f32) -> bool {
    a.left().max(b.left()) + d < a.right().min(b.right())
        && a.top().max(b.top()) + d < a.bottom().min(b.bottom())
}

/// Text drawn over other text. The same text twice (a shadow, an outline drawn
/// under the letters) is left alone.
fn overlaps(face: &Face, leaves: &[Leaf], out: &mut Vec<Finding>) {
    let texts: Vec<(&Leaf, &str)> = leaves
        .iter()
        .filter_map(|l| match &l.what {
            What::Text(t) if !t.trim().is_empty() => Some((l, t.as_str())),
            _ => None,
        })
        .collect();
    if texts.len() < 2 {
        return;
    }
    let d = (0.1 / face.mm_per_unit) as f32;
    let mut pair = |(a, ta): &(&Leaf, &str), (b, tb): &(&Leaf, &str)| {
        if !boxes_meet(&a.bbox, &b.bbox, d) || ta == tb {
            return;
        }
        let area = common_area(&[a], &[b], face.mm_per_unit);
        if area > MIN_AREA {
            out.push(Finding {
                check: Check::Overlap,
                message: format!("{} overlaps {}", b.what.describe(), a.what.describe()),
                element: b.element,
                other: a.element,
                worst: area,
            });
        }
    };
    // Each text against those drawn before it near it ([`BoxGrid`] holds every
    // text whose box meets its box), in drawing order: a scan of all pairs'.
    let boxes: Vec<_> = texts.iter().map(|(l, _)| bounds(&l.bbox)).collect();
    let grid = BoxGrid::new(&boxes);
    let mut near = Near::default();
    for (j, b) in texts.iter().enumerate() {
        grid.near(&boxes[j], &mut near);
        for i in near.places().take_while(|&i| i < j) {
            pair(&texts[i], b);
        }
    }
}

/// Text smaller at print size than a player can read ([`SmallText`]).
fn small_text(face: &Face, leaves: &[Leaf], out: &mut Vec<Finding>) {
    for leaf in leaves {
        let Some(sizes) = &leaf.text_sizes else {
            continue;
        };
        // Named only in a message: most texts are large enough.
        let what = Described(&leaf.what);
        if let Some((message, short)) = too_small(sizes, face.mm_per_unit, &face.text, &what) {
            out.push(Finding {
                check: Check::SmallText,
                message,
                element: leaf.element,
                other: None,
                worst: short,
            });
        }
    }
}

/// An element as a message names it, made only when a message is written.
struct Described<'w>(&'w What);

impl std::fmt::Display for Described<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.describe())
    }
}

/// Elements drawn after a keep-visible element that paint over it.
fn covered(face: &Face, leaves: &[Leaf], out: &mut Vec<Finding>) {
    let groups = keep_groups(leaves);
    if groups.is_empty() {
        return;
    }
    // The place of each keep-visible element's last leaf.
    let mut lasts: BTreeMap<usize, usize> = BTreeMap::new();
    for (i, leaf) in leaves.iter().enumerate() {
        if let Some(k) = leaf.keep {
            lasts.insert(k, i);
        }
    }
    for (k, group) in groups {
        let last = lasts.get(&k).copied().unwrap_or(0);
        let Some(kb) = super::cover::bbox(&group) else {
            continue;
        };
        // Its own area names the share covered: measured only when something is.
        let mut own: Option<f64> = None;
        for later in &leaves[last + 1..] {
            if later.keep == Some(k) || !boxes_meet(&kb, &later.bbox, 0.0) {
                continue;
            }
            let area = common_area(&group, &[later], face.mm_per_unit);
            if area > MIN_AREA {
                let own = *own.get_or_insert_with(|| {
                    own_area(&group, face.mm_per_unit).max(f64::MIN_POSITIVE)
                });
                out.push(Finding {
                    check: Check::Covered,
                    message: format!(
                        "{} covers a keep-visible element ({} mm², {:.0} % of it)",
                        later.what.describe(),
                        fmt_num(area),
                        (area / own * 100.0).min(100.0)
                    ),
                    element: later.element,
                    other: Some(k),
                    worst: area,
                });
            }
        }
    }
}

/// Raster images under [`MIN_DPI`] at their printed size.
fn resolution(face: &Face, leaves: &[Leaf], out: &mut Vec<Finding>) {
    for leaf in leaves {
        let (What::Image(Some(pw)), Some(r)) = (&leaf.what, leaf.image_rect) else {
            continue;
        };
        let printed_in = r.width() as f64 * face.mm_per_unit / MM_PER_IN;
        let dpi = *pw as f64 / printed_in;
        if printed_in > 0.0 && dpi < MIN_DPI - 0.5 {
            out.push(Finding {
                check: Check::Resolution,
                message: format!(
                    "an image is {dpi:.0} dpi at its printed size ({pw} px over {} mm); print shops want {MIN_DPI:.0}",
                    fmt_num(printed_in * MM_PER_IN)
                ),
                element: leaf.element,
                other: None,
                worst: MIN_DPI - dpi,
            });
        }
    }
}

/// A rectangular part with bleed whose background stops short of the bleed edge.
fn background(face: &Face, out: &mut Vec<Finding>) {
    use crate::model::Shape;
    if face.bleed <= 0.0
        || !matches!(face.cut.shape, Shape::Rect | Shape::Rounded)
        || face.trees.iter().any(|t| has_full_background(t))
    {
        return;
    }
    if let Some(blank) = blank_edge(face.trees) {
        out.push(Finding {
            check: Check::Background,
            message: format!(
                "the background does not reach the bleed edge ({blank:.0} % of the edge is blank)"
            ),
            element: None,
            other: None,
            worst: blank,
        });
    }
}

/// Whether an opaque filled shape covers the whole face, bleed included (the usual
/// background rectangle): then the edge need not be rasterised to be checked.
fn has_full_background(tree: &Tree) -> bool {
    let (w, h) = (tree.size().width(), tree.size().height());
    fn any(g: &usvg::Group, w: f32, h: f32) -> bool {
        g.children().iter().any(|n| match n {
            Node::Group(g) => {
                g.opacity().get() >= 1.0
                    && g.clip_path().is_none()
                    && g.mask().is_none()
                    && any(g, w, h)
            }
            Node::Path(p) => {
                let b = p.abs_bounding_box();
                let opaque = p.fill().is_some_and(|f| {
                    f.opacity().get() >= 1.0 && matches!(f.paint(), usvg::Paint::Color(_))
                });
                // Only an axis-aligned rectangle's bounding box is its shape.
                let ts = p.abs_transform();
                let rect = p.data().len() <= 5 && ts.kx == 0.0 && ts.ky == 0.0;
                opaque
                    && rect
                    && b.left() <= 0.01
                    && b.top() <= 0.01
                    && b.right() >= w - 0.01
                    && b.bottom() >= h - 0.01
            }
            _ => false,
        })
    }
    any(tree.root(), w, h)
}

/// Percentage of the outermost pixel ring left unpainted, if any.
fn blank_edge(trees: &[std::sync::Arc<Tree>]) -> Option<f64> {
    let scale = 0.5f32; // about 2 px per mm: enough to see a gap, cheap to render
    let size = trees.first()?.size();
    let (w, h) = (
        (size.width() * scale).floor() as u32,
        (size.height() * scale).floor() as u32,
    );
    let mut pm = resvg::tiny_skia::Pixmap::new(w.max(2), h.max(2))?;
    for tree in trees {
        resvg::render(
            tree,
            resvg::tiny_skia::Transform::from_scale(scale, scale),
            &mut pm.as_mut(),
        );
    }
    let (w, h) = (pm.width(), pm.height());
    let ring = (0..w)
        .flat_map(|x| [(x, 0), (x, h - 1)])
        .chain((0..h).flat_map(|y| [(0, y), (w - 1, y)]));
    let (mut blank, mut total) = (0u32, 0u32);
    for (x, y) in ring {
        total += 1;
        blank += (pm.pixel(x, y).map(|p| p.alpha()).unwrap_or(0) < 250) as u32;
    }
    let pct = blank as f64 * 100.0 / total as f64;
    (pct > 2.0).then_some(pct)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    /// A face 60 x 50 mm of `shape` showing `trees` (the first sets its scale),
    /// with a 3 mm safe zone and no bleed.
    fn face_60_by_50(trees: &[Arc<usvg::Tree>], shape: Shape) -> Face<'_> {
        Face {
            trees,
            cut: Cut {
                shape,
                w: 60.0,
                h: 50.0,
            },
            bleed: 0.0,
            safe: 3.0,
            mm_per_unit: 60.0 / trees[0].size().width() as f64,
            print: None,
            text: SmallText::default(),
        }
    }
    use crate::model::Shape;
    use crate::preflight::elements::{leaves, Elements};

    /// The leaves of `svg` (60 x 50 mm), its elements named (a copy with ids).
    fn tagged_leaves(svg: &str, check: impl FnOnce(&Face, &[Leaf])) {
        let fonts = crate::fonts::FontBook::builtin();
        let images = Arc::new(crate::svg::Images::none());
        let elements = Elements::read(svg).unwrap();
        let tree = Arc::new(crate::svg::parse(&elements.tagged(svg), &images, &fonts).unwrap());
        let trees = [tree.clone()];
        let leaves = leaves(&trees, &elements, 0.5);
        let face = face_60_by_50(&trees, Shape::Rect);
        check(&face, &leaves);
    }

    #[test]
    fn the_safe_zone_names_texts_and_keep_visible_elements_not_other_shapes() {
        // A text and a keep-visible circle inside the 3 mm zone are reported; a
        // shape there that is neither, and a text well inside, are not.
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="50mm" viewBox="0 0 60 50">
<rect x="0.5" y="20" width="5" height="5"/>
<text x="1" y="10" font-size="4">Edge</text>
<text x="20" y="25" font-size="4">Middle</text>
<circle class="keep-visible" cx="57" cy="25" r="1.5"/>
<path d="M59 40 L59.5 45" stroke="#000" stroke-width="0.2"/>
</svg>"##;
        tagged_leaves(svg, |face, leaves| {
            let mut out = Vec::new();
            safe_zone(face, leaves, &mut out);
            let found: Vec<_> = out.iter().map(|f| (f.element, f.message.clone())).collect();
            assert_eq!(found.len(), 2, "{found:?}");
            assert_eq!(found[0].0, Some(1));
            assert!(
                found[0].1.starts_with("text \"Edge\" is ")
                    && found[0]
                        .1
                        .ends_with(" mm from the trim edge, inside the 3 mm safe zone"),
                "{found:?}"
            );
            assert_eq!(
                found[1],
                (
                    Some(3),
                    "a keep-visible element is 1.5 mm from the trim edge, inside the 3 mm safe zone"
                        .to_string()
                )
            );
        });
    }

    #[test]
    fn texts_and_icons_are_hidden_only_by_covers_drawn_after_them() {
        // A background, then a text and an icon each under an opaque panel drawn
        // after it, a text under the last panel, and a text drawn after every
        // panel (over one): three hidden, the last not.
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="50mm" viewBox="0 0 60 50">
<rect width="60" height="50" fill="#ccc"/>
<text x="8" y="12" font-size="4">Alpha</text>
<g class="icon"><circle cx="45" cy="10" r="2"/></g>
<rect x="5" y="5" width="45" height="10" fill="#333"/>
<text x="8" y="32" font-size="4">Beta</text>
<rect x="5" y="25" width="20" height="10" fill="#333"/>
<text x="8" y="12" font-size="4" fill="#fff">Gamma</text>
</svg>"##;
        tagged_leaves(svg, |face, leaves| {
            let mut out = Vec::new();
            crate::preflight::hidden::hidden(face, leaves, &mut out);
            let found: Vec<_> = out
                .iter()
                .map(|f| {
                    (
                        f.element,
                        f.other,
                        f.message.split(" covers").next().unwrap().to_string(),
                    )
                })
                .collect();
            let hid = |by, what: usize, m: &str| (Some(by), Some(what), m.to_string());
            assert_eq!(
                found,
                vec![
                    hid(4, 1, "a shape drawn after text \"Alpha\""),
                    hid(6, 5, "a shape drawn after text \"Beta\""),
                    hid(4, 2, "a shape drawn after an icon"),
                ]
            );
        });
    }

    #[test]
    fn only_what_is_drawn_after_a_keep_visible_element_covers_it() {
        // Panels drawn before keep-visible elements, under them, do not cover
        // them; only the panel drawn after the second does.
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="50mm" viewBox="0 0 60 50">
<rect width="60" height="50" fill="#ccc"/>
<rect x="5" y="5" width="20" height="20"/>
<circle class="keep-visible" cx="10" cy="10" r="4"/>
<rect x="30" y="5" width="20" height="20"/>
<circle class="keep-visible" cx="40" cy="10" r="4"/>
<rect x="35" y="5" width="10" height="10" fill="#fff"/>
<circle class="keep-visible" cx="10" cy="40" r="4"/>
</svg>"##;
        tagged_leaves(svg, |face, leaves| {
            let mut out = Vec::new();
            covered(face, leaves, &mut out);
            let found: Vec<_> = out.iter().map(|f| (f.element, f.other)).collect();
            assert_eq!(found, vec![(Some(5), Some(4))], "the panel over the second");
        });
    }

    #[test]
    fn covered_keep_visible_elements_are_named_with_their_share_in_drawing_order() {
        // Four keep-visible elements (one a group of two circles) and what is
        // drawn after them: the share of each covered needs its own area,
        // measured only for one something covers (and once); the findings come
        // element by element, then in drawing order.
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="50mm" viewBox="0 0 60 50">
<circle class="keep-visible" cx="10" cy="10" r="4"/>
<g class="keep-visible"><circle cx="30" cy="10" r="3"/><circle cx="36" cy="10" r="3"/></g>
<circle class="keep-visible" cx="10" cy="30" r="4"/>
<circle class="keep-visible" cx="40" cy="35" r="5"/>
<rect x="10" y="0" width="20" height="20"/>
<rect x="33" y="5" width="10" height="3" fill="none" stroke="#000" stroke-width="1"/>
<rect x="0" y="37" width="60" height="13"/>
<rect x="35" y="30" width="20" height="20" fill="#fff"/>
<rect x="8" y="28" width="0.1" height="0.1"/>
</svg>"##;
        tagged_leaves(svg, |face, leaves| {
            let mut out = Vec::new();
            covered(face, leaves, &mut out);
            let found: Vec<_> = out
                .iter()
                .map(|f| (f.element, f.other, f.message.clone()))
                .collect();
            let share = |e, k, mm2, pct| {
                let m = format!("a shape covers a keep-visible element ({mm2} mm², {pct} % of it)");
                (Some(e), Some(k), m)
            };
            // Elements: 0 a circle, 1 the group (2 and 3 its circles), 4 and 5
            // circles, 6 to 10 what is drawn after them (10 covers too little).
            assert_eq!(
                found,
                [
                    share(6, 0, "25.043", 50),
                    share(6, 1, "14.055", 25),
                    share(7, 1, "4.393", 8),
                    share(8, 5, "19.718", 25),
                    share(9, 5, "78.455", 100),
                ]
            );
        });
    }

    #[test]
    fn overlaps_near_ones_are_those_of_a_scan_of_all_pairs_in_its_order() {
        // Texts strewn over the face, some the same text twice (left alone):
        // the overlaps found through the box grid are a scan of all pairs', in
        // its order.
        for n in [44, 94] {
            let mut svg = String::from(
                r##"<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="50mm" viewBox="0 0 60 50">"##,
            );
            for i in 0..n {
                let (x, y) = ((i * 37 % 35) as f64, (i * 23 % 30) as f64 + 2.0);
                let word = ["Haul", "Depot", "Fuel", "Road"][i % 4];
                let size = 2.0 + (i % 3) as f64;
                svg.push_str(&format!(
                    r##"<text x="{x}" y="{y}" font-size="{size}">{word} {}</text>"##,
                    i % 7
                ));
            }
            svg.push_str("<rect x=\"2\" y=\"2\" width=\"5\" height=\"5\"/></svg>");
            tagged_leaves(&svg, |face, leaves| {
                let mut out = Vec::new();
                overlaps(face, leaves, &mut out);
                let texts: Vec<&Leaf> = leaves
                    .iter()
                    .filter(|l| matches!(&l.what, What::Text(t) if !t.trim().is_empty()))
                    .collect();
                let d = (0.1 / face.mm_per_unit) as f32;
                let mut scan = Vec::new();
                for (j, b) in texts.iter().enumerate() {
                    for a in &texts[..j] {
                        if a.what == b.what || !boxes_meet(&a.bbox, &b.bbox, d) {
                            continue;
                        }
                        let area = common_area(&[a], &[b], face.mm_per_unit);
                        if area > MIN_AREA {
                            scan.push((b.element, a.element, area.to_bits()));
                        }
                    }
                }
                let found: Vec<_> = out
                    .iter()
                    .map(|f| (f.element, f.other, f.worst.to_bits()))
                    .collect();
                assert_eq!(found, scan);
                assert!(found.len() > n / 2, "{} overlaps of {n}", found.len());
            });
        }
    }

    #[test]
    fn own_area_is_the_common_area_of_a_thing_with_itself() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="50mm" viewBox="0 0 60 50">
<circle cx="10" cy="10" r="4"/>
<path d="M20 5q10 -4 15 8" fill="none" stroke="#000" stroke-width="0.7"/>
<text x="5" y="40" font-size="6" transform="rotate(12 5 40)">Own area</text>
<rect x="40" y="20" width="30" height="40" stroke="#000" stroke-width="2"/>
<rect x="1" y="1" width="0" height="3"/>
</svg>"##;
        tagged_leaves(svg, |face, leaves| {
            let all: Vec<&Leaf> = leaves.iter().collect();
            let mut groups: Vec<Vec<&Leaf>> = all.iter().map(|l| vec![*l]).collect();
            groups.push(all.clone());
            groups.push(all[1..3].to_vec());
            for g in &groups {
                let (own, common) = (
                    own_area(g, face.mm_per_unit),
                    common_area(g, g, face.mm_per_unit),
                );
                assert_eq!(own.to_bits(), common.to_bits(), "{own} and {common}");
                assert!(own > 0.0);
            }
        });
    }

    #[test]
    fn margins_under_the_safe_zone_stay_exact_when_corners_skip_the_rest() {
        let fonts = crate::fonts::FontBook::builtin();
        let images = Arc::new(crate::svg::Images::none());
        let mut svg = String::from(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="50mm" viewBox="0 0 60 50">"##,
        );
        for i in 0..60 {
            let (x, y) = ((i * 7 % 64) as f64 - 2.0, (i * 13 % 54) as f64 - 2.0);
            svg.push_str(&format!(
                r##"<text x="{x}" y="{y}" font-size="{}" transform="rotate({} {x} {y})">Edge {i}</text>
<path d="M{x} {y}q6 -4 9 2" fill="none" stroke="#000000" stroke-width="{}"/>"##,
                2.0 + (i % 5) as f64,
                i * 17 % 360,
                0.2 + (i % 4) as f64 * 0.6
            ));
        }
        svg.push_str("</svg>");
        let tree = std::sync::Arc::new(crate::svg::parse(&svg, &images, &fonts).unwrap());
        let elements = Elements::read(&svg).unwrap();
        let trees = [tree.clone()];
        let leaves = leaves(&trees, &elements, 0.5);
        assert_eq!(leaves.len(), 120);
        let (mut near, mut skipped) = (0, 0);
        for shape in [Shape::Rect, Shape::Rounded, Shape::Round, Shape::Triangle] {
            let face = face_60_by_50(&trees, shape);
            let fine = face.safe - 0.05;
            for leaf in &leaves {
                let exact = face.min_margin(&[leaf], f64::INFINITY).unwrap();
                let quick = face.min_margin(&[leaf], fine).unwrap();
                if exact < fine {
                    assert_eq!(quick, exact, "{shape:?}: {:?}", leaf.what);
                    near += 1;
                } else {
                    assert!(quick >= fine, "{shape:?}: {quick} for {exact}");
                    skipped += usize::from(quick != exact);
                }
            }
        }
        assert!(
            near > 50 && skipped > 100,
            "{near} near the cut, {skipped} skipped"
        );
    }
}
