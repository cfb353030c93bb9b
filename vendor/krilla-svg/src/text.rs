use std::collections::hash_map::Entry;
use std::collections::HashMap;

use fontdb::Database;
use krilla::color::rgb;
use krilla::geom::Point;
use krilla::num::NormalizedF32;
use krilla::paint::{Fill, Stroke};
use krilla::surface::Surface;
use krilla::text::{Font, GlyphId, KrillaGlyph};
use skrifa::{FontRef, MetadataProvider};
use smallvec::SmallVec;
use usvg::tiny_skia_path::Transform;
use usvg::{FontOpticalSizing, FontVariation, PaintOrder};

use crate::util::{convert_fill, convert_stroke, UsvgTransformExt};
use crate::Painted;
use crate::{path, ProcessContext};

/// Render a text into a surface.
///
/// cardstock patch: consecutive glyphs of one span that share a font and a baseline
/// are drawn as one run (one `BT ... TJ ... ET`), not one text object per glyph. The
/// glyphs land where they did before; the content streams get 5-10x shorter.
pub(crate) fn render(
    text: &usvg::Text,
    surface: &mut Surface,
    process_context: &mut ProcessContext,
) {
    for span in text.layouted() {
        if !span.visible {
            continue;
        }

        if let Some(overline) = &span.overline {
            path::render(overline, surface, process_context);
        }

        if let Some(underline) = &span.underline {
            path::render(underline, surface, process_context);
        }

        let mut run = Run::default();
        // cardstock patch: a span's glyphs mostly share one font, and the font
        // depends only on the span and the font's id: the last one is kept, not
        // looked up again (with its variations) for every glyph.
        let mut last: Option<(fontdb::ID, Option<Font>)> = None;
        for glyph in &span.positioned_glyphs {
            let font = match &last {
                Some((id, font)) if *id == glyph.font => font.clone(),
                _ => {
                    let font = process_context.fonts.retrieve(span, glyph.font);
                    last = Some((glyph.font, font.clone()));
                    font
                }
            };
            // Ignore glyph if font can't be fetched.
            let Some(font) = font else {
                continue;
            };

            let upem = font.units_per_em();

            // The text transform contains the scale transform `font_size / upem`, we need to invert that
            // so we only get the raw transform to account for the glyph position, and the font size
            // is being taken care of by krilla.
            let transform = glyph.transform().pre_concat(Transform::from_scale(
                upem / span.font_size.get(),
                upem / span.font_size.get(),
            ));

            if transform.invert().is_none() {
                continue;
            }

            if !run.extend(glyph, &font, transform, span.font_size.get()) {
                run.draw(span, surface, process_context);
                run = Run::start(glyph, font, transform);
            }
        }
        run.draw(span, surface, process_context);

        if let Some(line_through) = &span.line_through {
            path::render(line_through, surface, process_context);
        }
    }
}

/// Glyphs of one span drawn together: same font, same transform up to a move along
/// the baseline.
#[derive(Default)]
struct Run {
    font: Option<Font>,
    /// The first glyph's transform; the others are placed relative to it.
    transform: Transform,
    /// Each glyph's offset along the baseline from the first one, in user units.
    xs: Vec<f32>,
    glyphs: Vec<KrillaGlyph>,
    text: String,
    /// The font database's id of the glyphs' font.
    id: Option<fontdb::ID>,
}

impl Run {
    fn start(glyph: &usvg::layout::PositionedGlyph, font: Font, transform: Transform) -> Self {
        let mut run = Run {
            font: Some(font),
            transform,
            id: Some(glyph.font),
            ..Run::default()
        };
        run.push(glyph, 0.0);
        run
    }

    fn push(&mut self, glyph: &usvg::layout::PositionedGlyph, x: f32) {
        let start = self.text.len();
        self.text.push_str(&glyph.text);
        self.xs.push(x);
        self.glyphs.push(KrillaGlyph::new(
            GlyphId::new(glyph.id.0 as u32),
            0.0,
            0.0,
            0.0,
            0.0,
            start..self.text.len(),
            None,
        ));
    }

