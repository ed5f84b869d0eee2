//! Interpolation of `${...}` expressions in the merged settings, as Maven 3 does it.
//!
//! Maven 3 serialises the merged model to XML, runs plexus-interpolation's
//! `RegexBasedInterpolator` (pattern `\$\{(settings)?(.+?)\}`, a leading `.` of the expression
//! dropped) over the whole text, XML-escapes every substituted value and re-reads the text
//! leniently. The net effect, which this module reproduces field by field, is:
//!
//! - every string field (ids, urls, credentials, profile property values, activation values,
//!   server `<configuration>` text and attributes) is interpolated;
//! - value sources, first hit wins: user properties, system properties, then `env.NAME`;
//! - resolved values are themselves interpolated; unresolved expressions stay literally;
//! - values arrive verbatim (the escaping is undone by the re-read) and are trimmed;
//! - a reference cycle is an ERROR `Failed to interpolate settings: ...` and the settings stay
//!   un-interpolated;
//! - typed fields (booleans, port) were parsed before, so `${...}` cannot set them.

use super::model::*;
use super::problem::{SettingsProblem, Severity, Stage};
use crate::secret::SettingsSecret;
use std::collections::HashMap;

/// Where `${...}` expressions are looked up.
#[derive(Debug, Clone, Default)]
pub struct ValueSources<'a> {
    /// User properties (`-D`), consulted first.
    pub user_properties: Option<&'a HashMap<String, String>>,
    /// System properties (Maven's CLI also puts every `env.NAME` here), consulted second.
    pub system_properties: Option<&'a HashMap<String, String>>,
    /// The environment, consulted for `env.NAME` last.
    pub env: Option<&'a HashMap<String, String>>,
}

impl ValueSources<'_> {
    fn lookup(&self, expr: &str) -> Option<&str> {
        if let Some(v) = self.user_properties.and_then(|p| p.get(expr)) {
            return Some(v);
        }
        if let Some(v) = self.system_properties.and_then(|p| p.get(expr)) {
            return Some(v);
        }
        let name = expr.strip_prefix("env.")?;
        self.env.and_then(|e| e.get(name)).map(String::as_str)
    }
}

/// A reference cycle, e.g. `a` → `${b}` → `${a}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CycleError {
    /// The expressions being resolved when the cycle showed up, outermost first, then the
    /// expression that repeats.
    pub chain: Vec<String>,
    /// The whole `${...}` text of the repeating expression.
    pub whole: String,
}

impl CycleError {
    /// The cycle itself: from the first occurrence of the repeating expression to the end of
    /// the chain, without the repetition.
    pub fn cycle(&self) -> &[String] {
        let (last, before) = self.chain.split_last().unwrap_or((&self.chain[0], &[]));
        let at = before.iter().position(|e| e == last).unwrap_or(0);
        &before[at..]
    }
}

/// Bound on substitutions per value: guards against pathological inputs.
const MAX_STEPS: usize = 10_000;

/// Which of plexus-interpolation's `RegexBasedInterpolator` patterns applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pattern {
    /// `\$\{(settings)?(.+?)\}`: the settings interpolator (an optional `settings` prefix).
    Settings,
    /// `\$\{(.+?)\}`: the default pattern (profile `<file>` activation).
    Plain,
}

/// One match of the pattern.
struct Expr {
    /// Byte range of the whole `${...}`.
    start: usize,
    end: usize,
    /// Byte offset of the expression (after an optional `settings` prefix).
    expr_start: usize,
}

/// Characters Java's `.` does not match (without `DOTALL`).
fn is_java_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// Finds the leftmost match at or after `from`, with the regex's semantics: the optional
/// `settings` prefix is taken when the rest still matches; `.+?` is the shortest non-empty run
/// without a line terminator that ends before a `}` (its first character may be a `}`).
fn find_expr(text: &str, from: usize, pattern: Pattern) -> Option<Expr> {
    let mut at = from;
    while let Some(rel) = text.get(at..)?.find("${") {
        let start = at + rel;
        let body = start + 2;
        // With the prefix first (the group is greedy), then without it.
        let prefixed = (pattern == Pattern::Settings && text[body..].starts_with("settings"))
            .then_some(body + 8);
        for expr_start in [prefixed, Some(body)].into_iter().flatten() {
            if let Some(end) = lazy_close(text, expr_start) {
                return Some(Expr {
                    start,
                    end,
                    expr_start,
                });
            }
        }
        at = start + 1;
    }
    None
}

