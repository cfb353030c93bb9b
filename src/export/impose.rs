//! Imposition: the pages of a finished PDF placed, scaled, on the pages of a new
//! one, without drawing them again (the rulebook's booklet from its reading-order
//! PDF). Each source page becomes a form XObject: its content stream's bytes are
//! copied as they are (still compressed), its dictionary given `/Type /XObject
//! /Subtype /Form`, the page's MediaBox as `/BBox` (which also clips it) and the
//! page's `/Resources`. Fonts, images and shared XObjects are copied once,
//! unchanged. Each new page places forms (`q s 0 0 s x y cm /Pk Do Q`) and
//! strokes its marks with a few operators of its own, in the same ink as
//! [`super::pdf`]'s marks (RGB, or a print shop's CMYK). What only the source
//! document had (its page tree, catalog, outline and `/Info`) is left out.
//!
//! It accepts what krilla writes: one classic cross-reference table, no object
//! streams, no incremental update, a flat page tree whose pages each have one
//! content stream and resources in an indirect object. Anything else is a
//! [`PdfError::Writer`] saying what it found, never a panic. The result is again
//! such a file, so [`super::pdfx::finish`] and [`super::pdf::ask_to_print`] take
//! it as they take krilla's.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::pdf::{find, number_after, PdfError};
use super::pdfx::{deflate, dictionary, objects};
use crate::layout::{Mark, Sheet, MARK_WIDTH};
use crate::units::mm_to_pt;

/// A new document made of a source PDF's pages ([`impose`]).
#[derive(Clone, Copy)]
pub struct Imposition<'a> {
    /// The new document's title (its `/Info`).
    pub title: &'a str,
    /// The new pages: their size, TrimBox and BleedBox, their marks, and a
    /// placement per source page they show (`face`: the page's index, from 0;
    /// `w`: the width it is drawn at, in mm).
    pub sheets: &'a [Sheet],
    /// Deflates the new pages' content streams.
    pub compress: bool,
    /// The print shop's press the marks are inked for (`None`: RGB).
    pub press: Option<&'a crate::color::Press>,
}

fn broken(what: impl std::fmt::Display) -> PdfError {
    PdfError::Writer(format!("cannot impose the pages: {what}"))
}

/// A source page: its content stream's object, resources, box and group.
struct Page {
    contents: u32,
    resources: u32,
    /// The MediaBox, in pt: `[x0, y0, x1, y1]`.
    media: [f64; 4],
    /// The page's transparency group dictionary, if it has one.
    group: Option<String>,
}

/// The text of `dict` from `key` to the end of the value that follows it (an
/// array or a dictionary), without the key.
pub(super) fn value_after<'d>(dict: &'d str, key: &str) -> Option<&'d str> {
    let at = dict.find(key)? + key.len();
    let rest = dict[at..].trim_start();
    let (open, close) = match rest.as_bytes().first()? {
        b'[' => ("[", "]"),
        b'<' => ("<<", ">>"),
        _ => return None,
    };
    let mut depth = 0usize;
    let mut k = 0;
    while k < rest.len() {
        if rest[k..].starts_with(open) {
            depth += 1;
            k += open.len();
        } else if rest[k..].starts_with(close) {
            depth = depth.checked_sub(1)?;
            k += close.len();
            if depth == 0 {
                return Some(&rest[..k]);
            }
        } else {
            k += rest[k..].chars().next()?.len_utf8();
        }
    }
    None
}

/// The objects a dictionary's text refers to (`12 0 R`), in order.
pub(super) fn references(dict: &[u8]) -> Vec<u32> {
    let mut out = Vec::new();
    each_reference(dict, |_, n| out.push(n));
    out
}

