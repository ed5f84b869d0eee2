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
//! This module does not decide anything (mirrors, proxies): it only splits URLs.

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
///
/// ```
/// use m2resolver::repository::url::parse;
/// let p = parse("dav:https://user:pw@repo.example.org:8443/maven2");
/// assert_eq!((p.protocol, p.host), ("dav:https", "repo.example.org"));
/// assert_eq!(parse("http://[::1]:8080/").host, "[");
/// assert_eq!(parse("not a url").protocol, "");
/// ```
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
///
/// ```
/// use m2resolver::repository::url::authority;
/// assert_eq!(authority("https://u:p@[::1]:8443/x"), Some(("::1".to_string(), Some(8443))));
/// assert_eq!(authority("dav:http://Repo.Example.org/x"), Some(("repo.example.org".to_string(), None)));
/// ```
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
///
/// ```
/// use m2resolver::repository::url::normalize_web_protocol;
/// assert_eq!(normalize_web_protocol("DAV:HTTPS"), "https");
/// assert_eq!(normalize_web_protocol("davs"), "https");
/// ```
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
