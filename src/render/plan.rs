//! Planning: which faces a component set prints (rows, expanded items, art files),
//! how many copies of each, and their cut shape. Quantities are checked here.

use std::path::Path;

use minijinja::value::{Value, ValueKind};

use super::comp_diag;
use crate::diag::{Diagnostic, Reported};
use crate::eval::{eval, row_value_in, Context};
use crate::model::{Component, Game, Shape};
use crate::template::Templates;

/// Most copies of one face.
pub const MAX_QTY: i64 = 10_000;
/// Most printed parts in one component set.
pub const MAX_PARTS: u64 = 20_000;

/// One distinct face of a component set, before its SVG is rendered.
#[derive(Debug, Clone)]
pub struct FacePlan {
    /// Index of the row in the component's table (None for a set without a table).
    pub row: Option<usize>,
    /// For `expand`: the list element this face shows; for `art`: the art file.
    pub item: Option<Value>,
    /// Printed copies.
    pub qty: u32,
    /// With `repeat`: which distinct copy this is (1-based).
    pub copy: Option<u32>,
    /// For messages: `contract #12`, ``city `seattle` goods 2``.
    pub label: String,
    /// For people (the preview, Tabletop Simulator's names, page labels, the
    /// manifest): the label without backticks, `city seattle goods 2`.
    pub name: String,
    pub shape: Shape,
    /// The part's revision, `face.revision` in its templates: 1 for its first
    /// printed version, one more for each print record in which its face changed
    /// ([`super::revision`]).
    pub revision: u32,
}

/// One face before its quantity and shape are known.
struct Unit {
    row: Option<usize>,
    row_value: Option<Value>,
    item: Option<Value>,
    label: String,
    name: String,
}

/// Plans the faces of `comp` with `base` as the expressions' context.
pub fn plan(
    game: &Game,
    tpl: &Templates,
    base: &Context,
    comp: &Component,
) -> Reported<Vec<FacePlan>> {
    let mut diags = Vec::new();
    let fixed_shape = match fixed_shape(game, comp) {
        Ok(s) => s,
        Err(d) => return Reported::new(Vec::new(), [d]),
    };
    let units = units(game, base, comp, &mut diags);
    let mut out = Vec::new();
    let mut total: u64 = 0;
    for unit in units {
        let mut ctx = base.clone();
        if let Some(rv) = &unit.row_value {
            ctx.insert("row".into(), rv.clone());
        }
        if let Some(item) = &unit.item {
            ctx.insert("item".into(), item.clone());
        }
        let planned = quantity(game, tpl, comp, &unit, &ctx).and_then(|qty| {
            let shape = match fixed_shape {
                Some(s) => s,
                None => row_shape(game, tpl, comp, &unit.label, &ctx)?,
            };
            Ok((qty, shape, repeat(game, tpl, comp, &unit.label, &ctx)?))
        });
        let (qty, shape, repeat) = match planned {
            Ok(p) => p,
            Err(d) => {
                diags.push(d.with("row", unit.label.clone()));
                continue;
            }
        };
        let copies = repeat.unwrap_or(1);
        total += copies as u64 * qty as u64;
        match repeat {
            None => out.push(FacePlan {
                row: unit.row,
                item: unit.item,
                qty,
                copy: None,
                label: unit.label,
                name: unit.name,
                shape,
                revision: 1,
            }),
            Some(n) => out.extend((1..=n).map(|k| FacePlan {
                row: unit.row,
                item: unit.item.clone(),
                qty,
                copy: Some(k),
                label: format!("{} copy {k}", unit.label),
                name: format!("{} copy {k}", unit.name),
                shape,
                revision: 1,
            })),
        }
        if total > MAX_PARTS {
            break;
        }
    }
    if total > MAX_PARTS {
        diags.push(too_many_parts(game, comp, total));
        out.clear();
    }
    Reported::new(out, crate::diag::once_for_rows(diags))
}

/// The error for a component that would print `total` parts, over [`MAX_PARTS`].
fn too_many_parts(game: &Game, comp: &Component, total: u64) -> Diagnostic {
    comp_diag(
        game,
        comp,
        Diagnostic::error(format!(
            "component `{}` would print {total} parts, over the limit of {MAX_PARTS}",
            comp.id()
        )),
    )
    .at(&game.file, Some(comp.def.id.span()))
    .hint("check the quantities; split a huge set into several components")
}