    /// Adds `glyph` if it continues this run; `false` if it starts a new one.
    fn extend(
        &mut self,
        glyph: &usvg::layout::PositionedGlyph,
        font: &Font,
        transform: Transform,
        font_size: f32,
    ) -> bool {
        if self.font.as_ref() != Some(font) {
            return false;
        }
        let Some(inverse) = self.transform.invert() else {
            return false;
        };
        // Where this glyph sits in the first glyph's space: a pure move along x.
        let rel = inverse.pre_concat(transform);
        const EPS: f32 = 1e-4;
        let same_shape = (rel.sx - 1.0).abs() < EPS
            && (rel.sy - 1.0).abs() < EPS
            && rel.kx.abs() < EPS
            && rel.ky.abs() < EPS
            && rel.ty.abs() < EPS;
        if !same_shape {
            return false;
        }
        if let (Some(last), Some(&last_x)) = (self.glyphs.last_mut(), self.xs.last()) {
            // Advances are in ems of the font size.
            last.x_advance = (rel.tx - last_x) / font_size;
        }
        self.push(glyph, rel.tx);
        true
    }

    fn draw(
        &mut self,
        span: &usvg::layout::Span,
        surface: &mut Surface,
        process_context: &mut ProcessContext,
    ) {
        let Some(font) = self.font.clone() else {
            return;
        };
        // The last glyph's own advance (the others' are the distances between
        // them): krilla measures a run by its pen positions, so with none a form's
        // BBox (which clips it) ended at the last glyph's origin and cut it off.
        if let (Some(last), Some(id)) = (self.glyphs.last_mut(), self.id) {
            last.x_advance = process_context.fonts.advance(id, last.glyph_id);
        }
        let Some(inverted) = self.transform.invert() else {
            return;
        };

        // We need to apply the inverse transform to fill/stroke because we don't
        // want the paint to be affected by the transform applied to the glyph. See docs
        // of `convert_paint`.
        let fill = span
            .fill
            .as_ref()
            .map(|f| {
                let sb = surface.stream_builder();
                convert_fill(f, sb, process_context, inverted, Painted::Text)
            });

        let stroke = span
            .stroke
            .as_ref()
            .map(|s| {
                let sb = surface.stream_builder();
                convert_stroke(s, sb, process_context, inverted, Painted::Text)
            });

        let draw_op = |s: &mut Surface,
                       fill: Option<Fill>,
                       stroke: Option<Stroke>,
                       font: Font,
                       embed_text: bool| {
            s.set_fill(fill);
            s.set_stroke(stroke);

            s.draw_glyphs(
                Point::from_xy(0.0, 0.0),
                &self.glyphs,
                font,
                &self.text,
                span.font_size.get(),
                !embed_text,
            );
        };

        surface.push_transform(&self.transform.to_krilla());

        if fill.is_none() && stroke.is_none() && process_context.colors.is_some() {
            // cardstock patch: invisible text is left out where colours are the
            // application's (it would be transparent RGB).
        } else if fill.is_none() && stroke.is_none() {
            // Emulate invisible glyph by drawing it with an opacity of zero.
            draw_op(
                surface,
                Some(Fill {
                    paint: rgb::Color::new(0, 0, 0).into(),
                    opacity: NormalizedF32::ZERO,
                    rule: Default::default(),
                }),
                None,
                font,
                process_context.svg_settings.embed_text,
            )
        } else if matches!(span.paint_order, PaintOrder::FillAndStroke)
            || fill.is_none()
            || stroke.is_none()
        {
            draw_op(
                surface,
                fill,
                stroke,
                font,
                process_context.svg_settings.embed_text,
            );
        } else {
            // Paint order stroke and fill, and we have BOTH, a fill and
            // stroke.

            // We always draw the text outlined in this case, so that
            // text won't be embedded twice.
            draw_op(surface, None, stroke, font.clone(), false);

            draw_op(
                surface,
                fill,
                None,
                font,
                process_context.svg_settings.embed_text,
            );
        }

        surface.pop();
    }
}

