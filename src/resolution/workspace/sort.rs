//! The reactor order: Maven 3.8.7's `ProjectSorter` over plexus-utils 3.4.2's `DAG` and
//! `TopologicalSorter`, rule for rule.
//!
//! - One vertex per project, `groupId:artifactId:version`, in the order the projects were
//!   collected; a second project with the same id is an error ("Project 'g:a:v' is duplicated
//!   in the reactor").
//! - Edges, per project in that order: each dependency of the effective model, then the
//!   parent, then each build plugin and each of its dependencies, then each build extension.
//!   An edge goes to the project with that `groupId:artifactId` and exactly that version, or,
//!   when the version is empty or a range (`[`, `(`), to every version of it in the reactor
//!   (in the order they were collected). An edge to oneself is ignored.
//! - A dependency or parent edge that closes a cycle is an error naming the cycle as plexus
//!   names it ("Edge between 'Vertex{label='b'}' and 'Vertex{label='a'}' introduces to cycle in
//!   the graph a --> b --> a"); a plugin or extension edge that would close one is dropped. A
//!   parent edge first removes the parent's edge back to the child, if there is one.
//! - The order is the post-order of a depth-first walk: the vertices in collection order, each
//!   one's edges in the order they were added, a project after everything it points to. Ties
//!   (projects that do not depend on each other) keep the collection order.
//!
//! Pure functions over coordinates; [`super::discover`] feeds them from effective models, an
//! embedder from its own modules.

use std::collections::HashMap;
use std::fmt;

/// `groupId:artifactId:version` of something a project points to (version empty when not
/// given).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Coordinates {
    /// `groupId`.
    pub group_id: String,
    /// `artifactId`.
    pub artifact_id: String,
    /// `version`, a range, or empty.
    pub version: String,
}

impl Coordinates {
    /// Coordinates from their parts.
    pub fn new(
        group_id: impl Into<String>,
        artifact_id: impl Into<String>,
        version: impl Into<String>,
    ) -> Self {
        Coordinates {
            group_id: group_id.into(),
            artifact_id: artifact_id.into(),
            version: version.into(),
        }
    }
}

impl fmt::Display for Coordinates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.group_id, self.artifact_id, self.version)
    }
}

/// A build plugin of a project, with the dependencies it declares.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PluginUse {
    /// The plugin (version empty when neither the plugin nor plugin management gives one).
    pub plugin: Coordinates,
    /// `<plugin><dependencies>`.
    pub dependencies: Vec<Coordinates>,
}

/// What the sorter reads of one project.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SortInput {
    /// The project's own coordinates.
    pub project: Coordinates,
    /// Its dependencies (effective model: inherited, managed versions filled in), in order.
    pub dependencies: Vec<Coordinates>,
    /// Its `<parent>`.
    pub parent: Option<Coordinates>,
    /// Its build plugins.
    pub plugins: Vec<PluginUse>,
    /// Its build extensions.
    pub extensions: Vec<Coordinates>,
}

/// Why the projects cannot be ordered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SortError {
    /// Two projects have the same `groupId:artifactId:version` (`DuplicateProjectException`).
    #[error("Project '{id}' is duplicated in the reactor")]
    Duplicate {
        /// `groupId:artifactId:version`.
        id: String,
        /// Index of the first project with it.
        first: usize,
        /// Index of the second.
        second: usize,
    },
    /// A dependency or parent edge closes a cycle (`CycleDetectedException`, as
    /// `DefaultGraphBuilder` reports it).
    #[error("The projects in the reactor contain a cyclic reference: Edge between 'Vertex{{label='{from}'}}' and 'Vertex{{label='{to}'}}' introduces to cycle in the graph {}", cycle.join(" --> "))]
    Cycle {
        /// The project the edge leaves.
        from: String,
        /// The project it points to.
        to: String,
        /// The cycle, first vertex repeated at the end.
        cycle: Vec<String>,
    },
}

/// plexus-utils' `DAG`: vertices in insertion order, each with its children and parents in
/// the order edges were added.
#[derive(Debug, Default)]
struct Dag {
    labels: Vec<String>,
    children: Vec<Vec<usize>>,
    parents: Vec<Vec<usize>>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    NotVisited,
    Visiting,
    Visited,
}

