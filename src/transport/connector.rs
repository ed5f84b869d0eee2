//! The connector under hyper's pooled client: it turns "a connection to `https://host:port`"
//! into a ready stream, owning every step that reqwest's built-in proxy support hid:
//!
//! 1. **Routes** ([`crate::transport::route`]): the first hop's name (the proxy, or the
//!    repository host) resolves to addresses, tried one after another on connect failure within
//!    the connect timeout each; a failed route is remembered for the session and tried last.
//! 2. **HTTP proxies**: for `https` targets a `CONNECT` tunnel; the proxy's `407` challenges are
//!    answered on the connection ([`crate::transport::auth`]: Basic, Digest, NTLM's
//!    three messages on one kept-alive connection), reconnecting on another route when the proxy
//!    closes after a challenge. For `http` targets the connection goes to the proxy and hyper
//!    writes absolute-form requests; when the proxy wants NTLM, each new connection is first
//!    authenticated with a `HEAD` of the target's root (NTLM authenticates connections).
//! 3. **SOCKS** 4/4a/5/5h with user and password (tokio-socks).
//! 4. **TLS** (rustls, ALPN `h2`/`http/1.1`): hyper then speaks HTTP/2 when the server chose it,
//!    also through tunnels, and pools the connection.
//!
//! Failures are [`ConnectError`]s, typed so that the request loop can tell a wrong password from a
//! refused connection without reading messages.

use crate::transport::auth::{Answer, Authenticator, Level, Rejection};
use crate::transport::challenge::parse_challenges;
use crate::transport::http1::{self, Http1Error, RequestKind};
use crate::transport::route::{HostResolver, Route, RouteDatabase};
use crate::transport::warmup::{origin_key, Warmups};
use crate::Secret;
use bytes::{Buf, Bytes, BytesMut};
use hyper_util::client::legacy::connect::{Connected, Connection};
use hyper_util::rt::TokioIo;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use thiserror::Error;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// One failed connection attempt.
#[derive(Debug, Clone)]
pub struct RouteFailure {
    /// The address tried.
    pub address: SocketAddr,
    /// What happened.
    pub error: String,
}

/// Why a connection could not be made.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ConnectError {
    /// The first hop's name did not resolve.
    #[error("cannot resolve {host}")]
    Resolve {
        /// The host.
        host: String,
        /// The resolver's error.
        #[source]
        source: std::io::Error,
    },
    /// Every address of the first hop refused or timed out.
    #[error("{}", connect_message(hop, attempts))]
    Connect {
        /// `direct host:port` or `proxy host:port`.
        hop: String,
        /// Each address tried, in order.
        attempts: Vec<RouteFailure>,
        /// The last error.
        #[source]
        source: std::io::Error,
    },
    /// The HTTP proxy did not accept the credentials (or none were configured).
    #[error("proxy {proxy} answered HTTP {status}: {rejection}")]
    ProxyAuth {
        /// `host:port` of the proxy.
        proxy: String,
        /// 407 (or 401 from proxies that answer so).
        status: u16,
        /// What was offered and tried.
        rejection: Rejection,
    },
    /// The proxy answered the `CONNECT` with another status (port not allowed, target down).
    #[error("proxy {proxy} refused to open a tunnel to {target}: HTTP {status} {reason}")]
    TunnelRefused {
        /// `host:port` of the proxy.
        proxy: String,
        /// `host:port` asked for.
        target: String,
        /// Status code.
        status: u16,
        /// Reason phrase.
        reason: String,
    },
    /// The proxy's answers could not be read.
    #[error("talking to proxy {proxy}")]
    ProxyProtocol {
        /// `host:port` of the proxy.
        proxy: String,
        /// What went wrong.
        #[source]
        source: Http1Error,
    },
    /// The SOCKS handshake failed.
    #[error("SOCKS proxy {proxy}")]
    Socks {
        /// `host:port` of the proxy.
        proxy: String,
        /// tokio-socks' error.
        #[source]
        source: tokio_socks::Error,
    },
    /// The TLS handshake failed (certificate, protocol).
    #[error("TLS handshake with {host}")]
    Tls {
        /// The server name.
        host: String,
        /// The error (a `rustls::Error` inside for certificate problems).
        #[source]
        source: std::io::Error,
    },
    /// The URI hyper asked for has no host or an unusable scheme.
    #[error("cannot connect to `{0}`")]
    Uri(String),
}

