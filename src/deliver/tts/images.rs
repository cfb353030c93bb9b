//! The images of a Tabletop Simulator export: deck sheets, single faces and tokens
//! cut to their shape, rendered on all cores.

use std::collections::BTreeMap;
use std::path::Path;

use rayon::prelude::*;
use resvg::tiny_skia::{Pixmap, PixmapPaint, Transform};

use super::TtsError;
use crate::export::png::{self, PngColor, PngError};
use crate::faces::Rendered;
use crate::model::{Component, Game, Shape};
use crate::options::Options;
use crate::output::{Body, Outputs};
use crate::units::{mm_to_px, MM_PER_IN};

/// Largest image side TTS loads reliably.
pub const MAX_SIDE: u32 = 4096;
/// Deck sheets hold fewer faces rather than show them under this resolution.
pub const MIN_SHEET_DPI: f64 = 150.0;
/// Transparent border around a token image, in mm (TTS cuts a shape that touches
/// the image's edge badly).
const TOKEN_BORDER_MM: f64 = 0.5;

/// An image to render.
pub(super) struct Image {
    /// Path under the profile folder.
    pub path: String,
    pub what: String,
    /// Index of the component the image shows.
    pub comp: usize,
    pub spec: Spec,
}

/// What an image shows.
pub(super) enum Spec {
    /// Faces side by side (`None`: a blank slot), `slot` px each.
    Sheet {
        faces: Vec<Option<usize>>,
        grid: (usize, usize),
        slot: (u32, u32),
    },
    /// One face's trim at `px`, stored as `color`.
    Trim {
        face: usize,
        px: (u32, u32),
        color: PngColor,
    },
    /// One face's trim at the profile's dpi, transparent outside its cut `shape`;
    /// with `border`, in a frame of transparent pixels.
    Cut {
        face: usize,
        shape: Shape,
        border: bool,
    },
}

impl Spec {
    /// The faces the image shows, in order.
    pub fn faces(&self) -> Vec<usize> {
        match self {
            Spec::Sheet { faces, .. } => faces.iter().flatten().copied().collect(),
            Spec::Trim { face, .. } | Spec::Cut { face, .. } => vec![*face],
        }
    }
}

/// Most columns and rows of a deck sheet: at most 10 x 7, and no more than fit in
/// [`MAX_SIDE`] at [`MIN_SHEET_DPI`].
pub(super) fn sheet_grid(comp: &Component) -> (usize, usize) {
    let fit = |mm: f64| (MAX_SIDE as f64 / mm_to_px(mm, MIN_SHEET_DPI)).floor() as usize;
    (
        fit(comp.size.width).clamp(2, 10),
        fit(comp.size.height).clamp(2, 7),
    )
}

/// Slot size (px) of a deck sheet of `cols` x `rows` faces: the part at `dpi`, made
/// smaller where the sheet would be over [`MAX_SIDE`].
pub fn slot_size(comp: &Component, cols: usize, rows: usize, dpi: f64) -> (u32, u32) {
    let (w, h) = (
        mm_to_px(comp.size.width, dpi),
        mm_to_px(comp.size.height, dpi),
    );
    let scale = (1.0f64)
        .min(MAX_SIDE as f64 / (w * cols as f64))
        .min(MAX_SIDE as f64 / (h * rows as f64));
    ((w * scale).floor() as u32, (h * scale).floor() as u32)
}

/// A part's image size (px): at `dpi`, at most [`MAX_SIDE`] a side.
pub(super) fn image_px(comp: &Component, dpi: f64) -> (u32, u32) {
    let (w, h) = (
        mm_to_px(comp.size.width, dpi),
        mm_to_px(comp.size.height, dpi),
    );
    let scale = (1.0f64).min(MAX_SIDE as f64 / w.max(h));
    (
        (w * scale).round().max(1.0) as u32,
        (h * scale).round().max(1.0) as u32,
    )
}

/// Renders every image on all cores, in order.
pub(super) fn render_images(
    game: &Game,
    r: &Rendered,
    opts: &Options,
    images: &[Image],
    outputs: &Outputs,
) -> Result<Vec<Body>, TtsError> {
    images
        .par_iter()
        .map(|image| {
            render(
                &game.components[image.comp],
                r,
                opts.profile.dpi,
                &image.spec,
            )
            .map(|png| {
                let path = format!("{}/{}", opts.folder(), image.path);
                outputs.body(Path::new(&path), png)
            })
            .map_err(|error| TtsError::Image {
                file: image.path.clone(),
                error,
            })
        })
        .collect()
}

/// One image as PNG.
fn render(comp: &Component, r: &Rendered, dpi: f64, spec: &Spec) -> Result<Vec<u8>, PngError> {
    let picture = |i: usize| r.store.picture(i).ok_or(PngError::MissingFace(i));
    let per_inch = |px: u32| px as f64 / (comp.size.width / MM_PER_IN);
    match spec {
        Spec::Sheet { faces, grid, slot } => {
            let sheet = sheet_pixmap(comp, r, faces, *grid, *slot)?;
            png::encode_as(&sheet, PngColor::Rgb, Some(per_inch(slot.0)))
        }
        Spec::Trim { face, px, color } => {
            let (fw, fh) = r.store.sizes[*face];
            let p = png::render_trim(&picture(*face)?, fw, fh, comp.bleed, px.0, px.1)?;
            png::encode_as(&p, *color, Some(per_inch(px.0)))
        }
        Spec::Cut {
            face,
            shape,
            border,
        } => {
            let (fw, fh) = r.store.sizes[*face];
            let border = match border {
                true => mm_to_px(TOKEN_BORDER_MM, dpi).ceil().max(4.0) as u32,
                false => 0,
            };
            png::write_cut(&picture(*face)?, fw, fh, comp.bleed, *shape, dpi, border)
        }
    }
}

/// A deck sheet of `grid` (columns, rows) slots of `slot` px: `faces` in order,
/// blank slots white.
fn sheet_pixmap(
    comp: &Component,
    r: &Rendered,
    faces: &[Option<usize>],
    (cols, rows): (usize, usize),
    slot: (u32, u32),
) -> Result<Pixmap, PngError> {
    let mut sheet = png::pixmap(slot.0 * cols as u32, slot.1 * rows as u32)?;
    sheet.fill(resvg::tiny_skia::Color::WHITE);
    let mut drawn = BTreeMap::new();
    for (k, face) in faces.iter().enumerate() {
        let Some(f) = *face else { continue };
        // A face shown several times on a sheet (unique backs) is rendered once.
        let face = match drawn.entry(f) {
            std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::btree_map::Entry::Vacant(e) => {
                let (fw, fh) = r.store.sizes[f];
                let picture = r.store.picture(f).ok_or(PngError::MissingFace(f))?;
                e.insert(png::render_trim(
                    &picture, fw, fh, comp.bleed, slot.0, slot.1,
                )?)
            }
        };
        let (x, y) = ((k % cols) as u32 * slot.0, (k / cols) as u32 * slot.1);
        sheet.draw_pixmap(
            x as i32,
            y as i32,
            face.as_ref(),
            &PixmapPaint::default(),
            Transform::identity(),
            None,
        );
    }
    Ok(sheet)
}
