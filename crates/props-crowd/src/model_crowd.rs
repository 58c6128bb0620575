//! [`ModelCrowd`]: one model's instances on the animation runtime: the model compiled for what
//! is animated on it ([`Program`]), the runtime's [`Crowd`] holding every instance's animation
//! state (layers, driver values, culling sphere), and where each instance stands and its paint.
//! A host (or a scene's kinds) writes states and placements; each frame [`crate::Posing`] has
//! every crowd plan (cull, share), pose the visible instances into the frame's palettes and
//! list them. The one code path from clip to palette: nothing above it poses.

use glam::Affine3A;
use props_anim::light::PlacedLight;
use props_anim::runtime::{CrowdStats, DrawGroup};
use props_anim::{
    JointMatrix, Layer, Pose, pose_state,
    runtime::Crowd,
    runtime::Program,
    runtime::View,
    runtime::Workers,
    runtime::{Quantization, Sharing},
};
use props_frame::{InstanceData, ModelId, NO_TINT};

use crate::close_up::CloseUp;
use crate::model::{BoundModel, PropModel};

/// One model's instances: their placements, paint and animation states, posed each frame (see
/// the module documentation). Instances are numbered from 0 in the order they were pushed;
/// removing one moves the last into its place.
#[derive(Clone, Debug)]
pub struct ModelCrowd {
    model: BoundModel,
    program: Program,
    crowd: Crowd,
    /// Each instance's placement, packed as the renderer takes it.
    placements: Vec<JointMatrix>,
    /// Each instance's paint ([`InstanceData::tint`]).
    tints: Vec<[u8; 4]>,
    /// Culling radius of an instance placed at scale 1, model units: its pose bound.
    radius: f32,
    /// Scratch poses for the general path (skeleton lines, close-ups).
    poses: (Pose, Pose),
    /// Near instances posed close up: their feet held on the ground (none until
    /// [`ModelCrowd::set_feet`]), their spring bones swung (the model's).
    close_up: CloseUp,
}

/// How crowds share poses and split their work: what [`crate::Posing::crowd_options`] gives
/// every crowd it poses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrowdOptions {
    /// Pose sharing (see [`crate::PosingConfig::sharing`]).
    pub sharing: Option<Quantization>,
    /// Parallel runs each crowd poses in.
    pub runs: usize,
}

/// Culling radius of `prop` at scale 1: its pose bound (every clip, blend and driver angle),
/// in model units.
fn culling_radius(prop: &PropModel) -> f32 {
    let radius = prop.model.pose_bounds().radius;
    if radius.is_finite() { radius as f32 } else { f32::INFINITY }
}

/// How much `placement` enlarges the model: its largest axis scale, what its culling sphere
/// and its levels' errors grow by.
fn placement_scale(placement: &Affine3A) -> f32 {
    let m = placement.matrix3;
    m.x_axis.length_squared().max(m.y_axis.length_squared()).max(m.z_axis.length_squared()).sqrt()
}

impl ModelCrowd {
    /// No instances of `model`, sharing poses and split into runs as `options` say (a
    /// discrete model shares only equal states).
    #[must_use]
    pub fn new(model: BoundModel, options: CrowdOptions) -> Self {
        let CrowdOptions { sharing, runs } = options;
        let program = Program::new(&model.prop.model, &model.spec);
        let radius = culling_radius(&model.prop);
        let mode = match sharing {
            None => Sharing::None,
            Some(_) if model.discrete => Sharing::Exact,
            Some(q) => Sharing::Quantized(q),
        };
        let mut crowd = Crowd::new(&program, model.layers, mode, radius, runs);
        // In model units, as the culling radius: each instance's placement scales both.
        let model_lods = &model.prop.model;
        let triangles: Vec<u32> = (0..model_lods.lod_errors().len())
            .map(|k| model_lods.lod_triangles(k).min(u32::MAX as usize) as u32)
            .collect();
        crowd.set_levels(model_lods.lod_errors(), &triangles);
        crowd.set_metres_per_unit(model.prop.scale);
        let skeleton = model.prop.model.rig();
        let poses = (Pose::from_rest(skeleton), Pose::from_rest(skeleton));
        let springs = model.prop.model.springs();
        let close_up = CloseUp::new((!springs.is_empty()).then(|| springs.state()));
        Self { model, program, crowd, placements: Vec::new(), tints: Vec::new(), radius, poses, close_up }
    }

