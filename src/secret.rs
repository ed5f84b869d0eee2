//! [`Secret`]: a string that must never be printed by accident.
//!
//! Passwords, passphrases and master passwords travel through the library as `Secret`.
//! `Debug` and `Display` print `***`; the clear text is reachable only through
//! [`Secret::expose`], which is called where an `Authorization` header is built, where the
//! cipher needs it, and where `explain --json` / `--show-secrets` deliberately shows it.
//! The buffer is zeroed when the value is dropped.

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
    }
}
