//! The settings model: every element of settings schemas 1.0.0–1.2.0 and Maven 4's additions
//! (top-level `repositories`/`pluginRepositories`, server `aliases`, activation `packaging` and
//! `condition`), with Maven's defaults.
//!
//! This module owns plain data only. Reading ([`super::xml`]), merging ([`super::merge`]),
//! interpolation ([`super::interpolate`]) and validation ([`super::validate`]) live beside it.
//! Every list element remembers where it was written ([`Origin`]) so diagnostics and
//! `m2r explain` can point at the file, line and column.

use crate::secret::SettingsSecret;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

/// Which settings file an element comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SourceLevel {
    /// The installation ("global") settings, `${maven.home}/conf/settings.xml` or `-gs`.
    Global,
    /// Maven 4 project settings, `.mvn/settings.xml`.
    Project,
    /// The user settings, `~/.m2/settings.xml` or `-s`.
    #[default]
    User,
    /// Supplied programmatically by the embedding tool.
    Api,
}

/// Where an element was written: file and 1-based position of its start tag.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Origin {
    /// Which settings level.
    pub level: SourceLevel,
    /// The file, when read from one.
    pub file: Option<Arc<Path>>,
    /// 1-based line of the element's start tag (0 when unknown).
    pub line: u32,
    /// 1-based column of the element's start tag (0 when unknown).
    pub column: u32,
}

impl Origin {
    /// `file:line:column`, or what is known of it.
    pub fn describe(&self) -> String {
        let file = self
            .file
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "<settings>".to_string());
        if self.line > 0 {
            format!("{file}:{}:{}", self.line, self.column)
        } else {
            file
        }
    }
}

/// The whole settings document.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// `<localRepository>`; no model default (the effective default is `${user.home}/.m2/repository`).
    pub local_repository: Option<String>,
    /// `<interactiveMode>`, default true.
    pub interactive_mode: bool,
    /// `<usePluginRegistry>`, deprecated, default false.
    pub use_plugin_registry: bool,
    /// `<offline>`, default false.
    pub offline: bool,
    /// `<proxies>`, in document order.
    pub proxies: Vec<Proxy>,
    /// `<servers>`, in document order.
    pub servers: Vec<Server>,
    /// `<mirrors>`, in document order.
    pub mirrors: Vec<Mirror>,
    /// Maven 4 (1.3.0) top-level `<repositories>`.
    pub repositories: Vec<Repository>,
    /// Maven 4 (1.3.0) top-level `<pluginRepositories>`.
    pub plugin_repositories: Vec<Repository>,
    /// `<profiles>`, in document order.
    pub profiles: Vec<Profile>,
    /// `<activeProfiles>`.
    pub active_profiles: Vec<String>,
    /// `<pluginGroups>`.
    pub plugin_groups: Vec<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            local_repository: None,
            interactive_mode: true,
            use_plugin_registry: false,
            offline: false,
            proxies: Vec::new(),
            servers: Vec::new(),
            mirrors: Vec::new(),
            repositories: Vec::new(),
            plugin_repositories: Vec::new(),
            profiles: Vec::new(),
            active_profiles: Vec::new(),
            plugin_groups: Vec::new(),
        }
    }
}

/// `<proxy>`.
#[derive(Debug, Clone, PartialEq)]
pub struct Proxy {
    /// `<id>`, default `default`.
    pub id: String,
    /// `<active>`, default true.
    pub active: bool,
    /// `<protocol>`: the *repository* protocol this proxy serves, default `http`.
    pub protocol: String,
    /// `<username>`.
    pub username: Option<String>,
    /// `<password>`, as written (possibly `{...}` encrypted).
    pub password: Option<SettingsSecret>,
    /// `<port>`, default 8080; 0 when the text is not an integer (as Maven 3's lenient reader).
    pub port: i32,
    /// `<host>` (required).
    pub host: Option<String>,
    /// `<nonProxyHosts>`: `|`-separated patterns with `*`.
    pub non_proxy_hosts: Option<String>,
    /// Where it was written.
    pub origin: Origin,
}

impl Default for Proxy {
    fn default() -> Self {
        Proxy {
            id: "default".into(),
            active: true,
            protocol: "http".into(),
            username: None,
            password: None,
            port: 8080,
            host: None,
            non_proxy_hosts: None,
            origin: Origin::default(),
        }
    }
}

