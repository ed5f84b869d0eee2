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
//!     root: Some(Artifact::new("g", "app", "pom", "", "1")),
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

use crate::resolution::artifact::{Dependency, ScopeSource};
use std::collections::HashMap;

/// Collects the graph of `request` and resolves its conflicts, as Maven's
/// `RepositorySystem.collectDependencies` does with the session of
/// `MavenRepositorySystemUtils.newSession()`. Blocking: call it from a thread that may wait
/// (the repository-backed source runs its fetches on its own runtime).
pub fn collect(source: &dyn DescriptorSource, request: &CollectRequest) -> CollectResult {
    collect_graph(source, request).finish()
}

/// A collected graph before conflict resolution, with the nodes whose dependency was interned
/// (Resolver's `DataPool.intern`), in the order the collector asked.
#[derive(Debug)]
pub(crate) struct Unresolved {
    result: CollectResult,
    interned: Vec<NodeId>,
}

impl Unresolved {
    /// Conflict resolution: the collection's answer.
    pub(crate) fn finish(mut self) -> CollectResult {
        if let Err(e) = conflict::resolve_conflicts(&mut self.result.graph) {
            self.result.errors.push(e);
        }
        self.result
    }
}

/// Resolver's `DataPool` of dependencies for a whole build: the pool lives in the session's
/// cache, so the collections of a reactor's modules, one after another, share it. An equal
/// dependency met again is the object met first, with its scope text, which decides what
/// the verbose tree's by-reference scope check sees ([`ScopeSource`]).
#[derive(Debug, Default)]
pub(crate) struct InternPool {
    dependencies: HashMap<Dependency, ScopeSource>,
}

impl InternPool {
    /// Interns the dependencies of `collected` (a collection made after the ones already
    /// interned, as Maven's reactor makes them in order).
    pub(crate) fn intern(&mut self, collected: &mut Unresolved) {
        for &id in &collected.interned {
            let Some(d) = collected.result.graph.nodes[id.0].dependency.as_mut() else {
                continue;
            };
            let source = self
                .dependencies
                .entry(d.clone())
                .or_insert_with(|| d.scope_source.clone());
            d.scope_source = source.clone();
        }
    }
}

/// The collections of one build, each module's then its conflicts, interned in the order
/// Maven makes them: the first module's dependencies, then the class path of the plugin the
/// build runs (`plugin`: resolved when its goal first runs, see
/// [`Workspace::with_plugin`](crate::resolution::workspace::Workspace::with_plugin)), then
/// every other module's in reactor order.
pub(crate) fn intern_build(
    modules: Vec<Unresolved>,
    mut plugin: Option<Unresolved>,
) -> Vec<CollectResult> {
    let mut pool = InternPool::default();
    let interned: Vec<Unresolved> = modules
        .into_iter()
        .enumerate()
        .map(|(i, mut g)| {
            pool.intern(&mut g);
            if let (0, Some(p)) = (i, plugin.as_mut()) {
                pool.intern(p);
            }
            g
        })
        .collect();
    finish_all(interned)
}

/// [`Unresolved::finish`] of every graph, in their order. Interning had to go in reactor
/// order; each module's conflicts are its own, so they are resolved on a few threads at once
/// (40 modules' conflict resolution is most of a warm reactor's CPU).
fn finish_all(graphs: Vec<Unresolved>) -> Vec<CollectResult> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    on_threads(graphs, threads, Unresolved::finish)
}

/// `f` of every item, in their order, on at most `threads` threads of this call, each taking
/// the next item as it becomes free (a panic in `f` reaches the caller).
pub(crate) fn on_threads<T: Send, R: Send>(
    items: Vec<T>,
    threads: usize,
    f: impl Fn(T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.min(items.len());
    if threads <= 1 {
        return items.into_iter().map(f).collect();
    }
    let slots: Vec<std::sync::Mutex<(Option<T>, Option<R>)>> = items
        .into_iter()
        .map(|item| std::sync::Mutex::new((Some(item), None)))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                while let Some(slot) =
                    slots.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                {
                    let item = slot.lock().unwrap_or_else(|e| e.into_inner()).0.take();
                    if let Some(item) = item {
                        let answer = f(item);
                        slot.lock().unwrap_or_else(|e| e.into_inner()).1 = Some(answer);
                    }
                }
            });
        }
    });
    slots
        .into_iter()
        .map(|slot| {
            // A panic in a thread ends the scope above with that panic, so every slot that
            // gets here holds its answer.
            let (_, done) = slot.into_inner().unwrap_or_else(|e| e.into_inner());
            done.expect("answered in the scope above")
        })
        .collect()
}

#[cfg(test)]
mod on_threads_tests {
    use super::on_threads;

    #[test]
    fn answers_keep_the_order_of_the_items_whatever_the_threads() {
        for threads in [0, 1, 2, 8, 100] {
            let items: Vec<u64> = (0..50).collect();
            let out = on_threads(items, threads, |i| {
                // later items finish first
                std::thread::sleep(std::time::Duration::from_micros(50 - i));
                i * 2
            });
            assert_eq!(out, (0..50).map(|i| i * 2).collect::<Vec<_>>(), "{threads}");
        }
        assert!(on_threads(Vec::<u8>::new(), 4, |i| i).is_empty());
    }
}

/// [`collect`] without conflict resolution (see [`Unresolved::finish`]).
pub(crate) fn collect_graph(source: &dyn DescriptorSource, request: &CollectRequest) -> Unresolved {
    source.begin_collection();
    let result = collect_once(source, request);
    if !source.needs_ordered_replay() {
        return result;
    }
    // Fetching ahead met a local repository whose content depends on Maven's order (one
    // repository id standing for repositories with different policies or URLs): do it again,
    // one descriptor at a time, as Maven does.
    tracing::debug!("collecting {} again in Maven's order", root_name(request));
    source.start_ordered_replay();
    let result = collect_once(source, request);
    source.end_ordered_replay();
    result
}

