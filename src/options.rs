//! What a build makes, resolved before the game is loaded: paper, formats, the
//! print profile, and the run settings templates see. [`resolve`] makes them
//! from what a command asks.

use crate::diag::Diagnostic;
use crate::eval::Settings;
use crate::layout::Media;
use crate::model::{Paper, Target, PAPERS};
use crate::profile::Profile;

pub mod resolve;

pub use resolve::{Asked, Pictures, Resolved};

/// The paper named `name` (`--paper`), or an error listing the papers.
pub fn paper_named(name: &str) -> Result<Paper, Diagnostic> {
    Paper::named(name).ok_or_else(|| {
        let names: Vec<&str> = PAPERS.iter().map(|p| p.name).collect();
        Diagnostic::error(format!("unknown paper `{name}`"))
            .hint(format!("use one of: {}", names.join(", ")))
    })
}

/// What to produce.
#[derive(Debug, Clone)]
pub struct Options {
    pub paper: Paper,
    /// Print-and-play (or shop) PDFs.
    pub pdf: bool,
    /// One SVG file per distinct face.
    pub svg: bool,
    /// One PNG file per distinct face.
    pub png: bool,
    /// PNG resolution.
    pub dpi: f64,
    /// `--copies N`: templates and expressions see it as `settings.copies`.
    pub copies: Option<u32>,
    /// How the parts leave the tool (home sheets, a shop's files, ...).
    pub profile: Profile,
    /// Shift of every back sheet, in mm (`--back-offset X,Y`).
    pub back_offset: (f64, f64),
    /// Where the output will be, for absolute links (Tabletop Simulator's URLs);
    /// its query and fragment, if any, end every link ([`url_join`]).
    pub url_base: String,
    /// Deflate PDF content streams (off in watch mode, for speed).
    pub compress: bool,
    /// `--printer-margin`: the blank edge of the paper, in mm, instead of the
    /// profile's.
    pub printer_margin: Option<f64>,
    /// Encode the profile's files (PDF, PNG, ...). Off for the live preview, which
    /// needs only where each face prints (the `printed` list delivery still makes).
    pub encode: bool,
    /// `build --proof`: a PNG of every face as it will print (the profile's CMYK
    /// back to the screen), in `<profile>/proof/`.
    pub proof: bool,
    /// A reprint (`cardstock reprint`): the files go into `<profile>/reprint/`,
    /// named `<game>-reprint...`, without the duplex calibration page.
    pub reprint: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            paper: crate::model::PAPERS[0],
            pdf: true,
            svg: false,
            png: false,
            dpi: 300.0,
            copies: None,
            profile: Profile::home(),
            back_offset: (0.0, 0.0),
            url_base: "file:///output".into(),
            compress: true,
            printer_margin: None,
            encode: true,
            proof: false,
            reprint: false,
        }
    }
}

impl Options {
    /// What the options decide about the parts, for loading the game.
    pub fn target(&self) -> Target<'_> {
        Target {
            paper: self.paper,
            shop: self.profile.shop(),
        }
    }

    /// The paper and the edge of it the printer leaves blank (`--printer-margin`,
    /// else the profile's).
    pub fn media(&self) -> Media {
        Media::new(
            self.paper,
            self.printer_margin.unwrap_or(self.profile.printer_margin),
        )
    }

    /// The folder of the game's output the files go into: the profile's id
    /// (`home`), or `home/reprint` for a reprint.
    pub fn folder(&self) -> String {
        if self.reprint {
            format!("{}/reprint", self.profile.id)
        } else {
            self.profile.id.clone()
        }
    }

    /// The start of the print files' names: the game's id, or `<id>-reprint`.
    pub fn stem(&self, game: &str) -> String {
        if self.reprint {
            format!("{game}-reprint")
        } else {
            game.to_string()
        }
    }

    /// The run settings templates see as `settings`.
    pub fn settings(&self) -> Settings {
        Settings {
            paper: self.paper.name,
            copies: self.copies,
        }
    }
}

/// The URL of `rel` (a `/`-separated path, percent-encoded here) under the folder
/// URL `base`. A query or fragment of `base` (a storage container's access token:
/// `https://host/games?sig=...`) goes after the path, as it would for any file
/// there: `https://host/games/rel?sig=...`.
pub fn url_join(base: &str, rel: &str) -> String {
    let (folder, rest) = base.split_at(base.find(['?', '#']).unwrap_or(base.len()));
    format!("{}/{}{rest}", folder.trim_end_matches('/'), url_path(rel))
}

/// `path` with every byte a URL path cannot hold as it is percent-encoded (`/` and
/// `:` kept).
pub fn url_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' | b':' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_go_before_the_query_of_the_base() {
        assert_eq!(
            url_join("https://h.example/games", "mini/tts/a b.png"),
            "https://h.example/games/mini/tts/a%20b.png"
        );
        assert_eq!(
            url_join("https://h.example/games/?sv=1&sig=x%2F#top", "mini/x.png"),
            "https://h.example/games/mini/x.png?sv=1&sig=x%2F#top"
        );
    }
}
