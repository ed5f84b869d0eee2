//! Maven 3.8.7's `DefaultModelBuilder`, for the dependency view.
//!
//! Phase 1, per model of the lineage (the POM, its parents, the super POM): read and validate
//! the raw model; merge duplicate dependencies; select the active profiles and inject them;
//! add the model's repositories to the [`ModelResolver`]; find the parent — through
//! `relativePath` next to the file (a project's `../pom.xml`), else from the repositories — and
//! stop on a cycle. Then inheritance from the super POM down, interpolation of the POM, and the
//! interpolated repositories replace the raw ones in the resolver.
//!
//! Phase 2: `import`-scoped BOMs of `dependencyManagement` (each built the same way, with the
//! chain of imports to detect cycles; the first declaration of a key wins), management
//! injection, default scopes, and validation of the effective model. An ERROR anywhere makes
//! the build fail with all problems.

use super::interpolate::{interpolate_model_sharing, without_expressions, Context};
use super::merge;
use super::model::{Dependency, KnownEntries, Model, Origin, SharedEntries};
use super::problem::{has_errors, ModelProblem};
use super::profiles;
use super::source::{ModelResolver, ParentData, Shared};
use super::superpom::super_model;
use super::validate::{self, MAVEN_2_0, MINIMAL};
use crate::resolution::version::{Version, VersionConstraint};
use crate::settings::profiles::ActivationContext;
use crate::settings::Severity;
use std::collections::HashMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;

/// One model build.
#[derive(Debug, Clone)]
pub struct Request {
    /// The POM file.
    pub file: PathBuf,
    /// True for a project file (Maven's `pomFile`): `${basedir}`, strict reading whose
    /// complaints are errors.
    pub project: bool,
    /// Validation level ([`validate::MINIMAL`] for dependency POMs, [`validate::MAVEN_3_0`]
    /// for project files).
    pub level: u32,
    /// Use the session's caches of parents and imports (Maven's model cache; descriptor
    /// reading has one, the project build of the oracle does not).
    pub use_cache: bool,
    /// The properties profile activation and interpolation see.
    pub properties: Arc<Properties>,
    /// Stop after phase 1, as Maven's two-phase project building does before the reactor's
    /// models are known: the model is interpolated, but no BOM is imported, no management
    /// injected and the effective model not validated (a reactor reads modules and
    /// coordinates from it).
    pub first_phase_only: bool,
}

/// User and system properties of a build. Maven gives dependency POMs no user properties: the
/// session's `-D`s are merged into their system properties (so a POM's own `<properties>` win
/// over them), while a project file sees them as user properties (which win).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Properties {
    /// User properties.
    pub user: HashMap<String, String>,
    /// System properties.
    pub system: HashMap<String, String>,
    /// The platform's `os.*` and `path.separator`, which `os` activation reads whatever `-D`
    /// says (empty: `system` gives them).
    pub platform: HashMap<String, String>,
}

impl Properties {
    /// For dependency POMs: system properties with the user properties on top, no user
    /// properties (`DefaultArtifactDescriptorReader`).
    pub fn for_dependencies(
        user: &HashMap<String, String>,
        system: &HashMap<String, String>,
    ) -> Self {
        let mut merged = system.clone();
        merged.extend(user.iter().map(|(k, v)| (k.clone(), v.clone())));
        Properties {
            user: HashMap::new(),
            system: merged,
            platform: platform_of(system),
        }
    }
}

/// The keys of `system` that `os` activation reads (plexus `Os` took them from the JVM before
/// any `-D` applied).
pub fn platform_of(system: &HashMap<String, String>) -> HashMap<String, String> {
    ["os.name", "os.arch", "os.version", "path.separator"]
        .iter()
        .filter_map(|k| Some((k.to_string(), system.get(*k)?.clone())))
        .collect()
}

/// A built model.
#[derive(Debug, Clone)]
pub struct Built {
    /// The effective model.
    pub model: Model,
    /// Warnings met on the way.
    pub problems: Vec<ModelProblem>,
    /// The lineage, the POM first: `groupId:artifactId:version` and where each was read.
    pub lineage: Vec<(String, Option<PathBuf>)>,
    /// Active profiles as `model: id`.
    pub active_profiles: Vec<String>,
}

/// Why a build failed: every problem (at least one ERROR or FATAL) and the parent chain read so
/// far, the POM first.
#[derive(Debug, Clone)]
pub struct Failed {
    /// The problems.
    pub problems: Vec<ModelProblem>,
    /// `groupId:artifactId:version` of each POM read, the POM first.
    pub chain: Vec<String>,
}

