//! [`DownloadError`]: why one artifact could not be downloaded, naming the artifact, the
//! repository (id and redacted URL) and what to do; [`MetadataError`]: why one repository's
//! `maven-metadata.xml` could not be used. Causes (transport failures, I/O, parse errors) are
//! kept as `source()`, never repeated in the message.

use crate::bounded::BoundedReadError;
use crate::download::metadata::MetadataParseError;
use crate::download::segment::SegmentError;
use crate::transport::TransportError;
use std::path::PathBuf;
use std::sync::Arc;
use thiserror::Error;

/// Why one `maven-metadata.xml` (of a repository, or the local repository's own) could not be
/// used: the versions it would have listed are missing from the answer, which goes on with the
/// other repositories (Maven logs these and goes on too).
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum MetadataError {
    /// A coordinate part or repository id cannot be a path segment: nothing was requested.
    #[error("metadata of {what}{} cannot be stored", from_repository(repository))]
    InvalidPath {
        /// `g:a` (escaped).
        what: String,
        /// The repository id, when the metadata is a repository's.
        repository: Option<String>,
        /// Which part and why.
        #[source]
        source: SegmentError,
    },
    /// The local copy could not be locked, written or read.
    #[error("cannot {action} {}", path.display())]
    Local {
        /// `lock`, `write`, `read`.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: Arc<std::io::Error>,
    },
    /// The file is not valid metadata (malformed, too large, or a value that could not be a
    /// path): ignored.
    #[error("invalid {}, ignored", describe_file(repository, url))]
    Invalid {
        /// The repository id (`None`: the local repository's own file).
        repository: Option<String>,
        /// The URL (redacted) or local path it came from.
        url: String,
        /// What is wrong with it.
        #[source]
        source: InvalidMetadata,
    },
    /// The checksum of the downloaded file did not match (under the `warn` policy this is a
    /// warning; under `fail` the metadata is not used).
    #[error("checksum mismatch for metadata {path} from repository `{repository}`: expected {algorithm} {expected}, got {actual}")]
    ChecksumMismatch {
        /// The repository path.
        path: String,
        /// The repository id.
        repository: String,
        /// `SHA-1`, `MD5`, ...
        algorithm: &'static str,
        /// The expected value (quoted, at most 130 characters).
        expected: String,
        /// The computed value.
        actual: String,
    },
    /// The repository could not be asked (network, authentication, status other than 404).
    #[error("cannot fetch metadata {path} from repository `{repository}`")]
    Transfer {
        /// The repository path.
        path: String,
        /// The repository id.
        repository: String,
        /// What the transport said.
        #[source]
        source: TransportError,
    },
    /// A repository's update policy is not one Maven knows (it is read as `daily`).
    #[error("repository `{repository}`: unknown update policy `{policy}`, using daily")]
    UnknownUpdatePolicy {
        /// The repository id.
        repository: String,
        /// The policy as written (quoted).
        policy: String,
    },
}

fn from_repository(repository: &Option<String>) -> String {
    repository
        .as_ref()
        .map(|r| format!(" from repository `{}`", r.escape_debug()))
        .unwrap_or_default()
}

fn describe_file(repository: &Option<String>, url: &str) -> String {
    match repository {
        Some(r) => format!("maven-metadata.xml from repository `{r}` ({url})"),
        None => format!("metadata {url}"),
    }
}

