//! The `maven-metadata.xml` documents a deployment or an installation writes, as Maven 3.8.7's
//! metadata generators make them (maven-resolver-provider: `VersionsMetadata`,
//! `RemoteSnapshotMetadata`, `LocalSnapshotMetadata`), and the writer that prints them as
//! `MetadataXpp3Writer` does.
//!
//! Each generated document replaces the existing one (the "recessive" document, read leniently;
//! missing or empty = new) after a merge that keeps only what Maven keeps:
//!
//! - GA level ([`merge_versions`]): `versions` = the existing list, then the new base version if
//!   it is not listed yet; `release` = the new version unless it is a snapshot, else the
//!   existing one; `latest` = the new version only for an artifact of type `maven-plugin` (the
//!   install and deploy plugins of 3.8.7 never set a type, so in practice the existing one);
//!   `lastUpdated` = the timestamp. Everything else of the existing file (its `<plugins>`, its
//!   `<version>`, `modelVersion`, unknown elements) is dropped, as Maven drops it.
//! - GAV level of a deployed snapshot ([`merge_remote_snapshot`]): `modelVersion="1.1.0"`, a
//!   `<snapshot>` with the timestamp (`yyyyMMdd.HHmmss`, UTC) and the existing build number + 1,
//!   one `<snapshotVersion>` per classifier and extension deployed, in the request's order,
//!   then the existing entries of other classifiers/extensions.
//! - GAV level of an installed snapshot ([`merge_local_snapshot`]): `<snapshot><localCopy>`,
//!   the snapshot versions valued with the base version (`1.0-SNAPSHOT`).
//!
//! `lastUpdated` and `updated` are `yyyyMMddHHmmss` in UTC; one timestamp serves a whole request
//! (Maven's `maven.startTime`). Pure functions; reading and writing the files is the caller's.

use crate::download::metadata::{Metadata, Snapshot, SnapshotVersion, Versioning};
use chrono::{DateTime, Utc};

/// `lastUpdated` / `updated`: `yyyyMMddHHmmss` in UTC.
pub fn last_updated(t: DateTime<Utc>) -> String {
    t.format("%Y%m%d%H%M%S").to_string()
}

/// A snapshot's timestamp: `yyyyMMdd.HHmmss` in UTC.
pub fn snapshot_timestamp(t: DateTime<Utc>) -> String {
    t.format("%Y%m%d.%H%M%S").to_string()
}

/// One artifact as the metadata sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetadataArtifact<'a> {
    /// Classifier, empty when none.
    pub classifier: &'a str,
    /// Extension.
    pub extension: &'a str,
    /// The version the artifact was requested with (`1.0-SNAPSHOT`, or already timestamped).
    pub version: &'a str,
}

/// A GAV-level document: the metadata and its model version (`1.1.0`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// `modelVersion` attribute, when the document has one.
    pub model_version: Option<&'static str>,
    /// The content.
    pub metadata: Metadata,
}

/// The GA-level document of `group:artifact` after adding `base_version`
/// (`VersionsMetadata.merge`). `snapshot` is Resolver's test of the first artifact of this GA in
/// the request; `maven_plugin` whether that artifact's type is `maven-plugin`.
pub fn merge_versions(
    group_id: &str,
    artifact_id: &str,
    base_version: &str,
    snapshot: bool,
    maven_plugin: bool,
    recessive: Option<&Metadata>,
    timestamp: DateTime<Utc>,
) -> Document {
    let mut versioning = Versioning {
        versions: vec![base_version.to_string()],
        release: if snapshot {
            String::new()
        } else {
            base_version.to_string()
        },
        latest: if maven_plugin {
            base_version.to_string()
        } else {
            String::new()
        },
        last_updated: last_updated(timestamp),
        ..Versioning::default()
    };
    if let Some(old) = recessive.and_then(|m| m.versioning.as_ref()) {
        if versioning.latest.is_empty() {
            versioning.latest = old.latest.clone();
        }
        if versioning.release.is_empty() {
            versioning.release = old.release.clone();
        }
        let mut versions: Vec<String> = Vec::with_capacity(old.versions.len() + 1);
        for v in old.versions.iter().chain([base_version.to_string()].iter()) {
            if !versions.contains(v) {
                versions.push(v.clone());
            }
        }
        versioning.versions = versions;
    }
    Document {
        model_version: None,
        metadata: Metadata {
            group_id: group_id.to_string(),
            artifact_id: artifact_id.to_string(),
            version: String::new(),
            versioning: Some(versioning),
        },
    }
}

