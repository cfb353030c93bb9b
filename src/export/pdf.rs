//! PDF through krilla: MediaBox = sheet, TrimBox and BleedBox from the layout, text
//! as embedded subset fonts, one XObject per distinct face however often it prints,
//! and no dates or random ids, so the same input gives the same bytes.

use std::collections::BTreeMap;

use krilla::color::rgb;
use krilla::destination::XyzDestination;
use krilla::geom::{Path, PathBuilder, Point, Rect as KRect, Size as KSize, Transform};
use krilla::graphic::Graphic;
use krilla::metadata::Metadata;
use krilla::outline::{Outline, OutlineNode};
use krilla::page::PageSettings;
use krilla::paint::{Fill, FillRule, Stroke, StrokeDash};
use krilla::surface::Surface;
use krilla::text::{Font, TextDirection};
use krilla::{Document, SerializeSettings};
use krilla_svg::{SurfaceExt, SvgSettings};
use usvg::Tree;

use crate::layout::{Anchor, Mark, Rect, Segment, Sheet, MARK_WIDTH};
use crate::units::mm_to_pt;

/// Why a PDF could not be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PdfError {
    /// A sheet or face with no area.
    NoSize,
    /// A placement names a face the caller did not give.
    MissingFace(usize),
    /// The label font could not be read.
    Font,
    /// krilla refused the document.
    Writer(String),
}

impl std::fmt::Display for PdfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PdfError::NoSize => write!(f, "a sheet or face has no size"),
            PdfError::MissingFace(i) => {
                write!(f, "a placement names face {i}, which was not rendered")
            }
            PdfError::Font => write!(f, "the label font cannot be read"),
            PdfError::Writer(e) => write!(f, "PDF writer failed: {e}"),
        }
    }
}

impl std::error::Error for PdfError {}

/// A bookmark: title and the index of the page it opens.
pub struct Bookmark {
    pub title: String,
    pub page: usize,
}

fn pt(mm: f64) -> f32 {
    mm_to_pt(mm) as f32
}

fn krect(r: &Rect) -> Option<KRect> {
    KRect::from_xywh(pt(r.x), pt(r.y), pt(r.w), pt(r.h))
}

fn rgb_paint(c: [u8; 3]) -> krilla::paint::Paint {
    rgb::Color::new(c[0], c[1], c[2]).into()
}

/// A path in points from segments in millimetres.
fn path(segments: &[Segment]) -> Option<Path> {
    let mut pb = PathBuilder::new();
    for s in segments {
        match *s {
            Segment::Move(x, y) => pb.move_to(pt(x), pt(y)),
            Segment::Line(x, y) => pb.line_to(pt(x), pt(y)),
            Segment::Cubic(a, b, c, d, e, f) => {
                pb.cubic_to(pt(a), pt(b), pt(c), pt(d), pt(e), pt(f))
            }
            Segment::Close => pb.close(),
        }
    }
    pb.finish()
}

/// Draws a sheet's marks: lines stroked 0.25 pt, labels as real text.
fn draw_marks(surface: &mut Surface, marks: &[Mark], font: &Font) {
    for m in marks {
        if let Mark::Label {
            at,
            size,
            anchor,
            upwards,
            text,
        } = m
        {
            let width = crate::text::width(
                text,
                *size,
                &crate::text::FontSpec::default(),
                &crate::fonts::FontBook::builtin(),
            )
            .unwrap_or(0.0);
            let dx = match anchor {
                Anchor::Start => 0.0,
                Anchor::Middle => -width / 2.0,
                Anchor::End => -width,
            };
            surface.set_stroke(None);
            surface.set_fill(Some(Fill {
                paint: rgb_paint(crate::layout::marks::LABEL_RGB),
                ..Fill::default()
            }));
            if *upwards {
                surface.push_transform(&Transform::from_rotate_at(-90.0, pt(at.0), pt(at.1)));
            }
            surface.draw_text(
                Point::from_xy(pt(at.0 + dx), pt(at.1)),
                font.clone(),
                pt(*size),
                text,
                false,
                TextDirection::LeftToRight,
            );
            if *upwards {
                surface.pop();
            }
            continue;
        }
        let Some(p) = path(&m.segments()) else {
            continue;
        };
        let stroke = m.stroke();
        surface.set_fill(None);
        surface.set_stroke(Some(Stroke {
            paint: rgb_paint(stroke.rgb()),
            width: pt(MARK_WIDTH),
            dash: stroke.dash().map(|[on, off]| StrokeDash {
                array: vec![pt(on), pt(off)],
                offset: 0.0,
            }),
            ..Stroke::default()
        }));
        surface.draw_path(&p);
    }
    surface.set_stroke(None);
    surface.set_fill(None);
}

