// The sun's shadow maps (props-render's shadows.rs): how much of the sun reaches a point, by
// the sampler's 2x2 percentage-closer filtering of the map of the cascade its view depth falls
// in (one tap: a software rasteriser pays for each); and the ground's hills' shadow
// (ground_shadow.rs). Appended before shading.wgsl, or into a host's shader; `shadow_maps`,
// `shadow_sampler`, `ground_shadow_heights` and `ground_shadow_sampler` are declared by
// shaders.rs.

// Whether a height field may shadow the frame (the renderer's pipelines say: its ground shadow
// is set; a host's shader keeps the default and the globals decide). lavapipe runs a branch's
// both sides, so a lookup a frame without a field would still pay for.
override GROUND_SHADOWED: bool = true;

// How high across the ground's shadow edge goes from dark to lit, metres: the sun's half
// degree seen past a ridge a hundred metres away.
const GROUND_PENUMBRA: f32 = 1.0;

// The share of the sun the ground's hills leave at world point `p`: whether it lies above the
// shadow height there (filtered between the four nearest). None beyond the field, where its
// edge's shadow height would otherwise stretch to the horizon.
fn ground_visibility(p: vec3<f32>) -> f32 {
    let ground = globals.ground_shadow;
    if !GROUND_SHADOWED || ground.z == 0.0 {
        return 1.0;
    }
    let size = vec2<f32>(textureDimensions(ground_shadow_heights));
    let uv = ((p.xz - ground.xy) * ground.z + 0.5) / size;
    if any(abs(uv - 0.5) > vec2<f32>(0.5)) {
        return 1.0;
    }
    let height = ground.w + textureSampleLevel(ground_shadow_heights, ground_shadow_sampler, uv, 0.0).r;
    return saturate((p.y - height) / GROUND_PENUMBRA + 0.5);
}

// The share of the sun (0 in shadow, 1 lit) at world point `p` of normal `n`: past the ground's
// hills and the shadow maps.
fn sun_visibility(p: vec3<f32>, n: vec3<f32>) -> f32 {
    if globals.shadow.x < 0.5 {
        return 1.0;
    }
    return ground_visibility(p) * map_visibility(p, n);
}

// The share of the sun the shadow maps leave at `p`.
fn map_visibility(p: vec3<f32>, n: vec3<f32>) -> f32 {
    let depth = dot(globals.depth_row, vec4<f32>(p, 1.0));
    let splits = globals.shadow_splits;
    if depth > splits.z {
        return 1.0;
    }
    let cascade = u32(depth > splits.x) + u32(depth > splits.y);
    // A map no caster reaches was not drawn this frame (it holds an earlier frame's depths).
    if ((u32(globals.shadow.z) >> cascade) & 1u) == 0u {
        return 1.0;
    }
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
