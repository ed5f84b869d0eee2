//! Request bodies: nothing (GET), or what an upload sends ([`Upload`]: a file streamed from disk,
//! or bytes in memory), with the `Expect: 100-continue` wait in front of it.
//!
//! `Expect: 100-continue` (what Maven's Wagon sends on every `PUT`, wagon-http 3.5.3
//! `AbstractHttpClientWagon.execute`): the request head goes out at once and the body waits until
//! the server answers `100 Continue` (hyper reports it through `hyper::ext::on_informational`), or
//! [`PutOptions::continue_timeout`] passes (RFC 9110 §10.1.1: a client need not wait forever), or
//! the server answers for good (a `401` asking for Digest, a `413`): then hyper hands over that
//! answer and the body is never sent. Over HTTP/2 hyper does not report `100 Continue`, so the
//! body goes at once; a server that let the wait run out once is not waited for again
//! ([`crate::transport::warmup`]).
//!
//! A file is opened again for every attempt (a retry, a challenge answered, a redirect) and must
//! keep the length it had when the upload started: the `Content-Length` is sent first.

use crate::transport::retry::RetryPolicy;
use crate::transport::warmup::Warmup;
use bytes::Bytes;
use futures_util::task::AtomicWaker;
use hyper::body::{Body, Frame, SizeHint};
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, ReadBuf};

/// How long an upload waits for `100 Continue` before it sends its body anyway (curl's default;
/// Apache HttpClient, under Maven's Wagon, waits 3 s).
pub const DEFAULT_CONTINUE_TIMEOUT: Duration = Duration::from_secs(1);

/// Size of the chunks a file is read in.
const CHUNK: usize = 64 * 1024;

/// What a `PUT` sends.
#[derive(Debug, Clone)]
pub enum Upload {
    /// A file, streamed from disk (opened again for each attempt).
    File(PathBuf),
    /// Bytes in memory (checksums, metadata).
    Bytes(Bytes),
}

impl Upload {
    /// The length to announce, checked before the request is made.
    pub(crate) fn length(&self) -> std::io::Result<u64> {
        match self {
            Upload::File(p) => {
                let m = std::fs::metadata(p)?;
                if !m.is_file() {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidInput,
                        format!("{} is not a regular file", p.display()),
                    ));
                }
                Ok(m.len())
            }
            Upload::Bytes(b) => Ok(b.len() as u64),
        }
    }
}

/// Bytes of an upload leaving, for progress displays; `restarted` before a retry sends them
/// again.
pub trait UploadProgress: Send + Sync {
    /// `bytes` more were handed to the connection.
    fn sent(&self, bytes: u64);
    /// The upload starts over (retry, challenge, redirect): forget what was sent.
    fn restarted(&self) {}
}

/// How [`crate::transport::Transport::put`] sends one upload.
#[derive(Clone)]
pub struct PutOptions {
    /// Send `Expect: 100-continue` and wait for the server's go before the body (Maven does).
    pub expect_continue: bool,
    /// The longest wait for `100 Continue`.
    pub continue_timeout: Duration,
    /// Retries of connection errors and of the statuses [`PutOptions::retry_statuses`] names.
    pub retry: RetryPolicy,
    /// Statuses worth another attempt (`429` honours `Retry-After`).
    pub retry_statuses: Vec<u16>,
    /// Where the bytes sent are reported.
    pub progress: Option<Arc<dyn UploadProgress>>,
}

impl std::fmt::Debug for PutOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PutOptions")
            .field("expect_continue", &self.expect_continue)
            .field("continue_timeout", &self.continue_timeout)
            .field("retry", &self.retry)
            .field("retry_statuses", &self.retry_statuses)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// The statuses an upload retries by default: too many requests and the gateway errors a
/// repository manager behind a load balancer answers while it restarts. A `500` is the server's
/// own failure and is not retried (an upload it half-stored is for a person to look at).
pub const DEFAULT_RETRY_STATUSES: [u16; 4] = [429, 502, 503, 504];

impl Default for PutOptions {
    fn default() -> Self {
        PutOptions {
            expect_continue: true,
            continue_timeout: DEFAULT_CONTINUE_TIMEOUT,
            retry: RetryPolicy::default(),
            retry_statuses: DEFAULT_RETRY_STATUSES.to_vec(),
            progress: None,
        }
    }
}

/// Set by the `100 Continue` callback, awaited by the body.
#[derive(Default)]
pub(crate) struct ContinueSignal {
    fired: AtomicBool,
    waker: AtomicWaker,
}

impl ContinueSignal {
    pub(crate) fn fire(&self) {
        self.fired.store(true, Ordering::Release);
        self.waker.wake();
    }
}

/// The wait in front of a body.
struct Gate {
    signal: Arc<ContinueSignal>,
    timer: Pin<Box<tokio::time::Sleep>>,
    warmup: Arc<Warmup>,
}

enum Source {
    Empty,
    Bytes(Option<Bytes>),
    File {
        file: tokio::fs::File,
        path: PathBuf,
        buf: Vec<u8>,
    },
}

/// The body type of every request the transport makes.
pub(crate) struct RequestBody {
    source: Source,
    remaining: u64,
    gate: Option<Gate>,
    progress: Option<Arc<dyn UploadProgress>>,
}

impl RequestBody {
    /// No body (GET).
    pub(crate) fn empty() -> Self {
        RequestBody {
            source: Source::Empty,
            remaining: 0,
            gate: None,
            progress: None,
        }
    }

