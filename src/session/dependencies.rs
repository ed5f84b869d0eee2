//! The session's dependency answers: [`Session::describe`], [`Session::collect`] and
//! [`Session::resolve`] (async, and `blocking_*` variants with their own runtime), wired from
//! the session's snapshot — the downloader of [`Session::resolver_config`] (local repository,
//! offline mode, environment, requests in flight, listener), the descriptor reader with the
//! session's system and user properties, and the session's selectors, which fill in decrypted
//! credentials of repositories that POMs declare.
//!
//! This module owns that wiring and the shape of the answers ([`ResolveResult`]); the rules
//! are [`crate::resolution`]'s: POM models and descriptors ([`crate::resolution::pom`]),
//! collection, conflict resolution, class paths and downloads of a graph
//! ([`crate::resolution::collect`]).
//!
//! Each call builds its own downloader and descriptor reader, so each call reads POMs and
//! metadata afresh from the local repository (the local repository is the cache between calls,
//! as between Maven runs); within a call every POM is read once.

use super::{Session, SessionError};
use crate::download::resolver::blocking_runtime;
use crate::download::Resolver;
use crate::repository::RemoteRepository;
use crate::resolution::collect::classpath::ClasspathScope;
use crate::resolution::collect::fetch::RepositorySource;
use crate::resolution::collect::project::{request_for, Root};
use crate::resolution::collect::resolve::{resolve_artifacts, ResolvedNode};
use crate::resolution::collect::{collect, CollectResult, DependencyGraph};
use crate::resolution::pom::{Description, DescriptorReader};
use crate::resolution::Artifact;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// What [`Session::resolve`] answers: the graph, and every artifact of its class path with its
/// file in the local repository (or why there is none), in Maven's class-path order.
#[derive(Debug)]
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

pub(super) fn current_handle() -> Result<tokio::runtime::Handle, SessionError> {
    tokio::runtime::Handle::try_current().map_err(|e| SessionError::Runtime {
        what: "the async dependency methods run inside a Tokio runtime (else use blocking_*)",
        source: Box::new(e),
    })
}

pub(super) fn collector_failed(e: tokio::task::JoinError) -> SessionError {
    SessionError::Runtime {
        what: "the dependency collector's thread failed",
        source: Box::new(e),
    }
}

pub(super) fn runtime() -> Result<tokio::runtime::Runtime, SessionError> {
    blocking_runtime().map_err(|source| SessionError::Downloader {
        source: Box::new(source),
    })
}

