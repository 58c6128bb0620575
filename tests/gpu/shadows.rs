//! Sun shadows: the ground where a box stands between it and the sun goes dark, the ground
//! in the open stays as it was, near and far (every cascade), an alpha-masked box cut out
//! casts none, a walking fox's shadow follows its pose, the ground's hills (a height field) shade
//! what lies past them, a cascade no caster reaches draws no pass and leaves no shadow, and
//! `shadows: false` draws no shadow
//! (a ground point's light checked against the scene's geometry, not against this renderer's
//! own output).

use glam::{Affine3A, Vec3};
use props_frame::{Lighting, ModelId};
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

/// The lit scene of `tests/models/lights` (a ground, a 1 m white box over x -2..-1,
/// z -1.5..-0.5, and a gold box; its lights unused), with the white box's material changed by
/// `edit` (its JSON).
fn box_scene(edit: impl FnOnce(&mut serde_json::Value)) -> props_anim::Model {
    let path = scene::data("models/lights/punctual_lights.gltf");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("the scene")).expect("JSON");
    edit(&mut json["materials"][1]);
    let dir = std::env::temp_dir().join(format!("props-shadows-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let file = dir.join("scene.gltf");
    std::fs::write(&file, json.to_string()).expect("written");
    let model = props_gltf::import_file(&file, &props_gltf::Limits::default()).expect("imports").model;
    let _ = std::fs::remove_dir_all(&dir);
    model
}

/// The box scene at rest (`box_scene`'s palette), seen from about 10 m times `scale`, and the
/// sun behind its boxes (their shadows fall towards the camera; the direction not of unit
/// length) with its light.
fn box_scene_view(
    model: &props_anim::Model,
    scale: f32,
) -> (Vec<props_anim::JointMatrix>, props_frame::Camera, Vec3, Lighting) {
    let palette = scene::palette(model, &scene::pose_at(model, None, 0.0));
    let camera = scene::camera(Vec3::new(0.0, 5.0, 8.5) * scale, Vec3::new(0.0, 0.3, 0.0) * scale);
    let sun = Vec3::new(0.3, 1.0, -0.8);
    let light = Lighting { direction: sun.normalize(), color: Vec3::splat(3.0), ambient: Vec3::splat(0.2), sky: 0.0 };
    (palette, camera, sun, light)
}

/// How bright the ground is, with shadows and without, where the white box stands between it
/// and the sun, and in the open, with the white box's material edited by `edit`; the scene
/// and the camera's place `scale` times as large (1: about 10 m from the eye).
fn ground_behind_the_box(
    gpu: &props_render::GpuContext,
    scale: f32,
    edit: impl FnOnce(&mut serde_json::Value),
) -> [f32; 4] {
    let model = box_scene(edit);
    let (palette, camera, sun, light) = box_scene_view(&model, scale);
    let draw = |shadows: bool| {
        let mut renderer = scene::renderer(gpu, |c| c.shadows = shadows);
        renderer.set_model(ModelId(0), &model).expect("the model uploads");
        let models = vec![(ModelId(0), vec![(Affine3A::from_scale(Vec3::splat(scale)), palette.clone())])];
        scene::render_lit(gpu, &mut renderer, &scene::TestScene { camera, models }, (light, &[]))
    };
    let ((lit, off_stats), (shadowed, on_stats)) = (draw(false), draw(true));
    assert_eq!(off_stats.shadow_draw_calls, 0);
    assert!(on_stats.shadow_draw_calls > 0, "a shadow pass was drawn");

    // From this ground point the way to the sun passes through the white box (at half its
    // height, through its inside); from the other, it is open.
    let in_shadow = Vec3::new(-1.5, 1.0, -1.0) - sun;
    let through = in_shadow + sun * 0.5;
    assert!((-2.0..-1.0).contains(&through.x) && (-1.5..-0.5).contains(&through.z), "{through}");
    let (in_shadow, in_the_open) = (in_shadow * scale, Vec3::new(2.5, 0.0, 2.5) * scale);
    let vp = camera.view_projection;
    [
        luminance_at(&shadowed, vp, in_shadow),
        luminance_at(&lit, vp, in_shadow),
        luminance_at(&shadowed, vp, in_the_open),
        luminance_at(&lit, vp, in_the_open),
    ]
}

#[test]
fn a_box_shades_the_ground_behind_it_from_the_sun() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let [shaded, unshaded, open_on, open_off] = ground_behind_the_box(&gpu, 1.0, |_| {});
    assert!(shaded < 0.6 * unshaded, "the shadowed ground: {shaded} with shadows, {unshaded} without");
    assert!((open_on - open_off).abs() < 0.01, "the open ground: {open_on} with shadows, {open_off} without");
}

