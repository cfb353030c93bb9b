//! One game through every stage, in one direction: load (for the build's
//! options) → evaluate (network, derived fields) → check (structure, plans,
//! counts, assertions) → render (SVG text) → parse (every face) → preflight →
//! deliver (layout and export). Each stage returns its value with its problems;
//! a stage with errors stops the game there. Writes nothing: the caller gets the
//! files (waiting where the caller's [`Sink`] says) and every diagnostic.

/// The live preview's data files' strings, for numbers typed twice
/// ([`Incremental::strings`]).
pub use crate::check::typed_twice::DataStrings;
/// The live preview's store of `[[assert]]`s that held ([`Incremental::asserts`]).
pub use crate::check::AssertCache;
/// The live preview's store of `[[derive]]` values ([`Incremental::derives`]).
pub use crate::check::DeriveCache;
/// The live preview's parsed `game.toml` ([`Incremental::game_file`]).
pub use crate::model::GameFileCache;
/// The live preview's store of rendered faces ([`Incremental::rendered`]).
pub use crate::render::RenderCache;
/// The live preview's typeset rulebook ([`Incremental::rulebook`]).
pub use crate::rulebook::RulebookCache;
/// The live preview's compiled templates ([`Incremental::templates`]).
pub use crate::template::TemplateCache;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::check::{check_asserts, check_contents, check_structure, rule_counts};
use crate::diag::{Diagnostics, Reported};
use crate::eval::{apply_derives, base_context, build_network, table_rows, Context};
use crate::export::png::PngCache;
use crate::faces::{render_all, FaceStore, ParseCache, Rendered};
use crate::model::{load_game, Game};
use crate::network::Network;
use crate::options::Options;
use crate::output::{Outputs, Sink};
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

/// Loads `data/<id>/` and its templates for `opts`, taking what the live preview
/// kept (`incremental`: the compiled templates, `game.toml` parsed) where it holds.
fn load(
    project: &Project,
    id: &str,
    opts: &Options,
    incremental: &Incremental,
    built: &mut Built,
) -> Option<(Game, Templates)> {
    let start = Instant::now();
    let fonts = built.take(crate::fonts::FontBook::load(project, Some(id)));
    let tpl = built.take(Templates::load(project, id, fonts, incremental.templates));
    let game = built.take(load_game(
        project,
        id,
        &opts.target(),
        incremental.game_file,
    ));
    built.time("load", start);
    let game = game?;
    built.name = Some(game.meta.name.clone());
    built.description = game.meta.description.clone();
    Some((game, tpl))
}

/// A game's data evaluated: the game with its derived fields, and its network.
struct Evaluated {
    game: Game,
    /// The game's `[network]`, built (none without one or when it had errors).
    network: Option<Arc<Network>>,
    /// The context of its templates and expressions, made with the derives
    /// (none when they did not run).
    base: Option<Context>,
}

/// The structure checks, the network and the `[[derive]]` fields (computed only
/// when the checks before had no error, with `distance()` over the network;
/// with `kept`, a row whose inputs did not change keeps its values).
fn evaluate(
    game: Game,
    tpl: &Templates,
    opts: &Options,
    kept: Option<(&DeriveCache, &Project)>,
) -> Reported<Evaluated> {
    let settings = opts.settings();
    let mut diags = Diagnostics::default();
    check_structure(&game).into_value(&mut diags);
    let rows = table_rows(&game);
    let network = build_network(&game, tpl, &settings, &rows)
        .into_value(&mut diags)
        .map(Arc::new);
    if game.unparsed_data || diags.has_errors() {
        let base = None;
        return Reported::new(
            Evaluated {
                game,
                network,
                base,
            },
            diags.items,
        );
    }
    let kept = kept.map(|(cache, project)| {
        cache.begin();
        crate::check::derived::Kept { cache, project }
    });
    let derived = apply_derives(
        game,
        network.as_ref(),
        (tpl, &settings),
        rows,
        kept.as_ref().map(|k| k as &dyn crate::eval::KeptDerives),
    );
    if let Some(k) = &kept {
        k.cache.finish();
    }
    let (game, base) = derived.into_value(&mut diags);
    let base = Some(base);
    Reported::new(
        Evaluated {
            game,
            network,
            base,
        },
        diags.items,
    )
}

/// Plans every component's faces and checks the counts; gives the plans and
/// each complete set's printed parts.
fn check(
    project: &Project,
    (game, tpl, base): (&Game, &Templates, &Context),
    strings: Option<&crate::check::typed_twice::DataStrings>,
    built: &mut Built,
) -> (Vec<Vec<FacePlan>>, BTreeMap<String, u64>) {
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
    built.take(check_contents(game, &expected, &counts));
    built.take(crate::check::typed_twice::check(
        game, project, tpl, strings,
    ));
    (plans, counts)
}

