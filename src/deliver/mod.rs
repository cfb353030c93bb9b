//! Delivering a rendered game the way a print profile asks: home sheets, gutterfold,
//! a shop's per-face PNGs or PDFs, or Tabletop Simulator files. Every file goes under
//! `<profile>/` with a `manifest.json` listing what it is.

pub mod rulebook;
mod sheets;
mod shop;
mod tts;

use std::path::PathBuf;
use std::time::Duration;

use crate::diag::{Diagnostic, Diagnostics, Reported};
use crate::export::pdf;
use crate::export::png::{self, PngCache, PngColor, PngError};
use crate::faces::Rendered;
use crate::layout::Sheet;
use crate::model::Game;
use crate::options::Options;
use crate::output::{Body, Outputs, Sink};
use crate::profile::Output;

/// What delivering a game produced: the files (not yet written), the number of
/// print-and-play pages, and the time of each stage.
#[derive(Debug, Default)]
pub struct Delivered {
    pub outputs: Outputs,
    pub pages: usize,
    pub timings: Vec<(&'static str, Duration)>,
    /// Every page (or image file) of the files and the faces on it, also when the
    /// files are not encoded ([`Options::encode`]).
    pub printed: Vec<Printed>,
}

/// One page of an output file, or one image file, and the faces printed on it.
#[derive(Debug, Clone)]
pub struct Printed {
    /// The file, relative to the game's output folder (`home/interstate-trucking.pdf`).
    pub file: String,
    /// 1-based page number in a PDF; `None` for an image file.
    pub page: Option<usize>,
    /// What is on it, e.g. "contracts — fronts 1/10".
    pub label: String,
    /// The face pictures on it (indices into the build's face store), in order.
    pub faces: Vec<usize>,
    /// The sheet as laid out, for PDF pages.
    pub sheet: Option<Sheet>,
}

impl Delivered {
    /// Nothing delivered yet; the game's files will wait where `sink` says.
    fn new(sink: Sink, game: &Game) -> Delivered {
        Delivered {
            outputs: Outputs::new(sink, std::path::Path::new(&game.id)),
            ..Delivered::default()
        }
    }

    /// Notes every page of the PDF `file` as printed.
    fn record(&mut self, file: &str, pages: &[Sheet]) {
        for (k, sheet) in pages.iter().enumerate() {
            self.printed.push(Printed {
                file: file.to_string(),
                page: Some(k + 1),
                label: sheet.label.clone(),
                faces: sheet.placements.iter().map(|p| p.face).collect(),
                sheet: Some(sheet.clone()),
            });
        }
    }

    /// Notes the image file `file` as printed, showing `faces`.
    fn record_image(&mut self, file: String, label: String, faces: Vec<usize>) {
        self.printed.push(Printed {
            file,
            page: None,
            label,
            faces,
            sheet: None,
        });
    }
}

/// What a delivery's files are made from besides the options: the rendered
/// faces, the game's typeset rulebook, the PNG files kept between builds, and where
/// the files wait until the command writes them (the command's choice).
pub struct Input<'a> {
    pub r: &'a Rendered<'a>,
    pub book: Option<&'a crate::rulebook::Rulebook>,
    pub cache: Option<&'a dyn PngCache>,
    pub sink: Sink<'a>,
}

