//! What is wrong with a scenario, said once: the field's dotted path, the
//! value and the reason (and, from JSON text, the line and column).

use std::fmt;

/// A bad scenario: which field, what value, what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioError {
    /// The dotted path of the field (`controller.naming`, `actions[2].at_ms`), or
    /// what was looked up (`preset`).
    pub field: String,
    /// The offending value as written, when there is one.
    pub value: Option<String>,
    pub message: String,
    /// Where in the JSON text, when the error came from parsing it.
    pub line_col: Option<(usize, usize)>,
}

impl ScenarioError {
    pub fn new(field: impl Into<String>, value: Option<String>, message: impl Into<String>) -> Self {
        ScenarioError { field: field.into(), value, message: message.into(), line_col: None }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}", self.message)?;
        } else {
            write!(f, "{}: {}", self.field, self.message)?;
        }
        if let Some(v) = &self.value {
            if !self.message.contains(v.as_str()) {
                write!(f, " (got {v})")?;
            }
        }
        if let Some((line, col)) = self.line_col {
            write!(f, " at line {line}, column {col}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ScenarioError {}
