//! Morph targets on the GPU equal CPU morphing (then skinning) by the animation core: the
//! weights travel in the instance's palette, the deltas in the model's table, and the vertex
//! shader applies morph, then skin.

use glam::{Affine3A, Vec3};
use props_frame::{FrameData, InstanceData, Lighting, ModelId, SKY};
use props_render::{PaletteMode, shaders::PaletteAccess};
use props_tests::golden::{Threshold, assert_similar};
use props_tests::scene::{self, TestScene};

use crate::skinning::{gpu_equals_cpu, gpu_equals_cpu_through};

#[test]
fn animated_morph_cube() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    // Mid-clip: weights 0.72 and 0.28.
    let path = "tests/models/AnimatedMorphCube/AnimatedMorphCube.gltf";
    gpu_equals_cpu(&gpu, "morph-cube", path, "", 2.1);
}

#[test]
fn simple_morph() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    gpu_equals_cpu(&gpu, "simple-morph", "tests/models/SimpleMorph/SimpleMorph.gltf", "", 1.3);
}

#[test]
fn morph_and_skin_on_one_primitive() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    // A skinned tube with two morph targets (one with no data: zeros), weights 0.75 and 0.375.
    let path = "tests/models/generated/spare_data.gltf";
    gpu_equals_cpu(&gpu, "morph-and-skin", path, "", 0.75);
}

#[test]
fn sparse_morph_target_through_textures() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    // A sparse morph target with no bufferView on a skinned primitive, read from textures.
    let textures = PaletteMode::Force(PaletteAccess::Texture);
    gpu_equals_cpu_through(&gpu, textures, "morph-sparse-texture", "tests/models/generated/sparse.gltf", "", 0.75);
}

/// Same adapter: only float rounding differs (see skinning.rs).
const SAME_POSE: Threshold = Threshold { mean: 0.001, p99: 0.1 };

/// Nine morph cubes, each at its own time (its own weights), are one draw call per primitive,
/// and look like nine CPU-morphed cubes.
#[test]
fn many_instances_with_different_weights_draw_in_one_call() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let model = scene::load("tests/models/AnimatedMorphCube/AnimatedMorphCube.gltf");
    let mut renderer = scene::renderer(&gpu, |_| {});
    let morphed = ModelId(0);
    renderer.set_model(morphed, &model).expect("the model uploads");
    let at = |i: usize| scene::at(Vec3::new((i % 3) as f32 * 3.0 - 3.0, (i / 3) as f32 * 3.0 - 3.0, 0.0));
    let times: Vec<f32> = (0..9).map(|i| i as f32 * 0.45).collect();
    let poses: Vec<_> = times.iter().map(|&t| scene::pose_at(&model, Some(0), t)).collect();
    let instances = poses.iter().enumerate().map(|(i, pose)| (at(i), scene::palette(&model, pose))).collect();
    let camera = scene::camera(Vec3::new(0.0, 0.0, 14.0), Vec3::ZERO);
    let (gpu_image, stats) =
        scene::render(&gpu, &mut renderer, &TestScene { camera, models: vec![(morphed, instances)] });
    let primitives: u32 =
        model.instances().iter().map(|i| model.meshes()[i.mesh as usize].primitives.len() as u32).sum();
    assert_eq!((stats.instances, stats.draw_calls), (9, primitives), "{stats:?}");
    // The reference: nine static models, morphed on the CPU.
    let mut models = Vec::new();
    for (i, pose) in poses.iter().enumerate() {
        let reference = scene::cpu_skinned(&model, pose);
        let id = ModelId(1 + i as u32);
        renderer.set_model(id, &reference).expect("the model uploads");
        let rest = scene::pose_at(&reference, None, 0.0);
        models.push((id, vec![(at(i), scene::palette(&reference, &rest))]));
    }
    let (cpu_image, _) = scene::render(&gpu, &mut renderer, &TestScene { camera, models });
    assert_similar("morph-instances", &gpu_image, &cpu_image, SAME_POSE);
}

#[test]
fn blender_shape_keys_with_a_skin() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    // Three shape keys (one weight negative) with normals, on a skinned mesh, mid-clip.
    gpu_equals_cpu(&gpu, "blender-shape-keys", "tests/models/blender/blender_shape_keys.glb", "", 1.0);
}

#[test]
fn node_weights_override_the_mesh_s() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    // The mesh's weights are 0; the node's (0.8, -0.4) shift and shrink the skinned tube.
    gpu_equals_cpu(&gpu, "node-weights", "tests/models/generated/node_weights.gltf", "", 1.0);
}

/// An instance marked [`InstanceData::MORPH_AT_REST`] is drawn as its mesh stands, reading no
/// weight: with its weights at zero it looks exactly as unmarked (the mark loses nothing),
/// and marked with weights that move it (a host's mistake) it still stands (the vertex
/// shader takes the mark, not the weights). [`FrameData::push_posed`] marks only the former.
#[test]
fn instances_marked_at_rest_are_not_morphed() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let model = scene::load("tests/models/AnimatedMorphCube/AnimatedMorphCube.gltf");
    let mut renderer = scene::renderer(&gpu, |_| {});
    renderer.set_model(ModelId(0), &model).expect("the model uploads");
    let camera = scene::camera(Vec3::new(2.0, 2.0, 6.0), Vec3::ZERO);
    let moved = scene::pose_at(&model, Some(0), 0.45);
    let mut rest = moved.clone();
    for node in model.rig().nodes() {
        rest.morph_weights_mut(node).fill(0.0);
    }
    rest.compute_world(model.rig());
    let mut draw = |pose: &props_anim::Pose, flags: Option<u32>| {
        let mut frame = FrameData::default();
        frame.push_posed(&model, pose, &Affine3A::IDENTITY);
        let posed_flags = frame.instances[0].flags;
        if let Some(flags) = flags {
            frame.instances[0].flags = flags;
        }
        frame.end_batch(ModelId(0));
        let frame = frame.to_frame(camera, Lighting::default(), SKY);
        (scene::render_frame(&gpu, &mut renderer, &frame).0, posed_flags)
    };
    let (standing, marked) = draw(&rest, None);
    assert_eq!(marked, InstanceData::MORPH_AT_REST, "push_posed marks zero weights");
    let (unmarked, _) = draw(&rest, Some(0));
    assert!(standing == unmarked, "the mark changes nothing at zero weights");
    let (morphed, marked) = draw(&moved, None);
    assert_eq!(marked, 0, "push_posed leaves weights away from zero unmarked");
    let changed = standing.pixels().zip(morphed.pixels()).filter(|(a, b)| a != b).count();
    assert!(changed > 100, "the weights move the cube: {changed} pixels differ");
    let (mismarked, _) = draw(&moved, Some(InstanceData::MORPH_AT_REST));
    assert!(mismarked == standing, "a marked instance is not morphed, whatever its weights");
}
