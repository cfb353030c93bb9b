//! Writing output safely: every file goes to a temporary name in the same folder and
//! is renamed into place only when complete, and nothing is written outside the
//! output folder.

use std::io::Write;
use std::path::{Component, Path, PathBuf};

/// Files a build produced, relative to the output folder, not yet written.
#[derive(Debug, Default)]
pub struct Outputs {
    pub files: Vec<(PathBuf, Vec<u8>)>,
    /// What each file is, for the manifest (same order as `files`).
    pub what: Vec<String>,
}

impl Outputs {
    /// Adds a file and a short description of it. `rel` must be a plain relative path.
    pub fn add(&mut self, rel: impl Into<PathBuf>, what: impl Into<String>, bytes: Vec<u8>) {
        self.files.push((rel.into(), bytes));
        self.what.push(what.into());
    }

    /// `manifest.json`: every file, its size and what it is.
    pub fn manifest(&self, game: &str, profile: &str) -> Vec<u8> {
        let files: Vec<serde_json::Value> = self
            .files
            .iter()
            .zip(&self.what)
            .map(|((p, b), w)| serde_json::json!({ "path": p.to_string_lossy().replace('\\', "/"), "bytes": b.len(), "what": w }))
            .collect();
        let v = serde_json::json!({ "game": game, "profile": profile, "files": files });
        let mut out = serde_json::to_vec_pretty(&v).unwrap_or_default();
        out.push(b'\n');
        out
    }

    /// Writes every file under `out`, each atomically (temp file + rename).
    pub fn write_all(&self, out: &Path) -> Result<(), String> {
        for (rel, bytes) in &self.files {
            write_atomic(out, rel, bytes)?;
        }
        Ok(())
    }
}

/// Writes `bytes` to `out/rel` through a temporary file and a rename, so a crash or
/// error never leaves a half-written file where a good one was.
pub fn write_atomic(out: &Path, rel: &Path, bytes: &[u8]) -> Result<(), String> {
    if rel.is_absolute() || rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return Err(format!(
            "refusing to write {}: not a plain path inside the output folder",
            rel.display()
        ));
    }
    let path = out.join(rel);
    // An unchanged file is left alone (its time stamp too): a rebuild after
    // editing one card rewrites that card's files only.
    if std::fs::metadata(&path).is_ok_and(|m| m.len() == bytes.len() as u64)
        && std::fs::read(&path).is_ok_and(|old| old == bytes)
    {
        return Ok(());
    }
    let dir = path.parent().ok_or("no parent folder")?;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or("bad file name")?;
    let tmp = dir.join(format!(".{name}.cardstock-tmp"));
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, &path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("cannot write {}: {e}", path.display()));
    }
    Ok(())
}

/// Checks the output folder is not the project's data or templates folder (or a
/// parent of them), where a build would overwrite the designer's work.
pub fn check_out_dir(root: &Path, out: &Path) -> Result<(), String> {
    let canon = |p: &Path| -> PathBuf {
        // The folder may not exist yet: canonicalise its nearest existing ancestor.
        let mut existing = p.to_path_buf();
        let mut rest = Vec::new();
        while !existing.exists() {
            match (existing.file_name(), existing.parent()) {
                (Some(n), Some(parent)) => {
                    rest.push(n.to_os_string());
                    existing = parent.to_path_buf();
                }
                _ => break,
            }
        }
        let mut c = existing.canonicalize().unwrap_or(existing);
        for n in rest.into_iter().rev() {
            c.push(n);
        }
        c
    };
    let out = canon(out);
    let root = canon(root);
    for protected in ["data", "templates", "src", "assets", "tests"] {
        let p = root.join(protected);
        if out.starts_with(&p) || p.starts_with(&out) {
            return Err(format!(
                "refusing to write output into {}: it holds or is inside the project's {protected}/ folder",
                out.display()
            ));
        }
    }
    Ok(())
}
