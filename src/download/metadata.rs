//! `maven-metadata.xml` (spec §8.2) and version resolution from it (spec §8.3): reading it as
//! `MetadataXpp3Reader(strict=false)` does, with the crate's XML reader (`crate::xml`: unknown
//! elements and attributes are ignored; malformed XML, a repeated element, an element inside a
//! text element or text inside a list make the file invalid), except that the root element must
//! be `<metadata>` (Maven reads any root element as metadata), and
//! [`VersionCandidates`], which merges the metadata of several repositories the way Maven's
//! `DefaultVersionResolver` does (the strictly newer timestamp wins; ties keep the first seen, so
//! the local repository wins ties) and answers `RELEASE`, `LATEST` and `X-SNAPSHOT` requests.
//!
//! Values that become paths are checked by [`Metadata::check_values`] before the resolver uses
//! or stores a file: a version, timestamp or build number that could not be a path segment
//! ([`crate::download::segment`]), or a snapshot version of another base version, makes the
//! whole file invalid for its repository.
//!
//! Fetching and caching the files is [`crate::download::downloader`]'s job.

use crate::download::coords::base_version;
use crate::download::segment::{check, SegmentKind};
use crate::xml::dom;
use crate::xml::schema::{self, class, list, t, texts, Class, Field, Kind};
use crate::xml::{XNode, XmlError};
use std::collections::HashMap;
use thiserror::Error;

/// A metadata file that could not be parsed.
#[derive(Debug, Clone, Error)]
#[error("invalid maven-metadata.xml {source_name}{}: {message}", at(.line, .column))]
pub struct MetadataParseError {
    /// File path or URL it came from.
    pub source_name: String,
    /// The 1-based line of the problem, when the parser reports a position.
    pub line: Option<u32>,
    /// The 1-based column (in characters) of the problem, when the parser reports a position.
    pub column: Option<u32>,
    /// The parser's message (quoting at most a short prefix of the input).
    pub message: String,
}

fn at(line: &Option<u32>, column: &Option<u32>) -> String {
    match (line, column) {
        (Some(l), Some(c)) => format!(" at line {l}, column {c}"),
        _ => String::new(),
    }
}

/// `<snapshot>` of version-level metadata.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// `yyyyMMdd.HHmmss` (UTC).
    pub timestamp: String,
    /// Build number (0 when absent).
    pub build_number: u32,
    /// Locally installed (file keeps the `-SNAPSHOT` name).
    pub local_copy: bool,
}

/// One `<snapshotVersion>`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SnapshotVersion {
    /// Classifier, empty when none.
    pub classifier: String,
    /// Extension.
    pub extension: String,
    /// The timestamped version (element `<value>`).
    pub value: String,
    /// `yyyyMMddHHmmss` (UTC).
    pub updated: String,
}

/// `<versioning>`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Versioning {
    /// Last version added (releases and snapshots).
    pub latest: String,
    /// Last release.
    pub release: String,
    /// All versions, in file order.
    pub versions: Vec<String>,
    /// `yyyyMMddHHmmss` (UTC).
    pub last_updated: String,
    /// Legacy snapshot info.
    pub snapshot: Option<Snapshot>,
    /// Model 1.1.0 snapshot versions.
    pub snapshot_versions: Vec<SnapshotVersion>,
}

/// A parsed `maven-metadata.xml`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Metadata {
    /// `groupId`.
    pub group_id: String,
    /// `artifactId`.
    pub artifact_id: String,
    /// `version` (V-level: the base version).
    pub version: String,
    /// `versioning`, if present.
    pub versioning: Option<Versioning>,
}

impl Metadata {
    /// Parses metadata XML. `source_name` only labels errors.
    pub fn parse(xml: &[u8], source_name: &str) -> Result<Metadata, MetadataParseError> {
        // A parser message may quote the input (a tag name of megabytes): keep a short prefix.
        let error = |e: XmlError| MetadataParseError {
            source_name: source_name.to_string(),
            line: e.pos.map(|p| p.line),
            column: e.pos.map(|p| p.column),
            message: crate::printable::quote_prefix(&e.message, 200),
        };
        let text = dom::decode(xml).map_err(error)?;
        let root = dom::parse(&text).map_err(error)?;
        if root.name != "metadata" {
            return Err(error(XmlError::malformed(
                format!("root element is <{}>, expected <metadata>", root.name),
                dom::LineIndex::new(&text).pos(root.after_start),
            )));
        }
        // Read leniently: what only strict mode refuses is ignored, as Resolver does.
        let root = schema::read(&text, &root, &METADATA).map_err(error)?.root;
        Ok(Metadata::from_xnode(&root))
    }

