//! The session's answers for a multi-module build: [`Session::read_workspace`] (the reactor of
//! an aggregator POM), [`Session::collect_workspace`] and [`Session::resolve_workspace`] (every
//! module's graph, and its class path, in one call), async and `blocking_*`.
//!
//! Wiring only; the rules are [`crate::resolution::workspace`]'s. One call shares one
//! downloader, one descriptor reader and one repository-backed source between its modules, so
//! a POM that several modules need is read once; the modules are collected at the same time
//! (a few threads), each through the workspace in front of the repositories, and their
//! artifacts are downloaded at the same time, each file once. When the answers turn out to
//! depend on the order POMs were fetched in (see `fetch.rs`: one repository id standing for
//! different repositories), the modules are collected again one after another in reactor
//! order, as Maven's reactor does. Dependencies are interned across the modules in reactor
//! order (Resolver's `DataPool` lives in the build's session cache), before each module's
//! conflicts are resolved. A module whose collection or resolution fails is reported
//! in its own [`ModuleResult`]; the others are unaffected.

use super::dependencies::{collected, phase, resolved, ResolveResult};
use super::engine::Engine;
use super::{Session, SessionError};
use crate::download::{Downloader, Phase};
use crate::repository::RemoteRepository;
use crate::resolution::artifact::{Artifact, Dependency};
use crate::resolution::collect::classpath::{self, ClasspathScope};
use crate::resolution::collect::fetch::RepositorySource;
use crate::resolution::collect::project::{project_request, request_for, Root};
use crate::resolution::collect::resolve::{node_parts, resolve_node, ResolvedNode};
use crate::resolution::collect::{
    collect_graph, intern_build, on_threads, CollectResult, DescriptorSource, Unresolved,
};
use crate::resolution::workspace::source::WorkspaceSource;
use crate::resolution::workspace::Workspace;
use futures_util::future::{join_all, BoxFuture, FutureExt, Shared};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// How many modules are collected at the same time (each collector thread mostly waits for
/// POMs the source fetches ahead for all of them).
const COLLECTORS: usize = 8;

/// One module's answer.
#[derive(Debug)]
#[non_exhaustive]
pub struct ModuleResult<T> {
    /// The module's main artifact (`groupId:artifactId`, packaging as type, `version`).
    pub module: Artifact,
    /// Its answer: as [`Session::collect`] / [`Session::resolve`] answer for one project.
    pub result: Result<T, SessionError>,
}

/// Every module's answer, in reactor order.
#[derive(Debug)]
#[non_exhaustive]
pub struct WorkspaceResult<T> {
    /// One answer per module of the workspace, in its order.
    pub modules: Vec<ModuleResult<T>>,
}

impl<T> WorkspaceResult<T> {
    /// The modules whose answer is an error.
    pub fn failures(&self) -> impl Iterator<Item = &ModuleResult<T>> {
        self.modules.iter().filter(|m| m.result.is_err())
    }
}

/// The collections of every module over one source: all at once, or again in reactor order
/// when the answers depend on the order. Blocking (call it outside the source's runtime).
fn collect_modules(
    inner: &RepositorySource,
    workspace: &Workspace,
    repositories: &[RemoteRepository],
) -> Vec<CollectResult> {
    let requests: Vec<_> = workspace
        .modules()
        .iter()
        .map(|m| project_request(&m.project, repositories))
        .collect();
    // Read ahead with the management the modules share (a hint: answers do not depend on it).
    let mut managed: Vec<Dependency> = Vec::new();
    for r in &requests {
        for d in &r.managed_dependencies {
            if !managed
                .iter()
                .any(|m| m.artifact.conflict_key() == d.artifact.conflict_key())
            {
                managed.push(d.clone());
            }
        }
    }
    inner.read_ahead(&managed);
    let ws = workspace.clone();
    inner.skip_reading_ahead(Arc::new(move |a: &Artifact| ws.contains(a)));
    inner.begin_collection();
    let source = WorkspaceSource::new(workspace, inner);
    // Every module's direct dependencies start now, so all graphs are fetched at once.
    let hints: Vec<_> = requests
        .iter()
        .flat_map(|r| {
            let repos: Arc<[RemoteRepository]> = Arc::from(r.repositories.clone());
            r.dependencies
                .iter()
                .filter(|d| d.scope != "test" && d.scope != "provided")
                .map(move |d| (d.artifact.clone(), repos.clone()))
        })
        .collect();
    source.prefetch(hints);

    let mut graphs: Vec<Unresolved> = on_threads(requests.iter().collect(), COLLECTORS, |r| {
        collect_graph(&source, r)
    });
    if inner.needs_ordered_replay() {
        tracing::debug!("collecting the reactor again, module after module in Maven's order");
        inner.start_ordered_replay();
        graphs = requests.iter().map(|r| collect_graph(&source, r)).collect();
        inner.end_ordered_replay();
    }
    // The plugin the build runs: its class path is collected once, when its goal first runs
    // (after the first module's dependencies, before the second's).
    let plugin = workspace
        .plugin()
        .filter(|_| graphs.len() > 1)
        .and_then(|p| plugin_graph(inner, &source, p, repositories));
    // One build, one pool of dependencies: each module's interned against the modules (and
    // the plugin) before it in reactor order, as Maven collects them one after another.
    intern_build(graphs, plugin)
}

