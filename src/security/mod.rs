//! Security: decrypt and encrypt Maven passwords (Maven 3 legacy cipher and Maven 4 AES-GCM
//! dispatchers), read `settings-security.xml` / `settings-security4.xml`, master password sources.
//!
//! Owns: the `{...}` detection rules ([`maven3_payload`], [`is_maven4_encrypted`]), both ciphers,
//! the security files, master-password sources ([`MasterSource`]) and the caching
//! [`Decryptor`]. Does not own: which settings fields get decrypted and how failures are
//! reported (the `settings` module wraps [`SecurityError`] as
//! `Failed to decrypt password for server <id>: <reason>`).
//!
//! All inputs come from a [`SecurityContext`]; nothing here reads the process environment.
//! Clear text travels only as [`Secret`]; no error message contains a secret.
//!
//! ```
//! use m2resolver::security::{encrypt_password, is_encrypted};
//! let value = encrypt_password("s3cret", "master");
//! assert!(value.starts_with('{') && value.ends_with('}'));
//! assert!(is_encrypted(&value));
//! assert!(!is_encrypted("plain"));
//! ```

mod base64_codec;
mod context;
mod decoration;
mod decryptor;
mod error;
mod gcm_cipher;
mod legacy_cipher;
mod master_source;
mod security_file;

pub use context::SecurityContext;
pub use decoration::{
    is_maven4_encrypted, maven3_payload, maven4_legacy_payload, maven4_settings_decrypts,
};
pub use decryptor::Decryptor;
pub use error::{CipherError, SecurityError};
/// How many Maven 4 key derivations (PBKDF2, 310,000 rounds each) this process has run: a
/// diagnostic for tests and benchmarks that check decryption stays lazy.
#[doc(hidden)]
pub use gcm_cipher::key_derivations;
pub use gcm_cipher::{CIPHER_NAME, PBKDF2_ITERATIONS};
pub use legacy_cipher::MASTER_PASSWORD_KEY;
pub use master_source::{
    resolve_master_source, EnvSource, FileSource, GpgAgentSource, MasterSource, PinentrySource,
    SystemPropertySource,
};
pub use security_file::{DispatcherConfig, LegacySecurityFile, Maven4SecurityFile};

use crate::Secret;

/// True if `value` is encrypted in either format: Maven 3 (a `{...}` anywhere, see
/// [`maven3_payload`]) or Maven 4 (`{[name=...,version=...]...}`).
///
/// ```
/// use m2resolver::security::is_encrypted;
/// assert!(is_encrypted("{abc}"));
/// assert!(is_encrypted("comment {abc} comment"));
/// assert!(is_encrypted("{[name=master,cipher=AES/GCM/NoPadding,version=4.0]abc=}"));
/// assert!(!is_encrypted("{}"));
/// assert!(!is_encrypted("\\{abc\\}"));
/// ```
pub fn is_encrypted(value: &str) -> bool {
    is_maven4_encrypted(value) || maven3_payload(value).is_some()
}

/// What `mvn --encrypt-master-password` prints: `{payload}` encrypted with the key
/// `settings.security` (random salt). An empty password gives `{}`, as in Maven.
///
/// ```
/// use m2resolver::security::encrypt_master_password;
/// assert_eq!(encrypt_master_password(""), "{}");
/// assert_eq!(encrypt_master_password("pw").len(), 46);
/// ```
pub fn encrypt_master_password(clear: &str) -> String {
    encrypt_password(clear, MASTER_PASSWORD_KEY)
}

/// What `mvn --encrypt-password` prints: `{payload}` encrypted with `master` (random salt).
pub fn encrypt_password(clear: &str, master: &str) -> String {
    format!("{{{}}}", legacy_cipher::encrypt(clear, master))
}

/// Encrypts `clear` in the Maven 4 format with the `master` dispatcher's cipher:
/// `{[name=master,cipher=AES/GCM/NoPadding,version=4.0]base64(iv||salt||ct||tag)}`.
pub fn encrypt_v4(clear: &str, master: &Secret) -> String {
    format!(
        "{{[name=master,cipher={CIPHER_NAME},version=4.0]{}}}",
        gcm_cipher::encrypt(clear, master.expose())
    )
}

/// Maven 3's `decryptDecorated(value, master)`: decrypts the content of the first `{...}` of
/// `value` (or all of `value` when it has none) with `master`, using plexus-cipher 2.0's
/// lenient base64. No file is read.
///
/// ```
/// use m2resolver::security::decrypt_password;
/// let v = decrypt_password("{ibeHrdCOonkH7d7YnH7sarQLbwOk1ljkkM/z8hUhl4c=}", "testtest").unwrap();
/// assert_eq!(v.expose(), "veryOpenText");
/// ```
pub fn decrypt_password(value: &str, master: &str) -> Result<Secret, SecurityError> {
    let payload = maven3_payload(value).unwrap_or(value);
    legacy_cipher::decrypt(payload, master, legacy_cipher::Base64Mode::Lenient)
        .map_err(SecurityError::Decrypt)
}

/// Decrypts a Maven 4 `{[name=master,cipher=AES/GCM/NoPadding,...]...}` value with the given
/// master password (no configuration file is read). One PBKDF2 derivation per call.
pub fn decrypt_v4(value: &str, master: &Secret) -> Result<Secret, SecurityError> {
    let parsed =
        decoration::maven4_parse(value).ok_or_else(|| SecurityError::MalformedAttributes {
            reason: "not a Maven 4 value {[name=...,version=...]...}".into(),
        })?;
    match parsed.attribute("name") {
        Some("master") => {}
        other => {
            return Err(SecurityError::UnknownDispatcher {
                name: other.unwrap_or_default().to_string(),
                known: "master (with an explicit master password)",
            })
        }
    }
    match parsed.attribute("cipher") {
        Some(CIPHER_NAME) => {}
        Some(other) => {
            return Err(SecurityError::UnknownCipher {
                name: other.to_string(),
            })
        }
        None => {
            return Err(SecurityError::MalformedAttributes {
                reason: "missing attribute 'cipher'".into(),
            })
        }
    }
    gcm_cipher::decrypt(parsed.payload, master.expose()).map_err(SecurityError::Decrypt)
}
