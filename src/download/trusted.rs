//! Trusted checksums as Maven Resolver 1.9 has them: the `trustedChecksums` artifact resolver
//! post-processor (`TrustedChecksumsArtifactResolverPostProcessor`) over the `summaryFile`
//! trusted checksums source (`SummaryFileTrustedChecksumsSource`).
//!
//! A summary file holds one line per artifact in GNU coreutils format, `<hex>  <path>`, the
//! path relative to the local repository root with the artifact's resolved version in the file
//! name (`org/ex/a/1.0-SNAPSHOT/a-1.0-20240102.030405-7.jar`), so `sha256sum -c` can check a
//! local repository against it. It lives at `<basedir>/checksums-<repositoryId>.<ext>`
//! (origin aware, the default) or `<basedir>/checksums.<ext>`; `<basedir>` defaults to
//! `${localRepository}/.checksums` and a relative value is resolved against the local
//! repository. Lines starting with `#` and empty lines are skipped; a later line for the same
//! path wins. Written files are sorted by path (Resolver's documented order), one line each,
//! merged with what is on disk, the previous content kept as `<file>.bak`.
//!
//! Every artifact the downloader hands out (downloaded now or found in the local repository,
//! POMs included, as every `ArtifactResult` reaches Resolver's post-processors) is checked
//! against the summary files of the repository it came from (`local` for a locally installed
//! file) for each configured algorithm: a value that differs fails the artifact; a missing value
//! fails it only with `failIfMissing`. In `record` mode nothing is checked: the computed values
//! are kept and written by [`TrustedChecksums::flush`] (Resolver writes when the repository
//! system shuts down; the session flushes after each call). Snapshots are left alone unless
//! `snapshots` is set. Configuration keys ([`TrustedChecksumsConfig::from_properties`]):
//!
//! | key | default |
//! |---|---|
//! | `aether.artifactResolver.postProcessor.trustedChecksums` | `false` |
//! | `aether.artifactResolver.postProcessor.trustedChecksums.checksumAlgorithms` | `SHA-1` |
//! | `aether.artifactResolver.postProcessor.trustedChecksums.failIfMissing` | `false` |
//! | `aether.artifactResolver.postProcessor.trustedChecksums.record` | `false` |
//! | `aether.artifactResolver.postProcessor.trustedChecksums.snapshots` | `false` |
//! | `aether.trustedChecksumsSource.summaryFile` | `false` |
//! | `aether.trustedChecksumsSource.summaryFile.basedir` | `.checksums` |
//! | `aether.trustedChecksumsSource.summaryFile.originAware` | `true` |
//!
//! As in Resolver, the post-processor needs an enabled source: with none, nothing is checked or
//! recorded, and `failIfMissing` fails every artifact ("no enabled trusted checksums source").

// Errors are per artifact and rare (see `downloader.rs`).
#![allow(clippy::result_large_err)]

use crate::download::checksum::{self, Algorithm, ChecksumAlgorithms};
use crate::download::error::DownloadError;
use crate::download::local::write_atomic;
use crate::download::segment::{self, SegmentKind};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The post-processor's configuration prefix.
pub const POST_PROCESSOR: &str = "aether.artifactResolver.postProcessor.trustedChecksums";
/// The summary-file source's configuration prefix.
pub const SUMMARY_FILE: &str = "aether.trustedChecksumsSource.summaryFile";
/// The default base directory, relative to the local repository.
pub const DEFAULT_BASEDIR: &str = ".checksums";
/// The repository id of an artifact installed locally (Resolver's `LocalRepository.getId()`).
pub const LOCAL_REPOSITORY_ID: &str = "local";
/// Largest summary file read (a line per artifact of a large build is far less).
pub const MAX_SUMMARY_BYTES: u64 = 256 << 20;

/// A name in `aether.artifactResolver.postProcessor.trustedChecksums.checksumAlgorithms` this
/// crate cannot compute.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown checksum algorithm `{name}` in {POST_PROCESSOR}.checksumAlgorithms (known: SHA-1, MD5, SHA-256, SHA-512)")]
pub struct UnknownTrustedAlgorithm {
    /// The name as written (quoted).
    pub name: String,
}

/// The summary-file source: where its files are and how they are named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummaryFileConfig {
    /// The directory of the summary files (absolute).
    pub basedir: PathBuf,
    /// `checksums-<repositoryId>.<ext>` when true, `checksums.<ext>` otherwise.
    pub origin_aware: bool,
}

