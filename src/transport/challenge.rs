//! Authentication challenges: parsing `WWW-Authenticate` / `Proxy-Authenticate` (RFC 7235 §4.1)
//! and picking the scheme to answer.
//!
//! A response may carry several of these headers, and one header may hold several challenges
//! (`Digest realm="a", nonce="n", Basic realm="a"`). Each challenge is a scheme name followed by
//! either a `token68` (NTLM's base64 message) or comma-separated `name=value` parameters whose
//! values are tokens or quoted strings (backslash escapes). The grammar is ambiguous on commas;
//! as in other clients, what follows a comma is a parameter of the current challenge when it
//! reads `token = value`, and a new challenge otherwise.
//!
//! [`pick`] chooses the strongest scheme m2r answers: NTLM, then Digest (SHA-512-256, SHA-256,
//! MD5; `-sess` variants count as their base), then Basic. That is Apache HttpClient 4.5's
//! order (`AuthenticationStrategyImpl`: SPNEGO, Kerberos, NTLM, Digest, Basic), the client inside
//! Maven 3.8's HTTP wagon. Pure functions; no I/O.

use std::fmt;

/// One challenge: a scheme and its parameters or token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    /// The scheme as sent (compare with [`Challenge::is`]).
    pub scheme: String,
    /// A `token68` (NTLM's base64 message), when the challenge carries one.
    pub token68: Option<String>,
    /// Parameters in order, names lower-cased, values unquoted.
    pub params: Vec<(String, String)>,
}

impl Challenge {
    /// True when the scheme is `name` (case-insensitively).
    pub fn is(&self, name: &str) -> bool {
        self.scheme.eq_ignore_ascii_case(name)
    }

    /// The first parameter called `name` (lower-case).
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

impl fmt::Display for Challenge {
    /// `Digest realm="x"`: the scheme and, when present, its realm (no nonces in messages).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.scheme)?;
        if let Some(realm) = self.param("realm") {
            write!(f, " realm=\"{realm}\"")?;
        }
        Ok(())
    }
}

/// The schemes m2r answers, weakest first (the derived order is the preference).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Scheme {
    /// RFC 7617: `user:password` in base64; only safe over TLS or to a trusted proxy.
    Basic,
    /// RFC 7616: a hash of the password with the server's nonce.
    Digest,
    /// MS-NLMP NTLMv2: a three-message handshake on one connection.
    Ntlm,
}

impl Scheme {
    /// The scheme's name on the wire.
    pub fn as_str(&self) -> &'static str {
        match self {
            Scheme::Basic => "Basic",
            Scheme::Digest => "Digest",
            Scheme::Ntlm => "NTLM",
        }
    }

    fn of(challenge: &Challenge) -> Option<Scheme> {
        [Scheme::Basic, Scheme::Digest, Scheme::Ntlm]
            .into_iter()
            .find(|s| challenge.is(s.as_str()))
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Parses every challenge of several header values, in order. Never fails: unreadable parts
/// are skipped.
pub fn parse_challenges<'a>(values: impl IntoIterator<Item = &'a str>) -> Vec<Challenge> {
    let mut out = Vec::new();
    for v in values {
        Parser {
            s: v.as_bytes(),
            i: 0,
        }
        .challenges(&mut out);
    }
    out
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

fn is_tchar(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&c)
}

