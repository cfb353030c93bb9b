//! Revision marks: `face.revision` is 1 for a part's first printed version and
//! one more for each print record in which its face changed.
//!
//! The revision depends on the last record and the record on what the face
//! draws, mark included. A build settles it in one step: each face is rendered
//! with the revision its part had in the last record; a face that draws the same
//! as then renders to the very same text (mark included), so its hash matches the
//! record's, it keeps its revision and its files stay byte-identical. A face whose
//! hash differs has changed: it is rendered again with the next revision (only
//! those faces are rendered twice). A part the last record does not have is at
//! revision 1. The parts last printed come from the game's last print record (the `prints` module).

use std::fmt;

use super::FacePlan;

/// The hash of one face as printed: its SVG text (revision mark included), its
/// full size and the contents of the image files it links to. 64 bits of SHA-256,
/// written as 16 hex digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FaceHash(pub [u8; 8]);

impl FaceHash {
    /// The hash of a face whose SVG text is `svg`, `size` mm with its bleed, linking
    /// to images whose versions are `linked` ([`crate::image::Linked::of`]).
    pub fn of(svg: &str, size: (f64, f64), linked: &str) -> FaceHash {
        use sha2::Digest;
        let mut h = sha2::Sha256::new();
        h.update(svg.as_bytes());
        h.update(format!("|{}|{}|{linked}", size.0, size.1).as_bytes());
        let digest = h.finalize();
        let mut out = [0u8; 8];
        out.copy_from_slice(&digest[..8]);
        FaceHash(out)
    }

    /// Reads 16 hex digits.
    pub fn parse(text: &str) -> Option<FaceHash> {
        if text.len() != 16 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let mut out = [0u8; 8];
        for (i, byte) in out.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(FaceHash(out))
    }
}

impl fmt::Display for FaceHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// A part as the last record has it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Before {
    pub revision: u32,
    pub front: FaceHash,
    pub back: Option<FaceHash>,
}

impl Before {
    /// Whether faces hashed `front` and `back` are the ones printed.
    pub fn same(&self, front: FaceHash, back: Option<FaceHash>) -> bool {
        self.front == front && self.back == back
    }
}

/// Each planned face's part in the last record (same shape as the plans).
#[derive(Debug, Default)]
pub struct Previous {
    sets: Vec<Vec<Option<Before>>>,
}

impl Previous {
    /// The parts last printed, per component and planned face.
    pub fn new(sets: Vec<Vec<Option<Before>>>) -> Previous {
        Previous { sets }
    }

    /// Face `face` of component `component` as last printed.
    pub fn get(&self, component: usize, face: usize) -> Option<&Before> {
        self.sets.get(component)?.get(face)?.as_ref()
    }

    /// Gives each planned face the revision its part was last printed at (1 for a
    /// part not printed yet): the revision it keeps if its face did not change.
    pub fn assign(&self, plans: &mut [Vec<FacePlan>]) {
        for (ci, set) in plans.iter_mut().enumerate() {
            for (k, p) in set.iter_mut().enumerate() {
                p.revision = self.get(ci, k).map_or(1, |b| b.revision);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_reads_back_and_follows_text_size_and_images() {
        let h = FaceHash::of("<svg/>", (69.5, 94.9), "");
        assert_eq!(FaceHash::parse(&h.to_string()), Some(h));
        assert_ne!(FaceHash::of("<svg />", (69.5, 94.9), ""), h);
        assert_ne!(FaceHash::of("<svg/>", (69.5, 95.0), ""), h);
        assert_ne!(FaceHash::of("<svg/>", (69.5, 94.9), "a.png=12;"), h);
        assert_eq!(
            FaceHash::parse("0123456789abcdeF").map(|h| h.0[7]),
            Some(0xef)
        );
        assert_eq!(FaceHash::parse("0123456789abcde"), None);
        assert_eq!(FaceHash::parse("0123456789abcdeg"), None);
    }
}
