//! `[rulebook]` and `[game] language` resolved for one build: the page, the
//! columns, the fonts and the language words are hyphenated in.

use crate::diag::Diagnostic;
use crate::fonts::FontBook;
use crate::model::{Game, Paper, Size};
use crate::text::FontSpec;
use crate::units::{parse_length, PT_PER_MM};

/// Most text columns on a page.
pub const MAX_COLUMNS: usize = 2;
/// Body text sizes accepted, in points.
const SIZES_PT: (f64, f64) = (6.0, 16.0);
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
/// checking each value against `fonts`.
pub fn read(game: &Game, paper: Paper, fonts: &FontBook) -> Result<Settings, Vec<Diagnostic>> {
    let def = game
        .rulebook
        .as_ref()
        .map(|d| d.get_ref().clone())
        .unwrap_or_default();
    let mut problems = Vec::new();
    let at = |d: Diagnostic, span: std::ops::Range<usize>| {
        d.at(&game.file, Some(span)).with("game", &game.id)
    };
    let page = match &def.page {
        None => Size::half_of(paper.width, paper.height),
        Some(p) => match Size::from_toml(p.get_ref(), paper) {
            Ok(s) if s.width.min(s.height) >= MIN_PAGE => s,
            Ok(s) => {
                problems.push(at(
                    Diagnostic::error(format!(
                        "a rulebook page of {} x {} mm is too small to typeset",
                        crate::units::fmt_num(s.width),
                        crate::units::fmt_num(s.height)
                    )),
                    p.span(),
                ).hint(format!("use a page at least {MIN_PAGE} mm a side: `a5`, `half-letter`, `letter` or `a4`")));
                Size::half_of(paper.width, paper.height)
            }
            Err(e) => {
                problems.push(at(Diagnostic::error(e.to_string()), p.span()).hint(
                    "use `a5`, `half-letter`, `letter`, `a4`, `half-paper` or { width = \"..\", height = \"..\" }",
                ));
                Size::half_of(paper.width, paper.height)
            }
        },
    };
    let columns = match &def.columns {
        None => 1,
        Some(c) if (1..=MAX_COLUMNS as i64).contains(c.get_ref()) => *c.get_ref() as usize,
        Some(c) => {
            problems.push(
                at(
                    Diagnostic::error(format!(
                        "`columns = {}`: a rulebook page has 1 or 2 columns",
                        c.get_ref()
                    )),
                    c.span(),
                )
                .hint("write `columns = 1` or `columns = 2`"),
            );
            1
        }
    };
    let mut family = |key: &str, v: &Option<crate::model::Spanned<String>>, default: &str| {
        let Some(v) = v else {
            return default.to_string();
        };
        if fonts.families().iter().any(|f| f == v.get_ref()) {
            return v.get_ref().clone();
        }
        let hint = match crate::diag::did_you_mean(
            v.get_ref(),
            fonts.families().iter().map(String::as_str),
        ) {
            Some(m) => format!("did you mean `{m}`?"),
            None => format!(
                "the game's fonts are {}; put a font's .ttf or .otf file in fonts/ or data/{}/fonts/",
                fonts.family_list(),
                game.id
            ),
        };
        problems.push(
            at(
                Diagnostic::error(format!(
                    "`{key} = \"{}\"`: the game has no such font",
                    v.get_ref()
                )),
                v.span(),
            )
            .hint(hint),
        );
        default.to_string()
    };
    let body = family("font", &def.font, crate::fonts::DEFAULT_FAMILY);
    let heading = family("heading_font", &def.heading_font, &body);
    let size = match &def.size {
        None => DEFAULT_SIZE_PT / PT_PER_MM,
        Some(s) => match parse_length(s.get_ref()) {
            Ok(mm) if (SIZES_PT.0..=SIZES_PT.1).contains(&(mm * PT_PER_MM)) => mm,
            Ok(_) => {
                problems.push(
                    at(
                        Diagnostic::error(format!(
                            "`size = \"{}\"`: body text is set between {} and {} pt",
                            s.get_ref(),
                            SIZES_PT.0,
                            SIZES_PT.1
                        )),
                        s.span(),
                    )
                    .hint("write a size such as `size = \"9.5pt\"`"),
                );
                DEFAULT_SIZE_PT / PT_PER_MM
            }
            Err(e) => {
                problems.push(
                    at(Diagnostic::error(e.to_string()), s.span())
                        .hint("write a size such as `size = \"9.5pt\"`"),
                );
                DEFAULT_SIZE_PT / PT_PER_MM
            }
        },
    };
    let language = game.meta.language.clone().unwrap_or_else(|| "en".into());
    let lang = language_of(&language);
    if lang.is_none() && !is_code(&language) {
        let span = game.text.find("language").map(|s| s..s + "language".len());
        problems.push(
            Diagnostic::error(format!(
                "`language = \"{language}\"` is not a two-letter language code"
            ))
            .at(&game.file, span)
            .with("game", &game.id)
            .hint("write the ISO 639-1 code of the game's language: `en`, `de`, `fr`, `es`, `it`, `nl`..."),
        );
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Settings {
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
        lang,
        language,
    })
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
