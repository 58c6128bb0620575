// Point and spot lights (KHR_lights_punctual), clustered: the renderer lists per cluster of
// the view (screen tiles times exponential depth slices) the lights that reach into it
// (props-render's light_clusters.rs); a fragment loops over its cluster's list. Appended
// after globals.wgsl, before shading.wgsl.

struct PunctualLight {
    // xyz: position, world space; w: where its range window ends, metres.
    position_range: vec4<f32>,
    // rgb: linear colour times intensity (candela), times its fade; w: a spot's angular
    // scale (0 for a point light).
    color_scale: vec4<f32>,
    // xyz: where a spot points; w: its angular offset (1 for a point light).
    direction_offset: vec4<f32>,
};

const MAX_LIGHTS: u32 = 256u;
const TILES_X: u32 = 16u;
const TILES_Y: u32 = 9u;
const SLICES: u32 = 24u;
const CLUSTERS: u32 = 3456u;
const CLUSTER_TEXTURE_WIDTH: u32 = 2048u;
const COUNT_BITS: u32 = 12u;

@group(0) @binding(5) var<uniform> punctual_lights: array<PunctualLight, MAX_LIGHTS>;
// Per cluster a header (list start << COUNT_BITS | length), then the lists, four 8-bit light
// indices a texel.
@group(0) @binding(6) var light_clusters: texture_2d<u32>;

fn cluster_texel(i: u32) -> u32 {
    return textureLoad(light_clusters, vec2<u32>(i % CLUSTER_TEXTURE_WIDTH, i / CLUSTER_TEXTURE_WIDTH), 0).r;
}

// The cluster of a fragment at framebuffer position `frag` and world position `p`.
fn cluster_of(frag: vec2<f32>, p: vec3<f32>) -> u32 {
    let grid = globals.clusters;
    let tiles = vec2<f32>(f32(TILES_X), f32(TILES_Y));
    let tile = vec2<u32>(clamp(floor(frag / grid.xy * tiles), vec2<f32>(0.0), tiles - 1.0));
    let w = dot(globals.depth_row.xyz, p) + globals.depth_row.w;
    let slice = u32(clamp(floor(log(max(w, 1e-6) / grid.w) * grid.z), 0.0, f32(SLICES - 1u)));
    return (slice * TILES_Y + tile.y) * TILES_X + tile.x;
}

// Light arriving at a surface from one light.
struct Incoming {
    // Unit vector from the surface towards the light.
    l: vec3<f32>,
    // Irradiance on a surface facing it, linear RGB.
    irradiance: vec3<f32>,
};

// The light `light` casts at `p`: the inverse-square law windowed to its range (the
// KHR_lights_punctual specification's recommended falloff), and a spot's cone, a smoothstep
// from the outer angle's cosine to the inner's as three.js and Blender draw it (the
// specification suggests a squared ramp: its edge is harder).
fn incoming(light: PunctualLight, p: vec3<f32>) -> Incoming {
    let to_light = light.position_range.xyz - p;
    let d2 = max(dot(to_light, to_light), 1e-4);
    let l = to_light * inverseSqrt(d2);
    let range = light.position_range.w;
    let ratio = d2 / (range * range);
    let window = clamp(1.0 - ratio * ratio, 0.0, 1.0);
    let cone = clamp(dot(light.direction_offset.xyz, -l) * light.color_scale.w + light.direction_offset.w, 0.0, 1.0);
    return Incoming(l, light.color_scale.rgb * (window * window / d2 * smoothstep(0.0, 1.0, cone)));
}
