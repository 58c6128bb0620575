//! Material extensions, built in memory, that are read in part: what cannot be read is drawn at
//! glTF's defaults, with a warning naming it, and the rest of the file loads.

use props_gltf::Part;
use serde_json::json;

use crate::import_errors::{Doc, import_json};

/// Draws each of the file's materials on a copy of its one primitive: the images of a material
/// nothing is drawn in are not read, and these tests read them.
fn draw_each_material(json: &mut serde_json::Value) {
    let primitive = json["meshes"][0]["primitives"][0].clone();
    let count = json["materials"].as_array().map_or(0, Vec::len);
    let each = (0..count).map(|m| {
        let mut copy = primitive.clone();
        copy["material"] = json!(m);
        copy
    });
    json["meshes"][0]["primitives"] = each.collect();
}

#[test]
fn material_extensions_are_read_or_warned_and_a_broken_image_empties_its_slot() {
    let mut json = Doc::new().json();
    json["images"] = json!([{"uri": "data:image/png;base64,AAAA"}]);
    json["textures"] = json!([{"source": 0}]);
    json["materials"] = json!([{
        "normalTexture": {"index": 0, "scale": 0.5,
            "extensions": {"KHR_texture_transform": {"offset": [0.5, 0.25], "rotation": 1.0, "scale": [2.0, 3.0]}}},
        "alphaMode": "MASK",
        "doubleSided": true,
        "emissiveFactor": [1.0, 0.5, 0.0],
        "extensions": {"KHR_materials_unlit": {}, "KHR_materials_dispersion": {"dispersion": 1.0},
            "KHR_materials_emissive_strength": {"emissiveStrength": 4.0}},
    }]);
    json["meshes"][0]["primitives"][0]["material"] = json!(0);
    let import = import_json(&json).expect("a material's extensions do not refuse the file");
    let material = &import.model.materials()[0];
    assert!(material.unlit && material.double_sided);
    assert_eq!(material.alpha_mode, props_anim::material::AlphaMode::Mask { cutoff: 0.5 });
    assert_eq!(
        (material.emissive_factor, material.emissive_strength, material.normal_scale),
        ([1.0, 0.5, 0.0], 4.0, 0.5)
    );
    assert_eq!(material.normal_texture, None, "its image does not decode: the slot is empty");
    assert!(import.dropped.iter().any(|d| matches!(d.part, Part::Image { index: 0 })));
    let messages: Vec<String> = import.warnings.iter().map(|w| format!("{}: {}", w.json_path, w.message)).collect();
    assert_eq!(
        messages,
        [
            "meshes[0].primitives[0]: its material's normal map or anisotropy needs TANGENT, or texture \
             coordinates on triangles to make them from; it is drawn without the map, its specular not stretched",
            "materials[0].extensions.KHR_materials_dispersion: KHR_materials_dispersion is not drawn; the \
             material's base colour, metal and roughness are"
        ]
    );
}

