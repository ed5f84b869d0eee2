//! What a session takes from beyond Maven's settings, for CI machines and containers: `.netrc`
//! and credential helpers (switched on by [`SessionBuilder::netrc`] and
//! [`SessionBuilder::credential_helpers`]), JVM proxy properties of `MAVEN_OPTS` and
//! `.mvn/jvm.config` ([`SessionBuilder::jvm_proxy_options`]), and two Maven 3.9 / Resolver
//! 1.9 features read from the session's config properties: the chained local repository
//! (`maven.repo.local.tail`) and remote repository filters (`aether.remoteRepositoryFilter.*`).
//!
//! This module wires them from the session's snapshot; the rules are the lower layers':
//! [`crate::repository`] (netrc, credential precedence, JVM options), [`crate::transport`]
//! (the helper protocol and cache), [`crate::download`] (tails and filters).
//!
//! [`SessionBuilder::netrc`]: super::SessionBuilder::netrc
//! [`SessionBuilder::credential_helpers`]: super::SessionBuilder::credential_helpers
//! [`SessionBuilder::jvm_proxy_options`]: super::SessionBuilder::jvm_proxy_options

use super::Session;
use crate::download::{DownloaderConfig, FilterConfig, LocalTail, RepositoryFilter};
use crate::environment::{Environment, Vars};
use crate::repository::{jvm_options, netrc, CredentialSources, EnvProxyConfig, HELPER_VARIABLE};
use std::path::Path;
use std::sync::Arc;

/// The builder's switches for sources beyond Maven (all off: exactly Maven).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Beyond {
    pub(crate) netrc: bool,
    pub(crate) helpers: bool,
    pub(crate) jvm_options: bool,
}

/// What the session keeps of them, read once when it is built. The credential helpers' cache
/// is not here: it lives in the transport of the session's engine (one helper run per
/// repository for the session's lifetime).
#[derive(Debug)]
pub(crate) struct Extras {
    /// The chained local repository's tails.
    pub(crate) tail: Option<LocalTail>,
    /// The remote repository filters (rules cached for the session).
    pub(crate) filter: Option<Arc<RepositoryFilter>>,
    /// Problems reading these sources (unreadable files, a netrc others can read); no secrets.
    pub(crate) warnings: Vec<String>,
}

/// The credential sources beyond Maven, read once (`$NETRC` or `<user_home>/.netrc`).
pub(crate) fn credential_sources(
    beyond: Beyond,
    environment: &Environment,
    user_home: &Path,
) -> (CredentialSources, Vec<String>) {
    let mut warnings = Vec::new();
    let mut sources = CredentialSources {
        server_helpers: beyond.helpers,
        env_helper: if beyond.helpers {
            CredentialSources::env_helper(environment.env.value(HELPER_VARIABLE))
        } else {
            None
        },
        ..CredentialSources::default()
    };
    if beyond.netrc {
        let path = netrc::netrc_path(environment.env.value("NETRC"), user_home);
        match netrc::read_netrc(&path) {
            Ok(n) => sources.netrc = n.map(Arc::new),
            Err(w) => warnings.push(w),
        }
    }
    (sources, warnings)
}

/// The environment/property proxy layer with the JVM options' proxy properties below the
/// session's, and where each property was defined.
pub(crate) fn env_proxy_config(
    mut config: EnvProxyConfig,
    beyond: Beyond,
    environment: &Environment,
    user_properties: &Vars,
    system_property_names: &[String],
) -> (EnvProxyConfig, Vec<String>) {
    for name in config.properties.keys() {
        if !jvm_options::is_proxy_property(name) {
            continue;
        }
        let origin = if user_properties.contains_key(name) {
            "-D"
        } else if system_property_names.iter().any(|n| n == name) {
            "system property"
        } else {
            continue;
        };
        config.origins.insert(name.clone(), origin.to_string());
    }
    if !beyond.jvm_options || !config.use_system_properties {
        return (config, Vec::new());
    }
    let basedir =
        jvm_options::project_basedir(&environment.cwd, environment.env.value("MAVEN_BASEDIR"));
    let (props, warnings) = jvm_options::read_proxy_properties(
        basedir.as_deref(),
        environment.env.value(jvm_options::MAVEN_OPTS),
    );
    (config.with_jvm_options(&props), warnings)
}

