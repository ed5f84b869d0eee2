//! The front door: a [`Session`] turns an environment, settings files and properties into
//! ready repositories, and answers dependency questions through one engine — the counterpart
//! of Maven's `RepositorySystemSession`.
//!
//! ```no_run
//! use m2resolver::{Artifact, ClasspathScope, RemoteRepository, Root, Session};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let session = Session::builder().user_settings(std::path::PathBuf::from("settings.xml")).build()?;
//! let repos = session.repositories(&[RemoteRepository::central()]).repositories;
//! let root = Root::compile([Artifact::parse("junit:junit:4.13.2")?]);
//! let resolved = session.blocking_resolve(&root, &repos, Some(ClasspathScope::Test))?;
//! for jar in resolved.classpath(ClasspathScope::Test) {
//!     println!("{}", jar.display());
//! }
//! # Ok(()) }
//! ```
//!
//! # What a session holds
//!
//! [`SessionBuilder::build`] runs the settings pipeline once, from one [`Environment`]
//! snapshot and the builder's inputs, and keeps:
//!
//! - the effective [`Settings`] and their problems; where the scalar values came from
//!   ([`Sourced`]: [`Session::local_repository`], [`Session::offline`]) and why each profile
//!   is active ([`ActiveProfile`]);
//! - Maven's request population (first server/mirror/profile per id, first active proxy per
//!   id) and the mirror, proxy and authentication selectors, built once;
//! - the credentials, decrypted lazily: a password is decrypted the first time a repository
//!   that uses it is returned, once per settings entry (see `credentials.rs`); settings hold
//!   [`SettingsSecret`](crate::SettingsSecret)s, repositories [`Secret`](crate::Secret)s, so
//!   the transport never has to guess whether a value is still encrypted;
//! - on the first dependency or download call, its **engine** (`engine.rs`): one runtime on
//!   which all of the session's I/O runs, one downloader (one transport — connection pool, TLS
//!   configuration, learned proxy and server authentication, failed-route memory —, one local
//!   repository, one bound on requests in flight, one update-check record), one descriptor
//!   cache that also holds the reads in flight, and a few collector threads (twice the cores)
//!   on which the calls' collections run.
//!
//! # What it answers
//!
//! - [`Session::repositories`]: the repositories a build declares (a POM's `<repositories>`),
//!   with the active profiles' repositories in front, after mirrors, aggregation, proxies and
//!   credentials, plus one [`InjectionTrace`] per declared repository and the problems of
//!   this answer (credentials that could not be decrypted, with where they were written);
//! - [`Session::aggregate_repositories`]: Resolver's `aggregateRepositories` with the
//!   session's selectors and credentials (how dependency resolution adds a POM's repositories
//!   to the ones it already has);
//! - [`Session::describe`] / [`Session::describe_project`]: the effective descriptor of an
//!   artifact or a project file (`m2r describe`);
//! - [`Session::collect`]: the dependency graph of a [`Root`](crate::Root) (a project file, an
//!   artifact, a build tool's own model, bare coordinates) as Maven Resolver collects it
//!   (`m2r tree`);
//! - [`Session::resolve`]: that graph and every artifact of its class path downloaded
//!   ([`ResolveResult`], `m2r resolve`);
//! - [`Session::download`]: artifacts without their dependencies (`m2r get`);
//! - [`Session::read_workspace`], [`Session::collect_workspace`], [`Session::resolve_workspace`]:
//!   a multi-module build (a reactor) read from an aggregator POM or built by the embedder
//!   ([`crate::resolution::workspace::Workspace`]), every module's graph and class path in one
//!   call (`workspace.rs`);
//! - [`Session::install`] / [`Session::deploy`]: publishing as Maven's install and deploy
//!   plugins do (`m2r install`, `m2r deploy`; `publish.rs`, the rules in [`crate::publish`]).
//!
//! The repositories are an argument of each call: one session serves every repository list
//! of a build. Each call is async, with a `blocking_*` variant. Async calls run on the
//! engine's runtime and only await the answer there, so they work from any runtime (and a
//! runtime that stops does not take the session's connections with it); blocking calls wait on
//! the caller's thread and are refused inside a Tokio runtime ([`RuntimeError::Nested`](crate::RuntimeError::Nested)
//! through [`SessionError::Runtime`]) rather than stalling one of its threads. Calls may run
//! at once, from several threads or tasks: they share the connections, the bound on requests
//! in flight and the descriptor cache, and a POM that two calls need is fetched once. Their
//! collections take turns on the engine's collector threads (a call waiting for a POM holds
//! one; the others wait in line, in the order they came): 40 calls at once cost 40 graphs'
//! work on a few threads, not 40 threads contending for the cores. The descriptors a call will
//! read first (its direct dependencies', for a project or coordinates) start when it is
//! queued, so the network does not wait for a thread; and what the session already read
//! ahead below a POM (with the same dependency management) is not read ahead again.
//!
//! # Lifetime rules: what a long-lived session re-checks, and when
//!
//! A session is one Maven session. For as long as it lives:
//!
//! - **connections, TLS sessions, learned authentication and route memory** are kept: a proxy's
//!   NTLM handshake is made once per connection and a Digest nonce reused, a failed proxy
//!   password fails every later request at once, a failed address is tried last;
//! - **`maven-metadata.xml`** (version ranges, `SNAPSHOT`, `LATEST`, `RELEASE`) is checked
//!   against each repository at most once, when its update policy says so (`daily`,
//!   `interval:N`, `always`, `never`) — Maven's session-scoped "already checked". With
//!   [`SessionBuilder::update_snapshots`] (`-U`) the policy is `always` for every repository:
//!   each file is still checked once per session, and not-found results cached in
//!   `*.lastUpdated` files are retried;
//! - **descriptors** (effective POMs), raw parents and imported BOMs are read once and kept;
//!   parsed POM files are kept too, and parsed again when the file's size or modification time
//!   changed;
//! - **artifacts** are taken from the local repository whenever it has them (as Maven does),
//!   so nothing needs to expire. Which repositories a file there came from
//!   (`_remote.repositories`) is read once per folder (a POM and its jar share it) and kept
//!   for each file while the file is present, until
//!   the session itself writes the file or its records, so many calls asking for the same jar
//!   read it once (a change another process makes meanwhile is seen after a refresh, or when
//!   the file must be downloaded: that check, under the file's lock, always reads the disk).
//!   Calls downloading the same file wait for each other in the session, not on the
//!   cross-process lock.
//!
//! [`Session::refresh`] starts a new Maven session on the same engine: the update-check record,
//! the descriptor caches, what was read ahead and the remembered `_remote.repositories` records
//! are forgotten
//! (connections and authentication are kept). A daemon
//! or an IDE that keeps one session calls it when a new build starts; otherwise a long-lived
//! session never sees a newer snapshot than the first one it read. A new [`Session`] re-reads
//! the settings too.
//!
//! Beyond Maven's settings (`sources.rs`): `.netrc` and credential helpers where no `<server>`
//! gives credentials, JVM proxy properties of `MAVEN_OPTS` / `.mvn/jvm.config`, and, from
//! Maven's config properties, the chained local repository ([`Session::local_tail`]) and remote
//! repository filters ([`Session::repository_filter`]), read once and handed to the engine's
//! downloader; the credential helpers' answers are cached by the engine's transport, so a helper
//! runs once per repository for the session's lifetime ([`Session::credential_helper_runs`]).
//!
//! [`crate::explain`] is a view over a session: it renders what the session decided.

