//! The POM model as Maven's model builder sees it (the `org.apache.maven.model` classes that
//! matter for a dependency view), built from a read [`XNode`] tree.
//!
//! Typed: coordinates, parent, properties, dependencies, dependency management, repositories,
//! profiles (with their activation), modules. Everything else (name, url, scm, build,
//! reporting, distribution management, ...) stays an [`XNode`] in `extra`: it takes part in
//! inheritance, interpolation (an expression cycle in `<description>` makes a POM invalid too)
//! and `${project.*}` lookups, but has no typed use here.
//!
//! Defaults are Maven's: `packaging` `jar`, dependency `type` `jar`, parent `relativePath`
//! `../pom.xml`, profile id `default`, repository layout `default`.
//!
//! Every dependency, property and repository records where it was written ([`Origin`]), and a
//! dependency collects what happened to it on the way ([`Trace`]) for `m2r describe`'s
//! explanations.

use super::xml::XNode;
use crate::settings::{Activation, ActivationFile, ActivationOs, ActivationProperty};
use crate::xml::Pos;
use std::path::PathBuf;
use std::sync::Arc;

/// Where an element was written: which POM, which line, which profile.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Origin {
    /// The POM: `groupId:artifactId:version` as written (inherited parts filled from the
    /// parent declaration), or its file when it has no coordinates.
    pub model: Arc<str>,
    /// Position of the element's start tag.
    pub pos: Pos,
    /// The profile it came from, if any.
    pub profile: Option<Arc<str>>,
}

impl Origin {
    /// `model line N` or `model, profile p, line N`.
    pub fn describe(&self) -> String {
        let mut s = self.model.to_string();
        if let Some(p) = &self.profile {
            s.push_str(&format!(", profile `{p}`"));
        }
        if self.pos.line > 0 {
            s.push_str(&format!(", line {}", self.pos.line));
        }
        s
    }
}

/// A `<properties>` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Property {
    /// The element name.
    pub key: String,
    /// The trimmed text.
    pub value: String,
    /// Where it was defined.
    pub origin: Origin,
}

/// A dependency `<exclusion>`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Exclusion {
    /// `groupId`.
    pub group_id: Option<String>,
    /// `artifactId`.
    pub artifact_id: Option<String>,
}

/// Where a dependency's version (or scope, exclusions) came from, for explanations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ManagedFrom {
    /// The dependencyManagement entry written at this origin (in the POM or a parent).
    Declared(Origin),
    /// An entry of an imported BOM: the BOM chain, outermost first, and the entry's origin.
    Imported {
        /// `g:a:v` of each BOM on the way (the import written first).
        boms: Vec<String>,
        /// Where the `import` was declared.
        import: Origin,
        /// Where the entry was written (in the last BOM or its parents).
        entry: Origin,
    },
}

/// One expression resolved while interpolating a field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    /// 0 for an expression of the field itself, 1 for one inside its value, ...
    pub depth: usize,
    /// The expression (`lib.version`, `project.version`).
    pub name: String,
    /// Its final value.
    pub value: String,
    /// Where the answer came from (`property defined in g:a:v, line 12`, `the model`, ...).
    pub source: String,
}

/// The expressions met while interpolating one field of a dependency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpressionUse {
    /// The field (`version`, `scope`, ...).
    pub field: &'static str,
    /// The field as written.
    pub raw: String,
    /// The expressions resolved, outermost first (each followed by those inside its value).
    pub resolved: Vec<Resolution>,
}

/// What happened to a dependency between its declaration and the effective model.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Trace {
    /// The management entry that gave the version, when the declaration had none.
    pub version_from: Option<ManagedFrom>,
    /// The management entry that gave the scope, when the declaration had none.
    pub scope_from: Option<ManagedFrom>,
    /// The management entry that gave the exclusions, when the declaration had none.
    pub exclusions_from: Option<ManagedFrom>,
    /// For a managed entry that came from a BOM: the BOM chain and where it was imported.
    pub imported: Option<(Vec<String>, Origin)>,
    /// Expressions interpolated in the dependency's fields.
    pub expressions: Vec<ExpressionUse>,
    /// True when no scope was declared or managed and Maven's default (`compile`) applied.
    pub scope_defaulted: bool,
}

