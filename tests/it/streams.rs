//! The PDF writer compresses every stream with libdeflate at level 1 (the krilla
//! patch, `vendor/patches/krilla-deflate.diff`, and cardstock's own streams in
//! `export::pdfx`), with one compressor and one output buffer per thread, kept
//! between streams. Each stream must be the bytes a new compressor writes, at its
//! exact length: this reads every compressed stream of a real build (content
//! streams, shared drawings, fonts, images and ICC profiles of every game, large
//! and small, written one after another on the same threads), inflates it, and
//! compresses it again with a new compressor at that level.

use std::io::Read;

use crate::common::pdf::{Document, Object};
use flate2::read::ZlibDecoder;

use crate::print::{built, HOME_LETTER};
use crate::print_color::pdfs;

/// The libdeflate level of every stream (`krilla::stream::deflate_encode`,
/// `cardstock::export::pdfx`).
const LEVEL: i32 = 1;

/// `data` compressed by a new libdeflate compressor.
fn fresh(data: &[u8]) -> Vec<u8> {
    let mut c = libdeflater::Compressor::new(libdeflater::CompressionLvl::new(LEVEL).unwrap());
    let mut out = vec![0; c.zlib_compress_bound(data.len())];
    let n = c.zlib_compress(data, &mut out).unwrap();
    out.truncate(n);
    out
}

#[test]
fn every_compressed_stream_is_what_a_new_compressor_writes() {
    let out = built(&HOME_LETTER, "home", "letter");
    let files = pdfs(out);
    assert!(files.len() >= 20, "{} PDFs", files.len());
    let (mut streams, mut small, mut large) = (0, 0, 0);
    for file in &files {
        let doc = Document::load(file).unwrap();
        for (id, obj) in &doc.objects {
            let Object::Stream(s) = obj else { continue };
            let flate = matches!(s.dict.get(b"Filter"), Ok(Object::Name(n)) if n == b"FlateDecode");
            if !flate {
                continue;
            }
            let mut plain = Vec::new();
            ZlibDecoder::new(&s.content[..])
                .read_to_end(&mut plain)
                .unwrap_or_else(|e| panic!("{}, object {id:?}: {e}", file.display()));
            assert!(
                s.content == fresh(&plain),
                "{}, object {id:?} ({} bytes inflated): not the bytes a new compressor writes",
                file.display(),
                plain.len()
            );
            streams += 1;
            small += usize::from(plain.len() < 1024);
            // Larger than the 32 KiB window: matches reach back across it.
            large += usize::from(plain.len() > 64 * 1024);
        }
    }
    assert!(streams > 500, "{streams} compressed streams");
    assert!(
        small > 50 && large > 5,
        "{small} small and {large} large streams"
    );
}

/// A stream past the megabyte a thread keeps a buffer for is compressed in a
/// buffer of its own: pages of about 2 MB, 300 bytes and 1.2 MB of content, drawn
/// one after another into one document, are each what a new compressor writes.
#[test]
fn a_stream_past_the_kept_buffer_is_compressed_like_the_others() {
    use krilla::geom::{PathBuilder, Rect};
    use krilla::page::PageSettings;
    use krilla::paint::Fill;

    let page_of = |doc: &mut krilla::Document, squares: u32| {
        let mut page = doc.start_page_with(PageSettings::from_wh(600.0, 600.0).unwrap());
        let mut surface = page.surface();
        surface.set_fill(Some(Fill::default()));
        for i in 0..squares {
            let mut p = PathBuilder::new();
            let (x, y) = ((i % 587) as f32 + 0.25, (i / 587 % 587) as f32 + 0.5);
            p.push_rect(Rect::from_xywh(x, y, 0.75, 0.5).unwrap());
            surface.draw_path(&p.finish().unwrap());
        }
        surface.finish();
        page.finish();
    };
    let mut doc = krilla::Document::new();
    for squares in [60_000, 10, 36_000] {
        page_of(&mut doc, squares);
    }
    let bytes = doc.finish().unwrap();
    let doc = Document::load_mem(&bytes).unwrap();
    let mut sizes = Vec::new();
    for &page in doc.get_pages().values() {
        let Ok(Object::Dictionary(d)) = doc.get_object(page) else {
            panic!("page {page:?}")
        };
        let Ok(Object::Reference(id)) = d.get(b"Contents") else {
            panic!("page {page:?} has no content reference")
        };
        let Ok(Object::Stream(s)) = doc.get_object(*id) else {
            panic!("content {id:?}")
        };
        let mut plain = Vec::new();
        ZlibDecoder::new(&s.content[..])
            .read_to_end(&mut plain)
            .unwrap();
        assert!(s.content == fresh(&plain), "{} bytes inflated", plain.len());
        sizes.push(plain.len());
    }
    assert!(
        sizes.len() == 3 && sizes[0] > 1 << 21 && sizes[1] < 1024 && sizes[2] > 1 << 20,
        "content sizes {sizes:?}"
    );
}
