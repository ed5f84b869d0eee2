//! Fetching exactly one known file: [`Downloader::fetch_exact`], what a locked download
//! (`m2r resolve --frozen`) does for each file of a lock. No metadata, no POM, no checksum
//! sidecar is asked for: the caller knows the SHA-256 (and SHA-1) the file must have.
//!
//! The file streams into a temporary file in its target directory, hashed (SHA-256 and SHA-1)
//! as it arrives, under the same per-file lock as every other download of the local
//! repository; only a file with the expected hashes is renamed into place, recorded in
//! `_remote.repositories` for its repository (so Maven takes it from the local repository
//! later, as after its own download) and given its `.sha1` file; anything else is deleted with
//! the temporary file, and the error names the path, the repository and both hashes.

#![allow(clippy::result_large_err)]

use super::downloader::{remove_stale_temp_files, ArtifactFile, ChecksumOutcome, Downloader};
use super::error::DownloadError;
use super::local::temp_builder;
use super::progress::{ProgressEvent, ProgressListener};
use super::segment::RepoPath;
use crate::repository::RemoteRepository;
use crate::resolution::Artifact;
use crate::transport::{redact_url, BodySink, TransportError};
use http::header::HeaderMap;
use sha1::Sha1;
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What a file fetched by [`Downloader::fetch_exact`] must be.
#[derive(Debug, Clone, Copy)]
pub struct ExpectedFile<'a> {
    /// SHA-256, hex.
    pub sha256: &'a str,
    /// SHA-1, hex, when known.
    pub sha1: Option<&'a str>,
    /// Size in bytes, when known.
    pub size: Option<u64>,
}

/// A file [`Downloader::fetch_exact`] put into the local repository.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExactFile {
    /// The file.
    pub path: PathBuf,
    /// Whether this call downloaded it (`false`: another download finished it meanwhile and
    /// it was verified by hashing).
    pub downloaded: bool,
}

/// Streams into a temporary file, hashing SHA-256 and SHA-1.
struct HashingSink<'a> {
    tmp: tempfile::NamedTempFile,
    sha256: Sha256,
    sha1: Sha1,
    written: u64,
    limit: u64,
    listener: &'a dyn ProgressListener,
    artifact: &'a Artifact,
    url: &'a str,
}

impl BodySink for HashingSink<'_> {
    fn start(&mut self, _headers: &HeaderMap, len: Option<u64>) -> std::io::Result<()> {
        if let Some(n) = len.filter(|n| *n > self.limit) {
            return Err(crate::transport::limits::BodyTooLarge {
                limit: self.limit,
                announced: Some(n),
            }
            .into_io());
        }
        self.listener.on_event(&ProgressEvent::TransferStarted {
            artifact: self.artifact,
            url: self.url,
            size: len,
        });
        Ok(())
    }
    fn write(&mut self, chunk: &[u8]) -> std::io::Result<()> {
        self.written += chunk.len() as u64;
        if self.written > self.limit {
            return Err(crate::transport::limits::BodyTooLarge {
                limit: self.limit,
                announced: None,
            }
            .into_io());
        }
        self.tmp.write_all(chunk)?;
        self.sha256.update(chunk);
        self.sha1.update(chunk);
        self.listener.on_event(&ProgressEvent::TransferProgress {
            artifact: self.artifact,
            bytes: chunk.len() as u64,
        });
        Ok(())
    }
    fn reset(&mut self) -> std::io::Result<()> {
        use std::io::{Seek, SeekFrom};
        let f = self.tmp.as_file_mut();
        f.set_len(0)?;
        f.seek(SeekFrom::Start(0))?;
        self.sha256 = Sha256::new();
        self.sha1 = Sha1::new();
        self.written = 0;
        Ok(())
    }
}

/// SHA-256 and SHA-1 of a file, in one pass.
pub(crate) fn hash_file(path: &Path) -> std::io::Result<(u64, String, String)> {
    use std::io::Read;
    let mut f = std::fs::File::open(path)?;
    let mut buf = vec![0u8; 64 * 1024];
    let (mut a, mut b, mut n) = (Sha256::new(), Sha1::new(), 0u64);
    loop {
        let k = f.read(&mut buf)?;
        if k == 0 {
            break;
        }
        n += k as u64;
        a.update(&buf[..k]);
        b.update(&buf[..k]);
    }
    Ok((n, hex::encode(a.finalize()), hex::encode(b.finalize())))
}

