//! Repositories: the [`RemoteRepository`] model and the mirror, proxy and authentication
//! selectors that turn declared repositories into the list the downloader uses, as Maven and
//! Maven Resolver 1.6.3 do it (spec §4–§6).
//!
//! Pipeline for each declared repository ([`inject`], which is Resolver's
//! `aggregateRepositories(session, [], repos, true)`): mirror (`mirror`) → merge with an
//! earlier repository of the same id (`aggregate`, `policy`) → credentials and server
//! transport settings by id (`auth`, `server_config`) → proxy (`proxy`, then, beyond
//! Maven and only when no settings proxy serves the repository's protocol, `env_proxy`).
//! [`inject_traced`] also returns an [`InjectionTrace`] per repository for `m2r explain`
//! ([`crate::explain::human`] renders it).
//!
//! Verified against real Maven 3.8.7 / Resolver 1.6.3: `testdata/oracle_cases.json` holds
//! hand-made cases with the oracle's answers (regenerate with `testdata/gen_oracle_cases.py`).
//!
//! This module does not read settings files, decrypt passwords or talk to the network: the
//! caller passes settings entries with secrets already decrypted.

pub(crate) mod aggregate;
pub(crate) mod auth;
pub(crate) mod credential_sources;
pub(crate) mod env_proxy;
pub(crate) mod error;
pub(crate) mod jvm_options;
pub(crate) mod mirror;
pub(crate) mod model;
pub(crate) mod netrc;
pub(crate) mod policy;
pub(crate) mod proxy;
pub(crate) mod server_config;
pub(crate) mod url;

#[cfg(test)]
mod oracle_tests;

pub use aggregate::inject_deployment;
pub(crate) use aggregate::{aggregate_repositories, aggregate_repositories_traced};
pub use aggregate::{AggregateOutcome, InjectionTrace, ProxyTrace};
pub use credential_sources::{CredentialSources, HELPER_VARIABLE};
pub use env_proxy::{EnvExclusion, EnvProxyConfig, EnvProxyDecision};
pub use error::InjectionError;
pub use jvm_options::JvmProperty;
pub use mirror::{MatchReason, MirrorMatch, MirrorRejection, SkipReason};
pub use model::*;
pub use netrc::{Netrc, NetrcEntry};
pub use proxy::{ProxyDecision, ProxyExclusion};
pub use url::RepositoryUrl;

use crate::secret::Secret;
use crate::settings::{Mirror, Proxy, Server};

/// The session's selectors: what Maven's `DefaultRepositorySystemSessionFactory` builds from
/// the settings (mirrors, active proxies, servers), plus the environment/property proxy layer.
#[derive(Debug, Clone, Default)]
pub struct Selectors {
    /// Mirror selection.
    pub(crate) mirrors: mirror::MirrorSelector,
    /// Settings proxy selection.
    pub(crate) proxies: proxy::ProxySelector,
    /// Credentials and server transport settings by id.
    pub(crate) auth: auth::AuthSelector,
    /// Environment / JVM-property proxies (beyond Maven).
    pub(crate) env: env_proxy::EnvProxySelector,
    /// Credential sources beyond Maven (netrc, helpers), consulted where no `<server>` gives
    /// credentials.
    pub(crate) credentials: CredentialSources,
    /// Fills in decrypted credentials (a session's selectors; none for [`Selectors::new`]).
    pub(crate) opener: Opener,
}

/// Fills in what sealed selectors leave out: the clear password and passphrase of an injected
/// repository and of its settings proxy. The session's lazy credential store implements it,
/// so a repository a POM declares gets its credentials the first time it is aggregated.
pub(crate) trait CredentialOpener: Send + Sync {
    /// Fills in the clear credentials `repo` uses (what cannot be decrypted stays out).
    fn fill(&self, repo: &mut RemoteRepository);
}

/// An optional [`CredentialOpener`] (prints whether there is one).
#[derive(Clone, Default)]
pub(crate) struct Opener(pub(crate) Option<std::sync::Arc<dyn CredentialOpener>>);

impl std::fmt::Debug for Opener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Opener(session)"
        } else {
            "Opener(none)"
        })
    }
}

