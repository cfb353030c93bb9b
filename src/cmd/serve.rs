//! `cardstock serve`: build, then serve a page with every face, the sheets of the
//! profile and the diagnostics, and rebuild on every save. The open page gets the
//! changes over a WebSocket: the images of the faces that changed (binary
//! frames, rasterised in parallel as soon as the build is done), then a message
//! with only those faces. The first load fetches images by content hash.
//!
//! HTTP is tiny_http (no hand-written parsing), the WebSocket tungstenite. Every
//! answer comes from memory: the page's three files (compiled in), the builds'
//! JSON and the PNG of a picture of the current build, by hash. No request names a
//! file, so none can read outside the project; no request writes anything.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::{mpsc, Arc, Mutex, OnceLock, RwLock};
use std::time::Duration;

use serde_json::{json, Value};
use tiny_http::{Header, Method, Request, Response, Server};

use super::changes::{art_changed, fingerprint, Changes, Fingerprint};
use cardstock::diag::{Diagnostic, Diagnostics};
use cardstock::layout::{Paper, PAPERS};
use cardstock::preview::{self, Preview};
use cardstock::project::Project;

/// Arguments of `serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Games to preview (folder names under data/); default: all of them.
    pub games: Vec<String>,
    /// Port to listen on; 0 takes any free port. The page's address is printed.
    #[arg(long, default_value_t = 7171, value_name = "N")]
    pub port: u16,
    /// Address to listen on. The default answers this machine only; any other
    /// address lets every machine that reaches it read the preview.
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDRESS")]
    pub host: String,
    /// Print profile whose sheets the page shows (a file in profiles/); default:
    /// the game's `[game] profile`, else home.
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<String>,
    /// Paper for the print-and-play sheets: letter or a4.
    #[arg(long, default_value = "letter", value_name = "PAPER")]
    pub paper: String,
    /// Resolution of the face images on the page, in dots per inch (the real-size
    /// view needs about 150 on most screens).
    #[arg(long, default_value_t = 150.0, value_name = "DPI")]
    pub dpi: f64,
    #[command(flatten)]
    pub common: super::Common,
}

/// The page's files, compiled in.
const INDEX_HTML: &str = include_str!("serve/index.html");
const APP_JS: &str = include_str!("serve/app.js");
const APP_CSS: &str = include_str!("serve/app.css");

/// Threads answering requests (a WebSocket gets a thread of its own).
const WORKERS: usize = 4;

/// One game's builds.
struct GameState {
    id: String,
    /// The last build without errors: the faces the page shows.
    good: Option<Arc<Preview>>,
    /// The last build.
    last: Arc<Preview>,
    /// Builds so far.
    builds: u64,
}

/// What the request threads share with the build loop.
struct Shared {
    games: RwLock<Vec<GameState>>,
    /// Open pages: each gets every update message (and the images before it).
    pages: Mutex<Vec<mpsc::Sender<Frame>>>,
    /// PNG of each picture of the current builds, made on first request.
    pngs: Mutex<HashMap<String, Arc<OnceLock<Option<Png>>>>>,
    /// `Host` headers to answer (loopback only); empty: any.
    hosts: Vec<String>,
}

/// What the WebSocket sends a page.
#[derive(Clone)]
enum Frame {
    /// A JSON message.
    Text(Arc<str>),
    /// A picture: its hash (32 ASCII bytes) then its PNG, in one binary frame.
    Image(Arc<str>, Png),
}

/// What `serve` works on, checked once.
struct Plan {
    root: PathBuf,
    project: Project,
    games: Vec<String>,
    opts: preview::Options,
    ip: IpAddr,
}

