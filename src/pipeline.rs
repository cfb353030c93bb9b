//! One game through the whole pipeline: load, check, render, parse, lay out, export.
//! Returns the files to write and every diagnostic; writes nothing itself.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use usvg::Tree;

use crate::check::{check_asserts, check_contents, check_structure};
use crate::diag::{Diagnostic, Diagnostics};
use crate::eval::{apply_derives, build_network};
use crate::export::{pdf, png};
use crate::layout::{self, GridItem, Paper, Sheet};
use crate::model::{load_game, Component, Game};
use crate::output::Outputs;
use crate::render::{self, Face, FacePlan};
use crate::svg::{self, SvgProblem};
use crate::template::Templates;

/// What to produce.
#[derive(Debug, Clone)]
pub struct Options {
    pub paper: Paper,
    pub pdf: bool,
    pub svg: bool,
    pub png: bool,
    /// PNG resolution.
    pub dpi: f64,
    /// `--copies N`: templates and expressions see it as `settings.copies`.
    pub copies: Option<u32>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            paper: layout::PAPERS[0],
            pdf: true,
            svg: false,
            png: false,
            dpi: 300.0,
            copies: None,
        }
    }
}

/// Per component set: what the build prints.
#[derive(Debug, Clone)]
pub struct Count {
    pub id: String,
    pub kind: String,
    /// Distinct faces (rows, expanded items).
    pub faces: usize,
    /// Printed parts (faces x copies).
    pub parts: u64,
    /// The rules' count from `[contents]`, if listed.
    pub expected: Option<i64>,
}

/// The result of running a game through the pipeline.
#[derive(Debug, Default)]
pub struct Built {
    pub outputs: Outputs,
    pub diags: Diagnostics,
    pub counts: Vec<Count>,
    pub pages: usize,
}

/// Loads and checks a game: the first half of the pipeline, shared by `check`
/// and `build`. Returns the game, templates and plans only if there are no errors.
pub fn load_and_check(
    root: &Path,
    id: &str,
    opts: &Options,
    built: &mut Built,
) -> Option<(Game, Templates, Vec<Vec<FacePlan>>)> {
    let (tpl, tdiags) = Templates::load(root);
    // Template syntax errors anywhere in templates/ matter only for this game's and
    // common templates.
    built.diags.extend(tdiags.into_iter().filter(|d| {
        d.file.as_ref().is_some_and(|f| {
            f.starts_with(Path::new("templates").join(id)) || f.starts_with("templates/common")
        })
    }));
    let (game, diags) = load_game(root, id);
    built.diags.extend(diags);
    let mut game = game?;
    game.settings
        .insert("paper".into(), minijinja::Value::from(opts.paper.name));
    game.settings.insert(
        "copies".into(),
        opts.copies
            .map(minijinja::Value::from)
            .unwrap_or(minijinja::Value::from(())),
    );
    let structure = check_structure(&game);
    let broken = game.unparsed_data || structure
        .iter()
        .any(|d| d.severity == crate::diag::Severity::Error);
    built.diags.extend(structure);
    let net = build_network(&game, &tpl);
    let broken = broken
        || net
            .iter()
            .any(|d| d.severity == crate::diag::Severity::Error);
    built.diags.extend(net);
    let derived = if broken {
        Vec::new()
    } else {
        apply_derives(&mut game, &tpl)
    };
    let broken = broken || !derived.is_empty();
    built.diags.extend(derived);
    let mut plans = Vec::new();
    let mut counts = BTreeMap::new();
    for comp in &game.components {
        let (p, d) = render::plan(&game, &tpl, comp);
        let planned = !d.iter().any(|d| d.severity == crate::diag::Severity::Error)
            && comp.def.table.as_ref().is_none_or(|t| game.tables.contains_key(t.get_ref()));
        built.diags.extend(d);
        let parts: u64 = p.iter().map(|f| f.qty as u64).sum();
        if planned {
            // A set whose rows had errors is not counted: its count would be wrong.
            counts.insert(comp.id().to_string(), parts);
        }
        built.counts.push(Count {
            id: comp.id().to_string(),
            kind: format!("{:?}", comp.kind).to_lowercase(),
            faces: p.len(),
            parts,
            expected: game
                .contents
                .iter()
                .find(|(n, _)| n.get_ref() == comp.id())
                .map(|(_, e)| *e.get_ref()),
        });
        plans.push(p);
    }
    built.diags.extend(check_contents(&game, &counts));
    if !broken {
        // Assertions over broken references would only repeat the errors above.
        built.diags.extend(check_asserts(&game, &tpl));
    }
    if built.diags.has_errors() {
        return None;
    }
    Some((game, tpl, plans))
}

