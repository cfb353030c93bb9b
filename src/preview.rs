//! The live preview's view of one build (`cardstock serve`): every face with the
//! data it shows and where it prints, the pages of the print profile, the
//! diagnostics, and each face as PNG from the same pipeline as
//! `cardstock build --format png` (usvg + resvg, same size, same bytes).
//!
//! Everything is read through the [`Project`] (no file is opened here). The
//! server reads the engine only through this module:
//! [`build`] runs the pipeline without encoding any file, [`Preview`] is what the
//! page shows (it serialises to the JSON the page reads), and [`Preview::png`]
//! rasterises one picture by its content hash.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Mutex;

use serde::Serialize;

use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::export::png::PngError;
use crate::faces::{FaceStore, ParseCache, Rendered};
use crate::hex;
use crate::model::Game;
use crate::options::Resolved;
use crate::pipeline::{self, Built, Finished, Incremental};
use crate::project::Project;

/// Resolution of the sheet-mark images drawn over a sheet's faces.
pub const MARKS_DPI: f64 = 72.0;

/// One build of one game, as the page shows it.
#[derive(Debug, Serialize)]
pub struct Preview {
    /// Folder name under `data/`.
    pub game: String,
    /// The game's name, once its `game.toml` loaded.
    pub name: Option<String>,
    /// Print profile id and name.
    pub profile: String,
    pub profile_name: String,
    /// No error: these faces are current. With errors, `faces` and `sheets` are
    /// empty (the page keeps the last good ones) and `diagnostics` say why.
    pub ok: bool,
    /// Wall time of the build, in ms.
    pub took_ms: f64,
    /// Wall time of each stage of the build, in ms, in order (`serve --timings`).
    #[serde(skip)]
    pub timings: Vec<(&'static str, f64)>,
    /// Resolution of the face images.
    pub dpi: f64,
    pub sets: Vec<Set>,
    pub faces: Vec<Face>,
    pub sheets: Vec<Sheet>,
    /// The rulebook's pages, in reading order (none without a `rules.md`).
    pub rulebook: Vec<RulebookPage>,
    pub diagnostics: Vec<Diag>,
    /// With a CMYK profile: its printing condition. The face images are then
    /// the soft proof (each face as it will print) and each face lists the
    /// colours that move visibly in print.
    pub proof: Option<String>,
    #[serde(skip)]
    pictures: HashMap<String, Picture>,
    #[serde(skip)]
    press: Option<std::sync::Arc<crate::color::Press>>,
}

/// A page of the rulebook: a picture of it at the preview's resolution.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RulebookPage {
    /// 1-based.
    pub number: usize,
    /// Content hash of its picture (its text and the pictures of its figures).
    pub hash: String,
    pub size_mm: [f64; 2],
}

/// A component set.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Set {
    pub id: String,
    pub name: String,
    pub kind: String,
    /// Distinct faces and printed parts.
    pub faces: usize,
    pub parts: u64,
    /// The rulebook's count, from `[contents]`.
    pub expected: Option<i64>,
}

/// One face: a front of every row, and each distinct back of a set.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Face {
    /// Stable id: `contracts/012-front` (set, 1-based position, side); the name of
    /// the face's file in `build --format png` when the picture is not shared.
    pub id: String,
    /// Content hash of the picture (SVG text, size, resolution, linked images):
    /// changes exactly when the image does. [`Preview::png`] takes it.
    pub hash: String,
    /// Component set id and name.
    pub set: String,
    pub set_name: String,
    /// `front` or `back`.
    pub side: &'static str,
    /// The row, e.g. "contract #12" or "city `seattle` goods 2".
    pub label: String,
    /// The data row (fields and derived fields), or null.
    pub data: serde_json::Value,
    /// With `expand`: the list element this face shows, or null.
    pub item: serde_json::Value,
    /// Where the row is written.
    pub source: Option<Location>,
    /// The template (or art file), relative to the project.
    pub template: String,
    /// Trim size and bleed, in mm.
    pub trim_mm: [f64; 2],
    pub bleed_mm: f64,
    /// Cut shape: rect, rounded, round or triangle.
    pub shape: &'static str,
    /// Printed copies (a shared back: the copies of every face it backs).
    pub copies: u64,
    /// Image size in pixels (bleed included).
    pub px: [u32; 2],
    /// The files (and PDF pages) it prints on.
    pub prints: Vec<Place>,
    /// Its part's revision (`face.revision`).
    pub revision: u32,
    /// The print record the preview compares with (the last one), if any.
    pub since: Option<u32>,
    /// What changed on this face since that print (`new`, the changed values, the
    /// template...); null when nothing did.
    pub changed: Option<String>,
    /// With a CMYK profile: the face's colours that print visibly different
    /// (CIEDE2000 above 5), most moved first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub moved: Vec<Moved>,
}

/// A colour of a face and how it prints.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Moved {
    /// On screen, `#rrggbb`.
    pub screen: String,
    /// As it prints, back on screen (the soft proof), `#rrggbb`.
    pub print: String,
    /// The inks, percent.
    pub cmyk: [f64; 4],
    /// CIEDE2000 between the two.
    pub delta_e: f64,
}

