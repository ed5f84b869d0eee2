//! `m2r install`: install a POM, its main file and attachments into the local repository, as
//! `mvn install:install-file -DpomFile=… -Dfile=…` does (plus attachments, which that goal
//! ignores), and the options `m2r deploy` shares with it.
//!
//! This file owns the arguments and the output: the installed files on stdout, one a line;
//! progress (`progress.rs`) and problems (`report.rs`) on stderr. The rules are the library's
//! ([`m2resolver::publish`]).

use crate::options::{self, CommonArgs, DownloadArgs};
use crate::report;
use clap::Args;
use m2resolver::{Attachment, PublishError, PublishModule, PublishRequest};
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
        let module = PublishModule::from_files(&self.pom, self.file.as_deref(), &attachments)?;
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
    #[command(flatten)]
    download: DownloadArgs,
}

/// Runs `m2r install`; returns the exit status.
pub fn run(args: InstallArgs) -> u8 {
    let request = match args.artifacts.request() {
        Ok(r) => r,
        Err(e) => {
            report::error(&e);
            return 2;
        }
    };
    let opened = match options::open(&args.common, &args.download) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let result = opened.session.blocking_install(&request);
    opened.progress.finish();
    match result {
        Ok(report) => {
            let mut out = String::new();
            for f in &report.files {
                out.push_str(&format!("{}\n", f.path.display()));
            }
            crate::out(&out);
            0
        }
        Err(e) => {
            report::error(&e);
            1
        }
    }
}
