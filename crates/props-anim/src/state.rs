//! What an instance's animation is, as plain data ([`Layer`]s and driver values), what a
//! model is compiled for ([`Spec`]: its clips, its [`Driver`]s and [`Mask`]s), and the
//! reference evaluation of a state on the general [`Pose`] path ([`pose_state`]), which the
//! fast path ([`crate::program::Program`]) must match.
//!
//! A state poses a model in this order: start from the rest pose; apply each active layer in
//! turn (a [`Blend::Replace`] layer moves every animated node's local transform `weight` of
//! the way towards the layer's clip pose, translation and scale linearly and rotation by a
//! shortest-path normalized lerp; a [`Blend::Additive`] layer adds `weight` times the clip's
//! change from its first frame); a layer's weight is scaled per node by its mask; then each
//! driver sets its nodes' rotations to their rest rotation turned by the driver's angle about
//! the driver's axis (their translation and scale are the layers'); then the rig's node
//! constraints set their nodes' rotations ([`crate::constraint`]). A first layer of weight 1
//! is the clip itself.

use glam::{Quat, Vec3};

use crate::model::Model;
use crate::node_id::NodeId;
use crate::playback::PlayMode;
use crate::pose::Pose;
use crate::property::PropertyId;
use crate::rig::Rig;

/// How a layer combines with the layers below it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Blend {
    /// Crossfade: the pose moves `weight` of the way towards the layer's clip pose.
    #[default]
    Replace,
    /// The clip's change from its first frame, times `weight`, is added on top.
    Additive,
}

/// One clip playing on an instance: which, where in it, how strongly, how, and where.
///
/// A layer's time is the clip's, as given ([`Layer::once`]: before the clip's start it shows
/// the first key, after its end the last), or a running time the clip loops over
/// ([`Layer::looping`]: the runtime wraps it by the clip's own duration, so a host need not
/// know it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layer {
    /// The clip's number among those the instance's model is animated with (for a host, as
    /// `props_crowd::Animates` numbers them); [`Layer::OFF`] for none.
    pub clip: u16,
    /// Seconds: into the clip, or a running time it loops over (see [`Layer::mode`]).
    pub time: f32,
    /// How strongly it applies, usually in `[0, 1]` (one that is not a finite number leaves the
    /// layer out).
    pub weight: f32,
    /// How it combines.
    pub blend: Blend,
    /// The number of a mask scaling the weight per node (among those the model is animated
    /// with), or [`Layer::NO_MASK`].
    pub mask: u8,
    /// How `time` maps onto the clip: as given ([`PlayMode::Once`]: held at the ends), or
    /// wrapped by the clip's duration ([`PlayMode::Loop`]).
    pub mode: PlayMode,
}

impl Layer {
    /// The `clip` of a layer that plays nothing.
    pub const OFF: u16 = u16::MAX;
    /// The `mask` of a layer that applies to every node.
    pub const NO_MASK: u8 = u8::MAX;

    /// A layer playing nothing.
    pub const NONE: Self = Self {
        clip: Self::OFF,
        time: 0.0,
        weight: 0.0,
        blend: Blend::Replace,
        mask: Self::NO_MASK,
        mode: PlayMode::Once,
    };

    /// Clip `clip` played once: at `time` seconds into it (held at its first key before, at its
    /// last after), full weight, replacing, unmasked ([`PlayMode::Once`]).
    #[must_use]
    pub fn once(clip: u16, time: f32) -> Self {
        Self { clip, time, weight: 1.0, ..Self::NONE }
    }

    /// Clip `clip` looping over the running time `seconds` (any value: the runtime wraps it by
    /// the clip's duration), full weight, replacing, unmasked: a host's clock, phase added,
    /// plays the clip for as long as it runs. An `f32` clock keeps a millisecond's precision
    /// for about four hours; a longer session wraps its `f64` clock by the clip's duration
    /// first and uses [`Layer::once`].
    #[must_use]
    pub fn looping(clip: u16, seconds: f32) -> Self {
        Self { mode: PlayMode::Loop, ..Self::once(clip, seconds) }
    }

