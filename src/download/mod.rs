//! Download: Maven 2 layout, metadata, checksums, local repository and the parallel scheduler.
//!
//! Entry points: [`Downloader`] (async) and [`BlockingDownloader`], configured by a
//! [`DownloaderConfig`] (local repository, offline mode, transport, policies, limits); the
//! repositories (as the repository module produced them) are an argument of every call. A
//! [`crate::Session`] owns one downloader for its lifetime and runs it on its own runtime
//! ([`crate::Session::download`]); use these types directly only without a session. The flow
//! per artifact is documented in `downloader.rs`; values from outside become paths only
//! through validated segments (`segment.rs`).
//!
//! ```no_run
//! use m2resolver::download::{BlockingDownloader, DownloaderConfig};
//! use m2resolver::{Artifact, RemoteRepository};
//! let repos = vec![RemoteRepository::new("central", "https://repo.maven.apache.org/maven2")];
//! let downloader = BlockingDownloader::new(DownloaderConfig::new("/tmp/m2")).unwrap();
//! let junit = [Artifact::parse("junit:junit:4.13.2").unwrap()];
//! for r in downloader.download(&junit, &repos).unwrap() {
//!     println!("{}", r.unwrap().path.display());
//! }
//! ```

pub(crate) mod chain;
pub(crate) mod checksum;
pub(crate) mod coords;
pub(crate) mod downloader;
pub(crate) mod error;
pub(crate) mod exact;
pub(crate) mod filter;
pub(crate) mod layout;
pub(crate) mod ledger;
pub(crate) mod local;
pub(crate) mod metadata;
pub(crate) mod policy;
pub(crate) mod prefetch;
pub(crate) mod progress;
pub(crate) mod properties;
pub(crate) mod segment;
pub mod trusted;

#[cfg(test)]
mod path_proptests;

pub use chain::LocalTail;
pub use checksum::UnknownChecksumAlgorithm;
pub use downloader::{
    ArtifactFile, BlockingDownloader, ChecksumAlgorithms, ChecksumOutcome, DownloadLimits,
    Downloader, DownloaderConfig, DEFAULT_IN_FLIGHT, DEFAULT_MAX_ARTIFACT_BYTES,
    DEFAULT_MAX_CHECKSUM_BYTES, DEFAULT_MAX_METADATA_BYTES,
};
pub use error::{DownloadError, InvalidMetadata, MetadataError};
pub use exact::{ExactFile, ExpectedFile};
pub use filter::{FilterConfig, RepositoryFilter};
pub use metadata::MetadataParseError;
pub use policy::{Clock, ManualClock, SystemClock};
pub use progress::{NoProgress, Phase, ProgressEvent, ProgressListener};
pub use segment::{RepoPath, Segment, SegmentError, SegmentKind, MAX_SEGMENT_BYTES};
pub use trusted::{TrustedChecksumsConfig, UnknownTrustedAlgorithm};
