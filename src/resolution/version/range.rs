//! Version ranges and constraints as Resolver 1.6.3's `GenericVersionScheme` parses them:
//! `[1.0,2.0)`, `(,1.0]`, `[1.5]`, `[1.2.*]`, unions `(,1.0],[1.2,)`, and the constraint
//! that is either one version (`1.0`, a recommendation) or a union of ranges.

use super::generic::Version;
use std::cmp::Ordering;
use std::fmt;

/// A version string that is not a valid range or constraint (Resolver's
/// `InvalidVersionSpecificationException`), with Resolver's wording.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct InvalidVersionSpec {
    /// The text that failed.
    pub spec: String,
    /// What is wrong with it.
    pub message: String,
}

impl InvalidVersionSpec {
    fn new(spec: &str, message: String) -> Self {
        InvalidVersionSpec {
            spec: spec.to_string(),
            message,
        }
    }
}

/// One end of a range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bound {
    /// The version at the end.
    pub version: Version,
    /// `[`/`]` rather than `(`/`)`.
    pub inclusive: bool,
}

/// One interval: `[1.0,2.0)`; a missing end is unbounded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionRange {
    /// Lower end, `None` for `(,`.
    pub lower: Option<Bound>,
    /// Upper end, `None` for `,)`.
    pub upper: Option<Bound>,
}

impl VersionRange {
    /// Parses one interval (`GenericVersionRange`), e.g. `[1.0,2.0)`, `[1.5]`, `[1.2.*]`.
    ///
    /// ```
    /// use m2resolver::resolution::version::{Version, VersionRange};
    /// let r = VersionRange::parse("[1.0,2.0)").unwrap();
    /// assert!(r.contains(&Version::parse("1.5")));
    /// assert!(!r.contains(&Version::parse("2.0")));
    /// assert!(VersionRange::parse("[2.0,1.0]").is_err());
    /// ```
    pub fn parse(range: &str) -> Result<VersionRange, InvalidVersionSpec> {
        let err = |why: &str| {
            InvalidVersionSpec::new(range, format!("Invalid version range {range}, {why}"))
        };
        let lower_inclusive = if range.starts_with('[') {
            true
        } else if range.starts_with('(') {
            false
        } else {
            return Err(err("a range must start with either [ or ("));
        };
        let upper_inclusive = if range.ends_with(']') {
            true
        } else if range.ends_with(')') {
            false
        } else {
            return Err(err("a range must end with either [ or ("));
        };
        // Java's substring(1, length - 1) on a one-character range ("[" is both ends) throws;
        // treat it as the empty interior it would otherwise be.
        let inner = if range.len() >= 2 {
            &range[1..range.len() - 1]
        } else {
            ""
        };
        let (lower, upper) = match inner.find(',') {
            None => {
                if !lower_inclusive || !upper_inclusive {
                    return Err(err("single version must be surrounded by []"));
                }
                let version = java_trim(inner);
                if let Some(prefix) = version.strip_suffix(".*") {
                    let prefix = format!("{prefix}.");
                    (
                        Some(Version::parse(&format!("{prefix}min"))),
                        Some(Version::parse(&format!("{prefix}max"))),
                    )
                } else {
                    let v = Version::parse(version);
                    (Some(v.clone()), Some(v))
                }
            }
            Some(comma) => {
                let low = java_trim(&inner[..comma]);
                let high = java_trim(&inner[comma + 1..]);
                if high.contains(',') {
                    return Err(err("bounds may not contain additional ','"));
                }
                let lower = (!low.is_empty()).then(|| Version::parse(low));
                let upper = (!high.is_empty()).then(|| Version::parse(high));
                if let (Some(l), Some(u)) = (&lower, &upper) {
                    if u.cmp(l) == Ordering::Less {
                        return Err(err("lower bound must not be greater than upper bound"));
                    }
                }
                (lower, upper)
            }
        };
        Ok(VersionRange {
            lower: lower.map(|version| Bound {
                version,
                inclusive: lower_inclusive,
            }),
            upper: upper.map(|version| Bound {
                version,
                inclusive: upper_inclusive,
            }),
        })
    }

