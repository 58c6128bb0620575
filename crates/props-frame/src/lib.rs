//! The plain per-frame data that flows from the scene to the renderer: every instance's
//! joint palette back to back, every instance's transform and palette base, which instances
//! belong to which model, the camera, the light and debug lines. No ECS, no GPU, no file
//! format: the scene fills a [`FrameData`] each frame (reusing its buffers) and the renderer
//! uploads it as it is. Beside the frames, a ground's heights ([`HeightField`]): what its hills
//! shadow.
//!
//! Two instances of one model, each with its palette written in place, then the frame a
//! renderer takes:
//!
//! ```
//! use glam::{Affine3A, Vec3};
//! use props_frame::{Camera, FrameData, Lighting, ModelId, SKY};
//! # let palette_len = 2;
//!
//! let mut frame = FrameData::default();
//! frame.clear(); // Each frame: the buffers stay, their contents go.
//! for x in [0.0, 10.0] {
//!     let palette = frame.push_instance(&Affine3A::from_translation(Vec3::new(x, 0.0, 0.0)), palette_len);
//!     palette.fill(props_anim::JointMatrix::IDENTITY); // `Model::write_palettes(&pose, palette)`
//! }
//! frame.end_batch(ModelId(0));
//! let camera = Camera::look_at(Vec3::new(5.0, 10.0, 30.0), Vec3::ZERO, 0.9, 16.0 / 9.0, (0.5, 500.0));
//! let frame = frame.to_frame(camera, Lighting::default(), SKY);
//! assert_eq!((frame.instances.len(), frame.palettes.len(), frame.batches.len()), (2, 4, 1));
//! ```

mod height_field;
mod orbit;

use std::ops::Range;

use glam::{Affine3A, Mat4, Vec3};
use props_anim::light::PlacedLight;
use props_anim::runtime::{DrawGroup, ReuseBuffer};
use props_anim::{JointMatrix, Model, Pose, runtime::PaletteBuffer};

pub use height_field::{HeightField, HeightFieldError};
pub use orbit::OrbitCamera;

/// A model's name for the renderer: chosen by whoever owns the models (the game's shelf),
/// and the id the renderer keeps the model's GPU copy under. Small numbers, from 0 up: the
/// renderer keeps a slot for every id up to the largest it was given (a hash for an id would
/// cost a slot per number below it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ModelId(pub u32);

/// Where a frame is seen from: the eye, and the projection times the view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// Projection times view, with wgpu's 0..1 depth range.
    pub view_projection: Mat4,
    /// Where it stands, world space (for specular highlights and reflections).
    pub eye: Vec3,
}

impl Camera {
    /// A perspective camera at `eye` looking at `target` (+Y up), for a target of `aspect`
    /// (width / height), seeing `vertical_fov` radians, from `near` to `far` metres.
    #[must_use]
    pub fn look_at(eye: Vec3, target: Vec3, vertical_fov: f32, aspect: f32, (near, far): (f32, f32)) -> Self {
        let projection = glam::camera::rh::proj::directx::perspective(vertical_fov, aspect, near, far);
        Self { view_projection: projection * glam::camera::rh::view::look_at_mat4(eye, target, Vec3::Y), eye }
    }
}

/// The light of a frame, in physical units: the sun (a directional light), an ambient term and
/// the sky's image-based light. A Lambertian surface of albedo `a` facing the sun returns
/// `a / pi * color`; the ambient adds `a / pi * ambient` (less the share a dielectric's
/// specular reflects).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lighting {
    /// Unit direction towards the sun, world space.
    pub direction: Vec3,
    /// Linear colour times intensity (the irradiance on a surface facing the sun).
    pub color: Vec3,
    /// Linear ambient light, diffuse only.
    pub ambient: Vec3,
    /// How strongly the sky lights the scene (its diffuse irradiance and prefiltered
    /// reflections); 0 for none.
    pub sky: f32,
}

