//! Conflict resolution as Maven's session configures it: `ConflictMarker` (one conflict id per
//! `groupId:artifactId:extension:classifier`, joined through relocations), `ConflictIdSorter`
//! (ids in topological order of the graph, cycles broken nearest first), then
//! `ConflictResolver(NearestVersionSelector, JavaScopeSelector, SimpleOptionalitySelector,
//! JavaScopeDeriver)`: for each id in that order, the occurrences reachable through the
//! winners so far are gathered with their depth, derived scopes and optionality; the nearest
//! acceptable version wins (first declared at equal depth, the highest among siblings; ranges
//! must all accept it), the winner gets the widest derived scope (a direct dependency keeps
//! its own) and is optional only if every path says so, and the losers leave the graph.
//!
//! The walk order, including Java's `HashSet` iteration order where Resolver depends on it,
//! is reproduced, because with cycles and shared sub-graphs the order decides the result.

use super::collector::CollectError;
use super::graph::{
    managed, DependencyGraph, ListId, NodeId, Omission, OmissionReason, VerboseGraph,
};
use crate::resolution::artifact::ScopeSource;
use crate::resolution::version::{Version, VersionConstraint};
use std::collections::{HashMap, HashSet, VecDeque};

/// `groupId:artifactId:extension:classifier`.
type Key = (String, String, String, String);

fn key_of(a: &crate::resolution::artifact::Artifact) -> Key {
    (
        a.group_id.clone(),
        a.artifact_id.clone(),
        a.extension.clone(),
        a.classifier.clone(),
    )
}

/// The order in which Java iterates a `HashSet<Integer>` built by inserting `keys` in order
/// (no removals): by bucket (`key mod capacity`, the capacity grown by doubling from 16 at a
/// load factor of 0.75), then insertion order within a bucket.
pub(crate) fn java_int_set_order<T: Copy>(items: &[T], key: impl Fn(T) -> usize) -> Vec<T> {
    let mut cap = 16usize;
    while items.len() * 4 > cap * 3 {
        cap *= 2;
    }
    let mut out: Vec<(usize, usize, T)> = items
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let h = key(t) as u32;
            let spread = (h ^ (h >> 16)) as usize;
            (spread & (cap - 1), i, t)
        })
        .collect();
    out.sort_by_key(|&(bucket, i, _)| (bucket, i));
    out.into_iter().map(|(_, _, t)| t).collect()
}

