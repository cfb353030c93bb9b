//! Numbers written for people and for SVG: the `money` and `num` filters (a
//! game's currency style), `round_to`, and whole numbers given back as integers.

use minijinja::value::{Kwargs, Value};
use minijinja::{Error, ErrorKind, State};

use crate::units::fmt_num;

/// `d` as a template value: an integer when it is whole, else a float.
pub(super) fn number(d: f64) -> Value {
    if d.fract() == 0.0 && d.abs() < 1e15 {
        Value::from(d as i64)
    } else {
        Value::from(d)
    }
}

/// How `money` writes an amount: `[game] currency`, `currency_position`,
/// `thousands_separator` and `decimal_separator`, each overridable by an argument.
#[derive(Debug, Clone, PartialEq)]
struct MoneyStyle {
    symbol: String,
    after: bool,
    thousands: String,
    decimal: String,
}

impl MoneyStyle {
    /// The style the game sets (the `game` value of the render), else `$1,700.50`.
    fn of_game(state: &State) -> MoneyStyle {
        let game = state.lookup("game");
        let get = |key: &str| {
            game.as_ref()
                .and_then(|g| g.get_attr(key).ok())
                .and_then(|v| v.as_str().map(String::from))
        };
        MoneyStyle {
            symbol: get("currency").unwrap_or_else(|| "$".into()),
            after: get("currency_position").as_deref() == Some("after"),
            thousands: get("thousands_separator").unwrap_or_else(|| ",".into()),
            decimal: get("decimal_separator").unwrap_or_else(|| ".".into()),
        }
    }

    /// `n` in this style: whole amounts without decimals, others with two.
    fn format(&self, n: f64) -> String {
        let whole = (n - n.round()).abs() < 1e-9;
        let digits = if whole {
            format!("{:.0}", n.abs().round())
        } else {
            format!("{:.2}", n.abs())
        };
        let (int, frac) = digits.split_once('.').unwrap_or((&digits, ""));
        let mut out = String::new();
        if n < 0.0 && digits.chars().any(|c| c != '0' && c != '.') {
            out.push('-');
        }
        if !self.after {
            out.push_str(&self.symbol);
        }
        for (i, c) in int.chars().enumerate() {
            if i > 0 && (int.len() - i).is_multiple_of(3) {
                out.push_str(&self.thousands);
            }
            out.push(c);
        }
        if !frac.is_empty() {
            out.push_str(&self.decimal);
            out.push_str(frac);
        }
        if self.after {
            out.push_str(&self.symbol);
        }
        out
    }
}

/// `1700|money` -> `$1,700` (`£1,700`, `1.700 €`... as `[game]` sets it);
/// `1700|money("€", after=true, thousands=".", decimal=",")` overrides the game's
/// style. Amounts that are not whole get two decimals (`$2.50`).
pub(super) fn money(
    state: &State,
    v: Value,
    symbol: Option<String>,
    kwargs: Kwargs,
) -> Result<String, Error> {
    if v.is_undefined() {
        return Err(Error::from(ErrorKind::UndefinedError));
    }
    let n = f64::try_from(v.clone()).map_err(|_| {
        Error::new(
            ErrorKind::InvalidOperation,
            format!("money: `{v}` is not a number"),
        )
    })?;
    let mut style = MoneyStyle::of_game(state);
    if let Some(s) = symbol {
        style.symbol = s;
    }
    if let Some(a) = kwargs.get::<Option<bool>>("after")? {
        style.after = a;
    }
    if let Some(t) = kwargs.get::<Option<String>>("thousands")? {
        style.thousands = t;
    }
    if let Some(d) = kwargs.get::<Option<String>>("decimal")? {
        style.decimal = d;
    }
    kwargs.assert_all_used()?;
    Ok(style.format(n))
}

/// `94.9000015|num` -> `94.9`: a number for an SVG attribute.
pub(super) fn num(v: Value) -> Result<String, Error> {
    let n = f64::try_from(v.clone()).map_err(|_| {
        Error::new(
            ErrorKind::InvalidOperation,
            format!("num: `{v}` is not a number"),
        )
    })?;
    Ok(fmt_num(n))
}

/// `round_to(1649, 100)` -> 1600: rounds half away from zero to a multiple of `step`.
pub(super) fn round_to(x: Value, step: Value) -> Result<Value, Error> {
    let x = f64::try_from(x)?;
    let step = f64::try_from(step)?;
    if step <= 0.0 {
        return Err(Error::new(
            ErrorKind::InvalidOperation,
            "round_to(): step must be positive",
        ));
    }
    Ok(number((x / step).round() * step))
}

#[cfg(test)]
mod tests {
    use super::super::environment::test_env as env;

    #[test]
    fn money_and_num() {
        let e = env();
        assert_eq!(
            e.render_str(
                "{{ 1700|money }} {{ 250000|money }} {{ 100|money }} {{ -2.5|money }} {{ 1234567.891|money }}",
                ()
            )
            .unwrap(),
            "$1,700 $250,000 $100 -$2.50 $1,234,567.89"
        );
        let game = minijinja::context! { game => minijinja::context! {
            currency => " €", currency_position => "after", thousands_separator => ".", decimal_separator => ","
        } };
        assert_eq!(
            e.render_str("{{ 1700|money }} {{ 0.5|money }} {{ 1700|money('£', after=false, thousands=',') }}", game)
                .unwrap(),
            "1.700 € 0,50 € £1,700"
        );
        assert_eq!(
            e.render_str(
                "{{ 1700|money('€', after=true) }} {{ 5|money('', thousands='') }}",
                ()
            )
            .unwrap(),
            "1,700€ 5"
        );
        assert_eq!(
            e.render_str("{{ 94.9000015258789|num }}", ()).unwrap(),
            "94.9"
        );
    }
}
