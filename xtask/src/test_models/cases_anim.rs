//! Cases about keyframe sampling: cubic splines, STEP edges, quaternion sign flips, quantized and
//! sparse outputs, keys starting late, and plain node animation without normals or indices.

use anyhow::Result;

use super::builder::{
    Column, GltfBuilder, Interp, Node, Path, Primitive, Sparse, SparseIndexType, Usage, channel, to_f32,
};
use super::data::{self, Influences};
use super::math::{self, Quat, quat_axis_angle, quat_mul, quat_neg};
use super::rig::{self, IDENTITY, JointFormat, WeightFormat, X, Y, Z, morph_quad, rig, rot};

/// CUBICSPLINE on translation, rotation, scale (skinned chain) and morph weights, with non-zero
/// asymmetric tangents (the first in- and last out-tangents too, which must be ignored) and
/// uneven key intervals.
pub fn cubic_spline() -> Result<GltfBuilder> {
    let mut b = GltfBuilder::new();
    let joints = rig(&mut b, "Joint", 3, 1.0)?;
    let quad = morph_quad(&mut b, "MorphQuad", [2.0, 1.0, 0.0])?;
    // Intervals 0.25, 0.75, 0.25: tangents are scaled by the interval, so unevenness matters.
    let trs_times = b.times(&[0.0, 0.25, 1.0, 1.25])?;
    // Per key: [in-tangent, value, out-tangent].
    let translation = [
        [[0.9, -0.4, 0.3], [0.0, 0.0, 0.0], [1.2, 0.8, -0.5]],
        [[-0.6, 1.5, 0.2], [0.4, 0.3, -0.1], [2.0, -0.5, 0.7]],
        [[0.3, -1.0, -0.8], [0.1, 0.6, 0.3], [-1.5, 0.4, 1.1]],
        [[0.7, 0.2, -0.9], [-0.2, 0.1, 0.4], [-0.3, 1.3, 0.6]],
    ];
    let rotation = [
        [[0.1, 0.2, -0.3, 0.05], rot(Z, 10.0), [0.4, -0.2, 0.9, -0.1]],
        [[-0.5, 0.3, 0.6, -0.2], rot(Z, 60.0), [0.8, 0.1, -0.4, 0.1]],
        [[0.2, -0.6, 0.1, 0.3], rot([1.0, 0.0, 1.0], 40.0), [-0.7, 0.2, -0.3, -0.15]],
        [[0.3, 0.4, -0.2, 0.1], rot(X, -25.0), [0.6, -0.3, 0.2, 0.2]],
    ];
    let scale = [
        [[0.5, -0.8, 0.3], [1.0, 1.0, 1.0], [1.5, 0.6, -0.4]],
        [[-1.0, 0.7, 0.2], [1.4, 0.8, 1.0], [0.9, -1.2, 0.5]],
        [[0.4, 1.1, -0.6], [0.7, 1.3, 1.2], [-0.8, 0.3, 0.9]],
        [[1.2, -0.5, 0.4], [1.0, 1.0, 1.0], [0.3, 0.6, -1.1]],
    ];
    let weight_times = b.times(&[0.0, 0.5, 2.0])?;
    // Per key: [in-tangents, values, out-tangents], each one number per morph target.
    let weights: [[[f32; 2]; 3]; 3] = [
        [[0.6, -0.2], [0.0, 0.0], [2.0, 0.5]],
        [[-1.0, 1.5], [1.0, 0.3], [0.5, -1.2]],
        [[0.8, 0.4], [0.2, 1.0], [-0.3, 0.9]],
    ];
    let channels = [
        channel(joints[0], Path::Translation, Interp::CubicSpline, trs_times, b.data(&translation.concat(), false)?),
        channel(joints[1], Path::Rotation, Interp::CubicSpline, trs_times, b.data(&rotation.concat(), false)?),
        channel(joints[2], Path::Scale, Interp::CubicSpline, trs_times, b.data(&scale.concat(), false)?),
        channel(quad, Path::Weights, Interp::CubicSpline, weight_times, b.scalars(&weights.concat().concat(), false)?),
    ];
    b.animation("CubicSpline", &channels);
    Ok(b)
}

