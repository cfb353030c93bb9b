//! The only code that uses the vendored usvg patch's API (vendor/README.md): glyph
//! outlines shared between faces, and shaping faces parsed once per process. With
//! the `usvg-patch` feature off, cardstock builds against the published usvg and
//! every output stays the same, only slower.

use std::sync::{Arc, OnceLock};

use crate::{fonts, text};

/// Hands usvg the process-long glyph outline store and shaping faces.
pub(crate) fn speed_up(options: &mut usvg::Options) {
    static OUTLINES: OnceLock<Arc<usvg::GlyphOutlines>> = OnceLock::new();
    static SHAPING: OnceLock<usvg::ShapingFaceFn> = OnceLock::new();
    options.glyph_outlines = Some(
        OUTLINES
            .get_or_init(|| Arc::new(usvg::GlyphOutlines::new(fonts::database())))
            .clone(),
    );
    options.shaping_face = Some(
        SHAPING
            .get_or_init(|| {
                usvg::ShapingFaceFn(Arc::new(|data: &[u8], index: u32| {
                    let key = (data.as_ptr() as usize, index);
                    text::shaping_faces()
                        .iter()
                        .find(|(_, k, _)| *k == key)
                        .map(|(_, _, f)| f)
                }))
            })
            .clone(),
    );
}
