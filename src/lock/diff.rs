//! What differs between a lock file and the graph resolved now ([`Lock::diff`]): a pure
//! function, one [`Difference`] per line of the report `m2r resolve --locked` prints.
//!
//! Nodes are matched by coordinate; a node whose version changed is one difference (matched
//! by `groupId:artifactId:extension[:classifier]`), not a removal and an addition. Edges are
//! compared by that key too (a version change is reported once, on the node), and their order
//! matters: the class path follows it.

use super::model::{Lock, LockedNode, LockedProject};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// One difference between a lock (`locked`) and what was resolved now (`now`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Difference {
    /// A project (a reactor module) is in one of them only.
    Project {
        /// Its root.
        root: String,
        /// In `now` only.
        added: bool,
    },
    /// The class path scope the nodes were chosen for.
    Scope {
        /// The project's root.
        project: String,
        /// In the lock (`None`: every node).
        locked: Option<String>,
        /// Now.
        now: Option<String>,
    },
    /// An input that decides the graph changed.
    Input {
        /// The project's root.
        project: String,
        /// `dependencies`, `management`, `repositories`, `profiles` or `properties`.
        input: &'static str,
    },
    /// A node is in one of them only.
    Node {
        /// The project's root.
        project: String,
        /// Its coordinate.
        coord: String,
        /// Its scope.
        scope: String,
        /// In `now` only.
        added: bool,
    },
    /// A node's version changed.
    Version {
        /// The project's root.
        project: String,
        /// `groupId:artifactId:extension[:classifier]`.
        key: String,
        /// The locked version.
        locked: String,
        /// The version now.
        now: String,
    },
    /// A property of a node changed (`scope`, `optional`, `repository`, `file`, `size`,
    /// `sha256`, `sha1`, `exclusions`, `managed`, `relocated_from`, `range`).
    Field {
        /// The project's root.
        project: String,
        /// The node (its coordinate now).
        coord: String,
        /// Which property.
        field: &'static str,
        /// The locked value.
        locked: String,
        /// The value now.
        now: String,
    },
    /// A direct dependency of a node (or of the root) is in one of them only.
    Edge {
        /// The project's root.
        project: String,
        /// The node whose dependency it is (the root's coordinate for the root).
        from: String,
        /// The dependency's `groupId:artifactId:extension[:classifier]`.
        to: String,
        /// In `now` only.
        added: bool,
    },
    /// A node's dependencies are the same but in another order (the class path's order
    /// follows it).
    Order {
        /// The project's root.
        project: String,
        /// The node (the root's coordinate for the root).
        from: String,
        /// The locked order (keys).
        locked: Vec<String>,
        /// The order now.
        now: Vec<String>,
    },
    /// A repository's URL changed, or a repository is in one of them only.
    Repository {
        /// Its id.
        id: String,
        /// The locked URL.
        locked: Option<String>,
        /// The URL now.
        now: Option<String>,
    },
}

impl Difference {
    /// The root of the project the difference is in (`None` for repositories).
    pub fn project(&self) -> Option<&str> {
        match self {
            Difference::Project { root, .. } => Some(root),
            Difference::Scope { project, .. }
            | Difference::Input { project, .. }
            | Difference::Node { project, .. }
            | Difference::Version { project, .. }
            | Difference::Field { project, .. }
            | Difference::Edge { project, .. }
            | Difference::Order { project, .. } => Some(project),
            Difference::Repository { .. } => None,
        }
    }
}

fn sign(added: bool) -> char {
    if added {
        '+'
    } else {
        '-'
    }
}

fn or_none(v: &Option<String>) -> &str {
    v.as_deref().unwrap_or("(none)")
}

/// One line, as `m2r resolve --locked` prints it (`-` locked only, `+` now only, `~` changed).
impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Difference::Project { root, added } => write!(f, "{} project {root}", sign(*added)),
            Difference::Scope { locked, now, .. } => write!(
                f,
                "~ class path scope: locked {}, now {}",
                locked.as_deref().unwrap_or("every node"),
                now.as_deref().unwrap_or("every node")
            ),
            Difference::Input { input, .. } => {
                write!(f, "~ input `{input}` changed since the lock was written")
            }
            Difference::Node {
                coord,
                scope,
                added,
                ..
            } => write!(f, "{} {coord} ({scope})", sign(*added)),
            Difference::Version {
                key, locked, now, ..
            } => write!(f, "~ {key}: version {locked} → {now}"),
            Difference::Field {
                coord,
                field,
                locked,
                now,
                ..
            } => write!(f, "~ {coord}: {field} {locked} → {now}"),
            Difference::Edge {
                from, to, added, ..
            } => write!(
                f,
                "~ {from}: dependency {} {to}",
                if *added { "added" } else { "removed" }
            ),
            Difference::Order {
                from, locked, now, ..
            } => write!(
                f,
                "~ {from}: dependencies reordered: {} → {}",
                locked.join(", "),
                now.join(", ")
            ),
            Difference::Repository { id, locked, now } => match (locked, now) {
                (None, Some(u)) => write!(f, "+ repository {id} ({u})"),
                (Some(u), None) => write!(f, "- repository {id} ({u})"),
                _ => write!(
                    f,
                    "~ repository {id}: URL {} → {}",
                    or_none(locked),
                    or_none(now)
                ),
            },
        }
    }
}

