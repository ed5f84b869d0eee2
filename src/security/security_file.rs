//! Reading `settings-security.xml` (Maven 3, with `<relocation>`) and `settings-security4.xml`
//! (Maven 4), and where they are.
//!
//! Both are read strictly, as Maven's modello readers read them, by the crate's XML reader
//! (`crate::xml`): an unknown or repeated element is an error (`Unrecognised tag:
//! 'modelVersion'`), element text is trimmed, and the messages are Maven's with the line. A
//! reference that does not resolve is reported without quoting it (it may be part of a
//! master password). Maven 4's `legacy` dispatcher instead looks for the first `<master>`
//! anywhere and ignores every error ([`legacy_dispatcher_master`]). Owns file locations and the
//! files' schemas; not ciphers or caching.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::context::SecurityContext;
use super::error::SecurityError;
use crate::xml::dom::{self, Node};
use crate::xml::modello::java_trim;
use crate::xml::schema::{self, class, list, t, Class};
use crate::xml::{XNode, XmlError, XmlErrorKind};

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

static PROPERTY: Class = class("property", &[t("name"), t("value")]);
static CONFIGURATION: Class = class(
    "configuration",
    &[t("name"), list("properties", "property", &PROPERTY)],
);
/// Maven 3's `settings-security.xml` (plexus-sec-dispatcher 1.4 `SettingsSecurity`).
static LEGACY: Class = class(
    "settingsSecurity",
    &[
        t("master"),
        t("relocation"),
        list("configurations", "configuration", &CONFIGURATION),
    ],
);
/// Maven 4's `settings-security4.xml` (plexus-sec-dispatcher 4 `SettingsSecurity`).
static MAVEN4: Class = class(
    "settingsSecurity",
    &[
        t("modelVersion"),
        t("defaultDispatcher"),
        list("configurations", "configuration", &CONFIGURATION),
    ],
);

/// Reads a security file strictly by `schema`; the error says what and on which line.
fn read_tree(bytes: &[u8], schema: &Class) -> Result<XNode, String> {
    let text = dom::decode_lossy(bytes);
    let root = dom::parse(&text).map_err(describe)?;
    schema::read_strict(&text, &root, schema).map_err(describe)
}

fn describe(e: XmlError) -> String {
    match (e.kind, e.pos) {
        // The message would quote the reference, which may be part of a (weakly) encrypted
        // master password.
        (XmlErrorKind::Reference, Some(pos)) => {
            format!("invalid entity or character reference (line {})", pos.line)
        }
        (_, Some(pos)) => format!("{} (line {})", e.message, pos.line),
        (_, None) => e.message,
    }
}

fn configurations(root: &XNode) -> Vec<DispatcherConfig> {
    root.items("configurations")
        .map(|c| DispatcherConfig {
            name: c.child_text("name").map(str::to_string),
            properties: c
                .items("properties")
                .map(|p| {
                    let text = |name| p.child_text(name).map(str::to_string);
                    (text("name"), text("value"))
                })
                .collect(),
        })
        .collect()
}

/// One legacy file, not following relocation: (master, relocation, configurations).
type LegacyParts = (Option<String>, Option<String>, Vec<DispatcherConfig>);

fn parse_legacy(bytes: &[u8]) -> Result<LegacyParts, String> {
    let root = read_tree(bytes, &LEGACY)?;
    let text = |name| root.child_text(name).map(str::to_string);
    Ok((text("master"), text("relocation"), configurations(&root)))
}

fn parse_maven4(bytes: &[u8], path: &Path) -> Result<Maven4SecurityFile, String> {
    let root = read_tree(bytes, &MAVEN4)?;
    let text = |name| root.child_text(name).map(str::to_string);
    Ok(Maven4SecurityFile {
        path: path.to_path_buf(),
        model_version: text("modelVersion"),
        default_dispatcher: text("defaultDispatcher"),
        configurations: configurations(&root),
    })
}

