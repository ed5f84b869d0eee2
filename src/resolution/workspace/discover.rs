//! Reading a reactor from an aggregator's POM as Maven 3.8.7's `DefaultGraphBuilder` and
//! `DefaultProjectBuilder.build(List<File>, recursive, ...)` do.
//!
//! Phase 1, from the aggregator down: each project file's model up to interpolation (parents
//! found by `relativePath`, else in the repositories; profiles activated), then its
//! `<modules>` — the effective model's, so the modules of active profiles follow the POM's own —
//! in order: a module is a folder holding `pom.xml` or a file, relative to the aggregator's
//! folder; an empty entry is skipped; one that does not exist ("Child module … does not
//! exist") or that is already on the way down ("… forms aggregation cycle …") is an error of
//! the aggregator. Phase 2: every project built completely, `import`-scoped BOMs that are
//! projects of the reactor read from their files (maven-core's `ReactorModelPool`, filled from
//! phase 1); the projects are collected modules first, then their aggregator (an aggregator
//! that is not its modules' parent is built after them). Any project that fails makes the
//! reactor fail, with every failure. Then [`super::sort`] orders them.
//!
//! What a [`Module`] keeps of each effective model: the main artifact (packaging as type), the
//! descriptor as a root (the project file's dependency conversion) and as a dependency of
//! another module (a dependency POM's), `build.outputDirectory` and `build.testOutputDirectory`
//! (absolute), and the reactor edges: dependencies, parent, build plugins (version from
//! plugin management when absent) with their dependencies, and build extensions.
//!
//! Not supported: `-P` for POM profiles (as for single projects), a parent found only in the
//! reactor pool (Maven's phase 1 has no pool either), `-pl`/`-am` selections.

use super::sort::{reactor_order, Coordinates, PluginUse, SortError, SortInput};
use super::{Module, Workspace};
use crate::repository::RemoteRepository;
use crate::resolution::artifact::Artifact;
use crate::resolution::pom::descriptor::to_descriptor;
use crate::resolution::pom::model::Model;
use crate::resolution::pom::source::ReactorPool;
use crate::resolution::pom::{Description, DescriptorReader, ModelBuildError};
use crate::xml::XNode;
use futures_util::future::{join_all, BoxFuture, FutureExt};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// Why one project of a reactor could not be read.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ProjectFailure {
    /// Its model could not be built.
    #[error(transparent)]
    Model(#[from] ModelBuildError),
    /// A `<module>` names nothing.
    #[error("Child module {} of {} does not exist", module.display(), aggregator.display())]
    MissingModule {
        /// The module file (or folder) looked for.
        module: PathBuf,
        /// The POM that lists it.
        aggregator: PathBuf,
    },
    /// A `<module>` names a POM that aggregates it (directly or not).
    #[error("Child module {} of {} forms aggregation cycle {}", module.display(), aggregator.display(), chain.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(" -> "))]
    AggregationCycle {
        /// The module file.
        module: PathBuf,
        /// The POM that lists it.
        aggregator: PathBuf,
        /// The aggregators on the way down, then the module.
        chain: Vec<PathBuf>,
    },
}

/// Why a reactor could not be read or ordered.
#[derive(Debug, Clone, thiserror::Error)]
pub enum WorkspaceError {
    /// Projects could not be read (Maven: "The build could not read N projects").
    #[error("the build could not read {} project(s): {}", failures.len(), failures.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Projects {
        /// Every failure, in the order the projects were read.
        failures: Vec<ProjectFailure>,
        /// Whether the aggregator itself (the POM given) is among the projects whose model
        /// could not be built (when it fails in phase 1, nothing else was read).
        root: bool,
    },
    /// The projects cannot be ordered (a duplicate or a cycle), as Maven reports it.
    #[error(transparent)]
    Order(#[from] SortError),
}

/// A project after phase 1, with its modules.
struct Interim {
    file: PathBuf,
    modules: Vec<Interim>,
}

/// Phase 1 of a project and everything below it: the projects read (with the reactor pool
/// they fill) and the failures.
type Phase1 = (Option<(Interim, ReactorPool)>, Vec<ProjectFailure>);

