//! The session's lock answers: [`Session::lock`] / [`Session::resolve_and_lock`] (`m2r lock`,
//! and the fresh lock `m2r resolve --locked` compares with [`Lock::diff`]) and
//! [`Session::resolve_locked`] (`m2r resolve --frozen`), async with `blocking_*` variants, on
//! the session's engine.
//!
//! Locking resolves as [`Session::resolve`] does (every node, or the class path of a scope),
//! then hashes every file (SHA-256 and SHA-1, one pass), notes them in the record of verified
//! files ([`crate::lock::verified`]) and builds the [`Lock`] with the hashes of its inputs.
//!
//! A locked resolution resolves nothing: no POM, no `maven-metadata.xml`, no checksum file is
//! asked for. Each locked file (once, however many projects lock it) is taken from the local
//! repository when the record proves it unchanged, hashed when the record cannot, and
//! otherwise downloaded from the locked repository — its URL from the lock, its proxy and
//! credentials from the settings by repository id, no mirror applied (the lock names the
//! repository mirrors chose when it was made) — through [`crate::download::Downloader::fetch_exact`],
//! all at once within the session's requests in flight. A file in the local repository that
//! is not the locked one is an error and is left alone.

use super::dependencies::{collect_request, phase, resolved, ResolveResult};
use super::engine::Engine;
use super::workspace::{answers, resolve_workspace_on, WorkspaceResult};
use super::{Session, SessionError};
use crate::download::exact::hash_file;
use crate::download::{ArtifactFile, ChecksumOutcome, ExpectedFile, Phase, ProgressEvent};
use crate::lock::verified::{Record, Stamp};
use crate::lock::{
    self, FileFacts, FrozenArtifact, FrozenProject, FrozenResult, InputSet, Inputs, Lock,
    LockError, LockedNode, Verification,
};
use crate::repository::{self, RemoteRepository, Selectors};
use crate::resolution::collect::classpath::ClasspathScope;
use crate::resolution::collect::project::{project_request, Root};
use crate::resolution::collect::resolve::{download_total, resolve_artifacts};
use crate::resolution::workspace::Workspace;
use crate::resolution::{Artifact, Dependency};
use futures_util::StreamExt;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a lock takes from the session besides the engine: the inputs that are not the root's.
#[derive(Debug, Clone)]
struct Context {
    /// Active settings profiles that declare repositories or properties (`settings: id`).
    settings_profiles: Vec<String>,
    /// The user properties.
    properties: Vec<(String, String)>,
    /// The session's working directory (the reactor's root of a workspace read from no POM).
    cwd: PathBuf,
}

impl Session {
    fn lock_context(&self) -> Context {
        let settings_profiles = self
            .active_profiles()
            .iter()
            .filter(|a| {
                self.settings.profiles.iter().any(|p| {
                    p.id == a.id && (!p.repositories.is_empty() || !p.properties.is_empty())
                })
            })
            .map(|a| format!("settings: {}", a.id))
            .collect();
        let properties = self
            .user_properties
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Context {
            settings_profiles,
            properties,
            cwd: self.environment.cwd.clone(),
        }
    }

