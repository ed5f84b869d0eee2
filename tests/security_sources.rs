//! Master-password sources against fakes: a gpg-agent speaking Assuan on a Unix socket (a
//! thread of this test) and a pinentry program (a shell script written to a temp folder).
//! Every wait is bounded.
#![cfg(unix)]

use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;
use std::path::Path;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use m2resolver::security::{
    encrypt_v4, resolve_master_source, Decryptor, GpgAgentSource, MasterSource, PinentrySource,
    SecurityContext, SecurityError,
};
use m2resolver::Secret;

/// Serves one gpg-agent connection: greets, answers OPTION lines with OK and GET_PASSPHRASE
/// with `reply`. Returns the lines it received.
fn fake_agent(socket: &Path, reply: &'static str) -> thread::JoinHandle<Vec<String>> {
    let listener = UnixListener::bind(socket).unwrap();
    thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut writer = stream.try_clone().unwrap();
        let mut reader = BufReader::new(stream);
        writer
            .write_all(b"# comment first\nOK Pleased to meet you\n")
            .unwrap();
        let mut seen = Vec::new();
        for _ in 0..10 {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                break;
            }
            let line = line.trim_end().to_string();
            seen.push(line.clone());
            if line.starts_with("OPTION") {
                writer.write_all(b"OK\n").unwrap();
            } else if line.starts_with("GET_PASSPHRASE") {
                writer
                    .write_all(format!("S PROGRESS x\n{reply}\n").as_bytes())
                    .unwrap();
                break;
            } else {
                writer.write_all(b"ERR 1 unknown\n").unwrap();
            }
        }
        seen
    })
}

#[test]
fn gpg_agent_source_reads_hex_passphrase() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("S.gpg-agent");
    // "master pässword" in hex.
    let agent = fake_agent(&socket, "OK 6d61737465722070c3a47373776f7264");
    let ctx = SecurityContext::new(dir.path(), dir.path())
        .with_env("DISPLAY", ":0")
        .with_env("TERM", "xterm");
    let source = GpgAgentSource {
        timeout: Duration::from_secs(10),
    };
    let pw = source
        .handle("gpg-agent:S.gpg-agent?non-interactive", &ctx)
        .unwrap()
        .unwrap();
    assert_eq!(pw.expose(), "master pässword");
    let seen = agent.join().unwrap();
    assert_eq!(
        seen,
        vec![
            "OPTION display=:0".to_string(),
            "OPTION ttytype=xterm".to_string(),
            "GET_PASSPHRASE --no-ask plexus:secDispatcherMasterPassword X Maven+Master+Password Please+enter+your+Maven+master+password+to+use+it+for+decrypting+Maven+Settings".to_string(),
        ]
    );
}

#[test]
fn gpg_agent_feeds_the_master_dispatcher() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("agent.sock");
    // "masterPw" in hex.
    let agent = fake_agent(&socket, "OK 6d61737465725077");
    let sec4 = format!(
        "<settingsSecurity><modelVersion>4.0</modelVersion><defaultDispatcher>master</defaultDispatcher>\
         <configurations><configuration><name>master</name><properties>\
         <property><name>source</name><value>gpg-agent:{}</value></property>\
         <property><name>cipher</name><value>AES/GCM/NoPadding</value></property>\
         </properties></configuration></configurations></settingsSecurity>",
        socket.display()
    );
    let s4 = dir.path().join("settings-security4.xml");
    std::fs::write(&s4, sec4).unwrap();
    let ctx = SecurityContext::new(dir.path(), dir.path())
        .with_property("maven.settings.security", s4.display().to_string());
    let d = Decryptor::new(ctx);
    let value = encrypt_v4("via agent", &Secret::new("masterPw"));
    assert_eq!(d.decrypt(&value).unwrap().expose(), "via agent");
    // One connection only: the agent thread served it and ended.
    assert_eq!(agent.join().unwrap().len(), 1);
}

#[test]
fn gpg_agent_errors() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = SecurityContext::new(dir.path(), dir.path());
    let source = GpgAgentSource {
        timeout: Duration::from_secs(10),
    };
    // No socket.
    let e = source
        .handle("gpg-agent:/nonexistent/socket", &ctx)
        .unwrap()
        .unwrap_err();
    assert!(
        e.to_string().contains("cannot connect to gpg-agent socket"),
        "{e}"
    );
    // The agent refuses.
    let socket = dir.path().join("refuse.sock");
    let agent = fake_agent(&socket, "ERR 67108922 No data <GPG Agent>");
    let e = source
        .handle(&format!("gpg-agent:{}", socket.display()), &ctx)
        .unwrap()
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("gpg-agent gave no passphrase: ERR 67108922"),
        "{e}"
    );
    agent.join().unwrap();
    // Not ours.
    assert!(source.handle("env:X", &ctx).is_none());
}

