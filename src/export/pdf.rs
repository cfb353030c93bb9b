//! PDF through krilla: MediaBox = sheet, TrimBox and BleedBox from the layout, text
//! as embedded subset fonts, one XObject per distinct face however often it prints,
//! and one for each run of content that repeats across faces ([`super::repeats`]),
//! and no dates or random ids, so the same input gives the same bytes. How a file
//! asks to be printed (duplex, no scaling) is added after krilla as an incremental
//! update of its catalog: krilla has no setting for those viewer preferences.

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
use krilla::text::{Font, GlyphId, KrillaGlyph};
use krilla::{Document, SerializeSettings};
use krilla_svg::{SurfaceExt, SvgSettings};

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::repeats::{Digests, Repeats};
use crate::layout::{Mark, Rect, Segment, Sheet, MARK_WIDTH};
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

/// How a PDF asks to be printed (its `/ViewerPreferences`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Printing {
    /// One-sided, at actual size.
    OneSided,
    /// Double-sided, flipped on the long edge, at actual size.
    LongEdge,
    /// Double-sided, flipped on the short edge, at actual size (a booklet of
    /// landscape sheets).
    ShortEdge,
}

impl Printing {
    /// The viewer-preferences dictionary (PDF 1.7, 12.2): no scaling, and the duplex
    /// mode.
    pub(crate) fn dictionary(self) -> &'static str {
        match self {
            Printing::OneSided => "<</PrintScaling/None/Duplex/Simplex>>",
            Printing::LongEdge => "<</PrintScaling/None/Duplex/DuplexFlipLongEdge>>",
            Printing::ShortEdge => "<</PrintScaling/None/Duplex/DuplexFlipShortEdge>>",
        }
    }
}

/// Finds `needle` in `hay` at or after `from`.
pub(super) fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

/// Finds the last `needle` in `hay`.
pub(super) fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

/// The number after `key` in `dict` (`/Size 16`, `/Root 15 0 R`).
pub(super) fn number_after(dict: &str, key: &str) -> Option<u64> {
    let rest = &dict[dict.find(key)? + key.len()..];
    let digits: String = rest
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// Asks the PDF's reader to print it `how`: appends an incremental update (PDF
/// 1.7, 7.5.6) holding a new version of the catalog with `/ViewerPreferences` and
/// a cross-reference section for it. Deterministic: the same input, the same bytes.
pub fn ask_to_print(mut pdf: Vec<u8>, how: Printing) -> Result<Vec<u8>, PdfError> {
    let broken = |what: &str| PdfError::Writer(format!("cannot add print settings: {what}"));
    let t = rfind(&pdf, b"trailer").ok_or_else(|| broken("no trailer"))?;
    let sx = find(&pdf, b"startxref", t).ok_or_else(|| broken("no startxref"))?;
    let trailer = String::from_utf8_lossy(&pdf[t + 7..sx]).trim().to_string();
    let prev = number_after(&String::from_utf8_lossy(&pdf[sx..]), "startxref")
        .ok_or_else(|| broken("no cross-reference offset"))?;
    let root = number_after(&trailer, "/Root").ok_or_else(|| broken("no catalog"))?;
    let head = format!("\n{root} 0 obj\n");
    let obj = rfind(&pdf[..t], head.as_bytes()).ok_or_else(|| broken("catalog not found"))?;
    let body_start = obj + head.len();
    let body_end =
        find(&pdf, b"\nendobj", body_start).ok_or_else(|| broken("catalog not closed"))?;
    let body = String::from_utf8_lossy(&pdf[body_start..body_end])
        .trim()
        .to_string();
    if body.contains("/ViewerPreferences") || !body.ends_with(">>") || !trailer.ends_with(">>") {
        return Err(broken("unexpected catalog"));
    }
    let catalog = format!(
        "{}/ViewerPreferences{}>>",
        &body[..body.len() - 2],
        how.dictionary()
    );
    let trailer = format!("{}/Prev {prev}>>", &trailer[..trailer.len() - 2]);
    pdf.push(b'\n');
    let at = pdf.len();
    pdf.extend_from_slice(format!("{root} 0 obj\n{catalog}\nendobj\n").as_bytes());
    let xref = pdf.len();
    pdf.extend_from_slice(
        format!(
            "xref\n{root} 1\n{at:010} 00000 n\r\ntrailer\n{trailer}\nstartxref\n{xref}\n%%EOF\n"
        )
        .as_bytes(),
    );
    Ok(pdf)
}

/// A bookmark: title, the index of the page it opens and how far down it (mm),
/// and its depth (0 at the top; a bookmark of depth 1 goes under the last one of
/// depth 0 before it).
pub struct Bookmark {
    pub title: String,
    pub page: usize,
    pub y: f64,
    pub depth: usize,
}

impl Bookmark {
    /// A top-level bookmark opening the top of page `page`.
    pub fn page(title: String, page: usize) -> Bookmark {
        Bookmark {
            title,
            page,
            y: 0.0,
            depth: 0,
        }
    }
}

/// The outline of `bookmarks`, nested by their depth.
fn outline(bookmarks: &[Bookmark]) -> Outline {
    /// The bookmarks from `at` on of depth `depth` or more, as nodes.
    fn nodes(bookmarks: &[Bookmark], at: &mut usize, depth: usize) -> Vec<OutlineNode> {
        let mut out: Vec<OutlineNode> = Vec::new();
        while let Some(b) = bookmarks.get(*at) {
            if b.depth < depth {
                break;
            }
            *at += 1;
            let mut node = OutlineNode::new(
                b.title.clone(),
                XyzDestination::new(b.page, Point::from_xy(0.0, pt(b.y))),
            );
            for child in nodes(bookmarks, at, b.depth + 1) {
                node.push_child(child);
            }
            out.push(node);
        }
        out
    }
    let mut outline = Outline::new();
    for node in nodes(bookmarks, &mut 0, 0) {
        outline.push_child(node);
    }
    outline
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

/// The paint of a mark's colour: RGB, or for a print shop its CMYK (black and
/// grey on the black plate alone, white as no ink).
#[derive(Clone, Copy)]
struct Ink<'a>(Option<&'a crate::color::Press>);

impl Ink<'_> {
    fn paint(self, c: [u8; 3], role: crate::color::Role) -> krilla::paint::Paint {
        match self.0 {
            Some(press) => {
                let [a, b, c, d] = press.convert(c, role).0;
                krilla::color::cmyk::Color::new(a, b, c, d).into()
            }
            None => rgb_paint(c),
        }
    }
}

