//! Secrets as types: [`Secret`] (clear text, ready to use) and [`SettingsSecret`] (a credential
//! as written in `settings.xml`, possibly `{...}` encrypted).
//!
//! The two are distinct so that nothing downstream has to guess whether a value is still
//! encrypted: the settings model holds `SettingsSecret`s; only decryption (the session's
//! credential store, over [`crate::security::Decryptor`]) turns one into a `Secret`; the
//! repositories handed to the transport carry `Secret`s only. Neither type prints its text:
//! `Debug` and `Display` print `***`. The clear text is reachable only through
//! [`Secret::expose`] (where an `Authorization` header is built, where a cipher needs it, and
//! where `explain --json` / `--show-secrets` deliberately shows it), the written text only
//! through [`SettingsSecret::as_written`]. Buffers are zeroed when the values are dropped.

use std::fmt;
use zeroize::Zeroizing;

/// A secret string (password, passphrase, master password). Prints as `***`.
///
/// ```
/// use m2resolver::Secret;
/// let s = Secret::new("hunter2");
/// assert_eq!(format!("{s}"), "***");
/// assert_eq!(format!("{s:?}"), "Secret(***)");
/// assert_eq!(s.expose(), "hunter2");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(Zeroizing<String>);

impl Secret {
    /// Wraps a clear-text value.
    pub fn new(value: impl Into<String>) -> Self {
        Secret(Zeroizing::new(value.into()))
    }

    /// The clear text. Call it only where the value must leave the library on purpose.
    pub fn expose(&self) -> &str {
        self.0.as_str()
    }

    /// True when the clear text is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Secret::new(value)
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Secret::new(value)
    }
}

/// A credential as written in a settings file: clear text, or encrypted (`{...}`, Maven 3 or
/// Maven 4 format). It cannot be sent anywhere: decryption turns it into a [`Secret`].
///
/// ```
/// use m2resolver::SettingsSecret;
/// let written = SettingsSecret::new("{COQLCE6DU6GtcS5P=}");
/// assert_eq!(format!("{written:?}"), "SettingsSecret(***)");
/// assert!(written.is_encrypted());
/// assert_eq!(written.as_written(), "{COQLCE6DU6GtcS5P=}");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct SettingsSecret(Zeroizing<String>);

impl SettingsSecret {
    /// Wraps the text as written.
    pub fn new(value: impl Into<String>) -> Self {
        SettingsSecret(Zeroizing::new(value.into()))
    }

    /// The text as written (encrypted or not): for decryption, and for the `explain --json`
    /// contract, which prints what Maven would use when decryption fails.
    pub fn as_written(&self) -> &str {
        self.0.as_str()
    }

    /// True when the text is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// True when the text is encrypted in either Maven format (see
    /// [`crate::security::is_encrypted`]).
    pub fn is_encrypted(&self) -> bool {
        crate::security::is_encrypted(self.as_written())
    }
}

impl fmt::Debug for SettingsSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SettingsSecret(***)")
    }
}

impl fmt::Display for SettingsSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_prints_clear_text() {
        let s = Secret::new("s3cret-value");
        assert!(!format!("{s}").contains("s3cret"));
        assert!(!format!("{s:?}").contains("s3cret"));
        assert!(!format!("{:?}", Some(s.clone())).contains("s3cret"));
        assert_eq!(s.expose(), "s3cret-value");
        let w = SettingsSecret::new("s3cret-value");
        assert!(!format!("{w}").contains("s3cret"));
        assert!(!format!("{:?}", Some(w.clone())).contains("s3cret"));
    }
}
