//! Publishing: installing into the local repository and deploying to a remote one, with the
//! files, checksums and `maven-metadata.xml` documents Maven 3.8.7 leaves (Maven Resolver
//! 1.6.3's `DefaultInstaller` / `DefaultDeployer`, maven-resolver-provider's metadata
//! generators, Wagon's HTTP `PUT`, maven-install-plugin 3.1.0 and maven-deploy-plugin 3.0.0).
//!
//! - [`request`]: what is published ([`PublishRequest`] of [`PublishModule`]s of
//!   [`PublishArtifact`]s), and modules made from a POM and files as the plugins make them;
//! - [`target`]: the deployment repository (`--to id::url`, `distributionManagement`);
//! - [`checksums`]: which files get checksum files (the algorithms are the session's one
//!   [`crate::download::ChecksumAlgorithms`] list, shared with downloads);
//! - `metadata`: the generated documents, their merge with what exists, their text;
//! - `install` and `deploy`: the two operations ([`crate::Session::install`],
//!   [`crate::Session::deploy`] run them);
//! - [`report`]: what happened to every file ([`DeployReport`], [`InstallReport`]); while it
//!   happens, the session's [`crate::ProgressListener`] hears it ([`crate::Phase::Deploying`],
//!   [`crate::ProgressEvent::Uploaded`], ...).
//!
//! Better than Maven, with the same files on the server: uploads run in parallel
//! ([`DeployOptions::max_in_flight`]); the remote metadata is read and checked before anything
//! is uploaded; metadata is uploaded only once every artifact of the request is there; uploads
//! are retried with backoff on connection errors and on 429/502/503/504 (honouring
//! `Retry-After`); a failure says what reached the server ([`PublishError::report`]).
//!
//! Not here: HTTP (the transport's [`crate::transport::Transport::put`]), where credentials and
//! proxies come from (the session's selectors, [`crate::repository::inject_deployment`]).

pub mod checksums;
pub(crate) mod deploy;
mod error;
pub(crate) mod install;
pub(crate) mod metadata;
pub mod options;
pub mod report;
pub mod request;
pub mod target;

pub use error::PublishError;
pub use options::{DeployOptions, DEFAULT_UPLOADS_IN_FLIGHT};
pub use report::{
    DeployReport, DeployedModule, FileKind, InstallReport, InstalledFile, UploadRecord, UploadState,
};
pub use request::{Attachment, PublishArtifact, PublishModule, PublishRequest};
pub use target::{alt_deployment_repository, distribution_repository};
