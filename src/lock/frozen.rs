//! What [`crate::Session::resolve_locked`] answers (`m2r resolve --frozen`): every locked file
//! in the local repository, verified, per project in class-path order.

use super::error::LockError;
use crate::resolution::collect::ClasspathScope;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How a locked file was found to be the locked one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Verification {
    /// In the local repository, unchanged since it was verified (the record of verified files
    /// proves it: no hashing).
    Recorded,
    /// In the local repository, hashed now.
    Hashed,
    /// Downloaded now, hashed while it streamed.
    Downloaded,
    /// Not a locked file: a module of the locked reactor, whose file the build makes (see
    /// [`LockedNode::module`](super::LockedNode::module)); nothing is checked.
    Reactor,
}

/// One locked artifact of a project.
#[derive(Debug, Clone)]
pub struct FrozenArtifact {
    /// Its coordinate in the lock.
    pub coord: String,
    /// Its scope.
    pub scope: String,
    /// The file (the class-path file: a timestamped snapshot's `-SNAPSHOT` copy), or why there
    /// is none.
    pub file: Result<PathBuf, Arc<LockError>>,
    /// How it was verified (`None` when it failed).
    pub verification: Option<Verification>,
}

/// One locked project: its artifacts in Maven's class-path order.
#[derive(Debug, Clone)]
pub struct FrozenProject {
    /// The project's root.
    pub root: String,
    /// Every locked artifact, in class-path order.
    pub artifacts: Vec<FrozenArtifact>,
}

impl FrozenProject {
    /// The files of every artifact, in class-path order.
    pub fn files(&self) -> Vec<&Path> {
        self.artifacts
            .iter()
            .filter_map(|a| a.file.as_deref().ok())
            .collect()
    }

    /// The files of the class path Maven builds for `scope`, in order.
    pub fn classpath(&self, scope: ClasspathScope) -> Vec<&Path> {
        self.artifacts
            .iter()
            .filter(|a| scope.includes(&a.scope))
            .filter_map(|a| a.file.as_deref().ok())
            .collect()
    }

    /// The artifacts that failed.
    pub fn failures(&self) -> impl Iterator<Item = &FrozenArtifact> {
        self.artifacts.iter().filter(|a| a.file.is_err())
    }
}

/// Every project of a lock, fetched and verified.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct FrozenResult {
    /// One per locked project, in the lock's order.
    pub projects: Vec<FrozenProject>,
    /// Files downloaded.
    pub downloaded: usize,
    /// Files hashed in the local repository (not proven by the record).
    pub hashed: usize,
    /// Files the record proved unchanged.
    pub recorded: usize,
}

impl FrozenResult {
    /// The first failure, if any.
    pub fn first_failure(&self) -> Option<&Arc<LockError>> {
        self.projects
            .iter()
            .flat_map(|p| p.failures())
            .find_map(|a| a.file.as_ref().err())
    }
}
