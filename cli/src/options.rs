//! Options shared by `m2r explain` and `m2r get`, handed to the library's
//! [`SessionBuilder`] as they are: every Maven rule (`-D` parsing, default settings
//! locations, the local repository choice, offline) lives in `m2resolver::session`.

use clap::Args;
use m2resolver::printable::escape_for_terminal;
use m2resolver::repository::RemoteRepository;
use m2resolver::{Session, SessionBuilder};
use std::path::{Path, PathBuf};

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
    /// A repository the build declares (like a POM's <repositories>), in order.
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
}

/// The session of a command that downloads (`get`, `tree`, `resolve`, `why`, `describe`):
/// `--offline` and `--local-repository` over the settings' choices. Notices and the session's
/// problems go to stderr; `Err` is the exit status (2: bad options, 1: the settings could not
/// be built).
pub fn open_session(
    common: &CommonArgs,
    local_repository: Option<&Path>,
    offline: bool,
) -> Result<Session, u8> {
    open_session_with(common, local_repository, offline, |b| b)
}

/// [`open_session`] with more choices made on the builder (`--threads`, a progress bar).
pub fn open_session_with(
    common: &CommonArgs,
    local_repository: Option<&Path>,
    offline: bool,
    adjust: impl FnOnce(SessionBuilder) -> SessionBuilder,
) -> Result<Session, u8> {
    match common.check_files() {
        Ok(notices) => notices.iter().for_each(|n| eprintln!("m2r: {n}")),
        Err(e) => {
            eprintln!("m2r: {e}");
            return Err(2);
        }
    }
    let mut builder = adjust(common.session_builder().offline(offline));
    if let Some(dir) = local_repository {
        builder = builder.local_repository(dir);
    }
    match builder.build() {
        Ok(session) => {
            for p in session.problems() {
                eprintln!("{}", escape_for_terminal(&p.to_string()));
            }
            for w in session.source_warnings() {
                eprintln!("m2r: warning: {}", escape_for_terminal(&w));
            }
            Ok(session)
        }
        Err(e) => {
            for p in e.problems() {
                eprintln!("{}", escape_for_terminal(&p.to_string()));
            }
            eprintln!("m2r: the settings could not be built; run `m2r explain` for details");
            Err(1)
        }
    }
}

/// The `--repo` repositories, else Maven's super POM `central` (releases only); `Err` is the
/// exit status after a message.
pub fn declared_or_central(common: &CommonArgs) -> Result<Vec<RemoteRepository>, u8> {
    let declared = common.declared().map_err(|e| {
        eprintln!("m2r: {e}");
        2u8
    })?;
    Ok(if declared.is_empty() {
        vec![RemoteRepository::central()]
    } else {
        declared
    })
}

/// The repositories of a command that reads POMs: `--repo` (else central) injected by the
/// session; their problems (credentials that cannot be decrypted) go to stderr.
pub fn session_repositories(
    session: &Session,
    common: &CommonArgs,
) -> Result<Vec<RemoteRepository>, u8> {
    let declared = declared_or_central(common)?;
    let answer = session.repositories(&declared);
    for p in &answer.problems {
        eprintln!("{}", escape_for_terminal(&p.to_string()));
    }
    Ok(answer.repositories)
}
