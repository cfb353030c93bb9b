//! The drawable elements of a face's SVG text, as preflight names them: their byte
//! ranges, whether they are marked `keep-visible` or as icons, and a copy of the
//! text with an id on every element, so that each node usvg parses from it can be
//! traced back to its element.
//!
//! usvg keeps an element's `id` but drops its `class`, and a node whose element has
//! no id cannot be traced back to the text. So the elements are read from the SVG
//! text with roxmltree (their byte ranges and classes, [`Elements::read`]) and,
//! when they must be named, a copy of the text in which every drawable element
//! without an id gets `id="cs-N"`, N being its index in that list, is parsed
//! ([`Elements::tagged`]); every parsed node then carries its element's number, and
//! a group's number passes to what it draws. An element that has an id keeps it
//! and is found by it. Ids change nothing that is drawn (usvg keeps every `<g>` and
//! `<use>` as a group whatever its id; nothing that draws reads one), so a face that
//! marks elements is parsed from its copy for the exporters too ([`tagged`]: the
//! store's `Stack` carries the elements), and preflight does not parse it again.
//! Matching nodes by ids is exact where matching by order or by geometry would
//! guess (usvg drops invisible elements, expands `<use>`, merges groups).

use std::collections::HashMap;
use std::ops::Range;

/// The class that marks an element players must always see.
pub const KEEP_VISIBLE: &str = "keep-visible";
/// The class of an icon drawn by `icon()` or set in rich text: preflight checks
/// that nothing opaque covers most of it, as it does for text.
pub const ICON: &str = "icon";
/// Prefix of the ids preflight gives elements.
const PREFIX: &str = "cs-";

/// One drawable element of the SVG text.
#[derive(Debug, Clone)]
pub struct Element {
    /// Byte range of `<tag` in the text (where the element starts).
    pub start: Range<usize>,
    /// Where to insert an id (after the tag name), when it has none.
    insert_at: Option<usize>,
    /// Whether it has `class="keep-visible"`.
    pub keep: bool,
    /// Whether it has `class="icon"`.
    pub icon: bool,
}

/// The drawable elements of a face's SVG text, in document order.
#[derive(Debug, Default)]
pub struct Elements {
    pub list: Vec<Element>,
    /// Elements found by their own id.
    by_id: HashMap<String, usize>,
}

/// Elements that are not drawn where they stand (their content is drawn where it
/// is referenced, or never).
const NOT_DRAWN: [&str; 14] = [
    "defs",
    "clipPath",
    "mask",
    "pattern",
    "marker",
    "symbol",
    "linearGradient",
    "radialGradient",
    "filter",
    "style",
    "title",
    "desc",
    "metadata",
    "script",
];

impl Elements {
    /// The drawable elements of `text` (`None` if it does not parse as XML).
    pub fn read(text: &str) -> Option<Elements> {
        let doc = super::xml(text).ok()?;
        let mut out = Elements::default();
        for node in doc.root_element().descendants().skip(1) {
            if !node.is_element() || !drawable(node) {
                continue;
            }
            let r = node.range();
            let name_end = text[r.start + 1..]
                .find(|c: char| c.is_whitespace() || c == '/' || c == '>')
                .map_or(r.end, |i| r.start + 1 + i);
            let i = out.list.len();
            if let Some(id) = node.attribute("id") {
                out.by_id.insert(id.to_string(), i);
            }
            let class = |name: &str| {
                node.attribute("class")
                    .is_some_and(|c| c.split_whitespace().any(|c| c == name))
            };
            out.list.push(Element {
                start: r.start..name_end,
                insert_at: node.attribute("id").is_none().then_some(name_end),
                keep: class(KEEP_VISIBLE),
                icon: class(ICON),
            });
        }
        Some(out)
    }

