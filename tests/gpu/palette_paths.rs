//! Every way of binding the palette draws the same image: storage buffer, texture fallback,
//! and a storage buffer split into several windows; and every way fits wgpu's default limits.

use glam::Vec3;
use props_render::{PaletteMode, shaders::PaletteAccess};
use props_tests::golden::{Threshold, assert_similar};
use props_tests::scene::{self, TestScene};

/// Identical inputs through different bindings: the images must be the same to the bit,
/// allowing only a hair of slack (lavapipe, Vulkan).
const IDENTICAL: Threshold = Threshold { mean: 1e-4, p99: 1e-3 };

/// Renders a 5 x 5 crowd of foxes at different phases.
pub(crate) fn render_crowd(
    gpu: &props_render::GpuContext,
    renderer: &mut props_render::Renderer,
    model: &props_anim::Model,
) -> (image::RgbaImage, props_render::FrameStats) {
    let handle = props_frame::ModelId(0);
    renderer.set_model(handle, model).expect("the model uploads");
    let clip = model.find_clip("Run");
    let instances = (0..25)
        .map(|i| {
            let pose = scene::pose_at(model, clip, i as f32 * 0.045);
            let position = Vec3::new((i % 5) as f32 * 60.0 - 120.0, 0.0, (i / 5) as f32 * -70.0);
            (scene::at(position), scene::palette(model, &pose))
        })
        .collect();
    let camera = scene::camera(Vec3::new(0.0, 160.0, 260.0), Vec3::new(0.0, 20.0, -120.0));
    scene::render(gpu, renderer, &TestScene { camera, models: vec![(handle, instances)] })
}

#[test]
fn texture_fallback_draws_what_the_storage_buffer_draws() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let fox = scene::load("tests/models/Fox.glb");
    let mut storage = scene::renderer(&gpu, |c| c.palette = PaletteMode::Force(PaletteAccess::StorageBuffer));
    let mut texture = scene::renderer(&gpu, |c| c.palette = PaletteMode::Force(PaletteAccess::Texture));
    assert_eq!(texture.palette_access(), PaletteAccess::Texture);
    let (expected, _) = render_crowd(&gpu, &mut storage, &fox);
    let (actual, stats) = render_crowd(&gpu, &mut texture, &fox);
    assert_eq!(stats.instances, 25);
    assert_similar("texture-fallback", &actual, &expected, IDENTICAL);
}

#[test]
fn palettes_beyond_one_binding_are_split_into_windows() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let fox = scene::load("tests/models/Fox.glb");
    let mut whole = scene::renderer(&gpu, |_| {});
    // Room for 3 foxes (25 matrices each) per binding: 25 instances need 9 windows.
    let mut split = scene::renderer(&gpu, |c| c.max_palette_binding_bytes = Some(80 * 48));
    let (expected, one) = render_crowd(&gpu, &mut whole, &fox);
    let (actual, many) = render_crowd(&gpu, &mut split, &fox);
    assert_eq!(one.palette_windows, 1);
    assert!(many.palette_windows > 1, "{many:?}");
    assert_eq!((many.instances, many.skipped_instances), (25, 0));
    assert_similar("split-windows", &actual, &expected, IDENTICAL);
}

