//! The session's credentials: every server password/passphrase and proxy password of the
//! settings, decrypted on first use and then remembered ([`Credential`]).
//!
//! The settings model holds [`SettingsSecret`]s (as written, maybe `{...}`); this store is the
//! only place that turns them into [`Secret`]s, through one caching [`Decryptor`] (every file
//! read once, every master password obtained once, every distinct value decrypted once). A
//! slot per settings entry and field is filled at most once, so a download that touches three
//! repositories of a settings file with fifty Maven 4 secrets runs three key derivations;
//! `m2r explain`, which shows every entry, asks for all of them at once and they are decrypted
//! in parallel ([`CredentialStore::decrypt_all`]).
//!
//! A value that cannot be decrypted stays a [`Credential::Undecryptable`]: Maven 3 would send
//! the text as written (and `explain --json` prints it, as Maven does), m2resolver never sends
//! it, and the failure becomes a `decrypt` problem naming the entry and where it was written.
//!
//! Not owned here: which entries a build uses (the session's injection decides) and the
//! ciphers ([`crate::security`]).

use super::request::RequestEntries;
use crate::repository::{CredentialOpener, ProxySource, RemoteRepository};
use crate::secret::{Secret, SettingsSecret};
use crate::security::{Decryptor, SecurityError};
use crate::settings::{Origin, Settings, SettingsProblem, Severity, Stage};
use std::collections::HashMap;
use std::sync::OnceLock;

/// A settings credential after decryption.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Credential {
    /// Written in clear in the settings.
    Plain(Secret),
    /// Written encrypted and decrypted.
    Decrypted(Secret),
    /// Written encrypted and not decryptable: never sent.
    Undecryptable {
        /// The text as written.
        as_written: SettingsSecret,
        /// Why it could not be decrypted.
        error: SecurityError,
    },
}

impl Credential {
    /// The clear text to send, if there is one.
    ///
    /// ```
    /// use m2resolver::session::Credential;
    /// use m2resolver::Secret;
    /// assert_eq!(Credential::Plain(Secret::new("pw")).usable().unwrap().expose(), "pw");
    /// ```
    pub fn usable(&self) -> Option<&Secret> {
        match self {
            Credential::Plain(s) | Credential::Decrypted(s) => Some(s),
            Credential::Undecryptable { .. } => None,
        }
    }

    /// The text Maven 3 works with: the clear text, or the text as written when decryption
    /// failed. Exposes the secret: only for the `explain --json` contract and `--show-secrets`.
    pub fn expose_as_maven_uses(&self) -> &str {
        match self {
            Credential::Plain(s) | Credential::Decrypted(s) => s.expose(),
            Credential::Undecryptable { as_written, .. } => as_written.as_written(),
        }
    }

    /// Decrypts (or passes through) one written value.
    fn open(decryptor: &Decryptor, written: &SettingsSecret) -> Credential {
        match decryptor.decrypt(written.as_written()) {
            Ok(clear) if written.is_encrypted() => Credential::Decrypted(clear),
            Ok(clear) => Credential::Plain(clear),
            Err(error) => Credential::Undecryptable {
                as_written: written.clone(),
                error,
            },
        }
    }
}

/// Which settings entry a credential belongs to (for problems).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Field {
    /// `servers[i].password`.
    ServerPassword(usize),
    /// `servers[i].passphrase`.
    ServerPassphrase(usize),
    /// `proxies[i].password`.
    ProxyPassword(usize),
}

type Slot = OnceLock<Option<Credential>>;

/// Written values and their lazily filled slots, index-aligned with the settings lists.
#[derive(Debug)]
pub(crate) struct CredentialStore {
    decryptor: Decryptor,
    servers: Vec<ServerSlots>,
    proxies: Vec<EntrySlot>,
}

#[derive(Debug)]
struct EntrySlot {
    id: String,
    origin: Origin,
    written: Option<SettingsSecret>,
    slot: Slot,
}

#[derive(Debug)]
struct ServerSlots {
    password: EntrySlot,
    passphrase: EntrySlot,
}

impl EntrySlot {
    fn new(id: &str, origin: &Origin, written: &Option<SettingsSecret>) -> Self {
        EntrySlot {
            id: id.to_string(),
            origin: origin.clone(),
            written: written.clone(),
            slot: OnceLock::new(),
        }
    }

    fn get(&self, decryptor: &Decryptor) -> Option<&Credential> {
        self.slot
            .get_or_init(|| {
                self.written
                    .as_ref()
                    .map(|w| Credential::open(decryptor, w))
            })
            .as_ref()
    }
}

