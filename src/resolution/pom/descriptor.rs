//! Artifact descriptors as Maven Resolver's `DefaultArtifactDescriptorReader` (maven-resolver-
//! provider 3.8.7) reads them, and project models for `m2r tree --pom`.
//!
//! For an artifact: fetch its POM (`g:a:pom:v`) through the downloader from the repositories
//! given, build the effective model (validation level minimal, the session's `-D`s as system
//! properties, the session's model cache), and follow `distributionManagement/relocation` until
//! a POM without one (a relocation seen twice is a cycle). The session's policy is Maven's:
//! a missing POM and an invalid POM are reported ([`DescriptorError::kind`]) and the artifact is
//! kept without dependencies; a parent or BOM that cannot be fetched fails the descriptor.
//!
//! [`DescriptorReader`] is shared behind an `Arc` by the dependency collector: it is `Send +
//! Sync`, reads each POM file once per session, builds each parent and BOM once, and remembers
//! every descriptor it built (per artifact and repository list) — the descriptor only: the
//! effective model it came from is dropped once read (`describe` builds it again).

use super::builder::{self, Built, Properties, Request};
use super::cache_key::{FastMap, Key, KeyRef, ListKey, ListKeys};
use super::model::{Dependency as PomDependency, ManagedFrom, Model, Relocation};
use super::problem::ModelProblem;
use super::source::{is_missing, pom_coordinate, to_remote_repository, ModelResolver, Shared};
use super::validate::{MAVEN_3_0, MINIMAL};
use crate::download::coords::base_version;
use crate::download::Downloader;
use crate::repository::{RemoteRepository, Selectors};
use crate::resolution::artifact::{
    Artifact, ArtifactDescriptor, Dependency, Exclusion, ScopeSource,
};
use crate::settings::Severity;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// How Maven reports a descriptor it could not read but keeps going without.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PomProblemKind {
    /// The POM is in none of the repositories (`missing-pom`).
    MissingPom,
    /// The POM (or a parent or BOM) is malformed or invalid (`invalid-pom`).
    InvalidPom,
}

impl PomProblemKind {
    /// `missing-pom` or `invalid-pom`.
    pub fn as_str(&self) -> &'static str {
        match self {
            PomProblemKind::MissingPom => "missing-pom",
            PomProblemKind::InvalidPom => "invalid-pom",
        }
    }
}

impl fmt::Display for PomProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

fn first_errors(problems: &[ModelProblem]) -> String {
    let errors: Vec<String> = problems
        .iter()
        .filter(|p| p.is_error())
        .take(3)
        .map(|p| {
            let mut s = p.message.clone();
            if let Some(l) = p.line {
                s.push_str(&format!(" ({}:{l}:{})", p.source, p.column.unwrap_or(0)));
            }
            s
        })
        .collect();
    errors.join("; ")
}

fn chain_text(chain: &[String]) -> String {
    match chain.split_first() {
        None => String::new(),
        Some((first, rest)) => {
            let mut s = first.clone();
            for p in rest {
                s.push_str(" → parent ");
                s.push_str(p);
            }
            s
        }
    }
}

/// The cause behind a [`DescriptorError`] (a download error, a coordinate that names no file,
/// a failed task), shared: descriptors are cached with their errors.
pub type Cause = Arc<dyn std::error::Error + Send + Sync>;

