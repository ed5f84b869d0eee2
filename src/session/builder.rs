//! [`SessionBuilder`]: the inputs of a session and Maven's rules for combining them.
//!
//! Owns what Maven's launcher (`MavenCli`) and request populator decide before settings are
//! read: `-D` parsing and the system-property copy, `-P` parsing, the default settings
//! locations (`${user.home}/.m2/settings.xml`, `${maven.home}/conf/settings.xml`), the
//! `settings.security` property, offline mode and the local repository choice. Everything is
//! taken from one [`Environment`] snapshot (the process's when none is given) so the library
//! never reads process state behind the embedder's back.

use super::request::ProfileChoices;
use super::sourced::{Definition, Sourced};
use super::{Session, SessionError};
use crate::download::{Phase, ProgressEvent, ProgressListener};
use crate::environment::{Environment, Vars};
use crate::security::{MasterSource, SecurityContext};
use crate::settings::builder::{resolve_path, user_home, Locations};
use crate::settings::{SettingsSource, SourceLevel};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Splits one `-D` option as `MavenCli.setCliProperty` does: at the first `=` when it is not
/// the first character (name trimmed, value kept as is); otherwise the whole option, trimmed,
/// is the name and the value is `true` (`-Dx` is `x=true`, `-D=x` names a property `=x`).
///
/// ```
/// use m2resolver::session::parse_define;
/// assert_eq!(parse_define("a=b=c"), ("a".to_string(), "b=c".to_string()));
/// assert_eq!(parse_define(" skip "), ("skip".to_string(), "true".to_string()));
/// assert_eq!(parse_define("=x"), ("=x".to_string(), "true".to_string()));
/// assert_eq!(parse_define("k= v "), ("k".to_string(), " v ".to_string()));
/// ```
pub fn parse_define(option: &str) -> (String, String) {
    match option.find('=') {
        Some(i) if i > 0 => (option[..i].trim().to_string(), option[i + 1..].to_string()),
        _ => (option.trim().to_string(), "true".to_string()),
    }
}

/// Whether a `-D` property also becomes a system property: Maven copies every one, but the
/// JVM's `os.*` and `path.separator` were read before the command line was applied, so
/// profile activation still sees the platform's.
fn copied_to_system_properties(name: &str) -> bool {
    !name.starts_with("os.") && name != "path.separator"
}

/// The local repository, in Maven's precedence: the builder's choice (`--local-repository`),
/// the `maven.repo.local` user property, then system property, the settings'
/// `<localRepository>`, else `${user.home}/.m2/repository`. Relative paths resolve against
/// `cwd`.
pub(crate) fn choose_local_repository(
    chosen: Option<&Path>,
    user_properties: &Vars,
    system_properties: &Vars,
    settings: Option<(&str, Definition)>,
    user_home: &Path,
    cwd: &Path,
) -> Sourced<PathBuf> {
    const PROPERTY: &str = "maven.repo.local";
    let non_empty = |v: Option<&str>| v.filter(|s| !s.is_empty()).map(PathBuf::from);
    let (path, definition) = if let Some(p) = chosen {
        (p.to_path_buf(), Definition::Builder)
    } else if let Some(p) = non_empty(user_properties.value(PROPERTY)) {
        (p, Definition::UserProperty(PROPERTY.into()))
    } else if let Some(p) = non_empty(system_properties.value(PROPERTY)) {
        (p, Definition::SystemProperty(PROPERTY.into()))
    } else if let Some((p, d)) = settings.filter(|(p, _)| !p.is_empty()) {
        (PathBuf::from(p), d)
    } else {
        (
            user_home.join(".m2").join("repository"),
            Definition::Default,
        )
    };
    Sourced::new(resolve_path(cwd, &path), definition)
}

/// Builds a [`Session`]; see the [module documentation](super) for what a session is.
///
/// Every setter takes and returns the builder. Unset inputs take Maven's defaults: the
/// process environment, `${user.home}/.m2/settings.xml`, `${maven.home}/conf/settings.xml`
/// (when `maven.home`, `M2_HOME` or `MAVEN_HOME` is known), no profiles chosen, online.
///
/// ```
/// use m2resolver::{Environment, Session};
/// use m2resolver::settings::SettingsSource;
/// let session = Session::builder()
///     .environment(Environment::from_parts([("HOME".to_string(), "/home/me".to_string())].into(), "/work".into()))
///     .user_settings(SettingsSource::content("settings.xml",
///         "<settings><localRepository>${repo.base}/m2</localRepository></settings>"))
///     .define("repo.base=/cache")
///     .define("offline")
///     .build()
///     .unwrap();
/// assert_eq!(session.local_repository().value, std::path::Path::new("/cache/m2"));
/// assert_eq!(session.user_properties().value("offline"), Some("true"));
/// ```
#[derive(Clone, Default)]
pub struct SessionBuilder {
    environment: Option<Environment>,
    user: Option<Option<SettingsSource>>,
    global: Option<Option<SettingsSource>>,
    project: Option<SettingsSource>,
    user_properties: Vars,
    system_properties: Vars,
    profiles: ProfileChoices,
    security_file: Option<PathBuf>,
    master_sources: Vec<Arc<dyn MasterSource>>,
    offline: bool,
    local_repository: Option<PathBuf>,
    env_proxies: bool,
    server_aliases: bool,
    downloads: super::Downloads,
    beyond: super::Beyond,
}

