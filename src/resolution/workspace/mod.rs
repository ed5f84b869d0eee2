//! Multi-module builds: the projects of one build (a reactor), in the order Maven builds them,
//! and what the reactor answers while their dependencies are resolved — Maven Resolver's
//! `WorkspaceReader`, as Maven 3.8.7's `ReactorReader` implements it.
//!
//! - [`Workspace`]: the modules in reactor order ([`sort`]: Maven's `ProjectSorter`), each a
//!   [`Module`]: its main artifact, its project file, the descriptor the reactor gives for it
//!   (its effective model's dependencies and management), its output directories and built
//!   files. [`Workspace::read`] reads it from an aggregator's POM as `mvn` does ([`discover`]);
//!   an embedder with its own project model builds it with [`Workspace::new`].
//! - The reader: [`Workspace::find_artifact`] (`findArtifact`), [`Workspace::find_versions`]
//!   (`findVersions`) and [`Workspace::find_descriptor`] (`MavenWorkspaceReader.findModel`).
//!   What it finds depends on how far the build has gone ([`Phase`]): `mvn dependency:tree`
//!   runs no lifecycle phase, so the reactor gives POMs only; after `compile` a module's jar is
//!   its output directory (`target/classes`), after `test-compile` its test-jar is its test
//!   output directory; after `package` only built files count.
//! - [`source::WorkspaceSource`]: the collector's [`DescriptorSource`](crate::resolution::collect::DescriptorSource)
//!   with the reactor in front of the repositories: a module's descriptor comes from the
//!   workspace and its POM is never requested from a repository; version ranges see the
//!   modules' versions as `DefaultVersionRangeResolver` sees the workspace's.
//!
//! Not here: building POM models ([`crate::resolution::pom`]), collecting and resolving graphs
//! ([`crate::resolution::collect`]); [`crate::Session`] wires them per module
//! (`Session::collect_workspace`, `Session::resolve_workspace`).
//!
//! ```
//! use m2resolver::resolution::workspace::{Module, Phase, Workspace};
//! use m2resolver::resolution::{Artifact, Dependency};
//! let jar = |a: &str| Artifact::from_type("org.acme", a, "jar", "", "1.0");
//! let app = Module::new(jar("app"), "jar")
//!     .with_dependencies(vec![Dependency::new(jar("core"), "compile")])
//!     .with_output_directory("app/target/classes");
//! let core = Module::new(jar("core"), "jar").with_output_directory("core/target/classes");
//! let ws = Workspace::new(vec![app, core]).unwrap();
//! // core is built first: app depends on it
//! assert_eq!(ws.modules()[0].artifact.artifact_id, "core");
//! // a build that compiled gives core's classes for its jar
//! assert_eq!(ws.find_artifact(&jar("core")).unwrap(), std::path::Path::new("core/target/classes"));
//! // `mvn dependency:tree` runs no phase: only POMs come from the reactor
//! assert!(ws.with_phase(Phase::None).find_artifact(&jar("core")).is_none());
//! ```

pub mod discover;
pub mod sort;
pub mod source;
pub mod view;

pub use discover::{ProjectFailure, WorkspaceError};
pub use sort::{Coordinates, PluginUse, SortError, SortInput};

use crate::resolution::artifact::{Artifact, ArtifactDescriptor, Dependency};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How far the build has gone, which decides what the reactor gives for a module's artifacts
/// (`ReactorReader.find`: `project.hasLifecyclePhase(...)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
#[non_exhaustive]
pub enum Phase {
    /// No lifecycle phase ran (`mvn dependency:tree`): POMs only (and files a module says it
    /// has built).
    None,
    /// `compile` ran: a module's jar-like artifact is its output directory.
    Compile,
    /// `test-compile` ran (the default: the class path of a build that compiles and tests):
    /// also a module's test-jar is its test output directory.
    #[default]
    TestCompile,
    /// `package` ran: only the files modules have built (no output directories).
    Package,
}

/// The types whose artifact a module's output directory stands for before packaging
/// (`ReactorReader.COMPILE_PHASE_TYPES`, Maven 3.8.7).
const COMPILE_PHASE_TYPES: &[&str] = &[
    "jar",
    "ejb-client",
    "war",
    "rar",
    "ejb3",
    "par",
    "sar",
    "wsr",
    "har",
    "app-client",
];

