//! Files that break a glTF rule the way real exporters do, and that three.js loads all the
//! same: the game loads them too, as three.js draws them (`tests/models/lenient/`, written by
//! its `make.py`; three.js's poses in `tests/oracle/lenient/`, checked in `oracle.rs`), and a
//! model with one broken clip loses that clip only.

use std::path::Path;

use props_gltf::gate::{admit_file, admit_slice};
use props_gltf::validate::{Consequence, Outcome, Report, Severity};
use props_gltf::{Limits, Part};
use serde_json::Value;

use crate::real_models::models_dir;
use crate::support::{glb, split_glb};

/// Each lenient model is admitted, its only errors the Khronos ones it was made with (the
/// validator's own report beside the oracle's poses), each read past.
#[test]
fn lenient_models_load_and_their_errors_are_read_past() {
    let oracle = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/oracle/lenient");
    for (stem, code) in [
        ("duplicate_targets", "ANIMATION_DUPLICATE_TARGETS"),
        ("sampler_strides", "ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE"),
        ("skin_strides", "SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE"),
        ("non_root_scene_node", "SCENE_NON_ROOT_NODE"),
        ("unweighted_vertices", "ACCESSOR_WEIGHTS_NON_NORMALIZED"),
        ("primitive_restart", "ACCESSOR_INDEX_PRIMITIVE_RESTART"),
        ("invalid_attribute", "MESH_PRIMITIVE_INVALID_ATTRIBUTE"),
        ("uv_set_gap", "MESH_PRIMITIVE_INDEXED_SEMANTIC_CONTINUITY"),
        ("animated_matrix_nodes", "ANIMATION_CHANNEL_TARGET_NODE_MATRIX"),
    ] {
        let text = std::fs::read_to_string(oracle.join(format!("{stem}.validator.json"))).expect("validator report");
        let khronos: Value = serde_json::from_str(&text).expect("JSON");
        let messages = khronos[0]["report"]["issues"]["messages"].as_array().expect("messages");
        let mut errors: Vec<(&str, &str)> = messages
            .iter()
            .filter(|m| m["severity"] == 0)
            .filter_map(|m| Some((m["code"].as_str()?, m["pointer"].as_str()?)))
            .collect();
        errors.dedup();
        assert!(!errors.is_empty() && errors.iter().all(|(c, _)| *c == code), "{stem}: Khronos says {errors:?}");

        let path = models_dir().join(format!("lenient/{stem}.gltf"));
        let admitted = admit_file(&path, &Limits::default()).unwrap_or_else(|refused| panic!("{refused}"));
        let report = &admitted.report;
        // Where Khronos reports each pair of duplicate channels, the checker reports each
        // channel once (at the channel before it): the same places, linear in the channels.
        let mut ours = error_codes(report);
        ours.dedup();
        assert_eq!(ours, errors, "{stem}: the errors Khronos found, where it found them:\n{report}");
        assert!(report.issues.iter().all(|i| i.consequence == Consequence::Loads), "{stem}:\n{report}");
        assert!(matches!(report.outcome(), Outcome::Loads { dropped, .. } if dropped.is_empty()), "{stem}");
    }
}

/// The code and JSON pointer of each error of `report`.
fn error_codes(report: &Report) -> Vec<(&'static str, &str)> {
    report.issues.iter().filter(|i| i.severity == Severity::Error).map(|i| (i.code, i.json_pointer.as_str())).collect()
}

/// A file with every integer written as a float (`"count": 10.0`: `lenient/integers_as_floats.gltf`)
/// is glTF to the Khronos validator (run in JavaScript, where `10.0` is 10) and to three.js
/// (its poses in `oracle/lenient/`, checked in `oracle.rs`): the game loads it, with one
/// warning where the first such integer is; a string in an integer's place is refused there.
#[test]
fn integers_written_as_floats_load_with_a_warning() {
    let oracle = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/oracle/lenient");
    let text = std::fs::read_to_string(oracle.join("integers_as_floats.validator.json")).expect("validator report");
    let khronos: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(khronos[0]["report"]["issues"]["numErrors"], 0, "Khronos reads it");

    let path = models_dir().join("lenient/integers_as_floats.gltf");
    let admitted = admit_file(&path, &Limits::default()).unwrap_or_else(|refused| panic!("{refused}"));
    let report = &admitted.report;
    assert!(report.issues.iter().all(|i| i.severity != Severity::Error), "{report}");
    let told: Vec<&str> =
        report.issues.iter().filter(|i| i.message.contains("decimal point")).map(|i| i.json_pointer.as_str()).collect();
    assert_eq!(told, ["/accessors/0/bufferView"], "{report}");
    assert!(matches!(report.outcome(), Outcome::Loads { dropped, .. } if dropped.is_empty()), "{report}");

    let mut json: Value = serde_json::from_slice(&std::fs::read(&path).expect("file")).expect("JSON");
    json["accessors"][2]["count"] = Value::from("10");
    let bytes = serde_json::to_vec(&json).expect("JSON");
    let refused = admit_slice(&bytes, None, &path, &Limits::default()).expect_err("a count that is a string");
    assert_eq!(error_codes(&refused.report), [("TYPE_MISMATCH", "/accessors/2/count")], "{}", refused.report);
}