/// The colours of `svg` that move more than [`crate::color::VISIBLE_MOVE`] in print.
fn moved(press: Option<&crate::color::Press>, svg: &str) -> Vec<Moved> {
    let Some(press) = press else {
        return Vec::new();
    };
    let hex = |c: [u8; 3]| format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2]);
    let mut out: Vec<Moved> = crate::export::cmyk::colors(svg)
        .into_iter()
        .filter_map(|rgb| {
            let role = crate::color::Role::Area {
                width: 10.0,
                height: 10.0,
            };
            let delta_e = press.moved(rgb, role);
            let cmyk = press.convert(rgb, role);
            (delta_e > crate::color::VISIBLE_MOVE).then(|| Moved {
                screen: hex(rgb),
                print: hex(press.proof(cmyk)),
                cmyk: cmyk.0.map(|v| (f64::from(v) / 2.55).round()),
                delta_e: (delta_e * 10.0).round() / 10.0,
            })
        })
        .collect();
    out.sort_by(|a, b| b.delta_e.total_cmp(&a.delta_e));
    out
}

/// A file position: 1-based line and column of a text file (TOML, CSV), or row
/// and column of a workbook's sheet.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Location {
    pub file: String,
    /// The workbook's sheet.
    pub sheet: Option<String>,
    pub line: usize,
    pub column: usize,
}

/// An output file and the pages of it a face is on (none for an image file).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Place {
    pub file: String,
    pub pages: Vec<usize>,
}

/// One page of the profile's files (or one image file).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Sheet {
    pub file: String,
    /// 1-based page in a PDF; none for an image file.
    pub page: Option<usize>,
    pub label: String,
    /// Paper size in mm, for PDF pages.
    pub size_mm: Option<[f64; 2]>,
    /// Hash of the picture of the marks, cut lines and labels drawn over the faces.
    pub marks: Option<String>,
    /// The faces on it, in order.
    pub placements: Vec<Placement>,
}

/// A face on a sheet (mm from the sheet's top-left corner).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Placement {
    /// Face id and picture hash.
    pub face: String,
    pub hash: String,
    /// Where the picture (bleed included) goes, and its size.
    pub rect: [f64; 4],
    /// The part of the page that shows it.
    pub clip: [f64; 4],
    /// Drawn upside down (gutterfold backs).
    pub rotate: bool,
    /// The map from the picture (mm, from its top-left corner, unturned) to the
    /// page, `[a, b, c, d, e, f]` as CSS `matrix()` takes it: parts laid sideways
    /// are turned a quarter.
    pub matrix: [f64; 6],
}

/// One problem of the build, positioned for the page.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Diag {
    /// `error` or `warning`.
    pub severity: &'static str,
    pub message: String,
    /// File, 1-based line and column (as the terminal shows them).
    pub file: Option<String>,
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// The source line, and how many characters from `column` the problem spans.
    pub source_line: Option<String>,
    pub span_chars: usize,
    pub label: Option<String>,
    pub hint: Option<String>,
    /// What it is about: `component: contracts`, `row: contract #12`...
    pub context: Vec<(String, String)>,
}

/// What a hash names: a face (parsed) or a sheet's marks.
#[derive(Debug)]
enum Picture {
    Face {
        picture: crate::export::Stack,
        w_mm: f64,
        h_mm: f64,
    },
    Marks(Box<crate::layout::Sheet>),
    /// A rulebook page: its sheet and the pictures its placements name.
    Page(Box<crate::layout::Sheet>, Vec<crate::export::Stack>),
}

impl Preview {
    /// The picture named `hash` as PNG: a face at the preview's resolution,
    /// rendered exactly as `build --format png --dpi <dpi>` renders it (same
    /// bytes: the export's encoding is already fdeflate's fast one, and the
    /// fastest one with the `Up` filter measured only 0.1 to 0.4 ms a face
    /// quicker), or a sheet's marks at [`MARKS_DPI`]. `None` if no picture of
    /// this build has that hash.
    pub fn png(&self, hash: &str) -> Option<Result<Vec<u8>, PngError>> {
        Some(match self.pictures.get(hash)? {
            Picture::Face {
                picture,
                w_mm,
                h_mm,
            } => match &self.press {
                Some(press) => {
                    crate::export::png::write_proof(picture, *w_mm, *h_mm, self.dpi, press)
                }
                None => crate::export::png::write(picture, *w_mm, *h_mm, self.dpi),
            },
            Picture::Marks(sheet) => crate::export::png::marks(sheet, MARKS_DPI),
            Picture::Page(sheet, stacks) => {
                crate::export::png::sheet(sheet, &|i| stacks.get(i).cloned(), self.dpi)
                    .and_then(|p| crate::export::png::encode(&p))
            }
        })
    }

    /// The hashes of every picture of this build (faces and sheet marks).
    pub fn hashes(&self) -> impl Iterator<Item = &str> {
        self.pictures.keys().map(String::as_str)
    }
}

