//! Artifact coordinates: `groupId:artifactId[:extension[:classifier]]:version`.
//!
//! This module owns parsing and printing coordinates as `m2r get` and the bench files write them
//! (the order Maven Resolver's `DefaultArtifact` uses). It does not resolve versions: `SNAPSHOT`,
//! `LATEST` and `RELEASE` are recognised here but turned into real versions by
//! [`crate::download::metadata`].

use crate::download::segment::{self, SegmentError, SegmentKind};
use crate::resolution::Artifact;
use std::fmt;
use thiserror::Error;

/// Why a coordinate string could not be parsed.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum CoordinateError {
    /// Not 3 to 5 `:`-separated parts.
    #[error("invalid artifact coordinate `{}`: expected groupId:artifactId[:extension[:classifier]]:version, got {parts} part(s)", input.escape_debug())]
    PartCount {
        /// The text as given.
        input: String,
        /// How many `:`-separated parts it had.
        parts: usize,
    },
    /// A required part is empty.
    #[error("invalid artifact coordinate `{}`: the {part} is empty", input.escape_debug())]
    EmptyPart {
        /// The text as given.
        input: String,
        /// `groupId`, `artifactId` or `version`.
        part: &'static str,
    },
    /// A part cannot be a path segment (see [`crate::download::SegmentKind`]).
    #[error("invalid artifact coordinate `{}`", input.escape_debug())]
    Invalid {
        /// The text as given.
        input: String,
        /// Which part and why.
        #[source]
        source: SegmentError,
    },
}

/// The downloader's view of an artifact: its five coordinates, nothing of its type. The public
/// type is [`Artifact`] ([`Artifact::parse`] parses through here).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coordinate {
    /// `groupId` (dots become directories).
    pub group_id: String,
    /// `artifactId`.
    pub artifact_id: String,
    /// File extension, `jar` unless given.
    pub extension: String,
    /// Classifier, empty when none.
    pub classifier: String,
    /// Requested version: a plain version, `X-SNAPSHOT`, `LATEST` or `RELEASE`.
    pub version: String,
}

impl Coordinate {
    /// The coordinates of `artifact`.
    pub(crate) fn of(artifact: &Artifact) -> Coordinate {
        Coordinate {
            group_id: artifact.group_id.clone(),
            artifact_id: artifact.artifact_id.clone(),
            extension: artifact.extension.clone(),
            classifier: artifact.classifier.clone(),
            version: artifact.version.clone(),
        }
    }

    /// The artifact with these coordinates and no type.
    pub(crate) fn to_artifact(&self) -> Artifact {
        Artifact::new(
            self.group_id.clone(),
            self.artifact_id.clone(),
            self.extension.clone(),
            self.classifier.clone(),
            self.version.clone(),
        )
    }

    /// Parses `groupId:artifactId[:extension[:classifier]]:version` (surrounding whitespace ignored).
    pub fn parse(input: &str) -> Result<Self, CoordinateError> {
        let text = input.trim();
        let parts: Vec<&str> = text.split(':').collect();
        let (g, a, e, c, v) = match parts.as_slice() {
            [g, a, v] => (*g, *a, "jar", "", *v),
            [g, a, e, v] => (*g, *a, *e, "", *v),
            [g, a, e, c, v] => (*g, *a, *e, *c, *v),
            _ => {
                return Err(CoordinateError::PartCount {
                    input: input.to_string(),
                    parts: parts.len(),
                })
            }
        };
        let e = if e.is_empty() { "jar" } else { e };
        for (part, value) in [("groupId", g), ("artifactId", a), ("version", v)] {
            if value.is_empty() {
                return Err(CoordinateError::EmptyPart {
                    input: input.to_string(),
                    part,
                });
            }
        }
        let invalid = |source| CoordinateError::Invalid {
            input: input.to_string(),
            source,
        };
        for piece in g.split('.') {
            segment::check(SegmentKind::GroupId, piece).map_err(invalid)?;
        }
        for (kind, value) in [
            (SegmentKind::ArtifactId, a),
            (SegmentKind::Extension, e),
            (SegmentKind::Version, v),
        ] {
            segment::check(kind, value).map_err(invalid)?;
        }
        if !c.is_empty() {
            segment::check(SegmentKind::Classifier, c).map_err(invalid)?;
        }
        Ok(Coordinate {
            group_id: g.to_string(),
            artifact_id: a.to_string(),
            extension: e.to_string(),
            classifier: c.to_string(),
            version: v.to_string(),
        })
    }

