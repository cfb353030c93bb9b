//! One PDF's pages as several files: each file gets a run of the pages, as they
//! are (their content streams still compressed), with every object they reach
//! (fonts, images, form XObjects), numbered anew from 1; a new page tree,
//! catalog, `/Info` (its title) and outline (its bookmarks) of its own. What only
//! the whole document had (its page tree, catalog and `/Info`) is left out.
//!
//! [`super::pdf::write_all_unfinished`] draws every PDF of a game into one krilla document,
//! so that a face printed in several of them (a board in the sheets and at real
//! size, a score pad in the sheets and at pad size) is drawn, and its fonts
//! subset and compressed, once; this module then cuts that document into the
//! files. Each file's font subsets hold the glyphs of all of them.
//!
//! It accepts what krilla writes, as [`super::impose`] does (one classic
//! cross-reference table, no object streams, a flat page tree), and writes such a
//! file again, so [`super::pdf::finish`] and [`super::pdf::ask_to_print`] take it
//! as they take krilla's.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use pdf_writer::{Chunk, Name, Ref, Settings, TextStr};

use super::impose::{self, Text};
use super::pdf::{Bookmark, PdfError};
use super::pdfx::{dictionary, objects};
use crate::units::mm_to_pt;

/// One file cut from the document: its pages, title and bookmarks.
pub struct Part<'a> {
    /// The document's pages it holds (0-based, in order).
    pub pages: std::ops::Range<usize>,
    /// Its `/Info` title.
    pub title: &'a str,
    /// Its outline; a bookmark's `page` counts from the part's first page.
    pub bookmarks: &'a [Bookmark],
}

fn broken(what: impl std::fmt::Display) -> PdfError {
    PdfError::Writer(format!("cannot split the document into files: {what}"))
}

/// One object of the document, read once for all the files that hold it (a
/// font, an image or a shared drawing is in several).
struct Read<'a> {
    /// `N 0 obj`, its dictionary, any stream and `endobj`.
    bytes: &'a [u8],
    /// Where its body (what follows `N 0 obj`, up to any stream) starts and ends
    /// in `bytes`; `None` when it has none.
    body: Option<std::ops::Range<usize>>,
    /// Its references ([`impose::each_reference`]): where each is in the body and
    /// the object it names.
    refs: Vec<(std::ops::Range<usize>, u32)>,
}

