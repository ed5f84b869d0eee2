//! Transport: the HTTP client per repository (routes, proxies, authentication, headers,
//! timeouts, limits, retries).
//!
//! [`Transport`] turns "GET this path from that [`crate::repository::RemoteRepository`]" (and
//! "PUT this file there", [`Transport::put`], with the request bodies of `body`) into
//! requests on hyper's pooled client over m2r's own `connector` (routes with failover,
//! `CONNECT` tunnels, SOCKS, TLS). Proxy and server challenges are parsed by `challenge` and
//! answered by `auth` with `digest`, `ntlm` or Basic (`credentials`), remembering per
//! session what each peer asked for. `route` describes how a repository is reached (for
//! `m2r explain`); `scope` decides which URLs may receive a repository's credentials and
//! `limits` bounds bodies. Errors ([`TransportError`]) name the repository (= server id), the
//! proxy, the redacted URL and, for network failures, the retries and time spent, and keep their
//! typed causes. Artifacts, checksums and the local repository are [`crate::download`]'s
//! business.

pub(crate) mod auth;
pub(crate) mod body;
pub(crate) mod challenge;
pub(crate) mod client;
pub(crate) mod connector;
pub(crate) mod credentials;
pub(crate) mod digest;
pub(crate) mod error;
pub(crate) mod helper;
pub(crate) mod http1;
pub(crate) mod limits;
pub(crate) mod ntlm;
pub(crate) mod retry;
pub(crate) mod route;
pub(crate) mod scope;
pub(crate) mod tls;
mod warmup;

pub use auth::{AuthOffer, RejectReason, Rejection};
pub use body::{
    PutOptions, Upload, UploadProgress, DEFAULT_CONTINUE_TIMEOUT, DEFAULT_RETRY_STATUSES,
};
pub use challenge::Scheme;
pub(crate) use client::Purpose;
pub use client::Uploaded;
pub use client::{BodySink, Fetched, Transport, TransportOptions, DEFAULT_MAX_IN_MEMORY};
pub use connector::{ConnectError, RouteFailure};
pub(crate) use error::redact_url;
pub use error::{NetworkCause, TimeoutPhase, TransportError};
pub use helper::{CredentialHelpers, HelperError};
pub use http1::Http1Error;
pub use limits::{BodyStop, BodyTooLarge, LowSpeedLimit, DEFAULT_LOW_SPEED};
pub use retry::{parse_retry_after, RetryPolicy};
pub use route::{Hop, Route, RouteDatabase, RoutePlan};
