//! Home printing: the print-and-play PDFs (grids, or gutterfold pairs), boards at
//! real size and tiled, pads at their own size, and the duplex calibration page.
//!
//! Sets printed double-sided go to `<game>.pdf`, which asks to be printed duplex
//! (long edge, no scaling): every front sheet is followed by its back, so every
//! front is on an odd page. One-sided sheets (chits, money, aids, boards, pads) go
//! to `<game>-one-sided.pdf`, which asks for one-sided printing; a game with only
//! one kind has `<game>.pdf` alone.

use super::{Delivered, Pdfs};
use crate::diag::{Diagnostic, Reported};
use crate::export::pdf::{self, Bookmark, Printing};
use crate::faces::{Rendered, Slot};
use crate::layout::{self, GridItem, LayoutError, Media, Parts, Sheet};
use crate::model::{Component, Game, Kind};
use crate::options::Options;
use crate::profile::Output;

/// Sheets for one PDF, with a bookmark at the first page of each component set.
#[derive(Default)]
struct Book {
    sheets: Vec<Sheet>,
    bookmarks: Vec<Bookmark>,
}

impl Book {
    /// Adds a component set's sheets under a bookmark.
    fn add(&mut self, title: String, sheets: Vec<Sheet>) {
        if sheets.is_empty() {
            return;
        }
        self.bookmarks
            .push(Bookmark::page(title, self.sheets.len()));
        self.sheets.extend(sheets);
    }
}

/// Every sheet of a game's home print, before it is written.
#[derive(Default)]
struct Laid {
    /// Sets printed double-sided: front and back sheets in pairs.
    duplex: Book,
    /// Sets printed on one side.
    one_sided: Book,
    /// Boards and mats at real size: (file stem, page).
    real: Vec<(String, Sheet)>,
    /// Pads at their own size: (file stem, pages).
    pads: Vec<(String, Vec<Sheet>)>,
    /// One-sided chits and tokens waiting to share sheets: (component, parts).
    shared: Vec<(usize, Vec<GridItem>)>,
    /// Two-sided chits and tokens waiting to share duplex sheets.
    shared_duplex: Vec<(usize, Vec<GridItem>)>,
    /// What the layout had to give up (a grid asked for that leaves less bleed).
    warnings: Vec<Diagnostic>,
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

/// A layout error as a diagnostic at the component's size (or its `layout`).
fn layout_error(game: &Game, comp: &Component, e: LayoutError) -> Diagnostic {
    let (span, hint) = match e {
        LayoutError::GridDoesNotFit { .. } | LayoutError::TriangleSideways => (
            comp.def.layout.as_ref().map(|l| l.span()),
            match e {
                LayoutError::TriangleSideways => "remove orientation = \"sideways\" (from the component's layout or the profile's)".to_string(),
                _ => "print on A4 (--paper a4), with a smaller printer margin (printer_margin in the profile or --printer-margin: an inkjet leaves about 3mm), fewer columns or rows, or orientation = \"auto\" (the most that fit)".to_string(),
            },
        ),
        _ => (None, "use kind = \"board\" or \"mat\" for parts larger than the paper (they are tiled), or a smaller size".to_string()),
    };
    Diagnostic::error(format!("component `{}`: {e}", comp.id()))
        .at(&game.file, Some(span.unwrap_or(comp.def.size.span())))
        .with("game", &game.id)
        .with("component", comp.id())
        .hint(hint)
}

/// The sheet layout a component asks for: its own `layout`, over the profile's
/// for its kind.
fn request(comp: &Component, opts: &Options) -> layout::Request {
    comp.layout.over(opts.profile.layout(comp.kind))
}

impl Laid {
    /// Lays out the waiting chit sets on shared sheets: the one-sided ones, and
    /// the two-sided ones on duplex sheets.
    fn flush_shared(&mut self, game: &Game, opts: &Options) -> Result<(), Diagnostic> {
        let one = std::mem::take(&mut self.shared);
        let two = std::mem::take(&mut self.shared_duplex);
        self.share(game, opts, &one, false)?;
        self.share(game, opts, &two, true)
    }

