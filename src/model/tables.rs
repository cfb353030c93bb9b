//! Data tables from spreadsheets: a CSV or TSV file is one table named for the file
//! (`card.csv` is the table `card`), its first row the field names; a workbook
//! (XLSX, ODS) gives one table per sheet, named for the sheet, with the values the
//! spreadsheet saved (formula results, not formulas).
//!
//! How a cell becomes a value:
//! - an empty cell is no value: the row has no such field (as a key left out of a
//!   TOML row);
//! - in CSV/TSV, an unquoted cell that reads as a number is a number (`3`, `-2`,
//!   `0.5`, `1e3`), `true`/`false` (any case) a boolean, anything else text;
//!   a number with a leading zero (`007`) stays text, since the number would lose
//!   the zero; a quoted cell (`"12"`) is always text;
//! - in a workbook the cell's own type decides: a number cell is a number (whole
//!   numbers are integers), a text cell text, a boolean a boolean;
//! - a header `name[]` makes a list field: the cell is split at `;` and each part
//!   read like an unquoted CSV cell (`bread; coal` is `["bread", "coal"]`), for
//!   `expand` and list references;
//! - a header `a.b` makes a field `a` holding a table with the key `b`.
//!
//! CSV cells keep their byte range in the file, so a problem points at the cell.
//! Workbooks are not text: problems name the sheet, row and column.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

use super::{column_name, Field, HeaderCell, Row, Table};
use crate::diag::{Diagnostic, Diagnostics, Reported};

/// Most non-empty cells one workbook may hold: a game's tables have a few
/// thousand; a file with millions is a mistake or hostile.
pub const MAX_CELLS: usize = 1_000_000;

/// What a file in a game folder holds, by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `*.toml`: `[[name]]` rows (or `game.toml`).
    Toml,
    /// `*.csv`: comma-separated (or semicolon-separated, when the header row has
    /// semicolons and no commas, as some spreadsheets write it).
    Csv,
    /// `*.tsv`: tab-separated.
    Tsv,
    /// `*.xlsx`, `*.xlsm`: an Excel workbook.
    Xlsx,
    /// `*.ods`: an OpenDocument (LibreOffice) workbook.
    Ods,
}

impl Format {
    /// The format of a file name, if it is a data file.
    pub fn of(name: &str) -> Option<Format> {
        let (_, ext) = name.rsplit_once('.')?;
        Some(match ext.to_ascii_lowercase().as_str() {
            "toml" => Format::Toml,
            "csv" => Format::Csv,
            "tsv" => Format::Tsv,
            "xlsx" | "xlsm" => Format::Xlsx,
            "ods" => Format::Ods,
            _ => return None,
        })
    }
}

/// The extensions of every data file, for messages.
pub const DATA_EXTENSIONS: &str = ".toml, .csv, .tsv, .xlsx, .ods";

/// What a cell holds before its column decides how to read it.
#[derive(Debug, Clone)]
enum Content {
    /// Text: `quoted` for a quoted CSV cell or a workbook's text cell, which stays
    /// text; unquoted CSV text is read as a number or boolean when it is one.
    Text { text: String, quoted: bool },
    /// A typed workbook value (number, boolean).
    Value(toml::Value),
}

/// One non-empty cell.
#[derive(Debug, Clone)]
struct RawCell {
    content: Content,
    /// Byte range in a CSV file (empty for a workbook).
    span: Range<usize>,
    column: u32,
}

/// One record: its row number, its bytes, its non-empty cells.
#[derive(Debug, Default)]
struct RawRow {
    line: u32,
    span: Range<usize>,
    cells: Vec<RawCell>,
}

/// A sheet (or a CSV file) before its header is read: rows in order, empty rows
/// left out.
struct Grid {
    rows: Vec<RawRow>,
}

/// Where the table came from, for messages.
struct Source<'a> {
    file: &'a Path,
    game: &'a str,
    /// A workbook's sheet name.
    sheet: Option<&'a str>,
}

impl Source<'_> {
    /// A problem at a cell (or row, `column = None`).
    fn at(&self, d: Diagnostic, line: u32, column: Option<u32>, span: &Range<usize>) -> Diagnostic {
        let d = d.with("game", self.game);
        match self.sheet {
            None => d.at(self.file, Some(span.clone())),
            Some(sheet) => {
                let mut place = format!("sheet {sheet}, row {line}");
                if let Some(c) = column {
                    place.push_str(&format!(", column {}", column_name(c)));
                }
                let mut d = d.at(self.file, None);
                d.message = format!("{} ({place})", d.message);
                d
            }
        }
    }
}

