//! What a model's heap bytes count besides its vertices and pixels: the tables each node and
//! part keeps, and the keys of material, light and visibility animation.

use glam::Vec3;
use props_anim::clip::interpolate::Interpolation;
use props_anim::clip::{Clip, PropertyChannel};
use props_anim::property::{Properties, PropertyTarget};
use props_anim::{Mesh, MeshInstance, Model, ModelParts, NodeId, Primitive, Rig, Transform};

use crate::support::{node, rig};

/// One triangle, placed on every one of `nodes` nodes (children of the first).
fn placed_on(nodes: u32) -> Model {
    let children: Vec<u32> = (1..nodes).collect();
    let mut source = vec![node(&children, Transform::IDENTITY)];
    source.extend((1..nodes).map(|_| node(&[], Transform::IDENTITY)));
    let triangle = Primitive::triangles(vec![Vec3::ZERO, Vec3::X, Vec3::Y], Vec::new(), vec![0, 1, 2], None);
    Model::new(ModelParts {
        rig: Some(Rig::from_source_nodes(&source).expect("a valid rig")),
        meshes: vec![Mesh { name: None, primitives: vec![triangle] }],
        instances: (0..nodes).map(|n| MeshInstance { node: NodeId(n), mesh: 0, skin: None }).collect(),
        ..ModelParts::default()
    })
    .expect("valid")
}

#[test]
fn every_node_and_part_is_counted_though_they_share_one_mesh() {
    let (one, many) = (placed_on(1), placed_on(10_001));
    // A node's parent, rest transform, name and source index, a part's placement and level
    // table: well over 64 bytes, though its vertices are the one mesh's.
    let per_node = (many.heap_bytes() - one.heap_bytes()) / 10_000;
    assert!(per_node >= 64, "{per_node} bytes a placed node");
}

#[test]
fn the_keys_of_property_animation_are_counted() {
    let mut rig = rig(&[(&[], Transform::IDENTITY)]);
    let mut properties = Properties::new();
    let visible = properties.add(PropertyTarget::NodeVisible(NodeId(0)), &[1.0]);
    rig.set_properties(properties);
    let model = |keys: usize| {
        let times: Vec<f32> = (0..keys).map(|k| k as f32).collect();
        let values: Vec<f32> = (0..keys).map(|k| (k % 2) as f32).collect();
        let blink = PropertyChannel::new(visible, Interpolation::Step, times, 1, values).expect("a visibility channel");
        let clip = Clip::new(Some("blink".into()), Vec::new(), &rig)
            .and_then(|clip| clip.with_properties(vec![blink], &rig))
            .expect("a clip");
        Model::new(ModelParts { rig: Some(rig.clone()), clips: vec![clip], ..ModelParts::default() }).expect("valid")
    };
    let (few, many) = (model(2), model(1_002));
    assert_eq!(many.heap_bytes() - few.heap_bytes(), 1_000 * 8, "a key's time and value");
}
