//! Text a player can read, read back from the PDFs: every text every game prints (the
//! five games of `data/`, home on Letter and A4, gutterfold, the real-size and
//! pad-size files, the duplex calibration) is at least 6 pt, and light text (white
//! or pale letters on colour) at least 7 pt. The sizes come from the content streams
//! (common::pdf): each text's font size (`Tf`) under its text matrix, the transforms
//! around it and those of the form XObjects it is drawn in, and its fill colour; the
//! letters are named through the font's ToUnicode map.
//!
//! The rulebooks (`<game>-rules*.pdf`) are left out: their figures are the parts
//! drawn smaller on purpose (each part's text is read here at print size in its own
//! file), and their own text is set at `[rulebook] size`, which cardstock keeps
//! between 8 and 16 pt (`rulebook::settings`; its page numbers 0.9 of that).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use crate::common::pdf::{Dictionary, Document, Object, ObjectId};

use crate::print::{built, mul, FOLD_LETTER, HOME_A4, HOME_LETTER, M};

/// The least size of dark text, and of light text, in points.
const MIN_PT: f64 = 6.0;
const MIN_LIGHT_PT: f64 = 7.0;
/// From this relative luminance of its fill on, a text is light.
const LIGHT: f64 = 0.5;

const ID: M = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

/// The smaller of the lengths a matrix gives the two unit axes.
fn scale(m: &M) -> f64 {
    m[0].hypot(m[1]).min(m[2].hypot(m[3]))
}