/// A `<dependency>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dependency {
    /// `groupId`.
    pub group_id: Option<String>,
    /// `artifactId`.
    pub artifact_id: Option<String>,
    /// `version`.
    pub version: Option<String>,
    /// `type` (Maven's default `jar`).
    pub type_: String,
    /// `classifier`.
    pub classifier: Option<String>,
    /// `scope`.
    pub scope: Option<String>,
    /// `systemPath`.
    pub system_path: Option<String>,
    /// `optional` as written (`true` counts case-insensitively).
    pub optional: Option<String>,
    /// `exclusions`.
    pub exclusions: Vec<Exclusion>,
    /// Where it was written.
    pub origin: Origin,
    /// What happened to it.
    pub trace: Trace,
}

impl Dependency {
    /// Maven's `getManagementKey()`: `groupId:artifactId:type[:classifier]` (Java's `null`
    /// spelled out, as string concatenation does).
    pub fn management_key(&self) -> String {
        let mut key = format!(
            "{}:{}:{}",
            self.group_id.as_deref().unwrap_or("null"),
            self.artifact_id.as_deref().unwrap_or("null"),
            self.type_
        );
        if let Some(c) = &self.classifier {
            key.push(':');
            key.push_str(c);
        }
        key
    }

    /// The parts of [`management_key`](Self::management_key) (`null` for an absent part), the
    /// classifier only when present: the key is these joined by `:`.
    fn key_parts(&self) -> [Option<&str>; 4] {
        [
            Some(self.group_id.as_deref().unwrap_or("null")),
            Some(self.artifact_id.as_deref().unwrap_or("null")),
            Some(self.type_.as_str()),
            self.classifier.as_deref(),
        ]
    }

    /// Feeds [`management_key`](Self::management_key) to `state` without building it: equal
    /// keys hash equally, whatever their parts (for [`same_management_key`](Self::same_management_key)).
    pub fn hash_management_key<H: std::hash::Hasher>(&self, state: &mut H) {
        // One `write` of the joined key when it fits (hashers are fastest on whole slices);
        // a longer key goes in pieces, which a streaming hasher (SipHash) hashes the same.
        let mut buf = [0u8; 128];
        let mut len = 0;
        let mut fits = true;
        for (i, part) in self.key_parts().into_iter().flatten().enumerate() {
            let sep = usize::from(i > 0);
            if len + sep + part.len() > buf.len() {
                fits = false;
                break;
            }
            if sep == 1 {
                buf[len] = b':';
            }
            buf[len + sep..len + sep + part.len()].copy_from_slice(part.as_bytes());
            len += sep + part.len();
        }
        if fits {
            state.write(&buf[..len]);
        } else {
            for (i, part) in self.key_parts().into_iter().flatten().enumerate() {
                if i > 0 {
                    state.write(b":");
                }
                state.write(part.as_bytes());
            }
        }
        state.write(&[0xff]);
    }

    /// `management_key() == other.management_key()`, without building either.
    pub fn same_management_key(&self, other: &Dependency) -> bool {
        let (a, b) = (self.key_parts(), other.key_parts());
        let joined_len =
            |parts: &[Option<&str>; 4]| parts.iter().flatten().map(|p| p.len() + 1).sum::<usize>();
        if joined_len(&a) != joined_len(&b) {
            return false;
        }
        let len = |p: &Option<&str>| p.map(str::len);
        if a.iter().zip(&b).all(|(x, y)| len(x) == len(y)) {
            // Parts of the same lengths: the joined keys are equal exactly when the parts are.
            return a[1] == b[1] && a[0] == b[0] && a[2] == b[2] && a[3] == b[3];
        }
        // The joined keys compared slice by slice: parts may hold `:` themselves, so equal keys
        // need not have equal parts.
        let (a, b) = (joined_pieces(a), joined_pieces(b));
        let (mut i, mut x, mut j, mut y) = (0, 0, 0, 0);
        loop {
            while i < a.len() && x == a[i].len() {
                (i, x) = (i + 1, 0);
            }
            while j < b.len() && y == b[j].len() {
                (j, y) = (j + 1, 0);
            }
            if i == a.len() || j == b.len() {
                return i == a.len() && j == b.len();
            }
            let n = (a[i].len() - x).min(b[j].len() - y);
            if a[i][x..x + n] != b[j][y..y + n] {
                return false;
            }
            (x, y) = (x + n, y + n);
        }
    }

