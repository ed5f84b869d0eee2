//! `m2r resolve`: collect the graph as `m2r tree` does, download every artifact in it and print
//! the class path (deps-contract.md).
//!
//! This file owns the arguments and the output: the class path on stdout (`:`-separated files
//! in Maven's order) when every artifact resolved, and on stderr the warnings and one `error:`
//! line per artifact that failed (`report.rs`); a failed command prints nothing on stdout. A
//! coordinate the user named whose POM cannot be found is an error. A `--pom` that aggregates
//! modules prints one line per project of the reactor (`crate::reactor`; with `--locked`, after
//! every module's graph was compared with the reactor's lock). Collection and downloads are the session's
//! ([`m2resolver::Session::blocking_resolve`]).

use crate::reactor::{self, Reactor};
use crate::report;
use crate::tree::{open, report_collection, report_failure, GraphArgs};
use m2resolver::lock::Lock;
use m2resolver::{ClasspathScope, SessionError};
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
    /// Resolve as usual, then fail when the graph differs from the lock file (listing the differences).
    #[arg(long, conflicts_with = "frozen")]
    locked: bool,
    /// Resolve nothing: download exactly the files of the lock file, each checked against its SHA-256.
    #[arg(long)]
    frozen: bool,
    /// The lock file (default: m2r.lock next to the project file, or in the working directory).
    #[arg(long = "lock", value_name = "FILE")]
    lock_file: Option<PathBuf>,
    /// groupId:artifactId[:extension[:classifier]]:version: compile dependencies of an unnamed
    /// root, as `m2r tree A B` takes them (one coordinate too: its own artifact is on the class
    /// path, and only what it needs at compile and run time)
    #[arg(value_name = "COORD", required_unless_present_any = ["pom", "frozen"])]
    coords: Vec<String>,
}

/// Runs `m2r resolve`; returns the exit status.
pub fn run(args: ResolveArgs) -> u8 {
    if args.frozen {
        return frozen(&args);
    }
    let root = match crate::lock::root_of(args.pom.as_ref(), &args.coords) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let locked = if args.locked {
        let path = crate::lock::lock_path(args.lock_file.as_deref(), args.pom.as_deref());
        match crate::lock::read(&path) {
            Ok(l) => Some((path, l)),
            Err(code) => return code,
        }
    } else {
        None
    };
    let opened = match open(&args.graph) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if let Some(pom) = &args.pom {
        match reactor::read(&opened, pom, false) {
            Reactor::Modules(ws) => {
                return match &locked {
                    Some((path, lock)) => locked_reactor(&opened, &ws, path, lock, args.scope),
                    None => reactor::resolve(&opened, &ws, args.scope),
                }
            }
            Reactor::Failed(code) => return code,
            Reactor::Single => {}
        }
    }
    // --locked compares the class path the lock was made for.
    let lock_scope = locked.as_ref().and_then(|(_, l)| lock_scope(l));
    let answer = match &locked {
        Some(_) => opened
            .session
            .blocking_resolve_and_lock(&root, &opened.repositories, lock_scope)
            .map(|(r, l)| (r, Some(l))),
        None => opened
            .session
            .blocking_resolve(&root, &opened.repositories, args.scope)
            .map(|r| (r, None)),
    };
    opened.progress.finish();
    let (result, now) = match answer {
        Ok(r) => r,
        Err(SessionError::Resolve { result, .. }) => (*result, None),
        Err(e) => {
            report_failure(&e);
            return 1;
        }
    };
    if let (Some((path, lock)), Some(now)) = (&locked, &now) {
        let differences = lock.diff(now);
        if !differences.is_empty() {
            report_collection(&root, &result.collect);
            crate::lock::report_differences(path, &differences, lock.projects.len());
            return 1;
        }
    }
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
    let files = match args.scope {
        Some(scope) if now.is_some() => result.classpath(scope),
        _ => result.files(),
    };
    let paths: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    crate::out(&format!("{}\n", paths.join(":")));
    0
}

/// The class path a lock was made for (`None`: every node).
fn lock_scope(lock: &Lock) -> Option<ClasspathScope> {
    lock.projects
        .first()
        .and_then(|p| p.scope.as_deref())
        .and_then(|s| s.parse::<ClasspathScope>().ok())
}

/// `m2r resolve --locked --pom AGGREGATOR`: every module resolved and locked again, compared
/// with the lock; the class paths as `m2r resolve` of the reactor prints them when they agree.
fn locked_reactor(
    opened: &crate::options::Opened,
    ws: &m2resolver::Workspace,
    path: &std::path::Path,
    lock: &Lock,
    scope: Option<ClasspathScope>,
) -> u8 {
    let (out, now) = match reactor::resolve_and_lock(opened, ws, lock_scope(lock), scope) {
        Ok(answer) => answer,
        Err(code) => return code,
    };
    let differences = lock.diff(&now);
    if !differences.is_empty() {
        crate::lock::report_differences(path, &differences, lock.projects.len());
        return 1;
    }
    crate::out(&out);
    0
}

/// `m2r resolve --frozen`: the lock's files, fetched and verified; the class path of each
/// locked project on stdout (one line each).
fn frozen(args: &ResolveArgs) -> u8 {
    let path = crate::lock::lock_path(args.lock_file.as_deref(), args.pom.as_deref());
    let mut lock = match crate::lock::read(&path) {
        Ok(l) => l,
        Err(code) => return code,
    };
    // A reactor's module files are under the aggregator's folder (the project file is not
    // read: it only says where the reactor is).
    if let Some(pom) = &args.pom {
        lock.directory = pom
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .map(std::path::Path::to_path_buf);
    }
    let opened = match open(&args.graph) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let answer = opened.session.blocking_resolve_locked(&lock);
    opened.progress.finish();
    let result = match answer {
        Ok(r) => r,
        Err(SessionError::Frozen { result, .. }) => {
            for p in &result.projects {
                for a in p.failures() {
                    if let Err(e) = &a.file {
                        report::error_text(&m2resolver::printable::error_chain(e.as_ref()));
                    }
                }
            }
            return 1;
        }
        Err(e) => {
            report_failure(&e);
            return 1;
        }
    };
    let mut out = String::new();
    for p in &result.projects {
        let files = match args.scope {
            Some(scope) => p.classpath(scope),
            None => p.files(),
        };
        let paths: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        if result.projects.len() > 1 {
            // as `m2r resolve` of the reactor prints it: `groupId:artifactId:version`, a tab
            out.push_str(&module_id(&p.root));
            out.push('\t');
        }
        out.push_str(&paths.join(":"));
        out.push('\n');
    }
    crate::out(&out);
    0
}

/// `groupId:artifactId:version` of a locked root (`groupId:artifactId:extension[:classifier]:version`).
fn module_id(root: &str) -> String {
    let parts: Vec<&str> = root.split(':').collect();
    match parts.as_slice() {
        [g, a, .., v] if parts.len() >= 3 => format!("{g}:{a}:{v}"),
        _ => root.to_string(),
    }
}
