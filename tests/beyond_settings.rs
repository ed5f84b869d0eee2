//! What a session takes from beyond `settings.xml`, against real servers on loopback (nginx,
//! squid, started per test by `tests/support`): `.netrc` credentials, credential helpers,
//! JVM proxy properties (`-D`, `MAVEN_OPTS`, `.mvn/jvm.config`), the chained local repository
//! (`maven.repo.local.tail`) and remote repository filters. Requests are counted in the
//! servers' access logs.

#![allow(clippy::result_large_err)]

mod support;

use m2resolver::settings::SettingsSource;
use m2resolver::{
    Artifact, Environment, RemoteRepository, ResolveResult, Root, Session, SessionBuilder,
    SessionError,
};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use support::*;

/// The graph every test resolves: `org.graph.l0:a:1` → `l1:b:1` (→ `l2:d:1`), `l1:c:1`
/// (→ `l2:e:1`). Every jar holds `Repo::content(coord, 2000)`.
const GRAPH: &[&str] = &[
    "org.graph.l0:a:1",
    "org.graph.l1:b:1",
    "org.graph.l2:d:1",
    "org.graph.l1:c:1",
    "org.graph.l2:e:1",
];

fn path_of(coord: &str, ext: &str) -> String {
    support::graph::path_of(coord, ext)
}

fn write_graph(repo: &Repo) {
    let deps: &[(&str, &[&str])] = &[
        (
            "org.graph.l0:a:1",
            &["org.graph.l1:b:1", "org.graph.l1:c:1"],
        ),
        ("org.graph.l1:b:1", &["org.graph.l2:d:1"]),
        ("org.graph.l1:c:1", &["org.graph.l2:e:1"]),
        ("org.graph.l2:d:1", &[]),
        ("org.graph.l2:e:1", &[]),
    ];
    for (coord, children) in deps {
        let p: Vec<&str> = coord.split(':').collect();
        let mut pom = format!(
            "<project><modelVersion>4.0.0</modelVersion><groupId>{}</groupId><artifactId>{}</artifactId><version>{}</version><dependencies>",
            p[0], p[1], p[2]
        );
        for c in *children {
            let q: Vec<&str> = c.split(':').collect();
            pom.push_str(&format!(
                "<dependency><groupId>{}</groupId><artifactId>{}</artifactId><version>{}</version></dependency>",
                q[0], q[1], q[2]
            ));
        }
        pom.push_str("</dependencies></project>");
        repo.put(&path_of(coord, "pom"), pom.as_bytes());
        repo.put(&path_of(coord, "jar"), &Repo::content(coord, 2000));
    }
}

/// A temporary folder with the graph served by nginx, and a case folder (`case/`) that is
/// the sessions' working directory.
struct Place {
    tmp: tempfile::TempDir,
    nginx: Nginx,
}

impl Place {
    fn new() -> Place {
        let tmp = tempfile::tempdir().unwrap();
        let remote = Repo::new(&tmp.path().join("remote"));
        write_graph(&remote);
        let nginx = Nginx::start(&remote.root, &tmp.path().join("work"));
        std::fs::create_dir_all(tmp.path().join("case/home")).unwrap();
        Place { tmp, nginx }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.tmp.path().join(rel)
    }

    /// A builder over `settings` with every source beyond Maven on, the environment `env`
    /// (plus the CA as `SSL_CERT_FILE`), `user.home` = `case/home`, local repository `local`.
    fn builder(&self, settings: &str, env: &[(&str, &str)], local: &str) -> SessionBuilder {
        let mut vars: HashMap<String, String> = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        vars.insert(
            "SSL_CERT_FILE".into(),
            self.nginx.tls.ca_pem.display().to_string(),
        );
        let home = self.path("case/home");
        Session::builder()
            .environment(Environment::from_parts(vars, self.path("case")))
            .user_settings(SettingsSource::content("settings.xml", settings))
            .no_global_settings()
            .define(&format!("user.home={}", home.display()))
            .netrc(true)
            .credential_helpers(true)
            .env_proxies(true)
            .local_repository(self.path(local))
    }
}

