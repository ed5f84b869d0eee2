//! [`Decryptor`]: the lazy, caching, thread-safe entry point the rest of the library uses.
//!
//! - Maven 3 values (`{...}` anywhere in the text) follow plexus-sec-dispatcher 2.0 as in Maven
//!   3.8.7: the first `{...}` is the payload, `settings-security.xml` (with `<relocation>`) gives
//!   the master password, the lenient base64 decoder is used.
//! - Maven 4 values (`{[name=...,version=...]...}`) follow plexus-sec-dispatcher 4.x with
//!   `settings-security4.xml`: dispatchers `master` (AES-GCM with a master-password source),
//!   `legacy` and `masterSourceLookup`.
//!
//! Every file is read at most once, every master password obtained at most once (so a
//! pinentry or gpg-agent prompt appears once), every distinct value decrypted at most once
//! (so PBKDF2 runs only for values actually asked for). Concurrent requests for the same
//! thing wait for the first one instead of repeating it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use super::context::SecurityContext;
use super::decoration::{
    maven3_attributes, maven3_payload, maven4_legacy_payload, maven4_parse, Maven4Value,
};
use super::error::SecurityError;
use super::gcm_cipher::{self, CIPHER_NAME};
use super::legacy_cipher::{self, Base64Mode, MASTER_PASSWORD_KEY};
use super::master_source::resolve_master_source;
use super::security_file::{self, LegacySecurityFile, Maven4SecurityFile};
use crate::Secret;

type Cell = Arc<OnceLock<Result<Secret, SecurityError>>>;

/// The Maven 4 dispatchers this library implements.
const MAVEN4_DISPATCHERS: &str = "master, legacy, masterSourceLookup";
/// The version written into Maven 4 values (plexus-sec-dispatcher's specification version).
const SPEC_VERSION: &str = "4.0";

/// Decrypts settings values on demand and remembers the results. `Send + Sync`: share one
/// behind an `Arc` between threads.
///
/// ```
/// use m2resolver::security::{encrypt_master_password, encrypt_password, Decryptor, SecurityContext};
/// let dir = tempfile::tempdir().unwrap();
/// let file = dir.path().join("settings-security.xml");
/// let master = encrypt_master_password("masterPw");
/// std::fs::write(&file, format!("<settingsSecurity><master>{master}</master></settingsSecurity>")).unwrap();
/// let ctx = SecurityContext::new(dir.path(), dir.path())
///     .with_property("settings.security", file.display().to_string());
/// let decryptor = Decryptor::new(ctx);
/// let value = encrypt_password("s3cret", "masterPw");
/// assert_eq!(decryptor.decrypt(&value).unwrap().expose(), "s3cret");
/// assert_eq!(decryptor.decrypt("plain").unwrap().expose(), "plain");
/// ```
pub struct Decryptor {
    ctx: SecurityContext,
    legacy_file: OnceLock<Result<LegacySecurityFile, SecurityError>>,
    legacy_master: OnceLock<Result<Secret, SecurityError>>,
    maven4_file: OnceLock<Result<Option<Maven4SecurityFile>, SecurityError>>,
    legacy_dispatcher_master: OnceLock<Result<Secret, SecurityError>>,
    sources: Mutex<HashMap<String, Cell>>,
    values: Mutex<HashMap<String, Cell>>,
}

impl std::fmt::Debug for Decryptor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decryptor")
            .field("ctx", &self.ctx)
            .finish_non_exhaustive()
    }
}

/// The cell for `key`, created if missing. The map lock is held only for the lookup.
fn cell(map: &Mutex<HashMap<String, Cell>>, key: &str) -> Cell {
    let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
    map.entry(key.to_string()).or_default().clone()
}

impl Decryptor {
    /// A decryptor that reads nothing until a value needs it.
    pub fn new(ctx: SecurityContext) -> Decryptor {
        Decryptor {
            ctx,
            legacy_file: OnceLock::new(),
            legacy_master: OnceLock::new(),
            maven4_file: OnceLock::new(),
            legacy_dispatcher_master: OnceLock::new(),
            sources: Mutex::new(HashMap::new()),
            values: Mutex::new(HashMap::new()),
        }
    }

    /// The inputs this decryptor reads.
    pub fn context(&self) -> &SecurityContext {
        &self.ctx
    }

    /// Decrypts a settings value the way Maven 3.8.7 does for `{...}` values, and the way
    /// Maven 4 does for `{[name=...]...}` values. Plain values come back unchanged.
    pub fn decrypt(&self, value: &str) -> Result<Secret, SecurityError> {
        if maven4_parse(value).is_some() {
            return self.cached(&format!("4:{value}"), || {
                self.decrypt_maven4_uncached(value)
            });
        }
        if maven3_payload(value).is_none() {
            return Ok(Secret::new(value));
        }
        self.cached(&format!("3:{value}"), || {
            self.decrypt_maven3_uncached(value)
        })
    }

