//! PNG through resvg: one face at a given dpi (bleed included), the trim of a face,
//! a token cut to its shape, or a whole sheet with its marks.

use super::Stack;
use resvg::tiny_skia::{self, Pixmap, PixmapPaint, Transform};

use crate::geom::Segment;
use crate::layout::{Mark, Sheet, MARK_WIDTH};
pub use crate::profile::PngColor;
use crate::units::mm_to_px;

/// Largest image cardstock rasterises: 20,000 x 20,000 pixels would need 1.6 GB.
pub const MAX_PIXELS: u64 = 12_000 * 12_000;

/// Why an image could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PngError {
    /// Over [`MAX_PIXELS`].
    TooLarge { width: u32, height: u32 },
    /// The pixels could not be allocated.
    Alloc { width: u32, height: u32 },
    /// The face it shows did not parse.
    MissingFace(usize),
    /// The encoder failed.
    Encode(String),
}

impl std::fmt::Display for PngError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PngError::TooLarge { width, height } => write!(
                f,
                "a {width} x {height} px image is over the limit of {MAX_PIXELS} pixels: lower the dpi"
            ),
            PngError::Alloc { width, height } => {
                write!(f, "cannot allocate a {width} x {height} px image")
            }
            PngError::MissingFace(i) => write!(f, "face {i} was not rendered"),
            PngError::Encode(e) => write!(f, "PNG encoding failed: {e}"),
        }
    }
}

impl std::error::Error for PngError {}

/// Rasterised faces kept between builds, keyed by a hash of everything that
/// decides the picture. The command line keeps one in the output folder.
pub trait PngCache: Sync {
    /// A PNG stored under `key`, if any.
    fn get(&self, key: &str) -> Option<Vec<u8>>;
    /// Stores a PNG (a cache that cannot store only costs time next build).
    fn put(&self, key: &str, png: &[u8]);
}

/// A pixmap of `w` x `h` pixels, within [`MAX_PIXELS`].
pub fn pixmap(w: u32, h: u32) -> Result<Pixmap, PngError> {
    let (w, h) = (w.max(1), h.max(1));
    if w as u64 * h as u64 > MAX_PIXELS {
        return Err(PngError::TooLarge {
            width: w,
            height: h,
        });
    }
    Pixmap::new(w, h).ok_or(PngError::Alloc {
        width: w,
        height: h,
    })
}

/// Renders `tree` (whose size is `w_mm` x `h_mm`) at `dpi` and encodes it as RGBA
/// PNG tagged with that resolution.
pub fn write(picture: &Stack, w_mm: f64, h_mm: f64, dpi: f64) -> Result<Vec<u8>, PngError> {
    write_as(picture, w_mm, h_mm, dpi, PngColor::Rgba)
}

/// Draws a face's trees onto `pixmap` with `ts`, bottom first.
fn render(picture: &Stack, ts: Transform, pixmap: &mut Pixmap) {
    for tree in picture.trees() {
        resvg::render(tree, ts, &mut pixmap.as_mut());
    }
}

/// Like [`write`], storing colour as `color` says.
pub fn write_as(
    picture: &Stack,
    w_mm: f64,
    h_mm: f64,
    dpi: f64,
    color: PngColor,
) -> Result<Vec<u8>, PngError> {
    let w = mm_to_px(w_mm, dpi).round().max(1.0) as u32;
    let h = mm_to_px(h_mm, dpi).round().max(1.0) as u32;
    let mut pixmap = pixmap(w, h)?;
    let ts = Transform::from_scale(
        w as f32 / picture.size().width(),
        h as f32 / picture.size().height(),
    );
    render(picture, ts, &mut pixmap);
    encode_as(&pixmap, color, Some(dpi))
}