    /// The same coordinate with another version.
    pub fn with_version(&self, version: impl Into<String>) -> Self {
        Coordinate {
            version: version.into(),
            ..self.clone()
        }
    }
}

/// Maven's snapshot test: the version ends with `SNAPSHOT`, or is a timestamped snapshot
/// (`1.0-20240102.030405-7`).
pub fn is_snapshot_version(version: &str) -> bool {
    version.ends_with("SNAPSHOT") || timestamped_base(version).is_some()
}

/// maven-artifact's `ArtifactUtils.isSnapshot`, which Maven uses to drop the versions of a
/// `maven-metadata.xml` listing that a repository's policy disables: unlike
/// [`is_snapshot_version`] (Resolver's test) the suffix is compared ignoring case
/// (`String.regionMatches(true, …)`: `1.0-snapshot`, and even `1.0-ſnapshot`, whose long s
/// upper-cases to `S`) and a timestamp needs a `-` before it (`(.*)-\d{8}\.\d{6}-\d+`).
pub fn is_snapshot_version_ignoring_case(version: &str) -> bool {
    let suffix: Vec<char> = version.chars().rev().take(8).collect();
    let ignoring_case = suffix.len() == 8
        && suffix
            .iter()
            .rev()
            .zip("SNAPSHOT".chars())
            .all(|(&c, s)| c.eq_ignore_ascii_case(&s) || (s == 'S' && c == '\u{17f}'));
    ignoring_case || timestamped_base(version).is_some_and(|base| base.ends_with('-'))
}

/// The base version: `1.0-20240102.030405-7` → `1.0-SNAPSHOT`; other versions unchanged.
pub fn base_version(version: &str) -> String {
    match timestamped_base(version) {
        Some(base) => format!("{base}SNAPSHOT"),
        None => version.to_string(),
    }
}

/// For `<base>-yyyyMMdd.HHmmss-N` returns `<base>-` (Maven's `SNAPSHOT_TIMESTAMP` pattern
/// `^(.*-)?([0-9]{8}\.[0-9]{6}-[0-9]+)$`).
fn timestamped_base(version: &str) -> Option<&str> {
    let dash = version.rfind('-')?;
    let (head, build) = (&version[..dash], &version[dash + 1..]);
    if build.is_empty() || !build.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let ts_start = head.len().checked_sub(15)?;
    let ts = &head[ts_start..];
    let b = ts.as_bytes();
    let ok = b.len() == 15
        && b[8] == b'.'
        && b[..8].iter().all(u8::is_ascii_digit)
        && b[9..].iter().all(u8::is_ascii_digit);
    if !ok {
        return None;
    }
    let prefix = &version[..ts_start];
    if prefix.is_empty() || prefix.ends_with('-') {
        Some(prefix)
    } else {
        None
    }
}

impl std::str::FromStr for Coordinate {
    type Err = CoordinateError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Coordinate::parse(s)
    }
}

