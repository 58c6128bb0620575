//! Fuzz target `import`: any bytes, as a `.gltf` or `.glb` file held in memory, through the
//! gate (checker and importer). Neither may panic or allocate past the (small) limits, and
//! they may not disagree: the gate admits exactly what the checker finds nothing fatal in.
//! (`cargo xtask fuzz` is the structure-aware fuzzer on the stable toolchain; this target is
//! libFuzzer's coverage-guided byte-level one.)

#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use props_gltf::Limits;
use props_gltf::gate::admit_slice;
use props_gltf::validate::check_slice;

/// Small limits, so that libFuzzer's memory limit catches any allocation they do not bound.
fn limits() -> Limits {
    const MIB: u64 = 1024 * 1024;
    Limits {
        max_file_bytes: MIB,
        max_buffer_bytes: 4 * MIB,
        max_total_buffer_bytes: 8 * MIB,
        max_accessor_elements: 256 * 1024,
        max_vertices: 64 * 1024,
        max_instanced_vertices: 256 * 1024,
        max_json_values: 64 * 1024,
        max_array_entries: 4096,
        max_nodes: 1024,
        max_joints_per_skin: 256,
        max_influences: 64,
        max_morph_targets: 64,
        max_keyframes: 16 * 1024,
        max_image_pixels: 256 * 256,
        max_texture_dimension: 256,
        max_decoded_bytes: 16 * MIB,
    }
}

fuzz_target!(|data: &[u8]| {
    let limits = limits();
    let label = Path::new("fuzz.gltf");
    // No folder: external files are refused, so the fuzzer never reads the disk.
    let report = check_slice(data, None, label, &limits);
    let admitted = admit_slice(data, None, label, &limits);
    assert_eq!(admitted.is_ok(), !report.is_fatal(), "the gate and the checker disagree:\n{report}");
});
