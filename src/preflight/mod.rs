//! Preflight: what a print shop or a player would object to, found before the files
//! leave: text and key art outside the safe zone of the part's cut shape (an inset
//! rectangle, rounded rectangle, circle or triangle), text over text, text under
//! the least size a player reads (6 pt, light text 7 pt: [`crate::profile::SmallText`]),
//! elements drawn over what a template marks `class="keep-visible"`, opaque fills
//! over most of a text or an icon drawn before them, raster images under 300 dpi
//! at their printed size, and a background that stops short of the bleed edge.
//!
//! Each problem names the template line of the element (the rendered SVG's byte
//! range located in the template's output spans) and is reported once for all the
//! faces that have it ("on 15 faces: ..."), with its worst case. Problems are
//! warnings; a component with `keep_visible = "error"` makes a covered keep-visible
//! element an error, and a profile's `small_text` may make small text one.

mod checks;
mod cover;
mod elements;
mod hidden;
mod shape;
mod text_size;

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;

use crate::diag::{Diagnostic, Reported};
use crate::faces::{FaceStore, Rendered};
use crate::model::{Component, Severity, Shape, Side};
use crate::profile::Profile;
use crate::render::{FacePlan, Renderer};
use crate::svg::elements::Elements;
use checks::{Check, Face, Finding};
use shape::Cut;

/// Lowest raster resolution at print size.
pub const MIN_DPI: f64 = 300.0;

/// A finding of one face, located in its template.
pub struct Located {
    finding: Finding,
    file: PathBuf,
    span: Option<Range<usize>>,
    /// `file:line` of the other element involved.
    other: Option<String>,
}

/// Checks every distinct face of every component the profile exports, taking the
/// findings of faces checked before from `cache` (and keeping the new ones there):
/// an unchanged face is not checked again.
pub fn check_cached(
    r: &Renderer,
    plans: &[Vec<FacePlan>],
    rendered: &Rendered,
    profile: &Profile,
    cache: Option<&Cache>,
) -> Reported<()> {
    let layers = LayerElements::new(&rendered.store);
    let per_face: Vec<Vec<Located>> = (0..rendered.store.len())
        .into_par_iter()
        .map(|i| face(r, plans, rendered, profile, cache, &layers, i))
        .collect();
    report(r, rendered, profile, per_face)
}

/// Parses every face (on all cores) and checks each right after it is parsed, while
/// its tree is fresh: one pass over the faces, however few of their trees the store
/// keeps. The findings are reported by [`report`] once every face parsed.
pub fn parse_and_check(
    r: &Renderer,
    plans: &[Vec<FacePlan>],
    rendered: &Rendered,
    profile: &Profile,
) -> Vec<Vec<Located>> {
    let layers = LayerElements::new(&rendered.store);
    rendered
        .store
        .parse_all_with(|i| face(r, plans, rendered, profile, None, &layers, i))
}

/// The elements of each layer's part of the fronts over it, read once (from the
/// first front that needs them), and whether that part has the word `class`.
struct LayerElements(
    Vec<std::sync::OnceLock<Option<Elements>>>,
    Vec<std::sync::OnceLock<bool>>,
);

impl LayerElements {
    fn new(store: &FaceStore) -> Self {
        fn cells<T>(n: usize) -> Vec<std::sync::OnceLock<T>> {
            (0..n).map(|_| Default::default()).collect()
        }
        let n = store.layer_count();
        LayerElements(cells(n), cells(n))
    }

    /// Whether face `i`'s text may mark an element keep-visible or as an icon:
    /// false when the word `class` is nowhere in it, so that no element has a
    /// `class` attribute (an entity that expands to one is defined in the text
    /// too). The layer's part (a `<g>...</g>`: no word runs across its ends) is
    /// looked at once.
    fn may_mark(&self, store: &FaceStore, i: usize) -> bool {
        const CLASS: &str = "class";
        let Some(l) = store.layer_of(i) else {
            return store.svg(i).contains(CLASS);
        };
        let layer = self.1.get(l.layer).is_none_or(|cell| {
            *cell.get_or_init(|| {
                store
                    .svg(i)
                    .get(l.at.range.clone())
                    .is_none_or(|t| t.contains(CLASS))
            })
        });
        layer || store.own_svg(i).contains(CLASS)
    }

