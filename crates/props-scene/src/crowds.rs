//! Each prop model's instances on the animation runtime: the model compiled for what the
//! scene animates on it ([`Program`]), the runtime's [`Crowd`] holding every instance's
//! animation state (layers, driver values, culling sphere), and where each instance stands.
//! The scene's systems write states and placements; [`PropCrowd::update`] poses the visible
//! instances into the frame's palettes and [`PropCrowd::extract`] lists them. The one code
//! path from clip to palette: the scene poses nothing itself.

use glam::Affine3A;
use props_anim::{Crowd, CrowdStats, JointMatrix, Layer, Pose, Program, Sharing, View, Workers, pose_state};
use props_frame::{FrameData, InstanceData, NO_TINT};

use crate::models::{Animated, PropModel};

/// One prop model's instances (see the module documentation). Instances are numbered from 0
/// in the order they were pushed; only the last can be removed.
#[derive(Clone, Debug)]
pub(crate) struct PropCrowd {
    animated: Animated,
    program: Program,
    crowd: Crowd,
    /// Each instance's placement, packed as the renderer takes it.
    placements: Vec<JointMatrix>,
    /// Each instance's paint ([`InstanceData::tint`]).
    tints: Vec<[u8; 4]>,
    /// Largest scale of an instance relative to the prop's.
    max_scale: f32,
    /// Culling radius of every instance, world units.
    radius: f32,
    /// Scratch poses for the reference path (skeleton lines).
    poses: (Pose, Pose),
}

/// Culling radius of `prop` drawn up to `max_scale` times its scale: its pose bound (every
/// clip, blend and driver angle), in world units.
fn culling_radius(prop: &PropModel, max_scale: f32) -> f32 {
    let radius = prop.model.pose_bounds().radius * f64::from(prop.scale * max_scale);
    if radius.is_finite() { radius as f32 } else { f32::INFINITY }
}

impl PropCrowd {
    /// No instances of `animated`, each with `layers` clip layers, sharing poses as `sharing`
    /// says, drawn at most `max_scale` times the prop's scale, evaluated in `runs` parallel
    /// runs.
    pub fn new(animated: Animated, layers: usize, sharing: Sharing, max_scale: f32, runs: usize) -> Self {
        let program = Program::new(&animated.prop.model, &animated.spec);
        let radius = culling_radius(&animated.prop, max_scale);
        let crowd = Crowd::new(&program, layers, sharing, radius, runs);
        let rig = animated.prop.model.rig();
        let poses = (Pose::from_rest(rig), Pose::from_rest(rig));
        Self { animated, program, crowd, placements: Vec::new(), tints: Vec::new(), max_scale, radius, poses }
    }

    /// The model.
    pub fn prop(&self) -> &PropModel {
        &self.animated.prop
    }

    /// The model, its program and its crowd.
    pub fn parts(&self) -> (&PropModel, &Program, &Crowd) {
        (&self.animated.prop, &self.program, &self.crowd)
    }

    /// Instances.
    pub fn len(&self) -> usize {
        self.placements.len()
    }

    /// Adds an instance standing at `placement` (no clip playing, drivers 0); returns its
    /// number.
    pub fn push(&mut self, placement: Affine3A) -> u32 {
        self.crowd.push(placement.translation.into());
        self.placements.push(JointMatrix::from_affine(&placement));
        self.tints.push(NO_TINT);
        (self.placements.len() - 1) as u32
    }

    /// Removes the last instance.
    pub fn pop(&mut self) {
        self.crowd.pop();
        self.placements.pop();
        self.tints.pop();
    }

    /// Moves instance `i`.
    pub fn set_placement(&mut self, i: u32, placement: Affine3A) {
        self.crowd.set_center(i as usize, placement.translation.into());
        self.placements[i as usize] = JointMatrix::from_affine(&placement);
    }

    /// Paints instance `i` ([`InstanceData::tint`]).
    pub fn set_tint(&mut self, i: u32, tint: [u8; 4]) {
        self.tints[i as usize] = tint;
    }

    /// Instance `i`'s paint.
    pub fn tint(&self, i: u32) -> [u8; 4] {
        self.tints[i as usize]
    }

