//! Rendering and parsing every face of a game once: distinct pictures are stored
//! once (deduplicated by their SVG text) and every component lists its faces as
//! indices into the store.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::io::{Read, Write};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use usvg::Tree;

use crate::diag::{Diagnostic, Diagnostics, Reported, Severity};
use crate::export::Stack;
use crate::fonts::FontBook;
use crate::model::{Component, Shape, Side};
use crate::render::{Face, FacePlan, Insert, Layer, Locator, Part, Renderer};
use crate::svg::{self, Images, Located};

/// Distinct face pictures. Each face's SVG is parsed when a stage first asks for it
/// ([`FaceStore::tree`]); [`FaceStore::parse_all`] parses ahead on the other cores
/// while the PDF writer takes the faces in order.
///
/// Parsed trees are kept up to [`TREE_BUDGET`] (estimated from the SVG text, the
/// least recently used dropped first) and parsed again when a later stage needs one
/// that was dropped: the trees' memory is bounded however many faces a game has
/// (`--copies`), and a game whose faces all fit is parsed once, as before.
pub struct FaceStore<'a> {
    /// Full size (trim + bleed) in mm.
    pub sizes: Vec<(f64, f64)>,
    /// Output name: `<component>/<NNN>-front`.
    pub names: Vec<String>,
    /// The SVG texts ([`FaceStore::svg`]).
    svgs: Vec<SvgText>,
    /// Bytes of SVG text kept as written (the rest is deflated).
    plain_bytes: usize,
    /// Where each face first appeared, to report a face that does not parse.
    pub origins: Vec<Origin>,
    /// Each face's parse: locked while it is parsed, so a stage that needs a face
    /// another thread is parsing waits for it.
    parsed: Vec<Mutex<Parsed>>,
    /// The faces whose trees are kept, by last use.
    kept: Mutex<TreeUse>,
    /// Uses of each face's tree still to come, as the stage that draws the faces
    /// planned them ([`FaceStore::will_use`]): after the last, the tree is dropped at
    /// once instead of kept to the budget.
    uses_left: Vec<AtomicU32>,
    /// Faces by a fast hash of their whole SVG text; a face is a duplicate only
    /// if its text is equal, so the hash only narrows the search.
    by_text: HashMap<u64, Vec<usize>>,
    /// The hasher of `by_text` (seeded per process: the faces found are the same
    /// whatever the seed, since texts are compared in full).
    text_hasher: foldhash::fast::RandomState,
    /// Each face's SHA-256 of its SVG text ([`FaceStore::text_hash`]), made when
    /// first asked for (the live preview names its pictures by it; a build does
    /// not ask).
    text_hashes: Vec<std::sync::OnceLock<[u8; 32]>>,
    /// For each face written over a layer: which, and where it is in the text.
    layered: Vec<Option<LayerRef>>,
    /// The layers, each parsed once for all the faces over it.
    layers: Vec<LayerEntry>,
    /// The images the faces refer to.
    images: Arc<Images>,
    /// The game's fonts.
    fonts: Arc<FontBook>,
    /// Trees kept from earlier builds (watch mode).
    cache: Option<&'a ParseCache>,
}

/// Bytes of parsed trees a game keeps at once, estimated as [`TREE_BYTES_PER_SVG_BYTE`]
/// times their SVG text (measured on a Truck Off pad sheet parsed alone: 84 KB of
/// SVG, 2.5 MB parsed). The estimate is of a face whose texts are its own: faces
/// that repeat texts share their layouts (the usvg patch's `TextLayouts`). A front
/// over a layer counts its own text only: the layer's tree is kept once, outside
/// the budget, for as long as the store. 128 estimated MB hold every face of every
/// seed game, so those are parsed once.
pub const TREE_BUDGET: usize = 128 << 20;

/// Faces rendered at a time. Each batch goes into the store (which keeps texts past
/// [`SVG_TEXT_BUDGET`] deflated) before the next is rendered, so a pad of 1,000
/// sheets never holds its 1,000 texts as rendered at once.
const RENDER_BATCH: usize = 128;

/// Bytes of SVG text a game keeps as written; past it, faces' texts are kept
/// deflated (about a tenth of the size) and inflated when read. Every face of every
/// seed game fits (Truck Off's 40 pad sheets, the most: 3.3 MB), and a thousand
/// copies of its 84 KB sheet take about 15 MB instead of 84.
const SVG_TEXT_BUDGET: usize = 8 << 20;

