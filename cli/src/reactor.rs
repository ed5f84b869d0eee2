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
//! ([`m2resolver::Session::blocking_read_workspace`]) and answers per module; messages go
//! through `report.rs`.

use crate::options::Opened;
use crate::report;
use m2resolver::explain::to_canonical_json;
use m2resolver::printable::error_chain;
use m2resolver::resolution::collect::view::{self, TreeOptions};
use m2resolver::resolution::workspace::view as reactor_view;
use m2resolver::resolution::workspace::{discover, Module, Phase, Workspace, WorkspaceError};
use m2resolver::{ClasspathScope, CollectResult, ResolveResult, SessionError, WorkspaceResult};
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
pub fn read(opened: &Opened, pom: &Path, json: bool) -> Reactor {
    let session = &opened.session;
    if !discover::lists_modules(&session.environment().cwd.join(pom)) {
        return Reactor::Single;
    }
    let read = session.blocking_read_workspace(pom, &opened.repositories);
    match read {
        Ok(ws) if ws.modules().len() > 1 => Reactor::Modules(ws),
        Ok(_) => Reactor::Single,
        Err(SessionError::Workspace { source, .. })
            if matches!(*source, WorkspaceError::Projects { root: true, .. }) =>
        {
            Reactor::Single
        }
        Err(SessionError::Workspace { source, .. }) => {
            opened.progress.finish();
            let lines = error_lines(&source);
            for l in &lines {
                report::error_text(l);
            }
            if json {
                crate::out(&(to_canonical_json(&reactor_view::failed_json(&lines)) + "\n"));
            }
            Reactor::Failed(1)
        }
        Err(e) => {
            opened.progress.finish();
            crate::tree::report_failure(&e);
            Reactor::Failed(1)
        }
    }
}

/// One line per failure of the reactor (each with its causes).
fn error_lines(e: &WorkspaceError) -> Vec<String> {
    match e {
        WorkspaceError::Projects { failures, .. } => failures.iter().map(error_chain).collect(),
        other => vec![error_chain(other)],
    }
}

/// A module's collection warnings and errors on stderr (errors named by the module).
fn report_module(m: &Module, result: &CollectResult) {
    for p in &result.problems {
        report::warning(&p.to_string());
    }
    for e in &result.errors {
        report::error_text(&format!("{}: {}", m.id(), error_chain(e)));
    }
}

/// `m2r tree` of a reactor; returns the exit status.
pub fn tree(opened: &Opened, ws: &Workspace, json: bool, options: &TreeOptions) -> u8 {
    // `mvn dependency:tree` runs no lifecycle phase: the reactor gives POMs only.
    let ws = ws.with_phase(Phase::None);
    // The plugin's own class path shares the build's dependencies; only the verbose tree's
    // scope notes can show it, so only that tree reads the plugin's POMs.
    let ws = if options.verbose {
        ws.with_plugin(view::tree_plugin())
    } else {
        ws
    };
    let answer = opened
        .session
        .blocking_collect_workspace(&ws, &opened.repositories);
    opened.progress.finish();
    let answer = match answer {
        Ok(a) => a,
        Err(e) => {
            crate::tree::report_failure(&e);
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
                    crate::tree::report_failure(e);
                    return 1;
                }
            };
            report_module(m, result);
            docs.push((m, result));
        }
        crate::out(&(to_canonical_json(&reactor_view::tree_json(&ws, docs)) + "\n"));
        return u8::from(answer.failures().next().is_some());
    }
    let mut blocks: Vec<String> = Vec::new();
    for (i, (m, answer)) in ws.modules().iter().zip(&answer.modules).enumerate() {
        let failed = match &answer.result {
            Ok(result) => {
                report_module(m, result);
                let text = view::render_maven_tree(result, options);
                blocks.push(if text.is_empty() { "\n".into() } else { text });
                false
            }
            Err(SessionError::Collect { result, .. }) => {
                report_module(m, result);
                true
            }
            Err(e) => {
                crate::tree::report_failure(e);
                true
            }
        };
        if failed {
            // Maven's reactor stops at the first project that fails: nothing on stdout.
            let skipped: Vec<String> = ws.modules()[i + 1..].iter().map(Module::id).collect();
            if !skipped.is_empty() {
                report::error_text(&format!("skipped after {}: {}", m.id(), skipped.join(", ")));
            }
            return 1;
        }
    }
    crate::out(&blocks.join("\n"));
    0
}

/// `m2r resolve` of a reactor; returns the exit status.
pub fn resolve(opened: &Opened, ws: &Workspace, scope: Option<ClasspathScope>) -> u8 {
    let answer = opened
        .session
        .blocking_resolve_workspace(ws, &opened.repositories, scope);
    opened.progress.finish();
    let answer = match answer {
        Ok(a) => a,
        Err(e) => {
            crate::tree::report_failure(&e);
            return 1;
        }
    };
    let (out, failed) = report_resolved(ws, &answer, None);
    crate::out(&out);
    u8::from(failed)
}

/// Every module resolved and locked (`lock_scope`: the class path the lock is for), warnings
/// and failures reported on stderr: the class-path lines of `scope` (as [`report_resolved`]
/// makes them) and the lock, or `Err` with the exit status when the engine or a module failed
/// (there is no lock then).
pub fn resolve_and_lock(
    opened: &Opened,
    ws: &Workspace,
    lock_scope: Option<ClasspathScope>,
    scope: Option<ClasspathScope>,
) -> Result<(String, m2resolver::Lock), u8> {
    let answer =
        opened
            .session
            .blocking_resolve_and_lock_workspace(ws, &opened.repositories, lock_scope);
    opened.progress.finish();
    let (results, lock) = answer.map_err(|e| {
        crate::tree::report_failure(&e);
        1
    })?;
    let (out, failed) = report_resolved(ws, &results, scope);
    match lock {
        Some(lock) if !failed => Ok((out, lock)),
        _ => Err(1),
    }
}

/// Reports every module's warnings and failures on stderr; returns the class-path lines
/// (`groupId:artifactId:version`, a tab, the files of `scope` — `None`: every resolved file —
/// `:`-separated) and whether a module failed.
pub fn report_resolved(
    ws: &Workspace,
    answer: &WorkspaceResult<ResolveResult>,
    scope: Option<ClasspathScope>,
) -> (String, bool) {
    let mut out = String::new();
    for (m, answer) in ws.modules().iter().zip(&answer.modules) {
        let result = match &answer.result {
            Ok(r) => r,
            Err(SessionError::Resolve { result, .. }) => result,
            Err(e) => {
                report::error_text(&format!("{}: {}", m.id(), error_chain(e)));
                out.push_str(&format!("{}\t\n", m.id()));
                continue;
            }
        };
        report_module(m, &result.collect);
        for r in result.failures() {
            if let Err(e) = &r.file {
                report::error_text(&format!("{}: {}", m.id(), error_chain(e.as_ref())));
            }
        }
        let files = match scope {
            Some(scope) => result.classpath(scope),
            None => result.files(),
        };
        let paths: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
        out.push_str(&format!("{}\t{}\n", m.id(), paths.join(":")));
    }
    (out, answer.failures().next().is_some())
}
