//! The animation lint on purpose-made cases: each file or edit and the lint codes it draws.

use std::path::Path;

use props_gltf::Limits;
use props_gltf::validate::{Severity, check_file, check_slice};
use serde_json::{Value, json};

use crate::real_models::models_dir;

/// The lint's codes in a report, sorted.
fn lint_codes(report: &props_gltf::validate::Report) -> Vec<&'static str> {
    let mut codes: Vec<&'static str> = report
        .issues
        .iter()
        .filter(|i| i.code.starts_with("PROPS_") && i.severity == Severity::Warning)
        .filter(|i| ["LOOP_SEAM", "INFLUENCE_BUDGET", "JOINT_BUDGET"].iter().any(|c| i.code.ends_with(c)))
        .map(|i| i.code)
        .collect();
    codes.sort_unstable();
    codes
}

#[test]
fn real_and_generated_models_draw_the_lint_they_deserve() {
    let root = models_dir();
    let assets = root.join("../../assets");
    let cases: [(&Path, &str, &[&str]); 8] = [
        // A rotation back to where it started, and a clip that loops by construction.
        (&root, "AnimatedTriangle.gltf", &[]),
        (&assets, "windmill.glb", &[]),
        (&root, "Fox.glb", &[]),
        // Khronos's BoxAnimated turns half a turn and does not come back.
        (&root, "BoxAnimated.gltf", &["PROPS_LOOP_SEAM"]),
        // STEP cycle (jumps by design) and one-instant pose clips after it: nothing.
        (&assets, "traffic_light.glb", &[]),
        // Door clips end open: played forwards and backwards, never looped.
        (&assets, "bus.glb", &[]),
        (&root, "generated/twelve_influences_u8_float.gltf", &["PROPS_INFLUENCE_BUDGET"]),
        (&root, "generated/many_joints.glb", &["PROPS_JOINT_BUDGET", "PROPS_LOOP_SEAM"]),
    ];
    for (folder, file, expected) in cases {
        let report = check_file(&folder.join(file), &Limits::default());
        assert!(!report.is_fatal(), "{report}");
        assert_eq!(lint_codes(&report), expected, "{file}:\n{report}");
    }
}

/// AnimatedTriangle's rotation (LINEAR, keys a quarter turn apart) edited: `keys` keys kept,
/// with `interpolation`.
fn triangle(keys: usize, interpolation: &str) -> Vec<u8> {
    let text = std::fs::read_to_string(models_dir().join("AnimatedTriangle.gltf")).expect("the model");
    let mut gltf: Value = serde_json::from_str(&text).expect("JSON");
    gltf["animations"][0]["samplers"][0]["interpolation"] = json!(interpolation);
    gltf["accessors"][2]["count"] = json!(keys);
    gltf["accessors"][3]["count"] = json!(keys);
    gltf["accessors"][2]["max"] = json!([(keys - 1) as f32 * 0.25]);
    // Key values: identity, then 90, 180, 270 degrees about Z.
    let half = std::f32::consts::FRAC_1_SQRT_2;
    let z = [0.0, half, 1.0, half];
    let w = [1.0, half, 0.0, -half];
    gltf["accessors"][3]["max"] = json!([0.0, 0.0, z[..keys].iter().copied().fold(0.0, f32::max), 1.0]);
    gltf["accessors"][3]["min"] = json!([0.0, 0.0, 0.0, w[..keys].iter().copied().fold(1.0, f32::min)]);
    serde_json::to_vec(&gltf).expect("JSON")
}

#[test]
fn seams_are_linear_jumps_and_one_key_clips_are_poses() {
    let check = |bytes: Vec<u8>| check_slice(&bytes, Some(&models_dir()), Path::new("edited.gltf"), &Limits::default());
    // Keys at 0, 90, 180 and 270 degrees: looping jumps from 270 back to 0, 90 degrees.
    let seam = check(triangle(4, "LINEAR"));
    assert_eq!(lint_codes(&seam), ["PROPS_LOOP_SEAM"], "{seam}");
    assert!(seam.to_string().contains("rotation jumps 90.0 degrees"), "the shorter way round: {seam}");
    // The same keys on a door clip: opened and closed, never looped.
    let mut doors: Value = serde_json::from_slice(&triangle(4, "LINEAR")).expect("JSON");
    doors["animations"][0]["name"] = json!("doors");
    assert_eq!(lint_codes(&check(serde_json::to_vec(&doors).expect("JSON"))), Vec::<&str>::new());
    // The same keys held (STEP): jumps by design.
    assert_eq!(lint_codes(&check(triangle(4, "STEP"))), Vec::<&str>::new());
    // One key: a pose (a traffic light's `amber`); whether it should loop is its place's to
    // say (the mod lot's `still_clip`).
    let instant = check(triangle(1, "LINEAR"));
    assert_eq!(lint_codes(&instant), Vec::<&str>::new(), "{instant}");
}
