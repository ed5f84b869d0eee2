//! What `m2r tree --json` prints for a reactor: `{"modules": [...]}`, one document of
//! `../shared/spec/deps-contract.md` per project in reactor order, each with `"module"`
//! (`groupId:artifactId:version`) and `"path"` (its POM relative to the aggregator's folder)
//! in front of the contract's fields; and the document of a reactor that cannot be read,
//! `{"modules": null, "error": [...]}`.
//!
//! The per-project fields are [`crate::resolution::collect::view::tree_json`]'s.

use super::{Module, Workspace};
use crate::resolution::collect::{view, CollectResult};
use serde_json::{json, Value};

/// The document of a reactor: each module with its collection (`None` when there is none).
pub fn tree_json<'a>(
    workspace: &Workspace,
    modules: impl IntoIterator<Item = (&'a Module, &'a CollectResult)>,
) -> Value {
    let docs: Vec<Value> = modules
        .into_iter()
        .map(|(m, result)| {
            let mut doc = serde_json::Map::new();
            doc.insert("module".into(), json!(m.id()));
            doc.insert("path".into(), json!(workspace.relative_path(m)));
            if let Value::Object(rest) = view::tree_json(result) {
                doc.extend(rest);
            }
            Value::Object(doc)
        })
        .collect();
    json!({ "modules": docs })
}

/// The document when the reactor cannot be read: no modules, the errors.
pub fn failed_json(errors: &[String]) -> Value {
    json!({"modules": null, "error": errors})
}
