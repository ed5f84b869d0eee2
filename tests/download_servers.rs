//! Download integration tests against real servers on loopback (nginx, tinyproxy, microsocks),
//! started per test by `tests/support`. Run `bash scripts/test-servers.sh` first if they are
//! missing (the tests fail and say so).

#![allow(clippy::result_large_err)]

mod support;

use m2resolver::download::{ChecksumOutcome, DownloadError, DownloaderConfig, ManualClock};
use m2resolver::repository::{Authentication, ProxySource, RemoteRepository, RepositoryProxy};
use m2resolver::transport::{RetryPolicy, TransportError};
use m2resolver::Secret;
use m2resolver::{Artifact, ProgressEvent};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use support::downloads::{Config, Resolving};
use support::*;
// squid/Apache harness types: SquidAuth, Apache

fn coord(s: &str) -> Artifact {
    Artifact::parse(s).unwrap()
}

fn auth(user: &str, password: &str) -> Option<Authentication> {
    Some(Authentication {
        username: Some(user.into()),
        password: Some(Secret::new(password)),
        ..Default::default()
    })
}

fn repo(id: &str, url: &str) -> RemoteRepository {
    RemoteRepository::new(id, url)
}

fn config(repos: Vec<RemoteRepository>, local: &Path, ca: Option<&Path>) -> Config {
    let mut c = Config {
        cfg: DownloaderConfig::new(local),
        repos,
    };
    c.transport.retry = RetryPolicy {
        retries: 2,
        base: Duration::from_millis(50),
        max: Duration::from_millis(200),
    };
    c.transport.connect_timeout = Duration::from_secs(5);
    c.transport.request_timeout = Duration::from_secs(10);
    if let Some(ca) = ca {
        c.transport.extra_ca_files.push(ca.to_path_buf());
    }
    c
}

struct Fixture {
    _tmp: tempfile::TempDir,
    repo: Repo,
    local: std::path::PathBuf,
    work: std::path::PathBuf,
    nginx: Nginx,
}

/// A repository with a few artifacts served by nginx.
fn fixture() -> Fixture {
    let tmp = tempfile::tempdir().unwrap();
    let repo = Repo::new(&tmp.path().join("remote"));
    repo.put("org/ex/lib/1.0/lib-1.0.jar", &Repo::content("lib", 40_000));
    repo.put("org/ex/lib/1.0/lib-1.0.pom", b"<project/>");
    repo.put(
        "org/ex/lib/1.0/lib-1.0-sources.jar",
        &Repo::content("src", 1000),
    );
    let work = tmp.path().join("work");
    let nginx = Nginx::start(&repo.root, &work);
    Fixture {
        local: tmp.path().join("local"),
        work,
        repo,
        nginx,
        _tmp: tmp,
    }
}

fn assert_same_bytes(a: &Path, b: &Path) {
    assert_eq!(
        std::fs::read(a).unwrap(),
        std::fs::read(b).unwrap(),
        "{} vs {}",
        a.display(),
        b.display()
    );
}

#[test]
fn plain_http_downloads_verifies_and_tracks_like_maven() {
    let f = fixture();
    let r = Resolving::new(config(
        vec![repo("central", &f.nginx.http("public"))],
        &f.local,
        None,
    ))
    .unwrap();
    let coords = [
        coord("org.ex:lib:1.0"),
        coord("org.ex:lib:pom:1.0"),
        coord("org.ex:lib:jar:sources:1.0"),
    ];
    let results = r.resolve(&coords);
    for res in &results {
        let a = res.as_ref().unwrap();
        assert!(a.downloaded);
        assert_eq!(a.checksum, ChecksumOutcome::Verified { algorithm: "SHA-1" });
        assert_eq!(a.repository.as_deref(), Some("central"));
    }
    let dir = f.local.join("org/ex/lib/1.0");
    assert_same_bytes(
        &dir.join("lib-1.0.jar"),
        &f.repo.root.join("org/ex/lib/1.0/lib-1.0.jar"),
    );
    assert_eq!(
        results[2].as_ref().unwrap().path,
        dir.join("lib-1.0-sources.jar")
    );
    // persisted checksum and Maven's tracking file
    let sha = std::fs::read_to_string(dir.join("lib-1.0.jar.sha1")).unwrap();
    assert_eq!(
        sha,
        std::fs::read_to_string(f.repo.root.join("org/ex/lib/1.0/lib-1.0.jar.sha1")).unwrap()
    );
    let tracking = std::fs::read_to_string(dir.join("_remote.repositories")).unwrap();
    assert!(
        tracking.starts_with("#NOTE: This is a Maven Resolver internal implementation file"),
        "{tracking}"
    );
    for line in [
        "lib-1.0.jar>central=",
        "lib-1.0.pom>central=",
        "lib-1.0-sources.jar>central=",
    ] {
        assert!(
            tracking.lines().any(|l| l == line),
            "{line} missing in {tracking}"
        );
    }
    assert!(temp_files(&f.local).is_empty());
    // second run: nothing downloaded, no new requests
    let before = f.nginx.access_log().len();
    let again = r.resolve(&coords);
    assert!(again.iter().all(|a| !a.as_ref().unwrap().downloaded));
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(f.nginx.access_log().len(), before);
    // artifact + .sha1 only per artifact (no .md5 when .sha1 exists)
    assert_eq!(f.nginx.count_gets(".md5"), 0);
    assert_eq!(f.nginx.count_gets(".sha1"), 3);
}

