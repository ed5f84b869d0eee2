//! The record of verified files: what lets a warm `--frozen` skip hashing a file the local
//! repository can prove unchanged since it was last verified.
//!
//! `${localRepository}/.m2r/verified` holds one line per file whose SHA-256 m2r computed
//! itself (when it downloaded it for a lock, hashed it for `m2r lock` or checked it for
//! `--frozen`):
//!
//! ```text
//! <sha256> <size> <mtime ns> <ctime ns> <inode> <path relative to the local repository>
//! ```
//!
//! sorted by path. A file counts as verified when the record's SHA-256 is the lock's and its
//! size, modification time, status-change time and inode are what `stat` says now; otherwise
//! it is hashed again (and the line replaced). The status-change time and the inode cannot be
//! set back by a program (`touch -d` sets the modification time only), so a file rewritten in
//! place, replaced by a rename or restored from a backup is hashed again; the record proves
//! nothing about a file system that lies about them. On systems without them (not Unix) both
//! are 0 and size + modification time decide. The record is shared by every project using the
//! local repository; writes merge with the file on disk under `${localRepository}/.m2r/verified.lock`
//! and go through a temporary file and a rename, so concurrent builds lose nothing and a
//! reader never sees half a file. Deleting it only costs one hashing of each file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The record's path under the local repository.
pub const RECORD: &str = ".m2r/verified";

/// What `stat` says of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    /// Size in bytes.
    pub size: u64,
    /// Modification time, nanoseconds since the epoch.
    pub mtime: i128,
    /// Status-change time, nanoseconds since the epoch (0 where unknown).
    pub ctime: i128,
    /// Inode (0 where unknown).
    pub inode: u64,
}

impl Stamp {
    /// The stamp of a file, `None` when it is not a regular file.
    pub fn of(path: &Path) -> Option<Stamp> {
        let m = std::fs::metadata(path).ok()?;
        if !m.is_file() {
            return None;
        }
        let mtime = m
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_nanos() as i128)
            .unwrap_or(0);
        #[cfg(unix)]
        let (ctime, inode) = {
            use std::os::unix::fs::MetadataExt;
            (
                m.ctime() as i128 * 1_000_000_000 + m.ctime_nsec() as i128,
                m.ino(),
            )
        };
        #[cfg(not(unix))]
        let (ctime, inode) = (0, 0);
        Some(Stamp {
            size: m.len(),
            mtime,
            ctime,
            inode,
        })
    }
}

/// One line of the record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The file's SHA-256 when it was verified.
    pub sha256: String,
    /// Its stamp then.
    pub stamp: Stamp,
}

/// The record of one local repository, read once and written back with [`Record::save`].
#[derive(Debug, Default)]
pub struct Record {
    entries: BTreeMap<String, Entry>,
    changed: BTreeMap<String, Entry>,
}

fn parse_line(line: &str) -> Option<(String, Entry)> {
    let mut it = line.splitn(6, ' ');
    let sha256 = it.next()?.to_string();
    let size = it.next()?.parse().ok()?;
    let mtime = it.next()?.parse().ok()?;
    let ctime = it.next()?.parse().ok()?;
    let inode = it.next()?.parse().ok()?;
    let path = it.next()?.to_string();
    if sha256.len() != 64 || path.is_empty() {
        return None;
    }
    Some((
        path,
        Entry {
            sha256,
            stamp: Stamp {
                size,
                mtime,
                ctime,
                inode,
            },
        },
    ))
}

fn parse(text: &str) -> BTreeMap<String, Entry> {
    text.lines().filter_map(parse_line).collect()
}

fn render(entries: &BTreeMap<String, Entry>) -> String {
    let mut out = String::new();
    for (path, e) in entries {
        let s = e.stamp;
        out.push_str(&format!(
            "{} {} {} {} {} {path}\n",
            e.sha256, s.size, s.mtime, s.ctime, s.inode
        ));
    }
    out
}

/// Largest record read (a line is about 140 bytes).
const MAX_RECORD_BYTES: u64 = 512 << 20;

