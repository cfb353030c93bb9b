//! Measures `cardstock serve` in a real browser (headless Chromium over the DevTools
//! protocol) on a scratch copy of Interstate Trucking (its 88 contract cards):
//!
//! - save-to-screen: from writing contracts.toml (one card's destination changes)
//!   to the new image of that card being on screen, as the browser clocks it
//!   (a MutationObserver on the face's `src`, then its load, then the next frame);
//!   median of `--edits` edits;
//! - memory: the resident size (VmRSS) of the `serve` process before and after
//!   `--soak` more edits (a new colour for the $100 bill each time, and a broken
//!   file then its fix every 25th edit), each waited for on the page;
//! - optionally a screenshot of the page (`--screenshot docs/serve.png`).
//!
//! With `--deck`, the same on the 88-card deck of finished SVG art that `cardstock
//! bench` measures (`bench --keep-deck`): each edit rewrites card 12's SVG file with
//! a new colour (every 25th soak edit first saves it broken).
//!
//! With `--stages`, no browser and no server: the same edits rebuilt in this
//! process through `preview::build` with the cache `serve` keeps, and the median
//! wall time of each stage printed (what `serve --timings` prints per save).
//!
//! Each edit's steps in the page are printed too (when the pushed image and the
//! update message came, `update()`'s start and end, the new `src`, its load and
//! the next frame). `--bin PATH` measures another `cardstock` binary (an older
//! build, page and all); `--inject FILE` runs FILE's JavaScript in the page
//! first (to try a change of the page's functions without a rebuild).
//!
//! Run: `cargo build --release && cargo run --release --example preview_bench [-- --deck] [--stages]`
//! (needs chromium but with `--stages`; Linux, for /proc).

#[path = "../tests/it/cdp.rs"]
mod cdp;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

const GAME: &str = "interstate-trucking";
const CARD: &str = "contracts/012-front";
const BILL: &str = "money/001-front";

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let (p, t) = (e.path(), to.join(e.file_name()));
        if p.is_dir() {
            copy_dir(&p, &t)
        } else {
            std::fs::copy(&p, &t).unwrap();
        }
    }
}

fn now_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
        * 1000.0
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Replaces the value of `key` in the `n`th (1-based) `[[table]]` row of `text`.
fn set_field(text: &str, table: &str, n: usize, key: &str, value: &str) -> String {
    let header = format!("[[{table}]]");
    let start = text.match_indices(&header).nth(n - 1).unwrap().0;
    let line = text[start..]
        .find(&format!("\n{key} = "))
        .map(|i| start + i + 1)
        .unwrap();
    let end = line + text[line..].find('\n').unwrap();
    format!("{}{key} = {value}{}", &text[..line], &text[end..])
}

/// Waits until face `id` shows a picture other than `old` and returns its hash and
/// the time (ms since the epoch) the page put it on screen.
fn wait_shown(b: &mut cdp::Browser, id: &str, old: &str) -> (String, f64) {
    let js = format!(
        "(() => {{ const i = document.querySelector('figure[data-id=\"{id}\"] img');
            const t = window.shownAt[i.src];
            return i.dataset.hash !== '{old}' && t ? [i.dataset.hash, t] : null; }})()"
    );
    let v = b.wait_for(&js, 60);
    (v[0].as_str().unwrap().to_string(), v[1].as_f64().unwrap())
}

