//! Proxies from JVM-style system properties and from the environment — BEYOND Maven.
//!
//! Maven and Resolver never read `HTTP_PROXY`/`HTTPS_PROXY`/`NO_PROXY` (spec §5.3); Maven 3.8's
//! Wagon transport honours the JVM properties through the JDK's default `ProxySelector`. This
//! layer is consulted only when NO settings proxy applies to a repository (settings proxies
//! always win, which is Maven's meaning) — and not at all when a settings proxy for the
//! repository's protocol excluded the host through `nonProxyHosts`, since that host is meant to
//! be reached directly (see [`super::aggregate`]). Each half can be switched off
//! ([`EnvProxyConfig`]). Order: system properties first (they are explicit `-D` values), then
//! the environment. Both are inputs (maps), never read from the process here.
//!
//! **System properties** (JDK `DefaultProxySelector`, as Wagon with `useSystemProperties()`):
//! for `http` repositories `http.proxyHost`, then `proxyHost`, then `socksProxyHost`; for
//! `https` repositories `https.proxyHost`, then `socksProxyHost`. Ports: the matching
//! `...Port` property, else `http` 80, `https` 443, SOCKS 1080 (a non-integer port counts as
//! unset). `http.nonProxyHosts` (also for https) is `|`-separated, `*` only at either end,
//! case-insensitive, compared with the host (IPv6 in brackets); when unset it defaults to
//! `localhost|127.*|[::1]|0.0.0.0|[::0]`, and when set non-empty that default is appended (JDK 9+).
//! Credentials: `http.proxyUser`/`http.proxyPassword` (`https.` for https) as Apache
//! HttpClient's system credentials provider reads them; `java.net.socks.username`/
//! `java.net.socks.password` for SOCKS (always SOCKS5, `socksProxyVersion` is not honoured).
//!
//! **Environment** (reqwest / hyper-util order, which is what our transport would do by itself):
//! `HTTP_PROXY`, `http_proxy`, then `ALL_PROXY`, `all_proxy` for `http` repositories;
//! `HTTPS_PROXY`, `https_proxy`, then `ALL_PROXY`, `all_proxy` for `https`. Upper case is read
//! before lower case (curl reads lower case first and never upper-case `HTTP_PROXY`); an empty
//! value counts as unset. If `REQUEST_METHOD` is set (a CGI context, "httpoxy") all environment
//! proxies are ignored. Values: `http://[user:pass@]host[:port]` (scheme optional, `http`
//! assumed), `socks5://`, `socks5h://`; user and password are percent-decoded. A missing port
//! is **1080 for every scheme, as curl does** (reqwest would use 80 for `http://`). `https://`
//! (TLS to the proxy) and `socks4` proxies are not supported: such a value is ignored with a
//! warning. `NO_PROXY`/`no_proxy`: comma-separated, entries trimmed; an entry `*` matches every
//! host (anywhere in the list, as reqwest; curl only honours a lone `*`); a domain matches itself and its subdomains with or without a leading `.` (or `*.`);
//! IPv4/IPv6 literals and CIDRs match IP hosts only (no DNS); an entry may carry `:port`
//! (`[v6]:port` for IPv6), then it only applies to that port (explicit or the scheme's default).
//!
//! [`RepositoryProxy::kind`] of an HTTP proxy from this layer is `http` (the proxy itself is
//! spoken to in plain HTTP, also for https repositories); SOCKS proxies have kind `socks5` or
//! `socks5h`.

use super::jvm_options::JvmProperty;
use super::model::{Authentication, ProxySource, RemoteRepository, RepositoryProxy};
use super::url;
use crate::environment::Vars;
use crate::secret::Secret;
use std::collections::HashMap;
use std::net::IpAddr;

