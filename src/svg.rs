//! Parsing rendered SVG text into a `usvg::Tree` with only the embedded fonts, and
//! catching what usvg would otherwise do silently: dropping text whose font is
//! missing, drawing tofu for glyphs no font has, and loading files from anywhere.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use usvg::{FontResolver, ImageHrefResolver, ImageKind, Options, Tree};

use crate::fonts;

/// Most elements in one rendered face (usvg's own hard limit is 1,000,000).
pub const MAX_ELEMENTS: usize = 200_000;

/// Why a face's SVG could not be used.
#[derive(Debug, Clone, PartialEq)]
pub enum SvgProblem {
    /// The XML does not parse; `line`/`col` are in the rendered text.
    Syntax {
        message: String,
        line: usize,
        col: usize,
        text: String,
    },
    /// The SVG has no usable size.
    Size(String),
    /// A `font-family` that is not compiled in (usvg would drop the text).
    MissingFont(String),
    /// Characters no embedded font has.
    MissingGlyphs(String),
    /// An `href` that is refused or cannot be read.
    Href(String),
    /// Too many elements.
    TooBig(usize),
    /// A colour that is not a colour (`fill="reed"`): usvg would silently paint
    /// nothing or black.
    BadColour { attribute: String, value: String },
}

impl SvgProblem {
    /// A one-line description and a hint.
    pub fn describe(&self) -> (String, String) {
        match self {
            SvgProblem::Syntax { message, line, col, text } => (
                format!("the rendered SVG does not parse: {message} (rendered line {line}, column {col}: `{}`)", text.trim()),
                "a value with `<` or `&` inside an attribute, or a tag the template opens and never closes; run `cardstock build --format svg` on a fixed copy to inspect the SVG".into(),
            ),
            SvgProblem::Size(m) => (format!("the rendered SVG has no usable size: {m}"), "start the template with {% extends \"common/face.svg\" %} or give the <svg> width, height and viewBox".into()),
            SvgProblem::MissingFont(f) => (
                format!("text uses font-family `{f}`, which is not compiled into cardstock, so it would be dropped"),
                format!("use one of: {}", fonts::families().join(", ")),
            ),
            SvgProblem::MissingGlyphs(chars) => (
                format!("no embedded font has the glyph(s) {chars}"),
                "replace the characters, or add an OFL font that has them to assets/fonts/".into(),
            ),
            SvgProblem::Href(m) => (m.clone(), "images must be files inside the project, referenced by a relative path (no `..`, no absolute path, no URL)".into()),
            SvgProblem::BadColour { attribute, value } => (
                format!("`{attribute}=\"{value}\"` is not a colour"),
                "use #rrggbb, #rgb, rgb(r, g, b), a CSS colour name (e.g. darkred) or none".into(),
            ),
            SvgProblem::TooBig(n) => (format!("the rendered SVG has {n} elements, over the limit of {MAX_ELEMENTS}"), "check the template for a loop that draws far too much".into()),
        }
    }
}