/// The paths of a sheet's marks, kept for the next sheet: the sheets of one layout
/// have the same marks (their labels aside), so each mark's path is built once,
/// and once for both its halo and its line.
#[derive(Default)]
struct MarkPaths {
    /// The marks of the last sheet, and their paths (`None` for a label).
    marks: Vec<Mark>,
    paths: Vec<Option<Path>>,
}

impl MarkPaths {
    /// The paths of `marks`, in order; those of marks the last sheet had at the
    /// same place are its own.
    fn of(&mut self, marks: &[Mark]) -> &[Option<Path>] {
        self.marks.truncate(marks.len());
        self.paths.truncate(marks.len());
        for (k, m) in marks.iter().enumerate() {
            if self.marks.get(k) == Some(m) {
                continue;
            }
            let p = path(&m.segments());
            if k < self.marks.len() {
                self.marks[k] = m.clone();
                self.paths[k] = p;
            } else {
                self.marks.push(m.clone());
                self.paths.push(p);
            }
        }
        &self.paths
    }
}

/// Draws a sheet's marks: lines stroked 0.25 pt (cut lines over their white
/// halos, every halo first so that none covers a neighbour's line), labels as real
/// text, in `ink`. `paths` are the marks' paths ([`MarkPaths::of`]).
fn draw_marks(
    surface: &mut Surface,
    marks: &[Mark],
    paths: &[Option<Path>],
    font: &Font,
    ink: Ink,
) {
    surface.set_fill(None);
    for (m, p) in marks.iter().zip(paths) {
        let (Some(width), Some(p)) = (m.stroke().halo(), p) else {
            continue;
        };
        surface.set_stroke(Some(Stroke {
            paint: ink.paint([0xff, 0xff, 0xff], crate::color::Role::Line { width }),
            width: pt(width),
            ..Stroke::default()
        }));
        surface.draw_path(p);
    }
    for (m, p) in marks.iter().zip(paths) {
        if let Mark::Label { .. } = m {
            draw_label(surface, m, font, ink);
            continue;
        }
        let Some(p) = p else {
            continue;
        };
        let stroke = m.stroke();
        surface.set_fill(None);
        surface.set_stroke(Some(Stroke {
            paint: ink.paint(stroke.rgb(), crate::color::Role::Line { width: MARK_WIDTH }),
            width: pt(MARK_WIDTH),
            dash: stroke.dash().map(|[on, off]| StrokeDash {
                array: vec![pt(on), pt(off)],
                offset: 0.0,
            }),
            ..Stroke::default()
        }));
        surface.draw_path(p);
    }
    surface.set_stroke(None);
    surface.set_fill(None);
}

/// Draws a label mark as real text in the label font (nothing for another mark).
fn draw_label(surface: &mut Surface, label: &Mark, font: &Font, ink: Ink) {
    let Mark::Label {
        at,
        size,
        anchor,
        upwards,
        text,
    } = label
    else {
        return;
    };
    let dx = anchor.start(text.width(*size).unwrap_or(0.0));
    surface.set_stroke(None);
    surface.set_fill(Some(Fill {
        paint: ink.paint(crate::layout::marks::LABEL_RGB, crate::color::Role::Text),
        ..Fill::default()
    }));
    if *upwards {
        surface.push_transform(&Transform::from_rotate_at(-90.0, pt(at.0), pt(at.1)));
    }
    surface.draw_glyphs(
        Point::from_xy(pt(at.0 + dx), pt(at.1)),
        &label_glyphs(text),
        font.clone(),
        text.as_str(),
        pt(*size),
        false,
    );
    if *upwards {
        surface.pop();
    }
}