    /// The work of [`Self::resolve_and_lock`] (async and blocking), owning its inputs.
    fn lock_work(
        &self,
        root: &Root,
        repositories: &[RemoteRepository],
        scope: Option<ClasspathScope>,
    ) -> impl FnOnce(&Engine) -> Result<(ResolveResult, Lock), SessionError> + Send + 'static {
        let (root, repositories, ctx) = (
            self.in_cwd(root),
            repositories.to_vec(),
            self.lock_context(),
        );
        move |e| lock_on(e, &ctx, &root, &repositories, scope)
    }

    /// The work of [`Self::resolve_and_lock_workspace`] (async and blocking), owning its inputs.
    fn workspace_lock_work(
        &self,
        workspace: &Workspace,
        repositories: &[RemoteRepository],
        scope: Option<ClasspathScope>,
    ) -> impl FnOnce(&Engine) -> Result<(WorkspaceResult<ResolveResult>, Option<Lock>), SessionError>
           + Send
           + 'static {
        let (ws, repositories, ctx) = (
            workspace.clone(),
            repositories.to_vec(),
            self.lock_context(),
        );
        move |e| lock_workspace_on(e, &ctx, &ws, &repositories, scope)
    }

    /// The repositories of a lock, ready for the downloader: each locked URL with the
    /// settings' proxy and credentials for its id, no mirror applied.
    fn locked_repositories(&self, lock: &Lock) -> HashMap<(String, String), RemoteRepository> {
        let mut selectors: Selectors = self.selectors();
        selectors.mirrors = Default::default();
        lock.repositories
            .iter()
            .filter_map(|r| {
                let declared = RemoteRepository::new(r.id.clone(), r.url.clone());
                repository::inject(&[declared], &selectors)
                    .into_iter()
                    .next()
                    .map(|injected| ((r.id.clone(), r.url.clone()), injected))
            })
            .collect()
    }

    /// [`Self::resolve`] of `root`, then the [`Lock`] of what was resolved (see
    /// [`crate::lock`]). Fails as [`Self::resolve`] does when anything could not
    /// be collected or downloaded: a lock is only made of a complete graph.
    pub async fn lock(
        &self,
        root: &Root,
        repositories: &[RemoteRepository],
        scope: Option<ClasspathScope>,
    ) -> Result<Lock, SessionError> {
        self.resolve_and_lock(root, repositories, scope)
            .await
            .map(|(_, lock)| lock)
    }

    /// [`Self::lock`], blocking (refused inside a Tokio runtime).
    pub fn blocking_lock(
        &self,
        root: &Root,
        repositories: &[RemoteRepository],
        scope: Option<ClasspathScope>,
    ) -> Result<Lock, SessionError> {
        self.blocking_resolve_and_lock(root, repositories, scope)
            .map(|(_, lock)| lock)
    }

    /// [`Self::lock`] with the resolution it locked (its class path, its warnings): what
    /// `m2r resolve --locked` prints and compares.
    pub async fn resolve_and_lock(
        &self,
        root: &Root,
        repositories: &[RemoteRepository],
        scope: Option<ClasspathScope>,
    ) -> Result<(ResolveResult, Lock), SessionError> {
        let work = self.lock_work(root, repositories, scope);
        self.on_engine(move |engine| Self::collecting(engine, work))
            .await
    }

    /// [`Self::resolve_and_lock`], blocking (refused inside a Tokio runtime).
    pub fn blocking_resolve_and_lock(
        &self,
        root: &Root,
        repositories: &[RemoteRepository],
        scope: Option<ClasspathScope>,
    ) -> Result<(ResolveResult, Lock), SessionError> {
        let work = self.lock_work(root, repositories, scope);
        self.blocking_on_engine(move |engine| Self::collecting(engine, work))
    }

    /// [`Self::resolve_workspace`] of every module of `workspace`, then, when every module
    /// resolved completely, the [`Lock`] of the whole build: one [`lock::LockedProject`] per
    /// module in reactor order. A module's artifact that the reactor gives (another module)
    /// is a [module node](LockedNode::module): its file is the reactor's, relative to the
    /// reactor's root (the aggregator's folder, else the session's working directory), and is
    /// not hashed. The lock is `None` when a module failed (its [`ModuleResult`](super::ModuleResult)
    /// says why); `Err` only when the engine cannot run or a file cannot be hashed.
    pub async fn resolve_and_lock_workspace(
        &self,
        workspace: &Workspace,
        repositories: &[RemoteRepository],
        scope: Option<ClasspathScope>,
    ) -> Result<(WorkspaceResult<ResolveResult>, Option<Lock>), SessionError> {
        let work = self.workspace_lock_work(workspace, repositories, scope);
        self.on_engine(move |engine| Self::collecting(engine, work))
            .await
    }

    /// [`Self::resolve_and_lock_workspace`], blocking (refused inside a Tokio runtime).
    pub fn blocking_resolve_and_lock_workspace(
        &self,
        workspace: &Workspace,
        repositories: &[RemoteRepository],
        scope: Option<ClasspathScope>,
    ) -> Result<(WorkspaceResult<ResolveResult>, Option<Lock>), SessionError> {
        let work = self.workspace_lock_work(workspace, repositories, scope);
        self.blocking_on_engine(move |engine| Self::collecting(engine, work))
    }

    /// The [`Lock`] of every module of `workspace` ([`Self::resolve_and_lock_workspace`]);
    /// a module that failed is the error of the first one that did, in reactor order.
    pub async fn lock_workspace(
        &self,
        workspace: &Workspace,
        repositories: &[RemoteRepository],
        scope: Option<ClasspathScope>,
    ) -> Result<Lock, SessionError> {
        let answer = self
            .resolve_and_lock_workspace(workspace, repositories, scope)
            .await?;
        workspace_lock(answer)
    }

    /// [`Self::lock_workspace`], blocking (refused inside a Tokio runtime).
    pub fn blocking_lock_workspace(
        &self,
        workspace: &Workspace,
        repositories: &[RemoteRepository],
        scope: Option<ClasspathScope>,
    ) -> Result<Lock, SessionError> {
        let answer = self.blocking_resolve_and_lock_workspace(workspace, repositories, scope)?;
        workspace_lock(answer)
    }

    /// Where the files of a lock's module nodes are: [`Lock::directory`] (under the working
    /// directory when relative), else the working directory.
    fn reactor_root(&self, lock: &Lock) -> PathBuf {
        match &lock.directory {
            Some(d) => self.environment.cwd.join(d),
            None => self.environment.cwd.clone(),
        }
    }

    /// Every file of `lock` in the local repository, verified, without resolving anything (see
    /// [`crate::lock`]). A file that could not be fetched or is not the locked
    /// one is [`SessionError::Frozen`], which keeps every artifact's answer.
    pub async fn resolve_locked(&self, lock: &Lock) -> Result<FrozenResult, SessionError> {
        let (lock, repos, root) = (
            lock.clone(),
            self.locked_repositories(lock),
            self.reactor_root(lock),
        );
        self.on_engine(move |engine| frozen_task(engine, lock, repos, root))
            .await
    }

    /// [`Self::resolve_locked`], blocking (refused inside a Tokio runtime).
    pub fn blocking_resolve_locked(&self, lock: &Lock) -> Result<FrozenResult, SessionError> {
        let (lock, repos, root) = (
            lock.clone(),
            self.locked_repositories(lock),
            self.reactor_root(lock),
        );
        self.blocking_on_engine(move |engine| frozen_task(engine, lock, repos, root))
    }
}

