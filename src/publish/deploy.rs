//! A deployment: what Maven Resolver 1.6.3's `DefaultDeployer` does with the basic connector and
//! Wagon, with the same files on the server, in parallel and without half-published versions.
//!
//! 1. Refused offline; every file checked, every checksum algorithm known, before any request.
//! 2. The repository's `maven-metadata.xml` of every snapshot version (GAV level) and of every
//!    `groupId:artifactId` (GA level) is read first, in parallel, and checked against its
//!    checksum file (the repository's checksum policy decides what a mismatch does): missing is
//!    new, unreadable stops the deployment before anything is uploaded. (Maven reads the GA
//!    file only after the artifacts, so a broken one fails the deployment half-way.)
//! 3. The artifacts are uploaded in parallel ([`DeployOptions::max_in_flight`]), each followed
//!    by its checksum files (a checksum that fails to upload is a warning, as in Maven). The
//!    first artifact that fails stops the rest: uploads in flight finish, the others are not
//!    tried, and no metadata is touched.
//! 4. With [`DeployOptions::verify`], one checksum file is read back and compared.
//! 5. Then the metadata, GAV level before GA level of each `groupId:artifactId`, each followed
//!    by its checksums; and in the local repository, as Maven leaves it:
//!    `maven-metadata-<repositoryId>.xml` holding what was uploaded, its update check recorded
//!    in `resolver-status.properties`.
//!
//! Snapshot files are uploaded as `<artifactId>-<base>-<yyyyMMdd.HHmmss>-<build>`, one
//! timestamp and build number per version for the whole request.

use super::checksums::{artifact_gets_checksums, digest_bytes, digest_file};
use super::error::PublishError;
use super::metadata::{
    self, expanded_version, merge_remote_snapshot, merge_versions, read_recessive,
    snapshot_timestamp, Document, MetadataArtifact,
};
use super::options::DeployOptions;
use super::report::{DeployReport, DeployedModule, FileKind, UploadRecord, UploadState};
use super::request::{PublishArtifact, PublishModule, PublishRequest};
use crate::download::coords::Coordinate;
use crate::download::layout;
use crate::download::local::{LocalRepository, RESOLVER_STATUS};
use crate::download::metadata::Metadata;
use crate::download::policy::to_millis;
use crate::download::{Phase, ProgressEvent, ProgressListener};
use crate::repository::RemoteRepository;
use crate::transport::{
    PutOptions, Transport, TransportError, Upload, UploadProgress, Uploaded, DEFAULT_MAX_IN_MEMORY,
};
use bytes::Bytes;
use chrono::Utc;
use futures_util::future::join_all;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::Semaphore;

/// What a deployment works with: the session engine's transport, local repository and
/// progress listener.
#[derive(Clone, Copy)]
pub(crate) struct Deployment<'a> {
    pub transport: &'a Transport,
    pub local: &'a LocalRepository,
    pub listener: &'a Arc<dyn ProgressListener>,
    /// The deployment repository, proxy and credentials injected.
    pub repository: &'a RemoteRepository,
    pub options: &'a DeployOptions,
    pub offline: bool,
}

impl Deployment<'_> {
    /// The redacted URL of `path`.
    fn url(&self, path: &str) -> String {
        self.repository
            .url
            .resolve(path)
            .map(|u| crate::transport::redact_url(u.as_str()))
            .unwrap_or_else(|_| path.to_string())
    }

    /// One `PUT`, its progress events around it.
    async fn put(
        &self,
        path: &str,
        upload: &Upload,
        put: &PutOptions,
        size: u64,
    ) -> Result<Uploaded, TransportError> {
        let url = self.url(path);
        let listener = self.listener.clone();
        listener.on_event(&ProgressEvent::UploadStarted {
            path,
            url: &url,
            size,
        });
        let mut options = put.clone();
        options.progress = Some(Arc::new(Progress {
            listener: listener.clone(),
            path: path.to_string(),
        }) as Arc<dyn UploadProgress>);
        let r = self
            .transport
            .put(self.repository, path, upload, &options)
            .await;
        match &r {
            Ok(u) => listener.on_event(&ProgressEvent::Uploaded {
                path,
                url: &url,
                status: u.status,
            }),
            Err(error) => listener.on_event(&ProgressEvent::UploadFailed { path, error }),
        }
        r
    }
}

/// Ends the deploying phase when the deployment ends, however it ends.
struct PhaseGuard<'a>(&'a dyn ProgressListener);

