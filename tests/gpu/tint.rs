//! Per-instance tint: cars in different paints are one draw per primitive; each instance's
//! tint replaces the base colour of the materials named `paint` only, and an untinted
//! instance keeps the model's own paint.

use glam::{Affine3A, Vec3};
use props_frame::{Frame, InstanceData, Lighting, ModelBatch, ModelId, NO_TINT, SKY};
use props_tests::scene::{self, IMAGE_SIZE};

#[test]
fn tints_paint_only_paint_materials_in_one_draw() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let car = scene::load("assets/car.glb");
    let mut renderer = scene::renderer(&gpu, |_| {});
    renderer.set_model(ModelId(0), &car).expect("the car uploads");
    let palette = scene::palette(&car, &scene::pose_at(&car, None, 0.0));
    // Three cars side by side, seen from above: red, untinted (the asset's blue), green.
    let xs = [-2.5f32, 0.0, 2.5];
    let tints = [[200, 20, 20, 255], NO_TINT, [20, 200, 20, 255]];
    let palettes: Vec<_> = xs.iter().flat_map(|_| palette.iter().copied()).collect();
    let instances: Vec<InstanceData> = xs
        .iter()
        .zip(tints)
        .enumerate()
        .map(|(i, (x, tint))| {
            let at = Affine3A::from_translation(Vec3::new(*x, 0.0, 0.0));
            InstanceData::new(&at, (i * palette.len()) as u32).with_tint(tint)
        })
        .collect();
    let batches =
        [ModelBatch { model: ModelId(0), instances: 0..3, level: 0, material_variant: None, mirrored: false }];
    let camera = scene::camera(Vec3::new(0.0, 9.0, 0.5), Vec3::ZERO);
    let frame = Frame {
        camera,
        lighting: Lighting::default(),
        clear_color: SKY,
        palettes: &palettes,
        instances: &instances,
        batches: &batches,
        lines: &[],
        lights: &[],
    };
    let (image, stats) = scene::render_frame(&gpu, &mut renderer, &frame);
    let one = Frame {
        instances: &instances[1..2],
        batches: &[ModelBatch {
            model: ModelId(0),
            instances: 0..1,
            level: 0,
            material_variant: None,
            mirrored: false,
        }],
        ..frame
    };
    let (_, one_car) = scene::render_frame(&gpu, &mut renderer, &one);
    assert_eq!(stats.draw_calls, one_car.draw_calls, "tints cost no draw call");
    // The roof (paint) of each car, seen from above.
    let roof = |x: f32| {
        let clip = camera.view_projection * Vec3::new(x, 1.5, 0.3).extend(1.0);
        let ndc = clip.truncate() / clip.w;
        let px = ((ndc.x + 1.0) / 2.0 * IMAGE_SIZE.0 as f32) as u32;
        let py = ((1.0 - ndc.y) / 2.0 * IMAGE_SIZE.1 as f32) as u32;
        image.get_pixel(px, py).0
    };
    let [red, own, green] = xs.map(roof);
    assert!(red[0] > 2 * red[1].max(red[2]).max(10), "red car's roof: {red:?}");
    assert!(green[1] > 2 * green[0].max(green[2]).max(10), "green car's roof: {green:?}");
    assert!(own[2] > 2 * own[0].max(10) && own[2] > own[1], "the untinted car keeps its blue paint: {own:?}");
}
