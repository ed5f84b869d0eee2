//! What to publish: [`PublishRequest`] (one or several modules, one timestamp), [`PublishModule`] (one
//! `groupId:artifactId:version` and its files) and [`PublishArtifact`] (one file with its
//! classifier and extension), and how `m2r install` / `m2r deploy` make a module from a POM, a
//! main file and attachments the way maven-install-plugin 3.1.0 `install-file` and
//! maven-deploy-plugin 3.0.0 `deploy-file` do:
//!
//! - the coordinates come from the POM as written (`MavenXpp3Reader`, strict: an unknown element
//!   is an error): `groupId` and `version` fall back to the parent's, `packaging` defaults to
//!   `jar`; no inheritance, no interpolation (`${revision}` is refused as an invalid version);
//!   ids may hold `A-Z a-z 0-9 - _ .` only, a version none of `\/:"<>|?*[](){},`;
//! - the main file comes first, then the POM (`deploy-file`'s order; it decides the order of the
//!   `<snapshotVersion>` entries), then the attachments in the order given;
//! - the main file's extension is its file name's (after the last dot; `x.tar.gz` → `tar.gz`),
//!   its classifier the packaging's (Maven's artifact types: `test-jar` → `tests`,
//!   `java-source` → `sources`, `javadoc` → `javadoc`, `ejb-client` → `client`);
//! - an attachment `FILE:CLASSIFIER:TYPE` gets the extension of the artifact type `TYPE`: `jar`
//!   for `test-jar`, `maven-plugin`, `ejb`, `ejb-client`, `java-source` and `javadoc`, the type
//!   itself for any other (`jar.asc`, `zip`, `pom`);
//! - packaging `pom` publishes the POM alone.
//!
//! Two combinations `deploy-file` accepts and m2r refuses: a main file other than the POM with
//! packaging `pom` (Maven would upload that file *as* the `.pom`), and no main file with another
//! packaging (Maven would upload the POM twice, once as `<artifactId>-<version>.xml`).

use super::error::PublishError;
use crate::download::coords::{base_version, is_snapshot_version};
use crate::resolution::artifact::ArtifactType;
use crate::resolution::pom::xml::read_pom;
use crate::resolution::Artifact;
use std::path::{Path, PathBuf};

/// One file of a module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishArtifact {
    /// Classifier, empty when none.
    pub classifier: String,
    /// Extension (`jar`, `pom`, `tar.gz`, `jar.asc`).
    pub extension: String,
    /// The local file.
    pub file: PathBuf,
    /// The artifact type (`maven-plugin`), when a build tool knows it: the first artifact of a
    /// `groupId:artifactId` with type `maven-plugin` sets `<latest>` in its metadata. The install
    /// and deploy plugins of Maven 3.8.7 never set one.
    pub artifact_type: Option<String>,
}

impl PublishArtifact {
    /// An artifact with `classifier` and `extension`.
    pub fn new(classifier: &str, extension: &str, file: impl Into<PathBuf>) -> Self {
        PublishArtifact {
            classifier: classifier.to_string(),
            extension: extension.to_string(),
            file: file.into(),
            artifact_type: None,
        }
    }
}

/// One `groupId:artifactId:version` and its files, in the order they are published.
///
/// ```
/// use m2resolver::publish::{PublishModule, PublishArtifact};
/// let m = PublishModule::new("org.example", "lib", "1.0-SNAPSHOT")
///     .with(PublishArtifact::new("", "pom", "pom.xml"))
///     .with(PublishArtifact::new("", "jar", "target/lib.jar"));
/// assert!(m.is_snapshot());
/// assert_eq!(m.base_version(), "1.0-SNAPSHOT");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishModule {
    /// `groupId`.
    pub group_id: String,
    /// `artifactId`.
    pub artifact_id: String,
    /// The version (`1.0`, `1.0-SNAPSHOT`).
    pub version: String,
    /// Its files.
    pub artifacts: Vec<PublishArtifact>,
}

impl PublishModule {
    /// A module without files.
    pub fn new(group_id: &str, artifact_id: &str, version: &str) -> Self {
        PublishModule {
            group_id: group_id.to_string(),
            artifact_id: artifact_id.to_string(),
            version: version.to_string(),
            artifacts: Vec::new(),
        }
    }