    /// The same layer at `weight` (0 to 1): replacing, it moves the pose that far towards its
    /// clip's, the crossfade (`Layer::looping(idle, t).with_weight(fade)` over a walk on the
    /// layer below); additive, it adds that much of its clip's change.
    #[must_use]
    pub fn with_weight(self, weight: f32) -> Self {
        Self { weight, ..self }
    }

    /// The same layer added on top of the layers below ([`Blend::Additive`]): its clip's change
    /// from its first frame, times its weight.
    #[must_use]
    pub fn additive(self) -> Self {
        Self { blend: Blend::Additive, ..self }
    }

    /// The time into its clip, of `duration` seconds, it shows: its time wrapped when it loops,
    /// else as given (a time that is not a number: 0).
    #[must_use]
    pub fn clip_time(&self, duration: f32) -> f32 {
        match self.mode {
            PlayMode::Loop => PlayMode::Loop.wrap(self.time, duration),
            PlayMode::Once if self.time.is_finite() => self.time,
            PlayMode::Once => 0.0,
        }
    }

    /// Whether it changes the pose: it plays a clip at a weight that is a number other than 0.
    #[must_use]
    pub fn is_active(&self) -> bool {
        self.clip != Self::OFF && self.weight != 0.0 && self.weight.is_finite()
    }
}

impl Default for Layer {
    fn default() -> Self {
        Self::NONE
    }
}

/// A procedural rotation the simulation drives: every one of `nodes` is turned, after its
/// rest rotation, by the instance's driver value (radians) about `axis` (in the node's own
/// frame). A car's wheels roll about X with one driver; a windmill's nacelle yaws about Y.
/// A node the rig's constraints set ([`crate::Rig::constraints`]) is turned by its constraint
/// instead: drive its source.
#[derive(Clone, Debug, PartialEq)]
pub struct Driver {
    /// The nodes it turns (TRS nodes).
    pub nodes: Vec<NodeId>,
    /// The unit axis, in each node's frame.
    pub axis: Vec3,
}

/// A per-node weight for layers (1 on the nodes it covers, 0 elsewhere, or anything between):
/// a car's door clip on the door nodes only.
#[derive(Clone, Debug, PartialEq)]
pub struct Mask {
    /// Weight of each rig node, by rig order.
    pub weights: Vec<f32>,
}

impl Mask {
    /// Weight 1 on `root` and every node below it, 0 elsewhere.
    #[must_use]
    pub fn subtree(rig: &Rig, root: NodeId) -> Self {
        let mut weights = vec![0.0; rig.len()];
        // Parents come first in rig order: a node is inside when its parent is.
        for node in rig.nodes() {
            let inside = node == root || rig.parent(node).is_some_and(|p| weights[p.index()] == 1.0);
            if inside {
                weights[node.index()] = 1.0;
            }
        }
        Self { weights }
    }

    /// The weight of `node` (0 for a node outside the rig the mask was made for).
    #[must_use]
    pub fn weight(&self, node: NodeId) -> f32 {
        self.weights.get(node.index()).copied().unwrap_or(0.0)
    }
}

/// A value an instance sets directly, over what its layers give (a suspension's blend shape,
/// a lamp's brightness from the host's simulation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueTarget {
    /// One morph target weight: an index into the rig's weights (the weight `k` of node
    /// `node` is `Rig::morph_range(node).start + k`).
    MorphWeight(usize),
    /// One of the rig's animated properties ([`Rig::properties`]: those its clips animate,
    /// which the palette carries), all of its components.
    Property(PropertyId),
}

impl ValueTarget {
    /// Values it takes: 1 for a weight, the property's components.
    ///
    /// # Panics
    /// If the property is not one of `rig`'s.
    #[must_use]
    pub fn width(self, rig: &Rig) -> usize {
        match self {
            Self::MorphWeight(_) => 1,
            Self::Property(id) => rig.properties().range(id).len(),
        }
    }
}

