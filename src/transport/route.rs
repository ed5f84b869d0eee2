//! Routes: how a connection reaches a repository. A route is the first hop (the proxy, or the
//! repository's host when there is none) and one of the addresses its name resolves to.
//!
//! - [`HostResolver`] turns a host into addresses, in the resolver's order, with optional
//!   per-host overrides (like curl's `--resolve`: an embedding tool or a test can pin names).
//! - [`RouteDatabase`] remembers, for the session, which routes failed to connect; those go last
//!   the next time (OkHttp's `RouteDatabase`), and a route that connects again is forgiven.
//! - [`RoutePlan`] is what `m2r explain` shows per repository: the hop, its addresses in the
//!   order they will be tried, and the authentication schemes offered first and why; its
//!   [`RoutePlan::describe`] returns the sentences.
//!
//! Connecting itself (trying the routes, proxies, TLS) is [`crate::transport::connector`]'s.

use crate::repository::{RemoteRepository, RepositoryProxy};
use crate::transport::auth::{AuthOffer, Authenticator};
use std::collections::{HashMap, HashSet};
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::sync::Mutex;
use std::time::Duration;

/// Resolves host names, honouring overrides.
#[derive(Debug, Clone, Default)]
pub struct HostResolver {
    overrides: HashMap<String, Vec<IpAddr>>,
}

/// A host without IPv6 brackets, lower-cased.
pub(crate) fn bare_host(host: &str) -> String {
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase()
}

impl HostResolver {
    /// The system resolver with these overrides (host → addresses, tried in this order).
    pub fn new(overrides: &HashMap<String, Vec<IpAddr>>) -> HostResolver {
        HostResolver {
            overrides: overrides
                .iter()
                .map(|(h, a)| (bare_host(h), a.clone()))
                .collect(),
        }
    }

    fn literal_or_override(&self, host: &str, port: u16) -> Option<Vec<SocketAddr>> {
        let host = bare_host(host);
        if let Ok(ip) = host.parse::<IpAddr>() {
            return Some(vec![SocketAddr::new(ip, port)]);
        }
        self.overrides
            .get(&host)
            .map(|ips| ips.iter().map(|ip| SocketAddr::new(*ip, port)).collect())
    }

    /// The addresses of `host:port`, in the order to try them (duplicates removed).
    pub async fn resolve(&self, host: &str, port: u16) -> std::io::Result<Vec<SocketAddr>> {
        if let Some(a) = self.literal_or_override(host, port) {
            return Ok(a);
        }
        let found = tokio::net::lookup_host((bare_host(host), port)).await?;
        Ok(dedup(found))
    }

    /// [`HostResolver::resolve`] without a runtime, giving up after `timeout` (for `explain`).
    pub fn resolve_blocking(
        &self,
        host: &str,
        port: u16,
        timeout: Duration,
    ) -> Result<Vec<SocketAddr>, String> {
        if let Some(a) = self.literal_or_override(host, port) {
            return Ok(a);
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let name = bare_host(host);
        // getaddrinfo cannot be cancelled: a stuck lookup is left to finish on its own thread.
        std::thread::spawn(move || {
            let _ = tx.send((name.as_str(), port).to_socket_addrs().map(dedup));
        });
        match rx.recv_timeout(timeout) {
            Ok(Ok(a)) => Ok(a),
            Ok(Err(e)) => Err(format!("cannot resolve {host}: {e}")),
            Err(_) => Err(format!(
                "cannot resolve {host}: no answer within {timeout:?}"
            )),
        }
    }
}

fn dedup(addrs: impl IntoIterator<Item = SocketAddr>) -> Vec<SocketAddr> {
    let mut seen = HashSet::new();
    addrs.into_iter().filter(|a| seen.insert(*a)).collect()
}

/// One route: the hop (`direct` or the proxy's `host:port`) and an address.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Route {
    /// `direct`, or the proxy as `host:port`.
    pub hop: String,
    /// The address connected to.
    pub address: SocketAddr,
}

/// Routes that failed to connect in this session.
#[derive(Debug, Default)]
pub struct RouteDatabase {
    failed: Mutex<HashSet<Route>>,
}

