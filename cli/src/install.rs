//! `m2r install`: install a POM, its main file and attachments into the local repository, as
//! `mvn install:install-file -DpomFile=… -Dfile=…` does (plus attachments, which that goal
//! ignores), and the options `m2r deploy` shares with it.
//!
//! This file owns the arguments and the output: the installed files on stdout, one a line;
//! problems on stderr. The rules are the library's ([`m2resolver::publish`]).

use crate::options::{self, CommonArgs};
use clap::Args;
use m2resolver::printable::escape_for_terminal;
use m2resolver::publish::{Attachment, Module, PublishError, PublishRequest};
use std::path::PathBuf;

/// What is published: a POM, its main file, attachments.
#[derive(Args, Debug, Clone)]
pub struct ArtifactArgs {
    /// The POM: its groupId, artifactId, version and packaging (as written; a parent's groupId
    /// and version count). Packaging `pom` publishes the POM alone.
    #[arg(long, value_name = "POM")]
    pub pom: PathBuf,
    /// The main file (its extension is the file name's; the packaging may give a classifier).
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// An attached file; EXTENSION is an artifact type as Maven's `types` takes it (test-jar,
    /// java-source, javadoc, ejb-client and maven-plugin mean jar). Repeatable.
    #[arg(long = "attach", value_name = "FILE:CLASSIFIER:EXTENSION", action = clap::ArgAction::Append)]
    pub attach: Vec<String>,
}

impl ArtifactArgs {
    /// The request these arguments describe.
    pub fn request(&self) -> Result<PublishRequest, PublishError> {
        let attachments = self
            .attach
            .iter()
            .map(|a| Attachment::parse(a))
            .collect::<Result<Vec<_>, _>>()?;
        let module = Module::from_files(&self.pom, self.file.as_deref(), &attachments)?;
        Ok(PublishRequest::module(module))
    }
}

/// Arguments of `m2r install`.
#[derive(Args, Debug)]
pub struct InstallArgs {
    #[command(flatten)]
    common: CommonArgs,
    #[command(flatten)]
    artifacts: ArtifactArgs,
    /// Local repository (default: the settings' localRepository, else ~/.m2/repository).
    #[arg(long = "local-repository", value_name = "DIR")]
    local_repository: Option<PathBuf>,
}

/// Prints an error and its causes, each once (a cause whose text the message already holds is
/// not repeated).
pub fn report_error(e: &(dyn std::error::Error + 'static)) {
    let mut printed = e.to_string();
    eprintln!("m2r: {}", escape_for_terminal(&printed));
    let mut cause = e.source();
    while let Some(c) = cause {
        let text = c.to_string();
        if !printed.contains(&text) {
            eprintln!("  caused by: {}", escape_for_terminal(&text));
            printed.push_str(&text);
        }
        cause = c.source();
    }
}

/// Runs `m2r install`; returns the exit status.
pub fn run(args: InstallArgs) -> u8 {
    let request = match args.artifacts.request() {
        Ok(r) => r,
        Err(e) => {
            report_error(&e);
            return 2;
        }
    };
    let session = match options::open_session(&args.common, args.local_repository.as_deref(), false)
    {
        Ok(s) => s,
        Err(code) => return code,
    };
    match session.blocking_install(&request) {
        Ok(report) => {
            let mut out = String::new();
            for f in &report.files {
                out.push_str(&format!("{}\n", f.path.display()));
            }
            crate::out(&out);
            0
        }
        Err(e) => {
            report_error(&e);
            1
        }
    }
}
