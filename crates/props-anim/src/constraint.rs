//! Node constraints: a node's rotation set from another node's, every time a pose's world
//! matrices are computed. They are VRM 1.0's `VRMC_node_constraint`, as three-vrm runs them:
//! twist bones that roll with the hand ([`ConstraintKind::Roll`]), an eye or a piston that
//! points at a target ([`ConstraintKind::Aim`]), a part that turns as another does
//! ([`ConstraintKind::Rotation`]).
//!
//! Each constraint sets its node's local rotation from the node's rest rotation `rest`, its
//! source's rest `source_rest` and its source's local rotation now `source` (weight `w`,
//! spherical interpolation from `rest` towards the target `t`):
//!
//! - rotation: `t = rest * source_rest⁻¹ * source` (the source's turn since its rest, in the
//!   node's rest frame);
//! - roll about axis `a`: with `d = rest⁻¹ * source * source_rest⁻¹ * rest` (that turn in the
//!   node's frame), `t = rest * arc(d a, a) * d`: only `d`'s twist about `a`, its swing taken
//!   off;
//! - aim along axis `a`: `t = p⁻¹ * arc(p * rest * a, dir) * p * rest`, with `p` the parent's
//!   world rotation and `dir` the direction from the node's world position to its source's.
//!
//! A node's translation and scale stay the pose's. Constraints run in the order of what they
//! read: one whose source (or, aiming, any node above its source or above itself) another
//! constraint sets runs after that one; a set that reads itself is refused
//! ([`ConstraintError::Cycle`]). Aims read world matrices: those of the nodes above their
//! nodes and at and above their sources are computed once per pose, and again below each
//! constraint that moves them; [`MAX_AIM_WALK`] bounds that work, so that no file makes a pose
//! slow.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::{Affine3A, Quat, Vec3};

use crate::node_id::NodeId;
use crate::transform::RestTransform;

/// Most world matrices a rig's aims may have computed per pose, counted as the nodes whose
/// world matrices they read (above their nodes, at and above their sources) times one more
/// than the constraints: an avatar's few aims on a hundred-odd nodes take a few thousand.
pub const MAX_AIM_WALK: usize = 1 << 16;

/// One of a node's six axis directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Axis {
    /// +X.
    PositiveX,
    /// -X.
    NegativeX,
    /// +Y.
    PositiveY,
    /// -Y.
    NegativeY,
    /// +Z.
    PositiveZ,
    /// -Z.
    NegativeZ,
}

impl Axis {
    /// The unit vector.
    #[must_use]
    pub fn vector(self) -> Vec3 {
        match self {
            Self::PositiveX => Vec3::X,
            Self::NegativeX => Vec3::NEG_X,
            Self::PositiveY => Vec3::Y,
            Self::NegativeY => Vec3::NEG_Y,
            Self::PositiveZ => Vec3::Z,
            Self::NegativeZ => Vec3::NEG_Z,
        }
    }
}

/// What a constraint makes its node follow (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConstraintKind {
    /// The source's turn about this axis of the node (twist bones): `X`, `Y` or `Z` in VRM (a
    /// negative axis rolls the same).
    Roll(Axis),
    /// This axis of the node points at the source. A source at the node's own place, or a
    /// parent scaled to nothing, leaves the node at its rest rotation.
    Aim(Axis),
    /// The source's whole turn since its rest.
    Rotation,
}

/// One node's constraint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeConstraint {
    /// The node whose rotation it sets (a rig node: [`crate::Rig::find`],
    /// [`crate::Rig::from_source_index`] for a glTF index).
    pub node: NodeId,
    /// The node it follows (a rig node, as `node`).
    pub source: NodeId,
    /// How.
    pub kind: ConstraintKind,
    /// How much: 0 keeps the node at its rest rotation, 1 follows fully.
    pub weight: f32,
}

