//! Problems met while reading and building POM models: Maven's `ModelProblem` (severity,
//! message, source, line, column), plus whether the cause was a POM that could not be fetched
//! (Maven's `UnresolvableModelException`, which makes a descriptor fail instead of being
//! reported as invalid).

use crate::settings::Severity;
use std::fmt;

/// One problem of a model build.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelProblem {
    /// `WARNING`, `ERROR` or `FATAL`; an `ERROR` or worse makes the model invalid.
    pub severity: Severity,
    /// What went wrong and, where it helps, what to do.
    pub message: String,
    /// The POM concerned: its file, or its `groupId:artifactId:version`.
    pub source: String,
    /// 1-based line, when known.
    pub line: Option<u32>,
    /// 1-based column, when known.
    pub column: Option<u32>,
    /// True when a parent or imported POM could not be fetched (Maven's
    /// `UnresolvableModelException`): the descriptor then fails instead of being invalid.
    pub unresolvable: bool,
}

impl ModelProblem {
    /// A problem without a position.
    pub fn new(severity: Severity, source: impl Into<String>, message: impl Into<String>) -> Self {
        ModelProblem {
            severity,
            message: message.into(),
            source: source.into(),
            line: None,
            column: None,
            unresolvable: false,
        }
    }

    /// The same problem at a position (ignored when `pos` is `None`).
    pub(crate) fn at(mut self, pos: Option<crate::xml::Pos>) -> Self {
        if let Some(p) = pos {
            self.line = Some(p.line);
            self.column = Some(p.column);
        }
        self
    }

    /// Marks the problem as caused by a POM that could not be fetched.
    pub fn unresolvable(mut self) -> Self {
        self.unresolvable = true;
        self
    }

    /// True for `ERROR` and `FATAL`.
    pub fn is_error(&self) -> bool {
        self.severity >= Severity::Error
    }
}

impl fmt::Display for ModelProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::settings::problem::write_problem(
            f,
            self.severity,
            &self.message,
            &self.source,
            self.line,
            self.column,
        )
    }
}

/// True when any problem is an `ERROR` or `FATAL`.
pub fn has_errors(problems: &[ModelProblem]) -> bool {
    problems.iter().any(ModelProblem::is_error)
}
