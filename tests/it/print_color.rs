//! Print-shop colour (`src/color.rs`, `src/export/cmyk.rs`, `src/export/pdfx.rs`):
//! every PDF of the CMYK profiles read back (no RGB, no transparency in PDF/X-1a,
//! the output intent and PDF/X keys, embedded fonts, boxes) and rendered by
//! Ghostscript to CMYK (`tiff32nc`): no pixel over the ink limit, black text on
//! the black plate alone, text still extractable.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::common::pdf::{Document, Object};

use crate::common::{build_once, pdftotext, transparency};

static DTC: OnceLock<tempfile::TempDir> = OnceLock::new();
static OFFSET: OnceLock<tempfile::TempDir> = OnceLock::new();

/// Every game built for DriveThruCards (profiles.rs reads it too).
pub fn drivethrucards() -> &'static Path {
    build_once(&DTC, &["build", "--profile", "drivethrucards"], "pages ->")
}

/// Interstate Trucking (every kind of part) built for an offset printer.
fn offset() -> &'static Path {
    build_once(
        &OFFSET,
        &["build", "interstate-trucking", "--profile", "offset"],
        "pages ->",
    )
}

/// The PDFs under `dir`, sorted.
pub(crate) fn pdfs(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "pdf") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Every use of RGB in `doc`: a `/DeviceRGB` name, an ICC-based space of three
/// components, an `rg`/`RG` operator in a content stream.
fn rgb_uses(doc: &Document) -> Vec<String> {
    let mut found = Vec::new();
    fn names(o: &Object, out: &mut Vec<String>, id: crate::common::pdf::ObjectId) {
        match o {
            Object::Name(n) if n == b"DeviceRGB" || n == b"CalRGB" => {
                out.push(format!("{id:?}: /{}", String::from_utf8_lossy(n)))
            }
            Object::Array(a) => a.iter().for_each(|x| names(x, out, id)),
            Object::Dictionary(d) => d.iter().for_each(|(_, x)| names(x, out, id)),
            Object::Stream(s) => s.dict.iter().for_each(|(_, x)| names(x, out, id)),
            _ => {}
        }
    }
    for (id, obj) in &doc.objects {
        names(obj, &mut found, *id);
        if let Object::Stream(s) = obj {
            if s.dict.get(b"N").ok().and_then(|n| n.as_i64().ok()) == Some(3) {
                found.push(format!("{id:?}: an ICC profile of 3 components"));
            }
            let is_content = s.dict.get(b"Subtype").ok().and_then(|t| t.as_name().ok())
                == Some(&b"Form"[..])
                || (s.dict.get(b"Type").is_err() && s.dict.get(b"Length").is_ok());
            if !is_content || s.dict.get(b"N").is_ok() {
                continue;
            }
            let data = s
                .decompressed_content()
                .unwrap_or_else(|_| s.content.clone());
            if let Ok(content) = crate::common::pdf::Content::decode(&data) {
                for op in content.operations {
                    if op.operator == "rg" || op.operator == "RG" {
                        found.push(format!("{id:?}: {} operator", op.operator));
                    }
                }
            }
        }
    }
    found
}

/// The catalog's output intent and the `/Info` dictionary.
fn pdfx_keys(
    doc: &Document,
) -> (
    crate::common::pdf::Dictionary,
    crate::common::pdf::Dictionary,
) {
    let root = doc.trailer.get(b"Root").unwrap().as_reference().unwrap();
    let catalog = doc.get_dictionary(root).unwrap();
    let intents = catalog.get(b"OutputIntents").unwrap().as_array().unwrap();
    assert_eq!(intents.len(), 1, "one output intent");
    let intent = doc
        .get_dictionary(intents[0].as_reference().unwrap())
        .unwrap()
        .clone();
    let info = doc.trailer.get(b"Info").unwrap().as_reference().unwrap();
    (intent, doc.get_dictionary(info).unwrap().clone())
}

fn text(d: &crate::common::pdf::Dictionary, key: &[u8]) -> String {
    String::from_utf8_lossy(d.get(key).unwrap().as_str().unwrap()).into_owned()
}

