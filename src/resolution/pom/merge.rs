//! The model merges of Maven 3.8.7's builder: inheritance (`DefaultInheritanceAssembler`, parent
//! recessive), profile injection (`DefaultProfileInjector`, profile dominant), duplicate
//! dependencies (`DefaultModelNormalizer`), dependency management injection
//! (`DefaultDependencyManagementInjector`) and import (`DefaultDependencyManagementImporter`).
//!
//! The list rule behind most of them is `ModelMerger`'s keyed merge: the target's entries (a
//! repeated key keeps its first place and takes the last value), then the source's — a new key
//! is appended, an existing one is replaced only when the source is dominant. Dependencies are
//! keyed by `groupId:artifactId:type[:classifier]` as written at that stage (before
//! interpolation during inheritance), repositories by id.
//!
//! What is not inherited: `artifactId`, `modelVersion`, `name`, `packaging` (it always has a
//! value), `prerequisites`, `modules`, `profiles`, and the relocation of
//! `distributionManagement` (Maven merges every part of it but that one).

use super::model::{Dependency, ManagedFrom, Model, ModelBase, Profile, Property, Repository};
use super::xml::XNode;
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::Arc;

/// An ordered list keyed by a string, as Java's `LinkedHashMap` keeps it: a key keeps the place
/// it first had.
struct Keyed<T> {
    items: Vec<T>,
    index: HashMap<String, usize>,
}

impl<T> Keyed<T> {
    fn with_capacity(n: usize) -> Self {
        Keyed {
            items: Vec::with_capacity(n),
            index: HashMap::with_capacity(n),
        }
    }

    /// `put`: a new key is appended; an existing one takes the new value when `replace`.
    fn put(&mut self, key: String, item: T, replace: bool) {
        match self.index.get(&key) {
            Some(&i) => {
                if replace {
                    self.items[i] = item;
                }
            }
            None => {
                self.index.insert(key, self.items.len());
                self.items.push(item);
            }
        }
    }
}

/// Positions in a dependency list by management key, compared in place (no key string is
/// built): these lists are merged for every POM read, and a parent's management may hold
/// thousands of entries. A few keys are compared in turn; more are hashed (SipHash with a
/// random key: a hostile POM cannot make them collide). The list is passed to every call.
pub(crate) struct KeyIndex {
    /// Positions of the distinct keys while there are at most [`KeyIndex::FEW`].
    few: Vec<usize>,
    table: Option<hashbrown::HashTable<usize>>,
    hasher: std::collections::hash_map::RandomState,
}

impl std::fmt::Debug for KeyIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyIndex")
            .field(
                "keys",
                &self.table.as_ref().map_or(self.few.len(), |t| t.len()),
            )
            .finish()
    }
}

impl KeyIndex {
    const FEW: usize = 16;

    pub(crate) fn new() -> Self {
        KeyIndex {
            few: Vec::new(),
            table: None,
            hasher: Default::default(),
        }
    }

    /// An index of `items` where a repeated key points at its last entry.
    pub(crate) fn last_of(items: &[Arc<Dependency>]) -> Self {
        let mut index = KeyIndex::new();
        for i in 0..items.len() {
            match index.find(items, &items[i]) {
                Ok(_) => index.replace(items, &items[i], i),
                Err(hash) => index.insert(items, i, hash),
            }
        }
        index
    }

    fn hash(&self, d: &Dependency) -> u64 {
        let mut h = self.hasher.build_hasher();
        d.hash_management_key(&mut h);
        std::hash::Hasher::finish(&h)
    }

    /// The position of the entry of `items` with `d`'s key, or what [`insert`](Self::insert)
    /// needs to add it.
    pub(crate) fn find(&self, items: &[Arc<Dependency>], d: &Dependency) -> Result<usize, u64> {
        match &self.table {
            None => self
                .few
                .iter()
                .copied()
                .find(|&i| items[i].same_management_key(d))
                .ok_or(0),
            Some(table) => {
                let hash = self.hash(d);
                table
                    .find(hash, |&i| items[i].same_management_key(d))
                    .copied()
                    .ok_or(hash)
            }
        }
    }

