//! Checksums (spec §8.5): the algorithms and their sidecar extensions, reading a checksum file the
//! way Resolver's `ChecksumUtils.read` does, checksums "included" in response headers (Nexus
//! `ETag: "{SHA1{..}}"`, `X-Checksum-Sha1`/`-MD5`, Google `x-goog-meta-checksum-*`), the
//! `checksumPolicy` strings, and hashing.
//!
//! The download flow that uses these (one re-download on mismatch, then fail/warn) lives in
//! [`crate::download::downloader`].

use crate::repository::ChecksumPolicy;
use http::header::HeaderMap;
use md5::Md5;
use sha1::Sha1;
use sha2::{Digest, Sha256, Sha512};
use std::io::Read;
use std::path::Path;

/// A checksum algorithm Resolver knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// SHA-1 (`.sha1`), Maven's first choice.
    Sha1,
    /// MD5 (`.md5`).
    Md5,
    /// SHA-256 (`.sha256`).
    Sha256,
    /// SHA-512 (`.sha512`).
    Sha512,
}

/// Every algorithm this crate can compute.
pub const ALL: [Algorithm; 4] = [
    Algorithm::Sha1,
    Algorithm::Md5,
    Algorithm::Sha256,
    Algorithm::Sha512,
];

/// The checksum files a download asks for, in order: Resolver's `aether.checksums.algorithms`
/// (`Maven2RepositoryLayoutFactory`, Resolver 1.6.3: a comma-separated list of Java digest
/// names, default `SHA-1,MD5`). Each algorithm's file is the artifact's path plus the name
/// lower-cased without `-` (`.sha1`, `.md5`, `.sha256`, `.sha512`); they are tried in order
/// and the first one found decides. Checksums a repository manager sends in headers count
/// only for these algorithms, as in Resolver.
///
/// ```
/// use m2resolver::download::ChecksumAlgorithms;
/// assert_eq!(ChecksumAlgorithms::default().names(), ["SHA-1", "MD5"]);
/// let strong = ChecksumAlgorithms::parse("SHA-512, sha-256").unwrap();
/// assert_eq!(strong.names(), ["SHA-512", "SHA-256"]);
/// assert!(ChecksumAlgorithms::parse("SHA-1,CRC32").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChecksumAlgorithms(Vec<Algorithm>);

impl Default for ChecksumAlgorithms {
    fn default() -> Self {
        ChecksumAlgorithms(vec![Algorithm::Sha1, Algorithm::Md5])
    }
}

/// A name in `aether.checksums.algorithms` this crate cannot compute.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown checksum algorithm `{name}` in aether.checksums.algorithms (known: SHA-1, MD5, SHA-256, SHA-512)")]
pub struct UnknownChecksumAlgorithm {
    /// The name as written (quoted).
    pub name: String,
}

impl ChecksumAlgorithms {
    /// Resolver's configuration key.
    pub const KEY: &'static str = "aether.checksums.algorithms";

    /// Parses a comma-separated list of digest names (case-insensitive, as Java's
    /// `MessageDigest` reads them; blanks around names are ignored). An empty value asks for no
    /// checksum file.
    pub fn parse(value: &str) -> Result<Self, UnknownChecksumAlgorithm> {
        let mut out = Vec::new();
        for name in value.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let alg = ALL
                .into_iter()
                .find(|a| a.name().eq_ignore_ascii_case(name))
                .ok_or_else(|| UnknownChecksumAlgorithm {
                    name: crate::printable::quote_prefix(name, 40),
                })?;
            if !out.contains(&alg) {
                out.push(alg);
            }
        }
        Ok(ChecksumAlgorithms(out))
    }

    /// The algorithms' names, in order (`SHA-1`, ...).
    pub fn names(&self) -> Vec<&'static str> {
        self.0.iter().map(Algorithm::name).collect()
    }

    pub(crate) fn algorithms(&self) -> &[Algorithm] {
        &self.0
    }
}

