//! Meshes no drawn node has (another scene's, a leftover's) are not read: they keep their
//! place in the model's list, without primitives, so that an import's memory and time follow
//! what is drawn (a fuzzed file of a thousand unused copies of its mesh took 123 MiB and two
//! seconds, simplifying each into levels, where the file itself takes a few).

use std::path::Path;

use props_gltf::{Import, Limits, import_slice};
use serde_json::{Value, json};

use crate::real_models::models_dir;

fn folder() -> std::path::PathBuf {
    models_dir().join("AnimatedMorphCube")
}

/// AnimatedMorphCube's JSON: one node draws mesh 0, whose morph weights its clip animates.
fn cube() -> Value {
    let text = std::fs::read(folder().join("AnimatedMorphCube.gltf")).expect("AnimatedMorphCube.gltf");
    serde_json::from_slice(&text).expect("JSON")
}

fn import(json: &Value) -> Import {
    let bytes = json.to_string().into_bytes();
    let label = Path::new("AnimatedMorphCube.gltf");
    import_slice(&bytes, Some(&folder()), label, &Limits::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn meshes(json: &mut Value) -> &mut Vec<Value> {
    json["meshes"].as_array_mut().expect("meshes")
}

#[test]
fn meshes_no_node_has_are_not_read() {
    let original = import(&cube());
    let mut json = cube();
    let mesh = json["meshes"][0].clone();
    meshes(&mut json).extend(std::iter::repeat_n(mesh, 100));
    let import = import(&json);
    let model = &import.model;
    assert_eq!(model.meshes().len(), 101, "every mesh keeps its glTF index");
    assert_eq!(model.meshes()[0], original.model.meshes()[0], "the drawn mesh is read as before");
    assert!(!model.meshes()[0].primitives[0].lods.is_empty(), "with its levels");
    assert!(model.meshes()[1..].iter().all(|mesh| mesh.primitives.is_empty()), "the others are not");
    assert!(model.meshes()[1..].iter().all(|mesh| mesh.name.as_deref() == Some("Cube")), "named as in the file");
    assert_eq!(model.instances(), original.model.instances());
    assert!(import.warnings.is_empty(), "{:?}", import.warnings);
    assert!(import.dropped.is_empty(), "{:?}", import.dropped);
}

#[test]
fn another_scene_s_mesh_is_not_read_and_its_weights_channel_says_why() {
    let mut json = cube();
    // Scene 1, the one shown, has a copy of the cube (mesh 1) on a node of its own; scene 0's
    // cube is not drawn.
    let copy = json["meshes"][0].clone();
    meshes(&mut json).push(copy);
    json["nodes"].as_array_mut().expect("nodes").push(json!({"mesh": 1, "name": "Shown"}));
    json["scenes"].as_array_mut().expect("scenes").push(json!({"nodes": [1]}));
    json["scene"] = json!(1);
    let import = import(&json);
    let model = &import.model;
    assert!(model.meshes()[0].primitives.is_empty(), "scene 0's mesh is not read");
    assert_eq!(model.meshes()[1].primitives.len(), 1, "scene 1's is");
    assert_eq!(model.instances().iter().map(|i| i.mesh).collect::<Vec<_>>(), [1]);
    // The clip's one channel animates the undrawn cube's weights: ignored, with a warning.
    let warning = import.warnings.iter().find(|w| w.json_path == "animations[0].channels[0]");
    let warning = warning.unwrap_or_else(|| panic!("no warning about the channel: {:?}", import.warnings));
    assert!(warning.message.contains("not drawn (outside the scene)"), "{warning}");
}
