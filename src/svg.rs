//! Parsing rendered SVG text into a `usvg::Tree` with only the game's fonts
//! (`fonts::FontBook`), and catching what usvg would otherwise do silently:
//! dropping text whose font is missing, drawing tofu for glyphs no font has,
//! expanding `<use>` without bound, and loading files from anywhere. Images are
//! read through the project.

mod cost;
mod count;
pub mod elements;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use usvg::{FontResolver, ImageHrefResolver, ImageKind, Options, Tree};

pub use cost::{Costly, MAX_DRAW_MEMORY, MAX_DRAW_WORK};

use crate::fonts::{self, FontBook};
use crate::project::{Project, MAX_IMAGE_BYTES};

/// Most elements in one rendered face, counted after `<use>` references are
/// expanded (usvg's own hard limit is 1,000,000).
pub const MAX_ELEMENTS: usize = 200_000;

/// Most characters of text in one rendered face, counted after `<use>`
/// references are expanded. Each is laid out, shaped and outlined as a glyph
/// (about 1.5 KB parsed): the densest seed face has 2,600.
pub const MAX_TEXT_CHARS: usize = 50_000;

/// Most work of setting text on paths in one face: the characters of each
/// `<textPath>` times the bytes of its path's data (usvg walks the path from its
/// start for every glyph): about a nanosecond each, so the limit is a tenth of a
/// second. A title on an arc is a few thousand; 40,000 characters (within the
/// character limit) on a 20,000-segment path took 8 s a face.
pub const MAX_TEXT_ON_PATH: u64 = 100_000_000;

/// Most `<stop>`s in one gradient. usvg removes repeated offsets one at a time
/// (80,000 stops took over a second a face to parse) and tiny-skia looks through
/// the stops for every pixel; a designer's gradient has a handful.
pub const MAX_GRADIENT_STOPS: usize = 1_000;

/// Deepest nesting of elements in a face. Every stage that reads a face walks
/// its groups recursively (counting, drawing cost, preflight, usvg, resvg,
/// krilla), and 1,000 nested groups overflowed a thread's stack; art from a
/// drawing program nests a few dozen deep.
pub const MAX_DEPTH: usize = 256;

/// Parses `text` as XML the way every stage reads a face: a document type
/// declaration is allowed (finished art from Illustrator starts with
/// `<!DOCTYPE svg PUBLIC ...>`; nothing it names is fetched), an entity
/// declaration is not, nor elements nested deeper than [`MAX_DEPTH`].
pub fn xml(text: &str) -> Result<roxmltree::Document<'_>, XmlError> {
    if let Some(at) = text.find("<!ENTITY") {
        return Err(XmlError::Entity(at));
    }
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    let doc = roxmltree::Document::parse_with_options(text, options).map_err(XmlError::Xml)?;
    // Each node's depth from its parent's, in document order (parents first).
    let mut depths = vec![0usize; doc.descendants().count() + 1];
    for n in doc.descendants() {
        let up = n.parent().map_or(0, |p| depths[p.id().get_usize()]);
        let depth = up + usize::from(n.is_element());
        if depth > MAX_DEPTH {
            let at = n.range().start;
            return Err(XmlError::TooDeep(at..at + 1 + n.tag_name().name().len()));
        }
        depths[n.id().get_usize()] = depth;
    }
    Ok(doc)
}

/// Why a text is not XML cardstock reads.
#[derive(Debug, Clone, PartialEq)]
pub enum XmlError {
    /// Not well-formed XML.
    Xml(roxmltree::Error),
    /// An entity declaration, at this byte.
    Entity(usize),
    /// An element nested deeper than [`MAX_DEPTH`] (its start tag's name).
    TooDeep(std::ops::Range<usize>),
}

