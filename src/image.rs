//! Raster images (PNG, JPEG, GIF, WebP) checked before any use: the size their
//! header declares must be within [`MAX_IMAGE_PIXELS`], and the image must decode
//! with the decoders resvg draws it with (a truncated or malformed file is an error
//! here, where resvg and the PDF writer would silently drop it or fail late).

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use usvg::ImageKind;

use crate::project::Project;

/// Most pixels one image may declare (width x height): decoded as RGBA it takes
/// 4 bytes a pixel, so 50 million pixels are 200 MB (a 24 x 16 in board at 300
/// dpi is 35 million).
pub const MAX_IMAGE_PIXELS: u64 = 50_000_000;

/// The raster formats cardstock draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Png,
    Jpeg,
    Gif,
    Webp,
}

impl Format {
    /// The format the file's first bytes announce, if it is one cardstock draws.
    pub fn sniff(data: &[u8]) -> Option<Format> {
        if data.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(Format::Png)
        } else if data.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(Format::Jpeg)
        } else if data.starts_with(b"GIF87a") || data.starts_with(b"GIF89a") {
            Some(Format::Gif)
        } else if data.len() >= 12 && data.starts_with(b"RIFF") && &data[8..12] == b"WEBP" {
            Some(Format::Webp)
        } else {
            None
        }
    }

    /// The format's name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::Png => "PNG",
            Format::Jpeg => "JPEG",
            Format::Gif => "GIF",
            Format::Webp => "WebP",
        }
    }

    /// The MIME type of a `data:` URL.
    pub fn mime(self) -> &'static str {
        match self {
            Format::Png => "image/png",
            Format::Jpeg => "image/jpeg",
            Format::Gif => "image/gif",
            Format::Webp => "image/webp",
        }
    }

    fn kind(self, data: Arc<Vec<u8>>) -> ImageKind {
        match self {
            Format::Png => ImageKind::PNG(data),
            Format::Jpeg => ImageKind::JPEG(data),
            Format::Gif => ImageKind::GIF(data),
            Format::Webp => ImageKind::WEBP(data),
        }
    }
}

/// Why an image cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageProblem {
    /// Not a PNG, JPEG, GIF or WebP file.
    NotImage,
    /// The header does not give a size (a truncated or damaged file).
    NoSize(Format),
    /// A width or height of 0.
    Empty(Format),
    /// More pixels than [`MAX_IMAGE_PIXELS`].
    TooLarge {
        format: Format,
        width: u64,
        height: u64,
    },
    /// The decoder failed: the file is truncated or damaged.
    Damaged { format: Format, why: String },
}

impl std::fmt::Display for ImageProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImageProblem::NotImage => write!(f, "is not a PNG, JPEG, GIF or WebP file"),
            ImageProblem::NoSize(format) => write!(
                f,
                "is a damaged {} file: its header gives no size",
                format.name()
            ),
            ImageProblem::Empty(format) => write!(f, "is a {} image of 0 pixels", format.name()),
            ImageProblem::TooLarge {
                format,
                width,
                height,
            } => write!(
                f,
                "is a {} image of {width} x {height} pixels ({} million), over the limit of {} million pixels",
                format.name(),
                width * height / 1_000_000,
                MAX_IMAGE_PIXELS / 1_000_000
            ),
            ImageProblem::Damaged { format, why } => write!(
                f,
                "is a truncated or damaged {} file ({why})",
                format.name()
            ),
        }
    }
}

impl ImageProblem {
    /// How to fix it.
    pub fn hint(&self) -> &'static str {
        match self {
            ImageProblem::NotImage => "save the image as PNG or JPEG",
            ImageProblem::TooLarge { .. } => {
                "scale the image down: 300 dpi at its printed size is all a printer uses (docs/reference.md lists the limits)"
            }
            _ => "export the image again from the program that made it",
        }
    }
}

fn checked_size(format: Format, width: u64, height: u64) -> Result<(), ImageProblem> {
    if width == 0 || height == 0 {
        return Err(ImageProblem::Empty(format));
    }
    if width.saturating_mul(height) > MAX_IMAGE_PIXELS {
        return Err(ImageProblem::TooLarge {
            format,
            width,
            height,
        });
    }
    Ok(())
}

/// One decode at a time: a check decodes a whole image (up to
/// [`MAX_IMAGE_PIXELS`] x 4 bytes), and many threads doing so at once could run
/// out of memory.
static DECODING: Mutex<()> = Mutex::new(());