    /// `groupId:artifactId:version[:classifier]`, for messages.
    pub fn display_id(&self) -> String {
        let mut s = format!(
            "{}:{}:{}",
            self.group_id.as_deref().unwrap_or("null"),
            self.artifact_id.as_deref().unwrap_or("null"),
            self.version.as_deref().unwrap_or("null")
        );
        if let Some(c) = &self.classifier {
            s.push(':');
            s.push_str(c);
        }
        s
    }
}

/// What a build knows about the dependency management entries a model shares with others.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KnownEntries<'a> {
    /// Entries known to need no work (see where it is used).
    pub(crate) entries: &'a SharedEntries,
    /// Every entry of the model's own dependency management is one of `entries` (then none
    /// needs to be looked up).
    pub(crate) whole_management: bool,
}

/// Dependency entries by identity (the `Arc`, not the value): what the builder knows about
/// entries that many models share, such as the management every child of a parent inherits.
/// The set holds the entries, so their addresses cannot be reused by others.
#[derive(Debug, Default)]
pub(crate) struct SharedEntries {
    entries: hashbrown::HashTable<Arc<Dependency>>,
}

impl SharedEntries {
    fn address_hash(d: &Arc<Dependency>) -> u64 {
        // Addresses are the allocator's, not the input's: a multiplicative hash spreads them.
        let h = (Arc::as_ptr(d) as usize as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        h ^ (h >> 29)
    }

    /// Adds `d` (by identity).
    pub(crate) fn insert(&mut self, d: &Arc<Dependency>) {
        if !self.contains(d) {
            self.entries
                .insert_unique(Self::address_hash(d), d.clone(), Self::address_hash);
        }
    }

    /// Whether `d` itself (not an equal entry) is in the set.
    pub(crate) fn contains(&self, d: &Arc<Dependency>) -> bool {
        !self.entries.is_empty()
            && self
                .entries
                .find(Self::address_hash(d), |e| Arc::ptr_eq(e, d))
                .is_some()
    }
}

/// The slices a management key is the concatenation of: the parts with `:` between them.
fn joined_pieces(parts: [Option<&str>; 4]) -> [&[u8]; 7] {
    let mut out: [&[u8]; 7] = [b""; 7];
    for (i, p) in parts.into_iter().flatten().enumerate() {
        if i > 0 {
            out[2 * i - 1] = b":";
        }
        out[2 * i] = p.as_bytes();
    }
    out
}

/// A repository `<releases>` / `<snapshots>` policy.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RepositoryPolicy {
    /// `enabled` as written (absent counts as `true`).
    pub enabled: Option<String>,
    /// `updatePolicy`.
    pub update_policy: Option<String>,
    /// `checksumPolicy`.
    pub checksum_policy: Option<String>,
}

/// A `<repository>` of a POM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repository {
    /// `id`.
    pub id: Option<String>,
    /// `name`.
    pub name: Option<String>,
    /// `url`.
    pub url: Option<String>,
    /// `layout` (default `default`).
    pub layout: String,
    /// `releases`.
    pub releases: Option<RepositoryPolicy>,
    /// `snapshots`.
    pub snapshots: Option<RepositoryPolicy>,
    /// Where it was written.
    pub origin: Origin,
}

/// `<parent>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parent {
    /// `groupId`.
    pub group_id: Option<String>,
    /// `artifactId`.
    pub artifact_id: Option<String>,
    /// `version` (a version range resolves to the highest match).
    pub version: Option<String>,
    /// `relativePath` (default `../pom.xml`; `<relativePath/>` disables the local lookup).
    pub relative_path: String,
    /// Where it was written.
    pub pos: Pos,
}

