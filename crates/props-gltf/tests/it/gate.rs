//! The gate (`props_gltf::gate`): what the checker calls fatal is refused, everything else is
//! admitted with its model; the broken corpus and the project's valid models, plus the
//! issue's own examples.

use std::path::Path;

use props_gltf::Limits;
use props_gltf::gate::{TOLERATED, admit_file, admit_slice};
use props_gltf::validate::check_file;

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

/// Every broken file is refused, but for those whose only errors are tolerated ones, which are
/// admitted; the gate's verdict is the checker's report's.
#[test]
fn broken_files_are_refused_unless_only_tolerated_errors() {
    let mut admitted_files = Vec::new();
    for entry in std::fs::read_dir(models_dir().join("broken")).expect("corpus").flatten() {
        let path = entry.path();
        if !path.extension().is_some_and(|e| e == "gltf" || e == "glb") {
            continue;
        }
        let report = check_file(&path, &Limits::default());
        let tolerated_only = report.issues.iter().all(|issue| !issue.is_fatal());
        match admit_file(&path, &Limits::default()) {
            Ok(admitted) => {
                assert!(tolerated_only, "admitted despite fatal issues:\n{report}");
                assert!(
                    admitted.report.issues.iter().any(|i| TOLERATED.iter().any(|(code, _)| *code == i.code)),
                    "a broken file admitted without a tolerated error: {}",
                    path.display()
                );
                admitted_files.push(path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default());
            }
            Err(refused) => {
                assert!(!tolerated_only, "refused with no fatal issue:\n{report}");
                let line = refused.to_string();
                assert!(line.starts_with(&path.display().to_string()), "names the file: {line}");
                assert!(line.contains("error["), "names the code: {line}");
            }
        }
    }
    admitted_files.sort();
    assert_eq!(
        admitted_files,
        [
            "accessor_element_above_max",
            "accessor_element_below_min",
            "accessor_max_mismatch",
            "camera_zero_xmag",
            "camera_zfar_below_znear",
            "input_without_bounds",
            "normal_non_unit",
            "normal_zero_length",
            "position_without_bounds",
            "tangent_invalid_sign",
            "tangent_non_unit",
            "weights_not_normalized"
        ]
    );
}

/// The issue's examples: a zero node rotation and a zero rotation keyframe in Fox.glb are
/// refused with the file, the JSON pointer and the code.
#[test]
fn zero_quaternions_are_refused() {
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
    let refused = admit_slice(&edited, None, Path::new("Fox.glb"), &Limits::default()).expect_err("a zero keyframe");
    let line = refused.to_string();
    let channel = json["animations"][0]["channels"].as_array().and_then(|c| c.iter().position(|c| c == rotation));
    assert!(line.contains(&format!("/animations/0/channels/{}/sampler", channel.unwrap_or(0))), "{line}");
    assert!(line.contains("NON_NORMALIZED_QUATERNION"), "{line}");
    assert!(admit_slice(&fox, None, Path::new("Fox.glb"), &Limits::default()).is_ok(), "the unedited Fox loads");
}
