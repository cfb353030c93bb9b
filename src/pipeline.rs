//! One game through every stage, in one direction: load (for the build's
//! options) → evaluate (network, derived fields) → check (structure, plans,
//! counts, assertions) → render (SVG text) → parse (every face) → preflight →
//! deliver (layout and export). Each stage returns its value with its problems;
//! a stage with errors stops the game there. Writes nothing: the caller gets the
//! files and every diagnostic.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::check::{check_asserts, check_contents, check_structure, rule_counts};
use crate::diag::{Diagnostics, Reported};
use crate::eval::{apply_derives, base_context, build_network, Context};
use crate::export::png::PngCache;
use crate::faces::{render_all, FaceStore, ParseCache, Rendered};
use crate::model::{load_game, Game};
use crate::options::Options;
use crate::output::Outputs;
use crate::project::Project;
use crate::render::{self, FacePlan, Renderer};
use crate::template::Templates;

/// Per component set: what the build prints.
#[derive(Debug, Clone)]
pub struct Count {
    pub id: String,
    pub kind: crate::model::Kind,
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
    /// Its `[game] description`, if it has one.
    pub description: Option<String>,
    /// Wall time of each stage, in order (`--timings`).
    pub timings: Vec<(&'static str, Duration)>,
    /// The `[[assert]]` checks that ran.
    pub asserts: crate::check::Ran,
    /// Every page (or image file) of the profile's files and the faces on it:
    /// where each face prints.
    pub printed: Vec<crate::deliver::Printed>,
    /// The game's rulebook, typeset (when it has a `rules.md`).
    pub rulebook: Option<crate::rulebook::Rulebook>,
}

impl Built {
    /// Adds the time since `start` to stage `name`.
    pub fn time(&mut self, name: &'static str, start: Instant) {
        self.add_time(name, start.elapsed());
    }

    fn add_time(&mut self, name: &'static str, d: Duration) {
        match self.timings.iter_mut().find(|(n, _)| *n == name) {
            Some((_, t)) => *t += d,
            None => self.timings.push((name, d)),
        }
    }

    /// Takes a stage's problems; returns its value.
    fn take<T>(&mut self, r: Reported<T>) -> T {
        r.into_value(&mut self.diags)
    }
}

/// Caches kept between builds: parsed faces (watch mode) and rasterised faces.
#[derive(Clone, Copy, Default)]
pub struct Caches<'a> {
    pub parsed: Option<&'a ParseCache>,
    pub png: Option<&'a dyn PngCache>,
}

/// A game loaded, evaluated and checked: ready to render.
pub struct Checked {
    pub game: Game,
    pub tpl: Templates,
    /// The context every template sees.
    pub base: Context,
    /// Per component (same order as `game.components`): its planned faces, each
    /// at the revision its part had in the last print record.
    pub plans: Vec<Vec<FacePlan>>,
    /// The game's last print record, if it has one.
    pub last: Option<crate::prints::Record>,
    /// Each planned face's part in it ([`crate::render::revision`]).
    pub previous: Option<crate::render::revision::Previous>,
}

/// Loads `data/<id>/` and its templates for `opts`.
fn load(
    project: &Project,
    id: &str,
    opts: &Options,
    built: &mut Built,
) -> Option<(Game, Templates)> {
    let start = Instant::now();
    let fonts = built.take(crate::fonts::FontBook::load(project, Some(id)));
    let tpl = built.take(Templates::load(project, id, fonts));
    let game = built.take(load_game(project, id, &opts.target()));
    built.time("load", start);
    let game = game?;
    built.name = Some(game.meta.name.clone());
    built.description = game.meta.description.clone();
    Some((game, tpl))
}

/// The network and the `[[derive]]` fields; `false` when they had errors.
fn evaluate(game: &mut Game, tpl: &Templates, opts: &Options, built: &mut Built) -> bool {
    let settings = opts.settings();
    let structure = check_structure(game);
    let mut ok = !game.unparsed_data && !structure.iter().any(|d| d.is_error());
    built.diags.extend(structure);
    let net = build_network(game, tpl, &settings);
    ok &= !net.diags.has_errors();
    if let Some(network) = net.into_value(&mut built.diags) {
        tpl.set_network(network);
    }
    if ok {
        let derived = apply_derives(game, tpl, &settings);
        ok &= derived.is_empty();
        built.diags.extend(derived);
    }
    ok
}