/// What the session's configuration properties ask of trusted checksums.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TrustedChecksumsConfig {
    /// The algorithms checked or recorded (default SHA-1).
    pub algorithms: ChecksumAlgorithms,
    /// Fail an artifact without a trusted checksum.
    pub fail_if_missing: bool,
    /// Record the checksums of every artifact instead of checking them.
    pub record: bool,
    /// Handle snapshots too.
    pub snapshots: bool,
    /// The summary-file source, when enabled.
    pub summary_file: Option<SummaryFileConfig>,
}

/// Resolver's `ConfigUtils.getBoolean` of a string: `true` in any case is true.
fn boolean(value: Option<&str>, default: bool) -> bool {
    match value {
        Some(v) => v.trim().eq_ignore_ascii_case("true"),
        None => default,
    }
}

impl TrustedChecksumsConfig {
    /// The configuration from the session's configuration properties (`get`), `None` when the
    /// post-processor is off; relative base directories are resolved against
    /// `local_repository`.
    ///
    /// ```
    /// use m2resolver::download::TrustedChecksumsConfig;
    /// let props = [
    ///     ("aether.artifactResolver.postProcessor.trustedChecksums", "true"),
    ///     ("aether.artifactResolver.postProcessor.trustedChecksums.checksumAlgorithms", "SHA-256"),
    ///     ("aether.trustedChecksumsSource.summaryFile", "true"),
    /// ];
    /// let get = |k: &str| props.iter().find(|(n, _)| *n == k).map(|(_, v)| *v);
    /// let c = TrustedChecksumsConfig::from_properties(get, "/m2".as_ref()).unwrap().unwrap();
    /// assert_eq!(c.algorithms.names(), ["SHA-256"]);
    /// assert_eq!(c.summary_file.unwrap().basedir, std::path::Path::new("/m2/.checksums"));
    /// assert!(TrustedChecksumsConfig::from_properties(|_| None, "/m2".as_ref()).unwrap().is_none());
    /// ```
    pub fn from_properties<'a>(
        get: impl Fn(&str) -> Option<&'a str>,
        local_repository: &Path,
    ) -> Result<Option<Self>, UnknownTrustedAlgorithm> {
        if !boolean(get(POST_PROCESSOR), false) {
            return Ok(None);
        }
        let key = |k: &str| format!("{POST_PROCESSOR}.{k}");
        let algorithms =
            ChecksumAlgorithms::parse(get(&key("checksumAlgorithms")).unwrap_or("SHA-1"))
                .map_err(|e| UnknownTrustedAlgorithm { name: e.name })?;
        let summary_file = boolean(get(SUMMARY_FILE), false).then(|| {
            let basedir = get(&format!("{SUMMARY_FILE}.basedir"))
                .map(str::trim)
                .filter(|b| !b.is_empty())
                .unwrap_or(DEFAULT_BASEDIR);
            SummaryFileConfig {
                basedir: local_repository.join(basedir),
                origin_aware: boolean(get(&format!("{SUMMARY_FILE}.originAware")), true),
            }
        });
        Ok(Some(TrustedChecksumsConfig {
            algorithms,
            fail_if_missing: boolean(get(&key("failIfMissing")), false),
            record: boolean(get(&key("record")), false),
            snapshots: boolean(get(&key("snapshots")), false),
            summary_file,
        }))
    }
}

/// The summary file of `repository` for `algorithm`.
pub fn summary_file(
    config: &SummaryFileConfig,
    repository: &str,
    algorithm: Algorithm,
) -> Result<PathBuf, segment::SegmentError> {
    let name = if config.origin_aware {
        segment::check(SegmentKind::RepositoryId, repository)?;
        format!("checksums-{repository}.{}", algorithm.extension())
    } else {
        format!("checksums.{}", algorithm.extension())
    };
    Ok(config.basedir.join(name))
}

/// Parses a summary file: `path → checksum`, later lines winning; comments (`#`), empty lines
/// and lines without the two-space separator are skipped (the last reported in `skipped`).
pub fn parse_summary(text: &str) -> (BTreeMap<String, String>, Vec<String>) {
    let mut out = BTreeMap::new();
    let mut skipped = Vec::new();
    for line in text.lines() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.split_once("  ") {
            Some((sum, path)) => {
                out.insert(path.to_string(), sum.to_string());
            }
            None => skipped.push(crate::printable::quote_prefix(line, 120)),
        }
    }
    (out, skipped)
}

/// Renders a summary file: one `<checksum>  <path>` line per entry, sorted by path.
pub fn render_summary(entries: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    for (path, sum) in entries {
        out.push_str(sum);
        out.push_str("  ");
        out.push_str(path);
        out.push('\n');
    }
    out
}

