//! The local repository (spec §8.4), shared with Maven: where files go, how Maven's enhanced
//! local repository manager tracks where a file came from (`_remote.repositories`), the tracking
//! property files of the update checks (`*.lastUpdated`, `resolver-status.properties`, §8.7),
//! cross-process locks and atomic writes.
//!
//! Locks are std `File::lock` (advisory `flock`) on files under `<root>/.locks/`, one per
//! artifact (or tracking file), so two processes — or two resolvers in one process — neither
//! corrupt a file nor download it twice. Within one process, the tasks of one
//! [`LocalRepository`] (and its clones) first queue on an async mutex per lock file (Resolver's
//! in-JVM named locks in front of its file locks): a task waiting for an artifact another task
//! is downloading holds no thread and makes no `flock` call, where each such wait used to take
//! one of the runtime's blocking threads (forty calls of one session resolving the same jars
//! at once made hundreds of them). Files are written to a temporary file in the target
//! directory and renamed into place, so a reader never sees a partial file.
//!
//! Containment: paths come from [`RepoPath`]s (validated segments only), and every path this
//! module writes passes [`LocalRepository::check_inside`] first: it must be the root followed by
//! plain file-name segments, so no value from a settings file, a coordinate or a server can make
//! it write elsewhere. (Symbolic links an administrator put inside the repository are followed,
//! as Maven follows them.)
//!
//! Permissions: files are created as Maven creates them, `0666 & !umask` (directories
//! `0777 & !umask`), not the `0600` of a bare temporary file, so a repository shared between
//! users or mounted into containers keeps working. A server's `<filePermissions>` and
//! `<directoryPermissions>` are not applied here: in Maven 3.8.7 they reach only the wagon's
//! deployment (`put`) side, never the files of the local repository.

use crate::download::coords::Coordinate;
use crate::download::layout;
use crate::download::properties;
use crate::download::segment::{self, RepoPath, SegmentError, SegmentKind};
use sha1::{Digest, Sha1};
use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};

/// Name of the enhanced local repository manager's tracking file.
pub const TRACKING_FILE: &str = "_remote.repositories";
/// The header comment Resolver writes in tracking files.
pub const TRACKING_NOTE: &str =
    "NOTE: This is a Maven Resolver internal implementation file, its format can be changed without prior notice.";
/// Metadata tracking file (spec §8.7).
pub const RESOLVER_STATUS: &str = "resolver-status.properties";
/// Largest tracking file read (`_remote.repositories`, `*.lastUpdated`,
/// `resolver-status.properties`); a larger one is read as empty, with a warning.
pub const MAX_TRACKING_FILE_BYTES: u64 = 4 << 20;

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

/// Where [`LocalRepository::read_records`] takes a folder's `_remote.repositories` from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tracking {
    /// What the session read before, when it did.
    Remembered,
    /// The disk, now.
    FromDisk,
}

/// A held cross-process lock; released on drop (the file lock first, then the in-process
/// queue, so the next task of this process finds the file lock free).
#[derive(Debug)]
pub struct FileLock {
    _file: File,
    _queue: Option<tokio::sync::OwnedMutexGuard<()>>,
}

/// A local repository directory.
#[derive(Debug, Clone)]
pub struct LocalRepository {
    root: PathBuf,
    queues: Arc<LockQueues>,
    seen: Arc<Seen>,
}

/// The files a [`LocalRepository`] saw present, with their `_remote.repositories` records
/// (see [`LocalRepository::remembered_availability_where`]). Every change counts up
/// `generation`; a read from the disk is remembered only when no change came between its start
/// and its end, so a read racing a write of this process is never kept.
#[derive(Debug, Default)]
struct Seen {
    files: Mutex<SeenFiles>,
}

#[derive(Debug, Default)]
struct SeenFiles {
    records: HashMap<PathBuf, Arc<[String]>>,
    /// The keys of each folder's `_remote.repositories` (`name>repository`), as read: a POM and
    /// its jar share one read.
    folders: HashMap<PathBuf, Arc<[String]>>,
    generation: u64,
}

