//! Morph targets that displace vertex colours (`COLOR_0` in a primitive's `targets`, which
//! three.js draws): `tests/models/morph_colors` (its `make.mjs`), read as written, and each
//! target's colours that cannot be read ignored at that target alone.

use glam::Vec4;
use props_gltf::Limits;
use props_gltf::gate::{Admitted, admit_slice};
use serde_json::{Value, json};

use crate::real_models::models_dir;

fn file() -> Value {
    let text = std::fs::read_to_string(models_dir().join("morph_colors/morph_colors.gltf")).expect("the model");
    serde_json::from_str(&text).expect("JSON")
}

fn admit(json: &Value) -> Admitted {
    let bytes = serde_json::to_vec(json).expect("JSON");
    admit_slice(&bytes, None, "morph_colors.gltf".as_ref(), &Limits::default()).expect("admitted")
}

/// An RGB target of floats displaces red, green and blue and leaves alpha; an RGBA target of
/// normalized shorts is dequantized; neither warns.
#[test]
fn colour_targets_are_read_as_written() {
    let admitted = admit(&file());
    assert!(admitted.import.warnings.is_empty(), "{:?}", admitted.import.warnings);
    let sphere = &admitted.import.model.meshes()[1].primitives[0];
    let top = 0;
    let grey = sphere.colors[top];
    assert!((grey - Vec4::new(0.95, 0.95, 0.95, 1.0)).abs().max_element() < 1e-6, "{grey}");
    let [red, blue] = [&sphere.morph_targets[0].colors, &sphere.morph_targets[1].colors];
    assert_eq!((red.len(), blue.len()), (sphere.vertex_count(), sphere.vertex_count()));
    assert!((red[top] - Vec4::new(0.9 - 0.95, 0.1 - 0.95, 0.1 - 0.95, 0.0)).abs().max_element() < 1e-6);
    let quantized = Vec4::new(0.15 - 0.95, 0.3 - 0.95, 0.95 - 0.95, 0.0);
    assert!((blue[top] - quantized).abs().max_element() < 1.0 / 32767.0, "{}", blue[top]);
    let bottom = sphere.vertex_count() - 1;
    assert_eq!(blue[bottom], Vec4::ZERO, "the lower half is not turned blue");
}

/// Colour targets on a primitive without colours of its own, or of an accessor that is not a
/// colour's, are ignored with a warning at that target; the primitive, its positions' targets
/// and the other targets' colours stay.
#[test]
fn colour_targets_that_cannot_be_read_are_ignored_at_the_target() {
    let mut uncoloured = file();
    let attributes = &mut uncoloured["meshes"][1]["primitives"][0]["attributes"];
    attributes.as_object_mut().expect("attributes").remove("COLOR_0");
    let mut misread = file();
    // Its indices' accessor: scalars of unsigned shorts.
    let index = misread["meshes"][1]["primitives"][0]["indices"].clone();
    misread["meshes"][1]["primitives"][0]["targets"][1]["COLOR_0"] = index;
    misread["meshes"][2]["primitives"][0]["targets"][0]["COLOR_0"] = json!("four");
    for (json, warned) in [
        (&uncoloured, vec!["meshes[1].primitives[0].targets[0].COLOR_0", "meshes[1].primitives[0].targets[1].COLOR_0"]),
        (&misread, vec!["meshes[1].primitives[0].targets[1].COLOR_0", "meshes[2].primitives[0].targets[0].COLOR_0"]),
    ] {
        let admitted = admit(json);
        let paths: Vec<&str> = admitted.import.warnings.iter().map(|w| w.json_path.as_str()).collect();
        assert_eq!(paths, warned, "{:?}", admitted.import.warnings);
        let sphere = &admitted.import.model.meshes()[1].primitives[0];
        assert_eq!(sphere.morph_targets.len(), 2);
        assert!(sphere.morph_targets.iter().all(|t| !t.positions.is_empty()), "positions kept");
        assert!(sphere.morph_targets[1].colors.is_empty());
    }
    let admitted = admit(&misread);
    assert!(!admitted.import.model.meshes()[1].primitives[0].morph_targets[0].colors.is_empty(), "the other target's");
    let message = &admitted.import.warnings[0].message;
    assert!(message.starts_with("ignored, its colours stay as they are: "), "{message}");
}