/// Plans every component's faces and checks the counts and assertions.
fn check(
    project: &Project,
    game: &Game,
    tpl: &Templates,
    base: &Context,
    evaluated: bool,
    built: &mut Built,
) -> Vec<Vec<FacePlan>> {
    let mut plans = Vec::new();
    let mut counts = BTreeMap::new();
    let expected = built.take(rule_counts(game, tpl, base));
    for comp in &game.components {
        let planned = render::plan(game, tpl, base, comp);
        let complete = !planned.diags.has_errors()
            && comp
                .def
                .table
                .as_ref()
                .is_none_or(|t| game.tables.contains_key(t.get_ref()));
        let p = built.take(planned);
        let parts: u64 = p.iter().map(|f| f.qty as u64).sum();
        if complete {
            // A set whose rows had errors is not counted: its count would be wrong.
            counts.insert(comp.id().to_string(), parts);
        }
        built.counts.push(Count {
            id: comp.id().to_string(),
            kind: comp.kind,
            faces: p.len(),
            parts,
            expected: expected
                .iter()
                .find(|(n, _)| n.get_ref() == comp.id())
                .map(|(_, e)| *e.get_ref()),
        });
        plans.push(p);
    }
    built.diags.extend(check_contents(game, &expected, &counts));
    built
        .diags
        .extend(crate::check::typed_twice::check(game, project, tpl));
    if evaluated {
        // Assertions over broken references would only repeat the errors above.
        let (diags, ran) = check_asserts(game, tpl, base, &counts);
        built.diags.extend(diags);
        built.asserts = ran;
    }
    plans
}

/// Loads and checks a game: the stages `check`, `list` and `build` share.
/// `None` when any stage had an error (all of them are in `built.diags`).
pub fn load_and_check(
    project: &Project,
    id: &str,
    opts: &Options,
    built: &mut Built,
) -> Option<Checked> {
    let (mut game, tpl) = load(project, id, opts, built)?;
    let start = Instant::now();
    let evaluated = evaluate(&mut game, &tpl, opts, built);
    let base = base_context(&game, &opts.settings());
    let mut plans = check(project, &game, &tpl, &base, evaluated, built);
    built.time("check", start);
    if built.diags.has_errors() {
        return None;
    }
    let last = match crate::prints::last(project, id) {
        Ok(r) => r,
        Err(d) => {
            built.diags.push(d);
            return None;
        }
    };
    let previous = last.as_ref().map(|r| {
        let p = crate::prints::revision::previous(&game, &plans, r);
        p.assign(&mut plans);
        p
    });
    Some(Checked {
        game,
        tpl,
        base,
        plans,
        last,
        previous,
    })
}

/// Whether face `i` of a store is one an earlier build parsed without a problem
/// (and whose tree the caller keeps): see [`Kept::parsed`].
pub type KnownGood<'k> = &'k (dyn Fn(&FaceStore, usize) -> bool + Sync);

/// What the live preview keeps between builds, so that an edit does again only
/// what it changed.
#[derive(Clone, Copy, Default)]
pub struct Kept<'k> {
    /// Preflight findings of the faces checked before.
    pub preflight: Option<&'k crate::preflight::Cache>,
    /// Faces known to parse: they are not parsed (nor taken from the parse cache)
    /// unless a later stage asks for their tree.
    pub parsed: Option<KnownGood<'k>>,
}

/// The preflight's findings of each face, made while parsing.
type Found = Vec<Vec<crate::preflight::Located>>;

/// Renders every face and parses it (on all cores), except the faces `known` knows;
/// `None` when a template or a face had an error. With a
/// `preflight` profile (and nothing known), each face is also checked for print
/// right after it is parsed, while its tree is fresh: one pass over the faces,
/// however few trees the store keeps; the findings come back to be reported once
/// the game is known to parse.
fn render_and_parse<'a>(
    project: &Project,
    checked: &Checked,
    cache: Option<&'a ParseCache>,
    known: Option<KnownGood>,
    preflight: Option<&crate::profile::Profile>,
    built: &mut Built,
) -> Option<(Rendered<'a>, Option<Found>)> {
    let start = Instant::now();
    let renderer = Renderer {
        project,
        game: &checked.game,
        tpl: &checked.tpl,
        base: &checked.base,
    };
    let rendered = built.take(render_all(
        &renderer,
        &checked.plans,
        cache,
        checked.previous.as_ref(),
    ))?;
    built.time("render", start);
    let start = Instant::now();
    let store = &rendered.store;
    let mut found = None;
    let parsed = match known {
        None => {
            match preflight {
                Some(profile) => {
                    found = Some(crate::preflight::parse_and_check(
                        &renderer,
                        &checked.plans,
                        &rendered,
                        profile,
                    ))
                }
                None => store.parse_all(),
            }
            store.all_parsed()
        }
        Some(known) => {
            use rayon::prelude::*;
            let todo: Vec<usize> = (0..store.len()).filter(|&i| !known(store, i)).collect();
            todo.par_iter().all(|&i| store.picture(i).is_some())
        }
    };
    built.time(
        if found.is_some() {
            "parse + preflight"
        } else {
            "parse"
        },
        start,
    );
    if !parsed {
        built.diags.extend(
            rendered
                .store
                .report_problems(&renderer, &checked.plans)
                .items,
        );
        return None;
    }
    Some((rendered, found))
}