    /// The elements of face `i`'s (whole) text.
    fn of(&self, store: &FaceStore, i: usize) -> Elements {
        let whole = || Elements::read(&store.svg(i)).unwrap_or_default();
        let Some(l) = store.layer_of(i) else {
            return whole();
        };
        let at = l.at.range.clone();
        let layer = self.0.get(l.layer).and_then(|cell| {
            cell.get_or_init(|| {
                let prefix = format!("{}</svg>", store.svg(i).get(..at.end)?);
                Elements::from(&prefix, at.start)
            })
            .as_ref()
        });
        match (layer, Elements::read(&store.own_svg(i))) {
            (Some(layer), Some(own)) => Elements::over(layer, at.start, at.len(), own),
            _ => whole(),
        }
    }
}

/// A face's findings, shared between builds.
type Findings = Arc<Vec<Finding>>;

/// The findings of faces already checked, kept between builds (the live
/// preview): keyed by [`cache_key`]. The images a face links to are not in the
/// key: drop the cache when an image changes. Its counts are of faces checked and
/// taken from it.
pub type Cache = crate::kept::ByHash<Findings>;

/// What decides a face's findings: its SVG text, fonts, size, bleed, cut shape,
/// safe distance, print colour and least text sizes.
fn cache_key(text: &str, fonts: u64, comp: &Component, shape: Shape, p: &Profile) -> [u8; 32] {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    h.update(text.as_bytes());
    h.update(
        format!(
            "|{fonts}|{}|{}|{}|{shape:?}|{}|{:?}|{:?}",
            comp.size.width, comp.size.height, comp.bleed, p.safe, p.print, p.small_text
        )
        .as_bytes(),
    );
    h.finalize().into()
}

/// The located findings of face `i`.
fn face(
    r: &Renderer,
    plans: &[Vec<FacePlan>],
    rendered: &Rendered,
    profile: &Profile,
    cache: Option<&Cache>,
    layers: &LayerElements,
    i: usize,
) -> Vec<Located> {
    let store = &rendered.store;
    let o = &store.origins[i];
    let comp = &r.game.components[o.component];
    let Some(plan) = plans[o.component].get(o.face) else {
        return Vec::new();
    };
    // The elements a tagged picture carries, once `findings` saw them.
    let carried = std::cell::OnceCell::new();
    let check = || findings(rendered, comp, plan.shape, profile, layers, i, &carried).ok_or(());
    let findings = match cache {
        None => check().ok(),
        Some(c) => {
            let key = cache_key(
                &store.svg(i),
                store.fonts().fingerprint(),
                comp,
                plan.shape,
                profile,
            );
            c.get_or_make(key, check).ok()
        }
    };
    let Some(findings) = findings.filter(|f| !f.is_empty()) else {
        return Vec::new();
    };
    let read;
    let elements = match carried.get() {
        Some(e) => e,
        None => {
            read = layers.of(store, i);
            &read
        }
    };
    let locator = store.locator(r, plans, i);
    let locate = |e: Option<usize>| locator.locate(e.map(|e| elements.list[e].start.clone()));
    findings
        .iter()
        .map(|finding| {
            let (file, span) = locate(finding.element);
            let other = finding
                .other
                .map(|e| locate(Some(e)))
                .map(|(f, s)| file_line(r, &f, s));
            Located {
                finding: finding.clone(),
                file,
                span,
                other,
            }
        })
        .collect()
}

/// The findings of face `i`, not yet located; `None` if it did not parse. The
/// elements of a picture parsed from the tagged text are put in `carried`.
fn findings(
    rendered: &Rendered,
    comp: &Component,
    shape: Shape,
    profile: &Profile,
    layers: &LayerElements,
    i: usize,
    carried: &std::cell::OnceCell<Arc<Elements>>,
) -> Option<Findings> {
    let store = &rendered.store;
    let picture = store.picture(i)?;
    let check_with = |trees: &[Arc<usvg::Tree>], elements: &Elements| {
        let leaves = elements::leaves(trees, elements, profile.small_text.light);
        let mut face = face_geometry(trees, comp, shape, profile);
        face.print = profile.print.as_ref();
        checks::check(&face, &leaves)
    };
    // A face that marks no element is checked without its elements, which only
    // name what is found (no check reads them but for the marks): they are read
    // (a second parse of the text) only for a face with something to report.
    if !layers.may_mark(store, i) && check_with(picture.trees(), &Elements::default()).is_empty() {
        return Some(Arc::default());
    }
    let read;
    let elements = match picture.tagged_elements() {
        Some(e) => carried.get_or_init(|| e.clone()),
        None => {
            read = layers.of(store, i);
            &read
        }
    };
    let check = |trees: &[Arc<usvg::Tree>]| check_with(trees, elements);
    // Elements are named by ids: a copy with an id on every element is parsed when
    // the face marks keep-visible ones, or when it has something to report. A face
    // that marks some was parsed from that copy already ([`crate::svg::elements::tagged`]).
    let mut findings = Vec::new();
    if !elements.any_marked() {
        findings = check(picture.trees());
        if findings.is_empty() {
            return Some(Arc::default());
        }
    }
    if picture.tagged_elements().is_some() {
        findings = check(picture.trees());
    } else if let Some(tagged) = store.parse_text(&elements.tagged(&store.svg(i))) {
        findings = check(&[Arc::new(tagged)]);
    }
    if let Some(print) = &profile.print {
        findings.extend(given_cmyk(&store.svg(i), elements, print));
    }
    Some(Arc::new(findings))
}

