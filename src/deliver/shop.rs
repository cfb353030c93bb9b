//! Print-shop files: one PNG per face at the shop's pixel size, or one face per PDF
//! page at the shop's page size.

use std::collections::{BTreeMap, BTreeSet};

use super::{Delivered, Pdfs};
use crate::diag::{did_you_mean, Diagnostic, Reported};
use crate::export::png::PngCache;
use crate::faces::Rendered;
use crate::layout::{self, Sheet};
use crate::model::{Component, Game, Row, Table};
use crate::options::Options;
use crate::profile::pattern::{FilePattern, Unfilled, BUILT_IN};
use crate::render::{art_file, FacePlan};

/// One PNG per face at the shop's pixel size, into `delivered` (empty).
pub(super) fn png_files(
    game: &Game,
    r: &Rendered,
    opts: &Options,
    cache: Option<&dyn PngCache>,
    delivered: Delivered,
) -> Reported<Delivered> {
    match png_outputs(game, r, opts, cache, delivered) {
        Ok(d) => d.into(),
        Err(d) => Reported::new(Delivered::default(), [d.with("game", &game.id)]),
    }
}

fn png_outputs(
    game: &Game,
    r: &Rendered,
    opts: &Options,
    cache: Option<&dyn PngCache>,
    mut delivered: Delivered,
) -> Result<Delivered, Diagnostic> {
    let p = &opts.profile;
    let prefix = &opts.folder();
    let built = &mut delivered;
    let err = |e: crate::export::png::PngError| Diagnostic::error(e.to_string());
    for file in face_files(game, r, &p.path).map_err(|d| d.with("profile", &p.id))? {
        let s = &r.slots[file.set][file.slot];
        let path = format!("{prefix}/{}", file.path);
        built.record_image(
            path.clone(),
            format!("{} {}", s.plan.name, file.side),
            vec![file.face],
        );
        if !opts.encode {
            continue;
        }
        let bytes = super::face_png(r, file.face, p.dpi, p.color, cache).map_err(err)?;
        let what = if file.side == "front" {
            format!(
                "{} front, print {} ({} dpi, bleed included)",
                s.plan.name, s.plan.qty, p.dpi
            )
        } else {
            format!("{} back", s.plan.name)
        };
        built.outputs.add(path, what, bytes);
    }
    Ok(delivered)
}

/// One file of a shop's per-face files.
struct FaceFile {
    /// The component set (index in `game.components`) and the slot in it.
    set: usize,
    slot: usize,
    face: usize,
    side: &'static str,
    /// The name the profile's `path` gives it, under the profile's folder.
    path: String,
}

/// The file of every exported face, front and distinct back, named by `pattern`.
/// A placeholder that is neither built in nor a field of the set's rows, a face
/// without a value for it, and two faces given one name (letter case aside, as
/// some file systems ignore it) are errors at the profile's `path`.
fn face_files(
    game: &Game,
    r: &Rendered,
    pattern: &FilePattern,
) -> Result<Vec<FaceFile>, Diagnostic> {
    let mut files = Vec::new();
    for (ci, comp) in game.components.iter().enumerate() {
        if !comp.exported {
            continue;
        }
        let table = comp
            .def
            .table
            .as_ref()
            .and_then(|t| game.tables.get(t.get_ref()));
        unknown_placeholder(comp, table, pattern)?;
        let mut backs_done = BTreeSet::new();
        for (i, s) in r.slots[ci].iter().enumerate() {
            let mut sides = vec![(s.front, "front")];
            if let Some(b) = s.back.filter(|b| backs_done.insert(*b)) {
                sides.push((b, "back"));
            }
            let row = s.plan.row.zip(table).map(|(k, t)| (t, &t.rows[k]));
            for (face, side) in sides {
                let value = |name: &str| {
                    placeholder_value(comp, s.index, side, &s.plan, row.map(|(_, r)| r), name)
                };
                let path = pattern
                    .fill(value)
                    .map_err(|u| unfilled(comp, pattern, &s.plan, row, u))?;
                files.push(FaceFile {
                    set: ci,
                    slot: i,
                    face,
                    side,
                    path,
                });
            }
        }
    }
    same_names(r, pattern, &files)?;
    Ok(files)
}

