//! The serde schema of `game.toml`. Unknown fields are errors (a typo like `qyt`
//! must not be silently ignored), and every value keeps its span.

use serde::Deserialize;

use super::Spanned;

/// The whole `game.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GameFile {
    pub game: GameMeta,
    #[serde(default)]
    pub rules: Option<toml::Table>,
    #[serde(default)]
    pub contents: std::collections::BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    #[serde(default)]
    pub component: Vec<Spanned<ComponentDef>>,
    #[serde(default)]
    pub derive: Vec<Spanned<DeriveDef>>,
    #[serde(default, rename = "assert")]
    pub asserts: Vec<Spanned<AssertDef>>,
    #[serde(default)]
    pub reference: Vec<Spanned<ReferenceDef>>,
    #[serde(default)]
    pub network: Option<Spanned<NetworkDef>>,
    #[serde(default)]
    pub rulebook: Option<Spanned<RulebookDef>>,
}

/// `[game]`: the game's name and player count.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct GameMeta {
    /// The name printed on parts and in page labels.
    pub name: String,
    /// Minimum and maximum players, e.g. `[2, 6]`.
    #[serde(default)]
    pub players: Vec<i64>,
    /// Designer and credits line.
    #[serde(default)]
    pub credits: Option<String>,
    /// Free text shown in `list`.
    #[serde(default)]
    pub description: Option<String>,
    /// The game's version as the designer numbers it (`"0.4"`); templates:
    /// `game.version`.
    #[serde(default)]
    pub version: Option<String>,
    /// Default print profile for `build` (a file in profiles/), e.g. "gutterfold".
    #[serde(default)]
    pub profile: Option<String>,
    /// The currency sign the `money` filter writes, e.g. "£" (default "$").
    #[serde(default)]
    pub currency: Option<String>,
    /// Where the sign goes: before the amount (`£5`, the default) or after it
    /// (`5 €`, with `currency = " €"`).
    #[serde(default)]
    pub currency_position: Option<CurrencyPosition>,
    /// What `money` puts between groups of three digits (default ",").
    #[serde(default)]
    pub thousands_separator: Option<String>,
    /// What `money` puts before the cents of an amount that is not whole
    /// (default ".").
    #[serde(default)]
    pub decimal_separator: Option<String>,
    /// The language of the game's texts, as a two-letter ISO 639-1 code (`en`,
    /// `de`, `fr`...): the rulebook hyphenates its words by it (default `en`).
    #[serde(default)]
    pub language: Option<String>,
}

/// `[rulebook]`: how `data/<game>/rules.md` is typeset (every key optional).
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct RulebookDef {
    /// The page: `a5`, `half-letter`, `letter`, `a4`, `half-paper` (the default:
    /// half of the build's paper) or `{ width = "..", height = ".." }`.
    #[serde(default)]
    pub page: Option<Spanned<toml::Value>>,
    /// Text columns on a page: 1 (the default) or 2.
    #[serde(default)]
    pub columns: Option<Spanned<i64>>,
    /// The body text's font family (default: Lato).
    #[serde(default)]
    pub font: Option<Spanned<String>>,
    /// The headings' font family (default: the body's).
    #[serde(default)]
    pub heading_font: Option<Spanned<String>>,
    /// The body text's size, a length such as `"9.5pt"` (default 9.5 pt).
    #[serde(default)]
    pub size: Option<Spanned<String>>,
}

/// `[game] currency_position`: where the currency sign goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CurrencyPosition {
    Before,
    After,
}

impl CurrencyPosition {
    /// The name as written in `game.toml`.
    pub fn name(self) -> &'static str {
        match self {
            CurrencyPosition::Before => "before",
            CurrencyPosition::After => "after",
        }
    }
}

