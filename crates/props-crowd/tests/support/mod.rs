//! What the crowd tests share.

use std::sync::Arc;

use glam::Vec3;
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
