//! Sun shadows: the ground where a box stands between it and the sun goes dark, the ground
//! in the open stays as it was, and `shadows: false` draws no shadow (a ground point's
//! light checked against the scene's geometry, not against this renderer's own output).

use glam::{Affine3A, Vec3};
use props_render::{Frame, InstanceData, Light, ModelBatch, ModelId, SKY};
use props_tests::scene::{self, IMAGE_SIZE};

/// Mean luminance (0..1) of the 5x5 pixels around world point `p` in `image`, seen by
/// `view_projection`.
fn luminance_at(image: &image::RgbaImage, view_projection: glam::Mat4, p: Vec3) -> f32 {
    let ndc = view_projection.project_point3(p);
    let (x, y) =
        (((ndc.x * 0.5 + 0.5) * IMAGE_SIZE.0 as f32) as i32, ((0.5 - ndc.y * 0.5) * IMAGE_SIZE.1 as f32) as i32);
    let mut sum = 0.0;
    for dy in -2..=2 {
        for dx in -2..=2 {
            let [r, g, b, _] = image.get_pixel((x + dx) as u32, (y + dy) as u32).0;
            sum += (0.2126 * f32::from(r) + 0.7152 * f32::from(g) + 0.0722 * f32::from(b)) / 255.0;
        }
    }
    sum / 25.0
}

#[test]
fn a_box_shades_the_ground_behind_it_from_the_sun() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    // A ground, a 1 m white box over x -2..-1, z -1.5..-0.5, and a gold box (its lights unused).
    let model = scene::load("tests/models/lights/punctual_lights.gltf");
    let palette = scene::palette(&model, &scene::pose_at(&model, None, 0.0));
    let camera = scene::camera(Vec3::new(0.0, 5.0, 8.5), Vec3::new(0.0, 0.3, 0.0));
    // The sun behind the boxes: their shadows fall towards the camera.
    let sun = Vec3::new(0.3, 1.0, -0.8);
    let light = Light { direction: sun.normalize(), color: Vec3::splat(3.0), ambient: Vec3::splat(0.2), sky: 0.0 };
    let draw = |shadows: bool| {
        let mut renderer = scene::renderer(&gpu, |c| c.shadows = shadows);
        renderer.set_model(ModelId(0), &model).expect("the model uploads");
        let frame = Frame {
            camera,
            light,
            clear_color: SKY,
            palettes: &palette,
            instances: &[InstanceData::new(&Affine3A::IDENTITY, 0)],
            batches: &[ModelBatch { model: ModelId(0), instances: 0..1 }],
            lines: &[],
            lights: &[],
        };
        scene::render_frame(&gpu, &mut renderer, &frame)
    };
    let ((lit, off_stats), (shadowed, on_stats)) = (draw(false), draw(true));
    assert_eq!(off_stats.shadow_draw_calls, 0);
    assert!(on_stats.shadow_draw_calls > 0, "a shadow pass was drawn");

    // From this ground point the way to the sun passes through the white box (at half its
    // height, through its inside); from the other, it is open.
    let in_shadow = Vec3::new(-1.5, 1.0, -1.0) - sun;
    let through = in_shadow + sun * 0.5;
    assert!((-2.0..-1.0).contains(&through.x) && (-1.5..-0.5).contains(&through.z), "{through}");
    let in_the_open = Vec3::new(2.5, 0.0, 2.5);
    let vp = camera.view_projection;
    let (shaded, unshaded) = (luminance_at(&shadowed, vp, in_shadow), luminance_at(&lit, vp, in_shadow));
    assert!(shaded < 0.6 * unshaded, "the shadowed ground: {shaded} with shadows, {unshaded} without");
    let (open_on, open_off) = (luminance_at(&shadowed, vp, in_the_open), luminance_at(&lit, vp, in_the_open));
    assert!((open_on - open_off).abs() < 0.01, "the open ground: {open_on} with shadows, {open_off} without");
}