/// The CMYK colours a face gives itself (`data-cmyk`) that a shop objects to: over
/// the ink limit, or a rich black on text under 12 pt.
fn given_cmyk(
    svg: &str,
    elements: &Elements,
    print: &crate::color::PrintColor,
) -> Vec<checks::Finding> {
    let mut out = Vec::new();
    if !svg.contains("data-cmyk") {
        return out;
    }
    let Ok(doc) = roxmltree::Document::parse(svg) else {
        return out;
    };
    let index = |n: roxmltree::Node| {
        elements
            .list
            .iter()
            .position(|e| e.start.start == n.range().start)
    };
    for n in doc.descendants().filter(|n| n.is_element()) {
        for key in ["data-cmyk", "data-cmyk-stroke"] {
            let Some(value) = n.attribute(key) else {
                continue;
            };
            let Some(c) = crate::color::Cmyk::parse(value) else {
                out.push(checks::Finding {
                    check: checks::Check::InkLimit,
                    message: format!("{key}=\"{value}\" is not four inks of 0 to 100 %"),
                    element: index(n),
                    other: None,
                    worst: 0.0,
                });
                continue;
            };
            if c.total() > print.ink_limit + 0.5 {
                out.push(checks::Finding {
                    check: checks::Check::InkLimit,
                    message: format!(
                        "{key}=\"{value}\" is {} % ink, over the shop's {} %",
                        crate::units::fmt_num(c.total().round()),
                        crate::units::fmt_num(print.ink_limit)
                    ),
                    element: index(n),
                    other: None,
                    worst: c.total() - print.ink_limit,
                });
            }
            let text = matches!(n.tag_name().name(), "text" | "tspan");
            let rich = c.0[3] >= 230 && c.0[..3].iter().any(|&v| v > 0);
            let small = n
                .ancestors()
                .find_map(|a| a.attribute("font-size"))
                .and_then(|s| s.trim_end_matches("px").parse::<f64>().ok())
                .is_none_or(|s| s < 12.0 * 25.4 / 72.0);
            if text && rich && small {
                out.push(checks::Finding {
                    check: checks::Check::RichBlackText,
                    message: format!(
                        "small text in a rich black ({key}=\"{value}\"): four plates a little out of register blur it"
                    ),
                    element: index(n),
                    other: None,
                    worst: 0.0,
                });
            }
        }
    }
    out
}

/// A face's cut, safe distance, scale and least text sizes. Parts under 30 mm a
/// side (chits, coins) use a tenth of their smaller side as the safe distance when
/// that is less, as a 3 mm zone would leave a 3/4 in chit almost no room.
fn face_geometry<'a>(
    trees: &'a [Arc<usvg::Tree>],
    comp: &Component,
    shape: crate::model::Shape,
    profile: &Profile,
) -> Face<'a> {
    let (w, h, b) = (comp.size.width, comp.size.height, comp.bleed);
    let width = trees.first().map_or(1.0, |t| t.size().width() as f64);
    Face {
        trees,
        cut: Cut { shape, w, h },
        bleed: b,
        safe: profile.safe.min(w.min(h) * 0.1),
        mm_per_unit: (w + 2.0 * b) / width,
        print: None,
        text: profile.small_text,
    }
}