/// `ConflictMarker`: conflict ids of every node reachable from the root.
fn mark(graph: &DependencyGraph) -> HashMap<NodeId, usize> {
    let mut visited: HashSet<NodeId> = HashSet::new();
    let mut order: Vec<NodeId> = Vec::new();
    let mut groups: HashMap<Key, usize> = HashMap::new();
    let mut group_keys: Vec<Vec<Key>> = Vec::new();
    let mut stack = vec![graph.root()];
    while let Some(node) = stack.pop() {
        if !visited.insert(node) {
            continue;
        }
        order.push(node);
        let n = graph.node(node);
        if let Some(dep) = &n.dependency {
            let mut keys: Vec<Key> = vec![key_of(&dep.artifact)];
            for r in &n.relocations {
                let k = key_of(r);
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
            let mut group: Option<usize> = None;
            let mut fix = false;
            for key in &keys {
                let g = groups.get(key).copied();
                if group == g {
                    continue;
                }
                match (group, g) {
                    (None, Some(gi)) => match merge(&group_keys[gi], &keys) {
                        Merged::First => {
                            group = Some(gi);
                            break;
                        }
                        Merged::Second => {
                            group_keys.push(keys.clone());
                            group = Some(group_keys.len() - 1);
                            fix = true;
                        }
                        Merged::New(k) => {
                            group_keys.push(k);
                            group = Some(group_keys.len() - 1);
                            fix = true;
                        }
                    },
                    (Some(_), None) => fix = true,
                    (Some(cur), Some(gi)) => match merge(&group_keys[gi], &group_keys[cur]) {
                        Merged::First => {
                            group = Some(gi);
                            fix = false;
                            break;
                        }
                        Merged::Second => continue,
                        Merged::New(k) => {
                            group_keys.push(k);
                            group = Some(group_keys.len() - 1);
                            fix = true;
                        }
                    },
                    (None, None) => {}
                }
            }
            let group = match group {
                Some(g) => g,
                None => {
                    group_keys.push(keys.clone());
                    fix = true;
                    group_keys.len() - 1
                }
            };
            if fix {
                for key in group_keys[group].clone() {
                    groups.insert(key, group);
                }
            }
        }
        for &child in graph.children(node).iter().rev() {
            stack.push(child);
        }
    }
    let mut ids = HashMap::new();
    for node in order {
        if let Some(dep) = &graph.node(node).dependency {
            if let Some(&g) = groups.get(&key_of(&dep.artifact)) {
                ids.insert(node, g);
            }
        }
    }
    ids
}

enum Merged {
    First,
    Second,
    New(Vec<Key>),
}

/// `ConflictMarker.merge`: one of the sets when it contains the other, else their union.
fn merge(keys1: &[Key], keys2: &[Key]) -> Merged {
    let contains_all = |a: &[Key], b: &[Key]| b.iter().all(|k| a.contains(k));
    if keys1.len() < keys2.len() {
        if contains_all(keys2, keys1) {
            return Merged::Second;
        }
    } else if contains_all(keys1, keys2) {
        return Merged::First;
    }
    let mut all = keys1.to_vec();
    for k in keys2 {
        if !all.contains(k) {
            all.push(k.clone());
        }
    }
    Merged::New(all)
}

struct IdEntry {
    key: usize,
    children: Vec<usize>,
    child_set: HashSet<usize>,
    in_degree: i64,
    min_depth: usize,
}

/// `ConflictIdSorter`: conflict ids in topological order, and the cycles among them.
fn sort_ids(
    graph: &DependencyGraph,
    ids: &HashMap<NodeId, usize>,
) -> (Vec<usize>, Vec<HashSet<usize>>) {
    let mut entries: Vec<IdEntry> = Vec::new();
    let mut index: HashMap<usize, usize> = HashMap::new();
    let mut visited: HashSet<NodeId> = HashSet::new();
    build_dag(
        graph,
        ids,
        graph.root(),
        None,
        0,
        &mut visited,
        &mut entries,
        &mut index,
    );
    let ordered_children: Vec<Vec<usize>> = entries
        .iter()
        .map(|e| java_int_set_order(&e.children, |c| entries[c].key))
        .collect();
    let mut sorted: Vec<usize> = Vec::with_capacity(entries.len());
    let mut roots: VecDeque<usize> = VecDeque::new();
    for (i, e) in entries.iter().enumerate() {
        if e.in_degree <= 0 {
            roots.push_back(i);
        }
    }
    let process =
        |roots: &mut VecDeque<usize>, sorted: &mut Vec<usize>, entries: &mut Vec<IdEntry>| {
            while let Some(r) = roots.pop_front() {
                sorted.push(entries[r].key);
                for &c in &ordered_children[r] {
                    entries[c].in_degree -= 1;
                    if entries[c].in_degree == 0 {
                        roots.push_back(c);
                    }
                }
            }
        };
    process(&mut roots, &mut sorted, &mut entries);
    let cyclic = sorted.len() < entries.len();
    while sorted.len() < entries.len() {
        let mut nearest: Option<usize> = None;
        for (i, e) in entries.iter().enumerate() {
            if e.in_degree <= 0 {
                continue;
            }
            if let Some(n) = nearest {
                let n = &entries[n];
                if e.min_depth > n.min_depth
                    || (e.min_depth == n.min_depth && e.in_degree >= n.in_degree)
                {
                    continue;
                }
            }
            nearest = Some(i);
        }
        let Some(n) = nearest else { break };
        entries[n].in_degree = 0;
        roots.push_back(n);
        process(&mut roots, &mut sorted, &mut entries);
    }
    let mut cycles: Vec<HashSet<usize>> = Vec::new();
    if cyclic {
        let mut stack: Vec<usize> = Vec::new();
        let mut on_stack: HashMap<usize, usize> = HashMap::new();
        let mut seen: HashSet<usize> = HashSet::new();
        for i in 0..entries.len() {
            find_cycles(
                i,
                &entries,
                &ordered_children,
                &mut stack,
                &mut on_stack,
                &mut seen,
                &mut cycles,
            );
        }
    }
    (sorted, cycles)
}

#[allow(clippy::too_many_arguments)]
fn build_dag(
    graph: &DependencyGraph,
    ids: &HashMap<NodeId, usize>,
    node: NodeId,
    id: Option<usize>,
    depth: usize,
    visited: &mut HashSet<NodeId>,
    entries: &mut Vec<IdEntry>,
    index: &mut HashMap<usize, usize>,
) {
    if !visited.insert(node) {
        return;
    }
    let depth = depth + 1;
    for &child in graph.children(node) {
        let Some(&key) = ids.get(&child) else {
            continue;
        };
        let child_id = match index.get(&key) {
            Some(&c) => {
                pullup(entries, c, depth);
                c
            }
            None => {
                entries.push(IdEntry {
                    key,
                    children: Vec::new(),
                    child_set: HashSet::new(),
                    in_degree: 0,
                    min_depth: depth,
                });
                index.insert(key, entries.len() - 1);
                entries.len() - 1
            }
        };
        if let Some(id) = id {
            if entries[id].child_set.insert(child_id) {
                entries[id].children.push(child_id);
                entries[child_id].in_degree += 1;
            }
        }
        build_dag(
            graph,
            ids,
            child,
            Some(child_id),
            depth,
            visited,
            entries,
            index,
        );
    }
}

fn pullup(entries: &mut [IdEntry], id: usize, depth: usize) {
    let mut work = vec![(id, depth)];
    while let Some((id, depth)) = work.pop() {
        if depth < entries[id].min_depth {
            entries[id].min_depth = depth;
            for &c in &entries[id].children {
                work.push((c, depth + 1));
            }
        }
    }
}

fn find_cycles(
    id: usize,
    entries: &[IdEntry],
    children: &[Vec<usize>],
    stack: &mut Vec<usize>,
    on_stack: &mut HashMap<usize, usize>,
    seen: &mut HashSet<usize>,
    cycles: &mut Vec<HashSet<usize>>,
) {
    let key = entries[id].key;
    if let Some(&depth) = on_stack.get(&key) {
        let cycle: HashSet<usize> = stack[depth..].iter().copied().collect();
        if !cycles.contains(&cycle) {
            cycles.push(cycle);
        }
        return;
    }
    on_stack.insert(key, stack.len());
    stack.push(key);
    if seen.insert(id) {
        for &c in &children[id] {
            find_cycles(c, entries, children, stack, on_stack, seen, cycles);
        }
    }
    stack.pop();
    on_stack.remove(&key);
}

/// A scope, interned: the five Java scopes and "" have fixed codes, others follow.
type Scope = u32;
const COMPILE: Scope = 0;
const RUNTIME: Scope = 1;
const PROVIDED: Scope = 2;
const TEST: Scope = 3;
const SYSTEM: Scope = 4;
const EMPTY: Scope = 5;
const FIXED_SCOPES: [&str; 6] = ["compile", "runtime", "provided", "test", "system", ""];

/// Which Java object a scope string is ([`ScopeSource`]): 0 for the constants, else one parsed
/// `<scope>` text.
type Ident = u32;
const LITERAL: Ident = 0;

/// A derived scope: its value and which object it is.
type Derived = (Option<Scope>, Ident);

/// A set of derived scopes (`NodeInfo.derivedScopes`), by value.
#[derive(Debug, Clone)]
struct Scopes(Vec<Option<Scope>>);

/// `ConflictItem.scopes`: by value (`HashSet.add` keeps the object first added), in insertion
/// order (Java's iteration order is [`java_string_set_order`]'s).
#[derive(Debug, Clone)]
struct ItemScopes(Vec<Derived>);

impl ItemScopes {
    fn add(&mut self, s: Derived) {
        if !self.0.iter().any(|x| x.0 == s.0) {
            self.0.push(s);
        }
    }
}

/// Java's `String.hashCode`.
fn java_string_hash(s: &str) -> u32 {
    s.encode_utf16()
        .fold(0u32, |h, c| h.wrapping_mul(31).wrapping_add(u32::from(c)))
}

/// The order in which Java iterates a `HashSet<String>` of fewer than 13 strings built by
/// inserting `names` in order: by bucket of a 16-slot table, then insertion order.
fn java_string_set_order(names: &[&str]) -> Vec<usize> {
    let mut order: Vec<(u32, usize)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let h = java_string_hash(n);
            ((h ^ (h >> 16)) & 15, i)
        })
        .collect();
    order.sort();
    order.into_iter().map(|(_, i)| i).collect()
}