/// Runs `serve` until interrupted; returns the exit status.
pub fn run(args: &Args) -> i32 {
    let plan = match prepare(args) {
        Ok(p) => p,
        Err(d) => {
            let mut ds = Diagnostics::default();
            ds.push(d);
            return super::finish(ds, &(), false);
        }
    };
    if !plan.ip.is_loopback() {
        eprintln!(
            "warning: listening on {}: every machine that can reach this address can read the preview",
            plan.ip
        );
    }
    let server = match Server::http(SocketAddr::new(plan.ip, args.port)) {
        Ok(s) => s,
        Err(e) => {
            let d = Diagnostic::error(format!(
                "cannot listen on {} port {}: {e}",
                plan.ip, args.port
            ))
            .hint("choose another port with --port N, or --port 0 for any free one");
            let mut ds = Diagnostics::default();
            ds.push(d);
            return super::finish(ds, &(), false);
        }
    };
    let Some(addr) = server.server_addr().to_ip() else {
        eprintln!("error: the server has no IP address");
        return 1;
    };
    let hosts = if plan.ip.is_loopback() {
        let p = addr.port();
        vec![
            format!("127.0.0.1:{p}"),
            format!("localhost:{p}"),
            format!("[::1]:{p}"),
        ]
    } else {
        Vec::new()
    };
    // Taken before the first build: a save during it is seen by the loop.
    let seen = fingerprint(&plan.root);
    let caches: Vec<preview::Cache> = plan
        .games
        .iter()
        .map(|_| preview::Cache::default())
        .collect();
    let mut states = Vec::new();
    for (id, cache) in plan.games.iter().zip(&caches) {
        let p = Arc::new(preview::build(&plan.project.fresh(), id, &plan.opts, cache));
        report(&p, None, None);
        states.push(GameState {
            id: id.clone(),
            good: p.ok.then(|| p.clone()),
            last: p,
            builds: 1,
        });
    }
    let shared = Arc::new(Shared {
        games: RwLock::new(states),
        pages: Mutex::new(Vec::new()),
        pngs: Mutex::new(HashMap::new()),
        hosts,
    });
    prerender(&shared, None);
    let server = Arc::new(server);
    for _ in 0..WORKERS {
        let (server, shared) = (server.clone(), shared.clone());
        std::thread::spawn(move || {
            while let Ok(rq) = server.recv() {
                answer(&shared, rq);
            }
        });
    }
    let url = match addr {
        SocketAddr::V6(a) => format!("http://[{}]:{}/", a.ip(), a.port()),
        SocketAddr::V4(a) => format!("http://{a}/"),
    };
    super::say(&format!(
        "serving {} at {url} (rebuilding on every save; Ctrl-C to stop)\n",
        plan.games.join(", ")
    ));
    follow(&plan, &shared, caches, seen)
}

/// Checks the arguments; on a problem returns it.
fn prepare(args: &Args) -> Result<Plan, Diagnostic> {
    let found = args.common.project().map_err(Diagnostic::error)?;
    let fail = |d: Diagnostic| d;
    let paper = Paper::named(&args.paper).ok_or_else(|| {
        let names: Vec<&str> = PAPERS.iter().map(|p| p.name).collect();
        fail(
            Diagnostic::error(format!("unknown paper `{}`", args.paper))
                .hint(format!("use one of: {}", names.join(", "))),
        )
    })?;
    if !(10.0..=600.0).contains(&args.dpi) {
        return Err(fail(
            Diagnostic::error(format!("--dpi {} is outside 10..600", args.dpi))
                .hint("150 is sharp on most screens"),
        ));
    }
    let games = super::select_games(&found.project, &args.games)?;
    let ip = match args.host.as_str() {
        "localhost" => IpAddr::from([127, 0, 0, 1]),
        h => h.parse::<IpAddr>().map_err(|_| {
            fail(
                Diagnostic::error(format!("--host `{h}` is not an IP address"))
                    .hint("use 127.0.0.1 (this machine only), or an address of this machine"),
            )
        })?,
    };
    Ok(Plan {
        root: found.root,
        project: found.project,
        games,
        opts: preview::Options {
            paper,
            profile: args.profile.clone(),
            dpi: args.dpi,
        },
        ip,
    })
}

