//! `cardstock serve`: the live preview in a real browser (headless Chromium over
//! the DevTools protocol), its images against the PNG export, and the paths it
//! refuses.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::cdp;
use crate::common::{edit, project_copy, run, set_field, texts};

const GAME: &str = "interstate-trucking";

/// A running `cardstock serve`, stopped when dropped.
pub(crate) struct Serve {
    pub(crate) child: Child,
    pub(crate) url: String,
    /// Its stdout, line by line (kept open while it runs).
    lines: mpsc::Receiver<String>,
}

impl Serve {
    /// Starts `cardstock serve` on Interstate Trucking in `project`.
    pub(crate) fn start(project: &Path, extra: &[&str]) -> Serve {
        let serve = Serve::start_on(project, &[GAME, "--port", "0"], extra);
        assert!(serve.url.starts_with("http://127.0.0.1:"), "{}", serve.url);
        serve
    }

    /// `cardstock serve ARGS --project PROJECT EXTRA`, once it printed its address.
    pub(crate) fn start_on(project: &Path, args: &[&str], extra: &[&str]) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cardstock"))
            .arg("serve")
            .args(args)
            .arg("--project")
            .arg(project)
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cardstock serve starts");
        let mut err = child.stderr.take().unwrap();
        let stderr = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = err.read_to_string(&mut s);
            s
        });
        let (tx, lines) = mpsc::channel();
        let out = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                if tx.send(line.unwrap_or_default()).is_err() {
                    break;
                }
            }
        });
        let mut seen = Vec::new();
        let url = loop {
            let Ok(line) = lines.recv_timeout(Duration::from_secs(120)) else {
                let _ = child.kill();
                let err = stderr.join().unwrap_or_default();
                panic!("serve printed no URL; it printed {seen:?} and on stderr:\n{err}");
            };
            if let Some(at) = line.find("http://") {
                break line[at..].split_whitespace().next().unwrap().to_string();
            }
            seen.push(line);
        };
        Serve { child, url, lines }
    }

    /// The next line of its stdout that contains `text` (waiting up to 60 s).
    pub(crate) fn line_with(&self, text: &str) -> String {
        let mut seen = Vec::new();
        loop {
            let Ok(line) = self.lines.recv_timeout(Duration::from_secs(60)) else {
                panic!("serve printed no line with {text:?}; it printed {seen:?}");
            };
            if line.contains(text) {
                return line;
            }
            seen.push(line);
        }
    }

    /// `host:port`.
    pub(crate) fn addr(&self) -> String {
        self.url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string()
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The file position `cardstock check` reports for the first error, e.g.
/// `data/interstate-trucking/money.toml:8:9`.
fn check_position(project: &Path) -> String {
    let o = run(project, &["check", GAME]);
    let (_, err) = texts(&o);
    assert!(!o.status.success(), "the broken file checks clean:\n{err}");
    let at = err.find("┌─ ").expect("check names a file") + "┌─ ".len();
    err[at..].lines().next().unwrap().trim().to_string()
}

/// Scrolls face `id` into view (images load lazily) and waits until its image is
/// decoded; returns its hash.
fn shown_hash(b: &mut cdp::Browser, id: &str) -> String {
    let fig = format!("document.querySelector('figure[data-id=\"{id}\"]')");
    b.wait_for(&format!("{fig} !== null"), 60);
    b.eval(&format!("{fig}.scrollIntoView({{block: 'center'}})"));
    let hash = b.wait_for(
        &format!("(() => {{ const i = {fig}.querySelector('img'); return i.complete && i.naturalWidth > 0 && {SHOWS_ITS_HASH} ? i.dataset.hash : null; }})()"),
        60,
    );
    hash.as_str().unwrap().to_string()
}

/// JavaScript: whether `img` `i` shows the picture its `data-hash` names (fetched
/// by hash, or pushed with the update and shown from a `data:` URL).
const SHOWS_ITS_HASH: &str = "i.src.endsWith(window.cardstock.imgUrl(i.dataset.hash))";

/// How many pixels of face `id`'s image, as the page shows it, have colour `hex`.
fn pixels_of_colour(b: &mut cdp::Browser, id: &str, hex: &str) -> u64 {
    let js = format!(
        "(() => {{
            const img = document.querySelector('figure[data-id=\"{id}\"] img');
            const c = document.createElement('canvas');
            c.width = img.naturalWidth; c.height = img.naturalHeight;
            const g = c.getContext('2d');
            g.drawImage(img, 0, 0);
            const d = g.getImageData(0, 0, c.width, c.height).data;
            const want = [1, 3, 5].map(i => parseInt('{hex}'.substr(i, 2), 16));
            let n = 0;
            for (let i = 0; i < d.length; i += 4) if (d[i] === want[0] && d[i + 1] === want[1] && d[i + 2] === want[2]) n++;
            return n;
        }})()"
    );
    b.eval(&js).as_u64().unwrap()
}

