//! Planning and rendering faces: which faces a component set prints ([`plan`]) and
//! the SVG text of each face's front and back (templates through minijinja, or
//! finished art files read through the project).

mod layer;
mod plan;
pub(crate) mod recorded;
pub mod revision;

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use minijinja::Value;
use rayon::prelude::*;

pub use layer::{Insert, Layer, LayerError, Part};
pub use plan::{art_file, plan, FacePlan};
pub use recorded::RenderCache;

use crate::diag::{Diagnostic, Reported};
use crate::eval::Context;
use crate::model::{Component, Game, Shape, Side};
use crate::project::{Project, MAX_IMAGE_BYTES};
use crate::template::{render_error, template_file, RenderLog, Templates, LOG};
use crate::units::fmt_num;

/// A rendered face: SVG text of the front and (if the set has backs) the back.
#[derive(Debug, Clone)]
pub struct Face {
    pub plan: FacePlan,
    pub front: String,
    /// The layer under the front (by cut shape) and where it went in `front`.
    pub layer: Option<(Shape, Insert)>,
    pub back: Option<String>,
}

/// Where the output of one rendered side comes from in its templates.
pub struct Locator {
    spans: Vec<minijinja::OutputSpan>,
}

impl Locator {
    /// A locator over the spans of a render with spans (`render_with_spans`).
    pub fn new(spans: Vec<minijinja::OutputSpan>) -> Locator {
        Locator { spans }
    }

    /// The template file and source range that wrote `range` of the output (see
    /// [`Renderer::locate`]).
    pub fn locate(&self, range: Range<usize>) -> Option<(PathBuf, Range<usize>)> {
        let (name, source) = self.source_range(range)?;
        Some((template_file(name), source))
    }

    /// The name of the template that wrote `range` of the output and the byte
    /// range of its source: the same text for template data, the `{{ ... }}` for
    /// an expression's output.
    pub fn source_range(&self, range: Range<usize>) -> Option<(&str, Range<usize>)> {
        let offset = range.start;
        let span = self
            .spans
            .iter()
            .find(|s| s.output_range().contains(&offset))
            .or_else(|| {
                self.spans
                    .iter()
                    .rev()
                    .find(|s| s.output_range().start <= offset)
            })?;
        let out = span.output_range();
        let src = span.source_range();
        let source = match span.kind() {
            minijinja::OutputSpanKind::Raw if range.end <= out.end && offset >= out.start => {
                src.start + (offset - out.start)..src.start + (range.end - out.start)
            }
            _ => src,
        };
        Some((span.name(), source))
    }
}

/// The values a face's template sees that a layer does not ([`Renderer::render_layer`]).
const FACE_VALUES: [&str; 5] = ["row", "item", "copy", "index", "qty"];

/// Everything rendering a game's faces needs.
#[derive(Clone, Copy)]
pub struct Renderer<'a> {
    pub project: &'a Project,
    pub game: &'a Game,
    pub tpl: &'a Templates,
    /// The context every template sees (`game`, `rules`, `tables`...).
    pub base: &'a Context,
    /// Renders kept from the last build (the live preview): a face whose
    /// template read nothing that changed is not rendered again.
    pub kept: Option<&'a RenderCache>,
}

pub(crate) fn comp_diag(game: &Game, comp: &Component, d: Diagnostic) -> Diagnostic {
    d.with("game", &game.id).with("component", comp.id())
}

/// The `face` value templates see: trim size, bleed, shape, side and the SVG
/// root's size and viewBox (origin at the trim's top-left corner, in mm); a
/// part's face also its `revision` ([`part_face`]).
pub fn face_value(comp: &Component, shape: Shape, side: Side) -> Value {
    Value::from(face_map(comp, shape, side))
}

/// The `face` value of a part's side: [`face_value`] and the part's `revision`.
fn part_face(comp: &Component, p: &FacePlan, side: Side) -> Value {
    let mut m = face_map(comp, p.shape, side);
    m.insert("revision", Value::from(p.revision));
    Value::from(m)
}

