//! `overlaps(a, b, clearance=0)`: which shapes of one list reach into (or come
//! within `clearance` of) shapes of another, for checks of a board's real geometry:
//! a piece's footprint (a rectangle turned along its road) against every space and
//! city dot, goods trays against roads and names. Shapes are circles `{x, y, r}` and
//! rectangles `{x, y, w, h, angle}` (centred on x, y; `w` along `angle` degrees,
//! clockwise from the x axis as SVG turns; `h` across it), in millimetres.
//!
//! The second list is sorted into a grid of cells ([`BoxGrid`]), so a board's few
//! hundred spaces against its few hundred pieces cost about their number, not its
//! square. Each pair tested costs one fuel.

use minijinja::value::{Kwargs, Value, ValueKind};
use minijinja::{Error, ErrorKind, State};

use crate::box_grid::{Bounds, BoxGrid, Near};

/// Most shapes either list of `overlaps` takes.
pub const MAX_SHAPES: usize = 100_000;

/// A shape in the plane.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    Circle {
        x: f64,
        y: f64,
        r: f64,
    },
    /// Centre, half extents along and across, and the direction (cos, sin).
    Rect {
        x: f64,
        y: f64,
        hw: f64,
        hh: f64,
        cos: f64,
        sin: f64,
    },
}

type P = (f64, f64);

impl Shape {
    /// The axis-aligned box around the shape: (x0, y0, x1, y1).
    fn bounds(&self) -> (f64, f64, f64, f64) {
        match *self {
            Shape::Circle { x, y, r } => (x - r, y - r, x + r, y + r),
            Shape::Rect {
                x,
                y,
                hw,
                hh,
                cos,
                sin,
            } => {
                let ex = hw * cos.abs() + hh * sin.abs();
                let ey = hw * sin.abs() + hh * cos.abs();
                (x - ex, y - ey, x + ex, y + ey)
            }
        }
    }

    /// A rectangle's corners, in order around it.
    fn corners(&self) -> [P; 4] {
        match *self {
            Shape::Circle { x, y, .. } => [(x, y); 4],
            Shape::Rect {
                x,
                y,
                hw,
                hh,
                cos,
                sin,
            } => {
                let at = |u: f64, v: f64| (x + u * cos - v * sin, y + u * sin + v * cos);
                [at(-hw, -hh), at(hw, -hh), at(hw, hh), at(-hw, hh)]
            }
        }
    }

    /// How far a point lies outside the shape (negative inside: minus the distance
    /// to its edge).
    fn signed_distance(&self, p: P) -> f64 {
        match *self {
            Shape::Circle { x, y, r } => (p.0 - x).hypot(p.1 - y) - r,
            Shape::Rect {
                x,
                y,
                hw,
                hh,
                cos,
                sin,
            } => {
                let (dx, dy) = (p.0 - x, p.1 - y);
                let (u, v) = (dx * cos + dy * sin, -dx * sin + dy * cos);
                let (qx, qy) = (u.abs() - hw, v.abs() - hh);
                qx.max(0.0).hypot(qy.max(0.0)) + qx.max(qy).min(0.0)
            }
        }
    }
}

/// How far two shapes reach into each other (positive) or how far apart they are
/// (negative), in millimetres.
pub fn depth(a: &Shape, b: &Shape) -> f64 {
    match (a, b) {
        (Shape::Circle { x, y, r }, other) | (other, Shape::Circle { x, y, r }) => {
            r - other.signed_distance((*x, *y))
        }
        _ => rect_depth(a, b),
    }
}

/// Two rectangles: the least overlap over the four separating axes when they
/// overlap on all of them, else minus the least distance between their outlines.
fn rect_depth(a: &Shape, b: &Shape) -> f64 {
    let (ca, cb) = (a.corners(), b.corners());
    let axes = [
        edge_axis(&ca, 0),
        edge_axis(&ca, 1),
        edge_axis(&cb, 0),
        edge_axis(&cb, 1),
    ];
    let mut least = f64::INFINITY;
    for ax in axes {
        let (a0, a1) = project(&ca, ax);
        let (b0, b1) = project(&cb, ax);
        let overlap = a1.min(b1) - a0.max(b0);
        if overlap <= 0.0 {
            return -outline_distance(&ca, &cb);
        }
        least = least.min(overlap);
    }
    least
}

