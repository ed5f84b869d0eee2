//! `m2r tree` and `m2r resolve` on an aggregator POM: every project of the reactor, in Maven's
//! reactor order. A POM without modules stays a single project (its output is exactly the
//! single-project one).
//!
//! - `tree`: each project's block as the single-project tree prints it, one empty line between
//!   blocks (what `mvn dependency:tree` prints per project). Like Maven's reactor, the first
//!   project whose collection fails ends the build: its errors go to stderr with the projects
//!   skipped, nothing goes to stdout (as the oracle prints nothing when `mvn` fails), exit 1.
//!   Warnings go to stderr.
//! - `tree --json`: `{"modules": [...]}`, one deps-contract document per project in reactor
//!   order, each with `"module"` (`groupId:artifactId:version`) and `"path"` (its POM,
//!   relative to the aggregator's folder) in front; every project is there, failed ones with
//!   their `"error"`. A reactor that cannot be read: `{"modules": null, "error": [...]}`.
//! - `resolve`: one line per project, `groupId:artifactId:version`, a tab, its class path
//!   (`:`-separated, Maven's order); a module's artifacts are its output directories
//!   (`target/classes`, `target/test-classes`), as Maven's reactor gives them to a build that
//!   compiles. Failures on stderr; every project is resolved.
//!
//! This file owns the printing; the session reads the reactor
//! ([`Session::blocking_read_workspace`]) and answers per module.

use m2resolver::explain::to_canonical_json;
use m2resolver::repository::RemoteRepository;
use m2resolver::resolution::collect::classpath::ClasspathScope;
use m2resolver::resolution::collect::view::{self, TreeOptions};
use m2resolver::resolution::workspace::view as reactor_view;
use m2resolver::resolution::workspace::{discover, Module, Phase, Workspace, WorkspaceError};
use m2resolver::{Session, SessionError};
use std::path::Path;

/// What an aggregator POM turned out to be.
pub enum Reactor {
    /// A project without modules (or whose own model cannot be built): the single-project
    /// path answers (and reports) it.
    Single,
    /// Several projects, in reactor order.
    Modules(Workspace),
    /// The reactor could not be read; the message is printed, this is the exit status.
    Failed(u8),
}

/// Reads the reactor of `pom`.
pub fn read(
    session: &Session,
    pom: &Path,
    repositories: &[RemoteRepository],
    json: bool,
) -> Reactor {
    if !discover::lists_modules(&session.environment().cwd.join(pom)) {
        return Reactor::Single;
    }
    match session.blocking_read_workspace(pom, repositories) {
        Ok(ws) if ws.modules().len() > 1 => Reactor::Modules(ws),
        Ok(_) => Reactor::Single,
        Err(SessionError::Workspace { source, .. })
            if matches!(*source, WorkspaceError::Projects { root: true, .. }) =>
        {
            Reactor::Single
        }
        Err(SessionError::Workspace { source, .. }) => {
            let lines = error_lines(&source);
            for l in &lines {
                eprintln!("m2r: {l}");
            }
            if json {
                crate::out(&(to_canonical_json(&reactor_view::failed_json(&lines)) + "\n"));
            }
            Reactor::Failed(1)
        }
        Err(e) => {
            crate::tree::report(&e);
            Reactor::Failed(1)
        }
    }
}

/// One line per failure of the reactor.
fn error_lines(e: &WorkspaceError) -> Vec<String> {
    match e {
        WorkspaceError::Projects { failures, .. } => {
            failures.iter().map(ToString::to_string).collect()
        }
        other => vec![other.to_string()],
    }
}

/// `m2r tree` of a reactor; returns the exit status.
pub fn tree(
    session: &Session,
    ws: &Workspace,
    repositories: &[RemoteRepository],
    json: bool,
    options: &TreeOptions,
) -> u8 {
    // `mvn dependency:tree` runs no lifecycle phase: the reactor gives POMs only.
    let ws = ws.with_phase(Phase::None);
    let answer = match session.blocking_collect_workspace(&ws, repositories) {
        Ok(a) => a,
        Err(e) => {
            crate::tree::report(&e);
            return 1;
        }
    };
    if json {
        let mut docs = Vec::new();
        for (m, answer) in ws.modules().iter().zip(&answer.modules) {
            let result = match &answer.result {
                Ok(r) => r,
                Err(SessionError::Collect { result, .. }) => &**result,
                Err(e) => {
                    crate::tree::report(e);
                    return 1;
                }
            };
            for p in &result.problems {
                eprintln!("warning: {p}");
            }
            for e in &result.errors {
                eprintln!("m2r: {}: {e}", m.id());
            }
            docs.push((m, result));
        }
        crate::out(&(to_canonical_json(&reactor_view::tree_json(&ws, docs)) + "\n"));
        return u8::from(answer.failures().next().is_some());
    }
    let mut blocks: Vec<String> = Vec::new();
    for (i, (m, answer)) in ws.modules().iter().zip(&answer.modules).enumerate() {
        match &answer.result {
            Ok(result) => {
                for p in &result.problems {
                    eprintln!("warning: {p}");
                }
                blocks.push(view::render_maven_tree(result, options));
            }
            Err(e) => {
                // Maven's reactor stops at the first project that fails.
                match e {
                    SessionError::Collect { result, .. } => {
                        for p in &result.problems {
                            eprintln!("warning: {p}");
                        }
                        for e in &result.errors {
                            eprintln!("m2r: {}: {e}", m.id());
                        }
                    }
                    e => crate::tree::report(e),
                }
                let skipped: Vec<String> = ws.modules()[i + 1..].iter().map(Module::id).collect();
                if !skipped.is_empty() {
                    eprintln!("m2r: skipped after {}: {}", m.id(), skipped.join(", "));
                }
                return 1;
            }
        }
    }
    crate::out(&blocks.join("\n"));
    0
}

/// `m2r resolve` of a reactor; returns the exit status.
pub fn resolve(
    session: &Session,
    ws: &Workspace,
    repositories: &[RemoteRepository],
    scope: Option<ClasspathScope>,
) -> u8 {
    let answer = match session.blocking_resolve_workspace(ws, repositories, scope) {
        Ok(a) => a,
        Err(e) => {
            crate::tree::report(&e);
            return 1;
        }
    };
    let mut out = String::new();
    for (m, answer) in ws.modules().iter().zip(&answer.modules) {
        let result = match &answer.result {
            Ok(r) => r,
            Err(SessionError::Resolve { result, .. }) => result,
            Err(e) => {
                eprintln!("m2r: {}: {e}", m.id());
                out.push_str(&format!("{}\t\n", m.id()));
                continue;
            }
        };
        for p in &result.collect.problems {
            eprintln!("warning: {p}");
        }
        for e in &result.collect.errors {
            eprintln!("error: {}: {e}", m.id());
        }
        for r in result.failures() {
            if let Err(e) = &r.file {
                eprintln!("error: {}: {}: {e}", m.id(), r.artifact);
            }
        }
        let paths: Vec<String> = result
            .files()
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        out.push_str(&format!("{}\t{}\n", m.id(), paths.join(":")));
    }
    crate::out(&out);
    let failed = answer.failures().next().is_some();
    u8::from(failed)
}