/// The files of a game for `opts.profile`, every one under `<profile>/` with a
/// `manifest.json` listing what it is: the profile's files, then the rulebook's
/// PDFs, the faces as SVG and PNG and their soft proofs, as the options ask.
pub fn deliver(game: &Game, input: &Input, opts: &Options) -> Reported<Delivered> {
    let r = input.r;
    let start = std::time::Instant::now();
    // A PNG of every face (unless the profile's files are those), made after the
    // profile's files: the faces' trees are kept for it.
    if opts.encode && (face_pngs(opts) || opts.proof) {
        r.store.will_use(0..r.store.len());
    }
    // The rulebook's PDFs (written beside the profile's files) plan their faces'
    // uses first, so that no tree is dropped before they draw it.
    let rules_start = std::time::Instant::now();
    let mut diags = Diagnostics::default();
    let rules = rulebook_planned(game, r, input.book, opts).into_value(&mut diags);
    let rules_planned = rules_start.elapsed();
    let empty = Delivered::new(input.sink, game);
    // The print shop's colour, made once for every file.
    let shop = match shop(opts) {
        Ok(shop) if !diags.has_errors() => shop,
        Ok(_) => return Reported::new(empty, diags.items),
        Err(d) => return Reported::new(empty, [d.with("game", &game.id)]),
    };
    let pdfs = Pdfs {
        r,
        compress: opts.compress,
        shop: shop.as_ref(),
    };
    // The profile's files and the rulebook's PDFs are independent: written side by
    // side. The rulebook's figures stay parsed until both are done (a face the
    // rulebook draws first is not dropped before the profile's files plan it).
    let held = rules.as_ref().map(|(_, p)| p.faces()).unwrap_or_default();
    r.store.will_use(held.iter().copied());
    let (mut result, rule_files) = crate::threads::both(
        || {
            let with = rules.as_ref().filter(|_| drawn_with_sheets(opts));
            let mut result = profile_files(game, input, opts, &pdfs, empty, with);
            result.diags.extend(diags.items);
            result.value.timings.push((
                match opts.profile.output {
                    Output::FacePng | Output::Tts => "png",
                    _ => "layout + pdf",
                },
                start.elapsed(),
            ));
            result
        },
        || {
            // The home print draws the rulebook with its own PDFs.
            if drawn_with_sheets(opts) {
                return None;
            }
            let (book, planned) = rules.as_ref()?;
            let start = std::time::Instant::now();
            let alone = |job: pdf::Job<'_>| {
                pdf::write_unfinished(job)
                    .map_err(|e| Diagnostic::error(format!("rulebook: {e}")).with("game", &game.id))
            };
            let files = rulebook::write(game, planned, book, &pdfs, &opts.profile.id, alone);
            Some((files, rules_planned + start.elapsed()))
        },
    );
    for &f in &held {
        r.store.used(f);
    }
    if result.diags.has_errors() || !opts.encode {
        return result;
    }
    if let Some((files, took)) = rule_files {
        match files {
            Ok(files) => {
                for (path, what, bytes) in files {
                    result.value.outputs.add(path, what, bytes);
                }
            }
            Err(d) => {
                result.diags.push(d);
                return result;
            }
        }
        result.value.timings.push(("rulebook pdf", took));
    }
    face_files(game, input, opts, shop.as_ref(), &mut result);
    // A reprint's manifest is added by its caller, with the list of changes.
    if !opts.reprint {
        let outputs = &mut result.value.outputs;
        let manifest = outputs.manifest(&game.id, &opts.profile.id);
        outputs.add(
            format!("{}/manifest.json", opts.folder()),
            "this list",
            manifest,
        );
    }
    result
}

/// The files of the profile's own kind (sheets, a shop's files, Tabletop
/// Simulator's), into `empty`.
fn profile_files(
    game: &Game,
    input: &Input,
    opts: &Options,
    pdfs: &Pdfs,
    empty: Delivered,
    rules: Option<&(&crate::rulebook::Rulebook, rulebook::Planned)>,
) -> Reported<Delivered> {
    let r = input.r;
    match opts.profile.output {
        Output::Sheets | Output::Gutterfold => sheets::deliver(game, r, opts, pdfs, empty, rules),
        Output::FacePng => shop::png_files(game, r, opts, input.cache, empty),
        Output::FacePdf => shop::pdf_files(game, r, opts, pdfs, empty),
        Output::Tts => tts::deliver(game, r, opts, empty),
    }
}

/// Whether the rulebook's PDFs are drawn with the profile's own (the sheets of a
/// home or gutterfold print, which show the same faces), each face once.
fn drawn_with_sheets(opts: &Options) -> bool {
    matches!(opts.profile.output, Output::Sheets | Output::Gutterfold)
}

/// Whether the build writes a PNG of every face besides the profile's files
/// (not when the profile's files are those).
fn face_pngs(opts: &Options) -> bool {
    opts.png && opts.profile.output != Output::FacePng
}

/// The print shop's colour of a CMYK profile, made once for every file of the
/// delivery (`None`: an RGB profile, or nothing is encoded).
fn shop(opts: &Options) -> Result<Option<pdf::Shop>, Diagnostic> {
    let Some(color) = opts.profile.print.as_ref().filter(|_| opts.encode) else {
        return Ok(None);
    };
    pdf::Shop::new(color, opts.profile.dpi)
        .map(Some)
        .map_err(|e| Diagnostic::error(e.to_string()))
}