/// Checks an image's declared size and decodes it once with the decoder resvg
/// uses, keeping nothing; gives the image for usvg.
pub fn check(data: Arc<Vec<u8>>) -> Result<ImageKind, ImageProblem> {
    let format = Format::sniff(&data).ok_or(ImageProblem::NotImage)?;
    let size = imagesize::blob_size(&data).map_err(|_| ImageProblem::NoSize(format))?;
    checked_size(format, size.width as u64, size.height as u64)?;
    let _one = DECODING.lock().unwrap_or_else(|e| e.into_inner());
    let damaged = |why: String| ImageProblem::Damaged { format, why };
    match format {
        Format::Png => decode_png(&data, format).map_err(|e| match e {
            ImageError::Problem(p) => p,
            ImageError::Png(e) => damaged(e.to_string()),
        })?,
        Format::Jpeg => decode_jpeg(&data, format)?,
        Format::Gif => decode_gif(&data, format)?,
        Format::Webp => decode_webp(&data, format)?,
    }
    Ok(format.kind(data))
}

/// Every row, one at a time (as tiny-skia reads it: normalised to 8 bits).
fn decode_png(data: &[u8], format: Format) -> Result<(), ImageError> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(data));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info()?;
    let info = reader.info();
    checked_size(format, info.width as u64, info.height as u64)?;
    while reader.next_row()?.is_some() {}
    Ok(())
}

/// Internal: the PNG decoder's error or a size problem found after the header.
enum ImageError {
    Png(png::DecodingError),
    Problem(ImageProblem),
}

impl From<png::DecodingError> for ImageError {
    fn from(e: png::DecodingError) -> Self {
        ImageError::Png(e)
    }
}

impl From<ImageProblem> for ImageError {
    fn from(p: ImageProblem) -> Self {
        ImageError::Problem(p)
    }
}

/// As resvg does: RGBA output, which must be what the decoder gives.
fn decode_jpeg(data: &[u8], format: Format) -> Result<(), ImageProblem> {
    use zune_jpeg::zune_core::colorspace::ColorSpace;
    use zune_jpeg::zune_core::options::DecoderOptions;
    let damaged = |why: String| ImageProblem::Damaged { format, why };
    let options = DecoderOptions::default().jpeg_set_out_colorspace(ColorSpace::RGBA);
    let mut decoder = zune_jpeg::JpegDecoder::new_with_options(std::io::Cursor::new(data), options);
    decoder
        .decode_headers()
        .map_err(|e| damaged(format!("{e:?}")))?;
    let (w, h) = decoder
        .dimensions()
        .ok_or_else(|| damaged("no size".into()))?;
    checked_size(format, w as u64, h as u64)?;
    if decoder.output_colorspace() != Some(ColorSpace::RGBA) {
        return Err(damaged("a colour space cardstock cannot draw".into()));
    }
    decoder.decode().map_err(|e| damaged(format!("{e:?}")))?;
    Ok(())
}

/// The first frame, as resvg draws it.
fn decode_gif(data: &[u8], format: Format) -> Result<(), ImageProblem> {
    let damaged = |why: String| ImageProblem::Damaged { format, why };
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    if let Some(limit) = std::num::NonZeroU64::new(MAX_IMAGE_PIXELS * 4) {
        options.set_memory_limit(gif::MemoryLimit::Bytes(limit));
    }
    let mut decoder = options
        .read_info(data)
        .map_err(|e| damaged(e.to_string()))?;
    let frame = decoder
        .next_frame_info()
        .map_err(|e| damaged(e.to_string()))?
        .ok_or_else(|| damaged("no picture".into()))?;
    checked_size(format, frame.width as u64, frame.height as u64)?;
    let mut buffer = vec![0; decoder.buffer_size()];
    decoder
        .read_into_buffer(&mut buffer)
        .map_err(|e| damaged(e.to_string()))?;
    Ok(())
}

/// The first frame, as resvg draws it.
fn decode_webp(data: &[u8], format: Format) -> Result<(), ImageProblem> {
    let damaged = |why: String| ImageProblem::Damaged { format, why };
    let mut decoder = image_webp::WebPDecoder::new(std::io::Cursor::new(data))
        .map_err(|e| damaged(e.to_string()))?;
    let (w, h) = decoder.dimensions();
    checked_size(format, w as u64, h as u64)?;
    let size = decoder
        .output_buffer_size()
        .ok_or_else(|| damaged("no size".into()))?;
    let mut buffer = vec![0; size];
    decoder
        .read_image(&mut buffer)
        .map_err(|e| damaged(e.to_string()))?;
    Ok(())
}

