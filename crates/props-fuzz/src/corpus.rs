//! The seeds the fuzzer mutates: every model of the project's test folder (real samples,
//! generated cases, the checker's broken corpus), the demo's assets, and the hostile corpus
//! written to a folder.

use std::path::{Path, PathBuf};

use crate::hostile;
use crate::mutate::Seed;
use crate::rng::Below;

/// A seed and the folder its external files are resolved in.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The file.
    pub seed: Seed,
    /// Its folder.
    pub folder: PathBuf,
    /// Whether the gate admits the seed itself (with the default limits): mutations of valid
    /// files reach deeper than those of broken ones, so they are drawn more often.
    pub valid: bool,
}

/// Appends every model file under `dir` (`.gltf`, `.glb`, `.vrm`: as the mods folder takes
/// them), recursively, sorted, not following links.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        let metadata = std::fs::symlink_metadata(&path);
        if metadata.as_ref().is_ok_and(std::fs::Metadata::is_dir) {
            walk(&path, out);
        } else if metadata.is_ok_and(|m| m.is_file())
            && path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| props_mods::MODEL_EXTENSIONS.iter().any(|m| e.eq_ignore_ascii_case(m)))
        {
            out.push(path);
        }
    }
}

/// Writes the hostile corpus into `hostile_dir`, one folder per case (FIFOs and links made
/// where the platform can), replacing what was there.
///
/// # Errors
/// When a case cannot be written.
pub fn write_hostile(hostile_dir: &Path) -> std::io::Result<()> {
    let _ = std::fs::remove_dir_all(hostile_dir);
    for case in hostile::cases() {
        case.write(&hostile_dir.join(case.name))?;
    }
    Ok(())
}

/// The seeds under `dirs`, then the hostile corpus as [`write_hostile`] wrote it into
/// `hostile_dir` (each case's model file, resolved in its folder).
#[must_use]
pub fn load(dirs: &[PathBuf], hostile_dir: &Path) -> Vec<Entry> {
    let mut files = Vec::new();
    for dir in dirs {
        walk(dir, &mut files);
    }
    let mut entries: Vec<Entry> = files
        .into_iter()
        .filter_map(|path| {
            let bytes = std::fs::read(&path).ok()?;
            let folder = path.parent().unwrap_or(Path::new(".")).to_owned();
            let valid = props_gltf::gate::admit_file(&path, &props_gltf::Limits::default()).is_ok();
            Some(Entry { seed: Seed::new(path.display().to_string(), bytes), folder, valid })
        })
        .collect();
    for case in hostile::cases() {
        // A FIFO model is a seed only through the cases naming special files.
        if let Some((_, bytes)) = case.files.iter().find(|(path, _)| *path == case.model) {
            let seed = Seed::new(format!("hostile/{}", case.name), bytes.clone());
            entries.push(Entry { seed, folder: hostile_dir.join(case.name), valid: false });
        }
    }
    entries
}

/// Input `index` of a run with `seed`: which entry it mutates, and the mutated bytes. The
/// same run seed and index always give the same input, whichever worker makes it.
#[must_use]
pub fn input(entries: &[Entry], seed: u64, index: u64) -> (usize, Vec<u8>) {
    let mut rng = crate::rng::seeded(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index);
    // Two inputs in three mutate a valid seed (when there is one).
    let valid = entries.iter().filter(|e| e.valid).count();
    let entry = if valid > 0 && rng.below(3) != 0 {
        let k = rng.below(valid);
        entries.iter().enumerate().filter(|(_, e)| e.valid).nth(k).map_or(0, |(i, _)| i)
    } else {
        rng.below(entries.len())
    };
    (entry, crate::mutate::mutate(&entries[entry].seed, &mut rng))
}