#[test]
fn the_page_follows_edits_without_reloading_and_shows_errors() {
    let Some(chrome) = cdp::chromium_or_skip("the_page_follows_edits") else {
        return;
    };
    let tmp = project_copy(&[GAME]);
    let serve = Serve::start(tmp.path(), &[]);
    let mut b = cdp::Browser::open(&chrome, &serve.url, 1400, 1000);
    b.wait_for("document.querySelectorAll('figure.face').length > 100", 60);
    assert_eq!(
        b.eval("document.querySelector('#games').textContent"),
        "Interstate TruckingHome print-and-play · 150 dpi"
    );
    // The $100 bill: its background is the row's `fill`.
    let bill = "money/001-front";
    let old_hash = shown_hash(&mut b, bill);
    assert!(pixels_of_colour(&mut b, bill, "#d8e8c8") > 10_000);
    b.eval(&format!(
        "document.querySelector('figure[data-id=\"{bill}\"]').click()"
    ));
    let data = b.wait_for("document.querySelector('#detail-data').textContent", 10);
    assert!(data.as_str().unwrap().contains("fill#d8e8c8"), "{data}");
    // Anything a reload would lose.
    b.eval("window.sameDocument = 'yes'");
    let contract = shown_hash(&mut b, "contracts/012-front");

    let money = tmp.path().join("data").join(GAME).join("money.toml");
    b.eval("window.editedAt = performance.now()");
    edit(&money, "fill = \"#d8e8c8\"", "fill = \"#f0c020\"");
    b.wait_for(
        &format!(
            "document.querySelector('#detail-data').textContent.includes('fill#f0c020') && \
             document.querySelector('figure[data-id=\"{bill}\"] img').dataset.hash !== '{old_hash}'"
        ),
        60,
    );
    // The new image is in place (the page is still scrolled elsewhere): the
    // server pushed it with the update, so the page fetched no image.
    let new_hash = b.wait_for(
        &format!("(() => {{ const i = document.querySelector('figure[data-id=\"{bill}\"] img'); return i.complete && {SHOWS_ITS_HASH} ? i.dataset.hash : null; }})()"),
        60,
    );
    let new_hash = new_hash.as_str().unwrap().to_string();
    assert_eq!(images_fetched_since_edit(&mut b), serde_json::json!([]));
    assert_eq!(
        b.eval("window.cardstock.lastUpdate.images"),
        serde_json::json!([new_hash])
    );
    assert_eq!(shown_hash(&mut b, bill), new_hash);
    assert_ne!(new_hash, old_hash);
    assert!(pixels_of_colour(&mut b, bill, "#f0c020") > 10_000);
    assert_eq!(pixels_of_colour(&mut b, bill, "#d8e8c8"), 0);
    // Same document: no reload; the other faces kept their images.
    assert_eq!(b.eval("window.sameDocument"), "yes");
    assert_eq!(
        b.eval("performance.getEntriesByType('navigation').length"),
        1
    );
    assert_eq!(shown_hash(&mut b, "contracts/012-front"), contract);
    // The changed row is marked in the details.
    assert_eq!(
        b.eval("document.querySelector('#detail-data tr.changed th').textContent"),
        "fill"
    );

    // Break the file: the page shows where, and keeps the last good faces.
    edit(&money, "value = 500", "value = 500 dollars");
    let at = check_position(tmp.path());
    assert!(
        at.starts_with("data/interstate-trucking/money.toml:"),
        "{at}"
    );
    let shown = b.wait_for(
        "Array.from(document.querySelectorAll('#problems .diag .loc')).map(e => e.textContent).join('\\n')",
        60,
    );
    assert!(shown.as_str().unwrap().contains(&at), "{shown} vs {at}");
    let problem = b.eval("document.querySelector('#problems').innerText");
    let problem = problem.as_str().unwrap();
    assert!(problem.contains("value = 500 dollars"), "{problem}");
    assert_eq!(b.eval("document.body.classList.contains('stale')"), true);
    assert_eq!(b.eval("document.querySelector('#stale').hidden"), false);
    assert_eq!(shown_hash(&mut b, bill), new_hash);
    assert_eq!(b.eval("window.sameDocument"), "yes");

    // The status line says so (and flashed).
    let status = b.eval("document.querySelector('#status').className");
    assert!(status.as_str().unwrap().contains(" bad flash"), "{status}");
    let text = b.eval("document.querySelector('#status').textContent");
    assert!(
        text.as_str().unwrap().contains(" failed · 1 error"),
        "{text}"
    );

    // Fixed: the problems go, the faces are current again.
    edit(&money, "value = 500 dollars", "value = 500");
    b.wait_for("document.querySelector('#problems').hidden", 60);
    let status = b.eval("document.querySelector('#status').className");
    assert!(status.as_str().unwrap().contains(" ok flash"), "{status}");
    let text = b.eval("document.querySelector('#status').textContent");
    assert!(text.as_str().unwrap().starts_with("Build "), "{text}");
    assert!(!text.as_str().unwrap().contains("failed"), "{text}");
    assert_eq!(b.eval("document.body.classList.contains('stale')"), false);
    assert_eq!(b.eval("window.sameDocument"), "yes");
    drop(serve);
}