mod builder;
mod credentials;
mod dependencies;
mod engine;
mod error;
mod lock;
mod publish;
mod request;
mod sourced;
mod sources;
mod workspace;

pub use builder::{parse_define, SessionBuilder};
pub use credentials::Credential;
pub use dependencies::ResolveResult;
pub use error::SessionError;
pub use publish::DeploymentRepository;

pub use request::{ActivationReason, ActiveProfile};
pub use sourced::{Definition, Sourced};
pub use workspace::{ModuleResult, WorkspaceResult};

pub(crate) use credentials::Field;
pub(crate) use request::RequestEntries;

use crate::download::{ChecksumAlgorithms, DownloaderConfig, ProgressListener};
use crate::environment::{Environment, Vars};
use crate::repository::{
    self, EnvProxyConfig, InjectionError, InjectionTrace, Opener, RemoteRepository, Selectors,
};
use crate::security::{Decryptor, SecurityContext};
use crate::settings::{Settings, SettingsProblem, SettingsRequest, Severity, Stage};
use credentials::{CredentialStore, SessionCredentials};
use request::ProfileChoices;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;

/// Settings, credentials, selectors and choices of one build, made once (see the
/// [module documentation](self)). `Send + Sync`; `Debug` never shows a secret.
///
/// ```
/// use m2resolver::{Environment, Session};
/// use m2resolver::session::{ActivationReason, Definition};
/// use m2resolver::settings::SettingsSource;
/// let session = Session::builder()
///     .environment(Environment::from_parts(Default::default(), "/work".into()))
///     .user_settings(SettingsSource::content("settings.xml", r#"<settings>
///         <profiles><profile><id>ci</id><activation><property><name>ci</name></property></activation></profile></profiles>
///         </settings>"#))
///     .define("ci")
///     .offline(true)
///     .build()
///     .unwrap();
/// assert_eq!(session.active_profiles()[0].id, "ci");
/// assert_eq!(session.active_profiles()[0].reason, ActivationReason::Conditions);
/// assert!(session.offline().value);
/// assert_eq!(session.offline().definition, Definition::Builder);
/// assert!(!format!("{session:?}").is_empty());
/// ```
#[derive(Debug)]
pub struct Session {
    environment: Environment,
    user_properties: Vars,
    settings: Settings,
    /// Problems of settings building, then of profile activation.
    problems: Vec<SettingsProblem>,
    /// How many of `problems` come from settings building.
    settings_problem_count: usize,
    active_profiles: Vec<ActiveProfile>,
    profile_repositories: Vec<Vec<RemoteRepository>>,
    entries: RequestEntries,
    selectors: Selectors,
    /// The credential store and the ids leading to it, shared with [`Session::selectors`].
    credentials: Arc<SessionCredentials>,
    local_repository: Sourced<PathBuf>,
    offline: Sourced<bool>,
    downloads: Downloads,
    /// The chained local repository and the repository filters, read once (`sources.rs`).
    extras: sources::Extras,
    /// The engine of the dependency and download calls, made on first use (`engine.rs`).
    engine: std::sync::Mutex<Option<Arc<engine::Engine>>>,
}

