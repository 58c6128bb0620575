//! Size limits for untrusted files, checked before anything is allocated.

use std::cell::Cell;

use crate::error::{ErrorKind, ImportError};

/// Upper bounds on what one import may read, decode and allocate.
///
/// Every declared count, length and dimension of a file is checked against these before
/// memory is allocated for it, so a hostile file cannot exhaust memory. The defaults are
/// generous game limits: far above any sensible prop, far below what would hurt the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Size of the `.gltf` / `.glb` file itself. Default 256 MiB.
    pub max_file_bytes: u64,
    /// Size of one buffer (GLB binary chunk, external `.bin`, `data:` URI) or external image
    /// file. Default 256 MiB.
    pub max_buffer_bytes: u64,
    /// Size of all buffers of the file together. Default 512 MiB.
    pub max_total_buffer_bytes: u64,
    /// Elements (not bytes) of one accessor. Default 16 Mi.
    pub max_accessor_elements: u64,
    /// Vertices of one primitive. Default 1 Mi.
    pub max_vertices: u64,
    /// Vertices of all mesh instances of the shown scene together (a mesh placed on `n` nodes
    /// counts `n` times): bounds the work of checking and drawing a model. Default 16 Mi.
    pub max_instanced_vertices: u64,
    /// Values in the JSON (objects, arrays, numbers, strings, each counting one), counted
    /// before it is parsed: the parsed form costs up to a kilobyte per value, charged to
    /// [`Limits::max_decoded_bytes`]. Default 4 Mi.
    pub max_json_values: u64,
    /// Entries of each top-level array of glTF objects (`meshes`, `materials`, `accessors`,
    /// `animations`, `images`, ...), counted before the JSON is parsed. Default 65 536.
    pub max_array_entries: u32,
    /// Nodes of the file. Default 65 536.
    pub max_nodes: u32,
    /// Joints of one skin. Default 1024.
    pub max_joints_per_skin: u32,
    /// Influences (joint and weight pairs) per vertex, over all `JOINTS_n`/`WEIGHTS_n` sets.
    /// The first 8 sit in the vertex, the rest in a per-vertex list the GPU reads by offset
    /// and count. Default 64 (16 sets): real exports reach 16-24.
    pub max_influences: u32,
    /// Morph targets of one primitive. Default 256.
    pub max_morph_targets: u32,
    /// Morph weights of every node together (a mesh of `t` targets placed on `n` nodes, or
    /// instanced `n` times, counts `t × n`): every posed prop copies and writes them all.
    /// Default 16 384 (a face of 100 shapes on 20 meshes takes 2,000).
    pub max_morph_weights: u32,
    /// Keyframes of one animation sampler. Default 1 Mi.
    pub max_keyframes: u64,
    /// Pixels (width times height) of one image, checked before decoding it. Default 8192².
    pub max_image_pixels: u64,
    /// Pixels per side of a texture on the GPU: a larger image is downscaled to fit, with a
    /// warning. The game sets it to its adapter's `max_texture_dimension_2d`. Default 8192
    /// (what every WebGPU adapter supports).
    pub max_texture_dimension: u32,
    /// Bytes of decoded data over the whole import, checked before each allocation: the parsed
    /// JSON (charged from its counts before it is parsed), accessors, images at their real
    /// bytes per pixel (16-bit ones at 8) plus their RGBA8 copy, generated normals. Bounds the
    /// memory one file can take, and the amplification of a small file whose accessors all
    /// read the same data. Images that would pass it are loaded smaller instead (the largest
    /// halved first, with a warning each): only geometry and clips over it refuse a file.
    /// Default 1 GiB.
    pub max_decoded_bytes: u64,
    /// Coarser levels of detail made for each triangle primitive (`crate::lods`), charged to
    /// [`Limits::max_decoded_bytes`]; 0 makes none. Default 6: the coarsest has about a
    /// sixty-fourth of the triangles, where the simplifier gets that far (a primitive of more
    /// than 4,096 halves up to twice as many times, keeping this many levels spread over its
    /// chain).
    pub lod_levels: u8,
}

impl Default for Limits {
    fn default() -> Self {
        const MIB: u64 = 1024 * 1024;
        Self {
            max_file_bytes: 256 * MIB,
            max_buffer_bytes: 256 * MIB,
            max_total_buffer_bytes: 512 * MIB,
            max_accessor_elements: 16 * MIB,
            max_vertices: MIB,
            max_instanced_vertices: 16 * MIB,
            max_json_values: 4 * MIB,
            max_array_entries: 65_536,
            max_nodes: 65_536,
            max_joints_per_skin: 1024,
            max_influences: 64,
            max_morph_targets: 256,
            max_morph_weights: 16_384,
            max_keyframes: MIB,
            max_image_pixels: 8192 * 8192,
            max_texture_dimension: 8192,
            max_decoded_bytes: 1024 * MIB,
            lod_levels: 6,
        }
    }
}

/// Checks `value <= limit`, or fails with [`ErrorKind::LimitExceeded`] at `json_path`.
pub(crate) fn check(value: u64, limit: u64, what: &'static str, json_path: &str) -> Result<(), ImportError> {
    if value > limit {
        return Err(exceeded(value, limit, what, json_path));
    }
    Ok(())
}

/// The error for `what` at `json_path` being `value`, over `limit`.
pub(crate) fn exceeded(value: u64, limit: u64, what: &'static str, json_path: &str) -> ImportError {
    ImportError::at(json_path, ErrorKind::LimitExceeded { what, value, limit })
}

/// The running total of decoded bytes, against [`Limits::max_decoded_bytes`].
#[derive(Debug)]
pub(crate) struct Budget {
    used: Cell<u64>,
    limit: u64,
}

impl Budget {
    /// A fresh budget of `limit` bytes.
    pub(crate) fn new(limit: u64) -> Self {
        Self { used: Cell::new(0), limit }
    }

    /// The bytes left before the limit.
    pub(crate) fn remaining(&self) -> u64 {
        self.limit.saturating_sub(self.used.get())
    }

    /// Reserves `bytes` more, or fails at `json_path` when the total would pass the limit.
    pub(crate) fn charge(&self, bytes: u64, json_path: &str) -> Result<(), ImportError> {
        let total = self.used.get().saturating_add(bytes);
        check(total, self.limit, "decoded data of the whole file, in bytes", json_path)?;
        self.used.set(total);
        Ok(())
    }
}