    /// Decrypts as Maven 4 alone would (plexus-sec-dispatcher 4.x): legacy `{...}` values go
    /// to the `legacy` dispatcher (master from `settings-security.xml` without relocation,
    /// plaintext master allowed, strict base64). Plain values come back unchanged.
    pub fn decrypt_maven4(&self, value: &str) -> Result<Secret, SecurityError> {
        if maven4_parse(value).is_none() && maven4_legacy_payload(value).is_none() {
            return Ok(Secret::new(value));
        }
        self.cached(&format!("4:{value}"), || {
            self.decrypt_maven4_uncached(value)
        })
    }

    fn cached(
        &self,
        key: &str,
        compute: impl FnOnce() -> Result<Secret, SecurityError>,
    ) -> Result<Secret, SecurityError> {
        cell(&self.values, key).get_or_init(compute).clone()
    }

    fn decrypt_maven3_uncached(&self, value: &str) -> Result<Secret, SecurityError> {
        let Some(bare) = maven3_payload(value) else {
            return Ok(Secret::new(value));
        };
        let attributes = maven3_attributes(bare);
        // plexus-sec-dispatcher 2.0 reads the file before looking at the attributes.
        self.legacy_security_file()?;
        if let Some(kind) = attributes.as_ref().and_then(|a| a.get("type")) {
            return Err(SecurityError::UnknownDispatcher {
                name: kind.clone(),
                known: "none; Maven 3 decrypts only untyped {...} values",
            });
        }
        let master = self.master_password()?;
        legacy_cipher::decrypt(bare, master.expose(), Base64Mode::Lenient)
            .map_err(SecurityError::Decrypt)
    }

