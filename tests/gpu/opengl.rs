//! wgpu's OpenGL backend, which WebGL2 and older Android take (Mesa's llvmpipe through EGL
//! here). It numbers a pipeline's textures in one table of 16 and its samplers in another,
//! whatever their stage and group, where Vulkan counts a stage's alone: with the palette and the
//! vertex tables in textures (WebGL2 has no storage buffers), a material's slots beside them
//! bind within the table, build their pipelines and draw as the CPU does, and the three.js
//! references draw within their thresholds.

use props_render::shaders::PaletteAccess;
use props_render::{PaletteMode, Renderer};
use props_tests::golden::{Threshold, assert_similar};
use props_tests::scene::{self, TestScene};

use crate::references::references_match;
use crate::skinning::gpu_equals_cpu_through;

/// The palette, the influences past the 8th and a sparse morph target's deltas, each in a
/// texture, skin and morph on OpenGL as on the CPU. wgpu panicked building these pipelines
/// while a material's eleven slots were bound beside them (eighteen textures in its table).
#[test]
fn opengl_poses_through_textures() {
    let Some(gl) = props_tests::gpu::opengl_context() else { return };
    let textures = PaletteMode::Force(PaletteAccess::Texture);
    let (influences, sparse) =
        ("tests/models/generated/twenty_four_influences_u8_unorm8.gltf", "tests/models/generated/sparse.gltf");
    gpu_equals_cpu_through(&gl, textures, "gl-twenty-four-influences-texture", influences, "", 0.75);
    gpu_equals_cpu_through(&gl, textures, "gl-morph-sparse-texture", sparse, "", 0.75);
}

/// Textured, normal-mapped materials draw the same with the palette in a texture as in a
/// storage buffer on OpenGL: each slot's texture and sampler is bound where the shader reads.
#[test]
fn opengl_binds_material_textures_beside_palette_textures() {
    let Some(gl) = props_tests::gpu::opengl_context() else { return };
    let model = scene::load("tests/models/materials/normal_map_tangents.glb");
    let draw = |renderer: &mut Renderer| {
        renderer.set_model(props_frame::ModelId(0), &model).expect("the model uploads");
        let instances = vec![(scene::at(glam::Vec3::ZERO), scene::palette(&model, &scene::pose_at(&model, None, 0.0)))];
        let camera = scene::framing_camera(&model);
        scene::render(&gl, renderer, &TestScene { camera, models: vec![(props_frame::ModelId(0), instances)] }).0
    };
    let access = |access| scene::renderer(&gl, |c| c.palette = PaletteMode::Force(access));
    let (mut storage, mut textures) = (access(PaletteAccess::StorageBuffer), access(PaletteAccess::Texture));
    assert_eq!(textures.palette_access(), PaletteAccess::Texture);
    let (expected, actual) = (draw(&mut storage), draw(&mut textures));
    let background = expected.get_pixel(0, 0).0;
    let covered = expected.pixels().filter(|p| p.0 != background).count();
    assert!(covered > 5000, "the model covers only {covered} pixels");
    assert_similar("gl-textured-palette-texture", &actual, &expected, Threshold { mean: 1e-4, p99: 1e-3 });
}

/// A model uploaded on another thread (a mod's, a streamed one) draws on OpenGL as one set on
/// the drawing thread: wgpu's GL backend takes its context on whichever thread calls it.
#[test]
fn opengl_draws_a_model_uploaded_on_another_thread() {
    let Some(gl) = props_tests::gpu::opengl_context() else { return };
    crate::uploads::uploaded_on_a_thread_draws_as_set_here(&gl);
}

/// Every three.js reference draws on OpenGL as on Vulkan, but the layers' spheres: their
/// textures fill the seven slots past the eleventh, and OpenGL's 16 textures leave twelve.
#[test]
fn opengl_renders_match_three_js() {
    let Some(gl) = props_tests::gpu::opengl_context() else { return };
    references_match(&gl, &["materials_layer_textures"]);
}

/// WebGL2's least limits (`wgpu::Limits::downlevel_webgl2_defaults`: no storage buffers,
/// 16 KiB uniforms, 8 vertex buffers of 16 attributes in all, textures of 2048 texels a side)
/// on the OpenGL backend, with none of the optional features: the fox crowd, skinned through
/// palette textures, draws as on the adapter's own limits. The renderer's data textures (the
/// palette's, the light clusters') were 3072 and 4096 texels wide, and it chose storage buffers
/// by the adapter's limits, not the device's: wgpu refused both.
#[test]
fn webgl2_limits_draw_the_fox_crowd() {
    let Some(mut gl) = props_tests::gpu::opengl_context() else { return };
    let fox = scene::load("tests/models/Fox.glb");
    let expected = crate::palette_paths::render_crowd(&gl, &mut scene::renderer(&gl, |_| {}), &fox).0;
    let required_limits = wgpu::Limits::downlevel_webgl2_defaults();
    let descriptor = wgpu::DeviceDescriptor { required_limits, ..Default::default() };
    (gl.device, gl.queue) = pollster::block_on(gl.adapter.request_device(&descriptor)).expect("a WebGL2 device");
    let mut renderer = scene::renderer(&gl, |_| {});
    assert_eq!(renderer.palette_access(), PaletteAccess::Texture, "no storage buffers");
    let (actual, stats) = crate::palette_paths::render_crowd(&gl, &mut renderer, &fox);
    assert_eq!(stats.instances, 25);
    assert_similar("webgl2-limits-fox", &actual, &expected, Threshold { mean: 1e-4, p99: 1e-3 });
}
