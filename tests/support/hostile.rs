//! A malicious Maven repository for the hostile-input tests: a small HTTP/1.1 server on
//! 127.0.0.1 (std `TcpListener`, one thread per connection) that answers each path with a crafted
//! [`Reply`]: crafted metadata, huge bodies generated on the fly (never stored), endless chunked
//! bodies, trickles, lying `Content-Length`s and redirects. Real servers (nginx, squid, ...) cannot
//! misbehave on purpose; this one exists for that alone.
//!
//! Bounded: every body stops when the client goes away, when the server is dropped, or after
//! [`MAX_SERVE_TIME`]; at most [`MAX_CONNECTIONS`] connections are served in all. Every request
//! (path and `Authorization` header) is recorded for assertions.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// No response body is served for longer than this.
pub const MAX_SERVE_TIME: Duration = Duration::from_secs(120);
/// Connections served in all, per server.
pub const MAX_CONNECTIONS: usize = 2000;

/// What the server answers for one path.
#[derive(Debug, Clone)]
pub enum Reply {
    /// 200 with these bytes and a `Content-Length`.
    Body(Vec<u8>),
    /// 200 with `len` bytes of `fill`, generated as they are sent; `chunked` leaves out the
    /// `Content-Length`.
    Generated {
        /// Body length.
        len: u64,
        /// The byte repeated.
        fill: u8,
        /// Transfer-Encoding: chunked instead of a Content-Length.
        chunked: bool,
    },
    /// 200, chunked, never ending (until the client leaves or the time bound).
    Endless,
    /// 200 without a length, one byte every `every`.
    Trickle {
        /// Interval between bytes.
        every: Duration,
    },
    /// 200 announcing `announced` bytes, sending `sent`, then closing.
    LyingLength {
        /// `Content-Length`.
        announced: u64,
        /// Bytes actually sent.
        sent: u64,
    },
    /// A redirect to this `Location`.
    Redirect(String),
    /// 404.
    NotFound,
}

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct Seen {
    /// The request target (path and query).
    pub path: String,
    /// The `Authorization` header, if any.
    pub authorization: Option<String>,
}

struct Shared {
    routes: Mutex<HashMap<String, Reply>>,
    seen: Mutex<Vec<Seen>>,
    stop: AtomicBool,
    connections: AtomicUsize,
}

/// The server; stops when dropped.
pub struct HostileServer {
    /// Its port on 127.0.0.1.
    pub port: u16,
    shared: Arc<Shared>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl HostileServer {
    /// Starts a server with no routes (everything 404).
    pub fn start() -> HostileServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let port = listener.local_addr().unwrap().port();
        let shared = Arc::new(Shared {
            routes: Mutex::new(HashMap::new()),
            seen: Mutex::new(Vec::new()),
            stop: AtomicBool::new(false),
            connections: AtomicUsize::new(0),
        });
        let s = shared.clone();
        let thread = std::thread::spawn(move || {
            for conn in listener.incoming() {
                if s.stop.load(Ordering::SeqCst)
                    || s.connections.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS
                {
                    break;
                }
                let Ok(conn) = conn else { continue };
                let s = s.clone();
                std::thread::spawn(move || serve(conn, &s));
            }
        });
        HostileServer {
            port,
            shared,
            thread: Some(thread),
        }
    }

    /// `http://127.0.0.1:PORT/<path>`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}/{path}", self.port)
    }

    /// Answers `path` (starting with `/`) with `reply`.
    pub fn route(&self, path: &str, reply: Reply) -> &Self {
        self.shared
            .routes
            .lock()
            .unwrap()
            .insert(path.to_string(), reply);
        self
    }

    /// Answers `path` with `body` and its `.sha1` with the matching digest.
    pub fn artifact(&self, path: &str, body: &[u8]) -> &Self {
        use sha1::Digest;
        self.route(path, Reply::Body(body.to_vec()));
        self.route(
            &format!("{path}.sha1"),
            Reply::Body(hex::encode(sha1::Sha1::digest(body)).into_bytes()),
        )
    }

    /// The requests seen so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.shared.seen.lock().unwrap().clone()
    }
}

