//! The session's authentication state, per proxy and per server: which scheme a peer asked for,
//! and what to send preemptively next time (OkHttp's `Authenticator`, with a cache).
//!
//! One [`Authenticator`] exists per proxy (host, port, credentials) and per server (the
//! repository's origin and credentials) for the life of a [`crate::transport::Transport`]:
//!
//! - **Proxies** start reactive: the first request or `CONNECT` carries no `Proxy-Authorization`;
//!   the `407` names the schemes and the strongest one m2r supports is answered
//!   ([`crate::transport::challenge::pick`]: NTLM, Digest, Basic) and the request retried.
//!   After that the scheme is known and later connections answer at once: Basic preemptively,
//!   Digest with a cached nonce and its next nonce count, NTLM by starting its handshake with
//!   the first `CONNECT`. While nothing is known, one exchange at a time learns it (a gate), so a
//!   hundred parallel downloads cost one `407`, not a hundred.
//! - **Digest nonces** are checked out by one exchange at a time and handed back when it
//!   succeeds: squid invalidates a nonce whose count arrives out of order, which parallel
//!   requests sharing one nonce would cause. An exchange that finds no idle nonce goes without
//!   and collects a new one from the challenge, so the pool grows to the number of requests in
//!   flight (a bounded number of extra round trips per session, not one per request).
//! - **Servers** get `Basic` preemptively when the repository has credentials (only to the
//!   repository's own origin, decided by the caller); a `401` asking for Digest is answered and
//!   Digest is used from then on (never Basic again to that server).
//! - **Wrong credentials**: an answer the peer rejects ends the exchange with a [`Rejection`]
//!   naming the scheme, what was offered and what was tried. For a proxy the rejection is kept
//!   for the session: later requests fail at once without contacting it (no retry storm).
//!   Digest's `stale=true` (the nonce expired, the password was right) is answered once more.
//!
//! Pure state and computation; the connections are [`crate::transport::connector`]'s and the
//! request loop is [`crate::transport::client`]'s.

use crate::repository::{Authentication, RemoteRepository, RepositoryProxy};
use crate::transport::challenge::{describe_offered, pick, Challenge, Scheme};
use crate::transport::credentials::basic_header;
use crate::transport::digest::{new_cnonce, DigestChallenge};
use crate::transport::ntlm::{self, NtlmUser};
use crate::Secret;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Most challenge/answer rounds in one exchange (NTLM needs two; Digest a stale one more).
pub(crate) const MAX_ROUNDS: u8 = 4;

/// Proxy or server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Party {
    /// An HTTP proxy (`407`, `Proxy-Authenticate`).
    Proxy,
    /// The repository server (`401`, `WWW-Authenticate`).
    Server,
}

/// Why an exchange cannot authenticate.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RejectReason {
    /// The peer asked for credentials and none are configured.
    NoCredentials,
    /// None of the offered schemes is one m2r answers.
    Unsupported,
    /// The answer was rejected: wrong user name or password.
    Rejected,
    /// The peer broke the scheme's protocol (an NTLM challenge missing, a bad Digest challenge).
    Protocol(String),
}

/// An authentication failure: what the peer offered and what was tried. No secrets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// The scheme answered last, if any.
    pub scheme: Option<Scheme>,
    /// What the peer offered (`Digest realm="x", NTLM`).
    pub offered: String,
    /// What m2r tried (`Digest (MD5) as user `jane``).
    pub tried: String,
    /// Why it stops.
    pub reason: RejectReason,
}

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.reason {
            RejectReason::NoCredentials => write!(
                f,
                "it asked for {} and no credentials are configured",
                self.offered
            ),
            RejectReason::Unsupported => write!(
                f,
                "it offered {}, none of which m2r answers (NTLM, Digest and Basic are supported)",
                self.offered
            ),
            RejectReason::Rejected => write!(
                f,
                "it asked for {}; m2r answered with {} and it was rejected",
                self.offered, self.tried
            ),
            RejectReason::Protocol(m) => write!(
                f,
                "it asked for {}; while answering with {}: {m}",
                self.offered, self.tried
            ),
        }
    }
}

/// The scheme offered first on a route, and why (for `m2r explain`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthOffer {
    /// Sent on the first request or `CONNECT`, if anything.
    pub first: Option<Scheme>,
    /// Why.
    pub why: String,
}

impl AuthOffer {
    /// `Basic, preemptively: ...` / `none at first: ...`.
    pub fn sentence(&self) -> String {
        match self.first {
            Some(s) => format!("{s} first: {}", self.why),
            None => format!("none at first: {}", self.why),
        }
    }
}

