//! CPU skinning: morph targets, then linear blend skinning, as the glTF spec defines it.
//! The reference for the GPU path and for tests.

use glam::{Affine3A, Vec3};

use crate::JointMatrix;
use crate::mesh::Primitive;

/// Base positions plus `sum_k weights[k] * target_k.positions` (targets without positions
/// add nothing). Writes one position per vertex into `out` (cleared first).
pub fn morph_positions(primitive: &Primitive, weights: &[f32], out: &mut Vec<Vec3>) {
    morph(&primitive.positions, primitive.morph_targets.iter().map(|t| &t.positions[..]), weights, out);
}

/// Base normals plus the weighted normal displacements of the morph targets (not
/// renormalized; skinning renormalizes).
pub fn morph_normals(primitive: &Primitive, weights: &[f32], out: &mut Vec<Vec3>) {
    morph(&primitive.normals, primitive.morph_targets.iter().map(|t| &t.normals[..]), weights, out);
}

fn morph<'a>(base: &[Vec3], targets: impl Iterator<Item = &'a [Vec3]>, weights: &[f32], out: &mut Vec<Vec3>) {
    out.clear();
    out.extend_from_slice(base);
    for (deltas, &w) in targets.zip(weights) {
        if w != 0.0 {
            for (p, d) in out.iter_mut().zip(deltas) {
                *p += *d * w;
            }
        }
    }
}

/// Normals of a skinned primitive: `normalize(sum_i w_i * palette[j_i] * (n, 0))` after
/// morphing, as the GPU path computes them.
///
/// # Panics
/// As [`skin_positions`].
pub fn skin_normals(primitive: &Primitive, palette: &[JointMatrix], morph_weights: &[f32], out: &mut Vec<Vec3>) {
    morph_normals(primitive, morph_weights, out);
    let influences = primitive.influences.as_ref().expect("skin_normals needs a skinned primitive");
    for (v, n) in out.iter_mut().enumerate() {
        let skinned: Vec3 = influences.of_vertex(v).map(|(j, w)| palette[j as usize].transform_vector(*n) * w).sum();
        *n = skinned.normalize_or_zero();
    }
}

/// Normals of a rigid primitive after morphing: through `node_world`'s normal matrix, the
/// inverse transpose of its linear part, as three.js carries them (normal to the surface under
/// a scale unequal on the axes); through `node_world` itself where that has no inverse.
pub fn rigid_normals(primitive: &Primitive, node_world: &Affine3A, morph_weights: &[f32], out: &mut Vec<Vec3>) {
    morph_normals(primitive, morph_weights, out);
    let linear = node_world.matrix3;
    let inverse = linear.inverse();
    let normal_matrix = if inverse.is_finite() { inverse.transpose() } else { linear };
    for n in out.iter_mut() {
        *n = (normal_matrix * *n).normalize_or_zero();
    }
}

/// Positions of a skinned primitive in the skin's space (for glTF, world space):
/// `sum_i w_i * palette[j_i] * p` over all influence sets, weights as stored (no
/// renormalization, as the glTF specification defines skinning; the GPU divides by their sum
/// where it is not 1, as three.js's loader renormalizes them, so the two differ only for a
/// file whose weights do not sum to 1), after morphing. `palette` is the skin's own joint
/// palette.
///
/// # Panics
/// If the primitive has no influences or a joint index is outside `palette` (a checked
/// [`crate::Model`] rules both out).
pub fn skin_positions(primitive: &Primitive, palette: &[JointMatrix], morph_weights: &[f32], out: &mut Vec<Vec3>) {
    morph_positions(primitive, morph_weights, out);
    let influences = primitive.influences.as_ref().expect("skin_positions needs a skinned primitive");
    for (v, p) in out.iter_mut().enumerate() {
        *p = influences.of_vertex(v).map(|(j, w)| palette[j as usize].transform_point(*p) * w).sum();
    }
}

/// Positions of a rigid primitive: `node_world * p`, after morphing.
pub fn rigid_positions(primitive: &Primitive, node_world: &Affine3A, morph_weights: &[f32], out: &mut Vec<Vec3>) {
    morph_positions(primitive, morph_weights, out);
    for p in out.iter_mut() {
        *p = node_world.transform_point3(*p);
    }
}

/// Every vertex of every mesh instance of `model` drawn with `palette` (laid out as
/// [`crate::Model::write_palettes`] writes it: skinned primitives through their skin's joints,
/// rigid ones through their node's slot, morph targets by the weights packed after the
/// matrices), into `out` (cleared first): where a pose puts the model's vertices.
pub fn model_positions(model: &crate::Model, palette: &[JointMatrix], out: &mut Vec<Vec3>) {
    out.clear();
    let mut weights = vec![0.0; model.morph_weight_count()];
    crate::palette::read_weights(&palette[model.weight_slot().min(palette.len())..], &mut weights);
    let mut positions = Vec::new();
    for (index, instance) in model.instances().iter().enumerate() {
        let morph = &weights[model.rig().morph_range(instance.node)];
        for primitive in &model.meshes()[instance.mesh as usize].primitives {
            // A skinned mesh's primitive without influences is placed by its node, as drawn.
            match instance.skin.filter(|_| primitive.influences.is_some()) {
                Some(skin) => skin_positions(primitive, &palette[model.palette_range(skin)], morph, &mut positions),
                None => rigid_positions(primitive, &palette[model.node_slot(index)].to_affine(), morph, &mut positions),
            }
            out.extend_from_slice(&positions);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slope's normal stays normal to it under a scale unequal on the axes (the normal
    /// matrix), and a node scaled to nothing on an axis still gives a finite normal.
    #[test]
    fn rigid_normals_stay_normal_to_a_stretched_surface() {
        let slope = Vec3::new(1.0, 1.0, 0.0).normalize();
        let primitive =
            Primitive::triangles(vec![Vec3::ZERO, Vec3::Z, Vec3::X - Vec3::Y], vec![slope; 3], vec![0, 1, 2], None);
        let stretched = Affine3A::from_scale(Vec3::new(2.0, 1.0, 1.0));
        let mut normals = Vec::new();
        rigid_normals(&primitive, &stretched, &[], &mut normals);
        // The surface's edge (1, -1, 0) stretched to (2, -1, 0): the normal is (1, 2, 0)/√5.
        let edge = stretched.transform_vector3(Vec3::X - Vec3::Y);
        assert!(normals[0].dot(edge).abs() < 1e-6, "{:?} is not normal to {edge:?}", normals[0]);
        assert!(normals[0].abs_diff_eq(Vec3::new(1.0, 2.0, 0.0).normalize(), 1e-6));
        rigid_normals(&primitive, &Affine3A::from_scale(Vec3::new(0.0, 1.0, 1.0)), &[], &mut normals);
        assert!(normals.iter().all(|n| n.is_finite() && n.length() > 0.99), "{normals:?}");
    }
}