    /// Whether `version` lies in the interval.
    pub fn contains(&self, version: &Version) -> bool {
        if let Some(lower) = &self.lower {
            let rel = lower.version.cmp(version);
            if rel == Ordering::Equal && !lower.inclusive || rel == Ordering::Greater {
                return false;
            }
        }
        if let Some(upper) = &self.upper {
            let rel = upper.version.cmp(version);
            if rel == Ordering::Equal && !upper.inclusive || rel == Ordering::Less {
                return false;
            }
        }
        true
    }
}

impl fmt::Display for VersionRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.lower {
            Some(b) => write!(f, "{}{}", if b.inclusive { '[' } else { '(' }, b.version)?,
            None => f.write_str("(")?,
        }
        f.write_str(",")?;
        match &self.upper {
            Some(b) => write!(f, "{}{}", b.version, if b.inclusive { ']' } else { ')' }),
            None => f.write_str(")"),
        }
    }
}

/// A union of intervals (`UnionVersionRange`); its bounds are the lowest lower and highest
/// upper bound (inclusive winning a tie), unbounded when any member is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnionRange {
    /// The intervals, in the order written.
    pub ranges: Vec<VersionRange>,
}

impl UnionRange {
    /// Whether any interval contains `version`.
    pub fn contains(&self, version: &Version) -> bool {
        self.ranges.iter().any(|r| r.contains(version))
    }

    /// The union's lower bound; `None` when unbounded (or empty).
    pub fn lower(&self) -> Option<&Bound> {
        let mut best: Option<&Bound> = None;
        for r in &self.ranges {
            let b = r.lower.as_ref()?;
            best = match best {
                None => Some(b),
                Some(cur) => match b.version.cmp(&cur.version) {
                    Ordering::Less => Some(b),
                    Ordering::Equal if !cur.inclusive => Some(b),
                    _ => Some(cur),
                },
            };
        }
        best
    }

    /// The union's upper bound; `None` when unbounded (or empty).
    pub fn upper(&self) -> Option<&Bound> {
        let mut best: Option<&Bound> = None;
        for r in &self.ranges {
            let b = r.upper.as_ref()?;
            best = match best {
                None => Some(b),
                Some(cur) => match b.version.cmp(&cur.version) {
                    Ordering::Greater => Some(b),
                    Ordering::Equal if !cur.inclusive => Some(b),
                    _ => Some(cur),
                },
            };
        }
        best
    }
}

impl fmt::Display for UnionRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.ranges.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{r}")?;
        }
        Ok(())
    }
}

/// A dependency's version as written: a plain (recommended) version or ranges
/// (`GenericVersionConstraint`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionConstraint {
    /// A plain version: any version is acceptable, this one is preferred.
    Version(Version),
    /// One or more intervals, written side by side (`[1,2),[3,4)`).
    Range(UnionRange),
}