/// Loads and checks a game: the stages `check`, `list` and `build` share.
/// `None` when any stage had an error (all of them are in `built.diags`).
pub fn load_and_check(
    project: &Project,
    id: &str,
    opts: &Options,
    built: &mut Built,
) -> Option<Checked> {
    load_and_check_kept(project, id, opts, Incremental::default(), built)
}

/// [`load_and_check`] with what the build before kept (its held assertions).
fn load_and_check_kept(
    project: &Project,
    id: &str,
    opts: &Options,
    incremental: Incremental,
    built: &mut Built,
) -> Option<Checked> {
    let (game, tpl) = load(project, id, opts, &incremental, built)?;
    let start = Instant::now();
    let kept = incremental.derives.map(|cache| (cache, project));
    let report = evaluate(game, &tpl, opts, kept);
    let evaluated = !report.value.game.unparsed_data && !report.diags.has_errors();
    let Evaluated {
        game,
        network,
        base,
    } = built.take(report);
    let base = base.unwrap_or_else(|| base_context(&game, network.as_ref(), &opts.settings()));
    built.time("evaluate", start);
    let start = Instant::now();
    let (mut plans, counts) = check(project, (&game, &tpl, &base), incremental.strings, built);
    built.time("check", start);
    if evaluated {
        // Assertions over broken references would only repeat the errors above.
        let start = Instant::now();
        let kept = incremental.asserts.map(|cache| (cache, project));
        built.asserts = built.take(check_asserts(&game, &tpl, &base, &counts, kept));
        built.time("asserts", start);
    }
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
/// (and whose tree the caller keeps): see [`Incremental::known_good`].
pub type KnownGood<'k> = &'k (dyn Fn(&FaceStore, usize) -> bool + Sync);

/// What a build keeps for the next (`watch`, the live preview, the PNG files of
/// `build`), so that a build after an edit does again only what the edit changed.
/// Each field is one store with one job; the default keeps nothing (a build from
/// scratch).
#[derive(Clone, Copy, Default)]
pub struct Incremental<'k> {
    /// Parsed face trees by the hash of their SVG text and fonts: a face whose
    /// text did not change is not parsed again.
    pub parsed: Option<&'k ParseCache>,
    /// PNG files of faces by hash: a face drawn before is not rasterised again.
    pub png: Option<&'k dyn PngCache>,
    /// Preflight findings by face: a face checked before is not checked again
    /// (and preflight runs after parsing rather than in the parsing pass).
    pub preflight: Option<&'k crate::preflight::Cache>,
    /// Faces known to parse (their trees kept by the caller): they are not parsed
    /// (nor taken from `parsed`) unless a later stage asks for their tree.
    pub known_good: Option<KnownGood<'k>>,
    /// Rendered faces with what their templates read: a face whose inputs did
    /// not change is not rendered again (`render::RenderCache`).
    pub rendered: Option<&'k crate::render::RenderCache>,
    /// `[[assert]]`s that held, with what they read: one whose inputs did not
    /// change is not run again (`check::AssertCache`).
    pub asserts: Option<&'k AssertCache>,
    /// `[[derive]]` values with what their formulas read: a row whose inputs
    /// did not change keeps its values (`check::DeriveCache`).
    pub derives: Option<&'k DeriveCache>,
    /// The rulebook typeset last, with what it read: typeset again only when
    /// one of those changed (`rulebook::RulebookCache`).
    pub rulebook: Option<&'k crate::rulebook::RulebookCache>,
    /// The templates compiled last: compiled again only when one of their files
    /// changed (`template::TemplateCache`).
    pub templates: Option<&'k crate::template::TemplateCache>,
    /// Each data file's strings the numbers typed twice are looked for in: a
    /// file is parsed for them again only when its text changed
    /// (`check::typed_twice::DataStrings`).
    pub strings: Option<&'k crate::check::typed_twice::DataStrings>,
    /// `game.toml`'s definitions parsed last: parsed again only when its text
    /// changed (`model::GameFileCache`).
    pub game_file: Option<&'k crate::model::GameFileCache>,
}

