//! The lock file's shape and its one parser and one renderer (JSON, `serde_json`): [`Lock`],
//! [`LockedProject`], [`LockedNode`], [`LockedRepository`], [`Inputs`], [`LockedOmission`].
//!
//! The renderer is deterministic: fields in declaration order, two-space indentation, one
//! array item per line, nodes sorted by coordinate, repositories by id and URL, a final
//! newline; the edges of a node and the omissions of a project stay in the graph's order (the
//! class path order depends on them). So the same graph always gives the same bytes.

use super::error::LockError;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The format version this crate writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// The name of a lock file next to a project.
pub const LOCK_FILE: &str = "m2r.lock";

/// A lock file: the resolved graph of one project (or of every module of a reactor, one
/// [`LockedProject`] each), every file's size and hashes, and the repositories they came from.
///
/// ```
/// use m2resolver::lock::Lock;
/// let text = r#"{
///   "version": 1,
///   "repositories": [{ "id": "central", "url": "https://repo.maven.apache.org/maven2/" }],
///   "projects": []
/// }"#;
/// let lock = Lock::parse(text).unwrap();
/// assert_eq!(lock.repositories[0].id, "central");
/// assert_eq!(Lock::parse(&lock.render()).unwrap(), lock);
/// assert!(Lock::parse("{\"version\": 9, \"repositories\": [], \"projects\": []}").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Lock {
    /// The format version ([`FORMAT_VERSION`]).
    pub version: u32,
    /// Every repository a locked file came from: id and URL without user info.
    pub repositories: Vec<LockedRepository>,
    /// One entry per project (a single project, or the modules of a reactor in build order).
    pub projects: Vec<LockedProject>,
    /// The directory the files of [module nodes](LockedNode::module) are relative to: the
    /// reactor's root (the aggregator POM's folder). Not written: [`Lock::read`] sets it to
    /// the lock file's folder, the default place of a reactor's lock; `None` (a parsed or new
    /// lock, or one read from the working directory): the session's working directory.
    #[serde(skip)]
    pub directory: Option<std::path::PathBuf>,
}

/// A repository a locked file came from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockedRepository {
    /// The repository id (after mirrors: the mirror's id).
    pub id: String,
    /// Its URL, without user info (a lock never holds a credential).
    pub url: String,
}

/// The hashes of what decides a project's graph (SHA-256, lower-case hex): each input alone,
/// so a changed one can be named, and all of them together. What each covers is documented
/// in the README ("The lock file").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Inputs {
    /// Over the five below.
    pub sha256: String,
    /// The root's effective direct dependencies, in order.
    pub dependencies: String,
    /// The root's effective dependency management, in order.
    pub management: String,
    /// The repositories resolution started from (ids, URLs without user info, policies).
    pub repositories: String,
    /// The active profiles that change them (the project's, the settings' with repositories
    /// or properties).
    pub profiles: String,
    /// The user properties (`-D`) that can reach a POM.
    pub properties: String,
}

impl Inputs {
    /// The inputs by name, in order, without the total.
    pub fn named(&self) -> [(&'static str, &str); 5] {
        [
            ("dependencies", &self.dependencies),
            ("management", &self.management),
            ("repositories", &self.repositories),
            ("profiles", &self.profiles),
            ("properties", &self.properties),
        ]
    }
}

/// The locked graph of one project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockedProject {
    /// The root: `groupId:artifactId:extension[:classifier]:version` (`m2r:anonymous:pom:0`
    /// for bare coordinates).
    pub root: String,
    /// The root's packaging where it is not the root's extension (a POM's `<packaging>`:
    /// `m2r tree` prints it on the root's line, `org.fix:app:jar:1.0`, as `mvn dependency:tree`
    /// does).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packaging: Option<String>,
    /// The class path the nodes were chosen for (`compile`, `runtime`, `test`), when not every
    /// node of the graph.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// What decided the graph.
    pub inputs: Inputs,
    /// The root's direct dependencies: node coordinates, in declaration order.
    pub dependencies: Vec<String>,
    /// Every node, sorted by coordinate.
    pub nodes: Vec<LockedNode>,
    /// The dependencies left out and why, in the order Maven met them (`m2r why` reads them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub omitted: Vec<LockedOmission>,
}

