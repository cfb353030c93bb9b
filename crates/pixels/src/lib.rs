//! The pixel loops and the PNG encoder of cardstock's images: a crate of its own so
//! that they are compiled optimised in the tests' build too.
//!
//! The tests' build (`cargo test`, the dev profile) compiles cardstock itself without
//! optimisation and its heavy dependencies with it (Cargo.toml, `[profile.dev.package]`).
//! png's encoder and fdeflate's compressor are generic over the writer they write to,
//! so their code is compiled in the crate that names the writer: in cardstock, it
//! ran unoptimised, with the standard library's debug checks in every call, and was
//! about a quarter of a Tabletop Simulator build in the tests; a loop over the
//! pixels written in cardstock was another tenth (docs/performance.md, "Compiling and
//! testing"). Here, with this crate's own opt-level, the code runs optimised in
//! every build and writes the same bytes.

/// Whether every pixel of premultiplied RGBA `rgba` is opaque.
pub fn opaque(rgba: &[u8]) -> bool {
    rgba.chunks_exact(4).all(|p| p[3] == 255)
}

/// Premultiplied RGBA `rgba` as RGB, composited onto white paper (each colour plus
/// the white that shows through).
pub fn on_white(rgba: &[u8]) -> Vec<u8> {
    let mut rgb = Vec::with_capacity(rgba.len() / 4 * 3);
    for p in rgba.chunks_exact(4) {
        let white = 255 - p[3];
        rgb.extend_from_slice(&[p[0] + white, p[1] + white, p[2] + white]);
    }
    rgb
}

/// `data` (rows of `width` x `height` 8-bit pixels of `color`) as PNG, deflated by
/// fdeflate (several times faster than zlib's levels on flat-coloured card art, for
/// files a few percent larger; deterministic), with a `pHYs` chunk of `per_metre`
/// pixels per metre when given (without one, most programs assume 72 dpi).
pub fn encode(
    data: &[u8],
    width: u32,
    height: u32,
    color: png::ColorType,
    per_metre: Option<u32>,
) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(color);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    if let Some(per_metre) = per_metre {
        encoder.set_pixel_dims(Some(png::PixelDimensions {
            xppu: per_metre,
            yppu: per_metre,
            unit: png::Unit::Meter,
        }));
    }
    encoder.write_header()?.write_image_data(data)?;
    Ok(out)
}
