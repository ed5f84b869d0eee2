//! The resolver: turns coordinates into files in the local repository, many at a time.
//!
//! Per artifact (spec §8.3–§8.8): resolve `SNAPSHOT`/`LATEST`/`RELEASE` through metadata (local
//! first, then each eligible repository, cached per update policy); use the local file when the
//! enhanced local repository manager says it is available; otherwise try the repositories in order
//! (only those whose release/snapshot policy is enabled; only the one the version came from when
//! metadata picked it), skipping blocked mirrors and not-found results cached in `*.lastUpdated`.
//! A download streams into a temporary file in the target directory, hashing as it goes, while the
//! `.sha1` is fetched concurrently; the checksum is checked (included header checksums first, then
//! `.sha1`, `.md5`, `.sha256`, `.sha512`), a mismatch re-downloads once, then the policy decides
//! (`fail` / `warn` / `ignore`); the file is renamed into place under a cross-process lock, its
//! checksum persisted and `_remote.repositories` updated.
//!
//! Hostile servers ([`DownloadLimits`], [`crate::download::segment`]): checksum files and
//! metadata are read into memory only up to a ceiling, artifacts stream to disk up to another;
//! every metadata value that becomes a path is validated before the file is used or stored
//! (an invalid file is a warning naming the repository, never a path), and every local path
//! written is checked to be inside the local repository.
//!
//! [`Resolver`] is async (tokio) with a bounded number of in-flight HTTP requests;
//! [`BlockingResolver`] wraps it for callers without a runtime.

// Errors carry what/where text for the user; they are per artifact and rare, so their size
// does not matter.
#![allow(clippy::result_large_err)]

use crate::download::chain::{LocalTail, TailHit};
use crate::download::checksum::{
    self, included_checksums, parse_checksum_file, parse_checksum_policy, Algorithm,
};
use crate::download::coords::{
    base_version, is_snapshot_version, is_snapshot_version_ignoring_case, Coordinate,
};
use crate::download::error::DownloadError;
use crate::download::filter::RepositoryFilter;
use crate::download::layout;
use crate::download::ledger::Ledger;
use crate::download::local::{
    read_properties, temp_builder, Availability, LocalRepository, RESOLVER_STATUS,
};
use crate::download::metadata::{Metadata, VersionCandidates, VersionRequest};
use crate::download::policy::{from_millis, to_millis, Clock, SystemClock, UpdatePolicy};
use crate::download::progress::{NoProgress, ProgressListener};
use crate::download::segment::{RepoPath, SegmentError, SegmentKind};
use crate::repository::{ChecksumPolicy, RemoteRepository};
use crate::transport::limits::BodyTooLarge;
use crate::transport::{
    redact_url, BodySink, Fetched, Transport, TransportError, TransportOptions,
};
use futures_util::StreamExt;
use http::header::HeaderMap;
use sha1::{Digest, Sha1};
use std::collections::HashSet;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tokio::sync::Semaphore;

/// Default number of HTTP requests in flight, chosen by measurement on the bench testbed
/// (`benches/download.rs`, 1000 artifacts of 32 KiB = 2000 requests, cold): on direct loopback
/// routes 8..128 are equal (~0.25 s HTTP, ~0.3 s HTTPS); with 20 ms of round-trip time the
/// time falls with concurrency (HTTPS: 8 → 5.9 s, 16 → 3.1 s, 32 → 1.6 s, 64 → 1.0 s,
/// 128 → 0.6 s). 64 takes most of that gain while staying polite to public servers on HTTP/1.1,
/// where every request in flight is a connection (Maven uses 5).
pub const DEFAULT_IN_FLIGHT: usize = 64;

/// How much a server may make the resolver hold or write, per file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DownloadLimits {
    /// Largest checksum file (`.sha1`, `.md5`, ...) read: a digest and a file name fit in far
    /// less. Default [`DEFAULT_MAX_CHECKSUM_BYTES`].
    pub max_checksum_bytes: u64,
    /// Largest `maven-metadata.xml` read or kept. Default [`DEFAULT_MAX_METADATA_BYTES`].
    pub max_metadata_bytes: u64,
    /// Largest artifact streamed to disk (announced or received). Default
    /// [`DEFAULT_MAX_ARTIFACT_BYTES`].
    pub max_artifact_bytes: u64,
}

/// 1 KiB: a SHA-512 digest (128 hex digits) with a file name after it fits many times.
pub const DEFAULT_MAX_CHECKSUM_BYTES: u64 = 1024;
/// 16 MiB: the largest `maven-metadata.xml` files of Maven Central are about 1 MiB.
pub const DEFAULT_MAX_METADATA_BYTES: u64 = 16 << 20;
/// 8 GiB: above any artifact Maven repositories serve, below a full disk. An endless body stops
/// here (or at the low-speed limit, when it trickles).
pub const DEFAULT_MAX_ARTIFACT_BYTES: u64 = 8 << 30;

impl Default for DownloadLimits {
    fn default() -> Self {
        DownloadLimits {
            max_checksum_bytes: DEFAULT_MAX_CHECKSUM_BYTES,
            max_metadata_bytes: DEFAULT_MAX_METADATA_BYTES,
            max_artifact_bytes: DEFAULT_MAX_ARTIFACT_BYTES,
        }
    }
}

/// Everything the resolver needs.
#[derive(Clone)]
pub struct ResolverConfig {
    /// Repositories in Maven's order, after mirrors, proxies and authentication.
    pub repositories: Vec<RemoteRepository>,
    /// The local repository (Maven's default is `${user.home}/.m2/repository`).
    pub local_repository: PathBuf,
    /// Answer from the local repository only.
    pub offline: bool,
    /// Maximum HTTP requests in flight (also the number of artifacts worked on at once).
    pub max_in_flight: usize,
    /// HTTP options (extra CAs, env snapshot, retries, default timeouts).
    pub transport: TransportOptions,
    /// Time source for update policies.
    pub clock: Arc<dyn Clock>,
    /// Session-wide checksum policy (`-C` = fail, `-c` = warn), replacing the repositories'.
    pub checksum_policy: Option<ChecksumPolicy>,
    /// Session-wide update policy replacing every repository's, releases and snapshots alike
    /// (`-U` = `always`).
    pub update_policy: Option<String>,
    /// Copy a downloaded timestamped snapshot to its `-SNAPSHOT` file name too (Resolver default).
    pub snapshot_normalization: bool,
    /// Progress events.
    pub listener: Arc<dyn ProgressListener>,
    /// Size ceilings for what servers send.
    pub limits: DownloadLimits,
    /// The chained local repository's read-only tails (`maven.repo.local.tail`), read after
    /// `local_repository` and never written.
    pub tail: Option<LocalTail>,
    /// Remote repository filters: a repository they refuse is not asked (no request).
    pub filter: Option<Arc<RepositoryFilter>>,
}