/// Watches the page (after running `inject`, JavaScript that replaces some of
/// the page's functions, to try a change without rebuilding): when a face's
/// image gets a new `src`, the time of that, of its load and of the next frame
/// (`shownAt`, the time on screen); and for each update, `window.tr`: when the
/// last pushed image and the message came, when `update()` started and ended, and
/// the message's size.
fn observe(b: &mut cdp::Browser, inject: Option<&str>) {
    if let Some(js) = inject {
        b.eval(js);
    }
    b.eval(
        "window.shownAt = {}; window.tr = {}; {
         const now = () => performance.timeOrigin + performance.now();
         { const r = receiveImage; receiveImage = (d) => { window.tr.image = now(); r(d); }; }
         { const u = update; update = (m) => { window.tr.message = window.cardstock.messageAt; window.tr.start = now(); u(m); window.tr.end = now(); window.tr.bytes = JSON.stringify(m).length; }; }
         new MutationObserver((ms) => {
           for (const m of ms) {
             const img = m.target;
             if (img.tagName !== 'IMG' || !img.closest('figure.face')) continue;
             const src = img.src;
             window.tr.src = now();
             const mark = () => { window.tr.load = now(); requestAnimationFrame(() => { window.shownAt[src] = now(); }); };
             if (img.complete) mark(); else img.addEventListener('load', mark, { once: true });
           }
         }).observe(document.body, { attributes: true, attributeFilter: ['src'], subtree: true });
         } true",
    );
}

/// Each update's steps in the page (`observe`), in ms after the save.
#[derive(Default)]
struct Trace {
    steps: Vec<(&'static str, Vec<f64>)>,
    bytes: Vec<f64>,
}

impl Trace {
    /// The steps of the update just shown (the save at `t0`).
    fn take(&mut self, b: &mut cdp::Browser, t0: f64, shown: f64) {
        let tr = b.eval("window.tr");
        for (i, name) in ["image", "message", "start", "end", "src", "load"]
            .into_iter()
            .enumerate()
        {
            let at = tr[name].as_f64().map_or(f64::NAN, |t| t - t0);
            match self.steps.get_mut(i) {
                Some((_, v)) => v.push(at),
                None => self.steps.push((name, vec![at])),
            }
        }
        match self.steps.get_mut(6) {
            Some((_, v)) => v.push(shown - t0),
            None => self.steps.push(("frame", vec![shown - t0])),
        }
        self.bytes.push(tr["bytes"].as_f64().unwrap_or(f64::NAN));
        b.eval("window.tr = {}; true");
    }