/// A cascade no caster reaches this frame draws no pass, not even its clear, and is read as
/// lit: the box casting last frame and not this one (its model no longer casts) leaves no
/// shadow behind in the map it drew into.
#[test]
fn a_cascade_without_casters_draws_no_pass_and_leaves_no_shadow() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let model = box_scene(|_| {});
    let (palette, camera, sun, light) = box_scene_view(&model, 1.0);
    let test_scene = scene::TestScene { camera, models: vec![(ModelId(0), vec![(Affine3A::IDENTITY, palette)])] };
    let in_shadow = Vec3::new(-1.5, 1.0, -1.0) - sun;
    let vp = camera.view_projection;
    let mut renderer = scene::renderer(&gpu, |c| c.pass_timing = true);
    renderer.set_model(ModelId(0), &model).expect("the model uploads");
    let (shadowed, casting) = scene::render_lit(&gpu, &mut renderer, &test_scene, (light, &[]));
    assert!(casting.shadow_passes.iter().any(|pass| pass.triangles > 0), "{casting:?}");
    renderer.set_casts_shadows(ModelId(0), false);
    let (after, none) = scene::render_lit(&gpu, &mut renderer, &test_scene, (light, &[]));
    assert_eq!((none.shadow_draw_calls, none.shadow_passes), (0, Default::default()), "nothing drawn");
    // No pass was begun: none was timed (the times are read back a few frames late).
    if gpu.device.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
        let frames = (0..4).map(|_| scene::render_lit(&gpu, &mut renderer, &test_scene, (light, &[])).1);
        let times = frames.last().and_then(|stats| stats.pass_times).expect("the passes are timed");
        assert!(times.main_ns.is_some(), "{times:?}");
        assert_eq!(times.shadow_ns, [None; 3], "no cascade's pass was begun");
    }
    let mut fresh = scene::renderer(&gpu, |_| {});
    fresh.set_model(ModelId(0), &model).expect("the model uploads");
    fresh.set_casts_shadows(ModelId(0), false);
    let unshadowed = scene::render_lit(&gpu, &mut fresh, &test_scene, (light, &[])).0;
    let [before, after, fresh] = [&shadowed, &after, &unshadowed].map(|image| luminance_at(image, vp, in_shadow));
    assert!(before < 0.6 * fresh, "the box shadowed the ground first: {before} against {fresh}");
    assert!((after - fresh).abs() < 0.01, "then it does not: {after} against a renderer that never drew it, {fresh}");
}

/// Shadows reach past the nearest cascade: the same scene 10 and 50 times as large, seen
/// from 10 and 50 times as far (about 100 m and 500 m: the middle and the farthest cascade),
/// shades the ground behind its box as close up.
#[test]
fn far_props_cast_shadows_too() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    for scale in [10.0, 50.0] {
        let [shaded, unshaded, open_on, open_off] = ground_behind_the_box(&gpu, scale, |_| {});
        assert!(shaded < 0.6 * unshaded, "x{scale}, the shadowed ground: {shaded} with shadows, {unshaded} without");
        assert!((open_on - open_off).abs() < 0.01, "x{scale}, the open ground: {open_on} on, {open_off} off");
    }
}

/// An alpha-masked material casts its shadow only where its mask keeps it: the white box
/// masked at a cutoff its alpha passes shades the ground as the opaque box does; masked at one
/// its alpha fails, it is cut out entirely and casts none.
#[test]
fn a_masked_material_casts_no_shadow_where_it_is_cut_out() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let mask = |alpha: f64| {
        move |material: &mut serde_json::Value| {
            material["alphaMode"] = "MASK".into();
            material["alphaCutoff"] = 0.5.into();
            material["pbrMetallicRoughness"]["baseColorFactor"][3] = alpha.into();
        }
    };
    let [kept_on, kept_off, ..] = ground_behind_the_box(&gpu, 1.0, mask(0.9));
    assert!(kept_on < 0.6 * kept_off, "kept by its mask, the box shades: {kept_on} with shadows, {kept_off} without");
    let [cut_on, cut_off, ..] = ground_behind_the_box(&gpu, 1.0, mask(0.2));
    assert!(
        (cut_on - cut_off).abs() < 0.01,
        "cut out, the box casts no shadow: {cut_on} with shadows, {cut_off} without"
    );
}

