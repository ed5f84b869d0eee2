//! Hostile repositories and hostile input (issue 8): a malicious server on loopback
//! (`tests/support/hostile.rs`) serves each attack, and each test checks the safe answer —
//! nothing written outside the local repository root (the temp dir is walked), no request
//! outside the repository's base URL and no credentials sent there, no poisoned
//! `_remote.repositories`, bounded memory, bounded time. The tests that run the `m2r` binary
//! (peak RSS of a child `m2r`, local inputs, Maven's file permissions) are in
//! `cli/tests/hostile.rs`; the property tests of paths in `src/download/path_proptests.rs`.

#![allow(clippy::result_large_err)]

mod support;

use m2resolver::download::{DownloadError, DownloaderConfig};
use m2resolver::repository::{Authentication, ChecksumPolicy, RemoteRepository};
use m2resolver::transport::{LowSpeedLimit, RetryPolicy, Transport, TransportError};
use m2resolver::Artifact;
use m2resolver::Secret;
use std::path::Path;
use std::time::{Duration, Instant};
use support::downloads::{Config, Resolving};
use support::hostile::{HostileServer, Place, Reply};
use support::Chain;

const MB: u64 = 1 << 20;

fn coord(s: &str) -> Artifact {
    Artifact::parse(s).unwrap()
}

fn config(repos: Vec<RemoteRepository>, local: &Path) -> Config {
    let mut c = Config {
        cfg: DownloaderConfig::new(local),
        repos,
    };
    c.transport.retry = RetryPolicy {
        retries: 1,
        base: Duration::from_millis(20),
        max: Duration::from_millis(50),
    };
    c.transport.connect_timeout = Duration::from_secs(5);
    c.transport.request_timeout = Duration::from_secs(20);
    c
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
    let r = Resolving::new(config(vec![repo], &local)).unwrap();
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
    let r = Resolving::new(cfg).unwrap();
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
    let r = Resolving::new(config(vec![repo], &place.local())).unwrap();
    let coords = [
        coord("org.bench:b0:RELEASE"),
        coord("org.bench:b1:LATEST"),
        coord("org.bench:b1:RELEASE"),
        coord("org.bench:b2:RELEASE"),
        coord("org.bench:b2:LATEST"),
    ];
    for (c, res) in coords.iter().zip(r.resolve(&coords)) {
        let e = res.expect_err(&c.to_string());
        let m = e.message_chain();
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
    let r = Resolving::new(config(vec![repo.clone()], &place.local())).unwrap();
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
            matches!(e, TransportError::InvalidUrl { .. }) && e.message_chain().contains("leaves"),
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
    let r = Resolving::new(cfg.clone()).unwrap();
    let coords: Vec<Artifact> = [
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
        let e = results[i].as_ref().unwrap_err().message_chain();
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
    let r = Resolving::new(strict).unwrap();
    let e = r.resolve(&[coord("g:c1:1")]).remove(0).unwrap_err();
    assert!(matches!(e, DownloadError::InvalidChecksum { .. }), "{e}");
    place.assert_nothing_outside();
}