fn artifact(coord: &str) -> Artifact {
    Artifact::parse(coord).unwrap()
}

fn resolve(
    session: &Session,
    declared: &[RemoteRepository],
) -> Result<ResolveResult, SessionError> {
    let repos = session.repositories(declared).repositories;
    session.blocking_resolve(&Root::compile([artifact(GRAPH[0])]), &repos, None)
}

/// Every jar of the graph resolved, with the served bytes.
fn check_jars(result: &ResolveResult) {
    let files = result.files();
    assert_eq!(files.len(), GRAPH.len(), "{files:?}");
    for c in GRAPH {
        let name = format!("{}-1.jar", c.split(':').nth(1).unwrap());
        let f = files
            .iter()
            .find(|f| f.file_name().is_some_and(|n| n == name.as_str()))
            .unwrap_or_else(|| panic!("{c} not resolved: {files:?}"));
        assert_eq!(std::fs::read(f).unwrap(), Repo::content(c, 2000), "{c}");
    }
}

/// The error and its causes on one line.
fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        s.push_str(" | ");
        s.push_str(&c.to_string());
        cur = c.source();
    }
    s
}

fn write_netrc(place: &Place, text: &str) -> PathBuf {
    let p = place.path("case/home/.netrc");
    std::fs::write(&p, text).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    p
}

fn private(place: &Place, id: &str) -> RemoteRepository {
    RemoteRepository::new(id, place.nginx.http("private"))
}

// --------------------------------------------------------------------------------------------
// .netrc

#[test]
fn netrc_credentials_where_no_server_has_any_and_the_server_wins() {
    let place = Place::new();
    let netrc = write_netrc(
        &place,
        &format!("# ci\nmachine other.example login x password y\nmachine 127.0.0.1 login {USER} password {PASSWORD}\n"),
    );
    // no <server> (a server with only headers counts as none): the netrc machine entry
    let settings = "<settings><servers><server><id>repo</id><configuration><httpHeaders><property>\
                    <name>X-Team</name><value>build</value></property></httpHeaders></configuration>\
                    </server></servers></settings>";
    let session = place.builder(settings, &[], "local-1").build().unwrap();
    let answer = session.repositories(&[private(&place, "repo")]);
    assert_eq!(
        answer.repositories[0]
            .credential_source
            .as_ref()
            .unwrap()
            .to_string(),
        format!("netrc {}:3 (machine 127.0.0.1)", netrc.display())
    );
    check_jars(&resolve(&session, &[private(&place, "repo")]).unwrap());
    let explained = m2resolver::explain::Explanation::new(&session, &[private(&place, "repo")]);
    let human = explained.render(false);
    assert!(
        human.contains(&format!(
            "credentials: netrc {}:3 (machine 127.0.0.1): username {USER}, password ***",
            netrc.display()
        )),
        "{human}"
    );
    assert!(!human.contains(PASSWORD));
    // Maven's answer has no credentials for it
    assert!(explained.to_json()["repositories"][0]["authentication"].is_null());

    // a <server> with credentials wins, even wrong ones: the netrc is not consulted
    let settings = "<settings><servers><server><id>repo</id><username>deploy</username>\
                    <password>wrong</password></server></servers></settings>";
    let session = place.builder(settings, &[], "local-2").build().unwrap();
    let e = resolve(&session, &[private(&place, "repo")]).unwrap_err();
    let m = chain(&e);
    assert!(
        m.contains("401")
            && m.contains("<server> with id `repo`")
            && m.contains("sent and rejected"),
        "{m}"
    );
}