/// What one game's previews keep between builds, each bounded to the faces of
/// the last good build: rendered faces with what their templates read, parsed
/// faces and their preflight findings, `[[assert]]`s that held and the typeset
/// rulebook, so an edit renders, parses and checks only the faces it changed,
/// runs only the assertions that read what it changed and typesets the rulebook
/// only when it read what changed, and the last build's pictures by
/// hash, so unchanged ones are shared rather than copied (and keep their hash, so
/// the page is not sent them again). Keep one per game, and call
/// [`Cache::images_changed`] when an image file changed.
#[derive(Default)]
pub struct Cache {
    parsed: ParseCache,
    preflight: crate::preflight::Cache,
    trees: Mutex<HashMap<String, crate::export::Stack>>,
    rendered: crate::render::RenderCache,
    asserts: crate::check::AssertCache,
    derives: crate::check::DeriveCache,
    rulebook: crate::rulebook::RulebookCache,
    templates: crate::template::TemplateCache,
    strings: crate::check::typed_twice::DataStrings,
    game_file: crate::model::GameFileCache,
    /// The last build's rulebook pages, parsed, by picture hash.
    pages: Mutex<HashMap<String, (crate::layout::Sheet, Vec<crate::export::Stack>)>>,
}

impl Cache {
    /// An image file was added, changed or removed. Parsed faces and preflight
    /// findings are kept by SVG text and fonts, which do not show that: they are
    /// dropped (the next build parses every face again). Pictures are not: a
    /// face's hash covers the images it links to, so only the faces that use a
    /// changed image get a new one.
    pub fn images_changed(&mut self) {
        self.parsed = ParseCache::default();
        self.preflight = crate::preflight::Cache::default();
    }

    /// Faces parsed and faces preflighted by the last build (the rest were kept).
    pub fn last_work(&self) -> (usize, usize) {
        use std::sync::atomic::Ordering::Relaxed;
        (
            self.parsed.made.load(Relaxed),
            self.preflight.made.load(Relaxed),
        )
    }

    /// Sides and layers the last build rendered, and those it kept from the build
    /// before because nothing their templates read changed.
    pub fn last_renders(&self) -> (usize, usize) {
        use std::sync::atomic::Ordering::Relaxed;
        let r = &self.rendered;
        (r.made.load(Relaxed), r.reused.load(Relaxed))
    }

    /// `[[assert]]`s the last build ran, and those it kept from the build before
    /// because they held and nothing they read changed.
    pub fn last_asserts(&self) -> (usize, usize) {
        use std::sync::atomic::Ordering::Relaxed;
        let a = &self.asserts;
        (a.made.load(Relaxed), a.reused.load(Relaxed))
    }

    /// `[[derive]]` rows the last build ran the formula of, and those whose
    /// value it kept from the build before because nothing it read changed.
    pub fn last_derives(&self) -> (usize, usize) {
        use std::sync::atomic::Ordering::Relaxed;
        let d = &self.derives;
        (d.made.load(Relaxed), d.reused.load(Relaxed))
    }

    /// Whether the last build took its rulebook from the build before (nothing
    /// it reads changed) rather than typesetting it.
    pub fn rulebook_kept(&self) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        self.rulebook.reused.load(Relaxed) > 0
    }

    /// Whether the last build took the templates compiled by the build before
    /// (none of their files changed).
    pub fn templates_kept(&self) -> bool {
        self.templates.was_kept()
    }

    /// Whether the last build took `game.toml`'s definitions parsed by the
    /// build before (its text had not changed).
    pub fn game_file_kept(&self) -> bool {
        self.game_file.was_kept()
    }
}

/// Builds game `id` of `project` for the preview: the whole pipeline except
/// encoding files, with the options `serve` resolved
/// ([`crate::options::Asked::resolve`] for the screen). Give it a fresh project
/// (`Project::fresh`) for every build.
pub fn build(project: &Project, id: &str, opts: &Resolved, cache: &Cache) -> Preview {
    let start = std::time::Instant::now();
    let mut preview = Preview::empty(id, opts.options.dpi);
    let Some(popts) = game_options(project, id, opts, &mut preview) else {
        return preview;
    };
    let options_ms = start.elapsed().as_secs_f64() * 1000.0;
    cache.start_counting();
    let (built, seen, pages) = run(project, id, &popts, cache, &preview);
    let kept = std::time::Instant::now();
    preview.name = built.name.clone();
    preview.timings = std::iter::once(("options", options_ms))
        .chain(
            built
                .timings
                .iter()
                .map(|(n, d)| (*n, d.as_secs_f64() * 1000.0)),
        )
        .collect();
    preview.ok = seen.is_some() && !built.diags.has_errors();
    if let (true, Some(seen)) = (preview.ok, seen) {
        keep_good(&mut preview, cache, seen, pages);
        preview.sets = sets(&built, &preview.faces);
    }
    preview.diagnostics = diags(project, built.diags);
    let kept = kept.elapsed().as_secs_f64() * 1000.0;
    preview.timings.push(("kept for the page", kept));
    preview.took_ms = (start.elapsed().as_secs_f64() * 10_000.0).round() / 10.0;
    preview
}