#[test]
fn a_search_and_the_sheets_follow_a_face_an_edit_changed() {
    let Some(chrome) = cdp::chromium_or_skip("a_search_and_the_sheets_follow_an_edit") else {
        return;
    };
    let tmp = project_copy(&[GAME]);
    let serve = Serve::start(tmp.path(), &[]);
    let mut b = cdp::Browser::open(&chrome, &serve.url, 1400, 1000);
    b.wait_for("document.querySelectorAll('figure.face').length > 100", 60);
    let card = "contracts/012-front";
    let old_card = shown_hash(&mut b, card);
    let faces = b.eval("window.cardstock.games.values().next().value.faces.size");
    // A search only the card will match once its city is Denver (it is Kansas City).
    b.eval(
        "{ const q = document.querySelector('#q'); q.value = 'contracts/012-front denver';
           q.dispatchEvent(new Event('input')); } true",
    );
    let shown = format!(
        "(() => {{ const f = document.querySelector('figure[data-id=\"{card}\"]');
            return [f.hidden, f.closest('section').hidden, document.querySelector('#count').textContent]; }})()"
    );
    let none = format!("0 of {faces} faces");
    assert_eq!(b.eval(&shown), serde_json::json!([true, true, none]));
    let contracts = tmp.path().join("data").join(GAME).join("contracts.toml");
    let text = std::fs::read_to_string(&contracts).unwrap();
    let moved = set_field(&text, "contract", 12, "city", "\"denver\"");
    let flash = |b: &mut cdp::Browser| {
        let class = b.eval("document.querySelector('#status').className");
        class
            .as_str()
            .unwrap()
            .split(' ')
            .next_back()
            .unwrap()
            .to_string()
    };
    let update = save_and_wait(&mut b, &contracts, moved.as_bytes());
    assert_eq!(update["faces"], serde_json::json!([card]), "{update}");
    let one = format!("1 of {faces} faces");
    assert_eq!(b.eval(&shown), serde_json::json!([false, false, one]));
    let first = flash(&mut b);

    // The sheets: only the card's placements' pictures came, not every sheet,
    // and the page's sheets are the server's.
    assert_eq!(update["sheets"], false, "{update}");
    assert!(update["placed"].as_u64().unwrap() >= 1, "{update}");
    let new_card = shown_hash(&mut b, card);
    assert_ne!(new_card, old_card);
    let same = "fetch('/api/state').then(r => r.json()).then(s =>
        JSON.stringify(s.games[0].sheets) === JSON.stringify(window.cardstock.games.values().next().value.sheets))";
    assert_eq!(b.eval(same), true);
    b.eval("document.querySelector('[data-view=\"sheets\"]').click(); true");
    let on_sheet = format!(
        "[...document.querySelectorAll('#sheets .clip[data-face=\"{card}\"] img')].map(i => i.src.endsWith(window.cardstock.imgUrl('{new_card}')))"
    );
    let placed = b.wait_for(&on_sheet, 60);
    assert!(
        !placed.as_array().unwrap().is_empty()
            && placed.as_array().unwrap().iter().all(|v| v == true),
        "{placed}"
    );

    // Back to Kansas City: the search lets it go again, the status flashes again.
    b.eval("document.querySelector('[data-view=\"faces\"]').click(); true");
    let update = save_and_wait(&mut b, &contracts, text.as_bytes());
    assert_eq!(update["faces"], serde_json::json!([card]), "{update}");
    assert_eq!(b.eval(&shown), serde_json::json!([true, true, none]));
    assert_ne!(flash(&mut b), first);
    assert_eq!(b.eval(same), true);
    assert_eq!(images_fetched_since_edit(&mut b), serde_json::json!([]));
    drop(serve);
}

