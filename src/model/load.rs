//! Loading a game folder: `game.toml` (definitions) and every other `*.toml` file
//! (data tables), through the project's file source, keeping spans for diagnostics.
//! What the build's options decide (the paper, a print shop's products) is resolved
//! here, before any check runs.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::{Path, PathBuf};

use super::schema::GameFile;
use super::tables::Format;
use super::toml_problems;
use super::{Component, ComponentDef, Field, Game, Kind, Paper, Row, Size, Spanned, Table};
use crate::diag::upstream::{self, SerdeKind};
use crate::diag::{did_you_mean, Diagnostic, Reported};
use crate::project::{Project, MAX_DATA_BYTES, MAX_GAME_DATA};
use crate::source::{EntryKind, FileError};
use crate::units::parse_length;

/// What the build's options decide about the parts, known before the game loads.
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    /// The paper: `half-paper` parts are half of it.
    pub paper: Paper,
    /// A print shop's products (full size with bleed by size name), when the build
    /// makes a shop's files: every part takes the shop's bleed, and a set the shop
    /// has no product for is not exported.
    pub shop: Option<Shop<'a>>,
}

/// A print shop's products, from its profile.
#[derive(Debug, Clone, Copy)]
pub struct Shop<'a> {
    /// The profile's name and id, for messages.
    pub name: &'a str,
    pub id: &'a str,
    pub products: &'a BTreeMap<String, Size>,
    /// A shop that makes every part at its own size: its bleed, in mm.
    pub bleed: Option<f64>,
}

type RowMap = BTreeMap<Spanned<String>, Spanned<toml::Value>>;
type TableFile = BTreeMap<Spanned<String>, Spanned<Vec<Spanned<RowMap>>>>;

/// A file problem as a diagnostic about that file.
pub(crate) fn file_error(e: &FileError) -> Diagnostic {
    Diagnostic::error(e.to_string())
        .at(e.path(), None)
        .hint(e.hint())
}