/// Reads one CSV (`separator` b',') or TSV (b'\t') file as the table `name`.
pub fn delimited(
    file: &Path,
    game: &str,
    name: &str,
    text: &str,
    tsv: bool,
) -> Reported<Option<Table>> {
    let source = Source {
        file,
        game,
        sheet: None,
    };
    let separator = if tsv { b'\t' } else { csv_separator(text) };
    let grid = match parse_delimited(text, separator) {
        Ok(g) => g,
        Err(e) => {
            let d = Diagnostic::error(e.message)
                .with("game", game)
                .at(file, Some(e.span));
            return Reported::new(None, [d.hint(e.hint)]);
        }
    };
    table_of(&source, name, grid)
}

/// The separator of a CSV file: `;` when its first line has semicolons and no
/// commas (spreadsheets in many European locales save CSV so), else `,`.
fn csv_separator(text: &str) -> u8 {
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    if first.contains(';') && !first.contains(',') {
        b';'
    } else {
        b','
    }
}

/// Why a CSV or TSV file does not parse: what, where, and how to fix it.
#[derive(Debug, Clone, PartialEq)]
struct ParseError {
    message: &'static str,
    span: Range<usize>,
    hint: &'static str,
}

/// RFC 4180 records: `separator` between cells, `"` around a cell that holds a
/// separator, a quote (doubled) or a line break. Lines end with LF or CRLF; a
/// UTF-8 byte order mark is skipped. Unquoted cells are trimmed of spaces.
fn parse_delimited(text: &str, separator: u8) -> Result<Grid, ParseError> {
    let mut at = Cursor {
        text,
        bytes: text.as_bytes(),
        i: if text.starts_with('\u{feff}') { 3 } else { 0 },
        line: 1,
        separator,
    };
    let mut rows = Vec::new();
    while at.i < at.bytes.len() {
        let row = at.record()?;
        if !row.cells.is_empty() {
            rows.push(row);
        }
    }
    Ok(Grid { rows })
}

/// Where [`parse_delimited`] is in the text: the byte and the line.
struct Cursor<'a> {
    text: &'a str,
    bytes: &'a [u8],
    i: usize,
    line: u32,
    separator: u8,
}

impl Cursor<'_> {
    /// One record from here, up to and past its line end.
    fn record(&mut self) -> Result<RawRow, ParseError> {
        let start = self.i;
        let mut row = RawRow {
            line: self.line,
            ..RawRow::default()
        };
        let mut column: u32 = 0;
        loop {
            let quoted = self.bytes.get(self.i) == Some(&b'"')
                || (self.bytes.get(self.i).is_some_and(|b| *b == b' ')
                    && self.text[self.i..].trim_start_matches(' ').starts_with('"'));
            let (content, span) = if quoted {
                self.quoted_cell()?
            } else {
                self.plain_cell()
            };
            if quoted || !content.is_empty() {
                row.cells.push(RawCell {
                    content: Content::Text {
                        text: content,
                        quoted,
                    },
                    span,
                    column,
                });
            }
            if !self.next_cell() {
                break;
            }
            column += 1;
        }
        let mut end = self.i;
        while end > start && matches!(self.bytes[end - 1], b'\n' | b'\r') {
            end -= 1;
        }
        row.span = start..end;
        Ok(row)
    }

    /// A quoted cell (spaces before its quote skipped): its text and span, the
    /// cursor after the spaces that follow its closing quote.
    fn quoted_cell(&mut self) -> Result<(String, Range<usize>), ParseError> {
        let bytes = self.bytes;
        while bytes[self.i] == b' ' {
            self.i += 1;
        }
        let open = self.i;
        self.i += 1;
        let mut content = String::new();
        loop {
            match bytes.get(self.i) {
                None => {
                    return Err(ParseError {
                        message: "this quoted cell is never closed",
                        span: open..open + 1,
                        hint: "add the closing `\"`; a quote inside a quoted cell is written twice (`\"\"`)",
                    })
                }
                Some(b'"') if bytes.get(self.i + 1) == Some(&b'"') => {
                    content.push('"');
                    self.i += 2;
                }
                Some(b'"') => {
                    self.i += 1;
                    break;
                }
                Some(b'\n') => {
                    self.line += 1;
                    content.push('\n');
                    self.i += 1;
                }
                Some(_) => {
                    let ch = self.text[self.i..].chars().next().unwrap_or('\u{fffd}');
                    if ch != '\r' || bytes.get(self.i + 1) != Some(&b'\n') {
                        content.push(ch);
                    }
                    self.i += ch.len_utf8();
                }
            }
        }
        let span = open..self.i;
        while bytes.get(self.i) == Some(&b' ') {
            self.i += 1;
        }
        match bytes.get(self.i) {
            None | Some(b'\n') | Some(b'\r') => Ok((content, span)),
            Some(b) if *b == self.separator => Ok((content, span)),
            Some(_) => Err(ParseError {
                message: "text after the closing quote of a cell",
                span: span.start..self.i + 1,
                hint: "put the whole cell in quotes, and write a quote inside it twice (`\"\"`)",
            }),
        }
    }

    /// An unquoted cell up to the separator or the line end: its text trimmed of
    /// spaces and the span of that text.
    fn plain_cell(&mut self) -> (String, Range<usize>) {
        let cell_start = self.i;
        while let Some(&b) = self.bytes.get(self.i) {
            if b == self.separator
                || b == b'\n'
                || (b == b'\r' && self.bytes.get(self.i + 1) == Some(&b'\n'))
            {
                break;
            }
            self.i += 1;
        }
        let raw = &self.text[cell_start..self.i];
        let lead = raw.len() - raw.trim_start().len();
        let trimmed = raw.trim();
        let span = cell_start + lead..cell_start + lead + trimmed.len();
        (trimmed.to_string(), span)
    }

    /// Past what ends a cell: true after a separator (the record goes on), false
    /// after a line end or at the end of the text.
    fn next_cell(&mut self) -> bool {
        match self.bytes.get(self.i) {
            Some(b) if *b == self.separator => {
                self.i += 1;
                true
            }
            Some(b'\r') => {
                self.i += if self.bytes.get(self.i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                self.line += 1;
                false
            }
            Some(b'\n') => {
                self.i += 1;
                self.line += 1;
                false
            }
            _ => false,
        }
    }
}