    /// Chit sets on shared sheets, in the duplex book or the one-sided one.
    fn share(
        &mut self,
        game: &Game,
        opts: &Options,
        sets: &[(usize, Vec<GridItem>)],
        duplex: bool,
    ) -> Result<(), Diagnostic> {
        let Some((first_set, _)) = sets.first() else {
            return Ok(());
        };
        let groups: Vec<layout::ChitGroup> = sets
            .iter()
            .map(|(ci, items)| {
                let c = &game.components[*ci];
                layout::ChitGroup {
                    items,
                    size: c.size,
                    bleed: c.bleed,
                    name: c.name(),
                    request: request(c, opts),
                }
            })
            .collect();
        let (mut sheets, first) =
            layout::chit_sheets(&groups, opts.media(), &game.meta.name, duplex)
                .map_err(|e| layout_error(game, &game.components[*first_set], e))?;
        for sheet in sheets.iter_mut().filter(|s| s.back) {
            layout::offset(sheet, opts.back_offset.0, opts.back_offset.1);
        }
        let book = if duplex {
            &mut self.duplex
        } else {
            &mut self.one_sided
        };
        let start = book.sheets.len();
        for ((ci, _), page) in sets.iter().zip(first) {
            book.bookmarks
                .push(Bookmark::page(game.components[*ci].name(), start + page));
        }
        book.sheets.extend(sheets);
        Ok(())
    }

    /// A board or mat: tiled over the paper, and one page at real size.
    fn board(&mut self, game: &Game, comp: &Component, slots: &[Slot], opts: &Options) {
        let (media, stem) = (opts.media(), opts.stem(&game.id));
        let title = format!("{} · {}", game.meta.name, comp.name());
        let mut tiles = Vec::new();
        for (k, s) in slots.iter().enumerate() {
            let (t, name) = if slots.len() > 1 {
                (
                    format!("{title} {}", k + 1),
                    format!("{stem}-{}-{}", comp.id(), k + 1),
                )
            } else {
                (title.clone(), format!("{stem}-{}", comp.id()))
            };
            tiles.extend(layout::tiles(s.front, comp.size, comp.bleed, media, &t));
            self.real
                .push((name, layout::real_size(s.front, comp.size, comp.bleed, &t)));
        }
        self.one_sided.add(comp.name(), tiles);
    }

    /// A screen larger than the paper: its front and back tiled like a board, on
    /// one side each (the back tiles are glued behind the assembled front).
    fn big_screen(&mut self, game: &Game, comp: &Component, slots: &[Slot], media: Media) {
        let title = format!("{} · {}", game.meta.name, comp.name());
        let mut tiles = Vec::new();
        for (k, s) in slots.iter().enumerate() {
            let n = if slots.len() > 1 {
                format!(" {}", k + 1)
            } else {
                String::new()
            };
            let t = format!("{title}{n}");
            tiles.extend(layout::tiles(s.front, comp.size, comp.bleed, media, &t));
            if let Some(back) = s.back {
                let t = format!("{title}{n} (back, glue behind the front)");
                tiles.extend(layout::tiles(back, comp.size, comp.bleed, media, &t));
            }
        }
        self.one_sided.add(comp.name(), tiles);
    }