impl<'a> Read<'a> {
    fn new(bytes: &'a [u8]) -> Read<'a> {
        let dict = dictionary(bytes);
        let body = dict.iter().position(|&b| b == b'\n').map(|k| k..dict.len());
        let mut refs = Vec::new();
        if let Some(body) = &body {
            impose::each_reference(&bytes[body.clone()], |at, n| refs.push((at, n)));
        }
        Read { bytes, body, refs }
    }
}

/// `pdf` (as krilla writes it) cut into one file per part.
pub fn split(pdf: &[u8], parts: &[Part]) -> Result<Vec<Vec<u8>>, PdfError> {
    let (objs, trailer) = objects(pdf)?;
    if trailer.contains("/Prev") || trailer.contains("/XRefStm") {
        return Err(broken("an incremental update"));
    }
    let by_number: BTreeMap<u32, &[u8]> = objs.iter().map(|o| (o.number, o.bytes)).collect();
    let (tree, kids) = impose::page_objects(&by_number, &trailer).map_err(broken)?;
    let read: BTreeMap<u32, Read> = by_number.iter().map(|(&n, &b)| (n, Read::new(b))).collect();
    let first = objs
        .iter()
        .map(|o| o.bytes.as_ptr() as usize - pdf.as_ptr() as usize)
        .min()
        .unwrap_or(0);
    let header = &pdf[..first];
    parts
        .iter()
        .map(|part| {
            let kids = kids
                .get(part.pages.clone())
                .ok_or_else(|| broken(format!("no pages {:?}", part.pages)))?;
            let pages: Vec<u32> = kids.iter().map(|(n, _)| *n).collect();
            // Each page's height in pt, for its bookmarks.
            let heights = kids
                .iter()
                .map(|(n, page)| {
                    let [_, y0, _, y1] = impose::media_box(page)
                        .ok_or_else(|| broken(format!("page object {n}: no MediaBox")))?;
                    Ok((y1 - y0) as f32)
                })
                .collect::<Result<Vec<f32>, PdfError>>()?;
            // Not up to the page tree (every page's `/Parent`).
            let kept = impose::reachable_by(&pages, &[tree], |n, todo| {
                if let Some(r) = read.get(&n) {
                    todo.extend(r.refs.iter().map(|(_, n)| *n));
                }
            });
            file(header, &read, &kept, tree, &pages, &heights, part)
        })
        .collect()
}

/// One part's file: `kept` objects renumbered from 1 in their order, then its page
/// tree, outline, `/Info` and catalog.
fn file(
    header: &[u8],
    read: &BTreeMap<u32, Read>,
    kept: &BTreeSet<u32>,
    tree: u32,
    pages: &[u32],
    heights: &[f32],
    part: &Part,
) -> Result<Vec<u8>, PdfError> {
    let mut new: BTreeMap<u32, u32> = kept.iter().zip(1..).map(|(&old, n)| (old, n)).collect();
    let next = u32::try_from(new.len() + 1).map_err(|_| broken("too many objects"))?;
    new.insert(tree, next);
    // Renumbered objects are no longer (new numbers are not above old ones); the
    // page tree, outline, `/Info`, catalog and cross-reference table come after.
    let size: usize = kept
        .iter()
        .filter_map(|n| read.get(n))
        .map(|r| r.bytes.len())
        .sum();
    let end = 1024 + 24 * kept.len() + 256 * part.bookmarks.len();
    let mut out = Vec::with_capacity(header.len() + size + end);
    out.extend_from_slice(header);
    let mut offsets: BTreeMap<u32, usize> = BTreeMap::new();
    for (&old, &n) in new.iter().filter(|(old, _)| kept.contains(old)) {
        let r = &read[&old];
        let body = r
            .body
            .clone()
            .ok_or_else(|| broken(format!("object {old} has no body")))?;
        offsets.insert(n, out.len());
        let _ = write!(Text(&mut out), "{n} 0 obj");
        renumber(&r.bytes[body.clone()], &r.refs, &new, &mut out)
            .map_err(|e| broken(format!("object {old}: {e}")))?;
        out.extend_from_slice(&r.bytes[body.end..]);
    }
    let page_refs: Vec<Ref> = pages.iter().map(|p| Ref::new(new[p] as i32)).collect();
    let mut next = Ref::new(next as i32);
    let tree = next.bump();
    let mut objects: Vec<(Ref, Chunk)> = Vec::new();
    let mut one = |id: Ref, write: &mut dyn FnMut(&mut Chunk)| {
        // Compact, as krilla writes its objects.
        let mut chunk = Chunk::with_settings(Settings { pretty: false });
        write(&mut chunk);
        objects.push((id, chunk));
    };
    one(tree, &mut |c| {
        c.pages(tree)
            .kids(page_refs.iter().copied())
            .count(pages.len() as i32);
    });
    let outline = (!part.bookmarks.is_empty()).then(|| {
        let root = next.bump();
        let w = Outline {
            bookmarks: part.bookmarks,
            pages: &page_refs,
            heights,
        };
        w.write(root, &mut next, &mut one);
        root
    });
    let info = next.bump();
    one(info, &mut |c| {
        let mut d = c.indirect(info).dict();
        d.pair(Name(b"Title"), TextStr(part.title));
        d.pair(Name(b"Creator"), TextStr("cardstock"));
    });
    let catalog = next.bump();
    one(catalog, &mut |c| {
        let mut cat = c.indirect(catalog).dict();
        cat.pair(Name(b"Type"), Name(b"Catalog"));
        cat.pair(Name(b"Pages"), tree);
        if let Some(o) = outline {
            cat.pair(Name(b"Outlines"), o);
        }
    });
    objects.sort_by_key(|(id, _)| id.get());
    for (id, chunk) in objects {
        offsets.insert(id.get() as u32, out.len());
        out.extend_from_slice(chunk.as_bytes());
    }
    impose::end(&mut out, &offsets, catalog.get() as u32, info.get() as u32);
    Ok(out)
}

/// `body` (an object's text after `N 0 obj`, before any stream) with each of its
/// references `refs` (where [`impose::each_reference`] found them, `k 0 R`) made
/// `new[k] 0 R`, appended to `out`.
fn renumber(
    body: &[u8],
    refs: &[(std::ops::Range<usize>, u32)],
    new: &BTreeMap<u32, u32>,
    out: &mut Vec<u8>,
) -> Result<(), String> {
    let mut copied = 0;
    for (at, old) in refs {
        let n = new
            .get(old)
            .ok_or_else(|| format!("a reference to object {old}, not kept"))?;
        out.extend_from_slice(&body[copied..at.start]);
        copied = at.end;
        let _ = write!(Text(out), "{n} 0 R");
    }
    out.extend_from_slice(&body[copied..]);
    Ok(())
}

/// A file's outline: its bookmarks, nested by depth and closed, as krilla writes
/// one, each opening its page at its height.
struct Outline<'a> {
    bookmarks: &'a [Bookmark],
    /// The file's pages and their heights in pt.
    pages: &'a [Ref],
    heights: &'a [f32],
}

/// The bookmarks from `at` on of depth `depth` or more, each with its children.
struct Item {
    at: usize,
    children: Vec<Item>,
}

fn items(bookmarks: &[Bookmark], at: &mut usize, depth: usize) -> Vec<Item> {
    let mut out = Vec::new();
    while let Some(b) = bookmarks.get(*at) {
        if b.depth < depth {
            break;
        }
        let me = *at;
        *at += 1;
        let children = items(bookmarks, at, b.depth + 1);
        out.push(Item { at: me, children });
    }
    out
}

/// Where [`Outline::write`] puts each object: its number and a chunk holding it.
type Emit<'e> = dyn FnMut(Ref, &mut dyn FnMut(&mut Chunk)) + 'e;

