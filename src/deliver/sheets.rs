//! Home printing: the print-and-play PDF (grids, or gutterfold pairs), boards at
//! real size and tiled, pads at their own size, and the duplex calibration page.

use super::{pdf_file, Delivered};
use crate::diag::{Diagnostic, Reported};
use crate::export::pdf::Bookmark;
use crate::faces::{Rendered, Slot};
use crate::layout::{self, GridItem, Sheet};
use crate::model::{Component, Game, Kind};
use crate::options::Options;
use crate::profile::Output;

/// Every sheet of a game's home print, before it is written.
#[derive(Default)]
struct Laid {
    /// The print-and-play sheets, in order.
    sheets: Vec<Sheet>,
    bookmarks: Vec<Bookmark>,
    /// Boards and mats at real size: (file stem, page).
    real: Vec<(String, Sheet)>,
    /// Pads at their own size: (file stem, pages).
    pads: Vec<(String, Vec<Sheet>)>,
    /// Whether any sheet is printed double-sided.
    duplex: bool,
    /// One-sided chits and tokens waiting to share sheets: (component, parts).
    shared: Vec<(usize, Vec<GridItem>)>,
}

/// Every part of `slots` as a grid item, each copy once.
fn items(slots: &[Slot], backs: bool) -> Vec<GridItem> {
    slots
        .iter()
        .flat_map(|s| {
            std::iter::repeat_n(
                GridItem {
                    front: s.front,
                    back: if backs { s.back } else { None },
                    shape: s.plan.shape,
                },
                s.plan.qty as usize,
            )
        })
        .collect()
}

impl Laid {
    /// Lays out the waiting one-sided chit sets on shared sheets.
    fn flush_shared(&mut self, game: &Game, opts: &Options) -> Result<(), Diagnostic> {
        if self.shared.is_empty() {
            return Ok(());
        }
        let groups: Vec<layout::ChitGroup> = self
            .shared
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
        let (sheets, first) = layout::chit_sheets(&groups, opts.paper, &game.meta.name)
            .map_err(|e| Diagnostic::error(e).with("game", &game.id))?;
        for ((ci, _), page) in self.shared.iter().zip(first) {
            self.bookmarks.push(Bookmark {
                title: game.components[*ci].name(),
                page: self.sheets.len() + page,
            });
        }
        self.sheets.extend(sheets);
        self.shared.clear();
        Ok(())
    }

    /// A board or mat: tiled over the paper, and one page at real size.
    fn board(&mut self, game: &Game, comp: &Component, slots: &[Slot], opts: &Options) {
        let title = format!("{} · {}", game.meta.name, comp.name());
        for (k, s) in slots.iter().enumerate() {
            let (t, name) = if slots.len() > 1 {
                (
                    format!("{title} {}", k + 1),
                    format!("{}-{}-{}", game.id, comp.id(), k + 1),
                )
            } else {
                (title.clone(), format!("{}-{}", game.id, comp.id()))
            };
            self.sheets.extend(layout::tiles(
                s.front, comp.size, comp.bleed, opts.paper, &t,
            ));
            self.real
                .push((name, layout::real_size(s.front, comp.size, comp.bleed, &t)));
        }
    }

    /// Cards, money, aids, pads and two-sided chits: a grid (or gutterfold pairs).
    fn grid(
        &mut self,
        game: &Game,
        comp: &Component,
        slots: &[Slot],
        opts: &Options,
    ) -> Result<(), Diagnostic> {
        let title = format!("{} · {}", game.meta.name, comp.name());
        let gutterfold = opts.profile.output == Output::Gutterfold;
        let items = items(slots, true);
        if comp.kind == Kind::Pad {
            // Pads also go 1-up at their own size, one page per sheet, for a copy shop.
            let pages: Vec<Sheet> = slots
                .iter()
                .map(|s| layout::one_up(s.front, comp.size, comp.bleed, &s.plan.label))
                .collect();
            self.pads
                .push((format!("{}-{}-pad-size", game.id, comp.id()), pages));
        }
        let has_backs = items.iter().any(|i| i.back.is_some());
        let laid = if gutterfold && has_backs {
            layout::gutterfold(&items, comp.size, comp.bleed, opts.paper, &title)
        } else {
            layout::grid(
                &items,
                comp.size,
                comp.bleed,
                layout::grid_style(comp.kind),
                opts.paper,
                &title,
            )
        };
        let mut sheets = laid.map_err(|why| {
            Diagnostic::error(format!("component `{}`: {why}", comp.id()))
                .at(&game.file, Some(comp.def.size.span()))
                .with("game", &game.id)
                .with("component", comp.id())
                .hint("use kind = \"board\" or \"mat\" for parts larger than the paper (they are tiled), or a smaller size")
        })?;
        self.duplex |= has_backs && !gutterfold;
        for sheet in sheets.iter_mut().filter(|s| s.back) {
            layout::offset(sheet, opts.back_offset.0, opts.back_offset.1);
        }
        self.sheets.extend(sheets);
        Ok(())
    }
}