/// One node of a locked graph: an artifact and its file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockedNode {
    /// `groupId:artifactId:extension[:classifier]:version` (the graph's version: a snapshot
    /// keeps `-SNAPSHOT`, its file is the timestamped one).
    pub coord: String,
    /// The dependency's `<type>` where it is not the extension (`test-jar`, `ejb-client`:
    /// `m2r tree` prints it, as `mvn dependency:tree` does).
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub type_id: Option<String>,
    /// The scope after conflict resolution.
    pub scope: String,
    /// Optional after conflict resolution.
    pub optional: bool,
    /// The id of the repository the file came from (`None`: installed locally, or a `system`
    /// dependency).
    pub repository: Option<String>,
    /// The repository's URL, only when two locked repositories share this id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// A module of the locked reactor: the build makes its file, so no file is locked —
    /// `file` is what the reactor gives for it (its output directory, or its project file for
    /// a POM) relative to the reactor's root, `/`-separated, and `size`, `sha256` and `sha1`
    /// are left out. `--frozen` puts that path on the class path and checks nothing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub module: bool,
    /// The file: its path in the repository (and the local repository), the declared
    /// `systemPath` of a `system` dependency, or a module's path in the reactor.
    pub file: String,
    /// Its size in bytes (left out for a module, and for an empty file).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub size: u64,
    /// Its SHA-256 (lower-case hex): what `--frozen` checks (left out for a module).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub sha256: String,
    /// Its SHA-1 (lower-case hex): what Maven's `.sha1` files hold (left out for a module).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub sha1: String,
    /// Direct dependencies: node coordinates, in declaration order.
    pub dependencies: Vec<String>,
    /// The dependency's exclusions (`groupId:artifactId`), in declaration order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclusions: Vec<String>,
    /// What dependency management changed, with the values as declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub managed: Option<Managed>,
    /// The artifacts this one was relocated from, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relocated_from: Vec<String>,
    /// The version range the version was chosen from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<String>,
}

/// What dependency management changed on a node: each field present when management changed
/// it, holding the value as declared.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Managed {
    /// The version as declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The scope as declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// Optionality as declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional: Option<bool>,
    /// The exclusions as declared (`groupId:artifactId`), when management added some.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclusions: Option<Vec<String>>,
    /// The `systemPath` was changed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub system_path: bool,
}

/// A dependency left out of the graph.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockedOmission {
    /// The node it would have been a child of (the root's coordinate for the root).
    pub parent: String,
    /// The dependency's coordinate.
    pub coord: String,
    /// Its scope.
    pub scope: String,
    /// `scope`, `optional`, `excluded`, `conflict` or `range`.
    pub reason: String,
    /// The dropped scope, the exclusion (`groupId:artifactId`), the winner's coordinate, or
    /// the range failure.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub detail: String,
    /// The parent is an occurrence no path reaches (it hangs under a part of the graph that
    /// was itself left out), not the locked node of that coordinate: the tree does not show
    /// it and `m2r why` says so.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub detached: bool,
}

impl Lock {
    /// An empty lock of the current format.
    pub fn new() -> Lock {
        Lock {
            version: FORMAT_VERSION,
            repositories: Vec::new(),
            projects: Vec::new(),
            directory: None,
        }
    }

    /// Parses a lock file's text: JSON of this format version, checked (coordinates unique per
    /// project, edges naming nodes, hashes as hex, repositories named).
    pub fn parse(text: &str) -> Result<Lock, LockError> {
        let lock: Lock = serde_json::from_str(text).map_err(|source| LockError::Parse {
            line: source.line(),
            column: source.column(),
            source,
            file: None,
        })?;
        if lock.version != FORMAT_VERSION {
            return Err(LockError::Version {
                found: lock.version,
                file: None,
            });
        }
        lock.check()?;
        Ok(lock)
    }

    /// Reads and parses a lock file.
    pub fn read(path: &Path) -> Result<Lock, LockError> {
        let bytes = crate::bounded::read_regular_file(path, MAX_LOCK_BYTES).map_err(|e| {
            LockError::Read {
                path: path.to_path_buf(),
                source: std::io::Error::other(e),
            }
        })?;
        let text = String::from_utf8_lossy(&bytes);
        let mut lock = Lock::parse(&text).map_err(|e| e.in_file(path))?;
        lock.directory = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .map(Path::to_path_buf);
        Ok(lock)
    }