/// The rulebook to write with the profile's files, laid out (`None`: the game has
/// none, nothing is encoded, or the profile leaves out sets its figures show: a
/// rulebook is written whole or not at all, a warning says why).
fn rulebook_planned<'a>(
    game: &Game,
    r: &'a Rendered<'a>,
    book: Option<&'a crate::rulebook::Rulebook>,
    opts: &Options,
) -> Reported<Option<(&'a crate::rulebook::Rulebook, rulebook::Planned<'a>)>> {
    let Some(book) = book.filter(|_| opts.pdf && opts.encode && !opts.reprint) else {
        return None.into();
    };
    let missing = rulebook::missing_sets(game, r, book);
    if !missing.is_empty() {
        let skipped = Diagnostic::warning(format!(
            "the rulebook is not written for the profile `{}`: its figures show {}, which this profile does not print",
            opts.profile.id,
            missing.join(", ")
        ))
        .with("game", &game.id)
        .hint("build the rulebook with a profile that prints every part: --profile home");
        return Reported::new(None, [skipped]);
    }
    match rulebook::plan(game, r, book, opts) {
        Ok(p) => Some((book, p)).into(),
        Err(d) => Reported::new(None, [d]),
    }
}

/// Adds the faces' own files the options ask for: every face as SVG, as PNG and
/// as a soft proof in the print shop's CMYK.
fn face_files(
    game: &Game,
    input: &Input,
    opts: &Options,
    shop: Option<&pdf::Shop>,
    result: &mut Reported<Delivered>,
) {
    let (r, prefix) = (input.r, opts.folder());
    let delivered = &mut result.value;
    if opts.svg {
        for (i, name) in r.store.names.iter().enumerate() {
            delivered.outputs.add(
                format!("{prefix}/svg/{name}.svg"),
                "face (SVG)",
                r.store.svg(i).into_owned().into_bytes(),
            );
        }
    }
    if face_pngs(opts) {
        let start = std::time::Instant::now();
        let pngs = png_all(r, opts.dpi, input.cache, &delivered.outputs, &prefix);
        delivered.timings.push(("png", start.elapsed()));
        let what = |_: &str| format!("face (PNG, {} dpi, bleed included)", opts.dpi);
        add_made(
            game,
            pngs,
            &r.store.names,
            what,
            delivered,
            &mut result.diags,
        );
    }
    if let Some(shop) = shop.filter(|_| opts.proof) {
        let start = std::time::Instant::now();
        let files = proofs(r, opts.dpi, &shop.press, &delivered.outputs, &prefix);
        let what =
            |name: &str| format!("soft proof of {name} ({} dpi): as it will print", opts.dpi);
        add_made(
            game,
            files,
            &r.store.names,
            what,
            delivered,
            &mut result.diags,
        );
        delivered.timings.push(("proof", start.elapsed()));
    }
}

/// Adds files made on all cores, one per face (`names`: the faces' names, in the
/// same order), each described by `what(face name)`; a file that failed is an
/// error naming its face.
fn add_made(
    game: &Game,
    made: Made,
    names: &[String],
    what: impl Fn(&str) -> String,
    delivered: &mut Delivered,
    diags: &mut Diagnostics,
) {
    for ((path, body), name) in made.into_iter().zip(names) {
        match body {
            Ok(b) => delivered.outputs.push(path, what(name), b),
            Err(e) => diags.push(Diagnostic::error(format!("{name}: {e}")).with("game", &game.id)),
        }
    }
}

/// Every distinct face as PNG at `dpi` (`<prefix>/png/<name>.png`), rasterised on
/// all cores, each made a body of `outputs` as soon as it is encoded (past the
/// memory budget it waits on disk, so the PNGs are never all in memory).
fn png_all(
    r: &Rendered,
    dpi: f64,
    cache: Option<&dyn PngCache>,
    outputs: &Outputs,
    prefix: &str,
) -> Made {
    use rayon::prelude::*;
    (0..r.store.len())
        .into_par_iter()
        .map(|i| {
            let path = PathBuf::from(format!("{prefix}/png/{}.png", r.store.names[i]));
            let png = face_png(r, i, dpi, PngColor::Rgba, cache);
            r.store.used(i);
            let body = png.map(|png| outputs.body(&path, png));
            (path, body)
        })
        .collect()
}

/// Files made on all cores, each its path and its body (or why it failed).
type Made = Vec<(PathBuf, Result<Body, PngError>)>;

