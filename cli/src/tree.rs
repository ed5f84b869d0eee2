//! `m2r tree`: the dependency graph Maven resolves for a project or an artifact
//! (deps-contract.md), and the options `m2r resolve` and `m2r why` share with it.
//!
//! A `--pom` that aggregates modules is a reactor: `crate::reactor` prints it.
//!
//! This file owns the arguments and printing; the session collects
//! ([`Session::blocking_collect`]), and collection, conflict resolution and the renderings
//! live in `m2resolver::resolution::collect`.

use crate::options::{self, CommonArgs};
use crate::reactor::{self, Reactor};
use clap::Args;
use m2resolver::download::{Coordinate, ProgressListener};
use m2resolver::explain::to_canonical_json;
use m2resolver::repository::RemoteRepository;
use m2resolver::resolution::collect::project::Root;
use m2resolver::resolution::collect::{view, CollectResult};
use m2resolver::{Session, SessionError};
use std::path::PathBuf;
use std::sync::Arc;

/// Options every graph command shares.
#[derive(Args, Debug, Clone)]
pub struct GraphArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// Local repository (default: the settings' localRepository, else ~/.m2/repository).
    #[arg(long = "local-repository", value_name = "DIR")]
    pub local_repository: Option<PathBuf>,
    /// Answer from the local repository only.
    #[arg(long)]
    pub offline: bool,
    /// HTTP requests in flight.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

/// Arguments of `m2r tree`.
#[derive(Args, Debug)]
pub struct TreeArgs {
    #[command(flatten)]
    graph: GraphArgs,
    /// Print the machine-readable document of the dependency contract.
    #[arg(long)]
    json: bool,
    /// Also show the dependencies left out and why (conflict losers, exclusions, scopes).
    #[arg(long)]
    pub(crate) verbose: bool,
    /// The project file.
    #[arg(long, value_name = "FILE", conflicts_with = "coord")]
    pom: Option<PathBuf>,
    /// groupId:artifactId[:extension[:classifier]]:version
    #[arg(value_name = "COORD", required_unless_present = "pom")]
    coord: Option<String>,
}

/// Opens the session of a graph command (`--threads`, the progress `listener`) and the
/// repositories it starts from; `Err` is the exit status after a message.
pub fn open(
    args: &GraphArgs,
    listener: Option<Arc<dyn ProgressListener>>,
) -> Result<(Session, Vec<RemoteRepository>), u8> {
    let session = options::open_session_with(
        &args.common,
        args.local_repository.as_deref(),
        args.offline,
        |mut b| {
            if let Some(n) = args.threads {
                b = b.max_in_flight(n);
            }
            if let Some(l) = listener {
                b = b.progress_listener(l);
            }
            b
        },
    )?;
    let repositories = options::session_repositories(&session, &args.common)?;
    Ok((session, repositories))
}

/// Parses a coordinate into the root artifact.
pub fn root_of(coord: Option<&str>, pom: Option<&PathBuf>) -> Result<Root, u8> {
    if let Some(p) = pom {
        return Ok(Root::Pom(p.clone()));
    }
    let c = Coordinate::parse(coord.unwrap_or_default()).map_err(|e| {
        eprintln!("m2r: {e}");
        2u8
    })?;
    Ok(Root::Artifact(c.into()))
}

/// The graph of the root (`--pom FILE` or COORD) of a graph command, also when collection
/// failed (the errors are in it), or why there is none; `Err` is the exit status of a usage or
/// set-up error, already printed.
pub fn collect_graph(
    graph: &GraphArgs,
    coord: Option<&str>,
    pom: Option<&PathBuf>,
) -> Result<Result<CollectResult, SessionError>, u8> {
    let root = root_of(coord, pom)?;
    let (session, repositories) = open(graph, None)?;
    Ok(match session.blocking_collect(&root, &repositories) {
        Err(SessionError::Collect { result, .. }) => Ok(*result),
        other => other,
    })
}

/// Prints why a session could not answer (no graph, no descriptor).
pub fn report(e: &SessionError) {
    match e {
        SessionError::Root { source } => {
            for e in &source.errors {
                eprintln!("m2r: {e}");
            }
        }
        SessionError::Downloader { source } => eprintln!("m2r: {source}"),
        e => eprintln!("m2r: {e}"),
    }
}

/// Runs `m2r tree`; returns the exit status.
pub fn run(args: TreeArgs) -> u8 {
    let collected = match &args.pom {
        // An aggregator: every project of the reactor (crate::reactor).
        Some(pom) => {
            let (session, repositories) = match open(&args.graph, None) {
                Ok(s) => s,
                Err(code) => return code,
            };
            match reactor::read(&session, pom, &repositories, args.json) {
                Reactor::Modules(ws) => {
                    return reactor::tree(&session, &ws, &repositories, args.json, args.verbose)
                }
                Reactor::Failed(code) => return code,
                Reactor::Single => {
                    match session.blocking_collect(&Root::Pom(pom.clone()), &repositories) {
                        Err(SessionError::Collect { result, .. }) => Ok(*result),
                        other => other,
                    }
                }
            }
        }
        None => match collect_graph(&args.graph, args.coord.as_deref(), None) {
            Ok(c) => c,
            Err(code) => return code,
        },
    };
    match collected {
        Ok(result) => {
            for p in &result.problems {
                eprintln!("warning: {p}");
            }
            for e in &result.errors {
                eprintln!("m2r: {e}");
            }
            let text = if args.json {
                to_canonical_json(&view::tree_json(&result)) + "\n"
            } else {
                view::render_tree(&result, args.verbose)
            };
            crate::out(&text);
            u8::from(!result.errors.is_empty())
        }
        Err(e) => {
            report(&e);
            if let (true, SessionError::Root { source }) = (args.json, &e) {
                crate::out(&(to_canonical_json(&view::failed_json(&source.errors)) + "\n"));
            }
            1
        }
    }
}
