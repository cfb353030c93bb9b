//! Preflight: what a print shop would reject, found before the files leave: text
//! outside the safe zone, a background that stops short of the bleed edge, and
//! raster images below 300 dpi at their printed size. Warnings, naming the face and
//! the element.

use std::collections::BTreeSet;
use std::path::PathBuf;

use usvg::{ImageKind, Node, Tree};

use crate::diag::Diagnostic;
use crate::faces::Rendered;
use crate::model::{Component, Game, Shape};
use crate::profile::Profile;

/// Lowest raster resolution at print size.
pub const MIN_DPI: f64 = 300.0;

/// Checks every distinct face of every component the profile exports.
pub fn check(game: &Game, r: &Rendered, profile: &Profile) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let mut seen = BTreeSet::new();
    for (ci, comp) in game.components.iter().enumerate() {
        for s in &r.slots[ci] {
            for (side, face) in [("front", Some(s.front)), ("back", s.back)] {
                let Some(face) = face else { continue };
                if !seen.insert(face) {
                    continue;
                }
                let template = if side == "front" {
                    comp.front_name()
                } else {
                    comp.back_name()
                };
                let Some(tree) = r.store.tree(face) else {
                    continue;
                };
                for w in check_face(tree, comp, s.plan.shape, profile.safe) {
                    diags.push(
                        Diagnostic::warning(w)
                            .at(PathBuf::from("templates").join(&game.id).join(&template), None)
                            .with("game", &game.id)
                            .with("component", comp.id())
                            .with("face", format!("{} {side}", s.plan.label))
                            .with("profile", &profile.id)
                            .hint("keep text and key art inside the safe zone, backgrounds out to the bleed edge, images at 300 dpi or more"),
                    );
                }
            }
        }
    }
    diags
}

/// Problems of one face; `safe` is the safe zone inside the trim in mm. Parts
/// under 30 mm a side (chits, coins) use a tenth of their side instead, as a 3 mm
/// zone would leave a 3/4 in chit almost no room.
pub fn check_face(tree: &Tree, comp: &Component, shape: Shape, safe: f64) -> Vec<String> {
    let mut out = Vec::new();
    let (w, h, b) = (comp.size.width, comp.size.height, comp.bleed);
    let safe = safe.min(w.min(h) * 0.1);
    let mm_per_px = (w + 2.0 * b) / tree.size().width() as f64;
    let mut texts = Vec::new();
    let mut images = Vec::new();
    walk(tree.root(), &mut texts, &mut images);
    for (text, bbox) in texts {
        let (x0, y0) = (
            bbox.left() as f64 * mm_per_px - b,
            bbox.top() as f64 * mm_per_px - b,
        );
        let (x1, y1) = (
            bbox.right() as f64 * mm_per_px - b,
            bbox.bottom() as f64 * mm_per_px - b,
        );
        let margin = x0.min(y0).min(w - x1).min(h - y1);
        if margin < safe - 0.05 {
            let short: String = text.chars().take(40).collect();
            out.push(if margin < 0.0 {
                format!(
                    "text \"{short}\" runs {} mm past the trim edge",
                    crate::units::fmt_num(-margin)
                )
            } else {
                format!(
                    "text \"{short}\" is {} mm from the trim edge, inside the {} mm safe zone",
                    crate::units::fmt_num(margin),
                    crate::units::fmt_num(safe)
                )
            });
        }
    }
    for (kind, bbox) in images {
        if let Some((pw, _)) = pixel_size(&kind) {
            let printed_in = bbox.width() as f64 * mm_per_px / crate::units::MM_PER_IN;
            if printed_in > 0.0 && (pw as f64 / printed_in) < MIN_DPI - 0.5 {
                out.push(format!(
                    "an image is {:.0} dpi at its printed size ({pw} px over {} mm); print shops want {MIN_DPI:.0}",
                    pw as f64 / printed_in,
                    crate::units::fmt_num(printed_in * crate::units::MM_PER_IN)
                ));
            }
        }
    }
    if b > 0.0 && matches!(shape, Shape::Rect | Shape::Rounded) && !has_full_background(tree) {
        if let Some(blank) = blank_edge(tree) {
            out.push(format!(
                "the background does not reach the bleed edge ({blank:.0} % of the edge is blank)"
            ));
        }
    }
    out
}