    /// The elements of `text` from byte `at` on, numbered from `at` (for a layer's
    /// part of a front's text: [`Elements::over`]).
    pub fn from(text: &str, at: usize) -> Option<Elements> {
        let mut e = Elements::read(text)?;
        if e.list.iter().any(|el| el.start.start < at) {
            return None;
        }
        e.shift(at, false);
        Some(e)
    }

    /// Moves every position by `by`, back (`forward` false) or forward.
    fn shift(&mut self, by: usize, forward: bool) {
        let mv = |p: usize| if forward { p + by } else { p - by };
        for el in &mut self.list {
            el.start = mv(el.start.start)..mv(el.start.end);
            el.insert_at = el.insert_at.map(mv);
        }
    }

    /// The elements of a front's text with `layer` put in at byte `at` (`len`
    /// bytes): `layer`'s (numbered from `at`, [`Elements::from`]) and then `own`, the
    /// front's, read from its own text. The same as reading the whole text, without
    /// reading the layer again for every front.
    pub fn over(layer: &Elements, at: usize, len: usize, mut own: Elements) -> Elements {
        let mut out = Elements {
            list: layer.list.clone(),
            by_id: layer.by_id.clone(),
        };
        out.shift(at, true);
        own.shift(len, true);
        let n = out.list.len();
        out.by_id
            .extend(own.by_id.into_iter().map(|(id, i)| (id, i + n)));
        out.list.extend(own.list);
        out
    }

    /// Whether any element is marked keep-visible or is an icon: the leaves of
    /// such a face are known only from a copy with ids ([`Elements::tagged`]).
    pub fn any_marked(&self) -> bool {
        self.list.iter().any(|e| e.keep || e.icon)
    }

    /// `text` with `id="cs-N"` on every element that has no id.
    pub fn tagged(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len() + self.list.len() * 12);
        let mut at = 0;
        for (i, e) in self.list.iter().enumerate() {
            if let Some(pos) = e.insert_at {
                out.push_str(&text[at..pos]);
                out.push_str(&format!(" id=\"{PREFIX}{i}\""));
                at = pos;
            }
        }
        out.push_str(&text[at..]);
        out
    }

    /// Whether `tagged` names elements unmistakably: no element's own id looks
    /// like one it gives ([`Elements::of`] would take it for another element's
    /// number, and a reference to it could find the wrong element).
    pub fn tags_unmistakably(&self) -> bool {
        !self.by_id.keys().any(|id| id.starts_with(PREFIX))
    }

    /// The element a parsed node's id names.
    pub fn of(&self, id: &str) -> Option<usize> {
        match id.strip_prefix(PREFIX).and_then(|n| n.parse().ok()) {
            Some(i) if i < self.list.len() => Some(i),
            _ => self.by_id.get(id).copied(),
        }
    }
}

/// Whether an element is drawn where it stands: not the content of a `<text>`, of
/// `<defs>` or of another element drawn only where it is referenced.
fn drawable(node: roxmltree::Node) -> bool {
    let name = node.tag_name().name();
    if NOT_DRAWN.contains(&name) || name == "tspan" || name == "textPath" {
        return false;
    }
    !node.ancestors().skip(1).any(|a| {
        let n = a.tag_name().name();
        NOT_DRAWN.contains(&n) || n == "text"
    })
}

