//! Plane geometry in millimetres: rectangles and path segments, shared by layout,
//! text outlines and the exporters.

/// An axis-aligned rectangle in millimetres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    /// Right edge.
    pub fn right(&self) -> f64 {
        self.x + self.w
    }

    /// Bottom edge.
    pub fn bottom(&self) -> f64 {
        self.y + self.h
    }

    /// Grows the rectangle by `d` on every side.
    pub fn grow(&self, d: f64) -> Rect {
        Rect {
            x: self.x - d,
            y: self.y - d,
            w: self.w + 2.0 * d,
            h: self.h + 2.0 * d,
        }
    }

    /// The smallest rectangle holding both.
    pub fn union(&self, o: &Rect) -> Rect {
        let x = self.x.min(o.x);
        let y = self.y.min(o.y);
        Rect {
            x,
            y,
            w: self.right().max(o.right()) - x,
            h: self.bottom().max(o.bottom()) - y,
        }
    }

    /// The overlap of both (zero-sized if they do not overlap).
    pub fn intersect(&self, o: &Rect) -> Rect {
        let x = self.x.max(o.x);
        let y = self.y.max(o.y);
        Rect {
            x,
            y,
            w: (self.right().min(o.right()) - x).max(0.0),
            h: (self.bottom().min(o.bottom()) - y).max(0.0),
        }
    }
}

/// One segment of an outline path.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Segment {
    Move(f64, f64),
    Line(f64, f64),
    /// A cubic Bézier to the last point, through two control points.
    Cubic(f64, f64, f64, f64, f64, f64),
    Close,
}
