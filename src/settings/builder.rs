//! Building the effective settings: locate the files, read each (strict, then lenient),
//! validate each raw file, merge (user over project over global), interpolate the result.
//!
//! This is Maven 3's `DefaultSettingsBuilder` order (validation per raw file before the merged
//! model is interpolated), with Maven 4's project settings (`.mvn/settings.xml`) as an extra
//! level between the global and the user file. The environment and the properties are inputs:
//! nothing here reads the process environment.

use super::interpolate::{interpolate_settings, ValueSources};
use super::merge::merge;
use super::model::{Settings, SourceLevel};
use super::problem::{SettingsProblem, Severity};
use super::validate;
use super::xml::read_settings;
use crate::environment::Vars;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Where one settings level comes from. `Debug` shows the name of in-memory content, not the
/// XML (which may hold passwords).
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SettingsSource {
    /// A file; a file that does not exist counts as empty (Maven skips missing files).
    File(PathBuf),
    /// In-memory content, named for messages.
    Content {
        /// Name used in problems (e.g. a path or `<embedded>`).
        name: String,
        /// The XML text.
        xml: String,
    },
}

impl SettingsSource {
    /// Reads a source from any reader (kept in memory; settings files are small).
    pub fn from_reader(
        name: impl Into<String>,
        mut reader: impl std::io::Read,
    ) -> std::io::Result<Self> {
        let mut xml = String::new();
        reader.read_to_string(&mut xml)?;
        Ok(SettingsSource::Content {
            name: name.into(),
            xml,
        })
    }

    /// In-memory content, named for messages.
    ///
    /// ```
    /// use m2resolver::settings::SettingsSource;
    /// let s = SettingsSource::content("embedded.xml", "<settings/>");
    /// assert_eq!(s.name(), "embedded.xml");
    /// ```
    pub fn content(name: impl Into<String>, xml: impl Into<String>) -> Self {
        SettingsSource::Content {
            name: name.into(),
            xml: xml.into(),
        }
    }

    /// The name used in problems.
    pub fn name(&self) -> String {
        match self {
            SettingsSource::File(p) => p.display().to_string(),
            SettingsSource::Content { name, .. } => name.clone(),
        }
    }
}

impl std::fmt::Debug for SettingsSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SettingsSource::File(p) => f.debug_tuple("File").field(p).finish(),
            SettingsSource::Content { name, xml } => f
                .debug_struct("Content")
                .field("name", name)
                .field("bytes", &xml.len())
                .finish(),
        }
    }
}

impl From<PathBuf> for SettingsSource {
    fn from(path: PathBuf) -> Self {
        SettingsSource::File(path)
    }
}

impl From<&Path> for SettingsSource {
    fn from(path: &Path) -> Self {
        SettingsSource::File(path.to_path_buf())
    }
}

/// Everything settings building depends on. `Debug` shows property and variable names only.
#[derive(Debug, Clone, Default)]
pub struct SettingsRequest {
    /// Installation settings (`${maven.home}/conf/settings.xml` or `-gs`).
    pub global: Option<SettingsSource>,
    /// Maven 4 project settings (`.mvn/settings.xml`).
    pub project: Option<SettingsSource>,
    /// User settings (`~/.m2/settings.xml` or `-s`).
    pub user: Option<SettingsSource>,
    /// User properties (`-D`).
    pub user_properties: Vars,
    /// System properties (`user.home`, `java.version`, `os.name`, `env.*`, ...).
    pub system_properties: Vars,
    /// Environment snapshot, for `${env.NAME}`.
    pub env: Vars,
}

/// The outcome: effective settings and every problem, in Maven's order.
#[derive(Debug, Clone)]
pub struct SettingsResult {
    /// Effective settings (meaningful only when [`SettingsResult::has_errors`] is false).
    pub effective: Settings,
    /// All problems of reading, validation, merging and interpolation.
    pub problems: Vec<SettingsProblem>,
    /// The level and source name that gave `<localRepository>` (the user file unless it has
    /// none; Maven merges the value from the global file only then).
    pub local_repository_source: Option<(SourceLevel, String)>,
}