/// The font labels are set in (the embedded Lato).
fn label_font() -> Result<Font, PdfError> {
    let data = crate::fonts::FONTS
        .iter()
        .find(|(name, _)| *name == "Lato-Regular.ttf")
        .map(|(_, d)| *d)
        .ok_or(PdfError::Font)?;
    Font::new(data.into(), 0).ok_or(PdfError::Font)
}

/// Writes `sheets` as one PDF. `faces(i)` is the picture of face index `i`.
/// `compress` deflates the content streams: about 7x smaller files for about
/// 40 % more time (watch mode turns it off to stay interactive).
pub fn write<'a>(
    title: &str,
    sheets: &[Sheet],
    faces: &(dyn Fn(usize) -> Option<&'a Tree> + Sync),
    bookmarks: &[Bookmark],
    compress: bool,
) -> Result<Vec<u8>, PdfError> {
    let settings = SerializeSettings {
        xmp_metadata: false,
        enable_tagging: false,
        compress_content_streams: compress,
        ..SerializeSettings::default()
    };
    let mut doc = Document::new_with(settings);
    doc.set_metadata(
        Metadata::new()
            .title(title.to_string())
            .creator("cardstock".to_string()),
    );
    let font = label_font()?;
    let mut graphics: BTreeMap<usize, Graphic> = BTreeMap::new();
    for s in sheets {
        let size = KSize::from_wh(pt(s.width), pt(s.height)).ok_or(PdfError::NoSize)?;
        let ps = PageSettings::new(size)
            .with_trim_box(krect(&s.trim))
            .with_bleed_box(krect(&s.bleed));
        let mut p = doc.start_page_with(ps);
        let mut surface = p.surface();
        for pl in &s.placements {
            let tree = faces(pl.face).ok_or(PdfError::MissingFace(pl.face))?;
            let psize = KSize::from_wh(pt(pl.w), pt(pl.h)).ok_or(PdfError::NoSize)?;
            if let std::collections::btree_map::Entry::Vacant(slot) = graphics.entry(pl.face) {
                let mut sb = surface.stream_builder();
                let mut gs = sb.surface();
                gs.draw_svg(tree, psize, SvgSettings::default());
                gs.finish();
                slot.insert(Graphic::new(sb.finish(), false));
            }
            let Some(clip) = krect(&pl.clip) else {
                continue;
            };
            let mut pb = PathBuilder::new();
            pb.push_rect(clip);
            let Some(path) = pb.finish() else { continue };
            surface.push_clip_path(&path, &FillRule::NonZero);
            let place = if pl.rotate180 {
                Transform::from_row(-1.0, 0.0, 0.0, -1.0, pt(pl.x + pl.w), pt(pl.y + pl.h))
            } else {
                Transform::from_translate(pt(pl.x), pt(pl.y))
            };
            surface.push_transform(&place);
            surface.draw_graphic(graphics[&pl.face].clone());
            surface.pop();
            surface.pop();
        }
        draw_marks(&mut surface, &s.marks, &font);
        surface.finish();
        p.finish();
    }
    if !bookmarks.is_empty() {
        let mut outline = Outline::new();
        for b in bookmarks {
            outline.push_child(OutlineNode::new(
                b.title.clone(),
                XyzDestination::new(b.page, Point::from_xy(0.0, 0.0)),
            ));
        }
        doc.set_outline(outline);
    }
    doc.finish().map_err(|e| PdfError::Writer(format!("{e:?}")))
}
