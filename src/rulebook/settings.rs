//! `[rulebook]` and `[game] language` resolved for one build: the page, the
//! columns, the fonts and the language words are hyphenated in.

use crate::diag::{Diagnostic, Reported};
use crate::fonts::FontBook;
use crate::model::{Game, Paper, Size, Spanned};
use crate::text::FontSpec;
use crate::units::{parse_length, PT_PER_MM};

/// Most text columns on a page.
pub const MAX_COLUMNS: usize = 2;
/// Body text sizes accepted, in points.
const SIZES_PT: (f64, f64) = (8.0, 16.0);
/// The smallest page a rulebook is typeset on, in mm (a side).
const MIN_PAGE: f64 = 90.0;
/// Body text size when `[rulebook] size` is not given, in points.
const DEFAULT_SIZE_PT: f64 = 9.5;

/// How a game's rulebook is typeset.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The page, portrait or landscape, in mm.
    pub page: Size,
    /// Text columns a page starts with.
    pub columns: usize,
    /// The body text's font.
    pub font: FontSpec,
    /// The headings' font (bold).
    pub heading_font: FontSpec,
    /// The body text's font size, in mm.
    pub size: f64,
    /// The language words are hyphenated in (`None`: hypher has no patterns for
    /// it; words are then not hyphenated).
    pub lang: Option<hypher::Lang>,
    /// The language's code as written (`en`).
    pub language: String,
}

impl Settings {
    /// The margin around the text on every side, in mm: about a twelfth of the
    /// page's narrow side (12 mm on A5, 18 mm on Letter).
    pub fn margin(&self) -> f64 {
        (self.page.width.min(self.page.height) / 12.0).clamp(10.0, 20.0)
    }
}

/// Reads `[rulebook]` and `[game] language` of `game` for a build on `paper`,
/// checking each value against `fonts`; `None` when any value had a problem
/// (every problem is reported).
pub fn read(game: &Game, paper: Paper, fonts: &FontBook) -> Reported<Option<Settings>> {
    let def = game
        .rulebook
        .as_ref()
        .map(|d| d.get_ref().clone())
        .unwrap_or_default();
    let mut keys = Keys {
        game,
        problems: Vec::new(),
    };
    let half = Size::half_of(paper.width, paper.height);
    let page = keys.read(&def.page, half, |p| read_page(p, paper));
    let columns = keys.read(&def.columns, 1, |c| read_columns(*c));
    let default = crate::fonts::DEFAULT_FAMILY.to_string();
    let body = keys.read(&def.font, default, |f| family("font", f, fonts, &game.id));
    let heading = keys.read(&def.heading_font, body.clone(), |f| {
        family("heading_font", f, fonts, &game.id)
    });
    let size = keys.read(&def.size, DEFAULT_SIZE_PT / PT_PER_MM, |s| read_size(s));
    let language = game.meta.language.clone().unwrap_or_else(|| "en".into());
    if !is_code(&language) {
        let span = game.text.find("language").map(|s| s..s + "language".len());
        keys.problems.push(Diagnostic::error(format!(
            "`language = \"{language}\"` is not a two-letter language code"
        ))
        .at(&game.file, span)
        .with("game", &game.id)
        .hint("write the ISO 639-1 code of the game's language: `en`, `de`, `fr`, `es`, `it`, `nl`..."));
    }
    if !keys.problems.is_empty() {
        return Reported::new(None, keys.problems);
    }
    Some(Settings {
        page,
        columns,
        font: FontSpec {
            family: body,
            weight: 400,
            italic: false,
        },
        heading_font: FontSpec {
            family: heading,
            weight: 700,
            italic: false,
        },
        size,
        lang: language_of(&language),
        language,
    })
    .into()
}

/// Reads the keys of `[rulebook]`, keeping their problems.
struct Keys<'a> {
    game: &'a Game,
    problems: Vec<Diagnostic>,
}

impl Keys<'_> {
    /// What `read` makes of the key's value, or `default` when the key is absent
    /// or its value has a problem (kept, at the value).
    fn read<S, T>(
        &mut self,
        key: &Option<Spanned<S>>,
        default: T,
        read: impl FnOnce(&S) -> Result<T, Diagnostic>,
    ) -> T {
        let Some(v) = key else { return default };
        match read(v.get_ref()) {
            Ok(x) => x,
            Err(d) => {
                let d = d.at(&self.game.file, Some(v.span()));
                self.problems.push(d.with("game", &self.game.id));
                default
            }
        }
    }
}

/// `[rulebook] page`.
fn read_page(p: &toml::Value, paper: Paper) -> Result<Size, Diagnostic> {
    match Size::from_toml(p, paper) {
        Ok(s) if s.width.min(s.height) >= MIN_PAGE => Ok(s),
        Ok(s) => Err(Diagnostic::error(format!(
            "a rulebook page of {} x {} mm is too small to typeset",
            crate::units::fmt_num(s.width),
            crate::units::fmt_num(s.height)
        ))
        .hint(format!(
            "use a page at least {MIN_PAGE} mm a side: `a5`, `half-letter`, `letter` or `a4`"
        ))),
        Err(e) => Err(Diagnostic::error(e.to_string()).hint(
            "use `a5`, `half-letter`, `letter`, `a4`, `half-paper` or { width = \"..\", height = \"..\" }",
        )),
    }
}

/// `[rulebook] columns`.
fn read_columns(n: i64) -> Result<usize, Diagnostic> {
    if (1..=MAX_COLUMNS as i64).contains(&n) {
        return Ok(n as usize);
    }
    Err(Diagnostic::error(format!(
        "`columns = {n}`: a rulebook page has 1 or 2 columns"
    ))
    .hint("write `columns = 1` or `columns = 2`"))
}

/// `[rulebook] font` or `heading_font` (`key`): a family the game has.
fn family(key: &str, name: &str, fonts: &FontBook, game: &str) -> Result<String, Diagnostic> {
    if fonts.families().iter().any(|f| f == name) {
        return Ok(name.to_string());
    }
    let hint = match crate::diag::did_you_mean(name, fonts.families().iter().map(String::as_str)) {
        Some(m) => format!("did you mean `{m}`?"),
        None => format!(
            "the game's fonts are {}; put a font's .ttf or .otf file in fonts/ or data/{game}/fonts/",
            fonts.family_list()
        ),
    };
    Err(Diagnostic::error(format!("`{key} = \"{name}\"`: the game has no such font")).hint(hint))
}

/// `[rulebook] size`.
fn read_size(text: &str) -> Result<f64, Diagnostic> {
    let hint = "write a size such as `size = \"9.5pt\"`";
    match parse_length(text) {
        Ok(mm) if (SIZES_PT.0..=SIZES_PT.1).contains(&(mm * PT_PER_MM)) => Ok(mm),
        Ok(_) => Err(Diagnostic::error(format!(
            "`size = \"{text}\"`: body text is set between {} and {} pt",
            SIZES_PT.0, SIZES_PT.1
        ))
        .hint(hint)),
        Err(e) => Err(Diagnostic::error(e.to_string()).hint(hint)),
    }
}

/// Whether `code` looks like an ISO 639-1 code.
fn is_code(code: &str) -> bool {
    code.len() == 2 && code.bytes().all(|b| b.is_ascii_lowercase())
}

/// hypher's patterns for a two-letter language code.
fn language_of(code: &str) -> Option<hypher::Lang> {
    let b = code.as_bytes();
    if !is_code(code) {
        return None;
    }
    hypher::Lang::from_iso([b[0], b[1]])
}