/// `VerboseJavaScopeSelector.ScopeComparator`'s rank: lower is wider; scopes it does not list
/// rank -1, above all.
fn verbose_rank(scope: Option<Scope>) -> i32 {
    match scope {
        Some(COMPILE) => 0,
        Some(RUNTIME) => 1,
        Some(PROVIDED) => 2,
        Some(TEST) => 3,
        _ => -1,
    }
}

impl Scopes {
    fn add(&mut self, s: Option<Scope>) -> bool {
        if self.0.contains(&s) {
            false
        } else {
            self.0.push(s);
            true
        }
    }
}

struct NodeInfo {
    min_depth: usize,
    scopes: Scopes,
    optionalities: u8,
    children: Vec<usize>,
}

const OPT_FALSE: u8 = 1;
const OPT_TRUE: u8 = 2;
const CHANGE_SCOPE: u8 = 1;
const CHANGE_OPTIONAL: u8 = 2;

impl NodeInfo {
    fn update(&mut self, depth: usize, scope: Option<Scope>, optional: bool) -> u8 {
        self.min_depth = self.min_depth.min(depth);
        let mut changes = if self.scopes.add(scope) {
            CHANGE_SCOPE
        } else {
            0
        };
        let bit = if optional { OPT_TRUE } else { OPT_FALSE };
        if self.optionalities & bit == 0 {
            self.optionalities |= bit;
            changes |= CHANGE_OPTIONAL;
        }
        changes
    }
}

