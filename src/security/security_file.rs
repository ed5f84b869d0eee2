//! Reading `settings-security.xml` (Maven 3, with `<relocation>`) and `settings-security4.xml`
//! (Maven 4), and where they are.
//!
//! Both are parsed strictly, like Maven's modello readers: an unknown or repeated element is an
//! error (`Unrecognised tag: 'modelVersion'`), element text is trimmed. Maven 4's `legacy`
//! dispatcher instead looks for the first `<master>` anywhere and ignores every error
//! ([`legacy_dispatcher_master`]). Owns file locations and XML; not ciphers or caching.

use std::collections::HashSet;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use quick_xml::events::Event;
use quick_xml::Reader;

use super::context::SecurityContext;
use super::error::SecurityError;

/// Most `<relocation>` hops followed (Maven has no limit and overflows its stack on a cycle).
pub const MAX_RELOCATIONS: usize = 16;

/// A configuration block `<configuration><name/><properties/></configuration>`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DispatcherConfig {
    /// `<name>`.
    pub name: Option<String>,
    /// `<properties>` as (name, value) pairs in file order.
    pub properties: Vec<(Option<String>, Option<String>)>,
}

/// The legacy `settings-security.xml` after following `<relocation>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegacySecurityFile {
    /// The file that was finally read.
    pub path: PathBuf,
    /// `<master>`, trimmed (still encrypted).
    pub master: Option<String>,
    /// `<configurations>` (unused by Maven, kept for completeness).
    pub configurations: Vec<DispatcherConfig>,
}

/// Maven 4 `settings-security4.xml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Maven4SecurityFile {
    /// The file.
    pub path: PathBuf,
    /// `<modelVersion>`.
    pub model_version: Option<String>,
    /// `<defaultDispatcher>`.
    pub default_dispatcher: Option<String>,
    /// `<configurations>`.
    pub configurations: Vec<DispatcherConfig>,
}

impl Maven4SecurityFile {
    /// `SecUtil.getConfig`: the properties of the first configuration named `name`
    /// (`None` when absent or without properties).
    pub fn config(&self, name: &str) -> Option<Vec<(String, String)>> {
        let cfg = self
            .configurations
            .iter()
            .find(|c| c.name.as_deref() == Some(name))?;
        if cfg.properties.is_empty() {
            return None;
        }
        Some(
            cfg.properties
                .iter()
                .filter_map(|(k, v)| Some((k.clone()?, v.clone().unwrap_or_default())))
                .collect(),
        )
    }
}

/// Where Maven 3 looks for `settings-security.xml`: property `settings.security`, else
/// `~/.m2/settings-security.xml`; a leading `~` is replaced by `user.home` (Java string
/// concatenation, so `~x` becomes `<home>x`); relative paths resolve against `cwd`.
pub fn legacy_location(ctx: &SecurityContext) -> Result<PathBuf, SecurityError> {
    let location = ctx
        .property("settings.security")
        .unwrap_or("~/.m2/settings-security.xml");
    if location.is_empty() {
        return Err(SecurityError::EmptyLocation {
            name: "settings.security".into(),
        });
    }
    let real = match location.strip_prefix('~') {
        Some(rest) => PathBuf::from(format!("{}{}", ctx.user_home.display(), rest)),
        None => PathBuf::from(location),
    };
    Ok(ctx.resolve(real))
}

/// Where Maven 4's `legacy` dispatcher looks: property `settings.security` as a plain path (no
/// `~` expansion), else `${user.home}/.m2/settings-security.xml`.
pub fn legacy_dispatcher_location(ctx: &SecurityContext) -> PathBuf {
    match ctx.property("settings.security") {
        Some(p) => ctx.resolve(p),
        None => ctx.resolve(ctx.user_home.join(".m2").join("settings-security.xml")),
    }
}

/// Where Maven 4 looks for `settings-security4.xml`: property `maven.settings.security`, else
/// `${maven.user.conf}/settings-security4.xml`, else `${user.home}/.m2/settings-security4.xml`.
pub fn maven4_location(ctx: &SecurityContext) -> PathBuf {
    if let Some(p) = ctx.property("maven.settings.security") {
        return ctx.resolve(p);
    }
    if let Some(conf) = ctx.property("maven.user.conf") {
        return ctx.resolve(Path::new(conf).join("settings-security4.xml"));
    }
    ctx.resolve(ctx.user_home.join(".m2").join("settings-security4.xml"))
}

/// A parsed element: name, trimmed text, children, line.
#[derive(Debug, Default)]
struct Element {
    name: String,
    text: String,
    children: Vec<Element>,
    line: usize,
}

