//! A pose: local transforms, world matrices and morph weights of every rig node.

use glam::{Affine3A, Quat, Vec3};

use crate::constraint::Locals;
use crate::node_id::NodeId;
use crate::property::{Properties, PropertyId, PropertyTarget};
use crate::rig::Rig;
use crate::transform::{RestTransform, Transform};

/// The animated state of one instance of a rig, in caller-owned buffers that are reused
/// frame after frame (no allocation once built).
///
/// The bone API of a game engine, in these terms: [`Pose::local_transform`] /
/// [`Pose::local_matrix`] (Babylon's local matrix), [`Pose::world_matrix`] (absolute matrix,
/// valid after [`Pose::compute_world`]), [`Pose::set_local_transform`] (procedural override
/// for this frame), [`Pose::return_to_rest`]; [`crate::Skin::write_palette`] gives the final
/// matrices.
#[derive(Clone, Debug, PartialEq)]
pub struct Pose {
    locals: Vec<Transform>,
    /// Fixed local matrices of `matrix` nodes; `None` for TRS nodes and overridden nodes.
    fixed: Vec<Option<Affine3A>>,
    world: Vec<Affine3A>,
    morph_weights: Vec<f32>,
    morph_offsets: Vec<u32>,
    /// The rig's animatable properties' values, flat ([`crate::property::Properties`]).
    properties: Vec<f32>,
    /// Per property: where its values lie, the node whose mask weight it follows (node
    /// visibility; the others follow the layer's weight), and whether it is a boolean.
    property_layout: Vec<PropertyLayout>,
    /// Another pose of the rig, kept for [`crate::pose_state`] to sample an additive layer's
    /// reference in, made the first time one is: none of what the pose is.
    spare: Spare,
}

/// A pose's spare pose: not cloned, compared or printed with it.
#[derive(Default)]
struct Spare(Option<Box<Pose>>);

impl Clone for Spare {
    fn clone(&self) -> Self {
        Self(None)
    }
}

impl PartialEq for Spare {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for Spare {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Spare")
    }
}

/// Where one animated property lies in a pose, and how it blends.
#[derive(Clone, Debug, PartialEq)]
struct PropertyLayout {
    range: std::ops::Range<usize>,
    node: Option<NodeId>,
    boolean: bool,
}

impl Pose {
    /// The rest pose of `rig`, with world matrices computed.
    #[must_use]
    pub fn from_rest(rig: &Rig) -> Self {
        let mut pose = Self {
            locals: Vec::with_capacity(rig.len()),
            fixed: Vec::with_capacity(rig.len()),
            world: vec![Affine3A::IDENTITY; rig.len()],
            morph_weights: Vec::with_capacity(rig.morph_defaults().len()),
            morph_offsets: rig.nodes().map(|n| rig.morph_range(n).start as u32).collect(),
            properties: Vec::with_capacity(rig.properties().defaults().len()),
            property_layout: property_layout(rig.properties()),
            spare: Spare::default(),
        };
        pose.morph_offsets.push(rig.morph_defaults().len() as u32);
        pose.return_to_rest(rig);
        pose.compute_world(rig);
        pose
    }

    /// Takes its spare pose of `rig` (made the first time, from then on reused: nothing
    /// allocated), at rest; [`Pose::keep_spare`] gives it back.
    pub(crate) fn take_spare(&mut self, rig: &Rig) -> Box<Pose> {
        match self.spare.0.take() {
            Some(mut spare) => {
                spare.return_to_rest(rig);
                spare
            }
            None => Box::new(Pose::from_rest(rig)),
        }
    }

    /// Keeps `spare` ([`Pose::take_spare`]) for the next time.
    pub(crate) fn keep_spare(&mut self, spare: Box<Pose>) {
        self.spare.0 = Some(spare);
    }

