//! Dependency collection exactly as Maven Resolver 1.6.3's `DefaultDependencyCollector`: depth
//! first in declaration order; per dependency, selection (scope, optional, exclusions), then
//! management, then the candidate versions (every version a range admits gets its own node;
//! conflict resolution picks one), then its descriptor (cached per artifact, first read wins);
//! relocations re-enter with the target; a dependency on an artifact already on the path is a
//! cycle node sharing that node's children; a sub-graph already built with the same artifact,
//! repositories and rules shares its children list; repositories that POMs declare join the
//! list for their sub-graph.
//!
//! The walk is Maven's, in Maven's order; the source may fetch ahead in parallel
//! ([`DescriptorSource::prefetch`]): what is fetched ahead never changes the result.

use super::graph::{
    DependencyGraph, DependencyNode, ListId, Management, NodeId, Omission, OmissionReason,
};
use super::ranges::{self, RangeResult};
use super::rules::{self, apply_management, ManagementTable, Manager, Selector};
use super::source::{DescriptorOutcome, DescriptorSource, VersionOrigin};
use crate::repository::RemoteRepository;
use crate::resolution::artifact::{Artifact, ArtifactDescriptor, Dependency};
use crate::resolution::pom::cache_key::{FastMap, FastState};
use std::collections::HashMap;
use std::fmt;
use std::hash::BuildHasher;
use std::sync::Arc;

/// What to collect: the root and its direct and managed dependencies (Resolver's
/// `CollectRequest`, with a root artifact or without one).
#[derive(Debug, Clone)]
pub struct CollectRequest {
    /// The project (or the artifact whose dependencies are collected); `None` for bare
    /// dependencies (several coordinates), whose root is unnamed.
    pub root: Option<Artifact>,
    /// Its dependencies, in order.
    pub dependencies: Vec<Dependency>,
    /// Its dependency management (applied to transitive dependencies).
    pub managed_dependencies: Vec<Dependency>,
    /// The repositories to start from (mirrored and authenticated).
    pub repositories: Vec<RemoteRepository>,
}

/// What Maven reports as a warning during collection (`missing-pom`, `invalid-pom`): the POM
/// reader's own kinds.
pub use crate::resolution::pom::PomProblemKind;

/// A warning: an artifact kept without children because its POM is missing or invalid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PomProblem {
    /// Missing or invalid.
    pub kind: PomProblemKind,
    /// The artifact whose POM it is.
    pub artifact: Artifact,
    /// What the POM reader said.
    pub message: String,
}

impl fmt::Display for PomProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            PomProblemKind::MissingPom => write!(
                f,
                "the POM for {} is missing, no dependency information available",
                self.artifact
            ),
            PomProblemKind::InvalidPom => write!(
                f,
                "the POM for {} is invalid, transitive dependencies (if any) will not be available: {}",
                self.artifact, self.message
            ),
        }
    }
}

/// Why collection failed (Maven's `DependencyCollectionException`); the graph is still
/// returned, without the failing dependencies.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CollectError {
    /// A descriptor could not be read (a parent or BOM that cannot be fetched, a transfer
    /// error): Maven fails the collection.
    #[error("{}: {message}", path.join(" → "))]
    Descriptor {
        /// From the root to the artifact.
        path: Vec<String>,
        /// What failed.
        message: String,
    },
    /// A dependency's version or range cannot be resolved.
    #[error("{}: {message}", path.join(" → "))]
    VersionRange {
        /// From the root to the dependency (`app → a:1.0 → b:[2,3)`).
        path: Vec<String>,
        /// What failed, naming the versions seen and the repositories asked.
        message: String,
    },
    /// No version satisfies every range on the paths to an artifact.
    #[error("could not resolve the version conflict for {conflict}: no version satisfies every range ({})", paths.join("; "))]
    UnsolvableConflict {
        /// `groupId:artifactId`.
        conflict: String,
        /// The constraints in conflict, with their paths.
        paths: Vec<String>,
    },
}

