//! Sheet labels: measured with the label font and put where they fit, inside the
//! printable area and clear of every part and mark; shrunk, or shortened with an
//! ellipsis, when no strip of the sheet is long enough.

use super::marks::{Anchor, LabelText, Mark};
use super::{Rect, Sheet};

/// Label font sizes tried in turn, in mm: the last is 6.2 pt, as small as printed
/// text may be (a label that does not fit is shortened, not made smaller).
const SIZES: [f64; 3] = [2.4, 2.3, 2.2];
/// Above the baseline a label's box reaches this part of its size (Lato's ascent as
/// PDF readers measure it, 0.81, rounded up).
const ASCENT: f64 = 0.9;
/// Below the baseline (0.2, rounded up).
const DESCENT: f64 = 0.25;
/// Free paper kept between a label and anything else.
const CLEAR: f64 = 0.4;

fn width(text: &LabelText, size: f64) -> f64 {
    text.width(size)
        .unwrap_or(text.as_str().chars().count() as f64 * size * 0.6)
}

/// The box a label covers on the page.
pub fn label_box(
    at: (f64, f64),
    size: f64,
    anchor: Anchor,
    upwards: bool,
    text: &LabelText,
) -> Rect {
    let w = width(text, size);
    let start = anchor.start(w);
    if upwards {
        // Turned to read upwards: the text runs up the page from `at`, the glyphs
        // stand to the left of the baseline.
        Rect {
            x: at.0 - ASCENT * size,
            y: at.1 - start - w,
            w: (ASCENT + DESCENT) * size,
            h: w,
        }
    } else {
        Rect {
            x: at.0 + start,
            y: at.1 - ASCENT * size,
            w,
            h: (ASCENT + DESCENT) * size,
        }
    }
}

/// A free strip of a sheet, and whether a label there reads upwards.
#[derive(Debug, Clone, Copy)]
struct Band {
    rect: Rect,
    upwards: bool,
}

impl Band {
    /// The label's length and thickness the band allows.
    fn room(&self) -> (f64, f64) {
        if self.upwards {
            (self.rect.h, self.rect.w)
        } else {
            (self.rect.w, self.rect.h)
        }
    }

    /// The label mark for `text` at `size`, centred in the band.
    fn mark(&self, text: &LabelText, size: f64) -> Mark {
        let r = self.rect;
        let thick = (ASCENT + DESCENT) * size;
        let at = if self.upwards {
            (r.x + (r.w - thick) / 2.0 + ASCENT * size, r.y + r.h / 2.0)
        } else {
            (r.x + r.w / 2.0, r.y + (r.h - thick) / 2.0 + ASCENT * size)
        };
        Mark::Label {
            at,
            size,
            anchor: Anchor::Middle,
            upwards: self.upwards,
            text: text.clone(),
        }
    }
}

/// Puts the whole label on the sheet at the largest size a strip holds; false
/// (and nothing put) when no strip holds it whole.
pub(super) fn put_whole(sheet: &mut Sheet, margin: f64, text: &LabelText) -> bool {
    let bands = bands(sheet, margin);
    for size in SIZES {
        let thick = (ASCENT + DESCENT) * size;
        let w = width(text, size);
        if let Some(b) = bands.iter().find(|b| {
            let (len, th) = b.room();
            th >= thick && len >= w
        }) {
            sheet.marks.push(b.mark(text, size));
            return true;
        }
    }
    false
}

