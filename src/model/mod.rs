//! The game model: what a game folder under `data/` declares, with the source span of
//! every value so that any problem can point at its file, line and column.

pub mod layout;
pub(crate) mod load;
pub(crate) mod schema;
pub mod size;
pub(crate) mod tables;
pub(crate) mod toml_problems;

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

pub use load::{default_profile, load_game, GameFileCache, Target};
pub use schema::{
    keys, AssertDef, ComponentDef, DeriveDef, GameMeta, LayoutDef, NetworkDef, ReferenceDef,
    RulebookDef, Severity,
};
pub use size::{Paper, Shape, Size, SizeError, PAPERS};

/// A TOML value with the span it was read from.
pub type Spanned<T> = toml::Spanned<T>;

/// One loaded game: its definitions (`game.toml`) and its data tables (other `*.toml`).
#[derive(Debug)]
pub struct Game {
    /// Folder name under `data/`; also the output folder name.
    pub id: String,
    /// `data/<id>/game.toml`, relative to the project root.
    pub file: PathBuf,
    /// The text of `game.toml` (for messages that look into it).
    pub text: std::sync::Arc<str>,
    pub meta: GameMeta,
    /// `[rules]`: every number the printed parts show.
    pub rules: toml::Table,
    /// `[contents]`: component counts as the rulebook lists them, each a whole
    /// number or an expression (`"rules.deck_size"`).
    pub contents: Vec<(Spanned<String>, Spanned<toml::Value>)>,
    pub components: Vec<Component>,
    pub derives: Vec<Spanned<DeriveDef>>,
    pub asserts: Vec<Spanned<AssertDef>>,
    pub references: Vec<Spanned<ReferenceDef>>,
    pub network: Option<Spanned<NetworkDef>>,
    /// `[rulebook]`: how `rules.md` is typeset.
    pub rulebook: Option<Spanned<RulebookDef>>,
    /// Data tables by name (`[[city]]` rows make the table `city`).
    pub tables: BTreeMap<String, Table>,
    /// Components whose definition had an error (already reported): other checks
    /// skip them instead of repeating the error.
    pub rejected: std::collections::BTreeSet<String>,
    /// Whether a data file failed to parse (already reported): a table it held is
    /// then missing, and "no such table" errors would only repeat that.
    pub unparsed_data: bool,
}

/// A component set after its size and kind were resolved.
#[derive(Debug)]
pub struct Component {
    pub def: ComponentDef,
    /// Span of the `[[component]]` entry in `game.toml`.
    pub span: Range<usize>,
    pub kind: Kind,
    pub size: Size,
    /// Bleed around every face, in millimetres (the print shop's, for a shop profile).
    pub bleed: f64,
    /// Whether this build exports the set (a shop profile leaves out the sets it has
    /// no product for).
    pub exported: bool,
    /// With `art`: the art files, relative to the project root, sorted.
    pub art: Vec<PathBuf>,
    /// With `art_back`: the back art file.
    pub art_back: Option<PathBuf>,
    /// Panels side by side along the width, folded between (screens); 1 for flat
    /// parts.
    pub panels: usize,
    /// The sheet layout its `layout` asks for (the profile's fills the rest).
    pub layout: layout::Request,
}

impl Component {
    /// The component set's id.
    pub fn id(&self) -> &str {
        self.def.id.get_ref()
    }

    /// The front template's name, or the art pattern, for messages.
    pub fn front_name(&self) -> String {
        match (&self.def.front, &self.def.art) {
            (Some(f), _) => f.get_ref().clone(),
            (None, Some(a)) => a.get_ref().to_string(),
            _ => String::new(),
        }
    }

    /// The back template's name (or the front's when there is none), for messages.
    pub fn back_name(&self) -> String {
        match &self.def.back {
            Some(b) => b.get_ref().clone(),
            None => self
                .def
                .art_back
                .as_ref()
                .map(|b| b.get_ref().clone())
                .unwrap_or_else(|| self.front_name()),
        }
    }

    /// Human name, e.g. "contract cards".
    pub fn name(&self) -> String {
        self.def
            .name
            .clone()
            .unwrap_or_else(|| self.id().to_string())
    }
}

