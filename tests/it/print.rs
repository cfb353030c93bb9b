//! Printing at home, read back from the PDFs of every game (the five in `data/` and
//! the fixture game), on Letter and A4, with both home profiles (`home`,
//! `gutterfold`): every crop mark, cut line and word lies inside the printable area
//! (4.2 mm unprinted at each edge; the art of board tiles aside), every cut has a
//! mark at both ends, every chit its cut line, and every back sheet of a duplex
//! file is on the even page after its front, mirrored for a long-edge flip. The
//! geometry comes from the page content streams (common::pdf) and `pdftotext -bbox`, not
//! from the layout code.
//!
//! `cargo test print:: -- --nocapture` prints the counts the README quotes.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::common::pdf::{Document, Object, ObjectId};

use crate::common::*;

/// The margin the home profiles leave unprinted, in mm.
const MARGIN: f64 = 4.2;
/// Rounding allowed when comparing positions read back from a PDF, in mm.
const TOL: f64 = 0.02;
/// A crop mark shorter than this is not a visible mark.
const MIN_MARK: f64 = 1.9;
const PT: f64 = 72.0 / 25.4;

/// A rectangle in mm, origin at the page's top-left corner, y down.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct R {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl R {
    fn of(points: &[(f64, f64)]) -> R {
        let mut r = R {
            x0: f64::MAX,
            y0: f64::MAX,
            x1: f64::MIN,
            y1: f64::MIN,
        };
        for &(x, y) in points {
            r.x0 = r.x0.min(x);
            r.y0 = r.y0.min(y);
            r.x1 = r.x1.max(x);
            r.y1 = r.y1.max(y);
        }
        r
    }

    fn shrink(&self, d: f64) -> R {
        R {
            x0: self.x0 + d,
            y0: self.y0 + d,
            x1: self.x1 - d,
            y1: self.y1 - d,
        }
    }

    fn inside(&self, o: &R, tol: f64) -> bool {
        self.x0 >= o.x0 - tol
            && self.y0 >= o.y0 - tol
            && self.x1 <= o.x1 + tol
            && self.y1 <= o.y1 + tol
    }

    fn close(&self, o: &R, tol: f64) -> bool {
        (self.x0 - o.x0).abs() < tol
            && (self.y0 - o.y0).abs() < tol
            && (self.x1 - o.x1).abs() < tol
            && (self.y1 - o.y1).abs() < tol
    }
}

/// A face drawn on a page: the face picture's box and the clip it shows through.
#[derive(Debug, Clone, Copy)]
pub struct Face {
    pub bbox: R,
    pub clip: R,
}

/// A stroked path: its points (control points included), dashed or solid; black,
/// white or grey.
#[derive(Debug, Clone)]
pub struct Line {
    pub points: Vec<(f64, f64)>,
    pub dashed: bool,
    pub black: bool,
    pub white: bool,
}

/// A word and its box (`pdftotext -bbox`).
#[derive(Debug, Clone)]
pub struct Word {
    pub text: String,
    pub bbox: R,
}

/// One page read back.
#[derive(Debug, Clone)]
pub struct Page {
    pub w: f64,
    pub h: f64,
    /// BleedBox grown from TrimBox: the bleed of the parts, in mm.
    pub bleed: f64,
    /// The same on each side, left, top, right, bottom (a grid asked for may
    /// print less bleed above and below it than the parts have).
    pub sides: [f64; 4],
    /// The edge the printer leaves blank, in mm.
    pub margin: f64,
    pub faces: Vec<Face>,
    pub lines: Vec<Line>,
    pub words: Vec<Word>,
}

impl Page {
    fn printable(&self) -> R {
        R {
            x0: self.margin,
            y0: self.margin,
            x1: self.w - self.margin,
            y1: self.h - self.margin,
        }
    }