    /// Cards, money, aids, screens, pads and two-sided chits: a grid (or gutterfold
    /// pairs, or for a gutterfold build of parts too big to fold, backs to glue).
    fn grid(
        &mut self,
        game: &Game,
        comp: &Component,
        slots: &[Slot],
        opts: &Options,
    ) -> Result<(), Diagnostic> {
        let media = opts.media();
        let title = format!("{} · {}", game.meta.name, comp.name());
        let gutterfold = opts.profile.output == Output::Gutterfold;
        let items = items(slots, true);
        if comp.kind == Kind::Pad {
            // Pads also go 1-up at their own size, one page per sheet, for a copy shop.
            let pages: Vec<Sheet> = slots
                .iter()
                .map(|s| layout::one_up(s.front, comp.size, comp.bleed, &s.plan.name))
                .collect();
            self.pads.push((
                format!("{}-{}-pad-size", opts.stem(&game.id), comp.id()),
                pages,
            ));
        }
        let mut parts = Parts {
            items: &items,
            size: comp.size,
            bleed: comp.bleed,
            style: layout::grid_style(comp.kind),
            panels: comp.panels,
            title: &title,
            glued: false,
            request: request(comp, opts),
        };
        let laid = if gutterfold && parts.two_sided() {
            layout::gutterfold(&parts, media).or_else(|_| {
                parts.glued = true;
                layout::grid(&parts, media)
            })
        } else {
            layout::grid(&parts, media)
        };
        let mut sheets = match laid {
            Ok(s) => s,
            Err(LayoutError::DoesNotFit { .. }) if comp.kind == Kind::Screen => {
                self.big_screen(game, comp, slots, media);
                return Ok(());
            }
            Err(e) => return Err(layout_error(game, comp, e)),
        };
        if let Some(w) = thin_bleed(game, comp, &sheets) {
            self.warnings.push(w);
        }
        for sheet in sheets.iter_mut().filter(|s| s.duplex && s.back) {
            layout::offset(sheet, opts.back_offset.0, opts.back_offset.1);
        }
        if sheets.iter().any(|s| s.duplex) {
            self.duplex.add(comp.name(), sheets);
        } else {
            self.one_sided.add(comp.name(), sheets);
        }
        Ok(())
    }
}

/// A warning when a grid's sheets print less bleed beyond the grid than the
/// parts have: the grid asked for left only that much room for the crop marks.
fn thin_bleed(game: &Game, comp: &Component, sheets: &[Sheet]) -> Option<Diagnostic> {
    let least = sheets
        .iter()
        .filter(|s| !s.placements.is_empty())
        .map(|s| {
            let (t, b) = (s.trim, s.bleed);
            (t.x - b.x)
                .min(t.y - b.y)
                .min(b.right() - t.right())
                .min(b.bottom() - t.bottom())
        })
        .fold(f64::INFINITY, f64::min);
    if least >= comp.bleed - 1e-6 {
        return None;
    }
    let fmt = crate::units::fmt_num;
    Some(
        Diagnostic::warning(format!(
            "the grid asked for leaves room for {} mm of the parts' {} mm bleed beyond its outer edges (the crop marks take the rest): a cut a little outside the line shows white there",
            fmt((least * 100.0).floor() / 100.0),
            fmt(comp.bleed)
        ))
        .at(&game.file, Some(comp.def.layout.as_ref().map_or(comp.def.size.span(), |l| l.span())))
        .with("game", &game.id)
        .with("component", comp.id())
        .hint("print on A4, with a smaller printer margin, or with fewer columns or rows to keep the whole bleed"),
    )
}

/// Lays out every exported component set for home printing.
fn lay_out(game: &Game, r: &Rendered, opts: &Options) -> Reported<Laid> {
    let mut laid = Laid::default();
    let mut diags = Vec::new();
    for (ci, comp) in game.components.iter().enumerate() {
        let slots = &r.slots[ci];
        if !comp.exported || slots.is_empty() {
            continue;
        }
        if comp.kind.uses_cut_lines() {
            // Chits and tokens of consecutive sets share sheets: one-sided ones,
            // and (printed duplex, not folded) two-sided ones.
            if slots.iter().all(|s| s.back.is_none()) {
                laid.shared.push((ci, items(slots, false)));
                continue;
            }
            if opts.profile.output != Output::Gutterfold {
                laid.shared_duplex.push((ci, items(slots, true)));
                continue;
            }
        }
        if let Err(d) = laid.flush_shared(game, opts) {
            diags.push(d);
        }
        if comp.kind.is_large() {
            laid.board(game, comp, slots, opts);
        } else if let Err(d) = laid.grid(game, comp, slots, opts) {
            diags.push(d);
        }
    }
    if let Err(d) = laid.flush_shared(game, opts) {
        diags.push(d);
    }
    diags.append(&mut laid.warnings);
    Reported::new(laid, diags)
}

/// A PDF to write.
struct PdfFile<'s> {
    path: String,
    what: String,
    title: String,
    sheets: &'s [Sheet],
    bookmarks: &'s [Bookmark],
    with_faces: bool,
    printing: Printing,
}

