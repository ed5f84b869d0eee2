//! `m2r get`: download artifacts into the local repository (cli-contract.md).
//!
//! This file owns reading the coordinates (arguments and `--from-file`), running the
//! [`BlockingResolver`] the session configures, the progress bar (only when stderr is a
//! terminal) and the output: one line per artifact with its local path on stdout, one `error:`
//! line per failed artifact on stderr. The argument parser lives in `main.rs`, the options shared
//! with `explain` in `options.rs`.

use crate::options::CommonArgs;
use indicatif::{ProgressBar, ProgressStyle};
use m2resolver::printable::escape_for_terminal;
use m2resolver::repository::RemoteRepository;
use m2resolver::Session;
use m2resolver::{Artifact, ProgressEvent, ProgressListener};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Arguments of `m2r get` (the lead's clap layer fills them).
#[derive(Debug, Clone, Default)]
pub struct GetArgs {
    /// Coordinates `groupId:artifactId[:extension[:classifier]]:version`.
    pub coords: Vec<String>,
    /// A file with one coordinate per line (blank lines and `#` comments skipped).
    pub from_file: Option<PathBuf>,
    /// HTTP requests in flight (default: the library's).
    pub threads: Option<usize>,
}

/// Exit status: every artifact resolved with verified checksums.
pub const EXIT_OK: i32 = 0;
/// Exit status: at least one artifact failed or was accepted without a verified checksum.
pub const EXIT_FAILED: i32 = 1;
/// Exit status: bad input (coordinates, coordinate file, setup).
pub const EXIT_USAGE: i32 = 2;

/// A progress bar counting files and bytes (also `m2r resolve`'s).
pub(crate) struct Bar(pub(crate) ProgressBar, pub(crate) AtomicU64);

impl ProgressListener for Bar {
    fn on_event(&self, event: &ProgressEvent<'_>) {
        match event {
            ProgressEvent::TransferProgress { bytes, .. } => {
                let total = self.1.fetch_add(*bytes, Ordering::Relaxed) + bytes;
                self.0
                    .set_message(format!("{}", indicatif::HumanBytes(total)));
            }
            ProgressEvent::Downloaded { .. }
            | ProgressEvent::Cached { .. }
            | ProgressEvent::Failed { .. } => self.0.inc(1),
            _ => {}
        }
    }
}

/// Reads the coordinates of `args`: arguments first, then the file's lines.
pub fn read_coordinates(args: &GetArgs) -> Result<Vec<Artifact>, Vec<String>> {
    let mut texts: Vec<(String, String)> = args
        .coords
        .iter()
        .map(|c| (c.clone(), "argument".to_string()))
        .collect();
    if let Some(file) = &args.from_file {
        // A regular file or a pipe, at most 64 MiB (about a million coordinates); /dev/zero,
        // directories and huge files are refused before they are read.
        let read = m2resolver::bounded::read_file_or_pipe(file, 64 << 20).and_then(|bytes| {
            String::from_utf8(bytes).map_err(|e| m2resolver::bounded::BoundedReadError::Io {
                path: file.clone(),
                source: std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error()),
            })
        });
        match read {
            Ok(content) => {
                for (i, line) in content.lines().enumerate() {
                    let t = line.trim();
                    if !t.is_empty() && !t.starts_with('#') {
                        texts.push((t.to_string(), format!("{}:{}", file.display(), i + 1)));
                    }
                }
            }
            Err(e) => {
                return Err(vec![format!(
                    "cannot read coordinate file {}: {e}",
                    file.display()
                )])
            }
        }
    }
    let mut coords = Vec::new();
    let mut errors = Vec::new();
    for (t, origin) in texts {
        match Artifact::parse(&t) {
            Ok(c) => coords.push(c),
            Err(e) => errors.push(format!("{origin}: {e}")),
        }
    }
    if coords.is_empty() && errors.is_empty() {
        errors.push("no artifact coordinates given (COORD... or --from-file FILE)".to_string());
    }
    if errors.is_empty() {
        Ok(coords)
    } else {
        Err(errors)
    }
}