impl RouteDatabase {
    /// `addresses` with this session's failed routes moved to the end (stable otherwise).
    pub fn order(&self, hop: &str, addresses: Vec<SocketAddr>) -> Vec<SocketAddr> {
        let failed = self.failed.lock().unwrap_or_else(|e| e.into_inner());
        let (bad, good): (Vec<_>, Vec<_>) = addresses.into_iter().partition(|a| {
            failed.contains(&Route {
                hop: hop.to_string(),
                address: *a,
            })
        });
        good.into_iter().chain(bad).collect()
    }

    /// Remembers a route that failed to connect.
    pub fn failed(&self, route: Route) {
        self.failed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(route);
    }

    /// Forgets a failure once the route connected.
    pub fn connected(&self, route: &Route) {
        let mut f = self.failed.lock().unwrap_or_else(|e| e.into_inner());
        if !f.is_empty() {
            f.remove(route);
        }
    }

    /// The failed routes of `hop`.
    pub fn failed_for(&self, hop: &str) -> Vec<SocketAddr> {
        let f = self.failed.lock().unwrap_or_else(|e| e.into_inner());
        let mut v: Vec<SocketAddr> = f
            .iter()
            .filter(|r| r.hop == hop)
            .map(|r| r.address)
            .collect();
        v.sort();
        v
    }
}

/// The first hop of a repository's connections.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Hop {
    /// Straight to the repository's host.
    Direct {
        /// `host:port` of the repository.
        target: String,
    },
    /// Through a proxy.
    Proxy {
        /// `host:port` of the proxy.
        proxy: String,
        /// Where it came from (`settings proxy `corp``, `environment variable HTTPS_PROXY`).
        source: String,
        /// What is spoken to it: `HTTP CONNECT tunnel`, `HTTP (absolute-form requests)`, `SOCKS5`.
        protocol: String,
        /// `host:port` of the repository.
        target: String,
    },
}

/// What `m2r explain` shows about how a repository is reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoutePlan {
    /// The first hop.
    pub hop: Hop,
    /// The first hop's addresses in the order they will be tried, or why they are unknown.
    pub addresses: Result<Vec<SocketAddr>, String>,
    /// Addresses that failed to connect in this session (already moved last in `addresses`).
    pub failed: Vec<SocketAddr>,
    /// The proxy authentication offered first (HTTP proxies only).
    pub proxy_auth: Option<AuthOffer>,
    /// The server authentication offered first.
    pub server_auth: AuthOffer,
    /// The credential helper whose answer the server gets (then `server_auth` describes the
    /// settings' credentials, used only when the helper has none).
    pub server_helper: Option<String>,
}

impl RoutePlan {
    /// The sentences `m2r explain` prints (no secrets).
    ///
    /// ```
    /// use m2resolver::repository::RemoteRepository;
    /// use m2resolver::transport::RoutePlan;
    /// let plan = RoutePlan::fresh(&RemoteRepository::new("central", "https://127.0.0.1:8443/maven2"));
    /// let text = plan.describe().join("\n");
    /// assert!(text.contains("direct to 127.0.0.1:8443"), "{text}");
    /// assert!(text.contains("addresses, in the order they are tried: 127.0.0.1:8443"), "{text}");
    /// ```
    pub fn describe(&self) -> Vec<String> {
        let mut out = Vec::new();
        match &self.hop {
            Hop::Direct { target } => out.push(format!("route: direct to {target}")),
            Hop::Proxy {
                proxy,
                source,
                protocol,
                target,
            } => out.push(format!(
                "route: proxy {proxy} ({source}), {protocol} to {target}"
            )),
        }
        match &self.addresses {
            Ok(a) if a.is_empty() => out.push("addresses: none found".into()),
            Ok(a) => {
                let list: Vec<String> = a.iter().map(SocketAddr::to_string).collect();
                let mut s = format!(
                    "addresses, in the order they are tried: {}",
                    list.join(", ")
                );
                if a.len() > 1 {
                    s.push_str(" (the resolver's order; an address that fails to connect is tried last for the rest of the session)");
                }
                if !self.failed.is_empty() {
                    let f: Vec<String> = self.failed.iter().map(SocketAddr::to_string).collect();
                    s.push_str(&format!("; failed this session: {}", f.join(", ")));
                }
                out.push(s);
            }
            Err(why) => out.push(format!("addresses: {why}")),
        }
        if let Some(p) = &self.proxy_auth {
            out.push(format!("proxy authentication: {}", p.sentence()));
        }
        out.push(match &self.server_helper {
            Some(h) => format!(
                "server authentication: the answer of {h}, asked before the first request: Basic for a user name and password, `Authorization: Bearer` for a token, to the repository's own origin only"
            ),
            None => format!("server authentication: {}", self.server_auth.sentence()),
        });
        out
    }

