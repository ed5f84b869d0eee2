//! Where POMs come from while a model is built: Maven's `DefaultModelResolver` (dependency POMs)
//! and `ProjectModelResolver` (project files), over the real downloader.
//!
//! A [`ModelResolver`] starts with the request's repositories (already mirrored and
//! authenticated) and adds, as the builder meets them, the repositories each POM declares:
//! each goes through the session's mirror, proxy and authentication selectors
//! (`repository::aggregate_repositories`, as Maven's `RemoteRepositoryManager`), after
//! the ones already known (dependency POMs) or before the request's (project files,
//! `POM_DOMINANT`). A repository id seen before is ignored, unless the interpolated model is
//! re-read at the end, which replaces it.
//!
//! [`Shared`] is what one session shares between builds: the downloader, the selectors, the
//! properties, and the caches Maven keeps per session (raw parents and imported
//! dependencyManagement by `groupId:artifactId:version`), plus parsed files by path.

use super::model::{Dependency, Model, Repository, RepositoryPolicy};
use super::xml::{read_pom, XmlError};
use crate::download::coords::Coordinate;
use crate::download::{DownloadError, Downloader};
use crate::repository::{aggregate_repositories, Policy, RemoteRepository, Selectors};
use crate::resolution::version::{Version, VersionConstraint};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A parsed POM file: the model and the strict reader's complaint, or why it could not be read.
pub(crate) type Parsed = Result<(Arc<Model>, Option<XmlError>), XmlError>;

/// A parent as Maven's builder keeps it (`ModelData`): the raw model, where it was read, and the
/// coordinates of the declaration (the version after range resolution).
#[derive(Debug, Clone)]
pub(crate) struct ParentData {
    pub(crate) raw: Arc<Model>,
    pub(crate) file: PathBuf,
    pub(crate) group_id: String,
    pub(crate) artifact_id: String,
    pub(crate) version: String,
}

impl ParentData {
    pub(crate) fn id(&self) -> String {
        format!("{}:{}:{}", self.group_id, self.artifact_id, self.version)
    }
}

/// What one session shares between model builds.
pub struct Shared {
    pub(crate) downloader: Downloader,
    pub(crate) selectors: Selectors,
    /// Parsed files by path, with the size and modification time they had (shared with the
    /// readers made by [`Shared::fresh_over`]).
    parsed: Arc<Mutex<ParsedFiles>>,
    parents: Mutex<HashMap<String, ParentData>>,
    /// POM files `resolveModel` took from the downloader (parents, imported BOMs), one cell per
    /// coordinates and repository list: builds asking for one at the same time (the POMs of a
    /// level that all import one BOM) wait for one downloader call, not one each.
    model_files: Mutex<HashMap<String, Arc<tokio::sync::OnceCell<PathBuf>>>>,
    imports: Mutex<HashMap<String, Arc<Vec<Arc<Dependency>>>>>,
    /// Imported entries as one `import` declaration brings them in (with its BOM chain).
    traced_imports: Mutex<HashMap<String, Arc<Vec<Arc<Dependency>>>>>,
    /// What each parent contributes to its children's builds.
    ancestries: Mutex<HashMap<String, Arc<super::builder::Ancestry>>>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("downloader", &self.downloader)
            .finish_non_exhaustive()
    }
}

/// Parsed files by path, with what each file looked like when it was parsed.
type ParsedFiles = HashMap<PathBuf, (FileStamp, Arc<Parsed>)>;

/// What a file looked like when it was parsed: its size and modification time (`None` when it
/// could not be read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileStamp(Option<(u64, Option<std::time::SystemTime>)>);

impl FileStamp {
    fn of(path: &Path) -> FileStamp {
        FileStamp(
            std::fs::metadata(path)
                .ok()
                .map(|m| (m.len(), m.modified().ok())),
        )
    }
}

/// The largest POM read into memory (the issue-8 limit, as for `maven-metadata.xml`): a bigger
/// file is refused unread.
pub(crate) const MAX_POM_BYTES: u64 = 16 << 20;

