//! Reading `settings.xml` into the [`Settings`] model, as Maven's reader does.
//!
//! Maven parses strictly first; on the first strict-only error (unknown element or attribute,
//! wrong root, non-integer port) it parses again leniently and records ONE warning with that
//! first error. Malformed XML, a duplicated non-list element, an element inside a text element
//! or text inside a list fail both ways and are FATAL; text between the elements of a class is
//! a strict error only. This module does the two passes in one walk over a positioned XML tree
//! with the rules of Maven's readers (`crate::xml`): it behaves leniently and remembers the
//! first strict error.
//!
//! Maven 4-only elements (top-level `repositories`/`pluginRepositories`, server `aliases`,
//! activation `packaging`/`condition`) are kept in the model for embedders that want them, but
//! count as the strict error Maven 3 reports for them, and nothing inside them is fatal, since
//! Maven 3 skips them unread.
//!
//! Not here: merging, interpolation, validation (siblings of this module).

use super::model::*;
use super::problem::{SettingsProblem, Severity, Stage};
use crate::secret::SettingsSecret;
use crate::xml::dom::{self, Node, XmlError};
use crate::xml::modello::{java_trim, leaf, wrapper_text, Checked, ModelReader, Seen};
use std::path::Path;
use std::sync::Arc;

/// The outcome of reading one file: the model (empty after a FATAL problem) and the problems.
#[derive(Debug, Clone)]
pub struct ReadOutcome {
    /// The settings read; `Settings::default()` when a FATAL problem occurred.
    pub settings: Settings,
    /// Problems, at most one strict-mode WARNING or one FATAL.
    pub problems: Vec<SettingsProblem>,
}

impl ReadOutcome {
    /// True when a FATAL problem stopped the reading.
    #[cfg(test)]
    pub fn is_fatal(&self) -> bool {
        self.problems.iter().any(|p| p.severity == Severity::Fatal)
    }
}

/// Reads settings from bytes. `source` names the input in messages (usually the path as given).
pub fn read_settings(
    bytes: &[u8],
    source: &str,
    level: SourceLevel,
    file: Option<&Path>,
) -> ReadOutcome {
    let fatal = |e: XmlError| {
        let prefix = if e.is_unreadable() {
            "Non-readable"
        } else {
            "Non-parseable"
        };
        let mut p = SettingsProblem::new(
            Severity::Fatal,
            Stage::Build,
            source,
            format!("{prefix} settings {source}: {}", e.message),
        );
        if let Some(pos) = e.pos {
            p = p.at(pos.line, pos.column);
        }
        ReadOutcome {
            settings: Settings::default(),
            problems: vec![p],
        }
    };
    let text = match dom::decode(bytes) {
        Ok(t) => t,
        Err(e) => return fatal(e),
    };
    let root = match dom::parse(&text) {
        Ok(r) => r,
        Err(e) => return fatal(e),
    };
    let mut mapper = Mapper {
        reader: ModelReader::new(&text),
        origin: Origin {
            level,
            file: file.map(Arc::from),
            line: 0,
            column: 0,
        },
    };
    match mapper.settings(&root) {
        Ok(settings) => {
            let mut problems = Vec::new();
            if let Some(e) = mapper.reader.take_strict_error() {
                let mut p =
                    SettingsProblem::new(Severity::Warning, Stage::Build, source, e.message);
                if let Some(pos) = e.pos {
                    p = p.at(pos.line, pos.column);
                }
                problems.push(p);
            }
            ReadOutcome { settings, problems }
        }
        Err(complaint) => fatal(mapper.reader.error(complaint)),
    }
}

type R<T> = Checked<T>;

struct Mapper<'t> {
    /// Positions and the first strict-mode error.
    reader: ModelReader<'t>,
    origin: Origin,
}