    /// The sphere instance `i` stays within in any pose: its origin and the culling radius.
    pub fn bound(&self, i: u32) -> (glam::Vec3, f32) {
        (self.placements[i as usize].to_affine().translation.into(), self.radius)
    }

    /// Where instance `i` stands.
    pub fn placement(&self, i: u32) -> Affine3A {
        self.placements[i as usize].to_affine()
    }

    /// The clip layers of instance `i`, to set.
    pub fn layers_mut(&mut self, i: u32) -> &mut [Layer] {
        self.crowd.layers_mut(i as usize)
    }

    /// The driver values of instance `i`.
    pub fn drivers(&self, i: u32) -> &[f32] {
        self.crowd.drivers(i as usize)
    }

    /// A crowd like this one (sharing, scale, runs) for `animated` with `layers` clip layers
    /// per instance, and no instances.
    pub fn empty_like(&self, animated: Animated, layers: usize) -> Self {
        Self::new(animated, layers, self.crowd.sharing(), self.max_scale, self.crowd.runs())
    }

    /// The driver values of instance `i`, to set.
    pub fn drivers_mut(&mut self, i: u32) -> &mut [f32] {
        self.crowd.drivers_mut(i as usize)
    }

    /// Compiles `animated` (a new version of the model, with the same layers and drivers) and
    /// keeps every instance's state and placement.
    pub fn recompile(&mut self, animated: Animated) {
        let mut next = self.empty_like(animated, self.crowd.layer_count());
        for (i, placement) in self.placements.iter().enumerate() {
            let j = next.push(placement.to_affine());
            next.layers_mut(j).copy_from_slice(self.crowd.layers(i));
            next.drivers_mut(j).copy_from_slice(self.crowd.drivers(i));
            next.tints[j as usize] = self.tints[i];
        }
        *self = next;
    }

    /// Poses the visible instances due this frame into `palettes` (see [`Crowd::update`]).
    pub fn update(
        &mut self,
        view: Option<&View>,
        frame: u64,
        workers: Option<&Workers>,
        palettes: &mut Vec<JointMatrix>,
    ) -> CrowdStats {
        self.crowd.update(&self.program, view, frame, workers, palettes)
    }

    /// Palette matrices per pose.
    pub fn palette_len(&self) -> usize {
        self.program.palette_len()
    }

    /// Appends the instances the last [`PropCrowd::update`] saw, with their palettes, as one
    /// batch of the model.
    pub fn extract(&self, frame: &mut FrameData) {
        frame.instances.extend(self.crowd.visible().map(|(i, base)| InstanceData {
            transform: self.placements[i],
            palette_base: base,
            tint: self.tints[i],
            padding: [0; 2],
        }));
        frame.end_batch(self.animated.prop.id);
    }

    /// Poses instance `i` into `pose` and `scratch` (poses of the model's rig) on the general
    /// path, from its exact state (as the runtime would without sharing).
    fn pose_into(animated: &Animated, crowd: &Crowd, i: usize, pose: &mut Pose, scratch: &mut Pose) {
        let (model, spec) = (&*animated.prop.model, &animated.spec);
        pose_state(model, spec, crowd.layers(i), crowd.drivers(i), pose, scratch);
    }

    /// Instance `i`'s pose on the general path (allocates).
    pub fn pose(&self, i: u32) -> Pose {
        let rig = self.animated.prop.model.rig();
        let (mut pose, mut scratch) = (Pose::from_rest(rig), Pose::from_rest(rig));
        Self::pose_into(&self.animated, &self.crowd, i as usize, &mut pose, &mut scratch);
        pose
    }

    /// Calls `f` with the pose and placement of each of the first `limit` instances, posed on
    /// the general path in scratch poses kept for this.
    pub fn each_pose(&mut self, limit: usize, mut f: impl FnMut(&PropModel, &Affine3A, &Pose)) {
        let (pose, scratch) = &mut self.poses;
        for i in 0..self.placements.len().min(limit) {
            Self::pose_into(&self.animated, &self.crowd, i, pose, scratch);
            f(&self.animated.prop, &self.placements[i].to_affine(), pose);
        }
    }
}