impl std::fmt::Debug for ResolverConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResolverConfig")
            .field(
                "repositories",
                &self.repositories.iter().map(|r| &r.id).collect::<Vec<_>>(),
            )
            .field("local_repository", &self.local_repository)
            .field("offline", &self.offline)
            .field("max_in_flight", &self.max_in_flight)
            .finish_non_exhaustive()
    }
}

impl ResolverConfig {
    /// Defaults: online, [`DEFAULT_IN_FLIGHT`] requests, system clock, repository policies.
    pub fn new(repositories: Vec<RemoteRepository>, local_repository: impl Into<PathBuf>) -> Self {
        ResolverConfig {
            repositories,
            local_repository: local_repository.into(),
            offline: false,
            max_in_flight: DEFAULT_IN_FLIGHT,
            transport: TransportOptions::default(),
            clock: Arc::new(SystemClock),
            checksum_policy: None,
            update_policy: None,
            snapshot_normalization: true,
            listener: Arc::new(NoProgress),
            limits: DownloadLimits::default(),
            tail: None,
            filter: None,
        }
    }
}

/// How the checksum of a resolved artifact was established.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChecksumOutcome {
    /// Downloaded and matched this algorithm's expected value.
    Verified {
        /// `SHA-1`, `MD5`, ...
        algorithm: &'static str,
    },
    /// Already in the local repository (verified when it was downloaded).
    AlreadyLocal,
    /// The repository's policy is `ignore`.
    Ignored,
    /// Accepted under the `warn` policy although it could not be verified.
    Unverified {
        /// Why.
        reason: String,
    },
}

/// An artifact in the local repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedArtifact {
    /// The coordinate as requested.
    pub coordinate: Coordinate,
    /// The resolved version (timestamped for snapshots).
    pub version: String,
    /// The file.
    pub path: PathBuf,
    /// The repository it was downloaded from (`None`: installed locally or untracked).
    pub repository: Option<String>,
    /// Whether this call downloaded it.
    pub downloaded: bool,
    /// Checksum status.
    pub checksum: ChecksumOutcome,
    /// Warnings (checksum accepted under `warn`, unknown policies, ...).
    pub warnings: Vec<String>,
}

impl ResolvedArtifact {
    /// False when a checksum problem was accepted under the `warn` policy.
    pub fn is_verified(&self) -> bool {
        !matches!(self.checksum, ChecksumOutcome::Unverified { .. })
    }
}

/// The async resolver. Clone it freely (shared state).
#[derive(Clone)]
pub struct Resolver {
    inner: Arc<Inner>,
}

struct Inner {
    cfg: ResolverConfig,
    transport: Transport,
    local: LocalRepository,
    permits: Semaphore,
    /// Metadata checked in this session (`repoId|path`): checked at most once.
    checked: Mutex<HashSet<String>>,
    /// What this session asked and recorded (for callers replaying Maven's order).
    ledger: Ledger,
}

impl std::fmt::Debug for Resolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resolver")
            .field("config", &self.inner.cfg)
            .finish()
    }
}

impl Resolver {
    /// Builds the transport (reads extra CA files).
    pub fn new(config: ResolverConfig) -> Result<Self, DownloadError> {
        let transport = Transport::new(config.transport.clone()).map_err(DownloadError::Setup)?;
        let local = LocalRepository::new(config.local_repository.clone());
        let permits = Semaphore::new(config.max_in_flight.max(1));
        Ok(Resolver {
            inner: Arc::new(Inner {
                cfg: config,
                transport,
                local,
                permits,
                checked: Mutex::new(HashSet::new()),
                ledger: Ledger::default(),
            }),
        })
    }

    /// What this resolver asked and recorded in this session: whether the order of requests
    /// mattered, and a replay in Maven's order ([`Ledger`]).
    pub(crate) fn ledger(&self) -> &Ledger {
        &self.inner.ledger
    }

    /// The transport (to inspect the client pool).
    pub fn transport(&self) -> &Transport {
        &self.inner.transport
    }

    /// Resolves every coordinate; results in input order.
    pub async fn resolve(
        &self,
        coords: &[Coordinate],
    ) -> Vec<Result<ResolvedArtifact, DownloadError>> {
        let limit = self.inner.cfg.max_in_flight.max(1);
        futures_util::stream::iter(coords.iter().cloned())
            .map(|c| {
                let inner = self.inner.clone();
                async move {
                    let label = c.to_string();
                    match tokio::spawn(async move { inner.resolve_reporting(&c).await }).await {
                        Ok(r) => r,
                        Err(e) => Err(DownloadError::Io {
                            artifact: label,
                            path: PathBuf::new(),
                            source: std::io::Error::other(format!("resolver task failed: {e}")),
                        }),
                    }
                }
            })
            .buffered(limit)
            .collect()
            .await
    }

    /// Resolves one coordinate.
    pub async fn resolve_one(&self, coord: &Coordinate) -> Result<ResolvedArtifact, DownloadError> {
        self.inner.resolve_reporting(coord).await
    }

    /// Resolves one coordinate from `repositories` instead of the configured list: POMs,
    /// parents and BOMs come from the repositories in force at that point of a dependency
    /// graph (the request's, plus those POMs declare, already mirrored and authenticated).
    pub async fn resolve_in(
        &self,
        coord: &Coordinate,
        repositories: &[RemoteRepository],
    ) -> Result<ResolvedArtifact, DownloadError> {
        let r = self.inner.resolve_one(coord, repositories).await;
        match &r {
            Ok(a) => self.inner.cfg.listener.done(a),
            Err(e) => self.inner.cfg.listener.failed(coord, e),
        }
        r
    }

    /// The version `coord`'s version stands for: `LATEST`, `RELEASE` and `SNAPSHOT` versions
    /// through `maven-metadata.xml` of `repositories` (as [`Self::resolve_in`] does before
    /// downloading), any other version as is.
    pub async fn resolve_version_in(
        &self,
        coord: &Coordinate,
        repositories: &[RemoteRepository],
    ) -> Result<String, DownloadError> {
        match VersionRequest::of(&coord.version) {
            VersionRequest::Fixed => Ok(coord.version.clone()),
            request => {
                let mut warnings = Vec::new();
                self.inner
                    .resolve_version(coord, request, repositories, &mut warnings)
                    .await
                    .map(|(v, _)| v)
            }
        }
    }