type BuildFuture<'a> = Pin<Box<dyn Future<Output = Result<Built, Failed>> + Send + 'a>>;

struct Lineage {
    model: Model,
    file: Option<PathBuf>,
    id: String,
}

/// What a dependency POM's parent contributes to its build, the same for every child of that
/// parent (for builds with the session's caches): the parent with everything above it
/// inherited, and what reading that lineage did — problems, active profiles, repositories
/// added to the [`ModelResolver`], in order — to be done again for each child. Children of a
/// shared parent (a corporate parent, `make-graph-repo.py`'s) then inherit one merged model
/// instead of reading and merging the whole lineage every time.
#[derive(Debug)]
pub(crate) struct Ancestry {
    /// The parent after inheritance from its own parents and the super POM.
    merged: Model,
    /// Whether `merged`'s dependencies and dependency management have unique keys.
    unique: bool,
    /// `groupId:artifactId:version` and file of the parent and each POM above it.
    chain: Vec<(String, Option<PathBuf>)>,
    /// The ids the child's own id must not be among (else the parents form a cycle through it).
    parent_ids: Vec<String>,
    problems: Vec<ModelProblem>,
    active_profiles: Vec<String>,
    /// Repositories of each model of the lineage (after profile injection), in reading order.
    repositories: Vec<super::model::Repository>,
    /// Entries of `merged`'s management without expressions that pass the effective model's
    /// checks at the request's level: a child that inherits them (the same `Arc`s) neither
    /// interpolates nor validates them again.
    inert: SharedEntries,
    /// Every entry of `merged`'s management is in `inert`.
    all_inert: bool,
    /// An index of `merged`'s management when its keys are unique, for children whose
    /// management is exactly the inherited one.
    management_index: Option<merge::KeyIndex>,
}

impl Ancestry {
    /// The management facts of `merged` ([`inert`](Self::inert),
    /// [`management_index`](Self::management_index)) for builds at validation `level`.
    fn management_facts(
        merged: &Model,
        unique: bool,
        level: u32,
    ) -> (SharedEntries, bool, Option<merge::KeyIndex>) {
        let managed = merged
            .base
            .dependency_management
            .as_deref()
            .unwrap_or_default();
        let mut inert = SharedEntries::default();
        let mut all = true;
        for d in managed {
            if without_expressions(d) && validate::management_entry_valid(d, level) {
                inert.insert(d);
            } else {
                all = false;
            }
        }
        let index = (unique && !managed.is_empty()).then(|| merge::KeyIndex::last_of(managed));
        (inert, all, index)
    }

    /// What `model` (a child) can skip of its management, as it is now.
    fn known(&self, model: &Model) -> KnownEntries<'_> {
        KnownEntries {
            entries: &self.inert,
            whole_management: self.all_inert && self.manages(model),
        }
    }

    /// Whether `model`'s management is exactly the inherited one (the same entries).
    fn manages(&self, model: &Model) -> bool {
        match (
            &model.base.dependency_management,
            &self.merged.base.dependency_management,
        ) {
            (Some(own), Some(inherited)) => {
                own.len() == inherited.len()
                    && own.iter().zip(inherited).all(|(a, b)| Arc::ptr_eq(a, b))
            }
            _ => false,
        }
    }
}

/// Collects an [`Ancestry`] while the lineage above a child is read the long way.
struct Recording {
    key: String,
    problems: usize,
    active_profiles: usize,
    parent_ids: Vec<String>,
    repositories: Vec<super::model::Repository>,
}

/// Builds the effective model of `req.file`.
pub fn build<'a>(
    shared: &'a Shared,
    req: &'a Request,
    resolver: &'a mut ModelResolver,
    import_ids: &'a mut Vec<String>,
) -> BuildFuture<'a> {
    Box::pin(build_inner(shared, req, resolver, import_ids))
}

fn source_of(file: &Path) -> String {
    file.display().to_string()
}