/// The value of placeholder `name` for one side of face `number` (0-based) of
/// `comp`: a built-in one, else the row's field (an `art` face's `id` is its
/// file's name without the extension).
fn placeholder_value(
    comp: &Component,
    number: usize,
    side: &str,
    plan: &FacePlan,
    row: Option<&Row>,
    name: &str,
) -> Result<String, Unfilled> {
    match name {
        "component" => return Ok(comp.id().to_string()),
        "number" => return Ok(format!("{:03}", number + 1)),
        "side" => return Ok(side.to_string()),
        _ => {}
    }
    let value = row.and_then(|r| r.fields.get(name).map(|f| &f.value).or(r.derived.get(name)));
    match value {
        Some(toml::Value::String(s)) => Ok(s.clone()),
        Some(toml::Value::Integer(n)) => Ok(n.to_string()),
        Some(toml::Value::Float(f)) => Ok(crate::units::fmt_num(*f)),
        Some(toml::Value::Boolean(b)) => Ok(b.to_string()),
        Some(toml::Value::Datetime(d)) => Ok(d.to_string()),
        Some(_) => Err(Unfilled::NotText(name.to_string())),
        None if name == "id" && row.is_none() => art_file(plan)
            .and_then(|f| f.file_stem())
            .map(|s| s.to_string_lossy().into_owned())
            .ok_or_else(|| Unfilled::Missing(name.to_string())),
        None => Err(Unfilled::Missing(name.to_string())),
    }
}

/// An error for a placeholder of `pattern` that `comp`'s faces cannot have: not
/// built in, and no row of its table has such a field.
fn unknown_placeholder(
    comp: &Component,
    table: Option<&Table>,
    pattern: &FilePattern,
) -> Result<(), Diagnostic> {
    let mut fields: BTreeSet<&str> = BTreeSet::new();
    for row in table.map(|t| &t.rows[..]).unwrap_or_default() {
        fields.extend(
            row.fields
                .keys()
                .chain(row.derived.keys())
                .map(String::as_str),
        );
    }
    let built_in = || BUILT_IN.iter().map(|(n, _)| *n);
    let Some((name, span)) = pattern
        .placeholders()
        .find(|(n, _)| !built_in().any(|b| b == *n) && !fields.contains(n))
    else {
        return Ok(());
    };
    let mut known: Vec<String> = built_in().map(|n| format!("{{{n}}}")).collect();
    let fields_of = match table {
        Some(t) => {
            known.extend(
                fields
                    .iter()
                    .filter(|f| !built_in().any(|b| b == **f))
                    .map(|f| format!("{{{f}}}")),
            );
            format!("the fields of table `{}`", t.name)
        }
        None => "a set without a table has no row fields".to_string(),
    };
    let near = did_you_mean(name, built_in().chain(fields.iter().copied()));
    let hint = match near {
        Some(m) => format!(
            "did you mean `{{{m}}}`? Placeholders for `{}`: {} ({fields_of})",
            comp.id(),
            known.join(", ")
        ),
        None => format!(
            "placeholders for `{}`: {} ({fields_of})",
            comp.id(),
            known.join(", ")
        ),
    };
    Err(pattern
        .error(
            format!(
                "the profile path `{}` has an unknown placeholder `{{{name}}}`",
                pattern.text
            ),
            Some(span.clone()),
            &hint,
        )
        .with("component", comp.id()))
}