/// Parses `text` with the embedded fonts. Relative image paths resolve inside
/// `image_dir`, which must be inside `root`.
pub fn parse(text: &str, root: &Path, image_dir: &Path) -> Result<Tree, Vec<SvgProblem>> {
    let elements = text.matches('<').count();
    if elements > MAX_ELEMENTS {
        return Err(vec![SvgProblem::TooBig(elements)]);
    }
    // One XML parse serves both our checks and usvg.
    let doc = match roxmltree::Document::parse(text) {
        Ok(d) => d,
        Err(e) => return Err(vec![syntax_problem(text, &e)]),
    };
    let lint = lint(&doc);
    if !lint.is_empty() {
        return Err(lint);
    }
    let problems: Arc<Mutex<Vec<SvgProblem>>> = Arc::new(Mutex::new(Vec::new()));
    let db = fonts::database();

    let p1 = problems.clone();
    let select_font = Box::new(
        move |font: &usvg::Font, fontdb: &mut Arc<usvg::fontdb::Database>| {
            use usvg::fontdb::{Family, Query, Stretch, Style, Weight};
            let families: Vec<Family> = font
                .families()
                .iter()
                .map(|f| match f {
                    usvg::FontFamily::Serif => Family::Serif,
                    usvg::FontFamily::SansSerif => Family::SansSerif,
                    usvg::FontFamily::Cursive => Family::Cursive,
                    usvg::FontFamily::Fantasy => Family::Fantasy,
                    usvg::FontFamily::Monospace => Family::Monospace,
                    usvg::FontFamily::Named(s) => Family::Name(s),
                })
                .collect();
            let style = match font.style() {
                usvg::FontStyle::Normal => Style::Normal,
                usvg::FontStyle::Italic => Style::Italic,
                usvg::FontStyle::Oblique => Style::Oblique,
            };
            let id = fontdb.query(&Query {
                families: &families,
                weight: Weight(font.weight()),
                stretch: Stretch::Normal,
                style,
            });
            if id.is_none() {
                let names: Vec<String> = font
                    .families()
                    .iter()
                    .map(|f| f.to_string().trim_matches('"').to_string())
                    .collect();
                p1.lock()
                    .unwrap()
                    .push(SvgProblem::MissingFont(names.join(", ")));
            }
            id
        },
    );
    let p2 = problems.clone();
    let default_fallback = FontResolver::default_fallback_selector();
    let select_fallback = Box::new(
        move |c: char, used: &[usvg::fontdb::ID], fontdb: &mut Arc<usvg::fontdb::Database>| {
            let id = default_fallback(c, used, fontdb);
            if id.is_none() && !c.is_whitespace() && !c.is_control() {
                p2.lock().unwrap().push(SvgProblem::MissingGlyphs(format!(
                    "{c:?} (U+{:04X})",
                    c as u32
                )));
            }
            id
        },
    );

    let p3 = problems.clone();
    let root = root.to_path_buf();
    let image_dir = image_dir.to_path_buf();
    let resolve_string = Box::new(move |href: &str, _: &Options| -> Option<ImageKind> {
        match load_image(href, &root, &image_dir) {
            Ok(kind) => Some(kind),
            Err(why) => {
                p3.lock().unwrap().push(SvgProblem::Href(why));
                None
            }
        }
    });

    let options = Options {
        font_family: fonts::DEFAULT_FAMILY.to_string(),
        fontdb: db,
        glyph_outlines: Some(fonts::glyph_outlines()),
        shaping_face: Some(crate::text::shaping_face_fn()),
        font_resolver: FontResolver {
            select_font,
            select_fallback,
        },
        image_href_resolver: ImageHrefResolver {
            resolve_data: ImageHrefResolver::default_data_resolver(),
            resolve_string,
        },
        ..Options::default()
    };
    let tree = Tree::from_xmltree(&doc, &options);
    let mut found = std::mem::take(&mut *problems.lock().unwrap());
    found.dedup();
    match tree {
        Ok(t) if found.is_empty() => Ok(t),
        Ok(_) => Err(found),
        Err(usvg::Error::ParsingFailed(e)) => {
            let message = e.to_string();
            let (line, col) = parse_pos(&message);
            let text_line = text
                .lines()
                .nth(line.saturating_sub(1))
                .unwrap_or("")
                .chars()
                .take(160)
                .collect();
            Err(vec![SvgProblem::Syntax {
                message,
                line,
                col,
                text: text_line,
            }])
        }
        Err(usvg::Error::ElementsLimitReached) => Err(vec![SvgProblem::TooBig(1_000_000)]),
        Err(e) => Err(vec![SvgProblem::Size(e.to_string())]),
    }
}

/// Attributes holding a paint or colour.
const COLOUR_ATTRIBUTES: [&str; 6] = [
    "fill",
    "stroke",
    "stop-color",
    "flood-color",
    "lighting-color",
    "color",
];

