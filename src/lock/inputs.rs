//! The inputs that decide a project's graph, and their hashes ([`Inputs`]): pure functions
//! over what the session used, so that `--locked` can say which input changed.
//!
//! Each input is a list of lines, hashed as `SHA-256(line₁ "\n" line₂ "\n" …)`:
//!
//! - `dependencies`: the root's effective direct dependencies (after inheritance,
//!   interpolation and the project's own profiles), in order, one line each:
//!   `groupId:artifactId:extension[:classifier]:version scope=S optional=O type=T
//!   exclusions=g:a:c:e,… systemPath=P` (`optional` empty when not declared);
//! - `management`: the root's effective dependency management (BOM imports included), in
//!   order, in the same form;
//! - `repositories`: the repositories resolution starts from (after mirrors), in order:
//!   `id URL releases=B snapshots=B`, the URL without user info;
//! - `profiles`: the project's active profiles (`groupId:artifactId:version: id`, as the
//!   effective model names them) and the active settings profiles that declare repositories
//!   or properties (`settings: id`);
//! - `properties`: the user properties (`-D`) sorted by name, `name=value`, except those
//!   that configure the tool rather than reach a POM (names starting with `aether.`, `m2r.`,
//!   `maven.repo.`, `maven.settings.`, `maven.artifact.threads`, `settings.security`,
//!   `maven.home`, `user.home`). Only their hash is stored: a property's value is never
//!   written to the lock.
//!
//! The total is `SHA-256` of `name=hash` lines of the five, in that order. System properties
//! (`java.version`, `os.name`) are not inputs: a lock made on one machine must be usable on
//! another; what they change in a graph shows as a difference of the graph itself.

use super::model::Inputs;
use crate::repository::RemoteRepository;
use crate::resolution::Dependency;
use sha2::{Digest, Sha256};

/// Names of user properties that configure the tool, not the POMs.
const CONFIGURATION_PREFIXES: &[&str] = &[
    "aether.",
    "m2r.",
    "maven.repo.",
    "maven.settings.",
    "maven.artifact.threads",
    "settings.security",
    "maven.home",
    "user.home",
];

/// Whether a user property can reach a POM (it counts as an input).
pub fn is_input_property(name: &str) -> bool {
    !CONFIGURATION_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// What [`Inputs::compute`] hashes.
#[derive(Debug, Clone, Copy)]
pub struct InputSet<'a> {
    /// The root's effective direct dependencies.
    pub dependencies: &'a [Dependency],
    /// The root's effective dependency management.
    pub management: &'a [Dependency],
    /// The repositories resolution starts from.
    pub repositories: &'a [RemoteRepository],
    /// Active profiles that change them.
    pub profiles: &'a [String],
    /// User properties (`-D`), any order; configuration ones are skipped here.
    pub properties: &'a [(String, String)],
}

fn hash_lines<I: IntoIterator<Item = String>>(lines: I) -> String {
    let mut h = Sha256::new();
    for l in lines {
        h.update(l.as_bytes());
        h.update(b"\n");
    }
    hex::encode(h.finalize())
}

/// One dependency as an input line.
pub fn dependency_line(d: &Dependency) -> String {
    let a = &d.artifact;
    let exclusions: Vec<String> = d
        .exclusions
        .iter()
        .map(|e| {
            format!(
                "{}:{}:{}:{}",
                e.group_id, e.artifact_id, e.classifier, e.extension
            )
        })
        .collect();
    format!(
        "{a} scope={} optional={} type={} exclusions={} systemPath={}",
        d.scope,
        d.optional.map(|o| o.to_string()).unwrap_or_default(),
        a.type_id.as_deref().unwrap_or(""),
        exclusions.join(","),
        a.local_path.as_deref().unwrap_or("")
    )
}

/// A repository as an input line (URL without user info).
pub fn repository_line(r: &RemoteRepository) -> String {
    format!(
        "{} {} releases={} snapshots={}",
        r.id,
        super::strip_userinfo(r.url.as_written()),
        r.releases.enabled,
        r.snapshots.enabled
    )
}

