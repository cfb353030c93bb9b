//! The only code that uses the vendored usvg patch's API (vendor/README.md): glyph
//! outlines shared between the faces of a build, and shaping faces parsed once per
//! process. With the `usvg-patch` feature off, cardstock builds against the
//! published usvg and every output stays the same, only slower.

use std::sync::Arc;

use usvg::fontdb;

/// What a font book hands usvg: the glyph outline store of its database and its
/// shaping faces (each `(font data address, face index)` with its face).
pub(crate) struct Kept {
    outlines: Arc<usvg::GlyphOutlines>,
    shaping: usvg::ShapingFaceFn,
}

impl Kept {
    /// The caches for `db`, whose faces are `faces`. The faces live for the whole
    /// process (the patch keeps shaping plans per face address).
    pub(crate) fn new(
        db: &Arc<fontdb::Database>,
        faces: Vec<((usize, u32), &'static rustybuzz::Face<'static>)>,
    ) -> Kept {
        Kept {
            outlines: Arc::new(usvg::GlyphOutlines::new(db.clone())),
            shaping: usvg::ShapingFaceFn(Arc::new(move |data: &[u8], index: u32| {
                let key = (data.as_ptr() as usize, index);
                faces.iter().find(|(k, _)| *k == key).map(|(_, f)| *f)
            })),
        }
    }
}

/// Hands usvg the book's glyph outline store and shaping faces.
pub(crate) fn speed_up(options: &mut usvg::Options, kept: &Kept) {
    options.glyph_outlines = Some(kept.outlines.clone());
    options.shaping_face = Some(kept.shaping.clone());
}
