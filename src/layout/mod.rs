//! Sheet geometry: paper sizes, n-up grids with crop marks or cut lines and mirrored
//! duplex backs, and big parts at real size or tiled over small paper. Everything is
//! in millimetres with the origin at the sheet's top-left corner.

mod calibration;
mod chits;
mod grid;
mod gutterfold;
pub mod marks;
mod tile;

pub use crate::geom::{Rect, Segment};
pub use calibration::calibration;
pub use chits::{chit_sheets, ChitGroup};
pub use grid::{grid, GridItem, GridStyle};
pub use gutterfold::gutterfold;
pub use marks::{Anchor, Mark, Marks, Stroke, MARK_WIDTH};
pub use tile::{one_up, real_size, tiles};

use crate::model::Kind;
pub use crate::model::{Paper, PAPERS};

/// Home printers leave about 4-5 mm at each edge unprinted: keep marks inside this.
pub const PRINTER_MARGIN: f64 = 5.0;

/// How a kind of part is laid out on print-and-play sheets.
pub fn grid_style(kind: Kind) -> GridStyle {
    match kind {
        Kind::Chit | Kind::Token => GridStyle::SPACED,
        Kind::Pad => GridStyle::EDGE_TO_EDGE,
        _ => GridStyle::BUTTED,
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
    /// Marks, cut lines and labels, drawn on top of the parts.
    pub marks: Vec<Mark>,
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
    for m in &mut sheet.marks {
        m.shift(dx, dy);
    }
}
