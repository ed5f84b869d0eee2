//! POM models: reading `pom.xml` as Maven does, building effective models as Maven 3.8.7's
//! `DefaultModelBuilder` does (super POM, parents, inheritance, profiles, interpolation,
//! dependency management and BOM imports, validation), and reading artifact descriptors as
//! Maven Resolver's `DefaultArtifactDescriptorReader` does (relocations, missing and invalid
//! POMs).
//!
//! Layers, each in its own module: [`xml`] (text → element tree, strict and lenient),
//! [`model`] (the typed model), [`merge`] (inheritance, profile injection, management),
//! [`interpolate`], [`profiles`] (activation), [`validate`], [`superpom`], [`source`] (where
//! POMs come from: the downloader and the repositories in force), [`builder`] (the model
//! builder), [`descriptor`] (the [`DescriptorReader`] the collector and `m2r describe` use) and
//! [`view`] (the JSON and human renderings).
//!
//! Not here: version ordering and ranges (`resolution::version`), the dependency graph
//! (`resolution::collect`), settings and repositories (their own modules).

pub mod builder;
pub mod descriptor;
pub mod interpolate;
pub(crate) mod java_order;
pub mod merge;
pub mod model;
pub mod problem;
pub mod profiles;
pub mod source;
pub mod superpom;
pub mod validate;
pub mod view;
pub mod xml;

pub use descriptor::{
    Description, DescriptorError, DescriptorReader, ModelBuildError, ProblemKind,
};
pub use problem::ModelProblem;
pub(crate) use source::repositories_key;
