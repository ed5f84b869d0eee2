//! The few HTTP/1.1 exchanges m2r speaks itself on a raw connection before handing it to
//! hyper: `CONNECT` to an HTTP proxy, and the NTLM handshake of a plain-HTTP proxy connection.
//!
//! [`read_response`] reads one response head (httparse) and skips its body exactly
//! (`Content-Length`, chunked, or none for `HEAD` and successful `CONNECT`), so that the
//! connection can carry the next message; bytes read past the response stay in the buffer (a
//! tunnel's first bytes). Heads are limited to 64 KiB and skipped bodies to 1 MiB; every read
//! is bounded by a timeout.

use bytes::{Buf, BytesMut};
use std::time::Duration;
use thiserror::Error;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

const MAX_HEAD: usize = 64 * 1024;
const MAX_SKIPPED_BODY: u64 = 1 << 20;
const MAX_HEADERS: usize = 100;

/// A proxy's response could not be read.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Http1Error {
    /// The connection failed or closed.
    #[error("{what}")]
    Io {
        /// What was being done.
        what: &'static str,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// Nothing arrived in time.
    #[error("no answer within {0:?}")]
    Timeout(Duration),
    /// Not HTTP/1.x, too large, or a broken body framing.
    #[error("malformed response: {0}")]
    Malformed(String),
}

/// A response head, and whether the connection can carry another request.
#[derive(Debug, Clone)]
pub struct Head {
    /// Status code.
    pub status: u16,
    /// Reason phrase.
    pub reason: String,
    /// Headers in order (names as sent).
    pub headers: Vec<(String, String)>,
    /// The connection stays open after this response.
    pub keep_alive: bool,
}

impl Head {
    /// Values of the header `name` (case-insensitive), in order.
    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.headers
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn get<'a>(&'a self, name: &'a str) -> Option<&'a str> {
        self.all(name).next()
    }

    fn has_token(&self, name: &str, token: &str) -> bool {
        self.all(name)
            .flat_map(|v| v.split(','))
            .any(|t| t.trim().eq_ignore_ascii_case(token))
    }
}

/// What the response answers (decides whether it has a body).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestKind {
    /// `CONNECT`: a 2xx has no body (the tunnel follows).
    Connect,
    /// `HEAD`: never a body.
    Head,
}

async fn fill<S: AsyncRead + Unpin>(
    io: &mut S,
    buf: &mut BytesMut,
    timeout: Duration,
) -> Result<(), Http1Error> {
    buf.reserve(8 * 1024);
    match tokio::time::timeout(timeout, io.read_buf(buf)).await {
        Err(_) => Err(Http1Error::Timeout(timeout)),
        Ok(Err(source)) => Err(Http1Error::Io {
            what: "reading the proxy's answer failed",
            source,
        }),
        Ok(Ok(0)) => Err(Http1Error::Io {
            what: "the proxy closed the connection",
            source: std::io::ErrorKind::UnexpectedEof.into(),
        }),
        Ok(Ok(_)) => Ok(()),
    }
}

/// Writes a request (already serialised).
pub async fn write_request<S: AsyncWrite + Unpin>(
    io: &mut S,
    bytes: &[u8],
    timeout: Duration,
) -> Result<(), Http1Error> {
    let w = async {
        io.write_all(bytes).await?;
        io.flush().await
    };
    match tokio::time::timeout(timeout, w).await {
        Err(_) => Err(Http1Error::Timeout(timeout)),
        Ok(Err(source)) => Err(Http1Error::Io {
            what: "sending to the proxy failed",
            source,
        }),
        Ok(Ok(())) => Ok(()),
    }
}

/// Reads one response (skipping interim 1xx ones) and its body; leftover bytes stay in `buf`.
pub async fn read_response<S: AsyncRead + Unpin>(
    io: &mut S,
    buf: &mut BytesMut,
    kind: RequestKind,
    timeout: Duration,
) -> Result<Head, Http1Error> {
    loop {
        let head = read_head(io, buf, timeout).await?;
        if (100..200).contains(&head.status) {
            continue;
        }
        let no_body = kind == RequestKind::Head
            || (kind == RequestKind::Connect && (200..300).contains(&head.status))
            || head.status == 204
            || head.status == 304;
        let mut head = head;
        if !no_body {
            if head.has_token("transfer-encoding", "chunked") {
                skip_chunked(io, buf, timeout).await?;
            } else if let Some(len) = head.get("content-length") {
                let len: u64 = len
                    .trim()
                    .parse()
                    .map_err(|_| Http1Error::Malformed(format!("Content-Length `{len}`")))?;
                skip_exact(io, buf, len, timeout).await?;
            } else {
                // the body runs to the end of the connection: do not read it, do not reuse
                head.keep_alive = false;
            }
        }
        return Ok(head);
    }
}