/// Distinct face pictures, deduplicated by their SVG text.
#[derive(Default)]
struct FaceStore {
    trees: Vec<Tree>,
    /// Full size (trim + bleed) in mm.
    sizes: Vec<(f64, f64)>,
    /// Output name: `<component>/<NNN>-front`.
    names: Vec<String>,
    svgs: Vec<String>,
    by_text: BTreeMap<String, usize>,
}

impl FaceStore {
    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        root: &Path,
        game: &Game,
        comp: &Component,
        face: &Face,
        side: &str,
        text: &str,
        index: usize,
        diags: &mut Diagnostics,
    ) -> Option<usize> {
        if let Some(&i) = self.by_text.get(text) {
            return Some(i);
        }
        let image_dir = root.join("templates").join(&game.id);
        let tree = match svg::parse(text, root, &image_dir) {
            Ok(t) => t,
            Err(problems) => {
                let template = if side == "front" {
                    &comp.def.front
                } else {
                    comp.def.back.as_ref().unwrap_or(&comp.def.front)
                };
                let file = PathBuf::from("templates")
                    .join(&game.id)
                    .join(template.get_ref());
                let source = std::fs::read_to_string(root.join(&file)).unwrap_or_default();
                for p in problems {
                    let (msg, hint) = p.describe();
                    // Point at the template line that most likely caused it.
                    let needle = match &p {
                        SvgProblem::MissingFont(f) => f.trim_matches('"').to_string(),
                        SvgProblem::Href(h) => h.split('`').nth(1).unwrap_or("href").to_string(),
                        SvgProblem::BadColour { attribute, .. } => format!("{attribute}=\""),
                        SvgProblem::MissingGlyphs(_)
                        | SvgProblem::Syntax { .. }
                        | SvgProblem::Size(_)
                        | SvgProblem::TooBig(_) => String::new(),
                    };
                    let span = (!needle.is_empty())
                        .then(|| source.find(&needle).map(|i| i..i + needle.len()))
                        .flatten();
                    let d = Diagnostic::error(msg)
                        .at(&file, span)
                        .with("game", &game.id)
                        .with("component", comp.id())
                        .with("row", face.plan.label.clone())
                        .with("template", template.get_ref().clone())
                        .hint(hint);
                    diags.push(d);
                }
                return None;
            }
        };
        let i = self.trees.len();
        self.trees.push(tree);
        self.sizes.push((
            comp.size.width + 2.0 * comp.bleed,
            comp.size.height + 2.0 * comp.bleed,
        ));
        self.names
            .push(format!("{}/{:03}-{side}", comp.id(), index + 1));
        self.svgs.push(text.to_string());
        self.by_text.insert(text.to_string(), i);
        Some(i)
    }
}