/// The print-and-play PDFs: `<game>.pdf` (double-sided sets, else everything) and
/// `<game>-one-sided.pdf` when the game has both kinds.
fn sheet_files<'s>(game: &Game, laid: &'s Laid, opts: &Options) -> Vec<PdfFile<'s>> {
    let (prefix, stem) = (opts.folder(), opts.stem(&game.id));
    let duplex_what = "print-and-play sheets: print double-sided, flip on the long edge, at 100 %";
    let one_sided_what = "print-and-play sheets: print one-sided, at 100 %";
    let name = game.meta.name.clone();
    let file = |path: String, what: &str, title: String, book: &'s Book, printing| PdfFile {
        path,
        what: what.to_string(),
        title,
        sheets: &book.sheets,
        bookmarks: &book.bookmarks,
        with_faces: true,
        printing,
    };
    let main = format!("{prefix}/{stem}.pdf");
    match (
        laid.duplex.sheets.is_empty(),
        laid.one_sided.sheets.is_empty(),
    ) {
        (false, false) => vec![
            file(
                main,
                duplex_what,
                name.clone(),
                &laid.duplex,
                Printing::LongEdge,
            ),
            file(
                format!("{prefix}/{stem}-one-sided.pdf"),
                one_sided_what,
                format!("{name} (one-sided)"),
                &laid.one_sided,
                Printing::OneSided,
            ),
        ],
        (false, true) => vec![file(
            main,
            duplex_what,
            name,
            &laid.duplex,
            Printing::LongEdge,
        )],
        _ => vec![file(
            main,
            one_sided_what,
            name,
            &laid.one_sided,
            Printing::OneSided,
        )],
    }
}

/// The home print: the sheets PDFs, pad-size and real-size PDFs, and the duplex
/// calibration page when anything is printed double-sided, written through `pdfs`
/// into `delivered` (empty).
/// With `rules`, the rulebook's PDFs are drawn with them ([`super::rulebook::write`]).
pub(super) fn deliver(
    game: &Game,
    r: &Rendered,
    opts: &Options,
    pdfs: &Pdfs,
    mut delivered: Delivered,
    rules: Option<&(&crate::rulebook::Rulebook, super::rulebook::Planned)>,
) -> Reported<Delivered> {
    let laid = lay_out(game, r, opts);
    if laid.diags.has_errors() {
        return Reported {
            value: delivered,
            diags: laid.diags,
        };
    }
    let mut diags = laid.diags;
    let laid = laid.value;
    delivered.pages = laid.duplex.sheets.len() + laid.one_sided.sheets.len();
    if !opts.pdf {
        return Reported {
            value: delivered,
            diags,
        };
    }
    let calibration = layout::calibration(opts.paper, opts.back_offset);
    let files = pdf_files(game, &laid, opts, &calibration);
    for f in files.iter().filter(|f| f.with_faces) {
        delivered.record(&f.path, f.sheets);
    }
    if !opts.encode {
        return Reported {
            value: delivered,
            diags,
        };
    }
    // The files with faces are drawn together, each face once; the calibration
    // page (the same in every game) is kept from the first game that drew it.
    super::will_draw(r, files.iter().filter(|f| f.with_faces).map(|f| f.sheets));
    let with_faces: Vec<(&str, &[Sheet], &[pdf::Bookmark])> = files
        .iter()
        .filter(|f| f.with_faces)
        .map(|f| (f.title.as_str(), f.sheets, f.bookmarks))
        .collect();
    let mut sheet_files = None;
    let rule_files = rules.map(|(book, planned)| {
        let with_rules = |reading: pdf::Job<'_>| {
            let written = pdfs.write_all(&with_faces, Some(reading))?;
            sheet_files = Some(written.files);
            written
                .extra
                .ok_or_else(|| Diagnostic::error("the rulebook was not drawn"))
        };
        super::rulebook::write(game, planned, book, pdfs, &opts.profile.id, with_rules)
    });
    let sheet_files = match sheet_files {
        Some(files) => Ok(files),
        None => pdfs.write_all(&with_faces, None).map(|w| w.files),
    };
    let mut drawn = match sheet_files {
        Ok(d) => d.into_iter(),
        Err(d) => {
            diags.push(d.with("game", &game.id));
            return Reported {
                value: delivered,
                diags,
            };
        }
    };
    let written: Vec<Result<Vec<u8>, Diagnostic>> = files
        .iter()
        .map(|f| {
            let bytes = match f.with_faces {
                true => drawn
                    .next()
                    .ok_or_else(|| Diagnostic::error("a PDF was not drawn")),
                false => pdfs.write(&f.title, f.sheets, f.bookmarks, false),
            };
            bytes.and_then(|b| {
                pdf::ask_to_print(b, f.printing).map_err(|e| Diagnostic::error(e.to_string()))
            })
        })
        .collect();
    for (f, bytes) in files.iter().zip(written) {
        match bytes {
            Ok(b) => delivered.outputs.add(f.path.clone(), f.what.clone(), b),
            Err(d) => diags.push(d.with("game", &game.id)),
        }
    }
    match rule_files {
        Some(Ok(rules)) => {
            for (path, what, bytes) in rules {
                delivered.outputs.add(path, what, bytes);
            }
        }
        Some(Err(d)) => diags.push(d),
        None => {}
    }
    Reported {
        value: delivered,
        diags,
    }
}