/// `<server>`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Server {
    /// `<id>`, default `default`.
    pub id: String,
    /// `<username>`.
    pub username: Option<String>,
    /// `<password>`, as written (possibly `{...}` encrypted).
    pub password: Option<SettingsSecret>,
    /// `<privateKey>`: path to a private key file.
    pub private_key: Option<String>,
    /// `<passphrase>`, as written (possibly `{...}` encrypted).
    pub passphrase: Option<SettingsSecret>,
    /// `<filePermissions>`.
    pub file_permissions: Option<String>,
    /// `<directoryPermissions>`.
    pub directory_permissions: Option<String>,
    /// `<configuration>`: a free XML DOM (httpHeaders, timeouts, Wagon settings).
    pub configuration: Option<XmlElement>,
    /// Maven 4 `<aliases>`: further ids this credential set answers to.
    pub aliases: Vec<String>,
    /// Where it was written.
    pub origin: Origin,
}

/// `<mirror>`. `Debug` shows the URL without its user info.
#[derive(Clone, PartialEq)]
pub struct Mirror {
    /// `<id>`, default `default`.
    pub id: String,
    /// `<mirrorOf>` (required): `*`, `external:*`, `external:http:*`, ids, `!id`, comma-separated.
    pub mirror_of: Option<String>,
    /// `<name>` (display only).
    pub name: Option<String>,
    /// `<url>` (required).
    pub url: Option<String>,
    /// `<layout>`, default `default`.
    pub layout: String,
    /// `<mirrorOfLayouts>`, default `default,legacy`.
    pub mirror_of_layouts: String,
    /// `<blocked>`, default false.
    pub blocked: bool,
    /// Where it was written.
    pub origin: Origin,
}

/// A URL written in a settings file, for `Debug`: without its user info (`https://***@host/`).
fn redacted(url: &Option<String>) -> Option<String> {
    url.as_deref().map(crate::repository::url::redact)
}

impl fmt::Debug for Mirror {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mirror")
            .field("id", &self.id)
            .field("mirror_of", &self.mirror_of)
            .field("name", &self.name)
            .field("url", &redacted(&self.url))
            .field("layout", &self.layout)
            .field("mirror_of_layouts", &self.mirror_of_layouts)
            .field("blocked", &self.blocked)
            .field("origin", &self.origin)
            .finish()
    }
}

impl fmt::Debug for Repository {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Repository")
            .field("id", &self.id)
            .field("name", &self.name)
            .field("url", &redacted(&self.url))
            .field("layout", &self.layout)
            .field("releases", &self.releases)
            .field("snapshots", &self.snapshots)
            .field("origin", &self.origin)
            .finish()
    }
}

impl Default for Mirror {
    fn default() -> Self {
        Mirror {
            id: "default".into(),
            mirror_of: None,
            name: None,
            url: None,
            layout: "default".into(),
            mirror_of_layouts: "default,legacy".into(),
            blocked: false,
            origin: Origin::default(),
        }
    }
}

/// `<profile>`. `Debug` shows property names only (profiles often carry passphrases).
#[derive(Clone, PartialEq)]
pub struct Profile {
    /// `<id>`, default `default`.
    pub id: String,
    /// `<activation>`.
    pub activation: Option<Activation>,
    /// `<properties>`: element name → trimmed text, in document order.
    pub properties: Vec<(String, String)>,
    /// `<repositories>`.
    pub repositories: Vec<Repository>,
    /// `<pluginRepositories>`.
    pub plugin_repositories: Vec<Repository>,
    /// Where it was written.
    pub origin: Origin,
}

impl Default for Profile {
    fn default() -> Self {
        Profile {
            id: "default".into(),
            activation: None,
            properties: Vec::new(),
            repositories: Vec::new(),
            plugin_repositories: Vec::new(),
            origin: Origin::default(),
        }
    }
}

impl fmt::Debug for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Profile")
            .field("id", &self.id)
            .field("activation", &self.activation)
            .field("properties", &Masked(&self.properties))
            .field("repositories", &self.repositories)
            .field("plugin_repositories", &self.plugin_repositories)
            .field("origin", &self.origin)
            .finish()
    }
}

/// Name/value pairs printed as `{name: ***}`.
struct Masked<'a>(&'a [(String, String)]);

impl fmt::Debug for Masked<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.0.iter().map(|(k, _)| (k, format_args!("***"))))
            .finish()
    }
}

