//! The first connection to an origin is made alone.
//!
//! When a build starts, every request in flight (128 by default) finds the connection pool empty
//! and would open its own connection: a TCP connection, through a proxy a tunnel with its
//! authentication handshake (NTLM: two more round trips), and a TLS handshake. When the server
//! speaks HTTP/2, hyper keeps one of them and drops the others once ALPN has answered. So the
//! first request to an origin (per client) goes alone, and the others wait: for an HTTP/1.1
//! connection until it is up (the connector says so; they then open theirs as before), for
//! HTTP/2 until it is up and hyper's pool holds it for them to share (a moment after the
//! connector hands it over: the pool takes it without another round trip) — unless they would
//! not be ready to send their credentials at once (a server whose scheme only its first answer
//! tells, such as Digest): those wait for the first response, as every waiter did before,
//! which cost one round trip at the start of every build. If the first request fails, the next
//! waiter goes first.
//!
//! The same record keeps what uploads need to know about the origin's connections: whether
//! they speak HTTP/2, and whether the server answers `Expect: 100-continue`
//! ([`crate::transport::body`]), and bounds the connections to an HTTP/1.1 origin: there every
//! request in flight is a connection of its own, so at most [`H1_CONNECTIONS_PER_ORIGIN`] go
//! at once (on HTTP/2 they share one connection, up to the session's requests in flight).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{watch, Semaphore, SemaphorePermit};

/// The most requests (each its own connection) in flight to one HTTP/1.1 origin through one
/// client: what the session's default allowed before it rose to 128 for HTTP/2, so servers
/// and proxies that speak only HTTP/1.1 see no more connections than they did.
pub(crate) const H1_CONNECTIONS_PER_ORIGIN: usize = 64;

/// How long a request released onto a new HTTP/2 connection waits for hyper's pool to hold it.
const POOLING: std::time::Duration = std::time::Duration::from_millis(1);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// No connection yet, nobody making one.
    Cold,
    /// One request is making the first connection.
    Warming,
    /// The first connection is up and speaks HTTP/2: requests that can send at once share it.
    Shared,
    /// A connection exists (or existed): everyone goes.
    Warm,
}

/// The warm-up state of one origin through one client, and what its connections taught: the
/// protocol ALPN chose and whether the server answers `Expect: 100-continue`.
#[derive(Debug)]
pub(crate) struct Warmup {
    state: watch::Sender<State>,
    /// 0: no connection yet, 1: HTTP/1.1, 2: HTTP/2.
    protocol: AtomicU8,
    /// A `100 Continue` did not come in time, or the server refused the expectation (417):
    /// uploads no longer wait for it.
    continue_unanswered: AtomicBool,
    /// The server answered `417 Expectation Failed`: uploads go without `Expect`.
    expectation_refused: AtomicBool,
    /// Requests in flight on HTTP/1.1 connections (one connection each).
    h1_slots: Semaphore,
    /// A request has been let through before the protocol is known ([`Warmup::take_early`]).
    early: AtomicBool,
}

impl Default for Warmup {
    fn default() -> Self {
        Warmup {
            state: watch::Sender::new(State::Cold),
            protocol: AtomicU8::new(0),
            continue_unanswered: AtomicBool::new(false),
            expectation_refused: AtomicBool::new(false),
            h1_slots: Semaphore::new(H1_CONNECTIONS_PER_ORIGIN),
            early: AtomicBool::new(false),
        }
    }
}

/// Held by the request that makes the first connection; dropping it without
/// [`Warmup::warmed`] lets the next waiter go first.
pub(crate) struct First<'a>(&'a Warmup);

impl Drop for First<'_> {
    fn drop(&mut self) {
        self.0.state.send_if_modified(|s| {
            let was = matches!(*s, State::Warming | State::Shared);
            if was {
                *s = State::Cold;
            }
            was
        });
    }
}

