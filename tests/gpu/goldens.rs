//! Golden images of the demo's props, rendered offscreen at 256x256.
//!
//! Threshold: the goldens were rendered on lavapipe (llvmpipe 15, Vulkan, 4x MSAA), which CI
//! also uses, and which reproduces them to the bit. The slack absorbs other rasterizers:
//! llvmpipe through GL measured mean FLIP <= 0.0027 and p99 <= 0.087 against them. For scale,
//! the Fox 0.05 s later in its walk measures mean 0.069, p99 0.97. A real GPU's MSAA pattern
//! differs more: compare there by eye. Regenerate with
//! `PROPS_BLESS=1 cargo test -p props-tests --test gpu goldens`.

use glam::{Quat, Vec3};
use props_frame::{DebugLine, ModelId};
use props_tests::golden::{Threshold, check_golden};
use props_tests::scene::{self, TestScene};

const GOLDEN: Threshold = Threshold { mean: 0.01, p99: 0.2 };

#[test]
fn one_windmill() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let windmill = scene::load("assets/windmill.glb");
    let mut renderer = scene::renderer(&gpu, |_| {});
    renderer.set_model(ModelId(0), &windmill).expect("the model uploads");
    let pose = scene::pose_at(&windmill, windmill.find_clip("spin"), 0.3);
    let instances = vec![(scene::at(Vec3::ZERO), scene::palette(&windmill, &pose))];
    let camera = scene::camera(Vec3::new(14.0, 12.0, 30.0), Vec3::new(0.0, 11.0, 0.0));
    let (image, stats) =
        scene::render(&gpu, &mut renderer, &TestScene { camera, models: vec![(ModelId(0), instances)] });
    assert_eq!(stats.instances, 1);
    // Its faceted parts are drawn flat over shared vertices (`facets.rs`): with each blade's
    // copies, 104 vertices for 168 triangles, where there were 312.
    assert_eq!((stats.main_pass.triangles, stats.main_pass.vertices), (168, 104), "{stats:?}");
    check_golden("windmill", &image, GOLDEN);
}

#[test]
fn a_thousand_windmills_at_different_phases() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let windmill = scene::load("assets/windmill.glb");
    let spin = windmill.find_clip("spin").expect("windmill has a spin clip");
    let duration = windmill.clips()[spin].duration();
    let mut renderer = scene::renderer(&gpu, |_| {});
    renderer.set_model(ModelId(0), &windmill).expect("the model uploads");
    let instances = (0..1000)
        .map(|i| {
            let (x, z) = ((i % 40) as f32 * 30.0 - 585.0, (i / 40) as f32 * -30.0);
            let phase = duration * (i as f32 * 0.618_034).fract();
            let pose = scene::pose_at(&windmill, Some(spin), phase);
            let transform = glam::Affine3A::from_rotation_translation(Quat::from_rotation_y(0.3), Vec3::new(x, 0.0, z));
            (transform, scene::palette(&windmill, &pose))
        })
        .collect();
    let camera = scene::camera(Vec3::new(0.0, 110.0, 120.0), Vec3::new(0.0, 0.0, -220.0));
    let (image, stats) =
        scene::render(&gpu, &mut renderer, &TestScene { camera, models: vec![(ModelId(0), instances)] });
    assert_eq!(stats.instances, 1000);
    // One draw however many windmills: its ten parts differ only in their base colour, so
    // they are drawn as one (`draw_merge.rs`).
    assert_eq!(stats.draw_calls, 1);
    check_golden("windmills-1000", &image, GOLDEN);
}

#[test]
fn fox_walking_with_its_skeleton() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let fox = scene::load("assets/Fox.glb");
    let mut renderer = scene::renderer(&gpu, |_| {});
    renderer.set_model(ModelId(0), &fox).expect("the model uploads");
    let pose = scene::pose_at(&fox, fox.find_clip("Walk"), 0.4);
    let transform = scene::at(Vec3::ZERO);
    let mut lines: Vec<DebugLine> = props_render::world_axes(40.0).to_vec();
    props_render::skeleton_lines(fox.rig(), &pose, &transform, [1.0, 1.0, 0.2, 1.0], &mut lines);
    let instances = vec![(transform, scene::palette(&fox, &pose))];
    let camera = scene::camera(Vec3::new(110.0, 70.0, 150.0), Vec3::new(0.0, 30.0, 0.0));
    let scene = TestScene { camera, models: vec![(ModelId(0), instances)] };
    let (image, stats) = scene::render_with_lines(&gpu, &mut renderer, &scene, &lines);
    assert_eq!(stats.draw_calls, 2, "one skinned draw, one for the lines");
    check_golden("fox-walk-skeleton", &image, GOLDEN);
}
