// The sun's shadow maps (props-render's shadows.rs): how much of the sun reaches a point, by
// the sampler's 2x2 percentage-closer filtering of the map of the cascade its view depth falls
// in (one tap: a software rasteriser pays for each). Appended before shading.wgsl, or into a
// host's shader; `shadow_maps` and `shadow_sampler` are declared by shaders.rs.

// The share of the sun (0 in shadow, 1 lit) at world point `p` of normal `n`.
fn sun_visibility(p: vec3<f32>, n: vec3<f32>) -> f32 {
    if globals.shadow.x < 0.5 {
        return 1.0;
    }
    let depth = dot(globals.depth_row, vec4<f32>(p, 1.0));
    let splits = globals.shadow_splits;
    if depth > splits.z {
        return 1.0;
    }
    let cascade = u32(depth > splits.x) + u32(depth > splits.y);
    let offset = n * globals.shadow_normal_offset[cascade];
    let clip = globals.shadow_view_proj[cascade] * vec4<f32>(p + offset, 1.0);
    let uv = clip.xy * vec2<f32>(0.5, -0.5) + 0.5;
    if any(uv < vec2<f32>(0.0)) || any(uv > vec2<f32>(1.0)) || clip.z > 1.0 {
        return 1.0;
    }
    let reference = clip.z - globals.shadow_depth_offset[cascade];
    let lit = textureSampleCompareLevel(shadow_maps, shadow_sampler, uv, cascade, reference);
    // Fade out towards the end of the shadow distance, not at a line.
    return mix(lit, 1.0, saturate((depth - globals.shadow.y) / (splits.z - globals.shadow.y)));
}
