// Per-frame values shared by every pipeline: camera and lighting. Prepended to the other shaders.

struct Globals {
    view_proj: mat4x4<f32>,
    // xyz: unit direction TOWARDS the light, in world space.
    light_direction: vec4<f32>,
    // rgb: light colour times intensity.
    light_color: vec4<f32>,
    // rgb: ambient colour.
    ambient: vec4<f32>,
};

@group(0) @binding(0) var<uniform> globals: Globals;
