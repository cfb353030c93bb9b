//! The parts of a print record that a game's planned faces are, for the revision
//! marks ([`crate::render::revision`]).

use super::key::{part_keys, table_of, Matcher};
use super::record::{PartRecord, Record};
use crate::model::Game;
use crate::render::revision::{Before, Previous};
use crate::render::FacePlan;

/// The parts of `record` that the game's planned faces (`plans`, per component)
/// are.
pub fn previous(game: &Game, plans: &[Vec<FacePlan>], record: &Record) -> Previous {
    let matcher = Matcher::new(game, record);
    let sets = game
        .components
        .iter()
        .zip(plans)
        .map(|(comp, plans)| {
            let Some(set) = record.sets.iter().find(|s| s.id == comp.id()) else {
                return vec![None; plans.len()];
            };
            let table = table_of(game, comp).map(|t| t.name.as_str());
            let parts: std::collections::HashMap<&str, &PartRecord> =
                set.parts.iter().map(|p| (p.key.as_str(), p)).collect();
            part_keys(game, comp, plans)
                .iter()
                .map(|key| {
                    let old = matcher.part(table, key)?;
                    let p = parts.get(old.as_str())?;
                    Some(Before {
                        revision: p.revision,
                        front: p.front,
                        back: p.back,
                    })
                })
                .collect()
        })
        .collect();
    Previous::new(sets)
}
