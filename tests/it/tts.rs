//! Tabletop Simulator on all five games, read back: every component set is an
//! object (deck, board, tile, bag of tiles and tokens), every deck's ids and sheets
//! agree with its images (at most 10 x 7, at most 4096 px), every URL points at a
//! written file, landscape cards are sideways, objects lie side by side, and
//! `--base-url` points the saved object at hosted images.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use serde_json::Value;

use crate::common::*;

const GAMES: [&str; 5] = [
    "black-pawn-trucking",
    "inside-track",
    "interstate-trucking",
    "parcel-delivery",
    "truck-off",
];

/// Every game built once with `--profile tts`; returns the output folder and what
/// the build printed on stderr. The build is the one [`start_early`] started, if
/// it did, else it starts now.
fn built() -> &'static (tempfile::TempDir, String) {
    static OUT: OnceLock<(tempfile::TempDir, String)> = OnceLock::new();
    OUT.get_or_init(|| {
        // Before the lock: `start` makes shared folders, which call `start_early`.
        TRIED.store(true, Ordering::SeqCst);
        let state = std::mem::replace(&mut *lock_state(), Early::Taken);
        let started = match state {
            Early::Running(started) => started,
            _ => start(),
        };
        let Started { out, logs, child } = started;
        let status = child.wait_with_output().expect("cardstock runs").status;
        let read = |name: &str| std::fs::read_to_string(logs.path().join(name)).unwrap();
        let (stdout, stderr) = (read("stdout"), read("stderr"));
        assert!(status.success(), "{stdout}\n{stderr}");
        (out, stderr)
    })
}

/// The shared build while it runs: its output folder, the folder of its stdout
/// and stderr, and the process.
struct Started {
    out: tempfile::TempDir,
    logs: tempfile::TempDir,
    child: Child,
}

/// Whether the shared build has started, and who waits for it.
enum Early {
    NotStarted,
    Running(Started),
    Taken,
}

static STATE: Mutex<Early> = Mutex::new(Early::NotStarted);
/// Set by the first call of [`start_early`] or [`built`]: later calls of
/// `start_early` (one from every shared folder made) return at once.
static TRIED: AtomicBool = AtomicBool::new(false);

fn lock_state() -> std::sync::MutexGuard<'static, Early> {
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Starts `build --profile tts` of every game into a shared folder, its stdout and
/// stderr into files (nothing reads a pipe while it runs).
fn start() -> Started {
    let out = crate::common::shared_tempdir();
    let logs = crate::common::shared_tempdir();
    let file = |name: &str| std::fs::File::create(logs.path().join(name)).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_cardstock"))
        .args(["build", "--profile", "tts", "--out"])
        .arg(out.path())
        .current_dir(repo())
        .stdout(file("stdout"))
        .stderr(file("stderr"))
        .spawn()
        .expect("cardstock runs");
    Started { out, logs, child }
}

/// Starts the shared build in the background when the whole suite runs (no test
/// named or skipped on the command line): the `tts` tests come last in libtest's
/// name order, and their build (every game's images at 300 dpi, the largest the
/// tests share) held the end of a run with the other test threads idle. Called by
/// [`crate::common::shared_tempdir`], so by the first test that needs any shared
/// build; the `tts` tests wait for it in [`built`], which starts it itself if this
/// did not (a run of some tests only), so no test depends on another's order. A
/// build still running when the test binary exits is killed then, before the
/// shared folders are removed.
pub fn start_early() {
    if TRIED.swap(true, Ordering::SeqCst) || !whole_suite() {
        return;
    }
    let mut state = lock_state();
    if matches!(*state, Early::NotStarted) {
        *state = Early::Running(start());
        extern "C" fn kill_running() {
            if let Early::Running(started) = &mut *lock_state() {
                let _ = started.child.kill();
                let _ = started.child.wait();
            }
        }
        // SAFETY: registers a plain function, once; it touches only `STATE`. It
        // runs before the handler that removes the shared folders, registered
        // earlier (by `start`'s first shared folder or before).
        assert_eq!(unsafe { libc::atexit(kill_running) }, 0);
    }
}

/// Whether libtest was asked to run every test: no argument but the options that
/// change how tests run and report (as `cargo test` passes them), none that names,
/// skips or lists tests.
fn whole_suite() -> bool {
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-q" | "--quiet" | "--nocapture" | "--show-output" | "--report-time" => {}
            "--test-threads" | "--color" | "--format" | "-Z" => {
                args.next();
            }
            a if ["--test-threads=", "--color=", "--format="]
                .iter()
                .any(|p| a.starts_with(p)) => {}
            _ => return false,
        }
    }
    true
}

