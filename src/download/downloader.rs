//! The downloader: turns coordinates into files in the local repository, many at a time.
//!
//! Per artifact (spec §8.3–§8.8): resolve `SNAPSHOT`/`LATEST`/`RELEASE` through metadata (local
//! first, then each eligible repository, cached per update policy); use the local file when the
//! enhanced local repository manager says it is available; otherwise try the repositories in order
//! (only those whose release/snapshot policy is enabled; only the one the version came from when
//! metadata picked it), skipping blocked mirrors and not-found results cached in `*.lastUpdated`.
//! A download streams into a temporary file in the target directory, hashing as it goes, while the
//! first checksum file is fetched concurrently; the checksum is checked (included header checksums
//! first, then the session's checksum algorithms in order, `.sha1` then `.md5` by default), a
//! mismatch re-downloads once, then the policy decides (`fail` / `warn` / `ignore`); the file is
//! renamed into place under a cross-process lock, its checksum persisted and
//! `_remote.repositories` updated.
//!
//! Hostile servers ([`DownloadLimits`], [`crate::download::segment`]): checksum files and
//! metadata are read into memory only up to a ceiling, artifacts stream to disk up to another;
//! every metadata value that becomes a path is validated before the file is used or stored
//! (an invalid file is a warning naming the repository, never a path), and every local path
//! written is checked to be inside the local repository.
//!
//! [`Downloader`] is async (tokio) with a bounded number of in-flight HTTP requests; the
//! repositories are an argument of every call, so one downloader (one transport, one update-check
//! record) serves every repository list of a session. [`BlockingDownloader`] wraps it with a
//! runtime of its own for callers without one.

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
use crate::download::error::{DownloadError, InvalidMetadata, MetadataError};
use crate::download::filter::RepositoryFilter;
use crate::download::layout;
use crate::download::ledger::{Ledger, Replay};
use crate::download::local::{
    read_properties, temp_builder, Availability, LocalRepository, RESOLVER_STATUS,
};
use crate::download::metadata::{Metadata, VersionCandidates, VersionRequest};
use crate::download::policy::{from_millis, to_millis, Clock, SystemClock, UpdatePolicy};
use crate::download::prefetch::{self, Prefetches};
use crate::download::progress::{NoProgress, ProgressEvent, ProgressListener};
use crate::download::segment::{RepoPath, SegmentError, SegmentKind};
use crate::download::trusted::{Checked, TrustedChecksums, TrustedChecksumsConfig};
use crate::repository::{ChecksumPolicy, RemoteRepository};
use crate::resolution::Artifact;
use crate::runtime::{OwnedRuntime, RuntimeError};
use crate::transport::limits::BodyTooLarge;
use crate::transport::{
    redact_url, BodySink, Fetched, Purpose, Transport, TransportError, TransportOptions,
};
use futures_util::StreamExt;
use http::header::HeaderMap;
use sha1::{Digest, Sha1};
use std::collections::HashSet;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tokio::sync::Semaphore;

/// Default number of HTTP requests in flight, chosen by measurement on the bench testbed. Flat
/// downloads (`benches/download.rs`, 1000 artifacts of 32 KiB = 2000 requests, cold): on direct
/// loopback routes 8..128 are equal (~0.25 s HTTP, ~0.3 s HTTPS); with 20 ms of round-trip time
/// the time falls with concurrency (HTTPS: 8 → 5.9 s, 16 → 3.1 s, 32 → 1.6 s, 64 → 1.0 s,
/// 128 → 0.6 s). Dependency graphs through `https-squid-rtt` (`scripts/bench-session.sh`, cold):
/// the 246 jars of one graph after its POMs, 64 → 0.61-0.80 s, 128 → 0.44-0.59 s; 40 modules of
/// one session (511 jars), 64 → 1.06 s, 128 → 0.73 s. An HTTP/2 server lets one connection
/// carry about 128 at once (nginx's default `http2_max_concurrent_streams`; the streams beyond
/// the server's limit wait in hyper), and HTTP/2 is what Maven Central and the common repository
/// managers speak: the files go over one connection and the checksum files fetched beside them
/// over a second, so the default is two connections' worth (a POM and its `.sha1` are the two
/// requests of every step of a collection's chain: with 128 for both, the next POM of the
/// chain waited 12–26 ms for a place at the busiest level). On HTTP/1.1 every request in flight
/// is a connection: the transport sends at most 64 at once to one such origin (the old
/// default), and fewer can be set (`SessionBuilder::max_in_flight`, `m2r --threads`) for a
/// server that should see fewer (Maven uses 5).
pub const DEFAULT_IN_FLIGHT: usize = 2 * STREAMS_PER_CONNECTION;

/// The streams an HTTP/2 server lets one connection carry at once (nginx's default; the RFC
/// recommends at least 100): the requests made ahead, on a connection of their own, are held to
/// it.
pub(crate) const STREAMS_PER_CONNECTION: usize = 128;

/// How much a server may make the downloader hold or write, per file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
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

/// Everything the downloader needs besides the repositories (an argument of each call).
#[derive(Clone)]
#[non_exhaustive]
pub struct DownloaderConfig {
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
    /// (`-U` = `always`: also re-tries not-found results cached in `*.lastUpdated`).
    pub update_policy: Option<String>,
    /// The checksum files asked for, in order (Resolver's `aether.checksums.algorithms`,
    /// default `SHA-1,MD5`); see [`ChecksumAlgorithms`].
    pub checksum_algorithms: ChecksumAlgorithms,
    /// Copy a downloaded timestamped snapshot to its `-SNAPSHOT` file name too (Resolver default).
    pub snapshot_normalization: bool,
    /// Progress events.
    pub listener: Arc<dyn ProgressListener>,
    /// Size ceilings for what servers send.
    pub limits: DownloadLimits,
    /// Resolver 1.9's trusted checksums (`None`: off); see [`crate::download::trusted`].
    pub trusted_checksums: Option<TrustedChecksumsConfig>,
    /// The chained local repository's read-only tails (`maven.repo.local.tail`), read after
    /// `local_repository` and never written.
    pub tail: Option<LocalTail>,
    /// Remote repository filters: a repository they refuse is not asked (no request).
    pub filter: Option<Arc<RepositoryFilter>>,
}