/// JSON of the wrong type drops only the part that holds it (Khronos's `TYPE_MISMATCH` there):
/// BoxAnimated with a string in a material's colour loads, that material drawn as the default
/// one; with a string for a node's mesh it is refused, the error at that pointer.
#[test]
fn json_of_the_wrong_type_drops_the_part_that_holds_it() {
    let path = models_dir().join("BoxAnimated.gltf");
    let original: Value = serde_json::from_slice(&std::fs::read(&path).expect("file")).expect("JSON");
    let admit = |json: &Value| admit_slice(&serde_json::to_vec(json).expect("JSON"), None, &path, &Limits::default());

    let mut colour = original.clone();
    colour["materials"][0]["pbrMetallicRoughness"]["baseColorFactor"][2] = Value::from("x");
    let admitted = admit(&colour).unwrap_or_else(|refused| panic!("{refused}"));
    let outcome = admitted.report.outcome();
    assert!(
        matches!(&outcome, Outcome::Loads { dropped, .. } if dropped == &[Part::Material { index: 0 }]),
        "{outcome}"
    );
    let found = error_codes(&admitted.report);
    assert_eq!(found, [("ARRAY_TYPE_MISMATCH", "/materials/0/pbrMetallicRoughness/baseColorFactor")]);

    let mut node = original;
    node["nodes"][0]["mesh"] = Value::from("x");
    let refused = admit(&node).expect_err("a node's mesh that is a string");
    assert_eq!(error_codes(&refused.report), [("TYPE_MISMATCH", "/nodes/0/mesh")], "{}", refused.report);
}

/// The issue's character with one broken clip: Fox.glb whose `Walk` (animation 1) starts at a
/// negative key time loads with `Survey` and `Run`, posed exactly as from the unbroken file,
/// and says what it dropped.
#[test]
fn a_broken_clip_drops_that_clip_only() {
    let fox = std::fs::read(models_dir().join("Fox.glb")).expect("Fox.glb");
    let (json, mut bin) = split_glb(&fox);
    let input = json["animations"][1]["samplers"][0]["input"].as_u64().expect("input") as usize;
    let shared = json["animations"].as_array().expect("animations").iter().enumerate().any(|(a, animation)| {
        a != 1 && animation["samplers"].as_array().into_iter().flatten().any(|s| s["input"] == input)
    });
    assert!(!shared, "Walk's key times are its own");
    let accessor = &json["accessors"][input];
    let view = &json["bufferViews"][accessor["bufferView"].as_u64().expect("view") as usize];
    let at = (view["byteOffset"].as_u64().unwrap_or(0) + accessor["byteOffset"].as_u64().unwrap_or(0)) as usize;
    bin[at..at + 4].copy_from_slice(&(-1.0f32).to_le_bytes());
    let broken = admit_slice(&glb(&json, &bin), None, Path::new("Fox.glb"), &Limits::default()).expect("admitted");
    let outcome = broken.report.outcome();
    let Outcome::Loads { dropped, .. } = &outcome else { panic!("{outcome}") };
    assert_eq!(dropped, &[Part::Clip { index: 1, name: Some("Walk".to_owned()) }], "{}", broken.report);
    assert!(outcome.to_string().starts_with("drops clip 1 (`Walk`), loads"), "{outcome}");
    let issue = broken.report.issues.iter().find(|i| !i.dropped().is_empty()).expect("the issue");
    assert_eq!(issue.code, "ACCESSOR_ANIMATION_INPUT_NEGATIVE");
    assert_eq!(issue.json_pointer, "/animations/1/samplers/0/input");
    assert_eq!(issue.dropped(), [Part::Clip { index: 1, name: Some("Walk".to_owned()) }]);

    let whole = admit_slice(&fox, None, Path::new("Fox.glb"), &Limits::default()).expect("the Fox");
    let (broken, whole) = (&broken.import, &whole.import);
    assert_eq!(broken.clip_sources, [0, 2]);
    let names: Vec<_> = broken.model.clips().iter().map(|c| c.name()).collect();
    assert_eq!(names, [Some("Survey"), Some("Run")]);
    for animation in [0, 2] {
        let (ours, theirs) = (broken.clip_of_animation(animation), whole.clip_of_animation(animation));
        for time in [0.0, 0.4, 1.1, 3.0] {
            let a = broken.model.pose_at(ours, time);
            let b = whole.model.pose_at(theirs, time);
            assert_eq!(a.world_matrices(), b.world_matrices(), "animation {animation} at {time}");
        }
    }
}

