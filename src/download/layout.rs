//! Maven 2 ("default") repository layout (spec §8.1): where an artifact, its checksum sidecars and
//! its `maven-metadata.xml` live, relative to a repository root. Such a path becomes a URL with
//! [`crate::repository::RepositoryUrl::resolve`].
//!
//! Pure functions only; the local repository's own file names (`maven-metadata-<repoId>.xml`,
//! `_remote.repositories`) are in [`crate::download::local`].

use crate::download::coords::{base_version, Coordinate};
use crate::download::segment::{RepoPath, SegmentError, SegmentKind};

/// `groupId` as directories: each dot-separated piece a validated segment.
fn group_dirs(path: RepoPath, group_id: &str) -> Result<RepoPath, SegmentError> {
    group_id
        .split('.')
        .try_fold(path, |p, piece| p.join(SegmentKind::GroupId, piece))
}

/// Relative path of `coord` at the resolved `version`:
/// `<groupId as dirs>/<artifactId>/<baseVersion>/<artifactId>-<version>[-<classifier>][.<extension>]`.
/// Every part is validated ([`crate::download::segment`]): a part that could leave the
/// repository root is an error, never a path.
pub fn artifact_path(coord: &Coordinate, version: &str) -> Result<RepoPath, SegmentError> {
    crate::download::segment::check(SegmentKind::Version, version)?;
    let p = group_dirs(RepoPath::root(), &coord.group_id)?
        .join(SegmentKind::ArtifactId, &coord.artifact_id)?
        .join(SegmentKind::Version, &base_version(version))?;
    p.join(SegmentKind::FileName, &artifact_file_name(coord, version)?)
}

/// File name part of [`artifact_path`], its parts validated.
pub fn artifact_file_name(coord: &Coordinate, version: &str) -> Result<String, SegmentError> {
    use crate::download::segment::check;
    check(SegmentKind::ArtifactId, &coord.artifact_id)?;
    check(SegmentKind::Version, version)?;
    let mut name = format!("{}-{}", coord.artifact_id, version);
    if !coord.classifier.is_empty() {
        check(SegmentKind::Classifier, &coord.classifier)?;
        name.push('-');
        name.push_str(&coord.classifier);
    }
    if !coord.extension.is_empty() {
        check(SegmentKind::Extension, &coord.extension)?;
        name.push('.');
        name.push_str(&coord.extension);
    }
    crate::download::segment::check(SegmentKind::FileName, &name)?;
    Ok(name)
}

/// Directory of a metadata file: group, then optional artifact, then optional version (each only
/// when non-empty), every part validated.
pub fn metadata_dir(
    group_id: &str,
    artifact_id: &str,
    version: &str,
) -> Result<RepoPath, SegmentError> {
    let mut p = RepoPath::root();
    if !group_id.is_empty() {
        p = group_dirs(p, group_id)?;
    }
    if !artifact_id.is_empty() {
        p = p.join(SegmentKind::ArtifactId, artifact_id)?;
    }
    if !version.is_empty() {
        p = p.join(SegmentKind::Version, version)?;
    }
    Ok(p)
}

/// Remote metadata path: [`metadata_dir`] + `maven-metadata.xml`.
pub fn metadata_path(
    group_id: &str,
    artifact_id: &str,
    version: &str,
) -> Result<RepoPath, SegmentError> {
    metadata_dir(group_id, artifact_id, version)?.join(SegmentKind::FileName, "maven-metadata.xml")
}

/// Checksum sidecar of `path`: `<path>.<ext>` where ext is the algorithm's name lower-cased with `-`
/// removed (`.sha1`, `.md5`, `.sha256`, `.sha512`).
pub fn checksum_path(path: &RepoPath, extension: &str) -> Result<RepoPath, SegmentError> {
    path.with_suffix(extension)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn artifact_paths() {
        let cases = [
            ("g:a:1.0", "1.0", "g/a/1.0/a-1.0.jar"),
            (
                "org.ex.deep:a:pom:1.0",
                "1.0",
                "org/ex/deep/a/1.0/a-1.0.pom",
            ),
            ("g:a:jar:tests:1.0", "1.0", "g/a/1.0/a-1.0-tests.jar"),
            (
                "g:a:1.0-SNAPSHOT",
                "1.0-SNAPSHOT",
                "g/a/1.0-SNAPSHOT/a-1.0-SNAPSHOT.jar",
            ),
            (
                "g:a:1.0-SNAPSHOT",
                "1.0-20240102.030405-7",
                "g/a/1.0-SNAPSHOT/a-1.0-20240102.030405-7.jar",
            ),
            ("g:a:tar.gz:bin:2", "2", "g/a/2/a-2-bin.tar.gz"),
        ];
        for (c, v, want) in cases {
            let c = Coordinate::parse(c).unwrap();
            assert_eq!(artifact_path(&c, v).unwrap().as_str(), want);
        }
    }

    #[test]
    fn metadata_and_checksum_paths() {
        assert_eq!(
            metadata_path("g.h", "a", "").unwrap().as_str(),
            "g/h/a/maven-metadata.xml"
        );
        assert_eq!(
            metadata_path("g", "a", "1-SNAPSHOT").unwrap().as_str(),
            "g/a/1-SNAPSHOT/maven-metadata.xml"
        );
        let jar = artifact_path(&Coordinate::parse("g:a:1").unwrap(), "1").unwrap();
        assert_eq!(
            checksum_path(&jar, "sha1").unwrap().as_str(),
            "g/a/1/a-1.jar.sha1"
        );
    }

    #[test]
    fn parts_that_leave_the_root_are_errors() {
        let mut c = Coordinate::parse("g:a:1").unwrap();
        for v in ["1.0-../../../tmp/x", "..", "1/2", "C:x", ".1", "1\\2"] {
            assert!(artifact_path(&c, v).is_err(), "{v}");
        }
        c.group_id = "org..x".into();
        assert!(artifact_path(&c, "1").is_err());
        c.group_id = "g".into();
        c.classifier = "../x".into();
        assert!(artifact_path(&c, "1").is_err());
        c.classifier = String::new();
        c.artifact_id = "..".into();
        assert!(artifact_path(&c, "1").is_err());
        assert!(metadata_path("g", "a", "../../..").is_err());
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_artifact_path() {
        use crate::download::{coords::Coordinate, layout};
        let c = Coordinate::parse("org.example:foo:jar:sources:1.0-SNAPSHOT").unwrap();
        assert_eq!(
            layout::artifact_path(&c, "1.0-20240102.030405-7")
                .unwrap()
                .as_str(),
            "org/example/foo/1.0-SNAPSHOT/foo-1.0-20240102.030405-7-sources.jar"
        );
        assert!(layout::artifact_path(&c, "1.0-../../../x").is_err());
    }

    #[test]
    fn doc_metadata_dir() {
        use crate::download::layout::metadata_dir;
        assert_eq!(
            metadata_dir("org.example", "", "").unwrap().as_str(),
            "org/example"
        );
        assert_eq!(
            metadata_dir("org.example", "foo", "").unwrap().as_str(),
            "org/example/foo"
        );
        assert_eq!(
            metadata_dir("org.example", "foo", "1.0-SNAPSHOT")
                .unwrap()
                .as_str(),
            "org/example/foo/1.0-SNAPSHOT"
        );
        assert!(metadata_dir("org.example", "foo", "../../x").is_err());
    }
}
