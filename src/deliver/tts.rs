//! Tabletop Simulator: card decks as sheets of up to 10 x 7 faces (the 70th slot is
//! TTS's hidden card, so 69 faces a sheet, at most 4096 px a side), a back image, a
//! saved-object JSON that imports every deck, and chits/tokens as PNGs with a
//! transparent outside.

use resvg::tiny_skia::{Pixmap, PixmapPaint, Transform};
use serde_json::json;

use super::{fill_path, Delivered};
use crate::diag::{Diagnostic, Reported};
use crate::export::png::{self, PngCache, PngError};
use crate::faces::{Rendered, Slot};
use crate::model::{Component, Game, Kind};
use crate::options::Options;
use crate::units::mm_to_px;

/// Faces on one TTS deck sheet (10 x 7 minus the hidden-card slot).
pub const PER_SHEET: usize = 69;
/// Largest sheet side TTS loads reliably.
pub const MAX_SIDE: u32 = 4096;

/// Slot size (px) for a deck sheet of `cols` x `rows` faces of `w` x `h` mm.
pub fn slot_size(w_mm: f64, h_mm: f64, cols: usize, rows: usize, dpi: f64) -> (u32, u32) {
    let (w, h) = (mm_to_px(w_mm, dpi), mm_to_px(h_mm, dpi));
    let scale = (1.0f64)
        .min(MAX_SIDE as f64 / (w * cols as f64))
        .min(MAX_SIDE as f64 / (h * rows as f64));
    ((w * scale).floor() as u32, (h * scale).floor() as u32)
}

fn transform(x: f64) -> serde_json::Value {
    json!({ "posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0, "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0 })
}

fn sheet_png(
    r: &Rendered,
    comp: &Component,
    faces: &[usize],
    cols: usize,
    rows: usize,
    sw: u32,
    sh: u32,
) -> Result<Vec<u8>, PngError> {
    let mut sheet: Pixmap = png::pixmap(sw * cols as u32, sh * rows as u32)?;
    for (k, &f) in faces.iter().enumerate() {
        let (fw, fh) = r.store.sizes[f];
        let tree = r.store.tree(f).ok_or(PngError::MissingFace(f))?;
        let face = png::render_trim(tree, fw, fh, comp.bleed, sw, sh)?;
        let (x, y) = ((k % cols) as u32 * sw, (k / cols) as u32 * sh);
        sheet.draw_pixmap(
            x as i32,
            y as i32,
            face.as_ref(),
            &PixmapPaint::default(),
            Transform::identity(),
            None,
        );
    }
    png::encode(&sheet)
}

/// Tabletop Simulator files: deck sheets, backs, token images and the saved object.
pub(super) fn deliver(
    game: &Game,
    r: &Rendered,
    opts: &Options,
    _cache: Option<&dyn PngCache>,
) -> Reported<Delivered> {
    match outputs(game, r, opts) {
        Ok(d) => d.into(),
        Err(d) => Reported::new(Delivered::default(), [d.with("game", &game.id)]),
    }
}

