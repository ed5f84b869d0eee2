//! Reading `pom.xml` text as Maven 3.8.7's `MavenXpp3Reader` does, on the settings' positioned
//! XML tree (`settings::dom`).
//!
//! The reader is driven by the POM 4.0.0 schema below (one entry per model class: its elements,
//! their kinds, the attributes it accepts). It walks the tree once, leniently, and remembers the
//! first error only the strict reader makes:
//!
//! - strict-only: an unknown element or attribute, the root element not being `<project>`, text
//!   between the elements of a class (`<dependency>x<groupId>…`);
//! - fatal both ways: malformed XML, a single-valued element given twice (`Duplicated tag`),
//!   elements inside a text element, text inside a list (`<dependencies>x<dependency>…`) or
//!   `<properties>`.
//!
//! Maven reads dependency POMs leniently only (validation level minimal) and project files
//! strictly first: a strict-only error is then an ERROR for the project file and a WARNING for
//! its parents ([`super::builder`] decides). Unknown elements are dropped from the result, as
//! the lenient reader skips them; values are trimmed as `String.trim()` does.

use crate::settings::dom::{self, LineIndex, Node, Pos};

/// An element as Maven's reader keeps it: known elements only, aliases normalised
/// (`organisation` → `organization`), text trimmed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct XNode {
    /// Element name.
    pub name: String,
    /// Trimmed text (for text elements and configuration DOMs).
    pub text: String,
    /// Attributes Maven keeps (trimmed values), in document order.
    pub attrs: Vec<(String, String)>,
    /// Child elements.
    pub children: Vec<XNode>,
    /// Where the element starts (its `<`).
    pub pos: Pos,
}

impl XNode {
    /// A text element.
    pub fn leaf(name: &str, text: &str) -> Self {
        XNode {
            name: name.to_string(),
            text: text.to_string(),
            ..XNode::default()
        }
    }

    /// The first child with this name.
    pub fn child(&self, name: &str) -> Option<&XNode> {
        self.children.iter().find(|c| c.name == name)
    }

    /// The text of the first child with this name.
    pub fn child_text(&self, name: &str) -> Option<&str> {
        self.child(name).map(|c| c.text.as_str())
    }

    /// The value of an attribute.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A reading failure or the strict reader's first complaint, with Maven's message and position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseIssue {
    /// What the parser said.
    pub message: String,
    /// Where, when the parser reports a position.
    pub pos: Option<Pos>,
    /// True when the input could not be read at all (encoding, empty, truncated): Maven's
    /// "Non-readable POM" rather than "Non-parseable POM".
    pub unreadable: bool,
}

/// The outcome of reading one POM.
#[derive(Debug, Clone)]
pub struct PomText {
    /// The `<project>` element (whatever the root was called).
    pub root: XNode,
    /// The first error the strict reader would have stopped at, if any.
    pub strict_error: Option<ParseIssue>,
}

/// Reads POM bytes (UTF-8 with or without BOM, or ISO-8859-1 when declared).
///
/// ```
/// use m2resolver::resolution::pom::xml::read_pom;
/// let pom = read_pom(b"<project><groupId> g </groupId><junk/></project>").unwrap();
/// assert_eq!(pom.root.child_text("groupId"), Some("g"));
/// assert!(pom.strict_error.unwrap().message.contains("Unrecognised tag: 'junk'"));
/// assert!(read_pom(b"<project><groupId>a</groupId><groupId>b</groupId></project>").is_err());
/// ```
pub fn read_pom(bytes: &[u8]) -> Result<PomText, ParseIssue> {
    let from_dom = |e: dom::DomError| ParseIssue {
        message: e.message,
        pos: e.pos,
        unreadable: e.unreadable,
    };
    let text = dom::decode(bytes).map_err(from_dom)?;
    let root = dom::parse(&text).map_err(from_dom)?;
    let mut walker = Walker {
        index: LineIndex::new(&text),
        strict_error: None,
    };
    if root.name != "project" {
        walker.strict(
            format!("Expected root element 'project' but found '{}'", root.name),
            root.after_start,
        );
    }
    let root = walker
        .class(&root, &MODEL)
        .map_err(|(message, offset)| ParseIssue {
            message,
            pos: Some(walker.index.pos(offset)),
            unreadable: false,
        })?;
    Ok(PomText {
        root,
        strict_error: walker.strict_error.map(|(message, offset)| ParseIssue {
            message,
            pos: Some(walker.index.pos(offset)),
            unreadable: false,
        }),
    })
}

