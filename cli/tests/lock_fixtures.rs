//! Lock-file fixtures: each folder of `testdata/lock/` holds a project and a `file:` repository
//! (POMs and jars), `args` (`lock` and its arguments, one a line, `@CASE@` for the case folder)
//! and what m2r writes for it: `expected.lock` (the lock, byte for byte, the case folder spelled
//! `@CASE@`) and `expected-coursier.json` (the Coursier export, the local repository spelled
//! `@LOCAL@`; for a reactor, `expected-coursier/`, one report per module). Each case also checks that `m2r resolve --frozen` with that lock, in an empty
//! local repository, gives the class path `m2r resolve` gives, and that locking twice gives the
//! same bytes.
//!
//! A new case is a new folder; `M2R_BLESS=1` writes the expected files of the cases that have
//! none or differ (review the diff: they pin the format). One case: `LOCK_CASE=NAME`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "../../tests/support/process.rs"]
mod process;

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/lock");
    let only = std::env::var("LOCK_CASE").ok();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("testdata/lock is missing")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("args").is_file())
        .filter(|p| {
            only.as_deref()
                .is_none_or(|o| p.file_name().is_some_and(|n| n == o))
        })
        .collect();
    dirs.sort();
    dirs
}

fn m2r(case: &Path, args: &[String], local: &Path, home: &Path) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_m2r"));
    cmd.args(args)
        .arg("--local-repository")
        .arg(local)
        .current_dir(case)
        .env_clear()
        .env("HOME", home);
    if let Some(path) = std::env::var_os("PATH") {
        cmd.env("PATH", path);
    }
    process::bounded_output(&mut cmd)
}