/// What a component is, which decides how it is laid out on sheets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Cards: butted together 3x3, crop marks, mirrored duplex backs.
    Card,
    /// Chits and counters: real chit size, cut lines around each shape.
    Chit,
    /// Tokens (cabs, markers): like chits.
    Token,
    /// Paper money: like cards.
    Money,
    /// Player aids: like cards, one or two to a sheet.
    Aid,
    /// Standing screens: panels side by side with folds between them (`panels`),
    /// on their own sheets at real size (laid sideways if that fits), tiled like a
    /// board when larger than the paper.
    Screen,
    /// Boards: real size on their own page, and tiled over Letter/A4.
    Board,
    /// Playmats: like boards.
    Mat,
    /// Score pads: like aids.
    Pad,
}

impl Kind {
    /// All kind names, for errors and hints.
    pub const NAMES: [&'static str; 9] = [
        "card", "chit", "token", "money", "aid", "screen", "board", "mat", "pad",
    ];

    /// Parses a kind name.
    pub fn parse(s: &str) -> Option<Kind> {
        Some(match s {
            "card" => Kind::Card,
            "chit" => Kind::Chit,
            "token" => Kind::Token,
            "money" => Kind::Money,
            "aid" => Kind::Aid,
            "screen" => Kind::Screen,
            "board" => Kind::Board,
            "mat" => Kind::Mat,
            "pad" => Kind::Pad,
            _ => return None,
        })
    }

