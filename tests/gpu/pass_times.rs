//! Pass timing: with `RendererConfig::pass_timing` on, `FrameStats::pass_times` reports, a
//! few frames late and without waiting, the GPU time of the main pass and of each shadow
//! cascade drawn; nothing for a cascade not drawn (shadows off, or no caster reaches it), and
//! nothing with timing off.

use props_frame::{Lighting, SKY};
use props_render::{FrameStats, GpuContext, OffscreenTarget, PassTimes, Renderer, StandalonePass};
use props_tests::scene::{self, IMAGE_SIZE};

/// Draws the car `frames` times (each frame submitted and waited for, as the game's headless
/// loop does) with a renderer configured by `configure`; the last frame's stats.
fn draw_frames(gpu: &GpuContext, frames: u32, configure: impl FnOnce(&mut props_render::RendererConfig)) -> FrameStats {
    let mut renderer: Renderer = scene::renderer(gpu, configure);
    let (frame, camera) = scene::car_at_origin(&mut renderer);
    let frame = frame.to_frame(camera, Lighting::default(), SKY);
    let target = OffscreenTarget::new(&gpu.device, IMAGE_SIZE);
    let mut pass = StandalonePass::new();
    let mut stats = FrameStats::default();
    for _ in 0..frames {
        let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        stats = pass.draw(&mut renderer, &mut encoder, (target.view(), IMAGE_SIZE), &frame);
        gpu.queue.submit([encoder.finish()]);
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).expect("the GPU finishes the frame");
    }
    stats
}

#[test]
fn passes_are_timed_where_asked() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    assert!(
        gpu.device.features().contains(wgpu::Features::TIMESTAMP_QUERY),
        "lavapipe and the GPUs this is run on have timestamp queries, and the context asks for them"
    );
    // Copied in one frame, mapped in the next, read in the one after.
    let timed = draw_frames(&gpu, 4, |c| c.pass_timing = true);
    let Some(PassTimes { main_ns, shadow_ns }) = timed.pass_times else {
        panic!("no pass times after 4 frames: {timed:?}")
    };
    assert!(main_ns.is_some_and(|ns| ns > 0), "the main pass takes time: {main_ns:?}");
    // The car's shadow falls within the nearest cascade alone: only its pass runs (one no
    // caster reaches is not drawn, not even cleared).
    assert!(
        shadow_ns[0].is_some() && shadow_ns[1..] == [None, None],
        "the nearest cascade is timed, the others not drawn: {shadow_ns:?}"
    );

    let early = draw_frames(&gpu, 2, |c| c.pass_timing = true);
    assert_eq!(early.pass_times, None, "the first frame's times are read in the third");

    let shadowless = draw_frames(&gpu, 4, |c| (c.pass_timing, c.shadows) = (true, false));
    let times = shadowless.pass_times.expect("the main pass is timed");
    assert!(times.main_ns.is_some() && times.shadow_ns == [None; 3], "no cascade drawn, none timed: {times:?}");

    let untimed = draw_frames(&gpu, 4, |_| {});
    assert_eq!(untimed.pass_times, None, "timing is off by default");
}
