// Joint palette in a storage buffer: one mat3x4 per joint, each "column" of the WGSL matrix
// holding one ROW of the 3x4 affine transform (see props_anim::JointMatrix).
// Prepended to skinned.wgsl when the adapter can read storage buffers in the vertex stage.

@group(0) @binding(1) var<storage, read> palette: array<mat3x4<f32>>;

fn joint_matrix(index: u32) -> mat3x4<f32> {
    return palette[index];
}

// Row `row` of the palette read as rows of four floats (matrix `row / 3`'s row `row % 3`): one
// value of an instance's packed values reads 16 bytes, not a matrix.
fn palette_row(row: u32) -> vec4<f32> {
    return palette[row / 3u][row % 3u];
}
