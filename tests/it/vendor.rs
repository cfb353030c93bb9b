//! `vendor/` is the published crates plus the patch files, nothing else
//! (vendor/README.md): for every crate in `vendor/checksums`, the published `.crate`
//! archive (from cargo's cache, else downloaded with `cargo fetch`) is checked against
//! its recorded sha256, unpacked, patched, and compared with `vendor/<crate>/` file by
//! file.

use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use diffy::patch_set::{FileOperation, ParseOptions, PatchSet};
use sha2::{Digest, Sha256};

/// Files by path relative to a crate's folder (`/`-separated).
type Files = BTreeMap<String, Vec<u8>>;

#[test]
fn vendor_is_the_published_crates_plus_the_patches() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let vendor = root.join("vendor");
    let checksums = fs::read_to_string(vendor.join("checksums")).expect("vendor/checksums");
    let mut crates = Vec::new();
    let mut listed_patches = Vec::new();
    let mut problems = Vec::new();
    for line in checksums.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let [name, version, sha256, patches @ ..] = words.as_slice() else {
            panic!("vendor/checksums: `{line}` is not `name version sha256 patch...`");
        };
        crates.push(name.to_string());
        listed_patches.extend(patches.iter().map(|p| p.to_string()));

        let archive = published_archive(root, name, version);
        let got = hex(&Sha256::digest(&archive));
        assert_eq!(
            got, *sha256,
            "{name}-{version}.crate has sha256 {got}, vendor/checksums records {sha256}"
        );
        let mut expected = unpack(&archive, &format!("{name}-{version}/"));
        for patch in patches {
            let text = fs::read_to_string(vendor.join("patches").join(patch))
                .unwrap_or_else(|e| panic!("vendor/patches/{patch}: {e}"));
            apply(&mut expected, &text, name, version, patch);
        }
        expected.retain(|path, _| kept(path));
        let actual = read_dir(&vendor.join(name));
        problems.extend(compare(&expected, &actual, name));
    }

    // Nothing in vendor/ that checksums does not account for.
    for entry in fs::read_dir(&vendor).expect("vendor/") {
        let entry = entry.expect("vendor/ entry");
        let file = entry.file_name().to_string_lossy().into_owned();
        let known =
            crates.contains(&file) || ["patches", "checksums", "README.md"].contains(&&*file);
        if !known {
            problems.push(format!(
                "vendor/{file}: not a crate listed in vendor/checksums"
            ));
        }
    }
    for entry in fs::read_dir(vendor.join("patches")).expect("vendor/patches/") {
        let file = entry.expect("vendor/patches entry").file_name();
        let file = file.to_string_lossy();
        if !listed_patches.iter().any(|p| *p == file) {
            problems.push(format!(
                "vendor/patches/{file}: no line of vendor/checksums applies it"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "vendor/ is not the published crates plus vendor/patches/ \
         (scripts/vendor.sh re-creates it; scripts/vendor.sh diff NAME rewrites a patch \
         from an edited vendor/NAME/):\n  {}",
        problems.join("\n  ")
    );
}

/// Whether vendor/ keeps this file of a crate: its manifest, readme, licences and
/// sources, and krilla's ICC profiles (`icc/`, which its sources include) (not
/// `Cargo.toml.orig`, `Cargo.lock`, `.cargo_vcs_info.json`, docs, examples).
fn kept(path: &str) -> bool {
    path == "Cargo.toml"
        || path == "README.md"
        || (path.starts_with("LICENSE") && !path.contains('/'))
        || path.starts_with("src/")
        || path.starts_with("icc/")
}

/// The published `name-version.crate`: from cargo's cache, or downloaded into it by
/// `cargo fetch` in a throwaway package that depends on exactly this version.
fn published_archive(root: &Path, name: &str, version: &str) -> Vec<u8> {
    let file = format!("{name}-{version}.crate");
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))
        .expect("CARGO_HOME or HOME is set");
    let cached = || -> Option<PathBuf> {
        fs::read_dir(home.join("registry/cache"))
            .ok()?
            .filter_map(|d| Some(d.ok()?.path().join(&file)))
            .find(|p| p.is_file())
    };
    if let Some(path) = cached() {
        return fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    fs::create_dir(dir.path().join("src")).expect("src/");
    fs::write(dir.path().join("src/lib.rs"), "").expect("src/lib.rs");
    let manifest = format!(
        "[package]\nname = \"vendor-fetch\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n\
         [workspace]\n\n[dependencies]\n{name} = \"={version}\"\n"
    );
    fs::write(dir.path().join("Cargo.toml"), manifest).expect("Cargo.toml");
    // cardstock's lock file keeps every other crate at a version already downloaded.
    fs::copy(root.join("Cargo.lock"), dir.path().join("Cargo.lock")).expect("Cargo.lock");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .arg("fetch")
        .arg("--manifest-path")
        .arg(dir.path().join("Cargo.toml"))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo fetch of {name} {version} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let path = cached().unwrap_or_else(|| {
        panic!(
            "cargo fetch left no {file} in {}",
            home.join("registry/cache").display()
        )
    });
    fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The regular files of a `.crate` (a gzipped tar whose paths all start with `prefix`).
fn unpack(archive: &[u8], prefix: &str) -> Files {
    let mut files = Files::new();
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(archive));
    for entry in tar.entries().expect("the .crate is a tar.gz") {
        let mut entry = entry.expect("a tar entry");
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let path = entry
            .path()
            .expect("a tar path")
            .to_string_lossy()
            .into_owned();
        let rel = path
            .strip_prefix(prefix)
            .unwrap_or_else(|| panic!("{path} in the .crate is outside {prefix}"))
            .to_string();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).expect("a tar entry's bytes");
        files.insert(rel, bytes);
    }
    files
}

