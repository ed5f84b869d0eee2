//! Master password sources of Maven 4's `master` dispatcher (`source` configuration values such
//! as `env:MAVEN_MASTER_PASSWORD`) and of the `masterSourceLookup` dispatcher.
//!
//! A [`MasterSource`] claims a specification by its prefix and then either delivers the
//! password or fails with a reason; the first source that claims wins. Built in:
//!
//! | prefix | source |
//! |---|---|
//! | `env:NAME` | [`EnvSource`]: environment variable from the [`SecurityContext`] |
//! | `system-property:NAME` | [`SystemPropertySource`]: property from the context |
//! | `file:/abs/path` | [`FileSource`]: first line not starting with `#`, trimmed |
//! | `gpg-agent:<socket>[?non-interactive]` | [`GpgAgentSource`]: Assuan `GET_PASSPHRASE` over a Unix socket |
//! | `pinentry-prompt:/path` | [`PinentrySource`]: runs pinentry, Assuan `GETPIN` over stdin/stdout |
//!
//! Embedding tools add their own (a prompt, a keychain) with
//! [`SecurityContext::with_master_source`]; closures `Fn(&str, &SecurityContext) ->
//! Option<Result<Secret, SecurityError>>` are sources too. Not owned here: caching (the
//! `Decryptor` asks each specification once).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::context::SecurityContext;
use super::error::SecurityError;
use crate::Secret;

/// A source of master passwords.
///
/// ```
/// use std::sync::Arc;
/// use m2resolver::security::{resolve_master_source, MasterSource, SecurityContext, SecurityError};
/// use m2resolver::Secret;
///
/// // A keychain hook: claims `keychain:NAME`.
/// let keychain = |spec: &str, _ctx: &SecurityContext| -> Option<Result<Secret, SecurityError>> {
///     let name = spec.strip_prefix("keychain:")?;
///     Some(Ok(Secret::new(format!("pw-of-{name}"))))
/// };
/// let ctx = SecurityContext::new("/home/me", "/").with_master_source(Arc::new(keychain));
/// assert_eq!(resolve_master_source("keychain:maven", &ctx).unwrap().expose(), "pw-of-maven");
/// assert!(resolve_master_source("nope:x", &ctx).is_err());
/// ```
pub trait MasterSource: Send + Sync {
    /// `None` if this source does not handle `spec`; otherwise the password or why it failed.
    fn handle(&self, spec: &str, ctx: &SecurityContext) -> Option<Result<Secret, SecurityError>>;
}

impl<F> MasterSource for F
where
    F: Fn(&str, &SecurityContext) -> Option<Result<Secret, SecurityError>> + Send + Sync,
{
    fn handle(&self, spec: &str, ctx: &SecurityContext) -> Option<Result<Secret, SecurityError>> {
        self(spec, ctx)
    }
}

fn fail(spec: &str, reason: impl Into<String>) -> SecurityError {
    SecurityError::MasterSource {
        spec: spec.to_string(),
        reason: reason.into(),
    }
}

/// `env:NAME`: the environment variable `NAME` of the context.
#[derive(Debug, Clone, Copy, Default)]
pub struct EnvSource;

impl MasterSource for EnvSource {
    fn handle(&self, spec: &str, ctx: &SecurityContext) -> Option<Result<Secret, SecurityError>> {
        let name = spec.strip_prefix("env:")?;
        Some(
            ctx.env_var(name)
                .map(Secret::new)
                .ok_or_else(|| fail(spec, format!("Environment variable '{name}' not found"))),
        )
    }
}

/// `system-property:NAME`: the property `NAME` of the context.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemPropertySource;

impl MasterSource for SystemPropertySource {
    fn handle(&self, spec: &str, ctx: &SecurityContext) -> Option<Result<Secret, SecurityError>> {
        let name = spec.strip_prefix("system-property:")?;
        Some(
            ctx.property(name)
                .map(Secret::new)
                .ok_or_else(|| fail(spec, format!("System property '{name}' not found"))),
        )
    }
}

/// `file:/abs/path`: the first line of the file that does not start with `#`, trimmed. The
/// path must be absolute.
#[derive(Debug, Clone, Copy, Default)]
pub struct FileSource;

