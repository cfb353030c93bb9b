//! What a sheet shows besides the parts: crop marks, cut and fold lines, alignment
//! targets and labels, as a typed list the exporters draw (PDF and PNG alike).

use crate::geom::{Rect, Segment};
use crate::model::Shape;

/// Crop-mark stroke: 0.25 pt.
pub const MARK_WIDTH: f64 = 0.25 / crate::units::PT_PER_MM;

/// How a line is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stroke {
    /// A crop mark or target: thin, black.
    Crop,
    /// A cut line along a part's outline: thin, grey, over a wider white line
    /// ([`Stroke::halo`]).
    Cut,
    /// A fold line or cut guide: thin, dark grey, dashed (2 mm on, 1.5 mm off).
    Guide,
}

impl Stroke {
    /// The colour as 8-bit RGB.
    pub fn rgb(self) -> [u8; 3] {
        match self {
            Stroke::Crop => [0, 0, 0],
            Stroke::Cut => [0x66, 0x66, 0x66],
            Stroke::Guide => [0x55, 0x55, 0x55],
        }
    }

    /// The dash pattern in mm (on, off), if dashed.
    pub fn dash(self) -> Option<[f64; 2]> {
        match self {
            Stroke::Guide => Some([2.0, 1.5]),
            _ => None,
        }
    }

    /// The width in mm of a white line drawn under this one, if any: a cut line
    /// runs over the parts' own bleed, and on a dark part the grey line alone
    /// vanishes. White under grey shows on any background: the white where the
    /// part is dark, the grey where it is light.
    pub fn halo(self) -> Option<f64> {
        match self {
            Stroke::Cut => Some(CUT_HALO_WIDTH),
            _ => None,
        }
    }
}

/// The white line under a cut line: 1 pt, so that 0.37 pt of white shows on each
/// side of the 0.25 pt grey line (about two dots of a 300 dpi printer).
pub const CUT_HALO_WIDTH: f64 = 1.0 / crate::units::PT_PER_MM;

/// Where a label's `x` is: its start, middle or end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

/// The colour of labels (8-bit RGB).
pub const LABEL_RGB: [u8; 3] = [0x33, 0x33, 0x33];
/// The font family of labels.
pub const LABEL_FAMILY: &str = "Lato";

/// The font labels are set in (every exporter and the label placer use it).
pub fn label_font() -> crate::text::FontSpec {
    crate::text::FontSpec {
        family: LABEL_FAMILY.into(),
        ..crate::text::FontSpec::default()
    }
}

/// A label's text, shaped once in [`label_font`] when the label is made: the
/// placer measures it and the PDF writer draws the same glyphs, so neither shapes
/// it again.
#[derive(Clone, PartialEq)]
pub struct LabelText {
    text: String,
    /// `None` when the label font cannot shape it.
    shaped: Option<crate::text::ShapedLabel>,
}

impl LabelText {
    /// `text` shaped in [`label_font`].
    pub fn new(text: &str) -> LabelText {
        LabelText {
            text: text.to_string(),
            shaped: crate::text::shape_label(text, &label_font()).ok(),
        }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The label's width in mm at `size` mm; `None` when the font cannot measure it.
    pub fn width(&self, size: f64) -> Option<f64> {
        self.shaped.as_ref().map(|s| s.width(size))
    }

    /// Its glyphs, left to right, and the font's units per em; `None` when the
    /// font cannot shape it.
    pub fn shaped(&self) -> Option<&crate::text::ShapedLabel> {
        self.shaped.as_ref()
    }
}

/// As the text alone (what the preview's marks hash reads).
impl std::fmt::Debug for LabelText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.text.fmt(f)
    }
}

impl Anchor {
    /// Where a label `width` mm wide starts, relative to its anchor point.
    pub fn start(self, width: f64) -> f64 {
        match self {
            Anchor::Start => 0.0,
            Anchor::Middle => -width / 2.0,
            Anchor::End => -width,
        }
    }
}

/// The side of a seam between two board tiles a half target is drawn on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Toward {
    Left,
    Right,
    Up,
    Down,
}

impl Toward {
    /// The unit vector pointing to this side.
    fn unit(self) -> (f64, f64) {
        match self {
            Toward::Left => (-1.0, 0.0),
            Toward::Right => (1.0, 0.0),
            Toward::Up => (0.0, -1.0),
            Toward::Down => (0.0, 1.0),
        }
    }
}

/// How far a half target stays off its seam, so that none of it shows on the other
/// side of the cut.
pub const SEAM_CLEARANCE: f64 = 0.3;

