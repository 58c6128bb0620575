//! Helpers shared by the test modules.

use glam::{Affine3A, Quat};
use props_anim::{RestTransform, Rig, SourceNode, Transform};

/// Asserts two floats are within `eps`.
#[track_caller]
pub fn assert_close(actual: f32, expected: f32, eps: f32) {
    assert!((actual - expected).abs() <= eps, "{actual} != {expected} (eps {eps})");
}

/// Asserts two quaternions describe the same rotation (q and -q are equal): every component
/// within `eps` after aligning signs.
#[track_caller]
pub fn assert_same_rotation(actual: Quat, expected: Quat, eps: f32) {
    let aligned = if actual.dot(expected) < 0.0 { -expected } else { expected };
    let diff = (actual - aligned).length();
    assert!(diff <= eps, "{actual:?} vs {expected:?}: difference {diff}");
}

/// Asserts two affine matrices are element-wise within `eps`.
#[track_caller]
pub fn assert_affine_close(actual: Affine3A, expected: Affine3A, eps: f32) {
    let (a, e) = (actual.to_cols_array(), expected.to_cols_array());
    for (i, (x, y)) in a.iter().zip(&e).enumerate() {
        assert!((x - y).abs() <= eps, "element {i}: {x} != {y}\n{actual:?}\n{expected:?}");
    }
}

/// A source node with a TRS rest transform and the given children.
pub fn node(children: &[u32], rest: Transform) -> SourceNode {
    SourceNode { name: None, children: children.to_vec(), rest: RestTransform::Trs(rest), morph_weights: Vec::new() }
}

/// A rig from `(children, rest)` pairs in source order.
pub fn rig(nodes: &[(&[u32], Transform)]) -> Rig {
    let nodes: Vec<SourceNode> = nodes.iter().map(|(c, t)| node(c, *t)).collect();
    Rig::from_source_nodes(&nodes).expect("valid test rig")
}
