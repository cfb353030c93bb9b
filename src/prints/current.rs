//! The parts a build prints, as a record lists them: key, name, copies, revision,
//! the hashes of their faces and where they print.

use std::collections::BTreeMap;

use super::hash::{short, FaceHash};
use super::key::{part_keys, part_name, row_fields, row_key, table_of};
use super::record::{PartRecord, Record, RowRecord, SetRecord};
use crate::deliver::Printed;
use crate::faces::Rendered;
use crate::image::Linked;
use crate::model::{Component, Game};
use crate::project::Project;
use crate::template::Templates;

/// Every part a build prints, set by set (the sets it exports, in the game's order).
#[derive(Debug, Default)]
pub struct Current {
    pub sets: Vec<CurrentSet>,
}

/// The parts of one set.
#[derive(Debug)]
pub struct CurrentSet {
    /// The set's index in `game.components` (and in the build's slots).
    pub component: usize,
    pub parts: Vec<CurrentPart>,
}

/// One part: a slot of the build.
#[derive(Debug, Clone)]
pub struct CurrentPart {
    /// Its index in the set's slots.
    pub slot: usize,
    pub key: String,
    /// What a designer calls it ([`super::key::part_name`]).
    pub name: String,
    /// Its row in the set's table.
    pub row: Option<usize>,
    pub qty: u32,
    pub revision: u32,
    pub front: FaceHash,
    pub back: Option<FaceHash>,
    /// Where it prints, relative to the profile's folder.
    pub at: String,
}

/// The hash of every face of the build's store.
fn store_hashes(project: &Project, game: &Game, r: &Rendered) -> Vec<FaceHash> {
    let mut linked = Linked::new(project, &game.id);
    (0..r.store.len())
        .map(|i| {
            let svg = r.store.svg(i);
            FaceHash::of(&svg, r.store.sizes[i], &linked.of(&svg))
        })
        .collect()
}

/// A face's place: its file, and its page and place on the page (none for an
/// image file).
type Place = (String, Option<(usize, usize)>);

/// Where each face prints, in the first file that shows it, `folder/` taken off
/// the files' names.
fn placements(printed: &[Printed], folder: &str) -> BTreeMap<usize, Vec<Place>> {
    let mut out: BTreeMap<usize, Vec<Place>> = BTreeMap::new();
    let mut file_of: BTreeMap<usize, String> = BTreeMap::new();
    for p in printed {
        let file = p
            .file
            .strip_prefix(&format!("{folder}/"))
            .unwrap_or(&p.file)
            .to_string();
        for (k, &f) in p.faces.iter().enumerate() {
            if *file_of.entry(f).or_insert_with(|| file.clone()) != file {
                continue;
            }
            out.entry(f)
                .or_default()
                .push((file.clone(), p.page.map(|page| (page, k + 1))));
        }
    }
    out
}

/// `g.pdf p1 #1-3 p2 #5; g-one-sided.pdf p3 #1`: consecutive places on a page as
/// one run.
fn at_text(list: &[Place]) -> String {
    let mut files: Vec<String> = Vec::new();
    let mut i = 0;
    while i < list.len() {
        let file = &list[i].0;
        let mut runs: Vec<(usize, usize, usize)> = Vec::new();
        while i < list.len() && list[i].0 == *file {
            if let Some((page, slot)) = list[i].1 {
                match runs.last_mut() {
                    Some((p, _, b)) if *p == page && *b + 1 == slot => *b = slot,
                    _ => runs.push((page, slot, slot)),
                }
            }
            i += 1;
        }
        let mut text = file.clone();
        let mut k = 0;
        while k < runs.len() {
            let (p, a, b) = runs[k];
            // Pages holding one place each (a board's tiles): `p12-26`.
            let mut last = k;
            while (a, b) == (1, 1) && runs.get(last + 1) == Some(&(runs[last].0 + 1, 1, 1)) {
                last += 1;
            }
            text.push_str(&match (last > k, a == b) {
                (true, _) => format!(" p{p}-{}", runs[last].0),
                (false, true) => format!(" p{p} #{a}"),
                (false, false) => format!(" p{p} #{a}-{b}"),
            });
            k = last + 1;
        }
        files.push(text);
    }
    files.join("; ")
}

