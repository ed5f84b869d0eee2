//! What `m2r tree` and `m2r why` print: the document of `../shared/spec/deps-contract.md`
//! (`--json`), the tree `mvn dependency:tree` prints (plain, `-Dverbose`, and its `-Dscope`,
//! `-Dincludes`, `-Dexcludes` filters), and every path to an artifact with the reason its
//! version won.

use super::collector::CollectResult;
use super::graph::{managed, DependencyGraph, NodeId, OmissionReason};
use crate::download::coords::base_version;
use crate::resolution::artifact::Artifact;
use crate::resolution::version::{Version, VersionConstraint};
use serde_json::{json, Value};
use std::fmt::Write as _;

/// `groupId:artifactId:baseVersion` of the root.
pub fn root_label(root: &Artifact) -> String {
    format!(
        "{}:{}:{}",
        root.group_id,
        root.artifact_id,
        base_version(&root.version)
    )
}

/// The class path of the contract: pre-order, `artifact:scope`, every occurrence.
pub fn classpath(graph: &DependencyGraph) -> Vec<String> {
    graph
        .preorder()
        .into_iter()
        .map(|(n, _)| {
            let node = graph.node(n);
            format!(
                "{}:{}",
                node.artifact().map(ToString::to_string).unwrap_or_default(),
                node.scope()
            )
        })
        .collect()
}

fn node_json(graph: &DependencyGraph, id: NodeId, path: &mut Vec<NodeId>) -> Value {
    let node = graph.node(id);
    let mut m = serde_json::Map::new();
    m.insert(
        "artifact".into(),
        json!(node.artifact().map(ToString::to_string).unwrap_or_default()),
    );
    m.insert("scope".into(), json!(node.scope()));
    m.insert("optional".into(), json!(node.is_optional()));
    if !node.relocations.is_empty() {
        let r: Vec<String> = node.relocations.iter().map(ToString::to_string).collect();
        m.insert("relocations".into(), json!(r));
    }
    path.push(id);
    let mut children: Vec<Value> = Vec::new();
    for &c in graph.children(id) {
        if !path.contains(&c) {
            children.push(node_json(graph, c, path));
        }
    }
    path.pop();
    m.insert("children".into(), Value::Array(children));
    Value::Object(m)
}

/// The `m2r tree --json` document.
pub fn tree_json(result: &CollectResult) -> Value {
    let graph = &result.graph;
    let root = graph.root();
    let mut path = vec![root];
    let deps: Vec<Value> = graph
        .children(root)
        .iter()
        .map(|&c| node_json(graph, c, &mut path))
        .collect();
    let mut doc = serde_json::Map::new();
    // null for the unnamed root of several coordinates
    doc.insert(
        "root".into(),
        json!(graph.node(root).artifact().map(root_label)),
    );
    doc.insert("dependencies".into(), Value::Array(deps));
    doc.insert("classpath".into(), json!(classpath(graph)));
    doc.insert("problems".into(), problems_json(result));
    if !result.errors.is_empty() {
        let e: Vec<String> = result.errors.iter().map(ToString::to_string).collect();
        doc.insert("error".into(), json!(e));
    }
    Value::Object(doc)
}

/// The `problems` list: one entry per missing or invalid POM.
pub fn problems_json(result: &CollectResult) -> Value {
    Value::Array(
        result
            .problems
            .iter()
            .map(|p| json!({"kind": p.kind.as_str(), "artifact": p.artifact.to_string(), "message": p.message}))
            .collect(),
    )
}

/// The document when the project itself cannot be built: no graph.
pub fn failed_json(errors: &[String]) -> Value {
    json!({"root": null, "dependencies": null, "classpath": null, "problems": [], "error": errors})
}

/// The plugin whose `dependency:tree` the human tree reproduces (maven-dependency-plugin 3.5.0):
/// a build that prints it runs this plugin in every module
/// ([`Workspace::with_plugin`](crate::resolution::workspace::Workspace::with_plugin)).
pub fn tree_plugin() -> Artifact {
    Artifact::new(
        "org.apache.maven.plugins",
        "maven-dependency-plugin",
        "jar",
        "",
        "3.5.0",
    )
}

