//! `cargo xtask gen-broken-models`: the checker's corpus of broken glTF files, each a small
//! valid base ([`Doc::base`]) with exactly one defect, written to `tests/models/broken/` with a
//! manifest (`cases.json`) naming each file's category, defect and the game's own issue codes
//! expected for it. The Khronos glTF-Validator's codes for each file are stored separately, as
//! fixtures under `tests/oracle/broken/` (see its README).
//!
//! Output is deterministic, so regenerating gives byte-identical files (a test checks that the
//! committed files are what this writes).

mod cases_anim;
mod cases_container;
mod cases_data;
mod cases_hostile;
mod cases_schema;
mod cases_skin_node;
mod doc;

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde_json::{Value, json};

use crate::test_models::builder::Container;
pub use doc::Doc;

/// One broken file.
pub struct Case {
    /// File stem.
    pub name: &'static str,
    /// What part of glTF the defect is in (`container`, `buffers`, `accessors`, `meshes`,
    /// `skins`, `nodes`, `animations`, `extensions`, `uris`, `limits`).
    pub category: &'static str,
    /// The defect, in words.
    pub defect: &'static str,
    /// How the file is stored.
    pub container: Container,
    /// Applies the defect to the base.
    pub apply: fn(&mut Doc) -> Result<()>,
    /// The game's own issues expected, beyond Khronos's: `"CODE /json/pointer"`.
    pub game: &'static [&'static str],
    /// Khronos errors the checker does not report for this file, each with why.
    pub differences: &'static [(&'static str, &'static str)],
}

impl Case {
    /// A case of a `.gltf` file with its buffer embedded, with none of the game's own codes
    /// expected and no difference from Khronos.
    pub const fn new(
        name: &'static str,
        category: &'static str,
        defect: &'static str,
        apply: fn(&mut Doc) -> Result<()>,
    ) -> Self {
        Self { name, category, defect, container: Container::Embedded, apply, game: &[], differences: &[] }
    }

    /// Stored as `container` instead.
    pub const fn in_container(self, container: Container) -> Self {
        Self { container, ..self }
    }

    /// Expects the game's own issues `game` (`"CODE /json/pointer"`).
    pub const fn game(self, game: &'static [&'static str]) -> Self {
        Self { game, ..self }
    }

    /// Khronos errors the checker does not report, each with why.
    pub const fn differences(self, differences: &'static [(&'static str, &'static str)]) -> Self {
        Self { differences, ..self }
    }
}

/// Every case, in output order.
fn cases() -> Vec<&'static Case> {
    [
        cases_container::CASES,
        cases_data::CASES,
        cases_schema::CASES,
        cases_skin_node::CASES,
        cases_anim::CASES,
        cases_hostile::CASES,
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The files of one case.
fn files(case: &Case) -> Result<Vec<(String, Vec<u8>)>> {
    let mut doc = Doc::base(case.container)?;
    (case.apply)(&mut doc).with_context(|| format!("applying defect {}", case.name))?;
    doc.files(case.name)
}

/// The manifest: one entry per case.
fn manifest() -> Result<Vec<u8>> {
    let entries = cases()
        .into_iter()
        .map(|case| {
            let file = files(case)?.into_iter().next().map(|(name, _)| name).context("no files")?;
            let differences: Vec<Value> =
                case.differences.iter().map(|(code, why)| json!({"code": code, "why": why})).collect();
            Ok(json!({
                "file": file,
                "category": case.category,
                "defect": case.defect,
                "game": case.game,
                "differences": differences,
            }))
        })
        .collect::<Result<Vec<Value>>>()?;
    let mut text = serde_json::to_string_pretty(&Value::Array(entries))?;
    text.push('\n');
    Ok(text.into_bytes())
}

/// Writes every broken model and the manifest into `out_dir`; returns the paths written.
pub fn generate(out_dir: &Path) -> Result<Vec<PathBuf>> {
    fs::create_dir_all(out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
    let mut written = Vec::new();
    let mut all = Vec::new();
    for case in cases() {
        all.extend(files(case)?);
    }
    all.push(("cases.json".to_owned(), manifest()?));
    for (name, bytes) in all {
        let path = out_dir.join(name);
        fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    #[test]
    fn cases_are_many_distinct_and_small() {
        let cases = cases();
        assert!(cases.len() >= 40, "only {} cases", cases.len());
        let names: BTreeSet<&str> = cases.iter().map(|c| c.name).collect();
        assert_eq!(names.len(), cases.len(), "case names repeat");
        for case in cases {
            let size: usize = files(case).expect("builds").iter().map(|(_, bytes)| bytes.len()).sum();
            assert!(size < 100_000, "{} is {size} bytes", case.name);
        }
    }

    #[test]
    fn committed_broken_models_are_what_the_generator_writes() {
        let hint = "run `sh tests/oracle/broken/regenerate.sh` (the models and the validator fixtures)";
        crate::test_models::assert_committed_files_are_generated("tests/models/broken", generate, hint);
    }
}
