//! The PDF writer compresses every stream with one deflate encoder per thread,
//! reset between streams (the krilla patch, `vendor/patches/krilla-deflate.diff`),
//! instead of a new encoder per stream. A reset encoder must give the bytes a new
//! one gives: this reads every compressed stream of a real build (content streams,
//! shared drawings, fonts, images and ICC profiles of every game, large and small,
//! written one after another on the same threads), inflates it, and compresses it
//! again with a new encoder at the patch's level.

use std::io::{Read, Write};

use crate::common::pdf::{Document, Object};
use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use flate2::Compression;

use crate::print::{built, HOME_LETTER};
use crate::print_color::pdfs;

/// The compression level cardstock's krilla patch sets (`krilla::stream::deflate_encode`).
const LEVEL: u32 = 2;

/// `data` compressed by a new encoder, as krilla did before the patch.
fn fresh(data: &[u8]) -> Vec<u8> {
    let mut e = ZlibEncoder::new(Vec::new(), Compression::new(LEVEL));
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

#[test]
fn every_compressed_stream_is_what_a_new_encoder_writes() {
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
                "{}, object {id:?} ({} bytes inflated): not the bytes a new encoder writes",
                file.display(),
                plain.len()
            );
            streams += 1;
            small += usize::from(plain.len() < 1024);
            // Larger than the 32 KiB window: the encoder slides its window.
            large += usize::from(plain.len() > 64 * 1024);
        }
    }
    assert!(streams > 500, "{streams} compressed streams");
    assert!(
        small > 50 && large > 5,
        "{small} small and {large} large streams"
    );
}
