//! A [`LockedProject`] from a resolved graph: pure, given each artifact's file facts (where it
//! came from, its size and hashes), which the session measures.

use super::model::{LockedNode, LockedOmission, LockedProject, LockedRepository, Managed};
use super::{strip_userinfo, Inputs};
use crate::resolution::collect::{managed, DependencyGraph, NodeId, OmissionReason};
use std::collections::{HashMap, HashSet};

/// What the session knows of one resolved artifact's file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileFacts {
    /// The id of the repository it came from (`None`: installed locally, or `system`).
    pub repository: Option<String>,
    /// That repository's URL (as written; user info is removed here).
    pub repository_url: Option<String>,
    /// Its path in the repository, the `systemPath`, or (a module) its path in the reactor.
    pub file: String,
    /// A module of the reactor: the build makes the file, nothing is hashed (size and hashes
    /// are empty).
    pub module: bool,
    /// Size in bytes.
    pub size: u64,
    /// SHA-256, lower-case hex.
    pub sha256: String,
    /// SHA-1, lower-case hex.
    pub sha1: String,
}

/// The coordinate of a node (`groupId:artifactId:extension[:classifier]:version`).
pub(crate) fn coord_of(graph: &DependencyGraph, id: NodeId) -> String {
    graph
        .node(id)
        .artifact()
        .map(ToString::to_string)
        .unwrap_or_default()
}

/// The locked project of `graph`: its nodes are the artifacts of `facts` (the class path the
/// session resolved, each once), with their edges to each other in declaration order; the
/// omissions whose parent is kept (all of them when `scope` is `None`).
pub fn project(
    graph: &DependencyGraph,
    scope: Option<&str>,
    inputs: Inputs,
    facts: &[(NodeId, FileFacts)],
) -> LockedProject {
    let kept: HashSet<String> = facts.iter().map(|(id, _)| coord_of(graph, *id)).collect();
    let edges = |id: NodeId| -> Vec<String> {
        graph
            .children(id)
            .iter()
            .map(|&c| coord_of(graph, c))
            .filter(|c| kept.contains(c))
            .collect()
    };
    let root = graph.root();
    let root_coord = coord_of(graph, root);
    let mut nodes = Vec::new();
    for (id, f) in facts {
        let node = graph.node(*id);
        let m = &node.management;
        let managed = (m.bits != 0).then(|| Managed {
            version: (m.bits & managed::VERSION != 0)
                .then(|| m.premanaged_version.clone().unwrap_or_default()),
            scope: (m.bits & managed::SCOPE != 0)
                .then(|| m.premanaged_scope.clone().unwrap_or_default()),
            optional: (m.bits & managed::OPTIONAL != 0)
                .then(|| m.premanaged_optional.unwrap_or(false)),
            exclusions: (m.bits & managed::EXCLUSIONS != 0).then(|| {
                m.premanaged_exclusions
                    .iter()
                    .flatten()
                    .map(ToString::to_string)
                    .collect()
            }),
            system_path: m.bits & managed::PROPERTIES != 0,
        });
        nodes.push(LockedNode {
            coord: coord_of(graph, *id),
            type_id: node
                .artifact()
                .and_then(|a| a.type_id.clone().filter(|t| *t != a.extension)),
            scope: node.scope().to_string(),
            optional: node.is_optional(),
            repository: f.repository.clone(),
            url: None,
            module: f.module,
            file: f.file.clone(),
            size: f.size,
            sha256: f.sha256.clone(),
            sha1: f.sha1.clone(),
            dependencies: edges(*id),
            exclusions: node
                .dependency
                .iter()
                .flat_map(|d| &d.exclusions)
                .map(ToString::to_string)
                .collect(),
            managed,
            relocated_from: node.relocations.iter().map(ToString::to_string).collect(),
            range: node
                .constraint
                .as_ref()
                .filter(|c| c.range().is_some())
                .map(ToString::to_string),
        });
    }
    nodes.sort_by(|a, b| a.coord.cmp(&b.coord));
    let reachable: HashSet<NodeId> = graph.preorder().into_iter().map(|(n, _)| n).collect();
    let omitted = graph
        .omissions
        .iter()
        .filter_map(|o| {
            let parent = coord_of(graph, o.parent);
            if scope.is_some() && o.parent != root && !kept.contains(&parent) {
                return None;
            }
            let (reason, detail) = match &o.reason {
                OmissionReason::Scope(s) => ("scope", s.clone()),
                OmissionReason::Optional => ("optional", String::new()),
                OmissionReason::Excluded(e) => ("excluded", e.to_string()),
                OmissionReason::Conflict { winner } => ("conflict", coord_of(graph, *winner)),
                OmissionReason::Range(m) => ("range", m.clone()),
            };
            Some(LockedOmission {
                parent,
                coord: o.dependency.artifact.to_string(),
                scope: o.dependency.scope.clone(),
                reason: reason.into(),
                detail,
                detached: o.parent != root && !reachable.contains(&o.parent),
            })
        })
        .collect();
    let packaging = graph
        .node(root)
        .artifact()
        .and_then(|a| a.type_id.clone().filter(|t| *t != a.extension));
    LockedProject {
        root: root_coord,
        packaging,
        scope: scope.map(str::to_string),
        inputs,
        dependencies: edges(root),
        nodes,
        omitted,
    }
}

/// The repositories of `facts` (URLs without user info), and the node URLs to set where two
/// repositories share an id: returns the list and, per ambiguous id, nothing else to do (the
/// nodes get their `url`).
pub fn repositories(
    projects: &mut [LockedProject],
    facts: &[Vec<FileFacts>],
) -> Vec<LockedRepository> {
    let mut urls: HashMap<String, Vec<String>> = HashMap::new();
    for f in facts.iter().flatten() {
        if let (Some(id), Some(url)) = (&f.repository, &f.repository_url) {
            let url = strip_userinfo(url);
            let list = urls.entry(id.clone()).or_default();
            if !list.contains(&url) {
                list.push(url);
            }
        }
    }
    // A node's URL is written only when its id stands for two URLs in this lock.
    for (project, facts) in projects.iter_mut().zip(facts) {
        let by_file: HashMap<(&str, Option<&str>), &FileFacts> = facts
            .iter()
            .map(|f| ((f.file.as_str(), f.repository.as_deref()), f))
            .collect();
        for node in &mut project.nodes {
            let Some(id) = &node.repository else { continue };
            if urls.get(id).is_some_and(|l| l.len() > 1) {
                node.url = by_file
                    .get(&(node.file.as_str(), Some(id.as_str())))
                    .and_then(|f| f.repository_url.as_deref())
                    .map(strip_userinfo);
            }
        }
    }
    let mut out: Vec<LockedRepository> = urls
        .into_iter()
        .flat_map(|(id, list)| {
            list.into_iter().map(move |url| LockedRepository {
                id: id.clone(),
                url,
            })
        })
        .collect();
    out.sort();
    out
}
