//! Print profiles: how a game's parts leave the tool for one way of printing (home
//! sheets, gutterfold, a print shop's per-face files, Tabletop Simulator). Each is a
//! data file `profiles/<id>.toml`, so a new shop is a new file, not new code.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::diag::{did_you_mean, Diagnostic};
use crate::model::load::{file_error, toml_error, Shop};
use crate::model::Size;
use crate::project::{Project, MAX_PROFILE_BYTES};
use crate::units::parse_length;

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
    path: Option<String>,
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
    /// File name pattern for per-face files: `{component}`, `{number}`, `{side}`.
    pub path: String,
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
    /// The least text sizes preflight lets through (6 pt, light text on colour
    /// 7 pt), and whether a smaller text is a warning (the default) or an error.
    pub small_text: SmallText,
}

/// The least text sizes preflight lets through (`preflight::text_size`), and
/// what a smaller text is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SmallText {
    /// Least size of dark text, in points (6 pt: the smallest type most players
    /// read at arm's length on a table).
    pub min_pt: f64,
    /// Least size of light text (relative luminance of its fill at least
    /// [`SmallText::light`]), in points.
    pub min_light_pt: f64,
    /// The relative luminance (0 black, 1 white) from which a fill counts as light.
    pub light: f64,
    /// A warning (the default) or an error that stops the build.
    pub severity: crate::model::Severity,
}

impl Default for SmallText {
    fn default() -> Self {
        SmallText {
            min_pt: 6.0,
            min_light_pt: 7.0,
            light: 0.5,
            severity: crate::model::Severity::Warn,
        }
    }
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
            path: "{component}/{number}-{side}.png".into(),
            back_first: false,
            color: PngColor::Rgba,
            sizes: BTreeMap::new(),
            printer_margin: crate::layout::DEFAULT_PRINTER_MARGIN,
            small_text: Default::default(),
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

/// Loads `profiles/<id>.toml` (`home` falls back to the built-in default).
pub fn load(project: &Project, id: &str) -> Result<Profile, Diagnostic> {
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
        return Err(Diagnostic::error(format!("there is no print profile `{id}`")).hint(hint));
    }
    let text = project
        .read_text(&rel, MAX_PROFILE_BYTES)
        .map_err(|e| file_error(&e))?;
    let file: File = toml::from_str(&text).map_err(|e| toml_error(&rel, id, &e))?;
    let at = |d: Diagnostic, span| d.at(&rel, Some(span)).with("profile", id);
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
        path: file
            .profile
            .path
            .unwrap_or_else(|| "{component}/{number}-{side}.png".into()),
        back_first,
        color,
        sizes,
        printer_margin,
        small_text: Default::default(),
    })
}
