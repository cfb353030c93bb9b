//! Print profiles: how a game's parts leave the tool for one way of printing (home
//! sheets, gutterfold, a print shop's per-face files, Tabletop Simulator). Each is a
//! data file `profiles/<id>.toml`, so a new shop is a new file, not new code.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::diag::{did_you_mean, Diagnostic, Reported};
use crate::model::layout::Request;
use crate::model::load::{file_error, Shop};
use crate::model::toml_problems;
use crate::model::{Kind, LayoutDef, Size};
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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    profile: Head,
    #[serde(default)]
    sizes: BTreeMap<String, toml::Spanned<[String; 2]>>,
    #[serde(default)]
    layout: Option<toml::Spanned<LayoutFile>>,
}

/// `[layout]`: an orientation and a gutter for every part printed on sheets, and
/// a table per kind (`[layout.card]`) with a grid too.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct LayoutFile {
    #[serde(default)]
    grid: Option<toml::Spanned<String>>,
    #[serde(default)]
    orientation: Option<toml::Spanned<String>>,
    #[serde(default)]
    gutter: Option<toml::Spanned<String>>,
    #[serde(default)]
    card: Option<LayoutDef>,
    #[serde(default)]
    chit: Option<LayoutDef>,
    #[serde(default)]
    token: Option<LayoutDef>,
    #[serde(default)]
    money: Option<LayoutDef>,
    #[serde(default)]
    aid: Option<LayoutDef>,
    #[serde(default)]
    screen: Option<LayoutDef>,
    #[serde(default)]
    pad: Option<LayoutDef>,
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
    /// Face PDFs of every part at its own size with this bleed (no `[sizes]`).
    #[serde(default)]
    bleed: Option<toml::Spanned<String>>,
    #[serde(default)]
    pdfx: Option<toml::Spanned<String>>,
    #[serde(default)]
    condition: Option<toml::Spanned<String>>,
    #[serde(default)]
    ink_limit: Option<toml::Spanned<f64>>,
    #[serde(default)]
    rich_black: Option<toml::Spanned<[f64; 4]>>,
    #[serde(default)]
    black_text: Option<toml::Spanned<String>>,
    #[serde(default)]
    small_print: Option<toml::Spanned<String>>,
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
    /// `[layout]`: the sheet layout of every kind, then of each kind named.
    pub layout: Layouts,
    /// A shop that makes every part at its own size: the bleed around each, in mm
    /// (`bleed`; face PDFs without `[sizes]`).
    pub bleed: Option<f64>,
    /// Print colour (`color = "cmyk"` and its keys): the PDFs are CMYK for the
    /// profile's printing condition.
    pub print: Option<crate::color::PrintColor>,
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
            path: FilePattern::default_pattern(),
            back_first: false,
            color: PngColor::Rgba,
            sizes: BTreeMap::new(),
            printer_margin: crate::layout::DEFAULT_PRINTER_MARGIN,
            layout: Default::default(),
            bleed: None,
            print: None,
            small_text: Default::default(),
        }
    }

    /// The sheet layout the profile asks of parts of `kind`: its `[layout.<kind>]`
    /// over its `[layout]`.
    pub fn layout(&self, kind: Kind) -> Request {
        let (all, kinds) = &self.layout;
        kinds
            .iter()
            .find(|(k, _)| *k == kind)
            .map_or(*all, |(_, r)| r.over(*all))
    }

    /// The shop's products, when the profile makes a shop's per-face files: every
    /// part then takes the shop's bleed, and sets it does not make are left out.
    pub fn shop(&self) -> Option<Shop<'_>> {
        matches!(self.output, Output::FacePng | Output::FacePdf).then_some(Shop {
            name: &self.name,
            id: &self.id,
            products: &self.sizes,
            bleed: self.bleed,
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
pub fn for_game(project: &Project, game: &str, asked: Option<&str>) -> Reported<Option<Profile>> {
    let id = asked
        .map(String::from)
        .or_else(|| crate::model::default_profile(project, game))
        .unwrap_or_else(|| "home".into());
    let mut loaded = load(project, &id);
    let named = || named_in_game(project, game).filter(|_| asked.is_none());
    if let (None, Some((file, span))) = (&loaded.value, named()) {
        let items = std::mem::take(&mut loaded.diags.items);
        let at_name = |d: Diagnostic| match d.file {
            None => d.at(&file, Some(span.clone())),
            Some(_) => d,
        };
        loaded.diags.items = items.into_iter().map(at_name).collect();
    }
    loaded
}

/// Loads `profiles/<id>.toml` (`home` falls back to the built-in default).
/// Every problem of the file is an error (a file with several says them all);
/// the profile is `None` when there is one.
pub fn load(project: &Project, id: &str) -> Reported<Option<Profile>> {
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
            return Some(Profile::home()).into();
        }
        let mut ids = available(project);
        if !ids.iter().any(|i| i == "home") {
            ids.insert(0, "home".into());
        }
        let hint = match did_you_mean(id, ids.iter().map(String::as_str)) {
            Some(m) => format!("did you mean `{m}`?"),
            None => format!("profiles: {} (files in profiles/)", ids.join(", ")),
        };
        let missing = Diagnostic::error(format!("there is no print profile `{id}`")).hint(hint);
        return Reported::new(None, [missing]);
    }
    let text = match project.read_text(&rel, MAX_PROFILE_BYTES) {
        Ok(text) => text,
        Err(e) => return Reported::new(None, [file_error(&e)]),
    };
    let file: File = match toml_problems::parse(&text, &keys()) {
        Ok(file) => file,
        Err(e) => {
            let problems = e.problems.iter();
            let diags =
                problems.map(|p| toml_problems::diagnostic(&rel, id, p).with("profile", id));
            return Reported::new(None, diags);
        }
    };
    match from_file(file, id, &rel) {
        Ok(profile) => Some(profile).into(),
        Err(d) => Reported::new(None, [d]),
    }
}