impl ConnectError {
    /// True when trying again cannot help: authentication, refusals, certificates.
    pub fn is_permanent(&self) -> bool {
        match self {
            ConnectError::ProxyAuth { .. }
            | ConnectError::TunnelRefused { .. }
            | ConnectError::Uri(_) => true,
            ConnectError::Tls { source, .. } => source
                .get_ref()
                .is_some_and(|e| e.downcast_ref::<rustls::Error>().is_some()),
            ConnectError::Socks { source, .. } => matches!(
                source,
                tokio_socks::Error::PasswordAuthFailure(_)
                    | tokio_socks::Error::AuthorizationRequired
                    | tokio_socks::Error::NoAcceptableAuthMethods
                    | tokio_socks::Error::InvalidAuthValues(_)
                    | tokio_socks::Error::IdentdAuthFailure
                    | tokio_socks::Error::InvalidUserIdAuthFailure
                    | tokio_socks::Error::ConnectionNotAllowedByRuleset
            ),
            ConnectError::Resolve { .. }
            | ConnectError::Connect { .. }
            | ConnectError::ProxyProtocol { .. } => false,
        }
    }
}

/// `could not connect to HOP (ERROR): HINT`, each address with its error where the hop has
/// several or its one address is not spelled as the hop is.
fn connect_message(hop: &str, attempts: &[RouteFailure]) -> String {
    let tried = match attempts {
        [one] if hop.ends_with(&one.address.to_string()) => one.error.clone(),
        _ => attempts
            .iter()
            .map(|a| format!("{}: {}", a.address, a.error))
            .collect::<Vec<_>>()
            .join(", "),
    };
    let hint = if hop.starts_with("proxy ") {
        "check the proxy's host and port (settings.xml <proxy>, or the proxy environment \
         variables) and that the proxy is running"
    } else {
        "check the repository's URL (and its mirror) and that the server is running, or \
         whether this network needs a proxy"
    };
    format!("could not connect to {hop} ({tried}): {hint}")
}

/// The protocol spoken to a proxy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ProxyKind {
    /// Plain HTTP (CONNECT for https targets).
    Http,
    /// SOCKS5; `remote_dns`: the proxy resolves the target (`socks5h`).
    Socks5 { remote_dns: bool },
    /// SOCKS4 (`socks4a`: the proxy resolves).
    Socks4 { remote_dns: bool },
}

impl ProxyKind {
    /// Maven's proxy `<protocol>` / an environment proxy's scheme.
    pub fn from_kind(kind: &str) -> ProxyKind {
        match kind.to_ascii_lowercase().as_str() {
            "socks5" => ProxyKind::Socks5 { remote_dns: false },
            "socks5h" => ProxyKind::Socks5 { remote_dns: true },
            "socks4" => ProxyKind::Socks4 { remote_dns: false },
            "socks4a" => ProxyKind::Socks4 { remote_dns: true },
            // Maven's http/https proxy types are matching keys; the link is plain HTTP (§5.4).
            _ => ProxyKind::Http,
        }
    }
}

/// A proxy as the connector uses it.
#[derive(Debug)]
pub(crate) struct ProxySpec {
    pub kind: ProxyKind,
    pub host: String,
    pub port: u16,
    /// `host:port`.
    pub label: String,
    /// HTTP proxies: the session's authentication state.
    pub auth: Option<Arc<Authenticator>>,
    /// SOCKS proxies: user and password.
    pub socks_auth: Option<(String, Secret)>,
}

