//! [`SecurityContext`]: every input the security module reads from the outside world.
//!
//! The library never consults the process environment, system properties, the home folder or
//! the working directory by itself; the caller snapshots them here (see
//! [`SecurityContext::from_process`] for the command line). Tests build one by hand.

use crate::environment::Vars;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::master_source::MasterSource;

/// Inputs of the security module: home folder, properties, environment, working directory and
/// extra master-password sources.
///
/// `properties` holds system and user properties merged (user properties win), exactly what
/// Maven's `System.getProperty` would see: `settings.security`, `maven.settings.security`,
/// `maven.user.conf` and the names used by `system-property:` sources.
///
/// ```
/// use m2resolver::security::SecurityContext;
/// let ctx = SecurityContext::new("/home/me", "/work")
///     .with_property("settings.security", "/secure/settings-security.xml")
///     .with_env("MAVEN_MASTER_PASSWORD", "s3cret");
/// assert_eq!(ctx.property("settings.security"), Some("/secure/settings-security.xml"));
/// // Debug never shows values (they may be secrets).
/// assert!(!format!("{ctx:?}").contains("s3cret"));
/// ```
#[derive(Clone)]
pub struct SecurityContext {
    /// Java's `user.home`: `~` in locations and `${user.home}/.m2/...` defaults resolve here.
    pub user_home: PathBuf,
    /// System and user properties (user wins).
    pub properties: Vars,
    /// Environment variables (for `env:` sources, `DISPLAY`/`TERM` for gpg-agent).
    pub env: Vars,
    /// Relative file names resolve against this folder.
    pub cwd: PathBuf,
    /// Extra master-password sources supplied by the embedding tool (prompt, keychain...).
    /// They are asked before the built-in ones.
    pub master_sources: Vec<Arc<dyn MasterSource>>,
}

impl SecurityContext {
    /// A context with the given home and working folders, no properties, no environment.
    pub fn new(user_home: impl Into<PathBuf>, cwd: impl Into<PathBuf>) -> Self {
        SecurityContext {
            user_home: user_home.into(),
            properties: Vars::new(),
            env: Vars::new(),
            cwd: cwd.into(),
            master_sources: Vec::new(),
        }
    }

    /// Snapshot of the running process: `$HOME` (or the platform home), the current directory
    /// and all environment variables. For the command line; libraries should build their own.
    pub fn from_process() -> Self {
        let home = std::env::home_dir().unwrap_or_else(|| PathBuf::from("."));
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        let mut ctx = SecurityContext::new(home, cwd);
        ctx.env = std::env::vars().collect();
        ctx
    }

    /// Adds (or replaces) a property.
    pub fn with_property(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.properties.insert(key.into(), value.into());
        self
    }

    /// Adds (or replaces) an environment variable.
    pub fn with_env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.env.insert(key.into(), value.into());
        self
    }

    /// Adds a master-password source, asked before the built-in ones.
    pub fn with_master_source(mut self, source: Arc<dyn MasterSource>) -> Self {
        self.master_sources.push(source);
        self
    }

    /// A property value.
    pub fn property(&self, key: &str) -> Option<&str> {
        self.properties.get(key).map(String::as_str)
    }

    /// An environment variable.
    pub fn env_var(&self, key: &str) -> Option<&str> {
        self.env.get(key).map(String::as_str)
    }

    /// `path` made absolute against [`cwd`](Self::cwd) (no normalisation, no file access).
    pub fn resolve(&self, path: impl AsRef<Path>) -> PathBuf {
        let path = path.as_ref();
        if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.cwd.join(path)
        }
    }
}

impl fmt::Debug for SecurityContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SecurityContext")
            .field("user_home", &self.user_home)
            .field("cwd", &self.cwd)
            .field("properties", &self.properties)
            .field("env", &self.env)
            .field("master_sources", &self.master_sources.len())
            .finish()
    }
}
