//! Home printing: the print-and-play PDF (grids, or gutterfold pairs), boards at
//! real size and tiled, pads at their own size, and the duplex calibration page.

use std::path::Path;

use super::pdf_file;
use crate::diag::Diagnostic;
use crate::export::pdf::Bookmark;
use crate::faces::Rendered;
use crate::layout::{self, GridItem, Sheet};
use crate::model::{Game, Kind};
use crate::pipeline::{Built, Options};
use crate::profile::Output;

/// A PDF to write: file, what it is, title, sheets, bookmarks, whether it shows faces.
type PdfFile<'s> = (String, &'s str, String, &'s [Sheet], &'s [Bookmark], bool);

pub(super) fn deliver<'r>(
    root: &Path,
    game: &Game,
    r: &'r Rendered,
    opts: &Options,
    built: &mut Built,
    prefix: &str,
) -> Result<(), Diagnostic> {
    let gutterfold = opts.profile.output == Output::Gutterfold;
    let mut sheets: Vec<Sheet> = Vec::new();
    let mut bookmarks = Vec::new();
    let mut real: Vec<(String, Sheet)> = Vec::new();
    let mut pad_pages: Vec<(String, Vec<Sheet>)> = Vec::new();
    let mut duplex = false;
    // One-sided chits and tokens of consecutive sets share sheets (see layout::chits).
    let mut shared: Vec<(usize, Vec<GridItem>)> = Vec::new();
    let flush = |shared: &mut Vec<(usize, Vec<GridItem>)>,
                 sheets: &mut Vec<Sheet>,
                 bookmarks: &mut Vec<Bookmark>|
     -> Result<(), Diagnostic> {
        if shared.is_empty() {
            return Ok(());
        }
        let groups: Vec<layout::ChitGroup> = shared
            .iter()
            .map(|(ci, items)| {
                let c = &game.components[*ci];
                layout::ChitGroup {
                    items,
                    size: c.size,
                    bleed: c.bleed,
                    name: c.name(),
                }
            })
            .collect();
        let (s, first) =
            layout::chit_sheets(&groups, opts.paper, &game.meta.name).map_err(Diagnostic::error)?;
        for ((ci, _), page) in shared.iter().zip(first) {
            bookmarks.push(Bookmark {
                title: game.components[*ci].name(),
                page: sheets.len() + page,
            });
        }
        sheets.extend(s);
        shared.clear();
        Ok(())
    };
    for (ci, comp) in game.components.iter().enumerate() {
        let slots = &r.slots[ci];
        let title = format!("{} · {}", game.meta.name, comp.name());
        let one_sided_chits = comp.kind.uses_cut_lines() && slots.iter().all(|s| s.back.is_none());
        if one_sided_chits {
            let items = slots
                .iter()
                .flat_map(|s| {
                    std::iter::repeat_n(
                        GridItem {
                            front: s.front,
                            back: None,
                            shape: s.plan.shape,
                        },
                        s.plan.qty as usize,
                    )
                })
                .collect();
            shared.push((ci, items));
            continue;
        }
        flush(&mut shared, &mut sheets, &mut bookmarks)?;
        bookmarks.push(Bookmark {
            title: comp.name(),
            page: sheets.len(),
        });
        if comp.kind.is_large() {
            for (k, s) in slots.iter().enumerate() {
                let t = if slots.len() > 1 {
                    format!("{title} {}", k + 1)
                } else {
                    title.clone()
                };
                sheets.extend(layout::tiles(
                    s.front, comp.size, comp.bleed, opts.paper, &t,
                ));
                let name = if slots.len() > 1 {
                    format!("{}-{}-{}", game.id, comp.id(), k + 1)
                } else {
                    format!("{}-{}", game.id, comp.id())
                };
                real.push((name, layout::real_size(s.front, comp.size, comp.bleed, &t)));
            }
            continue;
        }
        let items: Vec<GridItem> = slots
            .iter()
            .flat_map(|s| {
                std::iter::repeat_n(
                    GridItem {
                        front: s.front,
                        back: s.back,
                        shape: s.plan.shape,
                    },
                    s.plan.qty as usize,
                )
            })
            .collect();
        if comp.kind == Kind::Pad {
            // Pads also go 1-up at their own size, one page per sheet, for a copy shop.
            let pages: Vec<Sheet> = slots
                .iter()
                .map(|s| layout::one_up(s.front, comp.size, comp.bleed, &s.plan.label))
                .collect();
            pad_pages.push((format!("{}-{}-pad-size", game.id, comp.id()), pages));
        }
        let has_backs = items.iter().any(|i| i.back.is_some());
        let laid = if gutterfold && has_backs {
            layout::gutterfold(&items, comp.size, comp.bleed, opts.paper, &title)
        } else {
            layout::grid(
                &items,
                comp.size,
                comp.bleed,
                comp.kind.grid_style(),
                opts.paper,
                &title,
            )
        };
        match laid {
            Ok(mut s) => {
                duplex |= has_backs && !gutterfold;
                for sheet in s.iter_mut().filter(|s| s.back) {
                    layout::offset(sheet, opts.back_offset.0, opts.back_offset.1);
                }
                sheets.extend(s)
            }
            Err(why) => built.diags.push(
                Diagnostic::error(format!("component `{}`: {why}", comp.id()))
                    .at(&game.file, Some(comp.def.size.span()))
                    .with("game", &game.id)
                    .with("component", comp.id())
                    .hint("use kind = \"board\" or \"mat\" for parts larger than the paper (they are tiled), or a smaller size"),
            ),
        }
    }
    flush(&mut shared, &mut sheets, &mut bookmarks)?;
    if built.diags.has_errors() {
        return Ok(());
    }
    built.pages = sheets.len();
    if !opts.pdf {
        return Ok(());
    }
    // Every PDF of the game.
    let how = if gutterfold {
        "print-and-play sheets, one-sided gutterfold"
    } else {
        "print-and-play sheets (print at 100 %, duplex pages flip on the long edge)"
    };
    let mut files: Vec<PdfFile> = vec![(
        format!("{prefix}/{}.pdf", game.id),
        how,
        game.meta.name.clone(),
        &sheets,
        &bookmarks,
        true,
    )];
    for (name, pages) in &pad_pages {
        files.push((
            format!("{prefix}/{name}.pdf"),
            "score-pad sheets at pad size, one per page",
            game.meta.name.clone(),
            pages,
            &[],
            true,
        ));
    }
    for (name, sheet) in &real {
        files.push((
            format!("{prefix}/{name}-real-size.pdf"),
            "board at real size with bleed and crop marks",
            format!("{} — {}", game.meta.name, sheet.label),
            std::slice::from_ref(sheet),
            &[],
            true,
        ));
    }
    let calibration = layout::calibration(opts.paper, opts.back_offset);
    if duplex {
        files.push((
            format!("{prefix}/duplex-calibration.pdf"),
            "duplex calibration: print both pages double-sided, read the offset for --back-offset",
            "Duplex calibration".to_string(),
            &calibration,
            &[],
            false,
        ));
    }
    // The files are independent: write them side by side.
    let faces = |i| r.store.tree(i);
    let none = |_| None;
    let written = super::in_parallel(
        files
            .iter()
            .map(|(_, _, title, pages, marks, with_faces)| {
                let faces: &(dyn Fn(usize) -> Option<&'r usvg::Tree> + Sync) =
                    if *with_faces { &faces } else { &none };
                move || pdf_file(root, opts, title, pages, faces, marks)
            })
            .collect(),
    );
    for ((path, how, ..), bytes) in files.iter().zip(written) {
        built.outputs.add(path.clone(), *how, bytes?);
    }
    Ok(())
}
