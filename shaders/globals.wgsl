// Per-frame values shared by every pipeline: camera and lighting. Prepended to the other shaders.

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
};

@group(0) @binding(0) var<uniform> globals: Globals;
