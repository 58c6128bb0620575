//! Spring bones: hair, tails, ears and skirts that swing after the body that carries them,
//! as a VRM avatar's `VRMC_springBone` (1.0) or `secondaryAnimation` (0.x) asks. The step is
//! the VRMC_springBone 1.0 specification's, as three-vrm runs it: each joint's tail is a point
//! moved by Verlet integration (its last move, less the drag; a pull back towards the joint's
//! rest direction, the stiffness; gravity), held at the bone's length from the joint, pushed
//! out of the colliders' spheres and capsules (or kept behind a plane, or inside a shape: the
//! extended colliders), and the joint turned from its rest rotation to point at it.
//!
//! The model's part is [`SpringBones`] (its [`crate::Model::springs`]); each instance's is a
//! [`SpringState`] (the tails), kept by whoever poses it frame after frame (props-crowd's near
//! instances). Tails live in the world: moving an instance's placement moves its body, and its
//! hair trails behind and swings after it, as hair does. A joint with a `center` node keeps
//! its tail in that node's space instead, which carries it along (a rider's hair on a moving
//! vehicle, a file's way of keeping hair calm as its avatar walks).

use glam::{Affine3A, Quat, Vec3, Vec3A};

use crate::node_id::NodeId;
use crate::pose::Pose;
use crate::rig::Rig;
use crate::transform::Transform;

/// The most time one step swings through, seconds: after a hitch the tails go on from where
/// they were rather than leap (a step's pull grows with its time).
pub const LONGEST_STEP: f32 = 0.1;

/// How one joint swings (the VRMC_springBone 1.0 joint's properties).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpringSettings {
    /// How strongly the tail is pulled back towards the joint's rest direction, per second.
    pub stiffness: f32,
    /// The share of its last move the tail loses each step (0: none, 1: all).
    pub drag: f32,
    /// Gravity's direction times its power, world units per second (a direction in the
    /// world, whatever the avatar's turn).
    pub gravity: Vec3,
    /// The tail's radius against colliders, world units.
    pub hit_radius: f32,
}

impl Default for SpringSettings {
    /// The specification's defaults: stiffness 1, drag 0.5, no gravity, no radius.
    fn default() -> Self {
        Self { stiffness: 1.0, drag: 0.5, gravity: Vec3::ZERO, hit_radius: 0.0 }
    }
}

/// One swinging joint.
#[derive(Clone, Debug, PartialEq)]
pub struct SpringJoint {
    /// The node turned.
    pub node: NodeId,
    /// Where its tail is at rest, in the node's space: the next joint's (or the chain's end
    /// node's) rest translation, or for the last of a VRM 0.x chain 7 cm along the node's own
    /// offset from its parent.
    pub tail: Vec3,
    /// How it swings.
    pub settings: SpringSettings,
    /// The colliders its tail is kept out of (numbers of [`SpringBones::colliders`]).
    pub colliders: Vec<u16>,
    /// The node whose space its tail moves in; `None`: the world.
    pub center: Option<NodeId>,
}

/// A collider's shape, in its node's space: VRMC_springBone's spheres and capsules, and its
/// extended colliders' (`VRMC_springBone_extended_collider`) planes and shapes that keep tails
/// in rather than out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ColliderShape {
    /// A ball around `offset`, `radius` world units.
    Sphere {
        /// Its centre.
        offset: Vec3,
        /// Its radius, world units.
        radius: f32,
        /// Whether it keeps tails inside it rather than out.
        inside: bool,
    },
    /// A capsule from `offset` to `tail`, `radius` world units thick.
    Capsule {
        /// Its first end's centre.
        offset: Vec3,
        /// Its other end's centre.
        tail: Vec3,
        /// Its radius, world units.
        radius: f32,
        /// Whether it keeps tails inside it rather than out.
        inside: bool,
    },
    /// A plane through `offset` that keeps tails on the side its `normal` points to.
    Plane {
        /// A point of it.
        offset: Vec3,
        /// Its normal, in the node's space (any length but 0).
        normal: Vec3,
    },
}