/// The images the page requested since `window.editedAt`.
fn images_fetched_since_edit(b: &mut cdp::Browser) -> serde_json::Value {
    b.eval(
        "[...new Set(performance.getEntriesByType('resource').filter(e => e.startTime > window.editedAt && e.name.includes('/img/')).map(e => new URL(e.name).pathname))]",
    )
}

/// Saves `file` with `text` (or as it is, if `text` is `None`) and waits for the
/// page's next update; returns its faces and pushed images, `{faces, images}`.
fn save_and_wait(b: &mut cdp::Browser, file: &Path, text: &[u8]) -> serde_json::Value {
    let build = b.eval("window.cardstock.games.values().next().value.build");
    b.eval("window.editedAt = performance.now(); true");
    std::fs::write(file, text).unwrap();
    b.wait_for(
        &format!("(() => {{ const u = window.cardstock.lastUpdate; return u && u.build > {build} ? u : null; }})()"),
        60,
    );
    let update = b.eval("window.cardstock.lastUpdate");
    // Wait until the changed faces show their new images.
    b.wait_for(
        "[...document.querySelectorAll('figure.face img')].every(i => i.src.endsWith(window.cardstock.imgUrl(i.dataset.hash)))",
        60,
    );
    update
}

/// A PNG of `size` x `size` pixels of one colour.
fn solid_png(size: u32, rgb: [u8; 3]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut e = png::Encoder::new(&mut out, size, size);
    e.set_color(png::ColorType::Rgb);
    e.set_depth(png::BitDepth::Eight);
    let data: Vec<u8> = (0..size * size).flat_map(|_| rgb).collect();
    e.write_header().unwrap().write_image_data(&data).unwrap();
    out
}

