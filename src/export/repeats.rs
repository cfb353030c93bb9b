//! Content that repeats across the faces of one PDF, drawn once.
//!
//! A score pad's map, grid and legend, a card's frame, a board's background: the
//! same drawing on many distinct faces. [`Repeats::learn`] hashes every node of the
//! document's first faces' parsed trees (what it draws, not where the face sits), and
//! chooses each run of consecutive siblings that occurs more than once and is big
//! enough to be worth it. Before each face is drawn, [`Repeats::prepare`] finds the
//! chosen runs in it (by hash, so a face parsed again, or first met after the faces
//! learnt from, is matched the same way). The PDF writer hands it to krilla-svg (the
//! [`krilla_svg::Reuse`] patch), which draws such a run once as a form XObject and
//! places that XObject everywhere the run occurs. Nothing is declared in templates: two subtrees that draw
//! the same thing are found, whatever template they came from.
//!
//! A node's hash covers everything krilla-svg reads to draw it: geometry, paint,
//! stroke, transforms, clips, masks, opacity, glyphs with their fonts and positions,
//! image bytes. Groups with filters are never shared (krilla-svg rasterises filters
//! relative to the page). Hashes are 128-bit SipHash with fixed keys, so the same
//! faces always give the same runs and the same bytes.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex, Weak};

use krilla::graphic::Graphic;
use siphasher::sip128::{Hasher128, SipHasher13};
use usvg::{Group, Node, Paint, Tree};

/// Smallest run worth a shared object: about this many points and glyphs. A
/// shared object costs about 100 bytes; a lone rectangle is cheaper drawn in place.
const MIN_WEIGHT: u64 = 24;

/// A map keyed by digests. They are SipHash outputs already, so the map's hasher
/// only folds one into 64 bits; the map still compares keys in full.
type ByHash<V> = HashMap<u128, V, BuildHasherDefault<Folded>>;

/// The [`Hasher`] of [`ByHash`]: a `u128` key's two halves, xor-ed.
#[derive(Default)]
struct Folded(u64);

impl Hasher for Folded {
    fn write_u128(&mut self, v: u128) {
        self.0 ^= (v as u64) ^ ((v >> 64) as u64);
    }

