//! The session rules of `MavenRepositorySystemUtils.newSession()` as pure values: which
//! dependencies are followed (`ScopeDependencySelector("test", "provided")`,
//! `OptionalDependencySelector`, `ExclusionDependencySelector`, combined as
//! `AndDependencySelector`), how the project's `dependencyManagement` rewrites them
//! (`ClassicDependencyManager`), and which are not descended into (`FatArtifactTraverser`).
//!
//! Each rule derives a child rule from the dependency it descends into, as Resolver's
//! `deriveChild*` methods do; equal rules make equal sub-graph keys (the collector reuses the
//! children of a sub-graph it has already built with the same rules).

use super::graph::{managed, Management, OmissionReason};
use crate::resolution::artifact::{Artifact, Dependency, Exclusion, ScopeSource};
use crate::resolution::pom::cache_key::FastMap;
use std::collections::BTreeSet;
use std::sync::Arc;

/// The combined selector state of one point of the graph.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Selector {
    /// `ScopeDependencySelector`: below the direct dependencies, `test` and `provided` are dropped.
    transitive_scopes: bool,
    /// `OptionalDependencySelector` depth (0 at the root, capped at 2).
    optional_depth: u8,
    /// `ExclusionDependencySelector`: exclusions gathered along the path.
    exclusions: Arc<BTreeSet<Exclusion>>,
}

impl Default for Selector {
    fn default() -> Self {
        Selector {
            transitive_scopes: false,
            optional_depth: 0,
            exclusions: Arc::new(BTreeSet::new()),
        }
    }
}

impl Selector {
    /// `AndDependencySelector.selectDependency`: `Err` says which rule dropped it.
    pub fn select(&self, dependency: &Dependency) -> Result<(), OmissionReason> {
        if self.transitive_scopes && (dependency.scope == "test" || dependency.scope == "provided")
        {
            return Err(OmissionReason::Scope(dependency.scope.clone()));
        }
        if self.optional_depth >= 2 && dependency.is_optional() {
            return Err(OmissionReason::Optional);
        }
        if let Some(e) = self
            .exclusions
            .iter()
            .find(|e| e.matches(&dependency.artifact))
        {
            return Err(OmissionReason::Excluded(e.clone()));
        }
        Ok(())
    }

    /// The selector for the children of `dependency` (`None`: the root's own context).
    pub fn derive(&self, dependency: Option<&Dependency>) -> Selector {
        let transitive_scopes = self.transitive_scopes || dependency.is_some();
        let optional_depth = (self.optional_depth + 1).min(2);
        let exclusions = match dependency {
            Some(d) if d.exclusions.iter().any(|e| !self.exclusions.contains(e)) => {
                let mut set = (*self.exclusions).clone();
                set.extend(d.exclusions.iter().cloned());
                Arc::new(set)
            }
            _ => self.exclusions.clone(),
        };
        Selector {
            transitive_scopes,
            optional_depth,
            exclusions,
        }
    }
}

/// `ClassicDependencyManager`'s key: `groupId:artifactId:extension:classifier`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key(String, String, String, String);

/// A [`Key`] borrowed from an artifact: the table is asked for every dependency of every
/// collection, and most of the time has nothing to say.
#[derive(Hash)]
struct KeyRef<'a>(&'a str, &'a str, &'a str, &'a str);

impl<'a> KeyRef<'a> {
    fn of(a: &'a Artifact) -> Self {
        KeyRef(&a.group_id, &a.artifact_id, &a.extension, &a.classifier)
    }

    fn owned(&self) -> Key {
        Key(self.0.into(), self.1.into(), self.2.into(), self.3.into())
    }
}

impl hashbrown::Equivalent<Key> for KeyRef<'_> {
    fn equivalent(&self, k: &Key) -> bool {
        (self.0, self.1, self.2, self.3) == (&k.0, &k.1, &k.2, &k.3)
    }
}

/// What the table holds for one key.
#[derive(Debug, Default, Clone)]
struct Entry {
    version: Option<String>,
    scope: Option<(String, ScopeSource)>,
    optional: Option<bool>,
    local_path: Option<String>,
    exclusions: Vec<Exclusion>,
}

/// The project's dependency management, as `ClassicDependencyManager` gathers it from the
/// root: the first entry per key wins for version, scope, optionality and system path;
/// exclusions of every entry for a key add up.
#[derive(Debug, Default, Clone)]
pub struct ManagementTable {
    entries: FastMap<Key, Entry>,
}