/// Why constraints do not fit a rig; `index` is the constraint's, in the list given.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ConstraintError {
    /// A node or source is not one of the rig's nodes.
    #[error("constraint {index} names node {node}, but the rig has {count} nodes")]
    OffRig {
        /// The constraint.
        index: usize,
        /// The node named.
        node: u32,
        /// The rig's nodes.
        count: usize,
    },
    /// A constraint follows its own node.
    #[error("constraint {index} follows its own node")]
    OwnSource {
        /// The constraint.
        index: usize,
    },
    /// A node given by a matrix has no rotation of its own to set or to follow.
    #[error("constraint {index} sets or follows node {}, which is given by a matrix; give it a rotation", node.0)]
    MatrixNode {
        /// The constraint.
        index: usize,
        /// The node.
        node: NodeId,
    },
    /// A second constraint on one node.
    #[error("constraint {index} is the second on node {}: a node follows one source", node.0)]
    SecondOnNode {
        /// The constraint.
        index: usize,
        /// The node.
        node: NodeId,
    },
    /// A weight outside `[0, 1]`.
    #[error("constraint {index} has weight {weight}, not in [0, 1]")]
    Weight {
        /// The constraint.
        index: usize,
        /// The weight.
        weight: f32,
    },
    /// The constraint reads what it sets: through itself (an aim at a node below its own), or
    /// through others that read it. Of the constraints on such a cycle, the first in the list.
    #[error("constraint {index} reads what it sets, itself or through other constraints")]
    Cycle {
        /// The first constraint of the cycle, in the list given.
        index: usize,
    },
    /// With this constraint, aims would have more than [`MAX_AIM_WALK`] world matrices
    /// computed per pose (and so would every constraint after it).
    #[error(
        "constraint {index} is past what a pose may cost: the aims would compute more than {MAX_AIM_WALK} world \
         matrices; use fewer aims, or fewer constraints"
    )]
    TooCostly {
        /// The first constraint past the bound.
        index: usize,
    },
}

/// A rig's constraints in the order they run, with the rest rotations they need.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Constraints {
    /// In running order.
    ordered: Vec<Placed>,
    /// The nodes whose world matrices aims read (with every node above them), in rig order.
    read: Vec<NodeId>,
}

/// One constraint with its precomputed rests.
#[derive(Clone, Debug, PartialEq)]
struct Placed {
    constraint: NodeConstraint,
    /// The node's rest rotation, and its inverse.
    rest: Quat,
    inverse_rest: Quat,
    /// The source's rest rotation, inverted.
    inverse_source_rest: Quat,
    /// From where in `read` world matrices are computed again once it has run (`read.len()`
    /// when it moves none of them).
    refresh: usize,
}

impl Placed {
    /// `c` on a rig with `rests`, whose aims read the world matrices of `read`.
    fn new(c: NodeConstraint, rests: &[RestTransform], read: &[NodeId]) -> Self {
        let rotation = |node: NodeId| rests[node.index()].as_trs().map_or(Quat::IDENTITY, |t| t.rotation).normalize();
        let rest = rotation(c.node);
        // Moving its node moves the read nodes below it, all after it in rig order (the read
        // nodes hold every node above them, so it moves some only if it is one).
        let refresh = match read.binary_search(&c.node) {
            Ok(at) => at,
            Err(_) => read.len(),
        };
        Self {
            constraint: c,
            rest,
            inverse_rest: rest.inverse(),
            inverse_source_rest: rotation(c.source).inverse(),
            refresh,
        }
    }
}

impl ConstraintError {
    /// The constraint's index in the list given.
    #[must_use]
    pub fn index(&self) -> usize {
        match *self {
            Self::OffRig { index, .. }
            | Self::OwnSource { index }
            | Self::MatrixNode { index, .. }
            | Self::SecondOnNode { index, .. }
            | Self::Weight { index, .. }
            | Self::Cycle { index }
            | Self::TooCostly { index } => index,
        }
    }
}

/// The local transforms constraints read and set: a pose's, or one lane of the fast path's.
pub(crate) trait Locals {
    /// The node's local rotation.
    fn rotation(&self, node: NodeId) -> Quat;
    /// Sets the node's local rotation.
    fn set_rotation(&mut self, node: NodeId, rotation: Quat);
    /// The node's local matrix.
    fn matrix(&self, node: NodeId) -> Affine3A;
    /// The node's world matrix as last set.
    fn world(&self, node: NodeId) -> Affine3A;
    /// Sets the node's world matrix.
    fn set_world(&mut self, node: NodeId, world: Affine3A);
}

impl Constraints {
    /// Heap bytes of its tables.
    pub(crate) fn heap_bytes(&self) -> u64 {
        (size_of_val(&*self.ordered) + size_of_val(&*self.read)) as u64
    }

