//! One engine per session, against real servers on loopback (nginx over HTTPS with basic auth,
//! reached through an authenticating squid): calls made through one session — from several
//! threads, one after another, async or blocking — share its connections and what its proxy
//! authentication learned, and never send a password that could not be decrypted.
//!
//! TLS handshakes are counted as nginx's connections (`c=$connection` in its access log: every
//! connection to the HTTPS port is one handshake), proxy tunnels as squid's `CONNECT` lines
//! (squid logs a tunnel when it closes: each test drops its session first).

#![allow(clippy::result_large_err)]

mod support;

use m2resolver::settings::SettingsSource;
use m2resolver::{Artifact, Environment, RemoteRepository, Root, Session};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;
use support::*;

/// nginx serving `org.many:m<i>:1.0` (POM and jar, with checksums) and squid in front of it.
struct World {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    nginx: Nginx,
    squid: Squid,
    repo: Repo,
}

fn world(auth: SquidAuth, artifacts: usize) -> World {
    let tmp = tempfile::tempdir().unwrap();
    let repo = Repo::new(&tmp.path().join("remote"));
    for i in 0..artifacts {
        repo.put(
            &format!("org/many/m{i}/1.0/m{i}-1.0.jar"),
            &Repo::content(&format!("m{i}"), 3_000 + i),
        );
        repo.put(
            &format!("org/many/m{i}/1.0/m{i}-1.0.pom"),
            format!(
                "<project><modelVersion>4.0.0</modelVersion><groupId>org.many</groupId>\
                 <artifactId>m{i}</artifactId><version>1.0</version></project>"
            )
            .as_bytes(),
        );
    }
    let work = tmp.path().join("work");
    let nginx = Nginx::start(&repo.root, &work);
    let squid = Squid::start_with(
        &work,
        &[nginx.https_port],
        auth,
        "127.0.0.1".parse().unwrap(),
    );
    let dir = tmp.path().join("case");
    std::fs::create_dir_all(&dir).unwrap();
    World {
        _tmp: tmp,
        dir,
        nginx,
        squid,
        repo,
    }
}

impl World {
    /// Settings: mirror `corp` of everything (nginx `/private/` over HTTPS) with its server's
    /// credentials (`password` as written), the squid as the settings proxy.
    fn settings(&self, proxy_user: &str, password: &str) -> String {
        format!(
            r#"<settings>
  <mirrors><mirror><id>corp</id><mirrorOf>*</mirrorOf><url>{url}</url></mirror></mirrors>
  <proxies><proxy><id>corp-proxy</id><protocol>http</protocol><host>127.0.0.1</host><port>{port}</port>
    <username>{proxy_user}</username><password>{PROXY_PASSWORD}</password></proxy></proxies>
  <servers><server><id>corp</id><username>{USER}</username><password>{password}</password></server></servers>
</settings>"#,
            url = self.nginx.https("private"),
            port = self.squid.port,
        )
    }

    fn session(&self, settings: &str, local: &str, in_flight: usize) -> Session {
        let env = HashMap::from([(
            "SSL_CERT_FILE".to_string(),
            self.nginx.tls.ca_pem.display().to_string(),
        )]);
        Session::builder()
            .environment(Environment::from_parts(env, self.dir.clone()))
            .user_settings(SettingsSource::content("settings.xml", settings))
            .no_global_settings()
            .security_file(self.dir.join("no-settings-security.xml"))
            .define("user.home=home")
            .local_repository(self.dir.join(local))
            .max_in_flight(in_flight)
            .build()
            .unwrap()
    }

    /// Proxy tunnels squid logged (after the session that opened them was dropped).
    fn tunnels(&self) -> usize {
        // squid writes a tunnel's line when it closes; give it a moment
        let mut last = 0;
        for _ in 0..20 {
            std::thread::sleep(Duration::from_millis(100));
            let n = self
                .squid
                .access_log()
                .iter()
                .filter(|l| l.contains("CONNECT") && l.contains("/200 "))
                .count();
            if n == last && n > 0 {
                break;
            }
            last = n;
        }
        last
    }

    fn local(&self, local: &str) -> PathBuf {
        self.dir.join(local)
    }
}