/// `new File(uri).normalize()`: `.` and `..` resolved without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The module files an aggregator lists (`DefaultProjectBuilder`'s loop), or the failures.
fn module_files(
    model: &Model,
    pom: &Path,
    on_the_way: &[PathBuf],
    failures: &mut Vec<ProjectFailure>,
) -> Vec<PathBuf> {
    let basedir = pom.parent().unwrap_or(Path::new(""));
    let mut files = Vec::new();
    for module in &model.base.modules {
        if module.is_empty() {
            continue;
        }
        let mut file = basedir.join(module.replace('\\', "/"));
        if file.is_dir() {
            file = file.join("pom.xml");
        }
        if !file.is_file() {
            failures.push(ProjectFailure::MissingModule {
                module: file,
                aggregator: pom.to_path_buf(),
            });
            continue;
        }
        let file = normalize(&file);
        if on_the_way.contains(&file) {
            let mut chain = on_the_way.to_vec();
            chain.push(file.clone());
            failures.push(ProjectFailure::AggregationCycle {
                module: file,
                aggregator: pom.to_path_buf(),
                chain,
            });
            continue;
        }
        files.push(file);
    }
    files
}

struct Reading<'a> {
    reader: &'a DescriptorReader,
    repositories: &'a [RemoteRepository],
}

impl Reading<'_> {
    /// Phase 1 of `file` and, recursively, of its modules (siblings read concurrently).
    fn phase1<'b>(&'b self, file: PathBuf, on_the_way: Vec<PathBuf>) -> BoxFuture<'b, Phase1> {
        async move {
            let mut failures = Vec::new();
            let built = self
                .reader
                .build_reactor_project(&file, self.repositories, None)
                .await;
            let d = match built {
                Ok(d) => d,
                Err(e) => return (None, vec![ProjectFailure::Model(e)]),
            };
            let mut pool = ReactorPool::new();
            let m = &d.model;
            pool.insert(
                format!(
                    "{}:{}:{}",
                    m.group_id.as_deref().unwrap_or_default(),
                    m.artifact_id.as_deref().unwrap_or_default(),
                    m.version.as_deref().unwrap_or_default()
                ),
                file.clone(),
            );
            let files = module_files(m, &file, &on_the_way, &mut failures);
            let reads = files.into_iter().map(|f| {
                let mut way = on_the_way.clone();
                way.push(f.clone());
                self.phase1(f, way)
            });
            let mut modules = Vec::new();
            for (interim, more) in join_all(reads).await {
                failures.extend(more);
                if let Some((interim, p)) = interim {
                    pool.extend(p);
                    modules.push(interim);
                }
            }
            (Some((Interim { file, modules }, pool)), failures)
        }
        .boxed()
    }
}

/// The project files in Maven's collection order: each aggregator's modules (recursively),
/// then the aggregator.
fn post_order(interim: &Interim, out: &mut Vec<PathBuf>) {
    for m in &interim.modules {
        post_order(m, out);
    }
    out.push(interim.file.clone());
}

/// The text of a child element, interpolated as the project's model.
fn value(reader: &DescriptorReader, model: &Model, x: &XNode, name: &str) -> Option<String> {
    let raw = x.child_text(name)?;
    Some(
        reader
            .interpolate_project_value(model, raw)
            .unwrap_or_else(|| raw.to_string()),
    )
}

fn coordinates(
    reader: &DescriptorReader,
    model: &Model,
    x: &XNode,
    default_group: &str,
) -> Coordinates {
    Coordinates::new(
        value(reader, model, x, "groupId").unwrap_or_else(|| default_group.to_string()),
        value(reader, model, x, "artifactId").unwrap_or_default(),
        value(reader, model, x, "version").unwrap_or_default(),
    )
}

fn children<'x>(x: &'x XNode, path: &[&str]) -> Vec<&'x XNode> {
    let mut node = x;
    for p in &path[..path.len().saturating_sub(1)] {
        match node.child(p) {
            Some(n) => node = n,
            None => return Vec::new(),
        }
    }
    let last = path.last().copied().unwrap_or_default();
    node.children.iter().filter(|c| c.name == last).collect()
}