impl std::fmt::Debug for SessionBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionBuilder")
            .field("environment", &self.environment)
            .field("user", &self.user)
            .field("global", &self.global)
            .field("project", &self.project)
            .field("user_properties", &self.user_properties)
            .field("system_properties", &self.system_properties)
            .field("profiles", &self.profiles)
            .field("security_file", &self.security_file)
            .field("master_sources", &self.master_sources.len())
            .field("offline", &self.offline)
            .field("local_repository", &self.local_repository)
            .field("env_proxies", &self.env_proxies)
            .field("server_aliases", &self.server_aliases)
            .field("downloads", &self.downloads)
            .field("beyond", &self.beyond)
            .finish()
    }
}

impl SessionBuilder {
    /// The environment snapshot to work from (default: [`Environment::capture`] of this
    /// process when [`SessionBuilder::build`] runs).
    pub fn environment(mut self, environment: Environment) -> Self {
        self.environment = Some(environment);
        self
    }

    /// User settings (`-s FILE`; default `${user.home}/.m2/settings.xml`). A missing file
    /// counts as empty, as in Maven. Relative paths resolve against the working directory.
    pub fn user_settings(mut self, source: impl Into<SettingsSource>) -> Self {
        self.user = Some(Some(source.into()));
        self
    }

    /// Reads no user settings at all.
    pub fn no_user_settings(mut self) -> Self {
        self.user = Some(None);
        self
    }

    /// Global settings (`-gs FILE`; default `${maven.home}/conf/settings.xml`).
    pub fn global_settings(mut self, source: impl Into<SettingsSource>) -> Self {
        self.global = Some(Some(source.into()));
        self
    }

    /// Reads no global settings at all.
    pub fn no_global_settings(mut self) -> Self {
        self.global = Some(None);
        self
    }

    /// Maven 4 project settings (`.mvn/settings.xml`).
    pub fn project_settings(mut self, source: impl Into<SettingsSource>) -> Self {
        self.project = Some(source.into());
        self
    }

    /// One `-D` option, with Maven's parsing ([`parse_define`]): a user property and, as
    /// `MavenCli` does, a system property too (except `os.*` and `path.separator`).
    pub fn define(mut self, option: &str) -> Self {
        let (name, value) = parse_define(option);
        if copied_to_system_properties(&name) {
            self.system_properties.insert(name.clone(), value.clone());
        }
        self.user_properties.insert(name, value);
        self
    }

    /// A user property only (an embedding tool's own property; `-D` is [`Self::define`]).
    pub fn user_property(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.user_properties.insert(name.into(), value.into());
        self
    }

    /// A system property, added to (or replacing one of) the environment snapshot's.
    pub fn system_property(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.system_properties.insert(name.into(), value.into());
        self
    }

    /// One `-P` option: comma-separated ids; `!id` or `-id` deactivates, `+id` or `id`
    /// activates.
    pub fn profiles(mut self, option: &str) -> Self {
        self.profiles.add(option);
        self
    }

