//! Property tests for POMs: no input may panic the reader or the model builder, and building is
//! bounded in time. Inputs: arbitrary bytes; a realistic POM mutated at random (characters
//! inserted, removed or replaced); and small random repositories of POMs whose parents, imports,
//! relocations, properties, profiles and expressions point at each other at random (cycles,
//! self-references, missing POMs and malformed text included), read through the real downloader
//! and descriptor reader.

use crate::download::{Downloader, DownloaderConfig};
use crate::repository::{RemoteRepository, Selectors};
use crate::resolution::pom::model::from_xnode;
use crate::resolution::pom::xml::read_pom;
use crate::resolution::pom::DescriptorReader;
use crate::resolution::Artifact;
use proptest::prelude::*;
use std::collections::HashMap;
use std::time::{Duration, Instant};

const TEMPLATE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" child.project.url.inherit.append.path="false">
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>g</groupId><artifactId>p</artifactId><version>1</version><relativePath/></parent>
  <artifactId>a</artifactId><version>${revision}</version><packaging>jar</packaging>
  <properties><revision>1.0</revision><x>${y}</x><y>&amp;${project.version}&#65;</y></properties>
  <dependencyManagement><dependencies><dependency><groupId>g</groupId><artifactId>bom</artifactId>
    <version>1</version><type>pom</type><scope>import</scope></dependency></dependencies></dependencyManagement>
  <dependencies><dependency><groupId>g</groupId><artifactId>d</artifactId><version>${x}</version>
    <type>test-jar</type><optional>true</optional><exclusions><exclusion><groupId>*</groupId>
    <artifactId>*</artifactId></exclusion></exclusions></dependency></dependencies>
  <profiles><profile><id>p</id><activation><jdk>[1.8,)</jdk><property><name>!x</name></property>
    <os><family>unix</family></os><file><exists>${basedir}/pom.xml</exists></file></activation>
    <dependencies><dependency><groupId>g</groupId><artifactId>e</artifactId><version>2</version></dependency></dependencies>
  </profile></profiles>
  <build><plugins><plugin><artifactId>x</artifactId><configuration><a b="${c}">t<![CDATA[<z>]]></a></configuration></plugin></plugins></build>
  <distributionManagement><relocation><groupId>n</groupId></relocation></distributionManagement>
</project>
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
        Just('x'),
        Just(' '),
        Just('\n'),
        Just('é'),
        Just('\u{0}'),
    ];
    prop_oneof![
        (any::<usize>(), ch.clone()).prop_map(|(i, c)| Edit::Insert(i, c)),
        any::<usize>().prop_map(Edit::Remove),
        (any::<usize>(), ch).prop_map(|(i, c)| Edit::Replace(i, c)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        let n = chars.len().max(1);
        match *e {
            Edit::Insert(i, c) => chars.insert(i % (chars.len() + 1), c),
            Edit::Remove(i) if !chars.is_empty() => {
                chars.remove(i % n);
            }
            Edit::Replace(i, c) if !chars.is_empty() => chars[i % n] = c,
            _ => {}
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        if let Ok(p) = read_pom(&bytes) {
            let _ = from_xnode(p.root, "fuzz");
        }
    }

    #[test]
    fn mutated_poms_never_panic(edits in proptest::collection::vec(edit(), 1..12)) {
        let text = apply(TEMPLATE, &edits);
        let first = read_pom(text.as_bytes());
        let second = read_pom(text.as_bytes());
        prop_assert_eq!(first.is_ok(), second.is_ok());
        if let Ok(p) = first {
            let _ = from_xnode(p.root, "fuzz");
        }
    }
}

// ------------------------------------------------------------------------ random repositories

/// One POM of a random repository: `org.fuzz:m{index}:1`.
#[derive(Debug, Clone)]
struct Pom {
    parent: Option<usize>,
    imports: Vec<usize>,
    relocate_to: Option<usize>,
    properties: Vec<(u8, String)>,
    versions: Vec<String>,
    profile_property: Option<u8>,
    packaging_pom: bool,
    broken: bool,
}

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("1.0".to_string()),
        (0u8..6).prop_map(|i| format!("${{p{i}}}")),
        (0u8..6, 0u8..6).prop_map(|(i, j)| format!("${{p{i}}}.${{p{j}}}")),
        Just("${project.version}".to_string()),
        Just("${project.parent.version}".to_string()),
        Just("${version}".to_string()),
        Just("${env.HOME}".to_string()),
        Just("${a${b}}".to_string()),
        Just("[1,2)".to_string()),
        Just("".to_string()),
    ]
}

