//! `m2r resolve` and `m2r tree` end to end against real servers: a dependency graph served by
//! nginx over HTTPS with basic auth, reached through an authenticating squid, one of whose
//! POMs declares an extra repository (reached directly, not mirrored); then offline mode after
//! the first resolve, two resolves sharing one local repository at the same time, and Maven
//! Resolver itself accepting the local repository m2r wrote.

// The server harness is shared with the library's tests.
#[path = "../../tests/support/mod.rs"]
mod support;

use std::path::Path;
use std::process::{Command, Output};
use support::*;

/// The graph of `support::graph`: a:1 → (b:1 → c:1), c:2 (nearer, wins), e:1 (from a's extra
/// repository) → f:1; a test dependency of b is pruned.
type Setup = support::graph::Graph;

fn setup() -> Setup {
    support::graph::graph()
}

fn m2r(s: &Setup, local: &str, args: &[&str]) -> Output {
    support::process::bounded_output(&mut s.m2r_command(env!("CARGO_BIN_EXE_m2r"), local, args))
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

    // the tree agrees, offline, in mvn dependency:tree -Dverbose's words: the loser c:1 stays
    // where it was declared; the pruned transitive test dependency is not shown
    let out = m2r(
        &s,
        "local",
        &["tree", "--offline", "--verbose", "org.ex:a:1"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let tree = text(&out.stdout);
    assert!(tree.starts_with("org.ex:a:jar:1\n"), "{tree}");
    assert!(
        tree.contains(":compile - omitted for conflict with 2)"),
        "{tree}"
    );
    assert!(!tree.contains("org.ex:t:"), "{tree}");
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

/// Maven Resolver 1.6.3 accepts what `m2r resolve` left in the local repository: the testbed's
/// `mavenfetch get --transitive` (`../shared/bench`, Maven 3.8.7's own session and transport)
/// resolves the same graph from it, every checksum checked, with the repository server stopped —
/// so each POM and jar is taken from the local repository, as `_remote.repositories` records it
/// for the repository Maven asks (`corp` for the mirrored ones, `extra` for those a's POM adds).
#[test]
fn maven_resolver_accepts_the_local_repository() {
    let mavenfetch = support::shared::shared_path("bench/mavenfetch");
    let javac = Command::new("javac").arg("-version").output();
    assert!(
        javac.is_ok_and(|o| o.status.success()),
        "javac is not installed: mavenfetch compiles against Maven's jars; run `bash scripts/test.sh`"
    );
    let mut s = setup();
    let out = m2r(&s, "local", &["resolve", "org.ex:a:1"]);
    check_classpath(&s, "local", &out);
    s.nginx.kill();
    // MavenFetch asks the repositories of the settings' active profiles; `corp` mirrors this one
    let profile = "<profiles><profile><id>p</id><repositories><repository><id>central</id>\
                   <url>https://127.0.0.1:1/central/</url></repository></repositories></profile></profiles>\
                   <activeProfiles><activeProfile>p</activeProfile></activeProfiles>\n</settings>";
    let settings = s.settings.replace("</settings>", profile);
    std::fs::write(s.dir.join("maven-settings.xml"), settings).unwrap();
    let out = Command::new("bash")
        .arg(&mavenfetch)
        .args(["get", "--transitive", "--settings", "maven-settings.xml"])
        .args(["--local-repository", "local", "org.ex:a:1"])
        .current_dir(&s.dir)
        .env("BENCH_TMP", s.dir.join("mavenfetch"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "Maven Resolver refused m2r's local repository:\n{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

fn m2r_env(s: &Setup, local: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
    support::process::bounded_output(
        s.m2r_command(env!("CARGO_BIN_EXE_m2r"), local, args)
            .envs(env.iter().copied()),
    )
}

/// A root the user named that cannot be found is an error with what was searched, for every
/// graph command, online and offline; nothing is printed on stdout. (`--json` keeps the
/// contract's document: Maven's answer, the root kept as a node with a missing-pom problem.)
#[test]
fn a_root_that_cannot_be_found_fails_and_says_what_was_searched() {
    let s = setup();
    let cases: &[&[&str]] = &[
        &["tree", "org.ex:a-typo:1"],
        &["tree", "org.ex:a:9"],
        &["describe", "org.ex:a-typo:1"],
        &["why", "org.ex:b", "org.ex:a-typo:1"],
        &["resolve", "org.ex:a-typo:1"],
        &["resolve", "org.ex:c:1", "org.ex:a-typo:1"],
    ];
    for (i, args) in cases.iter().enumerate() {
        let out = m2r(&s, &format!("local-{i}"), args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: {}", text(&out.stdout));
        assert!(
            stderr.contains("error: ")
                && stderr.contains("could not find artifact")
                && stderr.contains(&format!("corp ({})", s.nginx.https("private"))),
            "{args:?}: {stderr}"
        );
    }
    // offline with an empty local repository: the named root is not there either
    let out = m2r(&s, "empty", &["tree", "--offline", "org.ex:a:1"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(
        stderr.contains("error: ") && stderr.contains("offline mode"),
        "{stderr}"
    );
    // the contract's document is still printed with --json, with Maven's status
    let out = m2r(&s, "local", &["tree", "--json", "org.ex:a-typo:1"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["problems"][0]["kind"], "missing-pom");
}

/// Machine output on stdout, diagnostics on stderr, each once: a dependency's missing POM is
/// a warning (as in Maven) printed once on stderr, never in the tree on stdout.
#[test]
fn warnings_go_to_stderr_once_and_the_tree_to_stdout() {
    let s = setup();
    std::fs::write(
        s.dir.join("pom.xml"),
        "<project><modelVersion>4.0.0</modelVersion><groupId>org.fix</groupId><artifactId>app</artifactId>\
         <version>1</version><dependencies>\
         <dependency><groupId>org.ex</groupId><artifactId>gone</artifactId><version>1</version></dependency>\
         <dependency><groupId>org.ex</groupId><artifactId>c</artifactId><version>1</version></dependency>\
         </dependencies></project>",
    )
    .unwrap();
    let out = m2r(&s, "local", &["tree", "--pom", "pom.xml"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("org.ex:c:jar:1"), "{stdout}");
    assert!(!stdout.contains("warning"), "{stdout}");
    assert_eq!(
        stderr
            .matches("warning: the POM for org.ex:gone:jar:1 is missing")
            .count(),
        1,
        "{stderr}"
    );
    // a failed resolve prints nothing on stdout
    let out = m2r(&s, "local", &["resolve", "--pom", "pom.xml"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "{:?}", text(&out.stdout));
    let stderr = text(&out.stderr);
    assert_eq!(stderr.matches("org.ex:gone:jar:1").count(), 2, "{stderr}");
    assert!(
        stderr.contains("error: could not find artifact org.ex:gone:jar:1 in corp"),
        "{stderr}"
    );
}

/// A system-scoped dependency's file is its `systemPath`: checked, never downloaded, so it is
/// not one of the files the downloading phase counts (it made "done, 5/6 files").
#[test]
fn a_system_path_is_not_a_file_to_download() {
    let s = setup();
    let tools = s.dir.join("tools.jar");
    std::fs::write(&tools, b"not downloaded").unwrap();
    std::fs::write(
        s.dir.join("pom.xml"),
        format!(
            "<project><modelVersion>4.0.0</modelVersion><groupId>org.fix</groupId><artifactId>app</artifactId>\
             <version>1</version><dependencies>\
             <dependency><groupId>org.ex</groupId><artifactId>a</artifactId><version>1</version></dependency>\
             <dependency><groupId>com.example</groupId><artifactId>tools</artifactId><version>1</version>\
             <scope>system</scope><systemPath>{}</systemPath></dependency>\
             </dependencies></project>",
            tools.display()
        ),
    )
    .unwrap();
    let out = m2r_env(
        &s,
        "local",
        &["resolve", "--pom", "pom.xml"],
        &[("M2R_PROGRESS_INTERVAL_MS", "0")],
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains(&*tools.to_string_lossy()), "{stdout}");
    for line in [
        "m2r: downloading (5 files)",
        "m2r: downloading: done, 5/5 files",
    ] {
        assert!(stderr.contains(line), "{line}: {stderr}");
    }
}

/// Without a terminal, progress is one line per phase (with the total when known) and a
/// periodic summary line on stderr; with -q, nothing.
#[test]
fn progress_without_a_terminal_is_a_line_per_phase_and_periodic_summaries() {
    let s = setup();
    let out = m2r_env(
        &s,
        "local",
        &["resolve", "org.ex:a:1"],
        &[("M2R_PROGRESS_INTERVAL_MS", "0")],
    );
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    for line in [
        "m2r: reading settings",
        "m2r: collecting",
        "m2r: downloading (5 files)",
        "m2r: downloading: done, 5/5 files",
    ] {
        assert!(stderr.contains(line), "{line}: {stderr}");
    }
    assert!(
        stderr.lines().any(|l| l.starts_with("m2r: collecting: ")
            || l.starts_with("m2r: downloading: ") && !l.contains("done")),
        "a summary line: {stderr}"
    );
    // already local: counted as cached
    let out = m2r(&s, "local", &["resolve", "org.ex:a:1"]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("m2r: downloading: done, 5/5 files (5 cached)"),
        "{stderr}"
    );
    let out = m2r(&s, "local", &["resolve", "-q", "org.ex:a:1"]);
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}
