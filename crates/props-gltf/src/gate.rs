//! The one gate every model passes before it reaches the game: base assets and mods alike, in
//! the game and in `cargo xtask check-assets`. A file is admitted when the checker
//! ([`crate::validate`]: Khronos glTF-Validator's rules, the game's own rules, then the
//! importer) finds no fatal issue; the model comes out of the same run.
//!
//! **Fatal** (the file is refused, the game keeps the last good version): every error, that is
//! everything Khronos's validator calls an error plus the game's own rules (limits, budgets,
//! URIs outside the model's folder, special files, non-finite numbers, zero or non-unit
//! quaternions, joint indices out of range, unsupported required extensions), except the few
//! listed in [`TOLERATED`].
//!
//! **Not fatal** (the file loads; the issue is shown as a warning): Khronos's warnings, what
//! the importer ignores or repairs (`PROPS_IGNORED`: colour sets past `COLOR_0`, further UV sets,
//! texture slots other than base colour,
//! KHR_texture_transform, images downscaled to fit the GPU, ...), and the errors of
//! [`TOLERATED`]: wrong metadata that the game never reads, normals and tangents that are not
//! unit length (normalized when drawn), and weights that do not sum to 1 (drawn as the file
//! says, as the glTF specification defines skinning).

use std::fmt;
use std::path::Path;

use crate::import::Import;
use crate::limits::Limits;
use crate::validate::{self, Issue, Report};

/// Errors the game tolerates, each with why: the file loads and the error shows as a warning.
pub const TOLERATED: &[(&str, &str)] = &[
    ("ACCESSOR_MIN_MISMATCH", "accessor bounds are metadata; the game computes its own"),
    ("ACCESSOR_MAX_MISMATCH", "accessor bounds are metadata; the game computes its own"),
    ("ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND", "accessor bounds are metadata; the game computes its own"),
    ("ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND", "accessor bounds are metadata; the game computes its own"),
    ("CAMERA_XMAG_YMAG_ZERO", "the game does not use the file's cameras"),
    ("CAMERA_ZFAR_LEQUAL_ZNEAR", "the game does not use the file's cameras"),
    ("MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS", "accessor bounds are metadata; the game computes its own"),
    ("ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS", "key time bounds are metadata; the game reads the times"),
    (
        "ACCESSOR_VECTOR3_NON_UNIT",
        "the shader normalizes normals (a zero one is drawn as if facing away from the light)",
    ),
    ("ACCESSOR_INVALID_SIGN", "tangents are not read by the renderer"),
    ("ACCESSOR_NON_CLAMPED", "vertex colours are clamped to 0..1 when drawn"),
    (
        "ACCESSOR_WEIGHTS_NON_NORMALIZED",
        "drawn as stored, as the glTF specification defines skinning (parts may look shrunk or swollen)",
    ),
];

/// Whether the game refuses a file with an error of this code.
#[must_use]
pub fn is_fatal_code(code: &str) -> bool {
    !TOLERATED.iter().any(|(tolerated, _)| *tolerated == code)
}

/// A file that passed the gate: its model, and what the checker noticed that is not fatal.
#[derive(Debug)]
pub struct Admitted {
    /// The imported model.
    pub import: Import,
    /// The checker's report: warnings and tolerated errors only.
    pub report: Report,
}

/// A file the gate refused, with the checker's report (at least one fatal issue).
#[derive(Debug)]
pub struct Refused {
    /// Every issue found.
    pub report: Report,
}

impl Refused {
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