/// The error for a face that cannot fill a placeholder, at its row when it has
/// one.
fn unfilled(
    comp: &Component,
    pattern: &FilePattern,
    plan: &FacePlan,
    row: Option<(&Table, &Row)>,
    why: Unfilled,
) -> Diagnostic {
    let label = &plan.label;
    let (message, hint) = match &why {
        Unfilled::Missing(n) => (
            format!(
                "{label} has no `{n}` for the profile path `{}`",
                pattern.text
            ),
            format!("give every row of the set a `{n}`, or use a placeholder every face has"),
        ),
        Unfilled::NotText(n) => (
            format!(
                "{label}: `{n}` is a list or a table, which cannot name a file (profile path `{}`)",
                pattern.text
            ),
            "name files from a field holding text or a number".to_string(),
        ),
        Unfilled::Empty(n) => (
            format!(
                "{label}: `{n}` leaves nothing for a file name (profile path `{}`)",
                pattern.text
            ),
            "file names keep letters, digits, `-`, `_` and `.`: give the field a value with some"
                .to_string(),
        ),
    };
    let d = Diagnostic::error(message)
        .hint(hint)
        .with("component", comp.id());
    match row {
        Some((t, r)) => t
            .at(d, r, None, false)
            .with("profile path", pattern.text.clone()),
        None => match &pattern.at {
            Some((file, span)) => d.at(file, Some(span.clone())),
            None => d,
        },
    }
}

/// An error when two of `files` have one name (letter case aside).
fn same_names(r: &Rendered, pattern: &FilePattern, files: &[FaceFile]) -> Result<(), Diagnostic> {
    let mut seen: BTreeMap<String, &FaceFile> = BTreeMap::new();
    let mut first = None;
    let mut clashes = 0;
    for f in files {
        if let Some(earlier) = seen.insert(f.path.to_lowercase(), f) {
            clashes += 1;
            first.get_or_insert((earlier, f));
        }
    }
    let Some((a, b)) = first else { return Ok(()) };
    let name = |f: &FaceFile| format!("{} {}", r.slots[f.set][f.slot].plan.label, f.side);
    let files = if a.path == b.path {
        format!("would both be `{}`", b.path)
    } else {
        format!(
            "would be `{}` and `{}`, one file where letter case does not count (Windows, macOS)",
            a.path, b.path
        )
    };
    let more = if clashes > 1 {
        format!("; {clashes} faces in all would be written over another")
    } else {
        String::new()
    };
    Err(pattern.error(
        format!(
            "the profile path `{}` gives two faces one file: {} and {} {files}{more}",
            pattern.text,
            name(a),
            name(b)
        ),
        None,
        "add a placeholder that tells the faces apart: `{number}`, or `{id}` (with `{component}` when two sets share ids)",
    ))
}

/// The pages of a set's PDF: each copy of each slot's front, then its back
/// (`back_first`: back then front), one face a page.
fn face_pages(comp: &Component, slots: &[crate::faces::Slot], back_first: bool) -> Vec<Sheet> {
    let mut pages = Vec::new();
    for s in slots {
        for _ in 0..s.plan.qty {
            let front = layout::one_up(
                s.front,
                comp.size,
                comp.bleed,
                &format!("{} front", s.plan.name),
            );
            match s.back {
                Some(b) => {
                    let back =
                        layout::one_up(b, comp.size, comp.bleed, &format!("{} back", s.plan.name));
                    if back_first {
                        pages.extend([back, front]);
                    } else {
                        pages.extend([front, back]);
                    }
                }
                None => pages.push(front),
            }
        }
    }
    pages
}

/// One face per PDF page at the shop's page size, a PDF per component set,
/// written through `pdfs` into `delivered` (empty).
pub(super) fn pdf_files(
    game: &Game,
    r: &Rendered,
    opts: &Options,
    pdfs: &Pdfs,
    mut delivered: Delivered,
) -> Reported<Delivered> {
    let prefix = &opts.folder();
    let built = &mut delivered;
    // (file, what it is, title, pages): one PDF per component set.
    let mut files = Vec::new();
    for (ci, comp) in game.components.iter().enumerate() {
        if !comp.exported || r.slots[ci].is_empty() {
            continue;
        }
        let pages = face_pages(comp, &r.slots[ci], opts.profile.back_first);
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
            .map(|(_, _, title, pages)| move || pdfs.write(title, pages, &[], true))
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
