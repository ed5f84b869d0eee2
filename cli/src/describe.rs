//! `m2r describe`: the artifact descriptor of one coordinate (deps-contract.md).
//!
//! This file owns the arguments, turning them into the library's requests (settings →
//! repositories and selectors, the downloader, the [`DescriptorReader`]) and printing the
//! library's renderings; the rules live in `m2resolver::resolution::pom`.

use crate::options::{self, CommonArgs};
use clap::Args;
use m2resolver::download::{Coordinate, Resolver};
use m2resolver::explain::to_canonical_json;
use m2resolver::printable::escape_for_terminal;
use m2resolver::resolution::pom::{view, DescriptorReader};
use m2resolver::resolution::Artifact;
use std::collections::HashMap;

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
    let coord = match args.coord.as_deref().map(Coordinate::parse) {
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
    let declared = match options::declared_or_central(&args.common) {
        Ok(d) => d,
        Err(status) => return status,
    };
    let answer = session.repositories(&declared);
    for p in &answer.problems {
        eprintln!("{}", escape_for_terminal(&p.to_string()));
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("m2r: cannot start the async runtime: {e}");
            return 1;
        }
    };
    let config = session.resolver_config(answer.repositories.clone());
    let resolver = {
        let _guard = runtime.enter();
        match Resolver::new(config) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("m2r: {e}");
                return 1;
            }
        }
    };
    let reader = DescriptorReader::new(
        resolver,
        session.selectors(),
        HashMap::clone(&session.environment().system_properties),
        HashMap::clone(session.user_properties()),
    );
    let (text, status) = match (coord, &args.pom) {
        (Some(coord), _) => {
            let artifact = Artifact::new(
                coord.group_id,
                coord.artifact_id,
                coord.extension,
                coord.classifier,
                coord.version,
            );
            let result = runtime.block_on(reader.describe(&artifact, &answer.repositories));
            match &result {
                Ok(d) if args.json => (
                    to_canonical_json(&view::descriptor_json(&d.descriptor)) + "\n",
                    0,
                ),
                Ok(d) => (view::render(d), 0),
                Err(e) => {
                    if e.kind().is_some() || !args.json {
                        eprintln!("m2r: {e}");
                    }
                    let (doc, status) = view::error_json(e);
                    if args.json {
                        (to_canonical_json(&doc) + "\n", status)
                    } else {
                        (view::render_error(e), status)
                    }
                }
            }
        }
        (None, Some(pom)) => {
            let pom = session.environment().cwd.join(pom);
            match runtime.block_on(reader.build_project(&pom, &answer.repositories)) {
                Ok(d) if args.json => (
                    to_canonical_json(&view::descriptor_json(&d.descriptor)) + "\n",
                    0,
                ),
                Ok(d) => (view::render(&d), 0),
                Err(e) => {
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
            }
        }
        (None, None) => return 2,
    };
    crate::out(&text);
    u8::try_from(status).unwrap_or(1)
}