/// How `m2r tree` prints the human tree: `mvn dependency:tree`'s parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct TreeOptions {
    /// `-Dverbose`: the losers of conflicts too, where they were declared, and where versions
    /// and scopes came from.
    pub verbose: bool,
    /// `-Dscope=`: only the dependencies maven-core's `ScopeArtifactFilter` lets through for
    /// this class-path scope (`compile`, `runtime`, `test`, `compile+runtime`,
    /// `runtime+system`; any other scope lets through only the unusual ones), with what is below
    /// them.
    pub scope: Option<String>,
    /// `-Dincludes=`: comma-separated `[groupId]:[artifactId]:[type]:[version]` patterns; only
    /// the matching nodes and their ancestors are printed.
    pub includes: Option<String>,
    /// `-Dexcludes=`: the same patterns; the nodes that match none, and their ancestors, are
    /// printed.
    pub excludes: Option<String>,
    /// m2r's own, as `cargo tree --depth`: nothing deeper than this (the root is depth 0).
    pub depth: Option<usize>,
}

impl TreeOptions {
    /// The plain tree (`mvn dependency:tree`).
    pub fn plain() -> Self {
        TreeOptions::default()
    }

    /// The verbose tree (`mvn dependency:tree -Dverbose`).
    pub fn verbose() -> Self {
        TreeOptions {
            verbose: true,
            ..TreeOptions::default()
        }
    }
}

/// One node of the tree being printed.
struct Line {
    text: String,
    /// The Maven artifact's `getType()`, `getBaseVersion()` and scope, for the filters.
    group_id: String,
    artifact_id: String,
    type_id: String,
    base_version: String,
    children: Vec<usize>,
    parent: Option<usize>,
}

/// The Maven artifact's type: the `type` property, else the extension (maven-core's
/// `RepositoryUtils.toArtifact`).
fn maven_type(a: &Artifact) -> &str {
    a.type_id.as_deref().unwrap_or(&a.extension)
}

/// Maven's `DefaultArtifact.toString()`: `groupId:artifactId:type[:classifier]:baseVersion`
/// and `:scope` when it has one.
fn maven_artifact(a: &Artifact, scope: Option<&str>) -> String {
    let mut s = format!("{}:{}:{}", a.group_id, a.artifact_id, maven_type(a));
    if !a.classifier.is_empty() {
        let _ = write!(s, ":{}", a.classifier);
    }
    let _ = write!(s, ":{}", base_version(&a.version));
    if let Some(scope) = scope {
        let _ = write!(s, ":{scope}");
    }
    s
}

/// A node as maven-dependency-tree prints it: the artifact (`DefaultDependencyNode`), and in
/// verbose mode `VerboseDependencyNode`'s notes (`version managed from`, `scope managed from`,
/// `scope not updated to`; a loser in parentheses, `omitted for duplicate` or `omitted for
/// conflict with`).
fn node_text(graph: &DependencyGraph, id: NodeId, verbose: bool) -> String {
    let node = graph.node(id);
    let Some(artifact) = node.artifact() else {
        return String::new();
    };
    let text = maven_artifact(artifact, node.dependency.as_ref().map(|d| d.scope.as_str()));
    if !verbose {
        return text;
    }
    let mut notes: Vec<String> = Vec::new();
    let m = &node.management;
    if m.bits & managed::VERSION != 0 {
        if let Some(v) = &m.premanaged_version {
            notes.push(format!("version managed from {v}"));
        }
    }
    if m.bits & managed::SCOPE != 0 {
        if let Some(s) = &m.premanaged_scope {
            notes.push(format!("scope managed from {s}"));
        }
    }
    match graph.verbose_winner(id) {
        None => {
            if let Some(s) = graph.reduced_scope(id) {
                notes.push(format!("scope not updated to {s}"));
            }
            if notes.is_empty() {
                text
            } else {
                format!("{text} ({})", notes.join("; "))
            }
        }
        Some(winner) => {
            let won = graph
                .node(winner)
                .artifact()
                .map(|a| base_version(&a.version))
                .unwrap_or_default();
            if won == artifact.version {
                notes.push("omitted for duplicate".into());
            } else {
                notes.push(format!("omitted for conflict with {won}"));
            }
            format!("({text} - {})", notes.join("; "))
        }
    }
}

