//! PDF/X: what a print shop's PDF needs beyond what krilla writes. krilla has no
//! PDF/X setting (its `validation` covers PDF/A and PDF/UA), so the finished file
//! is rewritten object by object: the header's PDF version, an output intent
//! (`/GTS_PDFX`, the printing condition's identifier and its ICC profile), the
//! `/Info` keys (`GTS_PDFXVersion`, `Trapped`, dates), XMP metadata saying the
//! same, and `/DeviceCMYK` as the blending space of transparency groups (krilla
//! always writes RGB there; only PDF/X-4 has them). Every other object is copied
//! byte for byte, and the cross-reference table is written anew.

use std::collections::BTreeMap;

use pdf_writer::Finish as _;
use pdf_writer::{Chunk, Name, Ref, TextStr};

use super::pdf::{PdfError, Printing};
use crate::color::{Condition, Pdfx};

/// The dates PDF/X requires (`/CreationDate`, `/ModDate`): fixed, so that the
/// same input gives the same bytes.
pub const DATE: (u16, u8, u8) = (2000, 1, 1);

/// A PDF/X output intent: the standard, the printing condition and its ICC
/// profile compressed, made once for every file of a build ([`Intent::new`]).
#[derive(Debug, Clone)]
pub struct Intent {
    pub standard: Pdfx,
    pub condition: &'static Condition,
    /// The condition's ICC profile, deflated (the stream every file embeds).
    profile: Vec<u8>,
}

impl Intent {
    /// The output intent of `standard` for `condition` (compresses the ICC profile:
    /// a few milliseconds, once).
    pub fn new(standard: Pdfx, condition: &'static Condition) -> Intent {
        Intent {
            standard,
            condition,
            profile: deflate(condition.icc),
        }
    }
}

/// What [`finish`] makes of a PDF.
#[derive(Debug, Clone, Copy)]
pub struct Finish<'a> {
    pub intent: &'a Intent,
    pub title: &'a str,
    /// The viewer preferences to ask for, if any.
    pub printing: Option<Printing>,
}

/// One indirect object of the file: its number and bytes (`N 0 obj ... endobj`).
pub(super) struct Object<'p> {
    pub(super) number: u32,
    pub(super) bytes: &'p [u8],
}

fn broken(what: &str) -> PdfError {
    PdfError::Writer(format!("cannot make the PDF/X file: {what}"))
}

/// The objects of a PDF krilla wrote (a classic cross-reference table, one
/// section), in file order, and its trailer dictionary.
pub(super) fn objects(pdf: &[u8]) -> Result<(Vec<Object<'_>>, String), PdfError> {
    let text = |r: std::ops::Range<usize>| String::from_utf8_lossy(&pdf[r]).into_owned();
    let sx = rfind(pdf, b"startxref").ok_or_else(|| broken("no startxref"))?;
    let xref: usize = text(sx + 9..pdf.len())
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| broken("no cross-reference offset"))?;
    let t = rfind(pdf, b"trailer").ok_or_else(|| broken("no trailer"))?;
    if xref >= t || !pdf[xref..].starts_with(b"xref") {
        return Err(broken("the cross-reference table is not where it says"));
    }
    let table = text(xref + 4..t);
    let mut words = table.split_whitespace();
    let first: u32 = words
        .next()
        .and_then(|w| w.parse().ok())
        .ok_or_else(|| broken("xref"))?;
    let _count = words.next();
    let mut offsets = Vec::new();
    let mut number = first;
    while let (Some(off), Some(_gen), Some(kind)) = (words.next(), words.next(), words.next()) {
        if kind == "n" {
            let off: usize = off.parse().map_err(|_| broken("xref entry"))?;
            offsets.push((off, number));
        }
        number += 1;
    }
    offsets.sort();
    let mut objs = Vec::with_capacity(offsets.len());
    for (k, &(start, number)) in offsets.iter().enumerate() {
        let end = offsets.get(k + 1).map_or(xref, |n| n.0);
        if start >= end || end > pdf.len() {
            return Err(broken("overlapping objects"));
        }
        objs.push(Object {
            number,
            bytes: &pdf[start..end],
        });
    }
    Ok((objs, text(t + 7..sx).trim().to_string()))
}

fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The number after `key` in a dictionary's text (`/Root 15 0 R` → 15).
fn number_after(dict: &str, key: &str) -> Option<u32> {
    let rest = &dict[dict.find(key)? + key.len()..];
    let digits: String = rest
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// The dictionary part of an object's bytes (before `stream`, if it has one).
pub(super) fn dictionary(bytes: &[u8]) -> &[u8] {
    match find(bytes, b"stream\n").or_else(|| find(bytes, b"stream\r\n")) {
        Some(s) => &bytes[..s],
        None => bytes,
    }
}

/// `obj` with `/CS/DeviceRGB` (a transparency group's blending space, krilla's
/// only use of it in a CMYK file) as `/CS/DeviceCMYK`, in its dictionary only.
fn cmyk_groups(bytes: &[u8]) -> Option<Vec<u8>> {
    let dict = dictionary(bytes);
    find(dict, b"/Group")?;
    let at = find(dict, b"/CS/DeviceRGB")?;
    let mut out = Vec::with_capacity(bytes.len() + 1);
    out.extend_from_slice(&bytes[..at]);
    out.extend_from_slice(b"/CS/DeviceCMYK");
    out.extend_from_slice(&bytes[at + b"/CS/DeviceRGB".len()..]);
    Some(out)
}

fn pdf_date() -> pdf_writer::Date {
    let (y, m, d) = DATE;
    pdf_writer::Date::new(y)
        .month(m)
        .day(d)
        .hour(0)
        .minute(0)
        .second(0)
        .utc_offset_hour(0)
        .utc_offset_minute(0)
}

/// The XMP packet PDF/X-4 requires (and PDF/X-1a accepts): title, tool, dates,
/// `GTS_PDFXVersion`, `Trapped`, document and version ids.
fn xmp(f: &Finish, id: &str) -> String {
    let (y, m, d) = DATE;
    let date = xmp_writer::DateTime::new(y, m, d, 0, 0, 0, xmp_writer::Timezone::Utc);
    let mut w = xmp_writer::XmpWriter::new();
    w.title([(None, f.title)]);
    w.creator_tool("cardstock");
    w.producer("cardstock (krilla)");
    w.create_date(date);
    w.modify_date(date);
    w.metadata_date(date);
    w.format("application/pdf");
    w.pdfx_version(f.intent.standard.version());
    w.trapped(false);
    w.document_id(&format!("uuid:{id}"));
    w.instance_id(&format!("uuid:{id}"));
    w.version_id("1");
    w.rendition_class(xmp_writer::RenditionClass::Default);
    w.finish(None)
}

/// A stable id for the document (from krilla's `/ID`, which hashes the content),
/// shaped as a UUID for XMP.
fn document_uuid(trailer: &str) -> String {
    use std::hash::Hasher;
    let mut h = siphasher::sip128::SipHasher13::new();
    h.write(trailer.as_bytes());
    let v = siphasher::sip128::Hasher128::finish128(&h).as_u128();
    let s = format!("{v:032x}");
    format!(
        "{}-{}-{}-{}-{}",
        &s[..8],
        &s[8..12],
        &s[12..16],
        &s[16..20],
        &s[20..]
    )
}

/// The libdeflate level of every stream cardstock writes itself (the booklet's
/// page contents, the PDF/X output intent's profile): the level the krilla patch
/// gives the streams krilla writes (`vendor/patches/krilla-deflate.diff`), so a
/// file is compressed one way throughout.
const DEFLATE_LEVEL: i32 = 1;

/// `data` as a zlib stream, as libdeflate writes it at [`DEFLATE_LEVEL`].
pub(super) fn deflate(data: &[u8]) -> Vec<u8> {
    let Ok(level) = libdeflater::CompressionLvl::new(DEFLATE_LEVEL) else {
        return Vec::new();
    };
    let mut compressor = libdeflater::Compressor::new(level);
    let mut out = vec![0; compressor.zlib_compress_bound(data.len())];
    // The bound is enough for any input (libdeflate's promise).
    let n = compressor.zlib_compress(data, &mut out).unwrap_or(0);
    out.truncate(n);
    out
}

/// The new objects: the output intent with its ICC profile, the XMP metadata and
/// the `/Info` dictionary (numbered from `next`).
fn new_objects(f: &Finish, next: u32, id: &str) -> (Chunk, [Ref; 4]) {
    let [intent, icc, meta, info] = [0, 1, 2, 3].map(|k| Ref::new((next + k) as i32));
    let mut chunk = Chunk::new();
    {
        let mut oi = chunk.indirect(intent).dict();
        oi.pair(Name(b"Type"), Name(b"OutputIntent"));
        oi.pair(Name(b"S"), Name(b"GTS_PDFX"));
        oi.pair(
            Name(b"OutputConditionIdentifier"),
            TextStr(f.intent.condition.identifier),
        );
        oi.pair(Name(b"OutputCondition"), TextStr(f.intent.condition.info));
        oi.pair(Name(b"RegistryName"), TextStr("http://www.color.org"));
        oi.pair(Name(b"Info"), TextStr(f.intent.condition.info));
        oi.pair(Name(b"DestOutputProfile"), icc);
        oi.finish();
    }
    // Written in the order of their numbers ([`finish`] finds them so).
    chunk
        .stream(icc, &f.intent.profile)
        .filter(pdf_writer::Filter::FlateDecode)
        .pair(Name(b"N"), 4)
        .pair(Name(b"Alternate"), Name(b"DeviceCMYK"));
    let packet = xmp(f, id);
    chunk
        .stream(meta, packet.as_bytes())
        .pair(Name(b"Type"), Name(b"Metadata"))
        .pair(Name(b"Subtype"), Name(b"XML"));
    {
        let mut d = chunk.indirect(info).dict();
        d.pair(Name(b"Title"), TextStr(f.title));
        d.pair(Name(b"Creator"), TextStr("cardstock"));
        d.pair(Name(b"Producer"), TextStr("cardstock (krilla)"));
        d.pair(Name(b"CreationDate"), pdf_date());
        d.pair(Name(b"ModDate"), pdf_date());
        d.pair(
            Name(b"GTS_PDFXVersion"),
            TextStr(f.intent.standard.version()),
        );
        d.pair(Name(b"Trapped"), Name(b"False"));
        d.finish();
    }
    (chunk, [intent, icc, meta, info])
}

/// `pdf` (as krilla wrote it) made a PDF/X file as `f` says.
pub fn finish(pdf: &[u8], f: &Finish) -> Result<Vec<u8>, PdfError> {
    let (objs, trailer) = objects(pdf)?;
    let root = number_after(&trailer, "/Root").ok_or_else(|| broken("no catalog"))?;
    let info = number_after(&trailer, "/Info").ok_or_else(|| broken("no /Info"))?;
    let size = number_after(&trailer, "/Size").ok_or_else(|| broken("no /Size"))?;
    let id = trailer
        .find("/ID")
        .map(|i| trailer[i..].trim_end_matches(">>").to_string())
        .unwrap_or_default();
    let (chunk, [intent, _, meta, new_info]) = new_objects(f, size, &document_uuid(&trailer));
    let version = match f.intent.standard {
        Pdfx::X1a2003 => "1.4",
        Pdfx::X4 => "1.6",
    };
    let mut out = Vec::with_capacity(pdf.len() + f.intent.condition.icc.len());
    out.extend_from_slice(format!("%PDF-{version}\n").as_bytes());
    out.extend_from_slice(b"%\x80\x80\x80\x80\n\n");
    let mut offsets: BTreeMap<u32, usize> = BTreeMap::new();
    for o in &objs {
        if o.number == info {
            continue; // replaced by the new one
        }
        offsets.insert(o.number, out.len());
        if o.number == root {
            out.extend_from_slice(&catalog(o.bytes, intent, meta, f.printing)?);
        } else if let Some(b) = cmyk_groups(o.bytes) {
            out.extend_from_slice(&b);
        } else {
            out.extend_from_slice(o.bytes);
        }
    }
    let added = chunk.as_bytes();
    let mut k = 0;
    for n in size..size + 4 {
        let head = format!("{n} 0 obj");
        let at = find(&added[k..], head.as_bytes()).ok_or_else(|| broken("new object"))? + k;
        offsets.insert(n, out.len() + at);
        k = at + head.len();
    }
    out.extend_from_slice(added);
    let xref = out.len();
    let count = size + 4;
    out.extend_from_slice(format!("xref\n0 {count}\n0000000000 65535 f\r\n").as_bytes());
    for n in 1..count {
        match offsets.get(&n) {
            Some(o) => out.extend_from_slice(format!("{o:010} 00000 n\r\n").as_bytes()),
            None => out.extend_from_slice(b"0000000000 65535 f\r\n"),
        }
    }
    let info_ref = new_info.get();
    out.extend_from_slice(
        format!(
            "trailer\n<</Size {count}/Root {root} 0 R/Info {info_ref} 0 R{id}>>\nstartxref\n{xref}\n%%EOF\n"
        )
        .as_bytes(),
    );
    Ok(out)
}

/// The catalog object with the output intent, the metadata and the viewer
/// preferences added.
fn catalog(
    bytes: &[u8],
    intent: Ref,
    meta: Ref,
    printing: Option<Printing>,
) -> Result<Vec<u8>, PdfError> {
    let end = rfind(bytes, b">>").ok_or_else(|| broken("catalog"))?;
    let dict = String::from_utf8_lossy(&bytes[..end]);
    if dict.contains("/OutputIntents") || dict.contains("/Metadata") {
        return Err(broken("the catalog has an output intent already"));
    }
    let mut out = bytes[..end].to_vec();
    out.extend_from_slice(
        format!(
            "/OutputIntents[{} 0 R]/Metadata {} 0 R",
            intent.get(),
            meta.get()
        )
        .as_bytes(),
    );
    if let Some(p) = printing {
        out.extend_from_slice(format!("/ViewerPreferences{}", p.dictionary()).as_bytes());
    }
    out.extend_from_slice(&bytes[end..]);
    Ok(out)
}
