//! Loading a game folder: `game.toml` (definitions) and every other `*.toml` file
//! (data tables), keeping spans for diagnostics.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::schema::GameFile;
use super::{Component, Field, Game, Kind, Row, Size, Spanned, Table};
use crate::diag::{did_you_mean, Diagnostic};
use crate::units::parse_length;

/// Largest data file accepted (a real game's tables are a few kilobytes).
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

type RowMap = BTreeMap<Spanned<String>, Spanned<toml::Value>>;
type TableFile = BTreeMap<Spanned<String>, Spanned<Vec<Spanned<RowMap>>>>;

/// Reads a text file of the project, refusing huge files.
pub(crate) fn read_text(root: &Path, rel: &Path) -> Result<String, Diagnostic> {
    let path = root.join(rel);
    let meta = std::fs::metadata(&path).map_err(|e| {
        Diagnostic::error(format!("cannot read {}: {e}", rel.display())).at(rel, None)
    })?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(Diagnostic::error(format!(
            "{} is {} bytes, over the {} byte limit for one file",
            rel.display(),
            meta.len(),
            MAX_FILE_BYTES
        ))
        .at(rel, None)
        .hint("split the data into smaller files"));
    }
    std::fs::read_to_string(&path).map_err(|e| {
        Diagnostic::error(format!("cannot read {}: {e}", rel.display()))
            .at(rel, None)
            .hint("save the file as UTF-8 text")
    })
}

/// Turns a TOML/serde error into a diagnostic, with "did you mean" for unknown fields.
pub(crate) fn toml_error(rel: &Path, game: &str, err: &toml::de::Error) -> Diagnostic {
    let msg = err.message().trim().to_string();
    let mut d = Diagnostic::error(first_line(&msg))
        .at(rel, err.span())
        .with("game", game);
    if let Some(rest) = msg.strip_prefix("unknown field `") {
        if let Some((word, tail)) = rest.split_once('`') {
            let candidates: Vec<&str> = tail.split('`').skip(1).step_by(2).collect();
            d = match did_you_mean(word, candidates.iter().copied()) {
                Some(m) => d.hint(format!("did you mean `{m}`?")),
                None => d.hint(format!(
                    "remove it; known fields: {}",
                    candidates.join(", ")
                )),
            };
        }
    } else if msg.starts_with("missing field") {
        d = d.hint("add the field; see README.md for what each field means");
    } else if msg.starts_with("invalid type") {
        d = d.hint("check the value's type: strings need quotes, numbers and booleans do not");
    } else {
        d = d.hint("fix the TOML syntax at the caret");
    }
    d
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or(s).to_string()
}