/// Reads every sheet of an XLSX or ODS workbook: one table per sheet with cells,
/// named for the sheet.
pub fn workbook(file: &Path, game: &str, bytes: Vec<u8>, format: Format) -> Reported<Vec<Table>> {
    let unreadable = |e: WorkbookError| {
        Diagnostic::error(format!(
            "{} cannot be read as a workbook: {e}",
            file.display()
        ))
        .at(file, None)
        .with("game", game)
        .hint("save it again from the spreadsheet as .xlsx or .ods, or export the sheet as CSV")
    };
    let sheets = match format {
        Format::Ods => read_ods(bytes),
        _ => read_xlsx(bytes),
    };
    let sheets = match sheets {
        Ok(s) => s,
        Err(e) => return Reported::new(Vec::new(), [unreadable(e)]),
    };
    let mut tables = Vec::new();
    let mut diags = Diagnostics::default();
    for (sheet, grid) in sheets {
        if grid.rows.is_empty() {
            continue; // an unused sheet ("Sheet2")
        }
        let source = Source {
            file,
            game,
            sheet: Some(&sheet),
        };
        tables.extend(table_of(&source, &sheet, grid).into_value(&mut diags));
    }
    if tables.is_empty() && diags.items.is_empty() {
        // Every sheet empty, or none at all: nothing to read is never what a data
        // file means (a damaged workbook reads this way too).
        diags.push(
            Diagnostic::error(format!(
                "{} has no sheet with data: a workbook in data/ needs a sheet whose first row names the columns",
                file.display()
            ))
            .at(file, None)
            .with("game", game)
            .hint("if the spreadsheet shows data, the file may be damaged: save it again as .xlsx or .ods; else remove the file"),
        );
    }
    Reported::new(tables, diags.items)
}

/// A sheet's cells as rows (each row's cells in column order), or why not.
type Sheets = Result<Vec<(String, Grid)>, WorkbookError>;

/// Why a workbook cannot be read; its text follows "<file> cannot be read as a
/// workbook: ".
#[derive(Debug)]
enum WorkbookError {
    /// The zip container is damaged.
    Zip(zip::result::ZipError),
    /// A part of the container cannot be read.
    Io(std::io::Error),
    /// The XLSX reader's error.
    Xlsx(calamine::XlsxError),
    /// The ODS reader's error.
    Ods(calamine::OdsError),
    /// An ODS file's `content.xml` is not XML.
    Xml(roxmltree::Error),
    /// An XLSX part past [`MAX_XLSX_PART`] uncompressed.
    PartTooLarge { part: String },
    /// XLSX parts past [`MAX_XLSX_PARTS`] uncompressed.
    PartsTooLarge,
    /// An ODS `content.xml` past [`MAX_ODS_XML`].
    CellsTooLarge,
    /// More than [`MAX_CELLS`] cells.
    TooManyCells,
    /// More than [`MAX_WORKBOOK_TEXT`] of text in cells.
    TooMuchText,
    /// An ODS sheet whose repeated rows and columns cover more than [`MAX_ODS_AREA`].
    SpreadOut {
        sheet: String,
        rows: u64,
        columns: u64,
    },
    /// An ODS sheet whose repeated cells' text is past [`MAX_WORKBOOK_TEXT`].
    RepeatedText { sheet: String },
    /// A cell that holds no value a game can print (0-based row and column).
    Cell {
        sheet: String,
        row: u32,
        column: u32,
        problem: CellProblem,
    },
}

/// Why a workbook cell holds no value a game can print.
#[derive(Debug)]
enum CellProblem {
    /// A date or a time.
    Date,
    /// A spreadsheet error (`#DIV/0!`).
    Error(calamine::CellErrorType),
}

