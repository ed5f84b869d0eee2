//! An installation into the local repository, as Maven Resolver 1.6.3's `DefaultInstaller` with
//! Maven 3.8.7's metadata generators and enhanced local repository manager does it:
//!
//! - each file goes to its Maven 2 path named with the version as requested (a snapshot keeps
//!   `-SNAPSHOT`), through a temporary file and a rename, with the source's modification time
//!   (milliseconds, as Java keeps it); a file whose size and modification time already match is
//!   left alone — except a POM, which is always copied;
//! - `_remote.repositories` gets `<file>>=` for each (installed locally: an empty repository id);
//! - no checksum files;
//! - then `maven-metadata-local.xml`: at GAV level for a snapshot (`<localCopy>true</localCopy>`),
//!   then at GA level (versions, release), each merged into the existing file under the local
//!   repository's lock. An existing file that cannot be read stops the installation before
//!   anything is copied (Maven fails after copying the artifacts).
//!
//! Installing a file onto itself (a path inside the local repository) is refused, as Maven does.

use super::deploy::check_request;
use super::error::PublishError;
use super::metadata::{
    self, merge_local_snapshot, merge_versions, read_recessive, MetadataArtifact,
};
use super::report::{InstallReport, InstalledFile};
use super::request::PublishRequest;
use crate::download::coords::Coordinate;
use crate::download::local::LocalRepository;
use crate::download::metadata::Metadata;
use crate::download::{Phase, ProgressEvent, ProgressListener};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A modification time as Java's `File.lastModified` sees it: whole milliseconds.
fn millis(t: SystemTime) -> u128 {
    t.duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0)
}

fn install_error(path: &Path) -> impl Fn(std::io::Error) -> PublishError + '_ {
    move |source| PublishError::Install {
        path: path.to_path_buf(),
        source,
    }
}

/// One metadata file to merge.
struct LocalDoc {
    file: PathBuf,
    group_id: String,
    artifact_id: String,
    /// GAV level: the base version and the snapshot's artifacts (classifier, extension).
    gav: Option<(String, Vec<(String, String)>)>,
    /// GA level: the base version, whether it is a snapshot, whether it is a plugin.
    ga: Option<(String, bool, bool)>,
}

