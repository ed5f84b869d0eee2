//! The human `m2r tree` against the real `mvn dependency:tree`: every folder of
//! `testdata/mvn-tree/` (see its README) holds a project, the repository with every POM it needs,
//! the extra `m2r tree` arguments and what the oracle printed (`expected.txt`, and
//! `expected.status` when mvn failed). For each case this runs
//!
//! ```text
//! m2r tree ARGS... --pom CASE/project/pom.xml --settings S --local-repository FRESH
//! ```
//!
//! with `HOME` an empty folder and `S` a settings file whose `*` mirror is `file://CASE/repo`, and
//! compares stdout byte for byte and the exit status (non-zero exactly when mvn failed).
//!
//! `M2R_MVN_TREE_CASES=name,name2` runs only these cases (a trailing `*` matches a prefix);
//! `M2R_MVN_TREE_DIR=DIR` runs the cases of another folder (e.g. the reactor cases).

#[path = "../../tests/support/process.rs"]
mod process;
use process::run_with_timeout;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root (this package is `cli/`).
fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(PathBuf::from)
        .unwrap_or_default()
}

fn selected(name: &str) -> bool {
    let Ok(filter) = std::env::var("M2R_MVN_TREE_CASES") else {
        return true;
    };
    filter
        .split(',')
        .map(str::trim)
        .any(|f| match f.strip_suffix('*') {
            Some(prefix) => name.starts_with(prefix),
            None => name == f,
        })
}

fn cases(root: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.join("args").is_file() && p.join("expected.txt").is_file())
                .filter(|p| selected(&p.file_name().unwrap_or_default().to_string_lossy()))
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs
}

/// The lines of `expected` and `actual` as a small unified-style diff (longest common
/// subsequence; the trees are short).
fn line_diff(expected: &str, actual: &str) -> String {
    let e: Vec<&str> = expected.lines().collect();
    let a: Vec<&str> = actual.lines().collect();
    let mut lcs = vec![vec![0usize; a.len() + 1]; e.len() + 1];
    for i in (0..e.len()).rev() {
        for j in (0..a.len()).rev() {
            lcs[i][j] = if e[i] == a[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < e.len() || j < a.len() {
        if i < e.len() && j < a.len() && e[i] == a[j] {
            out.push_str(&format!("   {}\n", e[i]));
            i += 1;
            j += 1;
        } else if i < e.len() && (j == a.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push_str(&format!(" - {}\n", e[i]));
            i += 1;
        } else {
            out.push_str(&format!(" + {}\n", a[j]));
            j += 1;
        }
    }
    if expected.ends_with('\n') != actual.ends_with('\n') {
        out.push_str(" (the final newline differs)\n");
    }
    out
}

/// One case; `Err` says how m2r differs from mvn.
fn run_case(dir: &Path) -> Result<(), String> {
    let case = std::fs::canonicalize(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let args: Vec<String> = std::fs::read_to_string(case.join("args"))
        .map_err(|e| format!("args: {e}"))?
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    let expected =
        std::fs::read_to_string(case.join("expected.txt")).map_err(|e| format!("{e}"))?;
    let mvn_failed = case.join("expected.status").is_file();
    let tmp = tempfile::tempdir().map_err(|e| format!("temporary folder: {e}"))?;
    let (home, local) = (tmp.path().join("home"), tmp.path().join("local"));
    std::fs::create_dir_all(&home).map_err(|e| format!("{e}"))?;
    let settings = tmp.path().join("settings.xml");
    std::fs::write(
        &settings,
        format!(
            "<settings><mirrors><mirror><id>fixture</id><mirrorOf>*</mirrorOf>\
             <url>file://{}</url></mirror></mirrors></settings>\n",
            case.join("repo").display()
        ),
    )
    .map_err(|e| format!("{e}"))?;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_m2r"));
    cmd.arg("tree")
        .args(&args)
        .arg("--pom")
        .arg(case.join("project/pom.xml"))
        .arg("--settings")
        .arg(&settings)
        .arg("--local-repository")
        .arg(&local)
        .current_dir(&case)
        .env_clear()
        .env("HOME", &home);
    if let Some(path) = std::env::var_os("PATH") {
        cmd.env("PATH", path);
    }
    let output = run_with_timeout(cmd, process::LIMIT)?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut problems = Vec::new();
    if mvn_failed == output.status.success() {
        problems.push(format!(
            "exit status {:?}, mvn {}",
            output.status.code(),
            if mvn_failed { "failed" } else { "succeeded" }
        ));
    }
    if stdout != expected {
        problems.push(format!(
            "stdout differs from mvn's (- mvn, + m2r):\n{}",
            line_diff(&expected, &stdout)
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        let stderr = String::from_utf8_lossy(&output.stderr);
        Err(format!(
            "{}\nstderr: {}",
            problems.join("\n"),
            stderr.lines().take(5).collect::<Vec<_>>().join(" | ")
        ))
    }
}

#[test]
fn mvn_tree_fixtures_print_what_mvn_prints() {
    let root = std::env::var_os("M2R_MVN_TREE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("testdata/mvn-tree"));
    let dirs = cases(&root);
    assert!(
        !dirs.is_empty() || std::env::var_os("M2R_MVN_TREE_CASES").is_some(),
        "no cases under {}",
        root.display()
    );
    let failures: Vec<String> = std::thread::scope(|s| {
        let chunks: Vec<&[PathBuf]> = dirs.chunks(dirs.len().div_ceil(4).max(1)).collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .filter_map(|d| {
                            run_case(d).err().map(|e| {
                                let name = d.file_name().unwrap_or_default().to_string_lossy();
                                format!("FAIL {name}: {e}")
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
        "{}: {} cases, {} failed",
        root.display(),
        dirs.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from mvn dependency:tree:\n{}",
        failures.len(),
        dirs.len(),
        failures.join("\n")
    );
}

#[test]
fn the_diff_shows_what_changed() {
    assert_eq!(
        line_diff("a\nb\nc\n", "a\nx\nc\n"),
        "   a\n - b\n + x\n   c\n"
    );
    assert_eq!(
        line_diff("a\n", "a"),
        "   a\n (the final newline differs)\n"
    );
}
