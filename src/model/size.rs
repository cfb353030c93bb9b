//! Named part sizes (from PRINT.md), papers and shapes.

use std::collections::BTreeMap;

use crate::units::{parse_length, LengthError, MM_PER_IN};

/// A paper size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Paper {
    pub name: &'static str,
    pub width: f64,
    pub height: f64,
}

/// The paper sizes `--paper` accepts.
pub const PAPERS: &[Paper] = &[
    Paper {
        name: "letter",
        width: 215.9,
        height: 279.4,
    },
    Paper {
        name: "a4",
        width: 210.0,
        height: 297.0,
    },
];

impl Paper {
    /// Looks up a paper by name.
    pub fn named(name: &str) -> Option<Paper> {
        PAPERS.iter().copied().find(|p| p.name == name)
    }

    /// The same paper turned sideways.
    pub fn landscape(self) -> Paper {
        Paper {
            width: self.height,
            height: self.width,
            ..self
        }
    }
}

/// A face's finished (trim) size in millimetres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Size {
    pub width: f64,
    pub height: f64,
}

/// The largest part the tool accepts: 2 m a side (a big playmat is about 0.9 m).
pub const MAX_SIDE_MM: f64 = 2000.0;
/// The smallest side of a part the tool accepts: 2 mm (Inside Track's track
/// pieces are 3.5 mm wide; anything thinner cannot be cut by hand, and a sheet of
/// them would hold tens of thousands).
pub const MIN_SIDE_MM: f64 = 2.0;

/// Why a size is not a size.
#[derive(Debug, Clone, PartialEq)]
pub enum SizeError {
    /// A name that is not in [`NAMED`], with the closest one.
    UnknownName {
        name: String,
        suggestion: Option<&'static str>,
    },
    /// A key other than `width` and `height`.
    UnknownKey(String),
    /// `width` or `height` is missing.
    Missing(&'static str),
    /// `width` or `height` is not a length string.
    NotAString(&'static str),
    /// `width` or `height` does not parse.
    Length(LengthError),
    /// Neither a name nor a table.
    Shape,
    /// Smaller than [`MIN_SIDE_MM`].
    TooSmall { width: f64, height: f64 },
    /// Larger than [`MAX_SIDE_MM`].
    TooLarge { width: f64, height: f64 },
}

impl std::fmt::Display for SizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::units::fmt_num as n;
        match self {
            SizeError::UnknownName { name, suggestion } => match suggestion {
                Some(m) => write!(f, "unknown size `{name}`; did you mean `{m}`?"),
                None => {
                    let names: Vec<&str> = NAMED.iter().map(|n| n.0).collect();
                    write!(
                        f,
                        "unknown size `{name}`; known sizes: {}, half-paper",
                        names.join(", ")
                    )
                }
            },
            SizeError::UnknownKey(k) => {
                write!(f, "unknown key `{k}` in size: use `width` and `height`")
            }
            SizeError::Missing(k) => write!(f, "size needs a `{k}`"),
            SizeError::NotAString(k) => {
                write!(f, "size `{k}` must be a length string like \"63.5mm\"")
            }
            SizeError::Length(e) => write!(f, "{e}"),
            SizeError::Shape => write!(
                f,
                "size must be a name like \"poker\" or {{ width = \"..\", height = \"..\" }}"
            ),
            SizeError::TooSmall { width, height } => write!(
                f,
                "size {} x {} mm is under the {} mm minimum for a side of a part",
                n(*width),
                n(*height),
                n(MIN_SIDE_MM)
            ),
            SizeError::TooLarge { width, height } => write!(
                f,
                "size {} x {} mm is over the {} mm limit for one part",
                n(*width),
                n(*height),
                n(MAX_SIDE_MM)
            ),
        }
    }
}

impl std::error::Error for SizeError {}

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

    /// Reads a size from `"poker"` or `{ width = "..", height = ".." }`; `paper` is
    /// the build's paper, which `"half-paper"` is half of.
    pub fn from_toml(v: &toml::Value, paper: Paper) -> Result<Size, SizeError> {
        if v.as_str() == Some("half-paper") {
            return Ok(Size::half_of(paper.width, paper.height));
        }
        let size = match v {
            toml::Value::String(name) => {
                Size::named(name).ok_or_else(|| SizeError::UnknownName {
                    name: name.clone(),
                    suggestion: crate::diag::did_you_mean(name, NAMED.iter().map(|n| n.0)),
                })?
            }
            toml::Value::Table(t) => {
                if let Some(k) = t.keys().find(|k| *k != "width" && *k != "height") {
                    return Err(SizeError::UnknownKey(k.clone()));
                }
                let get = |k: &'static str| -> Result<f64, SizeError> {
                    match t.get(k) {
                        Some(toml::Value::String(s)) => parse_length(s).map_err(SizeError::Length),
                        Some(_) => Err(SizeError::NotAString(k)),
                        None => Err(SizeError::Missing(k)),
                    }
                };
                Size {
                    width: get("width")?,
                    height: get("height")?,
                }
            }
            _ => return Err(SizeError::Shape),
        };
        let (width, height) = (size.width, size.height);
        if width.min(height) < MIN_SIDE_MM {
            return Err(SizeError::TooSmall { width, height });
        }
        if width.max(height) > MAX_SIDE_MM {
            return Err(SizeError::TooLarge { width, height });
        }
        Ok(size)
    }

    /// The full size (trim + bleed) a print shop makes for a part of this size, if
    /// it makes one: matched by the size's name (`size_name`), else by dimensions.
    pub fn shop_full_size(
        self,
        size_name: Option<&str>,
        products: &BTreeMap<String, Size>,
    ) -> Option<Size> {
        if let Some(s) = size_name.and_then(|n| products.get(n)) {
            return Some(*s);
        }
        products.iter().find_map(|(name, full)| {
            let named = Size::named(name)?;
            ((named.width - self.width).abs() < 0.01 && (named.height - self.height).abs() < 0.01)
                .then_some(*full)
        })
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

    /// The shape's name as templates see it.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Rect => "rect",
            Shape::Rounded => "rounded",
            Shape::Round => "round",
            Shape::Triangle => "triangle",
        }
    }

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

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
