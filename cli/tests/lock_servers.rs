//! `m2r lock`, `m2r resolve --locked` and `--frozen`, and Resolver 1.9's trusted checksums end
//! to end against real servers: the graph of `support::graph` (nginx over HTTPS with basic auth,
//! reached through an authenticating squid, one POM adding a repository).

// The server harness is shared with the library's tests.
#[path = "../../tests/support/mod.rs"]
mod support;

use std::path::Path;
use std::process::{Command, Output};
use support::graph::{graph, path_of};
use support::*;

type Setup = support::graph::Graph;

fn m2r(s: &Setup, local: &str, args: &[&str]) -> Output {
    support::process::bounded_output(&mut s.m2r_command(env!("CARGO_BIN_EXE_m2r"), local, args))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// The class path of `org.ex:a:1`, in Maven's order.
const JARS: &[&str] = &[
    "org/ex/a/1/a-1.jar",
    "org/ex/b/1/b-1.jar",
    "org/ex/c/2/c-2.jar",
    "org/extra/e/1/e-1.jar",
    "org/extra/f/1/f-1.jar",
];

/// The served repository's root (`/private/` and `/public/` are both this folder).
fn remote(s: &Setup) -> std::path::PathBuf {
    s.dir.parent().unwrap().join("remote")
}

/// A project (`org.app:app:1`) depending on `deps` (`g:a:v` each), written as `pom.xml` in the
/// case directory.
fn write_pom(s: &Setup, deps: &[&str]) {
    write_module(&s.dir, "app", deps);
}

/// nginx's requests since `from` (its access log lines).
fn requests_since(s: &Setup, from: usize) -> Vec<String> {
    s.nginx.access_log().into_iter().skip(from).collect()
}

#[test]
fn frozen_in_an_empty_local_repository_fetches_only_the_locked_jars() {
    let s = graph();
    let lock_text = {
        ok(&m2r(&s, "first", &["lock", "org.ex:a:1"]));
        std::fs::read_to_string(s.dir.join("m2r.lock")).unwrap()
    };
    // never a credential or a userinfo URL
    for secret in [PASSWORD, PROXY_PASSWORD, "deploy@", ":s3cret", "proxyuser"] {
        assert!(!lock_text.contains(secret), "{secret} in\n{lock_text}");
    }
    for jar in JARS {
        assert!(lock_text.contains(jar), "{jar} is not locked:\n{lock_text}");
    }

    let before = s.nginx.access_log().len();
    let out = m2r(&s, "empty", &["resolve", "--frozen"]);
    let cp = ok(&out);
    let files: Vec<&str> = cp.trim().split(':').collect();
    assert_eq!(files.len(), JARS.len(), "{cp}");
    for (f, want) in files.iter().zip(JARS) {
        assert!(f.ends_with(want), "{f} should be {want}");
    }
    let log = requests_since(&s, before);
    // one GET per jar, and nothing else: no POM, no metadata, no checksum sidecar
    assert_eq!(log.len(), JARS.len(), "{log:#?}");
    for line in &log {
        assert!(line.contains("GET "), "{line}");
        assert!(line.contains(".jar "), "not a jar: {line}");
        for bad in [".pom", "maven-metadata.xml", ".sha1", ".md5", ".sha256"] {
            assert!(!line.contains(bad), "{line}");
        }
    }
    for jar in JARS {
        assert_eq!(
            log.iter().filter(|l| l.contains(jar)).count(),
            1,
            "{jar}: {log:#?}"
        );
    }
    assert!(temp_files(&s.dir.join("empty")).is_empty());

    // warm: every file present and proven by the record, no request at all
    let before = s.nginx.access_log().len();
    assert_eq!(ok(&m2r(&s, "empty", &["resolve", "--frozen"])), cp);
    assert_eq!(requests_since(&s, before), Vec::<String>::new());

    // a locally damaged file (same size, new content) is not trusted: it is reported
    let b = s.dir.join("empty").join(JARS[1]);
    let mut bytes = std::fs::read(&b).unwrap();
    bytes[0] ^= 1;
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&b, &bytes).unwrap();
    let out = m2r(&s, "empty", &["resolve", "--frozen"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("org.ex:b:jar:1") || err.contains("b-1.jar"),
        "{err}"
    );
    assert!(err.contains("SHA-256"), "{err}");
}

#[test]
fn relocking_an_unchanged_project_is_byte_identical() {
    let s = graph();
    write_pom(&s, &["org.ex:a:1"]);
    ok(&m2r(&s, "local", &["lock", "--pom", "pom.xml"]));
    let first = std::fs::read(s.dir.join("m2r.lock")).unwrap();
    // from a warm local repository and from a cold one
    ok(&m2r(&s, "local", &["lock", "--pom", "pom.xml"]));
    assert_eq!(std::fs::read(s.dir.join("m2r.lock")).unwrap(), first);
    ok(&m2r(&s, "other", &["lock", "--pom", "pom.xml"]));
    assert_eq!(std::fs::read(s.dir.join("m2r.lock")).unwrap(), first);
    // and --locked agrees with it
    ok(&m2r(
        &s,
        "local",
        &["resolve", "--locked", "--pom", "pom.xml"],
    ));
}

#[test]
fn a_jar_changed_on_the_server_fails_frozen_and_leaves_nothing() {
    let s = graph();
    ok(&m2r(&s, "first", &["lock", "org.ex:a:1"]));
    let lock = std::fs::read_to_string(s.dir.join("m2r.lock")).unwrap();
    let c = remote(&s).join(path_of("org.ex:c:2", "jar"));
    let old = std::fs::read(&c).unwrap();
    let old_sha = sha256_hex(&old);
    assert!(lock.contains(&old_sha), "{lock}");
    let mut changed = old.clone();
    changed.extend_from_slice(b"tampered");
    std::fs::write(&c, &changed).unwrap();
    let new_sha = sha256_hex(&changed);

    let out = m2r(&s, "empty", &["resolve", "--frozen"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("c-2.jar"), "{err}");
    assert!(err.contains(&old_sha), "expected hash missing: {err}");
    assert!(err.contains(&new_sha), "actual hash missing: {err}");
    assert!(err.contains("`corp`"), "repository missing: {err}");
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    let local = s.dir.join("empty");
    assert!(!local.join(path_of("org.ex:c:2", "jar")).exists());
    assert!(temp_files(&local).is_empty(), "{:?}", temp_files(&local));
}

#[test]
fn a_changed_dependency_fails_locked_and_is_named() {
    let s = graph();
    write_pom(&s, &["org.ex:a:1"]);
    ok(&m2r(&s, "local", &["lock", "--pom", "pom.xml"]));
    let lock = std::fs::read(s.dir.join("m2r.lock")).unwrap();
    // `why` answers from the lock alone as from the graph
    for ga in ["org.ex:c", "org.extra:f"] {
        let from_graph = ok(&m2r(&s, "local", &["why", ga, "--pom", "pom.xml"]));
        let from_lock = ok(&m2r(&s, "nowhere", &["why", ga, "--lock", "m2r.lock"]));
        assert_eq!(from_lock, from_graph);
    }
    assert!(!s.dir.join("nowhere").exists());
    // c:1 directly: nearer than a's c:2, so the graph changes
    write_pom(&s, &["org.ex:a:1", "org.ex:c:1"]);
    let out = m2r(&s, "local", &["resolve", "--locked", "--pom", "pom.xml"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let err = text(&out.stderr);
    eprintln!("--locked said:\n{err}");
    assert!(err.contains("org.ex:c"), "{err}");
    assert!(err.contains("m2r.lock"), "{err}");
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    // --locked never writes the lock
    assert_eq!(std::fs::read(s.dir.join("m2r.lock")).unwrap(), lock);
    // no lock at all fails too
    std::fs::remove_file(s.dir.join("m2r.lock")).unwrap();
    let out = m2r(&s, "local", &["resolve", "--locked", "--pom", "pom.xml"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("m2r.lock"),
        "{}",
        text(&out.stderr)
    );
}

/// A project `org.app:ARTIFACT:1` depending on `deps` (`g:a:v` each) in `dir/pom.xml`.
fn write_module(dir: &Path, artifact: &str, deps: &[&str]) {
    std::fs::create_dir_all(dir).unwrap();
    let mut x = format!(
        "<project><modelVersion>4.0.0</modelVersion><groupId>org.app</groupId>\
         <artifactId>{artifact}</artifactId><version>1</version><dependencies>"
    );
    for d in deps {
        let p: Vec<&str> = d.split(':').collect();
        x.push_str(&format!(
            "<dependency><groupId>{}</groupId><artifactId>{}</artifactId><version>{}</version></dependency>",
            p[0], p[1], p[2]
        ));
    }
    x.push_str("</dependencies></project>");
    std::fs::write(dir.join("pom.xml"), x).unwrap();
}

/// An aggregator (`org.app:parent`) of `lib` (a:1) and `app` (lib, and `app_deps`).
fn write_reactor(s: &Setup, app_deps: &[&str]) {
    std::fs::write(
        s.dir.join("pom.xml"),
        "<project><modelVersion>4.0.0</modelVersion><groupId>org.app</groupId>\
         <artifactId>parent</artifactId><version>1</version><packaging>pom</packaging>\
         <modules><module>app</module><module>lib</module></modules></project>",
    )
    .unwrap();
    write_module(&s.dir.join("lib"), "lib", &["org.ex:a:1"]);
    let mut deps = vec!["org.app:lib:1"];
    deps.extend_from_slice(app_deps);
    write_module(&s.dir.join("app"), "app", &deps);
}

/// The class path of `module` (`groupId:artifactId:version`) in a reactor's output.
fn module_line<'a>(out: &'a str, module: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(&format!("{module}\t")))
        .unwrap_or_else(|| panic!("no line for {module} in\n{out}"))
}

#[test]
fn a_reactor_is_locked_module_by_module_and_frozen_fetches_each_jar_once() {
    let s = graph();
    // app: c:1 directly, nearer than a's c:2
    write_reactor(&s, &["org.ex:c:1"]);
    let out = m2r(&s, "first", &["lock", "--pom", "pom.xml"]);
    ok(&out);
    assert!(
        text(&out.stderr).contains("3 projects"),
        "{}",
        text(&out.stderr)
    );
    let lock_text = std::fs::read_to_string(s.dir.join("m2r.lock")).unwrap();
    for secret in [PASSWORD, PROXY_PASSWORD, "deploy@", ":s3cret", "proxyuser"] {
        assert!(!lock_text.contains(secret), "{secret} in\n{lock_text}");
    }
    let lock: serde_json::Value = serde_json::from_str(&lock_text).unwrap();
    let roots: Vec<&str> = lock["projects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["root"].as_str().unwrap())
        .collect();
    assert_eq!(roots.len(), 3, "{roots:?}");
    for r in [
        "org.app:parent:pom:1",
        "org.app:lib:pom:1",
        "org.app:app:pom:1",
    ] {
        assert!(roots.contains(&r), "{r} not in {roots:?}");
    }
    let app = lock["projects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["root"] == "org.app:app:pom:1")
        .unwrap();
    let lib_node = app["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["coord"] == "org.app:lib:jar:1")
        .expect("lib is a node of app's graph");
    assert_eq!(lib_node["module"], true, "{lib_node}");
    assert_eq!(lib_node["file"], "lib/target/classes", "{lib_node}");
    assert!(lib_node.get("sha256").is_none(), "{lib_node}");
    // locking again: the same bytes
    ok(&m2r(&s, "first", &["lock", "--pom", "pom.xml"]));
    assert_eq!(
        std::fs::read_to_string(s.dir.join("m2r.lock")).unwrap(),
        lock_text
    );

    // --frozen: each jar of every module once, nothing else; the reactor's class paths
    let resolved = ok(&m2r(&s, "first", &["resolve", "--pom", "pom.xml"]));
    let before = s.nginx.access_log().len();
    let frozen = ok(&m2r(&s, "empty", &["resolve", "--frozen"]));
    let log = requests_since(&s, before);
    let mut jars: Vec<&str> = JARS.to_vec();
    jars.push("org/ex/c/1/c-1.jar");
    assert_eq!(log.len(), jars.len(), "{log:#?}");
    for jar in &jars {
        assert_eq!(
            log.iter()
                .filter(|l| l.contains(jar) && l.contains("GET "))
                .count(),
            1,
            "{jar}: {log:#?}"
        );
    }
    let first = s.dir.join("first").display().to_string();
    let empty = s.dir.join("empty").display().to_string();
    assert_eq!(frozen.replace(&empty, "L"), resolved.replace(&first, "L"));
    let app_cp = module_line(&frozen, "org.app:app:1");
    let lib_classes = s.dir.join("lib/target/classes").display().to_string();
    assert!(app_cp.starts_with(&lib_classes), "{app_cp}");
    assert!(
        app_cp.contains("c-1.jar") && !app_cp.contains("c-2.jar"),
        "{app_cp}"
    );
    assert!(module_line(&frozen, "org.app:lib:1").contains("c-2.jar"));

    // --locked: unchanged passes and prints the reactor's class paths
    assert_eq!(
        ok(&m2r(
            &s,
            "first",
            &["resolve", "--locked", "--pom", "pom.xml"]
        )),
        resolved
    );
    // app without c:1: its c is a's c:2 now; the difference is named under app
    write_reactor(&s, &[]);
    let out = m2r(&s, "first", &["resolve", "--locked", "--pom", "pom.xml"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    let err = text(&out.stderr);
    eprintln!("--locked said:\n{err}");
    assert!(err.contains("in org.app:app:pom:1"), "{err}");
    assert!(err.contains("org.ex:c"), "{err}");
    assert!(!err.contains("in org.app:lib"), "lib did not change: {err}");
    assert_eq!(
        std::fs::read_to_string(s.dir.join("m2r.lock")).unwrap(),
        lock_text,
        "--locked never writes the lock"
    );
}

#[test]
fn recorded_trusted_checksums_are_read_back_and_enforced() {
    let s = graph();
    let pp = "-Daether.artifactResolver.postProcessor.trustedChecksums";
    let source = "-Daether.trustedChecksumsSource.summaryFile=true";
    let sums = s.dir.join("sums");
    let basedir = format!(
        "-Daether.trustedChecksumsSource.summaryFile.basedir={}",
        sums.display()
    );
    let algorithms = format!("{pp}.checksumAlgorithms=SHA-256");
    let record = [
        "resolve",
        &format!("{pp}=true"),
        &format!("{pp}.record=true"),
        &algorithms,
        source,
        &basedir,
        "org.ex:a:1",
    ];
    ok(&m2r(&s, "first", &record));
    let corp = std::fs::read_to_string(sums.join("checksums-corp.sha256")).unwrap();
    let extra = std::fs::read_to_string(sums.join("checksums-extra.sha256")).unwrap();
    // GNU coreutils format, sorted, relative paths: `sha256sum -c` checks the local repository
    for line in corp.lines().chain(extra.lines()) {
        let (hex, path) = line.split_once("  ").expect(line);
        assert_eq!(hex.len(), 64, "{line}");
        assert!(!path.starts_with('/'), "{line}");
    }
    let c2 = path_of("org.ex:c:2", "jar");
    let c2_sha = sha256_hex(&std::fs::read(remote(&s).join(&c2)).unwrap());
    assert!(corp.contains(&format!("{c2_sha}  {c2}\n")), "{corp}");
    assert!(extra.contains("org/extra/e/1/e-1.jar"), "{extra}");
    let check = Command::new("sha256sum")
        .args(["-c", "--quiet"])
        .arg(sums.join("checksums-corp.sha256"))
        .current_dir(s.dir.join("first"))
        .output()
        .unwrap();
    assert!(check.status.success(), "{}", text(&check.stdout));

    // enforced: the same files pass in a new local repository
    let enforce = [
        "resolve",
        &format!("{pp}=true"),
        &format!("{pp}.failIfMissing=true"),
        &algorithms,
        source,
        &basedir,
        "org.ex:a:1",
    ];
    ok(&m2r(&s, "second", &enforce));
    // a jar changed on the server is refused, naming both hashes
    let c = remote(&s).join(&c2);
    let mut bytes = std::fs::read(&c).unwrap();
    bytes.extend_from_slice(b"tampered");
    support::Repo::new(&remote(&s)).put(&c2, &bytes);
    let out = m2r(&s, "third", &enforce);
    assert!(!out.status.success(), "{}", text(&out.stdout));
    let err = text(&out.stderr);
    assert!(err.contains("org.ex:c:jar:2"), "{err}");
    assert!(err.contains(&c2_sha), "{err}");
    assert!(err.contains(&sha256_hex(&bytes)), "{err}");
    // an artifact with no trusted checksum fails with failIfMissing
    std::fs::remove_file(sums.join("checksums-extra.sha256")).unwrap();
    support::Repo::new(&remote(&s))
        .put(&c2, &std::fs::read(s.dir.join("first").join(&c2)).unwrap());
    let out = m2r(&s, "fourth", &enforce);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("org.extra:e"), "{err}");
    assert!(err.contains("failIfMissing"), "{err}");
}

#[test]
fn the_coursier_export_is_coursiers_json_report() {
    let s = graph();
    let out = m2r(
        &s,
        "local",
        &["lock", "--format", "coursier-json", "org.ex:a:1"],
    );
    let json = ok(&out);
    assert!(!s.dir.join("m2r.lock").exists());
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["version"], "0.1.0");
    assert!(v["conflict_resolution"].is_object(), "{json}");
    let deps = v["dependencies"].as_array().unwrap();
    let coords: Vec<&str> = deps.iter().map(|d| d["coord"].as_str().unwrap()).collect();
    assert_eq!(coords.len(), JARS.len(), "{coords:?}");
    for d in deps {
        let file = d["file"].as_str().unwrap();
        assert!(Path::new(file).is_file(), "{file}");
        assert!(d["directDependencies"].is_array());
        assert!(d["dependencies"].is_array());
        assert!(d["exclusions"].is_array());
    }
    let a = deps.iter().find(|d| d["coord"] == "org.ex:a:1").unwrap();
    let direct: Vec<&str> = a["directDependencies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert_eq!(direct, ["org.ex:b:1", "org.ex:c:2", "org.extra:e:1"]);
    // b asked for c:1, which lost to c:2: Coursier lists the reconciled version
    let b = deps.iter().find(|d| d["coord"] == "org.ex:b:1").unwrap();
    assert_eq!(
        b["directDependencies"],
        serde_json::json!(["org.ex:c:2"]),
        "{json}"
    );
}

fn sha256_hex(bytes: &[u8]) -> String {
    let out = Command::new("sha256sum")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(bytes)?;
            c.wait_with_output()
        })
        .unwrap();
    text(&out.stdout)
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}
