//! Levels of detail on the GPU: a batch is drawn at its level (its primitives' coarser index
//! lists, over the same vertices, posed alike; a part a level leaves out is not drawn; the
//! impostor, its emission animated as its source's, painted by an instance's tint as its
//! source is), what each pass submits is counted, and a prop beyond the shadows' reach casts
//! into no cascade.

use glam::Vec3;
use props_frame::{Frame, InstanceData, Lighting, ModelBatch, ModelId, NO_TINT, SKY};
use props_tests::scene;

/// The windmill at level `level`, `instances` of it in a row, from the framing camera.
fn draw_at(
    gpu: &props_render::GpuContext,
    renderer: &mut props_render::Renderer,
    (model, level, spacing): (&props_anim::Model, u8, f32),
) -> (image::RgbaImage, props_render::FrameStats) {
    draw_posed(gpu, renderer, (model, level, spacing), &scene::pose_at(model, None, 0.0))
}

/// [`draw_at`] in `pose`.
fn draw_posed(
    gpu: &props_render::GpuContext,
    renderer: &mut props_render::Renderer,
    (model, level, spacing): (&props_anim::Model, u8, f32),
    pose: &props_anim::Pose,
) -> (image::RgbaImage, props_render::FrameStats) {
    draw_tinted(gpu, renderer, (model, level, spacing), pose, NO_TINT)
}

/// [`draw_posed`] with the instance painted `tint`.
fn draw_tinted(
    gpu: &props_render::GpuContext,
    renderer: &mut props_render::Renderer,
    (model, level, spacing): (&props_anim::Model, u8, f32),
    pose: &props_anim::Pose,
    tint: [u8; 4],
) -> (image::RgbaImage, props_render::FrameStats) {
    let palette = scene::palette(model, pose);
    let instances = [InstanceData::new(&scene::at(Vec3::new(spacing, 0.0, 0.0)), 0).with_tint(tint)];
    let batches = [ModelBatch { model: ModelId(0), instances: 0..1, level, material_variant: None, mirrored: false }];
    let frame = Frame {
        camera: scene::framing_camera(model),
        lighting: Lighting::default(),
        clear_color: SKY,
        palettes: &palette,
        instances: &instances,
        batches: &batches,
        lines: &[],
        lights: &[],
    };
    scene::render_frame(gpu, renderer, &frame)
}

/// What `check-assets` counts without a device (`Renderer::draws_per_level`) is what drawing a
/// batch at each level takes: the town's models of merged parts, several materials, a skin,
/// parts a level leaves out, and their impostors.
#[test]
fn the_draws_counted_without_a_device_are_those_a_batch_makes() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    for name in ["windmill", "bus", "building", "Fox", "traffic_light", "car"] {
        let model = scene::load(&format!("assets/{name}.glb"));
        let mut renderer = scene::renderer(&gpu, |c| c.shadows = false);
        renderer.set_model(ModelId(0), &model).expect("uploads");
        let counted = props_render::Renderer::draws_per_level(&model);
        let drawn: Vec<usize> = (0..model.lod_errors().len())
            .map(|level| draw_at(&gpu, &mut renderer, (&model, level as u8, 0.0)).1.draw_calls as usize)
            .collect();
        assert_eq!(counted, drawn, "{name}");
    }
}

/// Pixels that are not the sky.
fn covered(image: &image::RgbaImage) -> usize {
    let sky = image.get_pixel(0, 0).0;
    image.pixels().filter(|p| p.0 != sky).count()
}

#[test]
fn a_batch_is_drawn_at_its_level() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let windmill = scene::load("assets/windmill.glb");
    let levels = windmill.lod_errors().len();
    assert!(levels >= 4, "the windmill has levels of detail: {:?}", windmill.lod_errors());
    let mut renderer = scene::renderer(&gpu, |c| c.shadows = false);
    renderer.set_model(ModelId(0), &windmill).expect("uploads");
    let (full, full_stats) = draw_at(&gpu, &mut renderer, (&windmill, 0, 0.0));
    let coarsest = (levels - 1) as u8;
    let (coarse, coarse_stats) = draw_at(&gpu, &mut renderer, (&windmill, coarsest, 0.0));
    assert_eq!(full_stats.main_pass.triangles as usize, windmill.lod_triangles(0));
    assert_eq!(coarse_stats.main_pass.triangles as usize, windmill.lod_triangles(levels - 1));
    assert!(coarse_stats.main_pass.triangles * 4 < full_stats.main_pass.triangles, "{coarse_stats:?}");
    assert!(coarse_stats.main_pass.vertices < full_stats.main_pass.vertices);
    // Its parts are one draw at every level (`draw_merge.rs`).
    assert_eq!((full_stats.draw_calls, coarse_stats.draw_calls), (1, 1));
    // Seen close up, the first coarser level is the same windmill: about the same pixels.
    // The coarsest (for a windmill a few pixels tall) is a crude sketch of it.
    let (first, _) = draw_at(&gpu, &mut renderer, (&windmill, 1, 0.0));
    // The coarsest (for a windmill a few pixels tall) is its impostor: a box of its coverage
    // along each axis, so about its pixels from any side.
    let (a, b, c) = (covered(&full), covered(&first), covered(&coarse));
    assert!(b.abs_diff(a) * 10 < a, "{a} pixels in full, {b} at level 1");
    assert_eq!(windmill.impostor_level(), Some(levels - 1));
    assert!(c * 2 > a && c < a * 2, "{a} pixels in full, {c} at the coarsest level");
    if std::env::var_os("LOD_IMAGES").is_some() {
        for (name, image) in [("full", &full), ("first", &first), ("coarse", &coarse)] {
            image.save(std::env::temp_dir().join(format!("windmill_{name}.png"))).expect("saved");
        }
    }
    let (past, past_stats) = draw_at(&gpu, &mut renderer, (&windmill, 200, 0.0));
    assert_ne!(full, coarse);
    assert_eq!((past, past_stats.main_pass), (coarse, coarse_stats.main_pass), "past the last level, the last");
}