impl Warmup {
    /// `Some` for the request that goes first, `None` once the origin is warm (after waiting
    /// while another request makes the first connection). `ready`: the request sends what the
    /// server needs without being asked (no credentials, or Basic preemptively), so it may go
    /// on the first HTTP/2 connection before its first response.
    pub async fn first(&self, ready: bool) -> Option<First<'_>> {
        let mut rx = self.state.subscribe();
        loop {
            let current = *rx.borrow_and_update();
            match current {
                State::Warm => return None,
                State::Shared if ready => {
                    // hyper pools the connection right after the connector returned it; a
                    // request that missed it would open a connection of its own.
                    tokio::time::sleep(POOLING).await;
                    return None;
                }
                State::Cold => {
                    let took = self.state.send_if_modified(|s| {
                        let cold = *s == State::Cold;
                        if cold {
                            *s = State::Warming;
                        }
                        cold
                    });
                    if took {
                        return Some(First(self));
                    }
                }
                State::Warming | State::Shared => {
                    if rx.changed().await.is_err() {
                        return None;
                    }
                }
            }
        }
    }

    /// The connector made a connection that speaks HTTP/2 (`h2`) or HTTP/1.1. HTTP/1.1: every
    /// waiter may go (and open its own); HTTP/2: those ready to send at once may share it.
    pub fn connected(&self, h2: bool) {
        self.protocol
            .store(if h2 { 2 } else { 1 }, Ordering::Relaxed);
        if h2 {
            self.state.send_if_modified(|s| {
                let was = *s == State::Warming;
                if was {
                    *s = State::Shared;
                }
                was
            });
        } else {
            self.warmed();
        }
    }

    /// A slot among the [`H1_CONNECTIONS_PER_ORIGIN`] requests in flight when this origin's
    /// connections speak HTTP/1.1, awaited; `None` (no bound) on HTTP/2 or before the first
    /// connection said which. Held until the response's body has been read.
    pub async fn h1_slot(&self) -> Option<SemaphorePermit<'_>> {
        if self.protocol.load(Ordering::Relaxed) != 1 {
            return None;
        }
        self.h1_slots.acquire().await.ok()
    }

    /// Waits while the first connection to this origin is being made (returns at once when
    /// there is none in the making).
    pub async fn settled(&self) {
        let mut rx = self.state.subscribe();
        let _ = rx.wait_for(|s| *s != State::Warming).await;
    }

    /// Whether the connections to this origin speak HTTP/2 (hyper does not report a
    /// `100 Continue` there, so an upload does not wait for one).
    pub fn is_h2(&self) -> bool {
        self.protocol.load(Ordering::Relaxed) == 2
    }

    /// Whether a connection has told which protocol this origin speaks.
    pub fn is_known(&self) -> bool {
        self.protocol.load(Ordering::Relaxed) != 0
    }

    /// `true` once, for the one request that may make a connection of a second lane before the
    /// first lane's connection has told whether the origin speaks HTTP/2.
    pub fn take_early(&self) -> bool {
        !self.early.swap(true, Ordering::Relaxed)
    }

    /// Remembers that the server does not answer `Expect: 100-continue` (in time, or at all).
    pub fn continue_unanswered(&self) {
        self.continue_unanswered.store(true, Ordering::Relaxed);
    }

    /// Remembers a `417 Expectation Failed`: no more `Expect` headers to this origin.
    pub fn expectation_refused(&self) {
        self.expectation_refused.store(true, Ordering::Relaxed);
        self.continue_unanswered();
    }

    /// Whether an upload may send `Expect: 100-continue`.
    pub fn sends_expect(&self) -> bool {
        !self.expectation_refused.load(Ordering::Relaxed)
    }

    /// Whether an upload should wait for `100 Continue` before sending its body.
    pub fn waits_for_continue(&self) -> bool {
        !self.is_h2() && !self.continue_unanswered.load(Ordering::Relaxed)
    }

    /// A connection is up (or a response arrived): everyone may go.
    pub fn warmed(&self) {
        self.state.send_if_modified(|s| {
            let changed = *s != State::Warm;
            *s = State::Warm;
            changed
        });
    }
}

/// The warm-up states of a session, by client and origin.
#[derive(Debug, Default)]
pub(crate) struct Warmups {
    map: Mutex<HashMap<String, Arc<Warmup>>>,
}