impl std::fmt::Debug for DownloaderConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DownloaderConfig")
            .field("local_repository", &self.local_repository)
            .field("offline", &self.offline)
            .field("max_in_flight", &self.max_in_flight)
            .field("update_policy", &self.update_policy)
            .field("checksum_algorithms", &self.checksum_algorithms)
            .finish_non_exhaustive()
    }
}

impl DownloaderConfig {
    /// Defaults: online, [`DEFAULT_IN_FLIGHT`] requests, system clock, repository policies,
    /// `.sha1` then `.md5`.
    pub fn new(local_repository: impl Into<PathBuf>) -> Self {
        DownloaderConfig {
            local_repository: local_repository.into(),
            offline: false,
            max_in_flight: DEFAULT_IN_FLIGHT,
            transport: TransportOptions::default(),
            clock: Arc::new(SystemClock),
            checksum_policy: None,
            update_policy: None,
            checksum_algorithms: ChecksumAlgorithms::default(),
            snapshot_normalization: true,
            listener: Arc::new(NoProgress),
            limits: DownloadLimits::default(),
            trusted_checksums: None,
            tail: None,
            filter: None,
        }
    }
}

pub use checksum::ChecksumAlgorithms;

/// How the checksum of a downloaded artifact was established.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
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

/// An artifact's file in the local repository, as the downloader found or fetched it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ArtifactFile {
    /// The artifact as requested.
    pub artifact: Artifact,
    /// The resolved version (timestamped for snapshots).
    pub version: String,
    /// The file.
    pub path: PathBuf,
    /// The repository it was downloaded from (`None`: installed locally or untracked).
    pub repository: Option<String>,
    /// Whether this call downloaded it (`false`: it was already in the local repository).
    pub downloaded: bool,
    /// Checksum status.
    pub checksum: ChecksumOutcome,
    /// Warnings (checksum accepted under `warn`, unknown policies, ...).
    pub warnings: Vec<String>,
}

impl ArtifactFile {
    /// False when a checksum problem was accepted under the `warn` policy.
    pub fn is_verified(&self) -> bool {
        !matches!(self.checksum, ChecksumOutcome::Unverified { .. })
    }
}

/// The async downloader. Clone it freely (shared state): one transport (connection pool, TLS,
/// proxy and server authentication, route memory), one local repository, one bound on requests
/// in flight and one update-check record, whatever repositories each call names.
#[derive(Clone)]
pub struct Downloader {
    inner: Arc<Inner>,
    /// A collection replaying in Maven's order sees the local repository through this.
    replay: Option<Arc<Replay>>,
}

struct Inner {
    cfg: DownloaderConfig,
    transport: Transport,
    local: LocalRepository,
    permits: Semaphore,
    /// Metadata checked since the session (or its last refresh) began (`repoId|path`): each is
    /// checked at most once, as Maven's session-scoped update checks.
    checked: Mutex<HashSet<String>>,
    /// What this downloader asked and recorded (for callers replaying Maven's order).
    ledger: Ledger,
    /// Trusted checksums, when configured.
    trusted: Option<TrustedChecksums>,
    /// Requests made ahead of their downloads ([`crate::download::prefetch`]).
    prefetches: Arc<Prefetches>,
    /// Whether this session has asked a server for anything yet: until it has, nothing is
    /// requested ahead (a build whose POMs are all local finds its jars local too, and a
    /// request made ahead for what may turn out a conflict's loser would open a connection
    /// such a build never needs).
    went_remote: std::sync::atomic::AtomicBool,
}

impl std::fmt::Debug for Downloader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Downloader")
            .field("config", &self.inner.cfg)
            .field("replay", &self.replay.is_some())
            .finish()
    }
}

impl Downloader {
    /// Builds the transport (reads extra CA files). No runtime is needed to build it; its
    /// connections live on the runtime its calls run on.
    pub fn new(config: DownloaderConfig) -> Result<Self, DownloadError> {
        let transport = Transport::new(config.transport.clone()).map_err(DownloadError::Setup)?;
        let local = LocalRepository::new(config.local_repository.clone());
        let permits = Semaphore::new(config.max_in_flight.max(1));
        let prefetches = Arc::new(Prefetches::new(
            config.max_in_flight.min(STREAMS_PER_CONNECTION),
        ));
        let trusted = config.trusted_checksums.clone().map(TrustedChecksums::new);
        Ok(Downloader {
            inner: Arc::new(Inner {
                trusted,
                cfg: config,
                transport,
                local,
                permits,
                checked: Mutex::new(HashSet::new()),
                ledger: Ledger::default(),
                prefetches,
                went_remote: std::sync::atomic::AtomicBool::new(false),
            }),
            replay: None,
        })
    }

