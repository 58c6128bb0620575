//! What the crowd tests share.
#![allow(dead_code, reason = "each test binary uses some of these")]

use std::sync::Arc;

use glam::Vec3;
use props_anim::clip::interpolate::Interpolation;
use props_anim::clip::{Channel, Clip, Keyframes};
use props_anim::spring::{SpringBones, SpringJoint, SpringSettings};
use props_anim::{
    Lod, Mesh, MeshInstance, Model, ModelParts, NodeId, Primitive, RestTransform, Rig, SourceNode, Transform,
};

/// A unit triangle facing +Z, listed `repeat` times.
pub fn triangle(repeat: usize) -> Primitive {
    let positions = vec![Vec3::new(-0.5, 0.0, 0.0), Vec3::new(0.5, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0)];
    Primitive::triangles(positions, vec![Vec3::Z; 3], [0, 1, 2].repeat(repeat), None)
}

/// A model of one node carrying `primitive`, the node's morph weights `morph_weights`.
pub fn one_node_model(primitive: Primitive, morph_weights: Vec<f32>) -> Arc<Model> {
    let node =
        SourceNode { name: None, children: vec![], rest: RestTransform::Trs(Transform::IDENTITY), morph_weights };
    let parts = ModelParts {
        rig: Some(Rig::from_source_nodes(&[node]).expect("one node")),
        meshes: vec![Mesh { name: None, primitives: vec![primitive] }],
        instances: vec![MeshInstance { node: NodeId(0), mesh: 0, skin: None }],
        ..ModelParts::default()
    };
    Arc::new(Model::new(parts).expect("valid"))
}

/// A unit-sized model of `triangles` triangles whose coarser levels stray `errors` (model
/// units), one level each.
pub fn leveled_model(triangles: usize, errors: &[f32]) -> Arc<Model> {
    let mut primitive = triangle(triangles);
    primitive.lods = errors.iter().map(|&error| Lod { indices: vec![0, 1, 2], error }).collect();
    one_node_model(primitive, vec![])
}

/// A model of `nodes` whose one clip keys node `target` by `keys` at `times` (linearly), a
/// small triangle on that node (so that its world matrix is in the palette).
pub fn one_clip_model(nodes: &[SourceNode], target: u32, times: Vec<f32>, keys: Keyframes) -> Arc<Model> {
    let rig = Rig::from_source_nodes(nodes).expect("a rig");
    let node = rig.from_source_index(target).expect("the target");
    let channel = Channel::new(node, Interpolation::Linear, times, keys).expect("a channel");
    let clip = Clip::new(Some("clip".into()), vec![channel], &rig).expect("a clip");
    let triangle =
        Primitive::triangles(vec![Vec3::ZERO, Vec3::X * 0.1, Vec3::Y * 0.1], vec![Vec3::Z; 3], vec![0, 1, 2], None);
    let parts = ModelParts {
        rig: Some(rig),
        clips: vec![clip],
        meshes: vec![Mesh { name: None, primitives: vec![triangle] }],
        instances: vec![MeshInstance { node, mesh: 0, skin: None }],
        ..ModelParts::default()
    };
    Arc::new(Model::new(parts).expect("valid"))
}

/// A one-node walker: clips `Walk` and `Run` sliding it along +Z (no foot to measure a
/// stride by, so its gaits take the assumed speeds) and a one-key `Idle`.
pub fn walker() -> Arc<Model> {
    let base = one_clip_model(
        &[node_at(0.0, 0.0, 0.0, vec![])],
        0,
        vec![0.0, 1.0],
        Keyframes::Translation(vec![Vec3::ZERO, Vec3::Z]),
    );
    let clip = |name: &str, times: Vec<f32>, keys: Vec<Vec3>| {
        let channel = Channel::new(NodeId(0), Interpolation::Linear, times, Keyframes::Translation(keys));
        Clip::new(Some(name.into()), vec![channel.expect("a channel")], base.rig()).expect("a clip")
    };
    let walk = clip("Walk", vec![0.0, 1.0], vec![Vec3::ZERO, Vec3::Z]);
    let run = clip("Run", vec![0.0, 0.5], vec![Vec3::ZERO, Vec3::Z]);
    let idle = clip("Idle", vec![0.0], vec![Vec3::Y]);
    Arc::new(base.with_clips([walk, run, idle]))
}

/// A node at (`x`, `y`, `z`) from its parent, with `children` (source indices).
pub fn node_at(x: f32, y: f32, z: f32, children: Vec<u32>) -> SourceNode {
    let rest = RestTransform::Trs(Transform { translation: Vec3::new(x, y, z), ..Transform::IDENTITY });
    SourceNode { name: None, children, rest, morph_weights: vec![] }
}

/// A head 1.5 up and a lock of hair of two links of 0.2 hanging from it, a triangle on its
/// tip (so the tip's world matrix is in the palette), its links swinging.
pub fn haired() -> Arc<Model> {
    let at = node_at;
    let nodes = [
        at(0.0, 1.5, 0.0, vec![1]),
        at(0.0, 0.0, -0.1, vec![2]),
        at(0.0, -0.2, 0.0, vec![3]),
        at(0.0, -0.2, 0.0, vec![]),
    ];
    let model = one_clip_model(&nodes, 3, vec![0.0, 1.0], Keyframes::Translation(vec![Vec3::new(0.0, -0.2, 0.0); 2]));
    let settings = SpringSettings { stiffness: 0.5, drag: 0.3, gravity: Vec3::new(0.0, -1.0, 0.0), hit_radius: 0.0 };
    let joint = |node: u32| SpringJoint {
        node: NodeId(node),
        tail: Vec3::new(0.0, -0.2, 0.0),
        settings,
        colliders: Vec::new(),
        center: None,
    };
    let springs = SpringBones::new(model.rig(), vec![joint(1), joint(2)], Vec::new()).expect("springs");
    Arc::new(Arc::unwrap_or_clone(model).with_springs(springs).expect("for its rig"))
}
