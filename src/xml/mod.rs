//! XML reading for every format the crate reads: `settings.xml`, `settings-security.xml`,
//! `maven-metadata.xml` and `pom.xml`.
//!
//! Owns decoding the bytes, the positioned element tree built with quick-xml that behaves as
//! Maven's MXParser does ([`dom`]), and the limits that keep hostile input harmless. Mapping a
//! tree to a format's model is each format's own module.

pub(crate) mod dom;
mod xhtml_entities;

pub use dom::Pos;
