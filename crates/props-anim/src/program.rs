//! [`Program`]: one model compiled for evaluating the animation state of many instances
//! fast, and the per-thread [`Scratch`] it works in.
//!
//! Compiled once from the model and a [`Spec`] (the clips instances may play, the drivers
//! and masks their states may use): every clip baked (`baked.rs`), the nodes to compute
//! in rig order (only those that can move, that is animated by some clip, turned by a driver,
//! set by a constraint or below such a node, and that some palette matrix needs), every constant (rest locals,
//! world matrices of nodes that never move, palette matrices that never change). A state is
//! evaluated as [`crate::pose_state`] defines it (layers blended in order, then drivers, then
//! the rig's node constraints), four
//! instances at once, one per SIMD lane (`rows4.rs`): sampling, blending, drivers,
//! hierarchy and palettes. There is no single-instance code: fewer than four instances are
//! evaluated with lanes repeated, so an instance's result never depends on which instances
//! share its batch (and so on the thread count). Nothing is allocated per instance or per
//! frame; the palette is written straight into the caller's buffer, in
//! [`Model::write_palettes`]'s layout.

mod compile;
mod constrain;

use glam::{Quat, Vec4};

use crate::JointMatrix;
use crate::baked::{BakedClip, Found, Local4};
use crate::clip::{Channel, PropertyChannel};
use crate::model::Model;
use crate::node_id::NodeId;
use crate::rows::Rows;
use crate::rows4::Rows4;
use crate::state::{Blend, Layer, Spec};
use crate::trig::sin_cos4;
use crate::visibility::Visibility;

/// Four lanes of a local transform by component: `[translation, rotation, scale]`, each
/// `[x of each lane, y, z, w]`.
type Lanes = [[Vec4; 4]; 3];

/// Where a moving node's local matrix comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Local {
    /// Computed: local transform slot, and whether its scale may differ from 1.
    Slot { slot: u32, scaled: bool },
    /// Its rest local matrix (a node without a slot below a moving node).
    Fixed(Rows),
}

/// One node computed per instance: `world[node] = world[parent] * local` (in a scratch's
/// world matrices: by rig node while compiling, then by their compact index).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Step {
    node: u32,
    parent: Option<u32>,
    local: Local,
}

/// One clip of the program.
#[derive(Clone, Debug, PartialEq)]
struct ProgramClip {
    baked: BakedClip,
    /// Where each track writes: `slot * 3 + property`.
    track_slots: Vec<u32>,
    /// Constant channels on slots: `slot * 3 + property` and the value.
    constants: Vec<(u32, Vec4)>,
    /// The `slot * 3 + property` entries the clip does not write: rest when it is sampled.
    unwritten: Vec<u32>,
    /// The clip at time 0, by slot: what an additive layer's change is measured from.
    reference: Vec<Local4>,
    /// Offset of this clip's key cursors among an instance's.
    cursor_offset: usize,
    /// The clip's duration, seconds.
    duration: f32,
    /// Its morph weight channels, each with its node's range of weights.
    morph: Vec<(Channel, std::ops::Range<usize>)>,
    /// The morph weights at time 0 (rest where it writes none): an additive layer's
    /// reference.
    morph_reference: Vec<f32>,
    /// Its property channels, each with its property's range of values.
    properties: Vec<(PropertyChannel, std::ops::Range<usize>)>,
    /// Whether, played as a replacing layer at full weight without a mask, it decides the
    /// whole pose whatever the layers below: it animates every property some clip of the
    /// program animates (node transforms and morph weights it replaces whole, with their
    /// rest values where it has no channel).
    covers: bool,
    /// The property values at time 0 (rest where it writes none): an additive layer's
    /// reference.
    property_reference: Vec<f32>,
}

/// The model's animated properties ([`crate::property::Properties`]): rest values, how each
/// blends, and where they go.
#[derive(Clone, Debug, PartialEq, Default)]
struct Animated {
    /// Rest values (empty when the model animates no property: nothing to evaluate).
    defaults: Vec<f32>,
    /// Per property: its range of values and whether it is a boolean.
    layout: Vec<(std::ops::Range<usize>, bool)>,
    /// Per mask, the weight of each property (its node's for a visibility, 1 for the others,
    /// which follow the layer's weight).
    masks: Vec<Vec<f32>>,
    /// The mesh instances visibility can hide, packed after the values.
    visibility: Visibility,
    /// Palette slot of the first value ([`Model::property_slot`]).
    slot: usize,
}

