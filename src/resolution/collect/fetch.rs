//! The repository-backed [`DescriptorSource`]: POMs through the POM model builder's
//! [`DescriptorReader`] (downloader, local repository, mirrors, proxies, credentials),
//! version listings through the downloader's `maven-metadata.xml` handling, and repositories
//! that POMs declare through the session's selectors.
//!
//! Speed: Resolver 1.6.3 reads POMs one at a time, depth first. Here every descriptor the
//! collector is about to need is started at once on the async runtime, and each descriptor
//! read ahead starts, in turn, the descriptors of the dependencies the collector will
//! probably follow below it (compile and runtime scopes, not optional, at the version the
//! project's dependency management gives them): the whole graph is fetched in parallel, bounded
//! by the downloader's requests in flight, while the collector walks it in Maven's order. The
//! collector only ever sees the answer for the exact artifact and repository list it asks
//! for, so reading ahead changes no result.
//!
//! One source serves one collection; the descriptor reader under it is the session's, shared by
//! every collection running at once (a descriptor one of them is reading is awaited by the
//! others, not read twice). What is per collection lives here: the reads it started, its
//! read-ahead table, its mark in the downloader's ledger and, when its answers turned out to
//! depend on the order of the fetches, its replay in Maven's order — through a reader and a
//! downloader view of its own, so that the replay hides nothing from the other collections.

use super::collector::{root_descriptors, speculative_children};
use super::project::Root;
use super::rules::ManagementTable;
use super::source::{DescriptorOutcome, DescriptorSource, VersionOrigin};
use crate::download::ledger::Mark;
use crate::download::Downloader;
use crate::repository::{aggregate_repositories, RemoteRepository, Selectors};
use crate::resolution::artifact::{Artifact, ArtifactDescriptor, Dependency};
use crate::resolution::pom::cache_key::{FastMap, FastState, Key, KeyRef, KnownLists, ListKey};
use crate::resolution::pom::descriptor::SharedDescriptor;
use crate::resolution::pom::{DescriptorError, DescriptorReader, PomProblemKind};
use futures_util::future::{BoxFuture, FutureExt, Shared};
use std::collections::HashSet;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

type Answer = SharedDescriptor;

/// A read ahead whose task failed (it panicked or the runtime stopped).
#[derive(Debug, thiserror::Error)]
#[error("reading {what} failed")]
struct ReadFailed {
    what: String,
    #[source]
    source: tokio::task::JoinError,
}
type Pending = Shared<BoxFuture<'static, Answer>>;

struct Inner {
    /// The session's reader.
    reader: Arc<DescriptorReader>,
    /// During an ordered replay: the replay's reader (caches of its own, over a downloader that
    /// sees the local repository as Maven would have at each step).
    replay: Mutex<Option<Arc<DescriptorReader>>>,
    selectors: Selectors,
    handle: tokio::runtime::Handle,
    /// The reads this collection started, by coordinates and repository list.
    pending: Mutex<FastMap<Key, Pending>>,
    /// The numbers of the repository lists this collection passed (see [`KnownLists`]).
    lists: KnownLists,
    /// What the session read ahead below, shared by its collections.
    memory: Arc<ReadAheadMemory>,

    /// What to read ahead below a descriptor (with its fingerprint, see [`ReadAheadMemory`]);
    /// `None` disables reading ahead.
    table: Mutex<Option<(Arc<ManagementTable>, u64)>>,
    /// Where the current collection started in the downloader's history.
    mark: Mutex<Option<Mark>>,
    /// Replaying in order: no fetching ahead.
    in_order: AtomicBool,
    /// Artifacts never to read ahead (the modules of a reactor: their descriptors are not the
    /// repositories').
    skip: Mutex<Option<Skip>>,
    /// When the artifacts are to be downloaded after the collection: the requests made ahead
    /// for them (see [`RepositorySource::fetch_artifacts_ahead`]), dropped with the source.
    artifacts: Mutex<Option<Vec<String>>>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        let keys = self.artifacts.get_mut().ok().and_then(|k| k.take());
        if let Some(keys) = keys.filter(|k| !k.is_empty()) {
            self.reader.downloader().forget_prefetched(&keys);
        }
    }
}

