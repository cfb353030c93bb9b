//! Property tests: random and mutated game files must never panic, abort or hang;
//! every failure is a diagnostic.
//!
//! - `mutated_games_never_panic`: mutated TOML and SVG templates through the
//!   library (load, check, render, parse, layout and export, all in memory).
//! - The others run the real binary on a mutated copy of the fixture game on disk,
//!   one kind of input each: CSV and TSV tables, XLSX and ODS workbooks (raw bytes,
//!   or the XML inside re-zipped), TTF and OTF fonts in `fonts/`, print profiles,
//!   PNG and JPEG images a template draws, and rich text markup in data. Each
//!   asserts exit status 0 or 1 (never 101, never a signal), no "panicked", and
//!   for a failure an error that names the damaged file.
//!
//! `PROPTEST_CASES=N` sets the in-memory case count (default 300); the on-disk
//! targets run a sixth of it each (default 50). `PROPTEST_CASES=20000 cargo test
//! --release --test it -- fuzz` runs longer.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use cardstock::options::Options;
use cardstock::pipeline::{build, Incremental};
use cardstock::project::Project;
use cardstock::source::MemoryFiles;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use crate::common::texts;
use crate::hostile::run_within;

const FILES: [&str; 5] = [
    "data/mini/game.toml",
    "data/mini/cards.toml",
    "data/mini/suits.toml",
    "templates/mini/card.svg",
    "templates/mini/token.svg",
];

/// Fragments that tend to break parsers: TOML, Jinja and XML syntax, huge or odd
/// numbers, unicode.
const TOKENS: [&str; 40] = [
    "[[",
    "]]",
    "[",
    "]",
    "=",
    "\"",
    "'",
    "{{",
    "}}",
    "{%",
    "%}",
    "{#",
    "<",
    ">",
    "&",
    "/>",
    "</svg>",
    "\n",
    "qty = -1",
    "qty = 1000000000",
    "size = \"x\"",
    "1e309",
    "-0",
    "nan",
    "inf",
    "\u{0}",
    "🂡",
    "王",
    "é",
    "{{ row.nope }}",
    "{% for i in range(100000) %}x{% endfor %}",
    "{{ lookup('suit', 'x') }}",
    "{% include 'mini/card.svg' %}",
    "<image href=\"../x.png\"/>",
    "fill=\"nope\"",
    "width=\"-5\"",
    "table = \"nope\"",
    "kind = \"card\"",
    "[[component]]\nid = \"x\"",
    "x = { a = [1, {b = 2}] }",
];

#[derive(Debug, Clone)]
enum Mutation {
    Delete { at: usize, len: usize },
    Insert { at: usize, token: usize },
    Bytes { at: usize, bytes: Vec<u8> },
    Duplicate { at: usize, len: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1usize..40).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(at, token)| Mutation::Insert { at, token }),
        (any::<usize>(), proptest::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(at, bytes)| Mutation::Bytes { at, bytes }),
        (any::<usize>(), 1usize..200).prop_map(|(at, len)| Mutation::Duplicate { at, len }),
    ]
}

fn apply(text: &[u8], m: &Mutation) -> Vec<u8> {
    apply_with(text, m, &TOKENS)
}

/// `m` applied to `text`, inserting tokens from `tokens`.
fn apply_with(text: &[u8], m: &Mutation, tokens: &[&str]) -> Vec<u8> {
    let mut t = text.to_vec();
    let pos = |at: usize| if t.is_empty() { 0 } else { at % (t.len() + 1) };
    match m {
        Mutation::Delete { at, len } => {
            let a = pos(*at);
            let b = (a + len).min(t.len());
            t.drain(a..b);
        }
        Mutation::Insert { at, token } => {
            let a = pos(*at);
            t.splice(a..a, tokens[*token % tokens.len()].bytes());
        }
        Mutation::Bytes { at, bytes } => {
            let a = pos(*at);
            t.splice(a..a, bytes.iter().copied());
        }
        Mutation::Duplicate { at, len } => {
            let a = pos(*at);
            let b = (a + len).min(t.len());
            let copy = t[a..b].to_vec();
            t.splice(b..b, copy);
        }
    }
    t
}

