//! `m2r resolve` and `m2r tree` end to end against real servers: a dependency graph served by
//! nginx over HTTPS with basic auth, reached through an authenticating squid, one of whose
//! POMs declares an extra repository (reached directly, not mirrored); then offline mode after
//! the first resolve, and two resolves sharing one local repository at the same time.

// The server harness is shared with the library's tests.
#[path = "../../tests/support/mod.rs"]
mod support;

use std::path::Path;
use std::process::{Command, Output};
use support::*;

struct Setup {
    _tmp: tempfile::TempDir,
    dir: std::path::PathBuf,
    nginx: Nginx,
    _squid: Squid,
}

fn pom(g: &str, a: &str, v: &str, deps: &[(&str, &str)], extra: &str) -> Vec<u8> {
    let mut x = format!(
        "<project><modelVersion>4.0.0</modelVersion><groupId>{g}</groupId><artifactId>{a}</artifactId><version>{v}</version>{extra}<dependencies>"
    );
    for (coord, scope) in deps {
        let p: Vec<&str> = coord.split(':').collect();
        x.push_str(&format!(
            "<dependency><groupId>{}</groupId><artifactId>{}</artifactId><version>{}</version><scope>{scope}</scope></dependency>",
            p[0], p[1], p[2]
        ));
    }
    x.push_str("</dependencies></project>");
    x.into_bytes()
}

fn put(repo: &Repo, coord: &str, deps: &[(&str, &str)], extra: &str) {
    let p: Vec<&str> = coord.split(':').collect();
    let base = format!(
        "{}/{}/{}/{}-{}",
        p[0].replace('.', "/"),
        p[1],
        p[2],
        p[1],
        p[2]
    );
    repo.put(&format!("{base}.pom"), &pom(p[0], p[1], p[2], deps, extra));
    repo.put(&format!("{base}.jar"), &Repo::content(coord, 3000));
}

/// app → a:1 → (b:1 → c:1), c:2 (nearer, wins), e:1 (from a's extra repository) → f:1;
/// a test dependency of b is pruned.
fn setup() -> Setup {
    let tmp = tempfile::tempdir().unwrap();
    let remote = Repo::new(&tmp.path().join("remote"));
    let work = tmp.path().join("work");
    let nginx = Nginx::start(&remote.root, &work);
    let squid = Squid::start(&work, &[nginx.https_port]);
    let extra = Repo::new(&remote.root.join("extra"));
    let extra_repo = format!(
        "<repositories><repository><id>extra</id><url>{}extra/</url></repository></repositories>",
        nginx.https("public")
    );
    put(
        &remote,
        "org.ex:a:1",
        &[
            ("org.ex:b:1", "compile"),
            ("org.ex:c:2", "runtime"),
            ("org.extra:e:1", "compile"),
        ],
        &extra_repo,
    );
    put(
        &remote,
        "org.ex:b:1",
        &[("org.ex:c:1", "compile"), ("org.ex:t:1", "test")],
        "",
    );
    put(&remote, "org.ex:c:1", &[], "");
    put(&remote, "org.ex:c:2", &[], "");
    put(&remote, "org.ex:t:1", &[], "");
    put(&extra, "org.extra:e:1", &[("org.extra:f:1", "compile")], "");
    put(&extra, "org.extra:f:1", &[], "");
    let dir = tmp.path().join("case");
    std::fs::create_dir_all(&dir).unwrap();
    let xml = format!(
        r#"<settings>
  <mirrors><mirror><id>corp</id><mirrorOf>*,!extra</mirrorOf><url>{url}</url></mirror></mirrors>
  <proxies><proxy><id>corp-proxy</id><protocol>http</protocol><host>127.0.0.1</host><port>{port}</port>
    <username>{PROXY_USER}</username><password>{PROXY_PASSWORD}</password></proxy></proxies>
  <servers><server><id>corp</id><username>{USER}</username><password>{PASSWORD}</password></server></servers>
</settings>"#,
        url = nginx.https("private"),
        port = squid.port,
    );
    std::fs::write(dir.join("settings.xml"), xml).unwrap();
    Setup {
        _tmp: tmp,
        dir,
        nginx,
        _squid: squid,
    }
}

