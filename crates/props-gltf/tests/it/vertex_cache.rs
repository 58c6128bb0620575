//! The importer lists an opaque primitive's triangles, every level's, in the order a GPU draws
//! fastest (`vertex_cache.rs`), and keeps the file's order where it must: blended in its own
//! material or a variant's, or flat.

use std::path::Path;

use props_anim::{Model, Primitive};
use props_gltf::{Limits, import_slice};
use serde_json::json;

/// Vertices of a side of the grid.
const SIDE: u32 = 25;

/// Vertices a GPU like NVIDIA's shades per triangle drawing `indices` (meshoptimizer's model:
/// a cache of 32, 32 vertices a warp, 32 triangles a group).
fn shaded_per_vertex(indices: &[u32]) -> f32 {
    meshopt::analyze_vertex_cache(indices, (SIDE * SIDE) as usize, 32, 32, 32).atvr
}

/// A smooth 24 x 24 grid of quads, its triangles shuffled (as a careless exporter might write
/// them).
fn shuffled_grid() -> (Vec<[f32; 3]>, Vec<u32>) {
    let positions = (0..SIDE).flat_map(|y| (0..SIDE).map(move |x| [x as f32, y as f32, 0.0])).collect();
    let mut triangles: Vec<[u32; 3]> = (0..SIDE - 1)
        .flat_map(|y| (0..SIDE - 1).map(move |x| y * SIDE + x))
        .flat_map(|v| [[v, v + 1, v + SIDE + 1], [v, v + SIDE + 1, v + SIDE]])
        .collect();
    // A fixed shuffle (a linear congruential sequence), so that the test is the same each run.
    let mut state = 12345u64;
    for i in (1..triangles.len()).rev() {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        triangles.swap(i, (state >> 33) as usize % (i + 1));
    }
    (positions, triangles.concat())
}

/// `indices`' triangles, each as its corners (rotated to start at its least: its winding
/// kept), sorted.
fn triangles(indices: &[u32]) -> Vec<[u32; 3]> {
    let mut triangles: Vec<[u32; 3]> = indices
        .chunks_exact(3)
        .map(|t| {
            let least = (0..3).min_by_key(|&k| t[k]).unwrap_or(0);
            [t[least], t[(least + 1) % 3], t[(least + 2) % 3]]
        })
        .collect();
    triangles.sort_unstable();
    triangles
}

/// The shuffled grid as four primitives of one mesh: in an opaque material, in a blended one,
/// in the opaque one but blended in a material variant, and without normals (flat).
fn imported() -> Model {
    let (mut positions, indices) = shuffled_grid();
    // A bumpy surface, so that its levels stray and the simplifier keeps some of it.
    for p in &mut positions {
        p[2] = (p[0] * 0.7).sin() * (p[1] * 0.5).cos();
    }
    let mut bin: Vec<u8> = positions.iter().flatten().flat_map(|c| c.to_le_bytes()).collect();
    let normals_at = bin.len();
    bin.extend(positions.iter().flat_map(|_| [0.0f32, 0.0, 1.0]).flat_map(f32::to_le_bytes));
    let indices_at = bin.len();
    bin.extend(indices.iter().flat_map(|i| i.to_le_bytes()));
    let vertices = positions.len();
    let smooth = json!({"POSITION": 0, "NORMAL": 1});
    let json = json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_materials_variants"],
        "extensions": {"KHR_materials_variants": {"variants": [{"name": "glass"}]}},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "materials": [{"name": "paint"}, {"name": "glass", "alphaMode": "BLEND"}],
        "meshes": [{"primitives": [
            {"attributes": smooth, "indices": 2, "material": 0},
            {"attributes": smooth, "indices": 2, "material": 1},
            {"attributes": smooth, "indices": 2, "material": 0,
             "extensions": {"KHR_materials_variants": {"mappings": [{"material": 1, "variants": [0]}]}}},
            {"attributes": {"POSITION": 0}, "indices": 2, "material": 0},
        ]}],
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": normals_at},
            {"buffer": 0, "byteOffset": normals_at, "byteLength": indices_at - normals_at},
            {"buffer": 0, "byteOffset": indices_at, "byteLength": bin.len() - indices_at},
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": vertices, "type": "VEC3",
             "min": [0.0, 0.0, -1.0], "max": [24.0, 24.0, 1.0]},
            {"bufferView": 1, "componentType": 5126, "count": vertices, "type": "VEC3"},
            {"bufferView": 2, "componentType": 5125, "count": indices.len(), "type": "SCALAR"},
        ],
    });
    let glb = crate::support::glb(&json, &bin);
    import_slice(&glb, None, Path::new("grid.glb"), &Limits::default()).expect("imports").model
}

#[test]
fn an_opaque_primitive_s_triangles_every_level_s_are_in_the_order_that_reuses_shaded_vertices() {
    let model = imported();
    let (_, file) = shuffled_grid();
    let opaque = &model.meshes()[0].primitives[0];
    assert!(!opaque.lods.is_empty(), "the bumpy grid has levels");
    // The same triangles, wound the same way: shuffled, each vertex is shaded 5.4 times; in
    // order, 1.5.
    assert_eq!(triangles(&opaque.indices), triangles(&file));
    let (before, after) = (shaded_per_vertex(&file), shaded_per_vertex(&opaque.indices));
    assert!(after < 1.6 && 2.0 * after < before, "{before} -> {after}");
    // Each level is in that order too: as the optimizer would put it, near enough.
    let flat = &model.meshes()[0].primitives[3];
    for (k, level) in opaque.lods.iter().enumerate() {
        let reordered = meshopt::optimize_vertex_cache(&level.indices, opaque.vertex_count());
        let (own, best) = (shaded_per_vertex(&level.indices), shaded_per_vertex(&reordered));
        assert!(own <= best * 1.05, "level {}: {own} against {best}", k + 1);
        // The flat primitive's level of the same triangles keeps the simplifier's order.
        if let Some(kept) = flat.lods.get(k) {
            assert!(shaded_per_vertex(&kept.indices) > 1.3 * own, "level {}: kept {own}", k + 1);
        }
    }
}

#[test]
fn a_primitive_blended_in_its_material_or_a_variant_s_or_flat_keeps_the_file_s_order() {
    let model = imported();
    let (_, file) = shuffled_grid();
    let kept: Vec<&Primitive> = model.meshes()[0].primitives[1..].iter().collect();
    assert!(kept[2].flat);
    for (primitive, what) in kept.into_iter().zip(["blended", "blended in a variant", "flat"]) {
        assert_eq!(primitive.indices, file, "{what}");
    }
}
