//! Artifacts, dependencies and exclusions as Maven Resolver models them, and the artifact type
//! registry of Maven's session (`MavenRepositorySystemUtils.newSession()`).
//!
//! This module owns the shapes shared by the POM model builder and the dependency collector and
//! how they print (`groupId:artifactId:extension[:classifier]:version`, Resolver's
//! `DefaultArtifact.toString()`). It does not parse POMs or compare versions.

pub use crate::download::coords::CoordinateError;
use std::fmt;

/// An artifact: coordinates plus the properties its type gives it.
///
/// ```
/// use m2resolver::resolution::{Artifact, ArtifactType};
/// let a = Artifact::from_type("org.example", "lib", "test-jar", "", "1.0");
/// assert_eq!(a.to_string(), "org.example:lib:jar:tests:1.0");
/// assert_eq!(a.extension, "jar");
/// assert_eq!(ArtifactType::lookup("war").map(|t| t.includes_dependencies), Some(true));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Artifact {
    /// `groupId`.
    pub group_id: String,
    /// `artifactId`.
    pub artifact_id: String,
    /// File extension (`jar`, `pom`, ...), from the type.
    pub extension: String,
    /// Classifier; empty when none.
    pub classifier: String,
    /// Version: a plain version, a range before resolution, or `X-SNAPSHOT`.
    pub version: String,
    /// The POM `<type>` it was made from, when it came from a dependency declaration.
    pub type_id: Option<String>,
    /// The type's properties: whether the artifact carries its dependencies inside it (then the
    /// collector does not descend into it) and whether it goes on a class path.
    pub includes_dependencies: bool,
    /// True for types that belong on a class path (Resolver's `constitutesBuildPath`).
    pub constitutes_build_path: bool,
    /// `systemPath` of a `system`-scoped dependency (Resolver's `localPath` property).
    pub local_path: Option<String>,
}

/// Parses `groupId:artifactId[:extension[:classifier]]:version` ([`Artifact::parse`]).
impl std::str::FromStr for Artifact {
    type Err = CoordinateError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Artifact::parse(s)
    }
}

impl Artifact {
    /// Parses a coordinate as the command line (and Resolver's `DefaultArtifact`) writes it:
    /// `groupId:artifactId[:extension[:classifier]]:version`, extension `jar` unless given,
    /// surrounding whitespace ignored; every part must be usable as a path segment.
    ///
    /// ```
    /// use m2resolver::Artifact;
    /// let a = Artifact::parse("org.example:foo:jar:sources:1.0").unwrap();
    /// assert_eq!((a.group_id.as_str(), a.classifier.as_str()), ("org.example", "sources"));
    /// assert_eq!(a.to_string(), "org.example:foo:jar:sources:1.0");
    /// let b: Artifact = "junit:junit:4.13.2".parse().unwrap();
    /// assert_eq!(b.extension, "jar");
    /// assert!(Artifact::parse("junit:junit").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Artifact, CoordinateError> {
        crate::download::coords::Coordinate::parse(text).map(|c| c.to_artifact())
    }

    /// An artifact with explicit extension and classifier and no type.
    pub fn new(
        group_id: impl Into<String>,
        artifact_id: impl Into<String>,
        extension: impl Into<String>,
        classifier: impl Into<String>,
        version: impl Into<String>,
    ) -> Self {
        Artifact {
            group_id: group_id.into(),
            artifact_id: artifact_id.into(),
            extension: extension.into(),
            classifier: classifier.into(),
            version: version.into(),
            type_id: None,
            includes_dependencies: false,
            constitutes_build_path: false,
            local_path: None,
        }
    }

    /// An artifact for a POM dependency of type `type_id` (maven-core's
    /// `RepositoryUtils.toDependency`): a known type gives the extension and, when `classifier`
    /// is empty, the classifier; an unknown type is its own extension.
    pub fn from_type(
        group_id: impl Into<String>,
        artifact_id: impl Into<String>,
        type_id: &str,
        classifier: &str,
        version: impl Into<String>,
    ) -> Self {
        let (extension, default_classifier, includes, build_path) =
            match ArtifactType::lookup(type_id) {
                Some(t) => (
                    t.extension.to_string(),
                    t.classifier,
                    t.includes_dependencies,
                    t.constitutes_build_path,
                ),
                None => (type_id.to_string(), "", false, false),
            };
        let classifier = if classifier.is_empty() {
            default_classifier
        } else {
            classifier
        };
        let mut a = Artifact::new(group_id, artifact_id, extension, classifier, version);
        a.type_id = Some(type_id.to_string());
        a.includes_dependencies = includes;
        a.constitutes_build_path = build_path;
        a
    }

    /// `groupId:artifactId:extension[:classifier]`: what conflict resolution groups by.
    pub fn conflict_key(&self) -> String {
        if self.classifier.is_empty() {
            format!("{}:{}:{}", self.group_id, self.artifact_id, self.extension)
        } else {
            format!(
                "{}:{}:{}:{}",
                self.group_id, self.artifact_id, self.extension, self.classifier
            )
        }
    }

    /// The same artifact at another version.
    pub fn with_version(&self, version: impl Into<String>) -> Self {
        Artifact {
            version: version.into(),
            ..self.clone()
        }
    }

    /// True when the version ends in `SNAPSHOT` (Resolver's `isSnapshot`).
    pub fn is_snapshot(&self) -> bool {
        self.version.ends_with("SNAPSHOT")
    }
}

