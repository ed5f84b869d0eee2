//! How `m2r` talks on stderr — one style for every command:
//!
//! - `error: what: cause: cause` for what makes the command fail: each error with its causes
//!   once, walking [`std::error::Error::source`] (no library error repeats its cause in its
//!   message);
//! - `warning: ...` for what does not (a dependency's missing POM, a settings warning, a
//!   settings file that does not exist).
//!
//! Machine output (paths, the class path, JSON documents, the tree) goes to stdout and nothing
//! else does; a failed command prints nothing on stdout (its `--json` document excepted). Every
//! text is escaped for the terminal: values from settings files and servers may hold control
//! characters.

use m2resolver::printable::{error_chain, escape_for_terminal};
use m2resolver::settings::Severity;
use m2resolver::SettingsProblem;

/// `error: ` and the error with its causes.
pub fn error(e: &dyn std::error::Error) {
    error_text(&error_chain(e));
}

/// `error: ` and a message.
pub fn error_text(message: &str) {
    eprintln!("error: {}", escape_for_terminal(message));
}

/// `warning: ` and a message.
pub fn warning(message: &str) {
    eprintln!("warning: {}", escape_for_terminal(message));
}

/// A settings problem, as an error or a warning by its severity, with where it was written.
pub fn settings_problem(p: &SettingsProblem) {
    let text = problem_text(p);
    if p.severity >= Severity::Error {
        error_text(&text);
    } else {
        warning(&text);
    }
}

/// A credential or header value that could not be decrypted: Maven's settings problem (an
/// error in `m2r explain`), but the command goes on without it, so it is a warning here; a
/// request that then fails says why it sent no credential.
pub fn withheld(p: &SettingsProblem) {
    warning(&problem_text(p));
}

/// A settings problem's message with where it was found.
fn problem_text(p: &SettingsProblem) -> String {
    let mut text = p.message.clone();
    // a message that names its place already says it once
    if !p.source.is_empty() && !p.message.contains(&p.source) {
        text.push_str(&format!(" @ {}", p.source));
        if let Some(line) = p.line {
            text.push_str(&format!(", line {line}"));
            if let Some(column) = p.column {
                text.push_str(&format!(", column {column}"));
            }
        }
    }
    text
}