/// Every file under `from`, keyed by its path below `from` prefixed with `prefix`.
fn files_of(from: &Path, prefix: &str, out: &mut Vec<(String, Vec<u8>)>) {
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let p = e.path();
        let key = format!("{prefix}{}", e.file_name().to_string_lossy());
        if p.is_dir() {
            files_of(&p, &format!("{key}/"), out);
        } else {
            out.push((key, std::fs::read(&p).unwrap()));
        }
    }
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

/// The same cases on every run, so CI never fails on a lucky draw;
/// `PROPTEST_RNG_SEED=N` (with a large `PROPTEST_CASES`) explores others.
fn seed() -> proptest::test_runner::RngSeed {
    match std::env::var("PROPTEST_RNG_SEED") {
        Ok(_) => ProptestConfig::default().rng_seed,
        Err(_) => proptest::test_runner::RngSeed::Fixed(0x00c4_4d57_0c4b),
    }
}

/// Cases of each on-disk target (each runs the binary once, 0.05 to 0.2 s).
fn disk_cases() -> u32 {
    (cases() / 6).max(1)
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, rng_seed: seed(), ..ProptestConfig::default() })]

    #[test]
    fn mutated_games_never_panic(file in 0..FILES.len(), muts in proptest::collection::vec(mutation(), 1..6)) {
        // The whole project in memory: the library reads no disk.
        let mut files = Vec::new();
        files_of(&repo().join("tests/fixtures/base"), "", &mut files);
        files_of(&repo().join("templates/common"), "templates/common/", &mut files);
        let mut memory = MemoryFiles::new();
        for (path, bytes) in files {
            let bytes = if path == FILES[file] {
                muts.iter().fold(bytes, |t, m| apply(&t, m))
            } else {
                bytes
            };
            memory.insert(&path, bytes);
        }
        let project = Project::new(memory);
        let built = build(&project, "mini", &Options::default(), Incremental::default(), cardstock::output::Sink::Memory);
        // Whatever happened is reported: either output or at least one error.
        prop_assert!(!built.outputs.files().is_empty() || built.diags.has_errors());
        // And every diagnostic renders from the sources already read.
        let _ = built.diags.render(&project);
    }
}

// ---------------------------------------------------------------------------
// On disk, through the real binary.

/// Damage to a binary file: cut short, bits flipped, bytes overwritten (anywhere,
/// or in the first 64 bytes, where headers and table directories are), or one of
/// the text mutations above.
#[derive(Debug, Clone)]
enum Damage {
    Truncate(usize),
    Flip { at: usize, xor: u8 },
    Overwrite { at: usize, bytes: Vec<u8> },
    Head { at: usize, bytes: Vec<u8> },
    Text(Mutation),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        any::<usize>().prop_map(Damage::Truncate),
        (any::<usize>(), 1u8..=255).prop_map(|(at, xor)| Damage::Flip { at, xor }),
        (any::<usize>(), proptest::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(at, bytes)| Damage::Overwrite { at, bytes }),
        (0usize..64, proptest::collection::vec(any::<u8>(), 1..5))
            .prop_map(|(at, bytes)| Damage::Head { at, bytes }),
        mutation().prop_map(Damage::Text),
    ]
}

fn spoil(bytes: &[u8], d: &Damage) -> Vec<u8> {
    let mut b = bytes.to_vec();
    if b.is_empty() {
        return b;
    }
    let n = b.len();
    match d {
        Damage::Truncate(at) => b.truncate(at % n),
        Damage::Flip { at, xor } => b[at % n] ^= xor,
        Damage::Overwrite { at, bytes } | Damage::Head { at, bytes } => {
            for (i, x) in bytes.iter().enumerate() {
                if let Some(slot) = b.get_mut((at % n) + i) {
                    *slot = *x;
                }
            }
        }
        Damage::Text(m) => b = apply(&b, m),
    }
    b
}

/// A game on disk: relative path -> bytes, written to a fresh folder per case.
struct Disk(BTreeMap<String, Vec<u8>>);