impl Algorithm {
    /// Sidecar extension: the name lower-cased without `-`.
    pub fn extension(&self) -> &'static str {
        match self {
            Algorithm::Sha1 => "sha1",
            Algorithm::Md5 => "md5",
            Algorithm::Sha256 => "sha256",
            Algorithm::Sha512 => "sha512",
        }
    }

    /// Resolver's name (`SHA-1`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            Algorithm::Sha1 => "SHA-1",
            Algorithm::Md5 => "MD5",
            Algorithm::Sha256 => "SHA-256",
            Algorithm::Sha512 => "SHA-512",
        }
    }

    /// Hex digest length.
    #[cfg(test)]
    pub fn hex_len(&self) -> usize {
        match self {
            Algorithm::Sha1 => 40,
            Algorithm::Md5 => 32,
            Algorithm::Sha256 => 64,
            Algorithm::Sha512 => 128,
        }
    }

    /// Lower-case hex digest of `data`.
    pub fn hash(&self, data: &[u8]) -> String {
        match self {
            Algorithm::Sha1 => hex::encode(Sha1::digest(data)),
            Algorithm::Md5 => hex::encode(Md5::digest(data)),
            Algorithm::Sha256 => hex::encode(Sha256::digest(data)),
            Algorithm::Sha512 => hex::encode(Sha512::digest(data)),
        }
    }
}

/// Parses a `checksumPolicy` string like Resolver: `ignore`, `fail`, anything else is `warn`.
pub fn parse_checksum_policy(s: &str) -> ChecksumPolicy {
    match s.trim().to_ascii_lowercase().as_str() {
        "ignore" => ChecksumPolicy::Ignore,
        "fail" => ChecksumPolicy::Fail,
        _ => ChecksumPolicy::Warn,
    }
}

/// Reads a checksum file's content: first non-blank line, trimmed; BSD style `ALG(file)= hex`
/// → the text after the last space; else the text before the first space (GNU `hex  file`).
/// Returns `None` when the file has no usable text.
pub fn parse_checksum_file(text: &str) -> Option<String> {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    let bsd = line
        .find("= ")
        .filter(|&i| i > 0)
        .map(|i| &line[i + 2..])
        .filter(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_hexdigit()));
    let value = if bsd.is_some() {
        line.rsplit(' ').next().unwrap_or(line)
    } else {
        line.split(' ').next().unwrap_or(line)
    };
    Some(value.to_string())
}

/// Checksums a repository manager put in the response headers, in Resolver's order.
pub fn included_checksums(headers: &HeaderMap) -> Vec<(Algorithm, String)> {
    let mut out = Vec::new();
    let get = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(|s| s.trim().to_string())
    };
    if let Some(etag) = get("etag") {
        // Nexus 2: ETag: "{SHA1{<hex>}}"
        if let Some(start) = etag.find("{SHA1{") {
            let rest = &etag[start + 6..];
            if let Some(end) = rest.find("}}") {
                out.push((Algorithm::Sha1, rest[..end].to_string()));
            }
        }
    }
    for (name, alg) in [
        ("x-checksum-sha1", Algorithm::Sha1),
        ("x-checksum-md5", Algorithm::Md5),
        ("x-goog-meta-checksum-sha1", Algorithm::Sha1),
        ("x-goog-meta-checksum-md5", Algorithm::Md5),
    ] {
        if let Some(v) = get(name).filter(|v| !v.is_empty()) {
            if !out.iter().any(|(a, _)| *a == alg) {
                out.push((alg, v));
            }
        }
    }
    out
}

/// Lower-case hex digest of a file.
pub fn hash_file(path: &Path, alg: Algorithm) -> std::io::Result<String> {
    let mut f = std::fs::File::open(path)?;
    let mut buf = vec![0u8; 64 * 1024];
    macro_rules! run {
        ($h:expr) => {{
            let mut h = $h;
            loop {
                let n = f.read(&mut buf)?;
                if n == 0 {
                    break;
                }
                h.update(&buf[..n]);
            }
            hex::encode(h.finalize())
        }};
    }
    Ok(match alg {
        Algorithm::Sha1 => run!(Sha1::new()),
        Algorithm::Md5 => run!(Md5::new()),
        Algorithm::Sha256 => run!(Sha256::new()),
        Algorithm::Sha512 => run!(Sha512::new()),
    })
}

