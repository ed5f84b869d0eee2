//! Options shared by the commands, handed to the library's [`SessionBuilder`] as they are:
//! every Maven rule (`-D` parsing, default settings locations, the local repository choice,
//! offline, `-U`) lives in `m2resolver::session`.
//!
//! One default repository rule for every command: the repositories a build declares are the
//! `--repo` ones, else the super POM's `central` (as Maven's super POM declares it), and the
//! session puts the active settings profiles' repositories in front of them. (`explain --json`
//! is the CLI contract's document, equal to real Maven's: it lists only what was declared.)

use crate::progress::Progress;
use crate::report;
use clap::Args;
use m2resolver::{RemoteRepository, Session, SessionBuilder};
use std::path::PathBuf;
use std::sync::Arc;

/// Settings, properties, profiles and repositories of one build.
#[derive(Args, Debug, Clone)]
pub struct CommonArgs {
    /// User settings (default ~/.m2/settings.xml); a missing file counts as empty.
    #[arg(long, short = 's', value_name = "FILE")]
    pub settings: Option<PathBuf>,
    /// Global settings (default ${maven.home}/conf/settings.xml when maven.home or M2_HOME is known).
    #[arg(long = "global-settings", visible_alias = "gs", value_name = "FILE")]
    pub global_settings: Option<PathBuf>,
    /// Maven 4 project settings (.mvn/settings.xml).
    #[arg(long = "project-settings", value_name = "FILE")]
    pub project_settings: Option<PathBuf>,
    /// settings-security.xml (default: the settings.security property, else ~/.m2/settings-security.xml).
    #[arg(long, value_name = "FILE")]
    pub security: Option<PathBuf>,
    /// Profiles to activate (`id`, `+id`) or deactivate (`!id`, `-id`), comma-separated.
    #[arg(short = 'P', value_name = "IDS", action = clap::ArgAction::Append, allow_hyphen_values = true)]
    pub profiles: Vec<String>,
    /// A user property (also a system property); `-Dkey` means key=true.
    #[arg(short = 'D', value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    pub defines: Vec<String>,
    /// A repository the build declares (like a POM's <repositories>), in order (default: Maven's central).
    #[arg(long = "repo", value_name = "ID=URL", action = clap::ArgAction::Append)]
    pub repos: Vec<String>,
    /// Maven 4: let servers answer to their <aliases> ids too (Maven 3 ignores aliases).
    #[arg(long)]
    pub server_aliases: bool,
    /// Do not take proxies from HTTP(S)_PROXY / ALL_PROXY / NO_PROXY or JVM-style properties.
    #[arg(long)]
    pub no_env_proxy: bool,
    /// Also take JVM proxy properties (-Dhttps.proxyHost=...) from MAVEN_OPTS and .mvn/jvm.config.
    #[arg(long)]
    pub jvm_proxy_options: bool,
    /// Do not read credentials from ~/.netrc (or $NETRC) for repositories without a <server>.
    #[arg(long)]
    pub no_netrc: bool,
    /// Do not run credential helpers (<server><configuration><credentialHelper>, M2R_CREDENTIAL_HELPER).
    #[arg(long)]
    pub no_credential_helper: bool,
}

/// Options of the commands that download (`get`, `describe`, `tree`, `resolve`, `why`).
#[derive(Args, Debug, Clone, Default)]
pub struct DownloadArgs {
    /// Local repository (default: the settings' localRepository, else ~/.m2/repository).
    #[arg(long = "local-repository", value_name = "DIR")]
    pub local_repository: Option<PathBuf>,
    /// Work offline: answer from the local repository only (as mvn -o).
    #[arg(short = 'o', long)]
    pub offline: bool,
    /// Force update checks (as mvn -U): metadata is checked again and cached not-found results are retried.
    #[arg(short = 'U', long = "update-snapshots")]
    pub update_snapshots: bool,
    /// HTTP requests in flight (default 256: two HTTP/2 connections' worth of streams).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// No progress display on stderr.
    #[arg(short = 'q', long)]
    pub quiet: bool,
}

impl CommonArgs {
    /// Checks the file options: an error for one that is not a regular file, a notice for each
    /// that does not exist.
    pub fn check_files(&self) -> Result<Vec<String>, String> {
        let mut notices = Vec::new();
        for (option, file) in [
            ("--settings", &self.settings),
            ("--global-settings", &self.global_settings),
            ("--project-settings", &self.project_settings),
            ("--security", &self.security),
        ] {
            if let Some(file) = file {
                notices.extend(m2resolver::bounded::check_input_file(option, file)?);
            }
        }
        Ok(notices)
    }

