// The sun's shadow map (props-render's shadows.rs): how much of the sun reaches a point, by
// the sampler's 2x2 percentage-closer filtering of the map (one tap: a software rasteriser
// pays for each). Appended before shading.wgsl.

@group(0) @binding(7) var shadow_map: texture_depth_2d;
@group(0) @binding(8) var shadow_sampler: sampler_comparison;

// The share of the sun (0 in shadow, 1 lit) at world point `p` of normal `n`.
fn sun_visibility(p: vec3<f32>, n: vec3<f32>) -> f32 {
    if globals.shadow.x < 0.5 {
        return 1.0;
    }
    let clip = globals.shadow_view_proj * vec4<f32>(p + n * globals.shadow.z, 1.0);
    let uv = clip.xy * vec2<f32>(0.5, -0.5) + 0.5;
    if any(uv < vec2<f32>(0.0)) || any(uv > vec2<f32>(1.0)) || clip.z > 1.0 {
        return 1.0;
    }
    return textureSampleCompareLevel(shadow_map, shadow_sampler, uv, clip.z - globals.shadow.w);
}