/// Applies one patch file to `files`. Its headers are those of
/// `diff -Nru NAME-VERSION patched/NAME` (what scripts/vendor.sh writes).
fn apply(files: &mut Files, text: &str, name: &str, version: &str, patch: &str) {
    let old_prefix = format!("{name}-{version}/");
    let new_prefix = format!("patched/{name}/");
    let parsed: Vec<_> = PatchSet::parse(text, ParseOptions::unidiff())
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("vendor/patches/{patch} does not parse: {e}"));
    assert!(!parsed.is_empty(), "vendor/patches/{patch} changes no file");
    for file_patch in parsed {
        let (path, delete) = match file_patch.operation() {
            FileOperation::Modify { original, modified } => {
                let old = original.strip_prefix(&old_prefix);
                let new = modified.strip_prefix(&new_prefix);
                match (old, new) {
                    (Some(old), Some(new)) if old == new => (new.to_string(), false),
                    _ => panic!(
                        "vendor/patches/{patch}: `{original}` / `{modified}` is not \
                         {old_prefix}PATH / {new_prefix}PATH"
                    ),
                }
            }
            FileOperation::Create(p) => (strip(p, &new_prefix, patch), false),
            FileOperation::Delete(p) => (strip(p, &old_prefix, patch), true),
            other => panic!("vendor/patches/{patch}: {other:?} is not supported"),
        };
        if delete {
            files.remove(&path);
            continue;
        }
        let diff = file_patch
            .patch()
            .as_text()
            .unwrap_or_else(|| panic!("vendor/patches/{patch}: {path} is a binary patch"));
        // `diff -N` writes a new file as a change of an empty one.
        let base = match files.get(&path) {
            Some(bytes) => String::from_utf8(bytes.clone())
                .unwrap_or_else(|_| panic!("{name}/{path} is not UTF-8 text")),
            None => String::new(),
        };
        let patched = diffy::apply(&base, diff).unwrap_or_else(|e| {
            panic!("vendor/patches/{patch} does not apply to {name} {version}'s {path}: {e}")
        });
        files.insert(path, patched.into_bytes());
    }
}

fn strip(path: &str, prefix: &str, patch: &str) -> String {
    path.strip_prefix(prefix)
        .unwrap_or_else(|| panic!("vendor/patches/{patch}: `{path}` is not under {prefix}"))
        .to_string()
}

/// Every file under `dir`, by path relative to it.
fn read_dir(dir: &Path) -> Files {
    fn walk(dir: &Path, rel: &str, files: &mut Files) {
        let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let entry = entry.expect("a folder entry");
            let name = entry.file_name().to_string_lossy().into_owned();
            let rel = if rel.is_empty() {
                name
            } else {
                format!("{rel}/{name}")
            };
            let path = entry.path();
            if path.is_dir() {
                walk(&path, &rel, files);
            } else {
                let bytes = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                files.insert(rel, bytes);
            }
        }
    }
    let mut files = Files::new();
    walk(dir, "", &mut files);
    files
}

/// The differences between what vendor/NAME/ should hold and what it holds.
fn compare(expected: &Files, actual: &Files, name: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for (path, bytes) in expected {
        match actual.get(path) {
            None => problems.push(format!("vendor/{name}/{path}: missing")),
            Some(have) if have != bytes => {
                let line = first_difference(bytes, have);
                problems.push(format!(
                    "vendor/{name}/{path}: differs from the published file plus patches \
                     (first at line {line})"
                ));
            }
            Some(_) => {}
        }
    }
    for path in actual.keys().filter(|p| !expected.contains_key(*p)) {
        problems.push(format!(
            "vendor/{name}/{path}: not in the published crate plus patches (or not a kept file)"
        ));
    }
    problems
}

/// The 1-based line of the first byte where `a` and `b` differ.
fn first_difference(a: &[u8], b: &[u8]) -> usize {
    let at = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    1 + a[..at].iter().filter(|&&c| c == b'\n').count()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