/// Largest security file read (they hold a master password and a few dispatcher settings; a
/// few hundred bytes in practice).
pub const MAX_SECURITY_FILE_BYTES: u64 = 1 << 20;

/// Reads a security file: `Ok(None)` when missing; a directory, device, FIFO or a file over
/// [`MAX_SECURITY_FILE_BYTES`] is refused before anything is read (`--security /dev/zero`, or a
/// `<relocation>` pointing there).
fn read_bytes(path: &Path) -> Result<Option<Vec<u8>>, SecurityError> {
    match crate::bounded::read_regular_file(path, MAX_SECURITY_FILE_BYTES) {
        Ok(bytes) => Ok(Some(bytes)),
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
        let Some(xml) = read_bytes(&path)? else {
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
    let Some(xml) = read_bytes(path)? else {
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
    let text = dom::decode_lossy(&bytes);
    let root = dom::parse(&text).ok()?;
    fn find<'n, 'a>(node: &'n Node<'a>) -> Option<&'n Node<'a>> {
        if node.name.rsplit(':').next() == Some("master") {
            return Some(node);
        }
        node.children.iter().find_map(find)
    }
    fn string_value(node: &Node, out: &mut String) {
        out.push_str(&node.text);
        for c in &node.children {
            string_value(c, out);
        }
    }
    let master = find(&root)?;
    let mut value = String::new();
    string_value(master, &mut value);
    Some(java_trim(&value).to_string())
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
            ("<settingsSecurity><master>a</master>", Err("no more data available - expected end tags </settingsSecurity> to close start tag <settingsSecurity> from line 1")),
            ("<settingsSecurity>oops<master>a</master></settingsSecurity>", Err("expected START_TAG or END_TAG not TEXT inside <settingsSecurity> (line 1)")),
            ("<settingsSecurity>\n<master>{abc&secret;}</master></settingsSecurity>", Err("invalid entity or character reference (line 2)")),
            ("<settingsSecurity>\n<master>{abc&secret}</master></settingsSecurity>", Err("invalid entity or character reference (line 2)")),
            // As Maven's reader (plexus-sec-dispatcher 1.4, checked): XHTML entities, UTF-8
            // read leniently, attributes checked, the strict complaint first in document order.
            ("<settingsSecurity><master>a&nbsp;b</master></settingsSecurity>", Ok((Some("a\u{a0}b"), None))),
            ("<settingsSecurity><master>a<!--c-->b </master></settingsSecurity>", Ok((Some("ab"), None))),
            ("<settingsSecurity foo=\"x\"><master>a</master></settingsSecurity>", Err("Unknown attribute 'foo' for tag 'settingsSecurity' (line 1)")),
            ("<settingsSecurity>\n<bogus/>\n<master>a</master><master>b</master></settingsSecurity>", Err("Unrecognised tag: 'bogus' (line 2)")),
            ("<settingsSecurity><master>a</master></settingsSecurity><x/>", Err("start tag not allowed in epilog but got x (line 1)")),
        ];
        for (xml, expected) in cases {
            let got = parse_legacy(xml.as_bytes()).map(|(m, r, _)| (m, r));
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
    fn encodings_are_read_as_maven_reads_them() {
        let master = |bytes: &[u8]| parse_legacy(bytes).unwrap().0.unwrap();
        // Invalid UTF-8 becomes U+FFFD (Java's decoder), it is not an error.
        assert_eq!(
            master(b"<settingsSecurity><master>a\xff\xfeb</master></settingsSecurity>"),
            "a\u{fffd}\u{fffd}b"
        );
        let text = "<settingsSecurity><master>caf\u{e9}</master></settingsSecurity>";
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        assert_eq!(master(&utf16), "caf\u{e9}");
        assert_eq!(
            master(b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><settingsSecurity><master>caf\xe9</master></settingsSecurity>"),
            "caf\u{e9}"
        );
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
        let f = parse_maven4(xml.as_bytes(), Path::new("/x")).unwrap();
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
            b"<settingsSecurity><master>x</master></settingsSecurity>",
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
