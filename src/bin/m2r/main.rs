//! `m2r`: a thin command-line shell over the m2resolver library. It parses arguments, builds
//! the library's requests from them and the process environment, and prints; every behaviour
//! lives in the library.

mod options;

use clap::{Parser, Subcommand};
use m2resolver::explain::{explain, to_canonical_json};
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
    },
}

fn main() -> ExitCode {
    init_tracing();
    let cli = Cli::parse();
    match cli.command {
        Command::Explain {
            common,
            json,
            show_secrets,
        } => {
            let request = match common.explain_request() {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("m2r: {e}");
                    return ExitCode::from(2);
                }
            };
            let explanation = explain(&request);
            let text = if json {
                to_canonical_json(&explanation.to_json()) + "\n"
            } else {
                explanation.render(show_secrets)
            };
            out(&text);
            if explanation.failed() {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
    }
}

/// Writes to stdout; a closed pipe (`m2r explain | head`) ends quietly instead of panicking.
fn out(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush());
}

fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("M2R_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}
