//! A new file beside the project's sources that must never replace another: a
//! print record (`prints/<game>/003-....toml`).

use std::io::Write;
use std::path::Path;

use super::{check_plain, io, real_folders, WriteError};

/// Writes `bytes` as the new file `rel` of the folder `root`, whole or not at all:
/// into a temporary file beside it first, then linked into place, which fails if
/// a file of that name exists meanwhile (never replaced). Every folder on the way
/// is made a real folder (never written through a link).
pub fn write_new(root: &Path, rel: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    check_plain(rel)?;
    let parent = rel.parent().unwrap_or(Path::new(""));
    real_folders(root, parent)?;
    let dir = root.join(parent);
    let target = root.join(rel);
    let mut tmp = tempfile::Builder::new()
        .prefix(".cardstock-new-")
        .tempfile_in(&dir)
        .map_err(io(&target))?;
    tmp.write_all(bytes)
        .and_then(|_| tmp.as_file().sync_all())
        .map_err(io(&target))?;
    tmp.persist_noclobber(&target)
        .map(|_| ())
        .map_err(|e| io(&target)(e.error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_file_never_replaces_one() {
        let tmp = tempfile::tempdir().unwrap();
        let rel = Path::new("prints/g/001-x.toml");
        write_new(tmp.path(), rel, b"one").unwrap();
        let again = write_new(tmp.path(), rel, b"two").unwrap_err();
        assert!(
            matches!(again, WriteError::Io { ref error, .. } if error.kind() == std::io::ErrorKind::AlreadyExists)
        );
        assert_eq!(std::fs::read(tmp.path().join(rel)).unwrap(), b"one");
        let left: Vec<_> = std::fs::read_dir(tmp.path().join("prints/g"))
            .unwrap()
            .collect();
        assert_eq!(left.len(), 1, "no temporary file is left");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_on_the_way_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), tmp.path().join("prints")).unwrap();
        let e = write_new(tmp.path(), Path::new("prints/g/001.toml"), b"x").unwrap_err();
        assert!(matches!(e, WriteError::NotAFolder(_)), "{e}");
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
    }
}
