//! Differential fixture tests: every case folder holds inputs and the JSON that real Maven 3.8.7
//! printed for them (`../shared/oracle/run.sh`); `m2r explain --json` must agree.
//!
//! A case folder (layout of `../shared/oracle/compare.py`): `settings.xml`, optional
//! `global-settings.xml` / `settings-security.xml`, `args` (one argument per line), optional `env`
//! (NAME=VALUE lines) and `expected.json`. Compared: `effectiveSettings` and `repositories`
//! exactly, `problems` as a multiset of (severity, stage, line), and the exit status (non-zero
//! exactly when settings building fails). A new case is a new folder, not new code.
//!
//! Dependency cases (`../shared/oracle/compare-deps.py`'s layout: `args` whose first line is the
//! mode `tree`, `describe` or `versions`, `@CASE@` for the case folder, `expected.json` from
//! `../shared/oracle/deps.sh`) run `m2r MODE --json ARGS... --local-repository FRESH` with an empty
//! `HOME` and are compared field by field as compare-deps.py does: `testdata/deps/` and
//! `../shared/corpus/deps-debian/`.

#[path = "../../tests/support/shared.rs"]
mod shared;

#[path = "../../tests/support/process.rs"]
mod process;
use process::run_with_timeout;

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn case_dirs(root: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("args").is_file() && p.join("expected.json").is_file())
        .collect();
    dirs.sort();
    dirs
}

fn problem_keys(doc: &Value) -> BTreeMap<String, usize> {
    let mut keys = BTreeMap::new();
    if let Some(list) = doc.get("problems").and_then(Value::as_array) {
        for p in list {
            let key = format!("{} {} {}", p["severity"], p["stage"], p["line"]);
            *keys.entry(key).or_insert(0) += 1;
        }
    }
    keys
}

fn diff(path: &str, expected: &Value, actual: &Value, out: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            let keys: std::collections::BTreeSet<&String> = e.keys().chain(a.keys()).collect();
            for k in keys {
                let p = format!("{path}.{k}");
                match (e.get(k), a.get(k)) {
                    (Some(ev), Some(av)) => diff(&p, ev, av, out),
                    (Some(_), None) => out.push(format!("{p}: missing")),
                    (None, Some(_)) => out.push(format!("{p}: unexpected key")),
                    (None, None) => {}
                }
            }
        }
        (Value::Array(e), Value::Array(a)) => {
            if e.len() != a.len() {
                out.push(format!(
                    "{path}: expected {} items, got {}",
                    e.len(),
                    a.len()
                ));
            }
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                diff(&format!("{path}[{i}]"), ev, av, out);
            }
        }
        _ if expected != actual => out.push(format!("{path}: expected {expected}, got {actual}")),
        _ => {}
    }
}

fn run_case(dir: &Path) -> Vec<String> {
    let args: Vec<String> = std::fs::read_to_string(dir.join("args"))
        .unwrap_or_default()
        .split('\n')
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    let expected: Value = match std::fs::read_to_string(dir.join("expected.json"))
        .map(|t| serde_json::from_str(&t))
    {
        Ok(Ok(v)) => v,
        _ => return vec!["expected.json unreadable".into()],
    };
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_m2r"));
    cmd.arg("explain")
        .arg("--json")
        .args(&args)
        .current_dir(dir);
    // The expectations were made without the machine's own variables (proxies, M2_HOME, CI,
    // ...): run with only PATH (to find `java` for java.version) plus the case's `env`.
    cmd.env_clear();
    if let Some(path) = std::env::var_os("PATH") {
        cmd.env("PATH", path);
    }
    if let Ok(env) = std::fs::read_to_string(dir.join("env")) {
        for line in env.lines().filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let (k, v) = line.split_once('=').unwrap_or((line, ""));
            cmd.env(k, v);
        }
    }
    let output = match run_with_timeout(cmd, Duration::from_secs(60)) {
        Ok(o) => o,
        Err(e) => return vec![e],
    };
    let actual = match stdout_json(&output) {
        Ok(v) => v,
        Err(e) => return vec![e],
    };
    let mut diffs = Vec::new();
    for key in ["effectiveSettings", "repositories"] {
        match actual.get(key) {
            Some(a) => diff(key, &expected[key], a, &mut diffs),
            None => diffs.push(format!("{key}: missing")),
        }
    }
    let (e, a) = (problem_keys(&expected), problem_keys(&actual));
    if e != a {
        diffs.push(format!(
            "problems (severity stage line): expected {e:?}, got {a:?}"
        ));
    }
    let should_fail = expected["effectiveSettings"].is_null();
    if should_fail == output.status.success() {
        diffs.push(format!(
            "exit status {:?}, expected {}",
            output.status.code(),
            if should_fail { "non-zero" } else { "0" }
        ));
    }
    diffs
}

/// The dependency modes `m2r` implements; cases of other modes are not run yet.
const DEPS_MODES: &[&str] = &["describe", "versions", "tree"];

/// The compared fields per mode (compare-deps.py's `FIELDS`).
fn deps_fields(mode: &str) -> &'static [&'static str] {
    match mode {
        "tree" => &["root", "dependencies", "classpath"],
        "describe" => &[
            "artifact",
            "relocations",
            "dependencies",
            "managedDependencies",
            "repositories",
        ],
        "versions" => &["sorted", "equalClasses"],
        _ => &[],
    }
}

fn deps_problem_keys(doc: &Value) -> BTreeMap<String, usize> {
    let mut keys = BTreeMap::new();
    if let Some(list) = doc.get("problems").and_then(Value::as_array) {
        for p in list {
            let key = format!("{} {}", p["kind"], p["artifact"]);
            *keys.entry(key).or_insert(0) += 1;
        }
    }
    keys
}

