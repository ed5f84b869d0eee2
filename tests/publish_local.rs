//! Installing into a local repository and deploying to a `file:` repository: what Maven's
//! installer does beyond what the fixtures (`testdata/publish/install-*`) show — attachments,
//! files left alone when unchanged, refusals that leave nothing behind.

use m2resolver::publish::{PublishArtifact, PublishError, PublishModule, PublishRequest};
use m2resolver::repository::RemoteRepository;
use m2resolver::{Environment, RuntimeError, Session, SessionError};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The publishing error inside a session's error.
fn publish_error(e: SessionError) -> PublishError {
    match e {
        SessionError::Publish { source } => *source,
        other => panic!("not a publishing error: {other}"),
    }
}

fn session(dir: &Path) -> Session {
    let mut env = std::collections::HashMap::new();
    env.insert("HOME".to_string(), dir.join("home").display().to_string());
    Session::builder()
        .environment(Environment::from_parts(env, dir.to_path_buf()))
        .no_user_settings()
        .local_repository(dir.join("local"))
        .build()
        .unwrap()
}

fn module(dir: &Path, version: &str) -> PublishModule {
    let pom = dir.join("pom.xml");
    std::fs::write(
        &pom,
        format!("<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId><version>{version}</version></project>"),
    )
    .unwrap();
    for (f, n) in [("a.jar", 100), ("a-sources.jar", 50), ("a.jar.asc", 10)] {
        std::fs::write(dir.join(f), vec![n as u8; n]).unwrap();
    }
    PublishModule::new("g", "a", version)
        .with(PublishArtifact::new("", "jar", dir.join("a.jar")))
        .with(PublishArtifact::new("", "pom", pom))
        .with(PublishArtifact::new(
            "sources",
            "jar",
            dir.join("a-sources.jar"),
        ))
        .with(PublishArtifact::new("", "jar.asc", dir.join("a.jar.asc")))
}

fn mtime(p: &Path) -> SystemTime {
    std::fs::metadata(p).unwrap().modified().unwrap()
}

#[test]
fn attachments_are_installed_and_unchanged_files_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let s = session(dir);
    let jar = dir.join("a.jar");
    // a source modification time with sub-millisecond digits, as file systems keep it
    let at = SystemTime::UNIX_EPOCH + Duration::from_nanos(1_700_000_000_123_456_789);
    let request = PublishRequest::module(module(dir, "1.0"));
    std::fs::File::options()
        .write(true)
        .open(&jar)
        .unwrap()
        .set_modified(at)
        .unwrap();
    let report = s.blocking_install(&request).unwrap();
    let installed: Vec<String> = report
        .files
        .iter()
        .map(|f| f.path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        installed,
        [
            "a-1.0.jar",
            "a-1.0.pom",
            "a-1.0-sources.jar",
            "a-1.0.jar.asc"
        ]
    );
    assert!(report.files.iter().all(|f| f.copied));
    let dst = dir.join("local/g/a/1.0/a-1.0.jar");
    // Java keeps whole milliseconds
    assert_eq!(
        mtime(&dst),
        SystemTime::UNIX_EPOCH + Duration::from_millis(1_700_000_000_123)
    );
    let tracking = std::fs::read_to_string(dir.join("local/g/a/1.0/_remote.repositories")).unwrap();
    for f in &installed {
        assert!(tracking.contains(&format!("\n{f}>=\n")), "{tracking}");
    }
    assert!(!dir.join("local/g/a/1.0/a-1.0.jar.sha1").exists());

    // again, with the sources changed: the files of the same size and time stay (the jar
    // under a marker that proves it was not rewritten), the POM is always copied
    std::fs::write(&dst, vec![7u8; 100]).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&dst)
        .unwrap()
        .set_modified(SystemTime::UNIX_EPOCH + Duration::from_millis(1_700_000_000_123))
        .unwrap();
    std::fs::write(dir.join("a-sources.jar"), vec![1u8; 60]).unwrap();
    let report = s.blocking_install(&request).unwrap();
    let copied: Vec<bool> = report.files.iter().map(|f| f.copied).collect();
    assert_eq!(copied, [false, true, true, false]);
    assert_eq!(std::fs::read(&dst).unwrap(), vec![7u8; 100]);
    assert_eq!(
        std::fs::read(dir.join("local/g/a/1.0/a-1.0-sources.jar")).unwrap(),
        vec![1u8; 60]
    );
}

