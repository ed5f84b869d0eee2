//! Limits on what a server can make a transfer cost: bytes kept in memory, bytes announced
//! versus received, and time spent on a body that barely moves.
//!
//! - [`LimitedBuffer`]: an in-memory [`BodySink`] with a ceiling, for checksums and metadata. A
//!   `Content-Length` above the ceiling is refused before the first body byte; a body without
//!   one is cut off one chunk past it. The error is a [`BodyTooLarge`] inside the sink's
//!   `io::Error`, which the client turns into [`crate::transport::TransportError::TooLarge`].
//! - [`LowSpeedLimit`] and [`BodyGuard`]: like curl's `--speed-limit`/`--speed-time`, a transfer
//!   is aborted when fewer than `bytes` arrive within `window`. This ends trickling bodies (one
//!   byte every half second never trips a read-inactivity timeout) and stalled ones alike.
//!   Defaults ([`DEFAULT_LOW_SPEED`]): fewer than 1,024 bytes in 60 s. Maven has no such limit;
//!   its `requestTimeout` is an inactivity timeout, which a trickle never reaches. A low-speed
//!   abort is not retried: a server that trickled once is not given three more windows.
//! - The guard also checks that a body with a `Content-Length` delivered exactly that many bytes.
//!
//! The client loop that uses these is in [`crate::transport::client`].

use crate::transport::client::BodySink;
use bytes::Bytes;
use futures_util::{Stream, StreamExt};
use http::header::HeaderMap;
use std::future::Future;
use std::pin::Pin;
use std::task::Poll;
use std::time::Duration;
use thiserror::Error;
use tokio::time::Instant;

/// Abort a body when fewer than `bytes` arrive within `window`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LowSpeedLimit {
    /// Bytes that must arrive per window (0 disables the limit).
    pub bytes: u64,
    /// The window.
    pub window: Duration,
}

/// 1,024 bytes per 60 s: far below any working connection, far above a trickle.
pub const DEFAULT_LOW_SPEED: LowSpeedLimit = LowSpeedLimit {
    bytes: 1024,
    window: Duration::from_secs(60),
};

impl Default for LowSpeedLimit {
    fn default() -> Self {
        DEFAULT_LOW_SPEED
    }
}

/// A body exceeded the ceiling of its sink.
#[derive(Debug, Clone, Copy, Error, PartialEq, Eq)]
#[error("the body is larger than {limit} bytes{}", announced.map(|n| format!(" (Content-Length: {n})")).unwrap_or_default())]
pub struct BodyTooLarge {
    /// The ceiling.
    pub limit: u64,
    /// The `Content-Length` the server announced, when that was the reason.
    pub announced: Option<u64>,
}

impl BodyTooLarge {
    /// As the `io::Error` a [`BodySink`] returns.
    pub fn into_io(self) -> std::io::Error {
        std::io::Error::other(self)
    }

    /// The [`BodyTooLarge`] inside a sink error, if that is what it is.
    pub fn find(e: &std::io::Error) -> Option<BodyTooLarge> {
        e.get_ref()
            .and_then(|inner| inner.downcast_ref::<BodyTooLarge>())
            .copied()
    }
}

/// An in-memory body of at most `limit` bytes.
#[derive(Debug, Clone, Default)]
pub struct LimitedBuffer {
    bytes: Vec<u8>,
    limit: u64,
}

impl LimitedBuffer {
    /// An empty buffer that refuses more than `limit` bytes.
    pub fn new(limit: u64) -> Self {
        LimitedBuffer {
            bytes: Vec::new(),
            limit,
        }
    }

    /// The body received.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

impl BodySink for LimitedBuffer {
    fn start(&mut self, _headers: &HeaderMap, len: Option<u64>) -> std::io::Result<()> {
        if let Some(n) = len {
            if n > self.limit {
                return Err(BodyTooLarge {
                    limit: self.limit,
                    announced: Some(n),
                }
                .into_io());
            }
            self.bytes.reserve(n as usize);
        }
        Ok(())
    }

    fn write(&mut self, chunk: &[u8]) -> std::io::Result<()> {
        if (self.bytes.len() + chunk.len()) as u64 > self.limit {
            return Err(BodyTooLarge {
                limit: self.limit,
                announced: None,
            }
            .into_io());
        }
        self.bytes.extend_from_slice(chunk);
        Ok(())
    }

