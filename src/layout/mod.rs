//! Sheet geometry: paper sizes, n-up grids with crop marks or cut lines and mirrored
//! duplex backs, and big parts at real size or tiled over small paper. Everything is
//! in millimetres with the origin at the sheet's top-left corner.
//!
//! Home printers do not print the outer edge of the paper ([`Media::margin`]): every
//! mark and label a layout draws lies inside the printable area, and every cut has
//! a mark at both ends.

mod calibration;
mod chits;
mod grid;
mod gutterfold;
mod label;
pub mod marks;
mod tile;

pub use crate::geom::{Rect, Segment};
pub use crate::model::layout::{Orientation, Request, RequestError};
pub use calibration::calibration;
pub use chits::{chit_sheets, ChitGroup};
pub use grid::{grid, GridItem, GridStyle, Parts};
pub use gutterfold::gutterfold;
pub use label::label_box;
pub use marks::{Anchor, Mark, Marks, Stroke, Toward, MARK_WIDTH};
pub use tile::{one_up, real_size, tiles};

use crate::model::Kind;
pub use crate::model::{Paper, PAPERS};

/// The edge most laser printers leave blank: 1/6 in (inkjets about 3 mm).
pub const DEFAULT_PRINTER_MARGIN: f64 = 4.2;

/// The paper sheets are printed on, and the edge of it the printer does not reach.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Media {
    pub paper: Paper,
    /// Unprinted edge on every side, in mm.
    pub margin: f64,
}

impl Media {
    /// `paper` on a printer that leaves `margin` mm blank at every edge.
    pub fn new(paper: Paper, margin: f64) -> Media {
        Media { paper, margin }
    }

    /// The same paper turned sideways.
    pub fn landscape(self) -> Media {
        Media {
            paper: self.paper.landscape(),
            ..self
        }
    }

    /// Whether the paper is wider than tall.
    pub fn is_landscape(&self) -> bool {
        self.paper.width > self.paper.height
    }

    /// The part of the sheet the printer reaches.
    pub fn printable(&self) -> Rect {
        let m = self.margin;
        Rect {
            x: m,
            y: m,
            w: self.paper.width - 2.0 * m,
            h: self.paper.height - 2.0 * m,
        }
    }
}

/// Why parts could not be laid out.
#[derive(Debug, Clone, PartialEq)]
pub enum LayoutError {
    /// A part with its bleed (and room for its marks) is larger than the printable
    /// part of the paper.
    DoesNotFit {
        width: f64,
        height: f64,
        bleed: f64,
        paper: &'static str,
        margin: f64,
    },
    /// A front and its back, one above the other, do not fit on the paper.
    PairDoesNotFit {
        width: f64,
        height: f64,
        bleed: f64,
        paper: &'static str,
    },
    /// The grid asked for does not fit with its crop marks, even with no bleed
    /// beyond it: `short` mm are missing along the tighter side of the paper.
    GridDoesNotFit {
        cols: usize,
        rows: usize,
        width: f64,
        height: f64,
        turned: bool,
        short: f64,
        paper: &'static str,
        margin: f64,
    },
    /// Triangles are cut point up: they cannot lie sideways.
    TriangleSideways,
}

impl std::fmt::Display for LayoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::units::fmt_num;
        match self {
            LayoutError::DoesNotFit {
                width,
                height,
                bleed,
                paper,
                margin,
            } => write!(
                f,
                "a {} x {} mm part with {} mm bleed and its crop marks does not fit inside the printable area of {paper} paper ({} mm unprinted at each edge)",
                fmt_num(*width),
                fmt_num(*height),
                fmt_num(*bleed),
                fmt_num(*margin)
            ),
            LayoutError::PairDoesNotFit {
                width,
                height,
                bleed,
                paper,
            } => write!(
                f,
                "a front and back of {} x {} mm with {} mm bleed do not fit on {paper} paper for gutterfold",
                fmt_num(*width),
                fmt_num(*height),
                fmt_num(*bleed)
            ),
            LayoutError::GridDoesNotFit {
                cols,
                rows,
                width,
                height,
                turned,
                short,
                paper,
                margin,
            } => write!(
                f,
                "{cols} x {rows} parts of {} x {} mm{} do not fit on {paper} paper with their crop marks: {} mm short, even with no bleed beyond them ({} mm unprinted at each edge)",
                fmt_num(*width),
                fmt_num(*height),
                if *turned { " laid sideways" } else { "" },
                fmt_num((short * 100.0).ceil() / 100.0),
                fmt_num(*margin)
            ),
            LayoutError::TriangleSideways => write!(
                f,
                "triangles are cut point up and cannot lie sideways"
            ),
        }
    }
}

impl std::error::Error for LayoutError {}

/// How a kind of part is laid out on print-and-play sheets.
pub fn grid_style(kind: Kind) -> GridStyle {
    match kind {
        Kind::Chit | Kind::Token => GridStyle::Spaced,
        Kind::Pad => GridStyle::EdgeToEdge,
        _ => GridStyle::Butted,
    }
}

/// One face drawn on a sheet.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    /// Which face picture (an index the caller gave in the layout's input).
    pub face: usize,
    /// The top-left corner of the face picture's box on the page (its bleed corner,
    /// after any turn).
    pub x: f64,
    pub y: f64,
    /// The face picture's own full size (trim + bleed on each side), before any
    /// turn: a quarter-turned face covers `h` x `w` of the page.
    pub w: f64,
    pub h: f64,
    /// Only this part of the page shows the face.
    pub clip: Rect,
    /// The face's trim (cut) rectangle on the page.
    pub trim: Rect,
    /// Turned a quarter clockwise (laid sideways so more fit on a sheet).
    pub quarter_turn: bool,
    /// Turned upside down (gutterfold backs; with `quarter_turn`, a quarter
    /// anticlockwise: the back of a part laid sideways).
    pub rotate180: bool,
}

