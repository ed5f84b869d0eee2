//! `m2r resolve`: collect the graph as `m2r tree` does, download every artifact in it and print
//! the class path (deps-contract.md).
//!
//! This file owns the arguments, the progress bar (only when stderr is a terminal) and the
//! output: the class path on stdout (`:`-separated files in Maven's order), one `error:` line
//! per artifact that failed on stderr. Collection and downloads live in the library.

use crate::get::Bar;
use crate::tree::{collect_root, session, GraphArgs};
use indicatif::{ProgressBar, ProgressStyle};
use m2resolver::download::{Coordinate, ProgressListener};
use m2resolver::resolution::collect::classpath::ClasspathScope;
use m2resolver::resolution::collect::project::Root;
use m2resolver::resolution::collect::resolve::resolve_artifacts;
use m2resolver::resolution::{Artifact, Dependency};
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
    /// Compile dependencies of an anonymous project: groupId:artifactId[:extension[:classifier]]:version
    #[arg(value_name = "COORD", required_unless_present = "pom")]
    coords: Vec<String>,
}

/// Runs `m2r resolve`; returns the exit status.
pub fn run(args: ResolveArgs) -> u8 {
    let root = match &args.pom {
        Some(p) => Root::Pom(p.clone()),
        None => {
            let mut deps = Vec::new();
            for c in &args.coords {
                match Coordinate::parse(c) {
                    Ok(c) => deps.push(Dependency::new(
                        Artifact::new(
                            c.group_id,
                            c.artifact_id,
                            c.extension,
                            c.classifier,
                            c.version,
                        ),
                        "compile",
                    )),
                    Err(e) => {
                        eprintln!("m2r: {e}");
                        return 2;
                    }
                }
            }
            Root::Dependencies(deps)
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
    let session = match session(&args.graph, listener) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let result = match collect_root(&session, &root) {
        Ok((_, r)) => r,
        Err(errors) => {
            for e in errors {
                eprintln!("m2r: {e}");
            }
            session.leak();
            return 1;
        }
    };
    for p in &result.problems {
        eprintln!("warning: {p}");
    }
    let mut failed = !result.errors.is_empty();
    for e in &result.errors {
        eprintln!("error: {e}");
    }
    let resolved = session.runtime.block_on(resolve_artifacts(
        session.source.resolver(),
        &result.graph,
        args.scope,
    ));
    if let Some(b) = &bar {
        b.0.finish_and_clear();
    }
    let mut paths = Vec::new();
    for r in &resolved {
        match &r.file {
            Ok(p) => paths.push(p.display().to_string()),
            Err(e) => {
                failed = true;
                eprintln!("error: {}: {e}", r.artifact);
            }
        }
    }
    crate::out(&format!("{}\n", paths.join(":")));
    session.leak();
    u8::from(failed)
}