impl fmt::Display for Coordinate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}",
            self.group_id, self.artifact_id, self.extension
        )?;
        if !self.classifier.is_empty() {
            write!(f, ":{}", self.classifier)?;
        }
        write!(f, ":{}", self.version)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_all_forms() {
        let cases: &[(&str, [&str; 5])] = &[
            ("g:a:1", ["g", "a", "jar", "", "1"]),
            ("g:a:pom:1", ["g", "a", "pom", "", "1"]),
            ("g:a:jar:sources:1", ["g", "a", "jar", "sources", "1"]),
            (
                " org.x:y-z:war:2.0-SNAPSHOT \n",
                ["org.x", "y-z", "war", "", "2.0-SNAPSHOT"],
            ),
            ("g:a::1", ["g", "a", "jar", "", "1"]),
            ("g:a:jar::1", ["g", "a", "jar", "", "1"]),
        ];
        for (input, [g, a, e, c, v]) in cases {
            let got = Coordinate::parse(input).unwrap();
            assert_eq!(
                (
                    &*got.group_id,
                    &*got.artifact_id,
                    &*got.extension,
                    &*got.classifier,
                    &*got.version
                ),
                (*g, *a, *e, *c, *v),
                "{input}"
            );
        }
    }

    #[test]
    fn rejects_bad_input_with_clear_errors() {
        let err = Coordinate::parse("g:a").unwrap_err();
        assert!(err.to_string().contains("got 2 part(s)"), "{err}");
        let err = Coordinate::parse("g:a:b:c:d:e").unwrap_err();
        assert!(matches!(err, CoordinateError::PartCount { parts: 6, .. }));
        let err = Coordinate::parse(":a:1").unwrap_err();
        assert!(err.to_string().contains("groupId is empty"), "{err}");
        let err = Coordinate::parse("g:a:").unwrap_err();
        assert!(err.to_string().contains("version is empty"), "{err}");
        let err = Coordinate::parse("g:a/../b:1").unwrap_err();
        let chain = crate::printable::error_chain(&err);
        assert!(chain.contains("artifactId"), "{chain}");
        assert!(Coordinate::parse("g:..:1").is_err());
        assert!(Coordinate::parse("g:a b:1").is_err());
        for bad in [
            "g..h:a:1",
            ".g:a:1",
            "g:a:.1",
            "g:a:jar:x\\y:1",
            "g:a:1\u{1b}",
        ] {
            assert!(Coordinate::parse(bad).is_err(), "{bad}");
        }
        let err = Coordinate::parse("g:a:1\u{1b}[2J").unwrap_err().to_string();
        assert!(!err.contains('\u{1b}'), "{err}");
    }

    #[test]
    fn snapshot_test_of_version_listings() {
        for (v, snap) in [
            ("1.0-SNAPSHOT", true),
            ("1.0-snapshot", true),
            ("1.0-Snapshot", true),
            ("1.0-\u{17f}NAPSHOT", true),
            ("snapshot", true),
            ("NAPSHOT", false),
            ("1.0-SNAPSHOTS", false),
            ("1.0-20240102.030405-7", true),
            ("-20240102.030405-7", true),
            ("20240102.030405-7", false),
            ("1.0", false),
        ] {
            assert_eq!(is_snapshot_version_ignoring_case(v), snap, "{v}");
        }
    }

    #[test]
    fn display_round_trips() {
        for s in ["g:a:jar:1", "g:a:pom:1", "g:a:jar:tests:1-SNAPSHOT"] {
            assert_eq!(Coordinate::parse(s).unwrap().to_string(), s);
        }
    }

    #[test]
    fn snapshot_detection_and_base_version() {
        let cases = [
            ("1.0", false, "1.0"),
            ("1.0-SNAPSHOT", true, "1.0-SNAPSHOT"),
            ("SNAPSHOT", true, "SNAPSHOT"),
            ("1.0-20240102.030405-7", true, "1.0-SNAPSHOT"),
            ("20240102.030405-7", true, "SNAPSHOT"),
            ("1.0-20240102.030405-", false, "1.0-20240102.030405-"),
            ("1.0-2024010.030405-1", false, "1.0-2024010.030405-1"),
            ("1.020240102.030405-1", false, "1.020240102.030405-1"),
            ("LATEST", false, "LATEST"),
        ];
        for (v, snap, base) in cases {
            assert_eq!(is_snapshot_version(v), snap, "{v}");
            assert_eq!(base_version(v), base, "{v}");
        }
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_base_version() {
        use crate::download::coords::base_version;
        assert_eq!(base_version("1.0-20240102.030405-7"), "1.0-SNAPSHOT");
        assert_eq!(base_version("1.0"), "1.0");
    }
}
