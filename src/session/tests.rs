//! Session behaviour that no fixture covers: nothing secret is printable, header values are
//! decrypted for downloads, credentials are decrypted only when used.

use super::*;
use crate::settings::SettingsSource;
use crate::Secret;

const QUICKSTART_PASSWORD: &str = "{Soc2Nh4GWvgHc+Od29GALSSYe7JoAlgr1fvSun7Gkcc=}";

fn quickstart() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/quickstart")
}

fn environment(env: &[(&str, &str)]) -> Environment {
    Environment {
        env: env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        system_properties: [("user.home".to_string(), "/nonexistent-home".to_string())].into(),
        cwd: quickstart(),
    }
}

/// A session over in-memory settings, the quickstart's security file and an empty environment.
fn session_with(name: &str, xml: &str) -> Result<Session, SessionError> {
    Session::builder()
        .environment(environment(&[]))
        .user_settings(SettingsSource::content(name, xml))
        .security_file(quickstart().join("settings-security.xml"))
        .build()
}

#[test]
fn debug_of_a_session_shows_no_secret() {
    let settings = format!(
        r#"<settings>
  <proxies><proxy><id>corp</id><host>proxy.corp</host><port>3128</port>
    <username>builder</username><password>settings-proxy-pw</password></proxy></proxies>
  <servers>
    <server><id>nexus</id><username>ci</username><password>settings-server-pw</password></server>
    <server><id>quickstart</id><username>demo</username><password>{QUICKSTART_PASSWORD}</password>
      <privateKey>/keys/id</privateKey><passphrase>settings-passphrase</passphrase>
      <configuration><httpHeaders><property><name>X-Token</name><value>header-token-value</value></property></httpHeaders></configuration>
    </server>
  </servers>
  <mirrors><mirror><id>nexus</id><mirrorOf>central</mirrorOf><url>https://nexus.corp/maven</url></mirror>
    <mirror><id>bot</id><mirrorOf>corp</mirrorOf><url>https://ci-bot:mirror-url-pw@nexus2.corp/maven</url></mirror></mirrors>
  <profiles><profile><id>sign</id><properties><gpg.passphrase>profile-property-pw</gpg.passphrase></properties>
    <repositories><repository><id>corp</id><url>https://repo-user:repo-url-pw@repo.corp/</url></repository></repositories>
  </profile></profiles>
  <activeProfiles><activeProfile>sign</activeProfile></activeProfiles>
</settings>"#
    );
    let secrets = [
        "env-proxy-pw",
        "jvm-proxy-pw",
        "socks-pw",
        "master-env-pw",
        "settings-proxy-pw",
        "settings-server-pw",
        "settings-passphrase",
        "header-token-value",
        "profile-property-pw",
        "demo-pass",
        "Soc2Nh4GWvgHc",
        "mirror-url-pw",
        "repo-url-pw",
        "declared-url-pw",
        "ci-bot",
        "repo-user",
    ];
    let builder = Session::builder()
        .environment(environment(&[
            ("HTTPS_PROXY", "http://envuser:env-proxy-pw@proxy.env:8080"),
            ("MAVEN_MASTER_PASSWORD", "master-env-pw"),
        ]))
        .user_settings(SettingsSource::content("settings.xml", settings))
        .security_file(quickstart().join("settings-security.xml"))
        .define("http.proxyPassword=jvm-proxy-pw")
        .system_property("java.net.socks.password", "socks-pw")
        .env_proxies(true);
    let printed_builder = format!("{builder:?}");
    let session = builder.build().unwrap();
    let declared = [
        RemoteRepository::new("central", "https://repo.maven.apache.org/maven2"),
        RemoteRepository::new("quickstart", "https://quickstart.example/maven2"),
        RemoteRepository::new("pom-repo", "https://pom:declared-url-pw@pom.example/maven2"),
    ];
    let answer = session.repositories(&declared);
    // The credentials were decrypted and are in the answer ...
    let quick = answer
        .repositories
        .iter()
        .find(|r| r.id == "quickstart")
        .unwrap();
    let auth = quick.authentication.as_ref().unwrap();
    assert_eq!(auth.password.as_ref().unwrap().expose(), "demo-pass");
    assert_eq!(
        auth.passphrase.as_ref().unwrap().expose(),
        "settings-passphrase"
    );
    assert_eq!(quick.transport.headers[0].1.expose(), "header-token-value");
    // ... and printable nowhere.
    let explanation = crate::explain::Explanation::new(&session, &declared);
    for printed in [
        printed_builder,
        format!("{session:?}"),
        format!("{session:#?}"),
        format!("{:?}", session.settings()),
        format!("{:#?}", session.settings()),
        format!("{answer:?}"),
        format!("{explanation:?}"),
        explanation.render(false),
        format!("{:?}", session.downloader_config()),
    ] {
        for secret in secrets {
            assert!(!printed.contains(secret), "{secret} is printed:\n{printed}");
        }
    }
}