/// The effective build's plugins (with their dependencies) and extensions: every layer of
/// `build` (the model's, its profiles', its parents'), each plugin once by
/// `groupId:artifactId` in the order first met from the outermost layer in, its version the
/// innermost one written, else plugin management's.
fn build_edges(reader: &DescriptorReader, model: &Model) -> (Vec<PluginUse>, Vec<Coordinates>) {
    const PLUGINS: &str = "org.apache.maven.plugins";
    let layers: Vec<&XNode> = model.extra_layers("build").collect();
    let mut plugins: Vec<PluginUse> = Vec::new();
    let mut extensions: Vec<Coordinates> = Vec::new();
    for layer in layers.iter().rev() {
        for p in children(layer, &["plugins", "plugin"]) {
            let c = coordinates(reader, model, p, PLUGINS);
            let deps: Vec<Coordinates> = children(p, &["dependencies", "dependency"])
                .into_iter()
                .map(|d| coordinates(reader, model, d, ""))
                .collect();
            match plugins
                .iter_mut()
                .find(|u| u.plugin.group_id == c.group_id && u.plugin.artifact_id == c.artifact_id)
            {
                Some(u) => {
                    if !c.version.is_empty() {
                        u.plugin.version = c.version;
                    }
                    for d in deps {
                        if !u.dependencies.contains(&d) {
                            u.dependencies.push(d);
                        }
                    }
                }
                None => plugins.push(PluginUse {
                    plugin: c,
                    dependencies: deps,
                }),
            }
        }
        for e in children(layer, &["extensions", "extension"]) {
            let c = coordinates(reader, model, e, PLUGINS);
            match extensions
                .iter_mut()
                .find(|x| x.group_id == c.group_id && x.artifact_id == c.artifact_id)
            {
                Some(x) => *x = c,
                None => extensions.push(c),
            }
        }
    }
    for u in plugins.iter_mut().filter(|u| u.plugin.version.is_empty()) {
        let managed = layers.iter().find_map(|layer| {
            children(layer, &["pluginManagement", "plugins", "plugin"])
                .into_iter()
                .map(|p| coordinates(reader, model, p, PLUGINS))
                .find(|c| {
                    c.group_id == u.plugin.group_id
                        && c.artifact_id == u.plugin.artifact_id
                        && !c.version.is_empty()
                })
        });
        if let Some(m) = managed {
            u.plugin.version = m.version;
        }
    }
    (plugins, extensions)
}

/// The [`Module`] of a project's effective model.
pub(crate) fn module_of(reader: &DescriptorReader, d: Description) -> Module {
    let m = &d.model;
    let g = m.group_id.clone().unwrap_or_default();
    let a = m.artifact_id.clone().unwrap_or_default();
    let v = m.version.clone().unwrap_or_default();
    let artifact = Artifact::from_type(g.clone(), a.clone(), &m.packaging, "", v.clone());
    let dir = |expr: &str| reader.interpolate_project_value(m, expr).map(PathBuf::from);
    let (plugins, extensions) = build_edges(reader, m);
    let edges = SortInput {
        project: Coordinates::new(g, a, v),
        dependencies: m
            .base
            .dependencies
            .iter()
            .map(|d| {
                Coordinates::new(
                    d.group_id.clone().unwrap_or_default(),
                    d.artifact_id.clone().unwrap_or_default(),
                    d.version.clone().unwrap_or_default(),
                )
            })
            .collect(),
        parent: m.parent.as_ref().map(|p| {
            Coordinates::new(
                p.group_id.clone().unwrap_or_default(),
                p.artifact_id.clone().unwrap_or_default(),
                p.version.clone().unwrap_or_default(),
            )
        }),
        plugins,
        extensions,
    };
    Module {
        packaging: m.packaging.clone(),
        pom: Some(d.file.clone()),
        output_directory: dir("${project.build.outputDirectory}"),
        test_output_directory: dir("${project.build.testOutputDirectory}"),
        descriptor: Arc::new(to_descriptor(m, false, true)),
        project: Arc::new(d.descriptor),
        active_profiles: d.active_profiles,
        files: Vec::new(),
        edges,
        artifact,
    }
}

/// Whether the POM file lists modules, in its own `<modules>` or a profile's (as written, before
/// any model is built): a POM that does not is a single project, never a reactor. `false` when
/// it cannot be read.
pub fn lists_modules(pom: &Path) -> bool {
    let Ok(bytes) =
        crate::bounded::read_regular_file(pom, crate::resolution::pom::source::MAX_POM_BYTES)
    else {
        return false;
    };
    let Ok(text) = crate::resolution::pom::xml::read_pom(&bytes) else {
        return false;
    };
    let model = crate::resolution::pom::model::from_xnode(text.root, "");
    !model.base.modules.is_empty() || model.profiles.iter().any(|p| !p.base.modules.is_empty())
}