/// A label's glyphs, shaped when it was made, as krilla's glyphs (none if the
/// label font could not shape it).
fn label_glyphs(text: &crate::layout::marks::LabelText) -> Vec<KrillaGlyph> {
    text.shaped()
        .map(|s| {
            let em = |v: i32| v as f32 / s.upem as f32;
            s.glyphs
                .iter()
                .map(|g| {
                    KrillaGlyph::new(
                        GlyphId::new(g.id),
                        em(g.x_advance),
                        em(g.x_offset),
                        em(g.y_offset),
                        em(g.y_advance),
                        g.range.clone(),
                        None,
                    )
                })
                .collect()
        })
        .unwrap_or_default()
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

/// A PDF to write ([`write`]): its pages, where their faces come from and how
/// they are coloured.
#[derive(Clone, Copy)]
pub struct Job<'a> {
    /// The document's title (its metadata).
    pub title: &'a str,
    pub sheets: &'a [Sheet],
    /// `faces(i)` is the picture of face index `i`.
    pub faces: &'a super::Faces<'a>,
    /// Told when face `i` is drawn for good (each face is drawn once, then placed
    /// wherever it prints).
    pub drawn: &'a (dyn Fn(usize) + Sync),
    /// The faces' trees hashed for the content they share ([`super::repeats`]).
    pub digests: &'a Digests,
    pub bookmarks: &'a [Bookmark],
    /// Deflates the content streams: about 7x smaller files for about 40 % more
    /// time (watch mode turns it off to stay interactive).
    pub compress: bool,
    /// A print shop's CMYK; `None`: the faces' own RGB.
    pub print: Option<&'a Print<'a>>,
    /// The face of the game's face store that each of the job's face indices
    /// shows (`None` for a picture of its own), when the job numbers its pictures
    /// itself, as a rulebook does; `None`: its indices are the store's.
    /// [`write_all_unfinished`] draws a store face once for every job that prints it.
    pub store_face: Option<&'a (dyn Fn(usize) -> Option<usize> + Sync)>,
}

/// What a drawn face is, across the jobs of one document: a face of the store, or
/// a picture of one job's own (its number and index).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Drawn {
    Store(usize),
    Own(usize, usize),
}

/// A drawn face and, in a print shop's CMYK, the size it is drawn at (the bits of
/// its width and height in mm).
type DrawnKey = (Drawn, Option<(u64, u64)>);

/// A face drawn once, and its width and height in mm as drawn.
struct DrawnFace {
    graphic: Graphic,
    w: f64,
    h: f64,
}

/// The key of face `face` of job number `k` placed `pl`: in RGB a face is drawn
/// once at the size it first prints and scaled wherever it prints at another
/// (a rulebook's figures); in a print shop's CMYK once at each size, since its
/// colours depend on the printed width of its lines.
fn drawn_key(k: usize, job: &Job, pl: &crate::layout::Placement) -> DrawnKey {
    let face = match job.store_face {
        None => Drawn::Store(pl.face),
        Some(store) => store(pl.face).map_or(Drawn::Own(k, pl.face), Drawn::Store),
    };
    let size = job.print.map(|_| (pl.w.to_bits(), pl.h.to_bits()));
    (face, size)
}

/// A print shop's colour for every PDF of a build, made once and shared by its
/// files: the press that converts the colours and, when the shop asks for PDF/X,
/// the output intent (its ICC profile compressed once).
pub struct Shop {
    pub press: std::sync::Arc<crate::color::Press>,
    pub intent: Option<super::pdfx::Intent>,
    /// The shop's resolution, for a face whose transparency is flattened to pixels.
    pub dpi: f64,
}

impl Shop {
    /// The shop of the printing colour `color`, flattening at `dpi`.
    pub fn new(
        color: &crate::color::PrintColor,
        dpi: f64,
    ) -> Result<Shop, crate::color::PressError> {
        Ok(Shop {
            press: crate::color::Press::for_color(color)?,
            intent: color
                .pdfx
                .map(|standard| super::pdfx::Intent::new(standard, color.condition)),
            dpi,
        })
    }
}

/// One PDF in a print shop's CMYK ([`Job::print`]).
pub struct Print<'a> {
    pub shop: &'a Shop,
    /// The CMYK each face gives itself (`data-cmyk`), by face index.
    pub given: &'a (dyn Fn(usize) -> super::cmyk::Given + Sync),
}