/// One project of a multi-module build.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Module {
    /// The main artifact: `groupId:artifactId`, the packaging as type, `version`.
    pub artifact: Artifact,
    /// `<packaging>`.
    pub packaging: String,
    /// The project file (absent for a module an embedder describes without one).
    pub pom: Option<PathBuf>,
    /// Where collection starts when the module is the root: its dependencies, dependency
    /// management and repositories as its project build gives them (the artifact labels the
    /// graph's root).
    pub project: Arc<ArtifactDescriptor>,
    /// The project's active profiles (`groupId:artifactId:version: id`, as its effective
    /// model names them; what a lock counts as an input).
    pub active_profiles: Vec<String>,
    /// What the reactor answers when another module depends on it (`findModel`: the project's
    /// effective model as a dependency descriptor; no relocation).
    pub descriptor: Arc<ArtifactDescriptor>,
    /// `build.outputDirectory` (absolute for modules read from POMs).
    pub output_directory: Option<PathBuf>,
    /// `build.testOutputDirectory`.
    pub test_output_directory: Option<PathBuf>,
    /// Files the build made: the main artifact's and attached ones (`project.getArtifact()`,
    /// `getAttachedArtifacts()`), each with its artifact.
    pub files: Vec<(Artifact, PathBuf)>,
    /// What orders it in the reactor besides its dependencies: parent, plugins, extensions.
    pub edges: SortInput,
}

impl Module {
    /// A module with its main artifact (`groupId`, `artifactId`, `version`; the type is the
    /// packaging) and nothing else yet.
    pub fn new(artifact: Artifact, packaging: impl Into<String>) -> Self {
        let packaging = packaging.into();
        let artifact = Artifact::from_type(
            artifact.group_id,
            artifact.artifact_id,
            &packaging,
            "",
            artifact.version,
        );
        let root = ArtifactDescriptor {
            artifact: Some(artifact.clone()),
            ..ArtifactDescriptor::default()
        };
        Module {
            edges: SortInput {
                project: Coordinates::new(
                    artifact.group_id.clone(),
                    artifact.artifact_id.clone(),
                    artifact.version.clone(),
                ),
                ..SortInput::default()
            },
            artifact,
            packaging,
            pom: None,
            project: Arc::new(root),
            active_profiles: Vec::new(),
            descriptor: Arc::new(ArtifactDescriptor::default()),
            output_directory: None,
            test_output_directory: None,
            files: Vec::new(),
        }
    }

    /// Its dependencies, in order (as a root and as a dependency of another module; they also
    /// order the reactor).
    pub fn with_dependencies(mut self, dependencies: Vec<Dependency>) -> Self {
        self.edges.dependencies = dependencies
            .iter()
            .map(|d| {
                Coordinates::new(
                    d.artifact.group_id.clone(),
                    d.artifact.artifact_id.clone(),
                    d.artifact.version.clone(),
                )
            })
            .collect();
        Arc::make_mut(&mut self.project).dependencies = dependencies.clone();
        Arc::make_mut(&mut self.descriptor).dependencies = dependencies;
        self
    }

    /// Its dependency management.
    pub fn with_managed_dependencies(mut self, managed: Vec<Dependency>) -> Self {
        Arc::make_mut(&mut self.project).managed_dependencies = managed.clone();
        Arc::make_mut(&mut self.descriptor).managed_dependencies = managed;
        self
    }

    /// Its project file.
    pub fn with_pom(mut self, pom: impl Into<PathBuf>) -> Self {
        self.pom = Some(pom.into());
        self
    }

    /// Its output directory (`target/classes`).
    pub fn with_output_directory(mut self, dir: impl Into<PathBuf>) -> Self {
        self.output_directory = Some(dir.into());
        self
    }

    /// Its test output directory (`target/test-classes`).
    pub fn with_test_output_directory(mut self, dir: impl Into<PathBuf>) -> Self {
        self.test_output_directory = Some(dir.into());
        self
    }

    /// A file the build made for `artifact` (the main artifact or an attached one).
    pub fn with_file(mut self, artifact: Artifact, file: impl Into<PathBuf>) -> Self {
        self.files.push((artifact, file.into()));
        self
    }