impl Mapper<'_> {
    fn origin(&self, node: &Node) -> Origin {
        let pos = self.reader.pos(node.start);
        Origin {
            line: pos.line,
            column: pos.column,
            ..self.origin.clone()
        }
    }

    fn unknown(&mut self, node: &Node) {
        self.reader.unknown(node);
    }

    /// A class element (not the document element): no attributes but namespaced ones, and
    /// only whitespace between its children in strict mode.
    fn class_element(&mut self, node: &Node) {
        self.reader.attributes(node, &[], false);
        self.reader.class_text(node);
    }

    fn text(&self, node: &Node) -> R<String> {
        Ok(leaf(node)?.to_string())
    }

    /// A Maven 4-only element: Maven 3 skips it as unknown (one strict error, nothing inside it
    /// is fatal, it may be repeated); `read` keeps what it can for embedders, the last one wins.
    fn maven4<T>(&mut self, node: &Node, read: impl FnOnce(&mut Self) -> R<T>) -> Option<T> {
        self.unknown(node);
        read(self).ok()
    }

    fn boolean(&self, node: &Node, default: bool) -> R<bool> {
        let t = self.text(node)?;
        Ok(if t.is_empty() {
            default
        } else {
            t.eq_ignore_ascii_case("true")
        })
    }

    fn int(&mut self, node: &Node) -> R<i32> {
        let t = self.text(node)?;
        match t.parse::<i32>() {
            Ok(v) => Ok(v),
            Err(_) => {
                self.reader.strict(
                    format!(
                        "Unable to parse element '{}', must be an integer",
                        node.name
                    ),
                    node.after_end,
                );
                Ok(0)
            }
        }
    }

    /// A single-valued leaf: Maven's duplicate check, then its trimmed text.
    fn field<'n>(&self, seen: &mut Seen<'n>, node: &'n Node) -> R<String> {
        seen.check(node.name, node)?;
        self.text(node)
    }

    /// A single-valued boolean leaf (`default` when empty).
    fn bool_field<'n>(&self, seen: &mut Seen<'n>, node: &'n Node, default: bool) -> R<bool> {
        seen.check(node.name, node)?;
        self.boolean(node, default)
    }

    /// A single-valued integer leaf.
    fn int_field<'n>(&mut self, seen: &mut Seen<'n>, node: &'n Node) -> R<i32> {
        seen.check(node.name, node)?;
        self.int(node)
    }

    /// A list wrapper: `item` children parsed with `parse`, anything else is unknown.
    fn list<T>(
        &mut self,
        node: &Node,
        item: &str,
        parse: fn(&mut Self, &Node) -> R<T>,
    ) -> R<Vec<T>> {
        wrapper_text(node)?;
        let mut out = Vec::new();
        for child in &node.children {
            if child.name == item {
                out.push(parse(self, child)?);
            } else {
                self.unknown(child);
            }
        }
        Ok(out)
    }

    fn string_list(&mut self, node: &Node, item: &str) -> R<Vec<String>> {
        wrapper_text(node)?;
        let mut out = Vec::new();
        for child in &node.children {
            if child.name == item {
                out.push(self.text(child)?);
            } else {
                self.unknown(child);
            }
        }
        Ok(out)
    }

    fn settings(&mut self, root: &Node) -> R<Settings> {
        self.reader.root(root, "settings");
        self.reader.attributes(root, &[], true);
        self.reader.class_text(root);
        let mut s = Settings::default();
        let mut seen = Seen::default();
        for c in &root.children {
            match c.name {
                "localRepository" => s.local_repository = Some(self.field(&mut seen, c)?),
                "interactiveMode" => s.interactive_mode = self.bool_field(&mut seen, c, true)?,
                "usePluginRegistry" => {
                    s.use_plugin_registry = self.bool_field(&mut seen, c, false)?
                }
                "offline" => s.offline = self.bool_field(&mut seen, c, false)?,
                "proxies" => {
                    seen.check("proxies", c)?;
                    s.proxies = self.list(c, "proxy", Self::proxy)?;
                }
                "servers" => {
                    seen.check("servers", c)?;
                    s.servers = self.list(c, "server", Self::server)?;
                }
                "mirrors" => {
                    seen.check("mirrors", c)?;
                    s.mirrors = self.list(c, "mirror", Self::mirror)?;
                }
                "profiles" => {
                    seen.check("profiles", c)?;
                    s.profiles = self.list(c, "profile", Self::profile)?;
                }
                "activeProfiles" => {
                    seen.check("activeProfiles", c)?;
                    s.active_profiles = self.string_list(c, "activeProfile")?;
                }
                "pluginGroups" => {
                    seen.check("pluginGroups", c)?;
                    s.plugin_groups = self.string_list(c, "pluginGroup")?;
                }
                // Maven 4 (settings 1.3.0): kept, but Maven 3 does not know them.
                "repositories" => {
                    if let Some(r) = self.maven4(c, |m| m.repositories(c, "repository")) {
                        s.repositories = r;
                    }
                }
                "pluginRepositories" => {
                    if let Some(r) = self.maven4(c, |m| m.repositories(c, "pluginRepository")) {
                        s.plugin_repositories = r;
                    }
                }
                _ => self.unknown(c),
            }
        }
        Ok(s)
    }

    fn proxy(&mut self, node: &Node) -> R<Proxy> {
        self.class_element(node);
        let mut p = Proxy {
            origin: self.origin(node),
            ..Proxy::default()
        };
        let mut seen = Seen::default();
        for c in &node.children {
            match c.name {
                "id" => p.id = self.field(&mut seen, c)?,
                "active" => p.active = self.bool_field(&mut seen, c, true)?,
                "protocol" => p.protocol = self.field(&mut seen, c)?,
                "username" => p.username = Some(self.field(&mut seen, c)?),
                "password" => p.password = Some(SettingsSecret::new(self.field(&mut seen, c)?)),
                "port" => p.port = self.int_field(&mut seen, c)?,
                "host" => p.host = Some(self.field(&mut seen, c)?),
                "nonProxyHosts" => p.non_proxy_hosts = Some(self.field(&mut seen, c)?),
                _ => self.unknown(c),
            }
        }
        Ok(p)
    }

    fn server(&mut self, node: &Node) -> R<Server> {
        self.class_element(node);
        let mut s = Server {
            id: "default".into(),
            origin: self.origin(node),
            ..Server::default()
        };
        let mut seen = Seen::default();
        for c in &node.children {
            match c.name {
                "id" => s.id = self.field(&mut seen, c)?,
                "username" => s.username = Some(self.field(&mut seen, c)?),
                "password" => s.password = Some(SettingsSecret::new(self.field(&mut seen, c)?)),
                "privateKey" => s.private_key = Some(self.field(&mut seen, c)?),
                "passphrase" => s.passphrase = Some(SettingsSecret::new(self.field(&mut seen, c)?)),
                "filePermissions" => s.file_permissions = Some(self.field(&mut seen, c)?),
                "directoryPermissions" => s.directory_permissions = Some(self.field(&mut seen, c)?),
                "configuration" => {
                    seen.check("configuration", c)?;
                    s.configuration = Some(to_xml_element(c));
                }
                "aliases" => {
                    if let Some(aliases) = self.maven4(c, |m| m.string_list(c, "alias")) {
                        s.aliases = aliases;
                    }
                }
                _ => self.unknown(c),
            }
        }
        Ok(s)
    }

    fn mirror(&mut self, node: &Node) -> R<Mirror> {
        self.class_element(node);
        let mut m = Mirror {
            origin: self.origin(node),
            ..Mirror::default()
        };
        let mut seen = Seen::default();
        for c in &node.children {
            match c.name {
                "id" => m.id = self.field(&mut seen, c)?,
                "mirrorOf" => m.mirror_of = Some(self.field(&mut seen, c)?),
                "name" => m.name = Some(self.field(&mut seen, c)?),
                "url" => m.url = Some(self.field(&mut seen, c)?),
                "layout" => m.layout = self.field(&mut seen, c)?,
                "mirrorOfLayouts" => m.mirror_of_layouts = self.field(&mut seen, c)?,
                "blocked" => m.blocked = self.bool_field(&mut seen, c, false)?,
                _ => self.unknown(c),
            }
        }
        Ok(m)
    }

    fn profile(&mut self, node: &Node) -> R<Profile> {
        self.class_element(node);
        let mut p = Profile {
            origin: self.origin(node),
            ..Profile::default()
        };
        let mut seen = Seen::default();
        for c in &node.children {
            match c.name {
                "id" => p.id = self.field(&mut seen, c)?,
                "activation" => {
                    seen.check("activation", c)?;
                    p.activation = Some(self.activation(c)?);
                }
                "properties" => {
                    seen.check("properties", c)?;
                    wrapper_text(c)?;
                    for prop in &c.children {
                        let value = self.text(prop)?;
                        match p.properties.iter_mut().find(|(k, _)| *k == prop.name) {
                            Some(slot) => slot.1 = value,
                            None => p.properties.push((prop.name.to_string(), value)),
                        }
                    }
                }
                "repositories" => {
                    seen.check("repositories", c)?;
                    p.repositories = self.repositories(c, "repository")?;
                }
                "pluginRepositories" => {
                    seen.check("pluginRepositories", c)?;
                    p.plugin_repositories = self.repositories(c, "pluginRepository")?;
                }
                _ => self.unknown(c),
            }
        }
        Ok(p)
    }

    fn activation(&mut self, node: &Node) -> R<Activation> {
        self.class_element(node);
        let mut a = Activation::default();
        let mut seen = Seen::default();
        for c in &node.children {
            match c.name {
                "activeByDefault" => a.active_by_default = self.bool_field(&mut seen, c, false)?,
                "jdk" => a.jdk = Some(self.field(&mut seen, c)?),
                "os" => {
                    seen.check("os", c)?;
                    self.class_element(c);
                    let mut os = ActivationOs::default();
                    let mut seen_os = Seen::default();
                    for f in &c.children {
                        match f.name {
                            "name" => os.name = Some(self.field(&mut seen_os, f)?),
                            "family" => os.family = Some(self.field(&mut seen_os, f)?),
                            "arch" => os.arch = Some(self.field(&mut seen_os, f)?),
                            "version" => os.version = Some(self.field(&mut seen_os, f)?),
                            _ => self.unknown(f),
                        }
                    }
                    a.os = Some(os);
                }
                "property" => {
                    seen.check("property", c)?;
                    self.class_element(c);
                    let mut prop = ActivationProperty::default();
                    let mut seen_p = Seen::default();
                    for f in &c.children {
                        match f.name {
                            "name" => prop.name = Some(self.field(&mut seen_p, f)?),
                            "value" => prop.value = Some(self.field(&mut seen_p, f)?),
                            _ => self.unknown(f),
                        }
                    }
                    a.property = Some(prop);
                }
                "file" => {
                    seen.check("file", c)?;
                    self.class_element(c);
                    let mut file = ActivationFile::default();
                    let mut seen_f = Seen::default();
                    for f in &c.children {
                        match f.name {
                            "missing" => file.missing = Some(self.field(&mut seen_f, f)?),
                            "exists" => file.exists = Some(self.field(&mut seen_f, f)?),
                            _ => self.unknown(f),
                        }
                    }
                    a.file = Some(file);
                }
                "packaging" => a.packaging = self.maven4(c, |m| m.text(c)).or(a.packaging),
                "condition" => a.condition = self.maven4(c, |m| m.text(c)).or(a.condition),
                _ => self.unknown(c),
            }
        }
        Ok(a)
    }

    fn repositories(&mut self, node: &Node, item: &str) -> R<Vec<Repository>> {
        wrapper_text(node)?;
        let mut out = Vec::new();
        for c in &node.children {
            if c.name == item {
                out.push(self.repository(c)?);
            } else {
                self.unknown(c);
            }
        }
        Ok(out)
    }

    fn repository(&mut self, node: &Node) -> R<Repository> {
        self.class_element(node);
        let mut r = Repository {
            origin: self.origin(node),
            ..Repository::default()
        };
        let mut seen = Seen::default();
        for c in &node.children {
            match c.name {
                "id" => r.id = Some(self.field(&mut seen, c)?),
                "name" => r.name = Some(self.field(&mut seen, c)?),
                "url" => r.url = Some(self.field(&mut seen, c)?),
                "layout" => r.layout = self.field(&mut seen, c)?,
                "releases" => {
                    seen.check("releases", c)?;
                    r.releases = Some(self.policy(c)?);
                }
                "snapshots" => {
                    seen.check("snapshots", c)?;
                    r.snapshots = Some(self.policy(c)?);
                }
                _ => self.unknown(c),
            }
        }
        Ok(r)
    }

    fn policy(&mut self, node: &Node) -> R<RepositoryPolicy> {
        self.class_element(node);
        let mut p = RepositoryPolicy::default();
        let mut seen = Seen::default();
        for c in &node.children {
            match c.name {
                "enabled" => p.enabled = self.bool_field(&mut seen, c, true)?,
                "updatePolicy" => p.update_policy = Some(self.field(&mut seen, c)?),
                "checksumPolicy" => p.checksum_policy = Some(self.field(&mut seen, c)?),
                _ => self.unknown(c),
            }
        }
        Ok(p)
    }
}