/// A face's SVG text (a front over a layer: its own part) and the length of
/// the whole text.
struct SvgText {
    len: usize,
    stored: Stored,
}

/// How an SVG text is kept.
enum Stored {
    Plain(String),
    Deflated(Vec<u8>),
}

impl SvgText {
    /// The text, inflated if it was deflated.
    fn text(&self) -> Cow<'_, str> {
        match &self.stored {
            Stored::Plain(s) => Cow::Borrowed(s),
            Stored::Deflated(bytes) => {
                let mut out = String::with_capacity(self.len);
                // Deflated here from a str: it inflates to the same text.
                let _ = flate2::read::DeflateDecoder::new(&bytes[..]).read_to_string(&mut out);
                Cow::Owned(out)
            }
        }
    }

    fn deflated(text: &str) -> SvgText {
        let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
        let bytes = e.write_all(text.as_bytes()).and_then(|_| e.finish());
        SvgText {
            len: text.len(),
            stored: match bytes {
                Ok(b) => Stored::Deflated(b),
                Err(_) => Stored::Plain(text.to_string()),
            },
        }
    }
}

/// A face's layer ([`crate::render::Layer`]): its number in the store and where it
/// went in the face's text.
#[derive(Debug, Clone)]
pub struct LayerRef {
    pub layer: usize,
    pub at: Insert,
}

/// A layer's text, parsed when a face over it is first parsed.
struct LayerEntry {
    text: String,
    /// What a face's text has of the layer (the `<g>` put in its root element).
    inserted: String,
    /// Its elements (its `<`), for the limit on a whole face.
    inserted_elements: usize,
    tree: std::sync::OnceLock<Option<Arc<Tree>>>,
}

/// Parsed tree bytes per byte of SVG text, for [`TREE_BUDGET`].
const TREE_BYTES_PER_SVG_BYTE: usize = 30;

/// Where one face's parse stands.
enum Parsed {
    /// Not parsed yet.
    Not,
    Picture(Stack),
    /// Parsed, then dropped to keep within the budget: parse again when needed.
    Dropped,
    /// Parsed, then dropped after its last planned use ([`FaceStore::used`]):
    /// parsed again when asked for, but kept only if more uses are planned, so a
    /// late read (a PDF's prefetch that lost the race with the writer's last use)
    /// does not leave a tree behind.
    Done,
    /// Does not parse.
    Failed(Vec<Located>),
}

/// Which faces' trees are kept: face -> last use; their estimated bytes.
#[derive(Default)]
struct TreeUse {
    used: BTreeMap<usize, u64>,
    clock: u64,
    bytes: usize,
}

/// Where the text of one face comes from: its template (with the spans of its
/// output), or a finished art file.
pub enum FaceLocator {
    Template(Locator, PathBuf),
    Art(PathBuf),
    /// A front written over a layer: each part located in its own template.
    Layered {
        front: Box<FaceLocator>,
        layer: Box<FaceLocator>,
        at: Insert,
    },
    /// The template, when it could not be rendered again.
    Unknown(PathBuf),
}

impl FaceLocator {
    /// The file and byte range that wrote `range` of the face's SVG text (the file
    /// alone when the range is unknown).
    pub fn locate(&self, range: Option<Range<usize>>) -> (PathBuf, Option<Range<usize>>) {
        match self {
            FaceLocator::Art(file) => (file.clone(), range),
            FaceLocator::Template(l, file) => match range.and_then(|r| l.locate(r)) {
                Some((f, span)) => (f, Some(span)),
                None => (file.clone(), None),
            },
            FaceLocator::Unknown(file) => (file.clone(), None),
            FaceLocator::Layered { front, layer, at } => match range.map(|r| at.part(r)) {
                None => front.locate(None),
                Some(Part::Front(r)) => front.locate(Some(r)),
                Some(Part::Layer(r)) => layer.locate(Some(r)),
            },
        }
    }
}

/// Where a distinct face picture first appears: component, face and side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// Index of the component in `game.components`.
    pub component: usize,
    /// Index of the face among the component's planned faces.
    pub face: usize,
    pub side: Side,
    /// The face's label, for messages (`contract #12`).
    pub label: String,
}