fn read_local(file: &Path) -> Result<Option<Metadata>, PublishError> {
    match std::fs::read(file) {
        Ok(bytes) => read_recessive(&bytes, &file.display().to_string()).map_err(|source| {
            PublishError::LocalMetadata {
                path: file.to_path_buf(),
                source,
            }
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(install_error(file)(e)),
    }
}

/// Copies `src` to `dst` unless Maven would skip it; returns whether it copied.
fn copy_artifact(
    local: &LocalRepository,
    src: &Path,
    dst: &Path,
    pom: bool,
) -> Result<bool, PublishError> {
    let src_meta = std::fs::metadata(src).map_err(install_error(src))?;
    let src_time = src_meta.modified().map_err(install_error(src))?;
    let same = std::fs::metadata(dst).ok().is_some_and(|d| {
        d.len() == src_meta.len() && d.modified().ok().map(millis) == Some(millis(src_time))
    });
    if same && !pom {
        return Ok(false);
    }
    if let Some(dir) = dst.parent() {
        std::fs::create_dir_all(dir).map_err(install_error(dir))?;
    }
    local.copy_file(src, dst).map_err(install_error(dst))?;
    let at = UNIX_EPOCH + Duration::from_millis(u64::try_from(millis(src_time)).unwrap_or(0));
    std::fs::OpenOptions::new()
        .write(true)
        .open(dst)
        .and_then(|f| f.set_modified(at))
        .map_err(install_error(dst))?;
    Ok(true)
}

/// Runs one installation (see the [module documentation](self)).
pub(crate) async fn install(
    local: LocalRepository,
    request: PublishRequest,
    listener: Arc<dyn ProgressListener>,
) -> Result<InstallReport, PublishError> {
    check_request(&request)?;
    let timestamp = request.timestamp.unwrap_or_else(chrono::Utc::now);
    let root = local.root().to_path_buf();

    // The metadata files, read once to refuse a broken one before anything is copied.
    let mut docs: Vec<LocalDoc> = Vec::new();
    for m in &request.modules {
        if !m.is_snapshot() {
            continue;
        }
        let base = m.base_version();
        let arts = m
            .artifacts
            .iter()
            .map(|a| (a.classifier.clone(), a.extension.clone()));
        match docs.iter_mut().find(|d| {
            d.group_id == m.group_id
                && d.artifact_id == m.artifact_id
                && d.gav.as_ref().is_some_and(|(v, _)| *v == base)
        }) {
            Some(d) => {
                if let Some((_, list)) = d.gav.as_mut() {
                    list.extend(arts);
                }
            }
            None => docs.push(LocalDoc {
                file: local
                    .metadata_file(&m.group_id, &m.artifact_id, &base, None)
                    .map_err(|e| PublishError::Request {
                        message: format!("cannot install {}: {e}", m.gav()),
                    })?,
                group_id: m.group_id.clone(),
                artifact_id: m.artifact_id.clone(),
                gav: Some((base, arts.collect())),
                ga: None,
            }),
        }
    }
    for m in &request.modules {
        if docs
            .iter()
            .any(|d| d.ga.is_some() && d.group_id == m.group_id && d.artifact_id == m.artifact_id)
        {
            continue;
        }
        let first = &m.artifacts[0];
        docs.push(LocalDoc {
            file: local
                .metadata_file(&m.group_id, &m.artifact_id, "", None)
                .map_err(|e| PublishError::Request {
                    message: format!("cannot install {}: {e}", m.gav()),
                })?,
            group_id: m.group_id.clone(),
            artifact_id: m.artifact_id.clone(),
            gav: None,
            ga: Some((
                m.base_version(),
                m.is_snapshot(),
                first.artifact_type.as_deref() == Some("maven-plugin"),
            )),
        });
    }
    for d in &docs {
        read_local(&d.file)?;
    }

    // The artifacts.
    let copy_local = local.clone();
    let copy_request = request.clone();
    let total = request
        .modules
        .iter()
        .map(|m| m.artifacts.len() as u64)
        .sum();
    listener.on_event(&ProgressEvent::PhaseStarted {
        phase: Phase::Installing,
        total: Some(total),
    });
    let copy_listener = listener.clone();
    let files = tokio::task::spawn_blocking(move || -> Result<Vec<InstalledFile>, PublishError> {
        let local = copy_local;
        let listener = copy_listener;
        let mut out = Vec::new();
        for m in &copy_request.modules {
            for a in &m.artifacts {
                let coord = Coordinate::of(&m.artifact(a));
                let dst =
                    local
                        .artifact_file(&coord, &m.version)
                        .map_err(|e| PublishError::Request {
                            message: format!("cannot install {}: {e}", m.gav()),
                        })?;
                let same_file = match (a.file.canonicalize(), dst.canonicalize()) {
                    (Ok(x), Ok(y)) => x == y,
                    _ => false,
                };
                if same_file {
                    return Err(PublishError::Request {
                        message: format!(
                            "cannot install {}: it is already in the local repository ({})",
                            a.file.display(),
                            dst.display()
                        ),
                    });
                }
                let copied = copy_artifact(&local, &a.file, &dst, a.extension == "pom")?;
                local
                    .record_download(&dst, "")
                    .map_err(install_error(&dst))?;
                listener.on_event(&ProgressEvent::Installed { path: &dst, copied });
                out.push(InstalledFile { path: dst, copied });
            }
        }
        Ok(out)
    })
    .await
    .map_err(|e| PublishError::Install {
        path: root.clone(),
        source: std::io::Error::other(e),
    })
    .and_then(|r| r);
    listener.on_event(&ProgressEvent::PhaseFinished {
        phase: Phase::Installing,
    });
    let files = files?;

    // The metadata, merged under the lock.
    let mut written = Vec::new();
    for d in &docs {
        let name = d
            .file
            .strip_prefix(local.root())
            .unwrap_or(&d.file)
            .to_path_buf();
        let _lock = local.lock(&name).await.map_err(install_error(&d.file))?;
        let old = read_local(&d.file)?;
        let doc = match (&d.gav, &d.ga) {
            (Some((base, arts)), _) => {
                let list: Vec<MetadataArtifact<'_>> = arts
                    .iter()
                    .map(|(c, e)| MetadataArtifact {
                        classifier: c,
                        extension: e,
                        version: base,
                    })
                    .collect();
                merge_local_snapshot(
                    &d.group_id,
                    &d.artifact_id,
                    base,
                    &list,
                    old.as_ref(),
                    timestamp,
                )
            }
            (None, Some((base, snapshot, plugin))) => merge_versions(
                &d.group_id,
                &d.artifact_id,
                base,
                *snapshot,
                *plugin,
                old.as_ref(),
                timestamp,
            ),
            (None, None) => continue,
        };
        local
            .write_file(&d.file, metadata::write(&doc).as_bytes())
            .map_err(install_error(&d.file))?;
        written.push(d.file.clone());
    }
    Ok(InstallReport {
        local_repository: root,
        files,
        metadata: written,
    })
}