impl ManagementTable {
    /// Gathers the managed dependencies of the root.
    pub fn new(managed: &[Dependency]) -> Self {
        let mut t = ManagementTable::default();
        for m in managed {
            let key = KeyRef::of(&m.artifact);
            let e = match t.entries.get_mut(&key) {
                Some(e) => e,
                None => t.entries.entry(key.owned()).or_default(),
            };
            if !m.artifact.version.is_empty() && e.version.is_none() {
                e.version = Some(m.artifact.version.clone());
            }
            if !m.scope.is_empty() && e.scope.is_none() {
                e.scope = Some((m.scope.clone(), m.scope_source.clone()));
            }
            if let (Some(o), None) = (m.optional, e.optional) {
                e.optional = Some(o);
            }
            if let (Some(p), None) = (&m.artifact.local_path, &e.local_path) {
                e.local_path = Some(p.clone());
            }
            for x in &m.exclusions {
                if !e.exclusions.contains(x) {
                    e.exclusions.push(x.clone());
                }
            }
        }
        t
    }

    fn get(&self, artifact: &Artifact) -> Option<&Entry> {
        if self.entries.is_empty() {
            return None;
        }
        self.entries.get(&KeyRef::of(artifact))
    }
}

/// What management says of one dependency (`DependencyManagement`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Managed {
    version: Option<String>,
    scope: Option<(String, ScopeSource)>,
    optional: Option<bool>,
    /// `Some(None)`: remove the system path; `Some(Some(p))`: set it.
    local_path: Option<Option<String>>,
    exclusions: Option<Vec<Exclusion>>,
}

/// The manager state at one point of the graph: `ClassicDependencyManager` applies the
/// project's management to transitive dependencies only (depth ≥ 2), except exclusions, which
/// apply to direct dependencies too; POMs below the project add nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Manager {
    depth: u8,
}

impl Manager {
    /// The manager for the children of the current point.
    pub fn derive(self) -> Manager {
        Manager {
            depth: (self.depth + 1).min(2),
        }
    }

    /// `manageDependency`.
    pub fn manage(self, table: &ManagementTable, dependency: &Dependency) -> Option<Managed> {
        let entry = table.get(&dependency.artifact)?;
        let mut m = Managed::default();
        let mut any = false;
        if self.depth >= 2 {
            if let Some(v) = &entry.version {
                m.version = Some(v.clone());
                any = true;
            }
            let scope = entry.scope.as_ref();
            if let Some((s, _)) = scope {
                m.scope = scope.cloned();
                any = true;
                if s != "system" && dependency.artifact.local_path.is_some() {
                    m.local_path = Some(None);
                }
            }
            let system = match scope {
                Some((s, _)) => s == "system",
                None => dependency.scope == "system",
            };
            if system {
                if let Some(p) = &entry.local_path {
                    m.local_path = Some(Some(p.clone()));
                    any = true;
                }
            }
            if let Some(o) = entry.optional {
                m.optional = Some(o);
                any = true;
            }
        }
        if !entry.exclusions.is_empty() {
            let mut all = dependency.exclusions.clone();
            for e in &entry.exclusions {
                if !all.contains(e) {
                    all.push(e.clone());
                }
            }
            m.exclusions = Some(all);
            any = true;
        }
        any.then_some(m)
    }
}

/// `PremanagedDependency.create`: applies management (the version only when
/// `disable_version` is false — after a relocation to the same `groupId:artifactId`) and
/// records what it replaced.
pub fn apply_management(
    managed: Option<Managed>,
    mut dependency: Dependency,
    disable_version: bool,
) -> (Dependency, Management) {
    let mut record = Management::default();
    let Some(m) = managed else {
        return (dependency, record);
    };
    if let Some(v) = m.version {
        if !disable_version {
            record.premanaged_version =
                Some(std::mem::replace(&mut dependency.artifact.version, v));
            record.bits |= managed::VERSION;
        }
    }
    if let Some(p) = m.local_path {
        record.premanaged_local_path =
            Some(std::mem::replace(&mut dependency.artifact.local_path, p));
        record.bits |= managed::PROPERTIES;
    }
    if let Some((s, source)) = m.scope {
        record.premanaged_scope = Some(std::mem::replace(&mut dependency.scope, s));
        dependency.scope_source = source;
        record.bits |= managed::SCOPE;
    }
    if let Some(o) = m.optional {
        record.premanaged_optional = Some(dependency.is_optional());
        dependency.optional = Some(o);
        record.bits |= managed::OPTIONAL;
    }
    if let Some(e) = m.exclusions {
        record.premanaged_exclusions = Some(std::mem::replace(&mut dependency.exclusions, e));
        record.bits |= managed::EXCLUSIONS;
    }
    (dependency, record)
}