/// Parsed faces kept between builds (watch mode, the live preview): keyed by the
/// SVG text's hash and the game's fonts ([`parse_key`]), so an unchanged face is not
/// parsed again. Its counts are of faces parsed and taken from it.
pub type ParseCache = crate::kept::ByHash<Stack>;

/// What decides a parsed face: its SVG text and the game's fonts.
fn parse_key(text: &str, fonts: &FontBook) -> [u8; 32] {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    h.update(fonts.fingerprint().to_le_bytes());
    h.update(text.as_bytes());
    h.finalize().into()
}

/// One face of a component: its front and back pictures (store indices).
#[derive(Debug, Clone)]
pub struct Slot {
    /// Its place among the set's faces (0-based): a shop file's number, also when
    /// only some of the set's faces are delivered (a reprint).
    pub index: usize,
    pub front: usize,
    pub back: Option<usize>,
    pub plan: FacePlan,
}

/// Every component's faces, parsed.
pub struct Rendered<'a> {
    pub store: FaceStore<'a>,
    /// The parsed faces hashed for the content their PDFs share
    /// ([`crate::export::repeats`]), once for all of the game's PDFs.
    pub digests: crate::export::repeats::Digests,
    /// Per component (same order as `game.components`); empty for the sets this
    /// build does not export.
    pub slots: Vec<Vec<Slot>>,
}

impl<'a> FaceStore<'a> {
    fn new(images: Images, fonts: Arc<FontBook>, cache: Option<&'a ParseCache>) -> Self {
        FaceStore {
            sizes: Vec::new(),
            names: Vec::new(),
            svgs: Vec::new(),
            plain_bytes: 0,
            origins: Vec::new(),
            parsed: Vec::new(),
            kept: Mutex::new(TreeUse::default()),
            uses_left: Vec::new(),
            by_text: HashMap::new(),
            text_hasher: Default::default(),
            text_hashes: Vec::new(),
            layered: Vec::new(),
            layers: Vec::new(),
            images: Arc::new(images),
            fonts,
            cache,
        }
    }

    /// Adds a layer's text; its number in the store.
    fn add_layer(&mut self, text: String) -> usize {
        self.layers.push(LayerEntry {
            text,
            inserted: String::new(),
            inserted_elements: 0,
            tree: Default::default(),
        });
        self.layers.len() - 1
    }

    /// The index of the face with SVG `text` (written over `layer`, if any), adding
    /// it if it is new.
    fn add(
        &mut self,
        comp: &Component,
        origin: Origin,
        text: &str,
        layer: Option<LayerRef>,
    ) -> usize {
        use std::hash::BuildHasher;
        let key = self.text_hasher.hash_one(text);
        let alike = self.by_text.get(&key).map_or(&[][..], |v| &v[..]);
        if let Some(i) = equal_text(alike, text, |j| self.svg(j)) {
            return i;
        }
        let i = self.svgs.len();
        self.sizes.push((
            comp.size.width + 2.0 * comp.bleed,
            comp.size.height + 2.0 * comp.bleed,
        ));
        self.names.push(format!(
            "{}/{:03}-{}",
            comp.id(),
            origin.face + 1,
            origin.side
        ));
        // A front over a layer keeps its own text; the layer's part is kept once.
        let front;
        let (text, len) = match &layer {
            Some(l) => {
                if let Some(entry) = self.layers.get_mut(l.layer) {
                    if entry.inserted.is_empty() {
                        entry.inserted = text[l.at.range.clone()].to_string();
                        entry.inserted_elements = entry.inserted.matches('<').count();
                    }
                }
                front = l.at.front_text(text);
                (front.as_str(), text.len())
            }
            None => (text, text.len()),
        };
        self.svgs
            .push(if self.plain_bytes + text.len() <= SVG_TEXT_BUDGET {
                self.plain_bytes += text.len();
                SvgText {
                    len,
                    stored: Stored::Plain(text.to_string()),
                }
            } else {
                SvgText {
                    len,
                    ..SvgText::deflated(text)
                }
            });
        self.origins.push(origin);
        self.layered.push(layer);
        self.parsed.push(Mutex::new(Parsed::Not));
        self.uses_left.push(AtomicU32::new(0));
        self.by_text.entry(key).or_default().push(i);
        self.text_hashes.push(std::sync::OnceLock::new());
        i
    }