impl Default for Lighting {
    /// The town's day: a warm sun high in the south-east and the blue sky's light.
    fn default() -> Self {
        Self {
            direction: Vec3::new(0.4, 0.8, 0.45).normalize(),
            color: Vec3::new(3.0, 2.85, 2.6),
            ambient: Vec3::ZERO,
            sky: 1.0,
        }
    }
}

/// One instance of a model: where it stands and where its palette starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct InstanceData {
    /// Model-to-world transform, 3x4 rows (same packing as the joint matrices).
    pub transform: JointMatrix,
    /// Index in [`Frame::palettes`] of this instance's first matrix: its palette is
    /// `palettes[palette_base..palette_base + model.palette_len()]`, laid out as
    /// `props_anim::Model::write_palettes` writes it.
    pub palette_base: u32,
    /// What the renderer may skip for this instance: [`InstanceData::MORPH_AT_REST`], or 0
    /// (the default) for nothing. Beside `palette_base`: the vertex stage reads both at once.
    pub flags: u32,
    /// Its colour, RGBA8 (sRGB-encoded RGB), painted over the base colour of its materials
    /// whose name holds `paint` as much as its alpha says: [`NO_TINT`] leaves them as they are.
    pub tint: [u8; 4],
    /// Padding to 64 bytes.
    pub padding: u32,
}

/// The tint that changes nothing.
pub const NO_TINT: [u8; 4] = [255, 255, 255, 0];

impl InstanceData {
    /// An instance at `transform` whose palette starts at `palette_base`, untinted.
    #[must_use]
    pub fn new(transform: &Affine3A, palette_base: u32) -> Self {
        Self { transform: JointMatrix::from_affine(transform), palette_base, flags: 0, tint: NO_TINT, padding: 0 }
    }

    /// A flag of [`InstanceData::flags`]: every morph weight in the instance's palette is zero
    /// (`props_anim::Model::morph_at_rest`), so its vertices are drawn as they are, without
    /// reading a weight or a delta. A crowd sets it; a host writing its own palettes may, and
    /// an instance without it is morphed as its weights say (zeros included, at their cost).
    pub const MORPH_AT_REST: u32 = 1;

    /// The same instance painted `tint` ([`InstanceData::tint`]).
    #[must_use]
    pub fn with_tint(self, tint: [u8; 4]) -> Self {
        Self { tint, ..self }
    }
}

/// Instances of one model drawn at one level of detail in one material variant, mirrored by
/// their placements or not: a range of [`Frame::instances`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelBatch {
    /// The model.
    pub model: ModelId,
    /// Its instances, a range of [`Frame::instances`].
    pub instances: Range<u32>,
    /// The level of detail they are drawn at: 0 in full, 1 and up the model's coarser levels
    /// (`props_anim::Model::lod_errors`; past its last, its last).
    pub level: u8,
    /// The material variant they are drawn in (`props_anim::Model::material_variants`); `None`,
    /// or one the model does not have: its own materials.
    pub material_variant: Option<u8>,
    /// Their placements mirror them (a negative determinant: a scale of -1 on one axis), so
    /// their faces wind the other way on screen and the other side is culled, as three.js
    /// culls by each object's determinant. A batch holds instances of one kind only.
    pub mirrored: bool,
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
    /// The sun, ambient and sky light.
    pub lighting: Lighting,
    /// Linear clear colour (the sky).
    pub clear_color: [f64; 4],
    /// Every instance's palette, back to back.
    pub palettes: &'a [JointMatrix],
    /// Every instance, grouped by model through `batches`.
    pub instances: &'a [InstanceData],
    /// Which instances belong to which model.
    pub batches: &'a [ModelBatch],
    /// Debug lines, drawn over the scene (not hidden by meshes).
    pub lines: &'a [DebugLine],
    /// Point and spot lights, world space (the props' and the host's), beside the sun.
    pub lights: &'a [PlacedLight],
}

/// How far from the eye point and spot lights are shaded, metres: they fade out before it
/// (the renderer), so a scene need not list the lights of props farther away.
pub const LIGHT_DISTANCE: f32 = 400.0;

/// Sky blue, linear.
pub const SKY: [f64; 4] = [0.36, 0.55, 0.85, 1.0];