/// WCAG relative luminance of an RGB colour with components 0..1.
fn luminance(rgb: [f64; 3]) -> f64 {
    let lin = |v: f64| {
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(rgb[0]) + 0.7152 * lin(rgb[1]) + 0.0722 * lin(rgb[2])
}

/// A fill colour's RGB from its operands (gray, RGB or CMYK by their number).
fn rgb(v: &[f64]) -> Option<[f64; 3]> {
    match v {
        [g] => Some([*g; 3]),
        [r, g, b] => Some([*r, *g, *b]),
        [c, m, y, k] => Some([
            (1.0 - c) * (1.0 - k),
            (1.0 - m) * (1.0 - k),
            (1.0 - y) * (1.0 - k),
        ]),
        _ => None,
    }
}

/// One text shown: its size in points, whether its fill is light, and its letters.
#[derive(Debug, Clone)]
struct Shown {
    pt: f64,
    light: bool,
    text: String,
}

/// The code → text map of a font's ToUnicode CMap (two-byte codes).
fn to_unicode(doc: &Document, font: &Dictionary) -> HashMap<u16, String> {
    let mut map = HashMap::new();
    let Some(stream) = font
        .get(b"ToUnicode")
        .ok()
        .and_then(|o| o.as_reference().ok())
        .and_then(|r| doc.get_object(r).ok())
        .and_then(|o| o.as_stream().ok())
    else {
        return map;
    };
    let bytes = stream
        .decompressed_content()
        .unwrap_or_else(|_| stream.content.clone());
    let text = String::from_utf8_lossy(&bytes);
    let hex = |s: &str| u32::from_str_radix(s.trim_matches(|c| c == '<' || c == '>'), 16).ok();
    let utf16 = |s: &str| {
        let s = s.trim_matches(|c| c == '<' || c == '>');
        let units: Vec<u16> = (0..s.len() / 4)
            .filter_map(|i| u16::from_str_radix(&s[4 * i..4 * i + 4], 16).ok())
            .collect();
        String::from_utf16_lossy(&units)
    };
    for block in text.split("beginbfchar").skip(1) {
        let body = block.split("endbfchar").next().unwrap_or("");
        let t: Vec<&str> = body.split_whitespace().collect();
        for pair in t.chunks(2) {
            if let [code, uni] = pair {
                if let Some(c) = hex(code) {
                    map.insert(c as u16, utf16(uni));
                }
            }
        }
    }
    for block in text.split("beginbfrange").skip(1) {
        let body = block.split("endbfrange").next().unwrap_or("");
        let t: Vec<&str> = body.split_whitespace().collect();
        for tri in t.chunks(3) {
            if let [a, b, uni] = tri {
                if let (Some(a), Some(b)) = (hex(a), hex(b)) {
                    let first = utf16(uni).chars().next().map_or(0, |c| c as u32);
                    for c in a..=b {
                        let ch = char::from_u32(first + c - a).unwrap_or('?');
                        map.insert(c as u16, ch.to_string());
                    }
                }
            }
        }
    }
    map
}

/// The letters of a shown string operand.
fn letters(bytes: &[u8], cmap: Option<&HashMap<u16, String>>) -> String {
    match cmap {
        Some(m) if !m.is_empty() => bytes
            .chunks(2)
            .map(|c| {
                let code = u16::from_be_bytes([c[0], *c.get(1).unwrap_or(&0)]);
                m.get(&code).cloned().unwrap_or_else(|| "?".into())
            })
            .collect(),
        _ => String::from_utf8_lossy(bytes).into_owned(),
    }
}

/// A dictionary, inline or referenced.
fn dict<'a>(doc: &'a Document, o: &'a Object) -> Option<&'a Dictionary> {
    match o {
        Object::Reference(r) => doc.get_dictionary(*r).ok(),
        Object::Dictionary(d) => Some(d),
        _ => None,
    }
}

/// What the reader follows through a content stream.
#[derive(Clone)]
struct State {
    ctm: M,
    fill: [f64; 3],
}

/// The texts a content stream (with its resources, under `ctm`) shows; form
/// XObjects are read where they are drawn, each at most 8 deep.
fn read(
    doc: &Document,
    content: &[u8],
    res: Option<&Dictionary>,
    ctm: M,
    depth: usize,
    out: &mut Vec<Shown>,
) {
    let Ok(ops) = crate::common::pdf::Content::decode(content) else {
        return;
    };
    let fonts = res
        .and_then(|r| r.get(b"Font").ok())
        .and_then(|f| dict(doc, f));
    let xobjects = res
        .and_then(|r| r.get(b"XObject").ok())
        .and_then(|x| dict(doc, x));
    let mut cmaps: HashMap<Vec<u8>, HashMap<u16, String>> = HashMap::new();
    let mut st = State {
        ctm,
        fill: [0.0; 3],
    };
    let mut stack = Vec::new();
    let (mut tm, mut size, mut font) = (ID, 0.0, Vec::new());
    let num = |o: &Object| o.as_float().map(f64::from).unwrap_or(0.0);
    for op in &ops.operations {
        let v: Vec<f64> = op.operands.iter().map(num).collect();
        match op.operator.as_str() {
            "q" => stack.push(st.clone()),
            "Q" => st = stack.pop().unwrap_or(st.clone()),
            "cm" if v.len() == 6 => st.ctm = mul(&[v[0], v[1], v[2], v[3], v[4], v[5]], &st.ctm),
            "rg" | "g" | "k" | "sc" | "scn" => {
                if let Some(c) = rgb(&v) {
                    st.fill = c;
                }
            }
            "BT" => tm = ID,
            "Tm" if v.len() == 6 => tm = [v[0], v[1], v[2], v[3], v[4], v[5]],
            "Td" | "TD" if v.len() == 2 => tm = mul(&[1.0, 0.0, 0.0, 1.0, v[0], v[1]], &tm),
            "Tf" if v.len() == 2 => {
                size = v[1];
                font = op.operands[0].as_name().unwrap_or(b"").to_vec();
            }
            "Tj" | "TJ" | "'" | "\"" => {
                let cmap = cmaps.entry(font.clone()).or_insert_with(|| {
                    fonts
                        .and_then(|f| f.get(&font).ok())
                        .and_then(|f| dict(doc, f))
                        .map(|f| to_unicode(doc, f))
                        .unwrap_or_default()
                });
                let mut text = String::new();
                for o in &op.operands {
                    match o {
                        Object::String(b) => text.push_str(&letters(b, Some(cmap))),
                        Object::Array(a) => {
                            for p in a {
                                if let Object::String(b) = p {
                                    text.push_str(&letters(b, Some(cmap)));
                                }
                            }
                        }
                        _ => {}
                    }
                }
                if !text.trim().is_empty() {
                    out.push(Shown {
                        pt: size * scale(&mul(&tm, &st.ctm)),
                        light: luminance(st.fill) >= LIGHT,
                        text,
                    });
                }
            }
            "Do" if depth < 8 => {
                let Some(stream) = op
                    .operands
                    .first()
                    .and_then(|n| n.as_name().ok())
                    .and_then(|n| xobjects?.get(n).ok())
                    .and_then(|o| o.as_reference().ok())
                    .and_then(|r| doc.get_object(r).ok())
                    .and_then(|o| o.as_stream().ok())
                else {
                    continue;
                };
                if stream.dict.get(b"Subtype").and_then(|s| s.as_name()).ok() != Some(b"Form") {
                    continue;
                }
                let matrix = stream
                    .dict
                    .get(b"Matrix")
                    .and_then(|m| m.as_array())
                    .map(|a| a.iter().map(num).collect::<Vec<f64>>())
                    .ok()
                    .filter(|m| m.len() == 6)
                    .map_or(ID, |m| [m[0], m[1], m[2], m[3], m[4], m[5]]);
                let own = stream
                    .dict
                    .get(b"Resources")
                    .ok()
                    .and_then(|r| dict(doc, r));
                let bytes = stream
                    .decompressed_content()
                    .unwrap_or_else(|_| stream.content.clone());
                read(
                    doc,
                    &bytes,
                    own.or(res),
                    mul(&matrix, &st.ctm),
                    depth + 1,
                    out,
                );
            }
            _ => {}
        }
    }
}

/// Every text of every page of a PDF, by page (from 1).
fn texts_of(path: &Path) -> Vec<(usize, Shown)> {
    let doc = Document::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut all = Vec::new();
    for (n, id) in doc.get_pages() {
        let content = doc.get_page_content(id).expect("page content");
        let res = page_resources(&doc, id);
        let mut out = Vec::new();
        read(&doc, &content, res, ID, 0, &mut out);
        all.extend(out.into_iter().map(|s| (n as usize, s)));
    }
    all
}

/// A page's resources, inline or referenced.
fn page_resources(doc: &Document, id: ObjectId) -> Option<&Dictionary> {
    let (res, ids) = doc.get_page_resources(id).ok()?;
    res.or_else(|| ids.first().and_then(|r| doc.get_dictionary(*r).ok()))
}

/// Every PDF a build wrote for the five games (not the fixture game).
fn game_pdfs(out: &Path) -> Vec<PathBuf> {
    let games = crate::common::repo().join("data");
    let mut found = Vec::new();
    for game in std::fs::read_dir(&games).unwrap() {
        let name = game.unwrap().file_name();
        let Ok(profiles) = std::fs::read_dir(out.join(&name)) else {
            continue;
        };
        for p in profiles {
            let dir = p.unwrap().path();
            for f in std::fs::read_dir(&dir).into_iter().flatten() {
                let f = f.unwrap().path();
                let rulebook = f
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().contains("-rules"));
                if f.extension().is_some_and(|e| e == "pdf") && !rulebook {
                    found.push(f);
                }
            }
        }
    }
    found.sort();
    found
}

