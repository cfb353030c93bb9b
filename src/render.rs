//! Planning and rendering faces: which faces a component set prints (rows, expanded
//! items, copies) and the SVG text of each face's front and back.

use std::collections::BTreeMap;

use minijinja::Value;
use rayon::prelude::*;

use crate::diag::Diagnostic;
use crate::eval::{base_context, eval};
use crate::model::{Component, Game, Shape};
use crate::template::{template_error, Templates};
use crate::units::fmt_num;

/// Most copies of one face.
pub const MAX_QTY: i64 = 10_000;
/// Most printed parts in one component set.
pub const MAX_PARTS: u64 = 20_000;

/// One distinct face of a component set, before its SVG is rendered.
#[derive(Debug, Clone)]
pub struct FacePlan {
    /// Index of the row in the component's table (None for a set without a table).
    pub row: Option<usize>,
    /// For `expand`: the list element this face shows.
    pub item: Option<Value>,
    /// Printed copies.
    pub qty: u32,
    /// With `repeat`: which distinct copy this is (1-based).
    pub copy: Option<u32>,
    /// For messages: `contract #12`, `city `seattle` item 2`.
    pub label: String,
    pub shape: Shape,
}

/// A rendered face: SVG text of the front and (if the set has backs) the back.
#[derive(Debug, Clone)]
pub struct Face {
    pub plan: FacePlan,
    pub front: String,
    pub back: Option<String>,
}

fn comp_diag(game: &Game, comp: &Component, d: Diagnostic) -> Diagnostic {
    d.with("game", &game.id).with("component", comp.id())
}