/// Inputs of the environment/property proxy layer. `Debug` shows variable and property names
/// only (`HTTPS_PROXY` and `http.proxyPassword` carry credentials).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EnvProxyConfig {
    /// Environment variables (name → value), e.g. a snapshot of `std::env::vars()`.
    pub env: Vars,
    /// JVM-style system properties (`-D` values): `http.proxyHost`, `socksProxyHost`, ...
    pub properties: Vars,
    /// Read proxies from `env` (off: exactly Maven, which ignores the environment).
    pub use_environment: bool,
    /// Read proxies from `properties`.
    pub use_system_properties: bool,
    /// Where each of `properties` was defined, for explanations (`-D`, `MAVEN_OPTS`,
    /// `FILE:LINE`); a name not here is a system property of the environment snapshot.
    pub origins: HashMap<String, String>,
}

impl EnvProxyConfig {
    /// Neither layer: exactly Maven Resolver's native behaviour.
    pub fn disabled() -> Self {
        EnvProxyConfig::default()
    }

    /// Both layers on, with these inputs.
    pub fn new(env: impl Into<Vars>, properties: impl Into<Vars>) -> Self {
        EnvProxyConfig {
            env: env.into(),
            properties: properties.into(),
            use_environment: true,
            use_system_properties: true,
            origins: HashMap::new(),
        }
    }

    /// Adds proxy properties read from the JVM's options (`MAVEN_OPTS`, `.mvn/jvm.config`,
    /// in command-line order: a later one wins) below the properties already there.
    ///
    /// ```
    /// use m2resolver::repository::{EnvProxyConfig, JvmProperty};
    /// let jvm = [JvmProperty { name: "https.proxyHost".into(), value: "p".into(), origin: "MAVEN_OPTS".into() }];
    /// let cfg = EnvProxyConfig::new(m2resolver::Vars::new(), m2resolver::Vars::new()).with_jvm_options(&jvm);
    /// assert_eq!(cfg.properties.value("https.proxyHost"), Some("p"));
    /// assert_eq!(cfg.origins["https.proxyHost"], "MAVEN_OPTS");
    /// ```
    pub fn with_jvm_options(mut self, jvm: &[JvmProperty]) -> Self {
        let mut last: HashMap<&str, &JvmProperty> = HashMap::new();
        for p in jvm {
            last.insert(p.name.as_str(), p);
        }
        for (name, p) in last {
            if !self.properties.contains_key(name) {
                self.properties.insert(name.to_string(), p.value.clone());
                self.origins.insert(name.to_string(), p.origin.clone());
            }
        }
        self
    }
}

/// Why this layer did not give a proxy although one was configured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvExclusion {
    /// `NO_PROXY`/`no_proxy` (the variable read) or `http.nonProxyHosts`.
    pub source: String,
    /// The entry that matched the host.
    pub entry: String,
}