    /// Adds a file.
    pub fn with(mut self, artifact: PublishArtifact) -> Self {
        self.artifacts.push(artifact);
        self
    }

    /// Resolver's snapshot test: the version ends with `SNAPSHOT` or is timestamped.
    pub fn is_snapshot(&self) -> bool {
        is_snapshot_version(&self.version)
    }

    /// The base version (`1.0-20260101.000000-1` → `1.0-SNAPSHOT`).
    pub fn base_version(&self) -> String {
        base_version(&self.version)
    }

    /// A module for `artifact`'s `groupId:artifactId:version`, without files.
    pub fn of(artifact: &Artifact) -> Self {
        PublishModule::new(&artifact.group_id, &artifact.artifact_id, &artifact.version)
    }

    /// One of its files as the crate's coordinate type (`groupId:artifactId:extension:classifier:version`,
    /// with the file's artifact type when it has one).
    ///
    /// ```
    /// use m2resolver::publish::{PublishModule, PublishArtifact};
    /// let m = PublishModule::new("org.example", "lib", "1.0");
    /// let a = m.artifact(&PublishArtifact::new("sources", "jar", "lib-sources.jar"));
    /// assert_eq!(a.to_string(), "org.example:lib:jar:sources:1.0");
    /// ```
    pub fn artifact(&self, file: &PublishArtifact) -> Artifact {
        let mut a = Artifact::new(
            &self.group_id,
            &self.artifact_id,
            &file.extension,
            &file.classifier,
            &self.version,
        );
        a.type_id = file.artifact_type.clone();
        a
    }

    /// `groupId:artifactId:version`.
    pub fn gav(&self) -> String {
        format!("{}:{}:{}", self.group_id, self.artifact_id, self.version)
    }

    /// A module as `deploy-file` / `install-file` make it from a POM, an optional main file and
    /// attachments (see the [module documentation](self)).
    pub fn from_files(
        pom: &Path,
        file: Option<&Path>,
        attachments: &[Attachment],
    ) -> Result<PublishModule, PublishError> {
        let coordinates = PomCoordinates::read(pom)?;
        let mut module = PublishModule::new(
            &coordinates.group_id,
            &coordinates.artifact_id,
            &coordinates.version,
        );
        let packaging = coordinates.packaging.as_str();
        if packaging == "pom" {
            // `--file` naming the POM itself is what deploy-file is usually given: the same thing
            let same = |f: &Path| match (f.canonicalize(), pom.canonicalize()) {
                (Ok(a), Ok(b)) => a == b,
                _ => f == pom,
            };
            if let Some(f) = file.filter(|f| !same(f)) {
                return Err(PublishError::Request {
                    message: format!(
                        "{} has packaging `pom`: the POM is the artifact; drop `--file {}` (Maven's deploy-file would upload that file as the .pom)",
                        pom.display(),
                        f.display()
                    ),
                });
            }
            module.artifacts.push(PublishArtifact::new("", "pom", pom));
        } else {
            let Some(f) = file else {
                return Err(PublishError::Request {
                    message: format!(
                        "{} has packaging `{packaging}`: give its main file with --file (only a `pom` packaging is published from its POM alone)",
                        pom.display()
                    ),
                });
            };
            let classifier = type_classifier(packaging).unwrap_or("");
            module
                .artifacts
                .push(PublishArtifact::new(classifier, &file_extension(f), f));
            module.artifacts.push(PublishArtifact::new("", "pom", pom));
        }
        for a in attachments {
            module.artifacts.push(PublishArtifact::new(
                a.classifier.trim(),
                type_extension(a.artifact_type.trim()),
                &a.file,
            ));
        }
        Ok(module)
    }
}

/// An attachment as `--attach FILE:CLASSIFIER:TYPE` gives it (deploy-file's `files`,
/// `classifiers`, `types`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    /// The file.
    pub file: PathBuf,
    /// Classifier (may be empty).
    pub classifier: String,
    /// Artifact type; its extension is the file's in the repository (see [`type_extension`]).
    pub artifact_type: String,
}