/// Why a descriptor could not be read.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum DescriptorError {
    /// No repository has the POM: Maven warns (`missing-pom`) and keeps the artifact.
    #[error("the POM of {artifact} was not found")]
    Missing {
        /// The artifact whose POM is missing (after relocations, `LATEST`/`RELEASE` resolved).
        artifact: Artifact,
        /// The artifact Maven's partial descriptor holds: the request, or the last relocation's
        /// target, as written (`LATEST` stays `LATEST`).
        described: Artifact,
        /// Relocations followed before.
        relocations: Vec<Artifact>,
        /// What the downloader said (repositories searched), or why the coordinates cannot
        /// name a POM.
        #[source]
        source: Cause,
    },
    /// The POM, a parent or a BOM is malformed or invalid: Maven warns (`invalid-pom`) and
    /// keeps the artifact without dependencies.
    #[error("the POM of {artifact}{} is invalid{}: {}", file.as_ref().map(|f| format!(" ({})", f.display())).unwrap_or_default(), if chain.len() > 1 { format!(" (lineage {})", chain_text(chain)) } else { String::new() }, first_errors(problems))]
    Invalid {
        /// The artifact whose POM is invalid (after relocations, `LATEST`/`RELEASE` resolved).
        artifact: Artifact,
        /// The artifact Maven's partial descriptor holds (see [`DescriptorError::Missing`]).
        described: Artifact,
        /// Relocations followed before.
        relocations: Vec<Artifact>,
        /// The POM file.
        file: Option<PathBuf>,
        /// Every problem of the build, errors and warnings.
        problems: Vec<ModelProblem>,
        /// The POM and the parents read, `g:a:v` each.
        chain: Vec<String>,
    },
    /// A parent or imported BOM could not be fetched: the descriptor fails.
    #[error("cannot build the POM of {artifact}{}: {}", if chain.is_empty() { String::new() } else { format!(" (lineage {})", chain_text(chain)) }, first_errors(problems))]
    Unresolvable {
        /// The artifact.
        artifact: Artifact,
        /// The POM and the parents read, `g:a:v` each.
        chain: Vec<String>,
        /// Every problem of the build.
        problems: Vec<ModelProblem>,
    },
    /// The POM could not be fetched for another reason than absence (network, checksum,
    /// blocked mirror, local repository): the descriptor fails.
    #[error("could not fetch the POM of {artifact}")]
    Transfer {
        /// The artifact.
        artifact: Artifact,
        /// What the downloader said.
        #[source]
        source: Cause,
    },
}

impl DescriptorError {
    /// How Maven reports it while collecting (`missing-pom`, `invalid-pom`), or `None` when the
    /// descriptor fails (a parent or BOM that cannot be fetched, a transfer error).
    pub fn kind(&self) -> Option<PomProblemKind> {
        match self {
            DescriptorError::Missing { .. } => Some(PomProblemKind::MissingPom),
            DescriptorError::Invalid { .. } => Some(PomProblemKind::InvalidPom),
            _ => None,
        }
    }

    /// The artifact concerned (for `missing-pom`/`invalid-pom`: the one Maven names).
    pub fn artifact(&self) -> &Artifact {
        match self {
            DescriptorError::Missing { artifact, .. }
            | DescriptorError::Invalid { artifact, .. }
            | DescriptorError::Unresolvable { artifact, .. }
            | DescriptorError::Transfer { artifact, .. } => artifact,
        }
    }

    /// What Maven's descriptor holds when it keeps going (missing or invalid POM): the artifact
    /// after relocations and the relocations, no dependencies.
    pub fn partial(&self) -> Option<ArtifactDescriptor> {
        match self {
            DescriptorError::Missing {
                described,
                relocations,
                ..
            }
            | DescriptorError::Invalid {
                described,
                relocations,
                ..
            } => Some(ArtifactDescriptor {
                artifact: Some(described.clone()),
                relocations: relocations.clone(),
                ..ArtifactDescriptor::default()
            }),
            _ => None,
        }
    }

    /// The problems of the model build, when there was one.
    pub fn problems(&self) -> &[ModelProblem] {
        match self {
            DescriptorError::Invalid { problems, .. }
            | DescriptorError::Unresolvable { problems, .. } => problems,
            _ => &[],
        }
    }
}

