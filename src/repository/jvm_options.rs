//! JVM proxy properties from `MAVEN_OPTS` and `.mvn/jvm.config` — what the `mvn` launcher puts
//! on the `java` command line, where CI sandboxes often carry `-Dhttps.proxyHost=…`. Read only
//! when the embedder asks (`SessionBuilder::jvm_proxy_options`, `m2r --jvm-proxy-options`);
//! the values then feed the system-property half of [`super::env_proxy`], below the
//! session's own system and user properties (`-D` on the command line wins, as `MavenCli`'s
//! `System.setProperty` does).
//!
//! Only the JDK's proxy properties are taken ([`is_proxy_property`]): every other `-D` of
//! those sources is left alone, so the settings-level answers (`m2r explain --json`) stay
//! Maven's.
//!
//! - **`.mvn/jvm.config`** of the project base directory: `MAVEN_BASEDIR` when set, else the
//!   nearest folder from the working directory upwards that holds `.mvn` (the launcher's
//!   `find_maven_basedir`). Read as Maven 3.9's launcher reads it: `#` starts a comment that
//!   runs to the end of the line, words are separated by blanks and line breaks, and `"…"` or
//!   `'…'` quote a word that holds blanks.
//! - **`MAVEN_OPTS`** (from the environment snapshot): split at blanks, with no quote
//!   processing (the launcher expands it unquoted). It comes after `jvm.config` on the `java`
//!   command line, so a property in both takes the `MAVEN_OPTS` value.
//!
//! `-Dname=value` defines `name`; `-Dname` defines it as the empty string (as `java` does).
//! Each property keeps where it was written (`MAVEN_OPTS`, `/project/.mvn/jvm.config:3`).

use std::path::{Path, PathBuf};

/// The variable the launcher reads.
pub const MAVEN_OPTS: &str = "MAVEN_OPTS";

/// One proxy property read from the JVM's options.
#[derive(Clone, PartialEq, Eq)]
pub struct JvmProperty {
    /// `https.proxyHost`.
    pub name: String,
    /// Its value (may be a password: `Debug` hides it).
    pub value: String,
    /// `MAVEN_OPTS` or `FILE:LINE`.
    pub origin: String,
}

impl std::fmt::Debug for JvmProperty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JvmProperty")
            .field("name", &self.name)
            .field("value", &"***")
            .field("origin", &self.origin)
            .finish()
    }
}

/// Whether `name` is one of the JDK's networking proxy properties (`http.proxyHost`,
/// `https.proxyUser`, `http.nonProxyHosts`, `socksProxyHost`, `java.net.socks.password`, ...).
pub fn is_proxy_property(name: &str) -> bool {
    ["http.proxy", "https.proxy", "socksProxy", "java.net.socks."]
        .iter()
        .any(|p| name.starts_with(p))
        || matches!(
            name,
            "http.nonProxyHosts" | "https.nonProxyHosts" | "proxyHost" | "proxyPort"
        )
}

/// `-Dname=value` → (name, value); `-Dname` → (name, ""); anything else → `None`.
fn define(word: &str) -> Option<(String, String)> {
    let rest = word.strip_prefix("-D")?;
    let (name, value) = rest.split_once('=').unwrap_or((rest, ""));
    (!name.is_empty()).then(|| (name.to_string(), value.to_string()))
}

/// The `-D` definitions of a `MAVEN_OPTS` value, in order.
pub fn parse_maven_opts(value: &str) -> Vec<(String, String)> {
    value.split_whitespace().filter_map(define).collect()
}

/// The `-D` definitions of a `jvm.config` text, each with its 1-based line, in order.
pub fn parse_jvm_config(text: &str) -> Vec<(usize, String, String)> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut word_line = 0;
    let mut quote: Option<char> = None;
    let mut in_word = false;
    let mut line = 1;
    let mut chars = text.chars().peekable();
    fn finish(word: &mut String, word_line: usize, out: &mut Vec<(usize, String, String)>) {
        if let Some((n, v)) = define(word) {
            out.push((word_line, n, v));
        }
        word.clear();
    }
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), '\n') => {
                word.push('\n');
                line += 1;
            }
            (Some(_), c) => word.push(c),
            (None, '#') => {
                // A comment runs to the end of the line (its line break ends the word).
                while chars.peek().is_some_and(|&c| c != '\n') {
                    chars.next();
                }
            }
            (None, '"' | '\'') => {
                if !in_word {
                    in_word = true;
                    word_line = line;
                }
                quote = Some(c);
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    finish(&mut word, word_line, &mut out);
                    in_word = false;
                }
                if c == '\n' {
                    line += 1;
                }
            }
            (None, c) => {
                if !in_word {
                    in_word = true;
                    word_line = line;
                }
                word.push(c);
            }
        }
    }
    if in_word {
        finish(&mut word, word_line, &mut out);
    }
    out
}

/// The project base directory the launcher would use: `MAVEN_BASEDIR`, else the nearest
/// folder from `cwd` upwards that holds `.mvn`.
pub fn project_basedir(cwd: &Path, maven_basedir: Option<&str>) -> Option<PathBuf> {
    if let Some(d) = maven_basedir.filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d));
    }
    cwd.ancestors()
        .find(|d| d.join(".mvn").is_dir())
        .map(Path::to_path_buf)
}