    /// The versions `groupId:artifactId` has according to `maven-metadata.xml`: the local
    /// repository's own (`None`), then each repository's (its id), refreshed per update policy
    /// and checked at most once per session, as Maven's `DefaultVersionRangeResolver` reads them.
    /// Blocked repositories and repositories with releases and snapshots both disabled are not
    /// asked, a repository lists only the versions its policies enable (no snapshots from a
    /// releases-only repository); a repository without metadata lists nothing; unreadable
    /// metadata is reported in the second list and skipped.
    pub async fn list_versions(
        &self,
        group_id: &str,
        artifact_id: &str,
        repositories: &[RemoteRepository],
    ) -> (Vec<(String, Option<String>)>, Vec<String>) {
        let coord = Coordinate {
            group_id: group_id.to_string(),
            artifact_id: artifact_id.to_string(),
            extension: "pom".into(),
            classifier: String::new(),
            version: String::new(),
        };
        let mut out = Vec::new();
        let mut problems = Vec::new();
        let local_md = match self
            .inner
            .local
            .metadata_file(group_id, artifact_id, "", None)
        {
            Ok(path) => path,
            Err(source) => {
                problems.push(invalid_path(&coord, source).to_string());
                return (out, problems);
            }
        };
        match self.inner.read_local_metadata(&local_md, None) {
            Ok(Some(md)) => out.extend(
                md.versioning
                    .iter()
                    .flat_map(|v| v.versions.iter())
                    .map(|v| (v.clone(), None)),
            ),
            Ok(None) => {}
            Err(e) => problems.push(e),
        }
        let mut warnings = Vec::new();
        for repo in repositories
            .iter()
            .filter(|r| !r.blocked && (r.releases.enabled || r.snapshots.enabled))
        {
            match self
                .inner
                .refresh_metadata(repo, &coord, "", repo.snapshots.enabled, &mut warnings)
                .await
            {
                // Maven's `filterVersionsByRepositoryType`: a version the repository's policy
                // for its kind (release or snapshot) disables is not listed.
                Ok(Some(md)) => out.extend(
                    md.versioning
                        .iter()
                        .flat_map(|v| v.versions.iter())
                        .filter(|v| repo.policy(is_snapshot_version_ignoring_case(v)).enabled)
                        .map(|v| (v.clone(), Some(repo.id.clone()))),
                ),
                Ok(None) => {}
                Err(e) => problems.push(e),
            }
        }
        problems.extend(warnings);
        (out, problems)
    }

    /// The local repository this resolver writes into.
    pub fn local_repository(&self) -> &Path {
        &self.inner.cfg.local_repository
    }

    /// The file Maven Resolver hands out for `artifact` (`DefaultArtifactResolver.getFile`):
    /// with snapshot normalization (the default) a timestamped snapshot's `-SNAPSHOT` copy,
    /// made or refreshed now when missing or different; otherwise `artifact.path`.
    pub fn class_path_file(&self, artifact: &ResolvedArtifact) -> PathBuf {
        let version = &artifact.version;
        if !self.inner.cfg.snapshot_normalization || *version == base_version(version) {
            return artifact.path.clone();
        }
        self.inner
            .normalize_snapshot(&artifact.coordinate, version, &artifact.path);
        match self
            .inner
            .local
            .artifact_file(&artifact.coordinate, &base_version(version))
        {
            Ok(target) if target.is_file() => target,
            _ => artifact.path.clone(),
        }
    }
}

/// A blocking facade over [`Resolver`] with its own tokio runtime, for build tools without one.
pub struct BlockingResolver {
    runtime: tokio::runtime::Runtime,
    resolver: Resolver,
}

impl std::fmt::Debug for BlockingResolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.resolver.fmt(f)
    }
}

impl BlockingResolver {
    /// Builds a resolver and a multi-threaded runtime sized to the machine (at most 4 workers).
    pub fn new(config: ResolverConfig) -> Result<Self, DownloadError> {
        let runtime = blocking_runtime()?;
        let resolver = {
            let _g = runtime.enter();
            Resolver::new(config)?
        };
        Ok(BlockingResolver { runtime, resolver })
    }

    /// Resolves every coordinate, blocking; results in input order.
    pub fn resolve(&self, coords: &[Coordinate]) -> Vec<Result<ResolvedArtifact, DownloadError>> {
        self.runtime.block_on(self.resolver.resolve(coords))
    }

    /// The async resolver inside.
    pub fn resolver(&self) -> &Resolver {
        &self.resolver
    }
}

/// The runtime of the blocking APIs: multi-threaded, sized to the machine (at most 4 workers).
pub(crate) fn blocking_runtime() -> Result<tokio::runtime::Runtime, DownloadError> {
    let workers = std::thread::available_parallelism()
        .map(|n| n.get().min(4))
        .unwrap_or(2);
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
        .map_err(|e| {
            DownloadError::Setup(TransportError::Setup(format!(
                "cannot start the async runtime: {e}"
            )))
        })
}

fn invalid_path(coord: &Coordinate, source: SegmentError) -> DownloadError {
    DownloadError::InvalidPath {
        artifact: coord.to_string().escape_debug().to_string(),
        source,
    }
}

/// `skipped by filters: id (reason), ...`.
fn describe_skipped(skipped: &[(&RemoteRepository, String)]) -> String {
    let list: Vec<String> = skipped
        .iter()
        .map(|(r, why)| format!("{} ({why})", r.id))
        .collect();
    format!("skipped by repository filters: {}", list.join(", "))
}