impl Disk {
    /// The fixture game (`mini`) with `templates/common`.
    fn mini() -> Disk {
        let mut files = Vec::new();
        files_of(&repo().join("tests/fixtures/base"), "", &mut files);
        files_of(
            &repo().join("templates/common"),
            "templates/common/",
            &mut files,
        );
        Disk(files.into_iter().collect())
    }

    fn set(&mut self, path: &str, bytes: impl Into<Vec<u8>>) {
        self.0.insert(path.to_string(), bytes.into());
    }

    fn remove(&mut self, path: &str) {
        assert!(self.0.remove(path).is_some(), "{path}");
    }

    fn get(&self, path: &str) -> &[u8] {
        &self.0[path]
    }

    /// Writes the game with `path` holding `bytes`, runs `cardstock args` (killed
    /// after 60 s) and checks the outcome: exit 0 with the game's output, or exit 1
    /// with an error whose text names one of `names` (the damaged file, or where
    /// its damage shows).
    fn check(
        &self,
        path: &str,
        bytes: &[u8],
        args: &[&str],
        names: &[&str],
    ) -> Result<(), TestCaseError> {
        let tmp = tempfile::tempdir().unwrap();
        let damaged = std::iter::once((path, bytes));
        let others = self.0.iter().filter(|(p, _)| *p != path);
        for (p, b) in others
            .map(|(p, b)| (p.as_str(), b.as_slice()))
            .chain(damaged)
        {
            let to = tmp.path().join(p);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::write(to, b).unwrap();
        }
        let o = run_within(tmp.path(), args, Duration::from_secs(60));
        let (stdout, stderr) = texts(&o);
        let code = o.status.code();
        prop_assert!(
            code == Some(0) || code == Some(1),
            "{path}: exit {:?} (101 is a panic, none a signal)\n{stdout}\n{stderr}",
            o.status
        );
        prop_assert!(
            !stderr.contains("panicked") && !stdout.contains("panicked"),
            "{path}: {stderr}"
        );
        if code == Some(0) {
            prop_assert!(
                stdout.contains("mini: ") && tmp.path().join("output/mini").is_dir(),
                "{path}: exit 0 without output\n{stdout}\n{stderr}"
            );
        } else {
            prop_assert!(
                stderr.contains("error"),
                "{path}: exit 1 without an error: {stderr}"
            );
            prop_assert!(
                names.iter().any(|n| stderr.contains(n)),
                "{path}: the error names none of {names:?}:\n{stderr}"
            );
        }
        Ok(())
    }
}

/// Fragments that break delimited tables.
const CSV_TOKENS: [&str; 24] = [
    ",", "\t", "\"", "\"\"", "\r\n", "\n", "\r", ";", "[]", "id", "qty", "-1", "0", "1e309", "nan",
    "\u{feff}", "=1+1", ".", "a.b", "\u{0}", "é", "🂡", ",,,,,,,,", "\"a\nb\"",
];

/// The fixture game with its cards in `card.csv` (the CSV fixture's) and its
/// suits in `suit.tsv`.
fn csv_game() -> Disk {
    let mut g = Disk::mini();
    let case = repo().join("tests/fixtures/valid-csv-table");
    g.remove("data/mini/cards.toml");
    g.remove("data/mini/suits.toml");
    g.set(
        "data/mini/card.csv",
        std::fs::read(case.join("data/mini/card.csv")).unwrap(),
    );
    g.set(
        "templates/mini/card.svg",
        std::fs::read(case.join("templates/mini/card.svg")).unwrap(),
    );
    g.set(
        "data/mini/suit.tsv",
        "id\tname\tcolor\nsun\tSun\t#e0a000\nmoon\tMoon\t#3050a0\n",
    );
    g
}

