//! Which checksum files an upload gets. The algorithms are the session's one
//! `aether.checksums.algorithms` list ([`ChecksumAlgorithms`], parsed once for downloads and
//! uploads alike, as Resolver 1.6.3's `Maven2RepositoryLayoutFactory` reads it for both), in
//! that order, each uploaded as `<file>.<extension>` holding the lower-case hex digest and
//! nothing else. What is publishing's own: none for an artifact whose extension ends with
//! `.asc` (a signature: `jar.asc`, `pom.asc`) unless `aether.checksums.forSignature` is true;
//! metadata always gets them.

use crate::download::checksum::{hash_file_all, Hasher};
use crate::download::ChecksumAlgorithms;
use std::path::Path;

/// Resolver's property that gives signatures (`*.asc`) checksums too.
pub const FOR_SIGNATURE_PROPERTY: &str = "aether.checksums.forSignature";

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

/// `(extension, lower-case hex digest)` of `data` for each algorithm, in order.
pub(crate) fn digest_bytes(data: &[u8], algorithms: &ChecksumAlgorithms) -> Vec<(String, String)> {
    algorithms
        .iter()
        .map(|a| {
            let mut h = Hasher::new(a.algorithm);
            h.update(data);
            (a.extension.clone(), h.finish())
        })
        .collect()
}

/// [`digest_bytes`] of a file, read once; also returns its length.
pub(crate) fn digest_file(
    path: &Path,
    algorithms: &ChecksumAlgorithms,
) -> std::io::Result<(u64, Vec<(String, String)>)> {
    let functions: Vec<_> = algorithms.iter().map(|a| a.algorithm).collect();
    let (len, hexes) = hash_file_all(path, &functions)?;
    Ok((
        len,
        algorithms
            .iter()
            .map(|a| a.extension.clone())
            .zip(hexes)
            .collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_and_digests_in_the_lists_order() {
        let list = ChecksumAlgorithms::default();
        assert_eq!(
            digest_bytes(b"abc", &list),
            [
                (
                    "sha1".into(),
                    "a9993e364706816aba3e25717850c26c9cd0d89d".into()
                ),
                ("md5".into(), "900150983cd24fb0d6963f7d28e17f72".into())
            ]
        );
        let all = ChecksumAlgorithms::parse("SHA-224,SHA-256,SHA-384,SHA-512,SHA").unwrap();
        let d = digest_bytes(b"", &all);
        assert_eq!(
            d[1].1,
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            d.iter().map(|(_, h)| h.len()).collect::<Vec<_>>(),
            [56, 64, 96, 128, 40]
        );
        assert_eq!(d[4].0, "sha");
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("x");
        std::fs::write(&f, vec![7u8; 200_000]).unwrap();
        let (len, d) = digest_file(&f, &list).unwrap();
        assert_eq!(len, 200_000);
        assert_eq!(d, digest_bytes(&vec![7u8; 200_000], &list));
    }
}
