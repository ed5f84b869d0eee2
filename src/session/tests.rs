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
  <mirrors><mirror><id>nexus</id><mirrorOf>central</mirrorOf><url>https://nexus.corp/maven</url></mirror></mirrors>
  <profiles><profile><id>sign</id><properties><gpg.passphrase>profile-property-pw</gpg.passphrase></properties></profile></profiles>
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
        format!("{answer:?}"),
        format!("{explanation:?}"),
        explanation.render(false),
        format!("{:?}", session.resolver_config(answer.repositories.clone())),
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
    let config = session.resolver_config(Vec::new());
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
