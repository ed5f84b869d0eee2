//! The collect request of a project, as Maven's dependency resolution starts it: from a POM
//! file (the effective model's dependencies and dependency management, root `g:a:pom:v`) or
//! from an artifact in the repositories (its descriptor, root = the artifact after
//! relocations). Repositories the root POM declares are not added to the request (Maven's
//! request holds the build's repositories; those of dependency POMs join as they are read).

use super::collector::{CollectRequest, Problem, ProblemKind};
use super::fetch::RepositorySource;
use super::source::DescriptorOutcome;
use crate::repository::RemoteRepository;
use crate::resolution::artifact::{Artifact, ArtifactDescriptor};
use std::path::PathBuf;

/// What to resolve the dependencies of.
#[derive(Debug, Clone)]
pub enum Root {
    /// An artifact whose POM is in the repositories (`g:a[:ext[:cls]]:v`).
    Artifact(Artifact),
    /// A project file (`--pom FILE`), built with parent lookup on disk.
    Pom(PathBuf),
    /// An anonymous project with these dependencies (`m2r resolve COORD...`, as
    /// `mvn dependency:get` and `cs fetch`).
    Dependencies(Vec<crate::resolution::artifact::Dependency>),
}

/// The root itself could not be read: no graph.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}", errors.join("; "))]
pub struct RootFailure {
    /// What failed (one line each).
    pub errors: Vec<String>,
}

fn request(
    root: Artifact,
    d: &ArtifactDescriptor,
    repositories: &[RemoteRepository],
) -> CollectRequest {
    CollectRequest {
        root,
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
    kind: ProblemKind,
    artifact: Artifact,
    message: String,
) -> (CollectRequest, Vec<Problem>) {
    let root = partial.artifact.clone().unwrap_or_else(|| a.clone());
    (
        request(root, partial, repositories),
        vec![Problem {
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
) -> Result<(CollectRequest, Vec<Problem>), RootFailure> {
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
                ProblemKind::MissingPom,
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
                ProblemKind::InvalidPom,
                artifact,
                message,
            )),
            DescriptorOutcome::Failed(message) => Err(RootFailure {
                errors: vec![message],
            }),
        },
        Root::Dependencies(deps) => Ok((
            CollectRequest {
                root: Artifact::new("m2r", "anonymous", "pom", "", "0"),
                dependencies: deps.clone(),
                managed_dependencies: Vec::new(),
                repositories: repositories.to_vec(),
            },
            Vec::new(),
        )),
        Root::Pom(file) => {
            let reader = source.reader().clone();
            let built = source.block_on(reader.read_project(file, repositories));
            match built {
                Ok(d) => {
                    let root = d
                        .artifact
                        .clone()
                        .unwrap_or_else(|| Artifact::new("", "", "pom", "", ""));
                    Ok((request(root, &d, repositories), Vec::new()))
                }
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
