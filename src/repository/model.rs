//! [`RemoteRepository`]: a repository as the downloader sees it, after mirrors, proxies and
//! authentication were applied (Maven Resolver's `RemoteRepository`).

use super::url::RepositoryUrl;
use crate::secret::Secret;
use std::time::Duration;

/// Checksum policy of a repository (`fail` > `warn` > `ignore` in strictness).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChecksumPolicy {
    /// Checksums are not verified.
    Ignore,
    /// A mismatch is reported and the file accepted (Maven 3 default).
    Warn,
    /// A mismatch fails the download.
    Fail,
}

impl ChecksumPolicy {
    /// Maven's spelling.
    pub fn as_str(&self) -> &'static str {
        match self {
            ChecksumPolicy::Ignore => "ignore",
            ChecksumPolicy::Warn => "warn",
            ChecksumPolicy::Fail => "fail",
        }
    }
}

/// One side (releases or snapshots) of a repository's policy.
///
/// Policies are kept as Maven's strings (`updatePolicy` `daily`, `always`, `never`, `interval:N`;
/// `checksumPolicy` `warn`, `fail`, `ignore`) because Maven passes unknown strings through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    /// Whether artifacts of this kind are fetched from the repository.
    pub enabled: bool,
    /// `always`, `daily`, `never`, `interval:N` (minutes).
    pub update_policy: String,
    /// `fail`, `warn` or `ignore`.
    pub checksum_policy: String,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            enabled: true,
            update_policy: "daily".into(),
            checksum_policy: "warn".into(),
        }
    }
}

/// Username/password (and private key) credentials for a repository or a proxy, or a bearer
/// token from a credential helper.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Authentication {
    /// User name.
    pub username: Option<String>,
    /// Decrypted password.
    pub password: Option<Secret>,
    /// Private key path (SSH transports only).
    pub private_key: Option<String>,
    /// Decrypted private key passphrase.
    pub passphrase: Option<Secret>,
    /// A bearer token (a credential helper's `authtype=Bearer` answer): sent as
    /// `Authorization: Bearer <token>` instead of Basic, to the repository's origin only.
    pub token: Option<Secret>,
    /// Why the password is missing when the settings have one: it could not be decrypted (the
    /// reason, naming the settings entry). Then no credentials at all are sent for this server
    /// or proxy — not the user name with an empty password — and a `401`/`407` says why.
    pub withheld: Option<String>,
}

impl Authentication {
    /// The user name and password to send, or `None` when there is no user name or the
    /// password was withheld.
    pub fn sendable(&self) -> Option<(&str, Option<&Secret>)> {
        match (&self.username, &self.withheld) {
            (Some(u), None) => Some((u.as_str(), self.password.as_ref())),
            _ => None,
        }
    }
}

/// Where a repository's credentials come from (see [`crate::repository`] for the order in
/// which the sources are consulted). Settings `<server>` entries are Maven's only source; the
/// others are beyond Maven and apply only to repositories no `<server>` gives credentials to.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CredentialSource {
    /// The settings `<server>` with this id (the mirror's id when mirrored).
    Server {
        /// The server id.
        id: String,
    },
    /// An entry of a `.netrc` file (`m2r explain` shows `netrc FILE:LINE`).
    Netrc {
        /// The file.
        path: std::path::PathBuf,
        /// 1-based line of the entry's `machine` or `default` token.
        line: usize,
        /// `machine HOST[:PORT]` or `default`.
        entry: String,
    },
    /// A credential helper, asked when the first request needs the credentials (the answer is
    /// cached for the session, until its expiry).
    Helper(CredentialHelper),
}

impl std::fmt::Display for CredentialSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CredentialSource::Server { id } => write!(f, "settings <server> `{id}`"),
            CredentialSource::Netrc { path, line, entry } => {
                write!(f, "netrc {}:{line} ({entry})", path.display())
            }
            CredentialSource::Helper(h) => write!(f, "{h}"),
        }
    }
}

/// A command that prints credentials for a repository (the protocol is
/// [`crate::transport`]'s `helper` module, documented in the README).
#[derive(Clone, PartialEq, Eq)]
pub struct CredentialHelper {
    /// The command line, run with `get` appended by the system shell.
    pub command: String,
    /// Who named it.
    pub origin: HelperOrigin,
    /// The user name the settings `<server>` gives, passed to the helper as `username=`.
    pub username: Option<String>,
}

impl CredentialHelper {
    /// The program's name (the command's first word): what messages show, since the rest of
    /// the command line may hold a secret.
    pub fn program(&self) -> &str {
        self.command.split_whitespace().next().unwrap_or("")
    }
}

impl std::fmt::Debug for CredentialHelper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CredentialHelper")
            .field("program", &self.program())
            .field("origin", &self.origin)
            .field("username", &self.username)
            .finish()
    }
}

impl std::fmt::Display for CredentialHelper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "credential helper `{}` ({})",
            self.program(),
            self.origin
        )
    }
}

/// Who named a [`CredentialHelper`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HelperOrigin {
    /// `<server><configuration><credentialHelper>` of this server id, written at `location`.
    Server {
        /// The server id.
        id: String,
        /// `file:line:column` of the `<server>` element.
        location: String,
    },
    /// An environment variable (`M2R_CREDENTIAL_HELPER`).
    Environment {
        /// The variable's name.
        variable: String,
    },
}

