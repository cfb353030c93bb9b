//! Short hashes of texts in a print record (a template's version, a line's check).
//! A face's hash is [`crate::render::revision::FaceHash`].

pub use crate::render::revision::FaceHash;

/// The first 8 hex digits of the SHA-256 of `text` (a template's version in a
/// record, a line's check).
pub fn short(text: &str) -> String {
    use sha2::Digest;
    crate::hex::encode(&sha2::Sha256::digest(text.as_bytes())[..4])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_hash_is_8_hex_digits() {
        assert_eq!(short("x").len(), 8);
        assert_ne!(short("x"), short("y"));
    }
}
