//! A model's decoded pixels released once on the GPU: the bytes freed, its size and KTX2 file
//! kept (an image with one draws as before: not released, for a host), and a model sharing the
//! images left whole.

use glam::Vec3;
use props_anim::material::{Image, Material, TextureRef};
use props_anim::{Mesh, MeshInstance, Model, ModelParts, NodeId, Primitive, Transform};

use crate::support::rig;

/// A triangle in a material showing a 64 x 64 image that came from a (stand-in) KTX2 file, or
/// from a PNG.
fn textured(ktx2: bool) -> Model {
    let triangle = Primitive::triangles(vec![Vec3::ZERO, Vec3::X, Vec3::Y], Vec::new(), vec![0, 1, 2], Some(0));
    let ktx2 = ktx2.then(|| vec![7; 100]);
    let image = Image { name: None, width: 64, height: 64, rgba8: vec![255; 64 * 64 * 4], ktx2 };
    let material = Material { base_color_texture: Some(TextureRef::new(0)), ..Material::default() };
    Model::new(ModelParts {
        rig: Some(rig(&[(&[], Transform::IDENTITY)])),
        meshes: vec![Mesh { name: None, primitives: vec![triangle] }],
        instances: vec![MeshInstance { node: NodeId(0), mesh: 0, skin: None }],
        materials: vec![material],
        images: vec![image],
        ..ModelParts::default()
    })
    .expect("valid")
}

#[test]
fn released_pixels_leave_the_images_size_and_ktx2_file_and_free_their_bytes() {
    let mut model = textured(true);
    let before = model.heap_bytes();
    assert_eq!(model.pixel_bytes(), 64 * 64 * 4);
    assert!(!model.has_released_pixels());
    assert_eq!(model.release_pixels(), 64 * 64 * 4);
    assert_eq!(model.heap_bytes(), before - 64 * 64 * 4, "the budgets count what is left");
    let image = &model.images()[0];
    assert_eq!((image.width, image.height, image.rgba8.len()), (64, 64, 0));
    assert_eq!(image.ktx2.as_deref(), Some(&[7; 100][..]));
    assert!(!model.has_released_pixels(), "drawn from its KTX2 levels");
    assert_eq!((model.release_pixels(), model.pixel_bytes()), (0, 0), "nothing left to free");
    let mut png = textured(false);
    assert!(!png.has_released_pixels());
    assert_eq!(png.release_pixels(), 64 * 64 * 4);
    assert!(png.has_released_pixels(), "drawn white until loaded again");
}

#[test]
fn a_model_sharing_the_images_keeps_its_pixels() {
    let original = textured(false);
    let mut with = original.with_clips([]);
    assert_eq!(with.release_pixels(), 64 * 64 * 4);
    assert!(with.has_released_pixels() && !original.has_released_pixels());
    assert_eq!(original.images()[0].rgba8.len(), 64 * 64 * 4);
    assert_eq!(with.images()[0].ktx2, original.images()[0].ktx2);
}

#[test]
fn pixels_come_back_only_from_a_model_with_the_same_images() {
    let mut released = textured(false);
    released.release_pixels();
    let read_again = textured(false);
    let whole = released.with_pixels_of(&read_again).expect("the same images");
    assert!(!whole.has_released_pixels());
    assert_eq!(whole.images()[0].rgba8, read_again.images()[0].rgba8);
    assert_eq!(whole.heap_bytes(), read_again.heap_bytes());
    assert!(released.has_released_pixels(), "the model itself stays without them");

    // Another size (the file was edited since): none.
    let mut edited = textured(false);
    let parts = Model::new(ModelParts {
        rig: Some(rig(&[(&[], Transform::IDENTITY)])),
        images: vec![Image { name: None, width: 32, height: 64, rgba8: vec![9; 32 * 64 * 4], ktx2: None }],
        ..ModelParts::default()
    })
    .expect("valid");
    assert!(released.with_pixels_of(&parts).is_none(), "a 32 x 64 image for a 64 x 64 one");
    // A source that lost its pixels too: none; one from a KTX2 file keeps its levels.
    edited.release_pixels();
    assert!(released.with_pixels_of(&edited).is_none());
    let mut ktx2 = textured(true);
    ktx2.release_pixels();
    assert!(released.with_pixels_of(&ktx2).is_some_and(|m| !m.has_released_pixels()));
}