impl fmt::Display for Artifact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}",
            self.group_id, self.artifact_id, self.extension
        )?;
        if !self.classifier.is_empty() {
            write!(f, ":{}", self.classifier)?;
        }
        write!(f, ":{}", self.version)
    }
}

/// One entry of the artifact type registry Maven's session starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArtifactType {
    /// The POM `<type>`.
    pub id: &'static str,
    /// The file extension it stands for.
    pub extension: &'static str,
    /// The classifier it implies (empty for none).
    pub classifier: &'static str,
    /// `language` property (`java` or `none`).
    pub language: &'static str,
    /// Goes on a class path.
    pub constitutes_build_path: bool,
    /// Carries its dependencies inside (war, ear, ...): not traversed.
    pub includes_dependencies: bool,
}

/// `MavenRepositorySystemUtils.newSession()`'s `DefaultArtifactTypeRegistry`, Maven 3.8.7.
const TYPES: &[ArtifactType] = &[
    ArtifactType::new("pom", "pom", "", "none", false, false),
    ArtifactType::new("maven-plugin", "jar", "", "java", true, false),
    ArtifactType::new("jar", "jar", "", "java", true, false),
    ArtifactType::new("ejb", "jar", "", "java", true, false),
    ArtifactType::new("ejb-client", "jar", "client", "java", true, false),
    ArtifactType::new("test-jar", "jar", "tests", "java", true, false),
    ArtifactType::new("javadoc", "jar", "javadoc", "java", true, false),
    ArtifactType::new("java-source", "jar", "sources", "java", false, true),
    ArtifactType::new("war", "war", "", "java", false, true),
    ArtifactType::new("ear", "ear", "", "java", false, true),
    ArtifactType::new("rar", "rar", "", "java", false, true),
    ArtifactType::new("par", "par", "", "java", false, true),
];

impl ArtifactType {
    const fn new(
        id: &'static str,
        extension: &'static str,
        classifier: &'static str,
        language: &'static str,
        constitutes_build_path: bool,
        includes_dependencies: bool,
    ) -> Self {
        ArtifactType {
            id,
            extension,
            classifier,
            language,
            constitutes_build_path,
            includes_dependencies,
        }
    }

    /// The registered type with this id, if any.
    pub fn lookup(id: &str) -> Option<ArtifactType> {
        TYPES.iter().find(|t| t.id == id).copied()
    }
}

/// An exclusion: `groupId:artifactId[:classifier:extension]`, each part possibly `*`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Exclusion {
    /// `groupId` or `*`.
    pub group_id: String,
    /// `artifactId` or `*`.
    pub artifact_id: String,
    /// Classifier or `*` (POM exclusions always have `*`).
    pub classifier: String,
    /// Extension or `*` (POM exclusions always have `*`).
    pub extension: String,
}

impl Exclusion {
    /// A POM `<exclusion>`: classifier and extension are `*`, as maven-core converts them.
    pub fn pom(group_id: impl Into<String>, artifact_id: impl Into<String>) -> Self {
        Exclusion {
            group_id: group_id.into(),
            artifact_id: artifact_id.into(),
            classifier: "*".into(),
            extension: "*".into(),
        }
    }

    /// Resolver's `ExclusionDependencySelector` match: every part equal or `*`.
    pub fn matches(&self, artifact: &Artifact) -> bool {
        let part = |pattern: &str, value: &str| pattern == "*" || pattern == value;
        part(&self.group_id, &artifact.group_id)
            && part(&self.artifact_id, &artifact.artifact_id)
            && part(&self.extension, &artifact.extension)
            && part(&self.classifier, &artifact.classifier)
    }
}

impl fmt::Display for Exclusion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.group_id, self.artifact_id)
    }
}

/// A dependency: an artifact with scope, optionality and exclusions.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Dependency {
    /// What is depended on.
    pub artifact: Artifact,
    /// `compile`, `runtime`, `provided`, `test`, `system`, `import`, or empty when not given.
    pub scope: String,
    /// `<optional>`: `None` when not declared.
    pub optional: Option<bool>,
    /// Exclusions, in declaration order.
    pub exclusions: Vec<Exclusion>,
    /// Where the scope's text was made (not part of equality, as in Resolver).
    pub scope_source: ScopeSource,
}