type Skip = Arc<dyn Fn(&Artifact) -> bool + Send + Sync>;

/// A [`DescriptorSource`] over real repositories, reading ahead in parallel.
#[derive(Clone)]
pub struct RepositorySource {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for RepositorySource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RepositorySource").finish_non_exhaustive()
    }
}

/// Which descriptors a session already read ahead below, with which dependency management:
/// a later collection of the session (another module of the build, the same module again)
/// finds their children read or being read, and walks on without starting them again. A hint
/// only (the collector asks for every descriptor it needs): a fingerprint that two different
/// tables share costs a read ahead, never an answer.
#[derive(Debug, Default)]
pub(crate) struct ReadAheadMemory {
    below: Mutex<HashSet<u64>>,
    state: FastState,
}

impl ReadAheadMemory {
    /// Whether this is the first time the session reads ahead below `artifact` in the list
    /// numbered `list` with the table fingerprinted `table` (and remembers that it did).
    fn first_time(&self, artifact: &Artifact, list: ListKey, table: u64) -> bool {
        let key = self
            .state
            .hash_one((KeyRef::new(artifact, list, false), table));
        match self.below.lock() {
            Ok(mut b) => b.insert(key),
            Err(e) => e.into_inner().insert(key),
        }
    }

    /// Forgets everything (the session's descriptors were forgotten).
    pub(crate) fn clear(&self) {
        match self.below.lock() {
            Ok(mut b) => b.clear(),
            Err(e) => e.into_inner().clear(),
        }
    }
}

impl RepositorySource {
    /// A source reading through `reader` (and listing versions through its downloader),
    /// applying `selectors` to POM repositories, running its fetches on `handle`.
    pub(crate) fn new(
        reader: Arc<DescriptorReader>,
        selectors: Selectors,
        handle: tokio::runtime::Handle,
        memory: Arc<ReadAheadMemory>,
    ) -> Self {
        RepositorySource {
            inner: Arc::new(Inner {
                reader,
                replay: Mutex::new(None),
                selectors,
                handle,
                pending: Mutex::new(FastMap::default()),
                lists: KnownLists::default(),
                memory,
                table: Mutex::new(None),
                mark: Mutex::new(None),
                in_order: AtomicBool::new(false),
                skip: Mutex::new(None),
                artifacts: Mutex::new(None),
            }),
        }
    }

    /// The artifacts of this collection will be downloaded once it is done (a resolution of
    /// every scope, or of the test class path: every node the collection keeps is on it, but
    /// conflicts' losers): each descriptor read ahead starts the download's requests for its
    /// artifact too, kept in memory until the download takes them; what no download took is
    /// dropped with the source. The answers are the same as without ([`crate::download::prefetch`]).
    pub fn fetch_artifacts_ahead(&self) {
        if let Ok(mut a) = self.inner.artifacts.lock() {
            a.get_or_insert_with(Vec::new);
        }
    }

    /// Reads ahead below every descriptor with this dependency management (the project's);
    /// without it only the collector's own hints are fetched ahead.
    pub fn read_ahead(&self, managed: &[crate::resolution::artifact::Dependency]) {
        let fingerprint = self.inner.memory.state.hash_one(managed);
        if let Ok(mut t) = self.inner.table.lock() {
            *t = Some((Arc::new(ManagementTable::new(managed)), fingerprint));
        }
    }

    /// Starts, before the collection runs, the descriptors it will read first: those of the
    /// direct dependencies of a project or of bare coordinates (with the project's management,
    /// read ahead below them as usual). For an artifact or a POM file the root must be read
    /// first: nothing starts here.
    pub(crate) fn read_ahead_root(&self, root: &Root, repositories: &[RemoteRepository]) {
        let (dependencies, managed): (&[Dependency], &[Dependency]) = match root {
            Root::Project {
                dependencies,
                managed_dependencies,
                ..
            } => (dependencies, managed_dependencies),
            Root::Dependencies(dependencies) => (dependencies, &[]),
            _ => return,
        };
        self.read_ahead(managed);
        let Some((table, _)) = self.inner.table.lock().ok().and_then(|t| t.clone()) else {
            return;
        };
        let list: Arc<[RemoteRepository]> = Arc::from(repositories);
        let requests = root_descriptors(&table, dependencies)
            .into_iter()
            .map(|a| (a, list.clone()))
            .collect();
        self.prefetch(requests);
    }