fn face_map(comp: &Component, shape: Shape, side: Side) -> BTreeMap<&'static str, Value> {
    let (w, h, b) = (comp.size.width, comp.size.height, comp.bleed);
    let mut m: BTreeMap<&str, Value> = BTreeMap::new();
    m.insert("width", Value::from(w));
    m.insert("height", Value::from(h));
    m.insert("bleed", Value::from(b));
    m.insert("full_width", Value::from(fmt_num(w + 2.0 * b)));
    m.insert("full_height", Value::from(fmt_num(h + 2.0 * b)));
    m.insert(
        "viewbox",
        Value::from(format!(
            "{} {} {} {}",
            fmt_num(-b),
            fmt_num(-b),
            fmt_num(w + 2.0 * b),
            fmt_num(h + 2.0 * b)
        )),
    );
    m.insert("shape", Value::from(shape.name()));
    m.insert("side", Value::from(side.name()));
    m.insert("kind", Value::from(comp.kind.name()));
    m.insert("panels", Value::from(comp.panels));
    m.insert("panel_width", Value::from(w / comp.panels as f64));
    m.insert("component", Value::from(comp.id()));
    m
}

impl Renderer<'_> {
    /// The template name of one side of `comp`, resolved (or why it is missing).
    fn template(&self, comp: &Component, side: Side) -> Option<Result<String, Diagnostic>> {
        let reference = match side {
            Side::Front => comp.def.front.as_ref()?,
            Side::Back => comp.def.back.as_ref()?,
        };
        Some(self.resolve(comp, reference, side.name()))
    }

    /// The template `reference` (the value of `comp`'s field `key`) names, resolved
    /// (or why it is missing, at that value).
    fn resolve(
        &self,
        comp: &Component,
        reference: &crate::model::Spanned<String>,
        key: &str,
    ) -> Result<String, Diagnostic> {
        self.tpl
            .resolve(&self.game.id, reference.get_ref())
            .map_err(|why| {
                comp_diag(self.game, comp, Diagnostic::error(why.to_string()))
                    .at(&self.game.file, Some(reference.span()))
                    .hint(format!(
                        "create the template file or fix the name in `{key}`"
                    ))
            })
    }

    /// The context of face `index` of `comp` (without `face`).
    fn face_context(&self, comp: &Component, index: usize, p: &FacePlan) -> Context {
        let mut ctx = self.base.clone();
        if let (Some(r), Some((name, t))) = (
            p.row,
            comp.def
                .table
                .as_ref()
                .and_then(|t| Some((t.get_ref(), self.game.tables.get(t.get_ref())?))),
        ) {
            let row = crate::eval::row_value_in(self.base, name, r, &t.rows[r]);
            ctx.insert("row".into(), row);
        }
        if let Some(item) = &p.item {
            ctx.insert("item".into(), item.clone());
        }
        ctx.insert("index".into(), Value::from(index));
        ctx.insert("qty".into(), Value::from(p.qty));
        if let Some(c) = p.copy {
            ctx.insert("copy".into(), Value::from(c));
        }
        ctx
    }

    /// Renders one side of one face with template `name`: the SVG text, and every
    /// warning and error with the face's context.
    ///
    /// `ctx` makes the face's context (without `face`); with kept renders, only
    /// when the side is rendered again (`recorded::side_key` identifies it).
    fn render_side(
        &self,
        comp: &Component,
        name: &str,
        ctx: &dyn Fn() -> Context,
        (index, p, side): (usize, &FacePlan, Side),
    ) -> Reported<Option<String>> {
        let with_face = || {
            let mut c = ctx();
            c.insert("face".into(), part_face(comp, p, side));
            c
        };
        match self.kept {
            Some(cache) => {
                let key = recorded::side_key(self, comp, name, (index, p, side));
                self.render_kept_under(cache, (comp, name, Some(p)), key, with_face)
            }
            None => self.render_plain(comp, name, with_face(), Some(p)),
        }
    }

    /// Renders template `name` with context `c` (`face` in it): the SVG text, and
    /// every warning and error, naming the face's row if it has one. With kept
    /// renders, the kept text when nothing the template read changed.
    fn render_template(
        &self,
        comp: &Component,
        name: &str,
        c: Context,
        plan: Option<&FacePlan>,
    ) -> Reported<Option<String>> {
        match self.kept {
            Some(cache) => self.render_kept(cache, comp, name, c, plan),
            None => self.render_plain(comp, name, c, plan),
        }
    }

    /// Renders template `name` with context `c` (see [`Renderer::render_template`]).
    fn render_plain(
        &self,
        comp: &Component,
        name: &str,
        mut c: Context,
        plan: Option<&FacePlan>,
    ) -> Reported<Option<String>> {
        let (log, log_value) = RenderLog::new();
        c.insert(LOG.into(), log_value);
        let rendered = self.tpl.render(name, &c);
        let with_row = |d: Diagnostic| match plan {
            Some(p) => d.with("row", p.label.clone()),
            None => d,
        };
        let mut diags: Vec<Diagnostic> = log
            .take()
            .into_iter()
            .map(|w| {
                with_row(comp_diag(
                    self.game,
                    comp,
                    Diagnostic::warning(w).at(template_file(name), None),
                ))
                .with("template", format!("templates/{name}"))
                .hint("shorten the text, widen its box, or lower the minimum size")
            })
            .collect();
        let svg = match rendered {
            Ok(s) => Some(s),
            Err(e) => {
                let d = match self.data_icon(comp, plan, &e) {
                    Some(d) => d,
                    None => with_row(comp_diag(
                        self.game,
                        comp,
                        render_error(self.tpl, self.project, &self.game.file, name, &c, &e),
                    )),
                };
                let d = self.header_note(comp, d);
                diags.push(d.with("template", format!("templates/{name}")));
                None
            }
        };
        Reported::new(svg, diags)
    }

    /// For a row field a template uses and a spreadsheet table lacks (`row.colour`
    /// where the header says `color`): where the nearest column's header is.
    fn header_note(&self, comp: &Component, d: Diagnostic) -> Diagnostic {
        let field = d
            .message
            .strip_prefix("template uses `row.")
            .and_then(|m| m.split(['`', '.']).next());
        let table = comp
            .def
            .table
            .as_ref()
            .and_then(|t| self.game.tables.get(t.get_ref()));
        match field.zip(table).and_then(|(f, t)| t.header_cell_near(f)) {
            Some(place) => d.with("column", place),
            None => d,
        }
    }

    /// When rendering failed on an icon that does not exist and the face's row
    /// names it (`:stra:` in a cell): the error at that cell of the data, where it
    /// is fixed, rather than in the shared macro that laid the text out.
    fn data_icon(
        &self,
        comp: &Component,
        plan: Option<&FacePlan>,
        e: &minijinja::Error,
    ) -> Option<Diagnostic> {
        let mut source: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(e);
        let (icon, near) = loop {
            match source?.downcast_ref::<crate::text::TextError>() {
                Some(crate::text::TextError::UnknownIcon { name, near, .. }) => break (name, near),
                _ => source = source?.source(),
            }
        };
        let table = self.game.tables.get(comp.def.table.as_ref()?.get_ref())?;
        let (i, row) = plan?.row.map(|i| (i, &table.rows[i]))?;
        let written = format!(":{icon}:");
        let (field, f) = row
            .fields
            .iter()
            .find(|(_, f)| f.value.as_str().is_some_and(|t| t.contains(&written)))?;
        let label = format!("{} {}", table.name, row.label(i));
        let message = match near {
            Some(m) => format!("{label}: `{field}` shows the icon `{written}`, which does not exist; did you mean `:{m}:`?"),
            None => format!("{label}: `{field}` shows the icon `{written}`, which does not exist"),
        };
        let hint = format!(
            "fix the icon's name, or add the picture as templates/{}/icons/{icon}.svg (icons: {})",
            self.game.id,
            self.tpl.text.icons.names().join(", ")
        );
        let d = comp_diag(self.game, comp, Diagnostic::error(message))
            .with("row", label)
            .with("field", field.clone());
        let mut d = table.at(d, row, Some(f), false).hint(hint);
        // In a text file, the caret goes under the icon's name in the cell.
        if let (Some(span), Some(text)) = (&d.span, self.project.source(&table.file)) {
            if let Some(k) = text.get(span.clone()).and_then(|t| t.find(&written)) {
                d.span = Some(span.start + k..span.start + k + written.len());
            }
        }
        Some(d)
    }

    /// The name of `comp`'s layer template, resolved (or why it is missing).
    fn layer_template(&self, comp: &Component) -> Option<Result<String, Diagnostic>> {
        Some(self.resolve(comp, comp.def.layer.as_ref()?, "layer"))
    }

    /// The context of `comp`'s layer: the game's, and `face` (front, `shape`).
    fn layer_context(&self, comp: &Component, shape: Shape) -> Context {
        let mut c = self.base.clone();
        c.insert("face".into(), face_value(comp, shape, Side::Front));
        c
    }

    /// Renders `comp`'s layer for its faces of cut `shape`, once for the whole set
    /// (`None` if the set has no layer, or with the errors that stopped it).
    pub fn render_layer(&self, comp: &Component, shape: Shape) -> Reported<Option<Layer>> {
        let name = match self.layer_template(comp) {
            None => return Reported::new(None, []),
            Some(Err(d)) => return Reported::new(None, [d]),
            Some(Ok(n)) => n,
        };
        let Reported { value, diags } =
            self.render_template(comp, &name, self.layer_context(comp, shape), None);
        let mut diags = diags.items;
        // A face's own value is missing from a layer by design: say where it goes.
        for d in &mut diags {
            if FACE_VALUES
                .iter()
                .any(|v| d.message == format!("template uses `{v}`, which the data does not have"))
            {
                d.message = d
                    .message
                    .replace("which the data does not have", "which a layer does not see");
                d.hint = Some(
                    "a layer is drawn the same under every front: draw what differs from face to face in the front template".into(),
                );
            }
        }
        let layer = value.and_then(|text| {
            // Malformed XML is shown at the layer template's line that wrote it.
            if let Some(p) = crate::svg::syntax_error(&text) {
                let (msg, hint) = p.problem.describe();
                let (file, span) = match self.layer_locator(comp, shape) {
                    Some((l, file)) => match p.offset.and_then(|r| l.locate(r)) {
                        Some((f, span)) => (f, Some(span)),
                        None => (file, None),
                    },
                    None => (template_file(&name), None),
                };
                diags.push(
                    comp_diag(self.game, comp, Diagnostic::error(msg))
                        .at(file, span)
                        .with("template", format!("templates/{name}"))
                        .hint(hint),
                );
                return None;
            }
            match Layer::read(text) {
                Ok(l) => Some(l),
                Err(e) => {
                    diags.push(self.layer_error(comp, &name, &e));
                    None
                }
            }
        });
        Reported::new(layer, diags)
    }

    /// The error of a layer that cannot go under a front.
    fn layer_error(&self, comp: &Component, name: &str, e: &LayerError) -> Diagnostic {
        let span = comp.def.layer.as_ref().map(|l| l.span());
        comp_diag(self.game, comp, Diagnostic::error(e.to_string()))
            .at(&self.game.file, span)
            .with("template", format!("templates/{name}"))
            .hint(e.hint())
    }

    /// Renders the front (and back) SVG of every planned face of `comp`, on all
    /// cores, in the plans' order.
    ///
    /// `plans` are the component's faces from number `first` (0-based) on: a
    /// component's faces may be rendered a batch at a time.
    /// `layers` are the set's layers by cut shape ([`Renderer::render_layer`]):
    /// each front is written over its shape's layer.
    pub fn render(
        &self,
        comp: &Component,
        plans: &[FacePlan],
        first: usize,
        layers: &HashMap<Shape, Layer>,
    ) -> Reported<Vec<Face>> {
        if comp.def.front.is_none() {
            return self.render_art(comp, plans);
        }
        let front = match self.template(comp, Side::Front) {
            Some(Ok(n)) => n,
            Some(Err(d)) => return Reported::new(Vec::new(), [d]),
            None => return Reported::new(Vec::new(), []),
        };
        let back = match self.template(comp, Side::Back) {
            None => None,
            Some(Ok(n)) => Some(n),
            Some(Err(d)) => return Reported::new(Vec::new(), [d]),
        };
        let results: Vec<Reported<Option<Face>>> = plans
            .par_iter()
            .enumerate()
            .map(|(index, p)| {
                let made = std::cell::OnceCell::new();
                let ctx = || {
                    made.get_or_init(|| self.face_context(comp, first + index, p))
                        .clone()
                };
                let f = self.render_side(comp, &front, &ctx, (first + index, p, Side::Front));
                let mut diags = f.diags.items;
                let (f_value, layer) = match (f.value, layers.get(&p.shape)) {
                    (Some(text), Some(layer)) => match layer.under(&text) {
                        Ok(Some(c)) => (Some(c.text), Some((p.shape, c.at))),
                        Ok(None) => (Some(text), None),
                        Err(e) => {
                            let name = comp.def.layer.as_ref().map_or("", |l| l.get_ref());
                            diags.push(
                                self.layer_error(comp, name, &e)
                                    .with("row", p.label.clone()),
                            );
                            (None, None)
                        }
                    },
                    (v, _) => (v, None),
                };
                let b = back.as_ref().map(|b| {
                    let r = self.render_side(comp, b, &ctx, (first + index, p, Side::Back));
                    diags.extend(r.diags.items);
                    r.value
                });
                let face = match (f_value, b) {
                    (Some(front), None) => Some(Face {
                        plan: p.clone(),
                        front,
                        layer,
                        back: None,
                    }),
                    (Some(front), Some(Some(back))) => Some(Face {
                        plan: p.clone(),
                        front,
                        layer,
                        back: Some(back),
                    }),
                    _ => None,
                };
                Reported::new(face, diags)
            })
            .collect();
        let mut faces = Vec::new();
        let mut diags = Vec::new();
        for r in results {
            faces.extend(r.value);
            diags.extend(r.diags.items);
        }
        // One bad template gives the same error for every row: report it once.
        diags.dedup_by(|a, b| a.message == b.message && a.file == b.file && a.span == b.span);
        Reported::new(faces, diags)
    }

    /// Where in its template a range of a rendered side comes from: the template
    /// file and the byte range of the source that wrote it — the same text for
    /// template data, the `{{ ... }}` for an expression's output (the calling line
    /// for the output of a macro). Renders the face again, recording spans.
    pub fn locate(
        &self,
        comp: &Component,
        plans: &[FacePlan],
        index: usize,
        side: Side,
        range: Range<usize>,
    ) -> Option<(PathBuf, Range<usize>)> {
        self.locator(comp, plans, index, side)?.locate(range)
    }

    /// Renders one side of a face again, recording where each piece of its output
    /// comes from, to locate many ranges of it ([`Locator::locate`]).
    pub fn locator(
        &self,
        comp: &Component,
        plans: &[FacePlan],
        index: usize,
        side: Side,
    ) -> Option<Locator> {
        let p = plans.get(index)?;
        let name = self.template(comp, side)?.ok()?;
        let mut ctx = self.face_context(comp, index, p);
        ctx.insert("face".into(), part_face(comp, p, side));
        let (_, spans) = self
            .tpl
            .env
            .get_template(&name)
            .ok()?
            .render_with_spans(&ctx)
            .ok()?;
        Some(Locator { spans })
    }

    /// Renders `comp`'s layer (for cut `shape`) again, recording where each piece of
    /// its output comes from, with the template's file.
    pub fn layer_locator(&self, comp: &Component, shape: Shape) -> Option<(Locator, PathBuf)> {
        let name = self.layer_template(comp)?.ok()?;
        let (_, spans) = self
            .tpl
            .env
            .get_template(&name)
            .ok()?
            .render_with_spans(self.layer_context(comp, shape))
            .ok()?;
        Some((Locator { spans }, template_file(&name)))
    }

    /// Faces from finished art files (`art = "art/*.svg"`): SVG files as they are, PNG
    /// and JPEG files stretched over the face and its bleed.
    fn render_art(&self, comp: &Component, plans: &[FacePlan]) -> Reported<Vec<Face>> {
        let back = match &comp.art_back {
            None => None,
            Some(b) => match self.art_svg(comp, b) {
                Ok(t) => Some(t),
                Err(d) => return Reported::new(Vec::new(), [d]),
            },
        };
        let results: Vec<Result<Face, Diagnostic>> = plans
            .par_iter()
            .map(|p| {
                let path = art_file(p).unwrap_or(Path::new(""));
                Ok(Face {
                    plan: p.clone(),
                    front: self.art_svg(comp, path)?,
                    layer: None,
                    back: back.clone(),
                })
            })
            .collect();
        let mut faces = Vec::new();
        let mut diags = Vec::new();
        for r in results {
            match r {
                Ok(f) => faces.push(f),
                Err(d) => diags.push(d),
            }
        }
        Reported::new(faces, diags)
    }

    /// One art file as the SVG text of a face.
    fn art_svg(&self, comp: &Component, rel: &Path) -> Result<String, Diagnostic> {
        let game = self.game;
        // The `art` line (or `art_back`, for the back's file) names the file.
        let art_span = match &comp.def.art_back {
            Some(b) if comp.art_back.as_deref() == Some(rel) => Some(b.span()),
            _ => comp.def.art.as_ref().map(|a| a.span()),
        };
        let bytes = self.project.read(rel, MAX_IMAGE_BYTES).map_err(|e| {
            comp_diag(game, comp, Diagnostic::error(format!("art file: {e}")))
                .at(&game.file, art_span.clone())
                .hint(e.hint())
        })?;
        let (w, h) = (
            comp.size.width + 2.0 * comp.bleed,
            comp.size.height + 2.0 * comp.bleed,
        );
        let at_art = |d: Diagnostic| comp_diag(game, comp, d).at(&game.file, art_span.clone());
        let Some(format) = crate::image::Format::sniff(&bytes) else {
            // SVG art is text: kept as a source, so problems in it point at its lines.
            return match String::from_utf8(bytes) {
                Ok(text) => Ok(self.project.keep_text(rel, text).to_string()),
                Err(_) => Err(at_art(Diagnostic::error(format!(
                    "art file {} is not SVG, PNG, JPEG, GIF or WebP",
                    rel.display()
                )))
                .hint("export the art as SVG (text) or PNG")),
            };
        };
        let bytes = std::sync::Arc::new(bytes);
        if let Err(p) = crate::image::check(bytes.clone()) {
            return Err(
                at_art(Diagnostic::error(format!("art file {} {p}", rel.display()))).hint(p.hint()),
            );
        }
        let mime = format.mime();
        Ok(format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}mm\" height=\"{h}mm\" viewBox=\"0 0 {w} {h}\"><image href=\"data:{mime};base64,{}\" width=\"{w}\" height=\"{h}\" preserveAspectRatio=\"none\"/></svg>",
            base64::engine::general_purpose::STANDARD.encode(bytes.as_slice()),
            w = fmt_num(w),
            h = fmt_num(h)
        ))
    }
}
