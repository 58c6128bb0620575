//! GPU skinning equals CPU skinning: the same pose, skinned by the vertex shader, and skinned
//! on the CPU by the animation core then drawn as a static mesh, give the same image.

use props_render::{GpuContext, PaletteMode, shaders::PaletteAccess};
use props_tests::golden::{Threshold, assert_similar};
use props_tests::scene::{self, TestScene};

/// Same adapter, same pose: only float rounding differs, flipping a few edge pixels. Measured
/// on llvmpipe 15: Vulkan mean <= 2.6e-5, p99 <= 0.039; GL mean <= 9e-5, p99 <= 0.064.
const SAME_POSE: Threshold = Threshold { mean: 0.001, p99: 0.1 };

pub(crate) fn gpu_equals_cpu(gpu: &GpuContext, name: &str, path: &str, clip: &str, time: f32) {
    gpu_equals_cpu_through(gpu, PaletteMode::Auto, name, path, clip, time);
}

/// [`gpu_equals_cpu`] with the palette (and the influences past the 8th) bound as `palette`.
pub(crate) fn gpu_equals_cpu_through(
    gpu: &GpuContext,
    palette: PaletteMode,
    name: &str,
    path: &str,
    clip: &str,
    time: f32,
) {
    let model = scene::load(path);
    let clip = model.find_clip(clip).or((!model.clips().is_empty()).then_some(0));
    let pose = scene::pose_at(&model, clip, time);
    let reference = scene::cpu_skinned(&model, &pose);
    let mut renderer = scene::renderer(gpu, |c| c.palette = palette);
    let camera = scene::framing_camera(&reference);
    let skinned = props_frame::ModelId(0);
    renderer.set_model(skinned, &model).expect("the model uploads");
    let static_mesh = props_frame::ModelId(1);
    renderer.set_model(static_mesh, &reference).expect("the model uploads");
    let origin = scene::at(glam::Vec3::ZERO);
    let gpu_scene = TestScene { camera, models: vec![(skinned, vec![(origin, scene::palette(&model, &pose))])] };
    let cpu_palette = scene::palette(&reference, &scene::pose_at(&reference, None, 0.0));
    let cpu_scene = TestScene { camera, models: vec![(static_mesh, vec![(origin, cpu_palette)])] };
    let (gpu_image, stats) = scene::render(gpu, &mut renderer, &gpu_scene);
    let (cpu_image, _) = scene::render(gpu, &mut renderer, &cpu_scene);
    assert!(stats.draw_calls >= 1 && stats.instances == 1, "{stats:?}");
    let covered = gpu_image.pixels().filter(|p| p.0 != cpu_image.get_pixel(0, 0).0).count();
    assert!(covered > 500, "{name}: the model covers only {covered} pixels; the camera misses it");
    assert_similar(name, &gpu_image, &cpu_image, SAME_POSE);
}

#[test]
fn fox_walking() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    gpu_equals_cpu(&gpu, "fox-walk", "tests/models/Fox.glb", "Walk", 0.3);
}

#[test]
fn eight_influences() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let path = "tests/models/generated/eight_influences_u8_float.gltf";
    gpu_equals_cpu(&gpu, "eight-influences", path, "", 0.75);
}

/// 24 influences per vertex: 8 inline, 16 read by offset and count from the model's list.
const TWENTY_FOUR: &str = "tests/models/generated/twenty_four_influences_u8_unorm8.gltf";

#[test]
fn twenty_four_influences() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    gpu_equals_cpu(&gpu, "twenty-four-influences", TWENTY_FOUR, "", 0.75);
}

#[test]
fn twenty_four_influences_through_textures() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let textures = PaletteMode::Force(PaletteAccess::Texture);
    gpu_equals_cpu_through(&gpu, textures, "twenty-four-influences-texture", TWENTY_FOUR, "", 0.75);
}

#[test]
fn twelve_influences() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let path = "tests/models/generated/twelve_influences_u8_float.gltf";
    gpu_equals_cpu(&gpu, "twelve-influences", path, "", 1.5);
}

#[test]
fn more_than_256_joints() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    gpu_equals_cpu(&gpu, "many-joints", "tests/models/generated/many_joints.glb", "", 1.0);
}

#[test]
fn blender_export_with_sixteen_to_twenty_four_influences() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let path = "tests/models/blender/blender_many_influences.glb";
    gpu_equals_cpu(&gpu, "blender-many-influences", path, "", 1.0);
}