    /// The legacy `settings-security.xml` (after relocation), read once.
    pub fn legacy_security_file(&self) -> Result<&LegacySecurityFile, SecurityError> {
        self.legacy_file
            .get_or_init(|| {
                let start = security_file::legacy_location(&self.ctx)?;
                security_file::read_legacy(&start, &self.ctx)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The Maven 3 master password: `<master>` of `settings-security.xml` decrypted with the
    /// key `settings.security` (content of its first `{...}`, else the whole text). Once.
    pub fn master_password(&self) -> Result<Secret, SecurityError> {
        self.legacy_master
            .get_or_init(|| {
                let file = self.legacy_security_file()?;
                let Some(master) = file.master.as_deref() else {
                    return Err(SecurityError::MasterNotSet {
                        path: file.path.clone(),
                    });
                };
                let payload = maven3_payload(master).unwrap_or(master);
                legacy_cipher::decrypt(payload, MASTER_PASSWORD_KEY, Base64Mode::Lenient).map_err(
                    |reason| SecurityError::MasterDecrypt {
                        path: file.path.clone(),
                        reason,
                    },
                )
            })
            .clone()
    }

    /// Encrypts `clear` for Maven 3 with the master password of `settings-security.xml`
    /// (what `mvn --encrypt-password` prints).
    pub fn encrypt_password(&self, clear: &str) -> Result<String, SecurityError> {
        let master = self.master_password()?;
        Ok(super::encrypt_password(clear, master.expose()))
    }

    /// `settings-security4.xml`, read once (`None` when it does not exist).
    pub fn maven4_security_file(&self) -> Result<Option<&Maven4SecurityFile>, SecurityError> {
        self.maven4_file
            .get_or_init(|| security_file::read_maven4(&security_file::maven4_location(&self.ctx)))
            .as_ref()
            .map(Option::as_ref)
            .map_err(Clone::clone)
    }

    /// A master-password source specification resolved once.
    fn source_password(&self, spec: &str) -> Result<Secret, SecurityError> {
        cell(&self.sources, spec)
            .get_or_init(|| resolve_master_source(spec, &self.ctx))
            .clone()
    }

    fn decrypt_maven4_uncached(&self, value: &str) -> Result<Secret, SecurityError> {
        if let Some(parsed) = maven4_parse(value) {
            let name = parsed.attribute("name").unwrap_or_default().to_string();
            return self.dispatch(&name, &parsed);
        }
        match maven4_legacy_payload(value) {
            Some(payload) => self.legacy_dispatcher_decrypt(payload),
            None => Ok(Secret::new(value)),
        }
    }

    fn dispatch(&self, name: &str, value: &Maven4Value<'_>) -> Result<Secret, SecurityError> {
        if !matches!(name, "master" | "legacy" | "masterSourceLookup") {
            return Err(SecurityError::UnknownDispatcher {
                name: name.to_string(),
                known: MAVEN4_DISPATCHERS,
            });
        }
        // Maven 4 reads the configuration for every dispatcher (a broken file breaks all).
        let file = self.maven4_security_file()?;
        match name {
            "master" => {
                let cipher = value.attribute("cipher").ok_or_else(|| {
                    SecurityError::MalformedAttributes {
                        reason: "missing attribute 'cipher'".into(),
                    }
                })?;
                if cipher != CIPHER_NAME {
                    return Err(SecurityError::UnknownCipher {
                        name: cipher.to_string(),
                    });
                }
                let master = self.master_source_password(file, "master")?;
                gcm_cipher::decrypt(value.payload, master.expose()).map_err(SecurityError::Decrypt)
            }
            "legacy" => self.legacy_dispatcher_decrypt(value.payload),
            _ => self.source_password(value.payload),
        }
    }

    /// The `source` of a dispatcher's configuration, resolved.
    fn master_source_password(
        &self,
        file: Option<&Maven4SecurityFile>,
        dispatcher: &str,
    ) -> Result<Secret, SecurityError> {
        let spec = file
            .and_then(|f| f.config(dispatcher))
            .and_then(|c| c.into_iter().find(|(k, _)| k == "source").map(|(_, v)| v))
            .ok_or_else(|| SecurityError::MissingConfiguration {
                dispatcher: dispatcher.to_string(),
                key: "source".into(),
                path: self.maven4_path(),
            })?;
        self.source_password(&spec)
    }

    fn maven4_path(&self) -> PathBuf {
        security_file::maven4_location(&self.ctx)
    }

    fn legacy_dispatcher_decrypt(&self, payload: &str) -> Result<Secret, SecurityError> {
        let master = self
            .legacy_dispatcher_master
            .get_or_init(|| {
                let path = security_file::legacy_dispatcher_location(&self.ctx);
                let Some(master) = security_file::legacy_dispatcher_master(&path) else {
                    return Err(SecurityError::LegacyMasterUnavailable { path });
                };
                if master.len() >= 2 && master.starts_with('{') && master.ends_with('}') {
                    legacy_cipher::decrypt(
                        &master[1..master.len() - 1],
                        MASTER_PASSWORD_KEY,
                        Base64Mode::Strict,
                    )
                    .map_err(|reason| SecurityError::MasterDecrypt { path, reason })
                } else {
                    Ok(Secret::new(master))
                }
            })
            .clone()?;
        legacy_cipher::decrypt(payload, master.expose(), Base64Mode::Strict)
            .map_err(SecurityError::Decrypt)
    }

    /// Encrypts `clear` with the default dispatcher of `settings-security4.xml` (what
    /// `mvnenc encrypt` prints). Already-encrypted Maven 4 values come back unchanged.
    pub fn encrypt_with_default_dispatcher(&self, clear: &str) -> Result<String, SecurityError> {
        if maven4_parse(clear).is_some() {
            return Ok(clear.to_string());
        }
        let path = self.maven4_path();
        let Some(file) = self.maven4_security_file()? else {
            return Err(SecurityError::NoConfiguration { path });
        };
        let Some(name) = file.default_dispatcher.as_deref() else {
            return Err(SecurityError::NoDefaultDispatcher { path });
        };
        match name {
            "master" => {
                let cipher = file
                    .config("master")
                    .and_then(|c| c.into_iter().find(|(k, _)| k == "cipher").map(|(_, v)| v))
                    .ok_or_else(|| SecurityError::MissingConfiguration {
                        dispatcher: "master".into(),
                        key: "cipher".into(),
                        path: path.clone(),
                    })?;
                if cipher != CIPHER_NAME {
                    return Err(SecurityError::UnknownCipher { name: cipher });
                }
                let master = self.master_source_password(Some(file), "master")?;
                Ok(super::encrypt_v4(clear, &master))
            }
            "legacy" => Err(SecurityError::LegacyEncrypt),
            "masterSourceLookup" => {
                // Only checks that the reference resolves; the reference itself is stored.
                self.source_password(clear)?;
                Ok(format!(
                    "{{[name=masterSourceLookup,version={SPEC_VERSION}]{clear}}}"
                ))
            }
            other => Err(SecurityError::UnknownDispatcher {
                name: other.to_string(),
                known: MAVEN4_DISPATCHERS,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn decryptor_is_send_and_sync() {
        assert_send_sync::<Decryptor>();
        assert_send_sync::<SecurityError>();
    }
}