    /// The SHA-256 of face `i`'s whole SVG text (what [`FaceStore::svg`] gives),
    /// made once: a picture's hash starts from it rather than hashing the text
    /// again.
    pub fn text_hash(&self, i: usize) -> [u8; 32] {
        *self.text_hashes[i].get_or_init(|| {
            use sha2::Digest;
            sha2::Sha256::digest(self.svg(i).as_bytes()).into()
        })
    }

    /// Parses every face not parsed yet, on all cores, in order (so the first
    /// pages' faces are ready first).
    pub fn parse_all(&self) {
        self.parse_all_with(|_| ());
    }

    /// Parses every face on all cores, in order, and calls `each(i)` right after
    /// face `i` is parsed, while its tree is kept whatever the budget; returns what
    /// `each` gave for every face, in face order.
    pub fn parse_all_with<T: Send + Default>(&self, each: impl Fn(usize) -> T + Sync) -> Vec<T> {
        let done: Vec<Mutex<T>> = (0..self.len()).map(|_| Mutex::default()).collect();
        let next = std::sync::atomic::AtomicUsize::new(0);
        rayon::broadcast(|_| loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if i >= self.len() {
                break;
            }
            let _picture = self.picture(i);
            *lock(&done[i]) = each(i);
        });
        done.into_iter()
            .map(|m| m.into_inner().unwrap_or_else(|p| p.into_inner()))
            .collect()
    }

    /// Face `i`'s picture, parsed now unless its trees are kept (or waiting while
    /// another thread parses it). `None` if it does not parse: the problems are
    /// reported by [`FaceStore::report_problems`].
    pub fn picture(&self, i: usize) -> Option<Stack> {
        let mut parsed = lock(self.parsed.get(i)?);
        match &*parsed {
            Parsed::Picture(p) => {
                let p = p.clone();
                drop(parsed);
                self.keep(i);
                return Some(p);
            }
            Parsed::Failed(_) => return None,
            Parsed::Not | Parsed::Dropped | Parsed::Done => {}
        }
        let keep = !matches!(*parsed, Parsed::Done) || self.uses_planned(i);
        let parsed_now = match self.cache {
            None => self.parse(i),
            Some(c) => c.get_or_make(parse_key(&self.svg(i), &self.fonts), || self.parse(i)),
        };
        match parsed_now {
            Ok(p) if !keep => Some(p),
            Ok(p) => {
                *parsed = Parsed::Picture(p.clone());
                drop(parsed);
                self.keep(i);
                Some(p)
            }
            Err(problems) => {
                *parsed = Parsed::Failed(problems);
                None
            }
        }
    }

    /// Parses face `i`: a front over a layer as the layer's tree and its own when
    /// they stack; any other face, and a front linked to its layer (by ids or a
    /// style sheet), from its whole text.
    fn parse(&self, i: usize) -> Result<Stack, Vec<Located>> {
        if let Some((l, entry)) = self.layered_entry(i) {
            if !l.at.linked {
                if let Some(stack) = self.parse_layered(&self.svgs[i].text(), entry) {
                    return Ok(stack);
                }
            }
        }
        let text = self.svg(i);
        // A face that marks elements for preflight is parsed from its tagged text,
        // which draws the same (ids change nothing drawn): preflight names its
        // nodes from this one parse. Its problems are found in the text itself.
        if let Some((tagged, elements)) = svg::elements::tagged(&text) {
            if let Ok(t) = svg::parse(&tagged, &self.images, &self.fonts) {
                return Ok(Stack::tagged(Arc::new(t), Arc::new(elements)));
            }
        }
        svg::parse(&text, &self.images, &self.fonts).map(|t| Stack::one(Arc::new(t)))
    }

    /// A front over a layer, parsed: the layer's tree (parsed once, shared by every
    /// front over it) under the tree of the front's own text (`own`), which draws
    /// what the whole text does (`usvg::Tree::stacks_on`). `None` when that cannot
    /// be done (the layer does not parse, say): the whole text is parsed instead,
    /// and it reports the problems.
    fn parse_layered(&self, own: &str, entry: &LayerEntry) -> Option<Stack> {
        let under = entry.tree.get_or_init(|| {
            svg::parse(&entry.text, &self.images, &self.fonts)
                .ok()
                .map(Arc::new)
        });
        // The element limit holds for the face as a whole.
        let elements = own.matches('<').count() + entry.inserted_elements;
        let (Some(under), false) = (under, elements > svg::MAX_ELEMENTS) else {
            return None;
        };
        let own = svg::parse(own, &self.images, &self.fonts).ok()?;
        own.stacks_on(under)
            .then(|| Stack::over(under.clone(), Arc::new(own)))
    }

    /// Plans one more use of each of `faces` (a PDF that draws them, the PNGs):
    /// [`FaceStore::used`] after the last drops the face's tree at once. Faces whose
    /// uses are not planned are kept to the budget, as before.
    pub fn will_use(&self, faces: impl IntoIterator<Item = usize>) {
        for i in faces {
            if let Some(n) = self.uses_left.get(i) {
                n.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// Notes that a planned use of face `i` is done; after the last, its tree is
    /// dropped (parsed again if anything asks for it after all).
    pub fn used(&self, i: usize) {
        let Some(n) = self.uses_left.get(i) else {
            return;
        };
        let last = n
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1))
            .is_ok_and(|before| before == 1);
        if !last {
            return;
        }
        {
            let mut cell = lock(&self.parsed[i]);
            if matches!(*cell, Parsed::Picture(_) | Parsed::Dropped) {
                *cell = Parsed::Done;
            }
        }
        self.forget(&mut lock(&self.kept), i);
    }

    /// Whether a use of face `i` is planned and not yet done.
    fn uses_planned(&self, i: usize) -> bool {
        self.uses_left
            .get(i)
            .is_some_and(|n| n.load(Ordering::Acquire) > 0)
    }

    /// Takes face `i` off the kept trees' list and their estimated bytes.
    fn forget(&self, kept: &mut TreeUse, i: usize) {
        if kept.used.remove(&i).is_some() {
            kept.bytes = kept.bytes.saturating_sub(self.cost(i));
        }
    }

    /// How many faces' trees are kept now.
    pub fn trees_kept(&self) -> usize {
        self.parsed
            .iter()
            .filter(|p| matches!(*lock(p), Parsed::Picture(_)))
            .count()
    }

    /// The estimated bytes of face `i`'s tree, for [`TREE_BUDGET`]: a front over a
    /// layer counts only its own (the layer's tree is shared).
    fn cost(&self, i: usize) -> usize {
        let own = match self.layered_entry(i) {
            Some((_, entry)) => self.svgs[i].len.saturating_sub(entry.inserted.len()),
            None => self.svgs[i].len,
        };
        own.saturating_mul(TREE_BYTES_PER_SVG_BYTE)
    }

    /// Notes that face `i`'s tree was just used, and drops the least recently used
    /// others while the kept trees are over [`TREE_BUDGET`].
    fn keep(&self, i: usize) {
        let mut kept = lock(&self.kept);
        kept.clock += 1;
        let now = kept.clock;
        if kept.used.insert(i, now).is_none() {
            kept.bytes = kept.bytes.saturating_add(self.cost(i));
        }
        while kept.bytes > TREE_BUDGET && kept.used.len() > 1 {
            // The least recently used other face whose cell is not busy (a face
            // being parsed or read now stays).
            let victim = kept
                .used
                .iter()
                .filter(|(&f, _)| f != i)
                .min_by_key(|(_, &t)| t)
                .map(|(&f, _)| f);
            let Some(f) = victim else { break };
            self.forget(&mut kept, f);
            if let Ok(mut cell) = self.parsed[f].try_lock() {
                if matches!(*cell, Parsed::Picture(_)) {
                    *cell = Parsed::Dropped;
                }
            }
        }
    }

    /// Face `i`'s SVG text.
    pub fn svg(&self, i: usize) -> Cow<'_, str> {
        let own = self.svgs[i].text();
        let Some((l, entry)) = self.layered_entry(i) else {
            return own;
        };
        let at = l.at.range.start;
        let mut text = String::with_capacity(self.svgs[i].len);
        text.push_str(&own[..at]);
        text.push_str(&entry.inserted);
        text.push_str(&own[at..]);
        Cow::Owned(text)
    }

    /// The layer face `i` is written over, with its entry.
    fn layered_entry(&self, i: usize) -> Option<(&LayerRef, &LayerEntry)> {
        let l = self.layered.get(i)?.as_ref()?;
        Some((l, self.layers.get(l.layer)?))
    }

    /// Face `i`'s own SVG text: a front over a layer without the layer's part
    /// ([`FaceStore::svg`] has the whole).
    pub fn own_svg(&self, i: usize) -> Cow<'_, str> {
        self.svgs[i].text()
    }

    /// The layer face `i` is written over, if any.
    pub fn layer_of(&self, i: usize) -> Option<&LayerRef> {
        self.layered.get(i)?.as_ref()
    }

    /// Number of layers.
    pub fn layer_count(&self) -> usize {
        self.layers.len()
    }

    /// The fonts the faces are parsed with.
    pub fn fonts(&self) -> &Arc<FontBook> {
        &self.fonts
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
        (0..self.len()).all(|i| {
            let parsed = matches!(
                *lock(&self.parsed[i]),
                Parsed::Picture(_) | Parsed::Dropped | Parsed::Done
            );
            parsed || self.picture(i).is_some()
        })
    }

    /// Finds where byte ranges of face `i`'s SVG text come from (re-rendering its
    /// template once for all of them).
    pub fn locator(&self, r: &Renderer, plans: &[Vec<FacePlan>], i: usize) -> FaceLocator {
        let o = &self.origins[i];
        let comp = &r.game.components[o.component];
        let template = || {
            crate::template::template_file(&format!(
                "{}/{}",
                r.game.id,
                match o.side {
                    Side::Front => comp.front_name(),
                    Side::Back => comp.back_name(),
                }
            ))
        };
        let art = plans
            .get(o.component)
            .and_then(|p| p.get(o.face))
            .and_then(crate::render::art_file);
        if let (Some(l), Side::Front) = (&self.layered[i], o.side) {
            let shape = plans
                .get(o.component)
                .and_then(|p| p.get(o.face))
                .map(|p| p.shape);
            let front = match r.locator(comp, &plans[o.component], o.face, o.side) {
                Some(l) => FaceLocator::Template(l, template()),
                None => FaceLocator::Unknown(template()),
            };
            let layer = match shape.and_then(|s| r.layer_locator(comp, s)) {
                Some((l, file)) => FaceLocator::Template(l, file),
                None => FaceLocator::Unknown(template()),
            };
            return FaceLocator::Layered {
                front: Box::new(front),
                layer: Box::new(layer),
                at: l.at.clone(),
            };
        }
        match (&comp.def.front, art) {
            // Finished art: the art file itself (its text was read as a source).
            (None, Some(art)) => FaceLocator::Art(match o.side {
                Side::Back => comp.art_back.clone().unwrap_or(art.to_path_buf()),
                Side::Front => art.to_path_buf(),
            }),
            _ => match r.locator(comp, &plans[o.component], o.face, o.side) {
                Some(l) => FaceLocator::Template(l, template()),
                None => FaceLocator::Unknown(template()),
            },
        }
    }

    /// Parses an SVG text with the faces' images (for a check that needs a face
    /// parsed differently, e.g. with ids on its elements); the problems are
    /// dropped, as the face itself parsed.
    pub fn parse_text(&self, text: &str) -> Option<Tree> {
        svg::parse(text, &self.images, &self.fonts).ok()
    }

    /// Reports the faces that do not parse (parsing those not parsed yet), each problem
    /// once, at the line of the template (or art file) that wrote the element.
    pub fn report_problems(&self, r: &Renderer, plans: &[Vec<FacePlan>]) -> Diagnostics {
        let mut diags = Diagnostics::default();
        let mut reported = std::collections::BTreeSet::new();
        for i in 0..self.len() {
            if matches!(*lock(&self.parsed[i]), Parsed::Not) {
                let _ = self.picture(i);
            }
            let parsed = lock(&self.parsed[i]);
            let Parsed::Failed(problems) = &*parsed else {
                continue;
            };
            let o = &self.origins[i];
            let comp = &r.game.components[o.component];
            let locator = self.locator(r, plans, i);
            for p in problems {
                let (msg, hint) = p.problem.describe();
                let (file, span) = locator.locate(p.offset.clone());
                // A broken template fails on every row: one report (naming the
                // first row) says it.
                if !reported.insert((
                    file.clone(),
                    span.as_ref().map(|s| (s.start, s.end)),
                    msg.clone(),
                )) {
                    continue;
                }
                diags.push(
                    Diagnostic::error(msg)
                        .at(&file, span)
                        .with("game", &r.game.id)
                        .with("component", comp.id())
                        .with("row", o.label.clone())
                        .with("side", o.side.name())
                        .hint(hint),
                );
            }
        }
        diags
    }
}