/// The collected graph, the warnings, and the errors (none when collection succeeded).
#[derive(Debug, Clone)]
pub struct CollectResult {
    /// The graph (after conflict resolution when [`super::collect`] made it).
    pub graph: DependencyGraph,
    /// Missing and invalid POMs, each once.
    pub problems: Vec<PomProblem>,
    /// Failures; the collection failed when there is any.
    pub errors: Vec<CollectError>,
}

impl CollectResult {
    /// The missing-POM warnings about what the user named as the root of `root`: the artifact
    /// of [`Root::Artifact`](super::Root::Artifact), the coordinates of
    /// [`Root::Dependencies`](super::Root::Dependencies). Maven keeps a *dependency* whose POM
    /// is missing as a leaf (a warning), and so does this result; but a root that cannot be
    /// found is almost always a typo in a coordinate (or an empty local repository offline),
    /// which a command line should report as an error. Each problem's message says what was
    /// searched. Empty for project roots (a project file that cannot be read fails the call).
    ///
    /// ```
    /// use m2resolver::resolution::collect::{collect, CollectRequest, MemorySource};
    /// use m2resolver::{Artifact, Dependency, Root};
    /// let typo = Artifact::new("org.apache.maven", "maven-cor", "jar", "", "3.8.7");
    /// let root = Root::compile([typo.clone()]);
    /// let request = CollectRequest {
    ///     root: Some(Artifact::new("g", "app", "pom", "", "1")),
    ///     dependencies: vec![Dependency::new(typo, "compile")],
    ///     managed_dependencies: vec![],
    ///     repositories: vec![],
    /// };
    /// let result = collect(&MemorySource::new(), &request);
    /// assert_eq!(result.missing_roots(&root).len(), 1);
    /// ```
    pub fn missing_roots(&self, root: &super::Root) -> Vec<&PomProblem> {
        let named: Vec<&Artifact> = match root {
            super::Root::Artifact(a) => {
                // The graph's root is the artifact after relocations: that is the one reported.
                let graph_root = self.graph.node(self.graph.root()).artifact();
                vec![a].into_iter().chain(graph_root).collect()
            }
            super::Root::Dependencies(deps) => deps.iter().map(|d| &d.artifact).collect(),
            _ => Vec::new(),
        };
        self.problems
            .iter()
            .filter(|p| p.kind == PomProblemKind::MissingPom)
            .filter(|p| {
                named.iter().any(|a| {
                    a.group_id == p.artifact.group_id && a.artifact_id == p.artifact.artifact_id
                })
            })
            .collect()
    }
}

/// What a new node is made of.
struct Candidate<'a> {
    dependency: Dependency,
    range: &'a RangeResult,
    version: &'a crate::resolution::version::Version,
    relocations: &'a [Artifact],
    management: &'a Management,
}

/// Sub-graph key (`DataPool.GraphKey`): equal keys share children.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct GraphKey {
    artifact: Artifact,
    repositories: usize,
    selector: Selector,
    manager: Manager,
}

/// A [`GraphKey`], borrowed (hashes as the owned key: its fields in order).
#[derive(Hash)]
struct GraphKeyRef<'a> {
    artifact: &'a Artifact,
    repositories: usize,
    selector: &'a Selector,
    manager: Manager,
}

impl hashbrown::Equivalent<GraphKey> for GraphKeyRef<'_> {
    fn equivalent(&self, k: &GraphKey) -> bool {
        self.repositories == k.repositories
            && self.manager == k.manager
            && *self.artifact == k.artifact
            && *self.selector == k.selector
    }
}

/// A key of the version ranges resolved, borrowed (hashes as `(Artifact, usize)`).
#[derive(Hash)]
struct RangeKeyRef<'a>(&'a Artifact, usize);

impl hashbrown::Equivalent<(Artifact, usize)> for RangeKeyRef<'_> {
    fn equivalent(&self, k: &(Artifact, usize)) -> bool {
        self.1 == k.1 && *self.0 == k.0
    }
}

/// Interned repository lists, so lists compare by number.
#[derive(Default)]
struct RepositoryLists {
    lists: Vec<Arc<[RemoteRepository]>>,
    by_fingerprint: HashMap<String, Vec<usize>>,
    aggregated: HashMap<(usize, String), usize>,
}

