//! The tests' PDF reader: a written PDF's objects, pages, content operators and
//! outline, read with hayro-syntax and held as owned values (a reference stays a
//! reference, as in the file), so that a test walks them as it likes.
//!
//! hayro-syntax parses (the cross-reference table, objects, filters, content
//! streams); this module only copies what it parsed into plain enums and looks up
//! what a test asks for (a page's id, its resources, the outline's entries).
//! It compiles in a fraction of the CPU of lopdf, the reader the tests used
//! before (docs/performance.md, "Compiling and testing", twelfth session).

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

use hayro_syntax::content::UntypedIter;
use hayro_syntax::object::{self as h, FromBytes, MaybeRef, ObjectIdentifier};
use hayro_syntax::Pdf;

/// An object's number and generation.
pub type ObjectId = (u32, u16);

/// What a lookup did not find, or a file that does not parse.
#[derive(Clone, PartialEq)]
pub struct Error(String);

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// A lookup's result.
pub type Result<T> = std::result::Result<T, Error>;

fn err<T>(what: impl Into<String>) -> Result<T> {
    Err(Error(what.into()))
}

/// A PDF object, owned.
#[derive(Debug, Clone, PartialEq)]
pub enum Object {
    Null,
    Boolean(bool),
    Integer(i64),
    Real(f32),
    Name(Vec<u8>),
    String(Vec<u8>),
    Array(Vec<Object>),
    Dictionary(Dictionary),
    Stream(Stream),
    Reference(ObjectId),
}

impl Object {
    pub fn as_i64(&self) -> Result<i64> {
        match self {
            Object::Integer(i) => Ok(*i),
            o => err(format!("not an integer: {o:?}")),
        }
    }

    /// An integer or a real number.
    pub fn as_float(&self) -> Result<f32> {
        match self {
            Object::Integer(i) => Ok(*i as f32),
            Object::Real(r) => Ok(*r),
            o => err(format!("not a number: {o:?}")),
        }
    }

    pub fn as_name(&self) -> Result<&[u8]> {
        match self {
            Object::Name(n) => Ok(n),
            o => err(format!("not a name: {o:?}")),
        }
    }

    /// A string's bytes.
    pub fn as_str(&self) -> Result<&[u8]> {
        match self {
            Object::String(s) => Ok(s),
            o => err(format!("not a string: {o:?}")),
        }
    }

    pub fn as_array(&self) -> Result<&Vec<Object>> {
        match self {
            Object::Array(a) => Ok(a),
            o => err(format!("not an array: {o:?}")),
        }
    }

    pub fn as_dict(&self) -> Result<&Dictionary> {
        match self {
            Object::Dictionary(d) => Ok(d),
            o => err(format!("not a dictionary: {o:?}")),
        }
    }

    pub fn as_stream(&self) -> Result<&Stream> {
        match self {
            Object::Stream(s) => Ok(s),
            o => err(format!("not a stream: {o:?}")),
        }
    }

    pub fn as_reference(&self) -> Result<ObjectId> {
        match self {
            Object::Reference(r) => Ok(*r),
            o => err(format!("not a reference: {o:?}")),
        }
    }

    /// `pdf`: the file a stream is read from again to decode it (none for a
    /// content stream's operands, which hold no streams).
    fn from_hayro(o: h::Object<'_>, pdf: Option<&Arc<Pdf>>) -> Object {
        match o {
            h::Object::Null(_) => Object::Null,
            h::Object::Boolean(b) => Object::Boolean(b),
            h::Object::Number(n) => number(n),
            h::Object::String(s) => Object::String(s.as_bytes().to_vec()),
            h::Object::Name(n) => Object::Name(n.as_ref().to_vec()),
            h::Object::Dict(d) => Object::Dictionary(Dictionary::from_hayro(&d, pdf)),
            h::Object::Array(a) => {
                Object::Array(a.raw_iter().map(|o| Object::maybe(o, pdf)).collect())
            }
            h::Object::Stream(s) => Object::Stream(Stream {
                dict: Dictionary::from_hayro(s.dict(), pdf),
                content: s.raw_data().into_owned(),
                source: pdf.map(|pdf| (pdf.clone(), s.obj_id())),
            }),
        }
    }

