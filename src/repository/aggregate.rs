//! Aggregation of repository lists: Maven Resolver 1.6.3's
//! `DefaultRemoteRepositoryManager.aggregateRepositories` (spec §4.3), which is also how Maven
//! injects mirrors, proxies and credentials into the repositories a build declares.
//!
//! ```text
//! result = dominant
//! for rec in recessive:
//!     repo = raw ? (mirror of rec, or rec) : rec
//!     if some d in result has d.id == repo.id:
//!         if d and repo both mirror something: d = mergeMirrors(d, repo)
//!         continue                       # otherwise the earlier one wins, repo is dropped
//!     if raw: attach credentials (by repo.id) and proxy (by repo host/protocol)
//!     result.push(repo)
//! ```
//! `mergeMirrors` appends each repository that `repo` mirrors and `d` does not yet mirror (by
//! id) and merges its policies into `d`'s ([`super::policy::merge`]). The server's transport
//! settings travel with its credentials (Maven keys both by the same id).

use super::env_proxy::EnvProxyDecision;
use super::mirror::{mirror_repository, MirrorMatch, MirrorRejection};
use super::model::{CredentialSource, RemoteRepository};
use super::policy;
use super::proxy::ProxyDecision;
use super::Selectors;
use std::collections::{HashMap, HashSet};

/// What happened to one declared repository during aggregation.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AggregateOutcome {
    /// It (or its mirror) was appended at this position of the result.
    Added {
        /// Position in the result.
        position: usize,
    },
    /// Its mirror already served an earlier repository: the mirror at `position` now also
    /// mirrors it (`added` false when it was already in that mirror's list).
    MergedIntoMirror {
        /// Position of the mirror in the result.
        position: usize,
        /// The mirror id.
        id: String,
        /// Whether it was appended to the mirror's list (and its policies merged).
        added: bool,
    },
    /// An earlier repository with the same id wins; this one is dropped.
    DroppedDuplicate {
        /// Position of the repository that wins.
        position: usize,
        /// The shared id.
        id: String,
    },
}

/// The proxy decisions for one repository: settings first, then (only when no settings proxy
/// applies) the environment/property layer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProxyTrace {
    /// Maven's settings proxy selection.
    pub settings: ProxyDecision,
    /// The environment/property layer, consulted when `settings` selected nothing and no
    /// settings proxy for this protocol excluded the host.
    pub env: Option<EnvProxyDecision>,
    /// True when a settings proxy that serves this protocol excluded the host through
    /// `nonProxyHosts`: the host is meant to be reached directly, so the environment and
    /// system properties are not consulted.
    pub env_suppressed: bool,
}

/// Whether a settings proxy of type `kind` would serve a repository of (mapped) `protocol`.
fn serves(kind: &str, protocol: &str) -> bool {
    let kind = kind.to_lowercase();
    kind == protocol || (protocol == "https" && kind == "http")
}

/// Everything `m2r explain` needs to say why a declared repository ended up as it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InjectionTrace {
    /// The declared repository id.
    pub repository_id: String,
    /// The declared URL.
    pub url: super::RepositoryUrl,
    /// The mirror that replaced it, and why (`None`: not mirrored, or not raw).
    pub mirror: Option<MirrorMatch>,
    /// Why every other mirror did not apply (empty when not raw).
    pub mirror_rejections: Vec<MirrorRejection>,
    /// Where it went.
    pub outcome: AggregateOutcome,
    /// The proxy decisions (only for an added raw repository).
    pub proxy: Option<ProxyTrace>,
    /// The server id whose credentials were attached (the mirror id when mirrored).
    pub authentication_server: Option<String>,
    /// The server id whose transport settings (headers, timeouts) were attached.
    pub transport_server: Option<String>,
}

/// Maven's `aggregateRepositories(session, dominant, recessive, recessiveIsRaw)`.
pub fn aggregate_repositories(
    dominant: &[RemoteRepository],
    recessive: &[RemoteRepository],
    recessive_is_raw: bool,
    selectors: &Selectors,
) -> Vec<RemoteRepository> {
    aggregate(dominant, recessive, recessive_is_raw, selectors, None)
}

