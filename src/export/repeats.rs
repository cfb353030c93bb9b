//! Content that repeats across the faces of one PDF, drawn once.
//!
//! A score pad's map, grid and legend, a card's frame, a board's background: the
//! same drawing on many distinct faces. [`Repeats::find`] hashes every node of every
//! face's parsed tree (what it draws, not where the face sits), and marks each run of
//! consecutive siblings that occurs more than once in the document and is big enough
//! to be worth it. The PDF writer hands it to krilla-svg (the [`krilla_svg::Reuse`]
//! patch), which draws such a run once as a form XObject and places that XObject
//! everywhere the run occurs. Nothing is declared in templates: two subtrees that draw
//! the same thing are found, whatever template they came from.
//!
//! A node's hash covers everything krilla-svg reads to draw it: geometry, paint,
//! stroke, transforms, clips, masks, opacity, glyphs with their fonts and positions,
//! image bytes. Groups with filters are never shared (krilla-svg rasterises filters
//! relative to the page). Hashes are 128-bit SipHash with fixed keys, so the same
//! faces always give the same runs and the same bytes.

use std::collections::HashMap;
use std::hash::Hasher;

use krilla::graphic::Graphic;
use siphasher::sip128::{Hasher128, SipHasher13};
use usvg::{Group, Node, Paint, Tree};

/// Smallest run worth a shared object: about this many points and glyphs. A
/// shared object costs about 100 bytes; a lone rectangle is cheaper drawn in place.
const MIN_WEIGHT: u64 = 24;

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
}

/// The runs of one document to draw once, and what was drawn for them so far.
#[derive(Default)]
pub struct Repeats {
    /// (group address, first child) -> (end, key).
    runs: HashMap<(usize, usize), (usize, u128)>,
    drawn: HashMap<u128, Graphic>,
}

impl Repeats {
    /// Finds the repeated runs among `trees` (each face once).
    pub fn find<'a>(trees: impl IntoIterator<Item = &'a Tree>) -> Repeats {
        let trees: Vec<&Tree> = trees.into_iter().collect();
        let mut groups: HashMap<usize, Children> = HashMap::new();
        let mut seen: HashMap<u128, u32> = HashMap::new();
        for t in &trees {
            digest_group(t.root(), &mut groups, &mut seen);
        }
        // Candidate runs: maximal stretches of children that occur more than once.
        let mut run_count: HashMap<u128, u32> = HashMap::new();
        for children in groups.values() {
            for (_, _, key, _) in runs_of(children, &seen) {
                *run_count.entry(key).or_default() += 1;
            }
        }
        let mut repeats = Repeats::default();
        for t in &trees {
            repeats.choose(t.root(), &groups, &seen, &run_count);
        }
        repeats
    }

    /// How many runs are drawn once (for tests and `--timings`).
    pub fn len(&self) -> usize {
        self.runs.len()
    }

    /// True when nothing repeats.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// Top-down: the outermost repeated runs of `group`; inside a chosen run nothing
    /// more is chosen.
    fn choose(
        &mut self,
        group: &Group,
        groups: &HashMap<usize, Children>,
        seen: &HashMap<u128, u32>,
        run_count: &HashMap<u128, u32>,
    ) {
        let Some(children) = groups.get(&address(group)) else {
            return;
        };
        let mut covered = vec![false; children.digests.len()];
        for (start, end, key, weight) in runs_of(children, seen) {
            if weight >= MIN_WEIGHT && run_count.get(&key).copied().unwrap_or(0) > 1 {
                self.runs.insert((address(group), start), (end, key));
                covered[start..end].iter_mut().for_each(|c| *c = true);
            }
        }
        for (child, covered) in group.children().iter().zip(covered) {
            if let (Node::Group(g), false) = (child, covered) {
                self.choose(g, groups, seen, run_count);
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

/// Maximal runs of children seen more than once: (start, end, key, weight).
fn runs_of(children: &Children, seen: &HashMap<u128, u32>) -> Vec<(usize, usize, u128, u64)> {
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
        let mut h = SipHasher13::new();
        let mut weight = 0;
        while i < d.len() && repeated(i) {
            let x = d[i].expect("repeated children are hashed");
            h.write_u128(x.hash);
            weight += x.weight;
            i += 1;
        }
        out.push((start, i, h.finish128().as_u128(), weight));
    }
    out
}

/// Hashes `group`'s children (recording them) and returns the group's own digest,
/// or `None` when it cannot be shared.
fn digest_group(
    group: &Group,
    groups: &mut HashMap<usize, Children>,
    seen: &mut HashMap<u128, u32>,
) -> Option<Digest> {
    let digests: Vec<Option<Digest>> = group
        .children()
        .iter()
        .map(|c| digest_node(c, groups, seen))
        .collect();
    for d in digests.iter().flatten() {
        *seen.entry(d.hash).or_default() += 1;
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
    groups.insert(address(group), Children { digests });
    shareable.then(|| Digest {
        hash: h.finish128().as_u128(),
        weight,
    })
}

fn digest_node(
    node: &Node,
    groups: &mut HashMap<usize, Children>,
    seen: &mut HashMap<u128, u32>,
) -> Option<Digest> {
    let mut h = SipHasher13::new();
    let weight = match node {
        Node::Group(g) => return digest_group(g, groups, seen),
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
                    let mut groups = HashMap::new();
                    let mut seen = HashMap::new();
                    let d = digest_group(t.root(), &mut groups, &mut seen)?;
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
    let mut groups = HashMap::new();
    let mut seen = HashMap::new();
    match digest_group(g, &mut groups, &mut seen) {
        Some(d) => h.write_u128(d.hash),
        None => h.write_usize(address(g)),
    }
}
