//! Meshes no drawn node has (another scene's, a leftover's) are not read: they keep their
//! place in the model's list, without primitives, so that an import's memory and time follow
//! what is drawn (a fuzzed file of a thousand unused copies of its mesh took 123 MiB and two
//! seconds, simplifying each into levels, where the file itself takes a few). Nor are the
//! images of materials nothing drawn is drawn in: a white texel stands for them.

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

#[test]
fn a_material_nothing_is_drawn_in_keeps_its_textures_but_not_their_images() {
    // The panel's material 0 reads images 0 and 1, and its clip animates that material's
    // texture transforms. Here the panel is drawn in a copy of it (material 1) reading copies
    // of the images (2 and 3): material 0 is drawn nowhere, though still animated.
    let folder = models_dir().join("pointers");
    let text = std::fs::read(folder.join("pointer_texture_transform.gltf")).expect("the pointers model");
    let mut json: Value = serde_json::from_slice(&text).expect("JSON");
    let copy = |json: &mut Value, array: &str, item: Value| {
        let items = json[array].as_array_mut().expect(array);
        items.push(item);
        items.len() - 1
    };
    let (image_0, image_1) = (json["images"][0].clone(), json["images"][1].clone());
    let (images_2, images_3) = (copy(&mut json, "images", image_0), copy(&mut json, "images", image_1));
    let texture_2 = copy(&mut json, "textures", json!({"sampler": 0, "source": images_2}));
    let texture_3 = copy(&mut json, "textures", json!({"sampler": 0, "source": images_3}));
    let mut drawn = json["materials"][0].clone();
    drawn["name"] = json!("drawn");
    drawn["pbrMetallicRoughness"]["baseColorTexture"]["index"] = json!(texture_2);
    drawn["emissiveTexture"]["index"] = json!(texture_2);
    drawn["normalTexture"]["index"] = json!(texture_3);
    let material_1 = copy(&mut json, "materials", drawn);
    json["meshes"][0]["primitives"][0]["material"] = json!(material_1);
    let bytes = json.to_string().into_bytes();
    let label = Path::new("pointer_texture_transform.gltf");
    let import = import_slice(&bytes, Some(&folder), label, &Limits::default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(import.dropped.is_empty(), "{:?}", import.dropped);
    assert!(import.warnings.is_empty(), "{:?}", import.warnings);
    let model = &import.model;
    // The clip animating material 0's texture transforms stays: its textures are there.
    assert_eq!(model.clips().len(), 1, "the clip is kept");
    let undrawn = &model.materials()[0];
    let texel = |texture: Option<props_anim::material::TextureRef>| {
        let image = &model.images()[texture.expect("the texture is kept").image as usize];
        (image.width, image.height, image.rgba8.clone())
    };
    assert_eq!(texel(undrawn.base_color_texture), (1, 1, vec![255; 4]), "its image is not read");
    assert_eq!(texel(undrawn.normal_texture), (1, 1, vec![255; 4]));
    // Material 1's two images, decoded, and the one white texel.
    let sizes: Vec<(u32, u32)> = model.images().iter().map(|image| (image.width, image.height)).collect();
    assert_eq!(sizes.iter().filter(|&&size| size == (2, 2)).count(), 2, "{sizes:?}");
    assert_eq!(sizes.len(), 3, "{sizes:?}");
    assert_eq!(texel(model.materials()[1].base_color_texture).0, 2, "the drawn material's image is read");
}