/// SimpleSkin.gltf with vertex `vertex`'s WEIGHTS_0 set to `weights`, admitted.
fn simple_skin_weighted(vertex: usize, weights: [f32; 4]) -> props_gltf::gate::Admitted {
    use base64::Engine as _;
    let path = models_dir().join("SimpleSkin.gltf");
    let mut json: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("the model")).expect("JSON");
    // WEIGHTS_0 is accessor 3: buffer 1's view, 160 bytes in, 16 bytes a vertex.
    assert_eq!(json["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"], 3);
    let base64 = base64::engine::general_purpose::STANDARD;
    let uri = json["buffers"][1]["uri"].as_str().expect("a data URI").to_owned();
    let (head, data) = uri.split_once(',').expect("a data URI");
    let mut bytes = base64.decode(data).expect("base64");
    let at = 160 + 16 * vertex;
    let weights: Vec<u8> = weights.iter().flat_map(|w| w.to_le_bytes()).collect();
    bytes[at..at + 16].copy_from_slice(&weights);
    json["buffers"][1]["uri"] = Value::from(format!("{head},{}", base64.encode(&bytes)));
    admit_slice(json.to_string().as_bytes(), None, Path::new("weights.gltf"), &Limits::default())
        .unwrap_or_else(|refused| panic!("{refused}"))
}

/// A vertex whose weights are all zero (Khronos: ACCESSOR_WEIGHTS_NON_NORMALIZED) is read past
/// as three.js's loader reads it (`normalizeSkinWeights`): all on its first listed joint, here
/// joint 0, which is the skin's first; posed, it is where the file with (1, 0, 0, 0) puts it,
/// not at the model's origin, where the weights as stored would.
#[test]
fn a_vertex_bound_to_no_joint_follows_its_first() {
    // Vertex 8 follows joint 1 in the file (its joints are 0 and 1).
    let (zero, one) = (simple_skin_weighted(8, [0.0; 4]), simple_skin_weighted(8, [1.0, 0.0, 0.0, 0.0]));
    let issue = zero.report.issues.iter().find(|i| i.code == "ACCESSOR_WEIGHTS_NON_NORMALIZED").expect("reported");
    assert_eq!(issue.consequence, Consequence::Loads, "{}", zero.report);
    let influences = zero.import.model.meshes()[0].primitives[0].influences.clone().expect("skinned");
    assert_eq!((influences.joints[8][0], influences.weights[8]), (0, [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]));
    let times = [0.5, 1.5, 2.5];
    let (a, b) = (
        props_gltf::pose_dump::dump(&zero.import, "zero", Some(0), &times),
        props_gltf::pose_dump::dump(&one.import, "one", Some(0), &times),
    );
    for (a, b) in a.frames.iter().zip(&b.frames) {
        let (a, b) = (&a.primitives[0].world[24..27], &b.primitives[0].world[24..27]);
        assert_eq!(a, b);
        assert!(a.iter().map(|c| c * c).sum::<f64>() > 0.1, "not at the origin: {a:?}");
    }
}

/// A rest rotation a little off unit length (within what the checker admits, as float
/// exporters write them) is read at unit length: every pose of the node agrees, the fast path's
/// and a blend's (which normalises), and the node is turned as the unit rotation turns it.
#[test]
fn a_rest_rotation_off_unit_length_is_read_at_unit_length() {
    let path = models_dir().join("SimpleSkin.gltf");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("the model")).expect("JSON");
    let half = std::f32::consts::FRAC_1_SQRT_2;
    let with_rotation = |length: f32| {
        let mut json = json.clone();
        json["nodes"][1]["rotation"] = serde_json::json!([0.0, half * length, 0.0, half * length]);
        let admitted = admit_slice(json.to_string().as_bytes(), None, Path::new("rotated.gltf"), &Limits::default());
        admitted.unwrap_or_else(|refused| panic!("{refused}")).import.model
    };
    let (unit, long) = (with_rotation(1.0), with_rotation(1.006));
    let node = long.rig().nodes().nth(1).expect("node 1");
    let rotation = long.rig().rest(node).as_trs().expect("a TRS node").rotation;
    assert!((rotation.length() - 1.0).abs() < 1e-6, "read at length {}", rotation.length());
    let (a, b) = (unit.pose_at(None, 0.0), long.pose_at(None, 0.0));
    for (a, b) in a.world_matrices().iter().zip(b.world_matrices()) {
        assert!(a.abs_diff_eq(*b, 1e-6), "{a:?} != {b:?}");
    }
}