/// One mark on a sheet, in millimetres from the sheet's top-left corner.
#[derive(Debug, Clone, PartialEq)]
pub enum Mark {
    /// A straight line.
    Line {
        from: (f64, f64),
        to: (f64, f64),
        stroke: Stroke,
    },
    /// A cut line along the outline of a part whose trim is `rect`.
    Outline { shape: Shape, rect: Rect },
    /// A registration target: a circle of radius `r` and a cross through it; or,
    /// with `half`, only the half on that side of a seam through `center` (kept
    /// [`SEAM_CLEARANCE`] off the seam): the two halves of neighbouring board tiles
    /// make one target when the tiles are lined up.
    Target {
        center: (f64, f64),
        r: f64,
        half: Option<Toward>,
    },
    /// A line of text `size` mm high (font size), baseline at `at`; `upwards` turns
    /// it 90 degrees to read from bottom to top.
    Label {
        at: (f64, f64),
        size: f64,
        anchor: Anchor,
        upwards: bool,
        text: LabelText,
    },
}

impl Mark {
    /// Moves the mark by (`dx`, `dy`) mm.
    pub fn shift(&mut self, dx: f64, dy: f64) {
        let mv = |p: &mut (f64, f64)| {
            p.0 += dx;
            p.1 += dy;
        };
        match self {
            Mark::Line { from, to, .. } => {
                mv(from);
                mv(to);
            }
            Mark::Outline { rect, .. } => {
                rect.x += dx;
                rect.y += dy;
            }
            Mark::Target { center, .. } => mv(center),
            Mark::Label { at, .. } => mv(at),
        }
    }

    /// The lines a mark is stroked as (a target's circle and cross; an outline's
    /// path), as path segments. Labels have none.
    pub fn segments(&self) -> Vec<Segment> {
        match self {
            Mark::Line { from, to, .. } => {
                vec![Segment::Move(from.0, from.1), Segment::Line(to.0, to.1)]
            }
            Mark::Outline { shape, rect } => outline(*shape, rect),
            Mark::Target {
                center: (cx, cy),
                r,
                half: None,
            } => {
                let mut s = ellipse(*cx, *cy, *r, *r);
                let arm = r * 1.6;
                s.extend([
                    Segment::Move(cx - arm, *cy),
                    Segment::Line(cx + arm, *cy),
                    Segment::Move(*cx, cy - arm),
                    Segment::Line(*cx, cy + arm),
                ]);
                s
            }
            Mark::Target {
                center,
                r,
                half: Some(side),
            } => half_target(*center, *r, *side),
            Mark::Label { .. } => Vec::new(),
        }
    }

    /// The rectangle the mark covers: its lines' extent (their width aside), or a
    /// label's box as the label font measures it.
    pub fn bounds(&self) -> Rect {
        if let Mark::Label {
            at,
            size,
            anchor,
            upwards,
            text,
        } = self
        {
            return super::label_box(*at, *size, *anchor, *upwards, text);
        }
        let mut pts = self.segments().into_iter().flat_map(|s| match s {
            Segment::Move(x, y) | Segment::Line(x, y) => vec![(x, y)],
            Segment::Cubic(a, b, c, d, e, f) => vec![(a, b), (c, d), (e, f)],
            Segment::Close => Vec::new(),
        });
        let Some((x0, y0)) = pts.next() else {
            return Rect {
                x: 0.0,
                y: 0.0,
                w: 0.0,
                h: 0.0,
            };
        };
        let (mut l, mut t, mut r, mut b) = (x0, y0, x0, y0);
        for (x, y) in pts {
            l = l.min(x);
            t = t.min(y);
            r = r.max(x);
            b = b.max(y);
        }
        Rect {
            x: l,
            y: t,
            w: r - l,
            h: b - t,
        }
    }

    /// How the mark's lines are drawn.
    pub fn stroke(&self) -> Stroke {
        match self {
            Mark::Line { stroke, .. } => *stroke,
            Mark::Outline { .. } => Stroke::Cut,
            Mark::Target { .. } | Mark::Label { .. } => Stroke::Crop,
        }
    }
}

/// Control-point distance for a quarter circle drawn as a cubic Bézier.
const KAPPA: f64 = 0.552_284_749_831;

