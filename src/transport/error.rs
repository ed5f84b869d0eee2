//! [`TransportError`]: what can go wrong fetching one URL of one repository, with the repository
//! (= server) id, the proxy id, the redacted URL, and for network failures the retries made and
//! time spent. Causes stay typed and reachable through `source()` ([`NetworkCause`], and below it
//! [`ConnectError`], `hyper::Error`, `std::io::Error`, `rustls::Error`); the messages flatten the
//! chain into one line for people.

use crate::transport::auth::Rejection;
use crate::transport::connector::ConnectError;
use std::path::PathBuf;
use std::time::Duration;
use thiserror::Error;

/// A failed request. URLs in messages never carry user info.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum TransportError {
    /// 404/410: the resource is not in this repository (the caller tries the next one).
    #[error("{url} was not found in repository `{repository}` (HTTP {status})")]
    NotFound {
        /// Repository id.
        repository: String,
        /// Redacted URL.
        url: String,
        /// HTTP status.
        status: u16,
    },
    /// 401/403 from the repository.
    #[error("{}", unauthorized_message(*status, url, server_id, *sent_credentials, withheld.as_deref(), credentials_from.as_deref(), rejection.as_deref(), via_proxy.as_deref()))]
    Unauthorized {
        /// The server id the credentials are looked up by (= repository id).
        server_id: String,
        /// Redacted URL.
        url: String,
        /// 401 or 403.
        status: u16,
        /// Whether an `Authorization` header was sent.
        sent_credentials: bool,
        /// Why none were sent although the settings have some (a password that could not be
        /// decrypted).
        withheld: Option<Box<str>>,
        /// What the server offered and what was tried, when it challenged.
        rejection: Option<Box<Rejection>>,
        /// `host:port` of the plain-HTTP proxy the request went through, if any.
        via_proxy: Option<String>,
        /// Where the credentials came from when not from a settings `<server>` (`netrc
        /// FILE:LINE (machine …)`, `credential helper `prog` (…)`).
        credentials_from: Option<String>,
    },
    /// A credential helper gave no usable answer: no request was made.
    #[error(transparent)]
    CredentialHelper(#[from] crate::transport::helper::HelperError),
    /// The proxy refused to open a CONNECT tunnel with a status other than 407 (tinyproxy answers
    /// 401 for wrong credentials; a proxy may also forbid the target port).
    #[error("proxy {proxy}{} refused to open a tunnel to {url} for repository `{repository}` (HTTP {status} {reason}): check the proxy's username/password in settings.xml and that the proxy allows CONNECT to this port",
        proxy_id.as_deref().map(|i| format!(" (id `{i}`)")).unwrap_or_default())]
    ProxyRefused {
        /// `host:port` of the proxy.
        proxy: String,
        /// The settings proxy id when known.
        proxy_id: Option<String>,
        /// Repository id.
        repository: String,
        /// Redacted URL.
        url: String,
        /// The proxy's status.
        status: u16,
        /// Its reason phrase.
        reason: String,
    },
    /// 407 from the HTTP proxy (plain request or `CONNECT`): no credentials, an unsupported
    /// scheme, or credentials it rejected. Said once per session: later requests through the
    /// same proxy fail with the same error without asking it again.
    #[error("proxy authentication failed (HTTP {status}) at proxy {proxy}{} used for repository `{repository}` ({url}): the proxy {rejection}; check the <proxy>{} username/password in settings.xml{}",
        proxy_id.as_deref().map(|i| format!(" (id `{i}`)")).unwrap_or_default(),
        proxy_id.as_deref().map(|i| format!(" with id `{i}`")).unwrap_or_default(),
        match (sent_credentials, withheld) { (true, _) => String::new(), (false, Some(w)) => format!(" (none were sent: {w})"), (false, None) => " (no proxy credentials are configured)".to_string() })]
    ProxyAuth {
        /// `host:port` of the proxy.
        proxy: String,
        /// The settings proxy id when known.
        proxy_id: Option<String>,
        /// Repository id.
        repository: String,
        /// Redacted URL.
        url: String,
        /// 407 (or 401 from proxies that answer so).
        status: u16,
        /// What the proxy offered and what was tried.
        rejection: Box<Rejection>,
        /// Whether proxy credentials were configured.
        sent_credentials: bool,
        /// Why none were sent although the settings have some (a password that could not be
        /// decrypted).
        withheld: Option<Box<str>>,
    },
    /// Other HTTP status that is not worth retrying (or still failing after retries).
    #[error("HTTP {status} from {url} (repository `{repository}`){}", retried(*retries, *elapsed))]
    Status {
        /// Repository id.
        repository: String,
        /// Redacted URL.
        url: String,
        /// HTTP status.
        status: u16,
        /// Retries made.
        retries: u32,
        /// Time spent including retries.
        elapsed: Duration,
    },
    /// Connection, TLS, timeout or body errors (after retries).
    #[error("could not transfer {url} from repository `{repository}`{via}{}", retried(*retries, *elapsed))]
    Network {
        /// Repository id.
        repository: String,
        /// Redacted URL.
        url: String,
        /// ` via proxy host:port` or empty.
        via: String,
        /// What failed, typed.
        #[source]
        cause: NetworkCause,
        /// Retries made.
        retries: u32,
        /// Time spent including retries.
        elapsed: Duration,
    },
    /// More redirects than allowed, or one without a usable `Location`.
    #[error("redirect problem at {url} (repository `{repository}`): {message}")]
    Redirect {
        /// Repository id.
        repository: String,
        /// Redacted URL.
        url: String,
        /// What was wrong.
        message: String,
    },
    /// The repository URL (or a path joined to it) is not a valid URL.
    #[error("repository `{repository}` has an invalid URL `{url}`: {message}")]
    InvalidUrl {
        /// Repository id.
        repository: String,
        /// Redacted URL.
        url: String,
        /// Parser message.
        message: String,
    },
    /// A CA certificate file could not be used.
    #[error("CA file {} {problem}", path.display())]
    CaFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
        /// Why reading failed, if it did.
        #[source]
        source: Option<crate::bounded::BoundedReadError>,
    },
    /// The HTTP client could not be built (bad proxy address, TLS set-up, ...).
    #[error("cannot set up the HTTP client: {0}")]
    Setup(String),
    /// The body is larger than the caller accepts (a checksum, metadata, or an artifact over the
    /// configured ceiling).
    #[error("{url} from repository `{repository}` was refused")]
    TooLarge {
        /// Repository id.
        repository: String,
        /// Redacted URL.
        url: String,
        /// The ceiling and what the server announced.
        #[source]
        source: crate::transport::limits::BodyTooLarge,
    },
    /// The body was stopped: it arrived too slowly, or not with its announced length.
    #[error(
        "transfer of {url} from repository `{repository}` stopped after {:.1?}",
        elapsed
    )]
    BodyStopped {
        /// Repository id.
        repository: String,
        /// Redacted URL.
        url: String,
        /// Why.
        #[source]
        source: crate::transport::limits::BodyStop,
        /// Time spent on the request.
        elapsed: Duration,
    },
    /// The file to upload could not be read.
    #[error("cannot read {} to upload it to repository `{repository}`", path.display())]
    UploadSource {
        /// Repository id.
        repository: String,
        /// The local file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The sink the body was written to failed (local disk).
    #[error("writing the body of {url} failed")]
    Sink {
        /// Redacted URL.
        url: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
}

/// The typed cause of a [`TransportError::Network`].
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum NetworkCause {
    /// The request failed before a response: connecting (see [`ConnectError`] in the chain),
    /// or the HTTP exchange itself.
    #[error(transparent)]
    Request(Box<hyper_util::client::legacy::Error>),
    /// The response body broke off.
    #[error("reading the response body failed")]
    Body(#[source] hyper::Error),
    /// Nothing arrived for too long.
    #[error("timed out {phase} (no data for {after:?})")]
    Timeout {
        /// What was waited for.
        phase: TimeoutPhase,
        /// The limit.
        after: Duration,
    },
    /// A `file:` repository could not be read.
    #[error("cannot read {}", path.display())]
    File {
        /// The file.
        path: Box<std::path::Path>,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
}

/// What a [`NetworkCause::Timeout`] waited for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TimeoutPhase {
    /// The response head (connecting, tunnelling, the server thinking).
    Response,
    /// The next bytes of the body.
    Body,
}

impl std::fmt::Display for TimeoutPhase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TimeoutPhase::Response => "waiting for the response",
            TimeoutPhase::Body => "reading the body",
        })
    }
}

