//! The human `m2r explain` answers "why did my build go to that URL through that proxy with
//! those credentials?" — and never prints a secret unless asked.

use m2resolver::explain::Explanation;
use m2resolver::repository::RemoteRepository;
use m2resolver::{Environment, Session};
use std::path::PathBuf;

fn corporate() -> Explanation {
    let file =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/explain/corporate-settings.xml");
    let session = Session::builder()
        .environment(Environment {
            system_properties: [("user.home".to_string(), "/nonexistent-home".to_string())].into(),
            ..Environment::default()
        })
        .user_settings(file)
        .build()
        .expect("the corporate settings are valid");
    Explanation::new(
        &session,
        &[
            RemoteRepository::new("central", "https://repo.maven.apache.org/maven2"),
            RemoteRepository::new("local-dev", "http://localhost:8081/repo"),
        ],
    )
}

#[test]
fn explains_mirrors_proxies_and_credentials() {
    let e = corporate();
    let text = e.render(false);
    let repos = e.repositories.as_ref().unwrap();
    let ids: Vec<&str> = repos.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["snapshots-internal", "nexus", "local-dev"], "{text}");
    // Mirror decisions, with the rule that matched and why the other did not.
    assert!(text.contains("mirror `nexus` applies"), "{text}");
    assert!(text.contains("`external:*`"), "{text}");
    assert!(text.contains("mirror `old-mirror` does not"), "{text}");
    assert!(
        text.contains("token `!snapshots-internal` excludes it"),
        "{text}"
    );
    // Proxy decisions: used for nexus; excluded for the internal host by nonProxyHosts.
    assert!(
        text.contains(
            "proxy: http://proxy.corp.example:3128 from settings proxy `corp-proxy` as builder"
        ),
        "{text}"
    );
    assert!(
        text.contains("nonProxyHosts pattern `*.corp.example`"),
        "{text}"
    );
    // Credentials by server id, masked.
    assert!(
        text.contains("credentials: server `nexus`: username ci-user, password ***"),
        "{text}"
    );
    assert!(text.contains("headers: X-Build"), "{text}");
    // Entries that apply to nothing.
    assert!(text.contains("server `central`"), "{text}");
    assert!(
        text.contains("mirror `old-mirror`") && text.contains("mirrors no repository"),
        "{text}"
    );
    assert!(
        text.contains("proxy `third-proxy`") && text.contains("serves no repository"),
        "{text}"
    );
    // Maven takes the first proxy that does not exclude the host: the internal repository goes
    // through the second proxy, and the explanation says why the first was skipped.
    assert!(
        text.contains("proxy: http://other.corp.example:8080 from settings proxy `second-proxy`"),
        "{text}"
    );
    // Secrets never appear unless asked.
    for secret in ["proxy-s3cret", "nexus-s3cret", "never-used"] {
        assert!(!text.contains(secret), "{secret} leaked:\n{text}");
        assert!(
            !format!("{e:?}").contains(secret),
            "{secret} leaked through Debug"
        );
    }
    assert!(e.render(true).contains("nexus-s3cret"));
}

#[test]
fn json_shows_the_same_decisions() {
    let doc = corporate().to_json();
    let repos = doc["repositories"].as_array().unwrap();
    assert_eq!(repos[1]["id"], "nexus");
    assert_eq!(repos[1]["mirroredRepositories"][0], "github");
    assert_eq!(repos[1]["mirroredRepositories"][1], "central");
    assert_eq!(repos[1]["authentication"]["password"], "nexus-s3cret");
    assert_eq!(repos[1]["proxy"]["host"], "proxy.corp.example");
    assert_eq!(
        repos[0]["proxy"]["host"], "other.corp.example",
        "corp-proxy excludes the internal host"
    );
    assert_eq!(repos[0]["releases"]["enabled"], false);
    assert_eq!(repos[0]["snapshots"]["updatePolicy"], "always");
}

/// Credentials from beyond the settings: the human form says where each came from, and the
/// `--json` document stays Maven's (a `<server>`'s username beside the helper it names, nothing
/// for netrc or the environment's helper).
#[test]
fn names_netrc_and_helper_sources_and_json_stays_maven() {
    let dir = tempfile::tempdir().unwrap();
    let netrc = dir.path().join("ci.netrc");
    std::fs::write(
        &netrc,
        "machine netrc.example login n password s3cret-netrc\n",
    )
    .unwrap();
    let settings = r#"<settings><servers>
        <server><id>cloud</id><username>robot</username>
          <configuration><credentialHelper>/opt/bin/token-helper --secret-arg</credentialHelper></configuration></server>
        </servers></settings>"#;
    let env = Environment::from_parts(
        [
            ("NETRC".to_string(), netrc.display().to_string()),
            (
                "M2R_CREDENTIAL_HELPER".to_string(),
                "/opt/bin/env-helper".to_string(),
            ),
        ]
        .into(),
        dir.path().to_path_buf(),
    );
    let session = Session::builder()
        .environment(env)
        .user_settings(m2resolver::settings::SettingsSource::content(
            "settings.xml",
            settings,
        ))
        .no_global_settings()
        .netrc(true)
        .credential_helpers(true)
        .build()
        .unwrap();
    let declared = [
        RemoteRepository::new("cloud", "https://cloud.example/m2"),
        RemoteRepository::new("netrc-repo", "https://netrc.example/m2"),
        RemoteRepository::new("other", "https://other.example/m2"),
    ];
    let e = Explanation::new(&session, &declared);
    let text = e.render(false);
    assert!(
        text.contains("credentials: credential helper `/opt/bin/token-helper` (named by <server> `cloud` at <settings>:2:9)")
            && text.contains("run at the first request (answer kept for the session); username robot passed to it"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "credentials: netrc {}:1 (machine netrc.example): username n, password ***",
            netrc.display()
        )),
        "{text}"
    );
    assert!(
        text.contains(
            "credentials: credential helper `/opt/bin/env-helper` (from M2R_CREDENTIAL_HELPER)"
        ),
        "{text}"
    );
    assert!(
        !text.contains("s3cret-netrc") && !text.contains("--secret-arg"),
        "{text}"
    );
    assert!(e.render(true).contains("password s3cret-netrc"));
    let json = e.to_json();
    let repos = json["repositories"].as_array().unwrap();
    assert_eq!(repos[0]["authentication"]["username"], "robot");
    assert!(repos[0]["authentication"]["password"].is_null());
    assert!(repos[1]["authentication"].is_null());
    assert!(repos[2]["authentication"].is_null());
}