    /// Never reads ahead the descriptors of artifacts `skip` accepts (a reactor's modules,
    /// which a workspace answers for).
    pub fn skip_reading_ahead(&self, skip: Arc<dyn Fn(&Artifact) -> bool + Send + Sync>) {
        if let Ok(mut s) = self.inner.skip.lock() {
            *s = Some(skip);
        }
    }

    /// The descriptor reader in use (the replay's during an ordered replay).
    pub fn reader(&self) -> Arc<DescriptorReader> {
        self.inner.reader()
    }

    /// The downloader in use.
    pub fn downloader(&self) -> Downloader {
        self.inner.reader().downloader().clone()
    }

    /// Runs `f` to completion on the source's runtime (from a thread outside it).
    pub fn block_on<F: std::future::Future>(&self, f: F) -> F::Output {
        self.inner.handle.block_on(f)
    }
}

impl Inner {
    fn reader(&self) -> Arc<DescriptorReader> {
        let replay = match self.replay.lock() {
            Ok(r) => r.clone(),
            Err(e) => e.into_inner().clone(),
        };
        replay.unwrap_or_else(|| self.reader.clone())
    }

    /// The number of a repository list passed to this collection.
    fn list_key(&self, reader: &DescriptorReader, list: &Arc<[RemoteRepository]>) -> ListKey {
        self.lists.of(reader.list_keys(), list)
    }

    /// The answer for `artifact` in `repositories` if the session holds it already (then the
    /// artifact is fetched ahead and, the first time, the descriptors below it are read ahead,
    /// as after a read).
    fn remembered(
        self: &Arc<Self>,
        reader: &DescriptorReader,
        artifact: &Artifact,
        repositories: &Arc<[RemoteRepository]>,
        list: ListKey,
    ) -> Option<Answer> {
        let answer = reader.remembered_dependency_descriptor(artifact, list)?;
        self.fetch_artifact_ahead(reader, artifact, repositories);
        if let Ok(d) = &*answer {
            self.read_ahead_below(artifact, d, repositories, list);
        }
        Some(answer)
    }

    fn start(
        self: &Arc<Self>,
        artifact: Artifact,
        repositories: Arc<[RemoteRepository]>,
        list: ListKey,
    ) -> Pending {
        let pending = match self.pending.lock() {
            Ok(p) => p,
            Err(e) => e.into_inner(),
        };
        let key = KeyRef::new(&artifact, list, false);
        if let Some(p) = pending.get(&key) {
            return p.clone();
        }
        let key = key.owned();
        let reader = self.reader();
        // Remembered by the session (another call, or an earlier one, read it): answered here,
        // without a task (each task holds the whole read's state, several KiB, allocated and
        // copied for every descriptor of every call), and without a pending entry (`descriptor`
        // asks the session first).
        drop(pending);
        if let Some(answer) = self.remembered(&reader, &artifact, &repositories, list) {
            return futures_util::future::ready(answer).boxed().shared();
        }
        let mut pending = match self.pending.lock() {
            Ok(p) => p,
            Err(e) => e.into_inner(),
        };
        if let Some(p) = pending.get(&key) {
            return p.clone();
        }
        // With the POM when the session has gone to the network already, else after it (a POM
        // that had to be fetched lets its artifact travel ahead too; a started request is not
        // started twice).
        self.fetch_artifact_ahead(&reader, &artifact, &repositories);
        let this = self.clone();
        let label = artifact.to_string();
        let task = self.handle.spawn(async move {
            let answer = reader
                .read_dependency_descriptor_in(&artifact, &repositories, list)
                .await;
            this.fetch_artifact_ahead(&reader, &artifact, &repositories);
            if let Ok(d) = &*answer {
                this.read_ahead_below(&artifact, d, &repositories, list);
            }
            answer
        });
        let fut: Pending = async move {
            match task.await {
                Ok(a) => a,
                Err(e) => Arc::new(Err(DescriptorError::Transfer {
                    artifact: Artifact::new("", "", "", "", ""),
                    source: Arc::new(ReadFailed {
                        what: label,
                        source: e,
                    }),
                })),
            }
        }
        .boxed()
        .shared();
        pending.insert(key, fut.clone());
        fut
    }

