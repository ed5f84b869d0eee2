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
mod options;
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
    /// Log what the transport decides (routes tried, proxy challenges, schemes); -vv logs every request. M2R_LOG (a tracing filter) wins.
    /// (`tree --verbose` is the tree's own flag: Maven's `-Dverbose` view.)
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
        /// Local repository (default: the settings' localRepository, else ~/.m2/repository).
        #[arg(long = "local-repository", value_name = "DIR")]
        local_repository: Option<std::path::PathBuf>,
        /// Answer from the local repository only.
        #[arg(long)]
        offline: bool,
        /// HTTP requests in flight.
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
        /// A file with one coordinate per line.
        #[arg(long = "from-file", value_name = "FILE")]
        from_file: Option<std::path::PathBuf>,
        /// groupId:artifactId[:extension[:classifier]]:version
        #[arg(value_name = "COORD")]
        coords: Vec<String>,
    },
    /// The dependency graph Maven resolves for a project or an artifact (like `mvn dependency:tree`).
    Tree(tree::TreeArgs),
    /// Collect the graph, download every artifact in it and print the class path.
    Resolve(resolve::ResolveArgs),
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

fn main() -> ExitCode {
    let cli = Cli::parse();
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
            local_repository,
            offline,
            threads,
            from_file,
            coords,
        } => {
            let args = get::GetArgs {
                coords,
                from_file,
                threads,
            };
            get::command(&common, local_repository, offline, args)
        }
        Command::Tree(args) => ExitCode::from(tree::run(args)),
        Command::Resolve(args) => ExitCode::from(resolve::run(args)),
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
    eprintln!("m2r: {message}");
    ExitCode::from(2)
}

fn finish(result: Result<String, String>) -> ExitCode {
    match result {
        Ok(value) => {
            out(&format!("{value}\n"));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("m2r: {e}");
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
        .try_init();
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
}
