//! Deployments against real servers on loopback: nginx taking PUTs (Basic auth, fault
//! locations), Apache mod_dav with Digest, squid with Basic, Digest and NTLM proxy
//! authentication. What goes over the wire (nginx's and Apache's access logs), what the server
//! ends up holding, and what a failed deployment says and leaves: never metadata that points at
//! missing files. A missing server binary fails the test (`scripts/test-servers.sh` installs them).

mod support;

use m2resolver::publish::{
    DeployOptions, DeployReport, FileKind, PublishArtifact, PublishError, PublishModule,
    PublishRequest, UploadState,
};
use m2resolver::repository::RemoteRepository;
use m2resolver::settings::SettingsSource;
use m2resolver::{Environment, Session};
use std::path::{Path, PathBuf};
use std::time::Duration;
use support::publish::{publish_error, tree, ApacheDav, DavNginx};
use support::*;

struct Case {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    work: PathBuf,
    served: PathBuf,
}

fn case() -> Case {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("case");
    std::fs::create_dir_all(&dir).unwrap();
    Case {
        work: tmp.path().join("work"),
        served: tmp.path().join("served"),
        dir,
        _tmp: tmp,
    }
}

const SERVER: &str =
    "<server><id>pub</id><username>deploy</username><password>s3cret</password></server>";

fn session(c: &Case, settings: &str, ca: Option<&Path>, properties: &[&str]) -> Session {
    let mut env = std::collections::HashMap::new();
    env.insert("HOME".to_string(), c.dir.join("home").display().to_string());
    if let Some(ca) = ca {
        env.insert("SSL_CERT_FILE".to_string(), ca.display().to_string());
    }
    let mut b = Session::builder()
        .environment(Environment::from_parts(env, c.dir.clone()))
        .user_settings(SettingsSource::content("settings.xml", settings))
        .env_proxies(false)
        .local_repository(c.dir.join("local"));
    for p in properties {
        b = b.define(p);
    }
    b.build().unwrap()
}

fn with_server(extra: &str) -> String {
    format!("<settings><servers>{SERVER}</servers>{extra}</settings>")
}

/// A module `org.example:lib:<version>` with a jar, its POM and the attachments `(classifier, ext)`.
fn module(c: &Case, version: &str, attachments: &[(&str, &str)]) -> PublishModule {
    let pom = c.dir.join(format!("lib-{version}.pom"));
    std::fs::write(
        &pom,
        format!("<project><modelVersion>4.0.0</modelVersion><groupId>org.example</groupId><artifactId>lib</artifactId><version>{version}</version></project>\n"),
    )
    .unwrap();
    let jar = c.dir.join(format!("lib-{version}.jar"));
    std::fs::write(&jar, Repo::content(version, 30_000)).unwrap();
    let mut m = PublishModule::new("org.example", "lib", version)
        .with(PublishArtifact::new("", "jar", &jar))
        .with(PublishArtifact::new("", "pom", &pom));
    for (classifier, ext) in attachments {
        let f = c.dir.join(format!("lib-{version}-{classifier}.{ext}"));
        std::fs::write(&f, Repo::content(classifier, 10_000)).unwrap();
        m = m.with(PublishArtifact::new(classifier, ext, &f));
    }
    m
}

fn quick(mut o: DeployOptions) -> DeployOptions {
    o.retry.base = Duration::from_millis(100);
    o.retry.max = Duration::from_millis(1500);
    o
}

fn deploy(s: &Session, url: &str, request: &PublishRequest) -> Result<DeployReport, PublishError> {
    let o = quick(s.deploy_options("pub").unwrap());
    s.blocking_deploy(request, &RemoteRepository::new("pub", url), &o)
        .map_err(publish_error)
}

fn puts(log: &[String]) -> Vec<&String> {
    log.iter().filter(|l| l.starts_with("PUT ")).collect()
}

