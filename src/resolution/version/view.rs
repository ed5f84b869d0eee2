//! `m2r versions`: versions sorted by Resolver's order, grouped into classes of equal versions
//! (the document of `../shared/spec/deps-contract.md`), and its human form.

use super::generic::Version;
use super::java_sort::{self, ContractViolation};
use serde_json::{json, Value};
use std::cmp::Ordering;
use std::fmt::Write as _;

/// Versions in Maven's order, with the runs of equal neighbours grouped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SortedVersions {
    /// Classes of versions that compare equal to their neighbour, ascending; inside a class
    /// the input order is kept. Each version comes with its position in the input.
    pub classes: Vec<Vec<(usize, Version)>>,
}

/// Sorts as the oracle does: `Collections.sort` on the parsed versions, then a new class
/// wherever a version differs from the one before it.
///
/// ```
/// use m2resolver::resolution::version::view::sort_versions;
/// let sorted = sort_versions(&["1.0", "1.0-alpha", "1.0.0", "1.0.1"]).unwrap();
/// assert_eq!(sorted.to_json()["equalClasses"][1], serde_json::json!(["1.0", "1.0.0"]));
/// ```
pub fn sort_versions<S: AsRef<str>>(inputs: &[S]) -> Result<SortedVersions, ContractViolation> {
    let versions: Vec<Version> = inputs.iter().map(|s| Version::parse(s.as_ref())).collect();
    // Sort positions (free to move) rather than the versions themselves.
    let mut order: Vec<usize> = (0..versions.len()).collect();
    java_sort::sort(&mut order, |&a, &b| versions[a].cmp(&versions[b]))?;
    let mut classes: Vec<Vec<(usize, Version)>> = Vec::new();
    for entry in order.into_iter().map(|i| (i, versions[i].clone())) {
        match classes.last_mut() {
            Some(class)
                if class
                    .last()
                    .is_some_and(|p| p.1.cmp(&entry.1) == Ordering::Equal) =>
            {
                class.push(entry)
            }
            _ => classes.push(vec![entry]),
        }
    }
    Ok(SortedVersions { classes })
}

impl SortedVersions {
    /// `{"sorted": [...], "equalClasses": [[...], ...]}`.
    pub fn to_json(&self) -> Value {
        let sorted: Vec<&str> = self
            .classes
            .iter()
            .flatten()
            .map(|e| e.1.as_str())
            .collect();
        let classes: Vec<Vec<&str>> = self
            .classes
            .iter()
            .map(|c| c.iter().map(|e| e.1.as_str()).collect())
            .collect();
        json!({ "sorted": sorted, "equalClasses": classes })
    }

    /// One line per class, ascending, equal versions joined by `=`, with the items Resolver
    /// compares (qualifiers by name) so a surprising order explains itself.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for class in &self.classes {
            let names: Vec<&str> = class.iter().map(|e| e.1.as_str()).collect();
            let _ = writeln!(
                out,
                "{}    [{}]",
                names.join(" = "),
                class[0].1.describe_items()
            );
        }
        out
    }
}
