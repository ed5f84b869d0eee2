//! Versions, ranges and constraints as Maven Resolver 1.6.3's `GenericVersionScheme` defines
//! them — the order Maven uses to pick the highest version of a range, to compare conflicting
//! versions and to sort `maven-metadata.xml` listings.
//!
//! - [`Version`]: parsing and ordering (`generic`).
//! - [`VersionRange`], [`UnionRange`], [`VersionConstraint`]: `[1.0,2.0)`, `(,1.0],[1.2,)`,
//!   `[1.5]`, `[1.2.*]`, containment (`range`).
//! - [`java_sort`]: Java's TimSort, because Resolver's order is not transitive on some inputs
//!   and Maven's results then depend on the exact comparisons Java makes.
//! - [`view`]: the `m2r versions` document and its human form.
//!
//! This module does not read metadata or choose among repositories; the collector does.

pub mod generic;
pub mod java_sort;
pub mod range;
pub mod view;

pub use generic::Version;
pub use java_sort::ContractViolation;
pub use range::{Bound, InvalidVersionSpec, UnionRange, VersionConstraint, VersionRange};
