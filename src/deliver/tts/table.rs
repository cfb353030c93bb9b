//! Where the objects lie on the table, and the saved-object file.

use serde_json::{json, Value};

use crate::model::Game;

/// Space between objects on the table, in units.
const GAP: f64 = 1.0;

/// Rows of the table, in the order they are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Row {
    Boards,
    Decks,
    Aids,
    Bags,
}

/// An object for the table: its JSON (without a position), its footprint in units
/// (x, z) and its row.
pub(super) struct Object {
    pub json: Value,
    pub size: (f64, f64),
    pub row: Row,
}

/// A transform at the origin (positions come from [`lay_out`]), turned to face the
/// first seat; `face_down` turns it over.
pub(super) fn transform(scale: f64, face_down: bool) -> Value {
    json!({ "posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0,
        "rotZ": if face_down { 180.0 } else { 0.0 },
        "scaleX": round(scale), "scaleY": 1.0, "scaleZ": round(scale) })
}

/// Rounds to 1/1000 (stable, readable JSON).
fn round(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

/// Places the objects in rows (boards, then decks, aids and bags), each row at most
/// as wide as the widest board or 40 units, the whole centred on the table.
pub(super) fn lay_out(mut objects: Vec<Object>) -> Vec<Value> {
    objects.sort_by_key(|o| o.row);
    let width = objects
        .iter()
        .filter(|o| o.row == Row::Boards)
        .map(|o| o.size.0)
        .fold(40.0f64, f64::max);
    // (x, z) of each object's centre, z growing away from the first seat.
    let mut at = Vec::with_capacity(objects.len());
    let (mut x, mut z, mut depth) = (0.0f64, 0.0f64, 0.0f64);
    let mut row = objects.first().map(|o| o.row);
    for o in &objects {
        let (w, d) = o.size;
        if x > 0.0 && (x + w > width || Some(o.row) != row) {
            z -= depth + GAP;
            (x, depth) = (0.0, 0.0);
        }
        row = Some(o.row);
        at.push((x + w / 2.0, z - d / 2.0));
        x += w + GAP;
        depth = depth.max(d);
    }
    let (bottom, right) = (
        z - depth,
        at.iter()
            .zip(&objects)
            .map(|((x, _), o)| x + o.size.0 / 2.0)
            .fold(0.0, f64::max),
    );
    objects
        .into_iter()
        .zip(at)
        .map(|(mut o, (x, z))| {
            o.json["Transform"]["posX"] = json!(round(x - right / 2.0));
            o.json["Transform"]["posZ"] = json!(round(z - bottom / 2.0));
            o.json
        })
        .collect()
}

/// The saved-object file.
pub(super) fn save_json(game: &Game, objects: Vec<Value>) -> Vec<u8> {
    let saved = json!({ "SaveName": game.meta.name, "GameMode": game.meta.name, "Date": "",
        "VersionNumber": "", "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "",
        "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "TabStates": {},
        "ObjectStates": objects });
    let mut bytes = serde_json::to_vec_pretty(&saved).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}