impl Drop for PhaseGuard<'_> {
    fn drop(&mut self) {
        self.0.on_event(&ProgressEvent::PhaseFinished {
            phase: Phase::Deploying,
        });
    }
}

/// One artifact file to upload.
struct PlannedArtifact {
    path: String,
    file: PathBuf,
    bytes: u64,
    /// `(extension, hex)` of its checksum files.
    checksums: Vec<(String, String)>,
}

/// One metadata document to upload.
struct PlannedMetadata {
    path: String,
    doc: Document,
    /// The local copy (`maven-metadata-<id>.xml`), when the id can name a file.
    local: Option<PathBuf>,
    /// Group of `groupId:artifactId` it belongs to, and whether it is the GA-level file.
    ga: usize,
    ga_level: bool,
}

fn invalid(module: &PublishModule, e: impl std::fmt::Display) -> PublishError {
    PublishError::Request {
        message: format!("cannot deploy {}: {e}", module.gav()),
    }
}

/// The downloader's path coordinates of one file of `m`.
fn coordinate(m: &PublishModule, file: &PublishArtifact) -> Coordinate {
    Coordinate::of(&m.artifact(file))
}

/// Checks what can be checked without the network: files, duplicate artifacts, paths.
pub(crate) fn check_request(request: &PublishRequest) -> Result<(), PublishError> {
    if request.modules.is_empty() {
        return Err(PublishError::Request {
            message: "nothing to publish: the request has no module".into(),
        });
    }
    for m in &request.modules {
        if m.artifacts.is_empty() {
            return Err(invalid(m, "the module has no file"));
        }
        for (i, a) in m.artifacts.iter().enumerate() {
            if m.artifacts[..i]
                .iter()
                .any(|b| b.classifier == a.classifier && b.extension == a.extension)
            {
                return Err(invalid(
                    m,
                    format!(
                        "two files have classifier `{}` and extension `{}`",
                        a.classifier, a.extension
                    ),
                ));
            }
            layout::artifact_path(&coordinate(m, a), &m.version).map_err(|e| invalid(m, e))?;
            match std::fs::metadata(&a.file) {
                Ok(md) if md.is_file() => {}
                Ok(_) => {
                    return Err(PublishError::File {
                        path: a.file.clone(),
                        problem: "it is not a regular file".into(),
                        source: None,
                    })
                }
                Err(e) => {
                    return Err(PublishError::File {
                        path: a.file.clone(),
                        problem: "it cannot be read".into(),
                        source: Some(e),
                    })
                }
            }
        }
    }
    Ok(())
}