fn stdout(out: &Output, what: &str) -> Result<String, String> {
    if !out.status.success() {
        return Err(format!(
            "{what}: exit {:?}: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Compares `actual` with the case's `name`, or writes it when blessing.
fn expect(dir: &Path, name: &str, actual: &str, diffs: &mut Vec<String>) {
    let path = dir.join(name);
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected == actual {
        return;
    }
    if std::env::var_os("M2R_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    diffs.push(format!(
        "{name} differs:\n--- expected\n{expected}\n--- actual\n{actual}"
    ));
}

/// The input hashes that cover the case's absolute path (the repositories' `file:` URLs, the
/// properties such as `basedir`, and the hash of them all) differ between checkouts: they are
/// masked as `@HASH@`; the other input hashes stay pinned. That a lock is stable on one machine
/// is checked below (locking again gives the same bytes).
fn mask_path_hashes(text: &str) -> String {
    let mut in_inputs = false;
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("\"inputs\": {") {
            in_inputs = true;
        } else if in_inputs && trimmed.starts_with('}') {
            in_inputs = false;
        }
        let masked = in_inputs
            && [
                "\"sha256\": \"",
                "\"repositories\": \"",
                "\"properties\": \"",
            ]
            .iter()
            .any(|k| trimmed.starts_with(k));
        if masked {
            let key_end = line.find(": \"").map(|i| i + 3).unwrap_or(line.len());
            let comma = if line.trim_end().ends_with(',') {
                ","
            } else {
                ""
            };
            out.push_str(&line[..key_end]);
            out.push_str("@HASH@\"");
            out.push_str(comma);
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    if !text.ends_with('\n') {
        out.pop();
    }
    out
}

fn run_case(dir: &Path) -> Result<Vec<String>, String> {
    let case = std::fs::canonicalize(dir).unwrap();
    let spelled = case.display().to_string();
    let args: Vec<String> = std::fs::read_to_string(dir.join("args"))
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty())
        .map(|a| a.replace("@CASE@", &spelled))
        .collect();
    if args.first().map(String::as_str) != Some("lock") {
        return Err("args must start with `lock`".into());
    }
    let tmp = tempfile::tempdir().unwrap();
    let (home, local) = (tmp.path().join("home"), tmp.path().join("m2"));
    std::fs::create_dir_all(&home).unwrap();
    let mut diffs = Vec::new();

    let out_lock = tmp.path().join("m2r.lock");
    let mut lock_args = args.clone();
    lock_args.extend(["-O".into(), out_lock.display().to_string()]);
    stdout(&m2r(dir, &lock_args, &local, &home), "m2r lock")?;
    let text = std::fs::read_to_string(&out_lock).unwrap();
    expect(
        dir,
        "expected.lock",
        &mask_path_hashes(&text.replace(&spelled, "@CASE@")),
        &mut diffs,
    );
    // again, from the warm local repository: the same bytes
    stdout(&m2r(dir, &lock_args, &local, &home), "m2r lock (again)")?;
    if std::fs::read_to_string(&out_lock).unwrap() != text {
        diffs.push("locking again changed the lock".into());
    }

    let mut coursier = args.clone();
    coursier.extend(["--format".into(), "coursier-json".into()]);
    let local_spelled = local.display().to_string();
    let reports = dir.join("expected-coursier");
    if reports.is_dir() {
        // a reactor: one report per module, in the folder --output names
        let out_dir = tmp.path().join("coursier");
        coursier.extend(["-O".into(), out_dir.display().to_string()]);
        stdout(
            &m2r(dir, &coursier, &local, &home),
            "m2r lock --format coursier-json -O DIR",
        )?;
        let mut written: Vec<String> = std::fs::read_dir(&out_dir)
            .map_err(|e| format!("{}: {e}", out_dir.display()))?
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        written.sort();
        if std::env::var_os("M2R_BLESS").is_some() {
            std::fs::create_dir_all(&reports).unwrap();
        }
        for name in &written {
            let json = std::fs::read_to_string(out_dir.join(name)).unwrap();
            if let Err(e) = serde_json::from_str::<serde_json::Value>(&json) {
                diffs.push(format!("the Coursier report {name} is not JSON: {e}"));
            }
            let spelled_json = json
                .replace(&local_spelled, "@LOCAL@")
                .replace(&spelled, "@CASE@");
            expect(&reports, name, &spelled_json, &mut diffs);
        }
        let mut expected: Vec<String> = std::fs::read_dir(&reports)
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        expected.sort();
        if expected != written {
            diffs.push(format!(
                "Coursier reports: expected {expected:?}, written {written:?}"
            ));
        }
    } else {
        let json = stdout(
            &m2r(dir, &coursier, &local, &home),
            "m2r lock --format coursier-json",
        )?;
        if let Err(e) = serde_json::from_str::<serde_json::Value>(&json) {
            diffs.push(format!("the Coursier report is not JSON: {e}"));
        }
        expect(
            dir,
            "expected-coursier.json",
            &json.replace(&local_spelled, "@LOCAL@"),
            &mut diffs,
        );
    }

    // the frozen class path is the resolved one
    let mut resolve = args.clone();
    resolve[0] = "resolve".into();
    let resolved = stdout(&m2r(dir, &resolve, &local, &home), "m2r resolve")?;
    let frozen_local = tmp.path().join("frozen");
    // --frozen takes the lock only: the project file is not read (`--pom` says where a
    // reactor's module files are, as the lock was written away from it)
    let mut frozen_args: Vec<String> = vec![
        "resolve".into(),
        "--frozen".into(),
        "--lock".into(),
        out_lock.display().to_string(),
    ];
    frozen_args.extend(args.iter().skip(1).cloned());
    let frozen = stdout(
        &m2r(dir, &frozen_args, &frozen_local, &home),
        "m2r resolve --frozen",
    )?;
    let frozen_spelled = frozen_local.display().to_string();
    if frozen.replace(&frozen_spelled, "@LOCAL@") != resolved.replace(&local_spelled, "@LOCAL@") {
        diffs.push(format!(
            "--frozen class path\n{frozen}\nresolve class path\n{resolved}"
        ));
    }
    Ok(diffs)
}

#[test]
fn lock_fixtures() {
    let dirs = cases();
    assert!(!dirs.is_empty(), "no case in testdata/lock");
    let mut failures = Vec::new();
    for d in &dirs {
        match run_case(d) {
            Ok(diffs) if diffs.is_empty() => {}
            Ok(diffs) => failures.push(format!("{}:\n{}", d.display(), diffs.join("\n"))),
            Err(e) => failures.push(format!("{}: {e}", d.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} lock cases failed:\n{}",
        failures.len(),
        dirs.len(),
        failures.join("\n\n")
    );
}
