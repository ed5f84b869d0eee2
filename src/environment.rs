//! [`Environment`]: the snapshot of process state the library works from, and [`Vars`], the
//! name → value maps (environment variables, system and user properties) it is made of.
//!
//! The library never reads environment variables, the home folder or JVM-style properties
//! deep inside; the embedding tool passes an `Environment` (to [`crate::Session::builder`]).
//! [`Environment::capture`] takes one from the current process the way Maven's launcher sees it
//! (every variable as `env.NAME`, `user.home`, `user.dir`, `os.*`, `java.version` of the `java`
//! on the `PATH`), for the CLI and for embedders that want Maven's defaults;
//! [`Environment::from_parts`] builds the same from variables the embedder chose.
//!
//! Values of environment variables and properties may be secrets (`HTTPS_PROXY=http://u:pw@…`,
//! `-Dhttp.proxyPassword=…`, `MAVEN_MASTER_PASSWORD`), so [`Vars`] prints names only, and so
//! does every type holding one. A `Vars` is shared, not copied: clones are reference counted
//! and a write copies the map first (copy on write), so one snapshot feeds settings building,
//! decryption, the proxy layer and the transport without five copies.

use std::collections::HashMap;
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Names and values that may be secret: environment variables, system or user properties.
///
/// Reads go through the [`HashMap`] it dereferences to; `Debug` shows the names and `***` for
/// every value.
///
/// ```
/// use m2resolver::Vars;
/// let mut vars = Vars::from([("HTTPS_PROXY".to_string(), "http://u:pw@proxy:3128".to_string())]);
/// vars.insert("HOME".into(), "/home/me".into());
/// assert_eq!(vars.get("HOME").map(String::as_str), Some("/home/me"));
/// let printed = format!("{vars:?}");
/// assert!(printed.contains("HTTPS_PROXY") && !printed.contains("pw@"));
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Vars(Arc<HashMap<String, String>>);

impl Vars {
    /// An empty map.
    pub fn new() -> Self {
        Vars::default()
    }

    /// The value of `name` as a `&str`.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// The names, sorted (for messages and `Debug`).
    pub fn sorted_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.0.keys().map(String::as_str).collect();
        names.sort_unstable();
        names
    }
}

impl Deref for Vars {
    type Target = HashMap<String, String>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl DerefMut for Vars {
    /// Copy on write: the map is copied only when another `Vars` shares it.
    fn deref_mut(&mut self) -> &mut Self::Target {
        Arc::make_mut(&mut self.0)
    }
}

impl fmt::Debug for Vars {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        struct Masked;
        impl fmt::Debug for Masked {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("***")
            }
        }
        f.debug_map()
            .entries(self.sorted_names().into_iter().map(|n| (n, Masked)))
            .finish()
    }
}

impl From<HashMap<String, String>> for Vars {
    fn from(map: HashMap<String, String>) -> Self {
        Vars(Arc::new(map))
    }
}

impl<const N: usize> From<[(String, String); N]> for Vars {
    fn from(pairs: [(String, String); N]) -> Self {
        Vars(Arc::new(HashMap::from(pairs)))
    }
}

impl FromIterator<(String, String)> for Vars {
    fn from_iter<I: IntoIterator<Item = (String, String)>>(iter: I) -> Self {
        Vars(Arc::new(iter.into_iter().collect()))
    }
}

impl Extend<(String, String)> for Vars {
    fn extend<I: IntoIterator<Item = (String, String)>>(&mut self, iter: I) {
        Arc::make_mut(&mut self.0).extend(iter);
    }
}

/// Environment variables, system properties and the working directory.
///
/// `Debug` shows variable and property names only (values may be secrets).
///
/// ```
/// use m2resolver::Environment;
/// let env = Environment::from_parts(
///     [("HOME".to_string(), "/home/me".to_string()),
///      ("HTTPS_PROXY".to_string(), "http://me:s3cret@proxy:3128".to_string())].into(),
///     "/work".into(),
/// );
/// assert_eq!(env.system_properties.value("user.home"), Some("/home/me"));
/// assert_eq!(env.system_properties.value("env.HOME"), Some("/home/me"));
/// assert!(!format!("{env:?}").contains("s3cret"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Environment {
    /// Environment variables.
    pub env: Vars,
    /// System properties as a JVM running Maven would have them (including `env.NAME`).
    pub system_properties: Vars,
    /// The working directory (the project folder for file activation).
    pub cwd: PathBuf,
}

impl Environment {
    /// A snapshot of the current process.
    pub fn capture() -> Self {
        let env: HashMap<String, String> = std::env::vars().collect();
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        Self::from_parts(env, cwd)
    }

