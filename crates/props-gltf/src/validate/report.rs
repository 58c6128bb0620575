//! What the checker found: [`Issue`]s with a severity, a code and a JSON pointer, collected in
//! a [`Report`] per file.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// How bad an issue is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The game refuses the file (or Khronos's validator calls it invalid glTF).
    Error,
    /// The file loads, but something is odd or ignored.
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Error => "error",
            Self::Warning => "warning",
        })
    }
}

/// One problem of a file. Serializes with `fatal` ([`Issue::is_fatal`]) beside its fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    /// Error or warning.
    pub severity: Severity,
    /// Khronos glTF-Validator's issue code where one exists (`ACCESSOR_TOO_LONG`), else the
    /// project's own (`PROPS_URI_OUTSIDE_FOLDER`).
    pub code: &'static str,
    /// Where in the glTF JSON, as a JSON pointer (`/animations/0/samplers/1/input`); empty for
    /// the file as a whole.
    pub json_pointer: String,
    /// What is wrong, for a person.
    pub message: String,
}

impl Issue {
    /// An error.
    pub fn error(code: &'static str, json_pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self { severity: Severity::Error, code, json_pointer: json_pointer.into(), message: message.into() }
    }

    /// A warning.
    pub fn warning(code: &'static str, json_pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self { severity: Severity::Warning, code, json_pointer: json_pointer.into(), message: message.into() }
    }

    /// Whether the game refuses the file for it (see [`crate::gate`]): every error but the
    /// tolerated ones.
    #[must_use]
    pub fn is_fatal(&self) -> bool {
        self.severity == Severity::Error && crate::gate::is_fatal_code(self.code)
    }
}

impl Serialize for Issue {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let mut issue = serializer.serialize_struct("Issue", 5)?;
        issue.serialize_field("severity", &self.severity)?;
        issue.serialize_field("code", self.code)?;
        issue.serialize_field("pointer", &self.json_pointer)?;
        issue.serialize_field("message", &self.message)?;
        issue.serialize_field("fatal", &self.is_fatal())?;
        issue.end()
    }
}

/// Displays as `{pointer}: {severity}[{code}]: {message}` (no pointer for the whole file).
impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.json_pointer.is_empty() {
            write!(f, "{}: ", self.json_pointer)?;
        }
        write!(f, "{}[{}]: {}", self.severity, self.code, self.message)
    }
}

/// Everything found in one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The file checked.
    pub file: PathBuf,
    /// Its issues, in the order found.
    pub issues: Vec<Issue>,
}

impl Report {
    /// A report on `file` with no issue yet.
    pub fn new(file: &Path) -> Self {
        Self { file: file.to_owned(), issues: Vec::new() }
    }

    /// The number of errors.
    pub fn errors(&self) -> usize {
        self.count(Severity::Error)
    }

    /// The number of warnings.
    pub fn warnings(&self) -> usize {
        self.count(Severity::Warning)
    }

    /// Whether the file has an error (Khronos's sense: invalid glTF, or over a game rule).
    pub fn has_errors(&self) -> bool {
        self.errors() > 0
    }

    /// Whether the game refuses the file: it has a fatal issue (see [`crate::gate`]).
    pub fn is_fatal(&self) -> bool {
        self.issues.iter().any(Issue::is_fatal)
    }

    /// Whether an issue with `code` is reported at `json_pointer`.
    pub fn contains(&self, code: &str, json_pointer: &str) -> bool {
        self.issues.iter().any(|i| i.code == code && i.json_pointer == json_pointer)
    }

    fn count(&self, severity: Severity) -> usize {
        self.issues.iter().filter(|i| i.severity == severity).count()
    }
}

/// One line per issue, like rustc: `{file}: {pointer}: {severity}[{code}]: {message}`.
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for issue in &self.issues {
            writeln!(f, "{}: {issue}", self.file.display())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_look_like_rustc() {
        let mut report = Report::new(Path::new("mods/a.glb"));
        report.issues.push(Issue::error("ACCESSOR_TOO_LONG", "/accessors/3", "too long"));
        report.issues.push(Issue::warning("GLB_EXTRA_DATA", "", "extra bytes"));
        assert_eq!(
            report.to_string(),
            "mods/a.glb: /accessors/3: error[ACCESSOR_TOO_LONG]: too long\nmods/a.glb: warning[GLB_EXTRA_DATA]: extra bytes\n"
        );
        assert_eq!((report.errors(), report.warnings(), report.has_errors()), (1, 1, true));
        assert!(report.contains("ACCESSOR_TOO_LONG", "/accessors/3"));
        let json = serde_json::to_value(&report).expect("serializes");
        assert_eq!(json["issues"][0]["pointer"], "/accessors/3");
        assert_eq!(json["issues"][1]["severity"], "warning");
        assert_eq!(
            (json["issues"][0]["fatal"].as_bool(), json["issues"][1]["fatal"].as_bool()),
            (Some(true), Some(false))
        );
    }
}