#[test]
fn netrc_default_entry_and_quoted_password() {
    let place = Place::new();
    let escaped = QUOTED_PASSWORD.replace('\\', "\\\\").replace('"', "\\\"");
    write_netrc(
        &place,
        &format!("machine other.example login x password y\ndefault login \"{QUOTED_USER}\" password \"{escaped}\"\n"),
    );
    let session = place.builder("<settings/>", &[], "local").build().unwrap();
    check_jars(&resolve(&session, &[private(&place, "repo")]).unwrap());
    assert!(
        place
            .nginx
            .access_log()
            .iter()
            .any(|l| l.contains("/private/org/graph/l0/a/1/a-1.jar") && l.contains(" 200 ")),
        "{:?}",
        place.nginx.access_log()
    );
}

#[test]
fn a_netrc_for_another_host_is_not_used() {
    let place = Place::new();
    write_netrc(
        &place,
        &format!("machine localhost login {USER} password {PASSWORD}\n"),
    );
    let session = place.builder("<settings/>", &[], "local").build().unwrap();
    let repos = session
        .repositories(&[private(&place, "repo")])
        .repositories;
    assert!(repos[0].authentication.is_none() && repos[0].credential_source.is_none());
    let m = chain(&resolve(&session, &[private(&place, "repo")]).unwrap_err());
    assert!(
        m.contains("401") && m.contains("none are configured"),
        "{m}"
    );
    // a netrc others can read is used, with a warning
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let p = place.path("case/home/.netrc");
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
        let session = place.builder("<settings/>", &[], "local").build().unwrap();
        let w = session.source_warnings();
        assert!(w.iter().any(|w| w.contains("chmod 600")), "{w:?}");
    }
}

// --------------------------------------------------------------------------------------------
// Credential helpers