    /// The plan of a repository at the start of a session (nothing learned yet). A proxy's
    /// name is resolved with the system resolver (once per process, at most 2 s); a repository
    /// reached directly shows its addresses only when its host is an IP address (others are
    /// looked up when connecting).
    pub fn fresh(repo: &RemoteRepository) -> RoutePlan {
        RoutePlan::fresh_all(std::slice::from_ref(repo)).remove(0)
    }

    /// [`RoutePlan::fresh`] for several repositories, resolving their proxies in parallel.
    pub fn fresh_all(repos: &[RemoteRepository]) -> Vec<RoutePlan> {
        let resolver = HostResolver::default();
        let hosts: HashSet<(String, u16)> = repos
            .iter()
            .filter(|r| r.proxy.is_some())
            .filter_map(first_hop)
            .collect();
        let answers: HashMap<(String, u16), Result<Vec<SocketAddr>, String>> =
            std::thread::scope(|scope| {
                let jobs: Vec<_> = hosts
                    .into_iter()
                    .map(|(h, p)| {
                        let r = &resolver;
                        scope.spawn(move || {
                            let a = cached_lookup(r, &h, p);
                            ((h, p), a)
                        })
                    })
                    .collect();
                jobs.into_iter().filter_map(|j| j.join().ok()).collect()
            });
        repos
            .iter()
            .map(|repo| {
                let lookup = |h: &str, p: u16| match repo.proxy {
                    Some(_) => answers
                        .get(&(h.to_string(), p))
                        .cloned()
                        .unwrap_or_else(|| Err("not looked up".into())),
                    None => resolver
                        .literal_or_override(h, p)
                        .ok_or_else(|| "looked up when connecting".to_string()),
                };
                plan(
                    repo,
                    lookup,
                    &RouteDatabase::default(),
                    Authenticator::for_proxy_fresh(repo.proxy.as_ref()).as_ref(),
                    &Authenticator::for_server_fresh(repo),
                )
            })
            .collect()
    }
}

/// Proxy names resolved by `explain` in this process (a proxy serves many repositories, and
/// one answer per run is what a person reading the explanation needs).
fn cached_lookup(
    resolver: &HostResolver,
    host: &str,
    port: u16,
) -> Result<Vec<SocketAddr>, String> {
    type Cache = Mutex<HashMap<(String, u16), Result<Vec<SocketAddr>, String>>>;
    static CACHE: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let key = (bare_host(host), port);
    if let Some(a) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return a.clone();
    }
    let a = resolver.resolve_blocking(host, port, Duration::from_secs(2));
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, a.clone());
    a
}

