//! Settings proxy selection: Maven Resolver's `DefaultProxySelector` (identical in 1.6.3, 1.9
//! and 2.x) fed with the ACTIVE settings proxies in order (spec §5.1, §5.2).
//!
//! - Candidates are keyed by the proxy's `<protocol>` lower-cased; the first proxy per key whose
//!   `nonProxyHosts` does not exclude the repository host wins.
//! - The repository protocol is lower-cased and mapped `davs` → `https`, `dav` → `http`,
//!   `dav:x` → `x`; an `https` repository falls back to an `http` proxy.
//! - `nonProxyHosts` is split on `|` only (empty tokens ignored, no trimming); in each token `.`
//!   becomes `\.` and `*` becomes `.*`, every other regex character keeps its meaning; the host
//!   must match a token completely, case-insensitively.
//!
//! Tokens made only of literal characters, `.` and `*` (nearly all real ones) are matched by a
//! small glob matcher with Java's exact semantics. Tokens with other regex characters go to the
//! `regex` crate; known differences there: Java's `CASE_INSENSITIVE` folds ASCII only while the
//! `regex` crate folds Unicode too, and a few Java-only constructs (possessive quantifiers,
//! `\\Q..\\E`) are refused. Environment and JVM proxies are [`super::env_proxy`].

use super::error::InjectionError;
use super::model::{Authentication, ProxySource, RemoteRepository, RepositoryProxy};
use super::url;
use crate::secret::Secret;
use crate::settings::Proxy;
use regex::Regex;
use std::collections::HashSet;

/// One `nonProxyHosts` token, compiled.
#[derive(Debug, Clone)]
enum HostPattern {
    /// Only literal characters, `.` and `*`: matched without a regex engine, with Java's
    /// semantics (ASCII-only case folding, `*` does not cross line terminators).
    Glob(Vec<char>),
    /// Other regex characters keep their meaning.
    Regex(Regex),
}

/// Java regex metacharacters other than `.` and `*` (and `|`, the separator).
const REGEX_META: &[char] = &['\\', '^', '$', '?', '+', '(', ')', '[', ']', '{', '}'];

fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// `*` = any run of non-line-terminators, other chars equal ignoring ASCII case; whole string.
fn glob_match(pattern: &[char], host: &[char]) -> bool {
    let (mut p, mut h) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while h < host.len() {
        if p < pattern.len() && pattern[p] == '*' {
            star = Some((p, h));
            p += 1;
        } else if p < pattern.len() && pattern[p].eq_ignore_ascii_case(&host[h]) {
            p += 1;
            h += 1;
        } else if let Some((sp, sh)) = star {
            if is_line_terminator(host[sh]) {
                return false;
            }
            p = sp + 1;
            h = sh + 1;
            star = Some((sp, sh + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

impl HostPattern {
    fn is_match(&self, host: &str, host_chars: &[char]) -> bool {
        match self {
            HostPattern::Glob(p) => glob_match(p, host_chars),
            HostPattern::Regex(re) => re.is_match(host),
        }
    }
}

/// A compiled `nonProxyHosts` value.
#[derive(Debug, Clone, Default)]
pub struct NonProxyHosts {
    patterns: Vec<(String, HostPattern)>,
}

impl NonProxyHosts {
    /// Compiles a `nonProxyHosts` value; `Err((token, reason))` names the token that is not a
    /// valid regular expression.
    pub fn parse(value: Option<&str>) -> Result<Self, (String, String)> {
        let mut patterns = Vec::new();
        for token in value.unwrap_or("").split('|').filter(|t| !t.is_empty()) {
            let compiled = if token.contains(REGEX_META) {
                let body = token.replace('.', "\\.").replace('*', ".*");
                HostPattern::Regex(
                    Regex::new(&format!("(?i)\\A(?:{body})\\z"))
                        .map_err(|e| (token.to_string(), first_line(&e.to_string())))?,
                )
            } else {
                HostPattern::Glob(token.chars().collect())
            };
            patterns.push((token.to_string(), compiled));
        }
        Ok(NonProxyHosts { patterns })
    }

    /// The first token that matches `host` completely (case-insensitive), if any.
    #[cfg(test)]
    pub fn matching(&self, host: &str) -> Option<&str> {
        self.matching_chars(host, &host.chars().collect::<Vec<_>>())
    }

    /// [`NonProxyHosts::matching`] with the host's chars already collected.
    fn matching_chars(&self, host: &str, host_chars: &[char]) -> Option<&str> {
        self.patterns
            .iter()
            .find(|(_, p)| p.is_match(host, host_chars))
            .map(|(t, _)| t.as_str())
    }
}

fn first_line(s: &str) -> String {
    s.lines()
        .rfind(|l| !l.trim().is_empty())
        .unwrap_or("invalid pattern")
        .trim()
        .to_string()
}

/// One active settings proxy as the selector keeps it.
#[derive(Debug, Clone)]
pub struct ProxyDef {
    /// Settings proxy id.
    pub id: String,
    /// `<protocol>`: the repository protocol it serves (as written; compared lower-cased).
    pub protocol: String,
    /// Proxy host (`""` when missing).
    pub host: String,
    /// Proxy port.
    pub port: i32,
    /// Username/password, decrypted, or `None` when neither is set.
    pub auth: Option<Authentication>,
    /// Compiled `nonProxyHosts`.
    pub non_proxy_hosts: NonProxyHosts,
    /// `protocol` lower-cased, the candidate key.
    kind: String,
}

impl ProxyDef {
    /// The proxy as attached to a repository.
    pub fn to_repository_proxy(&self) -> RepositoryProxy {
        RepositoryProxy {
            kind: self.protocol.clone(),
            host: self.host.clone(),
            port: self.port,
            auth: self.auth.clone(),
            source: ProxySource::Settings {
                id: self.id.clone(),
            },
        }
    }
}

/// A settings proxy skipped for a repository because its `nonProxyHosts` matched the host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProxyExclusion {
    /// The proxy id.
    pub proxy_id: String,
    /// The proxy's `<protocol>`.
    pub protocol: String,
    /// The `nonProxyHosts` token that matched the host.
    pub pattern: String,
}

/// What the settings proxy selector decided for one repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProxyDecision {
    /// Host as Maven sees it (Resolver's URL regex).
    pub host: String,
    /// Repository protocol after Maven's mapping (`dav:https` → `https`).
    pub protocol: String,
    /// Index of the chosen proxy among the active settings proxies (first per id).
    pub selected: Option<usize>,
    /// The chosen proxy's id.
    pub selected_id: Option<String>,
    /// True when an `https` repository uses an `http` proxy (no `https` candidate).
    pub http_fallback: bool,
    /// Proxies before the chosen one (all proxies when none was chosen) whose `nonProxyHosts`
    /// excluded the host, in settings order.
    pub excluded: Vec<ProxyExclusion>,
}

/// The settings proxy selector.
#[derive(Debug, Clone, Default)]
pub struct ProxySelector {
    proxies: Vec<ProxyDef>,
}

/// `AuthenticationBuilder().addUsername(u).addPassword(p).build()`.
pub(crate) fn user_password_auth(
    username: Option<&str>,
    password: Option<Secret>,
) -> Option<Authentication> {
    let has_password = password.is_some();
    sealable_auth(username, password, has_password)
}

/// [`user_password_auth`] where a password may be present but not decrypted yet.
fn sealable_auth(
    username: Option<&str>,
    password: Option<Secret>,
    has_password: bool,
) -> Option<Authentication> {
    if username.is_none() && !has_password {
        return None;
    }
    Some(Authentication {
        username: username.map(str::to_string),
        password,
        private_key: None,
        passphrase: None,
        token: None,
        withheld: None,
    })
}

impl ProxySelector {
    /// Builds the selector from settings proxies paired with their decrypted passwords (pass
    /// the value Maven would use: the decrypted text, or the text as written when decryption
    /// failed, as Maven 3 does). Inactive proxies are dropped and the first active proxy per id
    /// wins, as Maven populates its request.
    pub fn new(proxies: &[(Proxy, Option<Secret>)]) -> Result<Self, InjectionError> {
        Self::build(proxies.iter().map(|(p, pw)| {
            let has_password = pw.is_some();
            (p, pw.clone(), has_password)
        }))
    }

    /// The selector of a session: built from the settings alone, before anything is decrypted.
    /// Proxy authentications carry no password yet; the session fills in what is used.
    pub(crate) fn sealed(proxies: &[Proxy]) -> Result<Self, InjectionError> {
        Self::build(proxies.iter().map(|p| (p, None, p.password.is_some())))
    }

    fn build<'a>(
        proxies: impl Iterator<Item = (&'a Proxy, Option<Secret>, bool)>,
    ) -> Result<Self, InjectionError> {
        let mut seen = HashSet::new();
        let mut defs = Vec::new();
        for (p, password, has_password) in proxies {
            if !p.active || !seen.insert(p.id.clone()) {
                continue;
            }
            let non_proxy_hosts = NonProxyHosts::parse(p.non_proxy_hosts.as_deref()).map_err(
                |(pattern, reason)| InjectionError::InvalidNonProxyHost {
                    proxy_id: p.id.clone(),
                    pattern,
                    reason,
                },
            )?;
            defs.push(ProxyDef {
                id: p.id.clone(),
                protocol: p.protocol.clone(),
                host: p.host.clone().unwrap_or_default(),
                port: p.port,
                auth: sealable_auth(p.username.as_deref(), password, has_password),
                non_proxy_hosts,
                kind: p.protocol.to_lowercase(),
            });
        }
        Ok(ProxySelector { proxies: defs })
    }

    /// The proxies in selection order.
    pub fn proxies(&self) -> &[ProxyDef] {
        &self.proxies
    }

    /// `DefaultProxySelector.getProxy` with the reasons.
    pub fn select(&self, repo: &RemoteRepository) -> ProxyDecision {
        let parts = url::parse(repo.url.as_written());
        let host = parts.host;
        let protocol = url::normalize_web_protocol(parts.protocol);
        let host_chars: Vec<char> = host.chars().collect();
        let mut excluded = Vec::new();
        // Candidates: first non-excluded proxy per lower-cased type. Only the two keys that can
        // be asked for matter, so keep those instead of building a map.
        let mut exact: Option<usize> = None;
        let mut http: Option<usize> = None;
        for (i, p) in self.proxies.iter().enumerate() {
            if let Some(pattern) = p.non_proxy_hosts.matching_chars(host, &host_chars) {
                excluded.push(ProxyExclusion {
                    proxy_id: p.id.clone(),
                    protocol: p.protocol.clone(),
                    pattern: pattern.to_string(),
                });
                continue;
            }
            if p.kind == protocol {
                // The first candidate of the repository's own type wins: nothing later matters.
                exact = Some(i);
                break;
            }
            if http.is_none() && p.kind == "http" {
                http = Some(i);
            }
        }
        let (selected, http_fallback) = match exact {
            Some(i) => (Some(i), false),
            None if protocol == "https" => (http, http.is_some()),
            None => (None, false),
        };
        ProxyDecision {
            host: host.to_string(),
            protocol,
            selected,
            selected_id: selected.map(|i| self.proxies[i].id.clone()),
            http_fallback,
            excluded,
        }
    }

    /// The proxy Maven attaches to `repo`, if any.
    #[cfg(test)]
    pub fn proxy_for(&self, repo: &RemoteRepository) -> Option<RepositoryProxy> {
        self.select(repo)
            .selected
            .map(|i| self.proxies[i].to_repository_proxy())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proxy(id: &str, protocol: &str, non_proxy: Option<&str>) -> Proxy {
        Proxy {
            id: id.into(),
            protocol: protocol.into(),
            host: Some(format!("{id}.proxy")),
            non_proxy_hosts: non_proxy.map(str::to_string),
            ..Proxy::default()
        }
    }

    fn pick(sel: &ProxySelector, url: &str) -> Option<String> {
        sel.select(&RemoteRepository::new("r", url)).selected_id
    }

    #[test]
    fn non_proxy_hosts_table() {
        // (nonProxyHosts, host, excluded?) — spec §5.2 (VERIFIED rows in the spec).
        let cases = [
            ("*.Example.ORG", "a.example.org", true),
            ("*.foo.com", "foo.com", false),
            ("*.foo.com", "a.b.foo.com", true),
            (" *.foo.com", "a.foo.com", false),
            ("bar.com,baz.com", "bar.com", false),
            ("bar.com,baz.com", "baz.com", false),
            ("bar.com|baz.com", "baz.com", true),
            ("||bar.com||", "bar.com", true),
            ("barXcom", "barxcom", true),
            ("bar.com", "barxcom", false),
            ("10.0.0.[0-9]", "10.0.0.7", true),
            ("localhost", "LOCALHOST", true),
            ("host", "host:8080", false),
            ("*", "", true),
            ("", "anything", false),
        ];
        for (value, host, want) in cases {
            let n = NonProxyHosts::parse(Some(value)).unwrap();
            assert_eq!(n.matching(host).is_some(), want, "{value:?} vs {host:?}");
        }
        assert!(NonProxyHosts::parse(None).unwrap().matching("x").is_none());
    }

    #[test]
    fn glob_matcher_table() {
        let cases = [
            ("*", "", true),
            ("a*b*c", "aXXbYYc", true),
            ("a*b*c", "aXXbYY", false),
            ("*.x", "a.b.x", true),
            ("**", "q", true),
            ("K", "k", true),
            ("\u{212a}", "k", false), // Kelvin sign: Java folds ASCII only
            ("a*", "a\nb", false),    // `.*` stops at line terminators
            ("é", "É", false),
        ];
        for (p, h, want) in cases {
            let p: Vec<char> = p.chars().collect();
            let h: Vec<char> = h.chars().collect();
            assert_eq!(glob_match(&p, &h), want, "{p:?} vs {h:?}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 512, ..Default::default() })]
        /// On ASCII input the glob fast path agrees with the regex Maven builds.
        #[test]
        fn glob_agrees_with_the_regex(p in "[ab.*]{0,6}", h in "[abAB.]{0,6}") {
            let body = p.replace('.', "\\.").replace('*', ".*");
            let re = Regex::new(&format!("(?i)\\A(?:{body})\\z")).unwrap();
            let pc: Vec<char> = p.chars().collect();
            let hc: Vec<char> = h.chars().collect();
            proptest::prop_assert_eq!(glob_match(&pc, &hc), re.is_match(&h));
        }
    }

    #[test]
    fn invalid_pattern_is_an_error_naming_the_proxy() {
        let err =
            ProxySelector::new(&[(proxy("corp", "http", Some("ok.com|a(b")), None)]).unwrap_err();
        match err {
            InjectionError::InvalidNonProxyHost {
                proxy_id, pattern, ..
            } => assert_eq!((proxy_id.as_str(), pattern.as_str()), ("corp", "a(b")),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn selection_table() {
        let sel = ProxySelector::new(&[
            (proxy("h", "http", Some("*.local")), None),
            (proxy("s", "HTTPS", Some("secure.example")), None),
            (proxy("h2", "http", None), None),
            (proxy("f", "ftp", None), None),
            (proxy("socks", "socks5", None), None),
        ])
        .unwrap();
        let cases = [
            ("http://repo.example/", Some("h")),
            ("https://repo.example/", Some("s")),
            ("https://secure.example/", Some("h")), // https excluded → http fallback
            ("http://a.local/", Some("h2")),        // first non-excluded per type
            ("dav:https://repo.example/", Some("s")),
            ("davs://repo.example/", Some("s")),
            ("dav://repo.example/", Some("h")),
            ("DAV:HTTP://repo.example/", Some("h")),
            ("ftp://repo.example/", Some("f")),
            ("file:///tmp/x", None),
            ("sftp://repo.example/", None),
        ];
        for (url, want) in cases {
            assert_eq!(pick(&sel, url).as_deref(), want, "{url}");
        }
        let d = sel.select(&RemoteRepository::new("r", "https://secure.example/"));
        assert!(d.http_fallback);
        assert_eq!(
            d.excluded,
            vec![ProxyExclusion {
                proxy_id: "s".into(),
                protocol: "HTTPS".into(),
                pattern: "secure.example".into()
            }]
        );
    }

    #[test]
    fn https_proxy_never_serves_http() {
        let sel = ProxySelector::new(&[(proxy("s", "https", None), None)]).unwrap();
        assert_eq!(pick(&sel, "http://x/"), None);
        assert_eq!(pick(&sel, "https://x/"), Some("s".into()));
    }

    #[test]
    fn inactive_dropped_duplicates_first_wins_and_auth_built() {
        let mut inactive = proxy("a", "http", None);
        inactive.active = false;
        let mut first = proxy("b", "http", None);
        first.username = Some("u".into());
        let second = proxy("b", "https", None);
        let sel = ProxySelector::new(&[
            (inactive, None),
            (first, Some(Secret::new("pw"))),
            (second, None),
        ])
        .unwrap();
        assert_eq!(sel.proxies().len(), 1);
        let p = sel
            .proxy_for(&RemoteRepository::new("r", "https://x/"))
            .unwrap();
        assert_eq!(
            (p.kind.as_str(), p.host.as_str(), p.port),
            ("http", "b.proxy", 8080)
        );
        let auth = p.auth.unwrap();
        assert_eq!(auth.username.as_deref(), Some("u"));
        assert_eq!(auth.password.unwrap().expose(), "pw");
        let none = ProxySelector::new(&[(proxy("c", "http", None), None)]).unwrap();
        assert!(none.proxies()[0].auth.is_none());
    }

    #[test]
    fn ipv6_repository_host_is_bracket() {
        // Maven's host for http://[::1]:8080/ is `[`, so `[::1]` in nonProxyHosts cannot match.
        let sel =
            ProxySelector::new(&[(proxy("h", "http", Some("localhost|\\[::1\\]")), None)]).unwrap();
        assert_eq!(pick(&sel, "http://[::1]:8080/"), Some("h".into()));
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_parse() {
        use crate::repository::proxy::NonProxyHosts;
        let n = NonProxyHosts::parse(Some("*.Example.ORG|localhost")).unwrap();
        assert_eq!(n.matching("a.example.org"), Some("*.Example.ORG"));
        assert_eq!(n.matching("example.org"), None);
    }

    #[test]
    fn doc_new() {
        use crate::repository::{proxy::ProxySelector, RemoteRepository};
        use crate::settings::Proxy;
        let p = Proxy {
            id: "corp".into(),
            host: Some("proxy".into()),
            non_proxy_hosts: Some("*.internal".into()),
            ..Proxy::default()
        };
        let sel = ProxySelector::new(&[(p, None)]).unwrap();
        assert_eq!(
            sel.select(&RemoteRepository::new("c", "https://repo1/"))
                .selected_id
                .as_deref(),
            Some("corp")
        );
        assert!(sel
            .select(&RemoteRepository::new("n", "https://nexus.internal/"))
            .selected
            .is_none());
    }
}