impl Attachment {
    /// Parses `FILE:CLASSIFIER:TYPE`, split at the last two colons (a file name may hold one).
    ///
    /// ```
    /// use m2resolver::publish::Attachment;
    /// let a = Attachment::parse("target/lib-sources.jar:sources:jar").unwrap();
    /// assert_eq!((a.classifier.as_str(), a.artifact_type.as_str()), ("sources", "jar"));
    /// assert!(Attachment::parse("lib.jar:sources").is_err());
    /// ```
    pub fn parse(spec: &str) -> Result<Attachment, PublishError> {
        let mut parts = spec.rsplitn(3, ':');
        match (parts.next(), parts.next(), parts.next()) {
            (Some(t), Some(c), Some(f)) if !f.is_empty() => Ok(Attachment {
                file: PathBuf::from(f),
                classifier: c.to_string(),
                artifact_type: t.to_string(),
            }),
            _ => Err(PublishError::Request {
                message: format!("--attach expects FILE:CLASSIFIER:EXTENSION, got `{spec}`"),
            }),
        }
    }
}

/// The extension Maven 3.8.7's artifact handlers give a type (the session's one type registry,
/// [`crate::resolution`]'s; an unknown type is its own extension).
///
/// ```
/// use m2resolver::publish::request::type_extension;
/// assert_eq!(type_extension("test-jar"), "jar");
/// assert_eq!(type_extension("jar.asc"), "jar.asc");
/// ```
pub fn type_extension(artifact_type: &str) -> &str {
    match ArtifactType::lookup(artifact_type) {
        Some(t) => t.extension,
        None => artifact_type,
    }
}

/// The classifier Maven 3.8.7's artifact handlers give a type, if any.
pub fn type_classifier(artifact_type: &str) -> Option<&'static str> {
    ArtifactType::lookup(artifact_type)
        .map(|t| t.classifier)
        .filter(|c| !c.is_empty())
}

/// The extension of a file name as the plugins take it: after the last dot, `tar.<x>` for a
/// name holding `.tar.`, empty without a dot.
///
/// ```
/// use m2resolver::publish::request::file_extension;
/// assert_eq!(file_extension("target/lib-1.0.jar".as_ref()), "jar");
/// assert_eq!(file_extension("dist.tar.gz".as_ref()), "tar.gz");
/// assert_eq!(file_extension("lib.jar.asc".as_ref()), "asc");
/// assert_eq!(file_extension("README".as_ref()), "");
/// ```
pub fn file_extension(file: &Path) -> String {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = name
        .rfind('.')
        .map(|i| name[i + 1..].to_string())
        .unwrap_or_default();
    if name.contains(".tar.") {
        format!("tar.{ext}")
    } else {
        ext
    }
}

/// The coordinates of a POM as the plugins read them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PomCoordinates {
    /// `groupId` (or the parent's).
    pub group_id: String,
    /// `artifactId`.
    pub artifact_id: String,
    /// `version` (or the parent's).
    pub version: String,
    /// `packaging` (default `jar`).
    pub packaging: String,
}

impl PomCoordinates {
    /// Reads `pom` (strictly, as `MavenXpp3Reader` does) and checks the coordinates as the
    /// plugins do.
    pub fn read(pom: &Path) -> Result<PomCoordinates, PublishError> {
        let bytes = crate::bounded::read_regular_file(pom, 16 << 20).map_err(|e| {
            PublishError::Request {
                message: format!("cannot read the POM: {e}"),
            }
        })?;
        let parse_error = |message: String| PublishError::Request {
            message: format!("error parsing POM {}: {message}", pom.display()),
        };
        let text = read_pom(&bytes).map_err(|e| parse_error(e.to_string()))?;
        if let Some(e) = text.strict_error {
            return Err(parse_error(e.to_string()));
        }
        let root = &text.root;
        let parent = root.child("parent");
        let pick = |name: &str, inherit: bool| -> Option<String> {
            root.child_text(name)
                .or_else(|| {
                    inherit
                        .then(|| parent.and_then(|p| p.child_text(name)))
                        .flatten()
                })
                .map(str::to_string)
        };
        let group_id = pick("groupId", true);
        let artifact_id = pick("artifactId", false);
        let version = pick("version", true);
        let packaging = pick("packaging", false).unwrap_or_else(|| "jar".to_string());
        let (Some(group_id), Some(artifact_id), Some(version)) = (group_id, artifact_id, version)
        else {
            return Err(PublishError::Request {
                message: format!(
                    "the artifact information in {} is incomplete: 'groupId', 'artifactId', 'version' and 'packaging' are required",
                    pom.display()
                ),
            });
        };
        let valid_id = |id: &str| {
            !id.is_empty()
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        };
        let valid_version =
            |v: &str| !v.is_empty() && !v.chars().any(|c| "\\/:\"<>|?*[](){},".contains(c));
        if !valid_id(&group_id) || !valid_id(&artifact_id) || !valid_version(&version) {
            return Err(PublishError::Request {
                message: format!(
                    "the artifact information in {} is not valid: `{group_id}:{artifact_id}:{version}` uses invalid characters (ids: A-Z a-z 0-9 - _ .; a version none of \\/:\"<>|?*[](){{}},)",
                    pom.display()
                ),
            });
        }
        Ok(PomCoordinates {
            group_id,
            artifact_id,
            version,
            packaging,
        })
    }
}