/// The unit direction of edge `k` of a rectangle's corners.
fn edge_axis(c: &[P; 4], k: usize) -> P {
    let (dx, dy) = (c[k + 1].0 - c[k].0, c[k + 1].1 - c[k].1);
    let len = dx.hypot(dy).max(f64::MIN_POSITIVE);
    (dx / len, dy / len)
}

/// The span of corners along an axis.
fn project(c: &[P; 4], ax: P) -> (f64, f64) {
    c.iter()
        .map(|p| p.0 * ax.0 + p.1 * ax.1)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        })
}

/// The least distance between the outlines of two separated rectangles: from each
/// corner of one to each edge of the other.
fn outline_distance(a: &[P; 4], b: &[P; 4]) -> f64 {
    let mut d = f64::INFINITY;
    for (p, q) in [(a, b), (b, a)] {
        for &c in p.iter() {
            for k in 0..4 {
                d = d.min(point_segment(c, q[k], q[(k + 1) % 4]));
            }
        }
    }
    d
}

fn point_segment(p: P, a: P, b: P) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p.0 - a.0 - t * dx).hypot(p.1 - a.1 - t * dy)
}

fn fail(m: String) -> Error {
    Error::new(ErrorKind::InvalidOperation, format!("overlaps(): {m}"))
}

/// A shape from a template value: `{x, y, r}` or `{x, y, w, h, angle}`.
fn shape(v: &Value) -> Result<Shape, Error> {
    if v.kind() != ValueKind::Map {
        return Err(fail(format!(
            "`{v}` is not a shape: write {{x, y, r}} for a circle or {{x, y, w, h, angle}} for a rectangle"
        )));
    }
    let num = |name: &str| -> Result<Option<f64>, Error> {
        let f = v.get_attr(name)?;
        if f.is_undefined() || f.is_none() {
            return Ok(None);
        }
        let n = f64::try_from(f.clone())
            .ok()
            .filter(|n| n.is_finite())
            .ok_or_else(|| fail(format!("shape {v}: `{name}` is `{f}`, not a number")))?;
        Ok(Some(n))
    };
    let need = |name: &str| num(name)?.ok_or_else(|| fail(format!("shape {v} has no `{name}`")));
    let (x, y) = (need("x")?, need("y")?);
    let size = |n: f64, name: &str| {
        if n >= 0.0 {
            Ok(n)
        } else {
            Err(fail(format!("shape {v}: `{name}` is negative")))
        }
    };
    if let Some(r) = num("r")? {
        return Ok(Shape::Circle {
            x,
            y,
            r: size(r, "r")?,
        });
    }
    let (w, h) = (size(need("w")?, "w")?, size(need("h")?, "h")?);
    let a = num("angle")?.unwrap_or(0.0).to_radians();
    Ok(Shape::Rect {
        x,
        y,
        hw: w / 2.0,
        hh: h / 2.0,
        cos: a.cos(),
        sin: a.sin(),
    })
}

fn shapes(list: &Value, which: &str) -> Result<Vec<Shape>, Error> {
    let mut out = Vec::new();
    for v in list.try_iter()? {
        if out.len() == MAX_SHAPES {
            return Err(fail(format!("more than {MAX_SHAPES} shapes in {which}")));
        }
        out.push(shape(&v)?);
    }
    Ok(out)
}

/// Every pair of a shape of `a` and a shape of `b` that reach into each other or
/// come within `clearance`, as `(i, j, depth)` (`depth` as [`depth`] gives it),
/// ordered by `i` then `j`; `fuel` is charged for every pair tested.
pub fn pairs(
    a: &[Shape],
    b: &[Shape],
    clearance: f64,
    mut fuel: impl FnMut(u64) -> Result<(), Error>,
) -> Result<Vec<(usize, usize, f64)>, Error> {
    let boxes: Vec<Bounds> = b
        .iter()
        .map(|s| {
            let (x0, y0, x1, y1) = s.bounds();
            [x0, y0, x1, y1]
        })
        .collect();
    let grid = BoxGrid::new(&boxes);
    let mut near = Near::default();
    let mut out = Vec::new();
    for (i, s) in a.iter().enumerate() {
        let (x0, y0, x1, y1) = s.bounds();
        let c = clearance;
        grid.near(&[x0 - c, y0 - c, x1 + c, y1 + c], &mut near);
        fuel(near.len() as u64 + 1)?;
        for j in near.places() {
            let d = depth(s, &b[j]);
            if d > -clearance {
                out.push((i, j, d));
            }
        }
    }
    Ok(out)
}

