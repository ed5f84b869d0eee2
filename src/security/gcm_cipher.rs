//! Maven 4 cipher `AES/GCM/NoPadding` (plexus-sec-dispatcher 4.x `AESGCMNoPadding`).
//!
//! ```text
//! key     = PBKDF2-HMAC-SHA512(UTF-8(master), salt, 310000 iterations, 32 bytes)   # AES-256
//! payload = base64( iv(12) || salt(16) || AES-256-GCM(key, iv, clear) || tag(16) )  # no AAD
//! ```
//! Owns the cipher only. One PBKDF2 run per value (each value has its own salt) is the cost of
//! a decryption, about 0.1-0.3 s in an optimised build: callers cache results (see `Decryptor`).

use std::sync::atomic::{AtomicUsize, Ordering};

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes256Gcm, Nonce};
use rand::RngCore;
use zeroize::Zeroizing;

use super::base64_codec;
use super::error::CipherError;
use crate::Secret;

/// The cipher name in `cipher=` attributes and `settings-security4.xml`.
pub const CIPHER_NAME: &str = "AES/GCM/NoPadding";
/// PBKDF2 iterations (`AESGCMNoPadding.PBE_ITERATIONS`).
pub const PBKDF2_ITERATIONS: u32 = 310_000;
const SALT_LEN: usize = 16;
const IV_LEN: usize = 12;
const TAG_LEN: usize = 16;

/// Number of PBKDF2 derivations run by this process (for tests and benchmarks).
static DERIVATIONS: AtomicUsize = AtomicUsize::new(0);

/// How many PBKDF2 key derivations this process has run so far.
pub fn key_derivations() -> usize {
    DERIVATIONS.load(Ordering::Relaxed)
}

fn derive_key(master: &str, salt: &[u8]) -> Zeroizing<[u8; 32]> {
    DERIVATIONS.fetch_add(1, Ordering::Relaxed);
    let mut key = Zeroizing::new([0u8; 32]);
    pbkdf2::pbkdf2_hmac::<sha2::Sha512>(master.as_bytes(), salt, PBKDF2_ITERATIONS, &mut *key);
    key
}

/// Decrypts a base64 payload with the master password.
pub(crate) fn decrypt(payload: &str, master: &str) -> Result<Secret, CipherError> {
    let blob = Zeroizing::new(base64_codec::decode_strict(payload)?);
    let min = IV_LEN + SALT_LEN + TAG_LEN;
    if blob.len() < min {
        return Err(CipherError::TooShort {
            len: blob.len(),
            min,
        });
    }
    let (iv, rest) = blob.split_at(IV_LEN);
    let (salt, ct) = rest.split_at(SALT_LEN);
    let key = derive_key(master, salt);
    let cipher = Aes256Gcm::new_from_slice(&*key).map_err(|_| CipherError::BadTag)?;
    let clear = Zeroizing::new(
        cipher
            .decrypt(Nonce::from_slice(iv), ct)
            .map_err(|_| CipherError::BadTag)?,
    );
    Ok(Secret::new(String::from_utf8_lossy(&clear).into_owned()))
}

/// Encrypts with the given IV and salt (deterministic; for tests) and returns the payload.
pub(crate) fn encrypt_with(
    clear: &str,
    master: &str,
    iv: &[u8; IV_LEN],
    salt: &[u8; SALT_LEN],
) -> String {
    let key = derive_key(master, salt);
    let ct = Aes256Gcm::new_from_slice(&*key)
        .ok()
        .and_then(|c| c.encrypt(Nonce::from_slice(iv), clear.as_bytes()).ok())
        // A 32-byte key is always valid and AES-GCM encryption of a short text cannot fail.
        .unwrap_or_default();
    let mut blob = Vec::with_capacity(IV_LEN + SALT_LEN + ct.len());
    blob.extend_from_slice(iv);
    blob.extend_from_slice(salt);
    blob.extend_from_slice(&ct);
    base64_codec::encode(&blob)
}

/// Encrypts with a random IV and salt and returns the payload.
pub(crate) fn encrypt(clear: &str, master: &str) -> String {
    let mut iv = [0u8; IV_LEN];
    let mut salt = [0u8; SALT_LEN];
    let mut rng = rand::rngs::OsRng;
    rng.fill_bytes(&mut iv);
    rng.fill_bytes(&mut salt);
    encrypt_with(clear, master, &iv, &salt)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_vector_and_round_trip() {
        let iv: [u8; 12] = core::array::from_fn(|i| i as u8);
        let salt: [u8; 16] = core::array::from_fn(|i| 0x10 + i as u8);
        let payload = encrypt_with("supersecret", "masterPw", &iv, &salt);
        assert_eq!(
            payload,
            "AAECAwQFBgcICQoLEBESExQVFhcYGRobHB0eH7BoN4ZaByNQIXU6vXp8ZMWYrYAQKrPPAB4bDQ=="
        );
        assert_eq!(
            decrypt(&payload, "masterPw").unwrap().expose(),
            "supersecret"
        );
        assert_eq!(
            decrypt(&payload, "masterpw").err(),
            Some(CipherError::BadTag)
        );
        assert!(matches!(
            decrypt("AAEC", "x"),
            Err(CipherError::TooShort { .. })
        ));
        assert!(matches!(decrypt("AA EC", "x"), Err(CipherError::Base64(_))));
    }
}
