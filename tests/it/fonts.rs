//! A designer's own font: a file dropped into `fonts/` (or `data/<game>/fonts/`)
//! is used by the templates, subset-embedded in the PDF, and its text reads back;
//! a family nobody has is an error that lists the families there are; the glyph
//! check covers every loaded font. The font is Routed Gothic (OFL), in
//! `tests/fixtures/valid-project-font/fonts/`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;

/// The font file the fixture ships.
fn routed_gothic() -> PathBuf {
    repo().join("tests/fixtures/valid-project-font/fonts/RoutedGothic-Regular.ttf")
}

/// The fixture corpus's small game (`mini`), with the card face drawing its name
/// in `family` and a second line of `note` in the default font.
pub fn mini_project(family: &str, note: &str) -> tempfile::TempDir {
    let tmp = base_copy();
    std::fs::write(
        tmp.path().join("templates/mini/card.svg"),
        format!(
            r##"{{% extends "common/face.svg" %}}
{{% block body %}}
<rect x="-3" y="-3" width="{{{{ face.full_width }}}}" height="{{{{ face.full_height }}}}" fill="#ffffff"/>
<text x="5" y="14" font-family="{family}" font-size="8">{{{{ row.name }}}} card</text>
<text x="5" y="26" font-size="4">{note}</text>
{{% endblock %}}
"##
        ),
    )
    .unwrap();
    tmp
}

/// `pdffonts` of a PDF: (name, embedded, subset) of every font.
fn pdffonts(pdf: &Path) -> Vec<(String, bool, bool)> {
    let o = Command::new("pdffonts")
        .arg(pdf)
        .output()
        .expect("pdffonts (poppler-utils) is installed");
    assert!(o.status.success());
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .skip(2)
        .filter_map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            // name type... encoding emb sub uni object ID
            let n = cols.len();
            (n >= 7).then(|| {
                (
                    cols[0].to_string(),
                    cols[n - 5] == "yes",
                    cols[n - 4] == "yes",
                )
            })
        })
        .collect()
}

fn build(dir: &Path) -> (bool, String, String) {
    let o = run(dir, &["build"]);
    let (stdout, stderr) = texts(&o);
    (o.status.success(), stdout, stderr)
}

#[test]
fn a_font_in_fonts_is_used_embedded_and_reads_back() {
    let tmp = mini_project("Routed Gothic", "plain Lato");
    std::fs::create_dir_all(tmp.path().join("fonts")).unwrap();
    std::fs::copy(
        routed_gothic(),
        tmp.path().join("fonts/RoutedGothic-Regular.ttf"),
    )
    .unwrap();
    let (ok, stdout, stderr) = build(tmp.path());
    assert!(ok, "{stdout}\n{stderr}");
    let pdf = tmp.path().join("output/mini/home/mini.pdf");
    let fonts = pdffonts(&pdf);
    let routed = fonts
        .iter()
        .find(|(name, ..)| name.contains("RoutedGothic"))
        .unwrap_or_else(|| panic!("Routed Gothic is not in the PDF: {fonts:?}"));
    // Embedded as a subset (a six-letter tag before the name), like the built-in fonts.
    assert!(routed.1 && routed.2, "{routed:?}");
    assert_eq!(routed.0.find('+'), Some(6), "{routed:?}");
    assert!(fonts.iter().any(|(n, ..)| n.ends_with("Lato-Regular")));
    let text = pdftotext(&pdf, 1);
    for name in ["Ace card", "Two card", "Three & Co card"] {
        assert!(text.contains(name), "{name} not in:\n{text}");
    }
    // The same build again gives the same bytes.
    let first = std::fs::read(&pdf).unwrap();
    let (ok, ..) = build(tmp.path());
    assert!(ok);
    assert_eq!(first, std::fs::read(&pdf).unwrap());
}