fn coord(i: usize) -> Artifact {
    Artifact::parse(&format!("org.many:m{i}:1.0")).unwrap()
}

fn jar_of(local: &Path, i: usize) -> PathBuf {
    local.join(format!("org/many/m{i}/1.0/m{i}-1.0.jar"))
}

/// Ten calls from two threads through one session with two requests in flight: no more TLS
/// handshakes and proxy tunnels than the session's lanes (HTTP/2: one connection for the
/// files, one for their checksum files, one for the requests made ahead), where a transport per
/// call made one per call.
#[test]
fn calls_from_two_threads_share_the_sessions_connections_within_the_in_flight_bound() {
    let w = world(SquidAuth::Basic, 10);
    let settings = w.settings(PROXY_USER, PASSWORD);
    let session = w.session(&settings, "local", 2);
    let repos = session
        .repositories(&[RemoteRepository::central()])
        .repositories;
    std::thread::scope(|s| {
        for t in 0..2 {
            let (session, repos) = (&session, &repos);
            s.spawn(move || {
                for k in 0..5 {
                    let i = t * 5 + k;
                    // a graph (POM, then jar) for even calls, a plain download for odd ones
                    if k % 2 == 0 {
                        let r = session
                            .blocking_resolve(&Root::compile([coord(i)]), repos, None)
                            .unwrap_or_else(|e| panic!("m{i}: {}", e.message_chain()));
                        assert_eq!(r.files().len(), 1);
                    } else {
                        let r = session.blocking_download(&[coord(i)], repos).unwrap();
                        r[0].as_ref().unwrap_or_else(|e| panic!("m{i}: {e}"));
                    }
                }
            });
        }
    });
    drop(session);
    let local = w.local("local");
    for i in 0..10 {
        assert_eq!(
            std::fs::read(jar_of(&local, i)).unwrap(),
            std::fs::read(w.repo.root.join(format!("org/many/m{i}/1.0/m{i}-1.0.jar"))).unwrap()
        );
    }
    let handshakes = w.nginx.connections();
    let tunnels = w.tunnels();
    assert!(
        (1..=3).contains(&handshakes),
        "{handshakes} TLS connections to nginx for 10 calls:\n{}",
        w.nginx.access_log().join("\n")
    );
    assert!(
        (1..=3).contains(&tunnels),
        "{tunnels} CONNECT tunnels for 10 calls:\n{}",
        w.squid.access_log().join("\n")
    );
    // The control: a session per call (what a call without the session's engine did) opens
    // connections of its own each time.
    for i in 0..3 {
        let fresh = w.session(&settings, &format!("fresh-{i}"), 2);
        let repos = fresh
            .repositories(&[RemoteRepository::central()])
            .repositories;
        fresh.blocking_download(&[coord(i)], &repos).unwrap()[0]
            .as_ref()
            .unwrap();
    }
    assert!(
        w.nginx.connections() >= handshakes + 3,
        "{}",
        w.nginx.access_log().join("\n")
    );
}

/// A proxy's challenge-response is made once per connection (NTLM) or once per session
/// (Digest: its nonce is reused), not once per call.
#[test]
fn proxy_ntlm_and_digest_handshakes_are_made_once_per_connection_not_per_call() {
    for (auth, user) in [
        (SquidAuth::Ntlm, format!("CORP\\{PROXY_USER}")),
        (SquidAuth::Digest, PROXY_USER.to_string()),
    ] {
        let w = world(auth, 6);
        let settings = w.settings(&user, PASSWORD);
        let session = w.session(&settings, "local", 4);
        let repos = session
            .repositories(&[RemoteRepository::central()])
            .repositories;
        for i in 0..6 {
            let r = session
                .blocking_resolve(&Root::compile([coord(i)]), &repos, None)
                .unwrap_or_else(|e| panic!("{auth:?} m{i}: {}", e.message_chain()));
            assert_eq!(r.files().len(), 1);
        }
        drop(session);
        let tunnels = w.tunnels();
        let challenges = w.squid.count_status(407);
        // NTLM: negotiate then challenge, two 407s per new connection; Digest: one 407 for the
        // session's first request, then its nonce answers at once.
        let per_connection = if auth == SquidAuth::Ntlm { 2 } else { 1 };
        // one tunnel per lane at most (files, checksum files, requests made ahead)
        assert!(
            (1..=3).contains(&tunnels),
            "{auth:?}: {tunnels} tunnels for 6 calls:\n{}",
            w.squid.access_log().join("\n")
        );
        assert!(
            (1..=per_connection * tunnels).contains(&challenges),
            "{auth:?}: {challenges} 407s for {tunnels} tunnels and 6 calls:\n{}",
            w.squid.access_log().join("\n")
        );
    }
}

