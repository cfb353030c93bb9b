//! Which of many boxes may meet a box: a grid of cells over the boxes' union, each
//! cell listing the boxes that reach into it. A query reads the cells its own box
//! reaches into, so checking every text of a pad sheet against its opaque cells
//! (preflight) or a board's pieces against its spaces (`overlaps()`) costs about
//! the number of pairs that are near, not the product of the two counts.

/// A box as `[left, top, right, bottom]`.
pub type Bounds = [f64; 4];

/// Most cells along a side: 512 × 512 cells hold 260,000 boxes at about one a cell.
const MAX_SIDE: usize = 512;

/// The boxes of a list by where they lie ([`BoxGrid::near`]).
pub struct BoxGrid {
    left: f64,
    top: f64,
    cell_w: f64,
    cell_h: f64,
    side: usize,
    /// Cell `c`'s boxes are `listed[starts[c]..starts[c + 1]]`, in list order.
    starts: Vec<usize>,
    listed: Vec<usize>,
    boxes: usize,
}

impl BoxGrid {
    /// A grid of about one box a cell over `boxes` (finite numbers).
    pub fn new(boxes: &[Bounds]) -> Self {
        let side = ((boxes.len() as f64).sqrt().ceil() as usize).clamp(1, MAX_SIDE);
        let [mut left, mut top, mut right, mut bottom] = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
        for b in boxes {
            left = left.min(b[0]);
            top = top.min(b[1]);
            right = right.max(b[2]);
            bottom = bottom.max(b[3]);
        }
        let mut grid = BoxGrid {
            left,
            top,
            cell_w: ((right - left) / side as f64).max(f64::MIN_POSITIVE),
            cell_h: ((bottom - top) / side as f64).max(f64::MIN_POSITIVE),
            side,
            starts: vec![0; side * side + 1],
            listed: Vec::new(),
            boxes: boxes.len(),
        };
        // Count each cell's boxes, then place them.
        for b in boxes {
            for c in grid.cells(b) {
                grid.starts[c + 1] += 1;
            }
        }
        for c in 0..side * side {
            grid.starts[c + 1] += grid.starts[c];
        }
        let mut next = grid.starts.clone();
        let mut listed = vec![0; grid.starts[side * side]];
        for (k, b) in boxes.iter().enumerate() {
            for c in grid.cells(b) {
                listed[next[c]] = k;
                next[c] += 1;
            }
        }
        grid.listed = listed;
        grid
    }

    /// The cells `b` reaches into (those at the edge for a box beyond the grid).
    fn cells(&self, b: &Bounds) -> impl Iterator<Item = usize> + use<> {
        let (side, (x0, y0)) = (self.side, (self.left, self.top));
        let (w, h) = (self.cell_w, self.cell_h);
        // `as` truncates, which is `floor` from 0 up (and saturates).
        let at = move |v: f64, from: f64, size: f64| {
            (((v - from) / size).max(0.0) as usize).min(side - 1)
        };
        let cols = at(b[0], x0, w)..=at(b[2], x0, w);
        (at(b[1], y0, h)..=at(b[3], y0, h))
            .flat_map(move |row| cols.clone().map(move |col| row * side + col))
    }

    /// Sets `near` to the boxes that share a cell with `b`: every box that meets
    /// or touches `b`, and some that do not.
    pub fn near(&self, b: &Bounds, near: &mut Near) {
        near.clear(self.boxes);
        for c in self.cells(b) {
            for &k in &self.listed[self.starts[c]..self.starts[c + 1]] {
                near.add(k);
            }
        }
    }
}

/// A set of boxes of a [`BoxGrid`], by their places in its list: a bit each, and
/// the words set, so that clearing and reading it cost what it holds.
#[derive(Default)]
pub struct Near {
    bits: Vec<u64>,
    words: Vec<usize>,
}

impl Near {
    fn clear(&mut self, boxes: usize) {
        for &w in &self.words {
            self.bits[w] = 0;
        }
        self.words.clear();
        self.bits.resize(boxes.div_ceil(64), 0);
    }

    fn add(&mut self, k: usize) {
        let w = k / 64;
        if self.bits[w] == 0 {
            self.words.push(w);
        }
        self.bits[w] |= 1 << (k % 64);
    }

    /// How many boxes it holds.
    pub fn len(&self) -> usize {
        self.words
            .iter()
            .map(|&w| self.bits[w].count_ones() as usize)
            .sum()
    }

    /// The places of its boxes, in order.
    pub fn places(&mut self) -> impl Iterator<Item = usize> + '_ {
        self.words.sort_unstable();
        let bits = &self.bits;
        self.words.iter().flat_map(move |&w| {
            let mut rest = bits[w];
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    w * 64 + bit
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Boxes from a fixed pseudo-random sequence: small ones in a field, some
    /// long and thin, some past the field's edge.
    fn boxes(n: usize, seed: u64) -> Vec<Bounds> {
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 40) as f64 / (1u64 << 24) as f64
        };
        (0..n)
            .map(|i| {
                let (x, y) = (next() * 120.0 - 10.0, next() * 90.0 - 10.0);
                let (w, h) = match i % 5 {
                    0 => (next() * 100.0, next() * 2.0),
                    1 => (next() * 2.0, next() * 80.0),
                    _ => (next() * 12.0, next() * 12.0),
                };
                [x, y, x + w, y + h]
            })
            .collect()
    }

    /// Whether `a` and `b` meet or touch.
    fn meet(a: &Bounds, b: &Bounds) -> bool {
        a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3]
    }

    #[test]
    fn a_query_finds_every_box_it_meets_in_order() {
        for (n, seed) in [(1, 1), (3, 2), (40, 3), (450, 4), (5_000, 5)] {
            let listed = boxes(n, seed);
            let grid = BoxGrid::new(&listed);
            let mut near = Near::default();
            for q in boxes(300, seed + 100) {
                grid.near(&q, &mut near);
                let found: Vec<usize> = near.places().collect();
                assert!(found.windows(2).all(|w| w[0] < w[1]), "in order, once");
                assert_eq!(near.len(), found.len());
                let meeting: Vec<usize> = found
                    .into_iter()
                    .filter(|&k| meet(&q, &listed[k]))
                    .collect();
                let all: Vec<usize> = (0..n).filter(|&k| meet(&q, &listed[k])).collect();
                assert_eq!(meeting, all, "{n} boxes, query {q:?}");
            }
        }
    }

    #[test]
    fn a_few_boxes_on_a_big_grid_are_near_only_what_shares_their_cells() {
        // 10 x 10 unit squares, one apart: each meets only itself.
        let listed: Vec<Bounds> = (0..100)
            .map(|i| {
                let (x, y) = ((i % 10) as f64 * 2.0, (i / 10) as f64 * 2.0);
                [x, y, x + 1.0, y + 1.0]
            })
            .collect();
        let grid = BoxGrid::new(&listed);
        let mut near = Near::default();
        grid.near(&[4.2, 6.2, 4.8, 6.8], &mut near);
        assert_eq!(near.places().collect::<Vec<_>>(), [32]);
        assert_eq!(near.len(), 1);
    }
}