#[test]
fn basic_goes_with_every_put_and_expect_continue_unless_turned_off() {
    let c = case();
    let nginx = DavNginx::start(&c.served, &c.work);
    let s = session(&c, &with_server(""), None, &[]);
    let request = PublishRequest::module(module(&c, "1.0", &[("sources", "jar")]));
    let report = deploy(&s, &nginx.http("private"), &request).unwrap();
    assert_eq!(report.uploaded().count(), 12, "{}", report.render());
    let log = nginx.access_log();
    let put = puts(&log);
    assert_eq!(put.len(), 12, "{log:#?}");
    for l in &put {
        assert!(
            l.contains(" 201 ") && l.contains("expect=100-continue") && l.contains("auth=Basic"),
            "{l}"
        );
    }
    assert!(!log.iter().any(|l| l.contains(" 401 ")), "{log:#?}");
    // the metadata came last: the GA file and its checksums after every artifact
    let last_artifact = log.iter().rposition(|l| l.contains("/1.0/")).unwrap();
    let first_metadata = log
        .iter()
        .position(|l| l.starts_with("PUT ") && l.contains("maven-metadata.xml"))
        .unwrap();
    assert!(first_metadata > last_artifact, "{log:#?}");

    // per repository: aether.connector.http.expectContinue.<id>
    nginx.clear_log();
    let s = session(
        &c,
        &with_server(""),
        None,
        &["aether.connector.http.expectContinue.pub=false"],
    );
    deploy(
        &s,
        &nginx.http("private"),
        &PublishRequest::module(module(&c, "1.1", &[])),
    )
    .unwrap();
    let log = nginx.access_log();
    assert!(!puts(&log).is_empty());
    for l in puts(&log) {
        assert!(l.contains("expect=-"), "{l}");
    }
}

#[test]
fn a_500_on_one_artifact_changes_no_metadata_and_the_report_says_what_is_there() {
    let c = case();
    let nginx = DavNginx::start(&c.served, &c.work);
    let ga = c.served.join("org/example/lib/maven-metadata.xml");
    std::fs::create_dir_all(ga.parent().unwrap()).unwrap();
    let before = "<metadata><groupId>org.example</groupId><artifactId>lib</artifactId><versioning><release>0.9</release><versions><version>0.9</version></versions></versioning></metadata>\n";
    std::fs::write(&ga, before).unwrap();
    let s = session(&c, &with_server(""), None, &[]);
    let request = PublishRequest::module(module(
        &c,
        "2.0",
        &[("sources", "jar"), ("javadoc", "jar"), ("tests", "jar")],
    ));
    let e = deploy(&s, &nginx.http("fail500"), &request).unwrap_err();
    let PublishError::Upload { path, report, .. } = &e else {
        panic!("{e}");
    };
    assert_eq!(path, "org/example/lib/2.0/lib-2.0-javadoc.jar");
    let text = e.to_string();
    assert!(text.contains("no maven-metadata.xml was changed"), "{text}");
    assert!(!report.metadata_changed());
    // what the report says is on the server is on the server, and the rest is not
    for u in &report.uploads {
        let on_server = c.served.join(&u.path).is_file();
        match &u.state {
            UploadState::Uploaded { .. } => assert!(on_server, "{}", u.path),
            _ => assert!(!on_server || u.kind == FileKind::Metadata, "{}", u.path),
        }
    }
    assert!(matches!(
        report
            .uploads
            .iter()
            .find(|u| u.path.ends_with("-javadoc.jar"))
            .unwrap()
            .state,
        UploadState::Failed { .. }
    ));
    assert_eq!(std::fs::read_to_string(&ga).unwrap(), before);
    let rendered = report.render();
    assert!(
        rendered.contains("not uploaded")
            && rendered.contains("lib-2.0-javadoc.jar (failed: HTTP 500"),
        "{rendered}"
    );
    assert!(!nginx
        .access_log()
        .iter()
        .any(|l| l.starts_with("PUT ") && l.contains("maven-metadata")));
}

