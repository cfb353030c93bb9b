//! A face drawn in a print shop's CMYK: krilla-svg asks [`FaceColors`] for every
//! colour, gradient stop and raster image (the `Colors` patch in `vendor/`), and a
//! face whose transparency PDF/X-1a cannot hold is drawn as a CMYK raster at the
//! shop's resolution with its text kept as vector above it ([`flat`]).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use krilla::color::{cmyk, Color};
use krilla::image::{BitsPerComponent, CustomImage, Image, ImageColorspace};
use krilla_svg::{Colors, Painted};
use usvg::{Node, Tree};

use crate::color::{Cmyk, Press, Role};

/// CMYK colours the template gives itself, by the sRGB colour they stand for in
/// one face: `data-cmyk="60 40 40 100"` on an element gives its fill's (or a
/// `<stop>`'s `stop-color`'s), `data-cmyk-stroke` its stroke's. They pass through
/// untouched.
pub type Given = HashMap<[u8; 3], Cmyk>;

/// The colours of one face: the press's conversion, the face's own CMYK, and
/// the size of the tree's user unit in mm.
pub struct FaceColors<'a> {
    pub press: &'a Press,
    pub given: &'a Given,
    /// mm per user unit of the face's tree.
    pub mm: f64,
    /// Raster images keep their alpha (PDF/X-4) or are flattened onto white.
    pub keep_alpha: bool,
}

fn color(c: Cmyk) -> Color {
    let [a, b, c, d] = c.0;
    cmyk::Color::new(a, b, c, d).into()
}

impl Colors for FaceColors<'_> {
    fn color(&self, c: usvg::Color, painted: Painted) -> Color {
        let rgb = [c.red, c.green, c.blue];
        if let Some(given) = self.given.get(&rgb) {
            return color(*given);
        }
        let mm = |v: f32| f64::from(v) * self.mm;
        let role = match painted {
            Painted::Text => Role::Text,
            Painted::Stroke { width } => Role::Line { width: mm(width) },
            Painted::Fill { width, height } => Role::Area {
                width: mm(width),
                height: mm(height),
            },
            Painted::Stop => Role::Stop,
        };
        color(self.press.convert(rgb, role))
    }

    fn image(&self, kind: &usvg::ImageKind) -> Option<Image> {
        let (w, h, rgba) = crate::image::decode_rgba(kind)?;
        Some(self.pixels(rgba, w, h))
    }

    fn pixels(&self, rgba: Vec<u8>, width: u32, height: u32) -> Image {
        let alpha: Vec<u8> = rgba.chunks_exact(4).map(|p| p[3]).collect();
        let opaque = alpha.iter().all(|&a| a == 255);
        let rgba = if opaque || self.keep_alpha {
            rgba
        } else {
            onto_white(&rgba)
        };
        let cmyk = self.press.image(&rgba);
        let image = CmykImage {
            cmyk: Arc::new(cmyk),
            alpha: (!opaque && self.keep_alpha).then(|| Arc::new(alpha)),
            size: (width, height),
        };
        // A custom image only fails on sizes that do not match its data.
        Image::from_custom(image, false).unwrap_or_else(|_| Image::from_rgba8(vec![255; 4], 1, 1))
    }
}

/// Straight RGBA composited onto white paper, alpha 255.
fn onto_white(rgba: &[u8]) -> Vec<u8> {
    rgba.chunks_exact(4)
        .flat_map(|p| {
            let a = u32::from(p[3]);
            let mix = |c: u8| ((u32::from(c) * a + 255 * (255 - a) + 127) / 255) as u8;
            [mix(p[0]), mix(p[1]), mix(p[2]), 255]
        })
        .collect()
}

/// CMYK pixels (and an alpha channel, if kept) for krilla.
#[derive(Clone, Hash)]
struct CmykImage {
    cmyk: Arc<Vec<u8>>,
    alpha: Option<Arc<Vec<u8>>>,
    size: (u32, u32),
}

