//! [`ProgressListener`]: how an embedder (the `m2r` progress bar, a build tool's UI) hears about
//! each artifact: started, bytes received, done, failed. All methods have empty defaults.

use crate::download::coords::Coordinate;
use crate::download::error::DownloadError;
use crate::download::resolver::ResolvedArtifact;

/// Receives per-artifact events; called from the resolver's tasks, so keep it quick.
pub trait ProgressListener: Send + Sync {
    /// A transfer of the artifact (or a retry of it) began; `size` from `Content-Length`.
    fn started(&self, _artifact: &Coordinate, _url: &str, _size: Option<u64>) {}
    /// `bytes` more bytes of the artifact arrived.
    fn progress(&self, _artifact: &Coordinate, _bytes: u64) {}
    /// The artifact is in the local repository.
    fn done(&self, _artifact: &ResolvedArtifact) {}
    /// The artifact could not be resolved.
    fn failed(&self, _artifact: &Coordinate, _error: &DownloadError) {}
}

/// A listener that ignores everything.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoProgress;

impl ProgressListener for NoProgress {}
