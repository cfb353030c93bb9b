//! Boards, mats, player aids, chits and tokens: custom boards, tiles of their cut
//! shape, or tokens cut from their image.

use serde_json::{json, Value};

use super::images::{image_px, Spec};
use super::table::{transform, Object, Row};
use super::{inches, Plan, IMAGE_UNITS};
use crate::export::png::PngColor;
use crate::faces::Slot;
use crate::model::{Kind, Shape};

/// A bag's footprint, in units.
const BAG_UNITS: f64 = 2.5;

impl Plan<'_> {
    /// A part's name in the game: its face's label, or the set's name for a set
    /// of one face.
    fn nickname(&self, ci: usize, s: &Slot) -> String {
        match self.r.slots[ci].len() {
            1 => self.game.components[ci].name(),
            _ => s.plan.name.clone(),
        }
    }

    /// A board or mat: `Custom_Board`, or a `Custom_Tile` when it has a back.
    pub(super) fn board(&mut self, ci: usize) {
        let comp = &self.game.components[ci];
        for (i, s) in self.r.slots[ci].iter().enumerate() {
            let px = image_px(comp, self.opts.profile.dpi);
            let name = |side: &str| format!("boards/{}-{:03}{side}.png", comp.id(), i + 1);
            let trim = |face| Spec::Trim {
                face,
                px,
                color: PngColor::Rgb,
            };
            let front = self.image(
                ci,
                name(""),
                format!("{} ({} x {} px)", s.plan.name, px.0, px.1),
                trim(s.front),
            );
            let back = s
                .back
                .map(|b| self.image(ci, name("-back"), format!("{} back", s.plan.name), trim(b)));
            let mut image = json!({ "ImageURL": front, "ImageSecondaryURL": back.clone().unwrap_or_default(),
                "ImageScalar": 1.0, "WidthScale": 0.0 });
            let name = if back.is_some() {
                image["CustomTile"] = tile_json(Shape::Rect, false);
                "Custom_Tile"
            } else {
                "Custom_Board"
            };
            let (w, h) = inches(comp);
            let json = json!({ "Name": name, "GUID": self.guid(), "Nickname": format!("{} · {}", self.game.meta.name, self.nickname(ci, s)),
                "Description": comp.name(), "Transform": transform(w.max(h) / IMAGE_UNITS, false), "CustomImage": image });
            self.objects.push(Object {
                json,
                size: (w, h),
                row: Row::Boards,
            });
        }
    }

    /// Player aids: a tile each (front and back), side by side.
    pub(super) fn aids(&mut self, ci: usize) {
        let comp = &self.game.components[ci];
        let (w, h) = inches(comp);
        for (i, s) in self.r.slots[ci].iter().enumerate() {
            let piece = self.piece(ci, i, s, "aids");
            for _ in 0..s.plan.qty {
                let mut json = piece.clone();
                json["GUID"] = json!(self.guid());
                json["Transform"] = transform(w.max(h) / IMAGE_UNITS, false);
                self.objects.push(Object {
                    json,
                    size: (w, h),
                    row: Row::Aids,
                });
            }
        }
    }

    /// Chits and tokens: every part in one bag (a single part on its own).
    pub(super) fn pieces(&mut self, ci: usize) {
        let comp = &self.game.components[ci];
        let (w, h) = inches(comp);
        let mut parts = Vec::new();
        for (i, s) in self.r.slots[ci].iter().enumerate() {
            let piece = self.piece(ci, i, s, "tokens");
            for _ in 0..s.plan.qty {
                let mut json = piece.clone();
                json["GUID"] = json!(self.guid());
                json["Transform"] = transform(w.max(h) / IMAGE_UNITS, false);
                parts.push(json);
            }
        }
        let (json, size) = if parts.len() == 1 {
            (parts.remove(0), (w, h))
        } else {
            let bag = json!({ "Name": "Bag", "GUID": self.guid(),
                "Nickname": format!("{} · {} ({})", self.game.meta.name, comp.name(), parts.len()),
                "Description": comp.name(), "Transform": transform(1.0, false), "ContainedObjects": parts });
            (bag, (BAG_UNITS, BAG_UNITS))
        };
        self.objects.push(Object {
            json,
            size,
            row: Row::Bags,
        });
    }

    /// One piece (without GUID and transform): a `Custom_Tile` of its shape, or a
    /// `Custom_Token` cut from its image for a shape no tile has.
    fn piece(&mut self, ci: usize, i: usize, s: &Slot, folder: &str) -> Value {
        let comp = &self.game.components[ci];
        let shape = s.plan.shape;
        let name = |side: &str| format!("{folder}/{}/{:03}{side}.png", comp.id(), i + 1);
        let token = tile_type(shape).is_none();
        let what = if token {
            format!(
                "{} token (transparent outside its {shape} cut)",
                s.plan.name
            )
        } else {
            format!("{} front ({shape} tile)", s.plan.name)
        };
        let spec = Spec::Cut {
            face: s.front,
            shape,
            border: token,
        };
        let front = self.image(ci, name(""), what, spec);
        let back = match s.back {
            Some(_) if token => {
                let why = format!(
                    "the backs of `{}` ({shape} tokens) are not exported: Tabletop Simulator shows a token's front on both sides",
                    comp.id()
                );
                self.warn(comp, why);
                String::new()
            }
            Some(b) => {
                let spec = Spec::Cut {
                    face: b,
                    shape,
                    border: false,
                };
                self.image(ci, name("-back"), format!("{} back", s.plan.name), spec)
            }
            None => String::new(),
        };
        let mut image = json!({ "ImageURL": front, "ImageSecondaryURL": back, "ImageScalar": 1.0, "WidthScale": 0.0 });
        let stackable = comp.kind == Kind::Chit;
        if token {
            image["CustomToken"] = json!({ "Thickness": 0.1, "MergeDistancePixels": 15.0, "StandUp": false, "Stackable": stackable });
        } else {
            image["CustomTile"] = tile_json(shape, stackable);
        }
        let nickname = self.nickname(ci, s);
        json!({ "Name": if token { "Custom_Token" } else { "Custom_Tile" }, "Nickname": nickname,
            "Description": comp.name(), "CustomImage": image })
    }
}

/// TTS's tile type for a cut shape (0 box, 2 circle, 3 rounded); `None` for a shape
/// no tile has (then the piece is a token cut from its image).
fn tile_type(shape: Shape) -> Option<u8> {
    match shape {
        Shape::Rect => Some(0),
        Shape::Round => Some(2),
        Shape::Rounded => Some(3),
        Shape::Triangle => None,
    }
}

fn tile_json(shape: Shape, stackable: bool) -> Value {
    json!({ "Type": tile_type(shape).unwrap_or(0), "Thickness": 0.1, "Stackable": stackable, "Stretch": false })
}
