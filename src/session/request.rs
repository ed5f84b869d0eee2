//! Maven's request population: what `DefaultMavenExecutionRequestPopulator` and
//! `DefaultRepositorySystemSessionFactory` keep of the effective settings, and settings profile
//! activation with the repositories it contributes.
//!
//! - the first server, mirror and profile per id, and the first *active* proxy per id;
//! - Maven 3 drops a server's `<aliases>` (Maven 4 honours them: the `server_aliases` switch);
//! - active profiles: `<activeProfiles>` and `-P` ids, then activation conditions
//!   ([`crate::settings::profiles`]), each with the reason it is active ([`ActiveProfile`]);
//! - each active profile's repositories go in front of the build's own, the last activated
//!   first, a profile repository replacing a same-id one ([`declared_repositories`]).
//!
//! Pure functions over the settings; the session calls them once when it is built.

use crate::environment::Vars;
use crate::repository::{self, RemoteRepository};
use crate::settings::profiles::{select_active_profiles, ActivationContext};
use crate::settings::{Mirror, Origin, Profile, Proxy, Server, Settings, SettingsProblem};
use std::collections::HashSet;
use std::fmt;
use std::path::Path;

/// Indices of the first item per id, in order.
fn first_per_id<'a, T: 'a>(
    items: impl Iterator<Item = (usize, &'a T)>,
    id: impl Fn(&T) -> &str,
) -> Vec<usize> {
    let mut seen = HashSet::new();
    items
        .filter(|(_, item)| seen.insert(id(item).to_string()))
        .map(|(i, _)| i)
        .collect()
}

/// What Maven's request keeps: indices into the settings lists (mirrors cloned).
#[derive(Debug, Clone, Default)]
pub(crate) struct RequestEntries {
    /// The first server per id.
    pub(crate) server_idx: Vec<usize>,
    /// The first active proxy per id.
    pub(crate) proxy_idx: Vec<usize>,
    /// The first mirror per id.
    pub(crate) mirrors: Vec<Mirror>,
}

impl RequestEntries {
    pub(crate) fn new(settings: &Settings) -> Self {
        let active = settings
            .proxies
            .iter()
            .enumerate()
            .filter(|(_, p)| p.active);
        RequestEntries {
            server_idx: first_per_id(settings.servers.iter().enumerate(), |s: &Server| &s.id),
            proxy_idx: first_per_id(active, |p: &Proxy| &p.id),
            mirrors: first_per_id(settings.mirrors.iter().enumerate(), |m: &Mirror| &m.id)
                .into_iter()
                .map(|i| settings.mirrors[i].clone())
                .collect(),
        }
    }

    /// The request's servers as the session sees them (Maven 3 drops `<aliases>`).
    pub(crate) fn servers(&self, settings: &Settings, aliases: bool) -> Vec<Server> {
        self.server_idx
            .iter()
            .map(|&i| {
                let mut s = settings.servers[i].clone();
                if !aliases {
                    s.aliases.clear();
                }
                s
            })
            .collect()
    }

    /// The request's proxies.
    pub(crate) fn proxies(&self, settings: &Settings) -> Vec<Proxy> {
        self.proxy_idx
            .iter()
            .map(|&i| settings.proxies[i].clone())
            .collect()
    }
}

/// Why a settings profile is active.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ActivationReason {
    /// Listed in the settings' `<activeProfiles>`.
    ActiveProfiles,
    /// Activated explicitly (`-P id`).
    Explicit,
    /// `<activeByDefault>` and no other profile is active.
    ActiveByDefault,
    /// Its `<activation>` conditions hold.
    Conditions,
}

impl fmt::Display for ActivationReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ActivationReason::ActiveProfiles => "listed in <activeProfiles>",
            ActivationReason::Explicit => "activated with -P",
            ActivationReason::ActiveByDefault => "activeByDefault",
            ActivationReason::Conditions => "its <activation> conditions hold",
        })
    }
}

/// An active settings profile, why it is active and where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActiveProfile {
    /// The profile id.
    pub id: String,
    /// Why it is active.
    pub reason: ActivationReason,
    /// Where the profile was written.
    pub origin: Origin,
}

/// The outcome of profile activation.
#[derive(Debug, Clone, Default)]
pub(crate) struct Activated {
    pub(crate) profiles: Vec<ActiveProfile>,
    pub(crate) problems: Vec<SettingsProblem>,
    /// Per active profile (same order), its repositories as Maven converts them.
    pub(crate) repositories: Vec<Vec<RemoteRepository>>,
}

/// Explicit `-P` choices.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ProfileChoices {
    pub(crate) active: Vec<String>,
    pub(crate) inactive: Vec<String>,
}

impl ProfileChoices {
    /// Adds one `-P` option as Maven's CLI splits it: comma-separated, trimmed; `!x`/`-x`
    /// deactivate, `+x` and `x` activate.
    pub(crate) fn add(&mut self, option: &str) {
        for token in option.split(',').filter(|t| !t.is_empty()) {
            let token = token.trim();
            if let Some(id) = token.strip_prefix('-').or_else(|| token.strip_prefix('!')) {
                self.inactive.push(id.to_string());
            } else if let Some(id) = token.strip_prefix('+') {
                self.active.push(id.to_string());
            } else {
                self.active.push(token.to_string());
            }
        }
    }
}

