// A model's per-vertex tables in textures (fallback for adapters without vertex-stage storage
// buffers), laid out row-major VERTEX_TABLE_WIDTH texels wide: the influences past the 8 a
// vertex holds in an RG32Uint texture, one texel (joint, weight bits) per influence; the
// morph targets' deltas in an RGBA32Float texture, two texels (position, normal) per target
// and vertex. Prepended to skinned.wgsl with palette_texture.wgsl.

@group(1) @binding(1) var extra_influences: texture_2d<u32>;
@group(1) @binding(2) var morph_deltas: texture_2d<f32>;

const VERTEX_TABLE_WIDTH: u32 = 2048u;

fn table_texel(index: u32) -> vec2<u32> {
    return vec2<u32>(index % VERTEX_TABLE_WIDTH, index / VERTEX_TABLE_WIDTH);
}

fn extra_influence(index: u32) -> vec2<u32> {
    return textureLoad(extra_influences, table_texel(index), 0).xy;
}

fn morph_delta(index: u32) -> vec4<f32> {
    return textureLoad(morph_deltas, table_texel(index), 0);
}