impl NetworkCause {
    /// The connector's error, when connecting failed.
    pub fn connect_error(&self) -> Option<&ConnectError> {
        find_in_chain::<ConnectError>(self)
    }
}

/// The first error of type `T` in `e`'s source chain (including `e`).
pub(crate) fn find_in_chain<'a, T: std::error::Error + 'static>(
    e: &'a (dyn std::error::Error + 'static),
) -> Option<&'a T> {
    let mut cur = Some(e);
    while let Some(c) = cur {
        if let Some(t) = c.downcast_ref::<T>() {
            return Some(t);
        }
        cur = c.source();
    }
    None
}

impl TransportError {
    /// True for [`TransportError::NotFound`].
    pub fn is_not_found(&self) -> bool {
        matches!(self, TransportError::NotFound { .. })
    }

    /// The connector's error behind a [`TransportError::Network`], if connecting failed.
    pub fn connect_error(&self) -> Option<&ConnectError> {
        match self {
            TransportError::Network { cause, .. } => cause.connect_error(),
            _ => None,
        }
    }
}

/// The one message of a 401/403: what failed, which credentials to check (a settings
/// `<server>`, or the netrc entry or credential helper that gave them), whether they were sent,
/// and why not when the settings have some that were withheld (a password that could not be
/// decrypted is never sent).
#[allow(clippy::too_many_arguments)]
fn unauthorized_message(
    status: u16,
    url: &str,
    server_id: &str,
    sent_credentials: bool,
    withheld: Option<&str>,
    credentials_from: Option<&str>,
    rejection: Option<&Rejection>,
    via_proxy: Option<&str>,
) -> String {
    let check = match credentials_from {
        Some(c) => format!("the credentials from {c} (repository `{server_id}`)"),
        None => format!("the credentials of <server> with id `{server_id}` in settings.xml"),
    };
    let state = match (sent_credentials, withheld, credentials_from) {
        (true, _, _) => " (they were sent and rejected)".to_string(),
        (false, Some(w), _) => format!(" (none were sent: {w})"),
        (false, None, Some(_)) => " (it gave none, so none were sent)".to_string(),
        (false, None, None) => " (none are configured for this id)".to_string(),
    };
    let rejection = rejection
        .map(|r| format!("; the server {r}"))
        .unwrap_or_default();
    let via_proxy = via_proxy
        .map(|p| format!("; the request went through proxy {p}, and some proxies (tinyproxy) answer 401 instead of 407 for wrong proxy credentials"))
        .unwrap_or_default();
    format!(
        "{} from {url}: check {check}{state}{rejection}{via_proxy}",
        status_text(status)
    )
}