/// `readModel`: parse (cached), strict complaints as Maven reports them, raw validation.
fn read_model(
    shared: &Shared,
    file: &Path,
    pom_file: Option<&Path>,
    level: u32,
    problems: &mut Vec<ModelProblem>,
) -> Option<Arc<Model>> {
    let parsed = shared.parse(file);
    let location = source_of(file);
    match &*parsed {
        Err(issue) => {
            let what = if issue.is_unreadable() {
                "Non-readable"
            } else {
                "Non-parseable"
            };
            problems.push(
                ModelProblem::new(
                    Severity::Fatal,
                    &location,
                    format!("{what} POM {location}: {}", issue.message),
                )
                .at(issue.pos),
            );
            None
        }
        Ok((model, strict_error)) => {
            if level >= MAVEN_2_0 {
                if let Some(e) = strict_error {
                    let severity = if pom_file.is_some() {
                        Severity::Error
                    } else {
                        Severity::Warning
                    };
                    problems.push(
                        ModelProblem::new(
                            severity,
                            &location,
                            format!("Malformed POM {location}: {}", e.message),
                        )
                        .at(e.pos),
                    );
                }
            }
            let m = match pom_file {
                None => model.clone(),
                Some(f) => {
                    let mut m = (**model).clone();
                    m.pom_file = Some(f.to_path_buf());
                    Arc::new(m)
                }
            };
            let raw = validate::validate_raw(&m, level, &location);
            let fatal = raw.iter().any(|p| p.severity == Severity::Fatal);
            problems.extend(raw);
            (!fatal).then_some(m)
        }
    }
}

fn fail(problems: Vec<ModelProblem>, lineage: &[Lineage]) -> Failed {
    Failed {
        problems,
        chain: lineage.iter().map(|l| l.id.clone()).collect(),
    }
}

fn properties_map(m: &Model) -> HashMap<String, String> {
    m.base
        .properties
        .iter()
        .map(|p| (p.key.clone(), p.value.clone()))
        .collect()
}