/// `String.trim()`: strips characters up to U+0020 at both ends.
pub fn java_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= ' ')
}

// ------------------------------------------------------------------------------------ walker

type Fatal = (String, usize);

struct Walker<'t> {
    index: LineIndex<'t>,
    strict_error: Option<(String, usize)>,
}

impl Walker<'_> {
    fn strict(&mut self, message: String, offset: usize) {
        if self.strict_error.is_none() {
            self.strict_error = Some((message, offset));
        }
    }

    fn node(&self, n: &Node, name: &str) -> XNode {
        XNode {
            name: name.to_string(),
            pos: self.index.pos(n.start),
            ..XNode::default()
        }
    }

    /// A text element: `nextText()` fails when it holds elements.
    fn leaf(&self, n: &Node, name: &str) -> Result<XNode, Fatal> {
        if let Some(c) = n.children.first() {
            return Err((
                format!(
                    "TEXT must be immediately followed by END_TAG and not START_TAG (element <{}> inside <{}>)",
                    c.name, n.name
                ),
                c.after_start,
            ));
        }
        let mut x = self.node(n, name);
        x.text = java_trim(&n.text).to_string();
        Ok(x)
    }

    /// A list or properties wrapper: the parser's own `nextTag()` refuses text in both modes.
    fn wrapper_text(&self, n: &Node) -> Result<(), Fatal> {
        match n.first_text {
            Some(offset) => Err((
                format!("expected START_TAG or END_TAG not TEXT inside <{}>", n.name),
                offset,
            )),
            None => Ok(()),
        }
    }

    fn class(&mut self, n: &Node, class: &Class) -> Result<XNode, Fatal> {
        let mut x = self.node(n, n.name);
        for (name, value) in &n.attributes {
            if name.contains(':') || (class.name == "project" && name == "xmlns") {
                continue;
            }
            if class.attrs.contains(&name.as_str()) {
                x.attrs.push((name.clone(), java_trim(value).to_string()));
            } else {
                self.strict(
                    format!("Unknown attribute '{}' for tag '{}'", name, n.name),
                    n.after_start,
                );
            }
        }
        if let Some(offset) = n.first_text {
            self.strict(
                format!("expected START_TAG or END_TAG not TEXT inside <{}>", n.name),
                offset,
            );
        }
        let mut seen: Vec<&'static str> = Vec::new();
        for c in &n.children {
            let Some(field) = class
                .fields
                .iter()
                .find(|f| f.name == c.name || f.alias == Some(c.name))
            else {
                self.strict(format!("Unrecognised tag: '{}'", c.name), c.after_start);
                continue;
            };
            if seen.contains(&field.name) {
                return Err((format!("Duplicated tag: '{}'", field.name), c.after_start));
            }
            seen.push(field.name);
            let child = match field.kind {
                Kind::Text => self.leaf(c, field.name)?,
                Kind::Obj(inner) => {
                    let mut o = self.class(c, inner)?;
                    o.name = field.name.to_string();
                    o
                }
                Kind::List(item, item_kind) => {
                    self.wrapper_text(c)?;
                    let mut list = self.node(c, field.name);
                    for i in &c.children {
                        if i.name != item {
                            self.strict(format!("Unrecognised tag: '{}'", i.name), i.after_start);
                            continue;
                        }
                        let element = match item_kind {
                            Some(inner) => {
                                let mut o = self.class(i, inner)?;
                                o.name = item.to_string();
                                o
                            }
                            None => self.leaf(i, item)?,
                        };
                        list.children.push(element);
                    }
                    list
                }
                Kind::Props => {
                    self.wrapper_text(c)?;
                    let mut props = self.node(c, field.name);
                    for p in &c.children {
                        props.children.push(self.leaf(p, p.name)?);
                    }
                    props
                }
                Kind::Dom => self.dom(c),
            };
            x.children.push(child);
        }
        Ok(x)
    }

    /// A free-form configuration DOM (Xpp3Dom, values trimmed).
    fn dom(&self, n: &Node) -> XNode {
        let mut x = self.node(n, n.name);
        x.text = java_trim(&n.text).to_string();
        x.attrs = n.attributes.clone();
        x.children = n.children.iter().map(|c| self.dom(c)).collect();
        x
    }
}

