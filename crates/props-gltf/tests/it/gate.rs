//! The gate (`props_gltf::gate`): what the rule table makes fatal to the file is refused, what
//! it makes fatal to a part drops that part, everything else is admitted with its model; the
//! broken corpus and the project's valid models, plus the issue's own examples.

use std::path::Path;

use props_gltf::gate::{admit_file, admit_slice};
use props_gltf::validate::{Outcome, check_file};
use props_gltf::{Limits, Part};

use crate::check_corpus::valid_models;
use crate::real_models::models_dir;

#[test]
fn valid_models_are_admitted_with_their_model() {
    for path in valid_models() {
        let admitted = admit_file(&path, &Limits::default()).unwrap_or_else(|refused| panic!("{refused}"));
        assert!(admitted.report.issues.iter().all(|issue| !issue.is_fatal()), "{}", admitted.report);
        assert!(!admitted.import.model.rig().is_empty(), "{}", path.display());
    }
}

/// What the game does with each broken file it loads: as it is, or without the parts it
/// drops (every other broken file is refused). Reviewed by hand: each dropped part holds the
/// file's defect, and each file loaded as it is has only defects the game reads past.
const LOADED: &[(&str, &str)] = &[
    ("accessor_element_above_max.gltf", "loads; 2 errors read past, 1 warning"),
    ("accessor_element_below_min.gltf", "loads; 2 errors read past, 1 warning"),
    ("accessor_max_mismatch.gltf", "loads; 1 error read past, 1 warning"),
    ("accessor_min_one_element.gltf", "skips primitive 0 of mesh 0, loads; 1 error read past, 1 warning"),
    ("accessor_nan.gltf", "skips primitive 0 of mesh 0, loads; 1 warning"),
    ("accessor_offset_unaligned.gltf", "loads; 2 errors read past, 1 warning"),
    ("accessor_small_stride.gltf", "skips primitive 0 of mesh 0, loads; 1 warning"),
    ("animation_without_channels.gltf", "loads; 2 errors read past"),
    ("asset_min_version_greater.gltf", "loads; 1 error read past, 1 warning"),
    ("attribute_count_mismatch.gltf", "skips primitive 0 of mesh 0, loads; 1 warning"),
    ("attribute_invalid_format.gltf", "skips primitive 0 of mesh 0, loads; 2 errors read past, 2 warnings"),
    ("attribute_unsigned_int.gltf", "skips primitive 0 of mesh 0, loads; 1 warning"),
    ("buffer_data_uri_mime.gltf", "loads; 1 error read past, 1 warning"),
    ("buffer_view_stride_too_big.gltf", "skips primitive 0 of mesh 0, loads; 1 warning"),
    ("buffer_view_stride_unaligned.gltf", "skips primitive 0 of mesh 0, loads; 1 warning"),
    ("buffer_view_too_long.gltf", "skips primitive 0 of mesh 0, loads; 1 warning"),
    ("camera_zero_xmag.gltf", "loads; 1 error read past, 1 warning"),
    ("camera_zfar_below_znear.gltf", "loads; 1 error read past, 1 warning"),
    ("channel_duplicate_target.gltf", "drops clip 0 (`Anim`), loads; 1 error read past"),
    ("channel_node_unresolved.gltf", "drops clip 0 (`Anim`), loads"),
    ("channel_sampler_unresolved.gltf", "drops clip 0 (`Anim`), loads"),
    ("channel_target_matrix_node.gltf", "loads; 2 errors read past, 1 warning"),
    ("channel_weights_without_morphs.gltf", "drops clip 0 (`Anim`), loads"),
    ("extension_undeclared.gltf", "loads; 1 error read past, 1 warning"),
    ("glb_chunk_unaligned.glb", "loads; 1 error read past, 1 warning"),
    ("glb_duplicate_bin_chunk.glb", "loads; 1 error read past, 1 warning"),
    ("ibm_as_animation_output.gltf", "drops clip 0 (`Anim`), loads; 2 errors read past"),
    ("image_view_without_mime_type.gltf", "draws without image 0, loads; 1 warning"),
    ("image_without_source.gltf", "draws without image 0, loads; 1 warning"),
    ("index_out_of_range.gltf", "skips primitive 0 of mesh 0, loads; 1 warning"),
    ("index_view_targets_vertices.gltf", "loads; 1 error read past, 1 warning"),
    ("index_view_with_stride.gltf", "skips primitive 0 of mesh 1, loads; 2 errors read past, 2 warnings"),
    ("input_invalid_format.gltf", "drops clip 0 (`Anim`), loads"),
    ("input_negative.gltf", "drops clip 0 (`Anim`), loads"),
    ("input_non_increasing.gltf", "drops clip 0 (`Anim`), loads"),
    ("input_without_bounds.gltf", "loads; 1 error read past, 1 warning"),
    ("joint_index_duplicate.gltf", "loads; 2 errors read past, 1 warning"),
    ("joint_index_out_of_range.gltf", "skips primitive 0 of mesh 0, loads; 1 error read past, 1 warning"),
    ("json_type_mismatch_material.gltf", "draws material 0 as the default material, loads; 1 warning"),
    ("material_base_color_above_one.gltf", "loads; 1 error read past, 1 warning"),
    ("morph_target_without_base.gltf", "skips primitive 0 of mesh 1, loads; 1 error read past, 2 warnings"),
    ("morph_targets_unequal.gltf", "skips primitive 1 of mesh 1, loads; 1 warning"),
    ("node_children_empty.gltf", "loads; 1 error read past, 1 warning"),
    ("node_matrix_and_trs.gltf", "loads; 1 error read past, 1 warning"),
    ("normal_non_unit.gltf", "loads; 1 error read past, 1 warning"),
    ("normal_zero_length.gltf", "loads; 1 error read past, 1 warning"),
    ("output_count_cubic.gltf", "drops clip 0 (`Anim`), loads"),
    ("output_count_linear.gltf", "drops clip 0 (`Anim`), loads"),
    ("output_invalid_format.gltf", "drops clip 0 (`Anim`), loads"),
    ("output_nan.gltf", "drops clip 0 (`Anim`), loads"),
    ("output_rotation_non_unit.gltf", "drops clip 0 (`Anim`), loads"),
    ("output_rotation_zero.gltf", "drops clip 0 (`Anim`), loads"),
    ("position_without_bounds.gltf", "loads; 1 error read past, 1 warning"),
    ("primitive_mode_nine.gltf", "skips primitive 0 of mesh 0, loads; 1 warning"),
    ("quantization_not_required.gltf", "loads; 1 error read past, 1 warning"),
    ("sampler_accessor_with_stride.gltf", "loads; 4 errors read past, 1 warning"),
    ("sampler_cubic_one_key.gltf", "drops clip 0 (`Anim`), loads"),
    ("sampler_unknown_interpolation.gltf", "drops clip 0 (`Anim`), loads"),
    ("scene_non_root_node.gltf", "loads; 1 error read past, 1 warning"),
    ("skin_no_common_root.gltf", "loads; 2 errors read past, 1 warning"),
    ("skin_skeleton_invalid.gltf", "loads; 1 error read past, 1 warning"),
    ("sparse_count_out_of_range.gltf", "skips primitive 0 of mesh 1, loads; 2 warnings"),
    ("sparse_count_zero.gltf", "skips primitive 0 of mesh 1, loads; 2 warnings"),
    ("sparse_index_out_of_range.gltf", "skips primitive 0 of mesh 1, loads; 2 warnings"),
    ("sparse_indices_non_increasing.gltf", "skips primitive 0 of mesh 1, loads; 2 warnings"),
    ("tangent_invalid_sign.gltf", "loads; 1 error read past, 1 warning"),
    ("tangent_non_unit.gltf", "loads; 1 error read past, 1 warning"),
    ("texture_image_gif.gltf", "loads; 1 error read past, 1 warning"),
    ("too_many_influences.gltf", "skips primitive 0 of mesh 0, loads; 1 warning"),
    ("variant_mapping_unresolved.gltf", "loads; 2 errors read past, 1 warning"),
    ("vertex_attribute_unaligned.gltf", "loads; 1 error read past, 1 warning"),
    ("vertex_view_shared_without_stride.gltf", "loads; 2 errors read past, 1 warning"),
    ("weights_negative.gltf", "loads; 2 errors read past, 1 warning"),
    ("weights_not_normalized.gltf", "loads; 1 error read past, 1 warning"),
];