/// Calls `f` with the byte range and the number of each reference (`12 0 R`) in
/// an object's text (its dictionary, array or value; not a stream's bytes), in
/// order. Strings, literal (balanced parentheses, `\` escaping a byte) and hex,
/// are text, not references; a number too large for an object is not one.
pub(super) fn each_reference(text: &[u8], mut f: impl FnMut(std::ops::Range<usize>, u32)) {
    let delimiter = |b: u8| b.is_ascii_whitespace() || b"()<>[]{}/%".contains(&b);
    let mut k = 0;
    while k < text.len() {
        match text[k] {
            b'(' => {
                let mut depth = 0usize;
                while k < text.len() {
                    match text[k] {
                        b'\\' => k += 1,
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    k += 1;
                }
                k += 1;
            }
            b'<' if text.get(k + 1) == Some(&b'<') => k += 2,
            b'<' => {
                k = text[k..]
                    .iter()
                    .position(|&b| b == b'>')
                    .map_or(text.len(), |e| k + e + 1);
            }
            b'0'..=b'9' if k == 0 || delimiter(text[k - 1]) => {
                let digits = text[k..].iter().take_while(|b| b.is_ascii_digit()).count();
                let rest = &text[k + digits..];
                let end = k + digits + 4;
                if rest.starts_with(b" 0 R") && rest.get(4).is_none_or(|&b| delimiter(b)) {
                    let n = std::str::from_utf8(&text[k..k + digits])
                        .ok()
                        .and_then(|d| d.parse().ok());
                    if let Some(n) = n {
                        f(k..end, n);
                    }
                    k = end;
                } else {
                    k += digits;
                }
            }
            _ => k += 1,
        }
    }
}

/// A PDF's page tree object and its pages, in order: each page's object number
/// and dictionary text, from the catalog's flat page tree (what is wrong, said).
pub(super) fn page_objects(
    by_number: &BTreeMap<u32, &[u8]>,
    trailer: &str,
) -> Result<(u32, Vec<(u32, String)>), String> {
    let object = |n: u64| {
        u32::try_from(n)
            .ok()
            .and_then(|n| by_number.get(&n).map(|b| (n, b)))
            .map(|(n, b)| (n, String::from_utf8_lossy(dictionary(b)).into_owned()))
            .ok_or_else(|| format!("object {n} is missing"))
    };
    let root = number_after(trailer, "/Root").ok_or("no catalog")?;
    let tree = number_after(&object(root)?.1, "/Pages").ok_or("no page tree")?;
    let (tree, text) = object(tree)?;
    let kids = value_after(&text, "/Kids").ok_or("no /Kids")?;
    let pages = references(kids.as_bytes())
        .into_iter()
        .map(|n| {
            let page = object(u64::from(n))?;
            if !page.1.contains("/Type/Page/") && !page.1.contains("/Type/Page>") {
                return Err(format!("object {n} is not a page (a nested page tree?)"));
            }
            Ok(page)
        })
        .collect::<Result<_, String>>()?;
    Ok((tree, pages))
}

/// A page dictionary's MediaBox, in pt: `[x0, y0, x1, y1]`.
pub(super) fn media_box(page: &str) -> Option<[f64; 4]> {
    let media: Vec<f64> = value_after(page, "/MediaBox")?
        .trim_matches(['[', ']'])
        .split_whitespace()
        // krilla writes f32s: read back, they are the same.
        .filter_map(|v| v.parse::<f32>().ok().map(f64::from))
        .collect();
    media.try_into().ok()
}

/// The pages of a PDF, in order, from its catalog's flat page tree.
fn pages(by_number: &BTreeMap<u32, &[u8]>, trailer: &str) -> Result<Vec<Page>, PdfError> {
    let (_, pages) = page_objects(by_number, trailer).map_err(broken)?;
    pages
        .into_iter()
        .map(|(n, page)| {
            let indirect = |key: &str| {
                number_after(&page, key)
                    .and_then(|r| u32::try_from(r).ok())
                    .ok_or_else(|| {
                        broken(format!("page object {n}: {key} is not one indirect object"))
                    })
            };
            let media =
                media_box(&page).ok_or_else(|| broken(format!("page object {n}: no MediaBox")))?;
            Ok(Page {
                contents: indirect("/Contents")?,
                resources: indirect("/Resources")?,
                media,
                group: value_after(&page, "/Group").map(str::to_string),
            })
        })
        .collect()
}

/// The content stream object `bytes` made a form XObject of `page`.
fn form(bytes: &[u8], page: &Page) -> Result<Vec<u8>, PdfError> {
    let dict = dictionary(bytes);
    let end = super::pdf::rfind(dict, b">>")
        .ok_or_else(|| broken(format!("object {}: no dictionary", page.contents)))?;
    let [x0, y0, x1, y1] = page.media;
    let mut out = Vec::with_capacity(bytes.len() + 96);
    out.extend_from_slice(&bytes[..end]);
    let _ = write!(
        Text(&mut out),
        "/Type/XObject/Subtype/Form/BBox[{} {} {} {}]/Resources {} 0 R{}",
        x0 as f32,
        y0 as f32,
        x1 as f32,
        y1 as f32,
        page.resources,
        page.group
            .as_deref()
            .map(|g| format!("/Group{g}"))
            .unwrap_or_default()
    );
    out.extend_from_slice(&bytes[end..]);
    Ok(out)
}

/// A byte buffer written to with `write!`.
pub(super) struct Text<'a>(pub(super) &'a mut Vec<u8>);

