//! What one [`Downloader`](super::Downloader) has done in this session, for callers that fetch
//! ahead of Maven's sequential order and must still get Maven's answers (a dependency
//! collection reading POMs in parallel).
//!
//! Maven asks for one file at a time, and what it finds in the local repository depends on
//! what it downloaded before: a file counts as there when `_remote.repositories` names one of
//! the request's repository ids, whatever that repository's policy. That makes the order matter
//! only when one id stands for different repositories in different requests — the mirror `fix`
//! that enables snapshots only below a POM declaring a snapshot repository, or one id with two
//! URLs — and a file of the kind where they differ is asked through that id. The ledger notices
//! exactly that ([`Ledger::order_sensitive_since`]); a caller then replays its requests in
//! Maven's order through a [`Replay`], during which the records written since its [`Mark`]
//! (and the untracked `-SNAPSHOT` copies, which count as installed: record id `""`) count only
//! once a request of the replay has written them again.
//!
//! Several collections may run at once on one session's downloader. Each one has its own mark
//! ([`Ledger::begin`]), asks whether *its* requests were order sensitive (only requests made
//! since its mark are compared), and replays through its own [`Replay`] view: a replay hides
//! records from the downloader handle it was given, never from the other collections. The
//! history of records is kept only while a collection is running ([`Ledger::end`] drops it
//! when the last one ends), so a long-lived session does not grow with every download.
//!
//! The ledger owns no files; [`super::local`] reads and writes them.

use crate::repository::RemoteRepository;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A point in a downloader's history (records written and requests made so far).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark {
    written: usize,
    request: u64,
}

/// How a repository id answers for one kind of artifact: URL, policy enabled, blocked.
type Definition = (String, bool, bool);

type Record = (PathBuf, String);

#[derive(Default)]
struct State {
    /// Every definition seen per (repository id, snapshot kind), with the number of the last
    /// request that used it.
    definitions: HashMap<(String, bool), Vec<(Definition, u64)>>,
    /// (id, kind) pairs through which a file of that kind was asked for, with the number of the
    /// last request.
    asked: HashMap<(String, bool), u64>,
    /// Requests noted so far.
    requests: u64,
    /// `_remote.repositories` records written while a collection ran, in order; the first one
    /// is record number `base`.
    written: Vec<Record>,
    base: usize,
    /// Collections running.
    active: usize,
}

/// The session ledger (see the module documentation).
#[derive(Default)]
pub struct Ledger {
    state: Mutex<State>,
}

/// One collection's replay in Maven's order: the records written since its mark are hidden
/// until the replay writes them again.
#[derive(Debug, Default)]
pub struct Replay {
    hidden: HashSet<Record>,
    rewritten: Mutex<HashSet<Record>>,
}

impl Replay {
    /// Whether the record "`file` came from `repository`" counts in this replay.
    pub(crate) fn counts(&self, file: &Path, repository: &str) -> bool {
        let key = (file.to_path_buf(), repository.to_string());
        if !self.hidden.contains(&key) {
            return true;
        }
        match self.rewritten.lock() {
            Ok(r) => r.contains(&key),
            Err(e) => e.into_inner().contains(&key),
        }
    }

    /// The replay wrote this record again.
    pub(crate) fn note_written(&self, file: &Path, repository: &str) {
        let key = (file.to_path_buf(), repository.to_string());
        if self.hidden.contains(&key) {
            match self.rewritten.lock() {
                Ok(mut r) => r.insert(key),
                Err(e) => e.into_inner().insert(key),
            };
        }
    }
}

