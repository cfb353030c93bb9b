//! Layers: a template rendered once for a whole component set and drawn under every
//! front (`layer = "sheet-layer.svg"`), for what the fronts share (a score pad's map
//! and grid, a card frame). A layer sees the game (`game`, `rules`, `tables`,
//! `settings`, `components`) and `face`, never a face's own values (`row`, `item`,
//! `copy`, `index`, `qty`), so it cannot differ between fronts by accident.
//!
//! Every front is written as one SVG text: the front's, with the layer's content
//! put first inside its root element, in a `<g>` carrying the attributes of the
//! layer's root (its `font-family`, say). That text is what the SVG files, the live
//! preview and every message see. Parsing takes the shortcut: the layer is parsed
//! once, each front's own text alone, and the face is drawn as the two trees one
//! over the other (`export::Stack`, `usvg::Tree::stacks_on`), which draws what the
//! combined text does.
//!
//! So that the shortcut and the combined text agree, a layer's root `<svg>` must
//! have the front's size and viewBox, and no id may be defined in both. A front
//! and layer that refer to each other's ids, that have a `<style>` sheet (which
//! applies across both), or whose front root sets what would reach the layer's
//! content are parsed as one text ([`Insert::linked`]).

use std::collections::HashSet;
use std::ops::Range;

/// Root attributes that place the picture: a layer's must be the front's, and they
/// are not carried onto the layer's `<g>`.
const PLACING: [&str; 8] = [
    "width",
    "height",
    "viewBox",
    "preserveAspectRatio",
    "x",
    "y",
    "version",
    "baseProfile",
];

/// Inherited properties: set on a front's root, they reach the layer's content in
/// the whole text unless the layer's root sets them too.
const INHERITED: [&str; 26] = [
    "clip-rule",
    "color",
    "direction",
    "dominant-baseline",
    "fill",
    "fill-opacity",
    "fill-rule",
    "font-family",
    "font-kerning",
    "font-size",
    "font-stretch",
    "font-style",
    "font-variant",
    "font-weight",
    "letter-spacing",
    "paint-order",
    "stroke",
    "stroke-dasharray",
    "stroke-dashoffset",
    "stroke-linecap",
    "stroke-linejoin",
    "stroke-miterlimit",
    "stroke-opacity",
    "stroke-width",
    "text-anchor",
    "word-spacing",
];

/// A rendered layer, read for putting under fronts.
#[derive(Debug)]
pub struct Layer {
    /// The layer's SVG text as its template wrote it.
    pub text: String,
    /// `<g ...>`: the layer root's start tag as a group (its placing attributes left out).
    open: String,
    /// The root element's content in `text`.
    body: Range<usize>,
    /// Where the root element starts in `text` (`<svg`).
    root: Range<usize>,
    /// Ids the layer defines.
    ids: HashSet<String>,
    /// What the layer refers to: ids it does not define, and whether it has a
    /// style sheet.
    outside: Links,
    /// The root's placing attributes, as written.
    placing: Vec<(&'static str, Option<String>)>,
    /// The names of the root's attributes.
    root_attributes: HashSet<String>,
}

/// A front with its layer put under it.
#[derive(Debug, Clone)]
pub struct Composed {
    pub text: String,
    pub at: Insert,
}

/// Where a layer went in a front's text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Insert {
    /// The inserted `<g ...>...</g>`.
    pub range: Range<usize>,
    /// The layer's content within it.
    body: Range<usize>,
    /// Where that content starts in the layer's own text.
    body_source: usize,
    /// Where the layer's root element is in its own text.
    root_source: Range<usize>,
    /// Whether the front and the layer reach each other (an id one defines and the
    /// other uses, a `<style>` sheet, which applies across the two, or what the
    /// front's root sets and the layer's root does not set again): such a face is
    /// parsed as a whole, not as two trees put together.
    pub linked: bool,
}

/// What a document refers to beyond itself.
#[derive(Debug, Default)]
struct Links {
    /// Ids used (`url(#id)`, `href="#id"`) and not defined.
    ids: HashSet<String>,
    /// Whether it has a `<style>` element.
    style: bool,
}

impl Links {
    /// What `doc` uses and does not define itself.
    fn of(doc: &roxmltree::Document, defined: &HashSet<String>) -> Links {
        let mut links = Links::default();
        for node in doc.descendants().filter(|n| n.is_element()) {
            links.style |= node.tag_name().name() == "style";
            for a in node.attributes() {
                let v = a.value();
                if a.name() == "href" {
                    if let Some(id) = v.strip_prefix('#') {
                        links.ids.insert(id.to_string());
                    }
                }
                let mut rest = v;
                while let Some(i) = rest.find("url(") {
                    rest = &rest[i + 4..];
                    let inner = rest[..rest.find(')').unwrap_or(rest.len())]
                        .trim()
                        .trim_matches(|c| c == '\'' || c == '"');
                    if let Some(id) = inner.strip_prefix('#') {
                        links.ids.insert(id.to_string());
                    }
                }
            }
        }
        links.ids.retain(|id| !defined.contains(id));
        links
    }
}

