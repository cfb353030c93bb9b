//! The elements of a rendered face as preflight sees them: what each drawn node is,
//! its outline in the face's coordinates, and which element of the SVG text it
//! came from ([`crate::svg::elements`] reads the elements and names the nodes).
//! The elements themselves are read only for a face whose text has a `class` or
//! that has a finding, and a face's tagged copy is parsed only when it has a
//! finding to locate (a face that marks elements was parsed from it already), so
//! most faces are parsed once.

use std::sync::Arc;

use resvg::tiny_skia::FillRule;
use usvg::tiny_skia_path::{Path, PathSegment, Point, Rect, Stroke, Transform};
use usvg::{Group, Node, Tree};

pub use crate::svg::elements::{Element, Elements};

/// What a drawn node is.
#[derive(Debug, Clone, PartialEq)]
pub enum What {
    /// Text, with its characters.
    Text(String),
    /// A filled or stroked shape.
    Shape,
    /// A raster image: its pixel width, if known.
    Image(Option<u32>),
}

impl What {
    /// How a message names it.
    pub fn describe(&self) -> String {
        match self {
            What::Text(t) => format!("text \"{}\"", short(t)),
            What::Shape => "a shape".into(),
            What::Image(_) => "an image".into(),
        }
    }
}

/// The first 40 characters of a text.
pub fn short(t: &str) -> String {
    t.chars().take(40).collect()
}

/// One outline a node paints: a path under a transform, filled and/or stroked.
#[derive(Clone)]
pub struct Outline<'a> {
    pub path: &'a Path,
    pub ts: Transform,
    /// How it is filled, if it is.
    pub fill: Option<FillRule>,
    pub stroke: Option<Stroke>,
}

/// The fill rule of a usvg fill.
fn rule(fill: Option<&usvg::Fill>) -> Option<FillRule> {
    fill.map(|f| match f.rule() {
        usvg::FillRule::NonZero => FillRule::Winding,
        usvg::FillRule::EvenOdd => FillRule::EvenOdd,
    })
}

/// A drawn node: paths, text and images, in painting order.
pub struct Leaf<'a> {
    pub what: What,
    pub outlines: Vec<Outline<'a>>,
    /// For an image (its outline is its box).
    pub image_rect: Option<Rect>,
    /// Box of what it paints (stroke included), in the face's coordinates.
    pub bbox: Rect,
    /// The element it came from, when known.
    pub element: Option<usize>,
    /// The keep-visible element it belongs to (itself or a group around it).
    pub keep: Option<usize>,
    /// The icon (`class="icon"`) it belongs to.
    pub icon: Option<usize>,
    /// Whether it paints an opaque fill (90 % or more, its groups' opacity
    /// included): what hides what lies under it.
    pub opaque: bool,
    /// For a text: its smallest letters, dark and light, in the face's units.
    pub text_sizes: Option<super::text_size::TextSizes>,
}

/// Every drawn node of a face's `trees` (bottom first), in painting order, in
/// one list; `elements` names them. A text's letters count as light from the
/// relative luminance `light` on.
pub fn leaves<'a>(trees: &'a [Arc<Tree>], elements: &Elements, light: f64) -> Vec<Leaf<'a>> {
    // Room for every node but groups (at most one leaf each): a leaf is large, and
    // a board's thousands of them were copied again each time the list grew.
    let nodes = trees.iter().map(|t| drawn_nodes(t.root())).sum();
    let mut out = Vec::with_capacity(nodes);
    let top = Owners {
        element: None,
        keep: None,
        icon: None,
        alpha: 1.0,
    };
    for tree in trees {
        walk(tree.root(), top, (elements, light), &mut out);
    }
    out
}

/// How many nodes but groups `g` holds, at any depth: the most leaves it gives.
fn drawn_nodes(g: &Group) -> usize {
    g.children()
        .iter()
        .map(|n| match n {
            Node::Group(g) => drawn_nodes(g),
            _ => 1,
        })
        .sum()
}

/// What a node inherits from the groups around it: the element it came from, the
/// keep-visible element and icon it belongs to, and the opacity it is drawn with
/// (0 under a mask: what it hides is not known).
#[derive(Clone, Copy)]
struct Owners {
    element: Option<usize>,
    keep: Option<usize>,
    icon: Option<usize>,
    alpha: f32,
}

