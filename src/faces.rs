//! Rendering and parsing every face of a game once: distinct pictures are stored
//! once (deduplicated by their SVG text) and every component lists its faces as
//! indices into the store.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use usvg::Tree;

use crate::diag::{Diagnostic, Diagnostics};
use crate::model::{Component, Game};
use crate::render::{self, Face, FacePlan};
use crate::svg::{self, SvgProblem};
use crate::template::Templates;

/// Distinct face pictures. Each face's SVG is parsed once, when a stage first asks
/// for it ([`FaceStore::tree`]); [`FaceStore::parse_all`] parses ahead on the other
/// cores while the PDF writer takes the faces in order.
pub struct FaceStore<'a> {
    /// Full size (trim + bleed) in mm.
    pub sizes: Vec<(f64, f64)>,
    /// Output name: `<component>/<NNN>-front`.
    pub names: Vec<String>,
    /// The SVG text.
    pub svgs: Vec<String>,
    /// Where each face first appeared (component index, row label, side), to
    /// report a face that does not parse.
    origins: Vec<(usize, String, &'static str)>,
    /// Each face once parsed.
    parsed: Vec<OnceLock<Result<Tree, Vec<SvgProblem>>>>,
    by_text: BTreeMap<String, usize>,
    /// The project (hrefs must stay inside it) and the game's template folder
    /// (relative hrefs start there).
    root: PathBuf,
    image_dir: PathBuf,
    /// Trees kept from earlier builds (watch mode).
    cache: Option<&'a ParseCache>,
}

/// Parsed faces kept between builds (watch mode): keyed by the SVG text's hash, so
/// an unchanged face is not parsed again. The fonts are compiled in, so the text
/// alone decides the picture.
#[derive(Default)]
pub struct ParseCache {
    /// Each tree, and whether the current build has used it.
    trees: std::sync::Mutex<std::collections::HashMap<[u8; 32], (Tree, bool)>>,
    /// Faces parsed / taken from the cache in the last build.
    pub parsed: std::sync::atomic::AtomicUsize,
    pub reused: std::sync::atomic::AtomicUsize,
}

impl ParseCache {
    fn key(text: &str) -> [u8; 32] {
        use sha2::Digest;
        sha2::Sha256::digest(text.as_bytes()).into()
    }

    /// Forgets the trees the last build did not use (faces edited away), so a
    /// long `watch` session holds only the current faces.
    pub fn keep_used(&self) {
        if let Ok(mut m) = self.trees.lock() {
            m.retain(|_, (_, used)| std::mem::replace(used, false));
        }
    }

    /// Number of trees held.
    pub fn len(&self) -> usize {
        self.trees.lock().map(|m| m.len()).unwrap_or(0)
    }

    /// Whether no tree is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
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
pub struct Rendered<'a> {
    pub store: FaceStore<'a>,
    /// Per component (same order as `game.components`); empty for skipped ones.
    pub slots: Vec<Vec<Slot>>,
    /// Components left out of this build (a shop without that product).
    pub skipped: Vec<bool>,
}

impl<'a> FaceStore<'a> {
    fn new(root: &Path, game: &Game, cache: Option<&'a ParseCache>) -> Self {
        FaceStore {
            sizes: Vec::new(),
            names: Vec::new(),
            svgs: Vec::new(),
            origins: Vec::new(),
            parsed: Vec::new(),
            by_text: BTreeMap::new(),
            root: root.to_path_buf(),
            image_dir: root.join("templates").join(&game.id),
            cache,
        }
    }

    /// The index of the face with SVG `text`, adding it if it is new.
    fn add(
        &mut self,
        comp: (usize, &Component),
        label: &str,
        side: &'static str,
        text: &str,
        index: usize,
    ) -> usize {
        if let Some(&i) = self.by_text.get(text) {
            return i;
        }
        let (ci, comp) = comp;
        let i = self.svgs.len();
        self.sizes.push((
            comp.size.width + 2.0 * comp.bleed,
            comp.size.height + 2.0 * comp.bleed,
        ));
        self.names
            .push(format!("{}/{:03}-{side}", comp.id(), index + 1));
        self.svgs.push(text.to_string());
        self.origins.push((ci, label.to_string(), side));
        self.parsed.push(OnceLock::new());
        self.by_text.insert(text.to_string(), i);
        i
    }