    /// Every word on the page, as one string.
    pub fn text(&self) -> String {
        self.words
            .iter()
            .map(|w| w.text.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A PDF read back: its pages and its viewer preferences (`Duplex`,
/// `PrintScaling`).
pub struct Pdf {
    pub pages: Vec<Page>,
    pub duplex: Option<String>,
    pub scaling: Option<String>,
}

/// A PDF transformation matrix `[a b c d e f]`.
pub type M = [f64; 6];

/// `a` then `b`: the matrix of `a` applied inside `b`.
pub fn mul(a: &M, b: &M) -> M {
    [
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    ]
}

fn apply(m: &M, x: f64, y: f64) -> (f64, f64) {
    (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])
}

fn num(o: &Object) -> f64 {
    o.as_float().map(f64::from).unwrap_or(0.0)
}

fn nums(ops: &[Object]) -> Vec<f64> {
    ops.iter().map(num).collect()
}

fn rect_of(doc: &Document, page: ObjectId, key: &[u8]) -> Vec<f64> {
    rect(doc, page, key)
}

/// The graphics state the reader follows.
#[derive(Clone)]
struct State {
    ctm: M,
    dashed: bool,
    black: bool,
    white: bool,
    clip: Option<R>,
}

/// Reads the faces and stroked lines of one page from its content stream.
fn read_page(doc: &Document, id: ObjectId) -> (Vec<Face>, Vec<Line>) {
    let media = rect_of(doc, id, b"MediaBox");
    let h_pt = media[3] - media[1];
    let to_mm = |(x, y): (f64, f64)| (x / PT, (h_pt - y) / PT);
    let content = doc.get_and_decode_page_content(id).expect("page content");
    // The page's resources: inline, or (listed by id) referenced.
    let (res, ids) = doc.get_page_resources(id).expect("resources");
    let res = res.or_else(|| ids.first().and_then(|r| doc.get_dictionary(*r).ok()));
    let xobjects = res
        .and_then(|r| r.get(b"XObject").ok())
        .and_then(|x| match x {
            Object::Reference(r) => doc.get_dictionary(*r).ok(),
            Object::Dictionary(d) => Some(d),
            _ => None,
        });
    let mut st = State {
        ctm: [1.0, 0.0, 0.0, 1.0, 0.0, 0.0],
        dashed: false,
        black: true,
        white: false,
        clip: None,
    };
    let mut stack = Vec::new();
    let mut path: Vec<(f64, f64)> = Vec::new();
    let mut clip_next = false;
    let (mut faces, mut lines) = (Vec::new(), Vec::new());
    for op in &content.operations {
        let v = nums(&op.operands);
        match op.operator.as_str() {
            "q" => stack.push(st.clone()),
            "Q" => st = stack.pop().unwrap_or(st.clone()),
            "cm" if v.len() == 6 => st.ctm = mul(&[v[0], v[1], v[2], v[3], v[4], v[5]], &st.ctm),
            "m" | "l" if v.len() == 2 => path.push(to_mm(apply(&st.ctm, v[0], v[1]))),
            "c" if v.len() == 6 => {
                for k in 0..3 {
                    path.push(to_mm(apply(&st.ctm, v[2 * k], v[2 * k + 1])));
                }
            }
            "re" if v.len() == 4 => {
                for (x, y) in [(v[0], v[1]), (v[0] + v[2], v[1] + v[3])] {
                    path.push(to_mm(apply(&st.ctm, x, y)));
                }
            }
            "W" | "W*" => clip_next = true,
            "n" => {
                if clip_next {
                    st.clip = Some(R::of(&path));
                }
                clip_next = false;
                path.clear();
            }
            "S" | "s" => {
                lines.push(Line {
                    points: std::mem::take(&mut path),
                    dashed: st.dashed,
                    black: st.black,
                    white: st.white,
                });
            }
            "f" | "F" | "f*" | "B" | "B*" | "b" | "b*" => path.clear(),
            "d" => {
                st.dashed = op
                    .operands
                    .first()
                    .and_then(|a| a.as_array().ok())
                    .is_some_and(|a| !a.is_empty())
            }
            "RG" if v.len() == 3 => {
                st.black = v.iter().all(|c| *c < 0.01);
                st.white = v.iter().all(|c| *c > 0.99);
            }
            "Do" => {
                let name = op.operands[0].as_name().expect("XObject name");
                let xo = xobjects
                    .and_then(|d| d.get(name).ok())
                    .and_then(|o| o.as_reference().ok())
                    .and_then(|r| doc.get_object(r).ok())
                    .and_then(|o| o.as_stream().ok())
                    .expect("the XObject exists");
                let b = nums(xo.dict.get(b"BBox").unwrap().as_array().unwrap());
                let corners = [(b[0], b[1]), (b[2], b[1]), (b[0], b[3]), (b[2], b[3])];
                let pts: Vec<(f64, f64)> = corners
                    .iter()
                    .map(|&(x, y)| to_mm(apply(&st.ctm, x, y)))
                    .collect();
                let bbox = R::of(&pts);
                faces.push(Face {
                    bbox,
                    clip: st.clip.unwrap_or(bbox),
                });
            }
            _ => {}
        }
    }
    (faces, lines)
}

/// The words of every page (`pdftotext -bbox`), in mm.
fn read_words(pdf: &Path) -> Vec<Vec<Word>> {
    let o = Command::new("pdftotext")
        .arg("-bbox")
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) is installed");
    assert!(o.status.success());
    let html = String::from_utf8_lossy(&o.stdout);
    let attr = |tag: &str, name: &str| -> f64 {
        let k = format!("{name}=\"");
        let i = tag.find(&k).expect("attribute") + k.len();
        tag[i..].split('"').next().unwrap().parse().unwrap()
    };
    let mut pages = Vec::new();
    for chunk in html.split("<page ").skip(1) {
        let mut words = Vec::new();
        for w in chunk.split("<word ").skip(1) {
            let (tag, rest) = w.split_once('>').unwrap();
            let text = rest.split("</word>").next().unwrap().to_string();
            words.push(Word {
                text,
                bbox: R {
                    x0: attr(tag, "xMin") / PT,
                    y0: attr(tag, "yMin") / PT,
                    x1: attr(tag, "xMax") / PT,
                    y1: attr(tag, "yMax") / PT,
                },
            });
        }
        pages.push(words);
    }
    pages
}

/// Reads a PDF: every page's faces, lines and words, and how it asks to be printed.
pub fn read_pdf(path: &Path) -> Pdf {
    let doc = Document::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut words = read_words(path).into_iter();
    let mut pages = Vec::new();
    for (_, id) in doc.get_pages() {
        let media = rect_of(&doc, id, b"MediaBox");
        let trim = rect_of(&doc, id, b"TrimBox");
        let bleed = rect_of(&doc, id, b"BleedBox");
        let side = |k: usize| (trim[k] - bleed[k]).abs() / PT;
        let b = (0..4).map(side).fold(0.0, f64::max);
        // PDF boxes run up from the bottom: [llx, lly, urx, ury].
        let sides = [side(0), side(3), side(2), side(1)];
        let (faces, lines) = read_page(&doc, id);
        pages.push(Page {
            w: (media[2] - media[0]) / PT,
            h: (media[3] - media[1]) / PT,
            bleed: b,
            sides,
            margin: MARGIN,
            faces,
            lines,
            words: words.next().unwrap_or_default(),
        });
    }
    let root = doc.trailer.get(b"Root").unwrap().as_reference().unwrap();
    let catalog = doc.get_dictionary(root).unwrap();
    let vp = catalog
        .get(b"ViewerPreferences")
        .ok()
        .and_then(|v| v.as_dict().ok());
    let name = |k: &[u8]| {
        vp.and_then(|d| d.get(k).ok())
            .and_then(|n| n.as_name().ok())
            .map(|n| String::from_utf8_lossy(n).into_owned())
    };
    Pdf {
        duplex: name(b"Duplex"),
        scaling: name(b"PrintScaling"),
        pages,
    }
}

/// What the checks counted, and every problem found.
#[derive(Default, Debug)]
pub struct Report {
    pub pages: usize,
    pub words: usize,
    pub lines: usize,
    pub cuts: usize,
    pub chits: usize,
    pub pairs: usize,
    pub problems: Vec<String>,
}

/// A face drawn past the page: a window onto a tiled board.
fn is_tile(f: &Face, p: &Page) -> bool {
    f.bbox.x0 < -TOL || f.bbox.y0 < -TOL || f.bbox.x1 > p.w + TOL || f.bbox.y1 > p.h + TOL
}

/// Every word and line of the page inside the printable area (words of a tile's
/// art aside).
fn check_inside(p: &Page, at: &str, report: &mut Report) {
    let area = p.printable();
    for l in &p.lines {
        report.lines += 1;
        let b = R::of(&l.points);
        if !b.inside(&area, TOL) {
            report
                .problems
                .push(format!("{at}: a line outside the printable area: {b:?}"));
        }
    }
    for w in &p.words {
        let art = p
            .faces
            .iter()
            // The tile's whole art (what its window clips away is not printed,
            // though pdftotext still reads it).
            .any(|f| is_tile(f, p) && w.bbox.inside(&f.bbox, TOL));
        if art {
            continue;
        }
        report.words += 1;
        if !w.bbox.inside(&area, TOL) {
            report.problems.push(format!(
                "{at}: word {:?} outside the printable area: {:?}",
                w.text, w.bbox
            ));
        }
    }
}

/// Where a chit's cut line is: the position in the page's lines of a grey line
/// along its trim, and whether a white line along the same trim lies under it (so
/// that it shows on a dark part).
fn outline(f: &Face, p: &Page) -> Option<(usize, bool)> {
    // The outline is the part's trim: the face box inset by the page's bleed, or by
    // the chits' 1.5 mm on a sheet shared with parts of another bleed.
    [p.bleed, 1.5].iter().find_map(|&bleed| {
        let trim = f.bbox.shrink(bleed);
        let along = |l: &Line| R::of(&l.points).close(&trim, 0.05);
        let grey = p
            .lines
            .iter()
            .position(|l| !l.black && !l.white && along(l))?;
        Some((grey, p.lines[..grey].iter().any(|l| l.white && along(l))))
    })
}

/// The cut lines of chits: a line along each part's trim.
fn has_outline(f: &Face, p: &Page) -> bool {
    outline(f, p).is_some()
}

/// Whether a straight line marks the end of a cut at `end` (the cut running along
/// `along` = x or y at `pos`), on the side `dir` (-1 before the parts, +1 after):
/// collinear with the cut, reaching the end (or the printable area's edge), lying
/// off the parts (a dashed cut guide may run along the cut itself), long enough
/// to see.
fn marks_end(p: &Page, vertical: bool, pos: f64, end: f64, dir: f64) -> bool {
    let area = p.printable();
    let (lo, hi) = if vertical {
        (area.y0, area.y1)
    } else {
        (area.x0, area.x1)
    };
    let reach = end.clamp(lo, hi);
    p.lines.iter().any(|l| {
        let b = R::of(&l.points);
        let (p0, p1, q0, q1) = if vertical {
            (b.x0, b.x1, b.y0, b.y1)
        } else {
            (b.y0, b.y1, b.x0, b.x1)
        };
        if (p0 - pos).abs() > TOL || (p1 - pos).abs() > TOL || q1 - q0 < MIN_MARK {
            return false;
        }
        let reaches = if dir < 0.0 {
            q0 <= reach + TOL
        } else {
            q1 >= reach - TOL
        };
        let off_parts = if dir < 0.0 {
            q1 <= end + TOL
        } else {
            q0 >= end - TOL
        };
        reaches && (off_parts || l.dashed)
    })
}

/// Every cut through the parts of a page of cards, money, aids, screens or pads
/// (every edge of a trim not on the paper's edge) has a mark at both ends.
fn check_cuts(p: &Page, at: &str, report: &mut Report) {
    let trims: Vec<R> = p.faces.iter().map(|f| f.bbox.shrink(p.bleed)).collect();
    for vertical in [true, false] {
        let mut positions: Vec<f64> = Vec::new();
        for t in &trims {
            for v in if vertical { [t.x0, t.x1] } else { [t.y0, t.y1] } {
                if !positions.iter().any(|q| (q - v).abs() < TOL) {
                    positions.push(v);
                }
            }
        }
        for pos in positions {
            let edge = if vertical { p.w } else { p.h };
            if pos <= 1.0 || pos >= edge - 1.0 {
                // The paper's own edge: nobody cuts off a sliver of a millimetre
                // (two A5 pad sheets leave 0.5 mm of A4 on each side).
                continue;
            }
            let touching = trims.iter().filter(|t| {
                let (a, b) = if vertical { (t.x0, t.x1) } else { (t.y0, t.y1) };
                (a - pos).abs() < TOL || (b - pos).abs() < TOL
            });
            let (start, end) = touching.fold((f64::MAX, f64::MIN), |(s, e), t| {
                if vertical {
                    (s.min(t.y0), e.max(t.y1))
                } else {
                    (s.min(t.x0), e.max(t.x1))
                }
            });
            report.cuts += 1;
            // The bleed beyond the ends of the cut: above and below a vertical one.
            let [l, t, r, b] = p.sides;
            let (before, after) = if vertical { (t, b) } else { (l, r) };
            for (point, dir) in [(start - before, -1.0), (end + after, 1.0)] {
                if !marks_end(p, vertical, pos, point, dir) {
                    report.problems.push(format!(
                        "{at}: the {} cut at {pos:.2} mm has no mark at its {} end",
                        if vertical { "vertical" } else { "horizontal" },
                        if dir < 0.0 { "first" } else { "last" },
                    ));
                }
            }
        }
    }
}

/// Checks one page: inside the printable area, and its cuts or cut lines.
fn check_page(p: &Page, at: &str, report: &mut Report) {
    report.pages += 1;
    check_inside(p, at, report);
    if p.faces.is_empty() || p.faces.iter().any(|f| is_tile(f, p)) {
        return;
    }
    // Parts butted against a neighbour have no bleed and are cut along the lines
    // their own template draws (Black Pawn Trucking's die nets); chits with bleed
    // stand apart, each with its cut line.
    let butted = |f: &Face| {
        p.faces.iter().any(|g| {
            !std::ptr::eq(f, g)
                && ((f.clip.x1 - g.clip.x0).abs() < 0.05 || (f.clip.x0 - g.clip.x1).abs() < 0.05)
                && f.clip.y0 < g.clip.y1
                && g.clip.y0 < f.clip.y1
        })
    };
    let chits = p.faces.iter().filter(|f| has_outline(f, p)).count();
    if chits > 0 {
        report.chits += chits;
        let bare_lines = p
            .faces
            .iter()
            .filter(|f| outline(f, p).is_some_and(|(_, halo)| !halo))
            .count();
        if bare_lines > 0 {
            report.problems.push(format!(
                "{at}: {bare_lines} cut lines without a white line under them (unseen on a dark part)"
            ));
        }
        let bare: Vec<R> = p
            .faces
            .iter()
            .filter(|f| !has_outline(f, p) && !butted(f))
            .map(|f| f.clip)
            .collect();
        if !bare.is_empty() {
            report.problems.push(format!(
                "{at}: {} parts without a cut line: {bare:?}",
                bare.len()
            ));
        }
    } else {
        check_cuts(p, at, report);
    }
}

/// The face boxes of a page, mirrored left to right.
fn mirrored(p: &Page) -> Vec<R> {
    p.faces
        .iter()
        .map(|f| R {
            x0: p.w - f.bbox.x1,
            x1: p.w - f.bbox.x0,
            ..f.bbox
        })
        .collect()
}

/// A duplex file: pages in front/back pairs, each back the mirror of its front.
fn check_duplex(pdf: &Pdf, name: &str, report: &mut Report) {
    if pdf.pages.len() % 2 == 1 {
        report
            .problems
            .push(format!("{name}: an odd number of pages in a duplex file"));
    }
    for (k, pair) in pdf.pages.chunks(2).enumerate() {
        let [front, back] = pair else { continue };
        let (f, b) = (front.text().to_lowercase(), back.text().to_lowercase());
        let at = format!("{name} pages {}-{}", 2 * k + 1, 2 * k + 2);
        report.pairs += 1;
        if !f.contains("front") || !b.contains("back") {
            report
                .problems
                .push(format!("{at}: not a front followed by its back"));
        }
        if (front.w - back.w).abs() > TOL || (front.h - back.h).abs() > TOL || front.w > front.h {
            report.problems.push(format!(
                "{at}: front and back are not the same portrait sheet"
            ));
        }
        let want = mirrored(front);
        let got: Vec<R> = back.faces.iter().map(|f| f.bbox).collect();
        let matched = want.iter().all(|w| got.iter().any(|g| g.close(w, 0.05)));
        if want.len() != got.len() || !matched {
            report.problems.push(format!(
                "{at}: the back's parts are not the mirror of the front's"
            ));
        }
    }
}

/// The home PDFs of a build (real-size and pad-size files are for print shops).
fn home_pdfs(out: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for game in std::fs::read_dir(out).unwrap() {
        let game = game.unwrap().path();
        if !game.is_dir() {
            continue;
        }
        for profile in std::fs::read_dir(&game).unwrap() {
            let dir = profile.unwrap().path();
            if !dir.is_dir() {
                continue;
            }
            for f in std::fs::read_dir(&dir).unwrap() {
                let f = f.unwrap().path();
                let n = f.file_name().unwrap().to_string_lossy().into_owned();
                // The rulebook is not a sheet of parts (tests/it/rulebook.rs).
                if n.ends_with(".pdf")
                    && !n.ends_with("-real-size.pdf")
                    && !n.ends_with("-pad-size.pdf")
                    && !n.ends_with("-rules.pdf")
                    && !n.ends_with("-rules-booklet.pdf")
                {
                    found.push(f);
                }
            }
        }
    }
    found.sort();
    found
}

/// A copy of the fixture game with the shared templates.
pub fn fixture_project() -> tempfile::TempDir {
    let tmp = base_copy();
    copy_dir(&repo().join("profiles"), &tmp.path().join("profiles"));
    tmp
}

/// A build shared by every test that reads it: its folder, and what the build of
/// the real games printed.
pub struct Shared {
    pub dir: tempfile::TempDir,
    pub stdout: String,
    pub stderr: String,
}

/// Builds every game and the fixture game with `profile` on `paper` into one
/// temporary folder (once per test binary).
pub fn built(cell: &'static OnceLock<Shared>, profile: &str, paper: &str) -> &'static Path {
    shared(cell, profile, paper).dir.path()
}

/// What the real games' build at home on Letter adds to its arguments, and runs
/// it with: it is also `determinism`'s build on one thread (SVG and PNG at 60 dpi
/// beside the PDFs, which they leave the same bytes), which that test compares
/// with a build on three threads. The fixture game's build beside it is a plain one.
pub const ONE_THREAD_FACES: [&str; 4] = ["--format", "pdf,svg,png", "--dpi", "60"];

/// [`built`], with what the real games' build printed.
pub fn shared(cell: &'static OnceLock<Shared>, profile: &str, paper: &str) -> &'static Shared {
    cell.get_or_init(|| {
        let dir = shared_tempdir();
        let o = dir.path().to_str().unwrap();
        let args = ["build", "--profile", profile, "--paper", paper, "--out", o];
        let r = if (profile, paper) == ("home", "letter") {
            Command::new(env!("CARGO_BIN_EXE_cardstock"))
                .args(args)
                .args(ONE_THREAD_FACES)
                .env("RAYON_NUM_THREADS", "1")
                .current_dir(repo())
                .output()
                .expect("cardstock runs")
        } else {
            run(&repo(), &args)
        };
        let (stdout, stderr) = texts(&r);
        assert!(r.status.success(), "{stdout}\n{stderr}");
        let fixture = fixture_project();
        let r = run(fixture.path(), &args);
        assert!(r.status.success(), "{:?}", texts(&r));
        Shared {
            dir,
            stdout,
            stderr,
        }
    })
}

/// Every game and the fixture game at home on Letter: [`shared`] for the tests of
/// one game that read a plain build's PDFs (the real games' output does not depend
/// on which other games are built with them).
pub fn home_letter() -> &'static Shared {
    shared(&HOME_LETTER, "home", "letter")
}

/// The folder of [`home_letter`]'s build, after checking that its output says
/// `line` (a game's summary: what one game's tests expect of the build).
pub fn home_letter_saying(line: &str) -> &'static Path {
    let shared = home_letter();
    assert!(shared.stdout.contains(line), "{}", shared.stdout);
    shared.dir.path()
}

/// Reads and checks every home PDF of a build.
fn check_build(out: &Path, duplex_files: bool) -> Report {
    check_build_at(out, duplex_files, MARGIN)
}

/// [`check_build`] for a printer that leaves `margin` mm blank.
fn check_build_at(out: &Path, duplex_files: bool, margin: f64) -> Report {
    check_files_at(&home_pdfs(out), out, duplex_files, margin)
}

/// Reads and checks the home PDFs `paths` (named relative to `out`).
pub fn check_files(paths: &[PathBuf], out: &Path, duplex_files: bool) -> Report {
    check_files_at(paths, out, duplex_files, MARGIN)
}

/// [`check_files`] for a printer that leaves `margin` mm blank.
fn check_files_at(paths: &[PathBuf], out: &Path, duplex_files: bool, margin: f64) -> Report {
    let mut report = Report::default();
    for path in paths {
        let mut pdf = read_pdf(path);
        for page in &mut pdf.pages {
            page.margin = margin;
        }
        let name = path.strip_prefix(out).unwrap().display().to_string();
        if pdf.scaling.as_deref() != Some("None") {
            report
                .problems
                .push(format!("{name}: does not ask for printing at 100 %"));
        }
        let two_sided = pdf
            .pages
            .iter()
            .any(|p| p.text().contains("reverse of the page before"));
        match pdf.duplex.as_deref() {
            Some("DuplexFlipLongEdge") => check_duplex(&pdf, &name, &mut report),
            Some("Simplex") if two_sided => report
                .problems
                .push(format!("{name}: back sheets in a file printed one-sided")),
            Some("Simplex") => {}
            other => report
                .problems
                .push(format!("{name}: asks for duplex {other:?}")),
        }
        if !duplex_files && pdf.duplex.as_deref() != Some("Simplex") {
            report
                .problems
                .push(format!("{name}: gutterfold prints one-sided"));
        }
        for (k, page) in pdf.pages.iter().enumerate() {
            check_page(page, &format!("{name} page {}", k + 1), &mut report);
        }
    }
    report
}

pub fn assert_clean(what: &str, report: &Report) {
    eprintln!(
        "{what}: {} pages, {} words, {} lines, {} cuts, {} chit cut lines, {} duplex pairs, {} problems",
        report.pages,
        report.words,
        report.lines,
        report.cuts,
        report.chits,
        report.pairs,
        report.problems.len()
    );
    assert!(
        report.problems.is_empty(),
        "{what}: {} problems:\n{}",
        report.problems.len(),
        report.problems.join("\n")
    );
    assert!(report.pages > 0 && report.words > 0 && report.lines > 0);
}

pub static HOME_LETTER: OnceLock<Shared> = OnceLock::new();
pub static HOME_A4: OnceLock<Shared> = OnceLock::new();
pub static FOLD_LETTER: OnceLock<Shared> = OnceLock::new();
static FOLD_A4: OnceLock<Shared> = OnceLock::new();

#[test]
fn home_on_letter_prints_inside_the_margin_with_duplex_in_order() {
    let report = check_build(built(&HOME_LETTER, "home", "letter"), true);
    assert_clean("home, Letter", &report);
    assert!(report.pairs > 20 && report.cuts > 100, "{report:?}");
}

#[test]
fn home_on_a4_prints_inside_the_margin_with_duplex_in_order() {
    let report = check_build(built(&HOME_A4, "home", "a4"), true);
    assert_clean("home, A4", &report);
    assert!(report.pairs > 20 && report.cuts > 100, "{report:?}");
}

#[test]
fn gutterfold_on_letter_prints_inside_the_margin() {
    let report = check_build(built(&FOLD_LETTER, "gutterfold", "letter"), false);
    assert_clean("gutterfold, Letter", &report);
}

#[test]
fn gutterfold_on_a4_prints_inside_the_margin() {
    let report = check_build(built(&FOLD_A4, "gutterfold", "a4"), false);
    assert_clean("gutterfold, A4", &report);
}

/// The fixture game with nine contract-like cards (for a full 3 x 3 sheet), the
/// two-sided tokens of a second set, and `profile` written as
/// `profiles/asked.toml`.
fn fixture_with_layout(profile: &str) -> tempfile::TempDir {
    let tmp = fixture_project();
    let game = tmp.path().join("data/mini/game.toml");
    edit(&game, "cards = 4", "cards = 10");
    edit(
        &tmp.path().join("data/mini/cards.toml"),
        "value = 2\nqty = 2",
        "value = 2\nqty = 8",
    );
    let mut text = std::fs::read_to_string(&game).unwrap();
    text.push_str(
        "\n[[component]]\nid = \"discs\"\nkind = \"token\"\nsize = { width = \"30mm\", height = \"18mm\" }\nshape = \"rounded\"\ntable = \"suit\"\nqty = 7\nfront = \"disc.svg\"\nback = \"disc-back.svg\"\n",
    );
    std::fs::write(&game, text).unwrap();
    edit(&game, "tokens = 4", "tokens = 4\ndiscs = 14");
    // Faces drawn out to their bleed edge (the reader takes a face's box from
    // what it draws).
    for (name, fill) in [
        ("disc.svg", "{{ row.color }}"),
        ("disc-back.svg", "#203040"),
    ] {
        std::fs::write(
            tmp.path().join("templates/mini").join(name),
            format!("{{% extends \"common/face.svg\" %}}{{% block body %}}<rect x=\"{{{{ -face.bleed }}}}\" y=\"{{{{ -face.bleed }}}}\" width=\"{{{{ face.full_width }}}}\" height=\"{{{{ face.full_height }}}}\" fill=\"{fill}\"/>{{% endblock %}}"),
        )
        .unwrap();
    }
    std::fs::write(tmp.path().join("profiles/asked.toml"), profile).unwrap();
    tmp
}

/// Builds `dir` with the `asked` profile on `paper` into a new folder.
fn build_asked(dir: &Path, paper: &str, extra: &[&str]) -> (tempfile::TempDir, String) {
    let out = tempfile::tempdir().unwrap();
    let mut args = vec![
        "build",
        "--profile",
        "asked",
        "--paper",
        paper,
        "--out",
        out.path().to_str().unwrap(),
    ];
    args.extend(extra);
    let r = run(dir, &args);
    let (stdout, stderr) = texts(&r);
    assert!(r.status.success(), "{stdout}\n{stderr}");
    (out, stderr)
}

#[test]
fn layouts_asked_for_print_inside_the_margin_with_duplex_in_order() {
    // Three by three upright on Letter for an inkjet: less bleed above and below.
    let tmp = fixture_with_layout(
        "[profile]\nname = \"Inkjet, 3 x 3\"\noutput = \"sheets\"\nprinter_margin = \"3mm\"\n\n[layout.card]\ngrid = \"3x3\"\norientation = \"upright\"\n",
    );
    let (out, stderr) = build_asked(tmp.path(), "letter", &[]);
    assert!(
        stderr.contains("the grid asked for leaves room for 0.85 mm of the parts' 3 mm bleed beyond its outer edges"),
        "{stderr}"
    );
    let report = check_build_at(out.path(), true, 3.0);
    assert_clean("3 x 3 upright, Letter, 3 mm margin", &report);
    let pdf = read_pdf(&out.path().join("mini/asked/mini.pdf"));
    let front = &pdf.pages[0];
    assert_eq!(front.faces.len(), 9);
    assert!(
        front
            .faces
            .iter()
            .all(|f| f.bbox.x1 - f.bbox.x0 < f.bbox.y1 - f.bbox.y0),
        "upright"
    );
    assert!(
        (front.sides[1] - 0.85).abs() < 0.01 && (front.sides[0] - 3.0).abs() < 0.01,
        "{:?}",
        front.sides
    );
    // The same on a laser printer's margin is an error saying what is missing.
    let r = run(
        tmp.path(),
        &["build", "--profile", "asked", "--printer-margin", "4.2mm"],
    );
    let (_, stderr) = texts(&r);
    assert!(!r.status.success());
    assert!(
        stderr.contains("component `cards`: 3 x 3 parts of 63.5 x 88.9 mm do not fit on letter paper with their crop marks: 0.7 mm short"),
        "{stderr}"
    );
    assert!(stderr.contains("print on A4 (--paper a4)"), "{stderr}");
}

#[test]
fn gutters_hold_each_parts_own_bleed_on_every_layout() {
    let tmp = fixture_with_layout(
        "[profile]\nname = \"Gutters\"\noutput = \"sheets\"\n\n[layout]\ngutter = \"8mm\"\n\n[layout.token]\norientation = \"sideways\"\ngutter = \"2mm\"\n",
    );
    for paper in ["letter", "a4"] {
        let (out, _) = build_asked(tmp.path(), paper, &[]);
        let report = check_build(out.path(), true);
        assert_clean(&format!("gutters, {paper}"), &report);
        let pdf = read_pdf(&out.path().join("mini/asked/mini.pdf"));
        // The cards: 8 mm apart, each showing its own 3 mm bleed into the gutter.
        let cards = &pdf.pages[0];
        assert!(
            cards.text().contains("cards — fronts 1/"),
            "{}",
            cards.text()
        );
        for f in &cards.faces {
            let trim = f.bbox.shrink(3.0);
            for g in &cards.faces {
                let t = g.bbox.shrink(3.0);
                let beside = (t.x0 - trim.x1 - 8.0).abs() < 0.01 && (t.y0 - trim.y0).abs() < 0.01;
                if beside {
                    assert!((f.clip.x1 - trim.x1 - 3.0).abs() < 0.02, "{f:?}");
                    assert!((t.x0 - g.clip.x0 - 3.0).abs() < 0.02, "{g:?}");
                }
            }
        }
        // The two-sided tokens share duplex sheets, laid sideways, 2 mm apart (1 mm
        // of each one's bleed in it); their backs mirrored on the next page.
        let k = pdf
            .pages
            .iter()
            .position(|p| p.text().contains("discs — fronts 1/"))
            .expect("a sheet of discs");
        assert_eq!(k % 2, 0, "fronts on an odd page");
        let discs = &pdf.pages[k];
        let turned: Vec<&Face> = discs
            .faces
            .iter()
            .filter(|f| f.bbox.y1 - f.bbox.y0 > 30.0)
            .collect();
        assert_eq!(turned.len(), 14, "{:?}", discs.faces);
        let back = &pdf.pages[k + 1];
        assert!(back.text().contains("discs — backs 1/"));
        assert_eq!(back.faces.len(), 14);
        for f in &turned {
            assert!(
                (f.clip.x1 - f.clip.x0 - (18.0 + 2.0)).abs() < 0.02,
                "1 mm a side: {f:?}"
            );
        }
    }
}

#[test]
fn a_profiles_layout_errors_name_the_key_and_the_fix() {
    for (layout, expected, at) in [
        (
            "[layout]\ngrid = \"3x3\"\n",
            "a grid in a profile is for one kind of part",
            "profiles/asked.toml:6:8",
        ),
        (
            "[layout.chit]\ngrid = \"3x3\"\n",
            "a chit set flows onto sheets shared with the other chit and token sets",
            "profiles/asked.toml:6:8",
        ),
        (
            "[layout.card]\ngutter = \"40mm\"\n",
            "gutter: 40 mm is outside 0..25.4 mm",
            "profiles/asked.toml:6:10",
        ),
    ] {
        let tmp = fixture_with_layout(&format!(
            "[profile]\nname = \"Asked\"\noutput = \"sheets\"\n\n{layout}"
        ));
        let r = run(tmp.path(), &["build", "--profile", "asked"]);
        let (_, stderr) = texts(&r);
        assert!(!r.status.success(), "{layout}");
        assert!(stderr.contains(expected), "{layout}: {stderr}");
        assert!(stderr.contains(at), "{layout}: {stderr}");
    }
}
