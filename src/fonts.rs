//! Fonts: the built-in pair compiled into the binary (Lato and Bebas Neue, OFL,
//! licences in `assets/fonts/`) and the project's own, every `.ttf`, `.otf` and
//! `.ttc` file in `fonts/` at the project root and in `data/<game>/fonts/`, read
//! through the project. No system font is ever loaded, so every machine renders the
//! same glyphs.
//!
//! A game's fonts are one [`FontBook`], made once per build and shared by text
//! measuring (`text`), SVG parsing (`svg`) and the usvg patch's caches. Font data
//! and the faces parsed for shaping are kept for the whole process, one copy per
//! distinct file content: a rebuild (watch mode, `bench`) parses nothing again, and
//! the shaping plans usvg keeps per face stay valid.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use usvg::fontdb;

use crate::diag::{Diagnostic, Reported};
use crate::project::Project;
use crate::source::{EntryKind, FileError};

/// The family used when a template names none.
pub const DEFAULT_FAMILY: &str = "Lato";

/// Largest font file accepted (a big CJK collection is about 30 MB).
pub const MAX_FONT_BYTES: u64 = 64 * 1024 * 1024;

/// Most faces one font collection (`.ttc`) may hold: the largest CJK collections
/// have 70. A collection's header says how many it holds, and a few bytes can
/// claim 200,000.
pub const MAX_COLLECTION_FACES: u32 = 256;

/// Largest total of a game's font files (the project's and its own): every font is
/// kept in memory for the whole run.
pub const MAX_FONTS_BYTES: u64 = 256 * 1024 * 1024;

/// The folder of fonts every game of the project can use.
pub const PROJECT_FONTS: &str = "fonts";

/// The file endings loaded as fonts (compared without case).
pub const FONT_EXTENSIONS: [&str; 3] = ["ttf", "otf", "ttc"];

/// (file name, bytes) of every built-in font.
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

/// The folder of fonts only `game` uses: `data/<game>/fonts/`.
pub fn game_fonts(game: &str) -> PathBuf {
    Path::new("data").join(game).join("fonts")
}

/// Where a font file comes from; a face in a later folder of this list replaces the
/// same family and style from an earlier one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FontOrigin {
    /// Compiled into cardstock.
    BuiltIn,
    /// `fonts/` at the project root.
    Project,
    /// `data/<game>/fonts/`.
    Game,
}

/// One font file of a book.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FontFile {
    /// The project path (`fonts/Routed.ttf`), or the file name of a built-in font.
    pub path: PathBuf,
    pub origin: FontOrigin,
}

impl FontFile {
    /// The path as shown to the user (`built-in Lato-Regular.ttf` for a built-in one).
    pub fn display(&self) -> String {
        match self.origin {
            FontOrigin::BuiltIn => format!("built-in {}", self.path.display()),
            _ => self.path.display().to_string(),
        }
    }
}

/// A face's file, for an exporter that embeds it: its bytes and the face's
/// index in them (a `.ttc` holds several faces). Two are the same face when
/// they are the same bytes (the same kept file, not equal contents) and index:
/// comparing and hashing one is cheap.
#[derive(Debug, Clone, Copy)]
pub struct FaceData {
    pub data: &'static [u8],
    pub index: u32,
}

impl FaceData {
    /// What tells one face from another: where its bytes are, how many, and its
    /// index.
    fn key(&self) -> (usize, usize, u32) {
        (self.data.as_ptr() as usize, self.data.len(), self.index)
    }
}

