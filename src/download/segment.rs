//! Path segments that came from outside, and repository paths built only from them.
//!
//! Every part of a local file name or a request URL that a user or a server chose — the parts of
//! a coordinate, the versions, timestamps and build numbers of `maven-metadata.xml`, a repository
//! id in `maven-metadata-<id>.xml`, and later POM values — passes through [`Segment::new`] once.
//! A [`RepoPath`] (the relative path of an artifact, checksum or metadata file) can only be made
//! from such segments, so neither a local path nor a URL can leave the repository root: there is
//! no `/`, `\`, `..`, NUL, control character, drive prefix (`C:`) or URL syntax (`?`, `#`, `%`)
//! in any segment, and no segment is `.`, `..` or empty.
//!
//! Which dots are refused beyond `.` and `..`: a version (and so every metadata value that
//! becomes one), a `groupId` piece and a repository id may neither start with `.` nor contain
//! `..` — Maven's layout never produces such a directory or file name — while an `artifactId`,
//! classifier or extension may (Maven's model validator allows `[A-Za-z0-9_\-.]+`). A
//! `groupId` is split at dots, so an empty piece (`org..x`, `.org`) is refused as empty.
//!
//! Not here: where the files go in the local repository ([`crate::download::local`], which also
//! checks that every path it writes is under its root) and how segments are joined
//! ([`crate::download::layout`]).

use std::fmt;
use thiserror::Error;

/// Longest segment accepted, in bytes: the usual file-name limit of Linux, macOS and Windows.
pub const MAX_SEGMENT_BYTES: usize = 255;

/// What a segment is, for messages and for the leading-dot rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SegmentKind {
    /// One dot-separated piece of a `groupId`.
    GroupId,
    /// An `artifactId`.
    ArtifactId,
    /// A version, requested or resolved (`1.0`, `1.0-SNAPSHOT`, `1.0-20240102.030405-7`).
    Version,
    /// A classifier (may be empty in a coordinate; never a segment on its own).
    Classifier,
    /// An extension (`jar`, `tar.gz`).
    Extension,
    /// A repository id used in a local file name (`maven-metadata-<id>.xml`).
    RepositoryId,
    /// A whole file name built from the parts above.
    FileName,
}

impl SegmentKind {
    /// The name used in messages.
    pub fn label(self) -> &'static str {
        match self {
            SegmentKind::GroupId => "groupId",
            SegmentKind::ArtifactId => "artifactId",
            SegmentKind::Version => "version",
            SegmentKind::Classifier => "classifier",
            SegmentKind::Extension => "extension",
            SegmentKind::RepositoryId => "repository id",
            SegmentKind::FileName => "file name",
        }
    }
}

/// Why a value cannot be a path segment.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum SegmentError {
    /// The value is empty.
    #[error("the {} is empty", kind.label())]
    Empty {
        /// What it was.
        kind: SegmentKind,
    },
    /// The value holds a character that cannot appear in a repository path.
    #[error("the {} `{}` contains {}, which cannot appear in a repository path", kind.label(), shown(value), describe_char(*ch))]
    BadCharacter {
        /// What it was.
        kind: SegmentKind,
        /// The value (printed escaped and cut short).
        value: String,
        /// The offending character.
        ch: char,
    },
    /// `.`, `..`, or a leading dot where Maven's layout cannot produce one.
    #[error("the {} `{}` is not allowed as a path segment (`.`/`..` and, for versions, a leading `.` could leave or hide inside the repository)", kind.label(), shown(value))]
    Dots {
        /// What it was.
        kind: SegmentKind,
        /// The value.
        value: String,
    },
    /// Longer than [`MAX_SEGMENT_BYTES`].
    #[error("the {} is {len} bytes long; at most {MAX_SEGMENT_BYTES} fit in a file name", kind.label())]
    TooLong {
        /// What it was.
        kind: SegmentKind,
        /// Its length in bytes.
        len: usize,
    },
}

fn shown(value: &str) -> String {
    crate::printable::quote_prefix(value, 80)
}

fn describe_char(ch: char) -> String {
    if ch.is_control() || ch.is_whitespace() {
        format!("the character U+{:04X}", ch as u32)
    } else {
        format!("`{ch}`")
    }
}