    /// Not met (keys are `u128`), but correct for any bytes: 8 at a time, xor-ed
    /// after a rotation, so that order counts.
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = self.0.rotate_left(5) ^ u64::from_le_bytes(word);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// What a node hashes to and how much it draws.
#[derive(Clone, Copy)]
struct Digest {
    hash: u128,
    weight: u64,
}

/// The children of one group, as hashed.
struct Children {
    /// `None`: the child cannot be shared (it has a filter).
    digests: Vec<Option<Digest>>,
    /// For each child that is a group: its own entry in the arena.
    groups: Vec<Option<usize>>,
}

/// Every group of one tree, hashed, in the order [`digest_group`] meets them (the
/// root first); entries point at their child groups by index.
type Arena = Vec<Children>;

/// The hashed trees of a game's faces, kept while the trees live: every PDF of the
/// game (and learning, and drawing) hashes a face once. Truck Off's 40 pad sheets
/// are in two PDFs, each learning from its first 16 faces, so each sheet was
/// hashed three times. A tree is known by its address while a `Weak` to it is
/// held, which keeps that address from being reused; entries of dropped trees are
/// swept out as new ones come.
#[derive(Default)]
pub struct Digests(Mutex<ByTree>);

/// Hashed trees by address, each with a `Weak` to its tree, and the size at which
/// the entries of dropped trees are swept out next.
#[derive(Default)]
struct ByTree {
    trees: HashMap<usize, (Weak<Tree>, Arc<Arena>)>,
    sweep_at: usize,
}

impl Digests {
    /// `tree`'s groups, hashed.
    fn of(&self, tree: &Arc<Tree>) -> Arc<Arena> {
        let key = Arc::as_ptr(tree) as usize;
        let known = |m: &ByTree| {
            m.trees
                .get(&key)
                .filter(|(weak, _)| weak.upgrade().is_some_and(|t| Arc::ptr_eq(&t, tree)))
                .map(|(_, arena)| arena.clone())
        };
        if let Some(arena) = known(&self.lock()) {
            return arena;
        }
        let mut arena = Arena::new();
        digest_group(tree.root(), &mut arena);
        let arena = Arc::new(arena);
        let mut m = self.lock();
        if m.trees.len() >= m.sweep_at {
            // Twice what is alive: the sweeps cost a constant a tree, and the
            // arenas of dropped trees never outnumber the live ones much.
            m.trees.retain(|_, (weak, _)| weak.strong_count() > 0);
            m.sweep_at = (2 * m.trees.len()).max(SWEEP_AT);
        }
        m.trees.insert(key, (Arc::downgrade(tree), arena.clone()));
        arena
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, ByTree> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Fewest entries [`Digests`] holds before it drops those of trees no longer alive.
const SWEEP_AT: usize = 16;

/// Faces learnt from: the first this many distinct faces of a document. Runs that
/// repeat among them are shared wherever they occur later; what first repeats only
/// after them is drawn in place.
const LEARN: usize = 16;

/// The runs of one document to draw once, and what was drawn for them so far.
#[derive(Default)]
pub struct Repeats {
    /// The runs chosen: first child's hash -> (number of children, run key),
    /// longest first.
    chosen: ByHash<Vec<(usize, u128)>>,
    /// Where they occur in the tree being drawn: (group address, first child) ->
    /// (end, key).
    runs: HashMap<(usize, usize), (usize, u128)>,
    drawn: ByHash<Graphic>,
}

impl Repeats {
    /// Learns the repeated runs from the first [`LEARN`] of `trees` (each face
    /// once, in the order they print).
    pub fn learn(trees: impl IntoIterator<Item = Arc<Tree>>, digests: &Digests) -> Repeats {
        let mut arenas: Vec<Arc<Arena>> = Vec::new();
        let mut seen: ByHash<u32> = ByHash::default();
        for t in trees.into_iter().take(LEARN) {
            let arena = digests.of(&t);
            for d in arena.iter().flat_map(|c| c.digests.iter().flatten()) {
                *seen.entry(d.hash).or_default() += 1;
            }
            arenas.push(arena);
        }
        // Candidate runs: maximal stretches of children that occur more than once.
        let mut run_count: ByHash<u32> = ByHash::default();
        for children in arenas.iter().flat_map(|a| a.iter()) {
            for (_, _, key, _) in runs_of(children, &seen) {
                *run_count.entry(key).or_default() += 1;
            }
        }
        let mut repeats = Repeats::default();
        for arena in &arenas {
            if !arena.is_empty() {
                repeats.choose(arena, 0, &seen, &run_count);
            }
        }
        for runs in repeats.chosen.values_mut() {
            runs.sort_by(|a, b| b.cmp(a));
            runs.dedup();
        }
        repeats
    }

    /// How many distinct runs are drawn once (for tests and `--timings`).
    pub fn len(&self) -> usize {
        self.chosen.values().map(Vec::len).sum()
    }

    /// True when nothing repeats.
    pub fn is_empty(&self) -> bool {
        self.chosen.is_empty()
    }

    /// Top-down: the outermost repeated runs of group `g` of `arena`; inside a
    /// chosen run nothing more is chosen.
    fn choose(&mut self, arena: &Arena, g: usize, seen: &ByHash<u32>, run_count: &ByHash<u32>) {
        let children = &arena[g];
        let mut covered = vec![false; children.digests.len()];
        for (start, end, key, weight) in runs_of(children, seen) {
            if weight >= MIN_WEIGHT && run_count.get(&key).copied().unwrap_or(0) > 1 {
                let first = children.digests[start].map_or(0, |d| d.hash);
                self.chosen
                    .entry(first)
                    .or_default()
                    .push((end - start, key));
                covered[start..end].iter_mut().for_each(|c| *c = true);
            }
        }
        for (child, covered) in children.groups.iter().zip(covered) {
            if let (Some(c), false) = (child, covered) {
                self.choose(arena, *c, seen, run_count);
            }
        }
    }

    /// Finds where the chosen runs occur in `tree`; call it before drawing the tree.
    pub fn prepare(&mut self, tree: &Arc<Tree>, digests: &Digests) {
        self.runs.clear();
        if self.chosen.is_empty() {
            return;
        }
        let arena = digests.of(tree);
        self.mark(tree.root(), &arena, 0);
    }

    /// Records the outermost chosen runs among group `g`'s children (`group` in
    /// the tree), then looks inside the children no run covers.
    fn mark(&mut self, group: &Group, arena: &Arena, g: usize) {
        let children = &arena[g];
        let d = &children.digests;
        let mut covered = vec![false; d.len()];
        let mut i = 0;
        'at: while i < d.len() {
            if let Some(first) = d[i] {
                for &(len, key) in self.chosen.get(&first.hash).into_iter().flatten() {
                    let Some(stretch) = d.get(i..i + len) else {
                        continue;
                    };
                    if stretch.iter().all(Option::is_some) && run_key(stretch) == key {
                        self.runs.insert((address(group), i), (i + len, key));
                        covered[i..i + len].iter_mut().for_each(|c| *c = true);
                        i += len;
                        continue 'at;
                    }
                }
            }
            i += 1;
        }
        for ((child, inner), covered) in group.children().iter().zip(&children.groups).zip(covered)
        {
            if let (Node::Group(child), Some(inner), false) = (child, inner, covered) {
                self.mark(child, arena, *inner);
            }
        }
    }
}

impl krilla_svg::Reuse for Repeats {
    fn run(&self, group: &Group, start: usize) -> Option<(usize, u128)> {
        self.runs.get(&(address(group), start)).copied()
    }

