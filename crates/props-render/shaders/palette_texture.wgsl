// Joint palette in an RGBA32F texture (fallback for adapters without vertex-stage storage
// buffers, e.g. WebGL2): three texels per joint, one row of the 3x4 transform each, laid out
// row-major in a texture PALETTE_TEXTURE_WIDTH texels wide.
// Prepended to skinned.wgsl instead of palette_storage.wgsl.

@group(0) @binding(1) var palette_texture: texture_2d<f32>;

const PALETTE_TEXTURE_WIDTH: u32 = 1536u;

fn palette_texel(texel: u32) -> vec4<f32> {
    return textureLoad(palette_texture, vec2<u32>(texel % PALETTE_TEXTURE_WIDTH, texel / PALETTE_TEXTURE_WIDTH), 0);
}

fn joint_matrix(index: u32) -> mat3x4<f32> {
    let texel = index * 3u;
    return mat3x4<f32>(palette_texel(texel), palette_texel(texel + 1u), palette_texel(texel + 2u));
}

// Row `row` of the palette read as rows of four floats: one texel.
fn palette_row(row: u32) -> vec4<f32> {
    return palette_texel(row);
}