/// `nan` and `inf` are valid TOML but never a count, cost or size: every one in
/// `text` is an error at its place (`nan > 0` would pass a check and print "NaN").
fn non_finite_numbers(rel: &Path, game: &str, text: &str) -> Vec<Diagnostic> {
    use toml::de::{DeTable, DeValue};
    fn walk(v: &toml::Spanned<DeValue>, out: &mut Vec<Range<usize>>) {
        match v.get_ref() {
            DeValue::Float(f) if !f.as_str().chars().any(|c| c.is_ascii_digit()) => {
                out.push(v.span())
            }
            DeValue::Array(a) => a.iter().for_each(|x| walk(x, out)),
            DeValue::Table(t) => t.values().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    if !may_be_non_finite(text) {
        return Vec::new();
    }
    let Ok(table) = DeTable::parse(text) else {
        return Vec::new(); // the syntax error is reported by the real parse
    };
    let mut spans = Vec::new();
    table.get_ref().values().for_each(|v| walk(v, &mut spans));
    spans
        .into_iter()
        .map(|span| {
            Diagnostic::error("`nan` and `inf` are not numbers a game can print or check")
                .at(rel, Some(span))
                .with("game", game)
                .hint("write a finite number")
        })
        .collect()
}

/// Whether `text` has the word `inf` or `nan` (any case, signed or not)
/// anywhere, strings and comments included: a number without digits is
/// always one. Without such a word the document need not be parsed again to
/// look for them (`game.toml` was parsed that way on every build of the live
/// preview).
fn may_be_non_finite(text: &str) -> bool {
    let b = text.as_bytes();
    let word = |c: &u8| c.is_ascii_alphanumeric() || *c == b'_';
    b.windows(3).enumerate().any(|(i, w)| {
        (w.eq_ignore_ascii_case(b"inf") || w.eq_ignore_ascii_case(b"nan"))
            && (i == 0 || !word(&b[i - 1]))
            && b.get(i + 3).is_none_or(|c| !word(c))
    })
}

/// The `[game] profile` of a game, read before the build (its options depend on it).
pub fn default_profile(project: &Project, id: &str) -> Option<String> {
    let file = Path::new("data").join(id).join("game.toml");
    let text = project.read_text(&file, MAX_DATA_BYTES).ok()?;
    // The live preview asks on every save, most often of the same text: the
    // answer for the last text asked about is kept (it depends on nothing else).
    static LAST: std::sync::Mutex<Option<(std::sync::Arc<str>, Option<String>)>> =
        std::sync::Mutex::new(None);
    if let Ok(last) = LAST.lock() {
        if let Some((_, profile)) = last.as_ref().filter(|(t, _)| *t == text) {
            return profile.clone();
        }
    }
    let profile = profile_in(&text);
    if let Ok(mut last) = LAST.lock() {
        *last = Some((text, profile.clone()));
    }
    profile
}

/// The `[game] profile` of `game.toml`'s `text`.
fn profile_in(text: &str) -> Option<String> {
    // Only `[game] profile` is made into a value: the rest of the file is
    // skipped, not copied into a table.
    #[derive(serde::Deserialize)]
    struct GameFile {
        game: Option<toml::Value>,
    }
    #[derive(serde::Deserialize)]
    struct GameTable {
        profile: Option<toml::Value>,
    }
    let game: GameFile = toml::from_str(text).ok()?;
    let table: GameTable = game.game?.try_into().ok()?;
    table.profile?.as_str().map(String::from)
}

/// Loads `data/<id>/` for `target`. The game is `None` when its definitions could
/// not be read; every problem found while loading is reported.
pub fn load_game(
    project: &Project,
    id: &str,
    target: &Target,
    kept: Option<&GameFileCache>,
) -> Reported<Option<Game>> {
    let dir = PathBuf::from("data").join(id);
    let file = dir.join("game.toml");
    if let Err(why) = crate::project::check_name(id) {
        let d = Diagnostic::error(format!("game folder name `{id}` {why}"))
            .at(&file, None)
            .with("game", id)
            .hint("rename the folder under data/: it becomes the output folder's name");
        return Reported::new(None, [d]);
    }
    let text = match project.read_text(&file, MAX_DATA_BYTES) {
        Ok(t) => t,
        Err(e) => return Reported::new(None, [file_error(&e).with("game", id)]),
    };
    let mut diags = Vec::new();
    let parsed = match kept {
        Some(cache) => cache.parse(&file, id, &text),
        None => parse_game_file(&file, id, &text),
    };
    let Some(parsed) = parsed.into_value(&mut diags) else {
        return Reported::new(None, diags);
    };
    diags.extend(non_finite_numbers(&file, id, &text));
    let data = load_tables(project, (&dir, id), text.len() as u64, kept);
    let unparsed_data = data.diags.has_errors();
    let DataTables { tables, read } = data.into_value(&mut diags);
    let context = LoadContext {
        project,
        file: &file,
        dir: &dir,
        game: id,
        tables: &tables,
        unparsed_data,
        target,
    };
    let (components, rejected) = context.components(parsed.component).into_value(&mut diags);
    diags.extend(unread_files(project, &dir, id, &read, &components));
    let game = Game {
        id: id.to_string(),
        file,
        text,
        meta: parsed.game,
        rules: parsed.rules.unwrap_or_default(),
        contents: parsed.contents.into_iter().collect(),
        components,
        derives: parsed.derive,
        asserts: parsed.asserts,
        references: parsed.reference,
        network: parsed.network,
        rulebook: parsed.rulebook,
        tables,
        rejected,
        unparsed_data,
    };
    Reported::new(Some(game), diags)
}

/// `game.toml` and the TOML, CSV and TSV data files as the last build parsed
/// them (the live preview, through `pipeline::Incremental::game_file`): when a
/// file's text is the same, byte for byte, its definitions or tables are taken
/// again instead of parsed again. Only a file that parsed without a problem is
/// kept, so a broken one is reported from its text on every build.
#[derive(Default)]
pub struct GameFileCache {
    last: std::sync::Mutex<Option<(String, GameFile)>>,
    /// Whether the last build took the definitions kept.
    kept: std::sync::atomic::AtomicBool,
    /// Each data file's text and tables (with their names' spans), by path.
    tables: std::sync::Mutex<BTreeMap<PathBuf, (String, Vec<FoundTable>)>>,
    /// Data files the last build took from the build before.
    tables_kept: std::sync::atomic::AtomicUsize,
}

/// A table read from a data file, with the span of its name in a TOML file.
type FoundTable = (Table, Option<Range<usize>>);

impl GameFileCache {
    /// [`parse_game_file`] of `text`, or what it gave for the same text before.
    fn parse(&self, file: &Path, id: &str, text: &str) -> Reported<Option<GameFile>> {
        use std::sync::atomic::Ordering::Relaxed;
        let Ok(mut last) = self.last.lock() else {
            return parse_game_file(file, id, text);
        };
        let same = last.as_ref().filter(|(t, _)| t == text);
        self.kept.store(same.is_some(), Relaxed);
        if let Some((_, parsed)) = same {
            return Some(parsed.clone()).into();
        }
        let parsed = parse_game_file(file, id, text);
        *last = match (&parsed.value, parsed.diags.items.is_empty()) {
            (Some(p), true) => Some((text.to_string(), p.clone())),
            _ => None,
        };
        parsed
    }

    /// Whether the last build took `game.toml`'s definitions from the build
    /// before (its text had not changed).
    pub fn was_kept(&self) -> bool {
        self.kept.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// How many data files the last build took from the build before (their
    /// texts had not changed).
    pub fn data_files_kept(&self) -> usize {
        self.tables_kept.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// [`text_tables`] of data file `rel`'s `text`, or what it gave for the same
    /// text before.
    fn tables(
        &self,
        rel: &Path,
        format: Format,
        game: &str,
        text: &str,
    ) -> Reported<Vec<FoundTable>> {
        use std::sync::atomic::Ordering::Relaxed;
        let Ok(mut kept) = self.tables.lock() else {
            return text_tables(rel, format, game, text);
        };
        if let Some((_, found)) = kept.get(rel).filter(|(t, _)| t == text) {
            self.tables_kept.fetch_add(1, Relaxed);
            return found.clone().into();
        }
        let found = text_tables(rel, format, game, text);
        match found.diags.items.is_empty() {
            true => kept.insert(rel.to_path_buf(), (text.to_string(), found.value.clone())),
            false => kept.remove(rel),
        };
        found
    }

    /// A build starts reading the data files.
    fn begin_tables(&self) {
        self.tables_kept
            .store(0, std::sync::atomic::Ordering::Relaxed);
    }

    /// The data files were read: those the build did not read are forgotten.
    fn finish_tables(&self, read: &BTreeSet<PathBuf>) {
        if let Ok(mut kept) = self.tables.lock() {
            kept.retain(|rel, _| read.contains(rel));
        }
    }
}

/// `game.toml`'s definitions (its `text`), with their problems; none when it does
/// not parse, but when only keys were wrong the rest is given to check too, so a
/// run says everything.
fn parse_game_file(file: &Path, id: &str, text: &str) -> Reported<Option<GameFile>> {
    match toml_problems::parse::<GameFile>(text, &super::keys()) {
        Ok(p) => Some(p).into(),
        Err(e) => {
            let diags: Vec<Diagnostic> = e
                .problems
                .iter()
                .map(|p| schema_problem(file, id, text, p))
                .collect();
            Reported::new(e.rest, diags)
        }
    }
}

/// What loading a component needs to know about its game.
struct LoadContext<'a> {
    project: &'a Project,
    file: &'a Path,
    dir: &'a Path,
    game: &'a str,
    tables: &'a BTreeMap<String, Table>,
    unparsed_data: bool,
    target: &'a Target<'a>,
}

impl LoadContext<'_> {
    /// Every `[[component]]`, in order, and the ids of those rejected for an error
    /// (a duplicate id stays accepted under its first definition).
    fn components(
        &self,
        defs: Vec<Spanned<ComponentDef>>,
    ) -> Reported<(Vec<Component>, BTreeSet<String>)> {
        let mut diags = Vec::new();
        let mut rejected = BTreeSet::new();
        let mut components = Vec::new();
        let mut seen = BTreeSet::new();
        for c in defs {
            let span = c.span();
            let def = c.into_inner();
            let cid = def.id.get_ref().clone();
            let duplicate = !seen.insert(cid.clone());
            match self.component(def, span, duplicate) {
                Ok((component, warning)) => {
                    diags.extend(warning);
                    components.push(component);
                }
                Err(d) => {
                    if !duplicate {
                        rejected.insert(cid);
                    }
                    diags.push(d);
                }
            }
        }
        Reported::new((components, rejected), diags)
    }

    /// A diagnostic about component `cid` at `span` of `game.toml`.
    fn at(&self, cid: &str, d: Diagnostic, span: Range<usize>) -> Diagnostic {
        d.at(self.file, Some(span))
            .with("game", self.game)
            .with("component", cid)
    }

    /// Resolves one `[[component]]`: its name, kind, size, bleed, table and art, for
    /// the build's target. Returns it with a warning when the target's shop does not
    /// make it.
    fn component(
        &self,
        def: ComponentDef,
        span: Range<usize>,
        duplicate: bool,
    ) -> Result<(Component, Option<Diagnostic>), Diagnostic> {
        let cid = def.id.get_ref().clone();
        self.check_id(&cid, &def, duplicate)?;
        let kind = self.kind(&cid, &def)?;
        let size = Size::from_toml(def.size.get_ref(), self.target.paper).map_err(|e| {
            self.at(&cid, Diagnostic::error(e.to_string()), def.size.span())
                .hint("use a named size (poker, bridge, mini-euro, chit-3/4in, tile-2in, ...) or { width = \"63.5mm\", height = \"88.9mm\" }")
        })?;
        let bleed = self.bleed(&cid, &def, kind)?;
        let panels = self.panels(&cid, &def, kind)?;
        let layout = self.layout(&cid, &def, kind)?;
        self.check_table(&cid, &def)?;
        let (art, art_back) = self.art(&def).map_err(|d| {
            let sp = def.art.as_ref().map(|a| a.span()).unwrap_or(span.clone());
            self.at(&cid, d, sp)
        })?;
        self.check_faces(&cid, &def, art.is_empty(), &span)?;
        let (bleed, exported, warning) = self.for_shop(&cid, &def, &size, bleed);
        Ok((
            Component {
                def,
                span,
                kind,
                size,
                bleed,
                exported,
                art,
                art_back,
                panels,
                layout,
            },
            warning,
        ))
    }

    /// A component id that names a file and is the only one of its name.
    fn check_id(&self, cid: &str, def: &ComponentDef, duplicate: bool) -> Result<(), Diagnostic> {
        if let Err(why) = crate::project::check_name(cid) {
            return Err(self
                .at(
                    cid,
                    Diagnostic::error(format!("component id `{cid}` {why}")),
                    def.id.span(),
                )
                .hint("use lowercase letters, digits and hyphens, e.g. `contract-cards`"));
        }
        if duplicate {
            return Err(self
                .at(
                    cid,
                    Diagnostic::error(format!("duplicate component id `{cid}`")),
                    def.id.span(),
                )
                .hint("give every [[component]] its own id"));
        }
        Ok(())
    }

    /// Either `front` (a template, maybe over a `layer`) or `art` (finished image
    /// files, `no_art` when none), not both and not neither.
    fn check_faces(
        &self,
        cid: &str,
        def: &ComponentDef,
        no_art: bool,
        span: &Range<usize>,
    ) -> Result<(), Diagnostic> {
        if def.front.is_none() == no_art {
            let msg = if no_art {
                "a component needs `front` (a template) or `art` (finished image files)"
            } else {
                "a component has either `front` (a template) or `art` (image files), not both"
            };
            return Err(self.at(cid, Diagnostic::error(msg), span.clone()).hint(
                "write `front = \"card.svg\"`, or `art = \"art/cards/*.svg\"` for finished art",
            ));
        }
        if let (Some(layer), None) = (&def.layer, &def.front) {
            return Err(self
                .at(
                    cid,
                    Diagnostic::error(
                        "`layer` is drawn under a front template, and this component has none",
                    ),
                    layer.span(),
                )
                .hint(
                    "draw the shared content into the art files, or use `front` with the layer",
                ));
        }
        Ok(())
    }

    /// A shop fixes each part's full size: its bleed replaces the component's
    /// `bleed`, and a set the shop does not make is left out (not exported, with a
    /// warning). The bleed, whether it is exported, the warning.
    fn for_shop(
        &self,
        cid: &str,
        def: &ComponentDef,
        size: &Size,
        mut bleed: f64,
    ) -> (f64, bool, Option<Diagnostic>) {
        let mut exported = true;
        let mut warning = None;
        if let Some(shop) = &self.target.shop {
            match size.shop_full_size(def.size.get_ref().as_str(), shop.products) {
                Some(full) => {
                    bleed = ((full.width - size.width) / 2.0).min((full.height - size.height) / 2.0)
                }
                None if shop.bleed.is_some() => bleed = shop.bleed.unwrap_or(bleed),
                None => {
                    exported = false;
                    warning = Some(
                        self.at(
                            cid,
                            Diagnostic::warning(format!(
                                "{} has no product for `{cid}` ({} x {} mm): not exported for this profile",
                                shop.name,
                                crate::units::fmt_num(size.width),
                                crate::units::fmt_num(size.height)
                            )),
                            def.size.span(),
                        )
                        .hint(format!(
                            "add the size to profiles/{}.toml if the shop makes it",
                            shop.id
                        )),
                    );
                }
            }
        }
        (bleed, exported, warning)
    }

    /// A screen's panels: 2 to 6 (3 when not given); other kinds have none.
    fn panels(&self, cid: &str, def: &ComponentDef, kind: Kind) -> Result<usize, Diagnostic> {
        match (&def.panels, kind) {
            (None, Kind::Screen) => Ok(3),
            (None, _) => Ok(1),
            (Some(p), Kind::Screen) if (2..=6).contains(p.get_ref()) => Ok(*p.get_ref() as usize),
            (Some(p), Kind::Screen) => Err(self
                .at(
                    cid,
                    Diagnostic::error(format!("a screen has 2 to 6 panels, not {}", p.get_ref())),
                    p.span(),
                )
                .hint("three panels (a middle one and two wings) stand well")),
            (Some(p), _) => Err(self
                .at(
                    cid,
                    Diagnostic::error(format!("`panels` is for screens; this is a {kind}")),
                    p.span(),
                )
                .hint("write kind = \"screen\", or remove `panels`")),
        }
    }

    /// The sheet layout the component asks for (`layout = { ... }`), checked
    /// against its kind.
    fn layout(
        &self,
        cid: &str,
        def: &ComponentDef,
        kind: Kind,
    ) -> Result<super::layout::Request, Diagnostic> {
        let Some(l) = &def.layout else {
            return Ok(Default::default());
        };
        let request = super::layout::read(l.get_ref()).map_err(|(e, span)| {
            self.at(cid, Diagnostic::error(e.to_string()), span)
                .hint(e.hint())
        })?;
        if let Some((key, why)) = super::layout::unfit(&request, kind) {
            let span = match key {
                "grid" => l.get_ref().grid.as_ref().map_or(l.span(), |g| g.span()),
                _ => l.span(),
            };
            return Err(self
                .at(cid, Diagnostic::error(why), span)
                .hint(format!("remove `{key}` from the component's layout")));
        }
        Ok(request)
    }

    fn kind(&self, cid: &str, def: &ComponentDef) -> Result<Kind, Diagnostic> {
        let word = def.kind.get_ref();
        Kind::parse(word).ok_or_else(|| {
            let hint = match did_you_mean(word, Kind::NAMES) {
                Some(m) => format!("did you mean `{m}`?"),
                None => format!("use one of: {}", Kind::NAMES.join(", ")),
            };
            self.at(
                cid,
                Diagnostic::error(format!("unknown component kind `{word}`")),
                def.kind.span(),
            )
            .hint(hint)
        })
    }

    fn bleed(&self, cid: &str, def: &ComponentDef, kind: Kind) -> Result<f64, Diagnostic> {
        let Some(b) = &def.bleed else {
            return Ok(kind.default_bleed());
        };
        match parse_length(b.get_ref()) {
            Ok(v) if (0.0..=25.4).contains(&v) => Ok(v),
            Ok(v) => Err(self
                .at(
                    cid,
                    Diagnostic::error(format!("bleed {v} mm is outside 0..25.4 mm")),
                    b.span(),
                )
                .hint("print shops ask for 3mm (1/8in)")),
            Err(why) => Err(self
                .at(cid, Diagnostic::error(why.to_string()), b.span())
                .hint("write the bleed like \"3mm\" or \"1/8in\"")),
        }
    }

    /// The component's `table` must exist (unless a data file failed to parse);
    /// `expand` needs a table.
    fn check_table(&self, cid: &str, def: &ComponentDef) -> Result<(), Diagnostic> {
        match (&def.table, &def.expand) {
            (Some(t), _) if !self.tables.contains_key(t.get_ref()) && !self.unparsed_data => {
                let what = format!("component `{cid}` uses");
                let tables = self.tables.keys().map(String::as_str);
                let d = super::unknown_table(
                    self.file,
                    self.game,
                    tables,
                    &what,
                    t.get_ref(),
                    t.span(),
                );
                Err(d.with("component", cid))
            }
            (None, Some(e)) => Err(self
                .at(cid, Diagnostic::error("`expand` needs a `table`"), e.span())
                .hint("add `table = \"...\"` or remove `expand`")),
            _ => Ok(()),
        }
    }

    /// Resolves `art` (patterns or a list) and `art_back` into project files under
    /// `data/<game>/`, sorted.
    fn art(&self, def: &ComponentDef) -> Result<(Vec<PathBuf>, Option<PathBuf>), Diagnostic> {
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
        let mut files = Vec::new();
        for pattern in &patterns {
            files.extend(self.art_files(pattern)?);
        }
        let back = match &def.art_back {
            None => None,
            Some(b) => {
                let p = art_path(self.dir, b.get_ref())?;
                if self.project.kind(&p).is_none() {
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

    /// The files one `art` pattern names (`art/cards/*.svg`, `art/**/*.png` or a
    /// plain file name), sorted.
    fn art_files(&self, pattern: &str) -> Result<Vec<PathBuf>, Diagnostic> {
        let path = art_path(self.dir, pattern)?;
        if !ArtPattern::is_pattern(pattern) {
            return match self.project.kind(&path) {
                Some(_) => Ok(vec![path]),
                None => Err(
                    Diagnostic::error(format!("art file `{pattern}` does not exist"))
                        .hint(format!("looked for {}", path.display())),
                ),
            };
        }
        let glob = ArtPattern::new(pattern)?;
        // Walk the folder the pattern starts in (its components before the first
        // wildcard).
        let base: PathBuf = Path::new(pattern)
            .components()
            .take_while(|c| {
                !c.as_os_str()
                    .to_string_lossy()
                    .contains(ArtPattern::WILDCARDS)
            })
            .collect();
        let folder = self.dir.join(&base);
        let found: Vec<PathBuf> = match self.project.kind(&folder) {
            Some(EntryKind::Folder) => self
                .project
                .walk(&folder, &[""], 8)
                .map_err(|e| file_error(&e))?
                .into_iter()
                .filter(|p| p.strip_prefix(self.dir).is_ok_and(|rel| glob.matches(rel)))
                .collect(),
            _ => Vec::new(),
        };
        if found.is_empty() {
            return Err(
                Diagnostic::error(format!("no file matches the art pattern `{pattern}`"))
                    .hint(format!("put the files in {}", folder.display())),
            );
        }
        Ok(found)
    }
}

/// An `art` pattern, matched against a file's path in the game folder: `*` any
/// part of a name, `?` one character, `[a-z]` one of these (`[!a-z]` none),
/// `{a,b}` either, `**` any folders (none included), `\` before a wildcard to
/// take it as it is. No wildcard crosses a `/` but `**`.
struct ArtPattern<'a>(&'a str);

impl<'a> ArtPattern<'a> {
    /// The characters that make a file name a pattern.
    const WILDCARDS: [char; 4] = ['*', '?', '[', '{'];

    /// Whether `art` names files by a pattern rather than one file by its name.
    fn is_pattern(art: &str) -> bool {
        art.contains(Self::WILDCARDS)
    }

    /// The pattern, checked once: an unclosed `[` or `{` is an error here, where
    /// the matcher would match nothing.
    fn new(pattern: &'a str) -> Result<Self, Diagnostic> {
        if pattern.starts_with('!') {
            // The matcher reads a leading `!` as "every file but these".
            return Err(Diagnostic::error(format!(
                "art pattern `{pattern}` starts with `!`: a pattern names the files to use"
            ))
            .hint("list the files to use, or put the others in another folder"));
        }
        fast_glob::validate(pattern).map_err(|e| {
            Diagnostic::error(format!("art pattern `{pattern}` is not a pattern: {e}"))
                .hint("use `*` for any name, e.g. art = \"art/cards/*.svg\"")
        })?;
        Ok(Self(pattern))
    }

    /// Whether the file at `rel` (relative to the game folder) is one the pattern names.
    fn matches(&self, rel: &Path) -> bool {
        fast_glob::glob_match(self.0, rel.as_os_str().as_encoded_bytes())
    }
}

/// An art path relative to the game folder: no absolute path, no `..`, no URL.
fn art_path(dir: &Path, p: &str) -> Result<PathBuf, Diagnostic> {
    let rel = PathBuf::from(p);
    if p.contains("://") || crate::source::check_relative(&rel).is_err() {
        return Err(Diagnostic::error(format!(
            "art path `{p}` must be relative to the game folder, without `..`"
        ))
        .hint("put the art under data/<game>/, e.g. data/<game>/art/"));
    }
    Ok(dir.join(rel))
}

/// A game's data tables by name, and the data files read for them.
struct DataTables {
    tables: BTreeMap<String, Table>,
    read: BTreeSet<PathBuf>,
}

/// Reads the data tables of the game folder `dir`: every data file besides
/// `game.toml` (every `[[name]]` a table), each `*.csv` and `*.tsv` (a table named
/// for the file) and each `*.xlsx` and `*.ods` (a table per sheet), while the
/// game's data (`game.toml`'s `read` bytes and these files) stays within
/// [`MAX_GAME_DATA`].
/// With `kept` (the live preview), a file whose text did not change is not
/// parsed again.
fn load_tables(
    project: &Project,
    (dir, game): (&Path, &str),
    read_bytes: u64,
    kept: Option<&GameFileCache>,
) -> Reported<DataTables> {
    let mut diags = Vec::new();
    if let Some(k) = kept {
        k.begin_tables();
    }
    let mut total = read_bytes;
    let mut out = DataTables {
        tables: BTreeMap::new(),
        read: BTreeSet::new(),
    };
    for (rel, format) in data_files(project, dir, game, &mut diags) {
        out.read.insert(rel.clone());
        let found = match file_tables(project, (&rel, format, game), kept, &mut total, &mut diags) {
            FileTables::Read(found) => found,
            FileTables::Unreadable => continue,
            FileTables::OverBudget => break,
        };
        for (table, name_span) in found {
            if let Some(d) = defined_twice(&out.tables, &table, &rel, name_span, game) {
                diags.push(d);
                continue;
            }
            out.tables.insert(table.name.clone(), table);
        }
    }
    if let Some(k) = kept {
        k.finish_tables(&out.read);
    }
    Reported::new(out, diags)
}

/// The data files of the game folder `dir` with their formats: not `game.toml`,
/// not an editor's scratch files.
fn data_files(
    project: &Project,
    dir: &Path,
    game: &str,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(PathBuf, Format)> {
    match project.list(dir) {
        Ok(entries) => entries
            .into_iter()
            .filter(|e| e.kind != EntryKind::Folder && e.name != "game.toml")
            .filter(|e| !is_scratch(&e.name))
            .filter_map(|e| Format::of(&e.name).map(|f| (dir.join(e.name), f)))
            .collect(),
        Err(e) => {
            diags.push(file_error(&e).with("game", game));
            Vec::new()
        }
    }
}

/// What reading one data file gave.
enum FileTables {
    /// Its tables, each with the span of its name in a TOML file.
    Read(Vec<FoundTable>),
    /// The file could not be read (reported): on to the next.
    Unreadable,
    /// It took the game's data past [`MAX_GAME_DATA`] (reported): no more files.
    OverBudget,
}

/// The tables of data file `rel`, its bytes counted in `total` (a TOML, CSV or
/// TSV file's taken from `kept` when its text did not change).
fn file_tables(
    project: &Project,
    (rel, format, game): (&Path, Format, &str),
    kept: Option<&GameFileCache>,
    total: &mut u64,
    diags: &mut Vec<Diagnostic>,
) -> FileTables {
    let mut fail = |d: Diagnostic, then: FileTables| {
        diags.push(d);
        then
    };
    let tables = match format {
        Format::Toml | Format::Csv | Format::Tsv => {
            let text = match project.read_text(rel, MAX_DATA_BYTES) {
                Ok(t) => t,
                Err(e) => return fail(file_error(&e).with("game", game), FileTables::Unreadable),
            };
            if let Err(d) = charge(total, text.len(), rel, game) {
                return fail(d, FileTables::OverBudget);
            }
            match kept {
                Some(k) => k.tables(rel, format, game, &text),
                None => text_tables(rel, format, game, &text),
            }
        }
        Format::Xlsx | Format::Ods => {
            let bytes = match project.read(rel, MAX_DATA_BYTES) {
                Ok(b) => b,
                Err(e) => return fail(file_error(&e).with("game", game), FileTables::Unreadable),
            };
            if let Err(d) = charge(total, bytes.len(), rel, game) {
                return fail(d, FileTables::OverBudget);
            }
            super::tables::workbook(rel, game, bytes, format)
                .map(|found| found.into_iter().map(|t| (t, None)).collect())
        }
    };
    FileTables::Read(tables.into_value(diags))
}

/// The tables of a TOML, CSV or TSV data file (its `text`).
fn text_tables(rel: &Path, format: Format, game: &str, text: &str) -> Reported<Vec<FoundTable>> {
    if format == Format::Toml {
        return toml_tables(rel, game, text);
    }
    let name = rel
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    super::tables::delimited(rel, game, &name, text, format == Format::Tsv)
        .map(|table| table.into_iter().map(|t| (t, None)).collect())
}

/// The error for `table` (read from `rel`, its name at `name_span` in a TOML
/// file) when `tables` has a table of that name already.
fn defined_twice(
    tables: &BTreeMap<String, Table>,
    table: &Table,
    rel: &Path,
    name_span: Option<Range<usize>>,
    game: &str,
) -> Option<Diagnostic> {
    let tname = &table.name;
    let prev = tables.get(tname)?;
    let mut d = Diagnostic::error(format!("table `{tname}` is defined twice"))
        .with("game", game)
        .hint(format!(
            "keep all rows of `{tname}` in one file (first seen in {})",
            prev.file.display()
        ));
    Some(match (&table.sheet, name_span) {
        (Some((sheet, _)), _) => {
            d.message = format!("{} (sheet {sheet})", d.message);
            d.at(rel, None)
        }
        (None, span) => d.at(rel, span),
    })
}

/// Counts a data file of `len` bytes against the game's [`MAX_GAME_DATA`].
fn charge(total: &mut u64, len: usize, rel: &Path, game: &str) -> Result<(), Diagnostic> {
    *total = total.saturating_add(len as u64);
    if *total <= MAX_GAME_DATA {
        return Ok(());
    }
    Err(Diagnostic::error(format!(
        "the game's data files are more than {} MB together ({} MB with {}), and each byte takes about a hundred in memory",
        MAX_GAME_DATA >> 20,
        *total >> 20,
        rel.display()
    ))
    .at(rel, None)
    .with("game", game)
    .hint("split the game into several, or keep only the rows it prints"))
}

/// The tables of one TOML data file (its `text`), each with the span of its name.
fn toml_tables(rel: &Path, game: &str, text: &str) -> Reported<Vec<(Table, Option<Range<usize>>)>> {
    let parsed: TableFile = match toml_problems::parse(text, &[]) {
        Ok(p) => p,
        Err(e) => {
            let diags = e.problems.iter().map(|p| {
                let d = toml_problems::diagnostic(rel, game, p);
                if upstream::serde_kind(&p.message) == SerdeKind::InvalidType
                    && toml_problems::too_large(&p.message).is_none()
                {
                    d.hint("a data file holds only tables of rows: write each row as [[name]] followed by its fields")
                } else {
                    d
                }
            });
            return Reported::new(Vec::new(), diags);
        }
    };
    let tables = parsed
        .into_iter()
        .map(|(name, rows)| {
            let span = name.span();
            let table = Table {
                name: name.into_inner(),
                file: rel.to_path_buf(),
                rows: rows.into_inner().into_iter().map(table_row).collect(),
                sheet: None,
                header: None,
            };
            (table, Some(span))
        })
        .collect();
    Reported::new(tables, non_finite_numbers(rel, game, text))
}

/// Files an editor or spreadsheet leaves beside the real ones: hidden files
/// (`.DS_Store`, LibreOffice's `.~lock.cards.ods#`) and Excel's `~$cards.xlsx`.
fn is_scratch(name: &str) -> bool {
    name.starts_with('.') || name.starts_with("~$") || name.ends_with('~')
}

/// Image extensions: images and art in a game folder count as read (art files
/// are named by patterns; an image may be kept for a template to use).
const IMAGE_EXTENSIONS: [&str; 6] = ["png", "jpg", "jpeg", "gif", "svg", "webp"];

/// Folders of a game folder whose files are read by other parts of cardstock.
const READ_FOLDERS: [&str; 2] = ["fonts", "icons"];

/// A warning for every file in the game folder that nothing reads: a table saved
/// in a format cardstock does not read (`cards.xls`, `cards.json`), a typo in an
/// extension. Data files, art, images, fonts, icons and notes (`*.md`, `*.pdf`)
/// count as read.
fn unread_files(
    project: &Project,
    dir: &Path,
    game: &str,
    read: &BTreeSet<PathBuf>,
    components: &[Component],
) -> Vec<Diagnostic> {
    let Ok(files) = project.walk(dir, &[""], 8) else {
        return Vec::new(); // a folder that cannot be listed was reported
    };
    let art: BTreeSet<&Path> = components
        .iter()
        .flat_map(|c| c.art.iter().chain(c.art_back.as_ref()))
        .map(PathBuf::as_path)
        .collect();
    files
        .into_iter()
        .filter(|f| {
            let Ok(inside) = f.strip_prefix(dir) else {
                return false;
            };
            let name = inside.to_string_lossy();
            let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
            let first = inside
                .components()
                .next()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .unwrap_or_default();
            !(name == "game.toml"
                || read.contains(f)
                || art.contains(f.as_path())
                || inside.components().count() > 1 && READ_FOLDERS.contains(&first.as_str())
                || inside
                    .components()
                    .any(|c| is_scratch(&c.as_os_str().to_string_lossy()))
                || ext.as_deref().is_some_and(|e| {
                    IMAGE_EXTENSIONS.contains(&e) || e == "md" || e == "pdf"
                }))
        })
        .map(|f| {
            let hint = match f.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()) {
                Some(e) if e == "xls" || e == "numbers" || e == "xlsb" => {
                    "save the workbook as .xlsx or .ods, or export each sheet as .csv".to_string()
                }
                _ => format!(
                    "cardstock reads game.toml, tables ({}), art named by `art`, images, fonts/ and icons/; move other files out of {}",
                    super::tables::DATA_EXTENSIONS,
                    dir.display()
                ),
            };
            Diagnostic::warning(format!("{} is not read by cardstock", f.display()))
                .at(&f, None)
                .with("game", game)
                .hint(hint)
        })
        .collect()
}

/// One `[[name]]` row with the spans of its keys and values.
fn table_row(r: Spanned<RowMap>) -> Row {
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
                    column: None,
                },
            )
        })
        .collect();
    Row {
        span,
        fields,
        derived: BTreeMap::new(),
        line: None,
    }
}

/// The headers of `[[...]]` arrays of tables in a TOML text, as dotted names
/// (`[[rules.actions]]` → `rules.actions`), with the byte offset of each.
fn array_headers(text: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        let t = t.split_once('#').map_or(t, |(a, _)| a.trim_end());
        if let Some(inner) = t.strip_prefix("[[").and_then(|r| r.strip_suffix("]]")) {
            let name: String = inner
                .split('.')
                .map(|p| p.trim().trim_matches(|c| c == '"' || c == '\''))
                .collect::<Vec<_>>()
                .join(".");
            out.push((name, offset));
        }
        offset += line.len();
    }
    out
}

