//! Publishing fixtures: every folder of `testdata/publish/` holds inputs and the repository tree
//! real Maven 3.8.7 left for them (`scripts/gen_publish_fixtures.py`, which runs
//! `/work/shared/oracle/mvn-publish.py`); `m2r deploy` / `m2r install` with the same arguments must
//! leave the same tree: the same file names, the same bytes (artifacts, their checksums,
//! `_remote.repositories` lines), the same metadata documents once timestamps are normalised, and
//! metadata checksum files that match the metadata.
//!
//! Each deploy case runs twice: against nginx with `dav_methods PUT` and Basic auth directly over
//! HTTP, and over HTTPS through squid with Basic proxy authentication (a `CONNECT` tunnel). `PUBLISH_CASE=<name>` runs one case. A missing
//! server binary fails the test.

#[path = "../../tests/support/mod.rs"]
mod support;

use sha2::Digest;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::publish::{tree, DavNginx};
use support::*;

const SETTINGS: &str = r#"<settings>
  <servers><server><id>pub</id><username>deploy</username><password>s3cret</password></server></servers>
</settings>
"#;

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/publish");
    let only = std::env::var("PUBLISH_CASE").ok();
    let mut out: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("args").is_file() && p.join("expected").is_dir())
        .filter(|p| {
            only.as_deref()
                .is_none_or(|o| p.file_name().is_some_and(|n| n == o))
        })
        .collect();
    out.sort();
    assert!(
        !out.is_empty(),
        "no publishing fixture under {}",
        root.display()
    );
    out
}

fn norm_name(name: &str) -> String {
    regex::Regex::new(r"\d{8}\.\d{6}-")
        .unwrap()
        .replace_all(name, "TIMESTAMP-")
        .into_owned()
}

fn norm_metadata(text: &str) -> String {
    let mut t = text.to_string();
    for (pattern, with) in [
        (
            r"<lastUpdated>\d{14}</lastUpdated>",
            "<lastUpdated>LASTUPDATED</lastUpdated>",
        ),
        (r"<updated>\d{14}</updated>", "<updated>UPDATED</updated>"),
        (
            r"<timestamp>\d{8}\.\d{6}</timestamp>",
            "<timestamp>TIMESTAMP</timestamp>",
        ),
        (r"\d{8}\.\d{6}-", "TIMESTAMP-"),
    ] {
        t = regex::Regex::new(pattern)
            .unwrap()
            .replace_all(&t, with)
            .into_owned();
    }
    t
}

fn digest(extension: &str, data: &[u8]) -> Option<String> {
    Some(match extension {
        "sha1" => hex::encode(sha1::Sha1::digest(data)),
        "md5" => hex::encode(md5::Md5::digest(data)),
        "sha256" => hex::encode(sha2::Sha256::digest(data)),
        "sha512" => hex::encode(sha2::Sha512::digest(data)),
        _ => return None,
    })
}

/// The differences between the oracle's normalised tree and `actual`.
fn compare(expected: &Path, actual: &Path) -> Vec<String> {
    let mut diffs = Vec::new();
    let want: Vec<String> = tree(expected);
    let files: Vec<String> = tree(actual)
        .into_iter()
        .filter(|p| !p.starts_with(".locks/"))
        .collect();
    let got: Vec<String> = files.iter().map(|p| norm_name(p)).collect();
    for w in &want {
        if !got.contains(w) {
            diffs.push(format!("missing {w}"));
        }
    }
    for (g, raw) in got.iter().zip(&files) {
        if !want.contains(g) {
            diffs.push(format!("unexpected {raw}"));
            continue;
        }
        let bytes = std::fs::read(actual.join(raw)).unwrap();
        let wanted = std::fs::read(expected.join(g)).unwrap();
        let name = raw.rsplit('/').next().unwrap_or(raw);
        let is_metadata = name.starts_with("maven-metadata");
        let ok = if is_metadata && name.ends_with(".xml") {
            norm_metadata(&String::from_utf8_lossy(&bytes)) == String::from_utf8_lossy(&wanted)
        } else if is_metadata {
            // a checksum of metadata: must match the metadata beside it
            let (file, ext) = raw.rsplit_once('.').unwrap();
            let md = std::fs::read(actual.join(file)).unwrap_or_default();
            digest(ext, &md).is_some_and(|d| d == String::from_utf8_lossy(&bytes))
                && wanted == b"CHECKSUM"
        } else if name == "_remote.repositories" {
            let text = String::from_utf8_lossy(&bytes);
            let mut lines: Vec<&str> = text
                .lines()
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .collect();
            lines.sort();
            lines
                .iter()
                .map(|l| format!("{l}\n"))
                .collect::<String>()
                .as_bytes()
                == wanted
        } else {
            bytes == wanted
        };
        if !ok {
            diffs.push(format!(
                "{raw} differs:\n--- Maven\n{}\n--- m2r\n{}",
                String::from_utf8_lossy(&wanted),
                String::from_utf8_lossy(&bytes)
            ));
        }
    }
    diffs
}