impl PartialEq for FaceData {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for FaceData {}

impl std::hash::Hash for FaceData {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

/// One face of a book: a family in one weight and style.
#[derive(Clone)]
pub struct Face {
    pub family: String,
    /// 100 (thin) to 900 (black); 400 is regular, 700 bold.
    pub weight: u16,
    pub italic: bool,
    /// Index into [`FontBook::files`].
    pub file: usize,
    /// The face's index in its file (a `.ttc` holds several).
    pub index: u32,
    /// The face that replaces this one (a later folder has the same family and
    /// style), as an index into [`FontBook::faces`]; `None` for a face in use.
    pub replaced_by: Option<usize>,
    pub(crate) id: Option<fontdb::ID>,
    pub(crate) data: &'static [u8],
    pub(crate) shaping: &'static rustybuzz::Face<'static>,
}

impl std::fmt::Debug for Face {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Face")
            .field("family", &self.family)
            .field("weight", &self.weight)
            .field("italic", &self.italic)
            .field("file", &self.file)
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

impl Face {
    /// The style as a designer names it: `Regular`, `Bold Italic`, `Black`...
    pub fn style_name(&self) -> String {
        let weight = match self.weight {
            0..=149 => "Thin",
            150..=249 => "ExtraLight",
            250..=349 => "Light",
            350..=449 => "Regular",
            450..=549 => "Medium",
            550..=649 => "SemiBold",
            650..=749 => "Bold",
            750..=849 => "ExtraBold",
            _ => "Black",
        };
        match (weight, self.italic) {
            ("Regular", true) => "Italic".into(),
            (w, true) => format!("{w} Italic"),
            (w, false) => w.into(),
        }
    }
}

/// Why a font file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FontError {
    /// The file (or its folder) cannot be read.
    File(FileError),
    /// The file is not a TrueType or OpenType font (or collection).
    NotAFont { path: PathBuf, reason: String },
    /// The font has no family name, so no template could ask for it.
    NoFamily { path: PathBuf },
    /// A collection that claims more than [`MAX_COLLECTION_FACES`] faces.
    TooManyFaces { path: PathBuf, faces: u32 },
    /// The font files read so far, with this one, are more than
    /// [`MAX_FONTS_BYTES`].
    TooMuch { path: PathBuf },
}

impl std::fmt::Display for FontError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FontError::File(e) => write!(f, "{e}"),
            FontError::NotAFont { path, reason } => write!(
                f,
                "{} is not a font cardstock can read ({reason})",
                path.display()
            ),
            FontError::NoFamily { path } => {
                write!(f, "{} has no family name", path.display())
            }
            FontError::TooManyFaces { path, faces } => write!(
                f,
                "{} says it holds {faces} faces, over the limit of {MAX_COLLECTION_FACES} for a collection",
                path.display()
            ),
            FontError::TooMuch { path } => write!(
                f,
                "the game's font files are more than {} MB together with {}",
                MAX_FONTS_BYTES >> 20,
                path.display()
            ),
        }
    }
}

impl FontError {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            FontError::File(e) => e.path(),
            FontError::NotAFont { path, .. }
            | FontError::NoFamily { path }
            | FontError::TooManyFaces { path, .. }
            | FontError::TooMuch { path } => path,
        }
    }

    /// The error as a diagnostic naming the file, with a hint.
    pub fn diagnostic(&self) -> Diagnostic {
        let hint = match self {
            FontError::File(e) => e.hint(),
            FontError::NotAFont { .. }
            | FontError::NoFamily { .. }
            | FontError::TooManyFaces { .. } => {
                "replace it with a TrueType (.ttf), OpenType (.otf) or collection (.ttc) file, or remove it"
            }
            FontError::TooMuch { .. } => {
                "keep in fonts/ and data/<game>/fonts/ only the fonts the game uses"
            }
        };
        Diagnostic::error(self.to_string())
            .at(self.path(), None)
            .hint(hint)
    }
}

/// The fonts one game can use: the built-in ones, then `fonts/`, then
/// `data/<game>/fonts/`, each folder in path order, so the same files always give
/// the same book.
pub struct FontBook {
    db: Arc<fontdb::Database>,
    files: Vec<FontFile>,
    faces: Vec<Face>,
    families: Vec<String>,
    fingerprint: u64,
    kept: crate::usvg_patch::Stores,
    /// [`FontBook::has_glyph`]'s answers for the first 256 characters, filled
    /// as they are asked: every text of every face asks for each of its
    /// characters, and each answer looks through every face's character map.
    first_glyphs: GlyphAnswers,
}

/// Whether some face has a glyph for each of the first 256 characters: 0 not
/// asked yet, 1 yes, 2 no.
struct GlyphAnswers([std::sync::atomic::AtomicU8; 256]);