#[test]
fn an_edit_sends_the_page_only_the_faces_it_changed() {
    let Some(chrome) = cdp::chromium_or_skip("an_edit_sends_only_the_faces_it_changed") else {
        return;
    };
    let tmp = project_copy(&[GAME]);
    // The bills (3 faces) show an image file; nothing else does.
    let templates = tmp.path().join("templates").join(GAME);
    let stamp = templates.join("stamp.png");
    std::fs::write(&stamp, solid_png(120, [200, 30, 30])).unwrap();
    edit(
        &templates.join("bill.svg"),
        "{% endblock %}",
        "<image href=\"stamp.png\" x=\"4\" y=\"12\" width=\"8\" height=\"8\"/>\n{% endblock %}",
    );
    let serve = Serve::start(tmp.path(), &[]);
    let mut b = cdp::Browser::open(&chrome, &serve.url, 1400, 1000);
    b.wait_for("document.querySelectorAll('figure.face').length > 100", 60);
    let card = "contracts/012-front";
    let old_card = shown_hash(&mut b, card);
    let bills: Vec<String> = (1..=3).map(|n| format!("money/{n:03}-front")).collect();
    let old_bills: Vec<String> = bills.iter().map(|id| shown_hash(&mut b, id)).collect();

    // One contract's city: that card, and only its image, is sent.
    let contracts = tmp.path().join("data").join(GAME).join("contracts.toml");
    let text = std::fs::read_to_string(&contracts).unwrap();
    let moved = set_field(&text, "contract", 12, "city", "\"denver\"");
    let update = save_and_wait(&mut b, &contracts, moved.as_bytes());
    let new_card = shown_hash(&mut b, card);
    assert_ne!(new_card, old_card);
    assert_eq!(update["faces"], serde_json::json!([card]), "{update}");
    assert_eq!(update["images"], serde_json::json!([new_card]), "{update}");
    assert_eq!(images_fetched_since_edit(&mut b), serde_json::json!([]));
    // The build line says so: the card's two sides rendered, the rest kept.
    let line = serve.line_with("1 face changed");
    assert!(line.contains("(2 rendered, "), "{line}");
    let kept: usize = line
        .split("rendered, ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(kept > 200, "{line}");

    // A save that changes no face (a comment at the end): nothing is sent.
    let commented = format!("{moved}\n# a note\n");
    let update = save_and_wait(&mut b, &contracts, commented.as_bytes());
    assert_eq!(update["faces"], serde_json::json!([]), "{update}");
    assert_eq!(update["images"], serde_json::json!([]), "{update}");
    assert_eq!(shown_hash(&mut b, card), new_card);

    // A new image file: the faces that show it, and no other.
    let update = save_and_wait(&mut b, &stamp, &solid_png(120, [30, 30, 200]));
    assert_eq!(update["faces"], serde_json::json!(bills), "{update}");
    let new_bills: Vec<String> = bills.iter().map(|id| shown_hash(&mut b, id)).collect();
    assert_eq!(update["images"], serde_json::json!(new_bills), "{update}");
    for (new, old) in new_bills.iter().zip(&old_bills) {
        assert_ne!(new, old);
    }
    assert_eq!(shown_hash(&mut b, card), new_card);
    assert_eq!(images_fetched_since_edit(&mut b), serde_json::json!([]));
    drop(serve);
}

#[test]
fn the_page_shows_the_same_pixels_as_the_png_export() {
    let Some(chrome) = cdp::chromium_or_skip("the_page_shows_the_same_pixels") else {
        return;
    };
    let tmp = project_copy(&[GAME]);
    let out = tempfile::tempdir().unwrap();
    let o = run(
        tmp.path(),
        &[
            "build",
            GAME,
            "--format",
            "png",
            "--dpi",
            "150",
            "--out",
            out.path().to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{:?}", texts(&o));
    let serve = Serve::start(tmp.path(), &["--dpi", "150"]);
    let mut b = cdp::Browser::open(&chrome, &serve.url, 1400, 1000);
    for id in [
        "contracts/012-front",
        "contracts/001-back",
        "goods-chits/003-front",
    ] {
        let file = out
            .path()
            .join(GAME)
            .join("home/png")
            .join(format!("{id}.png"));
        let exported = std::fs::read(&file).unwrap();
        shown_hash(&mut b, id);
        // The picture as the browser decoded it for the page.
        let js = format!(
            "(() => {{
                const img = document.querySelector('figure[data-id=\"{id}\"] img');
                const c = document.createElement('canvas');
                c.width = img.naturalWidth; c.height = img.naturalHeight;
                const g = c.getContext('2d');
                g.drawImage(img, 0, 0);
                const d = g.getImageData(0, 0, c.width, c.height).data;
                let s = '';
                for (let i = 0; i < d.length; i += 0x8000) s += String.fromCharCode.apply(null, d.subarray(i, i + 0x8000));
                return [c.width, c.height, btoa(s)];
            }})()"
        );
        let v = b.eval(&js);
        let (w, h) = (v[0].as_u64().unwrap(), v[1].as_u64().unwrap());
        let shown = base64::Engine::decode(
            &base64::engine::general_purpose::STANDARD,
            v[2].as_str().unwrap().as_bytes(),
        )
        .unwrap();
        let mut decoder = png::Decoder::new(std::io::Cursor::new(&exported));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((w, h), (info.width as u64, info.height as u64), "{id}");
        let rgba: Vec<u8> = match info.color_type {
            png::ColorType::Rgba => buf[..info.buffer_size()].to_vec(),
            png::ColorType::Rgb => buf[..info.buffer_size()]
                .chunks(3)
                .flat_map(|p| [p[0], p[1], p[2], 255])
                .collect(),
            other => panic!("{id}: unexpected PNG colour type {other:?}"),
        };
        // Opaque pixels must be identical; a canvas stores premultiplied colour,
        // so a translucent pixel may come back off by the rounding of that
        // (at most 255 / alpha levels).
        assert_eq!(shown.len(), rgba.len());
        let mut worst = 0;
        for (p, q) in shown.chunks(4).zip(rgba.chunks(4)) {
            assert_eq!(p[3], q[3], "{id}: alpha differs");
            let allowed = if q[3] == 255 {
                0
            } else {
                255 / q[3].max(1) as i32 + 1
            };
            for c in 0..3 {
                let d = (p[c] as i32 - q[c] as i32).abs();
                assert!(d <= allowed, "{id}: {p:?} shown, {q:?} exported");
                worst = worst.max(d);
            }
        }
        // And the page's image is the export, byte for byte.
        let served = b.eval(&format!(
            "fetch(document.querySelector('figure[data-id=\"{id}\"] img').src).then(r => r.arrayBuffer()).then(a => {{ const d = new Uint8Array(a); let s = ''; for (let i = 0; i < d.length; i += 0x8000) s += String.fromCharCode.apply(null, d.subarray(i, i + 0x8000)); return btoa(s); }})"
        ));
        let served = base64::Engine::decode(
            &base64::engine::general_purpose::STANDARD,
            served.as_str().unwrap().as_bytes(),
        )
        .unwrap();
        assert!(
            served == exported,
            "{id}: the served PNG is not the exported one"
        );
        eprintln!("{id}: {w} x {h} px, largest channel difference {worst}");
    }
}