async fn build_inner(
    shared: &Shared,
    req: &Request,
    resolver: &mut ModelResolver,
    import_ids: &mut Vec<String>,
) -> Result<Built, Failed> {
    let mut problems = Vec::new();
    let (user, system) = (&req.properties.user, &req.properties.system);
    let pom_file = req.project.then_some(req.file.as_path());
    let Some(input) = read_model(shared, &req.file, pom_file, req.level, &mut problems) else {
        return Err(Failed {
            problems,
            chain: Vec::new(),
        });
    };
    let project_dir = if req.project {
        req.file.parent().map(Path::to_path_buf)
    } else {
        None
    };
    // Built for the first model of the lineage with profiles (it copies the properties).
    let mut activation: Option<ActivationContext> = None;

    let mut lineage: Vec<Lineage> = Vec::new();
    let mut active_profiles = Vec::new();
    let mut parent_ids: Vec<String> = Vec::new();
    let mut recording: Option<Recording> = None;
    let mut ancestry: Option<Arc<Ancestry>> = None;
    let mut current_raw: Arc<Model> = input;
    let mut current_file = Some(req.file.clone());
    let mut current_id = String::new();
    let mut is_super = false;
    loop {
        let mut tmp = (*current_raw).clone();
        merge::merge_duplicate_dependencies(&mut tmp);
        let label = tmp.label.to_string();
        let (active, found) = if current_raw.profiles.is_empty() {
            (Vec::new(), Vec::new())
        } else {
            let activation = activation.get_or_insert_with(|| ActivationContext {
                system_properties: system.clone().into(),
                user_properties: user.clone().into(),
                project_dir: project_dir.clone(),
                platform: req.properties.platform.clone(),
                ..ActivationContext::default()
            });
            profiles::select(
                &current_raw.profiles,
                activation,
                &properties_map(&tmp),
                current_file
                    .as_deref()
                    .map(source_of)
                    .as_deref()
                    .unwrap_or(&label),
            )
        };
        problems.extend(found);
        for i in active {
            let p = &current_raw.profiles[i];
            active_profiles.push(format!("{label}: {}", p.id));
            merge::inject_profile(&mut tmp, p);
        }
        if is_super {
            lineage.push(Lineage {
                model: tmp,
                file: None,
                id: String::new(),
            });
            break;
        }
        for r in &tmp.base.repositories {
            resolver.add_repository(r, false, &shared.selectors);
        }
        let first = lineage.is_empty();
        if let Some(rec) = recording.as_mut() {
            rec.repositories
                .extend(tmp.base.repositories.iter().cloned());
        }
        let parent = read_parent(
            shared,
            req,
            resolver,
            &tmp,
            current_file.as_deref(),
            first,
            &mut problems,
        )
        .await;
        let parent = match parent {
            Ok(p) => p,
            Err(()) => {
                let id = if first { tmp.id() } else { current_id };
                let parent_id = tmp.parent.as_ref().map(|p| p.id());
                lineage.push(Lineage {
                    model: tmp,
                    file: current_file,
                    id,
                });
                let mut failed = fail(problems, &lineage);
                failed.chain.extend(parent_id);
                return Err(failed);
            }
        };
        let this_id = if first {
            let p = parent.as_ref();
            format!(
                "{}:{}:{}",
                current_raw
                    .group_id
                    .clone()
                    .or_else(|| p.map(|p| p.group_id.clone()))
                    .unwrap_or_else(|| "null".into()),
                current_raw.artifact_id.as_deref().unwrap_or("null"),
                current_raw
                    .version
                    .clone()
                    .or_else(|| p.map(|p| p.version.clone()))
                    .unwrap_or_else(|| "null".into())
            )
        } else {
            current_id.clone()
        };
        lineage.push(Lineage {
            model: tmp,
            file: current_file.clone(),
            id: this_id.clone(),
        });
        match parent {
            None => {
                current_raw = super_model();
                current_file = None;
                is_super = true;
            }
            Some(p) => {
                if first {
                    if let Some(key) = ancestry_key(req, &p) {
                        match shared.cached_ancestry(&key) {
                            Some(a) if !a.parent_ids.contains(&this_id) => {
                                for r in &a.repositories {
                                    resolver.add_repository(r, false, &shared.selectors);
                                }
                                problems.extend(a.problems.iter().cloned());
                                active_profiles.extend(a.active_profiles.iter().cloned());
                                ancestry = Some(a);
                                break;
                            }
                            // A child whose id is among its parents': the long way finds the
                            // cycle.
                            Some(_) => {}
                            None => {
                                recording = Some(Recording {
                                    key,
                                    problems: problems.len(),
                                    active_profiles: active_profiles.len(),
                                    parent_ids: Vec::new(),
                                    repositories: Vec::new(),
                                })
                            }
                        }
                    }
                    parent_ids.push(this_id);
                } else if parent_ids.contains(&p.id()) {
                    let mut message = String::from("The parents form a cycle: ");
                    for id in &parent_ids {
                        message.push_str(id);
                        message.push_str(" -> ");
                    }
                    message.push_str(&p.id());
                    problems.push(ModelProblem::new(
                        Severity::Fatal,
                        source_of(&req.file),
                        message,
                    ));
                    let mut failed = fail(problems, &lineage);
                    failed.chain.push(p.id());
                    // Maven walks the loop once more before it notices; name it once, up to the
                    // first POM met twice.
                    if let Some(repeat) = (1..failed.chain.len())
                        .find(|&i| failed.chain[..i].contains(&failed.chain[i]))
                    {
                        failed.chain.truncate(repeat + 1);
                    }
                    return Err(failed);
                } else {
                    parent_ids.push(p.id());
                    if let Some(rec) = recording.as_mut() {
                        rec.parent_ids.push(p.id());
                    }
                }
                current_id = p.id();
                current_raw = p.raw.clone();
                current_file = Some(p.file.clone());
            }
        }
    }

    // Inheritance, from the super POM down.
    let mut chain: Vec<(String, Option<PathBuf>)> = lineage
        .iter()
        .filter(|l| !l.id.is_empty())
        .map(|l| (l.id.clone(), l.file.clone()))
        .collect();
    if let Some(a) = &ancestry {
        merge::inherit_from(&mut lineage[0].model, &a.merged, a.unique);
        chain.extend(a.chain.iter().cloned());
    } else {
        for i in (0..lineage.len() - 1).rev() {
            let (head, tail) = lineage.split_at_mut(i + 1);
            merge::inherit(&mut head[i].model, &tail[0].model);
        }
        if let (Some(rec), Some(parent)) = (recording, lineage.get(1)) {
            let unique = merge::unique_keys(&parent.model.base.dependencies)
                && parent
                    .model
                    .base
                    .dependency_management
                    .as_deref()
                    .is_none_or(merge::unique_keys);
            let (inert, all_inert, management_index) =
                Ancestry::management_facts(&parent.model, unique, req.level);
            shared.cache_ancestry(
                rec.key,
                Arc::new(Ancestry {
                    merged: parent.model.clone(),
                    unique,
                    inert,
                    all_inert,
                    management_index,
                    chain: chain[1..].to_vec(),
                    parent_ids: rec.parent_ids,
                    problems: problems[rec.problems..].to_vec(),
                    active_profiles: active_profiles[rec.active_profiles..].to_vec(),
                    repositories: rec.repositories,
                }),
            );
        }
    }
    let mut model = lineage.swap_remove(0).model;

    // Interpolation.
    for key in ["revision", "changelist", "sha1"] {
        if let Some(v) = user.get(key) {
            match model.base.properties.iter_mut().find(|p| p.key == key) {
                Some(p) => p.value = v.clone(),
                None => model.base.properties.push(super::model::Property {
                    key: key.to_string(),
                    value: v.clone(),
                    origin: Origin {
                        model: Arc::from("-D"),
                        ..Origin::default()
                    },
                }),
            }
        }
    }
    let source = source_of(&req.file);
    let ctx = Context {
        user_properties: user,
        system_properties: system,
        project_dir: project_dir.as_deref(),
        source: &source,
    };
    let known = ancestry.as_deref().map(|a| a.known(&model));
    problems.extend(interpolate_model_sharing(&mut model, &ctx, known));
    for r in &model.base.repositories {
        resolver.add_repository(r, true, &shared.selectors);
    }

    if req.first_phase_only {
        let chain_ids: Vec<String> = chain.iter().map(|(id, _)| id.clone()).collect();
        if has_errors(&problems) {
            return Err(Failed {
                problems,
                chain: chain_ids,
            });
        }
        return Ok(Built {
            model,
            problems,
            lineage: chain,
            active_profiles,
        });
    }

    // Phase 2.
    import_management(shared, req, resolver, &mut model, &mut problems, import_ids).await;
    let index = ancestry
        .as_deref()
        .filter(|a| a.manages(&model))
        .and_then(|a| a.management_index.as_ref());
    merge::inject_management_indexed(&mut model, index);
    merge::inject_default_scopes(&mut model);
    problems.extend(validate::validate_effective_sharing(
        &model,
        req.level,
        &source_of(&req.file),
        ancestry.as_deref().map(|a| a.known(&model)),
    ));
    let chain_ids: Vec<String> = chain.iter().map(|(id, _)| id.clone()).collect();
    if has_errors(&problems) {
        return Err(Failed {
            problems,
            chain: chain_ids,
        });
    }
    Ok(Built {
        model,
        problems,
        lineage: chain,
        active_profiles,
    })
}