impl Seen {
    fn files(&self) -> std::sync::MutexGuard<'_, SeenFiles> {
        self.files.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn get(&self, file: &Path) -> Option<Arc<[String]>> {
        self.files().records.get(file).cloned()
    }

    /// The generation a read from the disk starts at.
    fn generation(&self) -> u64 {
        self.files().generation
    }

    /// Remembers what a read that started at `generation` found, unless something changed
    /// since.
    fn remember(&self, file: &Path, records: Arc<[String]>, generation: u64) {
        let mut files = self.files();
        if files.generation == generation {
            files.records.insert(file.to_path_buf(), records);
        }
    }

    /// The keys of `folder`'s `_remote.repositories` read before.
    fn folder(&self, folder: &Path) -> Option<Arc<[String]>> {
        self.files().folders.get(folder).cloned()
    }

    /// Remembers the keys of `folder`'s `_remote.repositories` read from `generation` on,
    /// unless something changed since.
    fn remember_folder(&self, folder: &Path, keys: Arc<[String]>, generation: u64) {
        let mut files = self.files();
        if files.generation == generation {
            files.folders.insert(folder.to_path_buf(), keys);
        }
    }

    /// Forgets `file`: this process writes it.
    fn forget(&self, file: &Path) {
        let mut files = self.files();
        files.generation += 1;
        files.records.remove(file);
        if let Some(folder) = file.parent() {
            files.folders.remove(folder);
        }
    }

    /// Forgets `file`, found missing (no write: reads running meanwhile may be kept).
    fn drop_missing(&self, file: &Path) {
        self.files().records.remove(file);
    }

    /// Forgets the files that the records (`keys`, `name>repository`) of a
    /// `_remote.repositories` file (`tracking`) are about.
    fn forget_tracked<'k>(&self, tracking: &Path, keys: impl Iterator<Item = &'k String>) {
        let Some(dir) = tracking.parent() else { return };
        let mut files = self.files();
        files.generation += 1;
        files.folders.remove(dir);
        for key in keys {
            if let Some((name, _)) = key.split_once('>') {
                files.records.remove(&dir.join(name));
            }
        }
    }

    fn clear(&self) {
        let mut files = self.files();
        files.generation += 1;
        files.records.clear();
        files.folders.clear();
    }
}

/// The in-process side of [`LocalRepository::lock`]: one async mutex per lock file that some
/// task holds or waits for (entries whose mutex nobody holds any more are dropped as the
/// table grows).
#[derive(Debug, Default)]
struct LockQueues {
    table: Mutex<QueueTable>,
}

#[derive(Debug, Default)]
struct QueueTable {
    queues: HashMap<PathBuf, Weak<tokio::sync::Mutex<()>>>,
    /// The size at which dead entries are swept next.
    sweep_at: usize,
}

impl LockQueues {
    /// The queue of lock file `path` (made when nobody uses it).
    fn queue(&self, path: &Path) -> Arc<tokio::sync::Mutex<()>> {
        let mut t = self.table.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(q) = t.queues.get(path).and_then(Weak::upgrade) {
            return q;
        }
        if t.queues.len() >= t.sweep_at {
            t.queues.retain(|_, q| q.strong_count() > 0);
            t.sweep_at = (t.queues.len() * 2).max(256);
        }
        let q = Arc::new(tokio::sync::Mutex::new(()));
        t.queues.insert(path.to_path_buf(), Arc::downgrade(&q));
        q
    }
}

