//! `m2r explain`: what the session decided for a build, and why (`--json`: the document of the
//! CLI contract, equal to what real Maven computes).
//!
//! Owns turning the options into a session and printing the library's [`Explanation`]; exit
//! status 1 when the settings could not be built, 2 for a usage error. The human form uses the
//! one default repository rule of every command (`--repo`, else Maven's central); the JSON
//! document lists what was declared, as the contract (and real Maven's answer) does.

use crate::options::CommonArgs;
use m2resolver::explain::{to_canonical_json, Explanation};
use m2resolver::printable::escape_for_terminal;
use m2resolver::publish::alt_deployment_repository;
use std::process::ExitCode;

/// Runs `m2r explain`.
pub fn run(
    common: &CommonArgs,
    json: bool,
    show_secrets: bool,
    deploy_to: Option<&str>,
) -> ExitCode {
    match common.check_files() {
        Ok(notices) if !json => notices.iter().for_each(|n| crate::report::warning(n)),
        Ok(_) => {}
        Err(e) => return crate::usage_error(&e),
    }
    let declared = if json {
        common.declared().map_err(|e| crate::usage_error(&e))
    } else {
        common.declared_or_central().map_err(ExitCode::from)
    };
    let declared = match declared {
        Ok(r) => r,
        Err(code) => return code,
    };
    let deployment = match deploy_to.map(alt_deployment_repository).transpose() {
        Ok(d) => d.map(|(repo, _)| repo),
        Err(e) => return crate::usage_error(&e.to_string()),
    };
    let explanation = match common.session_builder().build() {
        Ok(session) => {
            let e = Explanation::new(&session, &declared);
            match &deployment {
                Some(repo) => e.with_deployment(&session, repo),
                None => e,
            }
        }
        Err(e) => Explanation::from_error(&e),
    };
    let text = if json {
        to_canonical_json(&explanation.to_json()) + "\n"
    } else {
        // Settings values may hold raw control characters: never let them reach a terminal
        // as such.
        escape_for_terminal(&explanation.render(show_secrets)).into_owned()
    };
    crate::out(&text);
    if explanation.failed() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
