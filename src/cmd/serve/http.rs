//! The preview's HTTP server: `std::net` sockets, request heads parsed by
//! httparse, every resource a client can grow bounded.
//!
//! - At most [`MAX_CONNECTIONS`] connections at once, each on a thread of its own
//!   (a small stack); one more is closed at once, and a thread that cannot start
//!   drops its connection, never the server.
//! - One request per connection (`Connection: close`): an idle browser connection
//!   holds no thread.
//! - A request head must arrive whole within [`HEAD_TIMEOUT`] and fit
//!   [`MAX_HEAD`] bytes; a request body is never read (every route is `GET` or
//!   `HEAD`), so a huge `Content-Length` costs nothing.
//! - An answer must be taken within the server's write time-out ([`WRITE_TIMEOUT`]
//!   unless `serve --write-timeout` says otherwise): a client that stops reading
//!   loses its connection instead of holding a thread.
//!
//! Why not tiny_http (unbounded threads, no time-outs) or axum/hyper/tokio (62
//! crates, 115 s of release build for what six routes need): the README, "Live
//! preview".

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Connections served at once (WebSockets included); more are closed at once.
pub const MAX_CONNECTIONS: usize = 64;

/// Time for a request head to arrive, from the connection's start.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(5);

/// Time for a client to take an answer (or a WebSocket frame), unless `serve
/// --write-timeout` sets another.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// Largest request head read.
pub const MAX_HEAD: usize = 16 * 1024;

/// The system's send buffer of a WebSocket (by default it grows to megabytes).
pub const SEND_BUFFER: usize = 64 * 1024;

/// Most header lines in a request head.
const MAX_HEADERS: usize = 64;

/// Stack of a connection's thread (answers are made from memory, with little
/// recursion; rasterising runs on the rayon pool).
const STACK: usize = 512 * 1024;

/// A request's method, as far as the preview cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Head,
    /// Any other (answered 405).
    Other,
}

/// One request: its head, and the connection to answer on.
pub struct Request {
    method: Method,
    target: String,
    headers: Vec<(String, String)>,
    stream: TcpStream,
    write_timeout: Duration,
}

impl Request {
    /// The method.
    pub fn method(&self) -> Method {
        self.method
    }

    /// The request target as sent (path and query).
    pub fn url(&self) -> &str {
        &self.target
    }

    /// The value of the first header `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Whether the request says it carries a body (which is never read).
    pub fn has_body(&self) -> bool {
        self.header("Transfer-Encoding").is_some()
            || self
                .header("Content-Length")
                .is_some_and(|n| n.trim() != "0")
    }

    /// Sends `r` (only its head for a `HEAD` request) and closes the connection.
    pub fn respond(mut self, r: Response) {
        let head_only = self.method == Method::Head;
        let _ = send(&mut self.stream, &r, head_only, self.write_timeout);
    }

    /// Sends the head of `r` (a 101 answer) and gives the connection to the
    /// caller, with the server's write time-out on writes, no read timeout and a send
    /// buffer of [`SEND_BUFFER`] (so that the system's buffers too hold little
    /// for a client that stops reading).
    pub fn upgrade(mut self, r: Response) -> Option<TcpStream> {
        send(&mut self.stream, &r, true, self.write_timeout).ok()?;
        self.stream.set_read_timeout(None).ok()?;
        self.stream
            .set_write_timeout(Some(self.write_timeout))
            .ok()?;
        set_send_buffer(&self.stream, SEND_BUFFER);
        Some(self.stream)
    }
}

/// An answer: status, headers and body (shared, never copied).
pub struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    body: Arc<[u8]>,
}

impl Response {
    /// An answer with `status` and `body`.
    pub fn new(status: u16, body: Arc<[u8]>) -> Response {
        Response {
            status,
            headers: Vec::new(),
            body,
        }
    }

    /// Adds a header (a value with a line break is left out).
    pub fn with_header(mut self, name: &str, value: &str) -> Response {
        if !value.contains(['\r', '\n']) {
            self.headers.push((name.to_string(), value.to_string()));
        }
        self
    }
}

/// The reason phrase of a status code.
fn reason(status: u16) -> &'static str {
    match status {
        101 => "Switching Protocols",
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "",
    }
}

/// Writes `r` within `timeout` in all.
fn send(
    stream: &mut TcpStream,
    r: &Response,
    head_only: bool,
    timeout: Duration,
) -> std::io::Result<()> {
    let mut head = format!("HTTP/1.1 {} {}\r\n", r.status, reason(r.status));
    for (n, v) in &r.headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    if r.status != 101 {
        head.push_str(&format!(
            "Content-Length: {}\r\nConnection: close\r\n",
            r.body.len()
        ));
    }
    head.push_str("\r\n");
    let deadline = Instant::now() + timeout;
    write_by(stream, head.as_bytes(), deadline)?;
    if !head_only {
        write_by(stream, &r.body, deadline)?;
    }
    stream.flush()
}