/// `[[component]]`: one set of printed parts.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComponentDef {
    /// Unique id; also the folder name of its SVG/PNG output.
    pub id: Spanned<String>,
    /// Human name for page labels, e.g. "Contract cards".
    #[serde(default)]
    pub name: Option<String>,
    /// card, chit, token, money, aid, screen, board, mat or pad.
    pub kind: Spanned<String>,
    /// A size name (`poker`, `chit-3/4in`, ...) or `{ width = "..", height = ".." }`.
    pub size: Spanned<toml::Value>,
    /// rect, rounded, round or triangle; may be a `{{ expression }}` per row.
    #[serde(default)]
    pub shape: Option<Spanned<String>>,
    /// The data table whose rows are the faces.
    #[serde(default)]
    pub table: Option<Spanned<String>>,
    /// A list field of each row: one face per element, exposed as `item`.
    #[serde(default)]
    pub expand: Option<Spanned<String>>,
    /// Copies of each face: an integer or an expression over `row`, `item`, `rules`.
    /// Default: the row's `qty` field, or 1.
    #[serde(default)]
    pub qty: Option<Spanned<toml::Value>>,
    /// Distinct faces per row: a number or an expression (e.g. `settings.copies or 10`).
    /// Each gets `copy` (1-based) in its context, so every copy can differ (a
    /// numbered, shuffled score-pad sheet). Unlike `qty`, which prints identical copies.
    #[serde(default)]
    pub repeat: Option<Spanned<toml::Value>>,
    /// Front template, in `templates/<game>/` (or `common/...`).
    #[serde(default)]
    pub front: Option<Spanned<String>>,
    /// A template drawn under every front, rendered once for the whole set: what all
    /// the fronts share (a score pad's map and grid, a card frame). It sees the game
    /// and `face`, not a face's own values (`row`, `item`, `copy`, `index`, `qty`).
    #[serde(default)]
    pub layer: Option<Spanned<String>>,
    /// Instead of a template: finished art files to impose, one face each, as a
    /// pattern (`"art/contracts/*.svg"`) or a list, relative to `data/<game>/`.
    /// SVG files are used as they are; PNG/JPEG files fill the face with its bleed.
    #[serde(default)]
    pub art: Option<Spanned<toml::Value>>,
    /// The back for `art` faces: one file for every face.
    #[serde(default)]
    pub art_back: Option<Spanned<String>>,
    /// Back template; omit for one-sided parts.
    #[serde(default)]
    pub back: Option<Spanned<String>>,
    /// Bleed around each face (default 3mm; 1.5mm for chits and tokens).
    #[serde(default)]
    pub bleed: Option<Spanned<String>>,
    /// Screens: panels side by side along the width, folded between (2 to 6;
    /// default 3).
    #[serde(default)]
    pub panels: Option<Spanned<i64>>,
    /// What preflight does when a later element covers one the template marks
    /// `class="keep-visible"`: `warn` (the default) or `error` (nothing is written).
    #[serde(default)]
    pub keep_visible: Option<Severity>,
    /// How the parts lie on print-and-play sheets: `grid`, `orientation`, `gutter`
    /// (over the print profile's `[layout]`).
    #[serde(default)]
    pub layout: Option<Spanned<LayoutDef>>,
}

/// `layout = { grid = "3x3", orientation = "upright", gutter = "3mm" }`: a sheet
/// layout asked for (`layout::Request`). The same keys make a print
/// profile's `[layout]`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayoutDef {
    /// Columns x rows of parts per sheet, e.g. "3x3".
    #[serde(default)]
    pub grid: Option<Spanned<String>>,
    /// `upright`, `sideways` or `auto`.
    #[serde(default)]
    pub orientation: Option<Spanned<String>>,
    /// Space between parts, a length; each shows its own bleed into it.
    #[serde(default)]
    pub gutter: Option<Spanned<String>>,
}

/// How serious a preflight finding is for a component.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A warning: the files are written.
    #[default]
    Warn,
    /// An error: nothing is written.
    Error,
}

/// `[[derive]]`: a field computed for every row of a table from an expression.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeriveDef {
    pub table: Spanned<String>,
    pub field: Spanned<String>,
    /// A minijinja expression over `row`, `rules`, `tables` and the functions.
    pub value: Spanned<String>,
}