/// The build loop: on every save, rebuilds the games it touches and sends each
/// open page what changed. Runs until the process is stopped.
fn follow(
    plan: &Plan,
    shared: &Arc<Shared>,
    mut caches: Vec<preview::Cache>,
    mut last: Fingerprint,
) -> i32 {
    let changes = Changes::new(&plan.root);
    loop {
        changes.wait();
        let now = fingerprint(&plan.root);
        if now == last {
            continue;
        }
        if art_changed(&last, &now) {
            caches.iter_mut().for_each(preview::Cache::images_changed);
        }
        let touched = touched_games(&last, &now, &plan.root, &plan.games);
        last = now;
        for (i, cache) in caches.iter().enumerate().filter(|(i, _)| touched[*i]) {
            let p = Arc::new(preview::build(
                &plan.project.fresh(),
                &plan.games[i],
                &plan.opts,
                cache,
            ));
            // The images of the faces that changed, made on all cores before the
            // page hears of them, and sent ahead of the message that names them.
            let images = match shared.games.read() {
                Ok(states) => new_pictures(states[i].good.as_deref(), &p),
                Err(_) => return 1,
            };
            let images: Vec<Frame> = {
                use rayon::prelude::*;
                images
                    .par_iter()
                    .filter_map(|h| Some(Frame::Image(h.as_str().into(), png_of(shared, &p, h)?)))
                    .collect()
            };
            {
                let Ok(mut states) = shared.games.write() else {
                    return 1;
                };
                let st = &mut states[i];
                report(&p, st.good.as_deref(), Some(cache.last_work()));
                let message = update(st, &p);
                st.builds += 1;
                if p.ok {
                    st.good = Some(p.clone());
                }
                st.last = p;
                // Under the lock: a page that opens now gets this build either in
                // its first message or as this update, never both.
                for image in images {
                    broadcast(shared, image);
                }
                broadcast(shared, Frame::Text(message.into()));
            }
            forget_old_pngs(shared);
            prerender(shared, Some(i));
        }
    }
}

/// Which games a change can affect: a file under `data/<game>/` or
/// `templates/<game>/` affects that game only; anything else every game.
fn touched_games(
    old: &Fingerprint,
    new: &Fingerprint,
    root: &std::path::Path,
    games: &[String],
) -> Vec<bool> {
    let (a, b): (std::collections::BTreeSet<_>, std::collections::BTreeSet<_>) =
        (old.iter().collect(), new.iter().collect());
    let mut touched = vec![false; games.len()];
    for (path, ..) in a.symmetric_difference(&b) {
        let rel = path.strip_prefix(root).unwrap_or(path);
        let mut parts = rel.components().map(|c| c.as_os_str().to_string_lossy());
        let (top, game) = (parts.next(), parts.next());
        let own = matches!(top.as_deref(), Some("data" | "templates"))
            && parts.next().is_some()
            && game.as_deref() != Some("common");
        for (i, g) in games.iter().enumerate() {
            touched[i] |= !own || game.as_deref() == Some(g.as_str());
        }
    }
    touched
}

/// Prints one line per build, and each diagnostic on a line with its hint.
/// With `work` (faces parsed and preflighted), says how much of the build was
/// done again.
fn report(p: &Preview, before: Option<&Preview>, work: Option<(usize, usize)>) {
    let changed = before.map(|b| {
        p.faces
            .iter()
            .filter(|f| !b.faces.iter().any(|o| o.id == f.id && o.hash == f.hash))
            .count()
    });
    let what = match (p.ok, changed) {
        (false, _) => "has errors; the page keeps the last good faces".to_string(),
        (true, None) => format!("{} faces", p.faces.len()),
        (true, Some(1)) => "1 face changed".to_string(),
        (true, Some(n)) => format!("{n} faces changed"),
    };
    let what = match work {
        Some((parsed, checked)) if p.ok => {
            format!("{what} ({parsed} parsed, {checked} preflighted)")
        }
        _ => what,
    };
    super::say(&format!(
        "{}: built in {:.0} ms, {what}\n",
        p.game, p.took_ms
    ));
    let mut text = String::new();
    for d in &p.diagnostics {
        let at = match (&d.file, d.line, d.column) {
            (Some(f), Some(l), Some(c)) => format!("{f}:{l}:{c}: "),
            (Some(f), ..) => format!("{f}: "),
            _ => String::new(),
        };
        text.push_str(&format!("{}: {at}{}\n", d.severity, d.message));
        if let Some(h) = &d.hint {
            text.push_str(&format!("  hint: {h}\n"));
        }
    }
    if !text.is_empty() {
        use std::io::Write;
        let _ = std::io::stderr().lock().write_all(text.as_bytes());
    }
}