fn load(game: &str) -> (PathBuf, Value) {
    let dir = built().0.path().join(game).join("tts");
    let json = std::fs::read(dir.join(format!("{game}.json"))).unwrap();
    (dir, serde_json::from_slice(&json).unwrap())
}

fn objects(saved: &Value) -> &Vec<Value> {
    saved["ObjectStates"].as_array().unwrap()
}

/// Component id -> (name, kind, parts) from `game.toml` and `listing`, what
/// `cardstock list` printed.
fn sets(game: &str, listing: &str) -> BTreeMap<String, (String, String, usize)> {
    let text = std::fs::read_to_string(repo().join("data").join(game).join("game.toml")).unwrap();
    let toml: toml::Table = text.parse().unwrap();
    let mut out = BTreeMap::new();
    for c in toml["component"].as_array().unwrap() {
        let id = c["id"].as_str().unwrap().to_string();
        let name = c
            .get("name")
            .and_then(|n| n.as_str())
            .unwrap_or(&id)
            .to_string();
        let kind = c["kind"].as_str().unwrap().to_string();
        // `list` prints `  <id>  <kind>  <faces>  <parts>  <rules>` under the game.
        let section = listing.split(&format!("{game} (")).nth(1).unwrap();
        let line = section
            .lines()
            .find(|l| l.split_whitespace().next() == Some(&id))
            .unwrap_or_else(|| panic!("{id} in `cardstock list`"));
        let parts: usize = line.split_whitespace().nth(3).unwrap().parse().unwrap();
        out.insert(id, (name, kind, parts));
    }
    out
}

fn png_size(path: &Path) -> (u32, u32) {
    let b = std::fs::read(path).unwrap_or_else(|_| panic!("{} exists", path.display()));
    (
        u32::from_be_bytes(b[16..20].try_into().unwrap()),
        u32::from_be_bytes(b[20..24].try_into().unwrap()),
    )
}

/// The file a URL points at: `file://` URLs as paths (percent-decoded), others
/// mapped from `base` onto the output folder.
fn file_of(url: &str, base: Option<(&str, &Path)>) -> PathBuf {
    match base {
        Some((prefix, dir)) => {
            let rest = url
                .strip_prefix(prefix)
                .unwrap_or_else(|| panic!("{url} starts with {prefix}"));
            dir.join(rest.trim_start_matches('/'))
        }
        None => {
            let path = url.strip_prefix("file://").expect("a file URL");
            PathBuf::from(path.replace("%20", " "))
        }
    }
}

/// Every URL in a saved object (recursively).
fn urls(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match x {
                    Value::String(s) if k.ends_with("URL") && !s.is_empty() => out.push(s.clone()),
                    _ => urls(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| urls(x, out)),
        _ => {}
    }
}

#[test]
fn every_set_of_every_game_is_an_object_with_all_its_parts() {
    let listing = texts(&run(&repo(), &["list"])).0;
    for game in GAMES {
        let (_, saved) = load(game);
        let objects = objects(&saved);
        for (id, (name, kind, parts)) in sets(game, &listing) {
            let mine: Vec<&Value> = objects
                .iter()
                .filter(|o| o["Description"] == Value::String(name.clone()))
                .collect();
            assert!(!mine.is_empty(), "{game}: `{id}` has no object");
            let expected = match kind.as_str() {
                "card" | "money" | "pad" => vec!["DeckCustom", "CardCustom"],
                "board" | "mat" => vec!["Custom_Board", "Custom_Tile"],
                "aid" => vec!["Custom_Tile"],
                _ => vec!["Bag", "Custom_Tile", "Custom_Token"],
            };
            let mut count = 0;
            for o in &mine {
                let n = o["Name"].as_str().unwrap();
                assert!(expected.contains(&n), "{game}: `{id}` ({kind}) is a {n}");
                count += match n {
                    "DeckCustom" => o["DeckIDs"].as_array().unwrap().len(),
                    "Bag" => o["ContainedObjects"].as_array().unwrap().len(),
                    _ => 1,
                };
            }
            assert_eq!(count, parts, "{game}: `{id}` holds every part");
        }
    }
    // Nothing left out, nothing warned about.
    let stderr = &built().1;
    assert!(!stderr.contains("not exported"), "{stderr}");
    assert!(!stderr.contains("no parts to export"), "{stderr}");
}