/// Everything a connection needs.
pub(crate) struct ConnectorConfig {
    pub proxy: Option<ProxySpec>,
    pub tls: Arc<rustls::ClientConfig>,
    pub resolver: Arc<HostResolver>,
    pub routes: Arc<RouteDatabase>,
    pub connect_timeout: Duration,
    pub read_timeout: Duration,
    pub user_agent: String,
    /// The session's first-connection states ([`crate::transport::warmup`]).
    pub warmups: Arc<Warmups>,
    /// The pool key of the client this connector serves.
    pub client_key: String,
}

/// hyper's connector service (cheap to clone).
#[derive(Clone)]
pub(crate) struct Connector(pub Arc<ConnectorConfig>);

impl tower_service::Service<http::Uri> for Connector {
    type Response = Conn;
    type Error = ConnectError;
    type Future = Pin<Box<dyn Future<Output = Result<Conn, ConnectError>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, dst: http::Uri) -> Self::Future {
        let cfg = self.0.clone();
        Box::pin(async move {
            let conn = connect(&cfg, &dst).await?;
            // HTTP/1.1: the requests waiting for a first connection to this origin may open
            // theirs now. HTTP/2: they share this one once hyper's pool holds it.
            if let Ok(t) = Target::of(&dst) {
                cfg.warmups
                    .get(&cfg.client_key, &origin_key(t.https, &t.host, t.port))
                    .connected(conn.h2);
            }
            Ok(conn)
        })
    }
}

/// Which route served a connection (in every response's extensions).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteInfo {
    /// The first hop: `direct` or the proxy's `host:port`.
    pub hop: String,
    /// The address connected to.
    pub address: SocketAddr,
}

/// A TCP stream with bytes already read in front of it (what followed a proxy's answer).
pub(crate) struct Rewind {
    prefix: Bytes,
    inner: TcpStream,
}

impl AsyncRead for Rewind {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        if !self.prefix.is_empty() {
            let n = self.prefix.len().min(buf.remaining());
            buf.put_slice(&self.prefix[..n]);
            self.prefix.advance(n);
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for Rewind {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }
    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

enum Stream {
    Plain(Rewind),
    Tls(Box<tokio_rustls::client::TlsStream<Rewind>>),
}

impl AsyncRead for Stream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Stream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_flush(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_write_vectored(cx, bufs),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_write_vectored(cx, bufs),
        }
    }
    fn is_write_vectored(&self) -> bool {
        match self {
            Stream::Plain(s) => s.is_write_vectored(),
            Stream::Tls(s) => s.is_write_vectored(),
        }
    }
}

/// A ready connection for hyper. Reads that wait longer than the read timeout fail (the
/// repository's `requestTimeout` as an inactivity limit, for the response head and the body).
pub(crate) struct Conn {
    io: TokioIo<Stream>,
    proxied: bool,
    h2: bool,
    route: RouteInfo,
    read_timeout: Duration,
    read_deadline: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl Connection for Conn {
    fn connected(&self) -> Connected {
        let c = Connected::new()
            .proxy(self.proxied)
            .extra(self.route.clone());
        if self.h2 {
            c.negotiated_h2()
        } else {
            c
        }
    }
}

impl hyper::rt::Read for Conn {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: hyper::rt::ReadBufCursor<'_>,
    ) -> Poll<std::io::Result<()>> {
        match Pin::new(&mut self.io).poll_read(cx, buf) {
            Poll::Ready(r) => {
                self.read_deadline = None;
                Poll::Ready(r)
            }
            Poll::Pending => {
                let limit = self.read_timeout;
                let deadline = self
                    .read_deadline
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
                if deadline.as_mut().poll(cx).is_ready() {
                    self.read_deadline = None;
                    return Poll::Ready(Err(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        format!("read timed out (no data for {limit:?})"),
                    )));
                }
                Poll::Pending
            }
        }
    }
}

impl hyper::rt::Write for Conn {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(cx, buf)
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.io).poll_write_vectored(cx, bufs)
    }
    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}

/// Scheme, host, port of the URI hyper connects for.
struct Target {
    https: bool,
    host: String,
    port: u16,
}