/// For `.+?\}` starting at byte `i`: the offset just after the closing `}`.
fn lazy_close(text: &str, i: usize) -> Option<usize> {
    let mut chars = text[i..].char_indices();
    match chars.next() {
        Some((_, c)) if !is_java_line_terminator(c) => {}
        _ => return None,
    }
    for (j, c) in chars {
        if c == '}' {
            return Some(i + j + 1);
        }
        if is_java_line_terminator(c) {
            return None;
        }
    }
    None
}

/// plexus-interpolation's `RegexBasedInterpolator`: a leading `.` of an expression is dropped;
/// resolved values are interpolated recursively and replace every occurrence of the whole
/// expression; unresolved expressions stay as written; a cycle is an error. The one `${}`
/// interpolator of the library (settings values and profile `<file>` paths).
pub(crate) fn interpolate(
    input: &str,
    pattern: Pattern,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<String, CycleError> {
    let mut stack = Vec::new();
    interpolate_inner(input, pattern, lookup, &mut stack)
}

fn interpolate_inner(
    input: &str,
    pattern: Pattern,
    lookup: &dyn Fn(&str) -> Option<String>,
    stack: &mut Vec<String>,
) -> Result<String, CycleError> {
    if !input.contains("${") {
        return Ok(input.to_string());
    }
    let mut result = input.to_string();
    let mut from = 0;
    // Each round either replaces an expression (which restarts the scan) or moves past one.
    for _ in 0..MAX_STEPS {
        let Some(m) = find_expr(&result, from, pattern) else {
            break;
        };
        let whole = result[m.start..m.end].to_string();
        let expr = &result[m.expr_start..m.end - 1];
        let real = expr.strip_prefix('.').unwrap_or(expr).to_string();
        if stack.contains(&real) {
            let mut chain = stack.clone();
            chain.push(real);
            return Err(CycleError { chain, whole });
        }
        match lookup(&real) {
            Some(value) => {
                stack.push(real);
                let value = interpolate_inner(&value, pattern, lookup, stack);
                stack.pop();
                result = result.replace(&whole, &value?);
                from = 0;
            }
            None => from = m.end,
        }
    }
    Ok(result)
}

/// Interpolates one value as Maven's settings interpolator would.
pub fn interpolate_value(input: &str, sources: &ValueSources<'_>) -> Result<String, CycleError> {
    interpolate(input, Pattern::Settings, &|e| {
        sources.lookup(e).map(str::to_string)
    })
}

/// Interpolates every string field of `settings`. On a cycle the settings are left untouched
/// and an ERROR problem is returned, as Maven does.
pub fn interpolate_settings(
    settings: &mut Settings,
    sources: &ValueSources<'_>,
) -> Vec<SettingsProblem> {
    let mut walker = Walker {
        sources,
        cycle: None,
        visit: 0,
        undo: Vec::new(),
        restoring: false,
        undo_pos: 0,
    };
    walker.settings(settings);
    match walker.cycle.take() {
        None => Vec::new(),
        Some(c) => {
            // Undo what was interpolated before the cycle showed up: Maven keeps the settings
            // un-interpolated. (An undo log is cheaper than cloning the settings up front.)
            walker.restoring = true;
            walker.visit = 0;
            walker.settings(settings);
            vec![SettingsProblem::new(
            Severity::Error,
            Stage::Build,
            "",
            format!(
                "Failed to interpolate settings: Detected the following recursive expression cycle: [{}]; \
                 break the cycle between these properties",
                c.chain.join(", ")
            ),
        )]
        }
    }
}

/// Visits every string field in a fixed order. Applying, it records the old value of each
/// field it changes (by visit number); restoring, it puts those values back.
struct Walker<'s, 'a> {
    sources: &'s ValueSources<'a>,
    cycle: Option<CycleError>,
    visit: usize,
    undo: Vec<(usize, String)>,
    restoring: bool,
    undo_pos: usize,
}

impl Walker<'_, '_> {
    fn s(&mut self, value: &mut String) {
        self.visit += 1;
        if self.restoring {
            if let Some((at, old)) = self.undo.get(self.undo_pos) {
                if *at == self.visit {
                    *value = old.clone();
                    self.undo_pos += 1;
                }
            }
            return;
        }
        if !value.contains("${") || self.cycle.is_some() {
            return;
        }
        match interpolate_value(value, self.sources) {
            Ok(v) => {
                let new = v.trim();
                if new != value.as_str() {
                    let old = std::mem::replace(value, new.to_string());
                    self.undo.push((self.visit, old));
                }
            }
            Err(c) => self.cycle = Some(c),
        }
    }

    fn o(&mut self, value: &mut Option<String>) {
        if let Some(v) = value {
            self.s(v);
        }
    }

    fn secret(&mut self, value: &mut Option<SettingsSecret>) {
        if let Some(v) = value {
            if self.restoring || v.as_written().contains("${") {
                let mut text = v.as_written().to_string();
                self.s(&mut text);
                *v = SettingsSecret::new(text);
            } else {
                self.visit += 1;
            }
        }
    }

    fn settings(&mut self, s: &mut Settings) {
        self.o(&mut s.local_repository);
        s.active_profiles.iter_mut().for_each(|v| self.s(v));
        s.plugin_groups.iter_mut().for_each(|v| self.s(v));
        for p in &mut s.proxies {
            self.s(&mut p.id);
            self.s(&mut p.protocol);
            self.o(&mut p.username);
            self.secret(&mut p.password);
            self.o(&mut p.host);
            self.o(&mut p.non_proxy_hosts);
        }
        for sv in &mut s.servers {
            self.s(&mut sv.id);
            self.o(&mut sv.username);
            self.secret(&mut sv.password);
            self.o(&mut sv.private_key);
            self.secret(&mut sv.passphrase);
            self.o(&mut sv.file_permissions);
            self.o(&mut sv.directory_permissions);
            if let Some(conf) = &mut sv.configuration {
                self.dom(conf);
            }
            sv.aliases.iter_mut().for_each(|v| self.s(v));
        }
        for m in &mut s.mirrors {
            self.s(&mut m.id);
            self.o(&mut m.mirror_of);
            self.o(&mut m.name);
            self.o(&mut m.url);
            self.s(&mut m.layout);
            self.s(&mut m.mirror_of_layouts);
        }
        for p in &mut s.profiles {
            self.s(&mut p.id);
            if let Some(a) = &mut p.activation {
                self.o(&mut a.jdk);
                if let Some(os) = &mut a.os {
                    self.o(&mut os.name);
                    self.o(&mut os.family);
                    self.o(&mut os.arch);
                    self.o(&mut os.version);
                }
                if let Some(prop) = &mut a.property {
                    self.o(&mut prop.name);
                    self.o(&mut prop.value);
                }
                if let Some(f) = &mut a.file {
                    self.o(&mut f.missing);
                    self.o(&mut f.exists);
                }
                self.o(&mut a.packaging);
            }
            p.properties.iter_mut().for_each(|(_, v)| self.s(v));
            p.repositories.iter_mut().for_each(|r| self.repository(r));
            p.plugin_repositories
                .iter_mut()
                .for_each(|r| self.repository(r));
        }
        s.repositories.iter_mut().for_each(|r| self.repository(r));
        s.plugin_repositories
            .iter_mut()
            .for_each(|r| self.repository(r));
    }

    fn repository(&mut self, r: &mut Repository) {
        self.o(&mut r.id);
        self.o(&mut r.name);
        self.o(&mut r.url);
        self.s(&mut r.layout);
        for p in [&mut r.releases, &mut r.snapshots].into_iter().flatten() {
            self.o(&mut p.update_policy);
            self.o(&mut p.checksum_policy);
        }
    }

    fn dom(&mut self, e: &mut XmlElement) {
        self.o(&mut e.text);
        e.attributes.iter_mut().for_each(|(_, v)| self.s(v));
        e.children.iter_mut().for_each(|c| self.dom(c));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_interpolator_two_patterns() {
        let lookup = |e: &str| match e {
            "a" => Some("A".to_string()),
            "settings" => Some("S".to_string()),
            _ => None,
        };
        // (input, settings pattern, plain pattern)
        let cases = [
            ("${settings.a}", "A", "${settings.a}"),
            ("${settings}", "S", "S"),
            ("${.a}", "A", "A"),
            ("${a\u{2028}}", "${a\u{2028}}", "${a\u{2028}}"),
            ("${a\u{85}}x${a}", "${a\u{85}}xA", "${a\u{85}}xA"),
        ];
        for (input, settings, plain) in cases {
            assert_eq!(
                interpolate(input, Pattern::Settings, &lookup).unwrap(),
                settings,
                "{input:?}"
            );
            assert_eq!(
                interpolate(input, Pattern::Plain, &lookup).unwrap(),
                plain,
                "{input:?}"
            );
        }
        let cyclic = |e: &str| Some(format!("${{{}}}", if e == "x" { "y" } else { "x" }));
        let err = interpolate("${x}", Pattern::Plain, &cyclic).unwrap_err();
        assert_eq!(err.chain, ["x", "y", "x"]);
        assert_eq!(err.cycle(), ["x", "y"]);
        assert_eq!(err.whole, "${x}");
    }

    fn map(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn table() {
        let user = map(&[
            ("u", "user"),
            ("both", "from-user"),
            ("nested", "<${u}>"),
            ("sp", "  padded  "),
        ]);
        let system = map(&[
            ("both", "from-system"),
            ("s", "sys"),
            ("user.home", "/home/me"),
            ("env.X", "sysenv"),
        ]);
        let env = map(&[("X", "envx"), ("Y", "envy")]);
        let src = ValueSources {
            user_properties: Some(&user),
            system_properties: Some(&system),
            env: Some(&env),
        };
        let cases = [
            ("plain", "plain"),
            ("${u}", "user"),
            ("${both}", "from-user"),
            ("${s}", "sys"),
            ("${user.home}/.m2", "/home/me/.m2"),
            ("${env.X}", "sysenv"),
            ("${env.Y}", "envy"),
            ("${env.NOPE}", "${env.NOPE}"),
            ("${settings.u}", "user"),
            ("${settingsu}", "user"),
            ("${nested}", "<user>"),
            ("a${u}b${u}c", "auserbuserc"),
            ("${missing}${u}", "${missing}user"),
            ("${}", "${}"),
            ("${u", "${u"),
            ("$${u}", "$user"),
            ("${settings}", "${settings}"),
            ("${settings.}", "${settings.}"),
            ("${a\nb}${u}", "${a\nb}user"),
            ("${}}", "${}}"),
        ];
        for (input, expected) in cases {
            assert_eq!(interpolate_value(input, &src).unwrap(), expected, "{input}");
        }
    }

    #[test]
    fn cycles_are_detected() {
        let user = map(&[
            ("a", "${b}"),
            ("b", "x${a}"),
            ("self", "${self}"),
            ("ok", "fine"),
        ]);
        let src = ValueSources {
            user_properties: Some(&user),
            ..Default::default()
        };
        assert!(interpolate_value("${a}", &src).is_err());
        assert!(interpolate_value("${self}", &src).is_err());
        let mut s = Settings {
            local_repository: Some("${ok}".into()),
            offline: true,
            active_profiles: vec!["${ok}".into(), "${a}".into()],
            ..Settings::default()
        };
        s.proxies.push(Proxy {
            password: Some(SettingsSecret::new("${ok}")),
            ..Proxy::default()
        });
        let problems = interpolate_settings(&mut s, &src);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].severity, Severity::Error);
        assert_eq!(s.local_repository.as_deref(), Some("${ok}"), "restored");
    }

    #[test]
    fn fields_are_interpolated_and_trimmed() {
        let user = map(&[("h", " host.example "), ("pw", "p&<>w")]);
        let src = ValueSources {
            user_properties: Some(&user),
            ..Default::default()
        };
        let mut s = Settings::default();
        s.proxies.push(Proxy {
            host: Some("${h}".into()),
            password: Some(SettingsSecret::new("${pw}")),
            ..Proxy::default()
        });
        s.servers.push(Server {
            id: "s".into(),
            configuration: Some(XmlElement {
                name: "configuration".into(),
                text: Some("${h}".into()),
                attributes: vec![("k".into(), "${pw}".into())],
                ..XmlElement::default()
            }),
            ..Server::default()
        });
        assert!(interpolate_settings(&mut s, &src).is_empty());
        assert_eq!(s.proxies[0].host.as_deref(), Some("host.example"));
        assert_eq!(
            s.proxies[0].password.as_ref().unwrap().as_written(),
            "p&<>w"
        );
        let conf = s.servers[0].configuration.as_ref().unwrap();
        assert_eq!(conf.text.as_deref(), Some("host.example"));
        assert_eq!(conf.attributes[0].1, "p&<>w");
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_interpolate_value() {
        use crate::settings::interpolate::{interpolate_value, ValueSources};
        use std::collections::HashMap;
        let user: HashMap<String, String> = [
            ("a".to_string(), "x${b}".to_string()),
            ("b".to_string(), "y".to_string()),
        ]
        .into();
        let src = ValueSources {
            user_properties: Some(&user),
            ..Default::default()
        };
        assert_eq!(
            interpolate_value("${a}/${settings.b}/${nope}", &src).unwrap(),
            "xy/y/${nope}"
        );
    }
}