/// The output intent and PDF/X keys of `doc`, as `standard` (`PDF/X-1a:2003`)
/// and `condition` (`FOGRA39`) want them.
fn assert_pdfx(doc: &Document, name: &str, standard: &str, condition: &str, version: &str) {
    assert_eq!(doc.version, version, "{name}: PDF version");
    let (intent, info) = pdfx_keys(doc);
    assert_eq!(intent.get(b"S").unwrap().as_name().unwrap(), b"GTS_PDFX");
    assert_eq!(text(&intent, b"OutputConditionIdentifier"), condition);
    let icc = doc
        .get_object(
            intent
                .get(b"DestOutputProfile")
                .unwrap()
                .as_reference()
                .unwrap(),
        )
        .unwrap()
        .as_stream()
        .unwrap();
    assert_eq!(
        icc.dict.get(b"N").unwrap().as_i64().unwrap(),
        4,
        "a CMYK profile"
    );
    assert_eq!(text(&info, b"GTS_PDFXVersion"), standard, "{name}");
    assert_eq!(info.get(b"Trapped").unwrap().as_name().unwrap(), b"False");
    for key in [&b"Title"[..], b"CreationDate", b"ModDate"] {
        assert!(
            info.get(key).is_ok(),
            "{name}: no /{}",
            String::from_utf8_lossy(key)
        );
    }
    assert!(doc.trailer.get(b"ID").is_ok(), "{name}: no file /ID");
}

/// Every font of the PDF is embedded (`pdffonts`).
fn assert_fonts_embedded(pdf: &Path) {
    let o = Command::new("pdffonts")
        .arg(pdf)
        .output()
        .expect("pdffonts (poppler-utils)");
    let out = String::from_utf8_lossy(&o.stdout);
    // A file with no text (trailers) has none.
    for f in out.lines().skip(2) {
        let cols: Vec<&str> = f.split_whitespace().collect();
        // name type [type] encoding emb sub uni object ID
        let emb = cols[cols.len() - 5];
        assert_eq!(emb, "yes", "{}: font not embedded: {f}", pdf.display());
    }
}

/// `qpdf --check` finds nothing wrong.
fn assert_qpdf_clean(pdf: &Path) {
    let Ok(o) = Command::new("qpdf").arg("--check").arg(pdf).output() else {
        assert!(std::env::var_os("CI").is_none(), "qpdf is not installed");
        return;
    };
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}: {out}", pdf.display());
}

/// Pages of `pdf` rendered by Ghostscript as CMYK (`tiff32nc`) at `dpi`, each
/// page's pixels as [c, m, y, k]; `only_text` leaves out vector art and images.
fn cmyk_pages(pdf: &Path, dpi: u32, only_text: bool) -> Vec<(u32, u32, Vec<[u8; 4]>)> {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new("gs");
    cmd.args(["-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiff32nc"])
        .arg(format!("-r{dpi}"))
        .arg(format!("-sOutputFile={}/p%04d.tif", dir.path().display()));
    if only_text {
        cmd.args(["-dFILTERVECTOR", "-dFILTERIMAGE"]);
    }
    let o = cmd
        .arg(pdf)
        .output()
        .expect("ghostscript (gs) is installed");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| read_tiff(&std::fs::read(f).unwrap()))
        .collect()
}

/// An uncompressed 8-bit CMYK TIFF (what `tiff32nc` writes): size and pixels.
fn read_tiff(b: &[u8]) -> (u32, u32, Vec<[u8; 4]>) {
    let le = &b[..2] == b"II";
    let u16_at = |i: usize| {
        let v = [b[i], b[i + 1]];
        if le {
            u16::from_le_bytes(v)
        } else {
            u16::from_be_bytes(v)
        }
    };
    let u32_at = |i: usize| {
        let v = [b[i], b[i + 1], b[i + 2], b[i + 3]];
        if le {
            u32::from_le_bytes(v)
        } else {
            u32::from_be_bytes(v)
        }
    };
    let ifd = u32_at(4) as usize;
    let (mut w, mut h, mut offsets, mut counts) = (0, 0, Vec::new(), Vec::new());
    for k in 0..u16_at(ifd) as usize {
        let e = ifd + 2 + 12 * k;
        let (tag, kind, n) = (u16_at(e), u16_at(e + 2), u32_at(e + 4) as usize);
        let value = |j: usize| -> u32 {
            let size = if kind == 3 { 2 } else { 4 };
            let at = if n * size <= 4 {
                e + 8
            } else {
                u32_at(e + 8) as usize
            };
            if kind == 3 {
                u32::from(u16_at(at + 2 * j))
            } else {
                u32_at(at + 4 * j)
            }
        };
        match tag {
            256 => w = value(0),
            257 => h = value(0),
            259 => assert_eq!(value(0), 1, "uncompressed"),
            273 => offsets = (0..n).map(value).collect(),
            279 => counts = (0..n).map(value).collect(),
            _ => {}
        }
    }
    let mut px = Vec::with_capacity((w * h) as usize);
    for (o, c) in offsets.iter().zip(&counts) {
        for p in b[*o as usize..(*o + *c) as usize].chunks_exact(4) {
            px.push([p[0], p[1], p[2], p[3]]);
        }
    }
    (w, h, px)
}