#[test]
fn https_with_basic_auth_trusts_extra_ca_and_ssl_cert_file() {
    let f = fixture();
    let mut central = repo("secure", &f.nginx.https("private"));
    central.authentication = auth(USER, PASSWORD);
    // via the extra CA option
    let r = Resolving::new(config(
        vec![central.clone()],
        &f.local,
        Some(&f.nginx.tls.ca_pem),
    ))
    .unwrap();
    let a = r.resolve(&[coord("org.ex:lib:1.0")]).remove(0).unwrap();
    assert_same_bytes(&a.path, &f.repo.root.join("org/ex/lib/1.0/lib-1.0.jar"));
    // nginx offers h2 over TLS: the client speaks it
    std::thread::sleep(Duration::from_millis(50));
    assert!(
        f.nginx
            .access_log()
            .iter()
            .any(|l| l.contains("lib-1.0.jar HTTP/2.0 200")),
        "{:?}",
        f.nginx.access_log()
    );
    // via SSL_CERT_FILE in the injected environment snapshot
    let mut c = config(vec![central.clone()], &f.local.join("other"), None);
    c.transport.env.insert(
        "SSL_CERT_FILE".into(),
        f.nginx.tls.ca_pem.display().to_string(),
    );
    let r = Resolving::new(c).unwrap();
    assert!(r.resolve(&[coord("org.ex:lib:pom:1.0")]).remove(0).is_ok());
    // without the CA: a certificate error, not retried forever
    let r = Resolving::new(config(vec![central], &f.local.join("third"), None)).unwrap();
    let started = std::time::Instant::now();
    let err = r.resolve(&[coord("org.ex:lib:1.0")]).remove(0).unwrap_err();
    assert!(
        err.message_chain().to_lowercase().contains("certificate"),
        "{err}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn wrong_password_is_an_auth_error_naming_the_server_id() {
    let f = fixture();
    let mut nexus = repo("corp-nexus", &f.nginx.https("private"));
    nexus.authentication = auth(USER, "wrong");
    let r = Resolving::new(config(
        vec![nexus.clone()],
        &f.local,
        Some(&f.nginx.tls.ca_pem),
    ))
    .unwrap();
    let err = r.resolve(&[coord("org.ex:lib:1.0")]).remove(0).unwrap_err();
    match &err {
        DownloadError::Transfer {
            source:
                TransportError::Unauthorized {
                    server_id,
                    status,
                    sent_credentials,
                    ..
                },
            ..
        } => {
            assert_eq!(
                (server_id.as_str(), *status, *sent_credentials),
                ("corp-nexus", 401, true)
            );
        }
        other => panic!("expected 401, got {other}"),
    }
    let msg = err.message_chain();
    assert!(
        msg.contains("`corp-nexus`") && !msg.contains("wrong"),
        "{msg}"
    );
    // no credentials at all
    nexus.authentication = None;
    let r = Resolving::new(config(vec![nexus], &f.local, Some(&f.nginx.tls.ca_pem))).unwrap();
    let msg = r
        .resolve(&[coord("org.ex:lib:1.0")])
        .remove(0)
        .unwrap_err()
        .message_chain();
    assert!(msg.contains("none are configured"), "{msg}");
    assert!(!f.local.join("org/ex/lib/1.0/lib-1.0.jar").exists());
}

#[test]
fn credentials_are_not_forwarded_to_another_host_on_redirect() {
    let f = fixture();
    // /moved/ redirects to http://localhost:<port>/private/ (another origin than 127.0.0.1)
    let mut moved = repo("moved", &f.nginx.http("moved"));
    moved.authentication = auth(USER, PASSWORD);
    let r = Resolving::new(config(vec![moved], &f.local, None)).unwrap();
    let err = r.resolve(&[coord("org.ex:lib:1.0")]).remove(0).unwrap_err();
    assert!(
        matches!(
            &err,
            DownloadError::Transfer {
                source: TransportError::Unauthorized {
                    sent_credentials: false,
                    ..
                },
                ..
            }
        ),
        "{err}"
    );
    // same-origin redirect keeps working
    let r = Resolving::new(config(
        vec![repo("redir", &f.nginx.http("redirect"))],
        &f.local,
        None,
    ))
    .unwrap();
    assert!(r.resolve(&[coord("org.ex:lib:1.0")]).remove(0).is_ok());
}

fn proxy(kind: &str, port: u16, user: &str, password: &str) -> RepositoryProxy {
    RepositoryProxy {
        kind: kind.into(),
        host: "127.0.0.1".into(),
        port: port as i32,
        auth: auth(user, password),
        source: ProxySource::Settings {
            id: format!("{kind}-proxy"),
        },
    }
}

#[test]
fn https_and_http_through_authenticating_proxies_and_their_refusals() {
    let f = fixture();
    let tp = Tinyproxy::start(&f.work, &[f.nginx.https_port]);
    let squid = Squid::start(&f.work, &[f.nginx.https_port]);
    for (name, port) in [("tinyproxy", tp.port), ("squid", squid.port)] {
        for url in [f.nginx.https("private"), f.nginx.http("private")] {
            let mut r1 = repo("via-proxy", &url);
            r1.authentication = auth(USER, PASSWORD);
            r1.proxy = Some(proxy("http", port, PROXY_USER, PROXY_PASSWORD));
            let local = f.local.join(format!("{name}-{}", url.len()));
            let r = Resolving::new(config(vec![r1], &local, Some(&f.nginx.tls.ca_pem))).unwrap();
            for a in r.resolve(&[coord("org.ex:lib:1.0"), coord("org.ex:lib:pom:1.0")]) {
                let a = a.unwrap_or_else(|e| panic!("{name} {url}: {e}"));
                assert_eq!(a.checksum, ChecksumOutcome::Verified { algorithm: "SHA-1" });
            }
        }
    }
    // the proxies were really in the path: a wrong proxy password fails, and the error names the proxy
    let cases = [
        ("squid https", squid.port, f.nginx.https("private")),
        ("squid http", squid.port, f.nginx.http("private")),
        ("tinyproxy https", tp.port, f.nginx.https("private")),
        ("tinyproxy http", tp.port, f.nginx.http("private")),
    ];
    for (name, port, url) in cases {
        let mut bad = repo("via-proxy", &url);
        bad.authentication = auth(USER, PASSWORD);
        bad.proxy = Some(proxy("http", port, PROXY_USER, "nope"));
        let r = Resolving::new(config(
            vec![bad],
            &f.local.join("x"),
            Some(&f.nginx.tls.ca_pem),
        ))
        .unwrap();
        let err = r.resolve(&[coord("org.ex:lib:1.0")]).remove(0).unwrap_err();
        let msg = err.message_chain();
        let DownloadError::Transfer { source, .. } = &err else {
            panic!("{name}: {msg}")
        };
        match (name, source) {
            // squid answers 407, to CONNECT and to plain requests
            ("squid https" | "squid http", TransportError::ProxyAuth { .. }) => {
                assert!(msg.contains("407"), "{msg}")
            }
            // tinyproxy answers 401 instead of 407
            ("tinyproxy https", TransportError::ProxyRefused { .. }) => {}
            (
                "tinyproxy http",
                TransportError::Unauthorized {
                    via_proxy: Some(_), ..
                },
            ) => {}
            _ => panic!("{name}: unexpected {msg}"),
        }
        assert!(msg.contains(&format!("127.0.0.1:{port}")), "{name}: {msg}");
        assert!(!msg.contains("nope"), "{msg}");
    }
}

#[test]
fn socks5_proxy_with_authentication() {
    let f = fixture();
    let socks = Microsocks::start(&f.work);
    let mut r1 = repo("via-socks", &f.nginx.https("private"));
    r1.authentication = auth(USER, PASSWORD);
    r1.proxy = Some(proxy("socks5", socks.port, SOCKS_USER, SOCKS_PASSWORD));
    let r = Resolving::new(config(
        vec![r1.clone()],
        &f.local,
        Some(&f.nginx.tls.ca_pem),
    ))
    .unwrap();
    let a = r.resolve(&[coord("org.ex:lib:1.0")]).remove(0).unwrap();
    assert_same_bytes(&a.path, &f.repo.root.join("org/ex/lib/1.0/lib-1.0.jar"));
    // wrong SOCKS password fails clearly, naming the repository and the proxy
    r1.proxy = Some(proxy("socks5", socks.port, SOCKS_USER, "bad"));
    let r = Resolving::new(config(
        vec![r1],
        &f.local.join("x"),
        Some(&f.nginx.tls.ca_pem),
    ))
    .unwrap();
    let msg = r
        .resolve(&[coord("org.ex:lib:1.0")])
        .remove(0)
        .unwrap_err()
        .message_chain();
    assert!(
        msg.contains("via-socks") && msg.contains(&socks.port.to_string()),
        "{msg}"
    );
}

#[test]
fn corrupt_checksum_fails_under_fail_and_is_accepted_under_warn() {
    let f = fixture();
    f.repo.put_raw("org/ex/bad/1.0/bad-1.0.jar", b"real bytes");
    f.repo.put_raw(
        "org/ex/bad/1.0/bad-1.0.jar.sha1",
        b"0000000000000000000000000000000000000000  bad-1.0.jar\n",
    );
    let mut strict = repo("strict", &f.nginx.http("public"));
    strict.releases.checksum_policy = "fail".into();
    let r = Resolving::new(config(vec![strict], &f.local, None)).unwrap();
    let err = r.resolve(&[coord("org.ex:bad:1.0")]).remove(0).unwrap_err();
    assert!(
        matches!(err, DownloadError::ChecksumMismatch { .. }),
        "{err}"
    );
    assert!(err.message_chain().contains("0000000000"), "{err}");
    let target = f.local.join("org/ex/bad/1.0/bad-1.0.jar");
    assert!(
        !target.exists(),
        "a file failing its checksum must not be left in place"
    );
    assert!(temp_files(&f.local).is_empty());
    assert_eq!(
        f.nginx.count_gets("bad-1.0.jar"),
        2,
        "one re-download on mismatch"
    );

    let lax = repo("lax", &f.nginx.http("public")); // default policy: warn
    let r = Resolving::new(config(vec![lax], &f.local, None)).unwrap();
    let a = r.resolve(&[coord("org.ex:bad:1.0")]).remove(0).unwrap();
    assert!(matches!(a.checksum, ChecksumOutcome::Unverified { .. }));
    assert!(!a.is_verified());
    assert!(
        a.warnings
            .iter()
            .any(|w| w.contains("Could not validate integrity")),
        "{:?}",
        a.warnings
    );
    assert_eq!(std::fs::read(&target).unwrap(), b"real bytes");
    assert!(!Path::new(&format!("{}.sha1", target.display())).exists());
}

#[test]
fn not_found_falls_through_to_the_next_repository_and_is_cached() {
    let f = fixture();
    let repos = vec![
        repo("first", &f.nginx.http("empty")),
        repo("second", &f.nginx.http("public")),
    ];
    let r = Resolving::new(config(repos.clone(), &f.local, None)).unwrap();
    let a = r.resolve(&[coord("org.ex:lib:1.0")]).remove(0).unwrap();
    assert_eq!(a.repository.as_deref(), Some("second"));
    assert!(!f
        .local
        .join("org/ex/lib/1.0/lib-1.0.jar.lastUpdated")
        .exists());
    // missing everywhere: NotFound naming both, recorded in .lastUpdated
    let err = r
        .resolve(&[coord("org.ex:nope:1.0")])
        .remove(0)
        .unwrap_err();
    let msg = err.message_chain();
    assert!(matches!(err, DownloadError::NotFound { .. }), "{msg}");
    assert!(msg.contains("first (") && msg.contains("second ("), "{msg}");
    let marker = f.local.join("org/ex/nope/1.0/nope-1.0.jar.lastUpdated");
    let text = std::fs::read_to_string(&marker).unwrap();
    assert!(
        text.contains(&format!(
            "{}.error=",
            f.nginx.http("empty").replace(':', "\\:")
        )),
        "{text}"
    );
    // second attempt the same day: cached, no request
    let before = f.nginx.count_gets("nope-1.0.jar");
    let err = r
        .resolve(&[coord("org.ex:nope:1.0")])
        .remove(0)
        .unwrap_err();
    assert!(matches!(err, DownloadError::CachedNotFound { .. }), "{err}");
    assert!(
        err.message_chain().contains("during a previous attempt"),
        "{err}"
    );
    assert_eq!(f.nginx.count_gets("nope-1.0.jar"), before);
}

#[test]
fn server_killed_mid_transfer_leaves_nothing_half_written_and_retry_works() {
    let mut f = fixture();
    let big = Repo::content("big", 3_000_000);
    f.repo.put("org/ex/big/1.0/big-1.0.jar", &big);
    let local = f.local.clone();
    let url = f.nginx.http("slow"); // 200 KB/s: 15 s for the whole file
    let handle = std::thread::spawn(move || {
        let r = Resolving::new(config(vec![repo("slowrepo", &url)], &local, None)).unwrap();
        r.resolve(&[coord("org.ex:big:1.0")]).remove(0)
    });
    let target = f.local.join("org/ex/big/1.0/big-1.0.jar");
    // wait until the transfer is under way (a temp file exists), bounded
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while temp_files(&f.local).is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    f.nginx.kill();
    let err = handle.join().unwrap().unwrap_err();
    let msg = err.message_chain();
    assert!(msg.contains("slowrepo") && msg.contains("retries"), "{msg}");
    assert!(!target.exists(), "no partial file at the final path");
    assert!(
        temp_files(&f.local).is_empty(),
        "temp files left: {:?}",
        temp_files(&f.local)
    );
    // a temp file a killed process left behind is cleaned up by the next download
    let stale = f.local.join("org/ex/big/1.0/big-1.0.jar.deadbeef.tmp");
    std::fs::write(&stale, b"partial").unwrap();
    // server back: the same request succeeds (through /public/, at full speed)
    f.nginx.restart();
    let r = Resolving::new(config(
        vec![repo("slowrepo", &f.nginx.http("public"))],
        &f.local,
        None,
    ))
    .unwrap();
    let a = r.resolve(&[coord("org.ex:big:1.0")]).remove(0).unwrap();
    assert_eq!(std::fs::read(&a.path).unwrap(), big);
    assert!(!stale.exists(), "stale temp file left");
}

const SNAPSHOT_MD: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<metadata modelVersion="1.1.0">
  <groupId>org.ex</groupId><artifactId>snap</artifactId><version>2.0-SNAPSHOT</version>
  <versioning>
    <snapshot><timestamp>TS</timestamp><buildNumber>BN</buildNumber></snapshot>
    <lastUpdated>LU</lastUpdated>
    <snapshotVersions>
      <snapshotVersion><extension>jar</extension><value>2.0-TS-BN</value><updated>LU</updated></snapshotVersion>
      <snapshotVersion><classifier>sources</classifier><extension>jar</extension><value>2.0-20240101.000000-1</value><updated>20240101000000</updated></snapshotVersion>
    </snapshotVersions>
  </versioning>
</metadata>"#;

fn publish_snapshot(repo: &Repo, ts: &str, bn: u32, lu: &str) {
    let md = SNAPSHOT_MD
        .replace("TS", ts)
        .replace("BN", &bn.to_string())
        .replace("LU", lu);
    repo.put("org/ex/snap/2.0-SNAPSHOT/maven-metadata.xml", md.as_bytes());
    repo.put(
        &format!("org/ex/snap/2.0-SNAPSHOT/snap-2.0-{ts}-{bn}.jar"),
        &Repo::content(&format!("snap{bn}"), 5000),
    );
    repo.put(
        "org/ex/snap/2.0-SNAPSHOT/snap-2.0-20240101.000000-1-sources.jar",
        &Repo::content("snapsrc", 700),
    );
}

#[test]
fn snapshots_resolve_through_metadata_and_honour_policies() {
    let f = fixture();
    publish_snapshot(&f.repo, "20240102.030405", 7, "20240102030405");
    // a release-only repository first: it must not be asked for SNAPSHOT metadata or files
    let mut releases_only = repo("releases-only", &f.nginx.http("public"));
    releases_only.snapshots.enabled = false;
    let mut snaps = repo("snaps", &f.nginx.https("private"));
    snaps.authentication = auth(USER, PASSWORD);
    let clock = Arc::new(ManualClock::new(
        UNIX_EPOCH + Duration::from_secs(1_800_000_000),
        0,
    ));
    let mut c = config(
        vec![releases_only, snaps],
        &f.local,
        Some(&f.nginx.tls.ca_pem),
    );
    c.clock = clock.clone();
    let r = Resolving::new(c.clone()).unwrap();
    let res = r.resolve(&[
        coord("org.ex:snap:2.0-SNAPSHOT"),
        coord("org.ex:snap:jar:sources:2.0-SNAPSHOT"),
    ]);
    let main = res[0].as_ref().unwrap();
    assert_eq!(main.version, "2.0-20240102.030405-7");
    assert_eq!(main.repository.as_deref(), Some("snaps"));
    let dir = f.local.join("org/ex/snap/2.0-SNAPSHOT");
    assert_eq!(main.path, dir.join("snap-2.0-20240102.030405-7.jar"));
    assert_same_bytes(&main.path, &dir.join("snap-2.0-SNAPSHOT.jar"));
    assert_eq!(res[1].as_ref().unwrap().version, "2.0-20240101.000000-1");
    assert!(dir.join("maven-metadata-snaps.xml").is_file());
    assert!(!dir.join("maven-metadata-releases-only.xml").exists());
    assert!(
        f.nginx.access_log().iter().all(|l| !l.contains("/public/")),
        "the release-only repository was asked: {:?}",
        f.nginx.access_log()
    );
    // a new snapshot is published; same day (daily policy): still the cached metadata
    publish_snapshot(&f.repo, "20240103.000000", 8, "20240103000000");
    clock.advance(Duration::from_secs(60));
    let r = Resolving::new(c.clone()).unwrap();
    let a = r
        .resolve(&[coord("org.ex:snap:2.0-SNAPSHOT")])
        .remove(0)
        .unwrap();
    assert_eq!(a.version, "2.0-20240102.030405-7");
    assert!(!a.downloaded);
    // after local midnight: metadata re-checked, new build downloaded
    clock.advance(Duration::from_secs(86_400));
    let r = Resolving::new(c).unwrap();
    let a = r
        .resolve(&[coord("org.ex:snap:2.0-SNAPSHOT")])
        .remove(0)
        .unwrap();
    assert_eq!(a.version, "2.0-20240103.000000-8");
    assert!(a.downloaded);
}

#[test]
fn release_and_latest_come_from_merged_metadata() {
    let f = fixture();
    let other = Repo::new(&f.work.join("unused"));
    drop(other);
    f.repo.put(
        "org/ex/lib/maven-metadata.xml",
        br#"<metadata><groupId>org.ex</groupId><artifactId>lib</artifactId><versioning>
        <latest>1.0</latest><release>1.0</release><versions><version>1.0</version></versions>
        <lastUpdated>20240101000000</lastUpdated></versioning></metadata>"#,
    );
    let r = Resolving::new(config(
        vec![
            repo("a", &f.nginx.http("empty")),
            repo("b", &f.nginx.http("public")),
        ],
        &f.local,
        None,
    ))
    .unwrap();
    let res = r.resolve(&[coord("org.ex:lib:RELEASE"), coord("org.ex:lib:pom:LATEST")]);
    assert_eq!(res[0].as_ref().unwrap().version, "1.0");
    assert_eq!(
        res[1].as_ref().unwrap().path,
        f.local.join("org/ex/lib/1.0/lib-1.0.pom")
    );
    let err = r
        .resolve(&[coord("org.ex:none:RELEASE")])
        .remove(0)
        .unwrap_err();
    assert!(
        matches!(err, DownloadError::VersionNotFound { .. }),
        "{err}"
    );
}

#[test]
fn offline_mode_uses_only_the_local_repository() {
    let f = fixture();
    let repos = vec![repo("central", &f.nginx.http("public"))];
    let r = Resolving::new(config(repos.clone(), &f.local, None)).unwrap();
    r.resolve(&[coord("org.ex:lib:1.0")]).remove(0).unwrap();
    let before = f.nginx.access_log().len();
    let mut c = config(repos, &f.local, None);
    c.offline = true;
    let r = Resolving::new(c).unwrap();
    let res = r.resolve(&[coord("org.ex:lib:1.0"), coord("org.ex:lib:pom:1.0")]);
    assert!(!res[0].as_ref().unwrap().downloaded);
    let msg = res[1].as_ref().unwrap_err().message_chain();
    assert!(
        msg.contains("in offline mode")
            && msg.contains("org.ex:lib:pom:1.0")
            && msg.contains("central"),
        "{msg}"
    );
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(
        f.nginx.access_log().len(),
        before,
        "offline mode made requests"
    );
}

#[test]
fn update_policies_decide_when_a_cached_not_found_is_retried() {
    let f = fixture();
    // 2030-01-01 12:00 UTC, local time UTC+0
    let noon = UNIX_EPOCH + Duration::from_secs(1_893_499_200);
    for (policy, after, expect_retry) in [
        ("daily", Duration::from_secs(3600), false),
        ("daily", Duration::from_secs(12 * 3600 + 60), true), // past local midnight
        ("interval:30", Duration::from_secs(10 * 60), false),
        ("interval:30", Duration::from_secs(31 * 60), true),
        ("never", Duration::from_secs(400 * 86_400), false),
        ("always", Duration::from_secs(1), true),
    ] {
        let name = format!(
            "p{}",
            policy.replace(':', "").len() * 1000 + after.as_secs() as usize % 997
        );
        let local = f.local.join(&name);
        let clock = Arc::new(ManualClock::new(noon, 0));
        let mut central = repo("central", &f.nginx.http("public"));
        central.releases.update_policy = policy.into();
        let mut c = config(vec![central], &local, None);
        c.clock = clock.clone();
        let art = format!("org.ex:late{name}:1.0");
        let r = Resolving::new(c.clone()).unwrap();
        assert!(r.resolve(&[coord(&art)]).remove(0).is_err());
        // the artifact appears on the server later
        f.repo.put(
            &format!("org/ex/late{name}/1.0/late{name}-1.0.jar"),
            b"now here",
        );
        clock.set(noon + after);
        let r = Resolving::new(c).unwrap();
        let res = r.resolve(&[coord(&art)]).remove(0);
        if expect_retry {
            assert_eq!(
                std::fs::read(&res.unwrap().path).unwrap(),
                b"now here",
                "{policy} after {after:?}"
            );
        } else {
            let err = res.unwrap_err();
            assert!(
                matches!(err, DownloadError::CachedNotFound { .. }),
                "{policy} after {after:?}: {err}"
            );
        }
    }
}

#[test]
fn two_resolvers_at_once_download_each_file_once_without_corruption() {
    let f = fixture();
    let mut coords = Vec::new();
    for i in 0..30 {
        f.repo.put(
            &format!("org/par/a{i}/1.0/a{i}-1.0.jar"),
            &Repo::content(&format!("p{i}"), 20_000 + i * 997),
        );
        coords.push(coord(&format!("org.par:a{i}:1.0")));
    }
    let url = f.nginx.http("public");
    let handles: Vec<_> = (0..2)
        .map(|_| {
            let (url, local, coords) = (url.clone(), f.local.clone(), coords.clone());
            std::thread::spawn(move || {
                let mut c = config(vec![repo("central", &url)], &local, None);
                c.max_in_flight = 8;
                Resolving::new(c).unwrap().resolve(&coords)
            })
        })
        .collect();
    for h in handles {
        for r in h.join().unwrap() {
            r.unwrap();
        }
    }
    for i in 0..30 {
        let rel = format!("org/par/a{i}/1.0/a{i}-1.0.jar");
        assert_same_bytes(&f.local.join(&rel), &f.repo.root.join(&rel));
    }
    assert_eq!(
        f.nginx.count_gets("-1.0.jar"),
        30,
        "each artifact downloaded exactly once"
    );
    assert!(temp_files(&f.local).is_empty());
}

#[test]
fn blocked_mirrors_are_refused_without_requests() {
    let tmp = tempfile::tempdir().unwrap();
    let mut blocker = repo("maven-default-http-blocker", "http://0.0.0.0/");
    blocker.blocked = true;
    blocker.mirrored_repositories = vec![repo("old-http", "http://repo.example.com/maven2")];
    let r = Resolving::new(config(vec![blocker], tmp.path(), None)).unwrap();
    let msg = r
        .resolve(&[coord("g:a:1")])
        .remove(0)
        .unwrap_err()
        .message_chain();
    assert!(
        msg.contains("maven-default-http-blocker")
            && msg.contains("old-http (http://repo.example.com/maven2)"),
        "{msg}"
    );
    // Encrypted credentials never reach a repository: the session decrypts them or leaves them
    // out (src/session/tests.rs), so the transport sends what it is given.
}

#[test]
fn snapshots_disabled_everywhere_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let mut r1 = repo("rel", "http://127.0.0.1:9/r");
    r1.snapshots.enabled = false;
    let r = Resolving::new(config(vec![r1], tmp.path(), None)).unwrap();
    let msg = r
        .resolve(&[coord("g:a:1.0-SNAPSHOT")])
        .remove(0)
        .unwrap_err()
        .message_chain();
    assert!(
        msg.contains("no repository has snapshots enabled") && msg.contains("rel ("),
        "{msg}"
    );
    let _ = SystemTime::now();
}

