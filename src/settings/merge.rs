//! Merging settings levels, as Maven 3's `MavenSettingsMerger` does (user dominant).
//!
//! - `activeProfiles`, `pluginGroups`: dominant entries first, then recessive ones not present.
//! - `localRepository`: dominant unless empty.
//! - servers, mirrors, proxies, profiles (and Maven 4 top-level repositories): by id, whole
//!   element: a recessive element whose id the dominant list lacks is appended after the
//!   dominant ones (recessive duplicates all appended, as Maven computes the id set once).
//! - `offline`, `interactiveMode`, `usePluginRegistry`: never merged; the dominant file's values
//!   (or defaults) win, so a global `<offline>true</offline>` is ignored (MNG-2949).

use super::model::{Repository, Settings};
use std::collections::HashSet;

/// Merges `recessive` into `dominant` (Maven: `merge(user, global, "global-level")`).
pub fn merge(dominant: &mut Settings, recessive: Settings) {
    merge_strings(&mut dominant.active_profiles, recessive.active_profiles);
    merge_strings(&mut dominant.plugin_groups, recessive.plugin_groups);
    if dominant
        .local_repository
        .as_deref()
        .is_none_or(str::is_empty)
    {
        dominant.local_repository = recessive.local_repository;
    }
    merge_by_id(&mut dominant.mirrors, recessive.mirrors, |m| m.id.clone());
    merge_by_id(&mut dominant.servers, recessive.servers, |s| s.id.clone());
    merge_by_id(&mut dominant.proxies, recessive.proxies, |p| p.id.clone());
    merge_by_id(&mut dominant.profiles, recessive.profiles, |p| p.id.clone());
    merge_by_id(&mut dominant.repositories, recessive.repositories, repo_id);
    merge_by_id(
        &mut dominant.plugin_repositories,
        recessive.plugin_repositories,
        repo_id,
    );
}

fn repo_id(r: &Repository) -> String {
    r.id.clone().unwrap_or_default()
}

fn merge_strings(dominant: &mut Vec<String>, recessive: Vec<String>) {
    for s in recessive {
        if !dominant.contains(&s) {
            dominant.push(s);
        }
    }
}

fn merge_by_id<T>(dominant: &mut Vec<T>, recessive: Vec<T>, id: impl Fn(&T) -> String) {
    let present: HashSet<String> = dominant.iter().map(&id).collect();
    dominant.extend(recessive.into_iter().filter(|r| !present.contains(&id(r))));
}

#[cfg(test)]
#[allow(clippy::field_reassign_with_default)]
mod tests {
    use super::*;
    use crate::settings::model::*;

    fn server(id: &str, user: &str) -> Server {
        Server {
            id: id.into(),
            username: Some(user.into()),
            ..Server::default()
        }
    }

    #[test]
    fn table() {
        // (user ids, global ids, expected ids with origin)
        type Case<'a> = (&'a [&'a str], &'a [&'a str], &'a [(&'a str, &'a str)]);
        let cases: &[Case] = &[
            (&[], &[], &[]),
            (&["a"], &[], &[("a", "u")]),
            (&[], &["a"], &[("a", "g")]),
            (
                &["a", "b"],
                &["b", "c"],
                &[("a", "u"), ("b", "u"), ("c", "g")],
            ),
            (
                &["b"],
                &["c", "c", "b"],
                &[("b", "u"), ("c", "g"), ("c", "g")],
            ),
            (&["a", "a"], &["a"], &[("a", "u"), ("a", "u")]),
        ];
        for (user, global, expected) in cases {
            let mut u = Settings::default();
            u.servers = user.iter().map(|id| server(id, "u")).collect();
            let mut g = Settings::default();
            g.servers = global.iter().map(|id| server(id, "g")).collect();
            merge(&mut u, g);
            let got: Vec<(&str, &str)> = u
                .servers
                .iter()
                .map(|s| (s.id.as_str(), s.username.as_deref().unwrap_or("")))
                .collect();
            assert_eq!(&got, expected, "user {user:?} global {global:?}");
        }
    }

    #[test]
    fn scalars_and_string_lists() {
        let mut u = Settings::default();
        u.local_repository = Some(String::new());
        u.active_profiles = vec!["x".into(), "y".into()];
        u.plugin_groups = vec!["g1".into()];
        let mut g = Settings::default();
        g.local_repository = Some("/global/repo".into());
        g.offline = true;
        g.interactive_mode = false;
        g.use_plugin_registry = true;
        g.active_profiles = vec!["y".into(), "z".into()];
        g.plugin_groups = vec!["g2".into(), "g1".into()];
        merge(&mut u, g);
        assert_eq!(u.local_repository.as_deref(), Some("/global/repo"));
        assert!(!u.offline && u.interactive_mode && !u.use_plugin_registry);
        assert_eq!(u.active_profiles, ["x", "y", "z"]);
        assert_eq!(u.plugin_groups, ["g1", "g2"]);
    }

    #[test]
    fn user_local_repository_wins() {
        let mut u = Settings::default();
        u.local_repository = Some("/user".into());
        let mut g = Settings::default();
        g.local_repository = Some("/global".into());
        merge(&mut u, g);
        assert_eq!(u.local_repository.as_deref(), Some("/user"));
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_merge() {
        use crate::settings::{merge::merge, Server, Settings};
        let mut user = Settings::default();
        user.servers.push(Server {
            id: "a".into(),
            username: Some("user".into()),
            ..Server::default()
        });
        let mut global = Settings {
            offline: true,
            ..Settings::default()
        };
        global.servers.push(Server {
            id: "a".into(),
            username: Some("global".into()),
            ..Server::default()
        });
        global.servers.push(Server {
            id: "b".into(),
            ..Server::default()
        });
        merge(&mut user, global);
        let ids: Vec<_> = user
            .servers
            .iter()
            .map(|s| (s.id.as_str(), s.username.as_deref()))
            .collect();
        assert_eq!(ids, [("a", Some("user")), ("b", None)]);
        assert!(!user.offline, "global offline is ignored");
    }
}