impl XmlError {
    /// The problem, with where it is in `text`.
    fn located(self, text: &str) -> Located {
        match self {
            XmlError::Xml(e) => with_position(text, syntax_problem(text, &e)),
            XmlError::Entity(at) => Located {
                problem: SvgProblem::Entity,
                offset: Some(at..at + "<!ENTITY".len()),
            },
            XmlError::TooDeep(at) => Located {
                problem: SvgProblem::TooDeep,
                offset: Some(at),
            },
        }
    }
}

impl std::fmt::Display for XmlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            XmlError::Xml(e) => write!(f, "{e}"),
            XmlError::Entity(_) => write!(f, "an entity declaration (<!ENTITY ...>)"),
            XmlError::TooDeep(_) => write!(f, "elements nested more than {MAX_DEPTH} deep"),
        }
    }
}

/// A problem and where in the rendered SVG text it is (a byte range), when known.
#[derive(Debug, Clone, PartialEq)]
pub struct Located {
    pub problem: SvgProblem,
    pub offset: Option<std::ops::Range<usize>>,
}

impl From<SvgProblem> for Located {
    fn from(problem: SvgProblem) -> Self {
        Located {
            problem,
            offset: None,
        }
    }
}

/// Images the faces of a game refer to, read through the project and checked
/// ([`crate::image::check`]) once each. Relative `href`s start in the game's
/// template folder (`icons/...` also in `templates/common/`). An SVG file is
/// parsed as a face is, with the game's fonts, and drawn as vector art.
pub struct Images {
    project: Project,
    game: String,
    dir: PathBuf,
    fonts: Arc<FontBook>,
    loaded: Mutex<BTreeMap<String, Result<ImageKind, Refused>>>,
    /// The elements of each SVG picture loaded, by `href`: they count towards
    /// [`MAX_ELEMENTS`] of every face that draws them.
    svg_elements: Mutex<BTreeMap<String, usize>>,
    /// `data:` images already checked, by the SHA-256 of their bytes.
    checked: Mutex<BTreeMap<[u8; 32], Result<ImageKind, Refused>>>,
}

impl Images {
    /// The images of `game`'s templates (`templates/<game>/`); SVG pictures set
    /// their text with `fonts`.
    pub fn new(project: &Project, game: &str, fonts: Arc<FontBook>) -> Images {
        Images {
            project: project.clone(),
            game: game.to_string(),
            dir: PathBuf::from("templates").join(game),
            fonts,
            loaded: Mutex::new(BTreeMap::new()),
            svg_elements: Mutex::new(BTreeMap::new()),
            checked: Mutex::new(BTreeMap::new()),
        }
    }

    /// No images at all (any `href` to a file is refused).
    pub fn none() -> Images {
        Images::new(
            &Project::new(crate::source::MemoryFiles::new()),
            "-",
            FontBook::builtin(),
        )
    }

    fn get(&self, href: &str) -> Result<ImageKind, Refused> {
        if let Some(r) = self.loaded.lock().ok().and_then(|m| m.get(href).cloned()) {
            return r;
        }
        let r = match load_image(href, &self.project, &self.dir, &self.fonts) {
            Ok(Picture::Raster(kind)) => Ok(kind),
            Ok(Picture::Svg(tree, elements)) => {
                if let Ok(mut m) = self.svg_elements.lock() {
                    m.insert(href.to_string(), elements);
                }
                Ok(ImageKind::SVG(tree))
            }
            Err(e) => Err(e),
        };
        if let Ok(mut m) = self.loaded.lock() {
            m.insert(href.to_string(), r.clone());
        }
        r
    }

    /// The elements the SVG pictures of `doc`'s `<image>`s add (each drawn where
    /// it is used), once they are loaded.
    fn svg_elements(&self, doc: &roxmltree::Document) -> usize {
        let Ok(known) = self.svg_elements.lock() else {
            return 0;
        };
        if known.is_empty() {
            return 0;
        }
        doc.descendants()
            .filter(|n| n.has_tag_name("image"))
            .filter_map(|n| n.attributes().find(|a| a.name() == "href"))
            .filter_map(|a| known.get(a.value()))
            .fold(0usize, |n, e| n.saturating_add(*e))
    }