struct Item {
    parent: Option<ListId>,
    parent_node: Option<NodeId>,
    node: NodeId,
    depth: usize,
    scopes: ItemScopes,
    optionalities: u8,
}

struct State<'g> {
    graph: &'g mut DependencyGraph,
    /// Conflict id per node (`None` for the root and unreachable nodes).
    ids: Vec<Option<usize>>,
    /// `None`: the sentinel of the final walk (matches no node).
    current: Option<usize>,
    /// Per conflict id: `Some(winner)` once resolved (`Some(None)`: resolved without items).
    resolved: Vec<Option<Option<NodeId>>>,
    potential_ancestors: Vec<bool>,
    items: Vec<Item>,
    infos: Vec<NodeInfo>,
    /// Per child list: (walk generation, index into `infos`).
    info_of: Vec<(u32, usize)>,
    generation: u32,
    /// Per child list: on the current path.
    stack: Vec<bool>,
    parent_nodes: Vec<NodeId>,
    parent_scopes: Vec<Derived>,
    /// Per node: its dependency's scope (`None` for the root).
    scope_of: Vec<Option<Scope>>,
    /// Per node: which object its dependency's scope is.
    ident_of: Vec<Ident>,
    /// Scope codes to names.
    scope_names: Vec<String>,
    parent_optionals: Vec<bool>,
    parent_infos: Vec<Option<usize>>,
}

/// `JavaScopeDeriver`.
#[cfg(test)]
fn derive_java_scope(parent: Option<Scope>, child: Scope) -> Scope {
    derive_java_scope_object((parent, LITERAL), (child, LITERAL)).0
}

/// `JavaScopeDeriver`, with which object the answer is: the child's, the parent's, or one of
/// its constants.
fn derive_java_scope_object(parent: Derived, child: (Scope, Ident)) -> (Scope, Ident) {
    if child.0 == SYSTEM || child.0 == TEST {
        return child;
    }
    match parent {
        (None | Some(EMPTY) | Some(COMPILE), _) => child,
        (Some(p @ (TEST | RUNTIME)), i) => (p, i),
        (Some(SYSTEM | PROVIDED), _) => (PROVIDED, LITERAL),
        (Some(_), _) => (RUNTIME, LITERAL),
    }
}

/// Interns every node's scope.
fn intern_scopes(graph: &DependencyGraph) -> (Vec<Option<Scope>>, Vec<String>) {
    let mut names: Vec<String> = FIXED_SCOPES.iter().map(|s| s.to_string()).collect();
    let mut index: HashMap<String, Scope> = names
        .iter()
        .enumerate()
        .map(|(i, s)| (s.clone(), i as Scope))
        .collect();
    let codes = graph
        .nodes
        .iter()
        .map(|n| {
            n.dependency.as_ref().map(|d| {
                *index.entry(d.scope.clone()).or_insert_with(|| {
                    names.push(d.scope.clone());
                    (names.len() - 1) as Scope
                })
            })
        })
        .collect();
    (codes, names)
}

/// Numbers the scope objects of every node ([`ScopeSource`]; [`LITERAL`] for the constants).
fn intern_scope_objects(graph: &DependencyGraph) -> Vec<Ident> {
    let mut index: HashMap<&str, Ident> = HashMap::new();
    graph
        .nodes
        .iter()
        .map(|n| match n.dependency.as_ref().map(|d| &d.scope_source) {
            Some(ScopeSource::Written(w)) => {
                let next = index.len() as Ident + 1;
                *index.entry(w).or_insert(next)
            }
            _ => LITERAL,
        })
        .collect()
}