    fn from_xnode(root: &XNode) -> Metadata {
        let text = |x: &XNode, name: &str| x.child_text(name).unwrap_or_default().to_string();
        let versioning = root.child("versioning").map(|v| Versioning {
            latest: text(v, "latest"),
            release: text(v, "release"),
            versions: v.items("versions").map(|x| x.text.clone()).collect(),
            last_updated: text(v, "lastUpdated"),
            snapshot: v.child("snapshot").map(|s| Snapshot {
                timestamp: text(s, "timestamp"),
                // `getIntegerValue` of a lenient reader: 0 when it is not a number.
                build_number: s
                    .child_text("buildNumber")
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0),
                // `Boolean.valueOf`.
                local_copy: s
                    .child_text("localCopy")
                    .is_some_and(|b| b.eq_ignore_ascii_case("true")),
            }),
            snapshot_versions: v
                .items("snapshotVersions")
                .map(|sv| SnapshotVersion {
                    classifier: text(sv, "classifier"),
                    extension: text(sv, "extension"),
                    value: text(sv, "value"),
                    updated: text(sv, "updated"),
                })
                .collect(),
        });
        Metadata {
            group_id: text(root, "groupId"),
            artifact_id: text(root, "artifactId"),
            version: text(root, "version"),
            versioning,
        }
    }
}

/// The `maven-repository-metadata` 1.1.0 model, as `MetadataXpp3Reader` reads it.
static PLUGIN: Class = class("plugin", &[t("name"), t("prefix"), t("artifactId")]);
static SNAPSHOT: Class = class(
    "snapshot",
    &[t("timestamp"), t("buildNumber"), t("localCopy")],
);
static SNAPSHOT_VERSION: Class = class(
    "snapshotVersion",
    &[t("classifier"), t("extension"), t("value"), t("updated")],
);
static VERSIONING: Class = class(
    "versioning",
    &[
        t("latest"),
        t("release"),
        Field {
            name: "snapshot",
            alias: None,
            kind: Kind::Obj(&SNAPSHOT),
        },
        texts("versions", "version"),
        t("lastUpdated"),
        list("snapshotVersions", "snapshotVersion", &SNAPSHOT_VERSION),
    ],
);
static METADATA: Class = Class {
    name: "metadata",
    attrs: &["modelVersion"],
    fields: &[
        t("groupId"),
        t("artifactId"),
        Field {
            name: "versioning",
            alias: None,
            kind: Kind::Obj(&VERSIONING),
        },
        t("version"),
        list("plugins", "plugin", &PLUGIN),
    ],
};

impl Metadata {
    /// Checks every value that can become part of a path: `<latest>`, `<release>`, each
    /// `<version>`, and for snapshots each `<snapshotVersion>` (value, classifier, extension) and
    /// the legacy `<snapshot>` timestamp. With `snapshot_base` (`1.0-SNAPSHOT`, for the metadata of
    /// that version), each snapshot value must be that version or a timestamped build of it
    /// (`1.0-20240102.030405-7`), so a server cannot point the file at another version's path.
    pub fn check_values(&self, snapshot_base: Option<&str>) -> Result<(), String> {
        let Some(v) = &self.versioning else {
            return Ok(());
        };
        let version = |element: &str, value: &str| {
            if value.is_empty() {
                return Ok(());
            }
            check(SegmentKind::Version, value).map_err(|e| format!("<{element}>: {e}"))
        };
        version("latest", &v.latest)?;
        version("release", &v.release)?;
        for x in &v.versions {
            version("version", x)?;
        }
        for sv in &v.snapshot_versions {
            version("snapshotVersion/value", &sv.value)?;
            if !sv.classifier.is_empty() {
                check(SegmentKind::Classifier, &sv.classifier)
                    .map_err(|e| format!("<snapshotVersion/classifier>: {e}"))?;
            }
            if !sv.extension.is_empty() {
                check(SegmentKind::Extension, &sv.extension)
                    .map_err(|e| format!("<snapshotVersion/extension>: {e}"))?;
            }
            if let Some(base) = snapshot_base {
                if !sv.value.is_empty() && base_version(&sv.value) != base {
                    return Err(format!(
                        "<snapshotVersion/value> `{}` is not a build of {base}",
                        crate::printable::quote_prefix(&sv.value, 80)
                    ));
                }
            }
        }
        if let Some(snap) = &v.snapshot {
            let t = snap.timestamp.as_bytes();
            let well_formed = t.len() == 15
                && t[8] == b'.'
                && t[..8].iter().all(u8::is_ascii_digit)
                && t[9..].iter().all(u8::is_ascii_digit);
            if !snap.timestamp.is_empty() && !well_formed {
                return Err(format!(
                    "<snapshot/timestamp> `{}` is not yyyyMMdd.HHmmss",
                    crate::printable::quote_prefix(&snap.timestamp, 80)
                ));
            }
        }
        Ok(())
    }
}

