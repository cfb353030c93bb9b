//! What a designer asks of a sheet layout (the layout module does the laying out): parts per sheet (`grid = "3x3"`), which
//! way they lie (`orientation`) and the space between them (`gutter`). Set for a
//! component (`layout = { ... }` in its `[[component]]`) or for every part of a
//! kind in a print profile (`[layout]`, `[layout.card]`); a component's own keys
//! win, then the profile's kind's, then the profile's own, then the layout's
//! defaults.

/// Which way parts lie on the sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Orientation {
    /// As drawn (never turned).
    Upright,
    /// Turned a quarter (backs the other way, for a long-edge flip).
    Sideways,
    /// Whichever holds more parts (upright on a tie).
    Auto,
}

impl Orientation {
    /// The words `orientation` takes.
    pub const NAMES: [&'static str; 3] = ["upright", "sideways", "auto"];

    fn parse(s: &str) -> Option<Orientation> {
        Some(match s {
            "upright" => Orientation::Upright,
            "sideways" => Orientation::Sideways,
            "auto" => Orientation::Auto,
            _ => return None,
        })
    }

    /// Whether parts may lie upright, and whether sideways.
    pub fn allows(self) -> (bool, bool) {
        match self {
            Orientation::Upright => (true, false),
            Orientation::Sideways => (false, true),
            Orientation::Auto => (true, true),
        }
    }
}

/// Most columns or rows a `grid` may ask for.
pub const MAX_GRID: usize = 20;
/// Widest gutter, in mm.
pub const MAX_GUTTER: f64 = 25.4;

/// A sheet layout as asked for; a key not given is left to the next level.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Request {
    /// Columns x rows of parts on a sheet (as they lie on the page).
    pub grid: Option<(usize, usize)>,
    pub orientation: Option<Orientation>,
    /// Space between neighbouring parts' trims, in mm; each part shows its own
    /// bleed into it (up to half of it).
    pub gutter: Option<f64>,
}

/// A key of a layout request that cannot be read.
#[derive(Debug, Clone, PartialEq)]
pub enum RequestError {
    Grid(String),
    Orientation(String),
    Gutter(String),
}

impl std::fmt::Display for RequestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RequestError::Grid(g) => write!(
                f,
                "grid `{g}` is not columns x rows of 1 to {MAX_GRID} each"
            ),
            RequestError::Orientation(o) => write!(f, "unknown orientation `{o}`"),
            RequestError::Gutter(why) => write!(f, "gutter: {why}"),
        }
    }
}

impl std::error::Error for RequestError {}

impl RequestError {
    /// How to fix it.
    pub fn hint(&self) -> String {
        match self {
            RequestError::Grid(_) => "write it like grid = \"3x3\" (columns x rows, as the parts lie on the sheet)".into(),
            RequestError::Orientation(o) => match crate::diag::did_you_mean(o, Orientation::NAMES) {
                Some(m) => format!("did you mean `{m}`?"),
                None => format!("use one of: {}", Orientation::NAMES.join(", ")),
            },
            RequestError::Gutter(_) => format!(
                "write a length from 0 to {MAX_GUTTER} mm, e.g. gutter = \"1/8in\" (room for each part's bleed: twice the bleed)"
            ),
        }
    }
}

impl Request {
    /// `self`'s keys where it has them, else `below`'s.
    pub fn over(self, below: Request) -> Request {
        Request {
            grid: self.grid.or(below.grid),
            orientation: self.orientation.or(below.orientation),
            gutter: self.gutter.or(below.gutter),
        }
    }

    /// Whether no key is set.
    pub fn is_empty(&self) -> bool {
        *self == Request::default()
    }

    /// Reads `grid = "3x3"`.
    pub fn grid(s: &str) -> Result<(usize, usize), RequestError> {
        let bad = || RequestError::Grid(s.to_string());
        let (c, r) = s.trim().split_once(['x', 'X', '×']).ok_or_else(bad)?;
        let n = |v: &str| {
            v.trim()
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=MAX_GRID).contains(n))
        };
        Ok((n(c).ok_or_else(bad)?, n(r).ok_or_else(bad)?))
    }

    /// Reads `orientation = "upright"`.
    pub fn orientation(s: &str) -> Result<Orientation, RequestError> {
        Orientation::parse(s.trim()).ok_or_else(|| RequestError::Orientation(s.to_string()))
    }

    /// Reads `gutter = "3mm"`.
    pub fn gutter(s: &str) -> Result<f64, RequestError> {
        let v = crate::units::parse_length(s).map_err(|e| RequestError::Gutter(e.to_string()))?;
        if (0.0..=MAX_GUTTER).contains(&v) {
            Ok(v)
        } else {
            Err(RequestError::Gutter(format!(
                "{} mm is outside 0..{MAX_GUTTER} mm",
                crate::units::fmt_num(v)
            )))
        }
    }
}

/// Reads the keys of a `layout` table (a component's, or a profile's `[layout]`):
/// the request, or the first key that cannot be read with its span.
pub fn read(def: &super::LayoutDef) -> Result<Request, (RequestError, std::ops::Range<usize>)> {
    let at = |v: &toml::Spanned<String>| v.span();
    let mut r = Request::default();
    if let Some(g) = &def.grid {
        r.grid = Some(Request::grid(g.get_ref()).map_err(|e| (e, at(g)))?);
    }
    if let Some(o) = &def.orientation {
        r.orientation = Some(Request::orientation(o.get_ref()).map_err(|e| (e, at(o)))?);
    }
    if let Some(g) = &def.gutter {
        r.gutter = Some(Request::gutter(g.get_ref()).map_err(|e| (e, at(g)))?);
    }
    Ok(r)
}

/// Why a kind of part cannot take a key of a request: boards and mats are tiled;
/// chits and tokens flow onto shared sheets row by row, so they take no grid.
pub fn unfit(request: &Request, kind: super::Kind) -> Option<(&'static str, String)> {
    if kind.is_large() && !request.is_empty() {
        return Some((
            "layout",
            format!("a {kind} is tiled over the paper and printed at real size: `layout` is for parts laid out on sheets"),
        ));
    }
    if kind.uses_cut_lines() && request.grid.is_some() {
        return Some((
            "grid",
            format!("a {kind} set flows onto sheets shared with the other chit and token sets, row after row: it takes a gutter and an orientation, not a grid"),
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_read_and_checked() {
        assert_eq!(Request::grid("3x3"), Ok((3, 3)));
        assert_eq!(Request::grid(" 2 x 4 "), Ok((2, 4)));
        assert!(Request::grid("3").is_err() && Request::grid("0x3").is_err());
        assert!(Request::grid("21x1").is_err());
        assert_eq!(Request::orientation("upright"), Ok(Orientation::Upright));
        let e = Request::orientation("uprite").unwrap_err();
        assert_eq!(e.hint(), "did you mean `upright`?");
        assert_eq!(Request::gutter("1/8in"), Ok(3.175));
        assert!(Request::gutter("30mm").is_err() && Request::gutter("3").is_err());
    }

    #[test]
    fn a_components_keys_win() {
        let own = Request {
            grid: Some((3, 3)),
            ..Request::default()
        };
        let profile = Request {
            grid: Some((2, 2)),
            gutter: Some(3.0),
            orientation: None,
        };
        assert_eq!(
            own.over(profile),
            Request {
                grid: Some((3, 3)),
                gutter: Some(3.0),
                orientation: None
            }
        );
    }
}
