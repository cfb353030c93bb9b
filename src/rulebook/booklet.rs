//! Saddle-stitch imposition: which pages go on each side of each sheet, so that a
//! stack printed double-sided (flipped on the short edge), folded in the middle
//! and stapled reads in order. For `n` pages padded to a multiple of four, sheet
//! 1's front holds pages n and 1 (left, right), its back 2 and n − 1, sheet 2's
//! front n − 2 and 3, and so on.

/// One side of a sheet: the page on its left half and on its right half (1-based;
/// `None` for a blank added to reach a multiple of four).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Side {
    pub left: Option<usize>,
    pub right: Option<usize>,
}

/// The sides of a booklet of `pages` pages, in print order (front of sheet 1,
/// its back, front of sheet 2...).
pub fn sides(pages: usize) -> Vec<Side> {
    let real = |p: usize| (p <= pages).then_some(p);
    numbered(pages.div_ceil(4) * 4)
        .into_iter()
        .map(|(l, r)| Side {
            left: real(l),
            right: real(r),
        })
        .collect()
}

/// The page numbers (left, right) of each side of a booklet of `padded` pages.
fn numbered(padded: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(padded / 2);
    for sheet in 0..padded / 4 {
        let (low, high) = (2 * sheet + 1, padded - 2 * sheet);
        out.push((high, low));
        out.push((low + 1, high - 1));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(n: usize) -> Vec<(Option<usize>, Option<usize>)> {
        sides(n).into_iter().map(|s| (s.left, s.right)).collect()
    }

    #[test]
    fn four_eight_and_an_odd_count() {
        assert_eq!(pairs(4), [(Some(4), Some(1)), (Some(2), Some(3))]);
        assert_eq!(
            pairs(8),
            [
                (Some(8), Some(1)),
                (Some(2), Some(7)),
                (Some(6), Some(3)),
                (Some(4), Some(5))
            ]
        );
        // 5 pages: padded to 8 with three blanks at the end.
        assert_eq!(
            pairs(5),
            [
                (None, Some(1)),
                (Some(2), None),
                (None, Some(3)),
                (Some(4), Some(5))
            ]
        );
        assert_eq!(pairs(1), [(None, Some(1)), (None, None)]);
        assert!(pairs(0).is_empty());
    }

    #[test]
    fn every_page_once_and_each_sheet_folds_in_order() {
        for n in 1..40 {
            let mut seen: Vec<usize> = sides(n)
                .iter()
                .flat_map(|x| [x.left, x.right])
                .flatten()
                .collect();
            seen.sort();
            assert_eq!(seen, (1..=n).collect::<Vec<_>>());
            // Facing pages of a folded sheet add up to the padded count + 1, and
            // a sheet's back holds the pages next to its front's.
            let padded = n.div_ceil(4) * 4;
            let all = numbered(padded);
            for pair in all.chunks(2) {
                let [(a, b), (c, d)] = [pair[0], pair[1]];
                assert_eq!((a + b, c + d), (padded + 1, padded + 1), "{n}");
                assert_eq!((c, d), (b + 1, a - 1), "{n}");
            }
        }
    }
}