/// A shape on a node that tails are kept out of (a head, a neck, the upper body).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpringCollider {
    /// The node that carries it.
    pub node: NodeId,
    /// Its shape.
    pub shape: ColliderShape,
}

/// Why a rig's spring bones cannot be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SpringError {
    /// A joint, collider or centre names a node the rig does not have.
    #[error("spring bones name node {node}, but the rig has {count} nodes")]
    NodeOutOfRange {
        /// The node.
        node: u32,
        /// Nodes in the rig.
        count: usize,
    },
    /// Two joints turn one node.
    #[error("node {node} is two spring joints")]
    TwiceJoint {
        /// The node.
        node: u32,
    },
    /// A joint's tail is where the joint is: it has no direction to swing.
    #[error("spring joint on node {node} has no length")]
    NoLength {
        /// The node.
        node: u32,
    },
    /// A joint names a collider there is not.
    #[error("spring joint on node {node} names collider {collider}, but there are {count}")]
    ColliderOutOfRange {
        /// The joint's node.
        node: u32,
        /// The collider.
        collider: u16,
        /// Colliders.
        count: usize,
    },
    /// A number is not finite, or a radius or drag is out of its range.
    #[error("spring bones on node {node}: {what} is out of range")]
    OutOfRange {
        /// The node.
        node: u32,
        /// Which number.
        what: &'static str,
    },
}

/// A model's spring bones: its joints in rig order (parents first), the colliders, and which
/// nodes follow the joints (every joint and all below it), which a step poses again.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpringBones {
    joints: Vec<SpringJoint>,
    colliders: Vec<SpringCollider>,
    /// Per joint, its rest (the frame it turns from).
    rests: Vec<JointRest>,
    /// Every node a joint turns, in rig order, with its joint's number if it is one.
    followers: Vec<(NodeId, Option<u32>)>,
    /// Per collider, whether a joint moves its node (then it is placed as the sweep reaches
    /// it, not once a step).
    carried: Vec<bool>,
    /// Nodes in the rig they were made for.
    nodes: usize,
}

/// A joint at rest: its local matrix and rotation, and its tail's direction in its space.
#[derive(Clone, Copy, Debug, PartialEq)]
struct JointRest {
    local: Affine3A,
    rotation: Quat,
    axis: Vec3A,
}

/// One instance's spring tails: per joint where its tail is and was a step ago, in its
/// centre's space, and the turn from its rest rotation the last step gave it. Made by
/// [`SpringBones::state`]; [`SpringBones::reset`] puts the tails where a pose has them, as the
/// first step does if nothing did before.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpringState {
    tails: Vec<(Vec3A, Vec3A)>,
    swings: Vec<Quat>,
    /// Scratch of a step: each collider's start and reach in the world.
    colliders: Vec<(Vec3A, Vec3A)>,
    /// Whether the tails were put anywhere yet.
    placed: bool,
}

impl SpringState {
    /// Room for `springs`' joints and colliders (none allocated once there is).
    fn fit(&mut self, springs: &SpringBones) {
        self.tails.resize(springs.joints.len(), (Vec3A::ZERO, Vec3A::ZERO));
        self.swings.resize(springs.joints.len(), Quat::IDENTITY);
        self.colliders.resize(springs.colliders.len(), (Vec3A::ZERO, Vec3A::ZERO));
    }
}

impl SpringBones {
    /// Heap bytes of its tables.
    pub(crate) fn heap_bytes(&self) -> u64 {
        let tables = size_of_val(&*self.joints)
            + size_of_val(&*self.colliders)
            + size_of_val(&*self.rests)
            + size_of_val(&*self.followers)
            + size_of_val(&*self.carried);
        tables as u64
    }

