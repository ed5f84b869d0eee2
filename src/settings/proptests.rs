//! Property tests for the settings reader and the pipeline: no input may panic, and reading is
//! deterministic. Inputs are arbitrary bytes, and valid settings files mutated at random
//! (characters inserted, removed or replaced), which reach far deeper into the reader.

use crate::explain::Explanation;
use crate::settings::xml::read_settings;
use crate::settings::SettingsSource;
use crate::settings::SourceLevel;
use crate::{Environment, Session};
use proptest::prelude::*;

const TEMPLATE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<settings xmlns="http://maven.apache.org/SETTINGS/1.2.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <localRepository>${user.home}/.m2/repository</localRepository>
  <offline>false</offline>
  <proxies><proxy><id>p</id><active>true</active><protocol>http</protocol><host>proxy.corp</host>
    <port>8080</port><username>u</username><password>{COQLCE6DU6GtcS5P=}</password>
    <nonProxyHosts>localhost|*.corp</nonProxyHosts></proxy></proxies>
  <servers><server><id>s</id><username>${env.USER}</username><password>pw&amp;x</password>
    <configuration><httpHeaders><property><name>X</name><value>v</value></property></httpHeaders>
    <connectTimeout>1000</connectTimeout></configuration></server></servers>
  <mirrors><mirror><id>m</id><mirrorOf>*,!local</mirrorOf><url>https://m/</url><blocked>false</blocked></mirror></mirrors>
  <profiles><profile><id>a</id><activation><activeByDefault>true</activeByDefault>
    <property><name>!x</name></property><jdk>[1.8,)</jdk><os><family>unix</family></os>
    <file><exists>${basedir}/pom.xml</exists></file></activation>
    <properties><k>${user.home}</k></properties>
    <repositories><repository><id>r</id><url>https://r/</url><releases><enabled>true</enabled>
    <updatePolicy>always</updatePolicy></releases></repository></repositories></profile></profiles>
  <activeProfiles><activeProfile>a</activeProfile></activeProfiles>
  <pluginGroups><pluginGroup>org.x</pluginGroup></pluginGroups>
</settings>
"#;

#[derive(Debug, Clone)]
enum Edit {
    Insert(usize, char),
    Remove(usize),
    Replace(usize, char),
}

fn edit() -> impl Strategy<Value = Edit> {
    let ch = prop_oneof![
        Just('<'),
        Just('>'),
        Just('/'),
        Just('&'),
        Just(';'),
        Just('$'),
        Just('{'),
        Just('}'),
        Just('"'),
        Just('!'),
        Just('\n'),
        any::<char>()
    ];
    prop_oneof![
        (0..TEMPLATE.len(), ch.clone()).prop_map(|(i, c)| Edit::Insert(i, c)),
        (0..TEMPLATE.len()).prop_map(Edit::Remove),
        (0..TEMPLATE.len(), ch).prop_map(|(i, c)| Edit::Replace(i, c)),
    ]
}

fn apply(edits: &[Edit]) -> String {
    let mut chars: Vec<char> = TEMPLATE.chars().collect();
    for e in edits {
        match *e {
            Edit::Insert(i, c) => chars.insert(i.min(chars.len()), c),
            Edit::Remove(i) if i < chars.len() => {
                chars.remove(i);
            }
            Edit::Replace(i, c) if i < chars.len() => chars[i] = c,
            _ => {}
        }
    }
    chars.into_iter().collect()
}

fn pipeline(xml: String) {
    let built = Session::builder()
        .environment(Environment {
            system_properties: [("user.home".to_string(), "/home/p".to_string())].into(),
            ..Environment::default()
        })
        .user_settings(SettingsSource::content("settings.xml", xml))
        .security_file("/nonexistent/settings-security.xml")
        .build();
    let declared = [crate::repository::RemoteRepository::new(
        "central",
        "https://repo/",
    )];
    let e = match &built {
        Ok(session) => {
            let _ = session.repositories(&declared);
            Explanation::new(session, &declared)
        }
        Err(error) => Explanation::from_error(error),
    };
    let _ = e.to_json();
    let _ = e.render(false);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let a = read_settings(&bytes, "fuzz.xml", SourceLevel::User, None);
        let b = read_settings(&bytes, "fuzz.xml", SourceLevel::User, None);
        prop_assert_eq!(a.settings, b.settings);
        prop_assert_eq!(a.problems, b.problems);
    }

    #[test]
    fn mutated_settings_never_panic(edits in proptest::collection::vec(edit(), 1..6)) {
        let xml = apply(&edits);
        let out = read_settings(xml.as_bytes(), "fuzz.xml", SourceLevel::User, None);
        // Every problem has a position inside the document or none at all.
        let lines = xml.lines().count() as u32 + 1;
        for p in &out.problems {
            if let Some(line) = p.line {
                prop_assert!(line >= 1 && line <= lines, "line {} of {}", line, lines);
            }
        }
        pipeline(xml);
    }
}

#[test]
fn template_is_valid() {
    let out = read_settings(TEMPLATE.as_bytes(), "t.xml", SourceLevel::User, None);
    assert!(out.problems.is_empty(), "{:?}", out.problems);
    assert_eq!(out.settings.servers.len(), 1);
}

#[test]
fn hostile_inputs_are_refused_not_exhausting() {
    // Deep nesting, a billion-laughs DTD (never expanded), an external entity (never loaded).
    let deep = format!("<settings>{}</settings>", "<a>".repeat(100_000));
    let out = read_settings(deep.as_bytes(), "deep.xml", SourceLevel::User, None);
    assert!(out.is_fatal());
    let laughs = r#"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
<settings><localRepository>&lol2;</localRepository></settings>"#;
    let out = read_settings(laughs.as_bytes(), "lol.xml", SourceLevel::User, None);
    assert!(
        out.is_fatal(),
        "undeclared (DTD-declared) entities are not expanded: {:?}",
        out.problems
    );
    let xxe = r#"<!DOCTYPE s [<!ENTITY x SYSTEM "file:///etc/passwd">]><settings><localRepository>&x;</localRepository></settings>"#;
    let out = read_settings(xxe.as_bytes(), "xxe.xml", SourceLevel::User, None);
    assert!(out.is_fatal());
    assert!(!format!("{:?}", out.problems).contains("root:"));
}
