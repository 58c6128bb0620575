// Joint palette in a storage buffer: one mat3x4 per joint, each "column" of the WGSL matrix
// holding one ROW of the 3x4 affine transform (see props_anim::JointMatrix).
// Prepended to skinned.wgsl when the adapter can read storage buffers in the vertex stage.

@group(0) @binding(1) var<storage, read> palette: array<mat3x4<f32>>;

fn joint_matrix(index: u32) -> mat3x4<f32> {
    return palette[index];
}