/// Plans the faces of `comp`: one per row (or per element of the `expand` list) with
/// its quantity and shape. Quantities are checked here (positive, within limits).
pub fn plan(game: &Game, tpl: &Templates, comp: &Component) -> (Vec<FacePlan>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut out = Vec::new();
    let base = base_context(game);
    let def = &comp.def;
    let fixed_shape = match &def.shape {
        Some(s) if !s.get_ref().contains("{{") => match Shape::parse(s.get_ref()) {
            Some(sh) => Some(sh),
            None => {
                diags.push(
                    comp_diag(
                        game,
                        comp,
                        Diagnostic::error(format!("unknown shape `{}`", s.get_ref())),
                    )
                    .at(&game.file, Some(s.span()))
                    .hint(format!("use one of: {}", Shape::NAMES.join(", "))),
                );
                return (out, diags);
            }
        },
        Some(_) => None,
        None => Some(Shape::Rect),
    };

    // One unit per face: (row index, row value, item, label).
    type Unit = (Option<usize>, Option<Value>, Option<Value>, String);
    let mut units: Vec<Unit> = Vec::new();
    match def
        .table
        .as_ref()
        .and_then(|t| game.tables.get(t.get_ref()))
    {
        _ if !comp.art.is_empty() => {
            for f in &comp.art {
                let name = f
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                units.push((
                    None,
                    None,
                    Some(Value::from(f.to_string_lossy().into_owned())),
                    name,
                ));
            }
        }
        None if def.table.is_some() => return (out, diags), // reported by the loader
        None => units.push((None, None, None, comp.id().to_string())),
        Some(table) => {
            for (i, row) in table.rows.iter().enumerate() {
                let rv = row.to_value();
                let label = format!("{} {}", table.name, row.label(i));
                match &def.expand {
                    None => units.push((Some(i), Some(rv), None, label)),
                    Some(field) => {
                        let list = rv.get_attr(field.get_ref()).unwrap_or(Value::UNDEFINED);
                        if list.is_undefined() || list.kind() != minijinja::value::ValueKind::Seq {
                            diags.push(
                                comp_diag(
                                    game,
                                    comp,
                                    Diagnostic::error(format!(
                                        "{label} has no list field `{}` to expand",
                                        field.get_ref()
                                    )),
                                )
                                .at(&table.file, Some(row.span.clone()))
                                .hint(format!("add `{} = [...]` to the row", field.get_ref())),
                            );
                            continue;
                        }
                        for (k, item) in list.try_iter().into_iter().flatten().enumerate() {
                            units.push((
                                Some(i),
                                Some(rv.clone()),
                                Some(item),
                                format!("{label} {} {}", field.get_ref(), k + 1),
                            ));
                        }
                    }
                }
            }
        }
    }

    let table = def
        .table
        .as_ref()
        .and_then(|t| game.tables.get(t.get_ref()));
    let mut total: u64 = 0;
    for (row, rv, item, label) in units {
        let mut ctx = base.clone();
        if let Some(rv) = &rv {
            ctx.insert("row".into(), rv.clone());
        }
        if let Some(item) = &item {
            ctx.insert("item".into(), item.clone());
        }
        // Quantity: component `qty` (number or expression), else the row's `qty`, else 1.
        let (qty, at) = match &def.qty {
            Some(q) => {
                let v = number_or_expression(tpl, game, "qty", q, &ctx);
                (v, (game.file.clone(), q.span()))
            }
            None => match (table, row) {
                (Some(t), Some(r)) => match t.rows[r].fields.get("qty") {
                    Some(f) => (
                        Ok(crate::template::to_value(&f.value)),
                        (t.file.clone(), f.span.clone()),
                    ),
                    None => (Ok(Value::from(1)), (t.file.clone(), t.rows[r].span.clone())),
                },
                _ => (Ok(Value::from(1)), (game.file.clone(), comp.span.clone())),
            },
        };
        let qty = match qty {
            Err(d) => {
                diags.push(comp_diag(game, comp, d).with("row", label.clone()));
                continue;
            }
            Ok(v) => match v.as_i64() {
                Some(n) if (1..=MAX_QTY).contains(&n) => n as u32,
                Some(n) => {
                    diags.push(comp_diag(game, comp, Diagnostic::error(if n < 1 {
                        format!("{label}: quantity {n} must be at least 1")
                    } else {
                        format!("{label}: quantity {n} is over the limit of {MAX_QTY} copies of one face")
                    }))
                    .at(&at.0, Some(at.1.clone()))
                    .with("row", label.clone())
                    .hint(if n < 1 { "remove the row instead of giving it a zero or negative qty" } else { "check the number: no print run needs that many copies of one face" }));
                    continue;
                }
                None => {
                    diags.push(
                        comp_diag(
                            game,
                            comp,
                            Diagnostic::error(format!(
                                "{label}: quantity `{v}` is not a whole number"
                            )),
                        )
                        .at(&at.0, Some(at.1.clone()))
                        .with("row", label.clone())
                        .hint("write qty as a whole number, e.g. qty = 2"),
                    );
                    continue;
                }
            },
        };
        total += qty as u64;
        let shape = match fixed_shape {
            Some(s) => s,
            None => {
                let src = def
                    .shape
                    .as_ref()
                    .map(|s| s.get_ref().as_str())
                    .unwrap_or("rect");
                match tpl.env.render_str(src, &ctx) {
                    Ok(text) => match Shape::parse(&text) {
                        Some(s) => s,
                        None => {
                            diags.push(
                                comp_diag(
                                    game,
                                    comp,
                                    Diagnostic::error(format!(
                                        "{label}: shape expression gives `{text}`, not a shape"
                                    )),
                                )
                                .at(&game.file, def.shape.as_ref().map(|s| s.span()))
                                .hint(format!(
                                    "the expression must give one of: {}",
                                    Shape::NAMES.join(", ")
                                )),
                            );
                            continue;
                        }
                    },
                    Err(e) => {
                        diags.push(
                            comp_diag(
                                game,
                                comp,
                                Diagnostic::error(format!(
                                    "{label}: shape expression failed: {}",
                                    e.detail().unwrap_or("error")
                                )),
                            )
                            .at(&game.file, def.shape.as_ref().map(|s| s.span())),
                        );
                        continue;
                    }
                }
            }
        };
        // Distinct copies per row (`repeat`), each with its own `copy` number.
        let repeat = match &def.repeat {
            None => None,
            Some(r) => {
                let v = number_or_expression(tpl, game, "repeat", r, &ctx);
                match v.map(|v| v.as_i64()) {
                    Ok(Some(n)) if (1..=MAX_QTY).contains(&n) => Some(n as u32),
                    Ok(n) => {
                        diags.push(comp_diag(game, comp, Diagnostic::error(format!("{label}: `repeat` gives {}, not a whole number from 1 to {MAX_QTY}", n.map(|n| n.to_string()).unwrap_or_else(|| "something else".into()))))
                            .at(&game.file, Some(r.span()))
                            .hint("repeat is the number of distinct copies of each face"));
                        continue;
                    }
                    Err(d) => {
                        diags.push(comp_diag(game, comp, d).with("row", label.clone()));
                        continue;
                    }
                }
            }
        };
        match repeat {
            None => out.push(FacePlan {
                row,
                item,
                qty,
                copy: None,
                label,
                shape,
            }),
            Some(n) => {
                total += (n as u64 - 1) * qty as u64;
                for k in 1..=n {
                    out.push(FacePlan {
                        row,
                        item: item.clone(),
                        qty,
                        copy: Some(k),
                        label: format!("{label} copy {k}"),
                        shape,
                    });
                }
            }
        }
        if total > MAX_PARTS {
            break;
        }
    }
    if total > MAX_PARTS {
        diags.push(
            comp_diag(
                game,
                comp,
                Diagnostic::error(format!(
                    "component `{}` would print {total} parts, over the limit of {MAX_PARTS}",
                    comp.id()
                )),
            )
            .at(&game.file, Some(comp.def.id.span()))
            .hint("check the quantities; split a huge set into several components"),
        );
        out.clear();
    }
    (out, diags)
}