#[test]
fn installing_from_the_local_repository_or_onto_broken_metadata_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let s = session(dir);
    s.blocking_install(&PublishRequest::module(module(dir, "1.0")))
        .unwrap();
    let inside = PublishModule::new("g", "a", "1.0").with(PublishArtifact::new(
        "",
        "jar",
        dir.join("local/g/a/1.0/a-1.0.jar"),
    ));
    let e = s
        .blocking_install(&PublishRequest::module(inside))
        .unwrap_err();
    assert!(
        e.to_string().contains("already in the local repository"),
        "{e}"
    );

    let ga = dir.join("local/g/a/maven-metadata-local.xml");
    std::fs::write(&ga, "<metadata><versioning>").unwrap();
    let e = publish_error(
        s.blocking_install(&PublishRequest::module(module(dir, "2.0")))
            .unwrap_err(),
    );
    assert!(matches!(e, PublishError::LocalMetadata { .. }), "{e}");
    assert!(!dir.join("local/g/a/2.0").exists(), "nothing was installed");

    // a blocking call inside a runtime is an error, not a panic
    let rt = tokio::runtime::Runtime::new().unwrap();
    let e = rt.block_on(async { s.blocking_install(&PublishRequest::module(module(dir, "3.0"))) });
    assert!(
        matches!(
            e,
            Err(SessionError::Runtime {
                source: RuntimeError::Nested
            })
        ),
        "{e:?}"
    );
}

#[test]
fn a_file_repository_takes_a_deployment() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let s = session(dir);
    let target: PathBuf = dir.join("remote");
    let url = format!("file://{}", target.display());
    let o = s.deploy_options("files").unwrap();
    let repo = RemoteRepository::new("files", url.as_str());
    for _ in 0..2 {
        s.blocking_deploy(
            &PublishRequest::module(module(dir, "1.0-SNAPSHOT")),
            &repo,
            &o,
        )
        .unwrap();
    }
    let gav = std::fs::read_to_string(target.join("g/a/1.0-SNAPSHOT/maven-metadata.xml")).unwrap();
    assert!(gav.contains("<buildNumber>2</buildNumber>"), "{gav}");
    let files: Vec<String> = std::fs::read_dir(target.join("g/a/1.0-SNAPSHOT"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        files.iter().filter(|f| f.ends_with("-2.jar.asc")).count(),
        1
    );
    assert_eq!(
        files.iter().filter(|f| f.contains(".jar.asc.")).count(),
        0,
        "{files:?}"
    );
    assert_eq!(
        files
            .iter()
            .filter(|f| f.ends_with("-2-sources.jar.md5"))
            .count(),
        1
    );
    assert!(!files.iter().any(|f| f.ends_with(".tmp")), "{files:?}");
}

#[test]
fn explain_shows_the_deployment_repository_without_a_mirror() {
    use m2resolver::explain::Explanation;
    use m2resolver::settings::SettingsSource;
    let settings = r#"<settings>
  <mirrors><mirror><id>corp</id><mirrorOf>*</mirrorOf><url>https://nexus.example.com/maven</url></mirror></mirrors>
  <proxies><proxy><id>office</id><host>127.0.0.1</host><port>3128</port><username>pu</username><password>proxy-secret</password></proxy></proxies>
  <servers><server><id>releases</id><username>ci</username><password>server-secret</password></server></servers>
</settings>"#;
    let s = Session::builder()
        .environment(Environment::from_parts(Default::default(), "/work".into()))
        .user_settings(SettingsSource::content("settings.xml", settings))
        .env_proxies(false)
        .define("aether.checksums.algorithms=SHA-512")
        .build()
        .unwrap();
    let (raw, _) =
        m2resolver::publish::alt_deployment_repository("releases::http://repo.example.com/r")
            .unwrap();
    let e = Explanation::new(&s, &[]).with_deployment(&s, &raw);
    let text = e.render(false);
    for want in [
        "Deployment repository: releases http://repo.example.com/r",
        "no mirror applies",
        "mirror `corp` would replace it for downloads",
        "proxy: http://127.0.0.1:3128 from settings proxy `office` as pu (password ***)",
        "credentials: server `releases`: username ci, password ***",
        "checksums SHA-512 (none for .asc), Expect: 100-continue on",
    ] {
        assert!(text.contains(want), "{want}\n{text}");
    }
    assert!(!text.contains("server-secret") && !text.contains("proxy-secret"));
    assert!(
        !text.contains("server `releases` ("),
        "the server is used: {text}"
    );
    let json = e.to_json();
    let d = &json["deploymentRepository"];
    assert_eq!(d["id"], "releases");
    assert_eq!(d["wouldMirror"], "corp");
    assert!(d["mirroredRepositories"].as_array().unwrap().is_empty());
    assert_eq!(d["authentication"]["username"], "ci");
    assert_eq!(d["proxy"]["host"], "127.0.0.1");
    // and the upload goes where explain says: not to the mirror
    let target = s.deployment_repository(&raw);
    assert_eq!(
        target.repository.url.as_written(),
        "http://repo.example.com/r"
    );
    assert_eq!(
        target
            .repository
            .authentication
            .unwrap()
            .password
            .unwrap()
            .expose(),
        "server-secret"
    );
}