    fn maybe(o: MaybeRef<h::Object<'_>>, pdf: Option<&Arc<Pdf>>) -> Object {
        match o {
            MaybeRef::Ref(r) => Object::Reference(id_of(r.into())),
            MaybeRef::NotRef(o) => Object::from_hayro(o, pdf),
        }
    }
}

/// hayro-syntax keeps whether a number was written as an integer, and shows it
/// only in how the number prints (`1` against `1.0`).
fn number(n: h::Number) -> Object {
    match n.to_string().parse::<i64>() {
        Ok(i) => Object::Integer(i),
        Err(_) => Object::Real(n.as_f32()),
    }
}

fn id_of(id: ObjectIdentifier) -> ObjectId {
    (id.obj_number, id.gen_number as u16)
}

/// A dictionary, its keys in byte order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Dictionary(Vec<(Vec<u8>, Object)>);

impl Dictionary {
    pub fn get(&self, key: &[u8]) -> Result<&Object> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
            .ok_or_else(|| Error(format!("no /{}", String::from_utf8_lossy(key))))
    }

    pub fn has(&self, key: &[u8]) -> bool {
        self.get(key).is_ok()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&Vec<u8>, &Object)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    fn from_hayro(d: &h::Dict<'_>, pdf: Option<&Arc<Pdf>>) -> Dictionary {
        Dictionary(
            d.entries()
                .map(|(k, v)| (k.as_ref().to_vec(), Object::maybe(v, pdf)))
                .collect(),
        )
    }
}

/// A stream: its dictionary and its bytes as written (filtered).
#[derive(Clone)]
pub struct Stream {
    pub dict: Dictionary,
    pub content: Vec<u8>,
    /// Where it was read from, to decode it on demand.
    source: Option<(Arc<Pdf>, ObjectIdentifier)>,
}

impl Stream {
    /// The stream's bytes with its filters undone (hayro-syntax's decoders).
    pub fn decompressed_content(&self) -> Result<Vec<u8>> {
        let Some((pdf, id)) = &self.source else {
            return err("a stream with no file");
        };
        let stream = pdf
            .xref()
            .get::<h::Stream<'_>>(*id)
            .ok_or_else(|| Error(format!("no stream {id:?}")))?;
        stream
            .decoded()
            .map(|d| d.into_owned())
            .map_err(|e| Error(format!("stream {id:?} does not decode: {e:?}")))
    }
}

impl fmt::Debug for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Stream({:?}, {} bytes)", self.dict, self.content.len())
    }
}

impl PartialEq for Stream {
    fn eq(&self, other: &Self) -> bool {
        self.dict == other.dict && self.content == other.content
    }
}

/// One operator of a content stream and its operands.
#[derive(Debug, Clone, PartialEq)]
pub struct Operation {
    pub operator: String,
    pub operands: Vec<Object>,
}

/// A content stream's operators, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Content {
    pub operations: Vec<Operation>,
}

impl Content {
    /// The operators of decoded content-stream bytes (hayro-syntax's content parser).
    pub fn decode(data: &[u8]) -> Result<Content> {
        let mut ops = UntypedIter::new(data);
        let mut operations = Vec::new();
        while let Some(op) = ops.next() {
            operations.push(Operation {
                operator: String::from_utf8_lossy(&op.operator[..]).into_owned(),
                operands: op
                    .operands()
                    .map(|o| Object::from_hayro(o.clone(), None))
                    .collect(),
            });
        }
        Ok(Content { operations })
    }
}

/// One outline entry: its depth (1 for the top level), title and page (1-based).
#[derive(Debug, Clone, PartialEq)]
pub struct TocEntry {
    pub level: usize,
    pub title: String,
    pub page: usize,
}

/// The document outline, in reading order.
#[derive(Debug, Clone, PartialEq)]
pub struct Toc {
    pub toc: Vec<TocEntry>,
}