/// A free DOM (server `<configuration>`), as Maven's Xpp3DomBuilder builds it: text trimmed,
/// kept only on elements without children.
fn to_xml_element(node: &Node) -> XmlElement {
    let children: Vec<XmlElement> = node.children.iter().map(to_xml_element).collect();
    let trimmed = java_trim(&node.text);
    let text = if children.is_empty() {
        Some(trimmed.to_string())
    } else if trimmed.is_empty() {
        None
    } else {
        Some(trimmed.to_string())
    };
    XmlElement {
        name: node.name.to_string(),
        attributes: node.attributes.clone(),
        children,
        text,
        line: 0,
        column: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str) -> ReadOutcome {
        read_settings(s.as_bytes(), "settings.xml", SourceLevel::User, None)
    }

    #[test]
    fn defaults() {
        let o = read(
            "<settings><proxies><proxy><host>h</host></proxy></proxies><servers><server/></servers>\
             <mirrors><mirror><url>u</url><mirrorOf>*</mirrorOf></mirror></mirrors></settings>",
        );
        assert!(o.problems.is_empty(), "{:?}", o.problems);
        let p = &o.settings.proxies[0];
        assert_eq!(
            (p.id.as_str(), p.port, p.protocol.as_str(), p.active),
            ("default", 8080, "http", true)
        );
        assert_eq!(o.settings.servers[0].id, "default");
        let m = &o.settings.mirrors[0];
        assert_eq!(
            (m.layout.as_str(), m.mirror_of_layouts.as_str(), m.blocked),
            ("default", "default,legacy", false)
        );
        assert!(o.settings.interactive_mode);
    }

    #[test]
    fn booleans_as_maven() {
        let cases = [
            ("TRUE", true),
            ("true", true),
            ("yes", false),
            ("", false),
            ("1", false),
        ];
        for (text, expected) in cases {
            let o = read(&format!("<settings><offline>{text}</offline></settings>"));
            assert_eq!(o.settings.offline, expected, "{text}");
        }
        let o = read("<settings><interactiveMode></interactiveMode></settings>");
        assert!(o.settings.interactive_mode, "empty keeps the default");
    }

    #[test]
    fn strict_errors_become_one_warning() {
        let cases: &[(&str, &str, u32, u32)] = &[
            (
                "<settings>\n    <unknown><a/></unknown>\n</settings>",
                "Unrecognised tag: 'unknown'",
                2,
                14,
            ),
            (
                "<settings foo=\"bar\"></settings>",
                "Unknown attribute 'foo' for tag 'settings'",
                1,
                21,
            ),
            (
                "<foo>\n</foo>",
                "Expected root element 'settings' but found 'foo'",
                1,
                6,
            ),
            (
                "<settings><proxies><proxy><port>abc</port></proxy></proxies></settings>",
                "Unable to parse element 'port', must be an integer",
                1,
                43,
            ),
        ];
        for (input, message, line, column) in cases {
            let o = read(input);
            assert_eq!(o.problems.len(), 1, "{input}");
            let p = &o.problems[0];
            assert_eq!(p.severity, Severity::Warning);
            assert!(p.message.starts_with(message), "{}", p.message);
            assert_eq!((p.line, p.column), (Some(*line), Some(*column)), "{input}");
        }
    }

    #[test]
    fn lenient_keeps_known_content_after_unknown() {
        let o =
            read("<settings><x/><y/><servers><server><id>a</id><z/></server></servers></settings>");
        assert_eq!(o.problems.len(), 1);
        assert!(
            o.problems[0].message.contains("'x'"),
            "first strict error wins"
        );
        assert_eq!(o.settings.servers[0].id, "a");
    }

    #[test]
    fn non_integer_port_becomes_zero() {
        let o = read("<settings><proxies><proxy><port>${env.P}</port><host>h</host></proxy></proxies></settings>");
        assert_eq!(o.settings.proxies[0].port, 0);
    }

    #[test]
    fn fatal_cases() {
        let cases: &[(&str, Option<u32>)] = &[
            ("<settings>\n<servers><server><id>a</id>\n<id>b</id></server></servers></settings>", Some(3)),
            ("<settings><servers><server><id>a<x/></id></server></servers></settings>", Some(1)),
            ("", None),
            ("<settings><servers></settings>", Some(1)),
            ("<settings><localRepository>a</localRepository><localRepository>b</localRepository></settings>", Some(1)),
        ];
        for (input, line) in cases {
            let o = read(input);
            assert!(o.is_fatal(), "{input}: {:?}", o.problems);
            assert_eq!(o.problems[0].line, *line, "{input}: {:?}", o.problems);
            assert_eq!(o.settings, Settings::default());
        }
    }

    #[test]
    fn configuration_dom_and_properties() {
        let o = read(
            "<settings><servers><server><id>s</id><configuration><httpHeaders><property>\
             <name>X</name><value> v </value></property></httpHeaders><timeout a=\"1\">5</timeout>\
             </configuration></server></servers><profiles><profile><id>p</id><properties>\
             <b>2</b><a> 1 </a><b>3</b></properties></profile></profiles></settings>",
        );
        assert!(o.problems.is_empty(), "{:?}", o.problems);
        let conf = o.settings.servers[0].configuration.as_ref().unwrap();
        let prop = conf
            .child("httpHeaders")
            .unwrap()
            .child("property")
            .unwrap();
        assert_eq!(prop.child_text("value"), Some("v"));
        assert_eq!(
            conf.child("timeout").unwrap().attributes,
            vec![("a".to_string(), "1".to_string())]
        );
        assert_eq!(
            o.settings.profiles[0].properties,
            vec![
                ("b".to_string(), "3".to_string()),
                ("a".to_string(), "1".to_string())
            ]
        );
    }

    #[test]
    fn maven4_elements_are_kept_and_warned() {
        let o = read(
            "<settings><repositories><repository><id>r</id><url>u</url></repository></repositories>\
             <servers><server><id>s</id><aliases><alias>t</alias></aliases></server></servers></settings>",
        );
        assert_eq!(o.problems.len(), 1);
        assert_eq!(o.settings.repositories[0].id.as_deref(), Some("r"));
        assert_eq!(o.settings.servers[0].aliases, vec!["t".to_string()]);
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_read_settings() {
        use crate::settings::{xml, SourceLevel};
        let out = xml::read_settings(
            b"<settings><offline>true</offline></settings>",
            "settings.xml",
            SourceLevel::User,
            None,
        );
        assert!(out.settings.offline);
        assert!(out.problems.is_empty());
    }
}