    fn reset(&mut self) -> std::io::Result<()> {
        self.bytes.clear();
        Ok(())
    }
}

/// What the body guard (`BodyGuard`) stopped a body for.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum BodyStop {
    /// Fewer than the limit's bytes arrived within its window.
    #[error("fewer than {} bytes arrived within {:?} (low-speed limit; {received} bytes received in all)", limit.bytes, limit.window)]
    TooSlow {
        /// The limit that tripped.
        limit: LowSpeedLimit,
        /// Bytes received before the abort.
        received: u64,
    },
    /// The body ended before or went past its `Content-Length`.
    #[error("the body had {received} bytes but Content-Length announced {announced}")]
    LengthMismatch {
        /// `Content-Length`.
        announced: u64,
        /// Bytes received.
        received: u64,
    },
}

/// Watches one body: the low-speed limit while chunks arrive, the `Content-Length` at the end.
///
/// One timer per body at most, made the first time the stream has nothing ready and moved only
/// when a window ends: a fast body costs no timer per chunk.
#[derive(Debug)]
pub struct BodyGuard {
    limit: LowSpeedLimit,
    announced: Option<u64>,
    received: u64,
    window_start: Instant,
    window_bytes: u64,
    timer: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl BodyGuard {
    /// A guard for a body that announced `content_length`.
    pub fn new(limit: LowSpeedLimit, content_length: Option<u64>) -> Self {
        BodyGuard {
            limit,
            announced: content_length,
            received: 0,
            window_start: Instant::now(),
            window_bytes: 0,
            timer: None,
        }
    }

    /// Bytes received so far.
    pub fn received(&self) -> u64 {
        self.received
    }

    /// The next chunk of `stream`: `Ok(None)` at its end (after the length check), `Err(Left)`
    /// when the guard stops the body, `Err(Right)` for the stream's own error.
    pub async fn next<S, E>(&mut self, stream: &mut S) -> Result<Option<Bytes>, GuardError<E>>
    where
        S: Stream<Item = Result<Bytes, E>> + Unpin,
    {
        loop {
            let item = if self.limit.bytes == 0 || self.limit.window.is_zero() {
                stream.next().await
            } else {
                let deadline = self.window_start + self.limit.window;
                let timer = &mut self.timer;
                let waited = std::future::poll_fn(|cx| {
                    if let Poll::Ready(item) = stream.poll_next_unpin(cx) {
                        return Poll::Ready(Some(item));
                    }
                    let sleep =
                        timer.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
                    if sleep.deadline() != deadline {
                        sleep.as_mut().reset(deadline);
                    }
                    match sleep.as_mut().poll(cx) {
                        Poll::Ready(()) => Poll::Ready(None),
                        Poll::Pending => Poll::Pending,
                    }
                })
                .await;
                match waited {
                    Some(item) => item,
                    None => {
                        // The window ran out while waiting.
                        if self.window_bytes < self.limit.bytes {
                            return Err(GuardError::Stop(self.too_slow()));
                        }
                        self.window_start = Instant::now();
                        self.window_bytes = 0;
                        continue;
                    }
                }
            };
            return match item {
                None => match self.announced {
                    Some(n) if n != self.received => {
                        Err(GuardError::Stop(BodyStop::LengthMismatch {
                            announced: n,
                            received: self.received,
                        }))
                    }
                    _ => Ok(None),
                },
                Some(Err(e)) => Err(GuardError::Stream(e)),
                Some(Ok(chunk)) => {
                    self.received += chunk.len() as u64;
                    self.window_bytes += chunk.len() as u64;
                    if self.limit.bytes > 0 && !self.limit.window.is_zero() {
                        let now = Instant::now();
                        if now >= self.window_start + self.limit.window {
                            if self.window_bytes < self.limit.bytes {
                                return Err(GuardError::Stop(self.too_slow()));
                            }
                            self.window_start = now;
                            self.window_bytes = 0;
                        }
                    }
                    if let Some(n) = self.announced {
                        if self.received > n {
                            return Err(GuardError::Stop(BodyStop::LengthMismatch {
                                announced: n,
                                received: self.received,
                            }));
                        }
                    }
                    Ok(Some(chunk))
                }
            };
        }
    }

    fn too_slow(&self) -> BodyStop {
        BodyStop::TooSlow {
            limit: self.limit,
            received: self.received,
        }
    }
}

/// Why [`BodyGuard::next`] gave no chunk.
#[derive(Debug)]
pub enum GuardError<E> {
    /// The guard stopped the body.
    Stop(BodyStop),
    /// The stream failed.
    Stream(E),
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::stream;

