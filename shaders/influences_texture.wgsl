// A model's influences past the 8 a vertex holds, in an RG32Uint texture (fallback for adapters
// without vertex-stage storage buffers): one texel (joint, weight bits) per influence, laid out
// row-major in a texture INFLUENCE_TEXTURE_WIDTH texels wide.
// Prepended to skinned.wgsl with palette_texture.wgsl.

@group(1) @binding(1) var extra_influences: texture_2d<u32>;

const INFLUENCE_TEXTURE_WIDTH: u32 = 4096u;

fn extra_influence(index: u32) -> vec2<u32> {
    return textureLoad(extra_influences, vec2<u32>(index % INFLUENCE_TEXTURE_WIDTH, index / INFLUENCE_TEXTURE_WIDTH), 0).xy;
}