impl CustomImage for CmykImage {
    fn color_channel(&self) -> &[u8] {
        &self.cmyk
    }
    fn alpha_channel(&self) -> Option<&[u8]> {
        self.alpha.as_deref().map(Vec::as_slice)
    }
    fn bits_per_component(&self) -> BitsPerComponent {
        BitsPerComponent::Eight
    }
    fn size(&self) -> (u32, u32) {
        self.size
    }
    fn icc_profile(&self) -> Option<&[u8]> {
        None
    }
    fn color_space(&self) -> ImageColorspace {
        ImageColorspace::Cmyk
    }
}

/// The CMYK colours `svg` (a face's text) gives itself with `data-cmyk` and
/// `data-cmyk-stroke`, by the sRGB colour they stand for.
pub fn given(svg: &str) -> Given {
    let mut out = Given::new();
    if !svg.contains("data-cmyk") {
        return out;
    }
    let Ok(doc) = roxmltree::Document::parse(svg) else {
        return out;
    };
    for n in doc.descendants().filter(|n| n.is_element()) {
        for (key, paint) in [("data-cmyk", "fill"), ("data-cmyk-stroke", "stroke")] {
            let Some(c) = n.attribute(key).and_then(Cmyk::parse) else {
                continue;
            };
            let paint = if n.tag_name().name() == "stop" && key == "data-cmyk" {
                "stop-color"
            } else {
                paint
            };
            if let Some(rgb) = n
                .attribute(paint)
                .and_then(|v| svgtypes::Color::from_str(v).ok())
            {
                out.insert([rgb.red, rgb.green, rgb.blue], c);
            }
        }
    }
    out
}

/// The distinct plain colours `svg` paints with (`fill`, `stroke`, `stop-color`
/// attributes and `style` properties), in order of first use.
pub fn colors(svg: &str) -> Vec<[u8; 3]> {
    let mut out: Vec<[u8; 3]> = Vec::new();
    let Ok(doc) = roxmltree::Document::parse(svg) else {
        return out;
    };
    let mut add = |v: &str| {
        if let Ok(c) = svgtypes::Color::from_str(v.trim()) {
            let rgb = [c.red, c.green, c.blue];
            if !out.contains(&rgb) {
                out.push(rgb);
            }
        }
    };
    for n in doc.descendants().filter(|n| n.is_element()) {
        for key in ["fill", "stroke", "stop-color"] {
            if let Some(v) = n.attribute(key) {
                add(v);
            }
        }
        for decl in n.attribute("style").unwrap_or_default().split(';') {
            if let Some((k, v)) = decl.split_once(':') {
                if matches!(k.trim(), "fill" | "stroke" | "stop-color") {
                    add(v);
                }
            }
        }
    }
    out
}

use std::str::FromStr;

/// Whether drawing `tree` in a PDF would use transparency: a group's opacity,
/// mask or filter, a clip path krilla-svg makes a soft mask of, a fill, stroke
/// or gradient stop below full opacity, a raster image with transparent pixels.
pub fn transparent(tree: &Tree) -> bool {
    fn group(g: &usvg::Group) -> bool {
        g.opacity().get() < 1.0
            || g.mask().is_some()
            || !g.filters().is_empty()
            || g.blend_mode() != usvg::BlendMode::Normal
            || g.clip_path().is_some_and(|c| {
                c.clip_path().is_some()
                    || c.root()
                        .children()
                        .iter()
                        .any(|n| !matches!(n, Node::Path(_)))
            })
            || g.children().iter().any(node)
    }
    fn paint(p: &usvg::Paint, opacity: f32) -> bool {
        opacity < 1.0
            || match p {
                usvg::Paint::LinearGradient(g) => g.stops().iter().any(|s| s.opacity().get() < 1.0),
                usvg::Paint::RadialGradient(g) => g.stops().iter().any(|s| s.opacity().get() < 1.0),
                usvg::Paint::Pattern(p) => group(p.root()),
                usvg::Paint::Color(_) => false,
            }
    }
    fn node(n: &Node) -> bool {
        match n {
            Node::Group(g) => group(g),
            Node::Path(p) => {
                p.fill()
                    .is_some_and(|f| paint(f.paint(), f.opacity().get()))
                    || p.stroke()
                        .is_some_and(|s| paint(s.paint(), s.opacity().get()))
            }
            Node::Image(i) => match i.kind() {
                usvg::ImageKind::SVG(t) => group(t.root()),
                k => crate::image::decode_rgba(k)
                    .is_none_or(|(_, _, px)| px.chunks_exact(4).any(|p| p[3] < 255)),
            },
            Node::Text(t) => group(t.flattened()),
        }
    }
    group(tree.root())
}