/// What the session knows about a peer.
#[derive(Debug, Clone)]
enum State {
    /// Nothing yet.
    Unknown,
    /// It answered without asking for credentials.
    Open,
    /// It took Basic.
    Basic,
    /// It took Digest: idle nonces (each with its count so far) to reuse.
    Digest { idle: Vec<DigestSession> },
    /// It took NTLM (connection-level handshake on every new connection).
    Ntlm,
    /// It rejected the credentials (proxies only).
    Rejected(Rejection),
}

/// What was sent last in an exchange.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sent {
    Nothing,
    /// A cached answer (Digest nonce reuse) that may be stale.
    Cached(Scheme),
    /// An answer the peer may accept or reject.
    Fresh(Scheme),
    NtlmNegotiate,
    NtlmAuthenticate,
}

/// A Digest nonce in use: the challenge it came with, its count so far, the client nonce.
#[derive(Debug, Clone)]
struct DigestSession {
    challenge: DigestChallenge,
    nc: u32,
    cnonce: String,
}

/// Idle nonces kept per peer (more than any sensible number of requests in flight).
const MAX_IDLE_NONCES: usize = 256;

/// One exchange: a `CONNECT` sequence or one request (one redirect hop).
#[derive(Debug, Clone)]
pub(crate) struct Exchange {
    pub sent: Sent,
    rounds: u8,
    stale_answered: bool,
    /// The Digest nonce this exchange uses (checked out of the pool, or fresh).
    digest: Option<DigestSession>,
}

impl Exchange {
    /// The next message must go on the same connection (NTLM's third message).
    pub fn needs_same_connection(&self) -> bool {
        self.sent == Sent::NtlmAuthenticate
    }
}

/// Where the exchange happens: on a raw connection m2r drives (CONNECT, NTLM handshakes) or as
/// a request through the pooled client (no NTLM there: it needs one connection).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Level {
    Connection,
    Request,
}

/// The next step after a challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Answer {
    /// Retry with this header value.
    Header(String),
    /// NTLM at the request level: the connector must authenticate new connections; retry on one.
    NtlmOnNewConnection,
}

/// User name and password of a proxy or server.
#[derive(Clone)]
struct Credentials {
    username: String,
    password: Secret,
}

/// The session's authentication state for one proxy or server.
pub struct Authenticator {
    party: Party,
    /// `proxy 127.0.0.1:3128 (id `corp`)`, `server `nexus``: for logs.
    label: String,
    /// Clear credentials only: the session decrypted them, or left them out when it could not.
    credentials: Option<Credentials>,
    /// Why there are none although the settings have some (a password that could not be
    /// decrypted).
    withheld: Option<String>,
    ntlm_user: Option<NtlmUser>,
    workstation: String,
    state: Mutex<State>,
    gate: Arc<tokio::sync::Mutex<()>>,
    generation: AtomicU64,
}

impl std::fmt::Debug for Authenticator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Authenticator")
            .field("party", &self.party)
            .field(
                "username",
                &self.credentials.as_ref().map(|c| c.username.as_str()),
            )
            .field("state", &self.state_name())
            .finish()
    }
}

impl Authenticator {
    /// An authenticator with these credentials. `env` is the session's environment snapshot
    /// (`USERDOMAIN` is NTLM's default domain, `COMPUTERNAME` its workstation name).
    pub fn new(
        party: Party,
        label: impl Into<String>,
        auth: Option<&Authentication>,
        env: &HashMap<String, String>,
    ) -> Authenticator {
        // A password that could not be decrypted withholds the whole credential: never the
        // user name with an empty password.
        let credentials = auth.and_then(|a| {
            let (username, password) = a.sendable()?;
            Some(Credentials {
                username: username.to_string(),
                password: password.cloned().unwrap_or_else(|| Secret::new("")),
            })
        });
        let withheld = auth.and_then(|a| a.withheld.clone());
        let ntlm_user = credentials.as_ref().map(|c| {
            NtlmUser::parse(
                &c.username,
                env.get("USERDOMAIN")
                    .map(String::as_str)
                    .filter(|d| !d.is_empty()),
            )
        });
        Authenticator {
            party,
            label: label.into(),
            credentials,
            withheld,
            ntlm_user,
            workstation: env
                .get("COMPUTERNAME")
                .cloned()
                .unwrap_or_default()
                .to_ascii_uppercase(),
            state: Mutex::new(State::Unknown),
            gate: Arc::new(tokio::sync::Mutex::new(())),
            generation: AtomicU64::new(0),
        }
    }

