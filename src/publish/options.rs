//! [`DeployOptions`]: how a deployment uploads, and the properties that set it (Resolver's names
//! where Resolver has one; `-D` on the command line, or the session's user and system properties).
//!
//! | property | default | meaning |
//! |---|---|---|
//! | `aether.checksums.algorithms` | `SHA-1,MD5` | checksum files per upload, in order (the downloads' list, [`ChecksumAlgorithms`]) |
//! | `aether.checksums.forSignature` | `false` | `*.asc` files get checksums too |
//! | `aether.connector.http.expectContinue` | `true` | send `Expect: 100-continue` (Maven's Wagon always does) |
//! | `aether.connector.http.expectContinue.<repoId>` | the above | the same, for one repository |
//! | `aether.connector.http.retryHandler.count` | `3` | retries of one upload |
//! | `aether.connector.http.retryHandler.interval` | `1000` | first wait in ms, doubled each retry |
//! | `aether.connector.http.retryHandler.intervalMax` | `30000` | longest wait in ms (a `Retry-After` too) |
//! | `aether.connector.http.retryHandler.serviceUnavailable` | `429,502,503,504` | statuses retried (connection errors always are) |
//! | `m2r.deploy.threads` | `32` | uploads in flight |
//!
//! Maven 3.8.7 itself retries an upload only on `429` (Wagon: 5 s, doubled, up to 180 s) and on
//! connection errors (3 times), never on `5xx`, and uploads one file at a time.

use super::checksums::FOR_SIGNATURE_PROPERTY;
use super::error::PublishError;
use crate::download::ChecksumAlgorithms;
use crate::transport::{RetryPolicy, DEFAULT_CONTINUE_TIMEOUT, DEFAULT_RETRY_STATUSES};
use std::time::Duration;

/// Uploads in flight unless `m2r.deploy.threads` says otherwise.
pub const DEFAULT_UPLOADS_IN_FLIGHT: usize = 32;

/// How a deployment uploads. Build it with [`DeployOptions::default`] or
/// [`DeployOptions::from_properties`] and adjust the fields.
///
/// ```
/// use m2resolver::publish::DeployOptions;
/// let props = [("aether.checksums.algorithms", "SHA-256,SHA-512"),
///              ("aether.connector.http.expectContinue.nexus", "false")];
/// let get = |k: &str| props.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string());
/// let o = DeployOptions::from_properties(get, "nexus").unwrap();
/// assert_eq!(o.checksums.extensions(), ["sha256", "sha512"]);
/// assert!(!o.expect_continue);
/// assert_eq!(o.retry_statuses, [429, 502, 503, 504]);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct DeployOptions {
    /// The checksum files of every upload, in order.
    pub checksums: ChecksumAlgorithms,
    /// Whether `*.asc` files get checksums.
    pub checksums_for_signatures: bool,
    /// Uploads in flight.
    pub max_in_flight: usize,
    /// Retries of one upload (connection errors and [`DeployOptions::retry_statuses`]).
    pub retry: RetryPolicy,
    /// Statuses worth another attempt.
    pub retry_statuses: Vec<u16>,
    /// Send `Expect: 100-continue`.
    pub expect_continue: bool,
    /// The longest wait for `100 Continue`.
    pub continue_timeout: Duration,
    /// After the artifacts, read one checksum file back and compare it (a server that answers
    /// 200 but stores nothing is caught before the metadata is changed).
    pub verify: bool,
}

impl Default for DeployOptions {
    fn default() -> Self {
        DeployOptions {
            checksums: ChecksumAlgorithms::default(),
            checksums_for_signatures: false,
            max_in_flight: DEFAULT_UPLOADS_IN_FLIGHT,
            retry: RetryPolicy {
                retries: 3,
                base: Duration::from_millis(1000),
                max: Duration::from_millis(30_000),
            },
            retry_statuses: DEFAULT_RETRY_STATUSES.to_vec(),
            expect_continue: true,
            continue_timeout: DEFAULT_CONTINUE_TIMEOUT,
            verify: false,
        }
    }
}

