//! The elements of a rendered face as preflight sees them: what each drawn node is,
//! its outline in the face's coordinates, and which element of the SVG text it
//! came from.
//!
//! usvg keeps an element's `id` but drops its `class`, and a node whose element has
//! no id cannot be traced back to the text. So preflight reads the elements from the
//! SVG text with roxmltree (their byte ranges and classes, [`Elements::read`]) and,
//! when it must name them, parses a copy of the text in which every drawable
//! element without an id gets `id="cs-N"`, N being its index in that list
//! ([`Elements::tagged`]); every parsed node then carries its element's number, and
//! a group's number passes to what it draws. Ids change nothing that is drawn: a
//! face that marks `keep-visible` elements or icons is parsed from the copy for the
//! exporters too ([`super::tagged`], the tree carried with its elements in
//! `export::Stack`), so it is parsed once. An element that has an id keeps it and
//! is found by it. Matching nodes by ids is exact where matching by order or by
//! geometry would guess (usvg drops invisible elements, expands `<use>`, merges
//! groups). Another face's copy is parsed only when it has a finding to locate, and
//! the elements themselves are read only for a face whose text has a `class` or
//! that has a finding, so most faces are parsed once.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use resvg::tiny_skia::FillRule;
use usvg::tiny_skia_path::{Path, PathSegment, Point, Rect, Stroke, Transform};
use usvg::{Group, Node, Tree};

/// The class that marks an element players must always see.
pub const KEEP_VISIBLE: &str = "keep-visible";
/// The class of an icon drawn by `icon()` or set in rich text: preflight checks
/// that nothing opaque covers most of it, as it does for text.
pub const ICON: &str = "icon";
/// Prefix of the ids preflight gives elements.
const PREFIX: &str = "cs-";

/// One drawable element of the SVG text.
#[derive(Debug, Clone)]
pub struct Element {
    /// Byte range of `<tag` in the text (where the element starts).
    pub start: Range<usize>,
    /// Where to insert an id (after the tag name), when it has none.
    insert_at: Option<usize>,
    /// Whether it has `class="keep-visible"`.
    pub keep: bool,
    /// Whether it has `class="icon"`.
    pub icon: bool,
}

/// The drawable elements of a face's SVG text, in document order.
#[derive(Debug, Default)]
pub struct Elements {
    pub list: Vec<Element>,
    /// Elements found by their own id.
    by_id: HashMap<String, usize>,
}

/// Elements that are not drawn where they stand (their content is drawn where it
/// is referenced, or never).
const NOT_DRAWN: [&str; 14] = [
    "defs",
    "clipPath",
    "mask",
    "pattern",
    "marker",
    "symbol",
    "linearGradient",
    "radialGradient",
    "filter",
    "style",
    "title",
    "desc",
    "metadata",
    "script",
];

impl Elements {
    /// The drawable elements of `text` (`None` if it does not parse as XML).
    pub fn read(text: &str) -> Option<Elements> {
        let doc = crate::svg::xml(text).ok()?;
        let mut out = Elements::default();
        for node in doc.root_element().descendants().skip(1) {
            if !node.is_element() || !drawable(node) {
                continue;
            }
            let r = node.range();
            let name_end = text[r.start + 1..]
                .find(|c: char| c.is_whitespace() || c == '/' || c == '>')
                .map_or(r.end, |i| r.start + 1 + i);
            let i = out.list.len();
            if let Some(id) = node.attribute("id") {
                out.by_id.insert(id.to_string(), i);
            }
            let class = |name: &str| {
                node.attribute("class")
                    .is_some_and(|c| c.split_whitespace().any(|c| c == name))
            };
            out.list.push(Element {
                start: r.start..name_end,
                insert_at: node.attribute("id").is_none().then_some(name_end),
                keep: class(KEEP_VISIBLE),
                icon: class(ICON),
            });
        }
        Some(out)
    }

    /// The elements of `text` from byte `at` on, numbered from `at` (for a layer's
    /// part of a front's text: [`Elements::over`]).
    pub fn from(text: &str, at: usize) -> Option<Elements> {
        let mut e = Elements::read(text)?;
        if e.list.iter().any(|el| el.start.start < at) {
            return None;
        }
        e.shift(at, false);
        Some(e)
    }

    /// Moves every position by `by`, back (`forward` false) or forward.
    fn shift(&mut self, by: usize, forward: bool) {
        let mv = |p: usize| if forward { p + by } else { p - by };
        for el in &mut self.list {
            el.start = mv(el.start.start)..mv(el.start.end);
            el.insert_at = el.insert_at.map(mv);
        }
    }