impl LocalRepository {
    /// A local repository at `root` (created on first write).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        LocalRepository {
            root: root.into(),
            queues: Arc::default(),
            seen: Arc::default(),
        }
    }

    /// The directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The local file of a repository path.
    pub fn file(&self, path: &RepoPath) -> PathBuf {
        self.root.join(path.as_str())
    }

    /// Where an artifact at a resolved version lives; an error when a part of the coordinate or
    /// the version could not be a path segment.
    pub fn artifact_file(
        &self,
        coord: &Coordinate,
        version: &str,
    ) -> Result<PathBuf, SegmentError> {
        Ok(self.file(&layout::artifact_path(coord, version)?))
    }

    /// Local copy of metadata: `maven-metadata-local.xml` (`repository = None`) or
    /// `maven-metadata-<repoId>.xml`; an error when a part (the repository id included) could
    /// not be a path segment.
    pub fn metadata_file(
        &self,
        group: &str,
        artifact: &str,
        version: &str,
        repository: Option<&str>,
    ) -> Result<PathBuf, SegmentError> {
        let name = match repository {
            None => "maven-metadata-local.xml".to_string(),
            Some(id) => {
                segment::check(SegmentKind::RepositoryId, id)?;
                format!("maven-metadata-{id}.xml")
            }
        };
        let rel =
            layout::metadata_dir(group, artifact, version)?.join(SegmentKind::FileName, &name)?;
        Ok(self.file(&rel))
    }

    /// The final containment check: `path` must be this repository's root followed by plain
    /// file-name segments (no `..`, no absolute part, nothing a segment may not hold).
    pub fn check_inside(&self, path: &Path) -> io::Result<()> {
        let inside = path.strip_prefix(&self.root).ok().is_some_and(|rel| {
            let mut n = 0;
            let ok = rel.components().all(|c| {
                n += 1;
                matches!(c, std::path::Component::Normal(s)
                    if s.to_str().is_some_and(|s| segment::check(SegmentKind::FileName, s).is_ok()))
            });
            ok && n > 0
        });
        if inside {
            Ok(())
        } else {
            Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!(
                    "refusing to write {}: it is not inside the local repository {}",
                    path.display(),
                    self.root.display()
                ),
            ))
        }
    }

    /// Copies `from` to `to` (inside the repository) through a temporary file and a rename,
    /// streaming.
    pub fn copy_file(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.check_inside(to)?;
        let dir = to
            .parent()
            .ok_or_else(|| io::Error::other(format!("{} has no parent directory", to.display())))?;
        let mut tmp = temp_builder(".m2r-", ".tmp").tempfile_in(dir)?;
        io::copy(&mut File::open(from)?, tmp.as_file_mut())?;
        self.seen.forget(to);
        tmp.persist(to).map_err(|e| e.error)?;
        self.seen.forget(to);
        Ok(())
    }

    /// [`write_atomic`] after [`LocalRepository::check_inside`].
    pub fn write_file(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        self.check_inside(path)?;
        self.seen.forget(path);
        let written = write_atomic(path, bytes);
        self.seen.forget(path);
        written
    }

    /// Whether `file` may be used for a request to `repositories` (enhanced manager rules).
    #[cfg(test)]
    pub fn availability(&self, file: &Path, repositories: &[&str]) -> Availability {
        self.availability_where(file, repositories, |_| true)
    }

    /// [`Self::availability`] counting only the `_remote.repositories` records `counts`
    /// accepts (a file whose every record is refused counts as missing), read from the disk
    /// now (what the session remembers of the file is brought up to date).
    pub fn availability_where(
        &self,
        file: &Path,
        repositories: &[&str],
        counts: impl Fn(&str) -> bool,
    ) -> Availability {
        let records = self.read_records(file, Tracking::FromDisk);
        availability_of(records.as_deref(), repositories, counts)
    }

    /// [`Self::availability_where`] from what this repository (and its clones) saw of the file
    /// before, when it saw it present; read from the disk otherwise. A file is seen again
    /// after anything of this process writes it or its `_remote.repositories` records, or
    /// after [`Self::forget_seen`]; a missing file is never remembered (it is looked for each
    /// time). So many calls of one session asking for the same artifact read its records once,
    /// as a Maven session would find them each time unless another process changes them
    /// meanwhile.
    pub fn remembered_availability_where(
        &self,
        file: &Path,
        repositories: &[&str],
        counts: impl Fn(&str) -> bool,
    ) -> Availability {
        let remembered = self.seen.get(file);
        let records = match remembered {
            Some(r) => Some(r),
            None => self.read_records(file, Tracking::Remembered),
        };
        availability_of(records.as_deref(), repositories, counts)
    }

    /// Whether `file` is present, as this repository remembers it or, when it does not, as the
    /// disk says now (then its records are remembered as
    /// [`Self::remembered_availability_where`] would).
    pub fn present(&self, file: &Path) -> bool {
        self.seen.get(file).is_some() || self.read_records(file, Tracking::Remembered).is_some()
    }

    /// Forgets every file seen (the next questions read the disk again).
    pub fn forget_seen(&self) {
        self.seen.clear();
    }

    /// The `_remote.repositories` records of `file` (`None`: no such file), remembered; the
    /// folder's records as `tracking` says.
    fn read_records(&self, file: &Path, tracking: Tracking) -> Option<Arc<[String]>> {
        let generation = self.seen.generation();
        if !file.is_file() {
            self.seen.drop_missing(file);
            return None;
        }
        let (Some(dir), Some(name)) = (file.parent(), file.file_name().and_then(|n| n.to_str()))
        else {
            return Some(Arc::from(Vec::new()));
        };
        let remembered = match tracking {
            Tracking::Remembered => self.seen.folder(dir),
            Tracking::FromDisk => None,
        };
        let keys = match remembered {
            Some(keys) => keys,
            None => {
                let keys: Arc<[String]> = read_properties(&dir.join(TRACKING_FILE))
                    .into_keys()
                    .collect();
                self.seen.remember_folder(dir, keys.clone(), generation);
                keys
            }
        };
        let recorded: Arc<[String]> = keys
            .iter()
            .filter_map(|k| k.strip_prefix(name)?.strip_prefix('>'))
            .map(str::to_string)
            .collect();
        self.seen.remember(file, recorded.clone(), generation);
        Some(recorded)
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
        // Tasks of this process wait here, without a thread.
        let queue = self.queues.queue(&path).lock_owned().await;
        // Uncontended by other processes (the usual case): take it right here, no hop to a
        // blocking thread.
        if let Some(mut lock) = try_lock_now(&path)? {
            lock._queue = Some(queue);
            return Ok(lock);
        }
        let mut lock = tokio::task::spawn_blocking(move || lock_blocking(&path))
            .await
            .map_err(|e| io::Error::other(format!("lock task failed: {e}")))??;
        lock._queue = Some(queue);
        Ok(lock)
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
        self.check_inside(path)?;
        let _guard = lock_blocking(&self.lock_path(path))?;
        let props = read_properties(path);
        if path.file_name().is_some_and(|n| n == TRACKING_FILE) {
            // What the session remembers of the files it tracks is forgotten before and after
            // the change (a read racing it is not kept: see `Seen`).
            let before: Vec<String> = props.keys().cloned().collect();
            self.seen.forget_tracked(path, before.iter());
            let out = self.change_properties(path, props, change);
            self.seen.forget_tracked(path, before.iter());
            return out;
        }
        self.change_properties(path, props, change)
    }

    /// The rest of [`Self::update_properties`], under its lock.
    fn change_properties(
        &self,
        path: &Path,
        mut props: BTreeMap<String, String>,
        change: impl FnOnce(&mut BTreeMap<String, String>) -> bool,
    ) -> io::Result<()> {
        if !change(&mut props) {
            return Ok(());
        }
        let out = self.write_properties(path, &props);
        if path.file_name().is_some_and(|n| n == TRACKING_FILE) {
            self.seen.forget_tracked(path, props.keys());
        }
        out
    }

    fn write_properties(&self, path: &Path, props: &BTreeMap<String, String>) -> io::Result<()> {
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
        write_atomic(path, properties::render(props, &comments).as_bytes())
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
        Ok(()) => Ok(Some(FileLock {
            _file: file,
            _queue: None,
        })),
        Err(std::fs::TryLockError::WouldBlock) => Ok(None),
        Err(std::fs::TryLockError::Error(e)) => Err(e),
    }
}

