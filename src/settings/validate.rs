//! Settings validation: Maven 3.x's `DefaultSettingsValidator` (rules #1–#19 of
//! `maven-semantics.md` §2.5) and Maven 4's extra checks for project settings (rule #21).
//!
//! This module owns the checks and their messages only. It does not read, merge or interpolate
//! settings: Maven 3 runs the validator on each raw file before merging, so callers pass one
//! file's [`Settings`] at a time. Duplicate checks therefore look within that one file.
//!
//! Messages are Maven's, word for word (`'<field>'[ for <hint>] <text>`), followed by where the
//! element was written (` (at settings.xml:12:5)`) when that is known. Maven 3 reports no line or
//! column for these problems, so [`SettingsProblem::line`] and [`SettingsProblem::column`] stay `None`.
//!
//! Rule #20 (Maven 4: proxy port must be an integer) does not apply here: our model stores the
//! port as an `i32` already parsed by the reader, as Maven 3 does, so there is no text left to check.

use super::model::{Origin, Repository, Settings};
use super::problem::{SettingsProblem, Severity, Stage};
use std::collections::HashSet;

/// The characters Maven refuses in mirror and repository ids (they are illegal in file names).
const ILLEGAL_REPO_ID_CHARS: &str = "\\/:\"<>|?*";

/// The pattern Maven 3 prints for plugin group ids.
const PLUGIN_GROUP_PATTERN: &str = "[A-Za-z0-9_\\-.]+";

/// The text Maven appends for a `local` mirror or repository id.
const LOCAL_ID_TEXT: &str = "must not be 'local', this identifier is reserved for the local repository, \
                             using it for other repositories will corrupt your repository metadata.";

/// Validates one raw settings file as Maven 3.x's `DefaultSettingsValidator` does.
///
/// `source` names the file (it becomes [`SettingsProblem::source`]). Problems come in Maven's order:
/// plugin registry, plugin groups, servers, mirrors, profiles (with their repositories), proxies.
pub fn validate(settings: &Settings, source: &str) -> Vec<SettingsProblem> {
    let mut v = Violations::new(source);

    // #1
    if settings.use_plugin_registry {
        v.add(
            Severity::Warning,
            "usePluginRegistry",
            None,
            "is deprecated and has no effect.",
            None,
        );
    }

    // #2, #3 (3.x trims first)
    for (i, group) in settings.plugin_groups.iter().enumerate() {
        let field = format!("pluginGroups.pluginGroup[{i}]");
        let group = java_trim(group);
        if java_is_blank(group) {
            v.add(Severity::Error, &field, None, "must not be empty", None);
        } else if !is_valid_group_id(group) {
            let text = format!(
                "must denote a valid group id and match the pattern {PLUGIN_GROUP_PATTERN}"
            );
            v.add(Severity::Error, &field, None, &text, None);
        }
    }

    // #4, #5
    let mut server_ids = HashSet::new();
    for (i, server) in settings.servers.iter().enumerate() {
        let at = Some(&server.origin);
        v.not_empty(
            &format!("servers.server[{i}].id"),
            Some(&server.id),
            None,
            at,
        );
        if !server_ids.insert(server.id.as_str()) {
            let text = format!(
                "must be unique but found duplicate server with id {}",
                server.id
            );
            v.add(Severity::Warning, "servers.server.id", None, &text, at);
        }
    }

    // #6–#10
    for mirror in &settings.mirrors {
        let at = Some(&mirror.origin);
        let id = Some(mirror.id.as_str());
        v.not_empty("mirrors.mirror.id", id, mirror.url.as_deref(), at);
        v.banned_characters("mirrors.mirror.id", id, at);
        if mirror.id == "local" {
            v.add(
                Severity::Warning,
                "mirrors.mirror.id",
                None,
                LOCAL_ID_TEXT,
                at,
            );
        }
        v.not_empty("mirrors.mirror.url", mirror.url.as_deref(), id, at);
        v.not_empty(
            "mirrors.mirror.mirrorOf",
            mirror.mirror_of.as_deref(),
            id,
            at,
        );
    }

    // #11–#17
    let mut profile_ids = HashSet::new();
    for profile in &settings.profiles {
        if !profile_ids.insert(profile.id.as_str()) {
            let text = format!(
                "must be unique but found duplicate profile with id {}",
                profile.id
            );
            v.add(
                Severity::Warning,
                "profiles.profile.id",
                None,
                &text,
                Some(&profile.origin),
            );
        }
        let prefix = format!("profiles.profile[{}].", profile.id);
        v.repositories(
            &profile.repositories,
            &format!("{prefix}repositories.repository"),
        );
        v.repositories(
            &profile.plugin_repositories,
            &format!("{prefix}pluginRepositories.pluginRepository"),
        );
    }

    // #18, #19
    let mut proxy_ids = HashSet::new();
    for proxy in &settings.proxies {
        let at = Some(&proxy.origin);
        if !proxy_ids.insert(proxy.id.as_str()) {
            let text = format!(
                "must be unique but found duplicate proxy with id {}",
                proxy.id
            );
            v.add(Severity::Warning, "proxies.proxy.id", None, &text, at);
        }
        v.not_empty(
            "proxies.proxy.host",
            proxy.host.as_deref(),
            Some(&proxy.id),
            at,
        );
    }

    v.problems
}

