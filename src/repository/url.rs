//! Protocol and host of a repository URL, exactly as Maven Resolver's `RemoteRepository` derives
//! them, plus a real authority parser for the rules that go beyond Maven (environment proxies).
//!
//! Resolver (1.6.3, unchanged in 1.9 and 2.x) matches the URL against
//! `([^:/]+(:[^:/]{2,}+(?=://))?):(//([^@/]*@)?([^/:]+))?.*` with Java's `Matcher.matches()`;
//! group 1 is the protocol and group 5 the host (`""` when absent); when the whole URL does not
//! match, both are `""`. The `regex` crate has neither lookahead nor possessive quantifiers, so
//! [`parse`] walks the same alternatives in the same priority order by hand. Consequences that
//! users meet (all reproduced): the protocol may be `dav:http`; user info and port are stripped;
//! an IPv6 literal breaks it (`http://[::1]:8080/` has host `[`); `file:///x` has host `""`.
//!
//! [`RepositoryUrl`] is the URL of a repository as the library carries it: the text as written
//! (Maven's rules and the `explain --json` contract work on that), parsed at most once and
//! shared between clones, and printed without user info (`https://***@host/…`), so a URL in
//! a message, a log field or a `{:?}` never shows a password. uv's `DisplaySafeUrl` is the
//! model; the written text is reachable only through [`RepositoryUrl::as_written`].
//!
//! This module does not decide anything (mirrors, proxies): it only splits and joins URLs.

use std::fmt;
use std::sync::{Arc, OnceLock};

/// A repository URL: as written, parsed once, displayed without user info.
///
/// ```
/// use m2resolver::repository::RepositoryUrl;
/// let url = RepositoryUrl::new("https://deploy:s3cret@nexus.example/maven2");
/// assert_eq!(url.to_string(), "https://***@nexus.example/maven2");
/// assert_eq!(format!("{url:?}"), "RepositoryUrl(\"https://***@nexus.example/maven2\")");
/// assert_eq!(url.as_written(), "https://deploy:s3cret@nexus.example/maven2");
/// let artifact = url.resolve("org/ex/a/1.0/a-1.0.jar").unwrap();
/// assert_eq!(artifact.path(), "/maven2/org/ex/a/1.0/a-1.0.jar");
/// ```
#[derive(Clone)]
pub struct RepositoryUrl(Arc<UrlInner>);

struct UrlInner {
    written: String,
    parsed: OnceLock<Option<url::Url>>,
}

impl RepositoryUrl {
    /// Wraps a URL as written (any text: Maven accepts URLs it cannot parse).
    pub fn new(written: impl Into<String>) -> Self {
        RepositoryUrl(Arc::new(UrlInner {
            written: written.into(),
            parsed: OnceLock::new(),
        }))
    }

    /// The URL exactly as written, user info included: for Maven's own rules (mirror and proxy
    /// selection), the `explain --json` contract and the keys Maven writes into the local
    /// repository. Never for messages or logs (use `Display`).
    pub fn as_written(&self) -> &str {
        &self.0.written
    }

    /// The URL parsed by the WHATWG rules (`None` when it does not parse), computed once.
    pub fn parsed(&self) -> Option<&url::Url> {
        self.0
            .parsed
            .get_or_init(|| url::Url::parse(&self.0.written).ok())
            .as_ref()
    }

    /// A repository-relative `path` resolved against this URL the way Resolver's
    /// `UriUtils.resolve` does: a missing trailing `/` is added to the base (dropping its query
    /// and fragment); characters not allowed in a URL path are percent-encoded.
    ///
    /// ```
    /// use m2resolver::repository::RepositoryUrl;
    /// let u = RepositoryUrl::new("https://repo.example/maven2").resolve("org/a b/x.jar").unwrap();
    /// assert_eq!(u.as_str(), "https://repo.example/maven2/org/a%20b/x.jar");
    /// ```
    pub fn resolve(&self, path: &str) -> Result<url::Url, url::ParseError> {
        let mut base = match self.parsed() {
            Some(u) => u.clone(),
            None => url::Url::parse(&self.0.written)?,
        };
        if !base.path().ends_with('/') {
            let p = format!("{}/", base.path());
            base.set_path(&p);
            base.set_query(None);
            base.set_fragment(None);
        }
        // "./" keeps a first segment containing ':' from being read as a scheme.
        base.join(&format!("./{path}"))
    }