/// The collection of a plugin's class path, as Maven's `DefaultPluginDependenciesResolver`
/// makes it: the plugin's POM as the root dependency, its dependencies and management. Only
/// its interned dependencies matter here; a plugin whose POM cannot be read has none.
fn plugin_graph(
    inner: &RepositorySource,
    source: &dyn DescriptorSource,
    plugin: &Artifact,
    repositories: &[RemoteRepository],
) -> Option<Unresolved> {
    match request_for(inner, &Root::Artifact(plugin.clone()), repositories) {
        Ok((request, problems)) if problems.is_empty() => Some(collect_graph(source, &request)),
        Ok((_, problems)) => {
            tracing::debug!(
                "the class path of {plugin} is not collected: {}",
                problems[0].message
            );
            None
        }
        Err(e) => {
            tracing::debug!("the class path of {plugin} is not collected: {e}");
            None
        }
    }
}

type Download = Shared<BoxFuture<'static, ResolvedNode>>;

/// Every module's artifacts, planned before any is asked for: each class-path node's source
/// (the reactor's file for a module's artifact, see [`Workspace::find_artifact`], else a
/// download shared by every module that needs it), and how many files the downloader will
/// handle, each once however many modules need it (the total of the downloading phase).
struct ModulesPlan {
    modules: Vec<(CollectResult, Vec<NodeJob>)>,
    files: u64,
}

/// One node of one module's class path and where its file comes from.
struct NodeJob {
    id: crate::resolution::collect::NodeId,
    artifact: Artifact,
    scope: String,
    source: Source,
}

fn plan_modules(
    downloader: &Downloader,
    workspace: &Workspace,
    collections: Vec<CollectResult>,
    scope: Option<ClasspathScope>,
) -> ModulesPlan {
    let mut downloads: HashMap<String, Download> = HashMap::new();
    let mut files = 0;
    let modules = collections
        .into_iter()
        .map(|collect| {
            let graph = &collect.graph;
            let jobs = classpath::nodes(graph, scope)
                .into_iter()
                .map(|id| {
                    let (artifact, node_scope, repositories) = node_parts(graph, id);
                    let source = match workspace.find_artifact(&artifact) {
                        Some(file) => Source::Reactor(file),
                        None => {
                            let key = format!(
                                "{artifact}|{:?}|{}",
                                artifact.local_path,
                                crate::resolution::pom::repositories_key(&repositories)
                            );
                            let download = downloads.entry(key).or_insert_with(|| {
                                // A system path is checked, not handled by the downloader.
                                files += u64::from(artifact.local_path.is_none());
                                shared_download(downloader, id, &artifact, repositories)
                            });
                            Source::Download(download.clone())
                        }
                    };
                    NodeJob {
                        id,
                        artifact,
                        scope: node_scope,
                        source,
                    }
                })
                .collect();
            (collect, jobs)
        })
        .collect();
    ModulesPlan { modules, files }
}