/// Where the [`Ancestry`] of a child's parent `p` is remembered: only for builds that use the
/// session's caches (parents are then the same for every child), by what the lineage above
/// depends on — the parent read, the properties and the validation level.
fn ancestry_key(req: &Request, p: &ParentData) -> Option<String> {
    (req.use_cache && !req.project).then(|| {
        format!(
            "{:p}|{}|{:p}|{}",
            Arc::as_ptr(&req.properties),
            req.level,
            Arc::as_ptr(&p.raw),
            p.file.display()
        )
    })
}

/// `readParent`: locally through `relativePath` when the file there is the declared parent,
/// else from the repositories (cached per session for dependency POMs).
async fn read_parent(
    shared: &Shared,
    req: &Request,
    resolver: &ModelResolver,
    child: &Model,
    child_file: Option<&Path>,
    child_is_root: bool,
    problems: &mut Vec<ModelProblem>,
) -> Result<Option<ParentData>, ()> {
    let Some(parent) = &child.parent else {
        return Ok(None);
    };
    let g = parent.group_id.clone().unwrap_or_default();
    let a = parent.artifact_id.clone().unwrap_or_default();
    let v = parent.version.clone().unwrap_or_default();
    let key = format!(
        "{g}:{a}:{v}|{}",
        super::source::repositories_key(resolver.repositories())
    );
    let cached = if req.use_cache {
        shared.cached_parent(&key)
    } else {
        None
    };
    let data = match cached {
        Some(d) => d,
        None => {
            let local =
                read_parent_locally(shared, req, child, child_file, child_is_root, problems)?;
            match local {
                Some(d) => d,
                None => {
                    let d = read_parent_externally(
                        shared,
                        req,
                        resolver,
                        child,
                        child_file,
                        child_is_root,
                        problems,
                    )
                    .await?;
                    if req.use_cache {
                        shared.cache_parent(key, d.clone());
                    }
                    d
                }
            }
        }
    };
    if data.raw.packaging != "pom" {
        problems.push(
            ModelProblem::new(
                Severity::Error,
                source_of(&data.file),
                format!(
                    "Invalid packaging for parent POM {}, must be \"pom\" but is \"{}\"",
                    data.raw.id(),
                    data.raw.packaging
                ),
            )
            .at(Some(parent.pos)),
        );
    }
    Ok(Some(data))
}