/// The model's morph weights: defaults, the nodes that have some, and where they go.
#[derive(Clone, Debug, PartialEq, Default)]
struct Morph {
    /// The rig's default weights (empty when no node has weights: nothing to evaluate).
    defaults: Vec<f32>,
    /// Nodes with weights, and their range.
    nodes: Vec<(NodeId, std::ops::Range<usize>)>,
    /// Per mask, the weight of each node of `nodes`.
    masks: Vec<Vec<f32>>,
    /// Palette slot of the first weight ([`Model::weight_slot`]).
    slot: usize,
}

/// A driver's targets: slots, with each node's rest rotation.
#[derive(Clone, Debug, PartialEq)]
struct ProgramDriver {
    axis: [Vec4; 3],
    targets: Vec<(u32, Quat)>,
}

/// A value instances set directly ([`crate::ValueTarget`]): where it goes, and the first of its
/// driver values.
#[derive(Clone, Debug, PartialEq)]
enum ProgramValue {
    Morph { weight: usize, driver: usize },
    Property { range: std::ops::Range<usize>, driver: usize },
}

/// A model compiled for a [`Spec`] (see the module documentation). Build once per model and
/// spec (rebuild after a model reload); evaluate with [`Program::write_palettes4`].
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    clips: Vec<ProgramClip>,
    /// Rest local of each slot, in every lane.
    base: Vec<Lanes>,
    /// The world matrices a scratch holds at first, only those the steps and the palette
    /// read: a fixed node's (a step's parent that never moves), or identity for a step's own.
    /// Steps, joints and nodes name them by index here, not by rig node.
    world_base: Vec<Rows>,
    steps: Vec<Step>,
    /// Palette matrices `(index, world, matrix)` of moving skin joints (palette =
    /// `world[world] * matrix`: the joint's inverse bind; for a joint with a fixed local whose
    /// world nothing else needs, its parent's and its local times its inverse bind), with
    /// `matrix` in every lane; `(index, world)` of moving mesh nodes; the rest never change.
    joints: Vec<(u32, u32, Rows4)>,
    nodes: Vec<(u32, u32)>,
    constant: Vec<(u32, JointMatrix)>,
    drivers: Vec<ProgramDriver>,
    /// The rig's node constraints, run after the drivers.
    constraints: constrain::ProgramConstraints,
    values: Vec<ProgramValue>,
    /// Driver values per instance: the drivers' angles, then the values'.
    driver_values: usize,
    /// Per mask, the weight of each slot.
    masks: Vec<Vec<f32>>,
    morph: Morph,
    animated: Animated,
    palette_len: usize,
    cursor_len: usize,
    max_groups: usize,
}

/// Per-thread working memory of a [`Program`]. Made by [`Program::scratch`], for that program
/// only; reused for every batch.
#[derive(Clone, Debug, PartialEq)]
pub struct Scratch {
    /// The pose being built, by slot.
    locals: Vec<Lanes>,
    /// A blended layer's clip pose, by slot.
    sample: Vec<Lanes>,
    /// Whether `locals` holds anything but the rest pose (in its entries no driver or
    /// constraint sets whole each time).
    dirty: bool,
    /// Each lane's key positions, and its key cursors (only for clips with uneven keys; a
    /// cursor left by another instance is as good as none: the result is the same).
    found: [Vec<Found>; 4],
    cursors: [Vec<u32>; 4],
    /// The four lanes' world matrices, those the program reads ([`Program`]'s `world_base`).
    world: Vec<Rows4>,
    /// One lane's morph weights, and a blended layer's.
    weights: Vec<f32>,
    sample_weights: Vec<f32>,
    /// One lane's property values, and a blended layer's.
    values: Vec<f32>,
    sample_values: Vec<f32>,
    /// One lane's world matrices of the nodes the rig's constraints' aims read.
    constraint_worlds: Vec<glam::Affine3A>,
}