/// Why a project model could not be built (`m2r tree --pom`).
#[derive(Debug, Clone, thiserror::Error)]
#[error("the project {} could not be built{}: {}", file.display(), if chain.len() > 1 { format!(" (lineage {})", chain_text(chain)) } else { String::new() }, first_errors(problems))]
pub struct ModelBuildError {
    /// The project file.
    pub file: PathBuf,
    /// Every problem (at least one ERROR or FATAL).
    pub problems: Vec<ModelProblem>,
    /// The project and the parents read, `g:a:v` each.
    pub chain: Vec<String>,
}

/// A descriptor with what explains it: the effective model (every dependency knows where it was
/// declared, where its version came from and which properties it used), the lineage and the
/// active profiles.
#[derive(Debug, Clone)]
pub struct Description {
    /// The descriptor.
    pub descriptor: ArtifactDescriptor,
    /// The effective model of the POM finally read (crate-internal: its renderings are
    /// [`crate::resolution::pom::view`]'s).
    pub(crate) model: Model,
    /// The POM file finally read.
    pub file: PathBuf,
    /// The POM and its parents (`g:a:v`, file), the POM first.
    pub lineage: Vec<(String, Option<PathBuf>)>,
    /// Active profiles, `model: id`.
    pub active_profiles: Vec<String>,
    /// Warnings of the model builds.
    pub warnings: Vec<ModelProblem>,
}

/// A remembered descriptor (or why there is none).
pub type SharedDescriptor = Arc<Result<Arc<ArtifactDescriptor>, DescriptorError>>;

/// Reads artifact descriptors as Maven's `DefaultArtifactDescriptorReader` does; `Send + Sync`,
/// shared behind an `Arc`; caches raw models, parents, imports and descriptors per session.
///
/// One reader is a session's descriptor cache: every call of the session (several may run at
/// once) reads through it, a descriptor is built once per artifact and repository list, and a
/// descriptor being built when another call asks for it is awaited, not built twice.
pub struct DescriptorReader {
    shared: Shared,
    dependency_properties: Arc<Properties>,
    project_properties: Arc<Properties>,
    /// Descriptors by coordinates and repository list; the flag says with management.
    descriptors: Mutex<FastMap<Key, Arc<tokio::sync::OnceCell<SharedDescriptor>>>>,
    /// The numbers of the repository lists met (shared with the readers of replays).
    lists: Arc<ListKeys>,
}

impl fmt::Debug for DescriptorReader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DescriptorReader")
            .field("shared", &self.shared)
            .finish_non_exhaustive()
    }
}

impl DescriptorReader {
    /// A reader fetching through `downloader` (its local repository, policies, offline mode,
    /// transport), applying `selectors` (mirrors, proxies, credentials) to repositories POMs
    /// declare, with the session's system and user (`-D`) properties.
    pub fn new(
        downloader: Downloader,
        selectors: Selectors,
        system_properties: HashMap<String, String>,
        user_properties: HashMap<String, String>,
    ) -> Self {
        let dependency_properties = Arc::new(Properties::for_dependencies(
            &user_properties,
            &system_properties,
        ));
        let platform = super::builder::platform_of(&system_properties);
        let mut system = system_properties;
        system.extend(user_properties.iter().map(|(k, v)| (k.clone(), v.clone())));
        let project_properties = Arc::new(Properties {
            user: user_properties,
            system,
            platform,
        });
        DescriptorReader {
            shared: Shared::new(downloader, selectors),
            dependency_properties,
            project_properties,
            descriptors: Mutex::new(FastMap::default()),
            lists: Arc::new(ListKeys::default()),
        }
    }

    /// A reader with the same properties and selectors but caches of its own (parsed files
    /// excepted), reading through `downloader`: one collection's replay in Maven's order.
    pub(crate) fn fresh_over(&self, downloader: Downloader) -> DescriptorReader {
        DescriptorReader {
            shared: self.shared.fresh_over(downloader),
            dependency_properties: self.dependency_properties.clone(),
            project_properties: self.project_properties.clone(),
            descriptors: Mutex::new(FastMap::default()),
            lists: self.lists.clone(),
        }
    }

