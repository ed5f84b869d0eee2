//! [`DownloadError`]: why one artifact could not be resolved, naming the artifact, the repository
//! (id and redacted URL) and what to do. Transport failures keep their [`TransportError`] as source.

use crate::transport::TransportError;
use std::path::PathBuf;
use thiserror::Error;

/// The failure of one artifact.
#[derive(Debug, Error)]
pub enum DownloadError {
    /// No repository has it (every one answered 404, or had it cached as not found).
    #[error("could not find artifact {artifact} in {searched}")]
    NotFound {
        /// `g:a:ext[:cls]:version`.
        artifact: String,
        /// `id (url), ...` of the repositories asked.
        searched: String,
    },
    /// A previous attempt found nothing and the update policy says not to ask again yet.
    #[error("{artifact} was not found in {url} during a previous attempt. This failure was cached in the local repository and resolution is not reattempted until the update interval of {repository} has elapsed or updates are forced (delete {} to retry now)", marker.display())]
    CachedNotFound {
        /// The artifact.
        artifact: String,
        /// Repository id.
        repository: String,
        /// Redacted repository URL.
        url: String,
        /// The `*.lastUpdated` file holding the record.
        marker: PathBuf,
    },
    /// Offline and not in the local repository.
    #[error("Cannot access {repository} ({url}) in offline mode and the artifact {artifact} has not been downloaded from it before.")]
    Offline {
        /// The artifact.
        artifact: String,
        /// Repository id.
        repository: String,
        /// Redacted repository URL.
        url: String,
    },
    /// The repository is a blocked mirror.
    #[error("cannot download {artifact}: repository `{mirror}` ({url}) is a blocked mirror; it blocks {mirrored}. Use an https:// repository, or override the mirror in settings.xml if you trust it")]
    Blocked {
        /// The artifact.
        artifact: String,
        /// Mirror id.
        mirror: String,
        /// Redacted mirror URL.
        url: String,
        /// `id (url), ...` of the repositories it mirrors.
        mirrored: String,
    },
    /// No repository may serve this kind of version (all have releases/snapshots disabled).
    #[error("cannot resolve {artifact}: no repository has {kind} enabled (searched {searched})")]
    NoRepository {
        /// The artifact.
        artifact: String,
        /// `releases` or `snapshots`.
        kind: &'static str,
        /// `id (url), ...`, possibly empty.
        searched: String,
    },
    /// A transfer failed (auth, proxy, network, status).
    #[error("could not transfer artifact {artifact}: {source}")]
    Transfer {
        /// The artifact.
        artifact: String,
        /// What the transport said.
        #[source]
        source: TransportError,
    },
    /// The checksum did not match, twice, under the `fail` policy.
    #[error("checksum validation failed for {artifact} from {url} (repository `{repository}`): expected {algorithm} {expected}, got {actual} (downloaded twice)")]
    ChecksumMismatch {
        /// The artifact.
        artifact: String,
        /// Repository id.
        repository: String,
        /// Redacted URL.
        url: String,
        /// Algorithm name.
        algorithm: &'static str,
        /// Expected value.
        expected: String,
        /// Computed value.
        actual: String,
    },
    /// The checksum file itself is unusable (larger than the limit, or not text), twice, under
    /// the `fail` policy.
    #[error("checksum validation failed for {artifact} from {url} (repository `{repository}`): the {algorithm} checksum file is unusable: {reason} (downloaded twice)")]
    InvalidChecksum {
        /// The artifact.
        artifact: String,
        /// Repository id.
        repository: String,
        /// Redacted URL.
        url: String,
        /// Algorithm name.
        algorithm: &'static str,
        /// Why.
        reason: String,
    },
    /// A part of the coordinate or the resolved version cannot be a path segment (see
    /// [`crate::download::SegmentKind`]).
    #[error("cannot resolve {artifact}: {source}; nothing was requested or written")]
    InvalidPath {
        /// The artifact (escaped).
        artifact: String,
        /// Which part and why.
        #[source]
        source: crate::download::segment::SegmentError,
    },
    /// No checksum could be fetched, under the `fail` policy.
    #[error("checksum validation failed for {artifact} from {url} (repository `{repository}`): no checksums available")]
    NoChecksums {
        /// The artifact.
        artifact: String,
        /// Repository id.
        repository: String,
        /// Redacted URL.
        url: String,
    },
    /// `RELEASE`/`LATEST` could not be resolved from metadata.
    #[error("could not resolve version {version} of {artifact}: no metadata in {searched} names one{}", if problems.is_empty() { String::new() } else { format!(" ({})", problems.join("; ")) })]
    VersionNotFound {
        /// `g:a`.
        artifact: String,
        /// `RELEASE` or `LATEST`.
        version: String,
        /// Where it looked.
        searched: String,
        /// Metadata failures met on the way.
        problems: Vec<String>,
    },
    /// Metadata could not be fetched with the `fail` policy, or is invalid.
    #[error("metadata problem for {artifact}: {message}")]
    Metadata {
        /// The artifact.
        artifact: String,
        /// What went wrong.
        message: String,
    },
    /// Local file system trouble.
    #[error("local repository error for {artifact} at {}: {source}", path.display())]
    Io {
        /// The artifact.
        artifact: String,
        /// The path involved.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The resolver could not be set up (transport options).
    #[error("downloader setup failed: {0}")]
    Setup(#[source] TransportError),
}

impl DownloadError {
    /// True for errors that mean "not there" rather than "could not ask".
    pub fn is_not_found(&self) -> bool {
        matches!(
            self,
            DownloadError::NotFound { .. }
                | DownloadError::CachedNotFound { .. }
                | DownloadError::Offline { .. }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_say_what_where_and_what_to_do() {
        let e = DownloadError::CachedNotFound {
            artifact: "g:a:jar:1".into(),
            repository: "central".into(),
            url: "https://h/r".into(),
            marker: PathBuf::from("/m2/g/a/1/a-1.jar.lastUpdated"),
        };
        let m = e.to_string();
        assert!(
            m.contains("update interval of central") && m.contains("a-1.jar.lastUpdated"),
            "{m}"
        );
        assert!(e.is_not_found());
        let e = DownloadError::Offline {
            artifact: "g:a:jar:1".into(),
            repository: "central".into(),
            url: "https://h/r".into(),
        };
        assert_eq!(
            e.to_string(),
            "Cannot access central (https://h/r) in offline mode and the artifact g:a:jar:1 has not been downloaded from it before."
        );
        let e = DownloadError::VersionNotFound {
            artifact: "g:a".into(),
            version: "RELEASE".into(),
            searched: "x".into(),
            problems: vec!["p1".into()],
        };
        assert!(e.to_string().ends_with("(p1)"), "{e}");
        assert!(!e.is_not_found());
    }
}
