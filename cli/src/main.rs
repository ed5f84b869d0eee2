//! `m2r`: a thin command-line shell over the m2resolver library. It parses arguments, builds a
//! `Session` from them (the library captures the process environment) and renders what the
//! session answers; every behaviour lives in the library. One file per subcommand.
// The doc comments of the argument structs are clap's `--help` text, written for a terminal.
#![allow(rustdoc::invalid_html_tags, rustdoc::broken_intra_doc_links)]

mod deploy;
mod describe;
mod encrypt;
mod explain;
mod get;
mod install;
mod lock;
mod options;
mod progress;
mod reactor;
mod report;
mod resolve;
mod tree;
mod versions;
mod why;

use clap::{Parser, Subcommand};

/// The CLI allocates many small objects from several threads at once (POM models, graph
/// nodes); mimalloc halves the time glibc's allocator took on a warm `m2r resolve`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use options::CommonArgs;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "m2r",
    version,
    about = "Maven settings, credentials, repositories and downloads, as Maven does them"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Log what the transport decides (-vv: every request, with the seconds since the start; M2R_LOG, a tracing filter, wins).
    #[arg(short = 'v', long = "log", global = true, action = clap::ArgAction::Count)]
    log: u8,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Show the effective settings and the repositories a build would use, and why.
    Explain {
        #[command(flatten)]
        common: CommonArgs,
        /// Print the machine-readable document of the CLI contract (secrets in clear).
        #[arg(long)]
        json: bool,
        /// Show passwords in the human form.
        #[arg(long)]
        show_secrets: bool,
        /// Also show the deployment repository `ID::URL` (as `m2r deploy --to` takes it): its
        /// credentials, proxy and route, and why no mirror applies.
        #[arg(long, value_name = "ID::URL")]
        deploy_to: Option<String>,
    },
    /// Download artifacts into the local repository through mirrors, proxies and credentials.
    Get {
        #[command(flatten)]
        common: CommonArgs,
        #[command(flatten)]
        download: options::DownloadArgs,
        /// A file with one coordinate per line.
        #[arg(long = "from-file", value_name = "FILE")]
        from_file: Option<std::path::PathBuf>,
        /// groupId:artifactId[:extension[:classifier]]:version
        #[arg(value_name = "COORD")]
        coords: Vec<String>,
    },
    /// The dependency graph Maven resolves for a project or an artifact (like `mvn dependency:tree`).
    Tree(tree::TreeArgs),
    /// Collect the graph, download every artifact in it and print the class path (--locked, --frozen: against m2r.lock).
    Resolve(resolve::ResolveArgs),
    /// Resolve a project and write its lock file (m2r.lock), or Coursier's JSON report.
    Lock(lock::LockArgs),
    /// Every path to an artifact in the dependency graph, and why its version won.
    Why(why::WhyArgs),
    /// Sort versions as Maven Resolver orders them, grouping equal ones.
    Versions(versions::VersionsArgs),
    /// Show the artifact descriptor of a coordinate (its effective POM's dependencies) and why.
    Describe(describe::DescribeArgs),
    /// Install a POM, its file and attachments into the local repository (like `mvn install:install-file`).
    Install(install::InstallArgs),
    /// Deploy a POM, its file and attachments to a remote repository (like `mvn deploy:deploy-file`).
    Deploy(deploy::DeployArgs),
    /// Encrypt a master password for <master> of settings-security.xml (as `mvn --encrypt-master-password`).
    EncryptMasterPassword {
        /// The password; prefer leaving it out: it is then read without echo (or from stdin).
        password: Option<String>,
    },
    /// Encrypt a server or proxy password with the master password (as `mvn --encrypt-password`).
    EncryptPassword {
        /// The password; prefer leaving it out: it is then read without echo (or from stdin).
        password: Option<String>,
        /// settings-security.xml (default: the settings.security property, else ~/.m2/settings-security.xml).
        #[arg(long, value_name = "FILE")]
        security: Option<std::path::PathBuf>,
        /// A property (settings.security, maven.settings.security, user.home, ...).
        #[arg(short = 'D', value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
        defines: Vec<String>,
        /// Maven 4 format with the default dispatcher of settings-security4.xml.
        #[arg(long)]
        maven4: bool,
    },
}

/// The command line with `-D=...` kept whole: clap reads `-D=x` as `-D x`, but Maven's
/// `-D=x` defines a property named `=x` (its option text after `-D` is `=x`).
fn arguments(args: impl IntoIterator<Item = std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let mut out = Vec::new();
    for arg in args {
        match arg.to_str() {
            Some(a) if a.starts_with("-D=") => {
                out.push("-D".into());
                out.push(a[2..].into());
            }
            _ => out.push(arg),
        }
    }
    out
}