/// Reads the reactor of `pom` (see the [module documentation](self)): the POM and its modules,
/// recursively, in reactor order. `repositories` are those the build starts from (injected);
/// the reader's session properties interpolate the models.
pub async fn read(
    reader: &DescriptorReader,
    pom: &Path,
    repositories: &[RemoteRepository],
) -> Result<Workspace, WorkspaceError> {
    let root = normalize(&std::path::absolute(pom).unwrap_or_else(|_| pom.to_path_buf()));
    let reading = Reading {
        reader,
        repositories,
    };
    let (interim, mut failures) = reading.phase1(root.clone(), vec![root.clone()]).await;
    let Some((interim, pool)) = interim else {
        return Err(WorkspaceError::Projects {
            failures,
            root: true,
        });
    };
    let pool = Arc::new(pool);
    let mut files = Vec::new();
    post_order(&interim, &mut files);
    let builds = files
        .iter()
        .map(|f| reader.build_reactor_project(f, repositories, Some(pool.clone())));
    let mut modules = Vec::new();
    for built in join_all(builds).await {
        match built {
            Ok(d) => modules.push(module_of(reader, d)),
            Err(e) => failures.push(ProjectFailure::Model(e)),
        }
    }
    if !failures.is_empty() {
        let root_failed = failures
            .iter()
            .any(|f| matches!(f, ProjectFailure::Model(e) if normalize(&e.file) == root));
        return Err(WorkspaceError::Projects {
            failures,
            root: root_failed,
        });
    }
    let inputs: Vec<SortInput> = modules.iter().map(|m| m.edges.clone()).collect();
    let order = reactor_order(&inputs)?;
    let mut slots: Vec<Option<Module>> = modules.into_iter().map(Some).collect();
    let sorted: Vec<Module> = order
        .into_iter()
        .filter_map(|i| slots.get_mut(i).and_then(Option::take))
        .collect();
    Ok(Workspace::in_order(sorted, Some(root)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_paths_are_normalized_lexically() {
        let table = [
            ("/r/./a/pom.xml", "/r/a/pom.xml"),
            ("/r/a/../b/pom.xml", "/r/b/pom.xml"),
            ("/r/a/b/../../c/pom.xml", "/r/c/pom.xml"),
            ("rel/../x", "x"),
        ];
        for (input, want) in table {
            assert_eq!(normalize(Path::new(input)), PathBuf::from(want), "{input}");
        }
    }

    /// Writes `files` (path, POM body inside `<project>`) under a temporary folder and reads the
    /// reactor of its `pom.xml` offline (no repository): the module ids in reactor order, or
    /// the error.
    async fn reactor(files: &[(&str, &str)]) -> Result<Vec<String>, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        for (path, body) in files {
            let file = dir.path().join(path);
            std::fs::create_dir_all(file.parent().unwrap_or(dir.path()))
                .map_err(|e| e.to_string())?;
            std::fs::write(
                &file,
                format!("<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId>{body}</project>"),
            )
            .map_err(|e| e.to_string())?;
        }
        let config = crate::download::DownloaderConfig::new(dir.path().join("local"));
        let resolver = crate::download::Downloader::new(config).map_err(|e| e.to_string())?;
        let reader = DescriptorReader::new(
            resolver,
            crate::repository::Selectors::default(),
            Default::default(),
            Default::default(),
        );
        read(&reader, &dir.path().join("pom.xml"), &[])
            .await
            .map(|ws| {
                ws.modules()
                    .iter()
                    .map(|m| m.artifact.artifact_id.clone())
                    .collect()
            })
            .map_err(|e| {
                e.to_string()
                    .replace(&dir.path().display().to_string(), "DIR")
            })
    }

    fn agg(modules: &[&str], extra: &str) -> String {
        let m: String = modules
            .iter()
            .map(|m| format!("<module>{m}</module>"))
            .collect();
        format!("<artifactId>agg</artifactId><version>1</version><packaging>pom</packaging><modules>{m}</modules>{extra}")
    }

    fn module(a: &str, extra: &str) -> String {
        format!("<parent><groupId>g</groupId><artifactId>agg</artifactId><version>1</version></parent><artifactId>{a}</artifactId>{extra}")
    }

    fn dep(a: &str) -> String {
        format!("<dependencies><dependency><groupId>g</groupId><artifactId>{a}</artifactId><version>1</version></dependency></dependencies>")
    }

    #[tokio::test]
    async fn reads_reactors_as_maven_collects_them() {
        let plugin = "<build><plugins><plugin><groupId>g</groupId><artifactId>p</artifactId></plugin></plugins>\
                      <pluginManagement><plugins><plugin><groupId>g</groupId><artifactId>p</artifactId><version>1</version></plugin></plugins></pluginManagement></build>";
        let profile = "<profiles><profile><id>x</id><activation><activeByDefault>true</activeByDefault></activation>\
                       <modules><module>late</module></modules></profile></profiles>";
        type Case<'a> = (
            &'a str,
            Vec<(&'a str, String)>,
            Result<Vec<&'a str>, &'a str>,
        );
        let table: Vec<Case> = vec![
            (
                "the modules, then the aggregator they name as parent, which goes first",
                vec![("pom.xml", agg(&["a", "b"], "")), ("a/pom.xml", module("a", "")), ("b/pom.xml", module("b", ""))],
                Ok(vec!["agg", "a", "b"]),
            ),
            (
                "a dependency edge",
                vec![("pom.xml", agg(&["a", "b"], "")), ("a/pom.xml", module("a", &dep("b"))), ("b/pom.xml", module("b", ""))],
                Ok(vec!["agg", "b", "a"]),
            ),
            (
                "a plugin edge, its version from plugin management",
                vec![("pom.xml", agg(&["a", "p"], "")), ("a/pom.xml", module("a", plugin)), ("p/pom.xml", module("p", "<packaging>maven-plugin</packaging>"))],
                Ok(vec!["agg", "p", "a"]),
            ),
            (
                "modules of an active profile after the POM's own; a module named by its file",
                vec![("pom.xml", agg(&["a/pom.xml"], profile)), ("a/pom.xml", module("a", "")), ("late/pom.xml", module("late", ""))],
                Ok(vec!["agg", "a", "late"]),
            ),
            (
                "nested aggregators, collected depth first",
                vec![
                    ("pom.xml", agg(&["n", "z"], "")),
                    ("n/pom.xml", "<artifactId>n</artifactId><version>1</version><packaging>pom</packaging><modules><module>x</module></modules>".to_string()),
                    ("n/x/pom.xml", "<artifactId>x</artifactId><version>1</version>".to_string()),
                    ("z/pom.xml", "<artifactId>z</artifactId><version>1</version>".to_string()),
                ],
                Ok(vec!["x", "n", "z", "agg"]),
            ),
            (
                "a missing module",
                vec![("pom.xml", agg(&["gone"], ""))],
                Err("the build could not read 1 project(s): Child module DIR/gone of DIR/pom.xml does not exist"),
            ),
            (
                "an aggregation cycle",
                vec![("pom.xml", agg(&["a"], "")), ("a/pom.xml", "<artifactId>a</artifactId><version>1</version><packaging>pom</packaging><modules><module>..</module></modules>".to_string())],
                Err("the build could not read 1 project(s): Child module DIR/pom.xml of DIR/a/pom.xml forms aggregation cycle DIR/pom.xml -> DIR/a/pom.xml -> DIR/pom.xml"),
            ),
            (
                "a cycle",
                vec![("pom.xml", agg(&["a", "b"], "")), ("a/pom.xml", module("a", &dep("b"))), ("b/pom.xml", module("b", &dep("a")))],
                Err("The projects in the reactor contain a cyclic reference: Edge between 'Vertex{label='g:b:1'}' and 'Vertex{label='g:a:1'}' introduces to cycle in the graph g:a:1 --> g:b:1 --> g:a:1"),
            ),
        ];
        for (what, files, want) in table {
            let files: Vec<(&str, &str)> = files.iter().map(|(p, b)| (*p, b.as_str())).collect();
            let got = reactor(&files).await;
            let want = want
                .map(|v| v.into_iter().map(String::from).collect::<Vec<_>>())
                .map_err(String::from);
            assert_eq!(got, want, "{what}");
        }
    }
}