/// The check behind [`Segment::new`], without allocating.
pub fn check(kind: SegmentKind, value: &str) -> Result<(), SegmentError> {
    if value.is_empty() {
        return Err(SegmentError::Empty { kind });
    }
    if value.len() > MAX_SEGMENT_BYTES {
        return Err(SegmentError::TooLong {
            kind,
            len: value.len(),
        });
    }
    if let Some(ch) = value.chars().find(|&c| forbidden(c)) {
        return Err(SegmentError::BadCharacter {
            kind,
            value: value.to_string(),
            ch,
        });
    }
    let version_like = matches!(
        kind,
        SegmentKind::Version | SegmentKind::GroupId | SegmentKind::RepositoryId
    );
    if value == "."
        || value == ".."
        || (version_like && (value.starts_with('.') || value.contains("..")))
    {
        return Err(SegmentError::Dots {
            kind,
            value: value.to_string(),
        });
    }
    Ok(())
}

/// Characters no segment may hold: path separators, a drive or scheme colon, URL syntax,
/// whitespace, control characters (NUL included) and Unicode's invisible format characters.
fn forbidden(c: char) -> bool {
    matches!(
        c,
        '/' | '\\' | ':' | '?' | '#' | '%' | '*' | '<' | '>' | '|' | '"'
    ) || c.is_whitespace()
        || c.is_control()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}')
}

/// A validated path segment.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Segment(String);