/// Which Java `String` object a dependency's scope is in Maven: a constant of Maven's or
/// Resolver's code (the `compile` Maven's model normalizer fills in, the scopes
/// `JavaScopeDeriver` spells), or the text of a `<scope>` element of one parsed POM.
///
/// Values, not identities, decide resolution; but maven-dependency-tree's verbose tree
/// (`VerboseJavaScopeSelector`) compares the winning scope with the widest one by reference and
/// prints `scope not updated to runtime` on a node whose scope *is* `runtime` when the two are
/// different objects. Equal dependencies share one object (Resolver interns them), which the
/// collector reproduces. Always equal to any other `ScopeSource`, so it never changes how
/// dependencies compare or hash.
///
/// ```
/// use m2resolver::resolution::{Artifact, Dependency, ScopeSource};
/// let a = Artifact::new("g", "a", "jar", "", "1");
/// let mut written = Dependency::new(a.clone(), "runtime");
/// written.scope_source = ScopeSource::written("g:p:1", 12, 5);
/// assert_eq!(written, Dependency::new(a, "runtime"));
/// ```
#[derive(Debug, Clone, Default)]
pub enum ScopeSource {
    /// A string constant of Maven's or Resolver's code (Java interns literals: all are one).
    #[default]
    Literal,
    /// The text of one `<scope>` element, named by where it was written.
    Written(std::sync::Arc<str>),
}

impl ScopeSource {
    /// The scope written in `model` (a POM's `groupId:artifactId:version` or file, with a realm
    /// prefix when the same POM is parsed apart) at `line:column`.
    pub fn written(model: &str, line: u32, column: u32) -> Self {
        ScopeSource::Written(format!("{model}@{line}:{column}").into())
    }

    /// Whether two scopes are the same Java object (given equal text).
    pub fn same_object(&self, other: &ScopeSource) -> bool {
        match (self, other) {
            (ScopeSource::Literal, ScopeSource::Literal) => true,
            (ScopeSource::Written(a), ScopeSource::Written(b)) => a == b,
            _ => false,
        }
    }
}

impl PartialEq for ScopeSource {
    fn eq(&self, _: &ScopeSource) -> bool {
        true
    }
}

impl Eq for ScopeSource {}

impl std::hash::Hash for ScopeSource {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl Dependency {
    /// A dependency with no exclusions and undeclared optionality.
    pub fn new(artifact: Artifact, scope: impl Into<String>) -> Self {
        Dependency {
            artifact,
            scope: scope.into(),
            optional: None,
            exclusions: Vec::new(),
            scope_source: ScopeSource::Literal,
        }
    }

    /// `optional` as Resolver's `Dependency.isOptional()` reads it.
    pub fn is_optional(&self) -> bool {
        self.optional == Some(true)
    }
}

/// What Maven's `DefaultArtifactDescriptorReader` says of one artifact: its POM's effective
/// dependencies and management, the repositories it declares, and the relocations followed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArtifactDescriptor {
    /// The artifact described (after relocation: the artifact finally read).
    pub artifact: Option<Artifact>,
    /// The artifacts relocated from, in the order they were followed.
    pub relocations: Vec<Artifact>,
    /// Effective dependencies, in POM order.
    pub dependencies: Vec<Dependency>,
    /// Effective `dependencyManagement` (after `import` BOMs).
    pub managed_dependencies: Vec<Dependency>,
    /// The POM's repositories (the super POM's `central` last), before mirrors.
    pub repositories: Vec<crate::repository::RemoteRepository>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_map_to_extension_and_classifier() {
        let cases = [
            ("jar", "", "g:a:jar:1"),
            ("test-jar", "", "g:a:jar:tests:1"),
            ("test-jar", "x", "g:a:jar:x:1"),
            ("ejb-client", "", "g:a:jar:client:1"),
            ("java-source", "", "g:a:jar:sources:1"),
            ("pom", "", "g:a:pom:1"),
            ("bundle", "", "g:a:bundle:1"),
            ("zip", "bin", "g:a:zip:bin:1"),
        ];
        for (ty, cls, want) in cases {
            assert_eq!(
                Artifact::from_type("g", "a", ty, cls, "1").to_string(),
                want,
                "{ty}/{cls}"
            );
        }
    }

    #[test]
    fn exclusion_wildcards() {
        let a = Artifact::new("g", "a", "jar", "", "1");
        assert!(Exclusion::pom("g", "a").matches(&a));
        assert!(Exclusion::pom("*", "a").matches(&a));
        assert!(Exclusion::pom("g", "*").matches(&a));
        assert!(!Exclusion::pom("g", "b").matches(&a));
        assert_eq!(a.conflict_key(), "g:a:jar");
    }
}