impl Preview {
    /// A preview of game `id` with nothing in it yet.
    fn empty(id: &str, dpi: f64) -> Preview {
        Preview {
            game: id.to_string(),
            name: None,
            profile: String::new(),
            profile_name: String::new(),
            ok: false,
            took_ms: 0.0,
            timings: Vec::new(),
            dpi,
            sets: Vec::new(),
            faces: Vec::new(),
            sheets: Vec::new(),
            rulebook: Vec::new(),
            diagnostics: Vec::new(),
            proof: None,
            pictures: HashMap::new(),
            press: None,
        }
    }
}

/// The options of game `id` for the preview ([`Resolved::for_game`], encoding
/// nothing), with its profile and soft proof noted in `preview`; `None`, with
/// the problems in `preview`, when they had an error.
fn game_options(
    project: &Project,
    id: &str,
    opts: &Resolved,
    preview: &mut Preview,
) -> Option<crate::options::Options> {
    let resolved = opts.for_game(project, id);
    let Some(game) = resolved.value else {
        preview.diagnostics = diags(project, resolved.diags);
        return None;
    };
    preview.profile = game.profile.id.clone();
    preview.profile_name = game.profile.name.clone();
    if let Some(color) = &game.profile.print {
        match crate::color::Press::for_color(color) {
            Ok(p) => {
                preview.proof = Some(color.condition.name.to_string());
                preview.press = Some(p);
            }
            Err(e) => {
                let mut ds = Diagnostics::default();
                ds.push(Diagnostic::error(e.to_string()).with("game", id));
                preview.diagnostics = diags(project, ds);
                return None;
            }
        }
    }
    Some(crate::options::Options {
        pdf: true,
        svg: false,
        png: false,
        compress: false,
        encode: false,
        ..game
    })
}

impl Cache {
    /// Sets the counts of faces parsed and preflighted to 0, for a new build.
    fn start_counting(&self) {
        use std::sync::atomic::Ordering::Relaxed;
        let counters = [&self.parsed.made, &self.parsed.reused];
        let checks = [&self.preflight.made, &self.preflight.reused];
        counters
            .iter()
            .chain(&checks)
            .for_each(|c| c.store(0, Relaxed));
    }
}

/// Runs the pipeline for the preview and reads what the page shows out of a
/// finished build: its faces, sheets and pictures, and the rulebook's pages.
fn run(
    project: &Project,
    id: &str,
    popts: &crate::options::Options,
    cache: &Cache,
    preview: &Preview,
) -> (Built, Option<Read>, Vec<(RulebookPage, Picture)>) {
    let (dpi, press) = (preview.dpi, preview.press.as_deref());
    // A face whose picture the last good build had parsed without a problem (its
    // tree is kept) is not parsed again.
    let images = Mutex::new(crate::image::Linked::new(project, id));
    // Each face's picture hash, made here once for the page to reuse.
    let made = Mutex::new(BTreeMap::new());
    let known = |store: &FaceStore, i: usize| {
        let hash = picture_hash(store, i, dpi, press, &images);
        let known = cache.trees.lock().is_ok_and(|t| t.contains_key(&hash));
        if let Ok(mut made) = made.lock() {
            made.insert(i, hash);
        }
        known
    };
    let incremental = Incremental {
        parsed: Some(&cache.parsed),
        preflight: Some(&cache.preflight),
        known_good: Some(&known),
        rendered: Some(&cache.rendered),
        asserts: Some(&cache.asserts),
        derives: Some(&cache.derives),
        rulebook: Some(&cache.rulebook),
        templates: Some(&cache.templates),
        strings: Some(&cache.strings),
        game_file: Some(&cache.game_file),
        ..Incremental::default()
    };
    let folder = popts.folder();
    let mut seen = None;
    let mut pages = Vec::new();
    let (mut built, finished) = pipeline::build_choosing(
        project,
        id,
        popts,
        incremental,
        crate::output::Sink::Memory,
        |_, _| true.into(),
    );
    if let Some(Finished { checked, rendered }) = &finished {
        let start = std::time::Instant::now();
        let (game, r) = (&checked.game, rendered);
        let last = checked.last.as_ref();
        let since = crate::prints::since_last(
            project,
            game,
            &checked.tpl,
            last,
            r,
            &built.printed,
            &folder,
        )
        .map(|c| (last.map_or(0, |l| l.number), c));
        built.time("since last print", start);
        let start = std::time::Instant::now();
        let made = made.lock().map(|mut m| std::mem::take(&mut *m));
        seen = Some(read(
            project,
            game,
            r,
            &built,
            (dpi, press),
            cache,
            (&images, made.unwrap_or_default()),
            since.as_ref(),
        ));
        built.time("faces and sheets", start);
        let start = std::time::Instant::now();
        pages = rulebook_pages(game, r, &built, (dpi, cache), &images);
        built.time("rulebook pages", start);
    }
    // The faces' trees the page does not keep go now, not at the end; the
    // checked game on a thread of its own (the save need not wait for it).
    let start = std::time::Instant::now();
    if let Some(Finished { checked, rendered }) = finished {
        free_apart(checked);
        drop(rendered);
    }
    built.time("free", start);
    (built, seen, pages)
}

/// Drops `value` on a thread of its own (here if none can be started): a
/// checked game, its contexts and templates take a millisecond or two to
/// free, which the page need not wait for.
fn free_apart<T: Send + 'static>(value: T) {
    // When no thread can be started, the closure is dropped here, and `value`
    // with it.
    let _ = std::thread::Builder::new()
        .name("free".into())
        .spawn(move || drop(value));
}

