//! # m2resolver
//!
//! What Apache Maven's settings handling and Maven Resolver do before and while artifacts are
//! downloaded, as a library for build tools. The front door is a [`Session`]: built once from
//! an [`Environment`] snapshot, the settings files and properties, it holds the effective
//! settings, the credentials (decrypted lazily) and the repository selectors, answers which
//! repositories a build uses, and resolves dependencies as Maven does through one engine for
//! its whole lifetime (one runtime, one transport, one descriptor cache): the effective POM
//! ([`Session::describe`]), the dependency graph ([`Session::collect`]), the class path with
//! every artifact downloaded ([`Session::resolve`]) and plain downloads
//! ([`Session::download`]).
//!
//! ```no_run
//! use m2resolver::{Artifact, ClasspathScope, RemoteRepository, Root, Session};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let session = Session::builder().build()?; // ~/.m2/settings.xml, as Maven reads it
//! let repos = session.repositories(&[RemoteRepository::central()]).repositories;
//! let junit = Artifact::parse("junit:junit:4.13.2")?;
//! let resolved = session.blocking_resolve(&Root::compile([junit]), &repos, None)?;
//! for jar in resolved.classpath(ClasspathScope::Test) {
//!     println!("{}", jar.display()); // junit, then hamcrest-core
//! }
//! # Ok(()) }
//! ```
//!
//! The names an embedder needs are at the crate root: the session and its builder, the
//! coordinate type [`Artifact`], [`RemoteRepository`], [`Root`] and [`ClasspathScope`], the
//! answers ([`CollectResult`], [`DependencyGraph`], [`ResolveResult`], [`Description`],
//! [`ArtifactFile`]), publishing ([`PublishRequest`] of [`Module`]s, [`DeployOptions`],
//! [`DeploymentRepository`], [`DeployReport`], [`InstallReport`] for [`Session::install`] and
//! [`Session::deploy`]), progress ([`ProgressListener`], [`ProgressEvent`], [`Phase`]) and the
//! errors. Underneath, data flows one way through these modules:
//!
//! 1. [`settings`]: read global, user and project `settings.xml`, merge, interpolate, validate,
//!    activate profiles.
//! 2. [`security`]: decrypt (and encrypt) `{...}` passwords, Maven 3 and Maven 4 formats.
//! 3. [`repository`]: inject mirrors, proxies and authentication into the repository list.
//! 4. [`transport`] and [`download`]: fetch artifacts into the local repository.
//! 5. [`resolution`]: artifacts, versions, POM models and dependency graphs.
//! 6. [`publish`]: installing and deploying what a build made.
//!
//! [`session`] drives steps 1–5 for a build; [`explain`] renders what a session decided (it is
//! what `m2r explain` prints).

pub mod bounded;
pub mod download;
mod environment;
pub mod explain;
pub mod lock;
pub mod printable;
pub mod publish;
pub mod repository;
pub mod resolution;
pub(crate) mod runtime;
mod secret;
pub mod security;
pub mod session;
pub mod settings;
pub mod transport;
pub(crate) mod xml;

pub use download::{
    ArtifactFile, ChecksumOutcome, DownloadError, LocalTail, NoProgress, Phase, ProgressEvent,
    ProgressListener, RepositoryFilter,
};
pub use environment::{Environment, Vars};
pub use lock::{Difference, FrozenResult, Lock, LockError};
pub use publish::{
    Attachment, DeployOptions, DeployReport, InstallReport, PublishArtifact, PublishError,
    PublishModule, PublishRequest,
};
pub use repository::{CredentialSource, RemoteRepository};
pub use resolution::collect::{
    ArtifactError, ClasspathScope, CollectError, CollectResult, DependencyGraph, DependencyNode,
    NodeId, PomProblem, PomProblemKind, ResolvedNode, Root, RootFailure,
};
pub use resolution::pom::{Description, DescriptorError};
pub use resolution::workspace::{Module, Workspace, WorkspaceError};
pub use resolution::{Artifact, CoordinateError, Dependency, Exclusion};
pub use runtime::RuntimeError;
pub use secret::{Secret, SettingsSecret};
pub use session::{
    DeploymentRepository, ModuleResult, Repositories, ResolveResult, Session, SessionBuilder,
    SessionError, WorkspaceResult,
};
pub use settings::SettingsProblem;

/// The README's examples, compiled by `cargo test --doc`.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
