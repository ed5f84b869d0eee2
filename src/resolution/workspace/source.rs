//! The collector's view of a reactor: a [`DescriptorSource`] with the [`Workspace`] in front of
//! another source (the repositories), as Maven Resolver consults the session's
//! `WorkspaceReader` before the repositories.
//!
//! - A module's descriptor (any type or classifier of its artifact) is the workspace's
//!   (`DefaultArtifactDescriptorReader`: the POM resolves to the project file, then
//!   `MavenWorkspaceReader.findModel` answers with the project's model); the repositories are
//!   not asked, not even ahead of time: hints for modules become hints for their dependencies.
//!   A repository POM relocated to a module is followed into the reactor.
//! - A version range lists the versions the workspace has a file for first
//!   (`DefaultVersionRangeResolver`: `findVersions`, then each repository's metadata for versions
//!   not listed yet), as found in the local repository: a node at such a version has no
//!   repository (`getRemoteRepositories` of a workspace repository is empty).
//! - Repositories that POMs declare are aggregated by the inner source.
//!
//! The replay hooks of the inner source (a collection done again in Maven's order) are not
//! passed on: several modules collect at once over one inner source, so the caller decides
//! for the whole reactor (`Session::collect_workspace`).

use super::Workspace;
use crate::repository::RemoteRepository;
use crate::resolution::artifact::{Artifact, ArtifactDescriptor};
use crate::resolution::collect::{DescriptorOutcome, DescriptorSource, VersionOrigin};
use std::collections::HashSet;
use std::sync::Arc;

/// A [`DescriptorSource`] answering for the modules of a [`Workspace`] and passing everything
/// else to `inner`.
pub struct WorkspaceSource<'a> {
    workspace: &'a Workspace,
    inner: &'a dyn DescriptorSource,
}

impl<'a> WorkspaceSource<'a> {
    /// The workspace in front of `inner`.
    pub fn new(workspace: &'a Workspace, inner: &'a dyn DescriptorSource) -> Self {
        WorkspaceSource { workspace, inner }
    }

    /// Hints for modules become hints for what they depend on (compile and runtime, not
    /// optional), recursively through modules; hints at a version range are dropped.
    fn expand(
        &self,
        requests: Vec<(Artifact, Arc<[RemoteRepository]>)>,
    ) -> Vec<(Artifact, Arc<[RemoteRepository]>)> {
        let mut out = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        let mut todo = requests;
        while let Some((a, repos)) = todo.pop() {
            // A range is resolved first (its candidates are not known yet).
            if a.version.is_empty() || crate::resolution::collect::ranges::needs_listing(&a.version)
            {
                continue;
            }
            match self.workspace.find_descriptor(&a) {
                None => out.push((a, repos)),
                Some(d) => {
                    if !seen.insert(format!("{}:{}:{}", a.group_id, a.artifact_id, a.version)) {
                        continue;
                    }
                    for dep in &d.dependencies {
                        let transitive = matches!(dep.scope.as_str(), "" | "compile" | "runtime")
                            && !dep.is_optional();
                        if transitive {
                            todo.push((dep.artifact.clone(), repos.clone()));
                        }
                    }
                }
            }
        }
        out
    }
}