impl CredentialStore {
    /// A store over every server and proxy of `settings`; nothing is decrypted yet.
    pub(crate) fn new(decryptor: Decryptor, settings: &Settings) -> Self {
        CredentialStore {
            decryptor,
            servers: settings
                .servers
                .iter()
                .map(|s| ServerSlots {
                    password: EntrySlot::new(&s.id, &s.origin, &s.password),
                    passphrase: EntrySlot::new(&s.id, &s.origin, &s.passphrase),
                })
                .collect(),
            proxies: settings
                .proxies
                .iter()
                .map(|p| EntrySlot::new(&p.id, &p.origin, &p.password))
                .collect(),
        }
    }

    /// The decryptor (for header values and the encrypt commands).
    pub(crate) fn decryptor(&self) -> &Decryptor {
        &self.decryptor
    }

    fn entry(&self, field: Field) -> Option<&EntrySlot> {
        match field {
            Field::ServerPassword(i) => self.servers.get(i).map(|s| &s.password),
            Field::ServerPassphrase(i) => self.servers.get(i).map(|s| &s.passphrase),
            Field::ProxyPassword(i) => self.proxies.get(i),
        }
    }

    /// The credential of `field`, decrypted on first use; `None` when the settings have none.
    pub(crate) fn get(&self, field: Field) -> Option<&Credential> {
        self.entry(field)?.get(&self.decryptor)
    }

    /// The `decrypt` problem of `field`, when its value could not be decrypted.
    pub(crate) fn problem(&self, field: Field) -> Option<SettingsProblem> {
        let entry = self.entry(field)?;
        let Some(Credential::Undecryptable { error, .. }) = entry.get(&self.decryptor) else {
            return None;
        };
        let (kind, name) = match field {
            Field::ServerPassword(_) => ("server", "password"),
            Field::ServerPassphrase(_) => ("server", "passphrase"),
            Field::ProxyPassword(_) => ("proxy", "password"),
        };
        let origin = entry.origin.describe();
        Some(SettingsProblem::new(
            Severity::Error,
            Stage::Decrypt,
            origin.clone(),
            format!(
                "Failed to decrypt {name} for {kind} {}: {} ({kind} written at {origin}); \
                 m2resolver does not send it",
                entry.id,
                crate::printable::error_chain(error)
            ),
        ))
    }

    /// Every field of every entry.
    fn fields(&self) -> impl Iterator<Item = Field> + '_ {
        (0..self.servers.len())
            .flat_map(|i| [Field::ServerPassword(i), Field::ServerPassphrase(i)])
            .chain((0..self.proxies.len()).map(Field::ProxyPassword))
    }

    /// Decrypts every credential not decrypted yet, in parallel when there are several (a
    /// Maven 4 value costs a PBKDF2 run; equal values wait for one another in the decryptor).
    pub(crate) fn decrypt_all(&self) {
        let pending: Vec<Field> = self
            .fields()
            .filter(|f| {
                self.entry(*f)
                    .is_some_and(|e| e.written.is_some() && e.slot.get().is_none())
            })
            .collect();
        let threads = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        if pending.len() < 4 || threads < 2 {
            pending.iter().for_each(|f| {
                self.get(*f);
            });
            return;
        }
        let chunk = pending.len().div_ceil(threads);
        std::thread::scope(|scope| {
            for part in pending.chunks(chunk) {
                scope.spawn(move || {
                    part.iter().for_each(|f| {
                        self.get(*f);
                    })
                });
            }
        });
    }
}

/// The store with the ids that lead to its entries: what the session and its selectors'
/// [`CredentialOpener`] use to fill in the credentials of an injected repository.
#[derive(Debug)]
pub(crate) struct SessionCredentials {
    pub(crate) store: CredentialStore,
    /// Repository id (a server id, or an alias when honoured) → index into `settings.servers`,
    /// resolved as the authentication selector resolves it (primary ids first, then aliases,
    /// first claim wins).
    servers: HashMap<String, usize>,
    /// Active proxy id → index into `settings.proxies` (the first active one per id).
    proxies: HashMap<String, usize>,
}

impl SessionCredentials {
    pub(crate) fn new(
        store: CredentialStore,
        settings: &Settings,
        entries: &RequestEntries,
        aliases: bool,
    ) -> Self {
        let mut servers = HashMap::new();
        for &i in &entries.server_idx {
            servers.insert(settings.servers[i].id.clone(), i);
        }
        if aliases {
            for &i in &entries.server_idx {
                for alias in &settings.servers[i].aliases {
                    servers.entry(alias.clone()).or_insert(i);
                }
            }
        }
        let proxies = entries
            .proxy_idx
            .iter()
            .map(|&i| (settings.proxies[i].id.clone(), i))
            .collect();
        SessionCredentials {
            store,
            servers,
            proxies,
        }
    }