/// Two calls that need the same POM at the same time fetch it once, and async calls work
/// from a caller's runtime that is gone by the next call.
#[test]
fn the_same_pom_asked_by_concurrent_calls_is_fetched_once() {
    let w = world(SquidAuth::Basic, 3);
    let settings = w.settings(PROXY_USER, PASSWORD);
    let session = w.session(&settings, "local", 8);
    let repos = session
        .repositories(&[RemoteRepository::central()])
        .repositories;
    let caller = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (a, b) = caller.block_on(async {
        let (both, one) = (
            Root::compile([coord(0), coord(1)]),
            Root::Artifact(coord(0)),
        );
        tokio::join!(
            session.collect(&both, &repos),
            session.collect(&one, &repos)
        )
    });
    a.unwrap();
    b.unwrap();
    drop(caller);
    // a later blocking call on the same session, after the caller's runtime stopped
    session
        .blocking_resolve(&Root::compile([coord(2)]), &repos, None)
        .unwrap();
    drop(session);
    assert_eq!(
        w.nginx.count_gets("m0-1.0.pom"),
        1,
        "{:?}",
        w.nginx.access_log()
    );
    assert_eq!(w.nginx.count_gets("m1-1.0.pom"), 1);
    // the resolve's artifact travels while its graph is collected (on a connection of its
    // own: HTTP/2), and is asked for once
    assert_eq!(
        w.nginx.count_gets("m2-1.0.jar"),
        1,
        "{:?}",
        w.nginx.access_log()
    );
    assert_eq!(w.nginx.count_gets("m2-1.0.jar.sha1"), 1);
    // One connection per lane: the POMs, their checksum files (a POM and its `.sha1` never
    // share one, so neither takes a stream of the other's), and the requests made ahead.
    let connections = w.nginx.connections();
    assert!(
        (1..=3).contains(&connections),
        "{connections} connections: {:?}",
        w.nginx.access_log()
    );
    let log = w.nginx.access_log();
    let connection_of = |file: &str| {
        log.iter()
            .find(|l| l.contains(&format!("{file} HTTP")))
            .and_then(|l| l.rsplit("c=").next())
            .map(str::to_string)
            .unwrap_or_else(|| panic!("no request for {file}: {log:?}"))
    };
    for m in ["m0", "m1", "m2"] {
        let pom = format!("{m}-1.0.pom");
        assert_ne!(
            connection_of(&pom),
            connection_of(&format!("{pom}.sha1")),
            "{log:?}"
        );
    }
}

/// A password that cannot be decrypted (no settings-security.xml) is not sent, not even as the
/// user name with an empty password, and the 401 says why.
#[test]
fn an_undecryptable_password_is_never_sent_and_the_401_says_why() {
    let w = world(SquidAuth::Basic, 1);
    let settings = w.settings(PROXY_USER, "{COQLCE6DU6GtcS5P=}");
    let session = w.session(&settings, "local", 2);
    let answer = session.repositories(&[RemoteRepository::central()]);
    assert!(
        answer
            .problems
            .iter()
            .any(|p| p.message.contains("does not send it")),
        "{:?}",
        answer.problems
    );
    let results = session
        .blocking_download(&[coord(0)], &answer.repositories)
        .unwrap();
    let err = results[0].as_ref().unwrap_err();
    let text = err.message_chain();
    assert!(
        text.contains("401")
            && text.contains("none were sent")
            && text.contains("the password of server `corp` could not be decrypted"),
        "{text}"
    );
    assert!(!text.contains("sent and rejected"), "{text}");
    drop(session);
    let log = w.nginx.access_log();
    let requests: Vec<&String> = log.iter().filter(|l| l.contains("m0-1.0.jar")).collect();
    assert!(!requests.is_empty(), "{log:?}");
    for l in requests {
        assert!(l.contains("a=[-]"), "an Authorization header was sent: {l}");
    }
}

