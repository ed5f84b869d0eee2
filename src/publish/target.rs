//! Which repository a deployment goes to, as maven-deploy-plugin 3.0.0 decides it:
//! `altDeploymentRepository` (`--to id::url`; the legacy `id::default::url` is accepted with
//! Maven's warning, another layout refused), else the project's `distributionManagement`:
//! `snapshotRepository` for a snapshot version (maven-artifact's test, which ignores case:
//! `1.0-snapshot` is one) when it has an id and a URL, else `repository`.
//!
//! The repository returned is raw: the session injects the server's credentials and the proxy,
//! and no mirror ([`crate::repository::inject_deployment`]).

use super::error::PublishError;
use crate::download::coords::is_snapshot_version_ignoring_case;
use crate::repository::RemoteRepository;
use crate::resolution::pom::model::Model;

/// The repository `--to` names (maven-deploy-plugin 3.0.0's `altDeploymentRepository`), and a
/// warning for the legacy form.
///
/// ```
/// use m2resolver::publish::alt_deployment_repository;
/// let (r, warning) = alt_deployment_repository("nexus::https://repo.example/releases").unwrap();
/// assert_eq!((r.id.as_str(), r.url.as_written()), ("nexus", "https://repo.example/releases"));
/// assert!(warning.is_none());
/// let (r, warning) = alt_deployment_repository("nexus::default::https://repo.example/x").unwrap();
/// assert_eq!(r.url.as_written(), "https://repo.example/x");
/// assert!(warning.unwrap().contains("legacy syntax"));
/// assert!(alt_deployment_repository("nexus::legacy::https://repo.example/x").is_err());
/// assert!(alt_deployment_repository("https://repo.example/x").is_err());
/// ```
pub fn alt_deployment_repository(
    spec: &str,
) -> Result<(RemoteRepository, Option<String>), PublishError> {
    // (.+?)::(.+?)::(.+) — each group non-empty, the first two as short as possible.
    let legacy = spec.find("::").filter(|&i| i > 0).and_then(|i| {
        let rest = &spec[i + 2..];
        rest.get(1..)?
            .find("::")
            .map(|j| (&spec[..i], &rest[..j + 1], &rest[j + 3..]))
            .filter(|(_, _, url)| !url.is_empty())
    });
    if let Some((id, layout, url)) = legacy {
        let (id, layout, url) = (id.trim(), layout.trim(), url.trim());
        if layout == "default" {
            let warning = format!(
                "Using legacy syntax for alternative repository. Use \"{id}::{url}\" instead."
            );
            return Ok((RemoteRepository::new(id, url), Some(warning)));
        }
        return Err(PublishError::Repository {
            message: format!(
                "invalid legacy syntax and layout for the deployment repository `{spec}`: use \"{id}::{url}\" (only the default layout is supported{})",
                if layout.contains('/') || layout.contains(':') {
                    "; a URL holding `::`, such as an IPv6 address, cannot be given this way"
                } else {
                    ""
                }
            ),
        });
    }
    match spec.find("::") {
        Some(i) if i > 0 && spec.len() > i + 2 => {
            let (id, url) = (spec[..i].trim(), spec[i + 2..].trim());
            Ok((RemoteRepository::new(id, url), None))
        }
        _ => Err(PublishError::Repository {
            message: format!(
                "invalid syntax for the deployment repository `{spec}`: use \"id::url\""
            ),
        }),
    }
}

/// The deployment repository of an effective model's `distributionManagement` for `version`.
pub fn distribution_repository(
    model: &Model,
    version: &str,
) -> Result<RemoteRepository, PublishError> {
    let dm = model.base.distribution_management.as_ref();
    let entry = |name: &str| -> Option<RemoteRepository> {
        let r = dm?.child(name)?;
        let id = r.child_text("id").filter(|s| !s.is_empty())?;
        let url = r.child_text("url").filter(|s| !s.is_empty())?;
        let mut repo = RemoteRepository::new(id, url);
        if let Some(layout) = r.child_text("layout").filter(|s| !s.is_empty()) {
            repo.layout = layout.to_string();
        }
        Some(repo)
    };
    let chosen = if is_snapshot_version_ignoring_case(version) {
        entry("snapshotRepository").or_else(|| entry("repository"))
    } else {
        entry("repository")
    };
    let Some(repo) = chosen else {
        return Err(PublishError::Repository {
            message: format!(
                "no deployment repository for {}: the POM has no <distributionManagement> <{}> with an <id> and a <url> (nor does a parent); give one with --to id::url",
                model.label,
                if is_snapshot_version_ignoring_case(version) {
                    "snapshotRepository> or <repository"
                } else {
                    "repository"
                }
            ),
        });
    };
    if repo.layout != "default" {
        return Err(PublishError::Repository {
            message: format!(
                "the deployment repository `{}` of {} has layout `{}`: only the default layout can be deployed to",
                repo.id, model.label, repo.layout
            ),
        });
    }
    Ok(repo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alt_repository_forms() {
        let (r, _) = alt_deployment_repository(" a ::  file:///tmp/r ").unwrap();
        assert_eq!((r.id.as_str(), r.url.as_written()), ("a", "file:///tmp/r"));
        // `(.+?)::(.+?)::(.+)`: an IPv6 URL reads as a legacy form, as in Maven
        assert!(alt_deployment_repository("a::http://[::1]:8080/r").is_err());
        assert!(alt_deployment_repository("::http://x").is_err());
        assert!(alt_deployment_repository("a::").is_err());
        // id `a`, layout `b`, url `c::d`: not the default layout
        assert!(alt_deployment_repository("a::b::c::d").is_err());
    }

    #[test]
    fn distribution_management_picks_by_version() {
        use crate::resolution::pom::xml::read_pom;
        let pom = br#"<project><distributionManagement>
            <repository><id>rel</id><url>https://r/rel</url></repository>
            <snapshotRepository><id>snap</id><url>https://r/snap</url></snapshotRepository>
            </distributionManagement></project>"#;
        let model = crate::resolution::pom::model::from_xnode(read_pom(pom).unwrap().root, "p");
        assert_eq!(distribution_repository(&model, "1.0").unwrap().id, "rel");
        assert_eq!(
            distribution_repository(&model, "1.0-SNAPSHOT").unwrap().id,
            "snap"
        );
        assert_eq!(
            distribution_repository(&model, "1.0-snapshot").unwrap().id,
            "snap"
        );
        let pom = br#"<project><distributionManagement>
            <repository><id>rel</id><url>https://r/rel</url></repository>
            <snapshotRepository><id>snap</id></snapshotRepository>
            </distributionManagement></project>"#;
        let model = crate::resolution::pom::model::from_xnode(read_pom(pom).unwrap().root, "p");
        assert_eq!(
            distribution_repository(&model, "1.0-SNAPSHOT").unwrap().id,
            "rel"
        );
        let model =
            crate::resolution::pom::model::from_xnode(read_pom(b"<project/>").unwrap().root, "p");
        let e = distribution_repository(&model, "1").unwrap_err();
        assert!(e.to_string().contains("--to id::url"), "{e}");
    }
}