/// STEP on translation, rotation and scale with keys at 0, 0.25, 1.0 and 1.5 (exact in `f32`, so
/// sampling exactly at a key is meaningful), plus a single-key LINEAR track.
pub fn step_edges() -> Result<GltfBuilder> {
    let mut b = GltfBuilder::new();
    let joints = rig(&mut b, "Joint", 3, 1.0)?;
    let times = b.times(&[0.0, 0.25, 1.0, 1.5])?;
    let translation = [[0.0, 0.0, 0.0], [0.5, 0.0, 0.0], [0.5, 0.5, 0.0], [0.0, 0.5, 0.5]];
    let rotation = [IDENTITY, rot(Z, 45.0), rot(X, -60.0), rot(Y, 90.0)];
    let scale = [[1.0, 1.0, 1.0], [2.0, 1.0, 1.0], [1.0, 0.5, 1.0], [1.5, 1.5, 1.5]];
    let single = b.times(&[0.6])?;
    let channels = [
        channel(joints[0], Path::Translation, Interp::Step, times, b.data(&translation, false)?),
        channel(joints[1], Path::Rotation, Interp::Step, times, b.data(&rotation, false)?),
        channel(joints[2], Path::Scale, Interp::Step, times, b.data(&scale, false)?),
        channel(joints[2], Path::Translation, Interp::Linear, single, b.data(&[[0.3_f32, 1.0, 0.0]], false)?),
    ];
    b.animation("StepEdges", &channels);
    Ok(b)
}

/// LINEAR rotations whose consecutive keys have negative dot products (same orientation with the
/// sign flipped, a different orientation with the sign flipped, q to -q through the identity),
/// a 170-degree step, identical consecutive keys and a 1-degree step (the near-lerp branch).
pub fn quat_flips() -> Result<GltfBuilder> {
    let mut b = GltfBuilder::new();
    let joints = rig(&mut b, "Joint", 3, 1.0)?;
    let q30 = quat_axis_angle(Z, 30.0);
    let q60 = quat_axis_angle(Z, 60.0);
    let big = quat_mul(q60, quat_axis_angle(X, 170.0));
    let flipped_big = quat_neg(quat_mul(big, quat_axis_angle(Y, 170.0)));
    let tiny = quat_mul(flipped_big, quat_axis_angle(Z, 1.0));
    let keys: [Quat; 7] = [q30, quat_neg(q30), q60, big, big, flipped_big, tiny];
    let times = b.times(&[0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0])?;
    let values: Vec<[f32; 4]> = keys.iter().map(|&q| to_f32(q)).collect();
    let identity_flip_times = b.times(&[0.0, 1.5, 3.0])?;
    let identity_flip = [IDENTITY, IDENTITY.map(|c| -c), rot(Y, 90.0)];
    let channels = [
        channel(joints[1], Path::Rotation, Interp::Linear, times, b.data(&values, false)?),
        channel(joints[2], Path::Rotation, Interp::Linear, identity_flip_times, b.data(&identity_flip, false)?),
    ];
    b.animation("QuatFlips", &channels);
    Ok(b)
}

/// Normalized BYTE rotation keys, about 20 degrees about Z, -40 about X and 75 about (1, 1, 0).
/// Their squared components sum to exactly 127², so they dequantize (`c / 127`) to unit
/// quaternions and engines that renormalize agree with those that do not.
const BYTE_ROTATIONS: [[i8; 4]; 3] = [[4, 2, 22, 125], [-44, 4, 4, 119], [53, 54, 0, 102]];

/// Rotation outputs as normalized BYTE and normalized SHORT, morph weights as normalized
/// UNSIGNED_BYTE (all allowed by core glTF 2.0 for animation outputs).
pub fn quantized_rotation() -> Result<GltfBuilder> {
    let mut b = GltfBuilder::new();
    let joints = rig(&mut b, "Joint", 3, 1.0)?;
    let quad = morph_quad(&mut b, "MorphQuad", [2.0, 1.0, 0.0])?;
    let byte_times = b.times(&[0.0, 1.0, 2.0])?;
    let short_times = b.times(&[0.0, 0.5, 1.5, 2.0])?;
    let short_keys = [
        quat_axis_angle(Y, 0.0),
        quat_axis_angle(Z, 90.0),
        quat_axis_angle(Z, -45.0),
        quat_axis_angle([0.0, 1.0, 1.0], 120.0),
    ];
    let weight_times = b.times(&[0.0, 1.0, 2.0])?;
    let weights: [u8; 6] = [0, 0, 255, 64, 32, 255];
    let channels = [
        channel(joints[1], Path::Rotation, Interp::Linear, byte_times, b.data(&BYTE_ROTATIONS, true)?),
        channel(
            joints[2],
            Path::Rotation,
            Interp::Linear,
            short_times,
            b.data(&short_keys.map(data::snorm16_quat), true)?,
        ),
        channel(quad, Path::Weights, Interp::Linear, weight_times, b.scalars(&weights, true)?),
    ];
    b.animation("QuantizedRotation", &channels);
    Ok(b)
}

