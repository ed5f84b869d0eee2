//! Resolution: what Maven Resolver does after the repositories are known — artifacts and their
//! types ([`Artifact`], [`Dependency`], [`ArtifactType`]), and, built on them, versions and ranges ([`version`]), POM models and
//! artifact descriptors, and the transitive dependency graph ([`collect`]).
//!
//! This module does not read settings or talk to the network itself: POMs and metadata come
//! through [`crate::download`], repositories through [`crate::repository`].

pub(crate) mod artifact;
pub mod collect;
pub mod pom;
pub mod version;

pub use artifact::{
    Artifact, ArtifactDescriptor, ArtifactType, CoordinateError, Dependency, Exclusion,
};
