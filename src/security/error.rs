//! [`SecurityError`]: why a password could not be decrypted or encrypted.
//!
//! Owns the error enum of the `security` module and [`CipherError`], the low-level reason a
//! cipher refused a value. No message ever contains a clear-text secret: values are named by
//! where they come from (file, source specification, dispatcher), never by what they contain.

use std::path::PathBuf;
use std::sync::Arc;

/// Why a cipher (Maven 3 AES-128-CBC or Maven 4 AES-256-GCM) refused a value.
///
/// The text never contains the value, the password or the clear text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CipherError {
    /// The decoded payload is shorter than the cipher's header (salt, IV, padding byte or tag).
    #[error("value too short: {len} bytes after base64 decoding, at least {min} needed")]
    TooShort {
        /// Bytes after base64 decoding.
        len: usize,
        /// Bytes the format needs at least.
        min: usize,
    },
    /// The legacy payload's padding-length byte does not fit the payload.
    #[error("corrupt value: padding length {pad_len} does not fit a {len}-byte payload")]
    BadLayout {
        /// The signed padding-length byte.
        pad_len: i32,
        /// Bytes after base64 decoding.
        len: usize,
    },
    /// The ciphertext is not a whole number of AES blocks.
    #[error("corrupt value: ciphertext of {len} bytes is not a multiple of 16")]
    BadBlockLength {
        /// Ciphertext length.
        len: usize,
    },
    /// PKCS#5 padding check failed: wrong master password, or a corrupt value.
    #[error("bad padding")]
    BadPadding,
    /// AES-GCM authentication failed: wrong master password, or a corrupt value.
    #[error("authentication tag mismatch")]
    BadTag,
    /// The value is not base64 (Maven 4 and its legacy dispatcher decode strictly).
    #[error("invalid base64: {0}")]
    Base64(String),
    /// The lenient plexus-cipher 2.0 base64 decoder itself fails on this input.
    #[error("corrupt base64 payload (malformed padding)")]
    Base64Layout,
}

/// Why a value could not be decrypted or encrypted, or a master password could not be obtained.
///
/// `Display` gives a clear reason and what to do, never a secret. Callers add the context
/// (`Failed to decrypt password for server <id>: <reason>`).
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum SecurityError {
    /// The legacy `settings-security.xml` does not exist.
    #[error(
        "cannot read master password: settings-security file {} not found (set -Dsettings.security=FILE or create it with `m2r encrypt-master-password`)",
        path.display()
    )]
    SecurityFileNotFound {
        /// The file looked for.
        path: PathBuf,
    },
    /// A security file exists but cannot be read.
    #[error("cannot read settings-security file {}", path.display())]
    SecurityFileIo {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: Arc<std::io::Error>,
    },
    /// A security file is not well-formed or has an element Maven does not know.
    #[error("cannot parse settings-security file {}: {reason}", path.display())]
    SecurityFileParse {
        /// The file.
        path: PathBuf,
        /// What is wrong and where (line).
        reason: String,
    },
    /// `<relocation>` elements point back to a file already read.
    #[error("settings-security relocation loop: {}", chain.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" -> "))]
    RelocationLoop {
        /// The files in the order they were read, ending with the repeated one.
        chain: Vec<PathBuf>,
    },
    /// More `<relocation>` hops than allowed.
    #[error("too many settings-security relocations (more than {max}) starting at {}", start.display())]
    TooManyRelocations {
        /// The first file.
        start: PathBuf,
        /// The limit.
        max: usize,
    },
    /// `<relocation>` names a remote URL; only files are supported.
    #[error("settings-security relocation to '{location}' is not supported: only local files can be read (in {})", file.display())]
    RelocationUnsupported {
        /// The relocation target.
        location: String,
        /// The file holding the relocation.
        file: PathBuf,
    },
    /// A property that names a file is set but empty.
    #[error("property {name} is set but empty; give it a file path")]
    EmptyLocation {
        /// The property name.
        name: String,
    },
    /// `settings-security.xml` has no `<master>`.
    #[error("master password is not set in settings-security file {} (add a <master> made with `m2r encrypt-master-password`)", path.display())]
    MasterNotSet {
        /// The file (after relocation).
        path: PathBuf,
    },
    /// `<master>` cannot be decrypted with the key `settings.security`.
    #[error("cannot decrypt the master password in {}: {reason} (re-create it with `m2r encrypt-master-password`)", path.display())]
    MasterDecrypt {
        /// The file (after relocation).
        path: PathBuf,
        /// The cipher's reason.
        reason: CipherError,
    },
    /// The value cannot be decrypted with the master password.
    #[error("wrong master password or corrupt value ({0})")]
    Decrypt(CipherError),
    /// The encrypted value names a dispatcher that does not exist.
    #[error("unknown dispatcher '{name}' (known: {known})")]
    UnknownDispatcher {
        /// The name (Maven 4 `name=` attribute, Maven 3 `type=` attribute).
        name: String,
        /// The dispatchers available in this mode.
        known: &'static str,
    },
    /// The encrypted value names a cipher that does not exist.
    #[error("unknown cipher '{name}' (only AES/GCM/NoPadding is supported)")]
    UnknownCipher {
        /// The `cipher=` attribute or configuration value.
        name: String,
    },
    /// The `[...]` attribute block of a Maven 4 value is malformed.
    #[error("malformed attributes: {reason}")]
    MalformedAttributes {
        /// What is wrong.
        reason: String,
    },
    /// No Maven 4 `settings-security4.xml` exists, but an operation needs it.
    #[error("no Maven 4 security configuration: {} not found (create it with `mvnenc init`)", path.display())]
    NoConfiguration {
        /// The file looked for.
        path: PathBuf,
    },
    /// `settings-security4.xml` has no `<defaultDispatcher>`.
    #[error("no defaultDispatcher set in {}", path.display())]
    NoDefaultDispatcher {
        /// The file.
        path: PathBuf,
    },
    /// A dispatcher's configuration in `settings-security4.xml` misses a property.
    #[error("invalid configuration: missing configuration '{key}' for dispatcher '{dispatcher}' in {}", path.display())]
    MissingConfiguration {
        /// The dispatcher.
        dispatcher: String,
        /// The missing property (`source`, `cipher`).
        key: String,
        /// The configuration file.
        path: PathBuf,
    },
    /// No master source understands the source specification.
    #[error("no source handled the given master source '{spec}' (known: env:, system-property:, file:, gpg-agent:, pinentry-prompt:)")]
    NoSourceHandled {
        /// The specification (e.g. `env:MAVEN_MASTER_PASSWORD`).
        spec: String,
    },
    /// A master source understood the specification but could not deliver.
    #[error("cannot get the master password from '{spec}': {reason}")]
    MasterSource {
        /// The specification.
        spec: String,
        /// Why (e.g. `Environment variable 'X' not found`).
        reason: String,
    },
    /// The Maven 4 `legacy` dispatcher found no master password.
    #[error("legacy dispatcher: master password could not be obtained from {} (missing, unreadable, or without <master>)", path.display())]
    LegacyMasterUnavailable {
        /// The legacy file looked at.
        path: PathBuf,
    },
    /// Maven 4's `legacy` dispatcher cannot encrypt.
    #[error(
        "legacy dispatcher must not be used for encryption; it is inherently insecure and broken"
    )]
    LegacyEncrypt,
    /// A dispatcher that cannot encrypt was asked to.
    #[error("dispatcher '{name}' cannot encrypt")]
    CannotEncrypt {
        /// The dispatcher.
        name: String,
    },
}