    /// The body of one attempt of `upload`, `length` bytes (the file is opened here).
    pub(crate) async fn open(
        upload: &Upload,
        length: u64,
        progress: Option<Arc<dyn UploadProgress>>,
    ) -> std::io::Result<Self> {
        let source = match upload {
            Upload::Bytes(b) => Source::Bytes(Some(b.clone())),
            Upload::File(p) => Source::File {
                file: tokio::fs::File::open(p).await?,
                path: p.clone(),
                buf: vec![0; CHUNK.min(length.max(1) as usize)],
            },
        };
        Ok(RequestBody {
            source,
            remaining: length,
            gate: None,
            progress,
        })
    }

    /// Waits for `signal` (at most `timeout`) before the first byte; not over HTTP/2 or to a
    /// server known not to answer.
    pub(crate) fn wait_for_continue(
        &mut self,
        signal: Arc<ContinueSignal>,
        timeout: Duration,
        warmup: Arc<Warmup>,
    ) {
        if self.remaining > 0 {
            self.gate = Some(Gate {
                signal,
                timer: Box::pin(tokio::time::sleep(timeout)),
                warmup,
            });
        }
    }
}

fn changed(path: &std::path::Path, remaining: u64) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::UnexpectedEof,
        format!(
            "{} became {remaining} bytes shorter while it was being uploaded",
            path.display()
        ),
    )
}

impl Body for RequestBody {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
        let this = self.get_mut();
        if let Some(gate) = &mut this.gate {
            // The connection is up by now: its protocol is known.
            if gate.warmup.waits_for_continue() {
                gate.signal.waker.register(cx.waker());
                if !gate.signal.fired.load(Ordering::Acquire) {
                    if gate.timer.as_mut().poll(cx).is_pending() {
                        return Poll::Pending;
                    }
                    tracing::debug!("no 100 Continue in time; sending the body");
                    gate.warmup.continue_unanswered();
                }
            }
            this.gate = None;
        }
        let frame = match &mut this.source {
            Source::Empty => None,
            Source::Bytes(b) => b.take(),
            Source::File { file, path, buf } => {
                if this.remaining == 0 {
                    None
                } else {
                    let want = buf.len().min(this.remaining as usize);
                    let mut read = ReadBuf::new(&mut buf[..want]);
                    match Pin::new(file).poll_read(cx, &mut read) {
                        Poll::Pending => return Poll::Pending,
                        Poll::Ready(Err(e)) => return Poll::Ready(Some(Err(e))),
                        Poll::Ready(Ok(())) => {
                            let n = read.filled().len();
                            if n == 0 {
                                return Poll::Ready(Some(Err(changed(path, this.remaining))));
                            }
                            Some(Bytes::copy_from_slice(read.filled()))
                        }
                    }
                }
            }
        };
        Poll::Ready(frame.map(|data| {
            let n = data.len() as u64;
            this.remaining = this.remaining.saturating_sub(n);
            if let Some(p) = &this.progress {
                p.sent(n);
            }
            Ok(Frame::data(data))
        }))
    }

    fn is_end_stream(&self) -> bool {
        self.remaining == 0
            && match &self.source {
                Source::Empty | Source::File { .. } => true,
                Source::Bytes(b) => b.as_ref().is_none_or(|b| b.is_empty()),
            }
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.remaining)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    #[tokio::test]
    async fn a_file_streams_in_chunks_with_its_exact_length() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.bin");
        let data: Vec<u8> = (0..200_000u32).map(|i| i as u8).collect();
        std::fs::write(&p, &data).unwrap();
        let up = Upload::File(p.clone());
        let len = up.length().unwrap();
        let body = RequestBody::open(&up, len, None).await.unwrap();
        assert_eq!(body.size_hint().exact(), Some(200_000));
        let got = body.collect().await.unwrap().to_bytes();
        assert_eq!(&got[..], &data[..]);
        // the file shrank after the length was taken
        std::fs::write(&p, &data[..10]).unwrap();
        let body = RequestBody::open(&up, len, None).await.unwrap();
        let e = body.collect().await.err().unwrap();
        assert!(
            e.to_string()
                .contains("shorter while it was being uploaded"),
            "{e}"
        );
        assert!(Upload::File(dir.path().to_path_buf()).length().is_err());
    }

    #[tokio::test(start_paused = true)]
    async fn the_body_waits_for_continue_or_the_timeout() {
        let up = Upload::Bytes(Bytes::from_static(b"abc"));
        let warmup = Arc::new(Warmup::default());
        let signal = Arc::new(ContinueSignal::default());
        let mut body = RequestBody::open(&up, 3, None).await.unwrap();
        body.wait_for_continue(signal.clone(), Duration::from_secs(5), warmup.clone());
        let mut body = Box::pin(body);
        let poll = futures_util::poll!(body.frame());
        assert!(poll.is_pending(), "waits for 100 Continue");
        signal.fire();
        let frame = body.frame().await.unwrap().unwrap();
        assert_eq!(frame.into_data().unwrap(), Bytes::from_static(b"abc"));
        assert!(warmup.waits_for_continue(), "the server answered");

        // no answer: the timeout sends the body and the origin is remembered
        let mut body = RequestBody::open(&up, 3, None).await.unwrap();
        body.wait_for_continue(
            Arc::new(ContinueSignal::default()),
            Duration::from_secs(5),
            warmup.clone(),
        );
        let started = tokio::time::Instant::now();
        let got = body.collect().await.unwrap().to_bytes();
        assert_eq!(&got[..], b"abc");
        assert!(started.elapsed() >= Duration::from_secs(5));
        assert!(!warmup.waits_for_continue());
    }
}