/// The build number of an existing GAV document (0 when there is none).
pub fn build_number(recessive: Option<&Metadata>) -> u32 {
    recessive
        .and_then(|m| m.versioning.as_ref())
        .and_then(|v| v.snapshot.as_ref())
        .map(|s| s.build_number)
        .unwrap_or(0)
}

/// The version a snapshot artifact is deployed as: `1.0-SNAPSHOT` → `1.0-<timestamp>-<build>`;
/// a version that does not end with `SNAPSHOT` (already timestamped) stays as it is.
pub fn expanded_version(version: &str, timestamp: &str, build_number: u32) -> String {
    match version.strip_suffix("SNAPSHOT") {
        Some(prefix) => format!("{prefix}{timestamp}-{build_number}"),
        None => version.to_string(),
    }
}

/// The GAV-level document of a deployed snapshot (`RemoteSnapshotMetadata.merge`), whose
/// artifacts are `artifacts` (the request's order), and the build number it gives them.
pub fn merge_remote_snapshot(
    group_id: &str,
    artifact_id: &str,
    base_version: &str,
    artifacts: &[MetadataArtifact<'_>],
    recessive: Option<&Metadata>,
    timestamp: DateTime<Utc>,
) -> (Document, u32) {
    let build = build_number(recessive) + 1;
    let ts = snapshot_timestamp(timestamp);
    let updated = last_updated(timestamp);
    let mut versions: Vec<SnapshotVersion> = Vec::new();
    let mut put = |sv: SnapshotVersion, replace: bool| match versions
        .iter_mut()
        .find(|v| v.classifier == sv.classifier && v.extension == sv.extension)
    {
        Some(slot) if replace => *slot = sv,
        Some(_) => {}
        None => versions.push(sv),
    };
    for a in artifacts {
        put(
            SnapshotVersion {
                classifier: a.classifier.to_string(),
                extension: a.extension.to_string(),
                value: expanded_version(a.version, &ts, build),
                updated: updated.clone(),
            },
            true,
        );
    }
    if let Some(old) = recessive.and_then(|m| m.versioning.as_ref()) {
        for sv in &old.snapshot_versions {
            put(sv.clone(), false);
        }
    }
    let versioning = Versioning {
        last_updated: updated,
        snapshot: Some(Snapshot {
            timestamp: ts,
            build_number: build,
            local_copy: false,
        }),
        snapshot_versions: versions,
        ..Versioning::default()
    };
    (
        Document {
            model_version: Some("1.1.0"),
            metadata: Metadata {
                group_id: group_id.to_string(),
                artifact_id: artifact_id.to_string(),
                version: base_version.to_string(),
                versioning: Some(versioning),
            },
        },
        build,
    )
}

/// The GAV-level `maven-metadata-local.xml` of an installed snapshot
/// (`LocalSnapshotMetadata.merge`).
pub fn merge_local_snapshot(
    group_id: &str,
    artifact_id: &str,
    base_version: &str,
    artifacts: &[MetadataArtifact<'_>],
    recessive: Option<&Metadata>,
    timestamp: DateTime<Utc>,
) -> Document {
    let updated = last_updated(timestamp);
    let mut versions: Vec<SnapshotVersion> = Vec::new();
    for a in artifacts {
        let sv = SnapshotVersion {
            classifier: a.classifier.to_string(),
            extension: a.extension.to_string(),
            value: base_version.to_string(),
            updated: updated.clone(),
        };
        match versions
            .iter_mut()
            .find(|v| v.classifier == sv.classifier && v.extension == sv.extension)
        {
            Some(slot) => *slot = sv,
            None => versions.push(sv),
        }
    }
    if let Some(old) = recessive.and_then(|m| m.versioning.as_ref()) {
        for sv in &old.snapshot_versions {
            if !versions
                .iter()
                .any(|v| v.classifier == sv.classifier && v.extension == sv.extension)
            {
                versions.push(sv.clone());
            }
        }
    }
    Document {
        model_version: Some("1.1.0"),
        metadata: Metadata {
            group_id: group_id.to_string(),
            artifact_id: artifact_id.to_string(),
            version: base_version.to_string(),
            versioning: Some(Versioning {
                last_updated: updated,
                snapshot: Some(Snapshot {
                    timestamp: String::new(),
                    build_number: 0,
                    local_copy: true,
                }),
                snapshot_versions: versions,
                ..Versioning::default()
            }),
        },
    }
}

/// Reads an existing document as Maven's merge does: an empty file is a new document.
pub fn read_recessive(
    bytes: &[u8],
    source_name: &str,
) -> Result<Option<Metadata>, crate::download::MetadataParseError> {
    if bytes.is_empty() {
        return Ok(None);
    }
    Metadata::parse(bytes, source_name).map(Some)
}

/// Element text as plexus-utils' `MXSerializer` escapes it: `&` and `<`, a `>` that closes
/// `]]>`, control characters other than tab, newline and carriage return as `&#N;`.
fn escape(text: &str, out: &mut String) {
    let mut brackets = 0usize;
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' if brackets >= 2 => out.push_str("&gt;"),
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {
                out.push_str(&format!("&#{};", c as u32))
            }
            c => out.push(c),
        }
        brackets = if c == ']' { brackets + 1 } else { 0 };
    }
}