/// Rich text on the card: `row.text` set by `common/text.svg`'s `block` (wrap,
/// fit, bold, italic, icons), with the game icon `coin`.
fn markup_game() -> Disk {
    let mut g = Disk::mini();
    g.set(
        "templates/mini/icons/coin.svg",
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#ff0000"/></svg>"##,
    );
    g.set(
        "templates/mini/card.svg",
        concat!(
            "{% extends \"common/face.svg\" %}\n",
            "{% import \"common/text.svg\" as text %}\n",
            "{% block body %}\n",
            "<rect x=\"-3\" y=\"-3\" width=\"{{ face.full_width }}\" height=\"{{ face.full_height }}\" fill=\"#ffffff\"/>\n",
            "{{ text.block(row.text, 5, 10, 50, 30, max=5, min=2) }}\n",
            "{{ text.line(row.text, 5, 60, 50, 4) }}\n",
            "{% endblock %}\n"
        ),
    );
    g
}

/// Pieces of rich text: markers, icons known and unknown, escapes, breaks, spaces
/// that break and ones that do not, glyphs no built-in font has, long words.
const MARKUP_TOKENS: [&str; 32] = [
    "*",
    "**",
    "***",
    "\\*",
    "\\:",
    "\\\\",
    "\\",
    ":",
    "::",
    ":coin:",
    ":coin",
    "coin:",
    ":gem:",
    ":Coin:",
    ":a-b_1:",
    "\n",
    "\n\n",
    " ",
    "  ",
    "\u{a0}",
    "\u{202f}",
    "\t",
    "Gain",
    "2",
    "draw",
    "é",
    "王",
    "🂡",
    "\u{301}",
    "\u{200b}",
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "**bold** *it*",
];

/// The cards with `text` on each, the second card's from `pieces`.
fn cards_with_text(pieces: &[usize]) -> String {
    let text: String = pieces
        .iter()
        .map(|&i| MARKUP_TOKENS[i % MARKUP_TOKENS.len()])
        .collect();
    let quoted = toml::Value::String(text).to_string();
    let cards = String::from_utf8(Disk::mini().get("data/mini/cards.toml").to_vec()).unwrap();
    cards
        .replace(
            "value = 1\n",
            "value = 1\ntext = \"Gain 2 :coin: and **draw**.\"\n",
        )
        .replace("value = 2\n", &format!("value = 2\ntext = {quoted}\n"))
        .replace("value = 3\n", "value = 3\ntext = \"*Plain.*\"\n")
}

/// A workbook's entries, each mutated or not, written again (stored).
fn rezip(bytes: &[u8], entry: usize, muts: &[Mutation]) -> Vec<u8> {
    let mut book = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let n = book.len();
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for i in 0..n {
        let mut f = book.by_index(i).unwrap();
        let name = f.name().unwrap().to_string();
        let mut data = Vec::new();
        f.read_to_end(&mut data).unwrap();
        if i == entry % n {
            data = muts
                .iter()
                .fold(data, |t, m| apply_with(&t, m, &XML_TOKENS));
        }
        out.start_file(name, stored).unwrap();
        out.write_all(&data).unwrap();
    }
    out.finish().unwrap().into_inner()
}

/// Fragments that break a workbook's XML.
const XML_TOKENS: [&str; 20] = [
    "<",
    ">",
    "</",
    "/>",
    "&",
    "&amp;",
    "\"",
    "<c r=\"XFD1048576\"><v>1</v></c>",
    "<c r=\"A1\" t=\"s\"><v>99999</v></c>",
    "<row r=\"0\">",
    "<v>nan</v>",
    "<v>1e309</v>",
    "t=\"e\"",
    "t=\"b\"",
    "r=\"ZZZZZZ9\"",
    "<si><t>x</t></si>",
    "\u{0}",
    "é",
    "<table:table-cell table:number-columns-repeated=\"1000000000\"/>",
    "<table:table-row table:number-rows-repeated=\"1000000000\"/>",
];

/// A small PNG: 40 x 30 RGB, a gradient.
fn png_image() -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, 40, 30);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().unwrap();
    let data: Vec<u8> = (0..30u32)
        .flat_map(|y| (0..40u32).flat_map(move |x| [x as u8 * 6, y as u8 * 8, 128]))
        .collect();
    w.write_image_data(&data).unwrap();
    w.finish().unwrap();
    out
}

