//! Text set with the game's fonts and icons, for templates: `text_width`, `wrap`,
//! `fit` and `shrink`, and the lines and runs they give back.

use std::collections::BTreeMap;
use std::sync::Arc;

use minijinja::value::{Kwargs, Value};
use minijinja::{Error, ErrorKind, State};

use super::{warn, Typesetting};
use crate::text::icons::IconSource;
use crate::text::layout::Setter;
use crate::text::{FontSpec, Line, RunKind, TextError};
use crate::units::fmt_num;

/// The font a text function's `font=`, `weight=` and `style=` arguments name.
fn font_spec(kwargs: &Kwargs) -> Result<FontSpec, Error> {
    let mut f = FontSpec::default();
    if let Some(family) = kwargs.get::<Option<String>>("font")? {
        f.family = family;
    }
    if let Some(w) = kwargs.get::<Option<Value>>("weight")? {
        f.weight = match w.as_str() {
            Some("bold") => 700,
            Some("normal") => 400,
            Some("black") => 900,
            _ => u16::try_from(w.clone()).map_err(|_| {
                Error::new(
                    ErrorKind::InvalidOperation,
                    format!("weight `{w}` is not a number or bold/normal/black"),
                )
            })?,
        };
    }
    if let Some(style) = kwargs.get::<Option<String>>("style")? {
        f.italic = style == "italic";
    }
    Ok(f)
}

/// A text engine error as a template error (running out of fuel stays that).
fn text_err(e: TextError) -> Error {
    match e {
        TextError::OutOfFuel => Error::new(ErrorKind::OutOfFuel, e.to_string()),
        // The error itself goes along, for a caller that can point at its cause
        // (an unknown icon at the data cell that names it).
        e => Error::new(ErrorKind::InvalidOperation, e.to_string()).with_source(e),
    }
}

/// Sets text for one call of a text function: the game's fonts and icons, the
/// font from the call's arguments, and the render's fuel.
fn with_setter<T>(
    text: &Typesetting,
    state: &State,
    font: &FontSpec,
    f: impl FnOnce(&Setter) -> Result<T, TextError>,
) -> Result<T, Error> {
    let fuel = |n: u64| state.consume_fuel(n).is_ok();
    let icons: &dyn IconSource = &text.icons;
    let setter = Setter::new(&text.fonts, font, icons, &fuel).map_err(text_err)?;
    f(&setter).map_err(text_err)
}

/// A line of set text as templates see it: printed, its text without markup;
/// `line.runs` the placed runs (see [`run_value`]), `line.width`, `line.size`,
/// `line.plain` (one run of text in the base style).
#[derive(Debug)]
struct LineValue(Line, FontSpec);

impl minijinja::value::Object for LineValue {
    fn repr(self: &Arc<Self>) -> minijinja::value::ObjectRepr {
        minijinja::value::ObjectRepr::Plain
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        let l = &self.0;
        match key.as_str()? {
            "text" => Some(Value::from(l.text())),
            "width" => Some(Value::from(round3(l.width))),
            "size" => Some(Value::from(l.size)),
            "plain" => Some(Value::from(l.is_plain())),
            "runs" => Some(Value::from(
                l.runs
                    .iter()
                    .map(|r| run_value(l, &self.1, r))
                    .collect::<Vec<_>>(),
            )),
            _ => None,
        }
    }

    fn is_true(self: &Arc<Self>) -> bool {
        !self.0.runs.is_empty()
    }

    fn render(self: &Arc<Self>, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.text())
    }
}

/// `x` to three decimals (a thousandth of a mm).
fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// One run of a line: `{text, weight, style, bold, italic, icon, x, width}`, where
/// `x` is from the start of the line (mm) and `weight` / `style` are the
/// `font-weight` / `font-style` to draw it with (the call's font with the run's
/// markup); an icon run (`icon` = its name, else none) also has `href` (a `data:`
/// URI), `height` and `dy` (from the baseline down to its top).
fn run_value(line: &Line, font: &FontSpec, run: &crate::text::Run) -> Value {
    let mut m: BTreeMap<&str, Value> = BTreeMap::new();
    m.insert("x", Value::from(round3(run.x)));
    m.insert("width", Value::from(round3(run.width)));
    match &run.kind {
        RunKind::Text { text, bold, italic } => {
            let f = font.styled(*bold, *italic);
            m.insert("text", Value::from(text.clone()));
            m.insert("weight", Value::from(f.weight));
            m.insert(
                "style",
                Value::from(if f.italic { "italic" } else { "normal" }),
            );
            m.insert("bold", Value::from(*bold));
            m.insert("italic", Value::from(*italic));
            m.insert("icon", Value::from(()));
        }
        RunKind::Icon(icon) => {
            let (height, dy) = line.icon_box();
            m.insert("text", Value::from(""));
            m.insert("icon", Value::from(icon.name.clone()));
            m.insert("view_box", Value::from(icon.view_box.clone()));
            m.insert("markup", Value::from_safe_string(icon.markup.clone()));
            m.insert("height", Value::from(round3(height)));
            m.insert("dy", Value::from(round3(dy)));
        }
    }
    Value::from(m)
}

