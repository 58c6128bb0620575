// One mip level drawn from the level above it: each texel the mean of the 2x2 block it covers
// (an odd last row or column repeats the level's last texel). The level read is bound through
// a view of the texture's format: an sRGB one decodes to linear as it is read and the target's
// sRGB view encodes as it is written, so colour averages in linear space; data (and alpha)
// averages its stored values.

@group(0) @binding(0) var above: texture_2d<f32>;

// A triangle covering the target.
@vertex
fn vs_main(@builtin(vertex_index) vertex: u32) -> @builtin(position) vec4<f32> {
    let corner = vec2<f32>(f32((vertex << 1u) & 2u), f32(vertex & 2u));
    return vec4<f32>(corner * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn fs_main(@builtin(position) at: vec4<f32>) -> @location(0) vec4<f32> {
    let last = vec2<i32>(textureDimensions(above)) - 1;
    let low = vec2<i32>(at.xy) * 2;
    let high = min(low + 1, last);
    let sum = textureLoad(above, low, 0) + textureLoad(above, vec2<i32>(high.x, low.y), 0)
        + textureLoad(above, vec2<i32>(low.x, high.y), 0) + textureLoad(above, high, 0);
    return sum * 0.25;
}