/// The plan from a lookup function and the session's state.
pub(crate) fn plan(
    repo: &RemoteRepository,
    lookup: impl FnOnce(&str, u16) -> Result<Vec<SocketAddr>, String>,
    routes: &RouteDatabase,
    proxy_auth: Option<&Authenticator>,
    server_auth: &Authenticator,
) -> RoutePlan {
    let target = TargetAddr::of(&repo.url);
    let target_label = target
        .as_ref()
        .map(|t| t.label())
        .unwrap_or_else(|| "(invalid URL)".into());
    let https = target.as_ref().is_some_and(|t| t.https);
    let hop = match &repo.proxy {
        None => Hop::Direct {
            target: target_label.clone(),
        },
        Some(p) => {
            let kind = p.kind.to_ascii_lowercase();
            let protocol = if kind.starts_with("socks5") {
                format!(
                    "SOCKS5 ({} resolves the repository's name)",
                    if kind == "socks5h" {
                        "the proxy"
                    } else {
                        "m2r"
                    }
                )
            } else if kind.starts_with("socks4") {
                "SOCKS4".to_string()
            } else if https {
                "HTTP CONNECT tunnel".to_string()
            } else {
                "HTTP (absolute-form requests)".to_string()
            };
            Hop::Proxy {
                proxy: proxy_label(p),
                source: proxy_source(p),
                protocol,
                target: target_label,
            }
        }
    };
    let first = first_hop(repo);
    let hop_key = match &repo.proxy {
        Some(p) => proxy_label(p),
        None => "direct".to_string(),
    };
    let addresses = match first {
        Some((h, port)) => lookup(&h, port).map(|a| routes.order(&hop_key, a)),
        None => Err("no valid host and port".into()),
    };
    RoutePlan {
        hop,
        addresses,
        failed: routes.failed_for(&hop_key),
        proxy_auth: proxy_auth.map(|a| a.offer(https)),
        server_auth: server_auth.offer(https),
        server_helper: match &repo.credential_source {
            Some(crate::repository::CredentialSource::Helper(h)) => Some(h.to_string()),
            _ => None,
        },
    }
}

/// The host and port of a repository's first hop: its proxy, or its own host.
pub(crate) fn first_hop(repo: &RemoteRepository) -> Option<(String, u16)> {
    match &repo.proxy {
        Some(p) => u16::try_from(p.port)
            .ok()
            .map(|port| (p.host.clone(), port)),
        None => TargetAddr::of(&repo.url).map(|t| (t.host, t.port)),
    }
}

/// `host:port` of a proxy (IPv6 in brackets).
pub(crate) fn proxy_label(p: &RepositoryProxy) -> String {
    let h = bare_host(&p.host);
    if h.contains(':') {
        format!("[{h}]:{}", p.port)
    } else {
        format!("{h}:{}", p.port)
    }
}

/// `settings proxy `corp`` / `environment variable HTTPS_PROXY`.
pub(crate) fn proxy_source(p: &RepositoryProxy) -> String {
    p.source.to_string()
}

/// Scheme, host and port of a repository URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TargetAddr {
    pub https: bool,
    pub host: String,
    pub port: u16,
}

impl TargetAddr {
    pub fn of(url: &crate::repository::RepositoryUrl) -> Option<TargetAddr> {
        let u = url.parsed()?;
        let https = match u.scheme() {
            "https" => true,
            "http" => false,
            _ => return None,
        };
        Some(TargetAddr {
            https,
            host: bare_host(u.host_str()?),
            port: u.port_or_known_default()?,
        })
    }