    /// The lock file's text (always the same bytes for the same lock).
    pub fn render(&self) -> String {
        let mut sorted = self.clone();
        sorted.normalize();
        // Serializing plain data (strings, numbers, vectors) cannot fail.
        let mut text = serde_json::to_string_pretty(&sorted).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Writes the lock file through a temporary file and a rename.
    pub fn write(&self, path: &Path) -> Result<(), LockError> {
        let write = |p: &Path| -> std::io::Result<()> {
            let dir = match p.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            let mut tmp = tempfile::Builder::new()
                .prefix(".m2r-lock-")
                .suffix(".tmp")
                .tempfile_in(dir)?;
            std::io::Write::write_all(&mut tmp, self.render().as_bytes())?;
            tmp.persist(p).map_err(|e| e.error)?;
            Ok(())
        };
        write(path).map_err(|source| LockError::Write {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Sorts what the format keeps sorted (repositories, nodes).
    pub(crate) fn normalize(&mut self) {
        self.repositories.sort();
        self.repositories.dedup();
        for p in &mut self.projects {
            p.nodes.sort_by(|a, b| a.coord.cmp(&b.coord));
        }
    }

    /// The project whose root is `root`.
    pub fn project(&self, root: &str) -> Option<&LockedProject> {
        self.projects.iter().find(|p| p.root == root)
    }

    /// The URL of the repository a node's file came from.
    pub fn repository_url<'a>(&'a self, node: &'a LockedNode) -> Option<&'a str> {
        if let Some(u) = &node.url {
            return Some(u);
        }
        let id = node.repository.as_deref()?;
        self.repositories
            .iter()
            .find(|r| r.id == id)
            .map(|r| r.url.as_str())
    }

    fn check(&self) -> Result<(), LockError> {
        let invalid = |what: String| Err(LockError::Invalid { what, file: None });
        for r in &self.repositories {
            if r.url.contains('@') && crate::repository::url::redact(&r.url) != r.url {
                return invalid(format!("repository `{}` has user info in its URL", r.id));
            }
        }
        let hex = |v: &str, len: usize| v.len() == len && v.bytes().all(|b| b.is_ascii_hexdigit());
        for p in &self.projects {
            let i = &p.inputs;
            for (name, value) in std::iter::once(("sha256", i.sha256.as_str())).chain(i.named()) {
                if !hex(value, 64) {
                    return invalid(format!(
                        "{}: input hash {name} is not 64 hex digits",
                        p.root
                    ));
                }
            }
            let mut seen = std::collections::HashSet::new();
            for n in &p.nodes {
                if !seen.insert(n.coord.as_str()) {
                    return invalid(format!("{}: node {} is listed twice", p.root, n.coord));
                }
                for (name, value, len) in [("sha256", &n.sha256, 64), ("sha1", &n.sha1, 40)] {
                    if n.module && !value.is_empty() {
                        return invalid(format!(
                            "{}: node {} is a module of the reactor and cannot have a {name}",
                            p.root, n.coord
                        ));
                    }
                    if !n.module && !hex(value, len) {
                        return invalid(format!(
                            "{}: node {}: {name} is not {len} hex digits",
                            p.root, n.coord
                        ));
                    }
                }
                if let Some(id) = &n.repository {
                    if n.url.is_none() && !self.repositories.iter().any(|r| &r.id == id) {
                        return invalid(format!(
                            "{}: node {} names repository `{id}`, which is not listed",
                            p.root, n.coord
                        ));
                    }
                }
            }
            let edges = p
                .dependencies
                .iter()
                .chain(p.nodes.iter().flat_map(|n| &n.dependencies));
            for e in edges {
                if !seen.contains(e.as_str()) {
                    return invalid(format!("{}: dependency {e} is not a node", p.root));
                }
            }
        }
        Ok(())
    }
}

impl Default for Lock {
    fn default() -> Self {
        Lock::new()
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Largest lock file read (a 10,000-node graph is about 10 MiB).
pub const MAX_LOCK_BYTES: u64 = 256 << 20;

impl LockedProject {
    /// A node by coordinate.
    pub fn node(&self, coord: &str) -> Option<&LockedNode> {
        self.nodes
            .binary_search_by(|n| n.coord.as_str().cmp(coord))
            .ok()
            .map(|i| &self.nodes[i])
            .or_else(|| self.nodes.iter().find(|n| n.coord == coord))
    }

    /// The nodes in Maven's class-path order: pre-order from the root along the edges, each
    /// node once (its first occurrence), as [`crate::ResolveResult::artifacts`] lists them.
    pub fn classpath_order(&self) -> Vec<&LockedNode> {
        let by_coord: std::collections::HashMap<&str, &LockedNode> =
            self.nodes.iter().map(|n| (n.coord.as_str(), n)).collect();
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        let mut stack: Vec<&str> = self.dependencies.iter().rev().map(String::as_str).collect();
        while let Some(c) = stack.pop() {
            let Some(node) = by_coord.get(c) else {
                continue;
            };
            if !seen.insert(c) {
                continue;
            }
            out.push(*node);
            stack.extend(node.dependencies.iter().rev().map(String::as_str));
        }
        // Nodes the root does not reach (a hand-edited lock) still count.
        for n in &self.nodes {
            if seen.insert(n.coord.as_str()) {
                out.push(n);
            }
        }
        out
    }
}
