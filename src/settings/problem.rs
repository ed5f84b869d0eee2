//! Problems found while building settings: what went wrong, how bad it is, and where.
//!
//! A [`SettingsProblem`] mirrors Maven's `SettingsProblem` (severity, message, source, line, column) plus the
//! pipeline [`Stage`] it came from, which `m2r explain --json` prints.

use serde::Serialize;
use std::fmt;

/// How bad a problem is. Ordered: `Warning < Error < Fatal`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Severity {
    /// Printed, the build goes on.
    Warning,
    /// Stops the build once the current step is complete.
    Error,
    /// Stops the build at once (unreadable or unparseable file).
    Fatal,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "WARNING",
            Severity::Error => "ERROR",
            Severity::Fatal => "FATAL",
        })
    }
}

/// The pipeline step that reported a problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Stage {
    /// Reading, merging, interpolating, validating.
    Build,
    /// Decrypting passwords.
    Decrypt,
    /// Profile activation and injection.
    Activation,
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stage::Build => "build",
            Stage::Decrypt => "decrypt",
            Stage::Activation => "activation",
        })
    }
}

/// One problem, with the file it concerns and (when Maven reports one) a 1-based position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsProblem {
    /// How bad it is.
    pub severity: Severity,
    /// Which step found it.
    pub stage: Stage,
    /// What went wrong and what to do; never contains a secret.
    pub message: String,
    /// The file (or other source) concerned, as given by the caller; empty when none.
    pub source: String,
    /// 1-based line, when the problem is tied to a position Maven reports.
    pub line: Option<u32>,
    /// 1-based column, when the problem is tied to a position Maven reports.
    pub column: Option<u32>,
}

impl SettingsProblem {
    /// A problem without a position.
    pub fn new(
        severity: Severity,
        stage: Stage,
        source: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        SettingsProblem {
            severity,
            stage,
            message: message.into(),
            source: source.into(),
            line: None,
            column: None,
        }
    }

    /// The same problem tied to a 1-based line and column.
    pub fn at(mut self, line: u32, column: u32) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }
}

impl fmt::Display for SettingsProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_problem(
            f,
            self.severity,
            &self.message,
            &self.source,
            self.line,
            self.column,
        )
    }
}

/// Maven's one-line form of a model problem (`[ERROR] message @ source, line L, column C`),
/// shared by settings and POM problems.
pub(crate) fn write_problem(
    f: &mut fmt::Formatter<'_>,
    severity: Severity,
    message: &str,
    source: &str,
    line: Option<u32>,
    column: Option<u32>,
) -> fmt::Result {
    write!(f, "[{severity}] {message}")?;
    if !source.is_empty() {
        write!(f, " @ {source}")?;
        if let Some(line) = line {
            write!(f, ", line {line}")?;
            if let Some(column) = column {
                write!(f, ", column {column}")?;
            }
        }
    }
    Ok(())
}