/// What of KHR_materials_ior, KHR_materials_specular, KHR_materials_transmission,
/// KHR_materials_clearcoat and KHR_materials_sheen cannot be read is drawn at glTF's defaults,
/// with a warning, and the rest of the file loads.
#[test]
fn dielectric_specular_extensions_degrade_to_gltf_s_defaults() {
    let mut json = Doc::new().json();
    json["images"] = json!([{"uri": "data:image/png;base64,AAAA"}]);
    json["textures"] = json!([{"source": 0}]);
    json["materials"] = json!([
        // A colour texture whose image does not decode: the slot is empty, the factors stay.
        {"extensions": {"KHR_materials_ior": {"ior": 1000.0},
            "KHR_materials_specular": {"specularColorFactor": [1.0, 1.0, 1.0], "specularColorTexture": {"index": 0}}}},
        // An index of refraction the extension does not allow; a strength that does not parse.
        {"extensions": {"KHR_materials_ior": {"ior": 0.5}, "KHR_materials_specular": {"specularFactor": "high"}}},
        // Infinite (0) is allowed.
        {"extensions": {"KHR_materials_ior": {"ior": 0.0}, "KHR_materials_specular": {"specularFactor": 0.25}}},
        // A transmission that does not parse lets nothing through; one past 1, all.
        {"extensions": {"KHR_materials_transmission": {"transmissionFactor": "all"}}},
        {"extensions": {"KHR_materials_transmission": {"transmissionFactor": 3.0}}},
        // A coat's texture whose image does not decode: the slot is empty, the factors stay.
        {"extensions": {"KHR_materials_clearcoat": {"clearcoatFactor": 0.5, "clearcoatRoughnessTexture": {"index": 0}}}},
        // A sheen that does not parse has none; a colour past 1 is clamped.
        {"extensions": {"KHR_materials_sheen": {"sheenColorFactor": "velvet"}}},
        {"extensions": {"KHR_materials_sheen": {"sheenColorFactor": [2.0, 0.5, -1.0], "sheenRoughnessFactor": 0.5}}},
    ]);
    json["meshes"][0]["primitives"][0]["material"] = json!(0);
    let import = import_json(&json).expect("the file loads");
    let dielectric = |m: &props_anim::material::Material| (m.ior, m.specular_factor, m.specular_color_factor);
    let materials = import.model.materials();
    assert_eq!(dielectric(&materials[0]), (1000.0, 1.0, [1.0; 3]));
    assert_eq!(materials[0].specular_color_texture, None);
    assert!(import.dropped.iter().any(|d| matches!(d.part, Part::Image { index: 0 })));
    assert_eq!(dielectric(&materials[1]), (1.5, 1.0, [1.0; 3]));
    assert_eq!(dielectric(&materials[2]), (0.0, 0.25, [1.0; 3]));
    assert_eq!(materials[2].dielectric_specular(), ([1.0; 3], 0.25), "an infinite index reflects everything");
    assert_eq!((materials[3].transmission_factor, materials[4].transmission_factor), (0.0, 1.0));
    assert_eq!((materials[5].clearcoat_factor, materials[5].clearcoat_roughness_texture), (0.5, None));
    assert!(!materials[6].has_sheen());
    assert_eq!((materials[7].sheen_color_factor, materials[7].sheen_roughness_factor), ([1.0, 0.5, 0.0], 0.5));
    let paths: Vec<&str> = import.warnings.iter().map(|w| w.json_path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "materials[1].extensions.KHR_materials_specular",
            "materials[1].extensions.KHR_materials_ior.ior",
            "materials[3].extensions.KHR_materials_transmission",
            "materials[6].extensions.KHR_materials_sheen"
        ],
        "{:#?}",
        import.warnings
    );
}

/// What of KHR_materials_volume cannot be read leaves the glass thin-walled and clear, with a
/// warning naming it (a thickness texture whose image does not decode, the factor alone); the
/// rest is read as the extension defines it.
#[test]
fn a_volume_degrades_to_clear_glass() {
    let mut json = Doc::new().json();
    json["images"] = json!([{"uri": "data:image/png;base64,AAAA"}]);
    json["textures"] = json!([{"source": 0}]);
    let glass = |volume: serde_json::Value| json!({"extensions": {"KHR_materials_transmission": {"transmissionFactor": 1.0}, "KHR_materials_volume": volume}});
    json["materials"] = json!([
        glass(json!({"thicknessFactor": "thick"})),
        glass(json!({"thicknessFactor": 0.5, "attenuationDistance": 0.0, "attenuationColor": [0.5, 0.5, 0.5]})),
        glass(json!({"thicknessFactor": 0.5, "thicknessTexture": {"index": 0}, "attenuationDistance": 2.0,
            "attenuationColor": [2.0, 0.5, -1.0]})),
        glass(json!({"thicknessFactor": -1.0})),
        glass(json!({})),
    ]);
    draw_each_material(&mut json);
    let import = import_json(&json).expect("the file loads");
    let volume = |m: &props_anim::material::Material| (m.thickness_factor, m.attenuation_color, m.attenuation_distance);
    let materials = import.model.materials();
    let clear = (0.0, [1.0; 3], f32::INFINITY);
    assert_eq!(volume(&materials[0]), clear, "does not parse");
    assert_eq!(volume(&materials[1]), (0.5, [0.5; 3], f32::INFINITY), "a distance of 0 is none");
    assert_eq!(volume(&materials[2]), (0.5, [1.0, 0.5, 0.0], 2.0), "its factor, the colour clamped");
    assert_eq!(materials[2].thickness_texture, None, "its image does not decode");
    assert_eq!(volume(&materials[3]), clear, "no negative thickness");
    assert_eq!(volume(&materials[4]), clear, "the extension's defaults");
    assert!(materials.iter().all(|m| m.is_transmissive()));
    let paths: Vec<&str> = import.warnings.iter().map(|w| w.json_path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "materials[0].extensions.KHR_materials_volume",
            "materials[1].extensions.KHR_materials_volume.attenuationDistance",
        ],
        "{:#?}",
        import.warnings
    );
}

