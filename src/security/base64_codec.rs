//! Base64 as the Maven ciphers decode it.
//!
//! - [`decode_lenient`]: plexus-cipher 2.0's own decoder (`org.sonatype.plexus.components.cipher.Base64`,
//!   used by Maven 3.x): every byte outside `A-Z a-z 0-9 + / =` is DISCARDED first (spaces,
//!   newlines, `[`, `]`, non-ASCII...), then groups of four are decoded; trailing characters
//!   that do not fill a group are ignored. Reproduced byte for byte, including its odd results
//!   for misplaced `=`, because Maven 3 accepts exactly what this decoder accepts.
//! - [`decode_strict`]: `java.util.Base64.getDecoder()` (Maven 4, and Maven 4's `legacy`
//!   dispatcher): standard alphabet, padding optional, anything else is an error.
//!
//! Encoding is always standard base64 with padding (both Javas produce that).

use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use base64::Engine;

use super::error::CipherError;

/// java.util.Base64's basic decoder: padding optional, non-zero trailing bits accepted.
const STRICT: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true),
);

/// Standard base64 with `=` padding.
pub(crate) fn encode(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// `java.util.Base64.getDecoder().decode(s)`.
pub(crate) fn decode_strict(s: &str) -> Result<Vec<u8>, CipherError> {
    STRICT
        .decode(s.as_bytes())
        .map_err(|e| CipherError::Base64(e.to_string()))
}

/// Value of a base64 alphabet byte, -1 for `=` and anything else (Java's `base64Alphabet`).
fn sextet(b: u8) -> i32 {
    match b {
        b'A'..=b'Z' => i32::from(b - b'A'),
        b'a'..=b'z' => i32::from(b - b'a') + 26,
        b'0'..=b'9' => i32::from(b - b'0') + 52,
        b'+' => 62,
        b'/' => 63,
        _ => -1,
    }
}

fn is_base64(b: u8) -> bool {
    b == b'=' || sextet(b) >= 0
}

/// plexus-cipher 2.0 `Base64.decodeBase64(s.getBytes())`, with Java's array-bounds failures
/// reported as [`CipherError::Base64Layout`] instead of exceptions.
pub(crate) fn decode_lenient(s: &str) -> Result<Vec<u8>, CipherError> {
    let data: Vec<u8> = s.bytes().filter(|b| is_base64(*b)).collect();
    if data.is_empty() {
        return Ok(Vec::new());
    }
    let quads = data.len() / 4;
    let mut last_data = data.len();
    while data[last_data - 1] == b'=' {
        last_data -= 1;
        if last_data == 0 {
            return Ok(Vec::new());
        }
    }
    // Java: new byte[lastData - numberQuadruple] (negative -> NegativeArraySizeException).
    let out_len = last_data
        .checked_sub(quads)
        .ok_or(CipherError::Base64Layout)?;
    let mut out = vec![0u8; out_len];
    let mut put = |index: usize, value: i32| -> Result<(), CipherError> {
        // Java's (byte) cast keeps the low 8 bits.
        let slot = out.get_mut(index).ok_or(CipherError::Base64Layout)?;
        *slot = (value & 0xff) as u8;
        Ok(())
    };
    let mut encoded_index = 0usize;
    for i in 0..quads {
        let at = i * 4;
        let marker0 = data[at + 2];
        let marker1 = data[at + 3];
        // Java bytes are signed; `>>` is arithmetic on the promoted int.
        let b1 = sextet(data[at]);
        let b2 = sextet(data[at + 1]);
        if marker0 != b'=' && marker1 != b'=' {
            let b3 = sextet(marker0);
            let b4 = sextet(marker1);
            put(encoded_index, (b1 << 2) | (b2 >> 4))?;
            put(encoded_index + 1, ((b2 & 0xf) << 4) | ((b3 >> 2) & 0xf))?;
            put(encoded_index + 2, (b3 << 6) | b4)?;
        } else if marker0 == b'=' {
            put(encoded_index, (b1 << 2) | (b2 >> 4))?;
        } else {
            let b3 = sextet(marker0);
            put(encoded_index, (b1 << 2) | (b2 >> 4))?;
            put(encoded_index + 1, ((b2 & 0xf) << 4) | ((b3 >> 2) & 0xf))?;
        }
        encoded_index += 3;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenient_decoder_table() {
        // (input, expected bytes or None for a decoder failure)
        let cases: &[(&str, Option<&[u8]>)] = &[
            ("", Some(b"")),
            ("====", Some(b"")),
            ("aGVsbG8=", Some(b"hello")),
            ("aGVs bG8=\n", Some(b"hello")),
            ("[aGVsbG8=]", Some(b"hello")),
            // 7 chars: Java sizes the array 7 - 1 = 6 but fills only the first quad.
            ("aGVsbG8", Some(b"hel\0\0\0")),
            ("aGVsbA==", Some(b"hell")),
            ("aGVsbG8=\u{e9}", Some(b"hello")),
            ("A===", None),
            ("A=======", None),
        ];
        for (input, expected) in cases {
            let got = decode_lenient(input);
            match expected {
                Some(bytes) => assert_eq!(got.as_deref(), Ok(*bytes), "{input:?}"),
                None => assert!(got.is_err(), "{input:?} should fail, got {got:?}"),
            }
        }
    }

    #[test]
    fn strict_decoder_rejects_what_java_util_base64_rejects() {
        assert_eq!(decode_strict("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(decode_strict("aGVsbG8").unwrap(), b"hello");
        assert!(decode_strict("aGVs bG8=").is_err());
        assert!(decode_strict("[aGVsbG8=]").is_err());
        assert!(decode_strict("aGVsbG8=\n").is_err());
    }
}
