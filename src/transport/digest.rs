//! HTTP Digest authentication (RFC 7616, which keeps RFC 2617's answers): reading a `Digest`
//! challenge and computing the `Authorization` / `Proxy-Authorization` value.
//!
//! Supported: algorithms `MD5`, `MD5-sess`, `SHA-256`, `SHA-256-sess`, `SHA-512-256`,
//! `SHA-512-256-sess`; `qop=auth` (preferred) and `qop=auth-int` (m2r's requests have empty
//! bodies, so the body hash is the hash of nothing); no `qop` (RFC 2069 compatibility);
//! `userhash=true`; `stale=true` (the caller answers the new nonce without asking for the
//! password again); non-ASCII user names as `username*` (RFC 7616 §3.4.4). The nonce count and
//! client nonce come from the caller, which keeps one count per cached nonce so that later
//! requests can answer preemptively. Hashes come from RustCrypto's `md-5` and `sha2`.

use crate::transport::challenge::Challenge;
use sha2::Digest as _;
use std::fmt::Write as _;
use thiserror::Error;

/// A Digest challenge m2r cannot answer.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DigestError {
    /// The challenge has no `nonce` (or no `realm`).
    #[error("the Digest challenge has no {0}")]
    Missing(&'static str),
    /// An algorithm m2r does not implement (SHA-1 is not in RFC 7616).
    #[error("the Digest algorithm `{0}` is not supported (MD5, SHA-256 and SHA-512-256 are)")]
    Algorithm(String),
    /// Only `qop` values m2r does not implement (`auth-conf`).
    #[error("the Digest qop `{0}` is not supported (auth and auth-int are)")]
    Qop(String),
}

/// The hash function and whether the `-sess` variant applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Algorithm {
    hash: Hash,
    sess: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hash {
    Md5,
    Sha256,
    Sha512_256,
}

impl Algorithm {
    /// Parses RFC 7616's names case-insensitively; absent means MD5.
    pub fn parse(name: Option<&str>) -> Result<Algorithm, DigestError> {
        let Some(name) = name else {
            return Ok(Algorithm {
                hash: Hash::Md5,
                sess: false,
            });
        };
        let upper = name.to_ascii_uppercase();
        let (base, sess) = match upper.strip_suffix("-SESS") {
            Some(b) => (b, true),
            None => (upper.as_str(), false),
        };
        let hash = match base {
            "MD5" => Hash::Md5,
            "SHA-256" => Hash::Sha256,
            "SHA-512-256" => Hash::Sha512_256,
            _ => return Err(DigestError::Algorithm(name.to_string())),
        };
        Ok(Algorithm { hash, sess })
    }

    /// RFC 7616's name (`SHA-256-sess`).
    pub fn name(&self) -> &'static str {
        match (self.hash, self.sess) {
            (Hash::Md5, false) => "MD5",
            (Hash::Md5, true) => "MD5-sess",
            (Hash::Sha256, false) => "SHA-256",
            (Hash::Sha256, true) => "SHA-256-sess",
            (Hash::Sha512_256, false) => "SHA-512-256",
            (Hash::Sha512_256, true) => "SHA-512-256-sess",
        }
    }

    /// Preference among algorithms (higher is stronger).
    pub fn strength(&self) -> u8 {
        match self.hash {
            Hash::Md5 => 1,
            Hash::Sha256 => 2,
            Hash::Sha512_256 => 3,
        }
    }

    /// Lower-case hex of the hash of `data`.
    fn h(&self, data: &[u8]) -> String {
        match self.hash {
            Hash::Md5 => hex::encode(md5::Md5::digest(data)),
            Hash::Sha256 => hex::encode(sha2::Sha256::digest(data)),
            Hash::Sha512_256 => hex::encode(sha2::Sha512_256::digest(data)),
        }
    }
}

/// Quality of protection chosen for the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Qop {
    /// `auth`: method and URI are protected.
    Auth,
    /// `auth-int`: also the (empty) body.
    AuthInt,
}

impl Qop {
    fn as_str(&self) -> &'static str {
        match self {
            Qop::Auth => "auth",
            Qop::AuthInt => "auth-int",
        }
    }
}