    /// The text as written with user info replaced by `***` (what `Display` prints).
    fn redacted(&self) -> std::borrow::Cow<'_, str> {
        let written = self.as_written();
        if !written.contains('@') {
            return written.into();
        }
        match self.parsed() {
            Some(u) if !u.username().is_empty() || u.password().is_some() => {
                let mut u = u.clone();
                let _ = u.set_password(None);
                let _ = u.set_username("***");
                u.to_string().into()
            }
            // Also for URLs the WHATWG parser reads differently from Maven (`dav:https://u:p@h`
            // is scheme `dav` with an opaque path).
            _ => redact_unparsed(written),
        }
    }
}

/// User info of a URL that does not parse: whatever lies between `://` and an `@` before the
/// next `/`.
fn redact_unparsed(written: &str) -> std::borrow::Cow<'_, str> {
    let Some(start) = written.find("://").map(|i| i + 3) else {
        return written.into();
    };
    let authority_end = written[start..]
        .find('/')
        .map(|i| start + i)
        .unwrap_or(written.len());
    match written[start..authority_end].rfind('@') {
        Some(at) => format!("{}***{}", &written[..start], &written[start + at..]).into(),
        None => written.into(),
    }
}

/// `url` with user info replaced by `***`, safe to print (a URL this library did not build).
pub fn redact(url: &str) -> String {
    RepositoryUrl::new(url).redacted().into_owned()
}

impl fmt::Display for RepositoryUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.redacted())
    }
}

impl fmt::Debug for RepositoryUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("RepositoryUrl")
            .field(&self.redacted())
            .finish()
    }
}

impl PartialEq for RepositoryUrl {
    fn eq(&self, other: &Self) -> bool {
        self.as_written() == other.as_written()
    }
}

impl Eq for RepositoryUrl {}

impl PartialEq<str> for RepositoryUrl {
    fn eq(&self, other: &str) -> bool {
        self.as_written() == other
    }
}

impl PartialEq<&str> for RepositoryUrl {
    fn eq(&self, other: &&str) -> bool {
        self.as_written() == *other
    }
}

impl From<&str> for RepositoryUrl {
    fn from(written: &str) -> Self {
        RepositoryUrl::new(written)
    }
}

impl From<String> for RepositoryUrl {
    fn from(written: String) -> Self {
        RepositoryUrl::new(written)
    }
}

impl From<&String> for RepositoryUrl {
    fn from(written: &String) -> Self {
        RepositoryUrl::new(written.as_str())
    }
}

/// Protocol and host as Maven Resolver sees them (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UrlParts<'a> {
    /// Group 1 of the regex: `http`, `https`, `file`, `dav:http`, ... (case as written).
    pub protocol: &'a str,
    /// Group 5 of the regex: the host without user info or port, `""` when there is none.
    pub host: &'a str,
}

/// Java's `.` (without `DOTALL`) stops at these line terminators.
fn is_java_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// `.*` at the end of the regex: the rest must contain no line terminator.
fn tail_ok(rest: &str) -> bool {
    !rest.chars().any(is_java_line_terminator)
}

/// Length in bytes of the longest prefix of `s` whose chars satisfy `keep`.
fn run_len(s: &str, keep: impl Fn(char) -> bool) -> usize {
    s.char_indices()
        .find(|&(_, c)| !keep(c))
        .map(|(i, _)| i)
        .unwrap_or(s.len())
}

