//! Maths for templates and expressions: `sin`, `cos`, `atan2` (radians, with the
//! constant `pi`), `sqrt`, `round`, `min` and `max`, for placing symbols on a
//! circle or a hex grid. Each call costs one fuel (`min` and `max` of a list one a
//! number), and a result that is not a number (`sqrt(-1)`) is an error naming the
//! function and the value, never a NaN written into an SVG attribute.

use minijinja::value::{Rest, Value, ValueKind};
use minijinja::{Environment, Error, ErrorKind, State};

/// The functions this module adds, in the order `register` adds them.
pub const FUNCTIONS: &[&str] = &["sin", "cos", "atan2", "sqrt", "round", "min", "max"];

/// Adds the functions and the constant `pi` to `env`.
pub fn register(env: &mut Environment<'static>) {
    env.add_global("pi", Value::from(std::f64::consts::PI));
    env.add_function("sin", |state: &State, x: Value| {
        unary(state, "sin", x, f64::sin)
    });
    env.add_function("cos", |state: &State, x: Value| {
        unary(state, "cos", x, f64::cos)
    });
    env.add_function("atan2", atan2);
    env.add_function("sqrt", sqrt);
    env.add_function("round", round);
    env.add_function("min", |state: &State, args: Rest<Value>| {
        extreme(state, "min", args.0, std::cmp::Ordering::Less)
    });
    env.add_function("max", |state: &State, args: Rest<Value>| {
        extreme(state, "max", args.0, std::cmp::Ordering::Greater)
    });
}

fn fail(function: &str, why: String) -> Error {
    Error::new(ErrorKind::InvalidOperation, format!("{function}(): {why}"))
}

/// `v` as a number, or an error naming `function` and the value.
fn number(function: &str, v: &Value) -> Result<f64, Error> {
    if v.is_undefined() {
        return Err(Error::from(ErrorKind::UndefinedError));
    }
    let n = match v.kind() {
        ValueKind::Number => f64::try_from(v.clone()).ok(),
        _ => None,
    };
    n.ok_or_else(|| fail(function, format!("`{v}` is not a number")))
}

/// A finite result as a template value (whole numbers stay floats: `sin` of
/// anything is a measure, not a count).
fn finite(function: &str, x: f64) -> Result<Value, Error> {
    if x.is_finite() {
        Ok(Value::from(x))
    } else {
        Err(fail(function, format!("the result is {x}, not a number")))
    }
}

fn unary(state: &State, function: &str, x: Value, f: fn(f64) -> f64) -> Result<Value, Error> {
    state.consume_fuel(1)?;
    finite(function, f(number(function, &x)?))
}

/// `atan2(y, x)`: the angle in radians of the point (`x`, `y`) from the x axis,
/// between -pi and pi.
fn atan2(state: &State, y: Value, x: Value) -> Result<Value, Error> {
    state.consume_fuel(1)?;
    let (y, x) = (number("atan2", &y)?, number("atan2", &x)?);
    finite("atan2", y.atan2(x))
}

/// `sqrt(x)`: the square root of a number that is not negative.
fn sqrt(state: &State, x: Value) -> Result<Value, Error> {
    state.consume_fuel(1)?;
    let n = number("sqrt", &x)?;
    if n < 0.0 {
        return Err(fail(
            "sqrt",
            format!("{x} is negative and has no square root"),
        ));
    }
    finite("sqrt", n.sqrt())
}

/// Most decimals `round` keeps.
const MAX_DIGITS: i64 = 12;

/// `round(x, digits=0)`: `x` rounded half away from zero, to a whole number (an
/// integer) or to `digits` decimals.
fn round(state: &State, x: Value, digits: Option<Value>) -> Result<Value, Error> {
    state.consume_fuel(1)?;
    let n = number("round", &x)?;
    let digits = match digits {
        None => 0,
        Some(d) => match i64::try_from(d.clone()) {
            Ok(d) if (0..=MAX_DIGITS).contains(&d) => d,
            _ => {
                return Err(fail(
                    "round",
                    format!("digits must be a whole number from 0 to {MAX_DIGITS}, not `{d}`"),
                ))
            }
        },
    };
    if digits == 0 {
        let r = n.round();
        if r.abs() < 1e15 {
            return Ok(Value::from(r as i64));
        }
        return finite("round", r);
    }
    let scale = 10f64.powi(digits as i32);
    finite("round", (n * scale).round() / scale)
}

