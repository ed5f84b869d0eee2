//! Where a repository's credentials may go: only to URLs under that repository's base URL.
//!
//! A request URL is "under" the base when scheme, host and port are the same (the origin) and
//! its path starts with the base path up to and including its last `/` (`https://h/repo` and
//! `https://h/repo/` both cover `https://h/repo/org/...`, not `https://h/repository-other/...`
//! nor `https://h/other/...`). Path comparison is on the normalised URL (dot segments and
//! `%2e%2e` already resolved by the URL parser), so `../` tricks cannot climb out.
//!
//! Decision (differs from Maven, on purpose): the `Authorization: Basic` header is sent
//! preemptively, on the first request, to URLs under the base — it saves the 401 round trip per
//! connection that Maven's reactive scheme costs — and never to any other URL: not to other
//! hosts, other ports, other schemes, nor to other paths of the same server, whether the URL
//! came from a redirect or not. The transport also refuses to request a path outside the base
//! at all ([`crate::transport::Transport::download`]).

use url::Url;

/// True when `target` is under `base` (same origin, path prefix up to the base's last `/`).
pub fn within_base(base: &Url, target: &Url) -> bool {
    // file: URLs have opaque origins (never equal): compare scheme and host instead.
    let same_place = if base.scheme() == "file" {
        target.scheme() == "file" && base.host() == target.host()
    } else {
        base.origin() == target.origin()
    };
    if !same_place || base.cannot_be_a_base() {
        return false;
    }
    let base_path = base.path();
    let prefix = if base_path.ends_with('/') {
        base_path.to_string()
    } else {
        format!("{base_path}/")
    };
    target.path().starts_with(&prefix)
}

/// [`within_base`] for a base given as text (a repository URL); false when it does not parse.
#[cfg(test)]
pub fn may_send_credentials(base: &str, target: &Url) -> bool {
    Url::parse(base).is_ok_and(|b| within_base(&b, target))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credential_scope_table() {
        let cases = [
            ("https://h/r", "https://h/r/a.jar", true),
            ("https://h/r/", "https://h/r/g/a/1/a-1.jar", true),
            ("https://h/r", "https://h/r", false),
            ("https://h/r", "https://h/r2/a.jar", false),
            ("https://h/r", "https://h/rr/a.jar", false),
            ("https://h/r", "https://h/a.jar", false),
            ("https://h/r", "https://h/r/../x", false),
            ("https://h/r", "https://h/r/%2e%2e/x", false),
            ("https://h/r", "http://h/r/a.jar", false),
            ("https://h/r", "https://h:8443/r/a.jar", false),
            ("https://h:443/r", "https://h/r/a.jar", true),
            ("https://h/r", "https://evil/r/a.jar", false),
            ("https://h/r", "https://h.evil/r/a.jar", false),
            ("https://h/", "https://h/anything", true),
            ("https://h", "https://h/anything", true),
            (
                "http://127.0.0.1:8080/p?x=1",
                "http://127.0.0.1:8080/p/a",
                true,
            ),
            ("https://u:p@h/r", "https://h/r/a", true),
            ("https://h/r", "https://u@h/r/a", true),
            ("https://H/r", "https://h/r/a", true),
            ("https://h/R", "https://h/r/a", false),
        ];
        for (base, target, want) in cases {
            let t = Url::parse(target).unwrap();
            assert_eq!(may_send_credentials(base, &t), want, "{base} -> {target}");
        }
        assert!(!may_send_credentials(
            "not a url",
            &Url::parse("https://h/").unwrap()
        ));
        let file = Url::parse("file:///r/a").unwrap();
        assert!(!may_send_credentials("https://h/r", &file));
        assert!(may_send_credentials("file:///r", &file));
        assert!(!may_send_credentials("file:///q", &file));
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_within_base() {
        use crate::transport::scope::within_base;
        use url::Url;
        let base = Url::parse("https://h.example/repo").unwrap();
        assert!(within_base(
            &base,
            &Url::parse("https://h.example/repo/g/a/1/a-1.jar").unwrap()
        ));
        assert!(!within_base(
            &base,
            &Url::parse("https://h.example/other/x").unwrap()
        ));
        assert!(!within_base(
            &base,
            &Url::parse("http://h.example/repo/x").unwrap()
        ));
    }
}