/// Renders only the trim area of a face (its bleed cropped away) into `w` x `h` px.
pub fn render_trim(
    picture: &Stack,
    full_w_mm: f64,
    full_h_mm: f64,
    bleed_mm: f64,
    w: u32,
    h: u32,
) -> Result<Pixmap, PngError> {
    let mut pixmap = pixmap(w, h)?;
    let (tw, th) = (
        picture.size().width() as f64,
        picture.size().height() as f64,
    );
    let trim_w_px = tw * (full_w_mm - 2.0 * bleed_mm) / full_w_mm;
    let trim_h_px = th * (full_h_mm - 2.0 * bleed_mm) / full_h_mm;
    let sx = w as f64 / trim_w_px;
    let sy = h as f64 / trim_h_px;
    let bx = tw * bleed_mm / full_w_mm;
    let by = th * bleed_mm / full_h_mm;
    let ts = Transform::from_row(
        sx as f32,
        0.0,
        0.0,
        sy as f32,
        (-bx * sx) as f32,
        (-by * sy) as f32,
    );
    render(picture, ts, &mut pixmap);
    Ok(pixmap)
}

/// Encodes a pixmap as RGBA PNG without a resolution.
pub fn encode(pixmap: &Pixmap) -> Result<Vec<u8>, PngError> {
    encode_as(pixmap, PngColor::Rgba, None)
}

/// Encodes a pixmap as PNG: RGBA, or RGB flattened onto white; with `dpi`, a `pHYs`
/// chunk so that image programs and shops read the print resolution (without one,
/// most assume 72 dpi).
pub fn encode_as(pixmap: &Pixmap, color: PngColor, dpi: Option<f64>) -> Result<Vec<u8>, PngError> {
    let demultiplied;
    let (data, png_color): (&[u8], _) = match color {
        // Opaque pixels are the same premultiplied or not: a face printed edge to
        // edge (most are) is encoded from the pixmap as it is, without a copy.
        PngColor::Rgba if cardstock_pixels::opaque(pixmap.data()) => {
            (pixmap.data(), png::ColorType::Rgba)
        }
        PngColor::Rgba => {
            demultiplied = pixmap.clone().take_demultiplied();
            (&demultiplied, png::ColorType::Rgba)
        }
        PngColor::Rgb => {
            demultiplied = cardstock_pixels::on_white(pixmap.data());
            (&demultiplied, png::ColorType::Rgb)
        }
    };
    let dpi = dpi.filter(|d| d.is_finite() && *d > 0.0);
    encode_png(data, pixmap.width(), pixmap.height(), png_color, dpi)
}

/// Pixels as PNG, tagged with `dpi` if any (in the crate that keeps the encoder
/// optimised in the tests' build too: `crates/pixels`).
fn encode_png(
    data: &[u8],
    width: u32,
    height: u32,
    color: png::ColorType,
    dpi: Option<f64>,
) -> Result<Vec<u8>, PngError> {
    let per_metre = dpi.map(|dpi| (dpi / crate::units::MM_PER_IN * 1000.0).round() as u32);
    cardstock_pixels::encode(data, width, height, color, per_metre)
        .map_err(|e| PngError::Encode(e.to_string()))
}

/// A face's soft proof: drawn on white paper at `dpi` and every pixel taken
/// through `press` (to the shop's CMYK and back to the screen), as RGB PNG.
pub fn write_proof(
    picture: &Stack,
    w_mm: f64,
    h_mm: f64,
    dpi: f64,
    press: &crate::color::Press,
) -> Result<Vec<u8>, PngError> {
    let w = mm_to_px(w_mm, dpi).round().max(1.0) as u32;
    let h = mm_to_px(h_mm, dpi).round().max(1.0) as u32;
    let mut pixmap = pixmap(w, h)?;
    let ts = Transform::from_scale(
        w as f32 / picture.size().width(),
        h as f32 / picture.size().height(),
    );
    render(picture, ts, &mut pixmap);
    let proof = press.soft_proof(&cardstock_pixels::on_white(pixmap.data()));
    encode_png(&proof, w, h, png::ColorType::Rgb, Some(dpi))
}

