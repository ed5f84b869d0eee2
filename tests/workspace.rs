//! Multi-module builds through the session, against a real repository server (nginx on
//! loopback, started by `tests/support`): the reactor read from an aggregator POM, every
//! module's graph and class path in one call, and nginx's access log to show that a module is
//! never asked of the repository (not its POM, not its jar, not its metadata).

mod support;

use m2resolver::resolution::workspace::Phase;
use m2resolver::settings::SettingsSource;
use m2resolver::{
    Artifact, ClasspathScope, Dependency, DependencyGraph, Environment, Module, NodeId,
    Phase as SessionPhase, ProgressListener, RemoteRepository, Session, SessionError, Workspace,
    WorkspaceError,
};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use support::{Nginx, Repo};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn dep(g: &str, a: &str, v: &str, extra: &str) -> String {
    format!("<dependency><groupId>{g}</groupId><artifactId>{a}</artifactId><version>{v}</version>{extra}</dependency>")
}

fn pom(coords: &str, parent: Option<&str>, body: &str) -> String {
    let p: Vec<&str> = coords.split(':').collect();
    let parent = parent
        .map(|p| {
            let p: Vec<&str> = p.split(':').collect();
            format!(
                "<parent><groupId>{}</groupId><artifactId>{}</artifactId><version>{}</version></parent>",
                p[0], p[1], p[2]
            )
        })
        .unwrap_or_default();
    format!(
        "<project><modelVersion>4.0.0</modelVersion>{parent}<groupId>{}</groupId><artifactId>{}</artifactId><version>{}</version>{body}</project>",
        p[0], p[1], p[2]
    )
}

/// The repository (external artifacts only) and a reactor:
///
/// - `agg` (packaging pom, parent of `core`, `app`, `bom`; modules `app`, `core`, `bom`,
///   `group`) manages `org.ext:lib` through the BOM module `bom`, which it imports;
/// - `app` → `core` (compile), `core`'s test-jar (test), `org.ext:lib` (version from the BOM);
/// - `core` → `org.ext:lib:1` → `org.ext:dep:1`;
/// - `group` (a nested aggregator, child of `agg`) → `core`; its module `group/leaf` (whose
///   parent is `group`, a module of the reactor) → `app` at a range `[1,2)`.
struct Reactor {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    nginx: Nginx,
}

fn reactor() -> Reactor {
    let tmp = tempfile::tempdir().unwrap();
    let remote = Repo::new(&tmp.path().join("remote"));
    for (a, deps) in [
        ("lib", dep("org.ext", "dep", "1", "")),
        ("dep", String::new()),
    ] {
        let path = format!("org/ext/{a}/1/{a}-1");
        remote.put(
            &format!("{path}.pom"),
            pom(
                &format!("org.ext:{a}:1"),
                None,
                &format!("<dependencies>{deps}</dependencies>"),
            )
            .as_bytes(),
        );
        remote.put(&format!("{path}.jar"), &Repo::content(a, 2000));
    }
    let nginx = Nginx::start(&remote.root, &tmp.path().join("work"));
    let dir = tmp.path().join("project");
    let agg = "org.reactor:agg:1.0";
    write(
        &dir.join("pom.xml"),
        &pom(
            agg,
            None,
            &format!(
                "<packaging>pom</packaging><modules><module>app</module><module>core</module><module>bom</module><module>group</module></modules>\
                 <dependencyManagement><dependencies>{}</dependencies></dependencyManagement>",
                dep("org.reactor", "bom", "1.0", "<type>pom</type><scope>import</scope>")
            ),
        ),
    );
    write(
        &dir.join("bom/pom.xml"),
        &pom(
            "org.reactor:bom:1.0",
            None,
            &format!(
                "<packaging>pom</packaging><dependencyManagement><dependencies>{}</dependencies></dependencyManagement>",
                dep("org.ext", "lib", "1", "")
            ),
        ),
    );
    write(
        &dir.join("core/pom.xml"),
        &pom(
            "org.reactor:core:1.0",
            Some(agg),
            &format!(
                "<dependencies>{}</dependencies>",
                dep("org.ext", "lib", "1", "")
            ),
        ),
    );
    write(
        &dir.join("app/pom.xml"),
        &pom(
            "org.reactor:app:1.0",
            Some(agg),
            &format!(
                "<dependencies>{}{}<dependency><groupId>org.ext</groupId><artifactId>lib</artifactId></dependency></dependencies>",
                dep("org.reactor", "core", "1.0", ""),
                dep("org.reactor", "core", "1.0", "<type>test-jar</type><scope>test</scope>"),
            ),
        ),
    );
    write(
        &dir.join("group/pom.xml"),
        &pom(
            "org.reactor:group:1.0",
            Some(agg),
            &format!(
                "<packaging>pom</packaging><modules><module>leaf</module></modules><dependencies>{}</dependencies>",
                dep("org.reactor", "core", "1.0", "")
            ),
        ),
    );
    write(
        &dir.join("group/leaf/pom.xml"),
        &pom(
            "org.reactor:leaf:1.0",
            Some("org.reactor:group:1.0"),
            &format!(
                "<dependencies>{}</dependencies>",
                dep("org.reactor", "app", "[1,2)", "")
            ),
        ),
    );
    Reactor {
        _tmp: tmp,
        dir,
        nginx,
    }
}

