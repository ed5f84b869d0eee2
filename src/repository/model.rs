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

/// Username/password (and private key) credentials for a repository or a proxy.
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
    SystemProperties,
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
    /// Credentials of the server entry with this id.
    pub authentication: Option<Authentication>,
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