pub(crate) use sources::Beyond;

/// The builder's choices for the downloader ([`SessionBuilder::max_in_flight`],
/// [`SessionBuilder::progress_listener`], [`SessionBuilder::update_snapshots`],
/// [`SessionBuilder::transport_options`]).
#[derive(Clone, Default)]
pub(crate) struct Downloads {
    pub(crate) max_in_flight: Option<usize>,
    pub(crate) listener: Option<Arc<dyn ProgressListener>>,
    pub(crate) update_snapshots: bool,
    pub(crate) transport: Option<crate::transport::TransportOptions>,
    pub(crate) clock: Option<Arc<dyn crate::download::Clock>>,
}

impl std::fmt::Debug for Downloads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Downloads")
            .field("max_in_flight", &self.max_in_flight)
            .field("listener", &self.listener.is_some())
            .field("update_snapshots", &self.update_snapshots)
            .field("transport", &self.transport)
            .finish()
    }
}

/// Everything [`SessionBuilder::build`] hands over.
pub(crate) struct Inputs {
    pub(crate) request: SettingsRequest,
    pub(crate) environment: Environment,
    pub(crate) security: SecurityContext,
    pub(crate) profiles: ProfileChoices,
    pub(crate) offline: bool,
    pub(crate) local_repository: Option<PathBuf>,
    pub(crate) user_home: PathBuf,
    pub(crate) env_proxies: bool,
    pub(crate) server_aliases: bool,
    pub(crate) downloads: Downloads,
    pub(crate) beyond: Beyond,
    /// Names of the system properties the builder set (for where a proxy property came from).
    pub(crate) system_property_names: Vec<String>,
}

/// The answer of [`Session::repositories`].
#[derive(Debug, Clone)]
pub struct Repositories {
    /// The repositories to use, in Maven's order, with proxies and clear credentials.
    pub repositories: Vec<RemoteRepository>,
    /// One trace per declared repository (active profiles' repositories first): which mirror
    /// applied and why the others did not, where it went, which proxy and credentials.
    pub traces: Vec<InjectionTrace>,
    /// Problems of this answer: credentials or header values that could not be decrypted
    /// (they are not sent), with where they were written.
    pub problems: Vec<SettingsProblem>,
}