    /// Builds the system properties a JVM would have for this environment and folder.
    pub fn from_parts(env: HashMap<String, String>, cwd: PathBuf) -> Self {
        let mut props = HashMap::new();
        for (k, v) in &env {
            props.insert(format!("env.{k}"), v.clone());
        }
        if let Some(home) = env
            .get("HOME")
            .cloned()
            .or_else(|| std::env::home_dir().map(|p| p.display().to_string()))
        {
            props.insert("user.home".into(), home);
        }
        if let Some(user) = env.get("USER").or_else(|| env.get("LOGNAME")) {
            props.insert("user.name".into(), user.clone());
        }
        props.insert("user.dir".into(), cwd.display().to_string());
        props.insert("os.name".into(), java_os_name().into());
        props.insert("os.arch".into(), java_os_arch().into());
        if let Some(v) = os_version() {
            props.insert("os.version".into(), v);
        }
        props.insert(
            "file.separator".into(),
            std::path::MAIN_SEPARATOR.to_string(),
        );
        props.insert(
            "path.separator".into(),
            if cfg!(windows) { ";" } else { ":" }.into(),
        );
        props.insert(
            "line.separator".into(),
            if cfg!(windows) { "\r\n" } else { "\n" }.into(),
        );
        if let Some(v) = java_version(&env) {
            props.insert(
                "java.specification.version".into(),
                specification_version(&v),
            );
            props.insert("java.version".into(), v);
        }
        if let Some(home) = env.get("M2_HOME").or_else(|| env.get("MAVEN_HOME")) {
            props.insert("maven.home".into(), home.clone());
        }
        Environment {
            env: env.into(),
            system_properties: props.into(),
            cwd,
        }
    }
}

/// `os.name` as Java spells it.
pub(crate) fn java_os_name() -> &'static str {
    match std::env::consts::OS {
        "linux" => "Linux",
        "macos" => "Mac OS X",
        "windows" => "Windows 10",
        "freebsd" => "FreeBSD",
        other => other,
    }
}

/// `os.arch` as Java spells it.
pub(crate) fn java_os_arch() -> &'static str {
    match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "x86" => "x86",
        "aarch64" => "aarch64",
        other => other,
    }
}

fn os_version() -> Option<String> {
    std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .ok()
        .map(|s| s.trim().to_string())
}

/// `java.version` of the JDK Maven would run on: `JAVA_HOME`, else the `java` on the `PATH`,
/// read from the JDK's `release` file (no JVM is started).
fn java_version(env: &HashMap<String, String>) -> Option<String> {
    let home = match env.get("JAVA_HOME").filter(|s| !s.is_empty()) {
        Some(h) => PathBuf::from(h),
        None => {
            let path = env.get("PATH")?;
            let java = std::env::split_paths(path)
                .map(|d| d.join("java"))
                .find(|p| p.is_file())?;
            let real = std::fs::canonicalize(java).ok()?;
            real.parent()?.parent()?.to_path_buf()
        }
    };
    release_version(&home)
}

/// `java.specification.version` of a `java.version`: `1.8` for `1.8.0_392`, the feature release
/// (`17`) from Java 9 on.
fn specification_version(version: &str) -> String {
    let mut parts = version.split(['.', '-', '+', '_']);
    match (parts.next(), parts.next()) {
        (Some("1"), Some(minor)) => format!("1.{minor}"),
        (Some(major), _) => major.to_string(),
        _ => version.to_string(),
    }
}

fn release_version(java_home: &Path) -> Option<String> {
    let text = std::fs::read_to_string(java_home.join("release")).ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix("JAVA_VERSION="))
        .map(|v| v.trim().trim_matches('"').to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_becomes_env_properties() {
        let env: HashMap<String, String> = [
            ("FOO".to_string(), "bar".to_string()),
            ("HOME".to_string(), "/h".to_string()),
        ]
        .into();
        let e = Environment::from_parts(env, PathBuf::from("/work"));
        assert_eq!(
            e.system_properties.get("env.FOO").map(String::as_str),
            Some("bar")
        );
        assert_eq!(
            e.system_properties.get("user.home").map(String::as_str),
            Some("/h")
        );
        assert_eq!(
            e.system_properties.get("user.dir").map(String::as_str),
            Some("/work")
        );
    }

    #[test]
    fn release_file_is_read() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("release"),
            "IMPLEMENTOR=x\nJAVA_VERSION=\"17.0.15\"\n",
        )
        .unwrap();
        assert_eq!(release_version(dir.path()).as_deref(), Some("17.0.15"));
        assert_eq!(specification_version("17.0.15"), "17");
        assert_eq!(specification_version("21"), "21");
        assert_eq!(specification_version("1.8.0_392"), "1.8");
    }
}