fn fingerprint(repos: &[RemoteRepository]) -> String {
    let mut s = String::new();
    for r in repos {
        s.push_str(&r.id);
        s.push('\u{1}');
        s.push_str(r.url.as_written());
        for m in &r.mirrored_repositories {
            s.push('\u{2}');
            s.push_str(&m.id);
            s.push('\u{3}');
            s.push_str(m.url.as_written());
        }
        s.push('\u{4}');
    }
    s
}

impl RepositoryLists {
    fn intern(&mut self, repos: Vec<RemoteRepository>) -> usize {
        let fp = fingerprint(&repos);
        let candidates = self.by_fingerprint.entry(fp).or_default();
        for &i in candidates.iter() {
            if *self.lists[i] == *repos {
                return i;
            }
        }
        self.lists.push(Arc::from(repos));
        candidates.push(self.lists.len() - 1);
        self.lists.len() - 1
    }
}

/// The collector's state for one request (Resolver's `Args`, `DataPool`, `NodeStack`, `Results`).
pub(crate) struct Collector<'s> {
    source: &'s dyn DescriptorSource,
    table: Arc<ManagementTable>,
    pub(crate) graph: DependencyGraph,
    descriptors: FastMap<Artifact, Option<Arc<ArtifactDescriptor>>>,
    ranges: FastMap<(Artifact, usize), Arc<RangeResult>>,
    children: FastMap<GraphKey, ListId>,
    stack: Vec<NodeId>,
    repos: RepositoryLists,
    /// Resolver's `DataPool.intern`: equal dependencies are one object, so one scope text.
    /// Each entry is the first node made with that dependency (its dependency is the object).
    interned: hashbrown::HashTable<NodeId>,
    hasher: FastState,
    /// The nodes whose dependency went through [`Self::interned`], in the order it was asked
    /// (so that a build's later collections can intern them against the earlier ones).
    pub(crate) interned_nodes: Vec<NodeId>,
    pub(crate) problems: Vec<PomProblem>,
    pub(crate) errors: Vec<CollectError>,
}

/// The `ClassicDependencyManager` table and the collector's speculation of which descriptors
/// it will read below a descriptor (for prefetching): the dependencies a transitive POM
/// contributes unless their scope or optionality drops them, at their managed version.
pub fn speculative_children(
    table: &ManagementTable,
    descriptor: &ArtifactDescriptor,
) -> Vec<Artifact> {
    let transitive = Manager::default().derive().derive();
    descriptor
        .dependencies
        .iter()
        .filter(|d| d.scope != "test" && d.scope != "provided" && !d.is_optional())
        .filter_map(|d| {
            let (d, _) = apply_management(transitive.manage(table, d), d.clone(), false);
            (!rules::lacks_descriptor(&d.artifact) && !ranges::needs_listing(&d.artifact.version))
                .then_some(d.artifact)
        })
        .collect()
}

/// The descriptors the collector will read for `deps` below a point with `selector` and
/// `manager`: the dependencies it selects, at their managed version, that have a descriptor
/// and a fixed version.
fn descriptors_to_read<'a>(
    table: &'a ManagementTable,
    deps: &'a [Dependency],
    selector: &'a Selector,
    manager: Manager,
) -> impl Iterator<Item = Artifact> + 'a {
    deps.iter()
        .filter(|d| selector.select(d).is_ok())
        .filter_map(move |d| {
            let (d, _) = apply_management(manager.manage(table, d), d.clone(), false);
            (!rules::lacks_descriptor(&d.artifact) && !ranges::needs_listing(&d.artifact.version))
                .then_some(d.artifact)
        })
}

/// The descriptors a collection of `deps` (a root's direct dependencies, managed by `table`)
/// reads first, as [`Collector::run`] asks for them.
pub fn root_descriptors(table: &ManagementTable, deps: &[Dependency]) -> Vec<Artifact> {
    let selector = Selector::default().derive(None);
    descriptors_to_read(table, deps, &selector, Manager::default().derive()).collect()
}