async fn read_head<S: AsyncRead + Unpin>(
    io: &mut S,
    buf: &mut BytesMut,
    timeout: Duration,
) -> Result<Head, Http1Error> {
    loop {
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut resp = httparse::Response::new(&mut headers);
        match resp.parse(buf) {
            Ok(httparse::Status::Complete(n)) => {
                let version = resp.version.unwrap_or(1);
                let head_headers: Vec<(String, String)> = resp
                    .headers
                    .iter()
                    .map(|h| {
                        (
                            h.name.to_string(),
                            String::from_utf8_lossy(h.value).trim().to_string(),
                        )
                    })
                    .collect();
                let mut head = Head {
                    status: resp.code.unwrap_or(0),
                    reason: resp.reason.unwrap_or("").to_string(),
                    headers: head_headers,
                    keep_alive: false,
                };
                let close = head.has_token("connection", "close")
                    || head.has_token("proxy-connection", "close");
                let keep = head.has_token("connection", "keep-alive")
                    || head.has_token("proxy-connection", "keep-alive");
                head.keep_alive = if version >= 1 { !close } else { keep && !close };
                buf.advance(n);
                return Ok(head);
            }
            Ok(httparse::Status::Partial) => {
                if buf.len() > MAX_HEAD {
                    return Err(Http1Error::Malformed(format!(
                        "response head larger than {MAX_HEAD} bytes"
                    )));
                }
                fill(io, buf, timeout).await?;
            }
            Err(e) => {
                let start: String = String::from_utf8_lossy(&buf[..buf.len().min(40)])
                    .chars()
                    .map(|c| if c.is_control() { '.' } else { c })
                    .collect();
                return Err(Http1Error::Malformed(format!(
                    "{e} (starts with `{start}`)"
                )));
            }
        }
    }
}

async fn skip_exact<S: AsyncRead + Unpin>(
    io: &mut S,
    buf: &mut BytesMut,
    mut len: u64,
    timeout: Duration,
) -> Result<(), Http1Error> {
    if len > MAX_SKIPPED_BODY {
        return Err(Http1Error::Malformed(format!(
            "an error page of {len} bytes (more than {MAX_SKIPPED_BODY})"
        )));
    }
    loop {
        let take = (buf.len() as u64).min(len) as usize;
        buf.advance(take);
        len -= take as u64;
        if len == 0 {
            return Ok(());
        }
        fill(io, buf, timeout).await?;
    }
}

/// Reads a line ending in CRLF from `buf` (filling it), without the CRLF.
async fn line<S: AsyncRead + Unpin>(
    io: &mut S,
    buf: &mut BytesMut,
    timeout: Duration,
) -> Result<String, Http1Error> {
    loop {
        if let Some(i) = buf.windows(2).position(|w| w == b"\r\n") {
            let l = String::from_utf8_lossy(&buf[..i]).into_owned();
            buf.advance(i + 2);
            return Ok(l);
        }
        if buf.len() > 8 * 1024 {
            return Err(Http1Error::Malformed("chunk line too long".into()));
        }
        fill(io, buf, timeout).await?;
    }
}

