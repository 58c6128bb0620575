//! The mods' two budgets together, as the game fills them with the mods present at its start:
//! in path order, each file checked against the memory budget at what it takes while it loads
//! (its images decoded), then against the GPU's; one that fits keeps in memory what it keeps
//! once it shows (its images go to the GPU), or all of it while it waits behind an earlier
//! file of its name, which alone takes GPU memory. `check-assets` says which files the game's
//! default budgets refuse, and the budgets that would take them all.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::json;

use crate::model_memory::Memory;
use crate::numbers::bytes;

/// Which budget refuses a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Budget {
    /// The mods' memory (`--mods-ram-mib`).
    Memory,
    /// The mods' GPU memory (`--mods-vram-mib`).
    Gpu,
}

/// The mods together under budgets of `memory` and `gpu` bytes.
#[derive(Debug, Default)]
pub(crate) struct Together {
    /// Memory the mods loaded keep, bytes.
    pub(crate) memory: u64,
    /// GPU memory the mods showing take, bytes.
    pub(crate) gpu: u64,
    /// The files refused, in order, with the budget that refuses each.
    pub(crate) refused: Vec<(PathBuf, Budget)>,
    /// Memory and GPU bytes that would take every file: the largest memory any file's loading
    /// needed (what the others keep, and its whole), and what all take on the GPU.
    pub(crate) needed: (u64, u64),
}

impl Together {
    /// `mods` (each file with what it takes; in any order) loaded in path order under
    /// budgets of `(memory, gpu)` bytes.
    pub(crate) fn fill(mods: &[(&Path, &Memory)], (memory, gpu): (u64, u64)) -> Self {
        let mut mods = mods.to_vec();
        mods.sort_by_key(|(path, _)| *path);
        let mut together = Self::default();
        let mut names = BTreeSet::new();
        let (mut kept_all, mut gpu_all) = (0u64, 0u64);
        for (path, taken) in mods {
            let Ok(footprint) = &taken.gpu else { continue };
            // The first file of a name shows; the others wait, whole, and take no GPU memory.
            let shows = names.insert(path.file_stem().map(ToOwned::to_owned));
            let (kept, on_gpu) = if shows { (taken.shown, footprint.total()) } else { (taken.heap, 0) };
            together.needed.0 = together.needed.0.max(kept_all + taken.heap);
            (kept_all, gpu_all) = (kept_all + kept, gpu_all + on_gpu);
            if together.memory + taken.heap > memory {
                together.refused.push((path.to_owned(), Budget::Memory));
            } else if together.gpu + on_gpu > gpu {
                together.refused.push((path.to_owned(), Budget::Gpu));
            } else {
                together.memory += kept;
                together.gpu += on_gpu;
            }
        }
        together.needed.1 = gpu_all;
        together
    }

    /// The line saying it, for `count` mods under budgets of `(memory, gpu)` bytes.
    pub(crate) fn line(&self, count: usize, (memory, gpu): (u64, u64)) -> String {
        let mods = match count {
            1 => "the mod".to_owned(),
            n => format!("the {n} mods together"),
        };
        let mut line = format!(
            "{mods}, loaded at the game's start (by path): {} in memory, {} on the GPU",
            bytes(self.memory as usize),
            bytes(self.gpu as usize)
        );
        if self.refused.is_empty() {
            return line;
        }
        let named = |budget| {
            let files: Vec<String> =
                self.refused.iter().filter(|(_, b)| *b == budget).map(|(p, _)| p.display().to_string()).collect();
            files.join(", ")
        };
        line.push_str(&format!("; the game refuses {} of them", self.refused.len()));
        for (budget, what, needed, given, option) in [
            (Budget::Memory, "memory", self.needed.0, memory, "--mods-ram-mib"),
            (Budget::Gpu, "GPU memory", self.needed.1, gpu, "--mods-vram-mib"),
        ] {
            let files = named(budget);
            if !files.is_empty() {
                line.push_str(&format!(
                    " over the {} of {what} the mods may take ({files}; all load with {option} {})",
                    bytes(given as usize),
                    needed.div_ceil(1 << 20).max(given >> 20)
                ));
            }
        }
        line
    }

    /// As `check-assets --json` gives it.
    pub(crate) fn json(&self) -> serde_json::Value {
        let refused: Vec<_> = self
            .refused
            .iter()
            .map(|(path, budget)| json!({"file": path, "budget": if *budget == Budget::Memory { "memory" } else { "gpu" }}))
            .collect();
        json!({"memory_bytes": self.memory, "gpu_bytes": self.gpu, "refused": refused,
            "memory_bytes_for_all": self.needed.0, "gpu_bytes_for_all": self.needed.1})
    }
}

#[cfg(test)]
mod tests {
    use props_render::GpuFootprint;

    use super::*;

    const MIB: u64 = 1 << 20;

    /// A mod keeping 1 MiB once shown, 80 MiB while it loads, 100 MiB on the GPU.
    fn light() -> Memory {
        let gpu = GpuFootprint { texture_bytes: 100 * MIB, ..GpuFootprint::default() };
        Memory { heap: 81 * MIB, images: 80 * MIB, shown: MIB, gpu: Ok(gpu) }
    }

    #[test]
    fn mods_fill_the_budgets_in_path_order_at_what_they_keep_once_shown() {
        let light = light();
        let paths: Vec<PathBuf> = (0..12).map(|i| PathBuf::from(format!("mods/tl/t{i:02}.glb"))).collect();
        let mods: Vec<(&Path, &Memory)> = paths.iter().rev().map(|p| (p.as_path(), &light)).collect();
        // 100 MiB of memory: each loads (80 MiB of images while it does, 1 MiB kept after);
        // 1024 MiB on the GPU: ten show.
        let together = Together::fill(&mods, (100 * MIB, 1024 * MIB));
        assert_eq!((together.memory, together.gpu), (10 * MIB, 1000 * MIB));
        let refused: Vec<_> = together.refused.iter().map(|(p, b)| (p.to_str().unwrap_or(""), *b)).collect();
        assert_eq!(refused, [("mods/tl/t10.glb", Budget::Gpu), ("mods/tl/t11.glb", Budget::Gpu)]);
        assert_eq!(together.needed, (92 * MIB, 1200 * MIB));
        let line = together.line(12, (100 * MIB, 1024 * MIB));
        assert!(
            line.ends_with(
                "the game refuses 2 of them over the 1024 MiB of GPU memory the mods may take (mods/tl/t10.glb, \
                 mods/tl/t11.glb; all load with --mods-vram-mib 1200)"
            ),
            "{line}"
        );
        // 50 MiB of memory: none loads.
        let starved = Together::fill(&mods, (50 * MIB, 1024 * MIB));
        assert!(starved.refused.len() == 12 && starved.refused.iter().all(|(_, b)| *b == Budget::Memory));
    }

    #[test]
    fn a_file_behind_another_of_its_name_keeps_its_images_and_takes_no_gpu_memory() {
        let light = light();
        let (a, b) = (PathBuf::from("mods/a/car.glb"), PathBuf::from("mods/b/car.glb"));
        let together = Together::fill(&[(&b, &light), (&a, &light)], (1024 * MIB, 1024 * MIB));
        assert_eq!((together.memory, together.gpu), (82 * MIB, 100 * MIB));
        assert!(together.refused.is_empty());
        assert!(together.line(2, (1024 * MIB, 1024 * MIB)).ends_with("82 MiB in memory, 100 MiB on the GPU"));
    }
}
