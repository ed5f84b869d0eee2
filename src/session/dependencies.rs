//! The session's dependency and download answers: [`Session::describe`], [`Session::collect`],
//! [`Session::resolve`] and [`Session::download`] (async, and `blocking_*` variants), run on
//! the session's engine (`engine.rs`): its runtime, downloader and descriptor reader, with the
//! session's system and user properties and its selectors, which fill in decrypted
//! credentials of repositories that POMs declare.
//!
//! This module owns that wiring and the shape of the answers ([`ResolveResult`]); the rules
//! are [`crate::resolution`]'s: POM models and descriptors ([`crate::resolution::pom`]),
//! collection, conflict resolution, class paths and downloads of a graph
//! ([`crate::resolution::collect`]).
//!
//! Every call runs on the engine's runtime: an async method hands its work over and awaits the
//! answer (so it works from any runtime, and cancelling the future cancels the work); a
//! blocking method waits for it on the caller's thread, and is refused inside a Tokio runtime
//! ([`crate::RuntimeError::Nested`]) instead of blocking one of its workers.

use super::engine::Engine;
use super::{Session, SessionError};
use crate::download::{ArtifactFile, DownloadError, Phase, ProgressEvent};
use crate::repository::RemoteRepository;
use crate::resolution::collect::classpath::ClasspathScope;
use crate::resolution::collect::fetch::RepositorySource;
use crate::resolution::collect::project::{request_for, Root};
use crate::resolution::collect::resolve::{download_total, resolve_artifacts, ResolvedNode};
use crate::resolution::collect::{collect, CollectRequest, CollectResult, DependencyGraph};
use crate::resolution::pom::Description;
use crate::resolution::Artifact;
use crate::runtime::refuse_nested;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What [`Session::resolve`] answers: the graph, and every artifact of its class path with its
/// file in the local repository (or why there is none), in Maven's class-path order.
#[derive(Debug)]
#[non_exhaustive]
pub struct ResolveResult {
    /// The collected graph and its warnings (`missing-pom`, `invalid-pom`); `errors` is empty
    /// unless this result came inside [`SessionError::Resolve`].
    pub collect: CollectResult,
    /// The class path the artifacts were chosen for (`None`: every node of the graph, as
    /// Resolver's `resolveDependencies` without a filter).
    pub scope: Option<ClasspathScope>,
    /// Each artifact once (its first occurrence), in Maven's order.
    pub artifacts: Vec<ResolvedNode>,
}

impl ResolveResult {
    /// The resolved graph.
    pub fn graph(&self) -> &DependencyGraph {
        &self.collect.graph
    }

    /// The files of every resolved artifact, in class-path order.
    pub fn files(&self) -> Vec<&Path> {
        self.artifacts
            .iter()
            .filter_map(|a| a.file.as_deref().ok())
            .collect()
    }

    /// The files of the class path Maven builds for `scope` (`compile`: compile, provided and
    /// system; `runtime`: compile and runtime; `test`: all), in Maven's order, among the
    /// artifacts this result holds (those of [`Self::scope`]: resolve with `None` or the widest
    /// scope to ask for several class paths).
    pub fn classpath(&self, scope: ClasspathScope) -> Vec<&Path> {
        self.artifacts
            .iter()
            .filter(|a| scope.includes(&a.scope))
            .filter_map(|a| a.file.as_deref().ok())
            .collect()
    }

    /// The artifacts that could not be resolved.
    pub fn failures(&self) -> impl Iterator<Item = &ResolvedNode> {
        self.artifacts.iter().filter(|a| a.file.is_err())
    }
}

/// Collection with a root failure as the error, collection errors kept in the result (the
/// collector waits on the source's runtime: call it from a blocking thread of it).
fn collect_root(
    source: &RepositorySource,
    root: &Root,
    repositories: &[RemoteRepository],
) -> Result<CollectResult, SessionError> {
    collect_request(source, root, repositories).map(|(result, _)| result)
}