impl Shared {
    pub(crate) fn new(downloader: Downloader, selectors: Selectors) -> Self {
        Shared {
            downloader,
            selectors,
            parsed: Arc::new(Mutex::new(HashMap::new())),
            parents: Mutex::new(HashMap::new()),
            model_files: Mutex::new(HashMap::new()),
            imports: Mutex::new(HashMap::new()),
            traced_imports: Mutex::new(HashMap::new()),
            ancestries: Mutex::new(HashMap::new()),
        }
    }

    /// Caches of its own over `downloader`, sharing the parsed files.
    pub(crate) fn fresh_over(&self, downloader: Downloader) -> Shared {
        Shared {
            parsed: self.parsed.clone(),
            ..Shared::new(downloader, self.selectors.clone())
        }
    }

    /// The parsed POM at `path` (read and parsed once per session, and again when the file's
    /// size or modification time changed: a snapshot downloaded again by a long-lived session).
    pub(crate) fn parse(&self, path: &Path) -> Arc<Parsed> {
        let stamp = FileStamp::of(path);
        if let Some((seen, p)) = self.parsed.lock().ok().and_then(|m| m.get(path).cloned()) {
            if seen == stamp {
                return p;
            }
        }
        let label = path.display().to_string();
        let parsed: Parsed = match crate::bounded::read_regular_file(path, MAX_POM_BYTES) {
            Ok(bytes) => read_pom(&bytes).map(|t| {
                (
                    Arc::new(super::model::from_xnode(t.root, &label)),
                    t.strict_error,
                )
            }),
            Err(e) => Err(XmlError::unreadable_input(crate::printable::error_chain(
                &e,
            ))),
        };
        let parsed = Arc::new(parsed);
        if let Ok(mut m) = self.parsed.lock() {
            m.insert(path.to_path_buf(), (stamp, parsed.clone()));
        }
        parsed
    }

    /// Drops the parents, imports and lineages kept for the session.
    pub(crate) fn forget_answers(&self) {
        if let Ok(mut m) = self.parents.lock() {
            m.clear();
        }
        if let Ok(mut m) = self.model_files.lock() {
            m.clear();
        }
        if let Ok(mut m) = self.imports.lock() {
            m.clear();
        }
        if let Ok(mut m) = self.traced_imports.lock() {
            m.clear();
        }
        if let Ok(mut m) = self.ancestries.lock() {
            m.clear();
        }
    }

    pub(crate) fn cached_parent(&self, key: &str) -> Option<ParentData> {
        self.parents.lock().ok()?.get(key).cloned()
    }

    pub(crate) fn cache_parent(&self, key: String, data: ParentData) {
        if let Ok(mut m) = self.parents.lock() {
            m.insert(key, data);
        }
    }

    /// The cell of the POM file under `key`, emptied first when the file it holds is gone
    /// (deleted from the local repository while the session lives: it is asked for again).
    fn model_file_cell(&self, key: String) -> Arc<tokio::sync::OnceCell<PathBuf>> {
        let mut m = self.model_files.lock().unwrap_or_else(|e| e.into_inner());
        let cell = m.entry(key).or_default();
        if cell.get().is_some_and(|path| !path.is_file()) {
            *cell = Arc::default();
        }
        cell.clone()
    }

    pub(crate) fn cached_import(&self, key: &str) -> Option<Arc<Vec<Arc<Dependency>>>> {
        self.imports.lock().ok()?.get(key).cloned()
    }

    pub(crate) fn cache_import(&self, key: String, deps: Arc<Vec<Arc<Dependency>>>) {
        if let Ok(mut m) = self.imports.lock() {
            m.insert(key, deps);
        }
    }

    pub(crate) fn cached_ancestry(&self, key: &str) -> Option<Arc<super::builder::Ancestry>> {
        self.ancestries.lock().ok()?.get(key).cloned()
    }

    pub(crate) fn cache_ancestry(&self, key: String, ancestry: Arc<super::builder::Ancestry>) {
        if let Ok(mut m) = self.ancestries.lock() {
            m.insert(key, ancestry);
        }
    }

    pub(crate) fn cached_traced_import(&self, key: &str) -> Option<Arc<Vec<Arc<Dependency>>>> {
        self.traced_imports.lock().ok()?.get(key).cloned()
    }

    pub(crate) fn cache_traced_import(&self, key: String, deps: Arc<Vec<Arc<Dependency>>>) {
        if let Ok(mut m) = self.traced_imports.lock() {
            m.insert(key, deps);
        }
    }
}