impl Parent {
    /// `groupId:artifactId:version`.
    pub fn id(&self) -> String {
        format!(
            "{}:{}:{}",
            self.group_id.as_deref().unwrap_or("null"),
            self.artifact_id.as_deref().unwrap_or("null"),
            self.version.as_deref().unwrap_or("null")
        )
    }
}

/// `distributionManagement/relocation`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Relocation {
    /// New `groupId` (empty or absent: unchanged).
    pub group_id: Option<String>,
    /// New `artifactId`.
    pub artifact_id: Option<String>,
    /// New `version`.
    pub version: Option<String>,
    /// Why.
    pub message: Option<String>,
}

/// What a model and a profile have in common (Maven's `ModelBase`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ModelBase {
    /// `modules/module`.
    pub modules: Vec<String>,
    /// `distributionManagement` (free form; the relocation is read from it).
    pub distribution_management: Option<XNode>,
    /// `properties`, in document order.
    pub properties: Vec<Property>,
    /// `dependencyManagement/dependencies`, `None` without a `<dependencyManagement>`. Entries
    /// are shared (`Arc`): a child inherits its parents' entries without copying them, and
    /// a step that changes one (interpolation, management) copies that one only.
    pub dependency_management: Option<Vec<Arc<Dependency>>>,
    /// `dependencies` (shared entries, as `dependency_management`).
    pub dependencies: Vec<Arc<Dependency>>,
    /// `repositories`.
    pub repositories: Vec<Repository>,
    /// `pluginRepositories`, `reporting`, `reports` (free form, shared; see [`Model::extra`]).
    pub extra: Vec<Arc<XNode>>,
}

impl ModelBase {
    /// The value of a property.
    pub fn property(&self, key: &str) -> Option<&str> {
        self.properties
            .iter()
            .find(|p| p.key == key)
            .map(|p| p.value.as_str())
    }
}

/// A `<profile>`.
#[derive(Debug, Clone, PartialEq)]
pub struct Profile {
    /// `id` (default `default`).
    pub id: String,
    /// `activation`.
    pub activation: Option<Activation>,
    /// What the profile injects.
    pub base: ModelBase,
    /// `build` (free form).
    pub build: Option<Arc<XNode>>,
    /// Where it was written.
    pub pos: Pos,
}

/// A POM.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// `modelVersion`.
    pub model_version: Option<String>,
    /// `parent`.
    pub parent: Option<Parent>,
    /// `groupId`.
    pub group_id: Option<String>,
    /// `artifactId`.
    pub artifact_id: Option<String>,
    /// `version`.
    pub version: Option<String>,
    /// `packaging` (default `jar`).
    pub packaging: String,
    /// Dependencies, management, properties, repositories, ...
    pub base: ModelBase,
    /// `profiles`.
    pub profiles: Vec<Profile>,
    /// Every other element (`name`, `url`, `scm`, `build`, ...), free form and shared between
    /// the models of a lineage. `build` and `reporting` are layered rather than merged: the
    /// model's own first, then the injected profiles' in front of it, then each parent's; a
    /// `${project.build.x}` lookup takes the first layer that has `x` (what the merge would give).
    pub extra: Vec<Arc<XNode>>,
    /// Attributes of `<project>` Maven keeps (`child.project.url.inherit.append.path`).
    pub attrs: Vec<(String, String)>,
    /// The file it was read from, when it is a project file (Maven's `pomFile`).
    pub pom_file: Option<PathBuf>,
    /// How problems and origins name this POM.
    pub label: Arc<str>,
}

impl Default for Model {
    fn default() -> Self {
        Model {
            model_version: None,
            parent: None,
            group_id: None,
            artifact_id: None,
            version: None,
            packaging: "jar".into(),
            base: ModelBase::default(),
            profiles: Vec::new(),
            extra: Vec::new(),
            attrs: Vec::new(),
            pom_file: None,
            label: Arc::from(""),
        }
    }
}

impl Model {
    /// The first (dominant) extra element with this name.
    pub fn extra(&self, name: &str) -> Option<&XNode> {
        self.extra.iter().find(|x| x.name == name).map(|x| &**x)
    }