fn line_of(xml: &str, pos: usize) -> usize {
    xml.as_bytes()[..pos.min(xml.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// Parses a whole document into an element tree (comments, PIs, doctype skipped).
fn parse_tree(xml: &str) -> Result<Element, String> {
    let mut reader = Reader::from_str(xml);
    let mut stack: Vec<Element> = Vec::new();
    let mut root: Option<Element> = None;
    loop {
        let pos = reader.buffer_position() as usize;
        let event = reader.read_event().map_err(|e| {
            format!(
                "{e} (line {})",
                line_of(xml, reader.error_position() as usize)
            )
        })?;
        match event {
            Event::Start(e) | Event::Empty(e) if root.is_some() => {
                let _ = e;
                return Err(format!(
                    "content after the root element (line {})",
                    line_of(xml, pos)
                ));
            }
            Event::Start(e) => stack.push(Element {
                name: String::from_utf8_lossy(e.name().as_ref()).into_owned(),
                line: line_of(xml, pos),
                ..Element::default()
            }),
            Event::Empty(e) => {
                let el = Element {
                    name: String::from_utf8_lossy(e.name().as_ref()).into_owned(),
                    line: line_of(xml, pos),
                    ..Element::default()
                };
                match stack.last_mut() {
                    Some(parent) => parent.children.push(el),
                    None => root = Some(el),
                }
            }
            Event::End(_) => {
                let Some(mut el) = stack.pop() else {
                    return Err(format!("unexpected end tag (line {})", line_of(xml, pos)));
                };
                el.text = el.text.trim().to_string();
                match stack.last_mut() {
                    Some(parent) => parent.children.push(el),
                    None => root = Some(el),
                }
            }
            Event::Text(t) => {
                let text = t
                    .unescape()
                    // The error would quote the text, which may be a (weakly) encrypted master.
                    .map_err(|_| {
                        format!(
                            "invalid entity or character reference in element text (line {})",
                            line_of(xml, pos)
                        )
                    })?;
                match stack.last_mut() {
                    Some(el) => el.text.push_str(&text),
                    None if text.trim().is_empty() => {}
                    None => {
                        return Err(format!(
                            "text outside the root element (line {})",
                            line_of(xml, pos)
                        ))
                    }
                }
            }
            Event::CData(c) => {
                let text = String::from_utf8_lossy(&c.into_inner()).into_owned();
                if let Some(el) = stack.last_mut() {
                    el.text.push_str(&text);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !stack.is_empty() {
        return Err("unexpected end of file (unclosed element)".into());
    }
    root.ok_or_else(|| "no root element".to_string())
}

fn tag(el: &Element) -> Result<&str, String> {
    if !el.children.is_empty() {
        return Err(format!(
            "Unrecognised tag: '{}' inside <{}> (line {}): a text element was expected",
            el.children[0].name, el.name, el.children[0].line
        ));
    }
    Ok(&el.text)
}

fn no_text(el: &Element) -> Result<(), String> {
    if !el.text.is_empty() {
        return Err(format!(
            "unexpected text inside <{}> (line {})",
            el.name, el.line
        ));
    }
    Ok(())
}

fn unknown(el: &Element) -> String {
    format!("Unrecognised tag: '{}' (line {})", el.name, el.line)
}

/// Rejects a second occurrence of a single-valued element (modello `Duplicated tag`).
fn once(seen: &mut HashSet<String>, el: &Element) -> Result<(), String> {
    if !seen.insert(el.name.clone()) {
        return Err(format!("Duplicated tag: '{}' (line {})", el.name, el.line));
    }
    Ok(())
}

fn parse_configurations(el: &Element) -> Result<Vec<DispatcherConfig>, String> {
    no_text(el)?;
    let mut out = Vec::new();
    for cfg in &el.children {
        if cfg.name != "configuration" {
            return Err(unknown(cfg));
        }
        no_text(cfg)?;
        let mut config = DispatcherConfig::default();
        let mut seen = HashSet::new();
        for child in &cfg.children {
            match child.name.as_str() {
                "name" => {
                    once(&mut seen, child)?;
                    config.name = Some(tag(child)?.to_string());
                }
                "properties" => {
                    once(&mut seen, child)?;
                    no_text(child)?;
                    for prop in &child.children {
                        if prop.name != "property" {
                            return Err(unknown(prop));
                        }
                        no_text(prop)?;
                        let (mut name, mut value) = (None, None);
                        let mut seen_prop = HashSet::new();
                        for field in &prop.children {
                            match field.name.as_str() {
                                "name" => {
                                    once(&mut seen_prop, field)?;
                                    name = Some(tag(field)?.to_string());
                                }
                                "value" => {
                                    once(&mut seen_prop, field)?;
                                    value = Some(tag(field)?.to_string());
                                }
                                _ => return Err(unknown(field)),
                            }
                        }
                        config.properties.push((name, value));
                    }
                }
                _ => return Err(unknown(child)),
            }
        }
        out.push(config);
    }
    Ok(out)
}

fn expect_root(root: &Element) -> Result<(), String> {
    if root.name != "settingsSecurity" {
        return Err(format!(
            "Expected root element 'settingsSecurity' but found '{}' (line {})",
            root.name, root.line
        ));
    }
    no_text(root)
}

/// One legacy file, not following relocation: (master, relocation, configurations).
type LegacyParts = (Option<String>, Option<String>, Vec<DispatcherConfig>);

fn parse_legacy(xml: &str) -> Result<LegacyParts, String> {
    let root = parse_tree(xml)?;
    expect_root(&root)?;
    let (mut master, mut relocation, mut configurations) = (None, None, Vec::new());
    let mut seen = HashSet::new();
    for child in &root.children {
        once(&mut seen, child)?;
        match child.name.as_str() {
            "master" => master = Some(tag(child)?.to_string()),
            "relocation" => relocation = Some(tag(child)?.to_string()),
            "configurations" => configurations = parse_configurations(child)?,
            _ => return Err(unknown(child)),
        }
    }
    Ok((master, relocation, configurations))
}

fn parse_maven4(xml: &str, path: &Path) -> Result<Maven4SecurityFile, String> {
    let root = parse_tree(xml)?;
    expect_root(&root)?;
    let mut file = Maven4SecurityFile {
        path: path.to_path_buf(),
        model_version: None,
        default_dispatcher: None,
        configurations: Vec::new(),
    };
    let mut seen = HashSet::new();
    for child in &root.children {
        once(&mut seen, child)?;
        match child.name.as_str() {
            "modelVersion" => file.model_version = Some(tag(child)?.to_string()),
            "defaultDispatcher" => file.default_dispatcher = Some(tag(child)?.to_string()),
            "configurations" => file.configurations = parse_configurations(child)?,
            _ => return Err(unknown(child)),
        }
    }
    Ok(file)
}

/// Largest security file read (they hold a master password and a few dispatcher settings; a
/// few hundred bytes in practice).
pub const MAX_SECURITY_FILE_BYTES: u64 = 1 << 20;

/// Reads a security file: `Ok(None)` when missing; a directory, device, FIFO or a file over
/// [`MAX_SECURITY_FILE_BYTES`] is refused before anything is read (`--security /dev/zero`, or a
/// `<relocation>` pointing there).
fn read_text(path: &Path) -> Result<Option<String>, SecurityError> {
    match crate::bounded::read_regular_file(path, MAX_SECURITY_FILE_BYTES) {
        Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
        Err(e) if e.is_not_found() => Ok(None),
        Err(crate::bounded::BoundedReadError::Io { source, .. }) => {
            Err(SecurityError::SecurityFileIo {
                path: path.to_path_buf(),
                source: Arc::new(source),
            })
        }
        Err(e) => Err(SecurityError::SecurityFileIo {
            path: path.to_path_buf(),
            source: Arc::new(std::io::Error::new(ErrorKind::InvalidInput, e.to_string())),
        }),
    }
}

/// URL schemes plexus-sec-dispatcher 2.0 opens as URLs (`SecUtil.URL_PROTOCOLS`).
const URL_PROTOCOLS: [&str; 9] = [
    "http",
    "https",
    "dav",
    "file",
    "davs",
    "webdav",
    "webdavs",
    "dav+http",
    "dav+https",
];

/// `SecUtil.toStream`'s choice between URL and file for a relocation target.
fn relocation_target(
    location: &str,
    from: &Path,
    ctx: &SecurityContext,
) -> Result<PathBuf, SecurityError> {
    if let Some(ind) = location.find("://").filter(|i| *i > 1) {
        let protocol = &location[..ind];
        let rest = &location[ind + 3..];
        // `protocol.regionMatches(true, 0, p, 0, p.length())`: protocol starts with p.
        let matched = URL_PROTOCOLS
            .iter()
            .find(|p| protocol.len() >= p.len() && protocol[..p.len()].eq_ignore_ascii_case(p));
        if let Some(p) = matched {
            if *p == "file" {
                return Ok(ctx.resolve(rest));
            }
            return Err(SecurityError::RelocationUnsupported {
                location: location.to_string(),
                file: from.to_path_buf(),
            });
        }
    }
    Ok(ctx.resolve(location))
}

/// Reads Maven 3's `settings-security.xml` at `start`, following `<relocation>` (relative
/// targets resolve against `cwd`, as Java's `Paths.get` does) at most [`MAX_RELOCATIONS`]
/// times and refusing loops.
pub fn read_legacy(
    start: &Path,
    ctx: &SecurityContext,
) -> Result<LegacySecurityFile, SecurityError> {
    let mut chain: Vec<PathBuf> = Vec::new();
    let mut path = start.to_path_buf();
    loop {
        let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if chain
            .iter()
            .any(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()) == key)
        {
            chain.push(path);
            return Err(SecurityError::RelocationLoop { chain });
        }
        if chain.len() > MAX_RELOCATIONS {
            return Err(SecurityError::TooManyRelocations {
                start: start.to_path_buf(),
                max: MAX_RELOCATIONS,
            });
        }
        chain.push(path.clone());
        let Some(xml) = read_text(&path)? else {
            return Err(SecurityError::SecurityFileNotFound { path });
        };
        let (master, relocation, configurations) =
            parse_legacy(&xml).map_err(|reason| SecurityError::SecurityFileParse {
                path: path.clone(),
                reason,
            })?;
        match relocation {
            Some(target) => path = relocation_target(&target, &path, ctx)?,
            None => {
                return Ok(LegacySecurityFile {
                    path,
                    master,
                    configurations,
                })
            }
        }
    }
}

/// Reads `settings-security4.xml`; `Ok(None)` when it does not exist (not an error by itself).
pub fn read_maven4(path: &Path) -> Result<Option<Maven4SecurityFile>, SecurityError> {
    let Some(xml) = read_text(path)? else {
        return Ok(None);
    };
    parse_maven4(&xml, path)
        .map(Some)
        .map_err(|reason| SecurityError::SecurityFileParse {
            path: path.to_path_buf(),
            reason,
        })
}

/// Maven 4 `LegacyDispatcher`: the text of the first `master` element anywhere in `path`
/// (XPath `//master`), trimmed; `None` if the file is missing, unreadable or malformed.
pub fn legacy_dispatcher_master(path: &Path) -> Option<String> {
    let bytes = crate::bounded::read_regular_file(path, MAX_SECURITY_FILE_BYTES).ok()?;
    let xml = String::from_utf8_lossy(&bytes);
    let root = parse_tree(&xml).ok()?;
    fn find(el: &Element) -> Option<&Element> {
        if el.name == "master" || el.name.rsplit(':').next() == Some("master") {
            return Some(el);
        }
        el.children.iter().find_map(find)
    }
    fn string_value(el: &Element, out: &mut String) {
        out.push_str(&el.text);
        for c in &el.children {
            string_value(c, out);
        }
    }
    let master = find(&root)?;
    let mut value = String::new();
    string_value(master, &mut value);
    Some(value.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_parse_table() {
        /// Expected (master, relocation), or the error text.
        type Expected<'a> = Result<(Option<&'a str>, Option<&'a str>), &'a str>;
        let cases: &[(&str, Expected)] = &[
            ("<settingsSecurity><master>{abc}</master></settingsSecurity>", Ok((Some("{abc}"), None))),
            ("<settingsSecurity>\n  <master>\n    {abc}\n  </master>\n</settingsSecurity>", Ok((Some("{abc}"), None))),
            ("<?xml version=\"1.0\"?><!-- c --><settingsSecurity><relocation> /x </relocation></settingsSecurity>", Ok((None, Some("/x")))),
            ("<settingsSecurity><master/></settingsSecurity>", Ok((Some(""), None))),
            ("<settingsSecurity><master>a&amp;b</master></settingsSecurity>", Ok((Some("a&b"), None))),
            ("<settingsSecurity><modelVersion>4.0</modelVersion></settingsSecurity>", Err("Unrecognised tag: 'modelVersion' (line 1)")),
            ("<settingsSecurity><master>a</master><master>b</master></settingsSecurity>", Err("Duplicated tag: 'master' (line 1)")),
            ("<security><master>a</master></security>", Err("Expected root element 'settingsSecurity' but found 'security' (line 1)")),
            ("<settingsSecurity><master>a</master>", Err("unexpected end of file (unclosed element)")),
            ("<settingsSecurity>oops<master>a</master></settingsSecurity>", Err("unexpected text inside <settingsSecurity> (line 1)")),
            ("<settingsSecurity>\n<master>{abc&secret;}</master></settingsSecurity>", Err("invalid entity or character reference in element text (line 2)")),
        ];
        for (xml, expected) in cases {
            let got = parse_legacy(xml).map(|(m, r, _)| (m, r));
            match expected {
                Ok((m, r)) => {
                    let got = got.unwrap_or_else(|e| panic!("{xml}: {e}"));
                    assert_eq!(got.0.as_deref(), *m, "{xml}");
                    assert_eq!(got.1.as_deref(), *r, "{xml}");
                }
                Err(msg) => assert_eq!(got.err().as_deref(), Some(*msg), "{xml}"),
            }
        }
    }

    #[test]
    fn maven4_parse_and_config_lookup() {
        let xml = r#"<settingsSecurity xmlns="http://codehaus-plexus.github.io/plexus-sec-dispatcher/4.0.0">
  <modelVersion>4.0</modelVersion>
  <defaultDispatcher>master</defaultDispatcher>
  <configurations>
    <configuration><name>empty</name></configuration>
    <configuration><name>master</name><properties>
      <property><name>source</name><value>env:MAVEN_MASTER_PASSWORD</value></property>
      <property><name>cipher</name><value>AES/GCM/NoPadding</value></property>
    </properties></configuration>
  </configurations>
</settingsSecurity>"#;
        let f = parse_maven4(xml, Path::new("/x")).unwrap();
        assert_eq!(f.default_dispatcher.as_deref(), Some("master"));
        let cfg = f.config("master").unwrap();
        assert_eq!(
            cfg[0],
            (
                "source".to_string(),
                "env:MAVEN_MASTER_PASSWORD".to_string()
            )
        );
        assert_eq!(f.config("empty"), None);
        assert_eq!(f.config("nope"), None);
        assert!(parse_maven4(
            "<settingsSecurity><master>x</master></settingsSecurity>",
            Path::new("/x")
        )
        .unwrap_err()
        .contains("Unrecognised tag: 'master'"));
    }

    #[test]
    fn locations() {
        let ctx = SecurityContext::new("/home/u", "/work");
        assert_eq!(
            legacy_location(&ctx).unwrap(),
            PathBuf::from("/home/u/.m2/settings-security.xml")
        );
        assert_eq!(
            maven4_location(&ctx),
            PathBuf::from("/home/u/.m2/settings-security4.xml")
        );
        assert_eq!(
            legacy_dispatcher_location(&ctx),
            PathBuf::from("/home/u/.m2/settings-security.xml")
        );
        let ctx = ctx
            .with_property("settings.security", "~/sec.xml")
            .with_property("maven.user.conf", "conf");
        assert_eq!(
            legacy_location(&ctx).unwrap(),
            PathBuf::from("/home/u/sec.xml")
        );
        assert_eq!(
            legacy_dispatcher_location(&ctx),
            PathBuf::from("/work/~/sec.xml")
        );
        assert_eq!(
            maven4_location(&ctx),
            PathBuf::from("/work/conf/settings-security4.xml")
        );
        let ctx = ctx
            .with_property("settings.security", "rel/sec.xml")
            .with_property("maven.settings.security", "/abs/s4.xml");
        assert_eq!(
            legacy_location(&ctx).unwrap(),
            PathBuf::from("/work/rel/sec.xml")
        );
        assert_eq!(maven4_location(&ctx), PathBuf::from("/abs/s4.xml"));
        let ctx = ctx.with_property("settings.security", "");
        assert!(matches!(
            legacy_location(&ctx),
            Err(SecurityError::EmptyLocation { .. })
        ));
    }

    #[test]
    fn relocation_targets() {
        let ctx = SecurityContext::new("/home/u", "/work");
        let from = Path::new("/a.xml");
        assert_eq!(
            relocation_target("/b.xml", from, &ctx).unwrap(),
            PathBuf::from("/b.xml")
        );
        assert_eq!(
            relocation_target("b.xml", from, &ctx).unwrap(),
            PathBuf::from("/work/b.xml")
        );
        assert_eq!(
            relocation_target("file:///b.xml", from, &ctx).unwrap(),
            PathBuf::from("/b.xml")
        );
        assert_eq!(
            relocation_target("FILE:///b.xml", from, &ctx).unwrap(),
            PathBuf::from("/b.xml")
        );
        assert!(matches!(
            relocation_target("https://host/b.xml", from, &ctx),
            Err(SecurityError::RelocationUnsupported { .. })
        ));
        // "to the moon" (upstream test fixture) is just a relative file name.
        assert_eq!(
            relocation_target("to the moon", from, &ctx).unwrap(),
            PathBuf::from("/work/to the moon")
        );
    }
}