fn ink(p: [u8; 4]) -> f64 {
    p.iter().map(|&v| f64::from(v)).sum::<f64>() / 2.55
}

#[test]
fn drivethrucards_pdfs_are_pdfx_1a_in_cmyk() {
    let out = drivethrucards();
    let files = pdfs(out);
    assert!(files.len() >= 5, "{files:?}");
    for pdf in &files {
        let name = pdf.file_name().unwrap().to_string_lossy().into_owned();
        let doc = Document::load(pdf).unwrap();
        assert_eq!(rgb_uses(&doc), Vec::<String>::new(), "{name}: RGB");
        assert_eq!(
            transparency(&doc),
            Vec::<String>::new(),
            "{name}: transparency"
        );
        assert_pdfx(&doc, &name, "PDF/X-1a:2003", "CGATS TR 006", "1.4");
        for (_, page) in doc.get_pages() {
            let media = crate::common::rect(&doc, page, b"MediaBox");
            let bleed = crate::common::rect(&doc, page, b"BleedBox");
            let trim = crate::common::rect(&doc, page, b"TrimBox");
            assert!(
                crate::common::close(&media, &bleed),
                "{name}: bleed box is the page"
            );
            // 1/8 in of bleed on every side of a part (the rulebook's pages are
            // white to their edge and have none).
            assert!(
                name.contains("-rules") || (trim[0] - bleed[0] - 9.0).abs() < 0.1,
                "{name}: trim {trim:?}"
            );
        }
        assert_fonts_embedded(pdf);
        assert_qpdf_clean(pdf);
    }
    let contracts = out.join("interstate-trucking/drivethrucards/contracts.pdf");
    let words = pdftotext(&contracts, 2);
    assert!(!words.trim().is_empty(), "the text is still text");
}

#[test]
fn drivethrucards_ink_stays_within_240_percent() {
    for pdf in pdfs(drivethrucards()) {
        let mut worst = 0.0f64;
        for (_, _, px) in cmyk_pages(&pdf, 36, false) {
            worst = px.iter().map(|&p| ink(p)).fold(worst, f64::max);
        }
        // Ghostscript's own rounding of 8-bit values adds at most 1 %.
        assert!(worst <= 241.0, "{}: {worst:.1} % ink", pdf.display());
    }
}

#[test]
fn offset_pdfs_are_pdfx_4_in_cmyk_within_300_percent() {
    let out = offset();
    let files = pdfs(out);
    assert!(files.len() >= 8, "{files:?}");
    for pdf in &files {
        let name = pdf.file_name().unwrap().to_string_lossy().into_owned();
        let doc = Document::load(pdf).unwrap();
        assert_eq!(rgb_uses(&doc), Vec::<String>::new(), "{name}: RGB");
        assert_pdfx(&doc, &name, "PDF/X-4", "FOGRA39", "1.6");
        let root = doc.trailer.get(b"Root").unwrap().as_reference().unwrap();
        let meta = doc.get_dictionary(root).unwrap().get(b"Metadata").unwrap();
        let xmp = doc
            .get_object(meta.as_reference().unwrap())
            .unwrap()
            .as_stream()
            .unwrap();
        let xmp = String::from_utf8_lossy(&xmp.content);
        assert!(
            xmp.contains("PDF/X-4") && xmp.contains("GTS_PDFXVersion"),
            "{name}: {xmp}"
        );
        assert_fonts_embedded(pdf);
        assert_qpdf_clean(pdf);
        let dpi = if name.contains("board") { 4 } else { 24 };
        for (_, _, px) in cmyk_pages(pdf, dpi, false) {
            let worst = px.iter().map(|&p| ink(p)).fold(0.0, f64::max);
            assert!(worst <= 301.0, "{name}: {worst:.1} % ink");
        }
    }
}

