//! Which source gives a repository its credentials: settings `<server>` entries (Maven's only
//! source) and, beyond Maven, credential helpers and `.netrc`, in this order of precedence
//! ([`choose`], applied at injection, after the mirror and the server are known):
//!
//! 1. the `<server>` with the repository's id (the mirror's id once mirrored) when it has a
//!    password or a private key — exactly what Maven sends;
//! 2. the credential helper that `<server>`'s `<configuration><credentialHelper>` names (its
//!    `<username>`, if any, is passed to the helper);
//! 3. any other authentication of that `<server>` (a `<username>` alone), as Maven;
//! 4. a `.netrc` `machine` entry for the repository's host (and port, when written);
//! 5. the helper `M2R_CREDENTIAL_HELPER` names (one command for every repository: it may
//!    answer with nothing for the repositories it does not know);
//! 6. the `.netrc` `default` entry.
//!
//! So the sources beyond Maven only ever apply where Maven would have sent nothing, and a more
//! specific source wins over a general one. The choice travels with the repository
//! ([`RemoteRepository::credential_source`]) for `m2r explain` and error messages; the helper
//! itself runs at the first request that needs it (see `crate::transport`'s `helper` module).
//! `m2r explain --json` shows only what Maven computes: credentials from the settings.

use super::auth::ServerEntry;
use super::model::{
    Authentication, CredentialHelper, CredentialSource, HelperOrigin, RemoteRepository,
};
use super::netrc::Netrc;
use super::url;
use std::sync::Arc;

/// The environment variable naming a credential helper for every repository.
pub const HELPER_VARIABLE: &str = "M2R_CREDENTIAL_HELPER";

/// The sources beyond Maven a session consults (none by default: exactly Maven).
#[derive(Debug, Clone, Default)]
pub struct CredentialSources {
    /// The `.netrc` file, when one was read.
    pub netrc: Option<Arc<Netrc>>,
    /// Whether `<server>`s may name credential helpers.
    pub server_helpers: bool,
    /// The helper of [`HELPER_VARIABLE`].
    pub env_helper: Option<CredentialHelper>,
}

impl CredentialSources {
    /// The helper of `M2R_CREDENTIAL_HELPER` in `env`, if set and not blank.
    pub fn env_helper(value: Option<&str>) -> Option<CredentialHelper> {
        value
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(|command| CredentialHelper {
                command: command.to_string(),
                origin: HelperOrigin::Environment {
                    variable: HELPER_VARIABLE.to_string(),
                },
                username: None,
            })
    }

    /// Warnings of the sources (netrc problems); no secrets.
    pub fn warnings(&self) -> Vec<String> {
        self.netrc
            .as_ref()
            .map(|n| n.warnings.clone())
            .unwrap_or_default()
    }
}

/// What [`choose`] decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// No credentials.
    None,
    /// The `<server>`'s authentication (Maven's).
    Server(Authentication),
    /// Static credentials from another source.
    Static(Authentication, CredentialSource),
    /// A helper, asked at the first request.
    Helper(CredentialHelper),
}

/// The credentials `repo` gets (see the module docs for the order).
pub fn choose(
    repo: &RemoteRepository,
    server: Option<&ServerEntry>,
    sources: &CredentialSources,
) -> Choice {
    let server_auth = server.and_then(|s| s.authentication.clone());
    if let (Some(a), Some(s)) = (&server_auth, server) {
        if s.has_secret {
            return Choice::Server(a.clone());
        }
    }
    if sources.server_helpers {
        if let Some(h) = server.and_then(|s| s.credential_helper.clone()) {
            return Choice::Helper(h);
        }
    }
    if let Some(a) = server_auth {
        return Choice::Server(a);
    }
    let host = url::authority(repo.url.as_written());
    let netrc = |default: bool| -> Option<Choice> {
        let n = sources.netrc.as_ref()?;
        let (host, port) = host.as_ref()?;
        let protocol = url::normalize_web_protocol(url::parse(repo.url.as_written()).protocol);
        let port = port.or_else(|| url::default_port(&protocol));
        let e = n.lookup(host, port)?;
        if e.machine.is_none() != default {
            return None;
        }
        Some(Choice::Static(
            Authentication {
                username: Some(e.login.clone().unwrap_or_default()),
                password: e.password.clone(),
                ..Authentication::default()
            },
            CredentialSource::Netrc {
                path: n.path.clone(),
                line: e.line,
                entry: e.describe(),
            },
        ))
    };
    if let Some(c) = netrc(false) {
        return c;
    }
    if let Some(h) = &sources.env_helper {
        return Choice::Helper(h.clone());
    }
    netrc(true).unwrap_or(Choice::None)
}

