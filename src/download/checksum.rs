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

/// A hash function a checksum file can hold (Java's `MessageDigest` algorithms m2r computes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Algorithm {
    /// SHA-1 (`.sha1`), Maven's first choice.
    Sha1,
    /// MD5 (`.md5`).
    Md5,
    /// SHA-224 (`.sha224`).
    Sha224,
    /// SHA-256 (`.sha256`).
    Sha256,
    /// SHA-384 (`.sha384`).
    Sha384,
    /// SHA-512 (`.sha512`).
    Sha512,
}

/// Every algorithm this crate can compute.
#[cfg(test)]
pub const ALL: [Algorithm; 6] = [
    Algorithm::Sha1,
    Algorithm::Md5,
    Algorithm::Sha224,
    Algorithm::Sha256,
    Algorithm::Sha384,
    Algorithm::Sha512,
];

/// One entry of `aether.checksums.algorithms`: the hash function, the name as written and the
/// sidecar extension Resolver derives from that name (lower-cased without `-`: `SHA-256` →
/// `sha256`, Java's alias `SHA` → `sha`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ChecksumAlgorithm {
    /// The hash function.
    pub algorithm: Algorithm,
    /// The name as written (`SHA-256`, `sha1`).
    pub name: String,
    /// The sidecar extension without the dot (`sha256`).
    pub extension: String,
}

impl ChecksumAlgorithm {
    /// The entry for `algorithm` under its canonical name.
    pub fn of(algorithm: Algorithm) -> ChecksumAlgorithm {
        ChecksumAlgorithm {
            algorithm,
            name: algorithm.name().to_string(),
            extension: algorithm.extension().to_string(),
        }
    }
}

/// The checksum files downloads ask for and uploads get, in order: Resolver's
/// `aether.checksums.algorithms` (`Maven2RepositoryLayoutFactory`, Resolver 1.6.3: a
/// comma-separated list of Java digest names, default `SHA-1,MD5`; the deployer uses the same
/// list). Each algorithm's file is the artifact's path plus the name lower-cased without `-`
/// (`.sha1`, `.md5`, `.sha256`, `.sha512`); downloads try them in order and the first one found
/// decides, uploads write every one. Checksums a repository manager sends in headers count only
/// for these algorithms, as in Resolver.
///
/// ```
/// use m2resolver::download::ChecksumAlgorithms;
/// assert_eq!(ChecksumAlgorithms::default().names(), ["SHA-1", "MD5"]);
/// let strong = ChecksumAlgorithms::parse("SHA-512, sha-256").unwrap();
/// assert_eq!(strong.names(), ["SHA-512", "sha-256"]);
/// assert_eq!(strong.extensions(), ["sha512", "sha256"]);
/// assert_eq!(ChecksumAlgorithms::parse("SHA").unwrap().extensions(), ["sha"]); // Java's alias
/// assert!(ChecksumAlgorithms::parse("SHA-1,CRC32").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChecksumAlgorithms(Vec<ChecksumAlgorithm>);

impl Default for ChecksumAlgorithms {
    fn default() -> Self {
        ChecksumAlgorithms(vec![
            ChecksumAlgorithm::of(Algorithm::Sha1),
            ChecksumAlgorithm::of(Algorithm::Md5),
        ])
    }
}

/// A name in `aether.checksums.algorithms` this crate cannot compute.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown checksum algorithm `{name}` in aether.checksums.algorithms (known: SHA-1, MD5, SHA-224, SHA-256, SHA-384, SHA-512)")]
pub struct UnknownChecksumAlgorithm {
    /// The name as written (quoted).
    pub name: String,
}

impl ChecksumAlgorithms {
    /// Resolver's configuration key.
    pub const KEY: &'static str = "aether.checksums.algorithms";

