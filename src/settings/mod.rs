//! Settings: read, merge, interpolate, validate `settings.xml` and activate its profiles,
//! exactly as Maven 3.8.7 does (with the later rules of `maven-semantics.md` where they differ).
//!
//! This module owns the model and the pipeline up to the effective settings and the active
//! profiles. It does not decrypt passwords ([`crate::security`]) nor build repositories
//! ([`crate::repository`]).
//!
//! Order of the pipeline, one file per step: `xml` (reading, over the crate's XML tree) →
//! `validate` (each raw file) → `merge` → `interpolate`, driven by `builder`; then `profiles`.

pub(crate) mod builder;
pub(crate) mod interpolate;
pub(crate) mod merge;
pub(crate) mod model;
pub(crate) mod problem;
pub(crate) mod profiles;
pub(crate) mod validate;
pub(crate) mod xml;

#[cfg(test)]
mod proptests;

pub use builder::{build, SettingsRequest, SettingsResult, SettingsSource};
pub use model::*;
pub use problem::{SettingsProblem, Severity, Stage};