/// A whole PDF file, every object read.
pub struct Document {
    /// Every object of the file by id, as the last cross-reference section gives it.
    pub objects: BTreeMap<ObjectId, Object>,
    /// The (last) trailer dictionary.
    pub trailer: Dictionary,
    /// The PDF version, `1.4`, `1.6`, `2.0`...
    pub version: String,
    /// Page number (from 1) to the page object's id, in page-tree order.
    pages: BTreeMap<u32, ObjectId>,
    pdf: Arc<Pdf>,
}

impl Document {
    pub fn load(path: impl AsRef<Path>) -> Result<Document> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| Error(format!("{}: {e}", path.display())))?;
        Document::load_mem(&bytes)
    }

    pub fn load_mem(bytes: &[u8]) -> Result<Document> {
        let pdf =
            Arc::new(Pdf::new(bytes.to_vec()).map_err(|e| Error(format!("not a PDF: {e:?}")))?);
        let trailer = trailer(bytes, &pdf)?;
        // Objects are numbered from 1; the cross-reference table says how many are
        // in use, and a few numbers may be free.
        let mut objects = BTreeMap::new();
        let mut n = 1;
        let mut misses = 0;
        while objects.len() < pdf.len() && misses < 10_000 {
            match pdf.xref().get::<h::Object<'_>>(ObjectIdentifier::new(n, 0)) {
                Some(o) => {
                    objects.insert((n, 0), Object::from_hayro(o, Some(&pdf)));
                }
                None => misses += 1,
            }
            n += 1;
        }
        let pages = pdf
            .pages()
            .iter()
            .zip(1..)
            .map(|(p, i)| {
                let id = p
                    .raw()
                    .obj_id()
                    .ok_or_else(|| Error("a page with no id".into()))?;
                Ok((i, id_of(id)))
            })
            .collect::<Result<_>>()?;
        let version = match pdf.version() {
            hayro_syntax::PdfVersion::Pdf10 => "1.0",
            hayro_syntax::PdfVersion::Pdf11 => "1.1",
            hayro_syntax::PdfVersion::Pdf12 => "1.2",
            hayro_syntax::PdfVersion::Pdf13 => "1.3",
            hayro_syntax::PdfVersion::Pdf14 => "1.4",
            hayro_syntax::PdfVersion::Pdf15 => "1.5",
            hayro_syntax::PdfVersion::Pdf16 => "1.6",
            hayro_syntax::PdfVersion::Pdf17 => "1.7",
            hayro_syntax::PdfVersion::Pdf20 => "2.0",
        }
        .to_string();
        Ok(Document {
            objects,
            trailer,
            version,
            pages,
            pdf,
        })
    }

    /// Page number (from 1) to page object id.
    pub fn get_pages(&self) -> BTreeMap<u32, ObjectId> {
        self.pages.clone()
    }

    pub fn get_object(&self, id: ObjectId) -> Result<&Object> {
        self.objects
            .get(&id)
            .ok_or_else(|| Error(format!("no object {id:?}")))
    }

    /// A dictionary object (a stream's dictionary too).
    pub fn get_dictionary(&self, id: ObjectId) -> Result<&Dictionary> {
        match self.get_object(id)? {
            Object::Dictionary(d) => Ok(d),
            Object::Stream(s) => Ok(&s.dict),
            o => err(format!("{id:?} is not a dictionary: {o:?}")),
        }
    }

    /// A page's own `/Resources` when written inline, and the ids of the
    /// `/Resources` dictionaries referenced by the page and its ancestors, nearest
    /// first.
    pub fn get_page_resources(
        &self,
        page: ObjectId,
    ) -> Result<(Option<&Dictionary>, Vec<ObjectId>)> {
        let dict = self.get_dictionary(page)?;
        let inline = dict.get(b"Resources").and_then(Object::as_dict).ok();
        let mut ids = Vec::new();
        let mut node = Some(dict);
        let mut depth = 0;
        while let Some(d) = node {
            if let Ok(r) = d.get(b"Resources").and_then(Object::as_reference) {
                ids.push(r);
            }
            depth += 1;
            node = match d.get(b"Parent").and_then(Object::as_reference) {
                Ok(p) if depth < 64 => Some(self.get_dictionary(p)?),
                _ => None,
            };
        }
        Ok((inline, ids))
    }

    /// A page's content streams decoded and joined (hayro-syntax's page reader).
    pub fn get_page_content(&self, page: ObjectId) -> Result<Vec<u8>> {
        let pages = self.pdf.pages();
        let p = pages
            .iter()
            .find(|p| p.raw().obj_id().map(id_of) == Some(page))
            .ok_or_else(|| Error(format!("no page {page:?}")))?;
        Ok(p.page_stream().unwrap_or_default().to_vec())
    }

    /// A page's content operators.
    pub fn get_and_decode_page_content(&self, page: ObjectId) -> Result<Content> {
        Content::decode(&self.get_page_content(page)?)
    }

    /// The outline (bookmarks): each entry's depth, title and the page its
    /// destination (`/Dest` or a `/GoTo` action's `/D`, an explicit destination)
    /// points at.
    pub fn get_toc(&self) -> Result<Toc> {
        let root = self.trailer.get(b"Root")?.as_reference()?;
        let outlines = self
            .get_dictionary(root)?
            .get(b"Outlines")?
            .as_reference()?;
        let page_numbers: BTreeMap<ObjectId, usize> = self
            .pages
            .iter()
            .map(|(n, id)| (*id, *n as usize))
            .collect();
        let mut toc = Vec::new();
        let mut stack = vec![(self.get_dictionary(outlines)?.get(b"First").ok(), 1)];
        while let Some((item, level)) = stack.pop() {
            let Some(id) = item.and_then(|i| i.as_reference().ok()) else {
                continue;
            };
            if toc.len() > 100_000 {
                return err("an outline that loops");
            }
            let d = self.get_dictionary(id)?;
            let dest = match d.get(b"Dest") {
                Ok(dest) => dest,
                Err(_) => self.resolve(d.get(b"A")?)?.as_dict()?.get(b"D")?,
            };
            let page = self
                .resolve(dest)?
                .as_array()?
                .first()
                .ok_or(Error("an empty destination".into()))?;
            toc.push(TocEntry {
                level,
                title: text_string(self.resolve(d.get(b"Title")?)?.as_str()?),
                page: *page_numbers
                    .get(&page.as_reference()?)
                    .ok_or_else(|| Error(format!("a destination not on a page: {page:?}")))?,
            });
            stack.push((d.get(b"Next").ok(), level));
            stack.push((d.get(b"First").ok(), level + 1));
        }
        Ok(Toc { toc })
    }

    /// The object itself, or the one a reference points at.
    pub fn resolve<'a>(&'a self, o: &'a Object) -> Result<&'a Object> {
        match o {
            Object::Reference(id) => self.get_object(*id),
            o => Ok(o),
        }
    }
}