impl SettingsResult {
    /// True when an ERROR or FATAL problem means the settings cannot be used (Maven stops).
    pub fn has_errors(&self) -> bool {
        self.problems.iter().any(|p| p.severity >= Severity::Error)
    }
}

/// Default file locations, as Maven computes them from `user.home` and `maven.home`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Locations {
    /// `${user.home}/.m2/settings.xml` unless overridden.
    pub user: PathBuf,
    /// `${maven.home}/conf/settings.xml` when a Maven home is known.
    pub global: Option<PathBuf>,
    /// `${user.home}/.m2/repository`: the default local repository.
    pub local_repository: PathBuf,
}

impl Locations {
    /// Computes Maven's default locations. `maven.home` comes from the properties, else the
    /// `M2_HOME` or `MAVEN_HOME` variable; `user.home` from the properties, else `HOME`.
    pub fn from_properties(
        properties: &HashMap<String, String>,
        env: &HashMap<String, String>,
    ) -> Self {
        let home = user_home(properties, env);
        let maven_home = properties
            .get("maven.home")
            .or_else(|| env.get("M2_HOME"))
            .or_else(|| env.get("MAVEN_HOME"))
            .filter(|s| !s.is_empty())
            .map(PathBuf::from);
        Locations {
            user: home.join(".m2").join("settings.xml"),
            global: maven_home.map(|h| h.join("conf").join("settings.xml")),
            local_repository: home.join(".m2").join("repository"),
        }
    }
}