/// Lays out every exported component set for home printing.
fn lay_out(game: &Game, r: &Rendered, opts: &Options) -> Reported<Laid> {
    let mut laid = Laid::default();
    let mut diags = Vec::new();
    for (ci, comp) in game.components.iter().enumerate() {
        let slots = &r.slots[ci];
        if !comp.exported {
            continue;
        }
        let one_sided_chits = comp.kind.uses_cut_lines() && slots.iter().all(|s| s.back.is_none());
        if one_sided_chits {
            // One-sided chits and tokens of consecutive sets share sheets.
            laid.shared.push((ci, items(slots, false)));
            continue;
        }
        if let Err(d) = laid.flush_shared(game, opts) {
            diags.push(d);
        }
        laid.bookmarks.push(Bookmark {
            title: comp.name(),
            page: laid.sheets.len(),
        });
        if comp.kind.is_large() {
            laid.board(game, comp, slots, opts);
        } else if let Err(d) = laid.grid(game, comp, slots, opts) {
            diags.push(d);
        }
    }
    if let Err(d) = laid.flush_shared(game, opts) {
        diags.push(d);
    }
    Reported::new(laid, diags)
}

/// A PDF to write: file, what it is, title, sheets, bookmarks, whether it shows faces.
type PdfFile<'s> = (String, &'s str, String, &'s [Sheet], &'s [Bookmark], bool);

/// The home print: the sheets PDF, pad-size and real-size PDFs, and the duplex
/// calibration page when anything is printed double-sided.
pub(super) fn deliver(game: &Game, r: &Rendered, opts: &Options) -> Reported<Delivered> {
    let mut delivered = Delivered::default();
    let laid = lay_out(game, r, opts);
    if laid.diags.has_errors() {
        return Reported {
            value: delivered,
            diags: laid.diags,
        };
    }
    let mut diags = laid.diags;
    let laid = laid.value;
    delivered.pages = laid.sheets.len();
    if !opts.pdf {
        return Reported {
            value: delivered,
            diags,
        };
    }
    let prefix = &opts.profile.id;
    let how = if opts.profile.output == Output::Gutterfold {
        "print-and-play sheets, one-sided gutterfold"
    } else {
        "print-and-play sheets (print at 100 %, duplex pages flip on the long edge)"
    };
    let mut files: Vec<PdfFile> = vec![(
        format!("{prefix}/{}.pdf", game.id),
        how,
        game.meta.name.clone(),
        &laid.sheets,
        &laid.bookmarks,
        true,
    )];
    for (name, pages) in &laid.pads {
        files.push((
            format!("{prefix}/{name}.pdf"),
            "score-pad sheets at pad size, one per page",
            game.meta.name.clone(),
            pages,
            &[],
            true,
        ));
    }
    for (name, sheet) in &laid.real {
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
    if laid.duplex {
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
    let written = super::in_parallel(
        files
            .iter()
            .map(|(_, _, title, pages, marks, with_faces)| {
                move || pdf_file(r, opts, title, pages, marks, *with_faces)
            })
            .collect(),
    );
    for ((path, how, ..), bytes) in files.iter().zip(written) {
        match bytes {
            Ok(b) => delivered.outputs.add(path.clone(), *how, b),
            Err(d) => diags.push(d.with("game", &game.id)),
        }
    }
    Reported {
        value: delivered,
        diags,
    }
}