    /// Every layer of an extra element with this name, dominant first.
    pub fn extra_layers<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a XNode> + 'a {
        self.extra
            .iter()
            .chain(self.base.extra.iter())
            .filter(move |x| x.name == name)
            .map(|x| &**x)
    }

    /// The relocation of this model (its own `distributionManagement/relocation`).
    pub fn relocation(&self) -> Option<Relocation> {
        let r = self
            .base
            .distribution_management
            .as_ref()?
            .child("relocation")?;
        let get = |n: &str| r.child_text(n).map(str::to_string);
        Some(Relocation {
            group_id: get("groupId"),
            artifact_id: get("artifactId"),
            version: get("version"),
            message: get("message"),
        })
    }

    /// Maven's `ModelProblemUtils.toId`: `groupId:artifactId:version`, with the parent's
    /// groupId and version when the model has none, and `[unknown-...]` for missing parts.
    pub fn id(&self) -> String {
        let g = self
            .group_id
            .clone()
            .or_else(|| self.parent.as_ref().and_then(|p| p.group_id.clone()));
        let v = self
            .version
            .clone()
            .or_else(|| self.parent.as_ref().and_then(|p| p.version.clone()));
        format!(
            "{}:{}:{}",
            g.unwrap_or_else(|| "[unknown-group-id]".into()),
            self.artifact_id
                .clone()
                .unwrap_or_else(|| "[unknown-artifact-id]".into()),
            v.unwrap_or_else(|| "[unknown-version]".into())
        )
    }

    /// The project directory (the folder of the project file), when there is one.
    pub(crate) fn project_directory(&self) -> Option<PathBuf> {
        self.pom_file
            .as_ref()
            .and_then(|f| f.parent().map(|p| p.to_path_buf()))
    }
}

// ------------------------------------------------------------------------------ from XNode

/// Builds the model from a read `<project>` element. `label` names the POM in origins until its
/// coordinates are known.
pub fn from_xnode(root: XNode, label: &str) -> Model {
    let mut m = Model {
        attrs: root.attrs,
        ..Model::default()
    };
    let text = |x: &XNode| Some(x.text.clone());
    // Coordinates first: origins name the model by them.
    for c in &root.children {
        match c.name.as_str() {
            "groupId" => m.group_id = text(c),
            "artifactId" => m.artifact_id = text(c),
            "version" => m.version = text(c),
            "parent" => {
                m.parent = Some(Parent {
                    group_id: c.child_text("groupId").map(str::to_string),
                    artifact_id: c.child_text("artifactId").map(str::to_string),
                    version: c.child_text("version").map(str::to_string),
                    relative_path: c
                        .child_text("relativePath")
                        .unwrap_or("../pom.xml")
                        .to_string(),
                    pos: c.pos,
                })
            }
            _ => {}
        }
    }
    let model_label: Arc<str> = if m.artifact_id.is_some() {
        Arc::from(m.id())
    } else {
        Arc::from(label)
    };
    m.label = model_label.clone();
    let origin = |pos: Pos, profile: Option<&Arc<str>>| Origin {
        model: model_label.clone(),
        pos,
        profile: profile.cloned(),
    };
    for c in root.children {
        match c.name.as_str() {
            "groupId" | "artifactId" | "version" | "parent" => {}
            "modelVersion" => m.model_version = Some(c.text),
            "packaging" => m.packaging = c.text,
            "profiles" => {
                for p in c.children {
                    m.profiles.push(profile(p, &origin));
                }
            }
            _ => {
                if let Some(x) = base_element(&mut m.base, c, &origin, None) {
                    m.extra.push(Arc::new(x));
                }
            }
        }
    }
    // Java's order of the map the reader filled, as the builder's `Model.clone()` copies it
    // (profiles' maps are not cloned): see `java_order`.
    m.base.properties =
        super::java_order::cloned(&super::java_order::after_puts(&m.base.properties));
    for p in &mut m.profiles {
        p.base.properties = super::java_order::after_puts(&p.base.properties);
    }
    m
}