    /// Prints the median time after the save of each step.
    fn print(&mut self) {
        let names = [
            ("image", "image frame in"),
            ("message", "message in"),
            ("start", "update() starts"),
            ("end", "update() ends"),
            ("src", "new src set"),
            ("load", "image loaded"),
            ("frame", "next frame"),
        ];
        let line: Vec<String> = self
            .steps
            .iter_mut()
            .map(|(n, v)| {
                let label = names.iter().find(|(k, _)| k == n).map_or(*n, |(_, l)| *l);
                format!("{label} {:.1}", median(v))
            })
            .collect();
        println!(
            "  in the page, ms after the save (medians): {}; message {:.0} bytes",
            line.join(", "),
            median(&mut self.bytes)
        );
    }
}

/// The `--timings` lines `serve` printed, as they come.
type Timings = std::sync::Arc<std::sync::Mutex<Vec<String>>>;

/// Starts `serve --timings` on `game` in `root`; returns it, its process id, its
/// URL and its timing lines.
fn start_serve(bin: &Path, root: &Path, game: &str) -> (Server, u32, String, Timings) {
    let mut child = Command::new(bin)
        .args(["serve", game, "--port", "0", "--timings", "--project"])
        .arg(root)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let server = Server(child);
    let timings = Timings::default();
    let url = loop {
        let mut line = String::new();
        assert!(out.read_line(&mut line).unwrap() > 0, "serve stopped");
        if let Some(at) = line.find("http://") {
            break line[at..].split_whitespace().next().unwrap().to_string();
        }
    };
    let lines = timings.clone();
    std::thread::spawn(move || {
        for line in out.lines().map_while(Result::ok) {
            let line = line.trim_start();
            if let Some(t) = line.strip_prefix("timings: ") {
                lines.lock().unwrap().push(t.to_string());
            } else if let Some(t) = line.strip_prefix("clock: ") {
                // After its build's timings line: the last one's.
                if let Some(last) = lines.lock().unwrap().last_mut() {
                    last.push_str(" · ");
                    last.push_str(t);
                }
            }
        }
    });
    (server, pid, url, timings)
}

/// Where save-to-message went, from the `--timings` lines of the builds of the
/// edits (the last ones, one per edit, in order with `to_message`, the saves at
/// `saves`, ms since the epoch): looking at the files, the build, the changed
/// faces' images (and making the message, at once), sending the message; the
/// rest is the file-system event, the socket and the page taking the frames,
/// each apart where `serve` printed when it woke and sent (its `clock:` line).
/// Prints the median of each.
fn account(timings: &Timings, saves: &[f64], to_message: &[f64]) {
    std::thread::sleep(Duration::from_millis(200));
    let lines = timings.lock().unwrap();
    let Some(first) = lines.len().checked_sub(to_message.len()) else {
        return println!("  (fewer --timings lines than edits: not accounted)");
    };
    let mut parts: [Vec<f64>; 5] = Default::default();
    let (mut woke, mut socket) = (Vec::new(), Vec::new());
    for ((line, total), t0) in lines[first..].iter().zip(to_message).zip(saves) {
        let mut sums = [0.0; 5];
        for stage in line.split(" · ") {
            let clock = |name: &str| stage.strip_prefix(name)?.parse::<f64>().ok();
            if let Some(at) = clock("woke at ") {
                woke.push(at - t0);
            }
            if let Some(at) = clock("sent at ") {
                socket.push(t0 + total - at);
            }
            let Some((name, ms)) = stage
                .split_once(" ms")
                .and_then(|(head, _)| head.rsplit_once(' '))
                .and_then(|(n, ms)| Some((n, ms.parse::<f64>().ok()?)))
            else {
                continue;
            };
            let at = match name {
                "files" => 0,
                "images" => 2,
                "message" => 3,
                _ => 1,
            };
            sums[at] += ms;
        }
        sums[4] = total - sums[..4].iter().sum::<f64>();
        for (v, s) in parts.iter_mut().zip(sums) {
            v.push(s);
        }
    }
    let [files, build, images, message, rest] = parts.map(|mut v| median(&mut v));
    println!(
        "  save to message, medians: files {files:.1} ms, build {build:.1} ms, images {images:.1} ms, message {message:.1} ms; the rest (file event, socket, page) {rest:.1} ms"
    );
    if !woke.is_empty() && !socket.is_empty() {
        println!(
            "    of the rest: save to the end of its wait {:.1} ms, sent to the page's message {:.1} ms",
            median(&mut woke),
            median(&mut socket)
        );
    }
}

/// The 88-card deck project of `cardstock bench`, made in `tmp/deck`.
fn make_deck(bin: &Path, repo: &Path, tmp: &Path) -> PathBuf {
    let root = tmp.join("deck");
    let made = Command::new(bin)
        .args(["bench", "--deck-only", "--runs", "1", "--keep-deck"])
        .arg(&root)
        .current_dir(repo)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(made.success(), "cardstock bench --keep-deck failed");
    root
}

/// `--stages` on Interstate Trucking (contract 12's city) or the deck (card 12's
/// SVG file).
fn stages_of(bin: &Path, repo: &Path, tmp: &Path, deck: bool, edits: usize) {
    if deck {
        let root = make_deck(bin, repo, tmp);
        let art = root.join("data/deck/art/012-front.svg");
        let original = std::fs::read_to_string(&art).unwrap();
        return stages(&root, "deck", edits, |i| {
            let colour = format!("#{:02x}80c0", 0x40 + i % 190);
            let text = original.replacen("fill=\"#ffffff\"", &format!("fill=\"{colour}\""), 1);
            std::fs::write(&art, text).unwrap();
        });
    }
    copy_dir(&repo.join("data").join(GAME), &tmp.join("data").join(GAME));
    for t in [GAME, "common"] {
        copy_dir(
            &repo.join("templates").join(t),
            &tmp.join("templates").join(t),
        );
    }
    let contracts = tmp.join("data").join(GAME).join("contracts.toml");
    let original = std::fs::read_to_string(&contracts).unwrap();
    stages(tmp, GAME, edits, |i| {
        let city = ["\"denver\"", "\"kansas-city\""][i % 2];
        std::fs::write(
            &contracts,
            set_field(&original, "contract", 12, "city", city),
        )
        .unwrap();
    });
}

/// Save-to-screen and memory on the 88-card deck of SVG art (`--deck`).
fn deck_bench(
    (bin, chrome, inject): (&Path, &Path, Option<&str>),
    repo: &Path,
    tmp: &Path,
    edits: usize,
    soak: usize,
) {
    let root = make_deck(bin, repo, tmp);
    let (server, pid, url, timings) = start_serve(bin, &root, "deck");
    println!(
        "cardstock {} serve on the 88-card deck, {url}",
        env!("CARGO_PKG_VERSION")
    );
    let card = "cards/012-front";
    let art = root.join("data/deck/art/012-front.svg");
    let original = std::fs::read_to_string(&art).unwrap();
    let coloured = |i: usize| {
        let colour = format!(
            "#{:02x}{:02x}{:02x}",
            0x40 + i % 190,
            0x80 + i / 4 % 120,
            0xc0 - i % 100
        );
        original.replacen("fill=\"#ffffff\"", &format!("fill=\"{colour}\""), 1)
    };
    let mut b = cdp::Browser::open(chrome, &url, 1400, 900);
    b.wait_for("document.querySelectorAll('figure.face').length >= 89", 60);
    observe(&mut b, inject);
    b.eval(&format!(
        "document.querySelector('figure[data-id=\"{card}\"]').scrollIntoView({{block: 'center'}})"
    ));
    let mut hash = b
        .wait_for(
            &format!("(() => {{ const i = document.querySelector('figure[data-id=\"{card}\"] img'); return i.complete && i.naturalWidth ? i.dataset.hash : null; }})()"),
            60,
        )
        .as_str()
        .unwrap()
        .to_string();
    std::thread::sleep(Duration::from_secs(3));
    let (mut times, mut to_message, mut trace) = (Vec::new(), Vec::new(), Trace::default());
    let mut saves = Vec::new();
    for i in 0..edits {
        b.eval("window.shownAt = {}; window.tr = {}; true");
        let t0 = now_ms();
        std::fs::write(&art, coloured(1000 + i)).unwrap();
        let (h, shown) = wait_shown(&mut b, card, &hash);
        hash = h;
        let message = b.eval("window.cardstock.messageAt").as_f64().unwrap();
        times.push(shown - t0);
        to_message.push(message - t0);
        saves.push(t0);
        trace.take(&mut b, t0, shown);
        std::thread::sleep(Duration::from_millis(300));
    }
    if edits > 0 {
        let mut rest: Vec<f64> = times.iter().zip(&to_message).map(|(t, m)| t - m).collect();
        let med = median(&mut times);
        println!(
            "save-to-screen over {edits} edits of {card}: median {med:.0} ms, min {:.0} ms, max {:.0} ms",
            times[0],
            times[times.len() - 1]
        );
        println!(
            "  of which save to the page's update message: median {:.0} ms; message to image on screen: median {:.0} ms",
            median(&mut to_message.clone()),
            median(&mut rest)
        );
        account(&timings, &saves, &to_message);
        trace.print();
    }
    if soak > 0 {
        let start_rss = rss_kib(pid);
        let started = Instant::now();
        let mut marks = vec![(0, start_rss)];
        for i in 1..=soak {
            if i % 25 == 0 {
                std::fs::write(&art, original.replacen("</svg>", "", 1)).unwrap();
                b.wait_for("!document.querySelector('#problems').hidden", 60);
            }
            b.eval("window.shownAt = {}; true");
            std::fs::write(&art, coloured(i)).unwrap();
            hash = wait_shown(&mut b, card, &hash).0;
            if i % 100 == 0 {
                marks.push((i, rss_kib(pid)));
            }
        }
        let list: Vec<String> = marks
            .iter()
            .map(|(n, k)| format!("{n}: {:.1}", *k as f64 / 1024.0))
            .collect();
        println!(
            "serve RSS through {soak} edits ({:.0} s): start {:.1} MiB, end {:.1} MiB (after N edits, MiB: {})",
            started.elapsed().as_secs_f64(),
            start_rss as f64 / 1024.0,
            rss_kib(pid) as f64 / 1024.0,
            list.join(", ")
        );
    }
    drop(server);
}

/// `--stages`: `edits` rebuilds in this process, each after `edit(i)` wrote a
/// save, with the preview's cache; prints the median of each stage.
fn stages(root: &Path, game: &str, edits: usize, edit: impl Fn(usize)) {
    use cardstock::options::{Asked, Pictures};
    use cardstock::preview;
    let project = cardstock::project::Project::disk(root).unwrap();
    let asked = Asked {
        dpi: 150.0,
        ..Default::default()
    };
    let opts = asked.resolve(Pictures::Screen).value.unwrap();
    let cache = preview::Cache::default();
    let first = preview::build(&project.fresh(), game, &opts, &cache);
    assert!(first.ok, "{:?}", first.diagnostics);
    let mut by_stage: Vec<(&'static str, Vec<f64>)> = Vec::new();
    let mut total = Vec::new();
    for i in 0..edits {
        edit(i);
        let p = preview::build(&project.fresh(), game, &opts, &cache);
        assert!(p.ok, "{:?}", p.diagnostics);
        total.push(p.took_ms);
        for (name, ms) in p.timings {
            match by_stage.iter_mut().find(|(n, _)| *n == name) {
                Some((_, v)) => v.push(ms),
                None => by_stage.push((name, vec![ms])),
            }
        }
    }
    let (made, kept) = cache.last_renders();
    let (parsed, checked) = cache.last_work();
    let (run, held) = cache.last_asserts();
    let (derived, derives_kept) = cache.last_derives();
    let book = if cache.rulebook_kept() {
        "kept"
    } else {
        "typeset"
    };
    let templates = if cache.templates_kept() {
        "kept"
    } else {
        "compiled"
    };
    let line: Vec<String> = by_stage
        .iter_mut()
        .map(|(n, v)| format!("{n} {:.1}", median(v)))
        .collect();
    println!(
        "{game}, {edits} rebuilds in process: median {:.1} ms ({} ms each stage); last: {made} rendered, {kept} kept, {parsed} parsed, {checked} preflighted, {run} asserts run, {held} kept, {derived} derived rows run, {derives_kept} kept, rulebook {book}, templates {templates}",
        median(&mut total),
        line.join(", ")
    );
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn main() {
    let mut edits = 20;
    let mut soak = 500;
    let mut shot: Option<PathBuf> = None;
    let mut deck = false;
    let mut in_process = false;
    let mut bin: Option<PathBuf> = None;
    let mut inject: Option<String> = None;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--edits" => edits = it.next().unwrap().parse().unwrap(),
            "--soak" => soak = it.next().unwrap().parse().unwrap(),
            "--screenshot" => shot = Some(PathBuf::from(it.next().unwrap())),
            "--deck" => deck = true,
            "--stages" => in_process = true,
            "--bin" => bin = Some(PathBuf::from(it.next().unwrap())),
            "--inject" => inject = Some(std::fs::read_to_string(it.next().unwrap()).unwrap()),
            other => {
                eprintln!(
                    "preview_bench: unknown argument `{other}`\nusage: preview_bench [--deck] [--stages] [--edits N] [--soak N] [--screenshot PNG] [--bin CARDSTOCK] [--inject JS]"
                );
                std::process::exit(2);
            }
        }
    }
    let exe = std::env::current_exe().unwrap();
    let bin = bin.unwrap_or_else(|| exe.parent().unwrap().parent().unwrap().join("cardstock"));
    let inject = inject.as_deref();
    assert!(
        bin.exists(),
        "build the binary first: cargo build --release"
    );
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    if in_process {
        return stages_of(&bin, &repo, tmp.path(), deck, edits);
    }
    let chrome = cdp::chromium().expect("chromium is installed");
    if deck {
        return deck_bench((&bin, &chrome, inject), &repo, tmp.path(), edits, soak);
    }
    let root = tmp.path();
    copy_dir(&repo.join("data").join(GAME), &root.join("data").join(GAME));
    for t in [GAME, "common"] {
        copy_dir(
            &repo.join("templates").join(t),
            &root.join("templates").join(t),
        );
    }
    let (server, pid, url, timings) = start_serve(&bin, root, GAME);
    println!(
        "cardstock {} serve on {GAME}, {}",
        env!("CARGO_PKG_VERSION"),
        url
    );

    let mut b = cdp::Browser::open(&chrome, &url, 1400, 900);
    b.wait_for("document.querySelectorAll('figure.face').length > 100", 60);
    observe(&mut b, inject);
    let contracts = root.join("data").join(GAME).join("contracts.toml");
    let original = std::fs::read_to_string(&contracts).unwrap();
    b.eval(&format!(
        "document.querySelector('figure[data-id=\"{CARD}\"]').scrollIntoView({{block: 'center'}})"
    ));
    let mut hash = b
        .wait_for(
            &format!("(() => {{ const i = document.querySelector('figure[data-id=\"{CARD}\"] img'); return i.complete && i.naturalWidth ? i.dataset.hash : null; }})()"),
            60,
        )
        .as_str()
        .unwrap()
        .to_string();
    // Let the first page load (and the server's pre-rendering) finish.
    std::thread::sleep(Duration::from_secs(3));

    let (mut times, mut to_message, mut trace) = (Vec::new(), Vec::new(), Trace::default());
    let mut saves = Vec::new();
    for i in 0..edits {
        let city = if i % 2 == 0 {
            "\"denver\""
        } else {
            "\"kansas-city\""
        };
        let text = set_field(&original, "contract", 12, "city", city);
        b.eval("window.shownAt = {}; window.tr = {}; true");
        let t0 = now_ms();
        std::fs::write(&contracts, text).unwrap();
        let (h, shown) = wait_shown(&mut b, CARD, &hash);
        hash = h;
        let message = b.eval("window.cardstock.messageAt").as_f64().unwrap();
        times.push(shown - t0);
        to_message.push(message - t0);
        saves.push(t0);
        trace.take(&mut b, t0, shown);
        std::thread::sleep(Duration::from_millis(300));
    }
    if edits > 0 {
        let mut sorted = times.clone();
        let med = median(&mut sorted);
        println!(
            "save-to-screen over {edits} edits of {CARD}: median {med:.0} ms, min {:.0} ms, max {:.0} ms",
            sorted[0],
            sorted[sorted.len() - 1]
        );
        let mut rest: Vec<f64> = times.iter().zip(&to_message).map(|(t, m)| t - m).collect();
        println!(
            "  of which save to the page's update message: median {:.0} ms; message to image on screen: median {:.0} ms",
            median(&mut to_message.clone()),
            median(&mut rest)
        );
        account(&timings, &saves, &to_message);
        trace.print();
    }

    if soak > 0 {
        let money = root.join("data").join(GAME).join("money.toml");
        let money_text = std::fs::read_to_string(&money).unwrap();
        b.eval(&format!(
            "document.querySelector('figure[data-id=\"{BILL}\"]').scrollIntoView({{block: 'center'}})"
        ));
        let mut bill = b
            .wait_for(
                &format!("(() => {{ const i = document.querySelector('figure[data-id=\"{BILL}\"] img'); return i.complete && i.naturalWidth ? i.dataset.hash : null; }})()"),
                60,
            )
            .as_str()
            .unwrap()
            .to_string();
        std::thread::sleep(Duration::from_secs(1));
        let start_rss = rss_kib(pid);
        let started = Instant::now();
        let mut marks = vec![(0, start_rss)];
        for i in 1..=soak {
            let colour = format!(
                "\"#{:02x}{:02x}{:02x}\"",
                0x40 + i % 190,
                0x80 + i / 4 % 120,
                0xc0 - i % 100
            );
            if i % 25 == 0 {
                // A broken save, then the fix.
                std::fs::write(
                    &money,
                    money_text.replacen("value = 500", "value = 500 dollars", 1),
                )
                .unwrap();
                b.wait_for("!document.querySelector('#problems').hidden", 60);
            }
            b.eval("window.shownAt = {}; true");
            std::fs::write(&money, set_field(&money_text, "bill", 1, "fill", &colour)).unwrap();
            bill = wait_shown(&mut b, BILL, &bill).0;
            if i % 100 == 0 {
                marks.push((i, rss_kib(pid)));
            }
        }
        let end_rss = rss_kib(pid);
        let list: Vec<String> = marks
            .iter()
            .map(|(n, k)| format!("{n}: {:.1}", *k as f64 / 1024.0))
            .collect();
        println!(
            "serve RSS through {soak} edits ({:.0} s): start {:.1} MiB, end {:.1} MiB (after N edits, MiB: {})",
            started.elapsed().as_secs_f64(),
            start_rss as f64 / 1024.0,
            end_rss as f64 / 1024.0,
            list.join(", ")
        );
    }

    if let Some(path) = shot {
        b.eval("document.querySelector('#q').value = ''; window.scrollTo(0, 0); true");
        b.eval(&format!(
            "document.querySelector('figure[data-id=\"{CARD}\"]').click()"
        ));
        std::thread::sleep(Duration::from_millis(1500));
        let broken = b.eval(
            "Array.from(document.querySelectorAll('figure img, .detail img')).filter(i => i.getBoundingClientRect().top < innerHeight && !(i.complete && i.naturalWidth)).map(i => i.src)",
        );
        assert_eq!(
            broken,
            serde_json::json!([]),
            "images not shown; fulls {}",
            b.eval("window.cardstock.fulls")
        );
        b.screenshot(&path, false);
        println!("screenshot: {}", path.display());
        // And the same page after a save with a typo in it.
        let typo = set_field(&original, "contract", 12, "city", "\"kansas-cty\"");
        std::fs::write(&contracts, typo).unwrap();
        b.wait_for("!document.querySelector('#problems').hidden", 60);
        b.eval("document.querySelector('#detail-close').click(); window.scrollTo(0, 0); true");
        std::thread::sleep(Duration::from_millis(1500));
        let error = path.with_file_name(format!(
            "{}-error.png",
            path.file_stem().unwrap().to_string_lossy()
        ));
        b.screenshot(&error, false);
        println!("screenshot: {}", error.display());
        std::fs::write(&contracts, &original).unwrap();
        // And the sheets, once the fix is shown.
        b.wait_for("document.querySelector('#problems').hidden", 60);
        b.eval(
            "document.querySelector('[data-view=\"sheets\"]').click(); window.scrollTo(0, 0); true",
        );
        std::thread::sleep(Duration::from_millis(2500));
        let sheets = path.with_file_name(format!(
            "{}-sheets.png",
            path.file_stem().unwrap().to_string_lossy()
        ));
        b.screenshot(&sheets, false);
        println!("screenshot: {}", sheets.display());
    }
    drop(server);
}