impl std::fmt::Display for WorkbookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use WorkbookError as E;
        match self {
            E::Zip(e) => std::fmt::Display::fmt(e, f),
            E::Io(e) => std::fmt::Display::fmt(e, f),
            E::Xlsx(e) => std::fmt::Display::fmt(e, f),
            E::Ods(e) => std::fmt::Display::fmt(e, f),
            E::Xml(e) => std::fmt::Display::fmt(e, f),
            E::PartTooLarge { part } => write!(
                f,
                "its part {part} takes more than {} MB uncompressed",
                MAX_XLSX_PART >> 20
            ),
            E::PartsTooLarge => write!(
                f,
                "its parts take more than {} MB uncompressed",
                MAX_XLSX_PARTS >> 20
            ),
            E::CellsTooLarge => write!(
                f,
                "its cells take more than {} MB uncompressed",
                MAX_ODS_XML >> 20
            ),
            E::TooManyCells => write!(f, "it has more than {MAX_CELLS} cells"),
            E::TooMuchText => write!(
                f,
                "its cells hold more than {} MB of text (a string shared by many cells counts for each)",
                MAX_WORKBOOK_TEXT >> 20
            ),
            E::SpreadOut { sheet, rows, columns } => write!(
                f,
                "sheet {sheet} spreads its cells over {rows} rows and {columns} columns, and a sheet may cover at most {MAX_ODS_AREA} cells"
            ),
            E::RepeatedText { sheet } => write!(
                f,
                "sheet {sheet} repeats its cells' text to more than {} MB",
                MAX_WORKBOOK_TEXT >> 20
            ),
            E::Cell {
                sheet,
                row,
                column,
                problem,
            } => write!(
                f,
                "sheet {sheet}, row {}, column {}: {problem}",
                row + 1,
                column_name(*column)
            ),
        }
    }
}

impl std::fmt::Display for CellProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CellProblem::Date => f.write_str("the cell holds a date or time, which a game cannot print as it shows: format the cell as text"),
            CellProblem::Error(e) => write!(f, "the cell holds the spreadsheet error {e}"),
        }
    }
}

/// Groups cells `(row, column, content)` (0-based, any order) into rows.
fn grid_of(mut cells: Vec<(u32, u32, Content)>) -> Grid {
    cells.sort_by_key(|(r, c, _)| (*r, *c));
    let mut rows: Vec<RawRow> = Vec::new();
    for (r, c, content) in cells {
        if rows.last().is_none_or(|last| last.line != r + 1) {
            rows.push(RawRow {
                line: r + 1,
                ..RawRow::default()
            });
        }
        if let Some(last) = rows.last_mut() {
            last.cells.push(RawCell {
                content,
                span: 0..0,
                column: c,
            });
        }
    }
    Grid { rows }
}

/// A workbook cell's content, `None` when empty; an error cell (`#DIV/0!`) or a
/// date is an error message.
fn cell_content(value: &calamine::DataRef) -> Result<Option<Content>, CellProblem> {
    use calamine::DataRef as D;
    let text = |s: &str| {
        if s.trim().is_empty() {
            None
        } else {
            Some(Content::Text {
                text: s.trim().to_string(),
                quoted: true,
            })
        }
    };
    Ok(match value {
        D::Empty => None,
        D::String(s) => text(s),
        D::SharedString(s) => text(s),
        D::DateTimeIso(s) | D::DurationIso(s) => text(s),
        D::Int(i) => Some(Content::Value(toml::Value::Integer(*i))),
        D::Float(f) => Some(Content::Value(number(*f))),
        D::Bool(b) => Some(Content::Value(toml::Value::Boolean(*b))),
        D::DateTime(_) => return Err(CellProblem::Date),
        D::Error(e) => return Err(CellProblem::Error(e.clone())),
    })
}

/// A workbook number: whole numbers as integers (a spreadsheet stores every number
/// as a float, but shows `2`, not `2.0`).
fn number(f: f64) -> toml::Value {
    if f.fract() == 0.0 && f.abs() < 9.0e15 {
        toml::Value::Integer(f as i64)
    } else {
        toml::Value::Float(f)
    }
}

/// Largest part of an XLSX file, uncompressed (its shared strings, a sheet).
pub const MAX_XLSX_PART: u64 = 32 << 20;

/// Largest total of an XLSX file's parts, uncompressed.
pub const MAX_XLSX_PARTS: u64 = 64 << 20;

/// Most text in one workbook's cells, as read: a string shared by many cells
/// counts for each (a 1 MB string in 1,000 cells is 1 GB of cells).
pub const MAX_WORKBOOK_TEXT: usize = 32 << 20;