/// Least opacity of a fill that hides what is under it.
const OPAQUE: f32 = 0.9;

/// Whether a path's fill is opaque at `alpha`.
fn opaque_fill(fill: Option<&usvg::Fill>, alpha: f32) -> bool {
    let Some(f) = fill else { return false };
    let stops_opaque = |stops: &[usvg::Stop]| stops.iter().all(|s| s.opacity().get() >= OPAQUE);
    f.opacity().get() * alpha >= OPAQUE
        && match f.paint() {
            usvg::Paint::Color(_) => true,
            usvg::Paint::LinearGradient(g) => stops_opaque(g.stops()),
            usvg::Paint::RadialGradient(g) => stops_opaque(g.stops()),
            usvg::Paint::Pattern(_) => false,
        }
}

/// `read`: the elements that name the nodes, and the luminance from which a text's
/// letters are light.
fn walk<'a>(g: &'a Group, up: Owners, read: (&Elements, f64), out: &mut Vec<Leaf<'a>>) {
    let (els, light) = read;
    for node in g.children() {
        let own = els.of(node.id());
        let marked = |flag: fn(&Element) -> bool, inherited| match own {
            Some(e) if flag(&els.list[e]) => Some(e),
            _ => inherited,
        };
        let here = Owners {
            element: own.or(up.element),
            keep: marked(|e| e.keep, up.keep),
            icon: marked(|e| e.icon, up.icon),
            alpha: up.alpha,
        };
        let leaf = |what, outlines, image_rect, bbox: usvg::Rect, opaque| Leaf {
            what,
            outlines,
            image_rect,
            bbox,
            element: here.element,
            keep: here.keep,
            icon: here.icon,
            opaque,
            text_sizes: None,
        };
        match node {
            Node::Group(g) if g.opacity().get() > 0.0 => {
                let masked = g.mask().is_some();
                let alpha = if masked {
                    0.0
                } else {
                    here.alpha * g.opacity().get()
                };
                walk(g, Owners { alpha, ..here }, read, out)
            }
            Node::Group(_) => {}
            Node::Path(p) => {
                if p.is_visible() && (p.fill().is_some() || p.stroke().is_some()) {
                    let o = Outline {
                        path: p.data(),
                        ts: p.abs_transform(),
                        fill: rule(p.fill()),
                        stroke: p.stroke().map(|s| s.to_tiny_skia()),
                    };
                    out.push(leaf(
                        What::Shape,
                        vec![o],
                        None,
                        p.abs_stroke_bounding_box(),
                        opaque_fill(p.fill(), here.alpha),
                    ));
                }
            }
            Node::Text(t) => {
                let text: String = t.chunks().iter().map(|c| c.text()).collect();
                let mut outlines = Vec::new();
                glyphs(t.flattened(), t.abs_transform(), &mut outlines);
                let bbox = bounds(&outlines).unwrap_or(t.abs_stroke_bounding_box());
                out.push(Leaf {
                    text_sizes: Some(super::text_size::sizes(t, light)),
                    ..leaf(What::Text(text), outlines, None, bbox, false)
                });
            }
            Node::Image(i) => {
                let px = pixel_width(i.kind());
                let b = i.abs_bounding_box();
                // A JPEG has no transparency; other pictures may.
                let opaque = matches!(i.kind(), usvg::ImageKind::JPEG(_)) && here.alpha >= OPAQUE;
                out.push(leaf(What::Image(px), Vec::new(), Some(b), b, opaque));
            }
        }
    }
}

/// The glyph outlines of a text (its flattened paths) under `ts`.
fn glyphs<'a>(g: &'a Group, ts: Transform, out: &mut Vec<Outline<'a>>) {
    for node in g.children() {
        match node {
            Node::Path(p) if p.is_visible() => out.push(Outline {
                path: p.data(),
                ts,
                fill: rule(p.fill()),
                stroke: p.stroke().map(|s| s.to_tiny_skia()),
            }),
            Node::Group(c) => glyphs(c, ts.pre_concat(c.transform()), out),
            _ => {}
        }
    }
}