impl Target {
    fn of(uri: &http::Uri) -> Result<Target, ConnectError> {
        let bad = || ConnectError::Uri(uri.to_string());
        let https = match uri.scheme_str() {
            Some("https") => true,
            Some("http") => false,
            _ => return Err(bad()),
        };
        let host = uri.host().ok_or_else(bad)?;
        let host = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string();
        let port = uri.port_u16().unwrap_or(if https { 443 } else { 80 });
        Ok(Target { https, host, port })
    }

    /// `host:port` (IPv6 bracketed): the CONNECT authority and Host header.
    fn authority(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

async fn connect(cfg: &ConnectorConfig, uri: &http::Uri) -> Result<Conn, ConnectError> {
    let target = Target::of(uri)?;
    let (tcp, route, proxied) = match &cfg.proxy {
        None => {
            let hop = "direct".to_string();
            let (tcp, addr) = connect_hop(cfg, &hop, &target.host, target.port).await?;
            (Rewind::plain(tcp), RouteInfo { hop, address: addr }, false)
        }
        Some(p) => match (p.kind, target.https) {
            (ProxyKind::Http, true) => {
                let (s, addr) = tunnel(cfg, p, &target).await?;
                (s, route(p, addr), false)
            }
            (ProxyKind::Http, false) => {
                let wants_ntlm = p.auth.as_ref().is_some_and(|a| a.wants_ntlm_connections());
                if wants_ntlm {
                    let (s, addr) = ntlm_connection(cfg, p, &target).await?;
                    (s, route(p, addr), true)
                } else {
                    let (tcp, addr) = connect_hop(cfg, &p.label, &p.host, p.port).await?;
                    (Rewind::plain(tcp), route(p, addr), true)
                }
            }
            (ProxyKind::Socks5 { remote_dns } | ProxyKind::Socks4 { remote_dns }, _) => {
                let (tcp, addr) = connect_hop(cfg, &p.label, &p.host, p.port).await?;
                let tcp = socks(cfg, p, tcp, &target, remote_dns).await?;
                (Rewind::plain(tcp), route(p, addr), false)
            }
        },
    };
    if !target.https {
        return Ok(Conn {
            io: TokioIo::new(Stream::Plain(tcp)),
            proxied,
            h2: false,
            route,
            read_timeout: cfg.read_timeout,
            read_deadline: None,
        });
    }
    let name = rustls::pki_types::ServerName::try_from(target.host.clone())
        .map_err(|_| ConnectError::Uri(uri.to_string()))?;
    let handshake = tokio_rustls::TlsConnector::from(cfg.tls.clone()).connect(name, tcp);
    let tls = match tokio::time::timeout(cfg.connect_timeout.max(cfg.read_timeout), handshake).await
    {
        Ok(Ok(s)) => s,
        Ok(Err(source)) => {
            return Err(ConnectError::Tls {
                host: target.host,
                source,
            })
        }
        Err(_) => {
            return Err(ConnectError::Tls {
                host: target.host,
                source: std::io::Error::new(std::io::ErrorKind::TimedOut, "timed out"),
            })
        }
    };
    let h2 = tls.get_ref().1.alpn_protocol() == Some(b"h2");
    tracing::trace!(hop = %route.hop, address = %route.address, h2, "connected");
    Ok(Conn {
        io: TokioIo::new(Stream::Tls(Box::new(tls))),
        proxied: false,
        h2,
        route,
        read_timeout: cfg.read_timeout,
        read_deadline: None,
    })
}

fn route(p: &ProxySpec, address: SocketAddr) -> RouteInfo {
    RouteInfo {
        hop: p.label.clone(),
        address,
    }
}

impl Rewind {
    fn plain(inner: TcpStream) -> Rewind {
        Rewind {
            prefix: Bytes::new(),
            inner,
        }
    }
}

/// Connects to the first hop, address by address, failed routes last.
async fn connect_hop(
    cfg: &ConnectorConfig,
    hop: &str,
    host: &str,
    port: u16,
) -> Result<(TcpStream, SocketAddr), ConnectError> {
    let addresses =
        cfg.resolver
            .resolve(host, port)
            .await
            .map_err(|source| ConnectError::Resolve {
                host: host.to_string(),
                source,
            })?;
    let addresses = cfg.routes.order(hop, addresses);
    let mut attempts = Vec::new();
    let mut last = std::io::Error::new(std::io::ErrorKind::NotFound, "no address");
    let total = addresses.len();
    for (i, address) in addresses.into_iter().enumerate() {
        let route = Route {
            hop: hop.to_string(),
            address,
        };
        let result = tokio::time::timeout(cfg.connect_timeout, TcpStream::connect(address)).await;
        let error = match result {
            Ok(Ok(tcp)) => {
                let _ = tcp.set_nodelay(true);
                cfg.routes.connected(&route);
                if i > 0 {
                    tracing::info!(hop, %address, "connected on route {} of {total} after failures", i + 1);
                }
                return Ok((tcp, address));
            }
            Ok(Err(e)) => e,
            Err(_) => std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("timed out after {:?}", cfg.connect_timeout),
            ),
        };
        tracing::info!(hop, %address, error = %error, "route {} of {total} failed; remembered for this session, tried last from now on", i + 1);
        cfg.routes.failed(route);
        attempts.push(RouteFailure {
            address,
            error: error.to_string(),
        });
        last = error;
    }
    Err(ConnectError::Connect {
        hop: if hop == "direct" {
            format!("{host}:{port}")
        } else {
            format!("proxy {hop}")
        },
        attempts,
        source: last,
    })
}

async fn socks(
    cfg: &ConnectorConfig,
    p: &ProxySpec,
    tcp: TcpStream,
    target: &Target,
    remote_dns: bool,
) -> Result<TcpStream, ConnectError> {
    let err = |source| ConnectError::Socks {
        proxy: p.label.clone(),
        source,
    };
    let addr: tokio_socks::TargetAddr<'static> = if remote_dns {
        tokio_socks::TargetAddr::Domain(target.host.clone().into(), target.port)
    } else {
        let a = cfg
            .resolver
            .resolve(&target.host, target.port)
            .await
            .map_err(|source| ConnectError::Resolve {
                host: target.host.clone(),
                source,
            })?;
        let first = a.first().copied().ok_or_else(|| ConnectError::Resolve {
            host: target.host.clone(),
            source: std::io::ErrorKind::NotFound.into(),
        })?;
        tokio_socks::TargetAddr::Ip(first)
    };
    let hs = async {
        match (p.kind, &p.socks_auth) {
            (ProxyKind::Socks4 { .. }, Some((user, _))) => {
                tokio_socks::tcp::Socks4Stream::connect_with_userid_and_socket(tcp, addr, user)
                    .await
                    .map(|s| s.into_inner())
            }
            (ProxyKind::Socks4 { .. }, None) => {
                tokio_socks::tcp::Socks4Stream::connect_with_socket(tcp, addr)
                    .await
                    .map(|s| s.into_inner())
            }
            (_, Some((user, pw))) => {
                tokio_socks::tcp::Socks5Stream::connect_with_password_and_socket(
                    tcp,
                    addr,
                    user,
                    pw.expose(),
                )
                .await
                .map(|s| s.into_inner())
            }
            (_, None) => tokio_socks::tcp::Socks5Stream::connect_with_socket(tcp, addr)
                .await
                .map(|s| s.into_inner()),
        }
    };
    match tokio::time::timeout(cfg.read_timeout, hs).await {
        Ok(r) => r.map_err(err),
        Err(_) => Err(err(tokio_socks::Error::Io(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            "SOCKS handshake timed out",
        )))),
    }
}

