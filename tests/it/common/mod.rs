//! Shared helpers for the integration tests: run the real binary on a project,
//! copy projects into temporary folders, compare output with snapshot files.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub mod pdf;

/// The repository root (holds data/ and templates/).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `cardstock` with `args` in `dir`.
pub fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardstock"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("cardstock runs")
}

/// stdout and stderr as text.
pub fn texts(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Copies a folder tree.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let p = e.path();
        let t = to.join(e.file_name());
        if p.is_dir() {
            copy_dir(&p, &t);
        } else {
            std::fs::copy(&p, &t).unwrap();
        }
    }
}

/// A temporary folder for a build the tests of this binary share. Such a folder
/// lives in a `static`, which Rust never drops, so its `TempDir` would leave it
/// behind: it is removed when the test binary exits (an `atexit` handler, which
/// runs whether the tests passed or failed). The first such folder also starts
/// the `tts` tests' build in the background (`tts::start_early`), when every test
/// runs.
pub fn shared_tempdir() -> tempfile::TempDir {
    use std::sync::{Mutex, Once};
    static DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    static AT_EXIT: Once = Once::new();
    extern "C" fn remove_shared() {
        let dirs = std::mem::take(&mut *DIRS.lock().unwrap_or_else(|e| e.into_inner()));
        for dir in dirs {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    // SAFETY: registers a plain function, once; it touches only `DIRS`.
    AT_EXIT.call_once(|| assert_eq!(unsafe { libc::atexit(remove_shared) }, 0));
    let dir = tempfile::tempdir().unwrap();
    DIRS.lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(dir.path().to_path_buf());
    crate::tts::start_early();
    dir
}

/// A temporary copy of the real project's data/ and templates/ (and only the games
/// named, to keep it fast).
pub fn project_copy(games: &[&str]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for g in games {
        copy_dir(
            &repo().join("data").join(g),
            &tmp.path().join("data").join(g),
        );
        copy_dir(
            &repo().join("templates").join(g),
            &tmp.path().join("templates").join(g),
        );
    }
    copy_dir(
        &repo().join("templates/common"),
        &tmp.path().join("templates/common"),
    );
    tmp
}

/// Writes a ZIP package (an XLSX or ODS workbook) at `path` holding `parts`, each
/// a name and its text, in order; deflated or stored.
pub fn write_zip(path: &Path, parts: &[(&str, &str)], deflated: bool) {
    use std::io::Write as _;
    let method = if deflated {
        zip::CompressionMethod::Deflated
    } else {
        zip::CompressionMethod::Stored
    };
    let options = zip::write::SimpleFileOptions::default().compression_method(method);
    let mut zip = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    for (name, text) in parts {
        zip.start_file(*name, options).unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    }
    zip.finish().unwrap();
}

/// A PNG's pixels, 8 bits a sample (palettes expanded), with its size and colour
/// type.
pub fn decode_png(bytes: &[u8]) -> (png::OutputInfo, Vec<u8>) {
    let mut dec = png::Decoder::new(std::io::Cursor::new(bytes));
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info, buf)
}

/// A temporary copy of the fixture game (`tests/fixtures/base/`) with the shared
/// templates it uses.
pub fn base_copy() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&repo().join("tests/fixtures/base"), tmp.path());
    copy_dir(
        &repo().join("templates/common"),
        &tmp.path().join("templates/common"),
    );
    tmp
}

/// Replaces `from` with `to` in a file (which must contain `from`).
pub fn edit(path: &Path, from: &str, to: &str) {
    let s = std::fs::read_to_string(path).unwrap();
    assert!(
        s.contains(from),
        "{} does not contain {from:?}",
        path.display()
    );
    std::fs::write(path, s.replacen(from, to, 1)).unwrap();
}

/// Compares `actual` with `tests/snapshots/<name>.txt`. With CARDSTOCK_BLESS=1 the
/// snapshot is (re)written instead.
pub fn snapshot(name: &str, actual: &str) {
    let path = repo().join("tests/snapshots").join(format!("{name}.txt"));
    if std::env::var_os("CARDSTOCK_BLESS").is_some()
        || !path.exists() && std::env::var_os("CI").is_none()
    {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let Ok(expected) = std::fs::read_to_string(&path) else {
        panic!("snapshot {name} is missing (CI is set): run the test locally or with CARDSTOCK_BLESS=1 and commit tests/snapshots/{name}.txt");
    };
    if expected != actual {
        panic!(
            "snapshot {name} differs (run with CARDSTOCK_BLESS=1 to accept)\n--- expected\n{expected}\n--- actual\n{actual}"
        );
    }
}

/// Runs pdftotext (poppler-utils) on one page of a PDF.
pub fn pdftotext(pdf: &Path, page: usize) -> String {
    let o = Command::new("pdftotext")
        .args(["-f", &page.to_string(), "-l", &page.to_string(), "-layout"])
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) is installed");
    assert!(o.status.success());
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A page box (`MediaBox`, `TrimBox`, `BleedBox`) as `[llx, lly, urx, ury]` points.
pub fn rect(doc: &pdf::Document, page: pdf::ObjectId, key: &[u8]) -> Vec<f64> {
    let dict = doc.get_dictionary(page).unwrap();
    dict.get(key)
        .unwrap_or_else(|_| panic!("page has {}", String::from_utf8_lossy(key)))
        .as_array()
        .unwrap()
        .iter()
        .map(|o| match o {
            pdf::Object::Integer(i) => *i as f64,
            pdf::Object::Real(r) => *r as f64,
            _ => panic!("not a number"),
        })
        .collect()
}

/// Whether two boxes agree to 0.01 pt.
/// Asserts that `pdf` is one page whose TrimBox is `w_in` x `h_in` inches
/// (within 0.01 pt): a part at its real size.
pub fn assert_one_page_trimmed(pdf: &Path, w_in: f64, h_in: f64) {
    let doc = pdf::Document::load(pdf).unwrap();
    let pages = doc.get_pages();
    assert_eq!(pages.len(), 1);
    let trim = rect(&doc, pages[&1], b"TrimBox");
    assert!(
        ((trim[2] - trim[0]) - w_in * 72.0).abs() < 0.01
            && ((trim[3] - trim[1]) - h_in * 72.0).abs() < 0.01,
        "{w_in} x {h_in} in: {trim:?}"
    );
}

pub fn close(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 0.01)
}

