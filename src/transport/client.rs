//! [`Transport`]: GET requests to remote repositories the way Maven Resolver's HTTP transport makes
//! them, over a pool of reqwest clients (rustls, HTTP/1.1 and HTTP/2, keep-alive).
//!
//! What it owns:
//! - one client per distinct proxy configuration and timeout pair, shared by every repository
//!   that uses the same proxy (connection reuse across repositories on the same host);
//! - the repository's proxy: `http`/`https` kinds are plain-HTTP proxies (CONNECT for https
//!   targets) with `Proxy-Authorization`; `socks5`/`socks5h` use SOCKS5 with user/password
//!   (spec §5.4; SOCKS is beyond Maven);
//! - credentials: `Authorization: Basic` sent preemptively, but only to URLs under the
//!   repository's base URL ([`crate::transport::scope`]) — redirects are followed here (at most
//!   5, like Resolver) and a redirect anywhere else is made without it; a path that would
//!   leave the base is not requested at all;
//! - limits ([`crate::transport::limits`]): in-memory bodies have a ceiling
//!   ([`DEFAULT_MAX_IN_MEMORY`] unless the caller says less), every body a low-speed limit and a
//!   `Content-Length` check;
//! - headers: `Cache-Control: no-cache, no-store` and `Pragma: no-cache`, then the server's
//!   `httpHeaders` (spec §8.9); no transparent decompression (reqwest's gzip feature is off), so
//!   `.tar.gz` bytes arrive as stored;
//! - timeouts (`connectTimeout`, `requestTimeout` as the read-inactivity timeout) and bounded
//!   retries of network errors, 408/429/5xx ([`RetryPolicy`]).
//!
//! - `file:` repositories are read from disk (a missing file is a 404); other protocols are refused
//!   with a clear error.
//!
//! It does not know about artifacts, checksums or the local repository ([`crate::download`]).

use crate::environment::Vars;
use crate::repository::{ProxySource, RemoteRepository, RepositoryProxy};
use crate::transport::credentials::basic_header;
use crate::transport::error::{redact_url, TransportError};
use crate::transport::limits::{BodyGuard, BodyTooLarge, GuardError, LimitedBuffer, LowSpeedLimit};
use crate::transport::retry::{status_is_retryable, RetryPolicy};
use crate::transport::scope::within_base;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use sha2::Digest;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use url::Url;

/// Resolver 1.9's default connect timeout (`aether.connector.connectTimeout`).
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Resolver's default request timeout (`aether.connector.requestTimeout`, 30 min), used as the
/// read-inactivity timeout.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(1800);
/// Resolver's redirect limit (`aether.connector.http.maxRedirects`).
pub const MAX_REDIRECTS: usize = 5;
/// Ceiling of [`Transport::get_bytes`]: the largest body kept in memory unless the caller asks
/// for less with [`Transport::get_bytes_limited`] (16 MiB: Maven Central's largest
/// `maven-metadata.xml` files are about 1 MiB).
pub const DEFAULT_MAX_IN_MEMORY: u64 = 16 << 20;

/// Options shared by every repository. `Debug` shows environment variable names only.
#[derive(Debug, Clone)]
pub struct TransportOptions {
    /// PEM files with extra trusted CA certificates, added to the system roots.
    pub extra_ca_files: Vec<PathBuf>,
    /// Environment snapshot (never the live process environment): `SSL_CERT_FILE` names one more
    /// PEM bundle to trust.
    pub env: Vars,
    /// Retry rules for network errors and 408/429/5xx.
    pub retry: RetryPolicy,
    /// Connect timeout when the server entry sets none.
    pub connect_timeout: Duration,
    /// Read-inactivity timeout when the server entry sets none.
    pub request_timeout: Duration,
    /// `User-Agent` header.
    pub user_agent: String,
    /// Abort a body when fewer than this many bytes arrive within this window
    /// ([`crate::transport::DEFAULT_LOW_SPEED`]: 1,024 bytes in 60 s).
    pub low_speed: LowSpeedLimit,
}