impl std::fmt::Write for Text<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// The numbers of the objects reachable from `start` through references in
/// their dictionaries, without entering the objects `not` (nor keeping them).
pub(super) fn reachable(
    by_number: &BTreeMap<u32, &[u8]>,
    start: &[u32],
    not: &[u32],
) -> BTreeSet<u32> {
    reachable_by(start, not, |n, todo| {
        if let Some(b) = by_number.get(&n) {
            each_reference(dictionary(b), |_, r| todo.push(r));
        }
    })
}

/// [`reachable`], with object `n`'s references pushed onto a list by
/// `references(n, list)` (for [`super::split`], which reads each object once).
pub(super) fn reachable_by(
    start: &[u32],
    not: &[u32],
    mut references: impl FnMut(u32, &mut Vec<u32>),
) -> BTreeSet<u32> {
    let mut seen: BTreeSet<u32> = not.iter().copied().collect();
    let mut todo = start.to_vec();
    while let Some(n) = todo.pop() {
        if !seen.insert(n) {
            continue;
        }
        references(n, &mut todo);
    }
    for n in not {
        seen.remove(n);
    }
    seen
}

fn pt(mm: f64) -> f32 {
    mm_to_pt(mm) as f32
}

/// A colour operator for `rgb` in `press`'s CMYK, or in RGB, as the patched
/// krilla writes them (`vendor/patches/krilla-compact-streams.diff`): each
/// component `v` / 255 as the smallest decimal of at most four places not below
/// it (`0.3334` for 85).
fn stroke_color(rgb: [u8; 3], width: f64, press: Option<&crate::color::Press>) -> String {
    let f = |v: u8| (u32::from(v) * 10_000).div_ceil(255) as f32 / 10_000.0;
    match press {
        Some(press) => {
            let [c, m, y, k] = press.convert(rgb, crate::color::Role::Line { width }).0;
            format!("{} {} {} {} K", f(c), f(m), f(y), f(k))
        }
        None => format!("{} {} {} RG", f(rgb[0]), f(rgb[1]), f(rgb[2])),
    }
}

/// The operators stroking `marks` on a page `height` mm high: every halo, then
/// every line, 0.25 pt, as [`super::pdf`] draws them (a label mark: an error,
/// imposition sets no text).
fn marks(
    out: &mut String,
    marks: &[Mark],
    height: f64,
    press: Option<&crate::color::Press>,
) -> Result<(), PdfError> {
    use crate::layout::Segment;
    let mut stroke = |segments: &[Segment], color: String, width: f64, dash: Option<[f64; 2]>| {
        let _ = write!(
            out,
            "q 1 0 0 -1 0 {} cm {color} {} w",
            pt(height),
            pt(width)
        );
        if let Some([on, off]) = dash {
            let _ = write!(out, "[{} {}]0 d", pt(on), pt(off));
        }
        for s in segments {
            let _ = match *s {
                Segment::Move(x, y) => write!(out, " {} {} m", pt(x), pt(y)),
                Segment::Line(x, y) => write!(out, " {} {} l", pt(x), pt(y)),
                Segment::Cubic(a, b, c, d, e, f) => write!(
                    out,
                    " {} {} {} {} {} {} c",
                    pt(a),
                    pt(b),
                    pt(c),
                    pt(d),
                    pt(e),
                    pt(f)
                ),
                Segment::Close => write!(out, " h"),
            };
        }
        out.push_str("\nS\nQ\n");
    };
    for m in marks {
        if let Some(width) = m.stroke().halo() {
            let white = stroke_color([0xff; 3], width, press);
            stroke(&m.segments(), white, width, None);
        }
    }
    for m in marks {
        if let Mark::Label { .. } = m {
            return Err(broken("a label mark (imposition sets no text)"));
        }
        let s = m.stroke();
        stroke(
            &m.segments(),
            stroke_color(s.rgb(), MARK_WIDTH, press),
            MARK_WIDTH,
            s.dash(),
        );
    }
    Ok(())
}

