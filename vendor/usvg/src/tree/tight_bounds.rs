// cardstock patch: a path's tight bounds, the same floats tiny-skia gives, sooner.

use tiny_skia_path::{PathVerb, Point, Rect};

/// `path.compute_tight_bounds()`, bit for bit, in about half the instructions.
///
/// tiny-skia walks the path through its segment iterator (not inlined: an enum a
/// segment) and gathers each segment's candidate points in an array before taking
/// their minimum and maximum. This walks the verbs and points directly and takes
/// the same candidates, computed with the same float operations in the same
/// order (a quadratic's extrema as `find_quad_extrema` and `eval_quad_at` compute
/// them, then its end point), folded into the minimum and maximum in the same
/// order (a cubic's as `find_cubic_extrema`, `find_unit_quad_roots` and
/// `eval_cubic_pos_at` do).
pub(crate) fn tight_bounds(path: &tiny_skia_path::Path) -> Option<Rect> {
    let verbs = path.verbs();
    let points = path.points();
    let first = *points.first()?;
    let mut bounds = Bounds {
        min: first,
        max: first,
    };
    let mut at = 0;
    let mut last_point = Point::zero();
    let mut last_move_to = Point::zero();
    for verb in verbs {
        match verb {
            PathVerb::Move => {
                let p = *points.get(at)?;
                at += 1;
                bounds.add(p);
                last_move_to = p;
                last_point = p;
            }
            PathVerb::Line => {
                let p = *points.get(at)?;
                at += 1;
                bounds.add(p);
                last_point = p;
            }
            PathVerb::Quad => {
                let (p1, p2) = (*points.get(at)?, *points.get(at + 1)?);
                at += 2;
                let src = [last_point, p1, p2];
                if let Some(t) = quad_extremum(last_point.x, p1.x, p2.x) {
                    bounds.add(eval_quad(&src, t));
                }
                if let Some(t) = quad_extremum(last_point.y, p1.y, p2.y) {
                    bounds.add(eval_quad(&src, t));
                }
                bounds.add(p2);
                last_point = p2;
            }
            PathVerb::Cubic => {
                let (p1, p2, p3) = (*points.get(at)?, *points.get(at + 1)?, *points.get(at + 2)?);
                at += 3;
                let src = [last_point, p1, p2, p3];
                let mut ts = [0.0; 2];
                for n in 0..cubic_extrema(last_point.x, p1.x, p2.x, p3.x, &mut ts) {
                    bounds.add(eval_cubic(&src, ts[n]));
                }
                for n in 0..cubic_extrema(last_point.y, p1.y, p2.y, p3.y, &mut ts) {
                    bounds.add(eval_cubic(&src, ts[n]));
                }
                bounds.add(p3);
                last_point = p3;
            }
            PathVerb::Close => last_point = last_move_to,
        }
    }
    Rect::from_ltrb(bounds.min.x, bounds.min.y, bounds.max.x, bounds.max.y)
}

/// The running minimum and maximum, folded as tiny-skia folds them.
struct Bounds {
    min: Point,
    max: Point,
}

impl Bounds {
    #[inline(always)]
    fn add(&mut self, p: Point) {
        self.min.x = self.min.x.min(p.x);
        self.min.y = self.min.y.min(p.y);
        self.max.x = self.max.x.max(p.x);
        self.max.y = self.max.y.max(p.y);
    }
}

/// tiny-skia's `find_quad_extrema(a, b, c)`: `valid_unit_divide(a - b, a - b - b + c)`,
/// a `t` strictly between 0 and 1.
#[inline(always)]
fn quad_extremum(a: f32, b: f32, c: f32) -> Option<f32> {
    unit_divide(a - b, a - b - b + c)
}

/// tiny-skia's `valid_unit_divide`: `numer / denom` if strictly between 0 and 1.
#[inline(always)]
fn unit_divide(mut numer: f32, mut denom: f32) -> Option<f32> {
    if numer < 0.0 {
        numer = -numer;
        denom = -denom;
    }
    if denom == 0.0 || numer == 0.0 || numer >= denom {
        return None;
    }
    let r = numer / denom;
    // `NormalizedF32Exclusive::new`.
    if r > 0.0 && r < 1.0 && r.is_finite() {
        Some(r)
    } else {
        None
    }
}

/// tiny-skia's `eval_quad_at`: `QuadCoeff::from_points` and `eval`, one
/// coordinate at a time (its `f32x2` is two plain `f32`s).
#[inline(always)]
fn eval_quad(src: &[Point; 3], t: f32) -> Point {
    let axis = |p0: f32, p1: f32, p2: f32| {
        let c = p0;
        let b = (p1 - c) + (p1 - c);
        let a = p2 - (p1 + p1) + c;
        (a * t + b) * t + c
    };
    Point::from_xy(
        axis(src[0].x, src[1].x, src[2].x),
        axis(src[0].y, src[1].y, src[2].y),
    )
}

/// tiny-skia's `find_cubic_extrema` (through `find_unit_quad_roots`): the `t`s of
/// one coordinate's extrema, in increasing order, a double root once.
fn cubic_extrema(a: f32, b: f32, c: f32, d: f32, roots: &mut [f32; 2]) -> usize {
    let qa = d - a + 3.0 * (b - c);
    let qb = 2.0 * (a - b - b + c);
    let qc = b - a;
    if qa == 0.0 {
        return match unit_divide(-qc, qb) {
            Some(r) => {
                roots[0] = r;
                1
            }
            None => 0,
        };
    }
    let mut dr = f64::from(qb) * f64::from(qb) - 4.0 * f64::from(qa) * f64::from(qc);
    if dr < 0.0 {
        return 0;
    }
    dr = dr.sqrt();
    let r = dr as f32;
    if !r.is_finite() {
        return 0;
    }
    let q = if qb < 0.0 {
        -(qb - r) / 2.0
    } else {
        -(qb + r) / 2.0
    };
    let mut n = 0;
    if let Some(r) = unit_divide(q, qa) {
        roots[n] = r;
        n += 1;
    }
    if let Some(r) = unit_divide(qc, q) {
        roots[n] = r;
        n += 1;
    }
    if n == 2 {
        if roots[0] > roots[1] {
            roots.swap(0, 1);
        } else if roots[0] == roots[1] {
            n -= 1;
        }
    }
    n
}

/// tiny-skia's `eval_cubic_pos_at`: `CubicCoeff::from_points` and `eval`, one
/// coordinate at a time.
#[inline(always)]
fn eval_cubic(src: &[Point; 4], t: f32) -> Point {
    let axis = |p0: f32, p1: f32, p2: f32, p3: f32| {
        let a = p3 + 3.0 * (p1 - p2) - p0;
        let b = 3.0 * (p2 - (p1 + p1) + p0);
        let c = 3.0 * (p1 - p0);
        let d = p0;
        ((a * t + b) * t + c) * t + d
    };
    Point::from_xy(
        axis(src[0].x, src[1].x, src[2].x, src[3].x),
        axis(src[0].y, src[1].y, src[2].y, src[3].y),
    )
}