fn pom(n: usize) -> impl Strategy<Value = Pom> {
    (
        proptest::option::of(0..n),
        proptest::collection::vec(0..n, 0..3),
        proptest::option::weighted(0.15, 0..n),
        proptest::collection::vec((0u8..6, value()), 0..5),
        proptest::collection::vec(value(), 0..3),
        proptest::option::of(0u8..6),
        any::<bool>(),
        proptest::bool::weighted(0.1),
    )
        .prop_map(
            |(
                parent,
                imports,
                relocate_to,
                properties,
                versions,
                profile_property,
                packaging_pom,
                broken,
            )| Pom {
                parent,
                imports,
                relocate_to,
                properties,
                versions,
                profile_property,
                packaging_pom,
                broken,
            },
        )
}

fn render(i: usize, p: &Pom) -> String {
    if p.broken {
        return format!("<project><artifactId>m{i}</artifactId><dependencies>");
    }
    let mut s = String::from("<project><modelVersion>4.0.0</modelVersion>");
    if let Some(par) = p.parent {
        s.push_str(&format!(
            "<parent><groupId>org.fuzz</groupId><artifactId>m{par}</artifactId><version>1</version></parent>"
        ));
    }
    s.push_str(&format!(
        "<groupId>org.fuzz</groupId><artifactId>m{i}</artifactId><version>1</version>"
    ));
    if p.packaging_pom {
        s.push_str("<packaging>pom</packaging>");
    }
    s.push_str("<properties>");
    for (k, v) in &p.properties {
        s.push_str(&format!("<p{k}>{v}</p{k}>"));
    }
    s.push_str("</properties><dependencyManagement><dependencies>");
    for imp in &p.imports {
        s.push_str(&format!(
            "<dependency><groupId>org.fuzz</groupId><artifactId>m{imp}</artifactId><version>1</version><type>pom</type><scope>import</scope></dependency>"
        ));
    }
    s.push_str("<dependency><groupId>org.x</groupId><artifactId>managed</artifactId><version>${p0}</version></dependency>");
    s.push_str("</dependencies></dependencyManagement><dependencies>");
    for (j, v) in p.versions.iter().enumerate() {
        s.push_str(&format!(
            "<dependency><groupId>org.x</groupId><artifactId>d{j}</artifactId><version>{v}</version></dependency>"
        ));
    }
    s.push_str("<dependency><groupId>org.x</groupId><artifactId>managed</artifactId></dependency></dependencies>");
    if let Some(k) = p.profile_property {
        s.push_str(&format!(
            "<profiles><profile><id>p</id><activation><activeByDefault>true</activeByDefault></activation><properties><p{k}>${{p{k}}}x</p{k}></properties></profile></profiles>"
        ));
    }
    if let Some(t) = p.relocate_to {
        s.push_str(&format!(
            "<distributionManagement><relocation><artifactId>m{t}</artifactId></relocation></distributionManagement>"
        ));
    }
    s.push_str("</project>");
    s
}

fn repository() -> impl Strategy<Value = Vec<Pom>> {
    (1usize..6).prop_flat_map(|n| proptest::collection::vec(pom(n), n))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_repositories_build_without_panic_in_bounded_time(poms in repository()) {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        for (i, p) in poms.iter().enumerate() {
            let d = repo.join(format!("org/fuzz/m{i}/1"));
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join(format!("m{i}-1.pom")), render(i, p)).unwrap();
        }
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let repos = vec![RemoteRepository::new(
            "fuzz",
            url::Url::from_directory_path(&repo).unwrap().to_string(),
        )];
        let resolver = {
            let _g = runtime.enter();
            Downloader::new(DownloaderConfig::new(dir.path().join("local"))).unwrap()
        };
        let reader = DescriptorReader::new(resolver, Selectors::default(), HashMap::new(), HashMap::new());
        let started = Instant::now();
        for i in 0..poms.len() {
            let a = Artifact::new("org.fuzz", format!("m{i}"), "jar", "", "1");
            let first = runtime.block_on(reader.read_descriptor(&a, &repos));
            // Same session, same answer.
            let again = runtime.block_on(reader.read_descriptor(&a, &repos));
            prop_assert_eq!(first.is_ok(), again.is_ok());
            if let Err(e) = &first {
                prop_assert!(!e.to_string().is_empty());
            }
        }
        prop_assert!(started.elapsed() < Duration::from_secs(20), "took {:?}", started.elapsed());
    }
}
