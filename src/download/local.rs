//! The local repository (spec §8.4), shared with Maven: where files go, how Maven's enhanced
//! local repository manager tracks where a file came from (`_remote.repositories`), the tracking
//! property files of the update checks (`*.lastUpdated`, `resolver-status.properties`, §8.7),
//! cross-process locks and atomic writes.
//!
//! Locks are std `File::lock` (advisory `flock`) on files under `<root>/.locks/`, one per
//! artifact (or tracking file), so two processes — or two resolvers in one process — neither
//! corrupt a file nor download it twice. Files are written to a temporary file in the target
//! directory and renamed into place, so a reader never sees a partial file.

use crate::download::coords::Coordinate;
use crate::download::layout;
use crate::download::properties;
use sha1::{Digest, Sha1};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Name of the enhanced local repository manager's tracking file.
pub const TRACKING_FILE: &str = "_remote.repositories";
/// The header comment Resolver writes in tracking files.
pub const TRACKING_NOTE: &str =
    "NOTE: This is a Maven Resolver internal implementation file, its format can be changed without prior notice.";
/// Metadata tracking file (spec §8.7).
pub const RESOLVER_STATUS: &str = "resolver-status.properties";

/// Whether a local file may be used for a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Availability {
    /// No file.
    Missing,
    /// Present and usable: installed locally, untracked, or downloaded from one of the request's
    /// repositories (`Some(id)`).
    Available(Option<String>),
    /// Present but downloaded from repositories not in this request (Maven re-resolves it).
    OtherRepositories(Vec<String>),
}

/// A held cross-process lock; released on drop.
#[derive(Debug)]
pub struct FileLock {
    _file: File,
}

/// A local repository directory.
#[derive(Debug, Clone)]
pub struct LocalRepository {
    root: PathBuf,
}

impl LocalRepository {
    /// A local repository at `root` (created on first write).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        LocalRepository { root: root.into() }
    }

    /// The directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where an artifact at a resolved version lives.
    pub fn artifact_file(&self, coord: &Coordinate, version: &str) -> PathBuf {
        self.root.join(layout::artifact_path(coord, version))
    }

    /// Local copy of metadata: `maven-metadata-local.xml` (`repository = None`) or
    /// `maven-metadata-<repoId>.xml`.
    pub fn metadata_file(
        &self,
        group: &str,
        artifact: &str,
        version: &str,
        repository: Option<&str>,
    ) -> PathBuf {
        let name = match repository {
            None => "maven-metadata-local.xml".to_string(),
            Some(id) => format!("maven-metadata-{id}.xml"),
        };
        self.root
            .join(layout::metadata_dir(group, artifact, version))
            .join(name)
    }

    /// Whether `file` may be used for a request to `repositories` (enhanced manager rules).
    pub fn availability(&self, file: &Path, repositories: &[&str]) -> Availability {
        if !file.is_file() {
            return Availability::Missing;
        }
        let (Some(dir), Some(name)) = (file.parent(), file.file_name().and_then(|n| n.to_str()))
        else {
            return Availability::Available(None);
        };
        let props = read_properties(&dir.join(TRACKING_FILE));
        let prefix = format!("{name}>");
        let repos: Vec<&str> = props
            .keys()
            .filter_map(|k| k.strip_prefix(&prefix))
            .collect();
        if repos.is_empty() || repos.contains(&"") {
            return Availability::Available(None);
        }
        if let Some(r) = repos.iter().find(|r| repositories.contains(r)) {
            return Availability::Available(Some(r.to_string()));
        }
        Availability::OtherRepositories(repos.iter().map(|r| r.to_string()).collect())
    }

    /// Records in `_remote.repositories` that `file` was downloaded from `repository`.
    pub fn record_download(&self, file: &Path, repository: &str) -> io::Result<()> {
        let (Some(dir), Some(name)) = (file.parent(), file.file_name().and_then(|n| n.to_str()))
        else {
            return Ok(());
        };
        let tracking = dir.join(TRACKING_FILE);
        let key = format!("{name}>{repository}");
        self.update_properties(&tracking, |p| {
            if p.contains_key(&key) {
                return false;
            }
            p.insert(key.clone(), String::new());
            true
        })
    }

    /// Locks `<root>/.locks/<hash of name>.lock`, waiting (on a blocking thread) while another
    /// process or resolver holds it.
    pub async fn lock(&self, name: &Path) -> io::Result<FileLock> {
        let path = self.lock_path(name);
        // Uncontended (the usual case): take it right here, no hop to a blocking thread.
        if let Some(lock) = try_lock_now(&path)? {
            return Ok(lock);
        }
        tokio::task::spawn_blocking(move || lock_blocking(&path))
            .await
            .map_err(|e| io::Error::other(format!("lock task failed: {e}")))?
    }

    fn lock_path(&self, name: &Path) -> PathBuf {
        let digest = hex::encode(Sha1::digest(name.to_string_lossy().as_bytes()));
        self.root.join(".locks").join(format!("{digest}.lock"))
    }

    /// Reads, changes and rewrites a properties file under its lock; `change` returns whether
    /// anything changed (nothing is written otherwise). A file left empty is deleted.
    pub fn update_properties(
        &self,
        path: &Path,
        change: impl FnOnce(&mut BTreeMap<String, String>) -> bool,
    ) -> io::Result<()> {
        let _guard = lock_blocking(&self.lock_path(path))?;
        let mut props = read_properties(path);
        if !change(&mut props) {
            return Ok(());
        }
        if props.is_empty() {
            return match std::fs::remove_file(path) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            };
        }
        let date = chrono::Local::now()
            .format("%a %b %d %H:%M:%S %Z %Y")
            .to_string();
        let comments: Vec<&str> = if path.file_name().is_some_and(|n| n == TRACKING_FILE) {
            vec![TRACKING_NOTE, &date]
        } else {
            vec![&date]
        };
        write_atomic(path, properties::render(&props, &comments).as_bytes())
    }
}

