//! The checker: Khronos-grade validation of a glTF file, with the game's own rules, shared by
//! `cargo xtask check-assets` and the game's mod loading.
//!
//! [`check_file`] runs two passes and reports every problem it finds as an [`Issue`] with a
//! JSON pointer and the Khronos glTF-Validator issue code where one exists:
//!
//! 1. **The semantic rules** of the Khronos validator for the container, buffers, accessors,
//!    meshes, skins, nodes and animations (one module each), plus the game's own (at most 64
//!    influences, [`Limits`], URIs confined to the model's folder, finite numbers). These go on
//!    past the first problem, so a modder sees them all; a broken container or JSON that is
//!    not glTF stops them early.
//! 2. **The importer itself** ([`crate::import_slice`]), when the first pass found no error:
//!    whatever stops it becomes an error issue (`importer.rs` maps each [`crate::ErrorKind`]
//!    to a code, [`importer`] lists the project's own codes); its warnings become warnings,
//!    and so does the animation lint's verdict on the imported model (`lint.rs`: loop seams,
//!    clips of no length, influence and joint budgets).
//!
//! Invariant: **a file the checker passes without errors imports**, with the same limits and
//! folder, because the importer's verdict is part of the check. (The converse need not hold:
//! the checker is stricter, e.g. about weights that do not sum to 1.)
//!
//! Every check reads the JSON through the gltf crate's types, looks every index up before
//! using it, bounds its loops by counts already checked against [`Limits`], and decodes
//! accessors with the importer's bounds-checked decoder under the same decoded-bytes budget,
//! so no input makes it panic or allocate beyond the limits.

mod accessors;
mod animations;
mod buffers;
mod cameras;
mod container;
mod forest;
mod images;
pub mod importer;
mod issues;
mod lint;
mod meshes;
mod nodes;
mod report;
mod schema;
mod skins;
mod usage;
mod variants;

use std::collections::BTreeSet;
use std::path::Path;

use gltf::json::Root;

use issues::Issues;
pub use report::{Consequence, Issue, Outcome, Report, Severity};

use crate::error::{ErrorKind, ImportError};
use crate::import::{self, Import, import_skipping};
use crate::limits::{Budget, Limits};

/// Checks a `.gltf` / `.glb` file: the semantic rules, then the importer (see the module
/// docs). External files it references must lie in its folder.
pub fn check_file(path: &Path, limits: &Limits) -> Report {
    inspect_file(path, limits).0
}

/// Checks a `.gltf` / `.glb` file held in memory. `base_dir` is the folder external files are
/// resolved (and confined) in; `None` refuses every external file. `file_label` names the file
/// in the report.
pub fn check_slice(bytes: &[u8], base_dir: Option<&Path>, file_label: &Path, limits: &Limits) -> Report {
    inspect_slice(bytes, base_dir, file_label, limits).0
}

/// [`check_file`], keeping the import when the importer ran and succeeded.
pub(crate) fn inspect_file(path: &Path, limits: &Limits) -> (Report, Option<Import>) {
    match import::read_file(path, limits) {
        Ok(bytes) => inspect_slice(&bytes, Some(import::folder_of(path)), path, limits),
        Err(error) => {
            let mut report = Report::new(path);
            report.issues.push(importer::issue(&error));
            (report, None)
        }
    }
}

/// [`check_slice`], keeping the import when the importer ran (no issue refuses the file
/// before it) and succeeded. The importer leaves out the parts the issues drop, and every
/// part it could not read itself becomes an error issue that drops it.
pub(crate) fn inspect_slice(
    bytes: &[u8],
    base_dir: Option<&Path>,
    file_label: &Path,
    limits: &Limits,
) -> (Report, Option<Import>) {
    let mut issues = semantic_issues(bytes, base_dir, limits);
    let mut imported = None;
    if !issues.is_fatal() {
        match import_skipping(bytes, base_dir, file_label, limits, issues.skip()) {
            Ok(import) => {
                // A warning at the pointer of an error the first pass kept says what it said (a
                // material variant's broken mapping, left out).
                let warnings: Vec<Issue> = import.warnings.iter().map(importer::warning).collect();
                let new = warnings.into_iter().filter(|w| !issues.has_error_at(&w.json_pointer)).collect::<Vec<_>>();
                issues.extend(new);
                for dropped in &import.dropped {
                    issues.push_placed(importer::dropped(dropped));
                }
                issues.extend(lint::lint(&import.model));
                imported = Some(import);
            }
            Err(error) => {
                if matches!(error.kind, ErrorKind::NothingDrawable) {
                    // The primitives dropped are why nothing is left: each refuses the file.
                    issues.refuse_primitive_drops();
                }
                issues.push_placed(importer::refusal(&error));
            }
        }
    }
    (issues.into_report(file_label), imported)
}