/// A token image: the trim area only at `dpi`, transparent outside the part's cut
/// shape (anti-aliased along it) and in a `border` of transparent pixels around it
/// (Tabletop Simulator cuts tokens from the image's transparency, and cuts them
/// cleanly only when the shape does not touch the image's edge).
pub fn write_cut(
    picture: &Stack,
    full_w_mm: f64,
    full_h_mm: f64,
    bleed_mm: f64,
    shape: crate::model::Shape,
    dpi: f64,
    border: u32,
) -> Result<Vec<u8>, PngError> {
    let (trim_w, trim_h) = (full_w_mm - 2.0 * bleed_mm, full_h_mm - 2.0 * bleed_mm);
    let w = mm_to_px(trim_w, dpi).round().max(1.0) as u32;
    let h = mm_to_px(trim_h, dpi).round().max(1.0) as u32;
    let face = render_trim(picture, full_w_mm, full_h_mm, bleed_mm, w, h)?;
    let mut out = pixmap(w + 2 * border, h + 2 * border)?;
    let mut mask = tiny_skia::Mask::new(out.width(), out.height()).ok_or(PngError::Alloc {
        width: out.width(),
        height: out.height(),
    })?;
    let trim = crate::geom::Rect {
        x: 0.0,
        y: 0.0,
        w: trim_w,
        h: trim_h,
    };
    let outline = crate::layout::marks::outline(shape, &trim);
    if let Some(p) = path(&outline, w as f64 / trim_w) {
        let at = Transform::from_translate(border as f32, border as f32);
        mask.fill_path(&p, tiny_skia::FillRule::Winding, true, at);
    }
    out.draw_pixmap(
        border as i32,
        border as i32,
        face.as_ref(),
        &PixmapPaint::default(),
        Transform::identity(),
        Some(&mask),
    );
    encode_as(&out, PngColor::Rgba, Some(dpi))
}

/// A tiny-skia path from segments in millimetres, at `scale` px per mm.
fn path(segments: &[Segment], scale: f64) -> Option<tiny_skia::Path> {
    let s = |v: f64| (v * scale) as f32;
    let mut pb = tiny_skia::PathBuilder::new();
    for seg in segments {
        match *seg {
            Segment::Move(x, y) => pb.move_to(s(x), s(y)),
            Segment::Line(x, y) => pb.line_to(s(x), s(y)),
            Segment::Cubic(a, b, c, d, e, f) => pb.cubic_to(s(a), s(b), s(c), s(d), s(e), s(f)),
            Segment::Close => pb.close(),
        }
    }
    pb.finish()
}

/// A whole sheet at `dpi`: white paper, every placed face (clipped as printed) and
/// the marks on top. `faces(i)` is the picture of face `i`.
pub fn sheet(sheet: &Sheet, faces: &super::Faces, dpi: f64) -> Result<Pixmap, PngError> {
    let scale = mm_to_px(1.0, dpi);
    let px = |mm: f64| (mm * scale).round().max(1.0) as u32;
    let mut page = pixmap(px(sheet.width), px(sheet.height))?;
    page.fill(tiny_skia::Color::WHITE);
    for pl in &sheet.placements {
        let picture = faces(pl.face).ok_or(PngError::MissingFace(pl.face))?;
        // The face is drawn into a pixmap the size of its clip: that is the clip.
        let (cx, cy) = ((pl.clip.x * scale).round(), (pl.clip.y * scale).round());
        let mut part = pixmap(px(pl.clip.w), px(pl.clip.h))?;
        let (sx, sy) = (
            pl.w * scale / picture.size().width() as f64,
            pl.h * scale / picture.size().height() as f64,
        );
        let ts = if pl.rotate180 {
            Transform::from_row(
                -sx as f32,
                0.0,
                0.0,
                -sy as f32,
                ((pl.x + pl.w) * scale - cx) as f32,
                ((pl.y + pl.h) * scale - cy) as f32,
            )
        } else {
            Transform::from_row(
                sx as f32,
                0.0,
                0.0,
                sy as f32,
                (pl.x * scale - cx) as f32,
                (pl.y * scale - cy) as f32,
            )
        };
        render(&picture, ts, &mut part);
        page.draw_pixmap(
            cx as i32,
            cy as i32,
            part.as_ref(),
            &PixmapPaint::default(),
            Transform::identity(),
            None,
        );
    }
    draw_marks(&mut page, &sheet.marks, scale);
    Ok(page)
}

/// A sheet's marks alone at `dpi`, on a transparent page the size of the sheet
/// (the live preview lays them over the faces it already has).
pub fn marks(sheet: &Sheet, dpi: f64) -> Result<Vec<u8>, PngError> {
    let scale = mm_to_px(1.0, dpi);
    let px = |mm: f64| (mm * scale).round().max(1.0) as u32;
    let mut page = pixmap(px(sheet.width), px(sheet.height))?;
    draw_marks(&mut page, &sheet.marks, scale);
    encode(&page)
}