/// `(//([^@/]*@)?([^/:]+))?.*` applied to `rest` (what follows the protocol's `:`): the host,
/// `Some("")` when the optional authority group does not take part, `None` when nothing matches.
fn match_authority(rest: &str) -> Option<&str> {
    if let Some(after) = rest.strip_prefix("//") {
        // First try with user info `[^@/]*@` (greedy; only the maximal run can be followed by `@`).
        let ui = run_len(after, |c| c != '@' && c != '/');
        let candidates: [Option<usize>; 2] = [
            if after[ui..].starts_with('@') {
                Some(ui + 1)
            } else {
                None
            },
            Some(0),
        ];
        for start in candidates.into_iter().flatten() {
            let host_part = &after[start..];
            let len = run_len(host_part, |c| c != '/' && c != ':');
            // A shorter host would only lengthen the tail, so the maximal run is the only
            // candidate worth trying.
            if len > 0 && tail_ok(&host_part[len..]) {
                return Some(&host_part[..len]);
            }
        }
    }
    if tail_ok(rest) {
        Some("")
    } else {
        None
    }
}

/// Protocol and host of `url` with Maven Resolver's regex semantics.
pub fn parse(url: &str) -> UrlParts<'_> {
    const NONE: UrlParts<'static> = UrlParts {
        protocol: "",
        host: "",
    };
    // `[^:/]+` is followed by `:` in every alternative, so it is the maximal run.
    let p = run_len(url, |c| c != ':' && c != '/');
    if p == 0 || !url[p..].starts_with(':') {
        return NONE;
    }
    // Alternative A: `:[^:/]{2,}+(?=://)` joins the protocol (possessive: maximal run only).
    let after_colon = &url[p + 1..];
    let r = run_len(after_colon, |c| c != ':' && c != '/');
    if after_colon[..r].chars().count() >= 2 && after_colon[r..].starts_with("://") {
        let protocol = &url[..p + 1 + r];
        if let Some(host) = match_authority(&after_colon[r + 1..]) {
            return UrlParts { protocol, host };
        }
    }
    // Alternative B: the protocol is the first run only.
    match match_authority(after_colon) {
        Some(host) => UrlParts {
            protocol: &url[..p],
            host,
        },
        None => NONE,
    }
}

/// Host and explicit port of a URL's authority, parsed properly (IPv6 literals without their
/// brackets, user info removed, host lower-cased). Used only by the rules beyond Maven
/// (environment proxies and `NO_PROXY`); Maven's own rules use [`parse`].
pub fn authority(url: &str) -> Option<(String, Option<u16>)> {
    let start = url.find("://")? + 3;
    let rest = &url[start..];
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let auth = &rest[..end];
    let hostport = match auth.rfind('@') {
        Some(i) => &auth[i + 1..],
        None => auth,
    };
    let (host, port) = if let Some(inner) = hostport.strip_prefix('[') {
        let close = inner.find(']')?;
        let host = &inner[..close];
        let after = &inner[close + 1..];
        let port = if after.is_empty() || after == ":" {
            None
        } else if let Some(p) = after.strip_prefix(':') {
            Some(p.parse::<u16>().ok()?)
        } else {
            return None;
        };
        (host, port)
    } else {
        match hostport.rfind(':') {
            Some(i) => {
                let p = &hostport[i + 1..];
                let port = if p.is_empty() {
                    None
                } else {
                    Some(p.parse::<u16>().ok()?)
                };
                (&hostport[..i], port)
            }
            None => (hostport, None),
        }
    };
    if host.is_empty() {
        return None;
    }
    Some((host.to_ascii_lowercase(), port))
}

/// The default port of a web protocol (`http` 80, `https` 443), after Maven's `dav` mapping.
pub fn default_port(protocol: &str) -> Option<u16> {
    match normalize_web_protocol(protocol).as_str() {
        "http" => Some(80),
        "https" => Some(443),
        _ => None,
    }
}

