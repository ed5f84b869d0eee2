//! Hostile repositories and hostile input (issue 8): a malicious server on loopback
//! (`tests/support/hostile.rs`) serves each attack, and each test checks the safe answer —
//! nothing written outside the local repository root (the temp dir is walked), no request
//! outside the repository's base URL and no credentials sent there, no poisoned
//! `_remote.repositories`, bounded memory (peak RSS of a child `m2r`), bounded time, Maven's
//! file permissions. Property tests: no coordinate or metadata value yields a path outside the
//! root.

#![allow(clippy::result_large_err)]

mod support;

use m2resolver::download::layout;
use m2resolver::download::metadata::Metadata;
use m2resolver::download::segment::is_contained;
use m2resolver::download::{BlockingResolver, Coordinate, DownloadError, ResolverConfig};
use m2resolver::repository::{Authentication, ChecksumPolicy, RemoteRepository};
use m2resolver::transport::{LowSpeedLimit, RetryPolicy, Transport, TransportError};
use m2resolver::Secret;
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use support::hostile::{all_files, run_measured, HostileServer, Reply};

const MB: u64 = 1 << 20;

fn coord(s: &str) -> Coordinate {
    Coordinate::parse(s).unwrap()
}

fn config(repos: Vec<RemoteRepository>, local: &Path) -> ResolverConfig {
    let mut c = ResolverConfig::new(repos, local);
    c.transport.retry = RetryPolicy {
        retries: 1,
        base: Duration::from_millis(20),
        max: Duration::from_millis(50),
    };
    c.transport.connect_timeout = Duration::from_secs(5);
    c.transport.request_timeout = Duration::from_secs(20);
    c
}

/// A temp dir with `local/` (the repository) and `outside/` (must stay empty).
struct Place {
    tmp: tempfile::TempDir,
}

impl Place {
    fn new() -> Place {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("local")).unwrap();
        std::fs::create_dir_all(tmp.path().join("in")).unwrap();
        std::fs::write(tmp.path().join("in/settings.xml"), "<settings/>").unwrap();
        std::fs::create_dir_all(tmp.path().join("outside")).unwrap();
        Place { tmp }
    }
    fn local(&self) -> PathBuf {
        self.tmp.path().join("local")
    }
    /// Everything in the temp dir is the local repository or inside it.
    fn assert_nothing_outside(&self) {
        let local = self.local();
        let stray: Vec<PathBuf> = all_files(self.tmp.path())
            .into_iter()
            .filter(|p| {
                !p.starts_with(&local)
                    && !p.starts_with(self.tmp.path().join("in"))
                    && p != &self.tmp.path().join("outside")
            })
            .collect();
        assert!(
            stray.is_empty(),
            "written outside the local repository: {stray:?}"
        );
    }
}

fn snapshot_metadata(artifact: &str, inner: &str) -> Vec<u8> {
    format!(
        "<metadata modelVersion=\"1.1.0\"><groupId>org.bench.g0</groupId><artifactId>{artifact}</artifactId>\
         <version>1.0-SNAPSHOT</version><versioning>{inner}<lastUpdated>20240102030405</lastUpdated></versioning></metadata>"
    )
    .into_bytes()
}

fn snapshot_value(value: &str) -> String {
    format!(
        "<snapshot><timestamp>20240102.030405</timestamp><buildNumber>7</buildNumber></snapshot>\
         <snapshotVersions><snapshotVersion><extension>jar</extension><value>{value}</value>\
         <updated>20240102030405</updated></snapshotVersion></snapshotVersions>"
    )
}

fn assert_requests_under(server: &HostileServer, base: &str) {
    for s in server.seen() {
        assert!(
            s.path.starts_with(base),
            "requested outside the repository: {}",
            s.path
        );
    }
}

