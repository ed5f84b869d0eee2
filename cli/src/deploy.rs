//! `m2r deploy`: deploy a POM, its main file and attachments to a remote repository, as
//! `mvn deploy:deploy-file` does, to `--to ID::URL` or the POM's `distributionManagement`.
//!
//! This file owns the arguments, the progress (a bar on a terminal; otherwise a line when the
//! uploads start and one every 5 seconds) and the output: the URL of every artifact uploaded on
//! stdout; the report of a failed deployment (what reached the server, what did not) and other
//! problems on stderr. The rules are the library's ([`m2resolver::publish`]).

use crate::install::{report_error, ArtifactArgs};
use crate::options::{self, CommonArgs};
use clap::Args;
use indicatif::{HumanBytes, ProgressBar, ProgressStyle};
use m2resolver::printable::escape_for_terminal;
use m2resolver::publish::{alt_deployment_repository, FileKind, PublishListener};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

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
    /// Local repository (Maven records the deployed metadata there; parents are read from it).
    #[arg(long = "local-repository", value_name = "DIR")]
    local_repository: Option<PathBuf>,
    /// Refuse to deploy (as Maven does offline).
    #[arg(long)]
    offline: bool,
    /// Uploads in flight.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Read one uploaded checksum back before the metadata is changed (catches a server that
    /// answers 200 but stores nothing).
    #[arg(long)]
    verify: bool,
}

/// Progress of the uploads: a bar on a terminal, else a line every 5 seconds.
struct Progress {
    bar: Option<ProgressBar>,
    files: AtomicU64,
    total: AtomicU64,
    bytes: AtomicU64,
    done: Arc<AtomicBool>,
}

impl PublishListener for Progress {
    fn planned(&self, files: usize, bytes: u64) {
        self.total.store(files as u64, Ordering::Relaxed);
        match &self.bar {
            Some(b) => b.set_length(files as u64),
            None => eprintln!("m2r: uploading {files} files ({})", HumanBytes(bytes)),
        }
    }
    fn sent(&self, bytes: u64) {
        let total = self.bytes.fetch_add(bytes, Ordering::Relaxed) + bytes;
        if let Some(b) = &self.bar {
            b.set_message(format!("{}", HumanBytes(total)));
        }
    }
    fn finished(&self, path: &str, _ok: bool) {
        self.files.fetch_add(1, Ordering::Relaxed);
        if let Some(b) = &self.bar {
            b.inc(1);
            b.set_prefix(path.rsplit('/').next().unwrap_or(path).to_string());
        }
    }
}

/// Runs `m2r deploy`; returns the exit status.
pub fn run(args: DeployArgs) -> u8 {
    let request = match args.artifacts.request() {
        Ok(r) => r,
        Err(e) => {
            report_error(&e);
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
            report_error(&e);
            return 2;
        }
    };
    let session = match options::open_session_with(
        &args.common,
        args.local_repository.as_deref(),
        args.offline,
        |mut b| {
            if let Some(n) = args.threads {
                b = b.max_in_flight(n);
            }
            b
        },
    ) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let repository = match alt {
        Some((repo, warning)) => {
            if let Some(w) = warning {
                eprintln!("warning: {w}");
            }
            repo
        }
        None => {
            let declared = match options::session_repositories(&session, &args.common) {
                Ok(r) => r,
                Err(code) => return code,
            };
            let version = request.modules[0].version.clone();
            match session.blocking_project_deployment_repository(
                &args.artifacts.pom,
                &version,
                &declared,
            ) {
                Ok(r) => r,
                Err(e) => {
                    report_error(&e);
                    return 1;
                }
            }
        }
    };
    let mut opts = match session.deploy_options(&repository.id) {
        Ok(o) => o,
        Err(e) => {
            report_error(&e);
            return 2;
        }
    };
    opts.verify = args.verify;
    let terminal = std::io::stderr().is_terminal();
    let progress = Arc::new(Progress {
        bar: terminal.then(|| {
            let pb = ProgressBar::new(0);
            pb.set_style(
                ProgressStyle::with_template(
                    "{spinner} uploading [{bar:30}] {pos}/{len} files {msg} {prefix} {elapsed}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            pb.enable_steady_tick(Duration::from_millis(120));
            pb
        }),
        files: AtomicU64::new(0),
        total: AtomicU64::new(0),
        bytes: AtomicU64::new(0),
        done: Arc::new(AtomicBool::new(false)),
    });
    opts.listener = Some(progress.clone());
    let ticker = (!terminal).then(|| {
        let p = progress.clone();
        std::thread::spawn(move || {
            let mut waited = Duration::ZERO;
            while !p.done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                waited += Duration::from_millis(100);
                if waited >= Duration::from_secs(5) {
                    waited = Duration::ZERO;
                    eprintln!(
                        "m2r: {}/{} files uploaded ({})",
                        p.files.load(Ordering::Relaxed),
                        p.total.load(Ordering::Relaxed),
                        HumanBytes(p.bytes.load(Ordering::Relaxed))
                    );
                }
            }
        })
    });
    let result = session.blocking_deploy(&request, &repository, &opts);
    progress.done.store(true, Ordering::Relaxed);
    if let Some(t) = ticker {
        let _ = t.join();
    }
    if let Some(b) = &progress.bar {
        b.finish_and_clear();
    }
    match result {
        Ok(report) => {
            for w in &report.warnings {
                eprintln!("warning: {}", escape_for_terminal(w));
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
            report_error(&e);
            if let Some(r) = e.report() {
                eprint!("{}", escape_for_terminal(&r.render()));
            }
            1
        }
    }
}