/// maven-core's `ScopeArtifactFilter`: which scopes a class-path scope lets through.
fn scope_filter(filter: &str, scope: Option<&str>) -> bool {
    let (compile, runtime, test, provided, system) = match filter {
        "compile" => (true, false, false, true, true),
        "runtime" => (true, true, false, false, false),
        "compile+runtime" => (true, true, false, true, true),
        "runtime+system" => (true, true, false, false, true),
        "test" => (true, true, true, true, true),
        _ => (false, false, false, false, false),
    };
    match scope {
        Some("compile") => compile,
        Some("runtime") => runtime,
        Some("test") => test,
        Some("provided") => provided,
        Some("system") => system,
        _ => true,
    }
}

/// Java's `String.split(regex)` for a one-character separator: trailing empty strings go.
fn java_split(s: &str, sep: char) -> Vec<&str> {
    if s.is_empty() {
        return vec![""];
    }
    let mut parts: Vec<&str> = s.split(sep).collect();
    while parts.last() == Some(&"") {
        parts.pop();
    }
    parts
}

/// maven-common-artifact-filters 3.3.2's `AbstractStrictPatternArtifactFilter` match of one
/// pattern segment.
fn segment_matches(token: &str, pattern: &str) -> bool {
    if pattern == "*" || pattern.is_empty() {
        true
    } else if pattern.len() > 1 && pattern.starts_with('*') && pattern.ends_with('*') {
        token.contains(&pattern[1..pattern.len() - 1])
    } else if let Some(suffix) = pattern.strip_prefix('*') {
        token.ends_with(suffix)
    } else if let Some(prefix) = pattern.strip_suffix('*') {
        token.starts_with(prefix)
    } else if pattern.starts_with('[') || pattern.starts_with('(') {
        match VersionConstraint::parse(pattern) {
            Ok(c @ VersionConstraint::Range(_)) => c.contains(&Version::parse(token)),
            _ => false,
        }
    } else {
        token == pattern
    }
}

/// Whether a node matches one `groupId:artifactId:type:version` pattern.
fn pattern_matches(line: &Line, pattern: &str) -> bool {
    let tokens = [
        line.group_id.as_str(),
        line.artifact_id.as_str(),
        line.type_id.as_str(),
        line.base_version.as_str(),
    ];
    let parts = java_split(pattern, ':');
    parts.len() <= tokens.len() && parts.iter().zip(tokens).all(|(p, t)| segment_matches(t, p))
}

/// `StrictPatternIncludesArtifactFilter` (`include`) / `StrictPatternExcludesArtifactFilter`.
fn patterns_accept(line: &Line, patterns: &str, include: bool) -> bool {
    let matched = java_split(patterns, ',')
        .iter()
        .any(|p| pattern_matches(line, p));
    matched == include
}

/// The tree maven-dependency-tree builds (`DefaultDependencyGraphBuilder`, or in verbose mode
/// `DefaultDependencyCollectorBuilder`), children left out when the scope filter rejects them.
fn build_lines(graph: &DependencyGraph, options: &TreeOptions) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::new();
    let mut path: Vec<NodeId> = Vec::new();
    add_line(graph, graph.root(), None, options, &mut path, &mut lines);
    lines
}

fn add_line(
    graph: &DependencyGraph,
    id: NodeId,
    parent: Option<usize>,
    options: &TreeOptions,
    path: &mut Vec<NodeId>,
    lines: &mut Vec<Line>,
) {
    let node = graph.node(id);
    let (group_id, artifact_id, type_id, version) = node
        .artifact()
        .map(|a| {
            (
                a.group_id.clone(),
                a.artifact_id.clone(),
                maven_type(a).to_string(),
                base_version(&a.version),
            )
        })
        .unwrap_or_default();
    lines.push(Line {
        text: node_text(graph, id, options.verbose),
        group_id,
        artifact_id,
        type_id,
        base_version: version,
        children: Vec::new(),
        parent,
    });
    let me = lines.len() - 1;
    path.push(id);
    let children = if options.verbose {
        graph.verbose_children(id)
    } else {
        graph.children(id)
    };
    for &c in children {
        if path.contains(&c) {
            continue;
        }
        let scope = graph.node(c).dependency.as_ref().map(|d| d.scope.as_str());
        if let Some(filter) = &options.scope {
            if !scope_filter(filter, scope) {
                continue;
            }
        }
        let index = lines.len();
        lines[me].children.push(index);
        add_line(graph, c, Some(me), options, path, lines);
    }
    path.pop();
}