/// Maven's `ArtifactDescriptorUtils.toRepositoryPolicy`.
fn policy(p: Option<&RepositoryPolicy>) -> Policy {
    let mut out = Policy::default();
    if let Some(p) = p {
        out.enabled = p
            .enabled
            .as_deref()
            .is_none_or(|e| e.eq_ignore_ascii_case("true"));
        if let Some(u) = &p.update_policy {
            out.update_policy = u.clone();
        }
        if let Some(c) = &p.checksum_policy {
            out.checksum_policy = c.clone();
        }
    }
    out
}

/// Maven's `ArtifactDescriptorUtils.toRemoteRepository` (a missing id or url is empty).
pub fn to_remote_repository(r: &Repository) -> RemoteRepository {
    let mut out = RemoteRepository::new(
        r.id.clone().unwrap_or_default(),
        r.url.clone().unwrap_or_default(),
    );
    out.layout = r.layout.clone();
    out.releases = policy(r.releases.as_ref());
    out.snapshots = policy(r.snapshots.as_ref());
    out
}

/// A key naming everything about `repositories` that decides whether a file can be fetched
/// through them (ids, URLs, layouts, policies, blocking, mirrored repositories): answers
/// obtained through one list are reused only for an equal list. (Maven's descriptor reader
/// keeps no model cache in the session the oracle starts from, so a parent or BOM that one
/// list reached is not found through a list that cannot reach it.)
pub(crate) fn repositories_key(repositories: &[RemoteRepository]) -> String {
    fn one(out: &mut String, r: &RemoteRepository) {
        // Pushed field by field: a `format!` with `Debug` of the policies was 7 % of a warm
        // 40-module session's CPU (this key is built for every descriptor looked up).
        fn policy(out: &mut String, p: &Policy) {
            out.push(if p.enabled { '1' } else { '0' });
            out.push('\u{4}');
            out.push_str(&p.update_policy);
            out.push('\u{4}');
            out.push_str(&p.checksum_policy);
            out.push('\u{1}');
        }
        for field in [r.id.as_str(), r.url.as_written(), r.layout.as_str()] {
            out.push_str(field);
            out.push('\u{1}');
        }
        policy(out, &r.releases);
        policy(out, &r.snapshots);
        out.push(if r.blocked { '1' } else { '0' });
        for m in &r.mirrored_repositories {
            out.push('\u{2}');
            one(out, m);
        }
        out.push('\u{3}');
    }
    let mut out = String::new();
    for r in repositories {
        one(&mut out, r);
    }
    out
}

/// The project files of a reactor by `groupId:artifactId:version` (maven-core's
/// `ReactorModelPool`): where a project build finds a BOM that is a module of the build.
pub type ReactorPool = HashMap<String, PathBuf>;

/// The repositories one model build fetches POMs from (Maven's `ModelResolver`).
#[derive(Debug, Clone)]
pub struct ModelResolver {
    repositories: Vec<RemoteRepository>,
    external: Vec<RemoteRepository>,
    pom_repositories: Vec<RemoteRepository>,
    ids: HashSet<String>,
    pom_dominant: bool,
    /// The reactor's project files (`ProjectModelResolver.modelPool`).
    pool: Option<Arc<ReactorPool>>,
    /// Whether the pool answers `resolveModel`: Maven fills it only after every project of the
    /// reactor has been through phase 1, so a project's own parents never come from it; its
    /// imports (phase 2), and what those read, do.
    pool_active: bool,
}

impl ModelResolver {
    /// For dependency POMs: POM repositories go after the request's.
    pub fn for_dependencies(repositories: Vec<RemoteRepository>) -> Self {
        ModelResolver {
            external: repositories.clone(),
            repositories,
            pom_repositories: Vec::new(),
            ids: HashSet::new(),
            pom_dominant: false,
            pool: None,
            pool_active: false,
        }
    }

    /// For a project of a reactor: [`Self::for_project`] whose imports look in `pool` first.
    pub fn for_reactor_project(
        repositories: Vec<RemoteRepository>,
        pool: Arc<ReactorPool>,
    ) -> Self {
        ModelResolver {
            pool: Some(pool),
            ..Self::for_project(repositories)
        }
    }