/// `[[assert]]`: something the rules state, checked before anything is printed.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AssertDef {
    /// A minijinja expression that must be true.
    #[serde(default)]
    pub that: Option<Spanned<String>>,
    /// Or: a template that prints nothing when all is well and one problem per line
    /// otherwise (for checks that need loops).
    #[serde(default)]
    pub template: Option<Spanned<String>>,
    /// What is wrong when `that` is false (may use `{{ row.field }}`); for a
    /// `template` check, a prefix for each printed problem.
    #[serde(default)]
    pub message: Option<String>,
    /// Evaluate once per row of this table, with the row as `row`.
    #[serde(default)]
    pub each: Option<Spanned<String>>,
    /// How to fix it.
    #[serde(default)]
    pub hint: Option<String>,
}

/// `[[reference]]`: `from = "contract.good"` must name an `id` in table `to = "good"`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReferenceDef {
    pub from: Spanned<String>,
    pub to: Spanned<String>,
    /// Whether every row must have the field (default true).
    #[serde(default = "yes")]
    pub required: bool,
}

fn yes() -> bool {
    true
}

/// `[network]`: a graph whose nodes are rows of one table and whose edges are rows of
/// another, for `distance(a, b)` in expressions and for connectivity checks.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkDef {
    /// Table of nodes (rows with `id`).
    pub nodes: Spanned<String>,
    /// Table of edges.
    pub edges: Spanned<String>,
    /// Edge field naming one end (default `from`).
    #[serde(default = "from_field")]
    pub from: String,
    /// Edge field naming the other end (default `to`).
    #[serde(default = "to_field")]
    pub to: String,
    /// Cost of an edge: an expression over the edge `row` (default `1`).
    #[serde(default)]
    pub cost: Option<Spanned<String>>,
    /// Cost added once to every trip between two different nodes, whatever its
    /// length: an expression over `rules` (default `0`). With `cost = "row.spaces"`
    /// and `trip = "1"`, a trip over routes of s1, s2, ... spaces costs
    /// s1 + s2 + ... + 1 (one move out of the first city, the spaces, into the last;
    /// the cities passed through cost nothing).
    #[serde(default)]
    pub trip: Option<Spanned<String>>,
}

fn from_field() -> String {
    "from".into()
}

fn to_field() -> String {
    "to".into()
}

/// The keys of every table of `game.toml`, read from the serde schema above (so
/// a new key cannot be missed by the reference): `("", top-level sections)`,
/// `("game", keys of [game])`, `("component", keys of [[component]])`...
pub fn keys() -> Vec<(&'static str, &'static [&'static str])> {
    vec![
        ("", fields::<GameFile>()),
        ("game", fields::<GameMeta>()),
        ("component", fields::<ComponentDef>()),
        ("derive", fields::<DeriveDef>()),
        ("assert", fields::<AssertDef>()),
        ("reference", fields::<ReferenceDef>()),
        ("network", fields::<NetworkDef>()),
        ("layout", fields::<LayoutDef>()),
        ("rulebook", fields::<RulebookDef>()),
    ]
}

/// The field names serde's derive gives a struct: a deserializer that only
/// records what `deserialize_struct` is asked for.
pub(crate) fn fields<T: for<'de> Deserialize<'de>>() -> &'static [&'static str] {
    use serde::de::{self, Visitor};

    struct Fields<'a>(&'a mut &'static [&'static str]);

    impl<'de> de::Deserializer<'de> for Fields<'_> {
        type Error = de::value::Error;

        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(de::Error::custom("only structs"))
        }

        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            *self.0 = fields;
            Err(de::Error::custom("fields recorded"))
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
            tuple_struct map enum identifier ignored_any
        }
    }

    let mut found: &'static [&'static str] = &[];
    let _ = T::deserialize(Fields(&mut found));
    found
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_come_from_the_schema() {
        let keys = super::keys();
        assert_eq!(
            keys[0].1,
            [
                "game",
                "rules",
                "contents",
                "component",
                "derive",
                "assert",
                "reference",
                "network",
                "rulebook"
            ]
        );
        let component = keys.iter().find(|(s, _)| *s == "component").unwrap().1;
        assert!(component.contains(&"qty") && component.contains(&"art_back"));
    }
}