impl<'s> Collector<'s> {
    pub(crate) fn new(source: &'s dyn DescriptorSource, request: &CollectRequest) -> Self {
        let root = DependencyNode {
            dependency: None,
            root_artifact: request.root.clone(),
            constraint: None,
            version: None,
            relocations: Vec::new(),
            repositories: Arc::from(request.repositories.clone()),
            management: Management::default(),
            children: ListId(usize::MAX),
        };
        Collector {
            source,
            table: Arc::new(ManagementTable::new(&request.managed_dependencies)),
            graph: DependencyGraph::with_root(root),
            descriptors: FastMap::default(),
            ranges: FastMap::default(),
            children: FastMap::default(),
            stack: Vec::new(),
            repos: RepositoryLists::default(),
            interned: hashbrown::HashTable::new(),
            hasher: FastState::default(),
            interned_nodes: Vec::new(),
            problems: Vec::new(),
            errors: Vec::new(),
        }
    }

    /// Builds the graph below the root.
    pub(crate) fn run(&mut self, request: &CollectRequest) {
        if request.dependencies.is_empty() {
            return;
        }
        let repos = self.repos.intern(request.repositories.clone());
        let root = self.graph.root;
        self.stack.push(root);
        let selector = Selector::default().derive(None);
        let manager = Manager::default().derive();
        self.prefetch(&request.dependencies, repos, &selector, manager);
        self.process(&request.dependencies, repos, &selector, manager);
        self.stack.pop();
    }

    fn prefetch(&self, deps: &[Dependency], repos: usize, selector: &Selector, manager: Manager) {
        let list = self.repos.lists[repos].clone();
        let requests: Vec<(Artifact, Arc<[RemoteRepository]>)> =
            descriptors_to_read(&self.table, deps, selector, manager)
                .filter(|a| !self.descriptors.contains_key(a))
                .map(|a| (a, list.clone()))
                .collect();
        if !requests.is_empty() {
            self.source.prefetch(requests);
        }
    }

    fn process(
        &mut self,
        deps: &[Dependency],
        repos: usize,
        selector: &Selector,
        manager: Manager,
    ) {
        for d in deps {
            self.process_dependency(repos, selector, manager, d.clone(), &[], false);
        }
    }

    fn top(&self) -> NodeId {
        *self.stack.last().expect("the root is on the stack")
    }