impl Default for GlyphAnswers {
    fn default() -> Self {
        GlyphAnswers(std::array::from_fn(|_| std::sync::atomic::AtomicU8::new(0)))
    }
}

impl std::fmt::Debug for FontBook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FontBook")
            .field("files", &self.files)
            .field("faces", &self.faces)
            .finish_non_exhaustive()
    }
}

impl FontBook {
    /// The built-in fonts only, made once per process.
    pub fn builtin() -> Arc<FontBook> {
        static BOOK: OnceLock<Arc<FontBook>> = OnceLock::new();
        BOOK.get_or_init(|| {
            let files = builtin_files();
            // The built-in fonts are known to parse (a unit test checks it).
            Arc::new(FontBook::build(files).unwrap_or_else(|_| FontBook::empty()))
        })
        .clone()
    }

    /// The built-in fonts in a book of its own, with empty caches (tests).
    #[cfg(test)]
    pub(crate) fn builtin_fresh() -> FontBook {
        FontBook::build(builtin_files()).expect("the built-in fonts parse")
    }

    /// The fonts of `game` (or of the project alone, for `None`): the built-in
    /// ones plus every font file in `fonts/` and `data/<game>/fonts/`. A file that
    /// cannot be read or is no font is an error naming it, and is left out.
    pub fn load(project: &Project, game: Option<&str>) -> Reported<Arc<FontBook>> {
        let mut diags = Vec::new();
        let mut folders = vec![(PathBuf::from(PROJECT_FONTS), FontOrigin::Project)];
        if let Some(g) = game {
            folders.push((game_fonts(g), FontOrigin::Game));
        }
        let mut found = Vec::new();
        let mut total = 0u64;
        for (dir, origin) in folders {
            if project.kind(&dir) != Some(EntryKind::Folder) {
                continue;
            }
            let files = match project.walk(&dir, &[""], 4) {
                Ok(f) => f,
                Err(e) => {
                    diags.push(FontError::File(e).diagnostic());
                    continue;
                }
            };
            for path in files {
                let ext = path
                    .extension()
                    .map(|x| x.to_string_lossy().to_ascii_lowercase())
                    .unwrap_or_default();
                if ext == "woff" || ext == "woff2" {
                    diags.push(
                        Diagnostic::warning(format!(
                            "{} is a web font (WOFF), which cardstock does not load",
                            path.display()
                        ))
                        .at(&path, None)
                        .hint("use the font's .ttf or .otf file instead (font sites offer it beside the web fonts)"),
                    );
                }
                if !FONT_EXTENSIONS.contains(&ext.as_str()) {
                    continue;
                }
                match project.read(&path, MAX_FONT_BYTES) {
                    Ok(bytes) => {
                        total = total.saturating_add(bytes.len() as u64);
                        if total > MAX_FONTS_BYTES {
                            diags.push(FontError::TooMuch { path }.diagnostic());
                            break;
                        }
                        found.push((FontFile { path, origin }, bytes));
                    }
                    Err(e) => diags.push(FontError::File(e).diagnostic()),
                }
            }
        }
        if found.is_empty() {
            return Reported::new(FontBook::builtin(), diags);
        }
        let mut files = builtin_files();
        for (file, bytes) in found {
            match check_font(&file.path, &bytes) {
                Ok(()) => {
                    let (data, hash) = intern(bytes);
                    files.push((file, data, hash));
                }
                Err(e) => diags.push(e.diagnostic()),
            }
        }
        let book = match FontBook::build(files) {
            Ok(b) => b,
            Err(e) => {
                diags.push(e.diagnostic());
                return Reported::new(FontBook::builtin(), diags);
            }
        };
        Reported::new(Arc::new(book), diags)
    }

    fn empty() -> FontBook {
        let db = Arc::new(fontdb::Database::new());
        FontBook {
            kept: crate::usvg_patch::Stores::new(&db, Vec::new()),
            db,
            files: Vec::new(),
            faces: Vec::new(),
            families: Vec::new(),
            fingerprint: 0,
            first_glyphs: GlyphAnswers::default(),
        }
    }