/// Writes `job` as one PDF. For a print shop ([`Job::print`]) every colour is
/// CMYK for its printing condition, and, when it asks for PDF/X, the file is a
/// PDF/X file (a face with transparency PDF/X-1a cannot hold drawn as CMYK
/// pixels, its text above them).
pub fn write(job: &Job) -> Result<Vec<u8>, PdfError> {
    let pdf = write_unfinished(*job)?;
    finish(pdf, job.title, job.print)
}

/// `pdf`, as [`write_unfinished`] or [`super::impose`] wrote it, made the PDF/X
/// file `print`'s shop asks for (titled `title`), or left as it is.
pub fn finish(pdf: Vec<u8>, title: &str, print: Option<&Print>) -> Result<Vec<u8>, PdfError> {
    let Some(intent) = print.and_then(|p| p.shop.intent.as_ref()) else {
        return Ok(pdf);
    };
    let finish = super::pdfx::Finish {
        intent,
        title,
        printing: None,
    };
    super::pdfx::finish(&pdf, &finish)
}

/// [`write`] without its last step ([`finish`]): the PDF as krilla wrote it.
pub fn write_unfinished(job: Job) -> Result<Vec<u8>, PdfError> {
    drawing(std::slice::from_ref(&job), |doc| {
        if !job.bookmarks.is_empty() {
            doc.set_outline(outline(job.bookmarks));
        }
    })
}

/// Several PDFs of the same faces (every job's face `i` is the same picture), as
/// [`write_unfinished`] writes each: a face printed in more than one of them at
/// the same size is drawn once, into one document for all of them that is then
/// split into the files ([`super::split`]), so its form, its fonts' subsets and
/// their compression are made once. Jobs not coloured alike (compression, print
/// shop) are written each on its own.
pub fn write_all_unfinished(jobs: &[Job]) -> Result<Vec<Vec<u8>>, PdfError> {
    let alike = jobs.windows(2).all(|w| {
        w[0].compress == w[1].compress
            && match (w[0].print, w[1].print) {
                (None, None) => true,
                (Some(a), Some(b)) => std::ptr::eq(a.shop, b.shop),
                _ => false,
            }
    });
    if jobs.len() < 2 || !alike {
        return jobs.iter().map(|job| write_unfinished(*job)).collect();
    }
    let whole = drawing(jobs, |_| {})?;
    let mut first = 0;
    let parts: Vec<super::split::Part> = jobs
        .iter()
        .map(|job| {
            let pages = first..first + job.sheets.len();
            first = pages.end;
            super::split::Part {
                pages,
                title: job.title,
                bookmarks: job.bookmarks,
            }
        })
        .collect();
    super::split::split(&whole, &parts)
}

/// Draws every page of `jobs` into one document (each distinct face once at each
/// size it prints), `outline` setting its outline, while a thread parses the next
/// faces; the document's bytes.
fn drawing(jobs: &[Job], outline: impl FnOnce(&mut Document)) -> Result<Vec<u8>, PdfError> {
    // Faces in the order they are first drawn: (job number, face index).
    let mut first = std::collections::BTreeSet::new();
    let placed: Vec<(usize, usize)> = jobs
        .iter()
        .enumerate()
        .flat_map(|(k, job)| {
            job.sheets
                .iter()
                .flat_map(move |s| s.placements.iter().map(move |pl| (k, job, pl)))
        })
        .filter(|&(k, job, pl)| first.insert(drawn_key(k, job, pl)))
        .map(|(k, _, pl)| (k, pl.face))
        .collect();
    let ahead = Ahead::default();
    std::thread::scope(|scope| {
        let prefetch = scope.spawn(|| ahead.prefetch(&placed, jobs));
        let written = draw(jobs, &ahead, prefetch.thread(), outline);
        ahead.done.store(true, Ordering::Relaxed);
        prefetch.thread().unpark();
        written
    })
}

/// How many faces the prefetch thread parses ahead of the writer: enough to keep
/// the writer from waiting, few enough that the face store keeps them until drawn.
const AHEAD: usize = 8;

/// The writer's progress, for the thread that parses the next faces meanwhile.
#[derive(Default)]
struct Ahead {
    /// Distinct faces drawn so far.
    drawn: AtomicUsize,
    done: AtomicBool,
}

impl Ahead {
    /// Asks for each face in print order (so a store that dropped its tree parses
    /// it again here, not in the writer), staying at most [`AHEAD`] faces ahead.
    fn prefetch(&self, placed: &[(usize, usize)], jobs: &[Job]) {
        for (k, &(job, f)) in placed.iter().enumerate() {
            while k > self.drawn.load(Ordering::Relaxed) + AHEAD {
                if self.done.load(Ordering::Relaxed) {
                    return;
                }
                std::thread::park_timeout(std::time::Duration::from_millis(20));
            }
            if self.done.load(Ordering::Relaxed) {
                return;
            }
            // One the writer has drawn already (it got ahead): its tree may be gone.
            if k < self.drawn.load(Ordering::Relaxed) {
                continue;
            }
            drop((jobs[job].faces)(f));
        }
    }
}