fn status_text(status: u16) -> String {
    match status {
        401 => "authentication failed (HTTP 401 Unauthorized)".into(),
        403 => "access denied (HTTP 403 Forbidden)".into(),
        s => format!("HTTP {s}"),
    }
}

fn retried(retries: u32, elapsed: Duration) -> String {
    if retries == 0 {
        format!(" (after {:.1?})", elapsed)
    } else {
        format!(" (gave up after {retries} retries, {:.1?})", elapsed)
    }
}

/// A URL with user info removed (`https://user:pw@h/x` → `https://***@h/x`), safe to log.
pub fn redact_url(url: &str) -> String {
    crate::repository::url::redact(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_server_and_proxy() {
        let e = TransportError::Unauthorized {
            server_id: "nexus".into(),
            url: "https://h/r/a.jar".into(),
            status: 401,
            sent_credentials: true,
            withheld: None,
            rejection: None,
            via_proxy: None,
            credentials_from: None,
        };
        let m = e.to_string();
        assert!(
            m.contains("`nexus`") && m.contains("401") && m.contains("rejected"),
            "{m}"
        );
        let e = TransportError::ProxyAuth {
            proxy: "127.0.0.1:3128".into(),
            proxy_id: Some("corp".into()),
            repository: "central".into(),
            url: "https://h/r".into(),
            status: 407,
            rejection: Box::new(Rejection {
                scheme: Some(crate::transport::challenge::Scheme::Digest),
                offered: "Digest realm=\"corp\"".into(),
                tried: "Digest (MD5) as user `jane`".into(),
                reason: crate::transport::auth::RejectReason::Rejected,
            }),
            sent_credentials: true,
            withheld: None,
        };
        let m = e.to_string();
        assert!(
            m.contains("127.0.0.1:3128 (id `corp`)")
                && m.contains("407")
                && m.contains("asked for Digest realm=\"corp\"; m2r answered with Digest (MD5) as user `jane` and it was rejected"),
            "{m}"
        );
        let e = TransportError::Network {
            repository: "r".into(),
            url: "u".into(),
            via: String::new(),
            cause: NetworkCause::File {
                path: std::path::Path::new("/x/y").into(),
                source: std::io::ErrorKind::PermissionDenied.into(),
            },
            retries: 3,
            elapsed: Duration::from_millis(1500),
        };
        assert!(
            !e.to_string().contains("permission denied"),
            "the cause is a source, not the message"
        );
        let m = crate::printable::error_chain(&e);
        assert!(
            m.contains("3 retries") && m.contains("cannot read /x/y: permission denied"),
            "{m}"
        );
        assert!(std::error::Error::source(&e).is_some());
    }

    #[test]
    fn one_unauthorized_message_for_every_credential_source() {
        let msg = |sent: bool, withheld: Option<&str>, from: Option<&str>| {
            TransportError::Unauthorized {
                server_id: "repo".into(),
                url: "https://h/r/a.pom".into(),
                status: 401,
                sent_credentials: sent,
                withheld: withheld.map(Into::into),
                rejection: None,
                via_proxy: None,
                credentials_from: from.map(Into::into),
            }
            .to_string()
        };
        let settings = "the credentials of <server> with id `repo` in settings.xml";
        let netrc = "netrc /home/ci/.netrc:3 (machine h)";
        let helper = "credential helper `token.sh` (from M2R_CREDENTIAL_HELPER)";
        let table: &[(bool, Option<&str>, Option<&str>, &str)] = &[
            (true, None, None, &format!("check {settings} (they were sent and rejected)")),
            (false, None, None, &format!("check {settings} (none are configured for this id)")),
            (
                false,
                Some("the password of <server> `repo` could not be decrypted"),
                None,
                &format!("check {settings} (none were sent: the password of <server> `repo` could not be decrypted)"),
            ),
            (
                true,
                None,
                Some(netrc),
                &format!("check the credentials from {netrc} (repository `repo`) (they were sent and rejected)"),
            ),
            (
                false,
                None,
                Some(helper),
                &format!("check the credentials from {helper} (repository `repo`) (it gave none, so none were sent)"),
            ),
        ];
        for (sent, withheld, from, expected) in table {
            let m = msg(*sent, *withheld, *from);
            assert_eq!(
                m,
                format!("authentication failed (HTTP 401 Unauthorized) from https://h/r/a.pom: {expected}")
            );
        }
    }

    #[test]
    fn redaction() {
        assert_eq!(redact_url("https://u@h/"), "https://***@h/");
        assert_eq!(redact_url("weird://u:p@"), "weird://***@");
        assert_eq!(redact_url("nope"), "nope");
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_redact_url() {
        use crate::transport::redact_url;
        assert_eq!(
            redact_url("https://u:p@h.example/r/"),
            "https://***@h.example/r/"
        );
        assert_eq!(redact_url("http://h/r"), "http://h/r");
    }
}
