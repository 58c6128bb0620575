//! What a model takes while loaded, in memory and on the GPU, as the mods' two budgets count
//! it (`props_anim::Model::heap_bytes`, `props_render::GpuFootprint`), and the line
//! `check-assets` says it in.

use std::path::Path;

use props_anim::Model;
use props_mods::ModConfig;
use props_render::{GpuFootprint, ModelRefused};

use crate::numbers::bytes;

/// What a model takes while loaded, as the mods' two budgets count it.
pub(crate) struct Memory {
    /// Its heap bytes (`Model::heap_bytes`: the RAM budget's count while it loads).
    pub(crate) heap: u64,
    /// Its images' among them (decoded, and the KTX2 files some came from).
    pub(crate) images: u64,
    /// What it keeps once it shows: its heap bytes but its decoded pixels
    /// (`Model::pixel_bytes`, which `Model::release_pixels` frees).
    pub(crate) shown: u64,
    /// What it takes on a GPU (the GPU budget's count), or why one with WebGPU's default
    /// limits refuses it.
    pub(crate) gpu: Result<GpuFootprint, ModelRefused>,
}

impl Memory {
    /// What `model` takes.
    pub(crate) fn of(model: &Model) -> Self {
        let heap = model.heap_bytes();
        let shown = heap - model.pixel_bytes();
        Self { heap, images: model.image_bytes(), shown, gpu: GpuFootprint::estimate(model) }
    }

    /// As `check-assets --json` gives it.
    pub(crate) fn json(&self) -> serde_json::Value {
        let gpu = self.gpu.as_ref();
        serde_json::json!({"heap_bytes": self.heap, "image_bytes": self.images,
            "heap_bytes_shown": self.shown,
            "gpu_bytes": gpu.ok().map(GpuFootprint::total), "gpu_texture_bytes": gpu.ok().map(|f| f.texture_bytes),
            "gpu_refuses": gpu.err().map(ToString::to_string)})
    }
}

/// The line giving the `memory` `file`'s model takes while loaded.
pub(crate) fn memory_line(file: &Path, memory: &Memory) -> String {
    // A mod's decoded pixels go once it shows (`Model::release_pixels`).
    let heap = match memory.images {
        0 => bytes(memory.heap as usize),
        n => format!(
            "{} while it loads, {} of it images, and {} once it shows (its decoded pixels on the GPU alone)",
            bytes(memory.heap as usize),
            bytes(n as usize),
            bytes(memory.shown as usize)
        ),
    };
    let gpu = match &memory.gpu {
        Ok(footprint) if footprint.texture_bytes > 0 => format!(
            "{}, {} of it textures with their mipmaps",
            bytes(footprint.total() as usize),
            bytes(footprint.texture_bytes as usize)
        ),
        Ok(footprint) => bytes(footprint.total() as usize),
        Err(refused) => format!("a GPU with WebGPU's default limits refuses it: {refused}"),
    };
    let budget = bytes(ModConfig::DEFAULT_TOTAL_BYTES as usize);
    format!(
        "{}: in memory: {heap}; on the GPU: {gpu} (the mods may take {budget} of each together: game --mods-ram-mib, \
         --mods-vram-mib)\n",
        file.display(),
    )
}

#[cfg(test)]
mod tests {
    use props_gltf::Limits;
    use props_gltf::gate::admit_file;

    use super::*;

    /// What the mods' budgets count: the Fox's one 1024x1024 PNG is 4 MiB decoded, most of
    /// what it holds, and a third more on the GPU with its mip chain.
    #[test]
    fn the_memory_a_model_takes_is_said_with_its_images_share() {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/Fox.glb");
        let model = admit_file(&file, &Limits::default()).expect("the Fox").import.model;
        assert_eq!(model.image_bytes(), 1024 * 1024 * 4);
        let line = memory_line(Path::new("Fox.glb"), &Memory::of(&model));
        assert!(
            line.starts_with(
                "Fox.glb: in memory: 4.21 MiB while it loads, 4 MiB of it images, and 212 KiB once it shows (its \
                 decoded pixels on the GPU alone); on the GPU: 5.4 MiB, 5.33 MiB of it textures with their mipmaps (the mods \
                 may take 1024 MiB of each"
            ),
            "{line}"
        );
        let tiny = Memory {
            heap: 2048,
            images: 0,
            shown: 2048,
            gpu: Ok(GpuFootprint { vertex_bytes: 1024, ..GpuFootprint::default() }),
        };
        assert_eq!(
            memory_line(Path::new("a.glb"), &tiny),
            "a.glb: in memory: 2 KiB; on the GPU: 1 KiB (the mods may take 1024 MiB of each together: game \
             --mods-ram-mib, --mods-vram-mib)\n"
        );
    }

    /// A KTX2 image's file stays once its decoded pixels go (it draws from its levels): what
    /// the Fox in UASTC keeps once it shows is its file beside the geometry.
    #[test]
    fn a_ktx2_file_is_counted_once_the_model_shows() {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/models/ktx2/Fox_uastc.glb");
        let model = admit_file(&file, &Limits::default()).expect("the Fox").import.model;
        let ktx2 = model.images()[0].ktx2.as_ref().map_or(0, Vec::len) as u64;
        assert!(ktx2 > 100_000, "{ktx2}");
        let memory = Memory::of(&model);
        assert_eq!(memory.shown, memory.heap - 1024 * 1024 * 4);
        assert_eq!(memory.shown, memory.heap - memory.images + ktx2);
        let mut shown = model.clone();
        shown.release_pixels();
        assert_eq!(shown.heap_bytes(), memory.shown, "as the game counts it");
    }
}
