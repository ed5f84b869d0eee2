//! [`Transport`]: GET requests to remote repositories the way Maven Resolver's HTTP transport makes
//! them, over hyper's pooled client (HTTP/1.1 keep-alive and HTTP/2, also through tunnels) with
//! m2r's own [`crate::transport::connector`].
//!
//! What it owns:
//! - one client per distinct proxy configuration and timeout pair, shared by every repository
//!   that uses the same proxy (connection reuse across repositories on the same host);
//! - the session: the routes that failed ([`crate::transport::route`]) and the authentication
//!   learned per proxy and per server ([`crate::transport::auth`]), so that later connections
//!   answer preemptively and a rejected proxy password fails at once;
//! - the repository's proxy: `http`/`https` kinds are plain-HTTP proxies (CONNECT for https
//!   targets, absolute-form requests for http ones) whose `407` challenges are answered (Basic,
//!   Digest, NTLM); `socks5`/`socks5h` use SOCKS5 with user/password (spec §5.4; beyond Maven);
//! - credentials: `Authorization: Basic` sent preemptively, but only to URLs under the
//!   repository's base URL ([`crate::transport::scope`]) — redirects are followed here (at most
//!   5, like Resolver) and a redirect anywhere else is made without it; a path that would leave
//!   the base is not requested at all; a `401` asking for Digest is answered once per request
//!   and Digest used from then on;
//! - limits ([`crate::transport::limits`]): in-memory bodies have a ceiling
//!   ([`DEFAULT_MAX_IN_MEMORY`] unless the caller says less), every body a low-speed limit and a
//!   `Content-Length` check;
//! - headers: `Cache-Control: no-cache, no-store` and `Pragma: no-cache`, then the server's
//!   `httpHeaders` (spec §8.9); no transparent decompression, so `.tar.gz` bytes arrive as stored;
//! - timeouts (`connectTimeout` per route, `requestTimeout` as the read-inactivity timeout) and
//!   bounded retries of network errors, 408/429/5xx ([`RetryPolicy`]);
//! - `file:` repositories are read from disk (a missing file is a 404); other protocols are
//!   refused with a clear error.
//!
//! It does not know about artifacts, checksums or the local repository ([`crate::download`]).

use crate::environment::Vars;
use crate::repository::{CredentialSource, ProxySource, RemoteRepository, RepositoryProxy};
use crate::transport::auth::{Answer, Authenticator, Exchange, Level, Party, Rejection};
use crate::transport::body::{ContinueSignal, PutOptions, RequestBody, Upload};
use crate::transport::challenge::parse_challenges;
use crate::transport::connector::{
    ConnectError, Connector, ConnectorConfig, ProxyKind, ProxySpec, RouteInfo,
};
use crate::transport::error::{redact_url, NetworkCause, TimeoutPhase, TransportError};
use crate::transport::helper::CredentialHelpers;
use crate::transport::limits::{BodyGuard, BodyTooLarge, GuardError, LimitedBuffer, LowSpeedLimit};
use crate::transport::retry::{status_is_retryable, RetryPolicy};
use crate::transport::route::{self, HostResolver, RouteDatabase, RoutePlan};
use crate::transport::scope::within_base;
use crate::transport::tls;
use crate::transport::warmup::{origin_key, Warmups};
use bytes::Bytes;
use http::header::{HeaderMap, HeaderName, HeaderValue};
use http_body_util::BodyExt;
use hyper_util::client::legacy::Client;
use hyper_util::rt::{TokioExecutor, TokioTimer};
use sha2::Digest;
use std::collections::HashMap;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
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
/// Bytes of an error page read (and dropped) after a challenge so the connection can be reused.
const MAX_DRAINED: usize = 64 * 1024;

/// Options shared by every repository. `Debug` shows environment variable names only.
#[derive(Debug, Clone)]
pub struct TransportOptions {
    /// PEM files with extra trusted CA certificates, added to the system roots.
    pub extra_ca_files: Vec<PathBuf>,
    /// Environment snapshot (never the live process environment): `SSL_CERT_FILE` names one more
    /// PEM bundle to trust; `USERDOMAIN` is NTLM's domain for user names without one, and
    /// `COMPUTERNAME` its workstation name.
    pub env: Vars,
    /// Retry rules for network errors and 408/429/5xx.
    pub retry: RetryPolicy,
    /// Connect timeout (per address tried) when the server entry sets none.
    pub connect_timeout: Duration,
    /// Read-inactivity timeout when the server entry sets none.
    pub request_timeout: Duration,
    /// `User-Agent` header.
    pub user_agent: String,
    /// Host names resolved to these addresses instead of asking the system resolver, tried in
    /// this order (like curl's `--resolve`), for proxies and repositories alike.
    pub resolve: HashMap<String, Vec<IpAddr>>,
    /// Abort a body when fewer than this many bytes arrive within this window
    /// ([`crate::transport::DEFAULT_LOW_SPEED`]: 1,024 bytes in 60 s).
    pub low_speed: LowSpeedLimit,
    /// The working directory credential helpers run in (`None`: the process's). They run with
    /// `env` as their whole environment; their answers are cached by the transport (see
    /// [`Transport::credential_helpers`]).
    pub credential_helper_dir: Option<PathBuf>,
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
            resolve: HashMap::new(),
            low_speed: LowSpeedLimit::default(),
            credential_helper_dir: None,
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
    /// The response status.
    pub status: u16,
    /// Response headers (for included checksums).
    pub headers: HeaderMap,
    /// Body bytes received.
    pub bytes: u64,
    /// Retries it took.
    pub retries: u32,
}

type HttpClient = Client<Connector, RequestBody>;

/// What an upload returned.
#[derive(Debug, Clone)]
pub struct Uploaded {
    /// The URL finally answered (after redirects).
    pub url: Url,
    /// The success status (200, 201, 202 or 204 for HTTP; 201 for a `file:` repository).
    pub status: u16,
    /// Bytes sent (the body length).
    pub bytes: u64,
    /// Retries it took.
    pub retries: u32,
}

/// The method of a request and, for an upload, what it sends and how.
struct Spec<'a> {
    method: http::Method,
    upload: Option<(&'a Upload, u64, &'a PutOptions)>,
    /// Which connections it would rather take: see [`Lane`].
    purpose: Purpose,
}

