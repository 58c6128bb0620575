// A model's influences past the 8 a vertex holds, in a storage buffer: (joint, weight bits)
// per influence; a vertex names its run by offset and count.
// Prepended to skinned.wgsl with palette_storage.wgsl.

@group(1) @binding(1) var<storage, read> extra_influences: array<vec2<u32>>;

fn extra_influence(index: u32) -> vec2<u32> {
    return extra_influences[index];
}
