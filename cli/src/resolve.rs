//! `m2r resolve`: collect the graph as `m2r tree` does, download every artifact in it and print
//! the class path (deps-contract.md).
//!
//! This file owns the arguments and the output: the class path on stdout (`:`-separated files
//! in Maven's order) when every artifact resolved, and on stderr the warnings and one `error:`
//! line per artifact that failed (`report.rs`); a failed command prints nothing on stdout. A
//! coordinate the user named whose POM cannot be found is an error. A `--pom` that aggregates
//! modules prints one line per project of the reactor (`crate::reactor`). Collection and
//! downloads are the session's ([`m2resolver::Session::blocking_resolve`]).

use crate::reactor::{self, Reactor};
use crate::report;
use crate::tree::{open, report_collection, report_failure, GraphArgs};
use m2resolver::{Artifact, ClasspathScope, Root, SessionError};
use std::path::PathBuf;

/// Arguments of `m2r resolve`.
#[derive(clap::Args, Debug)]
pub struct ResolveArgs {
    #[command(flatten)]
    graph: GraphArgs,
    /// Keep only Maven's class path for this scope (compile, runtime or test).
    #[arg(long, value_name = "SCOPE")]
    scope: Option<ClasspathScope>,
    /// The project file (an aggregator: every project of its reactor).
    #[arg(long, value_name = "FILE", conflicts_with = "coords")]
    pom: Option<PathBuf>,
    /// groupId:artifactId[:extension[:classifier]]:version: compile dependencies of an unnamed
    /// root, as `m2r tree A B` takes them (one coordinate too: its own artifact is on the class
    /// path, and only what it needs at compile and run time)
    #[arg(value_name = "COORD", required_unless_present = "pom")]
    coords: Vec<String>,
}

/// Runs `m2r resolve`; returns the exit status.
pub fn run(args: ResolveArgs) -> u8 {
    let root = match &args.pom {
        Some(p) => Root::Pom(p.clone()),
        None => {
            let mut artifacts = Vec::new();
            for c in &args.coords {
                match Artifact::parse(c) {
                    Ok(c) => artifacts.push(c),
                    Err(e) => {
                        report::error(&e);
                        return 2;
                    }
                }
            }
            Root::compile(artifacts)
        }
    };
    let opened = match open(&args.graph) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if let Some(pom) = &args.pom {
        match reactor::read(&opened, pom, false) {
            Reactor::Modules(ws) => return reactor::resolve(&opened, &ws, args.scope),
            Reactor::Failed(code) => return code,
            Reactor::Single => {}
        }
    }
    let answer = opened
        .session
        .blocking_resolve(&root, &opened.repositories, args.scope);
    opened.progress.finish();
    let result = match answer {
        Ok(r) => r,
        Err(SessionError::Resolve { result, .. }) => *result,
        Err(e) => {
            report_failure(&e);
            return 1;
        }
    };
    let root_missing = report_collection(&root, &result.collect);
    let missing = result.collect.missing_roots(&root);
    for r in result.failures() {
        // A named coordinate whose POM is missing was reported already, with what was searched.
        let named = missing.iter().any(|p| {
            p.artifact.group_id == r.artifact.group_id
                && p.artifact.artifact_id == r.artifact.artifact_id
        });
        if let (Err(e), false) = (&r.file, named) {
            // the error names the artifact
            report::error(e.as_ref());
        }
    }
    if root_missing || !result.collect.errors.is_empty() || result.failures().next().is_some() {
        return 1;
    }
    let paths: Vec<String> = result
        .files()
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    crate::out(&format!("{}\n", paths.join(":")));
    0
}