/// Every module's artifacts, as planned: the downloads start here, each file once for all
/// modules.
async fn resolve_modules(plan: ModulesPlan, scope: Option<ClasspathScope>) -> Vec<ResolveResult> {
    let per_module = plan.modules.into_iter().map(|(collect, jobs)| async move {
        let jobs = jobs.into_iter().map(|job| async move {
            let (file, download) = match job.source {
                Source::Reactor(file) => (Ok(file), None),
                Source::Download(d) => {
                    let done = d.await;
                    (done.file, done.download)
                }
            };
            ResolvedNode {
                node: job.id,
                artifact: job.artifact,
                scope: job.scope,
                file,
                download,
            }
        });
        let artifacts = join_all(jobs).await;
        ResolveResult {
            collect,
            scope,
            artifacts,
        }
    });
    join_all(per_module).await
}

/// Where a node's file comes from.
enum Source {
    /// The workspace's file for a module's artifact.
    Reactor(std::path::PathBuf),
    /// A download shared by every module that needs it.
    Download(Download),
}

/// The download of `artifact` from `repositories`, to be shared by every module that needs
/// it; nothing is asked for until it is first awaited.
fn shared_download(
    downloader: &Downloader,
    id: crate::resolution::collect::NodeId,
    artifact: &Artifact,
    repositories: Arc<[RemoteRepository]>,
) -> Download {
    let downloader = downloader.clone();
    let artifact = artifact.clone();
    async move { resolve_node(&downloader, id, artifact, String::new(), repositories).await }
        .boxed()
        .shared()
}

pub(super) fn answers<T>(
    workspace: &Workspace,
    results: Vec<T>,
    check: impl Fn(T) -> Result<T, SessionError>,
) -> WorkspaceResult<T> {
    WorkspaceResult {
        modules: workspace
            .modules()
            .iter()
            .zip(results)
            .map(|(m, r)| ModuleResult {
                module: m.artifact.clone(),
                result: check(r),
            })
            .collect(),
    }
}

/// The collections of every module, on a blocking thread of the engine's runtime.
fn collect_workspace_on(
    engine: &Engine,
    workspace: &Workspace,
    repositories: &[RemoteRepository],
) -> Vec<CollectResult> {
    collect_workspace_with(engine, &engine.source(), workspace, repositories)
}

fn collect_workspace_with(
    engine: &Engine,
    source: &RepositorySource,
    workspace: &Workspace,
    repositories: &[RemoteRepository],
) -> Vec<CollectResult> {
    phase(engine, Phase::Collecting, None, || {
        collect_modules(source, workspace, repositories)
    })
}

/// The collections, then every module's artifacts of `scope`, on a blocking thread of the
/// engine's runtime; as for one project, the artifacts may travel during the collections
/// (`resolving_source`; the modules' own are never asked).
pub(super) fn resolve_workspace_on(
    engine: &Engine,
    workspace: &Workspace,
    repositories: &[RemoteRepository],
    scope: Option<ClasspathScope>,
) -> Vec<ResolveResult> {
    let source = super::dependencies::resolving_source(engine, scope);
    let collections = collect_workspace_with(engine, &source, workspace, repositories);
    let plan = plan_modules(engine.downloader(), workspace, collections, scope);
    phase(engine, Phase::Downloading, Some(plan.files), || {
        engine
            .runtime
            .handle()
            .block_on(resolve_modules(plan, scope))
    })
}

impl Session {
    /// The reactor of an aggregator POM (relative to the session's working directory) as `mvn`
    /// reads it: the POM and its modules recursively (those of its active profiles too), each
    /// project's effective model, in Maven's reactor order (see
    /// [`crate::resolution::workspace`]). `repositories` (injected: [`Self::repositories`]) are
    /// those parents and BOMs outside the reactor come from, through the session's descriptor
    /// reader.
    ///
    /// A project that cannot be read, a module that does not exist, a duplicate or a cycle is
    /// [`SessionError::Workspace`].
    pub async fn read_workspace(
        &self,
        pom: &Path,
        repositories: &[RemoteRepository],
    ) -> Result<Workspace, SessionError> {
        let (pom, repositories) = (self.environment.cwd.join(pom), repositories.to_vec());
        self.on_engine(move |engine| read_task(engine, pom, repositories))
            .await
    }