/// `templates/x.svg:12` for a located element.
fn file_line(r: &Renderer, file: &std::path::Path, span: Option<Range<usize>>) -> String {
    let line = span.and_then(|s| {
        let text = r.project.source(file)?;
        Some(text.get(..s.start)?.matches('\n').count() + 1)
    });
    match line {
        Some(l) => format!("{}:{l}", file.display()),
        None => file.display().to_string(),
    }
}

/// A group of findings: one check, one component side, one place in a template.
type Key = (usize, Side, Check, PathBuf, Option<(usize, usize)>);

/// One diagnostic per group of findings, with the worst case and the faces that
/// have it.
/// The findings of every face as diagnostics, one a problem however many faces
/// share it.
pub fn report(
    r: &Renderer,
    rendered: &Rendered,
    profile: &Profile,
    per_face: Vec<Vec<Located>>,
) -> Reported<()> {
    let mut groups: BTreeMap<Key, Vec<(usize, Located)>> = BTreeMap::new();
    for (i, found) in per_face.into_iter().enumerate() {
        let o = &rendered.store.origins[i];
        for l in found {
            let span = l.span.as_ref().map(|s| (s.start, s.end));
            let key = (o.component, o.side, l.finding.check, l.file.clone(), span);
            groups.entry(key).or_default().push((i, l));
        }
    }
    let diags = groups.into_iter().map(|((ci, side, check, ..), found)| {
        diagnostic(r, rendered, profile, ci, side, check, found)
    });
    Reported::new((), diags)
}

/// The diagnostic of one group.
fn diagnostic(
    r: &Renderer,
    rendered: &Rendered,
    profile: &Profile,
    ci: usize,
    side: Side,
    check: Check,
    found: Vec<(usize, Located)>,
) -> Diagnostic {
    let comp = &r.game.components[ci];
    let mut faces: Vec<usize> = found.iter().map(|(i, _)| *i).collect();
    faces.dedup();
    let (_, worst) = found
        .iter()
        .max_by(|a, b| a.1.finding.worst.total_cmp(&b.1.finding.worst))
        .unwrap_or(&found[0]);
    let mut message = worst.finding.message.clone();
    if faces.len() > 1 {
        message = format!("on {} faces: {message}", faces.len());
    }
    if found.len() > faces.len() {
        message = format!("{message} ({} places)", found.len());
    }
    let small_print_error = profile
        .print
        .as_ref()
        .is_some_and(|p| p.small_print_is_error);
    let error = match check {
        Check::Covered => comp.def.keep_visible == Some(Severity::Error),
        Check::SmallText => profile.small_text.severity == Severity::Error,
        Check::InkLimit => true,
        Check::ThinLine => small_print_error,
        _ => false,
    };
    let d = if error {
        Diagnostic::error(message)
    } else {
        Diagnostic::warning(message)
    };
    let label = |i: usize| format!("{} {side}", rendered.store.origins[i].label);
    let mut d = d
        .at(&worst.file, worst.span.clone())
        .with("game", &r.game.id)
        .with("component", comp.id());
    d = match faces.len() {
        1 => d.with("face", label(faces[0])),
        n => {
            let shown: Vec<String> = faces.iter().take(3).map(|&i| label(i)).collect();
            let more = if n > 3 {
                format!(" and {} more", n - 3)
            } else {
                String::new()
            };
            d.with("faces", format!("{}{more}", shown.join(", ")))
        }
    };
    if let Some(other) = &worst.other {
        let what = match check {
            Check::Covered => "keep-visible element",
            Check::Hidden => "covered",
            _ => "the other",
        };
        d = d.with(what, other.clone());
    }
    d.with("profile", &profile.id).hint(hint(check, comp))
}

fn hint(check: Check, comp: &Component) -> String {
    match check {
        Check::SafeZone => "keep text and key art inside the safe zone: the cut shape inset by the safe distance".into(),
        Check::Overlap => "move or shorten one of the texts".into(),
        Check::SmallText => "make the text larger (a `fit`/`shrink` minimum or a `text.block` size included): players cannot read smaller type on a table".into(),
        Check::Covered => format!(
            "move the covering element off it or draw it first; `keep_visible = \"error\"` in the [[component]] `{}` makes this an error",
            comp.id()
        ),
        Check::Hidden => "draw the text or icon after what covers it (later in the template), or move one of them".into(),
        Check::Resolution => "use an image of 300 dpi or more at its printed size".into(),
        Check::Background => "draw the background out to the bleed edge (face.bleed)".into(),
        Check::ThinLine => "draw lines at least 0.25 pt (0.09 mm) wide; `small_print` in the profile makes this a warning or an error".into(),
        Check::InkLimit => "give four inks (C M Y K, percent) whose total is within the profile's ink_limit".into(),
        Check::RichBlackText => "set small text in black ink alone (data-cmyk=\"0 0 0 100\"), or leave it to cardstock".into(),
        Check::RgbImage => "give the image in the shop's colours, or look at its soft proof (build --proof)".into(),
    }
}