    /// The resolver of what phase 2 reads (imported BOMs and their parents): the reactor pool,
    /// if any, answers from now on.
    pub(crate) fn in_second_phase(mut self) -> Self {
        self.pool_active = self.pool.is_some();
        self
    }

    /// What distinguishes answers obtained through this resolver's pool (empty without one).
    pub(crate) fn pool_key(&self) -> String {
        match &self.pool {
            Some(p) => format!("|pool:{:p}", Arc::as_ptr(p)),
            None => String::new(),
        }
    }

    fn pooled(&self, group_id: &str, artifact_id: &str, version: &str) -> Option<PathBuf> {
        self.pool
            .as_ref()?
            .get(&format!("{group_id}:{artifact_id}:{version}"))
            .cloned()
    }

    /// For a project file: POM repositories go before the request's (`POM_DOMINANT`).
    pub fn for_project(repositories: Vec<RemoteRepository>) -> Self {
        ModelResolver {
            pom_dominant: true,
            ..Self::for_dependencies(repositories)
        }
    }

    /// The repositories in force.
    pub fn repositories(&self) -> &[RemoteRepository] {
        &self.repositories
    }

    /// `addRepository(repository, replace)`.
    pub fn add_repository(&mut self, r: &Repository, replace: bool, selectors: &Selectors) {
        let id = r.id.clone().unwrap_or_default();
        if !self.ids.insert(id.clone()) {
            if !replace {
                return;
            }
            self.repositories.retain(|x| x.id != id);
            self.pom_repositories.retain(|x| x.id != id);
        }
        let new = [to_remote_repository(r)];
        if self.pom_dominant {
            self.pom_repositories =
                aggregate_repositories(&self.pom_repositories, &new, true, selectors);
            self.repositories =
                aggregate_repositories(&self.pom_repositories, &self.external, false, selectors);
        } else {
            self.repositories = aggregate_repositories(&self.repositories, &new, true, selectors);
        }
    }

    /// `resolveModel(groupId, artifactId, version)`: the POM file, fetched through the
    /// downloader (local repository first, then the repositories in force).
    pub async fn resolve_model(
        &self,
        shared: &Shared,
        group_id: &str,
        artifact_id: &str,
        version: &str,
    ) -> Result<PathBuf, String> {
        if self.pool_active {
            if let Some(file) = self.pooled(group_id, artifact_id, version) {
                return Ok(file);
            }
        }
        let coord = pom_coordinate(group_id, artifact_id, version)
            .map_err(|e| crate::printable::error_chain(&e))?;
        let key = format!("{coord}|{}", repositories_key(&self.repositories));
        // A failed fetch leaves the cell empty: the next caller asks again and gets its own error.
        shared
            .model_file_cell(key)
            .get_or_try_init(|| async {
                shared
                    .downloader
                    .fetch_coordinate(&coord, &self.repositories)
                    .await
                    .map(|r| r.path)
                    .map_err(|e| crate::printable::error_chain(&e))
            })
            .await
            .cloned()
    }

    /// `resolveModel` of an `import`-scoped BOM (phase 2): a module of the reactor first, then
    /// the repositories.
    pub async fn resolve_import(
        &self,
        shared: &Shared,
        group_id: &str,
        artifact_id: &str,
        version: &str,
    ) -> Result<PathBuf, String> {
        if let Some(file) = self.pooled(group_id, artifact_id, version) {
            return Ok(file);
        }
        self.resolve_model(shared, group_id, artifact_id, version)
            .await
    }

    /// `resolveModel(Parent)` with 3.8.7's `DefaultVersionRangeResolver`: a plain version as is;
    /// any range (`[2]` too: that version must be listed), the highest version
    /// `maven-metadata.xml` lists (local repository and repositories in force) that it
    /// contains — and the range must have an upper bound.
    pub async fn resolve_parent_version(
        &self,
        shared: &Shared,
        group_id: &str,
        artifact_id: &str,
        version: &str,
    ) -> Result<String, String> {
        let constraint = VersionConstraint::parse(version).map_err(|e| e.to_string())?;
        let Some(range) = constraint.range() else {
            return Ok(version.to_string());
        };
        let (listed, _problems) = shared
            .downloader
            .list_versions(group_id, artifact_id, &self.repositories)
            .await;
        let highest = listed
            .iter()
            .map(|(v, _)| Version::parse(v))
            .filter(|v| constraint.contains(v))
            .max();
        let Some(highest) = highest else {
            return Err(format!(
                "No versions matched the requested parent version range '{version}'"
            ));
        };
        if range.upper().is_none() {
            return Err(format!(
                "The requested parent version range '{version}' does not specify an upper bound"
            ));
        }
        Ok(highest.to_string())
    }
}