    /// The image of a `data:` URL (its bytes already decoded), checked once.
    fn data(&self, mime: &str, data: Arc<Vec<u8>>) -> Result<ImageKind, Refused> {
        use sha2::Digest;
        let key: [u8; 32] = sha2::Sha256::digest(data.as_slice()).into();
        if let Some(r) = self.checked.lock().ok().and_then(|m| m.get(&key).cloned()) {
            return r;
        }
        let r = if mime == "image/svg+xml" {
            Err(Refused::new(
                "an SVG inside a `data:` image is not drawn by cardstock",
                "put the drawing in the template itself, or use a PNG",
            ))
        } else {
            crate::image::check(data)
                .map_err(|p| Refused::new(format!("a `data:` image {p}"), p.hint()))
        };
        if let Ok(mut m) = self.checked.lock() {
            m.insert(key, r.clone());
        }
        r
    }
}

/// Why an image is refused: the message and how to fix it.
#[derive(Debug, Clone, PartialEq)]
pub struct Refused {
    /// What is wrong, naming the image (`image `x.png` does not exist (...)`).
    pub message: String,
    /// How to fix it.
    pub hint: &'static str,
}

impl Refused {
    fn new(message: impl Into<String>, hint: &'static str) -> Refused {
        Refused {
            message: message.into(),
            hint,
        }
    }
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The hint for an image path that is refused.
const PATH_HINT: &str = "images must be files inside the project, referenced by a relative path (no `..`, no absolute path, no URL)";

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
    /// A `font-family` that none of the game's fonts has (usvg would drop the
    /// text): the family, the families there are, and the game.
    MissingFont {
        family: String,
        families: Vec<String>,
        game: String,
    },
    /// Characters no loaded font has, and the game.
    MissingGlyphs { chars: String, game: String },
    /// An `href` that is refused or cannot be read, or an image that cannot be
    /// used: the message and how to fix it.
    Href(Refused),
    /// Too many elements.
    TooBig(usize),
    /// Too many characters of text.
    TooMuchText(usize),
    /// A colour that is not a colour (`fill="reed"`): usvg would silently paint
    /// nothing or black.
    BadColour { attribute: String, value: String },
    /// A `font-family` list usvg cannot read (an unquoted name that starts with a
    /// digit, `04b03`): it would silently draw the text in the default font.
    UnreadableFamily(String),
    /// An entity declaration in the document type declaration.
    Entity,
    /// Elements nested deeper than [`MAX_DEPTH`].
    TooDeep,
    /// Text on paths over [`MAX_TEXT_ON_PATH`].
    TooMuchOnPath(u64),
    /// A gradient with more than [`MAX_GRADIENT_STOPS`] stops.
    TooManyStops(usize),
    /// Drawing the face would take too long or too much memory.
    Costly(Costly),
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
            SvgProblem::MissingFont { family, families, game } => (
                format!("text uses font-family `{family}`, which none of the game's fonts has, so it would be dropped"),
                format!(
                    "the families found are {}; to use `{family}`, put its .ttf, .otf or .ttc file in {}/ (every game) or {}/ (this game)",
                    families.join(", "),
                    fonts::PROJECT_FONTS,
                    fonts::game_fonts(game).display()
                ),
            ),
            SvgProblem::MissingGlyphs { chars, game } => (
                format!("none of the game's fonts has the glyph(s) {chars}"),
                format!(
                    "replace the characters, or put a font that has them (a .ttf, .otf or .ttc file) in {}/ (every game) or {}/ (this game)",
                    fonts::PROJECT_FONTS,
                    fonts::game_fonts(game).display()
                ),
            ),
            SvgProblem::Href(r) => (r.message.clone(), r.hint.into()),
            SvgProblem::BadColour { attribute, value } => (
                format!("`{attribute}=\"{value}\"` is not a colour"),
                "use #rrggbb, #rgb, rgb(r, g, b), a CSS colour name (e.g. darkred) or none".into(),
            ),
            SvgProblem::TooBig(n) => (format!("the rendered SVG has {n} elements, over the limit of {MAX_ELEMENTS}"), "check the template for a loop that draws far too much (what `<use>` repeats and each marker on a path's points count too)".into()),
            SvgProblem::UnreadableFamily(list) => (
                format!("`font-family=\"{list}\"` cannot be read: a family name that starts with a digit or holds signs other than - and _ must be in quotes, or the text is drawn in the default font"),
                format!("write the name in quotes: font-family=\"'{}'\"", list.trim()),
            ),
            SvgProblem::Entity => (
                "the SVG declares an entity (<!ENTITY ...>): cardstock does not expand entities".into(),
                "remove the entity declarations from the DOCTYPE and write the text they stood for (a plain <!DOCTYPE svg PUBLIC ...> line is fine)".into(),
            ),
            SvgProblem::TooMuchOnPath(n) => (
                format!("the face sets {} million characters x bytes of path data on paths (<textPath>), over the limit of {} million: each character is placed by walking its path from the start", n / 1_000_000, MAX_TEXT_ON_PATH / 1_000_000),
                "set less text on the path, or give the path fewer points (a curve needs a few arcs, not thousands of lines)".into(),
            ),
            SvgProblem::TooManyStops(n) => (
                format!("this gradient has {n} stops, over the limit of {MAX_GRADIENT_STOPS}"),
                "give the gradient fewer stops (a loop that writes a <stop> per step?); a smooth blend needs only its two ends".into(),
            ),
            SvgProblem::TooDeep => (
                format!("elements are nested more than {MAX_DEPTH} deep here"),
                "close every group the template opens (a `<g>` in a loop without its `</g>`?); art from a drawing program nests a few dozen deep".into(),
            ),
            SvgProblem::Costly(c) => c.describe(),
            SvgProblem::TooMuchText(n) => (format!("the face has {n} characters of text, over the limit of {MAX_TEXT_CHARS}"), "check the template for a loop or a `join` that writes far too much text (what `<use>` repeats counts too); no printed face holds that much".into()),
        }
    }
}