/// Sparse accessors: a POSITION with a bufferView plus substitution (UNSIGNED_BYTE indices), a
/// morph target POSITION with no bufferView (zeros plus substitution, UNSIGNED_SHORT indices) on
/// the same skinned primitive, and a sparse translation output (UNSIGNED_INT indices).
pub fn sparse() -> Result<GltfBuilder> {
    let mut b = GltfBuilder::new();
    let joints = rig::joint_chain(&mut b, "Joint", 2, [0.0; 3], [0.0, 1.0, 0.0])?;
    let skin = b.skin(&joints, Some(joints[0]))?;
    let tube = data::tube([0.0; 3], [0.0, 2.0, 0.0], 4, 0.1, (0.0, 2.0))?;
    // Ring 2 (vertices 8..12) is zero in the dense data; the sparse values put it back, bulged.
    let bulged: Vec<[f32; 3]> = tube.positions[8..12].iter().map(|&[x, y, z]| [x * 1.8, y, z * 1.8]).collect();
    let mut base = tube.positions.clone();
    base[8..12].fill([0.0; 3]);
    let position = b.sparse(
        &Sparse {
            base: Some(Column::new(&base)),
            count: base.len(),
            indices: vec![8, 9, 10, 11],
            index_type: SparseIndexType::U8,
            values: Column::new(&bulged).with_min_max(),
        },
        Usage::Vertex,
    )?;
    // Morph target: ring 3 moves sideways, ring 4 up and forward; everything else stays zero.
    let displacements: Vec<[f32; 3]> =
        (12..20).map(|v| if v < 16 { [0.3, 0.0, 0.0] } else { [0.0, 0.4, 0.2] }).collect();
    let target = b.sparse(
        &Sparse {
            base: None,
            count: tube.positions.len(),
            indices: (12..20).collect(),
            index_type: SparseIndexType::U16,
            values: Column::new(&displacements).with_min_max(),
        },
        Usage::Vertex,
    )?;
    let influences: Vec<Influences> = tube.params.iter().map(|&p| data::chain_blend(p, 2)).collect();
    let prim = Primitive::new(position)
        .attr("NORMAL", b.vertex(&tube.normals, false)?)
        .indices(b.indices(&tube.indices)?)
        .target(target);
    let prim = rig::skin_attributes(&mut b, prim, &influences, JointFormat::U8, WeightFormat::Float)?;
    let mesh = b.mesh("SparseTube", &[prim], Some(&[0.25]));
    let mesh_node = b.node(Node::named("SparseMesh").mesh(mesh).skin(skin));

    let translation_times = b.times(&[0.0, 0.5, 1.0, 2.0])?;
    // Keys 1 and 3 are garbage in the dense data and replaced by the sparse values.
    let translation = b.sparse(
        &Sparse {
            base: Some(Column::new(&[[0.0_f32, 0.0, 0.0], [9.0, 9.0, 9.0], [0.4, 0.2, 0.0], [9.0, 9.0, 9.0]])),
            count: 4,
            indices: vec![1, 3],
            index_type: SparseIndexType::U32,
            values: Column::new(&[[0.2_f32, 0.3, 0.0], [0.0, 0.0, 0.5]]),
        },
        Usage::Other,
    )?;
    let keys_012 = b.times(&[0.0, 1.0, 2.0])?;
    let rotation = [IDENTITY, rot(Z, 45.0), rot(X, 30.0)];
    let channels = [
        channel(joints[0], Path::Translation, Interp::Linear, translation_times, translation),
        channel(joints[1], Path::Rotation, Interp::Linear, keys_012, b.data(&rotation, false)?),
        channel(mesh_node, Path::Weights, Interp::Linear, keys_012, b.scalars(&[0.0_f32, 1.0, 0.5], false)?),
    ];
    b.animation("Sparse", &channels);
    Ok(b)
}