/// The half of a target on `side` of a seam through `c`: a half disc outline whose
/// flat side runs along the seam, [`SEAM_CLEARANCE`] off it, and the arm pointing
/// away from the seam.
fn half_target(c: (f64, f64), r: f64, side: Toward) -> Vec<Segment> {
    let (ux, uy) = side.unit();
    // Along the seam: perpendicular to `side`.
    let (vx, vy) = (-uy, ux);
    let (ox, oy) = (c.0 + ux * SEAM_CLEARANCE, c.1 + uy * SEAM_CLEARANCE);
    let at = |s: f64, t: f64| (ox + vx * s + ux * t, oy + vy * s + uy * t);
    let k = r * KAPPA;
    let (a, b, c1, d, e, f) = (
        at(r, 0.0),
        at(r, k),
        at(k, r),
        at(0.0, r),
        at(-k, r),
        at(-r, k),
    );
    let g = at(-r, 0.0);
    let arm = at(0.0, r * 1.6);
    vec![
        Segment::Move(a.0, a.1),
        Segment::Cubic(b.0, b.1, c1.0, c1.1, d.0, d.1),
        Segment::Cubic(e.0, e.1, f.0, f.1, g.0, g.1),
        Segment::Close,
        Segment::Move(ox, oy),
        Segment::Line(arm.0, arm.1),
    ]
}

fn ellipse(cx: f64, cy: f64, rx: f64, ry: f64) -> Vec<Segment> {
    let (kx, ky) = (rx * KAPPA, ry * KAPPA);
    vec![
        Segment::Move(cx + rx, cy),
        Segment::Cubic(cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry),
        Segment::Cubic(cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy),
        Segment::Cubic(cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry),
        Segment::Cubic(cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy),
        Segment::Close,
    ]
}

/// The corner radius of a `rounded` part: 8 % of its shorter side, at most 3 mm.
pub fn corner_radius(r: &Rect) -> f64 {
    (r.w.min(r.h) * 0.08).min(3.0)
}

/// The outline of a part of `shape` whose trim is `r`.
pub fn outline(shape: Shape, r: &Rect) -> Vec<Segment> {
    match shape {
        Shape::Rect => vec![
            Segment::Move(r.x, r.y),
            Segment::Line(r.right(), r.y),
            Segment::Line(r.right(), r.bottom()),
            Segment::Line(r.x, r.bottom()),
            Segment::Close,
        ],
        Shape::Rounded => {
            let k = corner_radius(r);
            let c = k * KAPPA;
            let (x0, y0, x1, y1) = (r.x, r.y, r.right(), r.bottom());
            vec![
                Segment::Move(x0 + k, y0),
                Segment::Line(x1 - k, y0),
                Segment::Cubic(x1 - k + c, y0, x1, y0 + k - c, x1, y0 + k),
                Segment::Line(x1, y1 - k),
                Segment::Cubic(x1, y1 - k + c, x1 - k + c, y1, x1 - k, y1),
                Segment::Line(x0 + k, y1),
                Segment::Cubic(x0 + k - c, y1, x0, y1 - k + c, x0, y1 - k),
                Segment::Line(x0, y0 + k),
                Segment::Cubic(x0, y0 + k - c, x0 + k - c, y0, x0 + k, y0),
                Segment::Close,
            ]
        }
        Shape::Round => ellipse(r.x + r.w / 2.0, r.y + r.h / 2.0, r.w / 2.0, r.h / 2.0),
        Shape::Triangle => vec![
            Segment::Move(r.x + r.w / 2.0, r.y),
            Segment::Line(r.right(), r.bottom()),
            Segment::Line(r.x, r.bottom()),
            Segment::Close,
        ],
    }
}

/// A list of marks under construction.
#[derive(Debug, Default, Clone)]
pub struct Marks(pub Vec<Mark>);

impl Marks {
    /// A crop mark.
    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64) {
        self.0.push(Mark::Line {
            from: (x1, y1),
            to: (x2, y2),
            stroke: Stroke::Crop,
        });
    }

    /// A dashed guide line (fold or cut guides).
    pub fn dashed(&mut self, x1: f64, y1: f64, x2: f64, y2: f64) {
        self.0.push(Mark::Line {
            from: (x1, y1),
            to: (x2, y2),
            stroke: Stroke::Guide,
        });
    }

    /// A cut line around a part.
    pub fn cut(&mut self, shape: Shape, rect: Rect) {
        self.0.push(Mark::Outline { shape, rect });
    }

    /// Half a registration target on `side` of a seam through (`cx`, `cy`).
    pub fn half_target(&mut self, cx: f64, cy: f64, r: f64, side: Toward) {
        self.0.push(Mark::Target {
            center: (cx, cy),
            r,
            half: Some(side),
        });
    }

    /// A small label; `upwards` turns it to read from bottom to top.
    pub fn text(&mut self, x: f64, y: f64, size: f64, anchor: Anchor, upwards: bool, text: &str) {
        self.0.push(Mark::Label {
            at: (x, y),
            size,
            anchor,
            upwards,
            text: LabelText::new(text),
        });
    }
}