impl Reactor {
    fn session(&self) -> (Session, Vec<RemoteRepository>) {
        self.session_with(None)
    }

    fn session_with(
        &self,
        listener: Option<Arc<dyn ProgressListener>>,
    ) -> (Session, Vec<RemoteRepository>) {
        let settings = format!(
            "<settings><mirrors><mirror><id>m</id><mirrorOf>*</mirrorOf><url>{}</url></mirror></mirrors></settings>",
            self.nginx.http("public")
        );
        let mut builder = Session::builder()
            .environment(Environment::from_parts(
                Default::default(),
                self.dir.clone(),
            ))
            .user_settings(SettingsSource::content("settings.xml", &settings))
            .no_global_settings()
            .local_repository(self.dir.join("../local"));
        if let Some(listener) = listener {
            builder = builder.progress_listener(listener);
        }
        let session = builder.build().unwrap();
        let repos = session
            .repositories(&[RemoteRepository::central()])
            .repositories;
        (session, repos)
    }

    /// Requests that named a module of the reactor, its metadata aside.
    fn module_requests(&self) -> Vec<String> {
        self.nginx
            .access_log()
            .into_iter()
            .filter(|l| l.contains("org/reactor") && !l.contains("maven-metadata.xml"))
            .collect()
    }

    /// Metadata requests that named a module of the reactor.
    fn module_metadata_requests(&self) -> Vec<String> {
        self.nginx
            .access_log()
            .into_iter()
            .filter(|l| l.contains("org/reactor") && l.contains("maven-metadata.xml"))
            .collect()
    }
}

/// `artifact scope` of every node in pre-order, indented by depth.
fn nodes(graph: &DependencyGraph) -> Vec<String> {
    graph
        .preorder()
        .into_iter()
        .map(|(n, depth): (NodeId, usize)| {
            let node = graph.node(n);
            format!(
                "{}{} {}",
                "  ".repeat(depth),
                node.artifact().unwrap(),
                node.scope()
            )
        })
        .collect()
}