/// The human tree of one project, exactly as `mvn dependency:tree` (maven-dependency-plugin
/// 3.5.0 with maven-dependency-tree 3.2.1, Maven 3.8.7) prints it without the `[INFO] `
/// prefix: the root `groupId:artifactId:packaging:version`, then one line per node,
/// `groupId:artifactId:type[:classifier]:version:scope`, drawn with `+- `, `\- `, `|  ` and
/// `   `; with [`TreeOptions::verbose`], `-Dverbose`'s tree. Each line ends in `\n`; a tree the
/// filters leave empty is the empty string. A graph without a root artifact (several
/// coordinates) prints each direct dependency as a tree of its own.
pub fn render_maven_tree(result: &CollectResult, options: &TreeOptions) -> String {
    let graph = &result.graph;
    let lines = build_lines(graph, options);
    // The pattern filters keep the matching nodes and their ancestors (`serializeDependencyTree`
    // with `AncestorOrSelfDependencyNodeFilter`).
    let mut keep = vec![true; lines.len()];
    if options.includes.is_some() || options.excludes.is_some() {
        keep = vec![false; lines.len()];
        for (i, line) in lines.iter().enumerate() {
            let accepted = options
                .includes
                .as_deref()
                .is_none_or(|p| patterns_accept(line, p, true))
                && options
                    .excludes
                    .as_deref()
                    .is_none_or(|p| patterns_accept(line, p, false));
            if accepted {
                let mut at = Some(i);
                while let Some(a) = at {
                    if keep[a] {
                        break;
                    }
                    keep[a] = true;
                    at = lines[a].parent;
                }
            }
        }
    }
    let anonymous = graph.node(graph.root()).artifact().is_none();
    let mut out = String::new();
    if !keep[0] {
        return out;
    }
    let max_depth = options.depth.map(|d| d + usize::from(anonymous));
    if !anonymous {
        let _ = writeln!(out, "{}", lines[0].text);
    }
    let mut prefix = String::new();
    print_children(
        &lines,
        &keep,
        0,
        1,
        max_depth,
        anonymous,
        &mut prefix,
        &mut out,
    );
    out
}

#[allow(clippy::too_many_arguments)]
fn print_children(
    lines: &[Line],
    keep: &[bool],
    at: usize,
    depth: usize,
    max_depth: Option<usize>,
    anonymous: bool,
    prefix: &mut String,
    out: &mut String,
) {
    if max_depth.is_some_and(|m| depth > m) {
        return;
    }
    let children: Vec<usize> = lines[at]
        .children
        .iter()
        .copied()
        .filter(|&c| keep[c])
        .collect();
    for (i, &c) in children.iter().enumerate() {
        let last = i + 1 == children.len();
        let top = anonymous && depth == 1;
        if top {
            let _ = writeln!(out, "{}", lines[c].text);
        } else {
            let branch = if last { "\\- " } else { "+- " };
            let _ = writeln!(out, "{prefix}{branch}{}", lines[c].text);
        }
        let len = prefix.len();
        if !top {
            prefix.push_str(if last { "   " } else { "|  " });
        }
        print_children(lines, keep, c, depth + 1, max_depth, anonymous, prefix, out);
        prefix.truncate(len);
    }
}

