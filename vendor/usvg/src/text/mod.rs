// Copyright 2024 the Resvg Authors
// SPDX-License-Identifier: Apache-2.0 OR MIT

use std::sync::Arc;

use fontdb::{Database, ID};
use svgtypes::FontFamily;

use self::layout::DatabaseExt;
use crate::{Cache, Font, FontStretch, FontStyle, Text};

pub(crate) mod flatten;

mod colr;
/// Provides access to the layout of a text node.
pub mod layout;

/// A shorthand for [FontResolver]'s font selection function.
///
/// This function receives a font specification (families + a style, weight,
/// stretch triple) and a font database and should return the ID of the font
/// that shall be used (if any).
///
/// In the basic case, the function will search the existing fonts in the
/// database to find a good match, e.g. via
/// [`Database::query`](fontdb::Database::query). This is what the [default
/// implementation](FontResolver::default_font_selector) does.
///
/// Users with more complex requirements can mutate the database to load
/// additional fonts dynamically. To perform mutation, it is recommended to call
/// `Arc::make_mut` on the provided database. (This call is not done outside of
/// the callback to not needless clone an underlying shared database if no
/// mutation will be performed.) It is important that the database is only
/// mutated additively. Removing fonts or replacing the entire database will
/// break things.
pub type FontSelectionFn<'a> =
    Box<dyn Fn(&Font, &mut Arc<Database>) -> Option<ID> + Send + Sync + 'a>;

/// A shorthand for [FontResolver]'s fallback selection function.
///
/// This function receives a specific character, a list of already used fonts,
/// and a font database. It should return the ID of a font that
/// - is not any of the already used fonts
/// - is as close as possible to the first already used font (if any)
/// - supports the given character
///
/// The function can search the existing database, but can also load additional
/// fonts dynamically. See the documentation of [`FontSelectionFn`] for more
/// details.
pub type FallbackSelectionFn<'a> =
    Box<dyn Fn(char, &[ID], &mut Arc<Database>) -> Option<ID> + Send + Sync + 'a>;

/// Gives a shaping face the application has already parsed for a font's bytes and
/// face index, or `None` to have one built (cardstock patch); and optionally the
/// glyphs the application keeps for a text in such a face ([`ShapedGlyphsFn`]).
#[derive(Clone)]
#[allow(clippy::type_complexity)]
pub struct ShapingFaceFn(
    pub Arc<dyn Fn(&[u8], u32) -> Option<&'static rustybuzz::Face<'static>> + Send + Sync>,
    pub Option<ShapedGlyphsFn>,
);

/// Gives the glyphs of a text shaped left to right in a face [`ShapingFaceFn`]
/// handed over, with rustybuzz's default features, no variations and the script
/// its letters have, exactly as `rustybuzz::shape` gives them, or `None` to have
/// them shaped (cardstock patch). Asked only for a left-to-right run shaped so.
pub type ShapedGlyphsFn =
    Arc<dyn Fn(&'static rustybuzz::Face<'static>, &str) -> Option<Vec<ShapedGlyph>> + Send + Sync>;

/// One glyph of a shaped text, in font units (cardstock patch): what rustybuzz's
/// `GlyphInfo` and `GlyphPosition` give of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapedGlyph {
    /// The glyph's id.
    pub id: u16,
    /// The byte of the text its cluster starts at.
    pub cluster: u32,
    /// Its horizontal advance.
    pub x_advance: i32,
    /// Its horizontal offset.
    pub x_offset: i32,
    /// Its vertical offset.
    pub y_offset: i32,
}

impl std::fmt::Debug for ShapingFaceFn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ShapingFaceFn")
    }
}

/// A font resolver for `<text>` elements.
///
/// This type can be useful if you want to have an alternative font handling to
/// the default one. By default, only fonts specified upfront in
/// [`Options::fontdb`](crate::Options::fontdb) will be used. This type allows
/// you to load additional fonts on-demand and customize the font selection
/// process.
pub struct FontResolver<'a> {
    /// Resolver function that will be used when selecting a specific font
    /// for a generic [`Font`] specification.
    pub select_font: FontSelectionFn<'a>,

    /// Resolver function that will be used when selecting a fallback font for a
    /// character.
    pub select_fallback: FallbackSelectionFn<'a>,
}