impl Warmups {
    /// The state of `origin` (see [`origin_key`]) through the client `client_key`.
    pub fn get(&self, client_key: &str, origin: &str) -> Arc<Warmup> {
        self.map
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(format!("{client_key}|{origin}"))
            .or_default()
            .clone()
    }
}

/// `https://host:port` with the port always written (the request side and the connector side
/// must agree).
pub(crate) fn origin_key(https: bool, host: &str, port: u16) -> String {
    let scheme = if https { "https" } else { "http" };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if host.contains(':') {
        format!("{scheme}://[{host}]:{port}")
    } else {
        format!("{scheme}://{host}:{port}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn one_request_goes_early_and_the_protocol_is_known_once_connected() {
        let w = Warmup::default();
        assert!(!w.is_known());
        assert!(w.take_early());
        assert!(!w.take_early());
        w.connected(true);
        assert!(w.is_known() && w.is_h2());
    }

    #[tokio::test]
    async fn one_goes_first_the_others_wait_until_warm() {
        let w = Arc::new(Warmup::default());
        let first = w.first(true).await;
        assert!(first.is_some());
        let w2 = w.clone();
        let waiter = tokio::spawn(async move { w2.first(true).await.is_none() });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!waiter.is_finished());
        w.warmed();
        assert!(waiter.await.unwrap(), "warm: no one else goes first");
        drop(first);
        assert!(w.first(true).await.is_none());
    }

    #[tokio::test]
    async fn on_http2_the_ready_share_the_connection_before_the_first_response() {
        let w = Arc::new(Warmup::default());
        let first = w.first(true).await.expect("goes first");
        let (ready, unready) = (w.clone(), w.clone());
        let ready = tokio::spawn(async move { ready.first(true).await.is_none() });
        let unready = tokio::spawn(async move { unready.first(false).await.is_none() });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!ready.is_finished(), "no connection yet");
        w.connected(true);
        let went = tokio::time::timeout(Duration::from_secs(5), ready).await;
        assert!(matches!(went, Ok(Ok(true))), "shares the HTTP/2 connection");
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(
            !unready.is_finished(),
            "one that must be asked for credentials waits for the first response"
        );
        w.warmed();
        assert!(unready.await.unwrap());
        drop(first);
    }

    #[tokio::test]
    async fn http1_origins_take_a_bounded_number_of_requests_at_once() {
        let w = Warmup::default();
        assert!(w.h1_slot().await.is_none(), "unknown protocol: no bound");
        w.connected(true);
        assert!(
            w.h1_slot().await.is_none(),
            "HTTP/2: one connection, no bound"
        );
        let w = Warmup::default();
        w.connected(false);
        let mut held = Vec::new();
        for _ in 0..H1_CONNECTIONS_PER_ORIGIN {
            held.push(w.h1_slot().await.expect("a slot"));
        }
        let more = tokio::time::timeout(Duration::from_millis(20), w.h1_slot()).await;
        assert!(more.is_err(), "one more waits while all are in flight");
        held.pop();
        let one = tokio::time::timeout(Duration::from_millis(20), w.h1_slot()).await;
        assert!(
            matches!(one, Ok(Some(_))),
            "a finished request frees its slot"
        );
    }

    #[tokio::test]
    async fn a_failed_first_lets_the_next_one_go_first() {
        let w = Arc::new(Warmup::default());
        let first = w.first(true).await;
        let w2 = w.clone();
        let waiter = tokio::spawn(async move { w2.first(true).await.is_some() });
        tokio::time::sleep(Duration::from_millis(20)).await;
        drop(first); // failed without a connection
        assert!(waiter.await.unwrap());
    }

    #[test]
    fn keys_agree_on_ports_and_brackets() {
        assert_eq!(origin_key(true, "h", 443), "https://h:443");
        assert_eq!(origin_key(false, "[::1]", 80), "http://[::1]:80");
        assert_eq!(origin_key(false, "::1", 80), "http://[::1]:80");
        let ws = Warmups::default();
        assert!(Arc::ptr_eq(&ws.get("c", "o"), &ws.get("c", "o")));
        assert!(!Arc::ptr_eq(&ws.get("c", "o"), &ws.get("d", "o")));
    }
}