/// Sends one raw request line (paths a browser would normalise) and returns the
/// status code of the answer.
pub(crate) fn status_of(addr: &str, method: &str, target: &str, host: &str) -> u16 {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "{method} {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
    )
    .unwrap();
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    let head = String::from_utf8_lossy(&answer);
    let status = head.split_whitespace().nth(1).unwrap_or("");
    status
        .parse()
        .unwrap_or_else(|_| panic!("{method} {target}: no status in {head:?}"))
}

#[test]
fn paths_outside_the_build_are_not_found_and_nothing_is_written() {
    let tmp = project_copy(&[GAME]);
    let listing = |dir: &Path| {
        let mut all = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p.clone());
                }
                let m = e.metadata().unwrap();
                all.push((p, m.len(), m.modified().unwrap()));
            }
        }
        all.sort();
        all
    };
    let before = listing(tmp.path());
    let serve = Serve::start(tmp.path(), &[]);
    let addr = serve.addr();
    let host = addr.as_str();
    // The page, its files and its state are there...
    for ok in ["/", "/app.js", "/app.css", "/api/state", "/?x=1"] {
        assert_eq!(status_of(&addr, "GET", ok, host), 200, "{ok}");
    }
    let state = {
        let mut s = std::net::TcpStream::connect(&addr).unwrap();
        write!(
            s,
            "GET /api/state HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut a = String::new();
        s.read_to_string(&mut a).unwrap();
        a
    };
    let at = state.find("\"hash\":\"").unwrap() + 8;
    let hash = &state[at..at + 32];
    assert_eq!(
        status_of(&addr, "GET", &format!("/img/{hash}.png"), host),
        200
    );
    // ... and nothing else.
    let game_toml = format!("data/{GAME}/game.toml");
    for bad in [
        "/../data/interstate-trucking/game.toml".to_string(),
        format!("/{game_toml}"),
        "/etc/passwd".to_string(),
        "//etc/passwd".to_string(),
        "/%2e%2e/%2e%2e/etc/passwd".to_string(),
        "/..%2f..%2fetc%2fpasswd".to_string(),
        "/%2E%2E%5C%2E%2E%5Cetc%5Cpasswd".to_string(),
        format!("/img/../{game_toml}"),
        format!("/img/{hash}.png/../../../etc/passwd"),
        format!("/img/{}.png", "0".repeat(32)),
        format!("/img/{}.png", hash.to_uppercase()),
        format!("/img/{hash}.svg"),
        "/app.js/../../Cargo.toml".to_string(),
        "/index.html".to_string(),
        "/output/interstate-trucking/home/interstate-trucking.pdf".to_string(),
        "/ws".to_string(), // not a WebSocket request
        "http://127.0.0.1/etc/passwd".to_string(),
        "*".to_string(),
    ] {
        assert_eq!(status_of(&addr, "GET", &bad, host), 404, "{bad}");
    }
    // Another host name (a DNS-rebinding page) gets nothing either.
    assert_eq!(
        status_of(&addr, "GET", "/api/state", "evil.example:80"),
        404
    );
    // Nothing can be written.
    for method in ["PUT", "POST", "DELETE", "PATCH"] {
        assert_eq!(status_of(&addr, method, "/", host), 405, "{method}");
        assert_eq!(
            status_of(&addr, method, &format!("/{game_toml}"), host),
            405
        );
    }
    drop(serve);
    assert_eq!(listing(tmp.path()), before, "serve changed the project");
}