impl MasterSource for FileSource {
    fn handle(&self, spec: &str, _ctx: &SecurityContext) -> Option<Result<Secret, SecurityError>> {
        let name = spec.strip_prefix("file:")?;
        let path = Path::new(name);
        let not_found = || {
            fail(
                spec,
                format!("File '{name}' not found or is not readable (the path must be absolute)"),
            )
        };
        if !path.is_absolute() || !path.exists() {
            return Some(Err(not_found()));
        }
        let limit = super::security_file::MAX_SECURITY_FILE_BYTES;
        let text = match crate::bounded::read_regular_file(path, limit) {
            Ok(bytes) => zeroize::Zeroizing::new(String::from_utf8_lossy(&bytes).into_owned()),
            Err(e) => {
                return Some(Err(fail(
                    spec,
                    format!(
                        "Failed to read file '{name}': {}",
                        crate::printable::error_chain(&e)
                    ),
                )))
            }
        };
        let line = java_lines(&text).into_iter().find(|l| !l.starts_with('#'));
        Some(line.map(|l| Secret::new(l.trim())).ok_or_else(not_found))
    }
}

/// Java's `Files.readAllLines`: lines end at `\n`, `\r` or `\r\n`; no empty last line.
fn java_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                lines.push(&text[start..i]);
                start = i + 1;
            }
            b'\r' => {
                lines.push(&text[start..i]);
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
}

/// `gpg-agent:<socket>[?non-interactive]`: asks a running gpg-agent (`GET_PASSPHRASE`, cache id
/// `plexus:secDispatcherMasterPassword`). A relative socket path resolves against `user.home`.
#[derive(Debug, Clone, Copy)]
pub struct GpgAgentSource {
    /// Longest wait for each reply (the agent may be showing a prompt).
    pub timeout: Duration,
}

impl Default for GpgAgentSource {
    fn default() -> Self {
        GpgAgentSource {
            timeout: Duration::from_secs(120),
        }
    }
}

/// A reply line safe to show in an error (never a data line, at most 80 characters).
fn shown(line: &str) -> String {
    if line.starts_with("D ") {
        return "D <data>".into();
    }
    line.chars().take(80).collect()
}

impl MasterSource for GpgAgentSource {
    fn handle(&self, spec: &str, ctx: &SecurityContext) -> Option<Result<Secret, SecurityError>> {
        let rest = spec.strip_prefix("gpg-agent:")?;
        let (socket, extra) = match rest.find('?') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        };
        let interactive = !extra.contains("non-interactive");
        let socket = Path::new(socket);
        let socket = if socket.is_absolute() {
            socket.to_path_buf()
        } else {
            ctx.user_home.join(socket)
        };
        Some(
            self.ask(&socket, interactive, ctx)
                .map_err(|reason| fail(spec, reason)),
        )
    }
}

impl GpgAgentSource {
    #[cfg(unix)]
    fn ask(
        &self,
        socket: &Path,
        interactive: bool,
        ctx: &SecurityContext,
    ) -> Result<Secret, String> {
        use std::os::unix::net::UnixStream;
        let stream = UnixStream::connect(socket).map_err(|e| {
            format!(
                "cannot connect to gpg-agent socket {}: {e}",
                socket.display()
            )
        })?;
        let io_err = |e: std::io::Error| format!("gpg-agent socket {}: {e}", socket.display());
        stream
            .set_read_timeout(Some(self.timeout))
            .map_err(io_err)?;
        stream
            .set_write_timeout(Some(self.timeout))
            .map_err(io_err)?;
        let mut writer = stream.try_clone().map_err(io_err)?;
        let mut reader = BufReader::new(stream);
        let mut read_line = || -> Result<String, String> {
            loop {
                let mut line = String::new();
                let n = reader.read_line(&mut line).map_err(io_err)?;
                if n == 0 {
                    return Err("gpg-agent closed the connection".into());
                }
                let line = line.trim_end_matches(['\n', '\r']).to_string();
                // Comment and status lines carry no answer.
                if line.starts_with('#') || line.starts_with("S ") {
                    continue;
                }
                return Ok(line);
            }
        };
        let expect_ok = |line: String| -> Result<(), String> {
            if line.starts_with("OK") {
                Ok(())
            } else {
                Err(format!(
                    "Expected OK but got this instead: {}",
                    shown(&line)
                ))
            }
        };
        expect_ok(read_line()?)?;
        for (option, var) in [("display", "DISPLAY"), ("ttytype", "TERM")] {
            if let Some(value) = ctx.env_var(var) {
                writer
                    .write_all(format!("OPTION {option}={value}\n").as_bytes())
                    .map_err(io_err)?;
                expect_ok(read_line()?)?;
            }
        }
        let command = format!(
            "GET_PASSPHRASE {}plexus:secDispatcherMasterPassword X Maven+Master+Password \
             Please+enter+your+Maven+master+password+to+use+it+for+decrypting+Maven+Settings\n",
            if interactive { "" } else { "--no-ask " }
        );
        writer.write_all(command.as_bytes()).map_err(io_err)?;
        let reply = zeroize::Zeroizing::new(read_line()?);
        if reply.starts_with("ERR") {
            return Err(format!("gpg-agent gave no passphrase: {}", shown(&reply)));
        }
        if !reply.starts_with("OK") {
            return Err(format!(
                "Expected OK/ERR but got this instead: {}",
                shown(&reply)
            ));
        }
        let hex_part = reply.get(3.min(reply.len())..).unwrap_or("").trim();
        let bytes = zeroize::Zeroizing::new(
            hex::decode(hex_part)
                .map_err(|_| "gpg-agent sent a passphrase that is not hex".to_string())?,
        );
        Ok(Secret::new(String::from_utf8_lossy(&bytes).into_owned()))
    }

