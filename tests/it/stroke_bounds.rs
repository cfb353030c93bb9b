//! krilla measures a stroked path by stroking it whenever the bounds matter (inside
//! a form XObject, whose /BBox clips it), and the krilla patch
//! `vendor/patches/krilla-stroke-bounds.diff` keeps those bounds for the whole
//! process, keyed by the path and every property of the stroke that the measure
//! reads. Kept bounds must be the ones a fresh measure gives: this draws one path
//! with strokes that differ in one property each (dash array, dash offset, cap, join,
//! width, miter limit), each twice and in two documents, inside isolated groups (form
//! XObjects) under a transform, and checks every form's /BBox against tiny-skia's
//! own measure of that stroke. A key that left out a property would hand a later
//! stroke the bounds of an earlier one.

use krilla::color::rgb;
use krilla::geom::{PathBuilder, Transform};
use krilla::page::PageSettings;
use krilla::paint::{LineCap, LineJoin, Stroke, StrokeDash};
use krilla::Document;
use usvg::tiny_skia_path as tsp;

use crate::common::pdf;

/// The path every stroke draws: open, slanted at its ends, with a sharp corner and
/// a curve, so that the cap, the join, the miter limit and the width all move its
/// bounds (at a right angle along the axes, every join has the same bounds).
const POINTS: [(f32, f32); 6] = [
    (10.0, 10.0),
    (90.0, 30.0),
    (20.0, 50.0),
    (10.0, 70.0),
    (40.0, 90.0),
    (70.0, 80.0),
];

/// The transform each drawing is placed under (inside its form).
fn transform() -> (f32, f32, f32, f32, f32, f32) {
    (0.8, 0.3, -0.2, 1.1, 40.0, 25.0)
}

/// The path through [`POINTS`], made with krilla's or tiny-skia's `PathBuilder`
/// (the same methods; krilla's wraps tiny-skia's but does not hand it out).
macro_rules! path_with {
    ($builder:ty) => {{
        let mut pb = <$builder>::new();
        let [p0, p1, p2, c1, c2, end] = POINTS;
        pb.move_to(p0.0, p0.1);
        pb.line_to(p1.0, p1.1);
        pb.line_to(p2.0, p2.1);
        pb.cubic_to(c1.0, c1.1, c2.0, c2.1, end.0, end.1);
        pb.finish().unwrap()
    }};
}

fn krilla_path() -> krilla::geom::Path {
    path_with!(PathBuilder)
}

fn tiny_skia_path() -> tsp::Path {
    path_with!(tsp::PathBuilder)
}

/// A dashed stroke with a round cap and a miter join, and variants that each
/// change one property of it. The first ones have bounds of their own; the last
/// ones change only the dash, which krilla's measure passes on to tiny-skia and
/// tiny-skia's `Path::stroke` does not read (it strokes the whole path), so their
/// bounds are the first one's.
fn strokes() -> (Vec<Stroke>, usize) {
    let base = Stroke {
        paint: rgb::Color::new(200, 20, 20).into(),
        width: 6.0,
        miter_limit: 4.0,
        line_cap: LineCap::Round,
        line_join: LineJoin::Miter,
        dash: Some(StrokeDash {
            array: vec![30.0, 200.0],
            offset: 0.0,
        }),
        ..Stroke::default()
    };
    let with = |f: &dyn Fn(&mut Stroke)| {
        let mut s = base.clone();
        f(&mut s);
        s
    };
    let own_bounds = vec![
        base.clone(),
        with(&|s| s.line_cap = LineCap::Butt),
        with(&|s| s.line_cap = LineCap::Square),
        with(&|s| s.line_join = LineJoin::Round),
        // The sharp corner's miter is longer than 1 width: bevelled.
        with(&|s| s.miter_limit = 1.0),
        with(&|s| s.width = 2.0),
    ];
    let distinct = own_bounds.len();
    let dashes = [
        with(&|s| s.dash = None),
        with(&|s| s.dash.as_mut().unwrap().offset = 60.0),
        with(&|s| s.dash.as_mut().unwrap().array = vec![30.0, 40.0]),
    ];
    (own_bounds.into_iter().chain(dashes).collect(), distinct)
}