/// A face with black, grey and dark blue-grey text, a hairline, a large black
/// area and a red title; `opacity` on a white panel over the black.
fn face(opacity: &str) -> String {
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="69.5mm" height="94.9mm" viewBox="0 0 69.5 94.9" font-family="Lato">
<rect width="69.5" height="94.9" fill="#ffffff"/>
<text x="6" y="12" font-size="7" fill="#d62828">RED TITLE</text>
<rect x="3" y="20" width="63.5" height="30" fill="#000000"/>
<rect x="8" y="25" width="20" height="20" fill="#ffffff" fill-opacity="{opacity}"/>
<path d="M5 58 H64" stroke="#111111" stroke-width="0.1"/>
<text x="6" y="66" font-size="4" fill="#263238">Body text in blue-grey</text>
<text x="6" y="74" font-size="4" fill="#000000">Black text</text>
<text x="6" y="82" font-size="3" fill="#6b7280">Small grey text</text>
</svg>"##
    )
}

/// The face as a one-page PDF for DriveThruCards' colour (PDF/X-1a).
fn dtc_face(svg: &str, dir: &Path) -> PathBuf {
    let images = std::sync::Arc::new(cardstock::svg::Images::none());
    let fonts = cardstock::fonts::FontBook::builtin();
    let tree = std::sync::Arc::new(cardstock::svg::parse(svg, &images, &fonts).unwrap());
    let project = cardstock::project::Project::new(
        cardstock::source::DiskFiles::new(&crate::common::repo()).unwrap(),
    );
    let profile = cardstock::profile::load(&project, "drivethrucards")
        .value
        .unwrap();
    use cardstock::export::pdf;
    let shop = pdf::Shop::new(profile.print.as_ref().unwrap(), 300.0).unwrap();
    let size = cardstock::model::Size {
        width: 69.5,
        height: 94.9,
    };
    let sheet = cardstock::layout::one_up(0, size, 0.0, "face");
    let given = |_| cardstock::export::cmyk::Given::new();
    let print = pdf::Print {
        shop: &shop,
        given: &given,
    };
    let bytes = pdf::write(&pdf::Job {
        title: "face",
        sheets: std::slice::from_ref(&sheet),
        faces: &|_| Some(cardstock::export::Stack::one(tree.clone())),
        drawn: &|_| {},
        digests: &Default::default(),
        bookmarks: &[],
        compress: true,
        print: Some(&print),
        store_face: None,
    })
    .unwrap();
    let path = dir.join("face.pdf");
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn black_and_grey_text_and_hairlines_print_on_the_black_plate_alone() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dtc_face(&face("1"), dir.path());
    // Text only: below the red title every inked pixel is black ink alone.
    let (w, h, px) = cmyk_pages(&pdf, 150, true).remove(0);
    let below_title = (h as f64 * 55.0 / 94.9) as u32;
    let mut inked = 0;
    for y in below_title..h {
        for x in 0..w {
            let p = px[(y * w + x) as usize];
            if p != [0; 4] {
                inked += 1;
                assert_eq!(
                    &p[..3],
                    &[0, 0, 0],
                    "a text pixel at {x},{y} uses colour inks: {p:?}"
                );
            }
        }
    }
    assert!(inked > 500, "the text is there ({inked} px)");
    // Everything: the hairline is black ink alone, the black area the rich black.
    let (w, _, px) = cmyk_pages(&pdf, 150, false).remove(0);
    let at = |x_mm: f64, y_mm: f64| {
        let f = 150.0 / 25.4;
        px[((y_mm * f) as u32 * w + (x_mm * f) as u32) as usize]
    };
    assert_eq!(&at(40.0, 58.0)[..3], &[0, 0, 0], "hairline");
    let rich = at(50.0, 40.0);
    assert!(
        rich[3] > 250 && rich[0] > 140 && ink(rich) <= 241.0,
        "rich black: {rich:?}"
    );
    // The red title (its glyphs, somewhere in its band) is magenta and yellow.
    let red = (6..40)
        .flat_map(|x| (6..12).map(move |y| (x, y)))
        .map(|(x, y)| at(f64::from(x), f64::from(y)))
        .max_by_key(|p| p[1])
        .unwrap();
    assert!(
        red[1] > 150 && red[2] > 100,
        "the red title is red: {red:?}"
    );
}