#[test]
fn snapshot_metadata_values_never_become_paths_outside_or_over_other_artifacts() {
    let place = Place::new();
    let server = HostileServer::start();
    let attacks = [
        snapshot_value("1.0-../../../../../../outside/pwned"),
        snapshot_value("1.0-..\\..\\..\\outside\\pwned"),
        snapshot_value("1.0"),
        snapshot_value("0.9-20240101.000000-1"),
        snapshot_value("1.0-&#0;"),
        snapshot_value("/tmp/pwned"),
        "<snapshot><timestamp>../../../../../outside/x</timestamp><buildNumber>3</buildNumber></snapshot>".to_string(),
    ];
    let local = place.local();
    let mut coords = Vec::new();
    for (i, inner) in attacks.iter().enumerate() {
        let a = format!("a{i}");
        let dir = format!("/repo/org/bench/g0/{a}");
        server.route(
            &format!("{dir}/1.0-SNAPSHOT/maven-metadata.xml"),
            Reply::Body(snapshot_metadata(&a, inner)),
        );
        server.artifact(
            &format!("{dir}/1.0-SNAPSHOT/{a}-1.0-SNAPSHOT.jar"),
            b"snapshot bytes",
        );
        // What the attack aims at: the release of the same artifact, with a matching .sha1.
        server.artifact(&format!("{dir}/1.0/{a}-1.0.jar"), b"EVIL BYTES");
        server.artifact(
            &format!("{dir}/0.9-SNAPSHOT/{a}-0.9-20240101.000000-1.jar"),
            b"EVIL BYTES",
        );
        // A release already in the local repository, downloaded from central.
        let good = local.join(format!("org/bench/g0/{a}/1.0"));
        std::fs::create_dir_all(&good).unwrap();
        std::fs::write(good.join(format!("{a}-1.0.jar")), b"GOOD").unwrap();
        std::fs::write(
            good.join("_remote.repositories"),
            format!("{a}-1.0.jar>central=\n"),
        )
        .unwrap();
        coords.push(coord(&format!("org.bench.g0:{a}:1.0-SNAPSHOT")));
    }
    let repo = RemoteRepository::new("evil", server.url("repo"));
    let r = BlockingResolver::new(config(vec![repo], &local)).unwrap();
    for (c, res) in coords.iter().zip(r.resolve(&coords)) {
        let a = res.unwrap_or_else(|e| panic!("{c}: {e}"));
        assert_eq!(a.version, "1.0-SNAPSHOT", "{c}");
        assert!(a.path.starts_with(&local));
        assert!(
            a.warnings
                .iter()
                .any(|w| w.contains("repository `evil`") && w.contains("ignored")),
            "{c}: {:?}",
            a.warnings
        );
        for w in &a.warnings {
            assert!(!w.contains('\0') && w.len() < 1000, "{w:?}");
        }
    }
    place.assert_nothing_outside();
    assert_requests_under(&server, "/repo/");
    for i in 0..attacks.len() {
        let dir = local.join(format!("org/bench/g0/a{i}/1.0"));
        assert_eq!(
            std::fs::read(dir.join(format!("a{i}-1.0.jar"))).unwrap(),
            b"GOOD"
        );
        let tracking = std::fs::read_to_string(dir.join("_remote.repositories")).unwrap();
        assert!(!tracking.contains("evil"), "poisoned: {tracking}");
        assert!(!dir.join(format!("a{i}-1.0.jar.sha1")).exists());
        assert!(!local
            .join(format!("org/bench/g0/a{i}/0.9-SNAPSHOT"))
            .exists());
        // the invalid metadata is not kept either
        assert!(!local
            .join(format!(
                "org/bench/g0/a{i}/1.0-SNAPSHOT/maven-metadata-evil.xml"
            ))
            .exists());
    }
    // Offline, later: the releases are still the good ones, attributed to central.
    let mut cfg = config(
        vec![RemoteRepository::new("central", "http://127.0.0.1:9/")],
        &local,
    );
    cfg.offline = true;
    let r = BlockingResolver::new(cfg).unwrap();
    let a = r
        .resolve(&[coord("org.bench.g0:a2:1.0")])
        .remove(0)
        .unwrap();
    assert_eq!(std::fs::read(a.path).unwrap(), b"GOOD");
    assert_eq!(a.repository.as_deref(), Some("central"));
}

