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
use m2resolver::resolution::collect::view::TreeOptions;
use m2resolver::resolution::collect::{view, CollectResult};
use m2resolver::resolution::Artifact;
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
    #[arg(long, conflicts_with_all = ["scope", "includes", "excludes", "depth"])]
    json: bool,
    /// Also the dependencies that lost a conflict, where they were declared, and where
    /// versions and scopes came from (mvn dependency:tree -Dverbose).
    #[arg(long)]
    pub(crate) verbose: bool,
    /// Only the dependencies on this class path, with what is below them: compile, runtime,
    /// test, compile+runtime or runtime+system (mvn dependency:tree -Dscope=).
    #[arg(long, value_name = "SCOPE")]
    scope: Option<String>,
    /// Only the nodes matching one of these comma-separated [groupId]:[artifactId]:[type]:[version]
    /// patterns (`*` wildcards), and the paths to them (mvn dependency:tree -Dincludes=).
    #[arg(long, value_name = "PATTERNS")]
    includes: Option<String>,
    /// Leave out the nodes matching one of these patterns, unless something below them stays
    /// (mvn dependency:tree -Dexcludes=).
    #[arg(long, value_name = "PATTERNS")]
    excludes: Option<String>,
    /// Nothing deeper than N levels below the root (0: the root alone).
    #[arg(long, value_name = "N")]
    depth: Option<usize>,
    /// The project file.
    #[arg(long, value_name = "FILE", conflicts_with = "coords")]
    pom: Option<PathBuf>,
    /// groupId:artifactId[:extension[:classifier]]:version. One coordinate is the root, read as
    /// a project (its POM's dependencies, test and provided ones too, and its
    /// dependencyManagement); several are compile dependencies of an unnamed root, as
    /// `m2r resolve` takes them, each printed as a tree of its own.
    #[arg(value_name = "COORD", required_unless_present = "pom")]
    coords: Vec<String>,
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

/// The root of a graph command: the project file, the one coordinate read as a project, or
/// several coordinates as compile dependencies of an unnamed root.
pub fn root_of(coords: &[String], pom: Option<&PathBuf>) -> Result<Root, u8> {
    if let Some(p) = pom {
        return Ok(Root::Pom(p.clone()));
    }
    let mut artifacts: Vec<Artifact> = Vec::new();
    for c in coords {
        let c = Coordinate::parse(c).map_err(|e| {
            eprintln!("m2r: {e}");
            2u8
        })?;
        artifacts.push(c.into());
    }
    match <[Artifact; 1]>::try_from(artifacts) {
        Ok([one]) => Ok(Root::Artifact(one)),
        Err(several) => Ok(Root::compile(several)),
    }
}

/// The graph of the root (`--pom FILE` or COORD...) of a graph command, also when collection
/// failed (the errors are in it), or why there is none; `Err` is the exit status of a usage or
/// set-up error, already printed.
pub fn collect_graph(
    graph: &GraphArgs,
    coords: &[String],
    pom: Option<&PathBuf>,
) -> Result<Result<CollectResult, SessionError>, u8> {
    let root = root_of(coords, pom)?;
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

/// The human tree's options of the arguments.
fn tree_options(args: &TreeArgs) -> TreeOptions {
    let mut options = TreeOptions::plain();
    options.verbose = args.verbose;
    options.scope = args.scope.clone();
    options.includes = args.includes.clone();
    options.excludes = args.excludes.clone();
    options.depth = args.depth;
    options
}

/// Runs `m2r tree`; returns the exit status.
pub fn run(args: TreeArgs) -> u8 {
    let options = tree_options(&args);
    let collected = match &args.pom {
        // An aggregator: every project of the reactor (crate::reactor).
        Some(pom) => {
            let (session, repositories) = match open(&args.graph, None) {
                Ok(s) => s,
                Err(code) => return code,
            };
            match reactor::read(&session, pom, &repositories, args.json) {
                Reactor::Modules(ws) => {
                    return reactor::tree(&session, &ws, &repositories, args.json, &options)
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
        None => match collect_graph(&args.graph, &args.coords, None) {
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
            if args.json {
                crate::out(&(to_canonical_json(&view::tree_json(&result)) + "\n"));
            } else if result.errors.is_empty() {
                // As mvn, no tree when the collection failed.
                let text = view::render_maven_tree(&result, &options);
                crate::out(if text.is_empty() { "\n" } else { &text });
            }
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