/// The text a face is parsed from when it marks elements (`keep-visible`, icons),
/// with its elements: its tagged copy ([`Elements::tagged`]), whose tree draws
/// what the text draws (the exporters and preflight share it) and names every
/// node's element. `None` for a face that marks nothing (most: no word `class` in
/// it, or neither mark's word), that does not parse, or whose own ids look like the
/// tags. A face that uses classes only for its own styling is not read here: its
/// elements are read once, by preflight, and only if it has something to report.
/// (A mark written with a character reference, `keep&#45;visible`, is not seen
/// here; preflight then reads the elements and parses the tagged copy itself.)
pub fn tagged(text: &str) -> Option<(String, Elements)> {
    if !text.contains("class") || !(text.contains(KEEP_VISIBLE) || text.contains(ICON)) {
        return None;
    }
    let elements = Elements::read(text)?;
    (elements.any_marked() && elements.tags_unmistakably())
        .then(|| (elements.tagged(text), elements))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_face_that_marks_elements_is_tagged() {
        let marked = r#"<svg xmlns="http://www.w3.org/2000/svg"><rect class="keep-visible" width="2" height="2"/><circle r="1"/></svg>"#;
        let (text, elements) = tagged(marked).expect("a keep-visible rect");
        assert!(elements.any_marked());
        assert!(
            text.contains(r#"<rect id="cs-0" class="keep-visible""#),
            "{text}"
        );
        // Classes for styling only, or none: nothing to tag.
        let styled = r#"<svg xmlns="http://www.w3.org/2000/svg"><rect class="frame" width="2" height="2"/></svg>"#;
        assert!(tagged(styled).is_none());
        let plain = r#"<svg xmlns="http://www.w3.org/2000/svg"><rect width="2" height="2"/></svg>"#;
        assert!(tagged(plain).is_none());
    }

    #[test]
    fn elements_get_ids_and_keep_their_own() {
        let text = r##"<svg xmlns="http://www.w3.org/2000/svg"><defs><circle id="dot" r="1"/></defs><g><circle class="a keep-visible" r="2"/><use href="#dot"/><text id="t">Hi<tspan>!</tspan></text></g></svg>"##;
        let e = Elements::read(text).unwrap();
        // g, circle, use, text (not the defs, its circle, the tspan).
        assert_eq!(e.list.len(), 4);
        assert!(e.list[1].keep && !e.list[0].keep);
        assert_eq!(&text[e.list[1].start.clone()], "<circle");
        let tagged = e.tagged(text);
        assert!(tagged.contains(r#"<g id="cs-0">"#), "{tagged}");
        assert!(
            tagged.contains(r#"<circle id="cs-1" class="a keep-visible""#),
            "{tagged}"
        );
        assert!(tagged.contains(r#"<text id="t">"#), "{tagged}");
        assert_eq!(e.of("cs-2"), Some(2));
        assert_eq!(e.of("t"), Some(3));
        assert_eq!(e.of("dot"), None, "inside defs: named by the use");
    }

    #[test]
    fn a_fronts_elements_are_its_layers_then_its_own() {
        let layer = crate::render::Layer::read(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="9mm" height="9mm" viewBox="0 0 9 9" class="keep-visible"><defs><path id="p" d="M0 0H1"/></defs><rect id="a" width="1" height="1"/><g><use href="#p"/><text>x<tspan>y</tspan></text></g></svg>"##.into(),
        )
        .unwrap();
        let front = r##"<svg xmlns="http://www.w3.org/2000/svg" width="9mm" height="9mm" viewBox="0 0 9 9"><rect class="keep-visible" width="1" height="1"/><circle id="b" r="1"/></svg>"##;
        let c = layer.under(front).unwrap().unwrap();
        let at = c.at.range.clone();
        let part = Elements::from(&format!("{}</svg>", &c.text[..at.end]), at.start).unwrap();
        let own = Elements::read(&c.at.front_text(&c.text)).unwrap();
        let put = Elements::over(&part, at.start, at.len(), own);
        let whole = Elements::read(&c.text).unwrap();
        let ids = |e: &Elements| {
            let mut v: Vec<_> = e.by_id.iter().map(|(k, v)| (k.clone(), *v)).collect();
            v.sort();
            v
        };
        assert_eq!(format!("{:?}", put.list), format!("{:?}", whole.list));
        assert_eq!(ids(&put), ids(&whole));
        assert_eq!(
            put.list.len(),
            7,
            "the layer's <g>, its four, the front's two"
        );
        assert_eq!(put.tagged(&c.text), whole.tagged(&c.text));
    }
}