    /// A fresh authenticator for a repository's HTTP proxy (`None` for SOCKS or no proxy).
    pub fn for_proxy_fresh(proxy: Option<&RepositoryProxy>) -> Option<Authenticator> {
        let p = proxy?;
        (!p.kind.to_ascii_lowercase().starts_with("socks"))
            .then(|| Authenticator::new(Party::Proxy, "proxy", p.auth.as_ref(), &HashMap::new()))
    }

    /// A fresh authenticator for a repository's server credentials.
    pub fn for_server_fresh(repo: &RemoteRepository) -> Authenticator {
        Authenticator::new(
            Party::Server,
            "server",
            repo.authentication.as_ref(),
            &HashMap::new(),
        )
    }

    /// Whether a user name is configured (and its password could be decrypted).
    pub fn has_credentials(&self) -> bool {
        self.credentials.is_some()
    }

    /// Why no credentials are sent although the settings have some.
    pub fn withheld(&self) -> Option<&str> {
        self.withheld.as_deref()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn state_name(&self) -> &'static str {
        match &*self.lock() {
            State::Unknown => "unknown",
            State::Open => "open",
            State::Basic => "basic",
            State::Digest { .. } => "digest",
            State::Ntlm => "ntlm",
            State::Rejected(_) => "rejected",
        }
    }

    /// The scheme the session settled on, if any.
    #[cfg(test)]
    pub fn known_scheme(&self) -> Option<Scheme> {
        match &*self.lock() {
            State::Basic => Some(Scheme::Basic),
            State::Digest { .. } => Some(Scheme::Digest),
            State::Ntlm => Some(Scheme::Ntlm),
            _ => None,
        }
    }

    /// True once NTLM is known: new plain-proxy connections must run the handshake.
    pub(crate) fn wants_ntlm_connections(&self) -> bool {
        matches!(&*self.lock(), State::Ntlm)
    }

    /// Bumped when connections made before must not be reused (plain-proxy NTLM was learned).
    pub(crate) fn generation(&self) -> u64 {
        self.generation.load(Ordering::Relaxed)
    }

    /// While nothing is known about a proxy, one exchange at a time finds out: the others wait
    /// here and then answer preemptively (or fail at once if it rejected the credentials).
    pub(crate) async fn gate(&self) -> Option<tokio::sync::OwnedMutexGuard<()>> {
        if self.party != Party::Proxy || !matches!(&*self.lock(), State::Unknown) {
            return None;
        }
        let guard = self.gate.clone().lock_owned().await;
        matches!(&*self.lock(), State::Unknown).then_some(guard)
    }

    /// What to send first in an exchange (`method` and `uri` as the Digest answer needs them),
    /// or the session's earlier rejection.
    pub(crate) fn start(
        &self,
        level: Level,
        method: &str,
        uri: &str,
    ) -> Result<(Option<String>, Exchange), Rejection> {
        let mut ex = Exchange {
            sent: Sent::Nothing,
            rounds: 0,
            stale_answered: false,
            digest: None,
        };
        let mut state = self.lock();
        let header = match &mut *state {
            State::Rejected(r) => return Err(r.clone()),
            State::Unknown | State::Open => match (self.party, &self.credentials) {
                // Servers: Basic preemptively (the caller only asks for the repository's origin).
                (Party::Server, Some(c)) => {
                    ex.sent = Sent::Fresh(Scheme::Basic);
                    Some(basic_header(&c.username, c.password.expose()))
                }
                _ => None,
            },
            State::Basic => self.credentials.as_ref().map(|c| {
                ex.sent = Sent::Fresh(Scheme::Basic);
                basic_header(&c.username, c.password.expose())
            }),
            State::Digest { idle } => match (idle.pop(), &self.credentials) {
                (Some(mut d), Some(c)) => {
                    d.nc += 1;
                    let h = d.challenge.answer(
                        &c.username,
                        c.password.expose(),
                        method,
                        uri,
                        d.nc,
                        &d.cnonce,
                    );
                    ex.sent = Sent::Cached(Scheme::Digest);
                    ex.digest = Some(d);
                    Some(h)
                }
                // every nonce is in use: this exchange collects a new one from the challenge
                _ => None,
            },
            State::Ntlm => match level {
                Level::Connection => {
                    ex.sent = Sent::NtlmNegotiate;
                    Some(ntlm::header_value(&ntlm::negotiate_message()))
                }
                // the connection was authenticated when it was made
                Level::Request => None,
            },
        };
        Ok((header, ex))
    }

