//! Building and rendering test scenes.

use std::path::{Path, PathBuf};

use glam::{Affine3A, Vec3};
use props_anim::{
    JointMatrix, Mesh, MeshInstance, Model, ModelParts, NodeId, Pose, Primitive, RestTransform, Rig, SourceNode,
    Transform, skinning,
};
use props_frame::{Camera, Frame, InstanceData, Lighting, ModelBatch, ModelId, SKY};
use props_render::{FrameStats, GpuContext, OffscreenTarget, Renderer, RendererConfig};

/// Size of test images: small, because lavapipe rasterizes on the CPU.
pub const IMAGE_SIZE: (u32, u32) = (256, 256);

/// Path of a file under the workspace's `tests/` folder.
#[must_use]
pub fn data(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// Imports a model from the workspace (path relative to the workspace root).
///
/// # Panics
/// If the model does not import.
#[must_use]
pub fn load(relative_to_workspace: &str) -> Model {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(relative_to_workspace);
    props_gltf::import_file(&path, &props_gltf::Limits::default()).unwrap_or_else(|e| panic!("{e}")).model
}

/// The pose of `model` playing `clip` at clip time `time` (rest pose for `None`), with world
/// matrices computed.
#[must_use]
pub fn pose_at(model: &Model, clip: Option<usize>, time: f32) -> Pose {
    model.pose_at(clip, time)
}

/// One instance's palette for `pose`.
#[must_use]
pub fn palette(model: &Model, pose: &Pose) -> Vec<JointMatrix> {
    let mut palette = vec![JointMatrix::IDENTITY; model.palette_len()];
    model.write_palettes(pose, &mut palette);
    palette
}

/// The same model, skinned on the CPU by the animation core in `pose`, as a static model:
/// one node at the origin, every primitive rigid with its posed positions and normals. Drawn
/// with the identity palette, it is the reference image for GPU skinning.
#[must_use]
pub fn cpu_skinned(model: &Model, pose: &Pose) -> Model {
    let palette = palette(model, pose);
    let mut meshes = Vec::new();
    for (slot, instance) in model.instances().iter().enumerate() {
        let weights = pose.morph_weights(instance.node);
        for primitive in &model.meshes()[instance.mesh as usize].primitives {
            let (mut positions, mut normals) = (Vec::new(), Vec::new());
            match instance.skin.filter(|_| primitive.influences.is_some()) {
                Some(skin) => {
                    let joints = &palette[model.palette_range(skin)];
                    skinning::skin_positions(primitive, joints, weights, &mut positions);
                    skinning::skin_normals(primitive, joints, weights, &mut normals);
                }
                None => {
                    let node = palette[model.node_slot(slot)].to_affine();
                    skinning::rigid_positions(primitive, &node, weights, &mut positions);
                    skinning::rigid_normals(primitive, &node, weights, &mut normals);
                }
            }
            // Its levels of detail describe the unposed primitive in its node's units: none.
            let (influences, morph_targets, lods) = (None, Vec::new(), Vec::new());
            let posed = Primitive { positions, normals, influences, morph_targets, lods, ..primitive.clone() };
            meshes.push(Mesh { name: None, primitives: vec![posed] });
        }
    }
    let root = SourceNode {
        name: Some("cpu skinned".into()),
        children: Vec::new(),
        rest: RestTransform::Trs(Transform::IDENTITY),
        morph_weights: Vec::new(),
    };
    let instances = (0..meshes.len() as u32).map(|mesh| MeshInstance { node: NodeId(0), mesh, skin: None }).collect();
    Model::new(ModelParts {
        rig: Some(Rig::from_source_nodes(&[root]).expect("one node")),
        meshes,
        materials: model.materials().to_vec(),
        images: model.images().to_vec(),
        instances,
        ..ModelParts::default()
    })
    .expect("valid static model")
}

/// A camera at `eye` looking at `target`, 45 degree vertical field of view, square image.
#[must_use]
pub fn camera(eye: Vec3, target: Vec3) -> Camera {
    Camera::look_at(eye, target, 45f32.to_radians(), 1.0, (0.1, 2000.0))
}

/// Instances of one model: each one's model-to-world transform and palette.
pub type Instances = Vec<(Affine3A, Vec<JointMatrix>)>;

/// A scene to render: models with their instances.
pub struct TestScene {
    /// Camera.
    pub camera: Camera,
    /// Per model: the uploaded handle and its instances.
    pub models: Vec<(ModelId, Instances)>,
}

/// Renders `scene` offscreen at [`IMAGE_SIZE`] and reads it back as an RGBA8 image.
///
/// # Panics
/// If the readback fails.
pub fn render(gpu: &GpuContext, renderer: &mut Renderer, scene: &TestScene) -> (image::RgbaImage, FrameStats) {
    render_with_lines(gpu, renderer, scene, &[])
}

/// [`render`], with debug lines drawn over the scene.
///
/// # Panics
/// If the readback fails.
pub fn render_with_lines(
    gpu: &GpuContext,
    renderer: &mut Renderer,
    scene: &TestScene,
    lines: &[props_frame::DebugLine],
) -> (image::RgbaImage, FrameStats) {
    render_lit(gpu, renderer, scene, (Lighting::default(), lines))
}

/// [`render`] under `lighting`, with `lines` drawn over the scene.
///
/// # Panics
/// If the readback fails.
pub fn render_lit(
    gpu: &GpuContext,
    renderer: &mut Renderer,
    scene: &TestScene,
    (lighting, lines): (Lighting, &[props_frame::DebugLine]),
) -> (image::RgbaImage, FrameStats) {
    let (mut palettes, mut instances, mut batches) = (Vec::new(), Vec::new(), Vec::new());
    // Each model's instances in two batches, as a crowd extracts them: those whose placements
    // mirror them apart.
    for ((model, model_instances), mirrored) in scene.models.iter().flat_map(|m| [(m, false), (m, true)]) {
        let first = instances.len() as u32;
        for (transform, palette) in model_instances.iter().filter(|(t, _)| (t.matrix3.determinant() < 0.0) == mirrored)
        {
            instances.push(InstanceData::new(transform, palettes.len() as u32));
            palettes.extend_from_slice(palette);
        }
        let instances = first..instances.len() as u32;
        if !instances.is_empty() {
            batches.push(ModelBatch { model: *model, instances, level: 0, material_variant: None, mirrored });
        }
    }
    let frame = Frame {
        camera: scene.camera,
        lighting,
        clear_color: SKY,
        palettes: &palettes,
        instances: &instances,
        batches: &batches,
        lines,
        lights: &[],
    };
    render_frame(gpu, renderer, &frame)
}

/// Renders `frame` offscreen at [`IMAGE_SIZE`] and reads it back as an RGBA8 image.
///
/// # Panics
/// If the readback fails.
pub fn render_frame(gpu: &GpuContext, renderer: &mut Renderer, frame: &Frame<'_>) -> (image::RgbaImage, FrameStats) {
    let target = OffscreenTarget::new(&gpu.device, IMAGE_SIZE);
    let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    let stats = props_render::StandalonePass::new().draw(renderer, &mut encoder, (target.view(), target.size()), frame);
    gpu.queue.submit([encoder.finish()]);
    let pixels = target.read_rgba8(&gpu.device, &gpu.queue).expect("readback");
    let image = image::RgbaImage::from_raw(IMAGE_SIZE.0, IMAGE_SIZE.1, pixels).expect("image of the right size");
    (image, stats)
}

/// A renderer for offscreen targets with `config` changes applied.
#[must_use]
pub fn renderer(gpu: &GpuContext, configure: impl FnOnce(&mut RendererConfig)) -> Renderer {
    let mut config = RendererConfig::new(props_render::OFFSCREEN_FORMAT);
    configure(&mut config);
    Renderer::new(&gpu.adapter, &gpu.device, &gpu.queue, config)
}

/// The car (`assets/car.glb`) at rest at the origin, set in `renderer` as model 0: the frame
/// data that draws it, and a camera that sees it from the front-right, above.
#[must_use]
pub fn car_at_origin(renderer: &mut Renderer) -> (props_frame::FrameData, Camera) {
    let car = load("assets/car.glb");
    renderer.set_model(ModelId(0), &car).expect("the car uploads");
    let mut frame = props_frame::FrameData::default();
    let palette = palette(&car, &pose_at(&car, None, 0.0));
    frame.push_instance(&Affine3A::IDENTITY, car.palette_len()).copy_from_slice(&palette);
    frame.end_batch(ModelId(0));
    (frame, camera(Vec3::new(4.0, 3.0, 6.0), Vec3::new(0.0, 0.5, 0.0)))
}

/// A model of `ModelParts` `parts` (its materials, images) given `primitive` alone, on one
/// node of rest transform `rest`.
#[must_use]
pub fn one_part(primitive: Primitive, rest: Transform, parts: ModelParts) -> Model {
    let node =
        SourceNode { name: None, children: Vec::new(), rest: RestTransform::Trs(rest), morph_weights: Vec::new() };
    Model::new(ModelParts {
        rig: Some(Rig::from_source_nodes(&[node]).expect("rig")),
        meshes: vec![Mesh { name: None, primitives: vec![primitive] }],
        instances: vec![MeshInstance { node: NodeId(0), mesh: 0, skin: None }],
        ..parts
    })
    .expect("model")
}

/// `model` alone at the origin in its rest pose, seen from `eye` looking at the origin, by a
/// renderer of the default configuration.
#[must_use]
pub fn draw_alone(gpu: &GpuContext, model: &Model, eye: Vec3) -> image::RgbaImage {
    draw_placed(gpu, model, at(Vec3::ZERO), eye)
}

/// `model` alone at `placement` in its rest pose, seen from `eye` looking at the origin, by a
/// renderer of the default configuration.
#[must_use]
pub fn draw_placed(gpu: &GpuContext, model: &Model, placement: Affine3A, eye: Vec3) -> image::RgbaImage {
    let mut renderer = renderer(gpu, |_| {});
    let handle = ModelId(0);
    renderer.set_model(handle, model).expect("the model uploads");
    let pose = pose_at(model, None, 0.0);
    let instances = vec![(placement, palette(model, &pose))];
    render(gpu, &mut renderer, &TestScene { camera: camera(eye, Vec3::ZERO), models: vec![(handle, instances)] }).0
}

/// The identity transform as a palette-less instance placement.
#[must_use]
pub fn at(translation: Vec3) -> Affine3A {
    Affine3A::from_translation(translation)
}

/// A camera that frames every vertex of a (static) model, seen from the front-right above.
#[must_use]
pub fn framing_camera(model: &Model) -> Camera {
    let points = model.meshes().iter().flat_map(|m| &m.primitives).flat_map(|p| &p.positions);
    let (min, max) = points.fold((Vec3::MAX, Vec3::MIN), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    let (center, radius) = ((min + max) / 2.0, ((max - min).length() / 2.0).max(1e-3));
    camera(center + Vec3::new(0.55, 0.35, 1.0).normalize() * radius * 2.8, center)
}