/// What of KHR_materials_anisotropy cannot be read leaves the lobe unstretched, with a warning
/// naming it; a strength past 1 is clamped. An anisotropic material's primitive without
/// TANGENT has them made from its UVs, as a normal-mapped one's are; one without UVs either is
/// drawn without the grain, with a warning; and a primitive whose material reads no tangents
/// keeps none.
#[test]
fn anisotropy_degrades_to_an_unstretched_lobe_and_has_its_tangents_made() {
    let mut doc = Doc::new();
    let uvs = doc.floats(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0], "VEC2");
    let mut json = doc.json();
    json["materials"] = json!([
        {"extensions": {"KHR_materials_anisotropy": {"anisotropyStrength": 2.0, "anisotropyRotation": 1.0}}},
        {"extensions": {"KHR_materials_anisotropy": {"anisotropyStrength": "brushed"}}},
    ]);
    let bare = json["meshes"][0]["primitives"][0].clone();
    let mut with_uvs = bare.clone();
    with_uvs["attributes"]["TEXCOORD_0"] = json!(uvs);
    let uses = |mut primitive: serde_json::Value, material: usize| {
        primitive["material"] = json!(material);
        primitive
    };
    json["meshes"][0]["primitives"] = json!([uses(with_uvs.clone(), 0), uses(bare, 0), uses(with_uvs, 1)]);
    let import = import_json(&json).expect("the file loads");
    let materials = import.model.materials();
    assert_eq!((materials[0].anisotropy_strength, materials[0].anisotropy_rotation), (1.0, 1.0), "clamped");
    assert!(materials[0].is_anisotropic() && !materials[1].is_anisotropic(), "does not parse: none");
    let tangents: Vec<usize> = import.model.meshes()[0].primitives.iter().map(|p| p.tangents.len()).collect();
    assert_eq!(tangents, [3, 0, 0], "made from the UVs; none to make them from; none read");
    let made = import.model.meshes()[0].primitives[0].tangents[0];
    assert!((made.truncate().length() - 1.0).abs() < 1e-3 && made.w.abs() == 1.0, "{made}");
    let paths: Vec<&str> = import.warnings.iter().map(|w| w.json_path.as_str()).collect();
    assert_eq!(
        paths,
        ["meshes[0].primitives[1]", "materials[1].extensions.KHR_materials_anisotropy"],
        "{:#?}",
        import.warnings
    );
}

/// What of KHR_materials_iridescence cannot be read leaves no film, with a warning naming it
/// (textures whose image does not decode, its factor and its greatest thickness, the thickness
/// without them); values the extension does not allow are brought within it.
#[test]
fn a_thin_film_degrades_to_its_factors_or_to_none() {
    let mut json = Doc::new().json();
    json["images"] = json!([{"uri": "data:image/png;base64,AAAA"}]);
    json["textures"] = json!([{"source": 0}]);
    let film = |film: serde_json::Value| json!({"extensions": {"KHR_materials_iridescence": film}});
    json["materials"] = json!([
        film(json!({"iridescenceFactor": "pearly"})),
        film(json!({"iridescenceFactor": 2.0, "iridescenceTexture": {"index": 0}, "iridescenceIor": 0.5,
            "iridescenceThicknessMinimum": 50.0, "iridescenceThicknessMaximum": 300.0,
            "iridescenceThicknessTexture": {"index": 0}})),
        film(json!({"iridescenceFactor": 1.0, "iridescenceThicknessMaximum": -10.0})),
        film(json!({"iridescenceFactor": 1.0})),
    ]);
    draw_each_material(&mut json);
    let import = import_json(&json).expect("the file loads");
    let read = |m: &props_anim::material::Material| {
        (m.iridescence_factor, m.iridescence_ior, m.iridescence_thickness, m.is_iridescent())
    };
    let materials = import.model.materials();
    assert_eq!(read(&materials[0]), (0.0, 1.3, 400.0, false), "does not parse: none");
    assert_eq!(materials[1].iridescence_thickness_minimum, 50.0);
    assert_eq!((materials[1].iridescence_texture, materials[1].iridescence_thickness_texture), (None, None));
    assert_eq!(read(&materials[1]), (1.0, 1.0, 300.0, true), "clamped; its greatest thickness");
    assert_eq!(read(&materials[2]), (1.0, 1.3, 0.0, false), "no negative thickness: no film");
    assert_eq!(read(&materials[3]), (1.0, 1.3, 400.0, true), "the extension's defaults");
    let paths: Vec<&str> = import.warnings.iter().map(|w| w.json_path.as_str()).collect();
    assert_eq!(paths, ["materials[0].extensions.KHR_materials_iridescence",], "{:#?}", import.warnings);
}