/// A face in the print shop's CMYK (its trees one over the other). `face` is its
/// index and width in mm. Under PDF/X-1a a tree that would use transparency is
/// drawn as CMYK pixels at the shop's resolution, the texts nothing covers drawn
/// as text above them.
fn draw_print(
    gs: &mut Surface,
    picture: &super::Stack,
    psize: KSize,
    (face, width_mm): (usize, f64),
    print: &Print,
    repeats: &mut Repeats,
    digests: &Digests,
) {
    use super::cmyk::{raster_without, texts_on_top, transparent, FaceColors};
    let given = (print.given)(face);
    let flatten = print
        .shop
        .press
        .color
        .pdfx
        .is_some_and(|x| !x.allows_transparency());
    for tree in picture.trees() {
        let colors = FaceColors {
            press: &print.shop.press,
            given: &given,
            mm: width_mm / f64::from(tree.size().width()),
            keep_alpha: !flatten,
        };
        if !(flatten && transparent(tree)) {
            repeats.prepare(tree, digests);
            gs.draw_svg_with(
                tree,
                psize,
                SvgSettings::default(),
                Some(repeats),
                Some(&colors),
            );
            continue;
        }
        let kept = texts_on_top(tree);
        let px_per_unit = (print.shop.dpi / 25.4 * colors.mm) as f32;
        let (w, h) = (
            (tree.size().width() * px_per_unit).ceil().max(1.0) as u32,
            (tree.size().height() * px_per_unit).ceil().max(1.0) as u32,
        );
        if let Some(rgba) = raster_without(tree, &kept, w, h, px_per_unit) {
            let image = krilla_svg::Colors::pixels(&colors, rgba, w, h);
            gs.draw_image(image, psize);
        }
        let only = OnlyTexts {
            colors: &colors,
            kept: kept
                .iter()
                .map(|t| *t as *const usvg::Text as usize)
                .collect(),
        };
        gs.draw_svg_with(tree, psize, SvgSettings::default(), None, Some(&only));
    }
}

/// Draws only the `kept` texts of a tree (and the plain groups that hold them),
/// in the face's colours.
struct OnlyTexts<'a> {
    colors: &'a super::cmyk::FaceColors<'a>,
    kept: std::collections::HashSet<usize>,
}

impl krilla_svg::Colors for OnlyTexts<'_> {
    fn color(&self, c: usvg::Color, p: krilla_svg::Painted) -> krilla::color::Color {
        self.colors.color(c, p)
    }
    fn image(&self, kind: &usvg::ImageKind) -> Option<krilla::image::Image> {
        self.colors.image(kind)
    }
    fn pixels(&self, rgba: Vec<u8>, w: u32, h: u32) -> krilla::image::Image {
        self.colors.pixels(rgba, w, h)
    }
    fn draws(&self, node: &usvg::Node) -> bool {
        match node {
            usvg::Node::Group(g) => !g.should_isolate() && g.clip_path().is_none(),
            usvg::Node::Text(t) => self
                .kept
                .contains(&(t.as_ref() as *const usvg::Text as usize)),
            _ => false,
        }
    }
}

/// [`drawing`]'s work: the pages of `jobs`, each distinct face drawn once at each
/// size it prints, telling `prefetch` after each.
fn draw(
    jobs: &[Job],
    ahead: &Ahead,
    prefetch: &std::thread::Thread,
    outline: impl FnOnce(&mut Document),
) -> Result<Vec<u8>, PdfError> {
    let first_job = jobs.first().ok_or(PdfError::NoSize)?;
    let mut doc = document(first_job)?;
    let font = label_font()?;
    // Each face as drawn ([`drawn_key`]), with the size it was drawn at (mm).
    let mut graphics: BTreeMap<DrawnKey, DrawnFace> = BTreeMap::new();
    let mut fonts = Fonts::new();
    let mut mark_paths = MarkPaths::default();
    for (k, job) in jobs.iter().enumerate() {
        let mut seen = std::collections::BTreeSet::new();
        let placed: Vec<usize> = job
            .sheets
            .iter()
            .flat_map(|s| s.placements.iter().map(|p| p.face))
            .filter(|&f| seen.insert(f))
            .collect();
        let mut repeats = Repeats::learn(
            placed
                .iter()
                .filter_map(|&f| (job.faces)(f))
                .flat_map(|p| p.trees().to_vec()),
            job.digests,
        );
        let mut told = std::collections::BTreeSet::new();
        for s in job.sheets {
            let size = KSize::from_wh(pt(s.width), pt(s.height)).ok_or(PdfError::NoSize)?;
            let ps = PageSettings::new(size)
                .with_trim_box(krect(&s.trim))
                .with_bleed_box(krect(&s.bleed));
            let mut p = doc.start_page_with(ps);
            let mut surface = p.surface();
            for pl in &s.placements {
                let psize = KSize::from_wh(pt(pl.w), pt(pl.h)).ok_or(PdfError::NoSize)?;
                let key = drawn_key(k, job, pl);
                if let std::collections::btree_map::Entry::Vacant(slot) = graphics.entry(key) {
                    // Asked for only here: a face placed again is drawn from its graphic.
                    let graphic = face_graphic(
                        &mut surface,
                        job,
                        (pl.face, psize, pl.w),
                        &mut repeats,
                        &mut fonts,
                    )?;
                    slot.insert(DrawnFace {
                        graphic,
                        w: pl.w,
                        h: pl.h,
                    });
                    ahead.drawn.fetch_add(1, Ordering::Relaxed);
                    prefetch.unpark();
                }
                // Each job tells of each face it prints once, drawn or not.
                if told.insert(pl.face) {
                    (job.drawn)(pl.face);
                }
                let d = &graphics[&key];
                place(&mut surface, pl, &d.graphic, (pl.w / d.w, pl.h / d.h));
            }
            draw_marks(
                &mut surface,
                &s.marks,
                mark_paths.of(&s.marks),
                &font,
                Ink(job.print.map(|p| &*p.shop.press)),
            );
            surface.finish();
            p.finish();
        }
    }
    outline(&mut doc);
    doc.finish().map_err(|e| PdfError::Writer(format!("{e:?}")))
}

