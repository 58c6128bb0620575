//! What a written palette says of its instance: whether its morph weights are all zero
//! (`Model::morph_at_rest`), wherever the weights lie in their slots.

use glam::Vec3;
use props_anim::{JointMatrix, Mesh, MeshInstance, Model, ModelParts, MorphTarget, NodeId, Pose, Primitive, Rig};
use props_anim::{Transform, WEIGHTS_PER_SLOT};

use crate::support::node;

/// One triangle on one node with `targets` morph targets, the node's weights at zero.
fn morphed(targets: usize) -> Model {
    let mut source = node(&[], Transform::IDENTITY);
    source.morph_weights = vec![0.0; targets];
    let positions = vec![Vec3::ZERO, Vec3::X, Vec3::Y];
    let lift = MorphTarget { positions: vec![Vec3::Z; 3], ..MorphTarget::default() };
    let primitive = Primitive {
        morph_targets: vec![lift; targets],
        ..Primitive::triangles(positions, vec![Vec3::Z; 3], vec![0, 1, 2], None)
    };
    let parts = ModelParts {
        rig: Some(Rig::from_source_nodes(&[source]).expect("one node")),
        meshes: vec![Mesh { name: None, primitives: vec![primitive] }],
        instances: vec![MeshInstance { node: NodeId(0), mesh: 0, skin: None }],
        ..ModelParts::default()
    };
    Model::new(parts).expect("valid")
}

/// `model`'s palette with weight `k` of its node at `weight` (the others at zero).
fn palette(model: &Model, k: Option<(usize, f32)>) -> Vec<JointMatrix> {
    let mut pose = Pose::from_rest(model.rig());
    if let Some((k, weight)) = k {
        pose.morph_weights_mut(NodeId(0))[k] = weight;
    }
    pose.compute_world(model.rig());
    let mut palette = vec![JointMatrix::IDENTITY; model.palette_len()];
    model.write_palettes(&pose, &mut palette);
    palette
}

#[test]
fn a_palette_is_at_rest_when_every_morph_weight_is_zero() {
    // One weight past a full slot: the last lies alone in the second slot.
    let model = morphed(WEIGHTS_PER_SLOT + 1);
    assert!(model.morph_at_rest(&palette(&model, None)));
    for k in [0, WEIGHTS_PER_SLOT - 1, WEIGHTS_PER_SLOT] {
        assert!(!model.morph_at_rest(&palette(&model, Some((k, 0.5)))), "weight {k} moves it");
        assert!(!model.morph_at_rest(&palette(&model, Some((k, -1e-30)))), "however little: weight {k}");
    }
    assert!(model.morph_at_rest(&palette(&model, Some((3, -0.0)))), "-0 is zero");
    assert!(!model.morph_at_rest(&palette(&model, Some((3, f32::NAN)))), "NaN is not");
    let rest = palette(&model, None);
    assert!(!model.morph_at_rest(&rest[1..]), "a palette of another length says nothing");
    let still = morphed(0);
    assert!(!still.morph_at_rest(&palette(&still, None)), "no targets: nothing to skip");
}

/// The fast path refuses a driver on a node with a fixed matrix, as its documentation says
/// (the general path would replace the matrix by the driven rotation alone): a binder checks
/// first ([`props_anim::RestTransform::as_trs`]).
#[test]
#[should_panic(expected = "a driven node is a TRS node of the rig")]
fn a_driver_on_a_matrix_node_is_refused_by_the_fast_path() {
    let source = props_anim::SourceNode {
        rest: props_anim::RestTransform::Matrix(glam::Affine3A::from_translation(Vec3::X)),
        ..node(&[], Transform::IDENTITY)
    };
    let triangle = Primitive::triangles(vec![Vec3::ZERO, Vec3::X, Vec3::Y], vec![Vec3::Z; 3], vec![0, 1, 2], None);
    let parts = ModelParts {
        rig: Some(Rig::from_source_nodes(&[source]).expect("one node")),
        meshes: vec![Mesh { name: None, primitives: vec![triangle] }],
        instances: vec![MeshInstance { node: NodeId(0), mesh: 0, skin: None }],
        ..ModelParts::default()
    };
    let model = Model::new(parts).expect("valid");
    let spec = props_anim::Spec {
        drivers: vec![props_anim::Driver { nodes: vec![NodeId(0)], axis: Vec3::X }],
        ..props_anim::Spec::default()
    };
    let _ = props_anim::runtime::Program::new(&model, &spec);
}