/// Maven 4's warnings for project settings (`.mvn/settings.xml`, rule #21): what project settings
/// may not set. Maven ignores these values afterwards; the warnings say so.
pub fn validate_project_settings(settings: &Settings, source: &str) -> Vec<SettingsProblem> {
    const IS: &str = "is not supported on project settings.";
    const ARE: &str = "are not supported on project settings.";
    let mut v = Violations::new(source);
    if settings
        .local_repository
        .as_deref()
        .is_some_and(|s| !s.is_empty())
    {
        v.add(Severity::Warning, "localRepository", None, IS, None);
    }
    if !settings.interactive_mode {
        v.add(Severity::Warning, "interactiveMode", None, IS, None);
    }
    if settings.offline {
        v.add(Severity::Warning, "offline", None, IS, None);
    }
    if let Some(first) = settings.proxies.first() {
        v.add(Severity::Warning, "proxies", None, ARE, Some(&first.origin));
    }
    if settings.use_plugin_registry {
        v.add(Severity::Warning, "usePluginRegistry", None, IS, None);
    }
    for (i, server) in settings.servers.iter().enumerate() {
        let at = Some(&server.origin);
        let fields: [(&str, bool); 6] = [
            ("username", is_set(server.username.as_deref())),
            (
                "password",
                server.password.as_ref().is_some_and(|p| !p.is_empty()),
            ),
            ("privateKey", is_set(server.private_key.as_deref())),
            (
                "passphrase",
                server.passphrase.as_ref().is_some_and(|p| !p.is_empty()),
            ),
            (
                "filePermissions",
                is_set(server.file_permissions.as_deref()),
            ),
            (
                "directoryPermissions",
                is_set(server.directory_permissions.as_deref()),
            ),
        ];
        for (name, set) in fields {
            if set {
                v.add(
                    Severity::Warning,
                    &format!("servers.server[{i}].{name}"),
                    None,
                    IS,
                    at,
                );
            }
        }
        if !server.aliases.is_empty() {
            v.add(
                Severity::Warning,
                &format!("servers.server[{i}].aliases"),
                None,
                ARE,
                at,
            );
        }
    }
    v.problems
}

fn is_set(value: Option<&str>) -> bool {
    value.is_some_and(|s| !s.is_empty())
}

/// Collects problems in Maven's message format.
struct Violations<'a> {
    source: &'a str,
    problems: Vec<SettingsProblem>,
}

impl<'a> Violations<'a> {
    fn new(source: &'a str) -> Self {
        Violations {
            source,
            problems: Vec::new(),
        }
    }

    /// Maven's `addViolation`: `'<field>'[ for <hint>] <text>`, plus where the element was written.
    fn add(
        &mut self,
        severity: Severity,
        field: &str,
        hint: Option<&str>,
        text: &str,
        at: Option<&Origin>,
    ) {
        let mut message = format!("'{field}'");
        if let Some(hint) = hint {
            message.push_str(" for ");
            message.push_str(hint);
        }
        message.push(' ');
        message.push_str(text);
        if let Some(place) = at.and_then(|o| where_written(o, self.source)) {
            message.push_str(" (at ");
            message.push_str(&place);
            message.push(')');
        }
        self.problems.push(SettingsProblem::new(
            severity,
            Stage::Build,
            self.source,
            message,
        ));
    }

