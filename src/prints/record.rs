//! A print record as text: TOML, one value a line, so that it reads well and
//! diffs well. Every line that is not blank or a comment ends with a check of its
//! own text and place (`  # 1a2b3c4d`), and the last line closes the record: a line
//! edited, added or removed, or a record cut short, is an error at that line.
//!
//! ```toml
//! [print]  # 0a1b2c3d
//! game = "interstate-trucking"  # ...
//! number = 2
//! date = "2025-06-01"
//! note = "after the second playtest"
//! profile = "home"
//! paper = "letter"
//! cardstock = "0.1.0"
//!
//! [rules]                       # [rules] as printed, a value a line
//! fee.base = 700
//!
//! [templates]                   # every template's version
//! "interstate-trucking/contract.svg" = "9a8b7c6d"
//!
//! [tables.contract]             # every data row, derived fields included
//! "#1" = { good = "vegetables", city = "denver", moves = 13, fee = 2000 }
//!
//! [sets.contracts]              # every set printed
//! name = "Contract cards"
//! kind = "card"
//! table = "contract"
//! front = "interstate-trucking/contract.svg"
//!
//! [sets.contracts.parts]        # every part: copies, revision, faces, where
//! "#1" = { qty = 1, revision = 1, front = "…", back = "…", at = "interstate-trucking.pdf p1 #1" }
//! # end of print record 2
//! ```

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::hash::{short, FaceHash};
use crate::diag::Diagnostic;
use crate::model::Spanned;

/// One print: what was printed, part by part, and the data it was printed from.
#[derive(Debug, Clone, Default)]
pub struct Record {
    /// The record's file, `prints/<game>/002-2025-06-01.toml`.
    pub file: PathBuf,
    pub number: u32,
    pub game: String,
    /// The day it was recorded, `YYYY-MM-DD`.
    pub date: String,
    pub note: String,
    /// The profile and paper it was printed with.
    pub profile: String,
    pub paper: String,
    /// The cardstock version that wrote it.
    pub cardstock: String,
    /// `[rules]` as printed.
    pub rules: toml::Table,
    /// Every template of the game (and the shared ones) by name: a hash of its text.
    pub templates: BTreeMap<String, String>,
    /// Every data table by name: its rows in order, derived fields included.
    pub tables: BTreeMap<String, Vec<RowRecord>>,
    /// Every set printed, in the game's order.
    pub sets: Vec<SetRecord>,
}

/// A data row as printed: its key (id or `#n`) and its fields.
#[derive(Debug, Clone, PartialEq)]
pub struct RowRecord {
    pub key: String,
    pub fields: toml::Table,
}

/// A component set as printed.
#[derive(Debug, Clone, Default)]
pub struct SetRecord {
    pub id: String,
    pub name: String,
    pub kind: String,
    pub table: Option<String>,
    /// Its templates (names as in `[templates]`).
    pub front: Option<String>,
    pub back: Option<String>,
    pub layer: Option<String>,
    pub parts: Vec<PartRecord>,
    /// Where the set's id is in the record's text.
    pub span: Range<usize>,
}

/// One part as printed ([`super::key`] says what its key is).
#[derive(Debug, Clone, PartialEq)]
pub struct PartRecord {
    pub key: String,
    pub qty: u32,
    pub revision: u32,
    pub front: FaceHash,
    pub back: Option<FaceHash>,
    /// Where it printed: `interstate-trucking.pdf p1 #1-3` (file, page, places).
    pub at: String,
}

/// The start of a record's last line, which closes it.
const END: &str = "# end of print record ";

/// The record's last line.
fn end_line(number: u32) -> String {
    format!("{END}{number}")
}

/// The check of line `n` (1-based) holding `content`.
fn check(n: usize, content: &str) -> String {
    short(&format!("{n}\u{0}{content}"))
}

/// A TOML key: bare when it can be, else a quoted string.
pub fn key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        k.to_string()
    } else {
        string(k)
    }
}

/// A TOML basic string on one line (newlines and controls escaped).
fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A TOML value written on one line (inline tables and arrays).
pub fn inline(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => string(s),
        toml::Value::Array(items) => {
            let items: Vec<String> = items.iter().map(inline).collect();
            format!("[{}]", items.join(", "))
        }
        toml::Value::Table(t) if t.is_empty() => "{}".into(),
        toml::Value::Table(t) => {
            let fields: Vec<String> = t
                .iter()
                .map(|(k, v)| format!("{} = {}", key(k), inline(v)))
                .collect();
            format!("{{ {} }}", fields.join(", "))
        }
        other => other.to_string(),
    }
}

/// The lines of a record being written: each value line gets its check at the end.
#[derive(Default)]
struct Lines {
    lines: Vec<String>,
}