/// Applies [`choose`] to `repo`: sets its authentication and credential source. Credentials
/// the caller put on the repository are only replaced by a `<server>`'s (as in Maven). With a
/// helper, `authentication` keeps what the `<server>` gives (Maven's answer); the helper's
/// answer replaces it at request time.
pub(crate) fn apply(
    repo: &mut RemoteRepository,
    server: Option<&ServerEntry>,
    sources: &CredentialSources,
) {
    let given = repo.authentication.is_some() || repo.credential_source.is_some();
    match choose(repo, server, sources) {
        Choice::None => {}
        Choice::Static(..) | Choice::Helper(_) if given => {}
        Choice::Server(a) => {
            repo.authentication = Some(a);
            repo.credential_source = server.map(|s| CredentialSource::Server { id: s.id.clone() });
        }
        Choice::Static(a, source) => {
            repo.authentication = Some(a);
            repo.credential_source = Some(source);
        }
        Choice::Helper(h) => {
            // What Maven would send stays (a `<server>`'s username alone): `explain --json`
            // shows it, and it is used when the helper has nothing for this repository.
            repo.authentication = server.and_then(|s| s.authentication.clone());
            repo.credential_source = Some(CredentialSource::Helper(h));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Origin;
    use crate::Secret;

    fn server(user: Option<&str>, secret: bool, helper: Option<&str>) -> ServerEntry {
        ServerEntry {
            id: "corp".into(),
            authentication: (user.is_some() || secret).then(|| Authentication {
                username: user.map(str::to_string),
                password: secret.then(|| Secret::new("srv-pw")),
                ..Authentication::default()
            }),
            transport: Default::default(),
            warnings: Vec::new(),
            origin: Origin::default(),
            has_secret: secret,
            credential_helper: helper.map(|c| CredentialHelper {
                command: c.into(),
                origin: HelperOrigin::Server {
                    id: "corp".into(),
                    location: "s.xml:3:5".into(),
                },
                username: user.map(str::to_string),
            }),
        }
    }

    fn sources(netrc: &str, env_helper: Option<&str>) -> CredentialSources {
        CredentialSources {
            netrc: Some(Arc::new(Netrc::parse(netrc, "/h/.netrc"))),
            server_helpers: true,
            env_helper: CredentialSources::env_helper(env_helper),
        }
    }

    /// A short name for the choice: `server:USER`, `netrc:LINE`, `helper:COMMAND`, `none`.
    fn name(c: &Choice) -> String {
        match c {
            Choice::None => "none".into(),
            Choice::Server(a) => format!("server:{}", a.username.as_deref().unwrap_or("")),
            Choice::Static(a, CredentialSource::Netrc { line, .. }) => format!(
                "netrc:{line}:{}:{}",
                a.username.as_deref().unwrap_or(""),
                a.password.as_ref().map(|p| p.expose()).unwrap_or("")
            ),
            Choice::Static(..) => "static".into(),
            Choice::Helper(h) => format!("helper:{}", h.command),
        }
    }

    #[test]
    fn precedence_table() {
        let netrc = "machine repo.example.com login n password \"p w\"\n\
                     machine other.example login o password o\n\
                     default login anon password anon\n";
        let repo = RemoteRepository::new("corp", "https://repo.example.com/m2");
        let elsewhere = RemoteRepository::new("corp", "https://unknown.example/m2");
        let on_port = RemoteRepository::new("corp", "https://other.example:8443/m2");
        let file = RemoteRepository::new("corp", "file:///srv/m2");
        let s_pw = server(Some("ci"), true, None);
        let s_pw_helper = server(Some("ci"), true, Some("h-server"));
        let s_user_helper = server(Some("ci"), false, Some("h-server"));
        let s_helper = server(None, false, Some("h-server"));
        let s_user = server(Some("ci"), false, None);
        let s_config_only = server(None, false, None);
        let both = sources(netrc, Some("h-env"));
        let netrc_only = sources(netrc, None);
        let nothing = CredentialSources::default();
        let cases: Vec<(
            &RemoteRepository,
            Option<&ServerEntry>,
            &CredentialSources,
            &str,
        )> = vec![
            // the <server> with a password wins over everything (Maven's answer)
            (&repo, Some(&s_pw), &both, "server:ci"),
            (&repo, Some(&s_pw_helper), &both, "server:ci"),
            // a server naming a helper and no password: the helper
            (&repo, Some(&s_user_helper), &both, "helper:h-server"),
            (&repo, Some(&s_helper), &both, "helper:h-server"),
            // a username alone is still Maven's authentication
            (&repo, Some(&s_user), &both, "server:ci"),
            // no credentials in the server: netrc machine, then the env helper, then default
            (&repo, Some(&s_config_only), &both, "netrc:1:n:p w"),
            (&repo, None, &both, "netrc:1:n:p w"),
            (&elsewhere, None, &both, "helper:h-env"),
            (&elsewhere, None, &netrc_only, "netrc:3:anon:anon"),
            (&on_port, None, &netrc_only, "netrc:2:o:o"),
            (&file, None, &netrc_only, "none"),
            (&repo, None, &nothing, "none"),
        ];
        for (i, (r, s, src, want)) in cases.into_iter().enumerate() {
            assert_eq!(name(&choose(r, s, src)), want, "case {i}");
        }
        // server helpers switched off: the server's own authentication, else the rest
        let off = CredentialSources {
            server_helpers: false,
            ..both.clone()
        };
        assert_eq!(
            name(&choose(&repo, Some(&s_user_helper), &off)),
            "server:ci"
        );
        assert_eq!(name(&choose(&repo, Some(&s_helper), &off)), "netrc:1:n:p w");
    }

    #[test]
    fn netrc_ports_and_the_source_recorded() {
        let src = sources("machine h.example:8443 login a password b\n", None);
        assert_eq!(
            name(&choose(
                &RemoteRepository::new("r", "https://h.example/"),
                None,
                &src
            )),
            "none",
            "a port written in the netrc must match (443 here)"
        );
        let mut r = RemoteRepository::new("r", "https://h.example:8443/");
        apply(&mut r, None, &src);
        assert_eq!(
            r.credential_source,
            Some(CredentialSource::Netrc {
                path: "/h/.netrc".into(),
                line: 1,
                entry: "machine h.example:8443".into()
            })
        );
        assert_eq!(
            r.credential_source.as_ref().unwrap().to_string(),
            "netrc /h/.netrc:1 (machine h.example:8443)"
        );
        assert_eq!(CredentialSources::env_helper(Some("  ")), None);
        // credentials the caller set are not replaced by a source beyond Maven
        let mut given = RemoteRepository::new("r", "https://h.example:8443/");
        given.authentication = Some(Authentication {
            username: Some("api".into()),
            ..Authentication::default()
        });
        apply(&mut given, None, &src);
        assert_eq!(
            given.authentication.unwrap().username.as_deref(),
            Some("api")
        );
        assert_eq!(given.credential_source, None);
    }
}
