//! What the checker found: [`Issue`]s with a severity, a code and a JSON pointer, collected in
//! a [`Report`] per file.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::parts::Part;
use crate::rules::{self, Scope};

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

/// What the game does about an issue (see [`crate::rules`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "consequence", content = "parts", rename_all = "lowercase")]
pub enum Consequence {
    /// The file loads as it is (a warning, or an error the game reads past).
    Loads,
    /// The file loads without these parts.
    Drops(Vec<Part>),
    /// The file is refused.
    Refuses,
}

impl Consequence {
    /// The consequence of an issue of `severity` and `code`, before it is placed in a
    /// document: a fatal error refuses the file until its part is known
    /// (`crate::parts::PartMap`).
    pub(crate) fn of_code(severity: Severity, code: &str) -> Self {
        match (severity, rules::scope(code)) {
            (Severity::Error, Some(_)) => Self::Refuses,
            _ => Self::Loads,
        }
    }

    /// The consequence of a fatal error of `scope` that reaches `parts` (`None`: no
    /// droppable part holds it).
    pub(crate) fn placed(scope: Scope, parts: Option<Vec<Part>>) -> Self {
        match (scope, parts) {
            (Scope::File, _) | (Scope::Part, None) => Self::Refuses,
            (Scope::Part, Some(parts)) if parts.is_empty() => Self::Loads,
            (Scope::Part, Some(parts)) => Self::Drops(parts),
        }
    }
}

/// One problem of a file. Serializes with `fix` ([`Issue::fix`]) and `fatal` ([`Issue::is_fatal`])
/// beside its fields.
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
    /// What the game does about it.
    pub consequence: Consequence,
}

impl Issue {
    /// An error. Its consequence is the rule table's for the code; an error fatal to a part
    /// refuses the file until the checker places it in its document.
    pub fn error(code: &'static str, json_pointer: impl Into<String>, message: impl Into<String>) -> Self {
        let consequence = Consequence::of_code(Severity::Error, code);
        Self {
            severity: Severity::Error,
            code,
            json_pointer: json_pointer.into(),
            message: message.into(),
            consequence,
        }
    }

    /// A warning.
    pub fn warning(code: &'static str, json_pointer: impl Into<String>, message: impl Into<String>) -> Self {
        let (json_pointer, message) = (json_pointer.into(), message.into());
        Self { severity: Severity::Warning, code, json_pointer, message, consequence: Consequence::Loads }
    }

    /// Whether the game refuses the file for it (see [`crate::rules`]).
    #[must_use]
    pub fn is_fatal(&self) -> bool {
        self.consequence == Consequence::Refuses
    }

    /// The parts the game drops for it.
    pub fn dropped(&self) -> &[Part] {
        match &self.consequence {
            Consequence::Drops(parts) => parts,
            Consequence::Loads | Consequence::Refuses => &[],
        }
    }
}

impl Serialize for Issue {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let mut issue = serializer.serialize_struct("Issue", 7)?;
        issue.serialize_field("severity", &self.severity)?;
        issue.serialize_field("code", self.code)?;
        issue.serialize_field("pointer", &self.json_pointer)?;
        issue.serialize_field("message", &self.message)?;
        issue.serialize_field("fix", &self.fix())?;
        issue.serialize_field("fatal", &self.is_fatal())?;
        issue.serialize_field("dropped", self.dropped())?;
        issue.end()
    }
}

impl Issue {
    /// What a modder does about it: for an error, the rule table's fix ([`crate::rules::fix`],
    /// the game refusing the file, dropping a part or reading past it; `None` where its message
    /// names its own, as a limit's does).
    #[must_use]
    pub fn fix(&self) -> Option<&'static str> {
        (self.severity == Severity::Error).then(|| rules::fix(self.code)).flatten()
    }

    /// The end of its line, after the message: its fix ([`Issue::fix`]), then what the game
    /// does about it: `; fix the keys (the game drops clip 2 (`Run`))`, ` (the game reads past
    /// it)`, `; export it again (the game refuses the file)`; nothing for a warning.
    #[must_use]
    pub fn ending(&self) -> String {
        let fix = self.fix().map(|fix| format!("; {fix}")).unwrap_or_default();
        let consequence = match (&self.consequence, self.severity) {
            (Consequence::Loads, Severity::Warning) => String::new(),
            (Consequence::Loads, Severity::Error) => " (the game reads past it)".to_owned(),
            (Consequence::Drops(parts), _) => {
                let parts: Vec<String> = parts.iter().map(ToString::to_string).collect();
                format!(" (the game {})", parts.join(", "))
            }
            (Consequence::Refuses, _) => " (the game refuses the file)".to_owned(),
        };
        fix + &consequence
    }
}