    /// [`Self::read_workspace`], blocking (refused inside a Tokio runtime).
    pub fn blocking_read_workspace(
        &self,
        pom: &Path,
        repositories: &[RemoteRepository],
    ) -> Result<Workspace, SessionError> {
        let (pom, repositories) = (self.environment.cwd.join(pom), repositories.to_vec());
        self.blocking_on_engine(move |engine| read_task(engine, pom, repositories))
    }

    /// The dependency graph of every module of `workspace` (as [`Self::collect`] collects one
    /// project's, with the workspace in front of the repositories: a module's POM is never
    /// requested from a repository), in reactor order. The modules are collected at the same
    /// time on the session's engine (its downloader and descriptor reader); dependencies are
    /// interned across the modules as Maven's one build session does. `Err` only when the
    /// engine cannot run; each module's failure is in its [`ModuleResult`].
    pub async fn collect_workspace(
        &self,
        workspace: &Workspace,
        repositories: &[RemoteRepository],
    ) -> Result<WorkspaceResult<CollectResult>, SessionError> {
        let (ws, repositories) = (workspace.clone(), repositories.to_vec());
        let results = self
            .on_engine(move |engine| {
                Self::collecting(engine, move |e| {
                    Ok(collect_workspace_on(e, &ws, &repositories))
                })
            })
            .await?;
        Ok(answers(workspace, results, collected))
    }

    /// [`Self::collect_workspace`], blocking (refused inside a Tokio runtime).
    pub fn blocking_collect_workspace(
        &self,
        workspace: &Workspace,
        repositories: &[RemoteRepository],
    ) -> Result<WorkspaceResult<CollectResult>, SessionError> {
        let (ws, repositories) = (workspace.clone(), repositories.to_vec());
        let results = self.blocking_on_engine(move |engine| {
            Self::collecting(engine, move |e| {
                Ok(collect_workspace_on(e, &ws, &repositories))
            })
        })?;
        Ok(answers(workspace, results, collected))
    }

    /// [`Self::collect_workspace`], then every module's class path of `scope` (`None`: every
    /// node) resolved as [`Self::resolve`] resolves one project's: an artifact of a module is
    /// what the workspace gives for it ([`Workspace::find_artifact`]: its output directories
    /// at [`Phase::TestCompile`](crate::resolution::workspace::Phase), built files), anything
    /// else is downloaded by the session's downloader, each file once for every module.
    pub async fn resolve_workspace(
        &self,
        workspace: &Workspace,
        repositories: &[RemoteRepository],
        scope: Option<ClasspathScope>,
    ) -> Result<WorkspaceResult<ResolveResult>, SessionError> {
        let (ws, repositories) = (workspace.clone(), repositories.to_vec());
        let results = self
            .on_engine(move |engine| {
                Self::collecting(engine, move |e| {
                    Ok(resolve_workspace_on(e, &ws, &repositories, scope))
                })
            })
            .await?;
        Ok(answers(workspace, results, resolved))
    }

    /// [`Self::resolve_workspace`], blocking (refused inside a Tokio runtime).
    pub fn blocking_resolve_workspace(
        &self,
        workspace: &Workspace,
        repositories: &[RemoteRepository],
        scope: Option<ClasspathScope>,
    ) -> Result<WorkspaceResult<ResolveResult>, SessionError> {
        let (ws, repositories) = (workspace.clone(), repositories.to_vec());
        let results = self.blocking_on_engine(move |engine| {
            Self::collecting(engine, move |e| {
                Ok(resolve_workspace_on(e, &ws, &repositories, scope))
            })
        })?;
        Ok(answers(workspace, results, resolved))
    }
}

/// Reads the reactor of `pom` through the engine's descriptor reader.
async fn read_task(
    engine: Arc<Engine>,
    pom: std::path::PathBuf,
    repositories: Vec<RemoteRepository>,
) -> Result<Workspace, SessionError> {
    Workspace::read(&engine.reader, &pom, &repositories)
        .await
        .map_err(|source| SessionError::Workspace {
            pom,
            source: Box::new(source),
        })
}