/// Manages the krilla fonts used by an SVG.
pub(crate) struct Fonts<'a> {
    db: &'a mut Database,
    /// cardstock patch: glyph advances in ems, by font and glyph ([`Fonts::advance`]).
    advances: HashMap<(fontdb::ID, u32), f32>,
    fonts: HashMap<FontInstance, Option<Font>>,
    supported_axes: HashMap<fontdb::ID, SmallVec<[[u8; 4]; 2]>>,
}

/// Identifies a font at specific variation coordinates.
type FontInstance = (fontdb::ID, FontVariations);
type FontVariations = SmallVec<[FontVariation; 2]>;

impl<'a> Fonts<'a> {
    /// cardstock patch: glyph `glyph`'s advance in font `id`, in ems (0 if the
    /// font cannot be read), kept per font and glyph.
    fn advance(&mut self, id: fontdb::ID, glyph: GlyphId) -> f32 {
        let db = &*self.db;
        *self.advances.entry((id, glyph.to_u32())).or_insert_with(|| {
            db.with_face_data(id, |data, index| {
                use skrifa::instance::{LocationRef, Size};
                let font = FontRef::from_index(data, index).ok()?;
                let upem = font.metrics(Size::unscaled(), LocationRef::default()).units_per_em;
                let metrics = font.glyph_metrics(Size::unscaled(), LocationRef::default());
                let advance = metrics.advance_width(skrifa::GlyphId::new(glyph.to_u32()))?;
                Some(advance / f32::from(upem))
            })
            .flatten()
            .unwrap_or(0.0)
        })
    }

    pub(crate) fn new(db: &'a mut Database) -> Self {
        Self {
            advances: HashMap::new(),
            db,
            fonts: HashMap::new(),
            supported_axes: HashMap::new(),
        }
    }

    /// Retrieves the font identified by `id` from the cache or loads it.
    fn retrieve(&mut self, span: &usvg::layout::Span, id: fontdb::ID) -> Option<Font> {
        let variations = self.resolve_variations(span, id);
        match self.fonts.entry((id, variations)) {
            Entry::Occupied(entry) => entry.get().clone(),
            Entry::Vacant(entry) => {
                let font = if let Some((font_data, index)) =
                    unsafe { self.db.make_shared_face_data(id) }
                {
                    let variations = &entry.key().1;
                    let coords: SmallVec<[_; 2]> = variations
                        .iter()
                        .map(|var| (krilla::text::Tag::new(&var.tag), var.value))
                        .collect();
                    Font::new_variable(font_data.into(), index, &coords)
                } else {
                    None
                };

                entry.insert(font.clone());
                font
            }
        }
    }

    /// Resolves which variations are applicable for the given font (filtering out undefined axis
    /// values and taking into account optical sizing).
    fn resolve_variations(&mut self, span: &usvg::layout::Span, id: fontdb::ID) -> FontVariations {
        let supported_axes = self.supported_axes.entry(id).or_insert_with(|| {
            self.db
                .with_face_data(id, |data, index| {
                    FontRef::from_index(data, index)
                        .into_iter()
                        .flat_map(|font| font.axes().iter())
                        .map(|axis| axis.tag().to_be_bytes())
                        .collect()
                })
                .unwrap_or_default()
        });
        let is_supported = |tag| supported_axes.contains(tag);

        let mut variations: FontVariations = span
            .variations
            .iter()
            .filter(|var| is_supported(&var.tag))
            .copied()
            .collect();

        // Set the font size for optical sizing if desired, supported, and not manually set.
        const OPSZ: &[u8; 4] = b"opsz";
        if span.font_optical_sizing == FontOpticalSizing::Auto
            && is_supported(OPSZ)
            && !variations.iter().any(|v| v.tag == *OPSZ)
        {
            variations.push(FontVariation {
                tag: *OPSZ,
                value: span.font_size.get(),
            });
        }

        variations
    }
}