fn root_name(request: &CollectRequest) -> String {
    request
        .root
        .as_ref()
        .map_or_else(|| "the dependencies".into(), ToString::to_string)
}

fn collect_once(source: &dyn DescriptorSource, request: &CollectRequest) -> Unresolved {
    let mut collector = collector::Collector::new(source, request);
    collector.run(request);
    let errors = std::mem::take(&mut collector.errors);
    let problems = std::mem::take(&mut collector.problems);
    let interned = std::mem::take(&mut collector.interned_nodes);
    let graph = collector.graph;
    tracing::debug!(
        nodes = graph.nodes.len(),
        lists = graph.lists.len(),
        "collected {}",
        root_name(request)
    );
    Unresolved {
        result: CollectResult {
            graph,
            problems,
            errors,
        },
        interned,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolution::artifact::{Artifact, ArtifactDescriptor};

    fn jar(a: &str) -> Artifact {
        Artifact::new("g", a, "jar", "", "1")
    }

    /// `x` depending on `g:c:1` (compile), its scope written at `line` of x's POM.
    fn with_c(x: &str, line: u32) -> ArtifactDescriptor {
        let mut c = Dependency::new(jar("c"), "compile");
        c.scope_source = ScopeSource::written(&format!("g:{x}:1"), line, 5);
        ArtifactDescriptor {
            dependencies: vec![c],
            ..ArtifactDescriptor::default()
        }
    }

    fn request(a: &str) -> CollectRequest {
        CollectRequest {
            root: Some(jar("root")),
            dependencies: vec![Dependency::new(jar(a), "compile")],
            managed_dependencies: vec![],
            repositories: vec![],
        }
    }

    /// The scope object of `g:c` in a collected graph.
    fn c_source(g: &Unresolved) -> ScopeSource {
        let node = g
            .result
            .graph
            .nodes
            .iter()
            .find(|n| n.artifact().is_some_and(|a| a.artifact_id == "c"))
            .and_then(|n| n.dependency.clone());
        node.map(|d| d.scope_source).unwrap_or(ScopeSource::Literal)
    }

    /// The scope object `g:c` ends with in the second module of a build of `first` and then
    /// `second` (the direct dependency of each), with or without a plugin's class path.
    fn second_module_c(
        source: &MemorySource,
        first: &str,
        second: &str,
        plugin: bool,
    ) -> ScopeSource {
        let modules = vec![
            collect_graph(source, &request(first)),
            collect_graph(source, &request(second)),
        ];
        let plugin = plugin.then(|| collect_graph(source, &request("plugin")));
        let results = intern_build(modules, plugin);
        let node = results[1]
            .graph
            .nodes
            .iter()
            .find(|n| n.artifact().is_some_and(|a| a.artifact_id == "c"))
            .and_then(|n| n.dependency.clone());
        node.map(|d| d.scope_source).unwrap_or(ScopeSource::Literal)
    }

    #[test]
    fn a_build_interns_the_plugin_class_path_after_its_first_module() {
        let mut source = MemorySource::new();
        source.add("g:a:jar:1", with_c("a", 10));
        source.add("g:b:jar:1", with_c("b", 20));
        source.add("g:plugin:jar:1", with_c("plugin", 30));
        source.add("g:c:jar:1", ArtifactDescriptor::default());
        source.add("g:none:jar:1", ArtifactDescriptor::default());
        let a = ScopeSource::written("g:a:1", 10, 5);
        let b = ScopeSource::written("g:b:1", 20, 5);
        let plugin = ScopeSource::written("g:plugin:1", 30, 5);
        // (first module's dependency, plugin runs, the object the second module's c is)
        let table = [
            ("none", false, &b),
            ("none", true, &plugin),
            ("a", false, &a),
            // The first module's dependencies are interned before the plugin's.
            ("a", true, &a),
        ];
        for (first, with_plugin, expected) in table {
            let got = second_module_c(&source, first, "b", with_plugin);
            assert!(
                got.same_object(expected),
                "first {first}, plugin {with_plugin}: {got:?}"
            );
        }
    }

    #[test]
    fn a_build_interns_equal_dependencies_across_its_collections_in_order() {
        let mut source = MemorySource::new();
        source.add("g:a:jar:1", with_c("a", 10));
        source.add("g:b:jar:1", with_c("b", 20));
        source.add("g:c:jar:1", ArtifactDescriptor::default());
        let mut first = collect_graph(&source, &request("a"));
        let mut second = collect_graph(&source, &request("b"));
        // Each collection alone keeps its own text.
        assert!(c_source(&second).same_object(&ScopeSource::written("g:b:1", 20, 5)));
        let mut pool = InternPool::default();
        pool.intern(&mut first);
        pool.intern(&mut second);
        // In one build the later collection's equal dependency is the earlier one's object.
        let a_text = ScopeSource::written("g:a:1", 10, 5);
        assert!(c_source(&first).same_object(&a_text));
        assert!(c_source(&second).same_object(&a_text));
        // A dependency that is not equal (another scope) keeps its own.
        let mut c = Dependency::new(jar("c"), "runtime");
        c.scope_source = ScopeSource::written("g:d:1", 30, 5);
        source.add(
            "g:d:jar:1",
            ArtifactDescriptor {
                dependencies: vec![c],
                ..ArtifactDescriptor::default()
            },
        );
        let mut third = collect_graph(&source, &request("d"));
        pool.intern(&mut third);
        assert!(c_source(&third).same_object(&ScopeSource::written("g:d:1", 30, 5)));
        assert_eq!(third.finish().errors.len(), 0);
    }
}