impl Downloader {
    /// Downloads `path` from `repository` into the same path of the local repository, checked
    /// against `expected` (its SHA-256, and SHA-1 when known: only a file with those hashes is
    /// renamed into place, recorded and given its `.sha1`). `artifact` names it in
    /// progress events and errors. A file already at that path is the caller's to check; if
    /// another download puts it there while this one waits for the file's lock, it is hashed
    /// and must match too.
    pub async fn fetch_exact(
        &self,
        repository: &RemoteRepository,
        path: &RepoPath,
        artifact: &Artifact,
        expected: ExpectedFile<'_>,
    ) -> Result<ExactFile, DownloadError> {
        let label = artifact.to_string();
        let local = self.local();
        let file = local.file(path);
        let io = |p: &Path, source: std::io::Error| DownloadError::Io {
            artifact: label.clone(),
            path: p.to_path_buf(),
            source,
        };
        let url = repository
            .url
            .resolve(path.as_str())
            .map(|u| redact_url(u.as_str()))
            .unwrap_or_else(|_| path.to_string());
        let mismatch = |algorithm: &'static str, expected: &str, actual: String| {
            DownloadError::LockedMismatch {
                path: path.to_string(),
                repository: repository.id.clone(),
                url: url.clone(),
                algorithm,
                expected: crate::printable::quote_prefix(expected, 130),
                actual,
            }
        };
        if self.config().offline {
            return Err(DownloadError::Offline {
                artifact: label,
                repository: repository.id.clone(),
                url: repository.url.to_string(),
            });
        }
        if repository.blocked {
            return Err(DownloadError::Blocked {
                artifact: label,
                mirror: repository.id.clone(),
                url: repository.url.to_string(),
                mirrored: "the locked repository".into(),
            });
        }
        local.check_inside(&file).map_err(|e| io(&file, e))?;
        let _lock = local
            .lock(Path::new(path.as_str()))
            .await
            .map_err(|e| io(&file, e))?;
        if file.is_file() {
            // Finished by someone else while this call waited for the lock.
            let (_, sha256, _) = hash_file(&file).map_err(|e| io(&file, e))?;
            if !sha256.eq_ignore_ascii_case(expected.sha256) {
                return Err(DownloadError::NotTrusted {
                    artifact: label,
                    repository: repository.id.clone(),
                    file,
                    trusted_by: "the lock file".into(),
                    algorithm: "SHA-256",
                    expected: expected.sha256.to_string(),
                    actual: sha256,
                });
            }
            return Ok(ExactFile {
                path: file,
                downloaded: false,
            });
        }
        let dir = file
            .parent()
            .ok_or_else(|| io(&file, std::io::Error::other("no parent directory")))?;
        let existed = dir.is_dir();
        std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("artifact")
            .to_string();
        if existed {
            remove_stale_temp_files(dir, &name);
        }
        let prefix = format!("{name}.");
        let tmp = temp_builder(&prefix, ".tmp")
            .tempfile_in(dir)
            .map_err(|e| io(dir, e))?;
        let listener = self.config().listener.clone();
        let mut sink = HashingSink {
            tmp,
            sha256: Sha256::new(),
            sha1: Sha1::new(),
            written: 0,
            limit: self.config().limits.max_artifact_bytes,
            listener: listener.as_ref(),
            artifact,
            url: &url,
        };
        let fetched = {
            let _permit = self.request_permit().await;
            self.transport()
                .download(repository, path.as_str(), &mut sink)
                .await
        };
        let failed = |source: TransportError| {
            if source.is_not_found() {
                DownloadError::NotFound {
                    artifact: label.clone(),
                    searched: format!("{} ({})", repository.id, repository.url),
                }
            } else {
                DownloadError::Transfer {
                    artifact: label.clone(),
                    source,
                }
            }
        };
        let result = fetched.map_err(failed).and_then(|_| {
            let sha256 = hex::encode(sink.sha256.clone().finalize());
            if !sha256.eq_ignore_ascii_case(expected.sha256) {
                return Err(mismatch("SHA-256", expected.sha256, sha256));
            }
            let sha1 = hex::encode(sink.sha1.clone().finalize());
            if let Some(want) = expected.sha1.filter(|w| !w.eq_ignore_ascii_case(&sha1)) {
                return Err(mismatch("SHA-1", want, sha1));
            }
            if let Some(size) = expected.size.filter(|s| *s != sink.written) {
                return Err(mismatch(
                    "size",
                    &size.to_string(),
                    sink.written.to_string(),
                ));
            }
            Ok(sha1)
        });
        let sha1 = match result {
            Ok(s) => s,
            Err(e) => {
                listener.on_event(&ProgressEvent::Failed {
                    artifact,
                    error: &e,
                });
                return Err(e); // the temporary file goes with the sink
            }
        };
        // As a normal download: recorded first, so a reader never finds an untracked file.
        local
            .record_download(&file, &repository.id)
            .map_err(|e| io(&file, e))?;
        self.noted_written(&file, &repository.id);
        let tmp_path = sink.tmp.path().to_path_buf();
        sink.tmp
            .persist(&file)
            .map_err(|e| io(&tmp_path, e.error))?;
        let side = PathBuf::from(format!("{}.sha1", file.display()));
        if let Err(e) = local.write_file(&side, sha1.as_bytes()) {
            tracing::warn!("cannot write {}: {e}", side.display());
        }
        let done = ArtifactFile {
            artifact: artifact.clone(),
            version: artifact.version.clone(),
            path: file.clone(),
            repository: Some(repository.id.clone()),
            downloaded: true,
            checksum: ChecksumOutcome::Verified {
                algorithm: "SHA-256",
            },
            warnings: Vec::new(),
        };
        listener.on_event(&ProgressEvent::Downloaded { file: &done });
        Ok(ExactFile {
            path: file,
            downloaded: true,
        })
    }
}