/// [`collect_root`] with the request it collected (the root's effective dependencies and
/// management: what a lock hashes).
pub(super) fn collect_request(
    source: &RepositorySource,
    root: &Root,
    repositories: &[RemoteRepository],
) -> Result<(CollectResult, CollectRequest), SessionError> {
    let (request, root_problems) =
        request_for(source, root, repositories).map_err(|source| SessionError::Root { source })?;
    source.read_ahead(&request.managed_dependencies);
    let mut result = collect(source, &request);
    for p in root_problems.into_iter().rev() {
        if !result.problems.contains(&p) {
            result.problems.insert(0, p);
        }
    }
    Ok((result, request))
}

/// A failed collection becomes [`SessionError::Collect`].
pub(super) fn collected(result: CollectResult) -> Result<CollectResult, SessionError> {
    match result.errors.first() {
        None => Ok(result),
        Some(first) => Err(SessionError::Collect {
            source: first.clone(),
            result: Box::new(result),
        }),
    }
}

/// A collection or download failure becomes [`SessionError::Resolve`].
pub(super) fn resolved(result: ResolveResult) -> Result<ResolveResult, SessionError> {
    let first: Option<Box<dyn std::error::Error + Send + Sync>> =
        match result.collect.errors.first() {
            Some(e) => Some(Box::new(e.clone())),
            None => result
                .failures()
                .find_map(|a| a.file.as_ref().err())
                .map(|e| Box::new(e.clone()) as _),
        };
    match first {
        None => Ok(result),
        Some(source) => Err(SessionError::Resolve {
            source,
            result: Box::new(result),
        }),
    }
}

/// `out` after the trusted checksums the call recorded are written (Resolver writes them when
/// its repository system shuts down; a session writes after each call, so a process that ends
/// after it loses nothing).
fn flushed<T>(engine: &Engine, out: Result<T, SessionError>) -> Result<T, SessionError> {
    match engine.downloader().flush_trusted_checksums() {
        Ok(_) => out,
        Err((path, source)) => out.and(Err(SessionError::TrustedChecksums { path, source })),
    }
}

/// Phase events around `f`.
pub(super) fn phase<T>(
    engine: &Engine,
    phase: Phase,
    total: Option<u64>,
    f: impl FnOnce() -> T,
) -> T {
    engine
        .listener
        .on_event(&ProgressEvent::PhaseStarted { phase, total });
    let out = f();
    engine
        .listener
        .on_event(&ProgressEvent::PhaseFinished { phase });
    out
}

/// The source of one call's collection, made when the call is queued: the descriptors of the
/// root's direct dependencies (and, below them, what the collector will probably read) start
/// at once, while the call waits for a collector thread.
fn call_source(
    engine: &Engine,
    root: &Root,
    repositories: &[RemoteRepository],
) -> RepositorySource {
    let source = engine.source();
    source.read_ahead_root(root, repositories);
    source
}

fn collect_with(
    engine: &Engine,
    source: &RepositorySource,
    root: &Root,
    repositories: &[RemoteRepository],
) -> Result<CollectResult, SessionError> {
    phase(engine, Phase::Collecting, None, || {
        collect_root(source, root, repositories)
    })
}

/// The source of a collection whose artifacts of `scope` are downloaded after it: when every
/// node of the graph is on that class path (all scopes, or `test`), the artifacts travel while
/// the graph is still being collected; for `compile` and `runtime` (which leave some subtrees
/// out) they are asked for after it.
pub(super) fn resolving_source(engine: &Engine, scope: Option<ClasspathScope>) -> RepositorySource {
    let source = engine.source();
    if scope.is_none_or(|s| s == ClasspathScope::Test) {
        source.fetch_artifacts_ahead();
    }
    source
}

/// Collection through `source`, then the artifacts of `scope`, on a collector thread.
fn resolve_with(
    engine: &Engine,
    source: &RepositorySource,
    root: &Root,
    repositories: &[RemoteRepository],
    scope: Option<ClasspathScope>,
) -> Result<ResolveResult, SessionError> {
    let collect = collect_with(engine, source, root, repositories)?;
    let total = download_total(&collect.graph, scope);
    let artifacts = phase(engine, Phase::Downloading, Some(total), || {
        engine.runtime.handle().block_on(resolve_artifacts(
            engine.downloader(),
            &collect.graph,
            scope,
        ))
    });
    Ok(ResolveResult {
        collect,
        scope,
        artifacts,
    })
}

