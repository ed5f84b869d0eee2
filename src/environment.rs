//! [`Environment`]: the snapshot of process state the library works from.
//!
//! The library never reads environment variables, the home folder or JVM-style properties
//! deep inside; the embedding tool passes an `Environment`. [`Environment::capture`] takes one
//! from the current process the way Maven's launcher sees it (every variable as `env.NAME`,
//! `user.home`, `user.dir`, `os.*`, `java.version` of the `java` on the `PATH`), for the CLI and
//! for embedders that want Maven's defaults.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Environment variables, system properties and the working directory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Environment {
    /// Environment variables.
    pub env: HashMap<String, String>,
    /// System properties as a JVM running Maven would have them (including `env.NAME`).
    pub system_properties: HashMap<String, String>,
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
            env,
            system_properties: props,
            cwd,
        }
    }
}

/// `os.name` as Java spells it.
pub fn java_os_name() -> &'static str {
    match std::env::consts::OS {
        "linux" => "Linux",
        "macos" => "Mac OS X",
        "windows" => "Windows 10",
        "freebsd" => "FreeBSD",
        other => other,
    }
}

/// `os.arch` as Java spells it.
pub fn java_os_arch() -> &'static str {
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