/// One instance of a batch of four: its state, and where its palette goes (in `out`).
#[derive(Clone, Copy, Debug)]
pub struct LaneState<'s> {
    /// Layers, in order (see [`crate::pose_state`]).
    pub layers: &'s [Layer],
    /// One value per driver of the program's spec, radians.
    pub drivers: &'s [f32],
    /// Offset of its [`Program::palette_len`] palette matrices.
    pub palette: usize,
}

/// What decides how a layer is evaluated: the clip (or [`Layer::OFF`] when the layer is
/// inactive), the blend, the mask, and whether it is at full weight. Lanes evaluated together
/// must agree on it for every layer.
fn layer_signature(layer: Layer) -> (u16, Blend, u8, bool) {
    let clip = if layer.is_active() { layer.clip } else { Layer::OFF };
    (clip, layer.blend, layer.mask, layer.weight == 1.0)
}

/// The signatures of a state's layers packed into a number, to group states into batches
/// quickly: equal states give equal codes (different ones may collide beyond two layers; a
/// batch is checked with [`LaneState::same_signature`] before it is evaluated).
#[must_use]
pub fn signature_code(layers: &[Layer]) -> u64 {
    layers.iter().fold(0u64, |code, &layer| {
        let (clip, blend, mask, full) = layer_signature(layer);
        let packed =
            u64::from(clip) | u64::from(blend == Blend::Additive) << 16 | u64::from(mask) << 17 | u64::from(full) << 25;
        code.rotate_left(26) ^ packed
    })
}

impl LaneState<'_> {
    fn signature(&self, layer: usize) -> (u16, Blend, u8, bool) {
        layer_signature(self.layers.get(layer).copied().unwrap_or(Layer::NONE))
    }

    /// Whether `other` can share a batch with this lane.
    #[must_use]
    pub fn same_signature(&self, other: &LaneState<'_>) -> bool {
        let layers = self.layers.len().max(other.layers.len());
        (0..layers).all(|l| self.signature(l) == other.signature(l))
    }
}

/// The local `(translation, rotation, scale)` of a node as lanes, from one transform.
fn splat(local: &Local4) -> Lanes {
    local.map(|v| [Vec4::splat(v.x), Vec4::splat(v.y), Vec4::splat(v.z), Vec4::splat(v.w)])
}

/// Shortest-path normalized lerp of four rotations by component (lane by lane, the
/// arithmetic of [`crate::clip::interpolate::nlerp`]).
#[inline]
fn nlerp4(a: [Vec4; 4], b: [Vec4; 4], w: Vec4) -> [Vec4; 4] {
    let dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    let flip = dot.cmplt(Vec4::ZERO);
    let keep = Vec4::ONE - w;
    let q = [0, 1, 2, 3].map(|c| a[c] * keep + Vec4::select(flip, -b[c], b[c]) * w);
    let length = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    [q[0] / length, q[1] / length, q[2] / length, q[3] / length]
}