/// The first pass: every rule, as far as the container and JSON allow.
fn semantic_issues(bytes: &[u8], base_dir: Option<&Path>, limits: &Limits) -> Issues {
    let mut issues = Issues::default();
    let budget = Budget::new(limits.max_decoded_bytes);
    let Some(parsed) = container::parse(bytes, limits, &budget, &mut issues) else {
        return issues;
    };
    let root = &parsed.document.root;
    issues.place_in(root);
    let mut check = Check::new(root, limits, &budget, issues);
    for error in crate::document::validation_findings(root) {
        // The schema rules may have found the same value wrong already.
        let issue = container::reference_issue(&error);
        if !check.issues.has_error_within(&issue.json_pointer) {
            check.issues.push(issue);
        }
    }
    let buffers = buffers::check(&mut check, parsed.bin, base_dir);
    images::check(&mut check, base_dir);
    accessors::check(&mut check, &buffers);
    drop(buffers);
    usage::check(&mut check);
    nodes::check(&mut check);
    cameras::check(&mut check);
    meshes::check(&mut check);
    variants::check(&mut check);
    skins::check(&mut check);
    animations::check(&mut check, &parsed.document);
    check.issues
}

/// What the checks share: the document, the limits, the issues so far, and what earlier
/// checks learned (decoded accessor data, node parents).
struct Check<'a> {
    root: &'a Root,
    limits: &'a Limits,
    /// The decoded-bytes budget of the whole check (parsed JSON, decoded accessors).
    budget: &'a Budget,
    issues: Issues,
    /// Every component of each accessor as stored (integers not dequantized), when it could
    /// be decoded.
    data: Vec<Option<Vec<f32>>>,
    /// The accessors a Draco-compressed primitive fills. Their data is the decoder's, quantized:
    /// their declared bounds and weight sums are those of the data before compression, and are
    /// not checked against it (nor can Khronos's validator, which does not decode Draco).
    compressed: BTreeSet<usize>,
    /// The parent of each node (the first listing it as a child), once `nodes` ran.
    parents: Vec<Option<usize>>,
}

impl<'a> Check<'a> {
    fn new(root: &'a Root, limits: &'a Limits, budget: &'a Budget, issues: Issues) -> Self {
        let parents = vec![None; root.nodes.len()];
        Self { root, limits, budget, issues, data: Vec::new(), compressed: BTreeSet::new(), parents }
    }

    /// Reports an error.
    fn error(&mut self, code: &'static str, json_pointer: impl Into<String>, message: impl Into<String>) {
        self.issues.push(Issue::error(code, json_pointer, message));
    }

    /// Reports a warning.
    fn warning(&mut self, code: &'static str, json_pointer: impl Into<String>, message: impl Into<String>) {
        self.issues.push(Issue::warning(code, json_pointer, message));
    }

    /// Reports an importer error found by a shared check, at its own pointer.
    fn import_error(&mut self, error: &ImportError) {
        self.issues.push(importer::issue(error));
    }

    /// The stored components of accessor `index`, if it was decoded.
    fn data(&self, index: usize) -> Option<&[f32]> {
        self.data.get(index).and_then(Option::as_deref)
    }

    /// Whether `extension` is listed in `extensionsUsed`.
    fn uses_extension(&self, extension: &str) -> bool {
        self.root.extensions_used.iter().any(|e| e == extension)
    }
}