/// Locks a mutex, whether or not a thread panicked holding it (nothing here is left
/// half-changed by a panic).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Renders the faces of every exported component and lists each distinct picture
/// once. Parsing is left to [`FaceStore::parse_all`] (or to the stages that use a
/// face first). `None` if a template had an error (reported). With the parts of
/// the last print record (`previous`), a face that changed since is rendered
/// again at its next revision ([`crate::render::revision`]).
pub fn render_all<'a>(
    r: &Renderer,
    plans: &[Vec<FacePlan>],
    cache: Option<&'a ParseCache>,
    previous: Option<&crate::render::revision::Previous>,
) -> Reported<Option<Rendered<'a>>> {
    let mut linked = crate::image::Linked::new(r.project, &r.game.id);
    let mut diags = Diagnostics::default();
    if let Some(kept) = r.kept {
        kept.begin();
    }
    let mut store = FaceStore::new(
        Images::new(r.project, &r.game.id, r.tpl.fonts().clone()),
        r.tpl.fonts().clone(),
        cache,
    );
    let mut slots = Vec::new();
    for (ci, (comp, p)) in r.game.components.iter().zip(plans).enumerate() {
        let mut list = Vec::new();
        let mut found = Vec::new();
        // Sets this build does not export get no faces.
        let exported = if comp.exported { &p[..] } else { &[] };
        let (layers, layer_ids) = render_layers(r, comp, exported, &mut store, &mut found);
        for (b, batch) in exported.chunks(RENDER_BATCH).enumerate() {
            let first = b * RENDER_BATCH;
            let Reported {
                value: mut faces,
                diags: d,
            } = r.render(comp, batch, first, &layers);
            found.extend(d.items);
            if let Some(previous) = previous {
                let revised = next_revisions(
                    r,
                    comp,
                    ci,
                    first,
                    &mut faces,
                    previous,
                    &mut linked,
                    &layers,
                );
                found.extend(revised.items);
            }
            if diags.has_errors() || found.iter().any(|d| d.severity == Severity::Error) {
                continue; // nothing is stored, but every batch is reported
            }
            let at = (ci, first);
            list.extend(store_faces(&mut store, comp, at, faces, &layer_ids));
        }
        // One bad template gives the same error for every row (and every batch):
        // reported once, as `Renderer::render` does within a batch.
        found.dedup_by(|a, b| a.message == b.message && a.file == b.file && a.span == b.span);
        diags.extend(found);
        slots.push(list);
    }
    if let Some(kept) = r.kept {
        kept.finish();
    }
    if diags.has_errors() {
        return Reported { value: None, diags };
    }
    Reported {
        value: Some(Rendered {
            store,
            slots,
            digests: Default::default(),
        }),
        diags,
    }
}

