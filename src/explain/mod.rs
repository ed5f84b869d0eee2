//! Explain: what a [`Session`] decided for a build, and why — a view, computed from the
//! session and rendered two ways.
//!
//! [`Explanation::new`] asks the session for everything `m2r explain` shows: the effective
//! settings with every credential decrypted (Maven decrypts them all, so `explain` shows and
//! reports them all), the problems of every stage in Maven's order, the active profiles and
//! why, the injected repositories with one trace per declared repository, and notes about
//! settings entries that apply to nothing. It decides nothing itself.
//!
//! - [`json`]: [`Explanation::to_json`], the `m2r explain --json` document of the CLI contract
//!   (what real Maven 3.8.7 computes, secrets in clear as Maven uses them);
//! - [`human`]: [`Explanation::render`], the text that says why each decision was taken,
//!   secrets masked unless asked.
//!
//! ```
//! use m2resolver::explain::Explanation;
//! use m2resolver::repository::RemoteRepository;
//! use m2resolver::settings::SettingsSource;
//! use m2resolver::{Environment, Session};
//! let session = Session::builder()
//!     .environment(Environment::default())
//!     .user_settings(SettingsSource::content("settings.xml",
//!         "<settings><mirrors><mirror><id>corp</id><mirrorOf>*</mirrorOf>\
//!          <url>https://nexus.example.com/maven</url></mirror></mirrors></settings>"))
//!     .build()
//!     .unwrap();
//! let e = Explanation::new(&session, &[RemoteRepository::central()]);
//! let repos = e.repositories.as_ref().unwrap();
//! assert_eq!(repos[0].id, "corp");
//! assert_eq!(repos[0].mirrored_repositories[0].id, "central");
//! assert!(e.render(false).contains("mirror `corp` applies"));
//! ```

pub mod human;
pub mod json;

pub use json::to_canonical_json;

use crate::repository::{
    CredentialSource, InjectionTrace, MirrorMatch, ProxySource, RemoteRepository,
};
use crate::session::{ActiveProfile, Credential, Field, Session, SessionError, Sourced};
use crate::settings::{Mirror, Proxy, Settings, SettingsProblem};
use std::collections::HashSet;
use std::path::PathBuf;

/// The credentials of one injected repository as Maven uses them (clear, or as written when
/// decryption failed), for display.
#[derive(Debug, Clone, Default)]
pub struct RepositoryCredentials {
    /// The server password.
    pub password: Option<Credential>,
    /// The server passphrase (only with a private key, as Maven builds the authentication).
    pub passphrase: Option<Credential>,
    /// The proxy password.
    pub proxy_password: Option<Credential>,
}

/// The deployment repository of a build ([`Explanation::with_deployment`]): credentials and
/// proxy injected, no mirror — as Maven's deploy plugins make it.
#[derive(Debug, Clone)]
pub struct DeploymentExplanation {
    /// The repository as uploads reach it (passwords not filled in: see `credentials`).
    pub repository: RemoteRepository,
    /// Its credentials as Maven uses them.
    pub credentials: RepositoryCredentials,
    /// How it was injected; `mirror` is always `None`.
    pub trace: InjectionTrace,
    /// The mirror that would replace this URL for downloads.
    pub would_mirror: Option<MirrorMatch>,
    /// How uploads go (checksums, `Expect`, retries), or why the properties cannot be used.
    pub options: Result<crate::publish::DeployOptions, String>,
}