/// Why `omitted` (a dependency of version `version`) was left out.
fn omission_text(graph: &DependencyGraph, version: &str, reason: &OmissionReason) -> String {
    match reason {
        // the same version met again (the tree's verbose form says so too)
        OmissionReason::Conflict { winner }
            if graph
                .node(*winner)
                .version
                .as_ref()
                .is_some_and(|v| v.to_string() == version) =>
        {
            "omitted for duplicate".into()
        }
        OmissionReason::Scope(s) => format!("omitted: {s} scope is not transitive"),
        OmissionReason::Optional => "omitted: optional dependencies are not transitive".into(),
        OmissionReason::Excluded(e) => format!("omitted: excluded by {e}"),
        OmissionReason::Conflict { winner } => format!(
            "omitted for conflict with {}",
            graph
                .node(*winner)
                .version
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default()
        ),
        OmissionReason::Range(m) => format!("failed: {m}"),
    }
}

fn path_text(graph: &DependencyGraph, path: &[NodeId]) -> String {
    let mut parts: Vec<String> = vec![graph
        .node(graph.root())
        .artifact()
        .map(ToString::to_string)
        .unwrap_or_default()];
    for &n in path {
        let node = graph.node(n);
        parts.push(format!(
            "{} [{}]",
            node.artifact().map(ToString::to_string).unwrap_or_default(),
            node.scope()
        ));
    }
    parts.join(" → ")
}