impl Selectors {
    /// Builds every selector.
    ///
    /// - `mirrors`: the merged settings mirrors in document order (first per id wins).
    /// - `proxies`: settings proxies with the password to use — decrypted, or the value as
    ///   written when decryption failed (Maven 3 behaviour), `None` when there is none.
    ///   Inactive proxies are ignored; the first active proxy per id wins.
    /// - `servers`: servers with their password and passphrase, same convention; first per id wins.
    /// - `env`: the environment/property layer ([`EnvProxyConfig::disabled`] for exact Maven).
    ///
    /// Fails when a `nonProxyHosts` pattern is not a valid regular expression or a server
    /// timeout is not an integer (Maven fails on both when it creates its session).
    pub fn new(
        mirrors: &[Mirror],
        proxies: &[(Proxy, Option<Secret>)],
        servers: &[(Server, Option<Secret>, Option<Secret>)],
        env: EnvProxyConfig,
    ) -> Result<Self, InjectionError> {
        Ok(Selectors {
            mirrors: mirror::MirrorSelector::new(mirrors),
            proxies: proxy::ProxySelector::new(proxies)?,
            auth: auth::AuthSelector::new(servers)?,
            env: env_proxy::EnvProxySelector::new(env),
            credentials: CredentialSources::default(),
            opener: Opener::default(),
        })
    }

    /// These selectors with credential sources beyond Maven (`.netrc`, credential helpers);
    /// see `credential_sources` for the precedence.
    pub fn with_credential_sources(mut self, sources: CredentialSources) -> Self {
        self.credentials = sources;
        self
    }

    /// The selectors of a session, built once from the settings before anything is decrypted:
    /// authentications carry no password or passphrase (see [`auth::AuthSelector`]); the
    /// session fills in what the injected repositories use.
    pub(crate) fn sealed(
        mirrors: &[Mirror],
        proxies: &[Proxy],
        servers: &[Server],
        env: EnvProxyConfig,
    ) -> Result<Self, InjectionError> {
        Ok(Selectors {
            mirrors: mirror::MirrorSelector::new(mirrors),
            proxies: proxy::ProxySelector::sealed(proxies)?,
            auth: auth::AuthSelector::sealed(servers)?,
            env: env_proxy::EnvProxySelector::new(env),
            credentials: CredentialSources::default(),
            opener: Opener::default(),
        })
    }

    /// Warnings to surface: legacy server configuration formats, incomplete header properties,
    /// unusable proxy environment values. None contains a secret.
    pub fn warnings(&self) -> Vec<String> {
        self.auth
            .entries()
            .iter()
            .flat_map(|e| e.warnings.iter().cloned())
            .chain(self.env.warnings().iter().cloned())
            .chain(self.credentials.warnings())
            .collect()
    }
}

/// Mirrors, proxies and credentials applied to the repositories a build declares, in order:
/// `aggregate_repositories(&[], repos, true, selectors)`.
///
/// ```
/// use m2resolver::repository::{inject, RemoteRepository, Selectors};
/// use m2resolver::settings::{Mirror, Server};
/// use m2resolver::Secret;
/// let mirror = Mirror { id: "corp".into(), mirror_of: Some("external:*".into()), url: Some("https://nexus/".into()), ..Mirror::default() };
/// let server = Server { id: "corp".into(), username: Some("me".into()), ..Server::default() };
/// let sel = Selectors::new(&[mirror], &[], &[(server, Some(Secret::new("pw")), None)], Default::default()).unwrap();
/// let repos = inject(&[RemoteRepository::new("central", "https://repo.maven.apache.org/maven2"),
///                      RemoteRepository::new("local", "http://localhost:8081/repo")], &sel);
/// assert_eq!(repos[0].id, "corp");
/// assert_eq!(repos[0].authentication.as_ref().unwrap().username.as_deref(), Some("me"));
/// assert_eq!(repos[1].id, "local");
/// ```
pub fn inject(repos: &[RemoteRepository], selectors: &Selectors) -> Vec<RemoteRepository> {
    aggregate_repositories(&[], repos, true, selectors)
}

/// [`inject`] plus one [`InjectionTrace`] per declared repository (same order as `repos`).
pub fn inject_traced(
    repos: &[RemoteRepository],
    selectors: &Selectors,
) -> (Vec<RemoteRepository>, Vec<InjectionTrace>) {
    aggregate_repositories_traced(&[], repos, true, selectors)
}
