//! The lock of a real graph answers as the graph: for every `tree` case of `testdata/deps/`
//! and of `../shared/corpus/deps-debian/` (real Maven Central POMs), the graph collected by a
//! session, locked (with made-up file facts: these repositories hold POMs only) and read back
//! from the lock's text, renders the same plain tree and the same `m2r why` for
//! every artifact in it, lists its class path in the same order, and exports as Coursier's
//! JSON report with its documented fields.
//!
//! One case can be run by name: `LOCK_CASE=tree-basic cargo test --test lock_graphs`.

use m2resolver::lock::{self, FileFacts, InputSet, Inputs, Lock};
use m2resolver::resolution::collect::view::{render_maven_tree, render_why, TreeOptions};
use m2resolver::CollectResult;

/// The plain tree (the verbose one needs the losers' subtrees, which a lock does not hold).
fn render_tree(r: &CollectResult) -> String {
    render_maven_tree(r, &TreeOptions::plain())
}
use m2resolver::{Environment, Root, Session, SessionError};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn cases(root: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let only = std::env::var("LOCK_CASE").ok();
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("tree-") && only.as_deref().is_none_or(|o| o == n))
        })
        .filter(|p| p.join("args").is_file())
        .collect();
    dirs.sort();
    dirs
}

/// The session and root of a case's `args` (`tree --settings F -Dk=v ... (--pom P | COORD)`).
fn session_of(dir: &Path, local: &Path) -> (Session, Root) {
    let args: Vec<String> = std::fs::read_to_string(dir.join("args"))
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| l.replace("@CASE@", &dir.display().to_string()))
        .collect();
    let env: HashMap<String, String> = [("HOME".to_string(), local.display().to_string())].into();
    let mut b = Session::builder()
        .environment(Environment::from_parts(env, dir.to_path_buf()))
        .local_repository(local);
    let mut root = None;
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--settings" => b = b.user_settings(dir.join(it.next().unwrap())),
            "--pom" => root = Some(Root::Pom(PathBuf::from(it.next().unwrap()))),
            "--verbose" | "--json" => {}
            d if d.starts_with("-D") => b = b.define(&d[2..]),
            coord => root = Some(Root::Artifact(coord.parse().unwrap())),
        }
    }
    (b.build().unwrap(), root.unwrap())
}

fn check(dir: &Path) -> Result<bool, String> {
    let tmp = tempfile::tempdir().unwrap();
    let (session, root) = session_of(dir, &tmp.path().join("m2"));
    let repos = session
        .repositories(&[m2resolver::RemoteRepository::central()])
        .repositories;
    let result = match session.blocking_collect(&root, &repos) {
        Ok(r) => r,
        Err(SessionError::Collect { .. } | SessionError::Root { .. }) => return Ok(false),
        Err(e) => return Err(format!("{e}")),
    };
    if !result.errors.is_empty() {
        return Ok(false);
    }
    let graph = &result.graph;
    let order: Vec<_> = graph
        .preorder()
        .into_iter()
        .map(|(n, _)| n)
        .filter({
            let mut seen = std::collections::HashSet::new();
            move |&n| seen.insert(graph.node(n).artifact().map(ToString::to_string))
        })
        .collect();
    let facts: Vec<_> = order
        .iter()
        .map(|&id| {
            let c = graph.node(id).artifact().map(ToString::to_string).unwrap();
            let sha = format!("{:0>64}", c.len());
            (
                id,
                FileFacts {
                    repository: Some("real".into()),
                    repository_url: Some("file:///repo".into()),
                    file: c.replace(':', "/"),
                    module: false,
                    size: 1,
                    sha256: sha.clone(),
                    sha1: sha[..40].to_string(),
                },
            )
        })
        .collect();
    let inputs = Inputs::compute(InputSet {
        dependencies: &[],
        management: &[],
        repositories: &repos,
        profiles: &[],
        properties: &[],
    });
    let mut projects = vec![lock::project(graph, None, inputs, &facts)];
    let mut l = Lock::new();
    l.repositories = lock::repositories(
        &mut projects,
        &[facts.iter().map(|(_, f)| f.clone()).collect()],
    );
    l.projects = projects;
    let text = l.render();
    let back = Lock::parse(&text).map_err(|e| format!("{e}: {text}"))?;
    if back.render() != text {
        return Err("rendering the parsed lock changed it".into());
    }
    let p = &back.projects[0];
    let again = p.graph();
    // The verbose tree (main's `mvn dependency:tree -Dverbose`, issue 16) needs the losers'
    // subtrees, which a lock does not hold: only the plain tree is compared.
    let (want, got) = (render_tree(&result), render_tree(&again));
    if want != got {
        return Err(format!("tree:\n{want}\nfrom the lock:\n{got}"));
    }
    let mut targets: Vec<(String, String)> = graph
        .omissions
        .iter()
        .map(|o| &o.dependency.artifact)
        .map(|a| (a.group_id.clone(), a.artifact_id.clone()))
        .collect();
    for n in &p.nodes {
        let mut parts = n.coord.split(':');
        targets.push((
            parts.next().unwrap().to_string(),
            parts.next().unwrap().to_string(),
        ));
    }
    targets.sort();
    targets.dedup();
    for (g, a) in &targets {
        let (want, got) = (render_why(&result, g, a), render_why(&again, g, a));
        if want != got {
            return Err(format!("why {g}:{a}:\n{want}\nfrom the lock:\n{got}"));
        }
    }
    let locked: Vec<&str> = p
        .classpath_order()
        .iter()
        .map(|n| n.coord.as_str())
        .collect();
    let wanted: Vec<String> = order
        .iter()
        .map(|&n| graph.node(n).artifact().map(ToString::to_string).unwrap())
        .collect();
    if locked != wanted {
        return Err(format!("class path {locked:?}, graph {wanted:?}"));
    }
    coursier_fields(p).map_err(|e| format!("Coursier report: {e}"))?;
    Ok(true)
}

