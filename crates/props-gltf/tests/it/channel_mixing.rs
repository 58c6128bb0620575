//! Channels that animate one property more than once in a clip (legacy Blender exports write
//! two, FBX-to-glTF conversions several): mixed evenly, as three.js's mixer plays them, at a
//! cost the tracks' own keys bound.

use serde_json::{Value, json};

use crate::import_errors::{Doc, import_json, push};

/// Two channels on one property (legacy Blender exports) are mixed half and half, as three.js
/// plays them, with a warning at the second.
#[test]
fn duplicate_channel_targets_are_mixed() {
    let mut json = Doc::new().json();
    let channel = json["animations"][0]["channels"][0].clone();
    push(&mut json["animations"][0]["channels"], channel);
    let import = import_json(&json).expect("mixed");
    assert_eq!(import.model.clips()[0].channels().len(), 1);
    let warning = import.warnings.iter().find(|w| w.json_path == "animations[0].channels[1]").expect("warned");
    assert!(warning.message.contains("channel 0 animates the rotation of node 2 too"), "{warning}");
}

/// Any number of channels on one property (FBX-to-glTF conversions write several) are mixed
/// evenly, as three.js's mixer plays them: six translation tracks give their mean.
#[test]
fn many_channels_on_one_property_are_mixed_evenly() {
    let mut doc = Doc::new();
    let times = doc.floats(&[0.0, 1.0], "SCALAR");
    let mut channels = Vec::new();
    for k in 0..6 {
        let k = k as f32;
        let output = doc.floats(&[k, 0.0, 0.0, 2.0 * k, 0.0, 0.0], "VEC3");
        push(&mut doc.json["animations"][0]["samplers"], json!({"input": times, "output": output}));
        channels.push(json!({"sampler": k as usize + 1, "target": {"node": 2, "path": "translation"}}));
    }
    doc.json["animations"][0]["channels"] = Value::Array(channels);
    let import = import_json(&doc.json()).expect("mixed");
    let clip = &import.model.clips()[0];
    assert_eq!(clip.channels().len(), 1);
    let mut pose = props_anim::Pose::from_rest(import.model.rig());
    clip.channels()[0].sample(0.5, &mut pose);
    let node = import.model.rig().from_source_index(2).expect("node 2");
    // Track k is at 1.5 k at t = 0.5; the mean of k = 0..5 is 2.5.
    let x = pose.local_transform(node).translation.x;
    assert!((x - 3.75).abs() < 1e-5, "{x}");
    let last = import.warnings.iter().find(|w| w.json_path == "animations[0].channels[5]").expect("warned");
    assert!(last.message.contains("the 6 channels on it are mixed evenly"), "{last}");
}

/// A thousand copies of one channel (the fuzzer made such a clip) cost what one does: a track
/// mixed with itself changes nothing. A thousand different ones are bounded by the budget.
#[test]
fn a_thousand_channels_on_one_property_cost_little() {
    let mut json = Doc::new().json();
    let channel = json["animations"][0]["channels"][0].clone();
    json["animations"][0]["channels"] = Value::Array(vec![channel; 1000]);
    let import = import_json(&json).expect("one track");
    assert_eq!(import.model.clips()[0].channels()[0].keys().times(), [0.0, 1.0]);

    let mut doc = Doc::new();
    let times = doc.floats(&[0.0, 0.5, 1.0], "SCALAR");
    let mut channels = Vec::new();
    for k in 0..1000 {
        let angle = (k as f32 * 0.618).fract() * 3.0;
        let (s, c) = (angle * 0.5).sin_cos();
        let output = doc.floats(&[0.0, 0.0, 0.0, 1.0, s, 0.0, 0.0, c, 0.0, s, 0.0, c], "VEC4");
        push(&mut doc.json["animations"][0]["samplers"], json!({"input": times, "output": output}));
        channels.push(json!({"sampler": k + 1, "target": {"node": 2, "path": "rotation"}}));
    }
    doc.json["animations"][0]["channels"] = Value::Array(channels);
    let start = std::time::Instant::now();
    let import = import_json(&doc.json()).expect("mixed");
    let keys = import.model.clips()[0].channels()[0].keys().times().len();
    assert!(keys <= 2 * 3000 + 4096, "{keys} keys");
    eprintln!("1000 rotation tracks mixed into {keys} keys in {:?}", start.elapsed());
}
