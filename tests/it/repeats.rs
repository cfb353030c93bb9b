//! Content that repeats across faces is drawn once in the PDF (`src/export/repeats.rs`
//! and the krilla-svg `Reuse` patch): smaller files, the same pages, the same bytes.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use crate::common::pdf::{Document, Object, ObjectId};
use cardstock::export::pdf;
use cardstock::layout;
use cardstock::model::Size;
use resvg::tiny_skia::Pixmap;

use crate::common::{repo, run, texts};

/// For every form XObject: how many other form XObjects or pages place it.
fn placements(doc: &Document) -> HashMap<ObjectId, usize> {
    let mut used: HashMap<ObjectId, usize> = HashMap::new();
    for obj in doc.objects.values() {
        let dict = match obj {
            Object::Stream(s) => &s.dict,
            Object::Dictionary(d) => d,
            _ => continue,
        };
        let Ok(resources) = dict.get(b"Resources") else {
            continue;
        };
        let resources = match resources {
            Object::Reference(id) => doc.get_dictionary(*id).ok(),
            Object::Dictionary(d) => Some(d),
            _ => None,
        };
        let Some(xobjects) = resources.and_then(|r| r.get(b"XObject").ok()) else {
            continue;
        };
        let xobjects = match xobjects {
            Object::Reference(id) => doc.get_dictionary(*id).ok(),
            Object::Dictionary(d) => Some(d),
            _ => None,
        };
        for (_, x) in xobjects.into_iter().flat_map(|d| d.iter()) {
            if let Object::Reference(id) = x {
                *used.entry(*id).or_default() += 1;
            }
        }
    }
    used
}

/// Builds the real Truck Off (40 distinct pad sheets) into a new folder.
fn build_truck_off() -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let o = run(
        &repo(),
        &[
            "build",
            "truck-off",
            "--format",
            "pdf",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    out
}

#[test]
fn truck_off_pads_share_their_map_and_stay_small_and_the_same() {
    let (a, b) = (build_truck_off(), build_truck_off());
    for name in ["truck-off.pdf", "truck-off-pad-pad-size.pdf"] {
        let rel = Path::new("truck-off/home").join(name);
        let bytes = std::fs::read(a.path().join(&rel)).unwrap();
        // Drawn in full, each sheet's map, grid and legend made this 1.6 MB.
        assert!(
            bytes.len() <= 400_000,
            "{name} is {} bytes; the target is at most 400 KB",
            bytes.len()
        );
        assert!(
            bytes == std::fs::read(b.path().join(&rel)).unwrap(),
            "{name} differs between two builds"
        );
        let doc = Document::load_mem(&bytes).unwrap();
        let shared = placements(&doc).values().filter(|&&n| n >= 20).count();
        assert!(
            shared >= 1,
            "{name}: no XObject is placed by 20 or more others: the sheets share nothing"
        );
    }
}

/// A card frame (border, corner pips, a pattern of many small shapes) with a title.
fn face(title: &str, fill: &str) -> String {
    let mut dots = String::new();
    for i in 0..12 {
        for j in 0..3 {
            dots.push_str(&format!(
                r##"<circle cx="{}" cy="{}" r="1.2" fill="#c9a227"/>"##,
                8 + i * 5,
                78 + j * 5
            ));
        }
    }
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="69.5mm" height="94.9mm" viewBox="0 0 69.5 94.9" font-family="Lato">
<rect width="69.5" height="94.9" fill="#fdf6e3"/>
<g><rect x="3" y="3" width="63.5" height="88.9" rx="3" fill="none" stroke="#1d3557" stroke-width="1.2"/>
<path d="M8 8 L14 8 L8 14 Z M61.5 8 L55.5 8 L61.5 14 Z" fill="#e63946"/>{dots}</g>
<text x="34.75" y="40" font-size="8" text-anchor="middle" fill="{fill}">{title}</text>
</svg>"##
    )
}