/// A `Digest` challenge, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DigestChallenge {
    /// `realm`.
    pub realm: String,
    /// `nonce`.
    pub nonce: String,
    /// `opaque`, echoed back.
    pub opaque: Option<String>,
    /// `algorithm`.
    pub algorithm: Algorithm,
    /// The `qop` to answer with; `None` for an RFC 2069 challenge.
    pub qop: Option<Qop>,
    /// `stale=true`: the nonce expired, the credentials were right.
    pub stale: bool,
    /// `userhash=true`: send `H(user:realm)` instead of the user name.
    pub userhash: bool,
}

impl DigestChallenge {
    /// Checks a parsed `Digest` challenge.
    pub fn from_challenge(c: &Challenge) -> Result<DigestChallenge, DigestError> {
        let nonce = c.param("nonce").ok_or(DigestError::Missing("nonce"))?;
        let realm = c.param("realm").ok_or(DigestError::Missing("realm"))?;
        let algorithm = Algorithm::parse(c.param("algorithm"))?;
        let qop = match c.param("qop") {
            None => None,
            Some(list) => {
                let opts: Vec<String> = list
                    .split(',')
                    .map(|s| s.trim().to_ascii_lowercase())
                    .collect();
                if opts.iter().any(|o| o == "auth") {
                    Some(Qop::Auth)
                } else if opts.iter().any(|o| o == "auth-int") {
                    Some(Qop::AuthInt)
                } else {
                    return Err(DigestError::Qop(list.to_string()));
                }
            }
        };
        let flag = |n: &str| c.param(n).is_some_and(|v| v.eq_ignore_ascii_case("true"));
        Ok(DigestChallenge {
            realm: realm.to_string(),
            nonce: nonce.to_string(),
            opaque: c.param("opaque").map(str::to_string),
            algorithm,
            qop,
            stale: flag("stale"),
            userhash: flag("userhash"),
        })
    }

    /// The header value answering this challenge for `method` on `uri` (the request-target as
    /// sent: a path for servers, `host:port` for CONNECT, the absolute URI for proxied requests),
    /// with nonce count `nc` (1 for the first use of this nonce) and client nonce `cnonce`.
    pub fn answer(
        &self,
        username: &str,
        password: &str,
        method: &str,
        uri: &str,
        nc: u32,
        cnonce: &str,
    ) -> String {
        let alg = self.algorithm;
        let mut ha1 = alg.h(format!("{username}:{}:{password}", self.realm).as_bytes());
        if alg.sess {
            ha1 = alg.h(format!("{ha1}:{}:{cnonce}", self.nonce).as_bytes());
        }
        let ha2 = match self.qop {
            Some(Qop::AuthInt) => alg.h(format!("{method}:{uri}:{}", alg.h(b"")).as_bytes()),
            _ => alg.h(format!("{method}:{uri}").as_bytes()),
        };
        let nc_hex = format!("{nc:08x}");
        let response = match self.qop {
            Some(q) => alg.h(format!(
                "{ha1}:{}:{nc_hex}:{cnonce}:{}:{ha2}",
                self.nonce,
                q.as_str()
            )
            .as_bytes()),
            None => alg.h(format!("{ha1}:{}:{ha2}", self.nonce).as_bytes()),
        };
        let mut v = String::from("Digest ");
        if self.userhash {
            let hashed = alg.h(format!("{username}:{}", self.realm).as_bytes());
            let _ = write!(v, "username=\"{hashed}\"");
        } else if username.is_ascii() {
            let _ = write!(v, "username={}", quote(username));
        } else {
            let _ = write!(v, "username*=UTF-8''{}", percent_encode(username));
        }
        let _ = write!(
            v,
            ", realm={}, nonce={}, uri={}, algorithm={}, response=\"{response}\"",
            quote(&self.realm),
            quote(&self.nonce),
            quote(uri),
            alg.name()
        );
        if let Some(q) = self.qop {
            let _ = write!(
                v,
                ", qop={}, nc={nc_hex}, cnonce={}",
                q.as_str(),
                quote(cnonce)
            );
        }
        if let Some(o) = &self.opaque {
            let _ = write!(v, ", opaque={}", quote(o));
        }
        if self.userhash {
            v.push_str(", userhash=true");
        }
        v
    }
}

