//! The build options as a command asks for them, resolved once: the words of the
//! command line ([`Asked`]) checked into what every game of the run shares
//! ([`Resolved`]), then each game's [`Options`] with its print profile
//! ([`Resolved::for_game`]). `build`, `watch`, `printed`, `reprint`, `serve` and the
//! live preview all go through here, so a paper, a profile or a resolution means
//! the same, and is refused with the same words, in each.

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Reported};
use crate::project::Project;
use crate::units::{FILE_DPI, PREVIEW_DPI};

use super::{paper_named, url_join, url_path, Options};

/// What the pictures of a run are for, which bounds the resolution it may ask.
///
/// Two limits, on purpose. Files (`build --dpi`, a profile's `dpi`) are written
/// once, and a fine-art or offset proof may want 1,200 to 2,400 dpi: [`FILE_DPI`].
/// The live preview keeps a picture of every face in memory and draws each
/// changed face again on every save, and no screen shows more than about 600
/// dots per inch: [`PREVIEW_DPI`] keeps a preview of a large game responsive and
/// within memory (at 2,400 dpi one poker card is 24 million pixels).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pictures {
    /// Files to print or to hand to a shop.
    Files,
    /// The live preview's pictures on a screen.
    Screen,
}

impl Pictures {
    /// The resolutions `--dpi` may ask, in dots per inch.
    pub fn dpi(self) -> RangeInclusive<f64> {
        match self {
            Pictures::Files => FILE_DPI,
            Pictures::Screen => PREVIEW_DPI,
        }
    }

    /// What to suggest for a resolution outside [`Pictures::dpi`].
    fn dpi_hint(self) -> &'static str {
        match self {
            Pictures::Files => "300 is what print shops ask for",
            Pictures::Screen => "150 is sharp on most screens",
        }
    }
}

/// The build options as the command line gives them, unchecked.
#[derive(Debug, Clone)]
pub struct Asked {
    /// `--paper`: `letter` or `a4`.
    pub paper: String,
    /// `--format`: `pdf`, `svg`, `png`, each alone.
    pub formats: Vec<String>,
    /// `--dpi`: the resolution of PNG files (of the preview's pictures).
    pub dpi: f64,
    /// `--copies N`.
    pub copies: Option<u32>,
    /// `--profile`: a file in `profiles/`; `None`: the game's own, else `home`.
    pub profile: Option<String>,
    /// `--back-offset X,Y`, in mm.
    pub back_offset: Option<String>,
    /// `--printer-margin LENGTH`.
    pub printer_margin: Option<String>,
    /// `--base-url URL`: where the output folder is served.
    pub base_url: Option<String>,
    /// `--proof`: a soft proof of every face (a CMYK profile).
    pub proof: bool,
}

impl Default for Asked {
    /// What a command line without options asks: Letter, PDF, 300 dpi.
    fn default() -> Self {
        Asked {
            paper: "letter".into(),
            formats: vec!["pdf".into()],
            dpi: 300.0,
            copies: None,
            profile: None,
            back_offset: None,
            printer_margin: None,
            base_url: None,
            proof: false,
        }
    }
}

/// What every game of a run shares, checked; each game's options come from
/// [`Resolved::for_game`].
#[derive(Debug, Clone)]
pub struct Resolved {
    /// Paper, formats, resolution, copies, back offset and printer margin; the
    /// profile is each game's ([`Resolved::for_game`]). A command may change what
    /// it alone decides (`watch` writes uncompressed PDFs).
    pub options: Options,
    /// The output folder on this computer, for `file://` links to it when no
    /// `--base-url` is given (Tabletop Simulator's saved object); `None`: the
    /// options' default link.
    pub files_at: Option<PathBuf>,
    profile: Option<String>,
    base_url: Option<String>,
    proof: bool,
}