/// A game that went through every stage up to delivery: what the live preview,
/// `printed` and tests read after the build.
pub struct Finished<'a> {
    /// The checked game, with its templates and last print record.
    pub checked: Checked,
    /// Its faces, rendered and parsed.
    pub rendered: Rendered<'a>,
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
    incremental: Incremental<'a>,
    preflight: Option<&crate::profile::Profile>,
    built: &mut Built,
) -> Option<(Rendered<'a>, Option<Found>)> {
    let start = Instant::now();
    let renderer = Renderer {
        project,
        game: &checked.game,
        tpl: &checked.tpl,
        base: &checked.base,
        kept: incremental.rendered,
    };
    let rendered = built.take(render_all(
        &renderer,
        &checked.plans,
        incremental.parsed,
        checked.previous.as_ref(),
    ))?;
    built.time("render", start);
    let start = Instant::now();
    let store = &rendered.store;
    let mut found = None;
    let parsed = match incremental.known_good {
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

/// Typesets the game's rulebook, if it has one (or takes the one `kept` holds,
/// when nothing it reads changed); `false` when that had errors.
fn typeset(
    project: &Project,
    checked: &Checked,
    opts: &Options,
    kept: Option<&crate::rulebook::RulebookCache>,
    built: &mut Built,
) -> bool {
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
        // A build that encodes no files is the live preview's: it shows the
        // pages as pictures of their SVG.
        page_svg: !opts.encode,
    };
    let book = match kept {
        Some(cache) => crate::rulebook::kept::typeset_kept(&input, cache),
        None => crate::rulebook::typeset(&input),
    };
    built.rulebook = built.take(book);
    built.time("rulebook", start);
    !built.diags.has_errors()
}

/// The checks once every face parsed: `settings.copies` that no set uses, and
/// the preflight's findings (`found` while parsing, else checked now, with the
/// live preview's kept findings).
fn checks_after_parsing(
    project: &Project,
    checked: &Checked,
    rendered: &Rendered,
    found: Option<Found>,
    opts: &Options,
    incremental: Incremental,
    built: &mut Built,
) {
    let settings = opts.settings();
    built.take(crate::eval::unused_copies(
        &checked.game,
        &checked.base,
        &settings,
    ));
    let start = Instant::now();
    let renderer = Renderer {
        project,
        game: &checked.game,
        tpl: &checked.tpl,
        base: &checked.base,
        kept: None,
    };
    match found {
        Some(found) => built.take(crate::preflight::report(
            &renderer,
            rendered,
            &opts.profile,
            found,
        )),
        None => {
            built.take(crate::preflight::check_cached(
                &renderer,
                &checked.plans,
                rendered,
                &opts.profile,
                incremental.preflight,
            ));
            built.time("preflight", start);
        }
    }
}

/// Runs a game through the whole pipeline; its files wait where `sink` says
/// until the caller writes them.
pub fn build(
    project: &Project,
    id: &str,
    opts: &Options,
    incremental: Incremental,
    sink: Sink,
) -> Built {
    build_choosing(project, id, opts, incremental, sink, |_, _| true.into()).0
}

/// Like [`build`], with `choose` called once every face rendered, parsed and
/// passed preflight, before anything is delivered: it may keep only some of each
/// set's slots (a reprint delivers the parts that changed), or say that nothing
/// is to be delivered (`false`); its errors stop the build. Also gives the
/// checked game and its faces, when every face rendered and parsed (whether or
/// not anything was delivered).
pub fn build_choosing<'a>(
    project: &Project,
    id: &str,
    opts: &Options,
    incremental: Incremental<'a>,
    sink: Sink,
    choose: impl FnOnce(&Checked, &mut Rendered) -> Reported<bool>,
) -> (Built, Option<Finished<'a>>) {
    let mut built = Built::default();
    let Some(checked) = load_and_check_kept(project, id, opts, incremental, &mut built) else {
        return (built, None);
    };
    if !typeset(project, &checked, opts, incremental.rulebook, &mut built) {
        return (built, None);
    }
    // Preflight in the parsing pass, unless the live preview keeps its findings.
    let preflight = incremental.preflight.is_none().then_some(&opts.profile);
    let Some((mut rendered, found)) =
        render_and_parse(project, &checked, incremental, preflight, &mut built)
    else {
        return (built, None);
    };
    checks_after_parsing(
        project,
        &checked,
        &rendered,
        found,
        opts,
        incremental,
        &mut built,
    );
    // A build with errors delivers nothing, but its delivery is still checked.
    if !built.diags.has_errors() && !built.take(choose(&checked, &mut rendered)) {
        return (built, Some(Finished { checked, rendered }));
    }
    let input = crate::deliver::Input {
        r: &rendered,
        book: built.rulebook.as_ref(),
        cache: incremental.png,
        sink,
    };
    let delivered = crate::deliver::deliver(&checked.game, &input, opts);
    let delivered = built.take(delivered);
    for (name, d) in delivered.timings {
        built.add_time(name, d);
    }
    built.pages = delivered.pages;
    built.printed = delivered.printed;
    if !built.diags.has_errors() {
        built.outputs = delivered.outputs;
    }
    (built, Some(Finished { checked, rendered }))
}