/// A new document for `job`: its settings (PDF version of a PDF/X standard,
/// compression, no XMP and no tags) and metadata (title, creator).
fn document(job: &Job) -> Result<Document, PdfError> {
    let mut settings = SerializeSettings {
        xmp_metadata: false,
        enable_tagging: false,
        compress_content_streams: job.compress,
        ..SerializeSettings::default()
    };
    // PDF/X-1a:2003 is PDF 1.4, PDF/X-4 PDF 1.6: krilla keeps to what they have.
    let version = match job.print.and_then(|p| p.shop.press.color.pdfx) {
        Some(crate::color::Pdfx::X1a2003) => Some(krilla::configure::PdfVersion::Pdf14),
        Some(crate::color::Pdfx::X4) => Some(krilla::configure::PdfVersion::Pdf16),
        None => None,
    };
    if let Some(v) = version {
        settings.configuration = krilla::configure::ConfigurationBuilder::new()
            .with_version(v)
            .finish()
            .map_err(|e| PdfError::Writer(format!("{e:?}")))?;
    }
    let mut doc = Document::new_with(settings);
    doc.set_metadata(
        Metadata::new()
            .title(job.title.to_string())
            .creator("cardstock".to_string()),
    );
    Ok(doc)
}

/// Face `face` drawn once at `psize` (`width_mm` wide), as a graphic to place
/// wherever it prints: its trees one over the other, in RGB or in the print
/// shop's CMYK.
fn face_graphic(
    surface: &mut Surface,
    job: &Job,
    (face, psize, width_mm): (usize, KSize, f64),
    repeats: &mut Repeats,
    fonts: &mut Fonts,
) -> Result<Graphic, PdfError> {
    let picture = (job.faces)(face).ok_or(PdfError::MissingFace(face))?;
    let mut sb = surface.stream_builder();
    let mut gs = sb.surface();
    match job.print {
        None => {
            for tree in picture.trees() {
                repeats.prepare(tree, job.digests);
                gs.draw_svg_reusing(tree, psize, SvgSettings::default(), Some(repeats));
            }
            draw_texts(&mut gs, &picture, (psize, width_mm), rgb_paint, fonts);
        }
        Some(print) => {
            draw_print(
                &mut gs,
                &picture,
                psize,
                (face, width_mm),
                print,
                repeats,
                job.digests,
            );
            if !picture.texts().is_empty() {
                use krilla_svg::Colors;
                let given = (print.given)(face);
                let colors = super::cmyk::FaceColors {
                    press: &print.shop.press,
                    given: &given,
                    mm: width_mm / f64::from(picture.size().width()),
                    keep_alpha: true,
                };
                let paint = |[r, g, b]: [u8; 3]| {
                    colors
                        .color(usvg::Color::new_rgb(r, g, b), krilla_svg::Painted::Text)
                        .into()
                };
                draw_texts(&mut gs, &picture, (psize, width_mm), paint, fonts);
            }
        }
    }
    gs.finish();
    Ok(Graphic::new(sb.finish(), false))
}

/// krilla's font of each face a document's glyph runs use (made once: krilla
/// reads a font's tables to make it; one made from the same file as
/// krilla-svg's is the same font to krilla, which embeds it once).
type Fonts = std::collections::HashMap<crate::fonts::FaceData, Option<Font>>;