impl Asked {
    /// Checks every option (each problem is reported, not only the first) into
    /// what the run's games share; `None` when one is wrong.
    pub fn resolve(&self, pictures: Pictures) -> Reported<Option<Resolved>> {
        let mut problems = Vec::new();
        let mut options = Options {
            dpi: self.dpi,
            copies: self.copies,
            ..Options::default()
        };
        match paper_named(&self.paper) {
            Ok(paper) => options.paper = paper,
            Err(d) => problems.push(d),
        }
        match formats(&self.formats) {
            Ok((pdf, svg, png)) => (options.pdf, options.svg, options.png) = (pdf, svg, png),
            Err(d) => problems.push(d),
        }
        let checks = [
            dpi(self.dpi, pictures).err(),
            copies(self.copies).err(),
            self.base_url.as_deref().map(base_url).and_then(Result::err),
        ];
        problems.extend(checks.into_iter().flatten());
        if let Some(o) = &self.back_offset {
            match back_offset(o) {
                Ok(v) => options.back_offset = v,
                Err(d) => problems.push(d),
            }
        }
        if let Some(m) = &self.printer_margin {
            match printer_margin(m) {
                Ok(v) => options.printer_margin = Some(v),
                Err(d) => problems.push(d),
            }
        }
        if !problems.is_empty() {
            return Reported::new(None, problems);
        }
        Some(Resolved {
            options,
            files_at: None,
            profile: self.profile.clone(),
            base_url: self.base_url.as_deref().and_then(|u| base_url(u).ok()),
            proof: self.proof,
        })
        .into()
    }
}

impl Resolved {
    /// The options of game `id`: its print profile (`--profile`, else the game's
    /// `[game] profile`, else `home`: [`crate::profile::for_game`]) and the links
    /// to its output; `None` when they had an error. Every problem names the game.
    pub fn for_game(&self, project: &Project, id: &str) -> Reported<Option<Options>> {
        let named = |d: Diagnostic| d.with("game", id);
        let profile = crate::profile::for_game(project, id, self.profile.as_deref());
        let Some(profile) = profile.value else {
            return Reported::new(None, profile.diags.items.into_iter().map(named));
        };
        if self.proof && profile.print.is_none() {
            let d = Diagnostic::error(format!(
                "--proof shows a print shop's CMYK, and the profile `{}` prints in RGB",
                profile.id
            ))
            .hint("use a CMYK profile: --profile drivethrucards or --profile offset");
            return Reported::new(None, [named(d)]);
        }
        let mut opts = Options {
            profile,
            proof: self.proof,
            ..self.options.clone()
        };
        match (&self.base_url, &self.files_at) {
            (Some(u), _) => opts.url_base = url_join(u, id),
            (None, Some(out)) => opts.url_base = file_url(&out.join(id)),
            (None, None) => {}
        }
        Some(opts).into()
    }
}

/// Reads `--format`: which of PDF, SVG and PNG to write.
fn formats(asked: &[String]) -> Result<(bool, bool, bool), Diagnostic> {
    let mut which = (false, false, false);
    for f in asked {
        match f.trim() {
            "pdf" => which.0 = true,
            "svg" => which.1 = true,
            "png" => which.2 = true,
            other => {
                return Err(Diagnostic::error(format!("unknown format `{other}`"))
                    .hint("use pdf, svg or png, comma-separated"))
            }
        }
    }
    Ok(which)
}

/// Checks `--dpi` against what the pictures are for.
fn dpi(dpi: f64, pictures: Pictures) -> Result<f64, Diagnostic> {
    let range = pictures.dpi();
    if range.contains(&dpi) {
        return Ok(dpi);
    }
    Err(Diagnostic::error(format!(
        "--dpi {dpi} is outside {}..{}",
        range.start(),
        range.end()
    ))
    .hint(pictures.dpi_hint()))
}

/// Checks `--copies N` (1 to 10,000).
fn copies(copies: Option<u32>) -> Result<(), Diagnostic> {
    match copies {
        Some(c) if !(1..=10_000).contains(&c) => {
            Err(Diagnostic::error("--copies must be between 1 and 10000")
                .hint("a pad of 40 sheets is typical"))
        }
        _ => Ok(()),
    }
}

/// Reads `--back-offset X,Y` (mm, within ±20).
fn back_offset(o: &str) -> Result<(f64, f64), Diagnostic> {
    let parts: Vec<Option<f64>> = o
        .split(',')
        .map(|p| {
            p.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && v.abs() <= 20.0)
        })
        .collect();
    match parts[..] {
        [Some(x), Some(y)] => Ok((x, y)),
        _ => Err(Diagnostic::error(format!(
            "--back-offset `{o}` is not two numbers of mm within ±20"
        ))
        .hint("write it as X,Y in mm, e.g. --back-offset 1.5,-0.5")),
    }
}

