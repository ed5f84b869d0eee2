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
///
/// On a multi-threaded Tokio runtime, once the session has asked a server for something, each
/// download is a task of its own, so that the file work of downloads whose answers are already
/// in memory (requests made ahead) runs on every worker instead of one after another in the
/// caller's task; dropping the returned future cancels them. Otherwise they are polled
/// together in the caller's task.
pub async fn resolve_artifacts(
    downloader: &Downloader,
    graph: &DependencyGraph,
    scope: Option<ClasspathScope>,
) -> Vec<ResolvedNode> {
    let jobs: Vec<(NodeId, Parts)> = classpath::nodes(graph, scope)
        .into_iter()
        .map(|id| (id, node_parts(graph, id)))
        .collect();
    // Only a session that has asked a server for something can hold answers made ahead; where
    // every file is local, a task per artifact costs more than the checks it would spread.
    let handle = tokio::runtime::Handle::try_current()
        .ok()
        .filter(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread)
        .filter(|_| downloader.went_remote());
    let Some(handle) = handle else {
        let inline = jobs
            .into_iter()
            .map(|(id, (artifact, scope, repositories))| {
                resolve_node(downloader, id, artifact, scope, repositories)
            });
        return futures_util::future::join_all(inline).await;
    };
    let mut tasks = tokio::task::JoinSet::new();
    for (index, (id, parts)) in jobs.iter().enumerate() {
        let (id, downloader) = (*id, downloader.clone());
        let (artifact, scope, repositories) = parts.clone();
        tasks.spawn_on(
            async move {
                let node = resolve_node(&downloader, id, artifact, scope, repositories).await;
                (index, node)
            },
            &handle,
        );
    }
    let mut results: Vec<Option<ResolvedNode>> = (0..jobs.len()).map(|_| None).collect();
    while let Some(joined) = tasks.join_next().await {
        match joined {
            Ok((index, node)) => results[index] = Some(node),
            Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            // Cancelled: the runtime is shutting down; the download is done here instead.
            Err(_) => {}
        }
    }
    let mut out = Vec::with_capacity(jobs.len());
    for (result, (id, (artifact, scope, repositories))) in results.into_iter().zip(jobs) {
        out.push(match result {
            Some(node) => node,
            None => resolve_node(downloader, id, artifact, scope, repositories).await,
        });
    }
    out
}

/// How many files [`resolve_artifacts`] hands to the downloader for `graph`'s class path of
/// `scope` (a system-scoped artifact's path is only checked): the total of its phase.
pub(crate) fn download_total(graph: &DependencyGraph, scope: Option<ClasspathScope>) -> u64 {
    classpath::nodes(graph, scope)
        .into_iter()
        .filter(|&id| {
            graph
                .node(id)
                .artifact()
                .is_some_and(|a| a.local_path.is_none())
        })
        .count() as u64
}

/// What resolving one node needs: its artifact, scope and repositories.
type Parts = (Artifact, String, Arc<[crate::repository::RemoteRepository]>);

/// What resolving node `id` needs: its artifact, scope and repositories.
pub(crate) fn node_parts(graph: &DependencyGraph, id: NodeId) -> Parts {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::download::DownloaderConfig;
    use crate::resolution::artifact::Dependency;
    use crate::resolution::collect::graph::{DependencyNode, ListId, Management};

    fn node(dependency: Option<Dependency>) -> DependencyNode {
        DependencyNode {
            dependency,
            root_artifact: None,
            constraint: None,
            version: None,
            relocations: Vec::new(),
            repositories: Arc::from(Vec::new()),
            management: Management::default(),
            children: ListId(usize::MAX),
        }
    }

    /// Every node's file, in class-path order, whether the downloads are tasks of their own
    /// (a multi-threaded runtime) or polled in the caller's task (a current-thread runtime);
    /// a missing file is that node's error, not the others'.
    #[test]
    fn results_keep_class_path_order_on_either_runtime() {
        let local = tempfile::tempdir().unwrap();
        let mut graph = DependencyGraph::with_root(node(None));
        let root = graph.root();
        let mut children = Vec::new();
        for i in 0..40 {
            let artifact = Artifact::new("org.order", format!("a{i}"), "jar", "", "1.0");
            if i != 7 {
                let file = local
                    .path()
                    .join(format!("org/order/a{i}/1.0/a{i}-1.0.jar"));
                std::fs::create_dir_all(file.parent().unwrap()).unwrap();
                std::fs::write(&file, format!("a{i}")).unwrap();
            }
            children.push(graph.add_node(node(Some(Dependency::new(artifact, "compile")))));
        }
        let list = graph.node(root).children;
        graph.lists[list.0] = children.clone();
        let downloader = Downloader::new(DownloaderConfig::new(local.path())).unwrap();
        let multi = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .build()
            .unwrap();
        let single = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        // local only (polled in the caller's task), then as after a request (a task each)
        for (runtime, went_remote) in [
            (&multi, false),
            (&single, false),
            (&multi, true),
            (&single, true),
        ] {
            if went_remote {
                downloader.mark_went_remote();
            }
            let out = runtime.block_on(resolve_artifacts(&downloader, &graph, None));
            let ids: Vec<NodeId> = out.iter().map(|r| r.node).collect();
            assert_eq!(ids, children);
            for (i, r) in out.iter().enumerate() {
                assert_eq!(r.artifact.artifact_id, format!("a{i}"));
                match &r.file {
                    Ok(path) => {
                        assert_ne!(i, 7);
                        assert_eq!(std::fs::read_to_string(path).unwrap(), format!("a{i}"));
                    }
                    Err(e) => assert_eq!(i, 7, "{e}"),
                }
            }
        }
    }
}