#[test]
fn encrypted_header_values_are_decrypted_for_downloads() {
    let xml = "<settings><servers><server><id>r</id><configuration><httpHeaders>\
               <property><name>X-Token</name><value>{Soc2Nh4GWvgHc+Od29GALSSYe7JoAlgr1fvSun7Gkcc=}</value></property>\
               <property><name>X-Broken</name><value>{AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=}</value></property>\
               </httpHeaders></configuration></server></servers></settings>";
    let session = session_with("s.xml", xml).unwrap();
    let answer = session.repositories(&[RemoteRepository::new("r", "https://r.example/")]);
    assert_eq!(
        answer.repositories[0].transport.headers,
        vec![("X-Token".to_string(), Secret::new("demo-pass"))]
    );
    assert_eq!(answer.problems.len(), 1, "{:?}", answer.problems);
    let message = &answer.problems[0].message;
    assert!(
        message.contains("X-Broken") && message.contains("not sent"),
        "{message}"
    );
}

#[test]
fn undecryptable_credentials_are_left_out_and_reported_with_their_origin() {
    let xml = "<settings>\n<servers><server><id>r</id><username>u</username>\
               <password>{AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=}</password></server></servers></settings>";
    let session = session_with("s.xml", xml).unwrap();
    let answer = session.repositories(&[RemoteRepository::new("r", "https://r.example/")]);
    let auth = answer.repositories[0].authentication.as_ref().unwrap();
    assert_eq!(auth.username.as_deref(), Some("u"));
    assert!(auth.password.is_none(), "never sent");
    assert_eq!(answer.problems.len(), 1);
    assert_eq!(
        answer.problems[0].source, "<settings>:2:10",
        "in-memory content has no file"
    );
    // explain --json shows what Maven uses: the text as written.
    let e = crate::explain::Explanation::new(
        &session,
        &[RemoteRepository::new("r", "https://r.example/")],
    );
    let doc = e.to_json();
    assert_eq!(
        doc["repositories"][0]["authentication"]["password"],
        "{AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=}"
    );
}

#[test]
fn offline_and_local_repository_say_where_they_come_from() {
    let xml = "<settings><offline>true</offline><localRepository>repo</localRepository></settings>";
    let session = session_with("user.xml", xml).unwrap();
    assert!(session.offline().value);
    assert_eq!(
        session.offline().definition,
        Definition::Settings {
            level: crate::settings::SourceLevel::User,
            source: "user.xml".into()
        }
    );
    assert_eq!(session.local_repository().value, quickstart().join("repo"));
    assert_eq!(
        session.local_repository().definition.to_string(),
        "user settings user.xml"
    );
    let config = session.downloader_config();
    assert!(config.offline);
    assert_eq!(config.local_repository, quickstart().join("repo"));
}

#[test]
fn invalid_non_proxy_hosts_fail_the_build_with_every_problem() {
    let xml = "<settings><proxies><proxy><id>p</id><host>h</host><nonProxyHosts>*(</nonProxyHosts></proxy></proxies></settings>";
    let err = session_with("s.xml", xml).unwrap_err();
    assert!(matches!(err, SessionError::Injection { .. }), "{err}");
    assert!(std::error::Error::source(&err).is_some());
    assert_eq!(err.problems().last().unwrap().stage, Stage::Build);
}

