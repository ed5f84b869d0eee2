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
use std::process::ExitCode;

/// Runs `m2r explain`.
pub fn run(common: &CommonArgs, json: bool, show_secrets: bool) -> ExitCode {
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
    let explanation = match common.session_builder().build() {
        Ok(session) => Explanation::new(&session, &declared),
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