/// Checks what an XLSX file's parts take uncompressed before the reader reads
/// them: its shared strings are read whole, and a few KB of zip can hold a gigabyte.
fn xlsx_extent(bytes: &[u8]) -> Result<(), WorkbookError> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(WorkbookError::Zip)?;
    let mut total = 0u64;
    for i in 0..zip.len() {
        let mut part = zip.by_index(i).map_err(WorkbookError::Zip)?;
        let name = part.name().map(|n| n.to_string()).unwrap_or_default();
        let n = std::io::copy(
            &mut std::io::Read::take(&mut part, MAX_XLSX_PART + 1),
            &mut std::io::sink(),
        )
        .map_err(WorkbookError::Io)?;
        total = total.saturating_add(n);
        if n > MAX_XLSX_PART {
            return Err(WorkbookError::PartTooLarge { part: name });
        }
        if total > MAX_XLSX_PARTS {
            return Err(WorkbookError::PartsTooLarge);
        }
    }
    Ok(())
}

/// Adds the text of a cell's `content` to `total`; an error past
/// [`MAX_WORKBOOK_TEXT`].
fn count_text(total: &mut usize, content: &Content) -> Result<(), WorkbookError> {
    if let Content::Text { text, .. } = content {
        *total = total.saturating_add(text.len());
        if *total > MAX_WORKBOOK_TEXT {
            return Err(WorkbookError::TooMuchText);
        }
    }
    Ok(())
}

/// The sheets of an XLSX file, read cell by cell (a sheet's declared size is not
/// trusted: its cells are counted against [`MAX_CELLS`], their text against
/// [`MAX_WORKBOOK_TEXT`]).
fn read_xlsx(bytes: Vec<u8>) -> Sheets {
    use calamine::Reader;
    xlsx_extent(&bytes)?;
    let mut book: calamine::Xlsx<_> =
        calamine::Xlsx::new(std::io::Cursor::new(bytes)).map_err(WorkbookError::Xlsx)?;
    let mut out = Vec::new();
    let mut total = 0;
    let mut text = 0;
    for name in book.sheet_names() {
        let mut reader = book
            .worksheet_cells_reader(&name)
            .map_err(WorkbookError::Xlsx)?;
        let mut cells = Vec::new();
        while let Some(cell) = reader.next_cell().map_err(WorkbookError::Xlsx)? {
            let (r, c) = cell.get_position();
            let content =
                cell_content(cell.get_value()).map_err(|problem| WorkbookError::Cell {
                    sheet: name.clone(),
                    row: r,
                    column: c,
                    problem,
                })?;
            if let Some(content) = content {
                total += 1;
                if total > MAX_CELLS {
                    return Err(WorkbookError::TooManyCells);
                }
                count_text(&mut text, &content)?;
                cells.push((r, c, content));
            }
        }
        drop(reader);
        out.push((name, grid_of(cells)));
    }
    Ok(out)
}

/// Most cells an ODS sheet may spread its filled cells over (rows x columns, up to
/// the last filled one): the reader lays a sheet out cell by cell.
pub const MAX_ODS_AREA: u64 = 4_000_000;

/// Largest `content.xml` read from an ODS file (its cells, uncompressed).
pub const MAX_ODS_XML: u64 = 32 << 20;

/// Checks what an ODS file's rows and cells would expand to before the reader
/// expands them: ODS says how often a row or cell repeats, and a damaged file can
/// claim millions in a few bytes.
fn ods_extent(bytes: &[u8]) -> Result<(), WorkbookError> {
    use std::io::Read;
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(WorkbookError::Zip)?;
    let mut xml = String::new();
    zip.by_name("content.xml")
        .map_err(WorkbookError::Zip)?
        .take(MAX_ODS_XML + 1)
        .read_to_string(&mut xml)
        .map_err(WorkbookError::Io)?;
    if xml.len() as u64 > MAX_ODS_XML {
        return Err(WorkbookError::CellsTooLarge);
    }
    let doc = roxmltree::Document::parse(&xml).map_err(WorkbookError::Xml)?;
    let repeat = |n: roxmltree::Node, name: &str| -> u64 {
        n.attributes()
            .find(|a| a.name() == name)
            .and_then(|a| a.value().parse().ok())
            .unwrap_or(1)
    };
    let mut text = 0u64;
    for table in doc.descendants().filter(|n| n.tag_name().name() == "table") {
        let (mut row, mut rows, mut cols) = (0u64, 0u64, 0u64);
        let mut filled = 0u64;
        let table_rows = table
            .descendants()
            .filter(|n| n.tag_name().name() == "table-row");
        for r in table_rows {
            let times = repeat(r, "number-rows-repeated");
            let mut col = 0u64;
            for c in r.children().filter(|c| c.is_element()) {
                let across = repeat(c, "number-columns-repeated");
                let full = c.has_children() || c.attributes().any(|a| a.name() == "value-type");
                if full {
                    cols = cols.max(col.saturating_add(across));
                    rows = rows.max(row.saturating_add(times));
                    filled = filled.saturating_add(across.saturating_mul(times));
                    let chars: usize = c
                        .descendants()
                        .filter_map(|d| d.text().filter(|_| d.is_text()))
                        .map(str::len)
                        .sum();
                    text = text.saturating_add(
                        (chars as u64).saturating_mul(across).saturating_mul(times),
                    );
                }
                col = col.saturating_add(across);
            }
            row = row.saturating_add(times);
        }
        let name = table
            .attributes()
            .find(|a| a.name() == "name")
            .map_or("", |a| a.value());
        if rows.saturating_mul(cols) > MAX_ODS_AREA || filled > MAX_CELLS as u64 {
            return Err(WorkbookError::SpreadOut {
                sheet: name.to_string(),
                rows,
                columns: cols,
            });
        }
        if text > MAX_WORKBOOK_TEXT as u64 {
            return Err(WorkbookError::RepeatedText {
                sheet: name.to_string(),
            });
        }
    }
    Ok(())
}