    /// The spring bones of `joints` (in any order) and `colliders` on `rig`'s nodes, checked.
    pub fn new(rig: &Rig, mut joints: Vec<SpringJoint>, colliders: Vec<SpringCollider>) -> Result<Self, SpringError> {
        let count = rig.len();
        let in_rig = |node: NodeId| {
            if node.index() < count { Ok(()) } else { Err(SpringError::NodeOutOfRange { node: node.0, count }) }
        };
        let finite = |node: NodeId, what: &'static str, ok: bool| {
            if ok { Ok(()) } else { Err(SpringError::OutOfRange { node: node.0, what }) }
        };
        for collider in &colliders {
            in_rig(collider.node)?;
            finite(collider.node, "a collider", collider.shape.is_valid())?;
        }
        joints.sort_by_key(|joint| joint.node);
        for (k, joint) in joints.iter().enumerate() {
            in_rig(joint.node)?;
            if let Some(center) = joint.center {
                in_rig(center)?;
            }
            if k > 0 && joints[k - 1].node == joint.node {
                return Err(SpringError::TwiceJoint { node: joint.node.0 });
            }
            if !joint.tail.is_finite() || joint.tail.length_squared() <= 0.0 {
                return Err(SpringError::NoLength { node: joint.node.0 });
            }
            let SpringSettings { stiffness, drag, gravity, hit_radius } = joint.settings;
            finite(joint.node, "the stiffness", stiffness.is_finite())?;
            finite(joint.node, "the drag", (0.0..=1.0).contains(&drag))?;
            finite(joint.node, "the gravity", gravity.is_finite())?;
            finite(joint.node, "the hit radius", hit_radius.is_finite() && hit_radius >= 0.0)?;
            if let Some(&collider) = joint.colliders.iter().find(|&&c| usize::from(c) >= colliders.len()) {
                return Err(SpringError::ColliderOutOfRange { node: joint.node.0, collider, count: colliders.len() });
            }
        }
        let mut joint_of = vec![None; count];
        for (k, joint) in (0u32..).zip(&joints) {
            joint_of[joint.node.index()] = Some(k);
        }
        let mut follows = vec![false; count];
        let mut followers = Vec::new();
        for node in rig.nodes() {
            let parent_follows = rig.parent(node).is_some_and(|p| follows[p.index()]);
            if parent_follows || joint_of[node.index()].is_some() {
                follows[node.index()] = true;
                followers.push((node, joint_of[node.index()]));
            }
        }
        let rests = joints
            .iter()
            .map(|joint| {
                let rest = rig.rest(joint.node);
                let rotation =
                    rest.as_trs().map_or_else(|| rest.to_affine().to_scale_rotation_translation().1, |t| t.rotation);
                JointRest { local: rest.to_affine(), rotation, axis: Vec3A::from(joint.tail).normalize() }
            })
            .collect();
        let carried = colliders.iter().map(|c| follows[c.node.index()]).collect();
        Ok(Self { joints, colliders, rests, followers, carried, nodes: count })
    }

    /// Whether they may be on `rig`: made for a rig of its size, or none.
    pub(crate) fn fits(&self, rig: &Rig) -> bool {
        self.joints.is_empty() || self.nodes == rig.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.joints.is_empty()
    }

    /// The joints, in rig order.
    #[must_use]
    pub fn joints(&self) -> &[SpringJoint] {
        &self.joints
    }

    /// The colliders.
    #[must_use]
    pub fn colliders(&self) -> &[SpringCollider] {
        &self.colliders
    }

    /// An instance's tails, not placed yet: [`SpringBones::reset`] or the first
    /// [`SpringBones::step`] places them.
    #[must_use]
    pub fn state(&self) -> SpringState {
        let mut state = SpringState::default();
        state.fit(self);
        state
    }

    /// Puts `state`'s tails where `pose` (world matrices computed, the instance placed at
    /// `placement`) has them with every joint at its rest rotation, at rest (three-vrm's
    /// `reset`), and turns the joints of `pose` so. For an instance seen for the first time,
    /// or again after a while.
    pub fn reset(&self, rig: &Rig, pose: &mut Pose, placement: &Affine3A, state: &mut SpringState) {
        state.fit(self);
        state.placed = true;
        self.sweep(rig, pose, placement, |joint, at| {
            let held = at.to_center.transform_point3a(at.tail_at(joint, Quat::IDENTITY));
            state.tails[at.k] = (held, held);
            state.swings[at.k] = Quat::IDENTITY;
            Quat::IDENTITY
        });
    }

    /// Swings `pose`'s joints `dt` seconds on from `state` (see the module documentation),
    /// `pose` having its world matrices computed and the instance placed at `placement`; its
    /// world matrices stay computed. With `dt` of 0 or less no time passes: each joint keeps
    /// the turn its last step gave it, and its tail, at rest, goes where the body carries it;
    /// more than [`LONGEST_STEP`] swings through that much. A state never placed is
    /// [`SpringBones::reset`] first. Allocation-free.
    pub fn step(&self, rig: &Rig, pose: &mut Pose, placement: &Affine3A, state: &mut SpringState, dt: f32) {
        // Not a number: no time (`f32::min` would take the longest step).
        let dt = if dt.is_nan() { 0.0 } else { dt.min(LONGEST_STEP) };
        if !state.placed {
            self.reset(rig, pose, placement, state);
        }
        state.fit(self);
        for (collider, placed) in self.colliders.iter().zip(&mut state.colliders) {
            *placed = collider.shape.placed(&(*placement * pose.world_matrix(collider.node)));
        }
        self.sweep(rig, pose, placement, |joint, at| {
            if dt <= 0.0 {
                let swing = state.swings[at.k];
                let held = at.to_center.transform_point3a(at.tail_at(joint, swing));
                state.tails[at.k] = (held, held);
                return swing;
            }
            let (current, previous) = state.tails[at.k];
            let (s, rest) = (&joint.settings, at.rest);
            // The rest frame, in the world, that the joint turns from.
            let rest_world = at.parent * rest.local;
            let (head, length) = (at.head, at.length);
            let axis = rest_world.transform_vector3a(rest.axis).normalize_or_zero();
            let inertia = (current - previous) * (1.0 - s.drag);
            let moved = at.from_center.transform_point3a(current + inertia)
                + axis * (s.stiffness * dt)
                + Vec3A::from(s.gravity) * dt;
            let hold = |tail: Vec3A| head + (tail - head).normalize_or_zero() * length;
            let mut next = hold(moved);
            for &c in &joint.colliders {
                let c = usize::from(c);
                let collider = &self.colliders[c];
                let placed = match self.carried[c] {
                    true => collider.shape.placed(&at.world_of(collider.node)),
                    false => state.colliders[c],
                };
                if let Some(push) = collider.shape.push(placed, next, s.hit_radius) {
                    next = hold(next + push);
                }
            }
            state.tails[at.k] = (at.to_center.transform_point3a(next), current);
            let to = rest_world.inverse().transform_point3a(next).normalize_or_zero();
            let swing =
                if to == Vec3A::ZERO { Quat::IDENTITY } else { Quat::from_rotation_arc(rest.axis.into(), to.into()) };
            state.swings[at.k] = swing;
            swing
        });
    }

    /// Goes through the joints and the nodes below them in rig order, placing each again from
    /// its parent; at each joint, `turn` gives the turn from its rest rotation (with the joint
    /// still at its pose's rotation in `at`).
    fn sweep(
        &self,
        rig: &Rig,
        pose: &mut Pose,
        placement: &Affine3A,
        mut turn: impl FnMut(&SpringJoint, &JointAt<'_>) -> Quat,
    ) {
        for &(node, joint) in &self.followers {
            let parent = rig.parent(node).map_or(Affine3A::IDENTITY, |p| pose.world_matrix(p));
            if let Some(k) = joint {
                let (joint, rest) = (&self.joints[k as usize], &self.rests[k as usize]);
                let local = match rig.rest(node).as_trs() {
                    Some(_) => *pose.local_transform(node),
                    None => {
                        let (scale, rotation, translation) = pose.local_matrix(node).to_scale_rotation_translation();
                        Transform { translation, rotation, scale }
                    }
                };
                let parent_world = *placement * parent;
                let now = parent_world * local.to_affine();
                let center = joint.center.map(|c| {
                    let from = *placement * pose.world_matrix(c);
                    (from, from.inverse())
                });
                let (from_center, to_center) = center.unwrap_or((Affine3A::IDENTITY, Affine3A::IDENTITY));
                let at = JointAt {
                    k: k as usize,
                    parent: parent_world,
                    rest,
                    local,
                    head: now.translation,
                    length: now.transform_vector3a(joint.tail.into()).length(),
                    from_center,
                    to_center,
                    placement,
                    pose,
                };
                let swing = turn(joint, &at);
                pose.set_local_transform(node, Transform { rotation: rest.rotation * swing, ..local });
            }
            let local = pose.local_matrix(node);
            pose.set_world(node, parent * local);
        }
    }
}

