//! Models uploaded on another thread ([`props_render::ModelUploader`]) draw as models set on
//! the drawing thread do, with the pipelines compiled there (on OpenGL too: `opengl.rs`); what
//! was uploaded for another renderer is dropped, not drawn.

use std::sync::Arc;

use glam::Vec3;
use props_frame::ModelId;
use props_tests::scene::{self, TestScene};

#[test]
fn a_model_uploaded_on_another_thread_draws_as_one_set_on_the_drawing_thread() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    uploaded_on_a_thread_draws_as_set_here(&gpu);
}

/// The Fox uploaded on a thread by a fresh renderer's uploader draws as the Fox set on this
/// one does, byte for byte; the other renderer's upload put there is dropped.
pub(crate) fn uploaded_on_a_thread_draws_as_set_here(gpu: &props_render::GpuContext) {
    let fox = Arc::new(scene::load("assets/Fox.glb"));
    let pose = scene::pose_at(&fox, fox.find_clip("Run"), 0.3);
    let test_scene = TestScene {
        camera: scene::framing_camera(&fox),
        models: vec![(ModelId(0), vec![(scene::at(Vec3::ZERO), scene::palette(&fox, &pose))])],
    };

    let mut here = scene::renderer(gpu, |_| {});
    let footprint = here.set_model(ModelId(0), &fox).expect("uploads");
    let expected = scene::render(gpu, &mut here, &test_scene).0;

    // A fresh renderer, none of its pipelines made: its uploader makes the fox's on a thread.
    let mut there = scene::renderer(gpu, |_| {});
    let uploader = there.uploader();
    let model = Arc::clone(&fox);
    let uploaded = std::thread::spawn(move || uploader.upload(&model)).join().expect("no panic").expect("uploads");
    assert!(uploaded.is_for(&there) && !uploaded.is_for(&here));
    assert_eq!(uploaded.footprint(), footprint);
    there.put_model(ModelId(0), uploaded);
    let actual = scene::render(gpu, &mut there, &test_scene).0;
    let differ = expected.pixels().zip(actual.pixels()).filter(|(a, b)| a != b).count();
    assert_eq!(differ, 0, "{differ} pixels differ");
    assert!(expected.pixels().any(|p| p.0 != expected.get_pixel(0, 0).0), "the fox is drawn");

    // The other renderer's upload of the windmill: dropped, the fox stays.
    let windmill = scene::load("assets/windmill.glb");
    let foreign = here.uploader().upload(&windmill).expect("uploads");
    there.put_model(ModelId(0), foreign);
    assert_eq!(there.model_footprint(ModelId(0)), Some(footprint));
    let still = scene::render(gpu, &mut there, &test_scene).0;
    assert!(still == actual, "the fox is drawn as before");
}

/// A model of more parts than a prop may have (a triangle placed 65,537 times: each planned
/// and uploaded, and drawn alone where parts do not merge) is refused before anything is
/// uploaded, saying what to do.
#[test]
fn a_model_of_more_parts_than_a_prop_may_draw_is_refused() {
    use props_anim::{
        Mesh, MeshInstance, Model, ModelParts, NodeId, Primitive, RestTransform, Rig, SourceNode, Transform,
    };
    let Some(gpu) = props_tests::gpu::context() else { return };
    let node = SourceNode {
        name: None,
        children: Vec::new(),
        rest: RestTransform::Trs(Transform::IDENTITY),
        morph_weights: Vec::new(),
    };
    let triangle = Primitive::triangles(vec![Vec3::ZERO, Vec3::X, Vec3::Y], Vec::new(), vec![0, 1, 2], None);
    let model = Model::new(ModelParts {
        rig: Some(Rig::from_source_nodes(&[node]).expect("one node")),
        meshes: vec![Mesh { name: None, primitives: vec![triangle] }],
        instances: vec![MeshInstance { node: NodeId(0), mesh: 0, skin: None }; 65_537],
        ..ModelParts::default()
    })
    .expect("valid");
    let mut renderer = scene::renderer(&gpu, |_| {});
    let refused = renderer.set_model(ModelId(0), &model).expect_err("too many parts");
    assert!(matches!(refused, props_render::ModelRefused::TooManyDraws { draws: 65_537, .. }), "{refused}");
    assert!(refused.to_string().contains("join the objects that share a material"), "{refused}");
}