    /// Points `d`'s (existing) key at position `i`.
    fn replace(&mut self, items: &[Arc<Dependency>], d: &Dependency, i: usize) {
        let hash = self.table.as_ref().map(|_| self.hash(d));
        let slot = match (&mut self.table, hash) {
            (Some(table), Some(hash)) => table.find_mut(hash, |&j| items[j].same_management_key(d)),
            _ => self
                .few
                .iter_mut()
                .find(|j| items[**j].same_management_key(d)),
        };
        if let Some(slot) = slot {
            *slot = i;
        }
    }

    /// Adds `items[i]`, whose key is new (`hash`: what [`find`](Self::find) said).
    fn insert(&mut self, items: &[Arc<Dependency>], i: usize, hash: u64) {
        let hasher = &self.hasher;
        let rehash = |j: &usize| {
            let mut h = hasher.build_hasher();
            items[*j].hash_management_key(&mut h);
            std::hash::Hasher::finish(&h)
        };
        match &mut self.table {
            Some(table) => {
                table.insert_unique(hash, i, rehash);
            }
            None if self.few.len() < Self::FEW => self.few.push(i),
            None => {
                let mut table = hashbrown::HashTable::with_capacity(2 * Self::FEW);
                for j in std::mem::take(&mut self.few).into_iter().chain([i]) {
                    table.insert_unique(rehash(&j), j, rehash);
                }
                self.table = Some(table);
            }
        }
    }
}

/// [`Keyed`] for dependencies by their management key (see [`KeyIndex`]).
pub(crate) struct KeyedDependencies {
    items: Vec<Arc<Dependency>>,
    index: KeyIndex,
}

impl KeyedDependencies {
    pub(crate) fn with_capacity(n: usize) -> Self {
        KeyedDependencies {
            items: Vec::with_capacity(n),
            index: KeyIndex::new(),
        }
    }

    /// `put`: a new key is appended; an existing one takes the new value when `replace`.
    pub(crate) fn put(&mut self, item: Arc<Dependency>, replace: bool) {
        match self.index.find(&self.items, &item) {
            Ok(i) => {
                if replace {
                    self.items[i] = item;
                }
            }
            Err(hash) => {
                self.items.push(item);
                self.index.insert(&self.items, self.items.len() - 1, hash);
            }
        }
    }

    pub(crate) fn into_items(self) -> Vec<Arc<Dependency>> {
        self.items
    }
}

/// True when no two entries of `list` share a management key.
pub(crate) fn unique_keys(list: &[Arc<Dependency>]) -> bool {
    let mut index = KeyIndex::new();
    for i in 0..list.len() {
        match index.find(list, &list[i]) {
            Ok(_) => return false,
            Err(hash) => index.insert(list, i, hash),
        }
    }
    true
}

/// `ModelMerger.merge(list)` for dependencies: keyed merge of `source` into `target` (the
/// entries are shared, not copied). `source_unique`: no two entries of `source` share a key
/// (known for a parent's merged lists), so a recessive `source` is only looked up in
/// `target`'s keys.
fn merge_keyed(
    target: &mut Vec<Arc<Dependency>>,
    source: &[Arc<Dependency>],
    source_dominant: bool,
    source_unique: bool,
) {
    if source.is_empty() {
        return;
    }
    let mut merged = KeyedDependencies::with_capacity(target.len() + source.len());
    for t in target.drain(..) {
        merged.put(t, true);
    }
    if source_unique && !source_dominant {
        if merged.items.is_empty() {
            merged.items.extend(source.iter().cloned());
        } else {
            let own = merged.items.len();
            for s in source {
                if merged.index.find(&merged.items[..own], s).is_err() {
                    merged.items.push(s.clone());
                }
            }
        }
        *target = merged.into_items();
        return;
    }
    for s in source {
        merged.put(s.clone(), source_dominant);
    }
    *target = merged.into_items();
}

/// `MavenModelMerger.mergeModelBase_Repositories`: the dominant side's repositories (a repeated
/// id keeps its first place, takes the last entry), then the recessive side's new ids.
fn merge_repositories(target: &mut Vec<Repository>, source: &[Repository], source_dominant: bool) {
    if source.is_empty() {
        return;
    }
    let tgt = std::mem::take(target);
    let (dominant, recessive): (Vec<Repository>, Vec<Repository>) = if source_dominant {
        (source.to_vec(), tgt)
    } else {
        (tgt, source.to_vec())
    };
    let key = |r: &Repository| r.id.clone().unwrap_or_else(|| "\u{0}null".into());
    let mut merged = Keyed::with_capacity(dominant.len() + recessive.len());
    for r in dominant {
        merged.put(key(&r), r, true);
    }
    for r in recessive {
        merged.put(key(&r), r, false);
    }
    *target = merged.items;
}

