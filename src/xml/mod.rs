//! XML reading for every format the crate reads: `settings.xml`, `settings-security.xml` and
//! `settings-security4.xml`, `maven-metadata.xml` and `pom.xml`.
//!
//! Owns, in this order: decoding the bytes and building a positioned element tree that behaves
//! as Maven's MXParser does, within limits that keep hostile input harmless ([`dom`]); the rules
//! of Maven's modello-generated readers, strict and lenient, with Maven's messages and
//! positions ([`modello`]); and reading a tree by a format's schema tables ([`schema`]). What a
//! format's elements mean (its model, defaults and checks) is the format's own module:
//! `settings::xml`, `security::security_file`, `download::metadata`, `resolution::pom::xml`.

pub(crate) mod dom;
pub(crate) mod modello;
pub(crate) mod schema;
mod xhtml_entities;

pub use dom::{Pos, XmlError, XmlErrorKind};
pub use schema::XNode;
