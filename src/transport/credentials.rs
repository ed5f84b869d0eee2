//! Credentials on the wire: the `Basic` header value.
//!
//! Passwords reach the transport as clear [`crate::Secret`]s only: the session decrypts what a
//! repository uses and leaves out what cannot be decrypted (a `decrypt` problem says so), so
//! nothing here has to guess whether a value is still encrypted.

use base64::Engine;

/// `Basic base64(user:password)` (UTF-8; identical to ISO-8859-1 for ASCII credentials).
pub fn basic_header(username: &str, password: &str) -> String {
    let raw = format!("{username}:{password}");
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(raw)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_header_value() {
        assert_eq!(
            basic_header("deploy", "s3cret"),
            "Basic ZGVwbG95OnMzY3JldA=="
        );
    }
}