/// The lock of a workspace answer, or the first module's error (a lock is missing only when
/// a module failed).
fn workspace_lock(
    (results, lock): (WorkspaceResult<ResolveResult>, Option<Lock>),
) -> Result<Lock, SessionError> {
    if let Some(lock) = lock {
        return Ok(lock);
    }
    match results.modules.into_iter().find_map(|m| m.result.err()) {
        Some(e) => Err(e),
        None => Ok(Lock::new()),
    }
}

/// A file of the local repository (`path` under `local`) as the lock's relative path.
fn relative(local: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(local).ok()?;
    let parts: Vec<&str> = rel
        .components()
        .map(|c| c.as_os_str().to_str())
        .collect::<Option<Vec<_>>>()?;
    Some(parts.join("/"))
}

/// Resolution, then the lock, on a blocking thread of the engine's runtime.
fn lock_on(
    engine: &Engine,
    ctx: &Context,
    root: &Root,
    repositories: &[RemoteRepository],
    scope: Option<ClasspathScope>,
) -> Result<(ResolveResult, Lock), SessionError> {
    let mut profiles = Vec::new();
    if let Root::Pom(file) = root {
        // The project's active profiles (a failure is reported by the collection below).
        if let Ok(d) = engine
            .runtime
            .handle()
            .block_on(engine.reader.build_project(file, repositories))
        {
            profiles.extend(d.active_profiles.iter().cloned());
        }
    }
    let (collect, request) = phase(engine, Phase::Collecting, None, || {
        collect_request(&engine.source(), root, repositories)
    })?;
    let total = download_total(&collect.graph, scope);
    let artifacts = phase(engine, Phase::Downloading, Some(total), || {
        engine.runtime.handle().block_on(resolve_artifacts(
            engine.downloader(),
            &collect.graph,
            scope,
        ))
    });
    let result = resolved(ResolveResult {
        collect,
        scope,
        artifacts,
    })?;
    let mut locker = Locker::new(engine, ctx, repositories, scope, None);
    locker.add(
        &result,
        &request.dependencies,
        &request.managed_dependencies,
        &profiles,
    )?;
    let lock = locker.finish();
    Ok((result, lock))
}