/// A helper script in the case folder; every run appends a line to `runs.log`.
fn helper(place: &Place, name: &str, body: &str) -> PathBuf {
    let path = place.path(&format!("case/{name}"));
    let runs = place.path("case/runs.log");
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\necho \"$*\" >> '{}'\ncat > /dev/null\n{body}\n",
            runs.display()
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

fn runs(place: &Place) -> usize {
    std::fs::read_to_string(place.path("case/runs.log"))
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

#[test]
fn a_helper_token_is_sent_as_bearer_and_the_helper_runs_once() {
    let place = Place::new();
    let h = helper(
        &place,
        "token.sh",
        &format!("echo authtype=Bearer\necho credential={BEARER_TOKEN}\necho password_expiry_utc=4102444800"),
    );
    let settings = format!(
        "<settings><servers><server><id>cloud</id><configuration>\
         <credentialHelper>{} --profile ci</credentialHelper></configuration></server></servers></settings>",
        h.display()
    );
    let session = place.builder(&settings, &[], "local").build().unwrap();
    let bearer = RemoteRepository::new("cloud", place.nginx.http("bearer"));
    check_jars(&resolve(&session, std::slice::from_ref(&bearer)).unwrap());
    let requests = place.nginx.count_gets(".jar") + place.nginx.count_gets(".pom");
    assert!(
        requests >= 2 * GRAPH.len(),
        "{:?}",
        place.nginx.access_log()
    );
    assert_eq!(runs(&place), 1, "run once for {requests} requests");
    assert_eq!(
        std::fs::read_to_string(place.path("case/runs.log")).unwrap(),
        "--profile ci get\n"
    );
    // the session keeps the answer: another call asks nothing
    std::fs::remove_dir_all(place.path("local")).unwrap();
    check_jars(&resolve(&session, &[bearer]).unwrap());
    assert_eq!(runs(&place), 1);
    assert_eq!(session.credential_helper_runs(), 1);
    assert!(place
        .nginx
        .access_log()
        .iter()
        .all(|l| !l.contains(" 401 ")));
}

#[test]
fn a_helper_from_the_environment_gives_basic_credentials() {
    let place = Place::new();
    let h = helper(
        &place,
        "basic.sh",
        &format!("echo username={USER}\necho password={PASSWORD}"),
    );
    let env = [("M2R_CREDENTIAL_HELPER", h.to_str().unwrap())];
    let session = place.builder("<settings/>", &env, "local").build().unwrap();
    check_jars(&resolve(&session, &[private(&place, "repo")]).unwrap());
    assert_eq!(runs(&place), 1);
}

#[test]
fn a_failing_helper_is_a_clear_error_and_nothing_is_requested() {
    for (name, body, expected) in [
        (
            "fails.sh",
            "echo 'cannot reach the token service' >&2\nexit 1",
            vec![
                "exit status 1",
                "cannot reach the token service",
                "no request is made",
            ],
        ),
        (
            "garbage.sh",
            "echo 'Welcome to the token service!'",
            vec!["cannot use", "line 1 is not `key=value`"],
        ),
    ] {
        let place = Place::new();
        let h = helper(&place, name, body);
        let env = [("M2R_CREDENTIAL_HELPER", h.to_str().unwrap())];
        let session = place.builder("<settings/>", &env, "local").build().unwrap();
        let e = resolve(
            &session,
            &[RemoteRepository::new("cloud", place.nginx.http("bearer"))],
        )
        .unwrap_err();
        let m = chain(&e);
        for frag in expected.iter().chain(&[name, "`cloud`"]) {
            assert!(m.contains(frag), "{name}: `{frag}` missing in {m}");
        }
        assert!(
            place.nginx.access_log().is_empty(),
            "{:?}",
            place.nginx.access_log()
        );
        assert_eq!(
            runs(&place),
            1,
            "{name}: the failure is remembered for the session"
        );
    }
}

// --------------------------------------------------------------------------------------------
// JVM proxy properties

#[test]
fn jvm_proxy_properties_through_the_authenticating_squid() {
    let place = Place::new();
    let squid = Squid::start(&place.path("work"), &[place.nginx.https_port]);
    let repo = RemoteRepository::new("secure", place.nginx.https("public"));
    let port = squid.port.to_string();
    let props = [
        ("https.proxyHost", "127.0.0.1"),
        ("https.proxyPort", port.as_str()),
        ("https.proxyUser", PROXY_USER),
        ("https.proxyPassword", PROXY_PASSWORD),
        // the JDK's default nonProxyHosts (localhost|127.*|...) would send loopback direct
        ("http.nonProxyHosts", ""),
    ];
    // 1. on the command line (-D)
    let mut b = place.builder("<settings/>", &[], "local-d");
    for (k, v) in props {
        b = b.define(&format!("{k}={v}"));
    }
    let session = b.build().unwrap();
    let explained = m2resolver::explain::Explanation::new(&session, std::slice::from_ref(&repo));
    assert!(
        explained.render(false).contains(&format!(
            "proxy: http://127.0.0.1:{port} from JVM property https.proxyHost (-D) as {PROXY_USER}"
        )),
        "{}",
        explained.render(false)
    );
    assert!(
        explained.to_json()["repositories"][0]["proxy"].is_null(),
        "Maven's answer"
    );
    check_jars(&resolve(&session, std::slice::from_ref(&repo)).unwrap());
    // The session's engine keeps its tunnel open; squid logs a CONNECT when it closes.
    drop(session);
    let connects = |s: &Squid| {
        let count = || {
            s.access_log()
                .iter()
                .filter(|l| l.contains("CONNECT") && l.contains("/200 "))
                .count()
        };
        let mut last = count();
        for _ in 0..20 {
            std::thread::sleep(std::time::Duration::from_millis(100));
            let n = count();
            if n == last && n > 0 {
                break;
            }
            last = n;
        }
        last
    };
    assert!(connects(&squid) >= 1, "{:?}", squid.access_log());
    assert!(
        squid.count_status(407) >= 1,
        "the proxy asked and was answered"
    );

    // 2. from .mvn/jvm.config (passwords quoted) and MAVEN_OPTS, with the option on
    let before = connects(&squid);
    let project = place.path("case");
    std::fs::create_dir_all(project.join(".mvn")).unwrap();
    std::fs::write(
        project.join(".mvn/jvm.config"),
        format!(
            "-Xmx1g\n-Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort={port}\n-Dhttps.proxyUser={PROXY_USER}\n-Dhttp.nonProxyHosts=\"\"\n"
        ),
    )
    .unwrap();
    let opts = format!("-Dhttps.proxyPassword={PROXY_PASSWORD}");
    let session = place
        .builder("<settings/>", &[("MAVEN_OPTS", &opts)], "local-opts")
        .jvm_proxy_options(true)
        .build()
        .unwrap();
    let r = &session
        .repositories(std::slice::from_ref(&repo))
        .repositories[0];
    let p = r.proxy.as_ref().unwrap();
    assert_eq!(
        p.source.to_string(),
        format!(
            "JVM property https.proxyHost ({}:2)",
            project.join(".mvn/jvm.config").display()
        )
    );
    assert_eq!(
        p.auth.as_ref().unwrap().password.as_ref().unwrap().expose(),
        PROXY_PASSWORD
    );
    check_jars(&resolve(&session, std::slice::from_ref(&repo)).unwrap());
    drop(session);
    assert!(connects(&squid) > before);

    // 3. the option off: MAVEN_OPTS and jvm.config are not read, the repository is reached directly
    let session = place
        .builder("<settings/>", &[("MAVEN_OPTS", &opts)], "local-off")
        .build()
        .unwrap();
    assert!(session
        .repositories(std::slice::from_ref(&repo))
        .repositories[0]
        .proxy
        .is_none());

    // 4. nonProxyHosts (Java's | globs): the host matches, so no proxy
    let before = squid.access_log().len();
    let mut b = place.builder("<settings/>", &[], "local-nph");
    for (k, v) in props {
        if k != "http.nonProxyHosts" {
            b = b.define(&format!("{k}={v}"));
        }
    }
    let session = b
        .define("http.nonProxyHosts=*.example|127.0.*")
        .build()
        .unwrap();
    let answer = session.repositories(std::slice::from_ref(&repo));
    assert!(answer.repositories[0].proxy.is_none());
    check_jars(&resolve(&session, std::slice::from_ref(&repo)).unwrap());
    assert_eq!(
        squid.access_log().len(),
        before,
        "nothing went through squid"
    );
}

// --------------------------------------------------------------------------------------------
// The chained local repository

/// Every file under `dir` with its size and modification time.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, (u64, std::time::SystemTime)> {
    support::hostile::all_files(dir)
        .into_iter()
        .map(|p| {
            let m = std::fs::symlink_metadata(&p).unwrap();
            (p, (m.len(), m.modified().unwrap()))
        })
        .collect()
}

#[test]
fn a_read_only_tail_serves_half_the_graph_without_requests() {
    let place = Place::new();
    let public = RemoteRepository::new("repo", place.nginx.http("public"));
    // fill a cache the way a CI image would: resolve once, then keep half the graph
    let session = place.builder("<settings/>", &[], "cache").build().unwrap();
    check_jars(&resolve(&session, std::slice::from_ref(&public)).unwrap());
    let cache = place.path("cache");
    let tail = place.path("tail");
    let in_tail = ["org.graph.l0:a:1", "org.graph.l1:b:1", "org.graph.l2:d:1"];
    for c in in_tail {
        for ext in ["pom", "jar"] {
            let rel = path_of(c, ext);
            let to = tail.join(&rel);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(cache.join(&rel), &to).unwrap();
            std::fs::copy(
                cache.join(&rel).with_file_name("_remote.repositories"),
                to.with_file_name("_remote.repositories"),
            )
            .unwrap();
        }
    }
    let _ = std::process::Command::new("chmod")
        .args(["-R", "a-w"])
        .arg(&tail)
        .status();
    let before = snapshot(&tail);
    let served_before = place.nginx.access_log().len();

    let session = place
        .builder("<settings/>", &[], "head")
        .define(&format!("maven.repo.local.tail={}", tail.display()))
        .build()
        .unwrap();
    assert_eq!(session.local_tail().unwrap().dirs, vec![tail.clone()]);
    let result = resolve(&session, std::slice::from_ref(&public)).unwrap();
    check_jars(&result);
    let log: Vec<String> = place.nginx.access_log()[served_before..].to_vec();
    for c in in_tail {
        for ext in ["pom", "jar"] {
            let rel = path_of(c, ext);
            assert!(
                !log.iter().any(|l| l.contains(&rel)),
                "{rel} was requested although the tail holds it: {log:?}"
            );
            assert!(
                !place.path("head").join(&rel).exists(),
                "{rel} copied into the head"
            );
        }
        let f = result
            .files()
            .into_iter()
            .find(|f| f.ends_with(path_of(c, "jar")))
            .unwrap()
            .to_path_buf();
        assert!(f.starts_with(&tail), "{c} from {}", f.display());
    }
    for c in ["org.graph.l1:c:1", "org.graph.l2:e:1"] {
        for ext in ["pom", "jar"] {
            let rel = path_of(c, ext);
            assert!(
                log.iter().any(|l| l.contains(&rel) && l.contains(" 200 ")),
                "{rel}: {log:?}"
            );
            assert!(
                place.path("head").join(&rel).is_file(),
                "{rel} downloaded into the head"
            );
        }
    }
    assert_eq!(snapshot(&tail), before, "nothing was written into the tail");
    let _ = std::process::Command::new("chmod")
        .args(["-R", "u+w"])
        .arg(&tail)
        .status();

    // availability honoured: the tail's files came from `repo`, a build asking `other` re-downloads
    let other = RemoteRepository::new("other", place.nginx.http("public"));
    let session = place
        .builder("<settings/>", &[], "head-2")
        .define(&format!("maven.repo.local.tail={}", tail.display()))
        .define("maven.repo.local.tail.ignoreAvailability=false")
        .build()
        .unwrap();
    let served_before = place.nginx.access_log().len();
    check_jars(&resolve(&session, &[other]).unwrap());
    let log: Vec<String> = place.nginx.access_log()[served_before..].to_vec();
    assert!(
        log.iter().any(|l| l.contains(&path_of(in_tail[0], "jar"))),
        "{log:?}"
    );
}

// --------------------------------------------------------------------------------------------
// Remote repository filters

/// Two more repositories that hold nothing of the graph, on their own nginx.
struct Empties {
    nginx: Nginx,
    root: PathBuf,
}

fn empties(place: &Place) -> Empties {
    let root = place.path("empty-remote");
    std::fs::create_dir_all(&root).unwrap();
    let nginx = Nginx::start(&root, &place.path("work-empty"));
    Empties { nginx, root }
}

fn three(place: &Place, e: &Empties) -> Vec<RemoteRepository> {
    vec![
        RemoteRepository::new("first", e.nginx.http("public")),
        RemoteRepository::new("second", e.nginx.http("empty")),
        RemoteRepository::new("graph", place.nginx.http("public")),
    ]
}

fn filter_file(place: &Place, local: &str, name: &str, text: &str) {
    let dir = place.path(local).join(".remoteRepositoryFilters");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), text).unwrap();
}