/// Puts a good build's faces, sheets and pictures into `preview`, and keeps in
/// `cache` only what this build used.
fn keep_good(
    preview: &mut Preview,
    cache: &Cache,
    (faces, sheets, pictures): Read,
    pages: Vec<(RulebookPage, Picture)>,
) {
    // Parsed trees the build did not use are faces edited away.
    cache.parsed.keep_used();
    cache.preflight.keep_used();
    if let Ok(mut trees) = cache.trees.lock() {
        trees.retain(|h, _| pictures.contains_key(h));
    }
    preview.faces = faces;
    preview.sheets = sheets;
    preview.pictures = pictures;
    for (page, picture) in pages {
        preview.pictures.insert(page.hash.clone(), picture);
        preview.rulebook.push(page);
    }
}

/// The component sets of a build, named as their faces are.
fn sets(built: &Built, faces: &[Face]) -> Vec<Set> {
    built
        .counts
        .iter()
        .map(|c| Set {
            id: c.id.clone(),
            name: faces
                .iter()
                .find(|f| f.set == c.id)
                .map(|f| f.set_name.clone())
                .unwrap_or_else(|| c.id.clone()),
            kind: c.kind.name().to_string(),
            faces: c.faces,
            parts: c.parts,
            expected: c.expected,
        })
        .collect()
}

type Read = (Vec<Face>, Vec<Sheet>, HashMap<String, Picture>);

/// The rulebook's pages of a finished build, each with its picture: parsed
/// again only when a page's hash is new (its text, the pictures of its figures,
/// the resolution: what its image shows), else the picture `cache` kept from
/// the build before.
fn rulebook_pages(
    game: &Game,
    r: &Rendered,
    built: &Built,
    (dpi, cache): (f64, &Cache),
    images: &Mutex<crate::image::Linked>,
) -> Vec<(RulebookPage, Picture)> {
    let Some(book) = &built.rulebook else {
        return Vec::new();
    };
    let hashes: Vec<String> = book
        .pages
        .iter()
        .map(|page| page_hash(page, r, dpi, images))
        .collect();
    let Ok(mut kept) = cache.pages.lock() else {
        return Vec::new();
    };
    if !hashes.iter().all(|h| kept.contains_key(h)) {
        let Ok(sheets) = crate::deliver::rulebook::pages(game, r, book) else {
            return Vec::new();
        };
        *kept = hashes.iter().cloned().zip(sheets).collect();
    }
    book.pages
        .iter()
        .zip(hashes)
        .filter_map(|(page, hash)| {
            let (sheet, stacks) = kept.get(&hash)?.clone();
            let entry = RulebookPage {
                number: page.number,
                hash,
                size_mm: [sheet.width, sheet.height],
            };
            Some((entry, Picture::Page(Box::new(sheet), stacks)))
        })
        .collect()
}

/// A rulebook page's picture hash: its text, the fonts it is drawn with, the
/// pictures of its figures and where they go, the resolution and the cardstock
/// version.
fn page_hash(
    page: &crate::rulebook::Page,
    r: &Rendered,
    dpi: f64,
    images: &Mutex<crate::image::Linked>,
) -> String {
    use sha2::Digest;
    let mut hasher = sha2::Sha256::new();
    hasher.update(page.svg.as_deref().unwrap_or_default().as_bytes());
    for f in &page.figures {
        let face = crate::deliver::rulebook::face_index(r, f.face);
        let picture = face.map(|i| picture_hash(&r.store, i, dpi, None, images));
        hasher.update(format!("|{picture:?}|{:?}|{:?}", f.picture, f.clip).as_bytes());
    }
    let fonts = r.store.fonts().fingerprint();
    let version = env!("CARGO_PKG_VERSION");
    hasher.update(format!("|page|{dpi}|{fonts}|{version}").as_bytes());
    hex::encode(&hasher.finalize()[..16])
}

/// Reads the faces, sheets and pictures out of a finished build.
#[allow(clippy::too_many_arguments)]
fn read(
    project: &Project,
    game: &Game,
    r: &Rendered,
    built: &Built,
    (dpi, press): (f64, Option<&crate::color::Press>),
    cache: &Cache,
    (images, made): (&Mutex<crate::image::Linked>, BTreeMap<usize, String>),
    since: Option<&(u32, crate::prints::Changes)>,
) -> Read {
    let mut reader = Reader {
        project,
        game,
        r,
        dpi,
        press,
        since,
        images,
        made,
        prints: places(built),
        hashes: BTreeMap::new(),
        first_id: BTreeMap::new(),
    };
    let mut faces: Vec<Face> = Vec::new();
    for ci in 0..game.components.len() {
        faces.append(&mut reader.set_faces(ci));
    }
    let Some(mut pictures) = face_pictures(cache, r, &reader.hashes) else {
        return (faces, Vec::new(), HashMap::new());
    };
    let sheets = sheets(built, &reader, &mut pictures);
    (faces, sheets, pictures)
}