    fn reject(&self, ex: &Exchange, offered: &[Challenge], reason: RejectReason) -> Rejection {
        let scheme = match ex.sent {
            Sent::Nothing => None,
            Sent::Cached(s) | Sent::Fresh(s) => Some(s),
            Sent::NtlmNegotiate | Sent::NtlmAuthenticate => Some(Scheme::Ntlm),
        };
        let r = Rejection {
            scheme,
            offered: describe_offered(offered),
            tried: self.tried(scheme, ex),
            reason,
        };
        tracing::info!(peer = %self.label, rejection = %r, "authentication failed");
        if self.party == Party::Proxy {
            *self.lock() = State::Rejected(r.clone());
        }
        r
    }

    fn tried(&self, scheme: Option<Scheme>, ex: &Exchange) -> String {
        let user = self
            .credentials
            .as_ref()
            .map(|c| c.username.as_str())
            .unwrap_or("");
        match scheme {
            None => "no credentials".into(),
            Some(Scheme::Basic) => format!("Basic as user `{user}`"),
            Some(Scheme::Digest) => {
                let alg = ex
                    .digest
                    .as_ref()
                    .map(|d| d.challenge.algorithm.name())
                    .unwrap_or("MD5");
                format!("Digest ({alg}) as user `{user}`")
            }
            Some(Scheme::Ntlm) => format!(
                "NTLMv2 as `{}`",
                self.ntlm_user
                    .as_ref()
                    .map(ToString::to_string)
                    .unwrap_or_default()
            ),
        }
    }

    /// The answer to a `407` (proxy) or `401` (server) carrying `challenges`.
    pub(crate) fn on_challenge(
        &self,
        ex: &mut Exchange,
        level: Level,
        challenges: &[Challenge],
        method: &str,
        uri: &str,
    ) -> Result<Answer, Rejection> {
        ex.rounds += 1;
        if ex.rounds > MAX_ROUNDS {
            return Err(self.reject(ex, challenges, RejectReason::Rejected));
        }
        let Some(c) = self.credentials.clone() else {
            return Err(self.reject(ex, challenges, RejectReason::NoCredentials));
        };
        if level == Level::Connection && ex.sent == Sent::NtlmNegotiate {
            let token = challenges
                .iter()
                .find(|c| c.is("NTLM") && c.token68.is_some())
                .and_then(|c| c.token68.as_deref());
            let Some(token) = token else {
                return Err(self.reject(
                    ex,
                    challenges,
                    RejectReason::Protocol(
                        "the answer to the NTLM negotiate message carries no NTLM challenge (is the connection kept alive?)".into(),
                    ),
                ));
            };
            let message = ntlm::parse_challenge_token(token)
                .map_err(|e| self.reject(ex, challenges, RejectReason::Protocol(e.to_string())))?;
            let user = self.ntlm_user.clone().unwrap_or(NtlmUser {
                domain: String::new(),
                user: c.username.clone(),
            });
            let auth = ntlm::authenticate_message(
                &message,
                &user,
                c.password.expose(),
                &self.workstation,
                rand::random(),
                ntlm::filetime_now(),
            );
            ex.sent = Sent::NtlmAuthenticate;
            return Ok(Answer::Header(ntlm::header_value(&auth)));
        }
        if ex.sent == Sent::NtlmAuthenticate {
            return Err(self.reject(ex, challenges, RejectReason::Rejected));
        }
        let Some(picked) = pick(challenges, self.party == Party::Proxy) else {
            return Err(self.reject(ex, challenges, RejectReason::Unsupported));
        };
        match picked.scheme {
            Scheme::Basic => {
                if ex.sent == Sent::Fresh(Scheme::Basic) {
                    return Err(self.reject(ex, challenges, RejectReason::Rejected));
                }
                ex.sent = Sent::Fresh(Scheme::Basic);
                Ok(Answer::Header(basic_header(
                    &c.username,
                    c.password.expose(),
                )))
            }
            Scheme::Digest => {
                let d = DigestChallenge::from_challenge(picked.challenge).map_err(|e| {
                    self.reject(ex, challenges, RejectReason::Protocol(e.to_string()))
                })?;
                if ex.sent == Sent::Fresh(Scheme::Digest) {
                    if !d.stale || ex.stale_answered {
                        return Err(self.reject(ex, challenges, RejectReason::Rejected));
                    }
                    ex.stale_answered = true;
                }
                let cnonce = new_cnonce();
                let header = d.answer(&c.username, c.password.expose(), method, uri, 1, &cnonce);
                ex.digest = Some(DigestSession {
                    challenge: d,
                    nc: 1,
                    cnonce,
                });
                ex.sent = Sent::Fresh(Scheme::Digest);
                Ok(Answer::Header(header))
            }
            Scheme::Ntlm => match level {
                Level::Connection => {
                    ex.sent = Sent::NtlmNegotiate;
                    Ok(Answer::Header(ntlm::header_value(
                        &ntlm::negotiate_message(),
                    )))
                }
                Level::Request => {
                    // A request cannot keep its connection: have new connections authenticate.
                    if ex.sent == Sent::NtlmNegotiate {
                        return Err(self.reject(ex, challenges, RejectReason::Rejected));
                    }
                    let mut state = self.lock();
                    if !matches!(&*state, State::Ntlm) {
                        // connections made so far are not authenticated: stop reusing them
                        *state = State::Ntlm;
                        self.generation.fetch_add(1, Ordering::Relaxed);
                    }
                    drop(state);
                    ex.sent = Sent::NtlmNegotiate;
                    Ok(Answer::NtlmOnNewConnection)
                }
            },
        }
    }