/// Owned buffers for building a [`Frame`], reused frame after frame: clear, push instances
/// with [`FrameData::push_posed`] (or [`FrameData::push_instance`], writing the palette
/// yourself), close each model's run with [`FrameData::end_batch`].
#[derive(Clone, Debug, Default)]
pub struct FrameData {
    /// Every instance's palette, back to back (written over the last frame's in place).
    pub palettes: PaletteBuffer,
    /// Every instance (written over the last frame's in place).
    pub instances: ReuseBuffer<InstanceData>,
    /// Runs of instances per model.
    pub batches: Vec<ModelBatch>,
    /// Debug lines.
    pub lines: Vec<DebugLine>,
    /// Point and spot lights.
    pub lights: Vec<PlacedLight>,
}

impl FrameData {
    /// Empties every buffer, keeping their capacity.
    pub fn clear(&mut self) {
        self.palettes.clear();
        self.instances.clear();
        self.batches.clear();
        self.lines.clear();
        self.lights.clear();
    }

    /// Adds an instance at `transform` and returns its palette, `palette_len` identities to
    /// fill (for example with `props_anim::Model::write_palettes`).
    pub fn push_instance(&mut self, transform: &Affine3A, palette_len: usize) -> &mut [JointMatrix] {
        self.instances.push(InstanceData::new(transform, self.palettes.len() as u32));
        let palette = self.palettes.grow(palette_len);
        palette.fill(JointMatrix::IDENTITY);
        palette
    }

    /// Adds an instance of `model` at `transform` in `pose` (its world matrices computed),
    /// its palette written by `props_anim::Model::write_palettes`; one whose morph weights are
    /// all zero is marked [`InstanceData::MORPH_AT_REST`], so the renderer does not morph it.
    pub fn push_posed(&mut self, model: &Model, pose: &Pose, transform: &Affine3A) {
        let palette = self.push_instance(transform, model.palette_len());
        model.write_palettes(pose, palette);
        let at_rest = model.morph_at_rest(palette);
        if let Some(instance) = self.instances.last_mut().filter(|_| at_rest) {
            instance.flags |= InstanceData::MORPH_AT_REST;
        }
    }

    /// Adds an instance that reuses an existing palette starting at `palette_base` (pose
    /// sharing: instances in the same pose upload one palette).
    pub fn push_shared_instance(&mut self, transform: &Affine3A, palette_base: u32) {
        self.instances.push(InstanceData::new(transform, palette_base));
    }

    /// Closes the run of instances pushed since the previous batch as a batch of `model` in
    /// full detail, unmirrored (nothing is added when the run is empty).
    pub fn end_batch(&mut self, model: ModelId) {
        let start = self.batches.last().map_or(0, |b| b.instances.end as usize);
        let instances = (self.instances.len() - start) as u32;
        self.add_batch(model, DrawGroup { level: 0, material_variant: None, mirrored: false, instances });
    }

    /// Closes the `group.instances` instances after the previous batch (pushed, or grown and
    /// written in parts) as a batch of `model` drawn as `group` says ([`ModelBatch`]; nothing
    /// is added when there are none).
    pub fn add_batch(&mut self, model: ModelId, group: DrawGroup) {
        let DrawGroup { level, material_variant, mirrored, instances } = group;
        let start = self.batches.last().map_or(0, |b| b.instances.end);
        let end = start + instances;
        debug_assert!(end as usize <= self.instances.len(), "a batch of instances not pushed");
        if end > start {
            self.batches.push(ModelBatch { model, instances: start..end, level, material_variant, mirrored });
        }
    }

    /// The frame to draw, seen through `camera` and lit by `lighting`.
    #[must_use]
    pub fn to_frame(&self, camera: Camera, lighting: Lighting, clear_color: [f64; 4]) -> Frame<'_> {
        Frame {
            camera,
            lighting,
            clear_color,
            palettes: &self.palettes,
            instances: &self.instances,
            batches: &self.batches,
            lines: &self.lines,
            lights: &self.lights,
        }
    }
}