/// Distinct keys in order of first appearance.
fn distinct<T: PartialEq + Clone>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for i in items {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

/// Reports the bytes of one upload to the listener.
struct Progress {
    listener: Arc<dyn ProgressListener>,
    path: String,
}

impl UploadProgress for Progress {
    fn sent(&self, bytes: u64) {
        self.listener.on_event(&ProgressEvent::UploadProgress {
            path: &self.path,
            bytes,
        });
    }
}

/// Runs one deployment (see the [module documentation](self)).
pub(crate) async fn deploy(
    d: Deployment<'_>,
    request: &PublishRequest,
) -> Result<DeployReport, PublishError> {
    let repo = d.repository;
    let o = d.options;
    if d.offline {
        return Err(PublishError::Offline {
            repository: repo.id.clone(),
            url: repo.url.to_string(),
        });
    }
    check_request(request)?;
    let timestamp = request.timestamp.unwrap_or_else(Utc::now);
    let mut report = DeployReport {
        repository: repo.id.clone(),
        url: repo.url.to_string(),
        ..DeployReport::default()
    };
    let sem = Arc::new(Semaphore::new(o.max_in_flight.max(1)));
    let put = PutOptions {
        expect_continue: o.expect_continue,
        continue_timeout: o.continue_timeout,
        retry: o.retry,
        retry_statuses: o.retry_statuses.clone(),
        progress: None,
    };

    // 2. What the repository has.
    let snapshot_gavs: Vec<(String, String, String)> = distinct(
        request
            .modules
            .iter()
            .filter(|m| m.is_snapshot())
            .map(|m| (m.group_id.clone(), m.artifact_id.clone(), m.base_version())),
    );
    let gas: Vec<(String, String)> = distinct(
        request
            .modules
            .iter()
            .map(|m| (m.group_id.clone(), m.artifact_id.clone())),
    );
    let mut metadata_paths: Vec<(String, bool)> = Vec::new();
    for (g, a, v) in &snapshot_gavs {
        let p = layout::metadata_path(g, a, v).map_err(|e| PublishError::Request {
            message: format!("cannot deploy {g}:{a}:{v}: {e}"),
        })?;
        metadata_paths.push((p.as_str().to_string(), true));
    }
    for (g, a) in &gas {
        let p = layout::metadata_path(g, a, "").map_err(|e| PublishError::Request {
            message: format!("cannot deploy {g}:{a}: {e}"),
        })?;
        metadata_paths.push((p.as_str().to_string(), false));
    }
    let warnings = Mutex::new(Vec::new());
    let fetched = join_all(metadata_paths.iter().map(|(path, snapshot)| {
        let sem = sem.clone();
        let warnings = &warnings;
        async move {
            let _permit = sem.acquire().await;
            fetch_metadata(d, path, *snapshot, warnings).await
        }
    }))
    .await;
    let mut remote: HashMap<String, Option<Metadata>> = HashMap::new();
    for ((path, _), r) in metadata_paths.iter().zip(fetched) {
        remote.insert(path.clone(), r?);
    }

    // The snapshot versions: one build number per GAV.
    let ts = snapshot_timestamp(timestamp);
    let mut gav_docs: Vec<(usize, PlannedMetadata)> = Vec::new();
    let mut builds: HashMap<(String, String, String), u32> = HashMap::new();
    for (g, a, v) in &snapshot_gavs {
        let path = &metadata_paths[gav_docs.len()].0;
        let arts: Vec<MetadataArtifact<'_>> = request
            .modules
            .iter()
            .filter(|m| &m.group_id == g && &m.artifact_id == a && &m.base_version() == v)
            .flat_map(|m| {
                m.artifacts.iter().map(|x| MetadataArtifact {
                    classifier: &x.classifier,
                    extension: &x.extension,
                    version: &m.version,
                })
            })
            .collect();
        let (doc, build) = merge_remote_snapshot(
            g,
            a,
            v,
            &arts,
            remote.get(path).and_then(Option::as_ref),
            timestamp,
        );
        builds.insert((g.clone(), a.clone(), v.clone()), build);
        let ga = gas.iter().position(|x| x.0 == *g && x.1 == *a).unwrap_or(0);
        gav_docs.push((
            ga,
            PlannedMetadata {
                path: path.clone(),
                doc,
                local: d.local.metadata_file(g, a, v, Some(&repo.id)).ok(),
                ga,
                ga_level: false,
            },
        ));
    }
    let mut docs: Vec<PlannedMetadata> = gav_docs.into_iter().map(|(_, p)| p).collect();
    for (i, (g, a)) in gas.iter().enumerate() {
        let path = &metadata_paths[snapshot_gavs.len() + i].0;
        let (first_module, first) = request
            .modules
            .iter()
            .filter(|m| &m.group_id == g && &m.artifact_id == a)
            .flat_map(|m| m.artifacts.iter().map(move |x| (m, x)))
            .next()
            .ok_or_else(|| PublishError::Request {
                message: format!("{g}:{a} has no file"),
            })?;
        let doc = merge_versions(
            g,
            a,
            &first_module.base_version(),
            first_module.is_snapshot(),
            first.artifact_type.as_deref() == Some("maven-plugin"),
            remote.get(path).and_then(Option::as_ref),
            timestamp,
        );
        docs.push(PlannedMetadata {
            path: path.clone(),
            doc,
            local: d.local.metadata_file(g, a, "", Some(&repo.id)).ok(),
            ga: i,
            ga_level: true,
        });
    }

    // 3. The artifacts, their versions and checksums.
    let mut planned: Vec<(PathBuf, String, String)> = Vec::new();
    for m in &request.modules {
        let build = builds
            .get(&(m.group_id.clone(), m.artifact_id.clone(), m.base_version()))
            .copied();
        let version = match build {
            Some(b) if m.version.ends_with("SNAPSHOT") => expanded_version(&m.version, &ts, b),
            _ => m.version.clone(),
        };
        report.modules.push(DeployedModule {
            gav: m.gav(),
            version: version.clone(),
            build_number: build,
        });
        for a in &m.artifacts {
            let path =
                layout::artifact_path(&coordinate(m, a), &version).map_err(|e| invalid(m, e))?;
            planned.push((
                a.file.clone(),
                path.as_str().to_string(),
                a.extension.clone(),
            ));
        }
    }
    let hashed = join_all(planned.into_iter().map(|(file, path, extension)| {
        let algorithms = if artifact_gets_checksums(&extension, o.checksums_for_signatures) {
            o.checksums.clone()
        } else {
            crate::download::ChecksumAlgorithms::parse("").unwrap_or_default()
        };
        async move {
            let f = file.clone();
            let a = algorithms.clone();
            let digested = tokio::task::spawn_blocking(move || digest_file(&f, &a))
                .await
                .map_err(std::io::Error::other)
                .and_then(|r| r);
            match digested {
                Ok((bytes, checksums)) => Ok(PlannedArtifact {
                    path,
                    file,
                    bytes,
                    checksums,
                }),
                Err(e) => Err(PublishError::File {
                    path: file,
                    problem: "it cannot be read".into(),
                    source: Some(e),
                }),
            }
        }
    }))
    .await
    .into_iter()
    .collect::<Result<Vec<_>, _>>()?;

    let metadata_bytes: Vec<(Bytes, Vec<(String, String)>)> = docs
        .iter()
        .map(|m| {
            let text = Bytes::from(metadata::write(&m.doc));
            let sums = digest_bytes(&text, &o.checksums);
            (text, sums)
        })
        .collect();

    // The plan, in the report: artifacts with their checksums, then the metadata.
    let record = |path: &str, kind, bytes| UploadRecord {
        path: path.to_string(),
        kind,
        bytes,
        state: UploadState::NotAttempted,
    };
    for p in &hashed {
        report
            .uploads
            .push(record(&p.path, FileKind::Artifact, p.bytes));
        for (ext, hex) in &p.checksums {
            report.uploads.push(record(
                &format!("{}.{ext}", p.path),
                FileKind::Checksum,
                hex.len() as u64,
            ));
        }
    }
    for (m, (text, sums)) in docs.iter().zip(&metadata_bytes) {
        report
            .uploads
            .push(record(&m.path, FileKind::Metadata, text.len() as u64));
        for (ext, hex) in sums {
            report.uploads.push(record(
                &format!("{}.{ext}", m.path),
                FileKind::Checksum,
                hex.len() as u64,
            ));
        }
    }
    report.warnings.extend(take(&warnings));
    d.listener.on_event(&ProgressEvent::PhaseStarted {
        phase: Phase::Deploying,
        total: Some(report.uploads.len() as u64),
    });
    let _phase = PhaseGuard(d.listener.as_ref());
    let states: Mutex<HashMap<String, UploadState>> = Mutex::new(HashMap::new());
    let set = |path: &str, state: UploadState| {
        if let Ok(mut s) = states.lock() {
            s.insert(path.to_string(), state);
        }
    };
    let one_line = |e: &TransportError| crate::printable::quote_prefix(&e.to_string(), 400);

    // 4. Artifacts, then their checksums; the first failure stops the rest.
    let stop = AtomicBool::new(false);
    let failure: Mutex<Option<(String, TransportError)>> = Mutex::new(None);
    join_all(hashed.iter().map(|p| {
        let sem = sem.clone();
        let (stop, failure, put, warnings) = (&stop, &failure, &put, &warnings);
        let set = &set;
        async move {
            let permit = match sem.acquire().await {
                Ok(p) if !stop.load(Ordering::Relaxed) => p,
                _ => return,
            };
            let r = d
                .put(&p.path, &Upload::File(p.file.clone()), put, p.bytes)
                .await;
            drop(permit);
            match r {
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    set(
                        &p.path,
                        UploadState::Failed {
                            message: one_line(&e),
                        },
                    );
                    if let Ok(mut f) = failure.lock() {
                        f.get_or_insert((p.path.clone(), e));
                    }
                }
                Ok(u) => {
                    set(
                        &p.path,
                        UploadState::Uploaded {
                            status: u.status,
                            retries: u.retries,
                        },
                    );
                    upload_checksums(d, &sem, put, &p.path, &p.checksums, set, warnings).await;
                }
            }
        }
    }))
    .await;
    apply(&mut report, &states, &warnings);
    if let Some((path, source)) = failure.into_inner().ok().flatten() {
        return Err(PublishError::Upload {
            repository: repo.id.clone(),
            path,
            report: Box::new(report),
            source: Box::new(source),
        });
    }

    // 5. Read one file back.
    if o.verify {
        verify(d, &hashed, &report).await?;
    }

    // 6. Metadata: per groupId:artifactId, the GAV-level files, then the GA-level file.
    let failure: Mutex<Option<(String, TransportError)>> = Mutex::new(None);
    join_all((0..gas.len()).map(|ga| {
        let sem = sem.clone();
        let (docs, metadata_bytes, put, warnings, failure) =
            (&docs, &metadata_bytes, &put, &warnings, &failure);
        let set = &set;
        async move {
            for level in [false, true] {
                let mut ok = true;
                let batch = docs
                    .iter()
                    .zip(metadata_bytes)
                    .filter(|(m, _)| m.ga == ga && m.ga_level == level);
                let results = join_all(batch.map(|(m, (text, sums))| {
                    let sem = sem.clone();
                    async move {
                        let permit = sem.acquire().await;
                        let r = d
                            .put(
                                &m.path,
                                &Upload::Bytes(text.clone()),
                                put,
                                text.len() as u64,
                            )
                            .await;
                        drop(permit);
                        match r {
                            Ok(u) => {
                                set(
                                    &m.path,
                                    UploadState::Uploaded {
                                        status: u.status,
                                        retries: u.retries,
                                    },
                                );
                                upload_checksums(d, &sem, put, &m.path, sums, set, warnings).await;
                                true
                            }
                            Err(e) => {
                                set(
                                    &m.path,
                                    UploadState::Failed {
                                        message: one_line(&e),
                                    },
                                );
                                if let Ok(mut f) = failure.lock() {
                                    f.get_or_insert((m.path.clone(), e));
                                }
                                false
                            }
                        }
                    }
                }))
                .await;
                ok &= results.into_iter().all(|r| r);
                if !ok {
                    return;
                }
            }
        }
    }))
    .await;
    apply(&mut report, &states, &warnings);
    if let Some((path, source)) = failure.into_inner().ok().flatten() {
        return Err(PublishError::MetadataUpload {
            repository: repo.id.clone(),
            path,
            report: Box::new(report),
            source: Box::new(source),
        });
    }

    // 7. The local repository, as Maven leaves it.
    for (m, (text, _)) in docs.iter().zip(&metadata_bytes) {
        if let Some(file) = &m.local {
            if let Err(e) = record_locally(d.local, file, text) {
                report.warnings.push(format!(
                    "cannot record the deployed metadata in {}: {e}",
                    file.display()
                ));
            }
        }
    }
    Ok(report)
}

