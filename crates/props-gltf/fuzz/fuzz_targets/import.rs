//! Fuzz target `import`: any bytes, as a `.gltf` or `.glb` file held in memory, through the
//! checker and the importer. Neither may panic, allocate past the (small) limits, or disagree:
//! what the checker passes without errors must import.

#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use props_gltf::validate::check_slice;
use props_gltf::{Limits, import_slice};

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
        max_nodes: 1024,
        max_joints_per_skin: 256,
        max_keyframes: 16 * 1024,
        max_image_pixels: 256 * 256,
        max_decoded_bytes: 16 * MIB,
    }
}

fuzz_target!(|data: &[u8]| {
    let limits = limits();
    let label = Path::new("fuzz.gltf");
    // No folder: external files are refused, so the fuzzer never reads the disk.
    let report = check_slice(data, None, label, &limits);
    let imported = import_slice(data, None, label, &limits);
    assert!(report.has_errors() || imported.is_ok(), "the checker passed a file the importer refuses:\n{report}");
});