impl Default for FontResolver<'_> {
    fn default() -> Self {
        FontResolver {
            select_font: FontResolver::default_font_selector(),
            select_fallback: FontResolver::default_fallback_selector(),
        }
    }
}

impl FontResolver<'_> {
    /// Creates a default font selection resolver.
    ///
    /// The default implementation forwards to
    /// [`query`](fontdb::Database::query) on the font database specified in the
    /// [`Options`](crate::Options).
    pub fn default_font_selector() -> FontSelectionFn<'static> {
        Box::new(move |font, fontdb| {
            let mut name_list = Vec::new();
            for family in &font.families {
                name_list.push(match family {
                    FontFamily::Serif => fontdb::Family::Serif,
                    FontFamily::SansSerif => fontdb::Family::SansSerif,
                    FontFamily::Cursive => fontdb::Family::Cursive,
                    FontFamily::Fantasy => fontdb::Family::Fantasy,
                    FontFamily::Monospace => fontdb::Family::Monospace,
                    FontFamily::Named(s) => fontdb::Family::Name(s),
                });
            }

            // Use the default font as fallback.
            name_list.push(fontdb::Family::Serif);

            let stretch = match font.stretch {
                FontStretch::UltraCondensed => fontdb::Stretch::UltraCondensed,
                FontStretch::ExtraCondensed => fontdb::Stretch::ExtraCondensed,
                FontStretch::Condensed => fontdb::Stretch::Condensed,
                FontStretch::SemiCondensed => fontdb::Stretch::SemiCondensed,
                FontStretch::Normal => fontdb::Stretch::Normal,
                FontStretch::SemiExpanded => fontdb::Stretch::SemiExpanded,
                FontStretch::Expanded => fontdb::Stretch::Expanded,
                FontStretch::ExtraExpanded => fontdb::Stretch::ExtraExpanded,
                FontStretch::UltraExpanded => fontdb::Stretch::UltraExpanded,
            };

            let style = match font.style {
                FontStyle::Normal => fontdb::Style::Normal,
                FontStyle::Italic => fontdb::Style::Italic,
                FontStyle::Oblique => fontdb::Style::Oblique,
            };

            let query = fontdb::Query {
                families: &name_list,
                weight: fontdb::Weight(font.weight),
                stretch,
                style,
            };

            let id = fontdb.query(&query);
            if id.is_none() {
                log::warn!(
                    "No match for '{}' font-family.",
                    font.families
                        .iter()
                        .map(|f| f.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }

            id
        })
    }

    /// Creates a default font fallback selection resolver.
    ///
    /// The default implementation searches through the entire `fontdb`
    /// to find a font that has the correct style and supports the character.
    pub fn default_fallback_selector() -> FallbackSelectionFn<'static> {
        Box::new(|c, exclude_fonts, fontdb| {
            let base_font_id = exclude_fonts[0];

            // Iterate over fonts and check if any of them support the specified char.
            for face in fontdb.faces() {
                // Ignore fonts, that were used for shaping already.
                if exclude_fonts.contains(&face.id) {
                    continue;
                }

                // Check that the new face has the same style.
                let base_face = fontdb.face(base_font_id)?;
                if base_face.style != face.style
                    && base_face.weight != face.weight
                    && base_face.stretch != face.stretch
                {
                    continue;
                }

                if !fontdb.has_char(face.id, c) {
                    continue;
                }

                let base_family = base_face
                    .families
                    .iter()
                    .find(|f| f.1 == fontdb::Language::English_UnitedStates)
                    .unwrap_or(&base_face.families[0]);

                let new_family = face
                    .families
                    .iter()
                    .find(|f| f.1 == fontdb::Language::English_UnitedStates)
                    .unwrap_or(&base_face.families[0]);

                log::warn!("Fallback from {} to {}.", base_family.0, new_family.0);
                return Some(face.id);
            }

            None
        })
    }
}