impl Segment {
    /// Validates `value` as a segment of `kind`.
    pub fn new(kind: SegmentKind, value: &str) -> Result<Segment, SegmentError> {
        check(kind, value)?;
        Ok(Segment(value.to_string()))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Segment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A path relative to a repository root (local directory or remote base URL), `/`-separated,
/// made only of validated segments: it can neither be absolute nor climb out of the root.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct RepoPath(String);

impl RepoPath {
    /// The repository root itself (the empty path).
    pub fn root() -> RepoPath {
        RepoPath(String::new())
    }

    /// This path with one more segment, validated as `kind`.
    pub fn join(mut self, kind: SegmentKind, segment: &str) -> Result<RepoPath, SegmentError> {
        check(kind, segment)?;
        if !self.0.is_empty() {
            self.0.push('/');
        }
        self.0.push_str(segment);
        Ok(self)
    }

    /// This path with a validated segment appended.
    pub fn join_segment(mut self, segment: &Segment) -> RepoPath {
        if !self.0.is_empty() {
            self.0.push('/');
        }
        self.0.push_str(segment.as_str());
        self
    }

    /// The same path with `.<suffix>` added to its last segment (a checksum sidecar such as
    /// `.sha1`, or `.lastUpdated`); the result is validated again.
    pub fn with_suffix(&self, suffix: &str) -> Result<RepoPath, SegmentError> {
        let (dir, name) = match self.0.rsplit_once('/') {
            Some((d, n)) => (Some(d), n),
            None => (None, self.0.as_str()),
        };
        let name = format!("{name}.{suffix}");
        check(SegmentKind::FileName, &name)?;
        Ok(RepoPath(match dir {
            Some(d) => format!("{d}/{name}"),
            None => name,
        }))
    }

    /// The path text (`org/example/a/1.0/a-1.0.jar`); empty for the root.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The segments in order.
    pub fn segments(&self) -> impl Iterator<Item = &str> {
        self.0.split('/').filter(|s| !s.is_empty())
    }
}

impl std::ops::Deref for RepoPath {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for RepoPath {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for RepoPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// True when `relative` (a `/`-separated path) stays inside the root it is joined to: every
/// segment passes [`check`] as a file name. This is the final containment check of
/// [`crate::download::local`] and of the transport's request URLs.
#[cfg(test)]
pub fn is_contained(relative: &str) -> bool {
    !relative.is_empty()
        && relative
            .split('/')
            .all(|s| check(SegmentKind::FileName, s).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segment_table() {
        use SegmentKind::*;
        let cases: &[(SegmentKind, &str, bool)] = &[
            (Version, "1.0", true),
            (Version, "1.0-SNAPSHOT", true),
            (Version, "1.0-20240102.030405-7", true),
            (Version, "", false),
            (Version, ".", false),
            (Version, "..", false),
            (Version, ".1", false),
            (Version, "1.0-..", false),
            (Version, "1..0", false),
            (Version, "1.0-../../../tmp/x/pwned", false),
            (Version, "1.0/x", false),
            (Version, "1.0\\x", false),
            (Version, "C:x", false),
            (Version, "1\0", false),
            (Version, "1\u{1b}[31m", false),
            (Version, "1 0", false),
            (Version, "1%2e%2e", false),
            (Version, "1?x", false),
            (Version, "1#x", false),
            (Version, "1\u{202E}0", false),
            (ArtifactId, ".hidden", true),
            (ArtifactId, "a.b-c_d", true),
            (GroupId, "org", true),
            (GroupId, ".org", false),
            (Extension, "tar.gz", true),
            (FileName, "a-1.0.jar.sha1", true),
            (RepositoryId, "central", true),
            (RepositoryId, "../evil", false),
        ];
        for (kind, value, ok) in cases {
            assert_eq!(check(*kind, value).is_ok(), *ok, "{kind:?} {value:?}");
        }
        let long = "a".repeat(MAX_SEGMENT_BYTES + 1);
        assert!(matches!(
            check(Version, &long),
            Err(SegmentError::TooLong { .. })
        ));
    }

    #[test]
    fn messages_escape_and_cut_the_value() {
        let err = check(
            SegmentKind::Version,
            &format!("\u{1b}[2J{}", "x/".repeat(100)),
        )
        .unwrap_err();
        let m = err.to_string();
        assert!(!m.contains('\u{1b}'), "{m}");
        assert!(m.contains("\\u{1b}"), "{m}");
        assert!(m.len() < 400, "{m}");
    }

    #[test]
    fn repo_paths() {
        let p = RepoPath::root()
            .join(SegmentKind::GroupId, "g")
            .unwrap()
            .join(SegmentKind::FileName, "a.jar")
            .unwrap();
        assert_eq!(p.with_suffix("sha1").unwrap().as_str(), "g/a.jar.sha1");
        assert_eq!(p.segments().collect::<Vec<_>>(), ["g", "a.jar"]);
        assert!(p.with_suffix("../x").is_err());
        assert!(is_contained(p.as_str()));
        assert!(!is_contained("g//a"));
        assert!(!is_contained("g/./a"));
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_check() {
        use crate::download::segment::{check, SegmentKind};
        assert!(check(SegmentKind::Version, "1.0-SNAPSHOT").is_ok());
        assert!(check(SegmentKind::Version, "1.0-../../x").is_err());
        assert!(check(SegmentKind::Version, "..").is_err());
        assert!(check(SegmentKind::ArtifactId, "C:evil").is_err());
    }

    #[test]
    fn doc_segment() {
        use crate::download::segment::{Segment, SegmentKind};
        let v = Segment::new(SegmentKind::Version, "1.0-20240102.030405-7").unwrap();
        assert_eq!(v.as_str(), "1.0-20240102.030405-7");
        let err = Segment::new(SegmentKind::Version, "1.0-../../../tmp/x").unwrap_err();
        assert!(err
            .to_string()
            .contains("cannot appear in a repository path"));
    }

    #[test]
    fn doc_repo_path() {
        use crate::download::segment::{RepoPath, SegmentKind};
        let p = RepoPath::root()
            .join(SegmentKind::GroupId, "org")
            .unwrap()
            .join(SegmentKind::ArtifactId, "a")
            .unwrap()
            .join(SegmentKind::FileName, "a-1.jar")
            .unwrap();
        assert_eq!(p.as_str(), "org/a/a-1.jar");
        assert!(RepoPath::root()
            .join(SegmentKind::FileName, "../x")
            .is_err());
    }

    #[test]
    fn doc_is_contained() {
        use crate::download::segment::is_contained;
        assert!(is_contained("org/a/1.0/a-1.0.jar"));
        assert!(!is_contained("org/a/1.0-../../x"));
        assert!(!is_contained("/etc/passwd"));
        assert!(!is_contained(""));
    }
}
