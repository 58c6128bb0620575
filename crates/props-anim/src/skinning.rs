//! CPU skinning: morph targets, then linear blend skinning, as the glTF spec defines it.
//! The reference for the GPU path and for tests.

use glam::{Affine3A, Vec3};

use crate::mesh::Primitive;
use crate::palette::JointMatrix;

/// Base positions plus `sum_k weights[k] * target_k.positions` (targets without positions
/// add nothing). Writes one position per vertex into `out` (cleared first).
pub fn morph_positions(primitive: &Primitive, weights: &[f32], out: &mut Vec<Vec3>) {
    out.clear();
    out.extend_from_slice(&primitive.positions);
    for (target, &w) in primitive.morph_targets.iter().zip(weights) {
        if w != 0.0 {
            for (p, d) in out.iter_mut().zip(&target.positions) {
                *p += *d * w;
            }
        }
    }
}

/// Positions of a skinned primitive in the skin's space (for glTF, world space):
/// `sum_i w_i * palette[j_i] * p` over all influence sets, weights as stored (no
/// renormalization), after morphing. `palette` is the skin's own joint palette.
///
/// # Panics
/// If the primitive has no influences or a joint index is outside `palette` (a checked
/// [`crate::Model`] rules both out).
pub fn skin_positions(primitive: &Primitive, palette: &[JointMatrix], morph_weights: &[f32], out: &mut Vec<Vec3>) {
    morph_positions(primitive, morph_weights, out);
    let influences = primitive.influences.as_ref().expect("skin_positions needs a skinned primitive");
    for ((p, joints), weights) in out.iter_mut().zip(&influences.joints).zip(&influences.weights) {
        let mut skinned = Vec3::ZERO;
        for (&j, &w) in joints.iter().zip(weights) {
            if w != 0.0 {
                skinned += palette[j as usize].transform_point(*p) * w;
            }
        }
        *p = skinned;
    }
}

/// Positions of a rigid primitive: `node_world * p`, after morphing.
pub fn rigid_positions(primitive: &Primitive, node_world: &Affine3A, morph_weights: &[f32], out: &mut Vec<Vec3>) {
    morph_positions(primitive, morph_weights, out);
    for p in out.iter_mut() {
        *p = node_world.transform_point3(*p);
    }
}