fn leaf(out: &mut String, indent: usize, name: &str, value: &str) {
    out.push_str(&"  ".repeat(indent));
    out.push('<');
    out.push_str(name);
    out.push('>');
    escape(value, out);
    out.push_str("</");
    out.push_str(name);
    out.push_str(">\n");
}

/// Prints a document as Maven 3.8.7's `MetadataXpp3Writer` does: UTF-8 declaration, two-space
/// indentation, the model's element order (`groupId`, `artifactId`, `versioning`, `version`;
/// in `versioning`: `latest`, `release`, `versions`, `lastUpdated`, `snapshot`,
/// `snapshotVersions`), empty values and a build number of 0 left out, a final newline.
/// (`tests::doc_write` shows one.)
pub fn write(doc: &Document) -> String {
    let md = &doc.metadata;
    let mut out = String::with_capacity(512);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<metadata");
    if let Some(mv) = doc.model_version {
        out.push_str(" modelVersion=\"");
        out.push_str(mv);
        out.push('"');
    }
    out.push_str(">\n");
    let opt = |out: &mut String, indent: usize, name: &str, value: &str| {
        if !value.is_empty() {
            leaf(out, indent, name, value);
        }
    };
    opt(&mut out, 1, "groupId", &md.group_id);
    opt(&mut out, 1, "artifactId", &md.artifact_id);
    if let Some(v) = &md.versioning {
        out.push_str("  <versioning>\n");
        opt(&mut out, 2, "latest", &v.latest);
        opt(&mut out, 2, "release", &v.release);
        if !v.versions.is_empty() {
            out.push_str("    <versions>\n");
            for version in &v.versions {
                leaf(&mut out, 3, "version", version);
            }
            out.push_str("    </versions>\n");
        }
        opt(&mut out, 2, "lastUpdated", &v.last_updated);
        if let Some(s) = &v.snapshot {
            out.push_str("    <snapshot>\n");
            opt(&mut out, 3, "timestamp", &s.timestamp);
            if s.build_number != 0 {
                leaf(&mut out, 3, "buildNumber", &s.build_number.to_string());
            }
            if s.local_copy {
                leaf(&mut out, 3, "localCopy", "true");
            }
            out.push_str("    </snapshot>\n");
        }
        if !v.snapshot_versions.is_empty() {
            out.push_str("    <snapshotVersions>\n");
            for sv in &v.snapshot_versions {
                out.push_str("      <snapshotVersion>\n");
                opt(&mut out, 4, "classifier", &sv.classifier);
                opt(&mut out, 4, "extension", &sv.extension);
                opt(&mut out, 4, "value", &sv.value);
                opt(&mut out, 4, "updated", &sv.updated);
                out.push_str("      </snapshotVersion>\n");
            }
            out.push_str("    </snapshotVersions>\n");
        }
        out.push_str("  </versioning>\n");
    }
    opt(&mut out, 1, "version", &md.version);
    out.push_str("</metadata>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_write() {
        let t = chrono::DateTime::parse_from_rfc3339("2026-12-01T19:25:35Z")
            .unwrap()
            .to_utc();
        let doc = merge_versions("org.example.pub", "lib", "1.0", false, false, None, t);
        assert_eq!(
            write(&doc),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<metadata>\n  \
             <groupId>org.example.pub</groupId>\n  <artifactId>lib</artifactId>\n  <versioning>\n    \
             <release>1.0</release>\n    <versions>\n      <version>1.0</version>\n    </versions>\n    \
             <lastUpdated>20261201192535</lastUpdated>\n  </versioning>\n</metadata>\n"
        );
    }

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().to_utc()
    }

    /// Written by Maven 3.8.7 (`mvn-publish.py deploy` of org.example.pub:lib:2.0-SNAPSHOT with a
    /// sources jar, twice; the second run).
    const SECOND_SNAPSHOT_DEPLOY: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<metadata modelVersion="1.1.0">
  <groupId>org.example.pub</groupId>
  <artifactId>lib</artifactId>
  <versioning>
    <lastUpdated>20261201192557</lastUpdated>
    <snapshot>
      <timestamp>20261201.192557</timestamp>
      <buildNumber>2</buildNumber>
    </snapshot>
    <snapshotVersions>
      <snapshotVersion>
        <extension>jar</extension>
        <value>2.0-20261201.192557-2</value>
        <updated>20261201192557</updated>
      </snapshotVersion>
      <snapshotVersion>
        <extension>pom</extension>
        <value>2.0-20261201.192557-2</value>
        <updated>20261201192557</updated>
      </snapshotVersion>
      <snapshotVersion>
        <classifier>sources</classifier>
        <extension>jar</extension>
        <value>2.0-20261201.192557-2</value>
        <updated>20261201192557</updated>
      </snapshotVersion>
    </snapshotVersions>
  </versioning>
  <version>2.0-SNAPSHOT</version>