fn main() -> ExitCode {
    let cli = Cli::parse_from(arguments(std::env::args_os()));
    init_tracing(cli.log);
    match cli.command {
        Command::Explain {
            common,
            json,
            show_secrets,
            deploy_to,
        } => explain::run(&common, json, show_secrets, deploy_to.as_deref()),
        Command::Get {
            common,
            download,
            from_file,
            coords,
        } => get::command(&common, &download, get::GetArgs { coords, from_file }),
        Command::Tree(args) => ExitCode::from(tree::run(args)),
        Command::Resolve(args) => ExitCode::from(resolve::run(args)),
        Command::Lock(args) => ExitCode::from(lock::run(args)),
        Command::Why(args) => ExitCode::from(why::run(args)),
        Command::Versions(args) => ExitCode::from(u8::try_from(versions::run(args)).unwrap_or(1)),
        Command::Describe(args) => ExitCode::from(describe::run(args)),
        Command::Install(args) => ExitCode::from(install::run(args)),
        Command::Deploy(args) => ExitCode::from(deploy::run(args)),
        Command::EncryptMasterPassword { password } => {
            finish(encrypt::encrypt_master_password(password))
        }
        Command::EncryptPassword {
            password,
            security,
            defines,
            maven4,
        } => finish(encrypt::encrypt_password_command(
            password, security, &defines, maven4,
        )),
    }
}

pub(crate) fn usage_error(message: &str) -> ExitCode {
    report::error_text(message);
    ExitCode::from(2)
}

fn finish(result: Result<String, String>) -> ExitCode {
    match result {
        Ok(value) => {
            out(&format!("{value}\n"));
            ExitCode::SUCCESS
        }
        Err(e) => {
            report::error_text(&e);
            ExitCode::from(1)
        }
    }
}

/// Writes to stdout; a closed pipe (`m2r explain | head`) ends quietly instead of panicking.
pub(crate) fn out(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush());
}

fn init_tracing(verbose: u8) {
    let default = match verbose {
        0 => "warn",
        1 => "warn,m2resolver=debug",
        _ => "warn,m2resolver=trace",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("M2R_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .event_format(Plain {
            verbose,
            start: std::time::Instant::now(),
        })
        .try_init();
}

/// Log lines in the CLI's one style: `warning: ...`, `error: ...` (and, with `-v`, `debug:`
/// lines naming their module; with `-vv`, each line starts with the seconds since the start, to
/// see where the time of a slow run went), the message then its fields.
struct Plain {
    verbose: u8,
    start: std::time::Instant,
}

impl<S, N> tracing_subscriber::fmt::FormatEvent<S, N> for Plain
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    N: for<'a> tracing_subscriber::fmt::FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &tracing_subscriber::fmt::FmtContext<'_, S, N>,
        mut writer: tracing_subscriber::fmt::format::Writer<'_>,
        event: &tracing::Event<'_>,
    ) -> std::fmt::Result {
        let meta = event.metadata();
        let level = match *meta.level() {
            tracing::Level::ERROR => "error",
            tracing::Level::WARN => "warning",
            tracing::Level::INFO => "info",
            tracing::Level::DEBUG => "debug",
            tracing::Level::TRACE => "trace",
        };
        if self.verbose > 1 {
            write!(writer, "{:8.3}s ", self.start.elapsed().as_secs_f64())?;
        }
        write!(writer, "{level}: ")?;
        if self.verbose > 0 {
            write!(writer, "{}: ", meta.target())?;
        }
        ctx.field_format().format_fields(writer.by_ref(), event)?;
        writeln!(writer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn log_level_and_the_tree_verbose_view_are_distinct_flags() {
        let cli = Cli::try_parse_from(["m2r", "-vv", "tree", "--verbose", "g:a:1"]).unwrap();
        assert_eq!(cli.log, 2);
        match cli.command {
            Command::Tree(args) => assert!(args.verbose),
            _ => panic!("tree expected"),
        }
        let cli = Cli::try_parse_from(["m2r", "get", "-v", "g:a:1"]).unwrap();
        assert_eq!(cli.log, 1);
    }

    #[test]
    fn a_define_starting_with_equals_names_a_property_as_maven_does() {
        let args = arguments(["m2r", "explain", "-D=weird", "-Da=b", "-D", "c"].map(Into::into));
        let cli = Cli::try_parse_from(args).unwrap();
        let Command::Explain { common, .. } = cli.command else {
            panic!("explain expected")
        };
        assert_eq!(common.defines, ["=weird", "a=b", "c"]);
        assert_eq!(
            m2resolver::session::parse_define(&common.defines[0]),
            ("=weird".to_string(), "true".to_string())
        );
    }

    #[test]
    fn offline_and_update_snapshots_are_spelled_as_mvn_spells_them() {
        for args in [
            ["m2r", "get", "-o", "-U", "g:a:1"],
            ["m2r", "get", "--offline", "--update-snapshots", "g:a:1"],
        ] {
            let cli = Cli::try_parse_from(args).unwrap();
            let Command::Get { download, .. } = cli.command else {
                panic!("get expected")
            };
            assert!(download.offline && download.update_snapshots);
        }
        for cmd in ["tree", "resolve", "describe"] {
            let cli = Cli::try_parse_from(["m2r", cmd, "-o", "-U", "g:a:1"]).unwrap();
            let _ = cli;
        }
    }

    #[test]
    fn the_log_note_is_one_short_line_in_every_help() {
        let mut cmd = Cli::command();
        cmd.build();
        for sub in ["get", "tree", "resolve", "explain"] {
            let help = cmd
                .find_subcommand_mut(sub)
                .unwrap()
                .render_long_help()
                .to_string();
            assert!(!help.contains("tree --verbose"), "{sub}: {help}");
            let log_lines = help.lines().filter(|l| l.contains("M2R_LOG")).count();
            assert_eq!(log_lines, 1, "{sub}: {help}");
        }
    }
}