impl Outline<'_> {
    /// Writes the outline dictionary `root` and its items, numbered from `next`.
    fn write(&self, root: Ref, next: &mut Ref, emit: &mut Emit) {
        let top = items(self.bookmarks, &mut 0, 0);
        let ends = self.list(&top, root, next, emit);
        emit(root, &mut |c| {
            let mut o = c.outline(root);
            if let Some((first, last)) = ends {
                o.first(first);
                o.last(last);
                o.count(top.len() as i32);
            }
        });
    }

    /// Writes the items of `list` under `parent`; their first and last.
    fn list(
        &self,
        list: &[Item],
        parent: Ref,
        next: &mut Ref,
        emit: &mut Emit,
    ) -> Option<(Ref, Ref)> {
        let refs: Vec<Ref> = list.iter().map(|_| next.bump()).collect();
        for (k, item) in list.iter().enumerate() {
            let kids = self.list(&item.children, refs[k], next, emit);
            let b = &self.bookmarks[item.at];
            let page = b.page.min(self.pages.len().saturating_sub(1));
            let dest = self.pages.get(page).zip(self.heights.get(page));
            emit(refs[k], &mut |c| {
                let mut entry = c.outline_item(refs[k]);
                entry.parent(parent);
                if let Some(&n) = refs.get(k + 1) {
                    entry.next(n);
                }
                if k > 0 {
                    entry.prev(refs[k - 1]);
                }
                if let Some((first, last)) = kids {
                    entry.first(first);
                    entry.last(last);
                    entry.count(-(item.children.len() as i32));
                }
                entry.title(TextStr(&b.title));
                if let Some((&p, &h)) = dest {
                    entry
                        .dest()
                        .page(p)
                        .xyz(0.0, h - mm_to_pt(b.y) as f32, None);
                }
            });
        }
        Some((*refs.first()?, *refs.last()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn renumbered(body: &str, map: &[(u32, u32)]) -> Result<String, String> {
        let new: BTreeMap<u32, u32> = map.iter().copied().collect();
        let mut refs = Vec::new();
        impose::each_reference(body.as_bytes(), |at, n| refs.push((at, n)));
        let mut out = Vec::new();
        renumber(body.as_bytes(), &refs, &new, &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn references_are_renumbered_and_strings_kept() {
        let map = [(1, 7), (12, 3), (100, 45)];
        assert_eq!(
            renumbered("<</Type/Page/Parent 1 0 R/Contents 100 0 R>>", &map).unwrap(),
            "<</Type/Page/Parent 7 0 R/Contents 45 0 R>>"
        );
        // Inside dictionaries of dictionaries, arrays, after names and brackets.
        assert_eq!(
            renumbered("<</R<</g0 12 0 R/g1 1 0 R>>/K[1 0 R 12 0 R]>>", &map).unwrap(),
            "<</R<</g0 3 0 R/g1 7 0 R>>/K[7 0 R 3 0 R]>>"
        );
        // Strings, literal (with escapes and nested parentheses) and hex, are text.
        assert_eq!(
            renumbered(
                "<</T(see 12 0 R \\) (1 0 R))/H<31 20 30 20 52>/X 1 0 R>>",
                &map
            )
            .unwrap(),
            "<</T(see 12 0 R \\) (1 0 R))/H<31 20 30 20 52>/X 7 0 R>>"
        );
        // Numbers that are not references stay; so does a number ending a word.
        assert_eq!(
            renumbered("<</W[1 0 12 0]/N 12/A 112 0 R>>", &[(112, 2)]).unwrap(),
            "<</W[1 0 12 0]/N 12/A 2 0 R>>"
        );
        let missing = renumbered("<</P 5 0 R>>", &map).unwrap_err();
        assert_eq!(missing, "a reference to object 5, not kept");
    }

    #[test]
    fn an_object_is_read_once_and_renumbered_for_each_file() {
        // A stream's bytes are not the object's text: `2 0 R` there stays.
        let bytes = b"5 0 obj\n<</Length 5/F 2 0 R/G[3 0 R]>>\nstream\n2 0 R\nendstream\nendobj\n";
        let r = Read::new(bytes);
        let body = r.body.clone().unwrap();
        assert_eq!(&bytes[body.clone()], b"\n<</Length 5/F 2 0 R/G[3 0 R]>>\n");
        let refs: Vec<u32> = r.refs.iter().map(|(_, n)| *n).collect();
        assert_eq!(refs, [2, 3]);
        // The same reading, numbered anew for two files.
        for (map, want) in [
            ([(2, 1), (3, 2)], "<</Length 5/F 1 0 R/G[2 0 R]>>"),
            ([(2, 10), (3, 7)], "<</Length 5/F 10 0 R/G[7 0 R]>>"),
        ] {
            let new: BTreeMap<u32, u32> = map.into_iter().collect();
            let mut out = Vec::new();
            renumber(&bytes[body.clone()], &r.refs, &new, &mut out).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), format!("\n{want}\n"));
        }
        // No line after `N 0 obj`: no body to renumber.
        assert!(Read::new(b"7 0 obj").body.is_none());
    }
}