impl Placement {
    /// The face picture's box on the page.
    pub fn page_box(&self) -> Rect {
        let (w, h) = if self.quarter_turn {
            (self.h, self.w)
        } else {
            (self.w, self.h)
        };
        Rect {
            x: self.x,
            y: self.y,
            w,
            h,
        }
    }

    /// The affine map from the face picture's coordinates (mm, origin at its bleed
    /// corner) to the page's, as `[a, b, c, d, e, f]`: x' = a x + c y + e,
    /// y' = b x + d y + f.
    pub fn matrix(&self) -> [f64; 6] {
        let (x, y, w, h) = (self.x, self.y, self.w, self.h);
        match (self.quarter_turn, self.rotate180) {
            (false, false) => [1.0, 0.0, 0.0, 1.0, x, y],
            (false, true) => [-1.0, 0.0, 0.0, -1.0, x + w, y + h],
            // Clockwise: the face's top edge goes to the right of its box.
            (true, false) => [0.0, 1.0, -1.0, 0.0, x + h, y],
            // Anticlockwise: the face's top edge goes to the left of its box.
            (true, true) => [0.0, -1.0, 1.0, 0.0, x, y + w],
        }
    }
}

/// One printed sheet (a PDF page).
#[derive(Debug, Clone)]
pub struct Sheet {
    pub width: f64,
    pub height: f64,
    /// Union of the trims of the parts on the sheet: the PDF TrimBox.
    pub trim: Rect,
    /// `trim` plus the bleed: the PDF BleedBox.
    pub bleed: Rect,
    pub placements: Vec<Placement>,
    /// Marks, cut lines and labels, drawn on top of the parts.
    pub marks: Vec<Mark>,
    /// Short description, e.g. "contracts — fronts 1/10".
    pub label: String,
    /// Printed on both sides: a front sheet followed by its back sheet.
    pub duplex: bool,
    /// A back sheet of a duplex pair (shifted by `--back-offset`).
    pub back: bool,
}

impl Sheet {
    /// An empty sheet of `w` x `h` mm (trim and bleed boxes the whole page until
    /// parts are placed).
    pub(crate) fn blank(w: f64, h: f64, label: String) -> Sheet {
        let page = Rect {
            x: 0.0,
            y: 0.0,
            w,
            h,
        };
        Sheet {
            width: w,
            height: h,
            trim: page,
            bleed: page,
            placements: Vec::new(),
            marks: Vec::new(),
            label,
            duplex: false,
            back: false,
        }
    }

    /// The page as a rectangle.
    pub fn page(&self) -> Rect {
        Rect {
            x: 0.0,
            y: 0.0,
            w: self.width,
            h: self.height,
        }
    }

    /// Sets the trim box to the union of the parts' trims and the bleed box to
    /// that grown by `bleed` (within the page).
    fn fit_boxes(&mut self, bleed: f64) {
        if let Some(trim) = self
            .placements
            .iter()
            .map(|p| p.trim)
            .reduce(|a, b| a.union(&b))
        {
            self.trim = trim;
            self.bleed = trim.grow(bleed).intersect(&self.page());
        }
    }
}

/// Shifts everything on a sheet by (`dx`, `dy`) mm: how a duplex back sheet
/// compensates a printer that does not print the reverse side exactly in register.
pub fn offset(sheet: &mut Sheet, dx: f64, dy: f64) {
    if dx == 0.0 && dy == 0.0 {
        return;
    }
    let mv = |r: &mut Rect| {
        r.x += dx;
        r.y += dy;
    };
    for p in &mut sheet.placements {
        p.x += dx;
        p.y += dy;
        mv(&mut p.clip);
        mv(&mut p.trim);
    }
    mv(&mut sheet.trim);
    mv(&mut sheet.bleed);
    let page = sheet.page();
    sheet.bleed = sheet.bleed.intersect(&page);
    sheet.trim = sheet.trim.intersect(&page);
    for m in &mut sheet.marks {
        m.shift(dx, dy);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed(quarter_turn: bool, rotate180: bool) -> Placement {
        let r = Rect {
            x: 0.0,
            y: 0.0,
            w: 1.0,
            h: 1.0,
        };
        Placement {
            face: 0,
            x: 10.0,
            y: 20.0,
            w: 60.0,
            h: 90.0,
            clip: r,
            trim: r,
            quarter_turn,
            rotate180,
        }
    }

    fn apply(m: [f64; 6], x: f64, y: f64) -> (f64, f64) {
        (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])
    }

    #[test]
    fn turned_faces_fill_their_page_box() {
        for (q, r) in [(false, false), (false, true), (true, false), (true, true)] {
            let p = placed(q, r);
            let b = p.page_box();
            let m = p.matrix();
            let corners = [(0.0, 0.0), (60.0, 0.0), (0.0, 90.0), (60.0, 90.0)];
            let mapped: Vec<(f64, f64)> = corners.iter().map(|&(x, y)| apply(m, x, y)).collect();
            for (x, y) in &mapped {
                assert!(
                    *x >= b.x - 1e-9
                        && *x <= b.right() + 1e-9
                        && *y >= b.y - 1e-9
                        && *y <= b.bottom() + 1e-9,
                    "{q} {r}: ({x}, {y}) outside {b:?}"
                );
            }
        }
        // Clockwise: the face's top-left corner is the box's top-right corner.
        assert_eq!(apply(placed(true, false).matrix(), 0.0, 0.0), (100.0, 20.0));
        // Anticlockwise: it is the box's bottom-left corner.
        assert_eq!(apply(placed(true, true).matrix(), 0.0, 0.0), (10.0, 80.0));
    }
}