/// A box of `sheet` (mm, y down) as a PDF rectangle (pt, y up).
fn pdf_box(r: &crate::geom::Rect, height: f64) -> String {
    format!(
        "[{} {} {} {}]",
        pt(r.x),
        pt(height - r.y - r.h),
        pt(r.x + r.w),
        pt(height - r.y)
    )
}

/// The transform placing a source page (`media`, pt) where `pl` says on a page
/// `height` mm high, as the six numbers of a `cm` operator (a turned placement:
/// an error). The page's top edge is put where the placement's is in krilla's
/// own arithmetic (lengths in `f32` points first): a page placed at its size on
/// a page of its height is moved by exactly nothing, so that text lying on a
/// pixel's edge is drawn on the same pixel as in the source.
fn placement_matrix(
    pl: &crate::layout::Placement,
    media: [f64; 4],
    height: f64,
) -> Result<[f32; 6], PdfError> {
    if pl.quarter_turn || pl.rotate180 {
        return Err(broken("a turned page"));
    }
    let [x0, _, x1, y1] = media;
    let s = f64::from(pt(pl.w)) / (x1 - x0);
    let f = |v: f32| f64::from(v);
    let e = f(pt(pl.x)) - x0 * s;
    let top = f(pt(height)) - f(pt(pl.y));
    Ok([s, 0.0, 0.0, s, e, top - y1 * s].map(|v| v as f32))
}

/// Ends the file `out` whose objects start at `offsets` (by number; the numbers
/// missing below the largest are free): its document id (a hash of the bytes so
/// far, so the same file gets the same id), cross-reference table and trailer.
pub(super) fn end(out: &mut Vec<u8>, offsets: &BTreeMap<u32, usize>, catalog: u32, info: u32) {
    let id = {
        use std::hash::Hasher;
        let mut h = siphasher::sip128::SipHasher13::new();
        h.write(out);
        format!(
            "{:032x}",
            siphasher::sip128::Hasher128::finish128(&h).as_u128()
        )
    };
    let xref = out.len();
    let count = offsets.keys().max().map_or(1, |m| m + 1);
    let _ = write!(Text(out), "xref\n0 {count}\n0000000000 65535 f\r\n");
    for k in 1..count {
        match offsets.get(&k) {
            Some(o) => {
                let _ = write!(Text(out), "{o:010} 00000 n\r\n");
            }
            None => out.extend_from_slice(b"0000000000 65535 f\r\n"),
        }
    }
    let _ = write!(
        Text(out),
        "trailer\n<</Size {count}/Root {catalog} 0 R/Info {info} 0 R/ID[<{id}><{id}>]>>\nstartxref\n{xref}\n%%EOF\n"
    );
}