impl Session {
    /// A builder; see [`SessionBuilder`].
    pub fn builder() -> SessionBuilder {
        SessionBuilder::default()
    }

    pub(crate) fn assemble(inputs: Inputs) -> Result<Session, SessionError> {
        let Inputs {
            request,
            environment,
            security,
            profiles,
            offline,
            local_repository,
            user_home,
            env_proxies,
            server_aliases,
            downloads,
            beyond,
            system_property_names,
        } = inputs;
        let result = crate::settings::build(&request);
        if result.has_errors() {
            return Err(SessionError::Settings {
                problems: result.problems,
            });
        }
        let settings = result.effective;
        let mut problems = result.problems;
        let settings_problem_count = problems.len();
        let user_properties = request.user_properties;

        let activated = request::activate(
            &settings,
            &profiles,
            &environment.system_properties,
            &user_properties,
            &environment.cwd,
        );
        let credentials = CredentialStore::new(Decryptor::new(security), &settings);
        let entries = RequestEntries::new(&settings);
        let env = if env_proxies {
            let mut properties = environment.system_properties.clone();
            properties.extend(user_properties.iter().map(|(k, v)| (k.clone(), v.clone())));
            EnvProxyConfig::new(environment.env.clone(), properties)
        } else {
            EnvProxyConfig::disabled()
        };
        let (env, mut source_warnings) = sources::env_proxy_config(
            env,
            beyond,
            &environment,
            &user_properties,
            &system_property_names,
        );
        let (credential_sources, netrc_warnings) =
            sources::credential_sources(beyond, &environment, &user_home);
        source_warnings.extend(netrc_warnings);
        let servers = entries.servers(&settings, server_aliases);
        let selectors =
            match Selectors::sealed(&entries.mirrors, &entries.proxies(&settings), &servers, env) {
                Ok(s) => s.with_credential_sources(credential_sources),
                Err(source) => {
                    // Maven reports every decryption failure before it fails on this.
                    credentials.decrypt_all();
                    problems.extend(all_decryption_problems(&credentials, &entries));
                    problems.extend(activated.problems);
                    problems.push(SettingsProblem::new(
                        Severity::Error,
                        Stage::Build,
                        rejected_entry_origin(&source, &settings, &entries),
                        source.to_string(),
                    ));
                    return Err(SessionError::Injection { source, problems });
                }
            };
        problems.extend(activated.problems);

        let credentials = Arc::new(SessionCredentials::new(
            credentials,
            &settings,
            &entries,
            server_aliases,
        ));

        let settings_local = settings.local_repository.as_deref().zip(
            result
                .local_repository_source
                .map(|(level, source)| builder::settings_definition(level, source)),
        );
        let local_repository = builder::choose_local_repository(
            local_repository.as_deref(),
            &user_properties,
            &environment.system_properties,
            settings_local,
            &user_home,
            &environment.cwd,
        );
        let offline = if offline {
            Sourced::new(true, Definition::Builder)
        } else if settings.offline {
            // Only the user file's <offline> counts (MNG-2949).
            let source = request.user.as_ref().map(|s| s.name()).unwrap_or_default();
            Sourced::new(
                true,
                builder::settings_definition(crate::settings::SourceLevel::User, source),
            )
        } else {
            Sourced::new(false, Definition::Default)
        };

        let extras = sources::extras(
            |name| {
                config_property(
                    name,
                    &user_properties,
                    &environment.system_properties,
                    &settings,
                    &activated.profiles,
                )
                .map(str::to_string)
            },
            &environment,
            &user_home,
            &local_repository.value,
            source_warnings,
        );

        Ok(Session {
            environment,
            user_properties,
            settings,
            problems,
            settings_problem_count,
            active_profiles: activated.profiles,
            profile_repositories: activated.repositories,
            entries,
            selectors,
            credentials,
            local_repository,
            offline,
            downloads,
            extras,
            engine: std::sync::Mutex::new(None),
        })
    }