#[test]
fn a_game_font_folder_works_for_that_game() {
    let tmp = mini_project("Routed Gothic", "plain Lato");
    let dir = tmp.path().join("data/mini/fonts");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(routed_gothic(), dir.join("routed.ttf")).unwrap();
    let (ok, stdout, stderr) = build(tmp.path());
    assert!(ok, "{stdout}\n{stderr}");
    let fonts = pdffonts(&tmp.path().join("output/mini/home/mini.pdf"));
    assert!(
        fonts.iter().any(|(n, ..)| n.contains("RoutedGothic")),
        "{fonts:?}"
    );
    let o = run(tmp.path(), &["fonts", "mini"]);
    let (stdout, _) = texts(&o);
    assert!(o.status.success());
    assert!(
        stdout.contains("  Routed Gothic  Regular            data/mini/fonts/routed.ttf\n"),
        "{stdout}"
    );
    // Without the game, only the fonts every game has.
    let (stdout, _) = texts(&run(tmp.path(), &["fonts"]));
    assert!(!stdout.contains("Routed Gothic"), "{stdout}");
    assert!(stdout.contains("add a font: put its .ttf, .otf or .ttc file in fonts/"));
}

#[test]
fn a_missing_family_lists_the_families_found() {
    let tmp = mini_project("Routed Gothik", "plain Lato");
    std::fs::create_dir_all(tmp.path().join("fonts")).unwrap();
    std::fs::copy(routed_gothic(), tmp.path().join("fonts/routed.ttf")).unwrap();
    let (ok, _, stderr) = build(tmp.path());
    assert!(!ok);
    assert!(
        stderr.contains("error: text uses font-family `Routed Gothik`, which none of the game's fonts has, so it would be dropped\n"),
        "{stderr}"
    );
    assert!(
        stderr.contains("= hint: the families found are Bebas Neue, Lato, Routed Gothic; to use `Routed Gothik`, put its .ttf, .otf or .ttc file in fonts/ (every game) or data/mini/fonts/ (this game)\n"),
        "{stderr}"
    );
    // The text functions say the same.
    let tmp = mini_project("Lato", "{{ text_width('x', 3, font='Routed Gothik') }}");
    let (ok, _, stderr) = build(tmp.path());
    assert!(!ok);
    assert!(
        stderr.contains("font `Routed Gothik` is not among the game's fonts (Bebas Neue, Lato); put its .ttf, .otf or .ttc file in fonts/ (every game) or data/<game>/fonts/ (this game)"),
        "{stderr}"
    );
}

#[test]
fn the_glyph_check_covers_every_loaded_font() {
    // ⌀ and ⟶ are in Routed Gothic, not in Lato or Bebas Neue.
    let tmp = mini_project("Lato", "⌀ 20 mm ⟶ 30 mm");
    let (ok, _, stderr) = build(tmp.path());
    assert!(!ok);
    assert!(
        stderr.contains(
            "error: none of the game's fonts has the glyph(s) '⌀' (U+2300), '⟶' (U+27F6)"
        ),
        "{stderr}"
    );
    std::fs::create_dir_all(tmp.path().join("fonts")).unwrap();
    std::fs::copy(routed_gothic(), tmp.path().join("fonts/routed.ttf")).unwrap();
    let (ok, stdout, stderr) = build(tmp.path());
    assert!(ok, "{stdout}\n{stderr}");
    let pdf = tmp.path().join("output/mini/home/mini.pdf");
    assert!(pdffonts(&pdf)
        .iter()
        .any(|(n, ..)| n.contains("RoutedGothic")));
    assert!(pdftotext(&pdf, 1).contains("⌀ 20 mm ⟶ 30 mm"));
}

#[test]
fn a_file_that_is_no_font_is_an_error_naming_it() {
    let tmp = mini_project("Lato", "plain");
    std::fs::create_dir_all(tmp.path().join("data/mini/fonts")).unwrap();
    // A web font saved under a .ttf name.
    std::fs::write(
        tmp.path().join("data/mini/fonts/Fancy.ttf"),
        b"wOF2\0\x01\0\0 and the rest",
    )
    .unwrap();
    let (ok, _, stderr) = build(tmp.path());
    assert!(!ok);
    assert!(
        stderr.contains("error: data/mini/fonts/Fancy.ttf is not a font cardstock can read (it is a WOFF web font with another name)"),
        "{stderr}"
    );
}