    /// The downloader it reads through.
    pub(crate) fn downloader(&self) -> &Downloader {
        &self.shared.downloader
    }

    /// The descriptor of `artifact`, its POM fetched from `repositories` (already mirrored and
    /// authenticated: what the collector holds at that point of the graph).
    pub async fn read_descriptor(
        &self,
        artifact: &Artifact,
        repositories: &[RemoteRepository],
    ) -> Result<ArtifactDescriptor, DescriptorError> {
        let list = self.lists.of(repositories);
        match &*self.cached(artifact, repositories, list, true).await {
            Ok(d) => Ok((**d).clone()),
            Err(e) => Err(e.clone()),
        }
    }

    /// Forgets every answer it keeps (descriptors, parents, imported management), so that the
    /// next reads ask the local repository again (a session's refresh). Parsed files are kept:
    /// each is parsed again when its size or modification time changed.
    pub(crate) fn forget_answers(&self) {
        if let Ok(mut m) = self.descriptors.lock() {
            m.clear();
        }
        self.shared.forget_answers();
    }

    /// The descriptor of a dependency as the collector uses it, shared: like
    /// [`read_descriptor`](Self::read_descriptor) but without `managed_dependencies`, which
    /// Resolver's `ClassicDependencyManager` never applies below the root (every POM carries
    /// its parents' management, and the collector would only drop it).
    pub async fn read_dependency_descriptor(
        &self,
        artifact: &Artifact,
        repositories: &[RemoteRepository],
    ) -> SharedDescriptor {
        let list = self.lists.of(repositories);
        self.cached(artifact, repositories, list, false).await
    }

    /// [`read_dependency_descriptor`](Self::read_dependency_descriptor) of a repository list
    /// this reader numbered already ([`Self::list_key`]).
    pub(crate) async fn read_dependency_descriptor_in(
        &self,
        artifact: &Artifact,
        repositories: &[RemoteRepository],
        list: ListKey,
    ) -> SharedDescriptor {
        self.cached(artifact, repositories, list, false).await
    }

    /// The numbers of the repository lists this reader met.
    pub(crate) fn list_keys(&self) -> &Arc<ListKeys> {
        &self.lists
    }

    /// [`read_descriptor`](Self::read_descriptor) with the effective model and its
    /// explanations (`m2r describe`).
    pub async fn describe(
        &self,
        artifact: &Artifact,
        repositories: &[RemoteRepository],
    ) -> Result<Description, DescriptorError> {
        self.load(artifact, repositories, true).await
    }

    /// The answer [`read_dependency_descriptor`](Self::read_dependency_descriptor) would give
    /// at once, when this reader already holds it (read before, by any call of the session)
    /// for the list numbered `list`.
    pub(crate) fn remembered_dependency_descriptor(
        &self,
        artifact: &Artifact,
        list: ListKey,
    ) -> Option<SharedDescriptor> {
        let m = match self.descriptors.lock() {
            Ok(m) => m,
            Err(e) => e.into_inner(),
        };
        m.get(&KeyRef::new(artifact, list, false))
            .and_then(|cell| cell.get().cloned())
    }

    async fn cached(
        &self,
        artifact: &Artifact,
        repositories: &[RemoteRepository],
        list: ListKey,
        management: bool,
    ) -> SharedDescriptor {
        let cell = {
            let mut m = match self.descriptors.lock() {
                Ok(m) => m,
                Err(e) => e.into_inner(),
            };
            let key = KeyRef::new(artifact, list, management);
            match m.get(&key) {
                Some(cell) => cell.clone(),
                None => m.entry(key.owned()).or_default().clone(),
            }
        };
        // A second caller waits for the first one's read; if that one is cancelled, the next
        // waiter reads.
        cell.get_or_init(|| async {
            Arc::new(
                self.load(artifact, repositories, management)
                    .await
                    .map(|d| Arc::new(d.descriptor)),
            )
        })
        .await
        .clone()
    }