    /// Starts on `handle`, ahead of its download, what the first attempt to download
    /// `artifact` from `repositories` will request (the file and its first checksum file from
    /// the first repository it would ask), unless the artifact is local already, is not a fixed
    /// release, or repository filters or offline mode may decide otherwise, or this session has
    /// not asked a server for anything yet (all its POMs were local). Nothing is written to
    /// the local repository: the download takes the answers ([`crate::download::prefetch`]).
    /// Returns the keys started, for [`Self::forget_prefetched`].
    pub(crate) fn prefetch(
        &self,
        artifact: &Artifact,
        repositories: &[RemoteRepository],
        handle: &tokio::runtime::Handle,
    ) -> Vec<String> {
        if self.replay.is_some()
            || artifact.local_path.is_some()
            || !self
                .inner
                .went_remote
                .load(std::sync::atomic::Ordering::Relaxed)
        {
            return Vec::new();
        }
        let coord = Coordinate::of(artifact);
        let Some((repo, paths)) = self.inner.prefetch_plan(&coord, repositories) else {
            return Vec::new();
        };
        let mut keys = Vec::new();
        for (path, limit) in paths {
            let Some(key) = prefetch_key(&repo, path.as_str()) else {
                continue;
            };
            let this = self.clone();
            let repo = repo.clone();
            // Bounded by the table (at most one HTTP/2 connection's streams at once), not
            // by the session's permits: on HTTP/2 they travel on a connection of their own.
            let request = async move {
                this.inner
                    .transport
                    .get_bytes_for(&repo, path.as_str(), limit, Purpose::Ahead)
                    .await
            };
            if self.inner.prefetches.start(key.clone(), handle, request) {
                keys.push(key);
            }
        }
        keys
    }

    /// Whether this session has asked a server for anything yet (else every file it resolved
    /// was local).
    pub(crate) fn went_remote(&self) -> bool {
        self.inner
            .went_remote
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// As if this session had asked a server for something (for tests of what follows).
    #[cfg(test)]
    pub(crate) fn mark_went_remote(&self) {
        self.inner.going_remote();
    }

    /// Drops what [`Self::prefetch`] started under `keys` and no download took.
    pub(crate) fn forget_prefetched(&self, keys: &[String]) {
        self.inner.prefetches.forget(keys);
    }

    /// What this downloader asked and recorded in this session: whether the order of requests
    /// mattered, and a replay in Maven's order ([`Ledger`]).
    pub(crate) fn ledger(&self) -> &Ledger {
        &self.inner.ledger
    }

    /// This downloader seeing the local repository as `replay` says (one collection's replay
    /// in Maven's order); the transport and everything else are shared.
    pub(crate) fn replaying(&self, replay: Replay) -> Downloader {
        Downloader {
            inner: self.inner.clone(),
            replay: Some(Arc::new(replay)),
        }
    }

    /// Forgets which metadata was checked and which local files were seen: the next requests
    /// check again, per update policy, and read `_remote.repositories` again (Maven: a new
    /// session).
    pub(crate) fn forget_checks(&self) {
        if let Ok(mut c) = self.inner.checked.lock() {
            c.clear();
        }
        self.inner.local.forget_seen();
    }

    /// The configuration.
    pub fn config(&self) -> &DownloaderConfig {
        &self.inner.cfg
    }

    /// The transport (to inspect the client pool).
    pub fn transport(&self) -> &Transport {
        &self.inner.transport
    }

    /// A place among the requests in flight (held while a request runs).
    pub(crate) async fn request_permit(&self) -> Option<tokio::sync::SemaphorePermit<'_>> {
        self.inner.permits.acquire().await.ok()
    }

    /// The local repository (its in-process locks are shared by everything the session writes).
    pub(crate) fn local(&self) -> &LocalRepository {
        &self.inner.local
    }

    /// A `_remote.repositories` record was written (the ledger must know).
    pub(crate) fn noted_written(&self, file: &Path, repository: &str) {
        self.inner
            .note_written(file, repository, self.replay.as_deref());
    }

    /// Downloads every artifact from `repositories` (in Maven's order, after mirrors, proxies
    /// and authentication), at most [`DownloaderConfig::max_in_flight`] at once; results in
    /// input order.
    pub async fn download(
        &self,
        artifacts: &[Artifact],
        repositories: &[RemoteRepository],
    ) -> Vec<Result<ArtifactFile, DownloadError>> {
        let limit = self.inner.cfg.max_in_flight.max(1);
        let repositories: Arc<[RemoteRepository]> = Arc::from(repositories);
        futures_util::stream::iter(artifacts.iter().cloned())
            .map(|a| {
                let this = self.clone();
                let repositories = repositories.clone();
                async move {
                    let label = a.to_string();
                    let task = tokio::spawn(async move { this.fetch(&a, &repositories).await });
                    match task.await {
                        Ok(r) => r,
                        Err(e) => Err(DownloadError::Io {
                            artifact: label,
                            path: PathBuf::new(),
                            source: std::io::Error::other(format!("download task failed: {e}")),
                        }),
                    }
                }
            })
            .buffered(limit)
            .collect()
            .await
    }

    /// Downloads one artifact from `repositories` (POMs, parents and BOMs come from the
    /// repositories in force at that point of a dependency graph: the request's, plus those
    /// POMs declare, already mirrored and authenticated).
    pub async fn fetch(
        &self,
        artifact: &Artifact,
        repositories: &[RemoteRepository],
    ) -> Result<ArtifactFile, DownloadError> {
        let coord = Coordinate::of(artifact);
        self.fetch_coordinate(&coord, repositories)
            .await
            .map(|found| found.into_file(artifact.clone()))
    }

    /// [`Self::fetch`] of a coordinate, reporting to the listener.
    pub(crate) async fn fetch_coordinate(
        &self,
        coord: &Coordinate,
        repositories: &[RemoteRepository],
    ) -> Result<Found, DownloadError> {
        let mut r = self
            .inner
            .resolve_one(coord, repositories, self.replay.as_deref())
            .await;
        if let (Some(trusted), Ok(found)) = (&self.inner.trusted, &r) {
            if let Err(e) = self.trusted_check(trusted, coord, found) {
                r = Err(e);
            }
        }
        let listener = &self.inner.cfg.listener;
        match &r {
            Ok(found) => {
                let file = found.artifact(coord);
                listener.on_event(&if found.downloaded {
                    ProgressEvent::Downloaded { file: &file }
                } else {
                    ProgressEvent::Cached { file: &file }
                });
            }
            Err(e) => listener.on_event(&ProgressEvent::Failed {
                artifact: &coord.to_artifact(),
                error: e,
            }),
        }
        r
    }