    /// Those of `list` a rig with `parents` and `rests` can run, ordered so that each runs after
    /// those it reads, and each refused one's error, in the list's order (see
    /// [`crate::Rig::admit_constraints`]). Linear in the list, the rig and the nodes aims read.
    pub(crate) fn admit(
        list: &[NodeConstraint],
        parents: &[Option<NodeId>],
        rests: &[RestTransform],
    ) -> (Self, Vec<ConstraintError>) {
        let count = parents.len();
        let mut refused = Vec::new();
        let mut kept = vec![false; list.len()];
        let mut on_node: Vec<Option<usize>> = vec![None; count];
        let mut read = vec![false; count];
        // The nodes aims read, and the constraints on them (each moves them all again).
        let (mut read_count, mut refreshing) = (0usize, 0usize);
        let mut newly_read = Vec::new();
        for (index, c) in list.iter().enumerate() {
            if let Err(error) = check(index, c, rests, &on_node) {
                refused.push(error);
                continue;
            }
            newly_read.clear();
            if matches!(c.kind, ConstraintKind::Aim(_)) {
                for mut at in [Some(c.source), parents[c.node.index()]] {
                    while let Some(node) = at.filter(|n| !read[n.index()]) {
                        read[node.index()] = true;
                        newly_read.push(node);
                        at = parents[node.index()];
                    }
                }
            }
            let new_read = read_count + newly_read.len();
            let constrained = newly_read.iter().filter(|n| on_node[n.index()].is_some()).count();
            let new_refreshing = refreshing + constrained + usize::from(read[c.node.index()]);
            if new_read.saturating_mul(1 + new_refreshing) > MAX_AIM_WALK {
                // Past the bound, and so is every constraint after it.
                for node in &newly_read {
                    read[node.index()] = false;
                }
                refused.extend((index..list.len()).map(|index| ConstraintError::TooCostly { index }));
                break;
            }
            (read_count, refreshing) = (new_read, new_refreshing);
            on_node[c.node.index()] = Some(index);
            kept[index] = true;
        }
        // The nearest node at or above each that a kept constraint sets.
        let mut nearest: Vec<Option<NodeId>> = vec![None; count];
        for node in 0..count {
            nearest[node] = match on_node[node] {
                Some(_) => Some(NodeId(node as u32)),
                None => parents[node].and_then(|p| nearest[p.index()]),
            };
        }
        // What each constraint reads that another sets: its source's own rotation (roll and
        // rotation), or every local at and above its source and above its node (aim).
        let mut readers: Vec<Vec<usize>> = vec![Vec::new(); list.len()];
        let mut setters: Vec<Vec<usize>> = vec![Vec::new(); list.len()];
        let mut waits = vec![0usize; list.len()];
        for (index, c) in list.iter().enumerate().filter(|(i, _)| kept[*i]) {
            let mut depend = |node: NodeId| {
                if let Some(setter) = on_node[node.index()] {
                    readers[setter].push(index);
                    setters[index].push(setter);
                    waits[index] += 1;
                }
            };
            match c.kind {
                ConstraintKind::Roll(_) | ConstraintKind::Rotation => depend(c.source),
                ConstraintKind::Aim(_) => {
                    for start in [Some(c.source), parents[c.node.index()]] {
                        let mut at = start.and_then(|n| nearest[n.index()]);
                        while let Some(node) = at {
                            depend(node);
                            at = parents[node.index()].and_then(|p| nearest[p.index()]);
                        }
                    }
                }
            }
        }
        let read: Vec<NodeId> = (0..count).filter(|&n| read[n]).map(|n| NodeId(n as u32)).collect();
        // Kahn's algorithm, the list's order among those ready; when all left wait on a
        // cycle, the first of one is refused and the others go on.
        let mut ready: BinaryHeap<Reverse<usize>> =
            (0..list.len()).filter(|&i| kept[i] && waits[i] == 0).map(Reverse).collect();
        let mut ordered = Vec::with_capacity(list.len());
        let (mut cursor, mut seen, mut searches) = (0, vec![usize::MAX; list.len()], 0);
        loop {
            while let Some(Reverse(index)) = ready.pop() {
                ordered.push(Placed::new(list[index], rests, &read));
                release(index, &readers, &mut waits, &mut ready);
            }
            while cursor < list.len() && waits[cursor] == 0 {
                cursor += 1;
            }
            if cursor == list.len() {
                break;
            }
            let index = first_on_cycle(cursor, &setters, &waits, (&mut seen, searches));
            searches += 1;
            refused.push(ConstraintError::Cycle { index });
            waits[index] = 0;
            release(index, &readers, &mut waits, &mut ready);
        }
        refused.sort_by_key(ConstraintError::index);
        (Self { ordered, read }, refused)
    }

    /// The nodes whose world matrices aims read, in rig order.
    pub(crate) fn read(&self) -> &[NodeId] {
        &self.read
    }

