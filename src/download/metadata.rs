//! `maven-metadata.xml` (spec §8.2) and version resolution from it (spec §8.3): parsing with
//! quick-xml (lenient: unknown elements are ignored, like `MetadataXpp3Reader(strict=false)`), and
//! [`VersionCandidates`], which merges the metadata of several repositories the way Maven's
//! `DefaultVersionResolver` does (the strictly newer timestamp wins; ties keep the first seen, so
//! the local repository wins ties) and answers `RELEASE`, `LATEST` and `X-SNAPSHOT` requests.
//!
//! Values that become paths are checked by [`Metadata::check_values`] before the resolver uses
//! or stores a file: a version, timestamp or build number that could not be a path segment
//! ([`crate::download::segment`]), or a snapshot version of another base version, makes the
//! whole file invalid for its repository.
//!
//! Fetching and caching the files is [`crate::download::resolver`]'s job.

use crate::download::coords::base_version;
use crate::download::segment::{check, SegmentKind};
use quick_xml::events::Event;
use quick_xml::Reader;
use std::collections::HashMap;
use thiserror::Error;

/// A metadata file that could not be read.
#[derive(Debug, Error)]
#[error("invalid maven-metadata.xml {source_name} at byte {position}: {message}")]
pub struct MetadataError {
    /// File path or URL it came from.
    pub source_name: String,
    /// Byte offset of the problem.
    pub position: u64,
    /// The parser's message.
    pub message: String,
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
    pub fn parse(xml: &[u8], source_name: &str) -> Result<Metadata, MetadataError> {
        let mut reader = Reader::from_reader(xml);
        reader.config_mut().trim_text(true);
        let mut path: Vec<String> = Vec::new();
        let mut md = Metadata::default();
        let mut versioning: Option<Versioning> = None;
        let mut sv: Option<SnapshotVersion> = None;
        let mut buf = Vec::new();
        let mut saw_root = false;
        // A parser message may quote the input (a tag name of megabytes): keep a short prefix.
        let err = |reader: &Reader<&[u8]>, message: String| MetadataError {
            source_name: source_name.to_string(),
            position: reader.buffer_position(),
            message: crate::printable::quote_prefix(&message, 200),
        };
        loop {
            let ev = reader
                .read_event_into(&mut buf)
                .map_err(|e| err(&reader, e.to_string()))?;
            match ev {
                Event::Start(e) => {
                    let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
                    if path.is_empty() {
                        check_root(&name).map_err(|m| err(&reader, m))?;
                        saw_root = true;
                    }
                    path.push(name);
                    let p: Vec<&str> = path.iter().map(String::as_str).collect();
                    match p.as_slice() {
                        ["metadata", "versioning"] => {
                            versioning.get_or_insert_with(Versioning::default);
                        }
                        ["metadata", "versioning", "snapshot"] => {
                            versioning.get_or_insert_with(Versioning::default).snapshot =
                                Some(Snapshot::default());
                        }
                        ["metadata", "versioning", "snapshotVersions", "snapshotVersion"] => {
                            sv = Some(SnapshotVersion::default());
                        }
                        _ => {}
                    }
                }
                Event::Empty(e) if path.is_empty() => {
                    check_root(&String::from_utf8_lossy(e.local_name().as_ref()))
                        .map_err(|m| err(&reader, m))?;
                    saw_root = true;
                }
                Event::End(_) => {
                    let p: Vec<&str> = path.iter().map(String::as_str).collect();
                    if p.as_slice()
                        == [
                            "metadata",
                            "versioning",
                            "snapshotVersions",
                            "snapshotVersion",
                        ]
                    {
                        if let (Some(v), Some(s)) = (versioning.as_mut(), sv.take()) {
                            v.snapshot_versions.push(s);
                        }
                    }
                    path.pop();
                }
                Event::Text(t) => {
                    let text = t
                        .unescape()
                        .map_err(|e| err(&reader, e.to_string()))?
                        .trim()
                        .to_string();
                    let p: Vec<&str> = path.iter().map(String::as_str).collect();
                    let v = || Versioning::default();
                    match p.as_slice() {
                        ["metadata", "groupId"] => md.group_id = text,
                        ["metadata", "artifactId"] => md.artifact_id = text,
                        ["metadata", "version"] => md.version = text,
                        ["metadata", "versioning", "latest"] => {
                            versioning.get_or_insert_with(v).latest = text
                        }
                        ["metadata", "versioning", "release"] => {
                            versioning.get_or_insert_with(v).release = text
                        }
                        ["metadata", "versioning", "lastUpdated"] => {
                            versioning.get_or_insert_with(v).last_updated = text
                        }
                        ["metadata", "versioning", "versions", "version"] => {
                            versioning.get_or_insert_with(v).versions.push(text)
                        }
                        ["metadata", "versioning", "snapshot", field] => {
                            if let Some(s) = versioning.get_or_insert_with(v).snapshot.as_mut() {
                                match *field {
                                    "timestamp" => s.timestamp = text,
                                    "buildNumber" => s.build_number = text.parse().unwrap_or(0),
                                    "localCopy" => s.local_copy = text == "true",
                                    _ => {}
                                }
                            }
                        }
                        ["metadata", "versioning", "snapshotVersions", "snapshotVersion", field] => {
                            if let Some(s) = sv.as_mut() {
                                match *field {
                                    "classifier" => s.classifier = text,
                                    "extension" => s.extension = text,
                                    "value" => s.value = text,
                                    "updated" => s.updated = text,
                                    _ => {}
                                }
                            }
                        }
                        _ => {}
                    }
                }
                Event::Eof => break,
                _ => {}
            }
            buf.clear();
        }
        if !saw_root {
            return Err(err(&reader, "no <metadata> element".into()));
        }
        if !path.is_empty() {
            return Err(err(&reader, format!("unclosed <{}>", path.join("/"))));
        }
        md.versioning = versioning;
        Ok(md)
    }
}

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

    /// The snapshot answer for a classifier/extension: `SNAPSHOT<cls>:<ext>`, else the legacy
    /// `SNAPSHOT` entry; `None` means the version stays `X-SNAPSHOT`.
    pub fn snapshot(&self, classifier: &str, extension: &str) -> Option<&Candidate> {
        self.map
            .get(&format!("SNAPSHOT{classifier}:{extension}"))
            .or_else(|| self.map.get("SNAPSHOT"))
    }
}

/// The document element must be `<metadata>`.
fn check_root(name: &str) -> Result<(), String> {
    if name == "metadata" {
        Ok(())
    } else {
        Err(format!("root element is <{name}>, expected <metadata>"))
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

    #[test]
    fn values_that_could_leave_the_repository_make_metadata_invalid() {
        let md = |inner: &str| {
            Metadata::parse(
                format!("<metadata><versioning>{inner}</versioning></metadata>").as_bytes(),
                "t",
            )
            .unwrap()
        };
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
