//! Print-shop files: one PNG per face at the shop's pixel size, or one face per PDF
//! page at the shop's page size.

use std::collections::BTreeSet;

use super::{fill_path, pdf_file, Delivered};
use crate::diag::{Diagnostic, Reported};
use crate::export::png::PngCache;
use crate::faces::Rendered;
use crate::layout;
use crate::model::Game;
use crate::options::Options;

/// One PNG per face at the shop's pixel size.
pub(super) fn png_files(
    game: &Game,
    r: &Rendered,
    opts: &Options,
    cache: Option<&dyn PngCache>,
) -> Reported<Delivered> {
    match png_outputs(game, r, opts, cache) {
        Ok(d) => d.into(),
        Err(d) => Reported::new(Delivered::default(), [d.with("game", &game.id)]),
    }
}

fn png_outputs(
    game: &Game,
    r: &Rendered,
    opts: &Options,
    cache: Option<&dyn PngCache>,
) -> Result<Delivered, Diagnostic> {
    let p = &opts.profile;
    let prefix = &opts.folder();
    let mut delivered = Delivered::new(opts, game);
    let built = &mut delivered;
    let err = |e: crate::export::png::PngError| Diagnostic::error(e.to_string());
    for (ci, comp) in game.components.iter().enumerate() {
        if !comp.exported {
            continue;
        }
        let mut backs_done = BTreeSet::new();
        for s in &r.slots[ci] {
            let mut sides = vec![(s.front, "front")];
            if let Some(b) = s.back.filter(|b| backs_done.insert(*b)) {
                sides.push((b, "back"));
            }
            for (face, side) in sides {
                let file = format!(
                    "{prefix}/{}",
                    fill_path(&p.path, comp.id(), s.index + 1, side)
                );
                built.record_image(file.clone(), format!("{} {side}", s.plan.label), vec![face]);
                if !opts.encode {
                    continue;
                }
                let bytes = super::face_png(r, face, p.dpi, p.color, cache).map_err(err)?;
                let what = if side == "front" {
                    format!(
                        "{} front, print {} ({} dpi, bleed included)",
                        s.plan.label, s.plan.qty, p.dpi
                    )
                } else {
                    format!("{} back", s.plan.label)
                };
                built.outputs.add(file, what, bytes);
            }
        }
    }
    Ok(delivered)
}

/// One face per PDF page at the shop's page size, a PDF per component set.
pub(super) fn pdf_files(game: &Game, r: &Rendered, opts: &Options) -> Reported<Delivered> {
    let prefix = &opts.folder();
    let mut delivered = Delivered::new(opts, game);
    let built = &mut delivered;
    // (file, what it is, title, pages): one PDF per component set.
    let mut files = Vec::new();
    for (ci, comp) in game.components.iter().enumerate() {
        if !comp.exported || r.slots[ci].is_empty() {
            continue;
        }
        let mut pages = Vec::new();
        for s in &r.slots[ci] {
            for _ in 0..s.plan.qty {
                let front = layout::one_up(
                    s.front,
                    comp.size,
                    comp.bleed,
                    &format!("{} front", s.plan.label),
                );
                match s.back {
                    Some(b) => {
                        let back = layout::one_up(
                            b,
                            comp.size,
                            comp.bleed,
                            &format!("{} back", s.plan.label),
                        );
                        if opts.profile.back_first {
                            pages.extend([back, front]);
                        } else {
                            pages.extend([front, back]);
                        }
                    }
                    None => pages.push(front),
                }
            }
        }
        let order = if opts.profile.back_first {
            "back then front"
        } else {
            "front then back"
        };
        built.pages += pages.len();
        files.push((
            format!("{prefix}/{}.pdf", comp.id()),
            format!(
                "{}: one face per page, {order}, shop page size",
                comp.name()
            ),
            format!("{} · {}", game.meta.name, comp.name()),
            pages,
        ));
    }
    for (path, _, _, pages) in &files {
        built.record(path, pages);
    }
    if !opts.encode {
        return delivered.into();
    }
    // The files are independent: write them side by side.
    super::will_draw(r, files.iter().map(|(.., pages)| &pages[..]));
    let written = crate::threads::in_parallel(
        files
            .iter()
            .map(|(_, _, title, pages)| move || pdf_file(r, opts, title, pages, &[], true))
            .collect(),
    );
    let mut diags = Vec::new();
    for ((path, how, ..), bytes) in files.into_iter().zip(written) {
        match bytes {
            Ok(b) => delivered.outputs.add(path, how, b),
            Err(d) => diags.push(d.with("game", &game.id)),
        }
    }
    Reported::new(delivered, diags)
}