/// Runs a game through the whole pipeline.
pub fn build(root: &Path, id: &str, opts: &Options) -> Built {
    let mut built = Built::default();
    let Some((game, tpl, plans)) = load_and_check(root, id, opts, &mut built) else {
        return built;
    };

    // Render and parse every face.
    let mut store = FaceStore::default();
    let mut per_comp: Vec<Vec<(usize, Option<usize>, &FacePlan)>> = Vec::new();
    let mut rendered: Vec<Vec<Face>> = Vec::new();
    for (comp, p) in game.components.iter().zip(&plans) {
        let (faces, d) = render::render(&game, &tpl, comp, p);
        built.diags.extend(d);
        rendered.push(faces);
    }
    if built.diags.has_errors() {
        return built;
    }
    for (ci, comp) in game.components.iter().enumerate() {
        let mut list = Vec::new();
        for (i, face) in rendered[ci].iter().enumerate() {
            let f = store.add(
                root,
                &game,
                comp,
                face,
                "front",
                &face.front,
                i,
                &mut built.diags,
            );
            let b = face
                .back
                .as_ref()
                .map(|b| store.add(root, &game, comp, face, "back", b, i, &mut built.diags));
            match (f, b) {
                (Some(f), None) => list.push((f, None, &face.plan)),
                (Some(f), Some(Some(b))) => list.push((f, Some(b), &face.plan)),
                _ => {}
            }
        }
        per_comp.push(list);
    }
    if built.diags.has_errors() {
        return built;
    }

    // Lay out.
    let mut sheets: Vec<Sheet> = Vec::new();
    let mut bookmarks = Vec::new();
    let mut real: Vec<(String, Sheet)> = Vec::new();
    let mut pad_pages: Vec<(String, Vec<Sheet>)> = Vec::new();
    for (ci, comp) in game.components.iter().enumerate() {
        let title = format!("{} · {}", game.meta.name, comp.name());
        bookmarks.push(pdf::Bookmark {
            title: comp.name(),
            page: sheets.len(),
        });
        if comp.kind.is_large() {
            for (k, (f, _, _)) in per_comp[ci].iter().enumerate() {
                let t = if per_comp[ci].len() > 1 {
                    format!("{title} {}", k + 1)
                } else {
                    title.clone()
                };
                sheets.extend(layout::tiles(*f, comp.size, comp.bleed, opts.paper, &t));
                let name = if per_comp[ci].len() > 1 {
                    format!("{}-{}-{}", game.id, comp.id(), k + 1)
                } else {
                    format!("{}-{}", game.id, comp.id())
                };
                real.push((name, layout::real_size(*f, comp.size, comp.bleed, &t)));
            }
            continue;
        }
        let items: Vec<GridItem> = per_comp[ci]
            .iter()
            .flat_map(|(f, b, p)| {
                std::iter::repeat_n(
                    GridItem {
                        front: *f,
                        back: *b,
                        shape: p.shape,
                    },
                    p.qty as usize,
                )
            })
            .collect();
        if comp.kind == crate::model::Kind::Pad {
            // Pads also go 1-up at their own size, one page per sheet, for a copy shop.
            let pages: Vec<Sheet> = per_comp[ci]
                .iter()
                .map(|(f, _, p)| layout::one_up(*f, comp.size, comp.bleed, &p.label))
                .collect();
            pad_pages.push((format!("{}-{}-pad-size", game.id, comp.id()), pages));
        }
        match layout::grid(&items, comp.size, comp.bleed, comp.kind.grid_style(), opts.paper, &title) {
            Ok(s) => sheets.extend(s),
            Err(why) => built.diags.push(
                Diagnostic::error(format!("component `{}`: {why}", comp.id()))
                    .at(&game.file, Some(comp.def.size.span()))
                    .with("game", &game.id)
                    .with("component", comp.id())
                    .hint("use kind = \"board\" or \"mat\" for parts larger than the paper (they are tiled), or a smaller size"),
            ),
        }
    }
    if built.diags.has_errors() {
        return built;
    }
    built.pages = sheets.len();

    // Export.
    let out = &mut built.outputs;
    if opts.pdf {
        let chromes: Result<Vec<Tree>, _> = sheets
            .iter()
            .map(|s| svg::parse(&s.chrome, root, root))
            .collect();
        let chromes = match chromes {
            Ok(c) => c,
            Err(p) => {
                built.diags.push(Diagnostic::error(format!(
                    "internal error: sheet marks do not parse: {p:?}"
                )));
                return built;
            }
        };
        let pages: Vec<pdf::Page> = sheets
            .iter()
            .zip(&chromes)
            .map(|(sheet, chrome)| pdf::Page { sheet, chrome })
            .collect();
        match pdf::write(&game.meta.name, &pages, &store.trees, &bookmarks) {
            Ok(bytes) => out.add(format!("{}.pdf", game.id), bytes),
            Err(e) => built
                .diags
                .push(Diagnostic::error(e).with("game", &game.id)),
        }
        for (name, pages) in &pad_pages {
            let empty = match svg::parse(&pages[0].chrome, root, root) {
                Ok(t) => t,
                Err(p) => {
                    built.diags.push(Diagnostic::error(format!(
                        "internal error: sheet marks do not parse: {p:?}"
                    )));
                    return built;
                }
            };
            let list: Vec<pdf::Page> = pages
                .iter()
                .map(|sheet| pdf::Page {
                    sheet,
                    chrome: &empty,
                })
                .collect();
            match pdf::write(&game.meta.name, &list, &store.trees, &[]) {
                Ok(bytes) => out.add(format!("{name}.pdf"), bytes),
                Err(e) => built
                    .diags
                    .push(Diagnostic::error(e).with("game", &game.id)),
            }
        }
        for (name, sheet) in &real {
            match svg::parse(&sheet.chrome, root, root) {
                Ok(chrome) => match pdf::write(
                    &format!("{} — {}", game.meta.name, sheet.label),
                    &[pdf::Page {
                        sheet,
                        chrome: &chrome,
                    }],
                    &store.trees,
                    &[],
                ) {
                    Ok(bytes) => out.add(format!("{name}-real-size.pdf"), bytes),
                    Err(e) => built
                        .diags
                        .push(Diagnostic::error(e).with("game", &game.id)),
                },
                Err(p) => built.diags.push(Diagnostic::error(format!(
                    "internal error: sheet marks do not parse: {p:?}"
                ))),
            }
        }
    }
    if opts.svg {
        for (name, text) in store.names.iter().zip(&store.svgs) {
            out.add(format!("svg/{name}.svg"), text.clone().into_bytes());
        }
    }
    if opts.png {
        for ((name, tree), (w, h)) in store.names.iter().zip(&store.trees).zip(&store.sizes) {
            match png::write(tree, *w, *h, opts.dpi) {
                Ok(bytes) => out.add(format!("png/{name}.png"), bytes),
                Err(e) => built
                    .diags
                    .push(Diagnostic::error(format!("{name}: {e}")).with("game", &game.id)),
            }
        }
    }
    built
}