#[test]
fn gzip_encoded_artifacts_are_stored_as_served() {
    let f = fixture();
    // a .tar.gz served with Content-Encoding: gzip must not be decoded (WAGON-299)
    let mut gz = Vec::new();
    {
        use std::io::Write;
        // a minimal valid gzip member of "hello\n" (fixed bytes, no compressor dependency)
        gz.write_all(&[
            0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xcb, 0x48, 0xcd, 0xc9,
            0xc9, 0xe7, 0x02, 0x00, 0x20, 0x30, 0x3a, 0x36, 0x06, 0x00, 0x00, 0x00,
        ])
        .unwrap();
    }
    f.repo.put("org/ex/dist/1.0/dist-1.0-bin.tar.gz", &gz);
    let r = Resolving::new(config(
        vec![repo("gz", &f.nginx.http("gz"))],
        &f.local,
        None,
    ))
    .unwrap();
    let a = r
        .resolve(&[coord("org.ex:dist:tar.gz:bin:1.0")])
        .remove(0)
        .unwrap();
    assert_eq!(std::fs::read(&a.path).unwrap(), gz);
    assert!(a.is_verified());
}

#[test]
fn server_http_headers_are_sent() {
    let f = fixture();
    let mut with = repo("hdr", &f.nginx.http("hdr"));
    let r = Resolving::new(config(vec![with.clone()], &f.local, None)).unwrap();
    let err = r.resolve(&[coord("org.ex:lib:1.0")]).remove(0).unwrap_err();
    assert!(err.message_chain().contains("403"), "{err}");
    with.transport
        .headers
        .push(("X-Repo-Token".into(), "t0ken".into()));
    let r = Resolving::new(config(vec![with], &f.local, None)).unwrap();
    assert!(r.resolve(&[coord("org.ex:lib:1.0")]).remove(0).is_ok());
}