impl State<'_> {
    fn prepare(&mut self, id: Option<usize>, cyclic: Option<&HashSet<usize>>) {
        self.current = id;
        self.items.clear();
        self.infos.clear();
        self.generation += 1;
        if let Some(c) = cyclic {
            for &i in c {
                self.potential_ancestors[i] = true;
            }
        }
    }

    fn info(&self, list: ListId) -> Option<usize> {
        let (generation, i) = self.info_of[list.0];
        (generation == self.generation).then_some(i)
    }

    fn is_resolved(&self, id: Option<usize>) -> bool {
        id.is_some_and(|i| self.resolved[i].is_some())
    }

    fn finish(&mut self) {
        let mut previous: Option<ListId> = None;
        let mut previous_depth = 0;
        for i in (0..self.items.len()).rev() {
            let parent = self.items[i].parent;
            if parent.is_some() && parent == previous {
                self.items[i].depth = previous_depth;
            } else if let Some(p) = parent {
                previous = Some(p);
                previous_depth = self.info(p).map_or(0, |x| self.infos[x].min_depth) + 1;
                self.items[i].depth = previous_depth;
            }
        }
        if let Some(c) = self.current {
            self.potential_ancestors[c] = true;
        }
    }

    fn loser(&self, node: NodeId, id: Option<usize>) -> bool {
        match id.and_then(|i| self.resolved[i]) {
            Some(Some(w)) => w != node,
            _ => false,
        }
    }

    fn derive_scope(&self, node: NodeId, id: Option<usize>) -> Derived {
        let own = (self.scope_of[node.0], self.ident_of[node.0]);
        if self.graph.node(node).management.bits & managed::SCOPE != 0 || self.is_resolved(id) {
            return own;
        }
        let depth = self.parent_nodes.len();
        match own {
            (Some(s), i) if depth > 0 => {
                let (s, i) = derive_java_scope_object(self.parent_scopes[depth - 1], (s, i));
                (Some(s), i)
            }
            _ => own,
        }
    }

    fn derive_optional(&self, node: NodeId, id: Option<usize>) -> bool {
        let n = self.graph.node(node);
        let optional = n.is_optional();
        if optional || n.management.bits & managed::OPTIONAL != 0 || self.is_resolved(id) {
            return optional;
        }
        let depth = self.parent_nodes.len();
        depth > 0 && self.parent_optionals[depth - 1]
    }

    fn push(&mut self, node: NodeId, id: Option<usize>) -> bool {
        if let Some(i) = id {
            if !self.potential_ancestors[i] {
                return false;
            }
        }
        let list = self.graph.node(node).children;
        if self.stack[list.0] {
            return false;
        }
        self.stack[list.0] = true;
        let depth = self.parent_nodes.len();
        let scope = self.derive_scope(node, id);
        let optional = self.derive_optional(node, id);
        match self.info(list) {
            None => {
                self.infos.push(NodeInfo {
                    min_depth: depth,
                    scopes: Scopes(vec![scope.0]),
                    optionalities: if optional { OPT_TRUE } else { OPT_FALSE },
                    children: Vec::new(),
                });
                self.info_of[list.0] = (self.generation, self.infos.len() - 1);
                self.parent_infos.push(Some(self.infos.len() - 1));
                self.parent_nodes.push(node);
                self.parent_scopes.push(scope);
                self.parent_optionals.push(optional);
            }
            Some(info) => {
                let changes = self.infos[info].update(depth, scope.0, optional);
                if changes == 0 {
                    self.stack[list.0] = false;
                    return false;
                }
                self.parent_infos.push(None);
                self.parent_nodes.push(node);
                self.parent_scopes.push(scope);
                self.parent_optionals.push(optional);
                let children = self.infos[info].children.clone();
                if changes & CHANGE_SCOPE != 0 {
                    for &item in children.iter().rev() {
                        let s = self.derive_scope(self.items[item].node, None);
                        self.items[item].scopes.add(s);
                    }
                }
                if changes & CHANGE_OPTIONAL != 0 {
                    for &item in children.iter().rev() {
                        let o = self.derive_optional(self.items[item].node, None);
                        self.items[item].optionalities |= if o { OPT_TRUE } else { OPT_FALSE };
                    }
                }
            }
        }
        true
    }

    fn pop(&mut self) {
        self.parent_infos.pop();
        self.parent_scopes.pop();
        self.parent_optionals.pop();
        if let Some(node) = self.parent_nodes.pop() {
            let list = self.graph.node(node).children;
            self.stack[list.0] = false;
        }
    }

    fn add(&mut self, node: NodeId) {
        let scope = self.derive_scope(node, None);
        let optional = self.derive_optional(node, None);
        let item = |parent: Option<NodeId>, graph: &DependencyGraph| Item {
            parent: parent.map(|p| graph.node(p).children),
            parent_node: parent,
            node,
            depth: 0,
            scopes: ItemScopes(vec![scope]),
            optionalities: if optional { OPT_TRUE } else { OPT_FALSE },
        };
        match self.parent_nodes.last().copied() {
            None => {
                let it = item(None, self.graph);
                self.items.push(it);
            }
            Some(parent) => {
                if let Some(Some(info)) = self.parent_infos.last().copied() {
                    let it = item(Some(parent), self.graph);
                    self.items.push(it);
                    let idx = self.items.len() - 1;
                    self.infos[info].children.push(idx);
                }
            }
        }
    }

    /// `gatherConflictItems`; false tells the caller to remove `node` (a leftover loser).
    fn gather(&mut self, node: NodeId) -> bool {
        let id = self.ids[node.0];
        if self.current.is_some() && self.current == id {
            self.add(node);
        } else if self.loser(node, id) {
            return false;
        } else if self.push(node, id) {
            let list = self.graph.node(node).children;
            let mut i = 0;
            while i < self.graph.lists[list.0].len() {
                let child = self.graph.lists[list.0][i];
                if self.gather(child) {
                    i += 1;
                } else {
                    self.graph.lists[list.0].remove(i);
                    self.verbose_remove(list, child, None);
                    let winner = self.ids[child.0].and_then(|c| self.resolved[c]).flatten();
                    if let (Some(winner), Some(dependency)) =
                        (winner, self.graph.node(child).dependency.clone())
                    {
                        self.graph.omissions.push(Omission {
                            parent: node,
                            dependency,
                            node: Some(child),
                            reason: OmissionReason::Conflict { winner },
                        });
                    }
                }
            }
            self.pop();
        }
        true
    }

    fn version(&self, item: usize) -> &Version {
        self.graph
            .node(self.items[item].node)
            .version
            .as_ref()
            .expect("dependency nodes have a version")
    }

    fn nearer(&self, a: usize, b: usize) -> bool {
        if self.items[a].parent == self.items[b].parent {
            self.version(a).cmp(self.version(b)) == std::cmp::Ordering::Greater
        } else {
            self.items[a].depth < self.items[b].depth
        }
    }

    /// `NearestVersionSelector`.
    fn select_version(&self) -> Result<usize, CollectError> {
        let mut constraints: Vec<&VersionConstraint> = Vec::new();
        let mut candidates: Vec<usize> = Vec::new();
        let mut winner: Option<usize> = None;
        let acceptable = |constraints: &[&VersionConstraint], v: &Version| {
            constraints.iter().all(|c| c.contains(v))
        };
        for i in 0..self.items.len() {
            let node = self.graph.node(self.items[i].node);
            let mut backtrack = false;
            if let Some(c @ VersionConstraint::Range(_)) = &node.constraint {
                if !constraints.contains(&c) {
                    constraints.push(c);
                    if let Some(w) = winner {
                        if !c.contains(self.version(w)) {
                            backtrack = true;
                        }
                    }
                }
            }
            if acceptable(&constraints, self.version(i)) {
                candidates.push(i);
                if backtrack {
                    winner = None;
                } else if winner.is_none_or(|w| self.nearer(i, w)) {
                    winner = Some(i);
                }
            } else if backtrack {
                winner = None;
            }
            if backtrack {
                let mut kept = Vec::with_capacity(candidates.len());
                for &c in &candidates {
                    if !acceptable(&constraints, self.version(c)) {
                        continue;
                    }
                    if winner.is_none_or(|w| self.nearer(c, w)) {
                        winner = Some(c);
                    }
                    kept.push(c);
                }
                candidates = kept;
                if winner.is_none() {
                    return Err(self.unsolvable());
                }
            }
        }
        winner.ok_or_else(|| self.unsolvable())
    }

    fn unsolvable(&self) -> CollectError {
        let first = self.graph.node(self.items[0].node);
        let conflict = first
            .artifact()
            .map(|a| format!("{}:{}", a.group_id, a.artifact_id))
            .unwrap_or_default();
        let paths = self
            .items
            .iter()
            .map(|it| {
                let n = self.graph.node(it.node);
                let parent = it
                    .parent_node
                    .and_then(|p| self.graph.node(p).artifact().map(ToString::to_string))
                    .unwrap_or_default();
                format!(
                    "{} requires {}",
                    parent,
                    n.constraint
                        .as_ref()
                        .map(ToString::to_string)
                        .unwrap_or_default()
                )
            })
            .collect();
        CollectError::UnsolvableConflict { conflict, paths }
    }

    /// `JavaScopeSelector`, with which object the chosen scope is.
    fn select_scope(&self, winner: usize) -> Derived {
        let node = self.items[winner].node;
        let scope = self.scope_of[node.0];
        if scope == Some(SYSTEM) {
            return (scope, self.ident_of[node.0]);
        }
        let mut scopes: Vec<(Scope, Ident)> = Vec::new();
        for it in &self.items {
            if it.depth <= 1 {
                return (self.scope_of[it.node.0], self.ident_of[it.node.0]);
            }
            for &(s, i) in &it.scopes.0 {
                if let Some(s) = s {
                    if !scopes.iter().any(|x| x.0 == s) {
                        scopes.push((s, i));
                    }
                }
            }
        }
        if scopes.len() > 1 {
            scopes.retain(|&(s, _)| s != SYSTEM);
        }
        if let [(s, i)] = scopes[..] {
            return (Some(s), i);
        }
        let s = [COMPILE, RUNTIME, PROVIDED, TEST]
            .into_iter()
            .find(|s| scopes.iter().any(|x| x.0 == *s))
            .unwrap_or(EMPTY);
        (Some(s), LITERAL)
    }

    /// An item's scopes in the order Java iterates them (a single scope, or a `HashSet`).
    fn java_scopes(&self, item: usize) -> Vec<Derived> {
        let scopes = &self.items[item].scopes.0;
        if scopes.len() < 2 {
            return scopes.clone();
        }
        let names: Vec<&str> = scopes.iter().map(|s| self.scope_name(s.0)).collect();
        java_string_set_order(&names)
            .into_iter()
            .map(|i| scopes[i])
            .collect()
    }

    fn scope_name(&self, s: Option<Scope>) -> &str {
        s.map_or("", |s| self.scope_names[s as usize].as_str())
    }

    /// `VerboseJavaScopeSelector`: the widest scope among the items when it is not (the same
    /// object as) the chosen one — maven-dependency-tree prints it as `scope not updated to`.
    fn reduced_scope(&self, chosen: Derived) -> Option<String> {
        let mut seen: Vec<Derived> = Vec::new();
        for i in 0..self.items.len() {
            for s in self.java_scopes(i) {
                if !seen.iter().any(|x| x.0 == s.0) {
                    seen.push(s);
                }
            }
        }
        let mut widest = *seen.first()?;
        for &s in &seen[1..] {
            if verbose_rank(s.0) < verbose_rank(widest.0) {
                widest = s;
            }
        }
        (widest != chosen).then(|| self.scope_name(widest.0).to_string())
    }

    /// `SimpleOptionalitySelector`.
    fn select_optional(&self) -> bool {
        let mut optional = true;
        for it in &self.items {
            if it.depth <= 1 {
                return self.graph.node(it.node).is_optional();
            }
            if it.optionalities & OPT_FALSE != 0 {
                optional = false;
            }
        }
        optional
    }

    /// Removes `node` from `list` in the verbose graph too, or (`copy`) puts its loser copy
    /// in its place.
    fn verbose_remove(&mut self, list: ListId, node: NodeId, copy: Option<(NodeId, Derived)>) {
        let Some(verbose) = self.graph.verbose.as_mut() else {
            return;
        };
        let Some(pos) = verbose.lists[list.0].iter().position(|&n| n == node) else {
            return;
        };
        let Some((winner, scope)) = copy else {
            verbose.lists[list.0].remove(pos);
            return;
        };
        let mut loser = self.graph.node(node).clone();
        let name = scope.0.map(|s| self.scope_names[s as usize].clone());
        if let (Some(d), Some(name)) = (loser.dependency.as_mut(), name) {
            d.scope = name;
        }
        loser.children = ListId(usize::MAX);
        let id = self.graph.add_node(loser);
        let verbose = self.graph.verbose.get_or_insert_with(Default::default);
        verbose.lists.push(Vec::new());
        verbose.lists[list.0][pos] = id;
        verbose.winners.insert(id, winner);
    }

    fn remove_losers(&mut self, winner: usize) {
        let winner_node = self.items[winner].node;
        let winner_parent = self.items[winner].parent;
        let mut visualized = false;
        let mut previous: Option<Option<ListId>> = None;
        let mut pos = 0;
        for i in 0..self.items.len() {
            if i == winner {
                continue;
            }
            let parent = self.items[i].parent;
            if previous != Some(parent) {
                previous = Some(parent);
                pos = 0;
                visualized = false;
            }
            let Some(list) = parent else { continue };
            while pos < self.graph.lists[list.0].len() {
                let child = self.graph.lists[list.0][pos];
                pos += 1;
                if child == self.items[i].node {
                    pos -= 1;
                    self.graph.lists[list.0].remove(pos);
                    let copy = (!visualized && parent != winner_parent).then(|| {
                        visualized = true;
                        let first = self.java_scopes(i)[0];
                        (winner_node, first)
                    });
                    self.verbose_remove(list, child, copy);
                    if let (Some(parent_node), Some(dependency)) = (
                        self.items[i].parent_node,
                        self.graph.node(child).dependency.clone(),
                    ) {
                        self.graph.omissions.push(Omission {
                            parent: parent_node,
                            dependency,
                            node: Some(child),
                            reason: OmissionReason::Conflict {
                                winner: winner_node,
                            },
                        });
                    }
                    break;
                }
            }
        }
    }
}