/// Displays as `{pointer}: {severity}[{code}]: {message}` (no pointer for the whole file), and
/// its fix and what the game does about it ([`Issue::ending`]).
impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.json_pointer.is_empty() {
            write!(f, "{}: ", self.json_pointer)?;
        }
        write!(f, "{}[{}]: {}{}", self.severity, self.code, self.message, self.ending())
    }
}

/// Everything found in one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The file checked.
    pub file: PathBuf,
    /// Its issues, in the order found (capped: see [`Report::dropped`] and
    /// [`Report::refused`] for what every issue, listed or not, makes the game do).
    pub issues: Vec<Issue>,
    /// Every part the issues drop, listed or not.
    pub dropped: Vec<Part>,
    /// Whether some issue, listed or not, refuses the file.
    pub refused: bool,
}

impl Report {
    /// A report on `file` with no issue yet.
    pub fn new(file: &Path) -> Self {
        Self { file: file.to_owned(), issues: Vec::new(), dropped: Vec::new(), refused: false }
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
        self.refused || self.issues.iter().any(Issue::is_fatal)
    }

    /// What the game does with the file, in the issues' words.
    pub fn outcome(&self) -> Outcome {
        if self.is_fatal() {
            return Outcome::Refuses;
        }
        let listed = self.issues.iter().flat_map(|issue| issue.dropped().iter().cloned());
        let mut dropped: Vec<Part> = self.dropped.iter().cloned().chain(listed).collect();
        dropped.sort();
        dropped.dedup();
        let shown = |severity| {
            self.issues.iter().filter(|i| i.consequence == Consequence::Loads && i.severity == severity).count()
        };
        Outcome::Loads { dropped, read_past: shown(Severity::Error), warnings: shown(Severity::Warning) }
    }

    /// Whether an issue with `code` is reported at `json_pointer`.
    pub fn contains(&self, code: &str, json_pointer: &str) -> bool {
        self.issues.iter().any(|i| i.code == code && i.json_pointer == json_pointer)
    }

    fn count(&self, severity: Severity) -> usize {
        self.issues.iter().filter(|i| i.severity == severity).count()
    }
}

/// What the game does with a file: [`Report::outcome`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "lowercase")]
pub enum Outcome {
    /// The file loads, without the parts dropped, and shows its other issues.
    Loads {
        /// The parts left out.
        dropped: Vec<Part>,
        /// The errors the game reads past.
        read_past: usize,
        /// The warnings.
        warnings: usize,
    },
    /// The file is refused; the game keeps the last good version.
    Refuses,
}

/// `loads`, `loads; 3 warnings`, `drops clip 2 (`Run`), loads; 1 error read past, 1 warning`,
/// `refuses`: errors and warnings counted as the issue lines above it and the summary count
/// them.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self::Loads { dropped, read_past, warnings } = self else {
            return f.write_str("refuses");
        };
        for part in dropped {
            write!(f, "{part}, ")?;
        }
        f.write_str("loads")?;
        let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        match (read_past, warnings) {
            (0, 0) => Ok(()),
            (0, w) => write!(f, "; {}", plural(*w, "warning", "warnings")),
            (e, 0) => write!(f, "; {}", plural(*e, "error read past", "errors read past")),
            (e, w) => {
                write!(
                    f,
                    "; {}, {}",
                    plural(*e, "error read past", "errors read past"),
                    plural(*w, "warning", "warnings")
                )
            }
        }
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
        // The rule table's fix follows the message.
        let fix = "export the model again, or copy its .bin again beside the .gltf it was exported with: the data \
                   and the JSON disagree";
        assert_eq!(
            report.to_string(),
            format!(
                "mods/a.glb: /accessors/3: error[ACCESSOR_TOO_LONG]: too long; {fix} (the game refuses the file)\n\
                 mods/a.glb: warning[GLB_EXTRA_DATA]: extra bytes\n"
            )
        );
        assert_eq!((report.errors(), report.warnings(), report.has_errors()), (1, 1, true));
        assert!(report.contains("ACCESSOR_TOO_LONG", "/accessors/3"));
        // Read past, the error is counted as an error, as the summary counts it.
        let mut lenient = report.clone();
        lenient.issues[0].consequence = Consequence::Loads;
        assert_eq!(lenient.outcome().to_string(), "loads; 1 error read past, 1 warning");
        lenient.issues.push(Issue::warning("GLB_EXTRA_DATA", "", "extra bytes"));
        assert_eq!(lenient.outcome().to_string(), "loads; 1 error read past, 2 warnings");
        let json = serde_json::to_value(&report).expect("serializes");
        assert_eq!(json["issues"][0]["pointer"], "/accessors/3");
        assert_eq!(json["issues"][1]["severity"], "warning");
        assert_eq!((json["issues"][0]["fix"].as_str(), json["issues"][1]["fix"].as_str()), (Some(fix), None));
        assert_eq!(
            (json["issues"][0]["fatal"].as_bool(), json["issues"][1]["fatal"].as_bool()),
            (Some(true), Some(false))
        );
    }
}
