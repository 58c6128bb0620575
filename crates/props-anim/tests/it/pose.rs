//! World matrices, overrides, rest pose and palettes.

use glam::{Affine3A, Quat, Vec3, Vec4};
use props_anim::{JointMatrix, NodeId, Pose, Rig, Skin, Transform};

use crate::support::{assert_affine_close, rig};

/// A 3-bone chain with non-trivial rest transforms, in source order root, mid, tip.
fn chain() -> Rig {
    let t = |x: f32, y: f32, angle: f32, s: f32| Transform {
        translation: Vec3::new(x, y, 0.0),
        rotation: Quat::from_rotation_z(angle),
        scale: Vec3::splat(s),
    };
    rig(&[(&[1], t(1.0, 0.0, 0.3, 1.0)), (&[2], t(0.0, 2.0, -0.7, 0.5)), (&[], t(0.0, 1.0, 0.2, 2.0))])
}

/// The naive, independent definition: multiply the local matrices up the parent chain.
fn naive_world(rig: &Rig, pose: &Pose, node: NodeId) -> Affine3A {
    let mut m = pose.local_matrix(node);
    let mut current = node;
    while let Some(parent) = rig.parent(current) {
        m = pose.local_matrix(parent) * m;
        current = parent;
    }
    m
}

#[test]
fn world_matrices_equal_the_chain_products() {
    let rig = chain();
    let pose = Pose::from_rest(&rig);
    for node in rig.nodes() {
        assert_affine_close(pose.world_matrix(node), naive_world(&rig, &pose, node), 1e-6);
    }
}

#[test]
fn overrides_last_until_return_to_rest() {
    let rig = chain();
    let mut pose = Pose::from_rest(&rig);
    let spun = Transform::from_rotation(Quat::from_rotation_y(1.0));
    pose.set_local_transform(NodeId(1), spun);
    pose.compute_world(&rig);
    assert_eq!(*pose.local_transform(NodeId(1)), spun);
    assert_affine_close(pose.world_matrix(NodeId(2)), naive_world(&rig, &pose, NodeId(2)), 1e-6);
    pose.return_to_rest(&rig);
    pose.compute_world(&rig);
    assert_affine_close(pose.local_matrix(NodeId(1)), rig.rest_matrix(NodeId(1)), 0.0);
}

#[test]
fn palette_is_identity_in_the_bind_pose() {
    let rig = chain();
    let pose = Pose::from_rest(&rig);
    let inverse_bind = rig.nodes().map(|n| pose.world_matrix(n).inverse()).collect();
    let skin = Skin::new(None, rig.nodes().collect(), Some(inverse_bind), &rig).expect("valid skin");
    let mut palette = vec![JointMatrix::default(); 3];
    skin.write_palette(&pose, &mut palette);
    for m in &palette {
        assert_affine_close(m.to_affine(), Affine3A::IDENTITY, 1e-5);
    }
}

#[test]
fn joint_matrix_packs_rows() {
    let m = Affine3A::from_cols_array(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0]);
    let packed = JointMatrix::from_affine(&m);
    assert_eq!(packed.rows, [[1.0, 4.0, 7.0, 10.0], [2.0, 5.0, 8.0, 11.0], [3.0, 6.0, 9.0, 12.0]]);
    assert_eq!(packed.to_affine(), m);
    let p = Vec3::new(0.5, -1.0, 2.0);
    assert_eq!(packed.transform_point(p), m.transform_point3(p));
}

#[test]
fn blending_moves_between_two_poses() {
    let rig = chain();
    let rest = Pose::from_rest(&rig);
    let mut target = Pose::from_rest(&rig);
    let moved = Transform {
        translation: Vec3::new(4.0, 0.0, 0.0),
        rotation: Quat::from_rotation_z(1.0),
        scale: Vec3::splat(3.0),
    };
    target.set_local_transform(NodeId(1), moved);
    let start = *rest.local_transform(NodeId(1));
    for weight in [0.0, 0.25, 0.5, 1.0] {
        let mut pose = rest.clone();
        pose.blend(&target, weight);
        let got = pose.local_transform(NodeId(1));
        // Normalized lerp of the two rotations (both are on the same hemisphere here).
        let (a, b) = (Vec4::from(start.rotation), Vec4::from(moved.rotation));
        let expected_rotation = Quat::from_vec4((a * (1.0 - weight) + b * weight).normalize());
        assert!((got.rotation.dot(expected_rotation).abs() - 1.0).abs() < 1e-6, "weight {weight}");
        if weight == 0.5 {
            // At the ends and the midpoint a normalized lerp is a slerp.
            let slerp = start.rotation.slerp(moved.rotation, 0.5);
            assert!((got.rotation.dot(slerp).abs() - 1.0).abs() < 1e-6);
        }
        assert!((got.translation - start.translation.lerp(moved.translation, weight)).length() < 1e-6);
        assert!((got.scale - start.scale.lerp(moved.scale, weight)).length() < 1e-6);
        // Untouched nodes stay where they were.
        assert_eq!(pose.local_transform(NodeId(2)), rest.local_transform(NodeId(2)));
    }
}