/// The component's `shape` when it is a name (`None` when it is an expression per
/// row; `rect` when there is none).
fn fixed_shape(game: &Game, comp: &Component) -> Result<Option<Shape>, Diagnostic> {
    match &comp.def.shape {
        Some(s) if !s.get_ref().contains("{{") => match Shape::parse(s.get_ref()) {
            Some(sh) => Ok(Some(sh)),
            None => Err(comp_diag(
                game,
                comp,
                Diagnostic::error(format!("unknown shape `{}`", s.get_ref())),
            )
            .at(&game.file, Some(s.span()))
            .hint(format!("use one of: {}", Shape::NAMES.join(", ")))),
        },
        Some(_) => Ok(None),
        None => Ok(Some(Shape::Rect)),
    }
}

/// One unit per face: the art files, the rows of the table, or the elements of each
/// row's `expand` list.
fn units(game: &Game, base: &Context, comp: &Component, diags: &mut Vec<Diagnostic>) -> Vec<Unit> {
    let def = &comp.def;
    if !comp.art.is_empty() {
        return art_units(comp);
    }
    let Some(tname) = &def.table else {
        return vec![Unit {
            row: None,
            row_value: None,
            item: None,
            label: comp.id().to_string(),
            name: comp.name(),
        }];
    };
    let Some(table) = game.tables.get(tname.get_ref()) else {
        return Vec::new(); // reported by the loader
    };
    if let Some(field) = &def.expand {
        if let Some(d) = table.lacks(field.get_ref(), "`expand`") {
            let d = match &table.header {
                Some(_) => d,
                None => d.at(&game.file, Some(field.span())),
            };
            diags.push(comp_diag(game, comp, d));
            return Vec::new();
        }
    }
    let mut out = Vec::new();
    for (i, row) in table.rows.iter().enumerate() {
        let rv = row_value_in(base, tname.get_ref(), i, row);
        let label = format!("{} {}", table.name, row.label(i));
        let name = format!("{} {}", table.name, row.name(i));
        let Some(field) = &def.expand else {
            out.push(Unit {
                row: Some(i),
                row_value: Some(rv),
                item: None,
                label,
                name,
            });
            continue;
        };
        let list = rv.get_attr(field.get_ref()).unwrap_or(Value::UNDEFINED);
        if list.kind() != ValueKind::Seq {
            let d = comp_diag(
                game,
                comp,
                Diagnostic::error(format!(
                    "{label} has no list field `{}` to expand",
                    field.get_ref()
                )),
            );
            diags.push(
                table
                    .at(d, row, None, false)
                    .hint(format!("add `{} = [...]` to the row", field.get_ref())),
            );
            continue;
        }
        for (k, item) in list.try_iter().into_iter().flatten().enumerate() {
            out.push(Unit {
                row: Some(i),
                row_value: Some(rv.clone()),
                item: Some(item),
                label: format!("{label} {} {}", field.get_ref(), k + 1),
                name: format!("{name} {} {}", field.get_ref(), k + 1),
            });
        }
    }
    out
}

/// One unit per art file of `comp`, the file's path its `item`.
fn art_units(comp: &Component) -> Vec<Unit> {
    comp.art
        .iter()
        .map(|f| {
            let file = f
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            Unit {
                row: None,
                row_value: None,
                item: Some(Value::from(f.to_string_lossy().into_owned())),
                label: file.clone(),
                name: file,
            }
        })
        .collect()
}

/// Copies of one face: the component's `qty` (a number or an expression), else the
/// row's `qty`, else 1; a whole number from 1 to [`MAX_QTY`].
fn quantity(
    game: &Game,
    tpl: &Templates,
    comp: &Component,
    unit: &Unit,
    ctx: &Context,
) -> Result<u32, Diagnostic> {
    let table = comp
        .def
        .table
        .as_ref()
        .and_then(|t| game.tables.get(t.get_ref()));
    // Where the quantity was written: `qty` in game.toml, or the row's `qty` cell.
    let (value, cell) = match &comp.def.qty {
        Some(q) => (
            number_or_expression(tpl, game, "qty", q, ctx).map_err(|d| comp_diag(game, comp, d))?,
            None,
        ),
        None => match (table, unit.row) {
            (Some(t), Some(r)) => match t.rows[r].fields.get("qty") {
                Some(f) => (
                    crate::template::to_value(&f.value),
                    Some((t, &t.rows[r], f)),
                ),
                None => return Ok(1),
            },
            _ => return Ok(1),
        },
    };
    let at = |d: Diagnostic| {
        let d = comp_diag(game, comp, d);
        match (cell, &comp.def.qty) {
            (Some((t, row, f)), _) => t.at(d, row, Some(f), false),
            (None, q) => d.at(&game.file, q.as_ref().map(|q| q.span())),
        }
    };
    let label = &unit.label;
    match value.as_i64() {
        Some(n) if (1..=MAX_QTY).contains(&n) => Ok(n as u32),
        Some(n) if n < 1 => Err(at(Diagnostic::error(format!(
            "{label}: quantity {n} must be at least 1"
        )))
        .hint("remove the row instead of giving it a zero or negative qty")),
        Some(n) => Err(at(Diagnostic::error(format!(
            "{label}: quantity {n} is over the limit of {MAX_QTY} copies of one face"
        )))
        .hint("check the number: no print run needs that many copies of one face")),
        None => match f64::try_from(value.clone()) {
            // A whole number past 64 bits, written as a float (`qty = 1e300`).
            Ok(f) if f.fract() == 0.0 && f >= 1.0 => Err(at(Diagnostic::error(format!(
                "{label}: quantity {f:e} is over the limit of {MAX_QTY} copies of one face"
            )))
            .hint("check the number: no print run needs that many copies of one face")),
            Ok(f) if f.fract() == 0.0 && f <= -1.0 => Err(at(Diagnostic::error(format!(
                "{label}: quantity {f:e} must be at least 1"
            )))
            .hint("remove the row instead of giving it a zero or negative qty")),
            _ => Err(at(Diagnostic::error(format!(
                "{label}: quantity `{value}` is not a whole number"
            )))
            .hint("write qty as a whole number, e.g. qty = 2")),
        },
    }
}