#[test]
fn shadow_casters_are_counted_per_cascade_and_far_props_cast_none() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let windmill = scene::load("assets/windmill.glb");
    let mut renderer = scene::renderer(&gpu, |_| {});
    renderer.set_model(ModelId(0), &windmill).expect("uploads");
    let (_, near) = draw_at(&gpu, &mut renderer, (&windmill, 0, 0.0));
    let triangles = windmill.lod_triangles(0) as u64;
    assert_eq!(near.main_pass.triangles, triangles);
    assert!(near.shadow_passes.iter().any(|pass| pass.triangles > 0), "{near:?}");
    assert!(near.shadow_passes.iter().all(|pass| pass.triangles <= triangles));
    assert_eq!(
        near.all_passes().triangles,
        near.main_pass.triangles + near.shadow_passes.iter().map(|p| p.triangles).sum::<u64>()
    );
    // Five kilometres to the side: outside every map.
    let (_, far) = draw_at(&gpu, &mut renderer, (&windmill, 0, 5000.0));
    assert!(far.shadow_passes.iter().all(|pass| pass.triangles == 0), "{far:?}");
    assert_eq!(far.shadow_draw_calls, 0);
}

/// The house's impostor lights up with its windows: its emission follows the clip that lights
/// them, as the full house's does.
#[test]
fn an_impostor_s_emission_follows_its_source_s_clip() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let house = scene::load("assets/building.glb");
    let at = house.impostor_level().expect("the house has an impostor") as u8;
    let night = house.find_clip("night").expect("the house's night clip");
    let mut renderer = scene::renderer(&gpu, |c| c.shadows = false);
    renderer.set_model(ModelId(0), &house).expect("uploads");
    let brightness = |image: &image::RgbaImage| image.pixels().map(|p| u64::from(p[0]) + u64::from(p[1])).sum::<u64>();
    // The clip turns the windows on over its one second.
    let lit = scene::pose_at(&house, Some(night), 1.0);
    let dark = scene::pose_at(&house, None, 0.0);
    let [full_dark, full_lit, box_dark, box_lit] = [(0, &dark), (0, &lit), (at, &dark), (at, &lit)]
        .map(|(level, pose)| brightness(&draw_posed(&gpu, &mut renderer, (&house, level, 0.0), pose).0));
    assert!(full_lit > full_dark, "the windows light the house: {full_lit} against {full_dark}");
    assert!(box_lit > box_dark, "and its impostor: {box_lit} against {box_dark}");
}

/// A tinted house's impostor is tinted as the house is: its walls are paint, and the box moves
/// each face's colour by its share of paint towards the tint, so a street of painted houses
/// keeps its colours at a few pixels.
#[test]
fn an_impostor_is_painted_as_its_source() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let house = scene::load("assets/building.glb");
    let at = house.impostor_level().expect("the house has an impostor") as u8;
    let mut renderer = scene::renderer(&gpu, |c| c.shadows = false);
    renderer.set_model(ModelId(0), &house).expect("uploads");
    let rest = scene::pose_at(&house, None, 0.0);
    // The mean colour of what the house covers, 0-255 a channel.
    let mean = |image: &image::RgbaImage| {
        let sky = image.get_pixel(0, 0).0;
        let covered: Vec<_> =
            image.pixels().filter(|p| p.0 != sky).map(|p| Vec3::new(p[0].into(), p[1].into(), p[2].into())).collect();
        covered.iter().sum::<Vec3>() / covered.len().max(1) as f32
    };
    let green = [30, 190, 60, 255];
    let [full, full_green, plain, painted] = [(0, NO_TINT), (0, green), (at, NO_TINT), (at, green)]
        .map(|(level, tint)| mean(&draw_tinted(&gpu, &mut renderer, (&house, level, 0.0), &rest, tint).0));
    let (full_shift, box_shift) = (full_green - full, painted - plain);
    assert!(full_shift.length() > 20.0, "the tint paints the house's walls: {full_shift}");
    assert!(
        (box_shift - full_shift).length() < 0.5 * full_shift.length(),
        "and its impostor, as much: {box_shift} against {full_shift}"
    );
}