impl Session {
    /// The session's engine, made on first use (see `engine.rs`).
    pub(crate) fn engine(&self) -> Result<Arc<Engine>, SessionError> {
        let mut slot = match self.engine.lock() {
            Ok(s) => s,
            Err(e) => e.into_inner(),
        };
        if let Some(e) = &*slot {
            return Ok(e.clone());
        }
        self.trusted_checksums().map_err(|e| SessionError::Config {
            source: Box::new(e),
        })?;
        let engine = Arc::new(Engine::new(
            self.downloader_config(),
            self.selectors(),
            std::collections::HashMap::clone(&self.environment.system_properties),
            std::collections::HashMap::clone(&self.user_properties),
        )?);
        *slot = Some(engine.clone());
        Ok(engine)
    }

    /// The session's engine if a call made it already (never makes one).
    pub(crate) fn engine_if_made(&self) -> Option<Arc<Engine>> {
        match self.engine.lock() {
            Ok(s) => s.clone(),
            Err(e) => e.into_inner().clone(),
        }
    }

    /// Runs `work` on the engine's runtime and awaits it from the caller's.
    pub(super) async fn on_engine<T, F, W>(&self, work: W) -> Result<T, SessionError>
    where
        W: FnOnce(Arc<Engine>) -> F,
        F: Future<Output = Result<T, SessionError>> + Send + 'static,
        T: Send + 'static,
    {
        let engine = self.engine()?;
        let task = engine.runtime.spawn(work(engine.clone()));
        let out = task
            .await
            .map_err(|source| SessionError::Runtime { source })
            .and_then(|r| r);
        flushed(&engine, out)
    }

    /// Runs `work` on the engine's runtime and waits for it on this thread (refused inside a
    /// Tokio runtime).
    pub(super) fn blocking_on_engine<T, F, W>(&self, work: W) -> Result<T, SessionError>
    where
        W: FnOnce(Arc<Engine>) -> F,
        F: Future<Output = Result<T, SessionError>> + Send + 'static,
        T: Send + 'static,
    {
        refuse_nested().map_err(|source| SessionError::Runtime { source })?;
        let engine = self.engine()?;
        let out = engine
            .runtime
            .block_on(work(engine.clone()))
            .map_err(|source| SessionError::Runtime { source })
            .and_then(|r| r);
        flushed(&engine, out)
    }

    /// Runs blocking `work` (the collector waits on the runtime) on a collector thread of the
    /// engine (in line behind the calls before it when they are all busy), as a future.
    pub(super) fn collecting<T, W>(
        engine: Arc<Engine>,
        work: W,
    ) -> impl Future<Output = Result<T, SessionError>> + Send + 'static
    where
        W: FnOnce(&Engine) -> Result<T, SessionError> + Send + 'static,
        T: Send + 'static,
    {
        let task = {
            let worker = engine.clone();
            engine.collectors.spawn(move || work(&worker))
        };
        async move {
            task.await
                .map_err(|source| SessionError::Runtime { source })?
        }
    }

    /// A project file relative to the session's working directory.
    pub(super) fn in_cwd(&self, root: &Root) -> Root {
        match root {
            Root::Pom(file) => Root::Pom(self.environment.cwd.join(file)),
            other => other.clone(),
        }
    }

    /// The effective descriptor of `artifact` (what `m2r describe` prints): its POM fetched
    /// from `repositories` (injected: [`Self::repositories`]), the effective model built as
    /// Maven's `DefaultArtifactDescriptorReader` builds it, relocations followed, with where
    /// every dependency and version came from.
    pub async fn describe(
        &self,
        artifact: &Artifact,
        repositories: &[RemoteRepository],
    ) -> Result<Description, SessionError> {
        self.on_engine(describe_task(artifact, repositories)).await
    }

