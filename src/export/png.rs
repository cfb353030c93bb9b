//! PNG through resvg: one face at a given dpi, bleed included.

use usvg::Tree;

/// Renders `tree` (whose size is `w_mm` x `h_mm`) at `dpi` and encodes it as PNG.
pub fn write(tree: &Tree, w_mm: f64, h_mm: f64, dpi: f64) -> Result<Vec<u8>, String> {
    let w = crate::units::mm_to_px(w_mm, dpi).round().max(1.0) as u32;
    let h = crate::units::mm_to_px(h_mm, dpi).round().max(1.0) as u32;
    if w as u64 * h as u64 > 20_000 * 20_000 {
        return Err(format!("a {w} x {h} px image is too large to rasterise"));
    }
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h).ok_or("cannot allocate the image")?;
    let ts = resvg::tiny_skia::Transform::from_scale(
        w as f32 / tree.size().width(),
        h as f32 / tree.size().height(),
    );
    resvg::render(tree, ts, &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| format!("PNG encoding failed: {e}"))
}

/// Renders only the trim area of a face (its bleed cropped away) into `w` x `h` px.
pub fn render_trim(
    tree: &Tree,
    full_w_mm: f64,
    full_h_mm: f64,
    bleed_mm: f64,
    w: u32,
    h: u32,
) -> Result<resvg::tiny_skia::Pixmap, String> {
    let mut pixmap =
        resvg::tiny_skia::Pixmap::new(w.max(1), h.max(1)).ok_or("cannot allocate the image")?;
    let (tw, th) = (tree.size().width() as f64, tree.size().height() as f64);
    let trim_w_px = tw * (full_w_mm - 2.0 * bleed_mm) / full_w_mm;
    let trim_h_px = th * (full_h_mm - 2.0 * bleed_mm) / full_h_mm;
    let sx = w as f64 / trim_w_px;
    let sy = h as f64 / trim_h_px;
    let bx = tw * bleed_mm / full_w_mm;
    let by = th * bleed_mm / full_h_mm;
    let ts = resvg::tiny_skia::Transform::from_row(
        sx as f32,
        0.0,
        0.0,
        sy as f32,
        (-bx * sx) as f32,
        (-by * sy) as f32,
    );
    resvg::render(tree, ts, &mut pixmap.as_mut());
    Ok(pixmap)
}

/// Encodes a pixmap as PNG.
pub fn encode(pixmap: &resvg::tiny_skia::Pixmap) -> Result<Vec<u8>, String> {
    pixmap
        .encode_png()
        .map_err(|e| format!("PNG encoding failed: {e}"))
}

/// A token image: the trim area only, transparent outside the part's cut shape
/// (Tabletop Simulator cuts tokens from the image's transparency).
pub fn write_cut(
    tree: &Tree,
    full_w_mm: f64,
    full_h_mm: f64,
    bleed_mm: f64,
    shape: crate::model::Shape,
    dpi: f64,
) -> Result<Vec<u8>, String> {
    use crate::model::Shape;
    let w = crate::units::mm_to_px(full_w_mm - 2.0 * bleed_mm, dpi)
        .round()
        .max(1.0) as u32;
    let h = crate::units::mm_to_px(full_h_mm - 2.0 * bleed_mm, dpi)
        .round()
        .max(1.0) as u32;
    let mut pixmap = render_trim(tree, full_w_mm, full_h_mm, bleed_mm, w, h)?;
    let (fw, fh) = (w as f64, h as f64);
    let inside = |x: f64, y: f64| -> bool {
        match shape {
            Shape::Round => {
                let (dx, dy) = ((x - fw / 2.0) / (fw / 2.0), (y - fh / 2.0) / (fh / 2.0));
                dx * dx + dy * dy <= 1.0
            }
            Shape::Triangle => {
                // Apex at the top centre, base along the bottom edge.
                let half = fw / 2.0 * (y / fh);
                (x - fw / 2.0).abs() <= half
            }
            Shape::Rect | Shape::Rounded => true,
        }
    };
    let width = w as usize;
    for (i, px) in pixmap.pixels_mut().iter_mut().enumerate() {
        let (x, y) = ((i % width) as f64 + 0.5, (i / width) as f64 + 0.5);
        if !inside(x, y) {
            *px = resvg::tiny_skia::PremultipliedColorU8::TRANSPARENT;
        }
    }
    encode(&pixmap)
}