/// [`aggregate_repositories`] plus one [`InjectionTrace`] per recessive repository.
pub fn aggregate_repositories_traced(
    dominant: &[RemoteRepository],
    recessive: &[RemoteRepository],
    recessive_is_raw: bool,
    selectors: &Selectors,
) -> (Vec<RemoteRepository>, Vec<InjectionTrace>) {
    let mut traces = Vec::with_capacity(recessive.len());
    let out = aggregate(
        dominant,
        recessive,
        recessive_is_raw,
        selectors,
        Some(&mut traces),
    );
    (out, traces)
}

/// `mergeMirrors`: returns whether anything was appended. `ids` holds the ids `dominant`
/// already mirrors (kept beside it so repeated merges stay linear).
fn merge_mirrors(
    dominant: &mut RemoteRepository,
    ids: &mut HashSet<String>,
    recessive: &RemoteRepository,
) -> bool {
    let mut changed = false;
    for rec in &recessive.mirrored_repositories {
        if !ids.insert(rec.id.clone()) {
            continue;
        }
        dominant.releases = policy::merge(&dominant.releases, &rec.releases);
        dominant.snapshots = policy::merge(&dominant.snapshots, &rec.snapshots);
        dominant.mirrored_repositories.push(rec.clone());
        changed = true;
    }
    changed
}

fn aggregate(
    dominant: &[RemoteRepository],
    recessive: &[RemoteRepository],
    raw: bool,
    selectors: &Selectors,
    mut traces: Option<&mut Vec<InjectionTrace>>,
) -> Vec<RemoteRepository> {
    let mut result: Vec<RemoteRepository> = dominant.to_vec();
    // id → position: ids in `result` are unique except for duplicates inside `dominant`,
    // where the first one is what Maven's linear scan finds.
    let mut positions: HashMap<String, usize> =
        HashMap::with_capacity(dominant.len() + recessive.len());
    let mut mirrored_ids: HashMap<usize, HashSet<String>> = HashMap::new();
    for (i, d) in result.iter().enumerate() {
        positions.entry(d.id.clone()).or_insert(i);
    }
    for rec in recessive {
        let tracing = traces.is_some();
        let mut mirror: Option<MirrorMatch> = None;
        let repo = if raw {
            match selectors.mirrors.select(rec) {
                Some(m) => {
                    let r = mirror_repository(&selectors.mirrors.mirrors()[m.index], rec);
                    mirror = Some(m);
                    r
                }
                None => rec.clone(),
            }
        } else {
            rec.clone()
        };
        let rejections = if raw && tracing {
            selectors.mirrors.rejections(rec)
        } else {
            Vec::new()
        };
        let mut trace = InjectionTrace {
            repository_id: rec.id.clone(),
            url: rec.url.clone(),
            mirror,
            mirror_rejections: rejections,
            outcome: AggregateOutcome::Added { position: 0 },
            proxy: None,
            authentication_server: None,
            transport_server: None,
        };
        if let Some(&position) = positions.get(&repo.id) {
            let existing = &mut result[position];
            trace.outcome = if !existing.mirrored_repositories.is_empty()
                && !repo.mirrored_repositories.is_empty()
            {
                let ids = mirrored_ids.entry(position).or_insert_with(|| {
                    existing
                        .mirrored_repositories
                        .iter()
                        .map(|r| r.id.clone())
                        .collect()
                });
                let added = merge_mirrors(existing, ids, &repo);
                AggregateOutcome::MergedIntoMirror {
                    position,
                    id: repo.id.clone(),
                    added,
                }
            } else {
                AggregateOutcome::DroppedDuplicate {
                    position,
                    id: repo.id.clone(),
                }
            };
            if let Some(t) = traces.as_deref_mut() {
                t.push(trace);
            }
            continue;
        }
        let mut repo = repo;
        if raw {
            attach(&mut repo, selectors, &mut trace, tracing);
        }
        let position = result.len();
        positions.insert(repo.id.clone(), position);
        result.push(repo);
        trace.outcome = AggregateOutcome::Added { position };
        if let Some(t) = traces.as_deref_mut() {
            t.push(trace);
        }
    }
    result
}