/// Every module resolved, then (when all of them resolved completely) the lock of every
/// module, on a blocking thread of the engine's runtime.
fn lock_workspace_on(
    engine: &Engine,
    ctx: &Context,
    workspace: &Workspace,
    repositories: &[RemoteRepository],
    scope: Option<ClasspathScope>,
) -> Result<(WorkspaceResult<ResolveResult>, Option<Lock>), SessionError> {
    let results = resolve_workspace_on(engine, workspace, repositories, scope);
    let answers = answers(workspace, results, resolved);
    if answers.failures().next().is_some() {
        return Ok((answers, None));
    }
    let mut locker = Locker::new(engine, ctx, repositories, scope, Some(workspace));
    for (m, answer) in workspace.modules().iter().zip(&answers.modules) {
        if let Ok(result) = &answer.result {
            let request = project_request(&m.project, repositories);
            locker.add(
                result,
                &request.dependencies,
                &request.managed_dependencies,
                &m.active_profiles,
            )?;
        }
    }
    let lock = locker.finish();
    Ok((answers, Some(lock)))
}

/// Builds a [`Lock`] project by project: hashes each resolved file once, notes it in the
/// record of verified files, and keeps what [`lock::repositories`] needs.
struct Locker<'a> {
    ctx: &'a Context,
    repositories: &'a [RemoteRepository],
    scope: Option<ClasspathScope>,
    local: PathBuf,
    record: Record,
    /// The reactor of the projects, and its root folder (module files are relative to it).
    reactor: Option<(&'a Workspace, PathBuf)>,
    projects: Vec<lock::LockedProject>,
    facts: Vec<Vec<FileFacts>>,
    /// Hashes of files already hashed for an earlier project: path → (size, sha256, sha1).
    hashed: HashMap<PathBuf, (u64, String, String)>,
}

impl<'a> Locker<'a> {
    fn new(
        engine: &Engine,
        ctx: &'a Context,
        repositories: &'a [RemoteRepository],
        scope: Option<ClasspathScope>,
        workspace: Option<&'a Workspace>,
    ) -> Self {
        let local = engine.downloader().local_repository().to_path_buf();
        let reactor = workspace.map(|ws| {
            let root = ws
                .root_pom()
                .and_then(Path::parent)
                .map(Path::to_path_buf)
                .unwrap_or_else(|| ctx.cwd.clone());
            (ws, root)
        });
        Locker {
            ctx,
            repositories,
            scope,
            record: Record::load(&local),
            local,
            reactor,
            projects: Vec::new(),
            facts: Vec::new(),
            hashed: HashMap::new(),
        }
    }