impl Lines {
    /// A value or header line.
    fn line(&mut self, content: String) {
        let n = self.lines.len() + 1;
        let c = check(n, &content);
        self.lines.push(format!("{content}  # {c}"));
    }

    /// `key = value`.
    fn value(&mut self, k: &str, v: &toml::Value) {
        self.line(format!("{} = {}", key(k), inline(v)));
    }

    /// A comment or blank line (not checked).
    fn note(&mut self, text: &str) {
        self.lines.push(text.to_string());
    }
}

/// `[rules]` as dotted keys, one value a line (tables of tables opened up).
fn rules_lines(out: &mut Lines, prefix: &str, t: &toml::Table) {
    for (k, v) in t {
        let path = if prefix.is_empty() {
            key(k)
        } else {
            format!("{prefix}.{}", key(k))
        };
        match v {
            toml::Value::Table(inner) if !inner.is_empty() => rules_lines(out, &path, inner),
            _ => out.line(format!("{path} = {}", inline(v))),
        }
    }
}

impl Record {
    /// The record as text.
    pub fn to_text(&self, game_name: &str) -> String {
        let mut out = Lines::default();
        out.note(&format!(
            "# Print record {} of {game_name}, written by `cardstock printed`: every part",
            self.number
        ));
        out.note("# printed, and the data and templates it was printed from. `cardstock reprint`");
        out.note("# compares the game with it. Commit it with the game; do not edit it (each line");
        out.note("# ends with a check of its own text: an edited line is an error).");
        out.note("");
        out.line("[print]".into());
        let text = |s: &str| toml::Value::String(s.to_string());
        out.value("game", &text(&self.game));
        out.value("number", &toml::Value::Integer(self.number.into()));
        out.value("date", &text(&self.date));
        out.value("note", &text(&self.note));
        out.value("profile", &text(&self.profile));
        out.value("paper", &text(&self.paper));
        out.value("cardstock", &text(&self.cardstock));
        out.note("");
        out.note("# [rules] as printed.");
        out.line("[rules]".into());
        rules_lines(&mut out, "", &self.rules);
        out.note("");
        out.note("# Every template: the start of a hash of its text.");
        out.line("[templates]".into());
        for (name, h) in &self.templates {
            out.value(name, &text(h));
        }
        for (name, rows) in &self.tables {
            out.note("");
            out.line(format!("[tables.{}]", key(name)));
            for r in rows {
                out.value(&r.key, &toml::Value::Table(r.fields.clone()));
            }
        }
        for s in &self.sets {
            self.set_lines(&mut out, s);
        }
        out.line(end_line(self.number));
        let mut text = out.lines.join("\n");
        text.push('\n');
        text
    }

    fn set_lines(&self, out: &mut Lines, s: &SetRecord) {
        let text = |s: &str| toml::Value::String(s.to_string());
        out.note("");
        out.line(format!("[sets.{}]", key(&s.id)));
        out.value("name", &text(&s.name));
        out.value("kind", &text(&s.kind));
        for (k, v) in [
            ("table", &s.table),
            ("front", &s.front),
            ("back", &s.back),
            ("layer", &s.layer),
        ] {
            if let Some(v) = v {
                out.value(k, &text(v));
            }
        }
        out.line(format!("[sets.{}.parts]", key(&s.id)));
        for p in &s.parts {
            let mut t = toml::Table::new();
            t.insert("qty".into(), toml::Value::Integer(p.qty.into()));
            t.insert("revision".into(), toml::Value::Integer(p.revision.into()));
            t.insert("front".into(), text(&p.front.to_string()));
            if let Some(b) = p.back {
                t.insert("back".into(), text(&b.to_string()));
            }
            t.insert("at".into(), text(&p.at));
            out.value(&p.key, &toml::Value::Table(t));
        }
    }
}

/// Why a record cannot be read.
#[derive(Debug, Clone, PartialEq)]
pub enum Damage {
    /// A line whose check does not match (edited, or lines added or removed above).
    Edited { line: usize },
    /// The record ends before its last line.
    CutShort { lines: usize },
    /// Not TOML as cardstock writes it.
    Syntax {
        message: String,
        span: Option<Range<usize>>,
    },
    /// A value cardstock would not have written.
    Value { message: String, span: Range<usize> },
    /// A record of another game (`game`).
    OtherGame { game: String, span: Range<usize> },
}

