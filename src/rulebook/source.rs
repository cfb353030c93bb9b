//! `rules.md` through the faces' template language: `{{ rules.x }}`, filters,
//! loops over tables, and the rulebook's own functions, which stand for a block
//! the typesetter places: `figure(...)`, `components_list()`, `table_of_contents()`,
//! `page_break()` and `columns(n)`. Each writes a marker (a private-use character
//! pair around its number) into the Markdown; the blocks stage finds them there.
//! Every error points at its line and column of `rules.md`.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use minijinja::value::{Kwargs, Value};
use minijinja::{Error, ErrorKind, State};

use super::{FaceRef, Input};
use crate::diag::{did_you_mean, Diagnostic};
use crate::model::Shape;
use crate::render::Locator;
use crate::template::errors::{explain, Known};
use crate::units::parse_length;

/// Opens a marker in the rendered Markdown.
pub const OPEN: char = '\u{E000}';
/// Closes a marker.
pub const CLOSE: char = '\u{E001}';
/// Most figures, lists and breaks one rulebook asks for.
const MAX_SPECIALS: usize = 2_000;

/// A block a function of `rules.md` asked for.
#[derive(Debug, Clone)]
pub enum Special {
    Figure(FigureSpec),
    /// The components list, from the sets and `[contents]`.
    Components,
    /// The table of contents.
    Toc,
    /// A new page.
    PageBreak,
    /// A new page with this many columns.
    Columns(usize),
}

/// A picture of one of the game's faces.
#[derive(Debug, Clone)]
pub struct FigureSpec {
    pub face: FaceRef,
    /// The width asked for (of the trim), in mm.
    pub width: Option<f64>,
    pub caption: Option<String>,
    /// Trim size and bleed of the part, in mm.
    pub trim: (f64, f64),
    pub bleed: f64,
    pub shape: Shape,
}

/// `rules.md` rendered: the Markdown, the blocks its functions asked for, and
/// where each piece of the Markdown comes from.
pub struct Rendered {
    pub text: String,
    pub specials: Vec<Special>,
    locator: Locator,
    /// `rules.md` itself.
    pub source: Arc<str>,
    pub file: PathBuf,
}

impl Rendered {
    /// The range of `rules.md` that wrote `range` of the rendered Markdown: from
    /// where its first character came from to where its last did (trailing
    /// white space left out).
    pub fn span(&self, range: Range<usize>) -> Option<Range<usize>> {
        let text = self.text.get(range.clone())?;
        let end = range.start + text.trim_end().len().max(1);
        let first = self.locator.source_range(range.start..range.start + 1)?.1;
        let last = self.locator.source_range(end - 1..end)?.1;
        let span = first.start..last.end.max(first.end);
        (span.end <= self.source.len()).then_some(span)
    }
}

/// One face of a set, as `figure()` finds it.
#[derive(Debug, Clone)]
struct FaceInfo {
    row_id: Option<String>,
    shape: Shape,
}

/// One component set, as `figure()` finds it.
#[derive(Debug, Clone)]
struct SetInfo {
    id: String,
    trim: (f64, f64),
    bleed: f64,
    has_back: bool,
    faces: Vec<FaceInfo>,
}

/// What the functions of one render record: the blocks asked for, and the
/// problem that stopped a call (said in the designer's words, with a hint).
#[derive(Default)]
struct Record {
    specials: Vec<Special>,
    problem: Option<(String, String)>,
}

type Shared = Arc<Mutex<Record>>;

/// Stops a call with `message` and `hint`.
fn problem(shared: &Shared, message: String, hint: String) -> Error {
    if let Ok(mut r) = shared.lock() {
        r.problem = Some((message.clone(), hint));
    }
    Error::new(ErrorKind::InvalidOperation, message)
}