/// Set lines as the list of [`LineValue`]s a template reads.
fn lines_value(lines: Vec<Line>, font: &FontSpec) -> Value {
    Value::from(
        lines
            .into_iter()
            .map(|l| Value::from_object(LineValue(l, font.clone())))
            .collect::<Vec<_>>(),
    )
}

/// `text_width(text, size, font=, weight=, style=)`: width in mm at `size` mm of
/// the widest line (markup and icons included).
pub(super) fn text_width(
    text: &Typesetting,
    state: &State,
    s: &str,
    size: f64,
    kwargs: Kwargs,
) -> Result<Value, Error> {
    let f = font_spec(&kwargs)?;
    kwargs.assert_all_used()?;
    let w = with_setter(text, state, &f, |set| set.widest(s, size))?;
    Ok(Value::from(w))
}

/// `wrap(text, width, size, font=, weight=, style=)`: the lines that fit `width`
/// mm (`none`: only the text's own line breaks).
pub(super) fn wrap(
    text: &Typesetting,
    state: &State,
    s: &str,
    width: Value,
    size: f64,
    kwargs: Kwargs,
) -> Result<Value, Error> {
    let f = font_spec(&kwargs)?;
    kwargs.assert_all_used()?;
    let width = if width.is_none() {
        None
    } else {
        Some(f64::try_from(width.clone()).map_err(|_| {
            Error::new(
                ErrorKind::InvalidOperation,
                format!("wrap(): the width `{width}` is not a number (or none)"),
            )
        })?)
    };
    let lines = with_setter(text, state, &f, |set| set.wrap(s, width, size))?;
    Ok(lines_value(lines, &f))
}

/// `fit(text, width, height, max, min, leading=1.2, font=, weight=, style=)`:
/// `{size, lines, line_height, rich}` for the largest size that fits the box; an
/// error when the text does not fit even at `min`. `rich` is true when a line is
/// more than one run of plain text (bold, italic or an icon).
pub(super) fn fit(
    text: &Typesetting,
    state: &State,
    s: &str,
    args: &[f64],
    kwargs: Kwargs,
) -> Result<Value, Error> {
    let f = font_spec(&kwargs)?;
    let (w, h, max) = match args {
        [w, h, max, ..] => (*w, *h, *max),
        _ => {
            return Err(Error::new(
                ErrorKind::MissingArgument,
                "fit(text, width, height, max, min) needs the box and the sizes",
            ))
        }
    };
    let min = match (args.get(3).copied(), kwargs.get::<Option<f64>>("min")?) {
        (Some(m), _) | (None, Some(m)) => m,
        (None, None) => max * 0.6,
    };
    let leading = kwargs.get::<Option<f64>>("leading")?.unwrap_or(1.2);
    kwargs.assert_all_used()?;
    let r = with_setter(text, state, &f, |set| {
        crate::text::fit(set, s, (w, h), (max, min), leading)
    })?;
    let mut m = BTreeMap::new();
    m.insert("size", Value::from(r.size));
    m.insert("rich", Value::from(!r.lines.iter().all(Line::is_plain)));
    m.insert("lines", lines_value(r.lines, &f));
    m.insert("line_height", Value::from(round3(r.line_height)));
    Ok(Value::from(m))
}

/// `shrink(text, width, size, min=size*0.7, font=, weight=, style=)`: the size at
/// which `text` fits one line of `width` mm; warns (and returns `min`) when even
/// `min` is too large.
pub(super) fn shrink(
    text: &Typesetting,
    state: &State,
    s: &str,
    w: f64,
    size: f64,
    kwargs: Kwargs,
) -> Result<Value, Error> {
    let f = font_spec(&kwargs)?;
    let min = kwargs.get::<Option<f64>>("min")?.unwrap_or(size * 0.7);
    kwargs.assert_all_used()?;
    match with_setter(text, state, &f, |set| {
        crate::text::shrink(set, s, w, size, min)
    })? {
        Ok(size) => Ok(Value::from(size)),
        Err((measured, min)) => {
            warn(
                state,
                format!(
                "text \"{s}\" overflows its box: {} mm wide at the minimum size {} mm, the box allows {} mm",
                fmt_num(measured),
                fmt_num(min),
                fmt_num(w)
            ),
            );
            Ok(Value::from(min))
        }
    }
}