/// The sheets of an ODS file.
fn read_ods(bytes: Vec<u8>) -> Sheets {
    use calamine::Reader;
    ods_extent(&bytes)?;
    let mut book: calamine::Ods<_> =
        calamine::Ods::new(std::io::Cursor::new(bytes)).map_err(WorkbookError::Ods)?;
    let mut out = Vec::new();
    let mut total = 0;
    let mut text = 0;
    for name in book.sheet_names() {
        let range = book.worksheet_range(&name).map_err(WorkbookError::Ods)?;
        let mut cells = Vec::new();
        for (r, c, value) in range.used_cells() {
            let (r, c) = (
                range.start().map_or(0, |s| s.0) + r as u32,
                range.start().map_or(0, |s| s.1) + c as u32,
            );
            use calamine::{Data, DataRef};
            let value = match value {
                Data::Int(i) => DataRef::Int(*i),
                Data::Float(f) => DataRef::Float(*f),
                Data::String(s) => DataRef::SharedString(s),
                Data::Bool(b) => DataRef::Bool(*b),
                Data::DateTime(d) => DataRef::DateTime(*d),
                Data::DateTimeIso(s) => DataRef::DateTimeIso(s.clone()),
                Data::DurationIso(s) => DataRef::DurationIso(s.clone()),
                Data::Error(e) => DataRef::Error(e.clone()),
                Data::Empty => DataRef::Empty,
            };
            let content = cell_content(&value).map_err(|problem| WorkbookError::Cell {
                sheet: name.clone(),
                row: r,
                column: c,
                problem,
            })?;
            if let Some(content) = content {
                total += 1;
                if total > MAX_CELLS {
                    return Err(WorkbookError::TooManyCells);
                }
                count_text(&mut text, &content)?;
                cells.push((r, c, content));
            }
        }
        out.push((name, grid_of(cells)));
    }
    Ok(out)
}

/// One column: where its field goes.
#[derive(Debug, Clone)]
struct Column {
    /// `a.b` → `["a", "b"]`.
    path: Vec<String>,
    /// `name[]`: split cells at `;`.
    list: bool,
    span: Range<usize>,
}

/// A header cell as a column (its field path, and whether it is a list), `None`
/// when it names no field.
fn column(header: &str) -> Option<(Vec<String>, bool)> {
    let (name, list) = match header.strip_suffix("[]") {
        Some(n) => (n.trim_end(), true),
        None => (header, false),
    };
    let path: Vec<String> = name.split('.').map(|s| s.trim().to_string()).collect();
    if path.iter().any(String::is_empty) {
        return None;
    }
    Some((path, list))
}

/// A table from a grid whose first row is the header.
fn table_of(source: &Source, name: &str, grid: Grid) -> Reported<Option<Table>> {
    let mut rows = grid.rows.into_iter();
    let Some(header) = rows.next() else {
        // An empty file is an empty table.
        return Some(new_table(source, name, Vec::new(), 1, Vec::new())).into();
    };
    let Reported {
        value: columns,
        diags,
    } = columns_of(source, &header);
    let mut diags = diags.items;
    if diags.iter().any(Diagnostic::is_error) {
        return Reported::new(None, diags);
    }
    let mut out = Vec::new();
    for raw in rows {
        out.push(row_of(source, &columns, raw, &mut diags));
    }
    let cells = columns
        .iter()
        .map(|(&column, c)| HeaderCell {
            field: c.path[0].clone(),
            column,
            span: c.span.clone(),
        })
        .collect();
    Reported::new(
        Some(new_table(source, name, out, header.line, cells)),
        diags,
    )
}