    /// The book of `files` (built-in first, then the project's, then the game's),
    /// each with a hash of its content.
    fn build(files: Vec<(FontFile, &'static [u8], u64)>) -> Result<FontBook, FontError> {
        let (mut faces, fingerprint) = Self::read_faces(&files)?;
        let db = Arc::new(Self::load_database(&mut faces));
        let mut families: Vec<String> = faces
            .iter()
            .filter(|f| f.replaced_by.is_none())
            .map(|f| f.family.clone())
            .collect();
        families.sort();
        families.dedup();
        Ok(FontBook {
            kept: crate::usvg_patch::Stores::new(
                &db,
                faces
                    .iter()
                    .filter(|f| f.replaced_by.is_none())
                    .map(|f| ((f.data.as_ptr() as usize, f.index), f.shaping))
                    .collect(),
            ),
            db,
            files: files.into_iter().map(|(f, ..)| f).collect(),
            faces,
            families,
            fingerprint,
            first_glyphs: GlyphAnswers::default(),
        })
    }

    /// Every face of `files`, a later file's face replacing an earlier one of the
    /// same family, weight and style; and the fingerprint of the files.
    fn read_faces(files: &[(FontFile, &'static [u8], u64)]) -> Result<(Vec<Face>, u64), FontError> {
        let mut faces: Vec<Face> = Vec::new();
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        for (i, (file, data, content)) in files.iter().enumerate() {
            file.path.hash(&mut hasher);
            content.hash(&mut hasher);
            let mut scratch = fontdb::Database::new();
            let ids = scratch.load_font_source(fontdb::Source::Binary(Arc::new(*data)));
            if ids.is_empty() {
                return Err(FontError::NoFamily {
                    path: file.path.clone(),
                });
            }
            for id in ids {
                let Some(info) = scratch.face(id) else {
                    continue;
                };
                let Some((family, _)) = info.families.first() else {
                    return Err(FontError::NoFamily {
                        path: file.path.clone(),
                    });
                };
                let shaping =
                    shaping_face(data, info.index).ok_or_else(|| FontError::NotAFont {
                        path: file.path.clone(),
                        reason: format!("face {} does not parse", info.index),
                    })?;
                let face = Face {
                    family: family.clone(),
                    weight: info.weight.0,
                    italic: info.style != fontdb::Style::Normal,
                    file: i,
                    index: info.index,
                    replaced_by: None,
                    id: None,
                    data,
                    shaping,
                };
                let new = faces.len();
                for old in faces.iter_mut().filter(|f| f.replaced_by.is_none()) {
                    if old.family == face.family
                        && old.weight == face.weight
                        && old.italic == face.italic
                    {
                        old.replaced_by = Some(new);
                    }
                }
                faces.push(face);
            }
        }
        Ok((faces, hasher.finish()))
    }

    /// The font database of the faces in use (each face's `id` set), in load
    /// order, with the generic families named. A collection loads all its faces,
    /// once: each entry keeps the one it stands for.
    fn load_database(faces: &mut [Face]) -> fontdb::Database {
        let mut db = fontdb::Database::new();
        let mut loaded: HashMap<usize, Vec<fontdb::ID>> = HashMap::new();
        for face in faces.iter_mut().filter(|f| f.replaced_by.is_none()) {
            let ids = loaded
                .entry(face.data.as_ptr() as usize)
                .or_insert_with(|| {
                    db.load_font_source(fontdb::Source::Binary(Arc::new(face.data)))
                        .to_vec()
                });
            if let Some(at) = ids
                .iter()
                .position(|id| db.face(*id).is_some_and(|f| f.index == face.index))
            {
                face.id = Some(ids.remove(at));
            }
        }
        for id in loaded.into_values().flatten() {
            db.remove_face(id);
        }
        db.set_sans_serif_family(DEFAULT_FAMILY);
        db.set_serif_family(DEFAULT_FAMILY);
        db.set_monospace_family(DEFAULT_FAMILY);
        db.set_cursive_family(DEFAULT_FAMILY);
        db.set_fantasy_family("Bebas Neue");
        db
    }

    /// The font database usvg lays text out with.
    pub fn database(&self) -> Arc<fontdb::Database> {
        self.db.clone()
    }

    /// The usvg patch's caches for this book's database.
    pub(crate) fn kept(&self) -> &crate::usvg_patch::Stores {
        &self.kept
    }

    /// Every font file, in load order.
    pub fn files(&self) -> &[FontFile] {
        &self.files
    }

    /// Every face, in load order, the replaced ones included.
    pub fn faces(&self) -> &[Face] {
        &self.faces
    }

    /// The family names templates can use, sorted.
    pub fn families(&self) -> &[String] {
        &self.families
    }

    /// The family names, as a comma-separated list for messages.
    pub fn family_list(&self) -> String {
        self.families.join(", ")
    }

    /// Same font files (paths and contents), same number, in every run of the same
    /// cardstock: part of the keys of kept parse results and cached PNGs.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// Whether some loaded font has a glyph for `c`.
    pub fn has_glyph(&self, c: char) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        let any = || {
            self.faces
                .iter()
                .filter(|f| f.replaced_by.is_none())
                .any(|f| f.shaping.glyph_index(c).is_some())
        };
        let Some(kept) = self.first_glyphs.0.get(c as usize) else {
            return any();
        };
        match kept.load(Relaxed) {
            1 => true,
            2 => false,
            _ => {
                let has = any();
                kept.store(if has { 1 } else { 2 }, Relaxed);
                has
            }
        }
    }

    /// The face the database picks for a family, weight and style (what usvg
    /// draws), or `None` when the family is not loaded.
    pub(crate) fn query(
        &self,
        family: &str,
        weight: u16,
        italic: bool,
    ) -> Option<&'static rustybuzz::Face<'static>> {
        self.picked(family, weight, italic).map(|f| f.shaping)
    }

    /// The face [`FontBook::query`] picks, with its file bytes and index (one
    /// query for both).
    pub(crate) fn query_with_data(
        &self,
        family: &str,
        weight: u16,
        italic: bool,
    ) -> Option<(&'static rustybuzz::Face<'static>, FaceData)> {
        self.picked(family, weight, italic).map(|f| {
            let data = FaceData {
                data: f.data,
                index: f.index,
            };
            (f.shaping, data)
        })
    }

    /// The face the database picks for a family, weight and style.
    fn picked(&self, family: &str, weight: u16, italic: bool) -> Option<&Face> {
        let families = [fontdb::Family::Name(family)];
        let id = self.db.query(&fontdb::Query {
            families: &families,
            weight: fontdb::Weight(weight),
            stretch: fontdb::Stretch::Normal,
            style: if italic {
                fontdb::Style::Italic
            } else {
                fontdb::Style::Normal
            },
        })?;
        self.faces.iter().find(|f| f.id == Some(id))
    }
}

/// The built-in font files, each with the content hash 0 (the cardstock version
/// decides their content).
fn builtin_files() -> Vec<(FontFile, &'static [u8], u64)> {
    FONTS
        .iter()
        .map(|(name, data)| {
            (
                FontFile {
                    path: PathBuf::from(name),
                    origin: FontOrigin::BuiltIn,
                },
                *data,
                0,
            )
        })
        .collect()
}

/// Checks that `bytes` is a font (or collection) whose every face parses.
fn check_font(path: &Path, bytes: &[u8]) -> Result<(), FontError> {
    let n = ttf_parser::fonts_in_collection(bytes).unwrap_or(1);
    if n > MAX_COLLECTION_FACES {
        return Err(FontError::TooManyFaces {
            path: path.to_path_buf(),
            faces: n,
        });
    }
    for index in 0..n {
        ttf_parser::Face::parse(bytes, index).map_err(|e| FontError::NotAFont {
            path: path.to_path_buf(),
            reason: match e {
                _ if bytes.starts_with(b"wOFF") || bytes.starts_with(b"wOF2") => {
                    "it is a WOFF web font with another name".into()
                }
                ttf_parser::FaceParsingError::UnknownMagic => {
                    "it does not start like a TrueType or OpenType file".into()
                }
                e => e.to_string(),
            },
        })?;
    }
    Ok(())
}

/// One copy of `bytes` for the whole process: the same file content read again
/// (another build, another game) gives the same slice. Also returns the hash of
/// the content.
fn intern(bytes: Vec<u8>) -> (&'static [u8], u64) {
    type Store = HashMap<u64, Vec<&'static [u8]>>;
    static STORE: OnceLock<Mutex<Store>> = OnceLock::new();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    let key = h.finish();
    let store = STORE.get_or_init(Default::default);
    let mut map = store.lock().unwrap_or_else(|e| e.into_inner());
    let same = map.entry(key).or_default();
    if let Some(kept) = same.iter().find(|d| **d == bytes.as_slice()) {
        return (kept, key);
    }
    let kept: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    same.push(kept);
    (kept, key)
}

/// The shaping face of `data`'s face `index`, parsed once per process.
fn shaping_face(data: &'static [u8], index: u32) -> Option<&'static rustybuzz::Face<'static>> {
    type Faces = HashMap<(usize, u32), Option<&'static rustybuzz::Face<'static>>>;
    static FACES: OnceLock<Mutex<Faces>> = OnceLock::new();
    let faces = FACES.get_or_init(Default::default);
    let mut map = faces.lock().unwrap_or_else(|e| e.into_inner());
    *map.entry((data.as_ptr() as usize, index))
        .or_insert_with(|| {
            rustybuzz::Face::from_slice(data, index).map(|f| &*Box::leak(Box::new(f)))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_book() {
        let book = FontBook::builtin();
        assert_eq!(book.families(), ["Bebas Neue", "Lato"]);
        assert_eq!(book.faces().len(), FONTS.len());
        assert!(book.has_glyph('£'));
        assert!(!book.has_glyph('王'));
        assert!(book.query("Lato", 700, false).is_some());
        assert!(book.query("Arial", 400, false).is_none());
        let styles: Vec<String> = book.faces().iter().map(Face::style_name).collect();
        assert_eq!(styles, ["Regular", "Bold", "Italic", "Black", "Regular"]);
    }

    #[test]
    fn kept_glyph_answers_are_the_faces_answers() {
        // The first 256 characters' answers are kept as they are asked: asked
        // twice, each is what looking through every face gives, yes and no
        // alike (control characters have no glyph; letters and `£` do).
        let book = FontBook::builtin_fresh();
        let look = |c: char| {
            book.faces
                .iter()
                .filter(|f| f.replaced_by.is_none())
                .any(|f| f.shaping.glyph_index(c).is_some())
        };
        let (mut yes, mut no) = (0, 0);
        for _ in 0..2 {
            for c in (0..=300u32).filter_map(char::from_u32) {
                assert_eq!(book.has_glyph(c), look(c), "{c:?}");
                if look(c) {
                    yes += 1;
                } else {
                    no += 1;
                }
            }
        }
        assert!(yes > 300 && no > 50, "{yes} with a glyph, {no} without");
    }

    #[test]
    fn project_fonts_replace_and_fail_by_name() {
        let mut m = crate::source::MemoryFiles::new();
        // A copy of a built-in font replaces it; a broken file is an error.
        m.insert("fonts/sub/Lato.ttf", FONTS[0].1);
        m.insert("data/g/fonts/broken.otf", "not a font");
        m.insert("data/g/fonts/OFL.txt", "licence");
        let project = Project::new(m);
        let r = FontBook::load(&project, Some("g"));
        let book = r.value;
        assert_eq!(r.diags.items.len(), 1);
        assert!(
            r.diags.items[0]
                .message
                .starts_with("data/g/fonts/broken.otf is not a font cardstock can read"),
            "{}",
            r.diags.items[0].message
        );
        assert_eq!(book.files().len(), FONTS.len() + 1);
        assert_eq!(book.faces()[0].replaced_by, Some(FONTS.len()));
        assert_eq!(book.files()[FONTS.len()].display(), "fonts/sub/Lato.ttf");
        // The same content again is the same data, so the same fingerprint.
        let again = FontBook::load(&project, Some("g")).value;
        assert_eq!(again.fingerprint(), book.fingerprint());
        assert_ne!(book.fingerprint(), FontBook::builtin().fingerprint());
    }
}