/// Hamilton product `a * b` of four quaternion pairs by component.
#[inline]
fn multiply4(a: [Vec4; 4], b: [Vec4; 4]) -> [Vec4; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

impl Program {
    /// A program for one clip of `model`, no driver or mask: instances play `Layer::once(0,
    /// time)`.
    ///
    /// # Panics
    /// If `clip` is not a clip index of `model`.
    #[must_use]
    pub fn for_clip(model: &Model, clip: usize) -> Self {
        Self::new(model, &Spec { clips: vec![clip], ..Spec::default() })
    }

    /// Driver values per instance: the spec's drivers' angles, then its values
    /// ([`Spec::driver_values`]).
    #[must_use]
    pub fn driver_count(&self) -> usize {
        self.driver_values
    }

    /// Driver values per instance that are angles (the first ones; the rest are values).
    #[must_use]
    pub(crate) fn angle_count(&self) -> usize {
        self.drivers.len()
    }

    /// Matrices per palette ([`Model::palette_len`]).
    #[must_use]
    pub fn palette_len(&self) -> usize {
        self.palette_len
    }

    /// The duration of clip `clip` of the spec, seconds.
    ///
    /// # Panics
    /// If `clip` is not an index into the spec's clips.
    #[must_use]
    pub fn duration(&self, clip: usize) -> f32 {
        self.clips[clip].duration
    }

    /// Whether `layer` (active, at full weight) decides the whole pose, whatever the layers
    /// below it: a replacing layer without a mask, of a clip that animates every property the
    /// program's clips animate.
    pub(crate) fn covers(&self, layer: &Layer) -> bool {
        layer.blend == Blend::Replace && layer.mask == Layer::NO_MASK && self.clips[layer.clip as usize].covers
    }

    /// Working memory for [`Program::write_palettes4`] (allocates; make one per thread and
    /// keep it).
    #[must_use]
    pub fn scratch(&self) -> Scratch {
        Scratch {
            locals: self.base.clone(),
            sample: self.base.clone(),
            dirty: false,
            found: std::array::from_fn(|_| vec![Found::default(); self.max_groups]),
            cursors: std::array::from_fn(|_| vec![0; self.cursor_len]),
            world: self.world_base.iter().map(Rows4::splat).collect(),
            weights: self.morph.defaults.clone(),
            sample_weights: self.morph.defaults.clone(),
            values: self.animated.defaults.clone(),
            sample_values: self.animated.defaults.clone(),
            constraint_worlds: self.constraints.worlds(),
        }
    }

    /// Evaluates four instances, one per lane, writing each palette at its lane's offset of
    /// `out`. Lanes that repeat one instance (padding a batch of fewer than four) write the
    /// same bits twice. Lanes must share their signature ([`LaneState::same_signature`]); lanes
    /// that do not are evaluated one at a time. An instance's result depends on its state
    /// only, never on the other lanes.
    ///
    /// # Panics
    /// If a palette lies outside `out`, a layer names a clip or mask the spec does not have,
    /// a lane has fewer drivers than the spec, or `scratch` was made by another program.
    pub fn write_palettes4(&self, lanes: [LaneState<'_>; 4], scratch: &mut Scratch, out: &mut [JointMatrix]) {
        if !lanes[1..].iter().all(|lane| lane.same_signature(&lanes[0])) {
            for lane in lanes {
                self.write_palettes4([lane; 4], scratch, out);
            }
            return;
        }
        self.pose4(&lanes, scratch);
        self.drive4(&lanes, scratch);
        self.constrain4(scratch);
        let Scratch { locals, world, .. } = scratch;
        for step in &self.steps {
            let local = match step.local {
                Local::Slot { slot, scaled } => {
                    let [t, r, s] = locals[slot as usize];
                    Rows4::from_trs(t, r, s, scaled)
                }
                Local::Fixed(rows) => Rows4::splat(&rows),
            };
            world[step.node as usize] = match step.parent {
                Some(parent) => world[parent as usize].mul(&local),
                None => local,
            };
        }
        let bases = lanes.map(|lane| lane.palette);
        let at = |index: u32| bases.map(|base| base + index as usize);
        for (index, node, matrix) in &self.joints {
            world[*node as usize].mul(matrix).write(at(*index), out);
        }
        for &(index, node) in &self.nodes {
            world[node as usize].write(at(index), out);
        }
        for &(index, matrix) in &self.constant {
            for at in at(index) {
                out[at] = matrix;
            }
        }
        if !self.morph.defaults.is_empty() {
            for lane in &lanes {
                self.weights(lane, scratch);
                for value in &self.values {
                    if let ProgramValue::Morph { weight, driver } = *value {
                        scratch.weights[weight] = lane.drivers[driver];
                    }
                }
                let slots = lane.palette + self.morph.slot..lane.palette + self.palette_len;
                crate::palette::write_weights(&scratch.weights, &mut out[slots]);
            }
        }
        if !self.animated.defaults.is_empty() {
            for lane in &lanes {
                self.property_values(lane, scratch);
                for value in &self.values {
                    if let ProgramValue::Property { range, driver } = value {
                        scratch.values[range.clone()].copy_from_slice(&lane.drivers[*driver..*driver + range.len()]);
                    }
                }
                let slots = lane.palette + self.animated.slot..lane.palette + self.palette_len;
                crate::palette::write_values(self.animated.visibility.packed(&scratch.values), &mut out[slots]);
            }
        }
    }

    /// One lane's property values into `scratch.values`, its layers blended as
    /// [`crate::pose_state`] blends them (one lane at a time, as morph weights).
    fn property_values(&self, lane: &LaneState<'_>, scratch: &mut Scratch) {
        let Scratch { values, sample_values, .. } = scratch;
        values.copy_from_slice(&self.animated.defaults);
        let mut first = true;
        for layer in lane.layers.iter().filter(|layer| layer.is_active()) {
            let clip = &self.clips[layer.clip as usize];
            let mask = (layer.mask != Layer::NO_MASK).then(|| &self.animated.masks[layer.mask as usize]);
            let direct = first && layer.weight == 1.0 && layer.blend == Blend::Replace && mask.is_none();
            first = false;
            let target = if direct { &mut *values } else { &mut *sample_values };
            if !direct {
                target.copy_from_slice(&self.animated.defaults);
            }
            let time = layer.clip_time(clip.duration);
            for (channel, range) in &clip.properties {
                channel.sample(time, &mut target[range.clone()]);
            }
            if direct {
                continue;
            }
            // A layer blends the properties its clip animates (see `Pose::blend_properties`).
            for (channel, _) in &clip.properties {
                let p = channel.property().0 as usize;
                let (range, boolean) = &self.animated.layout[p];
                let w = layer.weight * mask.map_or(1.0, |m| m[p]);
                let (value, sample) = (&mut values[range.clone()], &sample_values[range.clone()]);
                match layer.blend {
                    Blend::Replace => crate::property::blend(value, sample, w, *boolean),
                    Blend::Additive => {
                        crate::property::add(value, sample, &clip.property_reference[range.clone()], w, *boolean);
                    }
                }
            }
        }
    }

    /// One lane's morph weights into `scratch.weights`, its layers blended as
    /// [`crate::pose_state`] blends them (one lane at a time: morph-animated props are few,
    /// and their weights few).
    fn weights(&self, lane: &LaneState<'_>, scratch: &mut Scratch) {
        let Scratch { weights, sample_weights, .. } = scratch;
        weights.copy_from_slice(&self.morph.defaults);
        let mut first = true;
        for layer in lane.layers.iter().filter(|layer| layer.is_active()) {
            let clip = &self.clips[layer.clip as usize];
            let mask = (layer.mask != Layer::NO_MASK).then(|| &self.morph.masks[layer.mask as usize]);
            let direct = first && layer.weight == 1.0 && layer.blend == Blend::Replace && mask.is_none();
            first = false;
            let target = if direct { &mut *weights } else { &mut *sample_weights };
            if !direct {
                target.copy_from_slice(&self.morph.defaults);
            }
            let time = layer.clip_time(clip.duration);
            for (channel, range) in &clip.morph {
                channel.sample_morph_weights(time, &mut target[range.clone()]);
            }
            if direct {
                continue;
            }
            for (n, (_, range)) in self.morph.nodes.iter().enumerate() {
                let w = layer.weight * mask.map_or(1.0, |m| m[n]);
                for k in range.clone() {
                    weights[k] += match layer.blend {
                        Blend::Replace => (sample_weights[k] - weights[k]) * w,
                        Blend::Additive => (sample_weights[k] - clip.morph_reference[k]) * w,
                    };
                }
            }
        }
    }

    /// The layers of the four lanes, blended into `scratch.locals`.
    fn pose4(&self, lanes: &[LaneState<'_>; 4], scratch: &mut Scratch) {
        let layers = lanes[0].layers.len();
        let mut first = true;
        for l in 0..layers {
            let (clip_index, blend, mask, full) = lanes[0].signature(l);
            if clip_index == Layer::OFF {
                continue;
            }
            let clip = &self.clips[clip_index as usize];
            let direct = first && full && blend == Blend::Replace && mask == Layer::NO_MASK;
            let Scratch { locals, sample, found, dirty, cursors, .. } = scratch;
            for ((lane, found), cursors) in lanes.iter().zip(found.iter_mut()).zip(cursors.iter_mut()) {
                let cursors = &mut cursors[clip.cursor_offset..clip.cursor_offset + clip.baked.cursor_count()];
                let time = lane.layers[l].clip_time(clip.duration);
                clip.baked.find(time, cursors, &mut found[..clip.baked.group_count()]);
            }
            if first && !direct && *dirty {
                locals.clone_from_slice(&self.base);
            }
            let target = if direct { &mut *locals } else { &mut *sample };
            self.sample4(clip, found, target);
            *dirty = true;
            first = false;
            if direct {
                continue;
            }
            let weight = Vec4::from_array(std::array::from_fn(|k| lanes[k].layers[l].weight));
            let mask = (mask != Layer::NO_MASK).then(|| &self.masks[mask as usize]);
            for (slot, (local, layer)) in locals.iter_mut().zip(sample.iter()).enumerate() {
                let w = mask.map_or(weight, |m| weight * m[slot]);
                match blend {
                    Blend::Replace => {
                        let keep = Vec4::ONE - w;
                        for p in [0, 2] {
                            local[p] = [0, 1, 2, 3].map(|c| local[p][c] * keep + layer[p][c] * w);
                        }
                        local[1] = nlerp4(local[1], layer[1], w);
                    }
                    Blend::Additive => {
                        let reference = &clip.reference[slot];
                        for c in 0..3 {
                            local[0][c] += (layer[0][c] - Vec4::splat(reference[0][c])) * w;
                            let r = Vec4::splat(reference[2][c]);
                            let ratio = Vec4::select(r.cmpeq(Vec4::ZERO), Vec4::ONE, layer[2][c] / r);
                            local[2][c] *= Vec4::ONE + (ratio - Vec4::ONE) * w;
                        }
                        let conjugate =
                            [-reference[1].x, -reference[1].y, -reference[1].z, reference[1].w].map(Vec4::splat);
                        let delta =
                            nlerp4([Vec4::ZERO, Vec4::ZERO, Vec4::ZERO, Vec4::ONE], multiply4(layer[1], conjugate), w);
                        local[1] = multiply4(local[1], delta);
                    }
                }
            }
        }
        if first && scratch.dirty {
            // No active layer: the rest pose (drivers overwrite their own entries).
            scratch.locals.clone_from_slice(&self.base);
            scratch.dirty = false;
        }
    }

    /// Samples `clip` at the lanes' key positions (`found`) into `target`: its tracks and
    /// constants, and the rest pose where it writes nothing.
    fn sample4(&self, clip: &ProgramClip, found: &[Vec<Found>; 4], target: &mut [Lanes]) {
        let groups = clip.baked.group_count();
        let lanes = target.as_flattened_mut();
        let base = self.base.as_flattened();
        for &entry in &clip.unwritten {
            lanes[entry as usize] = base[entry as usize];
        }
        for &(entry, value) in &clip.constants {
            lanes[entry as usize] =
                [Vec4::splat(value.x), Vec4::splat(value.y), Vec4::splat(value.z), Vec4::splat(value.w)];
        }
        let [f0, f1, f2, f3] = found;
        let mut destination = clip.track_slots.iter();
        clip.baked.evaluate4([&f0[..groups], &f1[..groups], &f2[..groups], &f3[..groups]], |_, values| {
            if let Some(&d) = destination.next() {
                lanes[d as usize] = values;
            }
        });
    }

    /// Sets every driven slot's rotation: its rest rotation turned by the lane's driver value.
    fn drive4(&self, lanes: &[LaneState<'_>; 4], scratch: &mut Scratch) {
        for (d, driver) in self.drivers.iter().enumerate() {
            let half = Vec4::from_array(std::array::from_fn(|k| lanes[k].drivers[d] * 0.5));
            let (sin, cos) = sin_cos4(half);
            let [x, y, z] = driver.axis;
            let turn = [x * sin, y * sin, z * sin, cos];
            for &(slot, rest) in &driver.targets {
                let rest = [rest.x, rest.y, rest.z, rest.w].map(Vec4::splat);
                scratch.locals[slot as usize][1] = multiply4(rest, turn);
            }
        }
    }
}
