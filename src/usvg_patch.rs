//! The vendored usvg patch's speed-ups (vendor/README.md): glyph outlines and text
//! layouts shared between the faces of a build, and shaping faces parsed once per
//! process (the patch's other API, `Tree::stacks_on`, is used by `faces.rs`). There
//! is no switch to build without the patch:
//! `[patch.crates-io]` applies whatever the features say, and layers need the
//! patch's `Tree::stacks_on` (vendor/README.md, "Drop a patch").

use std::sync::Arc;

use usvg::fontdb;

/// About how many bytes of text layouts a font book keeps (usvg's estimate): every
/// distinct text of a large game several times over (Truck Off keeps about 5 MB,
/// Interstate Trucking's 325 parts about 6 MB). Past it, texts are laid out again.
/// A text met once is kept on trial, within a sixteenth of it (2 MB), until it is
/// met again.
const TEXT_LAYOUT_BUDGET: usize = 32 << 20;

/// About how many bytes of stroked-path bounds a font book keeps (a key is the
/// path's points, ~170 bytes for a rounded box): Parcel Delivery, the most of the
/// seed games, keeps 707 paths in about 120 KB. Past it, paths are stroked again to
/// measure them.
const STROKE_BOUNDS_BUDGET: usize = 8 << 20;

/// What a font book hands usvg: the glyph outline and text layout stores of its
/// database and its shaping faces (each `(font data address, face index)` with its face).
pub(crate) struct Stores {
    outlines: Arc<usvg::GlyphOutlines>,
    layouts: Arc<usvg::TextLayouts>,
    strokes: Arc<usvg::StrokeBounds>,
    shaping: usvg::ShapingFaceFn,
}

impl Stores {
    /// The caches for `db`, whose faces are `faces`. The faces live for the whole
    /// process (the patch keeps shaping plans per face address).
    pub(crate) fn new(
        db: &Arc<fontdb::Database>,
        faces: Vec<((usize, u32), &'static rustybuzz::Face<'static>)>,
    ) -> Stores {
        Stores {
            outlines: Arc::new(usvg::GlyphOutlines::new(db.clone())),
            layouts: Arc::new(usvg::TextLayouts::new(db.clone(), TEXT_LAYOUT_BUDGET)),
            strokes: Arc::new(usvg::StrokeBounds::new(STROKE_BOUNDS_BUDGET)),
            shaping: usvg::ShapingFaceFn(
                Arc::new(move |data: &[u8], index: u32| {
                    let key = (data.as_ptr() as usize, index);
                    faces.iter().find(|(k, _)| *k == key).map(|(_, f)| *f)
                }),
                Some(Arc::new(kept_line_glyphs)),
            ),
        }
    }
}

/// The glyphs of a line usvg shapes left to right in a kept face, from its words'
/// kept shapings where they provably give the line's (`shaping::glyphs_from_pieces`):
/// the lines of a game's faces are mostly new, their words are not. Any other
/// (a word, a number, a line that does not cut into words) from its own kept
/// shaping (`shaping::piece_shaping`, the same left-to-right shaping usvg
/// does), which measuring it or setting it in a rulebook may already have done.
fn kept_line_glyphs(
    face: &'static rustybuzz::Face<'static>,
    text: &str,
) -> Option<Vec<usvg::ShapedGlyph>> {
    let glyphs = crate::shaping::glyphs_from_pieces(face, text)
        .unwrap_or_else(|| crate::shaping::piece_shaping(face, text).0.to_vec());
    glyphs
        .into_iter()
        .map(|g| {
            Some(usvg::ShapedGlyph {
                id: u16::try_from(g.id).ok()?,
                cluster: g.cluster,
                x_advance: g.x_advance,
                x_offset: g.x_offset,
                y_offset: g.y_offset,
            })
        })
        .collect()
}

/// Hands usvg the book's glyph outline store and shaping faces.
pub(crate) fn speed_up(options: &mut usvg::Options, kept: &Stores) {
    options.glyph_outlines = Some(kept.outlines.clone());
    options.shaping_face = Some(kept.shaping.clone());
    options.text_layouts = Some(kept.layouts.clone());
    options.stroke_bounds = Some(kept.strokes.clone());
}

