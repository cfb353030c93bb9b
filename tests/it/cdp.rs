//! A small Chrome DevTools Protocol client for the browser tests (and the preview
//! benchmark): starts headless Chromium, opens one page, evaluates JavaScript in it
//! and takes screenshots, over the browser's WebSocket (tungstenite).

#![allow(dead_code)]

use std::net::TcpStream;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// The browser: `$CHROMIUM`, else `/usr/bin/chromium`, else `chromium` on the PATH.
pub fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let fixed = PathBuf::from("/usr/bin/chromium");
    if fixed.exists() {
        return Some(fixed);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("chromium"))
            .find(|p| p.exists())
    })
}

/// The browser, or `None` with a note when it is missing. Under CI (the `CI`
/// variable set) a missing browser fails the test instead: CI installs it.
pub fn chromium_or_skip(test: &str) -> Option<PathBuf> {
    let found = chromium();
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{test}: chromium is not installed (CI must install Debian's `chromium`; see .ci/run)"
        );
        eprintln!("note: {test} skipped: chromium is not installed (apt-get install chromium)");
    }
    found
}

/// A headless Chromium with one page open.
pub struct Browser {
    child: Child,
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    session: String,
    next: u64,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Starts `chrome` (a fresh profile, no network but the machine itself) with a
    /// `width` x `height` window and opens `url`.
    pub fn open(chrome: &Path, url: &str, width: u32, height: u32) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let child = Command::new(chrome)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--remote-debugging-port=0",
                &format!("--window-size={width},{height}"),
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .args(
                std::env::var("CDP_EXTRA_ARGS")
                    .map(|a| a.split(' ').map(String::from).collect::<Vec<_>>())
                    .unwrap_or_default(),
            )
            .arg("about:blank")
            // Its own temporary folders (`org.chromium.Chromium.*`, left behind
            // when it is killed) inside the profile, which is removed with it.
            .env("TMPDIR", profile.path())
            // Its own process group, so that its helpers (renderer, network,
            // GPU) end with it and none writes into the profile once it is gone.
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromium starts");
        // Chromium writes its DevTools port and path once it listens.
        let file = profile.path().join("DevToolsActivePort");
        let start = Instant::now();
        let (port, path) = loop {
            if let Ok(text) = std::fs::read_to_string(&file) {
                let mut lines = text.lines();
                if let (Some(port), Some(path)) = (lines.next(), lines.next()) {
                    break (port.to_string(), path.to_string());
                }
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "chromium did not write {}",
                file.display()
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        let (ws, _) = tungstenite::connect(format!("ws://127.0.0.1:{port}{path}"))
            .expect("the DevTools WebSocket opens");
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        }
        let mut b = Browser {
            child,
            ws,
            session: String::new(),
            next: 0,
            _profile: profile,
        };
        let target = b.call("Target.createTarget", json!({ "url": "about:blank" }));
        let target = target["targetId"].as_str().unwrap().to_string();
        let attached = b.call(
            "Target.attachToTarget",
            json!({ "targetId": target, "flatten": true }),
        );
        b.session = attached["sessionId"].as_str().unwrap().to_string();
        b.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": false }),
        );
        b.call("Page.navigate", json!({ "url": url }));
        b.wait_for("document.readyState === 'complete'", 60);
        b
    }

    /// Sends one command (to the page once attached) and returns its result.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let mut msg = json!({ "id": id, "method": method, "params": params });
        if !self.session.is_empty() {
            msg["sessionId"] = json!(self.session);
        }
        self.ws
            .send(Message::text(msg.to_string()))
            .expect("DevTools command sent");
        loop {
            let m = self.ws.read().expect("DevTools answers");
            let Message::Text(text) = m else { continue };
            let v: Value = serde_json::from_str(text.as_str()).unwrap();
            if v["id"].as_u64() != Some(id) {
                continue; // an event
            }
            if let Some(e) = v.get("error") {
                panic!("{method} failed: {e}");
            }
            return v["result"].clone();
        }
    }

    /// Evaluates `js` in the page (awaiting a promise) and returns its value.
    pub fn eval(&mut self, js: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({ "expression": js, "returnByValue": true, "awaitPromise": true }),
        );
        if let Some(e) = r.get("exceptionDetails") {
            panic!("{js}\nthrew: {e}");
        }
        r["result"]["value"].clone()
    }

    /// Evaluates `js` until it is truthy (at most `secs` seconds; panics then) and
    /// returns the value.
    pub fn wait_for(&mut self, js: &str, secs: u64) -> Value {
        let start = Instant::now();
        loop {
            let v = self.eval(js);
            let truthy = match &v {
                Value::Null => false,
                Value::Bool(b) => *b,
                Value::Number(n) => n.as_f64() != Some(0.0),
                Value::String(s) => !s.is_empty(),
                _ => true,
            };
            if truthy {
                return v;
            }
            assert!(
                start.elapsed() < Duration::from_secs(secs),
                "waited {secs} s for: {js}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Saves a PNG screenshot of the page (the whole page with `full`).
    pub fn screenshot(&mut self, path: &Path, full: bool) {
        let r = self.call(
            "Page.captureScreenshot",
            json!({ "format": "png", "captureBeyondViewport": full }),
        );
        let bytes = base64::Engine::decode(
            &base64::engine::general_purpose::STANDARD,
            r["data"].as_str().unwrap().as_bytes(),
        )
        .unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // SAFETY: signals the browser's own process group (made at its start).
        unsafe { libc::kill(-(self.child.id() as i32), libc::SIGKILL) };
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