#[test]
fn a_reactor_resolves_its_modules_from_the_workspace() {
    let r = reactor();
    let (session, repos) = r.session();
    let ws = session
        .blocking_read_workspace(Path::new("pom.xml"), &repos)
        .unwrap();
    let order: Vec<String> = ws.modules().iter().map(|m| m.id()).collect();
    // Collected app, core, bom, leaf, group, agg (modules before their aggregator); app pulls
    // core, which pulls its parent agg; an import is no edge (bom keeps its place); leaf
    // pulls its parent group.
    assert_eq!(
        order,
        [
            "org.reactor:agg:1.0",
            "org.reactor:core:1.0",
            "org.reactor:app:1.0",
            "org.reactor:bom:1.0",
            "org.reactor:group:1.0",
            "org.reactor:leaf:1.0",
        ]
    );
    let core = ws.module("org.reactor", "core", "1.0").unwrap();
    assert_eq!(
        core.output_directory.as_deref(),
        Some(r.dir.join("core/target/classes").as_path())
    );

    let collected = session.blocking_collect_workspace(&ws, &repos).unwrap();
    assert_eq!(collected.modules.len(), 6);
    assert_eq!(collected.failures().count(), 0);
    let app = collected.modules[2].result.as_ref().unwrap();
    // core's own dependency on lib loses to app's direct one (nearest wins).
    assert_eq!(
        nodes(&app.graph),
        [
            "  org.reactor:core:jar:1.0 compile",
            "  org.reactor:core:jar:tests:1.0 test",
            "  org.ext:lib:jar:1 compile",
            "    org.ext:dep:jar:1 compile",
        ]
    );
    // The leaf inherits group's dependency on core and finds app's version in the reactor.
    let leaf = nodes(&collected.modules[5].result.as_ref().unwrap().graph);
    assert_eq!(
        leaf,
        [
            "  org.reactor:app:jar:1.0 compile",
            "    org.ext:lib:jar:1 compile",
            "      org.ext:dep:jar:1 compile",
            "  org.reactor:core:jar:1.0 compile",
        ]
    );

    let resolved = session
        .blocking_resolve_workspace(&ws, &repos, Some(ClasspathScope::Test))
        .unwrap();
    let app = resolved.modules[2].result.as_ref().unwrap();
    let local = r.dir.join("../local");
    assert_eq!(
        app.files(),
        [
            r.dir.join("core/target/classes"),
            r.dir.join("core/target/test-classes"),
            local.join("org/ext/lib/1/lib-1.jar"),
            local.join("org/ext/dep/1/dep-1.jar"),
        ]
    );
    assert_eq!(
        r.nginx.count_gets("lib-1.jar"),
        1,
        "a jar several modules need is downloaded once"
    );
    assert!(
        r.module_requests().is_empty(),
        "the repository was asked for a module: {:?}",
        r.module_requests()
    );
    // A range lists the repositories' versions too, as Maven's range resolver does: the one
    // request about a module, for leaf's range on app.
    let metadata = r.module_metadata_requests();
    assert!(
        metadata
            .iter()
            .all(|l| l.contains("/org/reactor/app/maven-metadata.xml")),
        "{metadata:?}"
    );
}

#[test]
fn the_downloading_phase_of_a_reactor_counts_each_file_once() {
    // Six modules whose class paths name lib and dep eight times in all: two files to download,
    // and the phase says two (it said eight: "done, 2/8 files" read as six files missing).
    let r = reactor();
    for _ in 0..2 {
        let files = Arc::new(support::progress::Recorder::default());
        let (session, repos) = r.session_with(Some(files.clone()));
        let ws = session
            .blocking_read_workspace(&r.dir.join("pom.xml"), &repos)
            .unwrap();
        let resolved = session
            .blocking_resolve_workspace(&ws, &repos, Some(ClasspathScope::Test))
            .unwrap();
        assert_eq!(resolved.failures().count(), 0);
        let mentions: usize = resolved
            .modules
            .iter()
            .map(|m| {
                m.result
                    .as_ref()
                    .unwrap()
                    .artifacts
                    .iter()
                    .filter(|a| a.artifact.group_id == "org.ext")
                    .count()
            })
            .sum();
        assert!(mentions > 2, "the reactor shares its jars: {mentions}");
        let mut handled: Vec<String> = files
            .files(Some(SessionPhase::Downloading))
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        handled.sort();
        // Cold, then warm (found in the local repository): the same two files either way.
        assert_eq!(handled, ["dep-1.jar", "lib-1.jar"]);
        assert_eq!(files.totals(SessionPhase::Downloading), [Some(2)]);
    }
}