/// The shape of one face from the component's `shape` expression.
fn row_shape(
    game: &Game,
    tpl: &Templates,
    comp: &Component,
    label: &str,
    ctx: &Context,
) -> Result<Shape, Diagnostic> {
    let def = &comp.def;
    let span = def.shape.as_ref().map(|s| s.span());
    let src = def
        .shape
        .as_ref()
        .map(|s| s.get_ref().as_str())
        .unwrap_or("rect");
    let text = tpl.render_str(src, ctx).map_err(|e| {
        let known = crate::template::errors::Known {
            env: Some(&tpl.env),
            ctx: Some(ctx),
        };
        let x = crate::template::errors::explain(&e, src, known, false);
        let at = match &def.shape {
            Some(s) => crate::eval::sub_span(s, x.span),
            None => 0..0,
        };
        let message = x.message.replace("template uses", "the shape uses");
        comp_diag(game, comp, Diagnostic::error(message))
            .at(&game.file, span.as_ref().map(|_| at))
            .hint(x.hint)
    })?;
    Shape::parse(&text).ok_or_else(|| {
        comp_diag(
            game,
            comp,
            Diagnostic::error(format!(
                "{label}: shape expression gives `{text}`, not a shape"
            )),
        )
        .at(&game.file, span)
        .hint(format!(
            "the expression must give one of: {}",
            Shape::NAMES.join(", ")
        ))
    })
}

/// Distinct copies of one face (`repeat`), each with its own `copy` number.
fn repeat(
    game: &Game,
    tpl: &Templates,
    comp: &Component,
    label: &str,
    ctx: &Context,
) -> Result<Option<u32>, Diagnostic> {
    let Some(r) = &comp.def.repeat else {
        return Ok(None);
    };
    let v =
        number_or_expression(tpl, game, "repeat", r, ctx).map_err(|d| comp_diag(game, comp, d))?;
    match v.as_i64() {
        Some(n) if (1..=MAX_QTY).contains(&n) => Ok(Some(n as u32)),
        n => Err(comp_diag(
            game,
            comp,
            Diagnostic::error(format!(
                "{label}: `repeat` gives {}, not a whole number from 1 to {MAX_QTY}",
                n.map(|n| n.to_string())
                    .unwrap_or_else(|| "something else".into())
            )),
        )
        .at(&game.file, Some(r.span()))
        .hint("repeat is the number of distinct copies of each face")),
    }
}

/// A component field that is an integer or an expression string (`qty`, `repeat`),
/// evaluated for one face.
fn number_or_expression(
    tpl: &Templates,
    game: &Game,
    field: &str,
    v: &toml::Spanned<toml::Value>,
    ctx: &Context,
) -> Result<Value, Diagnostic> {
    match v.get_ref() {
        toml::Value::Integer(n) => Ok(Value::from(*n)),
        toml::Value::String(expr) => {
            eval(tpl, game, &toml::Spanned::new(v.span(), expr.clone()), ctx)
        }
        other => Err(Diagnostic::error(format!(
            "`{field}` must be an integer or an expression string, not {}",
            other.type_str()
        ))
        .at(&game.file, Some(v.span()))),
    }
}

/// The project path of an art face's file (its `item`).
pub fn art_file(plan: &FacePlan) -> Option<&Path> {
    plan.item.as_ref().and_then(|i| i.as_str()).map(Path::new)
}