/// The layers of set `comp` (one per cut shape its `exported` faces use, each
/// rendered once), and each one's id in `store`; problems go to `found`.
fn render_layers(
    r: &Renderer,
    comp: &Component,
    exported: &[FacePlan],
    store: &mut FaceStore,
    found: &mut Vec<Diagnostic>,
) -> (HashMap<Shape, Layer>, HashMap<Shape, usize>) {
    let mut layers = HashMap::new();
    let mut layer_ids = HashMap::new();
    if comp.def.layer.is_none() {
        return (layers, layer_ids);
    }
    let mut shapes: Vec<Shape> = Vec::new();
    for plan in exported {
        if !shapes.contains(&plan.shape) {
            shapes.push(plan.shape);
        }
    }
    for shape in shapes {
        let Reported { value, diags: d } = r.render_layer(comp, shape);
        found.extend(d.items);
        if let Some(layer) = value {
            layer_ids.insert(shape, store.add_layer(layer.text.clone()));
            layers.insert(shape, layer);
        }
    }
    (layers, layer_ids)
}

/// Puts the rendered `faces` of set `comp` (component `at.0`'s, from number
/// `at.1`) into `store`: their slots.
fn store_faces(
    store: &mut FaceStore,
    comp: &Component,
    (ci, first): (usize, usize),
    faces: Vec<Face>,
    layer_ids: &HashMap<Shape, usize>,
) -> Vec<Slot> {
    let mut list = Vec::new();
    for (k, face) in faces.into_iter().enumerate() {
        let origin = |side| Origin {
            component: ci,
            face: first + k,
            side,
            label: face.plan.label.clone(),
        };
        let layer = face.layer.as_ref().and_then(|(shape, at)| {
            Some(LayerRef {
                layer: *layer_ids.get(shape)?,
                at: at.clone(),
            })
        });
        let front = store.add(comp, origin(Side::Front), &face.front, layer);
        let back = face
            .back
            .as_ref()
            .map(|b| store.add(comp, origin(Side::Back), b, None));
        list.push(Slot {
            index: first + k,
            front,
            back,
            plan: face.plan,
        });
    }
    list
}