#[test]
fn prefix_files_keep_requests_away_from_repositories_without_the_graph() {
    let place = Place::new();
    let e = empties(&place);
    let repos = three(&place, &e);
    // without filters: the first two are asked for everything (the 404 storm)
    let session = place.builder("<settings/>", &[], "plain").build().unwrap();
    check_jars(&resolve(&session, &repos).unwrap());
    let storm = e.nginx.access_log();
    assert!(
        storm.iter().filter(|l| l.contains(" 404 ")).count() >= 2 * 2 * GRAPH.len(),
        "{storm:?}"
    );

    let before = e.nginx.access_log().len();
    for (id, prefixes) in [
        ("first", "/com/other\n"),
        ("second", "/net/none\n"),
        ("graph", "/org/graph\n"),
    ] {
        filter_file(
            &place,
            "filtered",
            &format!("prefixes-{id}.txt"),
            &format!("## repository-prefixes/2.0\n# written for the test\n{prefixes}"),
        );
    }
    let session = place
        .builder("<settings/>", &[], "filtered")
        .define("aether.remoteRepositoryFilter.prefixes=true")
        .build()
        .unwrap();
    check_jars(&resolve(&session, &repos).unwrap());
    assert_eq!(
        e.nginx.access_log().len(),
        before,
        "no request to the two other repositories: {:?}",
        &e.nginx.access_log()[before..]
    );
    let human = m2resolver::explain::Explanation::new(&session, &repos).render(false);
    assert!(human.contains("prefix filter: 1 prefixes from"), "{human}");

    // an artifact no repository may hold: a clear not-found naming the filters, no request
    let e2 = artifact("org.elsewhere:x:1");
    let injected = session.repositories(&repos).repositories;
    let err = session
        .blocking_download(&[e2], &injected)
        .unwrap()
        .remove(0)
        .unwrap_err();
    let err = m2resolver::printable::error_chain(&err);
    assert!(
        err.contains("skipped by repository filters")
            && err.contains("Prefix org/elsewhere NOT allowed from graph"),
        "{err}"
    );
    assert_eq!(e.nginx.access_log().len(), before);
}

