//! Transport: the HTTP client per repository (proxy, credentials, headers, timeouts, retries).
//!
//! [`Transport`] turns "GET this path from that [`crate::repository::RemoteRepository`]" into
//! requests on a pool of reqwest clients. Errors ([`TransportError`]) name the repository
//! (= server id), the proxy, the redacted URL and, for network failures, the retries and time
//! spent. Artifacts, checksums and the local repository are [`crate::download`]'s business.

pub mod client;
pub mod credentials;
pub mod error;
pub mod limits;
pub mod retry;
pub mod scope;

pub use client::{BodySink, Fetched, Transport, TransportOptions};
pub use error::{redact_url, TransportError};
pub use limits::{LowSpeedLimit, DEFAULT_LOW_SPEED};
pub use retry::RetryPolicy;