/// Everything one install or deploy publishes: the modules, in order, and the instant their
/// metadata is stamped with (one for the whole request, Maven's `maven.startTime`; now when
/// `None`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PublishRequest {
    /// The modules.
    pub modules: Vec<PublishModule>,
    /// The timestamp of snapshot versions and `lastUpdated`.
    pub timestamp: Option<chrono::DateTime<chrono::Utc>>,
}

impl PublishRequest {
    /// A request for one module.
    pub fn module(module: PublishModule) -> Self {
        PublishRequest {
            modules: vec![module],
            timestamp: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pom(dir: &Path, body: &str) -> PathBuf {
        let p = dir.join("pom.xml");
        std::fs::write(
            &p,
            format!("<project><modelVersion>4.0.0</modelVersion>{body}</project>"),
        )
        .unwrap();
        p
    }

    #[test]
    fn deploy_file_order_classifiers_and_extensions() {
        let d = tempfile::tempdir().unwrap();
        let p = pom(
            d.path(),
            "<parent><groupId>org.p</groupId><artifactId>par</artifactId><version>2</version></parent>\
             <artifactId>lib</artifactId><packaging>test-jar</packaging>",
        );
        let attach = [
            Attachment::parse("x/lib.jar.asc::jar.asc").unwrap(),
            Attachment::parse("x/notes.txt: docs :javadoc").unwrap(),
            Attachment::parse("x/dist.tar.gz:bin:tar.gz").unwrap(),
        ];
        let m = PublishModule::from_files(&p, Some(Path::new("t/lib.zip")), &attach).unwrap();
        assert_eq!(m.gav(), "org.p:lib:2");
        let got: Vec<(&str, &str)> = m
            .artifacts
            .iter()
            .map(|a| (a.classifier.as_str(), a.extension.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("tests", "zip"),
                ("", "pom"),
                ("", "jar.asc"),
                ("docs", "jar"),
                ("bin", "tar.gz")
            ]
        );
    }

    #[test]
    fn pom_packaging_and_refusals() {
        let d = tempfile::tempdir().unwrap();
        let p = pom(
            d.path(),
            "<groupId>g</groupId><artifactId>parent</artifactId><version>1-SNAPSHOT</version><packaging>pom</packaging>",
        );
        let m = PublishModule::from_files(&p, None, &[]).unwrap();
        assert_eq!(m.artifacts, [PublishArtifact::new("", "pom", &p)]);
        assert!(m.is_snapshot());
        assert!(PublishModule::from_files(&p, Some(Path::new("a.jar")), &[]).is_err());
        assert_eq!(PublishModule::from_files(&p, Some(&p), &[]).unwrap(), m);
        let p = pom(
            d.path(),
            "<groupId>g</groupId><artifactId>a</artifactId><version>1</version>",
        );
        let e = PublishModule::from_files(&p, None, &[]).unwrap_err();
        assert!(
            e.to_string().contains("give its main file with --file"),
            "{e}"
        );
        for bad in [
            "<groupId>g</groupId><artifactId>a</artifactId><version>${revision}</version>",
            "<groupId>g h</groupId><artifactId>a</artifactId><version>1</version>",
            "<artifactId>a</artifactId><version>1</version>",
            "<groupId>g</groupId><artifactId>a</artifactId><version>1</version><bogus/>",
        ] {
            let p = pom(d.path(), bad);
            assert!(PomCoordinates::read(&p).is_err(), "{bad}");
        }
        assert_eq!(type_extension("maven-plugin"), "jar");
        assert_eq!(type_extension("war"), "war");
        assert_eq!(type_extension(""), "");
    }
}
