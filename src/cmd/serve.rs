//! `cardstock serve`: build, then serve a page with every face, the sheets of the
//! profile and the diagnostics, and rebuild on every save. The open page gets the
//! changes over a WebSocket: the images of the faces that changed (binary
//! frames of `data:` URLs, rasterised in parallel as soon as the build is done,
//! while the message is made), then a message with only those faces (and of
//! the sheets, only the placements whose picture changed, when nothing else of
//! them did). The first load fetches images by content hash.
//!
//! HTTP is a small bounded server (`serve/http.rs`: request heads parsed by
//! httparse, connections, time and sizes limited), the WebSocket tungstenite.
//! Every answer comes from memory: the page's three files (compiled in), the
//! builds' JSON and the PNG of a picture of the current build, by hash. No request
//! names a file, so none can read outside the project; no request writes anything.
//! Only the `Host` names of the printed address and of this machine are answered
//! ([`Hosts`]), so a DNS-rebinding page gets nothing.

mod http;

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex, OnceLock, RwLock};
use std::time::{Duration, Instant, SystemTime};

use serde_json::{json, Value};

use http::{Method, Request, Response, Server};

use super::changes::{art_changed, fingerprint, Changes, Fingerprint};
use cardstock::diag::{Diagnostic, Diagnostics, Reported};
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
    /// Print the wall time of each stage of every rebuild (and of looking at
    /// the files after a save, and of making and sending the page the changed
    /// faces' images and the update message) after its build line.
    #[arg(long)]
    pub timings: bool,
    /// Seconds a page (or any client) has to take an answer or an update before
    /// its connection is closed, 1 to 600 (a page on a slow network may need more).
    #[arg(long, default_value_t = http::WRITE_TIMEOUT.as_secs(), value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..=600))]
    pub write_timeout: u64,
    #[command(flatten)]
    pub common: super::Common,
}

/// The page's files, compiled in.
const INDEX_HTML: &str = include_str!("serve/index.html");
const APP_JS: &str = include_str!("serve/app.js");
const APP_CSS: &str = include_str!("serve/app.css");

/// Open pages (WebSockets) at once; one more is answered 503.
const MAX_PAGES: usize = 16;

/// Bytes of messages and images waiting for one page: a page that stops reading
/// is dropped past it (it reconnects and gets the whole state when it reads
/// again), so it cannot grow the server's memory with every rebuild.
const PAGE_BACKLOG: usize = 32 << 20;

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
    pages: Mutex<Vec<Page>>,
    /// PNG of each picture of the current builds, made on first request.
    pngs: Mutex<HashMap<String, Arc<OnceLock<Option<Png>>>>>,
    /// `Host` headers to answer.
    hosts: Hosts,
}

/// An open page's queue of frames, with the bytes waiting in it.
struct Page {
    tx: mpsc::Sender<Frame>,
    /// Bytes sent into `tx` and not yet written to the page.
    queued: Arc<AtomicUsize>,
    /// Set when the page is dropped: its thread stops at its next frame.
    dropped: Arc<AtomicBool>,
}

/// The `Host` headers the server answers: the address it printed and this
/// machine's names, with its port (or none on port 80). A page on another name
/// (a DNS-rebinding page whose name now points here) sends that name and gets
/// nothing; an IP address is never such a name, so with `--host 0.0.0.0` every IP
/// address of the machine is answered.
#[derive(Debug)]
struct Hosts {
    port: u16,
    /// Lowercase names (IPv6 addresses in brackets).
    names: Vec<String>,
    /// Any IP address (the server listens on all of them).
    any_ip: bool,
}

/// What the WebSocket sends a page.
#[derive(Clone)]
enum Frame {
    /// A JSON message.
    Text(Arc<str>),
    /// A picture: its hash (32 ASCII bytes) then its PNG as a `data:` URL
    /// ([`data_url`]), in one binary frame.
    Image(Arc<str>, Png),
}

/// What `serve` works on, checked once.
struct Plan {
    root: PathBuf,
    project: Project,
    games: Vec<String>,
    opts: cardstock::options::Resolved,
    ip: IpAddr,
    /// `--timings`: each build's stages under its build line.
    timings: bool,
}