/// A walking fox's shadow follows its pose: where the CPU-skinned fox of one moment casts its
/// shadow on the ground (its vertices projected along the sun) and the fox of another moment
/// casts none, the ground is dark in the first frame and lit in the second. The shadow pass
/// skins through the same palettes as the main pass.
#[test]
fn a_skinned_prop_casts_its_posed_shadow() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let ground = scene::load("tests/models/lights/punctual_lights.gltf");
    let fox = scene::load("assets/Fox.glb");
    let walk = fox.find_clip("Walk").expect("the fox walks");
    // The ground four times as large (24 m; its boxes 4 m high, their shadows falling away from
    // the fox); the fox 1.2 m long (its legs a few of the nearest cascade's texels wide) at
    // (8, 0, 12), seen from above; the sun in the +x, so its shadow falls to the -x side of
    // it, in view.
    let mut rest = Vec::new();
    props_anim::skinning::model_positions(&fox, &scene::palette(&fox, &scene::pose_at(&fox, None, 0.0)), &mut rest);
    let (min, max) =
        rest.iter().fold((Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)), |(a, b), p| (a.min(*p), b.max(*p)));
    let length = 1.2;
    let scale = length / (max - min).max_element();
    // Distances on the ground, in proportion to the fox.
    let (spot, clear) = (0.05 * length, 0.12 * length);
    let place = Affine3A::from_scale_rotation_translation(
        Vec3::splat(scale),
        glam::Quat::IDENTITY,
        Vec3::new(8.0, -min.y * scale, 12.0),
    );
    let ground_place = Affine3A::from_scale(Vec3::splat(4.0));
    let sun = Vec3::new(1.0, 1.0, 0.0).normalize();
    let camera =
        scene::camera(Vec3::new(8.0 - length / 2.0, 2.2 * length, 12.01), Vec3::new(8.0 - length / 2.0, 0.0, 12.0));
    let light = Lighting { direction: sun, color: Vec3::splat(3.0), ambient: Vec3::splat(0.2), sky: 0.0 };
    // The fox's shadow on the ground at `time`: its world vertices and their projections.
    let posed = |time: f32| {
        let palette = scene::palette(&fox, &scene::pose_at(&fox, Some(walk), time));
        let mut positions = Vec::new();
        props_anim::skinning::model_positions(&fox, &palette, &mut positions);
        let world: Vec<Vec3> = positions.iter().map(|p| place.transform_point3(*p)).collect();
        let shadow: Vec<Vec3> = world.iter().map(|p| *p - sun * (p.y / sun.y)).collect();
        (palette, world, shadow)
    };
    let duration = fox.clips()[walk].duration();
    let (a, b) = (posed(0.0), posed(duration * 0.5));
    let near = |points: &[Vec3], q: Vec3, within: f32| points.iter().any(|p| (p.x - q.x).hypot(p.z - q.z) < within);
    // A ground point the first pose's shadow covers (the projection of one of its vertices,
    // with many around it) that the second pose's shadow and both foxes seen from above stay
    // clear of.
    let probe =
        a.2.iter()
            .copied()
            .find(|&q| {
                a.2.iter().filter(|p| (p.x - q.x).hypot(p.z - q.z) < spot).count() > 20
                    && !near(&b.2, q, clear)
                    && !near(&a.1, q, clear)
                    && !near(&b.1, q, clear)
            })
            .expect("the two poses' shadows differ somewhere in the open");
    let draw = |palette: &[props_anim::JointMatrix], shadows: bool| {
        let mut renderer = scene::renderer(&gpu, |c| c.shadows = shadows);
        renderer.set_model(ModelId(0), &ground).expect("the ground uploads");
        renderer.set_model(ModelId(1), &fox).expect("the fox uploads");
        let ground_palette = scene::palette(&ground, &scene::pose_at(&ground, None, 0.0));
        let models =
            vec![(ModelId(0), vec![(ground_place, ground_palette)]), (ModelId(1), vec![(place, palette.to_vec())])];
        scene::render_lit(&gpu, &mut renderer, &scene::TestScene { camera, models }, (light, &[])).0
    };
    let vp = camera.view_projection;
    let probe = Vec3::new(probe.x, 0.0, probe.z);
    let light_at = |palette: &[props_anim::JointMatrix]| {
        (luminance_at(&draw(palette, true), vp, probe), luminance_at(&draw(palette, false), vp, probe))
    };
    let ((a_on, a_off), (b_on, b_off)) = (light_at(&a.0), light_at(&b.0));
    assert!(a_on < 0.7 * a_off, "the first pose shades {probe}: {a_on} with shadows, {a_off} without");
    assert!((b_on - b_off).abs() < 0.02, "the second pose leaves {probe} lit: {b_on} with shadows, {b_off} without");
}

