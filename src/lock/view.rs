//! A locked project as a [`DependencyGraph`] again, so the graph's renderings (`m2r why`, the
//! tree) answer from the lock alone, without a repository.

use super::model::LockedProject;
use crate::resolution::collect::graph::{DependencyNode, ListId};
use crate::resolution::collect::{
    managed, CollectResult, DependencyGraph, Management, NodeId, Omission, OmissionReason,
};
use crate::resolution::version::{Version, VersionConstraint};
use crate::resolution::{Artifact, Dependency, Exclusion};
use std::collections::HashMap;
use std::sync::Arc;

/// A coordinate of the lock as an artifact (unparsable text keeps its parts as far as they go).
fn artifact(coord: &str) -> Artifact {
    match Artifact::parse(coord) {
        Ok(a) => a,
        Err(_) => {
            let parts: Vec<&str> = coord.split(':').collect();
            let part = |i: usize| parts.get(i).copied().unwrap_or("");
            Artifact::new(
                part(0),
                part(1),
                "",
                "",
                part(parts.len().saturating_sub(1)),
            )
        }
    }
}

fn exclusion(text: &str) -> Exclusion {
    let (g, a) = text.split_once(':').unwrap_or((text, "*"));
    Exclusion::pom(g, a)
}

fn node(
    dependency: Option<Dependency>,
    root_artifact: Option<Artifact>,
    constraint: Option<VersionConstraint>,
    relocations: Vec<Artifact>,
    management: Management,
) -> DependencyNode {
    let version = dependency
        .as_ref()
        .map(|d| Version::parse(&d.artifact.version));
    DependencyNode {
        dependency,
        root_artifact,
        constraint,
        version,
        relocations,
        repositories: Arc::from(Vec::new()),
        management,
        children: ListId(usize::MAX),
    }
}

impl LockedProject {
    /// The locked graph: the root, every node with its edges, management, relocations and
    /// range, and the omissions, as [`crate::Session::collect`] answered when it was locked.
    pub fn graph(&self) -> CollectResult {
        let mut root = artifact(&self.root);
        root.type_id.clone_from(&self.packaging);
        let mut graph = DependencyGraph::with_root(node(
            None,
            Some(root),
            None,
            Vec::new(),
            Management::default(),
        ));
        let mut ids: HashMap<&str, NodeId> = HashMap::new();
        ids.insert(self.root.as_str(), graph.root());
        for n in &self.nodes {
            let mut a = artifact(&n.coord);
            a.type_id.clone_from(&n.type_id);
            if n.scope == "system" {
                a.local_path = Some(n.file.clone());
            }
            let mut d = Dependency::new(a, n.scope.clone());
            d.optional = Some(n.optional);
            d.exclusions = n.exclusions.iter().map(|e| exclusion(e)).collect();
            let mut m = Management::default();
            if let Some(x) = &n.managed {
                if let Some(v) = &x.version {
                    m.bits |= managed::VERSION;
                    m.premanaged_version = Some(v.clone());
                }
                if let Some(s) = &x.scope {
                    m.bits |= managed::SCOPE;
                    m.premanaged_scope = Some(s.clone());
                }
                if let Some(o) = x.optional {
                    m.bits |= managed::OPTIONAL;
                    m.premanaged_optional = Some(o);
                }
                if let Some(e) = &x.exclusions {
                    m.bits |= managed::EXCLUSIONS;
                    m.premanaged_exclusions = Some(e.iter().map(|e| exclusion(e)).collect());
                }
                if x.system_path {
                    m.bits |= managed::PROPERTIES;
                    m.premanaged_local_path = Some(None);
                }
            }
            let constraint = n
                .range
                .as_deref()
                .and_then(|r| VersionConstraint::parse(r).ok());
            let relocations = n.relocated_from.iter().map(|r| artifact(r)).collect();
            let id = graph.add_node(node(Some(d), None, constraint, relocations, m));
            ids.insert(n.coord.as_str(), id);
        }
        let set_children = |graph: &mut DependencyGraph, id: NodeId, edges: &[String]| {
            let children: Vec<NodeId> = edges
                .iter()
                .filter_map(|e| ids.get(e.as_str()).copied())
                .collect();
            let list = graph.node(id).children;
            graph.lists[list.0] = children;
        };
        let root = graph.root();
        set_children(&mut graph, root, &self.dependencies);
        for n in &self.nodes {
            if let Some(&id) = ids.get(n.coord.as_str()) {
                set_children(&mut graph, id, &n.dependencies);
            }
        }
        // Omissions under a part of the graph that was itself left out hang from a node of
        // their own, which no path reaches.
        let mut detached: HashMap<String, NodeId> = HashMap::new();
        let mut omissions = Vec::new();
        for o in &self.omitted {
            let parent = match ids.get(o.parent.as_str()).filter(|_| !o.detached) {
                Some(&id) => id,
                None => *detached.entry(o.parent.clone()).or_insert_with(|| {
                    let d = Dependency::new(artifact(&o.parent), "");
                    graph.add_node(node(Some(d), None, None, Vec::new(), Management::default()))
                }),
            };
            let reason = match o.reason.as_str() {
                "scope" => OmissionReason::Scope(o.detail.clone()),
                "optional" => OmissionReason::Optional,
                "excluded" => OmissionReason::Excluded(exclusion(&o.detail)),
                "conflict" => match ids.get(o.detail.as_str()) {
                    Some(&winner) => OmissionReason::Conflict { winner },
                    None => OmissionReason::Range(format!("lost to {}", o.detail)),
                },
                _ => OmissionReason::Range(o.detail.clone()),
            };
            omissions.push(Omission {
                parent,
                dependency: Dependency::new(artifact(&o.coord), o.scope.clone()),
                node: None,
                reason,
            });
        }
        graph.omissions = omissions;
        CollectResult {
            graph,
            problems: Vec::new(),
            errors: Vec::new(),
        }
    }
}