/// A key that `expr` (`rules.buying`) looks for but that `game.toml` has inside an
/// entry of a `[[...]]` array of tables instead (written after the array's header,
/// so TOML put it into the array's entry): the array's name, the key and its span.
pub fn captured_key(text: &str, expr: &str) -> Option<(String, String, Range<usize>)> {
    use toml::de::{DeTable, DeValue};
    let path: Vec<&str> = expr.split('.').collect();
    if path.len() < 2 || path.iter().any(|p| p.is_empty()) {
        return None;
    }
    let root = DeTable::parse(text).ok()?;
    let headers = array_headers(text);
    // Walk the path as far as it exists; `key` is the first part that is missing.
    let mut table = root.get_ref();
    let mut prefix: Vec<&str> = Vec::new();
    let mut key = path[0];
    for (i, part) in path.iter().enumerate() {
        key = part;
        match table.get(*part).map(|v| v.get_ref()) {
            Some(DeValue::Table(t)) if i + 1 < path.len() => {
                table = t;
                prefix.push(part);
            }
            Some(_) => return None,
            None => break,
        }
    }
    // Arrays of tables below the missing key's parent, whose entries hold it.
    fn search<'a>(
        t: &'a DeTable<'a>,
        at: &mut Vec<String>,
        key: &str,
        found: &mut Vec<(String, Range<usize>)>,
    ) {
        for (k, v) in t.iter() {
            at.push(k.get_ref().to_string());
            match v.get_ref() {
                DeValue::Table(inner) => search(inner, at, key, found),
                DeValue::Array(items) => {
                    for item in items.iter() {
                        if let DeValue::Table(entry) = item.get_ref() {
                            if let Some((k, _)) = entry.get_key_value(key) {
                                found.push((at.join("."), k.span()));
                            }
                            search(entry, at, key, found);
                        }
                    }
                }
                _ => {}
            }
            at.pop();
        }
    }
    let mut at: Vec<String> = prefix.iter().map(|s| s.to_string()).collect();
    let mut found = Vec::new();
    search(table, &mut at, key, &mut found);
    // Only arrays written with `[[...]]` headers capture keys, and only keys after
    // a header.
    found
        .into_iter()
        .rev()
        .find(|(array, span)| {
            headers
                .iter()
                .any(|(h, off)| h == array && *off < span.start)
        })
        .map(|(array, span)| (array, key.to_string(), span))
}