#[test]
fn a_server_that_stores_nothing_is_caught_when_verification_is_asked_for() {
    let c = case();
    let nginx = DavNginx::start(&c.served, &c.work);
    let s = session(&c, &with_server(""), None, &[]);
    let request = PublishRequest::module(module(&c, "1.0", &[]));
    let repo = RemoteRepository::new("pub", nginx.http("blackhole"));
    // as Maven: every PUT answered 200, so the deployment "succeeds"
    let o = quick(s.deploy_options("pub").unwrap());
    assert!(s.blocking_deploy(&request, &repo, &o).is_ok());
    // nginx logs a request after its response: wait for the first deployment's lines
    nginx.access_log();
    nginx.clear_log();
    let mut o = o;
    o.verify = true;
    let e = publish_error(s.blocking_deploy(&request, &repo, &o).unwrap_err());
    assert!(matches!(e, PublishError::Unverified { .. }), "{e}");
    assert!(e.to_string().contains("does not serve it back"), "{e}");
    let log = nginx.access_log();
    assert!(
        log.iter()
            .any(|l| l.starts_with("GET ") && l.contains(".jar.sha1 404")),
        "{log:#?}"
    );
    assert!(
        !log.iter()
            .any(|l| l.starts_with("PUT ") && l.contains("maven-metadata")),
        "{log:#?}"
    );
}

#[test]
fn unreadable_remote_metadata_stops_the_deployment_before_any_upload() {
    let c = case();
    let nginx = DavNginx::start(&c.served, &c.work);
    let s = session(&c, &with_server(""), None, &[]);
    for (version, file) in [
        (
            "3.0-SNAPSHOT",
            "org/example/lib/3.0-SNAPSHOT/maven-metadata.xml",
        ),
        ("3.0", "org/example/lib/maven-metadata.xml"),
    ] {
        let _ = std::fs::remove_dir_all(&c.served);
        let p = c.served.join(file);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, "<metadata><versioning><versions>").unwrap();
        nginx.clear_log();
        let e = deploy(
            &s,
            &nginx.http("private"),
            &PublishRequest::module(module(&c, version, &[])),
        )
        .unwrap_err();
        assert!(matches!(e, PublishError::RemoteMetadata { .. }), "{e}");
        assert!(e.to_string().contains("nothing was uploaded"), "{e}");
        assert!(puts(&nginx.access_log()).is_empty(), "{version}");
    }
}

#[test]
fn uploads_are_retried_on_429_503_and_a_refused_connection() {
    let c = case();
    let nginx = DavNginx::start(&c.served, &c.work);
    let s = session(&c, &with_server(""), None, &[]);
    for location in ["limited", "busy"] {
        nginx.clear_log();
        let request = PublishRequest::module(module(&c, "1.0", &[]));
        // 4 requests a second for 9 files: enough retries for everyone to get through
        let mut o = quick(s.deploy_options("pub").unwrap());
        o.retry.retries = 20;
        let report = s
            .blocking_deploy(
                &request,
                &RemoteRepository::new("pub", nginx.http(location)),
                &o,
            )
            .unwrap_or_else(|e| panic!("{location}: {e}"));
        let log = nginx.access_log();
        let refused = if location == "limited" {
            " 429 "
        } else {
            " 503 "
        };
        assert!(
            log.iter().any(|l| l.contains(refused)),
            "{location}: {log:#?}"
        );
        assert!(report
            .uploads
            .iter()
            .any(|u| matches!(u.state, UploadState::Uploaded { retries, .. } if retries > 0)));
        for u in &report.uploads {
            assert!(c.served.join(&u.path).is_file(), "{location}: {}", u.path);
        }
    }
    // 502 every time: the retries run out, nothing is half-published
    nginx.clear_log();
    let e = deploy(
        &s,
        &nginx.http("gateway"),
        &PublishRequest::module(module(&c, "1.1", &[])),
    )
    .unwrap_err();
    assert!(matches!(e, PublishError::MetadataFetch { .. }), "{e}");
    let cause = std::error::Error::source(&e).unwrap().to_string();
    assert!(
        cause.contains("HTTP 502") && cause.contains("3 retries"),
        "{cause}"
    );
    assert!(puts(&nginx.access_log()).is_empty());
    // 502 for every upload: each is tried 1 + 3 times, then the deployment stops
    nginx.clear_log();
    let e = deploy(
        &s,
        &nginx.http("put502"),
        &PublishRequest::module(module(&c, "1.2", &[])),
    )
    .unwrap_err();
    let PublishError::Upload { path, .. } = &e else {
        panic!("{e}")
    };
    let cause = std::error::Error::source(&e).unwrap().to_string();
    assert!(
        cause.contains("HTTP 502") && cause.contains("3 retries"),
        "{cause}"
    );
    let log = nginx.access_log();
    let tries = log
        .iter()
        .filter(|l| l.starts_with(&format!("PUT /put502/{path} 502")))
        .count();
    assert_eq!(tries, 4, "{log:#?}");
    assert!(!log
        .iter()
        .any(|l| l.contains("maven-metadata.xml") && l.starts_with("PUT ")));

    // nobody listening at first: connection errors are retried until the server is up
    let (http, https) = (free_port(), free_port());
    let c2 = case();
    let s2 = session(&c2, &with_server(""), None, &[]);
    let request = PublishRequest::module(module(&c2, "1.0", &[]));
    let url = format!("http://127.0.0.1:{http}/private/");
    let mut o = s2.deploy_options("pub").unwrap();
    o.retry.retries = 8;
    o.retry.base = Duration::from_millis(200);
    o.retry.max = Duration::from_millis(800);
    let served = c2.served.clone();
    let work = c2.work.clone();
    let starter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(600));
        DavNginx::start_on(&served, &work, http, https)
    });
    let result = s2.blocking_deploy(&request, &RemoteRepository::new("pub", url), &o);
    let _late = starter.join().unwrap();
    let report = result.unwrap();
    assert!(report.uploaded().count() >= 6);
}