impl Profile {
    /// The value of a profile property, if set.
    pub fn property(&self, name: &str) -> Option<&str> {
        self.properties
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// `<activation>`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Activation {
    /// `<activeByDefault>`, default false.
    pub active_by_default: bool,
    /// `<jdk>`: prefix, `!prefix` or a version range.
    pub jdk: Option<String>,
    /// `<os>`.
    pub os: Option<ActivationOs>,
    /// `<property>`.
    pub property: Option<ActivationProperty>,
    /// `<file>`.
    pub file: Option<ActivationFile>,
    /// Maven 4 `<packaging>`.
    pub packaging: Option<String>,
    /// Maven 4 `<condition>` expression.
    pub condition: Option<String>,
}

/// `<activation><os>`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ActivationOs {
    /// `<name>`, `!` negates.
    pub name: Option<String>,
    /// `<family>`, `!` negates.
    pub family: Option<String>,
    /// `<arch>`, `!` negates.
    pub arch: Option<String>,
    /// `<version>`, `regex:` or `!` prefix allowed.
    pub version: Option<String>,
}

/// `<activation><property>`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ActivationProperty {
    /// `<name>` (required), `!name` tests absence.
    pub name: Option<String>,
    /// `<value>`, `!value` negates.
    pub value: Option<String>,
}

/// `<activation><file>`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ActivationFile {
    /// `<missing>`.
    pub missing: Option<String>,
    /// `<exists>` (wins when both are set).
    pub exists: Option<String>,
}

/// A profile's (or Maven 4 top-level) `<repository>` / `<pluginRepository>`. `Debug` shows the
/// URL without its user info.
#[derive(Clone, PartialEq)]
pub struct Repository {
    /// `<id>` (no default in Maven 3).
    pub id: Option<String>,
    /// `<name>`.
    pub name: Option<String>,
    /// `<url>`.
    pub url: Option<String>,
    /// `<layout>`, default `default`.
    pub layout: String,
    /// `<releases>`.
    pub releases: Option<RepositoryPolicy>,
    /// `<snapshots>`.
    pub snapshots: Option<RepositoryPolicy>,
    /// Where it was written.
    pub origin: Origin,
}

impl Default for Repository {
    fn default() -> Self {
        Repository {
            id: None,
            name: None,
            url: None,
            layout: "default".into(),
            releases: None,
            snapshots: None,
            origin: Origin::default(),
        }
    }
}

/// `<releases>` / `<snapshots>`.
#[derive(Debug, Clone, PartialEq)]
pub struct RepositoryPolicy {
    /// `<enabled>`, default true.
    pub enabled: bool,
    /// `<updatePolicy>`: `always`, `daily`, `never`, `interval:N`; none means `daily`.
    pub update_policy: Option<String>,
    /// `<checksumPolicy>`: `fail`, `warn`, `ignore`; none means `warn`.
    pub checksum_policy: Option<String>,
}

impl Default for RepositoryPolicy {
    fn default() -> Self {
        RepositoryPolicy {
            enabled: true,
            update_policy: None,
            checksum_policy: None,
        }
    }
}

/// A free-form XML element with its position (server `<configuration>`). `Debug` shows the
/// structure but not texts or attribute values (header values are tokens).
#[derive(Clone, PartialEq, Default)]
pub struct XmlElement {
    /// Element name as written (with prefix, if any).
    pub name: String,
    /// Attributes in document order (unescaped values).
    pub attributes: Vec<(String, String)>,
    /// Child elements in document order.
    pub children: Vec<XmlElement>,
    /// Concatenated text content (unescaped), `None` when the element has no text.
    pub text: Option<String>,
    /// 1-based line of the start tag.
    pub line: u32,
    /// 1-based column of the start tag.
    pub column: u32,
}

impl fmt::Debug for XmlElement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("XmlElement")
            .field("name", &self.name)
            .field("attributes", &Masked(&self.attributes))
            .field("children", &self.children)
            .field("text", &self.text.as_ref().map(|_| format_args!("***")))
            .field("line", &self.line)
            .field("column", &self.column)
            .finish()
    }
}

impl XmlElement {
    /// The first child with this name.
    pub fn child(&self, name: &str) -> Option<&XmlElement> {
        self.children.iter().find(|c| c.name == name)
    }

    /// All children with this name.
    pub fn children_named<'a>(
        &'a self,
        name: &'a str,
    ) -> impl Iterator<Item = &'a XmlElement> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// Trimmed text of the first child with this name.
    pub fn child_text(&self, name: &str) -> Option<&str> {
        self.child(name)
            .and_then(|c| c.text.as_deref())
            .map(str::trim)
    }
}
