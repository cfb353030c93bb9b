//! Tabletop Simulator: every component set as objects of one saved-object JSON, with
//! the images they point at. Cards, money and pad sheets are one deck per set
//! (`DeckCustom`, as many deck sheets as it needs, `DeckIDs` = sheet x 100 + slot),
//! landscape ones `SidewaysCard`; boards and mats `Custom_Board` (or `Custom_Tile`
//! when they have a back); player aids one `Custom_Tile` each; chits and tokens
//! `Custom_Tile`s of their shape (square, rounded, circle) or `Custom_Token`s cut
//! from the image's transparency (triangles), in one bag per set. The objects lie
//! side by side in rows: boards, decks, aids, bags.
//!
//! Sizes: Tabletop Simulator's unit is about an inch. A custom card is drawn in the
//! game's card outline (about 3 units long at scale 1, about 5:7), a custom tile,
//! token or board about 2 units along its longer side at scale 1; each object's
//! scale makes it about its real size (players rescale objects in the game anyway).

mod deck;
mod images;
mod pieces;
mod table;

use super::Delivered;
use crate::diag::{Diagnostic, Reported};
use crate::export::png::PngError;
use crate::faces::Rendered;
use crate::model::{Component, Game, Kind};
use crate::options::Options;
use crate::units::MM_PER_IN;
use images::{render_images, Image, Spec};
use table::{lay_out, save_json, Object};

/// Length of a custom card's longer side at scale 1, in TTS units (about).
const CARD_UNITS: f64 = 3.0;
/// Longer side of a custom tile, token or board at scale 1, in TTS units (about).
const IMAGE_UNITS: f64 = 2.0;

/// Why the Tabletop Simulator files could not be made.
#[derive(Debug)]
pub enum TtsError {
    /// An image could not be rendered.
    Image { file: String, error: PngError },
}

impl std::fmt::Display for TtsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TtsError::Image { file, error } => write!(f, "{file}: {error}"),
        }
    }
}

impl std::error::Error for TtsError {}

/// Tabletop Simulator files: images and the saved object, with a warning for
/// anything left out.
pub(super) fn deliver(
    game: &Game,
    r: &Rendered,
    opts: &Options,
    mut delivered: Delivered,
) -> Reported<Delivered> {
    let mut plan = Plan::new(game, r, opts);
    for ci in 0..game.components.len() {
        plan.component(ci);
    }
    let mut diags = std::mem::take(&mut plan.warnings);
    for image in &plan.images {
        let path = format!("{}/{}", opts.folder(), image.path);
        delivered.record_image(path, image.what.clone(), image.spec.faces());
    }
    if !opts.encode {
        return Reported::new(delivered, diags);
    }
    match render_images(game, r, opts, &plan.images, &delivered.outputs) {
        Ok(files) => {
            for (image, body) in plan.images.iter().zip(files) {
                let path = format!("{}/{}", opts.folder(), image.path);
                delivered.outputs.push(path, image.what.clone(), body);
            }
        }
        Err(e) => diags.push(Diagnostic::error(e.to_string()).with("game", &game.id)),
    }
    delivered.outputs.add(
        format!("{}/{}.json", opts.folder(), opts.stem(&game.id)),
        "Tabletop Simulator saved object: copy into Saved Objects and load it",
        save_json(game, lay_out(plan.objects)),
    );
    Reported::new(delivered, diags)
}

/// The objects of a game being planned, and the images they need.
struct Plan<'a> {
    game: &'a Game,
    r: &'a Rendered<'a>,
    opts: &'a Options,
    images: Vec<Image>,
    objects: Vec<Object>,
    /// Deck sheets so far (their numbers in `CustomDeck` start at 1).
    sheets: usize,
    /// Objects given a GUID so far.
    guids: usize,
    warnings: Vec<Diagnostic>,
}

impl<'a> Plan<'a> {
    fn new(game: &'a Game, r: &'a Rendered<'a>, opts: &'a Options) -> Self {
        Plan {
            game,
            r,
            opts,
            images: Vec::new(),
            objects: Vec::new(),
            sheets: 0,
            guids: 0,
            warnings: Vec::new(),
        }
    }

    /// The objects of component set `ci`.
    fn component(&mut self, ci: usize) {
        let comp = &self.game.components[ci];
        if !comp.exported || self.r.slots[ci].is_empty() {
            self.warn(
                comp,
                format!(
                    "`{}` has no parts to export to Tabletop Simulator",
                    comp.id()
                ),
            );
            return;
        }
        match comp.kind {
            Kind::Card | Kind::Money | Kind::Pad => self.deck(ci),
            Kind::Board | Kind::Mat => self.board(ci),
            Kind::Aid | Kind::Screen => self.aids(ci),
            Kind::Chit | Kind::Token => self.pieces(ci),
        }
    }

    /// A warning about `comp` (once, however many faces it concerns).
    fn warn(&mut self, comp: &Component, message: String) {
        if self.warnings.iter().any(|d| d.message == message) {
            return;
        }
        self.warnings.push(
            Diagnostic::warning(message)
                .with("game", &self.game.id)
                .with("component", comp.id())
                .with("profile", &self.opts.profile.id),
        );
    }

    /// A new GUID (six hex digits, in order: the same game gives the same file).
    fn guid(&mut self) -> String {
        self.guids += 1;
        format!("{:06x}", 0xc5_0000 + self.guids)
    }

    /// The absolute URL of a file under the profile folder.
    fn url(&self, path: &str) -> String {
        let rel = format!("{}/{path}", self.opts.folder());
        crate::options::url_join(&self.opts.url_base, &rel)
    }

    fn image(&mut self, ci: usize, path: String, what: String, spec: Spec) -> String {
        let url = self.url(&path);
        self.images.push(Image {
            path,
            what,
            comp: ci,
            spec,
        });
        url
    }
}

/// A part's trim size in inches (about TTS units).
fn inches(comp: &Component) -> (f64, f64) {
    (comp.size.width / MM_PER_IN, comp.size.height / MM_PER_IN)
}
