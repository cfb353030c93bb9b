//! Delivering a rendered game the way a print profile asks: home sheets, gutterfold,
//! a shop's per-face PNGs or PDFs, or Tabletop Simulator files. Every file goes under
//! `<profile>/` with a `manifest.json` listing what it is.

mod faces;
mod sheets;
mod tts;

use std::path::Path;

use usvg::Tree;

use crate::diag::Diagnostic;
use crate::export::{pdf, png};
use crate::faces::Rendered;
use crate::layout::Sheet;
use crate::model::Game;
use crate::pipeline::{Built, Options};
use crate::profile::Output;

/// Writes a game's files for `opts.profile` into `built.outputs`.
pub fn deliver(root: &Path, game: &Game, r: &Rendered, opts: &Options, built: &mut Built) {
    let prefix = opts.profile.id.clone();
    let start = std::time::Instant::now();
    let result = match opts.profile.output {
        Output::Sheets | Output::Gutterfold => sheets::deliver(root, game, r, opts, built, &prefix),
        Output::FacePng => faces::png_files(game, r, opts, built, &prefix),
        Output::FacePdf => faces::pdf_files(root, game, r, opts, built, &prefix),
        Output::Tts => tts::deliver(game, r, opts, built, &prefix),
    };
    built.time(
        match opts.profile.output {
            Output::FacePng | Output::Tts => "png",
            _ => "layout + pdf",
        },
        start,
    );
    if let Err(e) = result {
        built.diags.push(e.with("game", &game.id));
        return;
    }
    if opts.svg {
        for (name, text) in r.store.names.iter().zip(&r.store.svgs) {
            built.outputs.add(
                format!("{prefix}/svg/{name}.svg"),
                "face (SVG)",
                text.clone().into_bytes(),
            );
        }
    }
    if opts.png && opts.profile.output != Output::FacePng {
        let start = std::time::Instant::now();
        let pngs = png_all(r, opts, opts.dpi);
        built.time("png", start);
        for (name, bytes) in r.store.names.iter().zip(pngs) {
            match bytes {
                Ok(b) => built.outputs.add(
                    format!("{prefix}/png/{name}.png"),
                    format!("face (PNG, {} dpi, bleed included)", opts.dpi),
                    b,
                ),
                Err(e) => built
                    .diags
                    .push(Diagnostic::error(format!("{name}: {e}")).with("game", &game.id)),
            }
        }
    }
    let manifest = built.outputs.manifest(&game.id, &opts.profile.id);
    built
        .outputs
        .add(format!("{prefix}/manifest.json"), "this list", manifest);
}

/// Every distinct face as PNG at `dpi`, rasterised on all cores.
fn png_all(r: &Rendered, opts: &Options, dpi: f64) -> Vec<Result<Vec<u8>, String>> {
    use rayon::prelude::*;
    (0..r.store.len())
        .into_par_iter()
        .map(|i| face_png(r, opts, i, dpi))
        .collect()
}

/// One face as PNG, from the cache when the same SVG was rasterised at the same
/// size before (the cache lives in the output folder, keyed by a hash of the SVG
/// text, the size, the resolution and the cardstock version; the fonts are
/// compiled in, so nothing else changes the picture).
pub(crate) fn face_png(
    r: &Rendered,
    opts: &Options,
    i: usize,
    dpi: f64,
) -> Result<Vec<u8>, String> {
    let (w, h) = r.store.sizes[i];
    let Some(dir) = &opts.cache_dir else {
        return png::write(r.store.parsed(i)?, w, h, dpi);
    };
    use sha2::Digest;
    let mut hasher = sha2::Sha256::new();
    hasher.update(r.store.svgs[i].as_bytes());
    hasher.update(format!("|{w}|{h}|{dpi}|{}", env!("CARGO_PKG_VERSION")).as_bytes());
    let key: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let path = dir.join(format!("{key}.png"));
    if let Ok(bytes) = std::fs::read(&path) {
        if bytes.starts_with(b"\x89PNG") {
            return Ok(bytes);
        }
    }
    let bytes = png::write(r.store.parsed(i)?, w, h, dpi)?;
    // A cache that cannot be written only costs time next build.
    let _ = crate::output::write_atomic(dir, std::path::Path::new(&format!("{key}.png")), &bytes);
    Ok(bytes)
}

/// Parses each sheet's marks and writes the sheets as one PDF.
fn pdf_file<'a>(
    root: &Path,
    opts: &Options,
    title: &str,
    sheets: &[Sheet],
    faces: &(dyn Fn(usize) -> Option<&'a Tree> + Sync),
    bookmarks: &[pdf::Bookmark],
) -> Result<Vec<u8>, Diagnostic> {
    // On this thread: the pool may be busy parsing faces, which the writer needs
    // after the marks.
    let chromes: Vec<Tree> = sheets
        .iter()
        .map(|s| crate::svg::parse(&s.chrome, root, root))
        .collect::<Result<_, _>>()
        .map_err(|p| {
            Diagnostic::error(format!("internal error: sheet marks do not parse: {p:?}"))
        })?;
    let pages: Vec<pdf::Page> = sheets
        .iter()
        .zip(&chromes)
        .map(|(sheet, chrome)| pdf::Page { sheet, chrome })
        .collect();
    pdf::write(title, &pages, faces, bookmarks, opts.compress).map_err(Diagnostic::error)
}

/// Runs `jobs` on plain threads, at most one per core, and returns their results in
/// order. Not on the rayon pool: it may be busy parsing the faces the jobs wait for.
fn in_parallel<T: Send, F: FnOnce() -> T + Send>(jobs: Vec<F>) -> Vec<T> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(jobs.len());
    if threads <= 1 {
        return jobs.into_iter().map(|f| f()).collect();
    }
    let count = jobs.len();
    let queue = std::sync::Mutex::new(jobs.into_iter().enumerate());
    let done = std::sync::Mutex::new(Vec::with_capacity(count));
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let Some((i, job)) = queue.lock().ok().and_then(|mut q| q.next()) else {
                    break;
                };
                let result = job();
                if let Ok(mut d) = done.lock() {
                    d.push((i, result));
                }
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_default();
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// `{component}/{number}-{side}.png` with the values filled in.
fn fill_path(pattern: &str, component: &str, number: usize, side: &str) -> String {
    pattern
        .replace("{component}", component)
        .replace("{number}", &format!("{number:03}"))
        .replace("{side}", side)
}

#[cfg(test)]
mod tests {
    #[test]
    fn in_parallel_returns_results_in_job_order() {
        // More jobs than threads, finishing out of order.
        let jobs: Vec<_> = (0..17u64)
            .map(|i| {
                move || {
                    std::thread::sleep(std::time::Duration::from_millis((17 - i) % 5));
                    i * i
                }
            })
            .collect();
        let want: Vec<u64> = (0..17).map(|i| i * i).collect();
        assert_eq!(super::in_parallel(jobs), want);
        let none: Vec<fn() -> u8> = Vec::new();
        assert!(super::in_parallel(none).is_empty());
    }
}