/// What is wrong with a metadata file.
#[derive(Debug, Clone, Error)]
#[non_exhaustive]
pub enum InvalidMetadata {
    /// It could not be read (too large, not a regular file).
    #[error(transparent)]
    Read(Arc<BoundedReadError>),
    /// It is not well-formed metadata.
    #[error(transparent)]
    Parse(#[from] MetadataParseError),
    /// A value that would become a path is not a valid path segment, or a snapshot value is
    /// not a build of the version asked for.
    #[error("{0}")]
    Value(String),
}

/// The failure of one artifact.
#[derive(Debug, Error)]
#[non_exhaustive]
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
    #[error("could not transfer artifact {artifact}")]
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
    #[error("cannot resolve {artifact}: nothing was requested or written")]
    InvalidPath {
        /// The artifact (escaped).
        artifact: String,
        /// Which part and why.
        #[source]
        source: SegmentError,
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
    #[error("could not resolve version {version} of {artifact}: no metadata in {searched} names one{}", if problems.is_empty() { String::new() } else { format!(" ({})", problems.iter().map(crate::printable::error_chain).collect::<Vec<_>>().join("; ")) })]
    VersionNotFound {
        /// `g:a`.
        artifact: String,
        /// `RELEASE` or `LATEST`.
        version: String,
        /// Where it looked.
        searched: String,
        /// Metadata failures met on the way (each a cause of its own: they are several).
        problems: Vec<MetadataError>,
    },
    /// Metadata could not be used under the `fail` checksum policy.
    #[error("cannot resolve the snapshot version of {artifact}")]
    Metadata {
        /// The artifact.
        artifact: String,
        /// What went wrong.
        #[source]
        source: MetadataError,
    },
    /// Local file system trouble.
    #[error("local repository error for {artifact} at {}", path.display())]
    Io {
        /// The artifact.
        artifact: String,
        /// The path involved.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The downloader could not be set up (transport options).
    #[error("the downloader could not be set up")]
    Setup(#[source] TransportError),
    /// The file is not the one the trusted checksums name (Resolver 1.9's `trustedChecksums`
    /// post-processor): the artifact is not resolved.
    #[error("{artifact} from repository `{repository}` ({}) is not trusted: {trusted_by} says {algorithm} {expected}, the file has {actual}", file.display())]
    NotTrusted {
        /// The artifact.
        artifact: String,
        /// Repository id (`local` for a file installed locally).
        repository: String,
        /// The file in the local repository.
        file: PathBuf,
        /// The summary file that holds the trusted value.
        trusted_by: String,
        /// Algorithm name.
        algorithm: &'static str,
        /// The trusted value.
        expected: String,
        /// The file's value.
        actual: String,
    },
    /// No trusted checksum names the artifact, and `failIfMissing` is set.
    #[error("{artifact} from repository `{repository}` has no trusted {algorithms} checksum in {trusted_by} (failIfMissing is set)")]
    TrustedChecksumMissing {
        /// The artifact.
        artifact: String,
        /// Repository id (`local` for a file installed locally).
        repository: String,
        /// The algorithms without a value.
        algorithms: String,
        /// Where they were looked for.
        trusted_by: String,
    },
    /// A file fetched for a lock file (`--frozen`) is not the locked one: nothing was kept.
    #[error("{path} from repository `{repository}` ({url}) is not the locked file: the lock says {algorithm} {expected}, the server sent {actual}; nothing was written")]
    LockedMismatch {
        /// The repository path.
        path: String,
        /// Repository id.
        repository: String,
        /// Redacted URL.
        url: String,
        /// Algorithm name.
        algorithm: &'static str,
        /// The locked value.
        expected: String,
        /// The value of what was received.
        actual: String,
    },
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
            problems: vec![MetadataError::UnknownUpdatePolicy {
                repository: "r".into(),
                policy: "weekly".into(),
            }],
        };
        assert!(
            e.to_string()
                .ends_with("(repository `r`: unknown update policy `weekly`, using daily)"),
            "{e}"
        );
        assert!(!e.is_not_found());
    }

    /// Every level of a chain prints its own text once: a chain printer (the CLI, anyhow's
    /// `{:#}`) shows each cause once.
    #[test]
    fn causes_are_sources_and_not_repeated_in_messages() {
        use crate::transport::NetworkCause;
        let transfer = DownloadError::Transfer {
            artifact: "g:a:jar:1".into(),
            source: TransportError::Network {
                repository: "r".into(),
                url: "https://h/r/g/a/1/a-1.jar".into(),
                via: String::new(),
                cause: NetworkCause::File {
                    path: std::path::Path::new("/x/y").into(),
                    source: std::io::ErrorKind::PermissionDenied.into(),
                },
                retries: 0,
                elapsed: std::time::Duration::from_millis(5),
            },
        };
        let chain = crate::printable::error_chain(&transfer);
        for part in [
            "g:a:jar:1",
            "https://h/r/g/a/1/a-1.jar",
            "/x/y",
            "permission denied",
        ] {
            assert_eq!(chain.matches(part).count(), 1, "{part} in {chain}");
        }
        let mut depth = 0;
        let mut cur: Option<&dyn std::error::Error> = Some(&transfer);
        while let Some(e) = cur {
            if let Some(next) = e.source() {
                assert!(
                    !e.to_string().contains(&next.to_string()),
                    "`{e}` repeats its cause `{next}`"
                );
            }
            depth += 1;
            cur = e.source();
        }
        assert_eq!(depth, 4, "{chain}");
    }
}
