//! Props drawn into a pass the test began, as a host does (`Renderer::prepare`, then a pass
//! begun with the host's depth, then `Renderer::render`): they are depth-tested against the
//! host's depth buffer (cleared to the nearest depth, it hides them all), and a model replaced
//! between the two calls is drawn as it is now, without a panic.

use props_frame::{Lighting, ModelId, SKY};
use props_render::{Clear, OffscreenTarget, Renderer, StandalonePass};
use props_tests::scene::{self, IMAGE_SIZE};

/// Prepares one car at the origin, runs `between` on the renderer, then records the props into
/// a pass over a cleared target whose depth the test cleared to `clear_depth`; the image.
fn draw_in_host_pass(
    gpu: &props_render::GpuContext,
    renderer: &mut Renderer,
    clear_depth: f32,
    between: impl FnOnce(&mut Renderer),
) -> image::RgbaImage {
    let (frame, camera) = scene::car_at_origin(renderer);
    let frame = frame.to_frame(camera, Lighting::default(), SKY);

    let target = OffscreenTarget::new(&gpu.device, IMAGE_SIZE);
    let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    renderer.prepare(&mut encoder, &frame, IMAGE_SIZE);
    between(renderer);
    {
        let mut host = StandalonePass::new();
        let clear = Clear { color: wgpu::Color::BLACK, depth: Some(clear_depth) };
        let mut pass = host.begin(renderer, &mut encoder, (target.view(), IMAGE_SIZE), clear);
        renderer.render(&mut pass);
    }
    gpu.queue.submit([encoder.finish()]);
    let pixels = target.read_rgba8(&gpu.device, &gpu.queue).expect("readback");
    image::RgbaImage::from_raw(IMAGE_SIZE.0, IMAGE_SIZE.1, pixels).expect("image of the right size")
}

/// Pixels that are not the black the host cleared to.
fn drawn(image: &image::RgbaImage) -> usize {
    image.pixels().filter(|p| p.0[..3] != [0, 0, 0]).count()
}

#[test]
fn props_are_depth_tested_against_the_hosts_depth() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let mut renderer = scene::renderer(&gpu, |c| (c.sample_count, c.shadows) = (1, false));
    let open = drawn(&draw_in_host_pass(&gpu, &mut renderer, 1.0, |_| {}));
    assert!(open > 1000, "the car is drawn over a depth cleared to the farthest: {open} pixels");
    let hidden = drawn(&draw_in_host_pass(&gpu, &mut renderer, 0.0, |_| {}));
    assert_eq!(hidden, 0, "a depth cleared to the nearest hides every prop");
}

/// The car has blended draws (its windows) past the fox's only draw: replaced by the fox after
/// `prepare`, the frame's blended draws name draws the fox does not have.
#[test]
fn a_model_replaced_between_prepare_and_render_is_drawn_as_it_is_now() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let fox = scene::load("assets/Fox.glb");
    let car = scene::load("assets/car.glb");
    let blended =
        car.materials().iter().filter(|m| matches!(m.alpha_mode, props_anim::material::AlphaMode::Blend)).count();
    assert!(blended > 0, "the car has glass");
    let mut renderer = scene::renderer(&gpu, |c| (c.sample_count, c.shadows) = (1, false));
    let image = draw_in_host_pass(&gpu, &mut renderer, 1.0, |renderer| {
        renderer.set_model(ModelId(0), &fox).expect("the fox uploads");
    });
    assert!(drawn(&image) > 0, "the fox is drawn in the car's place");
}
