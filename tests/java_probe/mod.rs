//! Shared harness of the JDK differential tests: runs a single-file Java program over an input
//! file (one line per case) and returns its output lines, bounded to 120 s. Values cross the
//! process boundary as UTF-16 hex (`-` for the empty string), so any string survives.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// UTF-16 hex encoding understood by the probes' `dec`.
pub fn enc(s: &str) -> String {
    if s.is_empty() {
        return "-".into();
    }
    s.encode_utf16().map(|u| format!("{u:04x}")).collect()
}

/// Whether a `java` launcher runs here.
pub fn java_available() -> bool {
    Command::new("java")
        .arg("-version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Writes `source` as `file_name`, runs it (with `classpath`, if any) over `lines` and returns
/// one output line per input line.
pub fn run(
    file_name: &str,
    source: &str,
    classpath: Option<&Path>,
    lines: &[String],
) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(file_name), source).unwrap();
    let input = dir.path().join("input.txt");
    let mut f = std::fs::File::create(&input).unwrap();
    for l in lines {
        writeln!(f, "{l}").unwrap();
    }
    drop(f);
    let mut cmd = Command::new("java");
    if let Some(cp) = classpath {
        cmd.arg("-cp").arg(cp);
    }
    let started = Instant::now();
    let mut child = cmd
        .arg(dir.path().join(file_name))
        .arg(&input)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Drain stdout while waiting so a large answer cannot fill the pipe and stall the probe.
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut buf).map(|_| buf)
    });
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("java probe took longer than 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = reader.join().unwrap().unwrap();
    let answers: Vec<String> = String::from_utf8_lossy(&stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(answers.len(), lines.len(), "one answer per case");
    answers
}