    /// `host:port`, IPv6 in brackets (also the CONNECT authority).
    pub fn label(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repository::Authentication;
    use crate::Secret;

    fn sa(s: &str) -> SocketAddr {
        s.parse().unwrap()
    }

    #[test]
    fn failed_routes_go_last_until_they_connect() {
        let db = RouteDatabase::default();
        let addrs = vec![sa("[::1]:3128"), sa("127.0.0.1:3128"), sa("127.0.0.2:3128")];
        assert_eq!(db.order("p:3128", addrs.clone()), addrs);
        db.failed(Route {
            hop: "p:3128".into(),
            address: sa("[::1]:3128"),
        });
        assert_eq!(
            db.order("p:3128", addrs.clone()),
            vec![sa("127.0.0.1:3128"), sa("127.0.0.2:3128"), sa("[::1]:3128")]
        );
        // other hops are not affected
        assert_eq!(db.order("direct", addrs.clone()), addrs);
        assert_eq!(db.failed_for("p:3128"), vec![sa("[::1]:3128")]);
        db.connected(&Route {
            hop: "p:3128".into(),
            address: sa("[::1]:3128"),
        });
        assert_eq!(db.order("p:3128", addrs.clone()), addrs);
    }

    #[test]
    fn resolver_literals_and_overrides() {
        let mut o = HashMap::new();
        o.insert(
            "Proxy.Test".to_string(),
            vec!["::1".parse().unwrap(), "127.0.0.1".parse().unwrap()],
        );
        let r = HostResolver::new(&o);
        let t = Duration::from_secs(1);
        assert_eq!(
            r.resolve_blocking("proxy.test", 80, t).unwrap(),
            vec![sa("[::1]:80"), sa("127.0.0.1:80")]
        );
        assert_eq!(
            r.resolve_blocking("[::1]", 8, t).unwrap(),
            vec![sa("[::1]:8")]
        );
        assert_eq!(
            r.resolve_blocking("10.1.2.3", 8, t).unwrap(),
            vec![sa("10.1.2.3:8")]
        );
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let got = rt.block_on(r.resolve("PROXY.TEST", 3)).unwrap();
        assert_eq!(got, vec![sa("[::1]:3"), sa("127.0.0.1:3")]);
        assert_eq!(dedup([sa("1.1.1.1:1"), sa("1.1.1.1:1")]).len(), 1);
    }

    fn proxied(kind: &str, url: &str, with_auth: bool) -> RemoteRepository {
        let mut r = RemoteRepository::new("central", url);
        r.proxy = Some(RepositoryProxy {
            kind: kind.into(),
            host: "proxy.test".into(),
            port: 3128,
            auth: with_auth.then(|| Authentication {
                username: Some("CORP\\jane".into()),
                password: Some(Secret::new("pw")),
                ..Default::default()
            }),
            source: crate::repository::ProxySource::Settings { id: "corp".into() },
        });
        r
    }

    #[test]
    fn plan_sentences() {
        let repo = proxied("http", "https://repo.example:8443/m2", true);
        let db = RouteDatabase::default();
        db.failed(Route {
            hop: "proxy.test:3128".into(),
            address: sa("[::1]:3128"),
        });
        let lookup = |h: &str, p: u16| {
            assert_eq!((h, p), ("proxy.test", 3128));
            Ok(vec![sa("[::1]:3128"), sa("127.0.0.1:3128")])
        };
        let pa = Authenticator::for_proxy_fresh(repo.proxy.as_ref());
        let sa_ = Authenticator::for_server_fresh(&repo);
        let p = plan(&repo, lookup, &db, pa.as_ref(), &sa_);
        let text = p.describe().join("\n");
        assert!(
            text.contains("route: proxy proxy.test:3128 (settings proxy `corp`), HTTP CONNECT tunnel to repo.example:8443"),
            "{text}"
        );
        assert!(
            text.contains("addresses, in the order they are tried: 127.0.0.1:3128, [::1]:3128"),
            "{text}"
        );
        assert!(text.contains("failed this session: [::1]:3128"), "{text}");
        assert!(text.contains("proxy authentication: "), "{text}");
        assert!(!text.contains("pw"), "{text}");
        // plain HTTP through the proxy, SOCKS, direct, unresolvable
        let repo = proxied("http", "http://repo.example/m2", false);
        let p = plan(&repo, |_, _| Err("no such host".into()), &db, None, &sa_);
        let text = p.describe().join("\n");
        assert!(
            text.contains("HTTP (absolute-form requests) to repo.example:80"),
            "{text}"
        );
        assert!(text.contains("addresses: no such host"), "{text}");
        let repo = proxied("socks5h", "https://repo.example/m2", false);
        let p = plan(&repo, |_, _| Ok(vec![]), &db, None, &sa_);
        assert!(
            p.describe()[0].contains("SOCKS5 (the proxy resolves"),
            "{p:?}"
        );
        let direct = RemoteRepository::new("d", "http://[::1]:8080/r");
        let p = RoutePlan::fresh(&direct);
        assert_eq!(
            p.hop,
            Hop::Direct {
                target: "[::1]:8080".into()
            }
        );
        assert_eq!(p.addresses, Ok(vec![sa("[::1]:8080")]));
        assert!(p.proxy_auth.is_none());
    }
}