impl Damage {
    /// The error, at the record's line.
    pub fn diagnostic(&self, file: &Path, text: &str) -> Diagnostic {
        let hint = format!(
            "a print record says what was printed: restore it from version control (`git checkout {}`), or delete it and record the print again with `cardstock printed`",
            file.display()
        );
        let line = |n: usize| crate::diag::line_span(text, n);
        let (message, span) = match self {
            Damage::Edited { line: n } => (
                format!("print record: line {n} was changed after cardstock wrote it (or a line above it was added or removed)"),
                line(*n),
            ),
            Damage::CutShort { lines } => (
                format!("print record is cut short: it ends at line {lines} without its last line, `# end of print record ...`"),
                line(*lines),
            ),
            Damage::Syntax { message, span } => {
                (format!("print record is damaged: {message}"), span.clone())
            }
            Damage::Value { message, span } => {
                (format!("print record: {message}"), Some(span.clone()))
            }
            Damage::OtherGame { game, span } => {
                let here = file.parent().and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                return Diagnostic::error(format!(
                    "print record of the game `{game}` in the records of `{here}`"
                ))
                .at(file, Some(span.clone()))
                .hint(format!(
                    "each game keeps its own records: move it to {}/{game}/",
                    super::FOLDER
                ));
            }
        };
        Diagnostic::error(message).at(file, span).hint(hint)
    }
}