fn walk(
    g: &usvg::Group,
    texts: &mut Vec<(String, usvg::Rect)>,
    images: &mut Vec<(ImageKind, usvg::Rect)>,
) {
    for node in g.children() {
        match node {
            Node::Group(g) => walk(g, texts, images),
            Node::Text(t) => {
                let s: String = t.chunks().iter().map(|c| c.text()).collect();
                texts.push((s, t.abs_bounding_box()));
            }
            Node::Image(i) => images.push((i.kind().clone(), i.abs_bounding_box())),
            Node::Path(_) => {}
        }
    }
}

/// Whether an opaque filled shape covers the whole face, bleed included (the usual
/// background rectangle): then the edge need not be rasterised to be checked.
fn has_full_background(tree: &Tree) -> bool {
    let (w, h) = (tree.size().width(), tree.size().height());
    fn any(g: &usvg::Group, w: f32, h: f32) -> bool {
        g.children().iter().any(|n| match n {
            Node::Group(g) => {
                g.opacity().get() >= 1.0
                    && g.clip_path().is_none()
                    && g.mask().is_none()
                    && any(g, w, h)
            }
            Node::Path(p) => {
                let b = p.abs_bounding_box();
                let opaque = p.fill().is_some_and(|f| {
                    f.opacity().get() >= 1.0 && matches!(f.paint(), usvg::Paint::Color(_))
                });
                // Only an axis-aligned rectangle's bounding box is its shape.
                let rect = p.data().len() <= 5 && p.abs_transform().is_identity()
                    || p.data().len() <= 5
                        && p.abs_transform().kx == 0.0
                        && p.abs_transform().ky == 0.0;
                opaque
                    && rect
                    && b.left() <= 0.01
                    && b.top() <= 0.01
                    && b.right() >= w - 0.01
                    && b.bottom() >= h - 0.01
            }
            _ => false,
        })
    }
    any(tree.root(), w, h)
}

/// Percentage of the outermost pixel ring left unpainted, if any.
fn blank_edge(tree: &Tree) -> Option<f64> {
    let scale = 0.5f32; // about 2 px per mm: enough to see a gap, cheap to render
    let (w, h) = (
        (tree.size().width() * scale).floor() as u32,
        (tree.size().height() * scale).floor() as u32,
    );
    let mut pm = resvg::tiny_skia::Pixmap::new(w.max(2), h.max(2))?;
    resvg::render(
        tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pm.as_mut(),
    );
    let (w, h) = (pm.width(), pm.height());
    let mut blank = 0;
    let mut total = 0;
    for x in 0..w {
        for y in [0, h - 1] {
            total += 1;
            blank += (pm.pixel(x, y).map(|p| p.alpha()).unwrap_or(0) < 250) as u32;
        }
    }
    for y in 0..h {
        for x in [0, w - 1] {
            total += 1;
            blank += (pm.pixel(x, y).map(|p| p.alpha()).unwrap_or(0) < 250) as u32;
        }
    }
    let pct = blank as f64 * 100.0 / total as f64;
    (pct > 2.0).then_some(pct)
}

/// Pixel width and height of a PNG, JPEG or GIF from its header.
fn pixel_size(kind: &ImageKind) -> Option<(u32, u32)> {
    match kind {
        ImageKind::PNG(d) if d.len() > 24 => Some((
            u32::from_be_bytes(d[16..20].try_into().ok()?),
            u32::from_be_bytes(d[20..24].try_into().ok()?),
        )),
        ImageKind::GIF(d) if d.len() > 10 => Some((
            u16::from_le_bytes([d[6], d[7]]) as u32,
            u16::from_le_bytes([d[8], d[9]]) as u32,
        )),
        ImageKind::JPEG(d) => {
            let mut i = 2;
            while i + 9 < d.len() {
                if d[i] != 0xFF {
                    return None;
                }
                let marker = d[i + 1];
                let len = u16::from_be_bytes([d[i + 2], d[i + 3]]) as usize;
                if (0xC0..=0xCF).contains(&marker) && !matches!(marker, 0xC4 | 0xC8 | 0xCC) {
                    let hh = u16::from_be_bytes([d[i + 5], d[i + 6]]) as u32;
                    let ww = u16::from_be_bytes([d[i + 7], d[i + 8]]) as u32;
                    return Some((ww, hh));
                }
                i += 2 + len;
            }
            None
        }
        _ => None,
    }
}