impl Inputs {
    /// The hashes of `set`.
    ///
    /// ```
    /// use m2resolver::lock::{InputSet, Inputs};
    /// use m2resolver::{Artifact, Dependency, RemoteRepository};
    /// let deps = [Dependency::new(Artifact::new("g", "a", "jar", "", "1"), "compile")];
    /// let repos = [RemoteRepository::new("central", "https://u:p@repo.example/m2")];
    /// let props = [("revision".to_string(), "1".to_string()), ("user.home".to_string(), "/h".to_string())];
    /// let set = InputSet { dependencies: &deps, management: &[], repositories: &repos, profiles: &[], properties: &props };
    /// let a = Inputs::compute(set);
    /// let other = [("user.home".to_string(), "/elsewhere".to_string()), ("revision".to_string(), "1".to_string())];
    /// assert_eq!(Inputs::compute(InputSet { properties: &other, ..set }), a, "user.home is not an input");
    /// let newer = [Dependency::new(Artifact::new("g", "a", "jar", "", "2"), "compile")];
    /// let b = Inputs::compute(InputSet { dependencies: &newer, ..set });
    /// assert_ne!(a.dependencies, b.dependencies);
    /// assert_eq!(a.repositories, b.repositories);
    /// assert_ne!(a.sha256, b.sha256);
    /// ```
    pub fn compute(set: InputSet<'_>) -> Inputs {
        let dependencies = hash_lines(set.dependencies.iter().map(dependency_line));
        let management = hash_lines(set.management.iter().map(dependency_line));
        let repositories = hash_lines(set.repositories.iter().map(repository_line));
        let profiles = hash_lines(set.profiles.iter().cloned());
        let mut props: Vec<&(String, String)> = set
            .properties
            .iter()
            .filter(|(k, _)| is_input_property(k))
            .collect();
        props.sort();
        let properties = hash_lines(props.into_iter().map(|(k, v)| format!("{k}={v}")));
        let mut inputs = Inputs {
            sha256: String::new(),
            dependencies,
            management,
            repositories,
            profiles,
            properties,
        };
        inputs.sha256 = hash_lines(
            inputs
                .named()
                .iter()
                .map(|(name, hash)| format!("{name}={hash}")),
        );
        inputs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolution::{Artifact, Exclusion};

    #[test]
    fn every_part_of_a_dependency_counts() {
        let base = Dependency::new(Artifact::from_type("g", "a", "jar", "", "1"), "compile");
        let mut optional = base.clone();
        optional.optional = Some(false);
        let mut excluded = base.clone();
        excluded.exclusions.push(Exclusion::pom("x", "y"));
        let mut runtime = base.clone();
        runtime.scope = "runtime".into();
        let test_jar = Dependency::new(
            Artifact::from_type("g", "a", "test-jar", "", "1"),
            "compile",
        );
        let lines: Vec<String> = [&base, &optional, &excluded, &runtime, &test_jar]
            .iter()
            .map(|d| dependency_line(d))
            .collect();
        let unique: std::collections::HashSet<&String> = lines.iter().collect();
        assert_eq!(unique.len(), lines.len(), "{lines:#?}");
        assert_eq!(
            lines[0],
            "g:a:jar:1 scope=compile optional= type=jar exclusions= systemPath="
        );
    }

    #[test]
    fn configuration_properties_are_not_inputs() {
        for (name, input) in [
            ("aether.checksums.algorithms", false),
            ("maven.repo.local", false),
            ("user.home", false),
            ("m2r.anything", false),
            ("revision", true),
            ("java.version", true),
        ] {
            assert_eq!(is_input_property(name), input, "{name}");
        }
    }

    #[test]
    fn repository_lines_hold_no_credentials() {
        let r = RemoteRepository::new("corp", "https://ci:s3cret@nexus.example/m2/");
        let line = repository_line(&r);
        assert_eq!(
            line,
            "corp https://nexus.example/m2/ releases=true snapshots=true"
        );
    }
}