#[test]
fn one_deck_per_card_set_over_several_sheets_with_matching_ids_and_images() {
    for game in GAMES {
        let (_, saved) = load(game);
        for deck in objects(&saved).iter().filter(|o| o["Name"] == "DeckCustom") {
            let custom = deck["CustomDeck"].as_object().unwrap();
            let ids: Vec<u64> = deck["DeckIDs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap())
                .collect();
            for (sheet, entry) in custom {
                let sheet: u64 = sheet.parse().unwrap();
                let (w, h) = (
                    entry["NumWidth"].as_u64().unwrap(),
                    entry["NumHeight"].as_u64().unwrap(),
                );
                assert!((2..=10).contains(&w) && (2..=7).contains(&h), "{w} x {h}");
                let face = file_of(entry["FaceURL"].as_str().unwrap(), None);
                let (pw, ph) = png_size(&face);
                assert!(pw <= 4096 && ph <= 4096, "{}: {pw} x {ph}", face.display());
                assert!(
                    pw % w as u32 == 0 && ph % h as u32 == 0,
                    "{pw} x {ph} is a {w} x {h} grid"
                );
                let on_sheet = ids.iter().filter(|&&i| i / 100 == sheet).count() as u64;
                assert!(on_sheet > 0, "sheet {sheet} is used");
                // Slots are numbered from 0; the last one stays free for TTS's hidden card.
                for &i in ids.iter().filter(|&&i| i / 100 == sheet) {
                    assert!(i % 100 < w * h - 1, "{game}: card {i} on a {w} x {h} sheet");
                }
                if entry["UniqueBack"] == true {
                    let back = file_of(entry["BackURL"].as_str().unwrap(), None);
                    assert_eq!(png_size(&back), (pw, ph), "a back for every face");
                }
            }
            assert!(ids
                .iter()
                .all(|i| custom.contains_key(&(i / 100).to_string())));
            // The cards inside are the ids, in order, each knowing its sheet.
            let cards = deck["ContainedObjects"].as_array().unwrap();
            assert_eq!(cards.len(), ids.len());
            for (card, id) in cards.iter().zip(&ids) {
                assert_eq!(card["CardID"].as_u64(), Some(*id));
                assert!(card["CustomDeck"].get((id / 100).to_string()).is_some());
            }
        }
    }
    // The 88 contracts: one deck, two sheets (69 + 19), ids 100.. and 200...
    let (_, saved) = load("interstate-trucking");
    let decks: Vec<&Value> = objects(&saved)
        .iter()
        .filter(|o| o["Description"] == "Contract cards")
        .collect();
    assert_eq!(decks.len(), 1);
    let ids = decks[0]["DeckIDs"].as_array().unwrap();
    assert_eq!(ids.len(), 88);
    assert_eq!(decks[0]["CustomDeck"].as_object().unwrap().len(), 2);
    assert_eq!((ids[0].as_u64(), ids[68].as_u64()), (Some(100), Some(168)));
    assert_eq!((ids[69].as_u64(), ids[87].as_u64()), (Some(200), Some(218)));
}

#[test]
fn landscape_cards_are_sideways_and_one_sided_parts_lie_face_up() {
    let (_, saved) = load("interstate-trucking");
    let money = objects(&saved)
        .iter()
        .find(|o| o["Description"] == "Money")
        .unwrap();
    assert_eq!(money["SidewaysCard"], true, "3 x 1.5 in bills");
    assert_eq!(
        money["Transform"]["rotZ"], 0.0,
        "bills have no back: face up"
    );
    let entry = money["CustomDeck"]
        .as_object()
        .unwrap()
        .values()
        .next()
        .unwrap();
    let (pw, ph) = png_size(&file_of(entry["FaceURL"].as_str().unwrap(), None));
    let (w, h) = (
        entry["NumWidth"].as_u64().unwrap(),
        entry["NumHeight"].as_u64().unwrap(),
    );
    let (sw, sh) = (pw as f64 / w as f64, ph as f64 / h as f64);
    assert!(
        (sw / sh - 2.0).abs() < 0.01,
        "a bill's slot is 2:1 landscape: {sw} x {sh}"
    );
    let contracts = objects(&saved)
        .iter()
        .find(|o| o["Description"] == "Contract cards")
        .unwrap();
    assert_eq!(contracts["SidewaysCard"], false);
    assert_eq!(contracts["Transform"]["rotZ"], 180.0, "face down");
}

#[test]
fn chits_and_tokens_are_tiles_of_their_shape_or_tokens_cut_from_transparency() {
    let (_, saved) = load("interstate-trucking");
    let bag = objects(&saved)
        .iter()
        .find(|o| o["Description"] == "Goods chits")
        .unwrap();
    assert_eq!(bag["Name"], "Bag");
    let mut kinds = BTreeMap::new();
    for piece in bag["ContainedObjects"].as_array().unwrap() {
        let key = match piece["Name"].as_str().unwrap() {
            "Custom_Tile" => format!("tile {}", piece["CustomImage"]["CustomTile"]["Type"]),
            other => other.to_string(),
        };
        *kinds.entry(key).or_insert(0) += 1;
        // Each piece is its own object in the game.
        assert!(piece["GUID"].as_str().is_some_and(|g| g.len() == 6));
    }
    // Goods: perishable round (circle tiles, type 2), regular square (box, 0),
    // premium triangles (tokens).
    assert_eq!(kinds.len(), 3, "{kinds:?}");
    assert!(
        kinds.contains_key("tile 0") && kinds.contains_key("tile 2"),
        "{kinds:?}"
    );
    assert!(kinds.contains_key("Custom_Token"), "{kinds:?}");
    // A token image is transparent outside its triangle and around it; the centre is
    // the chit.
    let token = bag["ContainedObjects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["Name"] == "Custom_Token")
        .unwrap();
    let file = file_of(token["CustomImage"]["ImageURL"].as_str().unwrap(), None);
    let (w, h) = png_size(&file);
    let o = std::process::Command::new("convert")
        .arg(&file)
        .args([
            "-format",
            &format!(
                "%[fx:p{{1,{}}}.a] %[fx:p{{{},{}}}.a]",
                h - 2,
                w / 2,
                h * 2 / 3
            ),
            "info:",
        ])
        .output()
        .expect("imagemagick is installed");
    let alphas = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(
        alphas.trim(),
        "0 1",
        "corner transparent, centre opaque: {}",
        file.display()
    );
}

#[test]
fn boards_mats_and_aids_are_objects() {
    let (_, saved) = load("black-pawn-trucking");
    let names: Vec<(&str, &str)> = objects(&saved)
        .iter()
        .map(|o| {
            (
                o["Name"].as_str().unwrap(),
                o["Description"].as_str().unwrap(),
            )
        })
        .collect();
    assert!(names.contains(&("Custom_Board", "Playmat")), "{names:?}");
    assert!(
        names.contains(&("Custom_Board", "Map of Britain and Ireland (real size)")),
        "{names:?}"
    );
    assert!(
        names
            .iter()
            .any(|(n, d)| *n == "Custom_Tile" && d.contains("diagram")),
        "{names:?}"
    );
    // A board image is the trim at most 4096 px a side, in the board's proportions.
    let (_, saved) = load("interstate-trucking");
    let board = objects(&saved)
        .iter()
        .find(|o| o["Name"] == "Custom_Board")
        .unwrap();
    let (w, h) = png_size(&file_of(
        board["CustomImage"]["ImageURL"].as_str().unwrap(),
        None,
    ));
    assert_eq!(w, 4096, "a 36 x 24 in board is scaled to 4096 px");
    assert!((w as f64 / h as f64 - 1.5).abs() < 0.01);
    // The score pad is a deck of its sheets, one for each player to take.
    let (_, saved) = load("truck-off");
    let pad = &objects(&saved)[0];
    assert_eq!(pad["Name"], "DeckCustom");
    assert_eq!(pad["DeckIDs"].as_array().unwrap().len(), 40);
}

#[test]
fn every_url_points_at_a_written_file() {
    for game in GAMES {
        let (_, saved) = load(game);
        let mut all = Vec::new();
        urls(&saved, &mut all);
        assert!(!all.is_empty());
        for url in all {
            assert!(url.starts_with("file:///"), "{url}");
            let file = file_of(&url, None);
            assert!(file.is_file(), "{game}: {url}");
        }
    }
}

/// The rectangle an object covers on the table (x0, z0, x1, z1), from its scale
/// and its image's proportions: a card about 3 units long at scale 1, a tile,
/// token or board about 2, a bag 2.5.
fn footprint(o: &Value) -> (f64, f64, f64, f64) {
    let t = &o["Transform"];
    let (x, z, s) = (
        t["posX"].as_f64().unwrap(),
        t["posZ"].as_f64().unwrap(),
        t["scaleX"].as_f64().unwrap(),
    );
    let (w, d) = match o["Name"].as_str().unwrap() {
        "Bag" => (2.5, 2.5),
        "DeckCustom" | "CardCustom" => {
            let long = 3.0 * s;
            let short = long * 5.0 / 7.0;
            if o["SidewaysCard"] == true {
                (long, short)
            } else {
                (short, long)
            }
        }
        _ => {
            let (pw, ph) = png_size(&file_of(
                o["CustomImage"]["ImageURL"].as_str().unwrap(),
                None,
            ));
            let long = 2.0 * s;
            if pw >= ph {
                (long, long * ph as f64 / pw as f64)
            } else {
                (long * pw as f64 / ph as f64, long)
            }
        }
    };
    (x - w / 2.0, z - d / 2.0, x + w / 2.0, z + d / 2.0)
}

#[test]
fn objects_lie_side_by_side() {
    for game in GAMES {
        let (_, saved) = load(game);
        let boxes: Vec<(String, (f64, f64, f64, f64))> = objects(&saved)
            .iter()
            .map(|o| (o["Nickname"].as_str().unwrap().to_string(), footprint(o)))
            .collect();
        for (i, (a, ra)) in boxes.iter().enumerate() {
            for (b, rb) in &boxes[i + 1..] {
                let apart = ra.2 <= rb.0 + 0.01
                    || rb.2 <= ra.0 + 0.01
                    || ra.3 <= rb.1 + 0.01
                    || rb.3 <= ra.1 + 0.01;
                assert!(apart, "{game}: {a} {ra:?} and {b} {rb:?} overlap");
            }
        }
    }
}

/// A copy of `game` with the profiles, `tts` at 50 dpi: for the tests whose point
/// is not the images (links, warnings), so they do not draw them at 300 dpi; the
/// images' sizes are checked on the full build above.
fn copy_at_50_dpi(game: &str) -> tempfile::TempDir {
    let tmp = project_copy(&[game]);
    copy_dir(&repo().join("profiles"), &tmp.path().join("profiles"));
    edit(
        &tmp.path().join("profiles/tts.toml"),
        "dpi = 300",
        "dpi = 50",
    );
    tmp
}

#[test]
fn base_url_points_the_saved_object_at_hosted_images() {
    let tmp = copy_at_50_dpi("parcel-delivery");
    let out = tmp.path().join("out");
    let o = run(
        tmp.path(),
        &[
            "build",
            "parcel-delivery",
            "--profile",
            "tts",
            "--base-url",
            "https://example.org/games/",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{:?}", texts(&o));
    let dir = out.join("parcel-delivery/tts");
    let saved: Value =
        serde_json::from_slice(&std::fs::read(dir.join("parcel-delivery.json")).unwrap()).unwrap();
    let mut all = Vec::new();
    urls(&saved, &mut all);
    let prefix = "https://example.org/games/parcel-delivery/tts/";
    for url in &all {
        let file = file_of(url, Some((prefix, &dir)));
        assert!(file.is_file(), "{url} is {}", file.display());
    }
    // Not a URL: a clear error, nothing written.
    let o = run(
        &repo(),
        &[
            "build",
            "parcel-delivery",
            "--profile",
            "tts",
            "--base-url",
            "example.org/games",
        ],
    );
    assert!(!o.status.success());
    assert!(
        texts(&o)
            .1
            .contains("--base-url `example.org/games` is not an absolute http, https or file URL"),
        "{:?}",
        texts(&o)
    );
}

#[test]
fn a_back_tts_cannot_show_is_a_warning_naming_the_set() {
    let tmp = copy_at_50_dpi("parcel-delivery");
    // Trap counters are triangles (tokens cut from their image): give them a back.
    edit(
        &tmp.path().join("data/parcel-delivery/game.toml"),
        "front = \"trap.svg\"",
        "front = \"trap.svg\"\nback = \"trap.svg\"",
    );
    let o = run(tmp.path(), &["build", "--profile", "tts", "--out", "out"]);
    let (_, stderr) = texts(&o);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.matches("the backs of `trap-counters` (triangle tokens) are not exported: Tabletop Simulator shows a token's front on both sides").count() == 1,
        "{stderr}"
    );
}