impl Ledger {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        match self.state.lock() {
            Ok(s) => s,
            Err(e) => e.into_inner(),
        }
    }

    /// A file of this kind is asked for through `repositories`.
    pub(crate) fn note_request(&self, repositories: &[RemoteRepository], snapshot: bool) {
        let mut s = self.state();
        s.requests += 1;
        let n = s.requests;
        for r in repositories {
            for kind in [false, true] {
                let def = (
                    r.url.as_written().to_string(),
                    r.policy(kind).enabled,
                    r.blocked,
                );
                let seen = s.definitions.entry((r.id.clone(), kind)).or_default();
                match seen.iter_mut().find(|(d, _)| *d == def) {
                    Some(entry) => entry.1 = n,
                    None => seen.push((def, n)),
                }
            }
            s.asked.insert((r.id.clone(), snapshot), n);
        }
    }

    /// This downloader recorded in `_remote.repositories` that `file` came from `repository`.
    pub(crate) fn note_written(&self, file: &Path, repository: &str) {
        let mut s = self.state();
        // Without a running collection no replay can ever go back before this record.
        if s.active > 0 {
            s.written.push((file.to_path_buf(), repository.to_string()));
        }
    }

    /// A collection starts: its mark.
    pub fn begin(&self) -> Mark {
        let mut s = self.state();
        s.active += 1;
        Mark {
            written: s.base + s.written.len(),
            request: s.requests + 1,
        }
    }

    /// A collection ended; the history is dropped when no collection runs.
    pub fn end(&self) {
        let mut s = self.state();
        s.active = s.active.saturating_sub(1);
        if s.active == 0 {
            s.base += s.written.len();
            s.written = Vec::new();
        }
    }

    /// Whether some answer since `mark` may have depended on the order of the requests: a
    /// file was asked through a repository id that stood, in requests since `mark`, for
    /// different repositories for its kind.
    pub fn order_sensitive_since(&self, mark: Mark) -> bool {
        let s = self.state();
        s.asked.iter().any(|(key, &last)| {
            last >= mark.request
                && s.definitions
                    .get(key)
                    .is_some_and(|defs| defs.iter().filter(|(_, n)| *n >= mark.request).count() > 1)
        })
    }

    /// A replay from `mark`: the records written since count as absent until written again.
    pub fn replay_from(&self, mark: Mark) -> Replay {
        let s = self.state();
        let start = mark.written.saturating_sub(s.base).min(s.written.len());
        Replay {
            hidden: s.written[start..].iter().cloned().collect(),
            rewritten: Mutex::new(HashSet::new()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(id: &str, url: &str, snapshots: bool) -> RemoteRepository {
        let mut r = RemoteRepository::new(id, url);
        r.snapshots.enabled = snapshots;
        r
    }

    #[test]
    fn order_matters_only_for_an_id_with_two_meanings_and_a_file_of_that_kind() {
        let l = Ledger::default();
        let mark = l.begin();
        l.note_request(&[repo("fix", "file:///r", false)], false);
        l.note_request(&[repo("fix", "file:///r", true)], false);
        // the snapshot policy of fix differs, but only releases were asked
        assert!(!l.order_sensitive_since(mark));
        l.note_request(&[repo("fix", "file:///r", false)], true);
        assert!(l.order_sensitive_since(mark));
        // one id, two URLs: releases too
        let l = Ledger::default();
        let mark = l.begin();
        l.note_request(&[repo("x", "file:///a", true)], false);
        l.note_request(&[repo("x", "file:///b", true)], false);
        assert!(l.order_sensitive_since(mark));
    }

    #[test]
    fn only_the_requests_of_a_collection_decide_whether_it_was_order_sensitive() {
        let l = Ledger::default();
        let first = l.begin();
        l.note_request(&[repo("x", "file:///a", true)], false);
        l.end();
        // a later collection uses x with another URL: nothing it asked had two meanings
        let second = l.begin();
        l.note_request(&[repo("x", "file:///b", true)], false);
        assert!(!l.order_sensitive_since(second));
        assert!(
            l.order_sensitive_since(first),
            "both meanings since the first mark"
        );
        l.note_request(&[repo("x", "file:///a", true)], false);
        assert!(l.order_sensitive_since(second));
    }

    #[test]
    fn a_replay_hides_what_was_written_after_the_mark_until_written_again() {
        let l = Ledger::default();
        let (a, b) = (Path::new("/l/a.pom"), Path::new("/l/b.pom"));
        let copy = Path::new("/l/b-1.0-SNAPSHOT.pom");
        let outer = l.begin();
        l.note_written(a, "fix");
        let mark = l.begin();
        l.note_written(b, "fix");
        l.note_written(copy, "");
        let replay = l.replay_from(mark);
        assert!(replay.counts(a, "fix"), "written before the mark");
        assert!(!replay.counts(b, "fix"), "written after the mark");
        assert!(
            replay.counts(b, "other"),
            "a record from before this session"
        );
        assert!(!replay.counts(copy, ""), "a copy made after the mark");
        replay.note_written(b, "fix");
        assert!(replay.counts(b, "fix"), "written again during the replay");
        assert!(replay.counts(a, ""), "no copy made by this downloader");
        // another collection's view is not affected by this replay
        let other = l.replay_from(outer);
        assert!(!other.counts(a, "fix"));
        assert!(!other.counts(b, "fix"), "{other:?}");
    }

    #[test]
    fn the_history_is_dropped_when_no_collection_runs() {
        let l = Ledger::default();
        l.note_written(Path::new("/l/a.pom"), "r");
        let mark = l.begin();
        l.note_written(Path::new("/l/b.pom"), "r");
        assert_eq!(l.replay_from(mark).hidden.len(), 1);
        l.end();
        assert!(l.state().written.is_empty());
        let mark = l.begin();
        l.note_written(Path::new("/l/c.pom"), "r");
        let replay = l.replay_from(mark);
        assert!(replay.counts(Path::new("/l/b.pom"), "r"));
        assert!(!replay.counts(Path::new("/l/c.pom"), "r"));
    }
}