/// What a model is compiled for: the clips its instances may play (indices into
/// `Model::clips`), the drivers and the masks their layers may use, and the values instances
/// set directly.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spec {
    /// Model clip indices; a [`Layer::clip`] indexes this list.
    pub clips: Vec<usize>,
    /// Procedural rotations; an instance has one value per driver.
    pub drivers: Vec<Driver>,
    /// Per-node layer weights.
    pub masks: Vec<Mask>,
    /// Values set directly after the layers: an instance's driver values hold, after the
    /// drivers' angles, each target's [`ValueTarget::width`] values in order.
    pub values: Vec<ValueTarget>,
}

impl Spec {
    /// Every clip of `model`, in order, no driver or mask.
    #[must_use]
    pub fn all_clips(model: &Model) -> Self {
        Self { clips: (0..model.clips().len()).collect(), ..Self::default() }
    }

    /// Driver values per instance on `rig`: one per driver, then the values' widths.
    #[must_use]
    pub fn driver_values(&self, rig: &Rig) -> usize {
        self.drivers.len() + self.values.iter().map(|v| v.width(rig)).sum::<usize>()
    }
}

/// The rotation of `rest` turned by `angle` about `axis`: what a driver sets.
#[must_use]
pub(crate) fn driven_rotation(rest: Quat, axis: Vec3, angle: f32) -> Quat {
    let (sin, cos) = crate::trig::sin_cos4(glam::Vec4::splat(angle * 0.5));
    rest * Quat::from_xyzw(axis.x * sin.x, axis.y * sin.x, axis.z * sin.x, cos.x)
}

/// Poses `pose` for the state `layers` + `drivers` of a model compiled for `spec`, on the
/// general path (the reference of [`crate::program::Program`]); `scratch` is a pose of the same rig
/// for sampling layers. World matrices are computed.
///
/// # Panics
/// If a layer names a clip or mask `spec` does not have, or `drivers` is shorter than
/// `spec.drivers`.
pub fn pose_state(model: &Model, spec: &Spec, layers: &[Layer], drivers: &[f32], pose: &mut Pose, scratch: &mut Pose) {
    let rig = model.rig();
    pose.return_to_rest(rig);
    let mut first = true;
    for layer in layers.iter().filter(|layer| layer.is_active()) {
        let clip = &model.clips()[spec.clips[layer.clip as usize]];
        let mask = (layer.mask != Layer::NO_MASK).then(|| &spec.masks[layer.mask as usize]);
        let time = layer.clip_time(clip.duration());
        if first && layer.weight == 1.0 && layer.blend == Blend::Replace && mask.is_none() {
            clip.sample(time, pose);
        } else {
            scratch.return_to_rest(rig);
            clip.sample(time, scratch);
            let weight = |node: NodeId| layer.weight * mask.map_or(1.0, |m| m.weight(node));
            match layer.blend {
                Blend::Replace => {
                    pose.blend_nodes(scratch, weight);
                    pose.blend_morph_weights(scratch, weight);
                    pose.blend_properties(scratch, clip.animated_properties(), layer.weight, weight);
                }
                Blend::Additive => {
                    // Sampled in the scratch pose's spare: no allocation once it has one.
                    let mut reference = scratch.take_spare(rig);
                    clip.sample(0.0, &mut reference);
                    pose.add_nodes(scratch, &reference, weight);
                    pose.add_morph_weights(scratch, &reference, weight);
                    pose.add_properties(scratch, &reference, clip.animated_properties(), layer.weight, weight);
                    scratch.keep_spare(reference);
                }
            }
        }
        first = false;
    }
    for (driver, &angle) in spec.drivers.iter().zip(drivers) {
        for &node in &driver.nodes {
            let rest = rig.rest(node).as_trs().map_or(Quat::IDENTITY, |trs| trs.rotation);
            let local =
                crate::Transform { rotation: driven_rotation(rest, driver.axis, angle), ..*pose.local_transform(node) };
            pose.set_local_transform(node, local);
        }
    }
    let mut at = spec.drivers.len();
    for &target in &spec.values {
        let width = target.width(rig);
        let values = &drivers[at..at + width];
        match target {
            ValueTarget::MorphWeight(k) => pose.all_morph_weights_mut()[k] = values[0],
            ValueTarget::Property(id) => pose.property_mut(id).copy_from_slice(values),
        }
        at += width;
    }
    pose.compute_world(rig);
}
