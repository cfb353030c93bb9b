//! Delivering a rendered game the way a print profile asks: home sheets, gutterfold,
//! a shop's per-face PNGs or PDFs, or Tabletop Simulator files. Every file goes under
//! `<profile>/` with a `manifest.json` listing what it is.

pub mod rulebook;
mod sheets;
mod shop;
mod tts;

use std::path::PathBuf;
use std::time::Duration;

use crate::diag::{Diagnostic, Reported};
use crate::export::pdf;
use crate::export::png::{self, PngCache, PngColor, PngError};
use crate::faces::Rendered;
use crate::layout::Sheet;
use crate::model::Game;
use crate::options::Options;
use crate::output::{Body, Outputs};
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
    /// Nothing delivered yet; files past [`crate::output::MEMORY_BUDGET`] will
    /// wait in the output folder when the options name it.
    fn new(opts: &Options, game: &Game) -> Delivered {
        Delivered {
            outputs: match &opts.spill_into {
                Some(out) => Outputs::spilling_into(
                    out,
                    std::path::Path::new(&game.id),
                    crate::output::MEMORY_BUDGET,
                ),
                None => Outputs::default(),
            },
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

/// The files of a game for `opts.profile`, every one under `<profile>/` with a
/// `manifest.json` listing what it is. `cache` keeps rasterised faces between
/// builds.
pub fn deliver(
    game: &Game,
    r: &Rendered,
    book: Option<&crate::rulebook::Rulebook>,
    opts: &Options,
    cache: Option<&dyn PngCache>,
) -> Reported<Delivered> {
    let prefix = opts.folder();
    let start = std::time::Instant::now();
    // A PNG of every face (unless the profile's files are those), made after the
    // profile's files: the faces' trees are kept for it.
    let face_pngs = opts.png && opts.profile.output != Output::FacePng;
    if face_pngs && opts.encode {
        r.store.will_use(0..r.store.len());
    }
    if opts.proof && opts.encode {
        r.store.will_use(0..r.store.len());
    }
    // The rulebook's PDFs (written after the profile's files) plan their faces'
    // uses first, so that no tree is dropped before they draw it.
    let rules_start = std::time::Instant::now();
    let mut skipped = Vec::new();
    let book = book.filter(|_| opts.pdf && opts.encode && !opts.reprint);
    // A rulebook is written whole or not at all: with a profile that leaves out
    // sets its figures show, it is left to a profile that prints everything.
    let book = book.filter(|b| {
        let missing = rulebook::missing_sets(game, r, b);
        if !missing.is_empty() {
            skipped.push(
                Diagnostic::warning(format!(
                    "the rulebook is not written for the profile `{}`: its figures show {}, which this profile does not print",
                    opts.profile.id,
                    missing.join(", ")
                ))
                .with("game", &game.id)
                .hint("build the rulebook with a profile that prints every part: --profile home"),
            );
        }
        missing.is_empty()
    });
    let rules = match book {
        Some(b) => match rulebook::plan(game, r, b, opts) {
            Ok(p) => Some((b, p)),
            Err(d) => return Reported::new(Delivered::new(opts, game), [d]),
        },
        None => None,
    };
    let rules_planned = rules_start.elapsed();
    let mut result = match opts.profile.output {
        Output::Sheets | Output::Gutterfold => sheets::deliver(game, r, opts),
        Output::FacePng => shop::png_files(game, r, opts, cache),
        Output::FacePdf => shop::pdf_files(game, r, opts),
        Output::Tts => tts::deliver(game, r, opts, cache),
    };
    result.diags.extend(skipped);
    result.value.timings.push((
        match opts.profile.output {
            Output::FacePng | Output::Tts => "png",
            _ => "layout + pdf",
        },
        start.elapsed(),
    ));
    if result.diags.has_errors() || !opts.encode {
        return result;
    }
    if let Some((book, planned)) = &rules {
        let start = std::time::Instant::now();
        if let Err(d) = rulebook::write(game, planned, book, opts, &mut result.value) {
            result.diags.push(d);
            return result;
        }
        let pdf = start.elapsed();
        result
            .value
            .timings
            .push(("rulebook pdf", rules_planned + pdf));
    }
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
    if face_pngs {
        let start = std::time::Instant::now();
        let pngs = png_all(r, opts.dpi, cache, &delivered.outputs, &prefix);
        delivered.timings.push(("png", start.elapsed()));
        for ((path, body), name) in pngs.into_iter().zip(&r.store.names) {
            match body {
                Ok(b) => delivered.outputs.push(
                    path,
                    format!("face (PNG, {} dpi, bleed included)", opts.dpi),
                    b,
                ),
                Err(e) => result
                    .diags
                    .push(Diagnostic::error(format!("{name}: {e}")).with("game", &game.id)),
            }
        }
    }
    if let Some(color) = opts.profile.print.as_ref().filter(|_| opts.proof) {
        let start = std::time::Instant::now();
        match proofs(r, opts.dpi, color, &delivered.outputs, &prefix) {
            Ok(files) => {
                for ((path, body), name) in files.into_iter().zip(&r.store.names) {
                    match body {
                        Ok(b) => delivered.outputs.push(
                            path,
                            format!("soft proof of {name} ({} dpi): as it will print", opts.dpi),
                            b,
                        ),
                        Err(e) => result
                            .diags
                            .push(Diagnostic::error(format!("{name}: {e}")).with("game", &game.id)),
                    }
                }
            }
            Err(d) => result.diags.push(d.with("game", &game.id)),
        }
        delivered.timings.push(("proof", start.elapsed()));
    }
    // A reprint's manifest is added by its caller, with the list of changes.
    if !opts.reprint {
        let manifest = delivered.outputs.manifest(&game.id, &opts.profile.id);
        delivered
            .outputs
            .add(format!("{prefix}/manifest.json"), "this list", manifest);
    }
    result
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

/// Every distinct face's soft proof at `dpi` (`<prefix>/proof/<name>.png`), on
/// all cores.
fn proofs(
    r: &Rendered,
    dpi: f64,
    color: &crate::color::PrintColor,
    outputs: &Outputs,
    prefix: &str,
) -> Result<Made, Diagnostic> {
    use rayon::prelude::*;
    let press =
        crate::color::Press::for_color(color).map_err(|e| Diagnostic::error(e.to_string()))?;
    Ok((0..r.store.len())
        .into_par_iter()
        .map(|i| {
            let path = PathBuf::from(format!("{prefix}/proof/{}.png", r.store.names[i]));
            let (w, h) = r.store.sizes[i];
            let png = r
                .store
                .picture(i)
                .ok_or(PngError::MissingFace(i))
                .and_then(|p| png::write_proof(&p, w, h, dpi, &press));
            r.store.used(i);
            let body = png.map(|png| outputs.body(&path, png));
            (path, body)
        })
        .collect())
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
    let key: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if let Some(bytes) = cache.get(&key) {
        return Ok(bytes);
    }
    let bytes = png::write_as(&picture()?, w, h, dpi, color)?;
    cache.put(&key, &bytes);
    Ok(bytes)
}

/// Writes `sheets` as one PDF; with `with_faces`, the sheets show the game's faces.
fn pdf_file(
    r: &Rendered,
    opts: &Options,
    title: &str,
    sheets: &[Sheet],
    bookmarks: &[pdf::Bookmark],
    with_faces: bool,
) -> Result<Vec<u8>, Diagnostic> {
    let faces = |i| r.store.picture(i);
    let none = |_| None;
    let faces: &crate::export::Faces = if with_faces { &faces } else { &none };
    let drawn = |i| r.store.used(i);
    let ignored = |_| {};
    let drawn: &(dyn Fn(usize) + Sync) = if with_faces { &drawn } else { &ignored };
    if let Some(color) = opts.profile.print.as_ref().filter(|_| with_faces) {
        let press =
            crate::color::Press::for_color(color).map_err(|e| Diagnostic::error(e.to_string()))?;
        let given = |i| crate::export::cmyk::given(&r.store.svg(i));
        let print = pdf::Print {
            press: &press,
            given: &given,
            dpi: opts.profile.dpi,
        };
        return pdf::write_print(
            title,
            sheets,
            faces,
            drawn,
            &r.digests,
            &[],
            opts.compress,
            &print,
        )
        .map_err(|e| Diagnostic::error(e.to_string()));
    }
    pdf::write(
        title,
        sheets,
        faces,
        drawn,
        &r.digests,
        bookmarks,
        opts.compress,
    )
    .map_err(|e| Diagnostic::error(e.to_string()))
}

/// Plans the uses of the faces' trees by PDFs about to be drawn, one set of
/// `sheets` each ([`pdf_file`] with faces): each PDF draws a face once, and the
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