/// Writes `bytes` in pieces, failing once `deadline` passes: a client that reads
/// a byte now and then cannot stretch the time out.
fn write_by(stream: &mut TcpStream, bytes: &[u8], deadline: Instant) -> std::io::Result<()> {
    for piece in bytes.chunks(64 * 1024) {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        stream.set_write_timeout(Some(left))?;
        stream.write_all(piece)?;
    }
    Ok(())
}

/// Sets the socket's send buffer (`SO_SNDBUF`; the system may round it).
fn set_send_buffer(stream: &TcpStream, bytes: usize) {
    use std::os::fd::AsRawFd;
    let size = bytes as libc::c_int;
    // SAFETY: setsockopt reads `size` (an int, as SO_SNDBUF takes) from a valid
    // pointer, on the stream's own descriptor.
    unsafe {
        libc::setsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_SNDBUF,
            (&size as *const libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        );
    }
}

/// A listening server.
pub struct Server {
    listener: TcpListener,
    write_timeout: Duration,
}

impl Server {
    /// Listens on `addr`; a client must take each answer within `write_timeout`.
    pub fn bind(addr: SocketAddr, write_timeout: Duration) -> std::io::Result<Server> {
        Ok(Server {
            listener: TcpListener::bind(addr)?,
            write_timeout,
        })
    }

    /// The address it listens on (the port chosen for port 0).
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Answers every request with `handler`, on a thread per connection (at most
    /// [`MAX_CONNECTIONS`]), from a thread of its own; returns at once.
    pub fn serve(self, handler: impl Fn(Request) + Send + Sync + 'static) -> std::io::Result<()> {
        let handler = Arc::new(handler);
        std::thread::Builder::new()
            .name("http".into())
            .spawn(move || accept_loop(&self.listener, self.write_timeout, &handler))?;
        Ok(())
    }
}

/// Counts a connection while it lives.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn accept_loop<H: Fn(Request) + Send + Sync + 'static>(
    listener: &TcpListener,
    write_timeout: Duration,
    handler: &Arc<H>,
) {
    let open = Arc::new(AtomicUsize::new(0));
    loop {
        let stream = match listener.accept() {
            Ok((s, _)) => s,
            Err(_) => {
                // Out of file descriptors, or a connection reset before it was
                // taken: wait a little rather than spin.
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
        };
        if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            open.fetch_sub(1, Ordering::SeqCst);
            continue; // dropped: closed at once
        }
        let slot = Slot(open.clone());
        let handler = handler.clone();
        // A thread that cannot start drops the connection (and its slot).
        let _ = std::thread::Builder::new()
            .name("http-connection".into())
            .stack_size(STACK)
            .spawn(move || {
                let _slot = slot;
                if let Some(rq) = read_request(stream, write_timeout) {
                    handler(rq);
                }
            });
    }
}

/// Reads and parses one request head within [`HEAD_TIMEOUT`]; answers a
/// malformed or oversized one itself (`None`). Answers are written within
/// `write_timeout`.
fn read_request(mut stream: TcpStream, write_timeout: Duration) -> Option<Request> {
    let deadline = Instant::now() + HEAD_TIMEOUT;
    let mut buf = vec![0u8; MAX_HEAD];
    let mut filled = 0;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return None;
        }
        stream.set_read_timeout(Some(left)).ok()?;
        let n = stream.read(&mut buf[filled..]).ok()?;
        if n == 0 {
            return None;
        }
        filled += n;
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut req = httparse::Request::new(&mut headers);
        match req.parse(&buf[..filled]) {
            Ok(httparse::Status::Complete(_)) => {
                let method = match req.method {
                    Some("GET") => Method::Get,
                    Some("HEAD") => Method::Head,
                    _ => Method::Other,
                };
                let target = req.path.unwrap_or("").to_string();
                let headers = req
                    .headers
                    .iter()
                    .map(|h| {
                        (
                            h.name.to_string(),
                            String::from_utf8_lossy(h.value).trim().to_string(),
                        )
                    })
                    .collect();
                return Some(Request {
                    method,
                    target,
                    headers,
                    stream,
                    write_timeout,
                });
            }
            Ok(httparse::Status::Partial) if filled < MAX_HEAD => {}
            Ok(httparse::Status::Partial) | Err(httparse::Error::TooManyHeaders) => {
                let r = Response::new(431, Arc::from(&b"request head too large\n"[..]));
                let _ = send(&mut stream, &r, false, write_timeout);
                return None;
            }
            Err(_) => {
                let r = Response::new(400, Arc::from(&b"bad request\n"[..]));
                let _ = send(&mut stream, &r, false, write_timeout);
                return None;
            }
        }
    }
}
