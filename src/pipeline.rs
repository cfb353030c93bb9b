//! One game through the whole pipeline: load, check, render, parse, lay out, export.
//! Returns the files to write and every diagnostic; writes nothing itself.

use std::collections::BTreeMap;
use std::path::Path;

use crate::check::{check_asserts, check_contents, check_structure};
use crate::diag::{Diagnostic, Diagnostics};
use crate::eval::{apply_derives, build_network};
use crate::faces::render_all;
use crate::layout::{self, Paper};
use crate::model::{load_game, Game};
use crate::output::Outputs;
use crate::profile::{Output, Profile};
use crate::render::{self, FacePlan};
use crate::template::Templates;

/// What to produce.
#[derive(Debug, Clone)]
pub struct Options {
    pub paper: Paper,
    pub pdf: bool,
    pub svg: bool,
    pub png: bool,
    /// PNG resolution.
    pub dpi: f64,
    /// `--copies N`: templates and expressions see it as `settings.copies`.
    pub copies: Option<u32>,
    /// How the parts leave the tool (home sheets, a shop's files, ...).
    pub profile: Profile,
    /// Shift of every back sheet, in mm (`--back-offset X,Y`).
    pub back_offset: (f64, f64),
    /// Where the output will be, for absolute links (Tabletop Simulator's URLs).
    pub url_base: String,
    /// Deflate PDF content streams (off in watch mode, for speed).
    pub compress: bool,
    /// Where rasterised faces are cached between builds (inside the output
    /// folder); `None` rasterises every face every time.
    pub cache_dir: Option<std::path::PathBuf>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            paper: layout::PAPERS[0],
            pdf: true,
            svg: false,
            png: false,
            dpi: 300.0,
            copies: None,
            profile: Profile::home(),
            back_offset: (0.0, 0.0),
            url_base: "file:///output".into(),
            compress: true,
            cache_dir: None,
        }
    }
}

/// Per component set: what the build prints.
#[derive(Debug, Clone)]
pub struct Count {
    pub id: String,
    pub kind: String,
    /// Distinct faces (rows, expanded items).
    pub faces: usize,
    /// Printed parts (faces x copies).
    pub parts: u64,
    /// The rules' count from `[contents]`, if listed.
    pub expected: Option<i64>,
}

