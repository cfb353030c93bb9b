//! Whether two drawn things meet: both rasterised without anti-aliasing into the
//! box where they could, and the pixels they both paint counted. Exact for any
//! shape, stroke and glyph, where comparing boxes would report a circle's corner.

use resvg::tiny_skia::{FillRule, Mask, PathBuilder, Transform};

use super::elements::{scale_of, Leaf};
use usvg::tiny_skia_path::Rect;

/// Resolution of the test.
const PX_PER_MM: f64 = 20.0;
/// Largest side of the test area, in pixels (a larger area is tested coarser).
const MAX_PX: f64 = 800.0;

/// The box around leaves.
pub fn bbox(leaves: &[&Leaf]) -> Option<Rect> {
    leaves.iter().map(|l| l.bbox).reduce(|a, b| {
        Rect::from_ltrb(
            a.left().min(b.left()),
            a.top().min(b.top()),
            a.right().max(b.right()),
            a.bottom().max(b.bottom()),
        )
        .unwrap_or(a)
    })
}

/// The area in mm² that both `a` and `b` paint; `mm_per_unit` converts the face's
/// coordinates to mm.
pub fn common_area(a: &[&Leaf], b: &[&Leaf], mm_per_unit: f64) -> f64 {
    let (Some(ra), Some(rb)) = (bbox(a), bbox(b)) else {
        return 0.0;
    };
    let Some(r) = ra
        .intersect(&rb)
        .filter(|r| r.width() > 0.0 && r.height() > 0.0)
    else {
        return 0.0;
    };
    let longest = r.width().max(r.height()) as f64;
    let px_per_unit = (PX_PER_MM * mm_per_unit).min(MAX_PX / longest);
    let (w, h) = (
        (r.width() as f64 * px_per_unit).ceil().max(1.0) as u32,
        (r.height() as f64 * px_per_unit).ceil().max(1.0) as u32,
    );
    let s = px_per_unit as f32;
    let base = Transform::from_row(s, 0.0, 0.0, s, -r.left() * s, -r.top() * s);
    let (Some(ma), Some(mb)) = (mask(a, base, w, h), mask(b, base, w, h)) else {
        return 0.0;
    };
    let both = ma
        .data()
        .iter()
        .zip(mb.data())
        .filter(|(x, y)| **x > 0 && **y > 0)
        .count();
    let mm_per_px = mm_per_unit / px_per_unit;
    both as f64 * mm_per_px * mm_per_px
}

/// What `leaves` paint, as a `w` x `h` mask under `base`.
fn mask(leaves: &[&Leaf], base: Transform, w: u32, h: u32) -> Option<Mask> {
    let mut m = Mask::new(w, h)?;
    for leaf in leaves {
        if let Some(r) = leaf.image_rect {
            m.fill_path(&PathBuilder::from_rect(r), FillRule::Winding, false, base);
        }
        for o in &leaf.outlines {
            let ts = base.pre_concat(o.ts);
            if let Some(rule) = o.fill {
                m.fill_path(o.path, rule, false, ts);
            }
            if let Some(stroked) = o
                .stroke
                .as_ref()
                .and_then(|s| o.path.stroke(s, scale_of(ts)))
            {
                m.fill_path(&stroked, FillRule::Winding, false, ts);
            }
        }
    }
    Some(m)
}