/// `groupId:artifactId:extension[:classifier]` and the version of a coordinate.
fn split(coord: &str) -> (&str, &str) {
    coord.rsplit_once(':').unwrap_or((coord, ""))
}

fn keys(edges: &[String]) -> Vec<String> {
    edges.iter().map(|e| split(e).0.to_string()).collect()
}

fn edges(project: &str, from: &str, locked: &[String], now: &[String], out: &mut Vec<Difference>) {
    let (l, n) = (keys(locked), keys(now));
    if l == n {
        return;
    }
    let ls: BTreeSet<&String> = l.iter().collect();
    let ns: BTreeSet<&String> = n.iter().collect();
    if ls == ns {
        out.push(Difference::Order {
            project: project.into(),
            from: from.into(),
            locked: l,
            now: n,
        });
        return;
    }
    for k in ls.difference(&ns) {
        out.push(Difference::Edge {
            project: project.into(),
            from: from.into(),
            to: (*k).clone(),
            added: false,
        });
    }
    for k in ns.difference(&ls) {
        out.push(Difference::Edge {
            project: project.into(),
            from: from.into(),
            to: (*k).clone(),
            added: true,
        });
    }
}

fn fields(
    project: &str,
    locked: &LockedNode,
    now: &LockedNode,
    same_version: bool,
    out: &mut Vec<Difference>,
) {
    let mut field = |name: &'static str, l: String, n: String| {
        if l != n {
            out.push(Difference::Field {
                project: project.into(),
                coord: now.coord.clone(),
                field: name,
                locked: l,
                now: n,
            });
        }
    };
    let opt = |v: &Option<String>| v.clone().unwrap_or_else(|| "(none)".into());
    let list = |v: &[String]| format!("[{}]", v.join(", "));
    field("scope", locked.scope.clone(), now.scope.clone());
    field(
        "optional",
        locked.optional.to_string(),
        now.optional.to_string(),
    );
    field("repository", opt(&locked.repository), opt(&now.repository));
    field("module", locked.module.to_string(), now.module.to_string());
    if same_version {
        field("file", locked.file.clone(), now.file.clone());
        field("size", locked.size.to_string(), now.size.to_string());
        field("sha256", locked.sha256.clone(), now.sha256.clone());
        field("sha1", locked.sha1.clone(), now.sha1.clone());
    }
    field(
        "exclusions",
        list(&locked.exclusions),
        list(&now.exclusions),
    );
    let managed = |n: &LockedNode| match &n.managed {
        None => "(none)".to_string(),
        Some(m) => {
            let mut parts = Vec::new();
            if let Some(v) = &m.version {
                parts.push(format!("version from {v}"));
            }
            if let Some(s) = &m.scope {
                parts.push(format!("scope from {s}"));
            }
            if let Some(o) = m.optional {
                parts.push(format!("optional from {o}"));
            }
            if m.exclusions.is_some() {
                parts.push("exclusions".into());
            }
            if m.system_path {
                parts.push("systemPath".into());
            }
            parts.join("; ")
        }
    };
    field("managed", managed(locked), managed(now));
    field(
        "relocated_from",
        list(&locked.relocated_from),
        list(&now.relocated_from),
    );
    field("range", opt(&locked.range), opt(&now.range));
}

/// Nodes by key: one per key after conflict resolution (several only in hand-made locks).
fn by_key(proj: &LockedProject) -> BTreeMap<String, Vec<&LockedNode>> {
    let mut m: BTreeMap<String, Vec<&LockedNode>> = BTreeMap::new();
    for n in &proj.nodes {
        m.entry(split(&n.coord).0.to_string()).or_default().push(n);
    }
    m
}