/// A problem of `game.toml` against its schema, with a note when an unknown key
/// that is no typo follows a `[[...]]` header ([`captured_note`]).
fn schema_problem(file: &Path, id: &str, text: &str, p: &toml_problems::Problem) -> Diagnostic {
    let d = toml_problems::diagnostic(file, id, p);
    let typo = d
        .hint
        .as_deref()
        .is_some_and(|h| h.starts_with("did you mean"));
    let unknown = upstream::serde_kind(&p.message) == SerdeKind::UnknownField;
    match (&p.span, unknown && !typo) {
        (Some(span), true) => match captured_note(text, span) {
            Some(note) => d.with("note", note),
            None => d,
        },
        _ => d,
    }
}

/// For an unknown key in `game.toml`: when it follows a `[[...]]` header, a note
/// that the key belongs to that entry (it was probably meant for the section
/// above the array).
fn captured_note(text: &str, span: &Range<usize>) -> Option<String> {
    let (name, off) = array_headers(text)
        .into_iter()
        .rfind(|(_, off)| *off < span.start)?;
    // A `[table]` header between the array's header and the key ends the entry.
    let between = &text[off..span.start];
    if between
        .lines()
        .skip(1)
        .any(|l| l.trim_start().starts_with('['))
    {
        return None;
    }
    let line = text[..off].matches('\n').count() + 1;
    Some(format!(
        "this key is read as part of the `[[{name}]]` entry that starts on line {line}: every key after a `[[...]]` header belongs to that entry until the next header. If it belongs to another section, move it above the first `[[{name}]]`"
    ))
}

