//! `m2r tree`: the dependency graph Maven resolves for a project or an artifact
//! (deps-contract.md), and the options `m2r resolve` and `m2r why` share with it.
//!
//! This file owns the arguments and printing; the session collects
//! ([`Session::blocking_collect`]), and collection, conflict resolution and the renderings
//! live in `m2resolver::resolution::collect`. The tree goes to stdout; warnings (a dependency's
//! missing POM) and errors go to stderr, once (`report.rs`). A root the user named that cannot
//! be found is an error (exit 1) in the human form; `--json` prints the contract's document
//! (Maven's answer keeps the root as a node with a `missing-pom` problem).

use crate::options::{self, CommonArgs, DownloadArgs, Opened};
use crate::report;
use clap::Args;
use m2resolver::explain::to_canonical_json;
use m2resolver::resolution::collect::view;
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

/// Opens the session of a graph command and the repositories it starts from; `Err` is the
/// exit status after a message.
pub fn open(args: &GraphArgs) -> Result<Opened, u8> {
    options::open(&args.common, &args.download)
}

/// Parses a coordinate into the root artifact.
pub fn root_of(coord: Option<&str>, pom: Option<&PathBuf>) -> Result<Root, u8> {
    if let Some(p) = pom {
        return Ok(Root::Pom(p.clone()));
    }
    let c = Artifact::parse(coord.unwrap_or_default()).map_err(|e| {
        report::error(&e);
        2u8
    })?;
    Ok(Root::Artifact(c))
}

/// The graph of the root (`--pom FILE` or COORD) of a graph command, also when collection
/// failed (the errors are in it), or why there is none; `Err` is the exit status of a usage or
/// set-up error, already printed.
pub fn collect_graph(
    graph: &GraphArgs,
    coord: Option<&str>,
    pom: Option<&PathBuf>,
) -> Result<(Root, Result<CollectResult, SessionError>), u8> {
    let root = root_of(coord, pom)?;
    let opened = open(graph)?;
    let collected = opened.session.blocking_collect(&root, &opened.repositories);
    opened.progress.finish();
    let collected = match collected {
        Err(SessionError::Collect { result, .. }) => Ok(*result),
        other => other,
    };
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

/// Runs `m2r tree`; returns the exit status.
pub fn run(args: TreeArgs) -> u8 {
    let (root, collected) =
        match collect_graph(&args.graph, args.coord.as_deref(), args.pom.as_ref()) {
            Ok(c) => c,
            Err(code) => return code,
        };
    match collected {
        Ok(result) => {
            let root_missing = report_collection(&root, &result);
            if args.json {
                // The contract's document: Maven's answer, missing root and all.
                crate::out(&(to_canonical_json(&view::tree_json(&result)) + "\n"));
                return u8::from(!result.errors.is_empty());
            }
            if root_missing || !result.errors.is_empty() {
                return 1;
            }
            crate::out(&view::render_tree(&result, args.verbose));
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