/// Draws `picture`'s glyph runs (in mm of the picture) over its trees (drawn
/// `psize`, `width_mm` wide), each run's
/// colour painted by `paint`: as real text in the runs' fonts, each run one text
/// object.
fn draw_texts(
    gs: &mut Surface,
    picture: &super::Stack,
    (psize, width_mm): (KSize, f64),
    paint: impl Fn([u8; 3]) -> krilla::paint::Paint,
    fonts: &mut Fonts,
) {
    let runs = picture.texts();
    if runs.is_empty() {
        return;
    }
    let s = psize.width() / width_mm as f32;
    gs.push_transform(&Transform::from_scale(s, s));
    gs.set_stroke(None);
    for run in runs {
        let font = fonts
            .entry(run.face)
            .or_insert_with(|| Font::new(run.face.data.into(), run.face.index))
            .clone();
        let Some(font) = font else { continue };
        let glyphs: Vec<KrillaGlyph> = run
            .glyphs
            .iter()
            .map(|g| {
                KrillaGlyph::new(
                    GlyphId::new(g.id),
                    g.advance,
                    g.x_offset,
                    g.y_offset,
                    0.0,
                    g.range.clone(),
                    None,
                )
            })
            .collect();
        gs.set_fill(Some(Fill {
            paint: paint(run.rgb),
            ..Fill::default()
        }));
        gs.draw_glyphs(
            Point::from_xy(run.at.0 as f32, run.at.1 as f32),
            &glyphs,
            font,
            &run.text,
            run.size as f32,
            false,
        );
    }
    gs.set_fill(None);
    gs.pop();
}