/// Collection with a root failure as the error, collection errors kept in the result (the
/// collector waits on the source's runtime: call it from a thread outside it).
fn collect_root(
    source: &RepositorySource,
    root: &Root,
    repositories: &[RemoteRepository],
) -> Result<CollectResult, SessionError> {
    let (request, root_problems) =
        request_for(source, root, repositories).map_err(|source| SessionError::Root { source })?;
    source.read_ahead(&request.managed_dependencies);
    let mut result = collect(source, &request);
    for p in root_problems.into_iter().rev() {
        if !result.problems.contains(&p) {
            result.problems.insert(0, p);
        }
    }
    Ok(result)
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

impl Session {
    /// A descriptor reader for this session, downloading through [`Self::resolver_config`]`(repositories)`:
    /// the session's local repository, offline mode and transport, its system and user
    /// properties for POM interpolation and profile activation, its selectors (mirrors,
    /// proxies, decrypted credentials) for repositories POMs declare. Call it inside a Tokio
    /// runtime (the downloader's connections live there), as [`Self::resolver`].
    pub fn descriptor_reader(
        &self,
        repositories: &[RemoteRepository],
    ) -> Result<DescriptorReader, SessionError> {
        let resolver =
            Resolver::new(self.resolver_config(repositories.to_vec())).map_err(|source| {
                SessionError::Downloader {
                    source: Box::new(source),
                }
            })?;
        Ok(self.reader_over(resolver))
    }

    fn reader_over(&self, resolver: Resolver) -> DescriptorReader {
        DescriptorReader::new(
            resolver,
            self.selectors(),
            HashMap::clone(&self.environment.system_properties),
            HashMap::clone(&self.user_properties),
        )
    }

    /// The repository-backed source of the collector, fetching on `handle`.
    pub(super) fn source(
        &self,
        handle: tokio::runtime::Handle,
        repositories: &[RemoteRepository],
    ) -> Result<RepositorySource, SessionError> {
        let resolver = {
            let _guard = handle.enter();
            Resolver::new(self.resolver_config(repositories.to_vec())).map_err(|source| {
                SessionError::Downloader {
                    source: Box::new(source),
                }
            })?
        };
        let reader = Arc::new(self.reader_over(resolver.clone()));
        Ok(RepositorySource::new(
            reader,
            resolver,
            self.selectors(),
            handle,
        ))
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
        let reader = self.descriptor_reader(repositories)?;
        reader
            .describe(artifact, repositories)
            .await
            .map_err(|source| SessionError::Descriptor {
                source: Box::new(source),
            })
    }

    /// [`Self::describe`], blocking (on a runtime of its own: do not call it from async code).
    pub fn blocking_describe(
        &self,
        artifact: &Artifact,
        repositories: &[RemoteRepository],
    ) -> Result<Description, SessionError> {
        let rt = runtime()?;
        rt.block_on(self.describe(artifact, repositories))
    }

    /// The effective model of a project file (relative to the session's working directory),
    /// as `mvn` builds it: validation level 3.0, parents found by `relativePath`, the POM's
    /// repositories before `repositories`.
    pub async fn describe_project(
        &self,
        pom: &Path,
        repositories: &[RemoteRepository],
    ) -> Result<Description, SessionError> {
        let reader = self.descriptor_reader(repositories)?;
        reader
            .build_project(&self.environment.cwd.join(pom), repositories)
            .await
            .map_err(|source| SessionError::Project {
                source: Box::new(source),
            })
    }

    /// [`Self::describe_project`], blocking (on a runtime of its own).
    pub fn blocking_describe_project(
        &self,
        pom: &Path,
        repositories: &[RemoteRepository],
    ) -> Result<Description, SessionError> {
        let rt = runtime()?;
        rt.block_on(self.describe_project(pom, repositories))
    }

    /// The dependency graph of `root` as Maven Resolver 1.6.3 collects it for Maven 3.8.7
    /// (`RepositorySystem.collectDependencies`, then conflict resolution), starting from
    /// `repositories` (injected: [`Self::repositories`]); repositories that POMs declare join
    /// along the way with the session's mirrors, proxies and credentials. POMs are fetched
    /// ahead in parallel while the graph is built in Maven's order.
    ///
    /// Missing and invalid POMs are warnings in [`CollectResult::problems`]; a failure
    /// (unresolvable range, a parent that cannot be fetched) is [`SessionError::Collect`],
    /// which keeps the graph. The collector runs on a blocking thread of the current runtime.
    pub async fn collect(
        &self,
        root: &Root,
        repositories: &[RemoteRepository],
    ) -> Result<CollectResult, SessionError> {
        let source = self.source(current_handle()?, repositories)?;
        let root = self.in_cwd(root);
        let repositories = repositories.to_vec();
        let result =
            tokio::task::spawn_blocking(move || collect_root(&source, &root, &repositories))
                .await
                .map_err(collector_failed)??;
        collected(result)
    }

    /// [`Self::collect`], blocking (on a runtime of its own: do not call it from async code).
    pub fn blocking_collect(
        &self,
        root: &Root,
        repositories: &[RemoteRepository],
    ) -> Result<CollectResult, SessionError> {
        let rt = runtime()?;
        let source = self.source(rt.handle().clone(), repositories)?;
        collected(collect_root(&source, &self.in_cwd(root), repositories)?)
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
        let source = self.source(current_handle()?, repositories)?;
        let root = self.in_cwd(root);
        let repos = repositories.to_vec();
        let collector = source.clone();
        let collect = tokio::task::spawn_blocking(move || collect_root(&collector, &root, &repos))
            .await
            .map_err(collector_failed)??;
        let artifacts = resolve_artifacts(source.resolver(), &collect.graph, scope).await;
        resolved(ResolveResult {
            collect,
            scope,
            artifacts,
        })
    }

    /// [`Self::resolve`], blocking (on a runtime of its own: do not call it from async code).
    pub fn blocking_resolve(
        &self,
        root: &Root,
        repositories: &[RemoteRepository],
        scope: Option<ClasspathScope>,
    ) -> Result<ResolveResult, SessionError> {
        let rt = runtime()?;
        let source = self.source(rt.handle().clone(), repositories)?;
        let collect = collect_root(&source, &self.in_cwd(root), repositories)?;
        let artifacts = rt.block_on(resolve_artifacts(source.resolver(), &collect.graph, scope));
        resolved(ResolveResult {
            collect,
            scope,
            artifacts,
        })
    }
}