</metadata>
"#;

    #[test]
    fn a_second_snapshot_deploy_increments_the_build_number() {
        let arts = [
            MetadataArtifact {
                classifier: "",
                extension: "jar",
                version: "2.0-SNAPSHOT",
            },
            MetadataArtifact {
                classifier: "",
                extension: "pom",
                version: "2.0-SNAPSHOT",
            },
            MetadataArtifact {
                classifier: "sources",
                extension: "jar",
                version: "2.0-SNAPSHOT",
            },
        ];
        let (first, n) = merge_remote_snapshot(
            "org.example.pub",
            "lib",
            "2.0-SNAPSHOT",
            &arts,
            None,
            at("2026-12-01T19:25:54Z"),
        );
        assert_eq!(n, 1);
        let first = read_recessive(write(&first).as_bytes(), "first").unwrap();
        let (second, n) = merge_remote_snapshot(
            "org.example.pub",
            "lib",
            "2.0-SNAPSHOT",
            &arts,
            first.as_ref(),
            at("2026-12-01T19:25:57Z"),
        );
        assert_eq!(n, 2);
        assert_eq!(write(&second), SECOND_SNAPSHOT_DEPLOY);
    }

    #[test]
    fn other_classifiers_of_the_existing_document_are_kept_after_the_new_ones() {
        let old = read_recessive(SECOND_SNAPSHOT_DEPLOY.as_bytes(), "old")
            .unwrap()
            .unwrap();
        let arts = [MetadataArtifact {
            classifier: "",
            extension: "jar",
            version: "2.0-SNAPSHOT",
        }];
        let (doc, n) = merge_remote_snapshot(
            "org.example.pub",
            "lib",
            "2.0-SNAPSHOT",
            &arts,
            Some(&old),
            at("2026-12-01T19:26:11Z"),
        );
        assert_eq!(n, 3);
        let svs = &doc.metadata.versioning.as_ref().unwrap().snapshot_versions;
        let got: Vec<(&str, &str, &str)> = svs
            .iter()
            .map(|s| {
                (
                    s.classifier.as_str(),
                    s.extension.as_str(),
                    s.value.as_str(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("", "jar", "2.0-20261201.192611-3"),
                ("", "pom", "2.0-20261201.192557-2"),
                ("sources", "jar", "2.0-20261201.192557-2"),
            ]
        );
    }

    #[test]
    fn versions_keep_the_existing_order_and_drop_what_maven_drops() {
        // What Maven 3.8.7 made of an existing file with <plugins>, <version>, junk and a latest.
        let old = br#"<?xml version="1.0" encoding="UTF-8"?>
<metadata modelVersion="1.1.0"><groupId>org.example.pub</groupId><artifactId>lib</artifactId>
  <version>0.9</version><versioning><latest>0.9</latest><release>0.9</release>
  <versions><version>0.8</version><version>1.1</version><version>0.9</version></versions>
  <lastUpdated>20200101000000</lastUpdated></versioning>
  <plugins><plugin><name>x</name><prefix>x</prefix><artifactId>x</artifactId></plugin></plugins>
  <junk>1</junk></metadata>"#;
        let old = read_recessive(old, "old").unwrap().unwrap();
        let doc = merge_versions(
            "org.example.pub",
            "lib",
            "1.1",
            false,
            false,
            Some(&old),
            at("2026-12-01T19:29:17Z"),
        );
        assert_eq!(
            write(&doc),
            r#"<?xml version="1.0" encoding="UTF-8"?>
<metadata>
  <groupId>org.example.pub</groupId>
  <artifactId>lib</artifactId>
  <versioning>
    <latest>0.9</latest>
    <release>1.1</release>
    <versions>
      <version>0.8</version>
      <version>1.1</version>
      <version>0.9</version>
    </versions>
    <lastUpdated>20261201192917</lastUpdated>
  </versioning>
</metadata>
"#
        );
        // a snapshot keeps the existing release; a plugin type sets latest
        let doc = merge_versions(
            "g",
            "a",
            "2.0-SNAPSHOT",
            true,
            true,
            Some(&old),
            at("2026-12-01T00:00:00Z"),
        );
        let v = doc.metadata.versioning.unwrap();
        assert_eq!(
            (v.release.as_str(), v.latest.as_str()),
            ("0.9", "2.0-SNAPSHOT")
        );
        assert_eq!(v.versions, ["0.8", "1.1", "0.9", "2.0-SNAPSHOT"]);
    }

    #[test]
    fn installed_snapshots_are_local_copies() {
        let arts = [
            MetadataArtifact {
                classifier: "",
                extension: "jar",
                version: "2.0-SNAPSHOT",
            },
            MetadataArtifact {
                classifier: "",
                extension: "pom",
                version: "2.0-SNAPSHOT",
            },
        ];
        let doc = merge_local_snapshot(
            "org.example.pub",
            "lib",
            "2.0-SNAPSHOT",
            &arts,
            None,
            at("2026-12-01T19:28:54Z"),
        );
        // mvn-publish.py install of org.example.pub:lib:2.0-SNAPSHOT
        assert_eq!(
            write(&doc),
            r#"<?xml version="1.0" encoding="UTF-8"?>
<metadata modelVersion="1.1.0">
  <groupId>org.example.pub</groupId>
  <artifactId>lib</artifactId>
  <versioning>
    <lastUpdated>20261201192854</lastUpdated>
    <snapshot>
      <localCopy>true</localCopy>
    </snapshot>
    <snapshotVersions>
      <snapshotVersion>
        <extension>jar</extension>
        <value>2.0-SNAPSHOT</value>
        <updated>20261201192854</updated>
      </snapshotVersion>
      <snapshotVersion>
        <extension>pom</extension>
        <value>2.0-SNAPSHOT</value>
        <updated>20261201192854</updated>
      </snapshotVersion>
    </snapshotVersions>
  </versioning>
  <version>2.0-SNAPSHOT</version>
</metadata>
"#
        );
    }

    #[test]
    fn expanded_versions_and_empty_files() {
        assert_eq!(
            expanded_version("1.0-SNAPSHOT", "20260101.000000", 4),
            "1.0-20260101.000000-4"
        );
        assert_eq!(
            expanded_version("SNAPSHOT", "20260101.000000", 1),
            "20260101.000000-1"
        );
        assert_eq!(
            expanded_version("1.0-20250101.000000-2", "20260101.000000", 4),
            "1.0-20250101.000000-2"
        );
        assert_eq!(read_recessive(b"", "x").unwrap(), None);
        assert!(read_recessive(b"<metadata><versioning>", "x").is_err());
        let mut out = String::new();
        escape("a&b<c>]]>\u{1}\t\"", &mut out);
        assert_eq!(out, "a&amp;b&lt;c>]]&gt;&#1;\t\"");
    }
}