#[test]
fn a_shared_frame_prints_where_resvg_draws_it() {
    let dir = tempfile::tempdir().unwrap();
    let images = std::sync::Arc::new(cardstock::svg::Images::none());
    let fonts = cardstock::fonts::FontBook::builtin();
    let trees: Vec<std::sync::Arc<usvg::Tree>> = [("ALPHA", "#1d3557"), ("BRAVO", "#e63946")]
        .iter()
        .map(|(t, f)| {
            std::sync::Arc::new(cardstock::svg::parse(&face(t, f), &images, &fonts).unwrap())
        })
        .collect();
    let size = Size {
        width: 69.5,
        height: 94.9,
    };
    let sheets: Vec<_> = (0..2)
        .map(|i| layout::one_up(i, size, 0.0, "card"))
        .collect();
    let bytes = pdf::write(&pdf::Job {
        title: "cards",
        sheets: &sheets,
        faces: &|i| trees.get(i).cloned().map(cardstock::export::Stack::one),
        drawn: &|_| {},
        digests: &Default::default(),
        bookmarks: &[],
        compress: true,
        print: None,
        store_face: None,
    })
    .unwrap();
    let doc = Document::load_mem(&bytes).unwrap();
    // The shared XObject's bounds are drawn clipped away, not as an invisible
    // (transparent) rectangle: a PDF/X-1a converter flattens a page with any
    // transparency into one bitmap.
    assert_eq!(crate::common::transparency(&doc), Vec::<String>::new());
    // The frame is one XObject placed by both faces; the titles differ.
    assert_eq!(
        placements(&doc).values().filter(|&&n| n == 2).count(),
        1,
        "exactly one XObject (the frame) is placed twice"
    );
    let path = dir.path().join("cards.pdf");
    std::fs::write(&path, &bytes).unwrap();
    for (page, tree) in trees.iter().enumerate() {
        let png = cardstock::export::png::write(&tree.clone().into(), 69.5, 94.9, 100.0).unwrap();
        let want = Pixmap::decode_png(&png).unwrap();
        let (w, h) = (want.width().to_string(), want.height().to_string());
        let n = (page + 1).to_string();
        let prefix = dir.path().join(format!("p{n}"));
        let o = Command::new("pdftoppm")
            .args(["-f", &n, "-l", &n, "-scale-to-x", &w, "-scale-to-y", &h])
            .args(["-png", "-singlefile"])
            .arg(&path)
            .arg(&prefix)
            .output()
            .expect("pdftoppm (poppler-utils) is installed");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let got = Pixmap::load_png(prefix.with_extension("png")).unwrap();
        assert_eq!((got.width(), got.height()), (want.width(), want.height()));
        // Mean colour difference per 4 x 4 px square; a frame moved or lost by the
        // sharing shows as hundreds of squares far apart, anti-aliasing as a few.
        let far = squares_apart(&got, &want, 4, 40.0);
        assert!(
            far <= 8,
            "page {n}: {far} squares of 4 x 4 px differ from resvg's picture"
        );
    }
}

/// How many `block` x `block` squares differ by more than `limit` (0-255, mean of RGB).
fn squares_apart(a: &Pixmap, b: &Pixmap, block: u32, limit: f64) -> usize {
    let mut far = 0;
    for by in 0..a.height() / block {
        for bx in 0..a.width() / block {
            let mut sum = 0.0;
            for y in by * block..(by + 1) * block {
                for x in bx * block..(bx + 1) * block {
                    let (p, q) = (a.pixel(x, y).unwrap(), b.pixel(x, y).unwrap());
                    let (p, q) = (p.demultiply(), q.demultiply());
                    sum += (p.red() as f64 - q.red() as f64).abs()
                        + (p.green() as f64 - q.green() as f64).abs()
                        + (p.blue() as f64 - q.blue() as f64).abs();
                }
            }
            if sum / (3 * block * block) as f64 > limit {
                far += 1;
            }
        }
    }
    far
}