/// Reads `--base-url URL`: an absolute http(s) or file URL, without a trailing `/`.
fn base_url(url: &str) -> Result<String, Diagnostic> {
    let lower = url.to_ascii_lowercase();
    let scheme = ["http://", "https://", "file://"]
        .iter()
        .any(|s| lower.starts_with(s) && lower.len() > s.len());
    if !scheme || url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(Diagnostic::error(format!(
            "--base-url `{url}` is not an absolute http, https or file URL"
        ))
        .hint("give the address the output folder is served at, e.g. --base-url https://example.org/games (spaces written as %20)"));
    }
    Ok(url.trim_end_matches('/').to_string())
}

/// A `file://` URL for a local folder, with the characters a URL cannot hold
/// percent-encoded.
fn file_url(dir: &Path) -> String {
    let path = dir.to_string_lossy().replace('\\', "/");
    let root = if path.starts_with('/') { "" } else { "/" }; // C:/... on Windows
    format!("file://{root}{}", url_path(&path))
}

/// Reads `--printer-margin LENGTH` (0 to 15 mm).
fn printer_margin(m: &str) -> Result<f64, Diagnostic> {
    let max = crate::profile::MAX_PRINTER_MARGIN;
    match crate::units::parse_length(m) {
        Ok(v) if (0.0..=max).contains(&v) => Ok(v),
        Ok(v) => Err(Diagnostic::error(format!(
            "--printer-margin {} mm is outside 0..{max} mm",
            crate::units::fmt_num(v)
        ))
        .hint("laser printers leave about 4.2mm blank at each edge, inkjets about 3mm")),
        Err(e) => Err(Diagnostic::error(format!("--printer-margin `{m}`: {e}"))
            .hint("write a length with its unit, e.g. --printer-margin 3mm")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(asked: &Asked, pictures: Pictures) -> Vec<String> {
        let r = asked.resolve(pictures);
        r.diags.items.iter().map(|d| d.message.clone()).collect()
    }

    #[test]
    fn the_preview_and_files_have_their_own_resolutions() {
        let fine = Asked {
            dpi: 1200.0,
            ..Asked::default()
        };
        assert!(problems(&fine, Pictures::Files).is_empty());
        assert_eq!(
            problems(&fine, Pictures::Screen),
            ["--dpi 1200 is outside 10..600"]
        );
        let huge = Asked {
            dpi: 4800.0,
            ..Asked::default()
        };
        assert_eq!(
            problems(&huge, Pictures::Files),
            ["--dpi 4800 is outside 10..2400"]
        );
    }

    #[test]
    fn every_wrong_option_is_reported_at_once() {
        let asked = Asked {
            paper: "legal".into(),
            formats: vec!["pdf".into(), "jpg".into()],
            copies: Some(0),
            back_offset: Some("1".into()),
            printer_margin: Some("30mm".into()),
            ..Asked::default()
        };
        let r = asked.resolve(Pictures::Files);
        assert!(r.value.is_none());
        let said: Vec<_> = r.diags.items.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            said,
            [
                "unknown paper `legal`",
                "unknown format `jpg`",
                "--copies must be between 1 and 10000",
                "--back-offset `1` is not two numbers of mm within ±20",
                "--printer-margin 30 mm is outside 0..15 mm",
            ]
        );
    }

    #[test]
    fn links_go_to_the_base_url_else_the_output_folder() {
        let project = Project::new(crate::source::MemoryFiles::new());
        let asked = Asked {
            base_url: Some("https://h.example/games/".into()),
            ..Asked::default()
        };
        let served = asked.resolve(Pictures::Files).value.unwrap();
        let opts = served.for_game(&project, "mini").value.unwrap();
        assert_eq!(opts.url_base, "https://h.example/games/mini");
        let mut local = Asked::default().resolve(Pictures::Files).value.unwrap();
        local.files_at = Some(PathBuf::from("/home/a b/output"));
        let opts = local.for_game(&project, "mini").value.unwrap();
        assert_eq!(opts.url_base, "file:///home/a%20b/output/mini");
        assert_eq!(opts.profile.id, "home");
    }
}
