//! Lengths: parsing `"63.5mm"`, `"2.5in"`, `"3/4in"`, `"72pt"` and converting
//! between millimetres (the internal unit) and PDF points; the resolutions images may have.

/// Millimetres per inch.
pub const MM_PER_IN: f64 = 25.4;
/// PDF points per millimetre.
pub const PT_PER_MM: f64 = 72.0 / MM_PER_IN;

/// The resolutions of the image files cardstock writes, in dpi (`build --dpi`, a
/// profile's `dpi`): from a thumbnail to a fine-art print. Why two limits:
/// `options::Pictures` (a build option, which this module does not depend on).
pub const FILE_DPI: std::ops::RangeInclusive<f64> = 10.0..=2400.0;

/// The resolutions of the live preview's pictures, in dpi (`serve --dpi`): a
/// screen shows no more than 600, and each save draws every changed face again.
pub const PREVIEW_DPI: std::ops::RangeInclusive<f64> = 10.0..=600.0;

/// Converts millimetres to PDF points.
pub fn mm_to_pt(mm: f64) -> f64 {
    mm * PT_PER_MM
}

/// Converts millimetres to pixels at `dpi`.
pub fn mm_to_px(mm: f64, dpi: f64) -> f64 {
    mm / MM_PER_IN * dpi
}

/// Why a text is not a length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LengthError {
    /// A bare number: the unit must be written.
    NoUnit(String),
    /// Not a number followed by a unit.
    NotALength(String),
    /// A fraction with 0 below the line.
    DividesByZero(String),
    /// A unit cardstock does not know.
    UnknownUnit(String),
    /// Infinite or NaN.
    NotFinite(String),
}

impl std::fmt::Display for LengthError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LengthError::NoUnit(t) => write!(
                f,
                "`{t}` has no unit: write it as e.g. `63.5mm`, `2.5in` or `72pt`"
            ),
            LengthError::NotALength(t) => write!(f, "`{t}` is not a length"),
            LengthError::DividesByZero(t) => write!(f, "`{t}` divides by zero"),
            LengthError::UnknownUnit(u) => {
                write!(f, "`{u}` is not a unit: use mm, cm, in or pt")
            }
            LengthError::NotFinite(t) => write!(f, "`{t}` is not a finite length"),
        }
    }
}

impl std::error::Error for LengthError {}

/// Parses a length such as `63.5mm`, `2.5in`, `3/4in`, `1cm` or `72pt` into millimetres.
///
/// A bare number is an error: the unit must always be written, because a print size
/// that silently means the wrong unit costs a print run.
pub fn parse_length(text: &str) -> Result<f64, LengthError> {
    let t = text.trim();
    let split = t
        .find(|c: char| c.is_ascii_alphabetic())
        .ok_or_else(|| LengthError::NoUnit(t.to_string()))?;
    let (num, unit) = t.split_at(split);
    let num = num.trim();
    let number = |s: &str| -> Result<f64, LengthError> {
        s.trim()
            .parse()
            .map_err(|_| LengthError::NotALength(t.to_string()))
    };
    let value = if let Some((a, b)) = num.split_once('/') {
        let (a, b) = (number(a)?, number(b)?);
        if b == 0.0 {
            return Err(LengthError::DividesByZero(t.to_string()));
        }
        a / b
    } else {
        number(num)?
    };
    let factor = match unit.trim() {
        "mm" => 1.0,
        "cm" => 10.0,
        "in" => MM_PER_IN,
        "pt" => 1.0 / PT_PER_MM,
        other => return Err(LengthError::UnknownUnit(other.to_string())),
    };
    let mm = value * factor;
    if !mm.is_finite() {
        return Err(LengthError::NotFinite(t.to_string()));
    }
    Ok(mm)
}

/// Formats a number of millimetres for SVG output: at most 3 decimals, no trailing zeros.
///
/// Templates print tens of thousands of numbers a build, so the thousandths are
/// written as an integer: for under 10^12 mm, `{:.3}` of the rounded value gives
/// the same digits (its error is far below half a thousandth), without the exact
/// float formatting `{:.3}` needs.
pub fn fmt_num(v: f64) -> String {
    use std::fmt::Write;
    let thousandths = (v * 1000.0).round();
    if thousandths.abs() < 1e15 {
        let t = thousandths as i64;
        let (int, frac) = (t.unsigned_abs() / 1000, t.unsigned_abs() % 1000);
        let mut s = String::with_capacity(16);
        if t < 0 {
            s.push('-');
        }
        let _ = write!(s, "{int}");
        if frac != 0 {
            let _ = write!(s, ".{frac:03}");
            while s.ends_with('0') {
                s.pop();
            }
        }
        return s;
    }
    fmt_num_exact(v)
}

/// [`fmt_num`] by `{:.3}`: for numbers too large to count in thousandths.
fn fmt_num_exact(v: f64) -> String {
    let r = (v * 1000.0).round() / 1000.0;
    let r = if r == 0.0 { 0.0 } else { r };
    let mut s = format!("{r:.3}");
    while s.ends_with('0') {
        s.pop();
    }
    if s.ends_with('.') {
        s.pop();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_as_formatting_them_to_three_decimals_does() {
        let mut values = vec![
            0.0,
            -0.0,
            0.0004,
            -0.0004,
            0.0005,
            -0.0005,
            0.0015,
            1.0005,
            2.675,
            -2.675,
            0.1,
            0.2,
            0.3,
            63.5,
            88.9,
            215.9,
            139.7,
            1e9 + 0.0625,
            -1e11 - 0.1235,
            123456.789,
            f64::NAN,
            f64::INFINITY,
            1e13,
            -1e300,
        ];
        // A deterministic spread of values around the sizes templates print.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let unit = (x >> 11) as f64 / (1u64 << 53) as f64;
            let scale = [0.01, 1.0, 10.0, 300.0, 1e6][(x % 5) as usize];
            values.push((unit - 0.5) * 2.0 * scale);
        }
        for v in values {
            assert_eq!(fmt_num(v), fmt_num_exact(v), "{v:?}");
        }
    }

    #[test]
    fn parses_units() {
        assert_eq!(parse_length("63.5mm").unwrap(), 63.5);
        assert!((parse_length("2.5in").unwrap() - 63.5).abs() < 1e-9);
        assert!((parse_length("3/4in").unwrap() - 19.05).abs() < 1e-9);
        assert!((parse_length("72pt").unwrap() - 25.4).abs() < 1e-9);
        assert_eq!(parse_length("1cm").unwrap(), 10.0);
        assert!(parse_length("12")
            .unwrap_err()
            .to_string()
            .contains("no unit"));
        assert_eq!(
            parse_length("12furlong"),
            Err(LengthError::UnknownUnit("furlong".into()))
        );
    }

    #[test]
    fn formats_numbers() {
        assert_eq!(fmt_num(94.9000015258789), "94.9");
        assert_eq!(fmt_num(3.0), "3");
        assert_eq!(fmt_num(-0.0001), "0");
    }
}