/// `min(a, b, ...)` / `max(a, b, ...)`, or of one list: the least or greatest
/// number, as it was given (an integer stays an integer).
fn extreme(
    state: &State,
    function: &str,
    args: Vec<Value>,
    want: std::cmp::Ordering,
) -> Result<Value, Error> {
    let values: Vec<Value> = match args.as_slice() {
        [list] if list.kind() == ValueKind::Seq => {
            state.consume_fuel(list.len().unwrap_or(0) as u64)?;
            list.try_iter()?.collect()
        }
        _ => {
            state.consume_fuel(args.len() as u64)?;
            args
        }
    };
    let mut best: Option<(f64, Value)> = None;
    for v in values {
        let n = number(function, &v)?;
        if best
            .as_ref()
            .is_none_or(|(b, _)| n.partial_cmp(b) == Some(want))
        {
            best = Some((n, v));
        }
    }
    best.map(|(_, v)| v).ok_or_else(|| {
        fail(
            function,
            "needs at least one number (several, or one list)".into(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env() -> Environment<'static> {
        let mut e = Environment::new();
        e.set_fuel(Some(1000));
        register(&mut e);
        e
    }

    fn r(t: &str) -> String {
        env().render_str(t, ()).unwrap()
    }

    fn err(t: &str) -> String {
        env().render_str(t, ()).unwrap_err().to_string()
    }

    #[test]
    fn trigonometry_is_in_radians() {
        assert_eq!(r("{{ (cos(pi) * 1000)|round|int }}"), "-1000");
        assert_eq!(r("{{ round(sin(pi / 2), 6) }}"), "1.0");
        assert_eq!(r("{{ round(atan2(1, 1) * 4, 9) }}"), "3.141592654");
        assert_eq!(r("{{ round(atan2(-1, 0) / pi, 3) }}"), "-0.5");
        assert_eq!(r("{{ sqrt(16) }} {{ sqrt(2)|round(3) }}"), "4.0 1.414");
    }

    #[test]
    fn round_goes_half_away_from_zero() {
        assert_eq!(
            r("{{ round(2.5) }} {{ round(-2.5) }} {{ round(7) }}"),
            "3 -3 7"
        );
        assert_eq!(r("{{ round(1.2345, 2) }}"), "1.23");
        assert_eq!(r("{{ round(-0.125, 2) }}"), "-0.13");
    }

    #[test]
    fn min_and_max_take_numbers_or_a_list() {
        assert_eq!(r("{{ min(3, 1.5, 2) }} {{ max(3, 1.5, 2) }}"), "1.5 3");
        assert_eq!(r("{{ min([4, -2, 9]) }} {{ max([4]) }}"), "-2 4");
        assert_eq!(r("{{ max(2, 2.0) }}"), "2", "the first of equals");
    }

    #[test]
    fn bad_values_are_errors_naming_the_function() {
        assert!(
            err("{{ sqrt(-4) }}").contains("sqrt(): -4 is negative and has no square root"),
            "{}",
            err("{{ sqrt(-4) }}")
        );
        assert!(err("{{ sin('north') }}").contains("sin(): `north` is not a number"));
        assert!(err("{{ min([]) }}").contains("min(): needs at least one number"));
        assert!(err("{{ max(1, 'a') }}").contains("max(): `a` is not a number"));
        assert!(err("{{ round(1.5, 40) }}").contains("digits must be a whole number from 0"));
        assert!(err("{{ cos(1e308 * 10) }}").contains("cos(): the result is NaN"));
    }

    #[test]
    fn calls_cost_fuel() {
        let mut e = Environment::new();
        e.set_fuel(Some(200));
        register(&mut e);
        let long = format!("{{{{ max([{}]) }}}}", vec!["1"; 500].join(", "));
        let e2 = e.render_str(&long, ()).unwrap_err();
        assert_eq!(e2.kind(), ErrorKind::OutOfFuel, "{e2}");
    }
}