fn take(warnings: &Mutex<Vec<String>>) -> Vec<String> {
    warnings
        .lock()
        .map(|mut w| std::mem::take(&mut *w))
        .unwrap_or_default()
}

/// Copies the outcomes into the report.
fn apply(
    report: &mut DeployReport,
    states: &Mutex<HashMap<String, UploadState>>,
    warnings: &Mutex<Vec<String>>,
) {
    if let Ok(states) = states.lock() {
        for u in &mut report.uploads {
            if let Some(s) = states.get(&u.path) {
                u.state = s.clone();
            }
        }
    }
    report.warnings.extend(take(warnings));
}

/// Uploads the checksum files of `path` in parallel; a failure is a warning (Maven: "Failed to
/// upload checksum").
async fn upload_checksums(
    d: Deployment<'_>,
    sem: &Arc<Semaphore>,
    put: &PutOptions,
    path: &str,
    checksums: &[(String, String)],
    set: &(dyn Fn(&str, UploadState) + Sync),
    warnings: &Mutex<Vec<String>>,
) {
    join_all(checksums.iter().map(|(ext, hex)| {
        let sem = sem.clone();
        async move {
            let target = format!("{path}.{ext}");
            let _permit = sem.acquire().await;
            match d
                .put(
                    &target,
                    &Upload::Bytes(Bytes::from(hex.clone())),
                    put,
                    hex.len() as u64,
                )
                .await
            {
                Ok(u) => set(
                    &target,
                    UploadState::Uploaded {
                        status: u.status,
                        retries: u.retries,
                    },
                ),
                Err(e) => {
                    let message = crate::printable::quote_prefix(&e.to_string(), 400);
                    if let Ok(mut w) = warnings.lock() {
                        w.push(format!("failed to upload checksum {target}: {message}"));
                    }
                    set(&target, UploadState::Failed { message });
                }
            }
        }
    }))
    .await;
}