/// Where a byte range of a composed front comes from.
#[derive(Debug, PartialEq, Eq)]
pub enum Part {
    /// The front's own text (the range in the text its template wrote).
    Front(Range<usize>),
    /// The layer's text (the range in the text the layer's template wrote).
    Layer(Range<usize>),
}

impl Insert {
    /// The text of the front alone (without the layer) from the composed text.
    pub fn front_text(&self, composed: &str) -> String {
        let mut s = String::with_capacity(composed.len().saturating_sub(self.range.len()));
        s.push_str(&composed[..self.range.start]);
        s.push_str(&composed[self.range.end..]);
        s
    }

    /// Which text `r` (a range of the composed text) was written in, and where.
    pub fn part(&self, r: Range<usize>) -> Part {
        let n = self.range.len();
        if r.start < self.range.start {
            Part::Front(r.start..r.end.min(self.range.start))
        } else if r.start >= self.range.end {
            Part::Front(r.start - n..r.end.saturating_sub(n).max(r.start - n))
        } else if r.start >= self.body.start && r.start < self.body.end {
            let shift = |p: usize| {
                p.clamp(self.body.start, self.body.end) - self.body.start + self.body_source
            };
            Part::Layer(shift(r.start)..shift(r.end))
        } else {
            Part::Layer(self.root_source.clone())
        }
    }
}

/// Why a layer cannot go under a front (the message's main part).
#[derive(Debug, PartialEq, Eq)]
pub enum LayerError {
    /// The layer's text is not an `<svg>` document.
    NotSvg(String),
    /// A placing attribute of the two roots differs.
    Placing {
        name: &'static str,
        layer: Option<String>,
        front: Option<String>,
    },
    /// An id both define.
    SameId(String),
    /// A root `background-color` (drawn another way than the layer's content).
    Background,
}

impl std::fmt::Display for LayerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let show = |v: &Option<String>| match v {
            Some(v) => format!("`{v}`"),
            None => "none".to_string(),
        };
        match self {
            LayerError::NotSvg(why) => write!(f, "the layer is not an SVG document: {why}"),
            LayerError::Placing { name, layer, front } => write!(
                f,
                "the layer's root <svg> has {name} {} but the front's has {}",
                show(layer),
                show(front)
            ),
            LayerError::SameId(id) => {
                write!(f, "the layer and the front both define id `{id}`")
            }
            LayerError::Background => {
                write!(f, "the layer's root <svg> has a background-color")
            }
        }
    }
}

impl LayerError {
    /// How to fix it.
    pub fn hint(&self) -> &'static str {
        match self {
            LayerError::NotSvg(_) => {
                "a layer template writes one <svg> element, like a front (extend common/face.svg)"
            }
            LayerError::Placing { .. } => {
                "write the layer's <svg> as the front's (extend common/face.svg in both)"
            }
            LayerError::SameId(_) => {
                "ids must be unique in the face the two make: rename one, or define it in the layer only"
            }
            LayerError::Background => "draw the background as a <rect> in the layer instead",
        }
    }
}

/// The end of the start tag that begins at `start` (just past its `>`), and
/// whether it closes itself (`/>`).
fn start_tag_end(text: &str, start: usize) -> Option<(usize, bool)> {
    let mut quote = None;
    for (i, b) in text.bytes().enumerate().skip(start) {
        match (quote, b) {
            (Some(q), _) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(b),
            (None, b'>') => return Some((i + 1, i > start && text.as_bytes()[i - 1] == b'/')),
            _ => {}
        }
    }
    None
}

/// The ids `doc` defines.
fn ids(doc: &roxmltree::Document) -> HashSet<String> {
    doc.descendants()
        .filter_map(|n| n.attribute("id"))
        .map(str::to_string)
        .collect()
}

/// The placing attributes of a root element.
fn placing(root: roxmltree::Node) -> Vec<(&'static str, Option<String>)> {
    PLACING
        .iter()
        .map(|&a| (a, root.attribute(a).map(str::to_string)))
        .collect()
}