/// Properties: the recessive side's, overridden by the dominant side's (`exclude` is never
/// taken from the parent in inheritance: `project.directory`), in the order Java's `Properties` ends up with
/// (`java_order`: profile injection `putAll`s both sides, inheritance `put`s the parent's).
fn merge_properties(
    target: &mut Vec<Property>,
    source: &[Property],
    source_dominant: bool,
    exclude: Option<&str>,
) {
    *target = if source_dominant {
        super::java_order::injected(target, source)
    } else {
        super::java_order::inherited(target, source, exclude)
    };
}

fn fill<T: Clone>(target: &mut Option<T>, source: &Option<T>, dominant: bool) {
    if source.is_some() && (dominant || target.is_none()) {
        *target = source.clone();
    }
}

// ------------------------------------------------------------------------- free-form parts

/// The URL a child inherits: the parent's, with the child's directory appended when the
/// parent allows it (`DefaultInheritanceAssembler.InheritanceModelMerger.extrapolateChildUrl`).
fn child_url(parent_url: &str, append: bool, child_dir: &str) -> String {
    if parent_url.trim().is_empty() || !append {
        return parent_url.to_string();
    }
    let mut url = parent_url.to_string();
    if !child_dir.is_empty() {
        let ends = url.ends_with('/');
        if child_dir.starts_with('/') {
            if ends {
                url.pop();
            }
        } else if !ends {
            url.push('/');
        }
        url.push_str(child_dir);
        if ends && !child_dir.ends_with('/') {
            url.push('/');
        }
    }
    url
}

fn append_allowed(node: Option<&XNode>, attr: &str) -> bool {
    node.and_then(|n| n.attr(attr))
        .is_none_or(|v| v.eq_ignore_ascii_case("true"))
}

/// Keys of the free-form lists Maven merges by key; other lists are taken whole when the
/// target has none.
fn list_item_key(list: &str, item: &XNode) -> Option<String> {
    let text = |n: &str| item.child_text(n).unwrap_or("").to_string();
    match list {
        "plugins" => Some(format!(
            "{}:{}",
            item.child_text("groupId")
                .unwrap_or("org.apache.maven.plugins"),
            text("artifactId")
        )),
        "extensions" => Some(format!("{}:{}", text("groupId"), text("artifactId"))),
        "executions" => Some(item.child_text("id").unwrap_or("default").to_string()),
        "pluginRepositories" => Some(text("id")),
        _ => None,
    }
}

/// Lists and text collections inside free-form elements (their children are items).
fn is_list(name: &str) -> bool {
    matches!(
        name,
        "plugins"
            | "extensions"
            | "executions"
            | "resources"
            | "testResources"
            | "filters"
            | "goals"
            | "dependencies"
            | "exclusions"
            | "includes"
            | "excludes"
            | "reportSets"
            | "reports"
            | "roles"
            | "notifiers"
            | "licenses"
            | "developers"
            | "contributors"
            | "mailingLists"
            | "otherArchives"
            | "pluginRepositories"
            | "configuration"
    )
}

/// Deep merge of a free-form element: text and objects field by field, keyed lists by key,
/// other lists and configuration DOMs taken whole when the target has none. `skip` names
/// children that are never merged (the relocation).
pub(crate) fn merge_node(target: &mut XNode, source: &XNode, dominant: bool, skip: &[&str]) {
    for (k, v) in &source.attrs {
        match target.attrs.iter_mut().find(|(tk, _)| tk == k) {
            Some(slot) if dominant => slot.1 = v.clone(),
            Some(_) => {}
            None => target.attrs.push((k.clone(), v.clone())),
        }
    }
    for s in &source.children {
        if skip.contains(&s.name.as_str()) {
            continue;
        }
        let existing = target.children.iter().position(|t| t.name == s.name);
        match existing {
            None => target.children.push(s.clone()),
            Some(i) => {
                let t = &mut target.children[i];
                if is_list(&s.name) {
                    merge_list_node(t, s, dominant);
                } else if s.children.is_empty() && t.children.is_empty() {
                    if dominant {
                        t.text = s.text.clone();
                    }
                } else {
                    merge_node(t, s, dominant, &[]);
                }
            }
        }
    }
}