/// Fetches one remote metadata file and checks it against its checksum: `None` when the
/// repository has none.
async fn fetch_metadata(
    d: Deployment<'_>,
    path: &str,
    snapshot: bool,
    warnings: &Mutex<Vec<String>>,
) -> Result<Option<Metadata>, PublishError> {
    let (transport, repo, o) = (d.transport, d.repository, d.options);
    let url = d.url(path);
    let bytes = match transport
        .get_bytes_limited(repo, path, DEFAULT_MAX_IN_MEMORY)
        .await
    {
        Ok((bytes, _)) => bytes,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(source) => {
            return Err(PublishError::MetadataFetch {
                repository: repo.id.clone(),
                url,
                source: Box::new(source),
            })
        }
    };
    // The repository's checksum policy (a GA file serves releases and snapshots: the stricter).
    let policy = {
        let release = repo.policy(false).checksum_policy.as_str();
        let snap = repo.policy(true).checksum_policy.as_str();
        let rank = |p: &str| match crate::download::checksum::parse_checksum_policy(p) {
            crate::repository::ChecksumPolicy::Fail => 2,
            crate::repository::ChecksumPolicy::Warn => 1,
            crate::repository::ChecksumPolicy::Ignore => 0,
        };
        if snapshot {
            rank(snap)
        } else {
            rank(release).max(rank(snap))
        }
    };
    if policy > 0 {
        let mut checked = false;
        for a in o.checksums.iter() {
            let sum_path = format!("{path}.{}", a.extension);
            match transport
                .get_bytes_limited(repo, &sum_path, 64 * 1024)
                .await
            {
                Ok((text, _)) => {
                    let text = String::from_utf8_lossy(&text);
                    let expected =
                        crate::download::checksum::parse_checksum_file(&text).unwrap_or_default();
                    let actual = a.algorithm.hash(&bytes);
                    if !crate::download::checksum::matches(&expected, &actual) {
                        if policy == 2 {
                            return Err(PublishError::MetadataChecksum {
                                repository: repo.id.clone(),
                                url,
                                algorithm: a.name.clone(),
                                expected,
                                actual,
                            });
                        }
                        if let Ok(mut w) = warnings.lock() {
                            w.push(format!(
                                "checksum validation failed for {url}: {} expected {expected}, got {actual}; it is merged anyway (checksum policy `warn`)",
                                a.name
                            ));
                        }
                    }
                    checked = true;
                    break;
                }
                Err(e) if e.is_not_found() => continue,
                Err(_) => continue,
            }
        }
        if !checked {
            if let Ok(mut w) = warnings.lock() {
                w.push(format!(
                    "could not validate integrity of download from {url} (no checksum file)"
                ));
            }
        }
    }
    read_recessive(&bytes, &url).map_err(|source| PublishError::RemoteMetadata {
        repository: repo.id.clone(),
        url,
        source,
    })
}