impl Record {
    /// The record of `local_repository` (empty when there is none or it cannot be read: then
    /// every file is hashed).
    pub fn load(local_repository: &Path) -> Record {
        let path = local_repository.join(RECORD);
        let entries = crate::bounded::read_regular_file(&path, MAX_RECORD_BYTES)
            .map(|b| parse(&String::from_utf8_lossy(&b)))
            .unwrap_or_default();
        Record {
            entries,
            changed: BTreeMap::new(),
        }
    }

    /// Whether the file at `rel` (stamped `stamp` now) was verified with SHA-256 `sha256`.
    pub fn proves(&self, rel: &str, stamp: &Stamp, sha256: &str) -> bool {
        self.entries
            .get(rel)
            .is_some_and(|e| e.stamp == *stamp && e.sha256.eq_ignore_ascii_case(sha256))
    }

    /// Notes that the file at `rel` has SHA-256 `sha256` with `stamp`.
    pub fn note(&mut self, rel: &str, stamp: Stamp, sha256: &str) {
        let e = Entry {
            sha256: sha256.to_ascii_lowercase(),
            stamp,
        };
        if self.entries.get(rel) != Some(&e) {
            self.entries.insert(rel.to_string(), e.clone());
            self.changed.insert(rel.to_string(), e);
        }
    }

    /// Writes what changed, merged with the file on disk now, under the record's lock. Nothing
    /// is written when nothing changed.
    pub fn save(&mut self, local_repository: &Path) -> Result<(), (PathBuf, std::io::Error)> {
        if self.changed.is_empty() {
            return Ok(());
        }
        let path = local_repository.join(RECORD);
        let fail = |e: std::io::Error| (path.clone(), e);
        let dir = path.parent().unwrap_or(local_repository);
        std::fs::create_dir_all(dir).map_err(fail)?;
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join("verified.lock"))
            .map_err(fail)?;
        lock.lock().map_err(fail)?;
        let mut merged = crate::bounded::read_regular_file(&path, MAX_RECORD_BYTES)
            .map(|b| parse(&String::from_utf8_lossy(&b)))
            .unwrap_or_default();
        merged.extend(std::mem::take(&mut self.changed));
        crate::download::local::write_atomic(&path, render(&merged).as_bytes()).map_err(fail)?;
        self.entries = merged;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_proven_only_while_its_stamp_holds() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a.jar");
        std::fs::write(&f, b"one").unwrap();
        let sha = crate::download::checksum::Algorithm::Sha256.hash(b"one");
        let mut r = Record::load(dir.path());
        let stamp = Stamp::of(&f).unwrap();
        assert!(!r.proves("g/a.jar", &stamp, &sha));
        r.note("g/a.jar", stamp, &sha);
        r.save(dir.path()).unwrap();
        let again = Record::load(dir.path());
        assert!(again.proves("g/a.jar", &stamp, &sha));
        assert!(
            !again.proves("g/a.jar", &stamp, &"0".repeat(64)),
            "another hash"
        );
        // rewritten with the same size and its modification time set back: ctime differs
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&f, b"two").unwrap();
        let file = std::fs::File::options().write(true).open(&f).unwrap();
        file.set_modified(
            std::time::UNIX_EPOCH + std::time::Duration::from_nanos(stamp.mtime as u64),
        )
        .unwrap();
        let now = Stamp::of(&f).unwrap();
        assert_eq!((now.size, now.mtime), (stamp.size, stamp.mtime));
        assert!(!again.proves("g/a.jar", &now, &sha));
    }

    #[test]
    fn saving_merges_with_what_another_process_wrote() {
        let dir = tempfile::tempdir().unwrap();
        let stamp = Stamp {
            size: 1,
            mtime: 2,
            ctime: 3,
            inode: 4,
        };
        let mut a = Record::load(dir.path());
        let mut b = Record::load(dir.path());
        a.note("x/a.jar", stamp, &"a".repeat(64));
        b.note("x/b.jar", stamp, &"b".repeat(64));
        a.save(dir.path()).unwrap();
        b.save(dir.path()).unwrap();
        let text = std::fs::read_to_string(dir.path().join(RECORD)).unwrap();
        assert_eq!(
            text,
            format!(
                "{} 1 2 3 4 x/a.jar\n{} 1 2 3 4 x/b.jar\n",
                "a".repeat(64),
                "b".repeat(64)
            )
        );
        assert_eq!(parse("garbage\n"), BTreeMap::new());
    }
}