impl Current {
    /// The parts of a build: `r` its faces, `printed` where they print (in the
    /// profile's folder `folder`).
    pub fn of(
        project: &Project,
        game: &Game,
        r: &Rendered,
        printed: &[Printed],
        folder: &str,
    ) -> Current {
        let hashes = store_hashes(project, game, r);
        let mut places = placements(printed, folder);
        // Copies of each front, to share its places out among the parts showing it.
        let mut copies: BTreeMap<usize, u64> = BTreeMap::new();
        for slots in &r.slots {
            for s in slots {
                *copies.entry(s.front).or_default() += u64::from(s.plan.qty);
            }
        }
        let mut sets = Vec::new();
        for (ci, comp) in game.components.iter().enumerate() {
            let slots = &r.slots[ci];
            if !comp.exported || slots.is_empty() {
                continue;
            }
            let plans: Vec<_> = slots.iter().map(|s| s.plan.clone()).collect();
            let keys = part_keys(game, comp, &plans);
            let parts = slots
                .iter()
                .zip(keys)
                .enumerate()
                .map(|(i, (s, key))| {
                    let list = places.entry(s.front).or_default();
                    let total = copies.get(&s.front).copied().unwrap_or(1).max(1) as usize;
                    let mine = if list.len() >= total {
                        let per_copy = list.len() / total;
                        let n = (per_copy * s.plan.qty as usize).min(list.len());
                        list.drain(..n).collect()
                    } else {
                        list.clone()
                    };
                    CurrentPart {
                        slot: i,
                        key,
                        name: part_name(game, comp, &s.plan),
                        row: s.plan.row,
                        qty: s.plan.qty,
                        revision: s.plan.revision,
                        front: hashes[s.front],
                        back: s.back.map(|b| hashes[b]),
                        at: at_text(&mine),
                    }
                })
                .collect();
            sets.push(CurrentSet {
                component: ci,
                parts,
            });
        }
        Current { sets }
    }

    /// The record of these parts as printed: number `number`, of `game` (with its
    /// templates `tpl`) printed with profile `profile` on `paper`.
    pub fn record(&self, game: &Game, tpl: &Templates, head: Record) -> Record {
        let mut tables = BTreeMap::new();
        for (name, t) in &game.tables {
            let rows = t
                .rows
                .iter()
                .enumerate()
                .map(|(i, row)| RowRecord {
                    key: row_key(t, i),
                    fields: row_fields(row),
                })
                .collect();
            tables.insert(name.clone(), rows);
        }
        let templates = tpl
            .env
            .templates()
            .map(|(name, t)| (name.to_string(), short(t.source())))
            .collect();
        let sets = self
            .sets
            .iter()
            .map(|s| {
                let comp = &game.components[s.component];
                SetRecord {
                    id: comp.id().to_string(),
                    name: comp.name(),
                    kind: comp.kind.name().to_string(),
                    table: table_of(game, comp).map(|t| t.name.clone()),
                    front: template(game, tpl, comp, comp.def.front.as_ref()),
                    back: template(game, tpl, comp, comp.def.back.as_ref()),
                    layer: template(game, tpl, comp, comp.def.layer.as_ref()),
                    parts: s
                        .parts
                        .iter()
                        .map(|p| PartRecord {
                            key: p.key.clone(),
                            qty: p.qty,
                            revision: p.revision,
                            front: p.front,
                            back: p.back,
                            at: p.at.clone(),
                        })
                        .collect(),
                    span: 0..0,
                }
            })
            .collect();
        Record {
            game: game.id.clone(),
            rules: game.rules.clone(),
            templates,
            tables,
            sets,
            ..head
        }
    }
}

/// A set's template (front, back or layer) by its name in the environment.
pub fn template(
    game: &Game,
    tpl: &Templates,
    _comp: &Component,
    reference: Option<&crate::model::Spanned<String>>,
) -> Option<String> {
    tpl.resolve(&game.id, reference?.get_ref()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_written_in_runs() {
        let l = |f: &str, page, slot| (f.to_string(), Some((page, slot)));
        let list = [
            l("g.pdf", 1, 1),
            l("g.pdf", 1, 2),
            l("g.pdf", 1, 3),
            l("g.pdf", 2, 5),
            l("g-one-sided.pdf", 3, 1),
            l("g-one-sided.pdf", 4, 1),
            l("g-one-sided.pdf", 5, 1),
        ];
        assert_eq!(at_text(&list), "g.pdf p1 #1-3 p2 #5; g-one-sided.pdf p3-5");
        assert_eq!(at_text(&[("png/a.png".to_string(), None)]), "png/a.png");
    }
}
