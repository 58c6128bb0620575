//! The plain per-frame data the renderer draws: no ECS, no file format.

use std::ops::Range;

use glam::{Mat4, Vec3};
use props_anim::JointMatrix;

use crate::ModelHandle;

/// Camera for one frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// Projection times view, with wgpu's 0..1 depth range.
    pub view_projection: Mat4,
}

/// One directional light plus ambient.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Light {
    /// Unit direction towards the light, world space.
    pub direction: Vec3,
    /// Linear colour times intensity.
    pub color: Vec3,
    /// Linear ambient colour.
    pub ambient: Vec3,
}

impl Default for Light {
    fn default() -> Self {
        Self {
            direction: Vec3::new(0.4, 0.8, 0.45).normalize(),
            color: Vec3::splat(0.85),
            ambient: Vec3::new(0.28, 0.3, 0.36),
        }
    }
}

/// One instance of a model: where it stands and where its palette starts.
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct InstanceData {
    /// Model-to-world transform, 3x4 rows (same packing as the joint matrices).
    pub transform: JointMatrix,
    /// Index in [`Frame::palettes`] of this instance's first matrix: its palette is
    /// `palettes[palette_base..palette_base + model.palette_len()]`, laid out as
    /// `props_anim::Model::write_palettes` writes it.
    pub palette_base: u32,
    /// Padding to 64 bytes.
    pub padding: [u32; 3],
}

impl InstanceData {
    /// An instance at `transform` whose palette starts at `palette_base`.
    #[must_use]
    pub fn new(transform: &glam::Affine3A, palette_base: u32) -> Self {
        Self { transform: JointMatrix::from_affine(transform), palette_base, padding: [0; 3] }
    }
}

/// All instances of one model in a frame: a range of [`Frame::instances`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelBatch {
    /// The uploaded model.
    pub model: ModelHandle,
    /// Its instances, a range of [`Frame::instances`].
    pub instances: Range<u32>,
}

/// A coloured line segment in world space, for debug drawing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DebugLine {
    /// Start point.
    pub from: Vec3,
    /// End point.
    pub to: Vec3,
    /// Linear RGBA colour.
    pub color: [f32; 4],
}

/// Everything drawn in one frame. Palettes and instances are uploaded as they are, each with
/// one write.
#[derive(Clone, Copy, Debug)]
pub struct Frame<'a> {
    /// Camera.
    pub camera: Camera,
    /// Lighting.
    pub light: Light,
    /// Linear clear colour (the sky).
    pub clear_color: [f64; 4],
    /// Every instance's palette, back to back.
    pub palettes: &'a [JointMatrix],
    /// Every instance, grouped by model through `batches`.
    pub instances: &'a [InstanceData],
    /// Which instances belong to which model.
    pub batches: &'a [ModelBatch],
    /// Debug lines drawn over the scene (depth-tested).
    pub lines: &'a [DebugLine],
}

/// Sky blue, linear.
pub const SKY: [f64; 4] = [0.36, 0.55, 0.85, 1.0];