    fn graphic(&self, key: u128) -> Option<Graphic> {
        self.drawn.get(&key).cloned()
    }

    fn keep(&mut self, key: u128, graphic: Graphic) {
        self.drawn.insert(key, graphic);
    }
}

fn address(g: &Group) -> usize {
    g as *const Group as usize
}

/// The key of a run of hashed children.
fn run_key(stretch: &[Option<Digest>]) -> u128 {
    let mut h = SipHasher13::new();
    for x in stretch.iter().flatten() {
        h.write_u128(x.hash);
    }
    h.finish128().as_u128()
}

/// Maximal runs of children seen more than once: (start, end, key, weight).
fn runs_of(children: &Children, seen: &ByHash<u32>) -> Vec<(usize, usize, u128, u64)> {
    let mut out = Vec::new();
    let mut i = 0;
    let d = &children.digests;
    while i < d.len() {
        let repeated = |k: usize| d[k].is_some_and(|x| seen.get(&x.hash).copied().unwrap_or(0) > 1);
        if !repeated(i) {
            i += 1;
            continue;
        }
        let start = i;
        let mut weight = 0;
        while i < d.len() && repeated(i) {
            weight += d[i].map_or(0, |x| x.weight);
            i += 1;
        }
        out.push((start, i, run_key(&d[start..i]), weight));
    }
    out
}

/// Hashes `group`'s children (recording them in `arena`, the group's entry before
/// its child groups'); returns the group's own digest, or `None` when it cannot be
/// shared.
fn digest_group(group: &Group, arena: &mut Arena) -> Option<Digest> {
    let me = arena.len();
    arena.push(Children {
        digests: Vec::new(),
        groups: Vec::new(),
    });
    let mut digests = Vec::with_capacity(group.children().len());
    let mut groups = Vec::with_capacity(group.children().len());
    for c in group.children() {
        groups.push(matches!(c, Node::Group(_)).then_some(arena.len()));
        digests.push(digest_node(c, arena));
    }
    let shareable = digests.iter().all(Option::is_some) && group.filters().is_empty();
    let mut h = SipHasher13::new();
    h.write_u8(b'g');
    transform(&mut h, group.transform());
    h.write_u32(group.opacity().get().to_bits());
    h.write_u8(group.blend_mode() as u8);
    h.write_u8(group.isolate() as u8);
    if let Some(c) = group.clip_path() {
        clip(&mut h, c);
    }
    if let Some(m) = group.mask() {
        mask(&mut h, m);
    }
    let mut weight = 0;
    for d in digests.iter().flatten() {
        h.write_u128(d.hash);
        weight += d.weight;
    }
    arena[me] = Children { digests, groups };
    shareable.then(|| Digest {
        hash: h.finish128().as_u128(),
        weight,
    })
}

fn digest_node(node: &Node, arena: &mut Arena) -> Option<Digest> {
    let mut h = SipHasher13::new();
    let weight = match node {
        Node::Group(g) => return digest_group(g, arena),
        Node::Path(p) => {
            h.write_u8(b'p');
            path(&mut h, p);
            p.data().len() as u64
        }
        Node::Text(t) => {
            h.write_u8(b't');
            let mut glyphs = 0;
            for s in t.layouted() {
                h.write_u8(s.visible as u8);
                h.write_u32(s.font_size.get().to_bits());
                fill(&mut h, s.fill.as_ref());
                stroke(&mut h, s.stroke.as_ref());
                h.write_u8(s.paint_order as u8);
                h.write_u8(s.font_optical_sizing as u8);
                for v in &s.variations {
                    h.write(&v.tag);
                    h.write_u32(v.value.to_bits());
                }
                for line in [&s.overline, &s.underline, &s.line_through] {
                    match line {
                        Some(p) => path(&mut h, p),
                        None => h.write_u8(0),
                    }
                }
                for g in &s.positioned_glyphs {
                    h.write_u16(g.id.0);
                    std::hash::Hash::hash(&g.font, &mut h);
                    h.write(g.text.as_bytes());
                    h.write_u8(0);
                    transform(&mut h, g.transform());
                    glyphs += 1;
                }
            }
            glyphs
        }
        Node::Image(i) => {
            h.write_u8(b'i');
            h.write_u8(i.is_visible() as u8);
            h.write_u32(i.size().width().to_bits());
            h.write_u32(i.size().height().to_bits());
            h.write_u8(i.rendering_mode() as u8);
            match i.kind() {
                usvg::ImageKind::JPEG(d)
                | usvg::ImageKind::PNG(d)
                | usvg::ImageKind::GIF(d)
                | usvg::ImageKind::WEBP(d) => h.write(d),
                usvg::ImageKind::SVG(t) => {
                    let d = digest_group(t.root(), &mut Arena::new())?;
                    h.write_u128(d.hash);
                }
            }
            32
        }
    };
    Some(Digest {
        hash: h.finish128().as_u128(),
        weight,
    })
}

fn transform(h: &mut SipHasher13, t: usvg::Transform) {
    for v in [t.sx, t.kx, t.ky, t.sy, t.tx, t.ty] {
        h.write_u32(v.to_bits());
    }
}

fn path(h: &mut SipHasher13, p: &usvg::Path) {
    h.write_u8(p.is_visible() as u8);
    fill(h, p.fill());
    stroke(h, p.stroke());
    h.write_u8(p.paint_order() as u8);
    h.write_u8(p.rendering_mode() as u8);
    let data = p.data();
    for v in data.verbs() {
        h.write_u8(*v as u8);
    }
    for pt in data.points() {
        h.write_u32(pt.x.to_bits());
        h.write_u32(pt.y.to_bits());
    }
}

fn fill(h: &mut SipHasher13, f: Option<&usvg::Fill>) {
    let Some(f) = f else {
        h.write_u8(0);
        return;
    };
    h.write_u8(1);
    paint(h, f.paint());
    h.write_u32(f.opacity().get().to_bits());
    h.write_u8(f.rule() as u8);
}

fn stroke(h: &mut SipHasher13, s: Option<&usvg::Stroke>) {
    let Some(s) = s else {
        h.write_u8(0);
        return;
    };
    h.write_u8(1);
    paint(h, s.paint());
    for v in s.dasharray().unwrap_or(&[]) {
        h.write_u32(v.to_bits());
    }
    for v in [
        s.dashoffset(),
        s.miterlimit().get(),
        s.opacity().get(),
        s.width().get(),
    ] {
        h.write_u32(v.to_bits());
    }
    h.write_u8(s.linecap() as u8);
    h.write_u8(s.linejoin() as u8);
}

fn paint(h: &mut SipHasher13, p: &Paint) {
    let stops = |h: &mut SipHasher13, stops: &[usvg::Stop]| {
        for s in stops {
            h.write_u32(s.offset().get().to_bits());
            let c = s.color();
            h.write(&[c.red, c.green, c.blue]);
            h.write_u32(s.opacity().get().to_bits());
        }
    };
    match p {
        Paint::Color(c) => h.write(&[b'c', c.red, c.green, c.blue]),
        Paint::LinearGradient(g) => {
            h.write_u8(b'l');
            for v in [g.x1(), g.y1(), g.x2(), g.y2()] {
                h.write_u32(v.to_bits());
            }
            transform(h, g.transform());
            h.write_u8(g.spread_method() as u8);
            stops(h, g.stops());
        }
        Paint::RadialGradient(g) => {
            h.write_u8(b'r');
            for v in [g.cx(), g.cy(), g.r().get(), g.fx(), g.fy(), g.fr().get()] {
                h.write_u32(v.to_bits());
            }
            transform(h, g.transform());
            h.write_u8(g.spread_method() as u8);
            stops(h, g.stops());
        }
        Paint::Pattern(p) => {
            h.write_u8(b'n');
            transform(h, p.transform());
            let r = p.rect();
            for v in [r.x(), r.y(), r.width(), r.height()] {
                h.write_u32(v.to_bits());
            }
            subtree(h, p.root());
        }
    }
}

fn clip(h: &mut SipHasher13, c: &usvg::ClipPath) {
    h.write_u8(b'k');
    transform(h, c.transform());
    if let Some(inner) = c.clip_path() {
        clip(h, inner);
    }
    subtree(h, c.root());
}

fn mask(h: &mut SipHasher13, m: &usvg::Mask) {
    h.write_u8(b'm');
    let r = m.rect();
    for v in [r.x(), r.y(), r.width(), r.height()] {
        h.write_u32(v.to_bits());
    }
    h.write_u8(m.kind() as u8);
    if let Some(inner) = m.mask() {
        mask(h, inner);
    }
    subtree(h, m.root());
}

/// A clip path's, mask's or pattern's content, hashed in place (a filter there makes
/// it unique, so it is never shared).
fn subtree(h: &mut SipHasher13, g: &Group) {
    match digest_group(g, &mut Arena::new()) {
        Some(d) => h.write_u128(d.hash),
        // A value no other node hashes with: never shared.
        None => {
            static UNIQUE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
            h.write_u8(b'u');
            h.write_u64(UNIQUE.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_whose_halves_fold_alike_stay_apart() {
        // Both fold to the same 64 bits: the map tells them apart by the whole key.
        let (a, b, c) = (1u128 << 64 | 1, 0u128, 7u128 << 64 | 7);
        let mut seen: ByHash<u32> = ByHash::default();
        for k in [a, b, c, a, a, c] {
            *seen.entry(k).or_default() += 1;
        }
        assert_eq!(seen.len(), 3);
        assert_eq!((seen[&a], seen[&b], seen[&c]), (3, 1, 2));
        let fold = |k: u128| {
            let mut h = Folded::default();
            h.write_u128(k);
            h.finish()
        };
        assert_eq!(fold(a), fold(b));
        assert_ne!(fold(1), fold(2));
    }
}
