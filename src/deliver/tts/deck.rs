//! Decks: cards, money and pad sheets as one `DeckCustom` per set, over as many
//! deck sheets as the set needs.

use serde_json::{json, Value};

use super::images::{sheet_grid, slot_size, Spec};
use super::table::{transform, Object, Row};
use super::{inches, Plan, CARD_UNITS};
use crate::export::png::PngColor;
use crate::faces::Slot;
use crate::model::{Component, Shape};

/// A custom card's width over its height.
const CARD_ASPECT: f64 = 5.0 / 7.0;

/// The backs of a deck: one image for all (`common`, or blank for one-sided parts,
/// written once at `url`) or a back sheet per face sheet (`unique`).
struct Backs {
    common: Option<usize>,
    unique: bool,
    url: Option<String>,
}

/// TTS's card shape for a part's cut: 0 rounded rectangle, 1 rectangle, 4 circle
/// (a triangle has none: the rounded rectangle).
fn card_type(shape: Option<Shape>) -> u8 {
    match shape {
        Some(Shape::Rect) => 1,
        Some(Shape::Round) => 4,
        _ => 0,
    }
}

impl Plan<'_> {
    /// A card, money or pad set as one deck over as many sheets as it needs.
    pub(super) fn deck(&mut self, ci: usize) {
        let comp = &self.game.components[ci];
        let slots = &self.r.slots[ci];
        let (max_cols, max_rows) = sheet_grid(comp);
        // TTS keeps the last slot of a sheet for the hidden card.
        let per_sheet = max_cols * max_rows - 1;
        let one_sided = slots.iter().all(|s| s.back.is_none());
        let mut backs = Backs {
            common: common_back(slots),
            unique: common_back(slots).is_none() && !one_sided,
            url: None,
        };
        let mut custom = serde_json::Map::new();
        let mut cards = Vec::new();
        for (k, chunk) in slots.chunks(per_sheet).enumerate() {
            let cols = chunk.len().clamp(2, max_cols);
            let rows = (chunk.len() + 1).div_ceil(cols).clamp(2, max_rows);
            let (sheet, entry) = self.deck_sheet(ci, k, chunk, (cols, rows), &mut backs);
            for (i, s) in chunk.iter().enumerate() {
                for _ in 0..s.plan.qty {
                    cards.push(self.card(comp, s, sheet * 100 + i, sheet, &entry));
                }
            }
            custom.insert(sheet.to_string(), entry);
        }
        let deck = self.deck_object(comp, cards, custom, one_sided);
        self.objects.push(deck);
    }

    /// Deck sheet `k` of set `ci` (the faces of `chunk` on a `grid`): its images
    /// and its `CustomDeck` entry, with the sheet's number in the saved object.
    fn deck_sheet(
        &mut self,
        ci: usize,
        k: usize,
        chunk: &[Slot],
        grid: (usize, usize),
        backs: &mut Backs,
    ) -> (usize, Value) {
        let comp = &self.game.components[ci];
        self.sheets += 1;
        let slot = slot_size(comp, grid.0, grid.1, self.opts.profile.dpi);
        let label = format!("{} deck sheet {}", comp.name(), k + 1);
        let sheet = |faces| Spec::Sheet { faces, grid, slot };
        let what = format!(
            "{label} ({} x {}, {} x {} px a face)",
            grid.0, grid.1, slot.0, slot.1
        );
        let fronts = sheet(chunk.iter().map(|s| Some(s.front)).collect());
        let face_url = self.image(
            ci,
            format!("decks/{}-{}-faces.png", comp.id(), k + 1),
            what,
            fronts,
        );
        let back_url = if backs.unique {
            let spec = sheet(chunk.iter().map(|s| s.back).collect());
            let path = format!("decks/{}-{}-backs.png", comp.id(), k + 1);
            self.image(ci, path, format!("{label}, backs"), spec)
        } else if let Some(url) = &backs.url {
            url.clone()
        } else {
            let url = self.deck_back(ci, backs.common, slot);
            backs.url.insert(url).clone()
        };
        let shape = chunk.first().map(|s| s.plan.shape);
        let entry = json!({ "FaceURL": face_url, "BackURL": back_url, "NumWidth": grid.0,
            "NumHeight": grid.1, "BackIsHidden": true, "UniqueBack": backs.unique,
            "Type": card_type(shape) });
        (self.sheets, entry)
    }

    /// The one back of a deck: the common back face, or blank white for one-sided
    /// parts (pad sheets, bills).
    fn deck_back(&mut self, ci: usize, back: Option<usize>, slot: (u32, u32)) -> String {
        let comp = &self.game.components[ci];
        let (what, spec) = match back {
            Some(face) => (
                format!("{} back", comp.name()),
                Spec::Trim {
                    face,
                    px: slot,
                    color: PngColor::Rgb,
                },
            ),
            None => (
                format!("{} back (blank: printed one-sided)", comp.name()),
                Spec::Sheet {
                    faces: vec![None],
                    grid: (1, 1),
                    slot,
                },
            ),
        };
        self.image(ci, format!("decks/{}-back.png", comp.id()), what, spec)
    }

    /// One card of a deck.
    fn card(
        &mut self,
        comp: &Component,
        s: &Slot,
        id: usize,
        sheet: usize,
        entry: &Value,
    ) -> Value {
        json!({ "Name": "Card", "GUID": self.guid(), "Nickname": s.plan.name,
            "Description": comp.name(), "CardID": id, "SidewaysCard": sideways(comp),
            "CustomDeck": { sheet.to_string(): entry } })
    }

    /// The deck object (a single card when the set has one part): face down, or face
    /// up when the parts have no back.
    fn deck_object(
        &mut self,
        comp: &Component,
        cards: Vec<Value>,
        custom: serde_json::Map<String, Value>,
        face_up: bool,
    ) -> Object {
        let (w, h) = inches(comp);
        let scale = w.max(h) / CARD_UNITS;
        let nickname = format!("{} · {}", self.game.meta.name, comp.name());
        let mut json = if cards.len() == 1 {
            let mut card = cards.into_iter().next().unwrap_or_default();
            card["Name"] = json!("CardCustom");
            card["Nickname"] = json!(nickname);
            card
        } else {
            let ids: Vec<Value> = cards.iter().map(|c| c["CardID"].clone()).collect();
            json!({ "Name": "DeckCustom", "GUID": self.guid(), "Nickname": nickname,
                "Description": comp.name(),
                "DeckIDs": ids, "CustomDeck": custom, "SidewaysCard": sideways(comp),
                "ContainedObjects": cards })
        };
        json["Transform"] = transform(scale, !face_up);
        // The card outline is about 5:7: a part of other proportions is stretched to
        // it, so its footprint is the larger of both.
        let (long, short) = (w.max(h), w.min(h).max(w.max(h) * CARD_ASPECT));
        let size = if w >= h { (long, short) } else { (short, long) };
        Object {
            json,
            size,
            row: Row::Decks,
        }
    }
}

/// The back every part of a deck shares, if they share one.
fn common_back(slots: &[Slot]) -> Option<usize> {
    let first = slots.first()?.back?;
    slots.iter().all(|s| s.back == Some(first)).then_some(first)
}

/// Whether the parts are landscape (TTS turns the card).
fn sideways(comp: &Component) -> bool {
    comp.size.width > comp.size.height
}