/// One artifact handed to [`TrustedChecksums::check`].
#[derive(Debug, Clone, Copy)]
pub struct Checked<'a> {
    /// `g:a:ext[:cls]:version`, for messages.
    pub artifact: &'a str,
    /// Its path relative to the repository root, with the resolved version.
    pub path: &'a str,
    /// The file in the local repository.
    pub file: &'a Path,
    /// The repository it came from (`None`: installed locally).
    pub repository: Option<&'a str>,
    /// Whether the requested version is a snapshot.
    pub snapshot: bool,
}

/// The trusted checksums of one downloader: its configuration and the summary files read or
/// recorded so far (read once each, as Resolver caches them for its lifetime).
#[derive(Debug)]
pub struct TrustedChecksums {
    config: TrustedChecksumsConfig,
    files: Mutex<HashMap<PathBuf, BTreeMap<String, String>>>,
    changed: Mutex<BTreeSet<PathBuf>>,
}

impl TrustedChecksums {
    /// Trusted checksums as `config` asks.
    pub fn new(config: TrustedChecksumsConfig) -> Self {
        if config.summary_file.is_none() {
            tracing::warn!(
                "{POST_PROCESSOR} is on but no trusted checksums source is enabled: set {SUMMARY_FILE}=true"
            );
        }
        TrustedChecksums {
            config,
            files: Mutex::new(HashMap::new()),
            changed: Mutex::new(BTreeSet::new()),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &TrustedChecksumsConfig {
        &self.config
    }

    /// The entries of a summary file, read on first use.
    fn with_file<T>(
        &self,
        path: &Path,
        f: impl FnOnce(&mut BTreeMap<String, String>) -> T,
    ) -> Result<T, std::io::Error> {
        let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
        if !files.contains_key(path) {
            let loaded = load(path)?;
            files.insert(path.to_path_buf(), loaded);
        }
        let entries = files
            .get_mut(path)
            .ok_or_else(|| std::io::Error::other("summary file vanished from the cache"))?;
        Ok(f(entries))
    }

    /// Checks (or, in record mode, records) one artifact handed out by the downloader.
    pub fn check(&self, a: Checked<'_>) -> Result<(), DownloadError> {
        if a.snapshot && !self.config.snapshots {
            return Ok(());
        }
        let repository = a.repository.unwrap_or(LOCAL_REPOSITORY_ID);
        let io = |path: &Path, source: std::io::Error| DownloadError::Io {
            artifact: a.artifact.to_string(),
            path: path.to_path_buf(),
            source,
        };
        let Some(source) = &self.config.summary_file else {
            if self.config.fail_if_missing && !self.config.record {
                return Err(DownloadError::TrustedChecksumMissing {
                    artifact: a.artifact.to_string(),
                    repository: repository.to_string(),
                    algorithms: self.config.algorithms.names().join(", "),
                    trusted_by: "any trusted checksums source: none is enabled".into(),
                });
            }
            return Ok(());
        };
        let mut missing = Vec::new();
        for alg in self
            .config
            .algorithms
            .algorithms()
            .iter()
            .map(|c| c.algorithm)
        {
            let summary = summary_file(source, repository, alg).map_err(|e| {
                io(
                    &source.basedir,
                    std::io::Error::new(std::io::ErrorKind::InvalidInput, e.to_string()),
                )
            })?;
            let actual = checksum::hash_file(a.file, alg).map_err(|e| io(a.file, e))?;
            if self.config.record {
                let changed = self
                    .with_file(&summary, |entries| {
                        entries.insert(a.path.to_string(), actual.clone()) != Some(actual.clone())
                    })
                    .map_err(|e| io(&summary, e))?;
                if changed {
                    self.changed
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .insert(summary);
                }
                continue;
            }
            let trusted = self
                .with_file(&summary, |entries| entries.get(a.path).cloned())
                .map_err(|e| io(&summary, e))?;
            match trusted {
                Some(expected) if !checksum::matches(&expected, &actual) => {
                    return Err(DownloadError::NotTrusted {
                        artifact: a.artifact.to_string(),
                        repository: repository.to_string(),
                        file: a.file.to_path_buf(),
                        trusted_by: summary.display().to_string(),
                        algorithm: alg.name(),
                        expected: crate::printable::quote_prefix(&expected, 130),
                        actual,
                    });
                }
                Some(_) => {}
                None => missing.push((alg, summary)),
            }
        }
        if self.config.fail_if_missing && !missing.is_empty() {
            let names: Vec<&str> = missing.iter().map(|(a, _)| a.name()).collect();
            let files: Vec<String> = missing
                .iter()
                .map(|(_, f)| f.display().to_string())
                .collect();
            return Err(DownloadError::TrustedChecksumMissing {
                artifact: a.artifact.to_string(),
                repository: repository.to_string(),
                algorithms: names.join(", "),
                trusted_by: files.join(", "),
            });
        }
        Ok(())
    }

    /// Writes the summary files that recording changed: each merged with what is on disk now
    /// (recorded values win), sorted by path, through a temporary file and a rename, the
    /// previous content kept as `<file>.bak`. Returns the files written.
    pub fn flush(&self) -> Result<Vec<PathBuf>, (PathBuf, std::io::Error)> {
        let changed: Vec<PathBuf> =
            std::mem::take(&mut *self.changed.lock().unwrap_or_else(|e| e.into_inner()))
                .into_iter()
                .collect();
        let mut written = Vec::new();
        for path in changed {
            let recorded = self
                .files
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(&path)
                .cloned()
                .unwrap_or_default();
            write_summary(&path, &recorded).map_err(|e| (path.clone(), e))?;
            written.push(path);
        }
        Ok(written)
    }
}

/// Reads a summary file (missing: empty).
fn load(path: &Path) -> std::io::Result<BTreeMap<String, String>> {
    match crate::bounded::read_regular_file(path, MAX_SUMMARY_BYTES) {
        Ok(bytes) => {
            let (entries, skipped) = parse_summary(&String::from_utf8_lossy(&bytes));
            for line in skipped {
                tracing::warn!(
                    "trusted checksums file {} ignored malformed line {line}",
                    path.display()
                );
            }
            Ok(entries)
        }
        Err(e) if e.is_not_found() => Ok(BTreeMap::new()),
        Err(e) => Err(std::io::Error::other(e)),
    }
}

/// Merges `recorded` into the file at `path` under a lock, keeping a `.bak` of the old file.
fn write_summary(path: &Path, recorded: &BTreeMap<String, String>) -> std::io::Result<()> {
    let dir = path
        .parent()
        .ok_or_else(|| std::io::Error::other("a summary file needs a parent directory"))?;
    std::fs::create_dir_all(dir)?;
    let lock_path = path.with_extension(format!(
        "{}.lock",
        path.extension().and_then(|e| e.to_str()).unwrap_or("")
    ));
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)?;
    lock.lock()?;
    let mut merged = load(path)?;
    merged.extend(recorded.iter().map(|(k, v)| (k.clone(), v.clone())));
    if path.is_file() {
        let mut bak = path.as_os_str().to_owned();
        bak.push(".bak");
        std::fs::copy(path, PathBuf::from(bak))?;
    }
    write_atomic(path, render_summary(&merged).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_lines_as_resolver_reads_them() {
        let text = "# a comment\n\nabc  org/a/1/a-1.jar\nbad line\ndef  org/b/1/b-1.jar\r\n012  org/a/1/a-1.jar\nx  path with  two spaces\n";
        let (entries, skipped) = parse_summary(text);
        assert_eq!(entries["org/a/1/a-1.jar"], "012", "a later line wins");
        assert_eq!(entries["org/b/1/b-1.jar"], "def");
        assert_eq!(
            entries["path with  two spaces"], "x",
            "split at the first separator"
        );
        assert_eq!(skipped, ["bad line"]);
        assert_eq!(
            render_summary(&entries),
            "012  org/a/1/a-1.jar\ndef  org/b/1/b-1.jar\nx  path with  two spaces\n"
        );
    }

    #[test]
    fn file_names_are_origin_aware_by_default() {
        let get = |props: &'static [(&'static str, &'static str)]| {
            move |k: &str| props.iter().find(|(n, _)| *n == k).map(|(_, v)| *v)
        };
        let on: &[(&str, &str)] = &[
            (POST_PROCESSOR, "TRUE"),
            (SUMMARY_FILE, "true"),
            (
                "aether.trustedChecksumsSource.summaryFile.basedir",
                "/abs/sums",
            ),
            (
                "aether.trustedChecksumsSource.summaryFile.originAware",
                "false",
            ),
        ];
        let c = TrustedChecksumsConfig::from_properties(get(on), Path::new("/m2"))
            .unwrap()
            .unwrap();
        let s = c.summary_file.unwrap();
        assert_eq!(
            summary_file(&s, "central", Algorithm::Sha1).unwrap(),
            Path::new("/abs/sums/checksums.sha1")
        );
        let aware = SummaryFileConfig {
            basedir: "/m2/.checksums".into(),
            origin_aware: true,
        };
        assert_eq!(
            summary_file(&aware, "central", Algorithm::Sha512).unwrap(),
            Path::new("/m2/.checksums/checksums-central.sha512")
        );
        assert!(summary_file(&aware, "../x", Algorithm::Sha1).is_err());
        let bad: &[(&str, &str)] = &[
            (POST_PROCESSOR, "true"),
            (
                "aether.artifactResolver.postProcessor.trustedChecksums.checksumAlgorithms",
                "CRC32",
            ),
        ];
        assert!(TrustedChecksumsConfig::from_properties(get(bad), Path::new("/m2")).is_err());
    }

    fn config(dir: &Path, record: bool, fail_if_missing: bool) -> TrustedChecksumsConfig {
        TrustedChecksumsConfig {
            algorithms: ChecksumAlgorithms::parse("SHA-256,SHA-1").unwrap(),
            fail_if_missing,
            record,
            snapshots: false,
            summary_file: Some(SummaryFileConfig {
                basedir: dir.join(".checksums"),
                origin_aware: true,
            }),
        }
    }

    #[test]
    fn recorded_checksums_are_read_back_and_enforced() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a-1.jar");
        std::fs::write(&file, b"jar").unwrap();
        let item = Checked {
            artifact: "g:a:jar:1",
            path: "g/a/1/a-1.jar",
            file: &file,
            repository: Some("central"),
            snapshot: false,
        };
        let rec = TrustedChecksums::new(config(dir.path(), true, false));
        rec.check(item).unwrap();
        let written = rec.flush().unwrap();
        assert_eq!(written.len(), 2);
        let sha256 =
            std::fs::read_to_string(dir.path().join(".checksums/checksums-central.sha256"))
                .unwrap();
        assert_eq!(
            sha256,
            format!("{}  g/a/1/a-1.jar\n", Algorithm::Sha256.hash(b"jar"))
        );
        assert!(rec.flush().unwrap().is_empty(), "nothing changed since");

        let check = TrustedChecksums::new(config(dir.path(), false, true));
        check.check(item).unwrap();
        std::fs::write(&file, b"evil").unwrap();
        let e = check.check(item).unwrap_err();
        let m = e.to_string();
        assert!(m.contains(&Algorithm::Sha256.hash(b"jar")), "{m}");
        assert!(m.contains(&Algorithm::Sha256.hash(b"evil")), "{m}");
        assert!(m.contains("checksums-central.sha256"), "{m}");
        // another repository has no trusted checksum: fails only with failIfMissing
        let other = Checked {
            repository: None,
            ..item
        };
        let e = check.check(other).unwrap_err();
        assert!(e.to_string().contains("checksums-local.sha256"), "{e}");
        let lenient = TrustedChecksums::new(config(dir.path(), false, false));
        lenient.check(other).unwrap();
        // snapshots are left alone by default
        lenient
            .check(Checked {
                snapshot: true,
                ..item
            })
            .unwrap();
    }

