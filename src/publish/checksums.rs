//! The checksum files an upload gets, as Maven Resolver 1.6.3's `Maven2RepositoryLayoutFactory`
//! decides them: the algorithms of `aether.checksums.algorithms` (default `SHA-1,MD5`), in that
//! order, each uploaded as `<file>.<name lower-cased without '-'>` (`SHA-256` → `.sha256`)
//! holding the lower-case hex digest and nothing else; none for an artifact whose extension ends
//! with `.asc` (a signature: `jar.asc`, `pom.asc`) unless `aether.checksums.forSignature` is
//! true. Metadata always gets them.
//!
//! Names are Java `MessageDigest` names, case-insensitive with Java's aliases (`SHA1`, `SHA`,
//! `SHA256`, ...), and the file extension comes from the name as written (`SHA1` → `.sha1`,
//! `SHA` → `.sha`), as in Maven. Maven skips an algorithm Java does not know, and one written
//! with spaces around it, with a warning per file (and so uploads fewer checksums than asked
//! for); m2r refuses such a list before anything is uploaded.

use sha2::Digest;
use std::io::Read;
use std::path::Path;
use thiserror::Error;

/// Resolver's property naming the algorithms.
pub const ALGORITHMS_PROPERTY: &str = "aether.checksums.algorithms";
/// Resolver's property that gives signatures (`*.asc`) checksums too.
pub const FOR_SIGNATURE_PROPERTY: &str = "aether.checksums.forSignature";
/// Resolver's default list.
pub const DEFAULT_ALGORITHMS: &str = "SHA-1,MD5";

/// A hash function m2r computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Hash {
    /// SHA-1.
    Sha1,
    /// MD5.
    Md5,
    /// SHA-224.
    Sha224,
    /// SHA-256.
    Sha256,
    /// SHA-384.
    Sha384,
    /// SHA-512.
    Sha512,
}

impl Hash {
    /// Java's `MessageDigest` names and aliases for the functions m2r has.
    fn of_java_name(name: &str) -> Option<Hash> {
        Some(match name.to_ascii_uppercase().as_str() {
            "SHA-1" | "SHA1" | "SHA" | "1.3.14.3.2.26" => Hash::Sha1,
            "MD5" | "1.2.840.113549.2.5" => Hash::Md5,
            "SHA-224" | "SHA224" => Hash::Sha224,
            "SHA-256" | "SHA256" => Hash::Sha256,
            "SHA-384" | "SHA384" => Hash::Sha384,
            "SHA-512" | "SHA512" => Hash::Sha512,
            _ => return None,
        })
    }
}

/// One checksum file kind: the algorithm as the property spells it, and its file extension.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChecksumAlgorithm {
    /// The name as written (`SHA-256`).
    pub name: String,
    /// The sidecar extension without the dot (`sha256`).
    pub extension: String,
    /// The hash function.
    pub hash: Hash,
}

impl ChecksumAlgorithm {
    /// The algorithm named `name` (a Java `MessageDigest` name).
    pub fn named(name: &str) -> Result<ChecksumAlgorithm, ChecksumsError> {
        if name.is_empty() {
            return Err(ChecksumsError::Empty);
        }
        if name.trim() != name {
            return Err(ChecksumsError::Spaces(name.to_string()));
        }
        let hash =
            Hash::of_java_name(name).ok_or_else(|| ChecksumsError::Unknown(name.to_string()))?;
        let extension = name.replace('-', "").to_lowercase();
        crate::download::segment::check(
            crate::download::segment::SegmentKind::Extension,
            &extension,
        )
        .map_err(|_| ChecksumsError::Unknown(name.to_string()))?;
        Ok(ChecksumAlgorithm {
            name: name.to_string(),
            extension,
            hash,
        })
    }
}

/// A list of `aether.checksums.algorithms` that m2r cannot honour exactly.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum ChecksumsError {
    /// An empty entry (`SHA-1,,MD5`): Resolver fails on it too.
    #[error("{ALGORITHMS_PROPERTY} has an empty entry")]
    Empty,
    /// Spaces around a name.
    #[error("{ALGORITHMS_PROPERTY}: `{0}` has spaces around it; write the names separated by commas only (Maven would skip it with a warning and upload no such checksums)")]
    Spaces(String),
    /// A name m2r does not know.
    #[error("{ALGORITHMS_PROPERTY}: unknown checksum algorithm `{0}` (known: SHA-1, MD5, SHA-224, SHA-256, SHA-384, SHA-512; Maven would skip it with a warning and upload no such checksums)")]
    Unknown(String),
}