    /// The peer answered without a challenge: remember what worked (and hand a Digest nonce
    /// back for the next exchange).
    pub(crate) fn on_success(&self, ex: &Exchange) {
        let mut state = self.lock();
        let learned = match ex.sent {
            Sent::Nothing => {
                if matches!(&*state, State::Unknown) {
                    *state = State::Open;
                }
                None
            }
            Sent::Fresh(Scheme::Basic) => {
                let new = !matches!(&*state, State::Basic);
                *state = State::Basic;
                new.then_some(Scheme::Basic)
            }
            Sent::Cached(Scheme::Digest) | Sent::Fresh(Scheme::Digest) => {
                let session = ex.digest.clone();
                match &mut *state {
                    State::Digest { idle } => {
                        if idle.len() < MAX_IDLE_NONCES {
                            idle.extend(session);
                        }
                        None
                    }
                    other => {
                        *other = State::Digest {
                            idle: session.into_iter().collect(),
                        };
                        Some(Scheme::Digest)
                    }
                }
            }
            Sent::NtlmAuthenticate => {
                let new = !matches!(&*state, State::Ntlm);
                *state = State::Ntlm;
                new.then_some(Scheme::Ntlm)
            }
            _ => None,
        };
        drop(state);
        if let Some(s) = learned {
            tracing::info!(peer = %self.label, scheme = %s, "authenticated; later requests of this session answer preemptively");
        }
    }