/// What a raw repository gets once it is in the list (or, for a deployment repository, instead
/// of a mirror): the credentials and transport settings of the server with its id, then the
/// settings proxy that serves its protocol and host (or, beyond Maven, the environment's), then
/// the clear credentials.
fn attach(
    repo: &mut RemoteRepository,
    selectors: &Selectors,
    trace: &mut InjectionTrace,
    tracing: bool,
) {
    let server = selectors.auth.server(&repo.id);
    super::credential_sources::apply(repo, server, &selectors.credentials);
    if let Some(server) = server {
        if matches!(
            repo.credential_source,
            Some(CredentialSource::Server { .. })
        ) {
            trace.authentication_server = Some(server.id.clone());
        }
        repo.transport = server.transport.clone();
        trace.transport_server = Some(server.id.clone());
    }
    let settings = selectors.proxies.select(repo);
    let mut env = None;
    let mut env_suppressed = false;
    match settings.selected {
        Some(i) => repo.proxy = Some(selectors.proxies.proxies()[i].to_repository_proxy()),
        None if settings
            .excluded
            .iter()
            .any(|e| serves(&e.protocol, &settings.protocol)) =>
        {
            env_suppressed = true;
        }
        None => {
            let d = selectors.env.select(repo);
            if let Some(p) = &d.proxy {
                repo.proxy = Some(p.clone());
            }
            env = Some(d);
        }
    }
    if let Some(opener) = &selectors.opener.0 {
        opener.fill(repo);
    }
    if tracing {
        trace.proxy = Some(ProxyTrace {
            settings,
            env,
            env_suppressed,
        });
    }
}