    /// [`Self::describe`], blocking (refused inside a Tokio runtime).
    pub fn blocking_describe(
        &self,
        artifact: &Artifact,
        repositories: &[RemoteRepository],
    ) -> Result<Description, SessionError> {
        self.blocking_on_engine(describe_task(artifact, repositories))
    }

    /// The effective model of a project file (relative to the session's working directory),
    /// as `mvn` builds it: validation level 3.0, parents found by `relativePath`, the POM's
    /// repositories before `repositories`.
    pub async fn describe_project(
        &self,
        pom: &Path,
        repositories: &[RemoteRepository],
    ) -> Result<Description, SessionError> {
        self.on_engine(project_task(self.environment.cwd.join(pom), repositories))
            .await
    }

    /// [`Self::describe_project`], blocking (refused inside a Tokio runtime).
    pub fn blocking_describe_project(
        &self,
        pom: &Path,
        repositories: &[RemoteRepository],
    ) -> Result<Description, SessionError> {
        self.blocking_on_engine(project_task(self.environment.cwd.join(pom), repositories))
    }

    /// The dependency graph of `root` as Maven Resolver 1.6.3 collects it for Maven 3.8.7
    /// (`RepositorySystem.collectDependencies`, then conflict resolution), starting from
    /// `repositories` (injected: [`Self::repositories`]); repositories that POMs declare join
    /// along the way with the session's mirrors, proxies and credentials. POMs are fetched
    /// ahead in parallel while the graph is built in Maven's order, through the session's
    /// descriptor cache (shared with the other calls of the session).
    ///
    /// Missing and invalid POMs are warnings in [`CollectResult::problems`]; a failure
    /// (unresolvable range, a parent that cannot be fetched) is [`SessionError::Collect`],
    /// which keeps the graph.
    pub async fn collect(
        &self,
        root: &Root,
        repositories: &[RemoteRepository],
    ) -> Result<CollectResult, SessionError> {
        let (root, repositories) = (self.in_cwd(root), repositories.to_vec());
        self.on_engine(move |engine| {
            let source = call_source(&engine, &root, &repositories);
            Self::collecting(engine, move |e| {
                collect_with(e, &source, &root, &repositories)
            })
        })
        .await
        .and_then(collected)
    }

    /// [`Self::collect`], blocking (refused inside a Tokio runtime).
    pub fn blocking_collect(
        &self,
        root: &Root,
        repositories: &[RemoteRepository],
    ) -> Result<CollectResult, SessionError> {
        let (root, repositories) = (self.in_cwd(root), repositories.to_vec());
        self.blocking_on_engine(move |engine| {
            let source = call_source(&engine, &root, &repositories);
            Self::collecting(engine, move |e| {
                collect_with(e, &source, &root, &repositories)
            })
        })
        .and_then(collected)
    }

    /// [`Self::collect`], then every artifact of the class path of `scope` (`None`: every node)
    /// downloaded through the session's downloader (checksums, update policies, offline mode,
    /// `_remote.repositories`), each from the repositories its node came with, in parallel
    /// within the session's requests in flight. The answer lists the artifacts in Maven's
    /// class-path order with their files.
    ///
    /// A collection error or an artifact that cannot be resolved is [`SessionError::Resolve`],
    /// which keeps the graph and every artifact that was resolved.
    pub async fn resolve(
        &self,
        root: &Root,
        repositories: &[RemoteRepository],
        scope: Option<ClasspathScope>,
    ) -> Result<ResolveResult, SessionError> {
        let (root, repositories) = (self.in_cwd(root), repositories.to_vec());
        self.on_engine(move |engine| {
            let source = resolving_source(&engine, scope);
            source.read_ahead_root(&root, &repositories);
            Self::collecting(engine, move |e| {
                resolve_with(e, &source, &root, &repositories, scope)
            })
        })
        .await
        .and_then(resolved)
    }