/// The columns the header row names, by column number, with the problems of
/// header cells that name no field or a field another column sets.
fn columns_of(source: &Source, header: &RawRow) -> Reported<BTreeMap<u32, Column>> {
    let mut diags = Vec::new();
    let mut columns: BTreeMap<u32, Column> = BTreeMap::new();
    let mut seen: BTreeMap<String, u32> = BTreeMap::new();
    for cell in &header.cells {
        let text = match &cell.content {
            Content::Text { text, .. } => text.clone(),
            Content::Value(v) => v.to_string(),
        };
        let place = |d: Diagnostic| source.at(d, header.line, Some(cell.column), &cell.span);
        let Some((path, list)) = column(&text) else {
            diags.push(place(Diagnostic::error(format!("column header `{text}` is not a field name"))).hint(
                "the first row names the fields: `id`, `name`, `qty`, `goods[]` (a list), `pos.x` (a field of a table)",
            ));
            continue;
        };
        let joined = path.join(".");
        // `pos` and `pos.x` cannot both be columns; neither can a name twice.
        if let Some((other, &other_col)) = clash(&seen, &joined) {
            diags.push(
                place(Diagnostic::error(format!(
                    "column `{text}` and column {} (`{other}`) both set the field `{}`",
                    column_name(other_col),
                    path[0]
                )))
                .hint("give every column its own field name"),
            );
            continue;
        }
        seen.insert(joined, cell.column);
        columns.insert(
            cell.column,
            Column {
                path,
                list,
                span: cell.span.clone(),
            },
        );
    }
    Reported::new(columns, diags)
}

/// One data row: each cell's value at its column's field; a value in a column
/// the header does not name is a problem.
fn row_of(
    source: &Source,
    columns: &BTreeMap<u32, Column>,
    raw: RawRow,
    diags: &mut Vec<Diagnostic>,
) -> Row {
    let mut fields: BTreeMap<String, Field> = BTreeMap::new();
    for cell in raw.cells {
        let Some(col) = columns.get(&cell.column) else {
            diags.push(
                source
                    .at(
                        Diagnostic::error(format!(
                            "a value in column {}, which has no name in the header row",
                            column_name(cell.column)
                        )),
                        raw.line,
                        Some(cell.column),
                        &cell.span,
                    )
                    .hint("name the column in the first row, or remove the value"),
            );
            continue;
        };
        let value = cell_value(&cell.content, col.list);
        insert(&mut fields, col, &cell, value);
    }
    Row {
        span: raw.span,
        fields,
        derived: BTreeMap::new(),
        line: Some(raw.line),
    }
}

/// A cell's value: split at `;` for a list column, typed when it is unquoted text.
fn cell_value(content: &Content, list: bool) -> toml::Value {
    match (content, list) {
        (Content::Text { text, .. }, true) => toml::Value::Array(
            text.split(';')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(typed)
                .collect(),
        ),
        (Content::Value(v), true) => toml::Value::Array(vec![v.clone()]),
        (Content::Text { text, quoted: true }, false) => toml::Value::String(text.clone()),
        (
            Content::Text {
                text,
                quoted: false,
            },
            false,
        ) => typed(text),
        (Content::Value(v), false) => v.clone(),
    }
}

/// The column already `seen` (field path, column) that sets the same field as the
/// path `joined`: the same path, one inside it (`pos.x` for `pos`) or one it is
/// inside. A few lookups in the sorted names, so a header of 40,000 columns is read
/// in time linear in its length.
fn clash<'a>(seen: &'a BTreeMap<String, u32>, joined: &str) -> Option<(&'a String, &'a u32)> {
    if let Some(hit) = seen.get_key_value(joined) {
        return Some(hit);
    }
    let inside = format!("{joined}.");
    if let Some(hit) = seen.range(inside.clone()..).next() {
        if hit.0.starts_with(&inside) {
            return Some(hit);
        }
    }
    joined
        .match_indices('.')
        .find_map(|(at, _)| seen.get_key_value(&joined[..at]))
}

fn new_table(
    source: &Source,
    name: &str,
    rows: Vec<Row>,
    header: u32,
    cells: Vec<HeaderCell>,
) -> Table {
    Table {
        name: name.to_string(),
        file: source.file.to_path_buf(),
        rows,
        sheet: source.sheet.map(|s| (s.to_string(), header)),
        header: Some(cells),
    }
}

/// Puts one cell's value into a row: at its field, or inside a table field for a
/// dotted column.
fn insert(fields: &mut BTreeMap<String, Field>, col: &Column, cell: &RawCell, value: toml::Value) {
    let field = fields.entry(col.path[0].clone()).or_insert_with(|| Field {
        key_span: col.span.clone(),
        span: cell.span.clone(),
        value: if col.path.len() > 1 {
            toml::Value::Table(toml::Table::new())
        } else {
            toml::Value::Boolean(false)
        },
        column: Some(cell.column),
    });
    if col.path.len() == 1 {
        field.value = value;
        return;
    }
    let mut table = &mut field.value;
    for key in &col.path[1..col.path.len() - 1] {
        let toml::Value::Table(t) = table else { return };
        table = t
            .entry(key.clone())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
    }
    if let toml::Value::Table(t) = table {
        t.insert(col.path[col.path.len() - 1].clone(), value);
    }
}