fn m2r(s: &Setup, local: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_m2r"))
        .args(args)
        .args(["--settings", "settings.xml", "--local-repository", local])
        .args(["-Duser.home=home", "--no-env-proxy"])
        .current_dir(&s.dir)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("SSL_CERT_FILE", &s.nginx.tls.ca_pem)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const EXPECTED: &[&str] = &[
    "org/ex/a/1/a-1.jar",
    "org/ex/b/1/b-1.jar",
    "org/ex/c/2/c-2.jar",
    "org/extra/e/1/e-1.jar",
    "org/extra/f/1/f-1.jar",
];

fn check_classpath(s: &Setup, local: &str, out: &Output) {
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let cp = text(&out.stdout);
    let files: Vec<&str> = cp.trim().split(':').collect();
    assert_eq!(files.len(), EXPECTED.len(), "class path {cp}");
    for (f, want) in files.iter().zip(EXPECTED) {
        assert!(f.ends_with(want), "{f} should be {want}");
        let rel = Path::new(want);
        let coord = format!("{}", rel.display());
        assert_eq!(
            std::fs::read(f).unwrap(),
            Repo::content(&coord_of(&coord), 3000),
            "{f}"
        );
    }
    assert!(temp_files(&s.dir.join(local)).is_empty());
}

fn coord_of(path: &str) -> String {
    // org/ex/a/1/a-1.jar -> org.ex:a:1
    let parts: Vec<&str> = path.split('/').collect();
    let n = parts.len();
    format!(
        "{}:{}:{}",
        parts[..n - 3].join("."),
        parts[n - 3],
        parts[n - 2]
    )
}

#[test]
fn resolves_a_graph_through_proxy_with_a_pom_repository_then_offline() {
    let s = setup();
    let out = m2r(&s, "local", &["resolve", "org.ex:a:1"]);
    check_classpath(&s, "local", &out);
    // e and f came from the repository a's POM declares (after the mirror, which is asked
    // first, as Maven does: the node's repositories are those in force below a)
    let log = s.nginx.access_log().join("\n");
    assert!(log.contains("/public/extra/org/extra/e/1/e-1.jar"), "{log}");
    let remote =
        std::fs::read_to_string(s.dir.join("local/org/extra/e/1/_remote.repositories")).unwrap();
    assert!(remote.contains("e-1.jar>extra="), "{remote}");
    // the pruned test dependency was never fetched
    assert!(!log.contains("org/ex/t/"), "{log}");

    // offline: everything from the local repository, no request
    let before = s.nginx.access_log().len();
    let out = m2r(&s, "local", &["resolve", "--offline", "org.ex:a:1"]);
    check_classpath(&s, "local", &out);
    assert_eq!(s.nginx.access_log().len(), before);

    // the tree agrees, offline, and says where c's version came from
    let out = m2r(
        &s,
        "local",
        &["tree", "--offline", "--verbose", "org.ex:a:1"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let tree = text(&out.stdout);
    assert!(tree.contains("omitted for conflict with 2"), "{tree}");
    assert!(
        tree.contains("org.ex:t:jar:1:test - omitted: test scope is not transitive"),
        "{tree}"
    );
}

#[test]
fn offline_without_a_first_resolve_fails_clearly() {
    let s = setup();
    let out = m2r(&s, "empty", &["resolve", "--offline", "org.ex:a:1"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("offline"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn two_resolves_share_one_local_repository() {
    let s = setup();
    let spawn = || {
        Command::new(env!("CARGO_BIN_EXE_m2r"))
            .args([
                "resolve",
                "org.ex:a:1",
                "--settings",
                "settings.xml",
                "--local-repository",
                "shared",
            ])
            .args(["-Duser.home=home", "--no-env-proxy"])
            .current_dir(&s.dir)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("SSL_CERT_FILE", &s.nginx.tls.ca_pem)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    check_classpath(&s, "shared", &a);
    check_classpath(&s, "shared", &b);
}
