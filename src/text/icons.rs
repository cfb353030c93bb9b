//! Inline icons of rich text: `:coin:` is `templates/<game>/icons/coin.svg`, else
//! `templates/common/icons/coin.svg`, read through the project once per build,
//! checked like a face (fonts, colours, size) and handed to templates as a
//! `data:` URI, so a face's SVG stays self-contained.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use base64::Engine as _;

use super::TextError;
use crate::fonts::FontBook;
use crate::project::Project;
use crate::source::FileError;

/// Largest icon file accepted (an icon is copied into every face that uses it).
pub const MAX_ICON_BYTES: u64 = 256 * 1024;

/// An icon ready to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct Icon {
    pub name: String,
    /// The file it came from.
    pub path: PathBuf,
    /// Width / height of its picture.
    pub aspect: f64,
    /// `data:image/svg+xml;base64,...`
    pub href: String,
}

/// Where an icon's width comes from while laying text out.
pub trait IconSource {
    /// The icon called `name`.
    fn icon(&self, name: &str) -> Result<Arc<Icon>, TextError>;
}

/// No icons at all: every `:name:` is an error.
pub struct NoIcons;

impl IconSource for NoIcons {
    fn icon(&self, name: &str) -> Result<Arc<Icon>, TextError> {
        Err(TextError::UnknownIcon {
            name: name.to_string(),
            looked: Vec::new(),
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

    fn load(&self, name: &str) -> Result<Arc<Icon>, TextError> {
        let looked = self.candidates(name);
        for path in &looked {
            let bad = |reason: String| TextError::BadIcon {
                name: name.to_string(),
                path: path.clone(),
                reason,
            };
            let text = match self.project.read_text(path, MAX_ICON_BYTES) {
                Ok(t) => t,
                Err(FileError::NotFound { .. }) => continue,
                Err(e) => return Err(bad(e.to_string())),
            };
            let images = Arc::new(crate::svg::Images::none());
            let tree = crate::svg::parse(&text, &images, &self.fonts).map_err(|problems| {
                let (what, _) = problems
                    .first()
                    .map(|p| p.problem.describe())
                    .unwrap_or_default();
                bad(what)
            })?;
            let size = tree.size();
            return Ok(Arc::new(Icon {
                name: name.to_string(),
                path: path.clone(),
                aspect: (size.width() / size.height()) as f64,
                href: format!(
                    "data:image/svg+xml;base64,{}",
                    base64::engine::general_purpose::STANDARD.encode(text.as_bytes())
                ),
            }));
        }
        Err(TextError::UnknownIcon {
            name: name.to_string(),
            looked,
        })
    }
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
