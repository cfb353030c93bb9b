//! Print profiles: how a game's parts leave the tool for one way of printing (home
//! sheets, gutterfold, a print shop's per-face files, Tabletop Simulator). Each is a
//! data file `profiles/<id>.toml`, so a new shop is a new file, not new code.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::diag::{did_you_mean, Diagnostic};
use crate::model::load::{file_error, Shop};
use crate::model::toml_problems;
use crate::model::Size;
use crate::project::{Project, MAX_PROFILE_BYTES};
use crate::units::parse_length;

pub mod pattern;

pub use pattern::FilePattern;

/// What a profile writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// Print-and-play sheets (PDF) with marks and mirrored duplex backs.
    Sheets,
    /// One-sided sheets: a front above its back turned 180 degrees, fold line between.
    Gutterfold,
    /// One PNG per face at the shop's exact pixel size.
    FacePng,
    /// One face per PDF page at the shop's page size.
    FacePdf,
    /// Tabletop Simulator deck sheets, back images, token PNGs and a saved object.
    Tts,
}

impl Output {
    const NAMES: [&'static str; 5] = ["sheets", "gutterfold", "face-png", "face-pdf", "tts"];

    fn parse(s: &str) -> Option<Output> {
        Some(match s {
            "sheets" => Output::Sheets,
            "gutterfold" => Output::Gutterfold,
            "face-png" => Output::FacePng,
            "face-pdf" => Output::FacePdf,
            "tts" => Output::Tts,
            _ => return None,
        })
    }
}

/// How a PNG file stores colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PngColor {
    /// Red, green, blue and alpha (transparent where nothing is drawn).
    #[default]
    Rgba,
    /// Red, green and blue only, flattened onto white: for a shop that refuses an
    /// alpha channel.
    Rgb,
}