/// A profile from its file's values, each checked (the first problem is an error
/// at its value).
///
/// The keywords (`output`, `order`, `color`, `black_text`, `small_print`) and
/// lengths are read here, not by serde enums and a length type in the schema:
/// serde would say "unknown variant" among the file's type errors, without the
/// hint each of these gives (`docs/reference.md` and the fixtures hold them).
fn from_file(file: File, id: &str, rel: &Path) -> Result<Profile, Diagnostic> {
    let at = |KeyError(d, span): KeyError| d.at(rel, Some(span)).with("profile", id);
    let h = &file.profile;
    let output = keyword(&h.output, &OUTPUTS, "unknown profile output", None).map_err(at)?;
    let safe = h.safe.as_ref().map_or(Ok(3.0), length).map_err(at)?;
    let printer_margin = printer_margin(h).map_err(at)?;
    let back_first = match &h.order {
        None => false,
        Some(o) => keyword(
            o,
            &ORDERS,
            "unknown order",
            Some("use front-back or back-front"),
        )
        .map_err(at)?,
    };
    let (color, print) = colors(h, output).map_err(at)?;
    let bleed = bleed(h, output, !file.sizes.is_empty()).map_err(at)?;
    let dpi = dpi(h).map_err(at)?;
    let path = match &h.path {
        None => FilePattern::default_pattern(),
        Some(p) => FilePattern::parse(p.get_ref(), Some((rel.to_path_buf(), p.span())))
            .map_err(|d| d.with("profile", id))?,
    };
    let sizes = sizes(&file.sizes).map_err(at)?;
    let layout = match &file.layout {
        None => Default::default(),
        Some(l) => layout(l).map_err(|(d, span)| at(KeyError(d, span)))?,
    };
    Ok(Profile {
        layout,
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
        bleed,
        print,
        small_text: Default::default(),
    })
}

/// The words of `output` and what each writes.
const OUTPUTS: [(&str, Output); 5] = [
    ("sheets", Output::Sheets),
    ("gutterfold", Output::Gutterfold),
    ("face-png", Output::FacePng),
    ("face-pdf", Output::FacePdf),
    ("tts", Output::Tts),
];

/// The words of `order`: whether the back comes first.
const ORDERS: [(&str, bool); 2] = [("front-back", false), ("back-front", true)];

/// The words of a PNG `color` (`cmyk` is read apart: [`colors`]).
const PNG_COLORS: [(&str, PngColor); 2] = [("rgba", PngColor::Rgba), ("rgb", PngColor::Rgb)];

/// The value `words` gives the word `v`, else "`what` `v`" at it, with `hint`
/// (default: the words).
fn keyword<T: Copy>(
    v: &toml::Spanned<String>,
    words: &[(&str, T)],
    what: &str,
    hint: Option<&str>,
) -> Result<T, KeyError> {
    match words.iter().find(|(w, _)| *w == v.get_ref()) {
        Some((_, t)) => Ok(*t),
        None => {
            let names: Vec<&str> = words.iter().map(|(w, _)| *w).collect();
            let hint =
                hint.map_or_else(|| format!("use one of: {}", names.join(", ")), String::from);
            Err(key_error(
                format!("{what} `{}`", v.get_ref()),
                v.span(),
                &hint,
            ))
        }
    }
}

