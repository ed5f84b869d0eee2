//! `m2r resolve`: collect the graph as `m2r tree` does, download every artifact in it and print
//! the class path (deps-contract.md).
//!
//! This file owns the arguments, the progress bar (only when stderr is a terminal) and the
//! output: the class path on stdout (`:`-separated files in Maven's order), one `error:` line
//! per artifact that failed on stderr; a `--pom` that aggregates modules prints one line per
//! project of the reactor (`crate::reactor`). Collection and downloads are the session's
//! ([`m2resolver::Session::blocking_resolve`]).

use crate::get::Bar;
use crate::reactor::{self, Reactor};
use crate::tree::{open, report, GraphArgs};
use indicatif::{ProgressBar, ProgressStyle};
use m2resolver::download::{Coordinate, ProgressListener};
use m2resolver::resolution::collect::classpath::ClasspathScope;
use m2resolver::resolution::collect::project::Root;
use m2resolver::SessionError;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

/// Arguments of `m2r resolve`.
#[derive(clap::Args, Debug)]
pub struct ResolveArgs {
    #[command(flatten)]
    graph: GraphArgs,
    /// Keep only Maven's class path for this scope (compile, runtime or test).
    #[arg(long, value_name = "SCOPE")]
    scope: Option<ClasspathScope>,
    /// The project file.
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
                match Coordinate::parse(c) {
                    Ok(c) => artifacts.push(c.into()),
                    Err(e) => {
                        eprintln!("m2r: {e}");
                        return 2;
                    }
                }
            }
            Root::compile(artifacts)
        }
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let pb = ProgressBar::new_spinner();
        pb.set_style(
            ProgressStyle::with_template("{spinner} {pos} files {msg} {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        pb.enable_steady_tick(std::time::Duration::from_millis(120));
        Arc::new(Bar(pb, AtomicU64::new(0)))
    });
    let listener = bar.clone().map(|b| b as Arc<dyn ProgressListener>);
    let (session, repositories) = match open(&args.graph, listener) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if let Some(pom) = &args.pom {
        match reactor::read(&session, pom, &repositories, false) {
            Reactor::Modules(ws) => {
                let code = reactor::resolve(&session, &ws, &repositories, args.scope);
                if let Some(b) = &bar {
                    b.0.finish_and_clear();
                }
                return code;
            }
            Reactor::Failed(code) => return code,
            Reactor::Single => {}
        }
    }
    let answer = session.blocking_resolve(&root, &repositories, args.scope);
    if let Some(b) = &bar {
        b.0.finish_and_clear();
    }
    let result = match answer {
        Ok(r) => r,
        Err(SessionError::Resolve { result, .. }) => *result,
        Err(e) => {
            report(&e);
            return 1;
        }
    };
    for p in &result.collect.problems {
        eprintln!("warning: {p}");
    }
    for e in &result.collect.errors {
        eprintln!("error: {e}");
    }
    for r in result.failures() {
        if let Err(e) = &r.file {
            eprintln!("error: {}: {e}", r.artifact);
        }
    }
    let paths: Vec<String> = result
        .files()
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    crate::out(&format!("{}\n", paths.join(":")));
    u8::from(!result.collect.errors.is_empty() || result.failures().next().is_some())
}
