//! Maven 2 ("default") repository layout (spec §8.1): where an artifact, its checksum sidecars and
//! its `maven-metadata.xml` live, relative to a repository root. Such a path becomes a URL with
//! [`crate::repository::RepositoryUrl::resolve`].
//!
//! Pure functions only; the local repository's own file names (`maven-metadata-<repoId>.xml`,
//! `_remote.repositories`) are in [`crate::download::local`].

use crate::download::coords::{base_version, Coordinate};

/// Relative path of `coord` at the resolved `version`:
/// `<groupId as dirs>/<artifactId>/<baseVersion>/<artifactId>-<version>[-<classifier>][.<extension>]`.
pub fn artifact_path(coord: &Coordinate, version: &str) -> String {
    let mut p = String::with_capacity(96);
    p.push_str(&coord.group_id.replace('.', "/"));
    p.push('/');
    p.push_str(&coord.artifact_id);
    p.push('/');
    p.push_str(&base_version(version));
    p.push('/');
    p.push_str(&artifact_file_name(coord, version));
    p
}

/// File name part of [`artifact_path`].
pub fn artifact_file_name(coord: &Coordinate, version: &str) -> String {
    let mut name = format!("{}-{}", coord.artifact_id, version);
    if !coord.classifier.is_empty() {
        name.push('-');
        name.push_str(&coord.classifier);
    }
    if !coord.extension.is_empty() {
        name.push('.');
        name.push_str(&coord.extension);
    }
    name
}

/// Directory of a metadata file: group, then optional artifact, then optional version (each only
/// when non-empty), always ending with `/`.
pub fn metadata_dir(group_id: &str, artifact_id: &str, version: &str) -> String {
    let mut p = String::new();
    if !group_id.is_empty() {
        p.push_str(&group_id.replace('.', "/"));
        p.push('/');
    }
    if !artifact_id.is_empty() {
        p.push_str(artifact_id);
        p.push('/');
    }
    if !version.is_empty() {
        p.push_str(version);
        p.push('/');
    }
    p
}

/// Remote metadata path: [`metadata_dir`] + `maven-metadata.xml`.
pub fn metadata_path(group_id: &str, artifact_id: &str, version: &str) -> String {
    format!(
        "{}maven-metadata.xml",
        metadata_dir(group_id, artifact_id, version)
    )
}

/// Checksum sidecar of `path`: `<path>.<ext>` where ext is the algorithm's name lower-cased with `-`
/// removed (`.sha1`, `.md5`, `.sha256`, `.sha512`).
pub fn checksum_path(path: &str, extension: &str) -> String {
    format!("{path}.{extension}")
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
            assert_eq!(artifact_path(&c, v), want);
        }
    }

    #[test]
    fn metadata_and_checksum_paths() {
        assert_eq!(metadata_path("g.h", "a", ""), "g/h/a/maven-metadata.xml");
        assert_eq!(
            metadata_path("g", "a", "1-SNAPSHOT"),
            "g/a/1-SNAPSHOT/maven-metadata.xml"
        );
        assert_eq!(checksum_path("g/a/1/a-1.jar", "sha1"), "g/a/1/a-1.jar.sha1");
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_metadata_dir() {
        use crate::download::layout::metadata_dir;
        assert_eq!(metadata_dir("org.example", "", ""), "org/example/");
        assert_eq!(metadata_dir("org.example", "foo", ""), "org/example/foo/");
        assert_eq!(
            metadata_dir("org.example", "foo", "1.0-SNAPSHOT"),
            "org/example/foo/1.0-SNAPSHOT/"
        );
    }

    #[test]
    fn doc_artifact_path() {
        use crate::download::{layout, Coordinate};
        let c = Coordinate::parse("org.example:foo:jar:sources:1.0-SNAPSHOT").unwrap();
        assert_eq!(
            layout::artifact_path(&c, "1.0-20240102.030405-7"),
            "org/example/foo/1.0-SNAPSHOT/foo-1.0-20240102.030405-7-sources.jar"
        );
    }
}