fn request_bytes(
    method: &str,
    target: &str,
    host: &str,
    user_agent: &str,
    auth: Option<&str>,
) -> Vec<u8> {
    let mut r = format!(
        "{method} {target} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: {user_agent}\r\nProxy-Connection: Keep-Alive\r\n"
    );
    if let Some(a) = auth {
        r.push_str("Proxy-Authorization: ");
        r.push_str(a);
        r.push_str("\r\n");
    }
    r.push_str("\r\n");
    r.into_bytes()
}

/// A `CONNECT` tunnel through an HTTP proxy, answering its challenges.
async fn tunnel(
    cfg: &ConnectorConfig,
    p: &ProxySpec,
    target: &Target,
) -> Result<(Rewind, SocketAddr), ConnectError> {
    let authority = target.authority();
    handshake(
        cfg,
        p,
        RequestKind::Connect,
        "CONNECT",
        &authority,
        &authority,
    )
    .await
}

/// A plain-HTTP proxy connection authenticated by NTLM's handshake on a `HEAD` of the target.
async fn ntlm_connection(
    cfg: &ConnectorConfig,
    p: &ProxySpec,
    target: &Target,
) -> Result<(Rewind, SocketAddr), ConnectError> {
    let authority = target.authority();
    let uri = format!("http://{authority}/");
    handshake(cfg, p, RequestKind::Head, "HEAD", &uri, &authority).await
}