/// `m2r get` with its options: builds the session (`--offline`, `--local-repository` over the
/// settings' choices), prints its problems, then [`run`]s.
pub fn command(
    common: &CommonArgs,
    local_repository: Option<PathBuf>,
    offline: bool,
    args: GetArgs,
) -> ExitCode {
    let declared = match common.declared() {
        Ok(r) => r,
        Err(e) => return crate::usage_error(&e),
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let pb = ProgressBar::new(0);
        pb.set_style(
            ProgressStyle::with_template(
                "{spinner} [{bar:30}] {pos}/{len} artifacts {msg} {elapsed}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        Arc::new(Bar(pb, AtomicU64::new(0)))
    });
    let listener = bar.clone();
    let threads = args.threads.filter(|n| *n > 0);
    let session = match crate::options::open_session_with(
        common,
        local_repository.as_deref(),
        offline,
        |mut b| {
            if let Some(n) = threads {
                b = b.max_in_flight(n);
            }
            if let Some(l) = listener {
                b = b.progress_listener(l);
            }
            b
        },
    ) {
        Ok(s) => s,
        Err(status) => return ExitCode::from(status),
    };
    if let Some(b) = &bar {
        b.0.set_length(args.coords.len() as u64);
    }
    let code = run(args, &session, &declared);
    if let Some(b) = bar {
        b.0.finish_and_clear();
    }
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}

/// Runs `m2r get` for the repositories a build declares; returns the exit status.
pub fn run(args: GetArgs, session: &Session, declared: &[RemoteRepository]) -> i32 {
    let coords = match read_coordinates(&args) {
        Ok(c) => c,
        Err(errors) => {
            for e in errors {
                eprintln!("error: {}", escape_for_terminal(&e));
            }
            return EXIT_USAGE;
        }
    };
    let answer = session.repositories(declared);
    for p in &answer.problems {
        eprintln!("{}", escape_for_terminal(&p.to_string()));
    }
    let results = match session.blocking_download(&coords, &answer.repositories) {
        Ok(r) => r,
        Err(e) => {
            eprintln!(
                "error: {}",
                escape_for_terminal(&m2resolver::printable::error_chain(&e))
            );
            return EXIT_USAGE;
        }
    };
    let mut status = EXIT_OK;
    let mut stdout = std::io::stdout().lock();
    for (coord, result) in coords.iter().zip(results) {
        match result {
            Ok(a) => {
                use std::io::Write;
                let _ = writeln!(stdout, "{}", a.path.display());
                for w in &a.warnings {
                    eprintln!("warning: {coord}: {}", escape_for_terminal(w));
                }
                if !a.is_verified() {
                    status = EXIT_FAILED;
                }
            }
            Err(e) => {
                eprintln!(
                    "error: {}",
                    escape_for_terminal(&m2resolver::printable::error_chain(&e))
                );
                status = EXIT_FAILED;
            }
        }
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_from_args_and_file() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("coords.txt");
        std::fs::write(&f, "# list\n\ng:a:2\n  g:b:pom:3  \n").unwrap();
        let args = GetArgs {
            coords: vec!["g:x:1".into()],
            from_file: Some(f.clone()),
            threads: None,
        };
        let c = read_coordinates(&args).unwrap();
        let s: Vec<String> = c.iter().map(|c| c.to_string()).collect();
        assert_eq!(s, ["g:x:jar:1", "g:a:jar:2", "g:b:pom:3"]);
        std::fs::write(&f, "g:a:2\nbad\n").unwrap();
        let errs = read_coordinates(&args).unwrap_err();
        assert_eq!(errs.len(), 1);
        assert!(errs[0].contains("coords.txt:2"), "{errs:?}");
        assert!(read_coordinates(&GetArgs::default()).is_err());
    }

    #[test]
    fn offline_missing_artifact_fails_with_exit_1() {
        let dir = tempfile::tempdir().unwrap();
        let args = GetArgs {
            coords: vec!["g:a:1".into()],
            ..Default::default()
        };
        let session = Session::builder()
            .environment(m2resolver::Environment::default())
            .no_user_settings()
            .offline(true)
            .local_repository(dir.path())
            .build()
            .unwrap();
        let repos = vec![RemoteRepository::new("central", "http://127.0.0.1:9/r")];
        assert_eq!(run(args, &session, &repos), EXIT_FAILED);
    }
}