fn describe(repos: &[&RemoteRepository]) -> String {
    if repos.is_empty() {
        return "no repositories".into();
    }
    repos
        .iter()
        .map(|r| format!("{} ({})", r.id, r.url))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A body quoted in a message: escaped, at most 130 characters.
fn quote_body(text: &str) -> String {
    crate::printable::quote_prefix(text, 130)
}

fn with_slash(url: &str) -> String {
    if url.ends_with('/') {
        url.to_string()
    } else {
        format!("{url}/")
    }
}

/// Deletes `<name>.*.tmp` in `dir`: temporary files of this artifact left by a process that died
/// mid-download. Only called under the artifact's lock, so no live writer owns them.
fn remove_stale_temp_files(dir: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let prefix = format!("{name}.");
    for e in entries.flatten() {
        let file_name = e.file_name();
        let Some(n) = file_name.to_str() else {
            continue;
        };
        if n.starts_with(&prefix) && n.ends_with(".tmp") && n.len() > prefix.len() + 4 {
            let middle = &n[prefix.len()..n.len() - 4];
            // tempfile's random part is alphanumeric; checksum sidecars (`.sha1`) never end in .tmp
            if middle.chars().all(|c| c.is_ascii_alphanumeric()) {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
}

enum Verdict {
    Verified(Algorithm, String),
    Mismatch(Algorithm, String, String),
    /// The checksum file itself was unusable (too large).
    Invalid(Algorithm, String),
    NoChecksums,
}

/// Streams a body into a temporary file next to the target, hashing SHA-1 on the way, up to
/// `limit` bytes.
struct TempSink<'a> {
    tmp: tempfile::NamedTempFile,
    sha1: Sha1,
    written: u64,
    limit: u64,
    listener: &'a dyn ProgressListener,
    coord: &'a Coordinate,
    url: String,
}

impl<'a> TempSink<'a> {
    fn new(
        dir: &Path,
        name: &str,
        listener: &'a dyn ProgressListener,
        coord: &'a Coordinate,
        url: String,
        limit: u64,
    ) -> std::io::Result<Self> {
        let prefix = format!("{name}.");
        let tmp = temp_builder(&prefix, ".tmp").tempfile_in(dir)?;
        Ok(TempSink {
            tmp,
            sha1: Sha1::new(),
            written: 0,
            limit,
            listener,
            coord,
            url,
        })
    }

    fn digest(&self, alg: Algorithm) -> std::io::Result<String> {
        match alg {
            Algorithm::Sha1 => Ok(hex::encode(self.sha1.clone().finalize())),
            other => checksum::hash_file(self.tmp.path(), other),
        }
    }
}

impl BodySink for TempSink<'_> {
    fn start(&mut self, _headers: &HeaderMap, len: Option<u64>) -> std::io::Result<()> {
        if let Some(n) = len.filter(|n| *n > self.limit) {
            return Err(BodyTooLarge {
                limit: self.limit,
                announced: Some(n),
            }
            .into_io());
        }
        self.listener.started(self.coord, &self.url, len);
        Ok(())
    }
    fn write(&mut self, chunk: &[u8]) -> std::io::Result<()> {
        self.written += chunk.len() as u64;
        if self.written > self.limit {
            return Err(BodyTooLarge {
                limit: self.limit,
                announced: None,
            }
            .into_io());
        }
        self.tmp.write_all(chunk)?;
        self.sha1.update(chunk);
        self.listener.progress(self.coord, chunk.len() as u64);
        Ok(())
    }
    fn reset(&mut self) -> std::io::Result<()> {
        let f = self.tmp.as_file_mut();
        f.set_len(0)?;
        f.seek(SeekFrom::Start(0))?;
        self.sha1 = Sha1::new();
        self.written = 0;
        Ok(())
    }
}

impl Inner {
    async fn resolve_reporting(
        &self,
        coord: &Coordinate,
    ) -> Result<ResolvedArtifact, DownloadError> {
        let r = self.resolve_one(coord, &self.cfg.repositories).await;
        match &r {
            Ok(a) => self.cfg.listener.done(a),
            Err(e) => self.cfg.listener.failed(coord, e),
        }
        r
    }

    fn checksum_policy(&self, repo: &RemoteRepository, snapshot: bool) -> ChecksumPolicy {
        self.cfg
            .checksum_policy
            .unwrap_or_else(|| parse_checksum_policy(&repo.policy(snapshot).checksum_policy))
    }

    fn update_policy(
        &self,
        repo: &RemoteRepository,
        snapshot: bool,
        warnings: &mut Vec<String>,
    ) -> UpdatePolicy {
        let raw = self
            .cfg
            .update_policy
            .clone()
            .unwrap_or_else(|| repo.policy(snapshot).update_policy.clone());
        let (p, w) = UpdatePolicy::parse(&raw);
        if let Some(w) = w {
            tracing::debug!(repository = %repo.id, "{w}");
            warnings.push(format!("repository `{}`: {w}", repo.id));
        }
        p
    }

    async fn get_bytes(
        &self,
        repo: &RemoteRepository,
        path: &RepoPath,
        limit: u64,
    ) -> Result<(Vec<u8>, Fetched), TransportError> {
        let _permit = self.permits.acquire().await.ok();
        self.transport.get_bytes_limited(repo, path, limit).await
    }

    async fn get_into(
        &self,
        repo: &RemoteRepository,
        path: &RepoPath,
        sink: &mut dyn BodySink,
    ) -> Result<Fetched, TransportError> {
        let _permit = self.permits.acquire().await.ok();
        self.transport.download(repo, path, sink).await
    }

    async fn resolve_one(
        &self,
        coord: &Coordinate,
        repositories: &[RemoteRepository],
    ) -> Result<ResolvedArtifact, DownloadError> {
        let mut warnings = Vec::new();
        let label = coord.to_string();
        let request = VersionRequest::of(&coord.version);
        let (version, pinned) = match request {
            VersionRequest::Fixed => (coord.version.clone(), None),
            _ => {
                self.resolve_version(coord, request, repositories, &mut warnings)
                    .await?
            }
        };
        let snapshot = is_snapshot_version(&version);
        self.ledger.note_request(repositories, snapshot);
        let file = self
            .local
            .artifact_file(coord, &version)
            .map_err(|source| invalid_path(coord, source))?;
        let all: Vec<&RemoteRepository> = repositories.iter().collect();
        let repos: Vec<&RemoteRepository> = repositories
            .iter()
            .filter(|r| r.policy(snapshot).enabled)
            .filter(|r| match &pinned {
                Some(Some(id)) => &r.id == id,
                _ => true,
            })
            .collect();
        // Enhanced local repository manager: a file downloaded before is available when it came
        // from any repository of the request, whatever that repository's policy for the
        // artifact (Maven's `find` looks at every request repository; only downloading skips
        // the disabled ones).
        let ids: Vec<&str> = all.iter().map(|r| r.id.as_str()).collect();
        let resolved = |repository: Option<String>,
                        downloaded: bool,
                        checksum: ChecksumOutcome,
                        warnings: Vec<String>| {
            ResolvedArtifact {
                coordinate: coord.clone(),
                version: version.clone(),
                path: file.clone(),
                repository,
                downloaded,
                checksum,
                warnings,
            }
        };
        match self
            .local
            .availability_where(&file, &ids, |id| self.ledger.counts(&file, id))
        {
            Availability::Available(r) => {
                // Resolver normalizes a timestamped snapshot found locally too (`getFile`).
                if self.cfg.snapshot_normalization && version != base_version(&version) {
                    self.normalize_snapshot(coord, &version, &file);
                }
                return Ok(resolved(r, false, ChecksumOutcome::AlreadyLocal, warnings));
            }
            Availability::OtherRepositories(from) if matches!(pinned, Some(None)) => {
                // Version came from local metadata: use the file.
                return Ok(resolved(
                    from.first().cloned(),
                    false,
                    ChecksumOutcome::AlreadyLocal,
                    warnings,
                ));
            }
            Availability::OtherRepositories(from) => {
                tracing::info!(
                    "Artifact {label} is present in the local repository, but cached from a remote repository ID that is unavailable in current build context ({}), verifying that is downloadable from [{}]",
                    from.join(", "),
                    ids.join(", ")
                );
            }
            Availability::Missing => {}
        }
        // The chained local repository: a tail's file, before any request.
        if let Some(hit) = self.find_in_tail(coord, &version, &ids) {
            return Ok(ResolvedArtifact {
                path: hit.path,
                ..resolved(
                    hit.repository,
                    false,
                    ChecksumOutcome::AlreadyLocal,
                    warnings,
                )
            });
        }
        if repos.is_empty() {
            return Err(DownloadError::NoRepository {
                artifact: label,
                kind: if snapshot { "snapshots" } else { "releases" },
                searched: describe(&all),
            });
        }
        if self.cfg.offline {
            let r = repos[0];
            return Err(DownloadError::Offline {
                artifact: label,
                repository: r.id.clone(),
                url: r.url.to_string(),
            });
        }
        let (repos, skipped) = self.filter_for_artifact(repos, coord, &version).await;
        if repos.is_empty() {
            return Err(DownloadError::NotFound {
                artifact: label,
                searched: format!("no repository: {}", describe_skipped(&skipped)),
            });
        }
        let mut errors: Vec<DownloadError> = Vec::new();
        let mut not_found: Vec<&RemoteRepository> = Vec::new();
        for repo in &repos {
            if repo.blocked {
                errors.push(DownloadError::Blocked {
                    artifact: label.clone(),
                    mirror: repo.id.clone(),
                    url: repo.url.to_string(),
                    mirrored: describe(&repo.mirrored_repositories.iter().collect::<Vec<_>>()),
                });
                continue;
            }
            if let Some(e) = self.cached_not_found(coord, &file, repo, snapshot, &mut warnings) {
                errors.push(e);
                continue;
            }
            match self
                .download_from(repo, coord, &version, &file, snapshot, &mut warnings)
                .await
            {
                Ok((checksum, downloaded, from)) => {
                    return Ok(resolved(Some(from), downloaded, checksum, warnings));
                }
                Err(DownloadError::Transfer { source, .. }) if source.is_not_found() => {
                    self.record_not_found(&file, repo);
                    not_found.push(repo);
                }
                Err(e) => errors.push(e),
            }
        }
        if let Some(pos) = errors.iter().position(|e| !e.is_not_found()) {
            return Err(errors.swap_remove(pos));
        }
        if not_found.is_empty() {
            if let Some(e) = errors.into_iter().next() {
                return Err(e);
            }
        }
        Err(DownloadError::NotFound {
            artifact: label,
            searched: if skipped.is_empty() {
                describe(&repos)
            } else {
                format!("{}; {}", describe(&repos), describe_skipped(&skipped))
            },
        })
    }

    fn marker(file: &Path) -> PathBuf {
        let mut name = file.as_os_str().to_owned();
        name.push(".lastUpdated");
        PathBuf::from(name)
    }

    fn cached_not_found(
        &self,
        coord: &Coordinate,
        file: &Path,
        repo: &RemoteRepository,
        snapshot: bool,
        warnings: &mut Vec<String>,
    ) -> Option<DownloadError> {
        let marker = Self::marker(file);
        let props = read_properties(&marker);
        let key = with_slash(repo.url.as_written());
        if props.get(&format!("{key}.error")).map(String::as_str) != Some("") {
            return None;
        }
        let last = props
            .get(&format!("{key}.lastUpdated"))
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(from_millis);
        let policy = self.update_policy(repo, snapshot, warnings);
        if policy.is_update_required(last, self.cfg.clock.as_ref()) {
            return None;
        }
        Some(DownloadError::CachedNotFound {
            artifact: coord.to_string(),
            repository: repo.id.clone(),
            url: repo.url.to_string(),
            marker,
        })
    }

    fn record_not_found(&self, file: &Path, repo: &RemoteRepository) {
        let marker = Self::marker(file);
        let key = with_slash(repo.url.as_written());
        let now = to_millis(self.cfg.clock.now()).to_string();
        let r = self.local.update_properties(&marker, |p| {
            p.insert(format!("{key}.error"), String::new());
            p.insert(format!("{key}.lastUpdated"), now);
            true
        });
        if let Err(e) = r {
            tracing::warn!("cannot record not-found in {}: {e}", marker.display());
        }
    }

    /// Downloads into place from one repository. Returns (checksum outcome, downloaded, repo id).
    async fn download_from(
        &self,
        repo: &RemoteRepository,
        coord: &Coordinate,
        version: &str,
        file: &Path,
        snapshot: bool,
        warnings: &mut Vec<String>,
    ) -> Result<(ChecksumOutcome, bool, String), DownloadError> {
        let label = coord.to_string();
        let rel = layout::artifact_path(coord, version).map_err(|e| invalid_path(coord, e))?;
        let sha1_path = layout::checksum_path(&rel, Algorithm::Sha1.extension())
            .map_err(|e| invalid_path(coord, e))?;
        let io = |path: &Path, source: std::io::Error| DownloadError::Io {
            artifact: label.clone(),
            path: path.to_path_buf(),
            source,
        };
        self.local.check_inside(file).map_err(|e| io(file, e))?;
        let _lock = self
            .local
            .lock(Path::new(rel.as_str()))
            .await
            .map_err(|e| io(file, e))?;
        // Someone else (another process or resolver) may have finished it while we waited.
        if let Availability::Available(_) =
            self.local
                .availability_where(file, &[repo.id.as_str()], |id| self.ledger.counts(file, id))
        {
            return Ok((ChecksumOutcome::AlreadyLocal, false, repo.id.clone()));
        }
        let dir = file
            .parent()
            .ok_or_else(|| io(file, std::io::Error::other("no parent directory")))?;
        let existed = dir.is_dir();
        std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("artifact");
        // A folder this download just created holds no leftovers.
        if existed {
            remove_stale_temp_files(dir, name);
        }
        let policy = self.checksum_policy(repo, snapshot);
        let url = repo
            .url
            .resolve(rel.as_str())
            .map(|u| redact_url(u.as_str()))
            .unwrap_or_else(|_| rel.to_string());
        let listener = self.cfg.listener.as_ref();
        let mut attempt = 0;
        loop {
            attempt += 1;
            let limit = self.cfg.limits.max_artifact_bytes;
            let mut sink = TempSink::new(dir, name, listener, coord, url.clone(), limit)
                .map_err(|e| io(dir, e))?;
            let want_sums = policy != ChecksumPolicy::Ignore;
            let sum_limit = self.cfg.limits.max_checksum_bytes;
            let (fetched, sha1) = tokio::join!(self.get_into(repo, &rel, &mut sink), async {
                if want_sums {
                    Some(self.get_bytes(repo, &sha1_path, sum_limit).await)
                } else {
                    None
                }
            });
            let fetched = fetched.map_err(|source| DownloadError::Transfer {
                artifact: label.clone(),
                source,
            })?;
            let verdict = if want_sums {
                self.verify(repo, &rel, &sink, &fetched.headers, sha1)
                    .await
                    .map_err(|e| io(sink.tmp.path(), e))?
            } else {
                Verdict::NoChecksums
            };
            let outcome = match (verdict, policy) {
                (_, ChecksumPolicy::Ignore) => (ChecksumOutcome::Ignored, None),
                (Verdict::Verified(alg, expected), _) => (
                    ChecksumOutcome::Verified {
                        algorithm: alg.name(),
                    },
                    Some((alg, expected)),
                ),
                (Verdict::Mismatch(..) | Verdict::Invalid(..), _) if attempt < 2 => {
                    tracing::debug!("checksum mismatch for {url}, downloading once more");
                    continue;
                }
                (Verdict::Mismatch(alg, expected, actual), ChecksumPolicy::Fail) => {
                    return Err(DownloadError::ChecksumMismatch {
                        artifact: label,
                        repository: repo.id.clone(),
                        url,
                        algorithm: alg.name(),
                        expected: quote_body(&expected),
                        actual,
                    })
                }
                (Verdict::Invalid(alg, reason), ChecksumPolicy::Fail) => {
                    return Err(DownloadError::InvalidChecksum {
                        artifact: label,
                        repository: repo.id.clone(),
                        url,
                        algorithm: alg.name(),
                        reason,
                    })
                }
                (Verdict::Invalid(alg, reason), _) => {
                    let w = format!(
                        "Could not validate integrity of download from {url}: the {} checksum file is unusable: {reason}",
                        alg.name()
                    );
                    // Returned in `warnings`: the caller prints it (once).
                    tracing::debug!("{w}");
                    warnings.push(w.clone());
                    (ChecksumOutcome::Unverified { reason: w }, None)
                }
                (Verdict::Mismatch(alg, expected, actual), _) => {
                    let w = format!(
                        "Could not validate integrity of download from {url}: checksum mismatch ({} expected {}, got {actual})",
                        alg.name(),
                        quote_body(&expected)
                    );
                    // Returned in `warnings`: the caller prints it (once).
                    tracing::debug!("{w}");
                    warnings.push(w.clone());
                    (ChecksumOutcome::Unverified { reason: w }, None)
                }
                (Verdict::NoChecksums, ChecksumPolicy::Fail) => {
                    return Err(DownloadError::NoChecksums {
                        artifact: label,
                        repository: repo.id.clone(),
                        url,
                    })
                }
                (Verdict::NoChecksums, _) => {
                    let w = format!("Could not validate integrity of download from {url}: no checksums available");
                    // Returned in `warnings`: the caller prints it (once).
                    tracing::debug!("{w}");
                    warnings.push(w.clone());
                    (ChecksumOutcome::Unverified { reason: w }, None)
                }
            };
            // Recorded before the file is in place: between the two, a concurrent reader of this
            // process (the collector reads POMs ahead in parallel) would otherwise find an
            // untracked file, which counts as installed locally, i.e. available to every
            // repository. A record without its file counts for nothing.
            self.local
                .record_download(file, &repo.id)
                .map_err(|e| io(file, e))?;
            self.ledger.note_written(file, &repo.id);
            // No fsync: like Maven Resolver, rely on write-to-temp-then-rename for atomicity;
            // an fsync per artifact costs milliseconds each on a real disk.
            let tmp_path = sink.tmp.path().to_path_buf();
            sink.tmp.persist(file).map_err(|e| io(&tmp_path, e.error))?;
            if let Some((alg, expected)) = outcome.1 {
                let side = PathBuf::from(format!("{}.{}", file.display(), alg.extension()));
                let value = expected.trim().to_ascii_lowercase();
                if let Err(e) = self.local.write_file(&side, value.as_bytes()) {
                    tracing::warn!("cannot persist checksum {}: {e}", side.display());
                }
            }
            let marker = Self::marker(file);
            if marker.exists() {
                let _ = self.local.update_properties(&marker, |p| {
                    p.clear();
                    true
                });
            }
            if self.cfg.snapshot_normalization && version != base_version(version) {
                self.normalize_snapshot(coord, version, file);
            }
            return Ok((outcome.0, true, repo.id.clone()));
        }
    }

    /// Copies `a-1.0-20240102.030405-7.jar` to `a-1.0-SNAPSHOT.jar` when missing or different
    /// (streamed, never read whole into memory).
    fn normalize_snapshot(&self, coord: &Coordinate, version: &str, file: &Path) {
        let Ok(target) = self.local.artifact_file(coord, &base_version(version)) else {
            return;
        };
        let same = match (std::fs::metadata(file), std::fs::metadata(&target)) {
            (Ok(a), Ok(b)) => a.len() == b.len() && a.modified().ok() == b.modified().ok(),
            _ => false,
        };
        if !same {
            if let Err(e) = self.local.copy_file(file, &target) {
                tracing::warn!(
                    "cannot copy {} to {}: {e}",
                    file.display(),
                    target.display()
                );
                return;
            }
        }
        // An untracked copy counts as installed locally: the ledger must know who made it.
        self.ledger.note_written(&target, "");
    }

    /// Checks the downloaded body: included header checksums, then the `.sha1` fetched alongside,
    /// then `.md5`, `.sha256`, `.sha512` one after another. The first match wins; any mismatch
    /// is a mismatch (spec §8.5).
    async fn verify(
        &self,
        repo: &RemoteRepository,
        rel: &RepoPath,
        sink: &TempSink<'_>,
        headers: &HeaderMap,
        sha1: Option<Result<(Vec<u8>, Fetched), TransportError>>,
    ) -> std::io::Result<Verdict> {
        if let Some((alg, expected)) = included_checksums(headers).into_iter().next() {
            let actual = sink.digest(alg)?;
            return Ok(if checksum::matches(&expected, &actual) {
                Verdict::Verified(alg, expected)
            } else {
                Verdict::Mismatch(alg, expected, actual)
            });
        }
        let mut first = sha1;
        for alg in checksum::FETCH_ORDER {
            let result = match first.take() {
                Some(r) if alg == Algorithm::Sha1 => r,
                _ => match layout::checksum_path(rel, alg.extension()) {
                    Ok(path) => {
                        self.get_bytes(repo, &path, self.cfg.limits.max_checksum_bytes)
                            .await
                    }
                    Err(_) => continue,
                },
            };
            let text = match result {
                Ok((bytes, _)) => String::from_utf8_lossy(&bytes).into_owned(),
                Err(TransportError::TooLarge { source, .. }) => {
                    return Ok(Verdict::Invalid(alg, source.to_string()));
                }
                Err(e) => {
                    if !e.is_not_found() {
                        tracing::debug!("checksum {} of {rel}: {e}", alg.name());
                    }
                    continue;
                }
            };
            let Some(expected) = parse_checksum_file(&text) else {
                continue;
            };
            let actual = sink.digest(alg)?;
            return Ok(if checksum::matches(&expected, &actual) {
                Verdict::Verified(alg, expected)
            } else {
                Verdict::Mismatch(alg, expected, actual)
            });
        }
        Ok(Verdict::NoChecksums)
    }

    /// Resolves `RELEASE`, `LATEST` or `X-SNAPSHOT` through metadata. Returns the version and
    /// where it came from (`Some(None)` = local metadata, `Some(Some(id))` = that repository,
    /// `None` = not from metadata).
    async fn resolve_version(
        &self,
        coord: &Coordinate,
        request: VersionRequest,
        repositories: &[RemoteRepository],
        warnings: &mut Vec<String>,
    ) -> Result<(String, Option<Option<String>>), DownloadError> {
        let g = &coord.group_id;
        let a = &coord.artifact_id;
        let version_dir = if request == VersionRequest::Snapshot {
            coord.version.as_str()
        } else {
            ""
        };
        let mut candidates = VersionCandidates::default();
        let snapshot_base = (request == VersionRequest::Snapshot).then_some(coord.version.as_str());
        let local_md = self
            .local
            .metadata_file(g, a, version_dir, None)
            .map_err(|source| invalid_path(coord, source))?;
        match self.read_local_metadata(&local_md, snapshot_base) {
            Ok(Some(md)) => candidates.merge(&md, None, &coord.version),
            Ok(None) => {}
            Err(e) => warnings.push(e),
        }
        let eligible: Vec<&RemoteRepository> = repositories
            .iter()
            .filter(|r| !r.blocked)
            .filter(|r| match request {
                VersionRequest::Snapshot => r.snapshots.enabled,
                VersionRequest::Release => r.releases.enabled,
                _ => r.snapshots.enabled || r.releases.enabled,
            })
            .collect();
        let mut problems = Vec::new();
        for repo in &eligible {
            let snapshot_policy = request == VersionRequest::Snapshot
                || (request == VersionRequest::Latest && repo.snapshots.enabled);
            match self
                .refresh_metadata(repo, coord, version_dir, snapshot_policy, warnings)
                .await
            {
                Ok(Some(md)) => candidates.merge(&md, Some(&repo.id), &coord.version),
                Ok(None) => {}
                Err(e) => problems.push(e),
            }
        }
        let ga = format!("{g}:{a}");
        match request {
            VersionRequest::Snapshot => {
                match candidates.snapshot(&coord.classifier, &coord.extension) {
                    Some(c) => Ok((c.version.clone(), Some(c.repository.clone()))),
                    None => {
                        if let Some(p) = problems.into_iter().next() {
                            if self.cfg.checksum_policy == Some(ChecksumPolicy::Fail) {
                                return Err(DownloadError::Metadata {
                                    artifact: coord.to_string(),
                                    message: p,
                                });
                            }
                            warnings.push(p);
                        }
                        Ok((coord.version.clone(), None))
                    }
                }
            }
            VersionRequest::Release | VersionRequest::Latest => {
                let Some(c) = candidates.answer(request).cloned() else {
                    return Err(DownloadError::VersionNotFound {
                        artifact: ga,
                        version: coord.version.clone(),
                        searched: format!("the local repository, {}", describe(&eligible)),
                        problems,
                    });
                };
                if request == VersionRequest::Latest && c.version.ends_with("SNAPSHOT") {
                    let again = coord.with_version(c.version.clone());
                    return Box::pin(self.resolve_version(
                        &again,
                        VersionRequest::Snapshot,
                        repositories,
                        warnings,
                    ))
                    .await;
                }
                Ok((c.version, Some(c.repository)))
            }
            VersionRequest::Fixed => Ok((coord.version.clone(), None)),
        }
    }

    /// Brings the local copy `maven-metadata-<repoId>.xml` up to date per the update policy and
    /// returns its content (`None` when the repository has none).
    async fn refresh_metadata(
        &self,
        repo: &RemoteRepository,
        coord: &Coordinate,
        version_dir: &str,
        snapshot: bool,
        warnings: &mut Vec<String>,
    ) -> Result<Option<Metadata>, String> {
        let g = &coord.group_id;
        let a = &coord.artifact_id;
        let invalid = |e: SegmentError| {
            format!(
                "metadata of {g}:{a} from repository `{}` cannot be stored: {e}",
                repo.id.escape_debug()
            )
        };
        let cached = self
            .local
            .metadata_file(g, a, version_dir, Some(&repo.id))
            .map_err(invalid)?;
        let remote_path = layout::metadata_path(g, a, version_dir).map_err(invalid)?;
        if self.refused(repo, remote_path.as_str(), g).await.is_some() {
            // Filtered out: as if the repository had no metadata (Resolver's filtered result).
            return Ok(None);
        }
        let sha_path = layout::checksum_path(&remote_path, "sha1").map_err(invalid)?;
        let snapshot_base = (!version_dir.is_empty()).then_some(version_dir);
        let url = repo
            .url
            .resolve(remote_path.as_str())
            .map(|u| redact_url(u.as_str()))
            .unwrap_or_else(|_| remote_path.to_string());
        let session_key = format!("{}|{remote_path}", repo.id);
        let lock_name = cached
            .strip_prefix(self.local.root())
            .unwrap_or(&cached)
            .to_path_buf();
        let _lock = self
            .local
            .lock(&lock_name)
            .await
            .map_err(|e| format!("cannot lock {}: {e}", cached.display()))?;
        let status = cached.with_file_name(RESOLVER_STATUS);
        let file_name = cached
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("maven-metadata.xml")
            .to_string();
        let checked = self
            .checked
            .lock()
            .map(|s| s.contains(&session_key))
            .unwrap_or(false);
        let mut problem = None;
        if !self.cfg.offline && !checked {
            let props = read_properties(&status);
            let error = props.get(&format!("{file_name}.error"));
            let last = props
                .get(&format!("{file_name}.lastUpdated"))
                .and_then(|v| v.trim().parse::<u64>().ok())
                .map(from_millis);
            let exists = cached.is_file();
            let last_checked = if error.is_some() {
                last
            } else if exists {
                last.or_else(|| std::fs::metadata(&cached).and_then(|m| m.modified()).ok())
            } else {
                None
            };
            let policy = self.update_policy(repo, snapshot, warnings);
            let due = (error.is_none() && !exists)
                || policy.is_update_required(last_checked, self.cfg.clock.as_ref());
            if due {
                let limits = self.cfg.limits;
                let (body, sum) = tokio::join!(
                    self.get_bytes(repo, &remote_path, limits.max_metadata_bytes),
                    self.get_bytes(repo, &sha_path, limits.max_checksum_bytes)
                );
                let now = to_millis(self.cfg.clock.now()).to_string();
                match body {
                    Ok((bytes, _)) => {
                        let cpolicy = self.checksum_policy(repo, snapshot);
                        if cpolicy != ChecksumPolicy::Ignore {
                            if let Some(expected) = sum.ok().and_then(|(b, _)| {
                                parse_checksum_file(&String::from_utf8_lossy(&b))
                            }) {
                                let actual = Algorithm::Sha1.hash(&bytes);
                                if !checksum::matches(&expected, &actual) {
                                    let m = format!(
                                        "checksum mismatch for metadata {remote_path} from repository `{}`: expected SHA-1 {}, got {actual}",
                                        repo.id,
                                        quote_body(&expected)
                                    );
                                    if cpolicy == ChecksumPolicy::Fail {
                                        return Err(m);
                                    }
                                    warnings.push(m);
                                }
                            }
                        }
                        // Checked before it is stored: an invalid file is never kept or used.
                        Metadata::parse(&bytes, &url)
                            .map_err(|e| e.to_string())
                            .and_then(|md| md.check_values(snapshot_base))
                            .map_err(|e| {
                                format!(
                                    "invalid maven-metadata.xml from repository `{}` ({url}), ignored: {e}",
                                    repo.id
                                )
                            })?;
                        self.local
                            .write_file(&cached, &bytes)
                            .map_err(|e| format!("cannot write {}: {e}", cached.display()))?;
                        let _ = self.local.update_properties(&status, |p| {
                            p.remove(&format!("{file_name}.error"));
                            p.insert(format!("{file_name}.lastUpdated"), now);
                            true
                        });
                    }
                    Err(e) if e.is_not_found() => {
                        let _ = std::fs::remove_file(&cached);
                        let _ = self.local.update_properties(&status, |p| {
                            p.insert(format!("{file_name}.error"), String::new());
                            p.insert(format!("{file_name}.lastUpdated"), now);
                            true
                        });
                    }
                    Err(e) => problem = Some(e.to_string()),
                }
            }
            if let Ok(mut s) = self.checked.lock() {
                s.insert(session_key);
            }
        }
        match self.read_local_metadata(&cached, snapshot_base) {
            Ok(None) => match problem {
                Some(p) => Err(p),
                None => Ok(None),
            },
            other => other.map_err(|e| format!("repository `{}`: {e}", repo.id)),
        }
    }

    /// A metadata file of the local repository: `Ok(None)` when missing; an error when too large,
    /// malformed, or holding a value that could not be a path.
    fn read_local_metadata(
        &self,
        path: &Path,
        snapshot_base: Option<&str>,
    ) -> Result<Option<Metadata>, String> {
        let bytes =
            match crate::bounded::read_regular_file(path, self.cfg.limits.max_metadata_bytes) {
                Ok(b) => b,
                Err(e) if e.is_not_found() => return Ok(None),
                Err(e) => return Err(e.to_string()),
            };
        let md = Metadata::parse(&bytes, &path.display().to_string()).map_err(|e| e.to_string())?;
        md.check_values(snapshot_base)
            .map_err(|e| format!("invalid metadata {}, ignored: {e}", path.display()))?;
        Ok(Some(md))
    }
}

/// The chained local repository and the remote repository filters (`chain.rs`, `filter.rs`).
impl Inner {
    /// The file a tail of the chained local repository holds for `coord` at `version`, when
    /// the tail rules let it serve a request to `ids`.
    fn find_in_tail(&self, coord: &Coordinate, version: &str, ids: &[&str]) -> Option<TailHit> {
        let tail = self.cfg.tail.as_ref()?;
        let rel = layout::artifact_path(coord, version).ok()?;
        let hit = tail.find(rel.as_str(), ids)?;
        tracing::debug!(artifact = %coord, file = %hit.path.display(), "found in a local repository tail");
        Some(hit)
    }

    /// `repos` without those the filters refuse for `coord` at `version`, and those (with why).
    async fn filter_for_artifact<'r>(
        &self,
        repos: Vec<&'r RemoteRepository>,
        coord: &Coordinate,
        version: &str,
    ) -> (
        Vec<&'r RemoteRepository>,
        Vec<(&'r RemoteRepository, String)>,
    ) {
        if self.cfg.filter.is_none() {
            return (repos, Vec::new());
        }
        let Ok(rel) = layout::artifact_path(coord, version) else {
            return (repos, Vec::new());
        };
        let mut kept = Vec::with_capacity(repos.len());
        let mut skipped = Vec::new();
        for repo in repos {
            match self.refused(repo, rel.as_str(), &coord.group_id).await {
                Some(why) => skipped.push((repo, why)),
                None => kept.push(repo),
            }
        }
        (kept, skipped)
    }

    /// Why the filters refuse to ask `repo` for `path` (an artifact's or metadata's layout
    /// path) of `group_id`, if they do. The first question to a repository may fetch its
    /// published prefix file (when asked for; never for mirrors, managers or offline).
    async fn refused(&self, repo: &RemoteRepository, path: &str, group_id: &str) -> Option<String> {
        let filter = self.cfg.filter.as_ref()?;
        let may_fetch = !self.cfg.offline
            && !repo.blocked
            && !repo.repository_manager
            && repo.mirrored_repositories.is_empty();
        let fetch = || async move {
            let published = RepoPath::root()
                .join(SegmentKind::FileName, ".meta")
                .and_then(|p| p.join(SegmentKind::FileName, "prefixes.txt"))
                .map_err(|e| e.to_string())?;
            match self
                .get_bytes(
                    repo,
                    &published,
                    crate::download::filter::MAX_FILTER_FILE_BYTES,
                )
                .await
            {
                Ok((bytes, _)) => Ok(Some(bytes)),
                Err(e) if e.is_not_found() => Ok(None),
                Err(e) => Err(e.to_string()),
            }
        };
        let prefixes = filter.prefix_rules(&repo.id, may_fetch, fetch).await;
        let groups = filter.group_rules(&repo.id);
        let v = crate::download::filter::verdict(
            &repo.id,
            path,
            group_id,
            prefixes.as_deref(),
            groups.as_deref(),
        );
        if v.accepted {
            return None;
        }
        tracing::debug!(
            "repository `{}` skipped by a filter for {path}: {}",
            repo.id,
            v.reason
        );
        Some(v.reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_temp_files_of_the_artifact_only_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let names = [
            ("a-1.jar.Xy12Ab.tmp", false),
            ("a-1.jar.sha1", true),
            ("a-1.jar", true),
            ("a-1.jar.lastUpdated", true),
            ("a-1.pom.Xy12Ab.tmp", true),
            ("a-1.jar..tmp", true),
            ("a-1.jar.x.y.tmp", true),
        ];
        for (n, _) in names {
            std::fs::write(dir.path().join(n), b"x").unwrap();
        }
        remove_stale_temp_files(dir.path(), "a-1.jar");
        for (n, kept) in names {
            assert_eq!(dir.path().join(n).exists(), kept, "{n}");
        }
    }

    #[test]
    fn repository_descriptions_are_redacted() {
        let a = RemoteRepository::new("a", "https://u:p@h/r");
        let b = RemoteRepository::new("b", "http://h2/");
        assert_eq!(describe(&[&a, &b]), "a (https://***@h/r), b (http://h2/)");
        assert_eq!(describe(&[]), "no repositories");
        assert_eq!(with_slash("http://h/r"), "http://h/r/");
        assert_eq!(with_slash("http://h/r/"), "http://h/r/");
    }
}