    async fn load(
        &self,
        request: &Artifact,
        repositories: &[RemoteRepository],
        management: bool,
    ) -> Result<Description, DescriptorError> {
        let mut a = request.clone();
        // what the descriptor says it describes (`ArtifactDescriptorResult.artifact`)
        let mut described = request.clone();
        let mut relocations: Vec<Artifact> = Vec::new();
        let mut visited: Vec<String> = Vec::new();
        loop {
            let mut coord =
                pom_coordinate(&a.group_id, &a.artifact_id, &a.version).map_err(|e| {
                    DescriptorError::Missing {
                        artifact: a.clone(),
                        described: described.clone(),
                        relocations: relocations.clone(),
                        source: Arc::new(e),
                    }
                })?;
            // `LATEST` and `RELEASE` are resolved first (`VersionResolver`): a missing POM is
            // then reported under the version they stood for.
            if matches!(a.version.as_str(), "LATEST" | "RELEASE") {
                match self
                    .shared
                    .downloader
                    .resolve_coordinate_version(&coord, repositories)
                    .await
                {
                    Ok(v) => {
                        a.version = v;
                        coord = coord.with_version(a.version.clone());
                    }
                    Err(e) => {
                        return Err(DescriptorError::Transfer {
                            artifact: a,
                            source: Arc::new(e),
                        })
                    }
                }
            }
            let key = format!(
                "{}:{}:{}",
                a.group_id,
                a.artifact_id,
                base_version(&a.version)
            );
            if visited.contains(&key) {
                visited.push(key);
                return Err(DescriptorError::Invalid {
                    artifact: a.clone(),
                    described,
                    relocations,
                    file: None,
                    problems: vec![ModelProblem::new(
                        Severity::Error,
                        a.to_string(),
                        format!("Artifact relocations form a cycle: {}", visited.join(" → ")),
                    )],
                    chain: Vec::new(),
                });
            }
            visited.push(key);
            let file = match self
                .shared
                .downloader
                .fetch_coordinate(&coord, repositories)
                .await
            {
                Ok(r) => {
                    a.version = r.version.clone();
                    r.path
                }
                Err(e) if is_missing(&e) => {
                    return Err(DescriptorError::Missing {
                        artifact: a,
                        described,
                        relocations,
                        source: Arc::new(e),
                    })
                }
                Err(e) => {
                    return Err(DescriptorError::Transfer {
                        artifact: a,
                        source: Arc::new(e),
                    })
                }
            };
            let req = Request {
                file: file.clone(),
                project: false,
                level: MINIMAL,
                use_cache: true,
                properties: self.dependency_properties.clone(),
                first_phase_only: false,
            };
            let mut resolver = ModelResolver::for_dependencies(repositories.to_vec());
            let mut imports = Vec::new();
            let built = match builder::build(&self.shared, &req, &mut resolver, &mut imports).await
            {
                Ok(b) => b,
                Err(f) => {
                    if f.problems.iter().any(|p| p.unresolvable) {
                        return Err(DescriptorError::Unresolvable {
                            artifact: a,
                            chain: f.chain,
                            problems: f.problems,
                        });
                    }
                    return Err(DescriptorError::Invalid {
                        artifact: a,
                        described,
                        relocations,
                        file: Some(file),
                        problems: f.problems,
                        chain: f.chain,
                    });
                }
            };
            match built.model.relocation() {
                Some(r) => {
                    relocations.push(a.clone());
                    a = relocate(&a, &r);
                    described = a.clone();
                }
                None => {
                    let mut descriptor = to_descriptor(&built.model, false, management);
                    descriptor.artifact = Some(if relocations.is_empty() {
                        request.clone()
                    } else {
                        a.clone()
                    });
                    descriptor.relocations = relocations;
                    return Ok(describe(descriptor, built, file));
                }
            }
        }
    }

