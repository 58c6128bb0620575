//! `KHR_materials_variants`, built in memory: the file's variants and the materials they draw
//! each primitive in; a mapping that cannot be read is left out with a warning naming it (the
//! primitive keeps its own material in that variant), and the rest of the file loads.

use props_anim::material::VariantMaterial;
use serde_json::json;

use crate::import_errors::{Doc, import_json};

#[test]
fn variants_are_read_and_what_cannot_be_is_left_out_with_a_warning() {
    let mut doc = Doc::new();
    let uv = doc.floats(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0], "VEC2");
    let mut json = doc.json();
    json["extensionsUsed"] = json!(["KHR_materials_variants"]);
    json["extensions"] = json!({"KHR_materials_variants": {"variants": [{"name": "taxi"}, {}]}});
    json["images"] = json!([{"uri": "data:image/png;base64,AAAA"}]);
    json["textures"] = json!([{"source": 0}]);
    json["materials"] = json!([
        {"name": "own"},
        // A normal map: the primitive gets tangents for it, though its own material has none.
        {"name": "mapped", "normalTexture": {"index": 0}},
        // TEXCOORD_1 alone: the primitive is read with its own material's TEXCOORD_0.
        {"name": "second set", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0, "texCoord": 1}}},
    ]);
    let primitive = &mut json["meshes"][0]["primitives"][0];
    primitive["attributes"]["TEXCOORD_0"] = json!(uv);
    primitive["material"] = json!(0);
    primitive["extensions"] = json!({"KHR_materials_variants": {"mappings": [
        {"variants": [0], "material": 1},
        {"variants": [0, 1], "material": 0},
        {"variants": [9], "material": 0},
        {"variants": [1], "material": 7},
        {"variants": [1], "material": 2},
    ]}});
    let import = import_json(&json).expect("variants do not refuse the file");
    let model = &import.model;
    let names: Vec<&str> = model.material_variants().iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["taxi", "variant 1"]);
    assert_eq!(model.material_variants()[0].materials, [VariantMaterial { mesh: 0, primitive: 0, material: 1 }]);
    assert_eq!(model.material_variants()[1].materials, [VariantMaterial { mesh: 0, primitive: 0, material: 0 }]);
    assert_eq!(model.material_variant("taxi"), Some(0));
    assert_eq!(
        [None, Some(0), Some(1), Some(2)].map(|v| model.primitive_material(0, 0, v)),
        [Some(0), Some(1), Some(0), Some(0)]
    );
    let primitive = &model.meshes()[0].primitives[0];
    assert_eq!(primitive.tangents.len(), 3, "tangents made for the taxi's normal map");
    let messages: Vec<String> = import.warnings.iter().map(|w| format!("{}: {}", w.json_path, w.message)).collect();
    let at = "meshes[0].primitives[0].extensions.KHR_materials_variants.mappings";
    assert_eq!(
        messages,
        [
            "extensions.KHR_materials_variants.variants[1]: this variant has no name: it is called \"variant 1\"; \
             give it a \"name\"",
            &format!("{at}[1].variants[0]: this variant is mapped twice: the first is kept"),
            &format!("{at}[2].variants[0]: names no variant the game keeps: ignored"),
            &format!("{at}[3].material: names no material of the file: this mapping is ignored"),
            &format!(
                "{at}[4].material: this material reads other texture coordinate sets than the primitive's own \
                 material: the mapping is ignored; give both materials' textures the same texCoord"
            ),
        ]
    );
}

#[test]
fn variants_past_the_most_a_model_has_are_left_out() {
    let mut json = Doc::new().json();
    let variants: Vec<_> = (0..40).map(|k| json!({"name": format!("livery {k}")})).collect();
    json["extensions"] = json!({"KHR_materials_variants": {"variants": variants}});
    json["materials"] = json!([{}, {}]);
    json["meshes"][0]["primitives"][0]["extensions"] =
        json!({"KHR_materials_variants": {"mappings": [{"variants": [3, 35], "material": 1}]}});
    let import = import_json(&json).expect("loads");
    assert_eq!(import.model.material_variants().len(), props_anim::Model::MAX_MATERIAL_VARIANTS);
    assert_eq!(import.model.primitive_material(0, 0, Some(3)), Some(1));
    let paths: Vec<&str> = import.warnings.iter().map(|w| w.json_path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "extensions.KHR_materials_variants.variants[32]",
            "meshes[0].primitives[0].extensions.KHR_materials_variants.mappings[0].variants[1]"
        ]
    );
}