#[cfg(test)]
mod tests {
    use super::ArtPattern;
    use std::path::Path;

    /// The profile named in `game.toml` is read again whenever its text
    /// changed (the answer for the last text is kept).
    #[test]
    fn the_default_profile_follows_game_toml() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("data/g");
        std::fs::create_dir_all(&dir).unwrap();
        // A project reads each file once: a new one for each text.
        let profile_of = |text: &str| {
            std::fs::write(dir.join("game.toml"), text).unwrap();
            let project = crate::project::Project::disk(tmp.path()).unwrap();
            super::default_profile(&project, "g")
        };
        for profile in ["offset", "tts", "tts", "offset"] {
            let found = profile_of(&format!("[game]\nname = \"G\"\nprofile = \"{profile}\"\n"));
            assert_eq!(found.as_deref(), Some(profile));
        }
        assert_eq!(profile_of("[game]\nname = \"G\"\n"), None);
    }

    /// Every number without digits is found, whatever the prescan skips; a
    /// file with none of the words is not parsed for them.
    #[test]
    fn non_finite_numbers_are_found_past_the_prescan() {
        let game = Path::new("data/g/game.toml");
        for value in ["nan", "inf", "-inf", "+nan", "[1, inf]", "{ a = -nan }"] {
            let text = format!("[rules]\ninfo = \"financial\"\ncost = {value} # x\n");
            assert!(super::may_be_non_finite(&text), "{value}");
            let found = super::non_finite_numbers(game, "g", &text);
            assert_eq!(found.len(), 1, "{value}");
        }
        for text in [
            "[rules]\ninfo = \"financial infix\"\ncost = 3.5e2\n",
            "nanny = 1\ninfinite = 2\n_inf = 3\n",
        ] {
            assert!(!super::may_be_non_finite(text), "{text}");
            assert!(super::non_finite_numbers(game, "g", text).is_empty());
        }
        // The word in a string: parsed, and nothing found.
        let text = "note = \"no inf here\"\n";
        assert!(super::may_be_non_finite(text));
        assert!(super::non_finite_numbers(game, "g", text).is_empty());
    }

    /// The files of `names` that `pattern` picks.
    fn picked<'a>(pattern: &str, names: &[&'a str]) -> Vec<&'a str> {
        let glob = ArtPattern::new(pattern).unwrap();
        names
            .iter()
            .copied()
            .filter(|n| glob.matches(Path::new(n)))
            .collect()
    }

    const FILES: [&str; 7] = [
        "art/a.svg",
        "art/b.svg",
        "art/.hidden.svg",
        "art/logo.png",
        "art/cards/c1.svg",
        "art/cards/deep/c2.svg",
        "other/d.svg",
    ];

    #[test]
    fn a_star_is_any_part_of_a_name_and_never_a_folder() {
        assert_eq!(
            picked("art/*.svg", &FILES),
            ["art/a.svg", "art/b.svg", "art/.hidden.svg"]
        );
        assert_eq!(picked("art/*", &FILES).len(), 4, "no file in a subfolder");
        assert_eq!(
            picked("*/*.svg", &FILES),
            picked("{art,other}/*.svg", &FILES)
        );
    }

    #[test]
    fn two_stars_are_any_folders_none_included() {
        assert_eq!(
            picked("art/**/*.svg", &FILES),
            [
                "art/a.svg",
                "art/b.svg",
                "art/.hidden.svg",
                "art/cards/c1.svg",
                "art/cards/deep/c2.svg"
            ]
        );
        assert_eq!(picked("art/cards/**/c?.svg", &FILES).len(), 2);
    }

    #[test]
    fn one_character_sets_and_alternatives() {
        assert_eq!(picked("art/?.svg", &FILES), ["art/a.svg", "art/b.svg"]);
        assert_eq!(picked("art/[a-a].svg", &FILES), ["art/a.svg"]);
        assert_eq!(picked("art/[!a].svg", &FILES), ["art/b.svg"]);
        assert_eq!(
            picked("art/{a,logo}.{svg,png}", &FILES),
            ["art/a.svg", "art/logo.png"]
        );
        assert_eq!(
            picked("art/\\*.svg", &["art/*.svg", "art/a.svg"]),
            ["art/*.svg"]
        );
    }

    #[test]
    fn a_broken_pattern_is_an_error_not_an_empty_match() {
        for (pattern, says) in [
            ("art/[ab.svg", "unclosed character class at byte 4"),
            ("art/{a,b.svg", "unclosed brace expansion at byte 4"),
            ("!art/*.svg", "starts with `!`"),
        ] {
            let text = ArtPattern::new(pattern).err().unwrap().message;
            assert!(text.contains(pattern) && text.contains(says), "{text}");
        }
    }
}