    /// Maven's `validateStringNotEmpty`: absent or empty → ERROR `is missing`.
    fn not_empty(
        &mut self,
        field: &str,
        value: Option<&str>,
        hint: Option<&str>,
        at: Option<&Origin>,
    ) {
        if value.is_none_or(str::is_empty) {
            self.add(Severity::Error, field, hint, "is missing", at);
        }
    }

    /// Maven's `validateBannedCharacters`: scans from the end, so the LAST offending character is
    /// the one reported.
    fn banned_characters(&mut self, field: &str, value: Option<&str>, at: Option<&Origin>) {
        if let Some(c) =
            value.and_then(|v| v.chars().rev().find(|c| ILLEGAL_REPO_ID_CHARS.contains(*c)))
        {
            let text = format!(
                "must not contain any of these characters {ILLEGAL_REPO_ID_CHARS} but found {c}"
            );
            self.add(Severity::Warning, field, None, &text, at);
        }
    }

    /// Maven's `validateRepositories` for one list (rules #12–#17). A missing id prints as `null`
    /// in the duplicate message, as Java's string concatenation does.
    fn repositories(&mut self, repositories: &[Repository], prefix: &str) {
        let id_field = format!("{prefix}.id");
        let mut ids: HashSet<Option<&str>> = HashSet::new();
        for repo in repositories {
            let at = Some(&repo.origin);
            let id = repo.id.as_deref();
            self.not_empty(&id_field, id, repo.url.as_deref(), at);
            self.banned_characters(&id_field, id, at);
            if id == Some("local") {
                self.add(Severity::Warning, &id_field, None, LOCAL_ID_TEXT, at);
            }
            if !ids.insert(id) {
                let text = format!(
                    "must be unique but found duplicate repository with id {}",
                    id.unwrap_or("null")
                );
                self.add(Severity::Warning, &id_field, None, &text, at);
            }
            self.not_empty(&format!("{prefix}.url"), repo.url.as_deref(), id, at);
            if repo.layout == "legacy" {
                self.add(
                    Severity::Warning,
                    &format!("{prefix}.layout"),
                    id,
                    "uses the unsupported value 'legacy', artifact resolution might fail.",
                    at,
                );
            }
        }
    }
}

/// `file:line:column` of an element, the file defaulting to `source`; `None` when nothing is
/// known. Shared with profile activation so both append the same ` (at ...)` suffix.
pub(crate) fn where_written(origin: &Origin, source: &str) -> Option<String> {
    match (&origin.file, origin.line) {
        (Some(_), _) => Some(origin.describe()),
        (None, 0) => None,
        (None, line) if !source.is_empty() => Some(format!("{source}:{line}:{}", origin.column)),
        (None, _) => Some(origin.describe()),
    }
}

/// `[A-Za-z0-9_\-.]+`, matched against the whole text.
fn is_valid_group_id(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// Java's `String.trim`: strips characters up to U+0020 at both ends.
fn java_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= ' ')
}

/// plexus-utils `StringUtils.isBlank`: every character is Java whitespace.
fn java_is_blank(s: &str) -> bool {
    s.chars().all(java_is_whitespace)
}

