//! `m2r lock`: resolve a project (or bare coordinates) and write its lock file, `m2r.lock`
//! next to the project file (in the working directory for coordinates, or `--output`), or
//! Coursier's JSON report with `--format coursier-json` (on stdout unless `--output`). An
//! aggregator's lock holds every module of its reactor (one Coursier report per module, in
//! the folder `--output` names). Also the
//! lock-file helpers `m2r resolve --locked/--frozen` and `m2r why --lock` share: where the lock
//! is, and how differences are reported. The lock itself is the library's
//! ([`m2resolver::Session::blocking_lock`], [`m2resolver::lock`]).

use crate::report;
use crate::tree::{open, report_collection, report_failure, GraphArgs};
use m2resolver::lock::{coursier_report, Difference, Lock, LOCK_FILE};
use m2resolver::{Artifact, ClasspathScope, Root, SessionError};
use std::path::{Path, PathBuf};

/// What `m2r lock` writes.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// m2r's lock file (JSON, see the README).
    #[default]
    M2r,
    /// Coursier's JSON report (`cs fetch --json-output-file`, version 0.1.0).
    CoursierJson,
}

/// Arguments of `m2r lock`.
#[derive(clap::Args, Debug)]
pub struct LockArgs {
    #[command(flatten)]
    graph: GraphArgs,
    /// Lock only Maven's class path for this scope (compile, runtime or test); default: every node.
    #[arg(long, value_name = "SCOPE")]
    scope: Option<ClasspathScope>,
    /// The project file (an aggregator: every module of its reactor, in one lock).
    #[arg(long, value_name = "FILE", conflicts_with = "coords")]
    pom: Option<PathBuf>,
    /// Where to write (default: m2r.lock next to the project file, or in the working directory; the Coursier report goes to stdout).
    #[arg(long, short = 'O', value_name = "FILE")]
    output: Option<PathBuf>,
    /// What to write.
    #[arg(long, value_enum, default_value_t = Format::M2r)]
    format: Format,
    /// Compile dependencies of an anonymous project: groupId:artifactId[:extension[:classifier]]:version
    #[arg(value_name = "COORD", required_unless_present = "pom")]
    coords: Vec<String>,
}

/// The root of `--pom FILE` or of coordinates; `Err` is the exit status after a message.
pub fn root_of(pom: Option<&PathBuf>, coords: &[String]) -> Result<Root, u8> {
    if let Some(p) = pom {
        return Ok(Root::Pom(p.clone()));
    }
    let mut artifacts = Vec::new();
    for c in coords {
        match Artifact::parse(c) {
            Ok(a) => artifacts.push(a),
            Err(e) => {
                report::error(&e);
                return Err(2);
            }
        }
    }
    Ok(Root::compile(artifacts))
}

/// Where the lock of a project is: `explicit`, else `m2r.lock` beside the project file, else
/// in the working directory.
pub fn lock_path(explicit: Option<&Path>, pom: Option<&Path>) -> PathBuf {
    if let Some(p) = explicit {
        return p.to_path_buf();
    }
    match pom.and_then(Path::parent) {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join(LOCK_FILE),
        _ => PathBuf::from(LOCK_FILE),
    }
}

/// Reads a lock file; `Err` is the exit status after a message.
pub fn read(path: &Path) -> Result<Lock, u8> {
    Lock::read(path).map_err(|e| {
        report::error(&e);
        1
    })
}

/// Prints the differences between a lock and a resolution on stderr (one line each, under
/// the project they are in when the lock has several).
pub fn report_differences(path: &Path, differences: &[Difference], projects: usize) {
    report::error_text(&format!(
        "the resolved dependencies differ from {} ({} difference(s)); run `m2r lock` to update it",
        path.display(),
        differences.len()
    ));
    let mut last: Option<&str> = None;
    for d in differences {
        if projects > 1 && d.project() != last {
            last = d.project();
            if let Some(p) = last {
                eprintln!("  in {}:", m2resolver::printable::escape_for_terminal(p));
            }
        }
        eprintln!(
            "    {}",
            m2resolver::printable::escape_for_terminal(&d.to_string())
        );
    }
}