/// A length in a profile (`"3mm"`, `"0.125in"`), in mm.
fn length(v: &toml::Spanned<String>) -> Result<f64, KeyError> {
    parse_length(v.get_ref()).map_err(|e| KeyError(Diagnostic::error(e.to_string()), v.span()))
}

/// `printer_margin`: 0 to [`MAX_PRINTER_MARGIN`] mm, default 4.2 mm.
fn printer_margin(h: &Head) -> Result<f64, KeyError> {
    let Some(m) = &h.printer_margin else {
        return Ok(crate::layout::DEFAULT_PRINTER_MARGIN);
    };
    let v = length(m)?;
    if !(0.0..=MAX_PRINTER_MARGIN).contains(&v) {
        return Err(key_error(
            format!(
                "printer_margin {} mm is outside 0..{MAX_PRINTER_MARGIN} mm",
                crate::units::fmt_num(v)
            ),
            m.span(),
            "laser printers leave about 4.2mm blank at each edge, inkjets about 3mm",
        ));
    }
    Ok(v)
}

/// `color` and the print colour keys: how PNGs store colour, and the CMYK a
/// `color = "cmyk"` profile prints in.
fn colors(
    h: &Head,
    output: Output,
) -> Result<(PngColor, Option<crate::color::PrintColor>), KeyError> {
    let Some(c) = &h.color else {
        no_print_keys(h)?;
        return Ok((PngColor::Rgba, None));
    };
    if c.get_ref() == "cmyk" {
        // A CMYK shop's PNGs (a proof) have no alpha channel.
        return Ok((PngColor::Rgb, Some(print_color(h, output, c.span())?)));
    }
    let hint = "use rgb (PNGs without an alpha channel, flattened onto white), rgba, or cmyk (PDFs for a print shop's printing condition)";
    let color = keyword(c, &PNG_COLORS, "unknown colour", Some(hint))?;
    no_print_keys(h)?;
    Ok((color, None))
}

/// `bleed`: for face PDFs of every part at its own size (no `[sizes]`), 0 to 20 mm.
fn bleed(h: &Head, output: Output, has_sizes: bool) -> Result<Option<f64>, KeyError> {
    let Some(b) = &h.bleed else {
        return Ok(None);
    };
    let v = length(b)?;
    if output != Output::FacePdf || has_sizes || !(0.0..=20.0).contains(&v) {
        return Err(key_error(
            "`bleed` is for face PDFs of every part at its own size, 0 to 20 mm",
            b.span(),
            "use it with output = \"face-pdf\" and no [sizes]; a shop with products gives their full sizes in [sizes]",
        ));
    }
    Ok(Some(v))
}

/// `dpi`: within [`crate::units::FILE_DPI`], default 300.
fn dpi(h: &Head) -> Result<f64, KeyError> {
    match &h.dpi {
        None => Ok(300.0),
        Some(d) if crate::units::FILE_DPI.contains(d.get_ref()) => Ok(*d.get_ref()),
        Some(d) => {
            let (lo, hi) = crate::units::FILE_DPI.into_inner();
            Err(key_error(
                format!("profile dpi {} is outside {lo}..{hi}", d.get_ref()),
                d.span(),
                "print shops ask for 300 dpi",
            ))
        }
    }
}

/// `[sizes]`: each part size's full size at the shop, at least the part's.
fn sizes(
    sizes: &BTreeMap<String, toml::Spanned<[String; 2]>>,
) -> Result<BTreeMap<String, Size>, KeyError> {
    let mut out = BTreeMap::new();
    for (name, v) in sizes {
        let [w, h] = v.get_ref();
        let length = |t: &str| {
            parse_length(t).map_err(|e| KeyError(Diagnostic::error(e.to_string()), v.span()))
        };
        let (width, height) = (length(w)?, length(h)?);
        let Some(trim) = Size::named(name) else {
            return Err(key_error(
                format!("unknown part size `{name}`"),
                v.span(),
                "use a size name cardstock knows (docs/reference.md, Sizes)",
            ));
        };
        if width < trim.width || height < trim.height {
            return Err(key_error(
                format!(
                    "size {name}: the shop's full size is smaller than the part ({} x {} mm)",
                    trim.width, trim.height
                ),
                v.span(),
                "give the full size with bleed, e.g. poker = [\"2.75in\", \"3.75in\"]",
            ));
        }
        out.insert(name.clone(), Size { width, height });
    }
    Ok(out)
}

/// A problem with a profile key: the message and where.
struct KeyError(Diagnostic, std::ops::Range<usize>);