    /// The session builder for these options (the process environment is captured when it
    /// is built).
    pub fn session_builder(&self) -> SessionBuilder {
        let mut b = Session::builder()
            .env_proxies(!self.no_env_proxy)
            .jvm_proxy_options(self.jvm_proxy_options)
            .netrc(!self.no_netrc)
            .credential_helpers(!self.no_credential_helper)
            .server_aliases(self.server_aliases);
        if let Some(p) = &self.settings {
            b = b.user_settings(p.clone());
        }
        if let Some(p) = &self.global_settings {
            b = b.global_settings(p.clone());
        }
        if let Some(p) = &self.project_settings {
            b = b.project_settings(p.clone());
        }
        if let Some(p) = &self.security {
            b = b.security_file(p.clone());
        }
        for d in &self.defines {
            b = b.define(d);
        }
        for p in &self.profiles {
            b = b.profiles(p);
        }
        b
    }

    /// The repositories given with `--repo ID=URL`, in order.
    pub fn declared(&self) -> Result<Vec<RemoteRepository>, String> {
        self.repos
            .iter()
            .map(|spec| match spec.split_once('=') {
                Some((id, url)) if !id.is_empty() => Ok(RemoteRepository::new(id, url)),
                _ => Err(format!("--repo expects ID=URL, got `{spec}`")),
            })
            .collect()
    }

    /// The repositories the build declares: `--repo`, else Maven's super POM `central`
    /// (releases only). `Err` is the exit status after a message.
    pub fn declared_or_central(&self) -> Result<Vec<RemoteRepository>, u8> {
        let declared = self.declared().map_err(|e| {
            report::error_text(&e);
            2u8
        })?;
        Ok(if declared.is_empty() {
            vec![RemoteRepository::central()]
        } else {
            declared
        })
    }
}

/// Prints the notices of the file options (as warnings); `Err` is the exit status of a file
/// option that is not a regular file.
pub fn check_files(common: &CommonArgs) -> Result<(), u8> {
    match common.check_files() {
        Ok(notices) => {
            notices.iter().for_each(|n| report::warning(n));
            Ok(())
        }
        Err(e) => {
            report::error_text(&e);
            Err(2)
        }
    }
}

/// A session of a command that downloads, its repositories, and its progress display.
pub struct Opened {
    /// The session.
    pub session: Session,
    /// The declared repositories (`--repo`, else central) injected by the session.
    pub repositories: Vec<RemoteRepository>,
    /// The progress display (call [`Progress::finish`] before printing the answer).
    pub progress: Arc<Progress>,
}

/// The session of a command that downloads: `--offline`, `-U`, `--threads` and
/// `--local-repository` over the settings' choices, the progress display, the repositories.
/// Notices and the session's problems go to stderr; `Err` is the exit status (2: bad options,
/// 1: the settings could not be built).
pub fn open(common: &CommonArgs, download: &DownloadArgs) -> Result<Opened, u8> {
    check_files(common)?;
    let declared = common.declared_or_central()?;
    let progress = Progress::new(download.quiet);
    let mut builder = common
        .session_builder()
        .offline(download.offline)
        .update_snapshots(download.update_snapshots)
        .progress_listener(progress.clone());
    if let Some(n) = download.threads.filter(|n| *n > 0) {
        builder = builder.max_in_flight(n);
    }
    if let Some(dir) = &download.local_repository {
        builder = builder.local_repository(dir);
    }
    let session = match builder.build() {
        Ok(session) => session,
        Err(e) => {
            progress.finish();
            for p in e.problems() {
                report::settings_problem(p);
            }
            if e.problems().is_empty() {
                report::error(&e);
            } else {
                report::error_text("the settings could not be built; `m2r explain` shows why");
            }
            return Err(1);
        }
    };
    for p in session.problems() {
        report::settings_problem(p);
    }
    for w in session.source_warnings() {
        report::warning(&w);
    }
    if let Err(e) = session.checksum_algorithms() {
        progress.finish();
        report::error(&e);
        return Err(2);
    }
    let answer = session.repositories(&declared);
    for p in &answer.problems {
        report::withheld(p);
    }
    Ok(Opened {
        session,
        repositories: answer.repositories,
        progress,
    })
}