/// Loads `data/<id>/`. Returns the game (if its definitions could be read) and every
/// problem found while loading.
pub fn load_game(root: &Path, id: &str) -> (Option<Game>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let dir = PathBuf::from("data").join(id);
    let file = dir.join("game.toml");
    if let Err(why) = crate::project::check_name(id) {
        return (
            None,
            vec![Diagnostic::error(format!("game folder name `{id}` {why}"))
                .at(&file, None)
                .with("game", id)
                .hint("rename the folder under data/: it becomes the output folder's name")],
        );
    }
    let text = match read_text(root, &file) {
        Ok(t) => t,
        Err(d) => return (None, vec![d]),
    };
    let parsed: GameFile = match toml::from_str(&text) {
        Ok(p) => p,
        Err(e) => return (None, vec![toml_error(&file, id, &e)]),
    };

    let before = diags.len();
    let tables = load_tables(root, &dir, id, &mut diags);
    let unparsed_data = diags.len() > before;
    let mut rejected = std::collections::BTreeSet::new();

    let mut components = Vec::new();
    let mut seen: BTreeMap<String, std::ops::Range<usize>> = BTreeMap::new();
    for c in parsed.component {
        let span = c.span();
        let def = c.into_inner();
        let cid = def.id.get_ref().clone();
        let at = |d: Diagnostic, span| {
            d.at(&file, Some(span))
                .with("game", id)
                .with("component", cid.clone())
        };
        if let Err(why) = crate::project::check_name(&cid) {
            rejected.insert(cid.clone());
            diags.push(
                at(
                    Diagnostic::error(format!("component id `{cid}` {why}")),
                    def.id.span(),
                )
                .hint("use lowercase letters, digits and hyphens, e.g. `contract-cards`"),
            );
            continue;
        }
        if seen.insert(cid.clone(), def.id.span()).is_some() {
            diags.push(
                at(
                    Diagnostic::error(format!("duplicate component id `{cid}`")),
                    def.id.span(),
                )
                .hint("give every [[component]] its own id"),
            );
            continue;
        }
        let reject = |rejected: &mut std::collections::BTreeSet<String>| {
            rejected.insert(cid.clone());
        };
        let kind = match Kind::parse(def.kind.get_ref()) {
            Some(k) => k,
            None => {
                let word = def.kind.get_ref();
                let hint = match did_you_mean(word, Kind::NAMES) {
                    Some(m) => format!("did you mean `{m}`?"),
                    None => format!("use one of: {}", Kind::NAMES.join(", ")),
                };
                diags.push(
                    at(
                        Diagnostic::error(format!("unknown component kind `{word}`")),
                        def.kind.span(),
                    )
                    .hint(hint),
                );
                reject(&mut rejected);
                continue;
            }
        };
        let size = match Size::from_toml(def.size.get_ref()) {
            Ok(s) => s,
            Err(why) => {
                diags.push(at(Diagnostic::error(why), def.size.span())
                    .hint("use a named size (poker, bridge, mini-euro, chit-3/4in, tile-2in, ...) or { width = \"63.5mm\", height = \"88.9mm\" }"));
                reject(&mut rejected);
                continue;
            }
        };
        let bleed = match &def.bleed {
            None => kind.default_bleed(),
            Some(b) => match parse_length(b.get_ref()) {
                Ok(v) if (0.0..=25.4).contains(&v) => v,
                Ok(v) => {
                    diags.push(
                        at(
                            Diagnostic::error(format!("bleed {v} mm is outside 0..25.4 mm")),
                            b.span(),
                        )
                        .hint("print shops ask for 3mm (1/8in)"),
                    );
                    reject(&mut rejected);
                    continue;
                }
                Err(why) => {
                    diags.push(
                        at(Diagnostic::error(why), b.span())
                            .hint("write the bleed like \"3mm\" or \"1/8in\""),
                    );
                    reject(&mut rejected);
                    continue;
                }
            },
        };
        if let Some(t) = &def.table {
            if !tables.contains_key(t.get_ref()) && !unparsed_data {
                let names: Vec<&str> = tables.keys().map(String::as_str).collect();
                let hint = match did_you_mean(t.get_ref(), names.iter().copied()) {
                    Some(m) => format!("did you mean `{m}`?"),
                    None => format!(
                        "add [[{}]] rows to a .toml file in {}; tables found: {}",
                        t.get_ref(),
                        dir.display(),
                        names.join(", ")
                    ),
                };
                diags.push(
                    at(
                        Diagnostic::error(format!(
                            "component `{cid}` uses table `{}`, which no data file defines",
                            t.get_ref()
                        )),
                        t.span(),
                    )
                    .hint(hint),
                );
            }
        } else if let Some(e) = &def.expand {
            diags.push(
                at(Diagnostic::error("`expand` needs a `table`"), e.span())
                    .hint("add `table = \"...\"` or remove `expand`"),
            );
        }
        let (art, art_back) = match resolve_art(root, &dir, &def) {
            Ok(a) => a,
            Err(d) => {
                let sp = def.art.as_ref().map(|a| a.span()).unwrap_or(span.clone());
                diags.push(at(d, sp));
                rejected.insert(cid.clone());
                continue;
            }
        };
        if def.front.is_none() == art.is_empty() {
            let msg = if art.is_empty() {
                "a component needs `front` (a template) or `art` (finished image files)"
            } else {
                "a component has either `front` (a template) or `art` (image files), not both"
            };
            diags.push(at(Diagnostic::error(msg), span.clone()).hint(
                "write `front = \"card.svg\"`, or `art = \"art/cards/*.svg\"` for finished art",
            ));
            rejected.insert(cid.clone());
            continue;
        }
        components.push(Component {
            def,
            span,
            kind,
            size,
            bleed,
            art,
            art_back,
        });
    }

    let contents = parsed.contents.into_iter().collect();
    let game = Game {
        id: id.to_string(),
        file,
        root: root.to_path_buf(),
        meta: parsed.game,
        rules: parsed.rules.unwrap_or_default(),
        contents,
        components,
        derives: parsed.derive,
        asserts: parsed.asserts,
        references: parsed.reference,
        network: parsed.network,
        tables,
        settings: BTreeMap::new(),
        rejected,
        unparsed_data,
    };
    (Some(game), diags)
}