    /// The locked project of one resolution (complete: every file present).
    fn add(
        &mut self,
        result: &ResolveResult,
        dependencies: &[Dependency],
        management: &[Dependency],
        project_profiles: &[String],
    ) -> Result<(), SessionError> {
        let graph = result.graph();
        let mut facts = Vec::new();
        for a in &result.artifacts {
            let node = graph.node(a.node);
            let label = a.artifact.to_string();
            if let Some(module_file) = self.module_file(a) {
                facts.push((
                    a.node,
                    FileFacts {
                        repository: None,
                        repository_url: None,
                        file: module_file,
                        module: true,
                        size: 0,
                        sha256: String::new(),
                        sha1: String::new(),
                    },
                ));
                continue;
            }
            let (path, file, repository) = match (&a.download, &a.artifact.local_path) {
                (Some(d), _) => {
                    let file = relative(&self.local, &d.path)
                        .unwrap_or_else(|| d.path.display().to_string());
                    (d.path.clone(), file, d.repository.clone())
                }
                (None, Some(system)) => (PathBuf::from(system), system.clone(), None),
                (None, None) => match &a.file {
                    Ok(p) => (p.clone(), p.display().to_string(), None),
                    Err(_) => continue,
                },
            };
            let (size, sha256, sha1) = match self.hashed.get(&path) {
                Some(h) => h.clone(),
                None => {
                    let h = hash_file(&path).map_err(|source| SessionError::Lock {
                        source: Box::new(LockError::Hash {
                            artifact: label,
                            path: path.clone(),
                            source,
                        }),
                    })?;
                    self.hashed.insert(path.clone(), h.clone());
                    h
                }
            };
            if a.download.is_some() {
                if let Some(stamp) = Stamp::of(&path) {
                    self.record.note(&file, stamp, &sha256);
                }
            }
            let repository_url = repository.as_ref().and_then(|id| {
                node.repositories
                    .iter()
                    .find(|r| &r.id == id)
                    .map(|r| r.url.as_written().to_string())
            });
            facts.push((
                a.node,
                FileFacts {
                    repository,
                    repository_url,
                    file,
                    module: false,
                    size,
                    sha256,
                    sha1,
                },
            ));
        }
        let mut profiles = project_profiles.to_vec();
        profiles.extend(self.ctx.settings_profiles.iter().cloned());
        let inputs = Inputs::compute(InputSet {
            dependencies,
            management,
            repositories: self.repositories,
            profiles: &profiles,
            properties: &self.ctx.properties,
        });
        let scope_name = self.scope.map(|s| s.to_string());
        self.projects
            .push(lock::project(graph, scope_name.as_deref(), inputs, &facts));
        self.facts
            .push(facts.into_iter().map(|(_, f)| f).collect::<Vec<_>>());
        Ok(())
    }

    /// The reactor's file of a module's artifact, relative to the reactor's root; `None` for
    /// anything the repositories gave.
    fn module_file(&self, a: &crate::resolution::collect::resolve::ResolvedNode) -> Option<String> {
        let (ws, root) = self.reactor.as_ref()?;
        if a.download.is_some() || !ws.contains(&a.artifact) {
            return None;
        }
        let file = a.file.as_ref().ok()?;
        Some(reactor_relative(root, file))
    }

    /// The lock of every project added; the record of verified files is written.
    fn finish(mut self) -> Lock {
        if let Err((path, e)) = self.record.save(&self.local) {
            tracing::warn!(
                "cannot write the record of verified files {}: {e}",
                path.display()
            );
        }
        let mut lock = Lock::new();
        lock.repositories = lock::repositories(&mut self.projects, &self.facts);
        lock.projects = self.projects;
        lock.normalize();
        lock
    }
}

/// `path` relative to `base`, `/`-separated, `..` where it lies outside (both as written,
/// `.` segments dropped); a relative `path` is kept as it is.
fn reactor_relative(base: &Path, path: &Path) -> String {
    use std::path::Component;
    let plain = |p: &Path| -> Vec<String> {
        p.components()
            .filter(|c| !matches!(c, Component::CurDir))
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect()
    };
    if path.is_relative() {
        return plain(path).join("/");
    }
    let (b, p) = (plain(base), plain(path));
    let common = b.iter().zip(&p).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = std::iter::repeat_n("..".to_string(), b.len() - common).collect();
    parts.extend(p[common..].iter().cloned());
    parts.join("/")
}