/// What a request is for, which decides its [`Lane`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Purpose {
    /// A file the caller waits for.
    Waited,
    /// A file made ahead of its download ([`Transport::get_bytes_for`]).
    Ahead,
    /// A checksum file the caller waits for beside its artifact.
    Checksum,
}

/// Which connections of an origin a request takes: one client (on HTTP/2, one connection)
/// per lane. A server allows about 100 streams at once on one HTTP/2 connection (nginx 128),
/// and a request beyond them waits for one to end; so on HTTP/2 the requests made ahead of
/// their downloads take a lane of their own, to neither queue behind nor hold up the requests
/// the caller waits for, and the checksum files fetched beside their artifacts take a third,
/// so that an artifact and its checksum file (a POM and its `.sha1`: the two requests of
/// every step of a collection's chain) do not take two streams of one connection. The first
/// connection of the checksum lane is made alongside the first lane's, not after it. On
/// HTTP/1.1, where each request is a connection anyway, every request takes the first lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Lane(usize);

impl Lane {
    const FIRST: Lane = Lane(0);
    const AHEAD: Lane = Lane(1);
    const CHECKSUMS: Lane = Lane(2);
}

impl Spec<'_> {
    fn get() -> Spec<'static> {
        Spec {
            method: http::Method::GET,
            upload: None,
            purpose: Purpose::Waited,
        }
    }

    fn retry_policy<'b>(&'b self, default: &'b RetryPolicy) -> &'b RetryPolicy {
        self.upload.map(|(_, _, o)| &o.retry).unwrap_or(default)
    }

    fn retries_status(&self, status: u16) -> bool {
        match self.upload {
            Some((_, _, o)) => o.retry_statuses.contains(&status),
            None => status_is_retryable(status),
        }
    }
}

/// A sink that drops what it is given (the answer to an upload).
struct Discard;

impl BodySink for Discard {
    fn start(&mut self, _: &HeaderMap, _: Option<u64>) -> std::io::Result<()> {
        Ok(())
    }
    fn write(&mut self, _: &[u8]) -> std::io::Result<()> {
        Ok(())
    }
    fn reset(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A pooled client and the proxy authentication generation it was built for.
struct Pooled {
    client: HttpClient,
    generation: u64,
}

/// The HTTP side of the downloader. Cheap to share (`Arc`); thread-safe. One `Transport` is one
/// session: failed routes and learned authentication schemes live as long as it does.
pub struct Transport {
    options: TransportOptions,
    /// The extra CA files' certificates, checked at set-up.
    extra_roots: rustls::RootCertStore,
    /// The TLS configuration, built by the first client: loading the system's certificate
    /// store is a tenth of a run that finds everything in the local repository.
    tls: Mutex<Option<Arc<rustls::ClientConfig>>>,
    resolver: Arc<HostResolver>,
    routes: Arc<RouteDatabase>,
    proxy_auth: Mutex<HashMap<String, Arc<Authenticator>>>,
    server_auth: Mutex<HashMap<String, Arc<Authenticator>>>,
    clients: Mutex<HashMap<String, Pooled>>,
    warmups: Arc<Warmups>,
    /// The credential helpers' answers: one run per repository for the transport's lifetime
    /// (a session's, through its engine), until an answer expires.
    helpers: CredentialHelpers,
}

impl std::fmt::Debug for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Transport")
            .field("options", &self.options)
            .field("clients", &self.client_count())
            .finish()
    }
}

/// Error classification of one attempt.
enum Attempt {
    Done(Fetched),
    Retry(TransportError, Option<u64>),
    Fail(TransportError),
}

/// What one repository's requests need: the client, and the proxy's and server's state.
struct RepoSession {
    client: HttpClient,
    /// The client's pool key.
    key: String,
    /// The connections it takes.
    lane: Lane,
    /// The proxy authentication generation the client was built for.
    generation: u64,
    proxy: Option<Arc<Authenticator>>,
    /// The proxy is an HTTP proxy (challenges on plain requests are answered here).
    http_proxy: bool,
    server: Arc<Authenticator>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A stable, non-reversible key for credentials.
fn credentials_key(a: Option<&crate::repository::Authentication>) -> String {
    let (user, pw) = a
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
    hex::encode(sha2::Sha256::digest(format!("{user}\0{pw}").as_bytes()))
}

impl Transport {
    /// Reads the extra CA files and `SSL_CERT_FILE` from the env snapshot.
    pub fn new(options: TransportOptions) -> Result<Self, TransportError> {
        let mut files = options.extra_ca_files.clone();
        if let Some(f) = options.env.get("SSL_CERT_FILE").filter(|f| !f.is_empty()) {
            files.push(PathBuf::from(f));
        }
        let mut extra = Vec::new();
        for file in &files {
            extra.extend(tls::read_pem_certificates(file)?);
        }
        Ok(Transport {
            extra_roots: tls::extra_roots(&extra)?,
            tls: Mutex::new(None),
            resolver: Arc::new(HostResolver::new(&options.resolve)),
            routes: Arc::new(RouteDatabase::default()),
            proxy_auth: Mutex::new(HashMap::new()),
            server_auth: Mutex::new(HashMap::new()),
            clients: Mutex::new(HashMap::new()),
            warmups: Arc::new(Warmups::default()),
            helpers: CredentialHelpers::new(
                options.env.clone(),
                options
                    .credential_helper_dir
                    .clone()
                    .unwrap_or_else(|| PathBuf::from(".")),
            ),
            options,
        })
    }

    /// The options in use.
    pub fn options(&self) -> &TransportOptions {
        &self.options
    }

    /// The credential helpers this transport ran and the answers it keeps.
    pub fn credential_helpers(&self) -> &CredentialHelpers {
        &self.helpers
    }

    /// Number of distinct clients built so far (one per proxy configuration and timeouts).
    pub fn client_count(&self) -> usize {
        lock(&self.clients).len()
    }

    /// The routes that failed to connect in this session (tried last from then on).
    pub fn routes(&self) -> &RouteDatabase {
        &self.routes
    }

    /// How `repo` is reached now: its first hop, that hop's addresses in the order they will be
    /// tried (failed routes last), and the authentication schemes offered first.
    pub async fn route_plan(&self, repo: &RemoteRepository) -> RoutePlan {
        let resolved = match route::first_hop(repo) {
            Some((host, port)) => self
                .resolver
                .resolve(&host, port)
                .await
                .map_err(|e| e.to_string()),
            None => Err("no valid host and port".into()),
        };
        let proxy = self.proxy_authenticator(repo);
        let server = self.server_authenticator(repo);
        route::plan(
            repo,
            move |_, _| resolved,
            &self.routes,
            proxy.as_deref(),
            &server,
        )
    }