/// A text node, by address, while its tree lives.
fn key(t: &usvg::Text) -> usize {
    t as *const usvg::Text as usize
}

/// The texts of `tree` that can stay vector above a raster of the rest: drawn
/// without transparency, under no group that has any, and with nothing drawn
/// after them over their bounds.
pub fn texts_on_top(tree: &Tree) -> Vec<&usvg::Text> {
    // Leaves in paint order: (bounds, the text if it may stay vector).
    fn walk<'t>(g: &'t usvg::Group, out: &mut Vec<(usvg::Rect, Option<&'t usvg::Text>)>) {
        for n in g.children() {
            match n {
                Node::Group(c) if plain(c) => walk(c, out),
                Node::Text(t) => {
                    let clear = !transparent_text(t);
                    out.push((t.abs_stroke_bounding_box(), clear.then_some(t)));
                }
                n => {
                    if let Some(b) = n.abs_layer_bounding_box() {
                        out.push((b.to_rect(), None));
                    }
                }
            }
        }
    }
    let mut leaves = Vec::new();
    walk(tree.root(), &mut leaves);
    let mut kept = Vec::new();
    for (i, (bounds, text)) in leaves.iter().enumerate() {
        let Some(t) = text else { continue };
        let covered = leaves[i + 1..]
            .iter()
            .any(|(b, _)| b.intersect(bounds).is_some());
        if !covered {
            kept.push(*t);
        }
    }
    kept
}

fn transparent_text(t: &usvg::Text) -> bool {
    t.layouted().iter().any(|s| {
        s.fill
            .as_ref()
            .is_some_and(|f| f.opacity().get() < 1.0 || !matches!(f.paint(), usvg::Paint::Color(_)))
            || s.stroke.as_ref().is_some_and(|f| {
                f.opacity().get() < 1.0 || !matches!(f.paint(), usvg::Paint::Color(_))
            })
    })
}

/// A group drawn as its children are, one after the other: no transform of its
/// own needs isolating, no opacity, clip, mask, filter or blend.
fn plain(g: &usvg::Group) -> bool {
    !g.should_isolate() && g.clip_path().is_none()
}

/// The face as RGBA pixels at `scale` px per user unit, with `kept` texts left
/// out (they are drawn as vector above it).
pub fn raster_without(
    tree: &Tree,
    kept: &[&usvg::Text],
    width: u32,
    height: u32,
    scale: f32,
) -> Option<Vec<u8>> {
    let kept: HashSet<usize> = kept.iter().map(|t| key(t)).collect();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(width, height)?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    let base = resvg::tiny_skia::Transform::from_scale(scale, scale);
    fn walk(
        g: &usvg::Group,
        base: resvg::tiny_skia::Transform,
        kept: &HashSet<usize>,
        pm: &mut resvg::tiny_skia::PixmapMut,
    ) {
        for n in g.children() {
            match n {
                Node::Group(c) if plain(c) => walk(c, base, kept, pm),
                Node::Text(t) if kept.contains(&key(t)) => {}
                n => {
                    let Some(b) = n.abs_layer_bounding_box() else {
                        continue;
                    };
                    let t = base
                        .pre_concat(g.abs_transform())
                        .pre_translate(b.x(), b.y());
                    resvg::render_node(n, t, pm);
                }
            }
        }
    }
    walk(tree.root(), base, &kept, &mut pixmap.as_mut());
    Some(
        pixmap
            .pixels()
            .iter()
            .flat_map(|p| {
                let c = p.demultiply();
                [c.red(), c.green(), c.blue(), 255]
            })
            .collect(),
    )
}
