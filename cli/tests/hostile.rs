//! Hostile input against the `m2r` binary (issue 8; the library's side is `tests/hostile.rs`):
//! bounded memory (peak RSS of a child `m2r`) against 300 MB bodies, oversized, special and
//! missing local inputs answered at once, Maven's file permissions in the local repository.

// The hostile server harness is shared with the library's tests.
#[path = "../../tests/support/mod.rs"]
mod support;

use m2resolver::transport::{Transport, TransportOptions};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use support::hostile::{run_measured, HostileServer, Place, Reply};

const MB: u64 = 1 << 20;

/// The `m2r` binary under test (`M2R_HOSTILE_BIN` measures another build, e.g. a release one).
fn m2r_bin() -> PathBuf {
    std::env::var_os("M2R_HOSTILE_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_m2r")))
}

fn m2r_get(dir: &Path, repo_url: &str, args: &[&str]) -> Command {
    let mut cmd = Command::new(m2r_bin());
    cmd.arg("get")
        .args(["--settings", "in/settings.xml", "--security", "none.xml"])
        .args([
            "--local-repository",
            "local",
            "-Duser.home=home",
            "--no-env-proxy",
        ])
        .arg("--repo")
        .arg(format!("evil={repo_url}"))
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default());
    cmd
}

#[test]
fn peak_memory_of_m2r_get_stays_small_against_300_mb_bodies() {
    let place = Place::new();
    let dir = place.tmp.path();
    let server = HostileServer::start();
    let big = 300 * MB;
    let gen = |chunked| Reply::Generated {
        len: big,
        fill: b'0',
        chunked,
    };
    // checksum: 300 MB .sha1 without a length (the body must be cut, not collected)
    server.route("/repo/g/s/1/s-1.jar", Reply::Body(b"s".to_vec()));
    server.route("/repo/g/s/1/s-1.jar.sha1", gen(true));
    server.route("/repo/g/s/1/s-1.jar.md5", gen(false));
    // metadata: 300 MB maven-metadata.xml without a length
    server.route("/repo/g/m/1-SNAPSHOT/maven-metadata.xml", gen(true));
    server.artifact("/repo/g/m/1-SNAPSHOT/m-1-SNAPSHOT.jar", b"m");
    // artifact: 300 MB streamed to disk
    server.route("/repo/g/j/1/j-1.jar", gen(false));
    let mut report = Vec::new();
    for (name, c) in [
        ("checksum", "g:s:1"),
        ("metadata", "g:m:1-SNAPSHOT"),
        ("artifact", "g:j:1"),
    ] {
        let started = Instant::now();
        let (status, out, err, peak_kib) = run_measured(
            &mut m2r_get(dir, &server.url("repo"), &[c]),
            Duration::from_secs(300),
        );
        let took = started.elapsed();
        report.push(format!(
            "{name}: peak {} MiB in {took:.1?}",
            peak_kib / 1024
        ));
        // exit 1: accepted with a warning (unverified) — the artifact is there
        assert!(
            status.code() == Some(1) || status.success(),
            "{name}: {status} {err}"
        );
        assert!(
            out.contains(&*dir.join("local").to_string_lossy()) || out.contains("local/"),
            "{name}: {out} {err}"
        );
        assert!(err.len() < 4000, "{name}: stderr of {} bytes", err.len());
        assert!(
            peak_kib < 100 * 1024,
            "{name}: peak RSS {peak_kib} KiB; {err}"
        );
    }
    eprintln!("peak memory against 300 MB bodies: {}", report.join("; "));
    let _ = std::fs::remove_file(dir.join("local/g/j/1/j-1.jar"));
    place.assert_nothing_outside();
}