/// Parses `text` with the game's `fonts` and `images`.
pub fn parse(text: &str, images: &Arc<Images>, fonts: &FontBook) -> Result<Tree, Vec<Located>> {
    let elements = text.matches('<').count();
    if elements > MAX_ELEMENTS {
        return Err(vec![SvgProblem::TooBig(elements).into()]);
    }
    // One XML parse serves both our checks and usvg.
    let doc = xml(text).map_err(|e| vec![e.located(text)])?;
    let counts = within_bounds(&doc)?;
    let mut lint = lint(&doc, fonts, &images.game);
    lint.extend(image_problems(&doc, images));
    if !lint.is_empty() {
        return Err(lint);
    }
    let with_pictures = counts.elements.saturating_add(images.svg_elements(&doc));
    if with_pictures > MAX_ELEMENTS {
        return Err(vec![SvgProblem::TooBig(with_pictures).into()]);
    }
    let problems: Arc<Mutex<Vec<SvgProblem>>> = Arc::new(Mutex::new(Vec::new()));
    let mut options = Options {
        font_family: fonts::DEFAULT_FAMILY.to_string(),
        fontdb: fonts.database(),
        font_resolver: font_resolver(fonts, &images.game, &problems),
        image_href_resolver: image_resolver(images, &problems),
        ..Options::default()
    };
    crate::usvg_patch::speed_up(&mut options, fonts.kept());
    let tree = Tree::from_xmltree(&doc, &options);
    let mut found = std::mem::take(&mut *problems.lock().unwrap());
    found.dedup();
    parsed(text, &doc, tree, found)
}