/// The width and height an image declares, replaced (the PNG chunk's CRC made
/// right again when `crc` is set, so the size is all that is wrong).
fn declare(bytes: &[u8], w: u32, h: u32, crc: bool) -> Vec<u8> {
    let mut b = bytes.to_vec();
    if b.starts_with(b"\x89PNG") {
        b[16..20].copy_from_slice(&w.to_be_bytes());
        b[20..24].copy_from_slice(&h.to_be_bytes());
        if crc {
            let c = crate::hostile::crc32(&b[12..29]);
            b[29..33].copy_from_slice(&c.to_be_bytes());
        }
    } else if let Some(at) = b
        .windows(2)
        .position(|m| m[0] == 0xFF && (0xC0..=0xC2).contains(&m[1]))
    {
        // SOFn: length (2), precision (1), height (2), width (2).
        b[at + 5..at + 7].copy_from_slice(&(h as u16).to_be_bytes());
        b[at + 7..at + 9].copy_from_slice(&(w as u16).to_be_bytes());
    }
    b
}

/// The card face drawing three images: a PNG, a baseline and a progressive JPEG.
fn image_game() -> Disk {
    let mut g = Disk::mini();
    g.set("templates/mini/photo.png", png_image());
    g.set(
        "templates/mini/photo.jpg",
        std::fs::read(repo().join("tests/fuzz/gradient.jpg")).unwrap(),
    );
    g.set(
        "templates/mini/photo-p.jpg",
        std::fs::read(repo().join("tests/fuzz/gradient-progressive.jpg")).unwrap(),
    );
    let card = String::from_utf8(g.get("templates/mini/card.svg").to_vec()).unwrap();
    let card = card.replacen(
        "{% block body %}",
        "{% block body %}\n<image href=\"photo.png\" x=\"5\" y=\"30\" width=\"20\" height=\"15\"/>\n<image href=\"photo.jpg\" x=\"30\" y=\"30\" width=\"20\" height=\"15\"/>\n<image href=\"photo-p.jpg\" x=\"5\" y=\"50\" width=\"20\" height=\"15\"/>",
        1,
    );
    g.set("templates/mini/card.svg", card);
    g
}

/// The card face set in two project fonts: Routed Gothic (TTF) and Bebas Neue
/// (OTF, CFF outlines; the file replaces the built-in one).
fn font_game() -> Disk {
    let mut g = Disk::mini();
    g.set(
        "fonts/RoutedGothic-Regular.ttf",
        std::fs::read(
            repo().join("tests/fixtures/valid-project-font/fonts/RoutedGothic-Regular.ttf"),
        )
        .unwrap(),
    );
    g.set(
        "fonts/BebasNeue-Regular.otf",
        std::fs::read(repo().join("assets/fonts/BebasNeue-Regular.otf")).unwrap(),
    );
    g.set(
        "templates/mini/card.svg",
        concat!(
            "{% extends \"common/face.svg\" %}\n",
            "{% block body %}\n",
            "<rect x=\"-3\" y=\"-3\" width=\"{{ face.full_width }}\" height=\"{{ face.full_height }}\" fill=\"#ffffff\"/>\n",
            "<text x=\"5\" y=\"14\" font-family=\"Routed Gothic\" font-size=\"8\">{{ row.name }} card</text>\n",
            "<text x=\"5\" y=\"26\" font-family=\"Bebas Neue\" font-size=\"6\">{{ row.name }} 0123</text>\n",
            "{% endblock %}\n"
        ),
    );
    g
}