    /// `settings-security.xml` to use (like `-Dsettings.security=FILE`).
    pub fn security_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.security_file = Some(path.into());
        self
    }

    /// A master-password source (prompt, keychain) asked before the built-in ones.
    pub fn master_source(mut self, source: Arc<dyn MasterSource>) -> Self {
        self.master_sources.push(source);
        self
    }

    /// Offline (`-o`): `true` forces it; otherwise the settings' `<offline>` decides.
    pub fn offline(mut self, offline: bool) -> Self {
        self.offline = offline;
        self
    }

    /// The local repository, over every other choice (relative to the working directory).
    pub fn local_repository(mut self, path: impl Into<PathBuf>) -> Self {
        self.local_repository = Some(path.into());
        self
    }

    /// Beyond Maven: take proxies from `HTTP(S)_PROXY`/`ALL_PROXY`/`NO_PROXY` and JVM-style
    /// properties when no settings proxy serves a repository's protocol (default off: exactly
    /// Maven; `m2r` turns it on).
    pub fn env_proxies(mut self, on: bool) -> Self {
        self.env_proxies = on;
        self
    }

    /// Beyond Maven: read credentials from `.netrc` (`$NETRC`, else `${user.home}/.netrc`) for
    /// repositories no settings `<server>` gives credentials to (default off: exactly Maven;
    /// `m2r` turns it on). See [`crate::repository`]'s credential precedence.
    pub fn netrc(mut self, on: bool) -> Self {
        self.beyond.netrc = on;
        self
    }

    /// Beyond Maven: run credential helpers — the command a `<server>`'s
    /// `<configuration><credentialHelper>` names, and `M2R_CREDENTIAL_HELPER` of the
    /// environment for repositories without credentials (default off; `m2r` turns it on).
    pub fn credential_helpers(mut self, on: bool) -> Self {
        self.beyond.helpers = on;
        self
    }

    /// Beyond Maven: with [`Self::env_proxies`], also take the JVM proxy properties
    /// (`-Dhttps.proxyHost=…`) of `MAVEN_OPTS` and the project's `.mvn/jvm.config`, as the
    /// `mvn` launcher passes them to Java, below `-D` and the system properties (default off;
    /// `m2r --jvm-proxy-options`).
    pub fn jvm_proxy_options(mut self, on: bool) -> Self {
        self.beyond.jvm_options = on;
        self
    }

    /// Maven 4: servers also answer to their `<aliases>` ids (default off, as in Maven 3,
    /// which ignores the element).
    pub fn server_aliases(mut self, on: bool) -> Self {
        self.server_aliases = on;
        self
    }

    /// HTTP requests in flight for the session's downloads (default
    /// [`DEFAULT_IN_FLIGHT`](crate::download::DEFAULT_IN_FLIGHT); 0 counts as 1).
    pub fn max_in_flight(mut self, requests: usize) -> Self {
        self.downloads.max_in_flight = Some(requests.max(1));
        self
    }

    /// Who hears what the session does (a progress bar, a build tool's UI, a CI log): the
    /// phases of every call and every file ([`ProgressEvent`](crate::ProgressEvent)),
    /// beginning with reading the settings in [`Self::build`].
    pub fn progress_listener(mut self, listener: Arc<dyn ProgressListener>) -> Self {
        self.downloads.listener = Some(listener);
        self
    }

    /// Forces update checks, as `mvn -U` (`--update-snapshots`): Maven's
    /// `setUpdatePolicy(ALWAYS)` for every repository of this session, releases and snapshots
    /// alike — `maven-metadata.xml` is checked again (once per session) and not-found results
    /// cached in `*.lastUpdated` files are retried.
    pub fn update_snapshots(mut self, on: bool) -> Self {
        self.downloads.update_snapshots = on;
        self
    }

    /// HTTP options of the session's transport (extra trusted CA files, retries, timeouts,
    /// host overrides); the environment snapshot is always the session's.
    pub fn transport_options(mut self, options: crate::transport::TransportOptions) -> Self {
        self.downloads.transport = Some(options);
        self
    }

    /// The clock update policies are measured with (default: the system clock).
    pub fn clock(mut self, clock: Arc<dyn crate::download::Clock>) -> Self {
        self.downloads.clock = Some(clock);
        self
    }

    /// The environment with the builder's system properties applied.
    fn take_environment(&mut self) -> Environment {
        let mut environment = self.environment.take().unwrap_or_else(Environment::capture);
        if !self.system_properties.is_empty() {
            environment.system_properties.extend(
                self.system_properties
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone())),
            );
        }
        environment
    }

    /// System and user properties merged (user wins): what `System.getProperty` sees.
    fn lookup(environment: &Environment, user_properties: &Vars) -> Vars {
        let mut all = environment.system_properties.clone();
        all.extend(user_properties.iter().map(|(k, v)| (k.clone(), v.clone())));
        all
    }

    fn security_context_for(&self, environment: &Environment, properties: Vars) -> SecurityContext {
        let mut properties = properties;
        if let Some(file) = &self.security_file {
            properties.insert("settings.security".into(), file.display().to_string());
        }
        let mut ctx = SecurityContext::new(
            user_home(&properties, &environment.env),
            environment.cwd.clone(),
        );
        ctx.properties = properties;
        ctx.env = environment.env.clone();
        ctx.master_sources = self.master_sources.clone();
        ctx
    }

    /// The security inputs alone (no settings are read): what `m2r encrypt-password` needs.
    ///
    /// ```
    /// use m2resolver::{Environment, Session};
    /// let ctx = Session::builder()
    ///     .environment(Environment::default())
    ///     .define("settings.security=/secure/settings-security.xml")
    ///     .security_context();
    /// assert_eq!(ctx.property("settings.security"), Some("/secure/settings-security.xml"));
    /// ```
    pub fn security_context(mut self) -> SecurityContext {
        let environment = self.take_environment();
        let lookup = Self::lookup(&environment, &self.user_properties);
        self.security_context_for(&environment, lookup)
    }

    /// Reads the settings and prepares everything (see [`Session`]). Fails when the settings
    /// have an ERROR or FATAL problem, or an entry the repository system rejects.
    pub fn build(self) -> Result<Session, SessionError> {
        let listener = self.downloads.listener.clone();
        if let Some(l) = &listener {
            l.on_event(&ProgressEvent::PhaseStarted {
                phase: Phase::ReadingSettings,
                total: None,
            });
        }
        let session = self.build_quietly();
        if let Some(l) = &listener {
            l.on_event(&ProgressEvent::PhaseFinished {
                phase: Phase::ReadingSettings,
            });
        }
        session
    }

    fn build_quietly(mut self) -> Result<Session, SessionError> {
        let environment = self.take_environment();
        let cwd = environment.cwd.clone();
        let lookup = Self::lookup(&environment, &self.user_properties);
        let locations = Locations::from_properties(&lookup, &environment.env);
        let resolve = |source: SettingsSource| match source {
            SettingsSource::File(p) => SettingsSource::File(resolve_path(&cwd, &p)),
            other => other,
        };
        let user = match self.user.take() {
            Some(choice) => choice.map(resolve),
            None => Some(SettingsSource::File(resolve_path(&cwd, &locations.user))),
        };
        let global = match self.global.take() {
            Some(choice) => choice.map(resolve),
            None => locations.global.clone().map(SettingsSource::File),
        };
        let request = crate::settings::SettingsRequest {
            global,
            project: self.project.take().map(resolve),
            user,
            user_properties: self.user_properties.clone(),
            system_properties: environment.system_properties.clone(),
            env: environment.env.clone(),
        };
        let security = self.security_context_for(&environment, lookup);
        let home = security.user_home.clone();
        super::Session::assemble(super::Inputs {
            request,
            environment,
            security,
            profiles: std::mem::take(&mut self.profiles),
            offline: self.offline,
            local_repository: self.local_repository.take(),
            user_home: home,
            env_proxies: self.env_proxies,
            server_aliases: self.server_aliases,
            downloads: std::mem::take(&mut self.downloads),
            beyond: self.beyond,
            system_property_names: self.system_properties.keys().cloned().collect(),
        })
    }
}