/// Renders again, at the next revision, each face of `faces` (component `ci`'s
/// from number `first`) whose front or back is not what the last print record
/// has of its part: it changed since that print.
#[allow(clippy::too_many_arguments)]
fn next_revisions(
    r: &Renderer,
    comp: &Component,
    ci: usize,
    first: usize,
    faces: &mut [crate::render::Face],
    previous: &crate::render::revision::Previous,
    linked: &mut crate::image::Linked,
    layers: &HashMap<Shape, Layer>,
) -> Diagnostics {
    use crate::render::revision::FaceHash;
    let size = (
        comp.size.width + 2.0 * comp.bleed,
        comp.size.height + 2.0 * comp.bleed,
    );
    let mut hash = |text: &str| FaceHash::of(text, size, &linked.of(text));
    let mut diags = Diagnostics::default();
    for (k, face) in faces.iter_mut().enumerate() {
        let index = first + k;
        let Some(before) = previous.get(ci, index) else {
            continue;
        };
        let back = face.back.as_deref().map(&mut hash);
        if before.same(hash(&face.front), back) || face.plan.revision != before.revision {
            continue;
        }
        let mut plan = face.plan.clone();
        plan.revision = before.revision + 1;
        let again = r.render(comp, std::slice::from_ref(&plan), index, layers);
        // Its warnings were said of the first render.
        diags.extend(again.diags.items.into_iter().filter(|d| d.is_error()));
        if let Some(f) = again.value.into_iter().next() {
            *face = f;
        }
    }
    diags
}