#[test]
fn request_timeout_of_a_silent_server_is_retried_then_reported() {
    let tmp = tempfile::tempdir().unwrap();
    // accepts connections and never answers
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let keep = std::thread::spawn(move || {
        let mut held = Vec::new();
        listener.set_nonblocking(true).unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while std::time::Instant::now() < deadline && held.len() < 10 {
            if let Ok((s, _)) = listener.accept() {
                held.push(s);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        held.len()
    });
    let mut silent = repo("silent", &format!("http://127.0.0.1:{port}/r/"));
    silent.transport.request_timeout = Some(Duration::from_millis(300));
    let r = Resolving::new(config(vec![silent], tmp.path(), None)).unwrap();
    let started = std::time::Instant::now();
    let err = r.resolve(&[coord("g:a:1")]).remove(0).unwrap_err();
    let msg = err.message_chain();
    assert!(
        msg.contains("timed out") && msg.contains("silent") && msg.contains("2 retries"),
        "{msg}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
    drop(r);
    assert!(
        keep.join().unwrap() >= 3,
        "each attempt opened a connection"
    );
}

#[derive(Default)]
struct Counting {
    started: std::sync::atomic::AtomicUsize,
    bytes: std::sync::atomic::AtomicU64,
    done: std::sync::atomic::AtomicUsize,
    cached: std::sync::atomic::AtomicUsize,
    failed: std::sync::atomic::AtomicUsize,
}

impl m2resolver::download::ProgressListener for Counting {
    fn on_event(&self, event: &ProgressEvent<'_>) {
        use std::sync::atomic::Ordering::SeqCst;
        match event {
            ProgressEvent::TransferStarted { .. } => {
                self.started.fetch_add(1, SeqCst);
            }
            ProgressEvent::TransferProgress { bytes, .. } => {
                self.bytes.fetch_add(*bytes, SeqCst);
            }
            ProgressEvent::Downloaded { .. } => {
                self.done.fetch_add(1, SeqCst);
            }
            ProgressEvent::Cached { .. } => {
                self.cached.fetch_add(1, SeqCst);
            }
            ProgressEvent::Failed { .. } => {
                self.failed.fetch_add(1, SeqCst);
            }
            _ => {}
        }
    }
}

#[test]
fn progress_listener_hears_every_artifact() {
    use std::sync::atomic::Ordering::SeqCst;
    let f = fixture();
    let listener = Arc::new(Counting::default());
    let mut c = config(
        vec![repo("central", &f.nginx.http("public"))],
        &f.local,
        None,
    );
    c.listener = listener.clone();
    let r = Resolving::new(c).unwrap();
    let res = r.resolve(&[
        coord("org.ex:lib:1.0"),
        coord("org.ex:lib:pom:1.0"),
        coord("org.ex:missing:1.0"),
    ]);
    assert_eq!(res.iter().filter(|r| r.is_ok()).count(), 2);
    assert_eq!(listener.started.load(SeqCst), 2);
    assert_eq!(
        listener.bytes.load(SeqCst),
        40_000 + "<project/>".len() as u64
    );
    assert_eq!(listener.done.load(SeqCst), 2);
    assert_eq!(listener.failed.load(SeqCst), 1);
}

#[test]
fn connections_are_reused_within_the_in_flight_bound() {
    let f = fixture();
    let mut coords = Vec::new();
    for i in 0..25 {
        f.repo.put(
            &format!("org/reuse/r{i}/1.0/r{i}-1.0.jar"),
            &Repo::content(&format!("r{i}"), 3000),
        );
        coords.push(coord(&format!("org.reuse:r{i}:1.0")));
    }
    let mut c = config(
        vec![repo("central", &f.nginx.http("public"))],
        &f.local,
        None,
    );
    c.max_in_flight = 4;
    let r = Resolving::new(c).unwrap();
    assert!(r.resolve(&coords).iter().all(|r| r.is_ok()));
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(f.nginx.count_gets(".jar") + f.nginx.count_gets(".sha1"), 50);
    // Reuse, not a connection per request. hyper hands a connection back to its pool just
    // after the body ends, so a request that starts in that gap may open one more: allow
    // twice the bound rather than make the test depend on the scheduler.
    let conns = f.nginx.connections();
    assert!(
        conns <= 8,
        "{conns} connections for 50 requests with 4 in flight"
    );
    assert_eq!(r.resolver().transport().client_count(), 1);
}

#[test]
fn checksums_in_response_headers_are_checked_before_sidecar_files() {
    let f = fixture();
    // /xsum/ adds a wrong X-Checksum-Sha1 header; the .sha1 file is right
    let mut strict = repo("xsum", &f.nginx.http("xsum"));
    strict.releases.checksum_policy = "fail".into();
    let r = Resolving::new(config(vec![strict], &f.local, None)).unwrap();
    let err = r.resolve(&[coord("org.ex:lib:1.0")]).remove(0).unwrap_err();
    assert!(
        err.message_chain()
            .contains("0123456789012345678901234567890123456789"),
        "{err}"
    );
    assert_eq!(
        f.nginx.count_gets(".jar"),
        2,
        "one re-download after the mismatch"
    );
}

#[test]
fn file_repositories_are_read_directly() {
    let tmp = tempfile::tempdir().unwrap();
    let remote = Repo::new(&tmp.path().join("remote dir"));
    remote.put("g/a/1/a-1.jar", b"from a file repository");
    let url = url::Url::from_directory_path(&remote.root)
        .unwrap()
        .to_string();
    assert!(url.contains("remote%20dir"), "{url}");
    let local = tmp.path().join("local");
    let r = Resolving::new(config(vec![repo("files", &url)], &local, None)).unwrap();
    let res = r.resolve(&[coord("g:a:1"), coord("g:b:1")]);
    let a = res[0].as_ref().unwrap();
    assert_eq!(std::fs::read(&a.path).unwrap(), b"from a file repository");
    assert_eq!(a.checksum, ChecksumOutcome::Verified { algorithm: "SHA-1" });
    assert!(matches!(res[1], Err(DownloadError::NotFound { .. })));
    let r = Resolving::new(config(vec![repo("ftp", "ftp://h/r/")], &local, None)).unwrap();
    let msg = r
        .resolve(&[coord("g:a:2")])
        .remove(0)
        .unwrap_err()
        .message_chain();
    assert!(msg.contains("unsupported protocol `ftp`"), "{msg}");
}

// ------------------------------------------------------------------ proxy and server challenges

fn artifacts(f: &Fixture, n: usize) -> Vec<Artifact> {
    (0..n)
        .map(|i| {
            f.repo.put(
                &format!("org/many/m{i}/1.0/m{i}-1.0.jar"),
                &Repo::content(&format!("m{i}"), 2_000 + i),
            );
            coord(&format!("org.many:m{i}:1.0"))
        })
        .collect()
}

fn via(kind_id: &str, port: u16, user: &str, password: &str) -> RepositoryProxy {
    RepositoryProxy {
        kind: "http".into(),
        host: "127.0.0.1".into(),
        port: port as i32,
        auth: auth(user, password),
        source: ProxySource::Settings { id: kind_id.into() },
    }
}

#[test]
fn digest_and_ntlm_proxies_are_answered_then_preemptively() {
    let f = fixture();
    let coords = artifacts(&f, 24);
    let loopback = "127.0.0.1".parse().unwrap();
    let digest = Squid::start_with(&f.work, &[f.nginx.https_port], SquidAuth::Digest, loopback);
    let ntlm = Squid::start_with(&f.work, &[f.nginx.https_port], SquidAuth::Ntlm, loopback);
    for (name, squid, user) in [
        ("digest", &digest, PROXY_USER.to_string()),
        ("ntlm", &ntlm, format!("CORP\\{PROXY_USER}")),
    ] {
        for url in [f.nginx.https("private"), f.nginx.http("private")] {
            let before = squid.count_status(407);
            let mut r1 = repo("via-proxy", &url);
            r1.authentication = auth(USER, PASSWORD);
            r1.proxy = Some(via(name, squid.port, &user, PROXY_PASSWORD));
            let local = f.local.join(format!("{name}-{}", &url[..5]));
            let mut c = config(vec![r1], &local, Some(&f.nginx.tls.ca_pem));
            c.max_in_flight = 6;
            let r = Resolving::new(c).unwrap();
            for (a, c) in r.resolve(&coords).into_iter().zip(&coords) {
                let a = a.unwrap_or_else(|e| panic!("{name} {url}: {e}"));
                assert_eq!(a.checksum, ChecksumOutcome::Verified { algorithm: "SHA-1" });
                assert_same_bytes(
                    &a.path,
                    &f.repo
                        .root
                        .join(format!("org/many/{0}/1.0/{0}-1.0.jar", c.artifact_id)),
                );
            }
            // 48 requests (jar + sha1), 6 in parallel: one exchange learns the scheme, the
            // others answer at once. A Digest nonce serves one request at a time, so each
            // request in flight collects one nonce once: bounded by the parallelism. NTLM is
            // challenged once per new connection (the challenge is its second message), and the
            // pool opens a few more connections than requests in flight while handshakes are
            // slow: bounded by the connections, well under one per request.
            // squid logs a tunnel when it closes: close the pool first
            drop(r);
            let challenged = squid.count_status(407) - before;
            let bound = if name == "ntlm" { 48 / 2 } else { 1 + 6 };
            if url.starts_with("https") {
                // HTTP/2 inside the tunnel; the first request of each lane goes alone (the
                // jars, and their checksum files on a connection of their own), so every other
                // one shares its lane's connection: two tunnels
                assert!(
                    f.nginx
                        .access_log()
                        .iter()
                        .any(|l| l.contains("m0-1.0.jar HTTP/2.0 200")),
                    "{:?}",
                    f.nginx.access_log()
                );
                let tunnels = squid
                    .access_log()
                    .iter()
                    .filter(|l| l.contains("TCP_TUNNEL/200"))
                    .count();
                assert_eq!(tunnels, 2, "{name}: tunnels for 48 requests");
                // NTLM: the first connection's request is refused, then its Negotiate is
                // challenged; a later connection starts with Negotiate (one 407), unless it
                // started before the scheme was learned. Digest: one for the first request, and
                // one more only if the other lane's first request left before its nonce was
                // learned.
                if name == "ntlm" {
                    assert!(
                        (tunnels + 1..=2 * tunnels).contains(&challenged),
                        "{name}: {challenged}"
                    );
                } else {
                    assert!((1..=tunnels).contains(&challenged), "{name}: {challenged}");
                }
            }
            assert!(
                (1..=bound).contains(&challenged),
                "{name} {url}: {challenged} 407s (bound {bound})\n{:?}",
                squid.access_log()
            );
        }
    }
}

#[test]
fn wrong_proxy_password_fails_at_once_with_one_clear_error() {
    let f = fixture();
    let coords = artifacts(&f, 12);
    let loopback = "127.0.0.1".parse().unwrap();
    let basic = Squid::start(&f.work, &[f.nginx.https_port]);
    let digest = Squid::start_with(&f.work, &[f.nginx.https_port], SquidAuth::Digest, loopback);
    for (name, squid) in [("basic-proxy", &basic), ("digest-proxy", &digest)] {
        for url in [f.nginx.https("private"), f.nginx.http("private")] {
            let before = squid.count_status(407);
            let mut bad = repo("via-proxy", &url);
            bad.authentication = auth(USER, PASSWORD);
            bad.proxy = Some(via(name, squid.port, PROXY_USER, "wrong-pass"));
            let mut c = config(vec![bad], &f.local.join("x"), Some(&f.nginx.tls.ca_pem));
            c.max_in_flight = 8;
            let r = Resolving::new(c).unwrap();
            let started = std::time::Instant::now();
            let results = r.resolve(&coords);
            assert!(started.elapsed() < Duration::from_secs(5), "{name}: slow");
            for res in results {
                let err = res.unwrap_err();
                let msg = err.message_chain();
                let DownloadError::Transfer {
                    source: TransportError::ProxyAuth { rejection, .. },
                    ..
                } = &err
                else {
                    panic!("{name} {url}: {msg}")
                };
                let scheme = if name == "digest-proxy" {
                    "Digest"
                } else {
                    "Basic"
                };
                assert_eq!(rejection.scheme.map(|s| s.as_str()), Some(scheme), "{msg}");
                assert!(
                    msg.contains(&format!("(id `{name}`)"))
                        && msg.contains(&format!("m2r answered with {scheme}"))
                        && msg.contains("as user `proxyuser`")
                        && msg.contains("rejected")
                        && !msg.contains("wrong-pass"),
                    "{msg}"
                );
            }
            // no retry storm: one 407 without credentials, one for the rejected answer
            assert_eq!(
                squid.count_status(407) - before,
                2,
                "{name} {url}\n{:?}",
                squid.access_log()
            );
        }
    }
}

#[test]
fn server_digest_challenge_is_answered_and_then_preemptive() {
    let f = fixture();
    let coords = artifacts(&f, 10);
    let apache = Apache::start(&f.repo.root, &f.work);
    let mut r1 = repo("digest-server", &apache.url());
    r1.authentication = auth(USER, PASSWORD);
    let mut c = config(vec![r1.clone()], &f.local, None);
    c.max_in_flight = 1;
    let r = Resolving::new(c).unwrap();
    for a in r.resolve(&coords) {
        let a = a.unwrap();
        assert_eq!(a.checksum, ChecksumOutcome::Verified { algorithm: "SHA-1" });
    }
    // the first request (preemptive Basic) is challenged; the other 19 answer with the nonce
    assert_eq!(apache.count_status(401), 1);
    assert_eq!(apache.count_status(200), 20);
    // a wrong password: Digest answered once, rejected, a clear error
    r1.authentication = auth(USER, "nope");
    let r = Resolving::new(config(vec![r1], &f.local.join("x"), None)).unwrap();
    let err = r.resolve(&coords[..1]).remove(0).unwrap_err();
    let msg = err.message_chain();
    assert!(
        matches!(
            &err,
            DownloadError::Transfer {
                source: TransportError::Unauthorized {
                    status: 401,
                    sent_credentials: true,
                    rejection: Some(_),
                    ..
                },
                ..
            }
        ),
        "{msg}"
    );
    assert!(
        msg.contains("`digest-server`")
            && msg.contains("asked for Digest realm=\"m2r digest\"")
            && msg.contains("Digest (MD5) as user `deploy`")
            && !msg.contains("nope"),
        "{msg}"
    );
}

#[test]
fn proxy_listening_on_one_of_its_addresses_is_reached_and_the_dead_route_goes_last() {
    let f = fixture();
    let coords = artifacts(&f, 6);
    // squid listens on 127.0.0.1 only; its name resolves to ::1 first
    let squid = Squid::start_with(
        &f.work,
        &[f.nginx.https_port],
        SquidAuth::Basic,
        "127.0.0.1".parse().unwrap(),
    );
    let mut r1 = repo("failover", &f.nginx.https("private"));
    r1.authentication = auth(USER, PASSWORD);
    let mut p = via("corp", squid.port, PROXY_USER, PROXY_PASSWORD);
    p.host = "proxy.test".into();
    r1.proxy = Some(p);
    let mut c = config(vec![r1.clone()], &f.local, Some(&f.nginx.tls.ca_pem));
    c.transport.resolve.insert(
        "proxy.test".into(),
        vec!["::1".parse().unwrap(), "127.0.0.1".parse().unwrap()],
    );
    let r = Resolving::new(c).unwrap();
    for a in r.resolve(&coords) {
        a.unwrap();
    }
    let hop = format!("proxy.test:{}", squid.port);
    let dead: std::net::SocketAddr = format!("[::1]:{}", squid.port).parse().unwrap();
    let alive: std::net::SocketAddr = format!("127.0.0.1:{}", squid.port).parse().unwrap();
    let transport = r.resolver().transport();
    assert_eq!(transport.routes().failed_for(&hop), vec![dead]);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let plan = rt.block_on(transport.route_plan(&r1));
    assert_eq!(plan.addresses, Ok(vec![alive, dead]));
    let text = plan.describe().join("\n");
    assert!(
        text.contains(&format!("failed this session: {dead}"))
            && text.contains("proxy authentication: Basic first"),
        "{text}"
    );
    // nothing listens anywhere: every route is named in the error
    let mut gone = r1.clone();
    if let Some(p) = gone.proxy.as_mut() {
        p.host = "nowhere.test".into();
        p.port = free_port() as i32;
    }
    let mut c = config(vec![gone], &f.local.join("x"), Some(&f.nginx.tls.ca_pem));
    c.transport.retry.retries = 0;
    c.transport.resolve.insert(
        "nowhere.test".into(),
        vec!["::1".parse().unwrap(), "127.0.0.1".parse().unwrap()],
    );
    let r = Resolving::new(c).unwrap();
    let err = r.resolve(&coords[..1]).remove(0).unwrap_err();
    let DownloadError::Transfer { source, .. } = &err else {
        panic!("{err}")
    };
    match source.connect_error() {
        Some(m2resolver::transport::ConnectError::Connect { attempts, .. }) => {
            assert_eq!(attempts.len(), 2, "{err}")
        }
        other => panic!("{other:?}: {err}"),
    }
    let msg = err.message_chain();
    assert!(
        msg.contains("[::1]:") && msg.contains("127.0.0.1:"),
        "{msg}"
    );
}

// ---------------------------------------------------------------------------------------------
// The session's dependency answers (`describe`, `collect`, `resolve`, async and blocking)
// against nginx over HTTPS with basic auth, reached through an authenticating squid.

mod session_graph {
    use super::*;
    use m2resolver::settings::SettingsSource;
    use m2resolver::ClasspathScope;
    use m2resolver::Root;
    use m2resolver::{Artifact, Dependency};
    use m2resolver::{CollectResult, DependencyGraph};
    use m2resolver::{Environment, Session, SessionError};
    use std::collections::HashMap;
    use support::graph::{graph, path_of, Graph};

    impl Graph {
        /// A session over the settings, with its own environment (the CA through
        /// `SSL_CERT_FILE`, the working directory) and local repository `local`.
        pub fn session(&self, local: &str) -> Session {
            self.session_with(local, false)
        }

        pub fn session_with(&self, local: &str, offline: bool) -> Session {
            let env = HashMap::from([(
                "SSL_CERT_FILE".to_string(),
                self.nginx.tls.ca_pem.display().to_string(),
            )]);
            Session::builder()
                .environment(Environment::from_parts(env, self.dir.clone()))
                .user_settings(SettingsSource::content("settings.xml", &self.settings))
                .no_global_settings()
                .define("user.home=home")
                .offline(offline)
                .local_repository(local)
                .build()
                .unwrap()
        }
    }

    pub fn artifact(coord: &str) -> Artifact {
        Artifact::parse(coord).unwrap()
    }

    /// `g:a:v scope` of every node in pre-order, the root first.
    pub fn nodes(graph: &DependencyGraph) -> Vec<String> {
        std::iter::once((graph.root(), 0))
            .chain(graph.preorder())
            .map(|(n, depth)| {
                let node = graph.node(n);
                // bare coordinates have an unnamed root
                let Some(a) = node.artifact() else {
                    return String::new();
                };
                format!(
                    "{}{}:{}:{} {}",
                    "  ".repeat(depth),
                    a.group_id,
                    a.artifact_id,
                    a.version,
                    node.scope()
                )
                .trim_end()
                .to_string()
            })
            .collect()
    }

    /// The graph of a:1 as Maven resolves it, with where e came from.
    pub fn check_graph(result: &CollectResult, root: &str) {
        assert!(result.errors.is_empty(), "{:?}", result.errors);
        assert!(result.problems.is_empty(), "{:?}", result.problems);
        let g = &result.graph;
        assert_eq!(
            nodes(g),
            [
                root,
                "  org.ex:a:1 compile",
                "    org.ex:b:1 compile",
                // c:1 under b loses, but its wider scope wins (JavaScopeSelector)
                "    org.ex:c:2 compile",
                "    org.extra:e:1 compile",
                "      org.extra:f:1 compile",
            ]
        );
        let (e, _) = g.preorder()[3];
        let repos: Vec<&str> = g
            .node(e)
            .repositories
            .iter()
            .map(|r| r.id.as_str())
            .collect();
        assert_eq!(
            repos,
            ["corp", "extra"],
            "e's repositories: the mirror, then a's own"
        );
        // the mirror got its server's credentials and the settings proxy
        let corp = &g.node(e).repositories[0];
        assert_eq!(
            corp.authentication.as_ref().unwrap().username.as_deref(),
            Some(USER)
        );
        assert!(corp.proxy.is_some());
    }

    /// Every artifact of a:1's graph, in class-path order.
    pub const GRAPH: &[&str] = &[
        "org.ex:a:1",
        "org.ex:b:1",
        "org.ex:c:2",
        "org.extra:e:1",
        "org.extra:f:1",
    ];

    pub fn check_files(local: &Path, files: &[&Path], coords: &[&str]) {
        assert_eq!(files.len(), coords.len(), "{files:?}");
        for (f, c) in files.iter().zip(coords) {
            assert_eq!(*f, local.join(path_of(c, "jar")), "{c}");
            assert_eq!(std::fs::read(f).unwrap(), Repo::content(c, 3000), "{c}");
        }
        assert!(temp_files(local).is_empty());
    }

    #[test]
    fn blocking_describe_collect_and_resolve_through_an_authenticating_proxy() {
        let g = graph();
        let session = g.session("local");
        let repos = session
            .repositories(&[RemoteRepository::central()])
            .repositories;

        let d = session
            .blocking_describe(&artifact("org.ex:a:1"), &repos)
            .unwrap();
        assert_eq!(d.descriptor.dependencies.len(), 3);
        assert_eq!(d.descriptor.repositories[0].id, "extra");

        let collected = session
            .blocking_collect(&Root::Artifact(artifact("org.ex:a:1")), &repos)
            .unwrap();
        // an artifact root: the root is the artifact, its dependencies below it
        assert_eq!(
            nodes(&collected.graph)[..2],
            ["org.ex:a:1", "  org.ex:b:1 compile"]
        );

        let local = g.dir.join("local");
        let result = session
            .blocking_resolve(&Root::compile([artifact("org.ex:a:1")]), &repos, None)
            .unwrap();
        check_graph(&result.collect, "");
        check_files(&local, &result.files(), GRAPH);
        check_files(&local, &result.classpath(ClasspathScope::Compile), GRAPH);
        check_files(&local, &result.classpath(ClasspathScope::Test), GRAPH);
        let remote =
            std::fs::read_to_string(local.join("org/extra/e/1/_remote.repositories")).unwrap();
        assert!(remote.contains("e-1.jar>extra="), "{remote}");
        let log = g.nginx.access_log().join("\n");
        assert!(
            !log.contains("org/ex/t/"),
            "the pruned test dependency is not fetched"
        );

        // a second session, offline, answers from the local repository alone
        let before = g.nginx.access_log().len();
        let offline = g.session_with("local", true);
        let again = offline
            .blocking_resolve(
                &Root::compile([artifact("org.ex:a:1")]),
                &offline
                    .repositories(&[RemoteRepository::central()])
                    .repositories,
                Some(ClasspathScope::Runtime),
            )
            .unwrap();
        check_files(&local, &again.files(), GRAPH);
        assert_eq!(g.nginx.access_log().len(), before);

        // an artifact without its jar: the error keeps the graph and what was resolved
        let err = session
            .blocking_resolve(
                &Root::compile([artifact("org.ex:nojar:1"), artifact("org.ex:c:1")]),
                &repos,
                None,
            )
            .unwrap_err();
        let text = std::error::Error::source(&err).unwrap().to_string();
        assert!(text.contains("org.ex:nojar:jar:1"), "{text}");
        let SessionError::Resolve { result, .. } = err else {
            panic!("{err}")
        };
        assert_eq!(result.failures().count(), 1);
        check_files(&local, &result.files(), &["org.ex:c:1"]);

        // a root that cannot be read: no graph
        let err = session
            .blocking_collect(&Root::Pom("missing/pom.xml".into()), &repos)
            .unwrap_err();
        assert!(matches!(err, SessionError::Root { .. }), "{err}");
    }

    #[tokio::test]
    async fn async_collect_and_resolve_with_a_project_model() {
        let g = graph();
        let session = g.session("local-async");
        let repos = session
            .repositories(&[RemoteRepository::central()])
            .repositories;
        // a build tool's own model: management makes b runtime
        let root = Root::Project {
            artifact: Artifact::new("org.tool", "app", "pom", "", "1"),
            dependencies: vec![Dependency::new(artifact("org.ex:a:1"), "compile")],
            managed_dependencies: vec![Dependency::new(artifact("org.ex:b:1"), "runtime")],
        };
        let collected = session.collect(&root, &repos).await.unwrap();
        let (b, _) = collected.graph.preorder()[1];
        let b = collected.graph.node(b);
        assert_eq!(b.scope(), "runtime");
        assert_eq!(b.management.premanaged_scope.as_deref(), Some("compile"));

        let result = session
            .resolve(&root, &repos, Some(ClasspathScope::Compile))
            .await
            .unwrap();
        let local = g.dir.join("local-async");
        check_files(
            &local,
            &result.files(),
            &["org.ex:a:1", "org.extra:e:1", "org.extra:f:1"],
        );
        assert!(result.artifacts.iter().all(|a| a.download.is_some()));
    }
}

/// Checksum files are asked for as Maven 3.8.7 asks (`aether.checksums.algorithms`, default
/// `SHA-1,MD5`): a repository without them costs two extra requests per file, not four.
#[test]
fn checksum_files_are_requested_as_resolver_1_6_3_requests_them() {
    use m2resolver::download::ChecksumAlgorithms;
    let f = fixture();
    f.repo
        .put_raw("org/bare/x/1.0/x-1.0.jar", &Repo::content("x", 1000));
    f.repo
        .put_raw("org/bare/y/1.0/y-1.0.jar", &Repo::content("y", 1000));
    f.repo
        .put("org/bare/z/1.0/z-1.0.jar", &Repo::content("z", 1000));
    let central = repo("central", &f.nginx.http("public"));
    let r = Resolving::new(config(vec![central.clone()], &f.local, None)).unwrap();
    let x = r.resolve(&[coord("org.bare:x:1.0")]).remove(0).unwrap();
    assert!(!x.is_verified(), "no checksums: accepted under warn");
    let log = f.nginx.access_log();
    let asked: Vec<&str> = log
        .iter()
        .filter(|l| l.contains("/x-1.0.jar"))
        .filter_map(|l| l.split(' ').nth(1))
        .collect();
    let mut sorted = asked.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        [
            "/public/org/bare/x/1.0/x-1.0.jar",
            "/public/org/bare/x/1.0/x-1.0.jar.md5",
            "/public/org/bare/x/1.0/x-1.0.jar.sha1",
        ],
        "{log:?}"
    );
    // Resolver's key decides: SHA-512 only
    let mut c = config(vec![central], &f.local.join("strong"), None);
    c.checksum_algorithms = ChecksumAlgorithms::parse("SHA-512").unwrap();
    let r = Resolving::new(c).unwrap();
    r.resolve(&[coord("org.bare:y:1.0")]).remove(0).unwrap();
    let z = r.resolve(&[coord("org.bare:z:1.0")]).remove(0).unwrap();
    assert!(!z.is_verified(), "z has .sha1 and .md5 only: not asked");
    let log = f.nginx.access_log();
    for name in ["y", "z"] {
        let mut asked: Vec<&str> = log
            .iter()
            .filter(|l| l.contains(&format!("/{name}-1.0.jar")))
            .filter_map(|l| l.split(' ').nth(1))
            .collect();
        asked.sort();
        assert_eq!(
            asked,
            [
                format!("/public/org/bare/{name}/1.0/{name}-1.0.jar"),
                format!("/public/org/bare/{name}/1.0/{name}-1.0.jar.sha512"),
            ],
            "{log:?}"
        );
    }
}
