//! [`PublishError`]: why an install or a deployment did not happen, or stopped — with the
//! repository, the file or URL, what to do, and for a deployment that stopped half-way the
//! [`DeployReport`] of what reached the server and what did not.

use super::report::DeployReport;
use crate::download::MetadataParseError;
use crate::download::UnknownChecksumAlgorithm;
use crate::transport::TransportError;
use std::path::PathBuf;
use thiserror::Error;

/// An install or a deployment that failed. Causes are reached through `source()`.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum PublishError {
    /// The request cannot be published as given (POM, files, attachments).
    #[error("{message}")]
    Request {
        /// What is wrong and what to do.
        message: String,
    },
    /// A file to publish is missing or unreadable.
    #[error("cannot publish {}: {problem}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
        /// The I/O error, if any.
        #[source]
        source: Option<std::io::Error>,
    },
    /// `aether.checksums.algorithms` cannot be honoured.
    #[error("cannot compute the checksums to upload")]
    Checksums(#[source] UnknownChecksumAlgorithm),
    /// No deployment repository, or one given in a form Maven refuses.
    #[error("{message}")]
    Repository {
        /// What is wrong and what to do.
        message: String,
    },
    /// The session is offline: nothing is uploaded (Maven: "Cannot deploy artifacts when Maven
    /// is in offline mode").
    #[error(
        "cannot deploy to repository `{repository}` ({url}) in offline mode; nothing was uploaded"
    )]
    Offline {
        /// The deployment repository id.
        repository: String,
        /// Its URL (redacted).
        url: String,
    },
    /// The repository's `maven-metadata.xml` could not be fetched: nothing was uploaded.
    #[error("cannot read the metadata {url} of repository `{repository}`; nothing was uploaded")]
    MetadataFetch {
        /// The deployment repository id.
        repository: String,
        /// The metadata URL (redacted).
        url: String,
        /// Why.
        #[source]
        source: Box<TransportError>,
    },
    /// The repository's `maven-metadata.xml` is not valid metadata (Maven would fail too): nothing
    /// was uploaded. Fix or delete the file on the server.
    #[error("the metadata {url} of repository `{repository}` cannot be merged (fix or remove it on the server); nothing was uploaded")]
    RemoteMetadata {
        /// The deployment repository id.
        repository: String,
        /// The metadata URL (redacted).
        url: String,
        /// The parse error.
        #[source]
        source: MetadataParseError,
    },
    /// The repository's `maven-metadata.xml` does not match its checksum and the repository's
    /// checksum policy is `fail`: nothing was uploaded.
    #[error("the metadata {url} of repository `{repository}` does not match its {algorithm} checksum (expected {expected}, got {actual}) and the checksum policy is `fail`; nothing was uploaded")]
    MetadataChecksum {
        /// The deployment repository id.
        repository: String,
        /// The metadata URL (redacted).
        url: String,
        /// The algorithm.
        algorithm: String,
        /// What the checksum file says.
        expected: String,
        /// What the bytes hash to.
        actual: String,
    },
    /// An upload failed: the metadata was not changed, so resolvers do not see the version.
    /// The report lists what reached the server (a second run overwrites those files).
    #[error("upload of {path} to repository `{repository}` failed; {}", report.outcome_summary())]
    Upload {
        /// The deployment repository id.
        repository: String,
        /// The repository path that failed.
        path: String,
        /// What reached the server and what did not.
        report: Box<DeployReport>,
        /// The transport's error.
        #[source]
        source: Box<TransportError>,
    },
    /// The server accepted the uploads but does not serve them back (verification asked for):
    /// the metadata was not changed.
    #[error("repository `{repository}` accepted the upload of {path} but {problem}; {}", report.outcome_summary())]
    Unverified {
        /// The deployment repository id.
        repository: String,
        /// The file that was read back.
        path: String,
        /// What the server answered.
        problem: String,
        /// What reached the server and what did not.
        report: Box<DeployReport>,
        /// The transport's error, when reading failed.
        #[source]
        source: Option<Box<TransportError>>,
    },
    /// A metadata upload failed after every artifact was uploaded.
    #[error("upload of the metadata {path} to repository `{repository}` failed; {}", report.outcome_summary())]
    MetadataUpload {
        /// The deployment repository id.
        repository: String,
        /// The metadata path.
        path: String,
        /// What reached the server and what did not.
        report: Box<DeployReport>,
        /// The transport's error.
        #[source]
        source: Box<TransportError>,
    },
    /// The local repository's `maven-metadata-local.xml` is not valid metadata: nothing was
    /// installed.
    #[error("{} cannot be merged (fix or delete it); nothing was installed", path.display())]
    LocalMetadata {
        /// The file.
        path: PathBuf,
        /// The parse error.
        #[source]
        source: MetadataParseError,
    },
    /// Writing into the local repository failed.
    #[error("cannot install {}", path.display())]
    Install {
        /// The file being written.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
}

impl PublishError {
    /// The report of a deployment that stopped after it began uploading.
    pub fn report(&self) -> Option<&DeployReport> {
        match self {
            PublishError::Upload { report, .. }
            | PublishError::Unverified { report, .. }
            | PublishError::MetadataUpload { report, .. } => Some(report),
            _ => None,
        }
    }
}