    /// The effective settings (merged, interpolated; passwords as written).
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Warnings of settings building, then problems of profile activation.
    pub fn problems(&self) -> &[SettingsProblem] {
        &self.problems
    }

    /// The active settings profiles, in Maven's order, with why each is active.
    pub fn active_profiles(&self) -> &[ActiveProfile] {
        &self.active_profiles
    }

    /// The local repository and where the choice came from.
    pub fn local_repository(&self) -> &Sourced<PathBuf> {
        &self.local_repository
    }

    /// Whether downloads are off, and why.
    pub fn offline(&self) -> &Sourced<bool> {
        &self.offline
    }

    /// The environment snapshot (system properties include the `-D` copies).
    pub fn environment(&self) -> &Environment {
        &self.environment
    }

    /// The user properties (`-D`).
    pub fn user_properties(&self) -> &Vars {
        &self.user_properties
    }

    /// The credential of a settings field, decrypted on first use.
    pub(crate) fn credential(&self, field: Field) -> Option<&Credential> {
        self.credentials.store.get(field)
    }

    /// Decrypts every credential of the settings (in parallel) and returns the `decrypt`
    /// problems Maven reports: those of the entries its request keeps.
    pub(crate) fn decrypt_all(&self) -> Vec<SettingsProblem> {
        self.credentials.store.decrypt_all();
        all_decryption_problems(&self.credentials.store, &self.entries)
    }

    pub(crate) fn settings_problems(&self) -> &[SettingsProblem] {
        &self.problems[..self.settings_problem_count]
    }

    pub(crate) fn activation_problems(&self) -> &[SettingsProblem] {
        &self.problems[self.settings_problem_count..]
    }

    pub(crate) fn request_entries(&self) -> &RequestEntries {
        &self.entries
    }

    /// Selector warnings (legacy server configuration formats, unusable proxy variables).
    pub(crate) fn selector_warnings(&self) -> Vec<String> {
        self.selectors.warnings()
    }

    /// The session's mirror, proxy and authentication selectors, for code that aggregates
    /// repositories itself (dependency resolution adding the repositories POMs declare with
    /// `aggregate_repositories`): repositories they inject get their credentials from the
    /// session's store, decrypted on first use. Cheap to clone.
    pub fn selectors(&self) -> Selectors {
        let mut selectors = self.selectors.clone();
        selectors.opener = Opener(Some(self.credentials.clone()));
        selectors
    }

    /// Index into `settings.servers` of the server whose credentials a repository id gets.
    pub(crate) fn server_for(&self, repository_id: &str) -> Option<usize> {
        self.credentials.server_for(repository_id)
    }

    /// Index into `settings.proxies` of an active proxy id.
    pub(crate) fn proxy_for(&self, proxy_id: &str) -> Option<usize> {
        self.credentials.proxy_for(proxy_id)
    }

    /// The declared repositories with the active profiles' in front, injected with the
    /// session's selectors, credentials not filled in (for [`crate::explain`]).
    pub(crate) fn inject_sealed(
        &self,
        declared: &[RemoteRepository],
    ) -> (Vec<RemoteRepository>, Vec<InjectionTrace>) {
        let declared = request::declared_repositories(&self.profile_repositories, declared);
        repository::inject_traced(&declared, &self.selectors)
    }

    /// The repositories a build declares, ready for the resolver: the active profiles'
    /// repositories first, then mirrors, aggregation, proxies, credentials and server
    /// settings as Maven applies them. Only the credentials these repositories use are
    /// decrypted.
    ///
    /// ```
    /// use m2resolver::{Environment, Session};
    /// use m2resolver::repository::RemoteRepository;
    /// use m2resolver::settings::SettingsSource;
    /// let session = Session::builder()
    ///     .environment(Environment::default())
    ///     .user_settings(SettingsSource::content("settings.xml", r#"<settings>
    ///         <mirrors><mirror><id>corp</id><mirrorOf>*</mirrorOf><url>https://nexus/maven</url></mirror></mirrors>
    ///         <servers><server><id>corp</id><username>ci</username><password>pw</password></server></servers>
    ///         </settings>"#))
    ///     .build()
    ///     .unwrap();
    /// let answer = session.repositories(&[RemoteRepository::central()]);
    /// let corp = &answer.repositories[0];
    /// assert_eq!(corp.id, "corp");
    /// assert_eq!(corp.authentication.as_ref().unwrap().password.as_ref().unwrap().expose(), "pw");
    /// assert_eq!(answer.traces[0].repository_id, "central");
    /// ```
    pub fn repositories(&self, declared: &[RemoteRepository]) -> Repositories {
        let (mut repositories, traces) = self.inject_sealed(declared);
        let problems = self.open(&mut repositories);
        Repositories {
            repositories,
            traces,
            problems,
        }
    }