/// Where each picture of a build prints: picture -> files and their pages.
fn places(built: &Built) -> BTreeMap<usize, Vec<Place>> {
    let mut prints: BTreeMap<usize, Vec<Place>> = BTreeMap::new();
    for p in &built.printed {
        for &f in &p.faces {
            let places = prints.entry(f).or_default();
            match places.iter_mut().find(|pl| pl.file == p.file) {
                Some(pl) => {
                    if let Some(n) = p.page.filter(|n| !pl.pages.contains(n)) {
                        pl.pages.push(n);
                    }
                }
                None => places.push(Place {
                    file: p.file.clone(),
                    pages: p.page.into_iter().collect(),
                }),
            }
        }
    }
    prints
}

/// What reading a build's faces needs, and what it finds on the way: each
/// picture's hash and the id of the first face showing it.
struct Reader<'a, 'r, 'i> {
    project: &'a Project,
    game: &'a Game,
    r: &'a Rendered<'r>,
    dpi: f64,
    press: Option<&'a crate::color::Press>,
    since: Option<&'a (u32, crate::prints::Changes)>,
    images: &'a Mutex<crate::image::Linked<'i>>,
    /// Where each picture prints ([`places`]).
    prints: BTreeMap<usize, Vec<Place>>,
    /// Picture hashes made before (to see which trees were kept), by face.
    made: BTreeMap<usize, String>,
    /// Each picture's hash, made when first asked (or taken from `made`).
    hashes: BTreeMap<usize, String>,
    /// The id of the first face showing each picture.
    first_id: BTreeMap<usize, String>,
}

/// What the faces of one slot (a row's front and its back) show of their row.
struct RowView {
    data: serde_json::Value,
    item: serde_json::Value,
    source: Option<Location>,
    /// The art file of an art front.
    art: Option<String>,
    /// What changed on the part since the last print.
    changed: Option<(String, bool)>,
}

impl Reader<'_, '_, '_> {
    /// The hash of picture `i`.
    fn hash(&mut self, i: usize) -> String {
        let (r, dpi, press, images) = (self.r, self.dpi, self.press, self.images);
        let made = &mut self.made;
        self.hashes
            .entry(i)
            .or_insert_with(|| {
                made.remove(&i)
                    .unwrap_or_else(|| picture_hash(&r.store, i, dpi, press, images))
            })
            .clone()
    }

    /// The faces of set `ci`: a front of every slot, then each distinct back once
    /// (with the copies of every face it backs).
    fn set_faces(&mut self, ci: usize) -> Vec<Face> {
        let (game, r) = (self.game, self.r);
        let comp = &game.components[ci];
        let table = comp
            .def
            .table
            .as_ref()
            .and_then(|t| game.tables.get(t.get_ref()));
        let mut faces = Vec::new();
        // Each distinct back once, after the fronts: (picture, faces it backs).
        let mut backs: Vec<(usize, usize)> = Vec::new();
        let mut back_faces: Vec<Face> = Vec::new();
        for (i, s) in r.slots[ci].iter().enumerate() {
            let row = self.row_view(ci, i, s, table);
            faces.push(self.face(ci, i, s, (s.front, "front"), &row));
            let Some(b) = s.back else { continue };
            match backs.iter().position(|(p, _)| *p == b) {
                Some(k) => {
                    back_faces[k].copies += s.plan.qty as u64;
                    backs[k].1 += 1;
                }
                None => {
                    backs.push((b, 1));
                    back_faces.push(self.face(ci, i, s, (b, "back"), &row));
                }
            }
        }
        for (f, (_, n)) in back_faces.iter_mut().zip(&backs).filter(|(_, b)| b.1 > 1) {
            // A back shared by several faces belongs to none of their rows.
            f.label = format!("back of {n} faces");
            f.data = serde_json::Value::Null;
            f.item = serde_json::Value::Null;
            f.source = None;
        }
        faces.append(&mut back_faces);
        faces
    }

    /// What slot `i` of set `ci` shows of its row.
    fn row_view(
        &self,
        ci: usize,
        i: usize,
        s: &crate::faces::Slot,
        table: Option<&crate::model::Table>,
    ) -> RowView {
        let row = s.plan.row.and_then(|k| Some((table?, k)));
        let part = self.since.and_then(|(_, c)| c.of(ci, i));
        RowView {
            data: row
                .and_then(|(t, k)| t.rows.get(k))
                .map(row_json)
                .unwrap_or(serde_json::Value::Null),
            item: s
                .plan
                .item
                .as_ref()
                .map(json)
                .unwrap_or(serde_json::Value::Null),
            source: row.and_then(|(t, k)| row_location(self.project, t, k)),
            art: crate::render::art_file(&s.plan).map(display),
            changed: part.map(|p| (p.summary(), p.back)),
        }
    }

    /// The face showing picture `pic` on `side` of slot `i` of set `ci`.
    fn face(
        &mut self,
        ci: usize,
        i: usize,
        s: &crate::faces::Slot,
        (pic, side): (usize, &'static str),
        row: &RowView,
    ) -> Face {
        let (game, r, dpi) = (self.game, self.r, self.dpi);
        let comp = &game.components[ci];
        let id = format!("{}/{:03}-{side}", comp.id(), i + 1);
        self.first_id.entry(pic).or_insert_with(|| id.clone());
        let (w, h) = r.store.sizes[pic];
        let template = match (&row.art, side) {
            (Some(a), "front") => a.clone(),
            _ => template_path(
                game,
                &if side == "front" {
                    comp.front_name()
                } else {
                    comp.back_name()
                },
            ),
        };
        Face {
            id,
            hash: self.hash(pic),
            set: comp.id().to_string(),
            set_name: comp.name(),
            side,
            label: s.plan.name.clone(),
            data: row.data.clone(),
            item: row.item.clone(),
            source: row.source.clone(),
            template,
            trim_mm: [comp.size.width, comp.size.height],
            bleed_mm: comp.bleed,
            shape: shape_name(s.plan.shape),
            copies: s.plan.qty as u64,
            px: [
                crate::units::mm_to_px(w, dpi).round().max(1.0) as u32,
                crate::units::mm_to_px(h, dpi).round().max(1.0) as u32,
            ],
            prints: self.prints.get(&pic).cloned().unwrap_or_default(),
            moved: moved(self.press, &r.store.svg(pic)),
            revision: s.plan.revision,
            since: self.since.map(|(n, _)| *n),
            changed: row
                .changed
                .as_ref()
                .filter(|(_, back)| side == "front" || *back)
                .map(|(summary, _)| summary.clone()),
        }
    }
}

