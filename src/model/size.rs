//! Named part sizes (from PRINT.md) and shapes.

use crate::units::{parse_length, MM_PER_IN};

/// A face's finished (trim) size in millimetres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Size {
    pub width: f64,
    pub height: f64,
}

/// The largest part the tool accepts: 2 m a side (a big playmat is about 0.9 m).
pub const MAX_SIDE_MM: f64 = 2000.0;

/// Named sizes, width x height in millimetres, portrait.
pub const NAMED: &[(&str, f64, f64)] = &[
    ("poker", 63.5, 88.9),
    ("bridge", 57.15, 88.9),
    ("tarot", 69.85, 120.65),
    ("euro", 59.0, 92.0),
    ("mini-euro", 44.0, 68.0),
    ("mini-american", 41.0, 63.0),
    ("square", 70.0, 70.0),
    ("jumbo", 3.5 * MM_PER_IN, 5.5 * MM_PER_IN),
    ("chit-1/2in", 12.7, 12.7),
    ("chit-5/8in", 15.875, 15.875),
    ("chit-3/4in", 19.05, 19.05),
    ("chit-1in", 25.4, 25.4),
    ("tile-2in", 50.8, 50.8),
    ("coin-3/4in", 19.05, 19.05),
    ("letter", 215.9, 279.4),
    ("half-letter", 139.7, 215.9),
    ("a4", 210.0, 297.0),
    ("a5", 148.0, 210.0),
    ("pad-small", 3.5 * MM_PER_IN, 5.5 * MM_PER_IN),
    ("pad-medium", 4.5 * MM_PER_IN, 8.0 * MM_PER_IN),
    ("pad-large", 8.0 * MM_PER_IN, 10.0 * MM_PER_IN),
];

impl Size {
    /// Looks up a named size.
    pub fn named(name: &str) -> Option<Size> {
        NAMED
            .iter()
            .find(|(n, _, _)| *n == name)
            .map(|&(_, w, h)| Size {
                width: w,
                height: h,
            })
    }

    /// Half of a paper size, turned portrait: A5 for A4, half-letter for Letter.
    /// The size name `half-paper` means this for the `--paper` of the build (a score
    /// pad printed 2-up on whatever paper the designer has).
    pub fn half_of(paper_w: f64, paper_h: f64) -> Size {
        if (paper_w - 210.0).abs() < 0.5 {
            Size::named("a5").unwrap_or(Size {
                width: 148.0,
                height: 210.0,
            })
        } else {
            Size {
                width: paper_h.max(paper_w) / 2.0,
                height: paper_w.min(paper_h),
            }
        }
    }

    /// Reads a size from `"poker"` or `{ width = "..", height = ".." }`.
    /// `"half-paper"` reads as half-letter until the build's paper is known.
    pub fn from_toml(v: &toml::Value) -> Result<Size, String> {
        if v.as_str() == Some("half-paper") {
            return Ok(Size::half_of(215.9, 279.4));
        }
        let size = match v {
            toml::Value::String(name) => Size::named(name).ok_or_else(|| {
                let names: Vec<&str> = NAMED.iter().map(|n| n.0).collect();
                match crate::diag::did_you_mean(name, names.iter().copied()) {
                    Some(m) => format!("unknown size `{name}`; did you mean `{m}`?"),
                    None => format!("unknown size `{name}`; known sizes: {}", names.join(", ")),
                }
            })?,
            toml::Value::Table(t) => {
                for k in t.keys() {
                    if k != "width" && k != "height" {
                        return Err(format!(
                            "unknown key `{k}` in size: use `width` and `height`"
                        ));
                    }
                }
                let get = |k: &str| -> Result<f64, String> {
                    match t.get(k) {
                        Some(toml::Value::String(s)) => parse_length(s),
                        Some(_) => Err(format!(
                            "size `{k}` must be a length string like \"63.5mm\""
                        )),
                        None => Err(format!("size needs a `{k}`")),
                    }
                };
                Size {
                    width: get("width")?,
                    height: get("height")?,
                }
            }
            _ => {
                return Err(
                    "size must be a name like \"poker\" or { width = \"..\", height = \"..\" }"
                        .into(),
                )
            }
        };
        if size.width <= 0.0 || size.height <= 0.0 {
            return Err(format!(
                "size must be larger than zero (got {} x {} mm)",
                size.width, size.height
            ));
        }
        if size.width > MAX_SIDE_MM || size.height > MAX_SIDE_MM {
            return Err(format!(
                "size {} x {} mm is over the {} mm limit for one part",
                size.width, size.height, MAX_SIDE_MM
            ));
        }
        Ok(size)
    }
}

/// The outline a part is cut to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    Rect,
    Rounded,
    Round,
    Triangle,
}

impl Shape {
    /// All shape names.
    pub const NAMES: [&'static str; 4] = ["rect", "rounded", "round", "triangle"];

    /// Parses a shape name.
    pub fn parse(s: &str) -> Option<Shape> {
        Some(match s.trim() {
            "rect" | "square" => Shape::Rect,
            "rounded" => Shape::Rounded,
            "round" | "circle" => Shape::Round,
            "triangle" => Shape::Triangle,
            _ => return None,
        })
    }
}