/// What a version request asks metadata for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VersionRequest {
    /// `RELEASE`: A-level metadata, releases only.
    Release,
    /// `LATEST`: A-level metadata, releases and snapshots.
    Latest,
    /// `X-SNAPSHOT`: V-level metadata.
    Snapshot,
    /// Anything else: used as is.
    Fixed,
}

impl VersionRequest {
    /// Classifies a requested version.
    pub fn of(version: &str) -> VersionRequest {
        match version {
            "RELEASE" => VersionRequest::Release,
            "LATEST" => VersionRequest::Latest,
            v if v.ends_with("SNAPSHOT") => VersionRequest::Snapshot,
            _ => VersionRequest::Fixed,
        }
    }
}

/// A version found in some repository's metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The version (timestamped for snapshots).
    pub version: String,
    /// Timestamp used to pick the newest (string comparison, as Maven).
    pub timestamp: String,
    /// Where it came from: `None` = the local repository, else the repository id.
    pub repository: Option<String>,
}

/// Candidates merged over repositories, keyed like Maven (`RELEASE`, `LATEST`,
/// `SNAPSHOT<classifier>:<extension>`, legacy `SNAPSHOT`).
#[derive(Debug, Clone, Default)]
pub struct VersionCandidates {
    map: HashMap<String, Candidate>,
}

impl VersionCandidates {
    /// Adds one repository's metadata. `repository` is `None` for the local repository; `base`
    /// is the requested snapshot base version (`1.0-SNAPSHOT`).
    pub fn merge(&mut self, md: &Metadata, repository: Option<&str>, base: &str) {
        let Some(v) = &md.versioning else {
            return;
        };
        let mut put = |key: String, version: &str, ts: &str| {
            if version.is_empty() {
                return;
            }
            let newer = match self.map.get(&key) {
                None => true,
                Some(old) => ts > old.timestamp.as_str(),
            };
            if newer {
                self.map.insert(
                    key,
                    Candidate {
                        version: version.to_string(),
                        timestamp: ts.to_string(),
                        repository: repository.map(str::to_string),
                    },
                );
            }
        };
        put("RELEASE".into(), &v.release, &v.last_updated);
        put("LATEST".into(), &v.latest, &v.last_updated);
        for s in &v.snapshot_versions {
            put(
                format!("SNAPSHOT{}:{}", s.classifier, s.extension),
                &s.value,
                &s.updated,
            );
        }
        if v.snapshot_versions.is_empty() {
            if let Some(s) = &v.snapshot {
                // Local metadata with a build number means a remote repository used the id
                // "local"; Maven treats it as a local copy.
                let remote_style =
                    repository.is_some() && !s.timestamp.is_empty() && s.build_number > 0;
                let version = if remote_style {
                    let prefix = base.strip_suffix("SNAPSHOT").unwrap_or(base);
                    format!("{prefix}{}-{}", s.timestamp, s.build_number)
                } else {
                    base.to_string()
                };
                put("SNAPSHOT".into(), &version, &v.last_updated);
            }
        }
    }

    /// The answer for `RELEASE` or `LATEST`.
    pub fn get(&self, key: &str) -> Option<&Candidate> {
        self.map.get(key)
    }

    /// The answer for a `RELEASE` or `LATEST` request: metadata without `<latest>` answers
    /// `LATEST` with its release (`DefaultVersionResolver`); `None` for other requests.
    pub fn answer(&self, request: VersionRequest) -> Option<&Candidate> {
        match request {
            VersionRequest::Release => self.get("RELEASE"),
            VersionRequest::Latest => self.get("LATEST").or_else(|| self.get("RELEASE")),
            VersionRequest::Snapshot | VersionRequest::Fixed => None,
        }
    }

