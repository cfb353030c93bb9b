//! Print-shop files: one PNG per face at the shop's pixel size, or one face per PDF
//! page at the shop's page size.

use std::collections::BTreeSet;
use std::path::Path;

use super::{fill_path, pdf_file};
use crate::diag::Diagnostic;
use crate::faces::Rendered;
use crate::layout;
use crate::model::Game;
use crate::pipeline::{Built, Options};

pub(super) fn png_files(
    game: &Game,
    r: &Rendered,
    opts: &Options,
    built: &mut Built,
    prefix: &str,
) -> Result<(), Diagnostic> {
    let p = &opts.profile;
    for (ci, comp) in game.components.iter().enumerate() {
        if r.skipped[ci] {
            continue;
        }
        let mut backs_done = BTreeSet::new();
        for (i, s) in r.slots[ci].iter().enumerate() {
            let bytes = super::face_png(r, opts, s.front, p.dpi).map_err(Diagnostic::error)?;
            let what = format!(
                "{} front, print {} ({} dpi, bleed included)",
                s.plan.label, s.plan.qty, p.dpi
            );
            built.outputs.add(
                format!("{prefix}/{}", fill_path(&p.path, comp.id(), i + 1, "front")),
                what,
                bytes,
            );
            if let Some(b) = s.back {
                if backs_done.insert(b) {
                    let bytes = super::face_png(r, opts, b, p.dpi).map_err(Diagnostic::error)?;
                    built.outputs.add(
                        format!("{prefix}/{}", fill_path(&p.path, comp.id(), i + 1, "back")),
                        format!("{} back", s.plan.label),
                        bytes,
                    );
                }
            }
        }
    }
    Ok(())
}

pub(super) fn pdf_files(
    root: &Path,
    game: &Game,
    r: &Rendered,
    opts: &Options,
    built: &mut Built,
    prefix: &str,
) -> Result<(), Diagnostic> {
    // (file, what it is, title, pages): one PDF per component set.
    let mut files = Vec::new();
    for (ci, comp) in game.components.iter().enumerate() {
        if r.skipped[ci] || r.slots[ci].is_empty() {
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
    // The files are independent: write them side by side.
    let faces = |i| r.store.tree(i);
    let written = super::in_parallel(
        files
            .iter()
            .map(|(_, _, title, pages)| move || pdf_file(root, opts, title, pages, &faces, &[]))
            .collect(),
    );
    for ((path, how, ..), bytes) in files.into_iter().zip(written) {
        built.outputs.add(path, how, bytes?);
    }
    Ok(())
}
