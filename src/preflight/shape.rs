//! A part's cut shape and its safe zone: how far a point is inside the cut line
//! (negative outside it), for every shape the layout cuts.

use crate::geom::Rect;
use crate::layout::marks::corner_radius;
use crate::model::Shape;

/// A part's trim (origin at its top-left corner, in mm) and the shape it is cut to.
#[derive(Debug, Clone, Copy)]
pub struct Cut {
    pub shape: Shape,
    pub w: f64,
    pub h: f64,
}

impl Cut {
    /// Distance in mm from (`x`, `y`) to the cut line: positive inside, negative
    /// outside. The safe zone is where it is at least the safe distance: an inset
    /// rectangle (with rounded corners for a rounded part), circle or triangle.
    pub fn margin(&self, x: f64, y: f64) -> f64 {
        let (w, h) = (self.w, self.h);
        match self.shape {
            Shape::Rect => x.min(y).min(w - x).min(h - y),
            Shape::Rounded => {
                // Signed distance to a rounded box (the corners of layout's outline).
                let k = corner_radius(&Rect {
                    x: 0.0,
                    y: 0.0,
                    w,
                    h,
                });
                let qx = (x - w / 2.0).abs() - (w / 2.0 - k);
                let qy = (y - h / 2.0).abs() - (h / 2.0 - k);
                let outside = qx.max(0.0).hypot(qy.max(0.0)) + qx.max(qy).min(0.0) - k;
                -outside
            }
            Shape::Round => {
                let (a, b) = (w / 2.0, h / 2.0);
                let (dx, dy) = (x - a, y - b);
                if (a - b).abs() < 1e-9 {
                    a - dx.hypot(dy)
                } else {
                    // An ellipse: the normalised radius, scaled by the shorter axis.
                    (1.0 - (dx / a).hypot(dy / b)) * a.min(b)
                }
            }
            Shape::Triangle => {
                // Apex at the top centre, base along the bottom (as layout cuts it).
                let corners = [(w / 2.0, 0.0), (w, h), (0.0, h)];
                (0..3)
                    .map(|i| {
                        let (a, b) = (corners[i], corners[(i + 1) % 3]);
                        let (ex, ey) = (b.0 - a.0, b.1 - a.1);
                        // The inside is to the right of each edge (clockwise corners
                        // in y-down coordinates).
                        (ex * (y - a.1) - ey * (x - a.0)) / ex.hypot(ey)
                    })
                    .fold(f64::INFINITY, f64::min)
            }
        }
    }

    /// How the cut line is named in messages.
    pub fn edge(&self) -> &'static str {
        match self.shape {
            Shape::Rect | Shape::Rounded => "the trim edge",
            Shape::Round => "the round cut",
            Shape::Triangle => "the triangular cut",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(shape: Shape) -> Cut {
        Cut {
            shape,
            w: 20.0,
            h: 20.0,
        }
    }

    #[test]
    fn margins_follow_the_cut_shape() {
        let near = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(near(cut(Shape::Rect).margin(3.0, 10.0), 3.0));
        assert!(near(cut(Shape::Rect).margin(-1.0, 10.0), -1.0));
        // A circle of radius 10: the corner of the square is outside it.
        assert!(near(cut(Shape::Round).margin(10.0, 4.0), 4.0));
        assert!(cut(Shape::Round).margin(1.0, 1.0) < 0.0);
        // A rounded square: its corner is cut away (radius 1.6 mm for 20 mm).
        assert!(cut(Shape::Rounded).margin(0.1, 0.1) < 0.0);
        assert!(near(cut(Shape::Rounded).margin(3.0, 10.0), 3.0));
        // The triangle: the base, the centre of the inscribed circle, a point
        // 0.7 mm inside a slanted edge, and a point the rectangle calls safe.
        let t = cut(Shape::Triangle);
        assert!(near(t.margin(10.0, 19.0), 1.0));
        let side = 10.0f64.hypot(20.0);
        let r = 2.0 * 200.0 / (20.0 + 2.0 * side);
        assert!(near(t.margin(10.0, 20.0 - r), r));
        let (nx, ny) = (20.0 / side, 10.0 / side); // inward normal of the right edge
        let (px, py) = (15.0 - 0.7 * nx, 10.0 + 0.7 * ny);
        assert!(near(t.margin(px, py), 0.7), "{}", t.margin(px, py));
        assert!(
            t.margin(4.0, 4.0) < 0.0,
            "outside the triangle, 4 mm from the box"
        );
    }
}
