//! What one [`Resolver`](super::Resolver) has done in this session, for callers that fetch
//! ahead of Maven's sequential order and must still get Maven's answers (a dependency
//! collection reading POMs in parallel).
//!
//! Maven asks for one file at a time, and what it finds in the local repository depends on
//! what it downloaded before: a file counts as there when `_remote.repositories` names one of
//! the request's repository ids, whatever that repository's policy. That makes the order matter
//! only when one id stands for different repositories in different requests — the mirror `fix`
//! that enables snapshots only below a POM declaring a snapshot repository, or one id with two
//! URLs — and a file of the kind where they differ is asked through that id. The ledger notices
//! exactly that ([`Ledger::order_sensitive`]); a caller then replays its requests in Maven's
//! order, during which the records this resolver wrote since a [`Mark`] (and the untracked
//! `-SNAPSHOT` copies it made, which count as installed: record id `""`) count only once a
//! request of the replay has written them again ([`Ledger::replay_from`]).
//!
//! The ledger owns no files; [`super::local`] reads and writes them.

use crate::repository::RemoteRepository;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A point in a resolver's history: records written after it are hidden during a replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark(usize);

/// How a repository id answers for one kind of artifact: URL, policy enabled, blocked.
type Definition = (String, bool, bool);

#[derive(Default)]
struct State {
    /// The first definition seen per (repository id, snapshot kind).
    definitions: HashMap<(String, bool), Definition>,
    /// (id, kind) pairs seen with two definitions.
    conflicting: HashSet<(String, bool)>,
    /// (id, kind) pairs through which a file of that kind was asked for.
    asked: HashSet<(String, bool)>,
    /// `_remote.repositories` records this resolver wrote, in order.
    written: Vec<(PathBuf, String)>,
    written_set: HashSet<(PathBuf, String)>,
    /// During a replay: the records written by this resolver that count.
    visible: Option<HashSet<(PathBuf, String)>>,
}

/// The session ledger (see the module documentation).
#[derive(Default)]
pub struct Ledger {
    state: Mutex<State>,
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
        for r in repositories {
            for kind in [false, true] {
                let def = (
                    r.url.as_written().to_string(),
                    r.policy(kind).enabled,
                    r.blocked,
                );
                let key = (r.id.clone(), kind);
                match s.definitions.get(&key) {
                    Some(d) if *d != def => {
                        s.conflicting.insert(key);
                    }
                    Some(_) => {}
                    None => {
                        s.definitions.insert(key, def);
                    }
                }
            }
            s.asked.insert((r.id.clone(), snapshot));
        }
    }

    /// This resolver recorded in `_remote.repositories` that `file` came from `repository`.
    pub(crate) fn note_written(&self, file: &Path, repository: &str) {
        let mut s = self.state();
        let key = (file.to_path_buf(), repository.to_string());
        if let Some(v) = &mut s.visible {
            v.insert(key.clone());
        }
        if s.written_set.insert(key.clone()) {
            s.written.push(key);
        }
    }

    /// Whether the record "`file` came from `repository`" counts now.
    pub(crate) fn counts(&self, file: &Path, repository: &str) -> bool {
        let s = self.state();
        let Some(visible) = &s.visible else {
            return true;
        };
        let key = (file.to_path_buf(), repository.to_string());
        !s.written_set.contains(&key) || visible.contains(&key)
    }

    /// The current point in the history.
    pub fn mark(&self) -> Mark {
        Mark(self.state().written.len())
    }

    /// Whether some answer may have depended on the order of the requests: a file was asked
    /// through a repository id that stood for different repositories for its kind.
    pub fn order_sensitive(&self) -> bool {
        let s = self.state();
        s.conflicting.iter().any(|k| s.asked.contains(k))
    }

    /// Starts a replay: the records written after `mark` count as absent until written again.
    pub fn replay_from(&self, mark: Mark) {
        let mut s = self.state();
        let keep: HashSet<(PathBuf, String)> = s.written[..mark.0.min(s.written.len())]
            .iter()
            .cloned()
            .collect();
        s.visible = Some(keep);
    }

    /// Ends a replay: every record counts again.
    pub fn end_replay(&self) {
        self.state().visible = None;
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
        l.note_request(&[repo("fix", "file:///r", false)], false);
        l.note_request(&[repo("fix", "file:///r", true)], false);
        // the snapshot policy of fix differs, but only releases were asked
        assert!(!l.order_sensitive());
        l.note_request(&[repo("fix", "file:///r", false)], true);
        assert!(l.order_sensitive());
        // one id, two URLs: releases too
        let l = Ledger::default();
        l.note_request(&[repo("x", "file:///a", true)], false);
        l.note_request(&[repo("x", "file:///b", true)], false);
        assert!(l.order_sensitive());
    }

    #[test]
    fn a_replay_hides_what_was_written_after_the_mark_until_written_again() {
        let l = Ledger::default();
        let (a, b) = (Path::new("/l/a.pom"), Path::new("/l/b.pom"));
        let copy = Path::new("/l/b-1.0-SNAPSHOT.pom");
        l.note_written(a, "fix");
        let mark = l.mark();
        l.note_written(b, "fix");
        l.note_written(copy, "");
        assert!(l.counts(b, "fix"));
        l.replay_from(mark);
        assert!(l.counts(a, "fix"), "written before the mark");
        assert!(!l.counts(b, "fix"), "written after the mark");
        assert!(l.counts(b, "other"), "a record from before this session");
        assert!(!l.counts(copy, ""), "a copy made after the mark");
        l.note_written(b, "fix");
        assert!(l.counts(b, "fix"), "written again during the replay");
        assert!(l.counts(a, ""), "no copy made by this resolver");
        l.end_replay();
        assert!(l.counts(b, "fix"));
    }
}