/// Opens (creating) a lock file; its folder is created on first use only.
fn open_lock_file(path: &Path) -> io::Result<std::fs::File> {
    let open = || {
        OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
    };
    match open() {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            open()
        }
        other => other,
    }
}

/// Takes the lock if nobody holds it; `None` when it is held elsewhere.
fn try_lock_now(path: &Path) -> io::Result<Option<FileLock>> {
    let file = open_lock_file(path)?;
    match file.try_lock() {
        Ok(()) => Ok(Some(FileLock { _file: file })),
        Err(std::fs::TryLockError::WouldBlock) => Ok(None),
        Err(std::fs::TryLockError::Error(e)) => Err(e),
    }
}

fn lock_blocking(path: &Path) -> io::Result<FileLock> {
    let file = open_lock_file(path)?;
    file.lock()?;
    Ok(FileLock { _file: file })
}

/// Reads a properties file; a missing or unreadable file is empty.
pub fn read_properties(path: &Path) -> BTreeMap<String, String> {
    match std::fs::read(path) {
        Ok(bytes) => properties::parse(&String::from_utf8_lossy(&bytes)),
        Err(_) => BTreeMap::new(),
    }
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path
        .parent()
        .ok_or_else(|| io::Error::other(format!("{} has no parent directory", path.display())))?;
    let builder = || {
        let mut b = tempfile::Builder::new();
        b.prefix(".m2r-").suffix(".tmp");
        b
    };
    // The folder usually exists (the artifact was just stored there): try first, create after.
    let mut tmp = match builder().tempfile_in(dir) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir)?;
            builder().tempfile_in(dir)?
        }
        Err(e) => return Err(e),
    };
    tmp.write_all(bytes)?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn availability_follows_enhanced_manager_rules() {
        let dir = tempfile::tempdir().unwrap();
        let repo = LocalRepository::new(dir.path());
        let c = Coordinate::parse("g:a:1").unwrap();
        let f = repo.artifact_file(&c, "1");
        assert_eq!(repo.availability(&f, &["central"]), Availability::Missing);
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(&f, b"x").unwrap();
        assert_eq!(
            repo.availability(&f, &["central"]),
            Availability::Available(None)
        );
        repo.record_download(&f, "other").unwrap();
        assert_eq!(
            repo.availability(&f, &["central"]),
            Availability::OtherRepositories(vec!["other".into()])
        );
        repo.record_download(&f, "central").unwrap();
        repo.record_download(&f, "central").unwrap();
        assert_eq!(
            repo.availability(&f, &["x", "central"]),
            Availability::Available(Some("central".into()))
        );
        let text = std::fs::read_to_string(f.parent().unwrap().join(TRACKING_FILE)).unwrap();
        assert!(text.starts_with(&format!("#{TRACKING_NOTE}\n#")), "{text}");
        assert!(
            text.contains("\na-1.jar>central=\n") && text.contains("\na-1.jar>other=\n"),
            "{text}"
        );
        // installed locally (empty repository key)
        std::fs::write(f.parent().unwrap().join(TRACKING_FILE), "a-1.jar>=\n").unwrap();
        assert_eq!(
            repo.availability(&f, &["zzz"]),
            Availability::Available(None)
        );
    }

    #[test]
    fn metadata_names() {
        let repo = LocalRepository::new("/r");
        assert_eq!(
            repo.metadata_file("g.h", "a", "1-SNAPSHOT", Some("central")),
            PathBuf::from("/r/g/h/a/1-SNAPSHOT/maven-metadata-central.xml")
        );
        assert_eq!(
            repo.metadata_file("g", "a", "", None),
            PathBuf::from("/r/g/a/maven-metadata-local.xml")
        );
    }

    #[test]
    fn properties_update_and_delete_when_empty() {
        let dir = tempfile::tempdir().unwrap();
        let repo = LocalRepository::new(dir.path());
        let p = dir.path().join("x/a.jar.lastUpdated");
        repo.update_properties(&p, |m| {
            m.insert("http://h/.lastUpdated".into(), "5".into());
            true
        })
        .unwrap();
        assert_eq!(read_properties(&p)["http://h/.lastUpdated"], "5");
        repo.update_properties(&p, |m| {
            m.clear();
            true
        })
        .unwrap();
        assert!(!p.exists());
    }

    #[tokio::test]
    async fn locks_exclude_each_other() {
        let dir = tempfile::tempdir().unwrap();
        let repo = LocalRepository::new(dir.path());
        let g = repo.lock(Path::new("a/b")).await.unwrap();
        let path = repo.lock_path(Path::new("a/b"));
        let other = OpenOptions::new().write(true).open(&path).unwrap();
        assert!(other.try_lock().is_err(), "second lock must wait");
        drop(g);
        assert!(other.try_lock().is_ok());
    }
}