/// What `doc` draws after `<use>` and markers, within [`MAX_ELEMENTS`],
/// [`MAX_TEXT_ON_PATH`], [`MAX_TEXT_CHARS`] and [`MAX_GRADIENT_STOPS`].
fn within_bounds(doc: &roxmltree::Document) -> Result<count::Counts, Vec<Located>> {
    let counts = count::count(doc);
    if counts.elements > MAX_ELEMENTS {
        return Err(vec![SvgProblem::TooBig(counts.elements).into()]);
    }
    if counts.on_path > MAX_TEXT_ON_PATH {
        return Err(vec![Located {
            problem: SvgProblem::TooMuchOnPath(counts.on_path),
            offset: counts.most_on_path,
        }]);
    }
    if counts.chars > MAX_TEXT_CHARS {
        return Err(vec![Located {
            problem: SvgProblem::TooMuchText(counts.chars),
            offset: counts.most_text,
        }]);
    }
    if let Some((n, at)) = most_stops(doc).filter(|(n, _)| *n > MAX_GRADIENT_STOPS) {
        return Err(vec![Located {
            problem: SvgProblem::TooManyStops(n),
            offset: Some(at),
        }]);
    }
    Ok(counts)
}

/// The game's fonts for usvg: a family none of them has and a character no font
/// has are recorded in `problems` (usvg would drop the text silently).
fn font_resolver(
    fonts: &FontBook,
    game: &str,
    problems: &Arc<Mutex<Vec<SvgProblem>>>,
) -> FontResolver<'static> {
    let p1 = problems.clone();
    let families1 = fonts.families().to_vec();
    let game1 = game.to_string();
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
                p1.lock().unwrap().push(SvgProblem::MissingFont {
                    family: names.join(", "),
                    families: families1.clone(),
                    game: game1.clone(),
                });
            }
            id
        },
    );
    let p2 = problems.clone();
    let game2 = game.to_string();
    let default_fallback = FontResolver::default_fallback_selector();
    let select_fallback = Box::new(
        move |c: char, used: &[usvg::fontdb::ID], fontdb: &mut Arc<usvg::fontdb::Database>| {
            let id = default_fallback(c, used, fontdb);
            if id.is_none() && !c.is_whitespace() && !c.is_control() {
                p2.lock().unwrap().push(SvgProblem::MissingGlyphs {
                    chars: format!("{c:?} (U+{:04X})", c as u32),
                    game: game2.clone(),
                });
            }
            id
        },
    );

    FontResolver {
        select_font,
        select_fallback,
    }
}

/// The images of `images` for usvg: a refused `href` or `data:` image is
/// recorded in `problems`.
fn image_resolver(
    images: &Arc<Images>,
    problems: &Arc<Mutex<Vec<SvgProblem>>>,
) -> ImageHrefResolver<'static> {
    let p4 = problems.clone();
    let data_images = images.clone();
    let resolve_data = Box::new(
        move |mime: &str, data: Arc<Vec<u8>>, _: &Options| -> Option<ImageKind> {
            match data_images.data(mime, data) {
                Ok(kind) => Some(kind),
                Err(refused) => {
                    p4.lock().unwrap().push(SvgProblem::Href(refused));
                    None
                }
            }
        },
    );
    let p3 = problems.clone();
    let images = images.clone();
    let resolve_string = Box::new(move |href: &str, _: &Options| -> Option<ImageKind> {
        match images.get(href) {
            Ok(kind) => Some(kind),
            Err(refused) => {
                p3.lock().unwrap().push(SvgProblem::Href(refused));
                None
            }
        }
    });

    ImageHrefResolver {
        resolve_data,
        resolve_string,
    }
}