/// The path of a module's locked `file` (see [`LockedNode::module`]) under `root`.
fn module_path(root: &Path, file: &str) -> PathBuf {
    file.split('/')
        .filter(|s| !s.is_empty())
        .fold(root.to_path_buf(), |p, s| p.join(s))
}

/// One locked file to make present and verified.
#[derive(Debug, Clone)]
struct Job {
    /// The artifact it is the file of (first project that locks it).
    artifact: Artifact,
    node: LockedNode,
    /// Where it must be.
    target: PathBuf,
    /// Its path in the repositories and the local repository (`None`: a system path).
    rel: Option<crate::download::RepoPath>,
    /// The repository to download it from.
    repository: Option<RemoteRepository>,
}

/// Where a locked artifact's file comes from.
enum Plan {
    /// The job of this index.
    File(usize),
    /// A module of the locked reactor: this path, not checked.
    Module(PathBuf),
}

/// A locked artifact of a project: coordinate, scope, and its plan (or why there is none).
type Planned = (String, String, Result<Plan, Arc<LockError>>);

type Outcome = Result<(Verification, Option<(String, Stamp, String)>), Arc<LockError>>;

fn artifact_of(coord: &str) -> Artifact {
    Artifact::parse(coord).unwrap_or_else(|_| Artifact::new("", coord, "", "", ""))
}

/// The version in a locked file's name (a timestamped snapshot's build), else the coordinate's.
fn file_version(artifact: &Artifact, file: &str) -> String {
    let name = file.rsplit('/').next().unwrap_or(file);
    let rest = name
        .strip_prefix(&format!("{}-", artifact.artifact_id))
        .and_then(|r| r.strip_suffix(&format!(".{}", artifact.extension)));
    let rest = match (rest, artifact.classifier.is_empty()) {
        (Some(r), true) => Some(r),
        (Some(r), false) => r.strip_suffix(&format!("-{}", artifact.classifier)),
        (None, _) => None,
    };
    rest.filter(|v| !v.is_empty())
        .map(str::to_string)
        .unwrap_or_else(|| artifact.version.clone())
}

async fn one(engine: &Engine, record: &Record, job: &Job) -> Outcome {
    let label = job.node.coord.clone();
    let sha = job.node.sha256.as_str();
    let key = job.rel.as_ref().map(|r| r.to_string());
    let cached = |engine: &Engine| {
        let file = ArtifactFile {
            artifact: job.artifact.clone(),
            version: file_version(&job.artifact, &job.node.file),
            path: job.target.clone(),
            repository: job.node.repository.clone(),
            downloaded: false,
            checksum: ChecksumOutcome::AlreadyLocal,
            warnings: Vec::new(),
        };
        engine
            .listener
            .on_event(&ProgressEvent::Cached { file: &file });
    };
    if let Some(stamp) = Stamp::of(&job.target) {
        if let Some(k) = &key {
            if record.proves(k, &stamp, sha) {
                cached(engine);
                return Ok((Verification::Recorded, None));
            }
        }
        let target = job.target.clone();
        let hashed = tokio::task::spawn_blocking(move || hash_file(&target))
            .await
            .map_err(|e| std::io::Error::other(format!("hashing task failed: {e}")))
            .and_then(|r| r)
            .map_err(|source| {
                Arc::new(LockError::Hash {
                    artifact: label.clone(),
                    path: job.target.clone(),
                    source,
                })
            })?;
        let (_, actual, _) = hashed;
        if !actual.eq_ignore_ascii_case(sha) {
            return Err(Arc::new(LockError::LocalMismatch {
                artifact: label,
                path: job.target.clone(),
                expected: sha.to_string(),
                actual,
            }));
        }
        cached(engine);
        return Ok((Verification::Hashed, key.map(|k| (k, stamp, actual))));
    }
    let (Some(repo), Some(rel)) = (&job.repository, &job.rel) else {
        return Err(Arc::new(LockError::NotDownloadable {
            artifact: label,
            path: job.target.clone(),
        }));
    };
    let expected = ExpectedFile {
        sha256: sha,
        sha1: Some(job.node.sha1.as_str()),
        size: Some(job.node.size),
    };
    let mut artifact = job.artifact.clone();
    artifact.version = file_version(&job.artifact, &job.node.file);
    let fetched = engine
        .downloader()
        .fetch_exact(repo, rel, &artifact, expected)
        .await
        .map_err(|e| Arc::new(LockError::Download(Box::new(e))))?;
    let stamp = Stamp::of(&fetched.path);
    let how = if fetched.downloaded {
        Verification::Downloaded
    } else {
        Verification::Hashed
    };
    Ok((
        how,
        stamp.map(|s| (rel.to_string(), s, sha.to_ascii_lowercase())),
    ))
}