#[test]
fn aggregation_adds_a_pom_repository_with_its_credentials() {
    let xml = "<settings><servers><server><id>pom-repo</id><username>u</username><password>pom-pw</password></server></servers>\
               <mirrors><mirror><id>corp</id><mirrorOf>central</mirrorOf><url>https://nexus/maven</url></mirror></mirrors></settings>";
    let session = session_with("s.xml", xml).unwrap();
    let dominant = session
        .repositories(&[RemoteRepository::central()])
        .repositories;
    let (all, problems) = session.aggregate_repositories(
        &dominant,
        &[
            RemoteRepository::central(),
            RemoteRepository::new("pom-repo", "https://pom.example/repo"),
        ],
        true,
    );
    assert!(problems.is_empty(), "{problems:?}");
    let ids: Vec<&str> = all.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["corp", "pom-repo"]);
    let auth = all[1].authentication.as_ref().unwrap();
    assert_eq!(auth.password.as_ref().unwrap().expose(), "pom-pw");
}

#[test]
fn session_selectors_fill_in_credentials_when_resolution_aggregates() {
    let xml = "<settings><servers><server><id>pom-repo</id><username>u</username>\
               <password>{Soc2Nh4GWvgHc+Od29GALSSYe7JoAlgr1fvSun7Gkcc=}</password></server></servers></settings>";
    let session = session_with("s.xml", xml).unwrap();
    let pom_repo = [RemoteRepository::new(
        "pom-repo",
        "https://pom.example/repo",
    )];
    // What dependency resolution does with the repositories a POM declares.
    let out = crate::repository::aggregate_repositories(&[], &pom_repo, true, &session.selectors());
    let auth = out[0].authentication.as_ref().unwrap();
    assert_eq!(auth.password.as_ref().unwrap().expose(), "demo-pass");
    // The session's own (sealed) selectors, as explain uses them, fill in nothing.
    let (sealed, _) = session.inject_sealed(&pom_repo);
    assert!(sealed[0]
        .authentication
        .as_ref()
        .unwrap()
        .password
        .is_none());
}

/// A `file://` repository with `app:1 → lib:1 (compile), rt:1 (runtime), tst:1 (test)`.
fn file_repository(dir: &std::path::Path) -> RemoteRepository {
    let put = |g: &str, a: &str, deps: &[(&str, &str)]| {
        let base = dir.join(g).join(a).join("1");
        std::fs::create_dir_all(&base).unwrap();
        let deps: String = deps
            .iter()
            .map(|(d, scope)| format!("<dependency><groupId>{g}</groupId><artifactId>{d}</artifactId><version>1</version><scope>{scope}</scope></dependency>"))
            .collect();
        let pom = format!("<project><modelVersion>4.0.0</modelVersion><groupId>{g}</groupId><artifactId>{a}</artifactId><version>1</version><dependencies>{deps}</dependencies></project>");
        std::fs::write(base.join(format!("{a}-1.pom")), pom).unwrap();
        std::fs::write(base.join(format!("{a}-1.jar")), format!("jar of {a}")).unwrap();
    };
    put(
        "g",
        "app",
        &[("lib", "compile"), ("rt", "runtime"), ("tst", "test")],
    );
    put("g", "lib", &[]);
    put("g", "rt", &[]);
    put("g", "tst", &[]);
    // no checksums: accepted under the default `warn` policy
    RemoteRepository::new(
        "files",
        url::Url::from_directory_path(dir).unwrap().as_str(),
    )
}

