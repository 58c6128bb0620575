//! Pose bounds hold every vertex as it is drawn.

use glam::Vec3;
use props_anim::{Influences, Mesh, MeshInstance, Model, ModelParts, NodeId, Primitive, Skin, Transform};

use crate::support::rig;

/// A vertex weighted 0.5 on its one joint (a file whose weights do not sum to 1) is drawn
/// where a weight of 1 puts it, the GPU dividing by the weights' sum: its bound holds it there,
/// not halfway to the origin (culled while in view).
#[test]
fn weights_not_summing_to_one_are_bounded_as_the_gpu_draws_them() {
    let rig = rig(&[(&[], Transform::IDENTITY)]);
    let skin = Skin::new(None, vec![NodeId(0)], None, &rig).expect("a skin");
    let mut triangle = Primitive::triangles(
        vec![Vec3::new(0.0, 10.0, 0.0), Vec3::new(1.0, 10.0, 0.0), Vec3::new(0.0, 11.0, 0.0)],
        Vec::new(),
        vec![0, 1, 2],
        None,
    );
    let half = [0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
    triangle.influences = Some(Influences {
        joints: vec![[0; 8]; 3],
        weights: vec![half; 3],
        sets: 1,
        extra_start: Vec::new(),
        extra: Vec::new(),
    });
    let model = Model::new(ModelParts {
        rig: Some(rig),
        skins: vec![skin],
        meshes: vec![Mesh { name: None, primitives: vec![triangle] }],
        instances: vec![MeshInstance { node: NodeId(0), mesh: 0, skin: Some(0) }],
        ..ModelParts::default()
    })
    .expect("valid");
    let radius = model.pose_bounds().radius;
    assert!(radius >= 11.0, "the farthest vertex is drawn 11 from the origin; bound {radius}");
}
