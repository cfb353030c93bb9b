//! Every PDF of a game's home print that shows its faces, its rulebook's
//! included, is cut from one document (`src/export/split.rs`): each file holds
//! its own pages, every reference in it resolves inside it, and a face printed in
//! two files (a board on the one-sided sheets and at real size, a card in the
//! sheets and as a figure of the rulebook) is drawn once, so both files carry the
//! same drawing and the same font subsets (which hold the glyphs of both).

use std::path::Path;

use crate::common::pdf::{Document, Object, ObjectId};
use crate::print::{built, HOME_LETTER};

/// Every reference in `o` (and what it holds).
fn references(o: &Object, out: &mut Vec<ObjectId>) {
    match o {
        Object::Reference(id) => out.push(*id),
        Object::Array(a) => a.iter().for_each(|x| references(x, out)),
        Object::Dictionary(d) => d.iter().for_each(|(_, x)| references(x, out)),
        Object::Stream(s) => s.dict.iter().for_each(|(_, x)| references(x, out)),
        _ => {}
    }
}

/// The file's embedded fonts: subset name to the bytes of its font program.
fn fonts(doc: &Document) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    for o in doc.objects.values() {
        let Ok(d) = o.as_dict() else { continue };
        if !matches!(d.get(b"Type"), Ok(Object::Name(n)) if n == b"FontDescriptor") {
            continue;
        }
        let name = d.get(b"FontName").unwrap().as_name().unwrap().to_vec();
        let file = [&b"FontFile2"[..], b"FontFile3"]
            .iter()
            .find_map(|k| d.get(k).ok())
            .unwrap()
            .as_reference()
            .unwrap();
        let program = doc
            .get_object(file)
            .unwrap()
            .as_stream()
            .unwrap()
            .content
            .clone();
        out.push((name, program));
    }
    out.sort();
    out
}

/// The streams of the file's form XObjects, as written.
fn forms(doc: &Document) -> Vec<Vec<u8>> {
    doc.objects
        .values()
        .filter_map(|o| o.as_stream().ok())
        .filter(|s| matches!(s.dict.get(b"Subtype"), Ok(Object::Name(n)) if n == b"Form"))
        .map(|s| s.content.clone())
        .collect()
}

fn load(dir: &Path, name: &str) -> Document {
    let doc = Document::load(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    let mut refs = Vec::new();
    for o in doc.objects.values() {
        references(o, &mut refs);
    }
    references(&Object::Dictionary(doc.trailer.clone()), &mut refs);
    for id in refs {
        assert!(
            doc.get_object(id).is_ok(),
            "{name}: {id:?} does not resolve"
        );
    }
    doc
}

#[test]
fn a_games_files_are_cut_from_one_document_and_share_its_faces() {
    let out = built(&HOME_LETTER, "home", "letter");
    let dir = out.join("interstate-trucking/home");
    let main = load(&dir, "interstate-trucking.pdf");
    let sheets = load(&dir, "interstate-trucking-one-sided.pdf");
    let real = load(&dir, "interstate-trucking-board-real-size.pdf");
    assert_eq!(real.get_pages().len(), 1);
    assert!(sheets.get_pages().len() > 4 && main.get_pages().len() > 20);
    // The board at real size is the drawing on the one-sided sheets that tile it.
    let board = forms(&real)
        .into_iter()
        .max_by_key(Vec::len)
        .expect("the board's form");
    assert!(board.len() > 10_000, "{} bytes", board.len());
    assert!(forms(&sheets).contains(&board), "the board is drawn twice");
    // One document: the files' subsets of a font are the same subset.
    let (real_fonts, sheet_fonts) = (fonts(&real), fonts(&sheets));
    assert!(!real_fonts.is_empty());
    for font in &real_fonts {
        assert!(
            sheet_fonts.contains(font),
            "{}: not the one-sided file's subset",
            String::from_utf8_lossy(&font.0)
        );
    }
    assert_eq!(fonts(&main), sheet_fonts);
    // The rulebook's figures are the sheets' drawings, placed smaller.
    let rules = load(&dir, "interstate-trucking-rules.pdf");
    let mut printed = forms(&main);
    printed.extend(forms(&sheets));
    let shared = forms(&rules).iter().filter(|f| printed.contains(f)).count();
    assert!(
        shared >= 3,
        "{shared} of the rulebook's forms are the sheets'"
    );
    for font in fonts(&rules) {
        if let Some(other) = sheet_fonts.iter().find(|f| f.0[7..] == font.0[7..]) {
            assert_eq!(other, &font, "the rulebook's subset of a font is its own");
        }
    }
}
