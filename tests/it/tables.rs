//! Data tables from spreadsheets: XLSX and ODS workbooks (each sheet a table named
//! for the sheet, formula results as values) build like TOML tables, and a bad
//! cell is named by file, sheet, row and column. CSV cases are fixtures
//! (`tests/fixtures/*csv*`).

use std::path::Path;

use crate::common::*;

/// A workbook with the sheet `card` (the `value` of `three` a formula), an empty
/// `Sheet2`, and `qty` of `two` as given.
pub(crate) fn cards_xlsx(path: &Path, two_qty: f64) {
    use rust_xlsxwriter::{Formula, Workbook};
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    sheet.set_name("card").unwrap();
    for (c, h) in ["id", "name", "suit", "value", "qty"].iter().enumerate() {
        sheet.write(0, c as u16, *h).unwrap();
    }
    sheet.write(1, 0, "ace").unwrap();
    sheet.write(1, 1, "Ace of Sheets").unwrap();
    sheet.write(1, 2, "sun").unwrap();
    sheet.write(1, 3, 1).unwrap();
    sheet.write(2, 0, "two").unwrap();
    sheet.write(2, 1, "Two").unwrap();
    sheet.write(2, 2, "moon").unwrap();
    sheet.write(2, 3, 2).unwrap();
    sheet.write(2, 4, two_qty).unwrap();
    sheet.write(3, 0, "three").unwrap();
    sheet.write(3, 1, "Three").unwrap();
    sheet.write(3, 2, "sun").unwrap();
    sheet
        .write_formula(3, 3, Formula::new("=D3+1").set_result("3"))
        .unwrap();
    book.add_worksheet();
    book.save(path).unwrap();
}

#[test]
fn xlsx_sheet_is_a_table() {
    let tmp = base_copy();
    let data = tmp.path().join("data/mini");
    std::fs::remove_file(data.join("cards.toml")).unwrap();
    // The card template prints the value, which is a formula for `three`.
    edit(
        &tmp.path().join("templates/mini/card.svg"),
        "{{ row.name }}</text>",
        "{{ row.name }} = {{ row.value }}</text>",
    );
    cards_xlsx(&data.join("cards.xlsx"), 2.0);
    let o = run(tmp.path(), &["build"]);
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    assert_eq!(stderr, "", "no warnings");
    let text = pdftotext(&tmp.path().join("output/mini/home/mini.pdf"), 1);
    assert!(text.contains("Ace of Sheets = 1"), "{text}");
    assert!(text.contains("Three = 3"), "the formula's result: {text}");
    assert!(
        !text.contains("= 3.0"),
        "whole numbers print as integers: {text}"
    );
}

#[test]
fn xlsx_errors_name_sheet_row_and_column() {
    let tmp = base_copy();
    let data = tmp.path().join("data/mini");
    std::fs::remove_file(data.join("cards.toml")).unwrap();
    cards_xlsx(&data.join("cards.xlsx"), 0.0);
    let o = run(tmp.path(), &["build"]);
    let (_, stderr) = texts(&o);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "error: card `two`: quantity 0 must be at least 1 (sheet card, row 3, column E)"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("= in data/mini/cards.xlsx"), "{stderr}");
}

/// An ODS file (a zip: `mimetype` first, stored) with one sheet `suit`.
pub(crate) fn suits_ods(path: &Path) {
    ods(path, SUITS_ODS);
}

/// The `content.xml` of [`suits_ods`]: the sheet `suit` with a header and two rows.
const SUITS_ODS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">
<office:body><office:spreadsheet>
<table:table table:name="suit">
<table:table-row><table:table-cell office:value-type="string"><text:p>id</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>name</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>color</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>rank</text:p></table:table-cell></table:table-row>
<table:table-row><table:table-cell office:value-type="string"><text:p>sun</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Sun of ODS</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>#e0a000</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="1"><text:p>1</text:p></table:table-cell></table:table-row>
<table:table-row><table:table-cell office:value-type="string"><text:p>moon</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Moon</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>#3050a0</text:p></table:table-cell><table:table-cell table:formula="of:=[.D2]+1" office:value-type="float" office:value="2"><text:p>2</text:p></table:table-cell></table:table-row>
</table:table>
</office:spreadsheet></office:body></office:document-content>
"#;