/// Keys that start after 0: a translation track at 0.5, 1.2, 2.0, a rotation track from 1.0 to
/// 1.5 and a STEP scale track at 0.75 and 1.75 (before the first key the first value holds; the
/// clip lasts 2.0).
pub fn late_keys() -> Result<GltfBuilder> {
    let mut b = GltfBuilder::new();
    let joints = rig(&mut b, "Joint", 2, 1.0)?;
    let translation_times = b.times(&[0.5, 1.2, 2.0])?;
    let translation = [[0.2, 0.0, 0.0], [0.2, 0.5, 0.0], [-0.3, 0.2, 0.4]];
    let rotation_times = b.times(&[1.0, 1.5])?;
    let rotation = [rot(Z, 30.0), rot(Z, -50.0)];
    let scale_times = b.times(&[0.75, 1.75])?;
    let scale = [[1.0, 1.5, 1.0], [0.6, 1.0, 0.6]];
    let channels = [
        channel(joints[0], Path::Translation, Interp::Linear, translation_times, b.data(&translation, false)?),
        channel(joints[1], Path::Rotation, Interp::Linear, rotation_times, b.data(&rotation, false)?),
        channel(joints[1], Path::Scale, Interp::Step, scale_times, b.data(&scale, false)?),
    ];
    b.animation("LateKeys", &channels);
    Ok(b)
}

/// Non-indexed meshes without NORMAL: a tetrahedron on a static `matrix` node and on its
/// node-animated child (LINEAR translation + rotation), and a morph quad with mesh-level default
/// `weights` used by one node as is and by another with a node-level `weights` override.
pub fn no_normals_no_indices() -> Result<GltfBuilder> {
    let mut b = GltfBuilder::new();
    let [apex, left, right, back] = [[0.0, 0.4, 0.0], [-0.3, -0.2, 0.3], [0.3, -0.2, 0.3], [0.0, -0.2, -0.35]];
    let tetra = [apex, left, right, apex, right, back, apex, back, left, left, back, right];
    let tetra_prim = Primitive::new(b.positions(&tetra)?);
    let tetra_mesh = b.mesh("Tetra", &[tetra_prim], None);
    let quad: [[f32; 3]; 6] =
        [[-0.5, -0.5, 0.0], [0.5, -0.5, 0.0], [0.5, 0.5, 0.0], [-0.5, -0.5, 0.0], [0.5, 0.5, 0.0], [-0.5, 0.5, 0.0]];
    let up: Vec<[f32; 3]> = quad.iter().map(|p| if p[1] > 0.0 { [0.0, 0.4, 0.0] } else { [0.0; 3] }).collect();
    let forward: Vec<[f32; 3]> = quad.iter().map(|p| if p[0] > 0.0 { [0.0, 0.0, 0.3] } else { [0.0; 3] }).collect();
    let morph = Primitive::new(b.positions(&quad)?).target(b.positions(&up)?).target(b.positions(&forward)?);
    let morph_mesh = b.mesh("MorphQuad", &[morph], Some(&[0.25, 0.5]));

    let parent_matrix = math::trs([1.0, 0.5, 0.0], quat_axis_angle([0.0, 1.0, 1.0], 30.0), [1.0, 2.0, 0.5]);
    let parent = b.node(Node::named("MatrixParent").matrix(&parent_matrix).mesh(tetra_mesh));
    let animated = b.node(Node::named("Animated").t([0.0, 1.0, 0.0]).mesh(tetra_mesh));
    b.add_child(parent, animated)?;
    b.node(Node::named("MorphDefault").t([-2.0, 0.0, 0.0]).mesh(morph_mesh));
    b.node(Node::named("MorphOverride").t([-2.0, 1.5, 0.0]).mesh(morph_mesh).weights(&[1.0, 0.0]));
    let times = b.times(&[0.0, 0.5, 1.0])?;
    let translation = [[0.0, 1.0, 0.0], [0.5, 1.5, 0.0], [0.0, 1.0, 0.5]];
    let rotation = [IDENTITY, rot(Y, 90.0), rot([1.0, 0.0, 1.0], -60.0)];
    let channels = [
        channel(animated, Path::Translation, Interp::Linear, times, b.data(&translation, false)?),
        channel(animated, Path::Rotation, Interp::Linear, times, b.data(&rotation, false)?),
    ];
    b.animation("NodeAnimation", &channels);
    Ok(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_rotations_are_exactly_unit() {
        for q in BYTE_ROTATIONS {
            assert_eq!(q.iter().map(|&c| i32::from(c).pow(2)).sum::<i32>(), 127 * 127, "{q:?}");
        }
    }
}