/// Every broken file gets the verdict its report's outcome says, and the one listed in
/// [`LOADED`]; the parts dropped are missing from the model; a refused file is named with a
/// fatal code.
#[test]
fn broken_files_load_without_their_broken_parts_or_are_refused() {
    let mut loaded = Vec::new();
    for entry in std::fs::read_dir(models_dir().join("broken")).expect("corpus").flatten() {
        let path = entry.path();
        if !path.extension().is_some_and(|e| e == "gltf" || e == "glb") {
            continue;
        }
        let name = path.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let report = check_file(&path, &Limits::default());
        let outcome = report.outcome();
        match admit_file(&path, &Limits::default()) {
            Ok(admitted) => {
                assert_eq!(admitted.report.outcome(), outcome, "{name}");
                assert!(admitted.report.has_errors(), "a broken file admitted without an error: {name}");
                let json: serde_json::Value =
                    serde_json::from_slice(&std::fs::read(&path).expect("file")).unwrap_or_default();
                let Outcome::Loads { dropped, .. } = &outcome else { panic!("{name}: admitted but {outcome}") };
                let import = &admitted.import;
                for part in dropped {
                    match part {
                        Part::Clip { index, .. } => assert!(!import.clip_sources.contains(index), "{name}: {part}"),
                        Part::Primitive { mesh, .. } => {
                            let file_primitives = json["meshes"][*mesh as usize]["primitives"].as_array().map(Vec::len);
                            let primitives = import.model.meshes()[*mesh as usize].primitives.len();
                            assert!(Some(primitives) < file_primitives, "{name}: {part}");
                        }
                        Part::Material { index } => {
                            let material = &import.model.materials()[*index as usize];
                            assert_eq!((material.base_color_factor, material.base_color_texture), ([1.0; 4], None));
                        }
                        Part::Texture { .. } | Part::Image { .. } => {
                            assert!(import.model.images().is_empty(), "{name}: {part}");
                        }
                    }
                }
                loaded.push((name, outcome.to_string()));
            }
            Err(refused) => {
                assert_eq!(outcome, Outcome::Refuses, "{name}:\n{report}");
                let line = refused.to_string();
                assert!(line.starts_with(&path.display().to_string()), "names the file: {line}");
                assert!(line.contains("error["), "names the code: {line}");
                assert!(refused.fatal().next().is_some(), "{name}: refused for a fatal issue");
            }
        }
    }
    loaded.sort();
    let expected: Vec<(String, String)> = LOADED.iter().map(|(f, o)| ((*f).to_owned(), (*o).to_owned())).collect();
    assert_eq!(loaded, expected);
}