    /// The elements of a front's text with `layer` put in at byte `at` (`len`
    /// bytes): `layer`'s (numbered from `at`, [`Elements::from`]) and then `own`, the
    /// front's, read from its own text. The same as reading the whole text, without
    /// reading the layer again for every front.
    pub fn over(layer: &Elements, at: usize, len: usize, mut own: Elements) -> Elements {
        let mut out = Elements {
            list: layer.list.clone(),
            by_id: layer.by_id.clone(),
        };
        out.shift(at, true);
        own.shift(len, true);
        let n = out.list.len();
        out.by_id
            .extend(own.by_id.into_iter().map(|(id, i)| (id, i + n)));
        out.list.extend(own.list);
        out
    }

    /// Whether any element is marked keep-visible or is an icon: the leaves of
    /// such a face are known only from a copy with ids ([`Elements::tagged`]).
    pub fn any_marked(&self) -> bool {
        self.list.iter().any(|e| e.keep || e.icon)
    }

    /// `text` with `id="cs-N"` on every element that has no id.
    pub fn tagged(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len() + self.list.len() * 12);
        let mut at = 0;
        for (i, e) in self.list.iter().enumerate() {
            if let Some(pos) = e.insert_at {
                out.push_str(&text[at..pos]);
                out.push_str(&format!(" id=\"{PREFIX}{i}\""));
                at = pos;
            }
        }
        out.push_str(&text[at..]);
        out
    }

    /// Whether `tagged` names elements unmistakably: no element's own id looks
    /// like one it gives ([`Elements::of`] would take it for another element's
    /// number, and a reference to it could find the wrong element).
    pub fn tags_unmistakably(&self) -> bool {
        !self.by_id.keys().any(|id| id.starts_with(PREFIX))
    }

    /// The element a parsed node's id names.
    fn of(&self, id: &str) -> Option<usize> {
        match id.strip_prefix(PREFIX).and_then(|n| n.parse().ok()) {
            Some(i) if i < self.list.len() => Some(i),
            _ => self.by_id.get(id).copied(),
        }
    }
}

/// Whether an element is drawn where it stands: not the content of a `<text>`, of
/// `<defs>` or of another element drawn only where it is referenced.
fn drawable(node: roxmltree::Node) -> bool {
    let name = node.tag_name().name();
    if NOT_DRAWN.contains(&name) || name == "tspan" || name == "textPath" {
        return false;
    }
    !node.ancestors().skip(1).any(|a| {
        let n = a.tag_name().name();
        NOT_DRAWN.contains(&n) || n == "text"
    })
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_get_ids_and_keep_their_own() {
        let text = r##"<svg xmlns="http://www.w3.org/2000/svg"><defs><circle id="dot" r="1"/></defs><g><circle class="a keep-visible" r="2"/><use href="#dot"/><text id="t">Hi<tspan>!</tspan></text></g></svg>"##;
        let e = Elements::read(text).unwrap();
        // g, circle, use, text (not the defs, its circle, the tspan).
        assert_eq!(e.list.len(), 4);
        assert!(e.list[1].keep && !e.list[0].keep);
        assert_eq!(&text[e.list[1].start.clone()], "<circle");
        let tagged = e.tagged(text);
        assert!(tagged.contains(r#"<g id="cs-0">"#), "{tagged}");
        assert!(
            tagged.contains(r#"<circle id="cs-1" class="a keep-visible""#),
            "{tagged}"
        );
        assert!(tagged.contains(r#"<text id="t">"#), "{tagged}");
        assert_eq!(e.of("cs-2"), Some(2));
        assert_eq!(e.of("t"), Some(3));
        assert_eq!(e.of("dot"), None, "inside defs: named by the use");
    }

    #[test]
    fn a_fronts_elements_are_its_layers_then_its_own() {
        let layer = crate::render::Layer::read(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="9mm" height="9mm" viewBox="0 0 9 9" class="keep-visible"><defs><path id="p" d="M0 0H1"/></defs><rect id="a" width="1" height="1"/><g><use href="#p"/><text>x<tspan>y</tspan></text></g></svg>"##.into(),
        )
        .unwrap();
        let front = r##"<svg xmlns="http://www.w3.org/2000/svg" width="9mm" height="9mm" viewBox="0 0 9 9"><rect class="keep-visible" width="1" height="1"/><circle id="b" r="1"/></svg>"##;
        let c = layer.under(front).unwrap().unwrap();
        let at = c.at.range.clone();
        let part = Elements::from(&format!("{}</svg>", &c.text[..at.end]), at.start).unwrap();
        let own = Elements::read(&c.at.front_text(&c.text)).unwrap();
        let put = Elements::over(&part, at.start, at.len(), own);
        let whole = Elements::read(&c.text).unwrap();
        let ids = |e: &Elements| {
            let mut v: Vec<_> = e.by_id.iter().map(|(k, v)| (k.clone(), *v)).collect();
            v.sort();
            v
        };
        assert_eq!(format!("{:?}", put.list), format!("{:?}", whole.list));
        assert_eq!(ids(&put), ids(&whole));
        assert_eq!(
            put.list.len(),
            7,
            "the layer's <g>, its four, the front's two"
        );
        assert_eq!(put.tagged(&c.text), whole.tagged(&c.text));
    }
}
