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
    let Some(grid) = ra.intersect(&rb).and_then(|r| Grid::over(r, mm_per_unit)) else {
        return 0.0;
    };
    let (Some(ma), Some(mb)) = (grid.mask(a), grid.mask(b)) else {
        return 0.0;
    };
    let both = ma
        .data()
        .iter()
        .zip(mb.data())
        .filter(|(x, y)| **x > 0 && **y > 0)
        .count();
    grid.mm2(both)
}

/// The area in mm² that `a` paints: `common_area(a, a, mm_per_unit)`, rasterised
/// once (the same box, the same pixels, each painted by both).
pub fn own_area(a: &[&Leaf], mm_per_unit: f64) -> f64 {
    let Some(grid) = bbox(a).and_then(|r| Grid::over(r, mm_per_unit)) else {
        return 0.0;
    };
    let Some(m) = grid.mask(a) else {
        return 0.0;
    };
    grid.mm2(m.data().iter().filter(|x| **x > 0).count())
}

/// The pixels a test counts: a box of the face at [`PX_PER_MM`] (coarser when
/// a side would pass [`MAX_PX`]).
struct Grid {
    /// From the face's coordinates to the grid's pixels.
    base: Transform,
    w: u32,
    h: u32,
    mm_per_px: f64,
}

impl Grid {
    /// The grid over `r`, if it has an area.
    fn over(r: Rect, mm_per_unit: f64) -> Option<Grid> {
        if !(r.width() > 0.0 && r.height() > 0.0) {
            return None;
        }
        let longest = r.width().max(r.height()) as f64;
        let px_per_unit = (PX_PER_MM * mm_per_unit).min(MAX_PX / longest);
        let s = px_per_unit as f32;
        Some(Grid {
            base: Transform::from_row(s, 0.0, 0.0, s, -r.left() * s, -r.top() * s),
            w: (r.width() as f64 * px_per_unit).ceil().max(1.0) as u32,
            h: (r.height() as f64 * px_per_unit).ceil().max(1.0) as u32,
            mm_per_px: mm_per_unit / px_per_unit,
        })
    }

    /// What `leaves` paint on the grid.
    fn mask(&self, leaves: &[&Leaf]) -> Option<Mask> {
        mask(leaves, self.base, self.w, self.h)
    }

    /// The area of `px` pixels, in mm².
    fn mm2(&self, px: usize) -> f64 {
        px as f64 * self.mm_per_px * self.mm_per_px
    }
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