impl Default for TransportOptions {
    fn default() -> Self {
        TransportOptions {
            extra_ca_files: Vec::new(),
            env: Vars::new(),
            retry: RetryPolicy::default(),
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            user_agent: concat!("m2resolver/", env!("CARGO_PKG_VERSION")).to_string(),
            low_speed: LowSpeedLimit::default(),
        }
    }
}

/// Receives a response body; [`Transport::download`] calls `reset` before a retry so a partly
/// written body is discarded.
pub trait BodySink: Send {
    /// The response headers arrived (called once per attempt, before any `write`).
    fn start(&mut self, headers: &HeaderMap, content_length: Option<u64>) -> std::io::Result<()>;
    /// The next chunk of the body.
    fn write(&mut self, chunk: &[u8]) -> std::io::Result<()>;
    /// Discard everything written so far (a retry follows).
    fn reset(&mut self) -> std::io::Result<()>;
}

impl BodySink for Vec<u8> {
    fn start(&mut self, _: &HeaderMap, len: Option<u64>) -> std::io::Result<()> {
        if let Some(n) = len {
            self.reserve(n.min(16 << 20) as usize);
        }
        Ok(())
    }
    fn write(&mut self, chunk: &[u8]) -> std::io::Result<()> {
        self.extend_from_slice(chunk);
        Ok(())
    }
    fn reset(&mut self) -> std::io::Result<()> {
        self.clear();
        Ok(())
    }
}

/// What a successful GET returned besides the body.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// The URL finally answered (after redirects).
    pub url: Url,
    /// Response headers (for included checksums).
    pub headers: HeaderMap,
    /// Body bytes received.
    pub bytes: u64,
    /// Retries it took.
    pub retries: u32,
}

/// The HTTP side of the downloader. Cheap to share (`Arc`); thread-safe.
pub struct Transport {
    options: TransportOptions,
    roots: Vec<reqwest::Certificate>,
    clients: Mutex<HashMap<String, reqwest::Client>>,
}

impl std::fmt::Debug for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Transport")
            .field("options", &self.options)
            .field("extra_roots", &self.roots.len())
            .finish()
    }
}

/// Error classification of one attempt.
enum Attempt {
    Done(Fetched),
    Retry(TransportError, Option<u64>),
    Fail(TransportError),
}

impl Transport {
    /// Reads the extra CA files and `SSL_CERT_FILE` from the env snapshot.
    pub fn new(options: TransportOptions) -> Result<Self, TransportError> {
        let mut files = options.extra_ca_files.clone();
        if let Some(f) = options.env.get("SSL_CERT_FILE").filter(|f| !f.is_empty()) {
            files.push(PathBuf::from(f));
        }
        let mut roots = Vec::new();
        for file in &files {
            // A CA bundle is a few hundred KiB; /dev/zero or a FIFO here is refused unread.
            let pem = crate::bounded::read_regular_file(file, 16 << 20)
                .map_err(|e| TransportError::Setup(format!("cannot read CA file: {e}")))?;
            let certs = reqwest::Certificate::from_pem_bundle(&pem).map_err(|e| {
                TransportError::Setup(format!(
                    "CA file {} is not a PEM bundle: {e}",
                    file.display()
                ))
            })?;
            if certs.is_empty() {
                return Err(TransportError::Setup(format!(
                    "CA file {} holds no PEM certificate",
                    file.display()
                )));
            }
            roots.extend(certs);
        }
        Ok(Transport {
            options,
            roots,
            clients: Mutex::new(HashMap::new()),
        })
    }

    /// The options in use.
    pub fn options(&self) -> &TransportOptions {
        &self.options
    }

    /// Number of distinct clients built so far (one per proxy configuration and timeouts).
    pub fn client_count(&self) -> usize {
        self.clients.lock().map(|c| c.len()).unwrap_or(0)
    }