/// A game as the page first sees it: the last good faces and sheets, and the
/// last build's diagnostics.
fn full(st: &GameState) -> Value {
    let shown = st.good.as_ref().unwrap_or(&st.last);
    let mut v = serde_json::to_value(shown.as_ref()).unwrap_or(Value::Null);
    v["ok"] = json!(st.last.ok);
    v["took_ms"] = json!(st.last.took_ms);
    v["diagnostics"] = serde_json::to_value(&st.last.diagnostics).unwrap_or(Value::Null);
    v["name"] = json!(st.last.name.clone().or_else(|| shown.name.clone()));
    v["build"] = json!(st.builds);
    v
}

/// The message for a new build `p` of the game in `st`: the faces that differ
/// from the last good build (new picture or new data), the ids in order, and the
/// sheets, sets and diagnostics when they changed (an edit of one face of a deck
/// whose every face has a warning need not send and show them all again). A
/// build with errors sends no face.
fn update(st: &GameState, p: &Preview) -> String {
    let mut msg = json!({
        "type": "update",
        "game": st.id,
        "name": p.name,
        "ok": p.ok,
        "took_ms": p.took_ms,
        "build": st.builds + 1,
    });
    if p.diagnostics != st.last.diagnostics {
        msg["diagnostics"] = json!(p.diagnostics);
    }
    if p.ok {
        let old = st.good.as_deref();
        let changed: Vec<&preview::Face> = p
            .faces
            .iter()
            .filter(|f| !old.is_some_and(|o| o.faces.iter().any(|g| g == *f)))
            .collect();
        msg["faces"] = json!(changed);
        let ids = |q: &Preview| q.faces.iter().map(|f| f.id.clone()).collect::<Vec<_>>();
        if old.map(ids) != Some(ids(p)) {
            msg["order"] = json!(ids(p));
        }
        if old.map(|o| &o.sheets) != Some(&p.sheets) {
            msg["sheets"] = json!(p.sheets);
        }
        if old.map(|o| &o.sets) != Some(&p.sets) {
            msg["sets"] = json!(p.sets);
        }
    }
    msg.to_string()
}

/// The pictures of the faces of build `p` that the last good build `old` did not
/// have: the images a page showing `old` lacks (none for a build with errors).
fn new_pictures(old: Option<&Preview>, p: &Preview) -> Vec<String> {
    if !p.ok {
        return Vec::new();
    }
    let had: std::collections::HashSet<&str> = old
        .iter()
        .flat_map(|o| o.faces.iter().map(|f| f.hash.as_str()))
        .collect();
    let mut out: Vec<String> = Vec::new();
    for f in &p.faces {
        if !had.contains(f.hash.as_str()) && !out.contains(&f.hash) {
            out.push(f.hash.clone());
        }
    }
    out
}

/// Sends a frame to every open page, forgetting the closed ones.
fn broadcast(shared: &Shared, message: Frame) {
    if let Ok(mut pages) = shared.pages.lock() {
        pages.retain(|tx| tx.send(message.clone()).is_ok());
    }
}

/// The build that holds picture `hash`, if any current one does.
fn holder(shared: &Shared, hash: &str) -> Option<Arc<Preview>> {
    let games = shared.games.read().ok()?;
    games
        .iter()
        .filter_map(|g| g.good.as_ref())
        .find(|p| p.hashes().any(|h| h == hash))
        .cloned()
}

/// A picture's PNG bytes (or a page file), shared by every answer that sends them.
type Png = Arc<[u8]>;

/// The PNG of picture `hash` of a current build, made once (concurrent requests
/// wait for it).
fn png(shared: &Shared, hash: &str) -> Option<Png> {
    png_of(shared, &*holder(shared, hash)?, hash)
}

/// The PNG of picture `hash` of build `preview` (current or about to be), made
/// once and kept until no current build has it.
fn png_of(shared: &Shared, preview: &Preview, hash: &str) -> Option<Png> {
    let cell = shared
        .pngs
        .lock()
        .ok()?
        .entry(hash.to_string())
        .or_default()
        .clone();
    cell.get_or_init(|| preview.png(hash)?.ok().map(Png::from))
        .clone()
}

/// Drops the PNGs of pictures no current build has, so a long session holds only
/// the current faces.
fn forget_old_pngs(shared: &Shared) {
    let Ok(games) = shared.games.read() else {
        return;
    };
    let live: std::collections::HashSet<&str> = games
        .iter()
        .filter_map(|g| g.good.as_deref())
        .flat_map(Preview::hashes)
        .collect();
    if let Ok(mut pngs) = shared.pngs.lock() {
        pngs.retain(|h, _| live.contains(h.as_str()));
    }
}

