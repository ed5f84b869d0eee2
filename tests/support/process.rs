//! Running a command with a time limit in tests: its stdout and stderr read on their own threads
//! (a full pipe never blocks it), killed and reaped when it runs too long.
#![allow(dead_code)]

use std::process::Command;
use std::time::Duration;

/// How long one `m2r` run in a test may take before it is killed and the test fails (instead
/// of holding the whole run until CI's limit).
pub const LIMIT: Duration = Duration::from_secs(120);

/// Runs `cmd` to its end within [`LIMIT`], with its output; panics naming the command when it
/// cannot be run or is still running then.
pub fn bounded_output(cmd: &mut Command) -> std::process::Output {
    let cmd = std::mem::replace(cmd, Command::new("m2r"));
    let shown = format!("{cmd:?}");
    run_with_timeout(cmd, LIMIT).unwrap_or_else(|e| panic!("{shown}: {e}"))
}

/// Runs `cmd` with stdin closed; its output, or why there is none.
pub fn run_with_timeout(mut cmd: Command, limit: Duration) -> Result<std::process::Output, String> {
    use std::io::Read;
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .stdin(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run m2r: {e}"))?;
    let mut stdout = child.stdout.take().ok_or("no stdout")?;
    let mut stderr = child.stderr.take().ok_or("no stderr")?;
    let out = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stdout.read_to_end(&mut buf);
        buf
    });
    let err = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stderr.read_to_end(&mut buf);
        buf
    });
    let start = std::time::Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("timed out after {limit:?}"));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("wait failed: {e}")),
        }
    };
    Ok(std::process::Output {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    })
}