/// The `Definition` of a settings value given the level that provided it.
pub(crate) fn settings_definition(level: SourceLevel, source: String) -> Definition {
    Definition::Settings { level, source }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> Vars {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn local_repository_precedence_table() {
        let home = Path::new("/home/me");
        let cwd = Path::new("/work");
        let settings = || {
            Some((
                "from-settings",
                settings_definition(SourceLevel::User, "s.xml".into()),
            ))
        };
        let user = vars(&[("maven.repo.local", "user-prop")]);
        let system = vars(&[("maven.repo.local", "/system-prop")]);
        let none = Vars::new();
        let cases: Vec<(Sourced<PathBuf>, &str, Definition)> = vec![
            (
                choose_local_repository(
                    Some(Path::new("cli")),
                    &user,
                    &system,
                    settings(),
                    home,
                    cwd,
                ),
                "/work/cli",
                Definition::Builder,
            ),
            (
                choose_local_repository(None, &user, &system, settings(), home, cwd),
                "/work/user-prop",
                Definition::UserProperty("maven.repo.local".into()),
            ),
            (
                choose_local_repository(None, &none, &system, settings(), home, cwd),
                "/system-prop",
                Definition::SystemProperty("maven.repo.local".into()),
            ),
            (
                choose_local_repository(
                    None,
                    &vars(&[("maven.repo.local", "")]),
                    &none,
                    settings(),
                    home,
                    cwd,
                ),
                "/work/from-settings",
                settings_definition(SourceLevel::User, "s.xml".into()),
            ),
            (
                choose_local_repository(None, &none, &none, None, home, cwd),
                "/home/me/.m2/repository",
                Definition::Default,
            ),
        ];
        for (got, path, definition) in cases {
            assert_eq!(got.value, Path::new(path));
            assert_eq!(got.definition, definition);
        }
    }

    #[test]
    fn defines_are_user_and_system_properties_except_platform_ones() {
        let b = SessionBuilder::default()
            .define("a=1")
            .define("os.name=Plan9")
            .define("path.separator=;")
            .define("=x");
        assert_eq!(b.user_properties.value("a"), Some("1"));
        assert_eq!(b.system_properties.value("a"), Some("1"));
        assert_eq!(b.user_properties.value("os.name"), Some("Plan9"));
        assert_eq!(b.system_properties.value("os.name"), None);
        assert_eq!(b.system_properties.value("path.separator"), None);
        assert_eq!(b.user_properties.value("=x"), Some("true"));
    }
}