#[test]
fn a_server_refusing_the_expectation_gets_the_upload_without_it() {
    let c = case();
    let nginx = DavNginx::start(&c.served, &c.work);
    let s = session(&c, &with_server(""), None, &[]);
    deploy(
        &s,
        &nginx.http("noexpect"),
        &PublishRequest::module(module(&c, "1.0", &[])),
    )
    .unwrap();
    // nginx logs a request it refused before its body when it has discarded the body the
    // client never sent (the connection's lingering close): that line may come seconds later
    let mut log = nginx.access_log();
    for _ in 0..100 {
        if log.iter().any(|l| l.contains(" 417 ")) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
        log = nginx.access_log();
    }
    assert!(log.iter().any(|l| l.contains(" 417 ")), "{log:#?}");
    assert!(c
        .served
        .join("org/example/lib/maven-metadata.xml")
        .is_file());
}

#[test]
fn digest_challenges_on_put_are_answered() {
    let c = case();
    // mod_dav creates no folders: they exist, as on a server that was set up for it
    std::fs::create_dir_all(c.served.join("org/example/lib/1.0")).unwrap();
    let apache = ApacheDav::start(&c.served, &c.work);
    let s = session(&c, &with_server(""), None, &[]);
    let report = deploy(
        &s,
        &apache.url(),
        &PublishRequest::module(module(&c, "1.0", &[])),
    )
    .unwrap();
    assert_eq!(report.uploaded().count(), 9, "{}", report.render());
    let log = apache.access_log();
    assert!(
        log.iter()
            .any(|l| l.starts_with("PUT ") && l.contains(" 401 ")),
        "{log:#?}"
    );
    assert!(
        log.iter()
            .filter(|l| l.starts_with("PUT ") && l.contains(" 201 "))
            .count()
            >= 9,
        "{log:#?}"
    );
    let jar = std::fs::read(c.served.join("org/example/lib/1.0/lib-1.0.jar")).unwrap();
    assert_eq!(jar, Repo::content("1.0", 30_000));
}