    /// The constraints, in the order they run.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &NodeConstraint> {
        self.ordered.iter().map(|p| &p.constraint)
    }

    /// How many.
    #[must_use]
    pub fn len(&self) -> usize {
        self.ordered.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.ordered.is_empty()
    }

    /// Sets every constrained node's local rotation in `locals`, in running order (`parents`:
    /// the rig's). The world matrices of the nodes aims read are set on the way.
    pub(crate) fn apply(&self, parents: &[Option<NodeId>], locals: &mut impl Locals) {
        self.place_read(parents, locals, 0);
        for placed in &self.ordered {
            let c = placed.constraint;
            let target = match c.kind {
                ConstraintKind::Rotation => placed.rest * (placed.inverse_source_rest * locals.rotation(c.source)),
                ConstraintKind::Roll(axis) => {
                    let axis = axis.vector();
                    let delta =
                        placed.inverse_rest * locals.rotation(c.source) * placed.inverse_source_rest * placed.rest;
                    placed.rest * arc(delta * axis, axis) * delta
                }
                ConstraintKind::Aim(axis) => {
                    let parent = parents[c.node.index()].map_or(Affine3A::IDENTITY, |p| locals.world(p));
                    let from = parent.transform_point3(locals.matrix(c.node).translation.into());
                    let to: Vec3 = locals.world(c.source).translation.into();
                    let turn = parent_rotation(&parent);
                    let aim = turn * (placed.rest * axis.vector());
                    turn.inverse() * arc(aim, (to - from).normalize_or_zero()) * turn * placed.rest
                }
            };
            let target = target.normalize();
            let rotation = if c.weight >= 1.0 {
                target
            } else if c.weight <= 0.0 {
                placed.rest
            } else {
                placed.rest.slerp(target, c.weight)
            };
            // A parent scaled to nothing, or a source on the node's own place, has no
            // direction: the node holds its rest.
            locals.set_rotation(c.node, if rotation.is_finite() { rotation } else { placed.rest });
            self.place_read(parents, locals, placed.refresh);
        }
    }

    /// Computes the world matrices of the read nodes from `from` on (in rig order, so every
    /// parent's is up to date first).
    fn place_read(&self, parents: &[Option<NodeId>], locals: &mut impl Locals, from: usize) {
        for &node in &self.read[from..] {
            let local = locals.matrix(node);
            let world = parents[node.index()].map_or(local, |parent| locals.world(parent) * local);
            locals.set_world(node, world);
        }
    }
}

/// The first constraint (in the list's order) of a cycle that `waiting`, left unordered, is on
/// or reads: each left unordered waits for a setter left unordered, so following those from
/// `waiting` comes round to a constraint seen before, on the cycle. `seen` marks those this
/// search, number `search`, has passed (a number of its own each, so no search stops at a
/// constraint an earlier one passed, whose cycle may be gone).
fn first_on_cycle(
    waiting: usize,
    setters: &[Vec<usize>],
    waits: &[usize],
    (seen, search): (&mut [usize], usize),
) -> usize {
    let next = |at: usize| setters[at].iter().copied().find(|&s| waits[s] > 0).unwrap_or(at);
    let mut at = waiting;
    while seen[at] != search {
        seen[at] = search;
        at = next(at);
    }
    // Round the cycle once more, keeping its first.
    let (start, mut first) = (at, at);
    at = next(at);
    while at != start {
        first = first.min(at);
        at = next(at);
    }
    first
}

/// Orders `index`'s readers: each waits for one setter less.
fn release(index: usize, readers: &[Vec<usize>], waits: &mut [usize], ready: &mut BinaryHeap<Reverse<usize>>) {
    for &reader in &readers[index] {
        if waits[reader] > 0 {
            waits[reader] -= 1;
            if waits[reader] == 0 {
                ready.push(Reverse(reader));
            }
        }
    }
}

/// Whether constraint `index`, `c`, fits a rig with `rests`, beside those already on
/// `on_node`.
fn check(
    index: usize,
    c: &NodeConstraint,
    rests: &[RestTransform],
    on_node: &[Option<usize>],
) -> Result<(), ConstraintError> {
    for node in [c.node, c.source] {
        let Some(rest) = rests.get(node.index()) else {
            return Err(ConstraintError::OffRig { index, node: node.0, count: rests.len() });
        };
        if rest.as_trs().is_none() {
            return Err(ConstraintError::MatrixNode { index, node });
        }
    }
    if c.node == c.source {
        return Err(ConstraintError::OwnSource { index });
    }
    if !(0.0..=1.0).contains(&c.weight) {
        return Err(ConstraintError::Weight { index, weight: c.weight });
    }
    if on_node[c.node.index()].is_some() {
        return Err(ConstraintError::SecondOnNode { index, node: c.node });
    }
    Ok(())
}

/// The rotation turning unit vector `from` onto `to` the shortest way (none when `to` is zero).
fn arc(from: Vec3, to: Vec3) -> Quat {
    if to == Vec3::ZERO { Quat::IDENTITY } else { Quat::from_rotation_arc(from.normalize(), to) }
}

/// The rotation part of a world matrix, its scale taken off.
fn parent_rotation(world: &Affine3A) -> Quat {
    world.to_scale_rotation_translation().1
}
