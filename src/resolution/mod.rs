//! Resolution: what Maven Resolver does after the repositories are known — artifacts and their
//! types ([`Artifact`], [`Dependency`], [`ArtifactType`]), and, built on them, versions and ranges ([`version`]), POM models and
//! artifact descriptors, and the transitive dependency graph ([`collect`]); the projects of a
//! multi-module build and what the reactor answers for them ([`workspace`]).
//!
//! This module does not read settings or talk to the network itself: POMs and metadata come
//! through [`crate::download`], repositories through [`crate::repository`].

pub(crate) mod artifact;
pub mod collect;
pub mod pom;
pub mod version;
pub mod workspace;

pub use artifact::{
    Artifact, ArtifactDescriptor, ArtifactType, CoordinateError, Dependency, Exclusion, ScopeSource,
};