    /// Maven Resolver's `aggregateRepositories(session, dominant, recessive, recessiveIsRaw)`
    /// with this session's selectors, credentials filled in: how a build adds the repositories
    /// of a POM (`recessive`, raw) to those it already has (`dominant`, already injected).
    pub fn aggregate_repositories(
        &self,
        dominant: &[RemoteRepository],
        recessive: &[RemoteRepository],
        recessive_is_raw: bool,
    ) -> (Vec<RemoteRepository>, Vec<SettingsProblem>) {
        let mut out = repository::aggregate_repositories(
            dominant,
            recessive,
            recessive_is_raw,
            &self.selectors,
        );
        let problems = if recessive_is_raw {
            let start = dominant.len().min(out.len());
            self.open(&mut out[start..])
        } else {
            Vec::new()
        };
        (out, problems)
    }

    /// Fills in the clear credentials of injected repositories (decrypting each used settings
    /// value once) and decrypts `{...}` header values (Maven 4 decrypts every settings
    /// string). What cannot be decrypted is left out and reported.
    fn open(&self, repositories: &mut [RemoteRepository]) -> Vec<SettingsProblem> {
        let mut problems = Vec::new();
        let mut reported = HashSet::new();
        for repo in repositories.iter_mut() {
            for field in self.credentials.fill_fields(repo) {
                if reported.insert(field) {
                    problems.extend(self.credentials.store.problem(field));
                }
            }
            let id = repo.id.clone();
            let origin = self
                .server_for(&repo.id)
                .map(|i| self.settings.servers[i].origin.describe())
                .unwrap_or_default();
            let decryptor = self.credentials.store.decryptor();
            repo.transport.headers.retain_mut(|(name, value)| {
                if !crate::security::is_encrypted(value.expose()) {
                    return true;
                }
                match decryptor.decrypt(value.expose()) {
                    Ok(clear) => {
                        *value = clear;
                        true
                    }
                    Err(e) => {
                        problems.push(SettingsProblem::new(
                            Severity::Error,
                            Stage::Decrypt,
                            origin.clone(),
                            format!(
                                "Failed to decrypt the value of header {name} for server {id}: {}; the header is not sent",
                                crate::printable::error_chain(&e)
                            ),
                        ));
                        false
                    }
                }
            });
        }
        problems
    }

    /// A configuration property as Maven's repository session sees it
    /// (`DefaultRepositorySystemSessionFactory`): the `-D` user properties, then the system
    /// properties, then the properties of the settings profiles activated by id
    /// (`<activeProfiles>`, `-P`), in that precedence. Resolver reads its options from these
    /// (`aether.checksums.algorithms`, `maven.repo.local.tail`,
    /// `aether.remoteRepositoryFilter.prefixes`, ...).
    pub fn config_property(&self, key: &str) -> Option<&str> {
        config_property(
            key,
            &self.user_properties,
            &self.environment.system_properties,
            &self.settings,
            &self.active_profiles,
        )
    }

    /// The checksum algorithms downloads ask for: `aether.checksums.algorithms`
    /// ([`Self::config_property`]), default `SHA-1,MD5`; an unknown name is an error.
    pub fn checksum_algorithms(
        &self,
    ) -> Result<ChecksumAlgorithms, crate::download::UnknownChecksumAlgorithm> {
        match self.config_property(ChecksumAlgorithms::KEY) {
            Some(v) => ChecksumAlgorithms::parse(v),
            None => Ok(ChecksumAlgorithms::default()),
        }
    }