/// An unquoted cell's value: a number, a boolean, or text. A number with a leading
/// zero (`007`) stays text.
pub fn typed(text: &str) -> toml::Value {
    if text.eq_ignore_ascii_case("true") {
        return toml::Value::Boolean(true);
    }
    if text.eq_ignore_ascii_case("false") {
        return toml::Value::Boolean(false);
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match digits.find(['e', 'E']) {
        Some(i) => (&digits[..i], Some(&digits[i + 1..])),
        None => (digits, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (mantissa, None),
    };
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let well_formed = (all_digits(whole) || (whole.is_empty() && fraction.is_some()))
        && fraction.is_none_or(all_digits)
        && exponent.is_none_or(|e| all_digits(e.strip_prefix(['-', '+']).unwrap_or(e)));
    let leading_zero = whole.len() > 1 && whole.starts_with('0');
    if !well_formed || leading_zero {
        return toml::Value::String(text.to_string());
    }
    if fraction.is_none() && exponent.is_none() {
        if let Ok(i) = text.parse::<i64>() {
            return toml::Value::Integer(i);
        }
    }
    match text.parse::<f64>() {
        Ok(f) if f.is_finite() => toml::Value::Float(f),
        _ => toml::Value::String(text.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> (Option<Table>, Vec<Diagnostic>) {
        let r = delimited(Path::new("data/g/card.csv"), "g", "card", text, false);
        (r.value, r.diags.items)
    }

    #[test]
    fn cells_are_typed() {
        assert_eq!(typed("3"), toml::Value::Integer(3));
        assert_eq!(typed("-2"), toml::Value::Integer(-2));
        assert_eq!(typed("0"), toml::Value::Integer(0));
        assert_eq!(typed("0.5"), toml::Value::Float(0.5));
        assert_eq!(typed("1e3"), toml::Value::Float(1000.0));
        assert_eq!(typed("007"), toml::Value::String("007".into()));
        assert_eq!(typed("TRUE"), toml::Value::Boolean(true));
        assert_eq!(typed("nan"), toml::Value::String("nan".into()));
        assert_eq!(typed("1,000"), toml::Value::String("1,000".into()));
        assert_eq!(typed("12a"), toml::Value::String("12a".into()));
        assert_eq!(typed("."), toml::Value::String(".".into()));
    }

    #[test]
    fn rows_fields_and_spans() {
        let text =
            "id,name,qty,goods[],pos.x\r\nace,\"Ace, high\",2,bread; coal,3\n\ntwo,\"007\",,x,\n";
        let (t, d) = table(text);
        assert!(d.is_empty(), "{d:?}");
        let t = t.unwrap();
        assert_eq!(t.rows.len(), 2);
        let ace = &t.rows[0];
        assert_eq!(ace.line, Some(2));
        assert_eq!(ace.fields["name"].value.as_str(), Some("Ace, high"));
        assert_eq!(&text[ace.fields["name"].span.clone()], "\"Ace, high\"");
        assert_eq!(&text[ace.fields["qty"].key_span.clone()], "qty");
        assert_eq!(ace.fields["qty"].value, toml::Value::Integer(2));
        assert_eq!(ace.fields["goods"].value.as_array().map(Vec::len), Some(2));
        assert_eq!(
            ace.fields["pos"].value.get("x"),
            Some(&toml::Value::Integer(3))
        );
        let two = &t.rows[1];
        assert_eq!(two.line, Some(4));
        assert_eq!(two.fields["name"].value.as_str(), Some("007"));
        assert!(!two.fields.contains_key("qty"), "an empty cell is no value");
        assert!(!two.fields.contains_key("pos"));
    }

    #[test]
    fn quoted_line_breaks_and_semicolons() {
        let text = "id;text\na;\"two\nlines\"\nb;\"say \"\"hi\"\"\"\n";
        let (t, d) = table(text);
        assert!(d.is_empty(), "{d:?}");
        let t = t.unwrap();
        assert_eq!(t.rows[0].fields["text"].value.as_str(), Some("two\nlines"));
        assert_eq!(t.rows[1].line, Some(4));
        assert_eq!(t.rows[1].fields["text"].value.as_str(), Some("say \"hi\""));
    }

    #[test]
    fn errors_point_at_cells() {
        let (_, d) = table("id,name\na,\"open\n");
        assert_eq!(d[0].message, "this quoted cell is never closed");
        assert_eq!(d[0].span, Some(10..11));
        let (_, d) = table("id,id\na,b\n");
        assert!(d[0].message.contains("both set the field `id`"), "{d:?}");
        let (t, d) = table("id\na,b\n");
        assert!(
            d[0].message.contains("column B, which has no name"),
            "{d:?}"
        );
        assert_eq!(d[0].span, Some(5..6));
        assert_eq!(t.unwrap().rows.len(), 1);
    }

    #[test]
    fn column_names() {
        assert_eq!(column_name(0), "A");
        assert_eq!(column_name(25), "Z");
        assert_eq!(column_name(26), "AA");
        assert_eq!(column_name(27), "AB");
        assert_eq!(column_name(701), "ZZ");
        assert_eq!(column_name(702), "AAA");
    }
}