/// Largest `jvm.config` read.
const MAX_JVM_CONFIG_BYTES: u64 = 1 << 20;

/// The proxy properties of `.mvn/jvm.config` (under `basedir`) and `maven_opts`, in command
/// line order (later wins), and warnings (an unreadable file).
pub fn read_proxy_properties(
    basedir: Option<&Path>,
    maven_opts: Option<&str>,
) -> (Vec<JvmProperty>, Vec<String>) {
    let mut props = Vec::new();
    let mut warnings = Vec::new();
    if let Some(dir) = basedir {
        let file = dir.join(".mvn").join("jvm.config");
        match crate::bounded::read_regular_file(&file, MAX_JVM_CONFIG_BYTES) {
            Ok(bytes) => {
                for (line, name, value) in parse_jvm_config(&String::from_utf8_lossy(&bytes)) {
                    if is_proxy_property(&name) {
                        props.push(JvmProperty {
                            name,
                            value,
                            origin: format!("{}:{line}", file.display()),
                        });
                    }
                }
            }
            Err(e) if e.is_not_found() => {}
            Err(e) => warnings.push(format!("{e}; its proxy properties are not used")),
        }
    }
    for (name, value) in parse_maven_opts(maven_opts.unwrap_or_default()) {
        if is_proxy_property(&name) {
            props.push(JvmProperty {
                name,
                value,
                origin: MAVEN_OPTS.to_string(),
            });
        }
    }
    (props, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maven_opts_words() {
        assert_eq!(
            parse_maven_opts(
                "-Xmx1g  -Dhttps.proxyHost=p.corp -Dhttps.proxyPort=3128\t-Dflag -D=x -Dq=\"a"
            ),
            vec![
                ("https.proxyHost".to_string(), "p.corp".to_string()),
                ("https.proxyPort".into(), "3128".into()),
                ("flag".into(), "".into()),
                ("q".into(), "\"a".into()),
            ]
        );
    }

    #[test]
    fn jvm_config_lines_comments_and_quotes() {
        let text = "# proxy for the CI sandbox\n-Xmx2g -Dhttps.proxyHost=p.corp # the squid\n\
                    -Dhttps.proxyUser=ci\n-Dhttps.proxyPassword=\"pa ss\"\n\
                    -Dhttp.nonProxyHosts='localhost|*.corp'\n-Dempty\n";
        assert_eq!(
            parse_jvm_config(text),
            vec![
                (2, "https.proxyHost".to_string(), "p.corp".to_string()),
                (3, "https.proxyUser".into(), "ci".into()),
                (4, "https.proxyPassword".into(), "pa ss".into()),
                (5, "http.nonProxyHosts".into(), "localhost|*.corp".into()),
                (6, "empty".into(), "".into()),
            ]
        );
        assert!(parse_jvm_config("").is_empty());
        assert_eq!(parse_jvm_config("-Da=b").len(), 1);
    }

    #[test]
    fn proxy_property_names() {
        for n in [
            "http.proxyHost",
            "https.proxyPort",
            "http.proxyUser",
            "https.proxyPassword",
            "http.nonProxyHosts",
            "socksProxyHost",
            "socksProxyPort",
            "java.net.socks.username",
            "proxyHost",
        ] {
            assert!(is_proxy_property(n), "{n}");
        }
        for n in [
            "maven.repo.local",
            "user.home",
            "https.protocols",
            "http.agent",
        ] {
            assert!(!is_proxy_property(n), "{n}");
        }
    }

    #[test]
    fn basedir_and_sources_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("p");
        let module = project.join("module/src");
        std::fs::create_dir_all(&module).unwrap();
        assert_eq!(project_basedir(&module, None), None);
        std::fs::create_dir_all(project.join(".mvn")).unwrap();
        assert_eq!(project_basedir(&module, None), Some(project.clone()));
        assert_eq!(
            project_basedir(&module, Some("/elsewhere")),
            Some(PathBuf::from("/elsewhere"))
        );
        std::fs::write(
            project.join(".mvn/jvm.config"),
            "-Dhttps.proxyHost=from-config\n-Dmaven.repo.local=/x\n-Dhttps.proxyPort=1\n",
        )
        .unwrap();
        let (props, warnings) = read_proxy_properties(
            Some(&project),
            Some("-Dhttps.proxyHost=from-opts -Duser.home=/y"),
        );
        assert!(warnings.is_empty());
        let got: Vec<(&str, &str, String)> = props
            .iter()
            .map(|p| {
                (
                    p.name.as_str(),
                    p.value.as_str(),
                    p.origin.replace(&project.display().to_string(), "P"),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "https.proxyHost",
                    "from-config",
                    "P/.mvn/jvm.config:1".to_string()
                ),
                ("https.proxyPort", "1", "P/.mvn/jvm.config:3".to_string()),
                ("https.proxyHost", "from-opts", "MAVEN_OPTS".to_string()),
            ]
        );
        assert!(!format!("{:?}", props[0]).contains("from-config"));
    }
}
