//! `EXT_mesh_gpu_instancing` (`tests/models/instancing/boxes.gltf`, written by `make.py` there):
//! each instance is drawn, at its node's world matrix times its own transform (the
//! extension's definition), on a static node and on an animated one, posed once per node.

use glam::{Affine3A, Quat, Vec3};
use props_anim::{JointMatrix, skinning};
use props_gltf::gate::admit_file;
use props_gltf::{Limits, import_file};

use crate::real_models::models_dir;

/// An instance's translation, rotation about Y (degrees) and scale.
type Instance = ([f32; 3], f32, [f32; 3]);

/// The instances `make.py` writes, per node.
fn written() -> [(u32, Vec<Instance>); 2] {
    [
        (2, vec![([0.0; 3], 0.0, [1.0; 3]), ([0.0, 0.0, -1.5], 0.0, [1.0; 3]), ([0.0, 0.0, 1.5], 0.0, [1.0; 3])]),
        (
            3,
            vec![
                ([0.0; 3], 0.0, [1.0; 3]),
                ([3.0, 0.0, 0.0], 30.0, [0.5; 3]),
                ([0.0, 0.0, 3.0], 90.0, [1.0, 2.0, 1.0]),
                ([-3.0, 0.5, 0.0], -45.0, [1.5; 3]),
            ],
        ),
    ]
}

#[test]
fn every_instance_is_drawn_at_its_node_times_its_transform() {
    let path = models_dir().join("instancing/boxes.gltf");
    let admitted = admit_file(&path, &Limits::default()).unwrap_or_else(|refused| panic!("{refused}"));
    assert!(!admitted.report.has_errors(), "{}", admitted.report);
    let instanced = &admitted.import.model;
    let plain = import_file(&models_dir().join("BoxAnimated.gltf"), &Limits::default()).expect("BoxAnimated").model;
    assert_eq!(instanced.instances().len(), 7, "3 inner and 4 outer boxes");
    for time in [0.0, 1.0, 2.0, 3.5] {
        let (pose, plain_pose) = (instanced.pose_at(Some(0), time), plain.pose_at(Some(0), time));
        let mut palette = vec![JointMatrix::IDENTITY; instanced.palette_len()];
        instanced.write_palettes(&pose, &mut palette);
        let mut positions = Vec::new();
        skinning::model_positions(instanced, &palette, &mut positions);
        // The expected: each instance's mesh at the plain model's node world times its own.
        let mut expected = Vec::new();
        let mut order: Vec<(u32, Affine3A, u32)> = Vec::new();
        for (source, instances) in written() {
            let node = plain.rig().from_source_index(source).expect("node");
            let mesh = plain.instances().iter().find(|i| i.node == node).expect("the node's mesh").mesh;
            for (translation, degrees, scale) in instances {
                let local = Affine3A::from_scale_rotation_translation(
                    Vec3::from_array(scale),
                    Quat::from_rotation_y(degrees.to_radians()),
                    Vec3::from_array(translation),
                );
                order.push((source, plain_pose.world_matrix(node) * local, mesh));
            }
        }
        // In the order the model places them: by the instancing node, as the file lists nodes.
        order.sort_by_key(|(source, ..)| *source);
        for (_, world, mesh) in order {
            for primitive in &plain.meshes()[mesh as usize].primitives {
                expected.extend(primitive.positions.iter().map(|&p| world.transform_point3(p)));
            }
        }
        assert_eq!(positions.len(), expected.len());
        let worst = positions.iter().zip(&expected).map(|(a, b)| a.distance(*b)).fold(0.0, f32::max);
        assert!(worst < 1e-5, "t={time}: off by {worst}");
    }
}