fn related_file(child_file: &Path, relative: &str) -> Option<PathBuf> {
    let dir = child_file.parent()?;
    let mut candidate = dir.join(relative.replace('\\', "/"));
    if candidate.is_dir() {
        candidate = candidate.join("pom.xml");
    }
    if !candidate.is_file() {
        return None;
    }
    // URI.normalize: drop `.` and `x/..`.
    let mut out = PathBuf::new();
    for c in candidate.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    Some(out)
}

fn read_parent_locally(
    shared: &Shared,
    req: &Request,
    child: &Model,
    child_file: Option<&Path>,
    child_is_root: bool,
    problems: &mut Vec<ModelProblem>,
) -> Result<Option<ParentData>, ()> {
    let Some(parent) = &child.parent else {
        return Ok(None);
    };
    let Some(child_file) = child_file else {
        return Ok(None);
    };
    if parent.relative_path.is_empty() {
        return Ok(None);
    }
    let Some(candidate) = related_file(child_file, &parent.relative_path) else {
        return Ok(None);
    };
    let Some(model) = read_model(shared, &candidate, Some(&candidate), req.level, problems) else {
        return Err(());
    };
    let g = model
        .group_id
        .clone()
        .or_else(|| model.parent.as_ref().and_then(|p| p.group_id.clone()));
    let a = model.artifact_id.clone();
    let v = model
        .version
        .clone()
        .or_else(|| model.parent.as_ref().and_then(|p| p.version.clone()));
    if g.is_none() || g != parent.group_id || a.is_none() || a != parent.artifact_id {
        let mut message = String::from("'parent.relativePath'");
        if !child_is_root {
            message.push_str(&format!(" of POM {}", child.id()));
        }
        message.push_str(&format!(
            " points at {}:{} instead of {}:{}, please verify your project structure",
            g.as_deref().unwrap_or("null"),
            a.as_deref().unwrap_or("null"),
            parent.group_id.as_deref().unwrap_or("null"),
            parent.artifact_id.as_deref().unwrap_or("null")
        ));
        problems.push(
            ModelProblem::new(
                Severity::Warning,
                child_source(child, Some(child_file)),
                message,
            )
            .at(Some(parent.pos)),
        );
        return Ok(None);
    }
    if let (Some(v), Some(pv)) = (&v, &parent.version) {
        if v != pv {
            if !local_parent_version_fits(pv, v) {
                return Ok(None);
            }
            check_constant_version(child, &child_source(child, Some(child_file)), problems);
        }
    }
    Ok(Some(ParentData {
        raw: model,
        file: candidate,
        group_id: g.unwrap_or_default(),
        artifact_id: a.unwrap_or_default(),
        version: v.unwrap_or_default(),
    }))
}

/// Whether a local parent of version `candidate` stands for the declared `parent.version`
/// that differs from it (`readParentLocally`): only when the declaration is a range that
/// contains it; a plain version (skew) or an invalid range sends the build to the
/// repositories. (Maven checks with maven-artifact's `VersionRange`; Resolver's generic
/// ranges order the same way for the versions projects use.)
fn local_parent_version_fits(declared: &str, candidate: &str) -> bool {
    match VersionConstraint::parse(declared) {
        Ok(VersionConstraint::Range(r)) => r.contains(&Version::parse(candidate)),
        Ok(VersionConstraint::Version(_)) | Err(_) => false,
    }
}

/// A parent found through a range may not give the child its version: "Version must be a
/// constant" when the child inherits it or takes it from the parent's.
fn check_constant_version(child: &Model, source: &str, problems: &mut Vec<ModelProblem>) {
    let Some(parent) = &child.parent else {
        return;
    };
    let inherited = match child.version.as_deref() {
        None => true,
        Some(v) => references_parent_version(v),
    };
    if inherited {
        problems.push(
            ModelProblem::new(Severity::Fatal, source, "Version must be a constant")
                .at(Some(parent.pos)),
        );
    }
}

/// How problems name a POM: its file when known, else its coordinates.
fn child_source(child: &Model, file: Option<&Path>) -> String {
    file.map(source_of)
        .unwrap_or_else(|| child.label.to_string())
}

fn references_parent_version(v: &str) -> bool {
    matches!(
        v,
        "${pom.version}"
            | "${project.version}"
            | "${pom.parent.version}"
            | "${project.parent.version}"
    )
}