    #[cfg(not(unix))]
    fn ask(
        &self,
        _socket: &Path,
        _interactive: bool,
        _ctx: &SecurityContext,
    ) -> Result<Secret, String> {
        Err("gpg-agent sources need Unix domain sockets, not available on this platform".into())
    }
}

/// `pinentry-prompt:/path/to/pinentry`: runs the program and asks for the PIN with the Assuan
/// protocol (`SETTIMEOUT 30`, `SETKEYINFO Maven: n/masterPassword`, titles, `GETPIN`).
#[derive(Debug, Clone, Copy)]
pub struct PinentrySource {
    /// Longest wait for the whole dialogue.
    pub timeout: Duration,
}

impl Default for PinentrySource {
    fn default() -> Self {
        PinentrySource {
            timeout: Duration::from_secs(60),
        }
    }
}

/// Commands sent before `GETPIN`, in plexus-sec-dispatcher's order.
const PINENTRY_COMMANDS: [&str; 8] = [
    "SETTIMEOUT 30",
    "OPTION allow-external-password-cache",
    "SETKEYINFO Maven: n/masterPassword",
    "SETTITLE Maven Master Password",
    "SETDESC Please enter the Maven master password",
    "SETPROMPT Maven master password",
    "SETOK Ok",
    "SETCANCEL Cancel",
];

impl MasterSource for PinentrySource {
    fn handle(&self, spec: &str, _ctx: &SecurityContext) -> Option<Result<Secret, SecurityError>> {
        let program = spec.strip_prefix("pinentry-prompt:")?;
        Some(self.ask(program).map_err(|reason| fail(spec, reason)))
    }
}

/// Kills the child when dropped unless it already exited.
struct Reaper(Child);

impl Drop for Reaper {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

impl PinentrySource {
    fn ask(&self, program: &str) -> Result<Secret, String> {
        let deadline = Instant::now() + self.timeout;
        let child = Command::new(program)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("Could not collect the password: cannot run {program}: {e}"))?;
        let mut child = Reaper(child);
        let mut stdin = child
            .0
            .stdin
            .take()
            .ok_or("Could not collect the password: no stdin")?;
        let stdout = child
            .0
            .stdout
            .take()
            .ok_or("Could not collect the password: no stdout")?;
        let (tx, rx) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let next = || -> Result<String, String> {
            let left = deadline.saturating_duration_since(Instant::now());
            rx.recv_timeout(left).map_err(|e| match e {
                mpsc::RecvTimeoutError::Timeout => "Timeout".to_string(),
                mpsc::RecvTimeoutError::Disconnected => {
                    "Could not collect the password: pinentry closed its output".to_string()
                }
            })
        };
        let expect_ok = |line: String| -> Result<(), String> {
            if line.starts_with("OK") {
                Ok(())
            } else {
                Err(format!(
                    "Could not collect the password: Expected OK but got this instead: {}",
                    shown(&line)
                ))
            }
        };
        let mut send = |cmd: &str| -> Result<(), String> {
            writeln!(stdin, "{cmd}")
                .and_then(|_| stdin.flush())
                .map_err(|e| format!("Could not collect the password: {e}"))
        };
        expect_ok(next()?)?;
        for cmd in PINENTRY_COMMANDS {
            send(cmd)?;
            expect_ok(next()?)?;
        }
        send("GETPIN")?;
        let pin = loop {
            let line = zeroize::Zeroizing::new(next()?);
            if line.starts_with('#') || line.starts_with('S') {
                continue;
            }
            if line.starts_with("ERR") {
                if line.contains("83886142") {
                    return Err("Timeout".into());
                }
                if line.contains("83886179") {
                    return Err("User canceled the operation".into());
                }
                return Err(format!("Failure: {}", shown(&line)));
            }
            if line.starts_with('D') {
                break Secret::new(line.get(2..).unwrap_or(""));
            }
            if line.starts_with("OK") {
                // No data line: pinentry returned an empty PIN.
                break Secret::new("");
            }
        };
        let _ = send("BYE");
        drop(stdin);
        let wait_until = Instant::now() + Duration::from_secs(5);
        loop {
            match child.0.try_wait() {
                Ok(Some(status)) if status.success() => return Ok(pin),
                Ok(Some(status)) => {
                    return Err(format!(
                        "Failure: Exit code: {}",
                        status.code().unwrap_or(-1)
                    ))
                }
                Ok(None) if Instant::now() < wait_until => {
                    std::thread::sleep(Duration::from_millis(20))
                }
                Ok(None) => return Ok(pin),
                Err(e) => return Err(format!("Failure: {e}")),
            }
        }
    }
}

