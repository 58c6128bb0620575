//! One model in one pose, framed and drawn offscreen: the image of `cargo xtask thumbnails`
//! and of the previewer's stills.

use glam::{Affine3A, Vec3};
use props_anim::bounds::Extent;
use props_anim::light::PlacedLight;
use props_anim::{JointMatrix, Model};
use props_frame::{Camera, DebugLine, Frame, InstanceData, Lighting, ModelBatch, ModelId, SKY};

use crate::{
    GpuContext, ModelRefused, OFFSCREEN_FORMAT, OffscreenTarget, ReadbackError, Renderer, RendererConfig,
    StandalonePass,
};

/// Vertical field of view of still cameras.
const FIELD_OF_VIEW_DEGREES: f32 = 40.0;
/// How much of the image the model may fill, each way (1.1: a tenth is left around it).
const MARGIN: f32 = 1.1;
/// Where still cameras look from, relative to the model: front-right, above.
const VIEW_DIRECTION: Vec3 = Vec3::new(0.55, 0.4, 1.0);

/// Why a still could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum StillError {
    /// The GPU refused the model (limits, validation, memory).
    #[error(transparent)]
    Refused(#[from] ModelRefused),
    /// The image could not be read back.
    #[error(transparent)]
    Readback(#[from] ReadbackError),
}

/// A camera that sees all of `extent` from the front-right above, as close as the box's
/// corners allow (with a margin), for an image of `aspect` (width / height).
#[must_use]
pub fn framing_camera(extent: &Extent, aspect: f32) -> Camera {
    let fov = FIELD_OF_VIEW_DEGREES.to_radians();
    let (tan_y, tan_x) = ((fov * 0.5).tan() / MARGIN, aspect * (fov * 0.5).tan() / MARGIN);
    let forward = -VIEW_DIRECTION.normalize();
    let right = forward.cross(Vec3::Y).normalize();
    let up = right.cross(forward);
    let center = extent.center();
    // The eye sits `distance` back from the centre; a corner at offset o is at depth
    // distance + o.forward and must lie within the field of view both ways.
    let mut distance = extent.radius().max(1e-3) * 0.5;
    for corner in 0..8 {
        let pick = |bit: usize, low: f32, high: f32| if corner & bit == 0 { low } else { high };
        let point = Vec3::new(
            pick(1, extent.min.x, extent.max.x),
            pick(2, extent.min.y, extent.max.y),
            pick(4, extent.min.z, extent.max.z),
        );
        let offset = point - center;
        let depth = offset.dot(forward);
        distance = distance.max(offset.dot(right).abs() / tan_x - depth).max(offset.dot(up).abs() / tan_y - depth);
    }
    let radius = extent.radius().max(1e-3);
    let near = (distance - radius * 1.1).max(distance * 1e-3);
    Camera::look_at(center - forward * distance, center, fov, aspect, (near, distance + radius * 1.1))
}

/// Draws stills of one size, keeping its renderer and target from one still to the next.
pub struct StillRenderer {
    renderer: Renderer,
    pass: StandalonePass,
    target: OffscreenTarget,
    material_variant: Option<u8>,
}

impl StillRenderer {
    /// A renderer for stills of `size` pixels.
    #[must_use]
    pub fn new(gpu: &GpuContext, size: (u32, u32)) -> Self {
        Self::with_specular_antialiasing(gpu, size, true)
    }

    /// A renderer for stills of `size` pixels, with specular anti-aliasing or without
    /// ([`RendererConfig::specular_antialiasing`]).
    pub(crate) fn with_specular_antialiasing(gpu: &GpuContext, size: (u32, u32), specular_antialiasing: bool) -> Self {
        // No shadows: a still shows one model as the references draw it (three.js without a
        // shadow map).
        let config = RendererConfig { shadows: false, specular_antialiasing, ..RendererConfig::new(OFFSCREEN_FORMAT) };
        let renderer = Renderer::new(&gpu.adapter, &gpu.device, &gpu.queue, config);
        let target = OffscreenTarget::new(&gpu.device, size);
        Self { renderer, pass: StandalonePass::new(), target, material_variant: None }
    }

    /// Draws the next stills in the model's material variant `material_variant`
    /// ([`props_anim::Model::material_variants`]; `None`, the default: its own materials).
    pub fn set_material_variant(&mut self, material_variant: Option<u8>) {
        self.material_variant = material_variant;
    }

    /// Draws `model` at the origin with `palette` (as [`Model::write_palettes`] writes it) seen
    /// by `camera` in the town's daylight, with `lines` over it; returns the image's RGBA8
    /// rows, top first.
    ///
    /// # Errors
    /// When the GPU refuses the model, or the image cannot be read back.
    pub fn draw(
        &mut self,
        gpu: &GpuContext,
        model: &Model,
        palette: &[JointMatrix],
        camera: Camera,
        lines: &[DebugLine],
    ) -> Result<Vec<u8>, StillError> {
        self.draw_lit(gpu, model, palette, camera, (Lighting::default(), SKY), (lines, &[]))
    }

    /// [`StillRenderer::draw`] under `light` and point and spot `lights`, on a background of
    /// linear `clear_color`.
    ///
    /// # Errors
    /// When the GPU refuses the model, or the image cannot be read back.
    pub fn draw_lit(
        &mut self,
        gpu: &GpuContext,
        model: &Model,
        palette: &[JointMatrix],
        camera: Camera,
        (lighting, clear_color): (Lighting, [f64; 4]),
        (lines, lights): (&[DebugLine], &[PlacedLight]),
    ) -> Result<Vec<u8>, StillError> {
        let id = ModelId(0);
        self.renderer.set_model(id, model)?;
        let frame = Frame {
            camera,
            lighting,
            clear_color,
            palettes: palette,
            instances: &[InstanceData::new(&Affine3A::IDENTITY, 0)],
            batches: &[ModelBatch {
                model: id,
                instances: 0..1,
                level: 0,
                material_variant: self.material_variant,
                mirrored: false,
            }],
            lines,
            lights,
        };
        let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("still") });
        self.pass.draw(&mut self.renderer, &mut encoder, (self.target.view(), self.target.size()), &frame);
        gpu.queue.submit([encoder.finish()]);
        Ok(self.target.read_rgba8(&gpu.device, &gpu.queue)?)
    }

    /// The image size.
    #[must_use]
    pub fn size(&self) -> (u32, u32) {
        self.target.size()
    }
}