/// The result of running a game through the pipeline.
#[derive(Debug, Default)]
pub struct Built {
    pub outputs: Outputs,
    pub diags: Diagnostics,
    pub counts: Vec<Count>,
    pub pages: usize,
    /// The game's name, once its `game.toml` has loaded.
    pub name: Option<String>,
    /// Wall time of each stage, in order (`--timings`).
    pub timings: Vec<(&'static str, std::time::Duration)>,
}

impl Built {
    /// Adds the time since `start` to stage `name`.
    pub fn time(&mut self, name: &'static str, start: std::time::Instant) {
        let d = start.elapsed();
        match self.timings.iter_mut().find(|(n, _)| *n == name) {
            Some((_, t)) => *t += d,
            None => self.timings.push((name, d)),
        }
    }
}

/// Loads and checks a game: the first half of the pipeline, shared by `check`
/// and `build`. Returns the game, templates and plans only if there are no errors.
pub fn load_and_check(
    root: &Path,
    id: &str,
    opts: &Options,
    built: &mut Built,
) -> Option<(Game, Templates, Vec<Vec<FacePlan>>)> {
    let start = std::time::Instant::now();
    let (tpl, tdiags) = Templates::load(root);
    // Template syntax errors anywhere in templates/ matter only for this game's and
    // common templates.
    built.diags.extend(tdiags.into_iter().filter(|d| {
        d.file.as_ref().is_some_and(|f| {
            f.starts_with(Path::new("templates").join(id)) || f.starts_with("templates/common")
        })
    }));
    let (game, diags) = load_game(root, id);
    built.diags.extend(diags);
    built.time("load", start);
    let start = std::time::Instant::now();
    let mut game = game?;
    built.name = Some(game.meta.name.clone());
    game.settings
        .insert("paper".into(), minijinja::Value::from(opts.paper.name));
    game.settings.insert(
        "copies".into(),
        opts.copies
            .map(minijinja::Value::from)
            .unwrap_or(minijinja::Value::from(())),
    );
    for comp in &mut game.components {
        if comp.def.size.get_ref().as_str() == Some("half-paper") {
            comp.size = crate::model::Size::half_of(opts.paper.width, opts.paper.height);
        }
    }
    let structure = check_structure(&game);
    let broken = game.unparsed_data
        || structure
            .iter()
            .any(|d| d.severity == crate::diag::Severity::Error);
    built.diags.extend(structure);
    let net = build_network(&game, &tpl);
    let broken = broken
        || net
            .iter()
            .any(|d| d.severity == crate::diag::Severity::Error);
    built.diags.extend(net);
    let derived = if broken {
        Vec::new()
    } else {
        apply_derives(&mut game, &tpl)
    };
    let broken = broken || !derived.is_empty();
    built.diags.extend(derived);
    let mut plans = Vec::new();
    let mut counts = BTreeMap::new();
    for comp in &game.components {
        let (p, d) = render::plan(&game, &tpl, comp);
        let planned = !d.iter().any(|d| d.severity == crate::diag::Severity::Error)
            && comp
                .def
                .table
                .as_ref()
                .is_none_or(|t| game.tables.contains_key(t.get_ref()));
        built.diags.extend(d);
        let parts: u64 = p.iter().map(|f| f.qty as u64).sum();
        if planned {
            // A set whose rows had errors is not counted: its count would be wrong.
            counts.insert(comp.id().to_string(), parts);
        }
        built.counts.push(Count {
            id: comp.id().to_string(),
            kind: format!("{:?}", comp.kind).to_lowercase(),
            faces: p.len(),
            parts,
            expected: game
                .contents
                .iter()
                .find(|(n, _)| n.get_ref() == comp.id())
                .map(|(_, e)| *e.get_ref()),
        });
        plans.push(p);
    }
    built.diags.extend(check_contents(&game, &counts));
    if !broken {
        // Assertions over broken references would only repeat the errors above.
        built.diags.extend(check_asserts(&game, &tpl, &counts));
    }
    built.time("check", start);
    if built.diags.has_errors() {
        return None;
    }
    Some((game, tpl, plans))
}

/// Runs a game through the whole pipeline.
pub fn build(root: &Path, id: &str, opts: &Options) -> Built {
    build_with(root, id, opts, None)
}

/// Runs a game through the whole pipeline, reusing parsed faces from `cache`
/// (watch mode keeps one between builds).
pub fn build_with(
    root: &Path,
    id: &str,
    opts: &Options,
    cache: Option<&crate::faces::ParseCache>,
) -> Built {
    let mut built = Built::default();
    let loaded = load_and_check(root, id, opts, &mut built);
    let Some((mut game, tpl, plans)) = loaded else {
        return built;
    };
    // A shop profile fixes each part's full size: its bleed replaces the component's,
    // and parts the shop does not make are left out (with a warning).
    let mut skip = vec![false; game.components.len()];
    if matches!(opts.profile.output, Output::FacePng | Output::FacePdf) {
        for (ci, comp) in game.components.iter_mut().enumerate() {
            let name = comp.def.size.get_ref().as_str();
            match opts.profile.full_size(name, comp.size) {
                Some(full) => {
                    comp.bleed = ((full.width - comp.size.width) / 2.0)
                        .min((full.height - comp.size.height) / 2.0)
                }
                None => {
                    skip[ci] = true;
                    built.diags.push(
                        Diagnostic::warning(format!(
                            "{} has no product for `{}` ({} x {} mm): not exported for this profile",
                            opts.profile.name,
                            comp.id(),
                            crate::units::fmt_num(comp.size.width),
                            crate::units::fmt_num(comp.size.height)
                        ))
                        .at(&game.file, Some(comp.def.size.span()))
                        .with("game", &game.id)
                        .with("component", comp.id())
                        .hint(format!("add the size to profiles/{}.toml if the shop makes it", opts.profile.id)),
                    );
                }
            }
        }
    }
    let Some(rendered) = render_all(root, &game, &tpl, &plans, &skip, cache, &mut built) else {
        return built;
    };
    // Parse the faces on the rayon pool while this thread goes on: the PDF writer
    // takes them in order as they are ready (on 2 cores the two stages overlap), and
    // `check` (no PDF) has them parsed on every core. Profiles that only rasterise
    // parse each face on the core that rasterises it.
    let before = built.diags.items.len();
    let stage = built.timings.len();
    let prefetch = !matches!(opts.profile.output, Output::FacePng | Output::Tts);
    let parse_time = std::thread::scope(|s| {
        let parse = prefetch.then(|| {
            s.spawn(|| {
                let start = std::time::Instant::now();
                rendered.store.parse_all();
                start.elapsed()
            })
        });
        crate::deliver::deliver(root, &game, &rendered, opts, &mut built);
        parse.and_then(|p| p.join().ok())
    });
    if let Some(t) = parse_time {
        // Listed before the stage it ran beside (their times overlap).
        built.timings.insert(stage, ("parse", t));
    }
    if !rendered.store.all_parsed() {
        // What was built from the other faces is void: say only why.
        built.diags.items.truncate(before);
        built.outputs = Outputs::default();
        rendered
            .store
            .report_problems(root, &game, &mut built.diags);
        return built;
    }
    let start = std::time::Instant::now();
    let pre = crate::preflight::check(&game, &rendered, &opts.profile);
    built.diags.extend(pre);
    built.time("preflight", start);
    built
}