    /// The snapshot answer for a classifier/extension: `SNAPSHOT<cls>:<ext>`, else the legacy
    /// `SNAPSHOT` entry; `None` means the version stays `X-SNAPSHOT`.
    pub fn snapshot(&self, classifier: &str, extension: &str) -> Option<&Candidate> {
        self.map
            .get(&format!("SNAPSHOT{classifier}:{extension}"))
            .or_else(|| self.map.get("SNAPSHOT"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const V_LEVEL: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<metadata modelVersion="1.1.0">
  <groupId>org.example</groupId>
  <artifactId>foo</artifactId>
  <version>1.0-SNAPSHOT</version>
  <versioning>
    <snapshot><timestamp>20240102.030405</timestamp><buildNumber>7</buildNumber></snapshot>
    <lastUpdated>20240102030405</lastUpdated>
    <snapshotVersions>
      <snapshotVersion><extension>jar</extension><value>1.0-20240102.030405-7</value><updated>20240102030405</updated></snapshotVersion>
      <snapshotVersion><classifier>sources</classifier><extension>jar</extension><value>1.0-20240101.000000-6</value><updated>20240101000000</updated></snapshotVersion>
      <snapshotVersion><extension>pom</extension><value>1.0-20240102.030405-7</value><updated>20240102030405</updated></snapshotVersion>
    </snapshotVersions>
  </versioning>
</metadata>"#;

    #[test]
    fn parses_version_level() {
        let md = Metadata::parse(V_LEVEL.as_bytes(), "t").unwrap();
        assert_eq!(md.group_id, "org.example");
        assert_eq!(md.version, "1.0-SNAPSHOT");
        let v = md.versioning.unwrap();
        assert_eq!(v.snapshot.as_ref().unwrap().build_number, 7);
        assert_eq!(v.snapshot_versions.len(), 3);
        assert_eq!(v.snapshot_versions[1].classifier, "sources");
        assert_eq!(v.snapshot_versions[1].value, "1.0-20240101.000000-6");
    }

    #[test]
    fn error_messages_quote_only_a_prefix() {
        let xml = format!("<metadata><{}></x></metadata>", "A".repeat(100_000));
        let e = Metadata::parse(xml.as_bytes(), "x").unwrap_err();
        assert!(e.to_string().len() < 400, "{}", e.to_string().len());
    }

    #[test]
    fn rejects_garbage() {
        assert!(Metadata::parse(b"<project/>", "x").is_err());
        assert!(Metadata::parse(b"", "x").is_err());
        let e = Metadata::parse(b"<metadata><versioning>", "f.xml").unwrap_err();
        assert!(e.to_string().contains("f.xml"), "{e}");
        assert!(Metadata::parse(b"<metadata/>", "x")
            .unwrap()
            .versioning
            .is_none());
    }

    /// What `MetadataXpp3Reader.read(in, false)` (Maven 3.8.7) answers for the same input.
    #[test]
    fn lenient_reading_as_maven() {
        type Summary = (String, Vec<String>, Option<(String, u32, bool)>);
        let summary = |xml: &str| -> Result<Summary, String> {
            let md = Metadata::parse(xml.as_bytes(), "t").map_err(|e| e.message)?;
            let v = md.versioning.unwrap_or_default();
            let snapshot = v
                .snapshot
                .map(|s| (s.timestamp, s.build_number, s.local_copy));
            Ok((md.group_id, v.versions, snapshot))
        };
        let ok = |group: &str, versions: &[&str]| -> Result<Summary, String> {
            Ok((
                group.to_string(),
                versions.iter().map(|v| v.to_string()).collect(),
                None,
            ))
        };
        let cases: &[(&str, Result<Summary, String>)] = &[
            ("<metadata><groupId>a&nbsp;b</groupId></metadata>", ok("a\u{a0}b", &[])),
            (
                "<metadata><groupId>a<!--c-->b</groupId><versioning><versions><version>1<!--c-->2</version></versions></versioning></metadata>",
                ok("ab", &["12"]),
            ),
            ("<metadata><versioning>x<release>1</release></versioning></metadata>", ok("", &[])),
            ("<m:metadata xmlns:m='u'><m:groupId>g</m:groupId></m:metadata>", Err("root element is <m:metadata>, expected <metadata>".into())),
            ("<metadata foo='1' modelVersion='1.1.0'><unknown><a>1</a></unknown><groupId>g</groupId></metadata>", ok("g", &[])),
            ("<metadata><groupId><![CDATA[ a ]]></groupId></metadata>", ok("a", &[])),
            (
                "<metadata><versioning><snapshot><buildNumber> 5 </buildNumber><localCopy>TRUE</localCopy><timestamp>t</timestamp></snapshot></versioning></metadata>",
                Ok((String::new(), vec![], Some(("t".into(), 5, true)))),
            ),
            (
                "<metadata><versioning><snapshot><buildNumber>x</buildNumber><localCopy>yes</localCopy></snapshot></versioning></metadata>",
                Ok((String::new(), vec![], Some((String::new(), 0, false)))),
            ),
            ("<metadata><groupId>a<x/></groupId></metadata>", Err("TEXT must be immediately followed by END_TAG and not START_TAG (element <x> inside <groupId>)".into())),
            ("<metadata><versioning><release>1</release><release>2</release></versioning></metadata>", Err("Duplicated tag: 'release'".into())),
            ("<metadata><versioning><snapshot/><snapshot/></versioning></metadata>", Err("Duplicated tag: 'snapshot'".into())),
            ("<metadata><versioning><versions>x<version>1</version></versions></versioning></metadata>", Err("expected START_TAG or END_TAG not TEXT inside <versions>".into())),
            ("<metadata><groupId>a&foo;b</groupId></metadata>", Err("could not resolve entity named 'foo'".into())),
            ("<metadata/><x/>", Err("start tag not allowed in epilog but got x".into())),
            ("<metadata/>trailing", Err("in epilog non whitespace content is not allowed but got t".into())),
        ];
        for (xml, expected) in cases {
            // Messages are printed through `quote_prefix` (quotes escaped).
            let expected = expected
                .clone()
                .map_err(|m| crate::printable::quote_prefix(&m, 200));
            assert_eq!(summary(xml), expected, "{xml}");
        }
        let e =
            Metadata::parse(b"<metadata>\n<versioning><versions>x<version>", "f.xml").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("invalid maven-metadata.xml f.xml"),
            "{e}"
        );
        let e = Metadata::parse(b"<metadata>\n<groupId>a</groupId><groupId>", "f.xml").unwrap_err();
        assert!(e.line.is_none(), "{e}");
        let e = Metadata::parse(
            b"<metadata>\n<groupId>a</groupId><groupId>b</groupId></metadata>",
            "f.xml",
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid maven-metadata.xml f.xml at line 2, column 30: Duplicated tag: \\'groupId\\'"
        );
    }

    #[test]
    fn snapshot_resolution_is_classifier_and_extension_aware() {
        let md = Metadata::parse(V_LEVEL.as_bytes(), "t").unwrap();
        let mut c = VersionCandidates::default();
        c.merge(&md, Some("r1"), "1.0-SNAPSHOT");
        assert_eq!(
            c.snapshot("", "jar").unwrap().version,
            "1.0-20240102.030405-7"
        );
        assert_eq!(
            c.snapshot("sources", "jar").unwrap().version,
            "1.0-20240101.000000-6"
        );
        assert_eq!(
            c.snapshot("", "pom").unwrap().repository.as_deref(),
            Some("r1")
        );
        assert!(c.snapshot("javadoc", "jar").is_none());
    }

    #[test]
    fn legacy_snapshot_falls_back_to_timestamp_and_build_number() {
        let xml = r#"<metadata><versioning><snapshot><timestamp>20230101.101010</timestamp>
            <buildNumber>3</buildNumber></snapshot><lastUpdated>20230101101010</lastUpdated></versioning></metadata>"#;
        let md = Metadata::parse(xml.as_bytes(), "t").unwrap();
        let mut c = VersionCandidates::default();
        c.merge(&md, Some("old"), "2.0-SNAPSHOT");
        assert_eq!(
            c.snapshot("x", "zip").unwrap().version,
            "2.0-20230101.101010-3"
        );
        // local metadata with a build number is only a local copy
        let mut local = VersionCandidates::default();
        local.merge(&md, None, "2.0-SNAPSHOT");
        assert_eq!(local.snapshot("", "jar").unwrap().version, "2.0-SNAPSHOT");
    }

    #[test]
    fn merge_prefers_strictly_newer_and_first_on_ties() {
        let mk = |release: &str, ts: &str| Metadata {
            versioning: Some(Versioning {
                release: release.into(),
                latest: release.into(),
                last_updated: ts.into(),
                ..Default::default()
            }),
            ..Default::default()
        };
        let mut c = VersionCandidates::default();
        c.merge(&mk("1.0", "20240101000000"), None, "");
        c.merge(&mk("1.1", "20240101000000"), Some("a"), "");
        assert_eq!(c.get("RELEASE").unwrap().version, "1.0");
        c.merge(&mk("1.2", "20240201000000"), Some("b"), "");
        let r = c.get("RELEASE").unwrap();
        assert_eq!(
            (r.version.as_str(), r.repository.as_deref()),
            ("1.2", Some("b"))
        );
        c.merge(&mk("0.9", "20230101000000"), Some("c"), "");
        assert_eq!(c.get("LATEST").unwrap().version, "1.2");
    }

    /// Metadata whose `<versioning>` holds `inner`.
    fn md(inner: &str) -> Metadata {
        Metadata::parse(
            format!("<metadata><versioning>{inner}</versioning></metadata>").as_bytes(),
            "t",
        )
        .unwrap()
    }

    #[test]
    fn latest_falls_back_to_the_release() {
        let answer = |inner: &str, request| {
            let mut c = VersionCandidates::default();
            c.merge(&md(inner), Some("r"), "");
            c.answer(request).map(|c| c.version.clone())
        };
        let both = "<latest>2-SNAPSHOT</latest><release>1</release>";
        let table = [
            (both, VersionRequest::Latest, Some("2-SNAPSHOT")),
            (both, VersionRequest::Release, Some("1")),
            ("<release>1</release>", VersionRequest::Latest, Some("1")),
            ("<latest>2</latest>", VersionRequest::Release, None),
            (
                "<latest></latest><release>1</release>",
                VersionRequest::Latest,
                Some("1"),
            ),
            ("", VersionRequest::Latest, None),
            (both, VersionRequest::Snapshot, None),
            (both, VersionRequest::Fixed, None),
        ];
        for (inner, request, want) in table {
            assert_eq!(
                answer(inner, request).as_deref(),
                want,
                "{inner} {request:?}"
            );
        }
    }

    #[test]
    fn values_that_could_leave_the_repository_make_metadata_invalid() {
        let sv = |v: &str| {
            format!("<snapshotVersions><snapshotVersion><extension>jar</extension><value>{v}</value></snapshotVersion></snapshotVersions>")
        };
        let base = Some("1.0-SNAPSHOT");
        let cases: &[(String, Option<&str>, bool)] = &[
            (sv("1.0-20240102.030405-7"), base, true),
            (sv("1.0-SNAPSHOT"), base, true),
            (sv("1.0-../../../tmp/x/pwned"), base, false),
            (sv("1.0"), base, false),
            (sv("0.9-20240102.030405-7"), base, false),
            (sv("1.0"), None, true),
            ("<release>1.0</release><latest>1.1</latest>".into(), None, true),
            ("<release>../../a0/1.0</release>".into(), None, false),
            ("<latest>..</latest>".into(), None, false),
            ("<versions><version>1</version><version>a\\b</version></versions>".into(), None, false),
            ("<snapshot><timestamp>20240102.030405</timestamp><buildNumber>3</buildNumber></snapshot>".into(), base, true),
            ("<snapshot><timestamp>../../x</timestamp><buildNumber>3</buildNumber></snapshot>".into(), base, false),
            ("<snapshotVersions><snapshotVersion><classifier>../x</classifier><extension>jar</extension><value>1.0-SNAPSHOT</value></snapshotVersion></snapshotVersions>".into(), base, false),
        ];
        for (inner, base, ok) in cases {
            assert_eq!(md(inner).check_values(*base).is_ok(), *ok, "{inner}");
        }
    }

    #[test]
    fn request_kinds() {
        assert_eq!(VersionRequest::of("RELEASE"), VersionRequest::Release);
        assert_eq!(VersionRequest::of("LATEST"), VersionRequest::Latest);
        assert_eq!(VersionRequest::of("1-SNAPSHOT"), VersionRequest::Snapshot);
        assert_eq!(VersionRequest::of("1.0"), VersionRequest::Fixed);
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_parse() {
        use crate::download::metadata::Metadata;
        let md = Metadata::parse(
            br#"<metadata><groupId>g</groupId><versioning>
          <release>1.1</release><versions><version>1.0</version><version>1.1</version></versions>
          </versioning></metadata>"#,
            "x",
        )
        .unwrap();
        assert_eq!(md.versioning.unwrap().versions, ["1.0", "1.1"]);
    }

    #[test]
    fn doc_check_values() {
        use crate::download::metadata::Metadata;
        let bad = Metadata::parse(
            b"<metadata><versioning><release>1.0/../../x</release></versioning></metadata>",
            "x",
        )
        .unwrap();
        assert!(bad.check_values(None).unwrap_err().contains("<release>"));
    }
}