    /// The model.
    #[must_use]
    pub fn prop(&self) -> &PropModel {
        &self.model.prop
    }

    /// The model with what is animated on it.
    #[must_use]
    pub fn model(&self) -> &BoundModel {
        &self.model
    }

    /// The model, its program and its crowd.
    #[must_use]
    pub fn parts(&self) -> (&PropModel, &Program, &Crowd) {
        (&self.model.prop, &self.program, &self.crowd)
    }

    /// Instances.
    #[must_use]
    pub fn len(&self) -> usize {
        self.placements.len()
    }

    /// Whether it has no instances.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.placements.is_empty()
    }

    /// Adds an instance standing at `placement` (no clip playing, drivers 0); returns its
    /// number.
    pub fn push(&mut self, placement: Affine3A) -> u32 {
        let i = self.crowd.push(placement.translation.into());
        self.placements.push(JointMatrix::IDENTITY);
        self.set_placement(i as u32, placement);
        self.tints.push(NO_TINT);
        self.close_up.push();
        (self.placements.len() - 1) as u32
    }

    /// Removes the last instance.
    pub fn pop(&mut self) {
        self.crowd.pop();
        self.placements.pop();
        self.tints.pop();
        self.close_up.pop();
    }

    /// Removes instance `i`, moving the last instance into its place (its number becomes
    /// `i`, as `Vec::swap_remove`); `false` when there is no instance `i`.
    pub(crate) fn swap_remove(&mut self, i: u32) -> bool {
        let i = i as usize;
        if i >= self.placements.len() || !self.crowd.swap_remove(i) {
            return false;
        }
        self.placements.swap_remove(i);
        self.tints.swap_remove(i);
        self.close_up.swap_remove(i);
        true
    }

    /// Moves instance `i`.
    pub fn set_placement(&mut self, i: u32, placement: Affine3A) {
        self.crowd.place(i as usize, placement.translation.into(), placement_scale(&placement));
        self.crowd.set_mirrored(i as usize, placement.matrix3.determinant() < 0.0);
        self.placements[i as usize] = JointMatrix::from_affine(&placement);
    }

    /// Paints instance `i` ([`InstanceData::tint`]; the model's materials whose name holds `paint`).
    pub fn set_tint(&mut self, i: u32, tint: [u8; 4]) {
        self.tints[i as usize] = tint;
    }

    /// Instance `i`'s paint.
    #[must_use]
    pub fn tint(&self, i: u32) -> [u8; 4] {
        self.tints[i as usize]
    }

    /// Draws instance `i` in the model's material variant `material_variant` (a number of
    /// `props_anim::Model::material_variants`, found by name with
    /// `props_anim::Model::material_variant`; `None` or one the model does not have: its own
    /// materials).
    pub fn set_material_variant(&mut self, i: u32, material_variant: Option<u8>) {
        let material_variant =
            material_variant.filter(|&v| usize::from(v) < self.model.prop.model.material_variants().len());
        self.crowd.set_material_variant(i as usize, material_variant);
    }

    /// Instance `i`'s material variant ([`ModelCrowd::set_material_variant`]).
    #[must_use]
    pub fn material_variant(&self, i: u32) -> Option<u8> {
        self.crowd.material_variant(i as usize)
    }

    /// The sphere instance `i` stays within in any pose: its origin and its culling radius,
    /// world units.
    #[must_use]
    pub fn sphere(&self, i: u32) -> (glam::Vec3, f32) {
        let placement = self.placements[i as usize].to_affine();
        (placement.translation.into(), self.radius * placement_scale(&placement))
    }

    /// Where instance `i` stands.
    #[must_use]
    pub fn placement(&self, i: u32) -> Affine3A {
        self.placements[i as usize].to_affine()
    }

    /// Holds the feet of the model's legs on the ground by IK on the near instances (those the
    /// update-rate LOD poses every frame; see `close_up.rs`), each `feet` entry a foot (the
    /// lowest joint of a leg, as [`props_anim::gait::Stride::feet`] finds them) and the leg
    /// above it, at most eight; none: no IK. [`ModelCrowd::set_planted`] says, as the props
    /// move, which feet are down.
    pub fn set_feet(&mut self, feet: Vec<(props_anim::NodeId, props_anim::gait::ik::Leg)>) {
        self.close_up.set_feet(feet, self.len());
    }

    /// Plants the held feet on `ground` (its height at a world (x, z)): on a hill, a foot comes
    /// down as far above or below where the pose puts it as the ground there is above or below
    /// the ground under the instance; `None` (the default): level with where each instance
    /// stands.
    pub fn set_ground(&mut self, ground: Option<crate::Ground>) {
        self.close_up.set_ground(ground);
    }

    /// The feet instance `i` has planted near the camera this frame and the world points they
    /// are held at: where each came down, on the ground (none when it was not posed close up).
    pub fn pinned_feet(&self, i: u32) -> impl Iterator<Item = (props_anim::NodeId, glam::Vec3)> + '_ {
        self.close_up.pinned(i as usize)
    }

    /// The feet held ([`ModelCrowd::set_feet`]), in the order of [`ModelCrowd::set_planted`]'s
    /// bits.
    #[must_use]
    pub fn feet(&self) -> &[(props_anim::NodeId, props_anim::gait::ik::Leg)] {
        self.close_up.feet()
    }

    /// Instance `i` has moved on by `dt` seconds and its feet `planted()` now (bit `k`: foot
    /// `k` of [`ModelCrowd::set_feet`]): a planted foot of a near instance stays where it came
    /// down until it lifts. `planted` is called only for an instance whose feet the last frame
    /// held: the others' feet are not looked at (one coming near is held from its next step).
    pub fn set_planted(&mut self, i: u32, dt: f32, planted: impl FnOnce() -> u8) {
        self.close_up.set(i as usize, dt, planted);
    }

    /// Instance `i`'s scale: its placement's largest axis scale.
    pub(crate) fn placement_scale(&self, i: u32) -> f32 {
        self.crowd.scale(i as usize)
    }

    /// The clip layers of instance `i`, to set.
    pub fn layers_mut(&mut self, i: u32) -> &mut [Layer] {
        self.crowd.layers_mut(i as usize)
    }

    /// The first clip number `lacks` picks that some instance plays.
    pub(crate) fn first_played(&self, lacks: impl Fn(u16) -> bool) -> Option<u16> {
        let mut layers = (0..self.len() as u32).flat_map(|i| self.layers(i));
        layers.find(|l| l.is_active() && lacks(l.clip)).map(|l| l.clip)
    }

    /// Stops every layer playing a clip number `lacks` picks.
    pub(crate) fn stop_clips(&mut self, lacks: impl Fn(u16) -> bool) {
        for i in 0..self.len() as u32 {
            for layer in self.layers_mut(i) {
                if layer.is_active() && lacks(layer.clip) {
                    *layer = Layer::NONE;
                }
            }
        }
    }

    /// The clip layers of instance `i`.
    #[must_use]
    pub fn layers(&self, i: u32) -> &[Layer] {
        self.crowd.layers(i as usize)
    }

    /// The driver values of instance `i`.
    #[must_use]
    pub fn drivers(&self, i: u32) -> &[f32] {
        self.crowd.drivers(i as usize)
    }

    /// The driver values of instance `i`, to set.
    pub fn drivers_mut(&mut self, i: u32) -> &mut [f32] {
        self.crowd.drivers_mut(i as usize)
    }

    /// Every instance's driver values back to back (see [`Crowd::all_drivers_mut`]).
    pub fn all_drivers_mut(&mut self) -> &mut [f32] {
        self.crowd.all_drivers_mut()
    }

    /// Adds a copy of instance `i` of `other` (a crowd of another version of the model): its
    /// placement, state (the layers and drivers both have), paint and material variant (by
    /// name: none where this version has no variant of its name); returns its number.
    pub fn push_copy(&mut self, other: &ModelCrowd, i: u32) -> u32 {
        let j = self.push(other.placement(i));
        // As many layers and drivers as both have (a host may change what it animates).
        for (to, from) in self.crowd.layers_mut(j as usize).iter_mut().zip(other.layers(i)) {
            *to = *from;
        }
        for (to, from) in self.crowd.drivers_mut(j as usize).iter_mut().zip(other.drivers(i)) {
            *to = *from;
        }
        self.tints[j as usize] = other.tints[i as usize];
        // The variant of the same name, if this version has one.
        let name = other.material_variant(i).and_then(|v| other.prop().model.material_variants().get(usize::from(v)));
        self.set_material_variant(
            j,
            name.and_then(|material_variant| self.prop().model.material_variant(&material_variant.name)),
        );
        j
    }

    /// Adds a copy of every instance of `other`, in order (see [`ModelCrowd::push_copy`]).
    pub fn take_instances(&mut self, other: &ModelCrowd) {
        for i in 0..other.len() as u32 {
            self.push_copy(other, i);
        }
    }

    /// Plans this frame's poses (see [`Crowd::plan`]), `dt` seconds after the last, and the
    /// near instances posed close up (their feet held, their springs swung); returns the
    /// palette matrices they take.
    pub(crate) fn plan(&mut self, view: Option<&View>, (frame, dt): (u64, f32), workers: Option<&Workers>) -> usize {
        self.crowd.plan(&self.program, view, frame, workers);
        self.close_up.plan(&self.crowd, &self.placements, view, dt);
        self.planned()
    }

    /// Palette matrices the last [`ModelCrowd::plan`] planned: the crowd's, then one palette
    /// per instance posed close up.
    pub(crate) fn planned(&self) -> usize {
        self.crowd.planned() + self.close_ups() * self.palette_len()
    }

    /// Instances the last [`ModelCrowd::plan`] poses close up.
    pub(crate) fn close_ups(&self) -> usize {
        self.close_up.near_len()
    }

    /// Poses what the last [`ModelCrowd::plan`] planned into `out`, which the frame's palette
    /// buffer holds from matrix `start` on (see [`Crowd::write`]), then the near instances
    /// close up.
    pub(crate) fn write(&mut self, workers: Option<&Workers>, start: usize, out: &mut [JointMatrix]) -> CrowdStats {
        let posed = self.crowd.planned();
        let (crowd, held) = out.split_at_mut(posed);
        let stats = self.crowd.write(&self.program, workers, start, crowd);
        let instances = (&self.model, &self.crowd, &*self.placements, self.radius);
        self.close_up.write(instances, &mut self.poses, start + posed, held);
        stats
    }

    /// Palette matrices per pose.
    #[must_use]
    pub fn palette_len(&self) -> usize {
        self.program.palette_len()
    }

    /// Instances the last posing saw.
    pub(crate) fn visible_len(&self) -> usize {
        self.crowd.visible().len()
    }

    /// Their groups by level of detail and material variant, in the order they are listed
    /// ([`Crowd::batches`]).
    pub(crate) fn batches(&self) -> impl Iterator<Item = DrawGroup> + '_ {
        self.crowd.batches()
    }

    /// The renderer's id of its model.
    pub(crate) fn model_id(&self) -> ModelId {
        self.model.prop.id
    }

    /// Writes the instances the last posing saw, from number `from` of them on, with their
    /// palettes' offsets, into `out` (as many as it holds); those whose morph weights in
    /// `palettes` (the frame's, written) are all zero are marked so
    /// ([`InstanceData::MORPH_AT_REST`]): the renderer draws them without morphing.
    pub(crate) fn extract_into(&self, from: usize, palettes: &[JointMatrix], out: &mut [InstanceData]) {
        let model = &self.model.prop.model;
        let (morphed, len) = (model.morph_weight_count() > 0, model.palette_len());
        let seen = self.crowd.visible_in(from..from + out.len());
        for (slot, (i, base)) in out.iter_mut().zip(seen) {
            let palette_base = self.close_up.base(i).unwrap_or(base);
            let at_rest = morphed
                && palettes
                    .get(palette_base as usize..palette_base as usize + len)
                    .is_some_and(|p| model.morph_at_rest(p));
            *slot = InstanceData {
                transform: self.placements[i],
                palette_base,
                flags: if at_rest { InstanceData::MORPH_AT_REST } else { 0 },
                tint: self.tints[i],
                padding: 0,
            };
        }
    }

    /// Appends the lit lights of the instances the last posing saw, from their palettes in
    /// `palettes` (the frame's), to `out`; with an `eye`, only those of instances within
    /// [`props_frame::LIGHT_DISTANCE`] of it (and their culling radius).
    pub(crate) fn lights_into(&self, palettes: &[JointMatrix], eye: Option<glam::Vec3>, out: &mut Vec<PlacedLight>) {
        let model = &self.model.prop.model;
        if !model.has_placed_lights() {
            return;
        }
        let len = model.palette_len();
        let reach = props_frame::LIGHT_DISTANCE + self.radius;
        for (i, base) in self.crowd.visible_in(0..self.visible_len()) {
            let base = self.close_up.base(i).unwrap_or(base);
            let [x, y, z] = self.placements[i].rows.map(|row| row[3]);
            if eye.is_some_and(|eye| eye.distance_squared(glam::Vec3::new(x, y, z)) > reach * reach) {
                continue;
            }
            let Some(palette) = palettes.get(base as usize..base as usize + len) else { continue };
            out.extend(model.placed_lights(palette, &self.placements[i]));
        }
    }

    /// Poses instance `i` into `pose` and `scratch` (poses of the model's rig) on the general
    /// path, from its exact state (as the runtime would without sharing).
    fn pose_into(model: &BoundModel, crowd: &Crowd, i: usize, pose: &mut Pose, scratch: &mut Pose) {
        let (model, spec) = (&*model.prop.model, &model.spec);
        pose_state(model, spec, crowd.layers(i), crowd.drivers(i), pose, scratch);
    }

    /// Instance `i`'s pose on the general path (allocates).
    #[must_use]
    pub fn pose(&self, i: u32) -> Pose {
        let skeleton = self.model.prop.model.rig();
        let (mut pose, mut scratch) = (Pose::from_rest(skeleton), Pose::from_rest(skeleton));
        Self::pose_into(&self.model, &self.crowd, i as usize, &mut pose, &mut scratch);
        pose
    }

    /// Calls `f` with the pose and placement of each of the first `limit` instances, posed on
    /// the general path in scratch poses kept for this.
    pub fn each_pose(&mut self, limit: usize, mut f: impl FnMut(&PropModel, &Affine3A, &Pose)) {
        let (pose, scratch) = &mut self.poses;
        for i in 0..self.placements.len().min(limit) {
            Self::pose_into(&self.model, &self.crowd, i, pose, scratch);
            f(&self.model.prop, &self.placements[i].to_affine(), pose);
        }
    }
}