/// Sends `method request_target` to the proxy until it stops challenging: a 2xx opens the
/// tunnel (CONNECT), any non-challenge ends the NTLM handshake (HEAD).
async fn handshake(
    cfg: &ConnectorConfig,
    p: &ProxySpec,
    kind: RequestKind,
    method: &str,
    request_target: &str,
    host: &str,
) -> Result<(Rewind, SocketAddr), ConnectError> {
    let proxy_err = |source| ConnectError::ProxyProtocol {
        proxy: p.label.clone(),
        source,
    };
    let auth_err = |status, rejection| ConnectError::ProxyAuth {
        proxy: p.label.clone(),
        status,
        rejection,
    };
    let auth = p.auth.as_ref();
    // One exchange at a time learns an unknown proxy's scheme.
    let _gate = match auth {
        Some(a) => a.gate().await,
        None => None,
    };
    let (mut header, mut exchange) = match auth {
        Some(a) => {
            let (h, ex) = a
                .start(Level::Connection, method, request_target)
                .map_err(|r| auth_err(407, r))?;
            (h, Some(ex))
        }
        None => (None, None),
    };
    let (mut tcp, mut addr) = connect_hop(cfg, &p.label, &p.host, p.port).await?;
    let mut buf = BytesMut::new();
    loop {
        if header.as_deref().is_some_and(|h| h.contains(['\r', '\n'])) {
            return Err(proxy_err(Http1Error::Malformed(
                "an authorization value with a line break (check the user name)".into(),
            )));
        }
        let bytes = request_bytes(
            method,
            request_target,
            host,
            &cfg.user_agent,
            header.as_deref(),
        );
        http1::write_request(&mut tcp, &bytes, cfg.read_timeout)
            .await
            .map_err(proxy_err)?;
        let head = http1::read_response(&mut tcp, &mut buf, kind, cfg.read_timeout)
            .await
            .map_err(proxy_err)?;
        let challenged = head.status == 407
            || (head.status == 401 && head.all("proxy-authenticate").next().is_some());
        if !challenged {
            if let (Some(a), Some(ex)) = (auth, exchange.as_ref()) {
                a.on_success(ex);
            }
            let ok = match kind {
                RequestKind::Connect => (200..300).contains(&head.status),
                RequestKind::Head => head.keep_alive,
            };
            if !ok {
                if kind == RequestKind::Head {
                    return Err(proxy_err(Http1Error::Malformed(
                        "the proxy closed the connection after the NTLM handshake".into(),
                    )));
                }
                return Err(ConnectError::TunnelRefused {
                    proxy: p.label.clone(),
                    target: host.to_string(),
                    status: head.status,
                    reason: head.reason,
                });
            }
            if let Some(ex) = &exchange {
                if ex.sent != crate::transport::auth::Sent::Nothing {
                    tracing::debug!(proxy = %p.label, sent = ?ex.sent, "proxy accepted the answer");
                }
            }
            return Ok((
                Rewind {
                    prefix: buf.freeze(),
                    inner: tcp,
                },
                addr,
            ));
        }
        let challenges = parse_challenges(head.all("proxy-authenticate"));
        let (Some(a), Some(ex)) = (auth, exchange.as_mut()) else {
            return Err(auth_err(
                head.status,
                Rejection {
                    scheme: None,
                    offered: crate::transport::challenge::describe_offered(&challenges),
                    tried: "no credentials".into(),
                    reason: crate::transport::auth::RejectReason::NoCredentials,
                },
            ));
        };
        tracing::debug!(proxy = %p.label, status = head.status, offered = %crate::transport::challenge::describe_offered(&challenges), "proxy challenge");
        let answer = a
            .on_challenge(ex, Level::Connection, &challenges, method, request_target)
            .map_err(|r| auth_err(head.status, r))?;
        let Answer::Header(h) = answer else {
            // not produced at connection level
            return Err(proxy_err(Http1Error::Malformed(
                "unexpected NTLM state".into(),
            )));
        };
        header = Some(h);
        if !head.keep_alive {
            if ex.needs_same_connection() {
                return Err(proxy_err(Http1Error::Malformed(
                    "the proxy closed the connection in the middle of the NTLM handshake (it must keep it alive)".into(),
                )));
            }
            (tcp, addr) = connect_hop(cfg, &p.label, &p.host, p.port).await?;
            buf.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connection_failures_name_each_address_once_and_say_what_to_check() {
        let refused = |a: &str| RouteFailure {
            address: a.parse().unwrap(),
            error: "Connection refused (os error 111)".into(),
        };
        let one = connect_message("127.0.0.1:1", &[refused("127.0.0.1:1")]);
        assert_eq!(
            one,
            "could not connect to 127.0.0.1:1 (Connection refused (os error 111)): check the \
             repository's URL (and its mirror) and that the server is running, or whether this \
             network needs a proxy"
        );
        let two = connect_message(
            "proxy localhost:3128",
            &[refused("[::1]:3128"), refused("127.0.0.1:3128")],
        );
        assert!(
            two.starts_with(
                "could not connect to proxy localhost:3128 ([::1]:3128: Connection refused \
                 (os error 111), 127.0.0.1:3128: Connection refused (os error 111)): check the \
                 proxy's host and port"
            ),
            "{two}"
        );
    }

    #[test]
    fn proxy_kinds() {
        assert_eq!(ProxyKind::from_kind("HTTPS"), ProxyKind::Http);
        assert_eq!(
            ProxyKind::from_kind("socks5h"),
            ProxyKind::Socks5 { remote_dns: true }
        );
        assert_eq!(
            ProxyKind::from_kind("socks4"),
            ProxyKind::Socks4 { remote_dns: false }
        );
    }

    #[test]
    fn targets_and_requests() {
        let t = Target::of(&"https://[::1]:8443/x".parse().unwrap()).unwrap();
        assert_eq!(t.authority(), "[::1]:8443");
        let t = Target::of(&"http://h.example".parse().unwrap()).unwrap();
        assert_eq!((t.port, t.https), (80, false));
        assert!(Target::of(&"ftp://h/".parse().unwrap()).is_err());
        let r = String::from_utf8(request_bytes(
            "CONNECT",
            "h:443",
            "h:443",
            "ua",
            Some("Basic x"),
        ))
        .unwrap();
        assert_eq!(
            r,
            "CONNECT h:443 HTTP/1.1\r\nHost: h:443\r\nUser-Agent: ua\r\nProxy-Connection: Keep-Alive\r\nProxy-Authorization: Basic x\r\n\r\n"
        );
    }

    #[test]
    fn permanence() {
        let tls = ConnectError::Tls {
            host: "h".into(),
            source: std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer),
            ),
        };
        assert!(tls.is_permanent());
        let eof = ConnectError::Tls {
            host: "h".into(),
            source: std::io::ErrorKind::UnexpectedEof.into(),
        };
        assert!(!eof.is_permanent());
        let socks = ConnectError::Socks {
            proxy: "p".into(),
            source: tokio_socks::Error::PasswordAuthFailure(1),
        };
        assert!(socks.is_permanent());
    }
}