    fn client_for(&self, repo: &RemoteRepository) -> Result<reqwest::Client, TransportError> {
        let connect = repo
            .transport
            .connect_timeout
            .unwrap_or(self.options.connect_timeout);
        let read = repo
            .transport
            .request_timeout
            .unwrap_or(self.options.request_timeout);
        let key = client_key(repo.proxy.as_ref(), connect, read);
        let mut clients = self
            .clients
            .lock()
            .map_err(|_| TransportError::Setup("client pool lock poisoned".into()))?;
        if let Some(c) = clients.get(&key) {
            return Ok(c.clone());
        }
        let mut b = reqwest::Client::builder()
            .use_rustls_tls()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(connect)
            .read_timeout(read)
            .pool_idle_timeout(Duration::from_secs(300))
            .tcp_nodelay(true)
            .user_agent(self.options.user_agent.clone());
        for cert in &self.roots {
            b = b.add_root_certificate(cert.clone());
        }
        b = match &repo.proxy {
            None => b.no_proxy(),
            Some(p) => b.proxy(build_proxy(p, &repo.id)?),
        };
        let client = b
            .build()
            .map_err(|e| TransportError::Setup(error_chain(&e)))?;
        clients.insert(key, client.clone());
        Ok(client)
    }

    /// GETs `path` (relative to the repository URL) into memory, at most
    /// [`DEFAULT_MAX_IN_MEMORY`] bytes.
    pub async fn get_bytes(
        &self,
        repo: &RemoteRepository,
        path: &str,
    ) -> Result<(Vec<u8>, Fetched), TransportError> {
        self.get_bytes_limited(repo, path, DEFAULT_MAX_IN_MEMORY)
            .await
    }

    /// GETs `path` into memory, refusing a body larger than `limit` bytes
    /// ([`TransportError::TooLarge`]) before reading it when the server announces its length.
    pub async fn get_bytes_limited(
        &self,
        repo: &RemoteRepository,
        path: &str,
        limit: u64,
    ) -> Result<(Vec<u8>, Fetched), TransportError> {
        let mut body = LimitedBuffer::new(limit);
        let f = self.download(repo, path, &mut body).await?;
        Ok((body.into_bytes(), f))
    }