    fn process_dependency(
        &mut self,
        repos: usize,
        selector: &Selector,
        manager: Manager,
        dependency: Dependency,
        relocations: &[Artifact],
        disable_version_management: bool,
    ) {
        if let Err(reason) = selector.select(&dependency) {
            let parent = self.top();
            self.graph.omissions.push(Omission {
                parent,
                dependency,
                node: None,
                reason,
            });
            return;
        }
        let (dependency, management) = apply_management(
            manager.manage(&self.table, &dependency),
            dependency,
            disable_version_management,
        );
        let no_descriptor = rules::lacks_descriptor(&dependency.artifact);
        let traverse = !no_descriptor && rules::traverse(&dependency.artifact);
        let range = match self.resolve_range(&dependency, repos) {
            Ok(r) => r,
            Err(message) => {
                let path = self.path_to(&dependency.artifact);
                let parent = self.top();
                self.graph.omissions.push(Omission {
                    parent,
                    dependency,
                    node: None,
                    reason: OmissionReason::Range(message.clone()),
                });
                self.errors
                    .push(CollectError::VersionRange { path, message });
                return;
            }
        };
        for (version, origin) in &range.versions {
            let mut d = dependency.clone();
            if d.artifact.version != version.as_str() {
                d.artifact.version = version.as_str().to_string();
            }
            let descriptor = if no_descriptor {
                Some(empty_descriptor(&d.artifact))
            } else {
                self.descriptor(&d, repos)
            };
            let parent = self.top();
            let Some(descriptor) = descriptor else {
                // A descriptor that failed: the node stays, without children.
                let repositories = self.node_repositories(origin.as_ref(), repos);
                let node = Candidate {
                    dependency: d,
                    range: &range,
                    version,
                    relocations,
                    management: &management,
                };
                self.add_child(parent, node, repositories, ListId(usize::MAX));
                continue;
            };
            if let Some(a) = descriptor
                .artifact
                .as_ref()
                .filter(|a| !same_coordinates(a, &d.artifact))
            {
                // The descriptor's coordinates (a relocation's target), with the type
                // properties of this dependency: Resolver's descriptor artifact is the requested
                // one (a `RelocatedArtifact` delegates its properties to it), while a cached
                // descriptor may have been read for another type of the same POM.
                let requested = std::mem::replace(&mut d.artifact, a.clone());
                d.artifact.type_id = requested.type_id;
                d.artifact.includes_dependencies = requested.includes_dependencies;
                d.artifact.constitutes_build_path = requested.constitutes_build_path;
                d.artifact.local_path = requested.local_path;
            }
            if let Some(entry) = self.find_on_stack(&d.artifact) {
                let cycle_node = self.stack[entry];
                if self.graph.node(cycle_node).dependency.is_some() {
                    let (repositories, children) = {
                        let c = self.graph.node(cycle_node);
                        (c.repositories.clone(), c.children)
                    };
                    let node = Candidate {
                        dependency: d,
                        range: &range,
                        version,
                        relocations,
                        management: &management,
                    };
                    self.add_child(parent, node, repositories, children);
                    continue;
                }
            }
            if !descriptor.relocations.is_empty() {
                let disable = dependency.artifact.group_id == d.artifact.group_id
                    && dependency.artifact.artifact_id == d.artifact.artifact_id;
                let relocated_from = descriptor.relocations.clone();
                self.process_dependency(repos, selector, manager, d, &relocated_from, disable);
                return;
            }
            let hash = self.hasher.hash_one(&d);
            let first = self
                .interned
                .find(hash, |&n| {
                    self.graph.node(n).dependency.as_ref() == Some(&d)
                })
                .copied();
            if let Some(first) = first {
                if let Some(equal) = &self.graph.node(first).dependency {
                    d.scope_source = equal.scope_source.clone();
                }
            }
            let repositories = self.node_repositories(origin.as_ref(), repos);
            let descend = traverse && !descriptor.dependencies.is_empty();
            let below = descend.then(|| d.clone());
            let node = Candidate {
                dependency: d,
                range: &range,
                version,
                relocations,
                management: &management,
            };
            let child = self.add_child(parent, node, repositories, ListId(usize::MAX));
            if first.is_none() {
                let (graph, hasher) = (&self.graph, &self.hasher);
                // every interned node has a dependency (the root is never interned)
                self.interned
                    .insert_unique(hash, child, |&n| match &graph.node(n).dependency {
                        Some(d) => hasher.hash_one(d),
                        None => 0,
                    });
            }
            self.interned_nodes.push(child);
            if let Some(d) = below {
                self.recurse(repos, selector, manager, &d, &descriptor, child);
            }
        }
    }

    /// `createDependencyNode`: a child of `parent` sharing `children` (a fresh list for
    /// `ListId(usize::MAX)`).
    fn add_child(
        &mut self,
        parent: NodeId,
        c: Candidate<'_>,
        repositories: Arc<[RemoteRepository]>,
        children: ListId,
    ) -> NodeId {
        let child = self.graph.add_node(DependencyNode {
            dependency: Some(c.dependency),
            root_artifact: None,
            constraint: Some(c.range.constraint.clone()),
            version: Some(c.version.clone()),
            relocations: c.relocations.to_vec(),
            repositories,
            management: c.management.clone(),
            children,
        });
        let list = self.graph.node(parent).children;
        self.graph.lists[list.0].push(child);
        child
    }

    /// `getRemoteRepositories`: the repository that listed a range's version, none for the
    /// local repository, else every repository in force.
    fn node_repositories(
        &self,
        origin: Option<&VersionOrigin>,
        repos: usize,
    ) -> Arc<[RemoteRepository]> {
        match origin {
            Some(VersionOrigin::Remote(i)) => Arc::from(vec![self.repos.lists[repos][*i].clone()]),
            Some(VersionOrigin::Local) => Arc::from(Vec::new()),
            None => self.repos.lists[repos].clone(),
        }
    }

