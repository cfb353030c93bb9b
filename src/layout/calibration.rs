//! The duplex calibration page pair: a cross on the front, millimetre scales on the
//! back. Printed double-sided (long-edge flip) and held against a light, the cross's
//! lines fall on the scales at the numbers to add to `--back-offset`.

use super::marks::{Anchor, Marks};
use super::{offset, Paper, Sheet};

/// The two pages (front, back) for `paper`, the back shifted by the current offset.
pub fn calibration(paper: Paper, current: (f64, f64)) -> Vec<Sheet> {
    let (w, h) = (paper.width, paper.height);
    let front = front_marks(w, h, current);
    let back = back_marks(w, h);
    let page = |marks: Marks, label: &str, is_back: bool| {
        let mut s = Sheet::blank(w, h, label.into());
        s.marks = marks.0;
        s.duplex = true;
        s.back = is_back;
        s
    };
    let mut b = page(back, "calibration back", true);
    offset(&mut b, current.0, current.1);
    vec![page(front, "calibration front", false), b]
}

/// The front page: a cross through the middle and how to read the back.
fn front_marks(w: f64, h: f64, current: (f64, f64)) -> Marks {
    let (cx, cy) = (w / 2.0, h / 2.0);
    let mut front = Marks::default();
    front.line(cx, cy - 70.0, cx, cy + 70.0);
    front.line(cx - 70.0, cy, cx + 70.0, cy);
    front.line(cx - 0.5, cy - 70.0, cx + 0.5, cy - 70.0);
    let lines = [
        "DUPLEX CALIBRATION — FRONT".to_string(),
        "1. Print both pages double-sided, flip on the long edge, at 100 % (no fit to page)."
            .to_string(),
        "2. Hold the sheet against a light: this page's two lines show through the back."
            .to_string(),
        "3. Read where the vertical line crosses the back's horizontal scale (X) and where"
            .to_string(),
        "   the horizontal line crosses the vertical scale (Y).".to_string(),
        format!(
            "4. Build with --back-offset {}+X,{}+Y (this print used {},{}).",
            crate::units::fmt_num(current.0),
            crate::units::fmt_num(current.1),
            crate::units::fmt_num(current.0),
            crate::units::fmt_num(current.1)
        ),
    ];
    for (i, l) in lines.iter().enumerate() {
        front.text(
            20.0,
            25.0 + i as f64 * 6.0,
            if i == 0 { 4.0 } else { 3.2 },
            Anchor::Start,
            false,
            l,
        );
    }
    front
}

/// The back page: the X and Y scales, 0.5 mm ticks over ±10 mm.
fn back_marks(w: f64, h: f64) -> Marks {
    let (cx, cy) = (w / 2.0, h / 2.0);
    let mut back = Marks::default();
    // Horizontal scale on the line y = cy + 30, centred on the page's middle.
    let sy = cy + 30.0;
    let sx = cx + 30.0;
    for t in -20..=20 {
        let v = t as f64 * 0.5;
        let long = t % 2 == 0;
        let len = if t % 10 == 0 {
            5.0
        } else if long {
            3.5
        } else {
            2.0
        };
        back.line(cx + v, sy - len, cx + v, sy);
        back.line(sx, cy + v, sx + len, cy + v);
        // A label at every 5 mm tick, at 2.2 mm (6.2 pt): readable, and apart.
        if t % 10 == 0 {
            let label = format!(
                "{}{}",
                if v > 0.0 { "+" } else { "" },
                crate::units::fmt_num(v)
            );
            back.text(cx + v, sy + 3.6, 2.2, Anchor::Middle, false, &label);
            back.text(sx + 6.5, cy + v + 0.8, 2.2, Anchor::Start, false, &label);
        }
    }
    back.text(cx, sy + 9.0, 3.0, Anchor::Middle, false, "X (mm)");
    back.text(sx + 14.0, cy - 12.0, 3.0, Anchor::Middle, false, "Y (mm)");
    back.text(
        20.0,
        25.0,
        4.0,
        Anchor::Start,
        false,
        "DUPLEX CALIBRATION — BACK",
    );
    back
}