    /// GETs `path` (relative to the repository URL) into `sink`, following redirects and retrying
    /// transient failures (the sink is reset before each retry).
    pub async fn download(
        &self,
        repo: &RemoteRepository,
        path: &str,
        sink: &mut dyn BodySink,
    ) -> Result<Fetched, TransportError> {
        let url = repo
            .url
            .resolve(path)
            .map_err(|e| TransportError::InvalidUrl {
                repository: repo.id.clone(),
                url: repo.url.to_string(),
                message: e.to_string(),
            })?;
        let base = repo.url.parsed().cloned();
        let supported = matches!(url.scheme(), "http" | "https" | "file");
        if supported && !base.as_ref().is_some_and(|b| within_base(b, &url)) {
            return Err(TransportError::InvalidUrl {
                repository: repo.id.clone(),
                url: redact_url(url.as_str()),
                message: format!(
                    "the path `{}` leaves the repository's base URL; it was not requested",
                    path.escape_debug()
                ),
            });
        }
        match url.scheme() {
            "http" | "https" => {}
            "file" => return read_file_url(repo, &url, sink),
            other => {
                return Err(TransportError::InvalidUrl {
                    repository: repo.id.clone(),
                    url: repo.url.to_string(),
                    message: format!(
                        "unsupported protocol `{other}` (http, https and file are supported)"
                    ),
                })
            }
        }
        let client = self.client_for(repo)?;
        let auth = repo_authorization(repo)?;
        let started = Instant::now();
        let mut retries = 0u32;
        loop {
            let attempt = self
                .attempt(
                    &client,
                    repo,
                    &url,
                    base.as_ref(),
                    auth.as_deref(),
                    sink,
                    retries,
                    started,
                )
                .await;
            match attempt {
                Attempt::Done(f) => return Ok(f),
                Attempt::Fail(e) => return Err(e),
                Attempt::Retry(e, hint) => {
                    if retries >= self.options.retry.retries {
                        return Err(with_retries(e, retries, started.elapsed()));
                    }
                    retries += 1;
                    tracing::debug!(url = %redact_url(url.as_str()), retries, error = %e, "retrying");
                    sink.reset()
                        .map_err(|source| sink_error(repo, redact_url(url.as_str()), source))?;
                    tokio::time::sleep(self.options.retry.delay_with_hint(retries, hint)).await;
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    async fn attempt(
        &self,
        client: &reqwest::Client,
        repo: &RemoteRepository,
        start_url: &Url,
        base: Option<&Url>,
        auth: Option<&str>,
        sink: &mut dyn BodySink,
        retries: u32,
        started: Instant,
    ) -> Attempt {
        let mut url = start_url.clone();
        let mut redirects = 0usize;
        loop {
            let mut req = client
                .get(url.clone())
                .header("Cache-Control", "no-cache, no-store")
                .header("Pragma", "no-cache");
            let mut headers = HeaderMap::new();
            for (name, value) in &repo.transport.headers {
                match (
                    HeaderName::from_bytes(name.as_bytes()),
                    HeaderValue::from_str(value.expose()),
                ) {
                    (Ok(n), Ok(v)) => {
                        headers.insert(n, v);
                    }
                    _ => tracing::warn!(
                        repository = %repo.id,
                        header = %name,
                        "httpHeaders entry is not a valid HTTP header; not sent"
                    ),
                }
            }
            // Credentials go only to URLs under the repository's base (scope.rs).
            let same_origin = base.is_some_and(|b| within_base(b, &url));
            if let (Some(a), true) = (auth, same_origin) {
                if let Ok(mut v) = HeaderValue::from_str(a) {
                    v.set_sensitive(true);
                    req = req.header(reqwest::header::AUTHORIZATION, v);
                }
            }
            req = req.headers(headers);
            let redacted = redact_url(url.as_str());
            let resp = match req.send().await {
                Ok(r) => r,
                Err(e) => return classify_error(&e, repo, &redacted, retries, started),
            };
            let status = resp.status().as_u16();
            if (300..400).contains(&status) && status != 304 {
                redirects += 1;
                let loc = resp
                    .headers()
                    .get(reqwest::header::LOCATION)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|l| url.join(l).ok());
                match loc {
                    Some(next) if redirects <= MAX_REDIRECTS => {
                        url = next;
                        continue;
                    }
                    Some(_) => {
                        return Attempt::Fail(TransportError::Redirect {
                            repository: repo.id.clone(),
                            url: redacted,
                            message: format!("more than {MAX_REDIRECTS} redirects"),
                        })
                    }
                    None => {
                        return Attempt::Fail(TransportError::Redirect {
                            repository: repo.id.clone(),
                            url: redacted,
                            message: format!("HTTP {status} without a valid Location header"),
                        })
                    }
                }
            }
            match status {
                200..=299 => {}
                404 | 410 => {
                    return Attempt::Fail(TransportError::NotFound {
                        repository: repo.id.clone(),
                        url: redacted,
                        status,
                    })
                }
                401 | 403 => {
                    return Attempt::Fail(TransportError::Unauthorized {
                        server_id: repo.id.clone(),
                        url: redacted,
                        status,
                        sent_credentials: auth.is_some() && same_origin,
                        via_proxy: repo
                            .proxy
                            .as_ref()
                            .filter(|p| {
                                url.scheme() == "http"
                                    && !p.kind.to_ascii_lowercase().starts_with("socks")
                            })
                            .map(proxy_label),
                    })
                }
                407 => return Attempt::Fail(proxy_auth_error(repo, redacted)),
                s => {
                    let err = TransportError::Status {
                        repository: repo.id.clone(),
                        url: redacted,
                        status: s,
                        retries,
                        elapsed: started.elapsed(),
                    };
                    if status_is_retryable(s) {
                        let hint = resp
                            .headers()
                            .get(reqwest::header::RETRY_AFTER)
                            .and_then(|v| v.to_str().ok())
                            .and_then(|v| v.trim().parse::<u64>().ok());
                        return Attempt::Retry(err, hint);
                    }
                    return Attempt::Fail(err);
                }
            }
            let headers = resp.headers().clone();
            let content_length = resp.content_length();
            if let Err(source) = sink.start(&headers, content_length) {
                return Attempt::Fail(sink_error(repo, redacted, source));
            }
            let final_url = resp.url().clone();
            let mut guard = BodyGuard::new(self.options.low_speed, content_length);
            let mut stream = resp.bytes_stream();
            loop {
                match guard.next(&mut stream).await {
                    Ok(Some(c)) => {
                        if let Err(source) = sink.write(&c) {
                            return Attempt::Fail(sink_error(repo, redacted, source));
                        }
                    }
                    Ok(None) => break,
                    Err(GuardError::Stop(source)) => {
                        return Attempt::Fail(TransportError::BodyStopped {
                            repository: repo.id.clone(),
                            url: redacted,
                            source,
                            elapsed: started.elapsed(),
                        })
                    }
                    Err(GuardError::Stream(e)) => {
                        return classify_error(&e, repo, &redacted, retries, started)
                    }
                }
            }
            let bytes = guard.received();
            return Attempt::Done(Fetched {
                url: final_url,
                headers,
                bytes,
                retries,
            });
        }
    }
}

/// Serves a `file:` repository (Maven supports them too): a missing file is [`TransportError::NotFound`].
fn read_file_url(
    repo: &RemoteRepository,
    url: &Url,
    sink: &mut dyn BodySink,
) -> Result<Fetched, TransportError> {
    use std::io::Read;
    let redacted = redact_url(url.as_str());
    let path = url.to_file_path().map_err(|_| TransportError::InvalidUrl {
        repository: repo.id.clone(),
        url: redacted.clone(),
        message: "not a local file path".into(),
    })?;
    let io_err = |e: std::io::Error| TransportError::Network {
        repository: repo.id.clone(),
        url: redacted.clone(),
        via: String::new(),
        message: format!("cannot read {}: {e}", path.display()),
        retries: 0,
        elapsed: Duration::ZERO,
    };
    let mut file = match std::fs::File::open(&path) {
        Ok(f) if path.is_file() => f,
        Ok(_) => {
            return Err(TransportError::NotFound {
                repository: repo.id.clone(),
                url: redacted,
                status: 404,
            })
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(TransportError::NotFound {
                repository: repo.id.clone(),
                url: redacted,
                status: 404,
            })
        }
        Err(e) => return Err(io_err(e)),
    };
    let len = file.metadata().ok().map(|m| m.len());
    let headers = HeaderMap::new();
    let sink_err = |source| sink_error(repo, redacted.clone(), source);
    sink.start(&headers, len).map_err(sink_err)?;
    let mut buf = vec![0u8; 64 * 1024];
    let mut bytes = 0u64;
    loop {
        let n = file.read(&mut buf).map_err(io_err)?;
        if n == 0 {
            break;
        }
        bytes += n as u64;
        sink.write(&buf[..n]).map_err(sink_err)?;
    }
    Ok(Fetched {
        url: url.clone(),
        headers,
        bytes,
        retries: 0,
    })
}

/// A sink's error: [`TransportError::TooLarge`] when the sink refused the size, else
/// [`TransportError::Sink`].
fn sink_error(repo: &RemoteRepository, url: String, source: std::io::Error) -> TransportError {
    match BodyTooLarge::find(&source) {
        Some(too_large) => TransportError::TooLarge {
            repository: repo.id.clone(),
            url,
            source: too_large,
        },
        None => TransportError::Sink { url, source },
    }
}

/// The preemptive `Authorization` value of a repository (its password is a clear [`Secret`]:
/// the session decrypted it, or left it out when it could not).
///
/// [`Secret`]: crate::Secret
fn repo_authorization(repo: &RemoteRepository) -> Result<Option<String>, TransportError> {
    let Some(a) = &repo.authentication else {
        return Ok(None);
    };
    let Some(user) = &a.username else {
        return Ok(None);
    };
    let password = a.password.as_ref().map(|p| p.expose()).unwrap_or("");
    Ok(Some(basic_header(user, password)))
}

fn proxy_label(p: &RepositoryProxy) -> String {
    format!("{}:{}", p.host, p.port)
}

fn proxy_id(p: &RepositoryProxy) -> Option<String> {
    match &p.source {
        ProxySource::Settings { id } => Some(id.clone()),
        ProxySource::Environment { variable } => Some(format!("(from ${variable})")),
        ProxySource::SystemProperties => None,
    }
}

fn proxy_auth_error(repo: &RemoteRepository, url: String) -> TransportError {
    let p = repo.proxy.as_ref();
    TransportError::ProxyAuth {
        proxy: p.map(proxy_label).unwrap_or_else(|| "(unknown)".into()),
        proxy_id: p.and_then(proxy_id),
        repository: repo.id.clone(),
        url,
        sent_credentials: p
            .and_then(|p| p.auth.as_ref())
            .is_some_and(|a| a.username.is_some()),
    }
}

fn build_proxy(p: &RepositoryProxy, repo_id: &str) -> Result<reqwest::Proxy, TransportError> {
    let kind = p.kind.to_ascii_lowercase();
    let scheme = match kind.as_str() {
        "socks5" | "socks5h" | "socks4" | "socks4a" => kind.as_str(),
        // Maven's http/https proxy types are matching keys only; the proxy link is plain HTTP (§5.4).
        _ => "http",
    };
    if !(0..=65535).contains(&p.port) {
        return Err(TransportError::Setup(format!(
            "proxy {} for repository `{repo_id}` has an invalid port {}",
            proxy_label(p),
            p.port
        )));
    }
    let host = if p.host.contains(':') && !p.host.starts_with('[') {
        format!("[{}]", p.host)
    } else {
        p.host.clone()
    };
    let mut proxy = reqwest::Proxy::all(format!("{scheme}://{host}:{}", p.port)).map_err(|e| {
        TransportError::Setup(format!(
            "proxy {} for repository `{repo_id}`: {}",
            proxy_label(p),
            error_chain(&e)
        ))
    })?;
    if let Some(a) = &p.auth {
        if let Some(user) = &a.username {
            let pw = a.password.as_ref().map(|s| s.expose()).unwrap_or("");
            proxy = proxy.basic_auth(user, pw);
        }
    }
    Ok(proxy)
}

/// Pool key: proxy identity (credentials hashed) and timeouts.
fn client_key(proxy: Option<&RepositoryProxy>, connect: Duration, read: Duration) -> String {
    let p = match proxy {
        None => "direct".to_string(),
        Some(p) => {
            let (user, pw) = p
                .auth
                .as_ref()
                .map(|a| {
                    (
                        a.username.clone().unwrap_or_default(),
                        a.password
                            .as_ref()
                            .map(|s| s.expose().to_string())
                            .unwrap_or_default(),
                    )
                })
                .unwrap_or_default();
            let digest = hex::encode(sha2::Sha256::digest(format!("{user}\0{pw}").as_bytes()));
            format!(
                "{}|{}|{}|{}",
                p.kind.to_ascii_lowercase(),
                p.host,
                p.port,
                digest
            )
        }
    };
    format!("{p}|{}|{}", connect.as_millis(), read.as_millis())
}

/// Flattens an error and its sources into one line.
pub(crate) fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        let m = c.to_string();
        if !s.contains(&m) {
            s.push_str(": ");
            s.push_str(&m);
        }
        cur = c.source();
    }
    s
}

fn classify_error(
    e: &reqwest::Error,
    repo: &RemoteRepository,
    url: &str,
    retries: u32,
    started: Instant,
) -> Attempt {
    let chain = error_chain(e);
    let lower = chain.to_ascii_lowercase();
    if lower.contains("proxy authorization required")
        || lower.contains("proxy authentication required")
    {
        return Attempt::Fail(proxy_auth_error(repo, url.to_string()));
    }
    if lower.contains("tunnel error: unsuccessful") {
        let p = repo.proxy.as_ref();
        return Attempt::Fail(TransportError::ProxyRefused {
            proxy: p.map(proxy_label).unwrap_or_else(|| "(unknown)".into()),
            proxy_id: p.and_then(proxy_id),
            repository: repo.id.clone(),
            url: url.to_string(),
        });
    }
    let via = repo
        .proxy
        .as_ref()
        .map(|p| format!(" via proxy {}", proxy_label(p)))
        .unwrap_or_default();
    let err = TransportError::Network {
        repository: repo.id.clone(),
        url: url.to_string(),
        via,
        message: if e.is_timeout() {
            format!("timed out: {chain}")
        } else {
            chain
        },
        retries,
        elapsed: started.elapsed(),
    };
    // Certificate problems and refused SOCKS authentication do not heal by retrying.
    let permanent = lower.contains("certificate")
        || lower.contains("invalid peer")
        || (lower.contains("socks") && (lower.contains("auth") || lower.contains("password")));
    if permanent {
        Attempt::Fail(err)
    } else {
        Attempt::Retry(err, None)
    }
}

fn with_retries(e: TransportError, n: u32, elapsed: Duration) -> TransportError {
    match e {
        TransportError::Network {
            repository,
            url,
            via,
            message,
            ..
        } => TransportError::Network {
            repository,
            url,
            via,
            message,
            retries: n,
            elapsed,
        },
        TransportError::Status {
            repository,
            url,
            status,
            ..
        } => TransportError::Status {
            repository,
            url,
            status,
            retries: n,
            elapsed,
        },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repository::Authentication;
    use crate::Secret;

    fn proxy(kind: &str, user: Option<(&str, &str)>) -> RepositoryProxy {
        RepositoryProxy {
            kind: kind.into(),
            host: "127.0.0.1".into(),
            port: 3128,
            auth: user.map(|(u, p)| Authentication {
                username: Some(u.into()),
                password: Some(Secret::new(p)),
                ..Default::default()
            }),
            source: ProxySource::Settings { id: "corp".into() },
        }
    }

    #[test]
    fn client_key_separates_proxies_and_hides_passwords() {
        let t = Duration::from_secs(1);
        let a = client_key(Some(&proxy("http", Some(("u", "p1")))), t, t);
        let b = client_key(Some(&proxy("http", Some(("u", "p2")))), t, t);
        let c = client_key(Some(&proxy("https", Some(("u", "p1")))), t, t);
        assert_ne!(a, b);
        assert_ne!(a, c);
        assert!(!a.contains("p1"));
        assert_eq!(client_key(None, t, t), client_key(None, t, t));
        assert_ne!(client_key(None, t, t), client_key(None, t * 2, t));
    }

    #[test]
    fn authorization_only_with_username() {
        let mut repo = RemoteRepository::new("r", "http://h/");
        assert_eq!(repo_authorization(&repo).unwrap(), None);
        repo.authentication = Some(Authentication {
            username: Some("deploy".into()),
            password: Some(Secret::new("s3cret")),
            ..Default::default()
        });
        assert_eq!(
            repo_authorization(&repo).unwrap().as_deref(),
            Some("Basic ZGVwbG95OnMzY3JldA==")
        );
    }

    #[test]
    fn proxy_port_is_checked() {
        let mut p = proxy("socks5", None);
        p.port = 70000;
        assert!(build_proxy(&p, "r").is_err());
        p.port = 1080;
        assert!(build_proxy(&p, "r").is_ok());
    }
}
