//! `m2r describe`: the artifact descriptor of one coordinate (deps-contract.md).
//!
//! This file owns the arguments and printing the library's renderings; the session reads the
//! descriptor ([`m2resolver::Session::blocking_describe`]) and the rules live in
//! `m2resolver::resolution::pom`. The description goes to stdout; a descriptor that cannot be
//! read (its POM not found, invalid, a parent or BOM missing) is an error on stderr and exit 1
//! in the human form, and the contract's document with `--json`.

use crate::options::{self, CommonArgs, DownloadArgs};
use crate::report;
use clap::Args;
use m2resolver::explain::to_canonical_json;
use m2resolver::resolution::pom::view;
use m2resolver::{Artifact, SessionError};

/// Arguments of `m2r describe`.
#[derive(Args, Debug)]
pub struct DescribeArgs {
    #[command(flatten)]
    common: CommonArgs,
    #[command(flatten)]
    download: DownloadArgs,
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
            report::error(&e);
            return 2;
        }
        None => None,
    };
    let opened = match options::open(&args.common, &args.download) {
        Ok(o) => o,
        Err(status) => return status,
    };
    let (session, repositories) = (&opened.session, &opened.repositories);
    let answer = match (&coord, &args.pom) {
        (Some(coord), _) => session.blocking_describe(coord, repositories),
        (None, Some(pom)) => session.blocking_describe_project(pom, repositories),
        (None, None) => return 2,
    };
    opened.progress.finish();
    let (text, status) = match answer {
        Ok(d) if args.json => (
            to_canonical_json(&view::descriptor_json(&d.descriptor)) + "\n",
            0,
        ),
        Ok(d) => (view::render(&d), 0),
        Err(SessionError::Descriptor { source: e }) => {
            let (doc, status) = view::error_json(&e);
            if args.json {
                // The contract's document (a missing or invalid POM is Maven's answer, status 0).
                if status == 0 {
                    report::warning(&m2resolver::printable::error_chain(e.as_ref()));
                } else {
                    report::error(e.as_ref());
                }
                (to_canonical_json(&doc) + "\n", status)
            } else {
                report::error(e.as_ref());
                for p in e.problems() {
                    report::error_text(&format!("  {p}"));
                }
                (String::new(), 1)
            }
        }
        Err(SessionError::Project { source: e }) => {
            report::error(e.as_ref());
            for p in &e.problems {
                report::error_text(&format!("  {p}"));
            }
            let text = if args.json {
                to_canonical_json(&view::project_error_json(&e)) + "\n"
            } else {
                String::new()
            };
            (text, 1)
        }
        Err(e) => {
            crate::tree::report_failure(&e);
            return 1;
        }
    };
    crate::out(&text);
    u8::try_from(status).unwrap_or(1)
}