/// Parses `aether.checksums.algorithms` (`SHA-256,SHA-512`), keeping the order.
///
/// ```
/// use m2resolver::publish::checksums::parse_algorithms;
/// let list = parse_algorithms("SHA-256,SHA-512").unwrap();
/// assert_eq!(list.iter().map(|a| a.extension.as_str()).collect::<Vec<_>>(), ["sha256", "sha512"]);
/// assert_eq!(parse_algorithms("sha1").unwrap()[0].extension, "sha1");
/// assert!(parse_algorithms("SHA-1, MD5").is_err());
/// assert!(parse_algorithms("SHA3-256").is_err());
/// ```
pub fn parse_algorithms(value: &str) -> Result<Vec<ChecksumAlgorithm>, ChecksumsError> {
    value.split(',').map(ChecksumAlgorithm::named).collect()
}

/// Whether an artifact with `extension` gets checksum files (`Maven2RepositoryLayoutEx`: not a
/// signature, whose extension ends with `.asc`, unless `for_signature`).
///
/// ```
/// use m2resolver::publish::checksums::artifact_gets_checksums;
/// assert!(artifact_gets_checksums("jar", false));
/// assert!(!artifact_gets_checksums("jar.asc", false));
/// assert!(artifact_gets_checksums("asc", false)); // Maven tests for ".asc"
/// assert!(artifact_gets_checksums("jar.asc", true));
/// ```
pub fn artifact_gets_checksums(extension: &str, for_signature: bool) -> bool {
    for_signature || !extension.ends_with(".asc")
}

enum Hasher {
    Sha1(sha1::Sha1),
    Md5(md5::Md5),
    Sha224(sha2::Sha224),
    Sha256(sha2::Sha256),
    Sha384(sha2::Sha384),
    Sha512(sha2::Sha512),
}

impl Hasher {
    fn new(h: Hash) -> Hasher {
        match h {
            Hash::Sha1 => Hasher::Sha1(sha1::Sha1::new()),
            Hash::Md5 => Hasher::Md5(md5::Md5::new()),
            Hash::Sha224 => Hasher::Sha224(sha2::Sha224::new()),
            Hash::Sha256 => Hasher::Sha256(sha2::Sha256::new()),
            Hash::Sha384 => Hasher::Sha384(sha2::Sha384::new()),
            Hash::Sha512 => Hasher::Sha512(sha2::Sha512::new()),
        }
    }
    fn update(&mut self, data: &[u8]) {
        match self {
            Hasher::Sha1(h) => h.update(data),
            Hasher::Md5(h) => h.update(data),
            Hasher::Sha224(h) => h.update(data),
            Hasher::Sha256(h) => h.update(data),
            Hasher::Sha384(h) => h.update(data),
            Hasher::Sha512(h) => h.update(data),
        }
    }
    fn finish(self) -> String {
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

/// The lower-case hex digests of `data` for each algorithm, in order.
pub fn digest_bytes(data: &[u8], algorithms: &[ChecksumAlgorithm]) -> Vec<String> {
    algorithms
        .iter()
        .map(|a| {
            let mut h = Hasher::new(a.hash);
            h.update(data);
            h.finish()
        })
        .collect()
}

/// [`digest_bytes`] of a file, read once; also returns its length.
pub fn digest_file(
    path: &Path,
    algorithms: &[ChecksumAlgorithm],
) -> std::io::Result<(u64, Vec<String>)> {
    let mut hashers: Vec<Hasher> = algorithms.iter().map(|a| Hasher::new(a.hash)).collect();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_extensions_and_digests() {
        let list = parse_algorithms(DEFAULT_ALGORITHMS).unwrap();
        assert_eq!(list[0].extension, "sha1");
        assert_eq!(list[1].extension, "md5");
        assert_eq!(
            digest_bytes(b"abc", &list),
            [
                "a9993e364706816aba3e25717850c26c9cd0d89d",
                "900150983cd24fb0d6963f7d28e17f72"
            ]
        );
        let all = parse_algorithms("SHA-224,SHA-256,SHA-384,SHA-512,SHA").unwrap();
        let d = digest_bytes(b"", &all);
        assert_eq!(
            d[1],
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            d.iter().map(String::len).collect::<Vec<_>>(),
            [56, 64, 96, 128, 40]
        );
        assert_eq!(all[4].extension, "sha");
        assert_eq!(parse_algorithms("SHA-1,,MD5"), Err(ChecksumsError::Empty));
        assert!(matches!(
            parse_algorithms("SHA-512/256"),
            Err(ChecksumsError::Unknown(_))
        ));
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("x");
        std::fs::write(&f, vec![7u8; 200_000]).unwrap();
        let (len, d) = digest_file(&f, &list).unwrap();
        assert_eq!(len, 200_000);
        assert_eq!(d, digest_bytes(&vec![7u8; 200_000], &list));
    }
}