    /// [`RepositorySource::fetch_artifacts_ahead`] for one artifact.
    fn fetch_artifact_ahead(
        &self,
        reader: &DescriptorReader,
        artifact: &Artifact,
        repositories: &[RemoteRepository],
    ) {
        if self.in_order.load(Ordering::SeqCst) {
            return;
        }
        let mut keys = match self.artifacts.lock() {
            Ok(k) => k,
            Err(e) => e.into_inner(),
        };
        let Some(keys) = keys.as_mut() else { return };
        let skip = self.skip.lock().ok().and_then(|s| s.clone());
        if skip.is_some_and(|skip| skip(artifact)) {
            return;
        }
        keys.extend(
            reader
                .downloader()
                .prefetch(artifact, repositories, &self.handle),
        );
    }

    /// Starts the descriptors the collector will probably ask for below `d` (the descriptor
    /// of `artifact` in the list numbered `list`), unless the session did so already.
    fn read_ahead_below(
        self: &Arc<Self>,
        artifact: &Artifact,
        d: &ArtifactDescriptor,
        repositories: &Arc<[RemoteRepository]>,
        list: ListKey,
    ) {
        if self.in_order.load(Ordering::SeqCst) || d.dependencies.is_empty() {
            return;
        }
        let table = self.table.lock().ok().and_then(|t| t.clone());
        let Some((table, fingerprint)) = table else {
            return;
        };
        if !self.memory.first_time(artifact, list, fingerprint) {
            return;
        }
        let children = speculative_children(&table, d);
        if children.is_empty() {
            return;
        }
        let child_repos: Arc<[RemoteRepository]> = if d.repositories.is_empty() {
            repositories.clone()
        } else {
            Arc::from(aggregate_repositories(
                repositories,
                &d.repositories,
                true,
                &self.selectors,
            ))
        };
        let reader = self.reader();
        let child_list = self.list_key(&reader, &child_repos);
        let skip = self.skip.lock().ok().and_then(|s| s.clone());
        for c in children {
            if skip.as_ref().is_some_and(|skip| skip(&c)) {
                continue;
            }
            drop(self.start(c, child_repos.clone(), child_list));
        }
    }
}

fn outcome(answer: &Result<Arc<ArtifactDescriptor>, DescriptorError>) -> DescriptorOutcome {
    match answer {
        Ok(d) => DescriptorOutcome::Found(d.clone()),
        Err(e) => match (e.kind(), e.partial()) {
            (Some(PomProblemKind::MissingPom), Some(partial)) => DescriptorOutcome::Missing {
                artifact: e.artifact().clone(),
                partial: Arc::new(partial),
                message: crate::printable::error_chain(e),
            },
            (Some(PomProblemKind::InvalidPom), Some(partial)) => DescriptorOutcome::Invalid {
                artifact: e.artifact().clone(),
                partial: Arc::new(partial),
                message: crate::printable::error_chain(e),
            },
            _ => DescriptorOutcome::Failed(crate::printable::error_chain(e)),
        },
    }
}

impl RepositorySource {
    /// The descriptor of a root artifact, with its dependency management.
    pub fn root_descriptor(
        &self,
        artifact: &Artifact,
        repositories: &[RemoteRepository],
    ) -> DescriptorOutcome {
        let reader = self.inner.reader();
        let answer = self
            .block_on(reader.read_descriptor(artifact, repositories))
            .map(Arc::new);
        outcome(&answer)
    }
}