fn project_diff(locked: &LockedProject, now: &LockedProject, out: &mut Vec<Difference>) {
    let p = locked.root.as_str();
    if locked.scope != now.scope {
        out.push(Difference::Scope {
            project: p.into(),
            locked: locked.scope.clone(),
            now: now.scope.clone(),
        });
    }
    for ((name, l), (_, n)) in locked.inputs.named().iter().zip(now.inputs.named()) {
        if *l != n {
            out.push(Difference::Input {
                project: p.into(),
                input: name,
            });
        }
    }
    edges(p, p, &locked.dependencies, &now.dependencies, out);
    let (lk, nk) = (by_key(locked), by_key(now));
    let all: BTreeSet<&String> = lk.keys().chain(nk.keys()).collect();
    let mut node_diffs = Vec::new();
    for key in all {
        let empty = Vec::new();
        let ls = lk.get(key).unwrap_or(&empty);
        let ns = nk.get(key).unwrap_or(&empty);
        let mut unmatched_l: Vec<&LockedNode> = Vec::new();
        let mut unmatched_n: Vec<&LockedNode> = ns.clone();
        for l in ls {
            match unmatched_n.iter().position(|n| n.coord == l.coord) {
                Some(i) => {
                    let n = unmatched_n.remove(i);
                    fields(p, l, n, true, &mut node_diffs);
                    edges(
                        p,
                        &n.coord,
                        &l.dependencies,
                        &n.dependencies,
                        &mut node_diffs,
                    );
                }
                None => unmatched_l.push(l),
            }
        }
        if unmatched_l.len() == 1 && unmatched_n.len() == 1 {
            let (l, n) = (unmatched_l[0], unmatched_n[0]);
            node_diffs.push(Difference::Version {
                project: p.into(),
                key: key.clone(),
                locked: split(&l.coord).1.into(),
                now: split(&n.coord).1.into(),
            });
            fields(p, l, n, false, &mut node_diffs);
            edges(
                p,
                &n.coord,
                &l.dependencies,
                &n.dependencies,
                &mut node_diffs,
            );
            continue;
        }
        for l in unmatched_l {
            node_diffs.push(Difference::Node {
                project: p.into(),
                coord: l.coord.clone(),
                scope: l.scope.clone(),
                added: false,
            });
        }
        for n in unmatched_n {
            node_diffs.push(Difference::Node {
                project: p.into(),
                coord: n.coord.clone(),
                scope: n.scope.clone(),
                added: true,
            });
        }
    }
    out.extend(node_diffs);
}

impl Lock {
    /// What differs from `self` (the lock file) in `now` (the lock of what was resolved now),
    /// in a stable order: repositories, then per project its scope, inputs, the root's
    /// dependencies and the nodes by key. Empty when the graphs and inputs are equal.
    ///
    /// ```
    /// use m2resolver::lock::{Difference, Lock, LockedRepository};
    /// let mut locked = Lock::new();
    /// locked.repositories.push(LockedRepository { id: "central".into(), url: "https://a/".into() });
    /// assert!(locked.diff(&locked).is_empty());
    /// let mut now = locked.clone();
    /// now.repositories[0].url = "https://b/".into();
    /// let d = locked.diff(&now);
    /// assert_eq!(d[0].to_string(), "~ repository central: URL https://a/ → https://b/");
    /// ```
    pub fn diff(&self, now: &Lock) -> Vec<Difference> {
        let mut out = Vec::new();
        let repos = |l: &Lock| -> BTreeMap<String, BTreeSet<String>> {
            let mut m: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
            for r in &l.repositories {
                m.entry(r.id.clone()).or_default().insert(r.url.clone());
            }
            m
        };
        let (lr, nr) = (repos(self), repos(now));
        let ids: BTreeSet<&String> = lr.keys().chain(nr.keys()).collect();
        for id in ids {
            let (l, n) = (lr.get(id), nr.get(id));
            if l == n {
                continue;
            }
            let one = |s: Option<&BTreeSet<String>>| {
                s.map(|s| s.iter().cloned().collect::<Vec<_>>().join(", "))
            };
            out.push(Difference::Repository {
                id: id.clone(),
                locked: one(l),
                now: one(n),
            });
        }
        for l in &self.projects {
            match now.projects.iter().find(|n| n.root == l.root) {
                Some(n) => project_diff(l, n, &mut out),
                None => out.push(Difference::Project {
                    root: l.root.clone(),
                    added: false,
                }),
            }
        }
        for n in &now.projects {
            if !self.projects.iter().any(|l| l.root == n.root) {
                out.push(Difference::Project {
                    root: n.root.clone(),
                    added: true,
                });
            }
        }
        out
    }
}