    /// The downloader configuration of this session: its local repository, offline mode,
    /// environment, requests in flight, progress listener, `-U`, checksum algorithms (an
    /// unknown one falls back to the default, see [`Self::checksum_algorithms`]). The session's
    /// own calls use one downloader made from it; this is for an embedder that builds a
    /// [`crate::download::Downloader`] of its own.
    pub fn downloader_config(&self) -> DownloaderConfig {
        let mut config = DownloaderConfig::new(self.local_repository.value.clone());
        config.offline = self.offline.value;
        if let Some(t) = &self.downloads.transport {
            config.transport = t.clone();
        }
        config.transport.env = self.environment.env.clone();
        if let Some(n) = self.downloads.max_in_flight {
            config.max_in_flight = n;
        }
        if let Some(l) = &self.downloads.listener {
            config.listener = l.clone();
        }
        if let Some(c) = &self.downloads.clock {
            config.clock = c.clone();
        }
        if self.downloads.update_snapshots {
            config.update_policy = Some("always".into());
        }
        config.checksum_algorithms = self.checksum_algorithms().unwrap_or_default();
        config.trusted_checksums = self.trusted_checksums().ok().flatten();
        config.transport.credential_helper_dir = Some(self.environment.cwd.clone());
        self.extras.configure(&mut config);
        config
    }

    /// Resolver 1.9's trusted checksums as the configuration properties ask
    /// ([`Self::config_property`]: `aether.artifactResolver.postProcessor.trustedChecksums*`,
    /// `aether.trustedChecksumsSource.summaryFile*`; see [`crate::download::trusted`]), `None`
    /// when off; an unknown algorithm is an error (the session's calls fail with it).
    pub fn trusted_checksums(
        &self,
    ) -> Result<
        Option<crate::download::TrustedChecksumsConfig>,
        crate::download::UnknownTrustedAlgorithm,
    > {
        crate::download::TrustedChecksumsConfig::from_properties(
            |k| self.config_property(k),
            &self.local_repository.value,
        )
    }
}

/// [`Session::config_property`] over the session's parts (also used while it is assembled).
pub(crate) fn config_property<'a>(
    key: &str,
    user_properties: &'a Vars,
    system_properties: &'a Vars,
    settings: &'a Settings,
    active_profiles: &[ActiveProfile],
) -> Option<&'a str> {
    if let Some(v) = user_properties.value(key) {
        return Some(v);
    }
    if let Some(v) = system_properties.value(key) {
        return Some(v);
    }
    // Maven puts every such profile's properties into one map, in the settings' order:
    // the last one naming the key wins.
    let by_id = |id: &str| {
        active_profiles.iter().any(|a| {
            a.id == id
                && matches!(
                    a.reason,
                    ActivationReason::Explicit | ActivationReason::ActiveProfiles
                )
        })
    };
    settings
        .profiles
        .iter()
        .filter(|p| by_id(&p.id))
        .filter_map(|p| p.properties.iter().rev().find(|(k, _)| k == key))
        .next_back()
        .map(|(_, v)| v.as_str())
}

/// Where the settings entry an [`InjectionError`] names was written.
fn rejected_entry_origin(
    error: &InjectionError,
    settings: &Settings,
    entries: &RequestEntries,
) -> String {
    let origin = match error {
        InjectionError::InvalidNonProxyHost { proxy_id, .. } => entries
            .proxy_idx
            .iter()
            .map(|&i| &settings.proxies[i])
            .find(|p| &p.id == proxy_id)
            .map(|p| &p.origin),
        InjectionError::InvalidTimeout { server_id, .. } => entries
            .server_idx
            .iter()
            .map(|&i| &settings.servers[i])
            .find(|s| &s.id == server_id)
            .map(|s| &s.origin),
    };
    origin.map(|o| o.describe()).unwrap_or_default()
}

/// The `decrypt` problems Maven reports: for the entries of its request (first server per
/// id, first active proxy per id).
fn all_decryption_problems(
    store: &CredentialStore,
    entries: &RequestEntries,
) -> Vec<SettingsProblem> {
    let mut problems = Vec::new();
    for &i in &entries.server_idx {
        problems.extend(store.problem(Field::ServerPassword(i)));
        problems.extend(store.problem(Field::ServerPassphrase(i)));
    }
    for &i in &entries.proxy_idx {
        problems.extend(store.problem(Field::ProxyPassword(i)));
    }
    problems
}

#[cfg(test)]
mod tests;
