//! Sheet geometry: paper sizes, n-up grids with crop marks or cut lines and mirrored
//! duplex backs, and big parts at real size or tiled over small paper. Everything is
//! in millimetres with the origin at the sheet's top-left corner.

mod calibration;
mod chits;
mod chrome;
mod grid;
mod gutterfold;
mod tile;

pub use calibration::calibration;
pub use chits::{chit_sheets, ChitGroup};
pub use grid::{grid, GridItem, GridStyle};
pub use gutterfold::gutterfold;
pub use tile::{one_up, real_size, tiles};

use crate::model::Shape;

/// A paper size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Paper {
    pub name: &'static str,
    pub width: f64,
    pub height: f64,
}

/// The paper sizes `--paper` accepts.
pub const PAPERS: &[Paper] = &[
    Paper {
        name: "letter",
        width: 215.9,
        height: 279.4,
    },
    Paper {
        name: "a4",
        width: 210.0,
        height: 297.0,
    },
];

impl Paper {
    /// Looks up a paper by name.
    pub fn named(name: &str) -> Option<Paper> {
        PAPERS.iter().copied().find(|p| p.name == name)
    }

    /// The same paper turned sideways.
    pub fn landscape(self) -> Paper {
        Paper {
            width: self.height,
            height: self.width,
            ..self
        }
    }
}

/// Home printers leave about 4-5 mm at each edge unprinted: keep marks inside this.
pub const PRINTER_MARGIN: f64 = 5.0;
/// Crop-mark stroke: 0.25 pt.
pub const MARK_WIDTH: f64 = 0.25 / crate::units::PT_PER_MM;

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

/// One face drawn on a sheet.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    /// Which face picture (an index the caller gave in the layout's input).
    pub face: usize,
    /// Where the face picture's top-left corner (its bleed corner) goes.
    pub x: f64,
    pub y: f64,
    /// The face picture's full size (trim + bleed on each side).
    pub w: f64,
    pub h: f64,
    /// Only this part of the page shows the face.
    pub clip: Rect,
    /// The face's trim (cut) rectangle on the page.
    pub trim: Rect,
    /// Drawn upside down (gutterfold backs).
    pub rotate180: bool,
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
    /// Marks, cut lines and labels as a full-sheet SVG document, drawn on top.
    pub chrome: String,
    /// Short description, e.g. "contracts — fronts 1/10".
    pub label: String,
    /// A back sheet of a duplex pair (shifted by `--back-offset`).
    pub back: bool,
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
    let page = Rect {
        x: 0.0,
        y: 0.0,
        w: sheet.width,
        h: sheet.height,
    };
    sheet.bleed = Rect {
        x: sheet.bleed.x + dx,
        y: sheet.bleed.y + dy,
        ..sheet.bleed
    }
    .intersect(&page);
    sheet.trim = sheet.trim.intersect(&page);
    if let (Some(open_end), Some(close)) = (
        sheet.chrome.find(">\n").map(|i| i + 2),
        sheet.chrome.rfind("</svg>"),
    ) {
        let shift = format!(
            "<g transform=\"translate({} {})\">\n",
            crate::units::fmt_num(dx),
            crate::units::fmt_num(dy)
        );
        sheet.chrome = format!(
            "{}{shift}{}</g>\n{}",
            &sheet.chrome[..open_end],
            &sheet.chrome[open_end..close],
            &sheet.chrome[close..]
        );
    }
}

/// The outline of a part for a cut line, in sheet coordinates.
pub fn shape_path(shape: Shape, r: &Rect) -> String {
    use crate::units::fmt_num as f;
    match shape {
        Shape::Rect => format!(
            "M{} {}H{}V{}H{}Z",
            f(r.x),
            f(r.y),
            f(r.right()),
            f(r.bottom()),
            f(r.x)
        ),
        Shape::Rounded => {
            let k = (r.w.min(r.h) * 0.08).min(3.0);
            format!(
                "M{} {}H{}A{k} {k} 0 0 1 {} {}V{}A{k} {k} 0 0 1 {} {}H{}A{k} {k} 0 0 1 {} {}V{}A{k} {k} 0 0 1 {} {}Z",
                f(r.x + k), f(r.y), f(r.right() - k), f(r.right()), f(r.y + k), f(r.bottom() - k), f(r.right() - k), f(r.bottom()),
                f(r.x + k), f(r.x), f(r.bottom() - k), f(r.y + k), f(r.x + k), f(r.y),
                k = f(k)
            )
        }
        Shape::Round => {
            let (rx, ry) = (r.w / 2.0, r.h / 2.0);
            let (cx, cy) = (r.x + rx, r.y + ry);
            format!(
                "M{} {}A{} {} 0 1 0 {} {}A{} {} 0 1 0 {} {}Z",
                f(cx - rx),
                f(cy),
                f(rx),
                f(ry),
                f(cx + rx),
                f(cy),
                f(rx),
                f(ry),
                f(cx - rx),
                f(cy)
            )
        }
        Shape::Triangle => format!(
            "M{} {}L{} {}L{} {}Z",
            f(r.x + r.w / 2.0),
            f(r.y),
            f(r.right()),
            f(r.bottom()),
            f(r.x),
            f(r.bottom())
        ),
    }
}