/// Every distinct face's soft proof at `dpi` (`<prefix>/proof/<name>.png`) as
/// `press` prints it, on all cores.
fn proofs(
    r: &Rendered,
    dpi: f64,
    press: &crate::color::Press,
    outputs: &Outputs,
    prefix: &str,
) -> Made {
    use rayon::prelude::*;
    (0..r.store.len())
        .into_par_iter()
        .map(|i| {
            let path = PathBuf::from(format!("{prefix}/proof/{}.png", r.store.names[i]));
            let (w, h) = r.store.sizes[i];
            let png = r
                .store
                .picture(i)
                .ok_or(PngError::MissingFace(i))
                .and_then(|p| png::write_proof(&p, w, h, dpi, press));
            r.store.used(i);
            let body = png.map(|png| outputs.body(&path, png));
            (path, body)
        })
        .collect()
}

/// One face as PNG at `dpi` (tagged with it), from the cache when the same SVG was
/// rasterised at the same size and colour type before (keyed by a hash of the SVG
/// text, the size, the resolution, the colour type, the cardstock version and the
/// game's font files).
pub(crate) fn face_png(
    r: &Rendered,
    i: usize,
    dpi: f64,
    color: PngColor,
    cache: Option<&dyn PngCache>,
) -> Result<Vec<u8>, PngError> {
    let (w, h) = r.store.sizes[i];
    let picture = || r.store.picture(i).ok_or(PngError::MissingFace(i));
    let Some(cache) = cache else {
        return png::write_as(&picture()?, w, h, dpi, color);
    };
    use sha2::Digest;
    let mut hasher = sha2::Sha256::new();
    hasher.update(r.store.svg(i).as_bytes());
    hasher.update(
        format!(
            "|{w}|{h}|{dpi}|{color:?}|pHYs|fdeflate|{}",
            env!("CARGO_PKG_VERSION")
        )
        .as_bytes(),
    );
    hasher.update(r.store.fonts().fingerprint().to_le_bytes());
    let key = crate::hex::encode(&hasher.finalize());
    if let Some(bytes) = cache.get(&key) {
        return Ok(bytes);
    }
    let bytes = png::write_as(&picture()?, w, h, dpi, color)?;
    cache.put(&key, &bytes);
    Ok(bytes)
}

/// Writes a delivery's PDFs of the game's faces, in the print shop's colour (made
/// once for every file of the delivery) or in RGB.
pub(crate) struct Pdfs<'a> {
    r: &'a Rendered<'a>,
    compress: bool,
    /// A CMYK profile's print shop; `None`: RGB.
    shop: Option<&'a pdf::Shop>,
}

impl Pdfs<'_> {
    /// `sheets` as one PDF; with `with_faces`, the sheets show the game's faces
    /// (without, they are drawn in RGB: the duplex calibration page).
    fn write(
        &self,
        title: &str,
        sheets: &[Sheet],
        bookmarks: &[pdf::Bookmark],
        with_faces: bool,
    ) -> Result<Vec<u8>, Diagnostic> {
        if !with_faces {
            return drawn_once(title, sheets, bookmarks, self.compress);
        }
        let mut written = self.write_all(&[(title, sheets, bookmarks)], None)?;
        written
            .files
            .pop()
            .ok_or_else(|| Diagnostic::error("the PDF was not drawn"))
    }

    /// PDFs of the game's faces, one for each of `files` (title, sheets,
    /// bookmarks), drawn together: a face printed in several of them is drawn once
    /// ([`pdf::write_all_unfinished`]).
    /// `extra`, another job of the same document (the rulebook's), is drawn last
    /// and given back as written, before [`pdf::finish`].
    fn write_all(
        &self,
        files: &[(&str, &[Sheet], &[pdf::Bookmark])],
        extra: Option<pdf::Job>,
    ) -> Result<Written, Diagnostic> {
        let r = self.r;
        let faces = |i| r.store.picture(i);
        let drawn = |i| r.store.used(i);
        let given = |i| crate::export::cmyk::given(&r.store.svg(i));
        let print = self.shop.map(|shop| pdf::Print {
            shop,
            given: &given,
        });
        let mut jobs: Vec<pdf::Job> = files
            .iter()
            .map(|&(title, sheets, bookmarks)| pdf::Job {
                title,
                sheets,
                faces: &faces,
                drawn: &drawn,
                digests: &r.digests,
                bookmarks,
                compress: self.compress,
                print: print.as_ref(),
                store_face: None,
            })
            .collect();
        jobs.extend(extra);
        let error = |e: pdf::PdfError| Diagnostic::error(e.to_string());
        let mut written = pdf::write_all_unfinished(&jobs).map_err(error)?;
        let extra = jobs.get(files.len()).and_then(|_| written.pop());
        let files = written
            .into_iter()
            .zip(files)
            .map(|(bytes, (title, ..))| pdf::finish(bytes, title, print.as_ref()).map_err(error))
            .collect::<Result<_, _>>()?;
        Ok(Written { files, extra })
    }
}