/// An image's pixels as straight RGBA, 8 bits (a PNG's first frame, a GIF's),
/// decoded with the decoders resvg draws it with; `None` for an SVG image or
/// one that does not decode (the check before use reported it).
pub fn decode_rgba(kind: &ImageKind) -> Option<(u32, u32, Vec<u8>)> {
    let _one = DECODING.lock().unwrap_or_else(|e| e.into_inner());
    match kind {
        ImageKind::PNG(d) => {
            let mut decoder = png::Decoder::new(std::io::Cursor::new(&d[..]));
            decoder.set_transformations(png::Transformations::normalize_to_color8());
            let mut reader = decoder.read_info().ok()?;
            let mut buf = vec![0; reader.output_buffer_size()?];
            let info = reader.next_frame(&mut buf).ok()?;
            let px = &buf[..info.buffer_size()];
            let rgba = match info.color_type {
                png::ColorType::Rgba => px.to_vec(),
                png::ColorType::Rgb => px
                    .chunks_exact(3)
                    .flat_map(|p| [p[0], p[1], p[2], 255])
                    .collect(),
                png::ColorType::GrayscaleAlpha => px
                    .chunks_exact(2)
                    .flat_map(|p| [p[0], p[0], p[0], p[1]])
                    .collect(),
                png::ColorType::Grayscale => px.iter().flat_map(|&g| [g, g, g, 255]).collect(),
                png::ColorType::Indexed => return None,
            };
            Some((info.width, info.height, rgba))
        }
        ImageKind::JPEG(d) => {
            use zune_jpeg::zune_core::colorspace::ColorSpace;
            use zune_jpeg::zune_core::options::DecoderOptions;
            let options = DecoderOptions::default().jpeg_set_out_colorspace(ColorSpace::RGBA);
            let mut decoder =
                zune_jpeg::JpegDecoder::new_with_options(std::io::Cursor::new(&d[..]), options);
            let px = decoder.decode().ok()?;
            let (w, h) = decoder.dimensions()?;
            Some((w as u32, h as u32, px))
        }
        ImageKind::GIF(d) => {
            let mut options = gif::DecodeOptions::new();
            options.set_color_output(gif::ColorOutput::RGBA);
            let mut decoder = options.read_info(&d[..]).ok()?;
            let frame = decoder.read_next_frame().ok()??;
            Some((
                u32::from(frame.width),
                u32::from(frame.height),
                frame.buffer.to_vec(),
            ))
        }
        ImageKind::WEBP(d) => {
            let mut decoder = image_webp::WebPDecoder::new(std::io::Cursor::new(&d[..])).ok()?;
            let (w, h) = decoder.dimensions();
            let mut buf = vec![0; decoder.output_buffer_size()?];
            decoder.read_image(&mut buf).ok()?;
            let rgba = if decoder.has_alpha() {
                buf
            } else {
                buf.chunks_exact(3)
                    .flat_map(|p| [p[0], p[1], p[2], 255])
                    .collect()
            };
            Some((w, h, rgba))
        }
        ImageKind::SVG(_) => None,
    }
}

/// The contents of the image files faces link to (`<image href="art/x.png">`),
/// read through the project and hashed once per build: a face's picture changes
/// when they do although its SVG text does not (the live preview's picture hashes,
/// the print records' face hashes).
pub struct Linked<'a> {
    project: &'a Project,
    dir: std::path::PathBuf,
    seen: HashMap<String, String>,
}

impl<'a> Linked<'a> {
    pub fn new(project: &'a Project, game: &str) -> Self {
        Linked {
            project,
            dir: Path::new("templates").join(game),
            seen: HashMap::new(),
        }
    }