/// Case-insensitive comparison of an expected value with a computed hex digest.
pub fn matches(expected: &str, actual: &str) -> bool {
    expected.trim().eq_ignore_ascii_case(actual)
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::header::HeaderValue;

    #[test]
    fn checksum_file_formats() {
        let cases = [
            (
                "da39a3ee5e6b4b0d3255bfef95601890afd80709",
                Some("da39a3ee5e6b4b0d3255bfef95601890afd80709"),
            ),
            ("\n\n  ABCDEF  \n", Some("ABCDEF")),
            ("abcdef  foo-1.0.jar", Some("abcdef")),
            ("abcdef *foo-1.0.jar", Some("abcdef")),
            ("SHA1(foo-1.0.jar)= abcdef", Some("abcdef")),
            ("MD5 (foo.jar) = 0123ab", Some("0123ab")),
            ("", None),
            ("   \n  ", None),
        ];
        for (text, want) in cases {
            assert_eq!(parse_checksum_file(text).as_deref(), want, "{text:?}");
        }
    }

    #[test]
    fn header_checksums() {
        let mut h = HeaderMap::new();
        h.insert("etag", HeaderValue::from_static("\"{SHA1{abc}}\""));
        h.insert("x-checksum-md5", HeaderValue::from_static("def"));
        h.insert(
            "x-checksum-sha1",
            HeaderValue::from_static("ignored-etag-first"),
        );
        assert_eq!(
            included_checksums(&h),
            vec![
                (Algorithm::Sha1, "abc".to_string()),
                (Algorithm::Md5, "def".to_string())
            ]
        );
        let mut h = HeaderMap::new();
        h.insert("etag", HeaderValue::from_static("\"5f3a-1234\""));
        assert!(included_checksums(&h).is_empty());
        h.insert("x-checksum-sha1", HeaderValue::from_static(" 0A "));
        assert_eq!(
            included_checksums(&h),
            vec![(Algorithm::Sha1, "0A".to_string())]
        );
    }

    #[test]
    fn hashing_and_matching() {
        assert_eq!(
            Algorithm::Sha1.hash(b""),
            "da39a3ee5e6b4b0d3255bfef95601890afd80709"
        );
        assert_eq!(Algorithm::Md5.hash(b""), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(Algorithm::Sha256.hash(b"").len(), 64);
        assert_eq!(
            Algorithm::Sha512.hash(b"").len(),
            Algorithm::Sha512.hex_len()
        );
        assert!(matches(
            " DA39A3EE5E6B4B0D3255BFEF95601890AFD80709",
            &Algorithm::Sha1.hash(b"")
        ));
        assert!(!matches("00", &Algorithm::Sha1.hash(b"")));
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        std::fs::write(&p, b"hello").unwrap();
        for alg in ALL {
            assert_eq!(hash_file(&p, alg).unwrap(), alg.hash(b"hello"));
        }
    }

    #[test]
    fn policies() {
        for (s, p) in [
            ("ignore", ChecksumPolicy::Ignore),
            ("warn", ChecksumPolicy::Warn),
            ("fail", ChecksumPolicy::Fail),
            ("", ChecksumPolicy::Warn),
        ] {
            assert_eq!(parse_checksum_policy(s), p);
        }
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_parse_checksum_policy() {
        use crate::download::checksum::parse_checksum_policy;
        use crate::repository::ChecksumPolicy;
        assert_eq!(parse_checksum_policy("FAIL"), ChecksumPolicy::Fail);
        assert_eq!(parse_checksum_policy("whatever"), ChecksumPolicy::Warn);
    }

    #[test]
    fn doc_parse_checksum_file() {
        use crate::download::checksum::parse_checksum_file;
        assert_eq!(
            parse_checksum_file("abc123  foo.jar\n").as_deref(),
            Some("abc123")
        );
        assert_eq!(
            parse_checksum_file("SHA1(foo.jar)= ABC123").as_deref(),
            Some("ABC123")
        );
    }
}