    /// The kind's name as written in `game.toml`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Card => "card",
            Kind::Chit => "chit",
            Kind::Token => "token",
            Kind::Money => "money",
            Kind::Aid => "aid",
            Kind::Screen => "screen",
            Kind::Board => "board",
            Kind::Mat => "mat",
            Kind::Pad => "pad",
        }
    }

    /// Whether faces of this kind are cut apart with shape cut lines (chits) rather
    /// than butted together with crop marks (cards).
    pub fn uses_cut_lines(self) -> bool {
        matches!(self, Kind::Chit | Kind::Token)
    }

    /// Whether this kind is printed at real size and tiled (boards, mats).
    pub fn is_large(self) -> bool {
        matches!(self, Kind::Board | Kind::Mat)
    }

    /// Default bleed in millimetres: 3 mm (1/8 in) for everything a shop trims,
    /// 1.5 mm for chits so a chit sheet does not waste half its paper on gutters,
    /// none for pads (white paper, printed 2-up edge to edge).
    pub fn default_bleed(self) -> f64 {
        if self.uses_cut_lines() {
            1.5
        } else if self == Kind::Pad {
            0.0
        } else {
            3.0
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Which side of a part a face is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    Front,
    Back,
}

impl Side {
    /// `front` or `back`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Front => "front",
            Side::Back => "back",
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A data table: the rows of every `[[name]]` in one TOML file, of one CSV or TSV
/// file, or of one sheet of a workbook (XLSX, ODS).
#[derive(Debug, Clone)]
pub struct Table {
    pub name: String,
    /// File the table is in, relative to the project root.
    pub file: PathBuf,
    pub rows: Vec<Row>,
    /// For a workbook: the sheet's name and the spreadsheet row of its header. A
    /// workbook is not text, so problems name "sheet S, row R, column C" instead of
    /// pointing at a span.
    pub sheet: Option<(String, u32)>,
    /// For a CSV file or a sheet: its header row's cells, in order (`None` for
    /// TOML rows, which name their fields one by one).
    pub header: Option<Vec<HeaderCell>>,
}

/// A cell of the header row of a CSV file or a sheet: a column's name.
#[derive(Debug, Clone)]
pub struct HeaderCell {
    /// The field the column sets (`pos` for a header `pos.x`, `goods` for `goods[]`).
    pub field: String,
    /// The column, from 0 (A).
    pub column: u32,
    /// The cell's bytes in a CSV file (empty for a workbook).
    pub span: Range<usize>,
}

/// One row of a data table.
#[derive(Debug, Clone)]
pub struct Row {
    /// The row's bytes in its file (a TOML table or a CSV record; empty for a
    /// workbook row).
    pub span: Range<usize>,
    pub fields: BTreeMap<String, Field>,
    /// Fields computed by `[[derive]]` rules (e.g. a contract's fee).
    pub derived: BTreeMap<String, toml::Value>,
    /// For a CSV or workbook row: its 1-based row number in the file or sheet
    /// (the header is row 1 unless blank lines come first).
    pub line: Option<u32>,
}

/// One field of a row, with spans for its key and value.
#[derive(Debug, Clone)]
pub struct Field {
    /// The key in a TOML file; the column's header cell in a CSV file.
    pub key_span: Range<usize>,
    pub span: Range<usize>,
    pub value: toml::Value,
    /// For a CSV or workbook cell: its 0-based column (A is 0).
    pub column: Option<u32>,
}

impl Row {
    /// The row's `id` field, if it has a string one.
    pub fn id(&self) -> Option<&str> {
        self.fields.get("id").and_then(|f| f.value.as_str())
    }

    /// A name for messages: `` `seattle` ``, `row 12` (a spreadsheet row without
    /// an id) or `#12` (1-based position in a TOML file).
    pub fn label(&self, index: usize) -> String {
        match self.id() {
            Some(id) => format!("`{id}`"),
            None => self.name(index),
        }
    }

    /// A name for people (the preview, Tabletop Simulator, page labels): as
    /// [`Row::label`], without the backticks messages put around an id.
    pub fn name(&self, index: usize) -> String {
        match (self.id(), self.line) {
            (Some(id), _) => id.to_string(),
            (None, Some(line)) => format!("row {line}"),
            (None, None) => format!("#{}", index + 1),
        }
    }
}

/// A spreadsheet column's letters: 0 is `A`, 25 `Z`, 26 `AA`.
pub fn column_name(mut column: u32) -> String {
    let mut letters = Vec::new();
    loop {
        letters.push(b'A' + (column % 26) as u8);
        if column < 26 {
            break;
        }
        column = column / 26 - 1;
    }
    letters.reverse();
    String::from_utf8(letters).unwrap_or_default()
}

impl Table {
    /// The row with `id`, if any.
    pub fn find(&self, id: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.id() == Some(id))
    }

    /// Every field a row of the table has (derived fields too), and every
    /// column of its header, each once, sorted.
    pub fn fields(&self) -> std::collections::BTreeSet<&str> {
        let mut fields: std::collections::BTreeSet<&str> = self
            .rows
            .iter()
            .flat_map(|r| r.fields.keys().chain(r.derived.keys()))
            .map(String::as_str)
            .collect();
        fields.extend(self.header.iter().flatten().map(|c| c.field.as_str()));
        fields
    }

    /// For a field no row of a CSV file or sheet has: where the header cell with
    /// the nearest name is, "`color` is column C of the header row (sheet card,
    /// row 1) of data/g/cards.xlsx".
    pub fn header_cell_near(&self, field: &str) -> Option<String> {
        let header = self.header.as_ref()?;
        if self.fields().contains(field) {
            return None;
        }
        let near = crate::diag::did_you_mean(field, header.iter().map(|c| c.field.as_str()))?;
        let cell = header.iter().find(|c| c.field == near)?;
        let row = match &self.sheet {
            Some((sheet, line)) => format!("sheet {sheet}, row {line}"),
            None => "row 1".to_string(),
        };
        Some(format!(
            "`{near}` is column {} of the header row ({row}) of {}",
            column_name(cell.column),
            self.file.display()
        ))
    }

    /// When the table has rows and none of them has `field` (a column renamed in
    /// the spreadsheet, a key misspelt in every row): one error for the whole
    /// table, rather than one per row, saying what `reader` needed it. In a CSV
    /// file or a sheet it points at the header row, at the column whose name is
    /// nearest ("did you mean"); for TOML rows the caller says where.
    pub fn lacks(&self, field: &str, reader: &str) -> Option<crate::diag::Diagnostic> {
        if self.rows.is_empty() || self.fields().contains(field) {
            return None;
        }
        let fields = self.fields();
        let near = crate::diag::did_you_mean(field, fields.iter().copied());
        let list: Vec<&str> = fields.iter().copied().collect();
        let Some(header) = &self.header else {
            let d = crate::diag::Diagnostic::error(format!(
                "no row of table `{}` has a `{field}` field, which {reader} reads",
                self.name
            ));
            return Some(match near {
                Some(m) => d.hint(format!(
                    "did you mean `{m}`? The rows have: {}",
                    list.join(", ")
                )),
                None => d.hint(format!(
                    "add `{field}` to the rows; they have: {}",
                    list.join(", ")
                )),
            });
        };
        let cell = near
            .and_then(|m| header.iter().find(|c| c.field == m))
            .or(header.first())?;
        let d = crate::diag::Diagnostic::error(format!(
            "table `{}` has no column `{field}`, which {reader} reads",
            self.name
        ));
        let d = match near {
            Some(m) => d.hint(format!(
                "did you mean `{m}` (column {})? Rename the column's header cell, or use its name",
                column_name(cell.column)
            )),
            None => d.hint(format!(
                "add a column `{field}` to the header row; the columns are: {}",
                list.join(", ")
            )),
        };
        let header_field = Field {
            key_span: cell.span.clone(),
            span: cell.span.clone(),
            value: toml::Value::Boolean(false),
            column: Some(cell.column),
        };
        Some(self.at(d, self.rows.first()?, Some(&header_field), true))
    }

    /// Points `d` at `row` of this table, or at one of its fields (`key`: at the
    /// field's key, i.e. a CSV column's header). In a text file that is a span; in
    /// a workbook the file, with "sheet S, row R, column C" added to the message.
    pub fn at(
        &self,
        d: crate::diag::Diagnostic,
        row: &Row,
        field: Option<&Field>,
        key: bool,
    ) -> crate::diag::Diagnostic {
        let Some((sheet, header)) = &self.sheet else {
            let span = match field {
                Some(f) if key => f.key_span.clone(),
                Some(f) => f.span.clone(),
                None => row.span.clone(),
            };
            return d.at(&self.file, Some(span));
        };
        let line = if key { Some(*header) } else { row.line };
        let mut place = format!("sheet {sheet}");
        if let Some(line) = line {
            place.push_str(&format!(", row {line}"));
        }
        if let Some(c) = field.and_then(|f| f.column) {
            place.push_str(&format!(", column {}", column_name(c)));
        }
        let mut d = d.at(&self.file, None);
        d.message = format!("{} ({place})", d.message);
        d
    }
}

/// The error for `what` (e.g. "[network] names") naming table `name`, written at
/// `span` of `file` (game `game`'s `game.toml`), which no data file defines: with
/// the nearest of the game's `tables` when one is close, else how to add it.
pub(crate) fn unknown_table<'t>(
    file: &Path,
    game: &str,
    tables: impl Iterator<Item = &'t str> + Clone,
    what: &str,
    name: &str,
    span: Range<usize>,
) -> crate::diag::Diagnostic {
    use crate::diag::{did_you_mean, Diagnostic};
    let hint = match did_you_mean(name, tables.clone()) {
        Some(m) => format!("did you mean `{m}`?"),
        None => format!(
            "add [[{name}]] rows to a .toml file in {}, or a {name}.csv file (or a sheet named {name}); tables found: {}",
            file.parent().unwrap_or(file).display(),
            tables.collect::<Vec<_>>().join(", ")
        ),
    };
    Diagnostic::error(format!("{what} table `{name}`, which no data file defines"))
        .at(file, Some(span))
        .with("game", game)
        .hint(hint)
}

impl Game {
    /// The error for `what` (e.g. "[network] names") naming table `name`, written
    /// at `span` of `game.toml`, which no data file defines ([`unknown_table`]).
    pub fn unknown_table(
        &self,
        what: &str,
        name: &str,
        span: Range<usize>,
    ) -> crate::diag::Diagnostic {
        let tables = self.tables.keys().map(String::as_str);
        unknown_table(&self.file, &self.id, tables, what, name, span)
    }

    /// The component with `id`.
    pub fn component(&self, id: &str) -> Option<&Component> {
        self.components.iter().find(|c| c.id() == id)
    }
}