#[test]
fn a_session_resolves_a_project_file_from_its_working_directory() {
    use crate::resolution::collect::classpath::ClasspathScope;
    use crate::resolution::collect::project::Root;
    let tmp = tempfile::tempdir().unwrap();
    let repo = file_repository(&tmp.path().join("remote"));
    let project = tmp.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(
        project.join("pom.xml"),
        "<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>me</artifactId><version>1</version>
         <dependencies><dependency><groupId>g</groupId><artifactId>app</artifactId><version>1</version></dependency></dependencies></project>",
    )
    .unwrap();
    let session = Session::builder()
        .environment(Environment::from_parts(Default::default(), project.clone()))
        .user_settings(SettingsSource::content("settings.xml", "<settings/>"))
        .no_global_settings()
        .local_repository(tmp.path().join("local"))
        .build()
        .unwrap();
    let repos = session.repositories(&[repo]).repositories;

    // the project file, relative to the session's working directory (not the process's)
    let d = session
        .blocking_describe_project(std::path::Path::new("pom.xml"), &repos)
        .unwrap();
    assert_eq!(d.descriptor.dependencies[0].artifact.artifact_id, "app");

    let root = Root::Pom("pom.xml".into());
    let collected = session.blocking_collect(&root, &repos).unwrap();
    let names: Vec<String> = collected
        .graph
        .preorder()
        .into_iter()
        .map(|(n, depth)| {
            let node = collected.graph.node(n);
            format!(
                "{depth} {} {}",
                node.artifact().unwrap().artifact_id,
                node.scope()
            )
        })
        .collect();
    assert_eq!(names, ["1 app compile", "2 lib compile", "2 rt runtime"]);

    let resolved = session
        .blocking_resolve(&root, &repos, Some(ClasspathScope::Runtime))
        .unwrap();
    let local = tmp.path().join("local/g");
    assert_eq!(
        resolved.files(),
        [
            local.join("app/1/app-1.jar"),
            local.join("lib/1/lib-1.jar"),
            local.join("rt/1/rt-1.jar")
        ]
    );
    assert_eq!(resolved.classpath(ClasspathScope::Compile).len(), 2);
    assert_eq!(
        std::fs::read_to_string(local.join("rt/1/rt-1.jar")).unwrap(),
        "jar of rt"
    );

    // an artifact that is nowhere: the error names it, the rest of the answer is kept
    let missing = Root::compile([crate::resolution::Artifact::new(
        "g", "gone", "jar", "", "1",
    )]);
    let err = session
        .blocking_resolve(&missing, &repos, None)
        .unwrap_err();
    let SessionError::Resolve { source, result } = &err else {
        panic!("{err}")
    };
    assert!(source.to_string().contains("g:gone"), "{source}");
    assert_eq!(
        result.collect.problems.len(),
        1,
        "the missing POM is a warning"
    );
    assert_eq!(result.failures().count(), 1);
}

/// Polls `future` to completion on this thread, without any async runtime.
fn run_without_runtime<F: std::future::Future>(future: F) -> F::Output {
    use std::task::{Context, Poll, Wake};
    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: std::sync::Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = std::sync::Arc::new(Unpark(std::thread::current())).into();
    let mut cx = Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    for _ in 0..10_000 {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
        std::thread::park_timeout(std::time::Duration::from_millis(10));
    }
    panic!("the future did not finish within 100 s")
}

#[test]
fn async_dependency_methods_run_on_the_sessions_engine_from_any_executor() {
    use crate::resolution::collect::project::Root;
    let session = session_with("settings.xml", "<settings/>").unwrap();
    let root = Root::compile([]);
    // No Tokio runtime here: the session's own runtime does the work.
    let result = run_without_runtime(session.collect(&root, &[])).unwrap();
    assert_eq!(result.graph.nodes.len(), 1, "the root alone");
    // From a runtime that is gone by the time of the next call.
    let caller = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    caller.block_on(session.collect(&root, &[])).unwrap();
    drop(caller);
    run_without_runtime(session.collect(&root, &[])).unwrap();
}

#[test]
fn blocking_methods_inside_a_runtime_return_an_error_instead_of_panicking() {
    use crate::resolution::collect::project::Root;
    let session = session_with("settings.xml", "<settings/>").unwrap();
    let root = Root::compile([]);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let errors = runtime.block_on(async {
        let in_task = tokio::spawn({
            let session = std::sync::Arc::new(session_with("settings.xml", "<settings/>").unwrap());
            let root = root.clone();
            async move { session.blocking_collect(&root, &[]).map(|_| ()) }
        })
        .await
        .unwrap();
        vec![
            session.blocking_collect(&root, &[]).map(|_| ()),
            session.blocking_resolve(&root, &[], None).map(|_| ()),
            session
                .blocking_describe(
                    &crate::resolution::Artifact::new("g", "a", "jar", "", "1"),
                    &[],
                )
                .map(|_| ()),
            session.blocking_download(&[], &[]).map(|_| ()),
            in_task,
        ]
    });
    for e in errors {
        let err = e.unwrap_err();
        assert!(
            matches!(
                err,
                SessionError::Runtime {
                    source: crate::RuntimeError::Nested
                }
            ),
            "{err}"
        );
        let chain = crate::printable::error_chain(&err);
        assert!(chain.contains("use the async method instead"), "{chain}");
    }
    // Outside the runtime the same session answers.
    drop(runtime);
    session.blocking_collect(&root, &[]).unwrap();
}