/// usvg's result as cardstock's: the tree when usvg and the resolvers found no
/// problem and drawing it costs no more than [`cost::check`] allows.
fn parsed(
    text: &str,
    doc: &roxmltree::Document,
    tree: Result<Tree, usvg::Error>,
    found: Vec<SvgProblem>,
) -> Result<Tree, Vec<Located>> {
    match tree {
        Ok(t) if found.is_empty() => match cost::check(&t) {
            Ok(()) => Ok(t),
            Err(c) => {
                // usvg renames gradients: point at the one with the most stops.
                let offset = match c.element {
                    "gradient" => most_stops(doc).map(|(_, at)| at),
                    _ => element_with_id(doc, &c.id),
                };
                Err(vec![Located {
                    problem: SvgProblem::Costly(c),
                    offset,
                }])
            }
        },
        Ok(_) => Err(found.into_iter().map(Located::from).collect()),
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
            Err(vec![with_position(
                text,
                SvgProblem::Syntax {
                    message,
                    line,
                    col,
                    text: text_line,
                },
            )])
        }
        Err(usvg::Error::ElementsLimitReached) => Err(vec![SvgProblem::TooBig(1_000_000).into()]),
        Err(e) => Err(vec![SvgProblem::Size(e.to_string()).into()]),
    }
}