    /// Resolver 1.9's trusted-checksums post-processing of one artifact handed out.
    fn trusted_check(
        &self,
        trusted: &TrustedChecksums,
        coord: &Coordinate,
        found: &Found,
    ) -> Result<(), DownloadError> {
        let rel =
            layout::artifact_path(coord, &found.version).map_err(|e| invalid_path(coord, e))?;
        trusted.check(Checked {
            artifact: &coord.to_string(),
            path: rel.as_str(),
            file: &found.path,
            repository: found.repository.as_deref(),
            snapshot: is_snapshot_version(&coord.version),
        })
    }

    /// Writes the trusted-checksum summary files that `record` mode changed (Resolver writes
    /// them when its repository system shuts down; a session calls this after each call).
    /// Returns the files written; `Err` names the file that could not be written.
    pub fn flush_trusted_checksums(&self) -> Result<Vec<PathBuf>, (PathBuf, std::io::Error)> {
        match &self.inner.trusted {
            Some(t) => t.flush(),
            None => Ok(Vec::new()),
        }
    }

    /// The version `artifact`'s version stands for: `LATEST`, `RELEASE` and `SNAPSHOT` versions
    /// through `maven-metadata.xml` of `repositories` (as [`Self::fetch`] does before
    /// downloading), any other version as is.
    pub async fn resolve_version(
        &self,
        artifact: &Artifact,
        repositories: &[RemoteRepository],
    ) -> Result<String, DownloadError> {
        self.resolve_coordinate_version(&Coordinate::of(artifact), repositories)
            .await
    }

    pub(crate) async fn resolve_coordinate_version(
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
    ) -> (Vec<(String, Option<String>)>, Vec<MetadataError>) {
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
                problems.push(MetadataError::InvalidPath {
                    what: format!("{group_id}:{artifact_id}"),
                    repository: None,
                    source,
                });
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

    /// The local repository this downloader writes into.
    pub fn local_repository(&self) -> &Path {
        &self.inner.cfg.local_repository
    }

    /// The file Maven Resolver hands out for `file` (`DefaultArtifactResolver.getFile`):
    /// with snapshot normalization (the default) a timestamped snapshot's `-SNAPSHOT` copy,
    /// made or refreshed now when missing or different; otherwise `file.path`.
    pub fn class_path_file(&self, file: &ArtifactFile) -> PathBuf {
        let version = &file.version;
        if !self.inner.cfg.snapshot_normalization || *version == base_version(version) {
            return file.path.clone();
        }
        let coord = Coordinate::of(&file.artifact);
        self.inner
            .normalize_snapshot(&coord, version, &file.path, self.replay.as_deref());
        match self
            .inner
            .local
            .artifact_file(&coord, &base_version(version))
        {
            Ok(target) if target.is_file() => target,
            _ => file.path.clone(),
        }
    }
}

/// What [`Inner::resolve_one`] found: an [`ArtifactFile`] without the artifact.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    pub(crate) version: String,
    pub(crate) path: PathBuf,
    pub(crate) repository: Option<String>,
    pub(crate) downloaded: bool,
    pub(crate) checksum: ChecksumOutcome,
    pub(crate) warnings: Vec<String>,
}

impl Found {
    pub(crate) fn into_file(self, artifact: Artifact) -> ArtifactFile {
        ArtifactFile {
            artifact,
            version: self.version,
            path: self.path,
            repository: self.repository,
            downloaded: self.downloaded,
            checksum: self.checksum,
            warnings: self.warnings,
        }
    }

    fn artifact(&self, coord: &Coordinate) -> ArtifactFile {
        self.clone().into_file(coord.to_artifact())
    }
}

/// A blocking facade over [`Downloader`] with a runtime of its own, for build tools without
/// one (a [`crate::Session`] has its own engine and does not need this).
pub struct BlockingDownloader {
    runtime: OwnedRuntime,
    downloader: Downloader,
}

impl std::fmt::Debug for BlockingDownloader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.downloader.fmt(f)
    }
}

impl BlockingDownloader {
    /// Builds a downloader and a multi-threaded runtime sized to the machine (2 to 4 workers).
    pub fn new(config: DownloaderConfig) -> Result<Self, DownloadError> {
        let runtime = OwnedRuntime::new("m2r-download")
            .map_err(|e| DownloadError::Setup(TransportError::Setup(e.to_string())))?;
        let downloader = Downloader::new(config)?;
        Ok(BlockingDownloader {
            runtime,
            downloader,
        })
    }

    /// Downloads every artifact from `repositories`, blocking; results in input order.
    /// Refused inside a Tokio runtime ([`RuntimeError::Nested`]: use [`Downloader`] there).
    pub fn download(
        &self,
        artifacts: &[Artifact],
        repositories: &[RemoteRepository],
    ) -> Result<Vec<Result<ArtifactFile, DownloadError>>, RuntimeError> {
        let downloader = self.downloader.clone();
        let artifacts = artifacts.to_vec();
        let repositories = repositories.to_vec();
        self.runtime
            .block_on(async move { downloader.download(&artifacts, &repositories).await })
    }

    /// The async downloader inside.
    pub fn downloader(&self) -> &Downloader {
        &self.downloader
    }
}

