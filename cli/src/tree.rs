//! `m2r tree`: the dependency graph Maven resolves for a project or an artifact
//! (deps-contract.md), and the options `m2r resolve` and `m2r why` share with it.
//!
//! A `--pom` that aggregates modules is a reactor: `crate::reactor` prints it.
//!
//! This file owns the arguments and printing; the session collects
//! ([`Session::blocking_collect`](m2resolver::Session::blocking_collect)), and collection,
//! conflict resolution and the renderings live in `m2resolver::resolution::collect`. The tree
//! goes to stdout, exactly as `mvn dependency:tree` prints it; warnings (a dependency's missing
//! POM) and errors go to stderr, once (`report.rs`). When the collection fails nothing is
//! printed on stdout and the exit status is 1, as mvn fails; a root the user named that cannot
//! be found is such an error in the human form; `--json` prints the contract's document
//! (Maven's answer keeps the root as a node with a `missing-pom` problem).

use crate::options::{self, CommonArgs, DownloadArgs, Opened};
use crate::reactor::{self, Reactor};
use crate::report;
use clap::Args;
use m2resolver::explain::to_canonical_json;
use m2resolver::resolution::collect::view::{self, TreeOptions};
use m2resolver::{Artifact, CollectResult, Root, SessionError};
use std::path::PathBuf;

/// Options every graph command shares.
#[derive(Args, Debug, Clone)]
pub struct GraphArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    #[command(flatten)]
    pub download: DownloadArgs,
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
    /// The project file (an aggregator: every project of its reactor).
    #[arg(long, value_name = "FILE", conflicts_with = "coords")]
    pom: Option<PathBuf>,
    /// groupId:artifactId[:extension[:classifier]]:version. One coordinate is the root, read as
    /// a project (its POM's dependencies, test and provided ones too, and its
    /// dependencyManagement); several are compile dependencies of an unnamed root, as
    /// `m2r resolve` takes them, each printed as a tree of its own.
    #[arg(value_name = "COORD", required_unless_present = "pom")]
    coords: Vec<String>,
}

/// Opens the session of a graph command and the repositories it starts from; `Err` is the
/// exit status after a message.
pub fn open(args: &GraphArgs) -> Result<Opened, u8> {
    options::open(&args.common, &args.download)
}

/// The root of a graph command: the project file, the one coordinate read as a project, or
/// several coordinates as compile dependencies of an unnamed root.
pub fn root_of(coords: &[String], pom: Option<&PathBuf>) -> Result<Root, u8> {
    if let Some(p) = pom {
        return Ok(Root::Pom(p.clone()));
    }
    let mut artifacts: Vec<Artifact> = Vec::new();
    for c in coords {
        artifacts.push(Artifact::parse(c).map_err(|e| {
            report::error(&e);
            2u8
        })?);
    }
    match <[Artifact; 1]>::try_from(artifacts) {
        Ok([one]) => Ok(Root::Artifact(one)),
        Err(several) => Ok(Root::compile(several)),
    }
}

/// The graph of `root` in the opened session, also when collection failed (the errors are
/// in it), or why there is none.
fn collect_in(opened: &Opened, root: &Root) -> Result<CollectResult, SessionError> {
    let collected = opened.session.blocking_collect(root, &opened.repositories);
    opened.progress.finish();
    match collected {
        Err(SessionError::Collect { result, .. }) => Ok(*result),
        other => other,
    }
}

/// The graph of the root (`--pom FILE` or COORD...) of a graph command, also when collection
/// failed (the errors are in it), or why there is none; `Err` is the exit status of a usage or
/// set-up error, already printed.
pub fn collect_graph(
    graph: &GraphArgs,
    coords: &[String],
    pom: Option<&PathBuf>,
) -> Result<(Root, Result<CollectResult, SessionError>), u8> {
    let root = root_of(coords, pom)?;
    let opened = open(graph)?;
    let collected = collect_in(&opened, &root);
    Ok((root, collected))
}

/// Prints why a session could not answer (no graph, no descriptor).
pub fn report_failure(e: &SessionError) {
    match e {
        SessionError::Root { source } => {
            for e in &source.errors {
                report::error_text(e);
            }
        }
        e => report::error(e),
    }
}

/// Prints the warnings and errors of a collection on stderr; `true` when a root the user named
/// was not found (reported as an error).
pub fn report_collection(root: &Root, result: &CollectResult) -> bool {
    let missing = result.missing_roots(root);
    for p in &result.problems {
        if missing.iter().any(|m| std::ptr::eq(*m, p)) {
            report::error_text(&format!("{}: {}", p.artifact, p.message));
        } else {
            report::warning(&p.to_string());
        }
    }
    for e in &result.errors {
        report::error(e);
    }
    !missing.is_empty()
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
    let root = match root_of(&args.coords, args.pom.as_ref()) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let opened = match open(&args.graph) {
        Ok(o) => o,
        Err(code) => return code,
    };
    if let Some(pom) = &args.pom {
        // An aggregator: every project of the reactor (crate::reactor).
        match reactor::read(&opened, pom, args.json) {
            Reactor::Modules(ws) => return reactor::tree(&opened, &ws, args.json, &options),
            Reactor::Failed(code) => return code,
            Reactor::Single => {}
        }
    }
    match collect_in(&opened, &root) {
        Ok(result) => {
            let root_missing = report_collection(&root, &result);
            if args.json {
                // The contract's document: Maven's answer, missing root and all.
                crate::out(&(to_canonical_json(&view::tree_json(&result)) + "\n"));
                return u8::from(!result.errors.is_empty());
            }
            if root_missing || !result.errors.is_empty() {
                // As mvn, no tree when the collection failed.
                return 1;
            }
            let text = view::render_maven_tree(&result, &options);
            crate::out(if text.is_empty() { "\n" } else { &text });
            0
        }
        Err(e) => {
            report_failure(&e);
            if let (true, SessionError::Root { source }) = (args.json, &e) {
                crate::out(&(to_canonical_json(&view::failed_json(&source.errors)) + "\n"));
            }
            1
        }
    }
}
