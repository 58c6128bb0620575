//! Retargeting against three.js: the base pedestrian's `Walk` taken to humanoids of other rigs
//! (`tests/models/humanoids/`) by [`props_anim::humanoid::retarget`] turns each paired leg, spine
//! and head bone as three.js's `SkeletonUtils.retargetClip` does, where the two agree: these
//! rigs' bones are unturned at rest and point alike there, so both give the target bone its
//! source bone's world rotation, whatever hangs between them (3ds Max's Biped hangs its thighs
//! from the spine, Character Creator's from a pelvis of no bone). The references are `tests/oracle/retarget/*.Walk.json`, made by
//! `tests/oracle/retarget/retarget.mjs` (three.js 0.187 in Node).

use std::path::Path;

use glam::DQuat;
use props_anim::Pose;
use props_anim::humanoid::{BoneMap, retarget};

#[test]
fn retargeted_bones_turn_as_three_js_turns_them() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let import =
        |path: &str| props_gltf::import_file(&root.join(path), &props_gltf::Limits::default()).expect(path).model;
    let base = import("assets/pedestrian.glb");
    let base_map = BoneMap::find(base.rig());
    let walk = base.find_clip("Walk").expect("the base walk");
    for target in ["mixamo_person", "metarig_person", "biped_person", "cc_person"] {
        let model = import(&format!("tests/models/humanoids/{target}.glb"));
        let map = BoneMap::find(model.rig());
        let clip = retarget((&base, &base_map), walk, (&model, &map)).expect("retargets");
        let model = model.with_clips([clip]);
        let reference = std::fs::read_to_string(root.join(format!("tests/oracle/retarget/{target}.Walk.json")))
            .expect("the three.js reference");
        let reference: serde_json::Value = serde_json::from_str(&reference).expect("JSON");
        let frames = reference["frames"].as_array().expect("frames");
        assert_eq!(frames.len(), 33, "{target}: a frame at each of the walk's keys");
        let mut pose = Pose::from_rest(model.rig());
        for frame in frames {
            let time = frame["time"].as_f64().expect("time") as f32;
            pose.return_to_rest(model.rig());
            model.clips()[model.clips().len() - 1].sample(time, &mut pose);
            pose.compute_world(model.rig());
            for (bone, q) in frame["rotations"].as_object().expect("rotations") {
                let q: Vec<f64> = q.as_array().expect("xyzw").iter().map(|c| c.as_f64().unwrap_or(0.0)).collect();
                let three = DQuat::from_xyzw(q[0], q[1], q[2], q[3]);
                let node = model.rig().find(bone).expect("the bone");
                let ours = pose.world_matrix(node).to_scale_rotation_translation().1.as_dquat();
                // In f64: near 0, f32's acos would not see under about 0.04 degrees.
                let turn = ours.inverse() * three;
                let angle = (2.0 * turn.xyz().length().atan2(turn.w.abs())).to_degrees();
                assert!(angle < 0.01, "{target} at {time} s: `{bone}` is {angle:.4} degrees off three.js's");
            }
        }
    }
}