/// Every PDF of the home print: the sheets ([`sheet_files`]), each pad at its
/// size, each board at real size, and the duplex `calibration` page when anything
/// prints double-sided (not in a reprint).
fn pdf_files<'s>(
    game: &Game,
    laid: &'s Laid,
    opts: &Options,
    calibration: &'s [Sheet],
) -> Vec<PdfFile<'s>> {
    let prefix = &opts.folder();
    let mut files = sheet_files(game, laid, opts);
    for (name, pages) in &laid.pads {
        files.push(PdfFile {
            path: format!("{prefix}/{name}.pdf"),
            what: "score-pad sheets at pad size, one per page".into(),
            title: game.meta.name.clone(),
            sheets: pages,
            bookmarks: &[],
            with_faces: true,
            printing: Printing::OneSided,
        });
    }
    for (name, sheet) in &laid.real {
        files.push(PdfFile {
            path: format!("{prefix}/{name}-real-size.pdf"),
            what: "board at real size with bleed and crop marks".into(),
            title: format!("{} — {}", game.meta.name, sheet.label),
            sheets: std::slice::from_ref(sheet),
            bookmarks: &[],
            with_faces: true,
            printing: Printing::OneSided,
        });
    }
    if !laid.duplex.sheets.is_empty() && !opts.reprint {
        files.push(PdfFile {
            path: format!("{prefix}/duplex-calibration.pdf"),
            what: "duplex calibration: print both pages double-sided, read the offset for --back-offset".into(),
            title: "Duplex calibration".into(),
            sheets: calibration,
            bookmarks: &[],
            with_faces: false,
            printing: Printing::LongEdge,
        });
    }
    files
}

#[cfg(test)]
mod tests {
    use crate::fonts::FontBook;
    use crate::layout::marks::{label_font, Mark};

    #[test]
    fn every_label_carries_the_width_and_glyphs_of_its_own_text() {
        // Labels are shaped once, when the layout makes them: the width the placer
        // measured and the glyphs the PDF writer draws travel with the label. Each
        // label of a real game's sheets against a fresh measure and shaping.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let project = crate::project::Project::disk(root).unwrap();
        let built = crate::pipeline::build(
            &project,
            "interstate-trucking",
            &crate::options::Options::default(),
            crate::pipeline::Incremental::default(),
            crate::output::Sink::Memory,
        );
        assert!(!built.diags.has_errors(), "{}", built.diags.render(&()));
        let mut labels = 0;
        for sheet in built.printed.iter().filter_map(|p| p.sheet.as_ref()) {
            for m in &sheet.marks {
                let Mark::Label { size, text, .. } = m else {
                    continue;
                };
                labels += 1;
                let s = text.as_str();
                let fresh = crate::text::width(s, *size, &label_font(), &FontBook::builtin());
                assert_eq!(text.width(*size), fresh.ok(), "the width of {s:?}");
                let shaped = crate::text::shape_label(s, &label_font()).unwrap();
                assert_eq!(text.shaped(), Some(&shaped), "the glyphs of {s:?}");
            }
        }
        // Every sheet of cards, boards and chits is labelled.
        assert!(labels > 20, "{labels} labels");
    }
}