/// The texture slots every device binds, the first eleven, bind within wgpu's default limits
/// (16 sampled textures and 16 samplers in a stage): the brushed spheres, whose materials use the
/// eleventh, draw on a device of those limits, with palettes in a storage buffer and in a texture
/// (one texture more in the fragment stage: all 16), as on the adapter's own limits. The seven
/// past them (the layers' textures) are drawn on the adapter's limits; on the default ones, the
/// twelfth (the coat's factor) beside a palette in a storage buffer, which leaves room for it,
/// and none beside a palette texture: the layer spheres draw there as they draw without the
/// textures left out.
#[test]
fn texture_slots_bind_within_the_device_s_limits() {
    let Some(mut gpu) = props_tests::gpu::context() else { return };
    let brushed = scene::load("tests/models/anisotropy/anisotropy.gltf");
    let layers = scene::load("tests/models/layer_textures/layer_textures.gltf");
    // The same file without those textures, but `keep`.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/layer_textures/layer_textures.gltf");
    let stripped = |keep: &str| {
        let mut json: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).expect("the file")).expect("JSON");
        for material in json["materials"].as_array_mut().expect("materials") {
            for (_, extension) in material["extensions"].as_object_mut().expect("extensions").iter_mut() {
                let extension = extension.as_object_mut().expect("an extension");
                extension.retain(|field, _| !field.ends_with("Texture") || field == keep);
            }
        }
        let bytes = serde_json::to_vec(&json).expect("JSON");
        props_gltf::import_slice(&bytes, path.parent(), &path, &props_gltf::Limits::default())
            .unwrap_or_else(|e| panic!("{e}"))
            .model
    };
    let (bare, coat) = (stripped(""), stripped("clearcoatTexture"));
    assert!(bare.materials().iter().all(|m| m.texture_slots()[11..].iter().all(Option::is_none)));
    assert!(coat.materials().iter().all(|m| m.texture_slots()[12..].iter().all(Option::is_none)));
    assert!(coat.materials().iter().any(|m| m.texture_slots()[11].is_some()));
    let draw = |gpu: &props_render::GpuContext, model: &props_anim::Model, access| {
        let mut renderer = scene::renderer(gpu, |c| c.palette = PaletteMode::Force(access));
        renderer.set_model(props_frame::ModelId(0), model).expect("the model uploads");
        let pose = scene::pose_at(model, None, 0.0);
        let instances = vec![(scene::at(Vec3::ZERO), scene::palette(model, &pose))];
        let camera = scene::framing_camera(model);
        scene::render(gpu, &mut renderer, &TestScene { camera, models: vec![(props_frame::ModelId(0), instances)] }).0
    };
    let expected = draw(&gpu, &brushed, PaletteAccess::StorageBuffer);
    let (layered, unlayered) =
        (draw(&gpu, &layers, PaletteAccess::StorageBuffer), draw(&gpu, &bare, PaletteAccess::StorageBuffer));
    let apart = |(a, b): &(&image::Rgba<u8>, &image::Rgba<u8>)| a.0.iter().zip(b.0).any(|(x, y)| x.abs_diff(y) > 8);
    let differing = layered.pixels().zip(unlayered.pixels()).filter(apart).count();
    assert!(differing > 1000, "the adapter's limits draw the layers' textures: {differing} pixels differ");
    // The default handler panics on any validation error: a layout past the limits fails here.
    let descriptor = wgpu::DeviceDescriptor { required_limits: wgpu::Limits::default(), ..Default::default() };
    (gpu.device, gpu.queue) = pollster::block_on(gpu.adapter.request_device(&descriptor)).expect("a default device");
    assert_eq!(gpu.device.limits().max_sampled_textures_per_shader_stage, 16);
    for access in [PaletteAccess::StorageBuffer, PaletteAccess::Texture] {
        assert_similar(&format!("default-limits-{access:?}"), &draw(&gpu, &brushed, access), &expected, IDENTICAL);
        // (Against spheres drawn on this device, which has no dual-source blending to tint glass.)
        let bound = if access == PaletteAccess::StorageBuffer { &coat } else { &bare };
        let (without, bare_here) = (draw(&gpu, &layers, access), draw(&gpu, bound, access));
        // The layered spheres keep the file's tangents for the coat's normal map, which round
        // a few pixels of the coated spheres by one step of 255 (79 of 65,536 on lavapipe).
        let one_step = Threshold { mean: 1e-3, p99: 0.02 };
        assert_similar(&format!("default-limits-layers-{access:?}"), &without, &bare_here, one_step);
    }
}