#[test]
fn without_a_lifecycle_phase_a_range_on_a_module_finds_nothing() {
    // `mvn dependency:tree` runs no phase: the reactor has no jar of `app` to offer a range,
    // and the repository has none either.
    let r = reactor();
    let (session, repos) = r.session();
    let ws = session
        .blocking_read_workspace(Path::new("pom.xml"), &repos)
        .unwrap()
        .with_phase(Phase::None);
    let collected = session.blocking_collect_workspace(&ws, &repos).unwrap();
    let failed: Vec<String> = collected.failures().map(|m| m.module.to_string()).collect();
    assert_eq!(failed, ["org.reactor:leaf:jar:1.0"]);
    assert!(matches!(
        collected.modules[5].result,
        Err(SessionError::Collect { .. })
    ));
    // The other modules do not suffer from it.
    assert!(collected.modules[2].result.is_ok());
}

#[test]
fn reactor_errors_are_maven_s() {
    let r = reactor();
    let (session, repos) = r.session();
    // A cycle: core depends on app, which depends on core.
    let core = r.dir.join("core/pom.xml");
    let text = std::fs::read_to_string(&core).unwrap();
    write(
        &core,
        &text.replace(
            "<dependencies>",
            &format!("<dependencies>{}", dep("org.reactor", "app", "1.0", "")),
        ),
    );
    let err = session
        .blocking_read_workspace(Path::new("pom.xml"), &repos)
        .unwrap_err();
    let SessionError::Workspace { source, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(
        source.to_string(),
        "The projects in the reactor contain a cyclic reference: Edge between \
         'Vertex{label='org.reactor:core:1.0'}' and 'Vertex{label='org.reactor:app:1.0'}' \
         introduces to cycle in the graph org.reactor:app:1.0 --> org.reactor:core:1.0 --> \
         org.reactor:app:1.0"
    );
    write(&core, &text);

    // A module that does not exist.
    let agg = r.dir.join("pom.xml");
    let text = std::fs::read_to_string(&agg).unwrap();
    write(
        &agg,
        &text.replace(
            "<module>bom</module>",
            "<module>bom</module><module>gone</module>",
        ),
    );
    let err = session
        .blocking_read_workspace(Path::new("pom.xml"), &repos)
        .unwrap_err();
    let SessionError::Workspace { source, .. } = err else {
        panic!("{err}")
    };
    let WorkspaceError::Projects { failures, root } = *source else {
        panic!("{source}")
    };
    assert!(!root);
    assert_eq!(
        failures[0].to_string(),
        format!(
            "Child module {} of {} does not exist",
            r.dir.join("gone").display(),
            agg.display()
        )
    );
}

#[tokio::test]
async fn an_embedder_s_own_modules_resolve_through_the_async_api() {
    let r = reactor();
    let (session, repos) = r.session();
    let jar = |a: &str, v: &str| Artifact::from_type("org.tool", a, "jar", "", v);
    let lib = Artifact::from_type("org.ext", "lib", "jar", "", "1");
    let modules = vec![
        Module::new(jar("web", "2"), "war")
            .with_dependencies(vec![Dependency::new(jar("model", "2"), "compile")])
            .with_output_directory("web/out"),
        Module::new(jar("model", "2"), "jar")
            .with_dependencies(vec![Dependency::new(lib, "compile")])
            .with_output_directory("model/out"),
    ];
    let ws = Workspace::new(modules).unwrap();
    assert_eq!(ws.modules()[0].artifact.to_string(), "org.tool:model:jar:2");
    let resolved = session.resolve_workspace(&ws, &repos, None).await.unwrap();
    let web = resolved.modules[1].result.as_ref().unwrap();
    assert_eq!(
        web.files()[0],
        Path::new("model/out"),
        "the module's output directory"
    );
    assert_eq!(web.files().len(), 3);
    assert!(r.nginx.access_log().iter().all(|l| !l.contains("org/tool")));
}