fn copy_tree(from: &Path, to: &Path) {
    for rel in tree(from) {
        let dst = to.join(&rel);
        std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
        std::fs::copy(from.join(&rel), dst).unwrap();
    }
}

struct Route {
    name: &'static str,
    settings: String,
}

fn run(case: &Path, args: &[String], home: &Path) -> std::process::Output {
    run_trusting(case, args, home, Path::new("/nonexistent-ca.pem"))
}

/// Runs `m2r` in `case` with an empty environment but `HOME` and the CA to trust.
fn run_trusting(case: &Path, args: &[String], home: &Path, ca: &Path) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_m2r"));
    cmd.args(args)
        .current_dir(case)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home);
    if ca.is_file() {
        cmd.env("SSL_CERT_FILE", ca);
    }
    support::process::bounded_output(&mut cmd)
}

#[test]
fn install_and_deploy_leave_what_maven_leaves() {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    let nginx = DavNginx::start(&tmp.path().join("served"), &work);
    let squid = Squid::start(&work, &[nginx.https_port]);
    let routes = [
        Route {
            name: "direct",
            settings: SETTINGS.to_string(),
        },
        Route {
            name: "squid",
            settings: SETTINGS.replace(
                "</settings>",
                &format!(
                    "  <proxies><proxy><id>corp</id><host>127.0.0.1</host><port>{}</port>\
                     <username>{PROXY_USER}</username><password>{PROXY_PASSWORD}</password></proxy></proxies>\n</settings>",
                    squid.port
                ),
            ),
        },
    ];
    let mut failures = Vec::new();
    let mut ran = 0;
    for case in cases() {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let lines: Vec<String> = std::fs::read_to_string(case.join("args"))
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        let (mode, args) = (lines[0].trim().to_string(), &lines[1..]);
        let runs: usize = std::fs::read_to_string(case.join("runs"))
            .ok()
            .and_then(|r| r.trim().parse().ok())
            .unwrap_or(1);
        let routes: &[Route] = if mode == "deploy" {
            &routes
        } else {
            &routes[..1]
        };
        for route in routes {
            let label = format!("{name} ({})", route.name);
            let scratch = tmp.path().join(format!("{name}-{}", route.name));
            let home = scratch.join("home");
            std::fs::create_dir_all(&home).unwrap();
            let settings = scratch.join("settings.xml");
            let text = match std::fs::read_to_string(case.join("settings.xml")) {
                Ok(t) => t,
                Err(_) => route.settings.clone(),
            };
            std::fs::write(&settings, text).unwrap();
            let (target, extra): (PathBuf, Vec<String>) = if mode == "deploy" {
                let sub = format!("{name}-{}", route.name);
                // direct: plain HTTP; through squid: HTTPS in a CONNECT tunnel
                let base = if route.name == "squid" {
                    nginx.https("private")
                } else {
                    nginx.http("private")
                };
                let url = format!("{base}{sub}/");
                (
                    nginx.root.join(&sub),
                    vec![
                        "--to".into(),
                        format!("pub::{url}"),
                        "--local-repository".into(),
                        scratch.join("local").display().to_string(),
                    ],
                )
            } else {
                let local = scratch.join("local");
                (
                    local.clone(),
                    vec!["--local-repository".into(), local.display().to_string()],
                )
            };
            std::fs::create_dir_all(&target).unwrap();
            if case.join("server").is_dir() {
                copy_tree(&case.join("server"), &target);
            }
            let mut all: Vec<String> = vec![mode.clone()];
            all.extend(args.iter().filter(|a| !a.is_empty()).cloned());
            all.extend(extra);
            all.extend(["--settings".into(), settings.display().to_string()]);
            let mut ok = true;
            for _ in 0..runs {
                let out = run_trusting(&case, &all, &home, &nginx.tls.ca_pem);
                if !out.status.success() {
                    failures.push(format!(
                        "{label}: m2r {mode} failed: {}",
                        String::from_utf8_lossy(&out.stderr)
                    ));
                    ok = false;
                    break;
                }
            }
            ran += 1;
            if ok {
                let diffs = compare(&case.join("expected"), &target);
                if !diffs.is_empty() {
                    failures.push(format!("{label}:\n  {}", diffs.join("\n  ")));
                }
            }
        }
    }
    assert!(ran > 0);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// What `m2r deploy` uploaded resolves: with `m2r resolve`, and with Maven Resolver 1.6.3 (the
/// testbed's `mavenfetch`, Maven 3.8.7's own session and Wagon transport) with checksum policy
/// `fail`, so every file is checked against the `.sha1` m2r uploaded, and its bytes against the
/// server's — a release with sources and a snapshot deployed twice (build number 2 wins).
#[test]
fn maven_and_m2r_resolve_what_m2r_deployed() {
    // the testbed sits beside the checkout (`../shared/bench`), found from here upwards
    let mavenfetch = std::env::var_os("M2R_BENCH")
        .map(|d| PathBuf::from(d).join("mavenfetch"))
        .or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .ancestors()
                .map(|a| a.join("shared/bench/mavenfetch"))
                .find(|p| p.is_file())
        })
        .expect("the testbed's mavenfetch (../shared/bench, or $M2R_BENCH) is needed");
    let tmp = tempfile::tempdir().unwrap();
    let nginx = DavNginx::start(&tmp.path().join("served"), &tmp.path().join("work"));
    let dir = tmp.path().join("case");
    std::fs::create_dir_all(dir.join("home")).unwrap();
    let url = nginx.http("private");
    let settings = SETTINGS.replace(
        "</settings>",
        &format!(
            "  <profiles><profile><id>p</id><repositories><repository><id>pub</id><url>{url}</url>\
             <releases><checksumPolicy>fail</checksumPolicy></releases>\
             <snapshots><enabled>true</enabled><checksumPolicy>fail</checksumPolicy></snapshots></repository></repositories></profile></profiles>\n\
             <activeProfiles><activeProfile>p</activeProfile></activeProfiles>\n</settings>"
        ),
    );
    std::fs::write(dir.join("settings.xml"), settings).unwrap();
    let pom = |v: &str| {
        format!("<project><modelVersion>4.0.0</modelVersion><groupId>org.example</groupId><artifactId>lib</artifactId><version>{v}</version></project>\n")
    };
    std::fs::write(dir.join("pom-rel.xml"), pom("1.0")).unwrap();
    std::fs::write(dir.join("pom-snap.xml"), pom("2.0-SNAPSHOT")).unwrap();
    std::fs::write(dir.join("lib.jar"), Repo::content("rel", 4000)).unwrap();
    std::fs::write(dir.join("src.jar"), Repo::content("src", 3000)).unwrap();
    let deploy = |pom: &str, jar: &[u8]| {
        std::fs::write(dir.join("snap.jar"), jar).unwrap();
        let file = if pom == "pom-rel.xml" {
            "lib.jar"
        } else {
            "snap.jar"
        };
        let args: Vec<String> = [
            "deploy",
            "--pom",
            pom,
            "--file",
            file,
            "--attach",
            "src.jar:sources:jar",
            "--settings",
            "settings.xml",
            "--local-repository",
            "deploy-local",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([format!("--to=pub::{url}")])
        .collect();
        let out = run(&dir, &args, &dir.join("home"));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    deploy("pom-rel.xml", &[]);
    deploy("pom-snap.xml", &Repo::content("build1", 2000));
    deploy("pom-snap.xml", &Repo::content("build2", 2500));

    let out = run(
        &dir,
        &[
            "resolve".into(),
            "--settings".into(),
            "settings.xml".into(),
            "--local-repository".into(),
            "m2r-local".into(),
            format!("--repo=pub={url}"),
            "org.example:lib:1.0".into(),
        ],
        &dir.join("home"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let classpath = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert_eq!(
        std::fs::read(&classpath).unwrap(),
        Repo::content("rel", 4000)
    );
    let out = run(
        &dir,
        &[
            "get".into(),
            "--settings".into(),
            "settings.xml".into(),
            "--local-repository".into(),
            "m2r-local".into(),
            "org.example:lib:2.0-SNAPSHOT".into(),
            "org.example:lib:jar:sources:2.0-SNAPSHOT".into(),
        ],
        &dir.join("home"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let files: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert!(files[0].ends_with("-2.jar"), "{files:?}");
    assert_eq!(
        std::fs::read(&files[0]).unwrap(),
        Repo::content("build2", 2500)
    );

    let out = Command::new("bash")
        .arg(&mavenfetch)
        .args([
            "get",
            "--settings",
            "settings.xml",
            "--local-repository",
            "maven-local",
        ])
        // checksum policy `fail` checked each download; the bytes are compared below
        .arg("--no-verify")
        .args([
            "org.example:lib:1.0",
            "org.example:lib:jar:sources:1.0",
            "org.example:lib:2.0-SNAPSHOT",
            "org.example:lib:pom:2.0-SNAPSHOT",
        ])
        .current_dir(&dir)
        .env("BENCH_TMP", dir.join("mavenfetch"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "Maven Resolver cannot resolve what m2r deployed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(dir.join("maven-local/org/example/lib/1.0/lib-1.0.jar")).unwrap(),
        Repo::content("rel", 4000)
    );
    assert_eq!(
        std::fs::read(dir.join("maven-local/org/example/lib/1.0/lib-1.0-sources.jar")).unwrap(),
        Repo::content("src", 3000)
    );
    let snap = std::fs::read_dir(dir.join("maven-local/org/example/lib/2.0-SNAPSHOT"))
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .find(|n| n.ends_with("-2.jar"))
        .expect("Maven resolved build 2");
    assert_eq!(
        std::fs::read(
            dir.join("maven-local/org/example/lib/2.0-SNAPSHOT")
                .join(snap)
        )
        .unwrap(),
        Repo::content("build2", 2500)
    );
}

/// Without `--to`, `m2r deploy` goes to the POM's `distributionManagement`: the snapshot
/// repository for a snapshot, the release repository for a release (credentials by their ids).
#[test]
fn deploy_goes_to_the_distribution_management_of_the_pom() {
    let tmp = tempfile::tempdir().unwrap();
    let nginx = DavNginx::start(&tmp.path().join("served"), &tmp.path().join("work"));
    let dir = tmp.path().join("case");
    std::fs::create_dir_all(dir.join("home")).unwrap();
    let settings = "<settings><servers>\
        <server><id>rel</id><username>deploy</username><password>s3cret</password></server>\
        <server><id>snap</id><username>deploy</username><password>s3cret</password></server>\
        </servers></settings>";
    std::fs::write(dir.join("settings.xml"), settings).unwrap();
    let pom = |v: &str| {
        format!(
            "<project><modelVersion>4.0.0</modelVersion><groupId>org.example</groupId>\
             <artifactId>dm</artifactId><version>{v}</version><packaging>pom</packaging>\
             <distributionManagement>\
             <repository><id>rel</id><url>{}releases</url></repository>\
             <snapshotRepository><id>snap</id><url>{}snapshots</url></snapshotRepository>\
             </distributionManagement></project>",
            nginx.http("private"),
            nginx.http("private")
        )
    };
    for (v, folder) in [("1.0", "releases"), ("1.1-SNAPSHOT", "snapshots")] {
        std::fs::write(dir.join("pom.xml"), pom(v)).unwrap();
        let args: Vec<String> = [
            "deploy",
            "--pom",
            "pom.xml",
            "--settings",
            "settings.xml",
            "--local-repository",
            "local",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let out = run(&dir, &args, &dir.join("home"));
        assert!(
            out.status.success(),
            "{v}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let files = tree(&nginx.root.join(folder).join("org/example/dm"));
        assert!(
            files
                .iter()
                .any(|f| f.starts_with(&format!("{v}/")) && f.ends_with(".pom")),
            "{v}: {files:?}"
        );
        assert!(
            files.contains(&"maven-metadata.xml".to_string()),
            "{files:?}"
        );
    }
    // neither --to nor distributionManagement: a clear error, nothing uploaded
    std::fs::write(
        dir.join("pom.xml"),
        "<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>x</artifactId><version>1</version><packaging>pom</packaging></project>",
    )
    .unwrap();
    let args: Vec<String> = [
        "deploy",
        "--pom",
        "pom.xml",
        "--settings",
        "settings.xml",
        "--local-repository",
        "local",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let out = run(&dir, &args, &dir.join("home"));
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("distributionManagement") && err.contains("--to id::url"),
        "{err}"
    );
}
