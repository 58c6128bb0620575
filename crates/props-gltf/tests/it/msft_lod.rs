//! `MSFT_lod`: a node's own levels of detail (`tests/models/lods/spheres.gltf`, written by
//! `make.py` there: a sphere of 960 triangles listing one of 120 and an octahedron, with the
//! coverages `[0.5, 0.1, 0.01]`) become its primitives' levels; the listed nodes are not drawn;
//! what cannot be read is ignored with a warning that names the JSON pointer.

use std::path::Path;

use props_anim::{Model, Primitive};
use props_gltf::gate::admit_file;
use props_gltf::{Import, Limits, import_slice};
use serde_json::Value;

use crate::real_models::models_dir;

fn path() -> std::path::PathBuf {
    models_dir().join("lods/spheres.gltf")
}

/// The file, its JSON changed by `edit`, imported.
fn edited(edit: impl FnOnce(&mut Value)) -> Import {
    let mut json: Value = serde_json::from_slice(&std::fs::read(path()).expect("spheres.gltf")).expect("JSON");
    edit(&mut json);
    let bytes = json.to_string().into_bytes();
    import_slice(&bytes, None, Path::new("spheres.gltf"), &Limits::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// The full sphere's primitives: the sphere, then the box.
fn sphere(model: &Model) -> (&Primitive, &Primitive) {
    let primitives = &model.meshes()[0].primitives;
    (&primitives[0], &primitives[1])
}

/// The error that spans a pixel where the mesh's sphere (radius: half its box's diagonal)
/// covers `share` of a 1920x1080 screen.
fn error_at(share: f32) -> f32 {
    // The box: x and z from -1 to 1, y from -1 to the small box's top, 1.15.
    let radius = 0.5 * (4.0f32 + 4.0 + 2.15 * 2.15).sqrt();
    radius / (share * 1920.0 * 1080.0 / std::f32::consts::PI).sqrt()
}

#[test]
fn a_node_s_own_levels_are_its_mesh_s_levels() {
    let admitted = admit_file(&path(), &Limits::default()).unwrap_or_else(|refused| panic!("{refused}"));
    assert!(!admitted.report.has_errors(), "{}", admitted.report);
    assert!(admitted.import.warnings.is_empty(), "{:?}", admitted.import.warnings);
    let model = &admitted.import.model;
    // Nodes 0 and 3 draw the sphere; its levels' nodes (1 and 2), though in the scene, do not.
    assert_eq!(model.instances().len(), 2);
    assert!(model.instances().iter().all(|i| i.mesh == 0));
    let (sphere, small_box) = sphere(model);
    let full_vertices = 33 * 17;
    assert_eq!(sphere.indices.len() / 3, 960);
    // Two levels from the file, then nothing below a hundredth of the screen.
    let triangles: Vec<usize> = sphere.lods.iter().map(|lod| lod.indices.len() / 3).collect();
    assert_eq!(triangles, [120, 8, 0]);
    // Each level's triangles index its own vertices, appended after the full sphere's.
    assert_eq!(sphere.vertex_count(), full_vertices + 13 * 7 + 6);
    assert!(sphere.lods[0].indices.iter().all(|&i| (full_vertices..full_vertices + 91).contains(&(i as usize))));
    assert!(sphere.lods[1].indices.iter().all(|&i| i as usize >= full_vertices + 91));
    let top = sphere.positions[full_vertices + 91 + 4];
    assert_eq!(top, glam::Vec3::Y, "the octahedron's vertices as the file gives them");
    for (lod, share) in sphere.lods.iter().zip([0.5, 0.1, 0.01]) {
        assert!((lod.error - error_at(share)).abs() < 1e-6 * error_at(share), "{} at {share}", lod.error);
    }
    // The box has no match in the levels: it is not drawn there, with the same errors.
    assert!(small_box.lods.iter().all(|lod| lod.indices.is_empty()));
    assert_eq!(small_box.lods.len(), 3);
    assert_eq!(small_box.vertex_count(), 24, "nothing appended");
    // The levels' own meshes are drawn by no node: emptied.
    assert!(model.meshes()[1].primitives.is_empty() && model.meshes()[2].primitives.is_empty());
    assert_eq!(model.lod_errors().len(), 4, "the full level and three coarser");
    assert_eq!((1..4).map(|level| model.lod_triangles(level)).collect::<Vec<_>>(), [240, 16, 0], "two nodes");
}

#[test]
fn without_a_coverage_the_levels_errors_are_measured() {
    let import = edited(|json| {
        json["nodes"][0].as_object_mut().expect("a node").remove("extras");
    });
    assert!(import.warnings.is_empty(), "{:?}", import.warnings);
    let (sphere, small_box) = sphere(&import.model);
    let errors: Vec<f32> = sphere.lods.iter().map(|lod| lod.error).collect();
    assert_eq!(errors.len(), 2, "no coverage: no level below which nothing is drawn");
    // The 12-segment sphere's faces sink at most 1 - cos(15 deg) cos(15 deg) below the full one.
    let sag = 1.0 - (15f32.to_radians().cos()).powi(2);
    assert!(errors[0] > 0.5 * sag && errors[0] <= sag + 0.02, "{errors:?}, about {sag}");
    // The octahedron's face centres are 1/sqrt(3) from the centre.
    let octahedron = 1.0 - 1.0 / 3f32.sqrt();
    assert!((errors[1] - octahedron).abs() < 0.03, "{errors:?}, about {octahedron}");
    // The box, not drawn at either level: its size (the diagonal of 0.2 m cube).
    let diagonal = 0.2 * 3f32.sqrt();
    assert!(small_box.lods.iter().all(|lod| (lod.error - diagonal).abs() < 1e-5), "{:?}", small_box.lods);
}

#[test]
fn what_cannot_be_read_is_ignored_at_the_finest_grain() {
    let pointers = |import: &Import| import.warnings.iter().map(|w| w.json_path.clone()).collect::<Vec<_>>();
    // A level that is no node: that level is lost, and the coverages no longer match.
    let import = edited(|json| json["nodes"][0]["extensions"]["MSFT_lod"]["ids"] = serde_json::json!([1, 9]));
    assert_eq!(pointers(&import), ["nodes[0].extensions.MSFT_lod.ids[1]", "nodes[0].extras.MSFT_screencoverage"]);
    assert!(import.warnings[0].message.contains("not a node's index"), "{}", import.warnings[0]);
    let (sphere, _) = sphere(&import.model);
    assert_eq!(sphere.lods.len(), 1);
    assert_eq!(sphere.lods[0].indices.len() / 3, 120);
    assert!(sphere.lods[0].error < 0.1, "measured, not from a coverage: {}", sphere.lods[0].error);
    // Node 2, no longer a level, is drawn on its own.
    assert_eq!(import.model.instances().len(), 3);
    // Coverages that rise: ignored, the errors measured.
    let import = edited(|json| {
        json["nodes"][0]["extras"]["MSFT_screencoverage"] = serde_json::json!([0.1, 0.5, 0.01]);
    });
    assert_eq!(pointers(&import), ["nodes[0].extras.MSFT_screencoverage"]);
    assert_eq!(sphere_levels(&import), 2);
    // A level skinned otherwise than the full one (the full node skinned, the level not).
    let import = edited(|json| {
        json["nodes"][2]["skin"] = serde_json::json!(0);
        json["skins"] = serde_json::json!([{"joints": [3]}]);
    });
    let warned = pointers(&import);
    assert!(warned.contains(&"nodes[0].extensions.MSFT_lod.ids[1]".to_owned()), "{warned:?}");
    assert_eq!(sphere_levels(&import), 1);
    // The extension on a node without a mesh.
    let import = edited(|json| {
        json["nodes"][3]["extensions"] = serde_json::json!({"MSFT_lod": {"ids": [1]}});
        json["nodes"][3].as_object_mut().expect("a node").remove("mesh");
    });
    assert!(pointers(&import).contains(&"nodes[3].extensions.MSFT_lod".to_owned()), "{:?}", import.warnings);
}

fn sphere_levels(import: &Import) -> usize {
    sphere(&import.model).0.lods.len()
}
