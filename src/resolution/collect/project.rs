//! The collect request of a project, as Maven's dependency resolution starts it: from a POM
//! file (the effective model's dependencies and dependency management, root `g:a:pom:v`),
//! from an artifact in the repositories (its descriptor, root = the artifact after
//! relocations), from a build tool's own project model, or from bare coordinates (the
//! dependencies of an unnamed root: Resolver's `CollectRequest` without a root artifact). Repositories the root POM declares are not added to the request (Maven's
//! request holds the build's repositories; those of dependency POMs join as they are read).

use super::collector::{CollectRequest, PomProblem, PomProblemKind};
use super::fetch::RepositorySource;
use super::source::DescriptorOutcome;
use crate::repository::RemoteRepository;
use crate::resolution::artifact::{Artifact, ArtifactDescriptor, Dependency};
use std::path::PathBuf;

/// What to resolve the dependencies of.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Root {
    /// An artifact whose POM is in the repositories (`g:a[:ext[:cls]]:v`).
    Artifact(Artifact),
    /// A project file (`--pom FILE`), built with parent lookup on disk.
    Pom(PathBuf),
    /// These dependencies of an unnamed root (`m2r resolve COORD...`, `m2r tree A B`), as
    /// Resolver's `CollectRequest` without a root artifact (`cs fetch`, `cs resolve -t`): the
    /// graph's root has no artifact, and errors start their path at the dependency.
    Dependencies(Vec<Dependency>),
    /// A build tool's own project model: Resolver's `CollectRequest` with a root artifact.
    Project {
        /// The project (labels the graph's root).
        artifact: Artifact,
        /// Its dependencies, in order.
        dependencies: Vec<Dependency>,
        /// Its dependency management (applied to transitive dependencies).
        managed_dependencies: Vec<Dependency>,
    },
}

impl Root {
    /// These coordinates as compile dependencies of an unnamed root (`m2r resolve COORD...`).
    ///
    /// ```
    /// use m2resolver::{Artifact, Root};
    /// let root = Root::compile([Artifact::new("junit", "junit", "jar", "", "4.13.2")]);
    /// let Root::Dependencies(deps) = root else { unreachable!() };
    /// assert_eq!(deps[0].scope, "compile");
    /// ```
    pub fn compile(artifacts: impl IntoIterator<Item = Artifact>) -> Root {
        Root::Dependencies(
            artifacts
                .into_iter()
                .map(|a| Dependency::new(a, "compile"))
                .collect(),
        )
    }
}

/// The root itself could not be read: no graph.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}", errors.join("; "))]
pub struct RootFailure {
    /// What failed (one line each).
    pub errors: Vec<String>,
}

/// The collect request of a project whose descriptor is built (a `--pom` file, a module of a
/// reactor): its dependencies and dependency management from `repositories`, the root labelled
/// with the descriptor's artifact.
pub fn project_request(
    d: &ArtifactDescriptor,
    repositories: &[RemoteRepository],
) -> CollectRequest {
    let root = d
        .artifact
        .clone()
        .unwrap_or_else(|| Artifact::new("", "", "pom", "", ""));
    request(root, d, repositories)
}

fn request(
    root: Artifact,
    d: &ArtifactDescriptor,
    repositories: &[RemoteRepository],
) -> CollectRequest {
    CollectRequest {
        root: Some(root),
        dependencies: d.dependencies.clone(),
        managed_dependencies: d.managed_dependencies.clone(),
        repositories: repositories.to_vec(),
    }
}

/// A root whose POM is missing or invalid: the artifact alone, and the problem.
fn kept(
    a: &Artifact,
    partial: &ArtifactDescriptor,
    repositories: &[RemoteRepository],
    kind: PomProblemKind,
    artifact: Artifact,
    message: String,
) -> (CollectRequest, Vec<PomProblem>) {
    let root = partial.artifact.clone().unwrap_or_else(|| a.clone());
    (
        request(root, partial, repositories),
        vec![PomProblem {
            kind,
            artifact,
            message,
        }],
    )
}

/// The request for `root`, with the problems of reading the root's own POM (a missing or
/// invalid POM of an artifact root leaves a graph of the root alone, as in Maven).
pub fn request_for(
    source: &RepositorySource,
    root: &Root,
    repositories: &[RemoteRepository],
) -> Result<(CollectRequest, Vec<PomProblem>), RootFailure> {
    match root {
        // The root's descriptor is read as is (its management is the graph's); the source's
        // cache keeps descriptors without it.
        Root::Artifact(a) => match source.root_descriptor(a, repositories) {
            DescriptorOutcome::Found(d) => {
                let root = d.artifact.clone().unwrap_or_else(|| a.clone());
                Ok((request(root, &d, repositories), Vec::new()))
            }
            DescriptorOutcome::Missing {
                artifact,
                partial,
                message,
            } => Ok(kept(
                a,
                &partial,
                repositories,
                PomProblemKind::MissingPom,
                artifact,
                message,
            )),
            DescriptorOutcome::Invalid {
                artifact,
                partial,
                message,
            } => Ok(kept(
                a,
                &partial,
                repositories,
                PomProblemKind::InvalidPom,
                artifact,
                message,
            )),
            DescriptorOutcome::Failed(message) => Err(RootFailure {
                errors: vec![message],
            }),
        },
        Root::Dependencies(deps) => Ok((
            CollectRequest {
                root: None,
                dependencies: deps.clone(),
                managed_dependencies: Vec::new(),
                repositories: repositories.to_vec(),
            },
            Vec::new(),
        )),
        Root::Project {
            artifact,
            dependencies,
            managed_dependencies,
        } => Ok((
            CollectRequest {
                root: Some(artifact.clone()),
                dependencies: dependencies.clone(),
                managed_dependencies: managed_dependencies.clone(),
                repositories: repositories.to_vec(),
            },
            Vec::new(),
        )),
        Root::Pom(file) => {
            let reader = source.reader().clone();
            let built = source.block_on(reader.read_project(file, repositories));
            match built {
                Ok(d) => Ok((project_request(&d, repositories), Vec::new())),
                Err(e) => Err(RootFailure {
                    errors: e
                        .problems
                        .iter()
                        .filter(|p| p.is_error())
                        .map(ToString::to_string)
                        .chain(std::iter::once(e.to_string()))
                        .collect(),
                }),
            }
        }
    }
}