/// One dependency case; `None` when its mode is not implemented yet.
fn run_deps_case(dir: &Path) -> Option<Vec<String>> {
    let case = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let args: Vec<String> = std::fs::read_to_string(dir.join("args"))
        .unwrap_or_default()
        .split('\n')
        .filter(|l| !l.is_empty())
        .map(|a| a.replace("@CASE@", &case.display().to_string()))
        .collect();
    let (mode, rest) = args.split_first()?;
    if !DEPS_MODES.contains(&mode.as_str()) {
        return None;
    }
    let expected: Value = match std::fs::read_to_string(dir.join("expected.json"))
        .map(|t| serde_json::from_str(&t))
    {
        Ok(Ok(v)) => v,
        _ => return Some(vec!["expected.json unreadable".into()]),
    };
    let (Ok(home), Ok(local)) = (tempfile::tempdir(), tempfile::tempdir()) else {
        return Some(vec!["cannot create temporary folders".into()]);
    };
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_m2r"));
    cmd.arg(mode).arg("--json").args(rest).current_dir(dir);
    if mode != "versions" {
        cmd.arg("--local-repository").arg(local.path());
    }
    cmd.env_clear().env("HOME", home.path());
    if let Some(path) = std::env::var_os("PATH") {
        cmd.env("PATH", path);
    }
    let output = match run_with_timeout(cmd, process::LIMIT) {
        Ok(o) => o,
        Err(e) => return Some(vec![e]),
    };
    let actual = match stdout_json(&output) {
        Ok(v) => v,
        Err(e) => return Some(vec![e]),
    };
    let mut diffs = Vec::new();
    let status = expected["status"].as_i64().unwrap_or(0);
    if (status != 0) == output.status.success() {
        diffs.push(format!(
            "exit status {:?}, Maven's {status} (stderr: {})",
            output.status.code(),
            String::from_utf8_lossy(&output.stderr)
                .lines()
                .last()
                .unwrap_or("")
        ));
    }
    if status == 0 || mode == "versions" {
        for key in deps_fields(mode) {
            diff(
                key,
                expected.get(*key).unwrap_or(&Value::Null),
                actual.get(*key).unwrap_or(&Value::Null),
                &mut diffs,
            );
        }
    }
    let (e, a) = (deps_problem_keys(&expected), deps_problem_keys(&actual));
    if e != a {
        diffs.push(format!(
            "problems (kind artifact): expected {e:?}, got {a:?}"
        ));
    }
    Some(diffs)
}

/// The JSON document `m2r` printed, or what went wrong (with the last line of its stderr).
fn stdout_json(output: &std::process::Output) -> Result<Value, String> {
    serde_json::from_slice(&output.stdout).map_err(|e| {
        format!(
            "stdout is not JSON ({e}), status {:?}, stderr: {}",
            output.status.code(),
            String::from_utf8_lossy(&output.stderr)
                .lines()
                .last()
                .unwrap_or("")
        )
    })
}

fn check_corpus(root: &Path, required: bool) {
    check_cases(root, required, |d| Some(run_case(d)));
}

fn check_cases(root: &Path, required: bool, run: impl Fn(&Path) -> Option<Vec<String>> + Sync) {
    let dirs = case_dirs(root);
    if dirs.is_empty() {
        assert!(!required, "no cases found under {}", root.display());
        eprintln!("no cases under {} (skipped)", root.display());
        return;
    }
    let run = &run;
    let ran = std::sync::atomic::AtomicUsize::new(0);
    let ran = &ran;
    let failures: Vec<String> = std::thread::scope(|s| {
        let chunks: Vec<&[PathBuf]> = dirs.chunks(dirs.len().div_ceil(4)).collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .filter_map(|d| {
                            let diffs = run(d)?;
                            ran.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            (!diffs.is_empty()).then(|| {
                                let name = d
                                    .file_name()
                                    .map(|n| n.to_string_lossy().into_owned())
                                    .unwrap_or_default();
                                format!(
                                    "FAIL {name}: {}",
                                    diffs.iter().take(4).cloned().collect::<Vec<_>>().join("; ")
                                )
                            })
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
    eprintln!(
        "{}: {} cases, {} run, {} failed",
        root.display(),
        dirs.len(),
        ran.load(std::sync::atomic::Ordering::Relaxed),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from Maven:\n{}",
        failures.len(),
        dirs.len(),
        failures.join("\n")
    );
}

/// The workspace root (this package is `cli/`): `testdata/` is found from it.
fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(PathBuf::from)
        .unwrap_or_default()
}

#[test]
fn settings_fixtures_agree_with_maven() {
    check_corpus(&repo_root().join("testdata/settings"), true);
}

#[test]
fn injection_fixtures_agree_with_maven() {
    check_corpus(&repo_root().join("testdata/injection"), true);
}

/// The shared corpora (real-world settings files and Maven's own test resources) sit beside the
/// repository on developer and CI machines.
#[test]
fn shared_corpus_agrees_with_maven() {
    check_corpus(&shared::shared_path("corpus/maven-tests"), true);
    check_corpus(&shared::shared_path("corpus/real-world"), true);
}

/// Dependency fixtures made with `../shared/oracle/deps.sh` (see `testdata/README.md`).
#[test]
fn deps_fixtures_agree_with_maven() {
    check_cases(&repo_root().join("testdata/deps"), true, run_deps_case);
}

/// Every POM of Debian's Maven stack, answered by the oracle (`../shared/corpus/deps-debian/`).
#[test]
fn deps_debian_corpus_agrees_with_maven() {
    check_cases(
        &shared::shared_path("corpus/deps-debian"),
        true,
        run_deps_case,
    );
}