async fn skip_chunked<S: AsyncRead + Unpin>(
    io: &mut S,
    buf: &mut BytesMut,
    timeout: Duration,
) -> Result<(), Http1Error> {
    let mut total = 0u64;
    loop {
        let size_line = line(io, buf, timeout).await?;
        let hex = size_line.split(';').next().unwrap_or("").trim();
        let size = u64::from_str_radix(hex, 16)
            .map_err(|_| Http1Error::Malformed(format!("chunk size `{hex}`")))?;
        if size == 0 {
            // trailers until an empty line
            while !line(io, buf, timeout).await?.is_empty() {}
            return Ok(());
        }
        total = total.saturating_add(size);
        skip_exact(io, buf, size, timeout).await?;
        if total > MAX_SKIPPED_BODY {
            return Err(Http1Error::Malformed("an error page over 1 MiB".into()));
        }
        let end = line(io, buf, timeout).await?;
        if !end.is_empty() {
            return Err(Http1Error::Malformed("chunk not followed by CRLF".into()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: Duration = Duration::from_secs(2);

    async fn read(bytes: &[u8], kind: RequestKind) -> (Result<Head, Http1Error>, BytesMut) {
        let mut io: &[u8] = bytes;
        let mut buf = BytesMut::new();
        let r = read_response(&mut io, &mut buf, kind, T).await;
        // what was not consumed: left in buf plus unread input
        buf.extend_from_slice(io);
        (r, buf)
    }

    #[tokio::test]
    async fn connect_success_keeps_tunnel_bytes() {
        let (h, rest) = read(
            b"HTTP/1.1 200 Connection established\r\n\r\n\x16\x03\x01",
            RequestKind::Connect,
        )
        .await;
        let h = h.unwrap();
        assert_eq!((h.status, h.keep_alive), (200, true));
        assert_eq!(&rest[..], b"\x16\x03\x01");
    }

    #[tokio::test]
    async fn error_bodies_are_skipped_exactly() {
        let (h, rest) = read(
            b"HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: NTLM\r\nProxy-Authenticate: Basic realm=\"x\"\r\nContent-Length: 5\r\n\r\nhelloNEXT",
            RequestKind::Connect,
        )
        .await;
        let h = h.unwrap();
        assert_eq!(h.status, 407);
        assert_eq!(
            h.all("proxy-authenticate").collect::<Vec<_>>(),
            vec!["NTLM", "Basic realm=\"x\""]
        );
        assert!(h.keep_alive);
        assert_eq!(&rest[..], b"NEXT");
        let (h, rest) = read(
            b"HTTP/1.1 407 X\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n0\r\nT: 1\r\n\r\nNEXT",
            RequestKind::Connect,
        )
        .await;
        assert_eq!(h.unwrap().status, 407);
        assert_eq!(&rest[..], b"NEXT");
    }

    #[tokio::test]
    async fn keep_alive_rules() {
        let cases: [(&[u8], bool); 5] = [
            (
                b"HTTP/1.1 407 X\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
                false,
            ),
            (
                b"HTTP/1.1 407 X\r\nProxy-Connection: Close\r\nContent-Length: 0\r\n\r\n",
                false,
            ),
            (b"HTTP/1.0 407 X\r\nContent-Length: 0\r\n\r\n", false),
            (
                b"HTTP/1.0 407 X\r\nProxy-Connection: keep-alive\r\nContent-Length: 0\r\n\r\n",
                true,
            ),
            (b"HTTP/1.1 403 X\r\n\r\nbody until close", false),
        ];
        for (bytes, want) in cases {
            let (h, _) = read(bytes, RequestKind::Connect).await;
            assert_eq!(
                h.unwrap().keep_alive,
                want,
                "{}",
                String::from_utf8_lossy(bytes)
            );
        }
    }

    #[tokio::test]
    async fn head_responses_have_no_body_and_interim_ones_are_skipped() {
        let (h, rest) = read(
            b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\nX",
            RequestKind::Head,
        )
        .await;
        assert_eq!(h.unwrap().status, 200);
        assert_eq!(&rest[..], b"X");
    }

    #[tokio::test]
    async fn broken_answers_are_errors_not_panics() {
        for bytes in [
            &b"SSH-2.0-OpenSSH\r\n\r\n"[..],
            b"HTTP/1.1 407 X\r\nContent-Length: nope\r\n\r\n",
            b"HTTP/1.1 407 X\r\nContent-Length: 99999999\r\n\r\n",
            b"HTTP/1.1 407 X\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            b"HTTP/1.1 407 X\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcXX",
            b"HTTP/1.1 200",
            b"",
        ] {
            let (h, _) = read(bytes, RequestKind::Connect).await;
            assert!(h.is_err(), "{}", String::from_utf8_lossy(bytes));
        }
        let huge = vec![b'a'; MAX_HEAD + 10];
        let mut v = b"HTTP/1.1 200 OK\r\nX: ".to_vec();
        v.extend_from_slice(&huge);
        let (h, _) = read(&v, RequestKind::Connect).await;
        assert!(matches!(h, Err(Http1Error::Malformed(_))));
    }

    #[tokio::test]
    async fn silence_times_out() {
        let (client, _server) = tokio::io::duplex(64);
        let mut client = client;
        let mut buf = BytesMut::new();
        let r = read_response(
            &mut client,
            &mut buf,
            RequestKind::Connect,
            Duration::from_millis(30),
        )
        .await;
        assert!(matches!(r, Err(Http1Error::Timeout(_))));
    }
}