/// A zero node rotation refuses the file (no droppable part holds a node); a zero rotation
/// keyframe in Fox.glb drops its clip, named with the file, the JSON pointer and the code, and
/// the Fox loads with its other clips.
#[test]
fn zero_quaternions_refuse_the_node_and_drop_the_clip() {
    let zero_node = models_dir().join("broken/node_rotation_zero.gltf");
    let refused = admit_file(&zero_node, &Limits::default()).expect_err("a zero rotation");
    assert!(refused.to_string().contains("/rotation: error[ROTATION_NON_UNIT]"), "{refused}");

    let fox = std::fs::read(models_dir().join("Fox.glb")).expect("Fox.glb");
    let json_len = u32::from_le_bytes(fox[12..16].try_into().expect("chunk length")) as usize;
    let json: serde_json::Value = serde_json::from_slice(&fox[20..20 + json_len]).expect("JSON");
    let rotation = json["animations"][0]["channels"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["target"]["path"] == "rotation"))
        .expect("a rotation channel");
    let sampler = &json["animations"][0]["samplers"][rotation["sampler"].as_u64().expect("sampler") as usize];
    let output = sampler["output"].as_u64().expect("output") as usize;
    let accessor = &json["accessors"][output];
    let view = &json["bufferViews"][accessor["bufferView"].as_u64().expect("view") as usize];
    let offset = view["byteOffset"].as_u64().unwrap_or(0) + accessor["byteOffset"].as_u64().unwrap_or(0);
    let bin_start = 20 + json_len + 8;
    let mut edited = fox.clone();
    let at = bin_start + offset as usize;
    edited[at..at + 16].fill(0);
    let admitted = admit_slice(&edited, None, Path::new("Fox.glb"), &Limits::default()).expect("the clip is dropped");
    let line = admitted.report.to_string();
    let channel = json["animations"][0]["channels"].as_array().and_then(|c| c.iter().position(|c| c == rotation));
    assert!(line.contains(&format!("Fox.glb: /animations/0/channels/{}/sampler", channel.unwrap_or(0))), "{line}");
    assert!(
        line.contains("NON_NORMALIZED_QUATERNION") && line.contains("(the game drops clip 0 (`Survey`))"),
        "{line}"
    );
    assert_eq!(admitted.import.clip_sources, [1, 2], "Walk and Run are kept");
    assert!(admit_slice(&fox, None, Path::new("Fox.glb"), &Limits::default()).is_ok(), "the unedited Fox loads");
}
