//! Inline icons of rich text: `:coin:` is `templates/<game>/icons/coin.svg`, else
//! `templates/common/icons/coin.svg`, else the built-in icon `coin` ([`BUILT_IN`],
//! compiled into cardstock as its fonts are, so every project has them), read once per build,
//! checked like a face (fonts, colours, size) and handed to templates as the
//! markup inside its root `<svg>` and that root's `viewBox`, which a template
//! draws as a nested `<svg>` (the face's SVG stays self-contained, and the icon is
//! vector art in the PDF).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use super::TextError;
use crate::fonts::FontBook;
use crate::project::Project;
use crate::source::FileError;

/// Largest icon file accepted (an icon is copied into every face that uses it).
pub const MAX_ICON_BYTES: u64 = 256 * 1024;

/// The built-in icons: `templates/common/icons/` of cardstock's repository,
/// compiled in. A project's own file of the same name (in its
/// `templates/common/icons/` or a game's `templates/<game>/icons/`) replaces one;
/// other files there add to them.
pub const BUILT_IN: &[(&str, &str)] = &[
    (
        "card",
        include_str!("../../templates/common/icons/card.svg"),
    ),
    (
        "coin",
        include_str!("../../templates/common/icons/coin.svg"),
    ),
    (
        "star",
        include_str!("../../templates/common/icons/star.svg"),
    ),
];

/// An icon ready to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct Icon {
    pub name: String,
    /// The file it came from.
    pub path: PathBuf,
    /// Width / height of its picture.
    pub aspect: f64,
    /// The `viewBox` of its root `<svg>` (from `width` and `height` when it has none).
    pub view_box: String,
    /// Its drawing: the markup inside its root `<svg>`.
    pub markup: String,
    /// The same drawing in one colour: every colour of a fill, stroke or gradient
    /// stop (attribute or `style`) is `currentColor`, the `color` of the element
    /// around it ([`one_colour`]).
    pub one_colour: String,
}

/// Where an icon's width comes from while laying text out.
pub trait IconSource {
    /// The icon called `name`.
    fn icon(&self, name: &str) -> Result<Arc<Icon>, TextError>;
}

/// No icons at all: every `:name:` is an error (for tests of text layout).
#[cfg(test)]
pub struct NoIcons;

#[cfg(test)]
impl IconSource for NoIcons {
    fn icon(&self, name: &str) -> Result<Arc<Icon>, TextError> {
        Err(TextError::UnknownIcon {
            name: name.to_string(),
            looked: Vec::new(),
            near: None,
        })
    }
}

/// The icons of one game, each read once.
pub struct Icons {
    project: Project,
    game: String,
    fonts: Arc<FontBook>,
    loaded: Mutex<BTreeMap<String, Result<Arc<Icon>, TextError>>>,
}

impl Icons {
    /// The icons of `game`'s templates, checked with `fonts`.
    pub fn new(project: &Project, game: &str, fonts: Arc<FontBook>) -> Icons {
        Icons {
            project: project.clone(),
            game: game.to_string(),
            fonts,
            loaded: Mutex::new(BTreeMap::new()),
        }
    }

    /// The files `:name:` may be, in the order they are looked for.
    pub fn candidates(&self, name: &str) -> Vec<PathBuf> {
        [self.game.as_str(), "common"]
            .iter()
            .map(|dir| {
                PathBuf::from("templates")
                    .join(dir)
                    .join("icons")
                    .join(format!("{name}.svg"))
            })
            .collect()
    }

    /// The name of every icon `:name:` can show: the game's, the project's shared
    /// ones and the built-in ones, sorted, each once.
    pub fn names(&self) -> Vec<String> {
        let mut names: std::collections::BTreeSet<String> =
            BUILT_IN.iter().map(|(n, _)| n.to_string()).collect();
        for dir in [self.game.as_str(), "common"] {
            let folder = PathBuf::from("templates").join(dir).join("icons");
            for e in self.project.list(&folder).unwrap_or_default() {
                if let Some(n) = e.name.strip_suffix(".svg") {
                    names.insert(n.to_string());
                }
            }
        }
        names.into_iter().collect()
    }

    fn load(&self, name: &str) -> Result<Arc<Icon>, TextError> {
        let looked = self.candidates(name);
        for path in &looked {
            let text = match self.project.read_text(path, MAX_ICON_BYTES) {
                Ok(t) => t,
                Err(FileError::NotFound { .. }) => continue,
                Err(e) => {
                    return Err(TextError::BadIcon {
                        name: name.to_string(),
                        path: path.clone(),
                        reason: e.to_string(),
                    })
                }
            };
            return self.read(name, path.clone(), &text);
        }
        if let Some((_, text)) = BUILT_IN.iter().find(|(n, _)| *n == name) {
            let path = PathBuf::from(format!("built-in icon {name}.svg"));
            return self.read(name, path, text);
        }
        Err(TextError::UnknownIcon {
            name: name.to_string(),
            looked,
            near: crate::diag::did_you_mean(name, self.names().iter().map(String::as_str))
                .map(String::from),
        })
    }