/// Activates the settings profiles (the request keeps the first profile per id, as
/// `DefaultMavenExecutionRequest.addProfile` does).
pub(crate) fn activate(
    settings: &Settings,
    choices: &ProfileChoices,
    system_properties: &Vars,
    user_properties: &Vars,
    project_dir: &Path,
) -> Activated {
    let mut active_ids = settings.active_profiles.clone();
    active_ids.extend(choices.active.iter().cloned());
    let ctx = ActivationContext {
        active_profile_ids: active_ids,
        inactive_profile_ids: choices.inactive.clone(),
        system_properties: system_properties.clone(),
        user_properties: user_properties.clone(),
        project_dir: Some(project_dir.to_path_buf()),
        ..ActivationContext::default()
    };
    let profiles: Vec<&Profile> =
        first_per_id(settings.profiles.iter().enumerate(), |p: &Profile| &p.id)
            .into_iter()
            .map(|i| &settings.profiles[i])
            .collect();
    let owned: Vec<Profile> = profiles.iter().map(|p| (*p).clone()).collect();
    let result = select_active_profiles(&owned, &ctx);
    let active: Vec<&Profile> = result
        .active
        .iter()
        .filter_map(|&i| profiles.get(i).copied())
        .collect();
    Activated {
        profiles: active
            .iter()
            .map(|p| ActiveProfile {
                id: p.id.clone(),
                reason: reason(p, settings, choices),
                origin: p.origin.clone(),
            })
            .collect(),
        problems: result.problems,
        repositories: active
            .iter()
            .map(|p| {
                p.repositories
                    .iter()
                    .map(repository_from_settings)
                    .collect()
            })
            .collect(),
    }
}

fn reason(p: &Profile, settings: &Settings, choices: &ProfileChoices) -> ActivationReason {
    let has_conditions = p.activation.as_ref().is_some_and(|a| {
        a.jdk.is_some() || a.os.is_some() || a.property.is_some() || a.file.is_some()
    });
    if settings.active_profiles.contains(&p.id) {
        ActivationReason::ActiveProfiles
    } else if choices.active.contains(&p.id) {
        ActivationReason::Explicit
    } else if p.activation.as_ref().is_some_and(|a| a.active_by_default) && !has_conditions {
        ActivationReason::ActiveByDefault
    } else {
        ActivationReason::Conditions
    }
}

/// A settings profile repository as Maven converts it (`SettingsUtils` +
/// `ArtifactDescriptorUtils.toRemoteRepository`).
pub(crate) fn repository_from_settings(r: &crate::settings::Repository) -> RemoteRepository {
    let mut repo = RemoteRepository::new(
        r.id.clone().unwrap_or_default(),
        r.url.clone().unwrap_or_default(),
    );
    repo.layout = r.layout.clone();
    repo.releases = repository::policy::from_settings(r.releases.as_ref());
    repo.snapshots = repository::policy::from_settings(r.snapshots.as_ref());
    repo
}

/// Maven's profile injection: each active profile's repositories go in front of what is there
/// (so the last activated profile ends up first); a profile repository replaces a same-id one.
pub(crate) fn declared_repositories(
    profile_repos: &[Vec<RemoteRepository>],
    build_repos: &[RemoteRepository],
) -> Vec<RemoteRepository> {
    let mut model: Vec<RemoteRepository> = build_repos.to_vec();
    for repos in profile_repos {
        if repos.is_empty() {
            continue;
        }
        let mut merged: Vec<RemoteRepository> = Vec::with_capacity(repos.len() + model.len());
        for r in repos {
            match merged.iter_mut().find(|m| m.id == r.id) {
                Some(slot) => *slot = r.clone(),
                None => merged.push(r.clone()),
            }
        }
        for r in model {
            if !merged.iter().any(|m| m.id == r.id) {
                merged.push(r);
            }
        }
        model = merged;
    }
    model
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_repositories_go_first_last_activated_first() {
        let r = |id: &str, url: &str| RemoteRepository::new(id, url);
        let declared = declared_repositories(
            &[
                vec![r("a", "1"), r("x", "p1")],
                vec![r("b", "2"), r("b", "3")],
            ],
            &[r("central", "c"), r("x", "pom")],
        );
        let got: Vec<(&str, &str)> = declared
            .iter()
            .map(|r| (r.id.as_str(), r.url.as_written()))
            .collect();
        assert_eq!(got, [("b", "3"), ("a", "1"), ("x", "p1"), ("central", "c")]);
    }

    #[test]
    fn profile_options_split_like_maven() {
        let mut c = ProfileChoices::default();
        c.add("a, !b");
        c.add("+c,-d");
        c.add(",,");
        assert_eq!(c.active, ["a", "c"]);
        assert_eq!(c.inactive, ["b", "d"]);
    }

    #[test]
    fn request_keeps_first_per_id_and_active_proxies_only() {
        let settings = Settings {
            servers: vec![
                Server {
                    id: "a".into(),
                    aliases: vec!["b".into()],
                    ..Server::default()
                },
                Server {
                    id: "a".into(),
                    username: Some("second".into()),
                    ..Server::default()
                },
            ],
            proxies: vec![
                Proxy {
                    id: "p".into(),
                    active: false,
                    ..Proxy::default()
                },
                Proxy {
                    id: "p".into(),
                    host: Some("h".into()),
                    ..Proxy::default()
                },
            ],
            ..Settings::default()
        };
        let e = RequestEntries::new(&settings);
        assert_eq!(e.server_idx, [0]);
        assert_eq!(e.proxy_idx, [1]);
        assert!(e.servers(&settings, false)[0].aliases.is_empty());
        assert_eq!(e.servers(&settings, true)[0].aliases, ["b"]);
    }
}
