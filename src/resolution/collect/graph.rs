//! The dependency graph as Resolver builds it: nodes with their dependency, version constraint,
//! relocations, management record and repositories, and child lists that several nodes may
//! share (Resolver reuses the children of an identical sub-graph, and a cycle's closing node
//! shares the children of the node it points back to). Conflict resolution edits the shared
//! lists, so a subtree reached twice shows the same result in both places, as in Maven.
//!
//! This module owns the shapes and their traversal (pre-order, a visitor); building the graph
//! is [`super::collector`]'s, editing it [`super::conflict`]'s.

use crate::repository::RemoteRepository;
use crate::resolution::artifact::{Artifact, Dependency, Exclusion};
use crate::resolution::version::{Version, VersionConstraint};
use std::collections::HashMap;
use std::sync::Arc;

/// A node of a [`DependencyGraph`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) usize);

/// A child list, possibly shared by several nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ListId(pub(crate) usize);

/// Bits of [`Management::bits`] (Resolver's `DependencyNode.MANAGED_*`).
pub mod managed {
    /// The version came from dependency management.
    pub const VERSION: u8 = 0x01;
    /// The scope came from dependency management.
    pub const SCOPE: u8 = 0x02;
    /// Optionality came from dependency management.
    pub const OPTIONAL: u8 = 0x04;
    /// Artifact properties (the `system` path) came from dependency management.
    pub const PROPERTIES: u8 = 0x08;
    /// Exclusions were added by dependency management.
    pub const EXCLUSIONS: u8 = 0x10;
}

/// What dependency management changed on a node, and the values before it did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Management {
    /// [`managed`] bits.
    pub bits: u8,
    /// The version as declared, when management replaced it.
    pub premanaged_version: Option<String>,
    /// The scope as declared, when management replaced it.
    pub premanaged_scope: Option<String>,
    /// Optionality as declared, when management replaced it.
    pub premanaged_optional: Option<bool>,
    /// Exclusions as declared, when management added some.
    pub premanaged_exclusions: Option<Vec<Exclusion>>,
    /// The `systemPath` as declared, when management changed it.
    pub premanaged_local_path: Option<Option<String>>,
}

/// One node: the root (no dependency) or a dependency with its resolved version.
#[derive(Debug, Clone)]
pub struct DependencyNode {
    /// The dependency (after management, with the resolved version and, after conflict
    /// resolution, the winning scope and optionality); `None` for the root.
    pub dependency: Option<Dependency>,
    /// The root's artifact (only on the root).
    pub root_artifact: Option<Artifact>,
    /// The version constraint as written (a version or ranges).
    pub constraint: Option<VersionConstraint>,
    /// The version chosen (from the constraint or the range's candidates).
    pub version: Option<Version>,
    /// The artifacts this node was relocated from, in order.
    pub relocations: Vec<Artifact>,
    /// Where the artifact is to be downloaded from: the repository that listed the version
    /// for a range, else every repository in force at this point of the graph.
    pub repositories: Arc<[RemoteRepository]>,
    /// What dependency management changed.
    pub management: Management,
    /// The child list.
    pub(crate) children: ListId,
}

impl DependencyNode {
    /// The node's artifact (the root's, or the dependency's).
    pub fn artifact(&self) -> Option<&Artifact> {
        self.dependency
            .as_ref()
            .map(|d| &d.artifact)
            .or(self.root_artifact.as_ref())
    }

    /// The scope (empty for the root).
    pub fn scope(&self) -> &str {
        self.dependency.as_ref().map_or("", |d| d.scope.as_str())
    }

    /// Resolver's `isOptional()`.
    pub fn is_optional(&self) -> bool {
        self.dependency
            .as_ref()
            .is_some_and(Dependency::is_optional)
    }
}

/// Why a dependency is not in the graph (kept for `--verbose` and `m2r why`; Maven forgets).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum OmissionReason {
    /// A transitive dependency of a scope the session drops (`test`, `provided`).
    Scope(String),
    /// A transitive optional dependency.
    Optional,
    /// Matched an exclusion collected along the path.
    Excluded(Exclusion),
    /// Lost conflict resolution to another version or path of the same artifact.
    Conflict {
        /// The winning node.
        winner: NodeId,
    },
    /// Its version range could not be resolved.
    Range(String),
}

/// A dependency left out of the graph, and where.
#[derive(Debug, Clone)]
pub struct Omission {
    /// The node whose child it would have been.
    pub parent: NodeId,
    /// The dependency (as declared, or the losing node's).
    pub dependency: Dependency,
    /// The losing node, for conflicts.
    pub node: Option<NodeId>,
    /// Why.
    pub reason: OmissionReason,
}

/// A dependency graph: nodes in an arena, child lists shared as Resolver shares them.
#[derive(Debug, Clone)]
pub struct DependencyGraph {
    pub(crate) nodes: Vec<DependencyNode>,
    pub(crate) lists: Vec<Vec<NodeId>>,
    pub(crate) root: NodeId,
    /// Dependencies left out, with the reason (selection during collection, losers of
    /// conflict resolution).
    pub omissions: Vec<Omission>,
    /// The graph as conflict resolution in verbose mode leaves it (`None` before conflict
    /// resolution).
    pub(crate) verbose: Option<VerboseGraph>,
}