/// The built-in sources, in the order they are asked.
pub fn builtin_sources() -> Vec<Box<dyn MasterSource>> {
    vec![
        Box::new(EnvSource),
        Box::new(SystemPropertySource),
        Box::new(FileSource),
        Box::new(GpgAgentSource::default()),
        Box::new(PinentrySource::default()),
    ]
}

/// Resolves a source specification: the context's own sources first, then the built-ins.
pub fn resolve_master_source(spec: &str, ctx: &SecurityContext) -> Result<Secret, SecurityError> {
    for source in &ctx.master_sources {
        if let Some(result) = source.handle(spec, ctx) {
            return result;
        }
    }
    for source in builtin_sources() {
        if let Some(result) = source.handle(spec, ctx) {
            return result;
        }
    }
    Err(SecurityError::NoSourceHandled {
        spec: spec.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_and_property_sources() {
        let ctx = SecurityContext::new("/h", "/")
            .with_env("MASTER_PASSWORD", "masterPw")
            .with_property("masterPassword", "fromProp");
        assert_eq!(
            resolve_master_source("env:MASTER_PASSWORD", &ctx)
                .unwrap()
                .expose(),
            "masterPw"
        );
        assert_eq!(
            resolve_master_source("system-property:masterPassword", &ctx)
                .unwrap()
                .expose(),
            "fromProp"
        );
        let e = resolve_master_source("env:NOPE", &ctx)
            .unwrap_err()
            .to_string();
        assert!(e.contains("Environment variable 'NOPE' not found"), "{e}");
        let e = resolve_master_source("system-property:nope", &ctx)
            .unwrap_err()
            .to_string();
        assert!(e.contains("System property 'nope' not found"), "{e}");
        assert!(matches!(
            resolve_master_source("onepassword:op://x", &ctx),
            Err(SecurityError::NoSourceHandled { .. })
        ));
    }

    #[test]
    fn file_source_table() {
        let dir = tempfile::tempdir().unwrap();
        let cases: &[(&str, Option<&str>)] = &[
            ("# comment\n  secret pw  \nother\n", Some("secret pw")),
            ("first\n", Some("first")),
            ("#only comments\n#x\n", None),
            ("", None),
            ("# c\r\nwin\r\n", Some("win")),
            ("\nsecond\n", Some("")),
        ];
        let ctx = SecurityContext::new("/h", "/");
        for (i, (content, expected)) in cases.iter().enumerate() {
            let p = dir.path().join(format!("m{i}"));
            std::fs::write(&p, content).unwrap();
            let got = resolve_master_source(&format!("file:{}", p.display()), &ctx);
            assert_eq!(
                got.as_ref().ok().map(|s| s.expose()),
                *expected,
                "{content:?}"
            );
        }
        assert!(resolve_master_source("file:relative/path", &ctx).is_err());
        assert!(resolve_master_source("file:/does/not/exist", &ctx)
            .unwrap_err()
            .to_string()
            .contains("not found or is not readable"));
    }
}
