//! Transitive dependency resolution as Maven Resolver 1.6.3 does it for Maven 3.8.7:
//! collection (`collector.rs`, `DefaultDependencyCollector` with the session rules of
//! `rules.rs`), version ranges (`ranges.rs`, `DefaultVersionRangeResolver`), conflict
//! resolution (`conflict.rs`, `ConflictResolver` with Maven's selectors), the resulting
//! [`DependencyGraph`], its documents ([`view`]: `m2r tree --json`, the human tree, `m2r why`),
//! the class paths Maven derives from it ([`ClasspathScope`]) and the download of every
//! artifact in it ([`ResolvedNode`]).
//!
//! Descriptors and version listings come through a [`DescriptorSource`]; the
//! repository-backed one (`fetch.rs`), which fetches POMs ahead in parallel while the graph is
//! built in Maven's order, is what a session's engine uses.
//!
//! A build reaches all of this through its session: [`crate::Session::collect`] and
//! [`crate::Session::resolve`] wire the repository-backed source from the session's downloader,
//! properties and selectors.
//!
//! This module does not build POM models (that is [`crate::resolution::pom`]'s) or download
//! artifacts itself (that is [`crate::download`]'s).
//!
//! ```
//! use m2resolver::resolution::collect::{collect, CollectRequest, MemorySource};
//! use m2resolver::resolution::{Artifact, ArtifactDescriptor, Dependency};
//! let jar = |a: &str, v: &str| Artifact::from_type("g", a, "jar", "", v);
//! let mut world = MemorySource::new();
//! world.add("g:a:jar:1", ArtifactDescriptor { dependencies: vec![Dependency::new(jar("c", "1"), "compile")], ..Default::default() });
//! world.add("g:b:jar:1", ArtifactDescriptor { dependencies: vec![Dependency::new(jar("c", "2"), "runtime")], ..Default::default() });
//! let request = CollectRequest {
//!     root: Artifact::new("g", "app", "pom", "", "1"),
//!     dependencies: vec![Dependency::new(jar("a", "1"), "compile"), Dependency::new(jar("b", "1"), "compile")],
//!     managed_dependencies: vec![],
//!     repositories: vec![],
//! };
//! let result = collect(&world, &request);
//! let cp: Vec<String> = m2resolver::resolution::collect::view::classpath(&result.graph);
//! // nearest wins, first declaration at equal depth: c:1 under a
//! assert_eq!(cp, ["g:a:jar:1:compile", "g:c:jar:1:compile", "g:b:jar:1:compile"]);
//! ```

pub(crate) mod classpath;
pub(crate) mod collector;
pub(crate) mod conflict;
pub(crate) mod fetch;
pub(crate) mod graph;
pub(crate) mod project;
pub(crate) mod ranges;
pub(crate) mod resolve;
pub(crate) mod rules;
pub(crate) mod source;
pub mod view;

pub use classpath::ClasspathScope;
pub use collector::{CollectError, CollectRequest, CollectResult, PomProblem, PomProblemKind};
pub use graph::{
    managed, DependencyGraph, DependencyNode, DependencyVisitor, Management, NodeId, Omission,
    OmissionReason,
};
pub use project::{Root, RootFailure};
pub use resolve::{ArtifactError, ResolvedNode};
pub use source::{DescriptorOutcome, DescriptorSource, MemorySource, VersionOrigin};

/// Collects the graph of `request` and resolves its conflicts, as Maven's
/// `RepositorySystem.collectDependencies` does with the session of
/// `MavenRepositorySystemUtils.newSession()`. Blocking: call it from a thread that may wait
/// (the repository-backed source runs its fetches on its own runtime).
pub fn collect(source: &dyn DescriptorSource, request: &CollectRequest) -> CollectResult {
    source.begin_collection();
    let result = collect_once(source, request);
    if !source.needs_ordered_replay() {
        source.end_collection();
        return result;
    }
    // Fetching ahead met a local repository whose content depends on Maven's order (one
    // repository id standing for repositories with different policies or URLs): do it again,
    // one descriptor at a time, as Maven does.
    tracing::debug!("collecting {} again in Maven's order", request.root);
    source.start_ordered_replay();
    let result = collect_once(source, request);
    source.end_ordered_replay();
    source.end_collection();
    result
}

fn collect_once(source: &dyn DescriptorSource, request: &CollectRequest) -> CollectResult {
    let mut collector = collector::Collector::new(source, request);
    collector.run(request);
    let mut errors = std::mem::take(&mut collector.errors);
    let problems = std::mem::take(&mut collector.problems);
    let mut graph = collector.graph;
    tracing::debug!(
        nodes = graph.nodes.len(),
        lists = graph.lists.len(),
        "collected {}",
        request.root
    );
    if let Err(e) = conflict::resolve_conflicts(&mut graph) {
        errors.push(e);
    }
    CollectResult {
        graph,
        problems,
        errors,
    }
}