#[cfg(test)]
mod tests {
    /// Every text of `g` and its groups, in drawing order.
    fn texts_in<'a>(g: &'a usvg::Group, out: &mut Vec<&'a usvg::Text>) {
        for node in g.children() {
            match node {
                usvg::Node::Group(g) => texts_in(g, out),
                usvg::Node::Text(t) => out.push(t),
                _ => {}
            }
        }
    }

    use std::sync::Arc;

    use crate::fonts::FontBook;
    use crate::svg::{self, Images, SvgProblem};

    /// Labels at `(dx, dy)`, plus `extra` (whatever differs between the faces).
    fn face(dx: f64, dy: f64, extra: &str) -> String {
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="40mm" viewBox="0 0 60 40">
<g transform="translate({dx} {dy})">
<rect x="2" y="2" width="40" height="12" rx="1.5" fill="none" stroke="#1d3557" stroke-width="0.6"/>
<circle cx="50" cy="8" r="3" fill="#ffffff" stroke="#6b7280" stroke-width="0.3" stroke-dasharray="1 0.5"/>
<text x="5" y="10" font-family="Bebas Neue" font-size="6" fill="#1d3557">SHEET</text>
<text x="5" y="20" font-size="3" text-decoration="underline" letter-spacing="0.2">Drive up to <tspan font-weight="bold">3 spaces</tspan> a turn</text>
<text x="30" y="30" font-size="4" transform="rotate(15)" text-anchor="middle" stroke="#ff0000" stroke-width="0.1">rotated</text>
<linearGradient id="fade"><stop offset="0" stop-color="#ff0000"/><stop offset="1" stop-color="#0000ff"/></linearGradient>
<text x="5" y="36" font-size="5" fill="url(#fade)" text-decoration="underline">graded, laid out every time</text>
</g>
{extra}
</svg>"##
        )
    }

    /// Every path's and text's bounds, in the face's coordinates.
    fn text_bounds(tree: &usvg::Tree) -> Vec<String> {
        fn walk(g: &usvg::Group, out: &mut Vec<String>) {
            for node in g.children() {
                match node {
                    usvg::Node::Group(g) => walk(g, out),
                    usvg::Node::Path(p) => out.push(format!("{:?}", p.abs_stroke_bounding_box())),
                    usvg::Node::Text(t) => out.push(format!(
                        "{:?} {:?} {:?}",
                        t.abs_bounding_box(),
                        t.abs_stroke_bounding_box(),
                        t.flattened().abs_bounding_box()
                    )),
                    _ => {}
                }
            }
        }
        let mut out = Vec::new();
        walk(tree.root(), &mut out);
        out
    }

    /// The first text of `g`, depth first.
    fn first_text(g: &usvg::Group) -> Option<&usvg::Text> {
        g.children().iter().find_map(|node| match node {
            usvg::Node::Group(g) => first_text(g),
            usvg::Node::Text(t) => Some(t),
            _ => None,
        })
    }

    /// usvg's options with the book's fonts, and with what the book keeps when
    /// `kept` (else as the published crate parses).
    fn options(book: &FontBook, kept: bool) -> usvg::Options<'static> {
        let mut options = usvg::Options {
            font_family: crate::fonts::DEFAULT_FAMILY.to_string(),
            fontdb: book.database(),
            ..usvg::Options::default()
        };
        if kept {
            super::speed_up(&mut options, book.kept());
        }
        options
    }

    fn written(tree: &usvg::Tree) -> String {
        tree.to_string(&usvg::WriteOptions::default())
    }

    #[test]
    fn a_kept_layout_gives_the_same_tree_as_laying_out_again() {
        let images = Arc::new(Images::none());
        let kept = FontBook::builtin_fresh();
        let fresh = FontBook::builtin_fresh();
        let first = face(0.0, 0.0, "");
        // The same labels moved, on a face that differs elsewhere: a number, the
        // frame's path with a wider stroke (other bounds), and the first label with
        // another letter spacing, colour or size (other layouts).
        let second = face(
            7.5,
            -2.25,
            r##"<text x="50" y="38" font-size="2">2</text>
<rect x="2" y="2" width="40" height="12" rx="1.5" fill="none" stroke="#000000" stroke-width="2"/>
<text x="5" y="10" font-family="Bebas Neue" font-size="6" fill="#1d3557" letter-spacing="0.3">SHEET</text>
<text x="5" y="10" font-family="Bebas Neue" font-size="6" fill="#1d3558">SHEET</text>
<text x="5" y="10" font-family="Bebas Neue" font-size="6.01" fill="#1d3557">SHEET</text>"##,
        );
        let unmoved = svg::parse(&first, &images, &kept).unwrap();
        let laid = kept.kept().layouts.len();
        let stroked = kept.kept().strokes.len();
        assert_eq!(
            stroked, 2,
            "the first face keeps the bounds of its two stroked shapes"
        );
        assert_eq!(laid, 3, "the first face keeps its three plain labels");
        let from_kept = svg::parse(&second, &images, &kept).unwrap();
        assert_eq!(
            kept.kept().layouts.len(),
            laid + 4,
            "the second face takes the three kept labels and lays out only its own four"
        );
        assert_eq!(
            kept.kept().strokes.len(),
            stroked + 1,
            "the second face's stroked shapes are the kept ones, moved, and the wider frame"
        );
        let laid_again = svg::parse(&second, &images, &fresh).unwrap();
        assert_eq!(written(&from_kept), written(&laid_again));
        let bounds = text_bounds(&from_kept);
        assert_eq!(bounds.len(), 8 + 3);
        assert_eq!(bounds, text_bounds(&laid_again));
        // The kept layout is placed where the moved face has it.
        fn left(g: &usvg::Group) -> Option<(f32, f32)> {
            g.children().iter().find_map(|node| match node {
                usvg::Node::Group(g) => left(g),
                usvg::Node::Text(t) => {
                    Some((t.abs_bounding_box().x(), t.abs_stroke_bounding_box().y()))
                }
                _ => None,
            })
        }
        let left = |tree: &usvg::Tree| left(tree.root()).expect("a label");
        // ... and shared with the first face, not copied (the paint pass used to
        // copy every shared layout).
        let (a, b) = (
            first_text(unmoved.root()).unwrap(),
            first_text(from_kept.root()).unwrap(),
        );
        assert_eq!(a.chunks().as_ptr(), b.chunks().as_ptr());
        assert_eq!(a.layouted().as_ptr(), b.layouted().as_ptr());
        assert!(std::ptr::eq(a.flattened(), b.flattened()));
        let (x0, y0) = left(&unmoved);
        let (x1, y1) = left(&from_kept);
        // Absolute bounds are in pixels of the 60 mm canvas.
        let px = from_kept.size().width() / 60.0;
        assert!(
            (x1 - x0 - 7.5 * px).abs() < 1e-3 && (y1 - y0 + 2.25 * px).abs() < 1e-3,
            "{x0},{y0} -> {x1},{y1}"
        );
    }

    #[test]
    fn text_laid_out_once_is_not_kept_for_good() {
        // Forty faces, each with a long line of its own and one label they share (a
        // pad sheet's number and its heading): the own lines pass through the trial
        // (a sixteenth of the budget) and are forgotten; the label, met again on the
        // second face, is kept and shared by all.
        let images = Arc::new(Images::none());
        let book = FontBook::builtin_fresh();
        let page = |n: usize| {
            let own: String = (0..12).map(|k| format!("line {n} word {k} ")).collect();
            format!(
                r##"<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="40mm" viewBox="0 0 60 40">
<text x="5" y="10" font-family="Bebas Neue" font-size="6">SCORE PAD</text>
<text x="1" y="30" font-size="1">{own}</text></svg>"##
            )
        };
        let label = |tree: &usvg::Tree| {
            let text = first_text(tree.root()).expect("the label");
            text.flattened() as *const usvg::Group
        };
        let first = svg::parse(&page(1), &images, &book).unwrap();
        let mut last = None;
        for n in 2..=40 {
            last = Some(svg::parse(&page(n), &images, &book).unwrap());
        }
        let kept = book.kept().layouts.len();
        assert!(
            kept < 30,
            "{kept} layouts kept: the own lines of 40 faces were kept for good"
        );
        assert_eq!(
            label(&first),
            label(&last.unwrap()),
            "the label is laid out once"
        );
    }

    #[test]
    fn kept_shaped_glyphs_give_the_same_tree_as_shaping_again() {
        // The same words in several fonts, sizes, with small caps and without
        // kerning, on faces moved each time (so no kept layout serves them and the
        // kept glyphs do): every tree as the published usvg draws it, without any of
        // the patch's stores.
        let book = FontBook::builtin_fresh();
        let words = |dx: f64| {
            let mut texts = String::new();
            for (i, style) in [
                "",
                r#"font-weight="bold""#,
                r#"font-style="italic""#,
                r#"font-family="Bebas Neue""#,
                r#"font-variant="small-caps""#,
                r#"style="font-kerning: none""#,
                r#"style="font-size: 7px""#,
            ]
            .iter()
            .enumerate()
            {
                let y = 5 + 5 * i;
                texts.push_str(&format!(
                    r#"<text x="2" y="{y}" font-size="4" {style}>AVATAR Wave To, ffi 12</text>"#
                ));
            }
            format!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="40mm" viewBox="0 0 60 40"><g transform="translate({dx} 0)">{texts}</g></svg>"#
            )
        };
        let options = |kept: bool| options(&book, kept);
        let (kept, plain) = (options(true), options(false));
        let mut drawn = Vec::new();
        for dx in [0.0, 3.5, 7.25] {
            let svg = words(dx);
            let from_kept = usvg::Tree::from_str(&svg, &kept).unwrap();
            let shaped_again = usvg::Tree::from_str(&svg, &plain).unwrap();
            assert_eq!(written(&from_kept), written(&shaped_again), "moved by {dx}");
            assert_eq!(text_bounds(&from_kept), text_bounds(&shaped_again));
            drawn.push(written(&from_kept));
        }
        drawn.dedup();
        assert_eq!(drawn.len(), 3, "each face is drawn where it is moved to");
    }

    #[test]
    fn lines_from_their_words_kept_shapings_give_the_same_tree_as_shaping_again() {
        // Every line of every seed game's data and rules (escaped, up to 90
        // characters), in the built-in faces, some with a bold word in the middle
        // (usvg shapes the whole line in both fonts), some after Hebrew (a
        // right-to-left run, shaped as before, and left-to-right ones around it),
        // with small caps or without kerning (shaped as before): every tree as
        // the published usvg draws it, without any of the patch's stores. Most
        // lines take their glyphs from their words' kept shapings.
        let book = FontBook::builtin_fresh();
        let mut lines = Vec::new();
        let mut files: Vec<_> = std::fs::read_dir("data")
            .unwrap()
            .flatten()
            .flat_map(|game| std::fs::read_dir(game.path()).unwrap().flatten())
            .map(|file| file.path())
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(file).unwrap();
            for line in text.lines() {
                let line: String = line.split_whitespace().collect::<Vec<_>>().join(" ");
                let line: String = line.chars().take(90).collect();
                if !line.is_empty() {
                    lines.push(line);
                }
            }
        }
        lines.sort();
        lines.dedup();
        assert!(lines.len() > 1_500, "{}", lines.len());
        let escape = |t: &str| {
            t.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        };
        let styles = [
            "",
            r#"font-weight="bold""#,
            r#"font-style="italic""#,
            r#"font-weight="900""#,
            r#"font-family="Bebas Neue""#,
            r#"font-variant="small-caps""#,
            r#"style="font-kerning: none""#,
        ];
        let mut texts = String::new();
        for (i, line) in lines.iter().enumerate() {
            let style = styles[i % styles.len()];
            let y = 1 + i % 200;
            let text = match i % 5 {
                0 => match line.split_once(' ') {
                    Some((first, rest)) => format!(
                        r#"<tspan font-weight="bold">{}</tspan> {}"#,
                        escape(first),
                        escape(rest)
                    ),
                    None => escape(line),
                },
                1 => format!("שלום {}", escape(line)),
                _ => escape(line),
            };
            texts.push_str(&format!(
                r#"<text x="2" y="{y}" font-size="1" {style}>{text}</text>"#
            ));
        }
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="300mm" height="200mm" viewBox="0 0 300 200">{texts}</svg>"#
        );
        let options = |kept: bool| options(&book, kept);
        let from_kept = usvg::Tree::from_str(&svg, &options(true)).unwrap();
        let shaped_again = usvg::Tree::from_str(&svg, &options(false)).unwrap();
        assert_eq!(written(&from_kept), written(&shaped_again));
        assert_eq!(text_bounds(&from_kept), text_bounds(&shaped_again));
        let regular = book
            .query(crate::fonts::DEFAULT_FAMILY, 400, false)
            .unwrap();
        let from_words = lines
            .iter()
            .filter(|line| crate::shaping::glyphs_from_pieces(regular, line).is_some())
            .count();
        assert!(
            from_words * 4 > lines.len() * 3,
            "{from_words} of {}",
            lines.len()
        );
    }

    // glibc's `malloc_usable_size` (the rest of the project is gated the same
    // way where it uses Linux calls).
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn text_outlines_and_glyphs_are_held_at_their_exact_size() {
        // Texts of many lengths, so that buffers grown by doubling would be caught
        // holding more than their contents in most of them. The unit tests run on
        // the system allocator (the binary's mimalloc is set in main.rs only), whose
        // usable size of a block is the size asked for, rounded up to 16 bytes with
        // 8 of them for the block's header, plus up to 31 more when a free block is
        // given whole (the rest too small to split off; other tests free memory
        // meanwhile): under 64 bytes over. A doubled buffer is over by half its size.
        let images = Arc::new(Images::none());
        let book = FontBook::builtin_fresh();
        let mut texts = String::new();
        for n in 1..=30 {
            let y = n * 2;
            let words = "Wave To ".repeat(n);
            texts.push_str(&format!(
                r#"<text x="1" y="{y}" font-size="1.5">{words}<tspan font-weight="bold">{n}</tspan></text>"#
            ));
        }
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="200mm" height="80mm" viewBox="0 0 200 80">{texts}</svg>"#
        );
        let tree = svg::parse(&svg, &images, &book).unwrap();
        fn held<T>(items: &[T]) -> usize {
            // SAFETY: `items` is a live Vec's buffer from the system allocator
            // (checked non-empty, so not a dangling pointer).
            unsafe { libc::malloc_usable_size(items.as_ptr() as *mut libc::c_void) }
        }
        let fits = |items_bytes: usize, held: usize| held < items_bytes + 64;
        let (mut glyph_runs, mut paths) = (0, 0);
        let mut all = Vec::new();
        texts_in(tree.root(), &mut all);
        for t in all {
            for span in t.layouted() {
                let glyphs = &span.positioned_glyphs;
                assert!(!glyphs.is_empty());
                let bytes = std::mem::size_of_val(&glyphs[..]);
                assert!(
                    fits(bytes, held(glyphs)),
                    "{} glyphs in {} bytes",
                    glyphs.len(),
                    held(glyphs)
                );
                glyph_runs += 1;
            }
            for node in t.flattened().children() {
                let usvg::Node::Path(p) = node else { continue };
                let (points, verbs) = (p.data().points(), p.data().verbs());
                assert!(
                    fits(std::mem::size_of_val(points), held(points)),
                    "{} points in {} bytes",
                    points.len(),
                    held(points)
                );
                assert!(
                    fits(std::mem::size_of_val(verbs), held(verbs)),
                    "{} verbs in {} bytes",
                    verbs.len(),
                    held(verbs)
                );
                paths += 1;
            }
        }
        assert_eq!((glyph_runs, paths), (60, 60), "each text's two spans");
    }

    /// Every path of `g` (texts' outlines included), depth first.
    fn paths_in<'a>(g: &'a usvg::Group, out: &mut Vec<&'a usvg::Path>) {
        for node in g.children() {
            match node {
                usvg::Node::Group(g) => paths_in(g, out),
                usvg::Node::Path(p) => out.push(p),
                usvg::Node::Text(t) => paths_in(t.flattened(), out),
                _ => {}
            }
        }
    }

    /// A rectangle's four floats as bits: bounds must be the same floats.
    fn bits(r: usvg::Rect) -> [u32; 4] {
        [r.left(), r.top(), r.right(), r.bottom()].map(f32::to_bits)
    }

    #[test]
    fn path_bounds_are_the_floats_tiny_skia_measures() {
        // usvg's tight bounds of every path (the patch's own walk over verbs and
        // points) against tiny-skia's `compute_tight_bounds`, which the published
        // crate calls: glyph outlines of every built-in font (TrueType quadratics,
        // CFF cubics) in several sizes, skewed and rotated, and drawn curves, arcs,
        // rounded rectangles and strokes with every join and cap.
        let images = Arc::new(Images::none());
        let book = FontBook::builtin_fresh();
        let letters: String = (' '..='~').chain('\u{a1}'..='\u{ff}').collect();
        let letters = letters.replace('&', "&amp;").replace('<', "&lt;");
        let mut body = String::new();
        for (i, style) in [
            "",
            r#"font-weight="bold""#,
            r#"font-weight="900""#,
            r#"font-style="italic""#,
            r#"font-family="Bebas Neue""#,
        ]
        .iter()
        .enumerate()
        {
            for (j, size) in [0.7, 3.0, 11.3].iter().enumerate() {
                let y = 4 + 12 * (3 * i + j);
                body.push_str(&format!(
                    r#"<text x="1.3" y="{y}" font-size="{size}" {style}>{letters}</text>"#
                ));
            }
        }
        body.push_str(
            r#"<g transform="skewX(17) rotate(8)"><text x="3" y="5" font-size="6" font-family="Bebas Neue">Skewed 0123</text><text x="3" y="15" font-size="6">Skewed Qgj</text>
<path d="M 1 1 Q 9 -4 13 6 T 20 9 C 22 0 30 14 26 3 S 40 -2 33 11 A 7 3 20 1 0 12 15 Z"/></g>
<path d="M 10.1 200.3 Q 19 190 23 206 T 40 209 C 42 190 50 224 46 193 S 60 188 53 221 A 7 3 20 1 0 12 215 Z" fill="none" stroke="black" stroke-width="2.7" stroke-linejoin="round" stroke-linecap="round"/>
<path d="M 70 200 L 90 230 L 110 199 Q 120 240 130 200" fill="none" stroke="black" stroke-width="3" stroke-linejoin="miter" stroke-miterlimit="9" stroke-linecap="square"/>
<path d="M 140 200 L 160 230 L 180 199" fill="none" stroke="black" stroke-width="3" stroke-linejoin="bevel"/>
<rect x="3" y="240" width="40" height="20" rx="5" ry="3" stroke="black" stroke-width="1.1"/>
<circle cx="80" cy="250" r="9.3"/><ellipse cx="120" cy="250" rx="13.1" ry="4.7" transform="rotate(33 120 250)"/>"#,
        );
        // Curves whose extrema lie between their ends, at awkward coordinates.
        let mut n: u32 = 7;
        let mut next = || {
            n = n.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            f64::from(n >> 8) / f64::from(1u32 << 24) * 250.0 + 10.0
        };
        for _ in 0..200 {
            let v: Vec<f64> = (0..8).map(|_| next()).collect();
            body.push_str(&format!(
                r#"<path d="M {} {} Q {} {} {} {}"/><path d="M {} {} C {} {} {} {} {} {} Z"/>"#,
                v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[2], v[1], v[0], v[3], v[5], v[4]
            ));
        }
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="300mm" height="270mm" viewBox="0 0 300 270">{body}</svg>"#
        );
        let tree = svg::parse(&svg, &images, &book).unwrap();
        let mut paths = Vec::new();
        paths_in(tree.root(), &mut paths);
        let (mut quads, mut cubics, mut skewed, mut stroked) = (0, 0, 0, 0);
        for p in &paths {
            let data = p.data();
            let measured = data.compute_tight_bounds().unwrap();
            assert_eq!(bits(p.bounding_box()), bits(measured), "{:?}", data.verbs());
            let abs = p.abs_transform();
            if abs.has_skew() {
                let moved = data.clone().transform(abs).unwrap();
                let measured = moved.compute_tight_bounds().unwrap();
                assert_eq!(bits(p.abs_bounding_box()), bits(measured));
                skewed += 1;
            }
            if let Some(stroke) = p.stroke() {
                use usvg::tiny_skia_path as tsp;
                let ts = tsp::Stroke {
                    width: stroke.width().get(),
                    miter_limit: stroke.miterlimit().get(),
                    line_cap: match stroke.linecap() {
                        usvg::LineCap::Butt => tsp::LineCap::Butt,
                        usvg::LineCap::Round => tsp::LineCap::Round,
                        usvg::LineCap::Square => tsp::LineCap::Square,
                    },
                    line_join: match stroke.linejoin() {
                        usvg::LineJoin::Miter => tsp::LineJoin::Miter,
                        usvg::LineJoin::MiterClip => tsp::LineJoin::MiterClip,
                        usvg::LineJoin::Round => tsp::LineJoin::Round,
                        usvg::LineJoin::Bevel => tsp::LineJoin::Bevel,
                    },
                    dash: None,
                };
                let measured = data
                    .stroke(&ts, 1.0)
                    .unwrap()
                    .compute_tight_bounds()
                    .unwrap();
                assert_eq!(bits(p.stroke_bounding_box()), bits(measured));
                stroked += 1;
            }
            use usvg::tiny_skia_path::PathVerb;
            quads += data.verbs().contains(&PathVerb::Quad) as usize;
            cubics += data.verbs().contains(&PathVerb::Cubic) as usize;
        }
        assert!(
            quads >= 15 && cubics >= 5,
            "{quads} with quadratics, {cubics} with cubics"
        );
        assert!(
            skewed >= 2 && stroked >= 4,
            "{skewed} skewed, {stroked} stroked"
        );
    }

    #[test]
    fn bold_and_italic_outlines_are_the_outlines_with_their_variations() {
        // usvg asks for `wght` on bold and `ital` on italic text; the patch outlines
        // such glyphs of a font without variation axes from the kept outlines. Each
        // span's path must be its glyphs outlined as the published crate does (the
        // font parsed, the span's variations set, the glyph outlined), moved by the
        // glyph's outline transform and joined in order.
        let images = Arc::new(Images::none());
        let book = FontBook::builtin_fresh();
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="40mm" viewBox="0 0 60 40">
<text x="2" y="6" font-size="4" font-weight="bold">Bold Wave 12</text>
<text x="2" y="12" font-size="4" font-style="italic">Italic Wave 12</text>
<text x="2" y="18" font-size="4" font-weight="900" font-style="italic">Black Wave</text>
<text x="2" y="24" font-size="4">Plain <tspan font-weight="bold">bold</tspan> again</text>
<text x="2" y="30" font-size="4" style="font-variation-settings: 'wght' 650">Asked wght</text>
</svg>"#;
        let tree = svg::parse(svg, &images, &book).unwrap();
        let db = book.database();
        struct Outline(usvg::tiny_skia_path::PathBuilder);
        impl ttf_parser::OutlineBuilder for Outline {
            fn move_to(&mut self, x: f32, y: f32) {
                self.0.move_to(x, y);
            }
            fn line_to(&mut self, x: f32, y: f32) {
                self.0.line_to(x, y);
            }
            fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
                self.0.quad_to(x1, y1, x, y);
            }
            fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
                self.0.cubic_to(x1, y1, x2, y2, x, y);
            }
            fn close(&mut self) {
                self.0.close();
            }
        }
        let mut texts = Vec::new();
        texts_in(tree.root(), &mut texts);
        let mut varied = 0;
        for t in texts {
            let spans = t.layouted();
            let drawn: Vec<_> = t
                .flattened()
                .children()
                .iter()
                .filter_map(|n| match n {
                    usvg::Node::Path(p) => Some(p.data().clone()),
                    _ => None,
                })
                .collect();
            assert_eq!(spans.len(), drawn.len());
            for (span, drawn) in spans.iter().zip(drawn) {
                varied += !span.variations.is_empty() as usize;
                let mut joined = usvg::tiny_skia_path::PathBuilder::new();
                for g in &span.positioned_glyphs {
                    let outline = db
                        .with_face_data(g.font, |data, index| {
                            let mut face = ttf_parser::Face::parse(data, index).unwrap();
                            for v in &span.variations {
                                face.set_variation(ttf_parser::Tag::from_bytes(&v.tag), v.value);
                            }
                            let mut b = Outline(usvg::tiny_skia_path::PathBuilder::new());
                            face.outline_glyph(g.id, &mut b)?;
                            b.0.finish()
                        })
                        .unwrap();
                    if let Some(o) = outline.and_then(|o| o.transform(g.outline_transform())) {
                        joined.push_path(&o);
                    }
                }
                let joined = joined.finish().unwrap();
                assert_eq!(joined.verbs(), drawn.verbs());
                let pts = |p: &usvg::tiny_skia_path::Path| {
                    p.points()
                        .iter()
                        .map(|p| (p.x.to_bits(), p.y.to_bits()))
                        .collect::<Vec<_>>()
                };
                assert_eq!(pts(&joined), pts(&drawn));
            }
        }
        assert!(varied >= 4, "{varied} spans with variations");
    }

    #[test]
    fn a_font_the_resolver_could_not_find_is_reported_on_every_face() {
        // Only usvg's resolver sees a family named in CSS; its answer is not kept,
        // so the second face is told as well.
        let images = Arc::new(Images::none());
        let book = FontBook::builtin_fresh();
        let missing =
            r##"<text x="5" y="30" style="font-family: Nopefont" font-size="4">same label</text>"##;
        for extra in ["1", "2"] {
            let svg = face(
                0.0,
                0.0,
                &format!("{missing}<text x=\"5\" y=\"38\">{extra}</text>"),
            );
            let problems = svg::parse(&svg, &images, &book).unwrap_err();
            assert!(
                problems
                    .iter()
                    .any(|l| matches!(&l.problem, SvgProblem::MissingFont { family, .. } if family == "Nopefont")),
                "face {extra}: {problems:?}"
            );
        }
    }

    #[test]
    fn a_right_to_left_run_shaped_without_kerning_gives_each_letter_once() {
        // rustybuzz gives a Hebrew word before Latin, shaped without kerning, with
        // its clusters out of visual order: the published usvg sliced the text
        // backwards there (a panic, an abort in a release build).
        let book = FontBook::builtin_fresh();
        for kept in [false, true] {
            let options = options(&book, kept);
            for (style, text) in [
                ("font-kerning: none", "שלום Contracts, fuel and $5 tolls"),
                ("font-kerning: none", "a שלום b"),
                ("", "שלום Contracts, fuel and $5 tolls"),
            ] {
                let svg = format!(
                    r#"<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="20mm" viewBox="0 0 60 20"><text x="2" y="10" font-size="3" style="{style}">{text}</text></svg>"#
                );
                let tree = usvg::Tree::from_str(&svg, &options).unwrap();
                let laid_out = first_text(tree.root()).unwrap();
                let mut letters: Vec<char> = laid_out
                    .layouted()
                    .iter()
                    .flat_map(|span| &span.positioned_glyphs)
                    .flat_map(|glyph| glyph.text.chars())
                    .collect();
                let mut wanted: Vec<char> = text.chars().collect();
                letters.sort();
                wanted.sort();
                assert_eq!(letters, wanted, "{style:?} {text:?}, kept shapings: {kept}");
            }
        }
    }

    #[test]
    fn each_span_holds_the_glyphs_of_its_own_letters() {
        // The span-glyphs patch moves each cluster's glyphs into the span that
        // contains it instead of copying them: nested and side-by-side spans, in
        // other fills and weights, with letter spacing and underline, in two
        // chunks, must each still hold their own letters, in order, once.
        let book = FontBook::builtin_fresh();
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="80mm" height="30mm" viewBox="0 0 80 30"><text x="2" y="10" font-size="3" letter-spacing="0.1">Pay <tspan fill="#c00">$3 <tspan font-weight="bold">now</tspan> or</tspan> <tspan text-decoration="underline">later</tspan>!<tspan x="2" y="20">Next <tspan font-style="italic">line</tspan> here</tspan></text></svg>"##;
        for kept in [false, true] {
            let options = options(&book, kept);
            let tree = usvg::Tree::from_str(svg, &options).unwrap();
            let text = first_text(tree.root()).unwrap();
            let spans: Vec<String> = text
                .layouted()
                .iter()
                .map(|span| {
                    span.positioned_glyphs
                        .iter()
                        .map(|g| g.text.as_str())
                        .collect()
                })
                .collect();
            assert_eq!(
                spans,
                ["Pay ", "$3 ", "now", " or", " ", "later", "!", "Next ", "line", " here"],
                "kept: {kept}"
            );
        }
    }

    /// Renders trees one over the other at 4 px a mm.
    fn pixels(trees: &[&usvg::Tree]) -> Vec<u8> {
        let size = trees[0].size().to_int_size().scale_by(4.0).unwrap();
        let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
        let ts = resvg::tiny_skia::Transform::from_scale(4.0, 4.0);
        for tree in trees {
            resvg::render(tree, ts, &mut pixmap.as_mut());
        }
        pixmap.take()
    }

    #[test]
    fn a_front_drawn_over_its_layer_draws_the_whole_text() {
        use crate::render::Layer;
        let images = Arc::new(Images::none());
        let fonts = FontBook::builtin_fresh();
        // A layer with what usvg keeps in lists (a gradient, a clip path, a mask, a
        // filter), root attributes that must reach its content, and text.
        let layer = Layer::read(
            r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="60mm" height="40mm" viewBox="0 0 60 40" font-family="Bebas Neue" fill="#2a9d8f" opacity="0.8">
<defs><linearGradient id="sky"><stop offset="0" stop-color="#ffcc00"/><stop offset="1" stop-color="#0000ff"/></linearGradient>
<clipPath id="round"><circle cx="30" cy="20" r="15"/></clipPath>
<mask id="half"><rect width="30" height="40" fill="#ffffff"/></mask>
<filter id="soft"><feGaussianBlur stdDeviation="0.5"/></filter>
<path id="mark" d="M0 0L4 0L2 3Z"/></defs>
<rect x="-2" y="-2" width="64" height="44" fill="url(#sky)"/>
<g clip-path="url(#round)"><rect width="60" height="40" fill="#e76f51"/></g>
<rect x="5" y="25" width="20" height="10" mask="url(#half)" filter="url(#soft)"/>
<use xlink:href="#mark" x="50" y="5"/>
<text x="4" y="10" font-size="6">TRUCK OFF</text>
</svg>"##
                .into(),
        )
        .unwrap();
        for front in [
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="40mm" viewBox="0 0 60 40" font-family="Lato">
<linearGradient id="ink"><stop offset="0" stop-color="#000000"/><stop offset="1" stop-color="#ff0000"/></linearGradient>
<text x="4" y="20" font-size="5" fill="url(#ink)">SHEET 7</text>
<rect x="40" y="30" width="10" height="5" clip-path="url(#c)"/><clipPath id="c"><circle cx="45" cy="32" r="3"/></clipPath>
</svg>"##,
            // An identity viewBox: the content is the root group's own.
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="60" height="40"><text x="4" y="20" font-size="5">SHEET 8</text></svg>"##,
            // A front that draws nothing.
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="40mm" viewBox="0 0 60 40"/>"##,
            // A front whose root is not drawn: neither is the layer in it.
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="40mm" viewBox="0 0 60 40" display="none"><rect width="9" height="9"/></svg>"##,
        ] {
            let layer = if front.contains("viewBox") {
                layer.text.clone()
            } else {
                layer.text.replace(
                    r#"width="60mm" height="40mm" viewBox="0 0 60 40""#,
                    r#"width="60" height="40""#,
                )
            };
            let layer = Layer::read(layer).unwrap();
            let composed = layer.under(front).unwrap().unwrap();
            let whole = svg::parse(&composed.text, &images, &fonts).unwrap();
            let under = svg::parse(&layer.text, &images, &fonts).unwrap();
            let own = svg::parse(&composed.at.front_text(&composed.text), &images, &fonts).unwrap();
            if front.contains("display=\"none\"") {
                // The whole text draws nothing, the layer included: parse it whole.
                assert!(!own.stacks_on(&under));
                continue;
            }
            assert!(own.stacks_on(&under), "{front}");
            assert_eq!(pixels(&[&under, &own]), pixels(&[&whole]), "{front}");
            // What preflight measures: the same shapes and texts, in the same order.
            let mut bounds = text_bounds(&under);
            bounds.extend(text_bounds(&own));
            assert_eq!(bounds, text_bounds(&whole), "{front}");
        }
        // Trees drawn another way do not stack: the whole text is parsed instead.
        let other = |attrs: &str| {
            svg::parse(&format!(r#"<svg xmlns="http://www.w3.org/2000/svg" {attrs}><rect width="5" height="5"/></svg>"#), &images, &fonts).unwrap()
        };
        let mm = other(r#"width="60mm" height="40mm" viewBox="0 0 60 40""#);
        assert!(!mm.stacks_on(&other(r#"width="60mm" height="40mm" viewBox="0 0 30 20""#)));
        assert!(!mm.stacks_on(&other(
            r#"width="60mm" height="40mm" viewBox="0 0 60 40" background-color="red""#
        )));
        assert!(!mm.stacks_on(&other(r#"width="61mm" height="40mm" viewBox="0 0 60 40""#)));
        assert!(mm.stacks_on(&other(r#"width="60mm" height="40mm" viewBox="0 0 60 40""#)));
    }
}
