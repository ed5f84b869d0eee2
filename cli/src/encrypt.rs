//! `m2r encrypt-master-password` and `m2r encrypt-password`: what `mvn --encrypt-master-password`
//! and `mvn --encrypt-password` print (Maven 3 `{...}` format, readable by Maven 3 and 4).
//!
//! Owns reading the password (argument, else the terminal without echo, else the first line of
//! stdin) and turning errors into one line of text. The ciphers live in
//! `m2resolver::security`; clap wiring lives in `main.rs`.

use std::io::{BufRead, IsTerminal};

use m2resolver::security::{self, Decryptor, SecurityContext};
use zeroize::Zeroizing;

/// Encrypts a master password with the key `settings.security`; put the result in
/// `<master>` of `~/.m2/settings-security.xml`.
pub fn encrypt_master_password(password_arg: Option<String>) -> Result<String, String> {
    let clear = read_password(password_arg, "Master password: ")?;
    Ok(security::encrypt_master_password(&clear))
}

/// Encrypts a server password with the master password of `settings-security.xml` (found
/// through `ctx`: property `settings.security`, else `~/.m2/settings-security.xml`).
pub fn encrypt_password(
    password_arg: Option<String>,
    ctx: SecurityContext,
) -> Result<String, String> {
    // Fail before prompting if there is no usable master password.
    let master = Decryptor::new(ctx)
        .master_password()
        .map_err(|e| e.to_string())?;
    let clear = read_password(password_arg, "Password: ")?;
    Ok(security::encrypt_password(&clear, master.expose()))
}

/// `m2r encrypt-password`: the security inputs come from the process, `-D` options (parsed
/// as Maven does) and `--security`, as the library's session builder assembles them; `--maven4`
/// encrypts with the default dispatcher of `settings-security4.xml`.
pub fn encrypt_password_command(
    password_arg: Option<String>,
    security: Option<std::path::PathBuf>,
    defines: &[String],
    maven4: bool,
) -> Result<String, String> {
    let mut builder = m2resolver::Session::builder();
    for d in defines {
        builder = builder.define(d);
    }
    if let Some(file) = security {
        builder = builder.security_file(file);
    }
    let ctx = builder.security_context();
    if !maven4 {
        return encrypt_password(password_arg, ctx);
    }
    let decryptor = Decryptor::new(ctx);
    let clear = read_password(password_arg, "Password: ")?;
    decryptor
        .encrypt_with_default_dispatcher(&clear)
        .map_err(|e| e.to_string())
}

/// The argument, else a no-echo prompt on a terminal, else the first line of stdin.
pub fn read_password(arg: Option<String>, prompt: &str) -> Result<Zeroizing<String>, String> {
    if let Some(arg) = arg {
        return Ok(Zeroizing::new(arg));
    }
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return rpassword::prompt_password(prompt)
            .map(Zeroizing::new)
            .map_err(|e| format!("cannot read the password from the terminal: {e}"));
    }
    let mut line = Zeroizing::new(String::new());
    stdin
        .lock()
        .read_line(&mut line)
        .map_err(|e| format!("cannot read the password from standard input: {e}"))?;
    let trimmed = line.trim_end_matches(['\n', '\r']).len();
    line.truncate(trimmed);
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use m2resolver::security::{decrypt_password, MASTER_PASSWORD_KEY};

    #[test]
    fn encrypts_master_and_password_with_arguments() {
        let master = encrypt_master_password(Some("masterPw".into())).unwrap();
        assert_eq!(
            decrypt_password(&master, MASTER_PASSWORD_KEY)
                .unwrap()
                .expose(),
            "masterPw"
        );

        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("settings-security.xml");
        std::fs::write(
            &file,
            format!("<settingsSecurity><master>{master}</master></settingsSecurity>"),
        )
        .unwrap();
        let ctx = SecurityContext::new(dir.path(), dir.path())
            .with_property("settings.security", file.display().to_string());
        let value = encrypt_password(Some("server pw".into()), ctx).unwrap();
        assert_eq!(
            decrypt_password(&value, "masterPw").unwrap().expose(),
            "server pw"
        );
    }

    #[test]
    fn encrypt_password_without_security_file_fails_before_prompting() {
        let dir = tempfile::tempdir().unwrap();
        let e = encrypt_password(None, SecurityContext::new(dir.path(), dir.path())).unwrap_err();
        assert!(e.contains("settings-security.xml not found"), "{e}");
    }
}