impl DescriptorSource for WorkspaceSource<'_> {
    fn descriptor(
        &self,
        artifact: &Artifact,
        repositories: &Arc<[RemoteRepository]>,
    ) -> DescriptorOutcome {
        if let Some(d) = self.workspace.find_descriptor(artifact) {
            return DescriptorOutcome::Found(d);
        }
        let outcome = self.inner.descriptor(artifact, repositories);
        // A relocation to a module: Maven's descriptor reader follows it into the reactor.
        let relocated = match &outcome {
            DescriptorOutcome::Found(d) => Some(d),
            DescriptorOutcome::Missing { partial, .. } => Some(partial),
            _ => None,
        };
        if let Some(d) = relocated.filter(|d| !d.relocations.is_empty()) {
            let module = d
                .artifact
                .as_ref()
                .and_then(|target| self.workspace.find_descriptor(target));
            if let Some(module) = module {
                return DescriptorOutcome::Found(Arc::new(ArtifactDescriptor {
                    artifact: d.artifact.clone(),
                    relocations: d.relocations.clone(),
                    ..(*module).clone()
                }));
            }
        }
        outcome
    }

    fn versions(
        &self,
        artifact: &Artifact,
        repositories: &[RemoteRepository],
    ) -> Vec<(String, VersionOrigin)> {
        let mut listed: Vec<(String, VersionOrigin)> = self
            .workspace
            .find_versions(artifact)
            .into_iter()
            .map(|v| (v, VersionOrigin::Local))
            .collect();
        let own: HashSet<String> = listed.iter().map(|(v, _)| v.clone()).collect();
        listed.extend(
            self.inner
                .versions(artifact, repositories)
                .into_iter()
                .filter(|(v, _)| !own.contains(v)),
        );
        listed
    }

    fn aggregate(
        &self,
        dominant: &[RemoteRepository],
        declared: &[RemoteRepository],
    ) -> Vec<RemoteRepository> {
        self.inner.aggregate(dominant, declared)
    }

    fn prefetch(&self, requests: Vec<(Artifact, Arc<[RemoteRepository]>)>) {
        let requests = self.expand(requests);
        if !requests.is_empty() {
            self.inner.prefetch(requests);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolution::artifact::Dependency;
    use crate::resolution::collect::{collect, view, CollectRequest, MemorySource};
    use crate::resolution::workspace::{Module, Phase};

    fn jar(a: &str, v: &str) -> Artifact {
        Artifact::from_type("g", a, "jar", "", v)
    }

    #[test]
    fn modules_come_from_the_workspace_and_never_from_the_repositories() {
        let mut repo = MemorySource::new();
        repo.add(
            "g:ext:jar:1",
            ArtifactDescriptor {
                dependencies: vec![Dependency::new(jar("ext-dep", "1"), "compile")],
                ..Default::default()
            },
        );
        // The repository has another (stale) m1: it must not be read.
        repo.add("g:m1:jar:1", ArtifactDescriptor::default());
        let m1 = Module::new(jar("m1", "1"), "jar")
            .with_dependencies(vec![Dependency::new(jar("ext", "1"), "compile")]);
        let m2 = Module::new(jar("m2", "1"), "jar").with_dependencies(vec![
            Dependency::new(jar("m1", "1"), "compile"),
            Dependency::new(Artifact::from_type("g", "m1", "test-jar", "", "1"), "test"),
        ]);
        let ws = Workspace::new(vec![m2.clone(), m1]).unwrap();
        let source = WorkspaceSource::new(&ws, &repo);
        let request = CollectRequest {
            root: Some(m2.artifact.clone()),
            dependencies: m2.project.dependencies.clone(),
            managed_dependencies: vec![],
            repositories: vec![],
        };
        let result = collect(&source, &request);
        assert_eq!(
            view::classpath(&result.graph),
            [
                "g:m1:jar:1:compile",
                "g:ext:jar:1:compile",
                "g:ext-dep:jar:1:compile",
                "g:m1:jar:tests:1:test",
            ]
        );
        let asked = repo.requests.lock().unwrap().clone();
        assert!(
            asked.iter().all(|a| !a.starts_with("g:m1:")),
            "the repository was asked for a module: {asked:?}"
        );
    }

    #[test]
    fn ranges_see_modules_as_the_reactor_lists_them() {
        let mut repo = MemorySource::new();
        repo.list("g:m1", "", &["0.9"]);
        let m1 = Module::new(jar("m1", "1"), "jar").with_output_directory("m1/classes");
        let ws = Workspace::new(vec![m1]).unwrap();
        let range = jar("m1", "[0.5,2)");
        let compiled = WorkspaceSource::new(&ws, &repo);
        assert_eq!(
            compiled.versions(&range, &[]),
            [
                ("1".to_string(), VersionOrigin::Local),
                ("0.9".to_string(), VersionOrigin::Local)
            ]
        );
        // `mvn dependency:tree` runs no phase: the reactor has no jar to offer.
        let tree = ws.with_phase(Phase::None);
        let poms_only = WorkspaceSource::new(&tree, &repo);
        assert_eq!(
            poms_only.versions(&range, &[]),
            [("0.9".to_string(), VersionOrigin::Local)]
        );
    }

    #[test]
    fn a_relocation_to_a_module_is_followed_into_the_reactor() {
        let mut repo = MemorySource::new();
        repo.add(
            "g:old:jar:1",
            ArtifactDescriptor {
                artifact: Some(jar("m1", "1")),
                relocations: vec![jar("old", "1")],
                ..Default::default()
            },
        );
        repo.add("g:ext:jar:1", ArtifactDescriptor::default());
        let m1 = Module::new(jar("m1", "1"), "jar")
            .with_dependencies(vec![Dependency::new(jar("ext", "1"), "compile")]);
        let ws = Workspace::new(vec![m1]).unwrap();
        let source = WorkspaceSource::new(&ws, &repo);
        let request = CollectRequest {
            root: Some(jar("app", "1")),
            dependencies: vec![Dependency::new(jar("old", "1"), "compile")],
            managed_dependencies: vec![],
            repositories: vec![],
        };
        let result = collect(&source, &request);
        assert_eq!(
            view::classpath(&result.graph),
            ["g:m1:jar:1:compile", "g:ext:jar:1:compile"]
        );
    }
}
