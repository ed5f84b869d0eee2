//! What `m2r tree` and `m2r why` print: the document of `../shared/spec/deps-contract.md`
//! (`--json`), a tree like `mvn dependency:tree` (with `--verbose`, the dependencies left out
//! and why), and every path to an artifact with the reason its version won.

use super::collector::CollectResult;
use super::graph::{managed, DependencyGraph, NodeId, OmissionReason};
use crate::download::coords::base_version;
use crate::resolution::artifact::Artifact;
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
    doc.insert(
        "root".into(),
        json!(graph
            .node(root)
            .artifact()
            .map(root_label)
            .unwrap_or_default()),
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

fn annotations(graph: &DependencyGraph, id: NodeId) -> String {
    let node = graph.node(id);
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
    if m.bits & managed::EXCLUSIONS != 0 {
        notes.push("exclusions managed".into());
    }
    if let Some(c) = &node.constraint {
        if c.range().is_some() {
            notes.push(format!("from range {c}"));
        }
    }
    if !node.relocations.is_empty() {
        let r: Vec<String> = node.relocations.iter().map(ToString::to_string).collect();
        notes.push(format!("relocated from {}", r.join(", ")));
    }
    if node.is_optional() {
        notes.push("optional".into());
    }
    if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join("; "))
    }
}

fn omission_text(graph: &DependencyGraph, reason: &OmissionReason) -> String {
    match reason {
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

/// The human tree: `mvn dependency:tree` layout, with where versions and scopes came from;
/// `verbose` adds the dependencies left out and why. The tree only: the result's warnings and
/// errors are for the caller to report (on stderr, for the CLI).
pub fn render_tree(result: &CollectResult, verbose: bool) -> String {
    let graph = &result.graph;
    let root = graph.root();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        graph
            .node(root)
            .artifact()
            .map(ToString::to_string)
            .unwrap_or_default()
    );
    let mut path = vec![root];
    render_children(graph, root, "", verbose, &mut path, &mut out);
    out
}

fn render_children(
    graph: &DependencyGraph,
    id: NodeId,
    prefix: &str,
    verbose: bool,
    path: &mut Vec<NodeId>,
    out: &mut String,
) {
    enum Line {
        Node(NodeId),
        Omitted(String),
    }
    let mut lines: Vec<Line> = graph
        .children(id)
        .iter()
        .filter(|c| !path.contains(c))
        .map(|&c| Line::Node(c))
        .collect();
    if verbose {
        for o in graph.omissions.iter().filter(|o| o.parent == id) {
            lines.push(Line::Omitted(format!(
                "({}:{} - {})",
                o.dependency.artifact,
                o.dependency.scope,
                omission_text(graph, &o.reason)
            )));
        }
    }
    let n = lines.len();
    for (i, line) in lines.into_iter().enumerate() {
        let last = i + 1 == n;
        let branch = if last { "\\- " } else { "+- " };
        match line {
            Line::Node(c) => {
                let node = graph.node(c);
                let _ = writeln!(
                    out,
                    "{prefix}{branch}{}:{}{}",
                    node.artifact().map(ToString::to_string).unwrap_or_default(),
                    node.scope(),
                    annotations(graph, c)
                );
                let child_prefix = format!("{prefix}{}", if last { "   " } else { "|  " });
                path.push(c);
                render_children(graph, c, &child_prefix, verbose, path, out);
                path.pop();
            }
            Line::Omitted(text) => {
                let _ = writeln!(out, "{prefix}{branch}{text}");
            }
        }
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
                omission_text(graph, &o.reason)
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
