//! What a face draws once `<use>` references and markers are expanded, counted on
//! the XML before usvg expands them: a chain of `<use>` multiplies a small file
//! into millions of elements, 500 `<use>` of one long text multiply the text, and
//! a marker is drawn at every point of the paths that use it (a 1,000-element
//! marker on a 20,000-point path is 20 million elements).

use std::collections::BTreeMap;
use std::ops::Range;

use roxmltree::{Document, Node, NodeId};

/// What a document draws, expanded.
#[derive(Debug, Default)]
pub(super) struct Counts {
    /// Elements (saturating).
    pub elements: usize,
    /// Characters of text in `<text>` elements (saturating).
    pub chars: usize,
    /// The `<text>` or `<use>` element that draws the most characters.
    pub most_text: Option<Range<usize>>,
    /// Characters set on a path times the bytes of that path's data, summed over
    /// every `<textPath>` drawn: usvg walks the path from its start for each
    /// glyph (saturating).
    pub on_path: u64,
    /// The `<textPath>` with the most of that work, its start tag.
    pub most_on_path: Option<Range<usize>>,
}

/// Counts `doc` with every `<use>` replaced by what it references and every
/// marker drawn at each point of the shapes that may use it.
pub(super) fn count(doc: &Document) -> Counts {
    let ids: BTreeMap<&str, NodeId> = doc
        .descendants()
        .filter_map(|n| Some((n.attribute("id")?, n.id())))
        .collect();
    // A style sheet that names markers may set them on any shape.
    let sheet_markers = doc
        .descendants()
        .any(|n| n.has_tag_name("style") && n.text().is_some_and(|t| t.contains("marker")));
    let nodes = doc.descendants().count() + 1;
    let mut c = Counter {
        ids,
        memo: vec![None; nodes],
        marker: 0,
        sheet_markers,
    };
    // The largest marker, its own shapes counted without markers (a marker inside
    // a marker is not drawn); then the document with it on every marked shape.
    c.marker = doc
        .descendants()
        .filter(|n| n.has_tag_name("marker"))
        .map(|n| c.node(n).0)
        .max()
        .unwrap_or(0);
    c.memo = vec![None; nodes];
    let (elements, chars) = c.node(doc.root_element());
    let (on_path, most_on_path) = on_path(&c, doc);
    let mut most: (usize, Option<Range<usize>>) = (0, None);
    for n in doc
        .descendants()
        .filter(|n| n.has_tag_name("text") || n.has_tag_name("use"))
    {
        let (_, chars) = c.node(n);
        if chars > most.0 {
            most = (chars, Some(n.range()));
        }
    }
    Counts {
        elements,
        chars,
        most_text: most.1,
        on_path,
        most_on_path,
    }
}

/// The work of setting text on paths ([`Counts::on_path`]): each `<textPath>`'s
/// characters times its path's data, as often as `<use>` draws it; and the
/// `<textPath>` with the most.
fn on_path(c: &Counter, doc: &Document) -> (u64, Option<Range<usize>>) {
    // `<use>`s by the element they draw (a `<use>` of a `<use>` is not followed:
    // the element count already bounds such chains).
    let mut uses = vec![0u64; doc.descendants().count() + 1];
    for u in doc.descendants().filter(|n| n.has_tag_name("use")) {
        if let Some(n) = c.target(u).and_then(|t| uses.get_mut(t.id().get_usize())) {
            *n += 1;
        }
    }
    let mut total = 0u64;
    let mut most = (0u64, None);
    for t in doc.descendants().filter(|n| n.has_tag_name("textPath")) {
        // Drawn once, and again by each `<use>` of it or of an element around it.
        let times: u64 = 1 + t
            .ancestors()
            .filter_map(|a| uses.get(a.id().get_usize()))
            .sum::<u64>();
        let data = t
            .attribute("path")
            .or_else(|| c.target(t).and_then(|p| p.attribute("d")))
            .map_or(0, str::len) as u64;
        let chars: usize = t
            .descendants()
            .filter(|n| n.is_text())
            .map(|n| n.text().map_or(0, |s| s.chars().count()))
            .sum();
        let work = data.saturating_mul(chars as u64);
        let drawn = work.saturating_mul(times);
        total = total.saturating_add(drawn);
        if drawn > most.0 {
            let at = t.range().start;
            most = (drawn, Some(at..at + "<textPath".len()));
        }
    }
    (total, most.1)
}

/// Per node: `None` = not counted yet, `Some(None)` = being counted (a cycle,
/// which usvg refuses to follow), `Some(Some(n))` = counted.
type Memo = Vec<Option<Option<(usize, usize)>>>;

struct Counter<'a> {
    ids: BTreeMap<&'a str, NodeId>,
    memo: Memo,
    /// Elements of the largest marker.
    marker: usize,
    sheet_markers: bool,
}

/// The shapes markers are drawn on.
const MARKED: [&str; 4] = ["path", "line", "polyline", "polygon"];

impl<'a> Counter<'a> {
    /// (elements, characters of text) that `node` draws.
    fn node(&mut self, node: Node<'a, '_>) -> (usize, usize) {
        let i = node.id().get_usize();
        match self.memo.get(i).copied().flatten() {
            Some(Some(n)) => return n,
            Some(None) => return (0, 0),
            None => {}
        }
        if let Some(m) = self.memo.get_mut(i) {
            *m = Some(None);
        }
        let counted = if node.is_text() {
            let in_text = node.ancestors().any(|a| a.has_tag_name("text"));
            let chars = if in_text {
                node.text().map_or(0, |t| t.chars().count())
            } else {
                0
            };
            (0, chars)
        } else {
            let mut n = (1usize, 0usize);
            let mut add = |(e, c): (usize, usize)| {
                n = (n.0.saturating_add(e), n.1.saturating_add(c));
            };
            for child in node.children() {
                add(self.node(child));
            }
            if node.has_tag_name("use") {
                if let Some(target) = self.target(node) {
                    add(self.node(target));
                }
            }
            if self.marker > 0
                && MARKED.iter().any(|m| node.has_tag_name(*m))
                && self.may_have_markers(node)
            {
                add((points(node).saturating_mul(self.marker), 0));
            }
            n
        };
        if let Some(m) = self.memo.get_mut(i) {
            *m = Some(Some(counted));
        }
        counted
    }

    /// The element a `<use>` references.
    fn target(&self, node: Node<'a, '_>) -> Option<Node<'a, 'a>> {
        let href = node
            .attribute(("http://www.w3.org/1999/xlink", "href"))
            .or_else(|| node.attribute("href"))?;
        let id = self.ids.get(href.strip_prefix('#')?)?;
        node.document().get_node(*id)
    }

    /// Whether a marker may be drawn on `node`: a marker property on it or an
    /// element around it (attribute or `style`), or a style sheet naming markers.
    fn may_have_markers(&self, node: Node) -> bool {
        self.sheet_markers
            || node.ancestors().any(|a| {
                a.attributes().any(|at| at.name().starts_with("marker"))
                    || a.attribute("style").is_some_and(|s| s.contains("marker"))
            })
    }
}

/// The points of a shape a marker may be drawn at (an upper bound).
fn points(node: Node) -> usize {
    match node.tag_name().name() {
        "path" => node
            .attribute("d")
            .map_or(0, |d| svgtypes::PathParser::from(d).count()),
        "polyline" | "polygon" => node.attribute("points").map_or(0, |p| {
            p.split(|c: char| c == ',' || c.is_whitespace())
                .filter(|s| !s.is_empty())
                .count()
                / 2
                + 1
        }),
        _ => 2,
    }
}
