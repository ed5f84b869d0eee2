//! Maven 3 legacy cipher (plexus-cipher 2.0 `PBECipher`): AES-128-CBC with PKCS#5 padding.
//!
//! ```text
//! d       = SHA-256(UTF-8(password) || salt[0..8]);  key = d[0..16];  iv = d[16..32]
//! payload = base64( salt(8) || padLen(1) || AES-128-CBC(clear) || padLen random bytes )
//! ```
//! `padLen` is `16 - (8 + len(ct) + 1) % 16`, always 7. There is no MAC: a wrong password is
//! detected only by the PKCS#5 padding check (about 1 in 256 wrong passwords "succeed" with
//! garbage, as in Maven). Decrypted bytes become text like Java's `new String(bytes, UTF8)`:
//! invalid UTF-8 is replaced, not rejected. Owns the cipher only; decoration (`{...}`) lives in
//! `decoration`, files in `security_file`.

use aes::cipher::{block_padding::Pkcs7, BlockDecryptMut, BlockEncryptMut, KeyIvInit};
use rand::RngCore;
use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

use super::base64_codec;
use super::error::CipherError;
use crate::Secret;

type Aes128CbcEnc = cbc::Encryptor<aes::Aes128>;
type Aes128CbcDec = cbc::Decryptor<aes::Aes128>;

/// Salt length (`SALT_SIZE`).
const SALT_LEN: usize = 8;
/// AES block (`CHUNK_SIZE`).
const BLOCK: usize = 16;

/// The password that encrypts `<master>` in `settings-security.xml`: the literal name of the
/// `settings.security` system property (`DefaultSecDispatcher.SYSTEM_PROPERTY_SEC_LOCATION`).
pub const MASTER_PASSWORD_KEY: &str = "settings.security";

/// Which base64 decoder a legacy payload goes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Base64Mode {
    /// plexus-cipher 2.0 (Maven 3.x): non-base64 characters discarded.
    Lenient,
    /// `java.util.Base64` (Maven 4 `legacy` dispatcher).
    Strict,
}

/// key || iv = SHA-256(password || salt).
fn key_iv(password: &str, salt: &[u8]) -> Zeroizing<[u8; 32]> {
    let mut hasher = Sha256::new();
    hasher.update(password.as_bytes());
    hasher.update(salt);
    let mut out = Zeroizing::new([0u8; 32]);
    out.copy_from_slice(&hasher.finalize());
    out
}

/// Decrypts an undecorated base64 payload with `password`.
pub(crate) fn decrypt(
    payload: &str,
    password: &str,
    mode: Base64Mode,
) -> Result<Secret, CipherError> {
    // plexus-cipher 2.0 returns an empty string unchanged (Maven 4's legacy cipher does not).
    if payload.is_empty() && mode == Base64Mode::Lenient {
        return Ok(Secret::new(""));
    }
    let blob = Zeroizing::new(match mode {
        Base64Mode::Lenient => base64_codec::decode_lenient(payload)?,
        Base64Mode::Strict => base64_codec::decode_strict(payload)?,
    });
    decrypt_blob(&blob, password)
}

/// Decrypts the decoded blob `salt || padLen || ct || filler`.
pub(crate) fn decrypt_blob(blob: &[u8], password: &str) -> Result<Secret, CipherError> {
    let total = blob.len();
    if total < SALT_LEN + 1 {
        return Err(CipherError::TooShort {
            len: total,
            min: SALT_LEN + 1,
        });
    }
    let salt = &blob[..SALT_LEN];
    // Java's byte is signed.
    let pad_len = i32::from(blob[SALT_LEN] as i8);
    let ct_len = total as i64 - SALT_LEN as i64 - 1 - i64::from(pad_len);
    if ct_len < 0 || SALT_LEN as i64 + 1 + ct_len > total as i64 {
        return Err(CipherError::BadLayout {
            pad_len,
            len: total,
        });
    }
    let ct = &blob[SALT_LEN + 1..SALT_LEN + 1 + ct_len as usize];
    if !ct.len().is_multiple_of(BLOCK) {
        return Err(CipherError::BadBlockLength { len: ct.len() });
    }
    if ct.is_empty() {
        // SunJCE returns nothing for an empty final block when decrypting.
        return Ok(Secret::new(""));
    }
    let kiv = key_iv(password, salt);
    let mut buf = Zeroizing::new(ct.to_vec());
    let clear = Aes128CbcDec::new_from_slices(&kiv[..16], &kiv[16..])
        .map_err(|_| CipherError::BadPadding)?
        .decrypt_padded_mut::<Pkcs7>(&mut buf)
        .map_err(|_| CipherError::BadPadding)?;
    Ok(Secret::new(String::from_utf8_lossy(clear).into_owned()))
}