fn outputs(game: &Game, r: &Rendered, opts: &Options) -> Result<Delivered, Diagnostic> {
    let mut delivered = Delivered::default();
    let built = &mut delivered;
    let prefix = &opts.profile.id;
    let err = |e: PngError| Diagnostic::error(e.to_string());
    let dpi = opts.profile.dpi;
    let mut objects = Vec::new();
    let mut deck_no = 0;
    for (ci, comp) in game.components.iter().enumerate() {
        let slots: &[Slot] = &r.slots[ci];
        if slots.is_empty() {
            continue;
        }
        if matches!(comp.kind, Kind::Chit | Kind::Token) {
            for (i, s) in slots.iter().enumerate() {
                let (w, h) = r.store.sizes[s.front];
                let bytes = r
                    .store
                    .tree(s.front)
                    .ok_or(PngError::MissingFace(s.front))
                    .and_then(|t| png::write_cut(t, w, h, comp.bleed, s.plan.shape, dpi))
                    .map_err(err)?;
                built.outputs.add(
                    format!(
                        "{prefix}/{}",
                        fill_path("tokens/{component}/{number}.png", comp.id(), i + 1, "")
                    ),
                    format!(
                        "{} token, {} in the game (transparent outside the cut)",
                        s.plan.label, s.plan.qty
                    ),
                    bytes,
                );
            }
            continue;
        }
        if comp.kind.is_large() || comp.kind == Kind::Pad {
            continue; // boards and pads are not decks; use the home PDF or a table image
        }
        let w = comp.size.width;
        let h = comp.size.height;
        let x = deck_no as f64 * 3.0;
        for (sheet_no, chunk) in slots.chunks(PER_SHEET).enumerate() {
            deck_no += 1;
            let n = chunk.len();
            let cols = n.clamp(2, 10);
            let rows = (n + 1).div_ceil(cols).clamp(2, 7);
            let (sw, sh) = slot_size(w, h, cols, rows, dpi);
            let fronts: Vec<usize> = chunk.iter().map(|s| s.front).collect();
            let face_name = format!("decks/{}-{}-faces.png", comp.id(), sheet_no + 1);
            built.outputs.add(
                format!("{prefix}/{face_name}"),
                format!(
                    "{} deck sheet {} ({cols} x {rows}, {sw} x {sh} px a face)",
                    comp.name(),
                    sheet_no + 1
                ),
                sheet_png(r, comp, &fronts, cols, rows, sw, sh).map_err(err)?,
            );
            let backs: Vec<usize> = chunk.iter().filter_map(|s| s.back).collect();
            let unique_back = backs.len() == n && backs.iter().any(|b| *b != backs[0]);
            let back_name = format!("decks/{}-{}-back.png", comp.id(), sheet_no + 1);
            let back_png = if unique_back {
                sheet_png(r, comp, &backs, cols, rows, sw, sh)
            } else {
                let b = backs.first().copied().unwrap_or(chunk[0].front);
                let (fw, fh) = r.store.sizes[b];
                r.store
                    .tree(b)
                    .ok_or(PngError::MissingFace(b))
                    .and_then(|t| png::render_trim(t, fw, fh, comp.bleed, sw, sh))
                    .and_then(|p| png::encode(&p))
            }
            .map_err(err)?;
            built.outputs.add(
                format!("{prefix}/{back_name}"),
                format!(
                    "{} back{}",
                    comp.name(),
                    if unique_back { " sheet" } else { "" }
                ),
                back_png,
            );
            let mut ids = Vec::new();
            let mut cards = Vec::new();
            for (k, s) in chunk.iter().enumerate() {
                let id = deck_no * 100 + k;
                for _ in 0..s.plan.qty {
                    ids.push(id);
                    cards.push(json!({ "Name": "Card", "CardID": id, "Nickname": s.plan.label, "Transform": transform(x) }));
                }
            }
            let custom = json!({ deck_no.to_string(): {
                "FaceURL": format!("{}/{prefix}/{face_name}", opts.url_base),
                "BackURL": format!("{}/{prefix}/{back_name}", opts.url_base),
                "NumWidth": cols, "NumHeight": rows, "BackIsHidden": true, "UniqueBack": unique_back, "Type": 0 } });
            let nickname = format!("{} · {}", game.meta.name, comp.name());
            objects.push(if ids.len() == 1 {
                json!({ "Name": "CardCustom", "Nickname": nickname, "CardID": ids[0], "CustomDeck": custom, "Transform": transform(x) })
            } else {
                json!({ "Name": "DeckCustom", "Nickname": nickname, "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": cards, "Transform": transform(x) })
            });
        }
    }
    let saved =
        json!({ "SaveName": game.meta.name, "GameMode": game.meta.name, "ObjectStates": objects });
    let mut bytes =
        serde_json::to_vec_pretty(&saved).map_err(|e| Diagnostic::error(e.to_string()))?;
    bytes.push(b'\n');
    built.outputs.add(
        format!("{prefix}/{}.json", game.id),
        "Tabletop Simulator saved object: copy into Saved Objects and load it",
        bytes,
    );
    Ok(delivered)
}