/// Checks every line of a record's `text` and its end.
fn check_lines(text: &str) -> Result<(), Damage> {
    let lines: Vec<&str> = text.lines().collect();
    let last = lines
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .unwrap_or(0);
    for (i, raw) in lines.iter().enumerate() {
        let n = i + 1;
        let l = raw.trim_end_matches('\r');
        let is_end = i == last && l.starts_with(END);
        if !is_end && (l.trim().is_empty() || l.trim_start().starts_with('#')) {
            continue;
        }
        let ok = l.rsplit_once("  # ").is_some_and(|(content, c)| {
            c == check(n, content) && (!is_end || content.starts_with(END))
        });
        if !ok {
            return Err(Damage::Edited { line: n });
        }
        if is_end {
            return Ok(());
        }
    }
    Err(Damage::CutShort { lines: last + 1 })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDe {
    print: HeaderDe,
    #[serde(default)]
    rules: toml::Table,
    #[serde(default)]
    templates: BTreeMap<String, String>,
    #[serde(default)]
    tables: toml::Table,
    #[serde(default)]
    sets: BTreeMap<Spanned<String>, SetDe>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HeaderDe {
    game: Spanned<String>,
    number: Spanned<u32>,
    date: String,
    note: String,
    profile: String,
    paper: String,
    cardstock: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetDe {
    name: String,
    kind: String,
    table: Option<String>,
    front: Option<String>,
    back: Option<String>,
    layer: Option<String>,
    #[serde(default)]
    parts: BTreeMap<String, Spanned<PartDe>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PartDe {
    qty: u32,
    revision: u32,
    front: String,
    back: Option<String>,
    at: String,
}

/// Reads the record `file` (numbered `number` by its name) of game `game`.
pub fn read(file: &Path, text: &str, game: &str, number: u32) -> Result<Record, Damage> {
    check_lines(text)?;
    let de: FileDe = toml::from_str(text).map_err(|e| Damage::Syntax {
        message: e.message().lines().next().unwrap_or("").to_string(),
        span: e.span(),
    })?;
    check_header(&de.print, game, number)?;
    let tables = table_records(&de.tables);
    let mut sets = Vec::new();
    for (id, s) in de.sets {
        sets.push(SetRecord {
            span: id.span(),
            id: id.into_inner(),
            name: s.name,
            kind: s.kind,
            table: s.table,
            front: s.front,
            back: s.back,
            layer: s.layer,
            parts: part_records(s.parts)?,
        });
    }
    Ok(Record {
        file: file.to_path_buf(),
        number,
        game: game.to_string(),
        date: de.print.date,
        note: de.print.note,
        profile: de.print.profile,
        paper: de.print.paper,
        cardstock: de.print.cardstock,
        rules: de.rules,
        templates: de.templates,
        tables,
        sets,
    })
}

/// A damaged value at `span` of a record.
fn bad(message: String, span: Range<usize>) -> Damage {
    Damage::Value { message, span }
}

/// That the record's header numbers it `number` and names game `game`.
fn check_header(h: &HeaderDe, game: &str, number: u32) -> Result<(), Damage> {
    if *h.number.get_ref() != number {
        return Err(bad(
            format!(
                "it says it is record {}, but its file name numbers it {number}",
                h.number.get_ref()
            ),
            h.number.span(),
        ));
    }
    if h.game.get_ref() != game {
        return Err(Damage::OtherGame {
            game: h.game.get_ref().clone(),
            span: h.game.span(),
        });
    }
    Ok(())
}

/// The rows of every table the record holds, by table name.
fn table_records(de: &toml::Table) -> BTreeMap<String, Vec<RowRecord>> {
    let mut tables = BTreeMap::new();
    for (name, rows) in de {
        let Some(rows) = rows.as_table() else {
            continue;
        };
        let rows = rows
            .iter()
            .map(|(k, v)| RowRecord {
                key: k.clone(),
                fields: v.as_table().cloned().unwrap_or_default(),
            })
            .collect();
        tables.insert(name.clone(), rows);
    }
    tables
}

/// The parts of one set, each checked (face hashes, copies and revision from 1).
fn part_records(parts: BTreeMap<String, Spanned<PartDe>>) -> Result<Vec<PartRecord>, Damage> {
    let mut out = Vec::new();
    for (k, p) in parts {
        let span = p.span();
        let p = p.into_inner();
        let hash = |h: &str| {
            FaceHash::parse(h).ok_or_else(|| {
                bad(
                    format!("part `{k}`: `{h}` is not a face hash"),
                    span.clone(),
                )
            })
        };
        if p.qty == 0 || p.revision == 0 {
            return Err(bad(
                format!("part `{k}`: copies and revision start at 1"),
                span,
            ));
        }
        out.push(PartRecord {
            front: hash(&p.front)?,
            back: p.back.as_deref().map(hash).transpose()?,
            key: k,
            qty: p.qty,
            revision: p.revision,
            at: p.at,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Record {
        let mut rules = toml::Table::new();
        rules.insert("hand".into(), 5.into());
        let mut fee = toml::Table::new();
        fee.insert("base".into(), 700.into());
        fee.insert("per move".into(), 100.into());
        rules.insert("fee".into(), toml::Value::Table(fee));
        let mut row = toml::Table::new();
        row.insert("text".into(), "Draw **two**,\nthen \"discard\"".into());
        row.insert(
            "goods".into(),
            toml::Value::Array(vec!["a".into(), "b".into()]),
        );
        let h = FaceHash::of("x", (1.0, 1.0), "");
        Record {
            file: "prints/g/001-2025-01-02.toml".into(),
            number: 1,
            game: "g".into(),
            date: "2025-01-02".into(),
            note: "first # playtest".into(),
            profile: "home".into(),
            paper: "letter".into(),
            cardstock: "0.1.0".into(),
            rules,
            templates: [("g/card.svg".to_string(), "0a1b2c3d".to_string())].into(),
            tables: [(
                "card".to_string(),
                vec![RowRecord {
                    key: "#1".into(),
                    fields: row,
                }],
            )]
            .into(),
            sets: vec![SetRecord {
                id: "cards".into(),
                name: "Cards".into(),
                kind: "card".into(),
                table: Some("card".into()),
                front: Some("g/card.svg".into()),
                parts: vec![PartRecord {
                    key: "#1".into(),
                    qty: 2,
                    revision: 3,
                    front: h,
                    back: Some(h),
                    at: "g.pdf p1 #1-2".into(),
                }],
                ..SetRecord::default()
            }],
        }
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let r = sample();
        let text = r.to_text("G");
        let back = read(&r.file, &text, "g", 1).unwrap();
        assert_eq!(back.rules, r.rules);
        assert_eq!(back.tables, r.tables);
        assert_eq!(back.sets[0].parts, r.sets[0].parts);
        assert_eq!(back.note, r.note);
        assert_eq!(back.templates, r.templates);
        assert!(text.lines().all(|l| !l.contains("\"\"\"")), "{text}");
        assert!(text.contains("fee.base = 700"), "{text}");
    }

    #[test]
    fn an_edited_added_removed_or_missing_line_is_an_error_at_its_line() {
        let text = sample().to_text("G");
        let lines: Vec<&str> = text.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.starts_with("\"#1\" = { qty"))
            .unwrap();
        let edited = text.replace("qty = 2", "qty = 3");
        assert_eq!(check_lines(&edited), Err(Damage::Edited { line: at + 1 }));
        let mut fewer = lines.clone();
        fewer.remove(at);
        assert_eq!(
            check_lines(&fewer.join("\n")),
            Err(Damage::Edited { line: at + 1 })
        );
        let cut = lines[..at + 1].join("\n");
        assert_eq!(check_lines(&cut), Err(Damage::CutShort { lines: at + 1 }));
        // Comments and blank lines may change; CRLF line ends read the same.
        let noted = text
            .replace("# compares", "# (edited) compares")
            .replace('\n', "\r\n");
        assert_eq!(check_lines(&noted), Ok(()));
        let other = read(Path::new("x"), &text, "h", 1).unwrap_err();
        assert!(matches!(other, Damage::OtherGame { ref game, .. } if game == "g"));
        let renumbered = read(Path::new("x"), &text, "g", 2).unwrap_err();
        assert!(
            matches!(renumbered, Damage::Value { ref message, .. } if message.contains("record 1, but its file name numbers it 2"))
        );
    }
}