    /// The project model of a POM file (`m2r tree --pom FILE`): Maven's `DefaultModelBuilder`
    /// at validation level 3.0 with `relativePath` / `../pom.xml` parent lookup, POM
    /// repositories before `repositories`; its dependencies, dependencyManagement and
    /// repositories as a descriptor whose artifact is `g:a:pom:v`.
    pub async fn read_project(
        &self,
        pom: &Path,
        repositories: &[RemoteRepository],
    ) -> Result<ArtifactDescriptor, ModelBuildError> {
        self.build_project(pom, repositories)
            .await
            .map(|d| d.descriptor)
    }

    /// [`read_project`](Self::read_project) with the effective model and its explanations.
    pub async fn build_project(
        &self,
        pom: &Path,
        repositories: &[RemoteRepository],
    ) -> Result<Description, ModelBuildError> {
        self.build_project_with(
            pom,
            ModelResolver::for_project(repositories.to_vec()),
            false,
        )
        .await
    }

    /// A project of a reactor, as maven-core's `DefaultProjectBuilder` builds it in two phases:
    /// with `pool` `None`, phase 1 only (the model interpolated: modules and coordinates, no
    /// BOM imported, not validated as an effective model); with the reactor's `pool`, the whole
    /// build, imported BOMs that are modules read from their project files.
    pub async fn build_reactor_project(
        &self,
        pom: &Path,
        repositories: &[RemoteRepository],
        pool: Option<Arc<super::source::ReactorPool>>,
    ) -> Result<Description, ModelBuildError> {
        match pool {
            None => {
                self.build_project_with(
                    pom,
                    ModelResolver::for_project(repositories.to_vec()),
                    true,
                )
                .await
            }
            Some(pool) => {
                self.build_project_with(
                    pom,
                    ModelResolver::for_reactor_project(repositories.to_vec(), pool),
                    false,
                )
                .await
            }
        }
    }

    /// A value of a project's effective model (`${project.build.outputDirectory}`, a plugin's
    /// `${project.version}`) as its interpolation sees it: the session's user and system
    /// properties, the project directory of `model`'s file (build directories made absolute
    /// against it). `None` when an expression cannot be resolved.
    pub fn interpolate_project_value(&self, model: &Model, value: &str) -> Option<String> {
        let dir = model.project_directory();
        let source = model
            .pom_file
            .as_ref()
            .map(|f| f.display().to_string())
            .unwrap_or_default();
        let ctx = super::interpolate::Context {
            user_properties: &self.project_properties.user,
            system_properties: &self.project_properties.system,
            project_dir: dir.as_deref(),
            source: &source,
        };
        super::interpolate::interpolate_value(model, &ctx, value).ok()
    }

    async fn build_project_with(
        &self,
        pom: &Path,
        mut resolver: ModelResolver,
        first_phase_only: bool,
    ) -> Result<Description, ModelBuildError> {
        let file = std::path::absolute(pom).unwrap_or_else(|_| pom.to_path_buf());
        let req = Request {
            file: file.clone(),
            project: true,
            level: MAVEN_3_0,
            use_cache: false,
            properties: self.project_properties.clone(),
            first_phase_only,
        };
        let mut imports = Vec::new();
        let built = builder::build(&self.shared, &req, &mut resolver, &mut imports)
            .await
            .map_err(|f| ModelBuildError {
                file: file.clone(),
                problems: f.problems,
                chain: f.chain,
            })?;
        let m = &built.model;
        let mut descriptor = to_descriptor(m, true, true);
        let mut project = Artifact::new(
            m.group_id.clone().unwrap_or_default(),
            m.artifact_id.clone().unwrap_or_default(),
            "pom",
            "",
            m.version.clone().unwrap_or_default(),
        );
        // The project artifact's type is its packaging (`mvn dependency:tree`'s root line).
        project.type_id = Some(m.packaging.clone());
        descriptor.artifact = Some(project);
        Ok(describe(descriptor, built, file))
    }
}