/// Reads one `ModelBase` element into `base`; returns elements that are not part of it.
fn base_element(
    base: &mut ModelBase,
    c: XNode,
    origin: &dyn Fn(Pos, Option<&Arc<str>>) -> Origin,
    profile: Option<&Arc<str>>,
) -> Option<XNode> {
    match c.name.as_str() {
        "modules" => base.modules = c.children.into_iter().map(|m| m.text).collect(),
        "distributionManagement" => base.distribution_management = Some(c),
        "properties" => {
            for p in c.children {
                let o = origin(p.pos, profile);
                // Properties is a map: a repeated key keeps its first place, takes the last value.
                match base.properties.iter_mut().find(|q| q.key == p.name) {
                    Some(q) => {
                        q.value = p.text;
                        q.origin = o;
                    }
                    None => base.properties.push(Property {
                        key: p.name,
                        value: p.text,
                        origin: o,
                    }),
                }
            }
        }
        "dependencyManagement" => {
            let deps = c
                .child("dependencies")
                .map(|d| {
                    d.children
                        .iter()
                        .map(|x| Arc::new(dependency(x, origin(x.pos, profile))))
                        .collect()
                })
                .unwrap_or_default();
            base.dependency_management = Some(deps);
        }
        "dependencies" => {
            base.dependencies = c
                .children
                .iter()
                .map(|x| Arc::new(dependency(x, origin(x.pos, profile))))
                .collect()
        }
        "repositories" => {
            base.repositories = c
                .children
                .iter()
                .map(|x| repository(x, origin(x.pos, profile)))
                .collect()
        }
        "pluginRepositories" | "reporting" | "reports" => base.extra.push(Arc::new(c)),
        _ => return Some(c),
    }
    None
}

fn profile(p: XNode, origin: &dyn Fn(Pos, Option<&Arc<str>>) -> Origin) -> Profile {
    let id = p.child_text("id").unwrap_or("default").to_string();
    let tag: Arc<str> = Arc::from(id.as_str());
    let mut out = Profile {
        id,
        activation: None,
        base: ModelBase::default(),
        build: None,
        pos: p.pos,
    };
    for c in p.children {
        match c.name.as_str() {
            "id" => {}
            "activation" => out.activation = Some(activation(&c)),
            "build" => out.build = Some(Arc::new(c)),
            _ => {
                // Profile elements outside ModelBase do not exist in the schema.
                let _ = base_element(&mut out.base, c, origin, Some(&tag));
            }
        }
    }
    out
}

fn activation(a: &XNode) -> Activation {
    let s = |x: &XNode, n: &str| x.child_text(n).map(str::to_string);
    Activation {
        active_by_default: a
            .child_text("activeByDefault")
            .is_some_and(|v| v.eq_ignore_ascii_case("true")),
        jdk: s(a, "jdk"),
        os: a.child("os").map(|o| ActivationOs {
            name: s(o, "name"),
            family: s(o, "family"),
            arch: s(o, "arch"),
            version: s(o, "version"),
        }),
        property: a.child("property").map(|p| ActivationProperty {
            name: s(p, "name"),
            value: s(p, "value"),
        }),
        file: a.child("file").map(|f| ActivationFile {
            missing: s(f, "missing"),
            exists: s(f, "exists"),
        }),
        packaging: None,
        condition: None,
    }
}

fn dependency(x: &XNode, origin: Origin) -> Dependency {
    let s = |n: &str| x.child_text(n).map(str::to_string);
    Dependency {
        group_id: s("groupId"),
        artifact_id: s("artifactId"),
        version: s("version"),
        type_: s("type").unwrap_or_else(|| "jar".into()),
        classifier: s("classifier"),
        scope: s("scope"),
        system_path: s("systemPath"),
        optional: s("optional"),
        exclusions: x
            .child("exclusions")
            .map(|e| {
                e.children
                    .iter()
                    .map(|e| Exclusion {
                        group_id: e.child_text("groupId").map(str::to_string),
                        artifact_id: e.child_text("artifactId").map(str::to_string),
                    })
                    .collect()
            })
            .unwrap_or_default(),
        origin,
        trace: Trace::default(),
    }
}