/// A component field that is an integer or an expression string (`qty`, `repeat`),
/// evaluated for one face.
fn number_or_expression(
    tpl: &Templates,
    game: &Game,
    field: &str,
    v: &toml::Spanned<toml::Value>,
    ctx: &BTreeMap<String, Value>,
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

/// The `face` value templates see: trim size, bleed, shape, side and the SVG
/// root's size and viewBox (origin at the trim's top-left corner, in mm).
pub fn face_value(comp: &Component, shape: Shape, side: &str) -> Value {
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
    m.insert("shape", Value::from(format!("{shape:?}").to_lowercase()));
    m.insert("side", Value::from(side));
    m.insert(
        "kind",
        Value::from(format!("{:?}", comp.kind).to_lowercase()),
    );
    m.insert("component", Value::from(comp.id()));
    Value::from(m)
}

/// Renders the front (and back) SVG of every planned face.
pub fn render(
    game: &Game,
    tpl: &Templates,
    comp: &Component,
    plans: &[FacePlan],
) -> (Vec<Face>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut faces = Vec::new();
    let Some(front_ref) = &comp.def.front else {
        return render_art(game, comp, plans);
    };
    let front = match tpl.resolve(&game.id, front_ref.get_ref()) {
        Ok(n) => n,
        Err(why) => {
            diags.push(
                comp_diag(game, comp, Diagnostic::error(why))
                    .at(&game.file, Some(front_ref.span()))
                    .hint("create the template file or fix the name in `front`"),
            );
            return (faces, diags);
        }
    };
    let back = match &comp.def.back {
        None => None,
        Some(b) => match tpl.resolve(&game.id, b.get_ref()) {
            Ok(n) => Some(n),
            Err(why) => {
                diags.push(
                    comp_diag(game, comp, Diagnostic::error(why))
                        .at(&game.file, Some(b.span()))
                        .hint("create the template file or fix the name in `back`"),
                );
                return (faces, diags);
            }
        },
    };
    let base = base_context(game);
    // Faces render in parallel on all cores; results keep the plans' order.
    let results: Vec<(Option<Face>, Vec<Diagnostic>)> = plans
        .par_iter()
        .enumerate()
        .map(|(index, p)| {
            let mut diags = Vec::new();
            let mut ctx = base.clone();
            if let (Some(r), Some(t)) = (
                p.row,
                comp.def
                    .table
                    .as_ref()
                    .and_then(|t| game.tables.get(t.get_ref())),
            ) {
                ctx.insert("row".into(), t.rows[r].to_value());
            }
            if let Some(item) = &p.item {
                ctx.insert("item".into(), item.clone());
            }
            ctx.insert("index".into(), Value::from(index));
            ctx.insert("qty".into(), Value::from(p.qty));
            if let Some(c) = p.copy {
                ctx.insert("copy".into(), Value::from(c));
            }
            let mut one = |name: &str, side: &str| -> Option<String> {
                let mut c = ctx.clone();
                c.insert("face".into(), face_value(comp, p.shape, side));
                let t = tpl.env.get_template(name).ok()?;
                crate::template::take_warnings();
                let rendered = t.render(&c);
                for w in crate::template::take_warnings() {
                    let file = tpl
                        .files
                        .get(name)
                        .cloned()
                        .unwrap_or_else(|| format!("templates/{name}").into());
                    diags.push(
                        comp_diag(game, comp, Diagnostic::warning(w).at(&file, None))
                            .with("row", p.label.clone())
                            .with("template", format!("templates/{name}"))
                            .hint("shorten the text, widen its box, or lower the minimum size"),
                    );
                }
                match rendered {
                    Ok(s) => Some(s),
                    Err(e) => {
                        let tname = e.name().unwrap_or(name).to_string();
                        let file = tpl
                            .files
                            .get(&tname)
                            .cloned()
                            .unwrap_or_else(|| format!("templates/{tname}").into());
                        let source = tpl
                            .env
                            .get_template(&tname)
                            .map(|t| t.source().to_string())
                            .unwrap_or_default();
                        diags.push(
                            comp_diag(game, comp, template_error(&e, &file, &source))
                                .with("row", p.label.clone())
                                .with("template", format!("templates/{name}")),
                        );
                        None
                    }
                }
            };
            let f = one(&front, "front");
            let b = back.as_ref().map(|b| one(b, "back"));
            let face = match (f, b) {
                (Some(f), None) => Some(Face {
                    plan: p.clone(),
                    front: f,
                    back: None,
                }),
                (Some(f), Some(Some(b))) => Some(Face {
                    plan: p.clone(),
                    front: f,
                    back: Some(b),
                }),
                _ => None,
            };
            (face, diags)
        })
        .collect();
    for (face, d) in results {
        faces.extend(face);
        diags.extend(d);
    }
    // One bad template gives the same error for every row: report it once.
    diags.dedup_by(|a, b| a.message == b.message && a.file == b.file && a.span == b.span);
    (faces, diags)
}

/// Faces from finished art files (`art = "art/*.svg"`): SVG files as they are, PNG
/// and JPEG files stretched over the face and its bleed.
fn render_art(game: &Game, comp: &Component, plans: &[FacePlan]) -> (Vec<Face>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let read = |rel: &std::path::Path| -> Result<String, Diagnostic> {
        let bytes = std::fs::read(game.root.join(rel)).map_err(|e| {
            comp_diag(
                game,
                comp,
                Diagnostic::error(format!("cannot read art file {}: {e}", rel.display())),
            )
        })?;
        let (w, h) = (
            comp.size.width + 2.0 * comp.bleed,
            comp.size.height + 2.0 * comp.bleed,
        );
        let mime = if bytes.starts_with(b"\x89PNG") {
            "image/png"
        } else if bytes.starts_with(&[0xFF, 0xD8]) {
            "image/jpeg"
        } else {
            return String::from_utf8(bytes).map_err(|_| {
                comp_diag(
                    game,
                    comp,
                    Diagnostic::error(format!(
                        "art file {} is not SVG, PNG or JPEG",
                        rel.display()
                    )),
                )
                .hint("export the art as SVG (text) or PNG")
            });
        };
        Ok(format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}mm\" height=\"{h}mm\" viewBox=\"0 0 {w} {h}\"><image href=\"data:{mime};base64,{}\" width=\"{w}\" height=\"{h}\" preserveAspectRatio=\"none\"/></svg>",
            base64(&bytes),
            w = fmt_num(w),
            h = fmt_num(h)
        ))
    };
    let back = match &comp.art_back {
        None => None,
        Some(b) => match read(b) {
            Ok(t) => Some(t),
            Err(d) => return (Vec::new(), vec![d]),
        },
    };
    let results: Vec<Result<Face, Diagnostic>> = plans
        .par_iter()
        .map(|p| {
            let path = std::path::PathBuf::from(
                p.item.as_ref().and_then(|i| i.as_str()).unwrap_or_default(),
            );
            Ok(Face {
                plan: p.clone(),
                front: read(&path)?,
                back: back.clone(),
            })
        })
        .collect();
    let mut faces = Vec::new();
    for r in results {
        match r {
            Ok(f) => faces.push(f),
            Err(d) => diags.push(d),
        }
    }
    (faces, diags)
}

/// Standard base64, for embedding raster art in an SVG data URL.
fn base64(data: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for c in data.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        out.push(T[(n >> 18) as usize & 63] as char);
        out.push(T[(n >> 12) as usize & 63] as char);
        out.push(if c.len() > 1 {
            T[(n >> 6) as usize & 63] as char
        } else {
            '='
        });
        out.push(if c.len() > 2 {
            T[n as usize & 63] as char
        } else {
            '='
        });
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_matches_the_standard() {
        assert_eq!(super::base64(b"Man"), "TWFu");
        assert_eq!(super::base64(b"Ma"), "TWE=");
        assert_eq!(super::base64(b"M"), "TQ==");
    }
}
