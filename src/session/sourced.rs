//! [`Sourced`] values: a setting together with where it came from ([`Definition`]).
//!
//! This is cargo's `Value<T>` + `Definition` model: every value the session decides (the local
//! repository, offline mode, each active profile) remembers which input gave it, so `m2r
//! explain` and an embedding tool can say "offline because of `<offline>` in
//! ~/.m2/settings.xml" instead of just "offline". Settings list entries (servers, mirrors,
//! proxies, profiles) already carry their [`Origin`](crate::settings::Origin) with line and
//! column; a `Definition` covers the scalar values and the overrides that come from properties
//! or from the session builder.
//!
//! Precedence is decided by the functions that choose a value (e.g. the local repository:
//! builder > `maven.repo.local` user property > system property > settings > default), each
//! with a table test; `Definition` itself only describes.

use crate::settings::SourceLevel;
use std::fmt;

/// Where a session value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Definition {
    /// Maven's built-in default.
    Default,
    /// A settings file (`source` is its path, or the name of in-memory content).
    Settings {
        /// Global, project or user settings.
        level: SourceLevel,
        /// The file (or content name) as used in problems.
        source: String,
    },
    /// A user property (`-Dname=value`).
    UserProperty(String),
    /// A system property of the environment snapshot.
    SystemProperty(String),
    /// The session builder: a command-line option or the embedding tool's own choice.
    Builder,
}

impl fmt::Display for Definition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Definition::Default => f.write_str("Maven's default"),
            Definition::Settings { level, source } => {
                let level = match level {
                    SourceLevel::Global => "global settings",
                    SourceLevel::Project => "project settings",
                    SourceLevel::User => "user settings",
                    SourceLevel::Api => "settings",
                };
                write!(f, "{level} {source}")
            }
            Definition::UserProperty(name) => write!(f, "user property -D{name}"),
            Definition::SystemProperty(name) => write!(f, "system property {name}"),
            Definition::Builder => f.write_str("the session builder (command line or API)"),
        }
    }
}

/// A value and where it came from.
///
/// ```
/// use m2resolver::session::{Definition, Sourced};
/// let offline = Sourced::new(true, Definition::Builder);
/// assert!(offline.value);
/// assert_eq!(offline.to_string(), "true (from the session builder (command line or API))");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sourced<T> {
    /// The value.
    pub value: T,
    /// Where it came from.
    pub definition: Definition,
}

impl<T> Sourced<T> {
    /// Pairs a value with its definition.
    pub fn new(value: T, definition: Definition) -> Self {
        Sourced { value, definition }
    }
}

impl<T: fmt::Display> fmt::Display for Sourced<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (from {})", self.value, self.definition)
    }
}