    /// Resets every local transform and morph weight to the rig's rest values (world
    /// matrices are recomputed by the next [`Pose::compute_world`]). Does not allocate.
    pub fn return_to_rest(&mut self, rig: &Rig) {
        self.locals.clear();
        self.fixed.clear();
        for node in rig.nodes() {
            match *rig.rest(node) {
                RestTransform::Trs(trs) => {
                    self.locals.push(trs);
                    self.fixed.push(None);
                }
                RestTransform::Matrix(matrix) => {
                    self.locals.push(Transform::IDENTITY);
                    self.fixed.push(Some(matrix));
                }
            }
        }
        self.morph_weights.clear();
        self.morph_weights.extend_from_slice(rig.morph_defaults());
        self.properties.clear();
        self.properties.extend_from_slice(rig.properties().defaults());
    }

    /// Heap bytes this pose holds (its buffers' capacities): what one instance costs in CPU
    /// memory on the pose path, for benchmarks.
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        self.locals.capacity() * size_of::<Transform>()
            + self.fixed.capacity() * size_of::<Option<Affine3A>>()
            + self.world.capacity() * size_of::<Affine3A>()
            + self.morph_weights.capacity() * size_of::<f32>()
            + self.morph_offsets.capacity() * size_of::<u32>()
            + self.properties.capacity() * size_of::<f32>()
            + self.property_layout.capacity() * size_of::<PropertyLayout>()
    }

    /// Number of nodes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.locals.len()
    }

    /// True for a pose of an empty rig.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.locals.is_empty()
    }

    /// The local TRS of `node` (identity for an un-overridden fixed-matrix node; see
    /// [`Pose::local_matrix`]).
    #[must_use]
    pub fn local_transform(&self, node: NodeId) -> &Transform {
        &self.locals[node.index()]
    }

    /// Mutable local TRS of `node`, for animation sampling; a fixed-matrix node switches to TRS.
    pub(crate) fn local_mut(&mut self, node: NodeId) -> &mut Transform {
        self.fixed[node.index()] = None;
        &mut self.locals[node.index()]
    }

    /// Overrides the local transform of `node` until the next sample or
    /// [`Pose::return_to_rest`]: how game code drives a windmill rotor or a car wheel. Call
    /// after sampling the clip and before [`Pose::compute_world`]. On a node the rig's
    /// constraints set ([`Rig::constraints`]) only the translation and scale stay:
    /// [`Pose::compute_world`] replaces the rotation, and the pose then holds the constrained
    /// one; turn the constraint's source instead.
    pub fn set_local_transform(&mut self, node: NodeId, transform: Transform) {
        *self.local_mut(node) = transform;
    }

    /// The local matrix of `node`.
    #[must_use]
    pub fn local_matrix(&self, node: NodeId) -> Affine3A {
        let i = node.index();
        self.fixed[i].unwrap_or_else(|| self.locals[i].to_affine())
    }

    /// Blends `other` into this pose: every local transform moves `weight` of the way towards
    /// `other`'s (translation and scale linearly, rotation by a shortest-path normalized lerp,
    /// [`crate::clip::interpolate::nlerp`]), and so do morph weights. `weight` 0 keeps this pose, 1
    /// gives `other`. Both poses must be of the same rig. How a crossfade between two clips
    /// (walk to run) is made: sample each clip into its own pose, blend, then
    /// [`Pose::compute_world`].
    pub fn blend(&mut self, other: &Pose, weight: f32) {
        self.blend_nodes(other, |_| weight);
        self.blend_morph_weights(other, |_| weight);
        let every = (0..self.property_layout.len() as u32).map(PropertyId);
        self.blend_properties(other, every, weight, |_| weight);
    }

    /// Moves the animated properties `ids` towards `other`'s (see
    /// [`crate::property::Properties`]): node visibility by `node_weight(node)` (a masked
    /// layer's), the others by `weight`; booleans switch at half weight. A layer blends the
    /// properties its clip animates and leaves the others as they are: material properties
    /// have no mask, and a brake light's layer must not turn off the headlights.
    pub fn blend_properties(
        &mut self,
        other: &Pose,
        ids: impl Iterator<Item = PropertyId>,
        weight: f32,
        node_weight: impl Fn(NodeId) -> f32,
    ) {
        for (range, w, boolean) in weighted(&self.property_layout, ids, weight, node_weight) {
            crate::property::blend(&mut self.properties[range.clone()], &other.properties[range], w, boolean);
        }
    }

    /// Adds the change from `reference` to `sample` of the animated properties `ids`,
    /// weighted as [`Pose::blend_properties`] weighs them (an additive layer); booleans are
    /// left as they are.
    pub fn add_properties(
        &mut self,
        sample: &Pose,
        reference: &Pose,
        ids: impl Iterator<Item = PropertyId>,
        weight: f32,
        node_weight: impl Fn(NodeId) -> f32,
    ) {
        for (r, w, boolean) in weighted(&self.property_layout, ids, weight, node_weight) {
            let values = &mut self.properties[r.clone()];
            crate::property::add(values, &sample.properties[r.clone()], &reference.properties[r], w, boolean);
        }
    }

    /// Moves every node's morph weights `weight(node)` of the way towards `other`'s (a
    /// masked layer's weights).
    pub fn blend_morph_weights(&mut self, other: &Pose, weight: impl Fn(NodeId) -> f32) {
        for (i, range) in self.morph_offsets.windows(2).enumerate() {
            let w = weight(NodeId(i as u32));
            let range = range[0] as usize..range[1] as usize;
            for (mine, theirs) in self.morph_weights[range.clone()].iter_mut().zip(&other.morph_weights[range]) {
                *mine += (theirs - *mine) * w;
            }
        }
    }

    /// Adds `weight(node)` times the change from `reference` to `sample` to every node's
    /// morph weights (an additive layer's weights).
    pub fn add_morph_weights(&mut self, sample: &Pose, reference: &Pose, weight: impl Fn(NodeId) -> f32) {
        for (i, range) in self.morph_offsets.windows(2).enumerate() {
            let w = weight(NodeId(i as u32));
            for k in range[0] as usize..range[1] as usize {
                self.morph_weights[k] += (sample.morph_weights[k] - reference.morph_weights[k]) * w;
            }
        }
    }

    /// [`Pose::blend`] of the local transforms with a weight per node (a masked layer).
    pub fn blend_nodes(&mut self, other: &Pose, weight: impl Fn(NodeId) -> f32) {
        let nodes = self.locals.iter_mut().zip(&mut self.fixed).zip(&other.locals).zip(&other.fixed);
        for (i, (((local, fixed), theirs), their_fixed)) in nodes.enumerate() {
            if fixed.is_some() && their_fixed.is_some() {
                continue;
            }
            *fixed = None;
            let w = weight(NodeId(i as u32));
            local.translation = local.translation.lerp(theirs.translation, w);
            local.rotation = crate::clip::interpolate::nlerp(local.rotation, theirs.rotation, w);
            local.scale = local.scale.lerp(theirs.scale, w);
        }
    }

    /// Adds `weight(node)` times the change from `reference` to `sample` to every local
    /// transform (an additive layer): translation `+= w (s - r)`, rotation `*= nlerp(1,
    /// s r⁻¹, w)`, scale `*= 1 + w (s / r - 1)` (a zero reference scale adds nothing).
    pub fn add_nodes(&mut self, sample: &Pose, reference: &Pose, weight: impl Fn(NodeId) -> f32) {
        for (i, local) in self.locals.iter_mut().enumerate() {
            let (s, r) = (&sample.locals[i], &reference.locals[i]);
            if sample.fixed[i].is_some() {
                continue;
            }
            self.fixed[i] = None;
            let w = weight(NodeId(i as u32));
            local.translation += (s.translation - r.translation) * w;
            let delta = crate::clip::interpolate::nlerp(Quat::IDENTITY, s.rotation * r.rotation.conjugate(), w);
            local.rotation *= delta;
            local.scale *= Vec3::ONE + (crate::clip::interpolate::scale_ratio(s.scale, r.scale) - Vec3::ONE) * w;
        }
    }

    /// Computes every node's world matrix from the locals: one multiply per node, in rig order
    /// (parents first), after the rig's node constraints have set their nodes' rotations
    /// ([`Rig::constraints`]; a rotation set on a constrained node is replaced).
    pub fn compute_world(&mut self, rig: &Rig) {
        rig.constraints().apply(rig.parents(), self);
        for (i, parent) in rig.parents().iter().enumerate() {
            let local = self.fixed[i].unwrap_or_else(|| self.locals[i].to_affine());
            self.world[i] = match parent {
                Some(parent) => self.world[parent.index()] * local,
                None => local,
            };
        }
    }

    /// The world (model-space) matrix of `node` as of the last [`Pose::compute_world`].
    #[must_use]
    pub fn world_matrix(&self, node: NodeId) -> Affine3A {
        self.world[node.index()]
    }

    /// Sets the world matrix of `node` (a step that poses nodes again after
    /// [`Pose::compute_world`], parents first).
    pub(crate) fn set_world(&mut self, node: NodeId, world: Affine3A) {
        self.world[node.index()] = world;
    }

    /// All world matrices, in rig order.
    #[must_use]
    pub fn world_matrices(&self) -> &[Affine3A] {
        &self.world
    }

    /// Every node's morph weights, in rig order (node `n`'s at [`Rig::morph_range`]).
    #[must_use]
    pub fn all_morph_weights(&self) -> &[f32] {
        &self.morph_weights
    }

    /// Current morph weights of the mesh on `node` (empty when it has none).
    #[must_use]
    pub fn morph_weights(&self, node: NodeId) -> &[f32] {
        let i = node.index();
        &self.morph_weights[self.morph_offsets[i] as usize..self.morph_offsets[i + 1] as usize]
    }

    /// Every animated property's values, flat, by [`crate::property::Properties::range`].
    #[must_use]
    pub fn all_properties(&self) -> &[f32] {
        &self.properties
    }

    /// The values of animated property `id`.
    ///
    /// # Panics
    /// If `id` is not a property of the pose's rig.
    #[must_use]
    pub fn property(&self, id: PropertyId) -> &[f32] {
        &self.properties[self.property_layout[id.0 as usize].range.clone()]
    }

    /// Mutable values of animated property `id`, for sampling or procedural control (a
    /// lamp's brightness set by the game).
    ///
    /// # Panics
    /// If `id` is not a property of the pose's rig.
    pub fn property_mut(&mut self, id: PropertyId) -> &mut [f32] {
        &mut self.properties[self.property_layout[id.0 as usize].range.clone()]
    }

    /// Every node's morph weights, flat (as [`Pose::all_morph_weights`]), to set.
    pub(crate) fn all_morph_weights_mut(&mut self) -> &mut [f32] {
        &mut self.morph_weights
    }

    /// Mutable morph weights of the mesh on `node`, for sampling or procedural control.
    pub fn morph_weights_mut(&mut self, node: NodeId) -> &mut [f32] {
        let i = node.index();
        &mut self.morph_weights[self.morph_offsets[i] as usize..self.morph_offsets[i + 1] as usize]
    }
}

