//! Animated materials and visibility on the GPU: a frame of a pointer-animated model (values
//! read per instance from the palette) looks exactly like the same model made static with
//! those values written into its materials, and without the mesh instances its visibility
//! hides (drawn through the uniforms alone). The values themselves are proven against
//! Babylon.js by props-gltf's `pointers` tests.

use glam::Vec3;
use props_anim::property::{MaterialField, Properties, PropertyId, PropertyTarget, TextureSlot};
use props_anim::{Model, ModelParts, Pose, material::Material};
use props_gltf::Limits;
use props_render::conventions::{self, CameraSpec, RenderSpec};

fn model(name: &str) -> Model {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/pointers").join(name);
    props_gltf::import_file(&path, &Limits::default()).expect("imports").model
}

/// The transform of `material`'s texture in `slot`.
fn transform(slot: TextureSlot, m: &mut Material) -> Option<&mut props_anim::material::TextureTransform> {
    let texture = match slot {
        TextureSlot::BaseColor => m.base_color_texture.as_mut(),
        TextureSlot::MetallicRoughness => m.metallic_roughness_texture.as_mut(),
        TextureSlot::Normal => m.normal_texture.as_mut(),
        TextureSlot::Occlusion => m.occlusion_texture.as_mut(),
        TextureSlot::Emissive => m.emissive_texture.as_mut(),
    };
    texture.map(|t| &mut t.transform)
}

/// Writes one animated value into `materials`.
fn apply(target: PropertyTarget, value: &[f32], materials: &mut [Material]) {
    let PropertyTarget::Material { material, field } = target else { return };
    let m = &mut materials[material as usize];
    match field {
        MaterialField::BaseColor => m.base_color_factor.copy_from_slice(value),
        MaterialField::Metallic => m.metallic_factor = value[0],
        MaterialField::Roughness => m.roughness_factor = value[0],
        MaterialField::Emissive => m.emissive_factor.copy_from_slice(value),
        MaterialField::EmissiveStrength => m.emissive_strength = value[0],
        MaterialField::AlphaCutoff => {
            if let props_anim::material::AlphaMode::Mask { cutoff } = &mut m.alpha_mode {
                *cutoff = value[0];
            }
        }
        MaterialField::NormalScale => m.normal_scale = value[0],
        MaterialField::OcclusionStrength => m.occlusion_strength = value[0],
        MaterialField::TextureOffset(slot) => transform(slot, m).expect("texture").offset.copy_from_slice(value),
        MaterialField::TextureRotation(slot) => transform(slot, m).expect("texture").rotation = value[0],
        MaterialField::TextureScale(slot) => transform(slot, m).expect("texture").scale.copy_from_slice(value),
    }
}

/// `model` at clip time `time` of clip 0 as a static model: its animated material values
/// written into its materials, the mesh instances hidden at that time left out, no clips.
fn frozen(model: &Model, time: f32) -> Model {
    let rig = model.rig();
    let mut pose = Pose::from_rest(rig);
    model.clips()[0].sample(time, &mut pose);
    let table = rig.properties();
    let mut materials = model.materials().to_vec();
    let mut hidden = vec![false; rig.len()];
    for (id, &target) in (0u32..).zip(table.targets()) {
        let value = pose.property(PropertyId(id));
        apply(target, value, &mut materials);
        if let PropertyTarget::NodeVisible(node) = target {
            hidden[node.index()] = value[0] == 0.0;
        }
    }
    for node in rig.nodes() {
        hidden[node.index()] |= rig.parent(node).is_some_and(|p| hidden[p.index()]);
    }
    let mut static_rig = rig.clone();
    static_rig.set_properties(Properties::new());
    let parts = ModelParts {
        rig: Some(static_rig),
        skins: model.skins().to_vec(),
        clips: Vec::new(),
        meshes: model.meshes().to_vec(),
        materials,
        images: model.images().to_vec(),
        instances: model.instances().iter().filter(|i| !hidden[i.node.index()]).copied().collect(),
        lights: model.lights().to_vec(),
        light_instances: model.light_instances().to_vec(),
    };
    Model::new(parts).expect("the frozen model")
}

fn picture(
    gpu: &props_render::GpuContext,
    model: &Model,
    clip: Option<usize>,
    time: f32,
    eye: Vec3,
    target: Vec3,
) -> image::RgbaImage {
    let camera = CameraSpec { placed: Some((eye, target)), yfov_degrees: 40.0 };
    let spec = RenderSpec { size: (256, 256), camera, ..RenderSpec::default() };
    let (rgba, _) = conventions::render(gpu, model, (clip, time), &spec).expect("renders");
    image::RgbaImage::from_raw(256, 256, rgba).expect("the image's size")
}

/// Mean FLIP between the animated model's frame and its frozen twin's, at each time (below
/// `alike`); and between the first and last frame (the animation must show).
fn compare(name: &str, times: &[f32], eye: Vec3, target: Vec3, alike: f32) {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let animated = model(name);
    let mut frames = Vec::new();
    for &time in times {
        let got = picture(&gpu, &animated, Some(0), time, eye, target);
        let want = picture(&gpu, &frozen(&animated, time), None, 0.0, eye, target);
        let (difference, _) = props_tests::golden::compare(&got, &want);
        eprintln!("{name} at {time}: mean FLIP against its frozen twin {:.5}", difference.mean);
        assert!(difference.mean < alike, "{name} at {time}: {}", difference.mean);
        frames.push(got);
    }
    let (change, _) = props_tests::golden::compare(&frames[0], &frames[frames.len() - 1]);
    assert!(change.mean > 0.01, "{name} does not change on screen: {}", change.mean);
}

#[test]
fn animated_material_factors_draw_as_their_values() {
    compare("pointer_material.gltf", &[0.0, 0.7, 1.3, 2.0], Vec3::new(1.24, 0.74, 1.48), Vec3::ZERO, 1e-4);
}

#[test]
fn animated_texture_transforms_draw_as_their_values() {
    // An animated transform is rebuilt per fragment with the GPU's sine and cosine, a static
    // one from the CPU's: pixels on texel edges differ (measured 0.0013 to 0.0034).
    compare("pointer_texture_transform.gltf", &[0.0, 0.9, 2.0], Vec3::new(1.24, 0.74, 1.48), Vec3::ZERO, 0.005);
}

#[test]
fn animated_visibility_hides_nodes_and_what_is_below_them() {
    compare(
        "pointer_visibility.gltf",
        &[0.0, 0.5, 1.0, 1.7],
        Vec3::new(3.69, 2.39, 3.53),
        Vec3::new(0.75, 0.625, 0.0),
        1e-4,
    );
}