/// `user.home` from the properties, else `HOME` from the environment, else `.`.
pub fn user_home(properties: &HashMap<String, String>, env: &HashMap<String, String>) -> PathBuf {
    properties
        .get("user.home")
        .or_else(|| env.get("HOME"))
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// Builds the effective settings.
pub fn build(request: &SettingsRequest) -> SettingsResult {
    let mut problems = Vec::new();
    let global = read_level(request.global.as_ref(), SourceLevel::Global, &mut problems);
    let project = read_level(
        request.project.as_ref(),
        SourceLevel::Project,
        &mut problems,
    );
    let mut effective = read_level(request.user.as_ref(), SourceLevel::User, &mut problems);
    let has_local = |s: &Settings| s.local_repository.as_deref().is_some_and(|l| !l.is_empty());
    let local_repository_source = [
        (&effective, SourceLevel::User, request.user.as_ref()),
        (&project, SourceLevel::Project, request.project.as_ref()),
        (&global, SourceLevel::Global, request.global.as_ref()),
    ]
    .into_iter()
    .find(|(s, _, _)| has_local(s))
    .map(|(_, level, source)| (level, source.map(SettingsSource::name).unwrap_or_default()));
    let mut lower = project;
    merge(&mut lower, global);
    merge(&mut effective, lower);
    let sources = ValueSources {
        user_properties: Some(&request.user_properties),
        system_properties: Some(&request.system_properties),
        env: Some(&request.env),
    };
    problems.extend(interpolate_settings(&mut effective, &sources));
    SettingsResult {
        effective,
        problems,
        local_repository_source,
    }
}

fn read_level(
    source: Option<&SettingsSource>,
    level: SourceLevel,
    problems: &mut Vec<SettingsProblem>,
) -> Settings {
    let Some(source) = source else {
        return Settings::default();
    };
    let name = source.name();
    let outcome = match source {
        SettingsSource::File(path) => {
            // Missing: Maven's "no settings". Anything else that is not a regular file of a sane
            // size (a directory, /dev/zero, a FIFO, a sparse 1 GiB file) is refused unread.
            match crate::bounded::read_regular_file(path, crate::xml::dom::MAX_INPUT_BYTES as u64) {
                Ok(bytes) => read_settings(&bytes, &name, level, Some(path)),
                Err(e) if e.is_not_found() => return Settings::default(),
                Err(e) => {
                    problems.push(SettingsProblem::new(
                        Severity::Fatal,
                        super::problem::Stage::Build,
                        &name,
                        format!(
                            "Non-readable settings {name}: {}",
                            crate::printable::error_chain(&e)
                        ),
                    ));
                    return Settings::default();
                }
            }
        }
        SettingsSource::Content { xml, .. } => read_settings(xml.as_bytes(), &name, level, None),
    };
    problems.extend(outcome.problems);
    let mut settings = outcome.settings;
    problems.extend(validate::validate(&settings, &name));
    if level == SourceLevel::Project {
        problems.extend(validate::validate_project_settings(&settings, &name));
        strip_project_only(&mut settings);
    }
    settings
}

/// Maven 4 ignores in project settings what only a user may decide.
fn strip_project_only(s: &mut Settings) {
    s.local_repository = None;
    s.interactive_mode = true;
    s.offline = false;
    s.proxies.clear();
    s.use_plugin_registry = false;
    for server in &mut s.servers {
        server.username = None;
        server.password = None;
        server.private_key = None;
        server.passphrase = None;
        server.file_permissions = None;
        server.directory_permissions = None;
        server.aliases.clear();
    }
}

/// Resolves a possibly relative path against a base directory.
pub fn resolve_path(base: &Path, path: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        base.join(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content(xml: &str) -> Option<SettingsSource> {
        Some(SettingsSource::Content {
            name: "x.xml".into(),
            xml: xml.into(),
        })
    }

    #[test]
    fn user_over_project_over_global() {
        let request = SettingsRequest {
            global: content("<settings><mirrors><mirror><id>m</id><url>g</url><mirrorOf>*</mirrorOf></mirror><mirror><id>g</id><url>g</url><mirrorOf>*</mirrorOf></mirror></mirrors></settings>"),
            project: content("<settings><mirrors><mirror><id>m</id><url>p</url><mirrorOf>*</mirrorOf></mirror></mirrors><proxies><proxy><host>h</host></proxy></proxies></settings>"),
            user: content("<settings><mirrors><mirror><id>u</id><url>u</url><mirrorOf>*</mirrorOf></mirror></mirrors></settings>"),
            ..Default::default()
        };
        let r = build(&request);
        let got: Vec<(&str, &str)> = r
            .effective
            .mirrors
            .iter()
            .map(|m| (m.id.as_str(), m.url.as_deref().unwrap_or("")))
            .collect();
        assert_eq!(got, [("u", "u"), ("m", "p"), ("g", "g")]);
        assert!(
            r.effective.proxies.is_empty(),
            "project proxies are ignored"
        );
    }

    #[test]
    fn missing_file_counts_as_empty() {
        let request = SettingsRequest {
            user: Some(SettingsSource::File(PathBuf::from(
                "/nonexistent/settings.xml",
            ))),
            ..Default::default()
        };
        let r = build(&request);
        assert!(r.problems.is_empty());
        assert_eq!(r.effective, Settings::default());
    }

    #[test]
    fn fatal_in_one_file_fails_the_build() {
        let request = SettingsRequest {
            global: content("<settings>"),
            user: content("<settings/>"),
            ..Default::default()
        };
        assert!(build(&request).has_errors());
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_from_properties() {
        use crate::settings::builder::Locations;
        use std::collections::HashMap;
        let props: HashMap<String, String> =
            [("user.home".to_string(), "/home/a".to_string())].into();
        let env: HashMap<String, String> =
            [("M2_HOME".to_string(), "/opt/maven".to_string())].into();
        let l = Locations::from_properties(&props, &env);
        assert_eq!(l.user, std::path::Path::new("/home/a/.m2/settings.xml"));
        assert_eq!(
            l.global.as_deref(),
            Some(std::path::Path::new("/opt/maven/conf/settings.xml"))
        );
    }

    #[test]
    fn doc_build() {
        use crate::settings::builder::{build, SettingsRequest, SettingsSource};
        let request = SettingsRequest {
            user: Some(SettingsSource::Content {
                name: "settings.xml".into(),
                xml: "<settings><localRepository>${user.home}/repo</localRepository></settings>"
                    .into(),
            }),
            system_properties: [("user.home".to_string(), "/home/a".to_string())].into(),
            ..Default::default()
        };
        let result = build(&request);
        assert!(!result.has_errors());
        assert_eq!(
            result.effective.local_repository.as_deref(),
            Some("/home/a/repo")
        );
    }
}