impl Layer {
    /// Reads a rendered layer.
    pub fn read(text: String) -> Result<Layer, LayerError> {
        let doc = crate::svg::xml(&text).map_err(|e| LayerError::NotSvg(e.to_string()))?;
        let root = doc.root_element();
        if root.tag_name().name() != "svg" {
            return Err(LayerError::NotSvg(format!(
                "its root element is <{}>",
                root.tag_name().name()
            )));
        }
        if root.attribute("background-color").is_some() {
            return Err(LayerError::Background);
        }
        let r = root.range();
        let (open_end, closed) =
            start_tag_end(&text, r.start).ok_or(LayerError::NotSvg("no start tag".into()))?;
        let body = if closed {
            open_end..open_end
        } else {
            open_end..text[..r.end].rfind("</").unwrap_or(open_end).max(open_end)
        };
        // The start tag as `<g ...>`: the tag name changed, placing attributes out.
        let mut cut: Vec<Range<usize>> = root
            .attributes()
            .filter(|a| PLACING.contains(&a.name()) && a.namespace().is_none())
            .map(|a| a.range())
            .collect();
        cut.sort_by_key(|c| c.start);
        let name_end = text[r.start + 1..]
            .find(|c: char| c.is_whitespace() || c == '/' || c == '>')
            .map_or(r.end, |i| r.start + 1 + i);
        let mut open = String::from("<g");
        let mut at = name_end;
        for c in cut {
            open.push_str(&text[at..c.start]);
            at = c.end;
        }
        let tag_end = if closed { open_end - 2 } else { open_end - 1 };
        open.push_str(&text[at..tag_end]);
        open.push('>');
        let defined = ids(&doc);
        let root_attributes = root.attributes().map(|a| a.name().to_string()).collect();
        Ok(Layer {
            root_attributes,
            open,
            outside: Links::of(&doc, &defined),
            ids: defined,
            placing: placing(root),
            root: r.start..name_end,
            body,
            text,
        })
    }