    fn proxy_authenticator(&self, repo: &RemoteRepository) -> Option<Arc<Authenticator>> {
        let p = repo.proxy.as_ref()?;
        if ProxyKind::from_kind(&p.kind) != ProxyKind::Http {
            return None;
        }
        let key = format!(
            "{}|{}|{}",
            route::proxy_label(p),
            p.kind.to_ascii_lowercase(),
            credentials_key(p.auth.as_ref())
        );
        let mut map = lock(&self.proxy_auth);
        Some(
            map.entry(key)
                .or_insert_with(|| {
                    Arc::new(Authenticator::new(
                        Party::Proxy,
                        proxy_display(p),
                        p.auth.as_ref(),
                        &self.options.env,
                    ))
                })
                .clone(),
        )
    }

    fn server_authenticator(&self, repo: &RemoteRepository) -> Arc<Authenticator> {
        let origin = repo
            .url
            .parsed()
            .map(|u| u.origin().ascii_serialization())
            .unwrap_or_default();
        let key = format!("{origin}|{}", credentials_key(repo.authentication.as_ref()));
        let mut map = lock(&self.server_auth);
        map.entry(key)
            .or_insert_with(|| {
                Arc::new(Authenticator::new(
                    Party::Server,
                    format!("server `{}`", repo.id),
                    repo.authentication.as_ref(),
                    &self.options.env,
                ))
            })
            .clone()
    }

    fn session_for(
        &self,
        repo: &RemoteRepository,
        lane: Lane,
    ) -> Result<RepoSession, TransportError> {
        let connect = repo
            .transport
            .connect_timeout
            .unwrap_or(self.options.connect_timeout);
        let read = repo
            .transport
            .request_timeout
            .unwrap_or(self.options.request_timeout);
        let proxy_auth = self.proxy_authenticator(repo);
        let server = self.server_authenticator(repo);
        let generation = proxy_auth.as_ref().map(|a| a.generation()).unwrap_or(0);
        let mut key = client_key(repo.proxy.as_ref(), connect, read);
        if lane != Lane::FIRST {
            key.push_str(&format!("|lane{}", lane.0));
        }
        let mut clients = lock(&self.clients);
        if let Some(c) = clients.get(&key).filter(|c| c.generation == generation) {
            return Ok(RepoSession {
                client: c.client.clone(),
                key,
                lane,
                generation,
                http_proxy: proxy_auth.is_some(),
                proxy: proxy_auth,
                server,
            });
        }
        let proxy = match &repo.proxy {
            None => None,
            Some(p) => Some(proxy_spec(p, &repo.id, proxy_auth.clone())?),
        };
        let tls = {
            let mut tls = lock(&self.tls);
            match &*tls {
                Some(config) => config.clone(),
                None => tls.insert(tls::client_config(&self.extra_roots)?).clone(),
            }
        };
        let connector = Connector(Arc::new(ConnectorConfig {
            proxy,
            tls,
            resolver: self.resolver.clone(),
            routes: self.routes.clone(),
            connect_timeout: connect,
            read_timeout: read,
            user_agent: self.options.user_agent.clone(),
            warmups: self.warmups.clone(),
            client_key: key.clone(),
        }));
        let client = Client::builder(TokioExecutor::new())
            .pool_idle_timeout(Duration::from_secs(300))
            .pool_timer(TokioTimer::new())
            .timer(TokioTimer::new())
            .build(connector);
        clients.insert(
            key.clone(),
            Pooled {
                client: client.clone(),
                generation,
            },
        );
        Ok(RepoSession {
            client,
            key,
            lane,
            generation,
            http_proxy: proxy_auth.is_some(),
            proxy: proxy_auth,
            server,
        })
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
        self.get_bytes_as(repo, path, limit, &Spec::get()).await
    }

    /// [`Self::get_bytes_limited`] for a request made for `purpose`: on HTTP/2 a request made
    /// ahead of its download, or a checksum file, takes a lane of its own (see [`Lane`]).
    pub(crate) async fn get_bytes_for(
        &self,
        repo: &RemoteRepository,
        path: &str,
        limit: u64,
        purpose: Purpose,
    ) -> Result<(Vec<u8>, Fetched), TransportError> {
        let spec = Spec {
            purpose,
            ..Spec::get()
        };
        self.get_bytes_as(repo, path, limit, &spec).await
    }

    async fn get_bytes_as(
        &self,
        repo: &RemoteRepository,
        path: &str,
        limit: u64,
        spec: &Spec<'_>,
    ) -> Result<(Vec<u8>, Fetched), TransportError> {
        let mut body = LimitedBuffer::new(limit);
        let f = self.run(repo, path, &mut body, spec).await?;
        Ok((body.into_bytes(), f))
    }

    /// The lane a request to `url` through `repo`'s route takes for `purpose` ([`Lane`]). A
    /// request made ahead waits for the first connection, if it is being made, to know whether
    /// the origin speaks HTTP/2. A checksum file does too, except the first one of its lane:
    /// that one makes the lane's connection alongside the first lane's.
    async fn lane_for(&self, repo: &RemoteRepository, url: &Url, purpose: Purpose) -> Lane {
        let own = match purpose {
            Purpose::Waited => return Lane::FIRST,
            Purpose::Ahead => Lane::AHEAD,
            Purpose::Checksum => Lane::CHECKSUMS,
        };
        let Ok(session) = self.session_for(repo, Lane::FIRST) else {
            return Lane::FIRST;
        };
        let origin = origin_key(
            url.scheme() == "https",
            url.host_str().unwrap_or(""),
            url.port_or_known_default().unwrap_or(0),
        );
        let warmup = self.warmups.get(&session.key, &origin);
        if purpose == Purpose::Checksum
            && url.scheme() == "https"
            && !warmup.is_known()
            && self
                .session_for(repo, own)
                .is_ok_and(|lane| self.warmups.get(&lane.key, &origin).take_early())
        {
            return own;
        }
        warmup.settled().await;
        if warmup.is_h2() {
            own
        } else {
            Lane::FIRST
        }
    }