/// Draws marks (lines at least one pixel wide, cut lines over their white halos,
/// labels as glyph outlines).
fn draw_marks(page: &mut Pixmap, marks: &[Mark], scale: f64) {
    for m in marks {
        let (Some(width), Some(p)) = (m.stroke().halo(), path(&m.segments(), scale)) else {
            continue;
        };
        let mut paint = tiny_skia::Paint::default();
        paint.set_color_rgba8(0xff, 0xff, 0xff, 255);
        paint.anti_alias = true;
        let stroke = tiny_skia::Stroke {
            width: ((width * scale) as f32).max(2.0),
            ..tiny_skia::Stroke::default()
        };
        page.stroke_path(&p, &paint, &stroke, Transform::identity(), None);
    }
    for m in marks {
        if let Mark::Label {
            at,
            size,
            anchor,
            upwards,
            text,
        } = m
        {
            let font = crate::layout::marks::label_font();
            let book = crate::fonts::FontBook::builtin();
            let dx = anchor.start(text.width(*size).unwrap_or(0.0));
            let Ok(segs) =
                crate::text::outline(text.as_str(), *size, &font, &book, at.0 + dx, at.1)
            else {
                continue;
            };
            let Some(p) = path(&segs, scale) else {
                continue;
            };
            let ts = if *upwards {
                Transform::from_rotate_at(-90.0, (at.0 * scale) as f32, (at.1 * scale) as f32)
            } else {
                Transform::identity()
            };
            let [r, g, b] = crate::layout::marks::LABEL_RGB;
            let mut paint = tiny_skia::Paint::default();
            paint.set_color_rgba8(r, g, b, 255);
            paint.anti_alias = true;
            page.fill_path(&p, &paint, tiny_skia::FillRule::Winding, ts, None);
            continue;
        }
        let Some(p) = path(&m.segments(), scale) else {
            continue;
        };
        let stroke_kind = m.stroke();
        let [r, g, b] = stroke_kind.rgb();
        let mut paint = tiny_skia::Paint::default();
        paint.set_color_rgba8(r, g, b, 255);
        paint.anti_alias = true;
        let stroke = tiny_skia::Stroke {
            width: ((MARK_WIDTH * scale) as f32).max(1.0),
            dash: stroke_kind.dash().and_then(|[on, off]| {
                tiny_skia::StrokeDash::new(vec![(on * scale) as f32, (off * scale) as f32], 0.0)
            }),
            ..tiny_skia::Stroke::default()
        };
        page.stroke_path(&p, &paint, &stroke, Transform::identity(), None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pixels, colour type and pixels per metre of a PNG, read back.
    fn decoded(bytes: &[u8]) -> (Vec<u8>, png::ColorType, Option<u32>) {
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        pixels.truncate(info.buffer_size());
        let per_metre = reader.info().pixel_dims.map(|d| d.xppu);
        (pixels, info.color_type, per_metre)
    }

    /// Opaque red beside red at half alpha (premultiplied, as tiny-skia holds it).
    fn half_transparent() -> Pixmap {
        let mut p = pixmap(2, 1).unwrap();
        p.data_mut()
            .copy_from_slice(&[255, 0, 0, 255, 64, 0, 0, 128]);
        p
    }

    #[test]
    fn rgba_is_stored_demultiplied_and_rgb_on_white_with_the_dpi() {
        let p = half_transparent();
        let (rgba, color, per_metre) = decoded(&encode_as(&p, PngColor::Rgba, None).unwrap());
        assert_eq!(color, png::ColorType::Rgba);
        assert_eq!(rgba, [255, 0, 0, 255, 128, 0, 0, 128], "demultiplied");
        assert_eq!(per_metre, None);
        let (rgb, color, per_metre) = decoded(&encode_as(&p, PngColor::Rgb, Some(300.0)).unwrap());
        assert_eq!(color, png::ColorType::Rgb);
        assert_eq!(rgb, [255, 0, 0, 191, 127, 127], "on white paper");
        assert_eq!(per_metre, Some(11811), "300 dpi");
        // An opaque picture is stored as it is.
        let mut opaque = p.clone();
        opaque.data_mut()[7] = 255;
        let (rgba, _, _) = decoded(&encode(&opaque).unwrap());
        assert_eq!(rgba, opaque.data());
    }
}