impl DescriptorSource for RepositorySource {
    fn descriptor(
        &self,
        artifact: &Artifact,
        repositories: &Arc<[RemoteRepository]>,
    ) -> DescriptorOutcome {
        let inner = &self.inner;
        let reader = inner.reader();
        let list = inner.list_key(&reader, repositories);
        let started = {
            let pending = match inner.pending.lock() {
                Ok(p) => p,
                Err(e) => e.into_inner(),
            };
            pending.get(&KeyRef::new(artifact, list, false)).cloned()
        };
        let fut = match started {
            Some(fut) => fut,
            None => {
                if let Some(answer) = inner.remembered(&reader, artifact, repositories, list) {
                    return outcome(&answer);
                }
                inner.start(artifact.clone(), repositories.clone(), list)
            }
        };
        outcome(&self.block_on(fut))
    }

    fn versions(
        &self,
        artifact: &Artifact,
        repositories: &[RemoteRepository],
    ) -> Vec<(String, VersionOrigin)> {
        let downloader = self.downloader();
        let (listed, problems) = self.block_on(downloader.list_versions(
            &artifact.group_id,
            &artifact.artifact_id,
            repositories,
        ));
        for p in problems {
            tracing::warn!("{}", crate::printable::error_chain(&p));
        }
        listed
            .into_iter()
            .map(|(v, origin)| {
                let origin = match origin {
                    None => VersionOrigin::Local,
                    Some(id) => repositories
                        .iter()
                        .position(|r| r.id == id)
                        .map_or(VersionOrigin::Local, VersionOrigin::Remote),
                };
                (v, origin)
            })
            .collect()
    }

    fn aggregate(
        &self,
        dominant: &[RemoteRepository],
        declared: &[RemoteRepository],
    ) -> Vec<RemoteRepository> {
        aggregate_repositories(dominant, declared, true, &self.inner.selectors)
    }

    fn prefetch(&self, requests: Vec<(Artifact, Arc<[RemoteRepository]>)>) {
        let inner = &self.inner;
        if inner.in_order.load(Ordering::SeqCst) {
            return;
        }
        let reader = inner.reader();
        for (a, r) in requests {
            let list = inner.list_key(&reader, &r);
            // What the session holds is answered when asked for (see `descriptor`).
            if reader.remembered_dependency_descriptor(&a, list).is_none() {
                drop(inner.start(a, r, list));
            }
        }
    }

    fn begin_collection(&self) {
        let mark = self.inner.reader.downloader().ledger().begin();
        if let Ok(mut m) = self.inner.mark.lock() {
            *m = Some(mark);
        }
    }

    fn end_collection(&self) {
        let mark = self.inner.mark.lock().ok().and_then(|mut m| m.take());
        if mark.is_some() {
            self.inner.reader.downloader().ledger().end();
        }
    }

    fn needs_ordered_replay(&self) -> bool {
        let mark = self.inner.mark.lock().ok().and_then(|m| *m);
        mark.is_some_and(|m| {
            self.inner
                .reader
                .downloader()
                .ledger()
                .order_sensitive_since(m)
        })
    }

    fn start_ordered_replay(&self) {
        self.inner.in_order.store(true, Ordering::SeqCst);
        // Reads still running finish before the replay starts, so that nothing they record
        // lands during it.
        loop {
            let running: Vec<Pending> = match self.inner.pending.lock() {
                Ok(mut p) => p.drain().map(|(_, f)| f).collect(),
                Err(e) => e.into_inner().drain().map(|(_, f)| f).collect(),
            };
            if running.is_empty() {
                break;
            }
            for f in running {
                drop(self.block_on(f));
            }
        }
        let mark = self.inner.mark.lock().ok().and_then(|m| *m);
        if let Some(mark) = mark {
            let shared = &self.inner.reader;
            let replay = shared.downloader().ledger().replay_from(mark);
            let reader = shared.fresh_over(shared.downloader().replaying(replay));
            if let Ok(mut r) = self.inner.replay.lock() {
                *r = Some(Arc::new(reader));
            }
        }
    }

    fn end_ordered_replay(&self) {
        if let Ok(mut r) = self.inner.replay.lock() {
            *r = None;
        }
        self.inner.in_order.store(false, Ordering::SeqCst);
    }
}