#[test]
fn transparency_is_flattened_for_pdfx_1a_and_the_text_stays_text() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dtc_face(&face("0.5"), dir.path());
    let doc = Document::load(&pdf).unwrap();
    assert_eq!(transparency(&doc), Vec::<String>::new());
    assert_eq!(rgb_uses(&doc), Vec::<String>::new());
    let words = pdftotext(&pdf, 1);
    for w in ["RED TITLE", "Black text", "Small grey text"] {
        assert!(words.contains(w), "{w:?} not in {words}");
    }
    // The panel at half opacity over black prints as a mid grey.
    let (w, _, px) = cmyk_pages(&pdf, 150, false).remove(0);
    let f = 150.0 / 25.4;
    let p = px[((35.0 * f) as u32 * w + (18.0 * f) as u32) as usize];
    assert!(
        ink(p) > 40.0 && ink(p) < 200.0,
        "half-opaque white over black: {p:?}"
    );
    // And the text above it is still on the black plate alone.
    let (w, h, px) = cmyk_pages(&pdf, 150, true).remove(0);
    let below_title = (h as f64 * 55.0 / 94.9) as u32;
    for y in below_title..h {
        for x in 0..w {
            let p = px[(y * w + x) as usize];
            assert!(p == [0; 4] || p[..3] == [0, 0, 0], "{x},{y}: {p:?}");
        }
    }
}

/// The fixture game with DriveThruCards' profile and `extra` drawn on every card.
fn fixture_for_shop(extra: &str) -> tempfile::TempDir {
    let tmp = crate::common::base_copy();
    crate::common::copy_dir(
        &crate::common::repo().join("profiles"),
        &tmp.path().join("profiles"),
    );
    let card = tmp.path().join("templates/mini/card.svg");
    crate::common::edit(
        &card,
        "{% endblock %}",
        &format!("{extra}\n{{% endblock %}}"),
    );
    tmp
}