    fn chunks(parts: &[&'static [u8]]) -> impl Stream<Item = Result<Bytes, ()>> + Unpin {
        stream::iter(
            parts
                .iter()
                .map(|p| Ok(Bytes::from_static(p)))
                .collect::<Vec<_>>(),
        )
    }

    #[tokio::test]
    async fn content_length_must_match() {
        let limit = DEFAULT_LOW_SPEED;
        let mut g = BodyGuard::new(limit, Some(3));
        let mut s = chunks(&[b"ab", b"c"]);
        assert!(g.next(&mut s).await.unwrap().is_some());
        assert!(g.next(&mut s).await.unwrap().is_some());
        assert!(g.next(&mut s).await.unwrap().is_none());
        let mut g = BodyGuard::new(limit, Some(5));
        let mut s = chunks(&[b"ab"]);
        g.next(&mut s).await.unwrap();
        assert!(matches!(
            g.next(&mut s).await,
            Err(GuardError::Stop(BodyStop::LengthMismatch {
                announced: 5,
                received: 2
            }))
        ));
        let mut g = BodyGuard::new(limit, Some(1));
        let mut s = chunks(&[b"ab"]);
        assert!(matches!(
            g.next(&mut s).await,
            Err(GuardError::Stop(BodyStop::LengthMismatch { .. }))
        ));
    }

    #[tokio::test(start_paused = true)]
    async fn trickles_and_stalls_are_stopped_after_one_window() {
        let limit = LowSpeedLimit {
            bytes: 10,
            window: Duration::from_secs(2),
        };
        // one byte every 500 ms
        let trickle = stream::unfold(0u32, |n| async move {
            tokio::time::sleep(Duration::from_millis(500)).await;
            Some((Ok::<_, ()>(Bytes::from_static(b"x")), n + 1))
        });
        let mut trickle = Box::pin(trickle);
        let mut g = BodyGuard::new(limit, None);
        let started = Instant::now();
        let stop = loop {
            match g.next(&mut trickle).await {
                Ok(Some(_)) => continue,
                Ok(None) => panic!("a trickle does not end"),
                Err(GuardError::Stop(s)) => break s,
                Err(GuardError::Stream(())) => panic!("no stream error"),
            }
        };
        assert!(matches!(stop, BodyStop::TooSlow { .. }), "{stop}");
        assert!(started.elapsed() <= Duration::from_secs(3));
        // a stall
        let mut stall = Box::pin(stream::pending::<Result<Bytes, ()>>());
        let mut g = BodyGuard::new(limit, None);
        assert!(matches!(
            g.next(&mut stall).await,
            Err(GuardError::Stop(BodyStop::TooSlow { received: 0, .. }))
        ));
        // fast enough: passes several windows
        let fast = stream::unfold(0u32, |n| async move {
            if n == 20 {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
            Some((Ok::<_, ()>(Bytes::from(vec![0u8; 100])), n + 1))
        });
        let mut fast = Box::pin(fast);
        let mut g = BodyGuard::new(limit, Some(2000));
        while g.next(&mut fast).await.unwrap().is_some() {}
        assert_eq!(g.received(), 2000);
    }

    #[test]
    fn too_large_round_trips_through_io_error() {
        let e = BodyTooLarge {
            limit: 4,
            announced: Some(9),
        }
        .into_io();
        assert_eq!(
            BodyTooLarge::find(&e),
            Some(BodyTooLarge {
                limit: 4,
                announced: Some(9)
            })
        );
        assert_eq!(BodyTooLarge::find(&std::io::Error::other("x")), None);
        assert!(e.to_string().contains("Content-Length: 9"));
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_limited_buffer() {
        use crate::transport::limits::LimitedBuffer;
        use crate::transport::BodySink;
        let mut b = LimitedBuffer::new(4);
        b.start(&Default::default(), None).unwrap();
        b.write(b"abc").unwrap();
        assert!(b.write(b"de").is_err());
        assert!(LimitedBuffer::new(4)
            .start(&Default::default(), Some(5))
            .is_err());
    }
}