/// Typesets the game's rulebook, if it has one; `false` when that had errors.
fn typeset(project: &Project, checked: &Checked, opts: &Options, built: &mut Built) -> bool {
    let start = Instant::now();
    // What each set prints, as `[contents]` says (the checks made them agree).
    let counts: Vec<u64> = built
        .counts
        .iter()
        .map(|c| c.expected.map_or(c.parts, |e| e.max(0) as u64))
        .collect();
    let input = crate::rulebook::Input {
        project,
        game: &checked.game,
        tpl: &checked.tpl,
        base: &checked.base,
        plans: &checked.plans,
        counts: &counts,
        paper: opts.paper,
    };
    let book = crate::rulebook::typeset(&input);
    built.rulebook = built.take(book);
    built.time("rulebook", start);
    !built.diags.has_errors()
}

/// Runs a game through the whole pipeline.
pub fn build(project: &Project, id: &str, opts: &Options, caches: Caches) -> Built {
    build_then(project, id, opts, caches, |_, _, _| {})
}

/// Like [`build`], and when every face rendered and parsed and the game was
/// delivered, hands the game, its faces and the build to `then` (the live preview
/// reads them there).
pub fn build_then(
    project: &Project,
    id: &str,
    opts: &Options,
    caches: Caches,
    then: impl FnOnce(&Game, &Rendered, &Built),
) -> Built {
    build_then_kept(project, id, opts, caches, Kept::default(), then)
}

/// Like [`build_then`], with what earlier builds kept (the live preview): only
/// new faces are parsed and preflighted.
pub fn build_then_kept(
    project: &Project,
    id: &str,
    opts: &Options,
    caches: Caches,
    kept: Kept,
    then: impl FnOnce(&Game, &Rendered, &Built),
) -> Built {
    build_hooked(
        project,
        id,
        opts,
        caches,
        kept,
        |_, _| true.into(),
        |c, r, b| then(&c.game, r, b),
    )
}

/// Like [`build_then_kept`], with `choose` called once every face rendered, parsed
/// and passed preflight, before anything is delivered: it may keep only some of
/// each set's slots (a reprint delivers the parts that changed), or say that
/// nothing is to be delivered (`false`); its errors stop the build. `then` gets
/// the checked game (with its last print record) instead of the game alone.
pub fn build_hooked(
    project: &Project,
    id: &str,
    opts: &Options,
    caches: Caches,
    kept: Kept,
    choose: impl FnOnce(&Checked, &mut Rendered) -> Reported<bool>,
    then: impl FnOnce(&Checked, &Rendered, &Built),
) -> Built {
    let mut built = Built::default();
    let Some(checked) = load_and_check(project, id, opts, &mut built) else {
        return built;
    };
    if !typeset(project, &checked, opts, &mut built) {
        return built;
    }
    // Preflight in the parsing pass, unless the live preview keeps its findings.
    let preflight = kept.preflight.is_none().then_some(&opts.profile);
    let Some((mut rendered, found)) = render_and_parse(
        project,
        &checked,
        caches.parsed,
        kept.parsed,
        preflight,
        &mut built,
    ) else {
        return built;
    };
    built.diags.extend(crate::eval::unused_copies(
        &checked.game,
        &checked.base,
        &opts.settings(),
    ));
    let start = Instant::now();
    let renderer = Renderer {
        project,
        game: &checked.game,
        tpl: &checked.tpl,
        base: &checked.base,
    };
    let pre = match found {
        Some(found) => crate::preflight::report(&renderer, &rendered, &opts.profile, found),
        None => {
            let pre = crate::preflight::check_cached(
                &renderer,
                &checked.plans,
                &rendered,
                &opts.profile,
                kept.preflight,
            );
            built.time("preflight", start);
            pre
        }
    };
    built.diags.extend(pre);
    // A build with errors delivers nothing, but its delivery is still checked.
    if !built.diags.has_errors() && !built.take(choose(&checked, &mut rendered)) {
        then(&checked, &rendered, &built);
        return built;
    }
    let delivered = built.take(crate::deliver::deliver(
        &checked.game,
        &rendered,
        built.rulebook.as_ref(),
        opts,
        caches.png,
    ));
    for (name, d) in delivered.timings {
        built.add_time(name, d);
    }
    built.pages = delivered.pages;
    built.printed = delivered.printed;
    if !built.diags.has_errors() {
        built.outputs = delivered.outputs;
    }
    then(&checked, &rendered, &built);
    built
}