/// A deployment repository as Maven's deploy plugins make it (`AbstractDeployMojo
/// .getRemoteRepository`, and `DefaultProjectBuilder` for `distributionManagement`): the server's
/// credentials and transport settings by id and the proxy, but **no mirror** — mirrors are for
/// downloads. The trace's `mirror` stays `None`; its `mirror_rejections` say why each mirror did
/// not match, and a mirror that would have matched a download from this repository is
/// `would_mirror`.
pub fn inject_deployment(
    repo: &RemoteRepository,
    selectors: &Selectors,
) -> (RemoteRepository, InjectionTrace, Option<MirrorMatch>) {
    let mut out = repo.clone();
    let mut trace = InjectionTrace {
        repository_id: repo.id.clone(),
        url: repo.url.clone(),
        mirror: None,
        mirror_rejections: selectors.mirrors.rejections(repo),
        outcome: AggregateOutcome::Added { position: 0 },
        proxy: None,
        authentication_server: None,
        transport_server: None,
    };
    attach(&mut out, selectors, &mut trace, true);
    let would_mirror = selectors.mirrors.select(repo);
    (out, trace, would_mirror)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repository::{EnvProxyConfig, Policy};
    use crate::settings::{Mirror, Proxy, Server};
    use crate::Secret;

    fn mirror(id: &str, of: &str) -> Mirror {
        Mirror {
            id: id.into(),
            mirror_of: Some(of.into()),
            url: Some(format!("https://mirror/{id}")),
            ..Mirror::default()
        }
    }

    fn pol(enabled: bool, update: &str, checksum: &str) -> Policy {
        Policy {
            enabled,
            update_policy: update.into(),
            checksum_policy: checksum.into(),
        }
    }

    fn repo(id: &str, url: &str, releases: Policy, snapshots: Policy) -> RemoteRepository {
        let mut r = RemoteRepository::new(id, url);
        r.releases = releases;
        r.snapshots = snapshots;
        r
    }

    #[test]
    fn several_repositories_behind_one_mirror_merge_policies() {
        let sel = Selectors::new(&[mirror("all", "*")], &[], &[], Default::default()).unwrap();
        let a = repo(
            "a",
            "http://x/a",
            pol(true, "daily", "warn"),
            pol(false, "daily", "warn"),
        );
        let b = repo(
            "b",
            "http://y/b",
            pol(true, "always", "fail"),
            pol(true, "never", "ignore"),
        );
        let c = repo(
            "c",
            "http://z/c",
            pol(false, "always", "ignore"),
            pol(true, "interval:5", "fail"),
        );
        let a2 = repo(
            "a",
            "http://other/a",
            pol(true, "always", "ignore"),
            Policy::default(),
        );
        let (out, traces) = aggregate_repositories_traced(&[], &[a, b, c, a2], true, &sel);
        assert_eq!(out.len(), 1);
        let m = &out[0];
        assert_eq!(m.id, "all");
        let ids: Vec<&str> = m
            .mirrored_repositories
            .iter()
            .map(|r| r.id.as_str())
            .collect();
        assert_eq!(ids, ["a", "b", "c"]);
        // releases: a(daily,warn) + b(always,fail) → always,warn; c disabled → unchanged
        assert_eq!(m.releases, pol(true, "always", "warn"));
        // snapshots: a disabled → b(never,ignore); + c(interval:5,fail) → interval:5,ignore
        assert_eq!(m.snapshots, pol(true, "interval:5", "ignore"));
        assert_eq!(traces[0].outcome, AggregateOutcome::Added { position: 0 });
        assert_eq!(
            traces[3].outcome,
            AggregateOutcome::MergedIntoMirror {
                position: 0,
                id: "all".into(),
                added: false
            }
        );
    }

    #[test]
    fn repeated_ids_first_wins_without_mirrors() {
        let sel = Selectors::default();
        let a1 = RemoteRepository::new("a", "http://x/1");
        let a2 = RemoteRepository::new("a", "http://x/2");
        let (out, traces) = aggregate_repositories_traced(&[], &[a1.clone(), a2], true, &sel);
        assert_eq!(out, vec![a1]);
        assert_eq!(
            traces[1].outcome,
            AggregateOutcome::DroppedDuplicate {
                position: 0,
                id: "a".into()
            }
        );
    }

    #[test]
    fn mirror_with_the_id_of_a_plain_repository_is_dropped() {
        // `m` declared plainly first, then `x` mirrored by mirror `m`: same key, and only one
        // of them mirrors something, so the mirror is dropped.
        let sel = Selectors::new(&[mirror("m", "x")], &[], &[], Default::default()).unwrap();
        let plain = RemoteRepository::new("m", "http://plain/");
        let x = RemoteRepository::new("x", "http://x/");
        let out = aggregate_repositories(&[], &[plain.clone(), x], true, &sel);
        assert_eq!(out, vec![plain]);
    }

    #[test]
    fn credentials_and_proxy_attach_to_the_mirror_id() {
        let servers = [
            (
                Server {
                    id: "central".into(),
                    username: Some("not-me".into()),
                    ..Server::default()
                },
                None,
                None,
            ),
            (
                Server {
                    id: "all".into(),
                    username: Some("me".into()),
                    ..Server::default()
                },
                Some(Secret::new("pw")),
                None,
            ),
        ];
        let proxies = [(
            Proxy {
                id: "p".into(),
                host: Some("proxy".into()),
                ..Proxy::default()
            },
            None,
        )];
        let sel = Selectors::new(
            &[mirror("all", "*")],
            &proxies,
            &servers,
            Default::default(),
        )
        .unwrap();
        let (out, traces) = aggregate_repositories_traced(
            &[],
            &[RemoteRepository::new("central", "https://repo1/")],
            true,
            &sel,
        );
        assert_eq!(
            out[0].authentication.as_ref().unwrap().username.as_deref(),
            Some("me")
        );
        assert_eq!(out[0].proxy.as_ref().unwrap().host, "proxy");
        assert_eq!(traces[0].authentication_server.as_deref(), Some("all"));
        assert!(traces[0].proxy.as_ref().unwrap().settings.http_fallback);
    }

    #[test]
    fn environment_only_when_no_settings_proxy_serves_the_protocol() {
        let env = EnvProxyConfig {
            env: [(
                "HTTPS_PROXY".to_string(),
                "http://envproxy:3128".to_string(),
            )]
            .into_iter()
            .collect(),
            use_environment: true,
            ..EnvProxyConfig::default()
        };
        let proxies = [(
            Proxy {
                id: "corp".into(),
                host: Some("corp-proxy".into()),
                non_proxy_hosts: Some("*.internal".into()),
                ..Proxy::default()
            },
            None,
        )];
        let sel = Selectors::new(&[], &proxies, &[], env.clone()).unwrap();
        let repos = [
            RemoteRepository::new("a", "https://repo.example/"),
            RemoteRepository::new("b", "https://nexus.internal/"),
        ];
        let (out, traces) = aggregate_repositories_traced(&[], &repos, true, &sel);
        assert_eq!(out[0].proxy.as_ref().unwrap().host, "corp-proxy");
        // excluded by the settings proxy: reached directly, the environment is not asked
        assert!(out[1].proxy.is_none());
        assert!(traces[1].proxy.as_ref().unwrap().env_suppressed);
        // without settings proxies the environment applies
        let sel = Selectors::new(&[], &[], &[], env).unwrap();
        let (out, traces) = aggregate_repositories_traced(&[], &repos, true, &sel);
        let p = out[1].proxy.as_ref().unwrap();
        assert_eq!((p.host.as_str(), p.port), ("envproxy", 3128));
        let t = traces[1].proxy.as_ref().unwrap();
        assert!(!t.env_suppressed && t.env.as_ref().unwrap().proxy.is_some());
    }

    #[test]
    fn not_raw_means_no_mirror_no_auth_no_proxy() {
        let sel = Selectors::new(
            &[mirror("all", "*")],
            &[],
            &[(
                Server {
                    id: "a".into(),
                    username: Some("u".into()),
                    ..Server::default()
                },
                None,
                None,
            )],
            Default::default(),
        )
        .unwrap();
        let a = RemoteRepository::new("a", "http://x/");
        let out = aggregate_repositories(&[], std::slice::from_ref(&a), false, &sel);
        assert_eq!(out, vec![a]);
    }

    #[test]
    fn dominant_wins_and_merges_mirrors() {
        let sel = Selectors::new(&[mirror("all", "*")], &[], &[], Default::default()).unwrap();
        let first = aggregate_repositories(
            &[],
            &[repo(
                "a",
                "http://a/",
                pol(true, "never", "fail"),
                Policy::default(),
            )],
            true,
            &sel,
        );
        let out = aggregate_repositories(
            &first,
            &[repo(
                "b",
                "http://b/",
                pol(true, "daily", "fail"),
                Policy::default(),
            )],
            true,
            &sel,
        );
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].mirrored_repositories.len(), 2);
        assert_eq!(out[0].releases, pol(true, "daily", "fail"));
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_aggregate_repositories() {
        use crate::repository::{aggregate::aggregate_repositories, RemoteRepository, Selectors};
        use crate::settings::Mirror;
        let m = Mirror {
            id: "all".into(),
            mirror_of: Some("*".into()),
            url: Some("https://m/".into()),
            ..Mirror::default()
        };
        let sel = Selectors::new(&[m], &[], &[], Default::default()).unwrap();
        let repos = [
            RemoteRepository::new("a", "https://a/"),
            RemoteRepository::new("b", "https://b/"),
        ];
        let out = aggregate_repositories(&[], &repos, true, &sel);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].mirrored_repositories.len(), 2);
    }
}