    fn recurse(
        &mut self,
        repos: usize,
        selector: &Selector,
        manager: Manager,
        d: &Dependency,
        descriptor: &ArtifactDescriptor,
        child: NodeId,
    ) {
        let child_selector = selector.derive(Some(d));
        let child_manager = manager.derive();
        let child_repos = self.aggregate(repos, &descriptor.repositories);
        let key = GraphKeyRef {
            artifact: &d.artifact,
            repositories: child_repos,
            selector: &child_selector,
            manager: child_manager,
        };
        if let Some(&list) = self.children.get(&key) {
            self.graph.node_mut(child).children = list;
            return;
        }
        let list = self.graph.node(child).children;
        let key = GraphKey {
            artifact: d.artifact.clone(),
            repositories: child_repos,
            selector: child_selector.clone(),
            manager: child_manager,
        };
        self.children.insert(key, list);
        self.stack.push(child);
        self.prefetch(
            &descriptor.dependencies,
            child_repos,
            &child_selector,
            child_manager,
        );
        self.process(
            &descriptor.dependencies,
            child_repos,
            &child_selector,
            child_manager,
        );
        self.stack.pop();
    }

    fn aggregate(&mut self, repos: usize, declared: &[RemoteRepository]) -> usize {
        let key = (repos, crate::resolution::pom::repositories_key(declared));
        if let Some(&id) = self.repos.aggregated.get(&key) {
            return id;
        }
        let merged = self.source.aggregate(&self.repos.lists[repos], declared);
        let id = self.repos.intern(merged);
        self.repos.aggregated.insert(key, id);
        id
    }

    /// `NodeStack.find`: the nearest node on the path with the same
    /// `groupId:artifactId:extension:classifier` (any version).
    fn find_on_stack(&self, artifact: &Artifact) -> Option<usize> {
        self.stack.iter().rposition(|&n| {
            self.graph.node(n).artifact().is_some_and(|a| {
                a.artifact_id == artifact.artifact_id
                    && a.group_id == artifact.group_id
                    && a.extension == artifact.extension
                    && a.classifier == artifact.classifier
            })
        })
    }

    /// `resolveCachedArtifactDescriptor` with Maven's "ignore missing and invalid" policy: a
    /// missing or invalid POM is a warning and a descriptor without dependencies; a descriptor
    /// that fails (`None`) fails the collection, with the path to it.
    fn descriptor(
        &mut self,
        dependency: &Dependency,
        repos: usize,
    ) -> Option<Arc<ArtifactDescriptor>> {
        let artifact = &dependency.artifact;
        if let Some(d) = self.descriptors.get(artifact) {
            return d.clone();
        }
        let outcome = self.source.descriptor(artifact, &self.repos.lists[repos]);
        let descriptor = match outcome {
            DescriptorOutcome::Found(d) => Some(d),
            DescriptorOutcome::Missing {
                artifact: named,
                partial,
                message,
            } => {
                self.record_problem(PomProblemKind::MissingPom, &named, message);
                Some(partial)
            }
            DescriptorOutcome::Invalid {
                artifact: named,
                partial,
                message,
            } => {
                self.record_problem(PomProblemKind::InvalidPom, &named, message);
                Some(partial)
            }
            DescriptorOutcome::Failed(message) => {
                let path = self.path_to(artifact);
                self.errors.push(CollectError::Descriptor { path, message });
                None
            }
        };
        self.descriptors
            .insert(artifact.clone(), descriptor.clone());
        descriptor
    }

    /// The artifacts from the root to `last` (`Results.addException`'s path).
    fn path_to(&self, last: &Artifact) -> Vec<String> {
        let mut path: Vec<String> = self
            .stack
            .iter()
            .filter_map(|&n| self.graph.node(n).artifact().map(ToString::to_string))
            .collect();
        path.push(last.to_string());
        path
    }