fn is_token68_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"-._~+/".contains(&c)
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }

    fn skip_ws_and_commas(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b',')) {
            self.i += 1;
        }
    }

    fn token(&mut self) -> Option<String> {
        let start = self.i;
        while self.peek().is_some_and(is_tchar) {
            self.i += 1;
        }
        (self.i > start).then(|| String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
    }

    /// At end of input or at a comma (after optional whitespace), without consuming.
    fn at_list_end(&self, mut j: usize) -> bool {
        while matches!(self.s.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        matches!(self.s.get(j), None | Some(b','))
    }

    /// Whether the text at the cursor reads `token BWS "=" BWS value` (a parameter) rather than
    /// a scheme name or a token68.
    fn looks_like_param(&self) -> bool {
        let mut j = self.i;
        while self.s.get(j).copied().is_some_and(is_tchar) {
            j += 1;
        }
        if j == self.i {
            return false;
        }
        while matches!(self.s.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        if self.s.get(j) != Some(&b'=') {
            return false;
        }
        // `abc==` followed by the end of the list is a token68, `name=value` a parameter.
        let mut k = j;
        while self.s.get(k) == Some(&b'=') {
            k += 1;
        }
        k == j + 1 && !self.at_list_end(k)
    }

    fn quoted(&mut self) -> String {
        // at the opening quote
        self.i += 1;
        let mut out = Vec::new();
        while let Some(c) = self.peek() {
            self.i += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    if let Some(n) = self.peek() {
                        out.push(n);
                        self.i += 1;
                    }
                }
                _ => out.push(c),
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    fn value(&mut self) -> String {
        if self.peek() == Some(b'"') {
            return self.quoted();
        }
        let start = self.i;
        while self
            .peek()
            .is_some_and(|c| !matches!(c, b',' | b' ' | b'\t'))
        {
            self.i += 1;
        }
        String::from_utf8_lossy(&self.s[start..self.i]).into_owned()
    }

    fn challenges(&mut self, out: &mut Vec<Challenge>) {
        loop {
            self.skip_ws_and_commas();
            if self.peek().is_none() {
                return;
            }
            let Some(scheme) = self.token() else {
                // not a scheme: skip one byte and resynchronise
                self.i += 1;
                continue;
            };
            let mut challenge = Challenge {
                scheme,
                token68: None,
                params: Vec::new(),
            };
            self.skip_ws();
            if !self.looks_like_param() && self.peek().is_some_and(is_token68_char) {
                let start = self.i;
                while self.peek().is_some_and(is_token68_char) {
                    self.i += 1;
                }
                while self.peek() == Some(b'=') {
                    self.i += 1;
                }
                if self.at_list_end(self.i) {
                    challenge.token68 =
                        Some(String::from_utf8_lossy(&self.s[start..self.i]).into_owned());
                } else {
                    // neither a token68 nor a parameter: give up on this challenge's rest
                    self.i = start;
                }
            }
            self.params(&mut challenge);
            out.push(challenge);
        }
    }

    fn params(&mut self, challenge: &mut Challenge) {
        loop {
            self.skip_ws_and_commas();
            if !self.looks_like_param() {
                return;
            }
            let name = self.token().unwrap_or_default().to_ascii_lowercase();
            self.skip_ws();
            self.i += 1; // '='
            self.skip_ws();
            let value = self.value();
            challenge.params.push((name, value));
        }
    }
}

/// What [`pick`] chose, and what else was offered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picked<'a> {
    /// The scheme to answer.
    pub scheme: Scheme,
    /// Its challenge (for Digest, the one with the strongest supported algorithm).
    pub challenge: &'a Challenge,
}

/// The strongest challenge m2r can answer: NTLM (only when `allow_ntlm`: NTLM authenticates a
/// connection, which m2r does for proxies), then Digest with the strongest supported algorithm
/// and `qop` (absent, `auth` or `auth-int`), then Basic. `None` when nothing is answerable.
pub fn pick(challenges: &[Challenge], allow_ntlm: bool) -> Option<Picked<'_>> {
    challenges
        .iter()
        .filter_map(|c| {
            let scheme = Scheme::of(c)?;
            let strength = match scheme {
                Scheme::Ntlm if !allow_ntlm => return None,
                Scheme::Digest => crate::transport::digest::DigestChallenge::from_challenge(c)
                    .ok()?
                    .algorithm
                    .strength(),
                _ => 0,
            };
            Some(((scheme, strength), c))
        })
        // max_by_key keeps the last of equals; prefer the first offered
        .fold(None::<((Scheme, u8), &Challenge)>, |best, cur| match best {
            Some(b) if b.0 >= cur.0 => Some(b),
            _ => Some(cur),
        })
        .map(|((scheme, _), challenge)| Picked { scheme, challenge })
}

/// `Digest realm="x", Basic realm="x"`: what a response offered, for messages.
pub fn describe_offered(challenges: &[Challenge]) -> String {
    if challenges.is_empty() {
        return "no scheme".into();
    }
    challenges
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(v: &str) -> Vec<Challenge> {
        parse_challenges([v])
    }

    fn params(c: &Challenge) -> Vec<(&str, &str)> {
        c.params
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect()
    }

    #[test]
    fn parse_table() {
        // (header value, [(scheme, token68, params)])
        type Case<'a> = (
            &'a str,
            Vec<(&'a str, Option<&'a str>, Vec<(&'a str, &'a str)>)>,
        );
        let cases: Vec<Case> = vec![
            ("Basic", vec![("Basic", None, vec![])]),
            (
                r#"Basic realm="squid proxy""#,
                vec![("Basic", None, vec![("realm", "squid proxy")])],
            ),
            (
                "NTLM TlRMTVNTUAACAAAADAAMADgAAAA=",
                vec![("NTLM", Some("TlRMTVNTUAACAAAADAAMADgAAAA="), vec![])],
            ),
            ("NTLM abc", vec![("NTLM", Some("abc"), vec![])]),
            (
                r#"Digest realm="a\"b", nonce=xyz,qop="auth,auth-int" , algorithm=MD5, stale=TRUE"#,
                vec![(
                    "Digest",
                    None,
                    vec![
                        ("realm", "a\"b"),
                        ("nonce", "xyz"),
                        ("qop", "auth,auth-int"),
                        ("algorithm", "MD5"),
                        ("stale", "TRUE"),
                    ],
                )],
            ),
            (
                r#"Newauth realm="apps", type=1, title="Login to \"apps\"", Basic realm="simple""#,
                vec![
                    (
                        "Newauth",
                        None,
                        vec![
                            ("realm", "apps"),
                            ("type", "1"),
                            ("title", "Login to \"apps\""),
                        ],
                    ),
                    ("Basic", None, vec![("realm", "simple")]),
                ],
            ),
            (
                "Negotiate, NTLM",
                vec![("Negotiate", None, vec![]), ("NTLM", None, vec![])],
            ),
            (
                "Bearer abc==, Basic realm=x",
                vec![
                    ("Bearer", Some("abc=="), vec![]),
                    ("Basic", None, vec![("realm", "x")]),
                ],
            ),
            (
                "Digest realm = \"spaced\" , nonce = \"n\"",
                vec![("Digest", None, vec![("realm", "spaced"), ("nonce", "n")])],
            ),
            (
                ", ,Basic realm=\"unterminated",
                vec![("Basic", None, vec![("realm", "unterminated")])],
            ),
            ("", vec![]),
            ("   ", vec![]),
            (
                "\"junk\" Basic",
                vec![("junk", None, vec![]), ("Basic", None, vec![])],
            ),
        ];
        for (value, want) in cases {
            let got = p(value);
            let got: Vec<_> = got
                .iter()
                .map(|c| (c.scheme.as_str(), c.token68.as_deref(), params(c)))
                .collect();
            assert_eq!(got, want, "{value}");
        }
    }

    #[test]
    fn several_headers_keep_their_order() {
        let c = parse_challenges(["Basic realm=\"a\"", "Digest realm=\"a\", nonce=\"n\""]);
        assert!(c[0].is("basic") && c[1].is("DIGEST"));
    }

    #[test]
    fn parser_never_panics_on_garbage() {
        for v in [
            "=",
            "==",
            "a=",
            "a==b",
            "\\",
            "\"",
            "Basic \"",
            "Digest a=\"\\",
            "x, =, y",
            ",,,",
            "Ω realm=é",
            "NTLM ====",
            "Basic realm=\"a\",,, ,nonce=",
        ] {
            let _ = p(v);
        }
    }

    #[test]
    fn pick_prefers_ntlm_then_digest_then_basic() {
        let all = parse_challenges([
            "Basic realm=\"r\"",
            "Digest realm=\"r\", nonce=\"n\", algorithm=MD5, qop=\"auth\"",
            "Digest realm=\"r\", nonce=\"n\", algorithm=SHA-256, qop=\"auth\"",
            "NTLM",
        ]);
        assert_eq!(pick(&all, true).unwrap().scheme, Scheme::Ntlm);
        let d = pick(&all, false).unwrap();
        assert_eq!(d.scheme, Scheme::Digest);
        assert_eq!(d.challenge.param("algorithm"), Some("SHA-256"));
        assert_eq!(pick(&all[..1], true).unwrap().scheme, Scheme::Basic);
        // unsupported schemes and Digest variants are skipped
        let odd = parse_challenges([
            "Negotiate",
            "Digest realm=\"r\", nonce=\"n\", algorithm=SHA-1",
            "Digest realm=\"r\", nonce=\"n\", qop=\"auth-conf\"",
        ]);
        assert_eq!(pick(&odd, true), None);
        assert_eq!(pick(&parse_challenges(["NTLM"]), false), None);
        // equal strength: the first offered wins
        let two = parse_challenges(["Basic realm=\"one\", Basic realm=\"two\""]);
        assert_eq!(
            pick(&two, true).unwrap().challenge.param("realm"),
            Some("one")
        );
    }

    #[test]
    fn offered_description_has_no_nonces() {
        let c = parse_challenges(["Digest realm=\"corp\", nonce=\"secret-nonce\", NTLM"]);
        let d = describe_offered(&c);
        assert_eq!(d, "Digest realm=\"corp\", NTLM");
        assert_eq!(describe_offered(&[]), "no scheme");
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_parse_challenges() {
        use crate::transport::challenge::parse_challenges;
        let c = parse_challenges([
            "NTLM",
            r#"Digest realm="corp", nonce="n1", qop="auth,auth-int", Basic realm="corp""#,
        ]);
        assert_eq!(c.len(), 3);
        assert_eq!(c[1].param("qop"), Some("auth,auth-int"));
        assert!(c[2].is("basic"));
    }
}