    /// Parses a comma-separated list of digest names (case-insensitive, with Java's
    /// `MessageDigest` aliases: `SHA1`, `SHA`, `SHA256`, ...; blanks around names and empty
    /// entries are ignored, and a name whose extension repeats an earlier one's is dropped). An
    /// empty value asks for no checksum file. Each extension comes from the name as written.
    pub fn parse(value: &str) -> Result<Self, UnknownChecksumAlgorithm> {
        let mut out: Vec<ChecksumAlgorithm> = Vec::new();
        for name in value.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let unknown = || UnknownChecksumAlgorithm {
                name: crate::printable::quote_prefix(name, 40),
            };
            let algorithm = Algorithm::of_java_name(name).ok_or_else(unknown)?;
            let extension = name.replace('-', "").to_ascii_lowercase();
            crate::download::segment::check(
                crate::download::segment::SegmentKind::Extension,
                &extension,
            )
            .map_err(|_| unknown())?;
            if !out.iter().any(|a| a.extension == extension) {
                out.push(ChecksumAlgorithm {
                    algorithm,
                    name: name.to_string(),
                    extension,
                });
            }
        }
        Ok(ChecksumAlgorithms(out))
    }

    /// The algorithms' names as written, in order (`SHA-1`, ...).
    pub fn names(&self) -> Vec<&str> {
        self.0.iter().map(|a| a.name.as_str()).collect()
    }

    /// The sidecar extensions, in order (`sha1`, ...).
    pub fn extensions(&self) -> Vec<&str> {
        self.0.iter().map(|a| a.extension.as_str()).collect()
    }

    /// The entries, in order.
    pub fn iter(&self) -> std::slice::Iter<'_, ChecksumAlgorithm> {
        self.0.iter()
    }

    /// No checksum file at all (an empty list).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The entries, in order.
    pub(crate) fn algorithms(&self) -> &[ChecksumAlgorithm] {
        &self.0
    }
}

impl Algorithm {
    /// Java's `MessageDigest` names and aliases for the functions m2r has (case-insensitive).
    fn of_java_name(name: &str) -> Option<Algorithm> {
        Some(match name.to_ascii_uppercase().as_str() {
            "SHA-1" | "SHA1" | "SHA" | "1.3.14.3.2.26" => Algorithm::Sha1,
            "MD5" | "1.2.840.113549.2.5" => Algorithm::Md5,
            "SHA-224" | "SHA224" => Algorithm::Sha224,
            "SHA-256" | "SHA256" => Algorithm::Sha256,
            "SHA-384" | "SHA384" => Algorithm::Sha384,
            "SHA-512" | "SHA512" => Algorithm::Sha512,
            _ => return None,
        })
    }

    /// Sidecar extension of the canonical name: lower-cased without `-`.
    pub fn extension(&self) -> &'static str {
        match self {
            Algorithm::Sha1 => "sha1",
            Algorithm::Md5 => "md5",
            Algorithm::Sha224 => "sha224",
            Algorithm::Sha256 => "sha256",
            Algorithm::Sha384 => "sha384",
            Algorithm::Sha512 => "sha512",
        }
    }

    /// Resolver's name (`SHA-1`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            Algorithm::Sha1 => "SHA-1",
            Algorithm::Md5 => "MD5",
            Algorithm::Sha224 => "SHA-224",
            Algorithm::Sha256 => "SHA-256",
            Algorithm::Sha384 => "SHA-384",
            Algorithm::Sha512 => "SHA-512",
        }
    }

    /// Hex digest length.
    #[cfg(test)]
    pub fn hex_len(&self) -> usize {
        match self {
            Algorithm::Sha1 => 40,
            Algorithm::Md5 => 32,
            Algorithm::Sha224 => 56,
            Algorithm::Sha256 => 64,
            Algorithm::Sha384 => 96,
            Algorithm::Sha512 => 128,
        }
    }

    /// Lower-case hex digest of `data`.
    pub fn hash(&self, data: &[u8]) -> String {
        let mut h = Hasher::new(*self);
        h.update(data);
        h.finish()
    }
}