/// The tails and filters of a session whose config properties `lookup` answers.
pub(crate) fn extras(
    lookup: impl Fn(&str) -> Option<String>,
    environment: &Environment,
    user_home: &Path,
    local_repository: &Path,
    warnings: Vec<String>,
) -> Extras {
    let tail = LocalTail::from_properties(
        lookup(crate::download::chain::TAIL_PROPERTY).as_deref(),
        lookup(crate::download::chain::IGNORE_AVAILABILITY_PROPERTY).as_deref(),
        user_home,
        &environment.cwd,
    );
    let filter = FilterConfig::from_properties(&lookup, local_repository)
        .map(|c| Arc::new(RepositoryFilter::new(c)));
    Extras {
        tail,
        filter,
        warnings,
    }
}

impl Extras {
    /// Hands the session's tails and filters to a downloader configuration (the engine's
    /// downloader gets them once; the filter's rule cache is shared).
    pub(crate) fn configure(&self, config: &mut DownloaderConfig) {
        config.tail = self.tail.clone();
        config.filter = self.filter.clone();
    }
}

impl Session {
    /// The chained local repository's tails (`maven.repo.local.tail`), read after
    /// [`Session::local_repository`] and never written.
    pub fn local_tail(&self) -> Option<&LocalTail> {
        self.extras.tail.as_ref()
    }

    /// The remote repository filters (`aether.remoteRepositoryFilter.prefixes`, `.groupId`).
    pub fn repository_filter(&self) -> Option<&Arc<RepositoryFilter>> {
        self.extras.filter.as_ref()
    }

    /// How many times a credential helper ran in this session (each runs once per repository
    /// for the session's lifetime, until its answer expires; `0` before the first download).
    /// For tools that report it.
    pub fn credential_helper_runs(&self) -> u64 {
        self.engine_if_made()
            .map(|e| e.downloader().transport().credential_helpers().runs())
            .unwrap_or(0)
    }

    /// Problems with the sources beyond Maven: a `.netrc` other users can read or with lines
    /// m2r does not understand, an unreadable `.mvn/jvm.config`. No secrets; for stderr.
    pub fn source_warnings(&self) -> Vec<String> {
        let mut w = self.extras.warnings.clone();
        w.extend(self.selectors.credentials.warnings());
        w
    }
}

#[cfg(test)]
mod tests {
    use super::super::{config_property, ActivationReason, ActiveProfile};
    use super::*;
    use crate::settings::{Profile, Settings, SourceLevel};

    #[test]
    fn config_properties_user_then_system_then_profiles_activated_by_id() {
        let vars = |pairs: &[(&str, &str)]| -> Vars {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let profile = |id: &str, v: &str| Profile {
            id: id.into(),
            properties: vec![("maven.repo.local.tail".into(), v.into())],
            ..Profile::default()
        };
        let settings = Settings {
            profiles: vec![profile("a", "/from-a"), profile("b", "/from-b")],
            ..Settings::default()
        };
        let active = |ids: &[(&str, ActivationReason)]| -> Vec<ActiveProfile> {
            ids.iter()
                .map(|(id, reason)| ActiveProfile {
                    id: id.to_string(),
                    reason: *reason,
                    origin: crate::settings::Origin {
                        level: SourceLevel::User,
                        ..Default::default()
                    },
                })
                .collect()
        };
        let by_id = ActivationReason::ActiveProfiles;
        let none = Vars::new();
        let key = "maven.repo.local.tail";
        let get = |u: &Vars, s: &Vars, a: &[(&str, ActivationReason)]| {
            config_property(key, u, s, &settings, &active(a)).map(str::to_string)
        };
        // The settings' order decides between profiles, not the activation order.
        let both = [("b", by_id), ("a", ActivationReason::Explicit)];
        assert_eq!(get(&none, &none, &both).as_deref(), Some("/from-b"));
        assert_eq!(
            get(&none, &none, &[("a", by_id)]).as_deref(),
            Some("/from-a")
        );
        assert_eq!(get(&none, &none, &[]), None);
        // A profile activated by its conditions is not in Maven's config properties.
        assert_eq!(
            get(&none, &none, &[("a", ActivationReason::Conditions)]),
            None
        );
        let sys = vars(&[(key, "/sys")]);
        assert_eq!(get(&none, &sys, &[("a", by_id)]).as_deref(), Some("/sys"));
        assert_eq!(
            get(&vars(&[(key, "/user")]), &sys, &[("a", by_id)]).as_deref(),
            Some("/user")
        );
    }
}
