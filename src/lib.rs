//! # m2resolver
//!
//! What Apache Maven's settings handling and Maven Resolver do before and while artifacts are
//! downloaded, as a library for build tools. The front door is a [`Session`]: built once from
//! an [`Environment`] snapshot, the settings files and properties, it holds the effective
//! settings, the credentials (decrypted lazily) and the repository selectors, answers which
//! repositories a build uses and hands out the resolver that downloads into the local
//! repository.
//!
//! ```no_run
//! use m2resolver::{download::Coordinate, repository::RemoteRepository, Session};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let session = Session::builder().build()?; // ~/.m2/settings.xml, as Maven reads it
//! let repos = session.repositories(&[RemoteRepository::central()]).repositories;
//! let resolver = session.blocking_resolver(repos)?;
//! let jar = resolver.resolve(&[Coordinate::parse("junit:junit:4.13.2")?]).remove(0)?;
//! println!("{}", jar.path.display());
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
//!
//! [`session`] drives steps 1–4 for a build; [`explain`] renders what a session decided (it is
//! what `m2r explain` prints).

pub mod bounded;
pub mod download;
mod environment;
pub mod explain;
pub mod printable;
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
