//! The chained local repository (Maven 3.9's `-Dmaven.repo.local.tail=DIR[,DIR…]`, Resolver
//! 1.9's `ChainedLocalRepositoryManager`): the local repository is the writable **head**, and
//! the tails are local repositories read after it — a cache a CI image or a container mounts
//! read-only.
//!
//! - An artifact is taken from the head when the head has it available (the enhanced manager's
//!   rules, `_remote.repositories`); otherwise from the first tail that holds the file: with
//!   `maven.repo.local.tail.ignoreAvailability` (default `true`, as Maven 3.9) any file there
//!   counts; with `false` only a file the tail's own `_remote.repositories` makes available
//!   for the request's repositories (or an untracked / locally installed one).
//! - Tails are never written, never locked, and never need to be writable: downloads,
//!   `*.lastUpdated` records, checksums, metadata and `_remote.repositories` all go to the
//!   head (Resolver adds a file to the head only when it is in the head). A timestamped
//!   snapshot found in a tail is not copied to its `-SNAPSHOT` name there.
//! - Metadata (`maven-metadata-*.xml`) is read and refreshed in the head only: Resolver
//!   checks and downloads remote metadata at the head's path whatever a tail holds.
//! - Paths: comma-separated, blank entries skipped, not trimmed (as Maven); `~/` is the user's
//!   home; relative paths resolve against the working directory.
//!
//! Not supported: `maven.repo.local.head` (Maven 3.9.10's prepended heads).

use crate::download::local::{Availability, LocalRepository};
use std::path::{Component, Path, PathBuf};

/// The tail property.
pub const TAIL_PROPERTY: &str = "maven.repo.local.tail";
/// Whether availability in tails is ignored (default `true`).
pub const IGNORE_AVAILABILITY_PROPERTY: &str = "maven.repo.local.tail.ignoreAvailability";

/// The tails of a chained local repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalTail {
    /// Tail directories, in the order they are read.
    pub dirs: Vec<PathBuf>,
    /// Any file in a tail counts (`maven.repo.local.tail.ignoreAvailability`, default `true`).
    pub ignore_availability: bool,
}

/// An artifact found in a tail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TailHit {
    /// The file (inside the tail).
    pub path: PathBuf,
    /// The repository the tail recorded it from, when it is one of the request's.
    pub repository: Option<String>,
}

/// `Paths.get(p).normalize().toAbsolutePath()`, with `~/` as the home (Maven's `resolve`).
fn resolve(path: &str, user_home: &Path, cwd: &Path) -> PathBuf {
    let joined = if let Some(rest) = path.strip_prefix("~/").or_else(|| path.strip_prefix("~\\")) {
        user_home.join(rest)
    } else {
        cwd.join(path)
    };
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

impl LocalTail {
    /// The tail of the `maven.repo.local.tail` and `…ignoreAvailability` values; `None` when
    /// no tail is named.
    ///
    /// ```
    /// use m2resolver::download::LocalTail;
    /// let t = LocalTail::from_properties(Some("/ro/m2,,cache"), None, "/h".as_ref(), "/w".as_ref()).unwrap();
    /// assert_eq!(t.dirs, ["/ro/m2", "/w/cache"].map(std::path::PathBuf::from));
    /// assert!(t.ignore_availability);
    /// ```
    pub fn from_properties(
        tail: Option<&str>,
        ignore_availability: Option<&str>,
        user_home: &Path,
        cwd: &Path,
    ) -> Option<LocalTail> {
        let dirs: Vec<PathBuf> = tail?
            .split(',')
            .filter(|p| !p.trim().is_empty())
            .map(|p| resolve(p, user_home, cwd))
            .collect();
        if dirs.is_empty() {
            return None;
        }
        // ConfigUtils.getBoolean: absent is the default, a string is Boolean.parseBoolean.
        let ignore = ignore_availability.is_none_or(|v| v.eq_ignore_ascii_case("true"));
        Some(LocalTail {
            dirs,
            ignore_availability: ignore,
        })
    }

    /// The first tail file for `rel` (a path inside a local repository) that may be used for a
    /// request to `repositories`; reads only.
    pub(crate) fn find(&self, rel: &str, repositories: &[&str]) -> Option<TailHit> {
        for dir in &self.dirs {
            let tail = LocalRepository::new(dir);
            let path = dir.join(rel);
            match tail.availability_where(&path, repositories, |_| true) {
                Availability::Missing => continue,
                Availability::Available(repository) => return Some(TailHit { path, repository }),
                Availability::OtherRepositories(_) if self.ignore_availability => {
                    return Some(TailHit {
                        path,
                        repository: None,
                    })
                }
                Availability::OtherRepositories(_) => continue,
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_table() {
        let h = Path::new("/home/me");
        let w = Path::new("/work/p");
        let t = |tail: Option<&str>, ignore: Option<&str>| {
            LocalTail::from_properties(tail, ignore, h, w)
        };
        assert_eq!(t(None, None), None);
        assert_eq!(t(Some(" , "), None), None);
        let got = t(Some("~/ro,../shared/./m2,/abs"), Some("false")).unwrap();
        assert_eq!(
            got.dirs,
            ["/home/me/ro", "/work/shared/m2", "/abs"].map(PathBuf::from)
        );
        assert!(!got.ignore_availability);
        assert!(t(Some("/a"), Some("TRUE")).unwrap().ignore_availability);
        assert!(
            !t(Some("/a"), Some("yes")).unwrap().ignore_availability,
            "Boolean.parseBoolean"
        );
        // not trimmed, as Maven: " /b" is relative
        assert_eq!(
            t(Some("/a, /b"), None).unwrap().dirs[1],
            PathBuf::from("/work/p/ /b")
        );
    }

    #[test]
    fn availability_rules() {
        let dir = tempfile::tempdir().unwrap();
        let (t1, t2) = (dir.path().join("t1"), dir.path().join("t2"));
        let rel = "g/a/1/a-1.jar";
        for t in [&t1, &t2] {
            std::fs::create_dir_all(t.join("g/a/1")).unwrap();
            std::fs::write(t.join(rel), b"x").unwrap();
        }
        // t1 holds it from `other`, t2 from `central`
        std::fs::write(t1.join("g/a/1/_remote.repositories"), "a-1.jar>other=\n").unwrap();
        std::fs::write(t2.join("g/a/1/_remote.repositories"), "a-1.jar>central=\n").unwrap();
        let mut tail = LocalTail {
            dirs: vec![t1.clone(), t2.clone()],
            ignore_availability: true,
        };
        assert_eq!(
            tail.find(rel, &["central"]),
            Some(TailHit {
                path: t1.join(rel),
                repository: None
            })
        );
        tail.ignore_availability = false;
        assert_eq!(
            tail.find(rel, &["central"]),
            Some(TailHit {
                path: t2.join(rel),
                repository: Some("central".into())
            })
        );
        assert_eq!(tail.find(rel, &["nexus"]), None);
        assert_eq!(tail.find("g/a/2/a-2.jar", &["central"]), None);
        // an untracked file counts as installed locally
        std::fs::remove_file(t1.join("g/a/1/_remote.repositories")).unwrap();
        assert_eq!(tail.find(rel, &["nexus"]).unwrap().path, t1.join(rel));
        // nothing was written in the tails
        assert!(!t1.join(".locks").exists() && !t2.join(".locks").exists());
    }
}