/// On HTTP/1.1 every request in flight is a connection of its own: one origin gets at most 64
/// at once (the transport's bound), however many the session lets be in flight (128 here).
#[test]
fn an_http1_origin_gets_a_bounded_number_of_connections() {
    let w = world(SquidAuth::Basic, 150);
    // 40 KB each through nginx's rate-limited `/slow/` (200 KB/s): they overlap
    for i in 0..150 {
        w.repo.put(
            &format!("org/many/m{i}/1.0/m{i}-1.0.jar"),
            &Repo::content(&format!("m{i}"), 40_000 + i),
        );
    }
    let settings = format!(
        r#"<settings><mirrors><mirror><id>slow</id><mirrorOf>*</mirrorOf><url>{}</url></mirror></mirrors></settings>"#,
        w.nginx.http("slow")
    );
    let session = w.session(&settings, "local", 128);
    let repos = session
        .repositories(&[RemoteRepository::central()])
        .repositories;
    let coords: Vec<Artifact> = (0..150).map(coord).collect();
    for (i, r) in session
        .blocking_download(&coords, &repos)
        .unwrap()
        .iter()
        .enumerate()
    {
        r.as_ref().unwrap_or_else(|e| panic!("m{i}: {e}"));
    }
    drop(session);
    // A connection goes back to the pool a moment after its body was read, so over the run a
    // few more than 64 may be opened (72 measured); without the bound every request in flight
    // opened its own (132 measured).
    let connections = w.nginx.connections();
    assert!(
        (2..=96).contains(&connections),
        "{connections} connections for 150 downloads at 128 in flight"
    );
}

/// A resolve fetches its artifacts while the graph is collected, and the local repository ends
/// as it would without: a conflict's loser (asked ahead once its version was read) is never
/// written, every file that is kept was asked for once and is verified.
#[test]
fn artifacts_fetched_during_collection_leave_only_the_winners() {
    let w = world(SquidAuth::Basic, 0);
    let pom = |a: &str, v: &str, deps: &[(&str, &str)]| {
        let deps: String = deps
            .iter()
            .map(|(a, v)| {
                format!(
                    "<dependency><groupId>org.c</groupId><artifactId>{a}</artifactId><version>{v}</version></dependency>"
                )
            })
            .collect();
        format!(
            "<project><modelVersion>4.0.0</modelVersion><groupId>org.c</groupId>\
             <artifactId>{a}</artifactId><version>{v}</version><dependencies>{deps}</dependencies></project>"
        )
    };
    // x -> z:2 (nearer: wins), y -> w -> z:1 (loses)
    for (a, v, deps) in [
        ("x", "1.0", vec![("z", "2.0")]),
        ("y", "1.0", vec![("w", "1.0")]),
        ("w", "1.0", vec![("z", "1.0")]),
        ("z", "1.0", vec![]),
        ("z", "2.0", vec![]),
    ] {
        w.repo.put(
            &format!("org/c/{a}/{v}/{a}-{v}.pom"),
            pom(a, v, &deps).as_bytes(),
        );
        w.repo.put(
            &format!("org/c/{a}/{v}/{a}-{v}.jar"),
            &Repo::content(&format!("{a}{v}"), 2_000),
        );
    }
    let settings = w.settings(PROXY_USER, PASSWORD);
    let session = w.session(&settings, "local", 8);
    let repos = session
        .repositories(&[RemoteRepository::central()])
        .repositories;
    let root = Root::compile(["org.c:x:1.0", "org.c:y:1.0"].map(|c| Artifact::parse(c).unwrap()));
    let r = session
        .blocking_resolve(&root, &repos, None)
        .unwrap_or_else(|e| panic!("{}", e.message_chain()));
    drop(session);
    let local = w.local("local");
    let names: Vec<String> = r
        .files()
        .iter()
        .map(|f| f.strip_prefix(&local).unwrap().display().to_string())
        .collect();
    assert_eq!(
        names,
        [
            "org/c/x/1.0/x-1.0.jar",
            "org/c/z/2.0/z-2.0.jar",
            "org/c/y/1.0/y-1.0.jar",
            "org/c/w/1.0/w-1.0.jar"
        ]
    );
    for a in &r.artifacts {
        let d = a.download.as_ref().expect("downloaded");
        assert!(d.is_verified(), "{}: {:?}", a.artifact, d.checksum);
    }
    for name in &names {
        let file = name.rsplit('/').next().unwrap();
        assert_eq!(
            w.nginx.count_gets(file),
            1,
            "{file}: {:?}",
            w.nginx.access_log()
        );
        assert_eq!(
            std::fs::read(local.join(name)).unwrap(),
            std::fs::read(w.repo.root.join(name)).unwrap()
        );
    }
    assert!(
        local.join("org/c/z/1.0/z-1.0.pom").is_file(),
        "the loser's POM is read"
    );
    let loser: Vec<_> = std::fs::read_dir(local.join("org/c/z/1.0"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".jar"))
        .collect();
    assert!(loser.is_empty(), "the loser's jar is not kept: {loser:?}");
    assert!(w.nginx.count_gets("z-1.0.jar") <= 1);
    // asked ahead: on a connection of their own, not after the POMs on theirs
    let connection = |file: &str| {
        let log = w.nginx.access_log();
        let line = log
            .iter()
            .find(|l| l.contains(&format!("/{file} ")))
            .unwrap()
            .clone();
        line.rsplit("c=").next().unwrap().to_string()
    };
    assert_ne!(
        connection("w-1.0.jar"),
        connection("w-1.0.pom"),
        "{:?}",
        w.nginx.access_log()
    );
}