/// The box around outlines, strokes included.
fn bounds(outlines: &[Outline]) -> Option<Rect> {
    let mut r: Option<Rect> = None;
    for o in outlines {
        let Some(b) = o.path.bounds().transform(o.ts) else {
            continue;
        };
        let half = o.stroke.as_ref().map_or(0.0, |s| s.width / 2.0) * scale_of(o.ts);
        let b = Rect::from_ltrb(
            b.left() - half,
            b.top() - half,
            b.right() + half,
            b.bottom() + half,
        )?;
        r = Some(match r {
            Some(a) => Rect::from_ltrb(
                a.left().min(b.left()),
                a.top().min(b.top()),
                a.right().max(b.right()),
                a.bottom().max(b.bottom()),
            )?,
            None => b,
        });
    }
    r
}

/// The scale a transform applies to lengths (the mean of its axes).
pub fn scale_of(ts: Transform) -> f32 {
    let (sx, sy) = ts.get_scale();
    (sx + sy) / 2.0
}

/// Points along an outline (ends of every segment and the middle of every curve),
/// in the face's coordinates, with half the stroke width they carry.
pub fn points(o: &Outline) -> (Vec<Point>, f32) {
    let mut pts = Vec::new();
    let mut last = Point::zero();
    for seg in o.path.segments() {
        match seg {
            PathSegment::MoveTo(p) | PathSegment::LineTo(p) => {
                pts.push(p);
                last = p;
            }
            PathSegment::QuadTo(c, p) => {
                let mid = |a: f32, b: f32, e: f32| 0.25 * a + 0.5 * b + 0.25 * e;
                pts.push(Point::from_xy(mid(last.x, c.x, p.x), mid(last.y, c.y, p.y)));
                pts.push(p);
                last = p;
            }
            PathSegment::CubicTo(c1, c2, p) => {
                let mid = |a: f32, b: f32, c: f32, e: f32| 0.125 * (a + 3.0 * b + 3.0 * c + e);
                pts.push(Point::from_xy(
                    mid(last.x, c1.x, c2.x, p.x),
                    mid(last.y, c1.y, c2.y, p.y),
                ));
                pts.push(p);
                last = p;
            }
            PathSegment::Close => {}
        }
    }
    o.ts.map_points(&mut pts);
    (pts, half_stroke(o))
}

/// Half the stroke width an outline carries, in the face's coordinates.
pub fn half_stroke(o: &Outline) -> f32 {
    o.stroke.as_ref().map_or(0.0, |s| s.width / 2.0) * scale_of(o.ts)
}

/// The corners of an outline's bounds (of all its points, control points too), in
/// the face's coordinates: a parallelogram holding every point [`points`] gives.
pub fn corners(o: &Outline) -> [Point; 4] {
    let b = o.path.bounds();
    let mut c = [
        Point::from_xy(b.left(), b.top()),
        Point::from_xy(b.right(), b.top()),
        Point::from_xy(b.right(), b.bottom()),
        Point::from_xy(b.left(), b.bottom()),
    ];
    o.ts.map_points(&mut c);
    c
}

/// Pixel width of a PNG, JPEG or GIF from its header.
fn pixel_width(kind: &usvg::ImageKind) -> Option<u32> {
    use usvg::ImageKind;
    match kind {
        ImageKind::PNG(d) if d.len() > 24 => Some(u32::from_be_bytes(d[16..20].try_into().ok()?)),
        ImageKind::GIF(d) if d.len() > 10 => Some(u16::from_le_bytes([d[6], d[7]]) as u32),
        ImageKind::JPEG(d) => {
            let mut i = 2;
            while i + 9 < d.len() {
                if d[i] != 0xFF {
                    return None;
                }
                let marker = d[i + 1];
                let len = u16::from_be_bytes([d[i + 2], d[i + 3]]) as usize;
                if (0xC0..=0xCF).contains(&marker) && !matches!(marker, 0xC4 | 0xC8 | 0xCC) {
                    return Some(u16::from_be_bytes([d[i + 7], d[i + 8]]) as u32);
                }
                i += 2 + len;
            }
            None
        }
        _ => None,
    }
}