impl Locals for Pose {
    fn rotation(&self, node: NodeId) -> Quat {
        self.locals[node.index()].rotation
    }

    fn set_rotation(&mut self, node: NodeId, rotation: Quat) {
        self.locals[node.index()].rotation = rotation;
    }

    fn matrix(&self, node: NodeId) -> Affine3A {
        self.local_matrix(node)
    }

    fn world(&self, node: NodeId) -> Affine3A {
        self.world[node.index()]
    }

    fn set_world(&mut self, node: NodeId, world: Affine3A) {
        self.world[node.index()] = world;
    }
}

/// The properties `ids` of `layout`, each with its range in a pose, its weight (a node's
/// visibility by `node_weight(node)`, the others by `weight`) and whether it is a boolean.
fn weighted<'a>(
    layout: &'a [PropertyLayout],
    ids: impl Iterator<Item = PropertyId> + 'a,
    weight: f32,
    node_weight: impl Fn(NodeId) -> f32 + 'a,
) -> impl Iterator<Item = (std::ops::Range<usize>, f32, bool)> + 'a {
    ids.map(move |id| {
        let slot = &layout[id.0 as usize];
        (slot.range.clone(), slot.node.map_or(weight, &node_weight), slot.boolean)
    })
}

fn property_layout(properties: &Properties) -> Vec<PropertyLayout> {
    (0u32..)
        .zip(properties.targets())
        .map(|(i, &target)| PropertyLayout {
            range: properties.range(PropertyId(i)),
            node: match target {
                PropertyTarget::NodeVisible(node) => Some(node),
                _ => None,
            },
            boolean: target.is_boolean(),
        })
        .collect()
}