/// The texts under the least sizes in every PDF of a build: `file page N: 5.7 pt
/// "TEXT"`, each text once per file; and how many texts were read.
fn too_small(out: &Path) -> (Vec<String>, usize) {
    let mut problems = BTreeMap::new();
    let mut read = 0;
    for pdf in game_pdfs(out) {
        let name = pdf.strip_prefix(out).unwrap().display().to_string();
        for (page, s) in texts_of(&pdf) {
            read += 1;
            let least = if s.light { MIN_LIGHT_PT } else { MIN_PT };
            if s.pt < least - 0.01 {
                let key = format!(
                    "{name}: {:.2} pt{} {:?}",
                    s.pt,
                    if s.light { " light" } else { "" },
                    s.text
                );
                problems.entry(key).or_insert(page);
            }
        }
    }
    let list = problems
        .into_iter()
        .map(|(k, page)| format!("{k} (page {page})"))
        .collect();
    (list, read)
}

fn assert_readable(out: &Path, what: &str) {
    let (problems, read) = too_small(out);
    eprintln!("{what}: {read} texts read, {} too small", problems.len());
    assert!(read > 5000, "{what}: only {read} texts read");
    assert!(
        problems.is_empty(),
        "{what}: {} texts under {MIN_PT} pt ({MIN_LIGHT_PT} pt light):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn every_text_of_home_letter_is_readable() {
    assert_readable(built(&HOME_LETTER, "home", "letter"), "home, Letter");
}

#[test]
fn every_text_of_home_a4_is_readable() {
    assert_readable(built(&HOME_A4, "home", "a4"), "home, A4");
}

#[test]
fn every_text_of_gutterfold_is_readable() {
    assert_readable(
        built(&FOLD_LETTER, "gutterfold", "letter"),
        "gutterfold, Letter",
    );
}

#[test]
fn the_reader_finds_small_and_light_text() {
    // A face with a 5 pt dark text, a 6.52 pt white text on colour and a 7 pt white
    // one, built and read back: the reader must see the two that are too small.
    let tmp = crate::common::base_copy();
    let card = tmp.path().join("templates/mini/card.svg");
    let text = std::fs::read_to_string(&card).unwrap();
    let small = r##"<rect x="5" y="40" width="50" height="20" fill="#1f4fa8"/>
<text x="8" y="45" font-size="1.764">Tiny dark</text>
<text x="8" y="50" font-size="2.3" fill="#ffffff">Small light</text>
<text x="8" y="56" font-size="2.47" fill="#ffffff">Big light</text>
{% endblock %}"##;
    assert!(text.contains("{% endblock %}"), "{text}");
    std::fs::write(&card, text.replacen("{% endblock %}", small, 1)).unwrap();
    let out = tmp.path().join("out");
    let r = crate::common::run(
        tmp.path(),
        &["build", "mini", "--out", out.to_str().unwrap()],
    );
    let (stdout, stderr) = crate::common::texts(&r);
    assert!(r.status.success(), "{stdout}\n{stderr}");
    // Preflight said so too, naming the template line.
    assert!(
        stderr.contains("text \"Tiny dark\" is 5 pt at print size, under the 6 pt"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "text \"Small light\" is 6.5 pt at print size, under the 7 pt of light text on colour"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("templates/mini/card.svg:"), "{stderr}");
    assert!(!stderr.contains("\"Big light\""), "{stderr}");
    let pdf = out.join("mini/home/mini.pdf");
    let shown = texts_of(&pdf);
    let find = |t: &str| {
        shown
            .iter()
            .find(|(_, s)| s.text == t)
            .map(|(_, s)| s.clone())
            .unwrap_or_else(|| panic!("{t} in {shown:?}"))
    };
    let (tiny, small, big) = (find("Tiny dark"), find("Small light"), find("Big light"));
    assert!((tiny.pt - 5.0).abs() < 0.01 && !tiny.light, "{tiny:?}");
    assert!((small.pt - 6.52).abs() < 0.01 && small.light, "{small:?}");
    assert!((big.pt - 7.0).abs() < 0.02 && big.light, "{big:?}");
}