    /// Feeds `sink` a body received earlier for `path` (a request made ahead of its download)
    /// as [`Self::download`] would have: the sink sees the response's headers, then the body,
    /// and refuses it the same way (too large, a write that fails).
    pub(crate) fn replay(
        &self,
        repo: &RemoteRepository,
        body: &[u8],
        fetched: Fetched,
        sink: &mut dyn BodySink,
    ) -> Result<Fetched, TransportError> {
        let redacted = redact_url(fetched.url.as_str());
        sink.start(&fetched.headers, Some(body.len() as u64))
            .and_then(|()| sink.write(body))
            .map_err(|source| sink_error(repo, redacted, source))?;
        Ok(fetched)
    }

    /// GETs `path` (relative to the repository URL) into `sink`, following redirects and retrying
    /// transient failures (the sink is reset before each retry).
    pub async fn download(
        &self,
        repo: &RemoteRepository,
        path: &str,
        sink: &mut dyn BodySink,
    ) -> Result<Fetched, TransportError> {
        self.run(repo, path, sink, &Spec::get()).await
    }

    /// PUTs `upload` to `path` (relative to the repository URL) as Maven's Wagon does: the
    /// repository's credentials (Basic sent at once, a Digest challenge answered) and proxy,
    /// `Expect: 100-continue` unless [`PutOptions::expect_continue`] is off, redirects followed
    /// with the body sent again, retries of connection errors and of
    /// [`PutOptions::retry_statuses`]. 200, 201, 202 and 204 are success; a `file:` repository
    /// gets the file written (folders created, through a temporary file and a rename).
    pub async fn put(
        &self,
        repo: &RemoteRepository,
        path: &str,
        upload: &Upload,
        options: &PutOptions,
    ) -> Result<Uploaded, TransportError> {
        let length = upload
            .length()
            .map_err(|source| TransportError::UploadSource {
                repository: repo.id.clone(),
                path: match upload {
                    Upload::File(p) => p.clone(),
                    Upload::Bytes(_) => PathBuf::new(),
                },
                source,
            })?;
        let spec = Spec {
            method: http::Method::PUT,
            upload: Some((upload, length, options)),
            purpose: Purpose::Waited,
        };
        let f = self.run(repo, path, &mut Discard, &spec).await?;
        Ok(Uploaded {
            url: f.url,
            status: f.status,
            bytes: length,
            retries: f.retries,
        })
    }

    async fn run(
        &self,
        repo: &RemoteRepository,
        path: &str,
        sink: &mut dyn BodySink,
        spec: &Spec<'_>,
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
            "file" => {
                return match spec.upload {
                    None => read_file_url(repo, &url, sink),
                    Some((upload, length, _)) => write_file_url(repo, &url, upload, length),
                }
            }
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
        let helped = self.helper_credentials(repo).await?;
        let repo = helped.as_ref().unwrap_or(repo);
        let started = Instant::now();
        let mut retries = 0u32;
        let policy = *spec.retry_policy(&self.options.retry);
        // Ahead of time on a connection of its own only where connections are shared (HTTP/2);
        // on HTTP/1.1 every request is a connection anyway, bounded per origin.
        let lane = self.lane_for(repo, &url, spec.purpose).await;
        loop {
            let session = self.session_for(repo, lane)?;
            // Boxed: an attempt's state is several KiB, and every request's future (spawned
            // for each descriptor and each request made ahead) would carry and copy it.
            let attempt = Box::pin(self.attempt(
                session,
                repo,
                &url,
                base.as_ref(),
                sink,
                spec,
                retries,
                started,
            ))
            .await;
            match attempt {
                Attempt::Done(f) => return Ok(f),
                Attempt::Fail(e) => return Err(e),
                Attempt::Retry(e, hint) => {
                    if retries >= policy.retries {
                        return Err(with_retries(e, retries, started.elapsed()));
                    }
                    retries += 1;
                    tracing::debug!(method = %spec.method, url = %redact_url(url.as_str()), retries, error = %e, "retrying");
                    sink.reset()
                        .map_err(|source| sink_error(repo, redact_url(url.as_str()), source))?;
                    tokio::time::sleep(policy.delay_with_hint(retries, hint)).await;
                }
            }
        }
    }

    /// `repo` with the credentials its credential helper gives (the session's cached answer,
    /// else the helper's), or `None` when it has no helper or the helper has nothing for it.
    async fn helper_credentials(
        &self,
        repo: &RemoteRepository,
    ) -> Result<Option<RemoteRepository>, TransportError> {
        let Some(CredentialSource::Helper(helper)) = &repo.credential_source else {
            return Ok(None);
        };
        let auth = self.helpers.credentials(helper, repo).await?;
        Ok(auth.map(|a| {
            let mut r = repo.clone();
            r.authentication = Some(a);
            r
        }))
    }

    fn headers_for(repo: &RemoteRepository, user_agent: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Ok(v) = HeaderValue::from_str(user_agent) {
            headers.insert(http::header::USER_AGENT, v);
        }
        headers.insert(http::header::ACCEPT, HeaderValue::from_static("*/*"));
        headers.insert(
            http::header::CACHE_CONTROL,
            HeaderValue::from_static("no-cache, no-store"),
        );
        headers.insert(http::header::PRAGMA, HeaderValue::from_static("no-cache"));
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
        headers
    }

