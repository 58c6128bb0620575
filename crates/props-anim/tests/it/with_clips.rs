//! A model with clips added (a person retargeted, a walk played in place): the clips after
//! its own, over the same vertices and pixels, shared and not copied.

use glam::Vec3;
use props_anim::clip::interpolate::Interpolation;
use props_anim::clip::{Channel, Clip, Keyframes};
use props_anim::material::{Image, Material, TextureRef};
use props_anim::{Mesh, MeshInstance, Model, ModelParts, NodeId, Primitive, Transform};

use crate::support::rig;

#[test]
fn a_model_with_clips_shares_its_vertices_and_images() {
    let rig = rig(&[(&[], Transform::IDENTITY)]);
    let triangle = Primitive::triangles(vec![Vec3::ZERO, Vec3::X, Vec3::Y], Vec::new(), vec![0, 1, 2], Some(0));
    let image = Image { name: None, width: 64, height: 64, rgba8: vec![255; 64 * 64 * 4], ktx2: None };
    let material = Material { base_color_texture: Some(TextureRef::new(0)), ..Material::default() };
    let model = Model::new(ModelParts {
        rig: Some(rig.clone()),
        meshes: vec![Mesh { name: None, primitives: vec![triangle] }],
        instances: vec![MeshInstance { node: NodeId(0), mesh: 0, skin: None }],
        materials: vec![material],
        images: vec![image],
        ..ModelParts::default()
    })
    .expect("valid");
    let rise = Keyframes::Translation(vec![Vec3::ZERO, Vec3::Y]);
    let channel = Channel::new(NodeId(0), Interpolation::Linear, vec![0.0, 1.0], rise).expect("channel");
    let clip = Clip::new(Some("rise".into()), vec![channel], &rig).expect("clip");

    let with = model.with_clips([clip]);
    assert_eq!(with.clips().len(), model.clips().len() + 1, "the clip comes after its own");
    assert_eq!(with.find_clip("rise"), Some(0));
    assert!(std::ptr::eq(with.images(), model.images()), "the pixels are shared, not copied");
    assert!(std::ptr::eq(with.meshes(), model.meshes()), "the vertices are shared, not copied");
    assert_eq!(with.images()[0].rgba8.len(), 64 * 64 * 4);
}