/// `m2r why g:a`: every path from the root to the artifact, the occurrences left out, and why
/// the version in the graph won.
pub fn render_why(result: &CollectResult, group_id: &str, artifact_id: &str) -> String {
    let graph = &result.graph;
    let matches = |a: Option<&Artifact>| {
        a.is_some_and(|a| a.group_id == group_id && a.artifact_id == artifact_id)
    };
    let mut out = String::new();
    let paths = graph.paths_to(&|n| matches(graph.node(n).artifact()));
    if paths.is_empty() {
        let _ = writeln!(out, "{group_id}:{artifact_id} is not in the graph.");
    } else {
        let _ = writeln!(
            out,
            "{group_id}:{artifact_id} is in the graph through {} path(s):",
            paths.len()
        );
        for p in &paths {
            let _ = writeln!(out, "  {}", path_text(graph, p));
        }
    }
    let mut winners: Vec<NodeId> = Vec::new();
    for p in &paths {
        if let Some(&n) = p.last() {
            if !winners.contains(&n) {
                winners.push(n);
            }
        }
    }
    let omitted: Vec<_> = graph
        .omissions
        .iter()
        .filter(|o| {
            o.dependency.artifact.group_id == group_id
                && o.dependency.artifact.artifact_id == artifact_id
        })
        .collect();
    if !omitted.is_empty() {
        let _ = writeln!(out, "Left out:");
        for o in &omitted {
            let to_parent = graph.paths_to(&|n| n == o.parent);
            let via = to_parent
                .first()
                .map(|p| path_text(graph, p))
                .unwrap_or_else(|| "(a part of the graph that was itself left out)".into());
            let _ = writeln!(
                out,
                "  {via} → {} [{}]: {}",
                o.dependency.artifact,
                o.dependency.scope,
                omission_text(graph, &o.dependency.artifact.version, &o.reason)
            );
        }
    }
    for &w in &winners {
        let node = graph.node(w);
        let depth = paths
            .iter()
            .filter(|p| p.last() == Some(&w))
            .map(Vec::len)
            .min()
            .unwrap_or(0);
        let version = node
            .version
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default();
        let mut reasons: Vec<String> = Vec::new();
        if node.management.bits & managed::VERSION != 0 {
            reasons.push(format!(
                "the project's dependencyManagement sets version {version} (declared {})",
                node.management.premanaged_version.as_deref().unwrap_or("?")
            ));
        }
        let losers: Vec<_> = omitted
            .iter()
            .filter(|o| matches!(o.reason, OmissionReason::Conflict { winner } if winner == w))
            .collect();
        if !losers.is_empty() {
            reasons.push(format!(
                "it is the nearest occurrence (depth {depth}); at equal depth the first declared wins, and among siblings of one range the highest version"
            ));
        } else if reasons.is_empty() {
            reasons.push(format!("it is the only occurrence (depth {depth})"));
        }
        if let Some(c) = node.constraint.as_ref().filter(|c| c.range().is_some()) {
            reasons.push(format!(
                "{version} is the highest version in {c} that every range on the paths accepts"
            ));
        }
        if node.management.bits & managed::SCOPE != 0 {
            reasons.push(format!(
                "scope {} comes from dependencyManagement (declared {})",
                node.scope(),
                node.management.premanaged_scope.as_deref().unwrap_or("?")
            ));
        } else {
            reasons.push(format!(
                "scope {}: a direct dependency keeps its scope; otherwise the widest scope derived along the paths",
                node.scope()
            ));
        }
        let _ = writeln!(
            out,
            "Why {}: {}.",
            node.artifact().map(ToString::to_string).unwrap_or_default(),
            reasons.join("; ")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::source::MemorySource;
    use super::super::{collect, CollectRequest};
    use super::*;
    use crate::resolution::artifact::{ArtifactDescriptor, Dependency};

    fn jar(coord: &str) -> Artifact {
        let p: Vec<&str> = coord.split(':').collect();
        Artifact::from_type(p[0], p[1], "jar", "", p[2])
    }

    fn dep(coord: &str, scope: &str) -> Dependency {
        Dependency::new(jar(coord), scope)
    }

    /// app → a (→ c:1, d runtime → e), b test (→ c:2, d); c:2 loses to c:1.
    fn result(root: Option<Artifact>) -> CollectResult {
        let mut w = MemorySource::new();
        let mut add = |coord: &str, deps: Vec<Dependency>| {
            w.add(
                &jar(coord).to_string(),
                ArtifactDescriptor {
                    dependencies: deps,
                    ..Default::default()
                },
            )
        };
        add(
            "g:a:1",
            vec![dep("g:c:1", "compile"), dep("g:d:1", "runtime")],
        );
        add(
            "g:b:1",
            vec![dep("g:c:2", "compile"), dep("g:d:1", "compile")],
        );
        add("g:d:1", vec![dep("g:e:1", "compile")]);
        for c in ["g:c:1", "g:c:2", "g:e:1"] {
            add(c, vec![]);
        }
        let request = CollectRequest {
            root,
            dependencies: vec![dep("g:a:1", "compile"), dep("g:b:1", "test")],
            managed_dependencies: vec![],
            repositories: vec![],
        };
        collect(&w, &request)
    }

    fn project() -> Option<Artifact> {
        let mut a = Artifact::new("g", "app", "pom", "", "1.0");
        a.type_id = Some("jar".into());
        Some(a)
    }

    #[test]
    fn plain_and_verbose() {
        let r = result(project());
        assert_eq!(
            render_maven_tree(&r, &TreeOptions::plain()),
            "g:app:jar:1.0\n\
             +- g:a:jar:1:compile\n\
             |  +- g:c:jar:1:compile\n\
             |  \\- g:d:jar:1:runtime\n\
             |     \\- g:e:jar:1:runtime\n\
             \\- g:b:jar:1:test\n"
        );
        assert_eq!(
            render_maven_tree(&r, &TreeOptions::verbose()),
            "g:app:jar:1.0\n\
             +- g:a:jar:1:compile\n\
             |  +- g:c:jar:1:compile\n\
             |  \\- g:d:jar:1:runtime\n\
             |     \\- g:e:jar:1:runtime\n\
             \\- g:b:jar:1:test\n   \
                +- (g:c:jar:2:test - omitted for conflict with 1)\n   \
                \\- (g:d:jar:1:test - omitted for duplicate)\n"
        );
    }

    #[test]
    fn why_says_duplicate_for_the_same_version_and_conflict_for_another() {
        let r = result(project());
        let d = render_why(&r, "g", "d");
        assert!(
            d.contains("g:b:jar:1 [test] → g:d:jar:1 [compile]: omitted for duplicate"),
            "{d}"
        );
        let c = render_why(&r, "g", "c");
        assert!(
            c.contains("g:b:jar:1 [test] → g:c:jar:2 [compile]: omitted for conflict with 1"),
            "{c}"
        );
    }

    #[test]
    fn depth_cuts_below_the_level() {
        let r = result(project());
        let with = |depth| TreeOptions {
            depth: Some(depth),
            ..TreeOptions::plain()
        };
        assert_eq!(render_maven_tree(&r, &with(0)), "g:app:jar:1.0\n");
        assert_eq!(
            render_maven_tree(&r, &with(1)),
            "g:app:jar:1.0\n+- g:a:jar:1:compile\n\\- g:b:jar:1:test\n"
        );
    }

    #[test]
    fn several_roots_print_as_trees_of_their_own() {
        let r = result(None);
        assert_eq!(
            render_maven_tree(&r, &TreeOptions::plain()),
            "g:a:jar:1:compile\n\
             +- g:c:jar:1:compile\n\
             \\- g:d:jar:1:runtime\n   \
                \\- g:e:jar:1:runtime\n\
             g:b:jar:1:test\n"
        );
        let depth0 = TreeOptions {
            depth: Some(0),
            ..TreeOptions::plain()
        };
        assert_eq!(
            render_maven_tree(&r, &depth0),
            "g:a:jar:1:compile\ng:b:jar:1:test\n"
        );
    }

    #[test]
    fn filters_keep_ancestors_of_what_they_accept() {
        let r = result(project());
        let includes = TreeOptions {
            includes: Some(":e".into()),
            ..TreeOptions::plain()
        };
        assert_eq!(
            render_maven_tree(&r, &includes),
            "g:app:jar:1.0\n\\- g:a:jar:1:compile\n   \\- g:d:jar:1:runtime\n      \\- g:e:jar:1:runtime\n"
        );
        // nothing matches: nothing is printed, not even the root
        let none = TreeOptions {
            includes: Some("x".into()),
            ..TreeOptions::plain()
        };
        assert_eq!(render_maven_tree(&r, &none), "");
        // an excluded node stays when something below it stays
        let excludes = TreeOptions {
            excludes: Some("g:a,g:d".into()),
            ..TreeOptions::plain()
        };
        assert_eq!(
            render_maven_tree(&r, &excludes),
            "g:app:jar:1.0\n\
             +- g:a:jar:1:compile\n\
             |  +- g:c:jar:1:compile\n\
             |  \\- g:d:jar:1:runtime\n\
             |     \\- g:e:jar:1:runtime\n\
             \\- g:b:jar:1:test\n"
        );
        let scope = TreeOptions {
            scope: Some("runtime".into()),
            ..TreeOptions::plain()
        };
        assert_eq!(
            render_maven_tree(&r, &scope),
            "g:app:jar:1.0\n\\- g:a:jar:1:compile\n   +- g:c:jar:1:compile\n   \\- g:d:jar:1:runtime\n      \\- g:e:jar:1:runtime\n"
        );
    }

    #[test]
    fn pattern_segments() {
        let cases = [
            ("org.apache.maven", "*", true),
            ("org.apache.maven", "", true),
            ("org.apache.maven", "org.apache.*", true),
            ("org.apache.maven", "*.maven", true),
            ("org.apache.maven", "*apache*", true),
            ("org.apache.maven", "org.*.maven", false),
            ("1.5", "[1.0,2.0)", true),
            ("2.0", "[1.0,2.0)", false),
            ("1.5", "1.5", true),
        ];
        for (token, pattern, want) in cases {
            assert_eq!(segment_matches(token, pattern), want, "{token} {pattern}");
        }
        assert_eq!(java_split("g:a:", ':'), ["g", "a"]);
        assert_eq!(java_split(":::", ':'), Vec::<&str>::new());
        assert_eq!(java_split(":a", ':'), ["", "a"]);
        assert_eq!(java_split("", ':'), [""]);
    }

    #[test]
    fn scope_filter_is_maven_cores() {
        let rows = [
            ("compile", ["compile", "provided", "system"].as_slice()),
            ("runtime", &["compile", "runtime"]),
            (
                "test",
                &["compile", "runtime", "test", "provided", "system"],
            ),
            (
                "compile+runtime",
                &["compile", "runtime", "provided", "system"],
            ),
            ("runtime+system", &["compile", "runtime", "system"]),
            ("provided", &[]),
        ];
        for (filter, accepted) in rows {
            for scope in ["compile", "runtime", "test", "provided", "system"] {
                assert_eq!(
                    scope_filter(filter, Some(scope)),
                    accepted.contains(&scope),
                    "{filter} {scope}"
                );
            }
            assert!(scope_filter(filter, Some("import")));
        }
    }
}