/// Places a face's graphic where `pl` says, clipped to the placement's clip.
/// Places `graphic` as `pl` says, scaled by `(sx, sy)` first when it was drawn at
/// another size.
fn place(
    surface: &mut Surface,
    pl: &crate::layout::Placement,
    graphic: &Graphic,
    (sx, sy): (f64, f64),
) {
    let Some(clip) = krect(&pl.clip) else {
        return;
    };
    let mut pb = PathBuilder::new();
    pb.push_rect(clip);
    let Some(path) = pb.finish() else { return };
    surface.push_clip_path(&path, &FillRule::NonZero);
    let [a, b, c, d, e, f] = pl.matrix();
    let place = Transform::from_row(a as f32, b as f32, c as f32, d as f32, pt(e), pt(f));
    surface.push_transform(&place);
    let scaled = (sx, sy) != (1.0, 1.0);
    if scaled {
        surface.push_transform(&Transform::from_scale(sx as f32, sy as f32));
    }
    surface.draw_graphic(graphic.clone());
    if scaled {
        surface.pop();
    }
    surface.pop();
    surface.pop();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sheets_mark_paths_are_its_own_marks_whatever_the_last_sheet_had() {
        use crate::layout::marks::{LabelText, Stroke as MarkStroke};
        let line = |x: f64| Mark::Line {
            from: (x, 0.0),
            to: (x, 10.0),
            stroke: MarkStroke::Crop,
        };
        let label = Mark::Label {
            at: (1.0, 2.0),
            size: 2.0,
            anchor: crate::layout::marks::Anchor::Start,
            upwards: false,
            text: LabelText::new("sheet 1"),
        };
        // A first sheet, one like it, one with a mark moved, a shorter and a longer.
        let sheets = [
            vec![line(1.0), label.clone(), line(2.0)],
            vec![line(1.0), label.clone(), line(2.0)],
            vec![line(1.0), label.clone(), line(3.0)],
            vec![line(4.0)],
            vec![line(4.0), line(5.0), label],
        ];
        // The sheets drawn, each mark's path built anew or kept from the last sheet.
        let drawn = |keep: bool| {
            let mut doc = Document::new();
            let font = label_font().unwrap();
            let mut kept = MarkPaths::default();
            for marks in &sheets {
                let fresh: Vec<Option<Path>> = marks.iter().map(|m| path(&m.segments())).collect();
                let paths = if keep { kept.of(marks) } else { &fresh };
                let size = KSize::from_wh(100.0, 100.0).unwrap();
                let mut page = doc.start_page_with(PageSettings::new(size));
                let mut surface = page.surface();
                draw_marks(&mut surface, marks, paths, &font, Ink(None));
                surface.finish();
                page.finish();
            }
            doc.finish().unwrap()
        };
        assert_eq!(drawn(true), drawn(false));
    }

    fn blank_pdf() -> Vec<u8> {
        let sheet = crate::layout::one_up(
            0,
            crate::model::Size {
                width: 50.0,
                height: 50.0,
            },
            0.0,
            "x",
        );
        let mut s = sheet.clone();
        s.placements.clear();
        write(&Job {
            title: "t",
            sheets: &[s],
            faces: &|_| None,
            drawn: &|_| {},
            digests: &Digests::default(),
            bookmarks: &[],
            compress: true,
            print: None,
            store_face: None,
        })
        .unwrap()
    }

    #[test]
    fn print_settings_are_an_incremental_update_of_the_catalog() {
        let plain = blank_pdf();
        let asked = ask_to_print(plain.clone(), Printing::LongEdge).unwrap();
        assert!(
            asked.starts_with(&plain),
            "the original bytes stay as they are"
        );
        assert_eq!(asked, ask_to_print(plain, Printing::LongEdge).unwrap());
        // The newest cross-reference section and trailer win (hayro-syntax reads
        // the chain of updates).
        use hayro_syntax::object::{Dict, Name};
        let doc = hayro_syntax::Pdf::new(asked).unwrap();
        let catalog = doc.xref().get::<Dict<'_>>(doc.xref().root_id()).unwrap();
        let vp = catalog.get::<Dict<'_>>(b"ViewerPreferences").unwrap();
        let name = |key: &[u8]| vp.get::<Name<'_>>(key).unwrap().as_ref().to_vec();
        assert_eq!(name(b"Duplex"), b"DuplexFlipLongEdge");
        assert_eq!(name(b"PrintScaling"), b"None");
        assert_eq!(doc.pages().len(), 1, "the pages are still there");
    }

    /// What `pdftotext` with `args` reads from `pdf`.
    fn pdftotext(pdf: &[u8], args: &[&str]) -> String {
        let path =
            std::env::temp_dir().join(format!("cardstock-glyph-runs-{}.pdf", std::process::id()));
        std::fs::write(&path, pdf).unwrap();
        let o = std::process::Command::new("pdftotext")
            .args(args)
            .arg(&path)
            .arg("-")
            .output()
            .expect("pdftotext (poppler-utils) is installed");
        let _ = std::fs::remove_file(&path);
        String::from_utf8_lossy(&o.stdout).into_owned()
    }

    /// `pdftotext -bbox`'s words of `pdf`: text, left edge and box top and
    /// bottom, in pt.
    fn words(pdf: &[u8]) -> Vec<(String, f64, f64, f64)> {
        let html = pdftotext(pdf, &["-bbox"]);
        let attr = |tag: &str, name: &str| -> f64 {
            let k = format!("{name}=\"");
            let i = tag.find(&k).unwrap() + k.len();
            tag[i..].split('"').next().unwrap().parse().unwrap()
        };
        html.split("<word ")
            .skip(1)
            .map(|w| {
                let (tag, rest) = w.split_once('>').unwrap();
                let text = rest.split("</word>").next().unwrap().to_string();
                (
                    text,
                    attr(tag, "xMin"),
                    attr(tag, "yMin"),
                    attr(tag, "yMax"),
                )
            })
            .collect()
    }

    #[test]
    fn glyph_runs_are_drawn_as_real_text_where_they_are_placed() {
        use crate::text::glyphs::{shaped, GlyphRun};
        use crate::text::FontSpec;
        let book = crate::fonts::FontBook::builtin();
        let (regular, bold) = (FontSpec::default(), FontSpec::default().styled(true, false));
        let shape = |t: &str, f: &FontSpec| shaped(t, f, &book).unwrap();
        // Two words 40 mm apart with a space between them, and a bold word.
        let first = shape("Memphis", &regular);
        let mut run = GlyphRun::new(first.face, 5.0, (10.0, 20.0), [0x20, 0x40, 0x60]);
        run.push("Memphis", &first);
        run.push(" ", &shape(" ", &regular));
        run.advance_to(40.0);
        run.push("Denver", &shape("Denver", &regular));
        let tulsa = shape("Tulsa", &bold);
        let mut run2 = GlyphRun::new(tulsa.face, 4.0, (20.0, 40.0), [0, 0, 0]);
        run2.push("Tulsa", &tulsa);
        let size = crate::model::Size {
            width: 100.0,
            height: 50.0,
        };
        let tree = usvg::Tree::from_str(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="100mm" height="50mm" viewBox="0 0 100 50"/>"#,
            &usvg::Options::default(),
        )
        .unwrap();
        let stack =
            super::super::Stack::with_texts(std::sync::Arc::new(tree), vec![run, run2].into());
        let pdf = write(&Job {
            title: "t",
            sheets: &[crate::layout::one_up(0, size, 0.0, "x")],
            faces: &|_| Some(stack.clone()),
            drawn: &|_| {},
            digests: &Digests::default(),
            bookmarks: &[],
            compress: true,
            print: None,
            store_face: None,
        })
        .unwrap();
        let found = words(&pdf);
        assert_eq!(found.len(), 3, "{found:?}");
        for (word, at, baseline) in [
            ("Memphis", 10.0, 20.0),
            ("Denver", 50.0, 20.0),
            ("Tulsa", 20.0, 40.0),
        ] {
            let (at, baseline) = (mm_to_pt(at), mm_to_pt(baseline));
            let (_, x, top, bottom) = found.iter().find(|w| w.0 == word).unwrap();
            assert!((x - at).abs() < 0.01, "{found:?}: {word} at {at} pt");
            assert!(*top < baseline && baseline < *bottom, "{found:?}");
        }
        // The space is in the text: a reader finds the two words as a phrase.
        let text = pdftotext(&pdf, &["-raw"]);
        assert!(text.contains("Memphis Denver"), "{text:?}");
    }
}