#[test]
fn the_quickstart_graph_resolves_offline_from_the_bundled_files_with_snapshot_file_names() {
    use crate::resolution::collect::classpath::ClasspathScope;
    use crate::resolution::collect::project::Root;
    use crate::resolution::Artifact;
    let tmp = tempfile::tempdir().unwrap();
    let session = Session::builder()
        .environment(Environment::from_parts(
            Default::default(),
            tmp.path().into(),
        ))
        .user_settings(SettingsSource::content("settings.xml", "<settings/>"))
        .no_global_settings()
        .local_repository("local")
        .build()
        .unwrap();
    let url = url::Url::from_directory_path(quickstart().join("maven2")).unwrap();
    let mut repo = RemoteRepository::new("bundled", url.as_str());
    repo.snapshots.enabled = true;
    let repos = session.repositories(&[repo]).repositories;
    let app = Artifact::new("com.example", "app", "jar", "", "1.1-SNAPSHOT");
    let resolved = session
        .blocking_resolve(&Root::compile([app]), &repos, Some(ClasspathScope::Runtime))
        .unwrap();
    let local = tmp.path().join("local/com/example");
    // Maven's class path names the -SNAPSHOT copy of a timestamped snapshot
    assert_eq!(
        resolved.classpath(ClasspathScope::Runtime),
        [
            local.join("app/1.1-SNAPSHOT/app-1.1-SNAPSHOT.jar"),
            local.join("greeting/1.0/greeting-1.0.jar"),
            local.join("util/2.1/util-2.1.jar"),
        ]
    );
    assert_eq!(resolved.classpath(ClasspathScope::Compile).len(), 2);
    for f in resolved.files() {
        assert!(f.is_file(), "{}", f.display());
    }
}

#[test]
fn checksum_algorithms_come_from_the_config_properties_maven_reads() {
    let xml = r#"<settings><profiles>
        <profile><id>strong</id><properties><aether.checksums.algorithms>SHA-256</aether.checksums.algorithms></properties></profile>
        <profile><id>cond</id><activation><property><name>!never</name></property></activation>
          <properties><aether.checksums.algorithms>MD5</aether.checksums.algorithms></properties></profile>
      </profiles></settings>"#;
    let names = |b: SessionBuilder| {
        b.build()
            .unwrap()
            .downloader_config()
            .checksum_algorithms
            .names()
            .into_iter()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let base = || {
        Session::builder()
            .environment(environment(&[]))
            .user_settings(SettingsSource::content("s.xml", xml))
    };
    // default: SHA-1 then MD5; a profile active by its conditions does not count (Maven only
    // reads the properties of profiles activated by id)
    assert_eq!(names(base()), ["SHA-1", "MD5"]);
    assert_eq!(names(base().profiles("strong")), ["SHA-256"]);
    // -D wins over the profile
    assert_eq!(
        names(
            base()
                .profiles("strong")
                .define("aether.checksums.algorithms=SHA-512,SHA-1")
        ),
        ["SHA-512", "SHA-1"]
    );
    let bad = base()
        .define("aether.checksums.algorithms=CRC32")
        .build()
        .unwrap();
    assert!(bad.checksum_algorithms().is_err());
}

#[test]
fn update_snapshots_forces_the_always_policy_for_the_session() {
    let session = Session::builder()
        .environment(environment(&[]))
        .no_user_settings()
        .update_snapshots(true)
        .build()
        .unwrap();
    assert_eq!(
        session.downloader_config().update_policy.as_deref(),
        Some("always")
    );
    let plain = session_with("s.xml", "<settings/>").unwrap();
    assert_eq!(plain.downloader_config().update_policy, None);
}
