//! [`ProgressListener`]: how an embedder (the `m2r` progress bar, a build tool's UI, a CI log)
//! hears what a session is doing, as [`ProgressEvent`]s: the phases of a call (reading the
//! settings, collecting the dependency graph, downloading its artifacts, installing, deploying)
//! with their totals when they are known, and per file: a transfer started (with its size when
//! the server says), bytes arrived, the file was downloaded, was already in the local
//! repository, or failed; an upload started, sent bytes, was taken by the server or failed; a
//! file was installed.
//!
//! Events come from the session's threads, possibly several at once (calls may run
//! concurrently on one session, and a call downloads in parallel): a listener must be
//! `Send + Sync` and quick. The enum is `#[non_exhaustive]`: ignore what you do not render.
//!
//! ```
//! use m2resolver::{Phase, ProgressEvent, ProgressListener};
//! use std::sync::atomic::{AtomicU64, Ordering};
//! #[derive(Default)]
//! struct Count { files: AtomicU64 }
//! impl ProgressListener for Count {
//!     fn on_event(&self, event: &ProgressEvent<'_>) {
//!         match event {
//!             ProgressEvent::PhaseStarted { phase: Phase::Downloading, total } => {
//!                 eprintln!("downloading {} artifacts", total.unwrap_or(0));
//!             }
//!             ProgressEvent::Downloaded { .. } | ProgressEvent::Cached { .. } => {
//!                 self.files.fetch_add(1, Ordering::Relaxed);
//!             }
//!             _ => {}
//!         }
//!     }
//! }
//! ```

use crate::download::downloader::ArtifactFile;
use crate::download::error::DownloadError;
use crate::resolution::Artifact;
use crate::transport::TransportError;
use std::fmt;
use std::path::Path;

/// A phase of a session's work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Phase {
    /// Reading, merging and interpolating the settings files (when the session is built).
    ReadingSettings,
    /// Collecting a dependency graph: reading POMs (and `maven-metadata.xml` for ranges).
    Collecting,
    /// Downloading the artifacts of a graph or of a list of coordinates.
    Downloading,
    /// Installing files into the local repository (`Session::install`).
    Installing,
    /// Uploading files to a deployment repository (`Session::deploy`): artifacts, their
    /// checksums, then the metadata.
    Deploying,
}

impl Phase {
    /// `reading settings`, `collecting`, `downloading`, `installing`, `deploying`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Phase::ReadingSettings => "reading settings",
            Phase::Collecting => "collecting",
            Phase::Downloading => "downloading",
            Phase::Installing => "installing",
            Phase::Deploying => "deploying",
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Something a session did that a progress display may show.
#[derive(Debug)]
#[non_exhaustive]
pub enum ProgressEvent<'a> {
    /// A phase began; `total` is the number of files it will handle, when known (the artifacts
    /// of a class path; not the POMs of a graph, which are found while it is collected).
    PhaseStarted {
        /// The phase.
        phase: Phase,
        /// Files to handle, when known.
        total: Option<u64>,
    },
    /// A phase ended.
    PhaseFinished {
        /// The phase.
        phase: Phase,
    },
    /// A transfer of a file (or a retry of it) began.
    TransferStarted {
        /// The artifact (a POM while collecting).
        artifact: &'a Artifact,
        /// The URL, without user info.
        url: &'a str,
        /// The size the server announced (`Content-Length`).
        size: Option<u64>,
    },
    /// More bytes of a transfer arrived.
    TransferProgress {
        /// The artifact.
        artifact: &'a Artifact,
        /// Bytes since the last event for this transfer.
        bytes: u64,
    },
    /// A file was downloaded into the local repository.
    Downloaded {
        /// The file.
        file: &'a ArtifactFile,
    },
    /// A file was already in the local repository: nothing was transferred.
    Cached {
        /// The file.
        file: &'a ArtifactFile,
    },
    /// A file could not be resolved.
    Failed {
        /// The artifact.
        artifact: &'a Artifact,
        /// Why.
        error: &'a DownloadError,
    },
    /// An upload (an artifact, a checksum or a `maven-metadata.xml`) began.
    UploadStarted {
        /// The path in the repository (`org/example/lib/1.0/lib-1.0.jar`).
        path: &'a str,
        /// The URL, without user info.
        url: &'a str,
        /// Its size in bytes.
        size: u64,
    },
    /// More bytes of an upload were handed to the connection (a retried upload sends its
    /// bytes again).
    UploadProgress {
        /// The path in the repository.
        path: &'a str,
        /// Bytes since the last event for this upload.
        bytes: u64,
    },
    /// The server took an upload.
    Uploaded {
        /// The path in the repository.
        path: &'a str,
        /// The URL, without user info.
        url: &'a str,
        /// The server's status (201 created, 204 replaced, ...).
        status: u16,
    },
    /// An upload failed (for a checksum file: a warning, as in Maven).
    UploadFailed {
        /// The path in the repository.
        path: &'a str,
        /// Why.
        error: &'a TransportError,
    },
    /// A file was installed into the local repository (`copied: false`: the same size and
    /// modification time were there already, as Maven skips it).
    Installed {
        /// The file in the local repository.
        path: &'a Path,
        /// Whether it was copied.
        copied: bool,
    },
}

/// Receives a session's [`ProgressEvent`]s; called from its threads, so keep it quick.
pub trait ProgressListener: Send + Sync {
    /// One event.
    fn on_event(&self, event: &ProgressEvent<'_>);
}

/// A listener that ignores everything.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoProgress;

impl ProgressListener for NoProgress {
    fn on_event(&self, _event: &ProgressEvent<'_>) {}
}
