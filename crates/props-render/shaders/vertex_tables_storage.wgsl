// A model's per-vertex tables in storage buffers: the influences past the 8 a vertex holds,
// (joint, weight bits) each, a vertex naming its run by offset and count; and the morph
// targets' deltas, two vec4 (position, normal) per target and vertex, target after target.
// Prepended to skinned.wgsl with palette_storage.wgsl.

@group(1) @binding(1) var<storage, read> extra_influences: array<vec2<u32>>;
@group(1) @binding(2) var<storage, read> morph_deltas: array<vec4<f32>>;

fn extra_influence(index: u32) -> vec2<u32> {
    return extra_influences[index];
}

fn morph_delta(index: u32) -> vec4<f32> {
    return morph_deltas[index];
}