/// Records a block; the marker that stands for it.
fn marker(shared: &Shared, special: Special) -> Result<Value, Error> {
    let mut r = shared
        .lock()
        .map_err(|_| Error::new(ErrorKind::InvalidOperation, "rulebook state lost"))?;
    if r.specials.len() >= MAX_SPECIALS {
        drop(r);
        return Err(problem(
            shared,
            format!("a rulebook has at most {MAX_SPECIALS} figures, lists and breaks"),
            "ask for fewer figures (a loop over a big table?)".into(),
        ));
    }
    r.specials.push(special);
    Ok(Value::from(format!(
        "{OPEN}{}{CLOSE}",
        r.specials.len() - 1
    )))
}

/// The sets figures can show, from the game's components and planned faces.
fn catalog(input: &Input) -> Vec<SetInfo> {
    input
        .game
        .components
        .iter()
        .zip(input.plans)
        .map(|(c, plans)| {
            let table = c
                .def
                .table
                .as_ref()
                .and_then(|t| input.game.tables.get(t.get_ref()));
            SetInfo {
                id: c.id().to_string(),
                trim: (c.size.width, c.size.height),
                bleed: c.bleed,
                has_back: c.def.back.is_some() || c.def.art_back.is_some(),
                faces: plans
                    .iter()
                    .map(|p| FaceInfo {
                        row_id: p
                            .row
                            .and_then(|r| table?.rows.get(r))
                            .and_then(|r| r.id().map(str::to_string)),
                        shape: p.shape,
                    })
                    .collect(),
            }
        })
        .collect()
}