/// Requests made ahead wait for the session's first request: a build whose POMs are all in the
/// local repository (collected earlier) but whose jars are not must still download the jars,
/// each asked once — the download that takes a request made ahead lets it go, instead of
/// waiting for a first request that never comes. Bounded: a hang fails after 60 s.
#[test]
fn jars_missing_beside_local_poms_are_fetched_once_and_never_wait_forever() {
    let w = world(SquidAuth::Basic, 3);
    let settings = w.settings(PROXY_USER, PASSWORD);
    let repos = w
        .session(&settings, "local", 8)
        .repositories(&[RemoteRepository::central()])
        .repositories;
    let root = Root::compile((0..3).map(coord));
    {
        let session = w.session(&settings, "local", 8);
        session
            .blocking_collect(&root, &repos)
            .unwrap_or_else(|e| panic!("{}", e.message_chain()));
    }
    let local = w.local("local");
    assert!(!jar_of(&local, 0).exists(), "collecting fetches POMs only");
    let (tx, rx) = std::sync::mpsc::channel();
    let session = w.session(&settings, "local", 8);
    let (r2, repos2) = (root.clone(), repos.clone());
    std::thread::spawn(move || {
        let _ = tx.send(session.blocking_resolve(&r2, &repos2, None));
    });
    let r = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the resolution ends")
        .unwrap_or_else(|e| panic!("{}", e.message_chain()));
    assert_eq!(r.files().len(), 3);
    for i in 0..3 {
        let jar = format!("m{i}-1.0.jar");
        assert_eq!(
            w.nginx.count_gets(&jar),
            1,
            "{jar}: {:?}",
            w.nginx.access_log()
        );
        assert_eq!(
            w.nginx.count_gets(&format!("m{i}-1.0.pom")),
            1,
            "POMs read once, then local"
        );
        assert!(jar_of(&local, i).is_file());
    }
}