/// Writes an executable pinentry script answering every command with OK and GETPIN with
/// `getpin_reply` (one or more lines). It logs what it received to `<dir>/log`.
fn fake_pinentry(dir: &Path, getpin_reply: &str, exit_code: i32) -> String {
    let script = dir.join("pinentry");
    let log = dir.join("log");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho 'OK Pleased to meet you'\nwhile IFS= read -r line; do\n  printf '%s\\n' \"$line\" >> '{log}'\n  case \"$line\" in\n    GETPIN) printf '{reply}\\n' ;;\n    BYE) echo 'OK closing connection'; exit {exit_code} ;;\n    *) echo OK ;;\n  esac\ndone\n",
            log = log.display(),
            reply = getpin_reply,
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script.display().to_string()
}

#[test]
fn pinentry_source_returns_pin() {
    let dir = tempfile::tempdir().unwrap();
    let program = fake_pinentry(dir.path(), "S PASSWORD_FROM_CACHE\\nD my pin 42\\nOK", 0);
    let ctx = SecurityContext::new(dir.path(), dir.path());
    let source = PinentrySource {
        timeout: Duration::from_secs(20),
    };
    let pin = source
        .handle(&format!("pinentry-prompt:{program}"), &ctx)
        .unwrap()
        .unwrap();
    assert_eq!(pin.expose(), "my pin 42");
    let log = std::fs::read_to_string(dir.path().join("log")).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(
        lines,
        vec![
            "SETTIMEOUT 30",
            "OPTION allow-external-password-cache",
            "SETKEYINFO Maven: n/masterPassword",
            "SETTITLE Maven Master Password",
            "SETDESC Please enter the Maven master password",
            "SETPROMPT Maven master password",
            "SETOK Ok",
            "SETCANCEL Cancel",
            "GETPIN",
            "BYE",
        ]
    );
}

#[test]
fn pinentry_failures() {
    let ctx = SecurityContext::new("/", "/");
    let source = PinentrySource {
        timeout: Duration::from_secs(20),
    };
    let cases: &[(&str, i32, &str)] = &[
        (
            "ERR 83886179 Operation cancelled <Pinentry>",
            0,
            "User canceled the operation",
        ),
        ("ERR 83886142 Timeout <Pinentry>", 0, "Timeout"),
        ("ERR 1 other <Pinentry>", 0, "Failure: ERR 1 other"),
        ("D pin", 3, "Failure: Exit code: 3"),
    ];
    for (reply, code, expected) in cases {
        let dir = tempfile::tempdir().unwrap();
        let program = fake_pinentry(dir.path(), reply, *code);
        let e = source
            .handle(&format!("pinentry-prompt:{program}"), &ctx)
            .unwrap()
            .unwrap_err();
        assert!(e.to_string().contains(expected), "{reply}: {e}");
        assert!(!e.to_string().contains("D pin"), "{e}");
    }
    let e = source
        .handle("pinentry-prompt:/nonexistent/pinentry", &ctx)
        .unwrap()
        .unwrap_err();
    assert!(
        e.to_string().contains("Could not collect the password"),
        "{e}"
    );
}

#[test]
fn pinentry_that_hangs_times_out() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("hang");
    std::fs::write(&script, "#!/bin/sh\necho OK\nsleep 30\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let source = PinentrySource {
        timeout: Duration::from_millis(500),
    };
    let started = std::time::Instant::now();
    let e = source
        .handle(
            &format!("pinentry-prompt:{}", script.display()),
            &SecurityContext::new("/", "/"),
        )
        .unwrap()
        .unwrap_err();
    assert!(e.to_string().contains("Timeout"), "{e}");
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn custom_source_hook_is_asked_first_and_once() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    let keychain =
        move |spec: &str, _: &SecurityContext| -> Option<Result<Secret, SecurityError>> {
            let rest = spec.strip_prefix("keychain:")?;
            counter.fetch_add(1, Ordering::SeqCst);
            Some(Ok(Secret::new(format!("{rest}-pw"))))
        };
    let ctx = SecurityContext::new("/", "/").with_master_source(Arc::new(keychain));
    assert_eq!(
        resolve_master_source("keychain:maven", &ctx)
            .unwrap()
            .expose(),
        "maven-pw"
    );
    let d = Decryptor::new(ctx);
    for _ in 0..3 {
        let v = d
            .decrypt("{[name=masterSourceLookup,version=4.0]keychain:repo}")
            .unwrap();
        assert_eq!(v.expose(), "repo-pw");
    }
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}