fn merge_list_node(target: &mut XNode, source: &XNode, dominant: bool) {
    let list = target.name.clone();
    let keyed = source
        .children
        .first()
        .and_then(|i| list_item_key(&list, i))
        .is_some();
    if !keyed {
        if target.children.is_empty() || (dominant && list != "configuration") {
            if dominant {
                for s in &source.children {
                    if !target.children.contains(s) {
                        target.children.push(s.clone());
                    }
                }
            } else {
                target.children = source.children.clone();
            }
        }
        return;
    }
    for s in &source.children {
        let k = list_item_key(&list, s);
        match target
            .children
            .iter()
            .position(|t| list_item_key(&list, t) == k)
        {
            Some(i) => merge_node(&mut target.children[i], s, dominant, &[]),
            None => target.children.push(s.clone()),
        }
    }
}

// ------------------------------------------------------------------------------ inheritance

/// `DefaultInheritanceAssembler.assembleModelInheritance(child, parent)`.
pub fn inherit(child: &mut Model, parent: &Model) {
    inherit_from(child, parent, false);
}

/// [`inherit`], told whether the parent's dependencies and dependency management each have
/// unique keys ([`unique_keys`]; then they are only looked up, not merged among themselves).
pub(crate) fn inherit_from(child: &mut Model, parent: &Model, parent_unique: bool) {
    let child_dir = child
        .base
        .property("project.directory")
        .map(str::to_string)
        .or_else(|| child.artifact_id.clone())
        .unwrap_or_default();
    // Model fields
    if let (Some(cp), Some(pp)) = (child.parent.as_mut(), parent.parent.as_ref()) {
        fill(&mut cp.group_id, &pp.group_id, false);
        fill(&mut cp.artifact_id, &pp.artifact_id, false);
        fill(&mut cp.version, &pp.version, false);
    }
    fill(&mut child.group_id, &parent.group_id, false);
    fill(&mut child.version, &parent.version, false);
    let attr = "child.project.url.inherit.append.path";
    if !child.attrs.iter().any(|(k, _)| k == attr) {
        if let Some(v) = parent.attrs.iter().find(|(k, _)| k == attr) {
            child.attrs.push(v.clone());
        }
    }
    let parent_appends = parent
        .attrs
        .iter()
        .find(|(k, _)| k == attr)
        .is_none_or(|(_, v)| v.eq_ignore_ascii_case("true"));
    for p in &parent.extra {
        let existing = child.extra.iter().position(|c| c.name == p.name);
        match (p.name.as_str(), existing) {
            ("name" | "prerequisites" | "modules" | "reports", _) => {}
            ("url", None) => {
                let mut u = (**p).clone();
                u.text = child_url(&p.text, parent_appends, &child_dir);
                child.extra.push(Arc::new(u));
            }
            ("scm", Some(i)) => {
                let mut scm = (*child.extra[i]).clone();
                inherit_scm(&mut scm, p, &child_dir);
                child.extra[i] = Arc::new(scm);
            }
            ("scm", None) => {
                let mut scm = XNode {
                    name: "scm".into(),
                    pos: p.pos,
                    ..XNode::default()
                };
                inherit_scm(&mut scm, p, &child_dir);
                child.extra.push(Arc::new(scm));
            }
            // Layers: the parent's build sits behind the child's.
            ("build", _) | (_, None) => child.extra.push(p.clone()),
            _ => {}
        }
    }
    // ModelBase
    inherit_distribution_management(&mut child.base, &parent.base, &child_dir);
    merge_repositories(
        &mut child.base.repositories,
        &parent.base.repositories,
        false,
    );
    merge_base_extra(&mut child.base.extra, &parent.base.extra, false);
    merge_keyed(
        &mut child.base.dependencies,
        &parent.base.dependencies,
        false,
        parent_unique,
    );
    if let Some(pm) = &parent.base.dependency_management {
        let cm = child
            .base
            .dependency_management
            .get_or_insert_with(Vec::new);
        merge_keyed(cm, pm, false, parent_unique);
    }
    merge_properties(
        &mut child.base.properties,
        &parent.base.properties,
        false,
        Some("project.directory"),
    );
}

