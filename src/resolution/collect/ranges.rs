//! Version ranges of dependencies, as maven-resolver-provider 3.8.7's `DefaultVersionRangeResolver`
//! resolves them: a plain version is itself; every range — even `[1.5]`, whose bounds are one
//! version (only later Maven versions skip the listing for it) — is matched against the versions
//! the local repository and each repository list in `maven-metadata.xml` (the first repository
//! listing a version is where it comes from), ascending.

use super::source::VersionOrigin;
use crate::resolution::version::{java_sort, InvalidVersionSpec, Version, VersionConstraint};
use std::collections::HashSet;

/// The candidates of one dependency's version.
#[derive(Debug, Clone)]
pub struct RangeResult {
    /// The constraint as parsed.
    pub constraint: VersionConstraint,
    /// The candidate versions, ascending, each with where it was listed (`None`: not from
    /// metadata — a plain version).
    pub versions: Vec<(Version, Option<VersionOrigin>)>,
}

/// Why a dependency's version could not be resolved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RangeError {
    /// Not a valid version or range.
    #[error(transparent)]
    Invalid(#[from] InvalidVersionSpec),
    /// No listed version satisfies the range.
    #[error("no version in {range} among {listed}")]
    Unsatisfied {
        /// The range as written.
        range: String,
        /// The versions listed, or "no listed versions".
        listed: String,
    },
}

/// Whether resolving `version` needs the metadata listings (any range).
pub fn needs_listing(version: &str) -> bool {
    matches!(
        VersionConstraint::parse(version),
        Ok(VersionConstraint::Range(_))
    )
}

/// Resolves `version` against `listing` (the versions the repositories list, local first).
pub fn resolve(
    version: &str,
    listing: impl FnOnce() -> Vec<(String, VersionOrigin)>,
) -> Result<RangeResult, RangeError> {
    let constraint = VersionConstraint::parse(version)?;
    let versions = match &constraint {
        VersionConstraint::Version(v) => vec![(v.clone(), None)],
        VersionConstraint::Range(r) => {
            let listed = listing();
            let mut seen = HashSet::new();
            let mut matching: Vec<(Version, Option<VersionOrigin>)> = Vec::new();
            for (text, origin) in &listed {
                if !seen.insert(text.clone()) {
                    continue;
                }
                let v = Version::parse(text);
                if r.contains(&v) {
                    matching.push((v, Some(origin.clone())));
                }
            }
            // Java's Collections.sort; a listing whose order is inconsistent stays as listed.
            let _ = java_sort::sort(&mut matching, |a, b| a.0.cmp(&b.0));
            if matching.is_empty() {
                let mut names: Vec<&str> = Vec::new();
                for (t, _) in &listed {
                    if !names.contains(&t.as_str()) {
                        names.push(t);
                    }
                }
                return Err(RangeError::Unsatisfied {
                    range: version.to_string(),
                    listed: if names.is_empty() {
                        "no listed versions".into()
                    } else {
                        names.join(", ")
                    },
                });
            }
            matching
        }
    };
    Ok(RangeResult {
        constraint,
        versions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing() -> Vec<(String, VersionOrigin)> {
        vec![
            ("1.0".into(), VersionOrigin::Remote(0)),
            ("2.0".into(), VersionOrigin::Remote(0)),
            ("1.5".into(), VersionOrigin::Remote(0)),
            ("2.0".into(), VersionOrigin::Remote(1)),
            ("3.0".into(), VersionOrigin::Remote(1)),
        ]
    }

    #[test]
    fn ranges_against_listings() {
        let r = resolve("[1.0,3.0)", listing).unwrap();
        let vs: Vec<(&str, Option<VersionOrigin>)> = r
            .versions
            .iter()
            .map(|(v, o)| (v.as_str(), o.clone()))
            .collect();
        assert_eq!(
            vs,
            [
                ("1.0", Some(VersionOrigin::Remote(0))),
                ("1.5", Some(VersionOrigin::Remote(0))),
                ("2.0", Some(VersionOrigin::Remote(0)))
            ]
        );
        // plain versions need no listing; every range does, one-version ranges too (Maven
        // 3.8.7 has no shortcut for `[1.5]`: a version no repository lists is not found)
        assert_eq!(
            resolve("1.7", || panic!("no listing")).unwrap().versions[0]
                .0
                .as_str(),
            "1.7"
        );
        assert_eq!(
            resolve("[1.5]", listing).unwrap().versions[0].0.as_str(),
            "1.5"
        );
        assert_eq!(
            resolve("[1.5,1.5]", listing).unwrap().versions[0].1,
            Some(VersionOrigin::Remote(0))
        );
        assert!(matches!(
            resolve("[1.7]", listing),
            Err(RangeError::Unsatisfied { .. })
        ));
        assert!(needs_listing("[1.7]") && needs_listing("[1.7,)") && !needs_listing("1.7"));
        assert_eq!(
            resolve("[4,5)", listing).unwrap_err().to_string(),
            "no version in [4,5) among 1.0, 2.0, 1.5, 3.0"
        );
        assert!(matches!(
            resolve("[1,", listing),
            Err(RangeError::Invalid(_))
        ));
    }
}
