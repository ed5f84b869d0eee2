//! Transport: the HTTP client per repository (routes, proxies, authentication, headers,
//! timeouts, limits, retries).
//!
//! [`Transport`] turns "GET this path from that [`crate::repository::RemoteRepository`]" into
//! requests on hyper's pooled client over m2r's own [`connector`] (routes with failover,
//! `CONNECT` tunnels, SOCKS, TLS). Proxy and server challenges are parsed by [`challenge`] and
//! answered by [`auth`] with [`digest`], [`ntlm`] or Basic ([`credentials`]), remembering per
//! session what each peer asked for. [`route`] describes how a repository is reached (for
//! `m2r explain`); [`scope`] decides which URLs may receive a repository's credentials and
//! [`limits`] bounds bodies. Errors ([`TransportError`]) name the repository (= server id), the
//! proxy, the redacted URL and, for network failures, the retries and time spent, and keep their
//! typed causes. Artifacts, checksums and the local repository are [`crate::download`]'s
//! business.

pub mod auth;
pub mod challenge;
pub mod client;
pub mod connector;
pub mod credentials;
pub mod digest;
pub mod error;
pub mod http1;
pub mod limits;
pub mod ntlm;
pub mod retry;
pub mod route;
pub mod scope;
pub mod tls;
mod warmup;

pub use client::{BodySink, Fetched, Transport, TransportOptions};
pub use connector::ConnectError;
pub use error::{redact_url, NetworkCause, TimeoutPhase, TransportError};
pub use limits::{LowSpeedLimit, DEFAULT_LOW_SPEED};
pub use retry::RetryPolicy;
pub use route::RoutePlan;