    #[test]
    fn flush_merges_with_the_file_on_disk_and_keeps_a_backup() {
        let dir = tempfile::tempdir().unwrap();
        let sums = dir.path().join(".checksums");
        std::fs::create_dir_all(&sums).unwrap();
        let target = sums.join("checksums-central.sha1");
        std::fs::write(&target, "# old\nzzz  z/z/1/z-1.jar\n").unwrap();
        let file = dir.path().join("a.jar");
        std::fs::write(&file, b"a").unwrap();
        let mut cfg = config(dir.path(), true, false);
        cfg.algorithms = ChecksumAlgorithms::parse("SHA-1").unwrap();
        let rec = TrustedChecksums::new(cfg);
        rec.check(Checked {
            artifact: "g:a:jar:1",
            path: "g/a/1/a-1.jar",
            file: &file,
            repository: Some("central"),
            snapshot: false,
        })
        .unwrap();
        // another process added a line meanwhile
        std::fs::write(&target, "# old\nzzz  z/z/1/z-1.jar\nyyy  b/b/1/b-1.jar\n").unwrap();
        rec.flush().unwrap();
        assert_eq!(
            std::fs::read_to_string(&target).unwrap(),
            format!(
                "yyy  b/b/1/b-1.jar\n{}  g/a/1/a-1.jar\nzzz  z/z/1/z-1.jar\n",
                Algorithm::Sha1.hash(b"a")
            )
        );
        assert!(
            std::fs::read_to_string(sums.join("checksums-central.sha1.bak"))
                .unwrap()
                .contains("yyy")
        );
    }
}