/// Runs `args` plus `--out <temp>` once per test binary (the cell is the caller's
/// static), checks it succeeded and printed `expect`, and returns the output folder.
pub fn build_once(
    cell: &'static std::sync::OnceLock<tempfile::TempDir>,
    args: &[&str],
    expect: &str,
) -> &'static Path {
    cell.get_or_init(|| {
        let out = shared_tempdir();
        let mut all = args.to_vec();
        all.extend(["--out", out.path().to_str().unwrap()]);
        let o = run(&repo(), &all);
        let (stdout, stderr) = texts(&o);
        assert!(o.status.success(), "build failed:\n{stdout}\n{stderr}");
        assert!(stdout.contains(expect), "{stdout}");
        out
    })
    .path()
}

/// Interstate Trucking built once per test binary with print profile `profile`
/// (`build interstate-trucking --profile <profile>`), shared by every test that
/// reads that build: its `interstate-trucking/<profile>` folder.
pub fn interstate_with(profile: &str) -> PathBuf {
    use std::collections::BTreeMap;
    use std::sync::{Mutex, OnceLock};
    type Cell = &'static OnceLock<tempfile::TempDir>;
    static CELLS: Mutex<BTreeMap<String, Cell>> = Mutex::new(BTreeMap::new());
    let cell: Cell = *CELLS
        .lock()
        .unwrap()
        .entry(profile.to_string())
        .or_insert_with(|| Box::leak(Box::new(OnceLock::new())));
    let args = ["build", "interstate-trucking", "--profile", profile];
    build_once(cell, &args, "interstate-trucking:")
        .join("interstate-trucking")
        .join(profile)
}

/// Every way `doc` uses transparency, one line each (empty: none): a graphics state
/// with a fill or stroke alpha (`/ca`, `/CA`) below 1 or a soft mask, an image with
/// a soft mask, a transparency group. PDF/X-1a allows none of them.
pub fn transparency(doc: &pdf::Document) -> Vec<String> {
    use pdf::Object;
    let number = |o: &Object| match o {
        Object::Integer(i) => Some(*i as f64),
        Object::Real(r) => Some(*r as f64),
        _ => None,
    };
    let mut found = Vec::new();
    for (id, obj) in &doc.objects {
        let dict = match obj {
            Object::Stream(s) => &s.dict,
            Object::Dictionary(d) => d,
            _ => continue,
        };
        for key in [&b"ca"[..], b"CA"] {
            if let Some(a) = dict.get(key).ok().and_then(number) {
                if a < 1.0 {
                    found.push(format!("{id:?}: /{} {a}", String::from_utf8_lossy(key)));
                }
            }
        }
        if let Ok(m) = dict.get(b"SMask") {
            if m.as_name().map_or(true, |n| n != b"None") {
                found.push(format!("{id:?}: /SMask"));
            }
        }
        if let Ok(g) = dict.get(b"Group").and_then(|g| match g {
            Object::Reference(r) => doc.get_dictionary(*r),
            o => o.as_dict(),
        }) {
            if g.get(b"S").and_then(|s| s.as_name()).ok() == Some(&b"Transparency"[..]) {
                found.push(format!("{id:?}: transparency group"));
            }
        }
    }
    found
}

/// Sets field `key` of the `n`th `[[table]]` (1-based) of `text` to `value`.
pub fn set_field(text: &str, table: &str, n: usize, key: &str, value: &str) -> String {
    let start = text
        .match_indices(&format!("[[{table}]]"))
        .nth(n - 1)
        .unwrap()
        .0;
    let line = start + text[start..].find(&format!("\n{key} = ")).unwrap() + 1;
    let end = line + text[line..].find('\n').unwrap();
    format!("{}{key} = {value}{}", &text[..line], &text[end..])
}

/// The live preview's options for `asked` (a screen's pictures), which must be
/// right.
pub fn screen_options(asked: cardstock::options::Asked) -> cardstock::options::Resolved {
    asked
        .resolve(cardstock::options::Pictures::Screen)
        .value
        .expect("the options are right")
}
