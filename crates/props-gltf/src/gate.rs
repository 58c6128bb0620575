//! The one gate every model passes before it reaches the game: base assets and mods alike, in
//! the game and in `cargo xtask check-assets`. The checker ([`crate::validate`]: Khronos
//! glTF-Validator's rules, the game's own rules, then the importer) reports every issue, and
//! the rule table ([`crate::rules`]) says what the game does about each:
//!
//! - **Refused**: what is unsafe (limits, budgets, URIs outside the model's folder, special
//!   files, poses that overflow, a skin without joints), and what is unreadable or
//!   meaningless where no droppable part holds it (a broken container, a node's zero
//!   rotation, NaN in a skin's matrices, a buffer, a required extension that is not
//!   implemented). The game keeps the last good version.
//! - **Dropped**: what is unreadable or meaningless inside a part (NaN or a zero quaternion
//!   in a clip's keys, vertices bound to joints the skin lacks): that clip is dropped, that
//!   primitive skipped, that material drawn as the default one, that texture or image left
//!   out ([`crate::Part`]). A model all of whose primitives are dropped is refused.
//! - **Loaded**: everything else, each issue shown with its Khronos code: invalid glTF that
//!   the game can read (strides on animation or skin data, a scene listing a child node, an
//!   empty array, several channels on one property, mixed as three.js does), and the warnings.

use std::fmt;
use std::path::Path;

use crate::import::Import;
use crate::limits::Limits;
use crate::validate::{self, Consequence, Issue, Report};

/// A file that passed the gate: its model, and what the checker noticed that is not fatal.
#[derive(Debug)]
pub struct Admitted {
    /// The imported model.
    pub import: Import,
    /// The checker's report: no issue in it refuses the file; some may drop parts
    /// ([`Report::outcome`]).
    pub report: Report,
}

/// A file the gate refused, with the checker's report (at least one fatal issue).
#[derive(Clone, Debug)]
pub struct Refused {
    /// Every issue found.
    pub report: Report,
}

impl Refused {
    /// A refusal of `file` for one issue found outside the checker (by whoever loads the file:
    /// a mods folder's own rules, the GPU's limits), with its code, the JSON pointer (or a
    /// path in another file; empty for the whole file) and the message, which says the fix.
    #[must_use]
    pub fn one(file: &Path, code: &'static str, pointer: &str, message: String) -> Self {
        let mut report = Report::new(file);
        report.issues.push(Issue { consequence: Consequence::Refuses, ..Issue::error(code, pointer, message) });
        report.refused = true;
        Self { report }
    }

    /// The fatal issues.
    pub fn fatal(&self) -> impl Iterator<Item = &Issue> {
        self.report.issues.iter().filter(|issue| issue.is_fatal())
    }
}

/// The first fatal issue as a line, `file: /json/pointer: error[CODE]: message`, and how many
/// more there are.
impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut fatal = self.fatal();
        match fatal.next() {
            Some(first) => write!(f, "{}: {first}", self.report.file.display())?,
            None => write!(f, "{}: refused", self.report.file.display())?,
        }
        match fatal.count() {
            0 => Ok(()),
            1 => write!(f, " (and 1 more error)"),
            more => write!(f, " (and {more} more errors)"),
        }
    }
}

impl std::error::Error for Refused {}

/// Checks and imports a `.gltf` / `.glb` file: the game's only way to load a model. External
/// files it references must lie in its folder.
pub fn admit_file(path: &Path, limits: &Limits) -> Result<Admitted, Refused> {
    verdict(validate::inspect_file(path, limits))
}

/// [`admit_file`] for a file held in memory (`base_dir`: the folder its external files are
/// confined to, `None` refusing all; `file_label` names it in the report).
pub fn admit_slice(
    bytes: &[u8],
    base_dir: Option<&Path>,
    file_label: &Path,
    limits: &Limits,
) -> Result<Admitted, Refused> {
    verdict(validate::inspect_slice(bytes, base_dir, file_label, limits))
}

fn verdict((report, import): (Report, Option<Import>)) -> Result<Admitted, Refused> {
    match import {
        Some(import) if !report.is_fatal() => Ok(Admitted { import, report }),
        _ => Err(Refused { report }),
    }
}