/// The pictures of the faces `hashes` names, each tree shared with the last
/// build's when it had the same hash; `None` if the cache is poisoned.
fn face_pictures(
    cache: &Cache,
    r: &Rendered,
    hashes: &BTreeMap<usize, String>,
) -> Option<HashMap<String, Picture>> {
    let mut pictures = HashMap::new();
    let mut trees = cache.trees.lock().ok()?;
    for (&i, hash) in hashes {
        // The tree of a picture the last build had too is shared, not copied.
        let picture = match trees.get(hash) {
            Some(t) => t.clone(),
            None => match r.store.picture(i) {
                Some(t) => trees.entry(hash.clone()).or_insert(t).clone(),
                None => continue,
            },
        };
        let (w_mm, h_mm) = r.store.sizes[i];
        pictures.insert(
            hash.clone(),
            Picture::Face {
                picture,
                w_mm,
                h_mm,
            },
        );
    }
    Some(pictures)
}

/// The pages of the profile's files (and its image files), each with its faces;
/// the pictures of their marks go into `pictures`.
fn sheets(built: &Built, faces: &Reader, pictures: &mut HashMap<String, Picture>) -> Vec<Sheet> {
    let placed = |f: usize| {
        (
            faces.first_id.get(&f).cloned().unwrap_or_default(),
            faces.hashes.get(&f).cloned().unwrap_or_default(),
        )
    };
    let mut sheets = Vec::new();
    for p in &built.printed {
        let mut sheet = Sheet {
            file: p.file.clone(),
            page: p.page,
            label: p.label.clone(),
            size_mm: None,
            marks: None,
            placements: Vec::new(),
        };
        match &p.sheet {
            Some(s) => {
                sheet.size_mm = Some([s.width, s.height]);
                let marks = marks_hash(s);
                pictures.entry(marks.clone()).or_insert_with(|| {
                    Picture::Marks(Box::new(crate::layout::Sheet {
                        placements: Vec::new(),
                        ..s.clone()
                    }))
                });
                sheet.marks = Some(marks);
                for pl in &s.placements {
                    let (face, hash) = placed(pl.face);
                    sheet.placements.push(Placement {
                        face,
                        hash,
                        rect: [pl.x, pl.y, pl.w, pl.h].map(mm),
                        clip: [pl.clip.x, pl.clip.y, pl.clip.w, pl.clip.h].map(mm),
                        rotate: pl.rotate180,
                        matrix: pl.matrix().map(mm),
                    });
                }
            }
            None => {
                // An image file: its faces in a row, for the list.
                for &f in &p.faces {
                    let (face, hash) = placed(f);
                    sheet.placements.push(Placement {
                        face,
                        hash,
                        rect: [0.0; 4],
                        clip: [0.0; 4],
                        rotate: false,
                        matrix: [1.0, 0.0, 0.0, 1.0, 0.0, 0.0],
                    });
                }
            }
        }
        sheets.push(sheet);
    }
    sheets
}

/// A template name as a project path: `templates/<game>/card.svg`, or
/// `templates/common/...` for shared ones.
fn template_path(game: &Game, name: &str) -> String {
    if name.starts_with("common/") {
        format!("templates/{name}")
    } else {
        format!("templates/{}/{name}", game.id)
    }
}

fn shape_name(s: crate::model::Shape) -> &'static str {
    use crate::model::Shape;
    match s {
        Shape::Rect => "rect",
        Shape::Rounded => "rounded",
        Shape::Round => "round",
        Shape::Triangle => "triangle",
    }
}

/// A length rounded to a micrometre (layout sums leave float noise).
fn mm(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

fn json(v: &minijinja::Value) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}

