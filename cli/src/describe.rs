//! `m2r describe`: the artifact descriptor of one coordinate (deps-contract.md).
//!
//! This file owns the arguments and printing the library's renderings; the session reads the
//! descriptor ([`m2resolver::Session::blocking_describe`]) and the rules live in
//! `m2resolver::resolution::pom`.

use crate::options::{self, CommonArgs};
use clap::Args;
use m2resolver::explain::to_canonical_json;
use m2resolver::resolution::pom::view;
use m2resolver::Artifact;
use m2resolver::SessionError;

/// Arguments of `m2r describe`.
#[derive(Args, Debug)]
pub struct DescribeArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Local repository (default: the settings' localRepository, else ~/.m2/repository).
    #[arg(long = "local-repository", value_name = "DIR")]
    local_repository: Option<std::path::PathBuf>,
    /// Answer from the local repository only.
    #[arg(long)]
    offline: bool,
    /// Print the machine-readable document of the dependency contract.
    #[arg(long)]
    json: bool,
    /// Describe a project file instead (its project model, as `m2r tree --pom` reads it).
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "coord",
        required_unless_present = "coord"
    )]
    pom: Option<std::path::PathBuf>,
    /// groupId:artifactId[:extension[:classifier]]:version
    #[arg(value_name = "COORD")]
    coord: Option<String>,
}

/// Runs `m2r describe`; returns the exit status.
pub fn run(args: DescribeArgs) -> u8 {
    let coord = match args.coord.as_deref().map(Artifact::parse) {
        Some(Ok(c)) => Some(c),
        Some(Err(e)) => {
            eprintln!("m2r: {e}");
            return 2;
        }
        None => None,
    };
    let session =
        match options::open_session(&args.common, args.local_repository.as_deref(), args.offline) {
            Ok(s) => s,
            Err(status) => return status,
        };
    let repositories = match options::session_repositories(&session, &args.common) {
        Ok(r) => r,
        Err(status) => return status,
    };
    let (text, status) = match (coord, &args.pom) {
        (Some(coord), _) => match session.blocking_describe(&coord, &repositories) {
            Ok(d) if args.json => (
                to_canonical_json(&view::descriptor_json(&d.descriptor)) + "\n",
                0,
            ),
            Ok(d) => (view::render(&d), 0),
            Err(SessionError::Descriptor { source: e }) => {
                if e.kind().is_some() || !args.json {
                    eprintln!("m2r: {e}");
                }
                let (doc, status) = view::error_json(&e);
                if args.json {
                    (to_canonical_json(&doc) + "\n", status)
                } else {
                    (view::render_error(&e), status)
                }
            }
            Err(e) => {
                crate::tree::report(&e);
                return 1;
            }
        },
        (None, Some(pom)) => match session.blocking_describe_project(pom, &repositories) {
            Ok(d) if args.json => (
                to_canonical_json(&view::descriptor_json(&d.descriptor)) + "\n",
                0,
            ),
            Ok(d) => (view::render(&d), 0),
            Err(SessionError::Project { source: e }) => {
                eprintln!("m2r: {e}");
                for p in &e.problems {
                    eprintln!("  {p}");
                }
                let text = if args.json {
                    to_canonical_json(&view::project_error_json(&e)) + "\n"
                } else {
                    String::new()
                };
                (text, 1)
            }
            Err(e) => {
                crate::tree::report(&e);
                return 1;
            }
        },
        (None, None) => return 2,
    };
    crate::out(&text);
    u8::try_from(status).unwrap_or(1)
}