/// An ODS workbook whose `content.xml` is `content`.
fn ods(path: &Path, content: &str) {
    let manifest = r#"<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">
<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>
<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
</manifest:manifest>
"#;
    let parts = [
        ("mimetype", "application/vnd.oasis.opendocument.spreadsheet"),
        ("META-INF/manifest.xml", manifest),
        ("content.xml", content),
    ];
    write_zip(path, &parts, false);
}

#[test]
fn an_ods_that_repeats_a_cell_millions_of_times_is_refused_before_it_is_read() {
    // ODS says how often a row or a cell repeats; a damaged or hostile file can
    // claim a million rows of 16,384 filled columns in a few bytes, which the
    // spreadsheet reader would lay out cell by cell (minutes, gigabytes).
    let tmp = base_copy();
    let data = tmp.path().join("data/mini");
    std::fs::remove_file(data.join("suits.toml")).unwrap();
    let huge = SUITS_ODS.replacen(
        "<table:table-row><table:table-cell office:value-type=\"string\"><text:p>moon",
        "<table:table-row table:number-rows-repeated=\"1000000\"><table:table-cell table:number-columns-repeated=\"16384\" office:value-type=\"string\"><text:p>moon",
        1,
    );
    assert_ne!(huge, SUITS_ODS);
    ods(&data.join("suits.ods"), &huge);
    let o = run(tmp.path(), &["check"]);
    let (stdout, stderr) = texts(&o);
    assert_eq!(o.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("data/mini/suits.ods")
            && stderr.contains("1000002 rows and 16387 columns")
            && stderr.contains("at most 4000000 cells"),
        "{stderr}"
    );
}

#[test]
fn ods_sheet_is_a_table() {
    let tmp = base_copy();
    let data = tmp.path().join("data/mini");
    std::fs::remove_file(data.join("suits.toml")).unwrap();
    suits_ods(&data.join("suits.ods"));
    edit(
        &tmp.path().join("templates/mini/card.svg"),
        "{{ suit.name }} ·",
        "{{ suit.name }} #{{ suit.rank }} ·",
    );
    let o = run(tmp.path(), &["build"]);
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    assert_eq!(stderr, "", "no warnings");
    let text = pdftotext(&tmp.path().join("output/mini/home/mini.pdf"), 1);
    assert!(text.contains("Sun of ODS #1"), "{text}");
    assert!(text.contains("Moon #2"), "the formula's result: {text}");
}

#[test]
fn csv_values_read_back() {
    // The valid-csv-table fixture's data: a quoted "007" stays text, an unquoted
    // 042 keeps its zero, a quoted cell keeps its comma.
    let tmp = base_copy();
    let case = repo().join("tests/fixtures/valid-csv-table");
    std::fs::remove_file(tmp.path().join("data/mini/cards.toml")).unwrap();
    std::fs::copy(
        case.join("data/mini/card.csv"),
        tmp.path().join("data/mini/card.csv"),
    )
    .unwrap();
    std::fs::copy(
        case.join("templates/mini/card.svg"),
        tmp.path().join("templates/mini/card.svg"),
    )
    .unwrap();
    let o = run(tmp.path(), &["build"]);
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    let text = pdftotext(&tmp.path().join("output/mini/home/mini.pdf"), 1);
    assert!(text.contains("costs 3 · 007"), "{text}");
    assert!(text.contains("costs 3 · 042"), "{text}");
    assert!(text.contains("Three & Co, Ltd"), "{text}");
}