/// A data row as JSON: its fields, then its derived fields.
fn row_json(row: &crate::model::Row) -> serde_json::Value {
    let mut out = serde_json::Map::new();
    let fields = row.fields.iter().map(|(k, f)| (k, &f.value));
    for (k, v) in fields.chain(&row.derived) {
        out.insert(
            k.clone(),
            serde_json::to_value(v).unwrap_or(serde_json::Value::Null),
        );
    }
    serde_json::Value::Object(out)
}

/// Where row `k` of table `t` is written: its line and column in a text file
/// (TOML or CSV); in a workbook, its sheet, row and first column.
fn row_location(project: &Project, t: &crate::model::Table, k: usize) -> Option<Location> {
    let row = t.rows.get(k)?;
    if let Some((sheet, _)) = &t.sheet {
        let first = row.fields.values().filter_map(|f| f.column).min();
        return Some(Location {
            file: display(&t.file),
            sheet: Some(sheet.clone()),
            line: row.line? as usize,
            column: first.map_or(1, |c| c as usize + 1),
        });
    }
    let text = project.source(&t.file)?;
    let (line, column, _) = position(&text, row.span.start)?;
    Some(Location {
        file: display(&t.file),
        sheet: None,
        line,
        column,
    })
}

/// The hash of picture `i` of `store` at `dpi` (a soft proof through `press`).
fn picture_hash(
    store: &FaceStore,
    i: usize,
    dpi: f64,
    press: Option<&crate::color::Press>,
    images: &Mutex<crate::image::Linked>,
) -> String {
    let (w, h) = store.sizes[i];
    let linked = images
        .lock()
        .map(|mut v| v.of(&store.svg(i)))
        .unwrap_or_default();
    let proof = press.map(|p| format!("{:?}", p.color)).unwrap_or_default();
    let salt = format!("{}|{linked}|{proof}", store.fonts().fingerprint());
    face_hash(&store.text_hash(i), w, h, dpi, &salt)
}

/// A face's picture hash: its SVG text (by the SHA-256 the face store took of
/// it), size, resolution and the cardstock version, and `salt` (the fonts and the
/// images it links to, which change the picture without changing the text).
fn face_hash(text: &[u8; 32], w: f64, h: f64, dpi: f64, salt: &str) -> String {
    use sha2::Digest;
    let mut hasher = sha2::Sha256::new();
    hasher.update(text);
    hasher.update(format!("|{w}|{h}|{dpi}|{salt}|{}", env!("CARGO_PKG_VERSION")).as_bytes());
    hex::encode(&hasher.finalize()[..16])
}

/// A sheet's marks' hash: the marks, the sheet's size and the resolution.
fn marks_hash(sheet: &crate::layout::Sheet) -> String {
    use sha2::Digest;
    let mut hasher = sha2::Sha256::new();
    hasher.update(format!("{:?}", sheet.marks).as_bytes());
    hasher.update(
        format!(
            "|marks|{}|{}|{MARKS_DPI}|{}",
            sheet.width,
            sheet.height,
            env!("CARGO_PKG_VERSION")
        )
        .as_bytes(),
    );
    hex::encode(&hasher.finalize()[..16])
}

/// Line, column and the line's text for byte offset `at` of `text`.
fn position(text: &str, at: usize) -> Option<(usize, usize, &str)> {
    let at = at.min(text.len());
    let at = (0..=at).rev().find(|&i| text.is_char_boundary(i))?;
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    // Bytes, not chars: counting them is vectorised, and a newline is one byte.
    let line = text.as_bytes()[..start]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1;
    let column = text[start..at].chars().count() + 1;
    Some((line, column, text[start..end].trim_end_matches('\r')))
}

fn display(file: &Path) -> String {
    file.to_string_lossy().replace('\\', "/")
}

/// The build's diagnostics, sorted as the terminal shows them, with positions.
fn diags(project: &Project, mut ds: Diagnostics) -> Vec<Diag> {
    ds.sort();
    ds.items
        .into_iter()
        .map(|d: Diagnostic| {
            let mut out = Diag {
                severity: match d.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                },
                message: d.message,
                file: d.file.as_deref().map(display),
                line: None,
                column: None,
                source_line: None,
                span_chars: 0,
                label: d.label,
                hint: d.hint,
                context: d
                    .context
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v))
                    .collect(),
            };
            if let Some(text) = d.file.as_deref().and_then(|f| project.source(f)) {
                let span = d.span.clone().unwrap_or(0..0);
                let text = &*text;
                if let Some((line, column, source)) = position(text, span.start) {
                    out.line = Some(line);
                    out.column = Some(column);
                    let end = span.end.clamp(span.start, text.len());
                    let spanned = text.get(span.start.min(end)..end).unwrap_or("");
                    let first_line = spanned.split('\n').next().unwrap_or("");
                    out.span_chars = first_line.chars().count().max(1);
                    out.source_line = Some(source.to_string());
                }
            }
            out
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_characters_from_one() {
        let text = "a = 1\nbé = [\n  2 ]\n";
        assert_eq!(position(text, 0), Some((1, 1, "a = 1")));
        let at = text.find('[').unwrap();
        assert_eq!(position(text, at), Some((2, 6, "bé = [")));
        assert_eq!(position(text, text.len()), Some((4, 1, "")));
    }
}