/// What the environment/property layer decided for one repository.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EnvProxyDecision {
    /// The proxy, if any.
    pub proxy: Option<RepositoryProxy>,
    /// A configured proxy that was not used because the host is excluded.
    pub excluded_by: Vec<EnvExclusion>,
    /// Other facts worth telling (CGI guard, unsupported protocol).
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct EnvProxy {
    variable: String,
    kind: String,
    host: String,
    port: i32,
    auth: Option<Authentication>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum NoProxyHost {
    Any,
    Domain(String),
    Ip(IpAddr),
    Cidr(IpAddr, u8),
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct NoProxyEntry {
    text: String,
    host: NoProxyHost,
    port: Option<u16>,
}

/// The environment/property proxy layer, parsed once.
#[derive(Debug, Clone, Default)]
pub struct EnvProxySelector {
    config: EnvProxyConfig,
    cgi: bool,
    http: Option<EnvProxy>,
    https: Option<EnvProxy>,
    no_proxy_var: Option<String>,
    no_proxy: Vec<NoProxyEntry>,
    warnings: Vec<String>,
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let hex = |b: u8| (b as char).to_digit(16);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Parses a proxy value from the environment. `Err` says why it is unusable (never contains
/// the password).
fn parse_proxy_value(variable: &str, value: &str) -> Result<EnvProxy, String> {
    let value = value.trim();
    let (scheme, rest) = match value.find("://") {
        Some(i) => (value[..i].to_ascii_lowercase(), &value[i + 3..]),
        None => ("http".to_string(), value),
    };
    let kind = match scheme.as_str() {
        "http" => "http",
        "socks5" => "socks5",
        "socks5h" => "socks5h",
        other => {
            return Err(format!(
                "{variable}: proxy scheme `{other}` is not supported (use http://, socks5:// or socks5h://); ignored"
            ))
        }
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let (userinfo, hostport) = match authority.rfind('@') {
        Some(i) => (Some(&authority[..i]), &authority[i + 1..]),
        None => (None, authority),
    };
    let bad = || format!("{variable}: cannot read a proxy host and port from the value; ignored");
    let (host, port) = if let Some(inner) = hostport.strip_prefix('[') {
        let close = inner.find(']').ok_or_else(bad)?;
        let after = &inner[close + 1..];
        let port = match after.strip_prefix(':') {
            Some(p) if !p.is_empty() => Some(p.parse::<u16>().map_err(|_| bad())?),
            _ if after.is_empty() || after == ":" => None,
            _ => return Err(bad()),
        };
        (format!("[{}]", &inner[..close]), port)
    } else {
        match hostport.rfind(':') {
            Some(i) if !hostport[i + 1..].is_empty() => (
                hostport[..i].to_string(),
                Some(hostport[i + 1..].parse::<u16>().map_err(|_| bad())?),
            ),
            Some(i) => (hostport[..i].to_string(), None),
            None => (hostport.to_string(), None),
        }
    };
    if host.is_empty() {
        return Err(bad());
    }
    let auth = userinfo.map(|ui| {
        let (user, pass) = match ui.find(':') {
            Some(i) => (&ui[..i], Some(&ui[i + 1..])),
            None => (ui, None),
        };
        Authentication {
            username: Some(percent_decode(user)),
            password: pass.map(|p| Secret::new(percent_decode(p))),
            private_key: None,
            passphrase: None,
            token: None,
            withheld: None,
        }
    });
    Ok(EnvProxy {
        variable: variable.to_string(),
        kind: kind.to_string(),
        host,
        port: i32::from(port.unwrap_or(1080)),
        auth,
    })
}

fn parse_ip(s: &str) -> Option<IpAddr> {
    s.parse::<IpAddr>().ok()
}

fn parse_no_proxy_entry(raw: &str) -> Option<NoProxyEntry> {
    let text = raw.to_string();
    if raw == "*" {
        return Some(NoProxyEntry {
            text,
            host: NoProxyHost::Any,
            port: None,
        });
    }
    // CIDR: address/len (IPv6 may be bracketed).
    if let Some((addr, len)) = raw.split_once('/') {
        let addr = addr.trim_start_matches('[').trim_end_matches(']');
        let ip = parse_ip(addr)?;
        let len: u8 = len.parse().ok()?;
        let max = if ip.is_ipv4() { 32 } else { 128 };
        if len > max {
            return None;
        }
        return Some(NoProxyEntry {
            text,
            host: NoProxyHost::Cidr(ip, len),
            port: None,
        });
    }
    if let Some(ip) = parse_ip(raw) {
        return Some(NoProxyEntry {
            text,
            host: NoProxyHost::Ip(ip),
            port: None,
        });
    }
    let (host, port) = if let Some(inner) = raw.strip_prefix('[') {
        let close = inner.find(']')?;
        let after = &inner[close + 1..];
        let port = match after.strip_prefix(':') {
            Some(p) => Some(p.parse::<u16>().ok()?),
            None if after.is_empty() => None,
            None => return None,
        };
        (&inner[..close], port)
    } else {
        match raw.rsplit_once(':') {
            Some((h, p)) => (h, Some(p.parse::<u16>().ok()?)),
            None => (raw, None),
        }
    };
    let host_kind = match parse_ip(host) {
        Some(ip) => NoProxyHost::Ip(ip),
        None => {
            let d = host
                .strip_prefix("*.")
                .or_else(|| host.strip_prefix('.'))
                .unwrap_or(host)
                .to_ascii_lowercase();
            if d.is_empty() {
                return None;
            }
            NoProxyHost::Domain(d)
        }
    };
    Some(NoProxyEntry {
        text,
        host: host_kind,
        port,
    })
}

fn cidr_contains(net: IpAddr, len: u8, ip: IpAddr) -> bool {
    match (net, ip) {
        (IpAddr::V4(n), IpAddr::V4(a)) => {
            let mask = if len == 0 {
                0
            } else {
                u32::MAX << (32 - u32::from(len))
            };
            u32::from(n) & mask == u32::from(a) & mask
        }
        (IpAddr::V6(n), IpAddr::V6(a)) => {
            let mask = if len == 0 {
                0
            } else {
                u128::MAX << (128 - u32::from(len))
            };
            u128::from(n) & mask == u128::from(a) & mask
        }
        _ => false,
    }
}

impl NoProxyEntry {
    fn matches(&self, host: &str, port: Option<u16>) -> bool {
        if let Some(p) = self.port {
            if port != Some(p) {
                return false;
            }
        }
        let host_ip = parse_ip(host);
        match &self.host {
            NoProxyHost::Any => true,
            NoProxyHost::Ip(ip) => host_ip == Some(*ip),
            NoProxyHost::Cidr(net, len) => host_ip.is_some_and(|ip| cidr_contains(*net, *len, ip)),
            NoProxyHost::Domain(d) => {
                host_ip.is_none()
                    && (host == d
                        || (host.len() > d.len()
                            && host.ends_with(d.as_str())
                            && host.as_bytes()[host.len() - d.len() - 1] == b'.'))
            }
        }
    }
}

/// JDK `DefaultProxySelector.disjunctToRegex` + `matches()` on lower-cased strings: `*` is a
/// wildcard only at the start and/or end of a `|`-separated entry.
fn jdk_non_proxy_match<'a>(value: &'a str, host: &str) -> Option<&'a str> {
    let host = host.to_lowercase();
    value.split('|').filter(|d| !d.is_empty()).find(|d| {
        let d = d.to_lowercase();
        let starts = d.starts_with('*');
        let ends = d.ends_with('*') && d.len() > 1;
        let core = &d[usize::from(starts)..d.len() - usize::from(ends)];
        match (starts, ends) {
            (true, true) => host.contains(core),
            (true, false) => host.ends_with(core),
            (false, true) => host.starts_with(core),
            (false, false) => host == core,
        }
    })
}

const JDK_DEFAULT_NON_PROXY_HOSTS: &str = "localhost|127.*|[::1]|0.0.0.0|[::0]";

impl EnvProxySelector {
    /// Parses the configuration once. Problems (an unusable proxy value) are kept as
    /// [`EnvProxySelector::warnings`]; the value is then ignored.
    pub fn new(config: EnvProxyConfig) -> Self {
        let mut sel = EnvProxySelector {
            cgi: config.env.contains_key("REQUEST_METHOD"),
            ..EnvProxySelector::default()
        };
        if config.use_environment && !sel.cgi {
            let first = |names: &[&str]| -> Option<(String, String)> {
                names.iter().find_map(|n| {
                    config
                        .env
                        .get(*n)
                        .filter(|v| !v.trim().is_empty())
                        .map(|v| (n.to_string(), v.clone()))
                })
            };
            for (slot, names) in [
                (
                    &mut sel.http,
                    ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"],
                ),
                (
                    &mut sel.https,
                    ["HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"],
                ),
            ] {
                if let Some((var, value)) = first(&names) {
                    match parse_proxy_value(&var, &value) {
                        Ok(p) => *slot = Some(p),
                        Err(w) => {
                            if !sel.warnings.contains(&w) {
                                sel.warnings.push(w)
                            }
                        }
                    }
                }
            }
            if let Some((var, value)) = first(&["NO_PROXY", "no_proxy"]) {
                sel.no_proxy = value
                    .split(',')
                    .map(str::trim)
                    .filter(|e| !e.is_empty())
                    .filter_map(|e| {
                        let parsed = parse_no_proxy_entry(e);
                        if parsed.is_none() {
                            sel.warnings
                                .push(format!("{var}: entry `{e}` is not understood; ignored"));
                        }
                        parsed
                    })
                    .collect();
                sel.no_proxy_var = Some(var);
            }
        }
        sel.config = config;
        sel
    }

    /// Problems found in the configured values (each names the variable; no secrets).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    fn prop(&self, name: &str) -> Option<&str> {
        self.config
            .properties
            .get(name)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    }

    fn prop_port(&self, name: &str) -> i32 {
        self.prop(name)
            .and_then(|v| v.trim().parse::<i32>().ok())
            .unwrap_or(0)
    }

    fn select_from_properties(
        &self,
        protocol: &str,
        host: &str,
        decision: &mut EnvProxyDecision,
    ) -> Option<RepositoryProxy> {
        let prefixes: &[&str] = match protocol {
            "http" => &["http.proxy", "proxy", "socksProxy"],
            "https" => &["https.proxy", "socksProxy"],
            _ => return None,
        };
        let (j, phost) = prefixes
            .iter()
            .enumerate()
            .find_map(|(j, p)| self.prop(&format!("{p}Host")).map(|h| (j, h.to_string())))?;
        let nph = match self.config.properties.get("http.nonProxyHosts") {
            None => JDK_DEFAULT_NON_PROXY_HOSTS.to_string(),
            Some(v) if v.is_empty() => String::new(),
            Some(v) => format!("{v}|{JDK_DEFAULT_NON_PROXY_HOSTS}"),
        };
        let bracketed = if host.contains(':') {
            format!("[{host}]")
        } else {
            host.to_string()
        };
        if let Some(entry) = jdk_non_proxy_match(&nph, &bracketed) {
            decision.excluded_by.push(EnvExclusion {
                source: "http.nonProxyHosts".into(),
                entry: entry.to_string(),
            });
            return None;
        }
        let socks = j == prefixes.len() - 1;
        let mut port = self.prop_port(&format!("{}Port", prefixes[j]));
        if port == 0 && !socks {
            for (k, p) in prefixes[..prefixes.len() - 1].iter().enumerate() {
                if k != j && port == 0 {
                    port = self.prop_port(&format!("{p}Port"));
                }
            }
        }
        if port == 0 {
            port = if socks {
                1080
            } else if protocol == "https" {
                443
            } else {
                80
            };
        }
        let auth = if socks {
            super::proxy::user_password_auth(
                self.prop("java.net.socks.username"),
                self.prop("java.net.socks.password").map(Secret::new),
            )
        } else {
            super::proxy::user_password_auth(
                self.prop(&format!("{protocol}.proxyUser")),
                self.prop(&format!("{protocol}.proxyPassword"))
                    .map(Secret::new),
            )
        };
        let property = format!("{}Host", prefixes[j]);
        let origin = self
            .config
            .origins
            .get(&property)
            .cloned()
            .unwrap_or_else(|| "system property".to_string());
        Some(RepositoryProxy {
            kind: if socks {
                "socks5".into()
            } else {
                "http".into()
            },
            host: phost,
            port,
            auth,
            source: ProxySource::SystemProperties { property, origin },
        })
    }

    /// The proxy this layer gives `repo` (call it only when no settings proxy applies).
    pub fn select(&self, repo: &RemoteRepository) -> EnvProxyDecision {
        let mut decision = EnvProxyDecision::default();
        if !self.config.use_environment && !self.config.use_system_properties {
            return decision;
        }
        let protocol = url::normalize_web_protocol(url::parse(repo.url.as_written()).protocol);
        if protocol != "http" && protocol != "https" {
            decision.notes.push(format!(
                "no environment or system-property proxy for protocol `{protocol}`"
            ));
            return decision;
        }
        let Some((host, port)) = url::authority(repo.url.as_written()) else {
            decision
                .notes
                .push("the repository URL has no host; no proxy".to_string());
            return decision;
        };
        let port = port.or_else(|| url::default_port(&protocol));
        if self.config.use_system_properties {
            if let Some(p) = self.select_from_properties(&protocol, &host, &mut decision) {
                decision.proxy = Some(p);
                return decision;
            }
            if !decision.excluded_by.is_empty() {
                return decision;
            }
        }
        if !self.config.use_environment {
            return decision;
        }
        if self.cgi {
            decision.notes.push(
                "REQUEST_METHOD is set (CGI): proxy environment variables are ignored".to_string(),
            );
            return decision;
        }
        let chosen = if protocol == "https" {
            &self.https
        } else {
            &self.http
        };
        let Some(p) = chosen else {
            return decision;
        };
        if let Some(e) = self.no_proxy.iter().find(|e| e.matches(&host, port)) {
            decision.excluded_by.push(EnvExclusion {
                source: self.no_proxy_var.clone().unwrap_or_default(),
                entry: e.text.clone(),
            });
            return decision;
        }
        decision.proxy = Some(RepositoryProxy {
            kind: p.kind.clone(),
            host: p.host.clone(),
            port: p.port,
            auth: p.auth.clone(),
            source: ProxySource::Environment {
                variable: p.variable.clone(),
            },
        });
        decision
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vars {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn env_only(pairs: &[(&str, &str)]) -> EnvProxySelector {
        EnvProxySelector::new(EnvProxyConfig {
            env: env(pairs),
            use_environment: true,
            ..EnvProxyConfig::default()
        })
    }

    fn props_only(pairs: &[(&str, &str)]) -> EnvProxySelector {
        EnvProxySelector::new(EnvProxyConfig {
            properties: env(pairs),
            use_system_properties: true,
            ..EnvProxyConfig::default()
        })
    }

    fn pick(sel: &EnvProxySelector, url: &str) -> Option<(String, String, i32)> {
        sel.select(&RemoteRepository::new("r", url))
            .proxy
            .map(|p| (p.kind, p.host, p.port))
    }

    fn hp(kind: &str, host: &str, port: i32) -> Option<(String, String, i32)> {
        Some((kind.to_string(), host.to_string(), port))
    }

    #[test]
    fn variable_order_and_schemes() {
        let s = env_only(&[
            ("HTTP_PROXY", "http://upper:3128"),
            ("http_proxy", "http://lower:3128"),
            ("https_proxy", "socks5h://sock:9050"),
            ("ALL_PROXY", "all:8000"),
        ]);
        assert_eq!(pick(&s, "http://r/"), hp("http", "upper", 3128));
        assert_eq!(pick(&s, "https://r/"), hp("socks5h", "sock", 9050));
        assert_eq!(pick(&s, "dav:https://r/"), hp("socks5h", "sock", 9050));
        assert_eq!(pick(&s, "file:///tmp"), None);
        let s = env_only(&[("all_proxy", "socks5://s"), ("HTTP_PROXY", "")]);
        assert_eq!(pick(&s, "http://r/"), hp("socks5", "s", 1080));
        assert_eq!(pick(&s, "https://r/"), hp("socks5", "s", 1080));
        let s = env_only(&[("HTTPS_PROXY", "proxy.corp")]);
        assert_eq!(pick(&s, "https://r/"), hp("http", "proxy.corp", 1080));
        assert_eq!(pick(&s, "http://r/"), None);
    }

    #[test]
    fn credentials_are_decoded_and_never_in_warnings() {
        let s = env_only(&[
            ("HTTPS_PROXY", "http://us%40er:p%3Ass@[::1]:8888/"),
            ("HTTP_PROXY", "https://u:secretpw@tls-proxy:443"),
        ]);
        let p = s
            .select(&RemoteRepository::new("r", "https://r/"))
            .proxy
            .unwrap();
        assert_eq!((p.host.as_str(), p.port), ("[::1]", 8888));
        let a = p.auth.unwrap();
        assert_eq!(a.username.as_deref(), Some("us@er"));
        assert_eq!(a.password.unwrap().expose(), "p:ss");
        assert_eq!(
            p.source,
            ProxySource::Environment {
                variable: "HTTPS_PROXY".into()
            }
        );
        assert_eq!(s.warnings().len(), 1);
        assert!(s.warnings()[0].contains("HTTP_PROXY") && !s.warnings()[0].contains("secretpw"));
        assert_eq!(pick(&s, "http://r/"), None);
    }

    #[test]
    fn cgi_guard_and_disabled() {
        let s = env_only(&[("HTTP_PROXY", "p:1"), ("REQUEST_METHOD", "GET")]);
        let d = s.select(&RemoteRepository::new("r", "http://r/"));
        assert!(d.proxy.is_none() && d.notes[0].contains("REQUEST_METHOD"));
        let s = EnvProxySelector::new(EnvProxyConfig {
            env: env(&[("HTTP_PROXY", "p:1")]),
            ..EnvProxyConfig::disabled()
        });
        assert_eq!(pick(&s, "http://r/"), None);
    }

    #[test]
    fn no_proxy_table() {
        // (NO_PROXY, repository url, excluded?)
        let cases = [
            ("*", "https://anything.example/", true),
            ("example.com", "https://example.com/", true),
            ("example.com", "https://a.b.example.com/", true),
            ("example.com", "https://badexample.com/", false),
            (".example.com", "https://example.com/", true),
            (".example.com", "https://x.example.com/", true),
            ("*.example.com", "https://x.example.com/", true),
            (" example.com , other", "https://example.com/", true),
            ("EXAMPLE.com", "https://x.Example.COM/", true),
            ("10.0.0.0/8", "https://10.1.2.3/", true),
            ("10.0.0.0/8", "https://11.1.2.3/", false),
            ("10.0.0.0/8", "https://ten.example/", false),
            ("192.168.1.5", "https://192.168.1.5:8443/", true),
            ("::1", "https://[::1]:8443/", true),
            ("fd00::/8", "https://[fd12::1]/", true),
            ("[::1]:8443", "https://[::1]:8443/", true),
            ("[::1]:8443", "https://[::1]/", false),
            ("example.com:8443", "https://example.com:8443/", true),
            ("example.com:8443", "https://example.com/", false),
            ("example.com:443", "https://example.com/", true),
            ("localhost", "https://localhost.evil/", false),
            ("", "https://example.com/", false),
        ];
        for (no_proxy, url, excluded) in cases {
            let s = env_only(&[("HTTPS_PROXY", "http://p:3128"), ("NO_PROXY", no_proxy)]);
            let d = s.select(&RemoteRepository::new("r", url));
            assert_eq!(
                d.proxy.is_none(),
                excluded,
                "NO_PROXY={no_proxy:?} url={url}"
            );
            if excluded {
                assert_eq!(d.excluded_by[0].source, "NO_PROXY");
            }
        }
    }

    #[test]
    fn system_properties_table() {
        let s = props_only(&[("http.proxyHost", "hp"), ("https.proxyHost", "sp")]);
        assert_eq!(pick(&s, "http://r/"), hp("http", "hp", 80));
        assert_eq!(pick(&s, "https://r/"), hp("http", "sp", 443));
        // default nonProxyHosts: localhost|127.*|[::1]|0.0.0.0|[::0]
        assert_eq!(pick(&s, "http://localhost:8080/"), None);
        assert_eq!(pick(&s, "http://127.0.0.2/"), None);
        assert_eq!(pick(&s, "http://[::1]/"), None);
        let s = props_only(&[
            ("http.proxyHost", "hp"),
            ("http.proxyPort", "3128"),
            ("http.nonProxyHosts", "*.corp|Intra*"),
            ("https.proxyHost", "sp"),
            ("http.proxyUser", "bob"),
            ("http.proxyPassword", "pw"),
        ]);
        assert_eq!(pick(&s, "http://r/"), hp("http", "hp", 3128));
        // https only looks at https.proxyPort (its only non-SOCKS prefix), else 443
        assert_eq!(pick(&s, "https://r/"), hp("http", "sp", 443));
        assert_eq!(pick(&s, "https://a.CORP/"), None);
        assert_eq!(pick(&s, "https://intranet/"), None);
        assert_eq!(pick(&s, "https://localhost/"), None); // defaults appended
        let d = s.select(&RemoteRepository::new("r", "http://x/"));
        assert_eq!(
            d.proxy.unwrap().auth.unwrap().username.as_deref(),
            Some("bob")
        );
        let d = s.select(&RemoteRepository::new("r", "http://a.corp/"));
        assert_eq!(d.excluded_by[0].entry, "*.corp");
        // empty http.nonProxyHosts disables the defaults
        let s = props_only(&[("http.proxyHost", "hp"), ("http.nonProxyHosts", "")]);
        assert_eq!(pick(&s, "http://localhost/"), hp("http", "hp", 80));
    }

    #[test]
    fn socks_properties() {
        let s = props_only(&[
            ("socksProxyHost", "sx"),
            ("java.net.socks.username", "u"),
            ("java.net.socks.password", "p"),
        ]);
        let p = s
            .select(&RemoteRepository::new("r", "https://r/"))
            .proxy
            .unwrap();
        assert_eq!(
            (p.kind.as_str(), p.host.as_str(), p.port),
            ("socks5", "sx", 1080)
        );
        assert_eq!(p.auth.unwrap().password.unwrap().expose(), "p");
        assert_eq!(
            p.source,
            ProxySource::SystemProperties {
                property: "socksProxyHost".into(),
                origin: "system property".into()
            }
        );
        let s = props_only(&[
            ("socksProxyHost", "sx"),
            ("socksProxyPort", "1081"),
            ("proxyHost", "legacy"),
        ]);
        assert_eq!(pick(&s, "http://r/"), hp("http", "legacy", 80));
        assert_eq!(pick(&s, "https://r/"), hp("socks5", "sx", 1081));
        let s = props_only(&[("socksProxyHost", "sx"), ("socksProxyPort", "abc")]);
        assert_eq!(pick(&s, "https://r/"), hp("socks5", "sx", 1080));
    }

    #[test]
    fn properties_come_before_environment() {
        let mut cfg = EnvProxyConfig::new(
            env(&[("HTTPS_PROXY", "http://envp:1")]),
            env(&[("https.proxyHost", "propp")]),
        );
        let s = EnvProxySelector::new(cfg.clone());
        assert_eq!(pick(&s, "https://r/"), hp("http", "propp", 443));
        // excluded by the JVM list: the environment is not consulted either
        assert_eq!(pick(&s, "https://localhost/"), None);
        cfg.use_system_properties = false;
        let s = EnvProxySelector::new(cfg);
        assert_eq!(pick(&s, "https://r/"), hp("http", "envp", 1));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 512, ..Default::default() })]
        #[test]
        fn parsers_never_panic(v in "[a-z0-9:/@%\\[\\].*é,]{0,24}") {
            let _ = parse_proxy_value("X", &v);
            if let Some(e) = parse_no_proxy_entry(&v) {
                let _ = e.matches("host.example", Some(443));
            }
            let _ = jdk_non_proxy_match(&v, "host");
        }
    }

    #[test]
    fn jdk_pattern_table() {
        let cases = [
            ("*.corp", "a.corp", true),
            ("*.corp", "corp", false),
            ("intra*", "intranet", true),
            ("*mid*", "xmidy", true),
            ("a.b", "aXb", false),
            ("a*b", "a*b", true),
            ("A.B", "a.b", true),
            ("*", "anything", true),
        ];
        for (v, h, want) in cases {
            assert_eq!(jdk_non_proxy_match(v, h).is_some(), want, "{v} vs {h}");
        }
    }
}