/// The four strips of the printable area outside everything already on the sheet:
/// below, above, left of and right of it, in that order of preference.
fn bands(sheet: &Sheet, margin: f64) -> Vec<Band> {
    let area = Rect {
        x: margin,
        y: margin,
        w: sheet.width - 2.0 * margin,
        h: sheet.height - 2.0 * margin,
    };
    let taken = sheet
        .placements
        .iter()
        .map(|p| p.clip)
        .chain(sheet.marks.iter().map(Mark::bounds))
        .reduce(|a, b| a.union(&b));
    let Some(t) = taken else {
        return vec![Band {
            rect: area,
            upwards: false,
        }];
    };
    let band = |x0: f64, y0: f64, x1: f64, y1: f64, upwards: bool| Band {
        rect: Rect {
            x: x0,
            y: y0,
            w: (x1 - x0).max(0.0),
            h: (y1 - y0).max(0.0),
        },
        upwards,
    };
    vec![
        band(
            area.x,
            t.bottom() + CLEAR,
            area.right(),
            area.bottom(),
            false,
        ),
        band(area.x, area.y, area.right(), t.y - CLEAR, false),
        band(area.x, area.y, t.x - CLEAR, area.bottom(), true),
        band(t.right() + CLEAR, area.y, area.right(), area.bottom(), true),
    ]
}

/// `text` cut to at most `room` mm at `size`, ending with an ellipsis (its text
/// empty when no part of it fits).
fn shorten(text: &LabelText, size: f64, room: f64) -> LabelText {
    let mut chars: Vec<char> = text.as_str().chars().collect();
    while !chars.is_empty() {
        let s: String = chars.iter().collect::<String>().trim_end().to_string() + "…";
        let s = LabelText::new(&s);
        if width(&s, size) <= room {
            return s;
        }
        chars.pop();
    }
    LabelText::new("")
}

/// Labels the sheet with `text` in the first free strip of its printable area (all
/// but `margin` mm at each edge) where it fits whole at the largest size; else
/// shortened in the strip with the most room. Nothing (and `false`) when no strip is thick
/// enough for the smallest size.
pub(super) fn put(sheet: &mut Sheet, margin: f64, text: &LabelText) -> bool {
    if put_whole(sheet, margin, text) {
        return true;
    }
    let bands = bands(sheet, margin);
    let smallest = SIZES[SIZES.len() - 1];
    let thick = (ASCENT + DESCENT) * smallest;
    let best = bands
        .iter()
        .filter(|b| b.room().1 >= thick)
        .max_by(|a, b| a.room().0.total_cmp(&b.room().0));
    let Some(b) = best else {
        return false;
    };
    let short = shorten(text, smallest, b.room().0);
    if short.as_str().is_empty() {
        return false;
    }
    sheet.marks.push(b.mark(&short, smallest));
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_goes_below_the_parts_inside_the_printable_area() {
        let mut s = Sheet::blank(215.9, 279.4, String::new());
        let mut marks = crate::layout::Marks::default();
        marks.line(20.0, 10.0, 20.0, 265.0);
        s.marks = marks.0;
        put(&mut s, 4.2, &LabelText::new("a label"));
        let Some(Mark::Label { .. }) = s.marks.last() else {
            panic!("labelled: {:?}", s.marks);
        };
        let b = s.marks.last().unwrap().bounds();
        assert!(b.y > 265.0 && b.bottom() <= 279.4 - 4.2, "{b:?}");
    }

    #[test]
    fn a_long_label_is_shortened_to_fit() {
        let mut s = Sheet::blank(215.9, 279.4, String::new());
        let mut marks = crate::layout::Marks::default();
        // Only a strip below the mark is free, across the printable width.
        marks.line(4.2, 10.0, 211.7, 270.0);
        s.marks = marks.0;
        let text = "word ".repeat(80);
        put(&mut s, 4.2, &LabelText::new(&text));
        let Some(Mark::Label { text: t, .. }) = s.marks.last() else {
            panic!("labelled");
        };
        assert!(t.as_str().ends_with('…'), "{t:?}");
        let b = s.marks.last().unwrap().bounds();
        assert!(b.x >= 4.2 && b.right() <= 215.9 - 4.2, "{b:?}");
    }

    #[test]
    fn an_upwards_box_stands_left_of_its_baseline() {
        let b = label_box(
            (10.0, 100.0),
            2.0,
            Anchor::Middle,
            true,
            &LabelText::new("abc"),
        );
        assert!(b.right() > 10.0 && b.x < 10.0 && b.right() - 10.0 < 10.0 - b.x);
        assert!((b.y + b.h / 2.0 - 100.0).abs() < 1e-9);
    }
}