impl VersionConstraint {
    /// Parses a constraint as `GenericVersionScheme.parseVersionConstraint` does.
    ///
    /// ```
    /// use m2resolver::resolution::version::{Version, VersionConstraint};
    /// let c = VersionConstraint::parse("(,1.0],[1.2,)").unwrap();
    /// assert!(c.contains(&Version::parse("1.0")));
    /// assert!(!c.contains(&Version::parse("1.1")));
    /// assert!(c.contains(&Version::parse("1.3")));
    /// assert!(matches!(VersionConstraint::parse("1.0").unwrap(), VersionConstraint::Version(_)));
    /// assert!(VersionConstraint::parse("[1.0").is_err());
    /// ```
    pub fn parse(constraint: &str) -> Result<VersionConstraint, InvalidVersionSpec> {
        let mut ranges = Vec::new();
        let mut process = constraint;
        while process.starts_with('[') || process.starts_with('(') {
            let close_paren = process.find(')');
            let close_bracket = process.find(']');
            let index = match (close_paren, close_bracket) {
                (Some(p), Some(b)) => p.min(b),
                (Some(p), None) => p,
                (None, Some(b)) => b,
                (None, None) => {
                    return Err(InvalidVersionSpec::new(
                        constraint,
                        format!("Unbounded version range {constraint}"),
                    ))
                }
            };
            ranges.push(VersionRange::parse(&process[..=index])?);
            process = java_trim(&process[index + 1..]);
            if let Some(rest) = process.strip_prefix(',') {
                process = java_trim(rest);
            }
        }
        if !process.is_empty() && !ranges.is_empty() {
            return Err(InvalidVersionSpec::new(
                constraint,
                format!("Invalid version range {constraint}, expected [ or ( but got {process}"),
            ));
        }
        if ranges.is_empty() {
            Ok(VersionConstraint::Version(Version::parse(constraint)))
        } else {
            Ok(VersionConstraint::Range(UnionRange { ranges }))
        }
    }

    /// Whether `version` satisfies the constraint (a plain version: only itself).
    pub fn contains(&self, version: &Version) -> bool {
        match self {
            VersionConstraint::Version(v) => v == version,
            VersionConstraint::Range(r) => r.contains(version),
        }
    }

    /// The ranges, when the constraint has any.
    pub fn range(&self) -> Option<&UnionRange> {
        match self {
            VersionConstraint::Version(_) => None,
            VersionConstraint::Range(r) => Some(r),
        }
    }
}

impl fmt::Display for VersionConstraint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VersionConstraint::Version(v) => write!(f, "{v}"),
            VersionConstraint::Range(r) => write!(f, "{r}"),
        }
    }
}

/// Java's `String.trim()`: strips characters up to U+0020 at both ends.
fn java_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= ' ')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s)
    }

    #[test]
    fn intervals_contain() {
        let cases: &[(&str, &str, bool)] = &[
            ("[1.0,2.0)", "1.0", true),
            ("[1.0,2.0)", "2.0", false),
            ("(1.0,2.0]", "1.0", false),
            ("(1.0,2.0]", "2", true),
            ("(,1.0]", "0.1", true),
            ("[1.5]", "1.5.0", true),
            ("[1.5]", "1.5.1", false),
            ("[1.2.*]", "1.2.9", true),
            ("[1.2.*]", "1.2", true),
            ("[1.2.*]", "1.3", false),
            ("[,]", "99", true),
            ("[ 1.0 , 2.0 ]", "2.0", true),
        ];
        for (range, version, want) in cases {
            assert_eq!(
                VersionRange::parse(range).unwrap().contains(&v(version)),
                *want,
                "{range} ∋ {version}"
            );
        }
    }

    #[test]
    fn invalid_ranges() {
        for bad in [
            "[1.0",
            "(1.0)",
            "[1.0,2.0,3.0]",
            "[2.0,1.0]",
            "(1.0]",
            "[1,2]x",
            "[1,2],foo",
        ] {
            assert!(VersionConstraint::parse(bad).is_err(), "{bad}");
        }
        for ok in ["1.0", "", "[1,2],[3,4]", "[1,2] , (3,4)", "[1.0]"] {
            assert!(VersionConstraint::parse(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn union_bounds() {
        let c = VersionConstraint::parse("[1,2),(0.5,1],[3,4]").unwrap();
        let r = c.range().unwrap();
        assert_eq!(r.lower().unwrap().version.as_str(), "0.5");
        assert!(!r.lower().unwrap().inclusive);
        assert_eq!(r.upper().unwrap().version.as_str(), "4");
        let open = VersionConstraint::parse("[1,2),[3,)").unwrap();
        assert!(open.range().unwrap().upper().is_none());
        assert_eq!(VersionRange::parse("(,1.0]").unwrap().to_string(), "(,1.0]");
    }
}
