//! [`SessionError`]: why a session could not be built.
//!
//! Two things stop Maven before it resolves anything, and both stop [`super::SessionBuilder::build`]:
//! settings with an ERROR or FATAL problem (unreadable or invalid files, an interpolation
//! cycle), and settings entries the repository system rejects when it is set up (a
//! `nonProxyHosts` pattern that is not a valid regular expression, a server timeout that is not
//! a number). The error keeps every problem found up to that point, so `m2r explain` can still
//! show them, and the injection error as its `source()`.

use crate::repository::InjectionError;
use crate::settings::{Problem, Severity};
use thiserror::Error;

/// Why a [`super::Session`] could not be built.
#[derive(Debug, Error)]
pub enum SessionError {
    /// The settings have ERROR or FATAL problems (Maven stops here too).
    #[error("the settings could not be built: {}", first_error(problems))]
    Settings {
        /// Every problem of reading, validation, merging and interpolation, in order.
        problems: Vec<Problem>,
    },
    /// A settings entry the repository system rejects (Maven fails creating its session).
    #[error("the settings cannot be used: {source}")]
    Injection {
        /// What was rejected, and where.
        #[source]
        source: InjectionError,
        /// Every problem found before, then this one as a `build` problem.
        problems: Vec<Problem>,
    },
}

impl SessionError {
    /// Every problem known when building stopped, in order.
    ///
    /// ```
    /// use m2resolver::{Environment, Session};
    /// use m2resolver::settings::SettingsSource;
    /// let err = Session::builder()
    ///     .environment(Environment::default())
    ///     .user_settings(SettingsSource::content("settings.xml", "<settings><oops>"))
    ///     .build()
    ///     .unwrap_err();
    /// assert!(err.problems().iter().any(|p| p.source == "settings.xml"));
    /// assert!(err.to_string().starts_with("the settings could not be built: "));
    /// ```
    pub fn problems(&self) -> &[Problem] {
        match self {
            SessionError::Settings { problems } | SessionError::Injection { problems, .. } => {
                problems
            }
        }
    }
}

fn first_error(problems: &[Problem]) -> String {
    let worst = problems
        .iter()
        .find(|p| p.severity >= Severity::Error)
        .or(problems.first());
    match worst {
        Some(p) => {
            let more = problems.len() - 1;
            if more > 0 {
                format!("{p} (and {more} more problem(s); `m2r explain` lists them)")
            } else {
                p.to_string()
            }
        }
        None => "no problem was recorded".into(),
    }
}