fn policy(x: &XNode) -> RepositoryPolicy {
    RepositoryPolicy {
        enabled: x.child_text("enabled").map(str::to_string),
        update_policy: x.child_text("updatePolicy").map(str::to_string),
        checksum_policy: x.child_text("checksumPolicy").map(str::to_string),
    }
}

fn repository(x: &XNode, origin: Origin) -> Repository {
    Repository {
        id: x.child_text("id").map(str::to_string),
        name: x.child_text("name").map(str::to_string),
        url: x.child_text("url").map(str::to_string),
        layout: x.child_text("layout").unwrap_or("default").to_string(),
        releases: x.child("releases").map(policy),
        snapshots: x.child("snapshots").map(policy),
        origin,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolution::pom::xml::read_pom;

    #[test]
    fn management_keys_compare_and_hash_as_the_joined_strings() {
        use std::hash::{BuildHasher, Hasher};
        let dep = |g: Option<&str>, a: &str, t: &str, c: Option<&str>| Dependency {
            group_id: g.map(str::to_string),
            artifact_id: Some(a.to_string()),
            version: None,
            type_: t.to_string(),
            classifier: c.map(str::to_string),
            scope: None,
            system_path: None,
            optional: None,
            exclusions: Vec::new(),
            origin: Origin::default(),
            trace: Trace::default(),
        };
        let state = std::collections::hash_map::RandomState::new();
        let hash = |d: &Dependency| {
            let mut h = state.build_hasher();
            d.hash_management_key(&mut h);
            h.finish()
        };
        let long = "x".repeat(200);
        let cases = [
            (
                dep(Some("g"), "a", "jar", None),
                dep(Some("g"), "a", "jar", None),
                true,
            ),
            (
                dep(None, "a", "jar", None),
                dep(Some("null"), "a", "jar", None),
                true,
            ),
            (
                dep(Some("g:a"), "jar", "x", None),
                dep(Some("g"), "a", "jar", Some("x")),
                true,
            ),
            (
                dep(Some("g"), "a", "jar", Some("")),
                dep(Some("g"), "a", "jar", None),
                false,
            ),
            (
                dep(Some("g"), "a", "jar", None),
                dep(Some("g"), "b", "jar", None),
                false,
            ),
            (
                dep(Some(&long), "a:b", "jar", None),
                dep(Some(&format!("{long}:a")), "b", "jar", None),
                true,
            ),
        ];
        for (a, b, same) in cases {
            assert_eq!(
                a.management_key() == b.management_key(),
                same,
                "{a:?} {b:?}"
            );
            assert_eq!(a.same_management_key(&b), same, "{a:?} {b:?}");
            if same {
                assert_eq!(hash(&a), hash(&b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn defaults_and_typed_parts() {
        let xml = r#"<project>
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>p</groupId><artifactId>par</artifactId><version>1</version></parent>
  <artifactId>a</artifactId>
  <properties><x>1</x><x>2</x></properties>
  <dependencies><dependency><groupId>g</groupId><artifactId>d</artifactId><classifier/></dependency></dependencies>
  <distributionManagement><relocation><groupId>n</groupId></relocation></distributionManagement>
  <profiles><profile><activation><activeByDefault>TRUE</activeByDefault></activation></profile></profiles>
  <name>N</name>
</project>"#;
        let m = from_xnode(read_pom(xml.as_bytes()).unwrap().root, "pom.xml");
        assert_eq!(m.packaging, "jar");
        assert_eq!(m.id(), "p:a:1");
        assert_eq!(m.parent.as_ref().unwrap().relative_path, "../pom.xml");
        assert_eq!(m.base.property("x"), Some("2"));
        let d = &m.base.dependencies[0];
        assert_eq!(d.management_key(), "g:d:jar:");
        assert_eq!(d.origin.pos.line, 6);
        assert_eq!(m.relocation().unwrap().group_id.as_deref(), Some("n"));
        assert_eq!(m.profiles[0].id, "default");
        assert!(m.profiles[0].activation.as_ref().unwrap().active_by_default);
        assert_eq!(m.extra("name").unwrap().text, "N");
    }
}