#[test]
fn release_and_latest_from_hostile_metadata_are_refused() {
    let place = Place::new();
    let server = HostileServer::start();
    let values = [
        ("b0", "<release>../../../../../outside/x</release>"),
        (
            "b1",
            "<latest>1.0\\..\\..\\x</latest><release>1.0\\..\\..\\x</release>",
        ),
        ("b2", "<release>..</release><latest>.hidden</latest>"),
    ];
    for (a, inner) in values {
        server.route(
            &format!("/repo/org/bench/{a}/maven-metadata.xml"),
            Reply::Body(
                format!("<metadata><versioning>{inner}<lastUpdated>20240101000000</lastUpdated></versioning></metadata>")
                    .into_bytes(),
            ),
        );
    }
    let repo = RemoteRepository::new("evil", server.url("repo"));
    let r = BlockingResolver::new(config(vec![repo], &place.local())).unwrap();
    let coords = [
        coord("org.bench:b0:RELEASE"),
        coord("org.bench:b1:LATEST"),
        coord("org.bench:b1:RELEASE"),
        coord("org.bench:b2:RELEASE"),
        coord("org.bench:b2:LATEST"),
    ];
    for (c, res) in coords.iter().zip(r.resolve(&coords)) {
        let e = res.expect_err(&c.to_string());
        let m = e.to_string();
        assert!(
            matches!(e, DownloadError::VersionNotFound { .. }) && m.contains("repository `evil`"),
            "{c}: {m}"
        );
    }
    place.assert_nothing_outside();
    assert_requests_under(&server, "/repo/");
    // only the metadata was asked for, never an artifact
    assert!(server
        .seen()
        .iter()
        .all(|s| s.path.contains("maven-metadata")));
}

#[test]
fn credentials_go_only_to_urls_under_the_repository_base() {
    let place = Place::new();
    let server = HostileServer::start();
    let other = HostileServer::start();
    server.route(
        "/repo/g/a/1/a-1.jar",
        Reply::Redirect("/elsewhere/a-1.jar".into()),
    );
    server.artifact("/elsewhere/a-1.jar", b"jar bytes");
    server.artifact("/repo/g/a/1/a-1.jar.sha1.unused", b"");
    {
        use sha1::Digest;
        server.route(
            "/repo/g/a/1/a-1.jar.sha1",
            Reply::Body(hex::encode(sha1::Sha1::digest(b"jar bytes")).into_bytes()),
        );
    }
    server.route(
        "/repo/g/b/1/b-1.jar",
        Reply::Redirect(other.url("repo/g/b/1/b-1.jar")),
    );
    other.artifact("/repo/g/b/1/b-1.jar", b"b bytes");
    let mut repo = RemoteRepository::new("corp", server.url("repo"));
    repo.authentication = Some(Authentication {
        username: Some("deploy".into()),
        password: Some(Secret::new("s3cret")),
        ..Default::default()
    });
    let r = BlockingResolver::new(config(vec![repo.clone()], &place.local())).unwrap();
    for res in r.resolve(&[coord("g:a:1"), coord("g:b:1")]) {
        res.unwrap();
    }
    let basic = "Basic ZGVwbG95OnMzY3JldA==";
    for s in server.seen() {
        let under = s.path.starts_with("/repo/");
        assert_eq!(
            s.authorization.as_deref() == Some(basic),
            under,
            "{}: {:?}",
            s.path,
            s.authorization
        );
    }
    assert!(server.seen().iter().any(|s| s.path == "/elsewhere/a-1.jar"));
    for s in other.seen() {
        assert_eq!(s.authorization, None, "{} got credentials", s.path);
    }
    // A path that climbs out of the base is not requested at all.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let t = Transport::new(Default::default()).unwrap();
    let before = server.seen().len();
    for path in [
        "../x.jar",
        "g/../../x",
        "%2e%2e/x",
        "g/%2E%2E/%2e%2e/x",
        "./../x",
    ] {
        let e = rt.block_on(t.get_bytes(&repo, path)).unwrap_err();
        assert!(
            matches!(e, TransportError::InvalidUrl { .. }) && e.to_string().contains("leaves"),
            "{path}: {e}"
        );
    }
    assert_eq!(server.seen().len(), before);
    place.assert_nothing_outside();
}