impl Dag {
    fn add_vertex(&mut self, label: String) -> usize {
        self.labels.push(label);
        self.children.push(Vec::new());
        self.parents.push(Vec::new());
        self.labels.len() - 1
    }

    /// `List.remove(Object)`: the first occurrence.
    fn remove_first(list: &mut Vec<usize>, v: usize) {
        if let Some(i) = list.iter().position(|&x| x == v) {
            list.remove(i);
        }
    }

    fn remove_edge(&mut self, from: usize, to: usize) {
        Self::remove_first(&mut self.children[from], to);
        Self::remove_first(&mut self.parents[to], from);
    }

    /// `DAG.addEdge`: the edge is added, and removed again when it closes a cycle (the
    /// cycle is the error).
    fn add_edge(&mut self, from: usize, to: usize) -> Result<(), Vec<String>> {
        self.children[from].push(to);
        self.parents[to].push(from);
        if let Some(cycle) = self.introduces_cycle(to) {
            self.remove_edge(from, to);
            return Err(cycle);
        }
        Ok(())
    }

    /// `CycleDetector.introducesCycle(vertex)`.
    fn introduces_cycle(&self, vertex: usize) -> Option<Vec<String>> {
        let mut states = vec![State::NotVisited; self.labels.len()];
        // plexus keeps a LinkedList with addFirst; here the front is the end of the Vec.
        let mut stack: Vec<usize> = Vec::new();
        if !self.cycle_visit(vertex, &mut stack, &mut states) {
            return None;
        }
        // In plexus' order (front first): [b, a, c, d, b, ...]: the sublist up to the last
        // occurrence of the first label, reversed.
        let front_first: Vec<usize> = stack.iter().rev().copied().collect();
        let label = front_first[0];
        let pos = front_first.iter().rposition(|&v| v == label).unwrap_or(0);
        let mut cycle: Vec<String> = front_first[..=pos]
            .iter()
            .map(|&v| self.labels[v].clone())
            .collect();
        cycle.reverse();
        Some(cycle)
    }

    fn cycle_visit(&self, v: usize, stack: &mut Vec<usize>, states: &mut [State]) -> bool {
        stack.push(v);
        states[v] = State::Visiting;
        for &c in &self.children[v] {
            match states[c] {
                State::NotVisited => {
                    if self.cycle_visit(c, stack, states) {
                        return true;
                    }
                }
                State::Visiting => {
                    stack.push(c);
                    return true;
                }
                State::Visited => {}
            }
        }
        states[v] = State::Visited;
        stack.pop();
        false
    }

    /// `TopologicalSorter.sort(dag)`: post-order depth-first walk from each vertex in order.
    fn sort(&self) -> Vec<usize> {
        let mut states = vec![State::NotVisited; self.labels.len()];
        let mut out = Vec::with_capacity(self.labels.len());
        for v in 0..self.labels.len() {
            if states[v] == State::NotVisited {
                self.sort_visit(v, &mut states, &mut out);
            }
        }
        out
    }

    fn sort_visit(&self, v: usize, states: &mut [State], out: &mut Vec<usize>) {
        states[v] = State::Visiting;
        for &c in &self.children[v] {
            if states[c] == State::NotVisited {
                self.sort_visit(c, states, out);
            }
        }
        states[v] = State::Visited;
        out.push(v);
    }
}

/// `ProjectSorter.isSpecificVersion`.
fn is_specific(version: &str) -> bool {
    !(version.is_empty() || version.starts_with('[') || version.starts_with('('))
}

struct Sorter {
    dag: Dag,
    /// `groupId:artifactId` → (version, vertex), in collection order.
    by_key: HashMap<String, Vec<(String, usize)>>,
}

impl Sorter {
    /// `ProjectSorter.addEdge(projectMap, vertexMap, ...)`.
    fn add(
        &mut self,
        from: usize,
        to: &Coordinates,
        force: bool,
        safe: bool,
    ) -> Result<(), SortError> {
        let key = format!("{}:{}", to.group_id, to.artifact_id);
        let Some(vertices) = self.by_key.get(&key) else {
            return Ok(());
        };
        let targets: Vec<usize> = if is_specific(&to.version) {
            vertices
                .iter()
                .filter(|(v, _)| *v == to.version)
                .map(|&(_, t)| t)
                .collect()
        } else {
            vertices.iter().map(|&(_, t)| t).collect()
        };
        for t in targets {
            self.edge(from, t, force, safe)?;
        }
        Ok(())
    }