/// `figure(set, which, side=, width=, caption=)`.
fn figure(
    shared: &Shared,
    sets: &[SetInfo],
    set: &str,
    which: Option<Value>,
    kwargs: &Kwargs,
) -> Result<Value, Error> {
    let Some((ci, info)) = sets.iter().enumerate().find(|(_, s)| s.id == set) else {
        let hint = match did_you_mean(set, sets.iter().map(|s| s.id.as_str())) {
            Some(m) => format!("did you mean `{m}`?"),
            None => format!(
                "the component sets are: {}",
                sets.iter()
                    .map(|s| s.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        return Err(problem(
            shared,
            format!("figure(): there is no component set `{set}`"),
            hint,
        ));
    };
    let face = face_index(shared, info, which)?;
    let side: Option<String> = kwargs.get("side")?;
    let back = match side.as_deref() {
        None | Some("front") => false,
        Some("back") if info.has_back => true,
        Some("back") => {
            return Err(problem(
                shared,
                format!("figure(): `{set}` has no backs"),
                "leave out `side`, or show a set that has a back template".into(),
            ))
        }
        Some(other) => {
            return Err(problem(
                shared,
                format!("figure(): side `{other}` is neither `front` nor `back`"),
                "write side=\"front\" or side=\"back\"".into(),
            ))
        }
    };
    let width: Option<String> = kwargs.get("width")?;
    let width = match width {
        None => None,
        Some(w) => Some(parse_length(&w).map_err(|e| {
            problem(
                shared,
                format!("figure(): width {e}"),
                "write a length such as width=\"40mm\"".into(),
            )
        })?),
    };
    if width.is_some_and(|w| w <= 0.0) {
        return Err(problem(
            shared,
            "figure(): the width must be larger than zero".into(),
            "write a length such as width=\"40mm\"".into(),
        ));
    }
    let caption: Option<String> = kwargs.get("caption")?;
    kwargs.assert_all_used()?;
    marker(
        shared,
        Special::Figure(FigureSpec {
            face: FaceRef {
                component: ci,
                face,
                back,
            },
            width,
            caption,
            trim: info.trim,
            bleed: info.bleed,
            shape: info.faces[face].shape,
        }),
    )
}

/// Which face of `info` `which` names: a 1-based number, a row id, or the first.
fn face_index(shared: &Shared, info: &SetInfo, which: Option<Value>) -> Result<usize, Error> {
    let set = &info.id;
    if info.faces.is_empty() {
        return Err(problem(
            shared,
            format!("figure(): `{set}` prints no faces"),
            "show a set that prints something".into(),
        ));
    }
    let Some(which) = which else { return Ok(0) };
    if let Some(n) = which.as_i64() {
        return match usize::try_from(n) {
            Ok(n) if (1..=info.faces.len()).contains(&n) => Ok(n - 1),
            _ => Err(problem(
                shared,
                format!(
                    "figure(): `{set}` has {} faces, and {n} is not one of them",
                    info.faces.len()
                ),
                format!("number a face from 1 to {}", info.faces.len()),
            )),
        };
    }
    let Some(id) = which.as_str() else {
        return Err(problem(
            shared,
            format!("figure(): `{which}` is neither a face number nor a row id"),
            "write the row's id, as in figure(\"cards\", \"seed\"), or its number".into(),
        ));
    };
    if let Some(k) = info
        .faces
        .iter()
        .position(|f| f.row_id.as_deref() == Some(id))
    {
        return Ok(k);
    }
    let ids: Vec<&str> = info
        .faces
        .iter()
        .filter_map(|f| f.row_id.as_deref())
        .collect();
    let hint = match did_you_mean(id, ids.iter().copied()) {
        Some(m) => format!("did you mean `{m}`?"),
        None if ids.is_empty() => format!(
            "the rows of `{set}` have no ids: number its faces from 1 to {}",
            info.faces.len()
        ),
        None => format!("`{set}`'s rows are {}", ids.join(", ")),
    };
    Err(problem(
        shared,
        format!("figure(): `{set}` has no row `{id}`"),
        hint,
    ))
}

/// Renders `source` (the text of `file`) with the game's values and the rulebook
/// functions; an error at its line and column when the template fails.
pub fn render(input: &Input, file: &Path, source: Arc<str>) -> Result<Rendered, Diagnostic> {
    let shared: Shared = Arc::default();
    let sets = Arc::new(catalog(input));
    let mut env = input.tpl.env.clone();
    env.set_fuel(Some(crate::fuel::CHECK_FUEL));
    let (s, c) = (shared.clone(), sets.clone());
    env.add_function(
        "figure",
        move |set: String, which: Option<Value>, kwargs: Kwargs| {
            figure(&s, &c, &set, which, &kwargs)
        },
    );
    let s = shared.clone();
    env.add_function("components_list", move || marker(&s, Special::Components));
    let s = shared.clone();
    env.add_function("table_of_contents", move || marker(&s, Special::Toc));
    let s = shared.clone();
    env.add_function("page_break", move || marker(&s, Special::PageBreak));
    let s = shared.clone();
    env.add_function("columns", move |_: &State, n: i64| {
        if !(1..=super::settings::MAX_COLUMNS as i64).contains(&n) {
            return Err(problem(
                &s,
                format!("columns({n}): a page has 1 or 2 columns"),
                "write columns(1) or columns(2)".into(),
            ));
        }
        marker(&s, Special::Columns(n as usize))
    });
    let name = file.to_string_lossy().into_owned();
    let failed = |e: &Error| {
        let known = Known {
            env: Some(&env),
            ctx: Some(input.base),
        };
        let x = explain(e, &source, known, false);
        let (message, hint) = match shared.lock().ok().and_then(|mut r| r.problem.take()) {
            Some(p) => p,
            None => (x.message, x.hint),
        };
        Diagnostic::error(message)
            .at(file, x.span)
            .with("game", &input.game.id)
            .hint(hint)
    };
    let template = env
        .template_from_named_str(&name, &source)
        .map_err(|e| failed(&e))?;
    let (text, spans) = template
        .render_with_spans(input.base)
        .map_err(|e| failed(&e))?;
    let specials = shared
        .lock()
        .map(|mut r| std::mem::take(&mut r.specials))
        .unwrap_or_default();
    Ok(Rendered {
        text,
        specials,
        locator: Locator::new(spans),
        source: source.clone(),
        file: file.to_path_buf(),
    })
}