fn lock_blocking(path: &Path) -> io::Result<FileLock> {
    let file = open_lock_file(path)?;
    file.lock()?;
    Ok(FileLock {
        _file: file,
        _queue: None,
    })
}

/// The enhanced manager's answer for a file with these `_remote.repositories` records
/// (`None`: no file), counting only the records `counts` accepts.
fn availability_of(
    records: Option<&[String]>,
    repositories: &[&str],
    counts: impl Fn(&str) -> bool,
) -> Availability {
    let Some(recorded) = records else {
        return Availability::Missing;
    };
    let repos: Vec<&str> = recorded
        .iter()
        .map(String::as_str)
        .filter(|r| counts(r))
        .collect();
    // An untracked file counts as installed (`""`, Maven's local repository id).
    if repos.is_empty() && (!recorded.is_empty() || !counts("")) {
        return Availability::Missing;
    }
    if repos.is_empty() || repos.contains(&"") {
        return Availability::Available(None);
    }
    if let Some(r) = repos.iter().find(|r| repositories.contains(r)) {
        return Availability::Available(Some(r.to_string()));
    }
    Availability::OtherRepositories(repos.iter().map(|r| r.to_string()).collect())
}

/// Reads a properties file; a missing, unreadable or oversized ([`MAX_TRACKING_FILE_BYTES`])
/// file is empty.
pub fn read_properties(path: &Path) -> BTreeMap<String, String> {
    match crate::bounded::read_regular_file(path, MAX_TRACKING_FILE_BYTES) {
        Ok(bytes) => properties::parse(&String::from_utf8_lossy(&bytes)),
        Err(e) => {
            if !e.is_not_found() {
                tracing::warn!("{e}; read as empty");
            }
            BTreeMap::new()
        }
    }
}