    fn record_problem(&mut self, kind: PomProblemKind, artifact: &Artifact, message: String) {
        if !self
            .problems
            .iter()
            .any(|p| p.kind == kind && p.artifact == *artifact)
        {
            self.problems.push(PomProblem {
                kind,
                artifact: artifact.clone(),
                message,
            });
        }
    }

    fn resolve_range(
        &mut self,
        dependency: &Dependency,
        repos: usize,
    ) -> Result<Arc<RangeResult>, String> {
        if let Some(r) = self.ranges.get(&RangeKeyRef(&dependency.artifact, repos)) {
            return Ok(r.clone());
        }
        let key = (dependency.artifact.clone(), repos);
        let list = self.repos.lists[repos].clone();
        let source = self.source;
        let artifact = &dependency.artifact;
        let result = ranges::resolve(&artifact.version, || source.versions(artifact, &list))
            .map_err(|e| {
                let searched: Vec<&str> = list.iter().map(|r| r.id.as_str()).collect();
                format!(
                    "{}:{}: {e} in {}",
                    artifact.group_id,
                    artifact.artifact_id,
                    if searched.is_empty() {
                        "the local repository".to_string()
                    } else {
                        format!("the local repository, {}", searched.join(", "))
                    }
                )
            })?;
        let result = Arc::new(result);
        self.ranges.insert(key, result.clone());
        Ok(result)
    }
}

/// Whether two artifacts have the same `groupId:artifactId:extension:classifier:version`.
fn same_coordinates(a: &Artifact, b: &Artifact) -> bool {
    a.version == b.version
        && a.artifact_id == b.artifact_id
        && a.group_id == b.group_id
        && a.extension == b.extension
        && a.classifier == b.classifier
}

/// What Resolver returns for an artifact without a usable POM: the artifact, nothing else.
fn empty_descriptor(artifact: &Artifact) -> Arc<ArtifactDescriptor> {
    Arc::new(ArtifactDescriptor {
        artifact: Some(artifact.clone()),
        ..ArtifactDescriptor::default()
    })
}

#[cfg(test)]
mod tests {
    use super::super::source::MemorySource;
    use super::super::{collect, view};
    use super::*;

    fn jar(coord: &str) -> Artifact {
        let p: Vec<&str> = coord.split(':').collect();
        Artifact::from_type(p[0], p[1], "jar", "", p[2])
    }

    fn dep(coord: &str, scope: &str) -> Dependency {
        Dependency::new(jar(coord), scope)
    }

    fn world(edges: &[(&str, &[(&str, &str)])]) -> MemorySource {
        let mut s = MemorySource::new();
        for (coord, deps) in edges {
            s.add(
                &jar(coord).to_string(),
                ArtifactDescriptor {
                    dependencies: deps.iter().map(|(c, sc)| dep(c, sc)).collect(),
                    ..Default::default()
                },
            );
        }
        s
    }

    fn request(deps: &[(&str, &str)]) -> CollectRequest {
        CollectRequest {
            root: Some(Artifact::new("g", "app", "pom", "", "1")),
            dependencies: deps.iter().map(|(c, s)| dep(c, s)).collect(),
            managed_dependencies: Vec::new(),
            repositories: Vec::new(),
        }
    }

