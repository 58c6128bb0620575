//! Node constraints against three-vrm: avatars whose twist bones, eyes and sleeves follow other
//! bones by `VRMC_node_constraint`, imported by props-gltf and posed by props-anim, put every
//! node where three-vrm 3.5.5 puts it. Frame by frame, the reference gives each node's local
//! transform before its constraints run and its world matrix after; the same locals posed here
//! ([`props_anim::Pose::compute_world`] runs the rig's constraints) give the same world
//! matrices. The file's clip played here ([`props_anim::Model::pose_at`]) gives them too. The
//! references are `tests/oracle/constraints/*.json`, made by
//! `tests/oracle/constraints/constraints.mjs` (three.js 0.187 and @pixiv/three-vrm in Node).

use std::path::Path;

use glam::{Affine3A, Mat4, Quat, Vec3};
use props_anim::constraint::ConstraintKind;
use props_anim::{Pose, Transform};

/// A reference frame: its time, and per file node its local before the constraints and its
/// world matrix after.
struct Frame {
    time: f32,
    locals: Vec<Transform>,
    /// `None` for a node outside the scene, which three.js does not pose.
    worlds: Vec<Option<Affine3A>>,
}

/// The reference's frames.
fn reference(root: &Path, stem: &str) -> Vec<Frame> {
    let path = root.join(format!("tests/oracle/constraints/{stem}.json"));
    let text = std::fs::read_to_string(path).expect("the reference");
    let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let numbers = |v: &serde_json::Value| -> Vec<f32> {
        v.as_array().expect("numbers").iter().map(|n| n.as_f64().expect("a number") as f32).collect()
    };
    let list = |v: &serde_json::Value| -> Vec<Vec<f32>> { v.as_array().expect("a list").iter().map(numbers).collect() };
    let frames = json["frames"].as_array().expect("frames");
    frames
        .iter()
        .map(|frame| Frame {
            time: frame["time"].as_f64().expect("a time") as f32,
            locals: list(&frame["locals"])
                .into_iter()
                .map(|v| Transform {
                    translation: Vec3::new(v[0], v[1], v[2]),
                    rotation: Quat::from_xyzw(v[3], v[4], v[5], v[6]),
                    scale: Vec3::new(v[7], v[8], v[9]),
                })
                .collect(),
            worlds: frame["worlds"]
                .as_array()
                .expect("worlds")
                .iter()
                .map(|m| (!m.is_null()).then(|| Affine3A::from_mat4(Mat4::from_cols_slice(&numbers(m)))))
                .collect(),
        })
        .collect()
}

/// The largest difference between two matrices' elements.
fn difference(a: &Affine3A, b: &Affine3A) -> f32 {
    (Mat4::from(*a) - Mat4::from(*b)).to_cols_array().iter().fold(0.0f32, |m, x| m.max(x.abs()))
}

#[test]
fn node_constraints_pose_as_three_vrm_poses_them() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // (folder, stem, constraints: roll, aim, rotation)
    let avatars = [("humanoids", "constraints_vrm1", (2, 3, 2)), ("blender", "vrm_addon_constraints_vrm1", (1, 1, 2))];
    for (folder, stem, (rolls, aims, rotations)) in avatars {
        let path = root.join(format!("tests/models/{folder}/{stem}.vrm"));
        let import = props_gltf::import_file(&path, &props_gltf::Limits::default()).expect(stem);
        assert!(import.warnings.is_empty(), "{stem}: {:?}", import.warnings);
        let model = import.model;
        let rig = model.rig();
        let count = |f: fn(&ConstraintKind) -> bool| rig.constraints().iter().filter(|c| f(&c.kind)).count();
        let counted = (
            count(|k| matches!(k, ConstraintKind::Roll(_))),
            count(|k| matches!(k, ConstraintKind::Aim(_))),
            count(|k| matches!(k, ConstraintKind::Rotation)),
        );
        assert_eq!(counted, (rolls, aims, rotations), "{stem}: the constraints read");

        let frames = reference(&root, stem);
        assert_eq!(frames.len(), 61, "{stem}");
        let clip = model.clips().first().map(|_| 0);
        let (mut worst, mut worst_clip, mut moved) = (0.0f32, 0.0f32, 0.0f32);
        let mut pose = Pose::from_rest(rig);
        let rest = Pose::from_rest(rig);
        for frame in &frames {
            assert_eq!(frame.locals.len(), rig.len(), "{stem}: one local per node");
            for (source, local) in frame.locals.iter().enumerate() {
                let node = rig.from_source_index(source as u32).expect("a node");
                pose.set_local_transform(node, *local);
            }
            pose.compute_world(rig);
            let played = clip.map(|c| model.pose_at(Some(c), frame.time));
            for (source, expected) in frame.worlds.iter().enumerate() {
                let Some(expected) = expected else { continue };
                let node = rig.from_source_index(source as u32).expect("a node");
                worst = worst.max(difference(&pose.world_matrix(node), expected));
                if let Some(played) = &played {
                    worst_clip = worst_clip.max(difference(&played.world_matrix(node), expected));
                }
                if rig.constraints().iter().any(|c| c.node == node) {
                    moved = moved.max(difference(&pose.world_matrix(node), &rest.world_matrix(node)));
                }
            }
        }
        let playing = clip.map_or("no clip".to_owned(), |_| format!("{worst_clip:.2e} playing its clip"));
        println!("{stem}: worst element {worst:.2e} from the reference's locals, {playing}");
        assert!(moved > 0.1, "{stem}: the constrained nodes move ({moved})");
        assert!(worst < 2e-6, "{stem}: {worst} from three-vrm");
        assert!(worst_clip < 1e-4, "{stem}: {worst_clip} from three-vrm, playing the clip");
    }
}