/// What [`Explanation::new`] shows.
#[derive(Debug, Clone, Default)]
pub struct Explanation {
    /// The effective settings; `None` when they could not be built (an ERROR or FATAL problem).
    pub settings: Option<Settings>,
    /// Every problem of every stage, in order.
    pub problems: Vec<SettingsProblem>,
    /// The active settings profiles, in Maven's order, with why each is active.
    pub active_profiles: Vec<ActiveProfile>,
    /// The local repository and where the choice came from.
    pub local_repository: Option<Sourced<PathBuf>>,
    /// Offline mode and where it came from.
    pub offline: Option<Sourced<bool>>,
    /// Server passwords and passphrases (index-aligned with `settings.servers`).
    pub servers: Vec<(Option<Credential>, Option<Credential>)>,
    /// Proxy passwords (index-aligned with `settings.proxies`).
    pub proxies: Vec<Option<Credential>>,
    /// The injected repositories, for display: passwords are not filled in (they are in
    /// `credentials`, as Maven uses them) and header values are as written; downloads use
    /// [`Session::repositories`]. `None` when the session could not be built.
    pub repositories: Option<Vec<RemoteRepository>>,
    /// The credentials of each repository (index-aligned with `repositories`).
    pub credentials: Vec<RepositoryCredentials>,
    /// One trace per declared repository (profile repositories first).
    pub traces: Vec<InjectionTrace>,
    /// Warnings beyond Maven's problems: entries that apply to nothing, legacy formats.
    pub notes: Vec<String>,
    /// The deployment repository, when asked for.
    pub deployment: Option<DeploymentExplanation>,
    /// The chained local repository's tails (`maven.repo.local.tail`).
    pub local_tail: Option<crate::download::LocalTail>,
    /// What the remote repository filters do with each repository (index-aligned with
    /// `repositories`; empty when no filter is on).
    pub filters: Vec<Vec<String>>,
}

impl Explanation {
    /// Everything the session decided for a build declaring `declared` (in order).
    pub fn new(session: &Session, declared: &[RemoteRepository]) -> Explanation {
        let decryption = session.decrypt_all();
        let mut problems = session.settings_problems().to_vec();
        problems.extend(decryption);
        problems.extend(session.activation_problems().iter().cloned());
        let settings = session.settings();
        let servers = (0..settings.servers.len())
            .map(|i| {
                (
                    session.credential(Field::ServerPassword(i)).cloned(),
                    session.credential(Field::ServerPassphrase(i)).cloned(),
                )
            })
            .collect();
        let proxies = (0..settings.proxies.len())
            .map(|i| session.credential(Field::ProxyPassword(i)).cloned())
            .collect();
        let (repositories, traces) = session.inject_sealed(declared);
        let credentials = repositories
            .iter()
            .map(|r| repository_credentials(session, r))
            .collect();
        let filters = match session.repository_filter() {
            Some(f) => repositories
                .iter()
                .map(|r| {
                    let may_fetch = !session.offline().value
                        && !r.repository_manager
                        && r.mirrored_repositories.is_empty();
                    f.describe(&r.id, may_fetch)
                })
                .collect(),
            None => Vec::new(),
        };
        let mut notes = session.selector_warnings();
        for w in session.source_warnings() {
            if !notes.contains(&w) {
                notes.push(w);
            }
        }
        notes.extend(unused_entries(
            settings,
            &session.request_entries().mirrors,
            &repositories,
            &traces,
        ));
        Explanation {
            settings: Some(settings.clone()),
            problems,
            active_profiles: session.active_profiles().to_vec(),
            local_repository: Some(session.local_repository().clone()),
            offline: Some(session.offline().clone()),
            servers,
            proxies,
            repositories: Some(repositories),
            credentials,
            traces,
            notes,
            deployment: None,
            local_tail: session.local_tail().cloned(),
            filters,
        }
    }

    /// Adds the deployment repository `raw` (as `--to id::url` or `distributionManagement`
    /// give it) as the session injects it for uploads.
    pub fn with_deployment(mut self, session: &Session, raw: &RemoteRepository) -> Explanation {
        let (repository, trace, would_mirror) = session.inject_deployment_sealed(raw);
        let credentials = repository_credentials(session, &repository);
        let options = session.deploy_options(&raw.id).map_err(|e| {
            let mut text = e.to_string();
            let mut cause = std::error::Error::source(&e);
            while let Some(c) = cause {
                text.push_str(&format!(": {c}"));
                cause = c.source();
            }
            text
        });
        // the server and the proxy the deployment uses apply to something after all
        let server_note = format!("server `{}` (", repository.id);
        let proxy_note = match repository.proxy.as_ref().map(|p| &p.source) {
            Some(ProxySource::Settings { id }) => Some(format!("proxy `{id}` (")),
            _ => None,
        };
        let uses_server = trace_uses_server(&trace);
        self.notes.retain(|n| {
            let server_used = uses_server && n.starts_with(&server_note);
            let proxy_used = proxy_note.as_ref().is_some_and(|p| n.starts_with(p));
            !server_used && !proxy_used
        });
        self.deployment = Some(DeploymentExplanation {
            repository,
            credentials,
            trace,
            would_mirror,
            options,
        });
        self
    }