/// Makes the PNGs of the faces of game `only` (or of every game) on a
/// background thread, so the page's requests find them ready.
fn prerender(shared: &Arc<Shared>, only: Option<usize>) {
    let hashes: Vec<String> = match shared.games.read() {
        Ok(games) => games
            .iter()
            .enumerate()
            .filter(|(i, _)| only.is_none_or(|o| o == *i))
            .filter_map(|(_, g)| g.good.as_deref())
            .flat_map(|p| p.faces.iter().map(|f| f.hash.clone()))
            .collect(),
        Err(_) => return,
    };
    let shared = shared.clone();
    rayon::spawn(move || {
        use rayon::prelude::*;
        hashes.par_iter().for_each(|h| {
            png(&shared, h);
        });
    });
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes())
        .unwrap_or_else(|_| Header::from_bytes(&b"X-Invalid"[..], &b"1"[..]).unwrap())
}

/// Headers every answer carries: no sniffing, no framing, only this origin.
fn secure<R: std::io::Read>(r: Response<R>) -> Response<R> {
    r.with_header(header("X-Content-Type-Options", "nosniff"))
        .with_header(header("X-Frame-Options", "DENY"))
        .with_header(header("Referrer-Policy", "no-referrer"))
        .with_header(header(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'",
        ))
}

type Body = std::io::Cursor<Png>;

fn bytes(status: u16, kind: &str, cache: &str, body: Png) -> Response<Body> {
    let len = body.len();
    secure(Response::new(
        status.into(),
        vec![header("Content-Type", kind), header("Cache-Control", cache)],
        std::io::Cursor::new(body),
        Some(len),
        None,
    ))
}

fn not_found() -> Response<Body> {
    bytes(
        404,
        "text/plain; charset=utf-8",
        "no-store",
        Png::from(&b"not found\n"[..]),
    )
}

fn header_value<'a>(rq: &'a Request, name: &'static str) -> Option<&'a str> {
    rq.headers()
        .iter()
        .find(|h| h.field.equiv(name))
        .map(|h| h.value.as_str())
}

/// Answers one request. Only these paths exist: `/`, `/app.js`, `/app.css`,
/// `/api/state`, `/ws` and `/img/<hash>.png` for a picture of a current build.
fn answer(shared: &Arc<Shared>, rq: Request) {
    let host_ok = shared.hosts.is_empty()
        || header_value(&rq, "Host").is_some_and(|h| shared.hosts.iter().any(|a| a == h));
    if !host_ok {
        // A name that is not this machine's: a DNS-rebinding page, not a browser tab
        // opened on the printed address.
        let _ = rq.respond(not_found());
        return;
    }
    if !matches!(rq.method(), Method::Get | Method::Head) {
        let r = bytes(
            405,
            "text/plain; charset=utf-8",
            "no-store",
            Png::from(&b"read only\n"[..]),
        )
        .with_header(header("Allow", "GET, HEAD"));
        let _ = rq.respond(r);
        return;
    }
    let path = rq.url().split('?').next().unwrap_or("").to_string();
    let text = |kind: &str, body: &str| bytes(200, kind, "no-cache", Png::from(body.as_bytes()));
    let response = match path.as_str() {
        "/" => text("text/html; charset=utf-8", INDEX_HTML),
        "/app.js" => text("text/javascript; charset=utf-8", APP_JS),
        "/app.css" => text("text/css; charset=utf-8", APP_CSS),
        "/api/state" => match state(shared) {
            Some(v) => bytes(
                200,
                "application/json",
                "no-store",
                Png::from(v.to_string().as_bytes()),
            ),
            None => not_found(),
        },
        "/ws" => return websocket(shared, rq),
        _ => match picture_hash(&path).and_then(|h| png(shared, h)) {
            Some(png) => bytes(200, "image/png", "public, max-age=31536000, immutable", png),
            None => not_found(),
        },
    };
    let _ = rq.respond(response);
}