/// Runs `m2r lock`; returns the exit status.
pub fn run(args: LockArgs) -> u8 {
    let root = match root_of(args.pom.as_ref(), &args.coords) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let opened = match open(&args.graph) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if let Some(pom) = &args.pom {
        match crate::reactor::read(&opened, pom, false) {
            crate::reactor::Reactor::Modules(ws) => return lock_reactor(&args, &opened, &ws, pom),
            crate::reactor::Reactor::Failed(code) => return code,
            crate::reactor::Reactor::Single => {}
        }
    }
    let answer = opened
        .session
        .blocking_resolve_and_lock(&root, &opened.repositories, args.scope);
    opened.progress.finish();
    let (resolved, lock) = match answer {
        Ok(r) => r,
        Err(SessionError::Resolve { result, .. }) => {
            report_collection(&root, &result.collect);
            for r in result.failures() {
                if let Err(e) = &r.file {
                    report::error_text(&format!(
                        "{}: {}",
                        r.artifact,
                        m2resolver::printable::error_chain(e.as_ref())
                    ));
                }
            }
            report::error_text("nothing was locked: the graph could not be resolved completely");
            return 1;
        }
        Err(e) => {
            report_failure(&e);
            return 1;
        }
    };
    if report_collection(&root, &resolved.collect) {
        return 1;
    }
    write(&args, &opened, &lock, args.pom.as_deref())
}

/// `m2r lock --pom AGGREGATOR`: every module of the reactor resolved and locked in one lock
/// file (one project per module, in reactor order); nothing is written when a module fails.
fn lock_reactor(
    args: &LockArgs,
    opened: &crate::options::Opened,
    ws: &m2resolver::Workspace,
    pom: &Path,
) -> u8 {
    match crate::reactor::resolve_and_lock(opened, ws, args.scope, None) {
        Ok((_, lock)) => write(args, opened, &lock, Some(pom)),
        Err(code) => {
            report::error_text(
                "nothing was locked: a module of the reactor could not be resolved completely",
            );
            code
        }
    }
}

/// Writes the lock (or its Coursier report) as `args` ask; returns the exit status.
fn write(args: &LockArgs, opened: &crate::options::Opened, lock: &Lock, pom: Option<&Path>) -> u8 {
    let cwd = &opened.session.environment().cwd;
    match args.format {
        Format::M2r => {
            let path = lock_path(args.output.as_deref(), pom);
            if let Err(e) = lock.write(&path) {
                report::error(&e);
                return 1;
            }
            let nodes: usize = lock.projects.iter().map(|p| p.nodes.len()).sum();
            match lock.projects.len() {
                1 => eprintln!("wrote {} ({nodes} artifacts)", path.display()),
                n => eprintln!("wrote {} ({n} projects, {nodes} artifacts)", path.display()),
            }
        }
        Format::CoursierJson => {
            let local = cwd.join(&opened.session.local_repository().value);
            let reactor_root = match pom.map(|p| cwd.join(p)) {
                Some(p) => p.parent().map(Path::to_path_buf).unwrap_or_default(),
                None => cwd.clone(),
            };
            if lock.projects.len() > 1 {
                return write_coursier_reports(args.output.as_deref(), lock, &local, &reactor_root);
            }
            let text: String = lock
                .projects
                .iter()
                .map(|p| coursier_report(p, &local, &reactor_root))
                .collect();
            match &args.output {
                Some(path) => {
                    if let Err(e) = std::fs::write(path, text) {
                        report::error_text(&format!("cannot write {}: {e}", path.display()));
                        return 1;
                    }
                }
                None => crate::out(&text),
            }
        }
    }
    0
}

/// A Coursier report holds one project: a reactor's are written one file per module,
/// `DIR/groupId.artifactId.json`, in the folder `--output` names.
fn write_coursier_reports(
    dir: Option<&Path>,
    lock: &Lock,
    local: &Path,
    reactor_root: &Path,
) -> u8 {
    let Some(dir) = dir else {
        report::error_text(
            "a Coursier report holds one project: for a reactor, name a folder with --output DIR \
             (one DIR/groupId.artifactId.json per module is written)",
        );
        return 2;
    };
    if let Err(e) = std::fs::create_dir_all(dir) {
        report::error_text(&format!("cannot create {}: {e}", dir.display()));
        return 1;
    }
    for p in &lock.projects {
        let mut parts = p.root.split(':');
        let (g, a) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        let safe = |s: &str| -> String {
            s.chars()
                .map(|c| match c {
                    'A'..='Z' | 'a'..='z' | '0'..='9' | '.' | '_' | '-' => c,
                    _ => '_',
                })
                .collect()
        };
        let path = dir.join(format!("{}.{}.json", safe(g), safe(a)));
        if let Err(e) = std::fs::write(&path, coursier_report(p, local, reactor_root)) {
            report::error_text(&format!("cannot write {}: {e}", path.display()));
            return 1;
        }
    }
    eprintln!(
        "wrote {} Coursier reports in {}",
        lock.projects.len(),
        dir.display()
    );
    0
}
