//! [`SessionError`]: why a session could not be built, or could not answer a dependency
//! question (`describe`, `collect`, `resolve`).
//!
//! Two things stop Maven before it resolves anything, and both stop [`super::SessionBuilder::build`]:
//! settings with an ERROR or FATAL problem (unreadable or invalid files, an interpolation
//! cycle), and settings entries the repository system rejects when it is set up (a
//! `nonProxyHosts` pattern that is not a valid regular expression, a server timeout that is not
//! a number). The error keeps every problem found up to that point, so `m2r explain` can still
//! show them, and the injection error as its `source()`.
//!
//! Publishing fails with [`PublishError`] inside [`SessionError::Publish`]. The dependency
//! answers fail as Maven's do: the downloader cannot be set up, the root (a
//! project file or an artifact's POM) cannot be read, collection fails (Maven's
//! `DependencyCollectionException`) or artifacts cannot be downloaded
//! (`DependencyResolutionException`); the last two keep the partial answer, as Maven's
//! exceptions keep their result.

use super::dependencies::ResolveResult;
use crate::download::DownloadError;
use crate::publish::{DeployReport, PublishError};
use crate::repository::InjectionError;
use crate::resolution::collect::project::RootFailure;
use crate::resolution::collect::{CollectError, CollectResult};
use crate::resolution::pom::{DescriptorError, ModelBuildError};
use crate::runtime::RuntimeError;
use crate::settings::{SettingsProblem, Severity};
use thiserror::Error;

/// Why a [`super::Session`] could not be built, or could not answer.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum SessionError {
    /// The settings have ERROR or FATAL problems (Maven stops here too).
    #[error("the settings could not be built: {}", first_error(problems))]
    Settings {
        /// Every problem of reading, validation, merging and interpolation, in order.
        problems: Vec<SettingsProblem>,
    },
    /// A settings entry the repository system rejects (Maven fails creating its session).
    #[error("the settings cannot be used")]
    Injection {
        /// What was rejected, and where.
        #[source]
        source: InjectionError,
        /// Every problem found before, then this one as a `build` problem.
        problems: Vec<SettingsProblem>,
    },
    /// The downloader could not be set up (an unreadable CA file).
    #[error("cannot set up the downloader")]
    Downloader {
        /// What failed.
        #[source]
        source: Box<DownloadError>,
    },
    /// The call could not run on the session's runtime: a `blocking_*` method called inside a
    /// Tokio runtime ([`RuntimeError::Nested`]), the runtime could not start, or the call's
    /// task failed.
    #[error("the session could not run the call")]
    Runtime {
        /// Why.
        #[source]
        source: RuntimeError,
    },
    /// An artifact's descriptor could not be read (`describe`).
    #[error("cannot describe {}", source.artifact())]
    Descriptor {
        /// The reader's error (missing, invalid, unresolvable parent or BOM, transfer).
        #[source]
        source: Box<DescriptorError>,
    },
    /// A project file could not be built (`describe` of a POM file).
    #[error(transparent)]
    Project {
        /// Every problem of the build.
        source: Box<ModelBuildError>,
    },
    /// The reactor of an aggregator POM could not be read or ordered (a project that cannot
    /// be built, a missing module, a duplicate project, a cycle).
    #[error("the reactor of {} could not be read: {source}", pom.display())]
    Workspace {
        /// The aggregator POM.
        pom: std::path::PathBuf,
        /// What failed, as Maven reports it.
        #[source]
        source: Box<crate::resolution::workspace::WorkspaceError>,
    },
    /// The root of a collection could not be read: there is no graph.
    #[error("cannot read the root of the dependency graph")]
    Root {
        /// What failed.
        #[source]
        source: RootFailure,
    },
    /// Collection failed (Maven's `DependencyCollectionException`): the graph is kept,
    /// without what failed.
    #[error("dependency collection failed ({} error(s))", result.errors.len())]
    Collect {
        /// The first failure; every one is in `result.errors`.
        #[source]
        source: CollectError,
        /// The graph as far as it could be built.
        result: Box<CollectResult>,
    },
    /// An install or a deployment failed (`install`, `deploy`): its own message says what and
    /// where; a deployment that stopped half-way keeps its report ([`SessionError::deploy_report`]).
    #[error(transparent)]
    Publish {
        /// What failed.
        source: Box<PublishError>,
    },
    /// Collection failed or artifacts could not be resolved (Maven's
    /// `DependencyResolutionException`): the graph and every artifact that was resolved are
    /// kept.
    #[error("dependency resolution failed")]
    Resolve {
        /// The first failure: a collection error, else an artifact's.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
        /// The graph and the artifacts, resolved or not.
        result: Box<ResolveResult>,
    },
    /// A configuration property (`-D`, a settings profile's) has a value that cannot be used
    /// (an unknown trusted-checksum algorithm).
    #[error("a configuration property cannot be used")]
    Config {
        /// What is wrong.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The trusted checksums recorded by the call could not be written.
    #[error("cannot write the trusted checksums file {}", path.display())]
    TrustedChecksums {
        /// The summary file.
        path: std::path::PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A lock file could not be made, or its files could not be fetched and verified
    /// (`--frozen`): what failed first; every artifact's answer is in `result`.
    #[error("the locked dependencies could not be resolved")]
    Frozen {
        /// The first failure.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
        /// Every locked artifact, fetched or not.
        result: Box<crate::lock::FrozenResult>,
    },
    /// A lock file could not be made from the resolved graph.
    #[error(transparent)]
    Lock {
        /// What failed.
        source: Box<crate::lock::LockError>,
    },
}

impl SessionError {
    /// Every problem known when building stopped, in order (empty for the errors of the
    /// dependency answers).
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
    pub fn problems(&self) -> &[SettingsProblem] {
        match self {
            SessionError::Settings { problems } | SessionError::Injection { problems, .. } => {
                problems
            }
            _ => &[],
        }
    }
}

impl From<PublishError> for SessionError {
    fn from(source: PublishError) -> Self {
        SessionError::Publish {
            source: Box::new(source),
        }
    }
}

impl SessionError {
    /// The publishing error, for an install or a deployment that failed.
    pub fn publish_error(&self) -> Option<&PublishError> {
        match self {
            SessionError::Publish { source } => Some(source),
            _ => None,
        }
    }

    /// What reached the server, for a deployment that stopped after it began uploading.
    pub fn deploy_report(&self) -> Option<&DeployReport> {
        self.publish_error().and_then(PublishError::report)
    }
}

fn first_error(problems: &[SettingsProblem]) -> String {
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