/// `pdf` (as krilla writes it) made a new document whose pages place its pages
/// as `job` says.
pub fn impose(pdf: &[u8], job: &Imposition) -> Result<Vec<u8>, PdfError> {
    let (objs, trailer) = objects(pdf)?;
    if trailer.contains("/Prev") || trailer.contains("/XRefStm") {
        return Err(broken("an incremental update"));
    }
    let by_number: BTreeMap<u32, &[u8]> = objs.iter().map(|o| (o.number, o.bytes)).collect();
    if objs
        .iter()
        .any(|o| find(dictionary(o.bytes), b"/ObjStm", 0).is_some())
    {
        return Err(broken("an object stream"));
    }
    let size = number_after(&trailer, "/Size")
        .and_then(|s| u32::try_from(s).ok())
        .ok_or_else(|| broken("no /Size"))?;
    let pages = pages(&by_number, &trailer)?;
    let mut forms: BTreeMap<u32, &Page> = BTreeMap::new();
    for p in &pages {
        forms.insert(p.contents, p);
    }
    let start: Vec<u32> = pages
        .iter()
        .flat_map(|p| [p.contents, p.resources])
        .collect();
    let kept = reachable(&by_number, &start, &[]);
    let first = objs
        .iter()
        .map(|o| o.bytes.as_ptr() as usize - pdf.as_ptr() as usize)
        .min();
    let mut out = Vec::with_capacity(pdf.len());
    out.extend_from_slice(&pdf[..first.unwrap_or(0)]);
    let mut offsets: BTreeMap<u32, usize> = BTreeMap::new();
    for o in objs.iter().filter(|o| kept.contains(&o.number)) {
        offsets.insert(o.number, out.len());
        match forms.get(&o.number) {
            Some(page) => out.extend_from_slice(&form(o.bytes, page)?),
            None => out.extend_from_slice(o.bytes),
        }
    }
    // The new objects: per sheet its content stream and page, then the page
    // tree, the /Info and the catalog.
    let n = u32::try_from(job.sheets.len()).map_err(|_| broken("too many pages"))?;
    let tree = size + 2 * n;
    let (info, catalog) = (tree + 1, tree + 2);
    let mut add = |out: &mut Vec<u8>, number: u32, dict: &str, stream: Option<&[u8]>| {
        offsets.insert(number, out.len());
        let _ = write!(Text(out), "{number} 0 obj\n{dict}");
        if let Some(s) = stream {
            out.extend_from_slice(b"\nstream\n");
            out.extend_from_slice(s);
            out.extend_from_slice(b"\nendstream");
        }
        out.extend_from_slice(b"\nendobj\n\n");
    };
    for (k, sheet) in (0..).zip(job.sheets) {
        let mut ops = String::new();
        let mut xobjects = String::new();
        for (j, pl) in sheet.placements.iter().enumerate() {
            let page = pages.get(pl.face).ok_or(PdfError::MissingFace(pl.face))?;
            let [a, b, c, d, e, f] = placement_matrix(pl, page.media, sheet.height)?;
            let _ = writeln!(ops, "q {a} {b} {c} {d} {e} {f} cm/P{j} Do\nQ");
            let _ = write!(xobjects, "/P{j} {} 0 R", page.contents);
        }
        marks(&mut ops, &sheet.marks, sheet.height, job.press)?;
        let body = if job.compress {
            deflate(ops.as_bytes())
        } else {
            ops.into_bytes()
        };
        let filter = if job.compress {
            "/Filter/FlateDecode"
        } else {
            ""
        };
        let contents = size + 2 * k;
        add(
            &mut out,
            contents,
            &format!("<</Length {}{filter}>>", body.len()),
            Some(&body),
        );
        let media = crate::geom::Rect {
            x: 0.0,
            y: 0.0,
            w: sheet.width,
            h: sheet.height,
        };
        add(
            &mut out,
            contents + 1,
            &format!(
                "<</Type/Page/Resources<</XObject<<{xobjects}>>>>/MediaBox{}/BleedBox{}/TrimBox{}/Parent {tree} 0 R/Contents {contents} 0 R>>",
                pdf_box(&media, sheet.height),
                pdf_box(&sheet.bleed, sheet.height),
                pdf_box(&sheet.trim, sheet.height),
            ),
            None,
        );
    }
    let kids: String = (0..n)
        .map(|k| format!("{} 0 R ", size + 2 * k + 1))
        .collect();
    add(
        &mut out,
        tree,
        &format!("<</Type/Pages/Count {n}/Kids[{}]>>", kids.trim_end()),
        None,
    );
    let title: String = job
        .title
        .encode_utf16()
        .map(|u| format!("{u:04X}"))
        .collect();
    add(
        &mut out,
        info,
        &format!("<</Title<FEFF{title}>/Creator(cardstock)>>"),
        None,
    );
    add(
        &mut out,
        catalog,
        &format!("<</Type/Catalog/Pages {tree} 0 R>>"),
        None,
    );
    end(&mut out, &offsets, catalog, info);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_not_krillas_output_is_an_error_not_a_panic() {
        let sheets = [crate::layout::Sheet::blank(10.0, 10.0, "x".into())];
        let job = Imposition {
            title: "t",
            sheets: &sheets,
            compress: true,
            press: None,
        };
        for pdf in [
            &b""[..],
            b"%PDF-1.7\n",
            b"%PDF-1.5\n1 0 obj\n<</Type/XRef>>\nstream\n\nendstream\nendobj\nstartxref\n9\n%%EOF",
            b"%PDF-1.7\nxref\n0 1\n0000000000 65535 f\r\ntrailer\n<</Size 1>>\nstartxref\n9\n%%EOF",
        ] {
            assert!(matches!(impose(pdf, &job), Err(PdfError::Writer(_))));
        }
    }

    #[test]
    fn references_are_found_in_dictionaries() {
        assert_eq!(
            references(b"<</XObject<</x0 109 0 R/x1 110 0 R>>/BBox[0 0 396 612]>>"),
            vec![109, 110]
        );
        assert_eq!(
            value_after("<</Group<</S/Transparency>>/Kids[1 0 R]>>", "/Group"),
            Some("<</S/Transparency>>")
        );
    }
}
