//! Spring bones against three-vrm: avatars whose hair and tail swing, by `VRMC_springBone`
//! (VRM 1.0) and by VRM 0.x's `secondaryAnimation`, imported by props-gltf and swung by
//! [`props_anim::spring`] along a path, frame by frame, put every node of their chains where
//! three-vrm 3.5.5 puts them. The avatars are the project's own (`tests/models/humanoids/`:
//! spheres and capsules, a centre) and real exports of the VRM Add-on for Blender
//! (`tests/models/blender/vrm_addon_springs_*.vrm`). The references are
//! `tests/oracle/springs/*.json`, made by `tests/oracle/springs/springs.mjs` (three.js 0.187
//! and @pixiv/three-vrm in Node).

use std::path::Path;

use glam::{Affine3A, DQuat, DVec3, Mat4};
use props_anim::Pose;

/// A reference frame: the placement, and per chain node its name, world translation and
/// rotation.
type Frame = (Affine3A, Vec<(String, DVec3, DQuat)>);

/// The reference's frames.
fn reference(root: &Path, stem: &str) -> Vec<Frame> {
    let text = std::fs::read_to_string(root.join(format!("tests/oracle/springs/{stem}.json"))).expect("the reference");
    let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let numbers = |v: &serde_json::Value| -> Vec<f64> {
        v.as_array().expect("numbers").iter().map(|n| n.as_f64().expect("a number")).collect()
    };
    let frames = json["frames"].as_array().expect("frames");
    frames
        .iter()
        .map(|frame| {
            let m: Vec<f32> = numbers(&frame["placement"]).into_iter().map(|x| x as f32).collect();
            let placement = Affine3A::from_mat4(Mat4::from_cols_slice(&m));
            let nodes = frame["nodes"].as_object().expect("nodes");
            let nodes = nodes
                .iter()
                .map(|(name, v)| {
                    let v = numbers(v);
                    (name.clone(), DVec3::new(v[0], v[1], v[2]), DQuat::from_xyzw(v[3], v[4], v[5], v[6]))
                })
                .collect();
            (placement, nodes)
        })
        .collect()
}

#[test]
fn spring_bones_swing_as_three_vrm_swings_them() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let avatars = [
        ("humanoids", "springs_vrm1", (7, 8, 10)),
        ("humanoids", "springs_vrm0", (10, 7, 10)),
        ("blender", "vrm_addon_springs_vrm1", (3, 2, 5)),
        ("blender", "vrm_addon_springs_vrm0", (5, 1, 5)),
    ];
    for (folder, stem, (joints, colliders, chained)) in avatars {
        let path = root.join(format!("tests/models/{folder}/{stem}.vrm"));
        let import = props_gltf::import_file(&path, &props_gltf::Limits::default()).expect(stem);
        assert!(import.warnings.is_empty(), "{stem}: {:?}", import.warnings);
        let model = import.model;

        let springs = model.springs();
        assert_eq!((springs.joints().len(), springs.colliders().len()), (joints, colliders), "{stem}");
        let frames = reference(&root, stem);
        assert_eq!(frames.len(), 181, "{stem}: three seconds at 60 Hz");
        let mut pose = Pose::from_rest(model.rig());
        let mut state = springs.state();
        let (mut worst_at, mut worst_turn) = (0.0f64, 0.0f64);
        for (f, (placement, nodes)) in frames.iter().enumerate() {
            pose.return_to_rest(model.rig());
            pose.compute_world(model.rig());
            if f == 0 {
                springs.reset(model.rig(), &mut pose, placement, &mut state);
            } else {
                springs.step(model.rig(), &mut pose, placement, &mut state, 1.0 / 60.0);
            }
            assert_eq!(nodes.len(), chained, "{stem}: every chain's nodes");
            for (name, at, rotation) in nodes {
                let node = model.rig().find(name).expect("the chain's node");
                let (_, ours_rotation, ours_at) =
                    (*placement * pose.world_matrix(node)).to_scale_rotation_translation();
                let off = ours_at.as_dvec3().distance(*at);
                let turn = ours_rotation.as_dquat().inverse() * *rotation;
                let angle = (2.0 * turn.xyz().length().atan2(turn.w.abs())).to_degrees();
                assert!(
                    off < 5e-5 && angle < 0.02,
                    "{stem} frame {f}: `{name}` is {off:.6} m and {angle:.4} degrees off three-vrm's"
                );
                (worst_at, worst_turn) = (worst_at.max(off), worst_turn.max(angle));
            }
        }
        println!(
            "{stem}: at most {worst_at:.2e} m and {worst_turn:.2e} degrees off three-vrm over {} frames",
            frames.len()
        );
    }
}