/// A game of the repository's `data/`, its faces rendered (and parsed on demand)
/// and nothing delivered, for tests on real faces.
#[cfg(test)]
pub(crate) fn rendered_faces(game: &str) -> crate::pipeline::Finished<'static> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = crate::project::Project::disk(root).unwrap();
    let (built, finished) = crate::pipeline::build_choosing(
        &project,
        game,
        &crate::options::Options::default(),
        crate::pipeline::Incremental::default(),
        crate::output::Sink::Memory,
        |_, _| false.into(),
    );
    assert!(!built.diags.has_errors(), "{}", built.diags.render(&()));
    finished.expect("the faces rendered")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svg::elements::tagged;

    /// `written` (usvg's writer) without the ids a tagged copy gave.
    fn without_tags(written: &str) -> String {
        let mut out = String::new();
        let mut rest = written;
        while let Some(at) = rest.find(" id=\"cs-") {
            out.push_str(&rest[..at]);
            let tail = &rest[at + 8..];
            let digits = tail
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(tail.len());
            assert!(
                digits > 0 && tail[digits..].starts_with('"'),
                "{}",
                &tail[..20]
            );
            rest = &tail[digits + 1..];
        }
        out.push_str(rest);
        out
    }

    /// Checks that `text`'s tagged copy parses to the tree its text does, but for
    /// the ids: written out by usvg and drawn as pixels.
    fn tagged_draws_the_same(store: &FaceStore, text: &str) {
        let (tagged, elements) = tagged(text).expect("the face marks elements");
        let (plain, named) = (
            store.parse_text(text).unwrap(),
            store.parse_text(&tagged).unwrap(),
        );
        let write = |t: &usvg::Tree| t.to_string(&usvg::WriteOptions::default());
        let named_written = write(&named);
        assert!(
            named_written.contains("id=\"cs-"),
            "the ids are in the tree"
        );
        assert_eq!(without_tags(&named_written), write(&plain));
        let size = plain.size();
        let (w, h) = (size.width() as f64 / 4.0, size.height() as f64 / 4.0);
        let png =
            |t: usvg::Tree| crate::export::png::write(&Arc::new(t).into(), w, h, 96.0).unwrap();
        assert!(png(plain) == png(named), "the same pixels");
        assert!(elements.any_marked());
    }

    #[test]
    fn a_face_parsed_from_its_tagged_text_draws_what_its_text_draws() {
        // Interstate Trucking's board (168 keep-visible circles), then a face with
        // groups, a `<use>`, text, a clip path, an icon and an element's own id.
        let finished = rendered_faces("interstate-trucking");
        let store = &finished.rendered.store;
        let marked: Vec<usize> = (0..store.len())
            .filter(|&i| tagged(&store.svg(i)).is_some())
            .collect();
        assert!(!marked.is_empty());
        for &i in &marked {
            tagged_draws_the_same(store, &store.svg(i));
            let picture = store.picture(i).unwrap();
            assert!(
                picture.tagged_elements().is_some(),
                "face {i} parsed tagged"
            );
        }
        let text = r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40mm" height="40mm" viewBox="0 0 40 40"><defs><clipPath id="c"><rect width="20" height="20"/></clipPath><g id="dot"><circle r="2" fill="red"/><rect x="1" width="2" height="2"/></g></defs><rect width="40" height="40" fill="#eee"/><g class="keep-visible" clip-path="url(#c)"><circle cx="10" cy="10" r="8" fill="blue"/><use href="#dot" x="5" y="5"/></g><g transform="translate(20 20)"><text x="2" y="8" font-size="5" class="icon">Hi<tspan fill="red">!</tspan></text><path id="own" d="M0 0L10 10" stroke="black"/></g><use xlink:href="#own" x="3"/></svg>"##;
        tagged_draws_the_same(store, text);
    }

    #[test]
    fn a_face_whose_ids_look_like_tags_is_not_parsed_from_tagged_text() {
        let marked =
            r#"<svg xmlns="http://www.w3.org/2000/svg"><circle class="keep-visible" r="2"/></svg>"#;
        assert!(tagged(marked).is_some());
        let own = r#"<svg xmlns="http://www.w3.org/2000/svg"><circle class="keep-visible" r="2"/><rect id="cs-0" width="1" height="1"/></svg>"#;
        assert!(tagged(own).is_none());
        let unmarked =
            r#"<svg xmlns="http://www.w3.org/2000/svg"><circle class="other" r="2"/></svg>"#;
        assert!(tagged(unmarked).is_none());
    }

    fn bounds_of(l: &elements::Leaf) -> [u32; 4] {
        let b = l.bbox;
        [b.left(), b.top(), b.right(), b.bottom()].map(f32::to_bits)
    }

    #[test]
    fn a_tagged_picture_gives_the_findings_of_a_second_parse() {
        // A face parsed from its tagged text is checked on that tree; its findings
        // must be those of the tagged copy parsed again (what preflight did before).
        let finished = rendered_faces("interstate-trucking");
        let store = &finished.rendered.store;
        let profile = Profile::home();
        let layers = LayerElements::new(store);
        let mut checked = 0;
        for i in 0..store.len() {
            let picture = store.picture(i).unwrap();
            let Some(carried) = picture.tagged_elements() else {
                continue;
            };
            let comp = &finished.checked.game.components[store.origins[i].component];
            let cell = std::cell::OnceCell::new();
            let found = findings(
                &finished.rendered,
                comp,
                Shape::Rect,
                &profile,
                &layers,
                i,
                &cell,
            )
            .unwrap();
            assert!(Arc::ptr_eq(cell.get().unwrap(), carried));
            let elements = layers.of(store, i);
            let again = [Arc::new(
                store.parse_text(&elements.tagged(&store.svg(i))).unwrap(),
            )];
            let leaves = elements::leaves(&again, &elements, profile.small_text.light);
            let face = face_geometry(&again, comp, Shape::Rect, &profile);
            let expected = checks::check(&face, &leaves);
            let show = |f: &[Finding]| {
                f.iter()
                    .map(|f| format!("{:?} {:?} {:?} {}", f.check, f.element, f.other, f.message))
                    .collect::<Vec<_>>()
            };
            assert_eq!(show(&found), show(&expected), "face {i}");
            // The picture's leaves are named as the copy's: each with its element
            // and the keep-visible element it belongs to.
            let names = |leaves: &[elements::Leaf]| {
                leaves
                    .iter()
                    .map(|l| (l.element, l.keep, l.icon, bounds_of(l)))
                    .collect::<Vec<_>>()
            };
            let own = elements::leaves(picture.trees(), carried, profile.small_text.light);
            let (own_names, copy_names) = (names(&own), names(&leaves));
            assert_eq!(own_names.len(), copy_names.len(), "face {i}");
            if let Some(at) = (0..own_names.len()).find(|&j| own_names[j] != copy_names[j]) {
                panic!(
                    "face {i}, leaf {at}: {:?} named {:?} by the copy",
                    own_names[at], copy_names[at]
                );
            }
            let kept = own.iter().filter(|l| l.keep.is_some()).count();
            assert!(kept > 0, "face {i}: no keep-visible leaves");
            checked += 1;
        }
        assert!(checked > 0, "a tagged face");
    }

    #[test]
    fn a_face_checked_without_its_elements_marks_none() {
        // A face `may_mark` says marks nothing is checked without its elements;
        // on every face of two real games (Interstate Trucking's keep-visible
        // circles, Truck Off's sheets over a layer) it must be one whose
        // elements, read in full, mark nothing.
        let (mut unmarked, mut marked) = (0, 0);
        for game in ["interstate-trucking", "truck-off"] {
            let finished = rendered_faces(game);
            let store = &finished.rendered.store;
            let layers = LayerElements::new(store);
            for i in 0..store.len() {
                let whole = Elements::read(&store.svg(i)).unwrap();
                assert_eq!(layers.of(store, i).list.len(), whole.list.len());
                if layers.may_mark(store, i) {
                    marked += usize::from(whole.any_marked());
                } else {
                    assert!(!whole.any_marked(), "face {i} of {game} marks an element");
                    unmarked += 1;
                }
            }
        }
        assert!(
            unmarked > 100 && marked > 0,
            "{unmarked} faces, {marked} marked"
        );
    }
}