    /// `front` with the layer's content put first in its root element. `Ok(None)` if
    /// the front is not XML: it is left as it is, and parsing reports it.
    pub fn under(&self, front: &str) -> Result<Option<Composed>, LayerError> {
        let Ok(doc) = crate::svg::xml(front) else {
            return Ok(None);
        };
        let root = doc.root_element();
        for ((name, mine), (_, theirs)) in self.placing.iter().zip(placing(root)) {
            if *mine != theirs {
                return Err(LayerError::Placing {
                    name,
                    layer: mine.clone(),
                    front: theirs,
                });
            }
        }
        if let Some(id) = doc
            .descendants()
            .filter_map(|n| n.attribute("id"))
            .find(|id| self.ids.contains(*id))
        {
            return Err(LayerError::SameId(id.to_string()));
        }
        let front_ids = ids(&doc);
        let front_links = Links::of(&doc, &front_ids);
        // What the front's root sets reaches the layer in the whole text: only an
        // inherited property the layer's root sets again does not.
        let root_reaches = root.attributes().any(|a| {
            let plain = a.namespace().is_none();
            let name = a.name();
            !(plain && (PLACING.contains(&name) || name == "id"))
                && !(plain && INHERITED.contains(&name) && self.root_attributes.contains(name))
        });
        let linked = root_reaches
            || self.outside.style
            || front_links.style
            || front_links.ids.iter().any(|id| self.ids.contains(id))
            || self.outside.ids.iter().any(|id| front_ids.contains(id));
        let start = root.range().start;
        let Some((open_end, closed)) = start_tag_end(front, start) else {
            return Ok(None);
        };
        let body = &self.text[self.body.clone()];
        let mut text = String::with_capacity(front.len() + self.open.len() + body.len() + 12);
        let tag_end = if closed { open_end - 2 } else { open_end };
        text.push_str(&front[..tag_end]);
        if closed {
            text.push('>');
        }
        let insert_start = text.len();
        text.push_str(&self.open);
        let body_start = text.len();
        text.push_str(body);
        let body_end = text.len();
        text.push_str("</g>");
        let insert_end = text.len();
        if closed {
            text.push_str("</svg>");
            text.push_str(&front[open_end..]);
        } else {
            text.push_str(&front[open_end..]);
        }
        Ok(Some(Composed {
            text,
            at: Insert {
                range: insert_start..insert_end,
                body: body_start..body_end,
                body_source: self.body.start,
                root_source: self.root.clone(),
                linked,
            },
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FRONT: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="20mm" viewBox="0 0 10 20" font-family="Lato">
<text id="n" x="1" y="5">SHEET 2</text>
</svg>"##;
    const LAYER: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="20mm" viewBox="0 0 10 20" font-family="Bebas Neue">
<rect id="bg" width="10" height="20" fill="#eee"/>
</svg>"##;

    #[test]
    fn the_layer_goes_first_in_the_fronts_root_with_its_root_attributes() {
        let layer = Layer::read(LAYER.into()).unwrap();
        let c = layer.under(FRONT).unwrap().unwrap();
        assert_eq!(
            c.text,
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="20mm" viewBox="0 0 10 20" font-family="Lato"><g xmlns="http://www.w3.org/2000/svg"    font-family="Bebas Neue">
<rect id="bg" width="10" height="20" fill="#eee"/>
</g>
<text id="n" x="1" y="5">SHEET 2</text>
</svg>"##
        );
        assert_eq!(c.at.front_text(&c.text), FRONT);
        // Ranges map back to the text each template wrote.
        let at = |s: &str| c.text.find(s).unwrap();
        let rect = at("<rect");
        assert_eq!(
            c.at.part(rect..rect + 5),
            Part::Layer(LAYER.find("<rect").unwrap()..LAYER.find("<rect").unwrap() + 5)
        );
        let text = at("<text");
        assert_eq!(
            c.at.part(text..text + 5),
            Part::Front(FRONT.find("<text").unwrap()..FRONT.find("<text").unwrap() + 5)
        );
        assert_eq!(c.at.part(0..4), Part::Front(0..4));
        assert_eq!(c.at.part(at("<g")..at("<g") + 2), Part::Layer(0..4));
    }

    #[test]
    fn a_self_closing_front_gets_the_layer_inside() {
        let layer = Layer::read(LAYER.into()).unwrap();
        let front = r##"<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="20mm" viewBox="0 0 10 20"/>"##;
        let c = layer.under(front).unwrap().unwrap();
        assert!(c.text.starts_with(r##"<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="20mm" viewBox="0 0 10 20"><g"##));
        assert!(c.text.ends_with("</g></svg>"));
        roxmltree::Document::parse(&c.text).unwrap();
    }

    #[test]
    fn a_layer_that_does_not_fit_the_front_is_refused() {
        let layer = Layer::read(LAYER.into()).unwrap();
        assert_eq!(
            layer
                .under(&FRONT.replace("viewBox=\"0 0 10 20\"", "viewBox=\"0 0 10 21\""))
                .unwrap_err(),
            LayerError::Placing {
                name: "viewBox",
                layer: Some("0 0 10 20".into()),
                front: Some("0 0 10 21".into())
            }
        );
        assert_eq!(
            layer
                .under(&FRONT.replace("id=\"n\"", "id=\"bg\""))
                .unwrap_err(),
            LayerError::SameId("bg".into())
        );
        assert!(matches!(
            Layer::read("<g/>".into()),
            Err(LayerError::NotSvg(_))
        ));
        assert!(matches!(
            Layer::read("<svg".into()),
            Err(LayerError::NotSvg(_))
        ));
        assert_eq!(
            Layer::read(LAYER.replace("font-family", "background-color")).unwrap_err(),
            LayerError::Background
        );
        // A front that is not XML is left for parsing to report.
        assert!(layer.under("<svg").unwrap().is_none());
    }

    #[test]
    fn a_front_and_layer_that_refer_to_each_other_are_linked() {
        let layer = Layer::read(LAYER.into()).unwrap();
        let linked = |front: &str| layer.under(front).unwrap().unwrap().at.linked;
        let with = |body: &str| FRONT.replace("<text", &format!("{body}<text"));
        assert!(!linked(FRONT));
        assert!(linked(&with(r##"<use href="#bg"/>"##)));
        assert!(linked(&with(
            r##"<rect fill="url('#bg')" width="1" height="1"/>"##
        )));
        assert!(linked(&with(
            r##"<rect style="fill: url( #bg )" width="1" height="1"/>"##
        )));
        assert!(linked(&with("<style>rect { fill: red }</style>")));
        // What the front defines and uses itself does not link it.
        assert!(!linked(&with(
            r##"<linearGradient id="g"/><rect fill="url(#g)" width="1" height="1"/>"##
        )));
        // The front's root reaches the layer's content, unless the layer's root
        // sets the same inherited property.
        assert!(!linked(&FRONT.replace(
            "font-family=\"Lato\"",
            "font-family=\"Lato\" id=\"r\""
        )));
        assert!(linked(&FRONT.replace(
            "font-family=\"Lato\"",
            "font-family=\"Lato\" fill=\"red\""
        )));
        assert!(linked(&FRONT.replace(
            "font-family=\"Lato\"",
            "font-family=\"Lato\" opacity=\"0.5\""
        )));
        let filled =
            Layer::read(LAYER.replace("font-family", "fill=\"blue\" font-family")).unwrap();
        let front = FRONT.replace("font-family=\"Lato\"", "font-family=\"Lato\" fill=\"red\"");
        assert!(!filled.under(&front).unwrap().unwrap().at.linked);
        // The layer using what the front defines does.
        let layer = Layer::read(LAYER.replace("fill=\"#eee\"", "fill=\"url(#n)\"")).unwrap();
        assert!(layer.under(FRONT).unwrap().unwrap().at.linked);
    }
}