impl std::fmt::Display for HelperOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HelperOrigin::Server { id, location } => {
                write!(f, "named by <server> `{id}` at {location}")
            }
            HelperOrigin::Environment { variable } => write!(f, "from {variable}"),
        }
    }
}

/// Where the proxy that serves a repository came from.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProxySource {
    /// A settings `<proxy>` with this id.
    Settings {
        /// The proxy's id.
        id: String,
    },
    /// An environment variable such as `HTTPS_PROXY` (beyond Maven).
    Environment {
        /// The variable's name.
        variable: String,
    },
    /// JVM-style system properties (`socksProxyHost`, `http.proxyHost`, ...).
    SystemProperties {
        /// The host property that named the proxy (`https.proxyHost`).
        property: String,
        /// Where it was defined: `-D`, `system property`, `MAVEN_OPTS` or `FILE:LINE`
        /// (`.mvn/jvm.config`).
        origin: String,
    },
}

impl std::fmt::Display for ProxySource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProxySource::Settings { id } => write!(f, "settings proxy `{id}`"),
            ProxySource::Environment { variable } => write!(f, "environment variable {variable}"),
            ProxySource::SystemProperties { property, origin } => {
                write!(f, "JVM property {property} ({origin})")
            }
        }
    }
}

/// The proxy a repository is reached through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepositoryProxy {
    /// Maven's proxy type: the repository protocol it serves (`http`, `https`), or `socks5`/`socks5h`.
    pub kind: String,
    /// Proxy host.
    pub host: String,
    /// Proxy port.
    pub port: i32,
    /// Proxy credentials.
    pub auth: Option<Authentication>,
    /// Where it came from.
    pub source: ProxySource,
}

/// Transport settings from the server entry with the repository's id (`<configuration>` etc.).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TransportConfig {
    /// `httpHeaders/property/{name,value}`, in order. Values are secrets: repository managers
    /// take tokens in headers (`Authorization`, `Private-Token`, `X-JFrog-Art-Api`).
    pub headers: Vec<(String, Secret)>,
    /// `connectTimeout` (or legacy `httpConfiguration/all/connectionTimeout`).
    pub connect_timeout: Option<Duration>,
    /// `requestTimeout` (or legacy `httpConfiguration/all/readTimeout`, or `timeout`).
    pub request_timeout: Option<Duration>,
    /// `filePermissions`.
    pub file_permissions: Option<String>,
    /// `directoryPermissions`.
    pub directory_permissions: Option<String>,
}

/// A remote repository ready for the downloader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteRepository {
    /// Repository id (the mirror's id once a mirror applies).
    pub id: String,
    /// Base URL (prints without user info; [`RepositoryUrl::as_written`] gives the text).
    pub url: RepositoryUrl,
    /// Content type / layout (`default`).
    pub layout: String,
    /// Release policy.
    pub releases: Policy,
    /// Snapshot policy.
    pub snapshots: Policy,
    /// A blocked mirror: every download through it fails.
    pub blocked: bool,
    /// Repository-manager flag (Maven always passes false for settings mirrors).
    pub repository_manager: bool,
    /// The repositories this one mirrors, in Maven's order.
    pub mirrored_repositories: Vec<RemoteRepository>,
    /// The proxy to reach it through.
    pub proxy: Option<RepositoryProxy>,
    /// Credentials of the server entry with this id (or from a source beyond Maven, see
    /// `credential_source`).
    pub authentication: Option<Authentication>,
    /// Where `authentication` came from, or the credential helper to ask at the first request
    /// (its answer then replaces `authentication`, which holds what the `<server>` gives, if
    /// anything). `None`: no credentials, or set by the caller.
    pub credential_source: Option<CredentialSource>,
    /// Headers, timeouts and permissions of the server entry with this id.
    pub transport: TransportConfig,
}

impl RemoteRepository {
    /// A plain repository with default policies.
    pub fn new(id: impl Into<String>, url: impl Into<RepositoryUrl>) -> Self {
        RemoteRepository {
            id: id.into(),
            url: url.into(),
            layout: "default".into(),
            releases: Policy::default(),
            snapshots: Policy::default(),
            blocked: false,
            repository_manager: false,
            mirrored_repositories: Vec::new(),
            proxy: None,
            authentication: None,
            credential_source: None,
            transport: TransportConfig::default(),
        }
    }

    /// Maven Central as Maven 3.8 declares it in its super POM (`central`,
    /// `https://repo.maven.apache.org/maven2`, snapshots disabled).
    ///
    /// ```
    /// let central = m2resolver::repository::RemoteRepository::central();
    /// assert_eq!(central.id, "central");
    /// assert!(!central.snapshots.enabled);
    /// ```
    pub fn central() -> Self {
        let mut central = RemoteRepository::new("central", "https://repo.maven.apache.org/maven2");
        central.snapshots.enabled = false;
        central
    }

    /// The policy for snapshots (`true`) or releases (`false`).
    pub fn policy(&self, snapshot: bool) -> &Policy {
        if snapshot {
            &self.snapshots
        } else {
            &self.releases
        }
    }
}