impl Drop for HostileServer {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve(conn: TcpStream, s: &Shared) {
    let _ = conn.set_read_timeout(Some(Duration::from_secs(30)));
    let _ = conn.set_write_timeout(Some(Duration::from_secs(30)));
    let mut reader = BufReader::new(match conn.try_clone() {
        Ok(c) => c,
        Err(_) => return,
    });
    let mut out = conn;
    // Keep-alive: serve requests until the client closes (bounded by the read timeout).
    for _ in 0..1000 {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        let path = request_line
            .split_whitespace()
            .nth(1)
            .unwrap_or("/")
            .to_string();
        let mut authorization = None;
        for _ in 0..200 {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((k, v)) = line.split_once(':') {
                if k.eq_ignore_ascii_case("authorization") {
                    authorization = Some(v.trim().to_string());
                }
            }
        }
        s.seen.lock().unwrap().push(Seen {
            path: path.clone(),
            authorization,
        });
        let reply = s
            .routes
            .lock()
            .unwrap()
            .get(&path)
            .cloned()
            .unwrap_or(Reply::NotFound);
        if !respond(&mut out, reply, s) {
            return;
        }
    }
}

/// Writes one response; false when the connection must close.
fn respond(out: &mut TcpStream, reply: Reply, s: &Shared) -> bool {
    let started = Instant::now();
    let alive = |s: &Shared| !s.stop.load(Ordering::SeqCst) && started.elapsed() < MAX_SERVE_TIME;
    match reply {
        Reply::NotFound => out
            .write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
            .is_ok(),
        Reply::Redirect(location) => out
            .write_all(
                format!("HTTP/1.1 302 Found\r\nLocation: {location}\r\nContent-Length: 0\r\n\r\n")
                    .as_bytes(),
            )
            .is_ok(),
        Reply::Body(bytes) => {
            let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n", bytes.len());
            out.write_all(head.as_bytes()).is_ok() && out.write_all(&bytes).is_ok()
        }
        Reply::Generated { len, fill, chunked } => {
            let head = if chunked {
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".to_string()
            } else {
                format!("HTTP/1.1 200 OK\r\nContent-Length: {len}\r\n\r\n")
            };
            if out.write_all(head.as_bytes()).is_err() {
                return false;
            }
            let block = vec![fill; 64 * 1024];
            let mut left = len;
            while left > 0 && alive(s) {
                let n = left.min(block.len() as u64) as usize;
                let ok = if chunked {
                    out.write_all(format!("{n:x}\r\n").as_bytes()).is_ok()
                        && out.write_all(&block[..n]).is_ok()
                        && out.write_all(b"\r\n").is_ok()
                } else {
                    out.write_all(&block[..n]).is_ok()
                };
                if !ok {
                    return false;
                }
                left -= n as u64;
            }
            !chunked || out.write_all(b"0\r\n\r\n").is_ok()
        }
        Reply::Endless => {
            if out
                .write_all(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
                .is_err()
            {
                return false;
            }
            let chunk = [b"10000\r\n".as_slice(), &vec![b'x'; 0x10000], b"\r\n"].concat();
            while alive(s) {
                if out.write_all(&chunk).is_err() {
                    return false;
                }
            }
            false
        }
        Reply::Trickle { every } => {
            if out
                .write_all(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")
                .is_err()
            {
                return false;
            }
            while alive(s) {
                if out.write_all(b"x").and_then(|_| out.flush()).is_err() {
                    return false;
                }
                std::thread::sleep(every);
            }
            false
        }
        Reply::LyingLength { announced, sent } => {
            let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {announced}\r\n\r\n");
            let _ = out.write_all(head.as_bytes());
            let _ = out.write_all(&vec![b'y'; sent as usize]);
            false
        }
    }
}

/// Every file under `dir` (bounded walk), for "nothing was written outside" checks.
pub fn all_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    let mut budget = 100_000;
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            budget -= 1;
            if budget == 0 {
                return out;
            }
            let p = e.path();
            if p.is_dir() {
                stack.push(p.clone());
            }
            out.push(p);
        }
    }
    out
}

/// Runs a child process to its end and returns its status, output and peak resident memory in
/// KiB, killing it after `timeout`. The peak is `VmHWM` of `/proc/PID/status`, polled every
/// 5 ms while the process runs the binary it was started with (`ru_maxrss` cannot be used: Linux
/// carries the parent's high-water mark across the spawn into the child's).
pub fn run_measured(
    cmd: &mut std::process::Command,
    timeout: Duration,
) -> (std::process::ExitStatus, String, String, u64) {
    use std::process::Stdio;
    let name: String = std::path::Path::new(cmd.get_program())
        .file_name()
        .map(|n| n.to_string_lossy().chars().take(15).collect())
        .unwrap_or_default();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let pid = child.id();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out_t = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut s);
        s
    });
    let err_t = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    let started = Instant::now();
    let mut peak = 0u64;
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(format!("/proc/{pid}/status")) {
            let is_target = text
                .lines()
                .any(|l| l.strip_prefix("Name:").is_some_and(|n| n.trim() == name));
            if is_target {
                let hwm = text
                    .lines()
                    .find_map(|l| l.strip_prefix("VmHWM:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok());
                peak = peak.max(hwm.unwrap_or(0));
            }
        }
        if let Some(status) = child.try_wait().expect("try_wait") {
            break status;
        }
        if started.elapsed() > timeout {
            let _ = child.kill();
            break child.wait().expect("wait");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    (status, out_t.join().unwrap(), err_t.join().unwrap(), peak)
}

/// A temp dir with `local/` (the repository), `in/` (inputs: an empty `settings.xml`) and
/// `outside/` (must stay empty).
pub struct Place {
    /// The temp dir itself.
    pub tmp: tempfile::TempDir,
}

impl Place {
    /// Creates the three folders.
    pub fn new() -> Place {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("local")).unwrap();
        std::fs::create_dir_all(tmp.path().join("in")).unwrap();
        std::fs::write(tmp.path().join("in/settings.xml"), "<settings/>").unwrap();
        std::fs::create_dir_all(tmp.path().join("outside")).unwrap();
        Place { tmp }
    }

    /// The local repository.
    pub fn local(&self) -> std::path::PathBuf {
        self.tmp.path().join("local")
    }

    /// Everything in the temp dir is the local repository or inside it (or an input).
    pub fn assert_nothing_outside(&self) {
        let local = self.local();
        let stray: Vec<std::path::PathBuf> = all_files(self.tmp.path())
            .into_iter()
            .filter(|p| {
                !p.starts_with(&local)
                    && !p.starts_with(self.tmp.path().join("in"))
                    && p != &self.tmp.path().join("outside")
            })
            .collect();
        assert!(
            stray.is_empty(),
            "written outside the local repository: {stray:?}"
        );
    }
}