    /// Each row: the world, the root's dependencies, the class path Maven computes.
    #[test]
    fn graphs_and_their_classpaths() {
        type Row<'a> = (
            &'a [(&'a str, &'a [(&'a str, &'a str)])],
            &'a [(&'a str, &'a str)],
            &'a [&'a str],
        );
        let rows: &[Row] = &[
            // nearest wins over first declaration
            (
                &[
                    ("g:a:1", &[("g:x:1", "compile")]),
                    ("g:x:1", &[("g:c:1", "compile")]),
                    ("g:b:1", &[("g:c:2", "compile")]),
                ],
                &[("g:a:1", "compile"), ("g:b:1", "compile")],
                &[
                    "g:a:jar:1:compile",
                    "g:x:jar:1:compile",
                    "g:b:jar:1:compile",
                    "g:c:jar:2:compile",
                ],
            ),
            // scope widening: runtime and compile paths at equal depth give compile
            (
                &[
                    ("g:a:1", &[("g:c:1", "runtime")]),
                    ("g:b:1", &[("g:c:1", "compile")]),
                ],
                &[("g:a:1", "compile"), ("g:b:1", "compile")],
                &[
                    "g:a:jar:1:compile",
                    "g:c:jar:1:compile",
                    "g:b:jar:1:compile",
                ],
            ),
            // a cycle is cut
            (
                &[
                    ("g:a:1", &[("g:b:1", "compile")]),
                    ("g:b:1", &[("g:a:1", "compile")]),
                ],
                &[("g:a:1", "compile")],
                &["g:a:jar:1:compile", "g:b:jar:1:compile"],
            ),
            // below a test dependency everything is test; transitive test is dropped
            (
                &[("g:a:1", &[("g:b:1", "compile"), ("g:t:1", "test")])],
                &[("g:a:1", "test")],
                &["g:a:jar:1:test", "g:b:jar:1:test"],
            ),
        ];
        for (edges, deps, want) in rows {
            let result = collect(&world(edges), &request(deps));
            assert!(result.errors.is_empty(), "{:?}", result.errors);
            assert_eq!(view::classpath(&result.graph), *want);
        }
    }

    #[test]
    fn identical_subgraphs_share_children_and_descriptors_are_read_once() {
        let w = world(&[
            ("g:a:1", &[("g:s:1", "compile")]),
            ("g:b:1", &[("g:s:1", "compile")]),
            ("g:s:1", &[("g:leaf:1", "compile")]),
        ]);
        let mut collector =
            Collector::new(&w, &request(&[("g:a:1", "compile"), ("g:b:1", "compile")]));
        collector.run(&request(&[("g:a:1", "compile"), ("g:b:1", "compile")]));
        let g = &collector.graph;
        let s_nodes: Vec<&DependencyNode> = g
            .nodes
            .iter()
            .filter(|n| n.artifact().is_some_and(|a| a.artifact_id == "s"))
            .collect();
        assert_eq!(s_nodes.len(), 2);
        assert_eq!(
            s_nodes[0].children, s_nodes[1].children,
            "one shared child list"
        );
        let reads = w.requests.lock().unwrap();
        assert_eq!(reads.iter().filter(|r| r.starts_with("g:s:")).count(), 1);
    }

    #[test]
    fn failures_name_the_path() {
        let mut w = world(&[(
            "g:a:1",
            &[("g:broken:1", "compile"), ("g:r:[5,6)", "compile")],
        )]);
        w.add_failing("g:broken:jar:1");
        w.list("g:r", "", &["1.0", "2.0"]);
        let result = collect(&w, &request(&[("g:a:1", "compile")]));
        let errors: Vec<String> = result.errors.iter().map(ToString::to_string).collect();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(
            errors[0].starts_with("g:app:pom:1 → g:a:jar:1 → g:broken:jar:1:"),
            "{}",
            errors[0]
        );
        assert_eq!(
            errors[1],
            "g:app:pom:1 → g:a:jar:1 → g:r:jar:[5,6): g:r: no version in [5,6) among 1.0, 2.0 in the local repository"
        );
        // the failed descriptor's node stays, without children; the range's does not
        assert_eq!(
            view::classpath(&result.graph),
            ["g:a:jar:1:compile", "g:broken:jar:1:compile"]
        );
    }

    #[test]
    fn missing_and_invalid_poms_are_problems_not_errors() {
        let mut w = world(&[("g:a:1", &[("g:gone:1", "compile"), ("g:bad:1", "compile")])]);
        w.add_invalid("g:bad:jar:1");
        let result = collect(&w, &request(&[("g:a:1", "compile")]));
        assert!(result.errors.is_empty());
        let kinds: Vec<(&str, String)> = result
            .problems
            .iter()
            .map(|p| (p.kind.as_str(), p.artifact.to_string()))
            .collect();
        assert_eq!(
            kinds,
            [
                ("missing-pom", "g:gone:jar:1".to_string()),
                ("invalid-pom", "g:bad:jar:1".to_string())
            ]
        );
    }
}