#[test]
fn huge_endless_lying_and_trickling_bodies_are_cut_off() {
    let place = Place::new();
    let server = HostileServer::start();
    let big = 300 * MB;
    // c0: .sha1 of 300 MB announced; c1: endless .sha1; c2: endless metadata (snapshot);
    // c3: endless artifact; c4: artifact shorter than announced; c5: trickling artifact.
    server.route("/repo/g/c0/1/c0-1.jar", Reply::Body(b"c0".to_vec()));
    server.route(
        "/repo/g/c0/1/c0-1.jar.sha1",
        Reply::Generated {
            len: big,
            fill: b'a',
            chunked: false,
        },
    );
    server.route("/repo/g/c1/1/c1-1.jar", Reply::Body(b"c1".to_vec()));
    server.route("/repo/g/c1/1/c1-1.jar.sha1", Reply::Endless);
    server.route("/repo/g/c2/1-SNAPSHOT/maven-metadata.xml", Reply::Endless);
    server.artifact("/repo/g/c2/1-SNAPSHOT/c2-1-SNAPSHOT.jar", b"c2");
    server.route("/repo/g/c3/1/c3-1.jar", Reply::Endless);
    server.route(
        "/repo/g/c4/1/c4-1.jar",
        Reply::LyingLength {
            announced: 100_000,
            sent: 10,
        },
    );
    server.route(
        "/repo/g/c5/1/c5-1.jar",
        Reply::Trickle {
            every: Duration::from_millis(200),
        },
    );
    let local = place.local();
    let repo = RemoteRepository::new("evil", server.url("repo"));
    let mut cfg = config(vec![repo], &local);
    cfg.limits.max_artifact_bytes = 4 * MB;
    cfg.transport.low_speed = LowSpeedLimit {
        bytes: 64,
        window: Duration::from_secs(1),
    };
    let started = Instant::now();
    let r = BlockingResolver::new(cfg.clone()).unwrap();
    let coords: Vec<Coordinate> = [
        "g:c0:1",
        "g:c1:1",
        "g:c2:1-SNAPSHOT",
        "g:c3:1",
        "g:c4:1",
        "g:c5:1",
    ]
    .iter()
    .map(|c| coord(c))
    .collect();
    let results = r.resolve(&coords);
    let elapsed = started.elapsed();
    // c0, c1: unusable checksum files, warned (policy warn), never quoted
    for res in &results[..2] {
        let a = res.as_ref().unwrap();
        assert!(!a.is_verified());
        let w = a.warnings.join("\n");
        assert!(
            w.contains("checksum file is unusable") && w.contains("larger than 1024 bytes"),
            "{w}"
        );
        assert!(w.len() < 1000, "{w}");
    }
    // c2: metadata too large: warned, the SNAPSHOT file itself used
    let a = results[2].as_ref().unwrap();
    assert!(
        a.warnings
            .iter()
            .any(|w| w.contains("larger than 16777216 bytes")),
        "{:?}",
        a.warnings
    );
    for (i, what) in [
        (3, "larger than 4194304 bytes"),
        (4, "message length"),
        (5, "low-speed limit"),
    ] {
        let e = results[i].as_ref().unwrap_err().to_string();
        assert!(e.contains(what), "{}: {e}", coords[i]);
        assert!(!local.join(format!("g/c{i}/1/c{i}-1.jar")).exists());
    }
    assert!(elapsed < Duration::from_secs(60), "{elapsed:?}");
    assert!(
        support::temp_files(&local).is_empty(),
        "{:?}",
        support::temp_files(&local)
    );
    assert!(!local
        .join("g/c2/1-SNAPSHOT/maven-metadata-evil.xml")
        .exists());
    // under the fail policy an unusable checksum file fails the artifact
    let mut strict = cfg;
    strict.checksum_policy = Some(ChecksumPolicy::Fail);
    strict.local_repository = place.tmp.path().join("local/strict");
    let r = BlockingResolver::new(strict).unwrap();
    let e = r.resolve(&[coord("g:c1:1")]).remove(0).unwrap_err();
    assert!(matches!(e, DownloadError::InvalidChecksum { .. }), "{e}");
    place.assert_nothing_outside();
}

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
    let mut options = m2resolver::transport::TransportOptions::default();
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