/// A fresh client nonce: 16 random bytes, hex.
pub fn new_cnonce() -> String {
    hex::encode(rand::random::<[u8; 16]>())
}

fn quote(s: &str) -> String {
    let mut q = String::with_capacity(s.len() + 2);
    q.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            q.push('\\');
        }
        q.push(c);
    }
    q.push('"');
    q
}

/// RFC 8187 `attr-char` percent-encoding of UTF-8 bytes.
fn percent_encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"!#$&+-.^_`|~".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::challenge::parse_challenges;

    fn challenge(v: &str) -> DigestChallenge {
        DigestChallenge::from_challenge(&parse_challenges([v])[0]).unwrap()
    }

    fn param(header: &str, name: &str) -> String {
        let c = parse_challenges([header]);
        c[0].param(name)
            .unwrap_or_else(|| panic!("{name} missing in {header}"))
            .to_string()
    }

    /// RFC 7616 §3.9.1: the same request answered with SHA-256 and with MD5.
    #[test]
    fn rfc7616_section_3_9_1_vectors() {
        let base = r#"realm="http-auth@example.org", qop="auth, auth-int", nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS""#;
        for (alg, want) in [
            (
                "SHA-256",
                "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1",
            ),
            ("MD5", "8ca523f5e9506fed4657c9700eebdbec"),
        ] {
            let c = challenge(&format!("Digest {base}, algorithm={alg}"));
            assert_eq!(c.qop, Some(Qop::Auth));
            let h = c.answer(
                "Mufasa",
                "Circle of Life",
                "GET",
                "/dir/index.html",
                1,
                "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ",
            );
            assert_eq!(param(&h, "response"), want, "{alg}: {h}");
            assert_eq!(param(&h, "nc"), "00000001");
            assert_eq!(param(&h, "qop"), "auth");
            assert_eq!(param(&h, "algorithm"), alg);
            assert_eq!(
                param(&h, "opaque"),
                "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"
            );
            assert!(h.starts_with("Digest username=\"Mufasa\", realm=\"http-auth@example.org\""));
        }
    }

    /// RFC 2617 §3.5 (MD5, qop=auth).
    #[test]
    fn rfc2617_section_3_5_vector() {
        let c = challenge(
            r#"Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41""#,
        );
        let h = c.answer(
            "Mufasa",
            "Circle Of Life",
            "GET",
            "/dir/index.html",
            1,
            "0a4f113b",
        );
        assert_eq!(param(&h, "response"), "6629fae49393a05397450978507c4ef1");
    }

    /// RFC 7616 §3.9.2: SHA-512-256 with `userhash` and a non-ASCII user name. The RFC prints
    /// values computed with SHA-512 truncated to 256 bits instead of SHA-512/256 (which has its
    /// own initial values, FIPS 180-4 §5.3.6): shown below; OpenJDK's Digest tests use the
    /// corrected response `3798d413…` too.
    #[test]
    fn rfc7616_section_3_9_2_userhash_vector() {
        let c = challenge(
            r#"Digest realm="api@example.org", qop="auth", algorithm=SHA-512-256, nonce="5TsQWLVdgBdmrQ0XsxbDODV+57QdFR34I9HAbC/RVvkK", opaque="HRPCssKJSGjCrkzDg8OhwpzCiGPChXYjwrI2QmXDnsOS", charset=UTF-8, userhash=true"#,
        );
        let h = c.answer(
            "J\u{e4}s\u{f8}n Doe",
            "Secret, or not?",
            "GET",
            "/doe.json",
            1,
            "NTg6RKcb9boFIAS3KrFK9BGeh+iDa/sm6jUMp2wds69v",
        );
        assert_eq!(
            param(&h, "username"),
            "793263caabb707a56211940d90411ea4a575adeccb7e360aeb624ed06ece9b0b"
        );
        assert_eq!(
            param(&h, "response"),
            "3798d4131c277846293534c3edc11bd8a5e4cdcbff78b05db9d95eeb1cec68a5"
        );
        assert!(h.ends_with("userhash=true"), "{h}");
        // the RFC's printed user hash is the truncated SHA-512 of the same input
        let truncated = hex::encode(sha2::Sha512::digest(
            "J\u{e4}s\u{f8}n Doe:api@example.org".as_bytes(),
        ));
        assert_eq!(
            &truncated[..64],
            "488869477bf257147b804c45308cd62ac4e25eb717b12b298c79e62dcea254ec"
        );
    }

    #[test]
    fn sess_auth_int_and_rfc2069_forms() {
        // MD5-sess: HA1 = MD5(MD5(user:realm:pw):nonce:cnonce); computed independently here
        let c = challenge(r#"Digest realm="r", nonce="n", algorithm=MD5-sess, qop="auth""#);
        let h = c.answer("u", "p", "GET", "/x", 2, "c");
        let h1 = hex::encode(md5::Md5::digest(b"u:r:p"));
        let ha1 = hex::encode(md5::Md5::digest(format!("{h1}:n:c").as_bytes()));
        let ha2 = hex::encode(md5::Md5::digest(b"GET:/x"));
        let want = hex::encode(md5::Md5::digest(
            format!("{ha1}:n:00000002:c:auth:{ha2}").as_bytes(),
        ));
        assert_eq!(param(&h, "response"), want);
        assert_eq!(param(&h, "algorithm"), "MD5-sess");
        // auth-int only: HA2 = MD5(method:uri:MD5(""))
        let c = challenge(r#"Digest realm="r", nonce="n", qop="auth-int""#);
        let h = c.answer("u", "p", "CONNECT", "h:443", 1, "c");
        let body = hex::encode(md5::Md5::digest(b""));
        let ha2 = hex::encode(md5::Md5::digest(format!("CONNECT:h:443:{body}").as_bytes()));
        let want = hex::encode(md5::Md5::digest(
            format!("{h1}:n:00000001:c:auth-int:{ha2}").as_bytes(),
        ));
        assert_eq!(param(&h, "response"), want);
        // no qop: RFC 2069 response, no nc/cnonce
        let c = challenge(r#"Digest realm="r", nonce="n""#);
        let h = c.answer("u", "p", "GET", "/x", 1, "c");
        let ha2 = hex::encode(md5::Md5::digest(b"GET:/x"));
        let want = hex::encode(md5::Md5::digest(format!("{h1}:n:{ha2}").as_bytes()));
        assert_eq!(param(&h, "response"), want);
        assert!(!h.contains("nc=") && !h.contains("cnonce"), "{h}");
    }

    #[test]
    fn challenge_checks() {
        let parse = |v: &str| DigestChallenge::from_challenge(&parse_challenges([v])[0]);
        assert_eq!(
            parse("Digest realm=\"r\"").unwrap_err(),
            DigestError::Missing("nonce")
        );
        assert!(matches!(
            parse("Digest realm=r, nonce=n, algorithm=SHA-1"),
            Err(DigestError::Algorithm(_))
        ));
        assert!(matches!(
            parse("Digest realm=r, nonce=n, qop=auth-conf"),
            Err(DigestError::Qop(_))
        ));
        let c = parse("Digest realm=r, nonce=n, stale=TRUE, algorithm=sha-256-SESS").unwrap();
        assert!(c.stale);
        assert_eq!(c.algorithm.name(), "SHA-256-sess");
        assert_eq!(c.qop, None);
    }

    #[test]
    fn quoting_and_non_ascii_user_names() {
        let c = challenge(r#"Digest realm="r\"q", nonce="n""#);
        let h = c.answer("a\"b", "p", "GET", "/", 1, "c");
        assert!(h.contains(r#"username="a\"b""#), "{h}");
        assert!(h.contains(r#"realm="r\"q""#), "{h}");
        let h = c.answer("J\u{e4}s", "p", "GET", "/", 1, "c");
        assert!(h.contains("username*=UTF-8''J%C3%A4s"), "{h}");
        assert_eq!(new_cnonce().len(), 32);
        assert_ne!(new_cnonce(), new_cnonce());
    }
}