/// Maven's proxy-selection mapping of repository protocols: lower-cased, `davs` → `https`,
/// `dav` → `http`, `dav:x` → `x` (`DefaultProxySelector#getProxy`).
pub fn normalize_web_protocol(protocol: &str) -> String {
    let lower = protocol.to_lowercase();
    match lower.as_str() {
        "davs" => "https".to_string(),
        "dav" => "http".to_string(),
        _ => match lower.strip_prefix("dav:") {
            Some(inner) => inner.to_string(),
            None => lower,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maven_regex_table() {
        // (url, protocol, host): expectations follow Java's regex on the same input.
        let cases: &[(&str, &str, &str)] = &[
            ("http://repo.example.org/maven2", "http", "repo.example.org"),
            (
                "https://repo.example.org:8443/x",
                "https",
                "repo.example.org",
            ),
            ("HTTP://Repo.Example.ORG/", "HTTP", "Repo.Example.ORG"),
            ("http://user:pw@host.org/x", "http", "host.org"),
            ("http://user@host.org:81", "http", "host.org"),
            ("http://a@b@c/x", "http", "b@c"),
            ("http://user@/path", "http", "user@"),
            ("dav:http://host/x", "dav:http", "host"),
            ("dav:https://host:1/x", "dav:https", "host"),
            ("dav+http://host/x", "dav+http", "host"),
            ("dav:h://host/x", "dav", ""),
            ("dav://host/x", "dav", "host"),
            ("file:///tmp/repo", "file", ""),
            ("file:/tmp/repo", "file", ""),
            ("file://localhost/tmp", "file", "localhost"),
            ("http://[::1]:8080/", "http", "["),
            ("http://localhost", "http", "localhost"),
            ("http://127.0.0.1:8080/x", "http", "127.0.0.1"),
            ("http:", "http", ""),
            ("://host", "", ""),
            ("/just/a/path", "", ""),
            ("no-colon", "", ""),
            ("", "", ""),
            ("a:b:c://host/x", "a", ""),
            ("x:yy://h", "x:yy", "h"),
            ("scp://host:/path", "scp", "host"),
        ];
        for &(url, protocol, host) in cases {
            let p = parse(url);
            assert_eq!((p.protocol, p.host), (protocol, host), "url {url:?}");
        }
    }

    #[test]
    fn line_terminators_follow_java_dot() {
        // `.*` cannot cross a newline: the whole URL fails to match.
        assert_eq!(
            parse("http://host/a\nb"),
            UrlParts {
                protocol: "",
                host: ""
            }
        );
        // A newline inside the host run is consumed by `[^/:]+`.
        assert_eq!(parse("http://ho\nst/x").host, "ho\nst");
        // A newline inside the `dav:ht\ntp` run is consumed by `[^:/]{2,}`.
        assert_eq!(parse("dav:ht\ntp://h/").protocol, "dav:ht\ntp");
    }

    #[test]
    fn authority_table() {
        type Case<'a> = (&'a str, Option<(&'a str, Option<u16>)>);
        let cases: &[Case] = &[
            ("http://host/x", Some(("host", None))),
            ("http://HOST:81/x", Some(("host", Some(81)))),
            ("https://u:p@h.org:443", Some(("h.org", Some(443)))),
            ("http://[::1]:8080/", Some(("::1", Some(8080)))),
            ("http://[fe80::1]/", Some(("fe80::1", None))),
            ("http://h:notaport/", None),
            ("file:///tmp", None),
            ("no-scheme", None),
        ];
        for &(url, want) in cases {
            let got = authority(url);
            assert_eq!(
                got.as_ref().map(|(h, p)| (h.as_str(), *p)),
                want,
                "url {url:?}"
            );
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 512, ..Default::default() })]
        #[test]
        fn parse_never_panics_and_returns_substrings(u in "[a-z:/@\\[\\]\n.é+]{0,24}") {
            let p = parse(&u);
            proptest::prop_assert!(u.starts_with(p.protocol));
            proptest::prop_assert!(u.contains(p.host));
            proptest::prop_assert!(!p.protocol.contains('/'));
            let _ = authority(&u);
        }
    }

    #[test]
    fn user_info_never_prints() {
        for (written, shown) in [
            ("https://u:p@h/x", "https://***@h/x"),
            ("https://u@h/", "https://***@h/"),
            ("http://h/r", "http://h/r"),
            ("HTTP://Repo.Example/x", "HTTP://Repo.Example/x"),
            ("weird://u:p@", "weird://***@"),
            ("weird:// u:p@h/a@b", "weird://***@h/a@b"),
            ("nope", "nope"),
            ("dav:https://u:p@h/x", "dav:https://***@h/x"),
        ] {
            let url = RepositoryUrl::new(written);
            assert_eq!(url.to_string(), shown, "{written}");
            assert!(!format!("{url:?}").contains(":p@"), "{written}");
            assert_eq!(url.as_written(), written);
        }
    }

    #[test]
    fn resolution_follows_resolver() {
        let cases = [
            ("http://h/r", "a/b.jar", "http://h/r/a/b.jar"),
            ("http://h/r/", "a/b.jar", "http://h/r/a/b.jar"),
            ("http://h:81/r?x=1#f", "a/b.jar", "http://h:81/r/a/b.jar"),
            ("http://h", "a/b.jar", "http://h/a/b.jar"),
            ("http://h/r", "c:x/b.jar", "http://h/r/c:x/b.jar"),
        ];
        for (b, p, want) in cases {
            let url = RepositoryUrl::new(b);
            assert_eq!(url.resolve(p).unwrap().as_str(), want, "{b} + {p}");
        }
        assert!(RepositoryUrl::new("not a url").resolve("a").is_err());
        let shared = RepositoryUrl::new("http://h/r");
        let clone = shared.clone();
        assert!(
            std::ptr::eq(shared.parsed().unwrap(), clone.parsed().unwrap()),
            "parsed once"
        );
    }

    #[test]
    fn protocol_normalisation() {
        for (input, want) in [
            ("http", "http"),
            ("HTTPS", "https"),
            ("dav", "http"),
            ("davs", "https"),
            ("dav:http", "http"),
            ("dav:https", "https"),
            ("dav+http", "dav+http"),
            ("ftp", "ftp"),
        ] {
            assert_eq!(normalize_web_protocol(input), want);
        }
        assert_eq!(default_port("dav:https"), Some(443));
        assert_eq!(default_port("ftp"), None);
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_redact() {
        use crate::repository::url::redact;
        assert_eq!(
            redact("https://u:p@h.example/r/"),
            "https://***@h.example/r/"
        );
        assert_eq!(redact("http://h/r"), "http://h/r");
    }

    #[test]
    fn doc_parse() {
        use crate::repository::url::parse;
        let p = parse("dav:https://user:pw@repo.example.org:8443/maven2");
        assert_eq!((p.protocol, p.host), ("dav:https", "repo.example.org"));
        assert_eq!(parse("http://[::1]:8080/").host, "[");
        assert_eq!(parse("not a url").protocol, "");
    }

    #[test]
    fn doc_authority() {
        use crate::repository::url::authority;
        assert_eq!(
            authority("https://u:p@[::1]:8443/x"),
            Some(("::1".to_string(), Some(8443)))
        );
        assert_eq!(
            authority("dav:http://Repo.Example.org/x"),
            Some(("repo.example.org".to_string(), None))
        );
    }

    #[test]
    fn doc_normalize_web_protocol() {
        use crate::repository::url::normalize_web_protocol;
        assert_eq!(normalize_web_protocol("DAV:HTTPS"), "https");
        assert_eq!(normalize_web_protocol("davs"), "https");
    }
}
