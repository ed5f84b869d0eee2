//! [`LockError`]: why a lock file could not be read, made or used, naming the file (with line
//! and column), the artifact and the hashes involved. Causes are `source()`, never repeated in
//! the message.

use crate::download::DownloadError;
use std::path::PathBuf;
use thiserror::Error;

/// Why a lock file could not be read, written, made or used.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum LockError {
    /// Not JSON of the lock's shape.
    #[error("{}line {line}, column {column}: not a lock file of this format", file.as_ref().map(|f| format!("{}: ", f.display())).unwrap_or_default())]
    Parse {
        /// The line (1-based).
        line: usize,
        /// The column (1-based).
        column: usize,
        /// What the JSON reader said.
        #[source]
        source: serde_json::Error,
        /// The file, when read from one.
        file: Option<PathBuf>,
    },
    /// A format version this crate does not know.
    #[error("{}lock format version {found} is not supported (this m2r reads version {}); lock the project again with this m2r", file.as_ref().map(|f| format!("{}: ", f.display())).unwrap_or_default(), super::FORMAT_VERSION)]
    Version {
        /// The version found.
        found: u32,
        /// The file, when read from one.
        file: Option<PathBuf>,
    },
    /// Well-formed but inconsistent (a hand edit, a bad merge).
    #[error("{}the lock is inconsistent: {what}", file.as_ref().map(|f| format!("{}: ", f.display())).unwrap_or_default())]
    Invalid {
        /// What is wrong.
        what: String,
        /// The file, when read from one.
        file: Option<PathBuf>,
    },
    /// The lock file could not be read.
    #[error("cannot read the lock file {}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The lock file could not be written.
    #[error("cannot write the lock file {}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A resolved file could not be hashed.
    #[error("cannot hash {artifact} at {}", path.display())]
    Hash {
        /// The artifact.
        artifact: String,
        /// Its file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A locked path or repository id cannot be a path in the local repository.
    #[error("{artifact}: the locked file `{path}` cannot be a path in the local repository")]
    BadPath {
        /// The artifact.
        artifact: String,
        /// The path as locked (escaped).
        path: String,
        /// Which part and why.
        #[source]
        source: crate::download::SegmentError,
    },
    /// A file in the local repository (or a `system` file) is not the locked one; it was left
    /// as it is.
    #[error("{artifact}: {} is not the locked file: the lock says SHA-256 {expected}, the file has {actual}; delete it to download the locked one", path.display())]
    LocalMismatch {
        /// The artifact.
        artifact: String,
        /// The file.
        path: PathBuf,
        /// The locked SHA-256.
        expected: String,
        /// The file's SHA-256.
        actual: String,
    },
    /// A locked file that no repository serves (installed locally, or a `system` path) is not
    /// there.
    #[error("{artifact}: {} is missing, and the lock names no repository to download it from (it was installed locally or is a system dependency)", path.display())]
    NotDownloadable {
        /// The artifact.
        artifact: String,
        /// Where it should be.
        path: PathBuf,
    },
    /// The download of a locked file failed (or what arrived was not the locked file).
    #[error(transparent)]
    Download(Box<DownloadError>),
    /// The record of verified files could not be written.
    #[error("cannot write the record of verified files {}", path.display())]
    Record {
        /// The record file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

impl LockError {
    /// The same error naming the lock file it came from.
    pub(crate) fn in_file(self, path: &std::path::Path) -> LockError {
        let p = Some(path.to_path_buf());
        match self {
            LockError::Parse {
                line,
                column,
                source,
                ..
            } => LockError::Parse {
                line,
                column,
                source,
                file: p,
            },
            LockError::Version { found, .. } => LockError::Version { found, file: p },
            LockError::Invalid { what, .. } => LockError::Invalid { what, file: p },
            other => other,
        }
    }
}