/// Java's `Boolean.parseBoolean`.
fn java_bool(v: &str) -> bool {
    v.eq_ignore_ascii_case("true")
}

impl DeployOptions {
    /// The options the properties `get` returns give (see the [module documentation](self)),
    /// for the deployment repository `repository_id`.
    pub fn from_properties(
        get: impl Fn(&str) -> Option<String>,
        repository_id: &str,
    ) -> Result<DeployOptions, PublishError> {
        let mut o = DeployOptions::default();
        if let Some(v) = get(ChecksumAlgorithms::KEY) {
            o.checksums = ChecksumAlgorithms::parse(&v).map_err(PublishError::Checksums)?;
        }
        if let Some(v) = get(FOR_SIGNATURE_PROPERTY) {
            o.checksums_for_signatures = java_bool(&v);
        }
        const EXPECT: &str = "aether.connector.http.expectContinue";
        if let Some(v) = get(&format!("{EXPECT}.{repository_id}")).or_else(|| get(EXPECT)) {
            o.expect_continue = java_bool(&v);
        }
        let number = |name: &str| -> Result<Option<u64>, PublishError> {
            match get(name) {
                None => Ok(None),
                Some(v) => v
                    .trim()
                    .parse::<u64>()
                    .map(Some)
                    .map_err(|_| PublishError::Request {
                        message: format!("property {name} must be a whole number, got `{v}`"),
                    }),
            }
        };
        const RETRY: &str = "aether.connector.http.retryHandler";
        if let Some(n) = number(&format!("{RETRY}.count"))? {
            o.retry.retries = u32::try_from(n).unwrap_or(u32::MAX);
        }
        if let Some(ms) = number(&format!("{RETRY}.interval"))? {
            o.retry.base = Duration::from_millis(ms);
        }
        if let Some(ms) = number(&format!("{RETRY}.intervalMax"))? {
            o.retry.max = Duration::from_millis(ms);
        }
        let statuses = format!("{RETRY}.serviceUnavailable");
        if let Some(v) = get(&statuses) {
            o.retry_statuses = v
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| {
                    s.parse::<u16>().map_err(|_| PublishError::Request {
                        message: format!(
                            "property {statuses} must list HTTP statuses separated by commas, got `{v}`"
                        ),
                    })
                })
                .collect::<Result<_, _>>()?;
        }
        if let Some(n) = number("m2r.deploy.threads")? {
            o.max_in_flight = usize::try_from(n).unwrap_or(usize::MAX).max(1);
        }
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_and_their_errors() {
        let props = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        let o = DeployOptions::from_properties(props(&[]), "r").unwrap();
        assert_eq!(o.checksums.extensions(), ["sha1", "md5"]);
        assert!(o.expect_continue && !o.verify && !o.checksums_for_signatures);
        let o = DeployOptions::from_properties(
            props(&[
                ("aether.connector.http.expectContinue", "FALSE"),
                ("aether.connector.http.expectContinue.r", "true"),
                ("aether.checksums.forSignature", "True"),
                ("aether.connector.http.retryHandler.count", "5"),
                ("aether.connector.http.retryHandler.interval", "10"),
                (
                    "aether.connector.http.retryHandler.serviceUnavailable",
                    "503, 429",
                ),
                ("m2r.deploy.threads", "0"),
            ]),
            "r",
        )
        .unwrap();
        assert!(o.expect_continue && o.checksums_for_signatures);
        assert_eq!(o.retry.retries, 5);
        assert_eq!(o.retry.base, Duration::from_millis(10));
        assert_eq!(o.retry_statuses, [503, 429]);
        assert_eq!(o.max_in_flight, 1);
        for bad in [
            &[("aether.connector.http.retryHandler.count", "x")][..],
            &[("aether.checksums.algorithms", "SHA-1,WHIRLPOOL")][..],
            &[(
                "aether.connector.http.retryHandler.serviceUnavailable",
                "5xx",
            )][..],
        ] {
            assert!(DeployOptions::from_properties(props(bad), "r").is_err());
        }
    }
}