/// What Resolver's `ConflictResolver` leaves with `CONFIG_PROP_VERBOSE` (maven-dependency-tree's
/// verbose collection, `mvn dependency:tree -Dverbose`): each loser of a conflict stays where it
/// was declared as a leaf copy naming its winner, except beside its winner and after the first
/// in a row of one child list; the winners whose widest scope was not taken are marked.
#[derive(Debug, Clone, Default)]
pub(crate) struct VerboseGraph {
    /// Per child list: the list with the loser copies in place.
    pub(crate) lists: Vec<Vec<NodeId>>,
    /// Per loser copy: the node it lost to.
    pub(crate) winners: HashMap<NodeId, NodeId>,
    /// Per winner: the widest scope among its occurrences, when not the one it got
    /// (`VerboseJavaScopeSelector`'s `REDUCED_SCOPE`).
    pub(crate) reduced_scopes: HashMap<NodeId, String>,
}

/// Visits a graph depth first (Resolver's `DependencyVisitor`).
pub trait DependencyVisitor {
    /// Called on entering a node at `depth` (the root is 0); return false to skip its
    /// children.
    fn enter(&mut self, graph: &DependencyGraph, node: NodeId, depth: usize) -> bool;
    /// Called on leaving a node whose children were visited.
    fn leave(&mut self, _graph: &DependencyGraph, _node: NodeId, _depth: usize) {}
}

impl DependencyGraph {
    /// A graph of one root node.
    pub(crate) fn with_root(root: DependencyNode) -> Self {
        let mut g = DependencyGraph {
            nodes: Vec::new(),
            lists: Vec::new(),
            root: NodeId(0),
            omissions: Vec::new(),
            verbose: None,
        };
        g.root = g.add_node(root);
        g
    }

    /// Adds a node with a fresh child list unless `node.children` names one already.
    pub(crate) fn add_node(&mut self, mut node: DependencyNode) -> NodeId {
        if node.children.0 == usize::MAX {
            node.children = self.new_list();
        }
        self.nodes.push(node);
        NodeId(self.nodes.len() - 1)
    }

    pub(crate) fn new_list(&mut self) -> ListId {
        self.lists.push(Vec::new());
        ListId(self.lists.len() - 1)
    }

    /// The root node.
    pub fn root(&self) -> NodeId {
        self.root
    }

    /// A node.
    pub fn node(&self, id: NodeId) -> &DependencyNode {
        &self.nodes[id.0]
    }

    pub(crate) fn node_mut(&mut self, id: NodeId) -> &mut DependencyNode {
        &mut self.nodes[id.0]
    }

    /// The children of a node, in declaration order.
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        &self.lists[self.nodes[id.0].children.0]
    }

    /// The children of a node in the verbose graph ([`VerboseGraph`]): the children, and the
    /// losers of conflicts left in place as leaves.
    pub(crate) fn verbose_children(&self, id: NodeId) -> &[NodeId] {
        let list = self.nodes[id.0].children.0;
        match &self.verbose {
            Some(v) => &v.lists[list],
            None => &self.lists[list],
        }
    }

    /// The node a loser copy of the verbose graph lost to.
    pub(crate) fn verbose_winner(&self, id: NodeId) -> Option<NodeId> {
        self.verbose.as_ref()?.winners.get(&id).copied()
    }

    /// The widest scope a winner of the verbose graph did not get.
    pub(crate) fn reduced_scope(&self, id: NodeId) -> Option<&str> {
        self.verbose
            .as_ref()?
            .reduced_scopes
            .get(&id)
            .map(String::as_str)
    }

    /// Visits the graph from the root as a tree (a subtree reached twice is visited twice; a
    /// node already on the current path is not entered again, so leftover cycles end).
    pub fn accept(&self, visitor: &mut dyn DependencyVisitor) {
        let mut path: Vec<NodeId> = Vec::new();
        self.visit(self.root, 0, visitor, &mut path);
    }

    fn visit(
        &self,
        node: NodeId,
        depth: usize,
        visitor: &mut dyn DependencyVisitor,
        path: &mut Vec<NodeId>,
    ) {
        if path.contains(&node) {
            return;
        }
        if visitor.enter(self, node, depth) {
            path.push(node);
            for &child in self.children(node) {
                self.visit(child, depth + 1, visitor, path);
            }
            path.pop();
            visitor.leave(self, node, depth);
        }
    }

    /// Every node below the root in pre-order with its depth (1 for direct dependencies):
    /// Maven's resolution and class-path order.
    pub fn preorder(&self) -> Vec<(NodeId, usize)> {
        struct Collect(Vec<(NodeId, usize)>);
        impl DependencyVisitor for Collect {
            fn enter(&mut self, _: &DependencyGraph, node: NodeId, depth: usize) -> bool {
                if depth > 0 {
                    self.0.push((node, depth));
                }
                true
            }
        }
        let mut c = Collect(Vec::new());
        self.accept(&mut c);
        c.0
    }

    /// Every path from the root to a node satisfying `pred` (each path lists the nodes from
    /// the root's child to the match; the root itself matches with an empty path).
    pub fn paths_to(&self, pred: &dyn Fn(NodeId) -> bool) -> Vec<Vec<NodeId>> {
        struct Paths<'p> {
            pred: &'p dyn Fn(NodeId) -> bool,
            path: Vec<NodeId>,
            found: Vec<Vec<NodeId>>,
        }
        impl DependencyVisitor for Paths<'_> {
            fn enter(&mut self, _: &DependencyGraph, node: NodeId, depth: usize) -> bool {
                if depth > 0 {
                    self.path.push(node);
                }
                if (self.pred)(node) {
                    self.found.push(self.path.clone());
                }
                true
            }
            fn leave(&mut self, _: &DependencyGraph, _: NodeId, depth: usize) {
                if depth > 0 {
                    self.path.pop();
                }
            }
        }
        let mut v = Paths {
            pred,
            path: Vec::new(),
            found: Vec::new(),
        };
        self.accept(&mut v);
        v.found
    }
}