    /// What can be shown when the session could not be built: the problems.
    pub fn from_error(error: &SessionError) -> Explanation {
        Explanation {
            problems: error.problems().to_vec(),
            ..Explanation::default()
        }
    }

    /// True when the settings could not be built (the CLI exits with status 1).
    pub fn failed(&self) -> bool {
        self.settings.is_none()
    }
}

/// Whether a server entry gave the repository of `trace` credentials or transport settings.
fn trace_uses_server(trace: &InjectionTrace) -> bool {
    trace.authentication_server.is_some() || trace.transport_server.is_some()
}

/// The credentials Maven would attach to an injected repository.
fn repository_credentials(session: &Session, r: &RemoteRepository) -> RepositoryCredentials {
    let mut out = RepositoryCredentials::default();
    match (&r.credential_source, &r.authentication) {
        (Some(CredentialSource::Netrc { .. }), Some(auth)) => {
            out.password = auth.password.clone().map(Credential::Plain)
        }
        // The <server>'s (also beside a helper it names): what Maven uses.
        (_, Some(auth)) => {
            if let Some(i) = session.server_for(&r.id) {
                out.password = session.credential(Field::ServerPassword(i)).cloned();
                if auth.private_key.is_some() {
                    out.passphrase = session.credential(Field::ServerPassphrase(i)).cloned();
                }
            }
        }
        _ => {}
    }
    if let Some(p) = &r.proxy {
        out.proxy_password = match &p.source {
            ProxySource::Settings { id } => session
                .proxy_for(id)
                .filter(|_| p.auth.is_some())
                .and_then(|i| session.credential(Field::ProxyPassword(i)).cloned()),
            _ => p
                .auth
                .as_ref()
                .and_then(|a| a.password.clone())
                .map(Credential::Plain),
        };
    }
    out
}

/// Ids of the settings proxies that serve at least one of `repositories`.
fn settings_proxies_used(repositories: &[RemoteRepository]) -> HashSet<&str> {
    repositories
        .iter()
        .filter_map(|r| r.proxy.as_ref())
        .filter_map(|p| match &p.source {
            ProxySource::Settings { id } => Some(id.as_str()),
            _ => None,
        })
        .collect()
}

/// Settings entries that apply to nothing in this build: worth a warning in the human form.
fn unused_entries(
    settings: &Settings,
    mirrors: &[Mirror],
    repositories: &[RemoteRepository],
    traces: &[InjectionTrace],
) -> Vec<String> {
    let mut notes = Vec::new();
    let used_ids: HashSet<&str> = repositories.iter().map(|r| r.id.as_str()).collect();
    for s in &settings.servers {
        if !used_ids.contains(s.id.as_str()) {
            notes.push(format!(
                "server `{}` ({}) gives credentials to no repository or mirror of this build: \
                 credentials attach by id, so its <id> must equal a repository or mirror id",
                s.id,
                s.origin.describe()
            ));
        }
    }
    for m in mirrors {
        if !traces
            .iter()
            .any(|t| t.mirror.as_ref().is_some_and(|x| x.mirror_id == m.id))
        {
            notes.push(format!(
                "mirror `{}` ({}) mirrors no repository of this build (mirrorOf `{}`)",
                m.id,
                m.origin.describe(),
                m.mirror_of.as_deref().unwrap_or("")
            ));
        }
    }
    let used_proxies = settings_proxies_used(repositories);
    let active: Vec<&Proxy> = settings.proxies.iter().filter(|p| p.active).collect();
    for (i, p) in active.iter().enumerate() {
        if used_proxies.contains(p.id.as_str()) {
            continue;
        }
        let shadow = active[..i].iter().find(|q| {
            q.protocol.eq_ignore_ascii_case(&p.protocol)
                && q.non_proxy_hosts
                    .as_deref()
                    .is_none_or(|n| n.trim().is_empty())
        });
        let why = match shadow {
            Some(q) => format!(
                ": proxy `{}` serves the same protocol `{}` for every host and comes first",
                q.id, p.protocol
            ),
            None => format!(" (protocol `{}`)", p.protocol),
        };
        notes.push(format!(
            "proxy `{}` ({}) serves no repository of this build{why}",
            p.id,
            p.origin.describe()
        ));
    }
    notes
}