// ------------------------------------------------------------------------------------ schema

/// How an element is read.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Kind {
    /// Text (strings, booleans, numbers: all kept as text).
    Text,
    /// A nested class.
    Obj(&'static Class),
    /// A wrapper of `item` elements: text items (`None`) or class items.
    List(&'static str, Option<&'static Class>),
    /// `<properties>`-like: any child name, text values.
    Props,
    /// A free-form DOM (plugin configuration, goals, reports).
    Dom,
}

/// One element of a class.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Field {
    pub(crate) name: &'static str,
    pub(crate) alias: Option<&'static str>,
    pub(crate) kind: Kind,
}

/// A model class: its elements and the attributes it accepts.
#[derive(Debug)]
pub(crate) struct Class {
    pub(crate) name: &'static str,
    pub(crate) attrs: &'static [&'static str],
    pub(crate) fields: &'static [Field],
}

const fn f(name: &'static str, kind: Kind) -> Field {
    Field {
        name,
        alias: None,
        kind,
    }
}

const fn t(name: &'static str) -> Field {
    f(name, Kind::Text)
}

const fn list(name: &'static str, item: &'static str, class: &'static Class) -> Field {
    f(name, Kind::List(item, Some(class)))
}

const fn texts(name: &'static str, item: &'static str) -> Field {
    f(name, Kind::List(item, None))
}

const fn class(name: &'static str, fields: &'static [Field]) -> Class {
    Class {
        name,
        attrs: &[],
        fields,
    }
}

