//! POM models: reading `pom.xml` as Maven does, building effective models as Maven 3.8.7's
//! `DefaultModelBuilder` does (super POM, parents, inheritance, profiles, interpolation,
//! dependency management and BOM imports, validation), and reading artifact descriptors as
//! Maven Resolver's `DefaultArtifactDescriptorReader` does (relocations, missing and invalid
//! POMs).
//!
//! Layers, each in its own crate-internal module: `xml` (text → element tree, strict and
//! lenient), `model` (the typed model), `merge` (inheritance, profile injection, management),
//! `interpolate`, `profiles` (activation), `validate`, `superpom`, `source` (where POMs come
//! from: the downloader and the repositories in force), `builder` (the model builder),
//! `descriptor` (the descriptor reader a session's engine keeps: the collector and
//! `m2r describe` read through it) and [`view`] (the JSON and human renderings). A build tool
//! reaches them through [`crate::Session::describe`] and [`crate::Session::collect`]; the
//! answers are [`Description`] and [`DescriptorError`].
//!
//! Not here: version ordering and ranges (`resolution::version`), the dependency graph
//! (`resolution::collect`), settings and repositories (their own modules).

pub(crate) mod builder;
pub(crate) mod cache_key;
pub(crate) mod descriptor;
pub(crate) mod interpolate;
pub(crate) mod java_order;
pub(crate) mod merge;
pub(crate) mod model;
pub(crate) mod problem;
pub(crate) mod profiles;
pub(crate) mod source;
pub(crate) mod superpom;
pub(crate) mod validate;
pub mod view;
pub(crate) mod xml;

#[cfg(test)]
mod proptests;

pub(crate) use descriptor::DescriptorReader;
pub use descriptor::{Description, DescriptorError, ModelBuildError, PomProblemKind};
pub use problem::ModelProblem;
pub(crate) use source::repositories_key;

/// Reads a POM into its model and drops it: the parsing benchmark's entry (`benches/pom.rs`);
/// not API. `false` when the text is not a POM.
#[doc(hidden)]
pub fn bench_read_model(bytes: &[u8], label: &str) -> bool {
    xml::read_pom(bytes)
        .map(|text| drop(model::from_xnode(text.root, label)))
        .is_ok()
}
