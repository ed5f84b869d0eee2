//! # m2resolver
//!
//! What Apache Maven's settings handling and Maven Resolver do before and while artifacts are
//! downloaded, as a library for build tools. The front door is a [`Session`]: built once from
//! an [`Environment`] snapshot, the settings files and properties, it holds the effective
//! settings, the credentials (decrypted lazily) and the repository selectors, answers which
//! repositories a build uses, hands out the resolver that downloads into the local
//! repository, and resolves dependencies as Maven does: the effective POM
//! ([`Session::describe`]), the dependency graph ([`Session::collect`]) and the class path with
//! every artifact downloaded ([`Session::resolve`]).
//!
//! ```no_run
//! use m2resolver::{download::Coordinate, repository::RemoteRepository, Session};
//! use m2resolver::resolution::collect::{classpath::ClasspathScope, project::Root};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let session = Session::builder().build()?; // ~/.m2/settings.xml, as Maven reads it
//! let repos = session.repositories(&[RemoteRepository::central()]).repositories;
//! let junit = Coordinate::parse("junit:junit:4.13.2")?.into();
//! let resolved = session.blocking_resolve(&Root::compile([junit]), &repos, None)?;
//! for jar in resolved.classpath(ClasspathScope::Test) {
//!     println!("{}", jar.display()); // junit, then hamcrest-core
//! }
//! # Ok(()) }
//! ```
//!
//! Underneath, data flows one way through these modules:
//!
//! 1. [`settings`]: read global, user and project `settings.xml`, merge, interpolate, validate,
//!    activate profiles.
//! 2. [`security`]: decrypt (and encrypt) `{...}` passwords, Maven 3 and Maven 4 formats.
//! 3. [`repository`]: inject mirrors, proxies and authentication into the repository list.
//! 4. [`transport`] and [`download`]: fetch artifacts into the local repository.
//! 5. [`resolution`]: artifacts, POM models and dependency graphs.
//! 6. [`publish`]: installing and deploying what a build made.
//!
//! [`session`] drives steps 1–5 for a build; [`explain`] renders what a session decided (it is
//! what `m2r explain` prints).

pub mod bounded;
pub mod download;
mod environment;
pub mod explain;
pub mod printable;
pub mod publish;
pub mod repository;
pub mod resolution;
mod secret;
pub mod security;
pub mod session;
pub mod settings;
pub mod transport;
pub(crate) mod xml;

pub use environment::{Environment, Vars};
pub use secret::{Secret, SettingsSecret};
pub use session::{Session, SessionBuilder, SessionError};

/// The README's examples, compiled by `cargo test --doc`.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