    /// Parses every face not parsed yet, on all cores, in order (so the first
    /// pages' faces are ready first). Run it beside a stage that uses the faces.
    pub fn parse_all(&self) {
        let next = std::sync::atomic::AtomicUsize::new(0);
        rayon::broadcast(|_| loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if i >= self.len() {
                break;
            }
            self.tree(i);
        });
    }

    /// Face `i`, parsed now unless it already is (or waiting while another thread
    /// parses it). `None` if it does not parse: the problems are reported by
    /// [`FaceStore::report_problems`].
    pub fn tree(&self, i: usize) -> Option<&Tree> {
        let cell = self.parsed.get(i)?;
        cell.get_or_init(|| parse_cached(&self.svgs[i], &self.root, &self.image_dir, self.cache))
            .as_ref()
            .ok()
    }

    /// Face `i` (parsed if need be), or why it is missing.
    pub fn parsed(&self, i: usize) -> Result<&Tree, String> {
        self.tree(i)
            .ok_or_else(|| format!("face {} does not parse", self.names[i]))
    }

    /// Number of distinct faces.
    pub fn len(&self) -> usize {
        self.svgs.len()
    }

    /// Whether there are no faces.
    pub fn is_empty(&self) -> bool {
        self.svgs.is_empty()
    }

    /// Whether every face parses (parsing those not parsed yet).
    pub fn all_parsed(&self) -> bool {
        (0..self.len()).all(|i| self.tree(i).is_some())
    }

    /// Reports the faces that do not parse (parsing those not parsed yet), each problem
    /// once, at the template line that most likely caused it.
    pub fn report_problems(&self, root: &Path, game: &Game, diags: &mut Diagnostics) {
        let mut reported = std::collections::BTreeSet::new();
        for i in 0..self.len() {
            if self.tree(i).is_some() {
                continue;
            }
            let Some(Err(problems)) = self.parsed[i].get() else {
                continue;
            };
            let (ci, label, side) = &self.origins[i];
            let comp = &game.components[*ci];
            let template = if *side == "front" {
                comp.front_name()
            } else {
                comp.back_name()
            };
            let file = PathBuf::from("templates").join(&game.id).join(&template);
            let source = std::fs::read_to_string(root.join(&file)).unwrap_or_default();
            for p in problems {
                let (msg, hint) = p.describe();
                // Point at the template line that most likely caused it.
                let needle = match p {
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
                // A broken template fails on every row: one report (naming the
                // first row) says it.
                if !reported.insert((file.clone(), msg.clone())) {
                    continue;
                }
                diags.push(
                    Diagnostic::error(msg)
                        .at(&file, span)
                        .with("game", &game.id)
                        .with("component", comp.id())
                        .with("row", label.clone())
                        .with("template", template.clone())
                        .hint(hint),
                );
            }
        }
    }
}

/// Parses one face, or takes it from the watch-mode cache.
fn parse_cached(
    text: &str,
    root: &Path,
    image_dir: &Path,
    cache: Option<&ParseCache>,
) -> Result<Tree, Vec<SvgProblem>> {
    use std::sync::atomic::Ordering::Relaxed;
    let Some(c) = cache else {
        return svg::parse(text, root, image_dir);
    };
    let key = ParseCache::key(text);
    let hit = c.trees.lock().ok().and_then(|mut m| {
        m.get_mut(&key).map(|(tree, used)| {
            *used = true;
            tree.clone()
        })
    });
    if let Some(tree) = hit {
        c.reused.fetch_add(1, Relaxed);
        return Ok(tree);
    }
    let r = svg::parse(text, root, image_dir);
    if let Ok(tree) = &r {
        c.parsed.fetch_add(1, Relaxed);
        if let Ok(mut m) = c.trees.lock() {
            m.insert(key, (tree.clone(), true));
        }
    }
    r
}

/// Renders the faces of every component not in `skip` and lists each distinct
/// picture once. Parsing is left to [`FaceStore::parse_all`], so that it can run
/// beside the stages after this one. `None` if a template had an error (all of
/// them are in `built.diags`).
pub fn render_all<'a>(
    root: &Path,
    game: &Game,
    tpl: &Templates,
    plans: &[Vec<FacePlan>],
    skip: &[bool],
    cache: Option<&'a ParseCache>,
    built: &mut crate::pipeline::Built,
) -> Option<Rendered<'a>> {
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
    let mut store = FaceStore::new(root, game, cache);
    let mut slots = Vec::new();
    for (ci, comp) in game.components.iter().enumerate() {
        let mut list = Vec::new();
        for (i, face) in rendered[ci].iter().enumerate() {
            let label = &face.plan.label;
            let front = store.add((ci, comp), label, "front", &face.front, i);
            let back = face
                .back
                .as_ref()
                .map(|b| store.add((ci, comp), label, "back", b, i));
            list.push(Slot {
                front,
                back,
                plan: face.plan.clone(),
            });
        }
        slots.push(list);
    }
    built.time("render", start);
    Some(Rendered {
        store,
        slots,
        skipped: skip.to_vec(),
    })
}
