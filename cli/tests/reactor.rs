//! Reactor fixtures (`testdata/mvn-tree/reactor-*`, made by `testdata/gen/gen_reactor.py` with the real
//! `mvn dependency:tree`): `m2r tree --pom project/pom.xml` against the case's `repo/` must print the
//! projects Maven prints, in Maven's reactor order, with Maven's exit status, and each project's nodes
//! — the modules among them, with their own dependencies below them.
//!
//! Each block is compared first as the root's `groupId:artifactId:version` and the set of the nodes
//! it keeps (`groupId:artifactId[:classifier]:version:scope`, annotations and left-out entries
//! aside), which says which project or node differs, then byte for byte (the per-project rendering
//! is the single-project tree's, `render_maven_tree`). One case is also answered again by the real
//! `mvn dependency:tree` (the shared oracle `mvn-tree.py`, which needs Debian's `maven`,
//! `libmaven-dependency-plugin-java` and `junit4`: `scripts/test.sh` installs them): the test
//! fails when the oracle is missing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "../../tests/support/process.rs"]
mod process;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(PathBuf::from)
        .unwrap_or_default()
}

/// The cases: folders with `args` and `expected.txt`.
fn cases() -> Vec<PathBuf> {
    let dir = root().join("testdata/mvn-tree");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|e| e.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    out.retain(|p| {
        p.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("reactor-"))
            && p.join("expected.txt").is_file()
    });
    out.sort();
    out
}

/// A node without its third part: Maven prints the type (`test-jar`), the single-project tree
/// the extension (`jar`) — the renderer's business, not the reactor's.
fn node_key(line: &str) -> String {
    let mut parts: Vec<&str> = line.split(':').collect();
    if parts.len() >= 5 {
        parts.remove(2);
    }
    parts.join(":")
}

/// `(root g:a:v, sorted kept nodes)` per block.
fn structure(text: &str) -> Vec<(String, Vec<String>)> {
    text.split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .map(|block| {
            let mut lines = block
                .lines()
                .filter(|l| !l.starts_with("warning:") && !l.starts_with("error:"));
            let root = lines.next().unwrap_or_default();
            let parts: Vec<&str> = root.split(':').collect();
            let root = match parts.as_slice() {
                [g, a, _, v] => format!("{g}:{a}:{v}"),
                _ => root.to_string(),
            };
            let mut nodes: Vec<String> = lines
                .map(|l| l.trim_start_matches(['|', '+', '\\', '-', ' ']))
                .filter(|l| !l.starts_with('(') && !l.is_empty())
                .map(|l| node_key(l.split(" (").next().unwrap_or(l)))
                .collect();
            nodes.sort();
            (root, nodes)
        })
        .collect()
}

fn run(case: &Path) -> Result<(), String> {
    let args: Vec<String> = std::fs::read_to_string(case.join("args"))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    let expected = std::fs::read_to_string(case.join("expected.txt")).map_err(|e| e.to_string())?;
    let status: i32 = std::fs::read_to_string(case.join("expected.status"))
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0);
    let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let settings = tmp.path().join("settings.xml");
    std::fs::write(
        &settings,
        format!(
            "<settings><mirrors><mirror><id>fix</id><mirrorOf>*</mirrorOf><url>file://{}</url></mirror></mirrors></settings>",
            case.join("repo").display()
        ),
    )
    .map_err(|e| e.to_string())?;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_m2r"));
    cmd.arg("tree")
        .arg("--pom")
        .arg("project/pom.xml")
        .args(&args)
        .arg("--settings")
        .arg(&settings)
        .arg("--local-repository")
        .arg(tmp.path().join("local"))
        .current_dir(case)
        .env_clear()
        .env("HOME", tmp.path())
        .env("PATH", std::env::var_os("PATH").unwrap_or_default());
    let output = process::run_with_timeout(cmd, process::LIMIT)?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let code = output.status.code().unwrap_or(-1);
    if (code == 0) != (status == 0) {
        return Err(format!(
            "exit status {code}, Maven's {status}; stderr: {}",
            String::from_utf8_lossy(&output.stderr)
                .lines()
                .last()
                .unwrap_or("")
        ));
    }
    let (want, got) = (structure(&expected), structure(&stdout));
    if want != got {
        let want_roots: Vec<&String> = want.iter().map(|(r, _)| r).collect();
        let got_roots: Vec<&String> = got.iter().map(|(r, _)| r).collect();
        if want_roots != got_roots {
            return Err(format!("projects {got_roots:?}, Maven's {want_roots:?}"));
        }
        let first = want.iter().zip(&got).find(|(w, g)| w != g);
        if let Some(((root, w), (_, g))) = first {
            let missing: Vec<&String> = w.iter().filter(|n| !g.contains(n)).collect();
            let extra: Vec<&String> = g.iter().filter(|n| !w.contains(n)).collect();
            return Err(format!(
                "{root}: missing {missing:?}, not in Maven's tree {extra:?}"
            ));
        }
    }
    if stdout != expected {
        return Err(
            "the output differs from Maven's byte for byte (cli/tests/mvn_tree.rs shows the diff)"
                .into(),
        );
    }
    Ok(())
}

#[test]
fn reactor_fixtures_have_maven_s_projects_order_and_nodes() {
    let cases = cases();
    assert!(
        !cases.is_empty(),
        "no reactor fixtures under testdata/mvn-tree (testdata/gen/gen_reactor.py writes them)"
    );
    let failures: BTreeMap<String, String> = std::thread::scope(|s| {
        let chunks: Vec<&[PathBuf]> = cases.chunks(cases.len().div_ceil(4)).collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .filter_map(|c| {
                            let name = c.file_name()?.to_string_lossy().into_owned();
                            run(c).err().map(|e| (name, e))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    eprintln!("{} reactor cases, {} failed", cases.len(), failures.len());
    assert!(
        failures.is_empty(),
        "{} of {} reactor cases differ from Maven:\n{}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .map(|(k, v)| format!("FAIL {k}: {v}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The shared folder (`oracle/`): `M2R_SHARED_DIR`, else a `shared/` beside the workspace or one
/// of its parents. Missing, the test fails: a CI run without the reference must not pass.
fn shared_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("M2R_SHARED_DIR") {
        return PathBuf::from(dir);
    }
    root()
        .ancestors()
        .map(|a| a.join("shared"))
        .find(|s| s.join("oracle").is_dir())
        .unwrap_or_else(|| {
            panic!("the shared folder with oracle/ was not found beside the workspace: set M2R_SHARED_DIR")
        })
}

#[test]
fn the_real_mvn_still_prints_a_committed_reactor_case() {
    let oracle = shared_dir().join("oracle/mvn-tree.py");
    assert!(oracle.is_file(), "{} is missing", oracle.display());
    let case = root().join("testdata/mvn-tree/reactor-module-parent-verbose");
    let expected = std::fs::read_to_string(case.join("expected.txt")).expect("expected.txt");
    let output = Command::new("python3")
        .arg(&oracle)
        .arg("--verbose")
        .arg("--repo")
        .arg(case.join("repo"))
        .arg(case.join("project"))
        .output()
        .expect("python3 runs the oracle");
    assert!(
        output.status.success(),
        "the oracle failed (scripts/test.sh installs maven, libmaven-dependency-plugin-java, junit4): {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&output.stdout), expected);
    assert_eq!(run(&case), Ok(()));
}