/// `overlaps(a, b, clearance=0)`: the pairs of a shape of `a` and a shape of `b`
/// that reach into each other (or come within `clearance` mm), as `[i, j, depth]`:
/// positions from 0, and how far they reach into each other in mm (negative: the
/// gap left, under `clearance`), rounded to a hundredth; ordered by `i` then `j`.
pub fn overlaps(state: &State, a: Value, b: Value, kwargs: Kwargs) -> Result<Value, Error> {
    let clearance = kwargs.get::<Option<f64>>("clearance")?.unwrap_or(0.0);
    kwargs.assert_all_used()?;
    if !(clearance >= 0.0 && clearance.is_finite()) {
        return Err(fail(format!(
            "clearance must be 0 or more mm, not {clearance}"
        )));
    }
    let (sa, sb) = (
        shapes(&a, "the first list")?,
        shapes(&b, "the second list")?,
    );
    state.consume_fuel((sa.len() + sb.len()) as u64)?;
    let found = pairs(&sa, &sb, clearance, |n| state.consume_fuel(n))?;
    Ok(Value::from(
        found
            .into_iter()
            .map(|(i, j, d)| {
                Value::from(vec![
                    Value::from(i),
                    Value::from(j),
                    Value::from((d * 100.0).round() / 100.0),
                ])
            })
            .collect::<Vec<_>>(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: f64, y: f64, w: f64, h: f64, angle: f64) -> Shape {
        let a: f64 = angle.to_radians();
        Shape::Rect {
            x,
            y,
            hw: w / 2.0,
            hh: h / 2.0,
            cos: a.cos(),
            sin: a.sin(),
        }
    }

    #[test]
    fn a_huge_shape_against_many_small_ones_reads_a_bounded_grid() {
        // A grid with cells as large as the largest small circle would have had
        // 10^308 cells under this rectangle: the query never ended (issue 33's
        // fifteenth session). The grid over the circles' union has at most
        // 512 x 512 cells, whatever the other list holds.
        let huge = rect(0.0, 0.0, 1e308, 1.0, 30.0);
        let far = Shape::Circle {
            x: 1e300,
            y: -1e300,
            r: 1e299,
        };
        let small: Vec<Shape> = (0..3000)
            .map(|i| Shape::Circle {
                x: i as f64 * 0.5,
                y: (i % 7) as f64 * 3.0,
                r: 0.4,
            })
            .collect();
        let mut tested = 0;
        let found = pairs(&[huge, far], &small, 0.0, |n| {
            tested += n;
            Ok(())
        })
        .unwrap();
        assert!(tested <= 2 * 3000 + 2, "{tested} pairs tested");
        let a = [huge, far];
        let scan: Vec<(usize, usize)> = (0..2)
            .flat_map(|i| (0..small.len()).map(move |j| (i, j)))
            .filter(|&(i, j)| depth(&a[i], &small[j]) > 0.0)
            .collect();
        let found: Vec<(usize, usize)> = found.iter().map(|p| (p.0, p.1)).collect();
        assert_eq!(found, scan);
        assert!(!found.is_empty(), "the long rectangle crosses some circles");
    }

    #[test]
    fn a_turned_rectangle_reaches_a_circle_its_box_along_the_axes_would_miss() {
        // A 26.5 x 19.5 mm truck: a space just off its corner is covered, though
        // it is further from the truck's centre along each axis than the
        // truck's half length and half width: the corner reaches it.
        let truck = rect(0.0, 0.0, 26.5, 19.5, 0.0);
        let corner = Shape::Circle {
            x: 13.25 + 2.0,
            y: 9.75 + 2.0,
            r: 3.0,
        };
        // Corner to centre 2.83 mm, radius 3: 0.17 mm in.
        assert!((depth(&truck, &corner) - (3.0 - 8f64.sqrt())).abs() < 1e-9);
        let turned = rect(0.0, 0.0, 26.5, 19.5, 90.0);
        assert!(depth(&turned, &corner) < 0.0, "turned upright it misses");
        let east = Shape::Circle {
            x: 16.0,
            y: 0.0,
            r: 3.0,
        };
        assert!((depth(&truck, &east) - 0.25).abs() < 1e-9);
        assert!((depth(&turned, &east) - (3.0 - 6.25)).abs() < 1e-9);
        // A circle whose centre is inside: the radius plus the way to the edge.
        let inside = Shape::Circle {
            x: 12.25,
            y: 0.0,
            r: 3.0,
        };
        assert!((depth(&truck, &inside) - 4.0).abs() < 1e-9);
    }

    #[test]
    fn rectangles_overlap_by_their_least_axis_or_are_apart_by_their_gap() {
        let a = rect(0.0, 0.0, 10.0, 4.0, 0.0);
        let b = rect(9.0, 0.0, 10.0, 4.0, 0.0);
        assert!((depth(&a, &b) - 1.0).abs() < 1e-9);
        let c = rect(0.0, 10.0, 10.0, 4.0, 0.0);
        assert!((depth(&a, &c) + 6.0).abs() < 1e-9);
        // A diamond (corners 2 mm from its centre at 8, 5) beside the corner 5, 2:
        // the gap runs from that corner square to the diamond's edge x + y = 11,
        // 4 / sqrt(2) mm, shorter than to either of its corners (sqrt(10)).
        let d = rect(
            5.0 + 3.0,
            2.0 + 3.0,
            2f64.sqrt() * 2.0,
            2f64.sqrt() * 2.0,
            45.0,
        );
        let gap = -depth(&a, &d);
        assert!((gap - 4.0 / 2f64.sqrt()).abs() < 1e-9, "{gap}");
        let circles = (
            Shape::Circle {
                x: 0.0,
                y: 0.0,
                r: 2.0,
            },
            Shape::Circle {
                x: 3.0,
                y: 4.0,
                r: 1.0,
            },
        );
        assert!((depth(&circles.0, &circles.1) + 2.0).abs() < 1e-9);
    }

    #[test]
    fn the_grid_finds_every_pair_a_scan_finds() {
        let mut a = Vec::new();
        let mut b = Vec::new();
        for i in 0..300 {
            let f = i as f64;
            a.push(rect(
                (f * 37.0) % 400.0,
                (f * 53.0) % 300.0,
                5.0 + f % 20.0,
                3.0 + f % 7.0,
                f * 13.0,
            ));
            b.push(Shape::Circle {
                x: (f * 71.0) % 400.0,
                y: (f * 29.0) % 300.0,
                r: 1.0 + f % 5.0,
            });
            b.push(rect((f * 11.0) % 400.0, (f * 17.0) % 300.0, 12.0, 2.0, f));
        }
        for clearance in [0.0, 2.5] {
            let got = pairs(&a, &b, clearance, |_| Ok(())).unwrap();
            let mut want = Vec::new();
            for (i, s) in a.iter().enumerate() {
                for (j, t) in b.iter().enumerate() {
                    let d = depth(s, t);
                    if d > -clearance {
                        want.push((i, j, d));
                    }
                }
            }
            assert_eq!(got, want);
            assert!(want.len() > 50, "{}", want.len());
        }
    }

    #[test]
    fn the_template_function_reads_shapes_and_says_what_is_wrong() {
        let mut env = minijinja::Environment::new();
        env.add_function("overlaps", overlaps);
        let out = env
            .render_str(
                "{{ overlaps([{'x': 0, 'y': 0, 'w': 26.5, 'h': 19.5, 'angle': 90}], [{'x': 0, 'y': 15, 'r': 3}, {'x': 16, 'y': 0, 'r': 3}], clearance=3.5) }}",
                (),
            )
            .unwrap();
        assert_eq!(out, "[[0, 0, 1.25], [0, 1, -3.25]]");
        let err = env
            .render_str("{{ overlaps([{'x': 0, 'y': 0}], []) }}", ())
            .unwrap_err();
        assert!(err.to_string().contains("has no `w`"), "{err}");
        let err = env.render_str("{{ overlaps([1], []) }}", ()).unwrap_err();
        assert!(err.to_string().contains("`1` is not a shape"), "{err}");
    }
}