/// A cold collection of `roots` from nginx serving `files` (path, content), with what the
/// progress listener heard; the server is returned for its access log.
fn collect_cold(
    files: &[(String, Vec<u8>)],
    roots: &[&str],
) -> (tempfile::TempDir, Nginx, Vec<(String, &'static str)>) {
    let tmp = tempfile::tempdir().unwrap();
    let repo = Repo::new(&tmp.path().join("remote"));
    for (path, content) in files {
        repo.put(path, content);
    }
    let nginx = Nginx::start(&repo.root, &tmp.path().join("work"));
    let settings = format!(
        "<settings><mirrors><mirror><id>m</id><mirrorOf>*</mirrorOf><url>{}</url></mirror></mirrors></settings>",
        nginx.http("public")
    );
    let dir = tmp.path().join("case");
    std::fs::create_dir_all(&dir).unwrap();
    let events = std::sync::Arc::new(support::progress::Recorder::default());
    let session = Session::builder()
        .environment(Environment::from_parts(HashMap::new(), dir.clone()))
        .user_settings(SettingsSource::content("settings.xml", &settings))
        .no_global_settings()
        .local_repository(dir.join("local"))
        .progress_listener(events.clone())
        .build()
        .unwrap();
    let repos = session
        .repositories(&[RemoteRepository::central()])
        .repositories;
    let root = Root::compile(roots.iter().map(|c| Artifact::parse(c).unwrap()));
    session.blocking_collect(&root, &repos).unwrap();
    drop(session);
    let heard = events.files(None);
    (tmp, nginx, heard)
}

/// `c0` … `c<n-1>` of `org.fam`, version 1, each POM with `body` after its coordinates.
fn family(n: usize, head: &str, body: &str) -> Vec<(String, Vec<u8>)> {
    (0..n)
        .map(|i| {
            (
                format!("org/fam/c{i}/1/c{i}-1.pom"),
                format!(
                    "<project><modelVersion>4.0.0</modelVersion>{head}<groupId>org.fam</groupId>\
                     <artifactId>c{i}</artifactId><version>1</version>{body}</project>"
                )
                .into_bytes(),
            )
        })
        .collect()
}

fn family_roots(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("org.fam:c{i}:1")).collect()
}

/// Eight dependencies whose POMs share one parent arrive together; their builds need the
/// parent at once. It is asked for once and reported once: the builds that needed it
/// meanwhile waited for that read (each used to ask the downloader again and find the file
/// just written, so a cold run reported up to 16 files, 7 of them cached, for 9).
#[test]
fn a_parent_that_concurrent_builds_need_is_read_and_reported_once() {
    eight_poms_share_one(
        "parent",
        "<parent><groupId>org.fam</groupId><artifactId>parent</artifactId><version>1</version></parent>",
        "",
    );
}

/// Eight dependencies whose POMs import one BOM: the BOM is asked for once and reported once.
#[test]
fn a_bom_that_concurrent_builds_import_is_read_and_reported_once() {
    eight_poms_share_one(
        "bom",
        "",
        "<dependencyManagement><dependencies><dependency><groupId>org.fam</groupId>\
         <artifactId>bom</artifactId><version>1</version><type>pom</type><scope>import</scope>\
         </dependency></dependencies></dependencyManagement>",
    );
}

/// Eight POMs (`head` and `body` around their coordinates) that need `org.fam:<shared>:1`, a
/// POM of packaging `pom`, collected cold at once: the shared POM is asked for and reported
/// once, every POM is reported once, as downloaded.
fn eight_poms_share_one(shared: &str, head: &str, body: &str) {
    let mut files = family(8, head, body);
    files.push((
        format!("org/fam/{shared}/1/{shared}-1.pom"),
        format!(
            "<project><modelVersion>4.0.0</modelVersion><groupId>org.fam</groupId>\
             <artifactId>{shared}</artifactId><version>1</version><packaging>pom</packaging></project>"
        )
        .into_bytes(),
    ));
    let roots = family_roots(8);
    let (_tmp, nginx, events) = collect_cold(
        &files,
        &roots.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    let file = format!("{shared}-1.pom");
    assert_eq!(nginx.count_gets(&file), 1, "{:?}", nginx.access_log());
    each_pom_downloaded_once(&events, &file, 9);
}

/// `shared` was reported once, as downloaded, and every one of `poms` POMs once, none found
/// "cached" in a cold run.
fn each_pom_downloaded_once(events: &[(String, &str)], shared: &str, poms: usize) {
    let of_shared: Vec<_> = events.iter().filter(|(f, _)| f == shared).collect();
    assert_eq!(
        of_shared,
        [&(shared.to_string(), "downloaded")],
        "{events:?}"
    );
    assert_eq!(events.len(), poms, "{events:?}");
    assert!(
        events.iter().all(|(_, kind)| *kind == "downloaded"),
        "{events:?}"
    );
}
