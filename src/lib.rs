//! # m2resolver
//!
//! What Apache Maven's settings handling and Maven Resolver do before and while artifacts are
//! downloaded, as a library for build tools:
//!
//! 1. [`settings`]: read global, user and project `settings.xml`, merge, interpolate, validate,
//!    activate profiles.
//! 2. [`security`]: decrypt (and encrypt) `{...}` passwords, Maven 3 and Maven 4 formats.
//! 3. [`repository`]: inject mirrors, proxies and authentication into the repository list.
//! 4. [`transport`] and [`download`]: fetch artifacts into the local repository.
//!
//! Data flows one way through these modules. [`explain`] runs steps 1–3 and describes the result
//! (it is what `m2r explain` prints).

pub mod bounded;
pub mod download;
pub mod environment;
pub mod explain;
pub mod printable;
pub mod repository;
pub mod resolution;
pub mod secret;
pub mod security;
pub mod settings;
pub mod transport;

pub use environment::Environment;
pub use secret::Secret;