/// A PDF text string: UTF-16BE after its byte order mark, else PDFDocEncoding
/// (read as Latin-1, which it equals for the letters an outline here holds).
fn text_string(b: &[u8]) -> String {
    match b.strip_prefix(&[0xfe, 0xff]) {
        Some(utf16) => String::from_utf16_lossy(
            &utf16
                .chunks_exact(2)
                .map(|c| u16::from_be_bytes([c[0], c[1]]))
                .collect::<Vec<_>>(),
        ),
        None => b.iter().map(|&c| c as char).collect(),
    }
}

/// The last trailer: the dictionary after the last `trailer` keyword (cardstock
/// writes cross-reference tables, not streams; a file without one has none here).
fn trailer(bytes: &[u8], pdf: &Arc<Pdf>) -> Result<Dictionary> {
    let word = b"trailer";
    let Some(t) = bytes.windows(word.len()).rposition(|w| w == word) else {
        return Ok(Dictionary::default());
    };
    let rest = &bytes[t + word.len()..];
    let start = rest
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .ok_or(Error("an empty trailer".into()))?;
    let dict = h::Dict::from_bytes(&rest[start..]).ok_or(Error("a broken trailer".into()))?;
    Ok(Dictionary::from_hayro(&dict, Some(pdf)))
}
