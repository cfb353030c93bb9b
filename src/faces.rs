//! Rendering and parsing every face of a game once: distinct pictures are stored
//! once (deduplicated by their SVG text) and every component lists its faces as
//! indices into the store.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use usvg::Tree;

use crate::diag::{Diagnostic, Diagnostics};
use crate::model::{Component, Game};
use crate::render::{self, Face, FacePlan};
use crate::svg::{self, SvgProblem};
use crate::template::Templates;
use rayon::prelude::*;

/// Distinct face pictures.
#[derive(Default)]
pub struct FaceStore {
    pub trees: Vec<Tree>,
    /// Full size (trim + bleed) in mm.
    pub sizes: Vec<(f64, f64)>,
    /// Output name: `<component>/<NNN>-front`.
    pub names: Vec<String>,
    /// The SVG text.
    pub svgs: Vec<String>,
    by_text: BTreeMap<String, usize>,
    /// (template, message) already reported: a broken template fails on every row,
    /// and one report (naming the first row) says it.
    reported: std::collections::BTreeSet<(PathBuf, String)>,
    /// Parse results computed ahead, in parallel (and from the cache).
    pre: std::collections::HashMap<String, Result<Tree, Vec<SvgProblem>>>,
}

/// Parsed faces kept between builds (watch mode): keyed by the SVG text's hash, so
/// an unchanged face is not parsed again. The fonts are compiled in, so the text
/// alone decides the picture.
#[derive(Default)]
pub struct ParseCache {
    trees: std::sync::Mutex<std::collections::HashMap<[u8; 32], Tree>>,
    /// Faces parsed / taken from the cache in the last build.
    pub parsed: std::sync::atomic::AtomicUsize,
    pub reused: std::sync::atomic::AtomicUsize,
}

impl ParseCache {
    fn key(text: &str) -> [u8; 32] {
        use sha2::Digest;
        sha2::Sha256::digest(text.as_bytes()).into()
    }
}

/// One face of a component: its front and back pictures (store indices).
#[derive(Debug, Clone)]
pub struct Slot {
    pub front: usize,
    pub back: Option<usize>,
    pub plan: FacePlan,
}

/// Every component's faces, parsed.
pub struct Rendered {
    pub store: FaceStore,
    /// Per component (same order as `game.components`); empty for skipped ones.
    pub slots: Vec<Vec<Slot>>,
    /// Components left out of this build (a shop without that product).
    pub skipped: Vec<bool>,
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
        let parsed = match self.pre.remove(text) {
            Some(r) => r,
            None => svg::parse(text, root, &root.join("templates").join(&game.id)),
        };
        let tree = match parsed {
            Ok(t) => t,
            Err(problems) => {
                let template = if side == "front" {
                    comp.front_name()
                } else {
                    comp.back_name()
                };
                let file = PathBuf::from("templates").join(&game.id).join(&template);
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
                    if !self.reported.insert((file.clone(), msg.clone())) {
                        continue;
                    }
                    diags.push(
                        Diagnostic::error(msg)
                            .at(&file, span)
                            .with("game", &game.id)
                            .with("component", comp.id())
                            .with("row", face.plan.label.clone())
                            .with("template", template.clone())
                            .hint(hint),
                    );
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

/// Renders and parses the faces of every component not in `skip`. `None` if any
/// face had an error (all of them are in `diags`).
pub fn render_all(
    root: &Path,
    game: &Game,
    tpl: &Templates,
    plans: &[Vec<FacePlan>],
    skip: &[bool],
    cache: Option<&ParseCache>,
    built: &mut crate::pipeline::Built,
) -> Option<Rendered> {
    let start = std::time::Instant::now();
    let diags = &mut built.diags;
    let mut rendered: Vec<Vec<Face>> = Vec::new();
    for (ci, (comp, p)) in game.components.iter().zip(plans).enumerate() {
        if skip.get(ci).copied().unwrap_or(false) {
            rendered.push(Vec::new());
            continue;
        }
        let (faces, d) = render::render(game, tpl, comp, p);
        diags.extend(d);
        rendered.push(faces);
    }
    if diags.has_errors() {
        return None;
    }
    built.time("render", start);
    let start = std::time::Instant::now();
    let diags = &mut built.diags;
    let mut store = FaceStore::default();
    // Parse every distinct SVG text once, on all cores, reusing cached trees.
    let mut texts: Vec<&str> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for f in rendered.iter().flatten() {
        for t in std::iter::once(f.front.as_str()).chain(f.back.as_deref()) {
            if seen.insert(t) {
                texts.push(t);
            }
        }
    }
    let image_dir = root.join("templates").join(&game.id);
    let results: Vec<Result<Tree, Vec<SvgProblem>>> = texts
        .par_iter()
        .map(|t| {
            use std::sync::atomic::Ordering::Relaxed;
            let key = cache.map(|_| ParseCache::key(t));
            if let (Some(c), Some(k)) = (cache, &key) {
                if let Some(tree) = c.trees.lock().ok().and_then(|m| m.get(k).cloned()) {
                    c.reused.fetch_add(1, Relaxed);
                    return Ok(tree);
                }
            }
            let r = svg::parse(t, root, &image_dir);
            if let (Some(c), Some(k), Ok(tree)) = (cache, key, &r) {
                c.parsed.fetch_add(1, Relaxed);
                if let Ok(mut m) = c.trees.lock() {
                    m.insert(k, tree.clone());
                }
            }
            r
        })
        .collect();
    store.pre = texts.iter().map(|t| t.to_string()).zip(results).collect();
    let mut slots = Vec::new();
    for (ci, comp) in game.components.iter().enumerate() {
        let mut list = Vec::new();
        for (i, face) in rendered[ci].iter().enumerate() {
            let f = store.add(root, game, comp, face, "front", &face.front, i, diags);
            let b = face
                .back
                .as_ref()
                .map(|b| store.add(root, game, comp, face, "back", b, i, diags));
            match (f, b) {
                (Some(front), None) => list.push(Slot {
                    front,
                    back: None,
                    plan: face.plan.clone(),
                }),
                (Some(front), Some(Some(back))) => list.push(Slot {
                    front,
                    back: Some(back),
                    plan: face.plan.clone(),
                }),
                _ => {}
            }
        }
        slots.push(list);
    }
    built.time("parse", start);
    if built.diags.has_errors() {
        return None;
    }
    Some(Rendered {
        store,
        slots,
        skipped: skip.to_vec(),
    })
}