/// Where the element with `id` is in the text (none for an empty id).
fn element_with_id(doc: &roxmltree::Document, id: &str) -> Option<std::ops::Range<usize>> {
    if id.is_empty() {
        return None;
    }
    let node = doc
        .descendants()
        .find(|n| n.is_element() && n.attribute("id") == Some(id))?;
    let r = node.range();
    // The start tag only.
    let end = doc.input_text()[r.clone()]
        .find('>')
        .map_or(r.end, |i| r.start + i + 1);
    Some(r.start..end)
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

/// The gradient with the most `<stop>` children: their number and where its
/// start tag is.
fn most_stops(doc: &roxmltree::Document) -> Option<(usize, std::ops::Range<usize>)> {
    doc.descendants()
        .filter(|n| n.has_tag_name("linearGradient") || n.has_tag_name("radialGradient"))
        .map(|g| {
            let n = g.children().filter(|c| c.has_tag_name("stop")).count();
            let at = g.range().start;
            (n, at..at + 1 + g.tag_name().name().len())
        })
        .max_by_key(|(n, _)| *n)
}

/// The XML problem of `text` (syntax, an entity, too deep), with where it is
/// (`None` if cardstock reads it).
pub fn syntax_error(text: &str) -> Option<Located> {
    Some(xml(text).err()?.located(text))
}

fn with_position(text: &str, problem: SvgProblem) -> Located {
    let offset = match &problem {
        SvgProblem::Syntax { line, col, .. } => {
            let start: usize = text
                .split_inclusive('\n')
                .take(line.saturating_sub(1))
                .map(str::len)
                .sum();
            let rest = text.get(start..).unwrap_or("");
            let at = start
                + rest
                    .char_indices()
                    .nth(col.saturating_sub(1))
                    .map_or(rest.len(), |(i, _)| i);
            Some(at..(at + 1).min(text.len()))
        }
        _ => None,
    };
    Located { problem, offset }
}

/// Every `<image>` (and `<feImage>`) whose picture cannot be used, at its `href`
/// (loading and checking the others).
fn image_problems(doc: &roxmltree::Document, images: &Images) -> Vec<Located> {
    let mut out = Vec::new();
    for node in doc
        .descendants()
        .filter(|n| n.has_tag_name("image") || n.has_tag_name("feImage"))
    {
        let Some(a) = node.attributes().find(|a| a.name() == "href") else {
            continue;
        };
        let href = a.value().trim();
        let result = match href.strip_prefix("data:") {
            Some(url) => match data_url(url) {
                Some((mime, data)) => images.data(&mime, Arc::new(data)).map(|_| ()),
                None => Err(Refused::new(
                    "a `data:` image that cannot be read",
                    "write it as data:image/png;base64,... with valid base64",
                )),
            },
            None if node.has_tag_name("feImage") && href.starts_with('#') => Ok(()),
            None => images.get(a.value()).map(|_| ()),
        };
        if let Err(refused) = result {
            out.push(Located {
                problem: SvgProblem::Href(refused),
                offset: Some(a.range_value()),
            });
        }
    }
    out
}

/// The MIME type and bytes of a `data:` URL (after `data:`), as usvg reads it.
fn data_url(url: &str) -> Option<(String, Vec<u8>)> {
    use base64::Engine as _;
    let (head, body) = url.split_once(',')?;
    let mut parts = head.split(';').map(str::trim);
    let mime = parts.next().unwrap_or("").to_ascii_lowercase();
    let base64 = parts.any(|p| p.eq_ignore_ascii_case("base64"));
    let data = if base64 {
        let clean: String = body.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        base64::engine::general_purpose::STANDARD
            .decode(clean.trim_end_matches('='))
            .or_else(|_| {
                base64::engine::general_purpose::STANDARD_NO_PAD.decode(clean.trim_end_matches('='))
            })
            .ok()?
    } else {
        body.as_bytes().to_vec()
    };
    let mime = if mime.is_empty() {
        "text/plain".to_string()
    } else {
        mime
    };
    Some((mime, data))
}

fn lint(doc: &roxmltree::Document, fonts: &FontBook, game: &str) -> Vec<Located> {
    let mut problems: Vec<Located> = Vec::new();
    let mut missing: Vec<char> = Vec::new();
    let mut first_missing = None;
    for node in doc.descendants().filter(|n| n.is_text()) {
        let in_text = node.ancestors().any(|a| a.has_tag_name("text"));
        if !in_text {
            continue;
        }
        for c in node.text().unwrap_or("").chars() {
            if !c.is_whitespace() && !c.is_control() && !missing.contains(&c) && !fonts.has_glyph(c)
            {
                missing.push(c);
                first_missing.get_or_insert(node.range());
            }
        }
    }
    if !missing.is_empty() {
        let list: Vec<String> = missing
            .iter()
            .map(|c| format!("{c:?} (U+{:04X})", *c as u32))
            .collect();
        problems.push(Located {
            problem: SvgProblem::MissingGlyphs {
                chars: list.join(", "),
                game: game.to_string(),
            },
            offset: first_missing,
        });
    }
    let families = fonts.families();
    for node in doc.descendants().filter(|n| n.is_element()) {
        for a in node.attributes() {
            let offset = Some(a.range_value());
            if COLOUR_ATTRIBUTES.contains(&a.name()) {
                let v = a.value().trim();
                let ok = matches!(
                    v,
                    "inherit" | "currentColor" | "context-fill" | "context-stroke"
                ) || svgtypes::Paint::from_str(v).is_ok();
                if !ok {
                    problems.push(Located {
                        problem: SvgProblem::BadColour {
                            attribute: a.name().to_string(),
                            value: v.to_string(),
                        },
                        offset: offset.clone(),
                    });
                }
            }
            let family = match a.name() {
                "font-family" => Some(a.value()),
                "style" => style_family(a.value()),
                _ => None,
            };
            if let Some(list) = family {
                let problem = if svgtypes::parse_font_families(list).is_err() {
                    SvgProblem::UnreadableFamily(list.trim().to_string())
                } else if !known_family(list, families) {
                    SvgProblem::MissingFont {
                        family: list.trim().to_string(),
                        families: families.to_vec(),
                        game: game.to_string(),
                    }
                } else {
                    continue;
                };
                problems.push(Located { problem, offset });
            }
        }
    }
    problems.dedup_by(|a, b| a.problem == b.problem);
    problems
}

/// The `font-family` of a `style` attribute, if it sets one.
fn style_family(style: &str) -> Option<&str> {
    style.split(';').find_map(|d| {
        let (name, value) = d.split_once(':')?;
        (name.trim() == "font-family").then_some(value)
    })
}

/// Whether a `font-family` list names a family cardstock has (or a generic one).
fn known_family(list: &str, families: &[String]) -> bool {
    list.split(',')
        .map(|f| f.trim().trim_matches(['"', '\'']))
        .any(|f| {
            matches!(
                f,
                "serif" | "sans-serif" | "monospace" | "cursive" | "fantasy"
            ) || families.iter().any(|known| known == f)
        })
}

fn parse_pos(msg: &str) -> (usize, usize) {
    crate::diag::upstream::xml_position(msg).unwrap_or((1, 1))
}

/// Largest SVG file an `<image>` draws (a game-icons.net icon is a few KB).
pub const MAX_SVG_IMAGE_BYTES: u64 = 1024 * 1024;

/// A picture an `<image>` draws.
enum Picture {
    /// PNG, JPEG, GIF or WebP, checked.
    Raster(ImageKind),
    /// An SVG file, parsed, and its elements.
    Svg(Tree, usize),
}

/// Resolves an image `href` through the project: only relative paths inside it,
/// never URLs. `icons/x.svg` not in the game's folder is looked for in
/// `templates/common/` too, as the icons of rich text are.
fn load_image(
    href: &str,
    project: &Project,
    dir: &std::path::Path,
    fonts: &Arc<FontBook>,
) -> Result<Picture, Refused> {
    use crate::source::FileError;
    let lower = href.to_ascii_lowercase();
    if lower.contains("://") || lower.starts_with("file:") || lower.starts_with("http") {
        return Err(Refused::new(
            format!("image `{href}` is a URL: cardstock never fetches or reads URLs"),
            PATH_HINT,
        ));
    }
    let rel = PathBuf::from(href);
    if crate::source::check_relative(&rel).is_err() {
        return Err(Refused::new(
            format!("image `{href}` points outside the project (absolute path or `..`)"),
            PATH_HINT,
        ));
    }
    let svg = lower.ends_with(".svg");
    let limit = if svg {
        MAX_SVG_IMAGE_BYTES
    } else {
        MAX_IMAGE_BYTES
    };
    let mut path = dir.join(&rel);
    let mut read = project.read(&path, limit);
    if matches!(read, Err(FileError::NotFound { .. })) && rel.starts_with("icons") {
        let common = PathBuf::from("templates/common").join(&rel);
        if project.kind(&common).is_some() {
            path = common;
            read = project.read(&path, limit);
        }
    }
    let data = read.map_err(|e| match e {
        FileError::NotFound { .. } => Refused::new(
            format!(
                "image `{href}` does not exist (looked for {})",
                path.display()
            ),
            PATH_HINT,
        ),
        FileError::LinkOutside { .. } => Refused::new(
            format!("image `{href}` is a link to a file outside the project"),
            e.hint(),
        ),
        e => Refused::new(format!("image `{href}`: {e}"), e.hint()),
    })?;
    if svg {
        return svg_picture(href, &data, fonts);
    }
    crate::image::check(Arc::new(data))
        .map(Picture::Raster)
        .map_err(|p| Refused::new(format!("image `{href}` {p}"), p.hint()))
}

/// An SVG file for an `<image>`: parsed with the game's fonts and checked as a
/// face is; the pictures it links to are refused (a picture draws no other file).
fn svg_picture(href: &str, data: &[u8], fonts: &Arc<FontBook>) -> Result<Picture, Refused> {
    const FIX: &str = "fix the SVG file (it is parsed as a face is: the game's fonts, no linked files), or export it again as plain SVG";
    let text = std::str::from_utf8(data)
        .map_err(|_| Refused::new(format!("image `{href}` is not UTF-8 SVG text"), FIX))?;
    let elements = xml(text)
        .map(|doc| count::count(&doc).elements)
        .unwrap_or(0);
    let tree = parse(text, &Arc::new(Images::none()), fonts).map_err(|problems| {
        let what = problems
            .first()
            .map(|p| p.problem.describe().0)
            .unwrap_or_default();
        Refused::new(format!("image `{href}`: {what}"), FIX)
    })?;
    Ok(Picture::Svg(tree, elements))
}
