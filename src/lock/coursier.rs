//! A locked project as Coursier's JSON report (`cs fetch --json-output-file`, report version
//! `0.1.0`, coursier's `modules/cli/src/main/scala/coursier/cli/fetch/JsonReport.scala`), the
//! file that Pants and other tools wrapping resolvers read:
//!
//! ```json
//! {"conflict_resolution":{"g:a:[1,2)":"g:a:1.5"},
//!  "dependencies":[{"coord":"g:a:1.5","file":"/m2/g/a/1.5/a-1.5.jar",
//!                   "directDependencies":["g:b:1"],"dependencies":["g:b:1","g:c:2"],
//!                   "exclusions":["x:y"]}],
//!  "version":"0.1.0"}
//! ```
//!
//! - `coord` is Coursier's spelling, `groupId:artifactId[:type[:classifier]]:version` with
//!   the type left out for a `jar` without classifier (`Attributes.normalize`); the type is
//!   the artifact's extension;
//! - `file` is the absolute path in the local repository (left out when there is none); for a
//!   module of a reactor, the reactor's file (its output directory) under the reactor's root;
//! - `directDependencies` are the node's dependencies after conflict resolution: its edges,
//!   plus the winner of each conflict one of its own dependencies lost (Coursier lists the
//!   reconciled version where Maven's graph drops the loser); `dependencies` is everything
//!   reachable from it; both sorted, without the node itself;
//! - `exclusions` are the dependency's exclusions, `groupId:artifactId`, sorted;
//! - `conflict_resolution` maps each root dependency whose version was not the one requested
//!   (a range, or a version management changed) to the version resolved, both `g:a:version`;
//! - entries are sorted by `coord`, the document is written compact, as Coursier writes it.

use super::model::{LockedNode, LockedProject};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

/// The report version Coursier writes (`JsonReport.currentVersion`).
pub const REPORT_VERSION: &str = "0.1.0";

#[derive(Serialize)]
struct Report {
    conflict_resolution: BTreeMap<String, String>,
    dependencies: Vec<Entry>,
    version: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Entry {
    coord: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    direct_dependencies: Vec<String>,
    dependencies: Vec<String>,
    exclusions: Vec<String>,
}

/// Coursier's spelling of a coordinate `g:a:ext[:cls]:v`.
///
/// ```
/// use m2resolver::lock::coursier_coord;
/// assert_eq!(coursier_coord("org.ex:a:jar:1.0"), "org.ex:a:1.0");
/// assert_eq!(coursier_coord("org.ex:a:jar:tests:1.0"), "org.ex:a:jar:tests:1.0");
/// assert_eq!(coursier_coord("org.ex:a:zip:1.0"), "org.ex:a:zip:1.0");
/// ```
pub fn coursier_coord(coord: &str) -> String {
    let parts: Vec<&str> = coord.split(':').collect();
    match parts.as_slice() {
        [g, a, "jar", v] => format!("{g}:{a}:{v}"),
        _ => coord.to_string(),
    }
}

fn ga(coord: &str) -> String {
    let mut it = coord.split(':');
    format!("{}:{}", it.next().unwrap_or(""), it.next().unwrap_or(""))
}

/// The report of `project`, files under `local_repository` (a `system` dependency's file is
/// its own path; a module's is under `reactor_root`, see [`LockedNode::module`]).
pub fn report(project: &LockedProject, local_repository: &Path, reactor_root: &Path) -> String {
    let nodes: HashMap<&str, &LockedNode> = project
        .nodes
        .iter()
        .map(|n| (n.coord.as_str(), n))
        .collect();
    // Direct dependencies: edges, plus the winners of conflicts under the node.
    let mut direct: HashMap<&str, Vec<&str>> = HashMap::new();
    for n in &project.nodes {
        direct.insert(
            n.coord.as_str(),
            n.dependencies.iter().map(String::as_str).collect(),
        );
    }
    for o in &project.omitted {
        if o.reason == "conflict" && nodes.contains_key(o.detail.as_str()) {
            if let Some(list) = direct.get_mut(o.parent.as_str()) {
                if !list.contains(&o.detail.as_str()) {
                    list.push(o.detail.as_str());
                }
            }
        }
    }
    let closure = |start: &str| -> BTreeSet<String> {
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        let mut stack: Vec<&str> = direct.get(start).cloned().unwrap_or_default();
        while let Some(c) = stack.pop() {
            if c == start || !seen.insert(c) {
                continue;
            }
            stack.extend(direct.get(c).into_iter().flatten());
        }
        seen.into_iter().map(coursier_coord).collect()
    };
    let mut dependencies: Vec<Entry> = project
        .nodes
        .iter()
        .map(|n| {
            let file = if n.scope == "system" {
                Some(n.file.clone())
            } else {
                let base = if n.module {
                    reactor_root
                } else {
                    local_repository
                };
                let p = n.file.split('/').fold(base.to_path_buf(), |p, s| p.join(s));
                Some(p.display().to_string())
            };
            let direct_dependencies: BTreeSet<String> = direct
                .get(n.coord.as_str())
                .into_iter()
                .flatten()
                .filter(|c| **c != n.coord)
                .map(|c| coursier_coord(c))
                .collect();
            let mut exclusions: Vec<String> = n.exclusions.clone();
            exclusions.sort();
            exclusions.dedup();
            Entry {
                coord: coursier_coord(&n.coord),
                file,
                direct_dependencies: direct_dependencies.into_iter().collect(),
                dependencies: closure(&n.coord).into_iter().collect(),
                exclusions,
            }
        })
        .collect();
    dependencies.sort_by(|a, b| a.coord.cmp(&b.coord));
    let mut conflict_resolution = BTreeMap::new();
    for c in &project.dependencies {
        let Some(n) = nodes.get(c.as_str()) else {
            continue;
        };
        let requested = n
            .range
            .clone()
            .or_else(|| n.managed.as_ref().and_then(|m| m.version.clone()));
        let resolved = c.rsplit_once(':').map(|(_, v)| v).unwrap_or("");
        if let Some(r) = requested.filter(|r| r != resolved) {
            conflict_resolution.insert(format!("{}:{r}", ga(c)), format!("{}:{resolved}", ga(c)));
        }
    }
    let report = Report {
        conflict_resolution,
        dependencies,
        version: REPORT_VERSION,
    };
    let mut text = serde_json::to_string(&report).unwrap_or_default();
    text.push('\n');
    text
}