/// Java's `Character.isWhitespace`: Unicode space separators except the no-break ones, line and
/// paragraph separators, and the ASCII controls TAB, LF, VT, FF, CR and FS, GS, RS, US.
fn java_is_whitespace(c: char) -> bool {
    match c {
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | '\u{1C}'..='\u{1F}' => true,
        '\u{A0}' | '\u{2007}' | '\u{202F}' => false,
        ' '
        | '\u{1680}'
        | '\u{2000}'..='\u{200A}'
        | '\u{2028}'
        | '\u{2029}'
        | '\u{205F}'
        | '\u{3000}' => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::model::{Mirror, Profile, Proxy, Server};
    use crate::SettingsSecret;

    fn server(id: &str) -> Server {
        Server {
            id: id.into(),
            ..Server::default()
        }
    }
    fn mirror(id: &str, url: Option<&str>, mirror_of: Option<&str>) -> Mirror {
        Mirror {
            id: id.into(),
            url: url.map(str::to_string),
            mirror_of: mirror_of.map(str::to_string),
            ..Mirror::default()
        }
    }
    fn proxy(id: &str, host: Option<&str>) -> Proxy {
        Proxy {
            id: id.into(),
            host: host.map(str::to_string),
            ..Proxy::default()
        }
    }
    fn repo(id: Option<&str>, url: Option<&str>, layout: &str) -> Repository {
        Repository {
            id: id.map(str::to_string),
            url: url.map(str::to_string),
            layout: layout.into(),
            ..Repository::default()
        }
    }
    fn profile_with(
        id: &str,
        repositories: Vec<Repository>,
        plugin_repositories: Vec<Repository>,
    ) -> Profile {
        Profile {
            id: id.into(),
            repositories,
            plugin_repositories,
            ..Profile::default()
        }
    }

    fn render(problems: &[SettingsProblem]) -> Vec<String> {
        problems
            .iter()
            .map(|p| format!("{} {}", p.severity, p.message))
            .collect()
    }

    const LOCAL: &str =
        "must not be 'local', this identifier is reserved for the local repository, using it for \
                         other repositories will corrupt your repository metadata.";
    const BANNED: &str = "must not contain any of these characters \\/:\"<>|?* but found";

    /// One row per rule (and the tricky variants): a settings file and exactly what Maven 3.8.7
    /// reports for it (texts taken from the oracle).
    #[test]
    fn one_row_per_rule() {
        let rows: Vec<(&str, Settings, Vec<String>)> = vec![
            (
                "#1 usePluginRegistry",
                Settings {
                    use_plugin_registry: true,
                    ..Settings::default()
                },
                vec!["WARNING 'usePluginRegistry' is deprecated and has no effect.".into()],
            ),
            (
                "#2 blank plugin group (trimmed first)",
                Settings {
                    plugin_groups: vec!["  ".into(), " org.ok ".into(), "\t".into(), "\u{2003}".into()],
                    ..Settings::default()
                },
                vec![
                    "ERROR 'pluginGroups.pluginGroup[0]' must not be empty".into(),
                    "ERROR 'pluginGroups.pluginGroup[2]' must not be empty".into(),
                    "ERROR 'pluginGroups.pluginGroup[3]' must not be empty".into(), // em space: blank
                ],
            ),
            (
                "#3 invalid plugin group",
                Settings {
                    plugin_groups: vec!["bad group!".into(), "org.codehaus.mojo".into(), "ü".into(), "\u{A0}".into()],
                    ..Settings::default()
                },
                vec![
                    "ERROR 'pluginGroups.pluginGroup[0]' must denote a valid group id and match the pattern \
                     [A-Za-z0-9_\\-.]+"
                        .into(),
                    "ERROR 'pluginGroups.pluginGroup[2]' must denote a valid group id and match the pattern \
                     [A-Za-z0-9_\\-.]+"
                        .into(),
                    "ERROR 'pluginGroups.pluginGroup[3]' must denote a valid group id and match the pattern \
                     [A-Za-z0-9_\\-.]+"
                        .into(),
                ],
            ),
            (
                "#4 empty server id",
                Settings {
                    servers: vec![server(""), server("default")],
                    ..Settings::default()
                },
                vec!["ERROR 'servers.server[0].id' is missing".into()],
            ),
            (
                "#5 duplicate server ids, empty ones too",
                Settings {
                    servers: vec![server(""), server("dup"), server("dup"), server("default"), server("")],
                    ..Settings::default()
                },
                vec![
                    "ERROR 'servers.server[0].id' is missing".into(),
                    "WARNING 'servers.server.id' must be unique but found duplicate server with id dup".into(),
                    "ERROR 'servers.server[4].id' is missing".into(),
                    "WARNING 'servers.server.id' must be unique but found duplicate server with id ".into(),
                ],
            ),
            (
                "#6 empty mirror id, with and without url",
                Settings {
                    mirrors: vec![
                        mirror("", Some("http://m"), Some("*")),
                        mirror("", None, Some("*")),
                    ],
                    ..Settings::default()
                },
                vec![
                    "ERROR 'mirrors.mirror.id' for http://m is missing".into(),
                    "ERROR 'mirrors.mirror.id' is missing".into(),
                    "ERROR 'mirrors.mirror.url' for  is missing".into(),
                ],
            ),
            (
                "#7 illegal mirror id characters: the last one is reported",
                Settings {
                    mirrors: vec![
                        mirror("a/b:c*d", Some("http://m"), Some("*")),
                        mirror("x\\y", Some("http://m"), Some("*")),
                        mirror("q\"<>|?", Some("http://m"), Some("*")),
                    ],
                    ..Settings::default()
                },
                vec![
                    format!("WARNING 'mirrors.mirror.id' {BANNED} *"),
                    format!("WARNING 'mirrors.mirror.id' {BANNED} \\"),
                    format!("WARNING 'mirrors.mirror.id' {BANNED} ?"),
                ],
            ),
            (
                "#8 mirror id local",
                Settings {
                    mirrors: vec![mirror("local", Some("http://m"), Some("*"))],
                    ..Settings::default()
                },
                vec![format!("WARNING 'mirrors.mirror.id' {LOCAL}")],
            ),
            (
                "#9 mirror url missing or empty",
                Settings {
                    mirrors: vec![mirror("nourl", None, Some("*")), mirror("emptyurl", Some(""), Some("*"))],
                    ..Settings::default()
                },
                vec![
                    "ERROR 'mirrors.mirror.url' for nourl is missing".into(),
                    "ERROR 'mirrors.mirror.url' for emptyurl is missing".into(),
                ],
            ),
            (
                "#10 mirrorOf missing or empty",
                Settings {
                    mirrors: vec![mirror("noof", Some("http://m"), None), mirror("e", Some("http://m"), Some(""))],
                    ..Settings::default()
                },
                vec![
                    "ERROR 'mirrors.mirror.mirrorOf' for noof is missing".into(),
                    "ERROR 'mirrors.mirror.mirrorOf' for e is missing".into(),
                ],
            ),
            (
                "#11 duplicate profile id",
                Settings {
                    profiles: vec![
                        profile_with("pr", vec![], vec![]),
                        profile_with("pr", vec![], vec![]),
                        profile_with("default", vec![], vec![]),
                    ],
                    ..Settings::default()
                },
                vec!["WARNING 'profiles.profile.id' must be unique but found duplicate profile with id pr".into()],
            ),
            (
                "#12 repository id missing, with and without url (duplicate null ids)",
                Settings {
                    profiles: vec![profile_with(
                        "pr",
                        vec![repo(None, Some("http://r"), "default"), repo(None, None, "default")],
                        vec![],
                    )],
                    ..Settings::default()
                },
                vec![
                    "ERROR 'profiles.profile[pr].repositories.repository.id' for http://r is missing".into(),
                    "ERROR 'profiles.profile[pr].repositories.repository.id' is missing".into(),
                    "WARNING 'profiles.profile[pr].repositories.repository.id' must be unique but found duplicate \
                     repository with id null"
                        .into(),
                    "ERROR 'profiles.profile[pr].repositories.repository.url' is missing".into(),
                ],
            ),
            (
                "#13 repository id illegal characters",
                Settings {
                    profiles: vec![profile_with("pr", vec![repo(Some("x|y?"), Some("http://r"), "default")], vec![])],
                    ..Settings::default()
                },
                vec![format!("WARNING 'profiles.profile[pr].repositories.repository.id' {BANNED} ?")],
            ),
            (
                "#14 repository id local",
                Settings {
                    profiles: vec![profile_with("pr", vec![repo(Some("local"), Some("http://r"), "default")], vec![])],
                    ..Settings::default()
                },
                vec![format!("WARNING 'profiles.profile[pr].repositories.repository.id' {LOCAL}")],
            ),
            (
                "#15 duplicate repository id within one list only",
                Settings {
                    profiles: vec![profile_with(
                        "pr",
                        vec![repo(Some("d"), Some("http://r"), "default"), repo(Some("d"), None, "default")],
                        vec![repo(Some("d"), Some(""), "default")],
                    )],
                    ..Settings::default()
                },
                vec![
                    "WARNING 'profiles.profile[pr].repositories.repository.id' must be unique but found duplicate \
                     repository with id d"
                        .into(),
                    "ERROR 'profiles.profile[pr].repositories.repository.url' for d is missing".into(),
                    "ERROR 'profiles.profile[pr].pluginRepositories.pluginRepository.url' for d is missing".into(),
                ],
            ),
            (
                "#16 repository url missing",
                Settings {
                    profiles: vec![profile_with("p2", vec![], vec![repo(Some("r"), None, "default")])],
                    ..Settings::default()
                },
                vec!["ERROR 'profiles.profile[p2].pluginRepositories.pluginRepository.url' for r is missing".into()],
            ),
            (
                "#17 repository layout legacy, with and without id",
                Settings {
                    profiles: vec![profile_with(
                        "pr",
                        vec![repo(Some("leg"), Some("http://r"), "legacy"), repo(None, Some("http://r"), "legacy")],
                        vec![],
                    )],
                    ..Settings::default()
                },
                vec![
                    "WARNING 'profiles.profile[pr].repositories.repository.layout' for leg uses the unsupported \
                     value 'legacy', artifact resolution might fail."
                        .into(),
                    "ERROR 'profiles.profile[pr].repositories.repository.id' for http://r is missing".into(),
                    "WARNING 'profiles.profile[pr].repositories.repository.layout' uses the unsupported value \
                     'legacy', artifact resolution might fail."
                        .into(),
                ],
            ),
            (
                "#18 duplicate proxy id, #19 proxy host missing",
                Settings {
                    proxies: vec![proxy("p", None), proxy("p", Some("h")), proxy("default", Some(""))],
                    ..Settings::default()
                },
                vec![
                    "ERROR 'proxies.proxy.host' for p is missing".into(),
                    "WARNING 'proxies.proxy.id' must be unique but found duplicate proxy with id p".into(),
                    "ERROR 'proxies.proxy.host' for default is missing".into(),
                ],
            ),
            ("valid settings", Settings::default(), vec![]),
        ];
        for (name, settings, expected) in rows {
            let problems = validate(&settings, "settings.xml");
            assert_eq!(render(&problems), expected, "{name}");
            assert!(problems.iter().all(|p| p.stage == Stage::Build
                && p.line.is_none()
                && p.column.is_none()
                && p.source == "settings.xml"));
        }
    }

    #[test]
    fn problems_come_in_maven_order() {
        // Same order as the oracle prints for a file with one problem of each kind.
        let settings = Settings {
            proxies: vec![proxy("p", None)],
            profiles: vec![profile_with(
                "pr",
                vec![repo(Some("r"), None, "default")],
                vec![],
            )],
            mirrors: vec![mirror("m", None, Some("*"))],
            servers: vec![server("")],
            plugin_groups: vec!["".into()],
            use_plugin_registry: true,
            ..Settings::default()
        };
        let fields: Vec<String> = validate(&settings, "s.xml")
            .iter()
            .map(|p| p.message.split('\'').nth(1).unwrap_or_default().to_string())
            .collect();
        assert_eq!(
            fields,
            vec![
                "usePluginRegistry",
                "pluginGroups.pluginGroup[0]",
                "servers.server[0].id",
                "mirrors.mirror.url",
                "profiles.profile[pr].repositories.repository.url",
                "proxies.proxy.host",
            ]
        );
    }

    #[test]
    fn location_suffix_names_where_the_element_was_written() {
        let origin = |file: Option<&str>, line, column| Origin {
            file: file.map(|f| std::sync::Arc::from(std::path::Path::new(f))),
            line,
            column,
            ..Origin::default()
        };
        let rows: Vec<(Origin, &str)> = vec![
            (
                origin(Some("conf/settings.xml"), 12, 5),
                " (at conf/settings.xml:12:5)",
            ),
            (origin(None, 3, 7), " (at settings.xml:3:7)"),
            (
                origin(Some("conf/settings.xml"), 0, 0),
                " (at conf/settings.xml)",
            ),
            (origin(None, 0, 0), ""),
        ];
        for (o, suffix) in rows {
            let settings = Settings {
                mirrors: vec![Mirror {
                    origin: o.clone(),
                    ..mirror("m", Some("http://m"), None)
                }],
                ..Settings::default()
            };
            let problems = validate(&settings, "settings.xml");
            assert_eq!(problems.len(), 1);
            assert_eq!(
                problems[0].message,
                format!("'mirrors.mirror.mirrorOf' for m is missing{suffix}"),
                "{o:?}"
            );
            assert_eq!(
                problems[0].line, None,
                "Maven 3 reports no position for validator problems"
            );
        }
    }

    #[test]
    fn java_whitespace_rules() {
        let rows: &[(&str, &str, bool)] = &[
            ("  a  ", "a", false),
            ("\u{1F}a\u{0}", "a", false),
            ("\u{2003}", "\u{2003}", true), // not trimmed, but blank
            ("\u{A0}", "\u{A0}", false),    // no-break space is not Java whitespace
            ("", "", true),
        ];
        for (input, trimmed, blank) in rows {
            assert_eq!(java_trim(input), *trimmed, "{input:?}");
            assert_eq!(java_is_blank(java_trim(input)), *blank, "{input:?}");
        }
    }

    #[test]
    fn project_settings_rule_21() {
        let settings = Settings {
            local_repository: Some("/repo".into()),
            interactive_mode: false,
            offline: true,
            proxies: vec![proxy("p", Some("h"))],
            use_plugin_registry: true,
            servers: vec![
                Server {
                    id: "s".into(),
                    username: Some("u".into()),
                    password: Some(SettingsSecret::new("pw")),
                    private_key: Some("k".into()),
                    passphrase: Some(SettingsSecret::new("pp")),
                    file_permissions: Some("644".into()),
                    directory_permissions: Some("755".into()),
                    aliases: vec!["a".into()],
                    ..Server::default()
                },
                Server {
                    id: "t".into(),
                    username: Some(String::new()),
                    ..Server::default()
                },
            ],
            ..Settings::default()
        };
        let problems = validate_project_settings(&settings, ".mvn/settings.xml");
        assert!(problems.iter().all(|p| p.severity == Severity::Warning));
        assert_eq!(
            problems
                .iter()
                .map(|p| p.message.as_str())
                .collect::<Vec<_>>(),
            vec![
                "'localRepository' is not supported on project settings.",
                "'interactiveMode' is not supported on project settings.",
                "'offline' is not supported on project settings.",
                "'proxies' are not supported on project settings.",
                "'usePluginRegistry' is not supported on project settings.",
                "'servers.server[0].username' is not supported on project settings.",
                "'servers.server[0].password' is not supported on project settings.",
                "'servers.server[0].privateKey' is not supported on project settings.",
                "'servers.server[0].passphrase' is not supported on project settings.",
                "'servers.server[0].filePermissions' is not supported on project settings.",
                "'servers.server[0].directoryPermissions' is not supported on project settings.",
                "'servers.server[0].aliases' are not supported on project settings.",
            ]
        );
        assert!(validate_project_settings(&Settings::default(), "x").is_empty());
        let empty_local = Settings {
            local_repository: Some(String::new()),
            ..Settings::default()
        };
        assert!(validate_project_settings(&empty_local, "x").is_empty());
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_validate() {
        use crate::settings::validate::validate;
        use crate::settings::{Mirror, Settings, Severity};

        let settings = Settings {
            mirrors: vec![Mirror {
                id: "local".into(),
                mirror_of: Some("*".into()),
                ..Mirror::default()
            }],
            ..Settings::default()
        };
        let problems = validate(&settings, "settings.xml");
        assert_eq!(problems.len(), 2);
        assert_eq!(problems[0].severity, Severity::Warning);
        assert!(problems[0]
            .message
            .starts_with("'mirrors.mirror.id' must not be 'local'"));
        assert_eq!(
            problems[1].message,
            "'mirrors.mirror.url' for local is missing"
        );
    }

    #[test]
    fn doc_validate_project_settings() {
        use crate::settings::validate::validate_project_settings;
        use crate::settings::Settings;

        let settings = Settings {
            offline: true,
            ..Settings::default()
        };
        let problems = validate_project_settings(&settings, ".mvn/settings.xml");
        assert_eq!(
            problems[0].message,
            "'offline' is not supported on project settings."
        );
    }
}