/// tiny-skia's measure of `stroke` on the path, moved by the transform, as
/// [left, top, right, bottom]: what krilla measured before the patch.
fn fresh_bounds(stroke: &Stroke) -> [f32; 4] {
    let mut ts = tsp::Stroke {
        width: stroke.width,
        miter_limit: stroke.miter_limit,
        line_cap: match stroke.line_cap {
            LineCap::Butt => tsp::LineCap::Butt,
            LineCap::Round => tsp::LineCap::Round,
            LineCap::Square => tsp::LineCap::Square,
        },
        line_join: match stroke.line_join {
            LineJoin::Miter => tsp::LineJoin::Miter,
            LineJoin::Round => tsp::LineJoin::Round,
            LineJoin::Bevel => tsp::LineJoin::Bevel,
        },
        dash: None,
    };
    if let Some(d) = &stroke.dash {
        ts.dash = tsp::StrokeDash::new(d.array.clone(), d.offset);
    }
    let (a, b, c, d, e, f) = transform();
    let r = tiny_skia_path()
        .stroke(&ts, 1.0)
        .unwrap()
        .compute_tight_bounds()
        .unwrap()
        .transform(tsp::Transform::from_row(a, b, c, d, e, f))
        .unwrap();
    [r.left(), r.top(), r.right(), r.bottom()]
}

/// A PDF with one page a stroke, each drawing the path with it in an isolated
/// group (a form XObject) under the transform.
fn document(strokes: &[Stroke]) -> Vec<u8> {
    let mut doc = Document::new();
    let path = krilla_path();
    let (a, b, c, d, e, f) = transform();
    for stroke in strokes {
        let mut page = doc.start_page_with(PageSettings::from_wh(300.0, 300.0).unwrap());
        let mut surface = page.surface();
        surface.push_isolated();
        surface.push_transform(&Transform::from_row(a, b, c, d, e, f));
        surface.set_fill(None);
        surface.set_stroke(Some(stroke.clone()));
        surface.draw_path(&path);
        surface.pop();
        surface.pop();
        surface.finish();
        page.finish();
    }
    doc.finish().unwrap()
}

/// The /BBox of the one form XObject on each page, in page order.
fn form_bboxes(bytes: &[u8]) -> Vec<[f32; 4]> {
    let doc = pdf::Document::load_mem(bytes).unwrap();
    doc.get_pages()
        .values()
        .map(|&page| {
            let (inline, ids) = doc.get_page_resources(page).unwrap();
            let resources = match inline {
                Some(d) => d,
                None => doc.get_dictionary(ids[0]).unwrap(),
            };
            let xobjects = doc.resolve(resources.get(b"XObject").unwrap()).unwrap();
            let xobjects = xobjects.as_dict().unwrap();
            let forms: Vec<_> = xobjects.iter().collect();
            assert_eq!(forms.len(), 1, "one form a page");
            let form = doc.resolve(forms[0].1).unwrap().as_stream().unwrap();
            let bbox = form.dict.get(b"BBox").unwrap().as_array().unwrap();
            let n: Vec<f32> = bbox.iter().map(|v| v.as_float().unwrap()).collect();
            [n[0], n[1], n[2], n[3]]
        })
        .collect()
}

fn close(a: [f32; 4], b: [f32; 4]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() < 0.01)
}

#[test]
fn kept_stroke_bounds_are_what_a_fresh_measure_gives() {
    let (strokes, distinct) = strokes();
    let fresh: Vec<[f32; 4]> = strokes.iter().map(fresh_bounds).collect();
    // These variants move the bounds, so bounds kept for another stroke show.
    for (i, a) in fresh[..distinct].iter().enumerate() {
        for (j, b) in fresh[..distinct].iter().enumerate().skip(i + 1) {
            assert!(!close(*a, *b), "strokes {i} and {j} have the same bounds");
        }
    }
    // Each stroke twice in one document, then all again in a second one.
    let twice: Vec<Stroke> = strokes.iter().chain(&strokes).cloned().collect();
    for round in 0..2 {
        let bboxes = form_bboxes(&document(&twice));
        assert_eq!(bboxes.len(), twice.len());
        for (k, got) in bboxes.iter().enumerate() {
            let want = fresh[k % strokes.len()];
            assert!(
                close(*got, want),
                "document {round}, drawing {k} (stroke {}): /BBox {got:?}, fresh measure {want:?}",
                k % strokes.len()
            );
        }
    }
}