static PARENT: Class = class(
    "parent",
    &[
        t("groupId"),
        t("artifactId"),
        t("version"),
        t("relativePath"),
    ],
);
static ORGANIZATION: Class = class("organization", &[t("name"), t("url")]);
static LICENSE: Class = class(
    "license",
    &[t("name"), t("url"), t("distribution"), t("comments")],
);
const PERSON_FIELDS: [Field; 8] = [
    t("id"),
    t("name"),
    t("email"),
    t("url"),
    Field {
        name: "organization",
        alias: Some("organisation"),
        kind: Kind::Text,
    },
    Field {
        name: "organizationUrl",
        alias: Some("organisationUrl"),
        kind: Kind::Text,
    },
    texts("roles", "role"),
    t("timezone"),
];
static DEVELOPER: Class = Class {
    name: "developer",
    attrs: &[],
    fields: &[
        PERSON_FIELDS[0],
        PERSON_FIELDS[1],
        PERSON_FIELDS[2],
        PERSON_FIELDS[3],
        PERSON_FIELDS[4],
        PERSON_FIELDS[5],
        PERSON_FIELDS[6],
        PERSON_FIELDS[7],
        f("properties", Kind::Props),
    ],
};
static CONTRIBUTOR: Class = Class {
    name: "contributor",
    attrs: &[],
    fields: &[
        PERSON_FIELDS[1],
        PERSON_FIELDS[2],
        PERSON_FIELDS[3],
        PERSON_FIELDS[4],
        PERSON_FIELDS[5],
        PERSON_FIELDS[6],
        PERSON_FIELDS[7],
        f("properties", Kind::Props),
    ],
};
static MAILING_LIST: Class = class(
    "mailingList",
    &[
        t("name"),
        t("subscribe"),
        t("unsubscribe"),
        t("post"),
        t("archive"),
        texts("otherArchives", "otherArchive"),
    ],
);
static PREREQUISITES: Class = class("prerequisites", &[t("maven")]);
static SCM: Class = Class {
    name: "scm",
    attrs: &[
        "child.scm.connection.inherit.append.path",
        "child.scm.developerConnection.inherit.append.path",
        "child.scm.url.inherit.append.path",
    ],
    fields: &[
        t("connection"),
        t("developerConnection"),
        t("tag"),
        t("url"),
    ],
};
static ISSUE_MANAGEMENT: Class = class("issueManagement", &[t("system"), t("url")]);
static NOTIFIER: Class = class(
    "notifier",
    &[
        t("type"),
        t("sendOnError"),
        t("sendOnFailure"),
        t("sendOnSuccess"),
        t("sendOnWarning"),
        t("address"),
        f("configuration", Kind::Props),
    ],
);
static CI_MANAGEMENT: Class = class(
    "ciManagement",
    &[
        t("system"),
        t("url"),
        list("notifiers", "notifier", &NOTIFIER),
    ],
);
static POLICY: Class = class(
    "policy",
    &[t("enabled"), t("updatePolicy"), t("checksumPolicy")],
);
static REPOSITORY: Class = class(
    "repository",
    &[
        f("releases", Kind::Obj(&POLICY)),
        f("snapshots", Kind::Obj(&POLICY)),
        t("id"),
        t("name"),
        t("url"),
        t("layout"),
    ],
);
static DEPLOYMENT_REPOSITORY: Class = class(
    "repository",
    &[
        t("uniqueVersion"),
        f("releases", Kind::Obj(&POLICY)),
        f("snapshots", Kind::Obj(&POLICY)),
        t("id"),
        t("name"),
        t("url"),
        t("layout"),
    ],
);
static SITE: Class = Class {
    name: "site",
    attrs: &["child.site.url.inherit.append.path"],
    fields: &[t("id"), t("name"), t("url")],
};
static RELOCATION: Class = class(
    "relocation",
    &[t("groupId"), t("artifactId"), t("version"), t("message")],
);
static DISTRIBUTION_MANAGEMENT: Class = class(
    "distributionManagement",
    &[
        f("repository", Kind::Obj(&DEPLOYMENT_REPOSITORY)),
        f("snapshotRepository", Kind::Obj(&DEPLOYMENT_REPOSITORY)),
        f("site", Kind::Obj(&SITE)),
        t("downloadUrl"),
        f("relocation", Kind::Obj(&RELOCATION)),
        t("status"),
    ],
);
static EXCLUSION: Class = class("exclusion", &[t("groupId"), t("artifactId")]);
static DEPENDENCY: Class = class(
    "dependency",
    &[
        t("groupId"),
        t("artifactId"),
        t("version"),
        t("type"),
        t("classifier"),
        t("scope"),
        t("systemPath"),
        list("exclusions", "exclusion", &EXCLUSION),
        t("optional"),
    ],
);
static DEPENDENCY_MANAGEMENT: Class = class(
    "dependencyManagement",
    &[list("dependencies", "dependency", &DEPENDENCY)],
);
static EXTENSION: Class = class("extension", &[t("groupId"), t("artifactId"), t("version")]);
static RESOURCE: Class = class(
    "resource",
    &[
        t("targetPath"),
        t("filtering"),
        t("directory"),
        texts("includes", "include"),
        texts("excludes", "exclude"),
    ],
);
static EXECUTION: Class = class(
    "execution",
    &[
        t("id"),
        t("phase"),
        texts("goals", "goal"),
        t("inherited"),
        f("configuration", Kind::Dom),
    ],
);
static PLUGIN: Class = class(
    "plugin",
    &[
        t("groupId"),
        t("artifactId"),
        t("version"),
        t("extensions"),
        list("executions", "execution", &EXECUTION),
        list("dependencies", "dependency", &DEPENDENCY),
        f("goals", Kind::Dom),
        t("inherited"),
        f("configuration", Kind::Dom),
    ],
);
static PLUGIN_MANAGEMENT: Class = class("pluginManagement", &[list("plugins", "plugin", &PLUGIN)]);
const BUILD_BASE_FIELDS: [Field; 8] = [
    t("defaultGoal"),
    f("resources", Kind::List("resource", Some(&RESOURCE))),
    f("testResources", Kind::List("testResource", Some(&RESOURCE))),
    t("directory"),
    t("finalName"),
    texts("filters", "filter"),
    f("pluginManagement", Kind::Obj(&PLUGIN_MANAGEMENT)),
    list("plugins", "plugin", &PLUGIN),
];
static BUILD: Class = Class {
    name: "build",
    attrs: &[],
    fields: &[
        t("sourceDirectory"),
        t("scriptSourceDirectory"),
        t("testSourceDirectory"),
        t("outputDirectory"),
        t("testOutputDirectory"),
        list("extensions", "extension", &EXTENSION),
        BUILD_BASE_FIELDS[0],
        BUILD_BASE_FIELDS[1],
        BUILD_BASE_FIELDS[2],
        BUILD_BASE_FIELDS[3],
        BUILD_BASE_FIELDS[4],
        BUILD_BASE_FIELDS[5],
        BUILD_BASE_FIELDS[6],
        BUILD_BASE_FIELDS[7],
    ],
};
static BUILD_BASE: Class = Class {
    name: "build",
    attrs: &[],
    fields: &BUILD_BASE_FIELDS,
};
static REPORT_SET: Class = class(
    "reportSet",
    &[
        t("id"),
        texts("reports", "report"),
        t("inherited"),
        f("configuration", Kind::Dom),
    ],
);
static REPORT_PLUGIN: Class = class(
    "plugin",
    &[
        t("groupId"),
        t("artifactId"),
        t("version"),
        list("reportSets", "reportSet", &REPORT_SET),
        t("inherited"),
        f("configuration", Kind::Dom),
    ],
);
static REPORTING: Class = class(
    "reporting",
    &[
        t("excludeDefaults"),
        t("outputDirectory"),
        list("plugins", "plugin", &REPORT_PLUGIN),
    ],
);
static ACTIVATION_OS: Class = class("os", &[t("name"), t("family"), t("arch"), t("version")]);
static ACTIVATION_PROPERTY: Class = class("property", &[t("name"), t("value")]);
static ACTIVATION_FILE: Class = class("file", &[t("missing"), t("exists")]);
static ACTIVATION: Class = class(
    "activation",
    &[
        t("activeByDefault"),
        t("jdk"),
        f("os", Kind::Obj(&ACTIVATION_OS)),
        f("property", Kind::Obj(&ACTIVATION_PROPERTY)),
        f("file", Kind::Obj(&ACTIVATION_FILE)),
    ],
);
static PROFILE: Class = class(
    "profile",
    &[
        t("id"),
        f("activation", Kind::Obj(&ACTIVATION)),
        f("build", Kind::Obj(&BUILD_BASE)),
        texts("modules", "module"),
        f(
            "distributionManagement",
            Kind::Obj(&DISTRIBUTION_MANAGEMENT),
        ),
        f("properties", Kind::Props),
        f("dependencyManagement", Kind::Obj(&DEPENDENCY_MANAGEMENT)),
        list("dependencies", "dependency", &DEPENDENCY),
        list("repositories", "repository", &REPOSITORY),
        list("pluginRepositories", "pluginRepository", &REPOSITORY),
        f("reports", Kind::Dom),
        f("reporting", Kind::Obj(&REPORTING)),
    ],
);
static MODEL: Class = Class {
    name: "project",
    attrs: &["child.project.url.inherit.append.path"],
    fields: &[
        t("modelVersion"),
        f("parent", Kind::Obj(&PARENT)),
        t("groupId"),
        t("artifactId"),
        t("version"),
        t("packaging"),
        t("name"),
        t("description"),
        t("url"),
        t("inceptionYear"),
        Field {
            name: "organization",
            alias: Some("organisation"),
            kind: Kind::Obj(&ORGANIZATION),
        },
        list("licenses", "license", &LICENSE),
        list("developers", "developer", &DEVELOPER),
        list("contributors", "contributor", &CONTRIBUTOR),
        list("mailingLists", "mailingList", &MAILING_LIST),
        f("prerequisites", Kind::Obj(&PREREQUISITES)),
        texts("modules", "module"),
        f("scm", Kind::Obj(&SCM)),
        f("issueManagement", Kind::Obj(&ISSUE_MANAGEMENT)),
        f("ciManagement", Kind::Obj(&CI_MANAGEMENT)),
        f(
            "distributionManagement",
            Kind::Obj(&DISTRIBUTION_MANAGEMENT),
        ),
        f("properties", Kind::Props),
        f("dependencyManagement", Kind::Obj(&DEPENDENCY_MANAGEMENT)),
        list("dependencies", "dependency", &DEPENDENCY),
        list("repositories", "repository", &REPOSITORY),
        list("pluginRepositories", "pluginRepository", &REPOSITORY),
        f("build", Kind::Obj(&BUILD)),
        f("reports", Kind::Dom),
        f("reporting", Kind::Obj(&REPORTING)),
        list("profiles", "profile", &PROFILE),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;

    fn strict_message(xml: &str) -> Option<String> {
        read_pom(xml.as_bytes())
            .unwrap()
            .strict_error
            .map(|e| e.message)
    }

    #[test]
    fn lenient_and_strict_cases() {
        let cases: &[(&str, Option<&str>)] = &[
            ("<project><groupId>g</groupId></project>", None),
            ("<project><foo>x</foo></project>", Some("Unrecognised tag: 'foo'")),
            ("<pom><groupId>g</groupId></pom>", Some("Expected root element")),
            (
                "<project><dependencies><dependency><bogus/></dependency></dependencies></project>",
                Some("Unrecognised tag: 'bogus'"),
            ),
            ("<project>text<groupId>g</groupId></project>", Some("not TEXT")),
            ("<project x='1'/>", Some("Unknown attribute 'x'")),
            ("<project xmlns='a' xsi:schemaLocation='b'/>", None),
            (
                "<project><organisation><name>n</name></organisation></project>",
                None,
            ),
            (
                "<project><build><plugins><plugin><configuration><any><thing a='b'/></any></configuration></plugin></plugins></build></project>",
                None,
            ),
        ];
        for (xml, want) in cases {
            let got = strict_message(xml);
            match want {
                None => assert!(got.is_none(), "{xml}: {got:?}"),
                Some(w) => assert!(
                    got.as_deref().is_some_and(|g| g.contains(w)),
                    "{xml}: {got:?}"
                ),
            }
        }
    }

    #[test]
    fn fatal_cases_name_a_position() {
        let cases = [
            "<project><groupId>a</groupId>\n<groupId>b</groupId></project>",
            "<project><groupId><x/></groupId></project>",
            "<project><dependencies>text<dependency/></dependencies></project>",
            "<project><properties>t<a>1</a></properties></project>",
            "<project><properties><a><b/></a></properties></project>",
            "<project><groupId>a</project>",
        ];
        for xml in cases {
            let e = read_pom(xml.as_bytes()).unwrap_err();
            assert!(e.pos.is_some(), "{xml}: {e:?}");
        }
        assert!(read_pom(b"").unwrap_err().unreadable);
    }

    #[test]
    fn values_are_trimmed_and_aliases_normalised() {
        let pom = read_pom(
            "<project>\n <properties><a> x </a><b/></properties><organisation/>\n <version>\u{a0}1 </version></project>"
                .as_bytes(),
        )
        .unwrap();
        let props = pom.root.child("properties").unwrap();
        assert_eq!(props.children[0].text, "x");
        assert_eq!(props.children[1].text, "");
        assert!(pom.root.child("organization").is_some());
        assert_eq!(pom.root.child_text("version"), Some("\u{a0}1"));
        assert_eq!(pom.root.child("version").unwrap().pos.line, 3);
    }
}