/// What of KHR_materials_diffuse_roughness cannot be read leaves Lambert's diffuse, with a
/// warning naming it (a texture whose image does not decode, its factor alone); a factor past 1
/// is clamped.
#[test]
fn a_rough_diffuse_degrades_to_its_factor_or_to_lambert_s() {
    let mut json = Doc::new().json();
    json["images"] = json!([{"uri": "data:image/png;base64,AAAA"}]);
    json["textures"] = json!([{"source": 0}]);
    let rough = |read: serde_json::Value| json!({"extensions": {"KHR_materials_diffuse_roughness": read}});
    json["materials"] = json!([
        rough(json!({"diffuseRoughnessFactor": "chalky"})),
        rough(json!({"diffuseRoughnessFactor": 2.0, "diffuseRoughnessTexture": {"index": 0}})),
        rough(json!({})),
    ]);
    draw_each_material(&mut json);
    let import = import_json(&json).expect("the file loads");
    let roughness: Vec<f32> = import.model.materials().iter().map(|m| m.diffuse_roughness).collect();
    assert_eq!(roughness, [0.0, 1.0, 0.0], "none; clamped; the extension's default");
    assert_eq!(import.model.materials()[1].diffuse_roughness_texture, None, "its image does not decode");
    let paths: Vec<&str> = import.warnings.iter().map(|w| w.json_path.as_str()).collect();
    assert_eq!(paths, ["materials[0].extensions.KHR_materials_diffuse_roughness"], "{:#?}", import.warnings);
}

/// A core factor out of its range (an emissive factor over 1, a base colour of 2) is an error
/// the gate reads past, the value used as given, as three.js uses it: the material is not drawn
/// as the default one for it.
#[test]
fn core_factors_out_of_range_are_read_as_given() {
    let mut json = Doc::new().json();
    json["materials"] = json!([{
        "pbrMetallicRoughness": {"baseColorFactor": [2.0, 1.0, 0.5, 1.0], "metallicFactor": 1.5},
        "emissiveFactor": [3.0, 0.0, 0.0],
    }]);
    json["meshes"][0]["primitives"][0]["material"] = json!(0);
    let admitted = props_gltf::gate::admit_slice(
        json.to_string().as_bytes(),
        None,
        std::path::Path::new("bright.gltf"),
        &props_gltf::Limits::default(),
    )
    .unwrap_or_else(|refused| panic!("{refused}"));
    let out_of_range: Vec<_> =
        admitted.report.issues.iter().filter(|issue| issue.code == "VALUE_NOT_IN_RANGE").collect();
    assert_eq!(out_of_range.len(), 3, "{}", admitted.report);
    assert!(out_of_range.iter().all(|issue| issue.dropped().is_empty() && !issue.is_fatal()), "{}", admitted.report);
    let material = &admitted.import.model.materials()[0];
    assert_eq!(material.base_color_factor, [2.0, 1.0, 0.5, 1.0]);
    assert_eq!((material.metallic_factor, material.emissive_factor), (1.5, [3.0, 0.0, 0.0]));
}