fn key_error(msg: impl Into<String>, span: std::ops::Range<usize>, hint: &str) -> KeyError {
    KeyError(Diagnostic::error(msg.into()).hint(hint.to_string()), span)
}

/// Print colour keys in a profile that is not `color = "cmyk"`: an error at the
/// first.
fn no_print_keys(h: &Head) -> Result<(), KeyError> {
    let spans = [
        ("pdfx", h.pdfx.as_ref().map(|v| v.span())),
        ("condition", h.condition.as_ref().map(|v| v.span())),
        ("ink_limit", h.ink_limit.as_ref().map(|v| v.span())),
        ("rich_black", h.rich_black.as_ref().map(|v| v.span())),
        ("black_text", h.black_text.as_ref().map(|v| v.span())),
        ("small_print", h.small_print.as_ref().map(|v| v.span())),
    ];
    match spans.into_iter().find_map(|(k, s)| s.map(|s| (k, s))) {
        Some((key, span)) => Err(key_error(
            format!("`{key}` is a key of a CMYK profile, and this one is not"),
            span,
            "add color = \"cmyk\" (and a condition), or remove the key",
        )),
        None => Ok(()),
    }
}

/// The print colour a `color = "cmyk"` profile asks for (`color_span`: where it
/// says so).
fn print_color(
    h: &Head,
    output: Output,
    color_span: std::ops::Range<usize>,
) -> Result<crate::color::PrintColor, KeyError> {
    use crate::color::{BlackText, Pdfx, PrintColor};
    if output != Output::FacePdf {
        return Err(key_error(
            "CMYK is written into face PDFs only",
            color_span,
            "use output = \"face-pdf\" with color = \"cmyk\"",
        ));
    }
    let condition = condition(h, color_span)?;
    let pdfx = match &h.pdfx {
        None => None,
        Some(p) => Some(Pdfx::parse(p.get_ref()).ok_or_else(|| {
            key_error(
                format!("unknown PDF/X standard `{}`", p.get_ref()),
                p.span(),
                &format!("use one of: {}", Pdfx::NAMES.join(", ")),
            )
        })?),
    };
    let ink_limit = ink_limit(h, condition)?;
    let rich_black = rich_black(h, ink_limit)?;
    let black_text = match &h.black_text {
        None => BlackText::K,
        Some(b) => keyword(
            b,
            &[("k", BlackText::K), ("process", BlackText::Process)],
            "unknown black_text",
            Some("use k (black and grey text and thin lines on the black plate alone) or process"),
        )?,
    };
    let small_print_is_error = match &h.small_print {
        None => false,
        Some(b) => keyword(
            b,
            &[("warn", false), ("error", true)],
            "unknown small_print",
            Some("use warn or error"),
        )?,
    };
    Ok(PrintColor {
        condition,
        pdfx,
        ink_limit,
        rich_black,
        black_text,
        small_print_is_error,
    })
}

/// `condition`: the printing condition a CMYK profile names (required).
fn condition(
    h: &Head,
    color_span: std::ops::Range<usize>,
) -> Result<&'static crate::color::Condition, KeyError> {
    use crate::color::{Condition, CONDITIONS};
    let names: Vec<&str> = CONDITIONS.iter().map(|c| c.name).collect();
    let Some(c) = &h.condition else {
        return Err(key_error(
            "a CMYK profile names its printing condition",
            color_span,
            &format!(
                "add condition = \"{}\" (one of: {})",
                names[0],
                names.join(", ")
            ),
        ));
    };
    Condition::named(c.get_ref()).ok_or_else(|| {
        key_error(
            format!(
                "cardstock has no ICC profile for the printing condition `{}`",
                c.get_ref()
            ),
            c.span(),
            &format!("use one of: {}", names.join(", ")),
        )
    })
}

/// `ink_limit`: 150 to 400 %, default the condition's.
fn ink_limit(h: &Head, condition: &crate::color::Condition) -> Result<f64, KeyError> {
    match &h.ink_limit {
        None => Ok(f64::from(condition.built_limit)),
        Some(l) if (150.0..=400.0).contains(l.get_ref()) => Ok(*l.get_ref()),
        Some(l) => Err(key_error(
            format!("ink_limit {} % is outside 150..400 %", l.get_ref()),
            l.span(),
            "print shops give a total ink limit of 240 % to 340 %",
        )),
    }
}