/// The prefetch table's key of `path` in `repo` (its URL without user info).
fn prefetch_key(repo: &RemoteRepository, path: &str) -> Option<String> {
    let url = repo.url.resolve(path).ok()?;
    Some(prefetch::key(&repo.id, &redact_url(url.as_str())))
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
pub(crate) fn remove_stale_temp_files(dir: &Path, name: &str) {
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

/// A checksum file's answer.
type Fetch = Result<(Vec<u8>, Fetched), TransportError>;

enum Verdict {
    Verified(Algorithm, String),
    Mismatch(Algorithm, String, String),
    /// The checksum file itself was unusable (too large).
    Invalid(Algorithm, String),
    NoChecksums,
}

/// Bodies up to this size stay in memory until they are complete (a POM, a checksum file, a
/// small jar): their folder and temporary file are made once the answer is in, not before the
/// request goes (a 404 leaves no folder behind, and a round of requests leaves as fast as it
/// is asked for).
const HELD_IN_MEMORY: usize = 256 << 10;

/// Streams a body towards a temporary file next to the target, hashing SHA-1 on the way, up to
/// `limit` bytes: held in memory while it is small ([`HELD_IN_MEMORY`]), written into the
/// temporary file once it is larger or complete ([`TempSink::persist`]).
struct TempSink<'a> {
    dir: &'a Path,
    name: &'a str,
    /// Leftover temporary files of this artifact are removed when the folder is first written
    /// (the first attempt of a download; we hold the artifact's lock).
    clean_stale: bool,
    held: Vec<u8>,
    tmp: Option<tempfile::NamedTempFile>,
    sha1: Sha1,
    written: u64,
    limit: u64,
    listener: &'a dyn ProgressListener,
    artifact: &'a Artifact,
    url: String,
}

impl<'a> TempSink<'a> {
    fn new(
        dir: &'a Path,
        name: &'a str,
        clean_stale: bool,
        listener: &'a dyn ProgressListener,
        artifact: &'a Artifact,
        url: String,
        limit: u64,
    ) -> Self {
        TempSink {
            dir,
            name,
            clean_stale,
            held: Vec::new(),
            tmp: None,
            sha1: Sha1::new(),
            written: 0,
            limit,
            listener,
            artifact,
            url,
        }
    }

    /// The temporary file, made (with its folder) on first need, holding what was held.
    fn file(&mut self) -> std::io::Result<&mut tempfile::NamedTempFile> {
        if self.tmp.is_none() {
            let existed = self.dir.is_dir();
            std::fs::create_dir_all(self.dir)?;
            // A folder this download just created holds no leftovers.
            if existed && self.clean_stale {
                remove_stale_temp_files(self.dir, self.name);
            }
            let prefix = format!("{}.", self.name);
            let mut tmp = temp_builder(&prefix, ".tmp").tempfile_in(self.dir)?;
            tmp.write_all(&self.held)?;
            self.held = Vec::new();
            self.tmp = Some(tmp);
        }
        Ok(self.tmp.as_mut().expect("made above"))
    }

    fn digest(&self, alg: Algorithm) -> std::io::Result<String> {
        match (alg, &self.tmp) {
            (Algorithm::Sha1, _) => Ok(hex::encode(self.sha1.clone().finalize())),
            (other, Some(tmp)) => checksum::hash_file(tmp.path(), other),
            (other, None) => Ok(other.hash(&self.held)),
        }
    }

    /// Moves the complete body to `file`; on failure, the path that could not be written.
    fn persist(mut self, file: &Path) -> Result<(), (PathBuf, std::io::Error)> {
        let dir = self.dir.to_path_buf();
        let tmp = self.file().map_err(|e| (dir, e))?;
        let tmp_path = tmp.path().to_path_buf();
        let tmp = self.tmp.take().expect("made by file()");
        tmp.persist(file).map_err(|e| (tmp_path, e.error))?;
        Ok(())
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
        self.listener.on_event(&ProgressEvent::TransferStarted {
            artifact: self.artifact,
            url: &self.url,
            size: len,
        });
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
        if self.tmp.is_none() && self.held.len() + chunk.len() <= HELD_IN_MEMORY {
            self.held.extend_from_slice(chunk);
        } else {
            self.file()?.write_all(chunk)?;
        }
        self.sha1.update(chunk);
        self.listener.on_event(&ProgressEvent::TransferProgress {
            artifact: self.artifact,
            bytes: chunk.len() as u64,
        });
        Ok(())
    }
    fn reset(&mut self) -> std::io::Result<()> {
        self.held.clear();
        if let Some(tmp) = &mut self.tmp {
            let f = tmp.as_file_mut();
            f.set_len(0)?;
            f.seek(SeekFrom::Start(0))?;
        }
        self.sha1 = Sha1::new();
        self.written = 0;
        Ok(())
    }
}

impl Inner {
    fn checksum_policy(&self, repo: &RemoteRepository, snapshot: bool) -> ChecksumPolicy {
        self.cfg
            .checksum_policy
            .unwrap_or_else(|| parse_checksum_policy(&repo.policy(snapshot).checksum_policy))
    }

    fn update_policy(
        &self,
        repo: &RemoteRepository,
        snapshot: bool,
        warnings: &mut Vec<MetadataError>,
    ) -> UpdatePolicy {
        let raw = self
            .cfg
            .update_policy
            .clone()
            .unwrap_or_else(|| repo.policy(snapshot).update_policy.clone());
        let (p, w) = UpdatePolicy::parse(&raw);
        if w.is_some() {
            let w = MetadataError::UnknownUpdatePolicy {
                repository: repo.id.clone(),
                policy: crate::printable::quote_prefix(&raw, 80),
            };
            tracing::debug!("{w}");
            warnings.push(w);
        }
        p
    }

    fn going_remote(&self) {
        self.went_remote
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// `path` of `repo` into memory: the answer made ahead, or a request for `purpose`
    /// (a checksum file beside its artifact, or a file waited for: metadata).
    async fn get_bytes(
        &self,
        repo: &RemoteRepository,
        path: &RepoPath,
        limit: u64,
        purpose: Purpose,
    ) -> Result<(Vec<u8>, Fetched), TransportError> {
        match self.prefetched(repo, path).await {
            Some(Ok((body, _))) if body.len() as u64 > limit => {}
            Some(answer) => return answer,
            None => {}
        }
        self.going_remote();
        let _permit = self.permits.acquire().await.ok();
        self.transport
            .get_bytes_for(repo, path, limit, purpose)
            .await
    }

    async fn get_into(
        &self,
        repo: &RemoteRepository,
        path: &RepoPath,
        sink: &mut dyn BodySink,
    ) -> Result<Fetched, TransportError> {
        match self.prefetched(repo, path).await {
            Some(Ok((body, fetched))) => return self.transport.replay(repo, &body, fetched, sink),
            Some(Err(e)) => return Err(e),
            None => {}
        }
        self.going_remote();
        let _permit = self.permits.acquire().await.ok();
        self.transport.download(repo, path, sink).await
    }

    /// The answer a request made ahead got for `path` of `repo`, taken (`None`: none was
    /// made, or it missed: ask the server).
    async fn prefetched(
        &self,
        repo: &RemoteRepository,
        path: &RepoPath,
    ) -> Option<Result<(Vec<u8>, Fetched), TransportError>> {
        let key = prefetch_key(repo, path.as_str())?;
        self.prefetches.take(&key).await?.result()
    }

    /// What [`Downloader::prefetch`] asks for `coord`: the repository the download would try
    /// first and the paths with their size limits, or `None` when the download might decide
    /// otherwise (a local file or a cached not-found, a version metadata must resolve,
    /// repository filters, offline) or the budget is spent.
    fn prefetch_plan(
        &self,
        coord: &Coordinate,
        repositories: &[RemoteRepository],
    ) -> Option<(RemoteRepository, Vec<(RepoPath, u64)>)> {
        if self.cfg.offline
            || self.cfg.filter.is_some()
            || coord.extension == "pom"
            || !self.prefetches.has_room()
            || VersionRequest::of(&coord.version) != VersionRequest::Fixed
            || is_snapshot_version(&coord.version)
        {
            return None;
        }
        let file = self.local.artifact_file(coord, &coord.version).ok()?;
        // The session's memory first: a warm build asks this of every artifact of every call
        // (a file found present is remembered with its records for the download that follows).
        if self.local.present(&file) || Self::marker(&file).exists() {
            return None;
        }
        let ids: Vec<&str> = repositories.iter().map(|r| r.id.as_str()).collect();
        if self.cfg.tail.is_some() && self.find_in_tail(coord, &coord.version, &ids).is_some() {
            return None;
        }
        let repo = repositories.iter().find(|r| r.policy(false).enabled)?;
        if repo.blocked {
            return None;
        }
        let rel = layout::artifact_path(coord, &coord.version).ok()?;
        let limit = self.cfg.limits.max_artifact_bytes.min(prefetch::MAX_BODY);
        let mut paths = vec![(rel.clone(), limit)];
        if self.checksum_policy(repo, false) != ChecksumPolicy::Ignore {
            if let Some(a) = self.cfg.checksum_algorithms.algorithms().first() {
                let sum = layout::checksum_path(&rel, &a.extension).ok()?;
                paths.push((sum, self.cfg.limits.max_checksum_bytes));
            }
        }
        Some((repo.clone(), paths))
    }

    async fn resolve_one(
        &self,
        coord: &Coordinate,
        repositories: &[RemoteRepository],
        replay: Option<&Replay>,
    ) -> Result<Found, DownloadError> {
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
        let counts = |file: &Path, id: &str| replay.is_none_or(|r| r.counts(file, id));
        let resolved = |repository: Option<String>,
                        downloaded: bool,
                        checksum: ChecksumOutcome,
                        warnings: Vec<String>| {
            Found {
                version: version.clone(),
                path: file.clone(),
                repository,
                downloaded,
                checksum,
                warnings,
            }
        };
        // What the session saw of the file before (one read of `_remote.repositories` for all
        // the calls that ask for it); the check under the lock below reads it again.
        match self
            .local
            .remembered_availability_where(&file, &ids, |id| counts(&file, id))
        {
            Availability::Available(r) => {
                // Resolver normalizes a timestamped snapshot found locally too (`getFile`).
                if self.cfg.snapshot_normalization && version != base_version(&version) {
                    self.normalize_snapshot(coord, &version, &file, replay);
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
            return Ok(Found {
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
                .download_from(
                    repo,
                    coord,
                    &version,
                    &file,
                    snapshot,
                    replay,
                    &mut warnings,
                )
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
        let mut problems = Vec::new();
        let policy = self.update_policy(repo, snapshot, &mut problems);
        warnings.extend(problems.iter().map(ToString::to_string));
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
    #[allow(clippy::too_many_arguments)]
    async fn download_from(
        &self,
        repo: &RemoteRepository,
        coord: &Coordinate,
        version: &str,
        file: &Path,
        snapshot: bool,
        replay: Option<&Replay>,
        warnings: &mut Vec<String>,
    ) -> Result<(ChecksumOutcome, bool, String), DownloadError> {
        let label = coord.to_string();
        let rel = layout::artifact_path(coord, version).map_err(|e| invalid_path(coord, e))?;
        // The first checksum file is fetched alongside the artifact.
        let first_sum = match self.cfg.checksum_algorithms.algorithms().first() {
            Some(a) => Some((
                a.algorithm,
                layout::checksum_path(&rel, &a.extension).map_err(|e| invalid_path(coord, e))?,
            )),
            None => None,
        };
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
                .availability_where(file, &[repo.id.as_str()], |id| {
                    replay.is_none_or(|r| r.counts(file, id))
                })
        {
            return Ok((ChecksumOutcome::AlreadyLocal, false, repo.id.clone()));
        }
        let dir = file
            .parent()
            .ok_or_else(|| io(file, std::io::Error::other("no parent directory")))?;
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("artifact");
        let policy = self.checksum_policy(repo, snapshot);
        let url = repo
            .url
            .resolve(rel.as_str())
            .map(|u| redact_url(u.as_str()))
            .unwrap_or_else(|_| rel.to_string());
        let listener = self.cfg.listener.as_ref();
        let artifact = coord.to_artifact();
        let mut attempt = 0;
        loop {
            attempt += 1;
            let limit = self.cfg.limits.max_artifact_bytes;
            let mut sink = TempSink::new(
                dir,
                name,
                attempt == 1,
                listener,
                &artifact,
                url.clone(),
                limit,
            );
            let want_sums = policy != ChecksumPolicy::Ignore;
            let sum_limit = self.cfg.limits.max_checksum_bytes;
            let (fetched, first) = tokio::join!(self.get_into(repo, &rel, &mut sink), async {
                match &first_sum {
                    Some((alg, path)) if want_sums => Some((
                        *alg,
                        self.get_bytes(repo, path, sum_limit, Purpose::Checksum)
                            .await,
                    )),
                    _ => None,
                }
            });
            let fetched = fetched.map_err(|source| DownloadError::Transfer {
                artifact: label.clone(),
                source,
            })?;
            let verdict = if want_sums {
                self.verify(repo, &rel, &sink, &fetched.headers, first)
                    .await
                    .map_err(|e| io(dir, e))?
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
            self.note_written(file, &repo.id, replay);
            // No fsync: like Maven Resolver, rely on write-to-temp-then-rename for atomicity;
            // an fsync per artifact costs milliseconds each on a real disk.
            sink.persist(file).map_err(|(path, e)| io(&path, e))?;
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
                self.normalize_snapshot(coord, version, file, replay);
            }
            return Ok((outcome.0, true, repo.id.clone()));
        }
    }

    /// Copies `a-1.0-20240102.030405-7.jar` to `a-1.0-SNAPSHOT.jar` when missing or different
    /// (streamed, never read whole into memory).
    fn normalize_snapshot(
        &self,
        coord: &Coordinate,
        version: &str,
        file: &Path,
        replay: Option<&Replay>,
    ) {
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
        self.note_written(&target, "", replay);
    }

    /// A `_remote.repositories` record (or an untracked copy, id `""`) was written.
    fn note_written(&self, file: &Path, repository: &str, replay: Option<&Replay>) {
        self.ledger.note_written(file, repository);
        if let Some(r) = replay {
            r.note_written(file, repository);
        }
    }

    /// Checks the downloaded body as Resolver's `ChecksumValidator` does: checksums included in
    /// the response headers first (for the session's algorithms only), then each algorithm's
    /// checksum file in order (the first one was fetched alongside the body), the first found
    /// deciding. Any mismatch is a mismatch (spec §8.5).
    async fn verify(
        &self,
        repo: &RemoteRepository,
        rel: &RepoPath,
        sink: &TempSink<'_>,
        headers: &HeaderMap,
        first: Option<(Algorithm, Fetch)>,
    ) -> std::io::Result<Verdict> {
        let algorithms = self.cfg.checksum_algorithms.algorithms();
        if let Some((alg, expected)) = included_checksums(headers)
            .into_iter()
            .find(|(alg, _)| algorithms.iter().any(|a| a.algorithm == *alg))
        {
            let actual = sink.digest(alg)?;
            return Ok(if checksum::matches(&expected, &actual) {
                Verdict::Verified(alg, expected)
            } else {
                Verdict::Mismatch(alg, expected, actual)
            });
        }
        let mut first = first;
        for entry in algorithms {
            let alg = entry.algorithm;
            let result = match first.take() {
                Some((a, r)) if a == alg => r,
                _ => match layout::checksum_path(rel, &entry.extension) {
                    Ok(path) => {
                        self.get_bytes(
                            repo,
                            &path,
                            self.cfg.limits.max_checksum_bytes,
                            Purpose::Checksum,
                        )
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
            Err(e) => warnings.push(crate::printable::error_chain(&e)),
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
            let mut metadata_warnings = Vec::new();
            let refreshed = self
                .refresh_metadata(
                    repo,
                    coord,
                    version_dir,
                    snapshot_policy,
                    &mut metadata_warnings,
                )
                .await;
            warnings.extend(metadata_warnings.iter().map(crate::printable::error_chain));
            match refreshed {
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
                                    source: p,
                                });
                            }
                            warnings.push(crate::printable::error_chain(&p));
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
        warnings: &mut Vec<MetadataError>,
    ) -> Result<Option<Metadata>, MetadataError> {
        let g = &coord.group_id;
        let a = &coord.artifact_id;
        let invalid = |source: SegmentError| MetadataError::InvalidPath {
            what: format!("{g}:{a}").escape_debug().to_string(),
            repository: Some(repo.id.clone()),
            source,
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
        let algorithms = self.cfg.checksum_algorithms.algorithms();
        let sum_paths = algorithms
            .iter()
            .map(|a| layout::checksum_path(&remote_path, &a.extension).map(|p| (a.algorithm, p)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(invalid)?;
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
        let local_error =
            |action: &'static str, path: &Path, e: std::io::Error| MetadataError::Local {
                action,
                path: path.to_path_buf(),
                source: Arc::new(e),
            };
        let _lock = self
            .local
            .lock(&lock_name)
            .await
            .map_err(|e| local_error("lock", &cached, e))?;
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
                // The first checksum file alongside the body, the others only when it is missing.
                let (body, first) = tokio::join!(
                    self.get_bytes(
                        repo,
                        &remote_path,
                        limits.max_metadata_bytes,
                        Purpose::Waited
                    ),
                    async {
                        match sum_paths.first() {
                            Some((_, p)) => Some(
                                self.get_bytes(
                                    repo,
                                    p,
                                    limits.max_checksum_bytes,
                                    Purpose::Checksum,
                                )
                                .await,
                            ),
                            None => None,
                        }
                    }
                );
                let now = to_millis(self.cfg.clock.now()).to_string();
                match body {
                    Ok((bytes, _)) => {
                        let cpolicy = self.checksum_policy(repo, snapshot);
                        if cpolicy != ChecksumPolicy::Ignore {
                            let mut first = first;
                            let mut found = None;
                            for (alg, path) in &sum_paths {
                                let answer = match first.take() {
                                    Some(a) => a,
                                    None => {
                                        self.get_bytes(
                                            repo,
                                            path,
                                            limits.max_checksum_bytes,
                                            Purpose::Checksum,
                                        )
                                        .await
                                    }
                                };
                                if let Some(expected) = answer.ok().and_then(|(b, _)| {
                                    parse_checksum_file(&String::from_utf8_lossy(&b))
                                }) {
                                    found = Some((*alg, expected));
                                    break;
                                }
                            }
                            if let Some((alg, expected)) = found {
                                let actual = alg.hash(&bytes);
                                if !checksum::matches(&expected, &actual) {
                                    let m = MetadataError::ChecksumMismatch {
                                        path: remote_path.to_string(),
                                        repository: repo.id.clone(),
                                        algorithm: alg.name(),
                                        expected: quote_body(&expected),
                                        actual,
                                    };
                                    if cpolicy == ChecksumPolicy::Fail {
                                        return Err(m);
                                    }
                                    warnings.push(m);
                                }
                            }
                        }
                        // Checked before it is stored: an invalid file is never kept or used.
                        let invalid = |source: InvalidMetadata| MetadataError::Invalid {
                            repository: Some(repo.id.clone()),
                            url: url.clone(),
                            source,
                        };
                        let md = Metadata::parse(&bytes, &url)
                            .map_err(|e| invalid(InvalidMetadata::Parse(e)))?;
                        md.check_values(snapshot_base)
                            .map_err(|e| invalid(InvalidMetadata::Value(e)))?;
                        self.local
                            .write_file(&cached, &bytes)
                            .map_err(|e| local_error("write", &cached, e))?;
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
                    Err(source) => {
                        problem = Some(MetadataError::Transfer {
                            path: remote_path.to_string(),
                            repository: repo.id.clone(),
                            source,
                        })
                    }
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
            Ok(Some(md)) => Ok(Some(md)),
            Err(MetadataError::Invalid { source, url, .. }) => Err(MetadataError::Invalid {
                repository: Some(repo.id.clone()),
                url,
                source,
            }),
            Err(other) => Err(other),
        }
    }

    /// A metadata file of the local repository: `Ok(None)` when missing; an error when too large,
    /// malformed, or holding a value that could not be a path.
    fn read_local_metadata(
        &self,
        path: &Path,
        snapshot_base: Option<&str>,
    ) -> Result<Option<Metadata>, MetadataError> {
        let label = path.display().to_string();
        let invalid = |source: InvalidMetadata| MetadataError::Invalid {
            repository: None,
            url: label.clone(),
            source,
        };
        let bytes =
            match crate::bounded::read_regular_file(path, self.cfg.limits.max_metadata_bytes) {
                Ok(b) => b,
                Err(e) if e.is_not_found() => return Ok(None),
                Err(e) => return Err(invalid(InvalidMetadata::Read(Arc::new(e)))),
            };
        let md = Metadata::parse(&bytes, &label).map_err(|e| invalid(InvalidMetadata::Parse(e)))?;
        md.check_values(snapshot_base)
            .map_err(|e| invalid(InvalidMetadata::Value(e)))?;
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
                    Purpose::Waited,
                )
                .await
            {
                Ok((bytes, _)) => Ok(Some(bytes)),
                Err(e) if e.is_not_found() => Ok(None),
                Err(e) => Err(crate::printable::error_chain(&e)),
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
    fn a_small_body_touches_the_disk_only_when_persisted_and_a_large_one_spills() {
        let root = tempfile::tempdir().unwrap();
        let artifact = Artifact::new("g", "a", "", "jar", "1");
        let listener = crate::download::progress::NoProgress;
        for (size, on_disk_before_persist) in [(10, false), (HELD_IN_MEMORY + 1, true)] {
            let dir = root.path().join(format!("g/a/{size}"));
            let mut sink = TempSink::new(
                &dir,
                "a-1.jar",
                true,
                &listener,
                &artifact,
                "u".into(),
                u64::MAX,
            );
            let body = vec![b'x'; size];
            sink.start(&HeaderMap::new(), None).unwrap();
            sink.reset().unwrap();
            for chunk in body.chunks(4096) {
                sink.write(chunk).unwrap();
            }
            assert_eq!(dir.is_dir(), on_disk_before_persist, "{size} bytes");
            assert_eq!(
                sink.digest(Algorithm::Sha256).unwrap(),
                Algorithm::Sha256.hash(&body),
                "{size} bytes"
            );
            assert_eq!(
                sink.digest(Algorithm::Sha1).unwrap(),
                Algorithm::Sha1.hash(&body)
            );
            let target = dir.join("a-1.jar");
            sink.persist(&target).unwrap();
            assert_eq!(std::fs::read(&target).unwrap(), body);
            let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
            assert_eq!(left.len(), 1, "no temporary file left beside it");
        }
    }

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