/// Strings a generator may use: plain parts, traversal pieces, separators, controls, URL syntax.
fn hostile_part() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "a",
        "1.0",
        "-",
        ".",
        "..",
        "/",
        "\\",
        ":",
        "C:",
        "%2e",
        "%2E%2E",
        "?",
        "#",
        "\0",
        "\u{1b}",
        "\n",
        " ",
        "SNAPSHOT",
        "20240102.030405-7",
        "~",
        "\u{202E}",
        "é",
        "$",
        "{x}",
    ]);
    prop::collection::vec(atoms, 0..8).prop_map(|v| v.concat())
}

fn assert_inside(root: &Path, rel: &str) {
    assert!(is_contained(rel), "{rel:?}");
    let joined = root.join(rel);
    assert!(joined.starts_with(root), "{rel:?}");
    assert!(
        joined
            .strip_prefix(root)
            .unwrap()
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_))),
        "{rel:?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn no_coordinate_yields_a_path_outside_the_root(
        g in hostile_part(), a in hostile_part(), e in hostile_part(),
        c in hostile_part(), v in hostile_part(), resolved in hostile_part(),
    ) {
        let root = Path::new("/m2/repository");
        // built by hand (pub fields), bypassing Coordinate::parse
        let coordinate = Coordinate { group_id: g, artifact_id: a, extension: e, classifier: c, version: v };
        if let Ok(p) = layout::artifact_path(&coordinate, &resolved) {
            assert_inside(root, p.as_str());
            if let Ok(s) = layout::checksum_path(&p, "sha1") {
                assert_inside(root, s.as_str());
            }
        }
        if let Ok(p) = layout::metadata_path(&coordinate.group_id, &coordinate.artifact_id, &coordinate.version) {
            assert_inside(root, p.as_str());
        }
        let local = m2resolver::download::local::LocalRepository::new(root);
        if let Ok(f) = local.metadata_file(&coordinate.group_id, &coordinate.artifact_id, &coordinate.version, Some(&resolved)) {
            prop_assert!(local.check_inside(&f).is_ok());
        }
        if let Ok(f) = local.artifact_file(&coordinate, &resolved) {
            prop_assert!(local.check_inside(&f).is_ok());
        }
    }

    #[test]
    fn no_metadata_value_that_passes_validation_yields_a_path_outside_the_root(
        value in hostile_part(), release in hostile_part(), ts in hostile_part(),
    ) {
        let esc = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('\0', "&#0;");
        let xml = format!(
            "<metadata><versioning><release>{}</release><latest>{}</latest><snapshot><timestamp>{}</timestamp><buildNumber>1</buildNumber></snapshot>\
             <snapshotVersions><snapshotVersion><extension>jar</extension><value>{}</value></snapshotVersion></snapshotVersions></versioning></metadata>",
            esc(&release), esc(&release), esc(&ts), esc(&value)
        );
        let Ok(md) = Metadata::parse(xml.as_bytes(), "t") else { return Ok(()); };
        let base = "1.0-SNAPSHOT";
        if md.check_values(Some(base)).is_ok() {
            let c = coord("org.x:a:1.0-SNAPSHOT");
            let v = md.versioning.unwrap();
            for version in [v.release, v.latest, v.snapshot_versions[0].value.clone()] {
                if version.is_empty() { continue; }
                let p = layout::artifact_path(&c, &version).expect("validated values form a path");
                assert_inside(Path::new("/m2"), p.as_str());
            }
        }
    }
}