/// Reads one uploaded checksum file (or, without checksums, the artifact) back and compares it.
async fn verify(
    d: Deployment<'_>,
    artifacts: &[PlannedArtifact],
    report: &DeployReport,
) -> Result<(), PublishError> {
    let fail = |path: &str, problem: String, source: Option<Box<TransportError>>| {
        PublishError::Unverified {
            repository: d.repository.id.clone(),
            path: path.to_string(),
            problem,
            report: Box::new(report.clone()),
            source,
        }
    };
    let target = artifacts.iter().find_map(|p| {
        p.checksums
            .first()
            .map(|(ext, hex)| (format!("{}.{ext}", p.path), hex.clone()))
    });
    let Some((path, expected)) = target else {
        return Ok(());
    };
    match d
        .transport
        .get_bytes_limited(d.repository, &path, 64 * 1024)
        .await
    {
        Ok((bytes, _)) => {
            let text = String::from_utf8_lossy(&bytes);
            let got = crate::download::checksum::parse_checksum_file(&text).unwrap_or_default();
            if crate::download::checksum::matches(&expected, &got) {
                Ok(())
            } else {
                Err(fail(
                    &path,
                    format!(
                        "serves `{}` instead of what was uploaded ({expected})",
                        crate::printable::quote_prefix(text.trim(), 80)
                    ),
                    None,
                ))
            }
        }
        Err(e) => Err(fail(
            &path,
            "does not serve it back".into(),
            Some(Box::new(e)),
        )),
    }
}

/// Writes `maven-metadata-<id>.xml` and records the update check, as Maven's deployer leaves the
/// local repository.
fn record_locally(
    local: &LocalRepository,
    file: &std::path::Path,
    text: &[u8],
) -> std::io::Result<()> {
    local.write_file(file, text)?;
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("maven-metadata.xml")
        .to_string();
    let status = file.with_file_name(RESOLVER_STATUS);
    let now = to_millis(std::time::SystemTime::now()).to_string();
    local.update_properties(&status, |p| {
        p.remove(&format!("{name}.error"));
        p.insert(format!("{name}.lastUpdated"), now);
        true
    })
}