    /// The icon `name` from the SVG `text` of the file `path`, checked like a face.
    fn read(&self, name: &str, path: PathBuf, text: &str) -> Result<Arc<Icon>, TextError> {
        let bad = |reason: String| TextError::BadIcon {
            name: name.to_string(),
            path: path.clone(),
            reason,
        };
        let images = Arc::new(crate::svg::Images::none());
        let tree = crate::svg::parse(text, &images, &self.fonts).map_err(|problems| {
            let (what, _) = problems
                .first()
                .map(|p| p.problem.describe())
                .unwrap_or_default();
            bad(what)
        })?;
        let size = tree.size();
        let size = (size.width(), size.height());
        let (view_box, markup) = inner(text, size).map_err(|e| bad(e.to_string()))?;
        let one_colour = one_colour(text)
            .and_then(|t| inner(&t, size))
            .map_err(|e| bad(e.to_string()))?
            .1;
        Ok(Arc::new(Icon {
            name: name.to_string(),
            path,
            aspect: (size.0 / size.1) as f64,
            view_box,
            markup,
            one_colour,
        }))
    }
}

/// The root `viewBox` of an icon's SVG `text` and the markup inside its root
/// element (`size`: its width and height, for a root without a `viewBox`).
fn inner(text: &str, size: (f32, f32)) -> Result<(String, String), crate::svg::XmlError> {
    let doc = crate::svg::xml(text)?;
    let root = doc.root_element();
    let view_box = root
        .attribute("viewBox")
        .map(str::to_string)
        .unwrap_or_else(|| format!("0 0 {} {}", size.0, size.1));
    let markup = match (root.first_child(), root.last_child()) {
        (Some(a), Some(b)) => text[a.range().start..b.range().end].to_string(),
        _ => String::new(),
    };
    Ok((view_box, markup))
}

/// Properties whose colour [`one_colour`] replaces.
const PAINTS: [&str; 3] = ["fill", "stroke", "stop-color"];

/// Whether a paint is a colour (not `none`, a gradient or pattern, or already
/// `currentColor`).
fn is_colour(value: &str) -> bool {
    let v = value.trim();
    !(v.is_empty()
        || v == "none"
        || v == "inherit"
        || v.starts_with("url(")
        || v.eq_ignore_ascii_case("currentcolor"))
}

/// An SVG `text` with every colour of a fill, stroke or gradient stop, written
/// as an attribute or in a `style` attribute, replaced by `currentColor`: the
/// picture in the one colour of the `color` around it. (A `<style>` sheet is left
/// as it is.)
pub fn one_colour(text: &str) -> Result<String, crate::svg::XmlError> {
    let doc = crate::svg::xml(text)?;
    let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    for node in doc.descendants().filter(|n| n.is_element()) {
        for a in node.attributes() {
            if PAINTS.contains(&a.name()) && is_colour(a.value()) {
                edits.push((a.range_value(), "currentColor".into()));
            } else if a.name() == "style" {
                let declarations: Vec<String> = a
                    .value()
                    .split(';')
                    .map(|d| match d.split_once(':') {
                        Some((p, v)) if PAINTS.contains(&p.trim()) && is_colour(v) => {
                            format!("{}:currentColor", p.trim())
                        }
                        _ => d.to_string(),
                    })
                    .collect();
                let style = declarations.join(";");
                if style != a.value() {
                    let escaped = style
                        .replace('&', "&amp;")
                        .replace('<', "&lt;")
                        .replace('"', "&quot;");
                    edits.push((a.range_value(), escaped));
                }
            }
        }
    }
    let mut out = text.to_string();
    edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
    for (r, with) in edits {
        out.replace_range(r, &with);
    }
    Ok(out)
}

impl IconSource for Icons {
    fn icon(&self, name: &str) -> Result<Arc<Icon>, TextError> {
        if let Some(r) = self.loaded.lock().ok().and_then(|m| m.get(name).cloned()) {
            return r;
        }
        let r = self.load(name);
        if let Ok(mut m) = self.loaded.lock() {
            m.insert(name.to_string(), r.clone());
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::one_colour;

    #[test]
    fn one_colour_replaces_colours_and_keeps_none_and_gradients() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg"><path fill="#000" stroke="none"/><rect style="fill:#fff; stroke: red;opacity:0.5" fill="url(#g)"/><stop stop-color="blue"/><circle stroke="currentColor"/></svg>"##;
        assert_eq!(
            one_colour(svg).unwrap(),
            r##"<svg xmlns="http://www.w3.org/2000/svg"><path fill="currentColor" stroke="none"/><rect style="fill:currentColor;stroke:currentColor;opacity:0.5" fill="url(#g)"/><stop stop-color="currentColor"/><circle stroke="currentColor"/></svg>"##
        );
    }
}
