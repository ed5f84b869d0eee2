//! Class paths from a resolved graph, in Maven's order (pre-order of the graph), per scope as
//! Maven's project class paths take them: `compile` = compile, provided and system
//! dependencies; `runtime` = compile and runtime; `test` = every scope.

use super::graph::{DependencyGraph, NodeId};
use std::fmt;
use std::str::FromStr;

/// A class path scope (`m2r resolve --scope`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClasspathScope {
    /// Compiling the main code.
    Compile,
    /// Running the main code.
    Runtime,
    /// Compiling and running the tests.
    Test,
}

impl ClasspathScope {
    /// Whether a dependency of `scope` belongs on this class path.
    pub fn includes(self, scope: &str) -> bool {
        match self {
            ClasspathScope::Compile => matches!(scope, "compile" | "provided" | "system" | ""),
            ClasspathScope::Runtime => matches!(scope, "compile" | "runtime" | ""),
            ClasspathScope::Test => matches!(
                scope,
                "compile" | "provided" | "system" | "runtime" | "test" | ""
            ),
        }
    }
}

impl FromStr for ClasspathScope {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "compile" => Ok(ClasspathScope::Compile),
            "runtime" => Ok(ClasspathScope::Runtime),
            "test" => Ok(ClasspathScope::Test),
            other => Err(format!(
                "unknown scope `{other}` (compile, runtime or test)"
            )),
        }
    }
}

impl fmt::Display for ClasspathScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ClasspathScope::Compile => "compile",
            ClasspathScope::Runtime => "runtime",
            ClasspathScope::Test => "test",
        })
    }
}

/// The nodes of the graph in resolution order, each once (the first occurrence of an
/// artifact; a sub-graph reached twice is listed once), filtered by `scope` (`None`: every
/// node, as Resolver's `resolveDependencies` without a filter).
pub fn nodes(graph: &DependencyGraph, scope: Option<ClasspathScope>) -> Vec<NodeId> {
    let mut seen = std::collections::HashSet::new();
    graph
        .preorder()
        .into_iter()
        .map(|(n, _)| n)
        .filter(|&n| {
            let node = graph.node(n);
            scope.is_none_or(|s| s.includes(node.scope()))
                && node.artifact().is_some_and(|a| {
                    // Its coordinates, borrowed: what `a.to_string()` spells, without the string.
                    seen.insert((
                        a.group_id.as_str(),
                        a.artifact_id.as_str(),
                        a.extension.as_str(),
                        a.classifier.as_str(),
                        a.version.as_str(),
                    ))
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_per_classpath() {
        let table = [
            ("compile", [true, true, true]),
            ("provided", [true, false, true]),
            ("system", [true, false, true]),
            ("runtime", [false, true, true]),
            ("test", [false, false, true]),
        ];
        for (scope, want) in table {
            let got = [
                ClasspathScope::Compile,
                ClasspathScope::Runtime,
                ClasspathScope::Test,
            ]
            .map(|c| c.includes(scope));
            assert_eq!(got, want, "{scope}");
        }
        assert!("bogus".parse::<ClasspathScope>().is_err());
    }
}