/// Loads every `*.toml` in the game folder except `game.toml`, in name order.
fn load_tables(
    root: &Path,
    dir: &Path,
    game: &str,
    diags: &mut Vec<Diagnostic>,
) -> BTreeMap<String, Table> {
    let mut tables: BTreeMap<String, Table> = BTreeMap::new();
    let mut files: Vec<PathBuf> = match std::fs::read_dir(root.join(dir)) {
        Ok(rd) => rd
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .filter(|p| p.file_name().is_some_and(|n| n != "game.toml"))
            .filter_map(|p| p.file_name().map(|n| dir.join(n)))
            .collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    for rel in files {
        let text = match read_text(root, &rel) {
            Ok(t) => t,
            Err(d) => {
                diags.push(d.with("game", game));
                continue;
            }
        };
        let parsed: TableFile = match toml::from_str(&text) {
            Ok(p) => p,
            Err(e) => {
                let mut d = toml_error(&rel, game, &e);
                if e.message().starts_with("invalid type") {
                    d = d.hint("a data file holds only tables of rows: write each row as [[name]] followed by its fields");
                }
                diags.push(d);
                continue;
            }
        };
        for (name, rows) in parsed {
            let tname = name.get_ref().clone();
            if let Some(prev) = tables.get(&tname) {
                diags.push(
                    Diagnostic::error(format!("table `{tname}` is defined twice"))
                        .at(&rel, Some(name.span()))
                        .with("game", game)
                        .hint(format!(
                            "keep all [[{tname}]] rows in one file (first seen in {})",
                            prev.file.display()
                        )),
                );
                continue;
            }
            let rows = rows
                .into_inner()
                .into_iter()
                .map(|r| {
                    let span = r.span();
                    let fields = r
                        .into_inner()
                        .into_iter()
                        .map(|(k, v)| {
                            let key_span = k.span();
                            let span = v.span();
                            (
                                k.into_inner(),
                                Field {
                                    key_span,
                                    span,
                                    value: v.into_inner(),
                                },
                            )
                        })
                        .collect();
                    Row {
                        span,
                        fields,
                        derived: BTreeMap::new(),
                    }
                })
                .collect();
            tables.insert(
                tname.clone(),
                Table {
                    name: tname,
                    file: rel.clone(),
                    rows,
                },
            );
        }
    }
    tables
}

/// Resolves a component's `art` pattern or list and `art_back` into project-relative
/// files: only inside `data/<game>/`, only `*` in the file name, sorted.
fn resolve_art(
    root: &Path,
    dir: &Path,
    def: &super::ComponentDef,
) -> Result<(Vec<PathBuf>, Option<PathBuf>), Diagnostic> {
    let safe = |p: &str| -> Result<PathBuf, Diagnostic> {
        let rel = PathBuf::from(p);
        if rel.is_absolute()
            || rel
                .components()
                .any(|c| !matches!(c, std::path::Component::Normal(_)))
            || p.contains("://")
        {
            return Err(Diagnostic::error(format!(
                "art path `{p}` must be relative to the game folder, without `..`"
            ))
            .hint("put the art under data/<game>/, e.g. data/<game>/art/"));
        }
        Ok(dir.join(rel))
    };
    let mut files = Vec::new();
    let patterns: Vec<String> = match def.art.as_ref().map(|a| a.get_ref()) {
        None => Vec::new(),
        Some(toml::Value::String(s)) => vec![s.clone()],
        Some(toml::Value::Array(a)) => a
            .iter()
            .map(|v| {
                v.as_str()
                    .map(String::from)
                    .ok_or_else(|| Diagnostic::error("`art` lists file names as strings"))
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(
                Diagnostic::error("`art` must be a file pattern or a list of files")
                    .hint("e.g. art = \"art/cards/*.svg\""),
            )
        }
    };
    for pat in &patterns {
        let path = safe(pat)?;
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        if let Some((pre, post)) = name.split_once('*') {
            let folder = path.parent().unwrap_or(dir).to_path_buf();
            let mut found: Vec<PathBuf> = std::fs::read_dir(root.join(&folder))
                .map(|rd| {
                    rd.filter_map(|e| e.ok())
                        .filter_map(|e| e.file_name().to_str().map(String::from))
                        .filter(|n| {
                            n.starts_with(pre)
                                && n.ends_with(post)
                                && n.len() >= pre.len() + post.len()
                        })
                        .map(|n| folder.join(n))
                        .collect()
                })
                .unwrap_or_default();
            found.sort();
            if found.is_empty() {
                return Err(
                    Diagnostic::error(format!("no file matches the art pattern `{pat}`"))
                        .hint(format!("put the files in {}", folder.display())),
                );
            }
            files.extend(found);
        } else if root.join(&path).is_file() {
            files.push(path);
        } else {
            return Err(
                Diagnostic::error(format!("art file `{pat}` does not exist"))
                    .hint(format!("looked for {}", path.display())),
            );
        }
    }
    let back = match &def.art_back {
        None => None,
        Some(b) => {
            let p = safe(b.get_ref())?;
            if !root.join(&p).is_file() {
                return Err(Diagnostic::error(format!(
                    "art back `{}` does not exist",
                    b.get_ref()
                ))
                .hint(format!("looked for {}", p.display())));
            }
            Some(p)
        }
    };
    Ok((files, back))
}