/// Encrypts `clear` with `password`, given the 8-byte salt and the filler bytes (at least 7),
/// and returns the undecorated base64 payload. Deterministic; for tests and [`encrypt`].
pub(crate) fn encrypt_with(
    clear: &str,
    password: &str,
    salt: &[u8; SALT_LEN],
    filler: &[u8],
) -> String {
    let kiv = key_iv(password, salt);
    let ct = Aes128CbcEnc::new_from_slices(&kiv[..16], &kiv[16..])
        .map(|c| c.encrypt_padded_vec_mut::<Pkcs7>(clear.as_bytes()))
        // 16-byte key and IV slices always have the right length.
        .unwrap_or_default();
    let pad_len = BLOCK - (SALT_LEN + ct.len() + 1) % BLOCK;
    let mut blob = Zeroizing::new(Vec::with_capacity(SALT_LEN + 1 + ct.len() + pad_len));
    blob.extend_from_slice(salt);
    blob.push(pad_len as u8);
    blob.extend_from_slice(&ct);
    blob.extend(filler.iter().copied().cycle().take(pad_len));
    base64_codec::encode(&blob)
}

/// Encrypts `clear` with `password` and a random salt and filler (plexus-cipher `encrypt`).
/// An empty `clear` stays empty, as in plexus-cipher.
pub(crate) fn encrypt(clear: &str, password: &str) -> String {
    if clear.is_empty() {
        return String::new();
    }
    let mut salt = [0u8; SALT_LEN];
    let mut filler = [0u8; BLOCK];
    let mut rng = rand::rngs::OsRng;
    rng.fill_bytes(&mut salt);
    rng.fill_bytes(&mut filler);
    encrypt_with(clear, password, &salt, &filler)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_vectors_d1_d2() {
        let salt = [0, 1, 2, 3, 4, 5, 6, 7];
        assert_eq!(
            hex::encode(*key_iv("masterPw", &salt)),
            "495222c861c26fc54db11197a04beae66fe0a290790c299c76c72d54d977d12b"
        );
        assert_eq!(
            encrypt_with("secret", "masterPw", &salt, &[0xAA]),
            "AAECAwQFBgcHwhKV1UfKUE7cJY/4QsAQ86qqqqqqqqo="
        );
        assert_eq!(
            encrypt_with("masterPw", MASTER_PASSWORD_KEY, &salt, &[0xAA]),
            "AAECAwQFBgcH7mA1BBMGqmEAnsuSGYKFp6qqqqqqqqo="
        );
    }

    #[test]
    fn decrypt_table() {
        let ok =
            |p: &str, pw: &str| decrypt(p, pw, Base64Mode::Lenient).map(|s| s.expose().to_string());
        let cases: &[(&str, &str, Result<&str, CipherError>)] = &[
            (
                "ibeHrdCOonkH7d7YnH7sarQLbwOk1ljkkM/z8hUhl4c=",
                "testtest",
                Ok("veryOpenText"),
            ),
            (
                "ibeHrdCOonkH7d7YnH7sarQLbwOk1ljkkM/z8hUhl4c=",
                "wrong",
                Err(CipherError::BadPadding),
            ),
            (
                "ibeHrdCOonkH7d7YnH7sarQLbwOk1ljkkM/z8hUhl4c=",
                "testtesT",
                Err(CipherError::BadPadding),
            ),
            ("abc", "x", Err(CipherError::TooShort { len: 3, min: 9 })),
            (
                "AAECAwQFBgcH",
                "x",
                Err(CipherError::BadLayout { pad_len: 7, len: 9 }),
            ),
            ("", "x", Ok("")),
            (
                "1wQa a6S/o8MH7F naTNL53XmhT5O0SEGXQi3gC49o6OY=\n",
                MASTER_PASSWORD_KEY,
                Ok("testtest"),
            ),
        ];
        for (payload, pw, expected) in cases {
            let got = ok(payload, pw);
            match expected {
                Ok(v) => assert_eq!(got.as_deref(), Ok(*v), "{payload}"),
                Err(e) => assert_eq!(got.as_ref().err(), Some(e), "{payload}"),
            }
        }
        // Strict base64 (Maven 4 legacy dispatcher) refuses the whitespace variant.
        assert!(matches!(
            decrypt(
                "1wQa a6S/o8MH7F naTNL53XmhT5O0SEGXQi3gC49o6OY=\n",
                MASTER_PASSWORD_KEY,
                Base64Mode::Strict
            ),
            Err(CipherError::Base64(_))
        ));
    }

    #[test]
    fn round_trip_random() {
        for clear in [
            "x",
            "0123456789abcdef",
            "p@ss wörd",
            "a much longer secret spanning blocks",
        ] {
            let enc = encrypt(clear, "pw");
            assert_eq!(base64_codec::decode_strict(&enc).unwrap().len() % 16, 0);
            assert_eq!(
                decrypt(&enc, "pw", Base64Mode::Strict).unwrap().expose(),
                clear
            );
        }
        assert_eq!(encrypt("", "pw"), "");
    }
}
