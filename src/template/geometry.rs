//! Points for boards and tracks: `along` (points evenly spaced along a polyline)
//! and `close_pairs` (every pair of points closer than a distance, through a grid).

use std::collections::{BTreeMap, HashMap};

use minijinja::value::{Kwargs, Value, ValueKind};
use minijinja::{Error, ErrorKind, State};

/// `along(points, n, inset=0, between=false)`: `n` points evenly spaced along a
/// polyline `[[x, y], ...]`, each the centre of one of `n` equal slots between
/// `inset` from either end, or (`between=true`) dividing that stretch into `n + 1`
/// equal parts, as far from its ends as from each other (movement spaces between
/// two cities); each point is `{x, y, angle}` (degrees, the direction of the
/// segment it lies on).
pub(super) fn along(state: &State, points: Value, n: i64, kwargs: Kwargs) -> Result<Value, Error> {
    let inset: f64 = kwargs.get::<Option<f64>>("inset")?.unwrap_or(0.0);
    let between: bool = kwargs.get::<Option<bool>>("between")?.unwrap_or(false);
    kwargs.assert_all_used()?;
    if !(0..=10_000).contains(&n) {
        return Err(Error::new(
            ErrorKind::InvalidOperation,
            "along(): n must be between 0 and 10000",
        ));
    }
    let mut pts = Vec::new();
    for p in points.try_iter()? {
        let x = f64::try_from(p.get_item_by_index(0)?)?;
        let y = f64::try_from(p.get_item_by_index(1)?)?;
        pts.push((x, y));
    }
    if pts.len() < 2 {
        return Err(Error::new(
            ErrorKind::InvalidOperation,
            "along(): needs at least two points",
        ));
    }
    // Each point walks the segments.
    state.consume_fuel((pts.len() as u64).saturating_mul(n as u64 + 1))?;
    let seg: Vec<f64> = pts
        .windows(2)
        .map(|w| ((w[1].0 - w[0].0).powi(2) + (w[1].1 - w[0].1).powi(2)).sqrt())
        .collect();
    let total: f64 = seg.iter().sum();
    let usable = (total - 2.0 * inset).max(0.0);
    let mut out = Vec::new();
    for i in 0..n {
        // Centred in n equal parts, or (`between`) dividing the line into n + 1.
        let target = if between {
            inset + usable * (i as f64 + 1.0) / (n as f64 + 1.0)
        } else {
            inset + usable * (i as f64 + 0.5) / n as f64
        };
        let mut acc = 0.0;
        for (k, len) in seg.iter().enumerate() {
            if acc + len >= target || k == seg.len() - 1 {
                let t = if *len > 0.0 {
                    ((target - acc) / len).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let (a, b) = (pts[k], pts[k + 1]);
                let x = a.0 + (b.0 - a.0) * t;
                let y = a.1 + (b.1 - a.1) * t;
                let angle = (b.1 - a.1).atan2(b.0 - a.0).to_degrees();
                let mut m = BTreeMap::new();
                m.insert("x", Value::from((x * 1000.0).round() / 1000.0));
                m.insert("y", Value::from((y * 1000.0).round() / 1000.0));
                m.insert("angle", Value::from((angle * 100.0).round() / 100.0));
                out.push(Value::from(m));
                break;
            }
            acc += len;
        }
    }
    Ok(Value::from(out))
}

/// Most points `close_pairs` takes.
const MAX_CLOSE_POINTS: usize = 100_000;

/// `close_pairs(points, distance)`: every pair of `points` (`[x, y, ...]` or
/// `{x, y}`) less than `distance` apart, as `[i, j, d]` (0-based positions, `i < j`,
/// `d` their distance), ordered by `i` then `j`. Points are sorted into a grid of
/// `distance`-wide cells, so checking that a board's spaces or tokens keep apart
/// costs about the number of points, not its square.
pub(super) fn close_pairs(state: &State, points: Value, distance: f64) -> Result<Value, Error> {
    let fail = |m: String| Error::new(ErrorKind::InvalidOperation, format!("close_pairs(): {m}"));
    if !(distance > 0.0 && distance.is_finite()) {
        return Err(fail(format!(
            "distance must be a positive number, not {distance}"
        )));
    }
    let mut pts = Vec::new();
    for p in points.try_iter()? {
        if pts.len() == MAX_CLOSE_POINTS {
            return Err(fail(format!("more than {MAX_CLOSE_POINTS} points")));
        }
        let coord = |i: usize, name: &str| -> Result<f64, Error> {
            let v = match p.kind() {
                ValueKind::Map => p.get_attr(name)?,
                _ => p.get_item_by_index(i)?,
            };
            f64::try_from(v.clone()).map_err(|_| fail(format!("point {p} has no number {name}")))
        };
        pts.push((coord(0, "x")?, coord(1, "y")?));
    }
    state.consume_fuel(pts.len() as u64)?;
    let cell = |v: f64| (v / distance).floor() as i64;
    let mut grid: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    for (i, &(x, y)) in pts.iter().enumerate() {
        grid.entry((cell(x), cell(y))).or_default().push(i);
    }
    let mut pairs = Vec::new();
    for (i, &(x, y)) in pts.iter().enumerate() {
        let (cx, cy) = (cell(x), cell(y));
        for gx in cx - 1..=cx + 1 {
            for gy in cy - 1..=cy + 1 {
                let near = grid.get(&(gx, gy)).map(Vec::as_slice).unwrap_or_default();
                state.consume_fuel(near.len() as u64)?;
                for &j in near.iter().filter(|&&j| j > i) {
                    let d = ((pts[j].0 - x).powi(2) + (pts[j].1 - y).powi(2)).sqrt();
                    if d < distance {
                        pairs.push((i, j, d));
                    }
                }
            }
        }
    }
    pairs.sort_by_key(|&(i, j, _)| (i, j));
    Ok(Value::from(
        pairs
            .into_iter()
            .map(|(i, j, d)| Value::from(vec![Value::from(i), Value::from(j), Value::from(d)]))
            .collect::<Vec<_>>(),
    ))
}

#[cfg(test)]
mod tests {
    use super::super::environment::test_env as env;

    #[test]
    fn close_pairs_finds_every_pair_a_scan_finds() {
        let e = env();
        let r = |t: &str| e.render_str(t, ()).unwrap();
        assert_eq!(
            r("{{ close_pairs([[0, 0], [3, 4], [10, 0], {'x': 3, 'y': 4.5}], 5.5) }}"),
            "[[0, 1, 5.0], [0, 3, 5.408326913195984], [1, 3, 0.5]]"
        );
        assert_eq!(r("{{ close_pairs([], 1) }}"), "[]");
        assert!(e
            .render_str("{{ close_pairs([[0, 0]], 0) }}", ())
            .unwrap_err()
            .to_string()
            .contains("close_pairs(): distance must be a positive number"));
        assert!(e
            .render_str("{{ close_pairs([['a', 0]], 1) }}", ())
            .unwrap_err()
            .to_string()
            .contains("has no number x"));
        // Against checking every pair, on a spread of points with many near ones.
        let mut x: u64 = 7;
        let mut pts = Vec::new();
        for _ in 0..400 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pts.push((
                (x >> 40) as f64 % 200.0 / 3.0,
                (x >> 20) as f64 % 150.0 / 3.0,
            ));
        }
        let list: Vec<String> = pts.iter().map(|(a, b)| format!("[{a}, {b}]")).collect();
        let got = r(&format!(
            "{{% for p in close_pairs([{}], 2.5) %}}{{{{ p[0] }}}}-{{{{ p[1] }}}} {{% endfor %}}",
            list.join(", ")
        ));
        let mut want = Vec::new();
        for i in 0..pts.len() {
            for j in i + 1..pts.len() {
                let d = ((pts[j].0 - pts[i].0).powi(2) + (pts[j].1 - pts[i].1).powi(2)).sqrt();
                if d < 2.5 {
                    want.push(format!("{i}-{j} "));
                }
            }
        }
        assert!(want.len() > 50, "{}", want.len());
        assert_eq!(got, want.concat());
    }

    #[test]
    fn along_spaces_points_evenly() {
        let e = env();
        let out = e
            .render_str(
                "{% for p in along([[0,0],[40,0]], 4) %}{{ p.x }} {% endfor %}",
                (),
            )
            .unwrap();
        assert_eq!(out, "5.0 15.0 25.0 35.0 ");
        let out = e
            .render_str(
                "{% for p in along([[0,0],[30,0],[30,30]], 4, inset=5, between=true) %}{{ p.x }},{{ p.y }},{{ p.angle }} {% endfor %}",
                (),
            )
            .unwrap();
        assert_eq!(
            out,
            "15.0,0.0,0.0 25.0,0.0,0.0 30.0,5.0,90.0 30.0,15.0,90.0 "
        );
    }
}
