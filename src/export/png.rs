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