impl PngColor {
    fn parse(s: &str) -> Option<PngColor> {
        match s {
            "rgba" => Some(PngColor::Rgba),
            "rgb" => Some(PngColor::Rgb),
            _ => None,
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    profile: Head,
    #[serde(default)]
    sizes: BTreeMap<String, toml::Spanned<[String; 2]>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Head {
    name: String,
    output: toml::Spanned<String>,
    #[serde(default)]
    dpi: Option<toml::Spanned<f64>>,
    #[serde(default)]
    safe: Option<toml::Spanned<String>>,
    #[serde(default)]
    path: Option<toml::Spanned<String>>,
    #[serde(default)]
    order: Option<toml::Spanned<String>>,
    #[serde(default)]
    color: Option<toml::Spanned<String>>,
    #[serde(default)]
    printer_margin: Option<toml::Spanned<String>>,
}

/// A loaded profile.
#[derive(Debug, Clone)]
pub struct Profile {
    /// File stem: `thegamecrafter`. Also the output sub-folder.
    pub id: String,
    pub name: String,
    pub output: Output,
    /// Raster resolution.
    pub dpi: f64,
    /// Safe zone inside the trim, in mm (preflight warns about text outside it).
    pub safe: f64,
    /// File name pattern for per-face files: `{component}`, `{number}`, `{side}`,
    /// `{id}` and the fields of a face's row.
    pub path: FilePattern,
    /// Face PDFs: back before front.
    pub back_first: bool,
    /// How PNG files store colour (`color = "rgb"` for a shop that refuses an
    /// alpha channel; default `rgba`).
    pub color: PngColor,
    /// Full face size (bleed included) per part size name, in mm.
    pub sizes: BTreeMap<String, Size>,
    /// The edge of the paper a home printer leaves blank, in mm (`printer_margin`,
    /// default 4.2 mm): sheets keep every mark and label inside it.
    pub printer_margin: f64,
}

/// The largest printer margin a profile or `--printer-margin` may give, in mm.
pub const MAX_PRINTER_MARGIN: f64 = 15.0;

impl Profile {
    /// The built-in default when a project has no `profiles/home.toml`.
    pub fn home() -> Profile {
        Profile {
            id: "home".into(),
            name: "Home print-and-play".into(),
            output: Output::Sheets,
            dpi: 300.0,
            safe: 3.0,
            path: FilePattern::default_pattern(),
            back_first: false,
            color: PngColor::Rgba,
            sizes: BTreeMap::new(),
            printer_margin: crate::layout::DEFAULT_PRINTER_MARGIN,
        }
    }

    /// The shop's products, when the profile makes a shop's per-face files: every
    /// part then takes the shop's bleed, and sets it does not make are left out.
    pub fn shop(&self) -> Option<Shop<'_>> {
        matches!(self.output, Output::FacePng | Output::FacePdf).then_some(Shop {
            name: &self.name,
            id: &self.id,
            products: &self.sizes,
        })
    }
}

/// The keys of a profile file, from its serde schema: `("", [profile], [sizes])`
/// and `("profile", keys of [profile])` (the reference documents each).
pub fn keys() -> Vec<(&'static str, &'static [&'static str])> {
    vec![
        ("", crate::model::schema::fields::<File>()),
        ("profile", crate::model::schema::fields::<Head>()),
    ]
}

/// Every profile id in `profiles/`, sorted.
pub fn available(project: &Project) -> Vec<String> {
    project
        .list(Path::new("profiles"))
        .unwrap_or_default()
        .into_iter()
        .filter_map(|e| e.name.strip_suffix(".toml").map(String::from))
        .collect()
}

/// Where `data/<game>/game.toml` names its default profile (`[game] profile`), if
/// it does: the file and the byte range of the name.
pub fn named_in_game(project: &Project, game: &str) -> Option<(PathBuf, std::ops::Range<usize>)> {
    #[derive(Deserialize)]
    struct GameFile {
        game: GameTable,
    }
    #[derive(Deserialize)]
    struct GameTable {
        profile: Option<toml::Spanned<String>>,
    }
    let file = Path::new("data").join(game).join("game.toml");
    let text = project
        .read_text(&file, crate::project::MAX_DATA_BYTES)
        .ok()?;
    let parsed: GameFile = toml::from_str(&text).ok()?;
    Some((file, parsed.game.profile?.span()))
}

/// The profile a build of `game` uses: `asked` (`--profile`), else the game's
/// `[game] profile`, else `home`. A profile the game names that does not exist
/// is an error at that line of its `game.toml`.
pub fn for_game(
    project: &Project,
    game: &str,
    asked: Option<&str>,
) -> Result<Profile, Vec<Diagnostic>> {
    let id = asked
        .map(String::from)
        .or_else(|| crate::model::default_profile(project, game))
        .unwrap_or_else(|| "home".into());
    load(project, &id).map_err(|ds| {
        let named = named_in_game(project, game).filter(|_| asked.is_none());
        ds.into_iter()
            .map(|d| match &named {
                Some((file, span)) if d.file.is_none() => d.at(file, Some(span.clone())),
                _ => d,
            })
            .collect()
    })
}

/// Loads `profiles/<id>.toml` (`home` falls back to the built-in default).
/// Every problem of the file is an error (a file with several says them all).
pub fn load(project: &Project, id: &str) -> Result<Profile, Vec<Diagnostic>> {
    let rel = PathBuf::from("profiles").join(format!("{id}.toml"));
    let missing = match crate::project::check_name(id) {
        Err(_) => true,
        // A file that is there but cannot be read (a link out of the project, a
        // FIFO) is reported as such by the read below.
        Ok(()) => {
            project.kind(&rel).is_none()
                && project
                    .read(&rel, 0)
                    .is_err_and(|e| matches!(e, crate::source::FileError::NotFound { .. }))
        }
    };
    if missing {
        if id == "home" {
            return Ok(Profile::home());
        }
        let mut ids = available(project);
        if !ids.iter().any(|i| i == "home") {
            ids.insert(0, "home".into());
        }
        let hint = match did_you_mean(id, ids.iter().map(String::as_str)) {
            Some(m) => format!("did you mean `{m}`?"),
            None => format!("profiles: {} (files in profiles/)", ids.join(", ")),
        };
        return Err(vec![Diagnostic::error(format!(
            "there is no print profile `{id}`"
        ))
        .hint(hint)]);
    }
    let text = project
        .read_text(&rel, MAX_PROFILE_BYTES)
        .map_err(|e| vec![file_error(&e)])?;
    let file: File = toml_problems::parse(&text, &keys()).map_err(|e| {
        e.problems
            .iter()
            .map(|p| toml_problems::diagnostic(&rel, id, p).with("profile", id))
            .collect::<Vec<_>>()
    })?;
    from_file(file, id, &rel).map_err(|d| vec![d])
}

/// A profile from its file's values, each checked (the first problem is an error
/// at its value).
fn from_file(file: File, id: &str, rel: &Path) -> Result<Profile, Diagnostic> {
    let at = |d: Diagnostic, span| d.at(rel, Some(span)).with("profile", id);
    let output = Output::parse(file.profile.output.get_ref()).ok_or_else(|| {
        at(
            Diagnostic::error(format!(
                "unknown profile output `{}`",
                file.profile.output.get_ref()
            )),
            file.profile.output.span(),
        )
        .hint(format!("use one of: {}", Output::NAMES.join(", ")))
    })?;
    let safe = match &file.profile.safe {
        None => 3.0,
        Some(s) => {
            parse_length(s.get_ref()).map_err(|e| at(Diagnostic::error(e.to_string()), s.span()))?
        }
    };
    let printer_margin = match &file.profile.printer_margin {
        None => crate::layout::DEFAULT_PRINTER_MARGIN,
        Some(m) => {
            let v = parse_length(m.get_ref())
                .map_err(|e| at(Diagnostic::error(e.to_string()), m.span()))?;
            if !(0.0..=MAX_PRINTER_MARGIN).contains(&v) {
                return Err(at(
                    Diagnostic::error(format!(
                        "printer_margin {} mm is outside 0..{MAX_PRINTER_MARGIN} mm",
                        crate::units::fmt_num(v)
                    )),
                    m.span(),
                )
                .hint("laser printers leave about 4.2mm blank at each edge, inkjets about 3mm"));
            }
            v
        }
    };
    let back_first = match &file.profile.order {
        None => false,
        Some(o) if o.get_ref() == "back-front" => true,
        Some(o) if o.get_ref() == "front-back" => false,
        Some(o) => {
            return Err(at(
                Diagnostic::error(format!("unknown order `{}`", o.get_ref())),
                o.span(),
            )
            .hint("use front-back or back-front"))
        }
    };
    let color = match &file.profile.color {
        None => PngColor::Rgba,
        Some(c) => PngColor::parse(c.get_ref()).ok_or_else(|| {
            at(
                Diagnostic::error(format!("unknown PNG colour `{}`", c.get_ref())),
                c.span(),
            )
            .hint("use rgb (no alpha channel, flattened onto white) or rgba")
        })?,
    };
    let dpi = match &file.profile.dpi {
        None => 300.0,
        Some(d) if (10.0..=2400.0).contains(d.get_ref()) => *d.get_ref(),
        Some(d) => {
            return Err(at(
                Diagnostic::error(format!("profile dpi {} is outside 10..2400", d.get_ref())),
                d.span(),
            )
            .hint("print shops ask for 300 dpi"))
        }
    };
    let path = match &file.profile.path {
        None => FilePattern::default_pattern(),
        Some(p) => FilePattern::parse(p.get_ref(), Some((rel.to_path_buf(), p.span())))
            .map_err(|d| d.with("profile", id))?,
    };
    let mut sizes = BTreeMap::new();
    for (name, v) in &file.sizes {
        let [w, h] = v.get_ref();
        let w = parse_length(w).map_err(|e| at(Diagnostic::error(e.to_string()), v.span()))?;
        let h = parse_length(h).map_err(|e| at(Diagnostic::error(e.to_string()), v.span()))?;
        if let Some(trim) = Size::named(name) {
            if w < trim.width || h < trim.height {
                return Err(at(
                    Diagnostic::error(format!(
                        "size {name}: the shop's full size is smaller than the part ({} x {} mm)",
                        trim.width, trim.height
                    )),
                    v.span(),
                )
                .hint("give the full size with bleed, e.g. poker = [\"2.75in\", \"3.75in\"]"));
            }
        } else {
            return Err(at(
                Diagnostic::error(format!("unknown part size `{name}`")),
                v.span(),
            )
            .hint("use a size name cardstock knows (see README)"));
        }
        sizes.insert(
            name.clone(),
            Size {
                width: w,
                height: h,
            },
        );
    }
    Ok(Profile {
        id: id.to_string(),
        name: file.profile.name,
        output,
        dpi,
        safe,
        path,
        back_first,
        color,
        sizes,
        printer_margin,
    })
}
