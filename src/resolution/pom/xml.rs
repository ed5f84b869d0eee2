//! Reading `pom.xml` text as Maven 3.8.7's `MavenXpp3Reader` does: the POM 4.0.0 schema (one
//! table per model class: its elements, their kinds, the attributes it accepts), read by the
//! crate's XML reader (`crate::xml`), which walks the tree once, leniently, and remembers the
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

use crate::xml::dom;
use crate::xml::schema::{self, class, f, list, t, texts, Class, Field, Kind};
pub use crate::xml::{XNode, XmlError};

/// The outcome of reading one POM.
#[derive(Debug, Clone)]
pub struct PomText {
    /// The `<project>` element (whatever the root was called).
    pub root: XNode,
    /// The first error the strict reader would have stopped at, if any.
    pub strict_error: Option<XmlError>,
}

/// Reads POM bytes (UTF-8 with or without BOM, UTF-16 with BOM, or ISO-8859-1 when declared).
/// (Example: `doc_examples::doc_read_pom` below.)
pub fn read_pom(bytes: &[u8]) -> Result<PomText, XmlError> {
    let text = dom::decode(bytes)?;
    let root = dom::parse(&text)?;
    let read = schema::read(&text, &root, &MODEL)?;
    Ok(PomText {
        root: read.root,
        strict_error: read.strict_error,
    })
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

    /// Positions as Maven 3.8.7's `MavenXpp3Reader` reports them (strict, then lenient).
    #[test]
    fn stray_text_is_reported_where_maven_reports_it() {
        type Want = (bool, u32, u32);
        let cases: &[(&str, Want)] = &[
            (
                "<project>\n  <dependencies>\n    <dependency>x<groupId>a</groupId></dependency>\n  </dependencies>\n</project>",
                (false, 3, 20),
            ),
            ("<project>\n  <properties>\n    t\n    <a>1</a>\n  </properties>\n</project>", (true, 4, 7)),
            ("<project>\n  <bogus/>\n  <groupId>g</groupId>\n  text\n</project>", (false, 2, 11)),
            (
                "<project>\n  <build>\n    <plugins>\n  x  <plugin/>\n    </plugins>\n  </build>\n</project>",
                (true, 4, 8),
            ),
            ("<project>\n  <licenses> &#160; <license/></licenses></project>", (true, 2, 23)),
        ];
        for (xml, (fatal, line, column)) in cases {
            let issue = match read_pom(xml.as_bytes()) {
                Ok(pom) => {
                    assert!(!fatal, "{xml}");
                    pom.strict_error.unwrap()
                }
                Err(e) => {
                    assert!(fatal, "{xml}: {e}");
                    e
                }
            };
            let pos = issue.pos.unwrap();
            assert_eq!((pos.line, pos.column), (*line, *column), "{xml}: {issue}");
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
        assert!(read_pom(b"").unwrap_err().is_unreadable());
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

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_read_pom() {
        use super::read_pom;
        let pom = read_pom(b"<project><groupId> g </groupId><junk/></project>").unwrap();
        assert_eq!(pom.root.child_text("groupId"), Some("g"));
        assert!(pom
            .strict_error
            .unwrap()
            .message
            .contains("Unrecognised tag: 'junk'"));
        assert!(read_pom(b"<project><groupId>a</groupId><groupId>b</groupId></project>").is_err());
    }
}
