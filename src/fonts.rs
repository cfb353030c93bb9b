//! Fonts compiled into the binary (OFL; licences in `assets/fonts/`). No system font
//! is ever loaded, so every machine renders the same glyphs.

use std::sync::{Arc, OnceLock};

use usvg::fontdb;

/// The family used when a template names none.
pub const DEFAULT_FAMILY: &str = "Lato";

/// (file name, bytes) of every embedded font. A `static`, so every use sees the
/// same bytes at the same address (text measuring finds a face by its data).
pub static FONTS: &[(&str, &[u8])] = &[
    (
        "Lato-Regular.ttf",
        include_bytes!("../assets/fonts/Lato-Regular.ttf"),
    ),
    (
        "Lato-Bold.ttf",
        include_bytes!("../assets/fonts/Lato-Bold.ttf"),
    ),
    (
        "Lato-Italic.ttf",
        include_bytes!("../assets/fonts/Lato-Italic.ttf"),
    ),
    (
        "Lato-Black.ttf",
        include_bytes!("../assets/fonts/Lato-Black.ttf"),
    ),
    (
        "BebasNeue-Regular.otf",
        include_bytes!("../assets/fonts/BebasNeue-Regular.otf"),
    ),
];

/// The font database, built once per process from the embedded fonts.
pub fn database() -> Arc<fontdb::Database> {
    static DB: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = fontdb::Database::new();
        for (_, data) in FONTS {
            db.load_font_source(fontdb::Source::Binary(Arc::new(*data)));
        }
        db.set_sans_serif_family(DEFAULT_FAMILY);
        db.set_serif_family(DEFAULT_FAMILY);
        db.set_monospace_family(DEFAULT_FAMILY);
        db.set_cursive_family(DEFAULT_FAMILY);
        db.set_fantasy_family("Bebas Neue");
        Arc::new(db)
    })
    .clone()
}

/// The family names available to templates, sorted.
pub fn families() -> &'static [String] {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names: Vec<String> = database()
            .faces()
            .flat_map(|f| f.families.iter().map(|(n, _)| n.clone()))
            .collect();
        names.sort();
        names.dedup();
        names
    })
}

/// Whether some embedded font has a glyph for `c`.
pub fn has_glyph(c: char) -> bool {
    static FACES: OnceLock<Vec<ttf_parser::Face<'static>>> = OnceLock::new();
    FACES
        .get_or_init(|| {
            FONTS
                .iter()
                .filter_map(|(_, data)| ttf_parser::Face::parse(data, 0).ok())
                .collect()
        })
        .iter()
        .any(|f| f.glyph_index(c).is_some())
}