    #[allow(clippy::too_many_arguments)]
    async fn attempt(
        &self,
        mut session: RepoSession,
        repo: &RemoteRepository,
        start_url: &Url,
        base: Option<&Url>,
        sink: &mut dyn BodySink,
        spec: &Spec<'_>,
        retries: u32,
        started: Instant,
    ) -> Attempt {
        let method = spec.method.as_str();
        let mut expect = spec
            .upload
            .is_some_and(|(_, len, o)| o.expect_continue && len > 0);
        let mut bodies = 0u32;
        let read_timeout = repo
            .transport
            .request_timeout
            .unwrap_or(self.options.request_timeout);
        // Reads on a connection time out by themselves (the connector's read timeout); this
        // only bounds a response that never starts (connecting, tunnelling, waiting).
        let head_timeout = read_timeout.saturating_mul(2).saturating_add(
            repo.transport
                .connect_timeout
                .unwrap_or(self.options.connect_timeout),
        );
        let base_headers = Self::headers_for(repo, &self.options.user_agent);
        // A credential helper's bearer token: sent as is, to the repository's origin only.
        let bearer = repo.authentication.as_ref().and_then(|a| a.token.as_ref());
        let mut url = start_url.clone();
        let mut redirects = 0usize;
        loop {
            let redacted = redact_url(url.as_str());
            // Credentials go only to URLs under the repository's base (scope.rs).
            let same_origin = base.is_some_and(|b| within_base(b, &url));
            // Plain-HTTP requests through an HTTP proxy carry the proxy's answer themselves.
            let plain_proxy = session.http_proxy && url.scheme() == "http";
            let proxy_auth = session.proxy.clone().filter(|_| plain_proxy);
            let _gate = match &proxy_auth {
                Some(a) => a.gate().await,
                None => None,
            };
            // After waiting, the proxy may have turned out to want NTLM: use the client whose
            // connections run the handshake.
            if proxy_auth
                .as_ref()
                .is_some_and(|a| a.generation() != session.generation)
            {
                match self.session_for(repo, session.lane) {
                    Ok(s) => session = s,
                    Err(e) => return Attempt::Fail(e),
                }
            }
            let mut proxy_ex: Option<Exchange> = None;
            let mut proxy_header = None;
            if let Some(a) = &proxy_auth {
                match a.start(Level::Request, method, url.as_str()) {
                    Ok((h, ex)) => {
                        proxy_header = h;
                        proxy_ex = Some(ex);
                    }
                    Err(r) => return Attempt::Fail(proxy_auth_error(repo, redacted, 407, r)),
                }
            }
            let server_uri = &url[url::Position::BeforePath..url::Position::AfterQuery];
            let mut server_ex: Option<Exchange> = None;
            let mut server_header = None;
            if let Some(token) = bearer.filter(|_| same_origin) {
                server_header = Some(format!("Bearer {}", token.expose()));
            } else if same_origin && session.server.has_credentials() {
                if let Ok((h, ex)) = session.server.start(Level::Request, method, server_uri) {
                    server_header = h;
                    server_ex = Some(ex);
                }
            }
            let warmup = self.warmups.get(
                &session.key,
                &origin_key(
                    url.scheme() == "https",
                    url.host_str().unwrap_or(""),
                    url.port_or_known_default().unwrap_or(0),
                ),
            );
            // Ready to go on a shared first connection: nothing to send, or sent unasked.
            let ready =
                !same_origin || server_header.is_some() || !session.server.has_credentials();
            let first = warmup.first(ready).await;
            // on HTTP/1.1 a request in flight is a connection: a bounded number at once
            let _slot = warmup.h1_slot().await;
            let resp = loop {
                let body = match spec.upload {
                    None => RequestBody::empty(),
                    Some((upload, length, options)) => {
                        if bodies > 0 {
                            if let Some(p) = &options.progress {
                                p.restarted();
                            }
                        }
                        bodies += 1;
                        match RequestBody::open(upload, length, options.progress.clone()).await {
                            Ok(b) => b,
                            Err(source) => {
                                return Attempt::Fail(TransportError::UploadSource {
                                    repository: repo.id.clone(),
                                    path: match upload {
                                        Upload::File(p) => p.clone(),
                                        Upload::Bytes(_) => PathBuf::new(),
                                    },
                                    source,
                                })
                            }
                        }
                    }
                };
                let mut req = http::Request::new(body);
                *req.method_mut() = spec.method.clone();
                if expect && warmup.sends_expect() {
                    req.headers_mut().insert(
                        http::header::EXPECT,
                        HeaderValue::from_static("100-continue"),
                    );
                    let signal = Arc::new(ContinueSignal::default());
                    let fired = signal.clone();
                    hyper::ext::on_informational(&mut req, move |res| {
                        if res.status() == http::StatusCode::CONTINUE {
                            fired.fire();
                        }
                    });
                    if let Some((_, _, options)) = spec.upload {
                        req.body_mut().wait_for_continue(
                            signal,
                            options.continue_timeout,
                            warmup.clone(),
                        );
                    }
                }
                *req.uri_mut() = match url.as_str().parse() {
                    Ok(u) => u,
                    Err(e) => {
                        return Attempt::Fail(TransportError::InvalidUrl {
                            repository: repo.id.clone(),
                            url: redacted,
                            message: format!("{e}"),
                        })
                    }
                };
                let headers = req.headers_mut();
                let expectation = headers.remove(http::header::EXPECT);
                headers.clone_from(&base_headers);
                if let Some(v) = expectation {
                    headers.insert(http::header::EXPECT, v);
                }
                if let Some((_, length, _)) = spec.upload {
                    headers.insert(http::header::CONTENT_LENGTH, HeaderValue::from(length));
                }
                for (name, value) in [
                    (http::header::AUTHORIZATION, &server_header),
                    (http::header::PROXY_AUTHORIZATION, &proxy_header),
                ] {
                    if let Some(Ok(mut v)) = value.as_deref().map(HeaderValue::from_str) {
                        v.set_sensitive(true);
                        headers.insert(name, v);
                    }
                }
                tracing::trace!(url = %redacted, "request");
                let resp =
                    match tokio::time::timeout(head_timeout, session.client.request(req)).await {
                        Ok(Ok(r)) => r,
                        Ok(Err(e)) => {
                            return classify_error(
                                NetworkCause::Request(Box::new(e)),
                                repo,
                                &redacted,
                                retries,
                                started,
                            )
                        }
                        Err(_) => {
                            return timed_out(
                                repo,
                                &redacted,
                                TimeoutPhase::Response,
                                head_timeout,
                                retries,
                                started,
                            )
                        }
                    };
                let status = resp.status().as_u16();
                let proxy_challenge = plain_proxy
                    && (status == 407
                        || (status == 401
                            && resp
                                .headers()
                                .contains_key(http::header::PROXY_AUTHENTICATE)
                            && !resp.headers().contains_key(http::header::WWW_AUTHENTICATE)));
                if proxy_challenge {
                    let (Some(a), Some(ex)) = (&proxy_auth, proxy_ex.as_mut()) else {
                        return Attempt::Fail(proxy_auth_error(
                            repo,
                            redacted,
                            status,
                            no_credentials(
                                resp.headers().get_all(http::header::PROXY_AUTHENTICATE),
                            ),
                        ));
                    };
                    let challenges =
                        challenges_of(resp.headers(), http::header::PROXY_AUTHENTICATE);
                    tracing::debug!(proxy = %proxy_display_opt(repo), status, offered = %crate::transport::challenge::describe_offered(&challenges), "proxy challenge");
                    match a.on_challenge(ex, Level::Request, &challenges, method, url.as_str()) {
                        Ok(Answer::Header(h)) => proxy_header = Some(h),
                        Ok(Answer::NtlmOnNewConnection) => {
                            proxy_header = None;
                            match self.session_for(repo, session.lane) {
                                Ok(s) => session = s,
                                Err(e) => return Attempt::Fail(e),
                            }
                        }
                        Err(r) => {
                            return Attempt::Fail(proxy_auth_error(repo, redacted, status, r))
                        }
                    }
                    drain(resp, read_timeout).await;
                    continue;
                }
                if status == 401
                    && same_origin
                    && resp.headers().contains_key(http::header::WWW_AUTHENTICATE)
                {
                    if let Some(ex) = server_ex.as_mut() {
                        let challenges =
                            challenges_of(resp.headers(), http::header::WWW_AUTHENTICATE);
                        match session.server.on_challenge(
                            ex,
                            Level::Request,
                            &challenges,
                            method,
                            server_uri,
                        ) {
                            Ok(Answer::Header(h)) => {
                                server_header = Some(h);
                                drain(resp, read_timeout).await;
                                continue;
                            }
                            Ok(Answer::NtlmOnNewConnection) => {}
                            Err(r) => {
                                return Attempt::Fail(TransportError::Unauthorized {
                                    server_id: repo.id.clone(),
                                    url: redacted,
                                    status,
                                    sent_credentials: server_header.is_some(),
                                    withheld: session.server.withheld().map(Into::into),
                                    rejection: Some(Box::new(r)),
                                    via_proxy: via_plain_proxy(repo, &url),
                                    credentials_from: credentials_from(repo),
                                })
                            }
                        }
                    }
                }
                if status == 417 && expect {
                    // RFC 9110 §10.1.1: repeat the request without the expectation.
                    tracing::debug!(url = %redacted, "417 Expectation Failed; sending again without Expect");
                    warmup.expectation_refused();
                    expect = false;
                    drain(resp, read_timeout).await;
                    continue;
                }
                if let (Some(a), Some(ex)) = (&proxy_auth, &proxy_ex) {
                    if status != 407 {
                        a.on_success(ex);
                    }
                }
                if let Some(ex) = &server_ex {
                    if status != 401 && status != 403 {
                        session.server.on_success(ex);
                    }
                }
                break resp;
            };
            warmup.warmed();
            drop(first);
            drop(_gate);
            let status = resp.status().as_u16();
            if let Some(r) = resp.extensions().get::<RouteInfo>() {
                tracing::trace!(url = %redacted, status, hop = %r.hop, address = %r.address, "response");
            }
            if (300..400).contains(&status) && status != 304 {
                redirects += 1;
                let loc = resp
                    .headers()
                    .get(http::header::LOCATION)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|l| url.join(l).ok());
                match loc {
                    Some(next) if redirects <= MAX_REDIRECTS => {
                        drain(resp, read_timeout).await;
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
                            message: "redirect without a usable Location header".into(),
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
                        sent_credentials: same_origin
                            && (session.server.has_credentials() || bearer.is_some()),
                        withheld: session.server.withheld().map(Into::into),
                        rejection: None,
                        via_proxy: via_plain_proxy(repo, &url),
                        credentials_from: credentials_from(repo),
                    })
                }
                407 => {
                    return Attempt::Fail(proxy_auth_error(
                        repo,
                        redacted,
                        407,
                        no_credentials(resp.headers().get_all(http::header::PROXY_AUTHENTICATE)),
                    ))
                }
                s => {
                    let err = TransportError::Status {
                        repository: repo.id.clone(),
                        url: redacted,
                        status: s,
                        retries,
                        elapsed: started.elapsed(),
                    };
                    if spec.retries_status(s) {
                        let hint = resp
                            .headers()
                            .get(http::header::RETRY_AFTER)
                            .and_then(|v| v.to_str().ok())
                            .and_then(|v| {
                                crate::transport::retry::parse_retry_after(
                                    v,
                                    std::time::SystemTime::now(),
                                )
                            });
                        return Attempt::Retry(err, hint);
                    }
                    return Attempt::Fail(err);
                }
            }
            let (parts, body) = resp.into_parts();
            let headers = parts.headers;
            let content_length = headers
                .get(http::header::CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<u64>().ok());
            if let Err(source) = sink.start(&headers, content_length) {
                return Attempt::Fail(sink_error(repo, redacted, source));
            }
            let mut guard = BodyGuard::new(self.options.low_speed, content_length);
            let mut stream = Box::pin(body_stream(body, read_timeout));
            loop {
                match guard.next(&mut stream).await {
                    Ok(Some(chunk)) => {
                        if let Err(source) = sink.write(&chunk) {
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
                    Err(GuardError::Stream(BodyRead::Timeout)) => {
                        return timed_out(
                            repo,
                            &redacted,
                            TimeoutPhase::Body,
                            read_timeout,
                            retries,
                            started,
                        )
                    }
                    Err(GuardError::Stream(BodyRead::Failed(e))) => {
                        return Attempt::Retry(
                            network_error(repo, &redacted, NetworkCause::Body(e), retries, started),
                            None,
                        )
                    }
                }
            }
            let bytes = guard.received();
            return Attempt::Done(Fetched {
                url,
                status,
                headers,
                bytes,
                retries,
            });
        }
    }
}

/// Where a repository's credentials came from, for a 401 message, when not a `<server>`.
fn credentials_from(repo: &RemoteRepository) -> Option<String> {
    match &repo.credential_source {
        None | Some(CredentialSource::Server { .. }) => None,
        Some(other) => Some(other.to_string()),
    }
}

fn challenges_of(
    headers: &HeaderMap,
    name: HeaderName,
) -> Vec<crate::transport::challenge::Challenge> {
    parse_challenges(headers.get_all(name).iter().filter_map(|v| v.to_str().ok()))
}

fn no_credentials(values: http::header::GetAll<'_, HeaderValue>) -> Rejection {
    let challenges = parse_challenges(values.iter().filter_map(|v| v.to_str().ok()));
    Rejection {
        scheme: None,
        offered: crate::transport::challenge::describe_offered(&challenges),
        tried: "no credentials".into(),
        reason: crate::transport::auth::RejectReason::NoCredentials,
    }
}

/// Why the next chunk of a body did not come.
enum BodyRead {
    /// Nothing for the read timeout.
    Timeout,
    /// The connection or stream failed.
    Failed(hyper::Error),
}

/// The data chunks of a body, each awaited at most `timeout` (trailers are skipped).
fn body_stream(
    body: hyper::body::Incoming,
    timeout: Duration,
) -> impl futures_util::Stream<Item = Result<Bytes, BodyRead>> {
    futures_util::stream::unfold(Some(body), move |body| async move {
        let mut body = body?;
        loop {
            return match tokio::time::timeout(timeout, body.frame()).await {
                Err(_) => Some((Err(BodyRead::Timeout), None)),
                Ok(None) => None,
                Ok(Some(Err(e))) => Some((Err(BodyRead::Failed(e)), None)),
                Ok(Some(Ok(frame))) => match frame.into_data() {
                    Ok(data) => Some((Ok(data), Some(body))),
                    Err(_) => continue,
                },
            };
        }
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

/// Reads and drops a small error body so the connection can carry the next request.
async fn drain(resp: http::Response<hyper::body::Incoming>, timeout: Duration) {
    let mut body = resp.into_body();
    let mut seen = 0usize;
    while seen <= MAX_DRAINED {
        match tokio::time::timeout(timeout, body.frame()).await {
            Ok(Some(Ok(f))) => seen += f.data_ref().map(|d| d.len()).unwrap_or(0),
            _ => return,
        }
    }
}

/// The local path of a `file:` URL, with the URL as errors print it.
fn file_url_path(
    repo: &RemoteRepository,
    url: &Url,
) -> Result<(String, std::path::PathBuf), TransportError> {
    let redacted = redact_url(url.as_str());
    let path = url.to_file_path().map_err(|_| TransportError::InvalidUrl {
        repository: repo.id.clone(),
        url: redacted.clone(),
        message: "not a local file path".into(),
    })?;
    Ok((redacted, path))
}

/// An I/O failure on a `file:` repository's path.
fn file_io_error(
    repo: &RemoteRepository,
    redacted: &str,
    path: &std::path::Path,
    source: std::io::Error,
) -> TransportError {
    TransportError::Network {
        repository: repo.id.clone(),
        url: redacted.to_owned(),
        via: String::new(),
        cause: NetworkCause::File {
            path: path.to_path_buf().into_boxed_path(),
            source,
        },
        retries: 0,
        elapsed: Duration::ZERO,
    }
}

/// Serves a `file:` repository (Maven supports them too): a missing file is [`TransportError::NotFound`].
fn read_file_url(
    repo: &RemoteRepository,
    url: &Url,
    sink: &mut dyn BodySink,
) -> Result<Fetched, TransportError> {
    use std::io::Read;
    let (redacted, path) = file_url_path(repo, url)?;
    let io_err = |source: std::io::Error| file_io_error(repo, &redacted, &path, source);
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
        status: 200,
        headers,
        bytes,
        retries: 0,
    })
}

/// Writes an upload to a `file:` repository: folders created, a temporary file in the target
/// folder renamed into place (a reader never sees half a file).
fn write_file_url(
    repo: &RemoteRepository,
    url: &Url,
    upload: &Upload,
    length: u64,
) -> Result<Fetched, TransportError> {
    use std::io::Write;
    let (redacted, path) = file_url_path(repo, url)?;
    let io_err = |source: std::io::Error| file_io_error(repo, &redacted, &path, source);
    let dir = path
        .parent()
        .ok_or_else(|| io_err(std::io::Error::other("no parent folder")))?;
    std::fs::create_dir_all(dir).map_err(io_err)?;
    let mut tmp = crate::download::local::temp_builder(".m2r-", ".tmp")
        .tempfile_in(dir)
        .map_err(io_err)?;
    let written = match upload {
        Upload::Bytes(b) => {
            tmp.write_all(b).map_err(io_err)?;
            b.len() as u64
        }
        Upload::File(src) => {
            let mut f =
                std::fs::File::open(src).map_err(|source| TransportError::UploadSource {
                    repository: repo.id.clone(),
                    path: src.clone(),
                    source,
                })?;
            std::io::copy(&mut f, tmp.as_file_mut()).map_err(io_err)?
        }
    };
    if written != length {
        return Err(io_err(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            format!("the file to upload changed size while it was copied ({written} bytes, {length} expected)"),
        )));
    }
    tmp.persist(&path).map_err(|e| io_err(e.error))?;
    Ok(Fetched {
        url: url.clone(),
        status: 201,
        headers: HeaderMap::new(),
        bytes: 0,
        retries: 0,
    })
}

fn proxy_display(p: &RepositoryProxy) -> String {
    format!(
        "proxy {}{}",
        route::proxy_label(p),
        proxy_id(p)
            .map(|i| format!(" (id `{i}`)"))
            .unwrap_or_default()
    )
}

fn proxy_display_opt(repo: &RemoteRepository) -> String {
    repo.proxy.as_ref().map(proxy_display).unwrap_or_default()
}

fn proxy_id(p: &RepositoryProxy) -> Option<String> {
    match &p.source {
        ProxySource::Settings { id } => Some(id.clone()),
        ProxySource::Environment { variable } => Some(format!("(from ${variable})")),
        ProxySource::SystemProperties { property, .. } => Some(format!("(from -D{property})")),
    }
}

/// The plain-HTTP proxy a request to `url` went through (for 401 messages).
fn via_plain_proxy(repo: &RemoteRepository, url: &Url) -> Option<String> {
    repo.proxy
        .as_ref()
        .filter(|p| url.scheme() == "http" && ProxyKind::from_kind(&p.kind) == ProxyKind::Http)
        .map(route::proxy_label)
}

fn proxy_auth_error(
    repo: &RemoteRepository,
    url: String,
    status: u16,
    rejection: Rejection,
) -> TransportError {
    let p = repo.proxy.as_ref();
    TransportError::ProxyAuth {
        proxy: p
            .map(route::proxy_label)
            .unwrap_or_else(|| "(unknown)".into()),
        proxy_id: p.and_then(proxy_id),
        repository: repo.id.clone(),
        url,
        status,
        rejection: Box::new(rejection),
        sent_credentials: p
            .and_then(|p| p.auth.as_ref())
            .is_some_and(|a| a.sendable().is_some()),
        withheld: p
            .and_then(|p| p.auth.as_ref())
            .and_then(|a| a.withheld.as_deref().map(Into::into)),
    }
}

/// The connector's view of a repository's proxy; refuses encrypted passwords and bad ports.
fn proxy_spec(
    p: &RepositoryProxy,
    repo_id: &str,
    auth: Option<Arc<Authenticator>>,
) -> Result<ProxySpec, TransportError> {
    let port = u16::try_from(p.port).map_err(|_| {
        TransportError::Setup(format!(
            "proxy {} for repository `{repo_id}` has an invalid port {}",
            route::proxy_label(p),
            p.port
        ))
    })?;
    let kind = ProxyKind::from_kind(&p.kind);
    let mut socks_auth = None;
    if let Some((user, pw)) = p.auth.as_ref().and_then(|a| a.sendable()) {
        if kind != ProxyKind::Http {
            let pw = pw.cloned().unwrap_or_else(|| crate::Secret::new(""));
            socks_auth = Some((user.to_string(), pw));
        }
    }
    Ok(ProxySpec {
        kind,
        host: route::bare_host(&p.host),
        port,
        label: route::proxy_label(p),
        auth,
        socks_auth,
    })
}

/// Pool key: proxy identity (credentials hashed) and timeouts.
fn client_key(proxy: Option<&RepositoryProxy>, connect: Duration, read: Duration) -> String {
    let p = match proxy {
        None => "direct".to_string(),
        Some(p) => format!(
            "{}|{}|{}|{}",
            p.kind.to_ascii_lowercase(),
            p.host,
            p.port,
            credentials_key(p.auth.as_ref())
        ),
    };
    format!("{p}|{}|{}", connect.as_millis(), read.as_millis())
}

fn network_error(
    repo: &RemoteRepository,
    url: &str,
    cause: NetworkCause,
    retries: u32,
    started: Instant,
) -> TransportError {
    TransportError::Network {
        repository: repo.id.clone(),
        url: url.to_string(),
        via: repo
            .proxy
            .as_ref()
            .map(|p| format!(" via proxy {}", route::proxy_label(p)))
            .unwrap_or_default(),
        cause,
        retries,
        elapsed: started.elapsed(),
    }
}

/// A timeout: worth another attempt.
fn timed_out(
    repo: &RemoteRepository,
    url: &str,
    phase: TimeoutPhase,
    after: Duration,
    retries: u32,
    started: Instant,
) -> Attempt {
    let cause = NetworkCause::Timeout { phase, after };
    Attempt::Retry(network_error(repo, url, cause, retries, started), None)
}

/// Typed classification: the connector's authentication and refusal errors become their own
/// [`TransportError`]s; certificate and SOCKS credential problems are not retried.
fn classify_error(
    cause: NetworkCause,
    repo: &RemoteRepository,
    url: &str,
    retries: u32,
    started: Instant,
) -> Attempt {
    let p = repo.proxy.as_ref();
    match cause.connect_error() {
        Some(ConnectError::ProxyAuth {
            status, rejection, ..
        }) => {
            return Attempt::Fail(proxy_auth_error(
                repo,
                url.to_string(),
                *status,
                rejection.clone(),
            ))
        }
        Some(ConnectError::TunnelRefused { status, reason, .. }) => {
            return Attempt::Fail(TransportError::ProxyRefused {
                proxy: p
                    .map(route::proxy_label)
                    .unwrap_or_else(|| "(unknown)".into()),
                proxy_id: p.and_then(proxy_id),
                repository: repo.id.clone(),
                url: url.to_string(),
                status: *status,
                reason: reason.clone(),
            })
        }
        _ => {}
    }
    let permanent = cause
        .connect_error()
        .is_some_and(ConnectError::is_permanent);
    let err = network_error(repo, url, cause, retries, started);
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
            cause,
            ..
        } => TransportError::Network {
            repository,
            url,
            via,
            cause,
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
    fn debug_output_hides_environment_values() {
        let mut o = TransportOptions::default();
        o.env.insert(
            "HTTPS_PROXY".into(),
            "http://jane:hunter2@proxy:3128".into(),
        );
        let d = format!("{o:?}");
        assert!(d.contains("HTTPS_PROXY") && !d.contains("hunter2"), "{d}");
    }

    #[test]
    fn proxy_port_is_checked() {
        let mut p = proxy("socks5", Some(("u", "p")));
        p.port = 70000;
        assert!(proxy_spec(&p, "r", None).is_err());
        p.port = 1080;
        let spec = proxy_spec(&p, "r", None).unwrap();
        assert_eq!(spec.kind, ProxyKind::Socks5 { remote_dns: false });
        assert!(spec.socks_auth.is_some());
        let spec = proxy_spec(&proxy("http", Some(("u", "p"))), "r", None).unwrap();
        assert!(
            spec.socks_auth.is_none(),
            "HTTP proxy credentials go through the authenticator"
        );
    }

    #[tokio::test]
    async fn sessions_share_authenticators_per_proxy_and_origin() {
        let t = Transport::new(TransportOptions::default()).unwrap();
        let mut a = RemoteRepository::new("a", "https://h.example/r1");
        a.proxy = Some(proxy("http", Some(("u", "p"))));
        let mut b = RemoteRepository::new("b", "https://h.example/r2");
        b.proxy = Some(proxy("http", Some(("u", "p"))));
        let sa = t.session_for(&a, Lane::FIRST).unwrap();
        let sb = t.session_for(&b, Lane::FIRST).unwrap();
        assert!(Arc::ptr_eq(
            sa.proxy.as_ref().unwrap(),
            sb.proxy.as_ref().unwrap()
        ));
        assert!(Arc::ptr_eq(&sa.server, &sb.server));
        assert_eq!(t.client_count(), 1);
        let plan = t.route_plan(&a).await;
        let text = plan.describe().join("\n");
        assert!(text.contains("route: proxy 127.0.0.1:3128 (settings proxy `corp`), HTTP CONNECT tunnel to h.example:443"), "{text}");
        assert!(
            text.contains("addresses, in the order they are tried: 127.0.0.1:3128"),
            "{text}"
        );
    }
}