/// The ground's hills shadow what lies past them from the sun (`Renderer::set_ground_shadow`):
/// a plateau 3 m high along the scene's far edge (a height field only, not drawn) darkens the
/// ground whose way to the sun passes below its edge, and leaves the ground whose way passes
/// above it as it was; with shadows off, or the field taken away again, it darkens nothing,
/// nor beyond the field's edge.
#[test]
fn the_ground_s_hills_shadow_what_lies_past_them() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let model = box_scene(|_| {});
    let (palette, camera, sun, light) = box_scene_view(&model, 1.0);
    let sun = sun.normalize();
    // Samples every 0.5 m over the scene's 12 m ground; 3 m high where z <= -4.5.
    let (columns, spacing, edge, high) = (25, 0.5, -4.5, 3.0);
    let plateau = |rows: u32| {
        let heights =
            (0..columns * rows).map(|s| if -6.0 + (s / columns) as f32 * spacing <= edge { high } else { 0.0 });
        props_frame::HeightField::new(glam::Vec2::splat(-6.0), spacing, columns, heights.collect()).expect("a grid")
    };
    let field = plateau(25);
    // How high the way to the sun from ground point `p` is over the plateau's edge.
    let over_the_edge = |p: Vec3| (edge - p.z) / sun.z * sun.y;
    let (behind, open) = (Vec3::new(3.5, 0.0, -2.8), Vec3::new(2.5, 0.0, 2.5));
    assert!(over_the_edge(behind) < high - 0.5 && over_the_edge(open) > high + 0.5);
    let draw = |shadows: bool, fields: &[Option<props_frame::HeightField>]| {
        let mut renderer = scene::renderer(&gpu, |c| c.shadows = shadows);
        renderer.set_model(ModelId(0), &model).expect("the model uploads");
        // Only the ground's shadow: the boxes cast none.
        renderer.set_casts_shadows(ModelId(0), false);
        for field in fields {
            renderer.set_ground_shadow(field.clone()).expect("the field fits");
        }
        let models = vec![(ModelId(0), vec![(Affine3A::IDENTITY, palette.clone())])];
        let image = scene::render_lit(&gpu, &mut renderer, &scene::TestScene { camera, models }, (light, &[])).0;
        let vp = camera.view_projection;
        [luminance_at(&image, vp, behind), luminance_at(&image, vp, open)]
    };
    let [behind_on, open_on] = draw(true, &[Some(field.clone())]);
    let [behind_none, open_none] = draw(true, &[]);
    assert!(behind_on < 0.6 * behind_none, "past the edge: {behind_on} with the ground shadow, {behind_none} without");
    assert!(
        (open_on - open_none).abs() < 0.01,
        "the open ground: {open_on} with the ground shadow, {open_none} without"
    );
    // The field's rows up to z = -3.5 alone: both points lie beyond it (its edge row, in the
    // plateau's shadow, does not stretch that shadow over them).
    let cases = [
        ("shadows off", false, vec![Some(field.clone())]),
        ("taken away", true, vec![Some(field), None]),
        ("beyond the field", true, vec![Some(plateau(6))]),
    ];
    for (case, shadows, fields) in cases {
        let [behind, open] = draw(shadows, &fields);
        assert!((behind - behind_none).abs() < 0.01 && (open - open_none).abs() < 0.01, "{case}: {behind}, {open}");
    }
}
