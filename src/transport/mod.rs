//! Transport: the HTTP client per repository (proxy, credentials, headers, timeouts, retries).
//!
//! [`Transport`] turns "GET this path from that [`crate::repository::RemoteRepository`]" into
//! requests on a pool of reqwest clients. Errors ([`TransportError`]) name the repository
//! (= server id), the proxy, the redacted URL and, for network failures, the retries and time
//! spent. Artifacts, checksums and the local repository are [`crate::download`]'s business.

pub(crate) mod client;
pub(crate) mod credentials;
pub(crate) mod error;
pub(crate) mod limits;
pub(crate) mod retry;
pub(crate) mod scope;

pub use client::{BodySink, Fetched, Transport, TransportOptions, DEFAULT_MAX_IN_MEMORY};
pub(crate) use error::redact_url;
pub use error::TransportError;
pub use limits::{LowSpeedLimit, DEFAULT_LOW_SPEED};
pub use retry::RetryPolicy;