fn describe(descriptor: ArtifactDescriptor, built: Built, file: PathBuf) -> Description {
    Description {
        descriptor,
        model: built.model,
        file,
        lineage: built.lineage,
        active_profiles: built.active_profiles,
        warnings: built.problems,
    }
}

/// `RelocatedArtifact`: the relocation's non-empty parts replace the artifact's.
fn relocate(a: &Artifact, r: &Relocation) -> Artifact {
    let pick = |new: &Option<String>, old: &str| {
        new.as_deref()
            .filter(|s| !s.is_empty())
            .unwrap_or(old)
            .to_string()
    };
    let mut out = a.clone();
    out.group_id = pick(&r.group_id, &a.group_id);
    out.artifact_id = pick(&r.artifact_id, &a.artifact_id);
    out.version = pick(&r.version, &a.version);
    out
}

/// A POM dependency as Resolver sees it. Dependency POMs (`ArtifactDescriptorReaderDelegate`):
/// an explicit classifier, even empty, wins over the type's; project files (maven-core's
/// `RepositoryUtils`): an empty classifier takes the type's.
fn convert(d: &PomDependency, project: bool) -> Dependency {
    let mut artifact = Artifact::from_type(
        d.group_id.clone().unwrap_or_default(),
        d.artifact_id.clone().unwrap_or_default(),
        &d.type_,
        d.classifier.as_deref().unwrap_or(""),
        d.version.clone().unwrap_or_default(),
    );
    if !project {
        if let Some(c) = &d.classifier {
            artifact.classifier = c.clone();
        }
    }
    artifact.local_path = d.system_path.clone().filter(|p| !p.is_empty());
    let mut exclusions: Vec<Exclusion> = Vec::new();
    for e in &d.exclusions {
        let x = Exclusion::pom(
            e.group_id.clone().unwrap_or_default(),
            e.artifact_id.clone().unwrap_or_default(),
        );
        if !exclusions.contains(&x) {
            exclusions.push(x);
        }
    }
    Dependency {
        artifact,
        scope: d.scope.clone().unwrap_or_default(),
        optional: d.optional.as_ref().map(|o| o.eq_ignore_ascii_case("true")),
        exclusions,
        scope_source: scope_source(d, project),
    }
}

/// Which parsed text the scope is ([`ScopeSource`]): the normalizer's `compile` is a constant;
/// otherwise the `<scope>` of the dependency or of the management entry that gave it. A project
/// and its parents are parsed by the project builder, apart from the same POMs read as
/// dependencies or parents of dependencies (another model cache): the realm is part of the name.
fn scope_source(d: &PomDependency, project: bool) -> ScopeSource {
    if d.trace.scope_defaulted || d.scope.is_none() {
        return ScopeSource::Literal;
    }
    let origin = match &d.trace.scope_from {
        Some(ManagedFrom::Declared(o)) => o,
        Some(ManagedFrom::Imported { entry, .. }) => entry,
        None => &d.origin,
    };
    let realm = if project { "project" } else { "repository" };
    ScopeSource::written(
        &format!("{realm} {}", origin.model),
        origin.pos.line,
        origin.pos.column,
    )
}

/// The descriptor of an effective model: its dependencies (converted as a project file's, or as
/// a dependency POM's: `project`), its dependency management (when `management`) and its
/// repositories; no artifact.
pub(crate) fn to_descriptor(m: &Model, project: bool, management: bool) -> ArtifactDescriptor {
    ArtifactDescriptor {
        artifact: None,
        relocations: Vec::new(),
        dependencies: m
            .base
            .dependencies
            .iter()
            .map(|d| convert(d, project))
            .collect(),
        managed_dependencies: if management {
            m.base
                .dependency_management
                .iter()
                .flatten()
                .map(|d| convert(d, project))
                .collect()
        } else {
            Vec::new()
        },
        repositories: m
            .base
            .repositories
            .iter()
            .map(to_remote_repository)
            .collect(),
    }
}