    /// [`Self::resolve`], blocking (refused inside a Tokio runtime).
    pub fn blocking_resolve(
        &self,
        root: &Root,
        repositories: &[RemoteRepository],
        scope: Option<ClasspathScope>,
    ) -> Result<ResolveResult, SessionError> {
        let (root, repositories) = (self.in_cwd(root), repositories.to_vec());
        self.blocking_on_engine(move |engine| {
            let source = resolving_source(&engine, scope);
            source.read_ahead_root(&root, &repositories);
            Self::collecting(engine, move |e| {
                resolve_with(e, &source, &root, &repositories, scope)
            })
        })
        .and_then(resolved)
    }

    /// Downloads `artifacts` (no dependencies) from `repositories` (injected:
    /// [`Self::repositories`]) into the session's local repository, as `m2r get` does, within
    /// the session's requests in flight; one answer per artifact, in order.
    pub async fn download(
        &self,
        artifacts: &[Artifact],
        repositories: &[RemoteRepository],
    ) -> Result<Vec<Result<ArtifactFile, DownloadError>>, SessionError> {
        self.on_engine(download_task(artifacts, repositories)).await
    }

    /// [`Self::download`], blocking (refused inside a Tokio runtime).
    pub fn blocking_download(
        &self,
        artifacts: &[Artifact],
        repositories: &[RemoteRepository],
    ) -> Result<Vec<Result<ArtifactFile, DownloadError>>, SessionError> {
        self.blocking_on_engine(download_task(artifacts, repositories))
    }

    /// Forgets what this session checked and read, as if a new Maven session began: the next
    /// calls check `maven-metadata.xml` and cached not-found results again (per update
    /// policy, or always with [`SessionBuilder::update_snapshots`](super::SessionBuilder::update_snapshots))
    /// and read descriptors again from the local repository. Connections, TLS sessions,
    /// learned proxy and server authentication and failed-route memory are kept. For a
    /// long-lived session (a daemon, an IDE): call it when a new build starts.
    pub fn refresh(&self) {
        let engine = match self.engine.lock() {
            Ok(e) => e.clone(),
            Err(e) => e.into_inner().clone(),
        };
        if let Some(e) = engine {
            e.refresh();
        }
    }
}

/// The work of one call, as the engine's runtime runs it.
type Work<T> = std::pin::Pin<Box<dyn Future<Output = Result<T, SessionError>> + Send + 'static>>;

fn describe_task(
    artifact: &Artifact,
    repositories: &[RemoteRepository],
) -> impl FnOnce(Arc<Engine>) -> Work<Description> {
    let (artifact, repositories) = (artifact.clone(), repositories.to_vec());
    move |engine| {
        Box::pin(async move {
            engine
                .reader
                .describe(&artifact, &repositories)
                .await
                .map_err(|source| SessionError::Descriptor {
                    source: Box::new(source),
                })
        })
    }
}

fn project_task(
    pom: PathBuf,
    repositories: &[RemoteRepository],
) -> impl FnOnce(Arc<Engine>) -> Work<Description> {
    let repositories = repositories.to_vec();
    move |engine| {
        Box::pin(async move {
            engine
                .reader
                .build_project(&pom, &repositories)
                .await
                .map_err(|source| SessionError::Project {
                    source: Box::new(source),
                })
        })
    }
}

type Downloads = Vec<Result<ArtifactFile, DownloadError>>;

fn download_task(
    artifacts: &[Artifact],
    repositories: &[RemoteRepository],
) -> impl FnOnce(Arc<Engine>) -> Work<Downloads> {
    let (artifacts, repositories) = (artifacts.to_vec(), repositories.to_vec());
    move |engine| {
        Box::pin(async move {
            let total = Some(artifacts.len() as u64);
            engine.listener.on_event(&ProgressEvent::PhaseStarted {
                phase: Phase::Downloading,
                total,
            });
            let out = engine
                .downloader()
                .download(&artifacts, &repositories)
                .await;
            engine.listener.on_event(&ProgressEvent::PhaseFinished {
                phase: Phase::Downloading,
            });
            Ok(out)
        })
    }
}