#[test]
fn oversized_special_and_missing_local_inputs_are_answered_at_once() {
    let place = Place::new();
    let dir = place.tmp.path();
    let sparse = dir.join("sparse-settings.xml");
    std::fs::File::create(&sparse)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    std::fs::write(
        dir.join("relocating-security.xml"),
        "<settingsSecurity><relocation>/dev/zero</relocation></settingsSecurity>",
    )
    .unwrap();
    std::fs::write(
        dir.join("encrypted.xml"),
        "<settings><servers><server><id>s</id><password>{COQLCE6DU6GtcS5P=}</password></server></servers></settings>",
    )
    .unwrap();
    let explain = |args: &[&str]| {
        let mut cmd = Command::new(m2r_bin());
        cmd.arg("explain")
            .args(args)
            .args(["-Duser.home=home", "--no-env-proxy"])
            .current_dir(dir)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default());
        let started = Instant::now();
        let (status, out, err, peak) = run_measured(&mut cmd, Duration::from_secs(60));
        (status, out, err, peak, started.elapsed())
    };
    let mut report = Vec::new();
    let cases: &[(&str, &[&str], Option<i32>, &str)] = &[
        (
            "1 GiB sparse settings",
            &[
                "--settings",
                "sparse-settings.xml",
                "--security",
                "none.xml",
            ],
            Some(1),
            "larger than",
        ),
        (
            "--settings /dev/zero",
            &["--settings", "/dev/zero"],
            Some(2),
            "not a regular file",
        ),
        (
            "--settings directory",
            &["--settings", "."],
            Some(2),
            "not a regular file",
        ),
        (
            "--security /dev/zero",
            &["--settings", "none.xml", "--security", "/dev/zero"],
            Some(2),
            "not a regular file",
        ),
        (
            "relocation to /dev/zero",
            &[
                "--settings",
                "encrypted.xml",
                "--security",
                "relocating-security.xml",
                "--repo",
                "s=https://h/",
            ],
            None,
            "not a regular file",
        ),
    ];
    for (name, args, code, needle) in cases {
        let (status, out, err, peak, took) = explain(args);
        report.push(format!("{name}: {took:.2?}, peak {} MiB", peak / 1024));
        if let Some(code) = code {
            assert_eq!(status.code(), Some(*code), "{name}: {out}{err}");
        }
        assert!(
            out.contains(needle) || err.contains(needle),
            "{name}: {out}{err}"
        );
        assert!(peak < 100 * 1024, "{name}: peak {peak} KiB");
        assert!(took < Duration::from_secs(20), "{name}: {took:?}");
    }
    // an SSL_CERT_FILE that is a device is refused unread
    let mut options = TransportOptions::default();
    options
        .env
        .insert("SSL_CERT_FILE".into(), "/dev/zero".into());
    let e = Transport::new(options).unwrap_err().to_string();
    assert!(e.contains("not a regular file"), "{e}");
    // a missing --settings keeps Maven's meaning with a notice
    let (status, _, err, _, _) = explain(&["--settings", "missing.xml", "--security", "none.xml"]);
    assert!(status.success());
    assert!(
        err.contains("--settings missing.xml does not exist"),
        "{err}"
    );
    // --from-file /dev/zero
    let (status, _, err, peak) = run_measured(
        &mut m2r_get(
            dir,
            "http://127.0.0.1:9/repo",
            &["--from-file", "/dev/zero"],
        ),
        Duration::from_secs(60),
    );
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(err.contains("not a regular file"), "{err}");
    report.push(format!("--from-file /dev/zero: peak {} MiB", peak / 1024));
    eprintln!("local inputs: {}", report.join("; "));
}

#[test]
fn local_repository_files_get_maven_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let server = HostileServer::start();
    server.artifact("/repo/g/p/1/p-1.jar", b"permissions");
    for (umask, file_mode, dir_mode) in [("022", 0o644, 0o755), ("002", 0o664, 0o775)] {
        let place = Place::new();
        let dir = place.tmp.path();
        let get = m2r_get(dir, &server.url("repo"), &["g:p:1"]);
        let mut line = format!("umask {umask}; exec \"$0\"");
        for a in get.get_args() {
            line.push_str(" '");
            line.push_str(&a.to_string_lossy());
            line.push('\'');
        }
        let out = Command::new("sh")
            .arg("-c")
            .arg(line)
            .arg(get.get_program())
            .current_dir(dir)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let art = dir.join("local/g/p/1");
        for f in ["p-1.jar", "p-1.jar.sha1", "_remote.repositories"] {
            let mode = std::fs::metadata(art.join(f)).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, file_mode, "{f} under umask {umask}: {mode:o}");
        }
        let mode = std::fs::metadata(&art).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, dir_mode, "directory under umask {umask}: {mode:o}");
    }
}