    /// Index into `settings.servers` of the server whose credentials a repository id gets.
    pub(crate) fn server_for(&self, repository_id: &str) -> Option<usize> {
        self.servers.get(repository_id).copied()
    }

    /// Index into `settings.proxies` of an active proxy id.
    pub(crate) fn proxy_for(&self, proxy_id: &str) -> Option<usize> {
        self.proxies.get(proxy_id).copied()
    }

    /// Fills in the clear password and passphrase of `repo` and of its settings proxy where
    /// they are missing; returns the fields consulted (to report those that failed).
    pub(crate) fn fill_fields(&self, repo: &mut RemoteRepository) -> Vec<Field> {
        let mut fields = Vec::new();
        let mut open = |field: Field, id: &str, withheld: &mut Option<String>| {
            fields.push(field);
            let credential = self.store.get(field)?;
            if let Credential::Undecryptable { error, .. } = credential {
                let (what, kind) = match field {
                    Field::ServerPassword(_) => ("password", "server"),
                    Field::ServerPassphrase(_) => ("passphrase", "server"),
                    Field::ProxyPassword(_) => ("password", "proxy"),
                };
                *withheld = Some(format!(
                    "the {what} of {kind} `{id}` could not be decrypted: {}",
                    crate::printable::error_chain(error)
                ));
            }
            credential.usable().cloned()
        };
        if let (Some(auth), Some(i)) = (repo.authentication.as_mut(), self.server_for(&repo.id)) {
            if auth.password.is_none() {
                auth.password = open(Field::ServerPassword(i), &repo.id, &mut auth.withheld);
            }
            if auth.private_key.is_some() && auth.passphrase.is_none() {
                let mut withheld = None;
                auth.passphrase = open(Field::ServerPassphrase(i), &repo.id, &mut withheld);
                auth.withheld = auth.withheld.take().or(withheld);
            }
        }
        if let Some(proxy) = repo.proxy.as_mut() {
            let (index, id) = match &proxy.source {
                ProxySource::Settings { id } => (self.proxy_for(id), id.clone()),
                _ => (None, String::new()),
            };
            if let (Some(auth), Some(i)) = (proxy.auth.as_mut(), index) {
                if auth.password.is_none() {
                    auth.password = open(Field::ProxyPassword(i), &id, &mut auth.withheld);
                }
            }
        }
        fields
    }
}

impl CredentialOpener for SessionCredentials {
    fn fill(&self, repo: &mut RemoteRepository) {
        self.fill_fields(repo);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::security::SecurityContext;
    use crate::settings::{Proxy, Server};

    fn store(settings: &Settings) -> CredentialStore {
        let dir = std::env::temp_dir().join("m2r-credentials-test-no-home");
        CredentialStore::new(Decryptor::new(SecurityContext::new(&dir, &dir)), settings)
    }

    #[test]
    fn plain_values_pass_and_undecryptable_ones_become_problems_with_origin() {
        let settings = Settings {
            servers: vec![Server {
                id: "corp".into(),
                password: Some(SettingsSecret::new("plain")),
                passphrase: Some(SettingsSecret::new("{COQLCE6DU6GtcS5P=}")),
                origin: Origin {
                    line: 7,
                    column: 5,
                    ..Origin::default()
                },
                ..Server::default()
            }],
            proxies: vec![Proxy::default()],
            ..Settings::default()
        };
        let s = store(&settings);
        let pw = s.get(Field::ServerPassword(0)).unwrap();
        assert!(matches!(pw, Credential::Plain(_)));
        assert_eq!(pw.usable().unwrap().expose(), "plain");
        let pp = s.get(Field::ServerPassphrase(0)).unwrap();
        assert!(pp.usable().is_none());
        assert_eq!(pp.expose_as_maven_uses(), "{COQLCE6DU6GtcS5P=}");
        assert!(!format!("{pp:?}").contains("COQLCE6"));
        let problem = s.problem(Field::ServerPassphrase(0)).unwrap();
        assert_eq!(problem.stage, Stage::Decrypt);
        assert!(
            problem
                .message
                .contains("Failed to decrypt passphrase for server corp")
                && problem.message.contains("<settings>:7:5"),
            "{}",
            problem.message
        );
        assert!(s.problem(Field::ServerPassword(0)).is_none());
        assert!(s.get(Field::ProxyPassword(0)).is_none(), "no password");
        assert!(s.get(Field::ProxyPassword(9)).is_none(), "no such proxy");
    }
}
