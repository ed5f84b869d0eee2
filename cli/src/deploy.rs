//! `m2r deploy`: deploy a POM, its main file and attachments to a remote repository, as
//! `mvn deploy:deploy-file` does, to `--to ID::URL` or the POM's `distributionManagement`.
//!
//! This file owns the arguments and the output: the URL of every artifact uploaded on stdout;
//! on stderr the progress (`progress.rs`: the `deploying` phase, files of the total, bytes
//! sent), problems (`report.rs`) and the report of a failed deployment (what reached the
//! server, what did not). The rules are the library's ([`m2resolver::publish`]).

use crate::install::ArtifactArgs;
use crate::options::{self, CommonArgs, DownloadArgs};
use crate::report;
use clap::Args;
use m2resolver::printable::escape_for_terminal;
use m2resolver::publish::{alt_deployment_repository, FileKind};

/// Arguments of `m2r deploy`.
#[derive(Args, Debug)]
pub struct DeployArgs {
    #[command(flatten)]
    common: CommonArgs,
    #[command(flatten)]
    artifacts: ArtifactArgs,
    /// The deployment repository, `ID::URL` (credentials from the <server> with that id; the
    /// legacy `ID::default::URL` is accepted). Default: the POM's distributionManagement.
    #[arg(long, value_name = "ID::URL")]
    to: Option<String>,
    /// Local repository (Maven records the deployed metadata there; parents are read from it),
    /// offline (refuses to deploy, as Maven does), uploads in flight (`--threads`), `-q`.
    #[command(flatten)]
    download: DownloadArgs,
    /// Read one uploaded checksum back before the metadata is changed (catches a server that
    /// answers 200 but stores nothing).
    #[arg(long)]
    verify: bool,
}

/// Runs `m2r deploy`; returns the exit status.
pub fn run(args: DeployArgs) -> u8 {
    let request = match args.artifacts.request() {
        Ok(r) => r,
        Err(e) => {
            report::error(&e);
            return 2;
        }
    };
    let alt = match args
        .to
        .as_deref()
        .map(alt_deployment_repository)
        .transpose()
    {
        Ok(a) => a,
        Err(e) => {
            report::error(&e);
            return 2;
        }
    };
    let opened = match options::open(&args.common, &args.download) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let session = &opened.session;
    let repository = match alt {
        Some((repo, warning)) => {
            if let Some(w) = warning {
                report::warning(&w);
            }
            repo
        }
        None => {
            let version = request.modules[0].version.clone();
            match session.blocking_project_deployment_repository(
                &args.artifacts.pom,
                &version,
                &opened.repositories,
            ) {
                Ok(r) => r,
                Err(e) => {
                    opened.progress.finish();
                    report::error(&e);
                    return 1;
                }
            }
        }
    };
    let mut opts = match session.deploy_options(&repository.id) {
        Ok(o) => o,
        Err(e) => {
            opened.progress.finish();
            report::error(&e);
            return 2;
        }
    };
    opts.verify = args.verify;
    let result = session.blocking_deploy(&request, &repository, &opts);
    opened.progress.finish();
    match result {
        Ok(report) => {
            for w in &report.warnings {
                report::warning(w);
            }
            let mut out = String::new();
            for u in report.uploaded().filter(|u| u.kind == FileKind::Artifact) {
                let url = match repository.url.resolve(&u.path) {
                    Ok(mut url) => {
                        let _ = url.set_username("");
                        let _ = url.set_password(None);
                        url.to_string()
                    }
                    Err(_) => u.path.clone(),
                };
                out.push_str(&format!("{}\n", escape_for_terminal(&url)));
            }
            crate::out(&out);
            for m in &report.modules {
                eprintln!(
                    "m2r: deployed {} to `{}` ({}){}",
                    m.gav,
                    report.repository,
                    report.url,
                    m.build_number
                        .map(|_| format!(" as {}", m.version))
                        .unwrap_or_default()
                );
            }
            0
        }
        Err(e) => {
            report::error(&e);
            if let Some(r) = e.deploy_report() {
                eprint!("{}", escape_for_terminal(&r.render()));
            }
            1
        }
    }
}