/// Runs `serve` until interrupted; returns the exit status.
pub fn run(args: &Args) -> i32 {
    let prepared = prepare(args);
    let Some(plan) = prepared.value else {
        return super::finish(prepared.diags, &(), false);
    };
    if !plan.ip.is_loopback() {
        super::tell(&format!(
            "warning: listening on {}: every machine that can reach this address can read the preview\n",
            plan.ip
        ));
    }
    let write_timeout = Duration::from_secs(args.write_timeout);
    let server = match Server::bind(SocketAddr::new(plan.ip, args.port), write_timeout) {
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
    let Ok(addr) = server.local_addr() else {
        super::tell("error: the server has no IP address\n");
        return 1;
    };
    let hosts = Hosts::new(plan.ip, addr.port());
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
        if plan.timings {
            print_timings(0.0, &p, &[], 0);
        }
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
    let answering = shared.clone();
    if let Err(e) = server.serve(move |rq| answer(&answering, rq)) {
        super::tell(&format!("error: cannot start the server: {e}\n"));
        return 1;
    }
    // Listening on every address: the page opens on this machine's loopback one.
    let shown = match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::from([127, 0, 0, 1]),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::from(std::net::Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    let url = format!("http://{}/", SocketAddr::new(shown, addr.port()));
    super::say(&format!(
        "serving {} at {url} (rebuilding on every save; Ctrl-C to stop)\n",
        plan.games.join(", ")
    ));
    follow(&plan, &shared, caches, seen)
}

/// Checks the arguments (the options: [`cardstock::options::Asked::resolve`] for
/// the screen), every problem of them; `None` when there is one.
fn prepare(args: &Args) -> Reported<Option<Plan>> {
    let found = match args.common.project() {
        Ok(found) => found,
        Err(e) => return Reported::new(None, [Diagnostic::error(e)]),
    };
    let mut problems = Diagnostics::default();
    let asked = cardstock::options::Asked {
        paper: args.paper.clone(),
        profile: args.profile.clone(),
        dpi: args.dpi,
        ..Default::default()
    };
    let resolved = asked
        .resolve(cardstock::options::Pictures::Screen)
        .into_value(&mut problems);
    let games = super::select_games(&found.project, &args.games)
        .map_err(|d| problems.push(d))
        .ok();
    let ip = match args.host.as_str() {
        "localhost" => Some(IpAddr::from([127, 0, 0, 1])),
        h => h
            .parse::<IpAddr>()
            .map_err(|_| {
                problems.push(
                    Diagnostic::error(format!("--host `{h}` is not an IP address"))
                        .hint("use 127.0.0.1 (this machine only), or an address of this machine"),
                )
            })
            .ok(),
    };
    let (Some(opts), Some(games), Some(ip)) = (resolved, games, ip) else {
        return Reported::new(None, problems.items);
    };
    Some(Plan {
        root: found.root,
        project: found.project,
        games,
        opts,
        ip,
        timings: args.timings,
    })
    .into()
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
    // Whether the last round held back a failed build.
    let mut held = false;
    loop {
        changes.wait();
        let woke = SystemTime::now();
        let looked = Instant::now();
        let now = fingerprint(&plan.root);
        let looked = (woke, ms_since(looked));
        if now == last {
            continue;
        }
        if art_changed(&last, &now) {
            caches.iter_mut().for_each(preview::Cache::images_changed);
        }
        let touched = touched_games(&last, &now, &plan.root, &plan.games);
        let before = std::mem::replace(&mut last, now);
        let mut holding = false;
        for (i, cache) in caches.iter().enumerate().filter(|(i, _)| touched[*i]) {
            let p = Arc::new(preview::build(
                &plan.project.fresh(),
                &plan.games[i],
                &plan.opts,
                cache,
            ));
            if !p.ok && !held && changes.came() {
                // A save still under way (another file of it, or another save)
                // may have broken this build: not shown; the next one builds
                // every game this change touched, and is shown whatever it
                // gives (`changes::QUIET`).
                last.clone_from(&before);
                holding = true;
                continue;
            }
            if publish(plan, shared, (i, cache), p, looked).is_none() {
                return 1;
            }
        }
        held = holding;
    }
}

/// Milliseconds since `start`.
fn ms_since(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1000.0
}

/// Shows build `p` of game `i` (with its cache): prints its line, makes the
/// images of the faces that changed on all cores, and the update message beside
/// them, and sends the images to every open page ahead of the message that names
/// them. With `--timings`, prints the wall time of each stage, `looked` (when
/// the save's wait ended, and how long the files were looked at) first, then the
/// images (made at once with the message), the sending of the message and when
/// it was sent. `None` when a lock was poisoned.
fn publish(
    plan: &Plan,
    shared: &Arc<Shared>,
    (i, cache): (usize, &preview::Cache),
    p: Arc<Preview>,
    looked: (SystemTime, f64),
) -> Option<()> {
    let start = Instant::now();
    // Only this thread changes the games: the message made under a read lock
    // is still the one for this build when the write lock is taken below.
    let (images, message) = rayon::join(
        || {
            use rayon::prelude::*;
            let old = shared.games.read().ok()?[i].good.clone();
            let images = new_pictures(old.as_deref(), &p);
            Some(
                images
                    .par_iter()
                    .filter_map(|h| {
                        let png = png_of(shared, &p, h)?;
                        Some(Frame::Image(h.as_str().into(), data_url(&png)))
                    })
                    .collect::<Vec<Frame>>(),
            )
        },
        || Some(update(&shared.games.read().ok()?[i], &p)),
    );
    let (images, message) = (images?, message?);
    let pictures = (images.len(), ms_since(start));
    let start = Instant::now();
    {
        let mut states = shared.games.write().ok()?;
        let st = &mut states[i];
        let redone = Redone {
            renders: cache.last_renders(),
            work: cache.last_work(),
            asserts: cache.last_asserts(),
            rulebook: cache.rulebook_kept(),
        };
        report(&p, st.good.as_deref(), Some(redone));
        st.builds += 1;
        if p.ok {
            st.good = Some(p.clone());
        }
        st.last = p.clone();
        // Under the lock: a page that opens now gets this build either in its
        // first message or as this update, never both.
        for image in images {
            broadcast(shared, image);
        }
        broadcast(shared, Frame::Text(message.into()));
    }
    if plan.timings {
        let sent = [("images", pictures.1), ("message", ms_since(start))];
        print_timings(looked.1, &p, &sent, pictures.0);
        // On the clock the page's `performance.timeOrigin` is on: the file
        // event's wait and the socket, apart.
        let at = |t: SystemTime| {
            t.duration_since(std::time::UNIX_EPOCH)
                .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
        };
        super::say(&format!(
            "  clock: woke at {:.1} · sent at {:.1}\n",
            at(looked.0),
            at(SystemTime::now())
        ));
    }
    forget_old_pngs(shared);
    prerender(shared, Some(i));
    Some(())
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

/// How much of a rebuild was done again, and how much kept from the build before.
struct Redone {
    /// Sides and layers rendered, and those kept because nothing their templates
    /// read changed (`preview::Cache::last_renders`).
    renders: (usize, usize),
    /// Faces parsed and faces preflighted (`preview::Cache::last_work`).
    work: (usize, usize),
    /// `[[assert]]`s run, and those kept because they held and nothing they read
    /// changed (`preview::Cache::last_asserts`).
    asserts: (usize, usize),
    /// Whether the rulebook was kept rather than typeset again.
    rulebook: bool,
}

/// Prints one line per build, and each diagnostic on a line with its hint.
/// With `redone`, says how much of the build was done again.
fn report(p: &Preview, before: Option<&Preview>, redone: Option<Redone>) {
    let changed = before.map(|b| {
        let old = by_id(b);
        p.faces
            .iter()
            .filter(|f| {
                !old.get(f.id.as_str())
                    .is_some_and(|o| o.iter().any(|o| o.hash == f.hash))
            })
            .count()
    });
    let what = match (p.ok, changed) {
        (false, _) => "has errors; the page keeps the last good faces".to_string(),
        (true, None) => format!("{} faces", p.faces.len()),
        (true, Some(1)) => "1 face changed".to_string(),
        (true, Some(n)) => format!("{n} faces changed"),
    };
    let what = match redone {
        Some(Redone {
            renders: (made, kept),
            work: (parsed, checked),
            asserts: (ran, held),
            rulebook,
        }) if p.ok => {
            let book = match (p.rulebook.is_empty(), rulebook) {
                (true, _) => "",
                (false, true) => ", rulebook kept",
                (false, false) => ", rulebook typeset",
            };
            format!("{what} ({made} rendered, {kept} kept, {parsed} parsed, {checked} preflighted, {ran} asserts run, {held} kept{book})")
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
        super::tell(&text);
    }
}

/// `--timings`: the wall time of looking at the files after the save
/// (`looked`), of each stage of build `p`, and of what was `sent` after it (the
/// images of the `images` faces that changed, the update message), on one line.
fn print_timings(looked: f64, p: &Preview, sent: &[(&'static str, f64)], images: usize) {
    let stages: Vec<String> = std::iter::once(("files", looked))
        .chain(p.timings.iter().copied())
        .chain(sent.iter().copied())
        .map(|(n, ms)| match n {
            "images" => format!("images {ms:.1} ms ({images})"),
            _ => format!("{n} {ms:.1} ms"),
        })
        .collect();
    super::say(&format!("  timings: {}\n", stages.join(" · ")));
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
        let had = old.map(by_id).unwrap_or_default();
        let changed: Vec<&preview::Face> = p
            .faces
            .iter()
            .filter(|f| !had.get(f.id.as_str()).is_some_and(|o| o.contains(f)))
            .collect();
        msg["faces"] = json!(changed);
        let ids = |q: &Preview| q.faces.iter().map(|f| f.id.clone()).collect::<Vec<_>>();
        if old.map(ids) != Some(ids(p)) {
            msg["order"] = json!(ids(p));
        }
        // A face's new picture changes only its placements' hashes: those
        // alone are sent, not every sheet again.
        match old.map(|o| placed(&o.sheets, &p.sheets)) {
            Some(Some(moved)) if moved.is_empty() => {}
            Some(Some(moved)) => msg["placed"] = json!(moved),
            _ => msg["sheets"] = json!(p.sheets),
        }
        if old.map(|o| &o.rulebook) != Some(&p.rulebook) {
            msg["rulebook"] = json!(p.rulebook);
        }
        if old.map(|o| &o.sets) != Some(&p.sets) {
            msg["sets"] = json!(p.sets);
        }
    }
    msg.to_string()
}

/// How `new` sheets differ from `old` ones when only pictures of placements
/// changed: `[sheet, placement, new hash]` for each (both 0-based); `None` when
/// anything else differs (then every sheet is sent).
fn placed(old: &[preview::Sheet], new: &[preview::Sheet]) -> Option<Vec<(usize, usize, String)>> {
    if old.len() != new.len() {
        return None;
    }
    let mut moved = Vec::new();
    for (s, (a, b)) in old.iter().zip(new).enumerate() {
        // Taken apart whole, so that a field added to a sheet or a placement
        // does not compile until it is compared here.
        let preview::Sheet {
            file,
            page,
            label,
            size_mm,
            marks,
            placements,
        } = a;
        let sheet = (file, page, label, size_mm, marks);
        if sheet != (&b.file, &b.page, &b.label, &b.size_mm, &b.marks)
            || placements.len() != b.placements.len()
        {
            return None;
        }
        for (n, (x, y)) in placements.iter().zip(&b.placements).enumerate() {
            let preview::Placement {
                face,
                hash,
                rect,
                clip,
                rotate,
                matrix,
            } = x;
            if (face, rect, clip, rotate, matrix)
                != (&y.face, &y.rect, &y.clip, &y.rotate, &y.matrix)
            {
                return None;
            }
            if *hash != y.hash {
                moved.push((s, n, y.hash.clone()));
            }
        }
    }
    Some(moved)
}

/// The faces of build `p` by id (one each: a face's id is its set, place and
/// side), so that a new build's faces are each looked up once rather than
/// searched for among all of them.
fn by_id(p: &Preview) -> HashMap<&str, Vec<&preview::Face>> {
    let mut out: HashMap<&str, Vec<&preview::Face>> = HashMap::new();
    for f in &p.faces {
        out.entry(f.id.as_str()).or_default().push(f);
    }
    out
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

/// Sends a frame to every open page, forgetting the closed ones and dropping a
/// page that has more than [`PAGE_BACKLOG`] bytes waiting (it stopped reading).
fn broadcast(shared: &Shared, message: Frame) {
    let len = message.len();
    if let Ok(mut pages) = shared.pages.lock() {
        pages.retain(|p| {
            let waiting = p.queued.fetch_add(len, Ordering::SeqCst) + len;
            let keep = !p.dropped.load(Ordering::SeqCst)
                && waiting <= PAGE_BACKLOG
                && p.tx.send(message.clone()).is_ok();
            if !keep {
                p.dropped.store(true, Ordering::SeqCst);
            }
            keep
        });
    }
}

/// A PNG as a `data:` URL, as the page shows a pushed picture: an image loads
/// from one at once (a `blob:` URL is fetched first), and the page need not
/// encode it.
fn data_url(png: &[u8]) -> Png {
    use base64::Engine as _;
    let mut url = String::from("data:image/png;base64,");
    base64::engine::general_purpose::STANDARD.encode_string(png, &mut url);
    Png::from(url.into_bytes())
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

/// Makes the PNGs of the faces of game `only` (or of every game) that are not
/// made yet on a background thread, so the page's requests find them ready
/// (each from its build, not looked for among every build's pictures).
fn prerender(shared: &Arc<Shared>, only: Option<usize>) {
    let builds: Vec<Arc<Preview>> = match shared.games.read() {
        Ok(games) => games
            .iter()
            .enumerate()
            .filter(|(i, _)| only.is_none_or(|o| o == *i))
            .filter_map(|(_, g)| g.good.clone())
            .collect(),
        Err(_) => return,
    };
    let shared = shared.clone();
    rayon::spawn(move || {
        use rayon::prelude::*;
        let todo: Vec<(&Preview, &str)> = {
            let Ok(made) = shared.pngs.lock() else {
                return;
            };
            builds
                .iter()
                .flat_map(|p| p.faces.iter().map(move |f| (&**p, f.hash.as_str())))
                .filter(|(_, h)| made.get(*h).is_none_or(|c| c.get().is_none()))
                .collect()
        };
        todo.par_iter().for_each(|(p, h)| {
            png_of(&shared, p, h);
        });
    });
}

/// Headers every answer carries: no sniffing, no framing, only this origin.
fn secure(r: Response) -> Response {
    r.with_header("X-Content-Type-Options", "nosniff")
        .with_header("X-Frame-Options", "DENY")
        .with_header("Referrer-Policy", "no-referrer")
        .with_header(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
        )
}

fn bytes(status: u16, kind: &str, cache: &str, body: Png) -> Response {
    secure(
        Response::new(status, body)
            .with_header("Content-Type", kind)
            .with_header("Cache-Control", cache),
    )
}

/// A short plain-text answer.
fn plain(status: u16, text: &'static str) -> Response {
    bytes(
        status,
        "text/plain; charset=utf-8",
        "no-store",
        Png::from(text.as_bytes()),
    )
}

fn not_found() -> Response {
    plain(404, "not found\n")
}

impl Hosts {
    /// The names a server on `ip`, `port` answers to.
    fn new(ip: IpAddr, port: u16) -> Hosts {
        let literal = |ip: IpAddr| match ip {
            IpAddr::V4(a) => a.to_string(),
            IpAddr::V6(a) => format!("[{a}]"),
        };
        let mut names = vec![literal(ip)];
        if ip.is_loopback() || ip.is_unspecified() {
            names.extend(["127.0.0.1", "localhost", "[::1]"].map(String::from));
        }
        if !ip.is_loopback() {
            names.extend(machine_names());
        }
        names.sort();
        names.dedup();
        Hosts {
            port,
            names,
            any_ip: ip.is_unspecified(),
        }
    }

    /// Whether a request with this `Host` header is answered.
    fn allows(&self, host: &str) -> bool {
        let host = host.trim().to_ascii_lowercase();
        // `name:port`, `[v6]:port`, or a name alone (the port is then 80).
        let (name, port) = match host.rsplit_once(':') {
            Some((n, p)) if !p.contains(']') => (n, p.parse::<u16>().ok()),
            _ => (host.as_str(), Some(80)),
        };
        if port != Some(self.port) {
            return false;
        }
        let ip = name
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>();
        self.names.iter().any(|n| n == name) || (self.any_ip && ip.is_ok())
    }
}

/// This machine's host name, with and without `.local` (lowercase).
fn machine_names() -> Vec<String> {
    let mut buf = [0u8; 256];
    // SAFETY: gethostname writes at most `buf.len()` bytes into `buf`.
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    let end = buf.iter().position(|b| *b == 0).unwrap_or(0);
    match std::str::from_utf8(&buf[..end]) {
        Ok(name) if ok && !name.is_empty() => {
            let name = name.to_ascii_lowercase();
            let short = name.trim_end_matches(".local").to_string();
            vec![format!("{short}.local"), short]
        }
        _ => Vec::new(),
    }
}

/// Answers one request. Only these paths exist: `/`, `/app.js`, `/app.css`,
/// `/api/state`, `/ws` and `/img/<hash>.png` for a picture of a current build.
fn answer(shared: &Arc<Shared>, rq: Request) {
    if !rq.header("Host").is_some_and(|h| shared.hosts.allows(h)) {
        // A name that is not this machine's: a DNS-rebinding page, not a browser tab
        // opened on the printed address.
        return rq.respond(not_found());
    }
    if rq.method() == Method::Other {
        return rq.respond(plain(405, "read only\n").with_header("Allow", "GET, HEAD"));
    }
    if rq.has_body() {
        // Never read: nothing here takes a body.
        return rq.respond(plain(413, "a request body is not accepted\n"));
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
    rq.respond(response);
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

impl Frame {
    /// Its size in bytes.
    fn len(&self) -> usize {
        match self {
            Frame::Text(m) => m.len(),
            Frame::Image(h, png) => h.len() + png.len(),
        }
    }
}

/// Opens the page's WebSocket: the full state first, then every update, until the
/// page goes away (or stops reading: [`PAGE_BACKLOG`], and each frame must be
/// taken within the server's write time-out).
fn websocket(shared: &Arc<Shared>, rq: Request) {
    let Some(key) = websocket_key(&rq) else {
        return rq.respond(not_found());
    };
    let (tx, rx) = mpsc::channel::<Frame>();
    let page = Page {
        tx,
        queued: Arc::new(AtomicUsize::new(0)),
        dropped: Arc::new(AtomicBool::new(false)),
    };
    let (queued, dropped) = (page.queued.clone(), page.dropped.clone());
    // Subscribe and take the state under one lock: no update is lost or doubled.
    let first = {
        let Ok(games) = shared.games.read() else {
            return;
        };
        let Ok(mut pages) = shared.pages.lock() else {
            return;
        };
        pages.retain(|p| !p.dropped.load(Ordering::SeqCst));
        if pages.len() >= MAX_PAGES {
            drop((pages, games));
            return rq.respond(plain(503, "too many open pages: close one\n"));
        }
        pages.push(page);
        json!({ "type": "full", "games": games.iter().map(full).collect::<Vec<_>>() }).to_string()
    };
    let accept = tungstenite::handshake::derive_accept_key(key.as_bytes());
    let response = Response::new(101, Png::from(&b""[..]))
        .with_header("Upgrade", "websocket")
        .with_header("Connection", "Upgrade")
        .with_header("Sec-WebSocket-Accept", &accept);
    let Some(stream) = rq.upgrade(response) else {
        dropped.store(true, Ordering::SeqCst);
        return;
    };
    use tungstenite::{protocol::Role, Message, WebSocket};
    let mut ws = WebSocket::from_raw_socket(stream, Role::Server, None);
    if ws.send(Message::text(first)).is_err() {
        dropped.store(true, Ordering::SeqCst);
        return;
    }
    send_frames(&mut ws, &rx, &queued, &dropped);
    dropped.store(true, Ordering::SeqCst);
}

/// The key of a WebSocket upgrade the page itself asks for, else `None`.
fn websocket_key(rq: &Request) -> Option<String> {
    let key = rq.header("Sec-WebSocket-Key").map(str::to_string);
    let upgrade = rq
        .header("Upgrade")
        .is_some_and(|u| u.eq_ignore_ascii_case("websocket"));
    // Only the page itself may listen (a browser always sends the Origin; the
    // Host was checked).
    let origin_ok = match (rq.header("Origin"), rq.header("Host")) {
        (Some(o), Some(h)) => o == format!("http://{h}"),
        (None, _) => true,
        _ => false,
    };
    key.filter(|_| upgrade && origin_ok)
}

/// Sends a page its frames as they come, pinging it when quiet, until it goes
/// away, is dropped, or its queue closes.
fn send_frames(
    ws: &mut tungstenite::WebSocket<std::net::TcpStream>,
    rx: &mpsc::Receiver<Frame>,
    queued: &AtomicUsize,
    dropped: &AtomicBool,
) {
    use tungstenite::Message;
    let mut quiet = Duration::ZERO;
    loop {
        let frame = rx.recv_timeout(TICK);
        if dropped.load(Ordering::SeqCst) {
            return;
        }
        let sent = match frame {
            Ok(Frame::Text(m)) => {
                queued.fetch_sub(m.len(), Ordering::SeqCst);
                ws.send(Message::text(m.to_string()))
            }
            Ok(Frame::Image(hash, png)) => {
                queued.fetch_sub(hash.len() + png.len(), Ordering::SeqCst);
                let mut frame = Vec::with_capacity(hash.len() + png.len());
                frame.extend_from_slice(hash.as_bytes());
                frame.extend_from_slice(&png);
                ws.send(Message::binary(frame))
            }
            Err(mpsc::RecvTimeoutError::Timeout) if gone(ws) => break,
            // A ping now and then finds pages that went away without a word.
            Err(mpsc::RecvTimeoutError::Timeout) => {
                quiet += TICK;
                if quiet < PING_EVERY {
                    continue;
                }
                quiet = Duration::ZERO;
                ws.send(Message::Ping(Default::default()))
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        if sent.is_err() {
            break;
        }
    }
}

/// How often an idle page's connection is looked at (a page that closed frees
/// its place within this time).
const TICK: Duration = Duration::from_secs(1);

/// How often an idle page is pinged.
const PING_EVERY: Duration = Duration::from_secs(20);

/// Whether the page closed its WebSocket (or its connection): reads what it sent
/// (a pong, a close) without waiting.
fn gone(ws: &mut tungstenite::WebSocket<std::net::TcpStream>) -> bool {
    if ws.get_ref().set_nonblocking(true).is_err() {
        return true;
    }
    let closed = loop {
        match ws.read() {
            Ok(tungstenite::Message::Close(_)) => break true,
            Ok(_) => {}
            Err(tungstenite::Error::Io(e)) if e.kind() == std::io::ErrorKind::WouldBlock => {
                break false
            }
            Err(_) => break true,
        }
    };
    closed || ws.get_ref().set_nonblocking(false).is_err()
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
    fn a_page_with_too_much_waiting_is_dropped() {
        let (tx, rx) = mpsc::channel();
        let page = Page {
            tx,
            queued: Arc::new(AtomicUsize::new(0)),
            dropped: Arc::new(AtomicBool::new(false)),
        };
        let dropped = page.dropped.clone();
        let shared = Shared {
            games: RwLock::new(Vec::new()),
            pages: Mutex::new(vec![page]),
            pngs: Mutex::new(HashMap::new()),
            hosts: Hosts::new(IpAddr::from([127, 0, 0, 1]), 1),
        };
        let big = Png::from(vec![0u8; PAGE_BACKLOG / 3]);
        for _ in 0..2 {
            broadcast(&shared, Frame::Image("h".into(), big.clone()));
        }
        assert_eq!(shared.pages.lock().unwrap().len(), 1);
        broadcast(&shared, Frame::Image("h".into(), big.clone()));
        broadcast(&shared, Frame::Text("{}".into()));
        assert!(shared.pages.lock().unwrap().is_empty());
        assert!(dropped.load(Ordering::SeqCst));
        assert_eq!(rx.try_iter().count(), 2, "nothing queued past the backlog");
    }

    #[test]
    fn only_this_machines_names_are_answered() {
        let loopback = Hosts::new(IpAddr::from([127, 0, 0, 1]), 7171);
        for ok in [
            "127.0.0.1:7171",
            "localhost:7171",
            "[::1]:7171",
            "LocalHost:7171",
        ] {
            assert!(loopback.allows(ok), "{ok}");
        }
        for bad in [
            "evil.example:7171",
            "127.0.0.1:7172",
            "127.0.0.1",
            "10.0.0.1:7171",
            "",
            ":7171",
        ] {
            assert!(!loopback.allows(bad), "{bad}");
        }
        // Another loopback address answers to itself; port 80 to a Host without one.
        let other = Hosts::new(IpAddr::from([127, 0, 0, 2]), 80);
        for ok in ["127.0.0.2", "127.0.0.2:80", "localhost"] {
            assert!(other.allows(ok), "{ok}");
        }
        assert!(!other.allows("evil.example"));
        // Every address: any IP address and this machine's names, never another name.
        let all = Hosts::new(IpAddr::from([0, 0, 0, 0]), 7171);
        for ok in ["192.168.1.20:7171", "[fe80::1]:7171", "127.0.0.1:7171"] {
            assert!(all.allows(ok), "{ok}");
        }
        for name in machine_names() {
            assert!(all.allows(&format!("{name}:7171")), "{name}");
        }
        for bad in [
            "evil.example:7171",
            "192.168.1.20.evil.example:7171",
            "192.168.1.20:80",
        ] {
            assert!(!all.allows(bad), "{bad}");
        }
    }

    #[test]
    fn only_the_placements_whose_picture_changed_are_sent() {
        let place = |face: &str, hash: &str| preview::Placement {
            face: face.to_string(),
            hash: hash.to_string(),
            rect: [0.0, 0.0, 63.0, 88.0],
            clip: [0.0, 0.0, 63.0, 88.0],
            rotate: false,
            matrix: [1.0, 0.0, 0.0, 1.0, 0.0, 0.0],
        };
        let sheet = |placements| preview::Sheet {
            file: "cards.pdf".to_string(),
            page: Some(1),
            label: "cards".to_string(),
            size_mm: Some([215.9, 279.4]),
            marks: Some("m".to_string()),
            placements,
        };
        let old = vec![
            sheet(vec![place("a", "1"), place("b", "2")]),
            sheet(vec![place("a", "1")]),
        ];
        assert_eq!(placed(&old, &old), Some(vec![]));
        let mut new = old.clone();
        new[0].placements[0].hash = "3".to_string();
        new[1].placements[0].hash = "3".to_string();
        assert_eq!(
            placed(&old, &new),
            Some(vec![(0, 0, "3".to_string()), (1, 0, "3".to_string())])
        );
        // Anything else: every sheet is sent.
        let mut other = new.clone();
        other[1].placements[0].rect[0] = 1.0;
        assert_eq!(placed(&old, &other), None);
        let mut other = new.clone();
        other[0].marks = Some("n".to_string());
        assert_eq!(placed(&old, &other), None);
        let mut other = new.clone();
        other[0].placements.pop();
        assert_eq!(placed(&old, &other), None);
        assert_eq!(placed(&old, &new[..1]), None);
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