/// The print profiles of the repository, in the project's `profiles/`.
const PROFILES: [&str; 6] = [
    "home",
    "gutterfold",
    "thegamecrafter",
    "drivethrucards",
    "makeplayingcards",
    "tts",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: disk_cases(), failure_persistence: None, rng_seed: seed(), ..ProptestConfig::default() })]

    #[test]
    fn mutated_csv_and_tsv_tables_never_panic(
        tsv in any::<bool>(),
        muts in proptest::collection::vec(mutation(), 1..6),
    ) {
        let g = csv_game();
        let path = if tsv { "data/mini/suit.tsv" } else { "data/mini/card.csv" };
        let bytes = muts.iter().fold(g.get(path).to_vec(), |t, m| apply_with(&t, m, &CSV_TOKENS));
        // A damaged table shows in itself, in a table that refers to it (a row
        // gone), or where a template uses a field (a header renamed).
        g.check(path, &bytes, &["build"], &[path, "data/mini/card.csv:", "data/mini/game.toml:", "templates/mini/"])?;
    }

    #[test]
    fn mutated_workbooks_never_panic(
        ods in any::<bool>(),
        inside in any::<bool>(),
        entry in any::<usize>(),
        muts in proptest::collection::vec(mutation(), 1..5),
        damages in proptest::collection::vec(damage(), 1..4),
    ) {
        let tmp = tempfile::tempdir().unwrap();
        let (path, book) = if ods {
            crate::tables::suits_ods(&tmp.path().join("b"));
            ("data/mini/suits.ods", "data/mini/suits.toml")
        } else {
            crate::tables::cards_xlsx(&tmp.path().join("b"), 2.0);
            ("data/mini/cards.xlsx", "data/mini/cards.toml")
        };
        let good = std::fs::read(tmp.path().join("b")).unwrap();
        let bytes = if inside {
            rezip(&good, entry, &muts)
        } else {
            damages.iter().fold(good, |b, d| spoil(&b, d))
        };
        let mut g = Disk::mini();
        g.remove(book);
        // Damage that drops or renames a row or a cell reads as a smaller table:
        // then the error is at the line that uses it (a card's suit, the card
        // count, a template's `row.name`).
        g.check(path, &bytes, &["build"], &[path, "data/mini/cards.toml:", "data/mini/game.toml:", "templates/mini/"])?;
    }

    #[test]
    fn mutated_fonts_never_panic(
        otf in any::<bool>(),
        damages in proptest::collection::vec(damage(), 1..4),
    ) {
        let g = font_game();
        let path = if otf { "fonts/BebasNeue-Regular.otf" } else { "fonts/RoutedGothic-Regular.ttf" };
        let bytes = damages.iter().fold(g.get(path).to_vec(), |b, d| spoil(&b, d));
        // A font whose name table was damaged loads under another family (or
        // none): then the text that asks for the family is the error, at its line.
        g.check(path, &bytes, &["build"], &[path, "templates/mini/card.svg:"])?;
    }

    #[test]
    fn mutated_profiles_never_panic(
        which in 0..PROFILES.len(),
        muts in proptest::collection::vec(mutation(), 1..6),
    ) {
        let mut g = Disk::mini();
        for id in PROFILES {
            g.set(
                &format!("profiles/{id}.toml"),
                std::fs::read(repo().join("profiles").join(format!("{id}.toml"))).unwrap(),
            );
        }
        let path = format!("profiles/{}.toml", PROFILES[which]);
        let bytes = muts.iter().fold(g.get(&path).to_vec(), |t, m| apply(&t, m));
        g.check(&path, &bytes, &["build", "--profile", PROFILES[which]], &[&path])?;
    }

    #[test]
    fn damaged_images_never_panic(
        which in 0usize..3,
        size in proptest::option::of((any::<u32>(), any::<u32>(), any::<bool>())),
        damages in proptest::collection::vec(damage(), 0..3),
    ) {
        let g = image_game();
        let name = ["photo.png", "photo.jpg", "photo-p.jpg"][which];
        let path = format!("templates/mini/{name}");
        let mut bytes = g.get(&path).to_vec();
        if let Some((w, h, crc)) = size {
            bytes = declare(&bytes, w, h, crc);
        }
        let bytes = damages.iter().fold(bytes, |b, d| spoil(&b, d));
        g.check(&path, &bytes, &["build"], &[&format!("image `{name}`")])?;
    }

    #[test]
    fn rich_text_in_data_never_panics(
        pieces in proptest::collection::vec(any::<usize>(), 0..16),
    ) {
        let g = markup_game();
        let path = "data/mini/cards.toml";
        // Markup is read where a template sets the text: an error is at that line.
        g.check(path, cards_with_text(&pieces).as_bytes(), &["build"], &["templates/mini/card.svg:", path])?;
    }
}