    /// Its parent (an edge of the reactor order).
    pub fn with_parent(mut self, parent: Coordinates) -> Self {
        self.edges.parent = Some(parent);
        self
    }

    /// Its build plugins and extensions (edges of the reactor order).
    pub fn with_plugins(mut self, plugins: Vec<PluginUse>, extensions: Vec<Coordinates>) -> Self {
        self.edges.plugins = plugins;
        self.edges.extensions = extensions;
        self
    }

    /// `groupId:artifactId:version`.
    pub fn id(&self) -> String {
        format!(
            "{}:{}:{}",
            self.artifact.group_id, self.artifact.artifact_id, self.artifact.version
        )
    }

    /// `ReactorReader.findMatchingArtifact`: the built file of the main artifact (same
    /// `groupId:artifactId:extension:classifier`) or of an attached one (same coordinates).
    fn built_file(&self, requested: &Artifact) -> Option<&Path> {
        fn versionless(a: &Artifact) -> (&str, &str, &str, &str) {
            (
                a.group_id.as_str(),
                a.artifact_id.as_str(),
                a.extension.as_str(),
                a.classifier.as_str(),
            )
        }
        let main = if versionless(requested) == versionless(&self.artifact) {
            self.files
                .iter()
                .find(|(a, _)| versionless(a) == versionless(&self.artifact))
        } else {
            self.files.iter().find(|(a, _)| {
                versionless(a) == versionless(requested) && a.version == requested.version
            })
        };
        main.map(|(_, f)| f.as_path()).filter(|f| f.exists())
    }
}

/// The modules of one build in reactor order, and what the reactor answers for them (see the
/// [module documentation](self)). Cheap to clone.
#[derive(Debug, Clone)]
pub struct Workspace {
    modules: Arc<[Module]>,
    /// `groupId:artifactId:version` → index.
    by_id: Arc<HashMap<String, usize>>,
    /// `groupId:artifactId` → indices, in reactor order.
    by_key: Arc<HashMap<String, Vec<usize>>>,
    phase: Phase,
    /// The aggregator's project file, for a workspace read from one.
    root: Option<PathBuf>,
    /// The plugin the build runs in every module, whose class path Maven resolves after the
    /// first module's dependencies (see [`Workspace::with_plugin`]).
    plugin: Option<Arc<Artifact>>,
}

impl Workspace {
    /// The workspace of `modules` given in the order they were collected (an aggregator's
    /// modules before the aggregator, as Maven collects them), sorted into reactor order as
    /// Maven's `ProjectSorter` sorts projects; the phase is [`Phase::TestCompile`].
    pub fn new(modules: Vec<Module>) -> Result<Workspace, SortError> {
        let inputs: Vec<SortInput> = modules.iter().map(|m| m.edges.clone()).collect();
        let order = sort::reactor_order(&inputs)?;
        let mut slots: Vec<Option<Module>> = modules.into_iter().map(Some).collect();
        let sorted: Vec<Module> = order
            .into_iter()
            .filter_map(|i| slots.get_mut(i).and_then(Option::take))
            .collect();
        Ok(Self::in_order(sorted, None))
    }

    /// Reads the reactor of an aggregator's POM as `mvn` does ([`discover`]): the POM, its
    /// modules recursively (with the modules of its active profiles), each project's effective
    /// model, in reactor order. `repositories` are those the build starts from (injected:
    /// [`crate::Session::repositories`]).
    pub async fn read(
        reader: &crate::resolution::pom::DescriptorReader,
        pom: &Path,
        repositories: &[crate::repository::RemoteRepository],
    ) -> Result<Workspace, WorkspaceError> {
        discover::read(reader, pom, repositories).await
    }