#[test]
fn shop_preflight_names_thin_lines_and_ink_over_the_limit() {
    let tmp = fixture_for_shop(
        r##"<path d="M5 60 H50" stroke="#000000" stroke-width="0.05"/>
<rect x="5" y="65" width="20" height="10" fill="#101010" data-cmyk="100 100 100 100"/>"##,
    );
    let o = crate::common::run(
        tmp.path(),
        &["build", "mini", "--profile", "drivethrucards"],
    );
    let (_, stderr) = crate::common::texts(&o);
    assert!(!o.status.success(), "{stderr}");
    assert!(
        stderr.contains("a line 0.14 pt wide at print size: a press needs 0.25 pt or more"),
        "{stderr}"
    );
    assert!(
        stderr.contains(r#"data-cmyk="100 100 100 100" is 400 % ink, over the shop's 240 %"#),
        "{stderr}"
    );
    assert!(
        stderr.contains("templates/mini/card.svg:7"),
        "the thin line's line: {stderr}"
    );
    assert!(
        stderr.contains("templates/mini/card.svg:8"),
        "the colour's line: {stderr}"
    );
    // At home neither is a problem.
    let o = crate::common::run(tmp.path(), &["build", "mini"]);
    assert!(o.status.success(), "{:?}", crate::common::texts(&o));
}

#[test]
fn a_cmyk_colour_the_template_gives_passes_through_untouched() {
    let tmp = fixture_for_shop(
        r##"<rect x="5" y="65" width="30" height="12" fill="#2a9d8f" data-cmyk="70 0 35 5"/>"##,
    );
    let out = tempfile::tempdir().unwrap();
    let o = crate::common::run(
        tmp.path(),
        &[
            "build",
            "mini",
            "--profile",
            "drivethrucards",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{:?}", crate::common::texts(&o));
    let pdf = out.path().join("mini/drivethrucards/cards.pdf");
    let (w, _, px) = cmyk_pages(&pdf, 150, false).remove(1);
    let f = 150.0 / 25.4;
    // The card's trim starts 1/8 in into the page.
    let at =
        |x: f64, y: f64| px[(((y + 3.175) * f) as u32 * w + ((x + 3.175) * f) as u32) as usize];
    let want = [70.0, 0.0, 35.0, 5.0].map(|p: f64| (p * 2.55).round() as i32);
    let got = at(20.0, 71.0).map(i32::from);
    for k in 0..4 {
        assert!(
            (got[k] - want[k]).abs() <= 2,
            "{got:?} is not C70 M0 Y35 K5"
        );
    }
}

#[test]
fn a_cmyk_profile_without_a_condition_says_what_to_add() {
    let tmp = fixture_for_shop("");
    let profile = tmp.path().join("profiles/drivethrucards.toml");
    crate::common::edit(
        &profile,
        "condition = \"CGATS TR 006\"",
        "condition = \"ISO Coated v2\"",
    );
    let o = crate::common::run(
        tmp.path(),
        &["build", "mini", "--profile", "drivethrucards"],
    );
    let (_, stderr) = crate::common::texts(&o);
    assert!(!o.status.success());
    assert!(
        stderr.contains("cardstock has no ICC profile for the printing condition `ISO Coated v2`")
            && stderr.contains("use one of: FOGRA39, CGATS TR 006")
            && stderr.contains("profiles/drivethrucards.toml"),
        "{stderr}"
    );
    let o = crate::common::run(tmp.path(), &["build", "mini", "--proof"]);
    let (_, stderr) = crate::common::texts(&o);
    assert!(
        !o.status.success() && stderr.contains("--proof shows a print shop's CMYK"),
        "{stderr}"
    );
}

#[test]
fn the_soft_proof_is_each_face_through_the_profile_and_back() {
    let out = tempfile::tempdir().unwrap();
    let o = crate::common::run(
        &crate::common::repo(),
        &[
            "build",
            "interstate-trucking",
            "--profile",
            "drivethrucards",
            "--proof",
            "--format",
            "pdf,png",
            "--dpi",
            "40",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{:?}", crate::common::texts(&o));
    let dir = out.path().join("interstate-trucking/drivethrucards");
    let (rgb_info, rgb) =
        crate::common::decode_png(&std::fs::read(dir.join("png/contracts/001-front.png")).unwrap());
    let (proof_info, proof) = crate::common::decode_png(
        &std::fs::read(dir.join("proof/contracts/001-front.png")).unwrap(),
    );
    assert_eq!(
        (rgb_info.width, rgb_info.height),
        (proof_info.width, proof_info.height)
    );
    assert_eq!(proof_info.color_type, png::ColorType::Rgb);
    // Close to the screen colours (the card's colours are inside the press's
    // gamut), not the same bytes: they went through CMYK.
    let rgb: Vec<u8> = rgb
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    let mean = rgb
        .iter()
        .zip(&proof)
        .map(|(a, b)| (i32::from(*a) - i32::from(*b)).abs())
        .sum::<i32>() as f64
        / rgb.len() as f64;
    assert!(mean > 0.5 && mean < 12.0, "mean difference {mean}");
}

#[test]
fn the_preview_of_a_cmyk_profile_shows_the_proof_and_the_colours_that_move() {
    let tmp = fixture_for_shop(
        r##"<rect x="5" y="65" width="30" height="12" fill="#00ff00"/>
<rect x="40" y="65" width="15" height="12" fill="#3a5a8c"/>"##,
    );
    let project = cardstock::project::Project::disk(tmp.path()).unwrap();
    let opts = crate::common::screen_options(cardstock::options::Asked {
        profile: Some("drivethrucards".into()),
        dpi: 40.0,
        ..Default::default()
    });
    let p = cardstock::preview::build(&project, "mini", &opts, &Default::default());
    assert!(p.ok, "{:?}", p.diagnostics);
    assert_eq!(p.proof.as_deref(), Some("CGATS TR 006"));
    let face = p.faces.iter().find(|f| f.side == "front").unwrap();
    // Screen green is far outside any press's gamut; the muted blue prints as it is.
    let green = face
        .moved
        .iter()
        .find(|m| m.screen == "#00ff00")
        .expect("green moves");
    assert!(green.delta_e > 5.0, "{green:?}");
    assert!(
        face.moved.iter().all(|m| m.screen != "#3a5a8c"),
        "{:?}",
        face.moved
    );
    // The picture is the soft proof: the same bytes `build --proof` writes.
    let png = p.png(&face.hash).unwrap().unwrap();
    let out = tempfile::tempdir().unwrap();
    let o = crate::common::run(
        tmp.path(),
        &[
            "build",
            "mini",
            "--profile",
            "drivethrucards",
            "--proof",
            "--dpi",
            "40",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{:?}", crate::common::texts(&o));
    let proof = std::fs::read(
        out.path()
            .join(format!("mini/drivethrucards/proof/{}.png", face.id)),
    )
    .unwrap();
    assert!(png == proof, "the preview's image is the proof");
}