/// The Coursier export of a locked project parses as JSON with Coursier's fields: one entry per
/// node, each naming its file, and every coordinate it lists is an entry of the report.
fn coursier_fields(p: &lock::LockedProject) -> Result<(), String> {
    let text = lock::coursier_report(p, Path::new("/m2"), Path::new("/src"));
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))?;
    if v["version"] != lock::REPORT_VERSION || !v["conflict_resolution"].is_object() {
        return Err(format!("no version or conflict_resolution: {text}"));
    }
    let deps = v["dependencies"].as_array().ok_or("no dependencies")?;
    if deps.len() != p.nodes.len() {
        return Err(format!(
            "{} entries for {} nodes",
            deps.len(),
            p.nodes.len()
        ));
    }
    let coords: std::collections::HashSet<&str> =
        deps.iter().filter_map(|d| d["coord"].as_str()).collect();
    for d in deps {
        let file = d["file"].as_str().unwrap_or_default();
        let coord = d["coord"].as_str().unwrap_or_default();
        // a system dependency's file is its systemPath (here the made-up file facts)
        let system = p
            .nodes
            .iter()
            .any(|n| n.scope == "system" && lock::coursier_coord(&n.coord) == coord);
        if file.is_empty() || !system && !file.starts_with("/m2/") {
            return Err(format!("entry without its file: {d}"));
        }
        for field in ["directDependencies", "dependencies"] {
            for c in d[field].as_array().ok_or(format!("{field} missing: {d}"))? {
                if !c.as_str().is_some_and(|c| coords.contains(c)) {
                    return Err(format!("{field} names {c}, which is not an entry"));
                }
            }
        }
        if !d["exclusions"].is_array() {
            return Err(format!("exclusions missing: {d}"));
        }
    }
    Ok(())
}

fn run(root: &Path) -> usize {
    let dirs = cases(root);
    let mut failures = Vec::new();
    let mut checked = 0;
    for d in &dirs {
        match check(d) {
            Ok(true) => checked += 1,
            Ok(false) => {}
            Err(e) => failures.push(format!("{}: {e}", d.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        dirs.len(),
        failures.join("\n\n")
    );
    checked
}

#[test]
fn locks_of_the_hand_made_and_qa_graphs_answer_as_the_graphs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/deps");
    let n = run(&root);
    if std::env::var("LOCK_CASE").is_err() {
        assert!(n > 100, "only {n} graphs were checked");
    }
}

#[test]
fn locks_of_real_central_graphs_answer_as_the_graphs() {
    // `../shared` beside the checkout (a worktree sits one level deeper)
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|a| a.join("shared/corpus/deps-debian"))
        .find(|p| p.is_dir())
        .expect("../shared/corpus/deps-debian is missing");
    let n = run(&root);
    if std::env::var("LOCK_CASE").is_err() {
        assert!(n > 100, "only {n} graphs were checked");
    }
}