async fn frozen_task(
    engine: Arc<Engine>,
    lock: Lock,
    repositories: HashMap<(String, String), RemoteRepository>,
    reactor_root: PathBuf,
) -> Result<FrozenResult, SessionError> {
    {
        let local = engine.downloader().local_repository().to_path_buf();
        // One job per file, however many projects lock it.
        let mut jobs: Vec<Job> = Vec::new();
        let mut index: HashMap<PathBuf, usize> = HashMap::new();
        let mut planned: Vec<Vec<Planned>> = Vec::new();
        for p in &lock.projects {
            let mut items = Vec::new();
            for node in p.classpath_order() {
                if node.module {
                    let path = module_path(&reactor_root, &node.file);
                    items.push((
                        node.coord.clone(),
                        node.scope.clone(),
                        Ok(Plan::Module(path)),
                    ));
                    continue;
                }
                let artifact = artifact_of(&node.coord);
                let planned_job = if node.scope == "system" {
                    Ok((PathBuf::from(&node.file), None))
                } else {
                    lock::repo_path(&node.coord, &node.file)
                        .map(|rel| (local.join(rel.as_str()), Some(rel)))
                        .map_err(Arc::new)
                };
                let job = planned_job.map(|(target, rel)| {
                    *index.entry(target.clone()).or_insert_with(|| {
                        let repository = lock.repository_url(node).and_then(|url| {
                            let id = node.repository.clone().unwrap_or_default();
                            repositories.get(&(id, url.to_string())).cloned()
                        });
                        jobs.push(Job {
                            artifact,
                            node: node.clone(),
                            target,
                            rel,
                            repository,
                        });
                        jobs.len() - 1
                    })
                });
                let job = job.map(Plan::File);
                items.push((node.coord.clone(), node.scope.clone(), job));
            }
            planned.push(items);
        }
        let record = Arc::new(Record::load(&local));
        let limit = engine.downloader().config().max_in_flight.max(1);
        engine.listener.on_event(&ProgressEvent::PhaseStarted {
            phase: Phase::Downloading,
            total: Some(jobs.len() as u64),
        });
        let shared: Arc<[Job]> = Arc::from(jobs.clone());
        let outcomes: Vec<Outcome> = futures_util::stream::iter(0..shared.len())
            .map(|i| {
                let (engine, record, jobs) = (engine.clone(), record.clone(), shared.clone());
                async move { one(&engine, &record, &jobs[i]).await }
            })
            .buffered(limit)
            .collect()
            .await;
        drop(shared);
        engine.listener.on_event(&ProgressEvent::PhaseFinished {
            phase: Phase::Downloading,
        });
        let mut record = Arc::try_unwrap(record).unwrap_or_default();
        let mut result = FrozenResult::default();
        for o in outcomes.iter().flatten() {
            match o.0 {
                Verification::Recorded => result.recorded += 1,
                Verification::Hashed => result.hashed += 1,
                Verification::Downloaded => result.downloaded += 1,
                Verification::Reactor => {}
            }
            if let Some((rel, stamp, sha)) = &o.1 {
                record.note(rel, *stamp, sha);
            }
        }
        if let Err((path, e)) = record.save(&local) {
            tracing::warn!(
                "cannot write the record of verified files {}: {e}",
                path.display()
            );
        }
        for (p, items) in lock.projects.iter().zip(planned) {
            let artifacts = items
                .into_iter()
                .map(|(coord, scope, job)| {
                    let answer = job.and_then(|plan| match plan {
                        Plan::Module(path) => Ok(Err(path)),
                        Plan::File(i) => match &outcomes[i] {
                            Ok((how, _)) => Ok(Ok((i, *how))),
                            Err(e) => Err(e.clone()),
                        },
                    });
                    match answer {
                        Ok(Ok((i, how))) => FrozenArtifact {
                            coord,
                            scope,
                            file: Ok(class_path_file(&engine, &jobs[i])),
                            verification: Some(how),
                        },
                        Ok(Err(module)) => FrozenArtifact {
                            coord,
                            scope,
                            file: Ok(module),
                            verification: Some(Verification::Reactor),
                        },
                        Err(e) => FrozenArtifact {
                            coord,
                            scope,
                            file: Err(e),
                            verification: None,
                        },
                    }
                })
                .collect();
            result.projects.push(FrozenProject {
                root: p.root.clone(),
                artifacts,
            });
        }
        match result.first_failure().cloned() {
            None => Ok(result),
            Some(first) => Err(SessionError::Frozen {
                source: Box::new(first),
                result: Box::new(result),
            }),
        }
    }
}

