//! Credentials on the wire: the `Basic` header value, and the guard that refuses to send a value
//! that still looks encrypted (`{...}`), which Maven 3 silently sends when decryption failed
//! (spec §7.2, §9 item 7d).

use base64::Engine;

/// True when `value` contains a `{...}` block the way plexus-cipher detects an encrypted value
/// (an unescaped `{`, later a `}`, something between), and the content looks like cipher text
/// (base64, or a Maven 4 `[name=...]` decoration).
///
/// ```
/// use m2resolver::transport::credentials::looks_encrypted;
/// assert!(looks_encrypted("{jSMOWnoPFgsHVpMvz5VrIt5kRbzGpI8u+9EF1iFQyJQ=}"));
/// assert!(looks_encrypted("{[name=master,cipher=AES/GCM/NoPadding,version=4.0]AAAA}"));
/// assert!(!looks_encrypted("s3cret"));
/// assert!(!looks_encrypted("pa{ss w}ord"));
/// ```
pub fn looks_encrypted(value: &str) -> bool {
    let bytes = value.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'{' && (i == 0 || bytes[i - 1] != b'\\') {
            if let Some(len) = value[i + 1..].find('}') {
                let inner = &value[i + 1..i + 1 + len];
                if !inner.is_empty()
                    && (inner.starts_with('[')
                        || inner
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=')))
                {
                    return true;
                }
            }
        }
        i += 1;
    }
    false
}

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
    fn encrypted_detection_table() {
        let cases = [
            ("{abc=}", true),
            ("comment {abc/+=} more", true),
            ("\\{abc}", false),
            ("{}", false),
            ("{not base64!}", false),
            ("plain", false),
            ("{", false),
            ("}{", false),
            ("x{y", false),
        ];
        for (v, want) in cases {
            assert_eq!(looks_encrypted(v), want, "{v}");
        }
    }

    #[test]
    fn basic_header_value() {
        assert_eq!(
            basic_header("deploy", "s3cret"),
            "Basic ZGVwbG95OnMzY3JldA=="
        );
    }
}