#[test]
fn group_id_files_and_published_prefix_files() {
    let place = Place::new();
    let e = empties(&place);
    let repos = three(&place, &e);
    // groupId lists (exact groupIds)
    filter_file(&place, "by-group", "groupId-first.txt", "org.other\n");
    filter_file(&place, "by-group", "groupId-second.txt", "org.graph\n");
    filter_file(
        &place,
        "by-group",
        "groupId-graph.txt",
        "org.graph.l0\norg.graph.l1\norg.graph.l2\n",
    );
    let session = place
        .builder("<settings/>", &[], "by-group")
        .define("aether.remoteRepositoryFilter.groupId=true")
        .build()
        .unwrap();
    check_jars(&resolve(&session, &repos).unwrap());
    assert!(
        e.nginx.access_log().is_empty(),
        "{:?}",
        e.nginx.access_log()
    );

    // published .meta/prefixes.txt, fetched once per repository when asked for
    for root in [e.root.clone(), place.path("work-empty/nginx/empty")] {
        let meta = root.join(".meta");
        std::fs::create_dir_all(&meta).unwrap();
        std::fs::write(
            meta.join("prefixes.txt"),
            "## repository-prefixes/2.0\n/com/other\n",
        )
        .unwrap();
    }
    let pub_root = place.path("remote/.meta");
    std::fs::create_dir_all(&pub_root).unwrap();
    std::fs::write(
        pub_root.join("prefixes.txt"),
        "## repository-prefixes/2.0\n/org/graph\n",
    )
    .unwrap();
    let session = place
        .builder("<settings/>", &[], "published")
        .define("aether.remoteRepositoryFilter.prefixes=true")
        .define("aether.remoteRepositoryFilter.prefixes.resolvePrefixFiles=true")
        .build()
        .unwrap();
    check_jars(&resolve(&session, &repos).unwrap());
    let log = e.nginx.access_log();
    assert_eq!(
        log.len(),
        2,
        "one request per repository, for its prefix file: {log:?}"
    );
    assert!(
        log.iter().all(|l| l.contains("/.meta/prefixes.txt")),
        "{log:?}"
    );
    assert!(place.path("published/.meta/prefixes-first.txt").is_file());
}