/// Where the details say the face of card `two` is written, in the fixtures' mini
/// game with its cards in `table_file` (written by `write`) instead of TOML.
fn location_of_two(write: impl FnOnce(&Path)) -> Option<cardstock::preview::Location> {
    let tmp = tempfile::tempdir().unwrap();
    crate::common::copy_dir(
        &crate::common::repo().join("tests/fixtures/base"),
        tmp.path(),
    );
    crate::common::copy_dir(
        &crate::common::repo().join("templates/common"),
        &tmp.path().join("templates/common"),
    );
    std::fs::remove_file(tmp.path().join("data/mini/cards.toml")).unwrap();
    write(tmp.path());
    let project = cardstock::project::Project::disk(tmp.path()).unwrap();
    let opts = crate::common::screen_options(cardstock::options::Asked {
        dpi: 50.0,
        ..Default::default()
    });
    let p = cardstock::preview::build(&project, "mini", &opts, &Default::default());
    assert!(p.ok, "{:?}", p.diagnostics);
    let face = p
        .faces
        .iter()
        .find(|f| f.side == "front" && f.data["id"] == "two")
        .expect("a face of `two`");
    face.source.clone()
}

#[test]
fn the_details_locate_a_spreadsheet_row_like_a_toml_one() {
    let csv = location_of_two(|root| {
        let fixture = crate::common::repo().join("tests/fixtures/valid-csv-table");
        crate::common::copy_dir(&fixture.join("data"), &root.join("data"));
        crate::common::copy_dir(&fixture.join("templates"), &root.join("templates"));
        let _ = std::fs::remove_file(root.join("data/mini/cards.toml.delete"));
    });
    assert_eq!(
        csv,
        Some(cardstock::preview::Location {
            file: "data/mini/card.csv".into(),
            sheet: None,
            line: 3,
            column: 1,
        })
    );
    let xlsx = location_of_two(|root| {
        use rust_xlsxwriter::Workbook;
        let mut book = Workbook::new();
        let sheet = book.add_worksheet();
        sheet.set_name("card").unwrap();
        // The table starts in column B, on row 2.
        for (c, h) in ["id", "name", "suit", "value", "qty"].iter().enumerate() {
            sheet.write(1, 1 + c as u16, *h).unwrap();
        }
        for (r, (id, suit)) in [("ace", "sun"), ("two", "moon"), ("three", "sun")]
            .iter()
            .enumerate()
        {
            let r = 2 + r as u32;
            sheet.write(r, 1, *id).unwrap();
            sheet.write(r, 2, id.to_uppercase()).unwrap();
            sheet.write(r, 3, *suit).unwrap();
            sheet.write(r, 4, r as f64).unwrap();
        }
        sheet.write(3, 5, 2).unwrap(); // two copies of `two`, as the rules count
        book.save(root.join("data/mini/cards.xlsx")).unwrap();
    });
    assert_eq!(
        xlsx,
        Some(cardstock::preview::Location {
            file: "data/mini/cards.xlsx".into(),
            sheet: Some("card".into()),
            line: 4,
            column: 2,
        })
    );
}
