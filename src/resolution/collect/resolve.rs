//! Resolution: every artifact of a resolved graph downloaded through the downloader
//! (checksums, update policies, offline mode, `_remote.repositories`), each from the
//! repositories its node came with, all at once (the downloader bounds the requests in flight),
//! reported in Maven's class-path order. `system` dependencies are not downloaded: their path
//! is the declared `systemPath`, which must exist. A timestamped snapshot's file is its
//! `-SNAPSHOT` copy, as Resolver hands it out with snapshot normalization.

use super::classpath::{self, ClasspathScope};
use super::graph::{DependencyGraph, NodeId};
use crate::download::{ArtifactFile, DownloadError, Downloader};
use crate::resolution::artifact::Artifact;
use std::path::PathBuf;
use std::sync::Arc;

/// Why one artifact of the graph could not be resolved.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ArtifactError {
    /// The download failed.
    #[error(transparent)]
    Download(#[from] DownloadError),
    /// A `system` dependency whose file is not there.
    #[error("{artifact}: the system path {} does not exist", path.display())]
    SystemPath {
        /// The artifact.
        artifact: String,
        /// The declared `systemPath`.
        path: PathBuf,
    },
}

/// One artifact of the graph, resolved or not.
#[derive(Debug, Clone)]
pub struct ResolvedNode {
    /// The graph node.
    pub node: NodeId,
    /// The artifact (resolved version).
    pub artifact: Artifact,
    /// The scope after conflict resolution.
    pub scope: String,
    /// The file in the local repository (or the system path), or why there is none (shared:
    /// the session's [`SessionError::Resolve`](crate::SessionError::Resolve) names the first).
    pub file: Result<PathBuf, Arc<ArtifactError>>,
    /// The downloader's record (repository, checksum outcome), for downloaded artifacts.
    pub download: Option<ArtifactFile>,
}

/// Downloads the artifacts of `graph` (each once, first occurrence in resolution order),
/// filtered by class-path `scope` (`None`: every node, as Resolver's `resolveDependencies`
/// without a filter), in parallel; results in class-path order.
pub async fn resolve_artifacts(
    downloader: &Downloader,
    graph: &DependencyGraph,
    scope: Option<ClasspathScope>,
) -> Vec<ResolvedNode> {
    let jobs = classpath::nodes(graph, scope).into_iter().map(|id| {
        let (artifact, scope, repositories) = node_parts(graph, id);
        resolve_node(downloader, id, artifact, scope, repositories)
    });
    futures_util::future::join_all(jobs).await
}

/// What resolving node `id` needs: its artifact, scope and repositories.
pub(crate) fn node_parts(
    graph: &DependencyGraph,
    id: NodeId,
) -> (Artifact, String, Arc<[crate::repository::RemoteRepository]>) {
    let node = graph.node(id);
    let artifact = node
        .artifact()
        .cloned()
        .unwrap_or_else(|| Artifact::new("", "", "", "", ""));
    (
        artifact,
        node.scope().to_string(),
        node.repositories.clone(),
    )
}

/// Resolves one node's artifact: its system path, or the download from `repositories`.
pub(crate) async fn resolve_node(
    downloader: &Downloader,
    id: NodeId,
    artifact: Artifact,
    scope: String,
    repositories: Arc<[crate::repository::RemoteRepository]>,
) -> ResolvedNode {
    if let Some(p) = &artifact.local_path {
        let path = PathBuf::from(p);
        let file = if path.is_file() {
            Ok(path)
        } else {
            Err(Arc::new(ArtifactError::SystemPath {
                artifact: artifact.to_string(),
                path,
            }))
        };
        return ResolvedNode {
            node: id,
            artifact,
            scope,
            file,
            download: None,
        };
    }
    // Boxed: the download's state (several KiB) lives only while it runs, not in every node's
    // future of a graph's `join_all` for the whole call (found local, it is freed at once).
    match Box::pin(downloader.fetch(&artifact, &repositories)).await {
        Ok(r) => ResolvedNode {
            node: id,
            artifact,
            scope,
            file: Ok(downloader.class_path_file(&r)),
            download: Some(r),
        },
        Err(e) => ResolvedNode {
            node: id,
            artifact,
            scope,
            file: Err(Arc::new(e.into())),
            download: None,
        },
    }
}
