// Transmissive materials with dual-source blending (where the device has it): the pipeline
// keeps what is behind a fragment by a second colour, channel by channel, so glass tints it by
// its base colour. Appended to shading.wgsl (its `shade`), in a module that enables
// `dual_source_blending`; without the feature, fs_main keeps it by the channels' mean.

struct Transmissive {
    // What the fragment returns towards the eye, premultiplied by its coverage.
    @location(0) @blend_src(0) color: vec4<f32>,
    // How much of what is behind it is kept: where it does not cover it, and what it lets through.
    @location(0) @blend_src(1) kept: vec4<f32>,
};

@fragment
fn fs_transmissive(in: VertexOutput, @builtin(front_facing) front: bool) -> Transmissive {
    return transmissive(in, front);
}

@fragment
fn fs_transmissive_untextured(in: UntexturedOutput, @builtin(front_facing) front: bool) -> Transmissive {
    return transmissive(from_untextured(in), front);
}

@fragment
fn fs_transmissive_plain(in: PlainOutput, @builtin(front_facing) front: bool) -> Transmissive {
    return transmissive(from_plain(in), front);
}

fn transmissive(in: VertexOutput, front: bool) -> Transmissive {
    let shaded = shade(in, front);
    let kept = 1.0 - shaded.alpha + shaded.alpha * shaded.transmitted;
    let through = dot(shaded.transmitted, vec3<f32>(1.0 / 3.0));
    return Transmissive(vec4<f32>(shaded.color * shaded.alpha, shaded.alpha * (1.0 - through)), vec4<f32>(kept, 1.0));
}