/// `rich_black`: four inks of 0 to 100 % within the ink limit.
fn rich_black(h: &Head, ink_limit: f64) -> Result<Option<crate::color::Cmyk>, KeyError> {
    let Some(r) = &h.rich_black else {
        return Ok(None);
    };
    let v = *r.get_ref();
    let total: f64 = v.iter().sum();
    if v.iter().any(|c| !(0.0..=100.0).contains(c)) || total > ink_limit {
        return Err(key_error(
            format!(
                "rich_black [{}] is not four inks of 0 to 100 % within the ink limit ({} %)",
                v.map(crate::units::fmt_num).join(", "),
                crate::units::fmt_num(ink_limit)
            ),
            r.span(),
            "give cyan, magenta, yellow and black in percent, e.g. [60, 40, 40, 100]",
        ));
    }
    Ok(Some(crate::color::Cmyk::from_percent(v)))
}

/// A profile's sheet layouts: for every kind, and for each kind it names.
pub type Layouts = (Request, Vec<(Kind, Request)>);

/// Reads a profile's `[layout]`: a problem with the span it is at.
fn layout(l: &toml::Spanned<LayoutFile>) -> Result<Layouts, (Diagnostic, std::ops::Range<usize>)> {
    let f = l.get_ref();
    let bad = |(e, span): (crate::layout::RequestError, std::ops::Range<usize>)| {
        (Diagnostic::error(e.to_string()).hint(e.hint()), span)
    };
    if let Some(g) = &f.grid {
        return Err((
            Diagnostic::error("a grid in a profile is for one kind of part")
                .hint("write it in the kind's table: [layout.card] grid = \"3x3\""),
            g.span(),
        ));
    }
    let all = crate::model::layout::read(&LayoutDef {
        grid: None,
        orientation: f.orientation.clone(),
        gutter: f.gutter.clone(),
    })
    .map_err(bad)?;
    let tables = [
        (Kind::Card, &f.card),
        (Kind::Chit, &f.chit),
        (Kind::Token, &f.token),
        (Kind::Money, &f.money),
        (Kind::Aid, &f.aid),
        (Kind::Screen, &f.screen),
        (Kind::Pad, &f.pad),
    ];
    let mut kinds = Vec::new();
    for (kind, def) in tables {
        let Some(def) = def else { continue };
        let r = crate::model::layout::read(def).map_err(bad)?;
        if let Some((_, why)) = crate::model::layout::unfit(&r, kind) {
            let span = def.grid.as_ref().map_or(l.span(), |g| g.span());
            return Err((
                Diagnostic::error(why).hint(format!("remove `grid` from [layout.{kind}]")),
                span,
            ));
        }
        kinds.push((kind, r));
    }
    Ok((all, kinds))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error of a profile whose `[profile]` table is `head`: its message,
    /// hint and the text it points at.
    fn refused(head: &str) -> (String, Option<String>, String) {
        let text = format!("[profile]\nname = \"Shop\"\n{head}\n");
        let mut files = crate::source::MemoryFiles::new();
        files.insert("profiles/shop.toml", text.clone());
        let loaded = load(&Project::new(files), "shop");
        assert!(loaded.value.is_none(), "{head}");
        let d = &loaded.diags.items[0];
        let at = d
            .span
            .clone()
            .map_or(String::new(), |s| text[s].to_string());
        (d.message.clone(), d.hint.clone(), at)
    }

    #[test]
    fn each_keyword_and_length_is_refused_at_its_value_with_a_hint() {
        let (m, h, at) = refused("output = \"poster\"");
        assert_eq!(m, "unknown profile output `poster`");
        assert_eq!(
            h.as_deref(),
            Some("use one of: sheets, gutterfold, face-png, face-pdf, tts")
        );
        assert_eq!(at, "\"poster\"");
        let (m, h, _) = refused("output = \"sheets\"\norder = \"up\"");
        assert_eq!(m, "unknown order `up`");
        assert_eq!(h.as_deref(), Some("use front-back or back-front"));
        let (m, _, _) = refused("output = \"sheets\"\ncolor = \"cmy\"");
        assert_eq!(m, "unknown colour `cmy`");
        let (m, h, _) = refused("output = \"face-pdf\"\ncolor = \"cmyk\"\ncondition = \"FOGRA39\"\nblack_text = \"rich\"");
        assert_eq!(m, "unknown black_text `rich`");
        assert_eq!(
            h.as_deref(),
            Some("use k (black and grey text and thin lines on the black plate alone) or process")
        );
        let (m, _, at) = refused("output = \"sheets\"\nsafe = \"3\"");
        assert_eq!(m, crate::units::LengthError::NoUnit("3".into()).to_string());
        assert_eq!(at, "\"3\"");
        let (m, _, _) = refused("output = \"sheets\"\nsmall_print = \"warn\"");
        assert_eq!(
            m,
            "`small_print` is a key of a CMYK profile, and this one is not"
        );
    }
}
