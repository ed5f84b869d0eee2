//! `m2r tree`: the dependency graph Maven resolves for a project or an artifact
//! (deps-contract.md), and the setup `m2r resolve` and `m2r why` share with it.
//!
//! This file owns the arguments and turning them into the library's objects (settings →
//! repositories and selectors, the downloader, the descriptor reader, the repository source)
//! and printing; collection, conflict resolution and the renderings live in
//! `m2resolver::resolution::collect`.

use crate::options::{self, CommonArgs};
use clap::Args;
use m2resolver::download::{Coordinate, ProgressListener, Resolver};
use m2resolver::explain::to_canonical_json;
use m2resolver::printable::escape_for_terminal;
use m2resolver::repository::RemoteRepository;
use m2resolver::resolution::collect::fetch::RepositorySource;
use m2resolver::resolution::collect::project::{request_for, Root};
use m2resolver::resolution::collect::{collect, view, CollectRequest, CollectResult};
use m2resolver::resolution::pom::DescriptorReader;
use m2resolver::resolution::Artifact;
use std::collections::HashMap;
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

/// What a graph command works with: the runtime, the source and the repositories.
pub struct Session {
    /// The runtime the source's fetches and the downloads run on.
    pub runtime: tokio::runtime::Runtime,
    pub source: RepositorySource,
    pub repositories: Vec<RemoteRepository>,
}

impl Session {
    /// Ends the command: stops the runtime (what was still being read ahead is cancelled and
    /// its temporary files removed) but does not free what the source remembers (POM models,
    /// descriptors): the process exits next, and freeing them took a sixth of a warm
    /// `m2r resolve`.
    pub fn leak(self) {
        let Session {
            runtime, source, ..
        } = self;
        drop(runtime);
        std::mem::forget(source);
    }
}

/// Builds the session of a graph command; `Err` is the exit status after a message.
pub fn session(
    args: &GraphArgs,
    listener: Option<Arc<dyn ProgressListener>>,
) -> Result<Session, u8> {
    let session =
        options::open_session(&args.common, args.local_repository.as_deref(), args.offline)?;
    let declared = options::declared_or_central(&args.common)?;
    let answer = session.repositories(&declared);
    for p in &answer.problems {
        eprintln!("{}", escape_for_terminal(&p.to_string()));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| {
            eprintln!("m2r: cannot start the async runtime: {e}");
            1u8
        })?;
    let mut config = session.resolver_config(answer.repositories.clone());
    if let Some(n) = args.threads {
        config.max_in_flight = n.max(1);
    }
    if let Some(l) = listener {
        config.listener = l;
    }
    let resolver = {
        let _guard = runtime.enter();
        Resolver::new(config).map_err(|e| {
            eprintln!("m2r: {e}");
            1u8
        })?
    };
    let reader = Arc::new(DescriptorReader::new(
        resolver.clone(),
        session.selectors(),
        HashMap::clone(&session.environment().system_properties),
        HashMap::clone(session.user_properties()),
    ));
    let source = RepositorySource::new(
        reader,
        resolver,
        session.selectors(),
        runtime.handle().clone(),
    );
    Ok(Session {
        runtime,
        source,
        repositories: answer.repositories,
    })
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
    Ok(Root::Artifact(Artifact::new(
        c.group_id,
        c.artifact_id,
        c.extension,
        c.classifier,
        c.version,
    )))
}

/// Collects the graph of `root`; `Err` carries the failure of the root itself.
pub fn collect_root(
    session: &Session,
    root: &Root,
) -> Result<(CollectRequest, CollectResult), Vec<String>> {
    let (request, root_problems) =
        request_for(&session.source, root, &session.repositories).map_err(|f| f.errors)?;
    session.source.read_ahead(&request.managed_dependencies);
    let mut result = collect(&session.source, &request);
    for p in root_problems.into_iter().rev() {
        if !result.problems.contains(&p) {
            result.problems.insert(0, p);
        }
    }
    Ok((request, result))
}

/// Runs `m2r tree`; returns the exit status.
pub fn run(args: TreeArgs) -> u8 {
    let root = match root_of(args.coord.as_deref(), args.pom.as_ref()) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let session = match session(&args.graph, None) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let collected = collect_root(&session, &root);
    session.leak();
    match collected {
        Ok((_, result)) => {
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
        Err(errors) => {
            for e in &errors {
                eprintln!("m2r: {e}");
            }
            if args.json {
                crate::out(&(to_canonical_json(&view::failed_json(&errors)) + "\n"));
            }
            1
        }
    }
}