/// One running digest of any [`Algorithm`].
pub(crate) enum Hasher {
    Sha1(Sha1),
    Md5(Md5),
    Sha224(sha2::Sha224),
    Sha256(Sha256),
    Sha384(sha2::Sha384),
    Sha512(Sha512),
}

impl Hasher {
    pub(crate) fn new(a: Algorithm) -> Hasher {
        match a {
            Algorithm::Sha1 => Hasher::Sha1(Sha1::new()),
            Algorithm::Md5 => Hasher::Md5(Md5::new()),
            Algorithm::Sha224 => Hasher::Sha224(sha2::Sha224::new()),
            Algorithm::Sha256 => Hasher::Sha256(Sha256::new()),
            Algorithm::Sha384 => Hasher::Sha384(sha2::Sha384::new()),
            Algorithm::Sha512 => Hasher::Sha512(Sha512::new()),
        }
    }

    pub(crate) fn update(&mut self, data: &[u8]) {
        match self {
            Hasher::Sha1(h) => h.update(data),
            Hasher::Md5(h) => h.update(data),
            Hasher::Sha224(h) => h.update(data),
            Hasher::Sha256(h) => h.update(data),
            Hasher::Sha384(h) => h.update(data),
            Hasher::Sha512(h) => h.update(data),
        }
    }

    pub(crate) fn finish(self) -> String {
        match self {
            Hasher::Sha1(h) => hex::encode(h.finalize()),
            Hasher::Md5(h) => hex::encode(h.finalize()),
            Hasher::Sha224(h) => hex::encode(h.finalize()),
            Hasher::Sha256(h) => hex::encode(h.finalize()),
            Hasher::Sha384(h) => hex::encode(h.finalize()),
            Hasher::Sha512(h) => hex::encode(h.finalize()),
        }
    }
}

/// The lower-case hex digests of a file for each algorithm, in order, read once; and its length.
pub(crate) fn hash_file_all(
    path: &Path,
    algorithms: &[Algorithm],
) -> std::io::Result<(u64, Vec<String>)> {
    let mut hashers: Vec<Hasher> = algorithms.iter().map(|a| Hasher::new(*a)).collect();
    let mut file = std::fs::File::open(path)?;
    let mut buf = vec![0u8; 64 * 1024];
    let mut len = 0u64;
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        len += n as u64;
        for h in &mut hashers {
            h.update(&buf[..n]);
        }
    }
    Ok((len, hashers.into_iter().map(Hasher::finish).collect()))
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
    let (_, mut hexes) = hash_file_all(path, &[alg])?;
    Ok(hexes.pop().unwrap_or_default())
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
    fn one_list_for_downloads_and_uploads_with_javas_names() {
        let exts = |v: &str| {
            ChecksumAlgorithms::parse(v)
                .unwrap()
                .extensions()
                .into_iter()
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        for (value, want) in [
            ("SHA-1,MD5", &["sha1", "md5"][..]),
            ("SHA-256,SHA-512", &["sha256", "sha512"]),
            // the extension is the name as written (Resolver's Checksum.forLocation)
            ("SHA1,sha-256", &["sha1", "sha256"]),
            ("SHA", &["sha"]),
            ("SHA-224,SHA384", &["sha224", "sha384"]),
            // blanks and empty entries are ignored, a repeated extension is dropped
            (" SHA-512 ,,SHA-512", &["sha512"]),
            ("SHA-1,SHA1", &["sha1"]),
            ("", &[]),
        ] {
            assert_eq!(exts(value), want, "{value:?}");
        }
        let a = ChecksumAlgorithms::parse("sha256").unwrap();
        assert_eq!(a.iter().next().unwrap().algorithm, Algorithm::Sha256);
        for bad in ["CRC32", "SHA-1,SHA3-256", "SHA-512/256", "MD5;SHA-1"] {
            assert!(ChecksumAlgorithms::parse(bad).is_err(), "{bad}");
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
