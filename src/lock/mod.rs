//! Reproducible resolution: the lock file (`m2r.lock`), its comparison with a new resolution
//! (`--locked`), the record of verified files that a locked download (`--frozen`) trusts, and
//! the Coursier export.
//!
//! A [`Lock`] pins the graph Maven computed for a project: every node (coordinates, scope,
//! optional, edges in declaration order, what management changed, relocations, ranges), the
//! repository each file came from and the file's size, SHA-256 and SHA-1, the dependencies left
//! out and why (so `m2r why` answers from the lock alone: [`LockedProject::graph`]), and the
//! hashes of the inputs that decided it ([`Inputs`], `inputs.rs`). A lock holds one
//! [`LockedProject`] per project: a reactor's lock is one per module.
//!
//! The format is JSON (`model.rs`): every build tool and CI script can read it without a TOML
//! reader (Bazel's `maven_install.json` made the same choice), the crate already reads and
//! writes JSON with one parser, and pretty-printed with one value per line it diffs line by
//! line. Nodes are sorted by coordinate; the edges of a node keep their declaration order (the
//! class path follows it). Rendering the same graph twice gives the same bytes. URLs are
//! written without user info and no credential or property value is ever written.
//!
//! The session makes and uses locks ([`crate::Session::lock`],
//! [`crate::Session::resolve_locked`]); this module is pure except for reading and writing the
//! lock and the record ([`verified`]).

mod build;
pub(crate) mod coursier;
mod diff;
mod error;
mod frozen;
mod inputs;
mod model;
pub mod verified;
mod view;

pub use build::{project, repositories, FileFacts};
pub use coursier::{coursier_coord, report as coursier_report, REPORT_VERSION};
pub use diff::Difference;
pub use error::LockError;
pub use frozen::{FrozenArtifact, FrozenProject, FrozenResult, Verification};
pub use inputs::{dependency_line, is_input_property, repository_line, InputSet};
pub use model::{
    Inputs, Lock, LockedNode, LockedOmission, LockedProject, LockedRepository, Managed,
    FORMAT_VERSION, LOCK_FILE, MAX_LOCK_BYTES,
};

/// `url` without its user info (`https://u:p@h/x` → `https://h/x`): what a lock writes.
///
/// ```
/// use m2resolver::lock::strip_userinfo;
/// assert_eq!(strip_userinfo("https://ci:s3cret@nexus.example/m2/"), "https://nexus.example/m2/");
/// assert_eq!(strip_userinfo("https://nexus.example/m2/"), "https://nexus.example/m2/");
/// assert_eq!(strip_userinfo("dav:https://u:p@h/r"), "dav:https://h/r");
/// ```
pub fn strip_userinfo(url: &str) -> String {
    let Some(start) = url.find("://").map(|i| i + 3) else {
        return url.to_string();
    };
    let end = url[start..]
        .find(['/', '?', '#'])
        .map(|i| start + i)
        .unwrap_or(url.len());
    match url[start..end].rfind('@') {
        Some(at) => format!("{}{}", &url[..start], &url[start + at + 1..]),
        None => url.to_string(),
    }
}

/// A locked path as a validated repository path (every segment a plain file name).
pub(crate) fn repo_path(
    artifact: &str,
    file: &str,
) -> Result<crate::download::RepoPath, LockError> {
    let mut p = crate::download::RepoPath::root();
    for seg in file.split('/') {
        p = p
            .join(crate::download::SegmentKind::FileName, seg)
            .map_err(|source| LockError::BadPath {
                artifact: artifact.to_string(),
                path: file.escape_debug().to_string(),
                source,
            })?;
    }
    Ok(p)
}

#[cfg(test)]
mod tests;