/// The face among `alike` (faces whose texts hash alike) whose text is `text`:
/// equal hashes of different texts are not the same face.
fn equal_text<'s>(
    alike: &[usize],
    text: &str,
    text_of: impl Fn(usize) -> Cow<'s, str>,
) -> Option<usize> {
    alike.iter().copied().find(|&j| text_of(j) == text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_whose_texts_hash_alike_are_told_apart_by_their_texts() {
        let texts = ["<svg>a</svg>", "<svg>b</svg>", "<svg>c</svg>"];
        let text_of = |j: usize| Cow::Borrowed(texts[j]);
        // Faces 0 and 2 collide on a hash; only an equal text is the same face.
        assert_eq!(equal_text(&[0, 2], "<svg>c</svg>", text_of), Some(2));
        assert_eq!(equal_text(&[0, 2], "<svg>b</svg>", text_of), None);
        assert_eq!(equal_text(&[], "<svg>a</svg>", text_of), None);
    }

    #[test]
    fn a_deflated_svg_text_reads_back_the_same_and_smaller() {
        let text: String = (0..2000)
            .map(|i| format!(r#"<text x="{i}" y="5">Sheet {i} · ⟶ é</text>"#))
            .collect();
        let kept = SvgText::deflated(&text);
        assert!(matches!(&kept.stored, Stored::Deflated(b) if b.len() * 5 < text.len()));
        assert_eq!(kept.len, text.len());
        assert_eq!(kept.text(), text);
        assert_eq!(SvgText::deflated("").text(), "");
    }
}