async fn read_parent_externally(
    shared: &Shared,
    req: &Request,
    resolver: &ModelResolver,
    child: &Model,
    child_file: Option<&Path>,
    child_is_root: bool,
    problems: &mut Vec<ModelProblem>,
) -> Result<ParentData, ()> {
    let Some(parent) = &child.parent else {
        return Err(());
    };
    let source = child_source(child, child_file);
    let g = parent.group_id.clone().unwrap_or_default();
    let a = parent.artifact_id.clone().unwrap_or_default();
    let declared = parent.version.clone().unwrap_or_default();
    let unresolvable = |message: String, problems: &mut Vec<ModelProblem>| {
        let id = format!("{g}:{a}:{declared}");
        let mut text = String::from("Non-resolvable parent POM");
        if !(message.contains(&g) && message.contains(&a) && message.contains(&declared)) {
            text.push_str(&format!(" {id}"));
        }
        if !child_is_root {
            text.push_str(&format!(" for {}", child.id()));
        }
        text.push_str(&format!(": {message}"));
        if child.pom_file.is_some() {
            if parent.relative_path.is_empty() {
                text.push_str(" and 'parent.relativePath' points at no local POM");
            } else {
                text.push_str(" and 'parent.relativePath' points at wrong local POM");
            }
        }
        problems.push(
            ModelProblem::new(Severity::Fatal, &source, text)
                .at(Some(parent.pos))
                .unresolvable(),
        );
    };
    let version = match resolver
        .resolve_parent_version(shared, &g, &a, &declared)
        .await
    {
        Ok(v) => v,
        Err(e) => {
            unresolvable(e, problems);
            return Err(());
        }
    };
    let file = match resolver.resolve_model(shared, &g, &a, &version).await {
        Ok(f) => f,
        Err(e) => {
            unresolvable(e, problems);
            return Err(());
        }
    };
    let lenient = req.level.min(MAVEN_2_0);
    let Some(model) = read_model(shared, &file, None, lenient, problems) else {
        return Err(());
    };
    if version != declared {
        check_constant_version(child, &source, problems);
    }
    Ok(ParentData {
        raw: model,
        file,
        group_id: g,
        artifact_id: a,
        version,
    })
}