    /// A workspace whose modules are already in reactor order.
    pub(crate) fn in_order(modules: Vec<Module>, root: Option<PathBuf>) -> Workspace {
        let mut by_id = HashMap::new();
        let mut by_key: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, m) in modules.iter().enumerate() {
            by_id.insert(m.id(), i);
            by_key
                .entry(format!(
                    "{}:{}",
                    m.artifact.group_id, m.artifact.artifact_id
                ))
                .or_default()
                .push(i);
        }
        Workspace {
            modules: Arc::from(modules),
            by_id: Arc::new(by_id),
            by_key: Arc::new(by_key),
            phase: Phase::default(),
            root,
            plugin: None,
        }
    }

    /// The same workspace seen at another point of the build.
    pub fn with_phase(&self, phase: Phase) -> Workspace {
        Workspace {
            phase,
            ..self.clone()
        }
    }

    /// The same workspace built by running `plugin` (a plugin's main artifact,
    /// `groupId:artifactId:jar:version`) in every module, as `mvn group:artifact:version:goal`
    /// does: Maven resolves a project's dependencies before it runs the goal there, and the
    /// plugin's own class path (the plugin's dependencies) once, when the goal first runs, after
    /// the first module's dependencies. All these collections share the build's pool of
    /// dependencies, so the plugin's dependencies are what later modules' equal dependencies
    /// are (which the verbose tree's scope check sees, see
    /// [`ScopeSource`](crate::resolution::ScopeSource)).
    pub fn with_plugin(&self, plugin: Artifact) -> Workspace {
        Workspace {
            plugin: Some(Arc::new(plugin)),
            ..self.clone()
        }
    }

    /// The plugin the build runs in every module ([`Workspace::with_plugin`]).
    pub fn plugin(&self) -> Option<&Artifact> {
        self.plugin.as_deref()
    }

    /// How far the build has gone.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The modules, in reactor order.
    pub fn modules(&self) -> &[Module] {
        &self.modules
    }

    /// The aggregator's project file, for a workspace read from one.
    pub fn root_pom(&self) -> Option<&Path> {
        self.root.as_deref()
    }

    /// A module's project file relative to the aggregator's folder, `/`-separated (empty for
    /// a module without one, the file as it is outside the aggregator's folder).
    pub fn relative_path(&self, m: &Module) -> String {
        let Some(pom) = m.pom.as_deref() else {
            return String::new();
        };
        let base = self
            .root
            .as_deref()
            .and_then(Path::parent)
            .unwrap_or(Path::new(""));
        let rel = pom.strip_prefix(base).unwrap_or(pom);
        rel.components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/")
    }

    /// The module `groupId:artifactId:version`.
    pub fn module(&self, group_id: &str, artifact_id: &str, version: &str) -> Option<&Module> {
        self.by_id
            .get(&format!("{group_id}:{artifact_id}:{version}"))
            .map(|&i| &self.modules[i])
    }

    fn module_of(&self, a: &Artifact) -> Option<&Module> {
        self.module(&a.group_id, &a.artifact_id, &a.version)
    }

    /// `ReactorReader.find(project, artifact)`.
    fn find(&self, m: &Module, a: &Artifact) -> Option<PathBuf> {
        if a.extension == "pom" {
            return m.pom.clone();
        }
        if let Some(f) = m.built_file(a) {
            return Some(f.to_path_buf());
        }
        if self.phase == Phase::Package {
            return None;
        }
        // The type decides; an artifact made without one counts as its extension's type.
        let type_id = a.type_id.as_deref().unwrap_or(&a.extension);
        let test = type_id == "test-jar" || (a.extension == "jar" && a.classifier == "tests");
        if test {
            (self.phase >= Phase::TestCompile)
                .then(|| m.test_output_directory.clone())
                .flatten()
        } else {
            (self.phase >= Phase::Compile && COMPILE_PHASE_TYPES.contains(&type_id))
                .then(|| m.output_directory.clone())
                .flatten()
        }
    }

    /// The file the reactor gives for `artifact` (`WorkspaceReader.findArtifact`): a module's
    /// project file for its POM, a built file, else — before packaging — its output
    /// directories for jar-like artifacts (see [`Phase`]); `None` when the artifact is not a
    /// module's or the reactor has nothing for it (then the repositories are asked, as Maven
    /// does).
    pub fn find_artifact(&self, artifact: &Artifact) -> Option<PathBuf> {
        self.find(self.module_of(artifact)?, artifact)
    }

    /// The versions of `artifact`'s `groupId:artifactId` the reactor has a file for
    /// (`WorkspaceReader.findVersions`): what a version range sees of the modules, before the
    /// repositories' listings.
    pub fn find_versions(&self, artifact: &Artifact) -> Vec<String> {
        let key = format!("{}:{}", artifact.group_id, artifact.artifact_id);
        let Some(indices) = self.by_key.get(&key) else {
            return Vec::new();
        };
        indices
            .iter()
            .map(|&i| &self.modules[i])
            .filter(|m| self.find(m, artifact).is_some())
            .map(|m| m.artifact.version.clone())
            .collect()
    }

    /// The descriptor of a module's artifact, of whatever type or classifier
    /// (`MavenWorkspaceReader.findModel` of its POM): what the collector reads instead of a
    /// POM from the repositories. `None` when `artifact` is no module's.
    pub fn find_descriptor(&self, artifact: &Artifact) -> Option<Arc<ArtifactDescriptor>> {
        self.module_of(artifact).map(|m| m.descriptor.clone())
    }

    /// Whether `artifact` (any type) is a module's.
    pub fn contains(&self, artifact: &Artifact) -> bool {
        self.module_of(artifact).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(a: &str, packaging: &str) -> Module {
        Module::new(Artifact::new("g", a, "", "", "1"), packaging)
            .with_pom(format!("{a}/pom.xml"))
            .with_output_directory(format!("{a}/target/classes"))
            .with_test_output_directory(format!("{a}/target/test-classes"))
    }

    #[test]
    fn the_reactor_gives_what_reactor_reader_gives() {
        let ws = Workspace::new(vec![module("lib", "jar"), module("web", "war")]).unwrap();
        let find = |phase: Phase, a: Artifact| {
            ws.with_phase(phase)
                .find_artifact(&a)
                .map(|p| p.display().to_string())
        };
        let jar = Artifact::from_type("g", "lib", "jar", "", "1");
        let tests = Artifact::from_type("g", "lib", "test-jar", "", "1");
        let pom = Artifact::new("g", "lib", "pom", "", "1");
        let zip = Artifact::from_type("g", "lib", "zip", "", "1");
        let war = Artifact::from_type("g", "web", "war", "", "1");
        let table = [
            (Phase::None, pom.clone(), Some("lib/pom.xml")),
            (Phase::None, jar.clone(), None),
            (Phase::Compile, jar.clone(), Some("lib/target/classes")),
            (Phase::Compile, tests.clone(), None),
            (
                Phase::TestCompile,
                tests.clone(),
                Some("lib/target/test-classes"),
            ),
            (Phase::TestCompile, zip.clone(), None),
            (Phase::TestCompile, war.clone(), Some("web/target/classes")),
            (Phase::Package, jar.clone(), None),
            (Phase::Package, pom.clone(), Some("lib/pom.xml")),
            (
                Phase::TestCompile,
                Artifact::from_type("g", "lib", "jar", "", "2"),
                None,
            ),
        ];
        for (phase, a, want) in table {
            assert_eq!(find(phase, a.clone()).as_deref(), want, "{phase:?} {a}");
        }
    }

    #[test]
    fn built_files_win_and_versions_follow_what_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("lib-1.jar");
        std::fs::write(&file, b"jar").unwrap();
        let jar = Artifact::from_type("g", "lib", "jar", "", "1");
        let ws = Workspace::new(vec![module("lib", "jar").with_file(jar.clone(), &file)]).unwrap();
        assert_eq!(
            ws.with_phase(Phase::Package).find_artifact(&jar),
            Some(file.clone())
        );
        assert_eq!(ws.with_phase(Phase::None).find_artifact(&jar), Some(file));
        let range = Artifact::from_type("g", "lib", "jar", "", "[1,2)");
        assert_eq!(ws.find_versions(&range), ["1"]);
        let other = Workspace::new(vec![module("lib", "jar")]).unwrap();
        assert!(other
            .with_phase(Phase::None)
            .find_versions(&range)
            .is_empty());
        let pom_range = Artifact::new("g", "lib", "pom", "", "[1,2)");
        assert_eq!(
            other.with_phase(Phase::None).find_versions(&pom_range),
            ["1"]
        );
        assert!(other.contains(&Artifact::new("g", "lib", "jar", "sources", "1")));
        assert!(other.find_descriptor(&jar.with_version("2")).is_none());
    }
}