/// What [`Pdfs::write_all`] wrote: the files, finished, and the extra job's PDF as
/// krilla wrote it.
pub(crate) struct Written {
    pub(crate) files: Vec<Vec<u8>>,
    pub(crate) extra: Option<Vec<u8>>,
}

/// How many pages without faces [`drawn_once`] keeps (about 15 KB each).
const DRAWN_KEPT: usize = 8;

/// A PDF without faces (the duplex calibration page, the same in every game's
/// folder of a profile) drawn once per process for each set of what it is drawn
/// from (its sheets as laid out: paper, margins, back offset; title, bookmarks,
/// compression), in RGB, and its bytes copied after that.
fn drawn_once(
    title: &str,
    sheets: &[Sheet],
    bookmarks: &[pdf::Bookmark],
    compress: bool,
) -> Result<Vec<u8>, Diagnostic> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock, PoisonError};
    static DRAWN: OnceLock<Mutex<HashMap<String, Vec<u8>>>> = OnceLock::new();
    let marks: Vec<(&str, usize, f64, usize)> = bookmarks
        .iter()
        .map(|b| (b.title.as_str(), b.page, b.y, b.depth))
        .collect();
    let key = format!("{title:?} {sheets:?} {marks:?} {compress}");
    let memo = DRAWN.get_or_init(Mutex::default);
    if let Some(bytes) = memo
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&key)
    {
        return Ok(bytes.clone());
    }
    let bytes = pdf::write(&pdf::Job {
        title,
        sheets,
        faces: &|_| None,
        drawn: &|_| {},
        digests: &crate::export::repeats::Digests::default(),
        bookmarks,
        compress,
        print: None,
        store_face: None,
    })
    .map_err(|e| Diagnostic::error(e.to_string()))?;
    let mut kept = memo.lock().unwrap_or_else(PoisonError::into_inner);
    // A live preview runs for hours and each back offset tried is a new page:
    // past a few, start again (a build uses one or two).
    if kept.len() >= DRAWN_KEPT {
        kept.clear();
    }
    kept.insert(key, bytes.clone());
    Ok(bytes)
}

/// Plans the uses of the faces' trees by PDFs about to be drawn, one set of
/// `sheets` each ([`Pdfs::write`] with faces): each PDF draws a face once, and the
/// face's tree is dropped when the last PDF that draws it has (not kept to the
/// store's budget), so drawing a thousand pad sheets holds a few trees at a time.
fn will_draw<'s>(r: &Rendered, pdfs: impl IntoIterator<Item = &'s [Sheet]>) {
    for sheets in pdfs {
        let faces: std::collections::BTreeSet<usize> = sheets
            .iter()
            .flat_map(|s| s.placements.iter().map(|p| p.face))
            .collect();
        r.store.will_use(faces);
    }
}

#[cfg(test)]
mod tests {
    /// The calibration page for `offset` on Letter, through [`super::drawn_once`].
    fn calibration(offset: (f64, f64)) -> Vec<u8> {
        let sheets = crate::layout::calibration(crate::model::PAPERS[0], offset);
        super::drawn_once("Duplex calibration", &sheets, &[], true).unwrap()
    }

    #[test]
    fn the_calibration_page_is_drawn_once_for_each_back_offset() {
        let plain = calibration((0.0, 0.0));
        // A second game's (the memo's bytes) and the page drawn anew are the same.
        assert_eq!(calibration((0.0, 0.0)), plain);
        let sheets = crate::layout::calibration(crate::model::PAPERS[0], (0.0, 0.0));
        let anew = crate::export::pdf::write(&crate::export::pdf::Job {
            title: "Duplex calibration",
            sheets: &sheets,
            faces: &|_| None,
            drawn: &|_| {},
            digests: &crate::export::repeats::Digests::default(),
            bookmarks: &[],
            compress: true,
            print: None,
            store_face: None,
        })
        .unwrap();
        assert_eq!(anew, plain);
        let shifted = calibration((2.0, -1.0));
        assert_ne!(shifted, plain, "the back offset is part of the page");
        assert_eq!(calibration((2.0, -1.0)), shifted);
        let uncompressed = crate::layout::calibration(crate::model::PAPERS[0], (0.0, 0.0));
        let raw = super::drawn_once("Duplex calibration", &uncompressed, &[], false).unwrap();
        assert_ne!(raw, plain, "so is the compression");
    }
}