/// `groupId:artifactId:pom:version`, refusing parts that cannot name a file in a repository.
pub(crate) fn pom_coordinate(
    g: &str,
    a: &str,
    v: &str,
) -> Result<Coordinate, crate::resolution::CoordinateError> {
    Coordinate::parse(&format!("{g}:{a}:pom:{v}"))
}

/// True when a download failure means "no such POM" (Maven's `ArtifactNotFoundException`).
pub(crate) fn is_missing(e: &DownloadError) -> bool {
    e.is_not_found() || matches!(e, DownloadError::NoRepository { .. })
}

#[cfg(test)]
mod key_tests {
    use super::repositories_key;
    use crate::repository::RemoteRepository;

    /// Lists differing in anything that decides a fetch get different keys; equal lists equal ones.
    #[test]
    fn the_key_tells_apart_what_decides_a_fetch() {
        let base = || RemoteRepository::new("central", "https://repo.example/maven2");
        let mut variants: Vec<Vec<RemoteRepository>> = vec![vec![], vec![base()]];
        let mut r = base();
        r.id = "other".into();
        variants.push(vec![r]);
        variants.push(vec![RemoteRepository::new(
            "central",
            "https://repo.example/m2",
        )]);
        let mut r = base();
        r.layout = "legacy".into();
        variants.push(vec![r]);
        let mut r = base();
        r.releases.enabled = false;
        variants.push(vec![r]);
        let mut r = base();
        r.snapshots.enabled = false;
        variants.push(vec![r]);
        let mut r = base();
        r.releases.update_policy = "always".into();
        variants.push(vec![r]);
        let mut r = base();
        r.snapshots.checksum_policy = "fail".into();
        variants.push(vec![r]);
        let mut r = base();
        r.blocked = true;
        variants.push(vec![r]);
        let mut r = base();
        r.mirrored_repositories = vec![RemoteRepository::new("inner", "https://inner.example/")];
        variants.push(vec![r]);
        variants.push(vec![base(), base()]);
        let keys: Vec<String> = variants.iter().map(|v| repositories_key(v)).collect();
        for (i, a) in keys.iter().enumerate() {
            for (j, b) in keys.iter().enumerate().skip(i + 1) {
                assert_ne!(a, b, "variants {i} and {j} share a key");
            }
        }
        assert_eq!(repositories_key(&[base()]), repositories_key(&[base()]));
    }
}

#[cfg(test)]
mod model_file_tests {
    use super::*;
    use crate::download::DownloaderConfig;

    /// A POM file read once is handed out again while it exists; once it is gone (deleted
    /// while a long-lived session holds it), the next reader gets an empty cell and asks the
    /// downloader again.
    #[test]
    fn a_model_file_is_kept_while_it_exists() {
        let tmp = tempfile::tempdir().unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let downloader = {
            let _g = runtime.enter();
            Downloader::new(DownloaderConfig::new(tmp.path().join("local"))).unwrap()
        };
        let shared = Shared::new(downloader, Selectors::default());
        let file = tmp.path().join("a-1.pom");
        std::fs::write(&file, "<project/>").unwrap();
        let fill = |cell: &tokio::sync::OnceCell<PathBuf>| {
            runtime.block_on(cell.get_or_init(|| async { file.clone() }));
        };
        fill(&shared.model_file_cell("g:a:pom:1|r".into()));
        assert_eq!(
            shared.model_file_cell("g:a:pom:1|r".into()).get(),
            Some(&file)
        );
        assert_eq!(shared.model_file_cell("g:a:pom:1|other".into()).get(), None);
        std::fs::remove_file(&file).unwrap();
        assert_eq!(shared.model_file_cell("g:a:pom:1|r".into()).get(), None);
        shared.forget_answers();
        assert!(shared.model_files.lock().unwrap().is_empty());
    }
}