fn inherit_scm(target: &mut XNode, source: &XNode, child_dir: &str) {
    for (k, v) in &source.attrs {
        if target.attr(k).is_none() {
            target.attrs.push((k.clone(), v.clone()));
        }
    }
    for field in ["connection", "developerConnection", "url", "tag"] {
        let Some(s) = source.child(field) else {
            continue;
        };
        if target.child(field).is_some() {
            continue;
        }
        let mut n = s.clone();
        if field != "tag" {
            let attr = format!("child.scm.{field}.inherit.append.path");
            n.text = child_url(&s.text, append_allowed(Some(source), &attr), child_dir);
        }
        target.children.push(n);
    }
}

fn inherit_distribution_management(target: &mut ModelBase, source: &ModelBase, child_dir: &str) {
    let Some(src) = &source.distribution_management else {
        return;
    };
    let tgt = target.distribution_management.get_or_insert_with(|| XNode {
        name: "distributionManagement".into(),
        pos: src.pos,
        ..XNode::default()
    });
    let had_site_url = tgt.child("site").and_then(|s| s.child("url")).is_some();
    merge_node(tgt, src, false, &["relocation"]);
    if !had_site_url {
        let append = append_allowed(src.child("site"), "child.site.url.inherit.append.path");
        if let Some(url) = tgt
            .children
            .iter_mut()
            .find(|c| c.name == "site")
            .and_then(|s| s.children.iter_mut().find(|c| c.name == "url"))
        {
            url.text = child_url(&url.text, append, child_dir);
        }
    }
}

fn merge_base_extra(target: &mut Vec<Arc<XNode>>, source: &[Arc<XNode>], dominant: bool) {
    for s in source {
        let existing = target.iter().position(|t| t.name == s.name);
        match (s.name.as_str(), existing) {
            ("reports", Some(i)) if dominant => target[i] = s.clone(),
            ("reports", None) if dominant => target.push(s.clone()),
            ("reports", _) => {}
            ("pluginRepositories", Some(i)) => {
                let mut t = (*target[i]).clone();
                merge_list_node(&mut t, s, dominant);
                target[i] = Arc::new(t);
            }
            // Layers (reporting): a dominant one goes in front, a recessive one behind.
            _ if dominant => target.insert(0, s.clone()),
            _ => target.push(s.clone()),
        }
    }
}

// ------------------------------------------------------------------------ profile injection

/// `DefaultProfileInjector.injectProfile`: the profile's parts dominate the model's.
pub fn inject_profile(model: &mut Model, profile: &Profile) {
    let src = &profile.base;
    if let Some(dm) = &src.distribution_management {
        let tgt = model
            .base
            .distribution_management
            .get_or_insert_with(|| XNode {
                name: "distributionManagement".into(),
                pos: dm.pos,
                ..XNode::default()
            });
        merge_node(tgt, dm, true, &["relocation"]);
    }
    for m in &src.modules {
        if !model.base.modules.contains(m) {
            model.base.modules.push(m.clone());
        }
    }
    merge_repositories(&mut model.base.repositories, &src.repositories, true);
    merge_base_extra(&mut model.base.extra, &src.extra, true);
    merge_keyed(&mut model.base.dependencies, &src.dependencies, true, false);
    if let Some(pm) = &src.dependency_management {
        let cm = model
            .base
            .dependency_management
            .get_or_insert_with(Vec::new);
        merge_keyed(cm, pm, true, false);
    }
    merge_properties(&mut model.base.properties, &src.properties, true, None);
    if let Some(b) = &profile.build {
        // A layer in front of the model's own build.
        model.extra.insert(0, b.clone());
    }
}

// ---------------------------------------------------------------------------- normalization

/// `DefaultModelNormalizer.mergeDuplicates`: a dependency declared twice keeps the first place
/// and the last declaration.
pub fn merge_duplicate_dependencies(model: &mut Model) {
    let deps = std::mem::take(&mut model.base.dependencies);
    let mut merged = KeyedDependencies::with_capacity(deps.len());
    for d in deps {
        merged.put(d, true);
    }
    model.base.dependencies = merged.into_items();
}

/// `DefaultModelNormalizer.injectDefaultValues`: a dependency without scope is `compile`.
pub fn inject_default_scopes(model: &mut Model) {
    for d in &mut model.base.dependencies {
        if d.scope.as_deref().is_none_or(str::is_empty) {
            let d = Arc::make_mut(d);
            d.scope = Some("compile".into());
            d.trace.scope_defaulted = true;
        }
    }
}

// --------------------------------------------------------------------- dependency management

