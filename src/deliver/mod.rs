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
        let pngs = png_all(r, opts.dpi);
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
fn png_all(r: &Rendered, dpi: f64) -> Vec<Result<Vec<u8>, String>> {
    use rayon::prelude::*;
    (0..r.store.trees.len())
        .into_par_iter()
        .map(|i| {
            png::write(
                &r.store.trees[i],
                r.store.sizes[i].0,
                r.store.sizes[i].1,
                dpi,
            )
        })
        .collect()
}

/// Parses each sheet's marks and writes the sheets as one PDF.
fn pdf_file(
    root: &Path,
    title: &str,
    sheets: &[Sheet],
    faces: &[Tree],
    bookmarks: &[pdf::Bookmark],
) -> Result<Vec<u8>, Diagnostic> {
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
    pdf::write(title, &pages, faces, bookmarks).map_err(Diagnostic::error)
}

/// `{component}/{number}-{side}.png` with the values filled in.
fn fill_path(pattern: &str, component: &str, number: usize, side: &str) -> String {
    pattern
        .replace("{component}", component)
        .replace("{number}", &format!("{number:03}"))
        .replace("{side}", side)
}