/// `/img/<32 hex digits>.png` -> the hash.
fn picture_hash(path: &str) -> Option<&str> {
    let h = path.strip_prefix("/img/")?.strip_suffix(".png")?;
    (h.len() == 32
        && h.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
    .then_some(h)
}

/// Every game as the page first sees it.
fn state(shared: &Shared) -> Option<Value> {
    let games = shared.games.read().ok()?;
    Some(json!({ "type": "full", "games": games.iter().map(full).collect::<Vec<_>>() }))
}

/// Opens the page's WebSocket: the full state first, then every update, until the
/// page goes away.
fn websocket(shared: &Arc<Shared>, rq: Request) {
    let key = header_value(&rq, "Sec-WebSocket-Key").map(str::to_string);
    let upgrade = header_value(&rq, "Upgrade").is_some_and(|u| u.eq_ignore_ascii_case("websocket"));
    // Only the page itself may listen (a browser always sends the Origin).
    let origin_ok = match (header_value(&rq, "Origin"), header_value(&rq, "Host")) {
        (Some(o), Some(h)) => o == format!("http://{h}"),
        (None, _) => true,
        _ => false,
    };
    let Some(key) = key.filter(|_| upgrade && origin_ok) else {
        let _ = rq.respond(not_found());
        return;
    };
    let accept = tungstenite::handshake::derive_accept_key(key.as_bytes());
    let (tx, rx) = mpsc::channel::<Frame>();
    // Subscribe and take the state under one lock: no update is lost or doubled.
    let first = {
        let Ok(games) = shared.games.read() else {
            return;
        };
        if let Ok(mut pages) = shared.pages.lock() {
            pages.push(tx);
        }
        json!({ "type": "full", "games": games.iter().map(full).collect::<Vec<_>>() }).to_string()
    };
    let response = Response::empty(101).with_header(header("Sec-WebSocket-Accept", &accept));
    let stream = rq.upgrade("websocket", response);
    std::thread::spawn(move || {
        use tungstenite::{protocol::Role, Message, WebSocket};
        let mut ws = WebSocket::from_raw_socket(stream, Role::Server, None);
        if ws.send(Message::text(first)).is_err() {
            return;
        }
        loop {
            let sent = match rx.recv_timeout(Duration::from_secs(20)) {
                Ok(Frame::Text(m)) => ws.send(Message::text(m.to_string())),
                Ok(Frame::Image(hash, png)) => {
                    let mut frame = Vec::with_capacity(hash.len() + png.len());
                    frame.extend_from_slice(hash.as_bytes());
                    frame.extend_from_slice(&png);
                    ws.send(Message::binary(frame))
                }
                // A ping now and then finds pages that went away without a word.
                Err(mpsc::RecvTimeoutError::Timeout) => ws.send(Message::Ping(Default::default())),
                Err(mpsc::RecvTimeoutError::Disconnected) => return,
            };
            if sent.is_err() {
                return;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_picture_paths_name_pictures() {
        let h = "0123456789abcdef0123456789abcdef";
        assert_eq!(picture_hash(&format!("/img/{h}.png")), Some(h));
        for bad in [
            format!("/img/{h}.png/.."),
            format!("/img/../{h}.png"),
            format!("/img/{}.png", h.to_uppercase()),
            format!("/img/{}.png", &h[1..]),
            "/img/..%2f..%2fetc%2fpasswd.png".to_string(),
            "/etc/passwd".to_string(),
        ] {
            assert_eq!(picture_hash(&bad), None, "{bad}");
        }
    }

    #[test]
    fn a_change_in_one_games_folder_rebuilds_that_game() {
        let root = std::path::Path::new("/p");
        let t = std::time::SystemTime::UNIX_EPOCH;
        let games = ["a".to_string(), "b".to_string()];
        let base: Fingerprint = vec![
            (root.join("data/a/x.toml"), 1, t),
            (root.join("templates/b/y.svg"), 1, t),
            (root.join("templates/common/z.svg"), 1, t),
            (root.join("profiles/home.toml"), 1, t),
        ];
        for (i, want) in [
            (0, [true, false]),
            (1, [false, true]),
            (2, [true, true]),
            (3, [true, true]),
        ] {
            let mut edited = base.clone();
            edited[i].1 = 2;
            assert_eq!(touched_games(&base, &edited, root, &games), want, "{i}");
        }
    }
}