    /// The hrefs of `svg` with the hash of each one's file, in order.
    pub fn of(&mut self, svg: &str) -> String {
        let mut out = String::new();
        for href in hrefs(svg) {
            let version = self
                .seen
                .entry(href.clone())
                .or_insert_with(|| {
                    use sha2::Digest;
                    let rel = Path::new(&href);
                    if crate::source::check_relative(rel).is_err() {
                        return "-".into();
                    }
                    match self
                        .project
                        .read(&self.dir.join(rel), crate::project::MAX_IMAGE_BYTES)
                    {
                        Ok(bytes) => crate::hex::encode(&sha2::Sha256::digest(&bytes)[..16]),
                        Err(_) => "-".into(),
                    }
                })
                .clone();
            out.push_str(&format!("{href}={version};"));
        }
        out
    }
}

/// The files an SVG text links to: every `href` (or `xlink:href`) attribute but
/// those naming a fragment (`#id`) or holding the data (`data:`), unescaped.
pub fn hrefs(svg: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(at) = rest.find("href") {
        rest = &rest[at + 4..];
        let after = rest.trim_start();
        let Some(after) = after.strip_prefix('=') else {
            continue;
        };
        let after = after.trim_start();
        let Some(quote) = after.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            continue;
        };
        let Some(end) = after[1..].find(quote) else {
            break;
        };
        let value = after[1..1 + end]
            .replace("&quot;", "\"")
            .replace("&apos;", "'")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&");
        let value = value.trim();
        if !value.is_empty()
            && !value.starts_with('#')
            && !value
                .get(..5)
                .is_some_and(|p| p.eq_ignore_ascii_case("data:"))
            && !out.iter().any(|v| v == value)
        {
            out.push(value.to_string());
        }
        rest = &after[1 + end..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hrefs_are_the_files_a_face_links_to() {
        let svg = r##"<svg><use href="#a"/><image xlink:href = 'art/a&amp;b.png'/>
            <image href="data:image/png;base64,AAAA"/><image href="art/c.jpg"/>
            <image href="art/c.jpg"/><a href=""/></svg>"##;
        assert_eq!(hrefs(svg), ["art/a&b.png", "art/c.jpg"]);
        assert!(hrefs("<svg><text>href</text></svg>").is_empty());
    }

    #[test]
    fn a_face_hash_follows_the_images_it_links_to() {
        let mut files = crate::source::MemoryFiles::new();
        files.insert("templates/g/a.png", b"one".to_vec());
        files.insert("templates/g/b.png", b"two".to_vec());
        let project = Project::new(files.clone());
        let mut v = Linked::new(&project, "g");
        let (a, b) = (
            v.of(r#"<image href="a.png"/>"#),
            v.of(r#"<image href="b.png"/>"#),
        );
        files.insert("templates/g/a.png", b"three".to_vec());
        let edited = Project::new(files);
        let mut w = Linked::new(&edited, "g");
        assert_ne!(w.of(r#"<image href="a.png"/>"#), a);
        assert_eq!(w.of(r#"<image href="b.png"/>"#), b);
        assert_eq!(w.of(r#"<image href="../x.png"/>"#), "../x.png=-;");
    }

    /// A PNG of `w` x `h` grey pixels.
    fn png(w: u32, h: u32) -> Vec<u8> {
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Grayscale);
        let mut writer = enc.write_header().unwrap();
        writer
            .write_image_data(&vec![128u8; (w * h) as usize])
            .unwrap();
        writer.finish().unwrap();
        out
    }

    #[test]
    fn a_whole_png_passes_and_a_cut_one_does_not() {
        let good = png(40, 30);
        assert!(check(Arc::new(good.clone())).is_ok());
        let cut = good[..good.len() - 30].to_vec();
        assert!(
            matches!(check(Arc::new(cut)), Err(ImageProblem::Damaged { .. })),
            "truncated"
        );
    }

    #[test]
    fn declared_size_is_checked_before_decoding() {
        let mut header = png(1, 1);
        // IHDR width and height: 100000 x 100000.
        header[16..20].copy_from_slice(&100_000u32.to_be_bytes());
        header[20..24].copy_from_slice(&100_000u32.to_be_bytes());
        assert_eq!(
            check(Arc::new(header)).unwrap_err(),
            ImageProblem::TooLarge {
                format: Format::Png,
                width: 100_000,
                height: 100_000
            }
        );
        assert_eq!(
            check(Arc::new(b"GIF89a".to_vec())).unwrap_err(),
            ImageProblem::NoSize(Format::Gif)
        );
        assert_eq!(
            check(Arc::new(b"<svg/>".to_vec())).unwrap_err(),
            ImageProblem::NotImage
        );
    }
}