/// A temporary-file builder for files of the local repository: created with mode `0666` so the
/// process umask gives Maven's `0666 & !umask` (tempfile's own default is `0600`).
pub(crate) fn temp_builder<'a>(prefix: &'a str, suffix: &'a str) -> tempfile::Builder<'a, 'a> {
    let mut b = tempfile::Builder::new();
    b.prefix(prefix).suffix(suffix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    b
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path
        .parent()
        .ok_or_else(|| io::Error::other(format!("{} has no parent directory", path.display())))?;
    let builder = || temp_builder(".m2r-", ".tmp");
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
        let f = repo.artifact_file(&c, "1").unwrap();
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
    fn remembered_records_last_until_this_process_writes_them_or_forgets() {
        let dir = tempfile::tempdir().unwrap();
        let repo = LocalRepository::new(dir.path());
        let f = dir.path().join("g/a/1/a-1.jar");
        let tracking = f.parent().unwrap().join(TRACKING_FILE);
        let remembered = |repo: &LocalRepository, ids: &[&str]| {
            repo.remembered_availability_where(&f, ids, |_| true)
        };
        // A missing file is never remembered.
        assert_eq!(remembered(&repo, &["central"]), Availability::Missing);
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(&f, b"x").unwrap();
        std::fs::write(&tracking, "a-1.jar>central=\n").unwrap();
        assert_eq!(
            remembered(&repo, &["central"]),
            Availability::Available(Some("central".into()))
        );
        // Changed behind the session's back: the remembered records answer, a fresh read
        // sees the change (and brings the memory up to date).
        std::fs::write(&tracking, "a-1.jar>other=\n").unwrap();
        assert_eq!(
            remembered(&repo, &["central"]),
            Availability::Available(Some("central".into()))
        );
        assert_eq!(
            repo.availability_where(&f, &["central"], |_| true),
            Availability::OtherRepositories(vec!["other".into()])
        );
        assert_eq!(
            remembered(&repo, &["central"]),
            Availability::OtherRepositories(vec!["other".into()])
        );
        // This process records a download (a clone shares the memory): seen again.
        repo.clone().record_download(&f, "central").unwrap();
        assert_eq!(
            remembered(&repo, &["central"]),
            Availability::Available(Some("central".into()))
        );
        // Forgotten: the disk answers again.
        std::fs::write(&tracking, "a-1.jar>other=\n").unwrap();
        repo.forget_seen();
        assert_eq!(
            remembered(&repo, &["central"]),
            Availability::OtherRepositories(vec!["other".into()])
        );
        // Deleted by this process's write of the file: seen again too.
        std::fs::write(&tracking, "a-1.jar>=\n").unwrap();
        repo.write_file(&f, b"y").unwrap();
        assert_eq!(remembered(&repo, &["zzz"]), Availability::Available(None));
    }

    #[test]
    fn metadata_names() {
        let repo = LocalRepository::new("/r");
        assert_eq!(
            repo.metadata_file("g.h", "a", "1-SNAPSHOT", Some("central"))
                .unwrap(),
            PathBuf::from("/r/g/h/a/1-SNAPSHOT/maven-metadata-central.xml")
        );
        assert_eq!(
            repo.metadata_file("g", "a", "", None).unwrap(),
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

    #[test]
    fn hostile_repository_ids_and_paths_are_refused() {
        let repo = LocalRepository::new("/r");
        assert!(repo.metadata_file("g", "a", "", Some("../../x")).is_err());
        assert!(repo.metadata_file("g", "a", "", Some("a/b")).is_err());
        let dir = tempfile::tempdir().unwrap();
        let repo = LocalRepository::new(dir.path().join("repo"));
        let outside = dir.path().join("x.lastUpdated");
        let e = repo
            .update_properties(&outside, |p| {
                p.insert("k".into(), "v".into());
                true
            })
            .unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::PermissionDenied);
        assert!(!outside.exists());
        let sneaky = dir.path().join("repo/g/../../y");
        assert!(repo.write_file(&sneaky, b"x").is_err());
        assert!(!dir.path().join("y").exists());
        assert!(repo.write_file(&dir.path().join("repo"), b"x").is_err());
    }

    #[cfg(unix)]
    #[test]
    fn files_get_the_umask_mode_not_0600() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a/b.jar");
        write_atomic(&f, b"x").unwrap();
        // SAFETY: umask only reads and sets the process mask; restored right away.
        let mask = unsafe {
            let m = libc::umask(0o022);
            libc::umask(m);
            m
        } as u32;
        let mode = std::fs::metadata(&f).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o666 & !mask);
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

    #[tokio::test]
    async fn tasks_of_one_process_queue_for_a_lock_and_release_it_in_turn() {
        let dir = tempfile::tempdir().unwrap();
        let repo = LocalRepository::new(dir.path());
        let first = repo.lock(Path::new("a/b")).await.unwrap();
        let clone = repo.clone();
        let second = tokio::spawn(async move { clone.lock(Path::new("a/b")).await.unwrap() });
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
        assert!(
            !second.is_finished(),
            "the second task must wait for the first"
        );
        // Another name is not held up.
        drop(repo.lock(Path::new("a/c")).await.unwrap());
        drop(first);
        let held = tokio::time::timeout(std::time::Duration::from_secs(10), second)
            .await
            .expect("the second task gets the lock once the first releases it")
            .unwrap();
        let other = OpenOptions::new()
            .write(true)
            .open(repo.lock_path(Path::new("a/b")))
            .unwrap();
        assert!(
            other.try_lock().is_err(),
            "the second task holds the file lock"
        );
        drop(held);
        assert!(other.try_lock().is_ok());
        // Released queues are swept as the table grows.
        for i in 0..600 {
            drop(repo.lock(Path::new(&format!("n/{i}"))).await.unwrap());
        }
        let live = repo.queues.table.lock().unwrap().queues.len();
        assert!(live < 600, "{live} queues kept");
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_check_inside() {
        use crate::download::local::LocalRepository;
        let repo = LocalRepository::new("/m2/repository");
        assert!(repo
            .check_inside("/m2/repository/g/a/1/a-1.jar".as_ref())
            .is_ok());
        assert!(repo
            .check_inside("/m2/repository/g/../../../etc/x".as_ref())
            .is_err());
        assert!(repo.check_inside("/tmp/x".as_ref()).is_err());
    }
}