/// `importDependencyManagement`: replaces `import` entries by the BOMs' management.
async fn import_management(
    shared: &Shared,
    req: &Request,
    resolver: &ModelResolver,
    model: &mut Model,
    problems: &mut Vec<ModelProblem>,
    import_ids: &mut Vec<String>,
) {
    let is_import = |d: &Dependency| d.type_ == "pom" && d.scope.as_deref() == Some("import");
    // Most managements import nothing (a corporate parent's hundreds of entries, inherited by
    // every child): they stay as they are.
    let Some(dm) = model
        .base
        .dependency_management
        .take_if(|dm| dm.iter().any(|d| is_import(d)))
    else {
        return;
    };
    let importing = format!(
        "{}:{}:{}",
        model.group_id.as_deref().unwrap_or("null"),
        model.artifact_id.as_deref().unwrap_or("null"),
        model.version.as_deref().unwrap_or("null")
    );
    import_ids.push(importing.clone());
    let source = source_of(&req.file);
    let mut kept = Vec::with_capacity(dm.len());
    let mut imports: Vec<Vec<Arc<Dependency>>> = Vec::new();
    for d in dm {
        if !is_import(&d) {
            kept.push(d);
            continue;
        }
        let pos = Some(d.origin.pos);
        let key = d.management_key();
        let missing = |field: &str| {
            ModelProblem::new(
                Severity::Error,
                &source,
                format!(
                    "'dependencyManagement.dependencies.dependency.{field}' for {key} is missing."
                ),
            )
            .at(pos)
        };
        let (g, a, v) = match (&d.group_id, &d.artifact_id, &d.version) {
            (Some(g), Some(a), Some(v)) if !g.is_empty() && !a.is_empty() && !v.is_empty() => {
                (g.clone(), a.clone(), v.clone())
            }
            (g, a, _) => {
                let field = if g.as_deref().is_none_or(str::is_empty) {
                    "groupId"
                } else if a.as_deref().is_none_or(str::is_empty) {
                    "artifactId"
                } else {
                    "version"
                };
                problems.push(missing(field));
                continue;
            }
        };
        let imported = format!("{g}:{a}:{v}");
        if import_ids.contains(&imported) {
            let mut message =
                String::from("The dependencies of type=pom and with scope=import form a cycle: ");
            for id in import_ids.iter() {
                message.push_str(id);
                message.push_str(" -> ");
            }
            message.push_str(&imported);
            problems.push(ModelProblem::new(Severity::Error, &source, message).at(pos));
            continue;
        }
        // Imports are cached even for project files (where Maven has no model cache): the
        // answer is the same, and diamonds of BOMs importing BOMs stay linear. Builds that see
        // different properties (dependency POMs, project files) or repositories do not share
        // entries.
        let cache_key = format!(
            "{:p}|{imported}|{}{}",
            Arc::as_ptr(&req.properties),
            super::source::repositories_key(resolver.repositories()),
            resolver.pool_key()
        );
        let cached = shared.cached_import(&cache_key);
        let managed = match cached {
            Some(m) => m,
            None => {
                let file = match resolver.resolve_import(shared, &g, &a, &v).await {
                    Ok(f) => f,
                    Err(e) => {
                        let mut text = String::from("Non-resolvable import POM");
                        if !(e.contains(&g) && e.contains(&a) && e.contains(&v)) {
                            text.push_str(&format!(" {imported}"));
                        }
                        text.push_str(&format!(": {e}"));
                        text.push_str(&format!(
                            " (import chain {} → import {imported})",
                            import_ids.join(" → import ")
                        ));
                        problems.push(
                            ModelProblem::new(Severity::Error, &source, text)
                                .at(pos)
                                .unresolvable(),
                        );
                        continue;
                    }
                };
                let sub = Request {
                    file,
                    project: false,
                    level: MINIMAL,
                    use_cache: req.use_cache,
                    properties: req.properties.clone(),
                    first_phase_only: false,
                };
                // The BOM's own parents and imports come from the reactor too (Maven builds it
                // with the project's resolver, whose model pool is filled by then).
                let mut copy = resolver.clone().in_second_phase();
                match build(shared, &sub, &mut copy, import_ids).await {
                    Err(f) => {
                        problems.extend(f.problems);
                        continue;
                    }
                    Ok(built) => {
                        problems.extend(built.problems);
                        let m =
                            Arc::new(built.model.base.dependency_management.unwrap_or_default());
                        shared.cache_import(cache_key.clone(), m.clone());
                        m
                    }
                }
            }
        };
        // The entries as this declaration imports them (the chain of BOMs, where the import
        // was written): shared by every model that inherits the declaration.
        let origin = &d.origin;
        let traced_key = format!(
            "{cache_key}|{}|{}:{}|{}",
            origin.model,
            origin.pos.line,
            origin.pos.column,
            origin.profile.as_deref().unwrap_or("")
        );
        let entries = match shared.cached_traced_import(&traced_key) {
            Some(entries) => entries,
            None => {
                let entries: Arc<Vec<Arc<Dependency>>> = Arc::new(
                    managed
                        .iter()
                        .map(|e| {
                            let mut e = (**e).clone();
                            let boms = match e.trace.imported.take() {
                                Some((mut chain, _)) => {
                                    chain.insert(0, imported.clone());
                                    chain
                                }
                                None => vec![imported.clone()],
                            };
                            e.trace.imported = Some((boms, origin.clone()));
                            Arc::new(e)
                        })
                        .collect(),
                );
                shared.cache_traced_import(traced_key, entries.clone());
                entries
            }
        };
        let entries = entries.to_vec();
        imports.push(entries);
    }
    if let Some(i) = import_ids.iter().rposition(|x| *x == importing) {
        import_ids.remove(i);
    }
    model.base.dependency_management = Some(kept);
    merge::import_management(model, imports);
}

#[cfg(test)]
mod tests {
    use super::local_parent_version_fits;

    #[test]
    fn a_local_parent_stands_for_a_range_that_contains_it() {
        let table = [
            ("[1,2)", "1", true),
            ("[1,2)", "1.5-SNAPSHOT", true),
            ("[1,2)", "2", false),
            ("(,1.0]", "1", true),
            ("[1,2),[3,4)", "3.1", true),
            ("[2]", "2.0", true),
            ("2", "1", false),
            ("[1,2", "1", false),
            ("", "1", false),
        ];
        for (declared, candidate, fits) in table {
            assert_eq!(
                local_parent_version_fits(declared, candidate),
                fits,
                "{declared} {candidate}"
            );
        }
    }
}