/// What a joint's step sees of it and its instance.
struct JointAt<'a> {
    /// The joint's number.
    k: usize,
    /// Its parent's world matrix.
    parent: Affine3A,
    /// Its rest.
    rest: &'a JointRest,
    /// Its pose's local transform.
    local: Transform,
    /// Where it is in the world.
    head: Vec3A,
    /// Its tail's distance from it, world units.
    length: f32,
    /// From its centre's space to the world, and back.
    from_center: Affine3A,
    to_center: Affine3A,
    placement: &'a Affine3A,
    pose: &'a Pose,
}

impl JointAt<'_> {
    /// Where `joint`'s tail is in the world with the joint turned `swing` from its rest
    /// rotation (its pose's translation and scale).
    fn tail_at(&self, joint: &SpringJoint, swing: Quat) -> Vec3A {
        let local = Transform { rotation: self.rest.rotation * swing, ..self.local };
        self.parent.transform_point3a(local.to_affine().transform_point3a(joint.tail.into()))
    }

    /// The world matrix of `node` (placed as it is so far this sweep).
    fn world_of(&self, node: NodeId) -> Affine3A {
        *self.placement * self.pose.world_matrix(node)
    }
}

impl ColliderShape {
    /// Whether its numbers are finite, its radius not negative and a plane's normal not 0.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        match *self {
            Self::Sphere { offset, radius, .. } => offset.is_finite() && radius.is_finite() && radius >= 0.0,
            Self::Capsule { offset, tail, radius, .. } => {
                offset.is_finite() && tail.is_finite() && radius.is_finite() && radius >= 0.0
            }
            Self::Plane { offset, normal } => offset.is_finite() && normal.is_finite() && normal.length_squared() > 0.0,
        }
    }

    /// Where it is in the world, on a node at `on`: its start and its reach (from the start to
    /// the other end; none for a sphere), or a plane's point and unit normal.
    fn placed(&self, on: &Affine3A) -> (Vec3A, Vec3A) {
        match *self {
            Self::Sphere { offset, .. } => (on.transform_point3a(offset.into()), Vec3A::ZERO),
            Self::Capsule { offset, tail, .. } => {
                (on.transform_point3a(offset.into()), on.transform_vector3a((tail - offset).into()))
            }
            Self::Plane { offset, normal } => {
                // Normals turn by the inverse transpose (three-vrm's normal matrix).
                let turned = on.matrix3.inverse().transpose() * Vec3A::from(normal);
                (on.transform_point3a(offset.into()), turned.normalize_or_zero())
            }
        }
    }

    /// How far to move a tail at `tail` of `radius` out of (or into) it, `placed` as
    /// [`ColliderShape::placed`] says; `None` when it is where it should be.
    fn push(&self, (start, reach): (Vec3A, Vec3A), tail: Vec3A, radius: f32) -> Option<Vec3A> {
        let (shape_radius, inside) = match *self {
            Self::Sphere { radius, inside, .. } | Self::Capsule { radius, inside, .. } => (radius, inside),
            Self::Plane { .. } => {
                let depth = (tail - start).dot(reach) - radius;
                return (depth < 0.0).then(|| reach * -depth);
            }
        };
        let mut away = tail - start;
        let along = reach.dot(away);
        if along > 0.0 {
            let span = reach.length_squared();
            away -= if span <= along { reach } else { reach * (along / span) };
        }
        let distance = away.length();
        let overlap = if inside { shape_radius - radius - distance } else { distance - radius - shape_radius };
        let direction = if inside { -away } else { away };
        (overlap < 0.0 && distance > 0.0).then(|| direction * (-overlap / distance))
    }
}