    /// `ProjectSorter.addEdge(fromVertex, toVertex, ...)`.
    fn edge(&mut self, from: usize, to: usize, force: bool, safe: bool) -> Result<(), SortError> {
        if from == to {
            return Ok(());
        }
        if force && self.dag.children[to].contains(&from) {
            self.dag.remove_edge(to, from);
        }
        match self.dag.add_edge(from, to) {
            Ok(()) => Ok(()),
            Err(_) if safe => Ok(()),
            Err(cycle) => Err(SortError::Cycle {
                from: self.dag.labels[from].clone(),
                to: self.dag.labels[to].clone(),
                cycle,
            }),
        }
    }
}

/// The reactor order of `projects` (given in the order they were collected): indices into
/// `projects`, each project after the projects it depends on.
///
/// ```
/// use m2resolver::resolution::workspace::sort::{reactor_order, Coordinates, SortInput};
/// let project = |a: &str, deps: &[&str]| SortInput {
///     project: Coordinates::new("g", a, "1"),
///     dependencies: deps.iter().map(|d| Coordinates::new("g", *d, "1")).collect(),
///     ..SortInput::default()
/// };
/// // `app` depends on `lib`: `lib` first, then `app`; `tool` keeps its place after them.
/// let order = reactor_order(&[project("app", &["lib"]), project("lib", &[]), project("tool", &[])]);
/// assert_eq!(order.unwrap(), [1, 0, 2]);
/// ```
pub fn reactor_order(projects: &[SortInput]) -> Result<Vec<usize>, SortError> {
    let mut sorter = Sorter {
        dag: Dag::default(),
        by_key: HashMap::new(),
    };
    let mut ids: HashMap<String, usize> = HashMap::new();
    for (i, p) in projects.iter().enumerate() {
        let id = p.project.to_string();
        if let Some(&first) = ids.get(&id) {
            return Err(SortError::Duplicate {
                id,
                first,
                second: i,
            });
        }
        ids.insert(id.clone(), i);
        let v = sorter.dag.add_vertex(id);
        sorter
            .by_key
            .entry(format!("{}:{}", p.project.group_id, p.project.artifact_id))
            .or_default()
            .push((p.project.version.clone(), v));
    }
    for (v, p) in projects.iter().enumerate() {
        for d in &p.dependencies {
            sorter.add(v, d, false, false)?;
        }
        if let Some(parent) = &p.parent {
            sorter.add(v, parent, true, false)?;
        }
        for plugin in &p.plugins {
            sorter.add(v, &plugin.plugin, false, true)?;
            for d in &plugin.dependencies {
                sorter.add(v, d, false, true)?;
            }
        }
        for e in &p.extensions {
            sorter.add(v, e, false, true)?;
        }
    }
    Ok(sorter.dag.sort())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(spec: &str) -> Coordinates {
        let mut parts = spec.split(':');
        let a = parts.next().unwrap_or_default();
        let v = parts.next().unwrap_or("1");
        Coordinates::new("g", a, v)
    }

    /// `name[:version] deps... | parent | plugins... | extensions...` (the plugin part:
    /// `plugin+dep+dep`).
    fn input(spec: &str) -> SortInput {
        let mut sections = spec.split('|').map(str::trim);
        let mut head = sections.next().unwrap_or_default().split_whitespace();
        let project = c(head.next().unwrap_or_default());
        let dependencies = head.map(c).collect();
        let parent = sections.next().filter(|s| !s.is_empty()).map(c);
        let plugins = sections
            .next()
            .map(|s| {
                s.split_whitespace()
                    .map(|p| {
                        let mut parts = p.split('+');
                        PluginUse {
                            plugin: c(parts.next().unwrap_or_default()),
                            dependencies: parts.map(c).collect(),
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        let extensions = sections
            .next()
            .map(|s| s.split_whitespace().map(c).collect())
            .unwrap_or_default();
        SortInput {
            project,
            dependencies,
            parent,
            plugins,
            extensions,
        }
    }

    fn order(specs: &[&str]) -> Result<Vec<String>, SortError> {
        let inputs: Vec<SortInput> = specs.iter().map(|s| input(s)).collect();
        reactor_order(&inputs).map(|o| {
            o.into_iter()
                .map(|i| inputs[i].project.artifact_id.clone())
                .collect()
        })
    }

    #[test]
    fn orders_as_maven_project_sorter() {
        let table: &[(&str, &[&str], &[&str])] = &[
            (
                "declaration order without edges",
                &["a", "b", "c"],
                &["a", "b", "c"],
            ),
            (
                "a dependency goes first",
                &["a b", "b", "c"],
                &["b", "a", "c"],
            ),
            (
                "post-order: children in the order edges were added",
                &["a c b", "b", "c"],
                &["c", "b", "a"],
            ),
            (
                "an aggregator that is not a parent stays after its modules",
                &["m1", "m2 m1", "agg"],
                &["m1", "m2", "agg"],
            ),
            (
                "a parent edge pulls the parent first",
                &["m1 | agg", "m2 m1 | agg", "agg"],
                &["agg", "m1", "m2"],
            ),
            (
                "dependency edges before the parent edge",
                &["m2 m1 | agg", "m1", "agg"],
                &["m1", "agg", "m2"],
            ),
            (
                "a dependency on another version is no edge",
                &["a b:2", "b"],
                &["a", "b"],
            ),
            (
                "an empty version points at every version",
                &["a b:", "b"],
                &["b", "a"],
            ),
            (
                "a range points at every version, whatever it contains",
                &["a b:[5,6)", "b"],
                &["b", "a"],
            ),
            ("an edge to oneself is ignored", &["a a", "b"], &["a", "b"]),
            (
                "a plugin that is a module goes first",
                &["a | | p", "p"],
                &["p", "a"],
            ),
            (
                "a plugin's dependency that is a module goes first",
                &["a | | x+lib", "lib"],
                &["lib", "a"],
            ),
            (
                "an extension that is a module goes first",
                &["a | | | ext", "ext"],
                &["ext", "a"],
            ),
            (
                "a plugin edge closing a cycle is dropped",
                &["a b", "b | | a"],
                &["b", "a"],
            ),
            (
                "a parent edge removes the parent's dependency on the child",
                &["parent child", "child | parent"],
                &["parent", "child"],
            ),
            (
                "nested: a module's module before the module that needs it",
                &["x1", "x", "y x1", "agg"],
                &["x1", "x", "y", "agg"],
            ),
        ];
        for (what, specs, want) in table {
            let got = order(specs).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(&got, want, "{what}");
        }
    }

    #[test]
    fn cycles_are_named_as_plexus_names_them() {
        let e = order(&["a b", "b a"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "The projects in the reactor contain a cyclic reference: Edge between \
             'Vertex{label='g:b:1'}' and 'Vertex{label='g:a:1'}' introduces to cycle in the \
             graph g:a:1 --> g:b:1 --> g:a:1"
        );
        // A longer cycle is named from the vertex the new edge points to.
        let Err(SortError::Cycle { from, to, cycle }) = order(&["a b", "b c", "c a"]) else {
            panic!("a cycle expected");
        };
        assert_eq!((from.as_str(), to.as_str()), ("g:c:1", "g:a:1"));
        assert_eq!(cycle, ["g:a:1", "g:b:1", "g:c:1", "g:a:1"]);
        // A parent edge that closes a cycle through another project fails too.
        assert!(matches!(
            order(&["p a", "a b", "b | p"]),
            Err(SortError::Cycle { .. })
        ));
    }

    #[test]
    fn duplicates_are_refused() {
        assert_eq!(
            order(&["a", "b", "a"]).unwrap_err(),
            SortError::Duplicate {
                id: "g:a:1".into(),
                first: 0,
                second: 2
            }
        );
        assert_eq!(
            order(&["a", "a:2"]).unwrap(),
            ["a", "a"],
            "two versions of one artifact are two projects"
        );
    }
}