fn managed_from(m: &Dependency) -> ManagedFrom {
    match &m.trace.imported {
        Some((boms, import)) => ManagedFrom::Imported {
            boms: boms.clone(),
            import: import.clone(),
            entry: m.origin.clone(),
        },
        None => ManagedFrom::Declared(m.origin.clone()),
    }
}

/// `DefaultDependencyManagementInjector`: each dependency takes what it lacks (version, type,
/// classifier, scope, systemPath; exclusions when it has none; never `optional`) from the
/// management entries with its key, in order.
#[cfg(test)]
pub fn inject_management(model: &mut Model) {
    inject_management_indexed(model, None);
}

/// [`inject_management`], given an index of the model's management when one is at hand
/// (a parent's, whose management every child inherits as it is): its keys must be unique
/// ([`unique_keys`]). Each dependency is then looked up in the management instead of each
/// management entry among the dependencies; with one entry per key, the same entries meet.
pub(crate) fn inject_management_indexed(model: &mut Model, managed_index: Option<&KeyIndex>) {
    let Some(managed) = &model.base.dependency_management else {
        return;
    };
    if model.base.dependencies.is_empty() {
        return;
    }
    // Keys as they are before anything is filled in; a dependency declared twice (after
    // interpolation) is found at its last declaration, as in Maven's map.
    let deps = &model.base.dependencies;
    let index = KeyIndex::last_of(deps);
    let matches: Vec<(usize, &Arc<Dependency>)> = match managed_index {
        Some(managed_index) => (0..deps.len())
            .filter(|&i| index.find(deps, &deps[i]) == Ok(i))
            .filter_map(|i| Some((i, &managed[managed_index.find(managed, &deps[i]).ok()?])))
            .collect(),
        None => managed
            .iter()
            .filter_map(|m| Some((index.find(deps, m).ok()?, m)))
            .collect(),
    };
    for (i, m) in matches {
        let d = Arc::make_mut(&mut model.base.dependencies[i]);
        fill(&mut d.group_id, &m.group_id, false);
        fill(&mut d.artifact_id, &m.artifact_id, false);
        if d.version.is_none() && m.version.is_some() {
            d.version = m.version.clone();
            d.trace.version_from = Some(managed_from(m));
        }
        fill(&mut d.classifier, &m.classifier, false);
        if d.scope.is_none() && m.scope.is_some() {
            d.scope = m.scope.clone();
            d.trace.scope_from = Some(managed_from(m));
        }
        fill(&mut d.system_path, &m.system_path, false);
        if d.exclusions.is_empty() && !m.exclusions.is_empty() {
            d.exclusions = m.exclusions.clone();
            d.trace.exclusions_from = Some(managed_from(m));
        }
    }
}

