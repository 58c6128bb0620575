// Per-frame values shared by every pipeline: camera and lighting. Prepended to the other shaders,
// with the binding `globals` (props-render's shaders.rs declares it: a host's shader binds it in
// a group of its own).

struct Globals {
    view_proj: mat4x4<f32>,
    // xyz: the camera's position, world space.
    eye: vec4<f32>,
    // xyz: unit direction TOWARDS the sun, world space.
    light_direction: vec4<f32>,
    // rgb: the sun's colour times its intensity (irradiance on a surface facing it).
    light_color: vec4<f32>,
    // rgb: ambient light, diffuse only (a Lambertian albedo a returns a / pi * ambient);
    // w: how strongly the sky's image-based light is added (0: none).
    ambient: vec4<f32>,
    // The sky's radiance as spherical harmonics (bands 0 to 2, rgb), for its diffuse
    // irradiance.
    sky_sh: array<vec4<f32>, 9>,
    // The light clusters' grid: xy: the target's size, pixels; z: depth slices per unit of
    // log view depth; w: the view depth where the first slice ends.
    clusters: vec4<f32>,
    // The view-projection's last row: a world point's view depth (clip w) is its dot product
    // with (p, 1).
    depth_row: vec4<f32>,
    // x: point and spot lights shaded (0: none, and their data is stale).
    light_count: vec4<u32>,
    // x: 1 when the sun casts shadows this frame; y: the view depth where they start to fade
    // out; z: the cascades whose maps are drawn this frame, a bit each (the others, which no
    // caster reaches, are not: read them as lit).
    shadow: vec4<f32>,
    // Per shadow cascade (shadows.rs), nearest first: the view depth where its slice ends;
    // how far along its normal a surface is read from, metres; how much nearer the sun, in
    // the map's depth (both against acne).
    shadow_splits: vec4<f32>,
    shadow_normal_offset: vec4<f32>,
    shadow_depth_offset: vec4<f32>,
    // The ground's shadow (props-render's ground_shadow.rs): xy, the world x and z of its first
    // shadow height; z, its samples per metre (0: the ground shadows nothing this frame); w,
    // the height its texels are above, metres.
    ground_shadow: vec4<f32>,
    // The sun's view-projection of each cascade's map.
    shadow_view_proj: array<mat4x4<f32>, 3>,
};
