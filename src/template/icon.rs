//! `icon(name, cx, cy, size, fill=, rotate=)`: an icon of rich text
//! (`templates/<game>/icons/<name>.svg`, else the shared ones) drawn anywhere on a
//! face, at any size, turned, and in one colour from the data. It is written into
//! the face as a nested `<svg>` (vector art in the PDF, checked by preflight like
//! anything the template draws).

use std::str::FromStr;

use minijinja::value::{Kwargs, Value};
use minijinja::{Error, ErrorKind, State};

use super::Typesetting;
use crate::text::icons::IconSource;
use crate::text::TextError;
use crate::units::fmt_num;

/// Largest icon side, in mm (a board is at most 2 m a side).
const MAX_SIZE: f64 = 2000.0;

fn fail(why: String) -> Error {
    Error::new(ErrorKind::InvalidOperation, format!("icon(): {why}"))
}

/// Escapes a value for an XML attribute.
fn attr(v: &str) -> String {
    v.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('"', "&quot;")
}

/// The icon `name` as SVG markup: fitted into a `size` x `size` mm square centred
/// on (`cx`, `cy`), keeping its proportions; with `fill`, every colour it paints
/// is that colour; with `rotate`, turned that many degrees clockwise about its
/// centre.
pub fn icon(
    text: &Typesetting,
    state: &State,
    name: &str,
    place: &[f64],
    kwargs: Kwargs,
) -> Result<Value, Error> {
    let &[cx, cy, size] = place else {
        return Err(Error::new(
            ErrorKind::MissingArgument,
            "icon(name, cx, cy, size) needs the icon's centre and size (mm)",
        ));
    };
    let fill: Option<String> = kwargs.get("fill")?;
    let rotate: Option<f64> = kwargs.get("rotate")?;
    kwargs.assert_all_used()?;
    check_place(cx, cy, size, rotate, fill.as_deref())?;
    let icon = text.icons.icon(name).map_err(|e| match e {
        TextError::UnknownIcon { looked, .. } => fail(format!(
            "there is no icon `{name}` (looked for {})",
            looked
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(" and ")
        )),
        e => fail(e.to_string()),
    })?;
    let markup = if fill.is_some() {
        &icon.one_colour
    } else {
        &icon.markup
    };
    // Copying the drawing into the face is the work.
    state.consume_fuel(markup.len() as u64 / 64 + 1)?;
    let (w, h) = if icon.aspect >= 1.0 {
        (size, size / icon.aspect)
    } else {
        (size * icon.aspect, size)
    };
    let colour = match &fill {
        Some(f) => format!(" color=\"{}\" fill=\"currentColor\"", attr(f)),
        None => String::new(),
    };
    let svg = format!(
        "<svg class=\"icon\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"{}\"{colour} xmlns:xlink=\"http://www.w3.org/1999/xlink\">{markup}</svg>",
        fmt_num(cx - w / 2.0),
        fmt_num(cy - h / 2.0),
        fmt_num(w),
        fmt_num(h),
        attr(&icon.view_box),
    );
    let out = match rotate {
        Some(a) if a != 0.0 => format!(
            "<g transform=\"rotate({} {} {})\">{svg}</g>",
            fmt_num(a),
            fmt_num(cx),
            fmt_num(cy)
        ),
        _ => svg,
    };
    Ok(Value::from_safe_string(out))
}

/// The centre, turn, size and fill of an `icon()` call are numbers in range and a
/// colour.
fn check_place(
    cx: f64,
    cy: f64,
    size: f64,
    rotate: Option<f64>,
    fill: Option<&str>,
) -> Result<(), Error> {
    if !(cx.is_finite() && cy.is_finite() && rotate.is_none_or(f64::is_finite)) {
        return Err(fail(format!(
            "the centre ({cx}, {cy}) and the turn must be numbers"
        )));
    }
    if !(size > 0.0 && size <= MAX_SIZE) {
        return Err(fail(format!(
            "the size must be more than 0 and at most {} mm, not {}",
            fmt_num(MAX_SIZE),
            fmt_num(size)
        )));
    }
    if let Some(f) = fill {
        if svgtypes::Color::from_str(f).is_err() {
            return Err(fail(format!(
                "fill `{f}` is not a colour (write #1d3557, #fff, rgb(29, 53, 87) or a name such as navy)"
            )));
        }
    }
    Ok(())
}