    /// What a route offers first, and why (for `m2r explain`).
    pub fn offer(&self, https: bool) -> AuthOffer {
        let state = self.lock().clone();
        let user = self
            .credentials
            .as_ref()
            .map(|c| c.username.clone())
            .unwrap_or_default();
        match (self.party, state) {
            (_, State::Rejected(r)) => AuthOffer {
                first: None,
                why: format!("this session stopped using the credentials: {r}"),
            },
            (Party::Proxy, _) if self.credentials.is_none() => AuthOffer {
                first: None,
                why: "no proxy credentials are configured; a 407 from the proxy is an error".into(),
            },
            (Party::Proxy, State::Unknown | State::Open) => AuthOffer {
                first: None,
                why: format!(
                    "the first {} goes without credentials; the proxy's 407 names its schemes and m2r answers the strongest it supports (NTLM, then Digest, then Basic: the order of Maven's HTTP client) as user `{user}`, then answers preemptively on later connections of the session",
                    if https { "CONNECT" } else { "request" }
                ),
            },
            (Party::Proxy, State::Basic) => AuthOffer {
                first: Some(Scheme::Basic),
                why: "the proxy asked for Basic earlier in this session".into(),
            },
            (Party::Proxy, State::Digest { .. }) => AuthOffer {
                first: Some(Scheme::Digest),
                why: "the proxy asked for Digest earlier in this session; its nonce is reused with the next nonce count".into(),
            },
            (Party::Proxy, State::Ntlm) => AuthOffer {
                first: Some(Scheme::Ntlm),
                why: "the proxy asked for NTLM earlier in this session; each new connection starts the NTLM handshake at once".into(),
            },
            (Party::Server, _) if self.credentials.is_none() => AuthOffer {
                first: None,
                why: "no <server> credentials for this repository id; a 401 is an error".into(),
            },
            (Party::Server, State::Digest { .. }) => AuthOffer {
                first: Some(Scheme::Digest),
                why: "the server asked for Digest earlier in this session; its nonce is reused".into(),
            },
            (Party::Server, _) => AuthOffer {
                first: Some(Scheme::Basic),
                why: format!(
                    "sent preemptively as user `{user}` to the repository's own origin only (never to other hosts, nor after a redirect elsewhere){}; a 401 asking for Digest is answered and Digest used from then on",
                    if https { "" } else { ", in clear over http" }
                ),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::challenge::parse_challenges;

    fn auth(user: &str, pw: &str) -> Authentication {
        Authentication {
            username: Some(user.into()),
            password: Some(Secret::new(pw)),
            ..Default::default()
        }
    }

    fn proxy(user: Option<&str>) -> Authenticator {
        let a = user.map(|u| auth(u, "pw"));
        let mut env = HashMap::new();
        env.insert("USERDOMAIN".to_string(), "ENVDOM".to_string());
        Authenticator::new(Party::Proxy, "proxy p:1", a.as_ref(), &env)
    }

    fn ch(v: &str) -> Vec<Challenge> {
        parse_challenges([v])
    }

    /// Answers `challenge` to a CONNECT of `h:443`.
    fn connect_answer(
        a: &Authenticator,
        ex: &mut Exchange,
        challenge: &str,
    ) -> Result<Answer, Rejection> {
        a.on_challenge(ex, Level::Connection, &ch(challenge), "CONNECT", "h:443")
    }

    #[test]
    fn proxy_basic_reactive_then_preemptive_then_rejected_for_the_session() {
        let a = proxy(Some("jane"));
        let (h, mut ex) = a.start(Level::Connection, "CONNECT", "h:443").unwrap();
        assert_eq!(h, None, "reactive on first contact");
        let ans = connect_answer(&a, &mut ex, "Basic realm=\"p\"").unwrap();
        assert_eq!(ans, Answer::Header(basic_header("jane", "pw")));
        a.on_success(&ex);
        assert_eq!(a.known_scheme(), Some(Scheme::Basic));
        // later: preemptive; a 407 to it is a rejection, remembered
        let (h, mut ex) = a.start(Level::Connection, "CONNECT", "h:443").unwrap();
        assert_eq!(h, Some(basic_header("jane", "pw")));
        let r = connect_answer(&a, &mut ex, "Basic realm=\"p\"").unwrap_err();
        assert_eq!(r.reason, RejectReason::Rejected);
        assert_eq!(r.scheme, Some(Scheme::Basic));
        let msg = r.to_string();
        assert!(
            msg.contains("Basic realm=\"p\"") && msg.contains("`jane`"),
            "{msg}"
        );
        assert!(!msg.contains("pw"), "{msg}");
        assert_eq!(
            a.start(Level::Connection, "CONNECT", "h:443").unwrap_err(),
            r
        );
        assert!(a.offer(true).why.contains("stopped"));
    }

    #[test]
    fn proxy_digest_caches_nonce_counts_and_survives_stale_once() {
        let a = proxy(Some("jane"));
        let (_, mut ex) = a.start(Level::Request, "GET", "http://h/x").unwrap();
        let c = ch("Digest realm=\"r\", nonce=\"n1\", qop=\"auth\", Basic realm=\"r\"");
        let Answer::Header(h) = a
            .on_challenge(&mut ex, Level::Request, &c, "GET", "http://h/x")
            .unwrap()
        else {
            panic!()
        };
        assert!(h.starts_with("Digest ") && h.contains("nc=00000001"), "{h}");
        assert_eq!(a.known_scheme(), None, "learned only once accepted");
        a.on_success(&ex);
        assert_eq!(a.known_scheme(), Some(Scheme::Digest));
        let (h2, mut ex2) = a.start(Level::Request, "GET", "http://h/y").unwrap();
        let h2 = h2.unwrap();
        assert!(
            h2.contains("nonce=\"n1\"") && h2.contains("nc=00000002"),
            "{h2}"
        );
        assert!(h2.contains("uri=\"http://h/y\""), "{h2}");
        // the nonce is checked out: a parallel exchange sends nothing and collects its own
        let (h3, _) = a.start(Level::Request, "GET", "http://h/z").unwrap();
        assert_eq!(h3, None);
        // the cached nonce went stale: answered with the new one without a rejection
        let stale = ch("Digest realm=\"r\", nonce=\"n2\", qop=\"auth\", stale=true");
        let Answer::Header(h4) = a
            .on_challenge(&mut ex2, Level::Request, &stale, "GET", "http://h/y")
            .unwrap()
        else {
            panic!()
        };
        assert!(
            h4.contains("nonce=\"n2\"") && h4.contains("nc=00000001"),
            "{h4}"
        );
        // a fresh answer rejected with stale=true once more is fine, twice is not
        assert!(a
            .on_challenge(&mut ex2, Level::Request, &stale, "GET", "http://h/y")
            .is_ok());
        let r = a
            .on_challenge(&mut ex2, Level::Request, &stale, "GET", "http://h/y")
            .unwrap_err();
        assert_eq!(r.reason, RejectReason::Rejected);
        assert!(r.tried.contains("Digest (MD5)"), "{}", r.tried);
    }

    #[test]
    fn digest_nonces_return_to_the_pool_in_count_order() {
        let a = proxy(Some("jane"));
        let (_, mut ex) = a.start(Level::Request, "GET", "/").unwrap();
        let c = ch("Digest realm=\"r\", nonce=\"n1\", qop=\"auth\"");
        a.on_challenge(&mut ex, Level::Request, &c, "GET", "/")
            .unwrap();
        a.on_success(&ex);
        for want in 2..6 {
            let (h, ex) = a.start(Level::Request, "GET", "/").unwrap();
            assert!(h.unwrap().contains(&format!("nc={want:08x}")));
            a.on_success(&ex);
        }
    }

    #[test]
    fn proxy_ntlm_handshake_on_a_connection() {
        let a = proxy(Some("jane"));
        let (_, mut ex) = a.start(Level::Connection, "CONNECT", "h:443").unwrap();
        let Answer::Header(t1) = connect_answer(&a, &mut ex, "NTLM, Basic realm=\"x\"").unwrap()
        else {
            panic!()
        };
        assert!(t1.starts_with("NTLM TlRMTVNTUAAB"), "{t1}");
        assert!(!ex.needs_same_connection());
        // a type-2 message for the negotiate
        let mut m = b"NTLMSSP\0".to_vec();
        m.extend_from_slice(&2u32.to_le_bytes());
        m.extend_from_slice(&[0; 8]);
        m.extend_from_slice(&1u32.to_le_bytes());
        m.extend_from_slice(&[7; 8]);
        let challenge = ch(&ntlm::header_value(&m));
        let Answer::Header(t3) = a
            .on_challenge(&mut ex, Level::Connection, &challenge, "CONNECT", "h:443")
            .unwrap()
        else {
            panic!()
        };
        assert!(t3.starts_with("NTLM TlRMTVNTUAAD"), "{t3}");
        assert!(ex.needs_same_connection());
        a.on_success(&ex);
        assert_eq!(a.known_scheme(), Some(Scheme::Ntlm));
        // next connection starts the handshake preemptively; requests on it send nothing
        let (h, _) = a.start(Level::Connection, "CONNECT", "h:443").unwrap();
        assert!(h.unwrap().starts_with("NTLM TlRMTVNTUAAB"));
        assert_eq!(a.start(Level::Request, "GET", "http://h/").unwrap().0, None);
        // a rejected type 3 names the domain taken from the environment
        let (_, mut ex) = a.start(Level::Connection, "CONNECT", "h:443").unwrap();
        a.on_challenge(&mut ex, Level::Connection, &challenge, "CONNECT", "h:443")
            .unwrap();
        let r = connect_answer(&a, &mut ex, "NTLM").unwrap_err();
        assert_eq!(r.tried, "NTLMv2 as `ENVDOM\\jane`");
    }

    #[test]
    fn ntlm_at_request_level_asks_for_new_connections() {
        let a = proxy(Some("CORP\\jane"));
        let g = a.generation();
        let (_, mut ex) = a.start(Level::Request, "GET", "http://h/").unwrap();
        assert_eq!(
            a.on_challenge(&mut ex, Level::Request, &ch("NTLM"), "GET", "http://h/"),
            Ok(Answer::NtlmOnNewConnection)
        );
        assert!(a.wants_ntlm_connections());
        assert_eq!(a.generation(), g + 1);
        // the retried request is challenged again: rejected, not another loop
        assert!(a
            .on_challenge(&mut ex, Level::Request, &ch("NTLM"), "GET", "http://h/")
            .is_err());
    }

    #[test]
    fn no_credentials_unsupported_and_protocol_errors() {
        let a = proxy(None);
        let (_, mut ex) = a.start(Level::Connection, "CONNECT", "h:443").unwrap();
        let r = connect_answer(&a, &mut ex, "Basic realm=\"p\"").unwrap_err();
        assert_eq!(r.reason, RejectReason::NoCredentials);
        assert!(r.to_string().contains("no credentials are configured"));
        let a = proxy(Some("u"));
        let (_, mut ex) = a.start(Level::Connection, "CONNECT", "h:443").unwrap();
        let r = connect_answer(&a, &mut ex, "Negotiate").unwrap_err();
        assert_eq!(r.reason, RejectReason::Unsupported);
        let a = proxy(Some("u"));
        let (_, mut ex) = a.start(Level::Connection, "CONNECT", "h:443").unwrap();
        connect_answer(&a, &mut ex, "NTLM").unwrap();
        let r = connect_answer(&a, &mut ex, "NTLM !!!").unwrap_err();
        assert!(matches!(r.reason, RejectReason::Protocol(_)), "{r:?}");
        // rounds are bounded whatever the peer says
        let a = proxy(Some("u"));
        let (_, mut ex) = a.start(Level::Connection, "CONNECT", "h:443").unwrap();
        let mut n = 0;
        let stale = ch("Digest realm=r, nonce=n, stale=true, Basic realm=r");
        while a
            .on_challenge(&mut ex, Level::Connection, &stale, "CONNECT", "h:443")
            .is_ok()
        {
            n += 1;
            assert!(n <= MAX_ROUNDS);
        }
    }

    #[test]
    fn servers_get_basic_preemptively_and_switch_to_digest() {
        let a = Authenticator::new(
            Party::Server,
            "server s",
            Some(&auth("deploy", "s3cret")),
            &HashMap::new(),
        );
        let (h, mut ex) = a.start(Level::Request, "GET", "/r/a.jar").unwrap();
        assert_eq!(h, Some(basic_header("deploy", "s3cret")));
        assert!(a.offer(true).sentence().starts_with("Basic first"));
        // NTLM is not answered for servers; Digest is
        let c = ch("NTLM, Digest realm=\"repo\", nonce=\"n\", algorithm=SHA-256, qop=auth");
        let Answer::Header(d) = a
            .on_challenge(&mut ex, Level::Request, &c, "GET", "/r/a.jar")
            .unwrap()
        else {
            panic!()
        };
        assert!(d.contains("algorithm=SHA-256"), "{d}");
        a.on_success(&ex);
        let (h, _) = a.start(Level::Request, "GET", "/r/b.jar").unwrap();
        assert!(
            h.unwrap().starts_with("Digest "),
            "no Basic once Digest is known"
        );
        // a rejection is not remembered for servers (permissions may differ per path)
        let (_, mut ex) = a.start(Level::Request, "GET", "/r/c.jar").unwrap();
        a.on_challenge(&mut ex, Level::Request, &c, "GET", "/r/c.jar")
            .unwrap();
        assert!(a
            .on_challenge(&mut ex, Level::Request, &c, "GET", "/r/c.jar")
            .is_err());
        assert!(a.start(Level::Request, "GET", "/r/d.jar").is_ok());
        // Basic rejected: no second Basic
        let b = Authenticator::new(
            Party::Server,
            "server s",
            Some(&auth("deploy", "x")),
            &HashMap::new(),
        );
        let (_, mut ex) = b.start(Level::Request, "GET", "/").unwrap();
        assert!(b
            .on_challenge(&mut ex, Level::Request, &ch("Basic realm=x"), "GET", "/")
            .is_err());
    }

    #[test]
    fn debug_shows_no_password() {
        let a = Authenticator::new(
            Party::Server,
            "server s",
            Some(&auth("u", "hunter2")),
            &HashMap::new(),
        );
        let dbg = format!("{a:?}");
        assert!(!dbg.contains("hunter2"), "{dbg}");
    }

    #[tokio::test]
    async fn the_gate_lets_one_exchange_learn() {
        let a = Arc::new(proxy(Some("u")));
        let g1 = a.gate().await;
        assert!(g1.is_some());
        let a2 = a.clone();
        let waiter = tokio::spawn(async move { a2.gate().await.is_some() });
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        assert!(!waiter.is_finished());
        // the first exchange learns Basic; the waiter then needs no gate
        let (_, mut ex) = a.start(Level::Connection, "CONNECT", "h:1").unwrap();
        a.on_challenge(&mut ex, Level::Connection, &ch("Basic"), "CONNECT", "h:1")
            .unwrap();
        a.on_success(&ex);
        drop(g1);
        assert!(!waiter.await.unwrap());
        // servers never wait
        let s = Authenticator::new(Party::Server, "server s", None, &HashMap::new());
        assert!(s.gate().await.is_none());
    }
}