/// Runs the conflict resolver on `graph`; an error stops it where Maven stops (the graph is
/// then only partly resolved, as Maven leaves it).
pub(crate) fn resolve_conflicts(graph: &mut DependencyGraph) -> Result<(), CollectError> {
    let ids = mark(graph);
    let (sorted, cycles) = sort_ids(graph, &ids);
    let mut cyclic: HashMap<usize, HashSet<usize>> = HashMap::new();
    for cycle in &cycles {
        for &id in cycle {
            cyclic.entry(id).or_default().extend(cycle.iter().copied());
        }
    }
    let root = graph.root();
    let id_count = ids.values().copied().max().map_or(0, |m| m + 1);
    let mut by_node: Vec<Option<usize>> = vec![None; graph.nodes.len()];
    for (n, id) in &ids {
        by_node[n.0] = Some(*id);
    }
    let lists = graph.lists.len();
    let (scope_of, scope_names) = intern_scopes(graph);
    let ident_of = intern_scope_objects(graph);
    graph.verbose = Some(VerboseGraph {
        lists: graph.lists.clone(),
        ..VerboseGraph::default()
    });
    let mut state = State {
        graph,
        ids: by_node,
        current: None,
        resolved: vec![None; id_count],
        potential_ancestors: vec![false; id_count],
        items: Vec::new(),
        infos: Vec::new(),
        info_of: vec![(0, 0); lists],
        generation: 0,
        stack: vec![false; lists],
        parent_nodes: Vec::new(),
        parent_scopes: Vec::new(),
        scope_of,
        ident_of,
        scope_names,
        parent_optionals: Vec::new(),
        parent_infos: Vec::new(),
    };
    for (i, &id) in sorted.iter().enumerate() {
        state.prepare(Some(id), cyclic.get(&id));
        state.gather(root);
        state.finish();
        let mut winner_node = None;
        if !state.items.is_empty() {
            let winner = state.select_version()?;
            let node = state.items[winner].node;
            let (scope, ident) = state.select_scope(winner);
            if let Some(reduced) = state.reduced_scope((scope, ident)) {
                if let Some(v) = state.graph.verbose.as_mut() {
                    v.reduced_scopes.insert(node, reduced);
                }
            }
            let optional = state.select_optional();
            state.scope_of[node.0] = scope;
            state.ident_of[node.0] = ident;
            let name = scope.map(|s| state.scope_names[s as usize].clone());
            if let Some(d) = &mut state.graph.node_mut(node).dependency {
                if let Some(name) = name {
                    d.scope = name;
                }
                d.optional = Some(optional);
            }
            state.remove_losers(winner);
            winner_node = Some(node);
        }
        state.resolved[id] = Some(winner_node);
        if i + 1 == sorted.len() && !cycles.is_empty() {
            if let Some(w) = winner_node {
                state.prepare(None, None);
                state.gather(w);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_hash_set_order() {
        // capacity 16: buckets 1, 3, 17 % 16 = 1 → [1, 17, 3] by bucket then insertion
        assert_eq!(java_int_set_order(&[3usize, 1, 17], |k| k), vec![1, 17, 3]);
        // 13 elements grow the table to 32
        let keys: Vec<usize> = (0..13).map(|i| i * 16).collect();
        let order = java_int_set_order(&keys, |k| k);
        assert_eq!(&order[..4], &[0, 32, 64, 96]);
    }

    #[test]
    fn java_string_hash_set_order() {
        // hashCode: compile 950491699, runtime 1550962648, provided -987494941, test 3556498,
        // system -887328209: buckets 4, 9, 7, 4 and 3 of 16
        assert_eq!(java_string_hash("compile"), 950_491_699);
        assert_eq!(java_string_hash("provided") as i32, -987_494_941);
        assert_eq!(java_string_set_order(&["test", "compile"]), [0, 1]);
        assert_eq!(java_string_set_order(&["runtime", "test"]), [1, 0]);
        assert_eq!(
            java_string_set_order(&["compile", "runtime", "provided", "test", "system"]),
            [4, 0, 3, 2, 1]
        );
    }

    #[test]
    fn scope_derivation() {
        let cases = [
            (None, "compile", "compile"),
            (Some("compile"), "runtime", "runtime"),
            (Some("runtime"), "compile", "runtime"),
            (Some("test"), "compile", "test"),
            (Some("provided"), "compile", "provided"),
            (Some("system"), "runtime", "provided"),
            (Some("compile"), "test", "test"),
            (Some("runtime"), "system", "system"),
            (Some("import"), "compile", "runtime"),
        ];
        let code = |s: &str| {
            FIXED_SCOPES
                .iter()
                .position(|x| *x == s)
                .map_or(6, |i| i as Scope)
        };
        for (parent, child, want) in cases {
            assert_eq!(
                derive_java_scope(parent.map(code), code(child)),
                code(want),
                "{parent:?} {child}"
            );
        }
    }
}