/// Checks usvg would not catch: XML errors (with the rendered line) and colours.
fn syntax_problem(text: &str, e: &roxmltree::Error) -> SvgProblem {
    let pos = e.pos();
    let line = text
        .lines()
        .nth((pos.row as usize).saturating_sub(1))
        .unwrap_or("")
        .chars()
        .take(160)
        .collect();
    SvgProblem::Syntax {
        message: e.to_string(),
        line: pos.row as usize,
        col: pos.col as usize,
        text: line,
    }
}

fn lint(doc: &roxmltree::Document) -> Vec<SvgProblem> {
    let mut problems = Vec::new();
    let mut missing: Vec<char> = Vec::new();
    for node in doc.descendants().filter(|n| n.is_text()) {
        let in_text = node.ancestors().any(|a| a.has_tag_name("text"));
        if !in_text {
            continue;
        }
        for c in node.text().unwrap_or("").chars() {
            if !c.is_whitespace()
                && !c.is_control()
                && !missing.contains(&c)
                && !fonts::has_glyph(c)
            {
                missing.push(c);
            }
        }
    }
    if !missing.is_empty() {
        let list: Vec<String> = missing
            .iter()
            .map(|c| format!("{c:?} (U+{:04X})", *c as u32))
            .collect();
        problems.push(SvgProblem::MissingGlyphs(list.join(", ")));
    }
    for node in doc.descendants().filter(|n| n.is_element()) {
        for a in node.attributes() {
            if COLOUR_ATTRIBUTES.contains(&a.name()) {
                let v = a.value().trim();
                let ok = matches!(
                    v,
                    "inherit" | "currentColor" | "context-fill" | "context-stroke"
                ) || svgtypes::Paint::from_str(v).is_ok();
                if !ok {
                    problems.push(SvgProblem::BadColour {
                        attribute: a.name().to_string(),
                        value: v.to_string(),
                    });
                }
            }
        }
    }
    problems.dedup();
    problems
}

fn parse_pos(msg: &str) -> (usize, usize) {
    msg.rsplit_once(" at ")
        .and_then(|(_, pos)| pos.split_once(':'))
        .and_then(|(l, c)| Some((l.trim().parse().ok()?, c.trim().parse().ok()?)))
        .unwrap_or((1, 1))
}

/// Resolves an image `href`: only relative paths inside the project, never URLs.
fn load_image(href: &str, root: &Path, dir: &Path) -> Result<ImageKind, String> {
    let lower = href.to_ascii_lowercase();
    if lower.contains("://") || lower.starts_with("file:") || lower.starts_with("http") {
        return Err(format!(
            "image `{href}` is a URL: cardstock never fetches or reads URLs"
        ));
    }
    let rel = PathBuf::from(href);
    if rel.is_absolute()
        || rel
            .components()
            .any(|c| matches!(c, std::path::Component::ParentDir))
    {
        return Err(format!(
            "image `{href}` points outside the project (absolute path or `..`)"
        ));
    }
    let path = dir.join(&rel);
    let canon_root = root
        .canonicalize()
        .map_err(|e| format!("cannot resolve project root: {e}"))?;
    let canon = path.canonicalize().map_err(|_| {
        format!(
            "image `{href}` does not exist (looked for {})",
            path.strip_prefix(root).unwrap_or(&path).display()
        )
    })?;
    if !canon.starts_with(&canon_root) {
        return Err(format!(
            "image `{href}` is a link to a file outside the project"
        ));
    }
    let data = std::fs::read(&canon).map_err(|e| format!("cannot read image `{href}`: {e}"))?;
    let data = Arc::new(data);
    if data.starts_with(b"\x89PNG\r\n\x1a\n") {
        Ok(ImageKind::PNG(data))
    } else if data.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Ok(ImageKind::JPEG(data))
    } else if data.starts_with(b"GIF8") {
        Ok(ImageKind::GIF(data))
    } else {
        Err(format!("image `{href}` is not a PNG, JPEG or GIF file"))
    }
}
