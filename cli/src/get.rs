//! `m2r get`: download artifacts into the local repository (cli-contract.md).
//!
//! This file owns reading the coordinates (arguments and `--from-file`), asking the session
//! to download them ([`Session::blocking_download`]) and the output: one line per artifact with
//! its local path on stdout, one `error:` line per failed artifact on stderr (`report.rs`). The
//! progress display is `progress.rs`'s; the options shared with the other commands are in
//! `options.rs`.

use crate::options::{CommonArgs, DownloadArgs};
use crate::report;
use m2resolver::{Artifact, RemoteRepository, Session};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `m2r get` (the clap layer fills them).
#[derive(Debug, Clone, Default)]
pub struct GetArgs {
    /// Coordinates `groupId:artifactId[:extension[:classifier]]:version`.
    pub coords: Vec<String>,
    /// A file with one coordinate per line (blank lines and `#` comments skipped).
    pub from_file: Option<PathBuf>,
}

/// Exit status: every artifact resolved with verified checksums.
pub const EXIT_OK: i32 = 0;
/// Exit status: at least one artifact failed or was accepted without a verified checksum.
pub const EXIT_FAILED: i32 = 1;
/// Exit status: bad input (coordinates, coordinate file, setup).
pub const EXIT_USAGE: i32 = 2;

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

/// `m2r get` with its options: opens the session (`--offline`, `-U`, `--threads`,
/// `--local-repository` over the settings' choices; `--repo`, else central), then [`run`]s.
pub fn command(common: &CommonArgs, download: &DownloadArgs, args: GetArgs) -> ExitCode {
    let coords = match read_coordinates(&args) {
        Ok(c) => c,
        Err(errors) => {
            errors.iter().for_each(|e| report::error_text(e));
            return ExitCode::from(EXIT_USAGE as u8);
        }
    };
    let opened = match crate::options::open(common, download) {
        Ok(o) => o,
        Err(status) => return ExitCode::from(status),
    };
    let code = download_all(&coords, &opened.session, &opened.repositories, || {
        opened.progress.finish()
    });
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}

/// Runs `m2r get` for the repositories a build declares (injected by `session`); returns the
/// exit status.
#[cfg(test)]
pub fn run(args: GetArgs, session: &Session, declared: &[RemoteRepository]) -> i32 {
    let coords = match read_coordinates(&args) {
        Ok(c) => c,
        Err(errors) => {
            errors.iter().for_each(|e| report::error_text(e));
            return EXIT_USAGE;
        }
    };
    let answer = session.repositories(declared);
    for p in &answer.problems {
        report::withheld(p);
    }
    download_all(&coords, session, &answer.repositories, || {})
}

fn download_all(
    coords: &[Artifact],
    session: &Session,
    repositories: &[RemoteRepository],
    done: impl FnOnce(),
) -> i32 {
    let results = session.blocking_download(coords, repositories);
    done();
    let results = match results {
        Ok(r) => r,
        Err(e) => {
            report::error(&e);
            return EXIT_USAGE;
        }
    };
    let mut status = EXIT_OK;
    let mut lines = String::new();
    for (coord, result) in coords.iter().zip(results) {
        match result {
            Ok(a) => {
                lines.push_str(&format!("{}\n", a.path.display()));
                for w in &a.warnings {
                    report::warning(&format!("{coord}: {w}"));
                }
                if !a.is_verified() {
                    status = EXIT_FAILED;
                }
            }
            Err(e) => {
                report::error(&e);
                status = EXIT_FAILED;
            }
        }
    }
    crate::out(&lines);
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