impl std::fmt::Debug for FontResolver<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FontResolver { .. }")
    }
}

/// Convert a text into its paths. This is done in two steps:
/// 1. We convert the text into glyphs and position them according to the rules specified
///    in the SVG specification. While doing so, we also calculate the text bbox (which
///    is not based on the outlines of a glyph, but instead the glyph metrics as well
///    as decoration spans).
/// 2. We convert all of the positioned glyphs into outlines.
pub(crate) fn convert(text: &mut Text, resolver: &FontResolver, cache: &mut Cache) -> Option<()> {
    // cardstock patch: a text laid out before with the same database (same chunks,
    // fonts, positions and paints) takes that layout instead of shaping again.
    let kept = cache
        .text_layouts
        .clone()
        .filter(|kept| Arc::ptr_eq(&kept.fontdb, &cache.fontdb));
    let key = kept.as_ref().and_then(|_| TextLayouts::key(text));
    let Some((kept, key)) = kept.zip(key) else {
        return lay_out(text, resolver, cache).and_then(|laid| laid.apply(text));
    };
    if let Some(hit) = kept.get(&key) {
        return hit.and_then(|laid| laid.apply(text));
    }
    // The application's resolver may report a font or a glyph it could not find
    // (cardstock turns that into an error naming the face): a layout that needed
    // such an answer is not kept, so every face that asks for it is told again.
    let missed = std::sync::atomic::AtomicBool::new(false);
    let miss = |found: bool| {
        if !found {
            missed.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    };
    let watching = FontResolver {
        select_font: Box::new(|font, db| {
            let id = (resolver.select_font)(font, db);
            miss(id.is_some());
            id
        }),
        select_fallback: Box::new(|c, used, db| {
            let id = (resolver.select_fallback)(c, used, db);
            miss(id.is_some());
            id
        }),
    };
    let laid = lay_out(text, &watching, cache);
    // A font loaded by the resolver while laying out made a new database.
    let missed = missed.load(std::sync::atomic::Ordering::Relaxed);
    if !missed && Arc::ptr_eq(&kept.fontdb, &cache.fontdb) {
        kept.insert(key, laid.clone());
    }
    laid.and_then(|laid| laid.apply(text))
}

/// A text's layout, flattened outlines and their bounds in the text's own
/// coordinates (before its transform).
#[derive(Clone)]
struct Laid {
    chunks: Arc<Vec<crate::TextChunk>>,
    layouted: Arc<Vec<layout::Span>>,
    bbox: tiny_skia_path::NonZeroRect,
    flattened: Arc<crate::Group>,
    stroke_bbox: tiny_skia_path::NonZeroRect,
}

impl Laid {
    /// Puts the layout on `text`; `None` (the text is dropped, as usvg does) when
    /// its transform cannot place the bounds.
    fn apply(self, text: &mut Text) -> Option<()> {
        // The key holds every field of the chunks: the kept ones are the same.
        text.chunks = self.chunks;
        text.layouted = self.layouted;
        text.bounding_box = self.bbox.to_rect();
        text.abs_bounding_box = self.bbox.transform(text.abs_transform)?.to_rect();
        text.flattened = self.flattened;
        text.stroke_bounding_box = self.stroke_bbox.to_rect();
        text.abs_stroke_bounding_box = self.stroke_bbox.transform(text.abs_transform)?.to_rect();
        Some(())
    }

    /// Roughly the bytes this layout holds, for the store's budget.
    fn weight(&self) -> usize {
        let glyphs: usize = self.layouted.iter().map(|s| s.positioned_glyphs.len()).sum();
        fn points(group: &crate::Group) -> usize {
            group
                .children()
                .iter()
                .map(|node| match node {
                    crate::Node::Path(path) => path.data().points().len(),
                    crate::Node::Group(group) => points(group),
                    _ => 0,
                })
                .sum()
        }
        512 + glyphs * 160 + points(&self.flattened) * 12
    }
}

fn lay_out(text: &mut Text, resolver: &FontResolver, cache: &mut Cache) -> Option<Laid> {
    let shaping = cache.shaping_face.clone();
    let kept = cache.kept_outlines();
    let (layouted, bbox) =
        layout::layout_text(text, resolver, &mut cache.fontdb, shaping.as_ref(), kept.as_deref())?;
    text.layouted = Arc::new(layouted);
    let (flattened, stroke_bbox) = flatten::flatten(text, cache)?;
    Some(Laid {
        chunks: text.chunks.clone(),
        layouted: text.layouted.clone(),
        bbox,
        flattened: Arc::new(flattened),
        stroke_bbox,
    })
}

/// Text layouts kept between conversions (cardstock patch): faces that repeat the
/// same labels (a score pad's 40 sheets, a deck's frames) shape and outline each
/// label once. The key is everything layout reads of a text: its id, rendering
/// mode, positions, rotations, writing mode and chunks (text, fonts, sizes,
/// spacing, decorations and paints); texts painted with a gradient, a pattern or a
/// context paint, and text on a path, are laid out every time. A layout does not
/// depend on the text's transform; its absolute bounds are computed again for each
/// use.
///
/// It belongs to one font database, like [`GlyphOutlines`](crate::GlyphOutlines),
/// and holds at most `budget` bytes (roughly) of layouts met more than once; past
/// that, new layouts are not kept. A layout met once is kept on trial, with the
/// newest others within a sixteenth of the budget, and kept for good when it is
/// met again: text laid out once only (a pad sheet's own number) passes through
/// the trial instead of filling the budget.
pub struct TextLayouts {
    fontdb: Arc<Database>,
    budget: usize,
    kept: std::sync::RwLock<Kept>,
}

/// The layouts of a [`TextLayouts`]: those met again, and those on trial (by key:
/// the layout, its weight and when it came, oldest first in `trial_order`).
#[derive(Default)]
struct Kept {
    main: rustc_hash::FxHashMap<Vec<u8>, Option<Laid>>,
    main_weight: usize,
    trial: rustc_hash::FxHashMap<Vec<u8>, (Option<Laid>, usize, u64)>,
    trial_order: std::collections::VecDeque<(u64, Vec<u8>)>,
    trial_weight: usize,
    arrivals: u64,
}

impl TextLayouts {
    /// An empty store for the texts laid out with `fontdb` (pass the same `Arc` as
    /// [`Options::fontdb`](crate::Options::fontdb)), keeping about `budget` bytes.
    pub fn new(fontdb: Arc<Database>, budget: usize) -> Self {
        TextLayouts {
            fontdb,
            budget,
            kept: Default::default(),
        }
    }

    /// How many layouts the store holds.
    pub fn len(&self) -> usize {
        self.kept
            .read()
            .map(|k| k.main.len() + k.trial.len())
            .unwrap_or(0)
    }

    /// Whether the store holds no layout.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A text's key: everything layout reads of it, as bytes (floats by their
    /// bits). Every struct is taken apart field by field, so a field added to one
    /// of them does not compile until it is in the key or named as left out. `None`
    /// for a text that is not kept (a paint server or a context paint, text on a
    /// path).
    fn key(text: &Text) -> Option<Vec<u8>> {
        let Text {
            id,
            rendering_mode,
            dx,
            dy,
            rotate,
            writing_mode,
            chunks,
            // Layout does not read these; it writes them.
            abs_transform: _,
            bounding_box: _,
            abs_bounding_box: _,
            stroke_bounding_box: _,
            abs_stroke_bounding_box: _,
            flattened: _,
            layouted: _,
        } = text;
        let mut k = Key(Vec::with_capacity(256));
        k.str(id);
        k.byte(*rendering_mode as u8);
        k.floats(dx);
        k.floats(dy);
        k.floats(rotate);
        k.byte(*writing_mode as u8);
        k.len(chunks.len());
        for chunk in chunks.iter() {
            let crate::TextChunk {
                x,
                y,
                anchor,
                spans,
                text_flow,
                text,
            } = chunk;
            if !matches!(text_flow, crate::TextFlow::Linear) {
                return None;
            }
            k.maybe(*x);
            k.maybe(*y);
            k.byte(*anchor as u8);
            k.str(text);
            k.len(spans.len());
            for span in spans {
                k.span(span)?;
            }
        }
        Some(k.0)
    }

    /// The layout kept under `key`; one on trial is kept for good now.
    fn get(&self, key: &[u8]) -> Option<Option<Laid>> {
        {
            let kept = self.kept.read().ok()?;
            if let Some(laid) = kept.main.get(key) {
                return Some(laid.clone());
            }
            if !kept.trial.contains_key(key) {
                return None;
            }
        }
        let mut kept = self.kept.write().ok()?;
        let kept = &mut *kept;
        if let Some(laid) = kept.main.get(key) {
            return Some(laid.clone());
        }
        let (laid, weight, _) = kept.trial.remove(key)?;
        kept.trial_weight -= weight;
        // The order keeps the key until it comes up; drop such keys in bulk.
        if kept.trial_order.len() > 2 * kept.trial.len() + 64 {
            let trial = &kept.trial;
            kept.trial_order
                .retain(|(arrival, key)| trial.get(key).is_some_and(|e| e.2 == *arrival));
        }
        if kept.main_weight + weight <= self.budget {
            kept.main_weight += weight;
            kept.main.insert(key.to_vec(), laid.clone());
        }
        Some(laid)
    }

    /// Puts a new layout on trial, forgetting the oldest ones on trial past a
    /// sixteenth of the budget.
    fn insert(&self, key: Vec<u8>, laid: Option<Laid>) {
        let weight = key.len() + laid.as_ref().map_or(0, Laid::weight);
        let Ok(mut kept) = self.kept.write() else {
            return;
        };
        let kept = &mut *kept;
        if kept.main.contains_key(&key) || kept.trial.contains_key(&key) {
            return;
        }
        kept.arrivals += 1;
        let arrival = kept.arrivals;
        kept.trial_order.push_back((arrival, key.clone()));
        kept.trial.insert(key, (laid, weight, arrival));
        kept.trial_weight += weight;
        while kept.trial_weight > self.budget / 16 {
            let Some((arrival, key)) = kept.trial_order.pop_front() else {
                break;
            };
            // Only the entry that came then: one kept for good, or forgotten and
            // put on trial again since, stays.
            if kept.trial.get(&key).is_some_and(|e| e.2 == arrival) {
                if let Some((_, weight, _)) = kept.trial.remove(&key) {
                    kept.trial_weight -= weight;
                }
            }
        }
    }
}

/// The bytes of a [`TextLayouts`] key.
struct Key(Vec<u8>);

impl Key {
    fn byte(&mut self, v: u8) {
        self.0.push(v);
    }

    fn len(&mut self, n: usize) {
        self.0.extend_from_slice(&(n as u64).to_le_bytes());
    }

    fn float(&mut self, v: f32) {
        self.0.extend_from_slice(&v.to_bits().to_le_bytes());
    }

    fn floats(&mut self, v: &[f32]) {
        self.len(v.len());
        v.iter().for_each(|x| self.float(*x));
    }

    fn maybe(&mut self, v: Option<f32>) {
        match v {
            None => self.byte(0),
            Some(x) => {
                self.byte(1);
                self.float(x);
            }
        }
    }

    fn str(&mut self, v: &str) {
        self.len(v.len());
        self.0.extend_from_slice(v.as_bytes());
    }

    fn span(&mut self, span: &crate::TextSpan) -> Option<()> {
        let crate::TextSpan {
            start,
            end,
            fill,
            stroke,
            paint_order,
            font,
            font_size,
            small_caps,
            apply_kerning,
            font_optical_sizing,
            decoration,
            dominant_baseline,
            alignment_baseline,
            baseline_shift,
            visible,
            letter_spacing,
            word_spacing,
            text_length,
            length_adjust,
        } = span;
        self.len(*start);
        self.len(*end);
        self.fill(fill)?;
        self.stroke(stroke)?;
        self.byte(*paint_order as u8);
        let Font {
            families,
            style,
            stretch,
            weight,
            variations,
        } = font;
        self.len(families.len());
        for family in families {
            match family {
                FontFamily::Serif => self.byte(0),
                FontFamily::SansSerif => self.byte(1),
                FontFamily::Cursive => self.byte(2),
                FontFamily::Fantasy => self.byte(3),
                FontFamily::Monospace => self.byte(4),
                FontFamily::Named(name) => {
                    self.byte(5);
                    self.str(name);
                }
            }
        }
        self.byte(*style as u8);
        self.byte(*stretch as u8);
        self.0.extend_from_slice(&weight.to_le_bytes());
        self.len(variations.len());
        for crate::FontVariation { tag, value } in variations {
            self.0.extend_from_slice(tag);
            self.float(*value);
        }
        self.float(font_size.get());
        self.byte(*small_caps as u8);
        self.byte(*apply_kerning as u8);
        self.byte(*font_optical_sizing as u8);
        let crate::TextDecoration {
            underline,
            overline,
            line_through,
        } = decoration;
        for style in [underline, overline, line_through] {
            match style {
                None => self.byte(0),
                Some(crate::TextDecorationStyle { fill, stroke }) => {
                    self.byte(1);
                    self.fill(fill)?;
                    self.stroke(stroke)?;
                }
            }
        }
        self.byte(*dominant_baseline as u8);
        self.byte(*alignment_baseline as u8);
        self.len(baseline_shift.len());
        for shift in baseline_shift {
            match shift {
                crate::BaselineShift::Baseline => self.byte(0),
                crate::BaselineShift::Subscript => self.byte(1),
                crate::BaselineShift::Superscript => self.byte(2),
                crate::BaselineShift::Number(n) => {
                    self.byte(3);
                    self.float(*n);
                }
            }
        }
        self.byte(*visible as u8);
        self.float(*letter_spacing);
        self.float(*word_spacing);
        self.maybe(*text_length);
        self.byte(*length_adjust as u8);
        Some(())
    }

    fn fill(&mut self, fill: &Option<crate::Fill>) -> Option<()> {
        let Some(crate::Fill {
            paint,
            opacity,
            rule,
            context_element,
        }) = fill
        else {
            self.byte(0);
            return Some(());
        };
        if context_element.is_some() {
            return None;
        }
        self.byte(1);
        self.colour(paint)?;
        self.float(opacity.get());
        self.byte(*rule as u8);
        Some(())
    }

    fn stroke(&mut self, stroke: &Option<crate::Stroke>) -> Option<()> {
        let Some(crate::Stroke {
            paint,
            dasharray,
            dashoffset,
            miterlimit,
            opacity,
            width,
            linecap,
            linejoin,
            context_element,
        }) = stroke
        else {
            self.byte(0);
            return Some(());
        };
        if context_element.is_some() {
            return None;
        }
        self.byte(1);
        self.colour(paint)?;
        match dasharray {
            None => self.byte(0),
            Some(dashes) => {
                self.byte(1);
                self.floats(dashes);
            }
        }
        self.float(*dashoffset);
        self.float(miterlimit.get());
        self.float(opacity.get());
        self.float(width.get());
        self.byte(*linecap as u8);
        self.byte(*linejoin as u8);
        Some(())
    }

    /// A plain colour; `None` for a paint server (not kept).
    fn colour(&mut self, paint: &crate::Paint) -> Option<()> {
        let crate::Paint::Color(crate::Color { red, green, blue }) = paint else {
            return None;
        };
        self.0.extend_from_slice(&[*red, *green, *blue]);
        Some(())
    }
}

impl std::fmt::Debug for TextLayouts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TextLayouts")
    }
}