/// `FatArtifactTraverser`: types that carry their dependencies inside (war, ear, ...) are not
/// descended into.
pub fn traverse(artifact: &Artifact) -> bool {
    !artifact.includes_dependencies
}

/// Resolver's `isLackingDescriptor`: a `system` dependency with a path has no POM to read.
pub fn lacks_descriptor(artifact: &Artifact) -> bool {
    artifact.local_path.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dep(coord: &str, scope: &str) -> Dependency {
        let p: Vec<&str> = coord.split(':').collect();
        Dependency::new(Artifact::from_type(p[0], p[1], "jar", "", p[2]), scope)
    }

    #[test]
    fn selectors_by_depth() {
        let root = Selector::default();
        let direct = root.derive(None);
        let mut optional = dep("g:o:1", "compile");
        optional.optional = Some(true);
        // direct dependencies: everything is selected
        for d in [
            dep("g:a:1", "test"),
            dep("g:a:1", "provided"),
            optional.clone(),
        ] {
            assert_eq!(direct.select(&d), Ok(()));
        }
        let mut parent = dep("g:p:1", "compile");
        parent.exclusions.push(Exclusion::pom("g", "x"));
        parent.exclusions.push(Exclusion::pom("*", "y"));
        let transitive = direct.derive(Some(&parent));
        assert_eq!(
            transitive.select(&dep("g:a:1", "test")),
            Err(OmissionReason::Scope("test".into()))
        );
        assert_eq!(
            transitive.select(&dep("g:a:1", "provided")),
            Err(OmissionReason::Scope("provided".into()))
        );
        assert_eq!(transitive.select(&dep("g:a:1", "runtime")), Ok(()));
        assert_eq!(transitive.select(&optional), Err(OmissionReason::Optional));
        assert!(matches!(
            transitive.select(&dep("g:x:1", "compile")),
            Err(OmissionReason::Excluded(_))
        ));
        assert!(matches!(
            transitive.select(&dep("other:y:1", "compile")),
            Err(OmissionReason::Excluded(_))
        ));
        // exclusions accumulate, and equal paths give equal selectors
        let deeper = transitive.derive(Some(&dep("g:q:1", "compile")));
        assert!(deeper.select(&dep("g:x:2", "compile")).is_err());
        assert_eq!(deeper, transitive.derive(Some(&dep("g:r:1", "compile"))));
    }

    #[test]
    fn classic_manager_applies_below_direct_dependencies() {
        let mut m1 = dep("g:a:2.0", "runtime");
        m1.exclusions.push(Exclusion::pom("g", "x"));
        let m2 = dep("g:a:3.0", "test"); // the first entry per key wins
        let table = ManagementTable::new(&[m1, m2]);
        let root = Manager::default();
        let direct = root.derive();
        let transitive = direct.derive();
        let d = dep("g:a:1.0", "compile");
        // direct dependency: only exclusions
        let (md, rec) = apply_management(direct.manage(&table, &d), d.clone(), false);
        assert_eq!(md.artifact.version, "1.0");
        assert_eq!(rec.bits, managed::EXCLUSIONS);
        // transitive: version, scope and exclusions
        let (md, rec) = apply_management(transitive.manage(&table, &d), d.clone(), false);
        assert_eq!(
            (md.artifact.version.as_str(), md.scope.as_str()),
            ("2.0", "runtime")
        );
        assert_eq!(rec.premanaged_version.as_deref(), Some("1.0"));
        assert_eq!(rec.premanaged_scope.as_deref(), Some("compile"));
        assert_eq!(
            rec.bits,
            managed::VERSION | managed::SCOPE | managed::EXCLUSIONS
        );
        // after a relocation to the same g:a the version is left alone
        let (md, _) = apply_management(transitive.manage(&table, &d), d, true);
        assert_eq!(md.artifact.version, "1.0");
        assert_eq!(transitive.derive(), transitive);
    }

    #[test]
    fn system_paths_follow_the_managed_scope() {
        let mut sys = dep("g:s:1", "system");
        sys.artifact.local_path = Some("/opt/s.jar".into());
        let table = ManagementTable::new(&[sys]);
        let t = Manager::default().derive().derive();
        let mut d = dep("g:s:0.9", "compile");
        d.artifact.local_path = Some("/elsewhere.jar".into());
        let (md, rec) = apply_management(t.manage(&table, &d), d, false);
        assert_eq!(md.scope, "system");
        assert_eq!(md.artifact.local_path.as_deref(), Some("/opt/s.jar"));
        assert_ne!(rec.bits & managed::PROPERTIES, 0);
    }
}