#[test]
fn deployments_through_authenticating_proxies_basic_digest_ntlm() {
    let c = case();
    let nginx = DavNginx::start(&c.served, &c.work);
    for auth in [SquidAuth::Basic, SquidAuth::Digest, SquidAuth::Ntlm] {
        let squid = Squid::start_with(
            &c.work,
            &[nginx.https_port],
            auth,
            "127.0.0.1".parse().unwrap(),
        );
        let proxy = format!(
            "<proxies><proxy><id>corp</id><host>127.0.0.1</host><port>{}</port>\
             <username>{PROXY_USER}</username><password>{PROXY_PASSWORD}</password></proxy></proxies>",
            squid.port
        );
        let s = session(&c, &with_server(&proxy), Some(&nginx.tls.ca_pem), &[]);
        for (scheme, base) in [
            ("https", nginx.https("private")),
            ("http", nginx.http("private")),
        ] {
            let version = format!("{auth:?}-{scheme}-SNAPSHOT");
            let report = deploy(
                &s,
                &base,
                &PublishRequest::module(module(&c, &version, &[("sources", "jar")])),
            )
            .unwrap_or_else(|e| panic!("{auth:?} {scheme}: {e}"));
            for u in &report.uploads {
                assert!(
                    c.served.join(&u.path).is_file(),
                    "{auth:?} {scheme}: {}",
                    u.path
                );
            }
            assert_eq!(report.modules[0].build_number, Some(1));
        }
        std::thread::sleep(Duration::from_millis(300));
        let log = squid.access_log();
        assert!(
            log.iter().any(|l| l.contains(" CONNECT 127.0.0.1:")),
            "{auth:?}: {log:#?}"
        );
        assert!(
            log.iter().any(|l| l.contains(" PUT http://127.0.0.1:")),
            "{auth:?}: {log:#?}"
        );
    }
}

#[test]
fn offline_sessions_refuse_to_deploy_and_nothing_is_asked() {
    let c = case();
    let nginx = DavNginx::start(&c.served, &c.work);
    let mut env = std::collections::HashMap::new();
    env.insert("HOME".to_string(), c.dir.display().to_string());
    let s = Session::builder()
        .environment(Environment::from_parts(env, c.dir.clone()))
        .no_user_settings()
        .offline(true)
        .local_repository(c.dir.join("local"))
        .build()
        .unwrap();
    let e = deploy(
        &s,
        &nginx.http("repo"),
        &PublishRequest::module(module(&c, "1.0", &[])),
    )
    .unwrap_err();
    assert!(matches!(e, PublishError::Offline { .. }), "{e}");
    assert!(nginx.access_log().is_empty());
}

#[test]
fn the_local_repository_records_the_deployed_metadata_as_maven_does() {
    let c = case();
    let nginx = DavNginx::start(&c.served, &c.work);
    let s = session(&c, &with_server(""), None, &[]);
    deploy(
        &s,
        &nginx.http("private"),
        &PublishRequest::module(module(&c, "4.0-SNAPSHOT", &[])),
    )
    .unwrap();
    let local = c.dir.join("local/org/example/lib");
    let gav = std::fs::read(local.join("4.0-SNAPSHOT/maven-metadata-pub.xml")).unwrap();
    assert_eq!(
        gav,
        std::fs::read(
            c.served
                .join("org/example/lib/4.0-SNAPSHOT/maven-metadata.xml")
        )
        .unwrap()
    );
    let status = std::fs::read_to_string(local.join("resolver-status.properties")).unwrap();
    assert!(
        status.contains("maven-metadata-pub.xml.lastUpdated="),
        "{status}"
    );
    // missing credentials: a 401, named by server id, and no metadata
    let s = session(&c, "<settings/>", None, &[]);
    let e = deploy(
        &s,
        &nginx.http("private"),
        &PublishRequest::module(module(&c, "5.0", &[])),
    )
    .unwrap_err();
    let chain = format!(
        "{e} / {}",
        std::error::Error::source(&e)
            .map(|s| s.to_string())
            .unwrap_or_default()
    );
    assert!(
        chain.contains("HTTP 401") && chain.contains("id `pub`"),
        "{chain}"
    );
    assert!(
        !c.served.join("org/example/lib/5.0").exists()
            || tree(&c.served.join("org/example/lib/5.0")).is_empty()
    );
}