/// The class-path file of a verified job: a timestamped snapshot's `-SNAPSHOT` copy (as
/// Resolver hands it out), else the file.
fn class_path_file(engine: &Engine, job: &Job) -> PathBuf {
    if job.rel.is_none() {
        return job.target.clone();
    }
    let version = file_version(&job.artifact, &job.node.file);
    if version == job.artifact.version {
        return job.target.clone();
    }
    engine.downloader().class_path_file(&ArtifactFile {
        artifact: job.artifact.clone(),
        version,
        path: job.target.clone(),
        repository: job.node.repository.clone(),
        downloaded: false,
        checksum: ChecksumOutcome::AlreadyLocal,
        warnings: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_files_are_relative_to_the_reactor_root() {
        for (base, path, want) in [
            (
                "/src/app",
                "/src/app/core/target/classes",
                "core/target/classes",
            ),
            ("/src/app/./", "/src/app/core/pom.xml", "core/pom.xml"),
            (
                "/src/app",
                "/src/other/target/classes",
                "../other/target/classes",
            ),
            ("/src/app", "/elsewhere/x", "../../elsewhere/x"),
            ("/src/app", "target/classes", "target/classes"),
            ("/src/app", "/src/app", ""),
        ] {
            assert_eq!(
                reactor_relative(Path::new(base), Path::new(path)),
                want,
                "{base} {path}"
            );
        }
        assert_eq!(
            module_path(Path::new("/src/app"), "../other/target/classes"),
            Path::new("/src/app/../other/target/classes")
        );
    }

    #[test]
    fn versions_in_locked_file_names() {
        let a = Artifact::parse("g:a:jar:1.0-SNAPSHOT").unwrap();
        assert_eq!(
            file_version(&a, "g/a/1.0-SNAPSHOT/a-1.0-20240102.030405-7.jar"),
            "1.0-20240102.030405-7"
        );
        let c = Artifact::parse("g:a:jar:tests:1.0-SNAPSHOT").unwrap();
        assert_eq!(
            file_version(&c, "g/a/1.0-SNAPSHOT/a-1.0-20240102.030405-7-tests.jar"),
            "1.0-20240102.030405-7"
        );
        let r = Artifact::parse("g:a:1.0").unwrap();
        assert_eq!(file_version(&r, "g/a/1.0/a-1.0.jar"), "1.0");
        assert_eq!(file_version(&r, "/opt/x.jar"), "1.0");
        assert_eq!(
            relative(Path::new("/m2"), Path::new("/m2/g/a/1/a-1.jar")).as_deref(),
            Some("g/a/1/a-1.jar")
        );
    }
}