/// `DefaultDependencyManagementImporter.importManagement`: the model's own entries (a repeated
/// key keeps its first place and the last entry), then each imported entry whose key is new, in
/// import order.
pub fn import_management(model: &mut Model, imports: Vec<Vec<Arc<Dependency>>>) {
    if imports.is_empty() {
        return;
    }
    let own = model.base.dependency_management.take().unwrap_or_default();
    let mut merged = KeyedDependencies::with_capacity(own.len());
    for d in own {
        merged.put(d, true);
    }
    for d in imports.into_iter().flatten() {
        merged.put(d, false);
    }
    model.base.dependency_management = Some(merged.into_items());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolution::pom::model::from_xnode;
    use crate::resolution::pom::xml::read_pom;

    fn model(xml: &str) -> Model {
        from_xnode(read_pom(xml.as_bytes()).unwrap().root, "t")
    }

    fn keys(deps: &[Arc<Dependency>]) -> Vec<String> {
        deps.iter()
            .map(|d| {
                format!(
                    "{}@{}",
                    d.management_key(),
                    d.version.as_deref().unwrap_or("")
                )
            })
            .collect()
    }

    #[test]
    fn inheritance_keeps_child_first_and_adds_parent_entries() {
        let mut child = model(
            "<project><artifactId>c</artifactId><dependencies>\
             <dependency><groupId>g</groupId><artifactId>a</artifactId><version>1</version></dependency>\
             </dependencies><properties><p>child</p></properties></project>",
        );
        let parent = model(
            "<project><groupId>pg</groupId><artifactId>p</artifactId><version>9</version>\
             <url>http://x/</url><name>N</name><dependencies>\
             <dependency><groupId>g</groupId><artifactId>b</artifactId><version>2</version></dependency>\
             <dependency><groupId>g</groupId><artifactId>a</artifactId><version>3</version></dependency>\
             </dependencies><properties><p>parent</p><q>parent</q><project.directory>x</project.directory></properties></project>",
        );
        inherit(&mut child, &parent);
        assert_eq!(keys(&child.base.dependencies), ["g:a:jar@1", "g:b:jar@2"]);
        assert_eq!(child.group_id.as_deref(), Some("pg"));
        assert_eq!(child.version.as_deref(), Some("9"));
        assert_eq!(child.base.property("p"), Some("child"));
        assert_eq!(child.base.property("q"), Some("parent"));
        assert_eq!(child.base.property("project.directory"), None);
        assert_eq!(child.extra("url").unwrap().text, "http://x/c/");
        assert!(child.extra("name").is_none());
    }

    #[test]
    fn profiles_dominate_and_duplicates_collapse() {
        let mut m = model(
            "<project><dependencies>\
             <dependency><groupId>g</groupId><artifactId>a</artifactId><version>1</version></dependency>\
             <dependency><groupId>g</groupId><artifactId>b</artifactId><version>1</version></dependency>\
             <dependency><groupId>g</groupId><artifactId>a</artifactId><version>2</version></dependency>\
             </dependencies><repositories><repository><id>r</id></repository></repositories>\
             <profiles><profile><dependencies>\
             <dependency><groupId>g</groupId><artifactId>b</artifactId><version>5</version></dependency>\
             <dependency><groupId>g</groupId><artifactId>c</artifactId><version>6</version></dependency>\
             </dependencies><repositories><repository><id>p</id></repository><repository><id>r</id><url>u</url></repository></repositories></profile></profiles></project>",
        );
        merge_duplicate_dependencies(&mut m);
        assert_eq!(keys(&m.base.dependencies), ["g:a:jar@2", "g:b:jar@1"]);
        let p = m.profiles[0].clone();
        inject_profile(&mut m, &p);
        assert_eq!(
            keys(&m.base.dependencies),
            ["g:a:jar@2", "g:b:jar@5", "g:c:jar@6"]
        );
        let ids: Vec<_> = m
            .base
            .repositories
            .iter()
            .map(|r| r.id.clone().unwrap())
            .collect();
        assert_eq!(ids, ["p", "r"]);
        assert_eq!(m.base.repositories[1].url.as_deref(), Some("u"));
    }

    #[test]
    fn management_fills_what_is_missing_only() {
        let mut m = model(
            "<project><dependencies>\
             <dependency><groupId>g</groupId><artifactId>a</artifactId><optional>true</optional></dependency>\
             <dependency><groupId>g</groupId><artifactId>b</artifactId><version>1</version><scope>test</scope></dependency>\
             </dependencies><dependencyManagement><dependencies>\
             <dependency><groupId>g</groupId><artifactId>a</artifactId><version>2</version><scope>runtime</scope><optional>false</optional>\
             <exclusions><exclusion><groupId>x</groupId><artifactId>y</artifactId></exclusion></exclusions></dependency>\
             <dependency><groupId>g</groupId><artifactId>b</artifactId><version>3</version><scope>compile</scope></dependency>\
             </dependencies></dependencyManagement></project>",
        );
        inject_management(&mut m);
        let a = &m.base.dependencies[0];
        assert_eq!(a.version.as_deref(), Some("2"));
        assert_eq!(a.scope.as_deref(), Some("runtime"));
        assert_eq!(a.optional.as_deref(), Some("true"));
        assert_eq!(a.exclusions.len(), 1);
        assert!(a.trace.version_from.is_some());
        let b = &m.base.dependencies[1];
        assert_eq!(b.version.as_deref(), Some("1"));
        assert_eq!(b.scope.as_deref(), Some("test"));
        inject_default_scopes(&mut m);
    }

    #[test]
    fn child_urls_append_the_directory() {
        assert_eq!(child_url("http://h/p", true, "c"), "http://h/p/c");
        assert_eq!(child_url("http://h/p/", true, "c"), "http://h/p/c/");
        assert_eq!(child_url("http://h/p/", false, "c"), "http://h/p/");
        assert_eq!(child_url("http://h/p/", true, "/c"), "http://h/p/c/");
    }
}
